/* test-kmod-window.c: the kmod plugin's sections and wakeup latencies in
 * the window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process on tests/data/kmod-sections-v7.dat
 * (recorded in the kmod QEMU guest: a 20 ms irqs-off section and a 300 ms
 * preempt-off section on CPU 1, and the sleeper the latter delayed), with
 * the built-ins loaded from the build tree as the window loads them, the
 * kmod plugin's pass run by the window in its worker.  Pointing at a
 * section's band or at the module's wakeup-latency bracket must put its
 * figures in the window's info bar, and a double-click on a band must put
 * markers A and B on its ends; what the figures are is read from the
 * plugin's results.  The last screenshot, kmod-irqs-off.png in
 * $CS_SCREENSHOT_DIR, is the one docs/images/ keeps.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "cs-cli.h"
#include "cs-plugin-host.h"
#include "cs-window.h"
#include "cs-window-plugins.h"
#include "gui-test-util.h"
#include "kmod-test-util.h"

static char *
kmod_recording (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");
  g_autofree char *path = NULL;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "kmod-sections-v7.dat", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  return g_steal_pointer (&path);
}

/* Whether a label under @widget shows exactly @text: the info bar is a
 * label of the window's, fed from the timeline's hover-text. */
static gboolean
shows_label (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

/* A duration as the info bar writes it with all its digits, for the
 * figures of this recording (µs and ms): three decimals at most, trailing
 * zeros dropped ("20 ms", "20.168 ms"). */
static char *
exact_duration (gint64 duration_ns)
{
  gboolean ms = duration_ns >= 1000000;
  g_autofree char *number = g_strdup_printf ("%.3f", duration_ns / (ms ? 1e6 : 1e3));
  char *end = number + strlen (number);

  g_assert_cmpint (duration_ns, >=, 1000);
  g_assert_cmpint (duration_ns, <, 1000000000);
  while (end[-1] == '0')
    *--end = '\0';
  if (end[-1] == '.')
    *--end = '\0';
  return g_strdup_printf ("%s %s", number, ms ? "ms" : "µs");
}

/* The window's plugins, once the kmod plugin's pass has given its
 * results. */
static CsPluginDocument *
kmod_results_of (CsWindow *window)
{
  CsPluginWindow *plugins = cs_window_get_plugins (window);
  CsPlugin *kmod = cs_plugin_registry_lookup (cs_plugin_host_get_registry (cs_plugin_host_get_default ()),
                                              "kmod");
  CsPluginDocument *document = NULL;

  g_assert_nonnull (kmod);
  for (guint i = 0; i < 600; i++)
    {
      document = cs_plugin_window_get_plugins (plugins);
      if (document != NULL && !cs_plugin_window_get_pass_running (plugins) &&
          cs_plugin_document_get_pass_db (document, kmod, "events", NULL, NULL) != NULL)
        return document;
      cs_test_spin (50);
    }
  g_error ("the kmod plugin's pass did not finish in the window");
  return NULL;
}

static void
test_hover_shows_durations (void)
{
  g_autofree char *path = kmod_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 700);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  CsPlugin *kmod = cs_plugin_registry_lookup (cs_plugin_host_get_registry (cs_plugin_host_get_default ()),
                                              "kmod");
  CsPluginDocument *results = kmod_results_of (window);
  g_autoptr(GArray) sections = kmod_test_get_sections (results, kmod);
  KmodTestSection irqs = *kmod_test_only_section (sections, KMOD_TEST_IRQS_OFF);
  KmodTestSection preempt = *kmod_test_only_section (sections, KMOD_TEST_PREEMPT_OFF);
  g_autoptr(GArray) latencies = kmod_test_get_latencies (results, kmod);
  const KmodTestLatency *latency;
  g_autofree char *length = exact_duration (irqs.end_ns - irqs.begin_ns);
  g_autofree char *want = g_strdup_printf ("irqs-off section on CPU 1: %s (requested 20 ms, measured ",
                                           length);
  g_autofree char *latency_text = NULL;
  g_autofree char *threshold_text = NULL;
  const guint *cpus;
  guint n_cpus, cpu1 = G_MAXUINT;
  double x, y, height;
  const char *hover;

  g_assert_cmpuint (latencies->len, ==, 1);
  latency = &g_array_index (latencies, KmodTestLatency, 0);

  /* Both sections in view, the sleeper's task plot under the CPU plots. */
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (latency->pid));
  cs_timeline_set_span (timeline, irqs.begin_ns - 30000000, preempt.end_ns + 30000000);
  cs_test_spin (200);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");

  /* The module's wakeup latency, on its bracket over the task plot. */
  cs_timeline_renderer_get_task_plot_area (renderer, 0, &y, &height);
  x = cs_test_timeline_x (timeline, latency->time_ns - (gint64) latency->latency_ns / 2);
  cs_timeline_hover_at (timeline, x, y + 3);
  hover = cs_timeline_get_hover_text (timeline);
  g_test_message ("hover: %s", hover);
  latency_text = exact_duration ((gint64) latency->latency_ns);
  threshold_text = exact_duration ((gint64) latency->threshold_ns);
  g_assert_nonnull (strstr (hover, "wakeup latency measured by the module"));
  g_assert_nonnull (strstr (hover, latency_text));
  g_assert_nonnull (strstr (hover, threshold_text));
  g_assert_nonnull (strstr (hover, "sleep-"));

  /* The irqs-off band on CPU 1: its length, what was asked, what the
   * module measured, in the info bar. */
  cpus = cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  for (guint i = 0; i < n_cpus; i++)
    if (cpus[i] == 1)
      cpu1 = i;
  g_assert_cmpuint (cpu1, !=, G_MAXUINT);
  cs_timeline_renderer_get_cpu_plot_area (renderer, cpu1, &y, &height);
  cs_timeline_hover_at (timeline, cs_test_timeline_x (timeline, (irqs.begin_ns + irqs.end_ns) / 2),
                        y + height / 2);
  hover = cs_timeline_get_hover_text (timeline);
  g_test_message ("hover: %s", hover);
  g_assert_true (g_str_has_prefix (hover, want));
  cs_test_spin (100);
  g_assert_true (shows_label (GTK_WIDGET (window), hover));

  /* Beside the band, on the same plot: no section. */
  cs_timeline_hover_at (timeline, cs_test_timeline_x (timeline, irqs.begin_ns - 20000000), y + height / 2);
  g_assert_null (strstr (cs_timeline_get_hover_text (timeline), "section"));

  /* Zoomed onto the band, pointing at it, for the picture the docs keep. */
  cs_timeline_set_span (timeline, irqs.begin_ns - 10000000, irqs.end_ns + 10000000);
  cs_test_spin (200);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");
  cs_timeline_hover_at (timeline, cs_test_timeline_x (timeline, (irqs.begin_ns + irqs.end_ns) / 2),
                        y + height / 2);
  g_assert_true (g_str_has_prefix (cs_timeline_get_hover_text (timeline), want));

  /* A double-click on the band measures it between markers A and B. */
  x = cs_test_timeline_x (timeline, (irqs.begin_ns + irqs.end_ns) / 2);
  cs_timeline_click_at (timeline, x, y + height / 2, 1, 0);
  cs_timeline_click_at (timeline, x, y + height / 2, 2, 0);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, irqs.begin_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, irqs.end_ns);
  cs_timeline_hover_at (timeline, x, y + height / 2);
  cs_test_spin (200);
  cs_test_save_screenshot (GTK_WIDGET (window), "kmod-irqs-off.png");

  cs_test_destroy_window (window);
}

int
main (int argc, char **argv)
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-kmod-window", TRUE);

  g_test_add_func ("/cs/plugins/KmodWindow/hover-shows-durations", test_hover_shows_durations);

  return cs_test_gui_run ();
}
