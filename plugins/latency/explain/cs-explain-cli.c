/* cs-explain-cli.c: `chronoscope latency FILE --explain [N]`,
 * `--blockers`, and `chronoscope critical-path FILE --pid PID`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <glib/gi18n-lib.h>

#include "cs-explain-cli.h"
#include "cs-explain-pass.h"
#include "cs-explain-steps.h"
#include "cs-explain.h"
#include "../cs-latency-stats.h"

static void
add_string_or_null (JsonBuilder *b,
                    const char  *member,
                    const char  *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
print_json (JsonBuilder *b)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

/* The scheduling class a kernel priority implies (include/linux/sched/prio.h:
 * 0..99 real-time, SCHED_FIFO or SCHED_RR; 100..139 normal, SCHED_OTHER or
 * SCHED_BATCH); sched_switch does not say which policy of the class. */
static const char *
prio_class (gint32 prio)
{
  if (prio < 0)
    return NULL;
  return prio < 100 ? "realtime" : "normal";
}

static void
add_contributor (JsonBuilder                *b,
                 const CsExplainContributor *c,
                 gboolean                    with_pairs)
{
  json_builder_begin_object (b);
  add_string_or_null (b, "kind", cs_explain_kind_name (c->kind));
  cs_plugin_json_add_int (b, "id", c->id);
  add_string_or_null (b, "name", c->name);
  cs_plugin_json_add_int (b, "prio", c->prio);
  add_string_or_null (b, "class", c->kind == CS_EXPLAIN_TASK || c->kind == CS_EXPLAIN_IRQS_OFF ||
                                  c->kind == CS_EXPLAIN_PREEMPT_OFF ? prio_class (c->prio) : NULL);
  add_string_or_null (b, "source", cs_explain_source_name (c->source));
  json_builder_set_member_name (b, "outranks");
  json_builder_add_boolean_value (b, c->outranks);
  cs_plugin_json_add_int (b, "ns", c->ns);
  if (with_pairs)
    cs_plugin_json_add_int (b, "n_pairs", c->n_pairs);
  else
    cs_plugin_json_add_int (b, "n_slices", c->n_slices);
  json_builder_end_object (b);
}

static void
add_breakdown (JsonBuilder              *b,
               CsPluginDocument         *doc,
               const CsExplainBreakdown *x)
{
  g_autofree char *verdict = cs_explain_verdict (x);

  cs_plugin_json_add_int (b, "pid", x->pid);
  add_string_or_null (b, "task", cs_plugin_document_get_comm (doc, x->pid));
  cs_plugin_json_add_int (b, "prio", x->prio);
  add_string_or_null (b, "class", prio_class (x->prio));
  cs_plugin_json_add_int (b, "duration_ns", x->b_ns - x->a_ns);
  cs_plugin_json_add_int (b, "a_ts_ns", x->a_ns);
  cs_plugin_json_add_int (b, "b_ts_ns", x->b_ns);
  cs_plugin_json_add_int (b, "a_cpu", x->a_cpu);
  cs_plugin_json_add_int (b, "b_cpu", x->b_cpu);
  cs_plugin_json_add_int (b, "n_cpus_queued", x->n_cpus_queued);
  cs_plugin_json_add_int (b, "waker_pid", x->waker_pid);
  add_string_or_null (b, "waker_task", x->waker_pid > 0
                                       ? cs_plugin_document_get_comm (doc, x->waker_pid) : NULL);
  cs_plugin_json_add_int (b, "waker_flags", x->waker_flags);
  cs_plugin_json_add_int (b, "need_resched_ns", x->need_resched_ns);
  add_string_or_null (b, "verdict", verdict);
  json_builder_set_member_name (b, "breakdown");
  json_builder_begin_array (b);
  for (guint i = 0; i < x->contributors->len; i++)
    add_contributor (b, &g_array_index (x->contributors, CsExplainContributor, i), FALSE);
  json_builder_end_array (b);
}

static void
print_breakdown (CsPluginDocument         *doc,
                 const CsExplainBreakdown *x,
                 gboolean                  wakeup,
                 const char               *indent)
{
  g_autofree char *verdict = cs_explain_verdict (x);
  g_autofree char *dur = cs_latency_format_ns (x->b_ns - x->a_ns);
  const char *comm = cs_plugin_document_get_comm (doc, x->pid);

  if (wakeup)
    g_print (_("%s%s (pid %d, prio %d): %s from %" PRId64 " to %" PRId64
               " ns, woken on CPU %u, ran on CPU %u\n"),
             indent, comm != NULL ? comm : "?", x->pid, x->prio, dur, x->a_ns, x->b_ns, x->a_cpu,
             x->b_cpu);
  else
    g_print (_("%s%s (pid %d): %s from %" PRId64 " to %" PRId64
               " ns, CPU %u broken down\n"),
             indent, comm != NULL ? comm : "?", x->pid, dur, x->a_ns, x->b_ns, x->b_cpu);
  g_print (_("%s  verdict: %s\n"), indent, verdict);
  for (guint i = 0; i < x->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (x->contributors, CsExplainContributor, i);
      g_autofree char *what = cs_explain_contributor_describe (c);
      g_autofree char *ns = cs_latency_format_ns (c->ns);

      g_print ("%s  %14" PRId64 " ns %12s  %-11s %s%s\n", indent, c->ns, ns,
               cs_explain_kind_name (c->kind), what, c->outranks ? _(" (outranks it)") : "");
    }
}

/**
 * cs_explain_cli_explain:
 * @doc: the recording
 * @definition: the latency definition the pairs belong to ("wakeup" gets
 *   wakeup breakdowns and chains; others a breakdown of B's CPU)
 * @items: (element-type CsLatencyItem): the pairs, worst first
 * @depth: the chains' depth (links, the pair's own included)
 * @json: print JSON rather than text
 *
 * Prints each pair's breakdown, verdict and (for wakeups) wakeup chain.
 *
 * Returns: the exit status
 */
int
cs_explain_cli_explain (CsPluginDocument *doc,
                        const char       *definition,
                        GArray           *items,
                        guint             depth,
                        gboolean          json)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  gboolean wakeup = g_strcmp0 (definition, "wakeup") == 0;
  const char *path = cs_plugin_document_get_path (doc);

  json_builder_begin_object (b);
  add_string_or_null (b, "file", path);
  add_string_or_null (b, "definition", definition);
  json_builder_set_member_name (b, "pairs");
  json_builder_begin_array (b);
  for (guint i = 0; i < items->len; i++)
    {
      const CsLatencyItem *item = &g_array_index (items, CsLatencyItem, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(CsExplainBreakdown) alone = NULL;
      GArray *links = NULL;
      CsExplainStop stop = CS_EXPLAIN_STOP_DEPTH;
      const CsExplainBreakdown *x;
      gint64 t0 = g_get_monotonic_time ();
      gint64 elapsed_us;

      _cs_explain_steps_reset ();
      if (wakeup)
        links = cs_explain_wakeup_chain (doc, item->pid, item->a_ts_ns, item->a_cpu,
                                         item->b_ts_ns, item->b_cpu, depth, FALSE, &stop, &error);
      else
        alone = cs_explain_span_on_cpu (doc, item->pid, item->a_ts_ns, item->b_ts_ns,
                                        item->b_cpu, FALSE, &error);
      elapsed_us = g_get_monotonic_time () - t0;
      if (_cs_explain_steps_enabled ())
        {
          g_autofree char *steps = _cs_explain_steps_describe ();

          /* Not translated: a measurement for developers, like
           * CHRONOSCOPE_INDEX_STEPS's. */
          g_printerr ("pair %u: %s; wall %.1f ms\n", i + 1, steps, elapsed_us / 1e3);
        }
      if (links == NULL && alone == NULL)
        return cs_plugin_cli_fail ("latency", path, error->message);
      x = links != NULL ? g_array_index (links, CsExplainLink, 0).breakdown : alone;
      if (json)
        {
          json_builder_begin_object (b);
          add_breakdown (b, doc, x);
          cs_plugin_json_add_int (b, "explain_us", elapsed_us);
          if (links != NULL)
            {
              json_builder_set_member_name (b, "chain");
              json_builder_begin_array (b);
              for (guint k = 1; k < links->len; k++)
                {
                  const CsExplainLink *l = &g_array_index (links, CsExplainLink, k);

                  json_builder_begin_object (b);
                  cs_plugin_json_add_int (b, "depth", l->depth);
                  add_breakdown (b, doc, l->breakdown);
                  json_builder_end_object (b);
                }
              json_builder_end_array (b);
              add_string_or_null (b, "chain_end", cs_explain_stop_describe (stop));
            }
          json_builder_end_object (b);
        }
      else
        {
          g_print (_("Pair %u of %u:\n"), i + 1, items->len);
          print_breakdown (doc, x, wakeup, "  ");
          for (guint k = 1; links != NULL && k < links->len; k++)
            {
              const CsExplainLink *l = &g_array_index (links, CsExplainLink, k);
              g_autofree char *indent = g_strnfill (2 + 2 * l->depth, ' ');

              g_print (_("%swoken by the wakeup of:\n"), indent);
              print_breakdown (doc, l->breakdown, TRUE, indent);
            }
          if (links != NULL)
            g_print (_("  chain ends: %s\n"), cs_explain_stop_describe (stop));
        }
      cs_explain_links_free (links);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  if (json)
    print_json (b);
  return 0;
}

static gint64
percentile_threshold (sqlite3  *db,
                      double    percentile,
                      GError  **error)
{
  g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (CsLatencyItem));
  guint64 rank, offset;
  gint64 count, ns = -1;

  /* The count alone: the statistics' scan of every duration took a
   * tenth of a second of a large recording's --blockers. */
  if (!cs_latency_stats_count (db, &count, error))
    return -1;
  if (count <= 0)
    return G_MAXINT64;
  /* Nearest rank, as the statistics: the ⌈q·count⌉-th shortest is the
   * (count − rank)-th longest (0-based). */
  rank = (guint64) ceil (percentile / 100.0 * count);
  rank = CLAMP (rank, 1, (guint64) count);
  offset = count - rank;
  if (cs_latency_list_worst (db, G_MININT64, G_MAXINT64, 0, G_MAXINT64, offset, 1, one, error) &&
      one->len == 1)
    ns = g_array_index (one, CsLatencyItem, 0).dur_ns;
  return ns;
}

/**
 * cs_explain_cli_blockers:
 * @plugin: the latency plugin
 * @doc: the recording, whose `wakeup` latency pass is done
 * @latency_db: that pass's database
 * @definition: the definition ("wakeup"; others are refused)
 * @percentile: keep the pairs at or above this percentile (0..100)
 * @threshold_ns: or, when >= 0, at or above this duration
 * @top: how many contributors to print
 * @json: print JSON rather than text
 *
 * Runs (or reuses) the pass `blockers` for the threshold and prints the
 * contributors ranked by the time they added to the pairs kept.
 *
 * Returns: the exit status
 */
int
cs_explain_cli_blockers (CsPlugin         *plugin,
                         CsPluginDocument *doc,
                         sqlite3          *latency_db,
                         const char       *definition,
                         double            percentile,
                         gint64            threshold_ns,
                         guint             top,
                         gboolean          json)
{
  const char *path = cs_plugin_document_get_path (doc);
  g_autoptr(GError) error = NULL;
  g_autofree char *param = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  sqlite3_stmt *s = NULL;
  sqlite3 *db;
  gint64 n_pairs = 0, t0, elapsed_us, sweep_us = -1, chains_us = -1;

  if (g_strcmp0 (definition, "wakeup") != 0)
    return cs_plugin_cli_fail ("latency", path, _("--blockers is for --preset wakeup"));
  if (threshold_ns < 0)
    threshold_ns = percentile_threshold (latency_db, percentile, &error);
  if (threshold_ns < 0)
    return cs_plugin_cli_fail ("latency", path, error->message);
  param = g_strdup_printf ("wakeup>=%" PRId64, threshold_ns);
  t0 = g_get_monotonic_time ();
  if (!cs_plugin_document_ensure_pass (doc, plugin, CS_EXPLAIN_BLOCKERS_PASS, param, NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (doc, plugin, CS_EXPLAIN_BLOCKERS_PASS, param,
                                            &error)) == NULL)
    return cs_plugin_cli_fail ("latency", path, error->message);
  elapsed_us = g_get_monotonic_time () - t0;
  if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM explain_pair", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_step (s) == SQLITE_ROW)
    n_pairs = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  if (sqlite3_prepare_v2 (db, "SELECT sweep_us, chains_us FROM explain_timing", -1, &s,
                          NULL) == SQLITE_OK && sqlite3_step (s) == SQLITE_ROW)
    {
      sweep_us = sqlite3_column_int64 (s, 0);
      chains_us = sqlite3_column_int64 (s, 1);
    }
  sqlite3_finalize (s);
  if (sqlite3_prepare_v2 (db, "SELECT kind, id, name, prio, total_ns, n_pairs FROM explain_blocker"
                          " ORDER BY total_ns DESC, kind, id, name LIMIT ?1", -1, &s, NULL) != SQLITE_OK)
    return cs_plugin_cli_fail ("latency", path, sqlite3_errmsg (db));
  sqlite3_bind_int64 (s, 1, top);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      CsExplainContributor c = { 0 };
      const char *kind = (const char *) sqlite3_column_text (s, 0);

      for (CsExplainKind k = CS_EXPLAIN_TASK; k <= CS_EXPLAIN_UNKNOWN; k++)
        if (g_strcmp0 (kind, cs_explain_kind_name (k)) == 0)
          c.kind = k;
      c.id = sqlite3_column_int64 (s, 1);
      g_strlcpy (c.name, (const char *) sqlite3_column_text (s, 2), sizeof c.name);
      c.prio = sqlite3_column_int64 (s, 3);
      c.ns = sqlite3_column_int64 (s, 4);
      c.n_pairs = sqlite3_column_int64 (s, 5);
      g_array_append_val (rows, c);
    }
  sqlite3_finalize (s);
  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      add_string_or_null (b, "file", path);
      add_string_or_null (b, "definition", definition);
      add_string_or_null (b, "selection", param);
      cs_plugin_json_add_int (b, "threshold_ns", threshold_ns);
      cs_plugin_json_add_int (b, "n_pairs", n_pairs);
      cs_plugin_json_add_int (b, "pass_us", elapsed_us);
      cs_plugin_json_add_int_or_null (b, "sweep_us", sweep_us, sweep_us >= 0);
      cs_plugin_json_add_int_or_null (b, "chains_us", chains_us, chains_us >= 0);
      json_builder_set_member_name (b, "blockers");
      json_builder_begin_array (b);
      for (guint i = 0; i < rows->len; i++)
        add_contributor (b, &g_array_index (rows, CsExplainContributor, i), TRUE);
      json_builder_end_array (b);
      json_builder_end_object (b);
      print_json (b);
      return 0;
    }
  {
    g_autofree char *thr = cs_latency_format_ns (threshold_ns);

    g_print (_("Top blockers of the %" PRId64 " wakeups of %s at or above %s (%"
               PRId64 " ns):\n"), n_pairs, path, thr, threshold_ns);
  }
  for (guint i = 0; i < rows->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (rows, CsExplainContributor, i);
      g_autofree char *what = cs_explain_contributor_describe (c);
      g_autofree char *ns = cs_latency_format_ns (c->ns);

      /* TRANSLATORS: a blocker's time in ns and in words, how many pairs it
       * delayed, its kind (a name, not translated), what it is; keep the
       * columns: "pair   " is as wide as "pairs  " */
      g_print (ngettext ("  %14" PRId64 " ns %12s %8" PRIu64 " pair   %-11s %s\n",
                         "  %14" PRId64 " ns %12s %8" PRIu64 " pairs  %-11s %s\n", c->n_pairs),
               c->ns, ns, c->n_pairs, cs_explain_kind_name (c->kind), what);
    }
  return 0;
}

/* @text (nullable) as JSON: quoted and escaped, or null. */
static char *
json_quote (const char *text)
{
  g_autoptr(JsonNode) node = NULL;

  if (text == NULL)
    return g_strdup ("null");
  node = json_node_init_string (json_node_alloc (), text);
  return json_to_string (node, FALSE);
}

/* json_quote() of @text, kept in @quotes: a path names few tasks and
 * states, millions of times. */
static const char *
quoted (GHashTable *quotes,
        const char *text)
{
  const char *q;

  if (text == NULL)
    return "null";
  q = g_hash_table_lookup (quotes, text);
  if (q == NULL)
    {
      q = json_quote (text);
      g_hash_table_insert (quotes, g_strdup (text), (gpointer) q);
    }
  return q;
}

static int
critical_path_run (CsPlugin  *plugin,
                   int        argc,
                   char     **argv)
{
  gint64 pid = 0, begin_ns = G_MININT64, end_ns = G_MAXINT64, depth = 8;
  gboolean json = FALSE;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "pid", 0, 0, G_OPTION_ARG_INT64, &pid, N_("The task whose path to follow"), N_("PID") },
    { "begin", 0, 0, G_OPTION_ARG_INT64, &begin_ns, N_("Start of the span (ns, trace clock; default: the recording's start)"), N_("NS") },
    { "end", 0, 0, G_OPTION_ARG_INT64, &end_ns, N_("End of the span, exclusive (default: the recording's end)"), N_("NS") },
    { "depth", 0, 0, G_OPTION_ARG_INT64, &depth, N_("How many wakers deep to follow (default: 8)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the path as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— a task's critical path: what its progress waited on"));
  g_autoptr(GError) error = NULL;
  g_autofree char *param = NULL;
  g_autofree char *b_text = NULL, *e_text = NULL;
  CsPluginDocument *doc;
  sqlite3 *db;
  sqlite3_stmt *s = NULL;
  g_autoptr(GHashTable) quotes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int status = 1, rc;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("While the task runs or waits for a CPU, the path is the task; while it is blocked, "
      "the path follows the task that woke it, back to when it blocked, as Trace Compass's "
      "critical path does for LTTng traces.  A wakeup from an interrupt ends the detour."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cs_plugin_cli_fail ("critical-path", NULL, error->message);
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    return cs_plugin_cli_fail ("critical-path", NULL, _("give one recording (chronoscope critical-path FILE --pid PID)"));
  if (pid <= 0 || pid > G_MAXINT32)
    return cs_plugin_cli_fail ("critical-path", files[0], _("give the task with --pid PID (not 0)"));
  if (end_ns <= begin_ns)
    return cs_plugin_cli_fail ("critical-path", files[0], _("--end must be after --begin"));
  if (depth < 1 || depth > 1000)
    return cs_plugin_cli_fail ("critical-path", files[0], _("--depth must be 1 to 1000"));
  b_text = begin_ns != G_MININT64 ? g_strdup_printf ("%" PRId64, begin_ns) : g_strdup ("");
  e_text = end_ns != G_MAXINT64 ? g_strdup_printf ("%" PRId64, end_ns) : g_strdup ("");
  param = g_strdup_printf ("%" PRId64 ":%s:%s:%" PRId64, pid, b_text, e_text,
                           depth);
  doc = cs_plugin_cli_open (plugin, files[0], &error);
  if (doc == NULL)
    return cs_plugin_cli_fail ("critical-path", NULL, error->message);
  if (!cs_plugin_document_ensure_pass (doc, plugin, CS_EXPLAIN_PATH_PASS, param, NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (doc, plugin, CS_EXPLAIN_PATH_PASS, param, &error)) == NULL)
    {
      cs_plugin_cli_fail ("critical-path", files[0], error->message);
      goto out;
    }
  /* In rowid order, which is time order (the pass inserts the segments
   * as the walk finds them): ORDER BY begin_ns sorted 3.8 M rows again. */
  if (sqlite3_prepare_v2 (db, "SELECT begin_ns, end_ns, pid, state, cpu, depth FROM explain_path"
                          " ORDER BY rowid", -1, &s, NULL) != SQLITE_OK)
    {
      cs_plugin_cli_fail ("critical-path", files[0], sqlite3_errmsg (db));
      goto out;
    }
  /* Printed as it is read: a busy task's path over a long recording has
   * millions of segments, which a JSON tree would hold in gigabytes.
   * The segments go through stdio's buffer (printf), not g_print(),
   * which formats into a new string and flushes, one write() a line. */
  if (json)
    {
      g_autofree char *file = json_quote (cs_plugin_document_get_path (doc));

      g_print ("{\n  \"file\" : %s,\n  \"pid\" : %" PRId64 ",\n  \"path\" : [", file, pid);
    }
  else
    g_print (_("Critical path of pid %" PRId64 " in %s:\n"), pid, files[0]);
  for (gboolean first = TRUE; (rc = sqlite3_step (s)) == SQLITE_ROW; first = FALSE)
    {
      gint64 seg_begin = sqlite3_column_int64 (s, 0), seg_end = sqlite3_column_int64 (s, 1);
      gint32 seg_pid = sqlite3_column_int64 (s, 2);
      const char *state = (const char *) sqlite3_column_text (s, 3);
      const char *comm = cs_plugin_document_get_comm (doc, seg_pid);

      if (json)
        printf ("%s\n    { \"begin_ns\" : %" PRId64 ", \"end_ns\" : %" PRId64 ", \"pid\" : %d,"
                 " \"task\" : %s, \"state\" : %s, \"cpu\" : %" PRId64 ", \"depth\" : %" PRId64 " }",
                 first ? "" : ",", seg_begin, seg_end, seg_pid, quoted (quotes, comm),
                 quoted (quotes, state), (gint64) sqlite3_column_int64 (s, 4),
                 (gint64) sqlite3_column_int64 (s, 5));
      else
        {
          g_autofree char *dur = cs_latency_format_ns (seg_end - seg_begin);

          printf ("  %16" PRId64 " %12s  %-9s %s (pid %d) cpu %" PRId64
                   " depth %" PRId64 "\n", seg_begin, dur, state,
                   comm != NULL ? comm : "?", seg_pid, (gint64) sqlite3_column_int64 (s, 4),
                   (gint64) sqlite3_column_int64 (s, 5));
        }
    }
  if (rc != SQLITE_DONE)
    {
      fflush (stdout);
      cs_plugin_cli_fail ("critical-path", files[0], sqlite3_errmsg (db));
      goto out;
    }
  if (json)
    g_print ("\n  ]\n}\n");
  status = 0;

out:
  sqlite3_finalize (s);
  cs_plugin_document_unref (doc);
  return status;
}

static const CsPluginCommandInfo critical_path_command = {
  .struct_size = sizeof (CsPluginCommandInfo),
  .name = "critical-path",
  .summary = N_("Follow a task's critical path: running, waiting for a CPU, and the wakers it waited on"),
  .run = critical_path_run,
};

/**
 * cs_explain_cli_register:
 * @plugin: the latency plugin, in its init
 *
 * Registers `chronoscope critical-path`, the passes and the SQL tables
 * of the explain room (`--explain` and `--blockers` are options of
 * `chronoscope latency`, see cs-latency-cli.c).
 */
void
cs_explain_cli_register (CsPlugin *plugin)
{
  cs_explain_pass_register (plugin);
  cs_plugin_add_command (plugin, &critical_path_command);
}
