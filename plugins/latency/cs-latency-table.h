/* cs-latency-table.h: the latency pass's tables, on a result table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

/* A pair as the pass found it. */
typedef struct {
  gint64 a_ts, b_ts;            /* ns */
  gint64 a_cpu, a_row, b_cpu;
  gint64 pid, pair;
  guint n_keys;                 /* 0 to 4 */
  const gint64 *keys;
} CsLatencyRow;

gboolean             cs_latency_table_prepare (sqlite3              *db,
                                               GError              **error);
CsPluginResultTable *cs_latency_table_new     (sqlite3              *db,
                                               GError              **error);
gboolean             cs_latency_table_add     (CsPluginResultTable  *table,
                                               const CsLatencyRow   *row,
                                               GError              **error);

G_END_DECLS
