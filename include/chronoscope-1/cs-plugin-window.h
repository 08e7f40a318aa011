/* cs-plugin-window.h: pages of the window, and what they can ask of it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's UI (chronoscope-plugin-ui-1.pc).  Include
 * <chronoscope-plugin-ui.h> or <chronoscope-plugin.h>, not this file.
 *
 * A plugin's page sits beside the event list, under the timeline, in a
 * tab of its own (the user switches with the tabs above the list).  It is
 * a GTK 4 widget the plugin builds for one recording in one window, and
 * it steers the window through #CsPluginWindow: zoom to a moment, put
 * markers, select an event in the list, add a task plot or a row.
 *
 * All of it runs on the main thread.
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-plugin-document.h"

G_BEGIN_DECLS

/**
 * CsPluginWindow:
 *
 * The window showing a recording, as a plugin page sees it.  Borrowed:
 * valid until the page's widget is destroyed.
 */
typedef struct _CsPluginWindow CsPluginWindow;

/**
 * CsPluginPageInfo:
 * @struct_size: sizeof (CsPluginPageInfo)
 * @name: the page's name, `[a-z0-9_]+`, unique within the plugin
 * @title: the tab's title, as users read it (translated by the plugin)
 * @create: builds the page for the recording @instance belongs to, shown
 *   in @window; returns a new floating widget, or %NULL when the page has
 *   nothing to show for this recording (no tab then).  Called when the recording
 *   is shown with the plugin enabled; the widget is destroyed when the
 *   recording closes or the plugin is disabled.
 * @range_changed: (nullable): the window's range changed: the span between
 *   markers A and B, else the timeline's visible span (a dragged selection
 *   zooms to itself; zoomed out, it is the whole recording), clipped to the
 *   recording ([@begin_ns, @end_ns)).  Called once after @create too, and
 *   after the span rests for a moment when the user zooms or pans.
 * @show: (nullable): the window brings the page to the front to show
 *   something the user asked for elsewhere (a classroom demo opens on the
 *   Latency page with the demo's preset): @arg is the page's own text (for
 *   the latency plugin, a definition), which the page shows as if the user
 *   had chosen it.  A compatible addition: for a plugin built before it,
 *   whose @struct_size stops before @show, the page is only brought to
 *   the front.
 *
 * A page of the window.
 */
typedef struct {
  guint32 struct_size;
  const char *name;
  const char *title;
  GtkWidget *(*create)        (gpointer        instance,
                               CsPluginWindow *window);
  void       (*range_changed) (gpointer        instance,
                               GtkWidget      *page,
                               gint64          begin_ns,
                               gint64          end_ns);
  void       (*show)          (gpointer        instance,
                               GtkWidget      *page,
                               const char     *arg);
} CsPluginPageInfo;

/**
 * cs_plugin_add_page:
 * @plugin: the plugin being initialised
 * @info: the page; copied (the first @info->struct_size bytes)
 *
 * Registers a page.  Call it from #CsPluginEntry.init.
 */
void              cs_plugin_add_page                (CsPlugin               *plugin,
                                                     const CsPluginPageInfo *info);

/**
 * cs_plugin_window_get_document:
 * @window: a window
 *
 * Returns: (transfer none): the recording it shows
 */
CsPluginDocument *cs_plugin_window_get_document     (CsPluginWindow *window);

/**
 * cs_plugin_window_get_toplevel:
 * @window: a window
 *
 * Returns: (transfer none): the GtkWindow, as the parent of a dialog
 */
GtkWindow        *cs_plugin_window_get_toplevel     (CsPluginWindow *window);

/**
 * cs_plugin_window_get_range:
 * @window: a window
 * @begin_ns: (out): start of the window's range
 * @end_ns: (out): its end (exclusive)
 *
 * The window's range, as #CsPluginPageInfo.range_changed gives it.
 */
void              cs_plugin_window_get_range        (CsPluginWindow *window,
                                                     gint64         *begin_ns,
                                                     gint64         *end_ns);

/**
 * cs_plugin_window_show_span:
 * @window: a window
 * @begin_ns: first time to show
 * @end_ns: end of the span to show (exclusive); when it equals
 *   @begin_ns, the span is widened around that moment
 *
 * Zooms and scrolls the timeline so that [@begin_ns, @end_ns) fills most
 * of its width, with a margin on each side.
 */
void              cs_plugin_window_show_span        (CsPluginWindow *window,
                                                     gint64          begin_ns,
                                                     gint64          end_ns);

/**
 * cs_plugin_window_set_markers:
 * @window: a window
 * @a_ns: where marker A goes
 * @b_ns: where marker B goes; -1 leaves B where it is
 *
 * Puts the markers; the info bar shows B - A.
 */
void              cs_plugin_window_set_markers      (CsPluginWindow *window,
                                                     gint64          a_ns,
                                                     gint64          b_ns);

/**
 * cs_plugin_window_select_event:
 * @window: a window
 * @cpu: the CPU whose ring buffer holds the event
 * @ts_ns: the event's timestamp (the first event of @cpu at or after it
 *   is selected)
 *
 * Selects an event in the event list and scrolls the list to it (the
 * list's filter is cleared if it hides the event).
 *
 * Returns: %FALSE when @cpu has no event at or after @ts_ns
 */
gboolean          cs_plugin_window_select_event     (CsPluginWindow *window,
                                                     guint           cpu,
                                                     gint64          ts_ns);

/**
 * cs_plugin_window_add_task_plot:
 * @window: a window
 * @pid: a task of the recording
 *
 * Adds a task plot for @pid under the CPU plots, unless it has one.
 */
void              cs_plugin_window_add_task_plot    (CsPluginWindow *window,
                                                     gint32          pid);

/**
 * cs_plugin_window_add_row:
 * @window: a window
 * @plugin: the plugin whose %CS_PLUGIN_LAYER_ROW layer draws the row
 * @layer: that layer's name
 * @key: the row's key, which the layer's row_label and draw receive
 *
 * Adds a row to the timeline, below the task plots, unless it is there
 * already.  The row is kept in sessions.
 */
void              cs_plugin_window_add_row          (CsPluginWindow *window,
                                                     CsPlugin       *plugin,
                                                     const char     *layer,
                                                     const char     *key);

/**
 * cs_plugin_window_remove_row:
 * @window: a window
 * @plugin: the plugin whose layer draws the row
 * @layer: that layer's name
 * @key: the row's key
 *
 * Removes a row added with cs_plugin_window_add_row(), if it is there.
 */
void              cs_plugin_window_remove_row       (CsPluginWindow *window,
                                                     CsPlugin       *plugin,
                                                     const char     *layer,
                                                     const char     *key);

/**
 * cs_plugin_window_queue_draw:
 * @window: a window
 *
 * Redraws the timeline, for a layer whose look changed (an option of the
 * plugin's page).
 */
void              cs_plugin_window_queue_draw       (CsPluginWindow *window);

/**
 * cs_plugin_window_get_n_documents:
 * @window: a window
 *
 * How many recordings the window shows on its time axis: its own
 * (cs_plugin_window_get_document()) and those the user added (File → Add
 * Recording…, `chronoscope -i A -i B`).  Pages hear of a change as a
 * range change (#CsPluginPageInfo.range_changed).
 *
 * Since: plugin API 1.2
 *
 * Returns: 1 or more while the window shows a recording
 */
guint             cs_plugin_window_get_n_documents  (CsPluginWindow *window);

/**
 * cs_plugin_window_get_nth_document:
 * @window: a window
 * @n: 0 for the window's own recording, 1 .. n - 1 for the added ones in
 *   the order the window shows them
 *
 * A recording the window shows, as plugins see it: the enabled plugins
 * are open on it (cs_plugin_document_get_instance()), and its passes run
 * in the background as the window's own recording's do
 * (cs_plugin_document_request_pass(), pass_ready).  Only the window's own
 * recording has the plugins' layers, rows and pages; a page may analyse
 * another one, converting its times with cs_plugin_window_to_axis_ns()
 * before it moves the timeline.
 *
 * Since: plugin API 1.2
 *
 * Returns: (transfer none) (nullable): the recording, %NULL for @n out of
 *   range
 */
CsPluginDocument *cs_plugin_window_get_nth_document (CsPluginWindow *window,
                                                     guint           n);

/**
 * cs_plugin_window_to_axis_ns:
 * @window: a window
 * @document: one of its recordings (cs_plugin_window_get_nth_document())
 * @cpu: the CPU whose clock @ts_ns was read from (it matters for a KVM
 *   guest, whose vCPUs each have their own clock offsets)
 * @ts_ns: a time of @document's clock
 *
 * Where @ts_ns of @document lies on the window's time axis (the times
 * cs_plugin_window_show_span() and cs_plugin_window_set_markers() take):
 * the window's own recording's clock, the others aligned to it as the
 * timeline draws them.
 *
 * Since: plugin API 1.2
 *
 * Returns: the axis time, ns; @ts_ns for the window's own recording
 */
gint64            cs_plugin_window_to_axis_ns       (CsPluginWindow   *window,
                                                     CsPluginDocument *document,
                                                     guint             cpu,
                                                     gint64            ts_ns);

/**
 * cs_plugin_window_from_axis_ns:
 * @window: a window
 * @document: one of its recordings
 * @cpu: as for cs_plugin_window_to_axis_ns()
 * @axis_ns: a time of the window's axis (cs_plugin_window_get_range()'s)
 *
 * The inverse of cs_plugin_window_to_axis_ns(), within a nanosecond or two
 * for a KVM guest and its host.
 *
 * Since: plugin API 1.2
 *
 * Returns: the time of @document's clock, ns
 */
gint64            cs_plugin_window_from_axis_ns     (CsPluginWindow   *window,
                                                     CsPluginDocument *document,
                                                     guint             cpu,
                                                     gint64            axis_ns);

G_END_DECLS
