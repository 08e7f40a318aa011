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

G_END_DECLS
