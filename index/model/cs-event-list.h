/* cs-event-list.h: the events of a recording in time order, as a GListModel
 * whose rows are fetched on demand from the index.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Row order is the order `trace-cmd report` prints: by timestamp, then CPU,
 * then position in that CPU's ring buffer.  Items (#CsEventItem) are made
 * only for the rows a view asks for; nothing is materialised per event.
 * With a filter, the list first counts the matching events of each chunk
 * of the index in a worker thread (property "ready" turns TRUE and
 * "items-changed" fires when done; "progress" goes 0..1 meanwhile).
 * Main thread only (the list owns a CsDocument connection).
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-event-filter.h"
#include "cs-stream-set.h"

G_BEGIN_DECLS

/**
 * CsEventColumn:
 * The columns of the event list, as KernelShark shows them, and the
 * stream's name (%CS_COLUMN_STREAM) when the list merges several streams.
 */
typedef enum {
  CS_COLUMN_ROW,
  CS_COLUMN_CPU,
  CS_COLUMN_TIME,
  CS_COLUMN_TASK,
  CS_COLUMN_PID,
  CS_COLUMN_LATENCY,
  CS_COLUMN_EVENT,
  CS_COLUMN_INFO,
  CS_COLUMN_STREAM,
  CS_N_COLUMNS,
} CsEventColumn;

/**
 * CsSearchMode:
 * @CS_SEARCH_CONTAINS: the column's text contains the text
 * @CS_SEARCH_FULL_MATCH: the column's text equals the text
 * @CS_SEARCH_NOT_CONTAINS: the column's text does not contain it
 */
typedef enum {
  CS_SEARCH_CONTAINS,
  CS_SEARCH_FULL_MATCH,
  CS_SEARCH_NOT_CONTAINS,
} CsSearchMode;

#define CS_TYPE_EVENT_ITEM (cs_event_item_get_type ())
G_DECLARE_FINAL_TYPE (CsEventItem, cs_event_item, CS, EVENT_ITEM, GObject)

guint64        cs_event_item_get_row       (CsEventItem *self);
const CsEvent *cs_event_item_get_event     (CsEventItem *self);

#define CS_EVENT_VARIANT_TYPE "(xtiuut)"
GVariant      *cs_event_to_variant         (const CsEvent *event);
void           cs_event_from_variant       (GVariant      *variant,
                                            CsEvent       *event);
const char    *cs_event_item_get_comm      (CsEventItem *self);
const char    *cs_event_item_get_name      (CsEventItem *self);   /* "system:name" */
const char    *cs_event_item_get_info      (CsEventItem *self);   /* formatted on first call */
const char    *cs_event_item_get_latency   (CsEventItem *self);   /* e.g. "d.h2." as ftrace prints */
char          *cs_event_item_dup_column_text (CsEventItem  *self,
                                             CsEventColumn column);
CsDocument    *cs_event_item_get_document  (CsEventItem *self);
CsStream      *cs_event_item_get_stream    (CsEventItem *self);
gint64         cs_event_item_get_time_ns   (CsEventItem *self);

#define CS_TYPE_EVENT_LIST (cs_event_list_get_type ())
G_DECLARE_FINAL_TYPE (CsEventList, cs_event_list, CS, EVENT_LIST, GObject)

CsEventList   *cs_event_list_new            (CsDocument    *document,
                                             CsEventFilter *filter);
CsEventList   *cs_event_list_new_for_streams (CsStreamSet  *set,
                                             CsEventFilter *filter);
CsStreamSet   *cs_event_list_get_stream_set (CsEventList   *self);
gboolean       cs_event_list_get_stream_event (CsEventList *self,
                                             guint64        row,
                                             CsStream     **stream,
                                             CsEvent       *event,
                                             gint64        *axis_ns,
                                             GError       **error);
gboolean       cs_event_list_find_stream_row (CsEventList  *self,
                                             CsStream      *stream,
                                             const CsEvent *event,
                                             guint64       *row,
                                             GError       **error);
CsDocument    *cs_event_list_get_document   (CsEventList   *self);
CsEventFilter *cs_event_list_get_filter     (CsEventList   *self);
void           cs_event_list_set_filter     (CsEventList   *self,
                                             CsEventFilter *filter);
gboolean       cs_event_list_get_ready      (CsEventList   *self);
double         cs_event_list_get_progress   (CsEventList   *self);
guint64        cs_event_list_get_n_events   (CsEventList   *self);
gboolean       cs_event_list_get_event      (CsEventList   *self,
                                             guint64        row,
                                             CsEvent       *event,
                                             GError       **error);
gboolean       cs_event_list_find_row       (CsEventList   *self,
                                             const CsEvent *event,
                                             guint64       *row,
                                             GError       **error);
gboolean       cs_event_list_find_row_at_time (CsEventList *self,
                                             gint64         ts_ns,
                                             guint64       *row,
                                             GError       **error);

/* Search: the next (or previous) row from @from_row whose @column text
 * matches, in a worker thread; cancellable.  FALSE with no error when
 * there is none.  count_matches counts all matches (for "3 of 120"). */
void           cs_event_list_search_async   (CsEventList         *self,
                                             CsEventColumn        column,
                                             CsSearchMode         mode,
                                             const char          *text,
                                             guint64              from_row,
                                             gboolean             forward,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean       cs_event_list_search_finish  (CsEventList         *self,
                                             GAsyncResult        *result,
                                             guint64             *row,
                                             GError             **error);
void           cs_event_list_count_matches_async (CsEventList    *self,
                                             CsEventColumn        column,
                                             CsSearchMode         mode,
                                             const char          *text,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean       cs_event_list_count_matches_finish (CsEventList   *self,
                                             GAsyncResult        *result,
                                             guint64             *n_matches,
                                             GError             **error);

G_END_DECLS
