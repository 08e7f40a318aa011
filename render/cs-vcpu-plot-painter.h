/* cs-vcpu-plot-painter.h: draws the host's view of a guest vCPU as a strip.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For a KVM guest's vCPU plot (issue 25): what the host thread that runs
 * the vCPU did, from a #CsVcpuTimeline, painted into a rectangle with
 * cairo (no GTK).  One pixel column is one bin of
 * cs_vcpu_timeline_summarize(), so a strip costs the same at every zoom.
 * Each column draws the state the vCPU spent most of the column in,
 * centred on the strip's middle row as task plots do:
 *
 *   in the guest     a box over the whole height but a 1/8 inset, green
 *   exit             a box over the middle half, in the colour of the
 *                    column's main exit reason (cs_palette_get_reason_color());
 *                    dark grey when the reason is unknown
 *   not running      a 2-pixel grey line on the middle row
 *   unknown          nothing (the background shows)
 *
 * A column where the vCPU was also in the guest, or also not running, but
 * less than in its main state gets a 2-pixel band in that state's colour
 * along the top (in the guest) or the bottom (not running) of the strip,
 * so that short entries stay visible when zoomed out.  Time outside the
 * host's recording is left undrawn.
 *
 * Use: build the timeline once per host recording (cs_vcpu_timeline_new(),
 * off the main thread: it reads the whole host recording), then call
 * cs_vcpu_plot_paint() per frame with the visible range in ns of the
 * host's clock.  A view whose axis is another clock (the guest's own)
 * converts its range first.  What is under the pointer:
 * cs_vcpu_timeline_state_at() and cs_vcpu_timeline_get_reason_name().
 */
#pragma once

#include <cairo.h>

#include "cs-palette.h"
#include "cs-vcpu-timeline.h"

G_BEGIN_DECLS

void cs_vcpu_plot_get_color (CsVcpuTimeline *timeline,
                             CsVcpuState     state,
                             gint            reason,
                             CsColor        *color);
void cs_vcpu_plot_paint     (cairo_t        *cr,
                             CsVcpuTimeline *timeline,
                             guint           thread,
                             gint64          begin_ns,
                             gint64          end_ns,
                             double          x_px,
                             double          y_px,
                             double          width_px,
                             double          height_px);

G_END_DECLS
