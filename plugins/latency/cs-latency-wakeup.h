/* cs-latency-wakeup.h: the wakeup preset's tasks, by Chronoscope's rule.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The wakeup preset does not pair its events as other pairs do (the
 * latest A before its B): it follows the wakeup latency rule of
 * <cs-plugin-wakeup.h>, the one statistics for a range and task plots
 * use, so that the latency page and the statistics give the same figures.
 * This keeps one #CsPluginWakeupState per task and reads sched_switch's
 * prev_pid, prev_state and next_pid.  Memory is one entry per task.
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

typedef struct _CsLatencyWakeups CsLatencyWakeups;

CsLatencyWakeups *cs_latency_wakeups_new    (void);
void              cs_latency_wakeups_free   (CsLatencyWakeups    *wakeups);

/* A sched_waking, sched_wakeup or sched_wakeup_new of @pid at @ts_ns:
 * TRUE when it opened a wait (cs_plugin_wakeup_wake()); never for pid 0. */
gboolean          cs_latency_wakeups_wake   (CsLatencyWakeups    *wakeups,
                                             gint64               pid,
                                             gint64               ts_ns);

/* A sched_switch: switches prev_pid out and next_pid in.  *@dropped_pid
 * is prev_pid when that dropped its open wait, else 0; *@next_pid is
 * next_pid.  TRUE when next_pid's wait ended (one wakeup latency, from
 * the wakeup that opened it); FALSE too when the fields cannot be read. */
gboolean          cs_latency_wakeups_switch (CsLatencyWakeups    *wakeups,
                                             const CsPluginEvent *event,
                                             gint32              *dropped_pid,
                                             gint32              *next_pid);

G_END_DECLS
