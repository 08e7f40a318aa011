/* cs-plugin-result.h: result tables, a pass's rows stored in bounded memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pass that finds millions of results (pairs, calls, samples) pays more
 * for one SQLite row each than for finding them.  A result table stores
 * them in chunks instead, and reads them back as an SQL table:
 *
 *   - Rows of integers (gint64: times in ns, CPUs, pids, packed ids), a
 *     few fixed columns and up to %CS_PLUGIN_RESULT_MAX_OPTIONAL optional
 *     ones (NULL past a row's count), appended in the order they should
 *     keep (rowid = position + 1).  They go to NAME_chunks (chunk INTEGER
 *     PRIMARY KEY, data BLOB), %CS_PLUGIN_RESULT_ROWS_PER_CHUNK rows a blob
 *     as varints of differences (rows that come sorted by time cost a few
 *     bytes each), read through the virtual table NAME_rows (the fixed
 *     columns, then the optional ones): lookups by rowid, rowid ranges and
 *     ORDER BY rowid decode only the chunks they need, and so do
 *     constraints on a column declared sorted.
 *   - Sorted orders of the rows (#CsPluginResultOrder): each row gives a
 *     record of a few numbers, sorted in bounded memory (runs of sorted
 *     records spill to a temporary file and are merged at the end), and
 *     the order's chosen numbers are stored as columns in chunks of
 *     %CS_PLUGIN_RESULT_ORDER_CHUNK, read by position with a
 *     #CsPluginResultColumn (row i of the order; the first position at or
 *     past a value).  An order grouped by its first number also gets
 *     ORDER_span (KEY INTEGER PRIMARY KEY, lo, hi): the positions [lo, hi)
 *     of each group, within which the next numbers are sorted (the first
 *     position at or past a value within a group, such as a task's calls
 *     by time: cs_plugin_result_column_find_in()).
 *
 * Writing overlaps with the pass: the pass thread appends rows into
 * chunks that threads of the table encode, insert and sort while the pass
 * goes on; a pass that gets ahead waits (the memory is bounded: 12 chunks
 * of 4096 rows, plus per order three runs of run_records records).  From
 * cs_plugin_result_table_new() to cs_plugin_result_table_finish() or
 * cs_plugin_result_table_free() the table's threads own the database
 * connection: the pass does not use it meanwhile (unless the table is
 * written in the pass's thread: #CsPluginResultTableInfo.same_thread).
 *
 * Failures are #CS_PLUGIN_ERROR_FAILED (SQLite refused, a chunk is
 * damaged, a position is out of range), and #GFileError for the sorter's
 * temporary file.
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Rows per blob of NAME_chunks: a lookup by rowid decodes at most this many. */
#define CS_PLUGIN_RESULT_ROWS_PER_CHUNK 512
/* Numbers per chunk of an order's columns. */
#define CS_PLUGIN_RESULT_ORDER_CHUNK 4096
/* The most fixed columns of a table (the row's count of optional values is
 * stored beside them), optional columns, numbers of an order's record,
 * columns an order stores, orders of a table. */
#define CS_PLUGIN_RESULT_MAX_FIXED 7
#define CS_PLUGIN_RESULT_MAX_OPTIONAL 4
#define CS_PLUGIN_RESULT_MAX_FIELDS 8
#define CS_PLUGIN_RESULT_MAX_STORED 4
#define CS_PLUGIN_RESULT_MAX_ORDERS 4

/**
 * CsPluginResultTable:
 *
 * A result table being written (opaque).
 */
typedef struct _CsPluginResultTable CsPluginResultTable;

/**
 * CsPluginResultColumn:
 *
 * A reader of one column of a sorted order, by position (opaque).
 */
typedef struct _CsPluginResultColumn CsPluginResultColumn;

/**
 * CsPluginResultRecordFunc:
 * @row: (array): the fixed values of the row, as appended
 * @position: the row's position (0-based; its rowid in NAME_rows is
 *   @position + 1)
 * @record: (out) (array): the order's n_fields numbers to fill
 * @user_data: #CsPluginResultOrder.user_data
 *
 * Makes a row's record of an order.  Called once per row, in the row's
 * order, from a thread of the table (one per order; the pass's own when
 * the table is written in the same thread): it must not touch the pass's
 * state unless that is read-only.
 */
typedef void (*CsPluginResultRecordFunc) (const gint64 *row,
                                          gint64        position,
                                          gint64       *record,
                                          gpointer      user_data);

/**
 * CsPluginResultOrder:
 * @name: the order's table, an SQL identifier: @name (chunk INTEGER
 *   PRIMARY KEY, then one BLOB column per @stored name); chunk k holds
 *   positions [k × %CS_PLUGIN_RESULT_ORDER_CHUNK, (k + 1) × …)
 * @n_fields: numbers per record, 1 to %CS_PLUGIN_RESULT_MAX_FIELDS; the
 *   records are sorted by their first number, then the second, and so on
 * @n_radix_fields: how many of the first numbers to sort by radix (0 to
 *   @n_fields): best for numbers whose values span few bits, as
 *   durations; ties are then sorted by comparisons
 * @descending: bit f set: number f sorts descending (largest first); its
 *   values must be above %G_MININT64
 * @stored: (array zero-terminated=1): names of the columns stored, 1 to
 *   %CS_PLUGIN_RESULT_MAX_STORED
 * @stored_fields: (array): for each of @stored, the record's number it
 *   holds
 * @group_column: (nullable): when set, the table @name_span (@group_column
 *   INTEGER PRIMARY KEY, lo INTEGER, hi INTEGER) gives the positions
 *   [lo, hi) of each value of the record's first number
 * @record_func: makes a row's record
 * @user_data: for @record_func; it must outlive the table
 *
 * A sorted order of a result table's rows.
 */
typedef struct {
  const char *name;
  guint n_fields;
  guint n_radix_fields;
  guint descending;
  const char * const *stored;
  const guint *stored_fields;
  const char *group_column;
  CsPluginResultRecordFunc record_func;
  gpointer user_data;
} CsPluginResultOrder;

/**
 * CsPluginResultTableInfo:
 * @module: the virtual-table module registered on the connection by
 *   cs_plugin_result_register() (a name of the plugin's own, such as
 *   "cs_latency_rows")
 * @name: an SQL identifier: the tables are @name_chunks and @name_rows
 * @columns: (array zero-terminated=1): the fixed columns' names (1 to
 *   %CS_PLUGIN_RESULT_MAX_FIXED), then the optional ones' (0 to
 *   %CS_PLUGIN_RESULT_MAX_OPTIONAL), SQL identifiers
 * @n_optional: how many of @columns are optional (the last ones)
 * @orders: (array length=n_orders) (nullable): the sorted orders
 * @n_orders: 0 to %CS_PLUGIN_RESULT_MAX_ORDERS
 * @run_records: records of an order sorted in memory before they spill to
 *   the temporary file (0: 524288); each order holds three such runs of
 *   n_fields × 8 bytes a record
 * @sorted_column: (nullable): a fixed column whose values never fall from
 *   a row to the next (a time, when rows come in time order):
 *   cs_plugin_result_table_append() refuses a row that would, and
 *   NAME_rows answers =, <, <=, >, >= on it by bisection (about log2 of the
 *   chunks decoded) and takes ORDER BY it (with or without the rowid) as
 *   its own order
 * @same_thread: %TRUE: the table encodes, inserts and sorts in the caller's
 *   thread, a chunk of rows at a time, so the caller may use the database
 *   between appends (a pass that also writes tables of its own as it
 *   goes); %FALSE: threads of the table do, while the pass goes on
 *
 * What cs_plugin_result_table_new() creates.  Only for the call: it is
 * copied (the strings too), except the orders' user data.
 */
typedef struct {
  const char *module;
  const char *name;
  const char * const *columns;
  guint n_optional;
  const CsPluginResultOrder *orders;
  guint n_orders;
  gsize run_records;
  const char *sorted_column;
  gboolean same_thread;
} CsPluginResultTableInfo;

gboolean             cs_plugin_result_register     (sqlite3                        *db,
                                                    const char                     *module,
                                                    GError                        **error);

CsPluginResultTable *cs_plugin_result_table_new    (sqlite3                        *db,
                                                    const CsPluginResultTableInfo  *info,
                                                    GError                        **error);
gboolean             cs_plugin_result_table_append (CsPluginResultTable            *table,
                                                    const gint64                   *values,
                                                    guint                           n_values,
                                                    GError                        **error);
gboolean             cs_plugin_result_table_finish (CsPluginResultTable            *table,
                                                    GError                        **error);
void                 cs_plugin_result_table_free   (CsPluginResultTable            *table);

CsPluginResultColumn *cs_plugin_result_column_new  (sqlite3                        *db,
                                                    const char                     *order,
                                                    const char                     *column,
                                                    GError                        **error);
gboolean             cs_plugin_result_column_get   (CsPluginResultColumn           *column,
                                                    gint64                          position,
                                                    gint64                         *value,
                                                    GError                        **error);
gboolean             cs_plugin_result_column_get_n_positions (CsPluginResultColumn *column,
                                                    gint64                         *n_positions,
                                                    GError                        **error);
gboolean             cs_plugin_result_column_find  (CsPluginResultColumn           *column,
                                                    gint64                          value,
                                                    gboolean                        descending,
                                                    gint64                         *position,
                                                    GError                        **error);
gboolean             cs_plugin_result_column_find_in (CsPluginResultColumn       *column,
                                                    gint64                          lo,
                                                    gint64                          hi,
                                                    gint64                          value,
                                                    gboolean                        descending,
                                                    gint64                         *position,
                                                    GError                        **error);
void                 cs_plugin_result_column_free  (CsPluginResultColumn           *column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPluginResultTable, cs_plugin_result_table_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPluginResultColumn, cs_plugin_result_column_free)

G_END_DECLS
