/* cs-axis-painter-private.h: draws the time axis over the plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The part of CsTimelineRenderer that draws the axis band at the top of
 * the drawing (CS_AXIS_HEIGHT_PX): the trace clock's name in the label
 * column, minor and labelled ticks chosen by CsTimeAxis, and the grid lines
 * of the labelled ticks down through the plots.
 */
#pragma once

#include <cairo.h>

#include "cs-cpu-plot-painter-private.h"
#include "cs-text-cache-private.h"
#include "cs-time-axis.h"

G_BEGIN_DECLS

typedef struct {
  CsTextCache tick_texts;     /* tick labels */
  CsTextCache clock_texts;    /* the trace clock's name */
} CsAxisPainter;

void _cs_axis_painter_init            (CsAxisPainter     *self);
void _cs_axis_painter_clear           (CsAxisPainter     *self);
void _cs_axis_painter_context_changed (CsAxisPainter     *self);
void _cs_axis_painter_draw            (CsAxisPainter     *self,
                                       cairo_t           *cr,
                                       PangoContext      *context,
                                       const CsPlotFrame *frame,
                                       const CsTimeAxis  *axis,
                                       const char        *clock,
                                       double             plots_bottom);

G_END_DECLS
