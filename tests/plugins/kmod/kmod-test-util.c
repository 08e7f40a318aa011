/* kmod-test-util.c: what the kmod plugin's tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The plugin is loaded by the built-in plugins' test host
 * (../builtin-test-host.c) as the window loads it; its automatic pass
 * runs in the test's own thread, as the worker runs it, and its tables
 * are read as the plugin's documented results.
 */
#include "config.h"

#include "cs-plugin-cli.h"
#include "cs-plugin-private.h"
#include "kmod-test-util.h"

/* Runs the plugin's pass ("events"), unless its results exist already:
 * in this thread, as the worker runs it, or through the document's
 * scheduler when it has one. */
void
kmod_test_run_pass (CsPluginDocument *plugins,
                    CsPlugin         *plugin)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_plugin_document_ensure_pass (plugins, plugin, "events", NULL, NULL, &error));
  g_assert_no_error (error);
}

static sqlite3 *
get_db (CsPluginDocument *plugins,
        CsPlugin         *plugin)
{
  g_autoptr(GError) error = NULL;
  sqlite3 *db = cs_plugin_document_get_pass_db (plugins, plugin, "events",
                                                NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (db);
  return db;
}

/* Every row of the pass's `sections` table, in its own order. */
GArray *
kmod_test_get_sections (CsPluginDocument *plugins,
                        CsPlugin         *plugin)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KmodTestSection));
  sqlite3_stmt *s = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (get_db (plugins, plugin),
                                       "SELECT kind, cpu, begin_ns, end_ns, requested_ns,"
                                       " measured_ns FROM sections ORDER BY begin_ns, cpu",
                                       -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      KmodTestSection section = {
        sqlite3_column_int (s, 0), (guint) sqlite3_column_int (s, 1),
        sqlite3_column_int64 (s, 2), sqlite3_column_int64 (s, 3),
        (guint64) sqlite3_column_int64 (s, 4), (guint64) sqlite3_column_int64 (s, 5),
      };

      g_array_append_val (out, section);
    }
  sqlite3_finalize (s);
  return out;
}

/* Every row of the pass's `wakeup_latencies` table. */
GArray *
kmod_test_get_latencies (CsPluginDocument *plugins,
                         CsPlugin         *plugin)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KmodTestLatency));
  sqlite3_stmt *s = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (get_db (plugins, plugin),
                                       "SELECT time_ns, cpu, pid, comm, target_cpu, latency_ns,"
                                       " threshold_ns FROM wakeup_latencies ORDER BY time_ns, cpu",
                                       -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      KmodTestLatency l = {
        .time_ns = sqlite3_column_int64 (s, 0),
        .cpu = (guint) sqlite3_column_int (s, 1),
        .pid = sqlite3_column_int (s, 2),
        .target_cpu = sqlite3_column_int (s, 4),
        .latency_ns = (guint64) sqlite3_column_int64 (s, 5),
        .threshold_ns = (guint64) sqlite3_column_int64 (s, 6),
      };

      g_strlcpy (l.comm, (const char *) sqlite3_column_text (s, 3), sizeof l.comm);
      g_array_append_val (out, l);
    }
  sqlite3_finalize (s);
  return out;
}

/* The one section of @kind; fails unless there is exactly one. */
const KmodTestSection *
kmod_test_only_section (GArray *sections,
                        int     kind)
{
  const KmodTestSection *found = NULL;

  for (guint i = 0; i < sections->len; i++)
    {
      const KmodTestSection *s = &g_array_index (sections, KmodTestSection, i);

      if (s->kind != kind)
        continue;
      g_assert_null (found);
      found = s;
    }
  g_assert_nonnull (found);
  return found;
}

/* The plugin's member of `info --json`, built as the command line does. */
JsonNode *
kmod_test_build_json (CsPluginDocument *plugins,
                      CsPlugin         *plugin)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GError) error = NULL;
  const CsPluginJsonSection *section;
  CsPluginJsonFunc func;

  g_assert_cmpuint (_cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_JSON), ==, 1);
  section = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_JSON, 0);
  g_assert_cmpstr (section->member, ==, "kmod");
  func = (CsPluginJsonFunc) section->func;
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, section->member);
  g_assert_true (func (cs_plugin_document_get_instance (plugins, plugin), builder, &error));
  g_assert_no_error (error);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
