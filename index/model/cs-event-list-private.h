/* cs-event-list-private.h: shared by cs-event-list.c, cs-event-item.c and
 * cs-event-search.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-event-filter-private.h"
#include "cs-event-list.h"

G_BEGIN_DECLS

/* Which events of each chunk pass the filter, computed once per filter in
 * a worker thread and read-only afterwards (shared with search threads). */
typedef struct {
  guint n_cpus;
  gint64 *n_chunks;        /* per CPU */
  guint64 **prefix;        /* per CPU: matches before chunk c, n_chunks + 1 */
  guint8 ***bits;          /* per CPU and chunk: a bit per event (NULL: all) */
} CsFilterCounts;

CsFilterCounts *_cs_filter_counts_ref   (CsFilterCounts *counts);
void            _cs_filter_counts_unref (CsFilterCounts *counts);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsFilterCounts, _cs_filter_counts_unref)

/* Whether event @i of chunk @chunk of @cpu (with @pid, @type) passes. */
gboolean _cs_event_passes (CsEventFilter  *filter,
                           CsFilterCounts *counts,
                           guint           cpu,
                           gint64          chunk,
                           guint           i,
                           gint32          pid,
                           guint           type_id);

CsEventItem *_cs_event_item_new (CsDocument    *document,
                                 guint64        row,
                                 const CsEvent *event);

char *_cs_event_column_text (CsDocument    *document,
                             const CsEvent *event,
                             guint64        row,
                             CsEventColumn  column);

CsFilterCounts *_cs_event_list_get_counts (CsEventList *self);

G_END_DECLS
