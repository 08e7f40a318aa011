/* cs-sql-query.c: CsSqlQuery, a compiled statement and its rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-sql-private.h"
#include "cs-sql-query-private.h"

struct _CsSqlQuery
{
  CsSqlSession *session;        /* owned: keeps the connection open */
  sqlite3_stmt *stmt;           /* owned */
  gboolean done;
};

CsSqlQuery *
_cs_sql_query_new (CsSqlSession *session,
                   sqlite3_stmt *stmt)
{
  CsSqlQuery *self = g_new0 (CsSqlQuery, 1);

  self->session = g_object_ref (session);
  self->stmt = stmt;
  return self;
}

/**
 * cs_sql_query_free:
 * @self: (transfer full) (nullable): a query
 *
 * Finalizes the statement and drops its reference on the session.
 */
void
cs_sql_query_free (CsSqlQuery *self)
{
  if (self == NULL)
    return;
  sqlite3_finalize (self->stmt);
  g_object_unref (self->session);
  g_free (self);
}

/** cs_sql_query_get_n_columns: Returns: the number of result columns */
guint
cs_sql_query_get_n_columns (CsSqlQuery *self)
{
  return sqlite3_column_count (self->stmt);
}

/**
 * cs_sql_query_get_column_name:
 * @self: a query
 * @column: 0 .. n_columns - 1
 *
 * Returns: (transfer none): the column's name (its AS name when given)
 */
const char *
cs_sql_query_get_column_name (CsSqlQuery *self,
                              guint       column)
{
  return sqlite3_column_name (self->stmt, column) ?: "";
}

/**
 * cs_sql_query_next:
 * @self: a query
 * @error: %CS_SQL_ERROR_FAILED with SQLite's message (or the index's or
 *   the recording's, naming the file) when the statement fails
 *
 * Steps to the next result row; the values of the previous one are then
 * invalid.  Runs in the calling thread and may read much of the recording.
 *
 * Returns: %TRUE when a row is there; %FALSE at the end (@error unset) or
 *   on error
 */
gboolean
cs_sql_query_next (CsSqlQuery  *self,
                   GError     **error)
{
  int rc;

  if (self->done)
    return FALSE;
  rc = sqlite3_step (self->stmt);
  if (rc == SQLITE_ROW)
    return TRUE;
  self->done = TRUE;
  if (rc == SQLITE_DONE)
    return FALSE;
  g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, "%s",
               sqlite3_errmsg (sqlite3_db_handle (self->stmt)));
  return FALSE;
}

/**
 * cs_sql_query_get_value_type:
 * @self: a query on a row
 * @column: 0 .. n_columns - 1
 *
 * Returns: the type of the value of @column in the current row
 */
CsSqlValueType
cs_sql_query_get_value_type (CsSqlQuery *self,
                             guint       column)
{
  switch (sqlite3_column_type (self->stmt, column))
    {
    case SQLITE_INTEGER:
      return CS_SQL_INTEGER;
    case SQLITE_FLOAT:
      return CS_SQL_FLOAT;
    case SQLITE_TEXT:
      return CS_SQL_TEXT;
    case SQLITE_BLOB:
      return CS_SQL_BLOB;
    default:
      return CS_SQL_NULL;
    }
}

/** cs_sql_query_get_int64: Returns: the value of @column as an integer */
gint64
cs_sql_query_get_int64 (CsSqlQuery *self,
                        guint       column)
{
  return sqlite3_column_int64 (self->stmt, column);
}

/** cs_sql_query_get_double: Returns: the value of @column as a double */
double
cs_sql_query_get_double (CsSqlQuery *self,
                         guint       column)
{
  return sqlite3_column_double (self->stmt, column);
}

/**
 * cs_sql_query_get_text:
 * @self: a query on a row
 * @column: 0 .. n_columns - 1
 *
 * Returns: (transfer none) (nullable): the value of @column as text, valid
 *   until the next row; %NULL for a NULL value
 */
const char *
cs_sql_query_get_text (CsSqlQuery *self,
                       guint       column)
{
  return (const char *) sqlite3_column_text (self->stmt, column);
}

/**
 * cs_sql_query_get_blob:
 * @self: a query on a row
 * @column: 0 .. n_columns - 1
 * @size: (out): its size in bytes
 *
 * Returns: (transfer none) (nullable): the value's bytes, valid until the
 *   next row
 */
const guint8 *
cs_sql_query_get_blob (CsSqlQuery *self,
                       guint       column,
                       gsize      *size)
{
  const guint8 *data = sqlite3_column_blob (self->stmt, column);

  *size = sqlite3_column_bytes (self->stmt, column);
  return data;
}

/* x'0a1b...': SQLite's literal for a blob. */
static char *
hex_of (const guint8 *data,
        gsize         size)
{
  GString *s = g_string_sized_new (size * 2 + 3);

  g_string_append (s, "x'");
  for (gsize i = 0; i < size; i++)
    g_string_append_printf (s, "%02x", data[i]);
  g_string_append_c (s, '\'');
  return g_string_free (s, FALSE);
}

/**
 * cs_sql_query_dup_text:
 * @self: a query on a row
 * @column: 0 .. n_columns - 1
 *
 * The value of @column as people read it: integers in decimal, doubles
 * with g_ascii_dtostr() (the shortest text that reads back the same),
 * text as it is, blobs as SQLite's literal `x'0a1b'`.  `chronoscope
 * query` prints these, and the window's Query page shows them.
 *
 * Returns: (transfer full) (nullable): the text, %NULL for SQL NULL
 */
char *
cs_sql_query_dup_text (CsSqlQuery *self,
                       guint       column)
{
  gsize size;
  const guint8 *blob;

  switch (cs_sql_query_get_value_type (self, column))
    {
    case CS_SQL_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, cs_sql_query_get_int64 (self, column));
    case CS_SQL_FLOAT:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_dtostr (buf, sizeof buf, cs_sql_query_get_double (self, column)));
      }
    case CS_SQL_TEXT:
      return g_strdup (cs_sql_query_get_text (self, column));
    case CS_SQL_BLOB:
      blob = cs_sql_query_get_blob (self, column, &size);
      return hex_of (blob, size);
    case CS_SQL_NULL:
    default:
      return NULL;
    }
}
