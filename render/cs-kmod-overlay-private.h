/* cs-kmod-overlay-private.h: the kernel module's events over CPU and task
 * plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The part of CsTimelineRenderer that draws what kmod/ recorded
 * (cs-kmod-sections.h): irqs-off and preempt-off sections as bands over
 * their CPU's plot, and the module's measured wakeup latencies as brackets
 * over the woken task's plot; and finds them under the pointer.  A
 * recording without the module's events costs one check at creation.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "cs-cpu-plot-painter-private.h"
#include "cs-kmod-sections.h"

G_BEGIN_DECLS

/* Rows of a module wakeup latency's bracket on a task plot, from its top:
 * above the running boxes (CS_TASK_RUN_INSET_PX), down into them at both
 * ends. */
#define CS_KMOD_BRACKET_TOP_PX     1
#define CS_KMOD_BRACKET_BOTTOM_PX  12

/* The opaque strip along the top of a section's band, px, and the tab
 * hanging from its right end with the kind and length where they fit. */
#define CS_KMOD_BAND_STRIP_PX      4
#define CS_KMOD_BAND_TAB_PX        13

typedef struct _CsKmodOverlay CsKmodOverlay;

CsKmodOverlay *_cs_kmod_overlay_new             (CsDocument          *document,
                                                 PangoContext        *context);
void           _cs_kmod_overlay_free            (CsKmodOverlay       *self);
void           _cs_kmod_overlay_context_changed (CsKmodOverlay       *self);
gboolean       _cs_kmod_overlay_draw_sections   (CsKmodOverlay       *self,
                                                 cairo_t             *cr,
                                                 const CsPlotFrame   *frame,
                                                 guint                cpu,
                                                 double               y_px,
                                                 GError             **error);
gboolean       _cs_kmod_overlay_draw_latencies  (CsKmodOverlay       *self,
                                                 cairo_t             *cr,
                                                 const CsPlotFrame   *frame,
                                                 gint32               pid,
                                                 double               y_px,
                                                 GError             **error);
gboolean       _cs_kmod_overlay_find_section    (CsKmodOverlay       *self,
                                                 guint                cpu,
                                                 gint64               ts_ns,
                                                 gint64               radius_ns,
                                                 CsKmodSection       *section,
                                                 gboolean            *found,
                                                 GError             **error);
gboolean       _cs_kmod_overlay_find_latency    (CsKmodOverlay       *self,
                                                 gint32               pid,
                                                 gint64               ts_ns,
                                                 gint64               radius_ns,
                                                 CsKmodWakeupLatency *latency,
                                                 gboolean            *found,
                                                 GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsKmodOverlay, _cs_kmod_overlay_free)

G_END_DECLS
