/* cs-explain-flags.c: sections with interrupts or preemption disabled,
 * inferred from the latency flags of the events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every ftrace event records the state of its CPU when it was logged
 * (struct trace_entry, include/linux/trace_events.h): common_flags
 * (TRACE_FLAG_IRQS_OFF 0x01, IRQS_NOSUPPORT 0x02, NEED_RESCHED 0x04,
 * HARDIRQ 0x08, SOFTIRQ 0x10, PREEMPT_RESCHED 0x20, NMI 0x40, BH_OFF 0x80)
 * and common_preempt_count (low nibble: the preemption depth the event
 * saw, the tracepoint's own preempt_disable already taken off; high
 * nibble: the migrate-disable depth) — the columns `trace-cmd report -l`
 * prints ("1d..2.").  A recording without preemptirq:* events and without
 * the kernel module's sections still says this much: when two
 * consecutive events of a CPU both come from its running task, outside
 * interrupts, and both show interrupts disabled, the time between them
 * is counted as interrupts disabled by that task; both with a preemption
 * depth above 0, as preemption disabled.  It is a lower bound (the
 * section began before the first event and ended after the second) and
 * may join two sections with an enable between them that logged nothing;
 * the verdict says where it came from.
 *
 * Only the events of the waiting CPU inside the slices are read (every
 * type), and only when the index counts at most MAX_FLAG_EVENTS of them,
 * only for a pair explained alone: the blockers sweep does not read them
 * (its sums are the tracker's).
 */
#include <string.h>

#include "cs-explain-private.h"

#define FLAG_IRQS_OFF           0x01
#define FLAG_IRQS_NOSUPPORT     0x02
#define FLAG_NEED_RESCHED       0x04
#define FLAG_IN_INTERRUPT       (0x08 | 0x10 | 0x40)    /* HARDIRQ, SOFTIRQ, NMI */
#define PREEMPT_DEPTH_MASK      0x0f

/* The most events of one CPU read for a pair: a longer stretch (the worst
 * wakeup of the large bench recording waits 2.9 s on a CPU that logs
 * ~1.5 M events meanwhile) would cost seconds to read, against the 50 ms
 * an explanation may take; there the flags are not read.  At ~0.3 µs an
 * event, this bounds the reading to a few ms.  The oracle
 * (tests/oracle/latency-explain.py) applies the same bound. */
#define MAX_FLAG_EVENTS         20000

/* One event of the CPU, as much as the rule needs. */
typedef struct {
  gint64 ts_ns;
  gint32 pid;
  guint8 flags;
  guint8 preempt_count;
} Mark;

typedef struct {
  CsPluginField flags;
  CsPluginField preempt_count;
  gboolean has_flags;
  gboolean has_preempt_count;
} FlagFields;

/* The span of a breakdown's slices on one CPU. */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
} CpuBounds;

typedef struct {
  GArray *marks;                /* Mark */
  GHashTable *fields;           /* struct tep_event * -> FlagFields * (owned) */
  gboolean has_sections;
  gboolean too_many;            /* more than MAX_FLAG_EVENTS */
} Reader;

/* Whether @event delimits a section the tracker reads itself. */
static gboolean
is_section_event (const CsPluginEvent *event)
{
  static const char *const kmod[] = {
    "irqs_off_begin", "irqs_off_end", "preempt_off_begin", "preempt_off_end", NULL
  };

  if (strcmp (event->system, "preemptirq") == 0)
    return TRUE;
  return strcmp (event->system, "chronoscope") == 0 && g_strv_contains (kmod, event->name);
}

static gboolean
read_mark (const CsPluginEvent *event,
           gpointer             user_data)
{
  Reader *r = user_data;
  FlagFields *f = g_hash_table_lookup (r->fields, event->format);
  Mark m = { event->ts_ns, event->pid, 0, 0 };
  gint64 v;

  if (is_section_event (event))
    {
      /* The sections' own events say more: the tracker has them. */
      r->has_sections = TRUE;
      return FALSE;
    }
  if (r->marks->len >= MAX_FLAG_EVENTS)
    {
      r->too_many = TRUE;
      return FALSE;
    }
  if (f == NULL)
    {
      f = g_new0 (FlagFields, 1);
      f->has_flags = cs_plugin_field_lookup (&f->flags, event, "common_flags");
      f->has_preempt_count = cs_plugin_field_lookup (&f->preempt_count, event,
                                                     "common_preempt_count");
      g_hash_table_insert (r->fields, event->format, f);
    }
  if (f->has_flags && cs_plugin_event_read_int (event, &f->flags, &v))
    m.flags = (guint8) v;
  if (f->has_preempt_count && cs_plugin_event_read_int (event, &f->preempt_count, &v))
    m.preempt_count = (guint8) v;
  g_array_append_val (r->marks, m);
  return TRUE;
}

/* What the flags of @a and @b, consecutive events of task @pid, say of the
 * time between them: %CS_EXPLAIN_IRQS_OFF, %CS_EXPLAIN_PREEMPT_OFF, or
 * %CS_EXPLAIN_TASK for nothing. */
static CsExplainKind
gap_kind (const Mark *a,
          const Mark *b,
          gint32      pid)
{
  if (a->pid != pid || b->pid != pid ||
      (a->flags & FLAG_IN_INTERRUPT) != 0 || (b->flags & FLAG_IN_INTERRUPT) != 0)
    return CS_EXPLAIN_TASK;
  if ((a->flags & b->flags & FLAG_IRQS_OFF) != 0 &&
      ((a->flags | b->flags) & FLAG_IRQS_NOSUPPORT) == 0)
    return CS_EXPLAIN_IRQS_OFF;
  if ((a->preempt_count & PREEMPT_DEPTH_MASK) > 0 && (b->preempt_count & PREEMPT_DEPTH_MASK) > 0)
    return CS_EXPLAIN_PREEMPT_OFF;
  return CS_EXPLAIN_TASK;
}

/* Adds to @x's need_resched_ns the gaps of slice @s, held by a task that
 * does not outrank the waiting one, between two consecutive events of
 * that task outside interrupts that both show a reschedule pending. */
static void
add_need_resched (CsExplainBreakdown         *x,
                  const CsExplainSlice       *s,
                  const CsExplainContributor *task,
                  const GArray               *marks,
                  guint                       first)
{
  if (task->outranks || task->id == x->pid)
    return;
  for (guint i = first; i + 1 < marks->len; i++)
    {
      const Mark *a = &g_array_index (marks, Mark, i);
      const Mark *b = &g_array_index (marks, Mark, i + 1);

      if (b->ts_ns > s->end_ns)
        break;
      if (a->pid == task->id && b->pid == task->id &&
          ((a->flags | b->flags) & FLAG_IN_INTERRUPT) == 0 &&
          (a->flags & b->flags & FLAG_NEED_RESCHED) != 0)
        x->need_resched_ns += b->ts_ns - a->ts_ns;
    }
}

/* The index of the section of @kind held by @task, added when new; keyed
 * like the tracker's parts by kind, id and name (a task that exec()s has
 * two names). */
static guint
section_contributor (GArray                     *contributors,
                     const CsExplainContributor *task,
                     CsExplainKind               kind)
{
  CsExplainContributor c = *task;

  c.kind = kind;
  c.source = CS_EXPLAIN_SOURCE_LATENCY_FLAGS;
  c.ns = 0;
  c.n_slices = 0;
  c.n_pairs = 1;
  for (guint i = 0; i < contributors->len; i++)
    {
      const CsExplainContributor *o = &g_array_index (contributors, CsExplainContributor, i);

      if (o->kind == kind && o->id == c.id && o->source == c.source &&
          strcmp (o->name, c.name) == 0)
        return i;
    }
  g_array_append_val (contributors, c);
  return contributors->len - 1;
}

/* Cuts slice @s (of a task) into the sections @marks show, appending the
 * pieces to @out.  @first: the first mark at or after the slice's start. */
static gboolean
split_slice (CsExplainBreakdown   *x,
             const CsExplainSlice *s,
             const GArray         *marks,
             guint                 first,
             GArray               *out)
{
  guint task_index = s->contributor;
  gint32 pid = g_array_index (x->contributors, CsExplainContributor, task_index).id;
  gint64 at = s->begin_ns;
  guint n_kept = 0;
  gboolean changed = FALSE;

  for (guint i = first; i + 1 < marks->len; i++)
    {
      const Mark *a = &g_array_index (marks, Mark, i);
      const Mark *b = &g_array_index (marks, Mark, i + 1);
      CsExplainKind kind;
      gint64 end;
      guint c;

      if (b->ts_ns > s->end_ns)
        break;
      kind = gap_kind (a, b, pid);
      if (kind == CS_EXPLAIN_TASK || b->ts_ns <= a->ts_ns)
        continue;
      /* The run of gaps of the same kind, as one section. */
      end = b->ts_ns;
      while (i + 2 < marks->len &&
             g_array_index (marks, Mark, i + 2).ts_ns <= s->end_ns &&
             gap_kind (b, &g_array_index (marks, Mark, i + 2), pid) == kind)
        {
          i++;
          b = &g_array_index (marks, Mark, i + 1);
          end = b->ts_ns;
        }
      c = section_contributor (x->contributors,
                               &g_array_index (x->contributors, CsExplainContributor, task_index),
                               kind);
      if (a->ts_ns > at)
        n_kept++;
      _cs_explain_add_slice (out, at, a->ts_ns, s->cpu, task_index);
      _cs_explain_add_slice (out, a->ts_ns, end, s->cpu, c);
      g_array_index (x->contributors, CsExplainContributor, task_index).ns -= end - a->ts_ns;
      g_array_index (x->contributors, CsExplainContributor, c).ns += end - a->ts_ns;
      g_array_index (x->contributors, CsExplainContributor, c).n_slices++;
      at = end;
      changed = TRUE;
    }
  if (s->end_ns > at)
    n_kept++;
  _cs_explain_add_slice (out, at, s->end_ns, s->cpu, task_index);
  if (changed)
    {
      CsExplainContributor *held = &g_array_index (x->contributors, CsExplainContributor,
                                                   task_index);

      /* The slice is now n_kept pieces of its task. */
      held->n_slices = held->n_slices + n_kept >= 1 ? held->n_slices + n_kept - 1 : 0;
    }
  return changed;
}

/* Whether @x has a section the tracker found (preemptirq, kmod). */
static gboolean
has_event_sections (const CsExplainBreakdown *x)
{
  for (guint i = 0; i < x->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (x->contributors, CsExplainContributor, i);

      if ((c->kind == CS_EXPLAIN_IRQS_OFF || c->kind == CS_EXPLAIN_PREEMPT_OFF) &&
          c->source != CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
        return TRUE;
    }
  return FALSE;
}

/**
 * _cs_explain_flags_may_read:
 * @document: a recording
 * @cpu: one of its CPUs
 * @begin_ns: the first slice's begin on @cpu (ns)
 * @end_ns: the last slice's end on @cpu (ns)
 * @may_read: (out): whether cs_explain_add_flag_sections() would read
 *   @cpu's events for slices spanning [@begin_ns, @end_ns]: at most
 *   MAX_FLAG_EVENTS of them, by the index's count (more: reading them
 *   would end in too_many, so the CPU is passed over unread)
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * The flags rule's bound, for it and for a caller deciding which CPUs'
 * slices to keep for it (cs-explain-pair.c).
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_explain_flags_may_read (CsPluginDocument  *document,
                            guint              cpu,
                            gint64             begin_ns,
                            gint64             end_ns,
                            gboolean          *may_read,
                            GError           **error)
{
  guint64 n_events;

  if (!cs_plugin_document_count_cpu_events (document, cpu, begin_ns, end_ns + 1, &n_events,
                                            error))
    return FALSE;
  *may_read = n_events <= MAX_FLAG_EVENTS;
  return TRUE;
}

/**
 * cs_explain_add_flag_sections:
 * @document: the recording @breakdown was read from
 * @breakdown: (transfer full) (nullable): a breakdown with slices
 *   (cs_explain_wakeup_pair(), cs_explain_span_on_cpu()), or %NULL
 * @error: %CS_PLUGIN_ERROR_FAILED when the recording cannot be read
 *
 * For each CPU of @breakdown's slices whose events over the slices hold
 * no preemptirq:* nor chronoscope:*_off_* event (and when @breakdown has
 * no section of those), reads that CPU's events over its slices and,
 * inside each slice held by a task, moves the time between two
 * consecutive events of that task, both outside interrupts
 * (common_flags without 0x08, 0x10, 0x40), to a section of
 * %CS_EXPLAIN_SOURCE_LATENCY_FLAGS: %CS_EXPLAIN_IRQS_OFF when both show
 * interrupts disabled (common_flags 0x01, not 0x02), else
 * %CS_EXPLAIN_PREEMPT_OFF when both show a preemption depth above 0
 * (common_preempt_count & 0x0f).  Runs of such gaps of one kind form one
 * section.  The time is taken from the task's part, so the contributors
 * still add up to B − A and the slices still tile [A, B).  The cost
 * follows the events of the waiting CPU during the slices.
 *
 * Returns: (transfer full) (nullable): @breakdown, or %NULL with @error
 *   set (and @breakdown freed) when the recording cannot be read
 */
CsExplainBreakdown *
cs_explain_add_flag_sections (CsPluginDocument   *document,
                              CsExplainBreakdown *breakdown,
                              GError            **error)
{
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GArray) marks = NULL;
  g_autoptr(GHashTable) fields = NULL;
  g_autofree CpuBounds *bounds = NULL;
  gboolean changed = FALSE;
  guint n_cpus;

  if (breakdown == NULL || breakdown->slices == NULL || breakdown->slices->len == 0 ||
      has_event_sections (breakdown))
    return breakdown;
  n_cpus = cs_plugin_document_get_n_cpus (document);
  marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  fields = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  slices = g_array_new (FALSE, FALSE, sizeof (CsExplainSlice));
  /* Each CPU's span of slices, in one sweep of the slices (in time
   * order: a CPU's first one begins its span, its last one ends it); a
   * long wait has millions, so whether a task held one of them is asked
   * only of a CPU whose events are few enough to be read. */
  bounds = g_new (CpuBounds, MAX (n_cpus, 1));
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    bounds[cpu] = (CpuBounds) { G_MAXINT64, G_MININT64 };
  for (guint i = 0; i < breakdown->slices->len; i++)
    {
      const CsExplainSlice *s = &g_array_index (breakdown->slices, CsExplainSlice, i);

      if (s->cpu < n_cpus)
        {
          if (bounds[s->cpu].begin_ns == G_MAXINT64)
            bounds[s->cpu].begin_ns = s->begin_ns;
          bounds[s->cpu].end_ns = s->end_ns;
        }
    }
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      gint64 begin_ns = bounds[cpu].begin_ns, end_ns = bounds[cpu].end_ns;
      Reader r = { marks, fields, FALSE, FALSE };
      gboolean few, task_slice = FALSE;
      guint m = 0;

      if (begin_ns == G_MAXINT64)
        continue;
      if (!_cs_explain_flags_may_read (document, cpu, begin_ns, end_ns, &few, error))
        {
          cs_explain_breakdown_free (breakdown);
          return NULL;
        }
      if (!few)
        continue;
      /* A task held one of them. */
      for (guint i = 0; i < breakdown->slices->len && !task_slice; i++)
        {
          const CsExplainSlice *s = &g_array_index (breakdown->slices, CsExplainSlice, i);

          task_slice = s->cpu == cpu &&
            g_array_index (breakdown->contributors, CsExplainContributor, s->contributor).kind ==
              CS_EXPLAIN_TASK;
        }
      if (!task_slice)
        continue;
      g_array_set_size (marks, 0);
      /* B's events too: the slice's last gap ends at the event that
       * closes it. */
      if (!cs_plugin_document_foreach_event (document, (gint) cpu, begin_ns, end_ns + 1, NULL,
                                             read_mark, &r, error))
        {
          cs_explain_breakdown_free (breakdown);
          return NULL;
        }
      if (r.has_sections || r.too_many || marks->len < 2)
        continue;
      g_array_set_size (slices, 0);
      for (guint i = 0; i < breakdown->slices->len; i++)
        {
          const CsExplainSlice s = g_array_index (breakdown->slices, CsExplainSlice, i);

          if (s.cpu != cpu ||
              g_array_index (breakdown->contributors, CsExplainContributor,
                             s.contributor).kind != CS_EXPLAIN_TASK)
            {
              g_array_append_val (slices, s);
              continue;
            }
          while (m < marks->len && g_array_index (marks, Mark, m).ts_ns < s.begin_ns)
            m++;
          add_need_resched (breakdown, &s,
                            &g_array_index (breakdown->contributors, CsExplainContributor,
                                            s.contributor), marks, m);
          changed |= split_slice (breakdown, &s, marks, m, slices);
        }
      if (changed)
        {
          /* The next CPU reads the slices as they are now. */
          GArray *tmp = breakdown->slices;

          breakdown->slices = g_steal_pointer (&slices);
          slices = tmp;
        }
    }
  if (changed)
    _cs_explain_breakdown_reorder (breakdown);
  return breakdown;
}
