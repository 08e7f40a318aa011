/* cs-plot-raster-private.h: a plot drawn one value per pixel column.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Whatever a CPU plot or a task plot shows one value per pixel column
 * (zoomed-out busy bars, event density, a task's states, slices narrower
 * than a pixel) is written into an image of the plot, one pixel per
 * column, and drawn with one paint: a path per colour would cost a cairo
 * fill per task in view, which on a busy recording (hundreds of
 * short-lived tasks) is most of a frame, twice over in GTK, whose
 * snapshots record and replay the drawing.  With the nearest filter the
 * image stays crisp at any device scale.
 *
 * A painter keeps one CsPlotRaster (zero-initialised) for all its plots:
 * _cs_plot_raster_begin(), pixels written (_cs_plot_raster_rows(),
 * _cs_plot_raster_bar(), or @pixels directly), _cs_plot_raster_end();
 * _cs_plot_raster_clear() when the painter goes.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "cs-cpu-plot-painter-private.h"

G_BEGIN_DECLS

typedef struct {
  cairo_surface_t *surface;     /* ARGB32, CS_PLOT_HEIGHT_PX high, as wide as the widest plot yet */
  guint32 *pixels;              /* between begin and end: the surface's pixels, row after row */
  int stride_px;                /* pixels from one row to the next */
} CsPlotRaster;

/* Starts a plot of @n_columns columns, every pixel transparent; FALSE when
 * cairo cannot make the image (out of memory: the plot is left out). */
gboolean _cs_plot_raster_begin (CsPlotRaster *raster,
                                guint         n_columns);

/* Paints the @n_columns columns at (@x, @y) of @cr. */
void     _cs_plot_raster_end   (CsPlotRaster *raster,
                                cairo_t      *cr,
                                guint         n_columns,
                                double        x,
                                double        y);

/* Frees the image. */
void     _cs_plot_raster_clear (CsPlotRaster *raster);

/* Fills rows [@top, @bottom) of column @x (clipped to the plot) with @argb
 * (cairo's premultiplied ARGB32, native-endian). */
static inline void
_cs_plot_raster_rows (CsPlotRaster *raster,
                      guint         x,
                      int           top,
                      int           bottom,
                      guint32       argb)
{
  for (int row = MAX (top, 0); row < MIN (bottom, CS_PLOT_HEIGHT_PX); row++)
    raster->pixels[(gsize) row * raster->stride_px + x] = argb;
}

/* Fills the bottom @height rows of column @x: a bar. */
static inline void
_cs_plot_raster_bar (CsPlotRaster *raster,
                     guint         x,
                     int           height,
                     guint32       argb)
{
  _cs_plot_raster_rows (raster, x, CS_PLOT_HEIGHT_PX - height, CS_PLOT_HEIGHT_PX, argb);
}

G_END_DECLS
