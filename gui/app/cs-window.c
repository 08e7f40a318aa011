/* cs-window.c: the main window: one recording, its CPU plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An AdwApplicationWindow with three pages: the status page (Open, Record,
 * Classroom Demos and the recent recordings), indexing progress with
 * Cancel, and the timeline with an info bar that shows what lies under the
 * pointer; toasts (cs_window_show_toast()) tell what happened.  The
 * AdwApplication loads style.css.  Errors
 * (a file that is not a recording, a truncated one, a crashed indexer) appear
 * in a banner at the top that names the file, while the window goes back to
 * what it showed before.  The window keeps no recording state of its own
 * beyond the CsDocument; what it shows (span, markers, selection, plots,
 * filter, query text and history, plugin rows) is its CsViewModel's,
 * bound to the widgets in cs-window-session.c.  Pages act on one another
 * through the window's actions, never through its getters:
 *
 *   win.show-time (x ns)        scroll the timeline to a time
 *   win.show-span ((xx) ns)     zoom to a span, with room around it
 *   win.select-event (CS_EVENT_VARIANT_TYPE)  select an event in the list
 *   win.show-toast (s)          tell what was done
 *
 * (the context menu's and the menus' actions: cs-window-actions.c).
 * Opening a file (the index job, the chooser, drops, recent files) is in
 * cs-window-open.c; the instance structure in cs-window-private.h.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-event-list-view.h"
#include "cs-analysis.h"
#include "cs-compare.h"
#include "cs-query-page.h"
#include "cs-cpu-chooser.h"
#include "cs-filter-bar.h"
#include "cs-format.h"
#include "cs-record-panel.h"
#include "cs-window-demo.h"
#include "cs-window-live.h"
#include "cs-session.h"
#include "cs-window-actions.h"
#include "cs-window.h"
#include "cs-window-open.h"
#include "cs-window-private.h"
#include "cs-window-streams.h"
#include "cs-window-plugins.h"
#include "cs-window-settings.h"
#include "cs-plugins-dialog.h"
#include "cs-recent-list.h"

G_DEFINE_ENUM_TYPE (CsWindowState, cs_window_state,
                    G_DEFINE_ENUM_VALUE (CS_WINDOW_STATE_EMPTY, "empty"),
                    G_DEFINE_ENUM_VALUE (CS_WINDOW_STATE_LOADING, "loading"),
                    G_DEFINE_ENUM_VALUE (CS_WINDOW_STATE_READY, "ready"))

G_DEFINE_FINAL_TYPE (CsWindow, cs_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_STATE,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------ */
/* State                                                                     */

/* Also for cs-window-open.c. */
void
_cs_window_set_state (CsWindow      *self,
                      CsWindowState  state)
{
  static const char * const pages[] = { "empty", "loading", "timeline" };
  /* While the recording shown live opens, its last picture stays, with
   * the progress in the info bar. */
  gboolean live_opening = state == CS_WINDOW_STATE_LOADING && self->live.live && self->document != NULL;
  gboolean shown = state == CS_WINDOW_STATE_READY || live_opening;

  gtk_stack_set_visible_child_name (self->stack, live_opening ? "timeline" : pages[state]);
  gtk_widget_set_visible (self->opening_box, live_opening);
  gtk_widget_set_visible (self->zoom_box, shown);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.zoom-in", shown);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.zoom-out", shown);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.zoom-fit", shown);

  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
_cs_window_hide_error (CsWindow *self)
{
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  if (self->error_message != NULL)
    {
      g_clear_pointer (&self->error_message, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
    }
}

void
_cs_window_show_error (CsWindow     *self,
                       GFile        *file,
                       const GError *error)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf (_("Could not open “%s”"), basename);

  gtk_label_set_label (self->error_title_label, title);
  gtk_label_set_label (self->error_label, error->message);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);

  g_free (self->error_message);
  self->error_message = g_strdup_printf ("%s: %s", title, error->message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
dismiss_error_cb (CsWindow *self)
{
  _cs_window_hide_error (self);
}

static void
cs_window_update_titles (CsWindow *self)
{
  g_autofree char *basename = NULL;
  g_autofree char *window_title = NULL;
  g_autofree char *cpus = NULL;
  g_autofree char *events = NULL;
  g_autofree char *count = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *subtitle = NULL;
  guint n_cpus;
  guint64 n_events;

  if (self->document == NULL)
    {
      gtk_label_set_label (self->title_label, _("Chronoscope"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Chronoscope"));
      return;
    }

  basename = _cs_window_live_dup_title (self);
  if (basename == NULL)
    basename = g_file_get_basename (self->file);
  n_cpus = cs_document_get_n_cpus (self->document);
  n_events = cs_document_get_n_events (self->document);
  count = cs_format_count (n_events);
  duration = cs_format_duration (cs_document_get_last_ns (self->document) -
                                 cs_document_get_first_ns (self->document));
  cpus = g_strdup_printf (ngettext ("%u CPU", "%u CPUs", n_cpus), n_cpus);
  events = g_strdup_printf (ngettext ("%s event", "%s events", (gulong) n_events), count);
  /* Trace text says what it was (issue 14); a trace.dat needs no word. */
  if (g_strcmp0 (cs_document_get_source_format (self->document), "trace.dat") != 0)
    /* TRANSLATORS: "ftrace text (trace_pipe) · 4 CPUs · 1,154 events · 1.37 s" */
    subtitle = g_strdup_printf (_("%s · %s · %s · %s"), cs_document_get_source_format (self->document),
                                cpus, events, duration);
  else
    /* TRANSLATORS: "4 CPUs · 1,154 events · 1.37 s" */
    subtitle = g_strdup_printf (_("%s · %s · %s"), cpus, events, duration);
  /* TRANSLATORS: the window title, "trace.dat — Chronoscope" */
  window_title = g_strdup_printf (_("%s — Chronoscope"), basename);

  gtk_label_set_label (self->title_label, basename);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

static void
hover_text_changed_cb (CsWindow *self)
{
  const char *text = cs_timeline_get_hover_text (self->timeline);

  if (*text != '\0')
    {
      gtk_label_set_label (self->hover_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->hover_label), "dim-label");
    }
  else
    {
      gtk_label_set_label (self->hover_label,
                           _("Drag to zoom into a range · Ctrl+scroll to zoom · Shift+drag to move · 0 to fit"));
      gtk_widget_add_css_class (GTK_WIDGET (self->hover_label), "dim-label");
    }
}

static void
span_changed_cb (CsWindow *self)
{
  g_autofree char *span = NULL;
  g_autofree char *total = NULL;
  g_autofree char *text = NULL;
  gint64 span_ns = cs_timeline_get_end_ns (self->timeline) - cs_timeline_get_begin_ns (self->timeline);

  if (self->document == NULL)
    {
      gtk_label_set_label (self->span_label, "");
      return;
    }

  span = cs_format_duration (span_ns);
  {
    gint64 first_ns = cs_document_get_first_ns (self->document);
    gint64 last_ns = cs_document_get_last_ns (self->document);
    CsStreamSet *streams = cs_window_get_streams (self);

    /* with several recordings: all of them on the axis */
    if (streams != NULL && cs_stream_set_get_n_streams (streams) > 1)
      cs_stream_set_get_span (streams, &first_ns, &last_ns);
    total = cs_format_duration (last_ns - first_ns + 1);
  }
  /* TRANSLATORS: "Showing 12.3 ms of 1.37 s" */
  text = g_strdup_printf (_("Showing %s of %s"), span, total);
  gtk_label_set_label (self->span_label, text);
}

static void
markers_changed_cb (CsWindow *self)
{
  gint64 a_ns = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_A);
  gint64 b_ns = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_B);
  g_autofree char *markup = NULL;

  if (self->plugins != NULL)
    cs_plugin_window_range_changed (self->plugins);
  if (a_ns == CS_MARKER_UNSET && b_ns == CS_MARKER_UNSET)
    {
      gtk_label_set_label (self->marker_label, _("Click: marker A · double-click: B"));
      gtk_widget_add_css_class (GTK_WIDGET (self->marker_label), "dim-label");
      return;
    }

  markup = cs_marker_describe_markup (a_ns, b_ns, cs_timeline_get_active_marker (self->timeline));
  gtk_label_set_markup (self->marker_label, markup);
  gtk_widget_remove_css_class (GTK_WIDGET (self->marker_label), "dim-label");
}

/* Graph follows: the selected event becomes the active marker, in view. */
static void
list_selection_changed_cb (CsWindow *self)
{
  CsEventItem *item = cs_event_list_view_get_selected_item (self->event_list_view);
  gint64 time_ns;

  /* Whoever selected it (the list, a search, the latency page, the
   * timeline), assistive technology hears of it on the timeline. */
  if (item != NULL && cs_event_item_get_document (item) == self->document)
    cs_timeline_set_selected_event (self->timeline, cs_event_item_get_event (item));

  /* A row selected by cs_window_select_event(): an event clicked on the
   * timeline, whose click placed the marker already (marker B, for a
   * double-click), or a demo's event at marker A. */
  if (item == NULL || self->selecting_clicked_event ||
      !cs_event_list_view_get_graph_follows (self->event_list_view))
    return;

  /* on the timeline's axis: in a list of several recordings, where the
   * event's stream draws it */
  time_ns = cs_event_item_get_time_ns (item);
  cs_timeline_set_marker_ns (self->timeline, cs_timeline_get_active_marker (self->timeline), time_ns);
  cs_timeline_show_time (self->timeline, time_ns);
  _cs_window_streams_show (self, cs_event_item_get_stream (item));
}

static void
timeline_event_clicked_cb (CsWindow   *self,
                           gpointer    event,
                           CsTimeline *timeline)
{
  cs_window_select_event (self, event);
}

/* The timeline gets the room its plots need, up to 60 %; the list the
 * rest.  Once, when the paned first has a height: after that the
 * user's split stays. */
static gboolean
split_paned_cb (GtkWidget     *paned,
                GdkFrameClock *frame_clock,
                gpointer       user_data)
{
  CsWindow *self = CS_WINDOW (user_data);
  int height = gtk_widget_get_height (paned);
  int natural = 0;

  if (height <= 0)
    return G_SOURCE_CONTINUE;

  gtk_widget_measure (GTK_WIDGET (self->timeline), GTK_ORIENTATION_VERTICAL, -1,
                      NULL, &natural, NULL, NULL);
  gtk_paned_set_position (self->paned, MIN (natural + 2, height * 6 / 10));
  return G_SOURCE_REMOVE;
}

static void
cs_window_split_paned (CsWindow *self)
{
  gboolean position_set = FALSE;

  g_object_get (self->paned, "position-set", &position_set, NULL);
  if (!position_set)
    gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), split_paned_cb, self, NULL);
}

static void
cs_window_set_document (CsWindow   *self,
                        CsDocument *document,
                        GFile      *file)
{
  g_autoptr(CsEventList) events = NULL;

  g_set_object (&self->document, document);
  g_set_object (&self->file, file);
  g_object_set (self->model, "file", file, "document", document, NULL);

  cs_timeline_set_document (self->timeline, document);
  _cs_window_streams_reset (self);   /* its recording alone on the axis */
  if (document != NULL)
    events = cs_event_list_new (document, NULL);
  cs_event_list_view_set_model (self->event_list_view, events);
  markers_changed_cb (self);
  cs_window_update_titles (self);
  span_changed_cb (self);
  hover_text_changed_cb (self);
  _cs_window_set_state (self, document != NULL ? CS_WINDOW_STATE_READY : CS_WINDOW_STATE_EMPTY);
  /* Plots and filter for the new recording (after the timeline and the
   * list have it). */
  cs_analysis_document_changed (self->analysis);
  /* Plugin layers, rows and pages, after the plots they draw on. */
  cs_plugin_window_set_document (self->plugins, document);
  /* Plugins see the recording among the window's others (a KVM guest's
   * vCPUs as its host, once added, saw them). */
  cs_plugin_window_set_streams (self->plugins, cs_window_get_streams (self));
  cs_query_page_set_document (self->query_page, document);

  if (document != NULL)
    {
      cs_window_split_paned (self);
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

      /* A new recording takes the keyboard to its timeline.  A live picture
       * replacing the last one (or the written recording replacing the
       * live picture) leaves it where the user put it: in the list when
       * the row that had it went with the old rows. */
      if (!(self->live.live || self->live.keep_list))
        gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
      else if (focus == NULL)
        gtk_widget_grab_focus (GTK_WIDGET (cs_event_list_view_get_column_view (self->event_list_view)));
    }
}

/* For cs-window-live.c. */
void
_cs_window_set_document (CsWindow   *self,
                         CsDocument *document,
                         GFile      *file)
{
  cs_window_set_document (self, document, file);
}

CsWindowLive *
_cs_window_get_live (CsWindow *self)
{
  return &self->live;
}

/* Cancel on the loading page (cs-window-open.c). */
static void
cancel_clicked_cb (CsWindow *self)
{
  cs_window_cancel (self);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */

static void
view_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CsWindow *self = CS_WINDOW (widget);
  g_autofree char *timeline_action = NULL;

  /* "view.zoom-in" → "timeline.zoom-in": the header bar is outside the
   * timeline, so its buttons reach the timeline's actions through ours. */
  timeline_action = g_strconcat ("timeline.", action_name + strlen ("view."), NULL);
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), timeline_action, NULL);
}

/* win.record: one record panel per window; what it records shows here
 * while it records, and opens here when written. */
static void
record_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  CsWindow *self = user_data;
  CsRecordPanel *panel = cs_record_panel_get_for (GTK_WINDOW (self));

  if (panel == NULL)
    {
      panel = cs_record_panel_new (GTK_WINDOW (self));
      g_signal_connect_object (panel, "recorded", G_CALLBACK (cs_window_open_file), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (panel, "live-document", G_CALLBACK (cs_window_show_live_document),
                               self, G_CONNECT_SWAPPED);
    }
  gtk_window_present (GTK_WINDOW (panel));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static gboolean
cs_window_close_request (GtkWindow *window)
{
  CsWindow *self = CS_WINDOW (window);
  g_autoptr(GError) error = NULL;

  _cs_window_settings_save_size (GTK_WINDOW (self), self->settings);
  cs_window_cancel (self);
  if (!cs_window_save_last_session (self, &error))
    g_message ("Could not save the last session: %s", error->message);

  return GTK_WINDOW_CLASS (cs_window_parent_class)->close_request (window);
}

static void
cs_window_dispose (GObject *object)
{
  CsWindow *self = CS_WINDOW (object);

  cs_window_cancel (self);
  _cs_window_live_dispose (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job);
  /* A running pass holds a reference: stop it and its widgets now. */
  if (self->plugins != NULL)
    g_object_run_dispose (G_OBJECT (self->plugins));
  g_clear_object (&self->plugins);
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  g_clear_object (&self->model);
  g_clear_object (&self->analysis);

  /* GTK 4.8's notebook asks its root for the focus as each page goes
   * (gtk_window_get_focus()); left to the window's own teardown, the
   * pages went once the window was no longer their root, a critical when
   * the focus had been in them.  They go now, while it still is. */
  while (self->list_notebook != NULL && gtk_notebook_get_n_pages (self->list_notebook) > 0)
    gtk_notebook_remove_page (self->list_notebook, -1);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_WINDOW);

  G_OBJECT_CLASS (cs_window_parent_class)->dispose (object);
}

static void
cs_window_finalize (GObject *object)
{
  CsWindow *self = CS_WINDOW (object);

  g_free (self->error_message);

  G_OBJECT_CLASS (cs_window_parent_class)->finalize (object);
}

static void
cs_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  CsWindow *self = CS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_window_class_init (CsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cs_window_dispose;
  object_class->finalize = cs_window_finalize;
  object_class->get_property = cs_window_get_property;
  window_class->close_request = cs_window_close_request;

  /**
   * CsWindow:state:
   *
   * Which page the window shows: empty, indexing, or a recording.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, CS_TYPE_WINDOW_STATE, CS_WINDOW_STATE_EMPTY,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsWindow:error-message:
   *
   * The error banner's text, naming the file and the problem; %NULL when
   * no error is shown.
   */
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CS_TYPE_TIMELINE);
  g_type_ensure (CS_TYPE_EVENT_LIST_VIEW);
  g_type_ensure (CS_TYPE_QUERY_PAGE);
  g_type_ensure (CS_TYPE_FILTER_BAR);
  g_type_ensure (CS_TYPE_RECENT_LIST);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CsWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, error_title_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, opening_box);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, opening_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, opening_bar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, event_list_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, list_notebook);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, query_page);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, hover_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, marker_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, span_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, analysis_box);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, cpu_button);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, toast_overlay);
  gtk_widget_class_bind_template_callback (widget_class, dismiss_error_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, hover_text_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, span_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, markers_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, timeline_event_clicked_cb);

  gtk_widget_class_install_action (widget_class, "view.zoom-in", NULL, view_action);
  gtk_widget_class_install_action (widget_class, "view.zoom-out", NULL, view_action);
  gtk_widget_class_install_action (widget_class, "view.zoom-fit", NULL, view_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "view.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "view.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "view.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "view.zoom-fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
plugins_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (cs_plugins_dialog_new (GTK_WINDOW (user_data))));
}

/* win.show-time (x, ns): the timeline scrolls to show that time. */
static void
show_time_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  CsWindow *self = window;

  cs_timeline_show_time (self->timeline, g_variant_get_int64 (parameter));
}

/* win.show-span ((xx) begin, end in ns): the timeline shows [begin, end)
 * with a tenth of its length of room on each side, through the view
 * model; an empty span (end <= begin) is shown as win.show-time shows a
 * time.  How a page (Latency, Function graph) goes to what it lists. */
static void
show_span_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  CsWindow *self = window;
  gint64 begin_ns, end_ns, margin;

  g_variant_get (parameter, "(xx)", &begin_ns, &end_ns);
  if (end_ns <= begin_ns)
    {
      cs_timeline_show_time (self->timeline, begin_ns);
      return;
    }
  margin = MAX ((end_ns - begin_ns) / 10, 1);
  cs_view_model_set_span (self->model, begin_ns - margin, end_ns + margin);
}

/* win.select-event (CS_EVENT_VARIANT_TYPE): the event list comes to the
 * front with that event selected, as a click on the timeline selects it.
 * How a page (Query, a plugin's) goes to an event it lists. */
static void
select_event_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  CsWindow *self = window;
  CsEvent event;
  int num = gtk_notebook_page_num (self->list_notebook, GTK_WIDGET (self->event_list_view));

  cs_event_from_variant (parameter, &event);
  if (num >= 0)
    gtk_notebook_set_current_page (self->list_notebook, num);
  cs_window_select_event (self, &event);
}

/* A plugin selects an event in the list (CsPluginWindow::select-event). */
static gboolean
plugin_select_event_cb (CsWindow      *self,
                        const CsEvent *event)
{
  return cs_window_select_event (self, event);
}

/* win.show-toast (s): a toast with that (translated) text; how a dialog
 * or page tells what it did (cs_window_show_toast()). */
static void
show_toast_action (GSimpleAction *action, GVariant *parameter, gpointer window)
{
  cs_window_show_toast (window, g_variant_get_string (parameter, NULL));
}

static void
cs_window_init (CsWindow *self)
{
  static const GActionEntry window_entries[] = {
    { "record", record_action },
    { "demo", _cs_window_demo_action },
    { "plugins", plugins_action },
    { "show-time", show_time_action, "x" },
    { "show-span", show_span_action, "(xx)" },
    { "select-event", select_event_action, CS_EVENT_VARIANT_TYPE },
    { "show-toast", show_toast_action, "s" },
  };
  gtk_widget_init_template (GTK_WIDGET (self));
  self->model = cs_view_model_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self), window_entries,
                                   G_N_ELEMENTS (window_entries), self);

  self->plugins = cs_plugin_window_new (GTK_WINDOW (self), self->timeline, self->event_list_view,
                                       self->model, self->list_notebook, self->info_bar);
  g_signal_connect_object (self->plugins, "select-event", G_CALLBACK (plugin_select_event_cb), self,
                           G_CONNECT_SWAPPED);

  /* Plots, filters and sessions: cs-analysis.c, cs-window-actions.c. */
  self->analysis = cs_analysis_new (self->timeline, self->event_list_view);
  cs_filter_bar_set_analysis (self->filter_bar, self->analysis);
  gtk_menu_button_set_popover (self->cpu_button, cs_cpu_chooser_new (self->analysis));
  g_object_bind_property (self->zoom_box, "visible", self->analysis_box, "visible", G_BINDING_SYNC_CREATE);
  _cs_window_bind_model (self);  /* what it shows: cs-window-session.c */
  _cs_window_actions_init (self);
  /* A second recording: cs-compare.c. */
  cs_compare_install (GTK_APPLICATION_WINDOW (self), self->timeline, self->model);

  _cs_window_open_init (self);
  _cs_window_streams_init (self);   /* added recordings: cs-window-streams.c */   /* drops, recent files: cs-window-open.c */

  self->settings = _cs_window_settings_lookup ();
  _cs_window_settings_restore_size (GTK_WINDOW (self), self->settings);
  if (self->settings != NULL)
    g_settings_bind (self->settings, "graph-follows", self->event_list_view, "graph-follows",
                     G_SETTINGS_BIND_DEFAULT);

  self->state = CS_WINDOW_STATE_EMPTY;
  _cs_window_set_state (self, CS_WINDOW_STATE_EMPTY);
  hover_text_changed_cb (self);
}

/**
 * cs_window_new:
 * @application: (nullable): the application
 *
 * Returns: (transfer full): a window showing the empty state
 */
CsWindow *
cs_window_new (GtkApplication *application)
{
  return g_object_new (CS_TYPE_WINDOW, "application", application, NULL);
}

/**
 * cs_window_get_state:
 * @self: a #CsWindow
 *
 * Returns: which page the window shows
 */
CsWindowState
cs_window_get_state (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), CS_WINDOW_STATE_EMPTY);

  return self->state;
}

/**
 * cs_window_get_error_message:
 * @self: a #CsWindow
 *
 * Returns: (nullable) (transfer none): the error shown, naming the file and
 *   the problem, or %NULL
 */
const char *
cs_window_get_error_message (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->error_message;
}

/**
 * cs_window_get_timeline:
 * @self: a #CsWindow
 *
 * Returns: (transfer none): the timeline widget
 */
CsTimeline *
cs_window_get_timeline (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->timeline;
}

/**
 * cs_window_get_event_list_view:
 * @self: a #CsWindow
 *
 * Returns: (transfer none): the event list under the timeline
 */
CsEventListView *
cs_window_get_event_list_view (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->event_list_view;
}

/**
 * cs_window_select_event:
 * @self: a #CsWindow
 * @event: an event of the recording shown
 *
 * Selects the row of @event in the event list and scrolls the list to it
 * (cs_event_list_view_select_event()), leaving the markers where they
 * are, as a click on the event in the timeline does: with Graph follows
 * on, selecting a row would otherwise move the active marker onto it.
 *
 * Returns: whether a row was selected (%FALSE while the list is counting
 *   the rows of a filter)
 */
gboolean
cs_window_select_event (CsWindow      *self,
                        const CsEvent *event)
{
  gboolean selected;

  g_return_val_if_fail (CS_IS_WINDOW (self), FALSE);

  self->selecting_clicked_event = TRUE;
  selected = cs_event_list_view_select_event (self->event_list_view, event);
  self->selecting_clicked_event = FALSE;
  return selected;
}

/**
 * cs_window_get_query_page:
 * @self: a #CsWindow
 *
 * Returns: (transfer none): the Query page, a tab beside the event list
 */
CsQueryPage *
cs_window_get_query_page (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return self->query_page;
}

/**
 * cs_window_get_analysis:
 * @self: a #CsWindow
 *
 * Returns: (transfer none): which plots and filter the window shows
 */
CsAnalysis *
cs_window_get_analysis (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->analysis;
}

/**
 * cs_window_get_file:
 * @self: a #CsWindow
 *
 * Returns: (transfer none) (nullable): the recording shown
 */
GFile *
cs_window_get_file (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->file;
}

/**
 * cs_window_get_plugins:
 * @self: a #CsWindow
 *
 * Returns: (transfer none): what plugins do in this window
 */
CsPluginWindow *
cs_window_get_plugins (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);

  return self->plugins;
}

/**
 * cs_window_show_toast:
 * @self: a #CsWindow
 * @title: what happened, one short sentence for people (translated)
 *
 * Shows @title in a toast at the bottom of the window for a few seconds:
 * for news nothing must be decided about (a file written, a session saved,
 * a plugin that could not run).  Errors that block what was asked stay in
 * dialogs or the error banner.
 */
void
cs_window_show_toast (CsWindow   *self,
                      const char *title)
{
  g_autofree char *escaped = NULL;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (title != NULL);

  /* libadwaita 1.2 reads a toast's title as Pango markup. */
  escaped = g_markup_escape_text (title, -1);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}
