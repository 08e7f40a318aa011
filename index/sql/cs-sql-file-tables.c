/* cs-sql-file-tables.c: tables over other SQLite files, read-only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What a plugin's pass derives from a recording lives in SQLite files of
 * its own (one per pass parameter, next to the index).  A file table
 * shows them as one table of the session: its first column is the key of
 * the file a row comes from (the pass's parameter, e.g. the latency
 * definition), the others what a fixed SELECT, run on each file, gives.
 *
 * User SQL never reaches those files: ATTACH stays refused, and each file
 * is opened by the table itself, read-only, on a connection of its own
 * that runs only the table's SELECT.  An equality on the key column is
 * pushed down (only that file is opened).  A key no file has, or a table
 * with no file at all, is an error that says how to compute the results
 * (#CsSqlFileTable.missing), rather than an empty answer that looks
 * like "no latencies".
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cs-sql-private.h"

typedef struct {
  CsSqlTable base;              /* first: the module's aux */
  char *name;
  char *select;
  char *missing;
  char **paths;
  char **keys;
  gboolean (*prepare) (sqlite3 *db, GError **error);
  int n_columns;                /* of the SELECT */
} FileAux;

typedef struct {
  sqlite3_vtab_cursor base;
  GPtrArray *files;             /* indexes into paths, to read in order */
  guint file;                   /* the one being read */
  sqlite3 *db;                  /* its connection */
  sqlite3_stmt *stmt;
  gboolean eof;
  sqlite3_int64 rowid;
} FileCursor;

static void
file_aux_free (void *data)
{
  FileAux *aux = data;

  g_free (aux->base.schema);
  g_free (aux->name);
  g_free (aux->select);
  g_free (aux->missing);
  g_strfreev (aux->paths);
  g_strfreev (aux->keys);
  g_free (aux);
}

static FileAux *
aux_of (sqlite3_vtab_cursor *cursor)
{
  return (FileAux *) ((CsSqlVtab *) cursor->pVtab)->table;
}

static int
file_best_index (sqlite3_vtab       *vtab,
                 sqlite3_index_info *info)
{
  info->idxNum = 0;
  info->estimatedCost = 1e6;
  for (int i = 0; i < info->nConstraint; i++)
    if (info->aConstraint[i].usable && info->aConstraint[i].iColumn == 0 &&
        info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ)
      {
        info->aConstraintUsage[i].argvIndex = 1;
        info->idxNum = 1;
        info->estimatedCost = 1e4;
        break;
      }
  return SQLITE_OK;
}

static int
file_open (sqlite3_vtab         *vtab,
           sqlite3_vtab_cursor **out)
{
  FileCursor *c = g_new0 (FileCursor, 1);

  c->files = g_ptr_array_new ();
  *out = &c->base;
  return SQLITE_OK;
}

static void
close_file (FileCursor *c)
{
  g_clear_pointer (&c->stmt, sqlite3_finalize);
  g_clear_pointer (&c->db, sqlite3_close_v2);
}

static int
file_close (sqlite3_vtab_cursor *cursor)
{
  FileCursor *c = (FileCursor *) cursor;

  close_file (c);
  g_ptr_array_unref (c->files);
  g_free (c);
  return SQLITE_OK;
}

/* Opens the next file to read and compiles the SELECT there; sets eof
 * after the last one. */
static int
open_next (FileCursor *c)
{
  FileAux *aux = aux_of (&c->base);
  const char *path;
  gboolean opened;

  close_file (c);
  if (c->file >= c->files->len)
    {
      c->eof = TRUE;
      return SQLITE_OK;
    }
  path = aux->paths[GPOINTER_TO_UINT (c->files->pdata[c->file])];
  opened = sqlite3_open_v2 (path, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                            NULL) == SQLITE_OK;
  if (opened && aux->prepare != NULL)
    {
      g_autoptr(GError) prepare_error = NULL;

      if (!aux->prepare (c->db, &prepare_error))
        return _cs_sql_vtab_fail (&c->base,
                                  g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED,
                                               _("%s: cannot read %s: %s"), aux->name, path,
                                               prepare_error->message));
    }
  if (!opened ||
      sqlite3_prepare_v2 (c->db, aux->select, -1, &c->stmt, NULL) != SQLITE_OK)
    {
      GError *error = g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("%s: cannot read %s: %s"),
                                   aux->name, path, c->db ? sqlite3_errmsg (c->db) : _("out of memory"));
      return _cs_sql_vtab_fail (&c->base, error);
    }
  return SQLITE_OK;
}

/* Steps to the next row, across files. */
static int
step (FileCursor *c)
{
  for (;;)
    {
      int rc;

      if (c->stmt == NULL)
        {
          if ((rc = open_next (c)) != SQLITE_OK || c->eof)
            return rc;
        }
      rc = sqlite3_step (c->stmt);
      if (rc == SQLITE_ROW)
        {
          c->rowid++;
          return SQLITE_OK;
        }
      if (rc != SQLITE_DONE)
        {
          FileAux *aux = aux_of (&c->base);
          GError *error = g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("%s: cannot read %s: %s"),
                                       aux->name,
                                       aux->paths[GPOINTER_TO_UINT (c->files->pdata[c->file])],
                                       sqlite3_errmsg (c->db));
          return _cs_sql_vtab_fail (&c->base, error);
        }
      close_file (c);
      c->file++;
    }
}

static int
file_filter (sqlite3_vtab_cursor  *cursor,
             int                   idx_num,
             const char           *idx_str,
             int                   argc,
             sqlite3_value       **argv)
{
  FileCursor *c = (FileCursor *) cursor;
  FileAux *aux = aux_of (cursor);
  const char *key = NULL;

  close_file (c);
  g_ptr_array_set_size (c->files, 0);
  c->file = 0;
  c->eof = FALSE;
  c->rowid = 0;
  if (idx_num == 1 && argc == 1)
    {
      key = (const char *) sqlite3_value_text (argv[0]);
      if (key == NULL)
        {
          c->eof = TRUE;
          return SQLITE_OK;
        }
    }
  for (guint i = 0; aux->paths[i] != NULL; i++)
    if (key == NULL || g_str_equal (aux->keys[i], key))
      g_ptr_array_add (c->files, GUINT_TO_POINTER (i));
  if (c->files->len == 0)
    {
      GError *error = key != NULL
        ? g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("%s has nothing for “%s” yet: %s"),
                       aux->name, key, aux->missing)
        : g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("%s is empty: nothing is computed yet: %s"),
                       aux->name, aux->missing);
      return _cs_sql_vtab_fail (cursor, error);
    }
  return step (c);
}

static int
file_next (sqlite3_vtab_cursor *cursor)
{
  return step ((FileCursor *) cursor);
}

static int
file_eof (sqlite3_vtab_cursor *cursor)
{
  return ((FileCursor *) cursor)->eof;
}

static int
file_column (sqlite3_vtab_cursor *cursor,
             sqlite3_context     *context,
             int                  column)
{
  FileCursor *c = (FileCursor *) cursor;
  FileAux *aux = aux_of (cursor);

  if (column == 0)
    sqlite3_result_text (context, aux->keys[GPOINTER_TO_UINT (c->files->pdata[c->file])], -1, SQLITE_TRANSIENT);
  else if (column - 1 < sqlite3_column_count (c->stmt))
    sqlite3_result_value (context, sqlite3_column_value (c->stmt, column - 1));
  else
    sqlite3_result_null (context);
  return SQLITE_OK;
}

static int
file_rowid (sqlite3_vtab_cursor *cursor,
            sqlite3_int64       *rowid)
{
  *rowid = ((FileCursor *) cursor)->rowid;
  return SQLITE_OK;
}

static const sqlite3_module file_module = {
  .iVersion = 1,
  .xCreate = NULL,              /* eponymous only */
  .xConnect = _cs_sql_vtab_connect,
  .xBestIndex = file_best_index,
  .xDisconnect = _cs_sql_vtab_disconnect,
  .xDestroy = _cs_sql_vtab_disconnect,
  .xOpen = file_open,
  .xClose = file_close,
  .xFilter = file_filter,
  .xNext = file_next,
  .xEof = file_eof,
  .xColumn = file_column,
  .xRowid = file_rowid,
};

gboolean
_cs_sql_register_file_table (sqlite3               *db,
                             CsSqlContext          *ctx,
                             const CsSqlFileTable  *table,
                             char                 **schema,
                             GError               **error)
{
  FileAux *aux = g_new0 (FileAux, 1);
  g_autofree char *key = _cs_sql_quote_identifier (table->key_column);

  aux->base.ctx = ctx;
  aux->base.schema = g_strdup_printf ("CREATE TABLE x(%s TEXT, %s)", key, table->columns);
  aux->name = g_strdup (table->name);
  aux->select = g_strdup (table->select);
  aux->missing = g_strdup (table->missing);
  aux->prepare = table->prepare;
  aux->paths = g_strdupv ((char **) table->paths);
  aux->keys = g_strdupv ((char **) table->keys);
  if (aux->paths == NULL)
    aux->paths = g_new0 (char *, 1);
  if (aux->keys == NULL || g_strv_length (aux->keys) != g_strv_length (aux->paths))
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED,
                   _("The table %s needs one key per file"), table->name);
      file_aux_free (aux);
      return FALSE;
    }
  *schema = g_strdup (aux->base.schema);
  if (sqlite3_create_module_v2 (db, table->name, &file_module, aux, file_aux_free) != SQLITE_OK)
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the table %s: %s"),
                   table->name, sqlite3_errmsg (db));
      g_clear_pointer (schema, g_free);
      return FALSE;
    }
  return TRUE;
}
