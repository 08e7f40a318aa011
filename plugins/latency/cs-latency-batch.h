/* cs-latency-batch.h: rows inserted into a table many at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

typedef struct _CsLatencyBatch CsLatencyBatch;

CsLatencyBatch *cs_latency_batch_new   (sqlite3         *db,
                                        const char      *table,
                                        guint            n_columns,
                                        GError         **error);
gboolean        cs_latency_batch_append (CsLatencyBatch *batch,
                                        const gint64    *values,
                                        guint64          null_mask,
                                        GError         **error);
gboolean        cs_latency_batch_flush (CsLatencyBatch  *batch,
                                        GError         **error);
void            cs_latency_batch_free  (CsLatencyBatch  *batch);
guint           cs_latency_batch_get_n_pending (CsLatencyBatch *batch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLatencyBatch, cs_latency_batch_free)

G_END_DECLS
