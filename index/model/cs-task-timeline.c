/* cs-task-timeline.c: cs_document_get_task_intervals() and
 * _cs_document_walk_task(), the wakeup latencies of a task.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task's rows (its runs and the wakeups aimed at it) are stored per CPU
 * in time order (task_chunks, see cs-index-schema.c).  A query reads the
 * chunks of that task overlapping the span, plus, per CPU, the chunk
 * before it (to know the state the task was in when the span begins),
 * and turns them into the task's events, merged by time (ties in CPU
 * order, then switch-out, wakeup, switch-in):
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

#include <cs-plugin-wakeup.h>

#include "cs-document-private.h"
#include "cs-task-timeline.h"
#include "cs-task-timeline-private.h"

typedef struct {
  gint64 ts;
  gint64 duration;
  gint32 kind;
  gint32 state;
  gint32 cpu;
} TaskRow;

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

static gboolean
read_rows (CsDocument  *self,
           gint32       pid,
           gint64       begin_ns,
           gint64       end_ns,
           GArray      *rows,
           GError     **error)
{
  g_autofree gint64 *mem = g_new (gint64, (gsize) TK_N_COLUMNS * CS_TASK_CHUNK_ROWS);
  gint64 *cols[TK_N_COLUMNS];
  sqlite3_stmt *s;
  /* Per CPU, the latest chunk ending before the span: decoded only if no
   * chunk of that CPU overlaps the span's start. */
  g_autoptr(GHashTable) before = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_bytes_unref);
  g_autoptr(GHashTable) before_n = g_hash_table_new (NULL, NULL);
  int rc;

  for (guint c = 0; c < TK_N_COLUMNS; c++)
    cols[c] = mem + c * CS_TASK_CHUNK_ROWS;

  if (self->task_range == NULL)
    {
      self->task_range = _cs_sqlite_prepare (self->db,
          "SELECT cpu, last_ns, n_rows, data FROM task_chunks"
          " WHERE pid = ?1 AND first_ns < ?2 ORDER BY cpu, chunk", error);
      if (self->task_range == NULL)
        return FALSE;
    }
  s = self->task_range;
  sqlite3_bind_int (s, 1, pid);
  sqlite3_bind_int64 (s, 2, end_ns);

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint32 cpu = sqlite3_column_int (s, 0);
      gint64 last = sqlite3_column_int64 (s, 1);
      guint n = sqlite3_column_int (s, 2);
      const guint8 *data;
      gsize size;

      if (n == 0 || n > CS_TASK_CHUNK_ROWS)
        {
          sqlite3_reset (s);
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       g_dngettext (GETTEXT_PACKAGE, "The index %s has a task chunk of %u row",
                                    "The index %s has a task chunk of %u rows", n),
                       self->index_path, n);
          return FALSE;
        }
      if (last < begin_ns)
        {
          /* Keep only the latest such chunk of each CPU. */
          g_hash_table_insert (before, GINT_TO_POINTER (cpu),
                               g_bytes_new (sqlite3_column_blob (s, 3), sqlite3_column_bytes (s, 3)));
          g_hash_table_insert (before_n, GINT_TO_POINTER (cpu), GUINT_TO_POINTER (n));
          continue;
        }
      data = sqlite3_column_blob (s, 3);
      size = sqlite3_column_bytes (s, 3);
      if (!cs_chunk_decode (data, size, n, TK_N_COLUMNS, _cs_task_chunk_modes, cols, error))
        {
          sqlite3_reset (s);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          TaskRow r = { cols[TK_TS][i], cols[TK_DURATION][i], (gint32) cols[TK_KIND][i],
                        (gint32) cols[TK_STATE][i], cpu };
          g_array_append_val (rows, r);
        }
    }
  sqlite3_reset (s);
  if (!_cs_sqlite_check (self->db, rc, _("reading task rows"), error))
    return FALSE;

  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (value, &size);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (before_n, key));

      if (!cs_chunk_decode (data, size, n, TK_N_COLUMNS, _cs_task_chunk_modes, cols, error))
        return FALSE;
      for (guint i = 0; i < n; i++)
        {
          TaskRow r = { cols[TK_TS][i], cols[TK_DURATION][i], (gint32) cols[TK_KIND][i],
                        (gint32) cols[TK_STATE][i], GPOINTER_TO_INT (key) };
          g_array_append_val (rows, r);
        }
    }
  return TRUE;
}

/* The task's events from its rows (see the file comment), sorted. */
static void
rows_to_events (GArray *rows,
                GArray *events)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TaskRow *r = &g_array_index (rows, TaskRow, i);
      TaskEvent e = { r->ts, r->duration, r->cpu, EVENT_WAKEUP, r->state, FALSE };

      if (r->kind == TK_KIND_RUN || r->kind == TK_KIND_RUN_UNSEEN || r->kind == TK_KIND_SWITCH_IN)
        {
          e.kind = EVENT_SWITCH_IN;
          e.seen = r->kind != TK_KIND_RUN_UNSEEN;
          g_array_append_val (events, e);
          if (r->state < 0)
            continue;   /* no recorded end (see TK_KIND_SWITCH_IN) */
          e.kind = EVENT_SWITCH_OUT;
          e.ts = r->ts + r->duration;
          e.duration = 0;
        }
      g_array_append_val (events, e);
    }
  g_array_sort (events, compare_events);
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
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (TaskRow));
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (TaskEvent));
  CsPluginWakeupState rule = { 0 };
  CsPluginWakeupWait wait;
  CsTaskState state = CS_TASK_OTHER;
  gboolean known = FALSE, cut = FALSE;
  gint64 since = 0, wakeup = -1;
  gint32 cpu = -1;

  if (pid <= 0 || begin_ns >= end_ns)
    return TRUE;
  if (!read_rows (self, pid, begin_ns, end_ns, rows, error))
    return FALSE;
  rows_to_events (rows, events);

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

  return _cs_document_walk_task (self, pid, begin_ns, end_ns, intervals, NULL, NULL, error);
}
