/* cs-plugin-pass-files.c: the result files of a document's plugin passes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pass's results are one SQLite file per plugin, pass, pass version and
 * parameter next to the recording's index (cs-plugin-document.c names
 * them: `<index>.<plugin>.<pass>.<hash>.cspass`).  This finds those of one
 * pass whatever their parameter (for the SQL tables over them), and
 * removes those an older version of the pass left: the hash names the
 * version, so nothing else would ever replace or delete them, and a pass
 * over a large recording leaves hundreds of MB.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-plugin-document-private.h"

/* The "param" a pass database says it holds, or NULL. */
static char *
read_pass_param (sqlite3 *db)
{
  sqlite3_stmt *s = NULL;
  char *param = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM chronoscope_pass WHERE key = 'param'", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_step (s) == SQLITE_ROW)
    param = g_strdup ((const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  return param;
}

/* Calls @func on each file next to the index named like @info's results
 * (BASE.PLUGIN.PASS.*.cspass), open read-only (@db is NULL when it cannot
 * be opened), in no order; @func must not close @db. */
typedef void (*PassFileFunc) (const char *path,
                              sqlite3    *db,
                              gpointer    user_data);

static void
for_each_pass_file (CsPluginDocument       *self,
                    CsPlugin               *plugin,
                    const CsPluginPassInfo *info,
                    PassFileFunc            func,
                    gpointer                user_data)
{
  g_autofree char *any = _cs_plugin_document_dup_pass_path (self, plugin, info, NULL);
  g_autofree char *dir_path = g_path_get_dirname (any);
  g_autofree char *base = g_path_get_basename (any);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  char *hash;

  /* BASE.PLUGIN.PASS.HASH.cspass: keep what comes before HASH. */
  hash = strrchr (base, '.');
  if (hash != NULL)
    *hash = '\0';
  hash = strrchr (base, '.');
  if (hash != NULL)
    hash[1] = '\0';
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      sqlite3 *db = NULL;

      if (!g_str_has_prefix (name, base) || !g_str_has_suffix (name, ".cspass"))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        {
          sqlite3_close_v2 (db);
          db = NULL;
        }
      func (path, db, user_data);
      sqlite3_close_v2 (db);
    }
}

typedef struct {
  CsPluginDocument *self;
  CsPlugin *plugin;
  const CsPluginPassInfo *info;
  GStrvBuilder *paths;
  GStrvBuilder *params;
} Scan;

static void
list_cb (const char *path,
         sqlite3    *db,
         gpointer    user_data)
{
  Scan *scan = user_data;
  g_autofree char *param = db != NULL ? read_pass_param (db) : NULL;
  g_autofree char *expected = NULL;

  if (param == NULL ||
      !_cs_plugin_document_pass_db_matches (scan->self, db, scan->plugin, scan->info, param))
    return;
  expected = _cs_plugin_document_dup_pass_path (scan->self, scan->plugin, scan->info,
                                                *param ? param : NULL);
  if (g_str_equal (expected, path))
    {
      g_strv_builder_add (scan->paths, path);
      g_strv_builder_add (scan->params, param);
    }
}

/**
 * _cs_plugin_document_list_pass_results:
 * @self: a document
 * @plugin: a plugin
 * @info: one of its passes
 * @paths: (out) (transfer full): the result files, %NULL-terminated
 * @params: (out) (transfer full): the parameter of each ("" for none)
 *
 * Finds every result of @info stored for this recording, whatever the
 * parameter it was run with: the files next to the index that hold this
 * version's results for this recording (as cs_plugin_document_get_pass_db()
 * would open them).  Any thread that may read the cache.
 */
void
_cs_plugin_document_list_pass_results (CsPluginDocument        *self,
                                       CsPlugin                *plugin,
                                       const CsPluginPassInfo  *info,
                                       char                  ***paths,
                                       char                  ***params)
{
  g_autoptr(GStrvBuilder) path_list = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) param_list = g_strv_builder_new ();
  Scan scan = { self, plugin, info, path_list, param_list };

  for_each_pass_file (self, plugin, info, list_cb, &scan);
  *paths = g_strv_builder_end (path_list);
  *params = g_strv_builder_end (param_list);
}

/* The value of @key in the file's chronoscope_pass table, or NULL. */
static char *
read_pass_key (sqlite3    *db,
               const char *key)
{
  sqlite3_stmt *s = NULL;
  char *value = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM chronoscope_pass WHERE key = ?1", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC) == SQLITE_OK &&
      sqlite3_step (s) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  return value;
}

static void
stale_cb (const char *path,
          sqlite3    *db,
          gpointer    user_data)
{
  Scan *scan = user_data;
  g_autofree char *plugin = NULL;
  g_autofree char *pass = NULL;
  g_autofree char *version = NULL;

  if (db == NULL)
    return;
  plugin = read_pass_key (db, "plugin");
  pass = read_pass_key (db, "pass");
  version = read_pass_key (db, "version");
  /* Only what this pass wrote, in an older version: a newer one may be
   * another build's, sharing the cache. */
  if (g_strcmp0 (plugin, scan->plugin->id) == 0 && g_strcmp0 (pass, scan->info->name) == 0 &&
      version != NULL && g_ascii_strtoull (version, NULL, 10) < scan->info->version)
    g_strv_builder_add (scan->paths, path);
}

/**
 * _cs_plugin_document_remove_stale_pass_results:
 * @self: a document
 * @plugin: a plugin
 * @info: one of its passes
 *
 * Deletes the results an older version of @info left next to the index
 * (files a reader of this version never opens).  Called when the pass has
 * stored new results; errors are ignored (a file that stays is only
 * space).
 */
void
_cs_plugin_document_remove_stale_pass_results (CsPluginDocument       *self,
                                               CsPlugin               *plugin,
                                               const CsPluginPassInfo *info)
{
  g_autoptr(GStrvBuilder) stale = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;
  Scan scan = { self, plugin, info, stale, NULL };

  for_each_pass_file (self, plugin, info, stale_cb, &scan);
  paths = g_strv_builder_end (stale);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_debug ("Removing the results of an older version of the pass %s of %s: %s",
               info->name, plugin->id, paths[i]);
      g_unlink (paths[i]);
    }
}
