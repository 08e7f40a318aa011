/* cs-cli-plugins.c: plugins on the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The command-line side of the plugin API (cs-plugin-cli.h): subcommands
 * (cs_plugin_add_command(), dispatched from main.c and listed by
 * `chronoscope --help`), members of `info --json`
 * (cs_plugin_add_json_section()), rows of `render --row PLUGIN:KEY`, and
 * cs_plugin_cli_open().  Commands see the enabled plugins of the process's
 * CsPluginHost, with their automatic passes run (in the worker) before
 * they draw or describe anything.
 *
 * It also holds what the worker does for `index-worker --pass`: load the
 * one plugin file it is given, open the recording's index and run the
 * pass (cs-plugin-pass-runner.c), reporting progress through cs-cli.c's
 * protocol.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cs-cli-plugins.h"
#include "cs-index-job.h"
#include "cs-plugin-cli.h"
#include "cs-plugin-host.h"
#include "cs-plugin-view-private.h"

/* Chronoscope's own commands, which a plugin's cannot replace. */
static const char * const own_commands[] = {
  "info", "render", "record", "index-worker", "demo", "query", "stats",
  "help", "version", NULL
};

/* ------------------------------------------------------------------------ */
/* Registration (cs-plugin-cli.h)                                            */

void
cs_plugin_add_command (CsPlugin                  *plugin,
                       const CsPluginCommandInfo *info)
{
  g_autoptr(GError) error = NULL;
  CsPluginCommandInfo *copy;

  g_return_if_fail (plugin != NULL && info != NULL);

  copy = _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_COMMAND, info, sizeof (CsPluginCommandInfo),
                              "cs_plugin_add_command");
  if (copy == NULL)
    return;
  if (!_cs_plugin_check_name ("command name", copy->name, "-", &error) || copy->run == NULL ||
      g_strv_contains (own_commands, copy->name))
    {
      g_warning ("Plugin %s: command %s is invalid (%s); ignored", plugin->path,
                 copy->name != NULL ? copy->name : "(unnamed)",
                 error != NULL ? error->message : "run is missing, or the name is Chronoscope's own");
      g_ptr_array_remove (plugin->hooks[CS_PLUGIN_HOOK_COMMAND], copy);
    }
}

void
cs_plugin_add_json_section (CsPlugin         *plugin,
                            const char       *member,
                            CsPluginJsonFunc  func)
{
  CsPluginJsonSection section = { member, (gpointer) func };

  g_return_if_fail (plugin != NULL);

  if (member == NULL || *member == '\0' || !g_utf8_validate (member, -1, NULL) || func == NULL)
    {
      g_warning ("Plugin %s: cs_plugin_add_json_section() without a member or a function; ignored",
                 plugin->path);
      return;
    }
  _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_JSON, &section, sizeof section,
                       "cs_plugin_add_json_section");
}

/* ------------------------------------------------------------------------ */
/* The worker's pass                                                         */

/**
 * cs_cli_plugins_load_pass:
 * @pass: what the worker was asked (its @name %NULL: nothing to load)
 * @error: %CS_PLUGIN_ERROR when the plugin cannot be loaded or has no
 *   such pass
 *
 * Loads the pass's plugin in the worker, on the main thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_cli_plugins_load_pass (CsCliPass  *pass,
                          GError    **error)
{
  const CsPluginRecord *record;

  if (pass->name == NULL)
    return TRUE;
  if (pass->plugin_file == NULL)
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                           _("--pass needs --plugin-file"));
      return FALSE;
    }
  pass->registry = cs_plugin_registry_new ();
  record = cs_plugin_registry_load_file (pass->registry, pass->plugin_file,
                                         CS_PLUGIN_SOURCE_COMMAND_LINE);
  if (record->plugin == NULL)
    {
      g_propagate_error (error, g_error_copy (record->error));
      return FALSE;
    }
  if (_cs_plugin_find_pass (record->plugin, pass->name) == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("The plugin “%s” has no pass “%s”"), cs_plugin_get_id (record->plugin),
                   pass->name);
      return FALSE;
    }
  pass->plugin = record->plugin;
  return TRUE;
}

/**
 * cs_cli_plugins_run_pass:
 * @pass: a pass loaded with cs_cli_plugins_load_pass()
 * @document: the recording, with its index
 * @progress: (nullable): told the fraction done
 * @user_data: its closure
 * @cancellable: (nullable): stops the pass
 * @error: what _cs_plugin_pass_run() reports
 *
 * Runs the pass in this thread (the worker's) and keeps where its results
 * went in @pass->db_path.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_cli_plugins_run_pass (CsCliPass                *pass,
                         CsDocument               *document,
                         CsPluginPassProgressFunc  progress,
                         gpointer                  user_data,
                         GCancellable             *cancellable,
                         GError                  **error)
{
  g_autoptr(CsPluginDocument) plugin_document = _cs_plugin_document_new (document);

  return _cs_plugin_pass_run (plugin_document, pass->plugin, pass->name, pass->param,
                              progress, user_data, cancellable, &pass->db_path, error);
}

/**
 * cs_cli_plugins_worker_status:
 * @error: (nullable): why the worker failed
 *
 * Returns: the worker's exit status for @error: 2 for
 *   %CS_PLUGIN_ERROR_USAGE (CsIndexJob turns it back into that code), 1
 *   otherwise
 */
int
cs_cli_plugins_worker_status (const GError *error)
{
  return g_error_matches (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE) ? 2 : 1;
}

void
cs_cli_pass_clear (CsCliPass *pass)
{
  g_clear_pointer (&pass->plugin_file, g_free);
  g_clear_pointer (&pass->name, g_free);
  g_clear_pointer (&pass->param, g_free);
  g_clear_pointer (&pass->db_path, g_free);
  pass->plugin = NULL;
  g_clear_object (&pass->registry);
}

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */

typedef gboolean (*CommandFunc) (CsPlugin                  *plugin,
                                 const CsPluginCommandInfo *info,
                                 gpointer                   data);

/* Calls @func for each command of the enabled plugins (of every loaded
 * plugin with @switched_off), until it returns FALSE; returns that command. */
static const CsPluginCommandInfo *
walk_plugin_commands (CommandFunc   func,
                      gpointer      data,
                      gboolean      switched_off,
                      CsPlugin    **owner)
{
  CsPluginHost *host = cs_plugin_host_get_default ();
  g_autoptr(GPtrArray) plugins = cs_plugin_registry_dup_plugins (cs_plugin_host_get_registry (host));

  for (guint i = 0; i < plugins->len; i++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, i);

      if (!switched_off && !cs_plugin_host_is_enabled (host, plugin))
        continue;
      for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_COMMAND); k++)
        {
          const CsPluginCommandInfo *info = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_COMMAND, k);

          if (!func (plugin, info, data))
            {
              if (owner != NULL)
                *owner = plugin;
              return info;
            }
        }
    }
  return NULL;
}

static const CsPluginCommandInfo *
walk_commands (CommandFunc   func,
               gpointer      data,
               CsPlugin    **owner)
{
  return walk_plugin_commands (func, data, FALSE, owner);
}

static gboolean
is_not_named (CsPlugin                  *plugin,
              const CsPluginCommandInfo *info,
              gpointer                   name)
{
  return g_strcmp0 (info->name, name) != 0;
}

static const CsPluginCommandInfo *
find_command (const char  *name,
              CsPlugin   **owner)
{
  return walk_commands (is_not_named, (gpointer) name, owner);
}

static gboolean
append_help (CsPlugin                  *plugin,
             const CsPluginCommandInfo *info,
             gpointer                   text)
{
  /* TRANSLATORS: a plugin's subcommand in chronoscope --help: the
   * command, its summary, the plugin's id */
  g_string_append_printf (text, _("\n  chronoscope %s …   %s (plugin %s)"), info->name,
                          /* Built-in plugins mark it N_() in Chronoscope's domain. */
                          info->summary != NULL && *info->summary != '\0'
                          ? g_dgettext (GETTEXT_PACKAGE, info->summary) : "",
                          cs_plugin_get_id (plugin));
  return TRUE;
}

/**
 * cs_cli_plugins_is_command:
 * @name: the first argument
 *
 * Loads the plugins (once) and tells whether an enabled one adds the
 * subcommand @name.  Main thread.
 *
 * Returns: whether @name is a plugin's subcommand
 */
gboolean
cs_cli_plugins_is_command (const char *name)
{
  if (name == NULL || name[0] == '-' || g_strv_contains (own_commands, name) ||
      strchr (name, '/') != NULL || strchr (name, '.') != NULL)
    return FALSE;
  return find_command (name, NULL) != NULL;
}

/**
 * cs_cli_plugins_is_unknown_command:
 * @name: the first command-line argument
 *
 * A word that names no command, no plugin's command and no file
 * (`chronoscope latency FILE` where the latency plugin is not loaded)
 * would otherwise reach the window's option parser, which says only
 * "Unknown option".
 *
 * Returns: whether @name reads as a command's name (lower-case letters,
 *   digits and '-', starting with a letter) but is none and is no file
 */
gboolean
cs_cli_plugins_is_unknown_command (const char *name)
{
  if (name == NULL || !g_ascii_islower (name[0]))
    return FALSE;
  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_islower (*c) && !g_ascii_isdigit (*c) && *c != '-')
      return FALSE;
  return !g_strv_contains (own_commands, name) && find_command (name, NULL) == NULL &&
         !g_file_test (name, G_FILE_TEST_EXISTS);
}

/**
 * cs_cli_plugins_fail_unknown_command:
 * @name: a word for which cs_cli_plugins_is_unknown_command() holds
 *
 * Says on stderr why @name is not a command: the plugin that has it is
 * switched off, or no plugin loaded has it, with where plugins are looked
 * for (the built-in folders of cs_plugin_registry_dup_builtin_path(),
 * `-p FILE.so`, CHRONOSCOPE_PLUGIN_PATH) and that --help lists the commands.
 *
 * Returns: the exit status, 1
 */
int
cs_cli_plugins_fail_unknown_command (const char *name)
{
  CsPlugin *owner = NULL;
  g_autofree char *builtin = cs_plugin_registry_dup_builtin_path ();

  walk_plugin_commands (is_not_named, (gpointer) name, TRUE, &owner);
  if (owner != NULL)
    g_printerr (_("chronoscope: “%s” is a command of the plugin “%s”, which is switched off "
                  "(turn it on in the window’s Plugins dialog).\n"),
                name, cs_plugin_get_id (owner));
  else
    g_printerr (_("chronoscope: “%s” is neither a command nor a file, and no plugin loaded "
                  "has a command of that name.  Built-in plugins are looked for in “%s”; "
                  "-p FILE.so or CHRONOSCOPE_PLUGIN_PATH load others.\n"),
                name, *builtin != '\0' ? builtin : _("(nowhere: CHRONOSCOPE_PLUGIN_SYSTEM_PATH is empty)"));
  g_printerr (_("chronoscope --help lists the commands, those of the plugins loaded too.\n"));
  return 1;
}

/**
 * cs_cli_plugins_run:
 * @argc: number of arguments
 * @argv: the program's arguments, argv[1] being a plugin's subcommand
 *
 * Runs a plugin's subcommand (#CsPluginCommandInfo.run gets argv + 1).
 *
 * Returns: its exit status
 */
int
cs_cli_plugins_run (int    argc,
                    char **argv)
{
  CsPlugin *plugin = NULL;
  const CsPluginCommandInfo *info;
  g_autofree char *prgname = NULL;

  g_return_val_if_fail (argc >= 2, 1);

  info = find_command (argv[1], &plugin);
  if (info == NULL)
    return 1;
  prgname = g_strdup_printf ("chronoscope %s", argv[1]);
  g_set_prgname (prgname);
  return info->run (plugin, argc - 1, argv + 1);
}

/**
 * cs_cli_plugins_dup_help:
 *
 * Returns: (transfer full): lines for `chronoscope --help`, one per plugin
 *   subcommand ("  chronoscope NAME …   SUMMARY (plugin ID)"), or an
 *   empty string
 */
char *
cs_cli_plugins_dup_help (void)
{
  GString *text = g_string_new (NULL);

  walk_commands (append_help, text, NULL);
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Recordings                                                                */

/**
 * cs_cli_plugins_open:
 * @document: a recording opened by a command
 * @cancellable: (nullable): stops the passes
 * @error: %G_IO_ERROR_CANCELLED
 *
 * The recording's plugin side, with every enabled plugin enabled and its
 * automatic passes computed (in the worker) or reused.  A plugin whose
 * pass fails is reported on stderr and left out; the command goes on.
 *
 * Returns: (transfer full) (nullable): the plugin side of @document
 */
CsPluginDocument *
cs_cli_plugins_open (CsDocument    *document,
                     GCancellable  *cancellable,
                     GError       **error)
{
  CsPluginHost *host = cs_plugin_host_get_default ();
  g_autoptr(CsPluginDocument) plugin_document = cs_plugin_host_open_document (host, document);
  g_autoptr(GPtrArray) plugins = _cs_plugin_document_get_plugins (plugin_document);

  for (guint i = 0; i < plugins->len; i++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, i);

      for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_PASS); k++)
        {
          const CsPluginPassInfo *info = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_PASS, k);
          g_autoptr(GError) pass_error = NULL;

          if (!info->automatic)
            continue;
          if (cs_plugin_document_ensure_pass (plugin_document, plugin, info->name, NULL,
                                              cancellable, &pass_error))
            {
              _cs_plugin_document_pass_finished (plugin_document, plugin, info->name, NULL);
              continue;
            }
          if (g_error_matches (pass_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&pass_error));
              return NULL;
            }
          fprintf (stderr, _("chronoscope: the plugin “%s” is left out: %s\n"),
                   cs_plugin_get_id (plugin), pass_error->message);
          _cs_plugin_document_disable (plugin_document, plugin);
          break;
        }
    }
  return g_steal_pointer (&plugin_document);
}

/**
 * cs_cli_plugins_add_json:
 * @document: (nullable): the recording's plugin side
 * @builder: a builder inside the object `info --json` prints
 * @error: the first section's failure, prefixed with the plugin's id
 *
 * Adds the members of the enabled plugins' JSON sections.
 *
 * Returns: %FALSE with @error set when a section failed
 */
gboolean
cs_cli_plugins_add_json (CsPluginDocument  *document,
                         JsonBuilder       *builder,
                         GError           **error)
{
  g_autoptr(GPtrArray) plugins = NULL;

  if (document == NULL)
    return TRUE;
  plugins = _cs_plugin_document_get_plugins (document);
  for (guint i = 0; i < plugins->len; i++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, i);

      for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_JSON); k++)
        {
          const CsPluginJsonSection *section = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_JSON, k);
          CsPluginJsonFunc func = (CsPluginJsonFunc) section->func;
          g_autoptr(GError) local_error = NULL;

          json_builder_set_member_name (builder, section->member);
          if (!func (cs_plugin_document_get_instance (document, plugin), builder, &local_error))
            {
              g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           _("The plugin “%s” could not describe the recording: %s"),
                           cs_plugin_get_id (plugin),
                           local_error != NULL ? local_error->message : _("no reason given"));
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* The first row layer of @plugin that draws @key on this recording. */
static const CsPluginLayerInfo *
find_row_layer (CsPluginDocument *document,
                CsPlugin         *plugin,
                const char       *key)
{
  gpointer instance = cs_plugin_document_get_instance (document, plugin);

  for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_LAYER); k++)
    {
      const CsPluginLayerInfo *layer = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_LAYER, k);
      g_autofree char *label = NULL;

      if (layer->target != CS_PLUGIN_LAYER_ROW)
        continue;
      label = layer->row_label (instance, key);
      if (label != NULL)
        return layer;
    }
  return NULL;
}

/**
 * cs_cli_plugins_set_rows:
 * @renderer: the renderer of `render`, with @document's plugins set
 * @document: the recording's plugin side
 * @specs: (array zero-terminated=1) (nullable): `PLUGIN:KEY` as given
 *   with `--row`: the key goes to the first row layer of the plugin that
 *   accepts it
 * @error: %CS_PLUGIN_ERROR_USAGE naming the spec that names no enabled
 *   plugin or a key no layer of it draws
 *
 * Returns: %FALSE with @error set on a bad spec
 */
gboolean
cs_cli_plugins_set_rows (CsTimelineRenderer  *renderer,
                         CsPluginDocument    *document,
                         const char * const  *specs,
                         GError             **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (CsPluginRowSpec));
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  CsPluginHost *host = cs_plugin_host_get_default ();

  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      const char *colon = strchr (specs[i], ':');
      CsPluginRowSpec row = { NULL, NULL, NULL };
      g_autofree char *id = colon != NULL ? g_strndup (specs[i], colon - specs[i]) : NULL;
      const CsPluginLayerInfo *layer;

      if (id != NULL)
        row.plugin = cs_plugin_registry_lookup (cs_plugin_host_get_registry (host), id);
      if (row.plugin == NULL || !_cs_plugin_document_is_enabled (document, row.plugin))
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                       _("--row %s: no enabled plugin has the id “%s” (rows are PLUGIN:KEY)"),
                       specs[i], id != NULL ? id : specs[i]);
          return FALSE;
        }
      row.key = colon + 1;
      layer = find_row_layer (document, row.plugin, row.key);
      if (layer == NULL)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                       _("--row %s: the plugin “%s” has no row “%s” for this recording"),
                       specs[i], id, row.key);
          return FALSE;
        }
      row.layer = layer->name;
      g_array_append_val (rows, row);
    }
  cs_timeline_renderer_set_plugin_rows (renderer, (const CsPluginRowSpec *) rows->data, rows->len);
  return TRUE;
}

/* cs_plugin_host_load_document()'s failure as the API reports it. */
static void
load_failed (const char *path, GError *local_error, GError **error)
{
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, local_error);
  else
    {
      if (strstr (local_error->message, path) != NULL)
        g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, local_error->message);
      else
        g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s: %s", path,
                     local_error->message);
      g_error_free (local_error);
    }
}

/**
 * cs_plugin_cli_open:
 *
 * See cs-plugin-cli.h.  The recording is indexed (or its index reused) by
 * the worker, with the progress-less wait of the command line.
 */
CsPluginDocument *
cs_plugin_cli_open (CsPlugin    *plugin,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (plugin != NULL && path != NULL, NULL);

  document = cs_plugin_host_load_document (path, NULL, &local_error);
  if (document == NULL)
    {
      load_failed (path, g_steal_pointer (&local_error), error);
      return NULL;
    }
  return cs_cli_plugins_open (document, NULL, error);
}

/**
 * cs_plugin_cli_add_recording:
 *
 * See cs-plugin-cli.h.  The document's stream set is made on the first
 * call, with the document as its reference, and kept with it.
 */
gboolean
cs_plugin_cli_add_recording (CsPluginDocument *document,
                             const char       *path,
                             GError          **error)
{
  g_autoptr(CsDocument) added = NULL;
  CsStreamSet *set;
  GError *local_error = NULL;
  CsStream *own = _cs_plugin_document_get_stream (document);
  CsStream *stream;

  g_return_val_if_fail (document != NULL && path != NULL, FALSE);

  added = cs_plugin_host_load_document (path, NULL, &local_error);
  if (added == NULL)
    {
      load_failed (path, local_error, error);
      return FALSE;
    }
  set = _cs_plugin_document_get_stream_set (document);
  if (own == NULL || set == NULL)
    {
      set = cs_stream_set_new ();
      own = cs_stream_set_add (set, _cs_plugin_document_get_document (document), NULL);
      cs_stream_set_set_reference (set, own);
      _cs_plugin_document_set_stream (document, own, set);
      g_object_unref (set);
    }
  stream = cs_stream_set_add (set, added, NULL);
  if (!cs_stream_is_aligned (stream))
    g_printerr ("chronoscope: %s: %s\n", path, cs_stream_get_note (stream));
  return TRUE;
}

/**
 * cs_plugin_cli_fail:
 *
 * See cs-plugin-cli.h.
 */
int
cs_plugin_cli_fail (const char *command,
                    const char *path,
                    const char *message)
{
  g_return_val_if_fail (command != NULL && message != NULL, 1);

  if (path != NULL)
    fprintf (stderr, "chronoscope %s: %s: %s\n", command, path, message);
  else
    fprintf (stderr, "chronoscope %s: %s\n", command, message);
  return 1;
}

/**
 * cs_plugin_json_add_int:
 *
 * See cs-plugin-cli.h.
 */
void
cs_plugin_json_add_int (JsonBuilder *builder,
                        const char  *member,
                        gint64       value)
{
  cs_plugin_json_add_int_or_null (builder, member, value, TRUE);
}

/**
 * cs_plugin_json_add_int_or_null:
 *
 * See cs-plugin-cli.h.
 */
void
cs_plugin_json_add_int_or_null (JsonBuilder *builder,
                                const char  *member,
                                gint64       value,
                                gboolean     present)
{
  g_return_if_fail (JSON_IS_BUILDER (builder) && member != NULL);

  json_builder_set_member_name (builder, member);
  if (present)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}
