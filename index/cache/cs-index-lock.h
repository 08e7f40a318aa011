/* cs-index-lock.h: one writer per index, across processes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-progress.h"

G_BEGIN_DECLS

typedef struct _CsIndexLock CsIndexLock;

CsIndexLock *cs_index_lock_acquire      (const char          *index_path,
                                         CsIndexProgressFunc  holder_progress,
                                         gpointer             user_data,
                                         GCancellable        *cancellable,
                                         gboolean            *waited,
                                         GError             **error);
void         cs_index_lock_set_progress (CsIndexLock         *lock,
                                         double               fraction);
void         cs_index_lock_release      (CsIndexLock         *lock);
gboolean     cs_index_lock_remove_stale (const char          *lock_path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsIndexLock, cs_index_lock_release)

G_END_DECLS
