/* cs-latency-wakeup.h: the wakeup preset's tasks, by Chronoscope's rule.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The wakeup preset does not pair its events as other pairs do (the
 * latest A before its B): it follows the wakeup latency rule of
 * <cs-plugin-wakeup.h>, the one statistics for a range and task plots
 * use, so that the latency page and the statistics give the same figures.
 * This keeps one #CsPluginWakeupState per task, with the wakeup that
 * opened its wait (the pair's open A: no table of open A's by key), and
 * reads sched_switch's prev_pid, prev_state and next_pid.  Memory is one
 * entry per task.
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

typedef struct _CsLatencyWakeups CsLatencyWakeups;

CsLatencyWakeups *cs_latency_wakeups_new    (void);
void              cs_latency_wakeups_free   (CsLatencyWakeups    *wakeups);

/* The wakeup that opened a wait (the pair's A). */
typedef struct {
  gint32 pid;                   /* the task woken */
  guint32 cpu;                  /* the CPU whose ring buffer holds the wakeup */
  gint64 ts_ns;
  guint64 row;                  /* the wakeup's row among its CPU's events */
} CsLatencyWakeupA;

/* A sched_waking, sched_wakeup or sched_wakeup_new of @pid at @ts_ns, the
 * event @row of @cpu: TRUE when it opened a wait (cs_plugin_wakeup_wake()),
 * which then remembers the event as the wait's A; never for pid 0. */
gboolean          cs_latency_wakeups_wake   (CsLatencyWakeups    *wakeups,
                                             gint64               pid,
                                             gint64               ts_ns,
                                             guint32              cpu,
                                             guint64              row);

/* A sched_switch: switches prev_pid out and next_pid in.  *@dropped is
 * TRUE when that dropped prev_pid's open wait.  TRUE when next_pid's wait
 * ended (one wakeup latency), with *@a the wakeup that opened it; FALSE
 * too when the fields cannot be read. */
gboolean          cs_latency_wakeups_switch (CsLatencyWakeups    *wakeups,
                                             const CsPluginEvent *event,
                                             gboolean            *dropped,
                                             CsLatencyWakeupA    *a);

/* How many tasks wait with their wait open (A's without a B so far). */
guint64           cs_latency_wakeups_get_n_open (CsLatencyWakeups *wakeups);

G_END_DECLS
