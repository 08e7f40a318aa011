/* test-index-live.c: the live index (cs-index-live.c) on the project's
 * recordings: what it refuses, and that the index it builds of a file is
 * the one cs_index_build() builds.  The recorder's snapshots, which it is
 * made for, are tested in tests/record/test-recorder.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-index-live.h"
#include "index-test-util.h"

typedef struct {
  char *dir;
  char *base;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cs-index-live-XXXXXX", &error);
  g_assert_no_error (error);
  f->base = g_build_filename (f->dir, "base.index", NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  /* Nothing is left behind: no base, no temporary index. */
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_error ("left behind: %s", name);
  g_rmdir (f->dir);
  g_free (f->base);
  g_free (f->dir);
}

/* One file added and finished: the index cs_index_build() makes of it,
 * every event, slice and task interval (cs_test_assert_same_index()). */
static void
test_one_file (Fixture *f, gconstpointer data)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *live_index = g_build_filename (f->dir, "live.index", NULL);
  g_autofree char *whole_index = g_build_filename (f->dir, "whole.index", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *identity = cs_index_cache_compute_identity (path, &error);
  g_autoptr(CsIndexLive) live = cs_index_live_new (f->base, &error);
  g_autoptr(CsDocument) whole = NULL;
  g_autoptr(CsDocument) written = NULL;
  g_autoptr(CsDocument) finished = NULL;

  g_assert_no_error (error);
  g_assert_true (cs_index_build (path, identity, whole_index, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  whole = cs_document_open (path, whole_index, &error);
  g_assert_no_error (error);

  /* Before any file: nothing to write. */
  g_assert_false (cs_index_live_write (live, identity, live_index, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED);
  g_clear_error (&error);

  g_assert_true (cs_index_live_add (live, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_index_live_get_bytes_read (live), >, 0);
  g_assert_true (cs_index_live_write (live, identity, live_index, &error));
  g_assert_no_error (error);
  written = cs_document_open (path, live_index, &error);
  g_assert_no_error (error);
  cs_test_assert_same_index (whole, written);
  g_clear_object (&written);
  g_unlink (live_index);

  /* The same file again adds nothing, and changes nothing. */
  {
    guint64 read = cs_index_live_get_bytes_read (live);

    g_assert_true (cs_index_live_add (live, path, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (cs_index_live_get_bytes_read (live), ==, read);
  }
  g_assert_true (cs_index_live_finish (live, identity, live_index, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (f->base, G_FILE_TEST_EXISTS));
  finished = cs_document_open (path, live_index, &error);
  g_assert_no_error (error);
  cs_test_assert_same_index (whole, finished);
  g_assert_cmpuint (cs_index_live_get_n_events (live), ==, cs_document_get_n_events (whole));

  /* A finished live index takes no more. */
  g_assert_false (cs_index_live_add (live, path, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED);
  g_test_message ("after finishing: %s", error->message);

  g_clear_object (&whole);
  g_clear_object (&finished);
  g_unlink (live_index);
  g_unlink (whole_index);
}

/* A file that does not continue the previous one, a compressed one, one
 * that is not a recording: each refused with a message that names it, and
 * after a refusal mid-way, the live index keeps refusing. */
static void
test_refusals (Fixture *f, gconstpointer data)
{
  g_autofree char *first = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *other = cs_test_own_path ("no-sched-v6.dat");
  g_autofree char *compressed = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *text = cs_test_own_path ("README.md");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsIndexLive) live = cs_index_live_new (f->base, &error);

  g_assert_no_error (error);
  g_assert_false (cs_index_live_add (live, compressed, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, compressed));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_false (cs_index_live_add (live, text, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_true (cs_index_live_add (live, first, &error));
  g_assert_no_error (error);
  g_assert_false (cs_index_live_add (live, other, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED);
  g_assert_nonnull (strstr (error->message, other));
  g_assert_nonnull (strstr (error->message, first));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/index/CsIndexLive/one-file", Fixture, NULL,
              fixture_set_up, test_one_file, fixture_tear_down);
  g_test_add ("/cs/index/CsIndexLive/refusals", Fixture, NULL,
              fixture_set_up, test_refusals, fixture_tear_down);
  return g_test_run ();
}
