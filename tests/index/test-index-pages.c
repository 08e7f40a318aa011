/* test-index-pages.c: an index in 64 KiB pages, whose event and slice
 * chunks the builder stores out of order to fill the pages
 * (index/store/cs-chunk-packer.c), reads as the same index in 8 KiB pages
 * stored in order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Recordings under 32 MiB get 8 KiB pages; CS_INDEX_TEST_LARGE_PAGES
 * (cs-test-hook.c) gives the bundled sample (~200 event chunks) the pages
 * of a large recording.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-test-hook.h"
#include "index-test-util.h"

/* The index's page size, and how many rows of @table are stored out of
 * their (cpu, chunk) order. */
static guint
count_out_of_order (const char *index_path,
                    const char *table,
                    int        *page_size)
{
  g_autofree char *sql = g_strdup_printf ("SELECT cpu, chunk FROM %s ORDER BY rowid", table);
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  gint64 last_cpu = -1, last_chunk = -1;
  guint n = 0;

  g_assert_cmpint (sqlite3_open_v2 (index_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA page_size", -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  *page_size = sqlite3_column_int (s, 0);
  sqlite3_finalize (s);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      gint64 cpu = sqlite3_column_int64 (s, 0), chunk = sqlite3_column_int64 (s, 1);

      /* Two CPUs' chunks interleave; each CPU's come in order unless packed. */
      if (cpu == last_cpu && chunk < last_chunk)
        n++;
      last_cpu = cpu;
      last_chunk = chunk;
    }
  sqlite3_finalize (s);
  sqlite3_close (db);
  return n;
}

static void
test_packed_pages (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-index-pages-XXXXXX", &error);
  g_autofree char *small_index = g_build_filename (dir, "small.index", NULL);
  g_autofree char *large_index = g_build_filename (dir, "large.index", NULL);
  g_autofree char *identity = cs_index_cache_compute_identity (CS_SAMPLE_TRACE, &error);
  g_autoptr(CsDocument) small = NULL;
  g_autoptr(CsDocument) large = NULL;
  int small_page = 0, large_page = 0;
  guint small_moved, large_moved;

  g_assert_no_error (error);
  g_assert_true (cs_index_build (CS_SAMPLE_TRACE, identity, small_index, NULL, NULL, NULL, NULL,
                                 &error));
  g_assert_no_error (error);
  cs_test_hook_set ("CS_INDEX_TEST_LARGE_PAGES", TRUE);
  g_assert_true (cs_index_build (CS_SAMPLE_TRACE, identity, large_index, NULL, NULL, NULL, NULL,
                                 &error));
  cs_test_hook_set ("CS_INDEX_TEST_LARGE_PAGES", FALSE);
  g_assert_no_error (error);

  small_moved = count_out_of_order (small_index, "event_chunks", &small_page);
  large_moved = count_out_of_order (large_index, "event_chunks", &large_page) +
                count_out_of_order (large_index, "slice_chunks", &large_page);
  g_test_message ("pages of %d bytes: %u rows out of order; of %d bytes: %u", small_page,
                  small_moved, large_page, large_moved);
  g_assert_cmpint (small_page, ==, 8192);
  g_assert_cmpint (large_page, ==, 65536);
  g_assert_cmpuint (small_moved, ==, 0);
  g_assert_cmpuint (large_moved, >, 0);

  small = cs_document_open (CS_SAMPLE_TRACE, small_index, &error);
  g_assert_no_error (error);
  large = cs_document_open (CS_SAMPLE_TRACE, large_index, &error);
  g_assert_no_error (error);
  cs_test_assert_same_index (small, large);

  g_clear_object (&small);
  g_clear_object (&large);
  g_unlink (small_index);
  g_unlink (large_index);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/pages/packed", test_packed_pages);
  return g_test_run ();
}
