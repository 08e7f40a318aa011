/* cs-stream-vcpu.c: the host's view of a guest stream's vCPUs: built from
 * the host's recording, at once or in a worker thread, and a guest vCPU's
 * time out of the guest in the guest's clock (cs-stream-vcpu.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-stream-private.h"
#include "cs-stream-vcpu.h"
#include "cs-vcpu-timeline.h"

/* The guest time of @vcpu that its conversion puts at @host_ns, by
 * fixed-point steps from @guess (the TIME_SHIFT offset changes slowly with
 * time, so one or two steps land within a nanosecond). */
static gint64
host_to_guest (CsStream *self, guint vcpu, gint64 host_ns, gint64 guess)
{
  gint64 t = guess;

  for (guint i = 0; i < 4; i++)
    {
      gint64 h;

      if (!cs_stream_guest_to_host_ns (self, vcpu, t, &h) || h == host_ns)
        break;
      t += host_ns - h;
    }
  return t;
}

/**
 * cs_stream_get_vcpu_out:
 * @self: a guest stream related to its host (cs_stream_get_vcpu_timeline())
 * @vcpu: a guest CPU (vCPU N is the guest's CPU N)
 * @begin_ns: start of the span, ns of the guest's clock (inclusive)
 * @end_ns: its end (exclusive), >= @begin_ns
 * @intervals: (element-type CsVcpuInterval): where to append
 * @exits_known: (out) (optional): whether the host's kvm events say for
 *   the whole span whether @vcpu was in the guest (else only the time it
 *   was not running is known: a host that recorded no kvm_entry/kvm_exit
 *   for it, as under QEMU TCG, or a span before its thread's first kvm
 *   event)
 *
 * Appends the parts of [@begin_ns, @end_ns) where the host had @vcpu out
 * of the guest: %CS_VCPU_STATE_EXIT (handling an exit, with its reason
 * for cs_vcpu_timeline_get_reason_name()) and %CS_VCPU_STATE_NOT_RUNNING
 * (its thread not running on any host CPU, with the reason of the exit it
 * was handling), in time order, not overlapping, inside the span.  The
 * span's ends are converted to the host's clock as events are
 * (cs_stream_guest_to_host_ns()), the host's intervals taken there
 * (cs_vcpu_timeline_get_intervals()), and their edges converted back to
 * the guest's clock, so that the parts add up to the guest's time out of
 * the guest within a nanosecond or two of rounding at each inner edge.
 *
 * Nothing is known, and nothing appended, when @self is not a related
 * guest, the host's GUEST option names no thread for @vcpu, the span
 * reaches outside the host's recording, or part of it is unknown (see
 * %CS_VCPU_STATE_UNKNOWN) and the host recorded no sched_switch either.
 * O(log n) plus the host's intervals in the span.
 *
 * Returns: %TRUE when the host's view tells at least when @vcpu was not
 *   running over the whole span (an empty span: when the view exists)
 */
gboolean
cs_stream_get_vcpu_out (CsStream *self,
                        guint     vcpu,
                        gint64    begin_ns,
                        gint64    end_ns,
                        GArray   *intervals,
                        gboolean *exits_known)
{
  CsVcpuTimeline *tl;
  g_autoptr(GArray) host = NULL;
  gint64 hb = 0, he = 0, first_ns, last_ns, at;
  gboolean known_exits = TRUE;
  guint first;

  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  g_return_val_if_fail (intervals != NULL, FALSE);

  first = intervals->len;
  if (exits_known != NULL)
    *exits_known = FALSE;
  if (end_ns < begin_ns || (tl = cs_stream_get_vcpu_timeline (self)) == NULL ||
      vcpu >= cs_vcpu_timeline_get_n_threads (tl) || cs_vcpu_timeline_get_tid (tl, vcpu) <= 0 ||
      !cs_stream_guest_to_host_ns (self, vcpu, begin_ns, &hb) ||
      !cs_stream_guest_to_host_ns (self, vcpu, end_ns, &he))
    return FALSE;
  cs_vcpu_timeline_get_span (tl, &first_ns, &last_ns);
  if (he > hb && (hb < first_ns || he > last_ns))
    return FALSE;
  if (he <= hb)
    {
      if (exits_known != NULL)
        *exits_known = TRUE;
      return TRUE;
    }

  host = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  cs_vcpu_timeline_get_intervals (tl, vcpu, hb, he, host);
  /* The intervals tile [hb, he); unknown ones leave only sched_switch's
   * word on the time not running. */
  at = hb;
  for (guint i = 0; i < host->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (host, CsVcpuInterval, i);

      if (iv->begin_ns != at)
        return FALSE;
      known_exits = known_exits && iv->state != CS_VCPU_STATE_UNKNOWN;
      at = iv->end_ns;
    }
  if (at != he || (!known_exits && !cs_vcpu_timeline_has_sched (tl)))
    return FALSE;

  at = begin_ns;
  for (guint i = 0; i < host->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (host, CsVcpuInterval, i);
      CsVcpuInterval out;
      CsVcpuInterval *prev;

      if (iv->state != CS_VCPU_STATE_EXIT && iv->state != CS_VCPU_STATE_NOT_RUNNING)
        continue;
      out = *iv;
      /* The span's own ends exactly; inner edges converted back. */
      out.begin_ns = iv->begin_ns == hb ? begin_ns
                     : host_to_guest (self, vcpu, iv->begin_ns, begin_ns + (iv->begin_ns - hb));
      out.end_ns = iv->end_ns == he ? end_ns
                   : host_to_guest (self, vcpu, iv->end_ns, begin_ns + (iv->end_ns - hb));
      out.begin_ns = CLAMP (out.begin_ns, at, end_ns);
      out.end_ns = CLAMP (out.end_ns, out.begin_ns, end_ns);
      if (out.end_ns <= out.begin_ns)
        continue;
      at = out.end_ns;
      prev = intervals->len > first ? &g_array_index (intervals, CsVcpuInterval, intervals->len - 1)
                                    : NULL;
      if (prev != NULL && prev->end_ns == out.begin_ns && prev->state == out.state &&
          prev->reason == out.reason)
        prev->end_ns = out.end_ns;
      else
        g_array_append_val (intervals, out);
    }
  if (exits_known != NULL)
    *exits_known = known_exits;
  return TRUE;
}

/* Forgets the background build in flight: its result is dropped. */
static void
cancel_build (CsStreamVcpuView *view)
{
  if (view->build == NULL)
    return;
  g_cancellable_cancel (view->build);
  g_clear_object (&view->build);
}

/* Drops the view and any build in flight (the stream is related anew or
 * closed); the next request builds it again. */
void
_cs_stream_vcpu_view_clear (CsStreamVcpuView *view)
{
  cancel_build (view);
  g_clear_pointer (&view->timeline, cs_vcpu_timeline_free);
  view->tried = FALSE;
}

/**
 * cs_stream_get_vcpu_timeline:
 * @self: a stream
 *
 * The host's view of a related guest's vCPUs (thread v is vCPU v: in the
 * guest, out after an exit and why, not running on any host CPU), read
 * from the host stream's recording on the first call: one pass over the
 * host's records, about as long as reading them (cs-vcpu-timeline.h).
 * Later calls give the same timeline until the stream is related anew.
 *
 * A related guest is a %CS_STREAM_ALIGNMENT_GUEST stream, or the
 * reference when it is a guest whose host is in the set (its host is then
 * %CS_STREAM_ALIGNMENT_HOST).
 *
 * Returns: (transfer none) (nullable): the timeline, in ns of the host's
 *   clock; %NULL when @self is not a related guest or its host's
 *   recording could not be read (a warning says why)
 */
CsVcpuTimeline *
cs_stream_get_vcpu_timeline (CsStream *self)
{
  g_autoptr(GError) error = NULL;
  CsStreamVcpuView *view;
  CsTimeRelation *relation;
  CsStream *host;
  CsTracedatReader *host_reader;

  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  view = _cs_stream_get_vcpu_view (self);
  relation = _cs_stream_get_relation (self);
  host = cs_stream_get_host (self);
  /* a background build in flight (cs_stream_peek_vcpu_timeline()) is not
   * waited for: this one reads on, and the first result stays */
  if (view->timeline != NULL || (view->tried && view->build == NULL) ||
      relation == NULL || host == NULL)
    return view->timeline;
  view->tried = TRUE;
  host_reader = _cs_stream_get_full_reader (host, &error);
  if (host_reader != NULL)
    view->timeline = cs_vcpu_timeline_new_for_guest (host_reader, relation, NULL, &error);
  if (view->timeline == NULL)
    g_warning ("The host's view of %s's vCPUs could not be read: %s", cs_stream_get_name (self),
               error->message);
  else
    {
      cancel_build (view);
      _cs_stream_notify_vcpu_timeline_ready (self);
    }
  return view->timeline;
}

/* The background build: a reader of its own on the host's file (the
 * stream's readers belong to the main thread) and the vCPU threads' tids,
 * copied before it starts since the relation may be dropped meanwhile. */
typedef struct {
  char *host_path;
  gint32 *tids;
  guint n_tids;
} VcpuBuild;

static void
vcpu_build_free (gpointer data)
{
  VcpuBuild *b = data;

  g_free (b->host_path);
  g_free (b->tids);
  g_free (b);
}

static void
vcpu_build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  VcpuBuild *b = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) host = cs_tracedat_reader_open (b->host_path, &error);
  CsVcpuTimeline *timeline = host != NULL
                             ? cs_vcpu_timeline_new (host, b->tids, b->n_tids, cancellable,
                                                     &error)
                             : NULL;

  if (timeline == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, timeline, (GDestroyNotify) cs_vcpu_timeline_free);
}

static void
vcpu_build_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) build = data;
  CsVcpuTimeline *timeline = g_task_propagate_pointer (G_TASK (result), &error);
  CsStream *self = CS_STREAM (source);
  CsStreamVcpuView *view = _cs_stream_get_vcpu_view (self);

  if (build != view->build || g_cancellable_is_cancelled (build))
    {
      /* related anew or closed meanwhile: the result is another relation's */
      g_clear_pointer (&timeline, cs_vcpu_timeline_free);
      return;
    }
  g_clear_object (&view->build);
  if (timeline == NULL)
    {
      g_warning ("The host's view of %s's vCPUs could not be read: %s", cs_stream_get_name (self),
                 error->message);
      return;
    }
  if (view->timeline != NULL)  /* cs_stream_get_vcpu_timeline() came first */
    {
      cs_vcpu_timeline_free (timeline);
      return;
    }
  view->timeline = timeline;
  _cs_stream_notify_vcpu_timeline_ready (self);
}

/**
 * cs_stream_peek_vcpu_timeline:
 * @self: a stream
 *
 * cs_stream_get_vcpu_timeline() without waiting, for drawing: returns the
 * timeline once it is built; before that, starts building it in a worker
 * thread (once per relation) and returns %NULL.  The stream notifies
 * "vcpu-timeline-ready" on the main context when the timeline is there;
 * a failed build gives a warning and %NULL from then on, as
 * cs_stream_get_vcpu_timeline() does.  A new relation (cs-stream-set.c)
 * drops a build in flight.
 *
 * Returns: (transfer none) (nullable): the timeline, or %NULL while it is
 *   being built or when @self is not a related guest
 */
CsVcpuTimeline *
cs_stream_peek_vcpu_timeline (CsStream *self)
{
  g_autoptr(GTask) task = NULL;
  CsStreamVcpuView *view;
  CsTimeRelation *relation;
  CsStream *host;
  VcpuBuild *b;
  const CsTimeShift *shift;

  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  view = _cs_stream_get_vcpu_view (self);
  relation = _cs_stream_get_relation (self);
  host = cs_stream_get_host (self);
  if (view->timeline != NULL || view->tried || view->build != NULL ||
      relation == NULL || host == NULL)
    return view->timeline;
  view->tried = TRUE;
  shift = cs_time_relation_get_time_shift (relation);
  b = g_new0 (VcpuBuild, 1);
  b->host_path = g_strdup (cs_stream_get_path (host));
  b->n_tids = shift->n_vcpus;
  b->tids = g_new0 (gint32, MAX (b->n_tids, 1));
  for (guint v = 0; v < b->n_tids; v++)
    b->tids[v] = cs_time_relation_get_vcpu_tid (relation, v);
  view->build = g_cancellable_new ();
  task = g_task_new (self, view->build, vcpu_build_done, g_object_ref (view->build));
  g_task_set_source_tag (task, cs_stream_peek_vcpu_timeline);
  g_task_set_task_data (task, b, vcpu_build_free);
  g_task_run_in_thread (task, vcpu_build_thread);
  return NULL;
}
