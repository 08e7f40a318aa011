/* cs-axis-painter.c: draws the time axis over the plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Ticks come from CsTimeAxis (cs-time-axis.c); labels are shaped once and
 * kept in text caches, since scrolling keeps most of them from frame to
 * frame.
 */
#include "cs-axis-painter-private.h"

#include <math.h>

#include <pango/pangocairo.h>

#include "cs-text-runs-private.h"
#include "cs-theme-private.h"

#define MINOR_TICK_PX        4
#define MAJOR_TICK_PX        9
#define LABEL_PAD_PX         3
#define AXIS_FONT            "Sans 8"

/* The clock's name is ellipsized to the label column. */
void
_cs_axis_painter_init (CsAxisPainter *self)
{
  _cs_text_cache_init (&self->tick_texts, AXIS_FONT, -1);
  _cs_text_cache_init (&self->clock_texts, AXIS_FONT, CS_LABEL_WIDTH_PX - 8);
}

void
_cs_axis_painter_clear (CsAxisPainter *self)
{
  _cs_text_cache_free (&self->tick_texts);
  _cs_text_cache_free (&self->clock_texts);
}

/* The Pango context's font options or transform changed. */
void
_cs_axis_painter_context_changed (CsAxisPainter *self)
{
  _cs_text_cache_clear (&self->tick_texts);
  _cs_text_cache_clear (&self->clock_texts);
}

/* The tick after @tick, or G_MAXINT64 (which ends the loops) where it
 * would pass the last time a gint64 holds: a damaged recording's span can
 * reach it. */
static inline gint64
next_tick (gint64 tick,
           gint64 step_ns)
{
  gint64 next;

  if (step_ns <= 0 || __builtin_add_overflow (tick, step_ns, &next))
    return G_MAXINT64;
  return next;
}

/**
 * _cs_axis_painter_draw:
 * @self: the axis painter
 * @cr: where to draw, in pixels
 * @context: the renderer's Pango context, updated for @cr
 * @frame: the frame's geometry
 * @axis: the ticks for @frame
 * @clock: (nullable): the trace clock's name, shown in the label column
 * @plots_bottom: where the plots end, px from the top: grid lines go down to it
 *
 * Draws the axis band and the grid lines of the labelled ticks.
 */
void
_cs_axis_painter_draw (CsAxisPainter     *self,
                       cairo_t           *cr,
                       PangoContext      *context,
                       const CsPlotFrame *frame,
                       const CsTimeAxis  *axis,
                       const char        *clock,
                       double             plots_bottom)
{
  double right = frame->time_x + frame->time_width;
  double last_label_end = -G_MAXDOUBLE;
  char label[CS_TIME_AXIS_LABEL_SIZE];
  gint64 tick;

  _cs_theme_set_source (cr, &frame->theme->axis);
  cairo_rectangle (cr, 0, 0, frame->time_x + frame->time_width, CS_AXIS_HEIGHT_PX);
  cairo_fill (cr);
  _cs_theme_set_source (cr, &frame->theme->rule);
  cairo_rectangle (cr, 0, CS_AXIS_HEIGHT_PX - 1, frame->time_x + frame->time_width, 1);
  cairo_fill (cr);

  if (clock != NULL)
    {
      PangoLayout *layout = _cs_text_cache_get (&self->clock_texts, context, clock);
      int height;

      pango_layout_get_pixel_size (layout, NULL, &height);
      _cs_theme_set_source (cr, &frame->theme->dim_text);
      cairo_move_to (cr, 6, floor ((CS_AXIS_HEIGHT_PX - height) / 2.0));
      _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
    }

  if (frame->time_width <= 0.0)
    return;

  /* Minor ticks. */
  _cs_theme_set_source (cr, &frame->theme->dim_text);
  /* One step before the first label, or the start of time when a damaged
   * recording's span begins near -2^63 ns. */
  if (__builtin_sub_overflow (axis->first_tick_ns, axis->step_ns, &tick))
    tick = G_MININT64;
  for (; tick < frame->end_ns; tick = next_tick (tick, axis->minor_step_ns))
    {
      double x = floor (_cs_plot_frame_ns_to_x (frame, tick));

      if (tick >= frame->begin_ns && x < right)
        cairo_rectangle (cr, x, CS_AXIS_HEIGHT_PX - MINOR_TICK_PX, 1, MINOR_TICK_PX);
    }
  cairo_fill (cr);

  /* Labelled ticks, with grid lines through the plots. */
  for (tick = axis->first_tick_ns; tick < frame->end_ns; tick = next_tick (tick, axis->step_ns))
    {
      double x = floor (_cs_plot_frame_ns_to_x (frame, tick));

      if (x >= right)
        break;
      cairo_rectangle (cr, x, CS_AXIS_HEIGHT_PX - MAJOR_TICK_PX, 1, MAJOR_TICK_PX);
    }
  cairo_fill (cr);

  _cs_theme_set_source (cr, &frame->theme->grid);
  for (tick = axis->first_tick_ns; tick < frame->end_ns; tick = next_tick (tick, axis->step_ns))
    {
      double x = floor (_cs_plot_frame_ns_to_x (frame, tick));

      if (x >= right)
        break;
      cairo_rectangle (cr, x, CS_AXIS_HEIGHT_PX, 1, plots_bottom - CS_AXIS_HEIGHT_PX);
    }
  cairo_fill (cr);

  _cs_theme_set_source (cr, &frame->theme->text);
  for (tick = axis->first_tick_ns; tick < frame->end_ns; tick = next_tick (tick, axis->step_ns))
    {
      double x = floor (_cs_plot_frame_ns_to_x (frame, tick)) + LABEL_PAD_PX;
      PangoLayout *layout;
      int width, height;

      if (x >= right)
        break;
      if (x < last_label_end + 2 * LABEL_PAD_PX)
        continue;  /* a long base label may cover the next tick */
      cs_time_axis_format_label (axis, tick, label, sizeof label);
      layout = _cs_text_cache_get (&self->tick_texts, context, label);
      pango_layout_get_pixel_size (layout, &width, &height);
      if (x + width > right)
        break;
      cairo_move_to (cr, x, floor ((CS_AXIS_HEIGHT_PX - MAJOR_TICK_PX - height) / 2.0) + 1);
      _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
      last_label_end = x + width;
    }
}
