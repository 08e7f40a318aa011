/* cs-index-tables-private.h: writing the index's tables of what the scan
 * found (cs-index-tables.c), for the index builder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "cs-cpu-scanner.h"

G_BEGIN_DECLS

struct tep_handle;

/* Every CPU's row, event counts per type and missed events, and the tasks
 * table merged over the CPUs' scan results (CsScanResult, by CPU); adds
 * each CPU's counts into @type_totals (@n_types long). */
gboolean _cs_index_write_cpus_and_tasks (sqlite3           *db,
                                         struct tep_handle *tep,
                                         GPtrArray         *results,
                                         guint              n_types,
                                         guint64           *type_totals,
                                         GError           **error);
/* The event_types table: one row per type of @map, with its total. */
gboolean _cs_index_write_event_types    (sqlite3           *db,
                                         struct tep_handle *tep,
                                         const CsTypeMap   *map,
                                         const guint64     *totals,
                                         GError           **error);
/* One row of the meta table: @text, or @number when @text is NULL. */
gboolean _cs_index_write_meta           (sqlite3           *db,
                                         const char        *key,
                                         const char        *text,
                                         gint64             number,
                                         GError           **error);


/* The index's dense event type ids for the formats of @tep (by id), and
 * one more for records of no known format; free @map->by_tep_id. */
void     _cs_index_build_type_map       (struct tep_handle    *tep,
                                         CsTypeMap            *map);

/* The prepared INSERTs of the chunk tables. */
typedef struct {
  sqlite3_stmt *events;
  sqlite3_stmt *event_types;    /* event_chunk_types, beside each event chunk */
  sqlite3_stmt *slices;
  sqlite3_stmt *irqs;
  sqlite3_stmt *migrates;
  sqlite3_stmt *tasks;
  sqlite3_stmt *summaries;
  sqlite3_stmt *runs;
} CsIndexInserts;

gboolean _cs_index_inserts_prepare      (sqlite3              *db,
                                         CsIndexInserts       *ins,
                                         GError              **error);
void     _cs_index_inserts_clear        (CsIndexInserts       *ins);
/* Stores one chunk of a scan (CsScanChunk, any kind) in its table,
 * encoding its rows first when it has them (cs_scan_chunk_encode()). */
gboolean _cs_index_insert_chunk         (const CsIndexInserts *ins,
                                         CsScanChunk          *c,
                                         GError              **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CsIndexInserts, _cs_index_inserts_clear)

/* Everything but the chunks, once every CPU's scan result is in (@results,
 * CsScanResult by CPU): the CPUs, tasks and event types tables, the
 * summary levels beyond the recording's span dropped, and the meta rows
 * for @file (summary_origin_ns is @grid's origin).  @origin_is_first: the
 * grid was laid out from the first records, so the first event must be
 * its origin (a check of the reader); a live index's grid is older than
 * some CPUs' first events (cs-index-live.c).  Inside the caller's
 * transaction. */
gboolean _cs_index_write_derived        (sqlite3              *db,
                                         CsTraceFile          *file,
                                         const char           *identity,
                                         guint                 n_cpus,
                                         const CsTypeMap      *types,
                                         const CsSummaryGrid  *grid,
                                         GPtrArray            *results,
                                         gboolean              origin_is_first,
                                         GError              **error);
/* Commits the caller's transaction, adds the secondary indexes and then
 * the schema version, which marks the file complete. */
gboolean _cs_index_write_complete       (sqlite3              *db,
                                         GError              **error);

G_END_DECLS
