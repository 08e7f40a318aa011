/* cs-task-timeline.c: cs_document_get_task_intervals().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task's rows (its runs and the wakeups aimed at it) are stored per CPU
 * in time order (task_chunks, see cs-index-schema.c).  A query reads the
 * chunks of that task overlapping the span, plus, per CPU, the chunk
 * before it (to know the state the task was in when the span begins),
 * merges them by time and walks the states:
 *
 *   run [begin, end) on cpu  -> RUNNING; then, from prev_state of the
 *                               sched_switch that ended it: R / R+ ->
 *                               RUNNABLE (preempted), S -> SLEEPING,
 *                               D -> UNINTERRUPTIBLE, others -> OTHER
 *   sched_waking / sched_wakeup while not running -> RUNNABLE from then,
 *                               with the wakeup time kept (wakeup latency)
 *
 * prev_state bits are those of include/trace/events/sched.h: 0x01
 * TASK_INTERRUPTIBLE (S), 0x02 TASK_UNINTERRUPTIBLE (D), 0x80
 * TASK_REPORT_IDLE (I, an idle kernel thread); a value whose low byte is 0
 * means the task was still runnable (R, or R+ with TASK_REPORT_MAX 0x100
 * set when preempted).
 */
#include "config.h"
#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-task-timeline.h"

typedef struct {
  gint64 ts;
  gint64 duration;
  gint32 kind;
  gint32 state;
  gint32 cpu;
} TaskRow;

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const TaskRow *ra = a, *rb = b;

  if (ra->ts != rb->ts)
    return ra->ts < rb->ts ? -1 : 1;
  /* A wakeup at the very time of a switch-in comes first. */
  return rb->kind - ra->kind;
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
  g_array_sort (rows, compare_rows);
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
 * sched_wakeup (see the file comment for the rules).  Reads only that
 * task's rows of the index.  Before the first event that says what the
 * task did, nothing is reported.
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
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (TaskRow));
  CsTaskState state = CS_TASK_OTHER;
  gboolean known = FALSE;
  gint64 since = 0, wakeup = -1;
  gint32 cpu = -1;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  if (pid <= 0 || begin_ns >= end_ns)
    return TRUE;
  if (!read_rows (self, pid, begin_ns, end_ns, rows, error))
    return FALSE;

  for (guint i = 0; i < rows->len; i++)
    {
      const TaskRow *r = &g_array_index (rows, TaskRow, i);

      if (r->kind == TK_KIND_RUN)
        {
          if (known && state != CS_TASK_RUNNING)
            emit (intervals, since, r->ts, begin_ns, end_ns, state, cpu,
                  state == CS_TASK_RUNNABLE ? wakeup : -1);
          emit (intervals, r->ts, r->ts + r->duration, begin_ns, end_ns,
                CS_TASK_RUNNING, r->cpu, -1);
          cpu = r->cpu;
          since = r->ts + r->duration;
          wakeup = -1;
          known = r->state >= 0;
          state = state_after_switch_out (r->state);
        }
      else if (!known || state != CS_TASK_RUNNABLE || wakeup < 0)
        {
          /* A wakeup while sleeping (or before anything is known) starts a
           * runnable wait; a sched_wakeup after its sched_waking does not
           * restart it.  A wakeup of a preempted task changes nothing. */
          if (known && state == CS_TASK_RUNNABLE)
            continue;
          if (known)
            emit (intervals, since, r->ts, begin_ns, end_ns, state, cpu, -1);
          since = r->ts;
          wakeup = r->ts;
          state = CS_TASK_RUNNABLE;
          known = TRUE;
        }
    }
  /* The last state lasts until the end of the recording. */
  if (known && state != CS_TASK_RUNNING && state != CS_TASK_OTHER)
    emit (intervals, since, MAX (self->last_ns, since), begin_ns, end_ns, state, cpu,
          state == CS_TASK_RUNNABLE ? wakeup : -1);
  return TRUE;
}
