/* cs-cpu-plot-painter-private.h: draws the data of one CPU plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The part of CsTimelineRenderer that turns the index's answers for one CPU
 * into pixels: busy columns, event density, slices with their labels and
 * event ticks.  The renderer owns the layout of the whole drawing (axis,
 * label column, which plots go where) and calls this for each plot.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "cs-document.h"
#include "cs-event-filter.h"
#include "cs-theme.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

/* The drawing's layout, in pixels: the time axis on top, a label column on
 * the left, then CPU plots CS_PLOT_GAP_PX apart. */
#define CS_AXIS_HEIGHT_PX  28
#define CS_LABEL_WIDTH_PX  64
#define CS_PLOT_HEIGHT_PX  40
#define CS_PLOT_GAP_PX     4

/**
 * CsPlotFrame:
 * @begin_ns: start of the visible span (inclusive)
 * @end_ns: end of the visible span (exclusive), > @begin_ns
 * @time_x: left edge of the time area, px
 * @time_width: width of the time area, px (>= 0)
 * @n_columns: whole pixel columns in the time area
 * @ns_per_px: nanoseconds per pixel column
 * @zoomed_in: whether a pixel is narrower than the index's summary
 *   resolution, so plots are drawn from slices and events
 * @theme: the colours around the data (cs_theme_get()); light unless the
 *   renderer's colour scheme says otherwise
 *
 * The geometry and colours of one frame, shared by all plots.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  double time_x;
  double time_width;
  guint n_columns;
  double ns_per_px;
  gboolean zoomed_in;
  const CsTheme *theme;
} CsPlotFrame;

typedef struct _CsCpuPlotPainter CsCpuPlotPainter;

void              _cs_plot_frame_init                 (CsPlotFrame        *frame,
                                                       const CsViewport   *viewport,
                                                       gint64              resolution_ns);
/* @ts_ns minus @frame's begin, in ns: exact where the difference passes
 * what a gint64 holds (a damaged recording can span more than 2^63 ns). */
static inline double
_cs_plot_frame_offset_ns (const CsPlotFrame *frame,
                          gint64             ts_ns)
{
  return ts_ns >= frame->begin_ns ? (double) ((guint64) ts_ns - (guint64) frame->begin_ns)
                                  : -(double) ((guint64) frame->begin_ns - (guint64) ts_ns);
}

double            _cs_plot_frame_ns_to_x              (const CsPlotFrame  *frame,
                                                       gint64              ts_ns);

PangoLayout      *_cs_layout_new                      (PangoContext       *context,
                                                       const char         *font);

CsCpuPlotPainter *_cs_cpu_plot_painter_new            (CsDocument         *document,
                                                       PangoContext       *context);
void              _cs_cpu_plot_painter_free           (CsCpuPlotPainter   *self);
void              _cs_cpu_plot_painter_context_changed (CsCpuPlotPainter  *self);
void              _cs_cpu_plot_painter_set_filter     (CsCpuPlotPainter   *self,
                                                       CsEventFilter      *filter,
                                                       gboolean            hide);
gboolean          _cs_cpu_plot_painter_get_filter_exact (CsCpuPlotPainter *self);
gboolean          _cs_cpu_plot_painter_draw           (CsCpuPlotPainter   *self,
                                                       cairo_t            *cr,
                                                       const CsPlotFrame  *frame,
                                                       guint               cpu,
                                                       double              y_px,
                                                       GError            **error);

/* Who was seen longest in a pixel column shared by things narrower than a
 * pixel: @n_slots keys (tasks, CPUs) with their time there, kept by the
 * caller in @keys and @ns (zeroed to start).  Adds @add_ns to @key; with
 * more keys than slots the least seen gives way (approximate only for
 * columns shared by more than @n_slots keys). */
static inline void
_cs_plot_share_add (gint32 *keys, gint64 *ns, guint n_slots, gint32 key, gint64 add_ns)
{
  guint smallest = 0;

  for (guint i = 0; i < n_slots; i++)
    {
      if (keys[i] == key || ns[i] == 0)
        {
          keys[i] = key;
          ns[i] += add_ns;
          return;
        }
      if (ns[i] < ns[smallest])
        smallest = i;
    }
  if (ns[smallest] < add_ns)
    {
      keys[smallest] = key;
      ns[smallest] = add_ns;
    }
}

/* The key seen longest (the first of equals). */
static inline gint32
_cs_plot_share_get_dominant (const gint32 *keys, const gint64 *ns, guint n_slots)
{
  guint best = 0;

  for (guint i = 1; i < n_slots; i++)
    if (ns[i] > ns[best])
      best = i;
  return keys[best];
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCpuPlotPainter, _cs_cpu_plot_painter_free)

G_END_DECLS
