/* cs-explain-tracker.h: what held each CPU, slice by slice, and the
 * breakdown of every wakeup pair, from events in time order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fed the events of a span (cs_plugin_document_foreach_event()) or of a
 * whole recording (a pass), it keeps per CPU the running task and its
 * priority (sched_switch), the hard interrupt and softirq in progress
 * (irq:irq_handler_entry/exit, irq:softirq_entry/exit) and the sections
 * with interrupts or preemption disabled (preemptirq:*, the kernel
 * module's chronoscope:*_off_begin/end); per task, its state in
 * Chronoscope's wakeup rule (cs-plugin-wakeup.h, the latency preset
 * `wakeup`'s pairs), and for a task the rule has woken and that has not
 * run yet, the CPU it waits on (the wakeup's target_cpu, then
 * sched_migrate_task).
 * Each time a CPU's state may change, the time since the last change is
 * added to every pair waiting on that CPU, so each pair's parts add up
 * exactly to its B − A.
 */
#pragma once

#include "cs-explain.h"
#include "cs-explain-formats.h"

G_BEGIN_DECLS

typedef struct _CsExplainTracker CsExplainTracker;

/**
 * CsExplainPairFunc:
 * @breakdown: (transfer none): a closed pair, its contributors sorted
 *   largest first; valid during the call and freed after it, so a
 *   receiver that keeps it may take its arrays (setting them to %NULL)
 *   rather than copy them
 * @user_data: the caller's data
 *
 * Receives each wakeup pair when its task is switched in.
 */
typedef void (*CsExplainPairFunc) (const CsExplainBreakdown *breakdown,
                                   gpointer                  user_data);


CsExplainTracker   *cs_explain_tracker_new          (guint               n_cpus,
                                                     CsExplainPairFunc   func,
                                                     gpointer            user_data);
void                cs_explain_tracker_free         (CsExplainTracker   *self);
void                cs_explain_tracker_set_min_ns   (CsExplainTracker   *self,
                                                     gint64              min_ns);
void                cs_explain_tracker_set_only_pid (CsExplainTracker   *self,
                                                     gint32              pid);
void                cs_explain_tracker_set_record_slices (CsExplainTracker *self,
                                                     gboolean            record);
void                cs_explain_tracker_set_slice_cpus (CsExplainTracker *self,
                                                     const gboolean   *cpus);
void                cs_explain_tracker_set_open_pairs (CsExplainTracker *self,
                                                     gboolean            open_pairs);
void                cs_explain_tracker_set_learning (CsExplainTracker *self,
                                                   gboolean          learning);
gboolean            cs_explain_tracker_event        (CsExplainTracker   *self,
                                                     const CsPluginEvent *event);
void                cs_explain_tracker_interrupt    (CsExplainTracker   *self,
                                                     const CsPluginInterrupt *irq);
gboolean            cs_explain_tracker_saw_switch   (CsExplainTracker   *self,
                                                     guint               cpu);
gint32              cs_explain_tracker_get_running  (CsExplainTracker   *self,
                                                     guint               cpu);
gboolean            cs_explain_tracker_read_switch  (CsExplainTracker   *self,
                                                     const CsPluginEvent *event,
                                                     gint32             *next_pid,
                                                     gint32             *next_prio,
                                                     char                next_comm[CS_EXPLAIN_NAME_LEN]);
void                cs_explain_tracker_switch       (CsExplainTracker   *self,
                                                     guint               cpu,
                                                     gint64              ts_ns,
                                                     gint32              prev_state,
                                                     gint32              next_pid,
                                                     gint32              next_prio,
                                                     const char          next_comm[CS_EXPLAIN_NAME_LEN]);
void                cs_explain_tracker_open_window  (CsExplainTracker   *self,
                                                     gint32              pid,
                                                     gint64              a_ns,
                                                     guint               cpu);
CsExplainBreakdown *cs_explain_tracker_close_window (CsExplainTracker   *self,
                                                     gint64              b_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsExplainTracker, cs_explain_tracker_free)

G_END_DECLS
