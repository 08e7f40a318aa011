/* cs-latency-column.h: a column of numbers stored in chunks of blobs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

/* Numbers per chunk of the tables latency_worst and latency_task
 * (cs-latency-writer.c). */
#define CS_LATENCY_CHUNK 4096

typedef struct _CsLatencyColumn CsLatencyColumn;

CsLatencyColumn *cs_latency_column_new  (sqlite3          *db,
                                         const char       *table,
                                         const char       *column,
                                         GError          **error);
gboolean         cs_latency_column_get  (CsLatencyColumn  *column,
                                         gint64            position,
                                         gint64           *value,
                                         GError          **error);
void             cs_latency_column_free (CsLatencyColumn  *column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLatencyColumn, cs_latency_column_free)

G_END_DECLS
