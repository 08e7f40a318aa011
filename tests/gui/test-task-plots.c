/* test-task-plots.c: task plots, CPU plots, filters and sessions in the
 * window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process, as test-gui.c does (this program
 * answers `index-worker FILE` itself), on tests/data/sched-irq-v6.dat.
 * What the window must show is asked from the index: a task plot's pixels
 * against cs_document_get_task_intervals(), the event list's row count
 * under a filter against a count of the events that pass, made here event
 * by event.  XDG folders are private; screenshots go to $CS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "cs-analysis.h"
#include "cs-application.h"
#include "cs-cli.h"
#include "cs-filter-bar.h"
#include "cs-filter-dialog.h"
#include "cs-palette.h"
#include "cs-plot-args.h"
#include "cs-session.h"
#include "cs-task-list.h"
#include "cs-window-actions.h"
#include "cs-window.h"
#include "gui-test-util.h"
#include "cs-test-hook.h"


/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static gboolean
filter_is_ready (gpointer data)
{
  return cs_analysis_get_filter_ready (data);
}

static guint32
pixels_get (const CsTestPixels *pixels, int x, int y)
{
  const guchar *p;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, pixels->width);
  g_assert_cmpint (y, <, pixels->height);
  p = pixels->pixels + (gsize) y * pixels->stride + (gsize) x * 4;
  return ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

static GArray *
task_intervals (CsDocument *document, gint32 pid)
{
  g_autoptr(GError) error = NULL;
  GArray *intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));

  g_assert_true (cs_document_get_task_intervals (document, pid, cs_document_get_first_ns (document),
                                                 cs_document_get_last_ns (document) + 1,
                                                 intervals, &error));
  g_assert_no_error (error);
  return intervals;
}

static const CsTask *
busiest_task (CsDocument *document)
{
  const CsTask *busiest = NULL;

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    {
      const CsTask *task = cs_document_get_task (document, i);

      if (task->pid > 0 && (busiest == NULL || task->runtime_ns > busiest->runtime_ns))
        busiest = task;
    }
  g_assert_nonnull (busiest);
  return busiest;
}

/* The longest interval of the recording in @state (with a wakeup when
 * @wakeup), and its task. */
static gboolean
longest_interval (CsDocument *document, CsTaskState state, gboolean wakeup, gint32 *pid,
                  CsTaskInterval *found)
{
  gint64 best_ns = 0;

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    {
      const CsTask *task = cs_document_get_task (document, i);
      g_autoptr(GArray) intervals = NULL;

      if (task->pid <= 0 || task->runtime_ns == 0)
        continue;
      intervals = task_intervals (document, task->pid);
      for (guint j = 0; j < intervals->len; j++)
        {
          const CsTaskInterval *interval = &g_array_index (intervals, CsTaskInterval, j);

          if (interval->state != state || (wakeup && interval->wakeup_ns < interval->begin_ns))
            continue;
          if (interval->end_ns - interval->begin_ns > best_ns)
            {
              best_ns = interval->end_ns - interval->begin_ns;
              *pid = task->pid;
              *found = *interval;
            }
        }
    }
  return best_ns > 0;
}

/* Where a task plot is, in timeline pixels. */
static void
task_plot_area (CsTimeline *timeline, gint32 pid, double *y, double *height)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  const gint32 *pids;
  guint n_pids;

  pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);
  for (guint i = 0; i < n_pids; i++)
    if (pids[i] == pid)
      {
        cs_timeline_renderer_get_task_plot_area (renderer, i, y, height);
        return;
      }
  g_error ("pid %d has no task plot", pid);
}

/* ------------------------------------------------------------------------ */
/* Task plots                                                                */

static void
test_add_task_plot (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  const CsTask *task = busiest_task (document);
  g_autoptr(GArray) intervals = task_intervals (document, task->pid);
  const CsTaskInterval *run = NULL;
  int height_before, height_after;
  double y, height, x;
  guint n_pids, n_checked = 0;
  CsColor color;
  CsTestPixels pixels;

  height_before = cs_timeline_renderer_get_natural_height (cs_timeline_get_renderer (timeline));
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (task->pid));
  g_assert_true (cs_analysis_has_task_plot (analysis, task->pid));
  cs_timeline_renderer_get_task_plots (cs_timeline_get_renderer (timeline), &n_pids);
  g_assert_cmpuint (n_pids, ==, 1);
  height_after = cs_timeline_renderer_get_natural_height (cs_timeline_get_renderer (timeline));
  g_assert_cmpint (height_after, >, height_before);
  /* Adding it again changes nothing. */
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (task->pid));
  cs_timeline_renderer_get_task_plots (cs_timeline_get_renderer (timeline), &n_pids);
  g_assert_cmpuint (n_pids, ==, 1);

  /* Zoomed on its longest run: that CPU's colour across the run. */
  for (guint i = 0; i < intervals->len; i++)
    {
      const CsTaskInterval *interval = &g_array_index (intervals, CsTaskInterval, i);

      if (interval->state == CS_TASK_RUNNING && interval->cpu >= 0 &&
          (run == NULL || interval->end_ns - interval->begin_ns > run->end_ns - run->begin_ns))
        run = interval;
    }
  g_assert_nonnull (run);
  cs_timeline_set_span (timeline, run->begin_ns - (run->end_ns - run->begin_ns) / 2,
                        run->end_ns + (run->end_ns - run->begin_ns) / 2);
  cs_test_spin (200);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  cs_test_save_screenshot (GTK_WIDGET (window), "task-plot.png");

  cs_test_pixels_init (&pixels, GTK_WIDGET (timeline));
  task_plot_area (timeline, task->pid, &y, &height);
  g_assert_cmpfloat (y + height, <=, pixels.height);
  cs_palette_get_cpu_color ((guint) run->cpu, &color);
  for (double f = 0.1; f < 0.95; f += 0.1)
    {
      guint32 found;

      x = cs_test_timeline_x (timeline, run->begin_ns + (gint64) ((run->end_ns - run->begin_ns) * f));
      found = pixels_get (&pixels, (int) x, (int) y + 7);
      g_test_message ("pid %d on CPU %d: pixel (%d, %d) is %06x", task->pid, run->cpu, (int) x,
                      (int) y + 7, found);
      g_assert_true (cs_test_same_color (found, cs_color_to_rgb24 (&color), 3));
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 5);
  cs_test_pixels_clear (&pixels);

  /* Hovering the plot says what the task did. */
  cs_timeline_hover_at (timeline, cs_test_timeline_x (timeline, (run->begin_ns + run->end_ns) / 2),
                        y + height / 2);
  g_test_message ("hover: %s", cs_timeline_get_hover_text (timeline));
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), "CPU"));

  cs_test_activate (window, "remove-task-plot", g_variant_new_int32 (task->pid));
  g_assert_false (cs_analysis_has_task_plot (analysis, task->pid));
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (cs_timeline_get_renderer (timeline)), ==,
                   height_before);

  cs_test_destroy_window (window);
}

static void
test_task_list (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  const CsTask *task = busiest_task (document);
  g_autofree char *pid_text = g_strdup_printf ("%d", task->pid);
  CsTaskList *list;
  guint n_all;

  cs_test_activate (window, "show-tasks", NULL);
  list = CS_TASK_LIST (_cs_window_actions_get_dialog (window, "tasks"));
  g_assert_nonnull (list);
  cs_test_wait_until (cs_test_widget_is_drawable, list, "the task list");
  n_all = cs_task_list_get_n_shown (list);
  g_assert_cmpuint (n_all, >, 1);
  /* Busiest first. */
  g_assert_cmpint (cs_task_list_get_shown_pid (list, 0), ==, task->pid);

  /* Check two tasks: their plots appear, in that order. */
  cs_task_list_set_plotted (list, 0, TRUE);
  cs_task_list_set_plotted (list, 1, TRUE);
  g_assert_true (cs_analysis_has_task_plot (analysis, task->pid));
  g_assert_true (cs_analysis_has_task_plot (analysis, cs_task_list_get_shown_pid (list, 1)));
  cs_test_spin (300);
  cs_test_save_screenshot (GTK_WIDGET (list), "task-list.png");
  cs_test_save_screenshot (GTK_WIDGET (window), "task-plots-from-list.png");

  /* Search by pid, then by name. */
  cs_task_list_set_search (list, pid_text);
  g_assert_cmpuint (cs_task_list_get_n_shown (list), >=, 1);
  g_assert_cmpuint (cs_task_list_get_n_shown (list), <, n_all);
  g_assert_cmpint (cs_task_list_get_shown_pid (list, 0), ==, task->pid);
  cs_task_list_set_search (list, "CS-SPIN");
  for (guint i = 0; i < cs_task_list_get_n_shown (list); i++)
    g_assert_cmpstr (cs_document_get_comm (document, cs_task_list_get_shown_pid (list, i)), ==, "cs-spin");
  cs_task_list_set_search (list, "");

  /* The context menu's action unchecks it in the list too. */
  cs_test_activate (window, "remove-task-plot", g_variant_new_int32 (task->pid));
  g_assert_false (cs_analysis_has_task_plot (analysis, task->pid));

  gtk_window_destroy (GTK_WINDOW (list));
  cs_test_destroy_window (window);
}

static void
test_wakeup_latency_markers (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  CsTaskInterval latency = { 0 };
  gint32 pid = 0;
  double y, height, x;

  g_assert_true (longest_interval (document, CS_TASK_RUNNABLE, TRUE, &pid, &latency));
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (pid));
  cs_timeline_set_span (timeline, latency.wakeup_ns - (latency.end_ns - latency.wakeup_ns) / 4,
                        latency.end_ns + (latency.end_ns - latency.wakeup_ns) / 4);
  cs_test_spin (200);
  task_plot_area (timeline, pid, &y, &height);
  x = cs_test_timeline_x (timeline, (latency.wakeup_ns + latency.end_ns) / 2);

  /* Double-click on the box: A on the wakeup, B on the switch-in. */
  cs_timeline_click_at (timeline, x, y + height / 2, 1, 0);
  cs_timeline_click_at (timeline, x, y + height / 2, 2, 0);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, latency.wakeup_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, latency.end_ns);
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (window), "wakeup-latency.png");

  cs_test_destroy_window (window);
}

/* ------------------------------------------------------------------------ */
/* Filters                                                                   */

/* The index-level count: every event of every CPU, tested one by one. */
static guint64
count_passing (CsDocument *document, CsEventFilter *filter)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  guint64 n = 0;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (document); cpu++)
    {
      g_autoptr(GError) error = NULL;

      g_array_set_size (events, 0);
      g_assert_true (cs_document_get_events (document, cpu, cs_document_get_first_ns (document),
                                             cs_document_get_last_ns (document) + 1, G_MAXUINT,
                                             events, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < events->len; i++)
        n += cs_event_filter_matches_event (filter, &g_array_index (events, CsEvent, i));
    }
  return n;
}

static guint
find_type (CsDocument *document, const char *system, const char *name)
{
  for (guint i = 0; i < cs_document_get_n_event_types (document); i++)
    {
      const CsEventType *type = cs_document_get_event_type (document, i);

      if (g_str_equal (type->system, system) && g_str_equal (type->name, name))
        return type->id;
    }
  g_error ("no %s:%s", system, name);
  return 0;
}

static guint
list_rows (CsWindow *window)
{
  return g_list_model_get_n_items (G_LIST_MODEL (cs_event_list_view_get_model (cs_window_get_event_list_view (window))));
}

static void
check_list_matches (CsWindow *window, const char *what)
{
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  guint64 expected;

  cs_test_wait_until (filter_is_ready, analysis, "the list's filter");
  expected = count_passing (document, cs_analysis_get_filter (analysis));
  g_test_message ("%s: %u rows, %" G_GUINT64_FORMAT " events pass", what, list_rows (window), expected);
  g_assert_cmpuint (list_rows (window), ==, expected);
  g_assert_cmpuint (cs_analysis_get_n_list_events (analysis), ==, expected);
}

static void
test_filter_actions (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  guint switch_type = find_type (document, "sched", "sched_switch");
  guint64 n_total = cs_document_get_n_events (document);
  const CsTask *task = busiest_task (document);
  CsFilterBar *bar;

  g_assert_cmpuint (list_rows (window), ==, n_total);

  /* Hide sched_switch: the list loses exactly those events. */
  cs_test_activate (window, "filter-event-hide", g_variant_new_uint32 (switch_type));
  check_list_matches (window, "hide sched_switch");
  g_assert_cmpuint (list_rows (window), ==,
                    n_total - cs_document_get_event_type (document, switch_type)->n_events);

  /* And show only the busiest task's events. */
  cs_test_activate (window, "filter-task-only", g_variant_new_int32 (task->pid));
  check_list_matches (window, "and only the busiest task");
  g_assert_cmpuint (list_rows (window), <, n_total / 2);

  /* Only CPU 0, where it ran. */
  cs_test_activate (window, "filter-cpu-only", g_variant_new_uint32 (0));
  check_list_matches (window, "and only CPU 0");
  g_assert_cmpuint (list_rows (window), >, 0);

  /* The filter bar says so. */
  bar = CS_FILTER_BAR (gtk_widget_get_first_child (gtk_widget_get_parent (
          gtk_widget_get_ancestor (GTK_WIDGET (cs_window_get_timeline (window)), GTK_TYPE_PANED))));
  g_test_message ("filter bar: %s", cs_filter_bar_get_text (bar));
  g_assert_nonnull (strstr (cs_filter_bar_get_text (bar), "sched:sched_switch"));
  cs_test_spin (300);
  cs_test_save_screenshot (GTK_WIDGET (window), "filter-bar.png");

  /* Dim and hide on the timeline: the renderer gets the filter. */
  cs_analysis_set_hide_filtered (analysis, TRUE);
  g_assert_true (cs_analysis_get_hide_filtered (analysis));

  cs_test_activate (window, "filter-clear", NULL);
  cs_test_wait_until (filter_is_ready, analysis, "the cleared filter");
  g_assert_cmpuint (list_rows (window), ==, n_total);
  g_assert_cmpstr (cs_filter_bar_get_text (bar), ==, "");

  cs_test_destroy_window (window);
}

static gboolean
filter_progress_shown (gpointer data)
{
  CsFilterBar *bar = data;

  return gtk_widget_get_visible (cs_filter_bar_get_cancel_button (bar)) &&
         gtk_widget_get_visible (cs_filter_bar_get_progress_bar (bar)) &&
         gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (cs_filter_bar_get_progress_bar (bar))) > 0.0;
}

/* While the list counts what a filter passes, the filter bar shows the
 * progress and Cancel; Cancel stops the count and shows every event.
 * CS_FILTER_TEST_HANG holds the count (after some progress) until then. */
static void
test_filter_cancel (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  guint switch_type = find_type (document, "sched", "sched_switch");
  guint64 n_total = cs_document_get_n_events (document);
  CsFilterBar *bar;

  bar = CS_FILTER_BAR (gtk_widget_get_first_child (gtk_widget_get_parent (
          gtk_widget_get_ancestor (GTK_WIDGET (cs_window_get_timeline (window)), GTK_TYPE_PANED))));
  g_assert_false (gtk_widget_get_visible (cs_filter_bar_get_cancel_button (bar)));

  cs_test_hook_set ("CS_FILTER_TEST_HANG", TRUE);
  cs_test_activate (window, "filter-event-hide", g_variant_new_uint32 (switch_type));
  cs_test_wait_until (filter_progress_shown, bar, "the filter's progress and Cancel");
  g_assert_false (cs_analysis_get_filter_ready (analysis));
  cs_test_hook_set ("CS_FILTER_TEST_HANG", FALSE);

  gtk_widget_activate (cs_filter_bar_get_cancel_button (bar));
  cs_test_wait_until (filter_is_ready, analysis, "the cancelled filter");
  g_assert_cmpuint (list_rows (window), ==, n_total);
  g_assert_cmpstr (cs_filter_bar_get_text (bar), ==, "");

  cs_test_destroy_window (window);
}

static void
test_filter_dialog (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  guint wakeup_type = find_type (document, "sched", "sched_wakeup");
  const CsTask *task = busiest_task (document);
  g_autofree char *expression = NULL;
  CsFilterDialog *dialog;

  cs_test_activate (window, "show-filters", NULL);
  dialog = CS_FILTER_DIALOG (_cs_window_actions_get_dialog (window, "filters"));
  g_assert_nonnull (dialog);
  cs_test_wait_until (cs_test_widget_is_drawable, dialog, "the filter dialog");

  /* A bad expression: a clear message, and Apply refuses it. */
  cs_filter_dialog_set_page (dialog, CS_FILTER_PAGE_ADVANCED);
  cs_filter_dialog_set_expression (dialog, "sched/sched_switch: no_such_field > 3");
  g_test_message ("error: %s", cs_filter_dialog_get_error (dialog));
  g_assert_nonnull (cs_filter_dialog_get_error (dialog));
  g_assert_nonnull (strstr (cs_filter_dialog_get_error (dialog), "no_such_field"));
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (dialog), "filter-dialog-error.png");
  g_assert_false (cs_filter_dialog_apply (dialog));
  g_assert_true (cs_event_filter_is_empty (cs_analysis_get_filter (analysis)));

  /* A good one, with sched_wakeup hidden on the Events page. */
  expression = g_strdup_printf ("sched/sched_switch: prev_prio < 130 && next_pid == %d", task->pid);
  cs_filter_dialog_set_expression (dialog, expression);
  g_test_message ("error: %s", cs_filter_dialog_get_error (dialog));
  g_assert_null (cs_filter_dialog_get_error (dialog));
  cs_filter_dialog_set_page (dialog, CS_FILTER_PAGE_EVENTS);
  cs_filter_dialog_set_mode (dialog, CS_FILTER_TYPE, CS_FILTER_HIDE);
  cs_filter_dialog_set_checked (dialog, CS_FILTER_TYPE, wakeup_type, TRUE);
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (dialog), "filter-dialog-events.png");
  g_assert_true (cs_filter_dialog_apply (dialog));
  g_assert_true (cs_event_filter_contains (cs_analysis_get_filter (analysis), CS_FILTER_TYPE, wakeup_type));
  g_assert_nonnull (cs_event_filter_get_expression (cs_analysis_get_filter (analysis)));
  check_list_matches (window, "expression, sched_wakeup hidden");
  g_assert_cmpuint (list_rows (window), >, 0);
  g_assert_cmpuint (list_rows (window), <, cs_document_get_event_type (document, find_type (document, "sched", "sched_switch"))->n_events);

  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_test_destroy_window (window);
}

/* ------------------------------------------------------------------------ */
/* Sessions and --cpu                                                        */

static void
test_session_round_trip (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *session_path = g_build_filename (cs_test_work_dir, "round-trip.json", NULL);
  g_autofree char *last_path = cs_session_get_last_path ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  const CsTask *task = busiest_task (document);
  guint cpu_one = 1;
  gint32 pids[2] = { task->pid, 0 };
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 span_ns = cs_document_get_last_ns (document) - first_ns;
  gint64 begin_ns, end_ns, a_ns, b_ns;
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(CsEventFilter) saved_filter = NULL;
  g_autoptr(CsSession) session = NULL;
  g_autoptr(GError) error = NULL;
  CsWindow *restored;
  CsTimeline *restored_timeline;
  CsAnalysis *restored_analysis;
  const gint32 *restored_pids;
  const guint *restored_cpus;
  guint n;

  /* A second task: the first sched_switch's next task that is not the
   * busiest. */
  for (guint i = 0; i < cs_document_get_n_tasks (document) && pids[1] == 0; i++)
    if (cs_document_get_task (document, i)->pid > 0 && cs_document_get_task (document, i)->pid != task->pid &&
        cs_document_get_task (document, i)->runtime_ns > 0)
      pids[1] = cs_document_get_task (document, i)->pid;

  cs_analysis_set_cpu_plots (analysis, &cpu_one, 1);
  cs_analysis_set_task_plots (analysis, pids, 2);
  cs_event_filter_set_mode (filter, CS_FILTER_PID, CS_FILTER_HIDE);
  cs_event_filter_add (filter, CS_FILTER_PID, 0);
  g_assert_true (cs_event_filter_set_expression (filter, document, "sched/sched_switch: prev_prio < 130", &error));
  g_assert_no_error (error);
  cs_analysis_set_filter (analysis, filter);
  cs_analysis_set_filter_targets (analysis, CS_FILTER_TARGET_LIST);
  cs_timeline_set_span (timeline, first_ns + span_ns / 5, first_ns + span_ns / 3);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, first_ns + span_ns / 4);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, first_ns + span_ns / 4 + 12345);
  cs_timeline_set_active_marker (timeline, CS_MARKER_B);
  begin_ns = cs_timeline_get_begin_ns (timeline);
  end_ns = cs_timeline_get_end_ns (timeline);
  a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  saved_filter = cs_event_filter_copy (cs_analysis_get_filter (analysis));
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (window), "session-saved.png");

  session = cs_session_capture (cs_window_get_model (window));
  g_assert_nonnull (session);
  g_assert_true (cs_session_save (session, session_path, &error));
  g_assert_no_error (error);

  /* Closing saves the last session. */
  g_unlink (last_path);
  gtk_window_close (GTK_WINDOW (window));
  cs_test_spin (100);
  g_assert_true (g_file_test (last_path, G_FILE_TEST_IS_REGULAR));

  /* A new window opens it: same range, plots, markers and filter, at once
   * (the index is reused). */
  restored = cs_test_new_window (1200, 760);
  g_assert_true (cs_window_open_session (restored, session_path, &error));
  g_assert_no_error (error);
  cs_test_wait_until (cs_test_window_is_ready, restored, "the session's recording");
  cs_test_spin (300);
  restored_timeline = cs_window_get_timeline (restored);
  restored_analysis = cs_window_get_analysis (restored);

  restored_cpus = cs_analysis_get_cpu_plots (restored_analysis, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (restored_cpus[0], ==, 1);
  restored_pids = cs_analysis_get_task_plots (restored_analysis, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (restored_pids[0], ==, pids[0]);
  g_assert_cmpint (restored_pids[1], ==, pids[1]);
  g_assert_cmpint (cs_timeline_get_begin_ns (restored_timeline), ==, begin_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (restored_timeline), ==, end_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (restored_timeline, CS_MARKER_A), ==, a_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (restored_timeline, CS_MARKER_B), ==, b_ns);
  g_assert_cmpint (cs_timeline_get_active_marker (restored_timeline), ==, CS_MARKER_B);
  /* The filter is read against the recording as the window opens it.  (CI
   * saw the saved copy lose its expression, twice: the copy compiled it
   * again while the list's count thread matched records against the same
   * tep_handle, which resets its tokenizer.  Copies now share the compiled
   * expression; test-event-list's compile-while-counting is the test.) */
  {
    g_autofree char *now = cs_event_filter_to_string (cs_analysis_get_filter (restored_analysis));
    g_autofree char *want = cs_event_filter_to_string (saved_filter);

    g_assert_cmpstr (now, ==, want);  /* names what differs */
    g_assert_true (cs_event_filter_equal (cs_analysis_get_filter (restored_analysis), saved_filter));
  }
  g_assert_cmpuint (cs_analysis_get_filter_targets (restored_analysis), ==, CS_FILTER_TARGET_LIST);
  check_list_matches (restored, "restored filter");
  cs_test_spin (600);  /* the page's crossfade */
  cs_test_save_screenshot (GTK_WIDGET (restored), "session-restored.png");

  cs_test_destroy_window (restored);
}

static void
test_session_errors (void)
{
  g_autofree char *not_session = g_build_filename (cs_test_work_dir, "not-a-session.json", NULL);
  g_autofree char *not_json = g_build_filename (cs_test_work_dir, "not-json.json", NULL);
  g_autoptr(GError) error = NULL;
  CsSession *session;

  g_assert_true (g_file_set_contents (not_session, "{\"hello\": 1}", -1, NULL));
  g_assert_true (g_file_set_contents (not_json, "{ this is not", -1, NULL));

  session = cs_session_load (not_session, &error);
  g_assert_null (session);
  g_assert_error (error, CS_SESSION_ERROR, CS_SESSION_ERROR_INVALID);
  g_clear_error (&error);

  session = cs_session_load (not_json, &error);
  g_assert_null (session);
  g_assert_nonnull (error);
  g_test_message ("not JSON: %s", error->message);
  g_clear_error (&error);

  session = cs_session_load ("/nonexistent/session.json", &error);
  g_assert_null (session);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* CPU 1's plot only, then @n_task_plots task plots: 40 px plots 4 px apart
 * under a 28 px axis. */
static void
check_one_cpu_plot (CsWindow *window,
                    guint     n_task_plots)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (cs_window_get_timeline (window));
  const guint *cpus;
  guint n;

  cpus = cs_timeline_renderer_get_cpus (renderer, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (cpus[0], ==, 1);
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (renderer), ==,
                   28 + 4 + (1 + n_task_plots) * (40 + 4));
}

static GtkWidget *
find_menu_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_MENU_BUTTON (root) &&
      g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The @index-th check button under @root, in widget order. */
static GtkWidget *
find_check_button (GtkWidget *root, guint index)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  guint seen = 0;

  g_ptr_array_add (stack, root);
  while (stack->len > 0)
    {
      GtkWidget *widget = g_ptr_array_steal_index (stack, stack->len - 1);
      g_autoptr(GPtrArray) children = g_ptr_array_new ();

      if (GTK_IS_CHECK_BUTTON (widget) && seen++ == index)
        return widget;
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        g_ptr_array_add (children, child);
      for (guint i = children->len; i > 0; i--)
        g_ptr_array_add (stack, g_ptr_array_index (children, i - 1));
    }
  return NULL;
}

static void
test_cpu_option (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autoptr(GArray) cpus = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  CsWindow *window;

  /* What --cpu 1 does to the next recording of a window. */
  cpus = cs_plot_args_parse_cpus ("1", &error);
  g_assert_no_error (error);
  window = cs_test_new_window (1200, 760);
  cs_analysis_set_startup_plots (cs_window_get_analysis (window), cpus, NULL, NULL);
  cs_window_open_file (window, file);
  cs_test_wait_until (cs_test_window_is_ready, window, "the recording");
  cs_test_spin (200);
  check_one_cpu_plot (window, 0);
  cs_test_save_screenshot (GTK_WIDGET (window), "cpu-option.png");

  /* The CPU chooser: both CPUs listed, CPU 1 checked; checking CPU 0 adds
   * its plot. */
  {
    GtkWidget *button = find_menu_button (GTK_WIDGET (window), "CPUs");
    GtkPopover *popover;
    GtkWidget *check;
    const guint *shown;
    guint n;

    g_assert_nonnull (button);
    gtk_menu_button_popup (GTK_MENU_BUTTON (button));
    popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
    cs_test_wait_until (cs_test_widget_is_drawable, popover, "the CPU chooser");
    cs_test_spin (200);
    cs_test_save_screenshot (GTK_WIDGET (popover), "cpu-chooser.png");
    check = find_check_button (GTK_WIDGET (popover), 0);
    g_assert_nonnull (check);
    g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
    g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (find_check_button (GTK_WIDGET (popover), 1))));
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
    shown = cs_analysis_get_cpu_plots (cs_window_get_analysis (window), &n);
    g_assert_cmpuint (n, ==, 2);
    g_assert_cmpuint (shown[0], ==, 0);
    gtk_popover_popdown (popover);
  }
  cs_test_destroy_window (window);
}

/* Runs a second application (another id: the first one is exported on the
 * session bus already) with @argv, the real option parsing, and calls
 * @check on its first window once it shows a recording. */
typedef void (*WindowCheck) (CsWindow *window);

typedef struct {
  CsApplication *application;
  WindowCheck check;
  gboolean checked;
} CommandLineRun;

static gboolean
check_command_line_cb (gpointer data)
{
  CommandLineRun *run = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (run->application));
  CsWindow *window;

  if (windows == NULL || cs_window_get_state (windows->data) != CS_WINDOW_STATE_READY)
    return G_SOURCE_CONTINUE;

  window = windows->data;
  run->check (window);
  run->checked = TRUE;
  gtk_window_destroy (GTK_WINDOW (window));
  return G_SOURCE_REMOVE;
}

static void
run_application (char **argv, WindowCheck check)
{
  CommandLineRun run = { 0 };
  int status;

  run.application = cs_application_new ();
  run.check = check;
  g_application_set_application_id (G_APPLICATION (run.application), APP_ID ".CommandLineTest");
  g_application_set_flags (G_APPLICATION (run.application),
                           g_application_get_flags (G_APPLICATION (run.application)) | G_APPLICATION_NON_UNIQUE);
  g_timeout_add (50, check_command_line_cb, &run);
  status = g_application_run (G_APPLICATION (run.application), (int) g_strv_length (argv), argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (run.checked);
  g_object_unref (run.application);
}

static void
check_plot_options (CsWindow *window)
{
  const gint32 *pids;
  guint n_pids;

  pids = cs_analysis_get_task_plots (cs_window_get_analysis (window), &n_pids);
  /* --pid 1 and --task cs-spin (two threads) */
  g_assert_cmpuint (n_pids, ==, 3);
  check_one_cpu_plot (window, n_pids);
  g_assert_cmpint (pids[0], ==, 1);
  for (guint i = 1; i < n_pids; i++)
    g_assert_cmpstr (cs_document_get_comm (cs_analysis_get_document (cs_window_get_analysis (window)), pids[i]), ==, "cs-spin");
}

static void
test_command_line (void)
{
  g_autofree char *path = cs_test_find_recording ();
  char *argv[] = { "chronoscope", "--cpu", "1", "--pid", "1", "--task", "cs-spin", "-i", path, NULL };

  run_application (argv, check_plot_options);
}

/* The last session: pid 1's task plot and CPU 1 only, saved by closing a
 * window. */
static void
save_last_session (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *last_path = cs_session_get_last_path ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  gint32 pid = 1;
  guint cpu = 1;

  cs_analysis_set_task_plots (analysis, &pid, 1);
  cs_analysis_set_cpu_plots (analysis, &cpu, 1);
  g_unlink (last_path);
  gtk_window_close (GTK_WINDOW (window));
  cs_test_spin (100);
  g_assert_true (g_file_test (last_path, G_FILE_TEST_IS_REGULAR));
}

static void
check_last_session (CsWindow *window)
{
  const gint32 *pids;
  guint n_pids;

  pids = cs_analysis_get_task_plots (cs_window_get_analysis (window), &n_pids);
  g_assert_cmpuint (n_pids, ==, 1);
  g_assert_cmpint (pids[0], ==, 1);
  check_one_cpu_plot (window, 1);
}

static void
test_last_session_option (void)
{
  char *argv[] = { "chronoscope", "-l", NULL };

  save_last_session ();
  run_application (argv, check_last_session);
}

static void
test_restore_at_start (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  char *argv[] = { "chronoscope", NULL };

  /* With restore-session on, starting without a file restores it. */
  save_last_session ();
  g_settings_set_boolean (settings, "restore-session", TRUE);
  run_application (argv, check_last_session);
  g_settings_set_boolean (settings, "restore-session", FALSE);
}

/* ------------------------------------------------------------------------ */

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-task-plots", TRUE);

  g_test_add_func ("/cs/gui/TaskPlots/add-by-pid", test_add_task_plot);
  g_test_add_func ("/cs/gui/TaskPlots/task-list", test_task_list);
  g_test_add_func ("/cs/gui/TaskPlots/wakeup-latency-markers", test_wakeup_latency_markers);
  g_test_add_func ("/cs/gui/Filters/actions", test_filter_actions);
  g_test_add_func ("/cs/gui/Filters/dialog", test_filter_dialog);
  g_test_add_func ("/cs/gui/Filters/cancel", test_filter_cancel);
  g_test_add_func ("/cs/gui/Session/round-trip", test_session_round_trip);
  g_test_add_func ("/cs/gui/Session/errors", test_session_errors);
  g_test_add_func ("/cs/gui/CpuPlots/cpu-option", test_cpu_option);
  g_test_add_func ("/cs/gui/CpuPlots/command-line", test_command_line);
  g_test_add_func ("/cs/gui/Session/last-session-option", test_last_session_option);
  g_test_add_func ("/cs/gui/Session/restore-at-start", test_restore_at_start);

  return cs_test_gui_run ();
}
