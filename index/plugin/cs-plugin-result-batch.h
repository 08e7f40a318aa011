/* cs-plugin-result-batch.h: rows inserted into a table many at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-plugin.h"
#include "cs-plugin-result.h"

G_BEGIN_DECLS

typedef struct _CsResultBatch CsResultBatch;

CsResultBatch *_cs_result_batch_new   (sqlite3         *db,
                                        const char      *table,
                                        guint            n_columns,
                                        GError         **error);
gboolean        _cs_result_batch_append (CsResultBatch *batch,
                                        const gint64    *values,
                                        guint64          null_mask,
                                        GError         **error);
gboolean        _cs_result_batch_flush (CsResultBatch  *batch,
                                        GError         **error);
void            _cs_result_batch_free  (CsResultBatch  *batch);
guint           _cs_result_batch_get_n_pending (CsResultBatch *batch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsResultBatch, _cs_result_batch_free)

G_END_DECLS
