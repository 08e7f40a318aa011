/* take-screenshots.c: the README's and the metainfo's screenshots, taken
 * from the real window under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `ninja -C build screenshots` runs this program under xvfb-run and writes
 * the PNGs into data/screenshots/ of the source tree (to be looked at, then
 * committed); meson's test `screenshots` runs it on tests/data alone, into
 * the build folder, so that the driver keeps working.  Each picture is the
 * window at 1280 × 800 in the light style, driven the way a person would:
 *
 * - large-zoomed-out.png: the benchmark's large recording
 *   ($CS_SCREENSHOT_LARGE, default /var/tmp/chronoscope-bench/large-v6.dat,
 *   tests/bench/run-bench.sh makes it) as it opens, every CPU plot over the
 *   whole span.  Its index is looked for in $CS_SCREENSHOT_CACHE (default
 *   /var/tmp/chronoscope-bench/sql-cache, where run-sql-bench.sh keeps it),
 *   made there when missing or stale.  Without that recording the program
 *   says so and takes the biggest recording of tests/data instead; an
 *   empty $CS_SCREENSHOT_LARGE (the test) takes it without a word.
 * - wakeup-latency.png: tests/data/kmod-sections-v7.dat (the kernel
 *   module's 300 ms preempt-off section delaying a sleeper's wakeup): the
 *   Latency page's wakeup preset run, its worst pair clicked (markers A and
 *   B on that wakeup, its task's plot with the latency brackets), then the
 *   event list in front, at A.
 * - latency-page.png: $CS_SAMPLE (data/sample/sample.dat, the demo
 *   recording), the Latency page's wakeup preset over the whole recording:
 *   its figures, histogram and worst-first list, its worst pair clicked.
 * - latency-explain.png: $CS_SAMPLE, the Latency page's wakeup preset
 *   run, of its 8 worst pairs the one with the longest wakeup chain
 *   clicked and so explained beside the list (the verdict, the
 *   breakdown's bar and contributors, the chain), the chain's first step
 *   activated (markers A and B on the wakeup), then its largest
 *   contributor (its slices highlighted on the CPU plot), the view from
 *   the chain's deepest link to the wakeup (the chain's arrows), the top
 *   blockers found.
 *
 * The program checks what each picture claims (the plots, the markers, the
 * task plot, the rows) before it saves it.  It answers `index-worker FILE`
 * itself, as the window runs /proc/self/exe for it.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-event-list-view.h"
#include "cs-timeline.h"
#include "cs-window.h"
#include "cs-window-plugins.h"
#include "gui-test-util.h"

#define SHOT_WIDTH 1280
#define SHOT_HEIGHT 800
/* Opening the 80 M-event recording indexes it when its index is not
 * cached yet: minutes on a loaded machine. */
#define LARGE_TIMEOUT_S 900

#define DEFAULT_LARGE "/var/tmp/chronoscope-bench/large-v6.dat"
#define DEFAULT_LARGE_CACHE "/var/tmp/chronoscope-bench/sql-cache"

/* Like cs_test_wait_until(), with a deadline of @seconds. */
static void
wait_long (CsTestCondition  condition,
           gpointer         data,
           const char      *what,
           guint            seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out after %u s waiting for %s", seconds, what);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (20000);
    }
}

static gboolean
open_finished (gpointer data)
{
  return cs_test_window_is_idle (data);
}

static gboolean
has_shot_size (gpointer data)
{
  return gtk_widget_get_width (data) == SHOT_WIDTH && gtk_widget_get_height (data) == SHOT_HEIGHT;
}

/* A window whose widget (the picture) is 1280 × 800.  The default size
 * counts the client-side decoration's margins too: the first window
 * measures them, and is made again with them added. */
static CsWindow *
new_shot_window (void)
{
  static int extra_width = -1, extra_height = -1;
  CsWindow *window;

  if (extra_width < 0)
    {
      window = cs_test_new_window (SHOT_WIDTH, SHOT_HEIGHT);
      cs_test_spin (100);
      extra_width = SHOT_WIDTH - gtk_widget_get_width (GTK_WIDGET (window));
      extra_height = SHOT_HEIGHT - gtk_widget_get_height (GTK_WIDGET (window));
      g_test_message ("the window's widget is %d × %d px smaller than its default size",
                      extra_width, extra_height);
      cs_test_destroy_window (window);
    }
  window = cs_test_new_window (SHOT_WIDTH + extra_width, SHOT_HEIGHT + extra_height);
  cs_test_wait_until (has_shot_size, window, "the window at 1280 × 800");
  return window;
}

/* A window of 1280 × 800 showing @path, indexed, its plugin passes done,
 * drawn. */
static CsWindow *
open_recording (const char *path,
                guint       timeout_s)
{
  CsWindow *window = new_shot_window ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_test_message ("opening %s", path);
  cs_window_open_file (window, file);
  wait_long (open_finished, window, "the recording to open", timeout_s);
  if (cs_window_get_state (window) != CS_WINDOW_STATE_READY)
    g_error ("%s did not open: %s", path, cs_window_get_error_message (window));
  wait_long (cs_test_passes_done, window, "the plugin passes", timeout_s);
  cs_test_wait_until (cs_test_widget_is_drawable, cs_window_get_timeline (window), "the timeline");
  cs_test_spin (500);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, SHOT_WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), ==, SHOT_HEIGHT);
  return window;
}

/* Saves the window as @name once it has drawn what it shows now. */
static void
save_window (CsWindow   *window,
             const char *name)
{
  gtk_widget_queue_draw (GTK_WIDGET (window));
  cs_test_spin (500);
  cs_test_save_screenshot (GTK_WIDGET (window), name);
}

/* ------------------------------------------------------------------------ */
/* The large recording, zoomed out                                          */

/* The biggest *.dat of tests/data, by size. */
static char *
biggest_testdata (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");
  g_autoptr(GDir) d = NULL;
  g_autofree char *best = NULL;
  goffset best_size = -1;
  const char *name;

  g_assert_nonnull (dir);
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;

      if (g_str_has_suffix (name, ".dat") && g_stat (path, &st) == 0 && S_ISREG (st.st_mode) &&
          st.st_size > best_size)
        {
          g_free (best);
          best = g_steal_pointer (&path);
          best_size = st.st_size;
        }
    }
  g_assert_nonnull (best);
  return g_steal_pointer (&best);
}

/* Lets the window's index cache ($XDG_CACHE_HOME/chronoscope of the work
 * folder) be @cache_home's, where the large recording's index is kept, by
 * a symbolic link.  Returns the link to remove afterwards, or NULL when it
 * cannot be made (the recording is then indexed in the work folder). */
static char *
share_cache (const char *cache_home)
{
  g_autofree char *target = g_build_filename (cache_home, "chronoscope", NULL);
  g_autofree char *link = g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
  g_autofree char *parent = g_path_get_dirname (link);

  if (g_mkdir_with_parents (target, 0700) != 0 || g_mkdir_with_parents (parent, 0700) != 0 ||
      g_file_test (link, G_FILE_TEST_EXISTS) || symlink (target, link) != 0)
    {
      g_test_message ("cannot use the index cache %s: %s; indexing anew", target, g_strerror (errno));
      return NULL;
    }
  g_test_message ("index cache: %s", target);
  return g_steal_pointer (&link);
}

static gint
by_runtime_desc (gconstpointer a,
                 gconstpointer b)
{
  const CsTask *ta = *(const CsTask * const *) a;
  const CsTask *tb = *(const CsTask * const *) b;

  return ta->runtime_ns < tb->runtime_ns ? 1 : ta->runtime_ns > tb->runtime_ns ? -1 : 0;
}

/* Plots the @n tasks (not the idle task) that ran longest, as a person
 * picks them with Tasks, and gives the timeline the room they take. */
static void
plot_busiest_tasks (CsWindow *window,
                    guint     n)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  g_autoptr(GPtrArray) tasks = g_ptr_array_new ();
  GtkPaned *paned = GTK_PANED (cs_test_find_widget (GTK_WIDGET (window), GTK_TYPE_PANED));
  guint n_pids = 0;
  int natural = 0;

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    if (cs_document_get_task (document, i)->pid > 0)
      g_ptr_array_add (tasks, (gpointer) cs_document_get_task (document, i));
  g_ptr_array_sort (tasks, by_runtime_desc);
  for (guint i = 0; i < MIN (n, tasks->len); i++)
    {
      const CsTask *task = tasks->pdata[i];

      g_test_message ("task plot: %s-%d, ran %.3f s", task->comm, task->pid, task->runtime_ns / 1e9);
      cs_analysis_add_task_plot (cs_window_get_analysis (window), task->pid);
    }
  cs_timeline_renderer_get_task_plots (cs_timeline_get_renderer (timeline), &n_pids);
  g_assert_cmpuint (n_pids, ==, MIN (n, tasks->len));
  cs_test_spin (200);
  gtk_widget_measure (GTK_WIDGET (timeline), GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  g_assert_nonnull (paned);
  gtk_paned_set_position (paned, natural + 2);
  cs_test_spin (200);
}

static void
test_large_zoomed_out (void)
{
  const char *large = g_getenv ("CS_SCREENSHOT_LARGE");
  const char *cache_home = g_getenv ("CS_SCREENSHOT_CACHE");
  g_autofree char *path = NULL;
  g_autofree char *link = NULL;
  CsWindow *window;
  CsTimeline *timeline;
  CsDocument *document;
  guint n_cpus = 0, n_busy = 0;

  if (large == NULL)
    large = DEFAULT_LARGE;
  if (cache_home == NULL)
    cache_home = DEFAULT_LARGE_CACHE;
  if (*large == '\0')
    {
      /* The test: tests/data only. */
      path = biggest_testdata ();
      g_test_message ("no large recording asked for: %s", path);
    }
  else if (g_file_test (large, G_FILE_TEST_IS_REGULAR))
    {
      path = g_strdup (large);
      link = share_cache (cache_home);
    }
  else
    {
      path = biggest_testdata ();
      g_printerr ("take-screenshots: %s is not there (tests/bench/run-bench.sh makes it); "
                  "large-zoomed-out.png shows %s instead\n", large, path);
    }

  window = open_recording (path, LARGE_TIMEOUT_S);
  timeline = cs_window_get_timeline (window);
  document = cs_timeline_get_document (timeline);
  g_test_message ("%s: %" G_GUINT64_FORMAT " events on %u CPUs", path,
                  cs_document_get_n_events (document), cs_document_get_n_cpus (document));
  /* As it opens: a plot for every CPU with events, the whole span. */
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (document); cpu++)
    if (cs_document_get_cpu (document, cpu)->n_events > 0)
      n_busy++;
  cs_timeline_renderer_get_cpus (cs_timeline_get_renderer (timeline), &n_cpus);
  g_assert_cmpuint (n_cpus, >=, n_busy);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, cs_document_get_first_ns (document));
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >=, cs_document_get_last_ns (document));
  plot_busiest_tasks (window, 4);
  save_window (window, "large-zoomed-out.png");
  cs_test_destroy_window (window);
  if (link != NULL)
    g_unlink (link);
}

/* ------------------------------------------------------------------------ */
/* The Latency page                                                         */

static gboolean
has_rows (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (data))) > 0;
}

/* The Latency page in front, the wakeup preset run over the whole
 * recording, its list filled.  Returns the page. */
static GtkWidget *
run_wakeup_preset (CsWindow *window)
{
  GtkWidget *page = cs_test_need_named (GTK_WIDGET (window), "latency-page");

  cs_test_show_tab (page);
  cs_test_choose (page, "latency-preset", "wakeup");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (cs_test_need_named (page, "latency-whole")), TRUE);
  g_signal_emit_by_name (cs_test_need_named (page, "latency-run"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (cs_test_passes_done, window, "the wakeup pass");
  cs_test_wait_until (has_rows, cs_test_need_named (page, "latency-list"), "the worst-first list");
  g_test_message ("latency: %s, %s pairs",
                  gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-status"))),
                  gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-count"))));
  return page;
}

/* Clicks the worst pair: the window zooms to it, puts markers A and B on
 * its ends and plots its task. */
static void
click_worst (CsWindow  *window,
             GtkWidget *page)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  guint n_pids = 0;

  g_signal_emit_by_name (cs_test_need_named (page, "latency-list"), "activate", 0);
  cs_test_spin (500);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), !=, CS_MARKER_UNSET);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), >,
                   cs_timeline_get_marker_ns (timeline, CS_MARKER_A));
  cs_timeline_renderer_get_task_plots (cs_timeline_get_renderer (timeline), &n_pids);
  g_assert_cmpuint (n_pids, >, 0);
}

static void
test_wakeup_latency (void)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  CsWindow *window = open_recording (path, CS_TEST_WAIT_TIMEOUT_S);
  GtkWidget *page = run_wakeup_preset (window);

  click_worst (window, page);
  /* The list below, at the wakeup (A). */
  cs_test_show_tab (GTK_WIDGET (cs_window_get_event_list_view (window)));
  g_assert_nonnull (cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window)));
  save_window (window, "wakeup-latency.png");
  cs_test_destroy_window (window);
}

static void
test_latency_page (void)
{
  const char *path = g_getenv ("CS_SAMPLE");
  CsWindow *window;
  GtkWidget *page;

  g_assert_nonnull (path);
  window = open_recording (path, CS_TEST_WAIT_TIMEOUT_S);
  page = run_wakeup_preset (window);

  click_worst (window, page);
  cs_test_show_tab (page);
  save_window (window, "latency-page.png");
  cs_test_destroy_window (window);
}

/* How many rows the chain list has once row @position of the pairs is
 * activated (and so explained). */
static guint
explain_row (GtkWidget *page,
             guint      position)
{
  GtkWidget *chain = cs_test_need_named (page, "latency-chain");
  guint n = 0;

  g_signal_emit_by_name (cs_test_need_named (page, "latency-list"), "activate", position);
  cs_test_spin (200);
  while (gtk_list_box_get_row_at_index (GTK_LIST_BOX (chain), n) != NULL)
    n++;
  return n;
}

static void
test_latency_explain (void)
{
  const char *path = g_getenv ("CS_SAMPLE");
  CsWindow *window;
  GtkWidget *page;
  GtkListBoxRow *row;
  guint best = 0, best_links = 0;

  g_assert_nonnull (path);
  window = open_recording (path, CS_TEST_WAIT_TIMEOUT_S);
  page = run_wakeup_preset (window);
  /* Of the 8 worst pairs, the one with the longest wakeup chain. */
  for (guint i = 0; i < 8; i++)
    {
      guint n = explain_row (page, i);

      if (n > best_links)
        {
          best = i;
          best_links = n;
        }
    }
  /* Only the plots the picture needs: the pair's task, its waker's. */
  cs_analysis_set_task_plots (cs_window_get_analysis (window), NULL, 0);
  explain_row (page, best);
  g_test_message ("pair %u, %u chain rows, verdict: %s", best, best_links,
                  gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-verdict"))));
  /* The chain's deepest link, then the pair (its breakdown shown again)
   * and its largest contributor: the view from the one to the other shows
   * the chain's arrows and the highlighted slices, markers A and B on the
   * pair. */
  {
    GtkListBox *chain = GTK_LIST_BOX (cs_test_need_named (page, "latency-chain"));
    CsTimeline *timeline = cs_window_get_timeline (window);
    gint64 first_ns, b_ns;

    g_assert_cmpuint (best_links, >=, 2);
    g_signal_emit_by_name (gtk_list_box_get_row_at_index (chain, best_links - 2), "activate");
    cs_test_spin (200);
    first_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
    g_signal_emit_by_name (gtk_list_box_get_row_at_index (chain, 0), "activate");
    cs_test_spin (300);
    b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
    row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (cs_test_need_named (page, "latency-contributors")), 0);
    g_assert_nonnull (row);
    g_signal_emit_by_name (row, "activate");
    cs_test_spin (300);
    cs_timeline_set_span (timeline, first_ns - (b_ns - first_ns) / 20, b_ns + (b_ns - first_ns) / 20);
    cs_test_spin (300);
  }
  /* The top blockers beside the histogram; the timeline only as high as
   * its plots, the page below it as high as it can be. */
  g_signal_emit_by_name (cs_test_need_named (page, "latency-blockers-find"), "clicked");
  cs_test_spin (200);
  cs_test_wait_until (cs_test_passes_done, window, "the blockers pass");
  {
    GtkPaned *paned = GTK_PANED (cs_test_find_widget (GTK_WIDGET (window), GTK_TYPE_PANED));
    int natural = 0;

    gtk_widget_measure (GTK_WIDGET (cs_window_get_timeline (window)), GTK_ORIENTATION_VERTICAL, -1,
                        NULL, &natural, NULL, NULL);
    gtk_paned_set_position (paned, natural + 2);
  }
  /* The explained pair from its verdict down. */
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (cs_test_need_named (page, "latency-explain"))), 0);
  cs_test_spin (500);
  save_window (window, "latency-explain.png");
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GSettings) settings = NULL;

  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "take-screenshots", TRUE);
  /* Light, whatever the desktop says. */
  settings = g_settings_new ("org.chronoscope.Chronoscope");
  g_settings_set_string (settings, "color-scheme", "light");

  g_test_add_func ("/cs/gui/Screenshots/large-zoomed-out", test_large_zoomed_out);
  g_test_add_func ("/cs/gui/Screenshots/wakeup-latency", test_wakeup_latency);
  g_test_add_func ("/cs/gui/Screenshots/latency-page", test_latency_page);
  g_test_add_func ("/cs/gui/Screenshots/latency-explain", test_latency_explain);

  return cs_test_gui_run ();
}
