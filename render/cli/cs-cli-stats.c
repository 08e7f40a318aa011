/* cs-cli-stats.c: `chronoscope stats FILE [--begin NS --end NS] [--json]
 * [--compare FILE2]`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Prints what cs_document_compute_range_stats() computes for a span (by
 * default the whole recording): per task CPU time and share, per CPU busy
 * time and events, events per type, and the wakeup latency summary.  The
 * text lists the TOP longest-running tasks (--top, default 20); --json
 * lists every task.
 *
 * With --compare B.dat, the statistics of both recordings side by side
 * (cs-compare-table.c): A, B, B − A and the change in percent.  --begin
 * and --end then name a span of A; B's span is the same span relative to
 * B's first event (the recordings aligned at their starts).
 */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "cs-cli-private.h"
#include "cs-cli-progress.h"
#include "cs-compare-table.h"
#include "cs-format.h"
#include "cs-range-stats.h"
#include "cs-range-stats-text.h"

#define DEFAULT_TOP 20

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static char *
stats_json (CsDocument         *doc,
            const CsRangeStats *st)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_int (b, "begin_ns", st->begin_ns);
  add_int (b, "end_ns", st->end_ns);
  json_builder_set_member_name (b, "whole");
  json_builder_add_boolean_value (b, st->whole);
  add_int (b, "n_events", st->n_events);

  json_builder_set_member_name (b, "tasks");
  json_builder_begin_array (b);
  for (guint i = 0; i < st->tasks->len; i++)
    {
      const CsTaskTime *t = &g_array_index (st->tasks, CsTaskTime, i);

      json_builder_begin_object (b);
      add_int (b, "pid", t->pid);
      json_builder_set_member_name (b, "comm");
      json_builder_add_string_value (b, cs_document_get_comm (doc, t->pid));
      add_int (b, "runtime_ns", t->runtime_ns);
      json_builder_set_member_name (b, "share");
      json_builder_add_double_value (b, t->share);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "cpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < st->cpus->len; i++)
    {
      const CsCpuBusy *c = &g_array_index (st->cpus, CsCpuBusy, i);

      json_builder_begin_object (b);
      add_int (b, "cpu", c->cpu);
      add_int (b, "busy_ns", c->busy_ns);
      add_int (b, "n_events", c->n_events);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "event_types");
  json_builder_begin_array (b);
  for (guint i = 0; i < st->event_types->len; i++)
    {
      const CsTypeCount *c = &g_array_index (st->event_types, CsTypeCount, i);
      const CsEventType *type = cs_document_get_event_type (doc, c->type_id);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "system");
      json_builder_add_string_value (b, type->system);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, type->name);
      add_int (b, "n_events", c->n_events);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "wakeup_latency");
  json_builder_begin_object (b);
  add_int (b, "count", st->wakeups.count);
  add_int (b, "min_ns", st->wakeups.min_ns);
  add_int (b, "p50_ns", st->wakeups.p50_ns);
  add_int (b, "p90_ns", st->wakeups.p90_ns);
  add_int (b, "p99_ns", st->wakeups.p99_ns);
  add_int (b, "max_ns", st->wakeups.max_ns);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return cs_format_json (b);
}

/* B's span: the one of A, relative to each recording's first event. */
static gint64
aligned_ns (CsDocument *a,
            CsDocument *b,
            gint64      a_ns)
{
  if (a_ns == G_MININT64 || a_ns == G_MAXINT64)
    return a_ns;
  return cs_document_get_first_ns (b) + (a_ns - cs_document_get_first_ns (a));
}

/* `stats A --compare B`: both computed, then printed side by side. */
static int
print_comparison (CsDocument   *document,
                  CsRangeStats *stats,
                  const char   *path_b,
                  gint64        begin_ns,
                  gint64        end_ns,
                  gboolean      json,
                  int           top)
{
  g_autoptr(CsDocument) doc_b = _cs_cli_load_document ("stats", path_b);
  g_autoptr(CsRangeStats) stats_b = NULL;
  g_autoptr(CsCompareTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (doc_b == NULL)
    return 1;
  stats_b = cs_document_compute_range_stats (doc_b, aligned_ns (document, doc_b, begin_ns),
                                             aligned_ns (document, doc_b, end_ns), NULL, &error);
  if (stats_b == NULL)
    {
      _cs_cli_fail_file ("stats", path_b, error);
      return 1;
    }
  table = cs_compare_table_new (document, stats, doc_b, stats_b);
  if (json)
    {
      text = cs_compare_table_to_json (table);
      g_print ("%s\n", text);
    }
  else
    {
      text = cs_compare_table_to_text (table, (guint) top);
      fputs (text, stdout);
    }
  return 0;
}

int
cs_cli_stats (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("FILE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsRangeStats) stats = NULL;
  gint64 begin_ns = G_MININT64, end_ns = G_MAXINT64;
  g_autofree char *compare = NULL;
  gboolean json = FALSE;
  int top = DEFAULT_TOP;
  GOptionEntry entries[] = {
    { "begin", 0, 0, G_OPTION_ARG_INT64, &begin_ns, N_("Start of the span, ns in the trace clock (default: the first event)"), N_("NS") },
    { "end", 0, 0, G_OPTION_ARG_INT64, &end_ns, N_("End of the span, exclusive (default: just after the last event)"), N_("NS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the statistics as JSON (every task)"), NULL },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, N_("Tasks to list in the text (default: 20)"), N_("N") },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare, N_("Compare with the recording FILE2: A, B, B − A and % (the span of B aligned at its first event)"), N_("FILE2") },
    { NULL }
  };

  g_set_prgname ("chronoscope stats");
  g_option_context_set_summary (context,
      _("Statistics of a recording or of a span of it: per task CPU time and share, per "
        "CPU busy time, events per type, and the wakeup latency summary."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "chronoscope stats: %s\n", error->message);
      return 1;
    }
  if (argc != 2)
    {
      fprintf (stderr, "chronoscope stats: %s\n", argc < 2 ? _("Missing FILE argument (see --help)")
                                                          : _("Too many arguments (see --help)"));
      return 1;
    }
  if (begin_ns >= end_ns || top < 0)
    {
      fprintf (stderr, "chronoscope stats: %s\n",
               top < 0 ? _("--top must be 0 or more") : _("--begin must be before --end"));
      return 1;
    }

  document = _cs_cli_load_document ("stats", argv[1]);
  if (document == NULL)
    return 1;
  {
    g_autofree char *basename = g_path_get_basename (argv[1]);
    /* TRANSLATORS: the progress line on stderr, %s is the file's name */
    g_autofree char *label = g_strdup_printf (_("Computing the statistics of %s"), basename);
    g_autoptr(CsCliProgress) progress = cs_cli_progress_new_activity (label);

    stats = cs_document_compute_range_stats (document, begin_ns, end_ns, NULL, &error);
  }
  if (stats == NULL)
    {
      _cs_cli_fail_file ("stats", argv[1], error);
      return 1;
    }
  if (compare != NULL)
    return print_comparison (document, stats, compare, begin_ns, end_ns, json, top);
  if (json)
    {
      g_autofree char *text = stats_json (document, stats);
      g_print ("%s\n", text);
    }
  else
    {
      g_autofree char *text = cs_range_stats_to_text (document, stats, (guint) top);
      fputs (text, stdout);
    }
  return 0;
}
