/* cs-explain.h: why a latency was long — its breakdown, its wakeup chain,
 * a task's critical path, and the contributors that delay most pairs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * GTK-free: plain structs and arrays that the command line prints, the
 * pass stores for SQL and a page can show (a stacked bar of
 * #CsExplainContributor, a list of #CsExplainLink).  Every function reads
 * a #CsPluginDocument through the public plugin API only, on the thread
 * that owns the document (the main thread, or a pass's callbacks).  Time
 * is ns in the recording's trace clock; spans are half-open.
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

/**
 * CsExplainKind:
 * @CS_EXPLAIN_TASK: a task ran on the CPU (not in an interrupt, nor in a
 *   section below)
 * @CS_EXPLAIN_IRQ: a hard interrupt handler ran (irq:irq_handler_entry ..
 *   irq_handler_exit), whatever task it interrupted
 * @CS_EXPLAIN_SOFTIRQ: a softirq ran (irq:softirq_entry .. softirq_exit)
 * @CS_EXPLAIN_IRQS_OFF: a task ran with interrupts disabled
 *   (preemptirq:irq_disable .. irq_enable, or the kernel module's
 *   chronoscope:irqs_off_begin .. irqs_off_end)
 * @CS_EXPLAIN_PREEMPT_OFF: a task ran with preemption disabled
 *   (preemptirq:preempt_disable .. preempt_enable, or
 *   chronoscope:preempt_off_begin .. preempt_off_end)
 * @CS_EXPLAIN_IDLE: the CPU was idle (pid 0, outside interrupts)
 * @CS_EXPLAIN_UNKNOWN: no event says what the CPU did (before its first
 *   sched_switch in the events read)
 * @CS_EXPLAIN_VCPU_EXIT: in a KVM guest shown with its host, the waiting
 *   CPU (a vCPU) was out of the guest handling an exit (@name its reason,
 *   as the host's kvm_exit prints it), whatever the guest's events say
 *   ran then (cs-explain-vcpu.c)
 * @CS_EXPLAIN_VCPU_NOT_RUNNING: likewise, the vCPU's host thread was not
 *   running on any host CPU
 *
 * What held a CPU during a slice of a latency.  Interrupt and softirq time
 * nests inside the running task's: it is counted here, not for the task.
 * When several apply, the first in this order wins: IRQ, SOFTIRQ,
 * IRQS_OFF, PREEMPT_OFF, then TASK or IDLE.
 */
typedef enum {
  CS_EXPLAIN_TASK,
  CS_EXPLAIN_IRQ,
  CS_EXPLAIN_SOFTIRQ,
  CS_EXPLAIN_IRQS_OFF,
  CS_EXPLAIN_PREEMPT_OFF,
  CS_EXPLAIN_IDLE,
  CS_EXPLAIN_UNKNOWN,
  CS_EXPLAIN_VCPU_EXIT,
  CS_EXPLAIN_VCPU_NOT_RUNNING,
} CsExplainKind;

#define CS_EXPLAIN_NAME_LEN 32

/**
 * CsExplainSource:
 * @CS_EXPLAIN_SOURCE_NONE: not a section (a task, an interrupt, idle...)
 * @CS_EXPLAIN_SOURCE_PREEMPTIRQ: a section between the kernel's
 *   preemptirq:irq_disable/irq_enable or preempt_disable/preempt_enable
 *   events
 * @CS_EXPLAIN_SOURCE_KMOD: a section of Chronoscope's kernel module
 *   (chronoscope:irqs_off_begin .. end, preempt_off_begin .. end)
 * @CS_EXPLAIN_SOURCE_LATENCY_FLAGS: inferred from the latency flags of
 *   two consecutive events of the running task on the CPU
 *   (common_flags' TRACE_FLAG_IRQS_OFF 0x01, common_preempt_count's low
 *   nibble), when the recording has neither of the above there
 *   (cs-explain-flags.c)
 *
 * Where a %CS_EXPLAIN_IRQS_OFF or %CS_EXPLAIN_PREEMPT_OFF part came from.
 */
typedef enum {
  CS_EXPLAIN_SOURCE_NONE,
  CS_EXPLAIN_SOURCE_PREEMPTIRQ,
  CS_EXPLAIN_SOURCE_KMOD,
  CS_EXPLAIN_SOURCE_LATENCY_FLAGS,
} CsExplainSource;

/**
 * CsExplainContributor:
 * @kind: what it is
 * @id: for a task and the sections, the task's pid; for a hard interrupt,
 *   its IRQ number; for a softirq, its vector (0 HI .. 9 RCU); -1 for idle
 *   and unknown
 * @name: the task's comm, the IRQ's name (irq_handler_entry's name), the
 *   softirq vector's name (HI, TIMER, NET_TX, ..., RCU); empty otherwise
 * @prio: for a task or a section, the task's kernel priority as
 *   sched_switch prints it (0..99 real-time, 100..139 normal; lower is
 *   higher priority); -1 when unknown
 * @outranks: for a task or a section, whether @prio is higher priority
 *   (a lower number) than the waiting task's
 * @ns: time it held the CPU during the latency, ns
 * @n_slices: how many separate slices that time came in
 * @n_pairs: in top blockers, how many pairs it delayed (else 1)
 * @source: for a section, which events showed it; else
 *   %CS_EXPLAIN_SOURCE_NONE
 *
 * One part of a latency's breakdown; the parts of a breakdown add up
 * exactly to the latency.
 */
typedef struct {
  CsExplainKind kind;
  gint32 id;
  char name[CS_EXPLAIN_NAME_LEN];
  gint32 prio;
  gboolean outranks;
  gint64 ns;
  guint n_slices;
  guint64 n_pairs;
  CsExplainSource source;
} CsExplainContributor;

/**
 * CsExplainSlice:
 * @begin_ns: start (inclusive)
 * @end_ns: end (exclusive)
 * @cpu: the CPU the task waited on then
 * @contributor: what held it: an index into the breakdown's @contributors
 *
 * One stretch of a latency held by one contributor on one CPU, for a
 * timeline that highlights a contributor's slices.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  guint cpu;
  guint contributor;
} CsExplainSlice;

/**
 * CsExplainBreakdown:
 * @pid: the task that waited (for a wakeup pair), or the pair's task
 * @prio: its priority (sched_waking's prio), -1 when unknown
 * @a_ns: A's time (the sched_waking), ns
 * @b_ns: B's time (the sched_switch that ran the task), ns
 * @a_cpu: A's CPU, the CPU that woke the task
 * @b_cpu: B's CPU, where the task ran
 * @n_cpus_queued: how many CPUs the task waited on (1 + migrations)
 * @waker_pid: the task running where A was logged (A's common_pid; 0 for
 *   idle or an interrupt on an idle CPU)
 * @waker_flags: A's common_flags (TRACE_FLAG_HARDIRQ 0x08, SOFTIRQ 0x10,
 *   NMI 0x40: A was logged in an interrupt)
 * @contributors: (element-type CsExplainContributor): the parts, largest
 *   first; their @ns add up to @b_ns - @a_ns
 * @slices: (element-type CsExplainSlice) (nullable): the stretches of
 *   [@a_ns, @b_ns) in time order, tiling it, each naming its contributor;
 *   given when the caller asks for them (@with_slices of
 *   cs_explain_wakeup_pair(), cs_explain_span_on_cpu() and the chains:
 *   the window, which highlights them), %NULL otherwise (the command
 *   line, the blockers pass)
 * @need_resched_ns: of the time a task that did not outrank the waiting
 *   one (nor was it) held its CPU, how much lay between two consecutive
 *   events of that task both showing TRACE_FLAG_NEED_RESCHED (0x04)
 *   pending, outside interrupts: a reschedule asked for and not yet
 *   taken; counted by cs_explain_add_flag_sections() (0 when it did not
 *   read the CPU's events), ns
 *
 * What held one latency pair.  Free with cs_explain_breakdown_free().
 */
typedef struct {
  gint32 pid;
  gint32 prio;
  gint64 a_ns;
  gint64 b_ns;
  guint a_cpu;
  guint b_cpu;
  guint n_cpus_queued;
  gint32 waker_pid;
  gint32 waker_flags;
  GArray *contributors;
  GArray *slices;
  gint64 need_resched_ns;
} CsExplainBreakdown;

void     cs_explain_breakdown_free   (CsExplainBreakdown *breakdown);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsExplainBreakdown, cs_explain_breakdown_free)

char    *cs_explain_verdict          (const CsExplainBreakdown   *breakdown);
char    *cs_explain_contributor_describe (const CsExplainContributor *contributor);
const char *cs_explain_kind_name     (CsExplainKind               kind);
const char *cs_explain_source_name   (CsExplainSource             source);
void     cs_explain_sort_contributors (GArray                    *contributors);

CsExplainBreakdown *cs_explain_wakeup_pair (CsPluginDocument *document,
                                            gint32            pid,
                                            gint64            a_ns,
                                            guint             a_cpu,
                                            gint64            b_ns,
                                            guint             b_cpu,
                                            gboolean          with_slices,
                                            GError          **error);
CsExplainBreakdown *cs_explain_span_on_cpu (CsPluginDocument *document,
                                            gint32            pid,
                                            gint64            a_ns,
                                            gint64            b_ns,
                                            guint             cpu,
                                            gboolean          with_slices,
                                            GError          **error);

/**
 * CsExplainStop:
 * @CS_EXPLAIN_STOP_DEPTH: the chain reached the depth asked for
 * @CS_EXPLAIN_STOP_IRQ: the waker was a hard or soft interrupt (or NMI):
 *   a device, a timer or the scheduler's tick, not a task
 * @CS_EXPLAIN_STOP_IDLE: the wakeup came from the idle task (pid 0)
 *   outside an interrupt
 * @CS_EXPLAIN_STOP_NOT_WAITING: the waker had no wakeup recorded before
 *   it woke the next link: it was not waiting for anything the recording
 *   shows
 * @CS_EXPLAIN_STOP_UNKNOWN: the waking event could not be found
 *
 * Why a wakeup chain ends where it does.
 */
typedef enum {
  CS_EXPLAIN_STOP_DEPTH,
  CS_EXPLAIN_STOP_IRQ,
  CS_EXPLAIN_STOP_IDLE,
  CS_EXPLAIN_STOP_NOT_WAITING,
  CS_EXPLAIN_STOP_UNKNOWN,
} CsExplainStop;

/**
 * CsExplainLink:
 * @depth: 0 for the pair asked about, 1 for its waker's wakeup, ...
 * @breakdown: (transfer full): the link's wakeup pair (its task, A, B,
 *   its waker) and what held it
 *
 * One link of a wakeup chain: a wakeup pair of the task that woke the
 * previous link's task, the latest before that waking.
 */
typedef struct {
  guint depth;
  CsExplainBreakdown *breakdown;
} CsExplainLink;

GArray  *cs_explain_wakeup_chain     (CsPluginDocument *document,
                                      gint32            pid,
                                      gint64            a_ns,
                                      guint             a_cpu,
                                      gint64            b_ns,
                                      guint             b_cpu,
                                      guint             max_depth,
                                      gboolean          with_slices,
                                      CsExplainStop    *stop,
                                      GError          **error);
GArray  *cs_explain_wakeup_chain_from (CsPluginDocument   *document,
                                       CsExplainBreakdown *first,
                                       guint               max_depth,
                                       gboolean            with_slices,
                                       CsExplainStop      *stop,
                                       GError            **error);
const char *cs_explain_stop_describe (CsExplainStop     stop);

/**
 * CsExplainPathState:
 * @CS_EXPLAIN_PATH_RUNNING: the task on the path ran
 * @CS_EXPLAIN_PATH_RUNNABLE: it was ready and waited for a CPU
 * @CS_EXPLAIN_PATH_BLOCKED: it slept and the path could not follow a
 *   waker (woken by an interrupt, the depth limit, or no wakeup recorded)
 * @CS_EXPLAIN_PATH_INTERRUPT: it slept until an interrupt woke it
 * @CS_EXPLAIN_PATH_UNKNOWN: nothing recorded says what it did
 *
 * A segment's state on a critical path.
 */
typedef enum {
  CS_EXPLAIN_PATH_RUNNING,
  CS_EXPLAIN_PATH_RUNNABLE,
  CS_EXPLAIN_PATH_BLOCKED,
  CS_EXPLAIN_PATH_INTERRUPT,
  CS_EXPLAIN_PATH_UNKNOWN,
} CsExplainPathState;

/**
 * CsExplainPathSegment:
 * @begin_ns: start (inclusive)
 * @end_ns: end (exclusive)
 * @pid: the task on the path then (the one asked about, or a waker it
 *   waited for)
 * @state: what that task did
 * @cpu: the CPU it ran on or was last on; -1 when unknown
 * @depth: 0 for the task asked about, n for a waker n wakeups away
 *
 * A piece of a critical path.  Segments are in time order and tile the
 * span asked for without gaps.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gint32 pid;
  CsExplainPathState state;
  gint32 cpu;
  guint depth;
} CsExplainPathSegment;

/**
 * CsExplainPathFunc:
 * @segment: the next segment of the path (borrowed)
 * @user_data: as given
 * @error: for the reason to stop
 *
 * Receives a critical path's segments (cs_explain_critical_path_foreach()).
 *
 * Returns: %TRUE to go on, %FALSE with @error set to stop
 */
typedef gboolean (*CsExplainPathFunc) (const CsExplainPathSegment  *segment,
                                       gpointer                     user_data,
                                       GError                     **error);

gboolean    cs_explain_critical_path_foreach (CsPluginDocument   *document,
                                              gint32              pid,
                                              gint64              begin_ns,
                                              gint64              end_ns,
                                              guint               max_depth,
                                              CsExplainPathFunc   func,
                                              gpointer            user_data,
                                              GError            **error);
const char *cs_explain_path_state_name (CsExplainPathState state);

void        cs_explain_links_free      (GArray           *links);

CsExplainBreakdown *cs_explain_add_flag_sections (CsPluginDocument   *document,
                                                  CsExplainBreakdown *breakdown,
                                                  GError            **error);

CsExplainBreakdown *cs_explain_add_vcpu_out (CsPluginDocument   *document,
                                             CsExplainBreakdown *breakdown);

const char *cs_explain_softirq_name (gint32 vec);

G_END_DECLS
