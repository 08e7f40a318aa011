/* cs-kvm-activity.h: what a KVM host recording says of the threads that run
 * a guest's vCPUs: time in the guest, exits by reason, the longest exit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * From the host's kvm:kvm_entry and kvm:kvm_exit events (the kernel's
 * arch/x86/kvm/trace.h): a thread is in the guest from a kvm_entry to the
 * next kvm_exit, and out of it, handling the exit, from a kvm_exit to the
 * next kvm_entry.  Which thread runs which vCPU comes from the host's GUEST
 * option (cs_time_relation_get_vcpu_tid()).
 */
#pragma once

#include "cs-vcpu-timeline.h"

G_BEGIN_DECLS

/**
 * CsKvmExitReason:
 * @reason: the exit reason as the host's kvm_exit event prints it
 *   ("EPT_VIOLATION", "HLT", ...; the number when the format has no name)
 * @n_exits: exits of the thread with this reason
 * @out_ns: time out of the guest after these exits, each until the
 *   thread's next kvm_entry (an exit with no later entry counts 0), ns
 * @longest_ns: the longest of those, ns
 *
 * One exit reason of a vCPU thread.
 */
typedef struct {
  char *reason;
  guint64 n_exits;
  gint64 out_ns;
  gint64 longest_ns;
} CsKvmExitReason;

/**
 * CsKvmVcpuActivity:
 * @tid: the host thread (task pid)
 * @n_entries: its kvm_entry events
 * @n_exits: its kvm_exit events
 * @in_guest_ns: time in the guest: the sum of kvm_entry → next kvm_exit, ns
 * @first_ns: its first kvm event, ns of the host's clock (0 with none)
 * @last_ns: its last kvm event
 * @longest_exit_ns: the longest kvm_exit → next kvm_entry, ns (0 with none)
 * @longest_exit_at_ns: when that exit happened
 * @longest_exit_reason: (nullable): its reason
 * @reasons: (element-type CsKvmExitReason): exit reasons, most exits first
 *   (ties by name)
 * @not_running_ns: time the thread was not running on any host CPU over
 *   the host's recording (its sched_switch events), ns; -1 when the host
 *   recorded no sched_switch
 *
 * The kvm activity of one vCPU thread.  Free with
 * cs_kvm_vcpu_activity_free().
 */
typedef struct {
  gint32 tid;
  guint64 n_entries;
  guint64 n_exits;
  gint64 in_guest_ns;
  gint64 first_ns;
  gint64 last_ns;
  gint64 longest_exit_ns;
  gint64 longest_exit_at_ns;
  char *longest_exit_reason;
  GPtrArray *reasons;
  gint64 not_running_ns;
} CsKvmVcpuActivity;

void       cs_kvm_vcpu_activity_free (CsKvmVcpuActivity *activity);
CsKvmVcpuActivity *cs_kvm_activity_from_timeline (CsVcpuTimeline *timeline,
                                                  guint           thread);
GPtrArray *cs_kvm_activity_measure   (CsTracedatReader  *host,
                                      const gint32      *tids,
                                      guint              n_tids,
                                      GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsKvmVcpuActivity, cs_kvm_vcpu_activity_free)

G_END_DECLS
