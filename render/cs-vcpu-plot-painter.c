/* cs-vcpu-plot-painter.c: the host's view of a guest vCPU, one pixel
 * column per bin of its timeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <math.h>

#include "cs-vcpu-plot-painter.h"

#define BAND_PX 2.0

/**
 * cs_vcpu_plot_get_color:
 * @timeline: the timeline the state comes from (it names the reasons)
 * @state: a state other than %CS_VCPU_STATE_UNKNOWN
 * @reason: with %CS_VCPU_STATE_EXIT, the reason index (-1: unknown)
 * @color: (out caller-allocates): the colour the strip draws it in
 *
 * The colours of cs_vcpu_plot_paint(), for legends and hover text: in the
 * guest #2ec27e, not running #9a9996 (the grey of a sleeping task), an
 * exit its reason's colour or #5e5c64 when unknown.  Any thread.
 */
void
cs_vcpu_plot_get_color (CsVcpuTimeline *timeline,
                        CsVcpuState     state,
                        gint            reason,
                        CsColor        *color)
{
  const char *name;

  g_return_if_fail (timeline != NULL);
  g_return_if_fail (color != NULL);
  switch (state)
    {
    case CS_VCPU_STATE_IN_GUEST:
      *color = (CsColor) { 0.180, 0.761, 0.494 };   /* #2ec27e */
      return;
    case CS_VCPU_STATE_NOT_RUNNING:
      *color = (CsColor) { 0.604, 0.600, 0.588 };   /* #9a9996 */
      return;
    case CS_VCPU_STATE_EXIT:
      name = cs_vcpu_timeline_get_reason_name (timeline, reason);
      if (name != NULL)
        {
          cs_palette_get_reason_color (name, color);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case CS_VCPU_STATE_UNKNOWN:
    default:
      *color = (CsColor) { 0.369, 0.361, 0.392 };   /* #5e5c64 */
      return;
    }
}

/* The main state of a bin: the one with most time, UNKNOWN when none. */
static CsVcpuState
main_state (const CsVcpuBin *bin)
{
  CsVcpuState best = CS_VCPU_STATE_UNKNOWN;
  gint64 best_ns = 0;

  for (guint s = CS_VCPU_STATE_IN_GUEST; s < CS_VCPU_N_STATES; s++)
    if (bin->state_ns[s] > best_ns)
      best = s, best_ns = bin->state_ns[s];
  return best_ns > bin->state_ns[CS_VCPU_STATE_UNKNOWN] ? best : CS_VCPU_STATE_UNKNOWN;
}

/* Columns [@from, @to) filled with one shape in one colour. */
static void
fill_columns (cairo_t *cr, const CsColor *color, double x, double column_px, guint from,
              guint to, double top, double height)
{
  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
  cairo_rectangle (cr, x + from * column_px, top, (to - from) * column_px, height);
  cairo_fill (cr);
}

/* The rows a state's shape takes in a strip of @height at @y. */
static void
shape_rows (CsVcpuState state, double y, double height, double *top, double *rows)
{
  switch (state)
    {
    case CS_VCPU_STATE_IN_GUEST:
      *top = y + height / 8.0;
      *rows = height * 3.0 / 4.0;
      break;
    case CS_VCPU_STATE_EXIT:
      *top = y + height / 4.0;
      *rows = height / 2.0;
      break;
    default:
      *top = y + floor (height / 2.0) - BAND_PX / 2.0;
      *rows = BAND_PX;
      break;
    }
}

/**
 * cs_vcpu_plot_paint:
 * @cr: where to draw; its state (source, path, clip) is saved and restored
 * @timeline: the host's view of the vCPU threads
 * @thread: the vCPU's thread index in @timeline
 * @begin_ns: the left edge, ns of the host's clock
 * @end_ns: the right edge (exclusive), > @begin_ns
 * @x_px: the strip's left, in @cr's user units (pixels)
 * @y_px: its top
 * @width_px: its width; one column per pixel, the last one partial
 * @height_px: its height
 *
 * Draws what @thread did in [@begin_ns, @end_ns) into the rectangle, as
 * the file's comment describes; draws nothing outside it and no
 * background.  Cost: cs_vcpu_timeline_summarize() with one bin per pixel
 * column, and at most one rectangle per column and shape.  The main
 * thread may call it per frame (the timeline is immutable).
 */
void
cs_vcpu_plot_paint (cairo_t        *cr,
                    CsVcpuTimeline *timeline,
                    guint           thread,
                    gint64          begin_ns,
                    gint64          end_ns,
                    double          x_px,
                    double          y_px,
                    double          width_px,
                    double          height_px)
{
  g_autofree CsVcpuBin *bins = NULL;
  guint n;
  double column_px;
  guint run_start = 0;
  CsVcpuState run_state = CS_VCPU_STATE_UNKNOWN;
  gint run_reason = -1;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (timeline != NULL);
  g_return_if_fail (thread < cs_vcpu_timeline_get_n_threads (timeline));
  if (end_ns <= begin_ns || width_px < 1.0 || height_px < 1.0)
    return;
  n = (guint) MIN (ceil (width_px), 65536.0);
  column_px = width_px / n;
  bins = g_new (CsVcpuBin, n);
  cs_vcpu_timeline_summarize (timeline, thread, begin_ns, end_ns, n, bins);

  cairo_save (cr);
  cairo_rectangle (cr, x_px, y_px, width_px, height_px);
  cairo_clip (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);

  /* Main shapes, one rectangle per run of equal columns. */
  for (guint c = 0; c <= n; c++)
    {
      CsVcpuState state = c < n ? main_state (&bins[c]) : CS_VCPU_STATE_UNKNOWN;
      gint reason = state == CS_VCPU_STATE_EXIT ? bins[c].reason : -1;

      if (c < n && state == run_state && reason == run_reason)
        continue;
      if (c > 0 && run_state != CS_VCPU_STATE_UNKNOWN)
        {
          CsColor color;
          double top, rows;

          cs_vcpu_plot_get_color (timeline, run_state, run_reason, &color);
          shape_rows (run_state, y_px, height_px, &top, &rows);
          fill_columns (cr, &color, x_px, column_px, run_start, c, top, rows);
        }
      run_start = c;
      run_state = state;
      run_reason = reason;
    }

  /* Bands: the vCPU was also in the guest, or also not running. */
  for (guint k = 0; k < 2; k++)
    {
      CsVcpuState band = k == 0 ? CS_VCPU_STATE_IN_GUEST : CS_VCPU_STATE_NOT_RUNNING;
      double top = k == 0 ? y_px : y_px + height_px - BAND_PX;
      CsColor color;
      gboolean open = FALSE;

      cs_vcpu_plot_get_color (timeline, band, -1, &color);
      for (guint c = 0; c <= n; c++)
        {
          gboolean on = c < n && bins[c].state_ns[band] > 0 && main_state (&bins[c]) != band;

          if (on && !open)
            run_start = c;
          else if (!on && open)
            fill_columns (cr, &color, x_px, column_px, run_start, c, top, BAND_PX);
          open = on;
        }
    }
  cairo_restore (cr);
}
