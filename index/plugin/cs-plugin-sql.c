/* cs-plugin-sql.c: plugins' SQL tables over their pass results.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A plugin registers a table over one of its passes
 * (cs_plugin_add_sql_table()); here each such table becomes a file table
 * of an SQL session (cs_sql_session_add_file_table()) over the results of
 * that pass stored for the recording, one file per parameter it was run
 * with.  index/sql knows nothing of plugins: it reads the files it is
 * given, read-only, with the plugin's SELECT.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cs-plugin-document-private.h"
#include "cs-plugin-private.h"
#include "cs-sql-session.h"

/**
 * _cs_plugin_add_sql_tables:
 * @plugins: (element-type CsPlugin): the plugins in use (enabled)
 * @document: the recording @session reads
 * @session: the session to add the tables to
 * @error: %CS_SQL_ERROR_FAILED when a table cannot be added (its name is
 *   taken, for one)
 *
 * Adds the SQL tables of @plugins, each over the pass results stored for
 * @document when it is called (results computed later are not seen by
 * this session).  The session's thread.
 *
 * Returns: %TRUE when every table was added
 */
gboolean
_cs_plugin_add_sql_tables (GPtrArray     *plugins,
                           CsDocument    *document,
                           CsSqlSession  *session,
                           GError       **error)
{
  g_autoptr(CsPluginDocument) pdoc = NULL;

  for (guint p = 0; p < plugins->len; p++)
    {
      CsPlugin *plugin = plugins->pdata[p];

      for (guint i = 0; i < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_SQL_TABLE); i++)
        {
          const CsPluginSqlTableInfo *info = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_SQL_TABLE, i);
          const CsPluginPassInfo *pass = _cs_plugin_find_pass (plugin, info->pass);
          g_auto(GStrv) paths = NULL;
          g_auto(GStrv) params = NULL;
          g_autofree char *missing = NULL;
          CsSqlFileTable table = { 0 };

          if (pass == NULL)
            continue;
          if (pdoc == NULL)
            pdoc = _cs_plugin_document_new (document);
          _cs_plugin_document_list_pass_results (pdoc, plugin, pass, &paths, &params);
          missing = info->how_to_compute != NULL
            ? g_strdup (*info->how_to_compute != '\0'
                        ? g_dgettext (GETTEXT_PACKAGE, info->how_to_compute) : "")
            : g_strdup_printf (_("enable the plugin “%s” in the window, where its pass “%s” runs"),
                               plugin->id, pass->name);
          table.name = info->name;
          table.key_column = info->param_column;
          table.columns = info->columns;
          table.select = info->select;
          table.paths = (const char * const *) paths;
          table.keys = (const char * const *) params;
          table.missing = missing;
          table.prepare = pass->prepare;
          if (!cs_sql_session_add_file_table (session, &table, error))
            {
              g_prefix_error (error, _("Plugin %s: "), plugin->id);
              return FALSE;
            }
        }
    }
  return TRUE;
}
