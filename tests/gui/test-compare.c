/* test-compare.c: two recordings side by side in one window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the application as `chronoscope A.dat --compare B.dat` (the real
 * option parsing) with A = tests/data/sched-irq-v6.dat and B =
 * missed-events-v7.dat, and checks in its window: both timelines are
 * shown, labelled with their files; zooming or scrolling either shows
 * the same span, relative to each recording's first event, in the other,
 * and relative to marker A of each once aligned at markers; the
 * comparison table equals what `chronoscope stats A --compare B` prints
 * ($CHRONOSCOPE, run as a separate process), for the whole recordings
 * and for the aligned visible span; closing the comparison gives back the
 * window's one timeline.
 */
#include "config.h"

#include <string.h>

#include "cs-application.h"
#include "cs-cli.h"
#include "cs-compare.h"
#include "cs-compare-stats-window.h"
#include "cs-range-stats.h"
#include "gui-test-util.h"

typedef struct {
  GtkApplication *application;
  char *path_a;
  char *path_b;
  gboolean checked;
} Run;

static gboolean
compare_shown (gpointer data)
{
  CsCompare *compare = data;

  return !cs_compare_is_loading (compare) && cs_compare_get_document (compare) != NULL &&
         cs_test_widget_is_drawable (cs_compare_get_timeline (compare));
}

/* The window's stack has crossfaded to the timeline page. */
static gboolean
page_shown (gpointer data)
{
  GtkWidget *stack = gtk_widget_get_ancestor (data, GTK_TYPE_STACK);

  return cs_test_widget_is_drawable (data) && !gtk_stack_get_transition_running (GTK_STACK (stack));
}

static gboolean
table_ready (gpointer data)
{
  return !cs_compare_stats_window_is_busy (data) && cs_compare_stats_window_get_text (data) != NULL;
}

/* What `chronoscope stats A --compare B --top 40 [ARGS]` prints. */
static char *
cli_table (const Run  *run,
           const char *begin_ns,
           const char *end_ns)
{
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "stats", run->path_a, "--compare", run->path_b,
                         "--top", "40", begin_ns ? "--begin" : NULL, begin_ns, "--end", end_ns, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("stats --compare failed: %s", err);
  return out;
}

/* Timeline B shows what timeline A shows, relative to each origin. */
static void
assert_in_step (CsCompare *compare)
{
  CsWindow *window = NULL;
  CsTimeline *b = cs_compare_get_timeline (compare);
  CsTimeline *a;
  gint64 origin_a = cs_compare_get_origin_ns (compare, FALSE);
  gint64 origin_b = cs_compare_get_origin_ns (compare, TRUE);

  window = CS_WINDOW (gtk_widget_get_root (GTK_WIDGET (b)));
  a = cs_window_get_timeline (window);
  g_assert_cmpint (cs_timeline_get_begin_ns (b) - origin_b, ==, cs_timeline_get_begin_ns (a) - origin_a);
  g_assert_cmpint (cs_timeline_get_end_ns (b) - origin_b, ==, cs_timeline_get_end_ns (a) - origin_a);
}

static void
check_window (CsWindow *window,
              Run      *run)
{
  CsCompare *compare = cs_compare_get_for (GTK_APPLICATION_WINDOW (window));
  CsTimeline *a = cs_window_get_timeline (window);
  CsTimeline *b;
  CsDocument *doc_a, *doc_b;
  GtkWindow *stats;
  GtkWidget *paned_child;
  gint64 first_a, first_b, span_ns;
  g_autofree char *want = NULL;
  g_autofree char *begin = NULL;
  g_autofree char *end = NULL;
  g_autofree char *want_span = NULL;

  /* Both timelines, named. */
  g_assert_true (cs_compare_is_active (compare));
  cs_test_wait_until (compare_shown, compare, "recording B to show");
  b = cs_compare_get_timeline (compare);
  doc_a = cs_timeline_get_document (a);
  doc_b = cs_timeline_get_document (b);
  g_assert_true (doc_b == cs_compare_get_document (compare));
  g_assert_cmpstr (cs_document_get_trace_path (doc_a), ==, run->path_a);
  g_assert_cmpstr (cs_document_get_trace_path (doc_b), ==, run->path_b);
  g_assert_true (g_str_has_prefix (cs_compare_get_label (compare, FALSE), "A: sched-irq-v6.dat — "));
  g_assert_true (g_str_has_prefix (cs_compare_get_label (compare, TRUE), "B: missed-events-v7.dat — "));
  cs_test_wait_until (page_shown, a, "the timeline page");
  g_assert_nonnull (cs_test_find_visible_label (GTK_WIDGET (window), cs_compare_get_label (compare, TRUE),
                                               GTK_WIDGET (window)));
  g_assert_true (gtk_widget_get_width (GTK_WIDGET (a)) == gtk_widget_get_width (GTK_WIDGET (b)));
  first_a = cs_document_get_first_ns (doc_a);
  first_b = cs_document_get_first_ns (doc_b);
  g_assert_cmpint (cs_compare_get_origin_ns (compare, FALSE), ==, first_a);
  g_assert_cmpint (cs_compare_get_origin_ns (compare, TRUE), ==, first_b);
  /* A shows all of its 414 ms, B all of its 188 ms: it has no more. */
  g_assert_cmpint (cs_timeline_get_begin_ns (a), ==, first_a);
  g_assert_cmpint (cs_timeline_get_begin_ns (b), ==, first_b);
  g_assert_cmpint (cs_timeline_get_end_ns (a), >, cs_document_get_last_ns (doc_a));
  g_assert_cmpint (cs_timeline_get_end_ns (b), >, cs_document_get_last_ns (doc_b));

  /* Hovering B tells what lies there, in B's row. */
  {
    double y, height;

    cs_timeline_renderer_get_cpu_plot_area (cs_timeline_get_renderer (b), 0, &y, &height);
    cs_timeline_hover_at (b, gtk_widget_get_width (GTK_WIDGET (b)) / 2.0, y + height / 2);
    g_assert_cmpstr (cs_timeline_get_hover_text (b), !=, "");
    cs_test_spin (50);
    g_assert_nonnull (cs_test_find_visible_label (GTK_WIDGET (window), cs_timeline_get_hover_text (b),
                                                  GTK_WIDGET (window)));
  }

  /* B's context menu acts on B's plots: its "win." actions are B's. */
  {
    g_autoptr(CsRangeStats) st = cs_document_compute_range_stats (doc_b, G_MININT64, G_MAXINT64, NULL, NULL);
    gint32 pid;

    g_assert_nonnull (st);
    g_assert_cmpuint (st->tasks->len, >, 0);
    pid = g_array_index (st->tasks, CsTaskTime, 0).pid;
    g_assert_false (cs_analysis_has_task_plot (cs_compare_get_analysis (compare), pid));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (b), "win.add-task-plot", "i", pid));
    g_assert_true (cs_analysis_has_task_plot (cs_compare_get_analysis (compare), pid));
    g_assert_false (cs_analysis_has_task_plot (cs_window_get_analysis (window), pid));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (a), "win.add-task-plot", "i", pid));
    g_assert_true (cs_analysis_has_task_plot (cs_window_get_analysis (window), pid));
  }

  /* Zooming A moves B in step; zooming and scrolling B moves A. */
  span_ns = cs_timeline_get_end_ns (a) - cs_timeline_get_begin_ns (a);
  /* 41 ms around 103 ms: inside both recordings. */
  cs_timeline_zoom (a, 0.1, gtk_widget_get_width (GTK_WIDGET (a)) / 4.0);
  g_assert_cmpint (cs_timeline_get_end_ns (a) - cs_timeline_get_begin_ns (a), <, span_ns);
  g_assert_cmpint (cs_timeline_get_begin_ns (a), >, first_a);
  assert_in_step (compare);
  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (window), "compare-window.png");
  cs_timeline_zoom (b, 0.5, gtk_widget_get_width (GTK_WIDGET (b)) / 2.0);
  cs_timeline_pan (b, 0.1);
  assert_in_step (compare);
  g_assert_cmpint (cs_timeline_get_end_ns (b) - cs_timeline_get_begin_ns (b), <, span_ns / 4);

  /* The table of the whole recordings is the CLI's. */
  cs_test_activate (window, "compare-stats", NULL);
  stats = cs_compare_show_stats (compare);
  g_assert_nonnull (stats);
  cs_test_wait_until (table_ready, stats, "the comparison of the whole recordings");
  want = cli_table (run, NULL, NULL);
  g_assert_cmpstr (cs_compare_stats_window_get_text (CS_COMPARE_STATS_WINDOW (stats)), ==, want);
  g_assert_nonnull (strstr (want, "(the whole recording)"));
  cs_test_save_screenshot (GTK_WIDGET (stats), "compare-stats.png");

  /* And of the aligned visible span: A's span, B's aligned at its start. */
  cs_compare_stats_window_set_visible_span (CS_COMPARE_STATS_WINDOW (stats), TRUE);
  cs_test_wait_until (table_ready, stats, "the comparison of the visible span");
  begin = g_strdup_printf ("%" G_GINT64_FORMAT, cs_timeline_get_begin_ns (a));
  end = g_strdup_printf ("%" G_GINT64_FORMAT, cs_timeline_get_end_ns (a));
  want_span = cli_table (run, begin, end);
  g_assert_cmpstr (cs_compare_stats_window_get_text (CS_COMPARE_STATS_WINDOW (stats)), ==, want_span);
  g_assert_cmpstr (want_span, !=, want);

  /* Aligned at marker A of each. */
  cs_timeline_set_marker_ns (a, CS_MARKER_A, first_a + 100000000);
  cs_timeline_set_marker_ns (b, CS_MARKER_A, first_b + 150000000);
  cs_test_activate (window, "compare-align-markers", NULL);     /* toggles it on */
  g_assert_true (cs_compare_get_align_markers (compare));
  g_assert_cmpint (cs_compare_get_origin_ns (compare, TRUE), ==, first_b + 150000000);
  assert_in_step (compare);
  g_assert_cmpint (cs_timeline_get_begin_ns (b) - first_b, !=, cs_timeline_get_begin_ns (a) - first_a);
  cs_timeline_center_on (a, first_a + 120000000);
  assert_in_step (compare);

  /* Closing gives back one timeline, where it was. */
  cs_test_activate (window, "compare-close", NULL);
  g_assert_false (cs_compare_is_active (compare));
  g_assert_null (cs_compare_get_timeline (compare));
  g_assert_null (cs_compare_get_label (compare, FALSE));
  paned_child = gtk_paned_get_start_child (GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (a), GTK_TYPE_PANED)));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (a), paned_child));
  g_assert_true (GTK_IS_SCROLLED_WINDOW (paned_child));
  cs_test_spin (100);
  g_assert_true (cs_test_widget_is_drawable (a));
  run->checked = TRUE;
}

static gboolean
window_ready_cb (gpointer data)
{
  Run *run = data;
  GList *windows = gtk_application_get_windows (run->application);

  if (windows == NULL || cs_window_get_state (windows->data) != CS_WINDOW_STATE_READY)
    return G_SOURCE_CONTINUE;
  check_window (windows->data, run);
  gtk_window_destroy (GTK_WINDOW (windows->data));
  return G_SOURCE_REMOVE;
}

static void
test_command_line (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");
  Run run = { 0 };
  g_autoptr(CsApplication) application = cs_application_new ();
  char *argv[5];
  int status;

  run.path_a = g_build_filename (dir, "sched-irq-v6.dat", NULL);
  run.path_b = g_build_filename (dir, "missed-events-v7.dat", NULL);
  argv[0] = "chronoscope";
  argv[1] = run.path_a;
  argv[2] = "--compare";
  argv[3] = run.path_b;
  argv[4] = NULL;

  /* Another id: the harness's application holds the first one. */
  g_application_set_application_id (G_APPLICATION (application), APP_ID ".CompareTest");
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application)) | G_APPLICATION_NON_UNIQUE);
  run.application = GTK_APPLICATION (application);
  g_timeout_add (50, window_ready_cb, &run);
  status = g_application_run (G_APPLICATION (application), 4, argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (run.checked);
  g_free (run.path_a);
  g_free (run.path_b);
}

static gboolean
compare_idle (gpointer data)
{
  return !cs_compare_is_loading (data);
}

/* A file that is not a recording: B's label says so, naming it, and the
 * window keeps its recording. */
static void
test_not_a_recording (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *bad_path = g_build_filename (g_getenv ("CS_TESTDATA"), "README.md", NULL);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsCompare *compare = cs_compare_get_for (GTK_APPLICATION_WINDOW (window));

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare-close"));
  cs_compare_open (compare, bad);
  g_assert_true (cs_compare_is_active (compare));
  cs_test_wait_until (compare_idle, compare, "indexing README.md to fail");
  g_assert_nonnull (cs_compare_get_error_message (compare));
  g_assert_nonnull (strstr (cs_compare_get_error_message (compare), "README.md"));
  g_assert_nonnull (strstr (cs_compare_get_label (compare, TRUE), "README.md"));
  g_assert_null (cs_compare_get_document (compare));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare-stats"));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  g_assert_null (cs_window_get_error_message (window));

  cs_test_activate (window, "compare-close", NULL);
  g_assert_false (cs_compare_is_active (compare));
  g_assert_null (cs_compare_get_error_message (compare));
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-compare", TRUE);

  g_test_add_func ("/cs/gui/Compare/command-line", test_command_line);
  g_test_add_func ("/cs/gui/Compare/not-a-recording", test_not_a_recording);

  return cs_test_gui_run ();
}
