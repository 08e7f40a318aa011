/* cs-explain.c: breakdowns in words — verdicts, contributor names, order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "cs-explain.h"
#include "../cs-latency-stats.h"

/**
 * cs_explain_breakdown_free:
 * @breakdown: (transfer full) (nullable): a breakdown
 */
void
cs_explain_breakdown_free (CsExplainBreakdown *breakdown)
{
  if (breakdown == NULL)
    return;
  g_clear_pointer (&breakdown->contributors, g_array_unref);
  g_clear_pointer (&breakdown->slices, g_array_unref);
  g_free (breakdown);
}

/**
 * cs_explain_links_free:
 * @links: (transfer full) (nullable) (element-type CsExplainLink): a chain
 *   from cs_explain_wakeup_chain()
 */
void
cs_explain_links_free (GArray *links)
{
  if (links == NULL)
    return;
  for (guint i = 0; i < links->len; i++)
    cs_explain_breakdown_free (g_array_index (links, CsExplainLink, i).breakdown);
  g_array_unref (links);
}

/**
 * cs_explain_kind_name:
 * @kind: a contributor's kind
 *
 * Returns: (transfer none): its name in JSON and SQL: "task", "irq",
 *   "softirq", "irqs_off", "preempt_off", "idle", "unknown", "vcpu_exit",
 *   "vcpu_not_running"
 */
const char *
cs_explain_kind_name (CsExplainKind kind)
{
  static const char *const names[] = {
    "task", "irq", "softirq", "irqs_off", "preempt_off", "idle", "unknown",
    "vcpu_exit", "vcpu_not_running",
  };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}

/**
 * cs_explain_source_name:
 * @source: where a section came from
 *
 * Returns: (transfer none): its name in JSON: "preemptirq", "kmod",
 *   "latency-flags", or %NULL for %CS_EXPLAIN_SOURCE_NONE
 */
const char *
cs_explain_source_name (CsExplainSource source)
{
  static const char *const names[] = { NULL, "preemptirq", "kmod", "latency-flags" };

  return (guint) source < G_N_ELEMENTS (names) ? names[source] : NULL;
}

static int
compare_contributors (gconstpointer a,
                      gconstpointer b)
{
  const CsExplainContributor *x = a, *y = b;

  if (x->ns != y->ns)
    return x->ns > y->ns ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/**
 * cs_explain_sort_contributors:
 * @contributors: (element-type CsExplainContributor): parts
 *
 * Sorts parts largest first (then by kind, id and name, so that the
 * order is the same on every run).
 */
void
cs_explain_sort_contributors (GArray *contributors)
{
  g_array_sort (contributors, compare_contributors);
}

/**
 * cs_explain_contributor_describe:
 * @contributor: a part of a breakdown
 *
 * Returns: (transfer full): the part in a few words, without its time:
 *   "migration/1 (pid 14, real-time prio 0)", "kworker/0:1 (pid 9, prio
 *   120)", "IRQ 24 (virtio0-input)", "softirq
 *   TIMER", "idle", "no event"
 */
char *
cs_explain_contributor_describe (const CsExplainContributor *c)
{
  switch (c->kind)
    {
    case CS_EXPLAIN_TASK:
      if (c->prio >= 0 && c->prio < 100)
        return g_strdup_printf (_("%s (pid %d, real-time prio %d)"), c->name, c->id, c->prio);
      return g_strdup_printf (_("%s (pid %d, prio %d)"), c->name, c->id, c->prio);
    case CS_EXPLAIN_IRQ:
      return g_strdup_printf (_("IRQ %d (%s)"), c->id, c->name);
    case CS_EXPLAIN_SOFTIRQ:
      return g_strdup_printf (_("softirq %s"), c->name);
    case CS_EXPLAIN_IRQS_OFF:
      if (c->source == CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
        return g_strdup_printf (_("interrupts disabled by %s (pid %d, from the events' latency flags)"),
                                c->name, c->id);
      return g_strdup_printf (_("interrupts disabled by %s (pid %d)"), c->name, c->id);
    case CS_EXPLAIN_PREEMPT_OFF:
      if (c->source == CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
        return g_strdup_printf (_("preemption disabled by %s (pid %d, from the events' latency flags)"),
                                c->name, c->id);
      return g_strdup_printf (_("preemption disabled by %s (pid %d)"), c->name, c->id);
    case CS_EXPLAIN_IDLE:
      return g_strdup (_("idle"));
    case CS_EXPLAIN_VCPU_EXIT:
      /* TRANSLATORS: %s is a KVM exit reason as the host printed it, "HLT" */
      return g_strdup_printf (_("vCPU exited to host: %s"), c->name[0] != '\0' ? c->name : "?");
    case CS_EXPLAIN_VCPU_NOT_RUNNING:
      return g_strdup (_("vCPU not running on the host"));
    case CS_EXPLAIN_UNKNOWN:
    default:
      return g_strdup (_("no event"));
    }
}

/**
 * cs_explain_verdict:
 * @breakdown: a breakdown
 *
 * Names the largest contributor in words: "preempted by higher-priority
 * migration/1 (pid 14) for 3.200 ms", "preemption disabled by
 * kworker/1:1H (pid 80) for 111.661 ms", "hard interrupt 24 (virtio0)
 * for 12.000 µs", "the CPU was idle for 2.000 ms".
 *
 * Returns: (transfer full): the verdict, one line, translated
 */
char *
cs_explain_verdict (const CsExplainBreakdown *breakdown)
{
  const CsExplainContributor *c;
  g_autofree char *dur = NULL;

  if (breakdown->contributors->len == 0)
    return g_strdup (_("nothing held it: the task ran at once"));
  c = &g_array_index (breakdown->contributors, CsExplainContributor, 0);
  dur = cs_latency_format_ns (c->ns);
  switch (c->kind)
    {
    case CS_EXPLAIN_TASK:
      if (c->id == breakdown->pid)
        return g_strdup_printf (_("the task itself ran for %s"), dur);
      if (c->outranks)
        return g_strdup_printf (_("preempted by higher-priority %s (pid %d) for %s"),
                                c->name, c->id, dur);
      return g_strdup_printf (_("waited behind %s (pid %d, not higher priority) for %s"),
                              c->name, c->id, dur);
    case CS_EXPLAIN_IRQ:
      return g_strdup_printf (_("hard interrupt %d (%s) for %s"), c->id, c->name, dur);
    case CS_EXPLAIN_SOFTIRQ:
      return g_strdup_printf (_("softirq %s for %s"), c->name, dur);
    case CS_EXPLAIN_IRQS_OFF:
      if (c->source == CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
        return g_strdup_printf (_("interrupts disabled by %s (pid %d) for %s "
                                  "(from the events' latency flags)"), c->name, c->id, dur);
      return g_strdup_printf (_("interrupts disabled by %s (pid %d) for %s"), c->name, c->id, dur);
    case CS_EXPLAIN_PREEMPT_OFF:
      if (c->source == CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
        return g_strdup_printf (_("preemption disabled by %s (pid %d) for %s "
                                  "(from the events' latency flags)"), c->name, c->id, dur);
      return g_strdup_printf (_("preemption disabled by %s (pid %d) for %s"), c->name, c->id, dur);
    case CS_EXPLAIN_IDLE:
      return g_strdup_printf (_("the CPU was idle for %s"), dur);
    case CS_EXPLAIN_VCPU_EXIT:
      return g_strdup_printf (_("the vCPU was out of the guest, the host handling exit %s, for %s"),
                              c->name[0] != '\0' ? c->name : "?", dur);
    case CS_EXPLAIN_VCPU_NOT_RUNNING:
      return g_strdup_printf (_("the vCPU was not running on the host for %s"), dur);
    case CS_EXPLAIN_UNKNOWN:
    default:
      return g_strdup_printf (_("no recorded event explains %s"), dur);
    }
}

/**
 * cs_explain_stop_describe:
 * @stop: why a chain ended
 *
 * Returns: (transfer none): the reason in a few words, translated
 */
const char *
cs_explain_stop_describe (CsExplainStop stop)
{
  switch (stop)
    {
    case CS_EXPLAIN_STOP_DEPTH:
      return _("the depth asked for");
    case CS_EXPLAIN_STOP_IRQ:
      return _("woken from an interrupt");
    case CS_EXPLAIN_STOP_IDLE:
      return _("woken by the idle task");
    case CS_EXPLAIN_STOP_NOT_WAITING:
      return _("the waker was not waiting");
    case CS_EXPLAIN_STOP_UNKNOWN:
    default:
      return _("the waking event was not found");
    }
}

/**
 * cs_explain_path_state_name:
 * @state: a critical path segment's state
 *
 * Returns: (transfer none): its name in JSON and SQL: "running",
 *   "runnable", "blocked", "interrupt", "unknown"
 */
const char *
cs_explain_path_state_name (CsExplainPathState state)
{
  static const char *const names[] = { "running", "runnable", "blocked", "interrupt", "unknown" };

  return (guint) state < G_N_ELEMENTS (names) ? names[state] : "unknown";
}

static const char *const softirq_names[] = {
  "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

/**
 * cs_explain_softirq_name:
 * @vec: a softirq vector (softirq_entry's vec)
 *
 * Returns: (transfer none): its name as the kernel prints it
 *   (include/linux/interrupt.h), or "?" for a vector out of range
 */
const char *
cs_explain_softirq_name (gint32 vec)
{
  return vec >= 0 && (guint) vec < G_N_ELEMENTS (softirq_names) ? softirq_names[vec] : "?";
}
