/* test-gui.c: the window on real recordings, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process: it spawns /proc/self/exe as its
 * index-worker, so this program answers `index-worker FILE` itself with the
 * same cs_cli_run() as chronoscope.  The worker's cache is a temporary
 * XDG_CACHE_HOME; screenshots go to $CS_SCREENSHOT_DIR (the build folder
 * under meson) so that people can look at them after a run.
 */
#include "config.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "cs-cli.h"
#include "cs-window.h"
#include "gui-test-util.h"
#include "worker-test-util.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static char *
find_recording (void)
{
  return cs_test_own_path ("sched-irq-v6.dat");
}

/* A copy of the recording at @name in the work folder: a recording no
 * cache holds an index of (another file, another identity), so that
 * opening it runs the index worker; an indexed one opens without it
 * (cs-index-job.c). */
static char *
copy_recording (const char *name)
{
  g_autofree char *source = find_recording ();
  g_autofree char *contents = NULL;
  char *path = g_build_filename (cs_test_work_dir, name, NULL);
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (source, &contents, &length, &error));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, &error));
  g_assert_no_error (error);
  return path;
}

static CsWindow *
new_window (void)
{
  CsWindow *window = cs_test_new_window (1100, 640);

  cs_test_spin (100);
  return window;
}

static void
open_and_wait (CsWindow   *window,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  cs_window_open_file (window, file);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  cs_test_wait_until (cs_test_window_is_idle, window, "the index");
}


/* A pixel of a task's colour: saturated, unlike the background, grid lines
 * and label text, which are all shades of grey. */
static gboolean
pixel_is_coloured (const guchar *p)
{
  int max = MAX (p[0], MAX (p[1], p[2]));
  int min = MIN (p[0], MIN (p[1], p[2]));

  return max - min > 48;
}

static guint
count_coloured (const CsTestPixels *pixels,
                int           x0,
                int           y0,
                int           x1,
                int           y1)
{
  guint n = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, pixels->height); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, pixels->width); x++)
      n += pixel_is_coloured (pixels->pixels + y * pixels->stride + x * 4);

  return n;
}

static guint
count_different (const CsTestPixels *a,
                 const CsTestPixels *b)
{
  guint n = 0;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  for (int y = 0; y < a->height; y++)
    n += memcmp (a->pixels + y * a->stride, b->pixels + y * b->stride, a->stride) != 0;

  return n;
}

static GPtrArray *
list_cache (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("XDG_CACHE_HOME"), "chronoscope", NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

static void
assert_same_cache (GPtrArray *before,
                   GPtrArray *after)
{
  for (guint i = 0; i < after->len; i++)
    {
      const char *name = g_ptr_array_index (after, i);
      gboolean found = FALSE;

      for (guint j = 0; j < before->len && !found; j++)
        found = g_str_equal (name, g_ptr_array_index (before, j));
      if (!found)
        g_error ("The cache gained %s", name);
    }
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static void
test_application_actions (void)
{
  static const char * const actions[] = { "open", "quit", "about" };
  g_auto(GStrv) accels = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    g_assert_true (g_action_group_has_action (G_ACTION_GROUP (cs_test_application), actions[i]));

  accels = gtk_application_get_accels_for_action (cs_test_application, "app.quit");
  g_assert_cmpstr (accels[0], ==, "<Control>q");
  g_clear_pointer (&accels, g_strfreev);
  accels = gtk_application_get_accels_for_action (cs_test_application, "app.open");
  g_assert_cmpstr (accels[0], ==, "<Control>o");
}

static void
test_window_empty (void)
{
  CsWindow *window = new_window ();

  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_null (cs_window_get_error_message (window));
  g_assert_null (cs_timeline_get_document (cs_window_get_timeline (window)));
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-empty.png");

  cs_test_destroy_window (window);
}

static void
check_plots (CsTimeline *timeline,
             const CsTestPixels *pixels,
             guint        *n_coloured_total)
{
  CsDocument *document = cs_timeline_get_document (timeline);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  guint n_cpus = cs_document_get_n_cpus (document);

  *n_coloured_total = 0;
  for (guint i = 0; i < n_cpus; i++)
    {
      const CsCpuInfo *cpu = cs_document_get_cpu (document, i);
      double y = 0, height = 0;
      guint n;

      cs_timeline_renderer_get_cpu_plot_area (renderer, i, &y, &height);
      g_assert_cmpfloat (height, >, 4.0);
      g_assert_cmpfloat (y + height, <=, pixels->height);

      n = count_coloured (pixels, 0, (int) y, pixels->width, (int) (y + height));
      g_test_message ("CPU %u: %u events, %u coloured pixels in its plot", cpu->cpu, (guint) cpu->n_events, n);
      if (cpu->n_events > 0 && cpu->has_sched_switch)
        g_assert_cmpuint (n, >, 0);
      *n_coloured_total += n;
    }

  /* Plots of busy CPUs are mostly task colours, not a few stray pixels. */
  g_assert_cmpuint (*n_coloured_total, >, (guint) (pixels->width * 4));
}

static void
test_window_open_and_zoom (void)
{
  g_autofree char *path = find_recording ();
  CsWindow *window = new_window ();
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTestPixels fit_pixels, zoomed_pixels;
  CsDocument *document;
  gint64 first_ns, last_ns, span_ns, zoomed_span_ns, begin_ns;
  guint n_coloured;
  double y, height;

  open_and_wait (window, path);
  g_assert_null (cs_window_get_error_message (window));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  document = cs_timeline_get_document (timeline);
  g_assert_nonnull (document);
  g_assert_cmpuint (cs_document_get_n_cpus (document), >, 0);
  g_assert_cmpuint (cs_document_get_n_events (document), >, 0);

  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline to show");
  cs_test_spin (400);
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-open.png");

  /* Zoomed to fit: the whole recording, half-open. */
  first_ns = cs_document_get_first_ns (document);
  last_ns = cs_document_get_last_ns (document);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);
  span_ns = last_ns + 1 - first_ns;

  cs_test_pixels_init (&fit_pixels, GTK_WIDGET (timeline));
  check_plots (timeline, &fit_pixels, &n_coloured);

  /* Zoom in twice around the centre, as + does. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "view.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "view.zoom-in", NULL));
  zoomed_span_ns = cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline);
  g_assert_cmpint (zoomed_span_ns, <, span_ns / 2);
  g_assert_cmpint (ABS (zoomed_span_ns - (gint64) (span_ns / 2.25)), <=, 2);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), >, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), <, last_ns + 1);

  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-zoomed.png");
  cs_test_pixels_init (&zoomed_pixels, GTK_WIDGET (timeline));
  g_assert_cmpuint (count_different (&fit_pixels, &zoomed_pixels), >, 0);
  check_plots (timeline, &zoomed_pixels, &n_coloured);

  /* Pan right by 10 % of the span, as the Right arrow key does. */
  begin_ns = cs_timeline_get_begin_ns (timeline);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.pan-right", NULL));
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline) - begin_ns, ==,
                   (gint64) llround (zoomed_span_ns * 0.1));
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), ==,
                   zoomed_span_ns);

  /* Zooming out never shows more than the recording. */
  for (int i = 0; i < 5; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "view.zoom-out", NULL));
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);

  /* A selected range, as a primary-button drag leaves it. */
  cs_timeline_set_span (timeline, first_ns + span_ns / 4, first_ns + span_ns / 2);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns + span_ns / 4);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, first_ns + span_ns / 2);

  /* 0 / Home: back to the whole recording. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "view.zoom-fit", NULL));
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);

  /* Hovering a CPU plot names the CPU. */
  cs_timeline_renderer_get_cpu_plot_area (cs_timeline_get_renderer (timeline), 0, &y, &height);
  cs_timeline_hover_at (timeline, gtk_widget_get_width (GTK_WIDGET (timeline)) / 2.0, y + height / 2);
  g_test_message ("hover: %s", cs_timeline_get_hover_text (timeline));
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), "CPU 0"));

  cs_test_pixels_clear (&fit_pixels);
  cs_test_pixels_clear (&zoomed_pixels);
  cs_test_destroy_window (window);
}

/* The Chronoscope domain's debug messages while a handler is set. */
static void
keep_debug_message (const char     *log_domain,
                    GLogLevelFlags  log_level,
                    const char     *message,
                    gpointer        user_data)
{
  g_ptr_array_add (user_data, g_strdup (message));
}

static gboolean
first_frame_logged (gpointer data)
{
  GPtrArray *messages = data;

  for (guint i = 0; i < messages->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (messages, i), "First timeline frame painted: "))
      return TRUE;
  return FALSE;
}

/* The timeline says when it first painted a recording's plots, once per
 * recording, on the monotonic clock: what the benchmark reads for the
 * window's reopen to first frame (tests/bench/bench_window.py). */
static void
test_window_first_frame_logged (void)
{
  g_autofree char *path = find_recording ();
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *expected = NULL;
  CsWindow *window = new_window ();
  gint64 opened_us = g_get_monotonic_time (), painted_us = 0;
  guint handler, n_first = 0;

  handler = g_log_set_handler ("Chronoscope", G_LOG_LEVEL_DEBUG, keep_debug_message, messages);
  open_and_wait (window, path);
  cs_test_wait_until (first_frame_logged, messages, "the first frame's message");
  /* More frames (a zoom) add no message. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "view.zoom-in", NULL));
  cs_test_spin (300);
  g_log_remove_handler ("Chronoscope", handler);

  expected = g_strdup_printf ("First timeline frame painted: %s, ", path);
  for (guint i = 0; i < messages->len; i++)
    {
      const char *message = g_ptr_array_index (messages, i);
      char *end = NULL;

      if (!g_str_has_prefix (message, expected))
        continue;
      painted_us = g_ascii_strtoll (message + strlen (expected), &end, 10);
      g_assert_cmpstr (end, ==, " us monotonic");
      n_first++;
    }
  g_assert_cmpuint (n_first, ==, 1);
  g_assert_cmpint (painted_us, >, opened_us);
  g_assert_cmpint (painted_us, <=, g_get_monotonic_time ());
  cs_test_destroy_window (window);
}

static void
check_bad_file (const char *path)
{
  g_autoptr(GPtrArray) before = list_cache ();
  g_autoptr(GPtrArray) after = NULL;
  g_autofree char *basename = g_path_get_basename (path);
  CsWindow *window = new_window ();
  const char *message;

  open_and_wait (window, path);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_null (cs_timeline_get_document (cs_window_get_timeline (window)));
  message = cs_window_get_error_message (window);
  g_test_message ("error: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, basename));

  after = list_cache ();
  assert_same_cache (before, after);

  cs_test_destroy_window (window);
}

static void
test_window_not_a_trace (void)
{
  g_autofree char *path = g_build_filename (cs_test_work_dir, "notes.dat", NULL);
  CsWindow *window;

  g_assert_true (g_file_set_contents (path, "These are notes, not a recording.\n", -1, NULL));
  check_bad_file (path);

  /* And once more to look at the banner. */
  window = new_window ();
  open_and_wait (window, path);
  cs_test_spin (400);
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-error.png");
  cs_test_destroy_window (window);
}

/* A label under @widget whose text starts with @prefix. */
static GtkWidget *
find_label_with_prefix (GtkWidget  *widget,
                        const char *prefix)
{
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_with_prefix (child, prefix);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Trace text opens like a recording and the window names its format
 * (issue 14); a trace.dat's subtitle does not. */
static void
test_window_trace_text (void)
{
  g_autofree char *path = g_build_filename (cs_test_work_dir, "trace_pipe", NULL);
  CsWindow *window = new_window ();
  GtkWidget *label;

  g_assert_true (g_file_set_contents (path,
      "          <idle>-0     [001] d..2.   100.000100: sched_waking: comm=a pid=42 prio=120 target_cpu=001\n"
      "          <idle>-0     [001] d..2.   100.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 "
      "prev_prio=120 prev_state=R ==> next_comm=a next_pid=42 next_prio=120\n"
      "               a-42      [001] d..2.   100.000900: sched_switch: prev_comm=a prev_pid=42 "
      "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n", -1, NULL));
  open_and_wait (window, path);
  g_assert_null (cs_window_get_error_message (window));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  g_assert_cmpuint (cs_document_get_n_events (cs_timeline_get_document (cs_window_get_timeline (window))),
                    ==, 3);
  label = find_label_with_prefix (GTK_WIDGET (window), "ftrace text (trace_pipe) · 2 CPUs · 3 events");
  g_assert_nonnull (label);
  g_test_message ("subtitle: %s", gtk_label_get_label (GTK_LABEL (label)));
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-trace-text.png");
  cs_test_destroy_window (window);
}

static void
test_window_truncated (void)
{
  g_autofree char *source = find_recording ();
  g_autofree char *path = g_build_filename (cs_test_work_dir, "truncated.dat", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length / 2, NULL));
  check_bad_file (path);
}

static void
test_window_missing (void)
{
  g_autofree char *path = g_build_filename (cs_test_work_dir, "missing.dat", NULL);

  check_bad_file (path);
}

static void
test_window_worker_crash (void)
{
  g_autofree char *path = g_build_filename (cs_test_work_dir, "crash-the-worker.dat", NULL);
  CsWindow *window;

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  check_bad_file (path);

  window = new_window ();
  open_and_wait (window, path);
  g_assert_nonnull (strstr (cs_window_get_error_message (window), "crashed"));
  cs_test_destroy_window (window);
}

static void
test_window_cancel (void)
{
  g_autofree char *path = find_recording ();
  g_autofree char *cache = g_build_filename (cs_test_work_dir, "cancel-cache", NULL);
  g_autofree char *saved_cache = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  g_autoptr(GPtrArray) names = NULL;
  CsWindow *window = new_window ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  /* A cache of its own, so the worker must build rather than reuse. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  cs_window_open_file (window, file);
  cs_window_cancel (window);
  cs_test_wait_until (cs_test_window_is_idle, window, "the cancelled worker");
  g_setenv ("XDG_CACHE_HOME", saved_cache, TRUE);

  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_null (cs_window_get_error_message (window));

  /* Cancelled, so nothing was left behind: no index, no temporary file. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  names = list_cache ();
  g_setenv ("XDG_CACHE_HOME", saved_cache, TRUE);
  for (guint i = 0; i < names->len; i++)
    g_test_message ("left in the cache: %s", (char *) g_ptr_array_index (names, i));
  g_assert_cmpuint (names->len, ==, 0);

  cs_test_destroy_window (window);
}

static void
test_window_remembers_size (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  CsWindow *window;
  int width, height;

  schema = source != NULL ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  if (schema == NULL)
    g_error ("Schema %s not found: set GSETTINGS_SCHEMA_DIR to the build's data folder", APP_ID);
  settings = g_settings_new_full (schema, NULL, NULL);

  window = new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 520);
  cs_test_spin (200);
  gtk_window_close (GTK_WINDOW (window));
  cs_test_spin (100);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 520);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* A new window starts at the remembered size. */
  window = cs_window_new (cs_test_application);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 520);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_cancel_slow_worker (void)
{
  g_autoptr(GPtrArray) before = list_cache ();
  g_autofree char *path = copy_recording ("slow-worker.dat");
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  CsWindow *window = new_window ();
  gint64 cancelled_at;

  cs_window_open_file (window, file);
  cs_test_spin (600);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  cs_test_save_screenshot (GTK_WIDGET (window), "gui-loading.png");

  /* Cancel stops the worker at once, not after its 3 s. */
  cancelled_at = g_get_monotonic_time ();
  cs_window_cancel (window);
  cs_test_wait_until (cs_test_window_is_idle, window, "the cancelled worker");
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, G_USEC_PER_SEC);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_null (cs_window_get_error_message (window));

  after = list_cache ();
  assert_same_cache (before, after);
  cs_test_destroy_window (window);
}

/* Opens the recording with a cache of its own (so the worker builds) and
 * the environment variable @name set to @value for the worker (the
 * scanner's test hooks, see index/store/cs-cpu-scanner.c); returns the worker
 * once it has created its temporary index. */
static pid_t
open_slowed (CsWindow   *window,
             const char *cache,
             const char *name,
             const char *value)
{
  /* Not indexed in this process's cache either: the worker runs. */
  g_autofree char *cache_name = g_path_get_basename (cache);
  g_autofree char *copy_name = g_strconcat (cache_name, ".dat", NULL);
  g_autofree char *path = copy_recording (copy_name);
  g_autofree char *saved_cache = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  g_autoptr(GFile) file = g_file_new_for_path (path);
  /* Generous: a sanitizer build on a loaded machine takes many seconds to
   * start a worker; a worker that starts sooner ends the wait sooner. */
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  pid_t worker = 0;

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv (name, value, TRUE);
  cs_window_open_file (window, file);
  g_unsetenv (name);
  g_setenv ("XDG_CACHE_HOME", saved_cache, TRUE);

  while ((worker == 0 || cs_test_count_temporaries (cache) == 0) &&
         g_get_monotonic_time () < deadline)
    {
      if (worker == 0)
        worker = cs_test_find_worker (getpid ());
      cs_test_spin (10);
    }
  g_assert_cmpint (worker, >, 0);
  g_assert_cmpuint (cs_test_count_temporaries (cache), ==, 1);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  return worker;
}

/* Cancel while the worker is in the middle of its scan: within a second
 * no worker runs and nothing is left in the cache. */
static void
test_window_cancel_mid_index (void)
{
  g_autofree char *cache = g_build_filename (cs_test_work_dir, "cancel-mid-index-cache", NULL);
  CsWindow *window = new_window ();
  pid_t worker = open_slowed (window, cache, "CS_INDEX_TEST_DELAY_MS", "2000");
  gint64 cancelled_at = g_get_monotonic_time ();

  cs_window_cancel (window);
  cs_test_wait_until (cs_test_window_is_idle, window, "the cancelled worker");
  g_test_message ("cancelled in %.3f s", (g_get_monotonic_time () - cancelled_at) / 1e6);
  g_assert_cmpint (g_get_monotonic_time () - cancelled_at, <, G_USEC_PER_SEC);
  g_assert_true (cs_test_process_is_gone (worker));
  g_assert_cmpuint (cs_test_count_temporaries (cache), ==, 0);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_null (cs_window_get_error_message (window));
  cs_test_destroy_window (window);
}

/* A worker stuck where it does not look at Cancel: the watchdog ends it
 * and the window says where the recording looks damaged. */
static void
test_window_watchdog (void)
{
  g_autofree char *cache = g_build_filename (cs_test_work_dir, "watchdog-cache", NULL);
  CsWindow *window = new_window ();
  pid_t worker;
  const char *message;

  g_setenv ("CS_INDEX_WATCHDOG_SECONDS", "1", TRUE);
  worker = open_slowed (window, cache, "CS_INDEX_TEST_HANG", "1");
  g_unsetenv ("CS_INDEX_WATCHDOG_SECONDS");
  cs_test_wait_until (cs_test_window_is_idle, window, "the watchdog");

  message = cs_window_get_error_message (window);
  g_test_message ("error: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "looks damaged at offset "));
  g_assert_true (cs_test_process_is_gone (worker));
  g_assert_cmpuint (cs_test_count_temporaries (cache), ==, 0);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  cs_test_destroy_window (window);
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    {
      if (g_str_has_suffix (argv[argc - 1], "crash-the-worker.dat"))
        {
          struct rlimit no_core = { 0, 0 };

          setrlimit (RLIMIT_CORE, &no_core);
          raise (SIGSEGV);
        }
      /* Slow enough to look at the progress page and cancel it. */
      if (g_str_has_suffix (argv[argc - 1], "slow-worker.dat"))
        g_usleep (3 * G_USEC_PER_SEC);
      return cs_cli_run (argc, argv);
    }

  cs_test_gui_init (&argc, &argv, "test-gui", FALSE);

  g_test_add_func ("/cs/gui/CsApplication/actions", test_application_actions);
  g_test_add_func ("/cs/gui/CsWindow/empty", test_window_empty);
  g_test_add_func ("/cs/gui/CsWindow/open-and-zoom", test_window_open_and_zoom);
  g_test_add_func ("/cs/gui/CsWindow/first-frame-logged", test_window_first_frame_logged);
  g_test_add_func ("/cs/gui/CsWindow/not-a-trace", test_window_not_a_trace);
  g_test_add_func ("/cs/gui/CsWindow/trace-text", test_window_trace_text);
  g_test_add_func ("/cs/gui/CsWindow/truncated", test_window_truncated);
  g_test_add_func ("/cs/gui/CsWindow/missing", test_window_missing);
  g_test_add_func ("/cs/gui/CsWindow/worker-crash", test_window_worker_crash);
  g_test_add_func ("/cs/gui/CsWindow/remembers-size", test_window_remembers_size);
  g_test_add_func ("/cs/gui/CsWindow/cancel", test_window_cancel);
  g_test_add_func ("/cs/gui/CsWindow/cancel-slow-worker", test_window_cancel_slow_worker);
  g_test_add_func ("/cs/gui/CsWindow/cancel-mid-index", test_window_cancel_mid_index);
  g_test_add_func ("/cs/gui/CsWindow/watchdog", test_window_watchdog);

  return cs_test_gui_run ();
}
