/* cs-window-actions.c: the window's actions on plots, filters and sessions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Window actions ("win.", in the window's GActionMap) that the context
 * menus of the timeline and the event list, the header bar, the menus and
 * keyboard shortcuts share; each changes the window's CsAnalysis:
 *
 *   win.add-task-plot(i pid)        win.remove-task-plot(i pid)
 *   win.add-cpu-plot(u cpu)         win.remove-cpu-plot(u cpu)
 *   win.filter-task-only(i pid)     win.filter-task-hide(i pid)
 *   win.filter-event-only(u type)   win.filter-event-hide(u type)
 *   win.filter-cpu-only(u cpu)      win.filter-cpu-hide(u cpu)
 *   win.filter-clear
 *   win.show-tasks                  the task list (Ctrl+T)
 *   win.show-filters                the filter dialog (Ctrl+F is search)
 *   win.show-stats                  statistics of A..B or the visible span
 *   win.save-session                Save Session… (Ctrl+S)
 *   win.open-session                Open Session…
 *   win.export                      Export… the view as PNG, SVG or PDF (Ctrl+E)
 *
 * They are enabled while the window shows a recording (open-session
 * always).  The dialogs they open are kept one per window.  When plots are
 * added, the timeline grows and scrolls so that the new ones show.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-export-dialog.h"
#include "cs-filter-dialog.h"
#include "cs-stats-window.h"
#include "cs-session.h"
#include "cs-task-list.h"
#include "cs-window-actions.h"
#include "cs-window-private.h"

static CsAnalysis *
get_analysis (gpointer window)
{
  return cs_window_get_analysis (CS_WINDOW (window));
}

static void
add_task_plot_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  cs_analysis_add_task_plot (get_analysis (window), g_variant_get_int32 (parameter));
}

static void
remove_task_plot_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  cs_analysis_remove_task_plot (get_analysis (window), g_variant_get_int32 (parameter));
}

static void
add_cpu_plot_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  CsDocument *document = cs_analysis_get_document (get_analysis (window));
  guint cpu = g_variant_get_uint32 (parameter);

  if (document != NULL && cpu < cs_document_get_n_cpus (document))
    cs_analysis_add_cpu_plot (get_analysis (window), cpu);
}

static void
remove_cpu_plot_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  cs_analysis_remove_cpu_plot (get_analysis (window), g_variant_get_uint32 (parameter));
}

static void
filter_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  const char *name = g_action_get_name (G_ACTION (action));
  CsAnalysis *analysis = get_analysis (window);
  CsFilterField field;
  gint64 value;

  if (g_str_has_prefix (name, "filter-task-"))
    {
      field = CS_FILTER_PID;
      value = g_variant_get_int32 (parameter);
    }
  else if (g_str_has_prefix (name, "filter-event-"))
    {
      field = CS_FILTER_TYPE;
      value = g_variant_get_uint32 (parameter);
    }
  else
    {
      field = CS_FILTER_CPU;
      value = g_variant_get_uint32 (parameter);
    }

  if (g_str_has_suffix (name, "-only"))
    cs_analysis_filter_show_only (analysis, field, value);
  else
    cs_analysis_filter_hide (analysis, field, value);
}

/* The stream dimension of the filter (windows of several recordings):
 * show only this recording, or hide it too. */
static void
filter_stream_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  CsAnalysis *analysis = get_analysis (window);
  g_autoptr(CsEventFilter) filter = cs_event_filter_copy (cs_analysis_get_filter (analysis));
  gboolean only = g_str_has_suffix (g_action_get_name (G_ACTION (action)), "-only");

  if (only || cs_event_filter_get_stream_mode (filter) != CS_FILTER_HIDE)
    cs_event_filter_clear_streams (filter);
  cs_event_filter_set_stream_mode (filter, only ? CS_FILTER_SHOW_ONLY : CS_FILTER_HIDE);
  cs_event_filter_add_stream (filter, g_variant_get_string (parameter, NULL));
  cs_analysis_set_filter (analysis, filter);
}

static void
filter_clear_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  cs_analysis_set_filter (get_analysis (window), NULL);
}

/* Dialogs, one of each per window ----------------------------------------- */

/**
 * _cs_window_actions_get_dialog:
 * @window: a #CsWindow
 * @name: "tasks", "filters" or "export"
 *
 * Returns: (transfer none) (nullable): the dialog of that name @window has
 *   open, for tests
 */
GtkWindow *
_cs_window_actions_get_dialog (CsWindow   *window,
                               const char *name)
{
  g_autofree char *key = g_strconcat ("cs-dialog-", name, NULL);

  return g_object_get_data (G_OBJECT (window), key);
}

static void
dialog_destroyed_cb (GtkWindow *dialog, CsWindow *window)
{
  const char *key = g_object_get_data (G_OBJECT (dialog), "cs-dialog-key");

  if (g_object_get_data (G_OBJECT (window), key) == dialog)
    g_object_set_data (G_OBJECT (window), key, NULL);
}

/**
 * _cs_window_actions_show_dialog:
 * @window: a #CsWindow
 * @name: the dialog's name, for _cs_window_actions_get_dialog()
 * @create: makes the dialog when @window has none of that name open
 *
 * Presents @window's dialog called @name, made by @create the first time
 * and again after it was closed: one of each per window.
 *
 * Returns: (transfer none): the dialog
 */
GtkWindow *
_cs_window_actions_show_dialog (CsWindow              *window,
                                const char            *name,
                                CsWindowDialogFactory  create)
{
  g_autofree char *key = g_strconcat ("cs-dialog-", name, NULL);
  GtkWindow *dialog = g_object_get_data (G_OBJECT (window), key);

  if (dialog == NULL)
    {
      dialog = create (window);
      g_object_set_data_full (G_OBJECT (dialog), "cs-dialog-key", g_strdup (key), g_free);
      g_object_set_data (G_OBJECT (window), key, dialog);
      g_signal_connect_object (dialog, "destroy", G_CALLBACK (dialog_destroyed_cb), window, 0);
    }
  gtk_window_present (dialog);
  return dialog;
}

static GtkWindow *
new_task_list (CsWindow *window)
{
  return GTK_WINDOW (cs_task_list_new (GTK_WINDOW (window), get_analysis (window)));
}

static GtkWindow *
new_filter_dialog (CsWindow *window)
{
  return GTK_WINDOW (cs_filter_dialog_new (GTK_WINDOW (window), get_analysis (window)));
}

static GtkWindow *
new_stats_window (CsWindow *window)
{
  return GTK_WINDOW (cs_stats_window_new (GTK_WINDOW (window), get_analysis (window)));
}

static void
show_tasks_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  _cs_window_actions_show_dialog (window, "tasks", new_task_list);
}

static void
show_filters_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  _cs_window_actions_show_dialog (window, "filters", new_filter_dialog);
}

static void
show_stats_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  _cs_window_actions_show_dialog (window, "stats", new_stats_window);
}

/* Sessions ------------------------------------------------------------------ */

static void
show_message (CsWindow *window, const char *title, const char *detail)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (window),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", title);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static GtkFileFilter *
session_file_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Chronoscope sessions (*.json)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  return filter;
}

static void
save_response_cb (GtkNativeDialog *chooser, int response, CsWindow *window)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(CsSession) session = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);

  if (file == NULL || (path = g_file_get_path (file)) == NULL)
    return;
  session = cs_session_capture (cs_window_get_model (window));
  if (session != NULL && !cs_session_save (session, path, &error))
    show_message (window, _("Could not save the session"), error->message);
  else if (session != NULL)
    {
      g_autofree char *basename = g_file_get_basename (file);
      /* TRANSLATORS: a toast; %s is the session file's name */
      g_autofree char *title = g_strdup_printf (_("Session saved as “%s”"), basename);

      cs_window_show_toast (window, title);
    }
}

static void
save_session_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = session_file_filter ();
  GFile *recording = cs_window_get_file (window);
  g_autofree char *basename = recording != NULL ? g_file_get_basename (recording) : NULL;
  g_autofree char *name = NULL;

  chooser = gtk_file_chooser_native_new (_("Save Session"), GTK_WINDOW (window),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  if (basename != NULL)
    {
      char *dot = strrchr (basename, '.');

      if (dot != NULL)
        *dot = '\0';
      /* TRANSLATORS: the proposed name of a session file; %s is the recording's name */
      name = g_strdup_printf (_("%s-session.json"), basename);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  if (recording != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (recording);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_response_cb (GtkNativeDialog *chooser, int response, CsWindow *window)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);

  if (file == NULL || (path = g_file_get_path (file)) == NULL)
    return;
  if (!cs_window_open_session (window, path, &error))
    show_message (window, _("Could not open the session"), error->message);
}

static void
open_session_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  GtkFileChooserNative *chooser;
  GtkFileFilter *filter = session_file_filter ();

  chooser = gtk_file_chooser_native_new (_("Open Session"), GTK_WINDOW (window),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_unref (filter);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static GtkWindow *
new_export_dialog (CsWindow *window)
{
  return cs_export_dialog_new (GTK_WINDOW (window), cs_window_get_timeline (window));
}

static void
export_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  _cs_window_actions_show_dialog (window, "export", new_export_dialog);
}

static const GActionEntry entries[] = {
  { "add-task-plot", add_task_plot_action, "i" },
  { "remove-task-plot", remove_task_plot_action, "i" },
  { "add-cpu-plot", add_cpu_plot_action, "u" },
  { "remove-cpu-plot", remove_cpu_plot_action, "u" },
  { "filter-task-only", filter_action, "i" },
  { "filter-task-hide", filter_action, "i" },
  { "filter-event-only", filter_action, "u" },
  { "filter-event-hide", filter_action, "u" },
  { "filter-cpu-only", filter_action, "u" },
  { "filter-cpu-hide", filter_action, "u" },
  { "filter-stream-only", filter_stream_action, "s" },
  { "filter-stream-hide", filter_stream_action, "s" },
  { "filter-clear", filter_clear_action },
  { "show-tasks", show_tasks_action },
  { "show-filters", show_filters_action },
  { "show-stats", show_stats_action },
  { "save-session", save_session_action },
  { "open-session", open_session_action },
  { "export", export_action },
};

/* Plots added ------------------------------------------------------------- */

/* After a plot is added below the others, the timeline grows (up to 60 %
 * of the split with the event list) and scrolls to the bottom, so that the
 * new plot is seen rather than hidden under the list. */
static gboolean
scroll_to_new_plot_cb (GtkWidget *timeline, GdkFrameClock *clock, gpointer data)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (timeline, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  int natural = 0;

  if (scrolled == NULL)
    return G_SOURCE_REMOVE;
  gtk_widget_measure (timeline, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  if (gtk_adjustment_get_upper (adjustment) < natural)
    return G_SOURCE_CONTINUE;  /* not laid out at the new height yet */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) -
                                        gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

static void
plots_changed_cb (CsWindow *window)
{
  CsAnalysis *analysis = get_analysis (window);
  GtkWidget *timeline = GTK_WIDGET (cs_window_get_timeline (window));
  GtkPaned *paned = GTK_PANED (gtk_widget_get_ancestor (timeline, GTK_TYPE_PANED));
  guint n_cpus, n_pids, n_plots, last;
  int natural = 0, height;

  cs_analysis_get_cpu_plots (analysis, &n_cpus);
  cs_analysis_get_task_plots (analysis, &n_pids);
  n_plots = n_cpus + n_pids;
  last = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (window), "cs-n-plots"));
  g_object_set_data (G_OBJECT (window), "cs-n-plots", GUINT_TO_POINTER (n_plots));
  if (n_plots <= last || last == 0 || paned == NULL || !gtk_widget_get_mapped (timeline))
    return;

  gtk_widget_measure (timeline, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  height = gtk_widget_get_height (GTK_WIDGET (paned));
  if (gtk_paned_get_position (paned) < MIN (natural + 2, height * 6 / 10))
    gtk_paned_set_position (paned, MIN (natural + 2, height * 6 / 10));
  if (n_pids > 0)
    gtk_widget_add_tick_callback (timeline, scroll_to_new_plot_cb, NULL, NULL);
}

static void
document_changed_cb (CsWindow *window)
{
  guint n_cpus, n_pids;

  cs_analysis_get_cpu_plots (get_analysis (window), &n_cpus);
  cs_analysis_get_task_plots (get_analysis (window), &n_pids);
  g_object_set_data (G_OBJECT (window), "cs-n-plots", GUINT_TO_POINTER (n_cpus + n_pids));
  _cs_window_actions_update (window);
}

/**
 * _cs_window_actions_update:
 * @window: a #CsWindow
 *
 * Enables the actions that need a recording when the window shows one.
 */
void
_cs_window_actions_update (CsWindow *window)
{
  gboolean ready = cs_analysis_get_document (get_analysis (window)) != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), entries[i].name);

      if (G_IS_SIMPLE_ACTION (action) && !g_str_equal (entries[i].name, "open-session"))
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), ready);
    }
}

/**
 * _cs_window_actions_init:
 * @window: a #CsWindow, with its #CsAnalysis
 *
 * Adds the actions to @window's action map and follows its recording.
 */
void
_cs_window_actions_init (CsWindow *window)
{
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, G_N_ELEMENTS (entries), window);
  g_signal_connect_object (cs_window_get_analysis (window), "document-changed",
                           G_CALLBACK (document_changed_cb), window, G_CONNECT_SWAPPED);
  g_signal_connect_object (cs_window_get_analysis (window), "plots-changed",
                           G_CALLBACK (plots_changed_cb), window, G_CONNECT_SWAPPED);
  _cs_window_actions_update (window);
}
