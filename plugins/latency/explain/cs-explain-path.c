/* cs-explain-path.c: a task's critical path over a span (cs-explain.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * As Trace Compass computes it for LTTng kernel traces (its "critical
 * path" analysis, after Giraldeau and Dagenais, "Wait analysis of
 * distributed systems using kernel tracing", IEEE TPDS 2016): while the
 * task runs or waits for a CPU, the path is the task; while it is
 * blocked, the path follows the task that woke it, over the time it was
 * blocked, recursively.  A wakeup from an interrupt ends the recursion
 * (the segment is "interrupt"), as do the idle task and the depth limit
 * ("blocked").  The task's states come from the index's task intervals
 * (cs_plugin_document_get_task_intervals()); wakers from the wake
 * events' common_pid.
 */
#include "cs-explain-private.h"

#define IRQ_FLAGS 0x58          /* TRACE_FLAG_HARDIRQ | SOFTIRQ | NMI */

/* A task's intervals are read a window at a time, so that a path over a
 * whole recording holds one window's intervals per depth, not the
 * task's every interval (2.8 million for the busiest task of the large
 * benchmark recording).  100 ms holds about 7,000 of them there. */
#define PATH_WINDOW_NS G_GINT64_CONSTANT (100000000)

typedef struct {
  CsPluginDocument *document;
  guint max_depth;
  CsExplainPathFunc func;
  gpointer user_data;
  /* The last segment, held back: the next one may continue it. */
  CsExplainPathSegment last;
  gboolean has_last;
} PathWalk;

static gboolean
emit (PathWalk            *walk,
      gint64               begin_ns,
      gint64               end_ns,
      gint32               pid,
      CsExplainPathState   state,
      gint32               cpu,
      guint                depth,
      GError             **error)
{
  CsExplainPathSegment seg = { begin_ns, end_ns, pid, state, cpu, depth };
  CsExplainPathSegment *last = &walk->last;

  if (end_ns <= begin_ns)
    return TRUE;
  if (walk->has_last && last->pid == pid && last->state == state && last->cpu == cpu &&
      last->depth == depth && last->end_ns == begin_ns)
    {
      last->end_ns = end_ns;
      return TRUE;
    }
  if (walk->has_last && !walk->func (last, walk->user_data, error))
    return FALSE;
  walk->last = seg;
  walk->has_last = TRUE;
  return TRUE;
}

static gboolean
follow (PathWalk  *walk,
        gint32     pid,
        gint64     begin_ns,
        gint64     end_ns,
        guint      depth,
        GError   **error)
{
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));
  gint64 cursor = begin_ns;
  /* A blocked interval that crosses a window's edge comes in both
   * windows: its waker is looked up once. */
  gint64 asked_ns = G_MININT64;
  gboolean found = FALSE;
  CsExplainWaking waking = { 0, };

  for (gint64 w0 = begin_ns, w1; w0 < end_ns && pid > 0; w0 = w1)
    {
      w1 = end_ns - w0 > PATH_WINDOW_NS ? w0 + PATH_WINDOW_NS : end_ns;
      g_array_set_size (iv, 0);
      if (!cs_plugin_document_get_task_intervals (walk->document, pid, w0, w1, iv, error))
        return FALSE;
      for (guint i = 0; i < iv->len && cursor < w1; i++)
        {
          const CsPluginTaskInterval *x = &g_array_index (iv, CsPluginTaskInterval, i);
          gint64 s = MAX (x->begin_ns, cursor), e = MIN (x->end_ns, w1);
          g_autoptr(GError) local_error = NULL;
          gboolean ok;

          if (e <= s)
            continue;
          if (!emit (walk, cursor, s, pid, CS_EXPLAIN_PATH_UNKNOWN, -1, depth, error))
            return FALSE;
          cursor = e;
          if (x->state == CS_PLUGIN_TASK_RUNNING || x->state == CS_PLUGIN_TASK_RUNNABLE)
            {
              CsExplainPathState state = x->state == CS_PLUGIN_TASK_RUNNING
                                         ? CS_EXPLAIN_PATH_RUNNING : CS_EXPLAIN_PATH_RUNNABLE;

              if (!emit (walk, s, e, pid, state, x->cpu, depth, error))
                return FALSE;
              continue;
            }
          /* Blocked: who woke the task at the interval's end? */
          if (asked_ns != x->end_ns)
            {
              found = _cs_explain_find_waking (walk->document, pid, x->end_ns, &waking, &local_error);
              if (local_error != NULL)
                {
                  g_propagate_error (error, g_steal_pointer (&local_error));
                  return FALSE;
                }
              asked_ns = x->end_ns;
            }
          if (!found)
            ok = emit (walk, s, e, pid, CS_EXPLAIN_PATH_BLOCKED, x->cpu, depth, error);
          else if (waking.flags & IRQ_FLAGS)
            ok = emit (walk, s, e, pid, CS_EXPLAIN_PATH_INTERRUPT, waking.cpu, depth, error);
          else if (waking.waker_pid <= 0 || waking.waker_pid == pid ||
                   depth + 1 >= walk->max_depth)
            ok = emit (walk, s, e, pid, CS_EXPLAIN_PATH_BLOCKED, x->cpu, depth, error);
          else
            ok = follow (walk, waking.waker_pid, s, e, depth + 1, error);
          if (!ok)
            return FALSE;
        }
    }
  return emit (walk, cursor, end_ns, pid, CS_EXPLAIN_PATH_UNKNOWN, -1, depth, error);
}

/**
 * cs_explain_critical_path_foreach:
 * @document: a recording
 * @pid: the task (not 0)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive), > @begin_ns
 * @max_depth: how many wakers deep the path may follow (8 is a good
 *   default; 1 never leaves @pid)
 * @func: called with each segment, in time order; the segments tile the
 *   span.  It returns %FALSE with its error set to stop the walk.
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read, or the
 *   error @func set
 *
 * The critical path of @pid over [@begin_ns, @end_ns): what, at each
 * moment, the task's progress waited on (see the file comment).  The
 * segments are handed over as they are found, and the task's intervals
 * are read 100 ms at a time, so that a path over a whole recording runs
 * in memory bounded by the depth, not by the recording's length.
 *
 * Returns: %TRUE when the whole span was walked
 */
gboolean
cs_explain_critical_path_foreach (CsPluginDocument   *document,
                                  gint32              pid,
                                  gint64              begin_ns,
                                  gint64              end_ns,
                                  guint               max_depth,
                                  CsExplainPathFunc   func,
                                  gpointer            user_data,
                                  GError            **error)
{
  PathWalk walk = { document, MAX (max_depth, 1), func, user_data };

  if (!follow (&walk, pid, begin_ns, end_ns, 0, error))
    return FALSE;
  return !walk.has_last || func (&walk.last, user_data, error);
}
