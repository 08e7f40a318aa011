/* cs-event-list-private.h: shared by cs-event-list.c, cs-event-item.c and
 * cs-event-search.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-event-filter-private.h"
#include "cs-event-list.h"
#include "cs-stream-set.h"

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

/* The count of a filter's passing events (cs-event-list-count.c), a
 * GTask's data and thread function; progress goes through
 * _cs_event_list_post_progress(). */
typedef struct {
  char *trace_path;
  char *index_path;
  char *identity;
  char *filter_text;   /* cs_event_filter_to_string(): the thread compiles its own */
  gboolean test_hang;  /* CS_FILTER_TEST_HANG */
} CsFilterCountJob;

void _cs_filter_count_job_free   (CsFilterCountJob *job);
void _cs_filter_count_thread     (GTask            *task,
                                  gpointer          source,
                                  gpointer          task_data,
                                  GCancellable     *cancellable);
void _cs_event_list_post_progress (GTask           *task,
                                   double           fraction);

CsEventItem *_cs_event_item_new (CsDocument    *document,
                                 guint64        row,
                                 const CsEvent *event);

char *_cs_event_column_text (CsDocument    *document,
                             const CsEvent *event,
                             guint64        row,
                             CsEventColumn  column);

CsFilterCounts *_cs_event_list_get_counts (CsEventList *self);

/* ---- One recording's list, as a part of a merge ----------------------- */

/* Called on passing events in order until it returns FALSE. */
typedef gboolean (*CsEventListWalkFunc) (const CsEvent *event,
                                         gpointer       data);

gboolean _cs_event_list_count_before_cpu (CsEventList         *self,
                                          guint                cpu,
                                          gint64               ts_ns,
                                          guint64             *count,
                                          GError             **error);
gboolean _cs_event_list_walk_cpu         (CsEventList         *self,
                                          guint                cpu,
                                          gint64               from_ts_ns,
                                          guint64              from_row,
                                          CsEventListWalkFunc  func,
                                          gpointer             data,
                                          GError             **error);
gboolean _cs_event_list_passes           (CsEventList         *self,
                                          const CsEvent       *event);

/* ---- Several streams (cs-event-list-merge.c) -------------------------- */

typedef struct _CsEventListMerge CsEventListMerge;

/**
 * CsEventListPart:
 * @list: the stream's own list (its filter translated to its recording)
 * @stream: the stream
 * @position: the stream's position in the set
 *
 * One visible stream of a merged list.
 */
typedef struct {
  CsEventList *list;
  CsStream *stream;
  guint position;
} CsEventListPart;

CsEventListMerge *_cs_event_list_merge_new        (CsEventList      *owner,
                                                   CsStreamSet      *set);
void              _cs_event_list_merge_free       (CsEventListMerge *merge);
void              _cs_event_list_merge_set_filter (CsEventListMerge *merge,
                                                   CsDocument       *primary,
                                                   CsEventFilter    *filter);
CsStreamSet      *_cs_event_list_merge_get_set    (CsEventListMerge *merge);
guint             _cs_event_list_merge_get_n_parts (CsEventListMerge *merge);
const CsEventListPart *_cs_event_list_merge_get_part (CsEventListMerge *merge,
                                                   guint             part);
gboolean          _cs_event_list_merge_get_ready  (CsEventListMerge *merge);
double            _cs_event_list_merge_get_progress (CsEventListMerge *merge);
guint64           _cs_event_list_merge_get_n_events (CsEventListMerge *merge);
gboolean          _cs_event_list_merge_get_event  (CsEventListMerge *merge,
                                                   guint64           row,
                                                   guint            *part,
                                                   CsEvent          *event,
                                                   GError          **error);
gboolean          _cs_event_list_merge_find_row   (CsEventListMerge *merge,
                                                   guint             part,
                                                   const CsEvent    *event,
                                                   guint64          *row,
                                                   GError          **error);
gboolean          _cs_event_list_merge_count_before (CsEventListMerge *merge,
                                                   gint64            axis_ns,
                                                   guint64          *count,
                                                   GError          **error);
gint64            _cs_event_list_merge_local_threshold (CsStream      *stream,
                                                   guint             cpu,
                                                   gint64            axis_ns);
CsEventListMerge *_cs_event_list_get_merge        (CsEventList      *self);
void              _cs_event_list_parts_changed    (CsEventList      *self);

void              _cs_event_item_set_stream       (CsEventItem      *self,
                                                   CsStream         *stream,
                                                   gint64            axis_ns);

G_END_DECLS
