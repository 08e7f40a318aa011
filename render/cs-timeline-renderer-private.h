/* cs-timeline-renderer-private.h: what the renderer's files share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * CsTimelineRenderer is drawn by cs-timeline-renderer.c (plots, axis,
 * hit tests) and cs-timeline-renderer-plugins.c (plugin layers and rows).
 */
#pragma once

#include <pango/pango.h>

#include "cs-timeline-renderer.h"
#include "cs-axis-painter-private.h"
#include "cs-cpu-plot-painter-private.h"
#include "cs-plugin-view-private.h"
#include "cs-task-plot-painter-private.h"
#include "cs-text-cache-private.h"

G_BEGIN_DECLS

#define HIT_RADIUS_PX        4.0

struct _CsTimelineRenderer
{
  GObject parent_instance;

  /* owned */
  CsDocument *document;
  GArray *cpus;              /* guint: the CPU of each plot, top to bottom */
  GArray *task_pids;         /* gint32: the task of each task plot, after the CPU plots */
  PangoContext *pango_context;
  cairo_font_options_t *font_options;  /* of the last target drawn on */
  cairo_matrix_t matrix;
  CsAxisPainter axis_painter;
  CsTextCache cpu_texts;      /* "CPU n" and task plots' command names */
  CsTextCache pid_texts;      /* task plots' pids */
  CsTextCache note_texts;     /* notes over plots */
  CsTextCache plugin_texts;   /* plugin layers' text (cs_plugin_view_draw_text()) */
  CsCpuPlotPainter *painter;
  CsTaskPlotPainter *task_painter;
  CsEventFilter *filter;      /* NULL: no filter on the ticks */
  gboolean filter_exact;      /* the last frame applied it everywhere */
  CsPluginDocument *plugins;  /* NULL: no plugin layers */
  GArray *rows;               /* CsPluginRow: plugin rows, after the task plots */
  char *item_text;            /* of the last hit test's CsHit.item */
  CsColorScheme scheme;       /* the page drawn on: light unless set */
};

double   _cs_timeline_renderer_plot_y              (guint                index);
void     _cs_timeline_renderer_init_plugin_view    (CsTimelineRenderer  *self,
                                                    CsPluginView        *view,
                                                    const CsPlotFrame   *frame,
                                                    double               y);
void     _cs_timeline_renderer_draw_plugin_row     (CsTimelineRenderer  *self,
                                                    cairo_t             *cr,
                                                    const CsPlotFrame   *frame,
                                                    guint                index);
void     _cs_timeline_renderer_hit_test_layers     (CsTimelineRenderer  *self,
                                                    const CsPlotFrame   *frame,
                                                    guint                index,
                                                    CsPluginLayerTarget  target,
                                                    double               x_px,
                                                    double               y_px,
                                                    CsHit               *hit);
gboolean _cs_timeline_renderer_hit_test_plugin_row (CsTimelineRenderer  *self,
                                                    const CsPlotFrame   *frame,
                                                    guint                index,
                                                    double               x_px,
                                                    double               y_px,
                                                    CsHit               *hit);

G_END_DECLS
