/* cs-latency-cli.c: `chronoscope latency FILE ...`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Computes (or reuses) the latency pass for a preset or a pair given with
 * --from/--to, then prints the figures the window's page shows: count,
 * min, p50, p90, p99, p99.9, max, the histogram (--histogram) and the
 * worst-first list (--top N), as text or JSON (--json), for the whole
 * recording or a range (--begin/--end, ns in the trace clock).  --add FILE
 * opens more recordings on the same axis, as `render --add` does: a KVM
 * guest's host, so that --explain splits out its vCPUs' time out of the guest.
 */
#include <inttypes.h>
#include <stdio.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-cli.h"
#include "cs-latency-pass.h"
#include "cs-latency-stats.h"
#include "explain/cs-explain-cli.h"

typedef struct {
  char *preset;
  char *from;
  char *to;
  int top;
  gboolean histogram;
  gint64 begin_ns;
  gint64 end_ns;
  gboolean json;
  int explain;                  /* --explain [N]: 0 when not asked */
  int depth;
  gboolean blockers;
  double percentile;
  gint64 threshold_ns;
  char **added;                 /* --add FILE: more recordings on the axis */
} Options;

/* The figures both outputs print: JSON member, text label, where. */
static const struct {
  const char *member;
  const char *label;
  gsize offset;
} figures[] = {
  { "min_ns", "min", G_STRUCT_OFFSET (CsLatencyStats, min_ns) },
  { "p50_ns", "p50", G_STRUCT_OFFSET (CsLatencyStats, p50_ns) },
  { "p90_ns", "p90", G_STRUCT_OFFSET (CsLatencyStats, p90_ns) },
  { "p99_ns", "p99", G_STRUCT_OFFSET (CsLatencyStats, p99_ns) },
  { "p99_9_ns", "p99.9", G_STRUCT_OFFSET (CsLatencyStats, p999_ns) },
  { "max_ns", "max", G_STRUCT_OFFSET (CsLatencyStats, max_ns) },
};

#define FIGURE(stats, i) G_STRUCT_MEMBER (gint64, (stats), figures[i].offset)

static void
build_json (JsonBuilder          *b,
            CsPluginDocument     *doc,
            const Options        *opt,
            const char           *param,
            GPtrArray            *pairs,
            const CsLatencyStats *stats,
            GArray               *worst)
{

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, cs_plugin_document_get_path (doc));
  json_builder_set_member_name (b, "definition");
  json_builder_add_string_value (b, param);
  json_builder_set_member_name (b, "pairs");
  json_builder_begin_array (b);
  for (guint i = 0; i < pairs->len; i++)
    {
      const CsLatencyPairInfo *info = g_ptr_array_index (pairs, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "definition");
      json_builder_add_string_value (b, info->definition);
      cs_plugin_json_add_int (b, "n_a", info->n_a);
      cs_plugin_json_add_int (b, "n_b", info->n_b);
      cs_plugin_json_add_int (b, "n_pairs", info->n_pairs);
      cs_plugin_json_add_int (b, "n_unmatched", info->n_unmatched);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  cs_plugin_json_add_int_or_null (b, "begin_ns", opt->begin_ns, opt->begin_ns != G_MININT64);
  cs_plugin_json_add_int_or_null (b, "end_ns", opt->end_ns, opt->end_ns != G_MAXINT64);
  cs_plugin_json_add_int (b, "count", stats->count);
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    cs_plugin_json_add_int_or_null (b, figures[i].member, FIGURE (stats, i), stats->count > 0);
  if (opt->histogram)
    {
      json_builder_set_member_name (b, "histogram");
      json_builder_begin_array (b);
      for (guint i = 0; i < stats->histogram->len; i++)
        {
          const CsLatencyBucket *bar = &g_array_index (stats->histogram, CsLatencyBucket, i);

          json_builder_begin_object (b);
          cs_plugin_json_add_int (b, "lo_ns", bar->lo_ns);
          cs_plugin_json_add_int (b, "hi_ns", bar->hi_ns);
          cs_plugin_json_add_int (b, "count", bar->count);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "worst");
  json_builder_begin_array (b);
  for (guint i = 0; i < worst->len; i++)
    {
      const CsLatencyItem *item = &g_array_index (worst, CsLatencyItem, i);
      const CsLatencyPairInfo *info = g_ptr_array_index (pairs, MIN (item->pair, pairs->len - 1));
      g_auto(GStrv) names = g_strsplit (info->a_keys, ",", -1);
      const char *comm = cs_plugin_document_get_comm (doc, item->pid);

      json_builder_begin_object (b);
      cs_plugin_json_add_int (b, "duration_ns", item->dur_ns);
      cs_plugin_json_add_int (b, "a_ts_ns", item->a_ts_ns);
      cs_plugin_json_add_int (b, "b_ts_ns", item->b_ts_ns);
      cs_plugin_json_add_int (b, "cpu", item->a_cpu);
      cs_plugin_json_add_int (b, "b_cpu", item->b_cpu);
      cs_plugin_json_add_int (b, "pid", item->pid);
      json_builder_set_member_name (b, "task");
      if (comm != NULL)
        json_builder_add_string_value (b, comm);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "pair");
      json_builder_add_string_value (b, info->definition);
      json_builder_set_member_name (b, "key");
      json_builder_begin_object (b);
      for (guint k = 0; k < item->n_keys && names[k] != NULL; k++)
        cs_plugin_json_add_int (b, names[k], item->key[k]);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
print_text (CsPluginDocument     *doc,
            const Options        *opt,
            const char           *param,
            GPtrArray            *pairs,
            const CsLatencyStats *stats,
            GArray               *worst)
{
  guint64 n_unmatched = 0;

  for (guint i = 0; i < pairs->len; i++)
    n_unmatched += ((CsLatencyPairInfo *) g_ptr_array_index (pairs, i))->n_unmatched;
  g_print (_("Latency “%s” in %s\n"), param, cs_plugin_document_get_path (doc));
  for (guint i = 0; i < pairs->len && i < 5; i++)
    g_print ("  %s\n", ((CsLatencyPairInfo *) g_ptr_array_index (pairs, i))->definition);
  if (pairs->len > 5)
    g_print (_("  … and %u more pairs of events\n"), pairs->len - 5);
  if (opt->begin_ns != G_MININT64 || opt->end_ns != G_MAXINT64)
    g_print (_("Range: [%" PRId64 ", %" PRId64 ") ns\n"), opt->begin_ns,
             opt->end_ns);
  g_print (_("Pairs: %" PRIu64 " (A without B over the recording: %" PRIu64
             ")\n"), stats->count, n_unmatched);
  if (stats->count > 0)
    for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
      {
        g_autofree char *human = cs_latency_format_ns (FIGURE (stats, i));

        g_print ("  %-6s %14" G_GINT64_FORMAT " ns  %s\n", figures[i].label, FIGURE (stats, i),
                 human);
      }
  if (opt->histogram && stats->histogram->len > 0)
    {
      guint64 top = 1;

      g_print (_("Histogram (log2 bars):\n"));
      for (guint i = 0; i < stats->histogram->len; i++)
        top = MAX (top, g_array_index (stats->histogram, CsLatencyBucket, i).count);
      for (guint i = 0; i < stats->histogram->len; i++)
        {
          const CsLatencyBucket *bar = &g_array_index (stats->histogram, CsLatencyBucket, i);
          g_autofree char *lo = cs_latency_format_ns (bar->lo_ns);
          g_autofree char *hi = cs_latency_format_ns (bar->hi_ns);
          g_autofree char *hashes = g_strnfill ((gsize) (bar->count * 40 / top), '#');

          g_print ("  [%11s, %11s) %10" G_GUINT64_FORMAT " %s\n", lo, hi, bar->count, hashes);
        }
    }
  if (worst->len > 0)
    {
      g_print (_("Worst %u:\n"), worst->len);
      g_print ("  %14s %16s %4s %-16s %7s  %s\n", _("duration ns"), _("A time ns"), _("CPU"),
               _("task"), _("pid"), _("key"));
    }
  for (guint i = 0; i < worst->len; i++)
    {
      const CsLatencyItem *item = &g_array_index (worst, CsLatencyItem, i);
      const CsLatencyPairInfo *info = g_ptr_array_index (pairs, MIN (item->pair, pairs->len - 1));
      g_autofree char *key = cs_latency_describe_key (info, item);
      const char *comm = cs_plugin_document_get_comm (doc, item->pid);

      g_print ("  %14" G_GINT64_FORMAT " %16" G_GINT64_FORMAT " %4u %-16s %7d  %s%s%s\n",
               item->dur_ns, item->a_ts_ns, item->a_cpu, comm != NULL ? comm : "?", item->pid,
               key, pairs->len > 1 ? "  " : "", pairs->len > 1 ? info->a_event : "");
    }
}

/* The whole recording never pairs: say which side is missing. */
static char *
explain_no_pair (GPtrArray *pairs)
{
  const CsLatencyPairInfo *info = g_ptr_array_index (pairs, 0);
  guint64 n_a = 0, n_b = 0;

  for (guint i = 0; i < pairs->len; i++)
    {
      n_a += ((CsLatencyPairInfo *) g_ptr_array_index (pairs, i))->n_a;
      n_b += ((CsLatencyPairInfo *) g_ptr_array_index (pairs, i))->n_b;
    }
  if (n_a == 0)
    return g_strdup_printf (_("no pair: the recording has no %s event"), info->a_event);
  if (n_b == 0)
    return g_strdup_printf (_("no pair: the recording has no %s event"), info->b_event);
  return g_strdup_printf (_("no pair: none of the %" PRIu64 " %s events is followed "
                            "by a %s event with the same key (%s)"), n_a, info->a_event,
                          info->b_event, info->definition);
}

static int
run_on (CsPlugin      *plugin,
        const char    *path,
        const Options *opt,
        const char    *param)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pairs = NULL;
  g_autoptr(GArray) worst = g_array_new (FALSE, FALSE, sizeof (CsLatencyItem));
  CsPluginDocument *doc;
  CsLatencyStats stats = { 0 };
  guint64 n_pairs = 0;
  sqlite3 *db;
  int status = 1;

  doc = cs_plugin_cli_open (plugin, path, &error);
  if (doc == NULL)
    return cs_plugin_cli_fail ("latency", NULL, error->message);
  /* A guest's host: its breakdowns then split out the vCPU's time out of
   * the guest (explain/cs-explain-vcpu.c). */
  for (guint i = 0; opt->added != NULL && opt->added[i] != NULL; i++)
    if (!cs_plugin_cli_add_recording (doc, opt->added[i], &error))
      {
        cs_plugin_cli_fail ("latency", NULL, error->message);
        goto out;
      }
  if (!cs_plugin_document_ensure_pass (doc, plugin, CS_LATENCY_PASS, param, NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (doc, plugin, CS_LATENCY_PASS, param, &error)) == NULL ||
      (pairs = cs_latency_list_pairs (db, &error)) == NULL)
    {
      cs_plugin_cli_fail ("latency", path, error->message);
      goto out;
    }
  for (guint i = 0; i < pairs->len; i++)
    n_pairs += ((CsLatencyPairInfo *) g_ptr_array_index (pairs, i))->n_pairs;
  if (n_pairs == 0 || pairs->len == 0)
    {
      g_autofree char *why = pairs->len > 0 ? explain_no_pair (pairs)
                                            : g_strdup (_("no pair of events to measure"));

      cs_plugin_cli_fail ("latency", path, why);
      goto out;
    }
  if (opt->blockers)
    {
      status = cs_explain_cli_blockers (plugin, doc, db, param, opt->percentile,
                                        opt->threshold_ns, opt->top, opt->json);
      goto out;
    }
  if (!cs_latency_stats_compute (db, opt->begin_ns, opt->end_ns, &stats, &error) ||
      !cs_latency_list_worst (db, opt->begin_ns, opt->end_ns, 0, G_MAXINT64, 0,
                              opt->explain > 0 ? opt->explain : opt->top, worst, &error))
    {
      cs_plugin_cli_fail ("latency", path, error->message);
      goto out;
    }
  if (opt->explain > 0)
    {
      status = cs_explain_cli_explain (doc, param, worst, opt->depth, opt->json);
      goto out;
    }
  if (opt->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      build_json (b, doc, opt, param, pairs, &stats, worst);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      g_print ("%s\n", text);
    }
  else
    print_text (doc, opt, param, pairs, &stats, worst);
  status = 0;

out:
  cs_latency_stats_clear (&stats);
  cs_plugin_document_unref (doc);
  return status;
}

/* --explain takes an optional N (default 1). */
static gboolean
parse_explain (const char  *name,
               const char  *value,
               gpointer     data,
               GError     **error)
{
  Options *opt = data;
  char *end = NULL;

  opt->explain = value != NULL ? (int) g_ascii_strtoll (value, &end, 10) : 1;
  if (value != NULL && (end == value || *end != '\0' || opt->explain < 1))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--explain takes a number of pairs, 1 or more"));
      return FALSE;
    }
  return TRUE;
}

static int
latency_run (CsPlugin  *plugin,
             int        argc,
             char     **argv)
{
  Options opt = { .top = 10, .begin_ns = G_MININT64, .end_ns = G_MAXINT64, .depth = 8,
                  .percentile = 99.0, .threshold_ns = -1 };
  g_autofree char *preset = NULL, *from = NULL, *to = NULL;
  g_auto(GStrv) files = NULL;
  g_autofree char *presets = g_strjoinv ("|", (char **) cs_latency_preset_names ());
  g_autofree char *preset_help = g_strdup_printf (_("A preset pair of events: %s"), presets);
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &preset, preset_help, N_("NAME") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, N_("The start event A, with the fields of its key (default: @pid)"), N_("SYSTEM:EVENT[.FIELD[,FIELD]]") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, N_("The end event B, with the fields A's must equal (default: A's)"), N_("SYSTEM:EVENT[.FIELD[,FIELD]]") },
    { "top", 0, 0, G_OPTION_ARG_INT, &opt.top, N_("List the N worst pairs (default: 10)"), N_("N") },
    { "histogram", 0, 0, G_OPTION_ARG_NONE, &opt.histogram, N_("Print the histogram of durations"), NULL },
    { "begin", 0, 0, G_OPTION_ARG_INT64, &opt.begin_ns, N_("Only pairs whose A is at or after NS (trace clock)"), N_("NS") },
    { "end", 0, 0, G_OPTION_ARG_INT64, &opt.end_ns, N_("Only pairs whose B is before NS"), N_("NS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt.json, N_("Print the figures as JSON"), NULL },
    { "explain", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_explain, N_("Explain the N worst pairs (default 1): what held each, and its wakeup chain"), N_("N") },
    { "depth", 0, 0, G_OPTION_ARG_INT, &opt.depth, N_("Links of a wakeup chain at most (default: 8)"), N_("N") },
    { "blockers", 0, 0, G_OPTION_ARG_NONE, &opt.blockers, N_("Rank what held the pairs at or above the percentile (--top of them)"), NULL },
    { "percentile", 0, 0, G_OPTION_ARG_DOUBLE, &opt.percentile, N_("For --blockers: the pairs at or above this percentile (default: 99)"), N_("P") },
    { "threshold", 0, 0, G_OPTION_ARG_INT64, &opt.threshold_ns, N_("For --blockers: the pairs lasting NS or more, instead of a percentile"), N_("NS") },
    { "add", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt.added, N_("Open the recording FILE too, on the same time axis (a KVM guest's host: --explain then splits out the time its vCPU was out of the guest)"), N_("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— latency pairs: count, percentiles, worst first"));
  g_autoptr(GError) error = NULL;
  g_autofree char *param = NULL;

  g_autoptr(GOptionGroup) group = g_option_group_new ("latency", "", "", &opt, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, g_steal_pointer (&group));
  g_option_context_set_description (context,
    _("A pair is an event A and the next event B with the same key (fields of A and B, "
      "@pid for the task, @cpu for the CPU); a newer A with the same key replaces an "
      "older one, except for the wakeup preset, which measures from the first wakeup of a "
      "sleeping task to its switch-in, as chronoscope stats does.  Durations are B's "
      "time − A's time, in ns."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cs_plugin_cli_fail ("latency", NULL, error->message);
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    return cs_plugin_cli_fail ("latency", NULL, _("give one recording (chronoscope latency FILE --preset NAME)"));
  if ((preset != NULL) == (from != NULL || to != NULL))
    return cs_plugin_cli_fail ("latency", files[0], _("give either --preset NAME or --from A and --to B"));
  if (preset == NULL && (from == NULL || to == NULL))
    return cs_plugin_cli_fail ("latency", files[0], _("--from and --to go together"));
  if (opt.top < 0)
    return cs_plugin_cli_fail ("latency", files[0], _("--top must be 0 or more"));
  if (opt.end_ns <= opt.begin_ns)
    return cs_plugin_cli_fail ("latency", files[0], _("--end must be after --begin"));
  if (opt.blockers && (opt.explain > 0 || opt.begin_ns != G_MININT64 || opt.end_ns != G_MAXINT64))
    return cs_plugin_cli_fail ("latency", files[0], _("--blockers covers the whole recording: "
                                                      "give it without --explain, --begin or --end"));
  if (opt.depth < 1 || opt.percentile < 0 || opt.percentile > 100)
    return cs_plugin_cli_fail ("latency", files[0], _("--depth must be 1 or more and --percentile 0 to 100"));
  param = preset != NULL ? g_strdup (preset) : g_strdup_printf ("%s>%s", from, to);
  {
    int status = run_on (plugin, files[0], &opt, param);

    g_strfreev (opt.added);
    return status;
  }
}

static const CsPluginCommandInfo latency_command = {
  .struct_size = sizeof (CsPluginCommandInfo),
  .name = "latency",
  .summary = N_("Measure A → B latency pairs: count, percentiles, histogram, worst first"),
  .run = latency_run,
};

/**
 * cs_latency_cli_register:
 * @plugin: the latency plugin, in its init
 *
 * Registers `chronoscope latency`.
 */
void
cs_latency_cli_register (CsPlugin *plugin)
{
  cs_plugin_add_command (plugin, &latency_command);
}
