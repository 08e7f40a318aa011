/* cs-funcgraph-query.c: reading the function_graph pass's tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The table of functions for a range, a function's worst call and the
 * tasks with calls, as the command line, the page and the rows read them
 * from the database cs-funcgraph-pass.c writes.  Main thread (or the
 * command's), on the connection cs_plugin_document_get_pass_db() gives.
 */
#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

static gboolean
sql_failed (sqlite3  *db,
            GError  **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               "function_graph results: %s", sqlite3_errmsg (db));
  return FALSE;
}

/**
 * _cs_funcgraph_function_clear:
 * @function: a line of the table; its name is freed
 */
void
_cs_funcgraph_function_clear (CsFuncgraphFunction *function)
{
  g_clear_pointer (&function->name, g_free);
}

/* Over the whole recording the per-function figures the pass wrote are
 * the answer; a range sums its calls and instants. */
static const char whole_sql[] =
  "SELECT id, name, n_calls, n_hits, total_ns, self_ns, max_ns, addr FROM func "
  "ORDER BY total_ns DESC, n_hits DESC, n_calls DESC, name LIMIT ?3";
static const char range_sql[] =
  "SELECT f.id, f.name, SUM(s.n_calls), SUM(s.n_hits), SUM(s.total_ns), SUM(s.self_ns), MAX(s.max_ns), f.addr "
  "FROM (SELECT func, COUNT(*) AS n_calls, 0 AS n_hits, SUM(end_ns - begin_ns) AS total_ns, "
  "             SUM(self_ns) AS self_ns, MAX(end_ns - begin_ns) AS max_ns "
  "      FROM call WHERE begin_ns >= ?1 AND begin_ns < ?2 GROUP BY func "
  "      UNION ALL "
  "      SELECT func, 0, COUNT(*), 0, 0, 0 FROM instant "
  "      WHERE ts_ns >= ?1 AND ts_ns < ?2 GROUP BY func) AS s "
  "JOIN func AS f ON f.id = s.func GROUP BY f.id "
  "ORDER BY 5 DESC, 4 DESC, 3 DESC, f.name LIMIT ?3";

/**
 * _cs_funcgraph_list_functions:
 * @db: the pass's database
 * @begin_ns: start of the range; %G_MININT64 for the whole recording
 * @end_ns: end of the range (exclusive); %G_MAXINT64 for the whole recording
 * @limit: at most this many lines (0: all)
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The table of functions: the calls that begin in [@begin_ns, @end_ns)
 * and the function events there, summed per function, sorted by total
 * time (then by function events, calls and name), longest first.
 * Functions without calls or events in the range are left out.
 *
 * Returns: (transfer full) (element-type CsFuncgraphFunction) (nullable):
 *   the lines (their names freed with the array)
 */
GArray *
_cs_funcgraph_list_functions (sqlite3  *db,
                              gint64    begin_ns,
                              gint64    end_ns,
                              guint     limit,
                              GError  **error)
{
  gboolean whole = begin_ns == G_MININT64 && end_ns == G_MAXINT64;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (CsFuncgraphFunction));
  int rc;

  g_array_set_clear_func (lines, (GDestroyNotify) _cs_funcgraph_function_clear);
  if (sqlite3_prepare_v2 (db, whole ? whole_sql : range_sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sql_failed (db, error);
      return NULL;
    }
  sqlite3_bind_int64 (stmt, 1, begin_ns);
  sqlite3_bind_int64 (stmt, 2, end_ns);
  sqlite3_bind_int64 (stmt, 3, limit == 0 ? -1 : (gint64) limit);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      CsFuncgraphFunction f = {
        .id = sqlite3_column_int64 (stmt, 0),
        .name = g_strdup ((const char *) sqlite3_column_text (stmt, 1)),
        .n_calls = sqlite3_column_int64 (stmt, 2),
        .n_hits = sqlite3_column_int64 (stmt, 3),
        .total_ns = sqlite3_column_int64 (stmt, 4),
        .self_ns = sqlite3_column_int64 (stmt, 5),
        .max_ns = sqlite3_column_int64 (stmt, 6),
        .addr = sqlite3_column_int64 (stmt, 7),
      };

      if (f.n_calls == 0 && f.n_hits == 0)
        {
          g_free (f.name);
          continue;
        }
      g_array_append_val (lines, f);
    }
  if (rc != SQLITE_DONE)
    {
      sql_failed (db, error);
      return NULL;
    }
  return g_steal_pointer (&lines);
}

/**
 * _cs_funcgraph_worst_call:
 * @db: the pass's database
 * @func: a function's id
 * @begin_ns: start of the range
 * @end_ns: end of the range (exclusive)
 * @call: (out caller-allocates): the call
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The longest call of @func beginning in [@begin_ns, @end_ns) (the
 * earliest of equals).
 *
 * Returns: %FALSE when there is none (@error unset) or on failure
 */
gboolean
_cs_funcgraph_worst_call (sqlite3         *db,
                          gint64           func,
                          gint64           begin_ns,
                          gint64           end_ns,
                          CsFuncgraphCall *call,
                          GError         **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db,
                          "SELECT begin_ns, end_ns, self_ns, pid, cpu, depth FROM call "
                          "WHERE func = ?1 AND begin_ns >= ?2 AND begin_ns < ?3 "
                          "ORDER BY end_ns - begin_ns DESC, begin_ns LIMIT 1",
                          -1, &stmt, NULL) != SQLITE_OK)
    return sql_failed (db, error);
  sqlite3_bind_int64 (stmt, 1, func);
  sqlite3_bind_int64 (stmt, 2, begin_ns);
  sqlite3_bind_int64 (stmt, 3, end_ns);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return FALSE;
  if (rc != SQLITE_ROW)
    return sql_failed (db, error);
  call->begin_ns = sqlite3_column_int64 (stmt, 0);
  call->end_ns = sqlite3_column_int64 (stmt, 1);
  call->self_ns = sqlite3_column_int64 (stmt, 2);
  call->pid = (gint32) sqlite3_column_int64 (stmt, 3);
  call->cpu = (guint) sqlite3_column_int64 (stmt, 4);
  call->depth = (guint) sqlite3_column_int64 (stmt, 5);
  call->func = func;
  return TRUE;
}

/**
 * _cs_funcgraph_function_name:
 * @db: the pass's database
 * @func: a function's id
 *
 * Returns: (transfer full): its name, "?" when the id is unknown
 */
char *
_cs_funcgraph_function_name (sqlite3 *db,
                             gint64   func)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT name FROM func WHERE id = ?", -1, &stmt, NULL) != SQLITE_OK)
    return g_strdup ("?");
  sqlite3_bind_int64 (stmt, 1, func);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return g_strdup ("?");
  return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

/**
 * _cs_funcgraph_list_tasks:
 * @db: the pass's database
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Returns: (transfer full) (element-type gint32) (nullable): the pids
 *   with calls or function events, those with the most calls first
 */
GArray *
_cs_funcgraph_list_tasks (sqlite3  *db,
                          GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  int rc;

  if (sqlite3_prepare_v2 (db,
                          "SELECT pid, SUM(n) FROM (SELECT pid, n_calls AS n FROM band "
                          "UNION ALL SELECT pid, COUNT(*) FROM instant GROUP BY pid) "
                          "GROUP BY pid ORDER BY 2 DESC, pid",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      sql_failed (db, error);
      return NULL;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint32 pid = (gint32) sqlite3_column_int64 (stmt, 0);

      g_array_append_val (pids, pid);
    }
  if (rc != SQLITE_DONE)
    {
      sql_failed (db, error);
      return NULL;
    }
  return g_steal_pointer (&pids);
}
