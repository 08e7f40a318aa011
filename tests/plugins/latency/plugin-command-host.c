/* plugin-command-host.c: runs a plugin's subcommand as `chronoscope` would.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: plugin-command-host COMMAND ARGS...
 *
 * Loads the plugins of CHRONOSCOPE_PLUGIN_PATH through the registry of
 * index/plugin/, exactly as the executable does, and runs the subcommand a
 * plugin registered with cs_plugin_add_command().  It provides the two
 * functions of the command-line API (cs-plugin-cli.h) in the simplest way
 * that keeps their contract: cs_plugin_cli_open() builds or reuses the
 * index in this process (what the worker process would do) and enables
 * the plugin; passes run in this thread (no scheduler).  The tests of
 * plugin commands use it until gui/cs-cli.c dispatches them (issue 11's
 * host); they then run the real executable instead (env CS_LATENCY_CLI).
 * Linked with the whole index library and the API's dynamic list, so that
 * a plugin resolves exactly the symbols it would against chronoscope.
 */
#include "config.h"

#include <locale.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-cli.h"
#include "cs-plugin-document-private.h"
#include "cs-plugin-registry.h"

typedef struct {
  CsPlugin *plugin;
  CsPluginCommandInfo info;
} Command;

static GArray *commands;        /* Command */

void
cs_plugin_add_command (CsPlugin                  *plugin,
                       const CsPluginCommandInfo *info)
{
  Command command = { plugin };

  g_return_if_fail (plugin != NULL && info != NULL);

  memcpy (&command.info, info, MIN (info->struct_size, sizeof command.info));
  g_array_append_val (commands, command);
}

void
cs_plugin_add_json_section (CsPlugin         *plugin,
                            const char       *member,
                            CsPluginJsonFunc  func)
{
  /* `info --json` is not this program's: nothing to keep. */
}

CsPluginDocument *
cs_plugin_cli_open (CsPlugin    *plugin,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsPluginDocument) wrapper = NULL;

  document = cs_document_load (path, NULL, NULL, NULL, NULL, &local_error);
  if (document == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s: %s", path,
                   local_error->message);
      return NULL;
    }
  wrapper = _cs_plugin_document_new (document);
  if (!_cs_plugin_document_enable (wrapper, plugin, error) ||
      !_cs_plugin_document_ensure_automatic_passes (wrapper, NULL, error))
    return NULL;
  return g_steal_pointer (&wrapper);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(CsPluginRegistry) registry = NULL;

  setlocale (LC_ALL, "");
  commands = g_array_new (FALSE, TRUE, sizeof (Command));
  if (argc < 2)
    {
      g_printerr ("usage: %s COMMAND ARGS...\n", argv[0]);
      return 2;
    }
  registry = cs_plugin_registry_new ();
  cs_plugin_registry_scan (registry);
  for (guint i = 0; i < cs_plugin_registry_get_n_records (registry); i++)
    {
      const CsPluginRecord *record = cs_plugin_registry_get_record (registry, i);

      if (record->error != NULL)
        g_printerr ("%s\n", record->error->message);
    }
  for (guint i = 0; i < commands->len; i++)
    {
      Command *command = &g_array_index (commands, Command, i);

      if (g_str_equal (command->info.name, argv[1]))
        return command->info.run (command->plugin, argc - 1, argv + 1);
    }
  g_printerr ("%s: no plugin has a command “%s”\n", argv[0], argv[1]);
  return 2;
}
