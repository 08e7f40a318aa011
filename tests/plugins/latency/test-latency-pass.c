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
 */
#include "config.h"

#include <gio/gio.h>

#include "builtin-test-host.h"

/* Both with more than 512 wakeup and switch events (the pass checks
 * for Cancel every 512); the second has 8 CPUs, 8 feed threads. */
static const CsTestRecording sched_v6 = { "sched-irq-v6.dat", "sched-x86-v7-zstd.dat" };
static const CsTestRecording sched_8cpus = { "sched-x86-v7-zstd.dat", "sched-x86-v7-zstd.dat" };

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/cs/plugins/LatencyPass/cancel-then-run", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_cancel_then_run, fixture_tear_down);
  g_test_add ("/cs/plugins/LatencyPass/cancel-then-run-8-cpus", CsBuiltinFixture, &sched_8cpus,
              fixture_set_up, test_cancel_then_run, fixture_tear_down);
  return g_test_run ();
}
