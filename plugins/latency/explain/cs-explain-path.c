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

static void
emit (GArray             *out,
      gint64              begin_ns,
      gint64              end_ns,
      gint32              pid,
      CsExplainPathState  state,
      gint32              cpu,
      guint               depth)
{
  CsExplainPathSegment seg = { begin_ns, end_ns, pid, state, cpu, depth };

  if (end_ns <= begin_ns)
    return;
  if (out->len > 0)
    {
      CsExplainPathSegment *last = &g_array_index (out, CsExplainPathSegment, out->len - 1);

      if (last->pid == pid && last->state == state && last->cpu == cpu &&
          last->depth == depth && last->end_ns == begin_ns)
        {
          last->end_ns = end_ns;
          return;
        }
    }
  g_array_append_val (out, seg);
}

static gboolean
follow (CsPluginDocument *document,
        gint32            pid,
        gint64            begin_ns,
        gint64            end_ns,
        guint             depth,
        guint             max_depth,
        GArray           *out,
        GError          **error)
{
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));
  gint64 cursor = begin_ns;

  if (pid > 0 &&
      !cs_plugin_document_get_task_intervals (document, pid, begin_ns, end_ns, iv, error))
    return FALSE;
  for (guint i = 0; i < iv->len && cursor < end_ns; i++)
    {
      const CsPluginTaskInterval *x = &g_array_index (iv, CsPluginTaskInterval, i);
      gint64 s = MAX (x->begin_ns, cursor), e = MIN (x->end_ns, end_ns);
      CsExplainWaking waking;
      g_autoptr(GError) local_error = NULL;

      if (e <= s)
        continue;
      emit (out, cursor, s, pid, CS_EXPLAIN_PATH_UNKNOWN, -1, depth);
      cursor = e;
      if (x->state == CS_PLUGIN_TASK_RUNNING)
        {
          emit (out, s, e, pid, CS_EXPLAIN_PATH_RUNNING, x->cpu, depth);
          continue;
        }
      if (x->state == CS_PLUGIN_TASK_RUNNABLE)
        {
          emit (out, s, e, pid, CS_EXPLAIN_PATH_RUNNABLE, x->cpu, depth);
          continue;
        }
      /* Blocked: who woke the task at the interval's end? */
      if (!_cs_explain_find_waking (document, pid, x->end_ns, &waking, &local_error))
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          emit (out, s, e, pid, CS_EXPLAIN_PATH_BLOCKED, x->cpu, depth);
          continue;
        }
      if (waking.flags & IRQ_FLAGS)
        emit (out, s, e, pid, CS_EXPLAIN_PATH_INTERRUPT, waking.cpu, depth);
      else if (waking.waker_pid <= 0 || waking.waker_pid == pid || depth + 1 >= max_depth)
        emit (out, s, e, pid, CS_EXPLAIN_PATH_BLOCKED, x->cpu, depth);
      else if (!follow (document, waking.waker_pid, s, e, depth + 1, max_depth, out, error))
        return FALSE;
    }
  emit (out, cursor, end_ns, pid, CS_EXPLAIN_PATH_UNKNOWN, -1, depth);
  return TRUE;
}

/**
 * cs_explain_critical_path:
 * @document: a recording
 * @pid: the task (not 0)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive), > @begin_ns
 * @max_depth: how many wakers deep the path may follow (8 is a good
 *   default; 1 never leaves @pid)
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * The critical path of @pid over [@begin_ns, @end_ns): what, at each
 * moment, the task's progress waited on (see the file comment).
 *
 * Returns: (transfer full) (element-type CsExplainPathSegment)
 *   (nullable): the segments, in time order, tiling the span
 */
GArray *
cs_explain_critical_path (CsPluginDocument *document,
                          gint32            pid,
                          gint64            begin_ns,
                          gint64            end_ns,
                          guint             max_depth,
                          GError          **error)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (CsExplainPathSegment));

  if (!follow (document, pid, begin_ns, end_ns, 0, MAX (max_depth, 1), out, error))
    return NULL;
  return g_steal_pointer (&out);
}
