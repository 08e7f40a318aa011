/* builtin-test-host.c: what the built-in plugins' tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The test programs are plugin hosts like the chronoscope executable:
 * they export the plugin API (the dynamic list of
 * include/chronoscope-1/chronoscope-plugin.sym) and load the built-ins
 * from CHRONOSCOPE_PLUGIN_PATH, which tests/meson.build points at the
 * build tree.
 */
#include <json-glib/json-glib.h>

#include "builtin-test-host.h"

void
cs_builtin_fixture_set_up (CsBuiltinFixture      *fixture,
                           const char            *id,
                           const CsTestRecording *recording)
{
  g_autofree char *path = cs_test_find_recording (recording);

  cs_builtin_fixture_set_up_path (fixture, id, path);
}

void
cs_builtin_fixture_set_up_path (CsBuiltinFixture *fixture,
                                const char       *id,
                                const char       *path)
{
  g_autoptr(GError) error = NULL;

  fixture->registry = cs_plugin_registry_new ();
  cs_plugin_registry_scan (fixture->registry);
  fixture->plugin = cs_plugin_registry_lookup (fixture->registry, id);
  if (fixture->plugin == NULL)
    for (guint i = 0; i < cs_plugin_registry_get_n_records (fixture->registry); i++)
      {
        const CsPluginRecord *r = cs_plugin_registry_get_record (fixture->registry, i);

        g_test_message ("plugin %s: %s", r->path, r->error != NULL ? r->error->message : "loaded");
      }
  g_assert_nonnull (fixture->plugin);

  fixture->base.document = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  fixture->base.renderer = cs_timeline_renderer_new (fixture->base.document);
  fixture->plugins = _cs_plugin_document_new (fixture->base.document);
  g_assert_true (_cs_plugin_document_enable (fixture->plugins, fixture->plugin, &error));
  g_assert_no_error (error);
  cs_timeline_renderer_set_plugins (fixture->base.renderer, fixture->plugins);
}

void
cs_builtin_fixture_tear_down (CsBuiltinFixture *fixture)
{
  if (fixture->plugins != NULL)
    _cs_plugin_document_close (fixture->plugins);
  cs_test_fixture_tear_down (&fixture->base, NULL);
  g_clear_pointer (&fixture->plugins, cs_plugin_document_unref);
  g_clear_object (&fixture->registry);
}

/* Runs @argv; returns its stdout, fails the test when it fails. */
static char *
run (GPtrArray *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) env = g_get_environ ();
  char *out = NULL;
  int status = 0;

  /* The test's own cache (G_TEST_OPTION_ISOLATE_DIRS), not the caller's. */
  env = g_environ_setenv (env, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", (const char *) argv->pdata[0], err);
  return out;
}

char *
cs_builtin_run_chronoscope (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) g_getenv ("CHRONOSCOPE"));
  g_assert_nonnull (argv->pdata[0]);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  return run (argv);
}

JsonNode *
cs_builtin_run_oracle (const char         *script,
                       const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("CS_ORACLE_DIR"), script, NULL);

  g_ptr_array_add (argv, (char *) "python3");
  g_ptr_array_add (argv, path);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  out = run (argv);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}
