/* test-plugins-gui.c: plugins in the window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The example plugin (plugins/example, loaded as with -p) and every
 * built-in found through CHRONOSCOPE_PLUGIN_PATH: the Plugins dialog lists
 * them with a switch; turning a plugin off and on applies to the open
 * recording at once and changes the pixels of what it draws (its rows and
 * its overlays on CPU and task plots); its pass ran in the worker in the
 * background; the info bar shows its item under the pointer and a
 * double-click puts marker A there; its page is a tab beside the event
 * list.  The migrations the example finds are checked against
 * `trace-cmd report` (the oracle), not against Chronoscope.
 *
 * The window runs its workers as /proc/self/exe index-worker: this
 * program answers that itself, exporting the plugin API as chronoscope
 * does.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-plugin-host.h"
#include "cs-plugin-private.h"
#include "cs-plugins-dialog.h"
#include "cs-session.h"
#include "cs-window-plugins.h"
#include "gui-test-util.h"

static const char *example_path;

static gboolean
passes_done (gpointer data)
{
  return !cs_plugin_window_get_pass_running (cs_window_get_plugins (data));
}

/* The oracle's count of one event type. */
static gint64
oracle_count (const char *path,
              const char *type)
{
  const char *argv[] = { "python3", g_getenv ("CS_ORACLE"), path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *pattern = g_strdup_printf ("\"%s\": ", type);
  const char *at;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  at = strstr (out, pattern);
  return at != NULL ? g_ascii_strtoll (at + strlen (pattern), NULL, 10) : 0;
}

static CsPluginsDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (CS_IS_PLUGINS_DIALOG (window))
        return CS_PLUGINS_DIALOG (window);
    }
  return NULL;
}

static CsTestPixels
snapshot_timeline (CsWindow *window)
{
  CsTestPixels pixels;

  GtkWidget *timeline = GTK_WIDGET (cs_window_get_timeline (window));
  int width = -1, height = -1;
  guint n_stable = 0;

  gtk_widget_queue_draw (timeline);
  cs_test_spin (150);
  cs_test_wait_until (passes_done, window, "the plugin passes");
  /* The pass's progress leaving the info bar gives the timeline back its
   * height some frames later; a loaded machine takes longer than a fixed
   * wait.  Take the picture once the size has held for three looks (at
   * most 10 s). */
  for (guint i = 0; i < 100 && n_stable < 3; i++)
    {
      cs_test_spin (100);
      if (gtk_widget_get_width (timeline) == width && gtk_widget_get_height (timeline) == height)
        n_stable++;
      else
        n_stable = 0;
      width = gtk_widget_get_width (timeline);
      height = gtk_widget_get_height (timeline);
    }
  cs_test_pixels_init (&pixels, timeline);
  return pixels;
}

static guint64
count_differences (const CsTestPixels *a,
                   const CsTestPixels *b)
{
  guint64 n = 0;

  if (a->width != b->width || a->height != b->height)
    return G_MAXUINT64;
  for (int y = 0; y < a->height; y++)
    n += memcmp (a->pixels + y * a->stride, b->pixels + y * b->stride, a->stride) != 0;
  return n;
}

/* Whether @plugin draws in @window: a layer over CPU or task plots, or a
 * row of its own that the window shows (a plugin whose rows the user
 * must add first draws nothing until then).  The latency plugin's layer
 * draws the pairs of the definition the user ran on its page, nothing
 * before (tests/plugins/latency/test-latency-page.c runs one and checks
 * its brackets). */
static gboolean
plugin_draws (CsPlugin *plugin,
              CsWindow *window)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (cs_window_get_timeline (window));

  if (g_str_equal (cs_plugin_get_id (plugin), "latency"))
    return FALSE;

  for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_LAYER); k++)
    {
      const CsPluginLayerInfo *layer = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_LAYER, k);

      if (layer->target != CS_PLUGIN_LAYER_ROW)
        return TRUE;
    }
  for (guint i = 0; i < cs_timeline_renderer_get_n_plugin_rows (renderer); i++)
    {
      CsPluginRowSpec row;

      cs_timeline_renderer_get_plugin_row (renderer, i, &row, NULL);
      if (row.plugin == plugin)
        return TRUE;
    }
  return FALSE;
}

/* Switches @plugin off then on in the dialog; returns how many pixel
 * rows of the timeline changed while it was off. */
static guint64
toggle_and_compare (CsWindow        *window,
                    CsPluginsDialog *dialog,
                    CsPlugin        *plugin)
{
  CsPluginDocument *document = cs_plugin_window_get_plugins (cs_window_get_plugins (window));
  GtkSwitch *sw = cs_plugins_dialog_get_switch (dialog, cs_plugin_get_id (plugin));
  CsTestPixels on, off, again;
  guint64 changed;

  g_assert_nonnull (sw);
  g_assert_true (gtk_switch_get_active (sw));
  g_assert_true (_cs_plugin_document_is_enabled (document, plugin));
  on = snapshot_timeline (window);

  gtk_switch_set_active (sw, FALSE);
  g_assert_false (cs_plugin_host_is_enabled (cs_plugin_host_get_default (), plugin));
  g_assert_false (_cs_plugin_document_is_enabled (document, plugin));
  off = snapshot_timeline (window);

  gtk_switch_set_active (sw, TRUE);
  g_assert_true (_cs_plugin_document_is_enabled (document, plugin));
  again = snapshot_timeline (window);

  changed = count_differences (&on, &off);
  /* Back on, it draws what it drew (its results are reused). */
  g_assert_cmpuint (count_differences (&on, &again), ==, 0);
  cs_test_pixels_clear (&on);
  cs_test_pixels_clear (&off);
  cs_test_pixels_clear (&again);
  return changed;
}

static void
test_dialog_toggles_each_plugin (void)
{
  /* The recordings, and the task given a task plot there (the atrace
   * plugin draws on the plot of a task with slices: cs-app's, in the
   * systrace text). */
  const char *names[] = { "sched-irq-v6.dat", "missed-events-v7.dat", "kmod-sections-v7.dat",
                          "atrace-tgid.txt" };
  const gint32 task_pids[] = { 1, 1, 1, 9184 };
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  g_autoptr(GPtrArray) plugins = cs_plugin_registry_dup_plugins (registry);
  g_autoptr(GHashTable) changed = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) draws = g_hash_table_new (NULL, NULL);
  CsPlugin *example = cs_plugin_registry_lookup (registry, "migrations");

  g_assert_nonnull (example);
  for (guint r = 0; r < G_N_ELEMENTS (names); r++)
    {
      g_autofree char *path = cs_test_own_path (names[r]);
      CsWindow *window = cs_test_open_window (path, 1200, 800);
      CsPluginsDialog *dialog;

      /* A task plot, for overlays of task plots. */
      cs_analysis_add_task_plot (cs_window_get_analysis (window), task_pids[r]);
      cs_test_wait_until (passes_done, window, "the plugin passes");
      cs_test_activate (window, "plugins", NULL);
      cs_test_spin (100);
      dialog = find_dialog ();
      g_assert_nonnull (dialog);
      for (guint i = 0; i < plugins->len; i++)
        {
          CsPlugin *plugin = g_ptr_array_index (plugins, i);
          guint64 rows;

          if (plugin_draws (plugin, window))
            g_hash_table_add (draws, plugin);
          rows = toggle_and_compare (window, dialog, plugin);

          g_test_message ("%s on %s: %" G_GUINT64_FORMAT " pixel rows changed",
                          cs_plugin_get_id (plugin), names[r], rows);
          if (rows > 0)
            g_hash_table_add (changed, plugin);
        }
      gtk_window_destroy (GTK_WINDOW (dialog));
      cs_test_destroy_window (window);
    }
  /* Every plugin with layers drew something on one of the recordings. */
  for (guint i = 0; i < plugins->len; i++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, i);

      if (g_hash_table_contains (draws, plugin))
        g_assert_true (g_hash_table_contains (changed, plugin) || (g_test_message (
                       "%s drew nothing on the test recordings", cs_plugin_get_id (plugin)), FALSE));
    }
}

/* The field plot draws only rows the user adds: with one shown, switching
 * it off in the dialog takes the row's pixels away and switching it on
 * brings them back.  Registered last: the row stays in the session. */
static void
test_dialog_toggles_field_plot_row (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  CsPlugin *field_plot = cs_plugin_registry_lookup (registry, "field-plot");
  CsWindow *window;
  CsPluginsDialog *dialog;

  if (field_plot == NULL)
    {
      g_test_skip ("the field-plot built-in is not on CHRONOSCOPE_PLUGIN_PATH");
      return;
    }
  window = cs_test_open_window (path, 1200, 800);
  cs_plugin_window_add_row (cs_window_get_plugins (window), field_plot, "values",
                            "sched:sched_switch.next_pid");
  cs_test_wait_until (passes_done, window, "the plugin passes");
  cs_test_activate (window, "plugins", NULL);
  cs_test_spin (100);
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  g_assert_cmpuint (toggle_and_compare (window, dialog, field_plot), >, 0);
  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_plugin_window_remove_row (cs_window_get_plugins (window), field_plot, "values",
                               "sched:sched_switch.next_pid");
  cs_test_destroy_window (window);
}

static void
test_example_in_window (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  gint64 expected = oracle_count (path, "sched:sched_migrate_task");
  CsWindow *window = cs_test_open_window (path, 1200, 800);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  g_autofree char *page_text = NULL;
  GtkWidget *page_label;
  double y, height;
  gboolean found = FALSE;

  g_assert_cmpint (expected, >, 0);
  cs_test_wait_until (passes_done, window, "the plugin passes");
  cs_test_spin (200);

  /* Its page, as a tab beside the event list, counts the migrations of
   * the whole recording (no markers). */
  page_text = g_strdup_printf ("%" G_GINT64_FORMAT " task migrations in this range", expected);
  page_label = cs_test_find_visible_label (GTK_WIDGET (window), page_text, GTK_WIDGET (window));
  if (page_label == NULL)
    {
      /* Not the visible tab: look among all pages. */
      GtkNotebook *notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (
        GTK_WIDGET (cs_window_get_event_list_view (window)), GTK_TYPE_NOTEBOOK));

      g_assert_nonnull (notebook);
      g_assert_true (gtk_notebook_get_show_tabs (notebook));
      for (int i = 0; i < gtk_notebook_get_n_pages (notebook); i++)
        {
          GtkWidget *child = gtk_notebook_get_nth_page (notebook, i);

          if (GTK_IS_LABEL (child) && g_str_equal (gtk_label_get_label (GTK_LABEL (child)), page_text))
            page_label = child;
        }
    }
  g_assert_nonnull (page_label);

  /* The event list's "Plugins" column says which migration of its task
   * a sched_migrate_task event is. */
  {
    CsDocument *document = cs_timeline_get_document (timeline);
    CsPluginDocument *plugins = cs_plugin_window_get_plugins (cs_window_get_plugins (window));
    GListModel *columns = gtk_column_view_get_columns (
      cs_event_list_view_get_column_view (cs_window_get_event_list_view (window)));
    g_autoptr(GtkColumnViewColumn) last = g_list_model_get_item (columns, g_list_model_get_n_items (columns) - 1);
    g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
    guint n_described = 0;

    g_assert_cmpstr (gtk_column_view_column_get_title (last), ==, "Plugins");
    g_assert_true (gtk_column_view_column_get_visible (last));
    for (guint cpu = 0; cpu < cs_document_get_n_cpus (document); cpu++)
      g_assert_true (cs_document_get_events (document, cpu, cs_document_get_first_ns (document),
                                             cs_document_get_last_ns (document) + 1, 100000,
                                             events, NULL));
    for (guint i = 0; i < events->len; i++)
      {
        const CsEvent *event = &g_array_index (events, CsEvent, i);
        const CsEventType *type = cs_document_get_event_type (document, event->type_id);
        CsPluginEventRef ref = { event->ts_ns, event->cpu, event->pid, type->system, type->name,
                                 event->row };
        g_autofree char *text = _cs_plugin_document_describe_event (plugins, &ref);

        if (g_str_equal (type->name, "sched_migrate_task"))
          {
            g_assert_nonnull (text);
            g_assert_nonnull (strstr (text, "migration "));
            n_described++;
          }
        else  /* other plugins may describe other events */
          g_assert_true (text == NULL || strstr (text, "migration ") == NULL);
      }
    g_assert_cmpint (n_described, ==, expected);
  }

  /* Its row (the page added it), and what the info bar says over it. */
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 1);
  cs_timeline_renderer_get_plugin_row_area (renderer, 0, &y, &height);
  for (int x = 80; x < gtk_widget_get_width (GTK_WIDGET (timeline)) && !found; x++)
    {
      cs_timeline_hover_at (timeline, x, y + height / 2);
      if (strstr (cs_timeline_get_hover_text (timeline), "migrated from CPU") != NULL)
        {
          gint64 a_ns;

          found = TRUE;
          cs_timeline_click_at (timeline, x, y + height / 2, 1, 0);
          cs_timeline_click_at (timeline, x, y + height / 2, 2, 0);
          a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
          g_assert_cmpint (a_ns, !=, CS_MARKER_UNSET);
          g_assert_cmpfloat (fabs (cs_test_timeline_x (timeline, a_ns) - x), <=, 5.0);
        }
    }
  g_assert_true (found);
  cs_test_save_screenshot (GTK_WIDGET (window), "plugins-example");
  cs_test_destroy_window (window);
}

static gboolean
window_ready (gpointer data)
{
  return cs_test_window_is_ready (data) && passes_done (data);
}

/* Sessions keep which plugins are off and the plugin rows. */
static void
test_session (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *session_path = g_build_filename (cs_test_work_dir, "plugins.session", NULL);
  g_autofree char *text = NULL;
  CsPluginHost *host = cs_plugin_host_get_default ();
  CsPlugin *example = cs_plugin_registry_lookup (cs_plugin_host_get_registry (host), "migrations");
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  g_autoptr(CsSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) rows = NULL;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  rows = cs_plugin_window_dup_rows (cs_window_get_plugins (window));
  g_assert_cmpstr (rows[0], ==, "migrations:migrations_row:all");
  /* The view model holds the rows the plugins added (bound, not copied
   * when a session is saved). */
  g_assert_true (g_strv_equal (cs_view_model_get_plugin_rows (cs_window_get_model (window)),
                               (const char * const *) rows));
  cs_plugin_host_set_enabled (host, example, FALSE);
  session = cs_session_capture (cs_window_get_model (window));
  g_assert_true (cs_session_save (session, session_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (session_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"disabled\" : [\n      \"migrations\""));
  g_assert_nonnull (strstr (text, "\"migrations:migrations_row:all\""));
  cs_test_destroy_window (window);

  /* Turned back on here, off again by the session. */
  cs_plugin_host_set_enabled (host, example, TRUE);
  window = cs_test_new_window (1000, 700);
  g_assert_true (cs_window_open_session (window, session_path, &error));
  g_assert_no_error (error);
  cs_test_wait_until (window_ready, window, "the session's recording");
  cs_test_spin (300);
  g_assert_false (cs_plugin_host_is_enabled (host, example));
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (
                      cs_timeline_get_renderer (cs_window_get_timeline (window))), ==, 0);
  /* On again: its row, as the session kept it, comes back. */
  cs_plugin_host_set_enabled (host, example, TRUE);
  cs_test_wait_until (passes_done, window, "the plugin passes");
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (
                      cs_timeline_get_renderer (cs_window_get_timeline (window))), ==, 1);
  cs_test_destroy_window (window);
}

typedef struct {
  GtkWidget *widget;
  int width;
  int height;
} SizeWait;

static gboolean
has_size (gpointer data)
{
  SizeWait *wait = data;

  return gtk_widget_get_width (wait->widget) == wait->width &&
         gtk_widget_get_height (wait->widget) == wait->height;
}

static gboolean
window_ready_now (gpointer data)
{
  return cs_window_get_state (data) == CS_WINDOW_STATE_READY;
}

/* A pass's results are kept with the index: the second window on a
 * recording runs no pass and draws them at once. */
static void
test_results_reused (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsTimelineRenderer *renderer;
  CsTestPixels first, second;

  cs_test_wait_until (passes_done, window, "the plugin passes");
  first = snapshot_timeline (window);
  cs_test_destroy_window (window);

  window = cs_test_new_window (1000, 700);
  cs_window_open_file (window, file);
  cs_test_wait_until (window_ready_now, window, "the recording");
  g_assert_false (cs_plugin_window_get_pass_running (cs_window_get_plugins (window)));
  cs_test_wait_until (cs_test_widget_is_drawable, cs_window_get_timeline (window), "the timeline");
  cs_test_spin (200);
  g_assert_false (cs_plugin_window_get_pass_running (cs_window_get_plugins (window)));
  renderer = cs_timeline_get_renderer (cs_window_get_timeline (window));
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 1);
  /* The second window's paned settles on the first one's height some
   * frames after its first draw; on a loaded machine that can take longer
   * than snapshot_timeline()'s look at a steady size. */
  {
    SizeWait wait = { GTK_WIDGET (cs_window_get_timeline (window)), first.width, first.height };

    cs_test_wait_until (has_size, &wait, "the timeline at the first window's size");
  }
  second = snapshot_timeline (window);
  g_assert_cmpint (second.width, ==, first.width);
  g_assert_cmpint (second.height, ==, first.height);
  g_assert_cmpuint (count_differences (&first, &second), ==, 0);
  cs_test_pixels_clear (&first);
  cs_test_pixels_clear (&second);
  cs_test_destroy_window (window);
}

static gboolean
item_selected (gpointer window)
{
  return cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window)) != NULL;
}

/* What a page can ask of the window (cs-plugin-window.h). */
static void
test_window_api (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsPluginWindow *plugins = cs_window_get_plugins (window);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 last_ns = cs_document_get_last_ns (document);
  gint64 mid_ns = first_ns + (last_ns - first_ns) / 2;
  gint64 begin_ns, end_ns;
  const CsEvent *event;
  guint n_pids;

  g_assert_true (cs_plugin_window_get_document (plugins) == cs_plugin_window_get_plugins (plugins));
  g_assert_true (cs_plugin_window_get_toplevel (plugins) == GTK_WINDOW (window));

  /* Without markers the range is the whole recording; with A and B, [A, B]. */
  cs_plugin_window_get_range (plugins, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, first_ns);
  g_assert_cmpint (end_ns, ==, last_ns + 1);
  cs_plugin_window_set_markers (plugins, mid_ns, mid_ns + 1000000);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, mid_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, mid_ns + 1000000);
  cs_plugin_window_get_range (plugins, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, mid_ns);
  g_assert_cmpint (end_ns, ==, mid_ns + 1000001);

  /* show_span puts the span inside the view, with a margin. */
  cs_plugin_window_show_span (plugins, mid_ns, mid_ns + 1000000);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <, mid_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >, mid_ns + 1000000);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), <, 2000000);

  /* select_event: the first event of the CPU at or after the time. */
  g_assert_true (cs_plugin_window_select_event (plugins, 1, mid_ns));
  cs_test_wait_until (item_selected, window, "the selected event");
  event = cs_event_item_get_event (cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window)));
  g_assert_cmpuint (event->cpu, ==, 1);
  g_assert_cmpint (event->ts_ns, >=, mid_ns);
  g_assert_false (cs_plugin_window_select_event (plugins, 1, last_ns + 1));
  g_assert_false (cs_plugin_window_select_event (plugins, 99, mid_ns));

  /* add_task_plot, once. */
  cs_plugin_window_add_task_plot (plugins, event->pid);
  cs_plugin_window_add_task_plot (plugins, event->pid);
  cs_analysis_get_task_plots (cs_window_get_analysis (window), &n_pids);
  g_assert_cmpuint (n_pids, ==, 1);

  /* remove_row drops the example's row; add_row brings it back. */
  cs_plugin_window_remove_row (plugins, cs_plugin_registry_lookup (
    cs_plugin_host_get_registry (cs_plugin_host_get_default ()), "migrations"), "migrations_row", "all");
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (cs_timeline_get_renderer (timeline)), ==, 0);
  cs_plugin_window_add_row (plugins, cs_plugin_registry_lookup (
    cs_plugin_host_get_registry (cs_plugin_host_get_default ()), "migrations"), "migrations_row", "all");
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (cs_timeline_get_renderer (timeline)), ==, 1);
  cs_plugin_window_queue_draw (plugins);
  cs_test_destroy_window (window);
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* A pass with a parameter, asked for from the window: it runs in the
 * background with its progress and Cancel in the info bar; Cancel leaves
 * no results; asked again, it completes. */
static void
test_requested_pass_and_cancel (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  CsPlugin *census = cs_plugin_registry_lookup (registry, "census");
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsPluginWindow *plugins = cs_window_get_plugins (window);
  CsPluginDocument *document;
  const CsPluginPassInfo *info;
  g_autofree char *results = NULL;

  g_assert_nonnull (census);
  cs_test_wait_until (passes_done, window, "the plugin passes");
  document = cs_plugin_window_get_plugins (plugins);
  info = _cs_plugin_find_pass (census, "census");
  results = _cs_plugin_document_dup_pass_path (document, census, info, "sched:*");
  g_assert_false (g_file_test (results, G_FILE_TEST_EXISTS));

  /* The pass's worker holds until it is cancelled (cs-test-hook.c): a
   * pass over 2,512 events could otherwise be done before Cancel. */
  g_setenv ("CS_PASS_TEST_HANG", "1", TRUE);
  cs_plugin_document_request_pass (document, census, "census", "sched:*");
  g_assert_true (cs_plugin_window_get_pass_running (plugins));
  g_assert_nonnull (cs_test_find_visible_label (GTK_WIDGET (window),
                                                "Census: reading the recording…", GTK_WIDGET (window)));
  cs_plugin_window_cancel_passes (plugins);
  cs_test_wait_until (passes_done, window, "the cancelled pass");
  cs_test_spin (200);
  g_assert_false (g_file_test (results, G_FILE_TEST_EXISTS));
  g_assert_null (cs_test_find_visible_label (GTK_WIDGET (window),
                                             "Census: reading the recording…", GTK_WIDGET (window)));

  g_unsetenv ("CS_PASS_TEST_HANG");
  cs_plugin_document_request_pass (document, census, "census", "sched:*");
  cs_test_wait_until (passes_done, window, "the pass");
  cs_test_wait_until (file_exists, results, "the pass's results");
  g_assert_nonnull (cs_plugin_document_get_pass_db (document, census, "census", "sched:*", NULL));

  /* Closing the window stops a running pass, which leaves no results. */
  g_free (results);
  results = _cs_plugin_document_dup_pass_path (document, census, info, "irq:*");
  g_setenv ("CS_PASS_TEST_HANG", "1", TRUE);
  cs_plugin_document_request_pass (document, census, "census", "irq:*");
  g_assert_true (cs_plugin_window_get_pass_running (plugins));
  cs_test_destroy_window (window);
  cs_test_spin (1000);
  g_unsetenv ("CS_PASS_TEST_HANG");
  g_assert_false (g_file_test (results, G_FILE_TEST_EXISTS));
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  example_path = g_getenv ("CS_EXAMPLE_PLUGIN");
  g_assert_nonnull (example_path);
  cs_plugin_host_add_file (example_path);
  g_assert_nonnull (g_getenv ("CS_CENSUS_PLUGIN"));
  cs_plugin_host_add_file (g_getenv ("CS_CENSUS_PLUGIN"));
  cs_test_gui_init (&argc, &argv, "test-plugins-gui", TRUE);

  g_test_add_func ("/cs/gui/Plugins/example-in-window", test_example_in_window);
  g_test_add_func ("/cs/gui/Plugins/dialog-toggles-each", test_dialog_toggles_each_plugin);
  g_test_add_func ("/cs/gui/Plugins/session", test_session);
  g_test_add_func ("/cs/gui/Plugins/results-reused", test_results_reused);
  g_test_add_func ("/cs/gui/Plugins/requested-pass-cancel", test_requested_pass_and_cancel);
  g_test_add_func ("/cs/gui/Plugins/window-api", test_window_api);
  g_test_add_func ("/cs/gui/Plugins/dialog-toggles-field-plot-row", test_dialog_toggles_field_plot_row);

  return cs_test_gui_run ();
}
