/* test-demo-window.c: the classroom demos in the window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * With $CS_DEMO_RECORDINGS (the folder where run-guest-test.sh unpacked
 * the recordings the demos made in the QEMU guest: NAME.dat), opens each
 * as the window does after a demo (cs_window_open_demo()) and checks
 * markers A and B against the module's sections as the kmod plugin's
 * pass pairs them (cs-demo-kmod.h) and the task timeline
 * (cs-task-timeline.h): on the irqs-off
 * section's begin and end, around the sleeper's wakeup latency, around
 * the spinner's time off its CPU.  Saves demo-NAME.png screenshots to
 * $CS_SCREENSHOT_DIR.  Always, the same on tests/data/kmod-sections-v7.dat
 * (recorded in the guest too; it holds an irqs-off and a preempt-off
 * section).  Each time the event list must have selected, and show, the
 * event at marker A, with the markers left where the demo put them, and
 * the window must end on the Latency page with the demo's preset run
 * (CsDemoScenario.latency_preset), its worst-first list headed by the
 * injected latency: activating its first row puts markers A and B on that
 * pair's ends, which must be the demo's markers (wakeup-latency,
 * irqs-off) or the preempt-off section between them (preemption, at least
 * 90% of B − A).
 *
 * Always: the Classroom Demos dialog lists the scenarios, and on a machine
 * whose kernel has no chronoscope_tracer (this host) running one through
 * the helper ends with the helper's message naming what is missing.  With
 * $CS_KMOD_MODULE (the chronoscope_tracer.ko of -Dkmod=true, built for
 * Debian's kernel, not this host's), the dialog is given that file: it
 * says which kernel the file is for, remembers it, and the helper refuses
 * it naming the file and both kernels, before the kernel is handed it.  The
 * window runs /proc/self/exe index-worker, which this program answers
 * itself, and the build tree's chronoscope-record-helper.
 */
#include "config.h"

#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <gtk/gtk.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-demo.h"
#include "cs-demo-dialog.h"
#include "cs-plugin-host.h"
#include "cs-task-timeline.h"
#include "cs-window-demo.h"
#include "cs-window-plugins.h"
#include "cs-time-axis.h"
#include "cs-window.h"
#include "gui-test-util.h"

#define MS 1000000

static char *
testdata_recording (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");

  return g_build_filename (dir != NULL ? dir : CS_SOURCE_TESTDATA, "kmod-sections-v7.dat", NULL);
}

static gboolean
markers_or_error (gpointer data)
{
  CsTimeline *timeline = cs_window_get_timeline (data);

  return cs_window_demo_get_error (data) != NULL ||
         (cs_timeline_get_marker_ns (timeline, CS_MARKER_A) != CS_MARKER_UNSET &&
          cs_timeline_get_marker_ns (timeline, CS_MARKER_B) != CS_MARKER_UNSET);
}

typedef struct {
  CsWindow *window;
  CsDocument *document;   /* the test's own, not the window's */
  gint64 a_ns;
  gint64 b_ns;
} Opened;

/* The selected row's time is on screen in the list. */
static gboolean
selected_row_is_shown (gpointer data)
{
  CsEventListView *view = cs_window_get_event_list_view (data);
  CsEventItem *item = cs_event_list_view_get_selected_item (view);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  g_autofree char *time = NULL;

  if (item == NULL)
    return FALSE;
  time = cs_time_format_timestamp (cs_event_item_get_event (item)->ts_ns);
  return cs_test_find_visible_label (scrolled, time, scrolled) != NULL;
}

/* The list selected the event at marker A, as the index lists it, and
 * shows it; the selection moved neither marker. */
static void
assert_list_at_marker_a (Opened *o, const char *scenario)
{
  CsEventListView *view = cs_window_get_event_list_view (o->window);
  CsTimeline *timeline = cs_window_get_timeline (o->window);
  g_autoptr(CsEventList) list = cs_event_list_new (o->document, NULL);
  g_autoptr(GError) error = NULL;
  CsEventItem *item;
  const CsEvent *event;
  const char *name;
  guint64 first_row = 0;

  cs_test_wait_until (selected_row_is_shown, o->window, "the event at marker A in the list");
  item = cs_event_list_view_get_selected_item (view);
  event = cs_event_item_get_event (item);
  name = cs_event_item_get_name (item);
  g_test_message ("%s: row %" G_GUINT64_FORMAT ": %s on CPU %u at %" G_GINT64_FORMAT " (A %" G_GINT64_FORMAT ")",
                  scenario, cs_event_item_get_row (item), name, event->cpu, event->ts_ns, o->a_ns);
  g_assert_cmpint (event->ts_ns, ==, o->a_ns);
  /* It is an event at A by the test's own index, not some other row. */
  g_assert_true (cs_event_list_find_row_at_time (list, o->a_ns, &first_row, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_event_item_get_row (item), >=, first_row);
  if (g_str_equal (scenario, "irqs-off"))
    g_assert_cmpstr (name, ==, "chronoscope:irqs_off_begin");
  else if (g_str_equal (scenario, "preemption"))
    {
      /* The spinner switched out, or (a recording without it) the section's begin. */
      if (g_str_equal (name, "sched:sched_switch"))
        g_assert_cmpstr (cs_event_item_get_comm (item), ==, CS_DEMO_SPINNER_COMM);
      else
        g_assert_cmpstr (name, ==, "chronoscope:preempt_off_begin");
    }
  else
    g_assert_true (g_str_equal (name, "sched:sched_waking") || g_str_equal (name, "sched:sched_wakeup"));
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, o->a_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, o->b_ns);
  g_assert_true (cs_timeline_get_active_marker (timeline) == CS_MARKER_B);
}

static gboolean
passes_done (gpointer data)
{
  return !cs_plugin_window_get_pass_running (cs_window_get_plugins (data));
}

static gboolean
has_rows (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (data))) > 0;
}

/* The demo is done: the event at A selected, then the Latency page in
 * front. */
static gboolean
latency_page_in_front (gpointer data)
{
  GtkWidget *page = cs_test_find_named (data, "latency-page");
  GtkWidget *notebook = page != NULL ? gtk_widget_get_ancestor (page, GTK_TYPE_NOTEBOOK) : NULL;

  return notebook != NULL &&
         cs_event_list_view_get_selected_item (cs_window_get_event_list_view (data)) != NULL &&
         gtk_notebook_get_current_page (GTK_NOTEBOOK (notebook)) ==
         gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page);
}

/* The explain view has a verdict (its label shows no longer the hint). */
static gboolean
verdict_shown (gpointer data)
{
  const char *text = gtk_label_get_text (data);

  return strstr (text, " disabled by ") != NULL || strstr (text, ": ") != NULL;
}

/* The teacher's view: the Latency page in front, the demo's preset run,
 * its worst-first list filled, the injected latency explained beside it
 * (the verdict names the section that held the CPU).  Saves the
 * screenshot. */
static void
assert_latency_page (Opened *o, const char *scenario)
{
  const CsDemoScenario *info = cs_demo_lookup (scenario);
  GtkWidget *page;
  GtkDropDown *preset;

  g_assert_nonnull (info);
  cs_test_wait_until (latency_page_in_front, o->window, "the Latency page in front");
  page = cs_test_need_named (GTK_WIDGET (o->window), "latency-page");
  preset = GTK_DROP_DOWN (cs_test_need_named (page, "latency-preset"));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (preset)),
                                               gtk_drop_down_get_selected (preset)),
                   ==, info->latency_preset);
  cs_test_wait_until (passes_done, o->window, "the demo's latency pass");
  cs_test_wait_until (has_rows, cs_test_need_named (page, "latency-list"), "the worst-first list");
  g_test_message ("%s: %s: %s", scenario, info->latency_preset,
                  gtk_label_get_text (GTK_LABEL (cs_test_need_named (page, "latency-status"))));
  {
    GtkWidget *verdict = cs_test_need_named (page, "latency-verdict");
    const char *text;

    cs_test_wait_until (verdict_shown, verdict, "the demo's verdict");
    text = gtk_label_get_text (GTK_LABEL (verdict));
    g_test_message ("%s: verdict: %s", scenario, text);
    g_assert_nonnull (strstr (text, g_str_equal (scenario, "irqs-off") ? "interrupts disabled by"
                                                                       : "preemption disabled by"));
  }
  {
    g_autofree char *shot = g_strdup_printf ("demo-%s.png", scenario);
    cs_test_save_screenshot (GTK_WIDGET (o->window), shot);
  }
}

/* The worst-first list's first row is the injected latency: activating
 * it puts the markers on its ends (so it comes last). */
static void
assert_latency_first_row (Opened *o, const char *scenario)
{
  CsTimeline *timeline = cs_window_get_timeline (o->window);
  GtkWidget *page = cs_test_need_named (GTK_WIDGET (o->window), "latency-page");
  GtkWidget *list = cs_test_need_named (page, "latency-list");
  gint64 a_ns, b_ns;

  cs_test_show_tab (page);
  g_signal_emit_by_name (list, "activate", 0);
  cs_test_spin (300);
  a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  g_test_message ("%s: first row %" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT
                  ", demo %" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT, scenario, a_ns, b_ns, o->a_ns, o->b_ns);
  if (g_str_equal (scenario, "preemption"))
    {
      g_assert_cmpint (a_ns, >=, o->a_ns);
      g_assert_cmpint (b_ns, <=, o->b_ns);
      g_assert_cmpint ((b_ns - a_ns) * 10, >=, (o->b_ns - o->a_ns) * 9);
    }
  else
    {
      g_assert_cmpint (a_ns, ==, o->a_ns);
      g_assert_cmpint (b_ns, ==, o->b_ns);
    }
}

static void
open_demo_file (Opened *o, const char *scenario, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  CsTimeline *timeline;
  gint64 begin_ns, end_ns;

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  o->window = cs_test_new_window (1200, 760);
  cs_window_open_demo (o->window, file, scenario);
  cs_test_wait_until (cs_test_window_is_ready, o->window, "the recording");
  cs_test_wait_until (markers_or_error, o->window, "the demo's markers");
  g_assert_null (cs_window_demo_get_error (o->window));
  cs_test_wait_until (cs_test_widget_is_drawable, cs_window_get_timeline (o->window), "the timeline");
  cs_test_spin (300);

  timeline = cs_window_get_timeline (o->window);
  o->a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  o->b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  g_assert_cmpint (o->a_ns, <, o->b_ns);
  /* The view is zoomed around the markers. */
  begin_ns = cs_timeline_get_begin_ns (timeline);
  end_ns = cs_timeline_get_end_ns (timeline);
  g_assert_cmpint (begin_ns, <, o->a_ns);
  g_assert_cmpint (end_ns, >, o->b_ns);
  g_assert_cmpint (end_ns - begin_ns, <, 4 * (o->b_ns - o->a_ns));

  o->document = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_latency_page (o, scenario);
  /* The list kept its selection behind the page. */
  cs_test_show_tab (GTK_WIDGET (cs_window_get_event_list_view (o->window)));
  assert_list_at_marker_a (o, scenario);
  assert_latency_first_row (o, scenario);
}

/* A recording the guest test made just now. */
static void
open_demo (Opened *o, const char *scenario)
{
  g_autofree char *name = g_strdup_printf ("%s.dat", scenario);
  g_autofree char *path = g_build_filename (g_getenv ("CS_DEMO_RECORDINGS"), name, NULL);

  open_demo_file (o, scenario, path);
}

static void
close_demo (Opened *o)
{
  g_clear_object (&o->document);
  cs_test_destroy_window (o->window);
}

/* The kmod plugin's results for @document, read as the demos read them. */
static void
read_kmod (CsDocument *document, GArray *sections, GArray *latencies)
{
  g_autoptr(CsPluginDocument) plugins = cs_plugin_host_open_results (document, FALSE);
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_demo_read_kmod_results (plugins, cs_plugin_registry_lookup (registry, CS_DEMO_KMOD_PLUGIN),
                                            sections, latencies, &error));
  g_assert_no_error (error);
}

static GArray *
sections_of (CsDocument *document, CsKmodSectionKind kind)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));

  read_kmod (document, all, latencies);
  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, CsKmodSection, i).kind == kind)
      g_array_append_val (out, g_array_index (all, CsKmodSection, i));
  g_array_unref (all);
  return out;
}

static void
test_irqs_off (void)
{
  Opened o;
  g_autoptr(GArray) sections = NULL;
  const CsKmodSection *s;

  open_demo (&o, "irqs-off");
  sections = sections_of (o.document, CS_KMOD_SECTION_IRQS_OFF);
  g_assert_cmpuint (sections->len, ==, 1);
  s = &g_array_index (sections, CsKmodSection, 0);
  g_assert_cmpint (o.a_ns, ==, s->begin_ns);
  g_assert_cmpint (o.b_ns, ==, s->end_ns);
  g_assert_cmpint (o.b_ns - o.a_ns, >=, 18 * MS);
  g_assert_cmpint (o.b_ns - o.a_ns, <=, 40 * MS);
  close_demo (&o);
}

static void
test_wakeup_latency (void)
{
  Opened o;
  g_autoptr(GArray) latencies = NULL;
  g_autoptr(GArray) sections = NULL;
  g_autoptr(GError) error = NULL;
  const CsKmodWakeupLatency *worst = NULL;
  gboolean in_section = FALSE;

  open_demo (&o, "wakeup-latency");
  latencies = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  sections = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  read_kmod (o.document, sections, latencies);
  g_clear_pointer (&sections, g_array_unref);
  for (guint i = 0; i < latencies->len; i++)
    {
      const CsKmodWakeupLatency *l = &g_array_index (latencies, CsKmodWakeupLatency, i);

      if (strcmp (l->comm, CS_DEMO_SLEEPER_COMM) == 0 && (worst == NULL || l->latency_ns > worst->latency_ns))
        worst = l;
    }
  g_assert_nonnull (worst);
  g_assert_cmpuint (worst->latency_ns, >, worst->threshold_ns);
  /* B: the sched_switch that ran the sleeper, right after the event. */
  g_assert_cmpint (o.b_ns, >=, worst->time_ns);
  g_assert_cmpint (o.b_ns - worst->time_ns, <, 1 * MS);
  /* A: its wakeup, inside the preempt-off section that delayed it. */
  sections = sections_of (o.document, CS_KMOD_SECTION_PREEMPT_OFF);
  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);

      if ((gint32) s->cpu == worst->target_cpu && s->begin_ns <= o.a_ns && o.a_ns < s->end_ns &&
          o.b_ns >= s->end_ns)
        in_section = TRUE;
    }
  g_assert_true (in_section);
  g_assert_true (cs_analysis_has_task_plot (cs_window_get_analysis (o.window), worst->pid));
  close_demo (&o);
}

static void
test_preemption (void)
{
  Opened o;
  g_autoptr(GArray) sections = NULL;
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  g_autoptr(GError) error = NULL;
  const CsKmodSection *s;
  gint32 spinner = -1;
  gboolean runnable = FALSE;

  open_demo (&o, "preemption");
  sections = sections_of (o.document, CS_KMOD_SECTION_PREEMPT_OFF);
  g_assert_cmpuint (sections->len, ==, 1);
  s = &g_array_index (sections, CsKmodSection, 0);
  g_assert_cmpint (o.a_ns, <=, s->begin_ns + 1 * MS);
  g_assert_cmpint (o.b_ns, >=, s->end_ns);

  for (guint i = 0; i < cs_document_get_n_tasks (o.document); i++)
    if (g_strcmp0 (cs_document_get_task (o.document, i)->comm, CS_DEMO_SPINNER_COMM) == 0)
      spinner = cs_document_get_task (o.document, i)->pid;
  g_assert_cmpint (spinner, >, 0);
  g_assert_true (cs_analysis_has_task_plot (cs_window_get_analysis (o.window), spinner));
  /* Between A and B the spinner was runnable (preempted), not running. */
  g_assert_true (cs_document_get_task_intervals (o.document, spinner, o.a_ns, o.b_ns, intervals, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < intervals->len; i++)
    {
      const CsTaskInterval *iv = &g_array_index (intervals, CsTaskInterval, i);

      g_assert_cmpint (iv->state, !=, CS_TASK_RUNNING);
      if (iv->state == CS_TASK_RUNNABLE && iv->begin_ns <= o.a_ns && iv->end_ns >= o.b_ns)
        runnable = TRUE;
    }
  g_assert_true (runnable);
  close_demo (&o);
}

/* tests/data's recording of the module's sections, opened as each demo
 * that finds its markers there. */
static void
test_testdata_list_at_a (gconstpointer data)
{
  const char *scenario = data;
  g_autofree char *path = testdata_recording ();
  Opened o;

  open_demo_file (&o, scenario, path);
  close_demo (&o);
}

/* The kmod plugin switched off in the window: the demo still places A/B
 * as the recording opens, from the plugin's pass run for it alone (the
 * first test on this recording: the cache has no results yet), on the
 * irqs-off section. */
static void
test_testdata_plugin_off (void)
{
  CsPluginHost *host = cs_plugin_host_get_default ();
  CsPlugin *kmod = cs_plugin_registry_lookup (cs_plugin_host_get_registry (host), CS_DEMO_KMOD_PLUGIN);
  g_autofree char *path = testdata_recording ();
  g_autoptr(GArray) sections = NULL;
  const CsKmodSection *s;
  Opened o;

  g_assert_nonnull (kmod);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(CsDocument) document = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
    g_autoptr(CsPluginDocument) plugins = NULL;

    g_assert_no_error (error);
    plugins = cs_plugin_host_open_results (document, FALSE);
    g_assert_false (_cs_plugin_document_pass_is_ready (plugins, kmod, CS_DEMO_KMOD_PASS, NULL));
  }
  cs_plugin_host_set_enabled (host, kmod, FALSE);
  open_demo_file (&o, "irqs-off", path);
  g_assert_false (cs_plugin_host_is_enabled (host, kmod));
  {
    g_autoptr(CsPluginDocument) plugins = cs_plugin_host_open_results (o.document, FALSE);

    g_assert_true (_cs_plugin_document_pass_is_ready (plugins, kmod, CS_DEMO_KMOD_PASS, NULL));
  }
  sections = sections_of (o.document, CS_KMOD_SECTION_IRQS_OFF);
  g_assert_cmpuint (sections->len, ==, 1);
  s = &g_array_index (sections, CsKmodSection, 0);
  g_assert_cmpint (o.a_ns, ==, s->begin_ns);
  g_assert_cmpint (o.b_ns, ==, s->end_ns);
  close_demo (&o);
  cs_plugin_host_set_enabled (host, kmod, TRUE);
}

static gboolean
dialog_settled (gpointer data)
{
  const char *status = cs_demo_dialog_get_status (data);

  return status != NULL && strstr (status, CS_DEMO_MODULE_NAME) != NULL;
}

/* Every part of the dialog (message, Run Demo...) gets the height it needs
 * at its width and lies inside the window: the helper's message may wrap
 * over several lines once the dialog is shown, and must not push the rest
 * out of sight. */
static gboolean
dialog_fits (gpointer data)
{
  GtkWidget *dialog = data;
  GtkWidget *box = gtk_window_get_child (GTK_WINDOW (dialog));

  if (gtk_widget_get_height (box) <= 0)
    return FALSE;
  for (GtkWidget *c = gtk_widget_get_first_child (box); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      graphene_rect_t bounds;
      int min_height = 0;

      gtk_widget_measure (c, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (c),
                          &min_height, NULL, NULL, NULL);
      if (gtk_widget_get_height (c) < min_height ||
          !gtk_widget_compute_bounds (c, dialog, &bounds) ||
          bounds.origin.y + bounds.size.height > gtk_widget_get_height (dialog) + 0.5)
        return FALSE;
    }
  return TRUE;
}

static CsDemoDialog *
open_dialog (CsWindow *window)
{
  CsDemoDialog *dialog = NULL;
  GList *toplevels;

  gtk_widget_activate_action (GTK_WIDGET (window), "win.demo", NULL);
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (CS_IS_DEMO_DIALOG (l->data))
      dialog = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (dialog);
  return dialog;
}

static void
test_dialog_without_module (void)
{
  CsWindow *window;
  CsDemoDialog *dialog;
  g_autoptr(GError) error = NULL;

  if (geteuid () != 0 || cs_demo_check_module (NULL, &error) ||
      !g_error_matches (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE))
    {
      /* Never load a module into the machine that runs the tests. */
      g_test_skip ("needs root and a kernel without chronoscope_tracer");
      return;
    }

  window = cs_test_new_window (900, 600);
  dialog = open_dialog (window);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));

  /* As root the helper runs directly; the host's kernel lacks the module,
   * and the helper says so in the dialog. */
  cs_demo_dialog_run (dialog, "irqs-off");
  cs_test_wait_until (dialog_settled, dialog, "the helper's answer");
  g_test_message ("dialog: %s", cs_demo_dialog_get_status (dialog));
  g_assert_nonnull (strstr (cs_demo_dialog_get_status (dialog), "is not installed for kernel"));
  g_assert_nonnull (strstr (cs_demo_dialog_get_status (dialog), "DKMS"));
  g_assert_true (cs_window_get_state (window) == CS_WINDOW_STATE_EMPTY);
  cs_test_wait_until (dialog_fits, dialog, "the dialog to grow around the message");
  cs_test_save_screenshot (GTK_WIDGET (dialog), "demo-dialog-no-module.png");
  cs_test_destroy_window (window);
}

/* The release modinfo reads in the module's vermagic, the way kmod does. */
static char *
modinfo_release (const char *path)
{
  const char *argv[] = { "modinfo", "-F", "vermagic", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_strndup (out, strcspn (out, " \n"));
}

static void
test_dialog_built_module (void)
{
  const char *module = g_getenv ("CS_KMOD_MODULE");
  g_autofree char *built_for = NULL;
  g_autofree char *status = NULL;
  g_autoptr(GSettings) settings = NULL;
  struct utsname u;
  CsWindow *window;
  CsDemoDialog *dialog;
  const char *text;

  if (module == NULL || !g_file_test (module, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("needs the module built with -Dkmod=true ($CS_KMOD_MODULE)");
      return;
    }
  g_assert_cmpint (uname (&u), ==, 0);
  built_for = modinfo_release (module);
  if (built_for == NULL)
    built_for = cs_demo_module_dup_kernel_release (module, NULL);
  g_assert_nonnull (built_for);
  if (g_str_equal (built_for, u.release) || g_file_test ("/sys/module/" CS_DEMO_MODULE_NAME, G_FILE_TEST_EXISTS))
    {
      /* Never load a module into the machine that runs the tests. */
      g_test_skip ("the module was built for this kernel, or is loaded");
      return;
    }

  window = cs_test_new_window (900, 600);
  dialog = open_dialog (window);
  g_assert_null (cs_demo_dialog_get_module_path (dialog));
  g_assert_nonnull (strstr (cs_demo_dialog_get_module_text (dialog), u.release));

  /* As "Choose…" does: the dialog names the file and its kernel. */
  cs_demo_dialog_set_module_path (dialog, module);
  text = cs_demo_dialog_get_module_text (dialog);
  g_test_message ("module: %s", text);
  g_assert_nonnull (strstr (text, module));
  g_assert_nonnull (strstr (text, built_for));
  g_assert_nonnull (strstr (text, "will refuse it"));
  settings = g_settings_new ("org.chronoscope.Chronoscope");
  g_assert_cmpstr (g_settings_get_string (settings, "demo-module"), ==, module);

  /* Closed and opened again, the dialog still uses it. */
  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_test_spin (50);
  dialog = open_dialog (window);
  g_assert_cmpstr (cs_demo_dialog_get_module_path (dialog), ==, module);

  if (geteuid () == 0)
    {
      /* The helper (as root, directly) refuses the file for this kernel,
       * naming it and both kernels, and the dialog shows its words. */
      cs_demo_dialog_run (dialog, "irqs-off");
      cs_test_wait_until (dialog_settled, dialog, "the helper's answer");
      status = g_strdup (cs_demo_dialog_get_status (dialog));
      g_test_message ("dialog: %s", status);
      g_assert_nonnull (strstr (status, module));
      g_assert_nonnull (strstr (status, "was built for kernel"));
      g_assert_nonnull (strstr (status, built_for));
      g_assert_nonnull (strstr (status, u.release));
      g_assert_false (g_file_test ("/sys/module/" CS_DEMO_MODULE_NAME, G_FILE_TEST_EXISTS));
      g_assert_true (cs_window_get_state (window) == CS_WINDOW_STATE_EMPTY);
      cs_test_wait_until (dialog_fits, dialog, "the dialog to grow around the message");
      cs_test_save_screenshot (GTK_WIDGET (dialog), "demo-dialog-built-module.png");
    }

  /* "Use Installed" forgets the file. */
  cs_demo_dialog_set_module_path (dialog, NULL);
  g_assert_cmpstr (g_settings_get_string (settings, "demo-module"), ==, "");
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-demo-window", TRUE);

  g_test_add_func ("/cs/gui/Demo/dialog-without-module", test_dialog_without_module);
  g_test_add_func ("/cs/gui/Demo/dialog-built-module", test_dialog_built_module);
  /* First on tests/data's recording: no pass results in the cache yet. */
  g_test_add_func ("/cs/gui/Demo/plugin-off/irqs-off", test_testdata_plugin_off);
  g_test_add_data_func ("/cs/gui/Demo/list-at-marker-a/irqs-off", "irqs-off", test_testdata_list_at_a);
  g_test_add_data_func ("/cs/gui/Demo/list-at-marker-a/preemption", "preemption", test_testdata_list_at_a);
  if (g_getenv ("CS_DEMO_RECORDINGS") != NULL)
    {
      g_test_add_func ("/cs/gui/Demo/irqs-off-markers", test_irqs_off);
      g_test_add_func ("/cs/gui/Demo/wakeup-latency-markers", test_wakeup_latency);
      g_test_add_func ("/cs/gui/Demo/preemption-markers", test_preemption);
    }

  return cs_test_gui_run ();
}
