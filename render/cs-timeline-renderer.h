/* cs-timeline-renderer.h: draws CPU and task plots of a CsDocument onto any
 * cairo_t.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Pure cairo + Pango: the same code draws the GTK widget, PNG/SVG/PDF export
 * and the headless `chronoscope render` command.  It asks the document for
 * one summary column per pixel (cs_document_get_cpu_columns()) when zoomed
 * out, and for exact slices and events (cs_document_get_slices(),
 * cs_document_get_events()) when the window is narrower than the index's
 * summary resolution, so the cost of a frame follows its width, not the size
 * of the recording.  Task plots (cs_timeline_renderer_set_task_plots())
 * follow the CPU plots and show one task's states from
 * cs_document_get_task_intervals().
 */
#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "cs-document.h"
#include "cs-event-filter.h"
#include "cs-plugin-view.h"
#include "cs-task-timeline.h"
#include "cs-theme.h"

G_BEGIN_DECLS

/**
 * CsViewport:
 * @begin_ns: first visible time (trace clock, ns), inclusive
 * @end_ns: end of the visible span, exclusive; > @begin_ns
 * @width_px: width of the drawing area in device-independent pixels
 * @height_px: height of the drawing area in pixels
 *
 * What part of the recording is drawn, onto how many pixels.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  int width_px;
  int height_px;
} CsViewport;

/**
 * CsHitKind:
 * @CS_HIT_NONE: nothing under the point (outside the drawing, or in the gap
 *   between two plots)
 * @CS_HIT_AXIS: the time axis (@ts_ns is valid)
 * @CS_HIT_CPU_PLOT: a CPU plot (see the #CsHit fields)
 * @CS_HIT_CPU_LABEL: the label column left of a CPU plot (@cpu is valid)
 * @CS_HIT_TASK_PLOT: a task plot (@pid, @has_interval and @interval are
 *   valid)
 * @CS_HIT_TASK_LABEL: the label column left of a task plot (@pid is valid)
 * @CS_HIT_PLUGIN_ROW: a row of a plugin's own (@row is valid, and @item
 *   when the row's layer found something there)
 * @CS_HIT_PLUGIN_LABEL: the label column left of a plugin row (@row is
 *   valid)
 */
typedef enum {
  CS_HIT_NONE,
  CS_HIT_AXIS,
  CS_HIT_CPU_PLOT,
  CS_HIT_CPU_LABEL,
  CS_HIT_TASK_PLOT,
  CS_HIT_TASK_LABEL,
  CS_HIT_PLUGIN_ROW,
  CS_HIT_PLUGIN_LABEL,
} CsHitKind;

/**
 * CsHit:
 * @kind: what is under the point
 * @ts_ns: time under the point
 * @cpu: the CPU of the plot (for %CS_HIT_CPU_PLOT)
 * @has_slice: whether a task was running there; then @slice is valid
 * @slice: the sched_switch slice under the point
 * @has_event: whether an event lies within a few pixels; then @event is valid
 * @event: the nearest such event
 * @pid: the task of the plot (for %CS_HIT_TASK_PLOT and %CS_HIT_TASK_LABEL)
 * @has_interval: whether @interval is valid
 * @interval: what the task did under the point: the wakeup latency box
 *   there if any (see #CsTaskInterval.wakeup_ns), else the interval holding
 *   the point, else the nearest within a few pixels
 * @plot_index: the plot's position, top to bottom, CPU plots first then task
 *   plots (for every kind but %CS_HIT_NONE and %CS_HIT_AXIS)
 * @has_item: whether a plugin layer drew something there (on a CPU plot, a
 *   task plot or a plugin row); then @item and @item_plugin are valid
 * @item: what the layer found; @item.text is borrowed from the renderer,
 *   valid until its next hit test
 * @item_plugin: the plugin whose layer found @item
 * @row: the plugin row's index among cs_timeline_renderer_get_plugin_rows()
 *   (for %CS_HIT_PLUGIN_ROW and %CS_HIT_PLUGIN_LABEL)
 *
 * What lies under a point of the drawing, for hover text and clicks.
 */
typedef struct {
  CsHitKind kind;
  gint64 ts_ns;
  guint cpu;
  gboolean has_slice;
  CsSlice slice;
  gboolean has_event;
  CsEvent event;
  gint32 pid;
  gboolean has_interval;
  CsTaskInterval interval;
  guint plot_index;
  gboolean has_item;
  CsPluginItem item;
  CsPlugin *item_plugin;
  guint row;
} CsHit;

/**
 * CsPluginRowSpec:
 * @plugin: a plugin enabled on the renderer's plugin document
 * @layer: the name of one of its %CS_PLUGIN_LAYER_ROW layers
 * @key: the row's key
 *
 * A row of a plugin's own, as the view-model asks for it.
 */
typedef struct {
  CsPlugin *plugin;
  const char *layer;
  const char *key;
} CsPluginRowSpec;

#define CS_TYPE_TIMELINE_RENDERER (cs_timeline_renderer_get_type ())
G_DECLARE_FINAL_TYPE (CsTimelineRenderer, cs_timeline_renderer, CS, TIMELINE_RENDERER, GObject)

CsTimelineRenderer *cs_timeline_renderer_new        (CsDocument          *document);
CsDocument         *cs_timeline_renderer_get_document (CsTimelineRenderer *self);
void                cs_timeline_renderer_set_cpus   (CsTimelineRenderer  *self,
                                                     const guint         *cpus,
                                                     guint                n_cpus);
const guint        *cs_timeline_renderer_get_cpus   (CsTimelineRenderer  *self,
                                                     guint               *n_cpus);
void                cs_timeline_renderer_set_task_plots (CsTimelineRenderer *self,
                                                     const gint32        *pids,
                                                     guint                n_pids);
const gint32       *cs_timeline_renderer_get_task_plots (CsTimelineRenderer *self,
                                                     guint               *n_pids);
void                cs_timeline_renderer_set_plugins (CsTimelineRenderer *self,
                                                     CsPluginDocument    *plugins);
guint               cs_timeline_renderer_set_plugin_rows (CsTimelineRenderer *self,
                                                     const CsPluginRowSpec *rows,
                                                     guint                n_rows);
guint               cs_timeline_renderer_get_n_plugin_rows (CsTimelineRenderer *self);
void                cs_timeline_renderer_get_plugin_row (CsTimelineRenderer *self,
                                                     guint                index,
                                                     CsPluginRowSpec     *row,
                                                     const char         **label);
void                cs_timeline_renderer_get_plugin_row_area (CsTimelineRenderer *self,
                                                     guint                index,
                                                     double              *y_px,
                                                     double              *height_px);
void                cs_timeline_renderer_set_event_filter (CsTimelineRenderer *self,
                                                     CsEventFilter       *filter,
                                                     gboolean             hide);
gboolean            cs_timeline_renderer_get_filter_exact (CsTimelineRenderer *self);
int                 cs_timeline_renderer_get_natural_height (CsTimelineRenderer *self);
gboolean            cs_timeline_renderer_draw       (CsTimelineRenderer  *self,
                                                     cairo_t             *cr,
                                                     const CsViewport    *viewport,
                                                     GError             **error);
gboolean            cs_timeline_renderer_hit_test   (CsTimelineRenderer  *self,
                                                     const CsViewport    *viewport,
                                                     double               x_px,
                                                     double               y_px,
                                                     CsHit               *hit,
                                                     GError             **error);
void                cs_timeline_renderer_get_cpu_plot_area (CsTimelineRenderer *self,
                                                     guint                index,
                                                     double              *y_px,
                                                     double              *height_px);
void                cs_timeline_renderer_get_task_plot_area (CsTimelineRenderer *self,
                                                     guint                index,
                                                     double              *y_px,
                                                     double              *height_px);
void                cs_timeline_renderer_get_time_area (CsTimelineRenderer *self,
                                                     const CsViewport    *viewport,
                                                     double              *x_px,
                                                     double              *width_px);
double              cs_timeline_renderer_ns_to_x    (CsTimelineRenderer  *self,
                                                     const CsViewport    *viewport,
                                                     gint64               ts_ns);
gint64              cs_timeline_renderer_x_to_ns    (CsTimelineRenderer  *self,
                                                     const CsViewport    *viewport,
                                                     double               x_px);
void                cs_timeline_renderer_set_color_scheme (CsTimelineRenderer *self,
                                                     CsColorScheme        scheme);
CsColorScheme       cs_timeline_renderer_get_color_scheme (CsTimelineRenderer *self);

G_END_DECLS
