/* cs-event-list-merge.c: the event list of several streams, a k-way merge
 * by axis time over each stream's own list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each visible stream keeps its own CsEventList (the filter translated to
 * its recording, counted in its own worker thread).  The merged order is
 * (axis time, stream position, CPU, ring-buffer row), where a record's
 * axis time is cs_stream_to_axis_ns() of its CPU: the conversion is
 * monotonic per CPU (per vCPU for a guest), so every (stream, CPU) pair is
 * a sorted source and the merge is the one CsEventList does over CPUs,
 * with one threshold per source.  g(T), the number of passing events with
 * an axis time before T, sums each source's count before the smallest
 * local time that lands at or after T (local_threshold()).  Row N is found
 * by a binary search on T (~40 steps of one count per source); a row asked
 * for right after the last one takes the least of the sources' heads (each
 * source's next event, kept from step to step) and advances only that
 * source, so a view scrolling on costs one event read per row.  Nothing is
 * materialised: the cost follows the rows a view shows, and one recording
 * never comes here (cs_event_list_new() is unchanged).
 */
#include "config.h"
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-event-list-private.h"

struct _CsEventListMerge
{
  CsEventList *owner;           /* weak: it owns the merge */
  CsStreamSet *set;
  GArray *parts;                /* CsEventListPart */

  gboolean have_anchor;
  guint64 anchor_row;
  guint anchor_part;
  CsEvent anchor;

  /* The merge's heads: for each source (part, CPU), its first event after
   * the anchor in merged order; valid after a step until a random access
   * moves the anchor.  A step then takes the least head and advances
   * only its source: one walk per row, not one per source. */
  gboolean heads_valid;
  GArray *heads;                /* Head, sources in (part, CPU) order */
};

typedef struct {
  guint part;
  gboolean found;
  CsEvent event;
  gint64 axis_ns;
} Head;

static void part_changed_cb (CsEventList *part_list,
                             GParamSpec  *pspec,
                             gpointer     user_data);

static void
clear_part (gpointer data)
{
  CsEventListPart *part = data;

  /* its counting task may outlive it, and notify */
  if (part->list != NULL)
    g_signal_handlers_disconnect_matched (part->list, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                          part_changed_cb, NULL);
  g_clear_object (&part->list);
  g_clear_object (&part->stream);
}

CsEventListMerge *
_cs_event_list_merge_new (CsEventList *owner,
                          CsStreamSet *set)
{
  CsEventListMerge *merge = g_new0 (CsEventListMerge, 1);

  merge->owner = owner;
  merge->set = g_object_ref (set);
  merge->parts = g_array_new (FALSE, TRUE, sizeof (CsEventListPart));
  g_array_set_clear_func (merge->parts, clear_part);
  merge->heads = g_array_new (FALSE, TRUE, sizeof (Head));
  return merge;
}

void
_cs_event_list_merge_free (CsEventListMerge *merge)
{
  g_array_unref (merge->parts);
  g_array_unref (merge->heads);
  g_object_unref (merge->set);
  g_free (merge);
}

static void
part_changed_cb (CsEventList *part_list,
                 GParamSpec  *pspec,
                 gpointer     user_data)
{
  _cs_event_list_parts_changed (user_data);
}

/* Whether @filter's stream dimension lets @stream's events through. */
static gboolean
stream_passes (CsEventFilter *filter,
               CsStream      *stream)
{
  return filter == NULL || cs_event_filter_passes_stream (filter, cs_stream_get_path (stream));
}

/* Makes the parts again: one per visible stream that the filter keeps,
 * with the filter translated to its recording.  A stream whose recording
 * cannot take the filter's expression lists nothing (the expression names
 * events it does not have, so none of its events would pass). */
void
_cs_event_list_merge_set_filter (CsEventListMerge *merge,
                                 CsDocument       *primary,
                                 CsEventFilter    *filter)
{
  g_array_set_size (merge->parts, 0);
  merge->have_anchor = FALSE;
  merge->heads_valid = FALSE;
  for (guint i = 0; i < cs_stream_set_get_n_streams (merge->set); i++)
    {
      CsStream *stream = cs_stream_set_get_stream (merge->set, i);
      CsDocument *doc = cs_stream_get_document (stream);
      g_autoptr(CsEventFilter) translated = NULL;
      g_autoptr(GError) error = NULL;
      CsEventListPart part = { 0 };

      if (cs_stream_get_hidden (stream) || !stream_passes (filter, stream))
        continue;
      if (filter != NULL)
        {
          translated = cs_event_filter_translate (filter, primary, doc, &error);
          if (translated == NULL)
            {
              g_debug ("%s lists nothing: %s", cs_stream_get_name (stream), error->message);
              continue;
            }
        }
      part.list = cs_event_list_new (doc, translated);
      part.stream = g_object_ref (stream);
      part.position = i;
      g_array_append_val (merge->parts, part);
    }
  /* Signals only once the array stops moving (they carry the owner). */
  for (guint i = 0; i < merge->parts->len; i++)
    {
      CsEventListPart *part = &g_array_index (merge->parts, CsEventListPart, i);

      g_signal_connect (part->list, "notify::ready", G_CALLBACK (part_changed_cb), merge->owner);
      g_signal_connect (part->list, "notify::progress", G_CALLBACK (part_changed_cb), merge->owner);
    }
}

CsStreamSet *
_cs_event_list_merge_get_set (CsEventListMerge *merge)
{
  return merge->set;
}

guint
_cs_event_list_merge_get_n_parts (CsEventListMerge *merge)
{
  return merge->parts->len;
}

const CsEventListPart *
_cs_event_list_merge_get_part (CsEventListMerge *merge,
                               guint             part)
{
  g_return_val_if_fail (part < merge->parts->len, NULL);
  return &g_array_index (merge->parts, CsEventListPart, part);
}

gboolean
_cs_event_list_merge_get_ready (CsEventListMerge *merge)
{
  for (guint i = 0; i < merge->parts->len; i++)
    if (!cs_event_list_get_ready (g_array_index (merge->parts, CsEventListPart, i).list))
      return FALSE;
  return TRUE;
}

double
_cs_event_list_merge_get_progress (CsEventListMerge *merge)
{
  double sum = 0.0;

  for (guint i = 0; i < merge->parts->len; i++)
    {
      CsEventList *list = g_array_index (merge->parts, CsEventListPart, i).list;

      sum += cs_event_list_get_ready (list) ? 1.0 : cs_event_list_get_progress (list);
    }
  return merge->parts->len > 0 ? sum / merge->parts->len : 1.0;
}

guint64
_cs_event_list_merge_get_n_events (CsEventListMerge *merge)
{
  guint64 n = 0;

  for (guint i = 0; i < merge->parts->len; i++)
    n += cs_event_list_get_n_events (g_array_index (merge->parts, CsEventListPart, i).list);
  return n;
}

/* ---- Axis time ------------------------------------------------------------ */

/**
 * _cs_event_list_merge_local_threshold:
 * @stream: a stream
 * @cpu: one of its CPUs (vCPUs)
 * @axis_ns: a time of the common axis
 *
 * The smallest time of @stream's clock on @cpu whose axis time is at or
 * after @axis_ns: so that "axis time < @axis_ns" is "local time <" it.
 * cs_stream_from_axis_ns() is exact but for a nanosecond or two of
 * rounding for guests; the steps make it exact.
 *
 * Returns: the local time in ns
 */
gint64
_cs_event_list_merge_local_threshold (CsStream *stream,
                                      guint     cpu,
                                      gint64    axis_ns)
{
  gint64 t = cs_stream_from_axis_ns (stream, cpu, axis_ns);

  for (guint i = 0; i < 64 && t < G_MAXINT64 && cs_stream_to_axis_ns (stream, cpu, t) < axis_ns; i++)
    t++;
  for (guint i = 0; i < 64 && t > G_MININT64 && cs_stream_to_axis_ns (stream, cpu, t - 1) >= axis_ns; i++)
    t--;
  return t;
}

static guint
part_n_cpus (const CsEventListPart *p)
{
  return cs_document_get_n_cpus (cs_event_list_get_document (p->list));
}

static gint64
event_axis (const CsEventListPart *p,
            const CsEvent         *event)
{
  return cs_stream_to_axis_ns (p->stream, event->cpu, event->ts_ns);
}

/* Merged order: axis time, then part, CPU and row. */
static int
compare_keys (gint64 a_axis, guint a_part, const CsEvent *a,
              gint64 b_axis, guint b_part, const CsEvent *b)
{
  if (a_axis != b_axis)
    return a_axis < b_axis ? -1 : 1;
  if (a_part != b_part)
    return a_part < b_part ? -1 : 1;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  return a->row < b->row ? -1 : a->row > b->row;
}

/**
 * _cs_event_list_merge_count_before:
 * @merge: a merge whose parts are ready
 * @axis_ns: a time of the common axis
 * @count: (out): passing events of all parts with an axis time before it
 * @error: index errors
 *
 * Returns: %TRUE on success
 */
gboolean
_cs_event_list_merge_count_before (CsEventListMerge *merge,
                                   gint64            axis_ns,
                                   guint64          *count,
                                   GError          **error)
{
  guint64 n = 0;

  for (guint i = 0; i < merge->parts->len; i++)
    {
      const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, i);

      for (guint cpu = 0; cpu < part_n_cpus (p); cpu++)
        {
          guint64 c;

          if (!_cs_event_list_count_before_cpu (p->list, cpu,
                                                _cs_event_list_merge_local_threshold (p->stream, cpu, axis_ns),
                                                &c, error))
            return FALSE;
          n += c;
        }
    }
  *count = n;
  return TRUE;
}

/* The axis span of the parts: [*lo, *hi). */
static void
axis_span (CsEventListMerge *merge,
           gint64           *lo,
           gint64           *hi)
{
  *lo = G_MAXINT64;
  *hi = G_MININT64;
  for (guint i = 0; i < merge->parts->len; i++)
    {
      const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, i);
      CsDocument *doc = cs_event_list_get_document (p->list);

      if (cs_event_list_get_n_events (p->list) == 0)
        continue;
      for (guint cpu = 0; cpu < part_n_cpus (p); cpu++)
        {
          *lo = MIN (*lo, cs_stream_to_axis_ns (p->stream, cpu, cs_document_get_first_ns (doc)));
          *hi = MAX (*hi, cs_stream_to_axis_ns (p->stream, cpu, cs_document_get_last_ns (doc)) + 1);
        }
    }
}

/* ---- Finding rows ------------------------------------------------------- */

/* Walking one source at one axis time. */
typedef struct {
  const CsEventListPart *part;
  gint64 axis_ns;
  guint64 before_row;   /* count only rows before it (G_MAXUINT64: all) */
  guint64 k;            /* the k-th event at axis_ns is wanted */
  guint64 n;            /* events seen at axis_ns */
  gboolean found;
  CsEvent event;
} AtAxis;

static gboolean
at_axis_cb (const CsEvent *ev,
            gpointer       data)
{
  AtAxis *a = data;
  gint64 axis = event_axis (a->part, ev);

  if (axis < a->axis_ns)
    return TRUE;
  if (axis > a->axis_ns || ev->row >= a->before_row)
    return FALSE;
  if (a->n++ == a->k)
    {
      a->event = *ev;
      a->found = TRUE;
      return FALSE;
    }
  return TRUE;
}

static gboolean
walk_at_axis (AtAxis   *a,
              guint     cpu,
              GError  **error)
{
  gint64 from = _cs_event_list_merge_local_threshold (a->part->stream, cpu, a->axis_ns);

  return _cs_event_list_walk_cpu (a->part->list, cpu, from, G_MAXUINT64, at_axis_cb, a, error);
}

static gboolean
locate_row (CsEventListMerge *merge,
            guint64           row,
            guint            *part,
            CsEvent          *event,
            GError          **error)
{
  gint64 lo, hi;
  guint64 before, k;

  axis_span (merge, &lo, &hi);
  /* Largest T with g(T) <= row: the row's axis time. */
  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;
      guint64 n;

      if (!_cs_event_list_merge_count_before (merge, mid, &n, error))
        return FALSE;
      if (n <= row)
        lo = mid;
      else
        hi = mid;
    }
  if (!_cs_event_list_merge_count_before (merge, lo, &before, error))
    return FALSE;
  k = row - before;
  for (guint i = 0; i < merge->parts->len; i++)
    {
      const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, i);

      for (guint cpu = 0; cpu < part_n_cpus (p); cpu++)
        {
          AtAxis a = { p, lo, G_MAXUINT64, k, 0, FALSE };

          if (!walk_at_axis (&a, cpu, error))
            return FALSE;
          if (a.found)
            {
              *part = i;
              *event = a.event;
              return TRUE;
            }
          k -= a.n;
        }
    }
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
               _("Row %" PRIu64 " of the merged event list is missing"), row);
  return FALSE;
}

static gboolean
first_cb (const CsEvent *ev,
          gpointer       data)
{
  *(CsEvent *) data = *ev;
  return FALSE;
}

/* The heads after (@part, @ev): each source's first passing event after
 * it in merged order.  Sources before ev's take events after its axis
 * time, those after it events at its time too; its own goes on from it. */
static gboolean
fill_heads (CsEventListMerge *merge,
            guint             part,
            const CsEvent    *ev,
            GError          **error)
{
  const CsEventListPart *ep = &g_array_index (merge->parts, CsEventListPart, part);
  gint64 axis = event_axis (ep, ev);

  g_array_set_size (merge->heads, 0);
  for (guint i = 0; i < merge->parts->len; i++)
    {
      const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, i);

      for (guint cpu = 0; cpu < part_n_cpus (p); cpu++)
        {
          Head h = { i, FALSE, { .ts_ns = G_MININT64 }, 0 };
          gboolean ok;

          if (i == part && cpu == ev->cpu)
            ok = _cs_event_list_walk_cpu (p->list, cpu, 0, ev->row + 1, first_cb, &h.event, error);
          else
            {
              gboolean earlier = i < part || (i == part && cpu < ev->cpu);
              gint64 from = _cs_event_list_merge_local_threshold (p->stream, cpu,
                                                                  earlier ? axis + 1 : axis);

              ok = _cs_event_list_walk_cpu (p->list, cpu, from, G_MAXUINT64, first_cb, &h.event, error);
            }
          if (!ok)
            return FALSE;
          h.found = h.event.ts_ns != G_MININT64;
          h.event.cpu = cpu;
          if (h.found)
            h.axis_ns = event_axis (p, &h.event);
          g_array_append_val (merge->heads, h);
        }
    }
  merge->heads_valid = TRUE;
  return TRUE;
}

/* The passing event right after the anchor in merged order: the least
 * head, whose source then moves on by one event. */
static gboolean
step_forward (CsEventListMerge *merge,
              guint            *next_part,
              CsEvent          *next,
              GError          **error)
{
  Head *best = NULL;

  if (!merge->heads_valid && !fill_heads (merge, merge->anchor_part, &merge->anchor, error))
    return FALSE;
  for (guint s = 0; s < merge->heads->len; s++)
    {
      Head *h = &g_array_index (merge->heads, Head, s);

      if (h->found && (best == NULL ||
                       compare_keys (h->axis_ns, h->part, &h->event,
                                     best->axis_ns, best->part, &best->event) < 0))
        best = h;
    }
  if (best == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT, _("No event after the last one"));
      return FALSE;
    }
  *next = best->event;
  *next_part = best->part;

  /* its source's next event */
  {
    const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, best->part);
    guint cpu = best->event.cpu;

    best->event.ts_ns = G_MININT64;
    if (!_cs_event_list_walk_cpu (p->list, cpu, 0, next->row + 1, first_cb, &best->event, error))
      {
        merge->heads_valid = FALSE;
        return FALSE;
      }
    best->found = best->event.ts_ns != G_MININT64;
    best->event.cpu = cpu;
    if (best->found)
      best->axis_ns = event_axis (p, &best->event);
  }
  return TRUE;
}

/**
 * _cs_event_list_merge_get_event:
 * @merge: a merge whose parts are ready
 * @row: a row of the merged list
 * @part: (out) (optional): the part it is in
 * @event: (out caller-allocates): the event, in its recording's terms
 * @error: index errors
 *
 * Rows asked for in sequence cost a step each; any other a binary search
 * over axis time.
 *
 * Returns: %TRUE on success
 */
gboolean
_cs_event_list_merge_get_event (CsEventListMerge *merge,
                                guint64           row,
                                guint            *part,
                                CsEvent          *event,
                                GError          **error)
{
  guint p = 0;

  if (merge->have_anchor && row == merge->anchor_row)
    {
      p = merge->anchor_part;
      *event = merge->anchor;
    }
  else if (merge->have_anchor && row == merge->anchor_row + 1)
    {
      if (!step_forward (merge, &p, event, error))
        return FALSE;
    }
  else
    {
      merge->heads_valid = FALSE;
      if (!locate_row (merge, row, &p, event, error))
        return FALSE;
    }

  merge->have_anchor = TRUE;
  merge->anchor_row = row;
  merge->anchor_part = p;
  merge->anchor = *event;
  if (part != NULL)
    *part = p;
  return TRUE;
}

/**
 * _cs_event_list_merge_find_row:
 * @merge: a merge whose parts are ready
 * @part: the part @event is in
 * @event: an event of that part's recording
 * @row: (out): its merged row
 * @error: index errors
 *
 * Returns: %TRUE when the event is listed; %FALSE when the filter hides it
 *   (@error unset) or on error
 */
gboolean
_cs_event_list_merge_find_row (CsEventListMerge *merge,
                               guint             part,
                               const CsEvent    *event,
                               guint64          *row,
                               GError          **error)
{
  const CsEventListPart *ep = _cs_event_list_merge_get_part (merge, part);
  gint64 axis;
  guint64 n;

  if (ep == NULL || !_cs_event_list_passes (ep->list, event))
    return FALSE;
  axis = event_axis (ep, event);
  if (!_cs_event_list_merge_count_before (merge, axis, &n, error))
    return FALSE;
  /* the events at the same axis time before it in merged order */
  for (guint i = 0; i <= part; i++)
    {
      const CsEventListPart *p = &g_array_index (merge->parts, CsEventListPart, i);

      for (guint cpu = 0; cpu < part_n_cpus (p) && (i < part || cpu <= event->cpu); cpu++)
        {
          AtAxis a = { p, axis, (i == part && cpu == event->cpu) ? event->row : G_MAXUINT64,
                       G_MAXUINT64, 0, FALSE };

          if (!walk_at_axis (&a, cpu, error))
            return FALSE;
          n += a.n;
        }
    }
  *row = n;
  merge->have_anchor = TRUE;
  merge->heads_valid = FALSE;
  merge->anchor_row = n;
  merge->anchor_part = part;
  merge->anchor = *event;
  return TRUE;
}

/* ---- Public API of merged lists ----------------------------------------- */

/**
 * cs_event_list_get_stream_set:
 * @self: a list
 *
 * Returns: (transfer none) (nullable): the streams it merges
 *   (cs_event_list_new_for_streams()), %NULL for one recording's list
 */
CsStreamSet *
cs_event_list_get_stream_set (CsEventList *self)
{
  CsEventListMerge *merge;

  g_return_val_if_fail (CS_IS_EVENT_LIST (self), NULL);
  merge = _cs_event_list_get_merge (self);
  return merge != NULL ? merge->set : NULL;
}

/**
 * cs_event_list_get_stream_event:
 * @self: a ready list
 * @row: 0 .. n_events - 1
 * @stream: (out) (optional) (transfer none) (nullable): the stream the
 *   event is in; %NULL for one recording's list
 * @event: (out caller-allocates): the event, in its recording's terms
 *   (its ts_ns on that recording's clock)
 * @axis_ns: (out) (optional): its time on the common axis (ts_ns for one
 *   recording's list)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Returns: %TRUE on success
 */
gboolean
cs_event_list_get_stream_event (CsEventList *self,
                                guint64      row,
                                CsStream   **stream,
                                CsEvent     *event,
                                gint64      *axis_ns,
                                GError     **error)
{
  CsEventListMerge *merge;
  guint part;

  g_return_val_if_fail (CS_IS_EVENT_LIST (self), FALSE);
  merge = _cs_event_list_get_merge (self);
  if (merge == NULL || !cs_event_list_get_ready (self) || row >= cs_event_list_get_n_events (self))
    {
      if (!cs_event_list_get_event (self, row, event, error))
        return FALSE;
      if (stream != NULL)
        *stream = NULL;
      if (axis_ns != NULL)
        *axis_ns = event->ts_ns;
      return TRUE;
    }
  if (!_cs_event_list_merge_get_event (merge, row, &part, event, error))
    return FALSE;
  if (stream != NULL)
    *stream = g_array_index (merge->parts, CsEventListPart, part).stream;
  if (axis_ns != NULL)
    *axis_ns = event_axis (&g_array_index (merge->parts, CsEventListPart, part), event);
  return TRUE;
}

/**
 * cs_event_list_find_stream_row:
 * @self: a ready list
 * @stream: (nullable): the stream @event is in; %NULL (or a list of one
 *   recording) for the list's own document
 * @event: an event of @stream's recording
 * @row: (out): its row
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Returns: %TRUE when the event is listed; %FALSE when it is not (hidden
 *   stream, filtered out; @error unset) or on error
 */
gboolean
cs_event_list_find_stream_row (CsEventList   *self,
                               CsStream      *stream,
                               const CsEvent *event,
                               guint64       *row,
                               GError       **error)
{
  CsEventListMerge *merge;

  g_return_val_if_fail (CS_IS_EVENT_LIST (self), FALSE);
  merge = _cs_event_list_get_merge (self);
  if (merge == NULL || stream == NULL)
    return cs_event_list_find_row (self, event, row, error);
  if (!cs_event_list_get_ready (self))
    return FALSE;
  for (guint i = 0; i < merge->parts->len; i++)
    if (g_array_index (merge->parts, CsEventListPart, i).stream == stream)
      return _cs_event_list_merge_find_row (merge, i, event, row, error);
  return FALSE;
}
