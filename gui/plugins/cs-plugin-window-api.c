/* cs-plugin-window-api.c: what plugins call on the window that shows
 * them (cs-plugin-window.h): pages, the range, the span and markers,
 * events, task plots and plugin rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The other half of CsPluginWindow (cs-window-plugins.c hosts the
 * plugins).  The view moves through the window's actions and its view
 * model, never through widgets a plugin could not reach itself.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-plugin-private.h"
#include "cs-window-plugins-private.h"

void
cs_plugin_add_page (CsPlugin               *plugin,
                    const CsPluginPageInfo *info)
{
  g_autoptr(GError) error = NULL;
  CsPluginPageInfo *copy;

  g_return_if_fail (plugin != NULL && info != NULL);

  copy = _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_PAGE, info, sizeof (CsPluginPageInfo),
                              "cs_plugin_add_page");
  if (copy == NULL)
    return;
  if (!_cs_plugin_check_name ("page name", copy->name, "_", &error) || copy->create == NULL ||
      copy->title == NULL || !g_utf8_validate (copy->title, -1, NULL))
    {
      g_warning ("Plugin %s: page %s is invalid (%s); ignored", plugin->path,
                 copy->name != NULL ? copy->name : "(unnamed)",
                 error != NULL ? error->message : "create or title is missing");
      g_ptr_array_remove (plugin->hooks[CS_PLUGIN_HOOK_PAGE], copy);
    }
}

CsPluginDocument *
cs_plugin_window_get_document (CsPluginWindow *window)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window), NULL);
  return window->document;
}

GtkWindow *
cs_plugin_window_get_toplevel (CsPluginWindow *window)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window), NULL);
  return window->window;
}

void
cs_plugin_window_get_range (CsPluginWindow *window,
                            gint64         *begin_ns,
                            gint64         *end_ns)
{
  CsTimeline *timeline;
  gint64 a_ns, b_ns;

  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window) && begin_ns != NULL && end_ns != NULL);

  timeline = window->timeline;
  a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  if (a_ns != CS_MARKER_UNSET && b_ns != CS_MARKER_UNSET && a_ns != b_ns)
    {
      *begin_ns = MIN (a_ns, b_ns);
      *end_ns = MAX (a_ns, b_ns) + 1;
    }
  else if (window->document != NULL)
    {
      /* The visible span, as the statistics window takes it: a dragged
       * selection zooms to itself; zoomed out, the whole recording. */
      *begin_ns = MAX (cs_timeline_get_begin_ns (timeline),
                       cs_plugin_document_get_first_ns (window->document));
      *end_ns = MIN (cs_timeline_get_end_ns (timeline),
                     cs_plugin_document_get_last_ns (window->document) + 1);
      /* Zoomed to fit (the span may stop at the last event): all of it. */
      if (*end_ns <= *begin_ns ||
          (*begin_ns <= cs_plugin_document_get_first_ns (window->document) &&
           *end_ns >= cs_plugin_document_get_last_ns (window->document)))
        {
          *begin_ns = cs_plugin_document_get_first_ns (window->document);
          *end_ns = cs_plugin_document_get_last_ns (window->document) + 1;
        }
    }
  else
    *begin_ns = *end_ns = 0;
}

void
cs_plugin_window_show_span (CsPluginWindow *window,
                            gint64          begin_ns,
                            gint64          end_ns)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));

  /* The window's rule for the room around a span: win.show-span. */
  if (window->window != NULL)
    gtk_widget_activate_action (GTK_WIDGET (window->window), "win.show-span", "(xx)", begin_ns, end_ns);
}

void
cs_plugin_window_set_markers (CsPluginWindow *window,
                              gint64          a_ns,
                              gint64          b_ns)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));

  /* Through the view model, which the timeline's markers are bound to. */
  g_object_set (window->model, "marker-a-ns", MAX (a_ns, CS_VIEW_MODEL_MARKER_UNSET), NULL);
  if (b_ns >= 0)
    g_object_set (window->model, "marker-b-ns", b_ns, NULL);
}

gboolean
cs_plugin_window_select_event (CsPluginWindow *window,
                               guint           cpu,
                               gint64          ts_ns)
{
  CsDocument *document;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  gboolean selected = FALSE;

  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window), FALSE);

  if (window->document == NULL)
    return FALSE;
  document = _cs_plugin_document_get_document (window->document);
  if (cpu >= cs_document_get_n_cpus (document) ||
      !cs_document_get_events (document, cpu, ts_ns, cs_document_get_last_ns (document) + 1, 1,
                               events, NULL) ||
      events->len == 0)
    return FALSE;
  g_signal_emit_by_name (window, "select-event", &g_array_index (events, CsEvent, 0), &selected);
  return selected;
}

void
cs_plugin_window_add_task_plot (CsPluginWindow *window,
                                gint32          pid)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));

  cs_view_model_add_task_plot (window->model, pid);
}

void
cs_plugin_window_add_row (CsPluginWindow *window,
                          CsPlugin       *plugin,
                          const char     *layer,
                          const char     *key)
{
  Row row;

  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));
  g_return_if_fail (plugin != NULL && layer != NULL && key != NULL);

  if (_cs_plugin_window_find_row (window, plugin, layer, key) >= 0)
    return;
  row.plugin = plugin;
  row.layer = g_strdup (layer);
  row.key = g_strdup (key);
  g_array_append_val (window->rows, row);
  _cs_plugin_window_rows_changed (window);
}

void
cs_plugin_window_remove_row (CsPluginWindow *window,
                             CsPlugin       *plugin,
                             const char     *layer,
                             const char     *key)
{
  int index;

  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));

  index = _cs_plugin_window_find_row (window, plugin, layer, key);
  if (index < 0)
    return;
  g_array_remove_index (window->rows, index);
  _cs_plugin_window_rows_changed (window);
}

void
cs_plugin_window_queue_draw (CsPluginWindow *window)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (window));
  gtk_widget_queue_draw (GTK_WIDGET (window->timeline));
}

guint
cs_plugin_window_get_n_documents (CsPluginWindow *window)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window), 0);
  return window->document != NULL ? 1 + window->others->len : 0;
}

CsPluginDocument *
cs_plugin_window_get_nth_document (CsPluginWindow *window,
                                   guint           n)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window), NULL);

  if (window->document == NULL || n > window->others->len)
    return NULL;
  return n == 0 ? window->document : g_ptr_array_index (window->others, n - 1);
}

/* @ns of @document's clock onto the axis (@to_axis) or back: the
 * window's own recording's clock is the axis (cs-window-streams.c). */
static gint64
convert (CsPluginWindow *window, CsPluginDocument *document, guint cpu, gint64 ns,
         gboolean to_axis)
{
  CsStream *stream = document != window->document ? _cs_plugin_document_get_stream (document)
                                                  : NULL;

  if (stream == NULL)
    return ns;
  return to_axis ? cs_stream_to_axis_ns (stream, cpu, ns) : cs_stream_from_axis_ns (stream, cpu, ns);
}

gint64
cs_plugin_window_to_axis_ns (CsPluginWindow   *window,
                             CsPluginDocument *document,
                             guint             cpu,
                             gint64            ts_ns)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window) && document != NULL, ts_ns);
  return convert (window, document, cpu, ts_ns, TRUE);
}

gint64
cs_plugin_window_from_axis_ns (CsPluginWindow   *window,
                               CsPluginDocument *document,
                               guint             cpu,
                               gint64            axis_ns)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (window) && document != NULL, axis_ns);
  return convert (window, document, cpu, axis_ns, FALSE);
}
