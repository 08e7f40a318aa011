/* cs-event-filter-private.h: the parts of CsEventFilter that CsEventList
 * evaluates in its worker threads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-event-filter.h"

G_BEGIN_DECLS

struct tep_record;

gboolean _cs_event_filter_matches_sets   (CsEventFilter     *self,
                                          guint              cpu,
                                          gint32             pid,
                                          guint              type_id);
gboolean _cs_event_filter_matches_record (CsEventFilter     *self,
                                          struct tep_record *record);
gboolean _cs_event_filter_has_expression (CsEventFilter     *self);

G_END_DECLS
