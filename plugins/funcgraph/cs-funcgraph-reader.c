/* cs-funcgraph-reader.c: reading the calls' result table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass (cs-funcgraph-pass.c) stores the calls in a result table of
 * the plugin API (cs-plugin-result.h): their rows in call_rows, and three
 * sorted orders whose columns are read by position: call_flame (by task
 * and depth, then time; a span per band in call_flame_span), call_worst
 * (by function, longest first; a span per function in call_worst_span)
 * and call_time (by beginning); the function events likewise in
 * instant_rows, and their order instant_task (by task, then time; a span
 * per task in instant_task_span).  A reader holds, for one connection, a
 * #CsPluginResultColumn per column it was asked for (each keeps the
 * chunk it read last, CS_PLUGIN_RESULT_ORDER_CHUNK numbers) and the
 * statements of the spans and of a row by rowid, prepared once.  One
 * thread at a time, that of the connection.
 */
#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

/* The orders with a span per group: their name, and their span table's
 * statement. */
enum { SPAN_FLAME, SPAN_WORST, SPAN_TASK, N_SPANS };

static const struct {
  const char *order;
  const char *sql;
} span_specs[N_SPANS] = {
  [SPAN_FLAME] = { CS_FUNCGRAPH_ORDER_FLAME,
                   "SELECT lo, hi FROM " CS_FUNCGRAPH_ORDER_FLAME "_span WHERE key = ?" },
  [SPAN_WORST] = { CS_FUNCGRAPH_ORDER_WORST,
                   "SELECT lo, hi FROM " CS_FUNCGRAPH_ORDER_WORST "_span WHERE func = ?" },
  [SPAN_TASK] = { CS_FUNCGRAPH_ORDER_TASK,
                  "SELECT lo, hi FROM " CS_FUNCGRAPH_ORDER_TASK "_span WHERE pid = ?" },
};

struct _CsFuncgraphReader
{
  sqlite3 *db;
  CsPluginResultColumn *columns[CS_FUNCGRAPH_N_COLUMNS];
  sqlite3_stmt *spans[N_SPANS];
  sqlite3_stmt *row;
  sqlite3_stmt *instant;
};

/* Each column: its order and its name there. */
static const struct {
  const char *order;
  const char *name;
} column_specs[CS_FUNCGRAPH_N_COLUMNS] = {
  [CS_FUNCGRAPH_FLAME_BEGIN] = { CS_FUNCGRAPH_ORDER_FLAME, "begin_ns" },
  [CS_FUNCGRAPH_FLAME_END] = { CS_FUNCGRAPH_ORDER_FLAME, "end_ns" },
  [CS_FUNCGRAPH_FLAME_FUNC] = { CS_FUNCGRAPH_ORDER_FLAME, "func" },
  [CS_FUNCGRAPH_FLAME_ROW] = { CS_FUNCGRAPH_ORDER_FLAME, "row" },
  [CS_FUNCGRAPH_WORST_BEGIN] = { CS_FUNCGRAPH_ORDER_WORST, "begin_ns" },
  [CS_FUNCGRAPH_WORST_ROW] = { CS_FUNCGRAPH_ORDER_WORST, "row" },
  [CS_FUNCGRAPH_TIME_BEGIN] = { CS_FUNCGRAPH_ORDER_TIME, "begin_ns" },
  [CS_FUNCGRAPH_TIME_END] = { CS_FUNCGRAPH_ORDER_TIME, "end_ns" },
  [CS_FUNCGRAPH_TIME_SELF] = { CS_FUNCGRAPH_ORDER_TIME, "self_ns" },
  [CS_FUNCGRAPH_TIME_FUNC] = { CS_FUNCGRAPH_ORDER_TIME, "func" },
  [CS_FUNCGRAPH_TASK_TS] = { CS_FUNCGRAPH_ORDER_TASK, "ts_ns" },
  [CS_FUNCGRAPH_TASK_ROW] = { CS_FUNCGRAPH_ORDER_TASK, "row" },
};

/* A statement prepared on first use into *@stmt. */
static sqlite3_stmt *
statement (CsFuncgraphReader  *self,
           sqlite3_stmt      **stmt,
           const char         *sql,
           GError            **error)
{
  if (*stmt == NULL && sqlite3_prepare_v2 (self->db, sql, -1, stmt, NULL) != SQLITE_OK)
    {
      _cs_funcgraph_sql_failed (self->db, error);
      g_clear_pointer (stmt, sqlite3_finalize);
      return NULL;
    }
  return *stmt;
}

/* The reader of @column, opened on first use. */
static CsPluginResultColumn *
column_for (CsFuncgraphReader  *self,
            CsFuncgraphColumn   column,
            GError            **error)
{
  if (self->columns[column] == NULL)
    self->columns[column] = cs_plugin_result_column_new (self->db, column_specs[column].order,
                                                         column_specs[column].name, error);
  return self->columns[column];
}

/**
 * _cs_funcgraph_reader_new:
 * @db: the pass's database (read-only is enough)
 *
 * Returns: (transfer full): a reader of the calls on @db; nothing is
 *   read until asked; free it before @db closes
 */
CsFuncgraphReader *
_cs_funcgraph_reader_new (sqlite3 *db)
{
  CsFuncgraphReader *self = g_new0 (CsFuncgraphReader, 1);

  self->db = db;
  return self;
}

/**
 * _cs_funcgraph_reader_free:
 * @reader: (nullable): a reader
 */
void
_cs_funcgraph_reader_free (CsFuncgraphReader *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < CS_FUNCGRAPH_N_COLUMNS; i++)
    cs_plugin_result_column_free (self->columns[i]);
  for (guint i = 0; i < N_SPANS; i++)
    sqlite3_finalize (self->spans[i]);
  sqlite3_finalize (self->row);
  sqlite3_finalize (self->instant);
  g_free (self);
}

/**
 * _cs_funcgraph_reader_get_db:
 * @reader: a reader
 *
 * Returns: (transfer none): the connection it reads
 */
sqlite3 *
_cs_funcgraph_reader_get_db (CsFuncgraphReader *self)
{
  return self->db;
}

/**
 * _cs_funcgraph_reader_get_span:
 * @reader: a reader
 * @order: %CS_FUNCGRAPH_ORDER_FLAME (@key: CS_FUNCGRAPH_BAND_KEY() of a
 *   task and depth), %CS_FUNCGRAPH_ORDER_WORST (@key: a function's id)
 *   or %CS_FUNCGRAPH_ORDER_TASK (@key: a pid)
 * @key: the group
 * @lo: (out): its first position in @order
 * @hi: (out): the position past its last; @lo when it has none
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The positions [@lo, @hi) of a group: a band's calls, by time; a
 * function's calls, longest first; a task's function events, by time.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_get_span (CsFuncgraphReader  *self,
                               const char         *order,
                               gint64              key,
                               gint64             *lo,
                               gint64             *hi,
                               GError            **error)
{
  guint i = 0;
  sqlite3_stmt *stmt;
  int rc;

  while (i < N_SPANS && !g_str_equal (order, span_specs[i].order))
    i++;
  g_return_val_if_fail (i < N_SPANS, FALSE);

  stmt = statement (self, &self->spans[i], span_specs[i].sql, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, key);
  rc = sqlite3_step (stmt);
  *lo = *hi = 0;
  if (rc == SQLITE_ROW)
    {
      *lo = sqlite3_column_int64 (stmt, 0);
      *hi = sqlite3_column_int64 (stmt, 1);
    }
  sqlite3_reset (stmt);
  return rc == SQLITE_ROW || rc == SQLITE_DONE || _cs_funcgraph_sql_failed (self->db, error);
}

/**
 * _cs_funcgraph_reader_get_n:
 * @reader: a reader
 * @n_calls: (out): how many calls the recording has (positions of each
 *   order)
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_get_n (CsFuncgraphReader  *self,
                            gint64             *n_calls,
                            GError            **error)
{
  CsPluginResultColumn *col = column_for (self, CS_FUNCGRAPH_TIME_BEGIN, error);

  return col != NULL && cs_plugin_result_column_get_n_positions (col, n_calls, error);
}

/**
 * _cs_funcgraph_reader_get:
 * @reader: a reader
 * @column: a column of an order
 * @position: a position in that order, in [0, number of calls)
 * @value: (out): the column's number there (ns, an id, or a rowid of
 *   call_rows for the `row` columns)
 * @error: %CS_PLUGIN_ERROR_FAILED when the position is out of range or
 *   the database cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_get (CsFuncgraphReader  *self,
                          CsFuncgraphColumn   column,
                          gint64              position,
                          gint64             *value,
                          GError            **error)
{
  CsPluginResultColumn *col = column_for (self, column, error);

  return col != NULL && cs_plugin_result_column_get (col, position, value, error);
}

/**
 * _cs_funcgraph_reader_find:
 * @reader: a reader
 * @column: a column sorted ascending over [@lo, @hi): a band's
 *   %CS_FUNCGRAPH_FLAME_BEGIN over its span, or %CS_FUNCGRAPH_TIME_BEGIN
 *   over all the calls
 * @lo: the first position searched
 * @hi: the position past the last
 * @value: a time (ns)
 * @position: (out): the first position in [@lo, @hi) whose value is ≥
 *   @value, @hi when there is none
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_find (CsFuncgraphReader  *self,
                           CsFuncgraphColumn   column,
                           gint64              lo,
                           gint64              hi,
                           gint64              value,
                           gint64             *position,
                           GError            **error)
{
  CsPluginResultColumn *col = column_for (self, column, error);

  return col != NULL &&
         cs_plugin_result_column_find_in (col, lo, hi, value, FALSE, position, error);
}

/* Reads the @n columns of @sql (a SELECT by rowid, prepared once into
 * *@stmt) for @row into @values. */
static gboolean
read_row (CsFuncgraphReader  *self,
          sqlite3_stmt      **stmt,
          const char         *sql,
          gint64              row,
          gint64             *values,
          guint               n,
          GError            **error)
{
  int rc;

  if (statement (self, stmt, sql, error) == NULL)
    return FALSE;
  sqlite3_bind_int64 (*stmt, 1, row);
  rc = sqlite3_step (*stmt);
  for (guint i = 0; rc == SQLITE_ROW && i < n; i++)
    values[i] = sqlite3_column_int64 (*stmt, (int) i);
  sqlite3_reset (*stmt);
  if (rc == SQLITE_ROW)
    return TRUE;
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   "function_graph results: no row %" G_GINT64_FORMAT " (%s)", row, sql);
      return FALSE;
    }
  return _cs_funcgraph_sql_failed (self->db, error);
}

/**
 * _cs_funcgraph_reader_read_call:
 * @reader: a reader
 * @row: a call's rowid in call_rows (an order's `row` column)
 * @call: (out caller-allocates): the call
 * @error: %CS_PLUGIN_ERROR_FAILED when there is no such row or the
 *   database cannot be read
 *
 * Reads one call: one chunk of CS_PLUGIN_RESULT_ROWS_PER_CHUNK rows
 * decoded.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_read_call (CsFuncgraphReader  *self,
                                gint64              row,
                                CsFuncgraphCall    *call,
                                GError            **error)
{
  gint64 v[7];

  if (!read_row (self, &self->row, "SELECT begin_ns, end_ns, self_ns, pid, cpu, depth, func "
                 "FROM call_rows WHERE rowid = ?", row, v, G_N_ELEMENTS (v), error))
    return FALSE;
  call->begin_ns = v[0];
  call->end_ns = v[1];
  call->self_ns = v[2];
  call->pid = (gint32) v[3];
  call->cpu = (guint) v[4];
  call->depth = (guint) v[5];
  call->func = v[6];
  return TRUE;
}

/**
 * _cs_funcgraph_reader_read_instant:
 * @reader: a reader
 * @row: a function event's rowid in instant_rows (instant_task's `row`)
 * @ts_ns: (out): its time
 * @func: (out): its function's id (`ip`)
 * @parent: (out): its caller's (`parent_ip`)
 * @cpu: (out): its CPU
 * @error: %CS_PLUGIN_ERROR_FAILED when there is no such row or the
 *   database cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_funcgraph_reader_read_instant (CsFuncgraphReader  *self,
                                   gint64              row,
                                   gint64             *ts_ns,
                                   gint64             *func,
                                   gint64             *parent,
                                   guint              *cpu,
                                   GError            **error)
{
  gint64 v[4];

  if (!read_row (self, &self->instant, "SELECT ts_ns, func, parent, cpu FROM instant_rows "
                 "WHERE rowid = ?", row, v, G_N_ELEMENTS (v), error))
    return FALSE;
  *ts_ns = v[0];
  *func = v[1];
  *parent = v[2];
  *cpu = (guint) v[3];
  return TRUE;
}
