/* cs-task-timeline.h: what one task did over time, for task plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * From sched_switch (prev_state, next_pid) and sched_waking / sched_wakeup
 * (pid): when the task ran and on which CPU, when it was runnable but
 * waiting (after a wakeup, or preempted while runnable, prev_state R), and
 * when it slept (S) or was uninterruptible (D).  Read from per-task tables
 * the index builds, so asking for a task reads only that task's rows.
 */
#pragma once

#include <glib.h>

#include "cs-document.h"

G_BEGIN_DECLS

/**
 * CsTaskState:
 * @CS_TASK_RUNNING: on a CPU (see #CsTaskInterval.cpu)
 * @CS_TASK_RUNNABLE: ready to run, waiting for a CPU: after a wakeup, or
 *   preempted while runnable (prev_state R / R+)
 * @CS_TASK_SLEEPING: interruptible sleep (prev_state S)
 * @CS_TASK_UNINTERRUPTIBLE: uninterruptible sleep (prev_state D)
 * @CS_TASK_OTHER: stopped, traced, dead or unknown prev_state
 */
typedef enum {
  CS_TASK_RUNNING,
  CS_TASK_RUNNABLE,
  CS_TASK_SLEEPING,
  CS_TASK_UNINTERRUPTIBLE,
  CS_TASK_OTHER,
} CsTaskState;

/**
 * CsTaskInterval:
 * @begin_ns: start (inclusive)
 * @end_ns: end (exclusive)
 * @state: what the task did
 * @cpu: the CPU it ran on (running) or was switched out of (others); -1
 *   when unknown
 * @wakeup_ns: for a runnable interval that followed a wakeup, the time of
 *   the wakeup that opened the wait (the first sched_waking, sched_wakeup
 *   or sched_wakeup_new of the sleeping task, cs-plugin-wakeup.h); -1 for
 *   a preemption, or a wait whose switch-in was not recorded.  The wakeup
 *   latency is then @end_ns - @wakeup_ns.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  CsTaskState state;
  gint32 cpu;
  gint64 wakeup_ns;
} CsTaskInterval;

gboolean cs_document_get_task_intervals (CsDocument *self,
                                         gint32      pid,
                                         gint64      begin_ns,
                                         gint64      end_ns,
                                         GArray     *intervals,
                                         GError    **error);

G_END_DECLS
