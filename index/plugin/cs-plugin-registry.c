/* cs-plugin-registry.c: finding and loading plugins.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Plugins are looked for, in this order: files given on the command line
 * (`-p FILE.so`), the folders (or files) of CHRONOSCOPE_PLUGIN_PATH
 * (colon-separated, as PATH), the user's $XDG_DATA_HOME/chronoscope/plugins/
 * and the built-ins (cs_plugin_registry_dup_builtin_path()): those in
 * $libdir/chronoscope/plugins/, or for the executable of a build tree that
 * was not installed, its own build tree's.  In a folder every
 * `*.so` is a candidate, in name order.  The first plugin with an id wins;
 * another file with the same id is recorded as refused, so the Plugins
 * dialog can say why it is not used.  A file that fails to load is
 * recorded with its error and the process carries on.
 */
#include "config.h"

#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-private.h"
#include "cs-plugin-registry.h"

struct _CsPluginRegistry
{
  GObject parent_instance;

  GArray *records;          /* CsPluginRecord, in load order */
  GHashTable *by_id;        /* id -> CsPlugin (borrowed from records) */
  GHashTable *paths;        /* canonical paths tried */
  gboolean scanned;
};

G_DEFINE_FINAL_TYPE (CsPluginRegistry, cs_plugin_registry, G_TYPE_OBJECT)

static void
clear_record (gpointer data)
{
  CsPluginRecord *record = data;

  g_free (record->path);
  g_clear_error (&record->error);
  /* Loaded plugins live as long as the process: their code is resident and
   * documents may still hold their instances. */
}

static void
cs_plugin_registry_finalize (GObject *object)
{
  CsPluginRegistry *self = CS_PLUGIN_REGISTRY (object);

  g_array_unref (self->records);
  g_hash_table_unref (self->by_id);
  g_hash_table_unref (self->paths);

  G_OBJECT_CLASS (cs_plugin_registry_parent_class)->finalize (object);
}

static void
cs_plugin_registry_class_init (CsPluginRegistryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_plugin_registry_finalize;
}

static void
cs_plugin_registry_init (CsPluginRegistry *self)
{
  self->records = g_array_new (FALSE, TRUE, sizeof (CsPluginRecord));
  g_array_set_clear_func (self->records, clear_record);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * cs_plugin_registry_new:
 *
 * Returns: (transfer full): a registry with no plugin loaded yet; one per
 *   process (the application's, or the command line's)
 */
CsPluginRegistry *
cs_plugin_registry_new (void)
{
  return g_object_new (CS_TYPE_PLUGIN_REGISTRY, NULL);
}

/**
 * cs_plugin_source_to_string:
 * @source: a source
 *
 * Returns: (transfer none): where a plugin came from, as users read it
 */
const char *
cs_plugin_source_to_string (CsPluginSource source)
{
  switch (source)
    {
    case CS_PLUGIN_SOURCE_COMMAND_LINE:
      return _("command line");
    case CS_PLUGIN_SOURCE_ENVIRONMENT:
      return "CHRONOSCOPE_PLUGIN_PATH";
    case CS_PLUGIN_SOURCE_USER:
      return _("your plugins");
    case CS_PLUGIN_SOURCE_BUILT_IN:
    default:
      return _("built-in");
    }
}

/**
 * cs_plugin_registry_load_file:
 * @self: a registry
 * @path: a plugin file (relative paths are taken from the current folder)
 * @source: where it was found
 *
 * Loads one plugin, unless the same file was loaded already, and records
 * the outcome.  Main thread.
 *
 * Returns: (transfer none): the record: its @plugin, or its @error
 */
const CsPluginRecord *
cs_plugin_registry_load_file (CsPluginRegistry *self,
                              const char       *path,
                              CsPluginSource    source)
{
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  CsPluginRecord record = { 0 };
  CsPlugin *other;

  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  absolute = g_canonicalize_filename (path, NULL);
  canonical = realpath (absolute, NULL);
  if (canonical == NULL)
    canonical = g_strdup (absolute);
  if (g_hash_table_contains (self->paths, canonical))
    {
      for (guint i = 0; i < self->records->len; i++)
        {
          CsPluginRecord *r = &g_array_index (self->records, CsPluginRecord, i);

          if (g_str_equal (r->path, canonical))
            return r;
        }
    }
  g_hash_table_add (self->paths, g_strdup (canonical));

  record.path = g_strdup (canonical);
  record.source = source;
  record.plugin = _cs_plugin_load (canonical, &record.error);
  if (record.plugin != NULL &&
      (other = g_hash_table_lookup (self->by_id, record.plugin->id)) != NULL)
    {
      g_set_error (&record.error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_INVALID,
                   _("“%s” is not used: the plugin “%s” from “%s” has the same id"),
                   canonical, record.plugin->id, other->path);
      /* Its init ran: keep it alive, unused. */
      record.plugin = NULL;
    }
  if (record.plugin != NULL)
    g_hash_table_insert (self->by_id, record.plugin->id, record.plugin);
  else
    g_debug ("%s", record.error->message);

  g_array_append_val (self->records, record);
  return &g_array_index (self->records, CsPluginRecord, self->records->len - 1);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/* Every *.so of @dir, in name order; a file is taken as it is. */
static void
load_folder (CsPluginRegistry *self,
             const char       *dir,
             CsPluginSource    source)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  if (g_file_test (dir, G_FILE_TEST_IS_REGULAR))
    {
      cs_plugin_registry_load_file (self, dir, source);
      return;
    }
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;   /* a folder that does not exist holds no plugin */

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".so"))
      g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    cs_plugin_registry_load_file (self, g_ptr_array_index (names, i), source);
}

/* Whether this process runs the chronoscope executable of the build tree
 * it was built in (BUILD_EXE), not an installed copy. */
static gboolean
running_uninstalled (void)
{
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *build_exe = realpath (BUILD_EXE, NULL);

  return self_exe != NULL && build_exe != NULL && g_str_equal (self_exe, build_exe);
}

/**
 * cs_plugin_registry_dup_builtin_path:
 *
 * Where the built-in plugins are looked for, in this order:
 * - `CHRONOSCOPE_PLUGIN_SYSTEM_PATH` when it is set (folders separated by
 *   `:`; empty for none), as GStreamer's `GST_PLUGIN_SYSTEM_PATH`: tests
 *   and benchmarks use it to run without the built-ins;
 * - for the chronoscope executable of a build tree that was not installed,
 *   the build tree's built-in plugin folders (BUILD_PLUGIN_PATH, from
 *   plugins/meson.build), so that `build/gui/chronoscope latency …` finds
 *   the plugin of its own build, never an older installed one;
 * - else PLUGINDIR, `$libdir/chronoscope/plugins`.
 *
 * Returns: (transfer full): a search path (`:`-separated folders, maybe empty)
 */
char *
cs_plugin_registry_dup_builtin_path (void)
{
  const char *env = g_getenv ("CHRONOSCOPE_PLUGIN_SYSTEM_PATH");

  if (env != NULL)
    return g_strdup (env);
  if (running_uninstalled ())
    return g_strdup (BUILD_PLUGIN_PATH);
  return g_strdup (PLUGINDIR);
}

/* Every folder (or file) of the search path @path, as @source. */
static void
load_path (CsPluginRegistry *self,
           const char       *path,
           CsPluginSource    source)
{
  g_auto(GStrv) dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    if (*dirs[i] != '\0')
      load_folder (self, dirs[i], source);
}

/**
 * cs_plugin_registry_scan:
 * @self: a registry
 *
 * Loads the plugins of CHRONOSCOPE_PLUGIN_PATH, the user's folder and the
 * built-in folders (cs_plugin_registry_dup_builtin_path()), once; files given with cs_plugin_registry_load_file()
 * before come first.  Main thread.
 */
void
cs_plugin_registry_scan (CsPluginRegistry *self)
{
  const char *env;
  g_autofree char *user_dir = NULL;
  g_autofree char *builtin_path = NULL;

  g_return_if_fail (CS_IS_PLUGIN_REGISTRY (self));

  if (self->scanned)
    return;
  self->scanned = TRUE;

  env = g_getenv ("CHRONOSCOPE_PLUGIN_PATH");
  if (env != NULL)
    load_path (self, env, CS_PLUGIN_SOURCE_ENVIRONMENT);
  user_dir = g_build_filename (g_get_user_data_dir (), "chronoscope", "plugins", NULL);
  load_folder (self, user_dir, CS_PLUGIN_SOURCE_USER);
  builtin_path = cs_plugin_registry_dup_builtin_path ();
  load_path (self, builtin_path, CS_PLUGIN_SOURCE_BUILT_IN);
}

guint
cs_plugin_registry_get_n_records (CsPluginRegistry *self)
{
  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), 0);
  return self->records->len;
}

/**
 * cs_plugin_registry_get_record:
 * @self: a registry
 * @index: 0 .. n_records - 1, in load order
 *
 * Returns: (transfer none): a record, valid until the next load
 */
const CsPluginRecord *
cs_plugin_registry_get_record (CsPluginRegistry *self,
                               guint             index)
{
  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), NULL);
  g_return_val_if_fail (index < self->records->len, NULL);
  return &g_array_index (self->records, CsPluginRecord, index);
}

/**
 * cs_plugin_registry_find_record:
 * @self: a registry
 * @plugin: one of its plugins
 *
 * Returns: (transfer none) (nullable): the record @plugin was loaded by
 */
const CsPluginRecord *
cs_plugin_registry_find_record (CsPluginRegistry *self,
                                CsPlugin         *plugin)
{
  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), NULL);

  for (guint i = 0; i < self->records->len; i++)
    if (g_array_index (self->records, CsPluginRecord, i).plugin == plugin)
      return &g_array_index (self->records, CsPluginRecord, i);
  return NULL;
}

/**
 * cs_plugin_registry_lookup:
 * @self: a registry
 * @id: a plugin id
 *
 * Returns: (transfer none) (nullable): the loaded plugin with @id
 */
CsPlugin *
cs_plugin_registry_lookup (CsPluginRegistry *self,
                           const char       *id)
{
  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), NULL);
  return id != NULL ? g_hash_table_lookup (self->by_id, id) : NULL;
}

/**
 * cs_plugin_registry_dup_plugins:
 * @self: a registry
 *
 * Returns: (transfer container) (element-type CsPlugin): the loaded
 *   plugins, in load order
 */
GPtrArray *
cs_plugin_registry_dup_plugins (CsPluginRegistry *self)
{
  GPtrArray *plugins = g_ptr_array_new ();

  g_return_val_if_fail (CS_IS_PLUGIN_REGISTRY (self), plugins);

  for (guint i = 0; i < self->records->len; i++)
    {
      CsPluginRecord *r = &g_array_index (self->records, CsPluginRecord, i);

      if (r->plugin != NULL)
        g_ptr_array_add (plugins, r->plugin);
    }
  return plugins;
}
