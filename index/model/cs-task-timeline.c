/* cs-task-timeline.c: cs_document_get_task_intervals() and
 * _cs_document_walk_task(), the wakeup latencies of a task.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task's rows (its runs and the wakeups aimed at it) are stored per CPU
 * in time order (task_chunks, see cs-index-schema.c).  A query reads the
 * chunks of that task overlapping the span, plus, per CPU, the chunk
 * before it (to know the state the task was in when the span begins:
 * cs-task-rows.c), and turns them into the task's events, merged by time
 * (ties in CPU order, then switch-out, wakeup, switch-in):
 *
 *   run [begin, end) on cpu  -> a switch-in at begin (not one the rule
 *                               sees when its sched_switch was not
 *                               recorded: TK_KIND_RUN_UNSEEN) and a
 *                               switch-out at end with the run's
 *                               prev_state (unless end is only where the
 *                               CPU's recording stops: prev_state -1)
 *   a switch-in alone        -> a switch-in (TK_KIND_SWITCH_IN: the run's
 *                               end was not recorded)
 *   sched_waking / sched_wakeup / sched_wakeup_new -> a wakeup
 *
 * So the rule sees exactly the sched_switch events of the recording, as
 * a latency pass does.
 *
 * Wakeup latencies follow the one rule of cs-plugin-wakeup.h (the latency
 * plugin's wakeup preset uses it too): the first wakeup of a sleeping task
 * opens a wait, the switch-in ends it; a wakeup while the task runs (a
 * wakeup row inside one of its runs), is already woken or preempted
 * changes nothing.  The states shown are, after a switch-out, from its
 * prev_state: R / R+ -> RUNNABLE (preempted), S -> SLEEPING, D ->
 * UNINTERRUPTIBLE, I (an idle kernel thread) -> SLEEPING, others -> OTHER;
 * after a wakeup that opened a wait, RUNNABLE with the wakeup time kept.
 *
 * prev_state bits are those of include/trace/events/sched.h: 0x01
 * TASK_INTERRUPTIBLE (S), 0x02 TASK_UNINTERRUPTIBLE (D), 0x80
 * TASK_REPORT_IDLE (I, an idle kernel thread); a value whose low byte is 0
 * means the task was still runnable (R, or R+ with TASK_REPORT_MAX 0x100
 * set when preempted).
 */
#include "config.h"
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include <cs-plugin-wakeup.h>

#include "cs-document-private.h"
#include "cs-task-timeline.h"
#include "cs-task-timeline-private.h"

/* What happened to the task, in the order of one time on one CPU. */
enum { EVENT_SWITCH_OUT, EVENT_WAKEUP, EVENT_SWITCH_IN };

typedef struct {
  gint64 ts;
  gint64 duration;      /* switch-in: the run's length */
  gint32 cpu;
  gint32 kind;
  gint32 state;         /* switch-in and -out: prev_state at the switch-out */
  gboolean seen;        /* switch-in: its sched_switch was recorded */
} TaskEvent;

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const TaskEvent *ea = a, *eb = b;

  if (ea->ts != eb->ts)
    return ea->ts < eb->ts ? -1 : 1;
  /* Ties in CPU order, as passes receive events (cs-plugin-pass.h). */
  if (ea->cpu != eb->cpu)
    return ea->cpu < eb->cpu ? -1 : 1;
  return ea->kind - eb->kind;
}

static CsTaskState
state_after_switch_out (gint32 prev_state)
{
  if (prev_state < 0)
    return CS_TASK_OTHER;
  if (prev_state & 0x01)
    return CS_TASK_SLEEPING;
  if (prev_state & 0x02)
    return CS_TASK_UNINTERRUPTIBLE;
  /* TASK_REPORT_IDLE (0x80, "I"): an idle kernel thread, asleep. */
  if (prev_state & 0x80)
    return CS_TASK_SLEEPING;
  /* Nothing in the low byte: R, or R+ (TASK_REPORT_MAX, 0x100, set when
   * the task was preempted). */
  if ((prev_state & 0xff) == 0)
    return CS_TASK_RUNNABLE;
  return CS_TASK_OTHER;
}

static void
emit (GArray     *out,
      gint64      begin_ns,
      gint64      end_ns,
      gint64      span_begin,
      gint64      span_end,
      CsTaskState state,
      gint32      cpu,
      gint64      wakeup_ns)
{
  CsTaskInterval iv;

  if (end_ns <= begin_ns || end_ns <= span_begin || begin_ns >= span_end)
    return;
  iv.begin_ns = begin_ns;
  iv.end_ns = end_ns;
  iv.state = state;
  iv.cpu = cpu;
  iv.wakeup_ns = wakeup_ns;
  g_array_append_val (out, iv);
}

/* Puts @n events of one CPU, in time order but for a run's switch-out
 * recorded before the wakeups that came during that run (wakeups of a
 * running task: each passed over once), in compare_events() order by
 * insertion.  A damaged index could make that quadratic: past a budget the
 * rest is sorted the general way. */
static void
sort_cpu_events (TaskEvent *ev,
                 guint      n)
{
  guint64 budget = 8 * (guint64) n + 1024;

  for (guint i = 1; i < n; i++)
    {
      TaskEvent e = ev[i];
      guint j = i;

      while (j > 0 && compare_events (&ev[j - 1], &e) > 0)
        {
          ev[j] = ev[j - 1];
          j--;
          if (--budget == 0)
            {
              ev[j] = e;
              qsort (ev, n, sizeof *ev, compare_events);
              return;
            }
        }
      ev[j] = e;
    }
}

/* Merges the sorted [@a, @a + @na) and [@b, @b + @nb) into @out, @a's
 * first where equal (so the order stays that of the rows). */
static void
merge_events (const TaskEvent *a,
              guint            na,
              const TaskEvent *b,
              guint            nb,
              TaskEvent       *out)
{
  while (na > 0 && nb > 0)
    {
      if (compare_events (b, a) < 0)
        *out++ = *b++, nb--;
      else
        *out++ = *a++, na--;
    }
  memcpy (out, a, na * sizeof *a);
  memcpy (out + na, b, nb * sizeof *b);
}

/* The task's events from its rows (see the file comment), in
 * compare_events() order.  @rows are in CPU order and in time order
 * within a CPU (_cs_document_read_task_rows()): each CPU's events are
 * put in order alone (sort_cpu_events()), then the CPUs' sequences are merged two by two:
 * O(n log CPUs) where sorting them all would be O(n log n).  Frees @rows
 * before the merge, which needs a second copy of the events (a busy task
 * over a long recording has millions). */
static GArray *
rows_to_events (GArray *rows)
{
  GArray *events = g_array_sized_new (FALSE, FALSE, sizeof (TaskEvent), 2 * rows->len);
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (guint));
  TaskEvent *out;
  GArray *other;
  guint n = 0;

  /* Filled in place: g_array_append_val() divides on every call. */
  g_array_set_size (events, 2 * rows->len);
  out = (TaskEvent *) (gpointer) events->data;
  for (guint i = 0; i < rows->len; i++)
    {
      const CsTaskRow *r = &g_array_index (rows, CsTaskRow, i);
      TaskEvent e = { r->ts, r->duration, r->cpu, EVENT_WAKEUP, r->state, FALSE };

      if (i == 0 || r->cpu != g_array_index (rows, CsTaskRow, i - 1).cpu)
        g_array_append_val (bounds, n);
      if (r->kind == TK_KIND_RUN || r->kind == TK_KIND_RUN_UNSEEN || r->kind == TK_KIND_SWITCH_IN)
        {
          e.kind = EVENT_SWITCH_IN;
          e.seen = r->kind != TK_KIND_RUN_UNSEEN;
          out[n++] = e;
          if (r->state < 0)
            continue;   /* no recorded end (see TK_KIND_SWITCH_IN) */
          e.kind = EVENT_SWITCH_OUT;
          e.ts = r->ts + r->duration;
          e.duration = 0;
        }
      out[n++] = e;
    }
  g_array_unref (rows);
  g_array_set_size (events, n);
  g_array_append_val (bounds, n);
  for (guint k = 0; k + 1 < bounds->len; k++)
    {
      guint from = g_array_index (bounds, guint, k);

      sort_cpu_events (&g_array_index (events, TaskEvent, from),
                       g_array_index (bounds, guint, k + 1) - from);
    }
  if (bounds->len <= 2)
    return events;

  other = g_array_sized_new (FALSE, FALSE, sizeof (TaskEvent), events->len);
  g_array_set_size (other, events->len);
  while (bounds->len > 2)
    {
      guint *b = (guint *) (gpointer) bounds->data;
      guint n_seq = bounds->len - 1, kept = 0;
      GArray *swap;

      for (guint k = 0; k < n_seq; k += 2)
        {
          TaskEvent *from = &g_array_index (events, TaskEvent, b[k]);
          TaskEvent *to = &g_array_index (other, TaskEvent, b[k]);

          if (k + 1 < n_seq)
            merge_events (from, b[k + 1] - b[k], &g_array_index (events, TaskEvent, b[k + 1]),
                          b[k + 2] - b[k + 1], to);
          else
            memcpy (to, from, (b[k + 1] - b[k]) * sizeof *from);
          b[kept++] = b[k];
        }
      b[kept++] = b[n_seq];
      g_array_set_size (bounds, kept);
      swap = events;
      events = other;
      other = swap;
    }
  g_array_unref (other);
  return events;
}

/* Gives @func the wait open in @rule, if any, with no run. */
static void
report_open (const CsPluginWakeupState *rule,
             CsTaskWaitFunc             func,
             gpointer                   user_data)
{
  CsPluginWakeupWait open = { rule->wakeup_ns, -1, -1 };

  if (func != NULL && rule->phase == CS_PLUGIN_WAKEUP_WOKEN)
    func (&open, user_data);
}

/* _cs_document_walk_task() over the task's @rows (read for the span;
 * freed). */
static void
walk_rows (CsDocument     *self,
           GArray         *rows,
           gint64          begin_ns,
           gint64          end_ns,
           GArray         *intervals,
           CsTaskWaitFunc  func,
           gpointer        user_data)
{
  g_autoptr(GArray) events = rows_to_events (rows);
  CsPluginWakeupState rule = { 0 };
  CsPluginWakeupWait wait;
  CsTaskState state = CS_TASK_OTHER;
  gboolean known = FALSE, cut = FALSE;
  gint64 since = 0, wakeup = -1;
  gint32 cpu = -1;

  for (guint i = 0; i < events->len; i++)
    {
      const TaskEvent *e = &g_array_index (events, TaskEvent, i);
      gboolean ended = FALSE;

      /* Past the span other CPUs' rows may be missing: say which wait
       * was open there, and report no later one. */
      if (!cut && e->ts >= end_ns)
        {
          cut = TRUE;
          report_open (&rule, func, user_data);
        }
      switch (e->kind)
        {
        case EVENT_SWITCH_IN:
          if (e->seen)
            ended = cs_plugin_wakeup_switch_in (&rule, e->ts, e->cpu, &wait);
          if (ended && !cut && func != NULL)
            func (&wait, user_data);
          if (intervals != NULL && known && state != CS_TASK_RUNNING)
            emit (intervals, since, e->ts, begin_ns, end_ns, state, cpu,
                  ended ? wait.wakeup_ns : -1);
          if (intervals != NULL)
            emit (intervals, e->ts, e->ts + e->duration, begin_ns, end_ns, CS_TASK_RUNNING, e->cpu, -1);
          state = CS_TASK_RUNNING;
          known = TRUE;
          cpu = e->cpu;
          break;
        case EVENT_SWITCH_OUT:
          cs_plugin_wakeup_switch_out (&rule, e->state);
          state = state_after_switch_out (e->state);
          since = e->ts;
          wakeup = -1;
          cpu = e->cpu;
          break;
        case EVENT_WAKEUP:
        default:
          if (!cs_plugin_wakeup_wake (&rule, e->ts))
            break;
          if (intervals != NULL && known)
            emit (intervals, since, e->ts, begin_ns, end_ns, state, cpu, -1);
          since = e->ts;
          wakeup = e->ts;
          state = CS_TASK_RUNNABLE;
          known = TRUE;
          break;
        }
    }
  if (!cut)
    report_open (&rule, func, user_data);
  /* The last state lasts until the end of the recording. */
  if (intervals != NULL && known && state != CS_TASK_RUNNING && state != CS_TASK_OTHER)
    emit (intervals, since, MAX (self->last_ns, since), begin_ns, end_ns, state, cpu,
          state == CS_TASK_RUNNABLE ? wakeup : -1);
}

gboolean
_cs_document_walk_task (CsDocument     *self,
                        gint32          pid,
                        gint64          begin_ns,
                        gint64          end_ns,
                        GArray         *intervals,
                        CsTaskWaitFunc  func,
                        gpointer        user_data,
                        GError        **error)
{
  g_autoptr(GArray) rows = NULL;

  if (pid <= 0 || begin_ns >= end_ns)
    return TRUE;
  rows = g_array_new (FALSE, FALSE, sizeof (CsTaskRow));
  if (!_cs_document_read_task_rows (self, pid, begin_ns, end_ns, rows, error))
    return FALSE;
  walk_rows (self, g_steal_pointer (&rows), begin_ns, end_ns, intervals, func, user_data);
  return TRUE;
}

/* A walk's intervals kept for the next query of the same task: a
 * critical path or a wakeup chain asks a task for many short spans, most
 * of which read the same chunks (a chunk holds 1,024 rows).  The
 * intervals of a walk depend on its span only through the chunks it
 * reads and through which of them overlap it; so a walk of the chunks
 * with an unbounded span, kept, answers every span that reads the same
 * chunks with its overlapping intervals. */
typedef struct {
  gint32 pid;
  GArray *chunks;               /* CsTaskChunkRef */
  GArray *intervals;            /* CsTaskInterval, in time order, one after another */
} TaskWalk;

/* Walks kept (round robin), and the most chunks a kept walk reads. */
#define TASK_WALKS_MAX 8
#define TASK_WALK_MAX_CHUNKS 8

static void
task_walk_free (TaskWalk *w)
{
  g_array_unref (w->chunks);
  g_array_unref (w->intervals);
  g_free (w);
}

static gboolean
same_chunks (GArray *a,
             GArray *b)
{
  /* Not memcmp() of no bytes: an empty array's data may be NULL. */
  return a->len == b->len &&
         (a->len == 0 || memcmp (a->data, b->data, (gsize) a->len * sizeof (CsTaskChunkRef)) == 0);
}

/* Whether @iv's intervals follow one another (each begins where or after
 * the one before ends): then those overlapping a span are one run of
 * them, found by bisection. */
static gboolean
follow_one_another (GArray *iv)
{
  for (guint i = 1; i < iv->len; i++)
    if (g_array_index (iv, CsTaskInterval, i).begin_ns <
        g_array_index (iv, CsTaskInterval, i - 1).end_ns)
      return FALSE;
  return TRUE;
}

/* Appends to @out the intervals of @iv that overlap [@begin_ns,
 * @end_ns): found by bisection when they follow one another
 * (follow_one_another()), else one by one. */
static void
append_overlapping (GArray   *iv,
                    gboolean  ordered,
                    gint64    begin_ns,
                    gint64    end_ns,
                    GArray   *out)
{
  guint lo = 0, hi = iv->len;

  while (ordered && lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (iv, CsTaskInterval, mid).end_ns <= begin_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < iv->len; i++)
    {
      const CsTaskInterval *x = &g_array_index (iv, CsTaskInterval, i);

      if (ordered && x->begin_ns >= end_ns)
        break;
      if (x->end_ns > begin_ns && x->begin_ns < end_ns)
        g_array_append_val (out, *x);
    }
}

/* cs_document_get_task_intervals() through the kept walks. */
static gboolean
get_intervals_kept (CsDocument  *self,
                    gint32       pid,
                    gint64       begin_ns,
                    gint64       end_ns,
                    GArray      *intervals,
                    GError     **error)
{
  g_autoptr(GArray) chunks = g_array_new (FALSE, FALSE, sizeof (CsTaskChunkRef));
  g_autoptr(GArray) rows = NULL;
  gboolean ordered;
  TaskWalk *w;

  if (!_cs_document_select_task_chunks (self, pid, begin_ns, end_ns, chunks, error))
    return FALSE;
  /* No rows of the task up to the span's end: nothing to walk or keep
   * (a critical path's windows before a task's first run). */
  if (chunks->len == 0)
    return TRUE;
  for (guint i = 0; self->task_walks != NULL && i < self->task_walks->len; i++)
    {
      w = g_ptr_array_index (self->task_walks, i);
      if (w->pid == pid && same_chunks (w->chunks, chunks))
        {
          append_overlapping (w->intervals, TRUE, begin_ns, end_ns, intervals);
          return TRUE;
        }
    }
  rows = g_array_new (FALSE, FALSE, sizeof (CsTaskRow));
  if (!_cs_document_read_task_chunks (self, chunks, rows, error))
    return FALSE;
  /* Too many chunks to keep: the walk of the span itself. */
  if (chunks->len > TASK_WALK_MAX_CHUNKS)
    {
      walk_rows (self, g_steal_pointer (&rows), begin_ns, end_ns, intervals, NULL, NULL);
      return TRUE;
    }
  w = g_new0 (TaskWalk, 1);
  w->pid = pid;
  w->chunks = g_steal_pointer (&chunks);
  w->intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  walk_rows (self, g_steal_pointer (&rows), G_MININT64, G_MAXINT64, w->intervals, NULL, NULL);
  ordered = follow_one_another (w->intervals);
  append_overlapping (w->intervals, ordered, begin_ns, end_ns, intervals);
  /* Intervals that overlap (events were lost) are not kept. */
  if (!ordered)
    {
      task_walk_free (w);
      return TRUE;
    }
  if (self->task_walks == NULL)
    self->task_walks = g_ptr_array_new_with_free_func ((GDestroyNotify) task_walk_free);
  if (self->task_walks->len < TASK_WALKS_MAX)
    g_ptr_array_add (self->task_walks, w);
  else
    {
      task_walk_free (g_ptr_array_index (self->task_walks, self->task_walk_next));
      g_ptr_array_index (self->task_walks, self->task_walk_next) = w;
      self->task_walk_next = (self->task_walk_next + 1) % TASK_WALKS_MAX;
    }
  return TRUE;
}

/**
 * cs_document_get_task_intervals:
 * @self: a document
 * @pid: the task
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @intervals: (element-type CsTaskInterval): receives, in time order, the
 *   intervals overlapping the span (not clipped)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * What @pid did during the span, from sched_switch and sched_waking /
 * sched_wakeup (see the file comment for the rules; wakeups follow the
 * rule of cs-plugin-wakeup.h).  Reads only that task's rows of the index.
 * Before the first event that says what the task did, nothing is
 * reported.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_task_intervals (CsDocument *self,
                                gint32      pid,
                                gint64      begin_ns,
                                gint64      end_ns,
                                GArray     *intervals,
                                GError    **error)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (intervals != NULL, FALSE);

  if (pid <= 0 || begin_ns >= end_ns)
    return TRUE;
  /* From the recording's start (a whole task plot): one read, not kept. */
  if (begin_ns <= self->first_ns)
    return _cs_document_walk_task (self, pid, begin_ns, end_ns, intervals, NULL, NULL, error);
  return get_intervals_kept (self, pid, begin_ns, end_ns, intervals, error);
}
