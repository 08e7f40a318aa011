/* cs-window-streams.c: the other recordings a CsWindow shows on its axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsWindow.  The window's recording is the first stream of a
 * CsStreamSet; File → Add Recording…, a file dropped on a window that
 * shows one, `chronoscope -i A -i B` and a session's "streams" add the
 * others.  Each added file is indexed (or its index reused) by its own
 * CsIndexJob, exactly as the window's recording is, so adding one costs its
 * own first open or reopen and nothing else.  Files added while the
 * window's recording still indexes wait for it.  The timeline draws them
 * all (cs_timeline_set_streams()); the header menus' actions are here:
 *
 *   win.add-recording               the file chooser
 *   win.stream-up(u), -down(u)      reorder (the first is the reference)
 *   win.stream-hide(u)              leave it out of the timeline
 *   win.streams-show-all            show the hidden ones again
 *   win.stream-close(u)             close an added recording
 *   win.stream-align-markers(u)     shift it by B − A: marker A placed on a
 *                                   moment of this stream, B on the same
 *                                   moment of another
 *   win.stream-shift(u)             the Shift Recording window: a shift in ns
 *   win.stream-clear-offset(u)      drop its manual shift
 *
 * The Query page runs over every stream when there are several
 * (cs_query_page_set_streams()), made anew when the streams, their order
 * or their shifts change; the plugins open on each stream too
 * (cs_plugin_window_set_streams()).
 *
 * The set is mirrored into the window's CsViewModel "streams" (path, manual
 * shift, collapsed, hidden of each added recording), both ways, so that
 * sessions save and restore them.  The state lives in a WindowStreams
 * attached to the window.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-recording-filters.h"
#include "cs-stream-shift-dialog.h"
#include "cs-window-private.h"
#include "cs-window-streams.h"

/* A stream's state from a session, applied when it is added. */
typedef struct {
  gint64 offset_ns;
  gboolean collapsed;
  gboolean hidden;
} StreamState;

typedef struct {
  CsStreamSet *set;
  CsStreamsRenderer *renderer;
  GPtrArray *pending;          /* GFile: waiting for the window's recording */
  GHashTable *states;          /* path → StreamState: to apply on adding */
  gboolean syncing;            /* the model is being read or written */
  GCancellable *cancellable;   /* the add jobs of this recording */
  guint n_running;
  GtkFileChooserNative *chooser;
  char *query_key;             /* what the Query page's streams were made of */
  char *list_key;              /* what the event list's streams were made of */
  guint list_idle;             /* update_event_list() to come */
  GdkFrameClock *list_clock;   /* waiting for its next frame, then the idle */
} WindowStreams;

static void list_after_paint_cb (GdkFrameClock *clock, gpointer data);

static void
stop_list_wait (WindowStreams *ws)
{
  g_clear_handle_id (&ws->list_idle, g_source_remove);
  if (ws->list_clock != NULL)
    g_signal_handlers_disconnect_matched (ws->list_clock, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                          list_after_paint_cb, NULL);
  g_clear_object (&ws->list_clock);
}

static void
window_streams_free (WindowStreams *ws)
{
  g_cancellable_cancel (ws->cancellable);
  g_clear_object (&ws->cancellable);
  g_clear_object (&ws->renderer);
  g_clear_object (&ws->set);
  g_clear_pointer (&ws->pending, g_ptr_array_unref);
  g_clear_pointer (&ws->states, g_hash_table_unref);
  if (ws->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (ws->chooser));
  g_clear_object (&ws->chooser);
  g_free (ws->query_key);
  g_free (ws->list_key);
  stop_list_wait (ws);
  g_free (ws);
}

static WindowStreams *
get_streams (CsWindow *self)
{
  WindowStreams *ws = g_object_get_data (G_OBJECT (self), "cs-window-streams");

  if (ws == NULL)
    {
      ws = g_new0 (WindowStreams, 1);
      ws->pending = g_ptr_array_new_with_free_func (g_object_unref);
      ws->states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      ws->cancellable = g_cancellable_new ();
      g_object_set_data_full (G_OBJECT (self), "cs-window-streams", ws,
                              (GDestroyNotify) window_streams_free);
    }
  return ws;
}

/**
 * cs_window_get_streams:
 * @self: a #CsWindow
 *
 * Returns: (transfer none) (nullable): the recordings the window shows on
 *   its axis, its own first; %NULL while it shows none
 */
CsStreamSet *
cs_window_get_streams (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return get_streams (self)->set;
}

/**
 * cs_window_get_n_adding:
 * @self: a #CsWindow
 *
 * Returns: how many added recordings are still being indexed or wait for
 *   the window's own
 */
guint
cs_window_get_n_adding (CsWindow *self)
{
  WindowStreams *ws;

  g_return_val_if_fail (CS_IS_WINDOW (self), 0);
  ws = get_streams (self);
  return ws->n_running + ws->pending->len;
}

static void
apply_state (CsStream *stream, const StreamState *state)
{
  cs_stream_set_offset_ns (stream, state->offset_ns);
  cs_stream_set_collapsed (stream, state->collapsed);
  cs_stream_set_hidden (stream, state->hidden);
}

static void
stream_added (CsWindow *self, WindowStreams *ws, CsDocument *document)
{
  const StreamState *state = g_hash_table_lookup (ws->states, cs_document_get_trace_path (document));
  CsStream *stream;

  if (cs_stream_set_find_path (ws->set, cs_document_get_trace_path (document)) != NULL)
    return;
  stream = cs_stream_set_add (ws->set, document, NULL);
  if (state != NULL)
    apply_state (stream, state);
  cs_timeline_zoom_to_fit (self->timeline);
  if (cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_UNRELATED)
    cs_window_show_toast (self, cs_stream_get_note (stream));
}

typedef struct {
  CsWindow *window;
  CsStreamSet *set;    /* the set it was started for */
} AddData;

static void
add_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  AddData *data = user_data;
  g_autoptr(CsWindow) self = data->window;
  g_autoptr(CsStreamSet) set = data->set;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  CsIndexJob *job = CS_INDEX_JOB (source);
  WindowStreams *ws;

  g_free (data);
  document = cs_index_job_run_finish (job, result, &error);
  g_object_unref (job);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  ws = get_streams (self);
  if (ws->set != set)
    return;        /* the window opened another recording meanwhile */
  ws->n_running--;
  if (document == NULL)
    {
      _cs_window_show_error (self, cs_index_job_get_file (job), error);
      return;
    }
  stream_added (self, ws, document);
}

static void
start_add (CsWindow *self, WindowStreams *ws, GFile *file)
{
  CsIndexJob *job = cs_index_job_new (file);
  AddData *data = g_new0 (AddData, 1);

  data->window = g_object_ref (self);
  data->set = g_object_ref (ws->set);
  ws->n_running++;
  cs_index_job_run_async (job, ws->cancellable, add_done_cb, data);
}

/**
 * cs_window_add_file:
 * @self: a #CsWindow
 * @file: a recording
 *
 * Adds @file as one more stream on the window's axis, indexing it (or
 * reusing its index) in a worker process.  A window that shows nothing
 * opens it as its own recording instead; one whose first recording is
 * still opening adds it after.  A file already shown is not added twice.
 * Failures show in the error banner.
 */
void
cs_window_add_file (CsWindow *self,
                    GFile    *file)
{
  WindowStreams *ws;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  ws = get_streams (self);
  if (self->document != NULL && ws->set != NULL)
    start_add (self, ws, file);
  else if (self->job != NULL)
    g_ptr_array_add (ws->pending, g_object_ref (file));
  else
    cs_window_open_file (self, file);
}

/* The model's "streams" (a session's) into the window: files not shown
 * yet are added, with their state applied once they are. */
static void
model_streams_cb (CsWindow *self)
{
  WindowStreams *ws = get_streams (self);
  GVariant *streams = NULL;
  GVariantIter iter;
  StreamState state;
  const char *path;

  if (ws->syncing)
    return;
  g_object_get (cs_window_get_model (self), "streams", &streams, NULL);
  if (streams == NULL)
    return;
  ws->syncing = TRUE;
  g_variant_iter_init (&iter, streams);
  while (g_variant_iter_next (&iter, "(&sxbb)", &path, &state.offset_ns, &state.collapsed,
                              &state.hidden))
    {
      CsStream *stream = ws->set != NULL ? cs_stream_set_find_path (ws->set, path) : NULL;

      if (stream != NULL)
        {
          apply_state (stream, &state);
          continue;
        }
      g_hash_table_replace (ws->states, g_strdup (path), g_memdup2 (&state, sizeof state));
      {
        g_autoptr(GFile) file = g_file_new_for_path (path);

        cs_window_add_file (self, file);
      }
    }
  ws->syncing = FALSE;
  g_variant_unref (streams);
}

/* The Query page over the streams when there are several: made again
 * when what its SQL sees changes (files, order, reference, shifts), not
 * when a stream is collapsed or hidden. */
static void
update_query_page (CsWindow *self, WindowStreams *ws)
{
  guint n = ws->set != NULL ? cs_stream_set_get_n_streams (ws->set) : 0;
  g_autoptr(GString) key = g_string_new (NULL);

  for (guint i = 0; n > 1 && i < n; i++)
    {
      CsStream *s = cs_stream_set_get_stream (ws->set, i);

      g_string_append_printf (key, "%s\n%" G_GINT64_FORMAT "\n%d\n", cs_stream_get_path (s),
                              cs_stream_get_offset_ns (s),
                              s == cs_stream_set_get_reference (ws->set));
    }
  if (g_strcmp0 (key->str, ws->query_key != NULL ? ws->query_key : "") == 0)
    return;
  g_free (ws->query_key);
  ws->query_key = g_strdup (key->str);
  cs_query_page_set_streams (self->query_page, n > 1 ? ws->set : NULL);
}

/* The event list over the visible streams when there are several (the
 * window's own recording's list alone otherwise): made again when what it
 * merges changes (files, order, visibility, shifts), with the filter and
 * the selected event it had. */
static void
update_event_list (CsWindow *self, WindowStreams *ws)
{
  guint n = ws->set != NULL ? cs_stream_set_get_n_streams (ws->set) : 0;
  g_autoptr(GString) key = g_string_new (NULL);
  CsEventList *old = cs_event_list_view_get_model (self->event_list_view);
  CsEventItem *selected = cs_event_list_view_get_selected_item (self->event_list_view);
  g_autoptr(CsEventList) list = NULL;
  g_autoptr(CsStream) stream = NULL;
  CsEvent event = { 0 };

  for (guint i = 0; n > 1 && i < n; i++)
    {
      CsStream *s = cs_stream_set_get_stream (ws->set, i);

      g_string_append_printf (key, "%s\n%" G_GINT64_FORMAT "\n%d%d\n", cs_stream_get_path (s),
                              cs_stream_get_offset_ns (s), cs_stream_get_hidden (s),
                              s == cs_stream_set_get_reference (ws->set));
    }
  if (old == NULL || self->document == NULL ||
      g_strcmp0 (key->str, ws->list_key != NULL ? ws->list_key : "") == 0)
    return;
  g_free (ws->list_key);
  ws->list_key = g_strdup (key->str);
  if (selected != NULL)
    {
      stream = cs_event_item_get_stream (selected) ? g_object_ref (cs_event_item_get_stream (selected)) : NULL;
      event = *cs_event_item_get_event (selected);
    }
  list = n > 1 ? cs_event_list_new_for_streams (ws->set, cs_event_list_get_filter (old))
               : cs_event_list_new (self->document, cs_event_list_get_filter (old));
  cs_event_list_view_set_model (self->event_list_view, list);
  if (selected != NULL)
    cs_event_list_view_select_stream_event (self->event_list_view, stream, &event);
}

/* After the next frame, in an idle: GTK 4.8 builds the list's rows again
 * for a new model (a few hundred ms for 200 rows of cells), which should
 * not hold back the timeline's new groups. */
static gboolean
event_list_idle_cb (gpointer data)
{
  CsWindow *self = data;
  WindowStreams *ws = get_streams (self);

  ws->list_idle = 0;
  update_event_list (self, ws);
  return G_SOURCE_REMOVE;
}

static void
list_after_paint_cb (GdkFrameClock *clock, gpointer data)
{
  WindowStreams *ws = get_streams (data);

  stop_list_wait (ws);
  ws->list_idle = g_idle_add (event_list_idle_cb, data);
}

static void
schedule_event_list (CsWindow *self, WindowStreams *ws)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (ws->list_idle != 0 || ws->list_clock != NULL)
    return;
  if (clock == NULL)
    {
      ws->list_idle = g_idle_add (event_list_idle_cb, self);
      return;
    }
  ws->list_clock = g_object_ref (clock);
  g_signal_connect (clock, "after-paint", G_CALLBACK (list_after_paint_cb), self);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
}

/* The set into the model's "streams", after the window's own recording. */
static void
set_changed_cb (CsWindow *self)
{
  WindowStreams *ws = get_streams (self);
  GVariantBuilder builder;

  if (ws->set != NULL)
    {
      update_query_page (self, ws);
      schedule_event_list (self, ws);
    }
  /* The plugins' side of each recording, for a page that analyses one
   * of them (the Latency page's Recording). */
  cs_plugin_window_set_streams (self->plugins, ws->set);
  if (ws->syncing || ws->set == NULL)
    return;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sxbb)"));
  for (guint i = 0; i < cs_stream_set_get_n_streams (ws->set); i++)
    {
      CsStream *s = cs_stream_set_get_stream (ws->set, i);

      if (cs_stream_get_document (s) == self->document)
        continue;
      g_variant_builder_add (&builder, "(sxbb)", cs_stream_get_path (s), cs_stream_get_offset_ns (s),
                             cs_stream_get_collapsed (s), cs_stream_get_hidden (s));
    }
  ws->syncing = TRUE;
  g_object_set (cs_window_get_model (self), "streams", g_variant_builder_end (&builder), NULL);
  ws->syncing = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

/**
 * _cs_window_streams_reset:
 * @self: a #CsWindow whose recording just changed
 *
 * Starts a new set with the window's recording alone (or none), then adds
 * the files that waited for it.
 */
void
_cs_window_streams_reset (CsWindow *self)
{
  WindowStreams *ws = get_streams (self);
  g_autoptr(GPtrArray) pending = g_steal_pointer (&ws->pending);
  CsStream *own;

  g_cancellable_cancel (ws->cancellable);
  g_object_unref (ws->cancellable);
  ws->cancellable = g_cancellable_new ();
  ws->n_running = 0;
  ws->pending = g_ptr_array_new_with_free_func (g_object_unref);
  /* the window gives the Query page its new recording alone next */
  g_clear_pointer (&ws->query_key, g_free);
  g_clear_pointer (&ws->list_key, g_free);
  stop_list_wait (ws);
  cs_timeline_set_streams (self->timeline, NULL);
  g_clear_object (&ws->renderer);
  g_clear_object (&ws->set);
  if (self->document == NULL)
    return;

  ws->set = cs_stream_set_new ();
  own = cs_stream_set_add (ws->set, self->document, NULL);
  /* the window's axis stays its own recording's clock, whatever the order */
  cs_stream_set_set_reference (ws->set, own);
  ws->renderer = cs_streams_renderer_new (ws->set);
  cs_streams_renderer_set_stream_renderer (ws->renderer, own, cs_timeline_get_renderer (self->timeline));
  cs_streams_renderer_set_color_scheme (ws->renderer,
                                        cs_timeline_renderer_get_color_scheme (cs_timeline_get_renderer (self->timeline)));
  cs_timeline_set_streams (self->timeline, ws->renderer);
  g_signal_connect_object (ws->set, "items-changed", G_CALLBACK (set_changed_cb), self,
                           G_CONNECT_SWAPPED);
  set_changed_cb (self);
  for (guint i = 0; i < pending->len; i++)
    start_add (self, ws, g_ptr_array_index (pending, i));
}

/**
 * _cs_window_streams_show:
 * @self: a #CsWindow
 * @stream: (nullable): one of its streams
 *
 * Scrolls the timeline so that @stream's group (its header and first
 * plots) is in view, for an event of it selected in the list.
 */
void
_cs_window_streams_show (CsWindow *self, CsStream *stream)
{
  WindowStreams *ws = get_streams (self);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self->timeline), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  double y = 0, height = 0;

  if (stream == NULL || ws->renderer == NULL || scrolled == NULL ||
      !cs_streams_renderer_get_stream_area (ws->renderer, stream, &y, &height))
    return;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_clamp_page (adjustment, y, y + MIN (height, gtk_adjustment_get_page_size (adjustment)));
}

/* The stream a header menu names, or NULL. */
static CsStream *
stream_at (CsWindow *self, GVariant *parameter)
{
  WindowStreams *ws = get_streams (self);
  guint pos = g_variant_get_uint32 (parameter);

  if (ws->set == NULL || pos >= cs_stream_set_get_n_streams (ws->set))
    return NULL;
  return cs_stream_set_get_stream (ws->set, pos);
}

static void
stream_move (CsWindow *self, GVariant *parameter, int delta)
{
  CsStream *stream = stream_at (self, parameter);
  guint pos = g_variant_get_uint32 (parameter);

  if (stream == NULL || (delta < 0 && pos == 0))
    return;
  cs_stream_set_move (get_streams (self)->set, stream, (guint) ((int) pos + delta));
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

static void
stream_up_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  stream_move (user_data, parameter, -1);
}

static void
stream_down_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  stream_move (user_data, parameter, +1);
}

static void
stream_hide_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  CsStream *stream = stream_at (self, parameter);

  if (stream == NULL)
    return;
  cs_stream_set_hidden (stream, TRUE);
  gtk_widget_queue_resize (GTK_WIDGET (self->timeline));
  /* TRANSLATORS: a toast; %s is a recording's name */
  {
    g_autofree char *text = g_strdup_printf (_("“%s” is hidden; the menu's Show All "
                                               "Recordings brings it back"),
                                             cs_stream_get_name (stream));
    cs_window_show_toast (self, text);
  }
}

static void
streams_show_all_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  WindowStreams *ws = get_streams (self);

  for (guint i = 0; ws->set != NULL && i < cs_stream_set_get_n_streams (ws->set); i++)
    cs_stream_set_hidden (cs_stream_set_get_stream (ws->set, i), FALSE);
  gtk_widget_queue_resize (GTK_WIDGET (self->timeline));
}

static void
stream_close_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  CsStream *stream = stream_at (self, parameter);

  if (stream == NULL)
    return;
  if (cs_stream_get_document (stream) == self->document)
    {
      cs_window_show_toast (self, _("This is the window's own recording: open another one "
                                    "to replace it"));
      return;
    }
  cs_stream_set_remove (get_streams (self)->set, stream);
  cs_timeline_zoom_to_fit (self->timeline);
}

static void
stream_align_markers_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  CsStream *stream = stream_at (self, parameter);
  gint64 a = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_A);
  gint64 b = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_B);

  if (stream == NULL)
    return;
  if (a == CS_MARKER_UNSET || b == CS_MARKER_UNSET)
    {
      cs_window_show_toast (self, _("Place marker A on a moment of this recording and marker B "
                                    "on the same moment of another, then align"));
      return;
    }
  /* A and B are axis times: moving this stream by B − A puts A's moment on B's */
  cs_stream_set_offset_ns (stream, cs_stream_get_offset_ns (stream) + (b - a));
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

/* A click on another recording's event in its timeline group: its row
 * of the merged list, the marker placed already (as cs_window_select_event()
 * does for the window's own recording). */
static void
stream_event_clicked_cb (CsWindow      *self,
                         CsStream      *stream,
                         const CsEvent *event)
{
  self->selecting_clicked_event = TRUE;
  cs_event_list_view_select_stream_event (self->event_list_view, stream, event);
  self->selecting_clicked_event = FALSE;
}

static void
stream_shift_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  CsStream *stream = stream_at (self, parameter);

  if (stream != NULL)
    gtk_window_present (GTK_WINDOW (cs_stream_shift_dialog_new (GTK_WINDOW (self), stream)));
}

static void
stream_clear_offset_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  CsStream *stream = stream_at (self, parameter);

  if (stream == NULL)
    return;
  cs_stream_set_offset_ns (stream, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

static void
chooser_response_cb (CsWindow *self, int response, GtkFileChooserNative *chooser)
{
  WindowStreams *ws = get_streams (self);
  g_autoptr(GListModel) files = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  for (guint i = 0; files != NULL && i < g_list_model_get_n_items (files); i++)
    {
      g_autoptr(GFile) file = g_list_model_get_item (files, i);

      cs_window_add_file (self, file);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (ws->chooser));
  g_clear_object (&ws->chooser);
}

static void
add_recording_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsWindow *self = user_data;
  WindowStreams *ws = get_streams (self);

  if (ws->chooser == NULL)
    {
      ws->chooser = gtk_file_chooser_native_new (_("Add Recording"), GTK_WINDOW (self),
                                                 GTK_FILE_CHOOSER_ACTION_OPEN,
                                                 _("_Add"), _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (ws->chooser), TRUE);
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (ws->chooser), TRUE);
      cs_recording_filters_add (GTK_FILE_CHOOSER (ws->chooser));
      g_signal_connect_object (ws->chooser, "response", G_CALLBACK (chooser_response_cb),
                               self, G_CONNECT_SWAPPED);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (ws->chooser));
}

/**
 * _cs_window_streams_init:
 * @self: a #CsWindow, from its init
 *
 * Adds the streams' actions (see the file's comment).
 */
void
_cs_window_streams_init (CsWindow *self)
{
  static const GActionEntry entries[] = {
    { "add-recording", add_recording_action },
    { "stream-up", stream_up_action, "u" },
    { "stream-down", stream_down_action, "u" },
    { "stream-hide", stream_hide_action, "u" },
    { "streams-show-all", streams_show_all_action },
    { "stream-close", stream_close_action, "u" },
    { "stream-align-markers", stream_align_markers_action, "u" },
    { "stream-shift", stream_shift_action, "u" },
    { "stream-clear-offset", stream_clear_offset_action, "u" },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  g_signal_connect_object (cs_window_get_model (self), "notify::streams",
                           G_CALLBACK (model_streams_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "stream-event-clicked",
                           G_CALLBACK (stream_event_clicked_cb), self, G_CONNECT_SWAPPED);
}
