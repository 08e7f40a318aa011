/* cs-plugin-result-sorter.h: sorts fixed-size records in bounded memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsResultSorterFunc:
 * @record: the next record in order (its n_fields numbers), valid during
 *   the call
 * @user_data: the closure
 * @error: set it to stop with a failure
 *
 * Returns: %FALSE with @error set to stop
 */
typedef gboolean (*CsResultSorterFunc)    (const gint64  *record,
                                            gpointer       user_data,
                                            GError       **error);

typedef struct _CsResultSorter CsResultSorter;

CsResultSorter *_cs_result_sorter_new    (guint                   n_fields,
                                           guint                   n_radix_fields,
                                           gsize                   run_records);
gboolean         _cs_result_sorter_add    (CsResultSorter        *sorter,
                                           const gint64           *record,
                                           GError                **error);
guint64          _cs_result_sorter_get_n_records (CsResultSorter *sorter);
gboolean         _cs_result_sorter_finish (CsResultSorter        *sorter,
                                           CsResultSorterFunc     func,
                                           gpointer                user_data,
                                           GError                **error);
void             _cs_result_sorter_free   (CsResultSorter        *sorter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsResultSorter, _cs_result_sorter_free)

G_END_DECLS
