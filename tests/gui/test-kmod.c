/* test-kmod.c: the kernel module's sections and wakeup latencies in the
 * window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process on tests/data/kmod-sections-v7.dat
 * (recorded in the kmod QEMU guest: a 20 ms irqs-off section and a 300 ms
 * preempt-off section on CPU 1, and the sleeper the latter delayed).
 * Pointing at a section's band or at the module's wakeup-latency bracket
 * must put its figures in the window's info bar, and a double-click on a
 * band must put markers A and B on its ends; what the figures are is asked
 * from the index (cs-kmod-sections.h).  The last screenshot,
 * kmod-irqs-off.png in $CS_SCREENSHOT_DIR, is the one docs/images/ keeps.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "cs-cli.h"
#include "cs-format.h"
#include "cs-kmod-sections.h"
#include "cs-window.h"
#include "gui-test-util.h"

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

static CsKmodSection
only_section (CsDocument *document, CsKmodSectionKind kind)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = cs_document_get_kmod_sections (document, G_MININT64, G_MAXINT64, &error);
  CsKmodSection found = { 0 };
  guint n = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, CsKmodSection, i).kind == kind)
      {
        found = g_array_index (all, CsKmodSection, i);
        n++;
      }
  g_assert_cmpuint (n, ==, 1);
  return found;
}

static void
test_hover_shows_durations (void)
{
  g_autofree char *path = kmod_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 700);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  CsDocument *document = cs_timeline_get_document (timeline);
  CsKmodSection irqs = only_section (document, CS_KMOD_SECTION_IRQS_OFF);
  CsKmodSection preempt = only_section (document, CS_KMOD_SECTION_PREEMPT_OFF);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) latencies = cs_document_get_kmod_wakeup_latencies (document, -1, G_MININT64,
                                                                       G_MAXINT64, &error);
  const CsKmodWakeupLatency *latency;
  g_autofree char *length = cs_format_duration_exact (irqs.end_ns - irqs.begin_ns);
  g_autofree char *want = g_strdup_printf ("irqs-off section on CPU 1: %s (requested 20 ms, measured ",
                                           length);
  g_autofree char *latency_text = NULL;
  g_autofree char *threshold_text = NULL;
  const guint *cpus;
  guint n_cpus, cpu1 = G_MAXUINT;
  double x, y, height;
  const char *hover;

  g_assert_no_error (error);
  g_assert_cmpuint (latencies->len, ==, 1);
  latency = &g_array_index (latencies, CsKmodWakeupLatency, 0);

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
  latency_text = cs_format_duration_exact ((gint64) latency->latency_ns);
  threshold_text = cs_format_duration_exact ((gint64) latency->threshold_ns);
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

  cs_test_gui_init (&argc, &argv, "test-kmod", TRUE);

  g_test_add_func ("/cs/gui/Kmod/hover-shows-durations", test_hover_shows_durations);

  return cs_test_gui_run ();
}
