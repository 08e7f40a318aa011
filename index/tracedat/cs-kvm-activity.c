/* cs-kvm-activity.c: time in the guest, exits by reason and the longest
 * exit of KVM vCPU threads, from a host recording's kvm events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cs-kvm-activity.h"

/**
 * cs_kvm_vcpu_activity_free:
 * @activity: (transfer full) (nullable): an activity
 */
void
cs_kvm_vcpu_activity_free (CsKvmVcpuActivity *activity)
{
  if (activity == NULL)
    return;
  g_free (activity->longest_exit_reason);
  g_clear_pointer (&activity->reasons, g_ptr_array_unref);
  g_free (activity);
}

static void
exit_reason_free (CsKvmExitReason *r)
{
  g_free (r->reason);
  g_free (r);
}

static int
compare_reasons (gconstpointer a, gconstpointer b)
{
  const CsKvmExitReason *x = *(CsKvmExitReason * const *) a;
  const CsKvmExitReason *y = *(CsKvmExitReason * const *) b;

  if (x->n_exits != y->n_exits)
    return x->n_exits > y->n_exits ? -1 : 1;
  return strcmp (x->reason, y->reason);
}

/**
 * cs_kvm_activity_from_timeline:
 * @timeline: a timeline of vCPU threads
 * @thread: a thread index of @timeline
 *
 * Sums @thread's kvm events: time in the guest, exits by reason, the
 * longest exit; and the time it was not running on a host CPU.
 * Linear in the thread's events.  Any thread.
 *
 * Returns: (transfer full): its activity
 */
CsKvmVcpuActivity *
cs_kvm_activity_from_timeline (CsVcpuTimeline *timeline,
                               guint           thread)
{
  CsKvmVcpuActivity *a = g_new0 (CsKvmVcpuActivity, 1);
  guint n_reasons = cs_vcpu_timeline_get_n_reasons (timeline);
  g_autofree CsKvmExitReason **by_index = g_new0 (CsKvmExitReason *, n_reasons + 1);
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (CsVcpuEvent));
  gint64 span_first, span_last;
  gsize n_events;
  const CsVcpuEvent *events = cs_vcpu_timeline_get_events (timeline, thread, &n_events);
  const CsVcpuEvent *m;
  guint n;

  a->tid = cs_vcpu_timeline_get_tid (timeline, thread);
  a->reasons = g_ptr_array_new_with_free_func ((GDestroyNotify) exit_reason_free);
  a->not_running_ns = -1;
  if (cs_vcpu_timeline_has_sched (timeline))
    {
      g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));

      cs_vcpu_timeline_get_span (timeline, &span_first, &span_last);
      cs_vcpu_timeline_get_intervals (timeline, thread, span_first, span_last, intervals);
      a->not_running_ns = 0;
      for (guint i = 0; i < intervals->len; i++)
        {
          const CsVcpuInterval *iv = &g_array_index (intervals, CsVcpuInterval, i);

          if (iv->state == CS_VCPU_STATE_NOT_RUNNING)
            a->not_running_ns += iv->end_ns - iv->begin_ns;
        }
    }
  /* Only the kvm events count below: an exit lasts to the next entry,
   * whatever the scheduler did in between. */
  for (gsize i = 0; i < n_events; i++)
    if (events[i].kind == CS_VCPU_EVENT_ENTRY || events[i].kind == CS_VCPU_EVENT_EXIT)
      g_array_append_val (marks, events[i]);
  m = (const CsVcpuEvent *) marks->data;
  n = marks->len;
  for (guint i = 0; i < n; i++)
    {
      const CsVcpuEvent *next = i + 1 < n ? &m[i + 1] : NULL;

      if (i == 0)
        a->first_ns = m[i].ts_ns;
      a->last_ns = m[i].ts_ns;
      if (m[i].kind == CS_VCPU_EVENT_ENTRY)
        {
          a->n_entries++;
          if (next != NULL && next->kind == CS_VCPU_EVENT_EXIT)
            a->in_guest_ns += next->ts_ns - m[i].ts_ns;
        }
      else
        {
          gint ri = m[i].reason < 0 ? (gint) n_reasons : m[i].reason;
          CsKvmExitReason *r = by_index[ri];
          gint64 out = next != NULL && next->kind == CS_VCPU_EVENT_ENTRY ? next->ts_ns - m[i].ts_ns : 0;

          if (r == NULL)
            {
              const char *name = cs_vcpu_timeline_get_reason_name (timeline, m[i].reason);

              r = by_index[ri] = g_new0 (CsKvmExitReason, 1);
              r->reason = g_strdup (name != NULL ? name : "?");
              g_ptr_array_add (a->reasons, r);
            }
          a->n_exits++;
          r->n_exits++;
          r->out_ns += out;
          r->longest_ns = MAX (r->longest_ns, out);
          if (out > a->longest_exit_ns)
            {
              a->longest_exit_ns = out;
              a->longest_exit_at_ns = m[i].ts_ns;
              g_free (a->longest_exit_reason);
              a->longest_exit_reason = g_strdup (r->reason);
            }
        }
    }
  g_ptr_array_sort (a->reasons, compare_reasons);
  return a;
}

/**
 * cs_kvm_activity_measure:
 * @host: a host recording
 * @tids: (array length=n_tids): the vCPU threads to measure (host pids)
 * @n_tids: how many
 * @error: return location for a #GError
 *
 * Reads every record of @host once (cs_vcpu_timeline_new()) and measures,
 * for each thread of @tids, its kvm:kvm_entry and kvm:kvm_exit events
 * (cs_kvm_activity_from_timeline()).  A recording without kvm events gives
 * zero activity.  Linear in the records of @host; memory in the kvm and
 * sched_switch events of @tids.  Any thread.
 *
 * Errors: those of cs_vcpu_timeline_new() (%CS_INDEX_ERROR).
 *
 * Returns: (transfer full) (element-type CsKvmVcpuActivity): one activity
 *   per thread of @tids, in that order; %NULL on error
 */
GPtrArray *
cs_kvm_activity_measure (CsTracedatReader  *host,
                         const gint32      *tids,
                         guint              n_tids,
                         GError           **error)
{
  g_autoptr(CsVcpuTimeline) timeline = NULL;
  GPtrArray *result;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (host), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  timeline = cs_vcpu_timeline_new (host, tids, n_tids, NULL, error);
  if (timeline == NULL)
    return NULL;
  result = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_kvm_vcpu_activity_free);
  for (guint t = 0; t < n_tids; t++)
    g_ptr_array_add (result, cs_kvm_activity_from_timeline (timeline, t));
  return result;
}
