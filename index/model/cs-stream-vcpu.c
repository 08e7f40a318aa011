/* cs-stream-vcpu.c: a guest vCPU's time out of the guest, in the guest's
 * clock, from its host's view (cs-stream-vcpu.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-stream-vcpu.h"

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
