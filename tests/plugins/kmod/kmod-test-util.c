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

/* The pass's `sections` and `wakeup_latencies` tables, as the demos read
 * them (cs_demo_read_kmod_results()). */
static void
read_results (CsPluginDocument *plugins,
              CsPlugin         *plugin,
              GArray           *sections,
              GArray           *latencies)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_demo_read_kmod_results (plugins, plugin, sections, latencies, &error));
  g_assert_no_error (error);
}

/* Every row of the pass's `sections` table, by begin_ns then CPU. */
GArray *
kmod_test_get_sections (CsPluginDocument *plugins,
                        CsPlugin         *plugin)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KmodTestSection));
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (KmodTestLatency));

  read_results (plugins, plugin, out, latencies);
  return out;
}

/* Every row of the pass's `wakeup_latencies` table, by time_ns then CPU. */
GArray *
kmod_test_get_latencies (CsPluginDocument *plugins,
                         CsPlugin         *plugin)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (KmodTestLatency));
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (KmodTestSection));

  read_results (plugins, plugin, sections, out);
  return out;
}

/* The one section of @kind; fails unless there is exactly one. */
const KmodTestSection *
kmod_test_only_section (GArray            *sections,
                        CsKmodSectionKind  kind)
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
