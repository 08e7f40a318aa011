/* cs-latency-table.c: the latency pass's tables, on a result table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass (cs-latency-pass.c) finds the pairs; they go to a result
 * table of the plugin API (cs-plugin-result.h), which writes them in
 * threads of its own and sorts them for the worst-first and by-task
 * orders, in bounded memory.  What is the latency plugin's own: the
 * columns, how a pair's numbers are packed into them, and the orders.
 *
 * Tables (read by cs-latency-stats.c and cs-latency-layer.c):
 *   latency_pair  (pair, definition, a_event, b_event, a_keys, b_keys,
 *                  n_a, n_b, n_pairs, n_unmatched): one row per
 *                  CsLatencyPair, created here, written by the pass
 *   latency_chunks (chunk INTEGER PRIMARY KEY, data BLOB): the rows of
 *                  latency_rows, CS_PLUGIN_RESULT_ROWS_PER_CHUNK per blob
 *   latency_rows  (a_ts, b_ts, ids, pp, k0, k1, k2, k3): the result
 *                  table's rows (module cs_latency_rows): one row per
 *                  pair, in B's time order, so that rowids follow B's
 *                  time; the numbers of a row are packed into few
 *                  columns (as they were when it was a table of rows,
 *                  whose cost of an insert grew with its columns): ids is
 *                  a_row << 26 | a_cpu << 13 | b_cpu, pp is pid << 16 |
 *                  pair, keys the pair lacks are NULL, and so is the only
 *                  key k0 when it is the pid (the wakeups' key): a pair
 *                  has 1 to 4 keys, so k0 is never NULL otherwise
 *   latency       a view of latency_rows: (rowid, dur_ns, a_ts, a_cpu,
 *                  a_row, b_ts, b_cpu, pid, pair, k0, k1, k2, k3), what
 *                  the readers and SQL see (dur_ns is b_ts - a_ts, a
 *                  NULL k0 is the pid)
 *   latency_worst (chunk INTEGER PRIMARY KEY, dur_ns BLOB, id BLOB): the
 *                  pairs worst first (longest, then A's time, CPU and
 *                  row; position 0 is the worst): their durations, and
 *                  their rowids in `latency`
 *   latency_task  (chunk INTEGER PRIMARY KEY, dur_ns BLOB, a_ts BLOB):
 *                  the pairs by task (pid ascending), then longest first,
 *                  then A's time: their durations and A's times (B's is
 *                  A's plus the duration)
 *   latency_task_span (pid INTEGER PRIMARY KEY, lo, hi): the positions
 *                  [lo, hi) of each task's pairs in latency_task
 */
#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-table.h"

/* latency_rows' columns. */
enum { ROW_A_TS, ROW_B_TS, ROW_IDS, ROW_PP, N_FIXED };

/* latency_rows' packing (see above): CPUs below 2^13 (the kernel's
 * NR_CPUS is at most 8192), rows below 2^37, pairs below 2^16. */
#define CPU_BITS 13
#define ROW_BITS 37
#define PAIR_BITS 16
#define MAX_KEYS 4
/* The worst-first order's A CPU and row, in one number. */
#define A_ROW_BITS 48

/* The orders' records: worst first (longest, then A's time, CPU and row,
 * then the rowid); by task (pid, then longest, then A's time). */
enum { W_DUR, W_A_TS, W_A_CPU_ROW, W_ID, N_WORST_FIELDS };
enum { T_PID, T_DUR, T_A_TS, N_TASK_FIELDS };

#define LATENCY_TABLES \
  "CREATE TABLE latency_pair (pair INTEGER PRIMARY KEY, definition TEXT NOT NULL," \
  " a_event TEXT NOT NULL, b_event TEXT NOT NULL, a_keys TEXT NOT NULL," \
  " b_keys TEXT NOT NULL, n_a INTEGER, n_b INTEGER, n_pairs INTEGER," \
  " n_unmatched INTEGER);" \
  "CREATE VIEW latency AS SELECT rowid AS rowid, b_ts - a_ts AS dur_ns, a_ts," \
  " (ids >> 13) & 8191 AS a_cpu, ids >> 26 AS a_row, b_ts, ids & 8191 AS b_cpu," \
  " pp >> 16 AS pid, pp & 65535 AS pair, ifnull(k0, pp >> 16) AS k0, k1, k2, k3" \
  " FROM latency_rows;"

static gint64
row_dur (const gint64 *row)
{
  return row[ROW_B_TS] - row[ROW_A_TS];
}

static gint64
row_pid (const gint64 *row)
{
  return row[ROW_PP] >> PAIR_BITS;
}

static void
worst_record (const gint64 *row,
              gint64        position,
              gint64       *record,
              gpointer      user_data)
{
  gint64 ids = row[ROW_IDS];

  record[W_DUR] = row_dur (row);
  record[W_A_TS] = row[ROW_A_TS];
  record[W_A_CPU_ROW] = (((ids >> CPU_BITS) & ((1 << CPU_BITS) - 1)) << A_ROW_BITS) |
                        (ids >> (2 * CPU_BITS));
  record[W_ID] = position + 1;          /* the rowid in `latency` */
}

static void
task_record (const gint64 *row,
             gint64        position,
             gint64       *record,
             gpointer      user_data)
{
  record[T_PID] = row_pid (row);
  record[T_DUR] = row_dur (row);
  record[T_A_TS] = row[ROW_A_TS];
}

/**
 * cs_latency_table_prepare:
 * @db: a connection to a latency pass database (or to one being written)
 * @error: %CS_PLUGIN_ERROR_FAILED when SQLite refuses
 *
 * Registers the module of `latency_rows`, "cs_latency_rows", and its test
 * functions cs_latency_rows_decodes() and cs_latency_rows_read()
 * (cs_plugin_result_register()): the pass's #CsPluginPassInfo.prepare.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_table_prepare (sqlite3  *db,
                          GError  **error)
{
  return cs_plugin_result_register (db, "cs_latency_rows", error);
}

/**
 * cs_latency_table_new:
 * @db: the pass's database, in the pass's transaction
 * @error: %CS_PLUGIN_ERROR_FAILED when the tables cannot be created
 *
 * Creates the tables (see above; the pass fills `latency_pair` at the
 * end) and the result table that writes the pairs.  From now until
 * cs_plugin_result_table_finish() or cs_plugin_result_table_free(), the
 * caller does not use @db.  The environment variable CS_LATENCY_SORT_RUN
 * makes the sorters' runs shorter (tests spill and merge runs on small
 * recordings).
 *
 * Returns: (transfer full) (nullable): the table, or %NULL with @error
 *   set
 */
CsPluginResultTable *
cs_latency_table_new (sqlite3  *db,
                      GError  **error)
{
  static const char * const columns[] = {
    "a_ts", "b_ts", "ids", "pp", "k0", "k1", "k2", "k3", NULL
  };
  static const char * const worst_stored[] = { "dur_ns", "id", NULL };
  static const guint worst_fields[] = { W_DUR, W_ID };
  static const char * const task_stored[] = { "dur_ns", "a_ts", NULL };
  static const guint task_fields[] = { T_DUR, T_A_TS };
  /* By radix on the durations (and the pids), then by comparisons
   * between the pairs of one duration (and task). */
  const CsPluginResultOrder orders[] = {
    { .name = "latency_worst", .n_fields = N_WORST_FIELDS, .n_radix_fields = 1,
      .descending = 1 << W_DUR, .stored = worst_stored, .stored_fields = worst_fields,
      .record_func = worst_record },
    { .name = "latency_task", .n_fields = N_TASK_FIELDS, .n_radix_fields = 2,
      .descending = 1 << T_DUR, .stored = task_stored, .stored_fields = task_fields,
      .group_column = "pid", .record_func = task_record },
  };
  CsPluginResultTableInfo info = {
    .module = "cs_latency_rows",
    .name = "latency",
    .columns = columns,
    .n_optional = MAX_KEYS,
    .orders = orders,
    .n_orders = G_N_ELEMENTS (orders),
  };
  char *message = NULL;

  if (g_getenv ("CS_LATENCY_SORT_RUN") != NULL)
    info.run_records = g_ascii_strtoull (g_getenv ("CS_LATENCY_SORT_RUN"), NULL, 10);
  if (sqlite3_exec (db, LATENCY_TABLES, NULL, NULL, &message) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the latency pairs: %s"), message);
      sqlite3_free (message);
      return NULL;
    }
  return cs_plugin_result_table_new (db, &info, error);
}

/**
 * cs_latency_table_add:
 * @table: the pass's table (cs_latency_table_new())
 * @row: a pair; pairs come in B's time order
 * @error: %CS_PLUGIN_ERROR_FAILED when a number is out of the packing's
 *   range, or the table's threads could not write earlier pairs
 *
 * Packs a pair into a row of `latency_rows` and appends it.  The pass's
 * thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_table_add (CsPluginResultTable  *table,
                      const CsLatencyRow   *row,
                      GError              **error)
{
  gint64 v[N_FIXED + MAX_KEYS];
  guint n_keys = MIN (row->n_keys, MAX_KEYS);

  if ((guint64) row->a_cpu >> CPU_BITS != 0 || (guint64) row->b_cpu >> CPU_BITS != 0 ||
      (guint64) row->a_row >> ROW_BITS != 0 || (guint64) row->pair >> PAIR_BITS != 0 ||
      row->pid != (gint32) row->pid)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the latency pairs: the pair of row %" PRId64
                     " of CPU %" PRId64 " is out of range"), row->a_row, row->a_cpu);
      return FALSE;
    }
  /* k0 NULL: the pid. */
  if (n_keys == 1 && row->keys[0] == row->pid)
    n_keys = 0;
  v[ROW_A_TS] = row->a_ts;
  v[ROW_B_TS] = row->b_ts;
  v[ROW_IDS] = (row->a_row << (2 * CPU_BITS)) | (row->a_cpu << CPU_BITS) | row->b_cpu;
  v[ROW_PP] = (gint64) ((guint64) row->pid << PAIR_BITS) | row->pair;
  for (guint i = 0; i < n_keys; i++)
    v[N_FIXED + i] = row->keys[i];
  return cs_plugin_result_table_append (table, v, N_FIXED + n_keys, error);
}
