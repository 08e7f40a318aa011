/* cs-index-live.h: the index of a recording in progress, built as it grows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-error.h"

G_BEGIN_DECLS

typedef struct _CsIndexLive CsIndexLive;

CsIndexLive *cs_index_live_new           (const char    *base_path,
                                          GError       **error);
gboolean     cs_index_live_add           (CsIndexLive   *self,
                                          const char    *trace_path,
                                          GError       **error);
gboolean     cs_index_live_write         (CsIndexLive   *self,
                                          const char    *identity,
                                          const char    *index_path,
                                          GError       **error);
gboolean     cs_index_live_finish        (CsIndexLive   *self,
                                          const char    *identity,
                                          const char    *index_path,
                                          GError       **error);
guint64      cs_index_live_get_n_events  (CsIndexLive   *self);
guint64      cs_index_live_get_bytes_read (CsIndexLive  *self);
void         cs_index_live_free          (CsIndexLive   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsIndexLive, cs_index_live_free)

G_END_DECLS
