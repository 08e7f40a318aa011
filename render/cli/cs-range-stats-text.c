/* cs-range-stats-text.c: statistics of a span as text, for the CLI and
 * the statistics window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-range-stats-text.h"

/**
 * cs_range_stats_to_text:
 * @doc: the document @st was computed on
 * @st: statistics
 * @top: how many tasks to list (the longest-running)
 *
 * The statistics as `chronoscope stats` prints them and the statistics
 * window shows them: the span, the tasks, the CPUs, the events per type
 * and the wakeup latency summary, one table each.
 *
 * Returns: (transfer full): the text, lines ending in newlines
 */
char *
cs_range_stats_to_text (CsDocument         *doc,
                        const CsRangeStats *st,
                        guint               top)
{
  GString *out = g_string_new (NULL);
  g_autofree char *span = cs_format_duration (st->end_ns - st->begin_ns);
  g_autofree char *n_events = cs_format_count (st->n_events);
  int comm_width = 4;

  g_string_append_printf (out, _("Span: [%" PRId64 ", %" PRId64 ") ns, %s%s\n"),
           st->begin_ns, st->end_ns, span, st->whole ? _(" (the whole recording)") : "");
  g_string_append_printf (out, _("Events: %s\n"), n_events);

  for (guint i = 0; i < MIN (top, st->tasks->len); i++)
    comm_width = MAX (comm_width, (int) strlen (cs_document_get_comm (doc, g_array_index (st->tasks, CsTaskTime, i).pid)));
  g_string_append_printf (out, "\n%s\n", _("Tasks by CPU time (share of the span's CPU time):"));
  g_string_append_printf (out, "  %8s  %-*s  %12s  %7s\n", _("PID"), comm_width, _("COMM"), _("CPU TIME"), _("SHARE"));
  for (guint i = 0; i < MIN (top, st->tasks->len); i++)
    {
      const CsTaskTime *t = &g_array_index (st->tasks, CsTaskTime, i);
      g_autofree char *time = cs_format_duration (t->runtime_ns);

      g_string_append_printf (out, "  %8d  %-*s  %12s  %6.2f%%\n", t->pid, comm_width, cs_document_get_comm (doc, t->pid),
               time, 100.0 * t->share);
    }
  if (st->tasks->len > top)
    g_string_append_printf (out, ngettext ("  … and %u more task\n", "  … and %u more tasks\n", st->tasks->len - top),
             st->tasks->len - top);

  g_string_append_printf (out, "\n%s\n", _("CPUs:"));
  g_string_append_printf (out, "  %4s  %12s  %7s  %12s\n", _("CPU"), _("BUSY"), _("BUSY %"), _("EVENTS"));
  for (guint i = 0; i < st->cpus->len; i++)
    {
      const CsCpuBusy *c = &g_array_index (st->cpus, CsCpuBusy, i);
      g_autofree char *busy = cs_format_duration (c->busy_ns);
      double span_ns = MAX (st->end_ns - st->begin_ns, 1);

      g_string_append_printf (out, "  %4u  %12s  %6.2f%%  %12" G_GUINT64_FORMAT "\n", c->cpu, busy,
               100.0 * c->busy_ns / span_ns, c->n_events);
    }

  g_string_append_printf (out, "\n%s\n", _("Events per type:"));
  for (guint i = 0; i < st->event_types->len; i++)
    {
      const CsTypeCount *c = &g_array_index (st->event_types, CsTypeCount, i);
      const CsEventType *type = cs_document_get_event_type (doc, c->type_id);
      g_autofree char *key = g_strdup_printf ("%s:%s", type->system, type->name);

      g_string_append_printf (out, "  %-40s %12" G_GUINT64_FORMAT "\n", key, c->n_events);
    }

  g_string_append_printf (out, "\n%s\n", _("Wakeup latency (sched_waking or sched_wakeup to sched_switch):"));
  if (st->wakeups.count == 0)
    g_string_append_printf (out, "  %s\n", _("no wakeups in the span"));
  else
    {
      g_autofree char *min = cs_format_duration (st->wakeups.min_ns);
      g_autofree char *p50 = cs_format_duration (st->wakeups.p50_ns);
      g_autofree char *p90 = cs_format_duration (st->wakeups.p90_ns);
      g_autofree char *p99 = cs_format_duration (st->wakeups.p99_ns);
      g_autofree char *max = cs_format_duration (st->wakeups.max_ns);

      g_string_append_printf (out, _("  count %" PRIu64 ", min %s, p50 %s, p90 %s, p99 %s, max %s\n"),
               st->wakeups.count, min, p50, p90, p99, max);
    }
  return g_string_free (out, FALSE);
}
