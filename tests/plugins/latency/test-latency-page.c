/* test-latency-page.c: the latency page in a real window (Xvfb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A person opens a recording with wakeups, picks the wakeup preset on the
 * Latency page and clicks Run: once the pass ran in the background, the
 * page's figures must be those `chronoscope latency FILE --preset wakeup
 * --json` prints ($CHRONOSCOPE, the built executable), the worst-first
 * list must start with the command's worst pair, and clicking it must put
 * markers A and B on its ends, select its A event in the event list and
 * add its task's plot, over which the layer then names the pair, as it
 * does over the CPU plot of the pair's B.  The page is reached through
 * its widgets only, as a person reaches it.
 *
 * Then a custom pair made in the dialog "Custom pair…": a bad one shows
 * the parser's error in the dialog, a good one runs and gives the
 * figures `chronoscope latency --from A --to B` prints, and a reopened
 * recording shows it again.  Then markers A..B and a dragged selection
 * (which zooms the timeline to it) restrict the figures to the pairs
 * `--begin/--end` keeps.  Last, the worst wakeup of the demo recording
 * explained beside the list (verdict, breakdown, chain) as `chronoscope
 * latency --explain` explains it, its highlight drawn in an export too,
 * its top blockers, and Tab reaching every list and the bar.  With a
 * second recording added (a KVM guest to its host), the page's Recording
 * drop-down analyses the guest: its figures are `chronoscope latency
 * GUEST`'s, and clicking its worst pair puts the markers on the pair's
 * ends on the window's axis, in the guest's group.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <json-glib/json-glib.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-export.h"
#include "cs-timeline.h"
#include "cs-window-plugins.h"
#include "cs-window-streams.h"
#include "gui-test-util.h"

static gboolean
passes_done (gpointer data)
{
  return !cs_plugin_window_get_pass_running (cs_window_get_plugins (data));
}

/* What `chronoscope latency PATH ARGS... --json --top 1` prints. */
static JsonObject *
run_cli_args (const char         *path,
              const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status = 0;

  g_assert_nonnull (g_getenv ("CHRONOSCOPE"));
  g_ptr_array_add (argv, g_strdup (g_getenv ("CHRONOSCOPE")));
  g_ptr_array_add (argv, g_strdup ("latency"));
  g_ptr_array_add (argv, g_strdup (path));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, g_strdup ("--json"));
  g_ptr_array_add (argv, g_strdup ("--top"));
  g_ptr_array_add (argv, g_strdup ("1"));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("chronoscope latency failed: %s", err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static JsonObject *
run_cli (const char *path)
{
  static const char *const args[] = { "--preset", "wakeup", NULL };

  return run_cli_args (path, args);
}

/* The page's count. */
static gint64
page_count (GtkWidget *page)
{
  return g_ascii_strtoll (gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-count"))), NULL, 10);
}

/* Points at (@x, @y) until the hover names @needle (the layer finds its
 * brackets in the frame it drew; a slow build may need more frames), for
 * at most 20 s.  Returns the last hover text. */
static const char *
hover_until (CsTimeline *timeline,
             double      x,
             double      y,
             const char *needle)
{
  const char *hover;

  for (guint tries = 0; ; tries++)
    {
      cs_timeline_hover_at (timeline, x, y);
      hover = cs_timeline_get_hover_text (timeline);
      if (tries >= 200 || (hover != NULL && strstr (hover, needle) != NULL))
        break;
      gtk_widget_queue_draw (GTK_WIDGET (timeline));
      cs_test_spin (100);
    }
  g_test_message ("hover: %s", hover);
  return hover;
}

/* Where the CPU plot of @cpu is (it must have one). */
static void
cpu_plot_area (CsTimelineRenderer *renderer,
               gint64              cpu,
               double             *y,
               double             *height)
{
  const guint *cpus;
  guint n_cpus = 0, k;

  cpus = cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  for (k = 0; k < n_cpus && cpus[k] != cpu; k++)
    ;
  g_assert_cmpuint (k, <, n_cpus);
  cs_timeline_renderer_get_cpu_plot_area (renderer, k, y, height);
}

/* A figure's exact value, from its label's tooltip ("1234 ns"). */
static gint64
figure_ns (GtkWidget  *root,
           const char *name)
{
  GtkWidget *label = cs_test_need_named (root, name);
  const char *tip = gtk_widget_get_tooltip_text (label);

  g_assert_nonnull (tip);
  g_assert_true (g_str_has_suffix (tip, " ns"));
  return g_ascii_strtoll (tip, NULL, 10);
}

static void
test_wakeup_worst (void)
{
  static const struct { const char *widget, *member; } figures[] = {
    { "latency-min", "min_ns" }, { "latency-p50", "p50_ns" }, { "latency-p90", "p90_ns" },
    { "latency-p99", "p99_ns" }, { "latency-p99.9", "p99_9_ns" }, { "latency-max", "max_ns" },
  };
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "sched-irq-v7.dat", NULL);
  g_autoptr(JsonObject) cli = run_cli (path);
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  GtkWidget *page, *list;
  GtkDropDown *preset;
  GListModel *presets, *rows;
  JsonObject *worst;
  CsEventItem *selected;
  const CsEvent *event;
  const gint32 *pids;
  guint n_pids = 0, i;
  gboolean has_plot = FALSE;
  gint64 a_ts, b_ts, pid, cpu;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  cs_test_show_tab (page);
  preset = GTK_DROP_DOWN (cs_test_need_named (page, "latency-preset"));
  presets = gtk_drop_down_get_model (preset);
  for (i = 0; i < g_list_model_get_n_items (presets); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (presets), i), "wakeup") == 0)
      break;
  g_assert_cmpuint (i, <, g_list_model_get_n_items (presets));
  gtk_drop_down_set_selected (preset, i);
  /* A preset whose events the recording lacks is not offered. */
  for (guint j = 0; j < g_list_model_get_n_items (presets); j++)
    g_assert_false (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (presets), j), "kmod-"));
  g_signal_emit_by_name (cs_test_need_named (page, "latency-run"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the wakeup pass");
  cs_test_spin (300);

  /* The figures are the command's. */
  {
    const char *count = gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-count")));

    g_test_message ("count %s, command %" G_GINT64_FORMAT, count,
                    json_object_get_int_member (cli, "count"));
    g_assert_cmpint (g_ascii_strtoll (count, NULL, 10), ==, json_object_get_int_member (cli, "count"));
    g_assert_cmpint (json_object_get_int_member (cli, "count"), >, 0);
  }
  for (i = 0; i < G_N_ELEMENTS (figures); i++)
    g_assert_cmpint (figure_ns (page, figures[i].widget), ==,
                     json_object_get_int_member (cli, figures[i].member));

  /* The list starts with the command's worst pair. */
  worst = json_array_get_object_element (json_object_get_array_member (cli, "worst"), 0);
  a_ts = json_object_get_int_member (worst, "a_ts_ns");
  b_ts = json_object_get_int_member (worst, "b_ts_ns");
  pid = json_object_get_int_member (worst, "pid");
  cpu = json_object_get_int_member (worst, "cpu");
  list = cs_test_need_named (page, "latency-list");
  rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (list)));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, json_object_get_int_member (cli, "count"));
  cs_test_save_screenshot (GTK_WIDGET (window), "latency-page");

  /* Clicking it: markers on its ends, A selected, its task plotted. */
  g_signal_emit_by_name (list, "activate", 0);
  cs_test_spin (500);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ts);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, b_ts);
  selected = cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window));
  g_assert_nonnull (selected);
  event = cs_event_item_get_event (selected);
  g_assert_cmpint (event->ts_ns, ==, a_ts);
  g_assert_cmpint (event->cpu, ==, cpu);
  {
    const char *definition = json_object_get_string_member (
      json_array_get_object_element (json_object_get_array_member (cli, "pairs"), 0), "definition");
    g_autofree char *a_event = g_strndup (definition, strcspn (definition, ".>"));

    g_assert_cmpstr (cs_event_item_get_name (selected), ==, a_event);
  }
  pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);
  for (i = 0; i < n_pids && !has_plot; i++)
    has_plot = pids[i] == pid;
  g_assert_true (has_plot);

  /* The layer's bracket over that plot names the pair. */
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  {
    g_autofree char *want = g_strdup_printf (": pid %" G_GINT64_FORMAT, pid);
    const char *hover;
    double x, y, height;

    /* The layer finds its brackets in the frame it drew: after the zoom
     * to the pair, a slow build (the sanitizers') may need more frames
     * than the spin above gave it.  Look again until it has drawn, for at
     * most 20 s. */
    for (guint tries = 0; ; tries++)
      {
        cs_timeline_renderer_get_task_plot_area (renderer, i - 1, &y, &height);
        x = cs_test_timeline_x (timeline, a_ts + (b_ts - a_ts) / 2);
        cs_timeline_hover_at (timeline, x, y + height - 2);
        hover = cs_timeline_get_hover_text (timeline);
        if (tries >= 200 || (hover != NULL && strstr (hover, "wakeup latency ") != NULL))
          break;
        gtk_widget_queue_draw (GTK_WIDGET (timeline));
        cs_test_spin (100);
      }
    g_test_message ("hover: %s", hover);
    g_assert_nonnull (hover);
    g_assert_nonnull (strstr (hover, "wakeup latency "));
    g_assert_nonnull (strstr (hover, want));
  }

  /* And the CPU plot of its B, on that CPU. */
  {
    gint64 b_cpu = json_object_get_int_member (worst, "b_cpu");
    g_autofree char *want = g_strdup_printf (": pid %" G_GINT64_FORMAT, pid);
    g_autofree char *on_cpu = g_strdup_printf ("ending on CPU %" G_GINT64_FORMAT, b_cpu);
    double y, height;
    const char *hover;

    cpu_plot_area (renderer, b_cpu, &y, &height);
    hover = hover_until (timeline, cs_test_timeline_x (timeline, a_ts + (b_ts - a_ts) / 2),
                         y + height - 2, "ending on CPU");
    g_assert_nonnull (hover);
    g_assert_nonnull (strstr (hover, "wakeup latency "));
    g_assert_nonnull (strstr (hover, want));
    g_assert_nonnull (strstr (hover, on_cpu));
  }
  cs_test_save_screenshot (GTK_WIDGET (window), "latency-worst");
  cs_test_destroy_window (window);
}

/* The rows of a list box, in order. */
static GPtrArray *
list_rows (GtkWidget *list)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child))
      g_ptr_array_add (rows, child);
  return rows;
}

/* The Latency page in front, the wakeup preset run over the whole
 * recording.  Returns the page. */
static GtkWidget *
run_wakeup_whole (CsWindow *window)
{
  GtkWidget *page;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  cs_test_show_tab (page);
  cs_test_choose (page, "latency-preset", "wakeup");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (cs_test_need_named (page, "latency-whole")), TRUE);
  g_signal_emit_by_name (cs_test_need_named (page, "latency-run"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the wakeup pass");
  cs_test_spin (300);
  return page;
}

/* The exact times of the contributors the explain view lists, summed. */
static gint64
contributors_sum_ns (GtkWidget *explain)
{
  g_autoptr(GPtrArray) rows = list_rows (cs_test_need_named (explain, "latency-contributors"));
  gint64 sum_ns = 0;

  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *time = cs_test_need_named (g_ptr_array_index (rows, i), "latency-contributor-ns");

      sum_ns += g_ascii_strtoll (gtk_widget_get_tooltip_text (time), NULL, 10);
    }
  return sum_ns;
}

/* Whether @widget is @name or inside a widget named so. */
static gboolean
inside_named (GtkWidget  *widget,
              const char *name)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
      return TRUE;
  return FALSE;
}

/* The event controller of @widget named @name. */
static GtkEventController *
list_controller (GtkWidget  *widget,
                 const char *name)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (controller), name) == 0)
        return controller;        /* the widget keeps its reference */
    }
  g_error ("no event controller %s", name);
}

/* Tab from the window's start, as a keyboard user does, until focus has
 * been in each of @names (a row of a list, the bar), at most 400 steps.
 * Returns how many were reached. */
static guint
tab_through (CsWindow           *window,
             const char * const *names)
{
  guint n = g_strv_length ((char **) names);
  g_autofree gboolean *reached = g_new0 (gboolean, n);
  guint n_reached = 0;

  for (guint step = 0; step < 400 && n_reached < n; step++)
    {
      GtkWidget *focus;

      if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
        continue;        /* the end: the next Tab starts over */
      focus = gtk_root_get_focus (GTK_ROOT (window));
      for (guint i = 0; i < n; i++)
        if (!reached[i] && inside_named (focus, names[i]))
          {
            g_test_message ("Tab %u: %s (%s)", step, names[i], G_OBJECT_TYPE_NAME (focus));
            reached[i] = TRUE;
            n_reached++;
          }
    }
  return n_reached;
}

/* Exports [@begin_ns, @end_ns) of the window's timeline as File → Export
 * does (its renderer, plugin layers included) and returns the pixels. */
static guchar *
export_pixels (CsWindow *window,
               gint64    begin_ns,
               gint64    end_ns,
               gsize    *size)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  g_autofree char *dir = g_dir_make_tmp ("cs-latency-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "export.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  CsExportOptions options;
  guchar *pixels;

  g_assert_nonnull (dir);
  cs_export_options_init (&options, cs_timeline_get_document (timeline));
  options.begin_ns = begin_ns;
  options.end_ns = end_ns;
  options.width_px = 800;
  options.plain = TRUE;
  g_assert_true (cs_export_write (cs_timeline_get_renderer (timeline), &options, png, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  *size = (gsize) gdk_texture_get_width (texture) * gdk_texture_get_height (texture) * 4;
  pixels = g_malloc (*size);
  gdk_texture_download (texture, pixels, (gsize) gdk_texture_get_width (texture) * 4);
  g_unlink (png);
  g_rmdir (dir);
  return pixels;
}

/* The worst wakeup of the demo recording (kmod-sections-v7.dat: a
 * 300 ms preempt-off section of kworker/1:1H keeps a woken `sleep`
 * waiting) explained beside the list: the verdict names the section,
 * the contributors' exact times add up to the pair's latency, a
 * contributor's slices are highlighted on the CPU plot, and each step of
 * the chain moves the timeline to its link with markers A and B on it,
 * as `chronoscope latency --explain 1 --json` gives the links, and shows
 * that link's breakdown. */
static void
test_explain (void)
{
  static const char *const args[] = { "--preset", "wakeup", "--explain", "1", NULL };
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "kmod-sections-v7.dat", NULL);
  g_autoptr(JsonObject) cli = run_cli_args (path, args);
  JsonObject *pair = json_array_get_object_element (json_object_get_array_member (cli, "pairs"), 0);
  JsonArray *chain = json_object_get_array_member (pair, "chain");
  CsWindow *window = cs_test_open_window (path, 1280, 800);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  GtkWidget *page, *explain;
  g_autoptr(GPtrArray) contributors = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  const char *verdict;
  gint64 a_ts, b_ts;

  page = run_wakeup_whole (window);
  g_assert_cmpint (page_count (page), >, 0);
  a_ts = json_object_get_int_member (pair, "a_ts_ns");
  b_ts = json_object_get_int_member (pair, "b_ts_ns");

  g_signal_emit_by_name (cs_test_need_named (page, "latency-list"), "activate", 0);
  cs_test_spin (300);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ts);
  explain = cs_test_need_named (page, "latency-explain");
  verdict = gtk_label_get_text (GTK_LABEL (cs_test_need_named (explain, "latency-verdict")));
  g_test_message ("verdict: %s", verdict);
  g_assert_nonnull (strstr (verdict, json_object_get_string_member (pair, "verdict")));
  g_assert_nonnull (strstr (verdict, "preemption disabled by kworker/1:1H"));

  /* The contributors add up to the latency, to the ns. */
  contributors = list_rows (cs_test_need_named (explain, "latency-contributors"));
  g_assert_cmpint (contributors_sum_ns (explain), ==, b_ts - a_ts);
  {
    GtkWidget *bar = cs_test_need_named (explain, "latency-breakdown-bar");
    const char *tip = gtk_widget_get_tooltip_text (bar);

    g_assert_true (gtk_widget_get_focusable (bar));
    g_assert_nonnull (tip);
    g_assert_nonnull (strstr (tip, "kworker/1:1H"));
  }

  /* The largest contributor, activated, is highlighted over the CPU plot
   * where the task waited, in the window and in an export. */
  {
    gint64 margin = (b_ts - a_ts) / 10;
    gsize size = 0, size2 = 0, n_changed = 0;
    g_autofree guchar *before = export_pixels (window, a_ts - margin, b_ts + margin, &size);
    g_autofree guchar *after = NULL;

    g_signal_emit_by_name (g_ptr_array_index (contributors, 0), "activate");
    cs_test_spin (300);
    after = export_pixels (window, a_ts - margin, b_ts + margin, &size2);
    g_assert_cmpuint (size, ==, size2);
    for (gsize i = 0; i < size; i += 4)
      n_changed += memcmp (before + i, after + i, 4) != 0;
    g_test_message ("export: %" G_GSIZE_FORMAT " pixels highlighted", n_changed);
    g_assert_cmpuint (n_changed, >, 1000);
  }
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, a_ts + (b_ts - a_ts) / 2);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >=, a_ts + (b_ts - a_ts) / 2);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  {
    double y, height;
    const char *hover;

    cpu_plot_area (renderer, json_object_get_int_member (pair, "b_cpu"), &y, &height);
    hover = hover_until (timeline, cs_test_timeline_x (timeline, a_ts + (b_ts - a_ts) / 2),
                         y + height / 2, "held the waiting task");
    g_assert_nonnull (hover);
    g_assert_nonnull (strstr (hover, "kworker/1:1H"));
  }

  /* Each step of the chain: the timeline shows its link, markers A and B
   * on its ends. */
  steps = list_rows (cs_test_need_named (explain, "latency-chain"));
  g_assert_cmpuint (steps->len, ==, json_array_get_length (chain) + 2);   /* the pair, the end */
  for (guint i = 0; i + 1 < steps->len; i++)
    {
      JsonObject *link = i == 0 ? pair : json_array_get_object_element (chain, i - 1);
      gint64 la = json_object_get_int_member (link, "a_ts_ns");
      gint64 lb = json_object_get_int_member (link, "b_ts_ns");

      g_signal_emit_by_name (g_ptr_array_index (steps, i), "activate");
      cs_test_spin (300);
      g_test_message ("step %u: %" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT ", view %" G_GINT64_FORMAT
                      " .. %" G_GINT64_FORMAT, i, la, lb, cs_timeline_get_begin_ns (timeline),
                      cs_timeline_get_end_ns (timeline));
      g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, la);
      g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, lb);
      g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, la);
      g_assert_cmpint (cs_timeline_get_end_ns (timeline), >=, lb);
      /* And the breakdown shown is the link's. */
      g_assert_cmpint (contributors_sum_ns (explain), ==, lb - la);
    }
  /* Top blockers over the p99 wakeups: rows, and the first one's pairs
   * listed (its count of pairs), then all again. */
  g_signal_emit_by_name (cs_test_need_named (page, "latency-blockers-find"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the blockers pass");
  cs_test_spin (300);
  {
    g_autoptr(GPtrArray) blockers = list_rows (cs_test_need_named (page, "latency-blockers"));
    GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (
      GTK_COLUMN_VIEW (cs_test_need_named (page, "latency-list"))));
    GtkWidget *last;
    guint64 n_pairs;

    g_test_message ("blockers: %u, %s", blockers->len,
                    gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-blockers-status"))));
    g_assert_cmpuint (blockers->len, >, 0);
    /* The row's last label: "N pairs". */
    last = gtk_widget_get_last_child (gtk_list_box_row_get_child (g_ptr_array_index (blockers, 0)));
    n_pairs = g_ascii_strtoull (gtk_label_get_text (GTK_LABEL (last)), NULL, 10);
    g_assert_cmpuint (n_pairs, >, 0);
    g_signal_emit_by_name (g_ptr_array_index (blockers, 0), "activate");
    cs_test_spin (200);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_pairs);
    g_signal_emit_by_name (g_ptr_array_index (blockers, 0), "activate");
    cs_test_spin (200);
    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, page_count (page));
  }

  /* The keyboard reaches all of it with Tab. */
  {
    static const char *const names[] = {
      "latency-blockers", "latency-list", "latency-breakdown-bar", "latency-contributors",
      "latency-chain", NULL,
    };

    g_assert_cmpuint (tab_through (window, names), ==, G_N_ELEMENTS (names) - 1);
  }

  /* Tab pressed on a pair leaves the list for the explanation at once
   * (GTK 4.8 alone walks every row first), and Shift+Tab leaves it for
   * what comes before it; the key goes through the list's own handler. */
  {
    GtkWidget *list = cs_test_need_named (page, "latency-list");
    GtkEventController *tab = list_controller (list, "latency-list-tab");
    gboolean handled = FALSE;

    g_assert_true (gtk_widget_child_focus (list, GTK_DIR_TAB_FORWARD));
    g_assert_true (inside_named (gtk_root_get_focus (GTK_ROOT (window)), "latency-list"));
    g_signal_emit_by_name (tab, "key-pressed", GDK_KEY_Tab, 0, 0, &handled);
    g_assert_true (handled);
    g_assert_true (inside_named (gtk_root_get_focus (GTK_ROOT (window)), "latency-explain"));

    handled = FALSE;
    g_assert_true (gtk_widget_child_focus (list, GTK_DIR_TAB_FORWARD));
    g_signal_emit_by_name (tab, "key-pressed", GDK_KEY_ISO_Left_Tab, 0, GDK_SHIFT_MASK, &handled);
    g_assert_true (handled);
    g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (window)));
    g_assert_false (inside_named (gtk_root_get_focus (GTK_ROOT (window)), "latency-list"));
    g_assert_true (gtk_widget_get_can_focus (list));
  }

  g_signal_emit_by_name (g_ptr_array_index (steps, 0), "activate");
  cs_test_spin (300);
  cs_test_save_screenshot (GTK_WIDGET (window), "latency-explain");
  cs_test_destroy_window (window);
}

/* On the demo recording, of the 8 worst wakeups the one with the
 * longest chain, as `latency --explain 8 --json` gives it: activating it
 * in the list gives the command's verdict, and each step of its chain
 * shows that link's breakdown, whose times add up to its latency, with
 * markers A and B on it. */
static void
test_explain_chain (void)
{
  static const char *const args[] = { "--preset", "wakeup", "--explain", "8", NULL };
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "..", "..", "data", "sample",
                                            "sample.dat", NULL);
  g_autoptr(JsonObject) cli = run_cli_args (path, args);
  JsonArray *pairs = json_object_get_array_member (cli, "pairs");
  JsonObject *pair = NULL;
  JsonArray *chain;
  CsWindow *window;
  CsTimeline *timeline;
  GtkWidget *page, *explain;
  g_autoptr(GPtrArray) steps = NULL;
  guint best = 0, best_len = 0;

  for (guint i = 0; i < json_array_get_length (pairs); i++)
    {
      JsonObject *p = json_array_get_object_element (pairs, i);
      guint len = json_array_get_length (json_object_get_array_member (p, "chain"));

      if (len > best_len)
        {
          best = i;
          best_len = len;
          pair = p;
        }
    }
  g_assert_nonnull (pair);
  g_test_message ("pair %u: chain of %u links behind it", best, best_len);
  chain = json_object_get_array_member (pair, "chain");
  window = cs_test_open_window (path, 1280, 800);
  timeline = cs_window_get_timeline (window);
  page = run_wakeup_whole (window);

  g_signal_emit_by_name (cs_test_need_named (page, "latency-list"), "activate", best);
  cs_test_spin (300);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==,
                   json_object_get_int_member (pair, "a_ts_ns"));
  explain = cs_test_need_named (page, "latency-explain");
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (cs_test_need_named (explain, "latency-verdict"))),
                            json_object_get_string_member (pair, "verdict")));
  steps = list_rows (cs_test_need_named (explain, "latency-chain"));
  g_assert_cmpuint (steps->len, ==, best_len + 2);
  for (guint i = steps->len - 1; i-- > 0;)
    {
      JsonObject *link = i == 0 ? pair : json_array_get_object_element (chain, i - 1);
      gint64 la = json_object_get_int_member (link, "a_ts_ns");
      gint64 lb = json_object_get_int_member (link, "b_ts_ns");

      g_signal_emit_by_name (g_ptr_array_index (steps, i), "activate");
      cs_test_spin (200);
      g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, la);
      g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, lb);
      g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, la);
      g_assert_cmpint (cs_timeline_get_end_ns (timeline), >=, lb);
      g_assert_cmpint (contributors_sum_ns (explain), ==, lb - la);
    }
  cs_test_destroy_window (window);
}

static GtkWindow *
find_toplevel (const char *name)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (g_strcmp0 (gtk_widget_get_name (GTK_WIDGET (w)), name) == 0 &&
          gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_toplevel ("latency-custom") != NULL;
}

static const char *
selected_text (GtkWidget  *root,
               const char *name)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (cs_test_need_named (root, name));

  return gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (dropdown)),
                                     gtk_drop_down_get_selected (dropdown));
}

static void
test_custom_pair (void)
{
  static const char *const args[] = { "--from", "sched:sched_waking.pid,@cpu",
                                      "--to", "sched:sched_switch.next_pid,@cpu", NULL };
  static const char *const definition = "sched:sched_waking.pid,@cpu>sched:sched_switch.next_pid,@cpu";
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "sched-irq-v7.dat", NULL);
  g_autoptr(JsonObject) cli = run_cli_args (path, args);
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  GtkWidget *page;
  GtkWindow *dialog;
  const char *error_text;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  cs_test_show_tab (page);
  g_signal_emit_by_name (cs_test_need_named (page, "latency-custom-button"), "clicked");
  cs_test_wait_until (dialog_shown, NULL, "the dialog Custom pair");
  dialog = find_toplevel ("latency-custom");

  /* Two key parts on A, one on B: the parser's error, in the dialog. */
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-a", "sched:sched_waking");
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-a-key", "pid");
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-a-key2", "CPU");
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-b", "sched:sched_switch");
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-b-key", "next_pid");
  /* A string field is not offered as a key. */
  {
    GListModel *keys = gtk_drop_down_get_model (GTK_DROP_DOWN (cs_test_need_named (GTK_WIDGET (dialog),
                                                                          "latency-custom-b-key")));

    for (guint i = 0; i < g_list_model_get_n_items (keys); i++)
      g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (keys), i), !=, "next_comm");
  }
  g_signal_emit_by_name (cs_test_need_named (GTK_WIDGET (dialog), "latency-custom-run"), "clicked");
  cs_test_spin (100);
  g_assert_true (find_toplevel ("latency-custom") == dialog);
  error_text = gtk_label_get_text (GTK_LABEL (cs_test_need_named (GTK_WIDGET (dialog), "latency-custom-error")));
  g_test_message ("dialog error: %s", error_text);
  g_assert_cmpstr (error_text, !=, "");

  /* The same parts on both sides: it runs like a preset. */
  cs_test_choose (GTK_WIDGET (dialog), "latency-custom-b-key2", "CPU");
  g_signal_emit_by_name (cs_test_need_named (GTK_WIDGET (dialog), "latency-custom-run"), "clicked");
  cs_test_spin (200);
  g_assert_null (find_toplevel ("latency-custom"));
  cs_test_wait_until (passes_done, window, "the custom pass");
  cs_test_spin (300);
  g_assert_cmpstr (selected_text (page, "latency-preset"), ==, definition);
  g_assert_cmpint (json_object_get_int_member (cli, "count"), >, 0);
  g_assert_cmpint (page_count (page), ==, json_object_get_int_member (cli, "count"));
  g_assert_cmpint (figure_ns (page, "latency-max"), ==, json_object_get_int_member (cli, "max_ns"));
  cs_test_save_screenshot (GTK_WIDGET (window), "latency-custom");
  cs_test_destroy_window (window);

  /* Reopened, the recording shows the custom pair again. */
  window = cs_test_open_window (path, 1200, 900);
  cs_test_wait_until (passes_done, window, "the passes after reopening");
  cs_test_spin (300);
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  g_assert_cmpstr (selected_text (page, "latency-preset"), ==, definition);
  g_assert_cmpint (page_count (page), ==, json_object_get_int_member (cli, "count"));
  cs_test_destroy_window (window);
}

typedef struct {
  GtkWidget *page;
  gint64 count;
} CountWait;

static gboolean
count_is (gpointer data)
{
  CountWait *wait = data;

  return page_count (wait->page) == wait->count;
}

/* `--begin B --end E` with the wakeup preset: the pairs in [B, E). */
static gint64
cli_count (const char *path,
           gint64      begin_ns,
           gint64      end_ns)
{
  g_autofree char *b = g_strdup_printf ("%" G_GINT64_FORMAT, begin_ns);
  g_autofree char *e = g_strdup_printf ("%" G_GINT64_FORMAT, end_ns);
  const char *args[] = { "--preset", "wakeup", "--begin", b, "--end", e, NULL };
  g_autoptr(JsonObject) cli = run_cli_args (path, args);

  return json_object_get_int_member (cli, "count");
}

static void
test_range (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("CS_TESTDATA"), "sched-irq-v7.dat", NULL);
  g_autoptr(JsonObject) all = run_cli (path);
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_analysis_get_document (cs_window_get_analysis (window));
  gint64 first, last, a, b, want;
  GtkWidget *page;
  CountWait wait;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  cs_test_show_tab (page);
  cs_test_choose (page, "latency-preset", "wakeup");
  g_signal_emit_by_name (cs_test_need_named (page, "latency-run"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the wakeup pass");
  wait = (CountWait) { page, json_object_get_int_member (all, "count") };
  cs_test_wait_until (count_is, &wait, "the whole recording's count");

  first = cs_document_get_first_ns (document);
  last = cs_document_get_last_ns (document);
  a = first + (last - first) / 4;
  b = first + (last - first) * 3 / 4;

  /* Markers A..B: the pairs from A to B inclusive. */
  want = cli_count (path, a, b + 1);
  g_test_message ("A..B: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " pairs", want, wait.count);
  g_assert_cmpint (want, >, 0);
  g_assert_cmpint (want, <, wait.count);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, a);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, b);
  wait.count = want;
  cs_test_wait_until (count_is, &wait, "the count between the markers");

  /* No markers, a dragged selection: the timeline zooms to it. */
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, CS_MARKER_UNSET);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, CS_MARKER_UNSET);
  /* What the drag's release does (cs-timeline.c, drag_end_cb). */
  cs_timeline_set_span (timeline, first + (last - first) / 3, first + (last - first) * 2 / 3);
  want = cli_count (path, cs_timeline_get_begin_ns (timeline), cs_timeline_get_end_ns (timeline));
  g_test_message ("selection: %" G_GINT64_FORMAT " pairs", want);
  g_assert_cmpint (want, >, 0);
  g_assert_cmpint (want, <, json_object_get_int_member (all, "count"));
  wait.count = want;
  cs_test_wait_until (count_is, &wait, "the count of the selected span");

  /* "Whole recording" ticked: all of them, whatever the span. */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (cs_test_need_named (page, "latency-whole")), TRUE);
  wait.count = json_object_get_int_member (all, "count");
  cs_test_wait_until (count_is, &wait, "the whole recording's count, ticked");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (cs_test_need_named (page, "latency-whole")), FALSE);
  wait.count = want;
  cs_test_wait_until (count_is, &wait, "the count of the selected span, unticked");

  /* Zoomed out again: all of them. */
  cs_timeline_zoom_to_fit (timeline);
  wait.count = json_object_get_int_member (all, "count");
  cs_test_wait_until (count_is, &wait, "the whole recording's count again");
  cs_test_destroy_window (window);
}
/* Picks @name in the page's preset drop-down and runs it. */
static void
run_preset (CsWindow *window, GtkWidget *page, const char *name)
{
  GtkDropDown *preset = GTK_DROP_DOWN (cs_test_need_named (page, "latency-preset"));
  GListModel *presets = gtk_drop_down_get_model (preset);
  guint i;

  for (i = 0; i < g_list_model_get_n_items (presets); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (presets), i), name) == 0)
      break;
  g_assert_cmpuint (i, <, g_list_model_get_n_items (presets));
  gtk_drop_down_set_selected (preset, i);
  g_signal_emit_by_name (cs_test_need_named (page, "latency-run"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the pass");
  cs_test_spin (300);
}

static void
test_recording_picker (void)
{
  g_autofree char *host = g_build_filename (g_getenv ("CS_TESTDATA"), "pair", "pair-host-v6.dat", NULL);
  g_autofree char *guest = g_build_filename (g_getenv ("CS_TESTDATA"), "pair", "pair-guest-v6.dat", NULL);
  g_autoptr(GFile) guest_file = g_file_new_for_path (guest);
  g_autoptr(JsonObject) cli = run_cli (guest);
  CsWindow *window = cs_test_open_window (host, 1200, 900);
  CsTimeline *timeline = cs_window_get_timeline (window);
  GtkWidget *recording, *page, *list;
  CsStream *stream;
  JsonObject *worst;
  gint64 a_ax, b_ax, first_ax, last_ax;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  recording = cs_test_need_named (GTK_WIDGET (window), "latency-recording");
  /* One recording: nothing to pick. */
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (recording)));
  cs_window_add_file (window, guest_file);
  cs_test_wait_until (cs_test_window_has_two_streams, window, "the guest's recording");
  cs_test_wait_until (passes_done, window, "the guest's plugin passes");
  cs_test_spin (300);   /* the pages follow the zoom to fit after a pause */
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (recording)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (recording))), ==, 2);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (recording), 1);
  cs_test_spin (100);

  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  cs_test_show_tab (page);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (cs_test_need_named (page, "latency-whole")), TRUE);
  run_preset (window, page, "wakeup");
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  g_test_message ("guest: count %" G_GINT64_FORMAT ", command %" G_GINT64_FORMAT, page_count (page),
                  json_object_get_int_member (cli, "count"));
  g_assert_cmpint (page_count (page), ==, json_object_get_int_member (cli, "count"));
  g_assert_cmpint (page_count (page), >, 0);

  /* The worst pair, on the axis: in the guest's group. */
  worst = json_array_get_object_element (json_object_get_array_member (cli, "worst"), 0);
  stream = cs_stream_set_get_stream (cs_window_get_streams (window), 1);
  a_ax = cs_stream_to_axis_ns (stream, json_object_get_int_member (worst, "cpu"),
                               json_object_get_int_member (worst, "a_ts_ns"));
  b_ax = cs_stream_to_axis_ns (stream, json_object_get_int_member (worst, "b_cpu"),
                               json_object_get_int_member (worst, "b_ts_ns"));
  list = cs_test_need_named (page, "latency-list");
  g_signal_emit_by_name (list, "activate", 0);
  cs_test_spin (500);
  g_test_message ("worst pair at %" G_GINT64_FORMAT " ns of the guest, %" G_GINT64_FORMAT
                  " ns on the axis", json_object_get_int_member (worst, "a_ts_ns"), a_ax);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ax);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, b_ax);
  g_assert_cmpint (a_ax, !=, json_object_get_int_member (worst, "a_ts_ns"));
  first_ax = cs_stream_to_axis_ns (stream, 0, cs_document_get_first_ns (cs_stream_get_document (stream)));
  last_ax = cs_stream_to_axis_ns (stream, 0, cs_document_get_last_ns (cs_stream_get_document (stream)));
  g_assert_cmpint (a_ax, >=, first_ax - 1000000);
  g_assert_cmpint (b_ax, <=, last_ax + 1000000);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, a_ax);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >=, b_ax);
  cs_test_save_screenshot (GTK_WIDGET (window), "latency-page-guest");

  /* Back to the window's own recording. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (recording), 0);
  cs_test_spin (100);
  page = cs_test_need_named (GTK_WIDGET (window), "latency-page");
  g_assert_true (cs_plugin_window_get_nth_document (cs_window_get_plugins (window), 0) ==
                 cs_plugin_window_get_document (cs_window_get_plugins (window)));
  cs_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-latency-page", TRUE);
  g_test_add_func ("/cs/gui/LatencyPage/wakeup-worst", test_wakeup_worst);
  g_test_add_func ("/cs/gui/LatencyPage/custom-pair", test_custom_pair);
  g_test_add_func ("/cs/gui/LatencyPage/range", test_range);
  g_test_add_func ("/cs/gui/LatencyPage/explain", test_explain);
  g_test_add_func ("/cs/gui/LatencyPage/explain-chain", test_explain_chain);
  g_test_add_func ("/cs/gui/LatencyPage/recording-picker", test_recording_picker);
  return cs_test_gui_run ();
}
