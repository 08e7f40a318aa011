/* test-plugin-result.c: result tables of the plugin API (cs-plugin-result.h)
 * hold what was appended, in the orders asked, on a real recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every event of funcgraph-v7.dat becomes a row (ts, cpu, pid, then its
 * type as an optional column, absent for the idle task's events), with
 * sorter runs short enough that both orders spill and merge many runs.
 * The table must read back the rows through SQL (rowid lookups decoding
 * one chunk), the orders must equal the same records sorted in memory,
 * the spans must cover each group once, the bisection must find the
 * first position of a value (in an order, and in the rows on their sorted
 * column ts), and damage must fail with CS_PLUGIN_ERROR_FAILED, not crash.
 * The rows and orders are checked written by the table's threads and in
 * the caller's thread.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "cs-event-list.h"
#include "chronoscope-plugin-core.h"
#include "index-test-util.h"

enum { R_TS, R_CPU, R_PID, R_TYPE, R_N };
/* Orders: by CPU, latest first (cpu, ts descending, rowid); by pid then
 * time (pid, ts). */
enum { C_CPU, C_TS, C_ID, C_N };
enum { P_PID, P_TS, P_N };

typedef struct {
  GArray *rows;                 /* gint64 × R_N; R_TYPE -1: absent */
  char *dir;
  sqlite3 *db;
} Fixture;

static void
by_cpu_record (const gint64 *row,
               gint64        position,
               gint64       *record,
               gpointer      user_data)
{
  record[C_CPU] = row[R_CPU];
  record[C_TS] = row[R_TS];
  record[C_ID] = position + 1;
}

static void
by_pid_record (const gint64 *row,
               gint64        position,
               gint64       *record,
               gpointer      user_data)
{
  record[P_PID] = row[R_PID];
  record[P_TS] = row[R_TS];
}

static gint
compare_by_cpu (gconstpointer a,
                gconstpointer b)
{
  const gint64 *x = a, *y = b;

  if (x[C_CPU] != y[C_CPU])
    return x[C_CPU] < y[C_CPU] ? -1 : 1;
  if (x[C_TS] != y[C_TS])
    return x[C_TS] > y[C_TS] ? -1 : 1;  /* descending */
  return x[C_ID] < y[C_ID] ? -1 : x[C_ID] > y[C_ID];
}

static gint
compare_by_pid (gconstpointer a,
                gconstpointer b)
{
  const gint64 *x = a, *y = b;

  if (x[P_PID] != y[P_PID])
    return x[P_PID] < y[P_PID] ? -1 : 1;
  return x[P_TS] < y[P_TS] ? -1 : x[P_TS] > y[P_TS];
}

static gint64
query_int (sqlite3    *db,
           const char *sql)
{
  sqlite3_stmt *s = NULL;
  gint64 v;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  v = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return v;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  static const char * const columns[] = { "ts", "cpu", "pid", "type", NULL };
  static const char * const cpu_stored[] = { "ts", "id", NULL };
  static const guint cpu_fields[] = { C_TS, C_ID };
  static const char * const pid_stored[] = { "pid", "ts", NULL };
  static const guint pid_fields[] = { P_PID, P_TS };
  const CsPluginResultOrder orders[] = {
    { .name = "ev_by_cpu", .n_fields = C_N, .n_radix_fields = 1, .descending = 1 << C_TS,
      .stored = cpu_stored, .stored_fields = cpu_fields, .group_column = "cpu",
      .record_func = by_cpu_record },
    { .name = "ev_by_pid", .n_fields = P_N, .n_radix_fields = 0,
      .stored = pid_stored, .stored_fields = pid_fields, .record_func = by_pid_record },
  };
  const CsPluginResultTableInfo info = {
    .module = "cs_test_rows", .name = "ev", .columns = columns, .n_optional = 1,
    .orders = orders, .n_orders = G_N_ELEMENTS (orders),
    .run_records = 1000,        /* many runs to merge */
    .sorted_column = "ts",      /* the event list is in time order */
    .same_thread = data != NULL,
  };
  g_autoptr(CsDocument) doc = cs_test_load ("funcgraph-v7.dat");
  g_autoptr(CsEventList) list = cs_event_list_new (doc, NULL);
  g_autoptr(CsPluginResultTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_assert_true (cs_event_list_get_ready (list));
  f->rows = g_array_new (FALSE, FALSE, sizeof (gint64) * R_N);
  for (guint r = 0; r < cs_event_list_get_n_events (list); r++)
    {
      CsEvent ev;
      gint64 row[R_N];

      g_assert_true (cs_event_list_get_event (list, r, &ev, &error));
      row[R_TS] = ev.ts_ns;
      row[R_CPU] = ev.cpu;
      row[R_PID] = ev.pid;
      row[R_TYPE] = ev.pid != 0 ? (gint64) ev.type_id : -1;
      g_array_append_vals (f->rows, row, 1);
    }
  g_assert_cmpuint (f->rows->len, >, 2 * CS_PLUGIN_RESULT_ORDER_CHUNK);

  f->dir = g_dir_make_tmp ("cs-result-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (f->dir, "pass.db", NULL);
  g_assert_cmpint (sqlite3_open (path, &f->db), ==, SQLITE_OK);
  g_assert_true (cs_plugin_result_register (f->db, "cs_test_rows", &error));
  g_assert_cmpint (sqlite3_exec (f->db, "BEGIN", NULL, NULL, NULL), ==, SQLITE_OK);
  table = cs_plugin_result_table_new (f->db, &info, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < f->rows->len; r++)
    {
      const gint64 *row = (const gint64 *) f->rows->data + (gsize) r * R_N;

      g_assert_true (cs_plugin_result_table_append (table, row, row[R_TYPE] >= 0 ? 4 : 3, &error));
    }
  g_assert_true (cs_plugin_result_table_finish (table, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (f->db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "pass.db", NULL);

  sqlite3_close (f->db);
  g_unlink (path);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_array_unref (f->rows);
}

static void
test_rows (Fixture       *f,
           gconstpointer  data)
{
  sqlite3_stmt *s = NULL;
  guint r = 0;
  gint64 before, mid = f->rows->len / 2 + 1;
  g_autofree char *lookup = g_strdup_printf ("SELECT ts FROM ev_rows WHERE rowid = %" G_GINT64_FORMAT, mid);

  g_assert_cmpint (sqlite3_prepare_v2 (f->db, "SELECT rowid, ts, cpu, pid, type FROM ev_rows",
                                       -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      const gint64 *row = (const gint64 *) f->rows->data + (gsize) r * R_N;

      g_assert_cmpint (r, <, f->rows->len);
      g_assert_cmpint (sqlite3_column_int64 (s, 0), ==, r + 1);
      g_assert_cmpint (sqlite3_column_int64 (s, 1), ==, row[R_TS]);
      g_assert_cmpint (sqlite3_column_int64 (s, 2), ==, row[R_CPU]);
      g_assert_cmpint (sqlite3_column_int64 (s, 3), ==, row[R_PID]);
      if (row[R_TYPE] < 0)
        g_assert_cmpint (sqlite3_column_type (s, 4), ==, SQLITE_NULL);
      else
        g_assert_cmpint (sqlite3_column_int64 (s, 4), ==, row[R_TYPE]);
      r++;
    }
  sqlite3_finalize (s);
  g_assert_cmpuint (r, ==, f->rows->len);
  g_assert_cmpint (query_int (f->db, "SELECT max(rowid) FROM ev_rows"), ==, f->rows->len);

  /* A lookup by rowid decodes one chunk (none when it is cached). */
  before = query_int (f->db, "SELECT cs_test_rows_decodes()");
  g_assert_cmpint (query_int (f->db, lookup), ==,
                   ((const gint64 *) f->rows->data)[(mid - 1) * R_N + R_TS]);
  g_assert_cmpint (query_int (f->db, "SELECT cs_test_rows_decodes()") - before, <=, 1);
}

/* Checks order @name against @want (@n_fields numbers a record, sorted),
 * through its stored columns: @stored[c] holds number @fields[c]. */
static void
check_order (sqlite3             *db,
             const char          *name,
             GArray              *want,
             guint                n_fields,
             const char * const  *stored,
             const guint         *fields)
{
  g_autoptr(GError) error = NULL;

  for (guint c = 0; stored[c] != NULL; c++)
    {
      g_autoptr(CsPluginResultColumn) col = cs_plugin_result_column_new (db, name, stored[c], &error);
      gint64 n, v;

      g_assert_no_error (error);
      g_assert_true (cs_plugin_result_column_get_n_positions (col, &n, &error));
      g_assert_cmpint (n, ==, want->len);
      /* Backwards, to walk the chunks the other way too. */
      for (gint64 pos = n - 1; pos >= 0; pos--)
        {
          g_assert_true (cs_plugin_result_column_get (col, pos, &v, &error));
          g_assert_cmpint (v, ==, ((const gint64 *) want->data)[pos * n_fields + fields[c]]);
        }
      g_assert_false (cs_plugin_result_column_get (col, n, &v, &error));
      g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED);
      g_clear_error (&error);
    }
}

static void
test_orders (Fixture       *f,
             gconstpointer  data)
{
  static const char * const cpu_stored[] = { "ts", "id", NULL };
  static const guint cpu_fields[] = { C_TS, C_ID };
  static const char * const pid_stored[] = { "pid", "ts", NULL };
  static const guint pid_fields[] = { P_PID, P_TS };
  g_autoptr(GArray) by_cpu = g_array_new (FALSE, FALSE, sizeof (gint64) * C_N);
  g_autoptr(GArray) by_pid = g_array_new (FALSE, FALSE, sizeof (gint64) * P_N);
  g_autoptr(CsPluginResultColumn) pids = NULL;
  g_autoptr(CsPluginResultColumn) ts_col = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *s = NULL;
  gint64 covered = 0, prev_hi = 0;

  for (guint r = 0; r < f->rows->len; r++)
    {
      const gint64 *row = (const gint64 *) f->rows->data + (gsize) r * R_N;
      gint64 c[C_N], p[P_N];

      by_cpu_record (row, r, c, NULL);
      by_pid_record (row, r, p, NULL);
      g_array_append_vals (by_cpu, c, 1);
      g_array_append_vals (by_pid, p, 1);
    }
  g_array_sort (by_cpu, compare_by_cpu);
  g_array_sort (by_pid, compare_by_pid);
  check_order (f->db, "ev_by_cpu", by_cpu, C_N, cpu_stored, cpu_fields);
  check_order (f->db, "ev_by_pid", by_pid, P_N, pid_stored, pid_fields);

  /* Each CPU's span: its positions in ev_by_cpu, one after the other;
   * within it the times fall, and a time is found by bisection there. */
  ts_col = cs_plugin_result_column_new (f->db, "ev_by_cpu", "ts", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_prepare_v2 (f->db, "SELECT cpu, lo, hi FROM ev_by_cpu_span ORDER BY lo",
                                       -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      gint64 cpu = sqlite3_column_int64 (s, 0), lo = sqlite3_column_int64 (s, 1);
      gint64 hi = sqlite3_column_int64 (s, 2);
      const gint64 *rec = (const gint64 *) by_cpu->data;

      g_assert_cmpint (lo, ==, prev_hi);
      g_assert_cmpint (hi, >, lo);
      for (gint64 pos = lo; pos < hi; pos++)
        g_assert_cmpint (rec[pos * C_N + C_CPU], ==, cpu);
      for (gint64 k = 0; k <= 4; k++)
        {
          /* A time of the span, one just past it, and one before all. */
          gint64 value = k < 4 ? rec[(lo + (hi - lo - 1) * k / 3) * C_N + C_TS] - (k == 1)
                               : G_MININT64 + 1;
          gint64 want = lo, got = -1;

          if (k == 3)
            value = rec[lo * C_N + C_TS] + 1;
          while (want < hi && rec[want * C_N + C_TS] > value)
            want++;
          g_assert_true (cs_plugin_result_column_find_in (ts_col, lo, hi, value, TRUE, &got, &error));
          g_assert_no_error (error);
          g_assert_cmpint (got, ==, want);
        }
      covered += hi - lo;
      prev_hi = hi;
    }
  sqlite3_finalize (s);
  g_assert_cmpint (covered, ==, f->rows->len);

  /* Bisection: the first position of each pid, and past the last. */
  pids = cs_plugin_result_column_new (f->db, "ev_by_pid", "pid", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < by_pid->len; i += 97)
    {
      gint64 pid = ((const gint64 *) by_pid->data)[i * P_N + P_PID], pos;
      guint first = i;

      while (first > 0 && ((const gint64 *) by_pid->data)[(first - 1) * P_N + P_PID] == pid)
        first--;
      g_assert_true (cs_plugin_result_column_find (pids, pid, FALSE, &pos, &error));
      g_assert_cmpint (pos, ==, first);
    }
  {
    gint64 pos;

    g_assert_true (cs_plugin_result_column_find (pids, G_MAXINT64, FALSE, &pos, &error));
    g_assert_cmpint (pos, ==, by_pid->len);
  }
}

/* Time ranges of ev_rows on its sorted column ts: the rows of the range,
 * found by bisection (few chunks decoded), and the last row before it. */
static void
test_sorted (Fixture       *f,
             gconstpointer  data)
{
  const gint64 *rows = (const gint64 *) f->rows->data;
  gint64 first_ts = rows[R_TS], last_ts = rows[(f->rows->len - 1) * R_N + R_TS];

  for (guint k = 0; k <= 16; k++)
    {
      gint64 begin = first_ts + (last_ts - first_ts) / 16 * k;
      gint64 end = begin + (last_ts - first_ts) / 40;
      gint64 want_first = 0, want_n = 0, want_before = 0, before;
      g_autofree char *range = g_strdup_printf ("SELECT ifnull(min(rowid), 0) * 1000000 + count(*)"
                                                " FROM ev_rows WHERE ts >= %" G_GINT64_FORMAT
                                                " AND ts < %" G_GINT64_FORMAT, begin, end);
      g_autofree char *last = g_strdup_printf ("SELECT ifnull((SELECT rowid FROM ev_rows"
                                               " WHERE ts < %" G_GINT64_FORMAT
                                               " ORDER BY rowid DESC LIMIT 1), 0)", begin);

      for (guint r = 0; r < f->rows->len; r++)
        {
          gint64 ts = rows[r * R_N + R_TS];

          if (ts >= begin && ts < end && want_n++ == 0)
            want_first = r + 1;
          if (ts < begin)
            want_before = r + 1;
        }
      before = query_int (f->db, "SELECT cs_test_rows_decodes()");
      g_assert_cmpint (query_int (f->db, range), ==, want_first * 1000000 + want_n);
      g_assert_cmpint (query_int (f->db, last), ==, want_before);
      /* Two bisections and the rows read, not a scan of every chunk. */
      g_assert_cmpint (query_int (f->db, "SELECT cs_test_rows_decodes()") - before, <,
                       2 * (g_bit_storage (f->rows->len / CS_PLUGIN_RESULT_ROWS_PER_CHUNK) + 2) + 2 +
                       want_n / CS_PLUGIN_RESULT_ROWS_PER_CHUNK + 4);
    }
}

/* A row whose sorted column falls is refused. */
static void
test_sorted_falls (void)
{
  static const char * const columns[] = { "ts", "v", NULL };
  const CsPluginResultTableInfo info = {
    .module = "cs_test_rows", .name = "t", .columns = columns, .sorted_column = "ts",
  };
  g_autoptr(CsPluginResultTable) table = NULL;
  g_autoptr(GError) error = NULL;
  gint64 rows[3][2] = { { 10, 1 }, { 10, 2 }, { 9, 3 } };
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  g_assert_true (cs_plugin_result_register (db, "cs_test_rows", &error));
  table = cs_plugin_result_table_new (db, &info, &error);
  g_assert_no_error (error);
  g_assert_true (cs_plugin_result_table_append (table, rows[0], 2, &error));
  g_assert_true (cs_plugin_result_table_append (table, rows[1], 2, &error));
  g_assert_false (cs_plugin_result_table_append (table, rows[2], 2, &error));
  g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED);
  g_clear_pointer (&table, cs_plugin_result_table_free);
  sqlite3_close (db);
}

static void
test_damaged (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(CsPluginResultColumn) col = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *s = NULL;
  gint64 v;

  /* An order or column that is not there. */
  g_assert_null (cs_plugin_result_column_new (f->db, "ev_by_cpu", "nope", &error));
  g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED);
  g_clear_error (&error);

  g_assert_cmpint (sqlite3_exec (f->db, "UPDATE ev_chunks SET data = x'00ffffffff';"
                                 "UPDATE ev_by_cpu SET ts = x'ff'", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (f->db, "SELECT ts FROM ev_rows WHERE rowid = 7",
                                       -1, &s, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), !=, SQLITE_ROW);
  g_assert_nonnull (strstr (sqlite3_errmsg (f->db), "damaged"));
  sqlite3_finalize (s);

  col = cs_plugin_result_column_new (f->db, "ev_by_cpu", "ts", &error);
  g_assert_no_error (error);
  g_assert_false (cs_plugin_result_column_get (col, 0, &v, &error));
  g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/cs/plugin/CsPluginResultTable/rows", Fixture, NULL,
              fixture_set_up, test_rows, fixture_tear_down);
  g_test_add ("/cs/plugin/CsPluginResultTable/orders", Fixture, NULL,
              fixture_set_up, test_orders, fixture_tear_down);
  g_test_add ("/cs/plugin/CsPluginResultTable/rows-same-thread", Fixture, "same thread",
              fixture_set_up, test_rows, fixture_tear_down);
  g_test_add ("/cs/plugin/CsPluginResultTable/orders-same-thread", Fixture, "same thread",
              fixture_set_up, test_orders, fixture_tear_down);
  g_test_add ("/cs/plugin/CsPluginResultTable/sorted", Fixture, NULL,
              fixture_set_up, test_sorted, fixture_tear_down);
  g_test_add_func ("/cs/plugin/CsPluginResultTable/sorted-falls", test_sorted_falls);
  g_test_add ("/cs/plugin/CsPluginResultTable/damaged", Fixture, NULL,
              fixture_set_up, test_damaged, fixture_tear_down);
  return g_test_run ();
}
