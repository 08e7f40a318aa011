/* test-latency-pass.c: the latency pass run in-process, cancelled and not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass reads its events through the feed's threads (one per CPU,
 * index/plugin/cs-plugin-pass-feed.c): a pass cancelled while they read
 * must stop them, fail with G_IO_ERROR_CANCELLED and leave no results,
 * and the same document must then run the pass to the end, with the
 * pairs the command line reports (tests/plugins/latency/check-latency.py
 * checks those against the oracle).
 *
 * The pass stores its rows in chunks of 512, read through the virtual
 * table `latency_rows` (index/plugin/cs-plugin-result-rows.c): lookups by
 * rowid, rowid ranges and max(rowid) must give the rows of a full scan
 * and decode only the chunks they need and read only the rows they give
 * (cs_latency_rows_decodes(), cs_latency_rows_read()).
 */
#include "config.h"

#include <gio/gio.h>

#include "builtin-test-host.h"

/* Both with more than 512 wakeup and switch events (the pass checks
 * for Cancel every 512); the second has 8 CPUs, 8 feed threads. */
static const CsTestRecording sched_v6 = { "sched-irq-v6.dat" };
static const CsTestRecording sched_v7 = { "sched-irq-v7.dat" };
static const CsTestRecording sched_8cpus = { "public/sched-x86-v7-zstd.dat" };
/* 6,554 function_graph pairs: 13 chunks of rows. */
static const CsTestRecording funcgraph = { "funcgraph-v7.dat" };

#define CHUNK_ROWS 512

static void
fixture_set_up (CsBuiltinFixture *fixture,
                gconstpointer     data)
{
  cs_builtin_fixture_set_up (fixture, "latency", data);
}

static void
fixture_tear_down (CsBuiltinFixture *fixture,
                   gconstpointer     data)
{
  cs_builtin_fixture_tear_down (fixture);
}

static gint64
count_pairs (sqlite3 *db)
{
  sqlite3_stmt *s = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM latency", -1, &s, NULL), ==,
                   SQLITE_OK);
  if (sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return n;
}

static void
test_cancel_then_run (CsBuiltinFixture *fixture,
                      gconstpointer     data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  const char *args[] = { "latency", NULL, "--preset", "wakeup", "--json", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *recording = cs_test_find_recording (data);
  JsonObject *cli;
  sqlite3 *db;

  g_cancellable_cancel (cancellable);
  g_assert_false (_cs_plugin_pass_run (fixture->plugins, fixture->plugin, "pairs", "wakeup",
                                       NULL, NULL, cancellable, &path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (path);
  g_clear_error (&error);
  g_assert_null (cs_plugin_document_get_pass_db (fixture->plugins, fixture->plugin, "pairs",
                                                 "wakeup", &error));
  g_clear_error (&error);

  g_assert_true (_cs_plugin_pass_run (fixture->plugins, fixture->plugin, "pairs", "wakeup",
                                      NULL, NULL, NULL, &path, &error));
  g_assert_no_error (error);
  g_assert_nonnull (path);
  db = cs_plugin_document_get_pass_db (fixture->plugins, fixture->plugin, "pairs", "wakeup",
                                       &error);
  g_assert_no_error (error);
  g_assert_nonnull (db);

  args[1] = recording;
  expected = cs_builtin_run_chronoscope (args);
  g_assert_nonnull (expected);
  g_assert_true (json_parser_load_from_data (parser, expected, -1, NULL));
  cli = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (count_pairs (db), >, 0);
  g_assert_cmpint (count_pairs (db), ==, json_object_get_int_member (cli, "count"));
}

static gint64
query_int (sqlite3    *db,
           const char *sql)
{
  sqlite3_stmt *s = NULL;
  gint64 v = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  if (sqlite3_step (s) == SQLITE_ROW)
    v = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return v;
}

static gint64
decodes (sqlite3 *db)
{
  return query_int (db, "SELECT cs_latency_rows_decodes()");
}

static gint64
rows_read (sqlite3 *db)
{
  return query_int (db, "SELECT cs_latency_rows_read()");
}

/* A row as text: "rowid a_ts b_ts pid k0 k1", NULLs as "-". */
static char *
row_text (sqlite3_stmt *s)
{
  GString *text = g_string_new (NULL);

  for (int i = 0; i < sqlite3_column_count (s); i++)
    g_string_append_printf (text, "%s%s", i > 0 ? " " : "",
                            sqlite3_column_type (s, i) == SQLITE_NULL
                              ? "-" : (const char *) sqlite3_column_text (s, i));
  return g_string_free (text, FALSE);
}

#define ROW_COLUMNS "rowid, a_ts, b_ts, pid, k0, k1, k2, dur_ns"

/* The rows @where selects, in rowid order, one per line. */
static char *
rows_where (sqlite3    *db,
            const char *where)
{
  g_autofree char *sql = g_strdup_printf ("SELECT " ROW_COLUMNS " FROM latency WHERE %s", where);
  GString *all = g_string_new (NULL);
  sqlite3_stmt *s = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      g_autofree char *row = row_text (s);

      g_string_append_printf (all, "%s\n", row);
    }
  sqlite3_finalize (s);
  return g_string_free (all, FALSE);
}

static void
test_rows_by_rowid (CsBuiltinFixture *fixture,
                    gconstpointer     data)
{
  /* Where clauses, and the rows of the full scan they keep (positions
   * 0-based of the scan, inclusive; -1: the last). */
  static const struct { const char *where; gint64 first, last; gint64 max_decodes; } cases[] = {
    { "rowid = 1", 0, 0, 1 },
    { "rowid = 512", 511, 511, 1 },
    { "rowid = 513", 512, 512, 1 },
    { "rowid >= 4000 AND rowid < 4200", 3999, 4198, 2 },
    { "rowid > 511.5 AND rowid <= 513", 511, 512, 2 },
    { "rowid < 2.5", 0, 1, 1 },
    { "rowid = 3.5", 1, 0, 0 },
    { "rowid = NULL", 1, 0, 0 },
    { "rowid > 4096 AND a_ts > 0", 4096, -1, 5 },
    { "rowid >= 999999999", 1, 0, 1 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) scan = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *s = NULL;
  gint64 n, before, read_before;
  sqlite3 *db;

  g_assert_true (_cs_plugin_pass_run (fixture->plugins, fixture->plugin, "pairs", "funcgraph",
                                      NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  db = cs_plugin_document_get_pass_db (fixture->plugins, fixture->plugin, "pairs", "funcgraph",
                                       &error);
  g_assert_no_error (error);
  g_assert_nonnull (db);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT " ROW_COLUMNS " FROM latency", -1, &s, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      g_assert_cmpint (sqlite3_column_int64 (s, 0), ==, scan->len + 1);
      g_ptr_array_add (scan, row_text (s));
    }
  sqlite3_finalize (s);
  n = scan->len;
  g_assert_cmpint (n, >, 12 * CHUNK_ROWS);

  before = decodes (db);
  read_before = rows_read (db);
  g_assert_cmpint (query_int (db, "SELECT ifnull(max(rowid), 0) FROM latency"), ==, n);
  g_assert_cmpint (decodes (db) - before, <=, 1);
  g_assert_cmpint (rows_read (db) - read_before, ==, 1);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM latency"), ==, n);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 last = cases[i].last < 0 ? n - 1 : MIN (cases[i].last, n - 1);
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autofree char *got = NULL;

      for (gint64 r = cases[i].first; r <= last && r < n; r++)
        g_string_append_printf (expected, "%s\n", (const char *) scan->pdata[r]);
      /* Another chunk in the cache first: the lookup decodes again. */
      g_assert_cmpint (query_int (db, "SELECT count(*) FROM latency WHERE rowid = 5000"), ==, 1);
      g_assert_cmpint (query_int (db, "SELECT count(*) FROM latency WHERE rowid = 6000 + 1"),
                       ==, 1);
      before = decodes (db);
      read_before = rows_read (db);
      got = rows_where (db, cases[i].where);
      g_test_message ("%s: %" G_GINT64_FORMAT " decodes, %" G_GINT64_FORMAT " rows read",
                      cases[i].where, decodes (db) - before, rows_read (db) - read_before);
      g_assert_cmpstr (got, ==, expected->str);
      g_assert_cmpint (decodes (db) - before, <=, cases[i].max_decodes);
      /* Only the rows given (a bound with a fraction may add one). */
      g_assert_cmpint (rows_read (db) - read_before, <=, MAX (last - cases[i].first + 1, 0) + 1);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/cs/plugins/LatencyPass/cancel-then-run", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_cancel_then_run, fixture_tear_down);
  g_test_add ("/cs/plugins/LatencyPass/cancel-then-run-v7", CsBuiltinFixture, &sched_v7,
              fixture_set_up, test_cancel_then_run, fixture_tear_down);
  if (cs_test_public_or_add_skip ("/cs/plugins/LatencyPass/cancel-then-run-8-cpus",
                                  sched_8cpus.name + strlen ("public/")))
    g_test_add ("/cs/plugins/LatencyPass/cancel-then-run-8-cpus", CsBuiltinFixture, &sched_8cpus,
                fixture_set_up, test_cancel_then_run, fixture_tear_down);
  g_test_add ("/cs/plugins/LatencyPass/rows-by-rowid", CsBuiltinFixture, &funcgraph,
              fixture_set_up, test_rows_by_rowid, fixture_tear_down);
  return g_test_run ();
}
