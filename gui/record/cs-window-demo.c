/* cs-window-demo.c: opening a classroom demo's recording in a window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * After a demo (the Classroom Demos dialog, `chronoscope demo`, or
 * `chronoscope --demo=NAME FILE`) the window opens the recording like any
 * other, and once it is shown finds markers A and B in its index with
 * cs_demo_find_markers(), the code `chronoscope demo` prints them with:
 * marker A where the latency begins, B where it ends, the view zoomed
 * around them, and a task plot for the task the demo delayed.  The event
 * list is scrolled to the event at A and selects it (the section's begin,
 * the sleeper's sched_waking, the spinner's sched_switch), so that the
 * class reads the begin/end events and the module's wakeup_latency line
 * next to it without hunting through thousands of rows.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-demo.h"
#include "cs-demo-dialog.h"
#include "cs-plugin-host.h"
#include "cs-window-actions.h"
#include "cs-window-demo.h"
#include "cs-window-plugins.h"
#include "cs-window-private.h"

#define DEMO_ERROR_KEY "cs-demo-error"

/* The teacher's view ends on the Latency page, the demo's preset run:
 * the injected latency heads its worst-first list.  Without the latency
 * plugin (disabled) the markers and the list are all there is. */
static void
show_latency_page (CsWindow   *window,
                   const char *preset)
{
  if (preset != NULL)
    cs_plugin_window_show_page (cs_window_get_plugins (window), "latency", "latency", preset);
}

typedef struct {
  CsWindow *window;    /* weak */
  GFile *file;
  char *scenario;
  gulong handler_id;
} Pending;

static void
pending_free (gpointer data, GClosure *closure)
{
  Pending *pending = data;

  g_clear_weak_pointer (&pending->window);
  g_object_unref (pending->file);
  g_free (pending->scenario);
  g_free (pending);
}

/* Nothing to decide: the recording is open, only the markers are missing;
 * a toast says why. */
static void
show_error (CsWindow *window, const char *scenario, const GError *error)
{
  g_autofree char *title = NULL;

  g_object_set_data_full (G_OBJECT (window), DEMO_ERROR_KEY, g_strdup (error->message), g_free);
  /* TRANSLATORS: a toast; the first %s is a demo's name, the second why */
  title = g_strdup_printf (_("No markers for the %s demo: %s"), scenario, error->message);
  cs_window_show_toast (window, title);
}

/* The event at marker A: on the demo's CPU first (the section's begin,
 * the spinner's switch), then on the others (the sleeper's sched_waking
 * is recorded on its waker's CPU).  When no event is exactly at A (A was
 * derived from the latency), the demo CPU's first event after A. */
static gboolean
find_event_at_a (CsDocument          *document,
                 const CsDemoMarkers *markers,
                 CsEvent             *event,
                 GError             **error)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  guint n_cpus = cs_document_get_n_cpus (document);

  for (guint i = 0; i <= n_cpus; i++)
    {
      guint cpu = i == 0 ? markers->cpu : i - 1;

      if (cpu >= n_cpus || (i > 0 && cpu == markers->cpu))
        continue;
      if (!cs_document_get_events (document, cpu, markers->a_ns, markers->a_ns + 1, 1, events, error))
        return FALSE;
      if (events->len > 0)
        {
          *event = g_array_index (events, CsEvent, 0);
          return TRUE;
        }
    }
  if (markers->cpu < n_cpus &&
      !cs_document_get_events (document, markers->cpu, markers->a_ns, markers->b_ns, 1, events, error))
    return FALSE;
  if (events->len == 0)
    return FALSE;
  *event = g_array_index (events, CsEvent, 0);
  return TRUE;
}

typedef struct {
  CsWindow *window;    /* weak */
  CsEventList *list;   /* weak: the list the event is in */
  CsEvent event;
  int last_height_px;
  char *preset;        /* the latency page's, shown after the selection */
} PendingSelect;

static void
pending_select_free (gpointer data)
{
  PendingSelect *select = data;

  g_clear_weak_pointer (&select->window);
  g_clear_weak_pointer (&select->list);
  g_free (select->preset);
  g_free (select);
}

/* Selects the event once the list can show it: its rows counted (a filter
 * kept from the last recording makes it count first) and laid out at the
 * height it keeps.  The window gives the timeline its share of the paned
 * on its first frames, and GTK 4.8's list view, scrolled before that,
 * leaves the selected row out of sight and rows blank. */
static gboolean
select_tick_cb (GtkWidget     *view,
                GdkFrameClock *clock,
                gpointer       data)
{
  PendingSelect *select = data;
  int height_px = gtk_widget_get_height (view);

  if (select->window == NULL || select->list == NULL ||
      cs_event_list_view_get_model (CS_EVENT_LIST_VIEW (view)) != select->list)
    return G_SOURCE_REMOVE;
  if (!cs_event_list_get_ready (select->list) || height_px <= 0 ||
      height_px != select->last_height_px)
    {
      select->last_height_px = height_px;
      return G_SOURCE_CONTINUE;
    }
  cs_window_select_event (select->window, &select->event);
  /* The list must be in front to lay out and select its row; then the
   * Latency page takes the front. */
  show_latency_page (select->window, select->preset);
  return G_SOURCE_REMOVE;
}

static void
select_event_at_a (CsWindow *window, CsDocument *document, const CsDemoMarkers *markers,
                   const char *preset)
{
  CsEventListView *view = cs_window_get_event_list_view (window);
  CsEventList *list = cs_event_list_view_get_model (view);
  g_autoptr(GError) error = NULL;
  PendingSelect *select;
  CsEvent event;

  if (list == NULL || !find_event_at_a (document, markers, &event, &error))
    {
      if (error != NULL)
        g_message ("Cannot find the event at marker A: %s", error->message);
      show_latency_page (window, preset);
      return;
    }
  select = g_new0 (PendingSelect, 1);
  g_set_weak_pointer (&select->window, window);
  g_set_weak_pointer (&select->list, list);
  select->event = event;
  select->last_height_px = -1;
  select->preset = g_strdup (preset);
  gtk_widget_add_tick_callback (GTK_WIDGET (view), select_tick_cb, select, pending_select_free);
}

/**
 * cs_window_demo_apply:
 * @window: a window showing a demo's recording
 * @scenario: the demo that made it
 * @error: return location for a %CS_DEMO_ERROR or %CS_INDEX_ERROR
 *
 * Places markers A and B around the latency @scenario injected (see
 * cs_demo_find_markers()), B active, zooms to them with half their
 * distance on each side, adds a task plot for the delayed task, and
 * selects the event at A in the event list, scrolled into view (once the
 * list is ready, when a filter makes it count its rows first); the
 * markers stay where they are, whatever Graph follows says.  Then shows
 * the Latency page with the scenario's preset (CsDemoScenario.latency_preset)
 * run: its worst pair is the injected latency.
 *
 * Returns: whether the markers were found
 */
gboolean
cs_window_demo_apply (CsWindow    *window,
                      const char  *scenario,
                      GError     **error)
{
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  CsTimeline *timeline = cs_window_get_timeline (window);
  const CsDemoScenario *scenario_info;
  g_autoptr(CsPluginDocument) plugins = NULL;
  CsPlugin *kmod;
  CsDemoMarkers markers;
  gint64 pad_ns;

  g_return_val_if_fail (CS_IS_WINDOW (window), FALSE);

  if (document == NULL)
    {
      g_set_error_literal (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND,
                           _("The window shows no recording"));
      return FALSE;
    }
  /* The kmod plugin's pass, even when the user switched the plugin off:
   * its results only feed the markers.  It runs here, in this thread, when
   * the cache lacks it: it reads only the module's few events (as the
   * pairing the window did before it moved into the plugin), while a
   * worker would need a nested main loop in this handler. */
  plugins = cs_plugin_host_open_results (document, FALSE);
  kmod = cs_plugin_registry_lookup (cs_plugin_host_get_registry (cs_plugin_host_get_default ()),
                                    CS_DEMO_KMOD_PLUGIN);
  if (!cs_demo_find_markers (plugins, kmod, scenario, &markers, error))
    return FALSE;

  if (markers.pid > 0 && !cs_analysis_has_task_plot (analysis, markers.pid))
    cs_analysis_add_task_plot (analysis, markers.pid);
  pad_ns = MAX ((markers.b_ns - markers.a_ns) / 2, 1000000);
  cs_timeline_set_span (timeline, markers.a_ns - pad_ns, markers.b_ns + pad_ns);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, markers.a_ns);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, markers.b_ns);
  cs_timeline_set_active_marker (timeline, CS_MARKER_B);
  scenario_info = cs_demo_lookup (scenario);
  select_event_at_a (window, document, &markers,
                     scenario_info != NULL ? scenario_info->latency_preset : NULL);
  g_object_set_data (G_OBJECT (window), DEMO_ERROR_KEY, NULL);
  return TRUE;
}

static void
document_changed_cb (CsAnalysis *analysis, Pending *pending)
{
  CsWindow *window = pending->window;
  GFile *shown = window != NULL ? cs_window_get_file (window) : NULL;
  g_autoptr(GError) error = NULL;

  if (shown != NULL && cs_analysis_get_document (analysis) != NULL &&
      g_file_equal (shown, pending->file) &&
      !cs_window_demo_apply (window, pending->scenario, &error))
    show_error (window, pending->scenario, error);
  /* Once: whatever the window opened, the demo is done. */
  g_signal_handler_disconnect (analysis, pending->handler_id);
}

/**
 * cs_window_open_demo:
 * @window: the window to show the recording in
 * @file: a recording made by a classroom demo
 * @scenario: the demo that made it (cs_demo_lookup())
 *
 * Opens @file in @window (cs_window_open_file()) and, once it is shown,
 * calls cs_window_demo_apply().  When the markers cannot be found, a
 * warning dialog says why and cs_window_demo_get_error() returns it.
 */
void
cs_window_open_demo (CsWindow   *window,
                     GFile      *file,
                     const char *scenario)
{
  CsAnalysis *analysis;
  Pending *pending;

  g_return_if_fail (CS_IS_WINDOW (window));
  g_return_if_fail (G_IS_FILE (file));

  analysis = cs_window_get_analysis (window);
  pending = g_new0 (Pending, 1);
  g_set_weak_pointer (&pending->window, window);
  pending->file = g_object_ref (file);
  pending->scenario = g_strdup (scenario);
  pending->handler_id = g_signal_connect_data (analysis, "document-changed",
                                               G_CALLBACK (document_changed_cb), pending,
                                               pending_free, 0);
  cs_window_open_file (window, file);
}

/**
 * cs_window_demo_get_error:
 * @window: a window
 *
 * Returns: (nullable) (transfer none): why the last demo recording opened
 *   in @window got no markers, or %NULL
 */
const char *
cs_window_demo_get_error (CsWindow *window)
{
  g_return_val_if_fail (CS_IS_WINDOW (window), NULL);
  return g_object_get_data (G_OBJECT (window), DEMO_ERROR_KEY);
}

static void
demo_finished_cb (CsWindow     *window,
                  GFile        *file,
                  const char   *scenario,
                  CsDemoDialog *dialog)
{
  cs_window_open_demo (window, file, scenario);
}

static GtkWindow *
new_demo_dialog (CsWindow *window)
{
  GtkWindow *dialog = GTK_WINDOW (cs_demo_dialog_new (GTK_WINDOW (window)));

  g_signal_connect_object (dialog, "finished", G_CALLBACK (demo_finished_cb), window,
                           G_CONNECT_SWAPPED);
  return dialog;
}

/**
 * _cs_window_demo_action:
 * @action: win.demo
 * @parameter: unused
 * @user_data: the #CsWindow
 *
 * win.demo: the Classroom Demos dialog, one per window (like the window's
 * other dialogs, see _cs_window_actions_show_dialog()); a demo's
 * recording opens here with markers A and B around its latency.
 */
void
_cs_window_demo_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  _cs_window_actions_show_dialog (CS_WINDOW (user_data), "demo", new_demo_dialog);
}
