/* cs-plugin-wakeup.h: the wakeup latency rule, one task at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 *
 * Chronoscope measures wakeup latency with this one rule everywhere: task
 * plots and statistics for a range (the core's task timeline) and the
 * latency plugin's wakeup preset call these functions, and the oracle
 * tests/oracle/latency-pairs.py writes the same rule again from this text.
 *
 * A wakeup latency is the time from the wakeup of a sleeping task to the
 * sched_switch that next puts it on a CPU.  Each task is in one state of a
 * small machine, fed with the task's events in time order (over all CPUs,
 * ties in CPU order, then in the ring buffer's order):
 *
 *   event                         state before   state after
 *   ----------------------------  -------------  ----------------------
 *   wakeup (sched_waking,         unknown,       woken at this time:
 *     sched_wakeup or               sleeping       a wait opens
 *     sched_wakeup_new, "pid")    running,       unchanged: the task is
 *                                   woken,         on a CPU or already
 *                                   preempted      waits for one
 *   switch-in (sched_switch       woken          running; the wait ends:
 *     next_pid)                                    one wakeup latency,
 *                                                  switch-in − wakeup
 *                                 any other      running
 *   switch-out (sched_switch      any            preempted (prev_state R
 *     prev_pid, prev_state)                        or R+: still runnable),
 *                                                  else sleeping
 *
 * What this follows in the kernel (kernel/sched/core.c and
 * include/trace/events/sched.h):
 *
 * - try_to_wake_up() traces sched_waking only when the task's state
 *   matches the wakeup, that is when it sleeps or is about to; sched_wakeup
 *   follows when the task is queued, so the first wakeup of a sleeping task
 *   opens the wait and a later sched_wakeup of the same wakeup does not
 *   restart it.  sched_wakeup_new is the first wakeup of a new task.
 * - A task woken while still on its CPU (it had set a sleeping state but
 *   not yet switched out) does not wait for a CPU: a wakeup of a running
 *   task changes nothing, nor does one of a task already woken or
 *   preempted.
 * - prev_state is __trace_sched_switch_state(): 0 ("R") when the task left
 *   the CPU still runnable, TASK_REPORT_MAX ("R+", 0x100 since Linux 4.14;
 *   older kernels set a higher bit, TASK_STATE_MAX) when it was preempted, else one bit of the
 *   low byte: 0x01 S, 0x02 D, 0x04 T, 0x08 t, 0x10 X, 0x20 Z, 0x40 P,
 *   0x80 I.  A task switched out runnable waits without a wakeup: that
 *   wait is no wakeup latency.
 * - A switch-out while woken means the switch-in was not seen (it lies
 *   before the recording or in a lost buffer): the wait is dropped.
 *
 * Before a task's first event its state is unknown, and a wakeup then
 * opens a wait (the kernel traces wakeups of sleeping tasks only).  A wait
 * still open when the recording ends is no latency.  A zero-filled
 * #CsPluginWakeupState is a task in the unknown state.  The idle tasks
 * (pid 0) are never woken: callers leave them out.
 */
#pragma once

#include <glib.h>

/**
 * CS_PLUGIN_WAKEUP_EVENTS:
 * @prefix: a string literal put before each name: "" for the names alone,
 *   "sched:" for "system:name"
 *
 * The trace events that wake a task in this rule, as string literals for
 * an array's initialiser: sched_waking, sched_wakeup and sched_wakeup_new
 * of the system "sched" (include/trace/events/sched.h; each has the field
 * "pid", the task woken).  Every part of Chronoscope that feeds the rule
 * (the index's task rows, statistics for a range, the latency plugin's
 * wakeup preset and its explanations) takes the list from here, e.g.
 * `static const char *const names[] = { CS_PLUGIN_WAKEUP_EVENTS (""), NULL };`
 */
#define CS_PLUGIN_WAKEUP_EVENTS(prefix) \
  prefix "sched_waking", prefix "sched_wakeup", prefix "sched_wakeup_new"

G_BEGIN_DECLS

/**
 * CsPluginWakeupPhase:
 * @CS_PLUGIN_WAKEUP_UNKNOWN: nothing seen of the task yet
 * @CS_PLUGIN_WAKEUP_RUNNING: on a CPU
 * @CS_PLUGIN_WAKEUP_SLEEPING: switched out not runnable (prev_state S, D,
 *   I, T, ...): a wakeup opens a wait
 * @CS_PLUGIN_WAKEUP_PREEMPTED: switched out runnable (prev_state R, R+)
 * @CS_PLUGIN_WAKEUP_WOKEN: woken, waiting for a CPU since
 *   #CsPluginWakeupState.wakeup_ns
 */
typedef enum {
  CS_PLUGIN_WAKEUP_UNKNOWN = 0,
  CS_PLUGIN_WAKEUP_RUNNING,
  CS_PLUGIN_WAKEUP_SLEEPING,
  CS_PLUGIN_WAKEUP_PREEMPTED,
  CS_PLUGIN_WAKEUP_WOKEN,
} CsPluginWakeupPhase;

/**
 * CsPluginWakeupState:
 * @phase: where the task is (a #CsPluginWakeupPhase)
 * @wakeup_ns: when @phase is %CS_PLUGIN_WAKEUP_WOKEN, the time of the
 *   wakeup that opened the wait (ns, trace clock); else meaningless
 *
 * One task's state in the rule.  Zero-filled is the unknown state.
 */
typedef struct {
  guint32 phase;
  gint64 wakeup_ns;
} CsPluginWakeupState;

/**
 * CsPluginWakeupWait:
 * @wakeup_ns: the wakeup that opened the wait (ns)
 * @run_ns: the switch-in that ended it (ns, ≥ @wakeup_ns in time order)
 * @cpu: the CPU the task was switched in on
 *
 * One wakeup latency: @run_ns − @wakeup_ns.
 */
typedef struct {
  gint64 wakeup_ns;
  gint64 run_ns;
  gint32 cpu;
} CsPluginWakeupWait;

/**
 * cs_plugin_wakeup_prev_state_is_runnable:
 * @prev_state: sched_switch's prev_state field, as the recording holds it
 *
 * Whether a task switched out with @prev_state was still runnable (R, or
 * R+ when preempted): no state bit in the low byte.  Any thread.
 *
 * Returns: %TRUE for R and R+
 */
gboolean cs_plugin_wakeup_prev_state_is_runnable (gint64               prev_state);

/**
 * cs_plugin_wakeup_wake:
 * @state: the woken task's state
 * @ts_ns: the time of its sched_waking, sched_wakeup or sched_wakeup_new
 *   (ns)
 *
 * A wakeup of the task (see the rule above).  Any thread.
 *
 * Returns: %TRUE when it opened a wait; %FALSE when it changed nothing
 *   (the task runs, was already woken or is preempted)
 */
gboolean cs_plugin_wakeup_wake                   (CsPluginWakeupState *state,
                                                  gint64               ts_ns);

/**
 * cs_plugin_wakeup_switch_in:
 * @state: the state of sched_switch's next_pid
 * @ts_ns: the sched_switch's time (ns)
 * @cpu: the CPU it happened on
 * @wait: (out caller-allocates) (optional): the wait that ended, when
 *   %TRUE is returned
 *
 * The task is switched in.  Any thread.
 *
 * Returns: %TRUE when this ended a wait (one wakeup latency)
 */
gboolean cs_plugin_wakeup_switch_in              (CsPluginWakeupState *state,
                                                  gint64               ts_ns,
                                                  gint32               cpu,
                                                  CsPluginWakeupWait  *wait);

/**
 * cs_plugin_wakeup_switch_out:
 * @state: the state of sched_switch's prev_pid
 * @prev_state: sched_switch's prev_state
 *
 * The task is switched out.  Any thread.
 *
 * Returns: %TRUE when it dropped an open wait (the task was woken but its
 *   switch-in was not seen)
 */
gboolean cs_plugin_wakeup_switch_out             (CsPluginWakeupState *state,
                                                  gint64               prev_state);

G_END_DECLS
