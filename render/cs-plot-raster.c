/* cs-plot-raster.c: a plot drawn one value per pixel column
 * (cs-plot-raster-private.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cs-plot-raster-private.h"

gboolean
_cs_plot_raster_begin (CsPlotRaster *raster,
                       guint         n_columns)
{
  if (raster->surface == NULL || cairo_image_surface_get_width (raster->surface) < (int) n_columns)
    {
      g_clear_pointer (&raster->surface, cairo_surface_destroy);
      raster->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) n_columns,
                                                    CS_PLOT_HEIGHT_PX);
    }
  raster->pixels = NULL;
  if (cairo_surface_status (raster->surface) != CAIRO_STATUS_SUCCESS)
    return FALSE;

  /* A recording target (a GTK snapshot) holds a copy-on-write snapshot of
   * the previous plot's image: flushing gives it its own copy before the
   * pixels are overwritten. */
  cairo_surface_flush (raster->surface);
  raster->stride_px = cairo_image_surface_get_stride (raster->surface) / 4;
  memset (cairo_image_surface_get_data (raster->surface), 0,
          (gsize) cairo_image_surface_get_stride (raster->surface) * CS_PLOT_HEIGHT_PX);
  raster->pixels = (guint32 *) cairo_image_surface_get_data (raster->surface);
  return TRUE;
}

void
_cs_plot_raster_end (CsPlotRaster *raster,
                     cairo_t      *cr,
                     guint         n_columns,
                     double        x,
                     double        y)
{
  cairo_surface_mark_dirty (raster->surface);
  cairo_set_source_surface (cr, raster->surface, x, y);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, x, y, n_columns, CS_PLOT_HEIGHT_PX);
  cairo_fill (cr);
  raster->pixels = NULL;
}

void
_cs_plot_raster_clear (CsPlotRaster *raster)
{
  g_clear_pointer (&raster->surface, cairo_surface_destroy);
  raster->pixels = NULL;
}
