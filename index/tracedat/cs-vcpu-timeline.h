/* cs-vcpu-timeline.h: the host's view of a KVM guest's vCPUs over time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A vCPU is a host thread.  Its host recording says, for every moment:
 *   - in the guest: between a kvm:kvm_entry and the next kvm:kvm_exit of
 *     the thread (arch/x86/kvm/trace.h);
 *   - out of the guest after an exit: from a kvm_exit to the next
 *     kvm_entry, handling the exit whose reason the kvm_exit event prints;
 *   - not running on any host CPU: from a sched:sched_switch whose prev_pid
 *     is the thread to the next one whose next_pid is (the scheduler's
 *     view, include/trace/events/sched.h), whatever kvm said before.
 * Which thread runs which vCPU comes from the host's GUEST option
 * (cs_time_relation_get_vcpu_tid()).
 *
 * A #CsVcpuTimeline is built once per host recording by one pass over its
 * records and then answers range queries: the intervals of a thread within
 * [begin, end), or per-bin summaries for drawing, in O(log n) plus the
 * transitions or blocks the range covers.  It keeps 16 bytes per kvm or
 * sched_switch event of the watched threads and 56 bytes per 64 of them;
 * nothing per record of other threads.
 */
#pragma once

#include <gio/gio.h>

#include "cs-tracedat-clock.h"

G_BEGIN_DECLS

/**
 * CsVcpuState:
 * @CS_VCPU_STATE_UNKNOWN: nothing recorded tells (before the thread's first
 *   kvm event, when the host did not record sched_switch either)
 * @CS_VCPU_STATE_IN_GUEST: the thread runs the guest (kvm_entry → kvm_exit)
 * @CS_VCPU_STATE_EXIT: the thread is out of the guest after an exit and
 *   running on a host CPU, or the host recorded no sched_switch to say
 *   whether it runs
 * @CS_VCPU_STATE_NOT_RUNNING: the thread is not running on any host CPU
 *   (switched out by sched_switch)
 *
 * What a vCPU thread does at one moment, as the host recorded it.
 */
typedef enum {
  CS_VCPU_STATE_UNKNOWN,
  CS_VCPU_STATE_IN_GUEST,
  CS_VCPU_STATE_EXIT,
  CS_VCPU_STATE_NOT_RUNNING,
} CsVcpuState;

/**
 * CS_VCPU_N_STATES:
 *
 * The number of #CsVcpuState values (the size of #CsVcpuBin.state_ns).
 */
#define CS_VCPU_N_STATES 4

/**
 * CsVcpuEventKind:
 * @CS_VCPU_EVENT_ENTRY: a kvm_entry of the thread
 * @CS_VCPU_EVENT_EXIT: a kvm_exit of the thread
 * @CS_VCPU_EVENT_SWITCH_OUT: a sched_switch away from the thread
 * @CS_VCPU_EVENT_SWITCH_IN: a sched_switch to the thread
 *
 * The host events a timeline is made of.
 */
typedef enum {
  CS_VCPU_EVENT_ENTRY,
  CS_VCPU_EVENT_EXIT,
  CS_VCPU_EVENT_SWITCH_OUT,
  CS_VCPU_EVENT_SWITCH_IN,
} CsVcpuEventKind;

/**
 * CsVcpuEvent:
 * @ts_ns: when, ns of the host's clock (#CsTracedatRecord.ts_ns)
 * @reason: for %CS_VCPU_EVENT_EXIT its exit reason (an index for
 *   cs_vcpu_timeline_get_reason_name()); otherwise the reason of the
 *   thread's last exit before, or -1
 * @kind: a #CsVcpuEventKind
 * @state: the thread's #CsVcpuState from this event to its next one
 *
 * One event of a vCPU thread, in the thread's time order.
 */
typedef struct {
  gint64 ts_ns;
  gint16 reason;
  guint8 kind;
  guint8 state;
} CsVcpuEvent;

/**
 * CsVcpuInterval:
 * @begin_ns: start, ns of the host's clock
 * @end_ns: end (exclusive), > @begin_ns
 * @state: what the thread did
 * @reason: with %CS_VCPU_STATE_EXIT the exit's reason, with
 *   %CS_VCPU_STATE_NOT_RUNNING the reason of the exit the thread was
 *   handling when it was switched out; -1 when none is known
 *
 * One span of a vCPU thread in one state.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  CsVcpuState state;
  gint reason;
} CsVcpuInterval;

/**
 * CsVcpuBin:
 * @state_ns: per #CsVcpuState, the time of the bin in it, ns
 * @reason: the exit reason with the most time out of the guest in the
 *   bin, -1 with none.  Exact while the bin spans fewer than 64 events of
 *   the thread; beyond, each whole block of 64 events counts only its own
 *   top reason.
 *
 * The summary of one bin (one pixel column, say) of a thread's timeline.
 */
typedef struct {
  gint64 state_ns[CS_VCPU_N_STATES];
  gint reason;
} CsVcpuBin;

/**
 * CsVcpuTimeline:
 *
 * The host's view of some vCPU threads over a host recording.  Immutable
 * once built: any thread may query it at once.
 */
typedef struct _CsVcpuTimeline CsVcpuTimeline;

CsVcpuTimeline    *cs_vcpu_timeline_new             (CsTracedatReader  *host,
                                                     const gint32      *tids,
                                                     guint              n_tids,
                                                     GCancellable      *cancellable,
                                                     GError           **error);
CsVcpuTimeline    *cs_vcpu_timeline_new_for_guest   (CsTracedatReader  *host,
                                                     CsTimeRelation    *relation,
                                                     GCancellable      *cancellable,
                                                     GError           **error);
void               cs_vcpu_timeline_free            (CsVcpuTimeline    *self);
guint              cs_vcpu_timeline_get_n_threads   (CsVcpuTimeline    *self);
gint32             cs_vcpu_timeline_get_tid         (CsVcpuTimeline    *self,
                                                     guint              thread);
gboolean           cs_vcpu_timeline_has_sched       (CsVcpuTimeline    *self);
void               cs_vcpu_timeline_get_span        (CsVcpuTimeline    *self,
                                                     gint64            *first_ns,
                                                     gint64            *last_ns);
guint              cs_vcpu_timeline_get_n_reasons   (CsVcpuTimeline    *self);
const char        *cs_vcpu_timeline_get_reason_name (CsVcpuTimeline    *self,
                                                     gint               reason);
const CsVcpuEvent *cs_vcpu_timeline_get_events      (CsVcpuTimeline    *self,
                                                     guint              thread,
                                                     gsize             *n_events);
CsVcpuState        cs_vcpu_timeline_state_at        (CsVcpuTimeline    *self,
                                                     guint              thread,
                                                     gint64             ts_ns,
                                                     gint              *reason);
gsize              cs_vcpu_timeline_get_intervals   (CsVcpuTimeline    *self,
                                                     guint              thread,
                                                     gint64             begin_ns,
                                                     gint64             end_ns,
                                                     GArray            *intervals);
void               cs_vcpu_timeline_summarize       (CsVcpuTimeline    *self,
                                                     guint              thread,
                                                     gint64             begin_ns,
                                                     gint64             end_ns,
                                                     guint              n_bins,
                                                     CsVcpuBin         *bins);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsVcpuTimeline, cs_vcpu_timeline_free)

G_END_DECLS
