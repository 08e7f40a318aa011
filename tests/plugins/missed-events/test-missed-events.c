/* test-missed-events.c: the missed-events built-in on a recording that
 * lost events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/missed-events-v7.dat lost events on both CPUs; the oracle
 * (tests/oracle/missed-events.py) reads where from `trace-cmd report`'s
 * "CPU:N [M EVENTS DROPPED]" lines.  The plugin must put its marks, info
 * bar text, event list note and `info --json` member exactly there.
 */
#include <json-glib/json-glib.h>

#include "builtin-test-host.h"

static const CsTestRecording lossy = { "missed-events-v7.dat" };
static const CsTestRecording lossless = { "sched-irq-v6.dat" };

/* Vermillion (213, 94, 0), the marks' colour. */
#define MARK_RGB 0xd55e00

typedef struct {
  gint64 ts_ns;
  guint cpu;
  gint64 n_missed;
} Loss;

static GArray *
oracle_losses (CsBuiltinFixture *fixture)
{
  const char *args[] = { cs_document_get_trace_path (fixture->base.document), NULL };
  g_autoptr(JsonNode) root = cs_builtin_run_oracle ("missed-events.py", args);
  JsonArray *list = json_node_get_array (root);
  GArray *losses = g_array_new (FALSE, FALSE, sizeof (Loss));

  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *o = json_array_get_object_element (list, i);
      Loss l = { json_object_get_int_member (o, "ts_ns"), json_object_get_int_member (o, "cpu"),
                 json_object_get_int_member (o, "n_missed") };

      g_array_append_val (losses, l);
    }
  return losses;
}

static JsonNode *
plugin_json (CsBuiltinFixture *fixture)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GError) error = NULL;
  const CsPluginJsonSection *section;
  CsPluginJsonFunc func;
  gboolean ok;

  g_assert_cmpuint (_cs_plugin_get_n_hooks (fixture->plugin, CS_PLUGIN_HOOK_JSON), ==, 1);
  section = _cs_plugin_get_hook (fixture->plugin, CS_PLUGIN_HOOK_JSON, 0);
  g_assert_cmpstr (section->member, ==, "missed-events");
  func = (CsPluginJsonFunc) section->func;
  ok = func (cs_plugin_document_get_instance (fixture->plugins, fixture->plugin), builder, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return json_builder_get_root (builder);
}

static void
set_up_lossy (CsBuiltinFixture *fixture,
              gconstpointer     data)
{
  cs_builtin_fixture_set_up (fixture, "missed-events", &lossy);
}

static void
set_up_lossless (CsBuiltinFixture *fixture,
                 gconstpointer     data)
{
  cs_builtin_fixture_set_up (fixture, "missed-events", &lossless);
}

static void
tear_down (CsBuiltinFixture *fixture,
           gconstpointer     data)
{
  cs_builtin_fixture_tear_down (fixture);
}

/* The JSON member lists the report's losses, positions and counts. */
static void
test_json_equals_report (CsBuiltinFixture *fixture,
                         gconstpointer     data)
{
  g_autoptr(GArray) expected = oracle_losses (fixture);
  g_autoptr(JsonNode) root = plugin_json (fixture);
  JsonObject *o = json_node_get_object (root);
  JsonArray *losses = json_object_get_array_member (o, "losses");
  gint64 total = 0;

  g_assert_cmpuint (expected->len, >, 0);
  g_assert_cmpuint (json_array_get_length (losses), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      const Loss *e = &g_array_index (expected, Loss, i);
      JsonObject *l = json_array_get_object_element (losses, i);

      g_test_message ("CPU %u: %" G_GINT64_FORMAT " lost at %" G_GINT64_FORMAT,
                      e->cpu, e->n_missed, e->ts_ns);
      g_assert_cmpint (json_object_get_int_member (l, "cpu"), ==, e->cpu);
      g_assert_cmpint (json_object_get_int_member (l, "ts_ns"), ==, e->ts_ns);
      g_assert_cmpint (json_object_get_int_member (l, "n_missed"), ==, e->n_missed);
      total += e->n_missed;
    }
  g_assert_cmpint (json_object_get_int_member (o, "total"), ==, total);
}

/* `chronoscope info --json` carries the same member, with the plugin
 * loaded by the executable from the build tree. */
static void
test_info_json (CsBuiltinFixture *fixture,
                gconstpointer     data)
{
  const char *args[] = { "info", cs_document_get_trace_path (fixture->base.document), "--json", NULL };
  g_autofree char *out = cs_builtin_run_chronoscope (args);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) expected = plugin_json (fixture);
  g_autoptr(GError) error = NULL;
  JsonObject *info;

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  info = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (info, "missed-events"));
  g_assert_true (json_node_equal (json_object_get_member (info, "missed-events"), expected));
}

/* Is there a mark-coloured pixel in column @x, inside the plot? */
static gboolean
column_has_mark (CsBuiltinFixture *fixture,
                 int               x,
                 double            y_px,
                 double            height_px)
{
  for (int y = (int) y_px + 1; y < (int) (y_px + height_px) - 1; y++)
    if (cs_test_same_color (cs_test_pixel (&fixture->base, x, y), MARK_RGB, 8))
      return TRUE;
  return FALSE;
}

static guint
count_mark_columns (CsBuiltinFixture *fixture,
                    const CsViewport *viewport,
                    guint             plot)
{
  double y, height;
  guint n = 0;

  cs_timeline_renderer_get_cpu_plot_area (fixture->base.renderer, plot, &y, &height);
  for (int x = 0; x < viewport->width_px; x++)
    if (column_has_mark (fixture, x, y, height))
      n++;
  return n;
}

static void
check_marks_at (CsBuiltinFixture *fixture,
                const CsViewport *viewport,
                GArray           *losses)
{
  cs_test_render (&fixture->base, viewport);
  for (guint i = 0; i < losses->len; i++)
    {
      const Loss *l = &g_array_index (losses, Loss, i);
      double x = cs_timeline_renderer_ns_to_x (fixture->base.renderer, viewport, l->ts_ns);
      double y, height;
      CsHit hit;
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = NULL;

      if (l->ts_ns < viewport->begin_ns || l->ts_ns >= viewport->end_ns)
        continue;
      cs_timeline_renderer_get_cpu_plot_area (fixture->base.renderer, l->cpu, &y, &height);
      cs_test_check (&fixture->base, column_has_mark (fixture, (int) x, y, height),
                     "no mark for CPU %u's loss at x = %.1f", l->cpu, x);

      /* The info bar, a few pixels off the mark. */
      g_assert_true (cs_timeline_renderer_hit_test (fixture->base.renderer, viewport, x + 2,
                                                    y + height / 2, &hit, &error));
      g_assert_no_error (error);
      g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
      g_assert_true (hit.has_item);
      g_assert_true (hit.item_plugin == fixture->plugin);
      expected = g_strdup_printf ("CPU %u lost %" G_GINT64_FORMAT " events here", l->cpu, l->n_missed);
      /* Counts over 999 are grouped: compare without the commas. */
      {
        g_autofree char *text = g_strdup (hit.item.text);
        GString *plain = g_string_new (NULL);

        for (const char *p = text; *p; p++)
          if (*p != ',')
            g_string_append_c (plain, *p);
        g_assert_cmpstr (plain->str, ==, expected);
        g_string_free (plain, TRUE);
      }
      g_assert_cmpint (hit.item.begin_ns, ==, l->ts_ns);
    }
}

/* Marks at the losses, at full zoom-out and zoomed on each loss; none
 * elsewhere, and the plot is unchanged without the plugin. */
static void
test_marks (CsBuiltinFixture *fixture,
            gconstpointer     data)
{
  g_autoptr(GArray) losses = oracle_losses (fixture);
  gint64 first = cs_document_get_first_ns (fixture->base.document);
  gint64 last = cs_document_get_last_ns (fixture->base.document);
  CsViewport all = { first, last + 1, 1600, 0 };

  all.height_px = cs_timeline_renderer_get_natural_height (fixture->base.renderer);
  check_marks_at (fixture, &all, losses);
  if (g_getenv ("CS_KEEP_DRAWINGS") != NULL)
    cs_test_save_output (&fixture->base);
  for (guint plot = 0; plot < cs_document_get_n_cpus (fixture->base.document); plot++)
    {
      guint n_losses = 0;

      for (guint i = 0; i < losses->len; i++)
        if (g_array_index (losses, Loss, i).cpu == plot)
          n_losses++;
      /* A mark is a 2 px line under an 8 px flag (10 columns touched at
       * most), and nothing else on a CPU plot is vermillion. */
      cs_test_check (&fixture->base, count_mark_columns (fixture, &all, plot) <= 10 * n_losses,
                     "CPU plot %u has more marks than losses", plot);
      if (n_losses > 0)
        g_assert_cmpuint (count_mark_columns (fixture, &all, plot), >=, 1);
    }

  for (guint i = 0; i < losses->len; i++)
    {
      const Loss *l = &g_array_index (losses, Loss, i);
      CsViewport zoomed = { l->ts_ns - 5000, l->ts_ns + 5000, 1600, all.height_px };

      check_marks_at (fixture, &zoomed, losses);
    }

  /* Disabled, the plugin draws nothing. */
  _cs_plugin_document_disable (fixture->plugins, fixture->plugin);
  cs_test_render (&fixture->base, &all);
  for (guint plot = 0; plot < cs_document_get_n_cpus (fixture->base.document); plot++)
    g_assert_cmpuint (count_mark_columns (fixture, &all, plot), ==, 0);
}

/* The event list: the first event after each loss says how many were
 * lost; its neighbours say nothing. */
static void
test_event_list (CsBuiltinFixture *fixture,
                 gconstpointer     data)
{
  g_autoptr(GArray) losses = oracle_losses (fixture);

  for (guint i = 0; i < losses->len; i++)
    {
      const Loss *l = &g_array_index (losses, Loss, i);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      g_autofree char *expected = NULL;
      CsPluginEventRef ref = { 0 };
      CsEvent ev;

      /* The first event of the CPU at the loss's time. */
      g_assert_true (cs_document_find_event_near (fixture->base.document, l->cpu, l->ts_ns, 0,
                                                  &ev, &error));
      g_assert_no_error (error);
      while (ev.row > 0)
        {
          CsEvent prev;

          g_assert_true (cs_document_get_event_at_row (fixture->base.document, l->cpu,
                                                       ev.row - 1, &prev, &error));
          if (prev.ts_ns < l->ts_ns)
            break;
          ev = prev;
        }
      g_assert_cmpint (ev.ts_ns, ==, l->ts_ns);
      ref.ts_ns = ev.ts_ns;
      ref.cpu = l->cpu;
      ref.pid = ev.pid;
      ref.row = ev.row;
      text = _cs_plugin_document_describe_event (fixture->plugins, &ref);
      expected = g_strdup_printf ("CPU %u lost %" G_GINT64_FORMAT " events before this one",
                                  l->cpu, l->n_missed);
      g_assert_cmpstr (text, ==, expected);

      /* The next event has nothing to say. */
      g_clear_pointer (&text, g_free);
      if (cs_document_get_event_at_row (fixture->base.document, l->cpu, ev.row + 1, &ev, NULL))
        {
          ref.row = ev.row;
          ref.ts_ns = ev.ts_ns;
          text = _cs_plugin_document_describe_event (fixture->plugins, &ref);
          g_assert_null (text);
        }
    }
}

/* A recording without losses: no mark, no JSON entry. */
static void
test_no_losses (CsBuiltinFixture *fixture,
                gconstpointer     data)
{
  g_autoptr(JsonNode) root = plugin_json (fixture);
  JsonObject *o = json_node_get_object (root);
  gint64 first = cs_document_get_first_ns (fixture->base.document);
  gint64 last = cs_document_get_last_ns (fixture->base.document);
  CsViewport all = { first, last + 1, 800, 0 };

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "losses")), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "total"), ==, 0);
  all.height_px = cs_timeline_renderer_get_natural_height (fixture->base.renderer);
  cs_test_render (&fixture->base, &all);
  for (guint plot = 0; plot < cs_document_get_n_cpus (fixture->base.document); plot++)
    g_assert_cmpuint (count_mark_columns (fixture, &all, plot), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/plugins/MissedEvents/json-equals-report", CsBuiltinFixture, NULL,
              set_up_lossy, test_json_equals_report, tear_down);
  g_test_add ("/cs/plugins/MissedEvents/info-json", CsBuiltinFixture, NULL,
              set_up_lossy, test_info_json, tear_down);
  g_test_add ("/cs/plugins/MissedEvents/marks", CsBuiltinFixture, NULL,
              set_up_lossy, test_marks, tear_down);
  g_test_add ("/cs/plugins/MissedEvents/event-list", CsBuiltinFixture, NULL,
              set_up_lossy, test_event_list, tear_down);
  g_test_add ("/cs/plugins/MissedEvents/no-losses", CsBuiltinFixture, NULL,
              set_up_lossless, test_no_losses, tear_down);
  return cs_test_render_run ();
}
