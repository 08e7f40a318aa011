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
 * snapshot.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-record-panel.h"
#include "cs-window-live.h"

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
 * and the user zoomed into it.
 */
void
_cs_window_live_before_open (CsWindow *window,
                             GFile    *file)
{
  CsWindowLive *live = _cs_window_get_live (window);
  CsTimeline *timeline = cs_window_get_timeline (window);
  g_autofree char *path = g_file_get_path (file);

  live->keep_span = live_zoomed (window) && g_strcmp0 (path, live_output (window)) == 0;
  live->keep_begin_ns = cs_timeline_get_begin_ns (timeline);
  live->keep_end_ns = cs_timeline_get_end_ns (timeline);
}

/**
 * _cs_window_live_opened:
 * @window: a #CsWindow
 * @ok: whether the file opened (and is shown now)
 *
 * After opening a file: no longer live; the remembered span applies.
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
    }
  live->keep_span = FALSE;
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
  gboolean zoomed;
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
  live->live = TRUE;
  _cs_window_set_document (self, document, file);
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
