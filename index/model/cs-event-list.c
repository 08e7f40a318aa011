/* cs-event-list.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Rows are never stored.  Row N is found from counts: f(t), the number of
 * passing events of all CPUs with a timestamp before t, is a sum over CPUs
 * of a position inside one chunk (chunks of a CPU are in time order, and
 * every chunk but the last holds CS_EVENT_CHUNK_ROWS events).  A binary
 * search on t finds the timestamp of row N in ~40 steps; rows asked for in
 * sequence (a view scrolling) step the merge from the previous row instead.
 * With a filter, the passing events of every chunk are counted once, in a
 * worker thread with its own connection to the index (and its own reading
 * of the recording when the filter has an expression):
 * cs-event-list-count.c.  Several streams merge their own lists:
 * cs-event-list-merge.c.
 *
 * CS_FILTER_TEST_HANG (tests only): the count, having posted some progress,
 * waits until it is cancelled, so that a test can see the filter bar's
 * progress and its Cancel.
 */
#include "config.h"
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-document-private.h"
#include "cs-event-list-private.h"
#include "cs-test-hook.h"

struct _CsEventList
{
  GObject parent_instance;

  CsDocument *document;
  CsEventFilter *filter;        /* NULL when empty */
  CsFilterCounts *counts;       /* NULL without filter or while counting */
  gboolean ready;
  double progress;
  guint64 n_events;
  GCancellable *cancellable;

  /* The last row handed out, to step from it. */
  gboolean have_anchor;
  guint64 anchor_row;
  CsEvent anchor;

  /* Several streams (cs_event_list_new_for_streams(); NULL for one
   * recording): the merge over their own lists, cs-event-list-merge.c. */
  CsEventListMerge *merge;
};

enum {
  PROP_0,
  PROP_READY,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsEventList, cs_event_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

typedef struct {
  CsEventList *list;   /* strong: released in the idle, on the main thread */
  double fraction;
} ProgressUpdate;

static gboolean
progress_idle (gpointer data)
{
  ProgressUpdate *u = data;

  if (!u->list->ready)
    {
      u->list->progress = u->fraction;
      g_object_notify_by_pspec (G_OBJECT (u->list), properties[PROP_PROGRESS]);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_update_free (gpointer data)
{
  ProgressUpdate *u = data;

  g_object_unref (u->list);
  g_free (u);
}

/* From the counting thread: the update always runs in an idle of the
 * list's main context (g_main_context_invoke() would run it right here
 * when that context is not being iterated, and "progress" handlers touch
 * widgets). */
void
_cs_event_list_post_progress (GTask  *task,
                              double  fraction)
{
  ProgressUpdate *u = g_new0 (ProgressUpdate, 1);
  g_autoptr(GSource) source = g_idle_source_new ();

  u->list = g_object_ref (g_task_get_source_object (task));
  u->fraction = fraction;
  g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_callback (source, progress_idle, u, progress_update_free);
  g_source_attach (source, g_task_get_context (task));
}

static guint64
total_passing (CsEventList *self)
{
  guint64 n = 0;

  if (self->filter == NULL)
    return cs_document_get_n_events (self->document);
  if (self->counts == NULL)
    return 0;
  for (guint cpu = 0; cpu < self->counts->n_cpus; cpu++)
    n += self->counts->prefix[cpu][self->counts->n_chunks[cpu]];
  return n;
}

static void
set_ready (CsEventList *self,
           guint        old_n_items)
{
  guint new_n_items;

  self->ready = TRUE;
  self->progress = 1.0;
  self->have_anchor = FALSE;
  self->n_events = total_passing (self);
  new_n_items = (guint) MIN (self->n_events, G_MAXUINT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  if (old_n_items != 0 || new_n_items != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n_items, new_n_items);
}

static void
count_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  CsEventList *self = CS_EVENT_LIST (source);
  g_autoptr(GError) error = NULL;
  CsFilterCounts *counts = g_task_propagate_pointer (G_TASK (result), &error);

  if (counts == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Filtering the event list failed: %s", error->message);
      return;
    }
  g_clear_pointer (&self->counts, _cs_filter_counts_unref);
  self->counts = counts;
  set_ready (self, 0);
}

/* ---- Merged order ---------------------------------------------------------- */

/* Passing events of @cpu before @ts_ns. */
static gboolean
count_before_cpu (CsEventList *self,
                  guint        cpu,
                  gint64       ts_ns,
                  guint64     *count,
                  GError     **error)
{
  CsEventChunkCache *chunk;
  gint64 c;
  guint64 n;

  if (self->filter == NULL)
    {
      *count = _cs_document_count_before (self->document, cpu, ts_ns, error);
      return *count != G_MAXUINT64;
    }
  if (cs_document_get_cpu (self->document, cpu)->n_events == 0)
    {
      *count = 0;
      return TRUE;
    }
  c = _cs_document_find_chunk (self->document, cpu, ts_ns, error);
  if (c < 0 || c >= self->counts->n_chunks[cpu] ||
      (chunk = _cs_document_get_chunk (self->document, cpu, c, error)) == NULL)
    return FALSE;
  n = self->counts->prefix[cpu][c];
  for (guint i = 0; i < chunk->n && chunk->cols[EV_TS][i] < ts_ns; i++)
    n += _cs_event_passes (self->filter, self->counts, cpu, c, i,
                           chunk->cols[EV_PID][i], chunk->cols[EV_TYPE][i]);
  *count = n;
  return TRUE;
}

static gboolean
count_before (CsEventList *self,
              gint64       ts_ns,
              guint64     *count,
              GError     **error)
{
  guint64 n = 0;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (self->document); cpu++)
    {
      guint64 c;
      if (!count_before_cpu (self, cpu, ts_ns, &c, error))
        return FALSE;
      n += c;
    }
  *count = n;
  return TRUE;
}

/* Calls @func on the passing events of @cpu from CPU-local row @from_row
 * on, in order, until it returns FALSE. */
typedef CsEventListWalkFunc PassingFunc;

static gboolean
walk_cpu (CsEventList *self,
          guint        cpu,
          guint64      from_row,
          PassingFunc  func,
          gpointer     data,
          GError     **error)
{
  gint64 n_chunks = _cs_document_get_n_chunks (self->document, cpu);

  for (gint64 c = from_row / CS_EVENT_CHUNK_ROWS; c < n_chunks; c++)
    {
      CsEventChunkCache *chunk;

      if (self->counts != NULL && self->counts->prefix[cpu][c + 1] == self->counts->prefix[cpu][c])
        continue;   /* nothing passes in this chunk */
      chunk = _cs_document_get_chunk (self->document, cpu, c, error);
      if (chunk == NULL)
        return FALSE;
      for (guint i = 0; i < chunk->n; i++)
        {
          CsEvent ev;

          if (chunk->first_row + i < from_row ||
              !_cs_event_passes (self->filter, self->counts, cpu, c, i,
                                 chunk->cols[EV_PID][i], chunk->cols[EV_TYPE][i]))
            continue;
          ev.ts_ns = chunk->cols[EV_TS][i];
          ev.offset = chunk->cols[EV_OFFSET][i];
          ev.pid = chunk->cols[EV_PID][i];
          ev.type_id = chunk->cols[EV_TYPE][i];
          ev.cpu = cpu;
          ev.row = chunk->first_row + i;
          if (!func (&ev, data))
            return TRUE;
        }
    }
  return TRUE;
}

/* As a part of a merge (cs-event-list-merge.c): passing events of @cpu
 * before @ts_ns. */
gboolean
_cs_event_list_count_before_cpu (CsEventList *self,
                                 guint        cpu,
                                 gint64       ts_ns,
                                 guint64     *count,
                                 GError     **error)
{
  return count_before_cpu (self, cpu, ts_ns, count, error);
}

/* As a part of a merge: walks the passing events of @cpu from @from_ts_ns
 * on (G_MAXUINT64 for @from_row) or from CPU-local row @from_row. */
gboolean
_cs_event_list_walk_cpu (CsEventList         *self,
                         guint                cpu,
                         gint64               from_ts_ns,
                         guint64              from_row,
                         CsEventListWalkFunc  func,
                         gpointer             data,
                         GError             **error)
{
  if (from_row == G_MAXUINT64)
    {
      from_row = _cs_document_count_before (self->document, cpu, from_ts_ns, error);
      if (from_row == G_MAXUINT64)
        return FALSE;
    }
  return walk_cpu (self, cpu, from_row, func, data, error);
}

/* As a part of a merge: whether @event of the list's document passes. */
gboolean
_cs_event_list_passes (CsEventList   *self,
                       const CsEvent *event)
{
  if (self->filter == NULL)
    return TRUE;
  return _cs_event_passes (self->filter, self->counts, event->cpu, event->row / CS_EVENT_CHUNK_ROWS,
                           event->row % CS_EVENT_CHUNK_ROWS, event->pid, event->type_id);
}

typedef struct {
  gint64 ts_ns;
  guint k;            /* wanted: the k-th passing event at ts_ns */
  gboolean found;
  CsEvent event;
} AtTime;

static gboolean
at_time_cb (const CsEvent *ev,
            gpointer       data)
{
  AtTime *a = data;

  if (ev->ts_ns != a->ts_ns)
    return ev->ts_ns < a->ts_ns;
  if (a->k-- == 0)
    {
      a->event = *ev;
      a->found = TRUE;
      return FALSE;
    }
  return TRUE;
}

static gboolean
first_after_cb (const CsEvent *ev,
                gpointer       data)
{
  CsEvent *best = data;

  *best = *ev;
  return FALSE;
}

static gboolean
locate_row (CsEventList *self,
            guint64      row,
            CsEvent     *event,
            GError     **error)
{
  gint64 lo = cs_document_get_first_ns (self->document);
  gint64 hi = cs_document_get_last_ns (self->document) + 1;
  guint64 before;
  AtTime a = { 0 };

  /* Largest t with f(t) <= row: row's timestamp. */
  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;
      guint64 n;

      if (!count_before (self, mid, &n, error))
        return FALSE;
      if (n <= row)
        lo = mid;
      else
        hi = mid;
    }
  if (!count_before (self, lo, &before, error))
    return FALSE;
  a.ts_ns = lo;
  a.k = row - before;
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (self->document) && !a.found; cpu++)
    {
      guint64 from;

      if (self->filter == NULL)
        from = _cs_document_count_before (self->document, cpu, lo, error);
      else
        {
          /* walk_cpu takes CPU-local rows of all events, filtered or not. */
          from = _cs_document_count_before (self->document, cpu, lo, error);
        }
      if (from == G_MAXUINT64 || !walk_cpu (self, cpu, from, at_time_cb, &a, error))
        return FALSE;
    }
  if (!a.found)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("Row %" PRIu64 " of the event list is missing from %s"),
                   row, cs_document_get_index_path (self->document));
      return FALSE;
    }
  *event = a.event;
  return TRUE;
}

/* The passing event right after @ev in (ts, cpu, row) order. */
static gboolean
step_forward (CsEventList   *self,
              const CsEvent *ev,
              CsEvent       *next,
              GError       **error)
{
  gboolean found = FALSE;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (self->document); cpu++)
    {
      CsEvent cand = { .ts_ns = -1 };
      guint64 from;

      /* On other CPUs: events at ev's time count only on higher CPUs. */
      if (cpu == ev->cpu)
        from = ev->row + 1;
      else
        {
          from = _cs_document_count_before (self->document, cpu,
                                            cpu < ev->cpu ? ev->ts_ns + 1 : ev->ts_ns, error);
          if (from == G_MAXUINT64)
            return FALSE;
        }
      if (!walk_cpu (self, cpu, from, first_after_cb, &cand, error))
        return FALSE;
      if (cand.ts_ns < 0)
        continue;
      if (!found || cand.ts_ns < next->ts_ns)
        {
          *next = cand;
          found = TRUE;
        }
    }
  if (!found)
    g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT, _("No event after the last one"));
  return found;
}

/**
 * cs_event_list_get_event:
 * @self: a list
 * @row: 0 .. n_events - 1
 * @event: (out caller-allocates): the event at @row
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Finds the event at a row.  Rows asked for in sequence cost a step each;
 * any other row a binary search over time (~40 index lookups per CPU).
 * In a list of several streams the event is in its own recording's terms
 * (cs_event_list_get_stream_event() says which stream and its axis time).
 *
 * Returns: %TRUE on success
 */
gboolean
cs_event_list_get_event (CsEventList *self,
                         guint64      row,
                         CsEvent     *event,
                         GError     **error)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST (self), FALSE);

  if (!self->ready || row >= self->n_events)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("Row %" PRIu64 " is past the end of the list"), row);
      return FALSE;
    }
  if (self->merge != NULL)
    return _cs_event_list_merge_get_event (self->merge, row, NULL, event, error);
  if (self->have_anchor && row == self->anchor_row)
    {
      *event = self->anchor;
      return TRUE;
    }
  if (self->have_anchor && row == self->anchor_row + 1)
    {
      if (!step_forward (self, &self->anchor, event, error))
        return FALSE;
    }
  else if (!locate_row (self, row, event, error))
    return FALSE;

  self->have_anchor = TRUE;
  self->anchor_row = row;
  self->anchor = *event;
  return TRUE;
}

/* The part of a merged list that lists @document. */
static gboolean
find_part_of_document (CsEventList *self,
                       CsDocument  *document,
                       guint       *part)
{
  for (guint i = 0; i < _cs_event_list_merge_get_n_parts (self->merge); i++)
    if (cs_event_list_get_document (_cs_event_list_merge_get_part (self->merge, i)->list) == document)
      {
        *part = i;
        return TRUE;
      }
  return FALSE;
}

/* Passing events of @cpu at exactly @ts_ns before CPU-local row @row
 * (all of them when row is G_MAXUINT64). */
typedef struct {
  gint64 ts_ns;
  guint64 row;
  guint64 n;
} SameTime;

static gboolean
same_time_cb (const CsEvent *ev,
              gpointer       data)
{
  SameTime *s = data;

  if (ev->ts_ns != s->ts_ns || ev->row >= s->row)
    return FALSE;
  s->n++;
  return TRUE;
}

/**
 * cs_event_list_find_row:
 * @self: a list
 * @event: an event of its document (for several streams, the first
 *   stream's: cs_event_list_find_stream_row() takes any stream's)
 * @row: (out): its row
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Returns: %TRUE when the event is in the list (it passes the filter);
 *   %FALSE when it is filtered out (@error unset) or on error
 */
gboolean
cs_event_list_find_row (CsEventList   *self,
                        const CsEvent *event,
                        guint64       *row,
                        GError       **error)
{
  guint64 n;

  g_return_val_if_fail (CS_IS_EVENT_LIST (self), FALSE);
  if (!self->ready)
    return FALSE;
  if (self->merge != NULL)
    {
      /* an event of the window's own recording (the first stream) */
      guint part;

      return find_part_of_document (self, self->document, &part) &&
             _cs_event_list_merge_find_row (self->merge, part, event, row, error);
    }
  if (self->filter != NULL)
    {
      gint64 chunk = event->row / CS_EVENT_CHUNK_ROWS;
      if (!_cs_event_passes (self->filter, self->counts, event->cpu, chunk,
                             event->row % CS_EVENT_CHUNK_ROWS, event->pid, event->type_id))
        return FALSE;
    }
  if (!count_before (self, event->ts_ns, &n, error))
    return FALSE;
  for (guint cpu = 0; cpu <= event->cpu; cpu++)
    {
      SameTime s = { event->ts_ns, cpu == event->cpu ? event->row : G_MAXUINT64, 0 };
      guint64 from = _cs_document_count_before (self->document, cpu, event->ts_ns, error);

      if (from == G_MAXUINT64 || !walk_cpu (self, cpu, from, same_time_cb, &s, error))
        return FALSE;
      n += s.n;
    }
  *row = n;
  self->have_anchor = TRUE;
  self->anchor_row = n;
  self->anchor = *event;
  return TRUE;
}

/**
 * cs_event_list_find_row_at_time:
 * @self: a list
 * @ts_ns: a time, in ns: of the recording's clock, or of the common axis
 *   for a list of several streams (cs_event_list_new_for_streams())
 * @row: (out): the first row at or after @ts_ns (the last row when none)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Returns: %TRUE on success; %FALSE when the list is empty or not ready
 */
gboolean
cs_event_list_find_row_at_time (CsEventList *self,
                                gint64       ts_ns,
                                guint64     *row,
                                GError     **error)
{
  guint64 n;

  g_return_val_if_fail (CS_IS_EVENT_LIST (self), FALSE);
  if (!self->ready || self->n_events == 0)
    return FALSE;
  if (self->merge != NULL ? !_cs_event_list_merge_count_before (self->merge, ts_ns, &n, error)
                          : !count_before (self, ts_ns, &n, error))
    return FALSE;
  *row = MIN (n, self->n_events - 1);
  return TRUE;
}

/* ---- Several streams ------------------------------------------------------- */

static guint list_get_n_items (GListModel *model);

/* A part became ready or made progress (cs-event-list-merge.c): the list
 * is ready when all its parts are, and then announces its rows. */
void
_cs_event_list_parts_changed (CsEventList *self)
{
  if (self->ready)
    return;
  if (!_cs_event_list_merge_get_ready (self->merge))
    {
      self->progress = _cs_event_list_merge_get_progress (self->merge);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
      return;
    }
  self->ready = TRUE;
  self->progress = 1.0;
  self->n_events = _cs_event_list_merge_get_n_events (self->merge);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  if (self->n_events > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, (guint) MIN (self->n_events, G_MAXUINT));
}

CsEventListMerge *
_cs_event_list_get_merge (CsEventList *self)
{
  return self->merge;
}

/* The filter of a merged list: each part gets it, translated to its
 * recording; the list waits for the parts that count. */
static void
set_merged_filter (CsEventList   *self,
                   CsEventFilter *filter)
{
  guint old_n_items = list_get_n_items (G_LIST_MODEL (self));

  g_clear_object (&self->filter);
  if (filter != NULL)
    self->filter = cs_event_filter_copy (filter);
  self->ready = FALSE;
  self->progress = 0.0;
  self->n_events = 0;
  if (old_n_items > 0)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n_items, 0);
    }
  _cs_event_list_merge_set_filter (self->merge, self->document, self->filter);
  _cs_event_list_parts_changed (self);
}

/**
 * cs_event_list_new_for_streams:
 * @set: the window's recordings; the list reads their order, visibility
 *   and alignment once: make a new list when they change
 * @filter: (nullable): which events to list (copied; its event types are
 *   those of the first stream's recording, matched by "system:name" in
 *   the others); %NULL for all
 *
 * A list of the events of every visible stream of @set, merged in the
 * order of their times on the set's common axis (cs_stream_to_axis_ns()),
 * ties broken by stream position, then CPU, then ring-buffer position.
 * Nothing is materialised: each stream keeps its own list, and a row is
 * found by a binary search over axis time on their counts, or a step
 * from the row before (cs-event-list-merge.c).  The list's document is
 * the first stream's; cs_event_list_find_row() takes an event of it.
 * Main thread only.
 *
 * Returns: (transfer full): the list
 */
CsEventList *
cs_event_list_new_for_streams (CsStreamSet   *set,
                               CsEventFilter *filter)
{
  CsEventList *self;

  g_return_val_if_fail (CS_IS_STREAM_SET (set), NULL);
  g_return_val_if_fail (cs_stream_set_get_n_streams (set) > 0, NULL);

  self = g_object_new (CS_TYPE_EVENT_LIST, NULL);
  self->document = g_object_ref (cs_stream_get_document (cs_stream_set_get_stream (set, 0)));
  self->merge = _cs_event_list_merge_new (self, set);
  if (cs_event_filter_is_empty (filter))
    filter = NULL;
  set_merged_filter (self, filter);
  return self;
}

/* ---- GListModel ------------------------------------------------------------- */

static GType
list_get_item_type (GListModel *model)
{
  return CS_TYPE_EVENT_ITEM;
}

static guint
list_get_n_items (GListModel *model)
{
  CsEventList *self = CS_EVENT_LIST (model);

  return self->ready ? (guint) MIN (self->n_events, G_MAXUINT) : 0;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  CsEventList *self = CS_EVENT_LIST (model);
  g_autoptr(GError) error = NULL;
  CsEvent event;
  guint part = 0;
  gboolean ok;

  if (self->merge != NULL && self->ready && position < self->n_events)
    ok = _cs_event_list_merge_get_event (self->merge, position, &part, &event, &error);
  else
    ok = cs_event_list_get_event (self, position, &event, &error);
  if (!ok)
    {
      if (error != NULL && self->ready && position < self->n_events)
        g_warning ("Event list row %u: %s", position, error->message);
      return NULL;
    }
  if (self->merge != NULL)
    {
      const CsEventListPart *p = _cs_event_list_merge_get_part (self->merge, part);
      CsEventItem *item = _cs_event_item_new (cs_event_list_get_document (p->list), position, &event);

      _cs_event_item_set_stream (item, p->stream,
                                 cs_stream_to_axis_ns (p->stream, event.cpu, event.ts_ns));
      return item;
    }
  return _cs_event_item_new (self->document, position, &event);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

/* ---- Object ----------------------------------------------------------------- */

static void
cs_event_list_dispose (GObject *object)
{
  CsEventList *self = CS_EVENT_LIST (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->merge, _cs_event_list_merge_free);
  g_clear_object (&self->document);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->counts, _cs_filter_counts_unref);
  G_OBJECT_CLASS (cs_event_list_parent_class)->dispose (object);
}

static void
cs_event_list_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CsEventList *self = CS_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_event_list_class_init (CsEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_event_list_dispose;
  object_class->get_property = cs_event_list_get_property;

  /**
   * CsEventList:ready:
   *
   * Whether the rows can be read (a filter's counting is done).
   */
  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * CsEventList:progress:
   *
   * How far counting a filter's events is, 0.0 .. 1.0.
   */
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_event_list_init (CsEventList *self)
{
}

/**
 * cs_event_list_new:
 * @document: the recording's document; the list uses it from the main
 *   thread only
 * @filter: (nullable): which events to list (copied); %NULL for all
 *
 * Returns: (transfer full): the list; without a filter it is ready at once
 */
CsEventList *
cs_event_list_new (CsDocument    *document,
                   CsEventFilter *filter)
{
  CsEventList *self = g_object_new (CS_TYPE_EVENT_LIST, NULL);

  self->document = g_object_ref (document);
  cs_event_list_set_filter (self, filter);
  return self;
}

/** cs_event_list_get_document: Returns: (transfer none): the document */
CsDocument *
cs_event_list_get_document (CsEventList *self)
{
  return self->document;
}

/** cs_event_list_get_filter: Returns: (transfer none) (nullable): the filter, %NULL for none */
CsEventFilter *
cs_event_list_get_filter (CsEventList *self)
{
  return self->filter;
}

/** cs_event_list_get_ready: Returns: whether rows can be read */
gboolean
cs_event_list_get_ready (CsEventList *self)
{
  return self->ready;
}

/** cs_event_list_get_progress: Returns: counting progress, 0.0 .. 1.0 */
double
cs_event_list_get_progress (CsEventList *self)
{
  return self->progress;
}

/** cs_event_list_get_n_events: Returns: rows in the list (0 until ready) */
guint64
cs_event_list_get_n_events (CsEventList *self)
{
  return self->ready ? self->n_events : 0;
}

CsFilterCounts *
_cs_event_list_get_counts (CsEventList *self)
{
  return self->counts;
}

/**
 * cs_event_list_set_filter:
 * @self: a list
 * @filter: (nullable): which events to list (copied); %NULL for all
 *
 * Changes the filter.  Without one the list is ready at once; with one,
 * "ready" goes FALSE and the list is empty until the worker thread has
 * counted the passing events ("progress" meanwhile), then "items-changed"
 * announces the rows.  Setting an equal filter does nothing.
 */
void
cs_event_list_set_filter (CsEventList   *self,
                          CsEventFilter *filter)
{
  guint old_n_items;
  g_autoptr(GTask) task = NULL;
  CsFilterCountJob *job;

  g_return_if_fail (CS_IS_EVENT_LIST (self));

  if (cs_event_filter_is_empty (filter))
    filter = NULL;
  if (self->ready && cs_event_filter_equal (self->filter, filter))
    return;

  if (self->merge != NULL)
    {
      set_merged_filter (self, filter);
      return;
    }

  old_n_items = list_get_n_items (G_LIST_MODEL (self));
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->counts, _cs_filter_counts_unref);
  self->have_anchor = FALSE;

  if (filter == NULL)
    {
      set_ready (self, old_n_items);
      return;
    }

  self->filter = cs_event_filter_copy (filter);
  self->ready = FALSE;
  self->progress = 0.0;
  self->n_events = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
  if (old_n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n_items, 0);

  self->cancellable = g_cancellable_new ();
  job = g_new0 (CsFilterCountJob, 1);
  job->trace_path = g_strdup (cs_document_get_trace_path (self->document));
  job->index_path = g_strdup (cs_document_get_index_path (self->document));
  job->identity = g_strdup (cs_document_get_identity (self->document));
  job->filter_text = cs_event_filter_to_string (filter);
  job->test_hang = cs_test_hook_is_set ("CS_FILTER_TEST_HANG");
  task = g_task_new (self, self->cancellable, count_done, NULL);
  g_task_set_source_tag (task, cs_event_list_set_filter);
  g_task_set_task_data (task, job, (GDestroyNotify) _cs_filter_count_job_free);
  g_task_run_in_thread (task, _cs_filter_count_thread);
}
