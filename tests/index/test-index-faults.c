/* test-index-faults.c: the index cache when other writers and the recording
 * itself change under a build: one builder per index (the lock), and a
 * recording truncated or rewritten while it is read.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Real recordings are copied into the test's temporary folder, so that
 * they can be changed; the cache is the test's own (ISOLATE_DIRS).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "cs-cpu-scanner.h"
#include "cs-index-builder.h"
#include "cs-task-timeline.h"
#include "cs-index-cache.h"
#include "cs-index-error.h"
#include "cs-index-lock.h"
#include "index-test-util.h"

/* A recording with a few thousand events on two CPUs, and another one. */
#define RECORDING "sched-irq-v6.dat"
#define OTHER_RECORDING "no-sched-v6.dat"

static char *
copy_recording (const char *name,
                const char *as)
{
  g_autofree char *source = cs_test_own_path (name);
  g_autofree char *contents = NULL;
  g_autofree char *dir = g_build_filename (g_get_home_dir (), "recordings", NULL);
  char *path = g_build_filename (dir, as, NULL);
  gsize length;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  return path;
}

/* The names in the cache folder, sorted. */
static GPtrArray *
list_cache (void)
{
  g_autofree char *dir_path = cs_index_cache_dup_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_test_message ("in the cache: %s", name);
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

static char *
index_path_of (const char *trace_path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *identity = cs_index_cache_compute_identity (trace_path, &error);
  g_autofree char *dir = NULL;

  g_assert_no_error (error);
  dir = cs_index_cache_dup_writable_dir (NULL, &error);
  g_assert_no_error (error);
  return cs_index_cache_dup_index_path_in (dir, identity);
}

/* ---- one builder per index ---------------------------------------------- */

typedef struct {
  const char *trace_path;
  CsDocument *document;
  GError *error;
  gboolean reused;
  gint done;              /* atomic */
  gint permille;          /* atomic: the last progress reported */
} Loader;

static void
loader_progress_cb (double   fraction,
                    gpointer data)
{
  Loader *l = data;

  g_atomic_int_set (&l->permille, (gint) (fraction * 1000 + 0.5));
}

static gpointer
load_thread (gpointer data)
{
  Loader *l = data;

  l->document = cs_document_load (l->trace_path, loader_progress_cb, l, NULL, &l->reused,
                                  &l->error);
  g_atomic_int_set (&l->done, TRUE);
  return NULL;
}

static void
wait_for_permille (Loader *l,
                   gint    permille)
{
  gint64 until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while (g_atomic_int_get (&l->permille) != permille && g_get_monotonic_time () < until)
    g_usleep (5 * 1000);
  g_assert_cmpint (g_atomic_int_get (&l->permille), ==, permille);
}

/* While another holds the index's lock, a load waits without writing
 * anything, reporting the holder's progress as its own; when the holder
 * has built the index, the load reuses it. */
static void
test_waits_for_the_builder (void)
{
  g_autofree char *path = copy_recording (RECORDING, "waits.dat");
  g_autofree char *index_path = index_path_of (path);
  g_autofree char *identity = cs_index_cache_compute_identity (path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  CsIndexLock *lock;
  Loader loader = { path, .permille = -1 };
  GThread *thread;
  gboolean waited = TRUE;

  lock = cs_index_lock_acquire (index_path, NULL, NULL, NULL, &waited, &error);
  g_assert_no_error (error);
  g_assert_false (waited);

  thread = g_thread_new ("loader", load_thread, &loader);
  g_usleep (500 * 1000);
  g_assert_false (g_atomic_int_get (&loader.done));
  names = list_cache ();
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (names, 0), ".csindex.lock"));

  /* The waiter follows the holder's progress. */
  g_assert_cmpint (g_atomic_int_get (&loader.permille), ==, -1);
  cs_index_lock_set_progress (lock, 0.25);
  wait_for_permille (&loader, 250);
  cs_index_lock_set_progress (lock, 0.5);
  wait_for_permille (&loader, 500);
  g_assert_false (g_atomic_int_get (&loader.done));

  /* The holder builds, then lets go. */
  g_assert_true (cs_index_build (path, identity, index_path, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  cs_index_lock_release (lock);

  g_thread_join (thread);
  g_assert_no_error (loader.error);
  g_assert_nonnull (loader.document);
  g_assert_true (loader.reused);
  g_assert_cmpstr (cs_document_get_index_path (loader.document), ==, index_path);
  g_clear_object (&loader.document);

  /* The lock file went with its last holder. */
  g_clear_pointer (&names, g_ptr_array_unref);
  names = list_cache ();
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (names, 0), ".csindex"));
  g_unlink (index_path);
  g_unlink (path);
}

typedef struct {
  Loader loader;
  GCancellable *cancellable;
} CancelledLoader;

static gpointer
cancellable_load_thread (gpointer data)
{
  CancelledLoader *c = data;

  c->loader.document = cs_document_load (c->loader.trace_path, NULL, NULL, c->cancellable,
                                         NULL, &c->loader.error);
  g_atomic_int_set (&c->loader.done, TRUE);
  return NULL;
}

/* A lock file whose holder was killed is housekeeping's to remove; a held
 * one is not. */
static void
test_stale_lock_removed (void)
{
  g_autofree char *path = copy_recording (RECORDING, "stale-lock.dat");
  g_autofree char *index_path = index_path_of (path);
  g_autofree char *lock_path = g_strconcat (index_path, ".lock", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  CsIndexLock *lock;

  /* What a SIGKILLed holder leaves: the file, unlocked. */
  g_assert_true (g_file_set_contents (lock_path, "0.420\n", -1, NULL));
  cs_index_cache_remove_stale_temporaries ();
  g_assert_false (g_file_test (lock_path, G_FILE_TEST_EXISTS));

  lock = cs_index_lock_acquire (index_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  cs_index_cache_remove_stale_temporaries ();
  g_assert_true (g_file_test (lock_path, G_FILE_TEST_EXISTS));
  cs_index_lock_release (lock);
  g_assert_false (g_file_test (lock_path, G_FILE_TEST_EXISTS));

  /* A leftover lock file does not stop a build either. */
  g_assert_true (g_file_set_contents (lock_path, "", -1, NULL));
  doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (lock_path, G_FILE_TEST_EXISTS));
  g_unlink (cs_document_get_index_path (doc));
  g_unlink (path);
}

/* Cancel reaches a load that is waiting for another builder. */
static void
test_cancel_while_waiting (void)
{
  g_autofree char *path = copy_recording (RECORDING, "cancel-wait.dat");
  g_autofree char *index_path = index_path_of (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CancelledLoader c = { { path }, cancellable };
  CsIndexLock *lock;
  GThread *thread;
  gint64 cancelled_at;

  lock = cs_index_lock_acquire (index_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("loader", cancellable_load_thread, &c);
  g_usleep (200 * 1000);
  g_assert_false (g_atomic_int_get (&c.loader.done));

  cancelled_at = g_get_monotonic_time ();
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, G_USEC_PER_SEC / 2);
  g_assert_null (c.loader.document);
  g_assert_error (c.loader.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&c.loader.error);

  cs_index_lock_release (lock);
  g_assert_false (g_file_test (index_path, G_FILE_TEST_EXISTS));
  g_unlink (path);
}

/* Loads of one new recording at once: exactly one builds, every one gets
 * the same complete index. */
static void
test_one_builder_at_once (void)
{
  g_autofree char *path = copy_recording (RECORDING, "at-once.dat");
  g_autoptr(CsDocument) reference = NULL;
  g_autoptr(GPtrArray) names = NULL;
  Loader loaders[4];
  GThread *threads[G_N_ELEMENTS (loaders)];
  guint n_built = 0;

  for (guint i = 0; i < G_N_ELEMENTS (loaders); i++)
    {
      loaders[i] = (Loader) { path };
      threads[i] = g_thread_new ("loader", load_thread, &loaders[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (loaders); i++)
    {
      g_thread_join (threads[i]);
      g_assert_no_error (loaders[i].error);
      g_assert_nonnull (loaders[i].document);
      n_built += !loaders[i].reused;
    }
  g_assert_cmpuint (n_built, ==, 1);

  reference = g_object_ref (loaders[0].document);
  for (guint i = 0; i < G_N_ELEMENTS (loaders); i++)
    {
      g_assert_cmpstr (cs_document_get_index_path (loaders[i].document), ==,
                       cs_document_get_index_path (reference));
      g_assert_cmpuint (cs_document_get_n_events (loaders[i].document), ==,
                        cs_document_get_n_events (reference));
      g_clear_object (&loaders[i].document);
    }
  g_assert_cmpuint (cs_document_get_n_events (reference), >, 0);

  names = list_cache ();
  g_assert_cmpuint (names->len, ==, 1);
  g_unlink (cs_document_get_index_path (reference));
  g_unlink (path);
}

/* ---- the recording changes while it is indexed -------------------------- */

typedef enum {
  TRUNCATE,            /* cut to half its length */
  REWRITE,             /* the same name, another recording's bytes */
  REWRITE_EVERY_TIME,  /* rewritten at every progress report */
} Change;

typedef struct {
  const char *path;
  Change change;
  guint n_changes;
} Changer;

static void
change_cb (double   fraction,
           gpointer user_data)
{
  Changer *c = user_data;
  g_autofree char *other = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (c->n_changes > 0 && c->change != REWRITE_EVERY_TIME)
    return;
  c->n_changes++;
  if (c->change == TRUNCATE)
    {
      GStatBuf st;

      g_assert_cmpint (g_stat (c->path, &st), ==, 0);
      g_assert_cmpint (truncate (c->path, st.st_size / 2), ==, 0);
      return;
    }
  /* Rewritten in place (same inode), alternating two recordings so that
   * every rewrite changes the bytes. */
  other = cs_test_own_path (c->n_changes % 2 ? OTHER_RECORDING : RECORDING);
  g_assert_true (g_file_get_contents (other, &contents, &length, NULL));
  int fd = g_open (c->path, O_WRONLY | O_TRUNC, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, contents, length), ==, (gssize) length);
  close (fd);
}

/* Any index left in the cache belongs to the recording as it is now. */
static void
assert_cache_matches (const char *path)
{
  g_autoptr(GPtrArray) names = list_cache ();
  g_autofree char *current = index_path_of (path);
  g_autofree char *current_name = g_path_get_basename (current);

  for (guint i = 0; i < names->len; i++)
    g_assert_cmpstr (g_ptr_array_index (names, i), ==, current_name);
}

/* cs_index_build() itself refuses to keep what it read. */
static void
test_build_refuses_changed (gconstpointer data)
{
  Change change = GPOINTER_TO_INT (data);
  g_autofree char *path = copy_recording (RECORDING, "changed-build.dat");
  g_autofree char *identity = cs_index_cache_compute_identity (path, NULL);
  g_autofree char *index_path = index_path_of (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  Changer changer = { path, change };

  g_assert_false (cs_index_build (path, identity, index_path, change_cb, NULL, &changer, NULL, &error));
  g_assert_cmpuint (changer.n_changes, >, 0);
  g_test_message ("%s", error->message);
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_false (g_file_test (index_path, G_FILE_TEST_EXISTS));
  names = list_cache ();
  g_assert_cmpuint (names->len, ==, 0);
  g_unlink (path);
}

/* cs_document_load() builds once more on what the file holds then; a file
 * that keeps changing is an error, and nothing is kept. */
static void
test_load_changed (gconstpointer data)
{
  Change change = GPOINTER_TO_INT (data);
  g_autofree char *path = copy_recording (RECORDING, "changed-load.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  Changer changer = { path, change };

  doc = cs_document_load (path, change_cb, &changer, NULL, NULL, &error);
  g_assert_cmpuint (changer.n_changes, >, 0);
  switch (change)
    {
    case TRUNCATE:
      /* Half a recording: whatever its reader makes of it (events up to
       * the cut, or a named error), never the first build's index. */
      if (doc == NULL)
        {
          g_test_message ("%s", error->message);
          g_assert_true (error->domain == CS_INDEX_ERROR);
        }
      break;
    case REWRITE:
      {
        g_autoptr(CsDocument) other = cs_test_load (OTHER_RECORDING);

        g_assert_no_error (error);
        g_assert_nonnull (doc);
        g_assert_cmpuint (cs_document_get_n_events (doc), ==, cs_document_get_n_events (other));
        g_assert_cmpuint (cs_document_get_n_cpus (doc), ==, cs_document_get_n_cpus (other));
        g_unlink (cs_document_get_index_path (other));
      }
      break;
    case REWRITE_EVERY_TIME:
      g_assert_null (doc);
      g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED);
      g_assert_cmpuint (changer.n_changes, >=, 2);
      break;
    }
  assert_cache_matches (path);
  if (doc != NULL)
    g_unlink (cs_document_get_index_path (doc));
  g_unlink (path);
}

/* ---- memory bounds ------------------------------------------------------ */

static GArray *
task_intervals (CsDocument *doc,
                gint32      pid)
{
  g_autoptr(GError) error = NULL;
  GArray *intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));

  g_assert_true (cs_document_get_task_intervals (doc, pid, cs_document_get_first_ns (doc),
                                                 cs_document_get_last_ns (doc) + 1,
                                                 intervals, &error));
  g_assert_no_error (error);
  return intervals;
}

/* Tasks' rows written out early, as shorter chunks, whenever the scan's
 * buffers pass their budget (here 1 KiB, so at almost every task): the
 * task plots read the same as with the default budget. */
static void
test_task_rows_budget (void)
{
  g_autofree char *path = copy_recording (RECORDING, "budget.dat");
  g_autoptr(CsDocument) reference = cs_test_load (RECORDING);
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  gsize saved = _cs_scan_task_rows_budget_bytes;
  guint n_compared = 0;

  _cs_scan_task_rows_budget_bytes = 1024;
  doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  _cs_scan_task_rows_budget_bytes = saved;
  g_assert_no_error (error);

  g_assert_cmpuint (cs_document_get_n_tasks (doc), ==, cs_document_get_n_tasks (reference));
  g_assert_cmpuint (cs_document_get_n_tasks (doc), >, 8);
  for (guint i = 0; i < cs_document_get_n_tasks (reference); i++)
    {
      gint32 pid = cs_document_get_task (reference, i)->pid;
      g_autoptr(GArray) want = task_intervals (reference, pid);
      g_autoptr(GArray) got = task_intervals (doc, pid);

      g_assert_cmpuint (got->len, ==, want->len);
      for (guint j = 0; j < want->len; j++)
        {
          const CsTaskInterval *w = &g_array_index (want, CsTaskInterval, j);
          const CsTaskInterval *g = &g_array_index (got, CsTaskInterval, j);

          g_assert_cmpint (g->begin_ns, ==, w->begin_ns);
          g_assert_cmpint (g->end_ns, ==, w->end_ns);
          g_assert_cmpint (g->state, ==, w->state);
          g_assert_cmpint (g->cpu, ==, w->cpu);
          g_assert_cmpint (g->wakeup_ns, ==, w->wakeup_ns);
        }
      n_compared += want->len;
    }
  g_test_message ("%u task intervals compared", n_compared);
  g_assert_cmpuint (n_compared, >, 100);
  g_unlink (cs_document_get_index_path (doc));
  g_unlink (cs_document_get_index_path (reference));
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/index/CsIndexLock/waits-for-the-builder", test_waits_for_the_builder);
  g_test_add_func ("/cs/index/CsIndexLock/one-builder-at-once", test_one_builder_at_once);
  g_test_add_func ("/cs/index/CsIndexLock/cancel-while-waiting", test_cancel_while_waiting);
  g_test_add_func ("/cs/index/CsIndexLock/stale-lock-removed", test_stale_lock_removed);
  g_test_add_data_func ("/cs/index/CsIndexBuilder/refuses-truncated", GINT_TO_POINTER (TRUNCATE),
                        test_build_refuses_changed);
  g_test_add_data_func ("/cs/index/CsIndexBuilder/refuses-rewritten", GINT_TO_POINTER (REWRITE),
                        test_build_refuses_changed);
  g_test_add_data_func ("/cs/index/CsDocument/load-truncated-meanwhile", GINT_TO_POINTER (TRUNCATE),
                        test_load_changed);
  g_test_add_data_func ("/cs/index/CsDocument/load-rewritten-meanwhile", GINT_TO_POINTER (REWRITE),
                        test_load_changed);
  g_test_add_data_func ("/cs/index/CsDocument/load-always-changing",
                        GINT_TO_POINTER (REWRITE_EVERY_TIME), test_load_changed);

  g_test_add_func ("/cs/index/CsCpuScan/task-rows-budget", test_task_rows_budget);

  return g_test_run ();
}
