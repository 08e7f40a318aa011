/* cs-plugin.c: loading one plugin and keeping what it registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A plugin is a shared object with one entry symbol (cs-plugin-version.h).
 * Loading checks, in this order, that GModule can load it with every
 * symbol resolved (so a plugin needing a function this Chronoscope does
 * not export fails here, not at its first call), that it has the entry
 * symbol, and that the entry reports this API version, before reading
 * anything else the entry holds.  Each refusal is a CS_PLUGIN_ERROR whose
 * message names the file and the reason.  Plugins that pass are made
 * resident: their callbacks stay valid until the process exits.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-private.h"
#include "cs-plugin-registry.h"

/* Every plugin this process loaded (see _cs_plugin_load()). */
static GPtrArray *loaded_plugins;
G_LOCK_DEFINE_STATIC (loaded_plugins);

G_DEFINE_QUARK (cs-plugin-error-quark, cs_plugin_error)

/**
 * _cs_plugin_check_name:
 * @kind: what is named, for the message ("id", "pass name"...)
 * @name: (nullable): the name
 * @allowed_punct: characters allowed besides [a-z0-9] ("-" or "_")
 * @error: %CS_PLUGIN_ERROR_INVALID when @name is empty or has other
 *   characters
 *
 * Names end up in file names, settings and SQL identifiers: keep them
 * plain.
 */
gboolean
_cs_plugin_check_name (const char  *kind,
                       const char  *name,
                       const char  *allowed_punct,
                       GError     **error)
{
  if (name == NULL || *name == '\0' || strlen (name) > 64)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                   _("its %s is missing or longer than 64 characters"), kind);
      return FALSE;
    }
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && strchr (allowed_punct, *p) == NULL)
      {
        g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                     _("its %s “%s” has characters other than a-z, 0-9 and “%s”"),
                     kind, name, allowed_punct);
        return FALSE;
      }
  return TRUE;
}

/**
 * _cs_plugin_add_hook:
 * @plugin: a plugin in its init
 * @kind: the kind of registration
 * @info: the plugin's structure; its first member is a guint32 struct_size,
 *   except for %CS_PLUGIN_HOOK_JSON (a host structure)
 * @host_size: sizeof the structure as this host knows it
 * @what: the registration function, for messages
 *
 * Keeps a copy of a registration.  Misuse (outside init, a structure
 * smaller than its first members) is reported with a warning naming the
 * plugin's file and ignored: plugins are other people's code.
 *
 * Returns: (transfer none) (nullable): the copy, or %NULL when refused
 */
gpointer
_cs_plugin_add_hook (CsPlugin         *plugin,
                     CsPluginHookKind  kind,
                     gconstpointer     info,
                     gsize             host_size,
                     const char       *what)
{
  gsize size = host_size;
  gpointer copy;

  g_return_val_if_fail (plugin != NULL && info != NULL, NULL);

  if (!plugin->initialising)
    {
      g_warning ("Plugin %s called %s() outside its init; ignored", plugin->path, what);
      return NULL;
    }
  if (kind != CS_PLUGIN_HOOK_JSON)
    {
      guint32 struct_size = *(const guint32 *) info;

      if (struct_size < sizeof (guint32) + sizeof (gpointer))
        {
          g_warning ("Plugin %s called %s() with struct_size %u; ignored",
                     plugin->path, what, struct_size);
          return NULL;
        }
      size = MIN (struct_size, host_size);
    }
  copy = g_malloc0 (host_size);
  memcpy (copy, info, size);
  if (kind != CS_PLUGIN_HOOK_JSON)
    *(guint32 *) copy = host_size;
  g_ptr_array_add (plugin->hooks[kind], copy);
  return copy;
}

guint
_cs_plugin_get_n_hooks (CsPlugin         *plugin,
                        CsPluginHookKind  kind)
{
  return plugin->hooks[kind]->len;
}

gpointer
_cs_plugin_get_hook (CsPlugin         *plugin,
                     CsPluginHookKind  kind,
                     guint             index)
{
  g_return_val_if_fail (index < plugin->hooks[kind]->len, NULL);
  return g_ptr_array_index (plugin->hooks[kind], index);
}

/**
 * _cs_plugin_find_pass:
 * @plugin: a loaded plugin
 * @name: a pass name
 *
 * Returns: (transfer none) (nullable): the pass registered under @name
 */
const CsPluginPassInfo *
_cs_plugin_find_pass (CsPlugin   *plugin,
                      const char *name)
{
  for (guint i = 0; i < plugin->hooks[CS_PLUGIN_HOOK_PASS]->len; i++)
    {
      const CsPluginPassInfo *info = g_ptr_array_index (plugin->hooks[CS_PLUGIN_HOOK_PASS], i);

      if (g_strcmp0 (info->name, name) == 0)
        return info;
    }
  return NULL;
}

void
_cs_plugin_free (CsPlugin *plugin)
{
  if (plugin == NULL)
    return;
  for (guint k = 0; k < CS_PLUGIN_N_HOOK_KINDS; k++)
    g_ptr_array_unref (plugin->hooks[k]);
  g_free (plugin->path);
  g_free (plugin->id);
  g_free (plugin->name);
  g_free (plugin->description);
  g_free (plugin->version);
  /* The module stays: resident once init ran. */
  g_free (plugin);
}

static void
prefix_error (GError     **error,
              const char  *path)
{
  g_prefix_error (error, _("“%s”: "), path);
}

/* GModule's message for a failed dlopen(), sorted into our codes. */
static void
set_module_error (GError     **error,
                  const char  *path)
{
  const char *message = g_module_error ();
  const char *undefined = message != NULL ? strstr (message, "undefined symbol: ") : NULL;

  if (undefined != NULL)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_SYMBOL,
                 _("“%s”: it needs %s, which this Chronoscope does not provide (it was built for "
                   "another version of Chronoscope, or it uses Chronoscope's internals)"),
                 path, undefined + strlen ("undefined symbol: "));
  else
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_A_PLUGIN,
                 _("“%s” is not a plugin: it cannot be loaded as a shared object (%s)"),
                 path, message != NULL ? message : _("unknown reason"));
}

/* Checks what the entry returned before trusting any member past the
 * version. */
static gboolean
check_entry (const CsPluginEntry  *entry,
             const char           *path,
             GError              **error)
{
  if (entry == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                   _("“%s”: its %s() returned nothing"), path, CS_PLUGIN_ENTRY_SYMBOL);
      return FALSE;
    }
  if (entry->api_version != CS_PLUGIN_API_VERSION)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_VERSION,
                   _("“%s” was built for plugin API %u, and this Chronoscope provides API %u: "
                     "rebuild it against this version's chronoscope-plugin-1"),
                   path, entry->api_version, CS_PLUGIN_API_VERSION);
      return FALSE;
    }
  if (entry->struct_size < G_STRUCT_OFFSET (CsPluginEntry, init) + sizeof (gpointer))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                   _("“%s”: its entry is %u bytes, too small for plugin API %u"),
                   path, entry->struct_size, CS_PLUGIN_API_VERSION);
      return FALSE;
    }
  if (!_cs_plugin_check_name ("id", entry->id, "-", error))
    {
      prefix_error (error, path);
      return FALSE;
    }
  if (entry->name == NULL || !g_utf8_validate (entry->name, -1, NULL) ||
      (entry->description != NULL && !g_utf8_validate (entry->description, -1, NULL)) ||
      (entry->version != NULL && !g_utf8_validate (entry->version, -1, NULL)))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                   _("“%s”: its name is missing, or its name, description or version is not UTF-8"),
                   path);
      return FALSE;
    }
  return TRUE;
}

/**
 * _cs_plugin_load:
 * @path: a file, absolute
 * @error: %CS_PLUGIN_ERROR_NOT_A_PLUGIN, %CS_PLUGIN_ERROR_SYMBOL,
 *   %CS_PLUGIN_ERROR_VERSION, %CS_PLUGIN_ERROR_INVALID or
 *   %CS_PLUGIN_ERROR_INIT, with a message naming @path
 *
 * Loads a plugin and runs its init.  Main thread.
 *
 * Returns: (transfer full) (nullable): the plugin
 */
CsPlugin *
_cs_plugin_load (const char  *path,
                 GError     **error)
{
  const CsPluginEntry *(*entry_func) (void) = NULL;
  const CsPluginEntry *entry;
  g_autoptr(CsPlugin) plugin = NULL;
  g_autoptr(GError) init_error = NULL;
  GModule *module;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_A_PLUGIN,
                   _("“%s” is not a plugin: no such file"), path);
      return NULL;
    }

  /* Not lazy: every symbol the plugin needs is resolved now. */
  module = g_module_open (path, G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      set_module_error (error, path);
      return NULL;
    }
  if (!g_module_symbol (module, CS_PLUGIN_ENTRY_SYMBOL, (gpointer *) &entry_func) ||
      entry_func == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_A_PLUGIN,
                   _("“%s” is not a Chronoscope plugin: it has no %s() function"),
                   path, CS_PLUGIN_ENTRY_SYMBOL);
      g_module_close (module);
      return NULL;
    }
  entry = entry_func ();
  if (!check_entry (entry, path, error))
    {
      g_module_close (module);
      return NULL;
    }

  g_module_make_resident (module);
  plugin = g_new0 (CsPlugin, 1);
  plugin->path = g_strdup (path);
  plugin->module = module;
  plugin->id = g_strdup (entry->id);
  /* Built-in plugins mark their name and description with N_() in
   * Chronoscope's own domain: look them up there (a text the catalogue does
   * not hold comes back unchanged). */
  plugin->name = g_strdup (*entry->name != '\0' ? g_dgettext (GETTEXT_PACKAGE, entry->name) : "");
  plugin->description = g_strdup (entry->description != NULL && *entry->description != '\0'
                                  ? g_dgettext (GETTEXT_PACKAGE, entry->description) : "");
  plugin->version = g_strdup (entry->version != NULL ? entry->version : "");
  for (guint k = 0; k < CS_PLUGIN_N_HOOK_KINDS; k++)
    plugin->hooks[k] = g_ptr_array_new_with_free_func (g_free);

  if (entry->init != NULL)
    {
      gboolean ok;

      plugin->initialising = TRUE;
      ok = entry->init (plugin, &init_error);
      plugin->initialising = FALSE;
      if (!ok)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INIT,
                       _("“%s” failed to start: %s"), path,
                       init_error != NULL ? init_error->message : _("no reason given"));
          return NULL;
        }
    }

  /* Plugins are never unloaded (a document or a drawn layer may still use
   * their hooks): every loaded one stays listed here for the life of the
   * process, so that it is owned, not lost, when a registry goes away. */
  G_LOCK (loaded_plugins);
  if (loaded_plugins == NULL)
    loaded_plugins = g_ptr_array_new ();
  g_ptr_array_add (loaded_plugins, plugin);
  G_UNLOCK (loaded_plugins);
  return g_steal_pointer (&plugin);
}

const char *
cs_plugin_get_id (CsPlugin *plugin)
{
  g_return_val_if_fail (plugin != NULL, NULL);
  return plugin->id;
}

const char *
cs_plugin_get_name (CsPlugin *plugin)
{
  g_return_val_if_fail (plugin != NULL, NULL);
  return plugin->name;
}

const char *
cs_plugin_get_path (CsPlugin *plugin)
{
  g_return_val_if_fail (plugin != NULL, NULL);
  return plugin->path;
}

void
cs_plugin_set_document_hooks (CsPlugin                    *plugin,
                              const CsPluginDocumentHooks *hooks)
{
  g_return_if_fail (plugin != NULL && hooks != NULL);

  if (!plugin->initialising || plugin->has_document_hooks ||
      hooks->struct_size < sizeof (guint32) + sizeof (gpointer))
    {
      g_warning ("Plugin %s: cs_plugin_set_document_hooks() outside its init, twice, "
                 "or with a bad struct_size; ignored", plugin->path);
      return;
    }
  memset (&plugin->document_hooks, 0, sizeof plugin->document_hooks);
  memcpy (&plugin->document_hooks, hooks, MIN (hooks->struct_size, sizeof plugin->document_hooks));
  plugin->document_hooks.struct_size = sizeof plugin->document_hooks;
  plugin->has_document_hooks = TRUE;
}

void
cs_plugin_add_pass (CsPlugin               *plugin,
                    const CsPluginPassInfo *info)
{
  g_autoptr(GError) error = NULL;
  CsPluginPassInfo *copy;

  g_return_if_fail (plugin != NULL && info != NULL);

  copy = _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_PASS, info, sizeof (CsPluginPassInfo),
                              "cs_plugin_add_pass");
  if (copy == NULL)
    return;
  if (!_cs_plugin_check_name ("pass name", copy->name, "_", &error) ||
      copy->begin == NULL || copy->event == NULL ||
      (copy->events == NULL && copy->list_events == NULL) ||
      _cs_plugin_find_pass (plugin, copy->name) != copy)
    {
      g_warning ("Plugin %s: pass %s is invalid (%s); ignored", plugin->path,
                 copy->name != NULL ? copy->name : "(unnamed)",
                 error != NULL ? error->message : "a callback or its events are missing, or the name is taken");
      g_ptr_array_remove (plugin->hooks[CS_PLUGIN_HOOK_PASS], copy);
    }
}

/**
 * cs_plugin_add_sql_table:
 * @plugin: the plugin being initialised
 * @info: the table
 *
 * See cs-plugin-pass.h.  A table whose name, pass or SQL is missing, or
 * whose pass the plugin has not registered, is refused with a warning.
 */
void
cs_plugin_add_sql_table (CsPlugin                   *plugin,
                         const CsPluginSqlTableInfo *info)
{
  g_autoptr(GError) error = NULL;
  CsPluginSqlTableInfo *copy;

  g_return_if_fail (plugin != NULL && info != NULL);

  copy = _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_SQL_TABLE, info, sizeof (CsPluginSqlTableInfo),
                              "cs_plugin_add_sql_table");
  if (copy == NULL)
    return;
  if (!_cs_plugin_check_name ("SQL table name", copy->name, "_", &error) ||
      copy->pass == NULL || _cs_plugin_find_pass (plugin, copy->pass) == NULL ||
      copy->param_column == NULL || copy->columns == NULL || copy->select == NULL)
    {
      g_warning ("Plugin %s: SQL table %s is invalid (%s); ignored", plugin->path,
                 copy->name != NULL ? copy->name : "(unnamed)",
                 error != NULL ? error->message : "its pass, columns or SELECT are missing");
      g_ptr_array_remove (plugin->hooks[CS_PLUGIN_HOOK_SQL_TABLE], copy);
    }
}
