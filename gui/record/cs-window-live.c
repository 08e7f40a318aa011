/* cs-window-live.c: a window showing a recording while it is made.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * While its record panel records, the window shows the snapshots
 * CsRecordLive announces (CsRecordPanel::live-document) in place of one
 * another.  The view fits each grown picture unless the user zoomed or
 * panned; then the span stays, through the refreshes and into the written
 * recording when Stop opens it (the snapshots and the file share the
 * clock).  The title names the recording being made, not the hidden
 * snapshot.  Each picture replaces the event list and the plots: the
 * selected event (found again by its CPU, row and time), the list's scroll
 * position and the user's CPU and task plots carry over.  After Stop, the
 * last picture stays, with the opening's progress in the info bar
 * (cs-window.c), until the written recording replaces it.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-plot-args.h"
#include "cs-record-panel.h"
#include "cs-window-live.h"
#include "cs-window-private.h"

/* The file the live picture's recording goes to, or NULL. */
static const char *
live_output (CsWindow *window)
{
  CsRecordPanel *panel;
  CsRecordJob *job;

  if (!_cs_window_get_live (window)->live ||
      (panel = cs_record_panel_get_for (GTK_WINDOW (window))) == NULL ||
      (job = cs_record_panel_get_job (panel)) == NULL)
    return NULL;
  return cs_record_job_get_output (job);
}

/* Whether a live picture shows and the user moved away from the span the
 * window fitted it to. */
static gboolean
live_zoomed (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsTimeline *timeline = cs_window_get_timeline (window);

  return live->live && cs_timeline_get_document (timeline) != NULL &&
         (cs_timeline_get_begin_ns (timeline) != live->fit_begin_ns ||
          cs_timeline_get_end_ns (timeline) != live->fit_end_ns);
}

/* The next recording shown keeps the CPU plots the user chose (those with
 * events, grown with the recording, unless the user changed them), the
 * task plots and the event filter. */
static void
keep_plots (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);
  CsEventFilter *filter = cs_analysis_get_filter (analysis);
  g_autoptr(GArray) cpus = NULL;
  g_autoptr(GArray) pids = NULL;
  g_autoptr(GArray) fitted = NULL;
  const guint *cpu_plots;
  const gint32 *task_plots;
  guint n_cpus, n_pids;

  if (document == NULL)
    return;
  cpu_plots = cs_analysis_get_cpu_plots (analysis, &n_cpus);
  task_plots = cs_analysis_get_task_plots (analysis, &n_pids);
  fitted = cs_plot_args_select_cpus (document, NULL);
  if (fitted->len != n_cpus || memcmp (fitted->data, cpu_plots, n_cpus * sizeof (guint)) != 0)
    {
      cpus = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_cpus);
      g_array_append_vals (cpus, cpu_plots, n_cpus);
    }
  if (n_pids > 0)
    {
      pids = g_array_sized_new (FALSE, FALSE, sizeof (gint32), n_pids);
      g_array_append_vals (pids, task_plots, n_pids);
    }
  cs_analysis_set_startup_plots (analysis, cpus, pids, NULL);
  /* As text, the way sessions keep it: the next picture's event types are
   * its own (a type first seen in it gets an id of its own). */
  g_clear_pointer (&live->restore_filter, g_free);
  if (!cs_event_filter_is_empty (filter))
    live->restore_filter = cs_event_filter_to_string (filter);
}

/* The filter keep_plots() remembered, on the recording shown now. */
static void
restore_filter (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  g_autofree char *text = g_steal_pointer (&live->restore_filter);
  g_autoptr(CsEventFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  if (text == NULL || cs_analysis_get_document (analysis) == NULL)
    return;
  filter = cs_event_filter_new_from_string (cs_analysis_get_document (analysis), text, &error);
  if (filter != NULL)
    cs_analysis_set_filter (analysis, filter);
  else
    g_message ("The live recording's filter no longer applies: %s", error->message);
}

static void
stop_restoring (CsWindowLive *live)
{
  g_clear_handle_id (&live->retry_id, g_source_remove);
  if (live->restore_clock != NULL)
    g_signal_handler_disconnect (live->restore_clock, live->restore_id);
  live->restore_id = 0;
  g_clear_object (&live->restore_clock);
}

/* restore_list_cb() waited for the list to count: try again. */
static gboolean
retry_restore_cb (gpointer data)
{
  CsWindowLive *live = _cs_window_get_live (data);

  live->retry_id = 0;
  if (live->restore_clock != NULL)
    gdk_frame_clock_request_phase (live->restore_clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
  return G_SOURCE_REMOVE;
}

/* Frames the list may take to scroll to a selected row and focus it. */
#define RESTORE_FRAMES 3
/* How often a restore waiting for the list to count looks again. */
#define RETRY_MS 50

/* The list has laid out the new picture's rows: back to where the user
 * was in the last one.  First the selected event, which the list scrolls
 * to and focuses over the next frames (more of them on a loaded machine),
 * then the position, again after each of those frames. */
static void
restore_list_cb (GdkFrameClock *clock,
                 CsWindow      *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsEventListView *view = cs_window_get_event_list_view (window);
  GtkAdjustment *adjustment;

  /* A filtered list finds its rows once it has counted what passes: look
   * again a little later (asking for the next frame at once would starve
   * the count's idle callbacks). */
  if (!cs_analysis_get_filter_ready (cs_window_get_analysis (window)))
    {
      if (live->retry_id == 0)
        live->retry_id = g_timeout_add (RETRY_MS, retry_restore_cb, window);
      return;
    }
  if (live->restore_selected)
    {
      gboolean selected = cs_window_select_event (window, &live->restore_event);

      g_debug ("live picture: selecting the event at %" G_GINT64_FORMAT " ns on CPU %u: %s",
               live->restore_event.ts_ns, live->restore_event.cpu,
               selected ? "selected" : "not found");
      live->restore_selected = FALSE;
      /* The focus went with the old rows (or the rows the filter counted
       * again): back to the list, at the selected row. */
      if (gtk_root_get_focus (GTK_ROOT (window)) == NULL)
        gtk_widget_grab_focus (GTK_WIDGET (cs_event_list_view_get_column_view (view)));
      gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
      return;
    }
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (cs_event_list_view_get_column_view (view)));
  if (live->restore_scroll_kept)
    gtk_adjustment_set_value (adjustment, live->restore_scroll);
  if (live->restore_frames > 0)
    {
      live->restore_frames--;
      gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
      return;
    }
  /* A position from before the list had counted its rows (or before the
   * user scrolled) may not show the selected row: then the row wins
   * (selecting the selected row again scrolls to it when out of view). */
  if (live->restore_has_event &&
      cs_event_list_view_get_selected_row (view) != GTK_INVALID_LIST_POSITION)
    cs_event_list_view_select_row (view, cs_event_list_view_get_selected_row (view));
  stop_restoring (live);
}

/* Remembers the selected event and the scroll position of the event list,
 * for restore_list_cb() after the next picture. */
static void
keep_list (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsEventListView *view = cs_window_get_event_list_view (window);
  CsEventItem *item = cs_event_list_view_get_selected_item (view);
  GtkAdjustment *adjustment;

  /* A restore still going on: the last picture may not show the place
   * yet, the next one (restore_list()) starts it again from the start. */
  if (live->restore_clock != NULL)
    {
      g_debug ("live picture: the last restore goes on");
      return;
    }
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (cs_event_list_view_get_column_view (view)));
  live->restore_scroll = gtk_adjustment_get_value (adjustment);
  live->restore_selected = live->restore_has_event = item != NULL;
  /* A selected row out of sight at this position: the list is on its way
   * to it (a scroll waits for the next frame) or the user looks elsewhere;
   * either way the row wins at the end of the restore, so the position is
   * not set again on the way there.  Set, it took the list back where it
   * was before each scroll to the row: with pictures coming faster than
   * a scroll's frames (a sanitizer build), the row never came in sight. */
  live->restore_scroll_kept =
    item == NULL || cs_event_list_view_row_in_view (view, cs_event_list_view_get_selected_row (view));
  g_debug ("live picture: keeping the list at %.0f px%s, %s", live->restore_scroll,
           live->restore_scroll_kept ? "" : " (the selected row out of sight: not kept)",
           item != NULL ? "an event selected" : "no event selected");
  if (item != NULL)
    live->restore_event = *cs_event_item_get_event (item);
}

static void
restore_list (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (cs_window_get_event_list_view (window)));

  /* The new document lost the selection: select the event again, also
   * when keep_list() found a restore going on (it may have ended since,
   * while the written recording opened). */
  live->restore_selected = live->restore_has_event;
  /* A restore still going on selects the event again on this picture, at
   * the next frame, and goes on counting its frames: counted again from
   * the start at each picture, a restore slower than the pictures (a
   * loaded machine, a sanitizer build) never reached its end, where the
   * selected row wins over the position kept, and kept the list at that
   * position with the row out of sight. */
  if (live->restore_clock != NULL)
    {
      gdk_frame_clock_request_phase (live->restore_clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
      return;
    }
  if (clock == NULL || (!live->restore_selected && live->restore_scroll == 0.0))
    return;
  live->restore_frames = live->restore_scroll_kept ? RESTORE_FRAMES : 0;
  live->restore_clock = g_object_ref (clock);
  live->restore_id = g_signal_connect_object (clock, "after-paint", G_CALLBACK (restore_list_cb),
                                              window, 0);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

/**
 * _cs_window_live_dispose:
 * @window: a #CsWindow
 *
 * Drops what the live picture holds (a pending restore of the list).
 */
void
_cs_window_live_dispose (CsWindow *window)
{
  CsWindowLive *live = _cs_window_get_live (window);

  stop_restoring (live);
  g_clear_pointer (&live->restore_filter, g_free);
}

/**
 * _cs_window_live_dup_title:
 * @window: a #CsWindow
 *
 * Returns: (transfer full) (nullable): "Recording “NAME”…" while a live
 *   picture shows, %NULL otherwise
 */
char *
_cs_window_live_dup_title (CsWindow *window)
{
  g_autofree char *name = NULL;

  if (live_output (window) == NULL)
    return NULL;
  name = g_path_get_basename (live_output (window));
  /* TRANSLATORS: the title while the recording NAME is shown live */
  return g_strdup_printf (_("Recording “%s”…"), name);
}

/**
 * _cs_window_live_before_open:
 * @window: a #CsWindow
 * @file: the file it starts opening
 *
 * Remembers the span to show @file at when it is the recording shown live
 * and the user zoomed into it, and then its plots, selected event and list
 * position.
 */
void
_cs_window_live_before_open (CsWindow *window,
                             GFile    *file)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsTimeline *timeline = cs_window_get_timeline (window);
  g_autofree char *path = g_file_get_path (file);

  live->keep_span = live_zoomed (window) && g_strcmp0 (path, live_output (window)) == 0;
  live->keep_list = g_strcmp0 (path, live_output (window)) == 0;
  if (live->keep_list)
    {
      keep_plots (window);
      keep_list (window);
    }
  live->keep_begin_ns = cs_timeline_get_begin_ns (timeline);
  live->keep_end_ns = cs_timeline_get_end_ns (timeline);
}

/**
 * _cs_window_live_opened:
 * @window: a #CsWindow
 * @ok: whether the file opened (and is shown now)
 *
 * After opening a file: no longer live; the remembered span, plots,
 * selected event and list position apply.
 */
void
_cs_window_live_opened (CsWindow *window,
                        gboolean  ok)
{
  CsWindowLive *live = _cs_window_get_live (window);

  if (ok)
    {
      live->live = FALSE;
      if (live->keep_span)
        cs_timeline_set_span (cs_window_get_timeline (window), live->keep_begin_ns,
                              live->keep_end_ns);
      if (live->keep_list)
        {
          restore_filter (window);
          restore_list (window);
        }
    }
  else
    g_clear_pointer (&live->restore_filter, g_free);
  live->keep_span = FALSE;
  live->keep_list = FALSE;
}

/**
 * cs_window_show_live_document:
 * @self: a #CsWindow
 * @document: a snapshot of a recording in progress (#CsRecordLive)
 *
 * Shows @document in place of the previous live one (or of what was open).
 * When the user zoomed into the previous live picture the span stays;
 * otherwise the view fits the grown recording.  Ignored while the window
 * opens a file (the finished recording, or one the user chose).
 */
void
cs_window_show_live_document (CsWindow   *self,
                              CsDocument *document)
{
  CsWindowLive *live;
  CsTimeline *timeline;
  g_autoptr(GFile) file = NULL;
  gboolean zoomed, was_live;
  gint64 begin_ns, end_ns;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (CS_IS_DOCUMENT (document));

  if (cs_window_get_state (self) == CS_WINDOW_STATE_LOADING)
    return;

  live = _cs_window_get_live (self);
  timeline = cs_window_get_timeline (self);
  begin_ns = cs_timeline_get_begin_ns (timeline);
  end_ns = cs_timeline_get_end_ns (timeline);
  zoomed = live_zoomed (self);

  file = g_file_new_for_path (cs_document_get_trace_path (document));
  was_live = live->live;
  if (was_live)
    {
      keep_plots (self);
      keep_list (self);
    }
  live->live = TRUE;
  g_debug ("live picture: showing %" G_GUINT64_FORMAT " events", cs_document_get_n_events (document));
  _cs_window_set_document (self, document, file);
  g_debug ("live picture: shown");
  if (was_live)
    {
      restore_filter (self);
      restore_list (self);
    }
  live->fit_begin_ns = cs_timeline_get_begin_ns (timeline);
  live->fit_end_ns = cs_timeline_get_end_ns (timeline);
  if (zoomed)
    cs_timeline_set_span (timeline, begin_ns, end_ns);
}

/**
 * cs_window_is_live:
 * @self: a #CsWindow
 *
 * Returns: whether the window shows a recording in progress
 *   (cs_window_show_live_document())
 */
gboolean
cs_window_is_live (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), FALSE);
  return _cs_window_get_live (self)->live;
}
