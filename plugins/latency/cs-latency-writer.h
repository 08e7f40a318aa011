/* cs-latency-writer.h: the latency pass's tables, written in a thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

/* The columns of a row of the table `latency` (cs-latency-writer.c). */
enum {
  CS_LATENCY_COL_DUR, CS_LATENCY_COL_A_TS, CS_LATENCY_COL_A_CPU, CS_LATENCY_COL_A_ROW,
  CS_LATENCY_COL_B_TS, CS_LATENCY_COL_B_CPU, CS_LATENCY_COL_PID, CS_LATENCY_COL_PAIR,
  CS_LATENCY_COL_K0, CS_LATENCY_N_COLUMNS = CS_LATENCY_COL_K0 + 4
};

typedef struct _CsLatencyWriter CsLatencyWriter;

CsLatencyWriter *cs_latency_writer_new    (sqlite3          *db,
                                           GError          **error);
gboolean         cs_latency_writer_add    (CsLatencyWriter  *writer,
                                           const gint64     *row,
                                           guint             n_keys,
                                           GError          **error);
gboolean         cs_latency_writer_finish (CsLatencyWriter  *writer,
                                           GError          **error);
void             cs_latency_writer_free   (CsLatencyWriter  *writer);

G_END_DECLS
