/* cs-latency-sorter.h: sorts fixed-size records in bounded memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsLatencySorterFunc:
 * @record: the next record in order (its n_fields numbers), valid during
 *   the call
 * @user_data: the closure
 * @error: set it to stop with a failure
 *
 * Returns: %FALSE with @error set to stop
 */
typedef gboolean (*CsLatencySorterFunc)    (const gint64  *record,
                                            gpointer       user_data,
                                            GError       **error);

typedef struct _CsLatencySorter CsLatencySorter;

CsLatencySorter *cs_latency_sorter_new    (guint                   n_fields,
                                           guint                   n_radix_fields,
                                           gsize                   run_records);
gboolean         cs_latency_sorter_add    (CsLatencySorter        *sorter,
                                           const gint64           *record,
                                           GError                **error);
guint64          cs_latency_sorter_get_n_records (CsLatencySorter *sorter);
gboolean         cs_latency_sorter_finish (CsLatencySorter        *sorter,
                                           CsLatencySorterFunc     func,
                                           gpointer                user_data,
                                           GError                **error);
void             cs_latency_sorter_free   (CsLatencySorter        *sorter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLatencySorter, cs_latency_sorter_free)

G_END_DECLS
