/* cs-funcgraph.c: the function_graph plugin's entry and its instance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For recordings made with the function_graph tracer (ftrace's
 * funcgraph_entry and funcgraph_exit events) or the function tracer
 * (ftrace's function events): an automatic pass stores every call of
 * every task (cs-funcgraph-pass.c); a row per task draws its calls as a
 * flame chart, one band per depth (cs-funcgraph-layer.c); the page
 * "Functions" lists the functions of the range by total and self time
 * (cs-funcgraph-page.c), as `chronoscope funcgraph FILE` does on the
 * command line (cs-funcgraph-cli.c).
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

static void
finalize_statement (gpointer stmt)
{
  sqlite3_finalize (stmt);
}

static gpointer
funcgraph_open (CsPlugin          *plugin,
                CsPluginDocument  *document,
                GError           **error)
{
  CsFuncgraph *self = g_new0 (CsFuncgraph, 1);

  self->plugin = plugin;
  self->document = document;
  self->pages = g_ptr_array_new ();
  self->names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->statements = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                            finalize_statement);
  self->has_events = _cs_funcgraph_has_events (document);
  /* Only recordings of the tracers get the pass (and a worker run). */
  _cs_funcgraph_request (self);
  return self;
}

static void
funcgraph_close (gpointer instance)
{
  CsFuncgraph *self = instance;

  /* A page may outlive the instance: it forgets it. */
  while (self->pages->len > 0)
    _cs_funcgraph_page_forget (g_ptr_array_index (self->pages, self->pages->len - 1));
  g_ptr_array_unref (self->pages);
  g_hash_table_unref (self->names);
  g_hash_table_unref (self->statements);
  _cs_funcgraph_reader_free (self->reader);
  g_free (self);
}

static void
funcgraph_pass_ready (gpointer    instance,
                      const char *pass,
                      const char *param)
{
  CsFuncgraph *self = instance;
  g_autoptr(GPtrArray) pages = NULL;

  if (g_strcmp0 (pass, CS_FUNCGRAPH_PASS) != 0)
    return;
  g_hash_table_remove_all (self->names);
  g_hash_table_remove_all (self->statements);
  g_clear_pointer (&self->reader, _cs_funcgraph_reader_free);
  pages = g_ptr_array_copy (self->pages, NULL, NULL);
  for (guint i = 0; i < pages->len; i++)
    _cs_funcgraph_page_refresh (g_ptr_array_index (pages, i));
}

/**
 * _cs_funcgraph_has_events:
 * @document: a recording
 *
 * Returns: whether it holds function_graph calls or function tracer
 *   events, from the index's counts
 */
gboolean
_cs_funcgraph_has_events (CsPluginDocument *document)
{
  return cs_plugin_document_count_events (document, "ftrace", "funcgraph_exit") > 0 ||
         cs_plugin_document_count_events (document, "ftrace", "function") > 0;
}

/**
 * _cs_funcgraph_request:
 * @self: an instance
 *
 * Asks for the pass when the recording has the tracers' events and its
 * results are not there yet (the window runs it in the background; without
 * a window it has run when this returns).  Never while a frame is drawn.
 */
void
_cs_funcgraph_request (CsFuncgraph *self)
{
  if (self->has_events && _cs_funcgraph_get_db (self) == NULL)
    cs_plugin_document_request_pass (self->document, self->plugin, CS_FUNCGRAPH_PASS, NULL);
}

/**
 * _cs_funcgraph_get_db:
 * @self: an instance
 *
 * Returns: (transfer none) (nullable): the pass's database, %NULL while
 *   the pass has not run
 */
sqlite3 *
_cs_funcgraph_get_db (CsFuncgraph *self)
{
  if (self == NULL || !self->has_events)
    return NULL;
  /* Without a window (render, export) the pass ran while it was asked
   * for, and pass_ready may not have come. */
  return cs_plugin_document_get_pass_db (self->document, self->plugin, CS_FUNCGRAPH_PASS, NULL, NULL);
}

/**
 * _cs_funcgraph_statement:
 * @self: an instance
 * @db: its pass database (_cs_funcgraph_get_db())
 * @sql: a statement, a static string: it is prepared once and kept
 *
 * Returns: (transfer none) (nullable): the statement, reset, its
 *   parameters cleared; %NULL when it cannot be prepared
 */
CsFuncgraphStatement *
_cs_funcgraph_statement (CsFuncgraph *self,
                         sqlite3     *db,
                         const char  *sql)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (self->statements, sql);

  if (stmt != NULL && sqlite3_db_handle (stmt) != db)
    {
      g_hash_table_remove (self->statements, sql);
      stmt = NULL;
    }
  if (stmt == NULL)
    {
      if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
        {
          sqlite3_finalize (stmt);
          return NULL;
        }
      g_hash_table_insert (self->statements, (gpointer) sql, stmt);
    }
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  return stmt;
}

/**
 * _cs_funcgraph_get_reader:
 * @self: an instance
 * @db: its pass database (_cs_funcgraph_get_db())
 *
 * Returns: (transfer none): the instance's reader of the calls on @db,
 *   kept (with the chunks its columns read last) until the pass runs
 *   again or the recording closes
 */
CsFuncgraphReader *
_cs_funcgraph_get_reader (CsFuncgraph *self,
                          sqlite3     *db)
{
  if (self->reader != NULL && _cs_funcgraph_reader_get_db (self->reader) != db)
    g_clear_pointer (&self->reader, _cs_funcgraph_reader_free);
  if (self->reader == NULL)
    self->reader = _cs_funcgraph_reader_new (db);
  return self->reader;
}

/**
 * _cs_funcgraph_get_name:
 * @self: an instance whose pass has run
 * @func: a function's id
 *
 * Returns: (transfer none): its name ("?" when unknown), kept by @self
 */
const char *
_cs_funcgraph_get_name (CsFuncgraph *self,
                        gint64       func)
{
  const char *name = g_hash_table_lookup (self->names, &func);
  sqlite3 *db;

  if (name != NULL)
    return name;
  db = _cs_funcgraph_get_db (self);
  name = db != NULL ? _cs_funcgraph_function_name (db, func) : g_strdup ("?");
  g_hash_table_insert (self->names, g_memdup2 (&func, sizeof func), (char *) name);
  return name;
}

static gboolean
funcgraph_init (CsPlugin  *plugin,
                GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    .struct_size = sizeof (CsPluginDocumentHooks),
    .open = funcgraph_open,
    .close = funcgraph_close,
    .pass_ready = funcgraph_pass_ready,
  };

  cs_plugin_set_document_hooks (plugin, &hooks);
  _cs_funcgraph_add_pass (plugin);
  _cs_funcgraph_add_layer (plugin);
  _cs_funcgraph_add_page (plugin);
  _cs_funcgraph_add_command (plugin);
  return TRUE;
}

CS_PLUGIN_DEFINE ("funcgraph", N_("Function graph"),
                  N_("Calls of the function_graph and function tracers: a flame chart per task "
                     "and the functions by total and self time"),
                  "1.0", funcgraph_init)
