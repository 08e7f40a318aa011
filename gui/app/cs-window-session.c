/* cs-window-session.c: the window's view model, bound to its widgets, and
 * its sessions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsWindow (cs-window-private.h).  The window's CsViewModel says
 * what it shows; here the timeline (span, markers), the plots and filter
 * (CsAnalysis), the event list's selection, the split and the window's
 * size follow the model and the
 * model follows them, both ways, as each notifies; the Query page's text
 * follows its editor's buffer.  The Query page's history and the plugin
 * rows have no notification yet: they are read into the model when it is
 * asked for (cs_window_get_model()).
 *
 * A session is captured from the model and restored into it
 * (cs-session.c); opening the session's recording first is the window's
 * part, below.
 */
#include "config.h"

#include "cs-plugin-host.h"
#include "cs-session.h"
#include "cs-window-private.h"

/* Timeline ↔ model --------------------------------------------------------- */

static void
timeline_span_cb (CsWindow *self)
{
  if (self->model == NULL || self->model_syncing)  /* disposing, or setting the widget */
    return;
  self->model_syncing = TRUE;
  cs_view_model_set_span (self->model, cs_timeline_get_begin_ns (self->timeline),
                          cs_timeline_get_end_ns (self->timeline));
  self->model_syncing = FALSE;
}

static void
model_span_cb (CsWindow *self)
{
  gint64 begin_ns = cs_view_model_get_begin_ns (self->model);
  gint64 end_ns = cs_view_model_get_end_ns (self->model);

  if (self->model_syncing || cs_timeline_get_document (self->timeline) == NULL || end_ns <= begin_ns)
    return;
  self->model_syncing = TRUE;
  cs_timeline_set_span (self->timeline, begin_ns, end_ns);
  self->model_syncing = FALSE;
  /* The timeline may have clamped it. */
  timeline_span_cb (self);
}

static void
timeline_active_marker_cb (CsWindow *self)
{
  if (self->model == NULL)  /* disposing */
    return;
  g_object_set (self->model, "active-marker", (guint) cs_timeline_get_active_marker (self->timeline), NULL);
}

static void
model_active_marker_cb (CsWindow *self)
{
  cs_timeline_set_active_marker (self->timeline,
                                 cs_view_model_get_active_marker (self->model) == CS_MARKER_B ? CS_MARKER_B
                                                                                            : CS_MARKER_A);
}

/* Analysis ↔ model --------------------------------------------------------- */

static void
plots_changed_cb (CsWindow *self)
{
  const guint *cpus;
  const gint32 *pids;
  guint n_cpus, n_pids;

  if (self->model == NULL || self->model_syncing)  /* disposing, or setting the widget */
    return;
  self->model_syncing = TRUE;
  cpus = cs_analysis_get_cpu_plots (self->analysis, &n_cpus);
  pids = cs_analysis_get_task_plots (self->analysis, &n_pids);
  g_object_set (self->model,
                "cpu-plots", g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, cpus, n_cpus, sizeof (guint32)),
                "task-plots", g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, pids, n_pids, sizeof (gint32)),
                NULL);
  self->model_syncing = FALSE;
}

/* "cpu-plots" or "task-plots" changed: that one goes to the analysis. */
static void
model_plots_cb (CsWindow   *self,
                GParamSpec *pspec)
{
  gboolean cpus = g_str_equal (pspec->name, "cpu-plots");
  GVariant *plots = cpus ? cs_view_model_get_cpu_plots (self->model) : cs_view_model_get_task_plots (self->model);
  gconstpointer values;
  gsize n;

  if (self->model_syncing || plots == NULL)
    return;
  /* "au" and "ai" alike: 4-byte elements. */
  values = g_variant_get_fixed_array (plots, &n, sizeof (gint32));
  if (cpus)
    cs_analysis_set_cpu_plots (self->analysis, values, n);
  else
    cs_analysis_set_task_plots (self->analysis, values, n);
  plots_changed_cb (self);
}

static void
filter_changed_cb (CsWindow *self)
{
  CsEventFilter *filter = cs_analysis_get_filter (self->analysis);
  g_autofree char *text = NULL;

  if (self->model == NULL || self->model_syncing)  /* disposing, or setting the widget */
    return;
  if (!cs_event_filter_is_empty (filter))
    text = cs_event_filter_to_string (filter);
  self->model_syncing = TRUE;
  g_object_set (self->model, "filter-text", text, NULL);
  self->model_syncing = FALSE;
}

/* The filter's text is read against the recording shown: event types are
 * named "system:name", which another index numbers differently. */
static void
model_filter_text_cb (CsWindow *self)
{
  const char *text = cs_view_model_get_filter_text (self->model);
  CsDocument *document = cs_analysis_get_document (self->analysis);
  g_autoptr(CsEventFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  if (self->model_syncing || document == NULL)
    return;
  filter = text != NULL ? cs_event_filter_new_from_string (document, text, &error) : cs_event_filter_new ();
  if (filter != NULL)
    cs_analysis_set_filter (self->analysis, filter);
  else
    g_message ("The session's filter cannot be used with %s: %s",
               cs_document_get_trace_path (document), error->message);
  filter_changed_cb (self);
}

/* Event list ↔ model ------------------------------------------------------- */

static void
list_selection_cb (CsWindow *self)
{
  CsEventItem *item;

  if (self->model == NULL || self->model_syncing)  /* disposing, or setting the list */
    return;
  item = cs_event_list_view_get_selected_item (self->event_list_view);
  /* the session names events of the window's own recording only */
  if (item != NULL && cs_event_item_get_document (item) != self->document)
    item = NULL;
  self->model_syncing = TRUE;
  g_object_set (self->model, "selected-event",
                item != NULL ? cs_event_to_variant (cs_event_item_get_event (item)) : NULL, NULL);
  self->model_syncing = FALSE;
}

/* Selected as an event clicked on the timeline (no marker moves), then the
 * model takes what the list could select (a filtered-out event: none). */
static void
model_selected_event_cb (CsWindow *self)
{
  g_autoptr(GVariant) variant = NULL;
  CsEvent event;

  if (self->model_syncing)
    return;
  g_object_get (self->model, "selected-event", &variant, NULL);
  self->model_syncing = TRUE;
  if (variant != NULL)
    {
      cs_event_from_variant (variant, &event);
      cs_window_select_event (self, &event);
    }
  else
    cs_event_list_view_select_row (self->event_list_view, GTK_INVALID_LIST_POSITION);
  self->model_syncing = FALSE;
  list_selection_cb (self);
}

/* Pages → model ------------------------------------------------------------ */

static void
query_text_changed_cb (CsWindow *self)
{
  g_autofree char *text = NULL;

  if (self->model == NULL || self->model_syncing)  /* disposing, or setting the page */
    return;
  text = cs_query_page_dup_text (self->query_page);
  self->model_syncing = TRUE;
  g_object_set (self->model, "query-text", text, NULL);
  self->model_syncing = FALSE;
}

static void
model_query_text_cb (CsWindow *self)
{
  const char *text = cs_view_model_get_query_text (self->model);

  if (self->model_syncing || text == NULL)
    return;
  /* The editor's "changed" would set the model, freeing @text. */
  self->model_syncing = TRUE;
  cs_query_page_set_text (self->query_page, text);
  self->model_syncing = FALSE;
}

/**
 * _cs_window_bind_model:
 * @self: a window whose template, analysis, Query page and plugins are
 *   built
 *
 * Binds @self's view model (made, empty, by cs_window_init()) to the
 * widgets, both ways.
 */
void
_cs_window_bind_model (CsWindow *self)
{
  const GBindingFlags both = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;
  struct {
    gpointer instance;
    const char *signal;
    GCallback callback;
  } handlers[] = {
    { self->timeline, "notify::begin-ns", G_CALLBACK (timeline_span_cb) },
    { self->timeline, "notify::end-ns", G_CALLBACK (timeline_span_cb) },
    { self->timeline, "notify::active-marker", G_CALLBACK (timeline_active_marker_cb) },
    { self->analysis, "plots-changed", G_CALLBACK (plots_changed_cb) },
    { self->analysis, "notify::filter", G_CALLBACK (filter_changed_cb) },
    { self->event_list_view, "notify::selected-row", G_CALLBACK (list_selection_cb) },
    { self->event_list_view, "notify::model", G_CALLBACK (list_selection_cb) },
    { gtk_text_view_get_buffer (GTK_TEXT_VIEW (cs_query_page_get_editor (self->query_page))), "changed",
      G_CALLBACK (query_text_changed_cb) },
    { self->model, "notify::begin-ns", G_CALLBACK (model_span_cb) },
    { self->model, "notify::end-ns", G_CALLBACK (model_span_cb) },
    { self->model, "notify::active-marker", G_CALLBACK (model_active_marker_cb) },
    { self->model, "notify::cpu-plots", G_CALLBACK (model_plots_cb) },
    { self->model, "notify::task-plots", G_CALLBACK (model_plots_cb) },
    { self->model, "notify::filter-text", G_CALLBACK (model_filter_text_cb) },
    { self->model, "notify::query-text", G_CALLBACK (model_query_text_cb) },
    { self->model, "notify::selected-event", G_CALLBACK (model_selected_event_cb) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (handlers); i++)
    g_signal_connect_object (handlers[i].instance, handlers[i].signal, handlers[i].callback, self,
                             G_CONNECT_SWAPPED);

  g_object_bind_property (self->timeline, "marker-a-ns", self->model, "marker-a-ns", both);
  g_object_bind_property (self->timeline, "marker-b-ns", self->model, "marker-b-ns", both);
  g_object_bind_property (self->analysis, "filter-targets", self->model, "filter-targets", both);
  g_object_bind_property (self->analysis, "hide-filtered", self->model, "hide-filtered", both);
  g_object_bind_property (self->query_page, "history", self->model, "query-history", both);
  g_object_bind_property (self->plugins, "rows", self->model, "plugin-rows", both);
  g_object_bind_property (self->paned, "position", self->model, "paned-position", both);
  g_object_bind_property (self, "default-width", self->model, "width", both);
  g_object_bind_property (self, "default-height", self->model, "height", both);
  g_object_bind_property (self, "maximized", self->model, "maximized", both);
  timeline_active_marker_cb (self);
  query_text_changed_cb (self);
}

/**
 * cs_window_get_model:
 * @self: a window
 *
 * The state of what @self shows, kept up to date by the widgets bound to
 * it (_cs_window_bind_model()).
 *
 * Returns: (transfer none): @self's view model
 */
CsViewModel *
cs_window_get_model (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return self->model;
}

/* Sessions ----------------------------------------------------------------- */

typedef struct {
  CsSession *session;
  CsWindow *window;           /* weak */
  gulong handler_id;
} Pending;

static void
pending_free (gpointer  data,
              GClosure *closure)
{
  Pending *pending = data;

  cs_session_free (pending->session);
  g_clear_weak_pointer (&pending->window);
  g_free (pending);
}

/* The recording is shown: the process's plugins, then the rest into the
 * model, which the widgets follow. */
static void
restore_view (CsWindow  *self,
              CsSession *session)
{
  const char * const *disabled = cs_session_get_disabled_plugins (session);

  if (disabled != NULL)
    cs_plugin_host_set_disabled_ids (cs_plugin_host_get_default (), disabled);
  cs_session_restore_view (session, self->model);
}

static gboolean
window_shows (CsWindow   *self,
              const char *recording)
{
  g_autoptr(GFile) wanted = g_file_new_for_path (recording);

  return self->file != NULL && cs_timeline_get_document (self->timeline) != NULL &&
         g_file_equal (self->file, wanted);
}

static void
document_changed_cb (CsAnalysis *analysis,
                     Pending    *pending)
{
  CsWindow *self = pending->window;

  if (self != NULL && window_shows (self, cs_session_get_recording (pending->session)))
    restore_view (self, pending->session);
  /* Once: whatever the window opened, the session is done. */
  g_signal_handler_disconnect (analysis, pending->handler_id);
}

/**
 * cs_window_restore_session:
 * @self: the window to show it in
 * @session: (transfer none): a session
 *
 * Sizes @self and its split as the session says, then opens the session's
 * recording in @self (unless it shows it already) and, once it is shown,
 * restores the plots, filter, visible span and markers into its model.
 * Opening errors show in the window's error banner as for any recording.
 */
void
cs_window_restore_session (CsWindow  *self,
                           CsSession *session)
{
  Pending *pending;
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (session != NULL);

  cs_session_restore_geometry (session, self->model);
  if (window_shows (self, cs_session_get_recording (session)))
    {
      restore_view (self, session);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->session = cs_session_copy (session);
  g_set_weak_pointer (&pending->window, self);
  pending->handler_id = g_signal_connect_data (self->analysis, "document-changed",
                                               G_CALLBACK (document_changed_cb), pending,
                                               pending_free, 0);

  file = g_file_new_for_path (cs_session_get_recording (session));
  cs_window_open_file (self, file);
}

/**
 * cs_window_open_session:
 * @self: the window to show the session in
 * @path: a session file
 * @error: return location for an error of cs_session_load()
 *
 * Reads the session at @path and restores it in @self
 * (cs_window_restore_session()).
 *
 * Returns: whether the file was a session
 */
gboolean
cs_window_open_session (CsWindow    *self,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(CsSession) session = NULL;

  g_return_val_if_fail (CS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  session = cs_session_load (path, error);
  if (session == NULL)
    return FALSE;
  cs_window_restore_session (self, session);
  return TRUE;
}

/**
 * cs_window_save_last_session:
 * @self: a window
 * @error: return location for a %G_FILE_ERROR
 *
 * Saves what @self shows as the last session (cs_session_get_last_path()),
 * if it shows a recording.
 *
 * Returns: %FALSE with @error set when writing failed; %TRUE otherwise
 */
gboolean
cs_window_save_last_session (CsWindow  *self,
                             GError   **error)
{
  g_autoptr(CsSession) session = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (CS_IS_WINDOW (self), FALSE);

  session = cs_session_capture (cs_window_get_model (self));
  if (session == NULL)
    return TRUE;
  path = cs_session_get_last_path ();
  return cs_session_save (session, path, error);
}
