/* cs-funcgraph-cli.c: `chronoscope funcgraph FILE ...`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Prints the table of functions the page "Functions" shows: per function,
 * its function_graph calls, function tracer events, total, self and
 * longest call, sorted by total time, for the whole recording or a range
 * (--begin/--end, ns in the trace clock), as text or JSON (--json).
 */
#include <stdio.h>

#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

typedef struct {
  int top;
  gint64 begin_ns;
  gint64 end_ns;
  gboolean json;
} Options;

/* The "worst" member: the function's longest call in the range. */
static void
member_worst (JsonBuilder               *b,
              CsFuncgraphReader         *reader,
              const Options             *opt,
              const CsFuncgraphFunction *f)
{
  CsFuncgraphCall call;

  json_builder_set_member_name (b, "worst");
  if (f->n_calls == 0 ||
      !_cs_funcgraph_worst_call (reader, f->id, opt->begin_ns, opt->end_ns, &call, NULL))
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  cs_plugin_json_add_int (b, "begin_ns", call.begin_ns);
  cs_plugin_json_add_int (b, "end_ns", call.end_ns);
  cs_plugin_json_add_int (b, "duration_ns", call.end_ns - call.begin_ns);
  cs_plugin_json_add_int (b, "pid", call.pid);
  cs_plugin_json_add_int (b, "cpu", call.cpu);
  cs_plugin_json_add_int (b, "depth", call.depth);
  json_builder_end_object (b);
}

static void
print_json (CsPluginDocument *doc,
            sqlite3          *db,
            const Options    *opt,
            GArray           *lines)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(CsFuncgraphReader) reader = _cs_funcgraph_reader_new (db);
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, cs_plugin_document_get_path (doc));
  cs_plugin_json_add_int_or_null (b, "begin_ns", opt->begin_ns, opt->begin_ns != G_MININT64);
  cs_plugin_json_add_int_or_null (b, "end_ns", opt->end_ns, opt->end_ns != G_MAXINT64);
  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < lines->len; i++)
    {
      const CsFuncgraphFunction *f = &g_array_index (lines, CsFuncgraphFunction, i);
      g_autofree char *addr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", f->addr);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, f->name);
      json_builder_set_member_name (b, "address");
      json_builder_add_string_value (b, addr);
      cs_plugin_json_add_int (b, "calls", f->n_calls);
      cs_plugin_json_add_int (b, "function_events", f->n_hits);
      cs_plugin_json_add_int (b, "total_ns", f->total_ns);
      cs_plugin_json_add_int (b, "self_ns", f->self_ns);
      cs_plugin_json_add_int (b, "max_ns", f->max_ns);
      member_worst (b, reader, opt, f);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

static void
print_text (const Options *opt,
            GArray        *lines)
{
  g_print ("%14s %14s %9s %9s %14s  %s\n", _("total ns"), _("self ns"), _("calls"),
           _("events"), _("max ns"), _("function"));
  for (guint i = 0; i < lines->len; i++)
    {
      const CsFuncgraphFunction *f = &g_array_index (lines, CsFuncgraphFunction, i);

      g_print ("%14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %9" G_GINT64_FORMAT
               " %9" G_GINT64_FORMAT " %14" G_GINT64_FORMAT "  %s\n",
               f->total_ns, f->self_ns, f->n_calls, f->n_hits, f->max_ns, f->name);
    }
}

static int
run_on (CsPlugin      *plugin,
        const char    *path,
        const Options *opt)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) lines = NULL;
  CsPluginDocument *doc;
  sqlite3 *db = NULL;
  int status = 1;

  doc = cs_plugin_cli_open (plugin, path, &error);
  if (doc == NULL)
    return cs_plugin_cli_fail ("funcgraph", NULL, error->message);
  if (!_cs_funcgraph_has_events (doc))
    {
      cs_plugin_cli_fail ("funcgraph", path,
                          _("the recording has no function_graph calls (ftrace:funcgraph_exit) "
                            "and no function tracer events (ftrace:function); record with "
                            "trace-cmd record -p function_graph or -p function"));
      goto out;
    }
  if (!cs_plugin_document_ensure_pass (doc, plugin, CS_FUNCGRAPH_PASS, NULL, NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (doc, plugin, CS_FUNCGRAPH_PASS, NULL, &error)) == NULL ||
      (lines = _cs_funcgraph_list_functions (db, opt->begin_ns, opt->end_ns,
                                             (guint) opt->top, &error)) == NULL)
    {
      cs_plugin_cli_fail ("funcgraph", path, error->message);
      goto out;
    }
  if (opt->json)
    print_json (doc, db, opt, lines);
  else
    print_text (opt, lines);
  status = 0;

out:
  cs_plugin_document_unref (doc);
  return status;
}

static int
funcgraph_run (CsPlugin  *plugin,
               int        argc,
               char     **argv)
{
  Options opt = { .top = 20, .begin_ns = G_MININT64, .end_ns = G_MAXINT64 };
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "top", 0, 0, G_OPTION_ARG_INT, &opt.top, N_("List the N functions with the most total time (default: 20; 0: all)"), N_("N") },
    { "begin", 0, 0, G_OPTION_ARG_INT64, &opt.begin_ns, N_("Only calls that begin at or after NS (trace clock)"), N_("NS") },
    { "end", 0, 0, G_OPTION_ARG_INT64, &opt.end_ns, N_("Only calls that begin before NS"), N_("NS") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt.json, N_("Print the table as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— functions by total and self time"));
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("A call is a funcgraph_exit event: its duration is rettime − calltime; its self "
      "time is that minus its children's (the calls one level deeper in the same task "
      "that returned inside it).  Events counts the function tracer's events, which "
      "have no duration.  Times are in ns."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cs_plugin_cli_fail ("funcgraph", NULL, error->message);
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    return cs_plugin_cli_fail ("funcgraph", NULL, _("give one recording (chronoscope funcgraph FILE)"));
  if (opt.top < 0)
    return cs_plugin_cli_fail ("funcgraph", files[0], _("--top must be 0 or more"));
  if (opt.end_ns <= opt.begin_ns)
    return cs_plugin_cli_fail ("funcgraph", files[0], _("--end must be after --begin"));
  return run_on (plugin, files[0], &opt);
}

static const CsPluginCommandInfo funcgraph_command = {
  .struct_size = sizeof (CsPluginCommandInfo),
  .name = "funcgraph",
  .summary = N_("List the functions of a function_graph recording by total and self time"),
  .run = funcgraph_run,
};

/**
 * _cs_funcgraph_add_command:
 * @plugin: the funcgraph plugin, in its init
 *
 * Registers `chronoscope funcgraph`.
 */
void
_cs_funcgraph_add_command (CsPlugin *plugin)
{
  cs_plugin_add_command (plugin, &funcgraph_command);
}
