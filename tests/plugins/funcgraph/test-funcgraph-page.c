/* test-funcgraph-page.c: the Functions page and the flame rows in a real
 * window (Xvfb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A person opens the function_graph recording tests/data/funcgraph-v7.dat
 * and shows the Functions page: once the pass ran in the background, its
 * first lines must be those `chronoscope funcgraph FILE --json` prints
 * ($CHRONOSCOPE, the built executable), in that order.  Activating the
 * first line must zoom to that function's worst call with markers A and
 * B on its ends, select its entry event and add the task's flame row, whose lookup under the
 * pointer, in the middle of the call, names the function and its
 * duration.  On a recording of the function tracer only, the page lists
 * the command's lines too, and "Show calls" adds rows whose ticks name
 * the function and its caller under the pointer.  The page is reached
 * through its widgets only.
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "cs-cli.h"
#include "cs-timeline.h"
#include "gui-test-util.h"

#define N_COMPARED 10

/* What `chronoscope funcgraph PATH --json --top N` prints. */
static JsonObject *
run_cli (const char *path)
{
  g_autofree char *top = g_strdup_printf ("%d", N_COMPARED);
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "funcgraph", path, "--json", "--top", top, NULL };

  return cs_test_run_json (argv);
}

static gboolean
list_filled (gpointer data)
{
  return g_list_model_get_n_items (data) > 0;
}

/* The page's first lines are the command's, in the command's order;
 * returns the page's list. */
static GtkWidget *
check_page_lines (CsWindow  *window,
                  JsonArray *functions)
{
  GtkWidget *page, *list;
  GListModel *names;
  guint n = json_array_get_length (functions);

  cs_test_wait_until (cs_test_passes_done, window, "the plugin passes");
  page = cs_test_need_named (GTK_WIDGET (window), "funcgraph-page");
  cs_test_show_tab (page);
  list = cs_test_need_named (page, "funcgraph-list");
  names = gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (list))));
  cs_test_wait_until (list_filled, names, "the table of functions");
  g_test_message ("status: %s",
                  gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "funcgraph-status"))));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (names), >=, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), i), ==,
                     json_object_get_string_member (json_array_get_object_element (functions, i), "name"));
  return list;
}

/* Only function tracer events: "Show calls" adds rows whose ticks name
 * the function under the pointer. */
static void
test_function_events (void)
{
  g_autofree char *path = cs_test_own_path ("function-v7.dat");
  g_autoptr(JsonObject) cli = run_cli (path);
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  const char *hover = NULL;
  double y, height;

  check_page_lines (window, json_object_get_array_member (cli, "functions"));
  g_signal_emit_by_name (cs_test_need_named (GTK_WIDGET (window), "funcgraph-add-rows"), "clicked");
  cs_test_spin (300);
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), >, 0);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  cs_timeline_renderer_get_plugin_row_area (renderer, 0, &y, &height);
  for (double x = 0; x < gtk_widget_get_width (GTK_WIDGET (timeline)); x += 2)
    {
      cs_timeline_hover_at (timeline, x, y + height / 2);
      hover = cs_timeline_get_hover_text (timeline);
      if (hover != NULL && strstr (hover, "(function event)") != NULL)
        break;
    }
  g_test_message ("hover: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, ", called from "));
  cs_test_save_screenshot (GTK_WIDGET (window), "funcgraph-function-events");
  cs_test_destroy_window (window);
}

static void
test_functions_worst (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "funcgraph-v7.dat", NULL);
  g_autoptr(JsonObject) cli = run_cli (path);
  JsonArray *functions = json_object_get_array_member (cli, "functions");
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  GtkWidget *list;
  JsonObject *first, *worst;
  gint64 begin, end, pid, depth;
  g_autofree char *key = NULL;
  guint row;

  list = check_page_lines (window, functions);
  cs_test_save_screenshot (GTK_WIDGET (window), "funcgraph-page");

  /* Activating the first: its worst call, between markers, in its row. */
  first = json_array_get_object_element (functions, 0);
  worst = json_object_get_object_member (first, "worst");
  g_assert_nonnull (worst);
  begin = json_object_get_int_member (worst, "begin_ns");
  end = json_object_get_int_member (worst, "end_ns");
  pid = json_object_get_int_member (worst, "pid");
  depth = json_object_get_int_member (worst, "depth");
  g_signal_emit_by_name (list, "activate", 0);
  cs_test_spin (500);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, begin);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, end);
  /* The timeline shows the call with room around it (win.show-span). */
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <, begin);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >, end);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), <=,
                   2 * (end - begin) + 2);
  /* Its entry event is selected in the list. */
  {
    CsEventItem *selected = cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window));

    g_assert_nonnull (selected);
    g_assert_cmpint (cs_event_item_get_event (selected)->ts_ns, ==, begin);
    g_assert_cmpstr (cs_event_item_get_name (selected), ==, "ftrace:funcgraph_entry");
  }
  key = g_strdup_printf ("%" G_GINT64_FORMAT, pid);
  for (row = 0; row < cs_timeline_renderer_get_n_plugin_rows (renderer); row++)
    {
      CsPluginRowSpec spec;
      const char *label;

      cs_timeline_renderer_get_plugin_row (renderer, row, &spec, &label);
      if (g_strcmp0 (cs_plugin_get_id (spec.plugin), "funcgraph") == 0 && g_strcmp0 (spec.key, key) == 0)
        break;
    }
  g_assert_cmpuint (row, <, cs_timeline_renderer_get_n_plugin_rows (renderer));

  /* The row names the call under the pointer, at its depth's band. */
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  {
    g_autofree char *want = g_strdup_printf ("%s: ", json_object_get_string_member (first, "name"));
    g_autofree char *want_pid = g_strdup_printf ("pid %" G_GINT64_FORMAT, pid);
    const char *hover = NULL;
    double y, height, x;

    for (guint tries = 0; ; tries++)
      {
        cs_timeline_renderer_get_plugin_row_area (renderer, row, &y, &height);
        x = cs_test_timeline_x (timeline, begin + (end - begin) / 2);
        /* Bands are at most 12 px, from 2 px below the row's top. */
        for (double dy = 2; dy < height; dy += 1)
          {
            cs_timeline_hover_at (timeline, x, y + dy);
            hover = cs_timeline_get_hover_text (timeline);
            if (hover != NULL && g_str_has_prefix (hover, want))
              break;
          }
        if (tries >= 200 || (hover != NULL && g_str_has_prefix (hover, want)))
          break;
        gtk_widget_queue_draw (GTK_WIDGET (timeline));
        cs_test_spin (100);
      }
    g_test_message ("hover: %s", hover);
    g_assert_nonnull (hover);
    g_assert_true (g_str_has_prefix (hover, want));
    g_assert_nonnull (strstr (hover, want_pid));
    {
      g_autofree char *want_depth = g_strdup_printf ("depth %" G_GINT64_FORMAT, depth);

      g_assert_nonnull (strstr (hover, want_depth));
    }
  }
  cs_test_save_screenshot (GTK_WIDGET (window), "funcgraph-worst");
  cs_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-funcgraph-page", TRUE);
  g_test_add_func ("/cs/gui/FuncgraphPage/functions-worst", test_functions_worst);
  g_test_add_func ("/cs/gui/FuncgraphPage/function-events", test_function_events);
  return cs_test_gui_run ();
}
