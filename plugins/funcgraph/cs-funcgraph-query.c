/* cs-funcgraph-query.c: reading the function_graph pass's tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The table of functions for a range, a function's worst call and the
 * tasks with calls, as the command line, the page and the rows read them
 * from the database cs-funcgraph-pass.c writes (the calls through
 * cs-funcgraph-reader.c).  Main thread (or the
 * command's), on the connection cs_plugin_document_get_pass_db() gives.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

/**
 * _cs_funcgraph_sql_failed:
 * @db: the pass's database, whose last call failed
 * @error: set to %CS_PLUGIN_ERROR_FAILED with SQLite's message
 *
 * Returns: %FALSE
 */
gboolean
_cs_funcgraph_sql_failed (sqlite3  *db,
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
 * the answer. */
static const char whole_sql[] =
  "SELECT id, name, n_calls, n_hits, total_ns, self_ns, max_ns, addr FROM func "
  "ORDER BY total_ns DESC, n_hits DESC, n_calls DESC, name LIMIT ?3";

/* The line of @func in @lines (func id -> CsFuncgraphFunction), added. */
static CsFuncgraphFunction *
line_for (GHashTable *lines,
          gint64      func)
{
  CsFuncgraphFunction *f = g_hash_table_lookup (lines, &func);

  if (f == NULL)
    {
      f = g_new0 (CsFuncgraphFunction, 1);
      f->id = func;
      g_hash_table_insert (lines, &f->id, f);
    }
  return f;
}

/* The calls that begin in [@begin_ns, @end_ns), summed into @lines: their
 * stretch of call_time, found by bisection, read in order. */
static gboolean
sum_calls (CsFuncgraphReader  *reader,
           gint64              begin_ns,
           gint64              end_ns,
           GHashTable         *lines,
           GError            **error)
{
  gint64 n, lo, hi;

  if (!_cs_funcgraph_reader_get_n (reader, &n, error) ||
      !_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_TIME_BEGIN, 0, n, begin_ns, &lo, error) ||
      !_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_TIME_BEGIN, lo, n, end_ns, &hi, error))
    return FALSE;
  for (gint64 pos = lo; pos < hi; pos++)
    {
      gint64 begin, end, self_ns, func;
      CsFuncgraphFunction *f;

      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TIME_BEGIN, pos, &begin, error) ||
          !_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TIME_END, pos, &end, error) ||
          !_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TIME_SELF, pos, &self_ns, error) ||
          !_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TIME_FUNC, pos, &func, error))
        return FALSE;
      f = line_for (lines, func);
      f->n_calls++;
      f->total_ns += end - begin;
      f->self_ns += self_ns;
      f->max_ns = MAX (f->max_ns, end - begin);
    }
  return TRUE;
}

/* The function events in the range, counted into @lines, then the
 * functions' names and addresses. */
static gboolean
count_hits_and_name (sqlite3     *db,
                     gint64       begin_ns,
                     gint64       end_ns,
                     GHashTable  *lines,
                     GError     **error)
{
  g_autoptr(sqlite3_stmt) hits = NULL;
  g_autoptr(sqlite3_stmt) names = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, "SELECT func, COUNT(*) FROM instant "
                          "WHERE ts_ns >= ?1 AND ts_ns < ?2 GROUP BY func", -1, &hits, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT id, name, addr FROM func", -1, &names, NULL) != SQLITE_OK)
    return _cs_funcgraph_sql_failed (db, error);
  sqlite3_bind_int64 (hits, 1, begin_ns);
  sqlite3_bind_int64 (hits, 2, end_ns);
  while ((rc = sqlite3_step (hits)) == SQLITE_ROW)
    line_for (lines, sqlite3_column_int64 (hits, 0))->n_hits = sqlite3_column_int64 (hits, 1);
  if (rc != SQLITE_DONE)
    return _cs_funcgraph_sql_failed (db, error);
  while ((rc = sqlite3_step (names)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (names, 0);
      CsFuncgraphFunction *f = g_hash_table_lookup (lines, &id);

      if (f == NULL)
        continue;
      f->name = g_strdup ((const char *) sqlite3_column_text (names, 1));
      f->addr = sqlite3_column_int64 (names, 2);
    }
  return rc == SQLITE_DONE || _cs_funcgraph_sql_failed (db, error);
}

/* By total time, then events, then calls, longest first; then by name
 * (as SQLite's BINARY collation) and id. */
static gint
compare_lines (gconstpointer a,
               gconstpointer b)
{
  const CsFuncgraphFunction *x = a, *y = b;
  int c;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->n_hits != y->n_hits)
    return x->n_hits > y->n_hits ? -1 : 1;
  if (x->n_calls != y->n_calls)
    return x->n_calls > y->n_calls ? -1 : 1;
  c = strcmp (x->name != NULL ? x->name : "", y->name != NULL ? y->name : "");
  if (c != 0)
    return c;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* The table of a range: its calls and instants summed per function. */
static GArray *
list_range (sqlite3  *db,
            gint64    begin_ns,
            gint64    end_ns,
            guint     limit,
            GError  **error)
{
  g_autoptr(CsFuncgraphReader) reader = _cs_funcgraph_reader_new (db);
  g_autoptr(GHashTable) by_func = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (CsFuncgraphFunction));
  GHashTableIter iter;
  gpointer value;

  g_array_set_clear_func (lines, (GDestroyNotify) _cs_funcgraph_function_clear);
  if (!sum_calls (reader, begin_ns, end_ns, by_func, error) ||
      !count_hits_and_name (db, begin_ns, end_ns, by_func, error))
    {
      /* The names taken so far are the hash table's lines'. */
      g_hash_table_iter_init (&iter, by_func);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        _cs_funcgraph_function_clear (value);
      return NULL;
    }
  g_hash_table_iter_init (&iter, by_func);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      CsFuncgraphFunction *f = value;

      if (f->name == NULL)      /* an id the func table lacks: damaged */
        f->name = g_strdup ("?");
      g_array_append_vals (lines, f, 1);
    }
  g_array_sort (lines, compare_lines);
  if (limit > 0 && lines->len > limit)
    g_array_set_size (lines, limit);
  return g_steal_pointer (&lines);
}

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
 * Functions without calls or events in the range are left out.  The
 * whole recording reads the pass's figures per function; a range reads
 * its calls from call_time (the calls by beginning), one after the other.
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
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) lines = NULL;
  int rc;

  if (begin_ns != G_MININT64 || end_ns != G_MAXINT64)
    return list_range (db, begin_ns, end_ns, limit, error);
  lines = g_array_new (FALSE, TRUE, sizeof (CsFuncgraphFunction));
  g_array_set_clear_func (lines, (GDestroyNotify) _cs_funcgraph_function_clear);
  if (sqlite3_prepare_v2 (db, whole_sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      _cs_funcgraph_sql_failed (db, error);
      return NULL;
    }
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
      _cs_funcgraph_sql_failed (db, error);
      return NULL;
    }
  return g_steal_pointer (&lines);
}

/**
 * _cs_funcgraph_worst_call:
 * @reader: a reader of the pass's database
 * @func: a function's id
 * @begin_ns: start of the range
 * @end_ns: end of the range (exclusive)
 * @call: (out caller-allocates): the call
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The longest call of @func beginning in [@begin_ns, @end_ns) (the
 * earliest of equals): the first of the function's calls in call_worst
 * (longest first) that begins in the range, so one read over the whole
 * recording.
 *
 * Returns: %FALSE when there is none (@error unset) or on failure
 */
gboolean
_cs_funcgraph_worst_call (CsFuncgraphReader  *reader,
                          gint64              func,
                          gint64              begin_ns,
                          gint64              end_ns,
                          CsFuncgraphCall    *call,
                          GError            **error)
{
  gint64 lo, hi, begin, row;

  if (!_cs_funcgraph_reader_get_span (reader, CS_FUNCGRAPH_ORDER_WORST, func, &lo, &hi, error))
    return FALSE;
  for (gint64 pos = lo; pos < hi; pos++)
    {
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_WORST_BEGIN, pos, &begin, error))
        return FALSE;
      if (begin < begin_ns || begin >= end_ns)
        continue;
      return _cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_WORST_ROW, pos, &row, error) &&
             _cs_funcgraph_reader_read_call (reader, row, call, error);
    }
  return FALSE;
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
                          "UNION ALL SELECT pid, hi - lo FROM " CS_FUNCGRAPH_ORDER_TASK "_span) "
                          "GROUP BY pid ORDER BY 2 DESC, pid",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      _cs_funcgraph_sql_failed (db, error);
      return NULL;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint32 pid = (gint32) sqlite3_column_int64 (stmt, 0);

      g_array_append_val (pids, pid);
    }
  if (rc != SQLITE_DONE)
    {
      _cs_funcgraph_sql_failed (db, error);
      return NULL;
    }
  return g_steal_pointer (&pids);
}
