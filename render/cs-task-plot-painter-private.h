/* cs-task-plot-painter-private.h: draws the data of one task plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The part of CsTimelineRenderer that turns one task's intervals
 * (cs_document_get_task_intervals()) into pixels.  The renderer places the
 * plot (CS_PLOT_HEIGHT_PX high, over the time area of the frame) and draws
 * its background and label; this draws what the task did.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "cs-cpu-plot-painter-private.h"
#include "cs-task-timeline.h"

G_BEGIN_DECLS

/* Vertical layout of a task plot, pixels from its top; every state is
 * centred on the plot's middle row, so that the middle row always shows
 * what the task did there. */
#define CS_TASK_RUN_INSET_PX       5   /* running: a box, rows 5 .. 35 */
#define CS_TASK_RUNNABLE_INSET_PX  11  /* runnable: a hatched box, rows 11 .. 29 */
#define CS_TASK_BLOCKED_HEIGHT_PX  6   /* uninterruptible (D): a bar */
#define CS_TASK_SLEEP_HEIGHT_PX    2   /* sleeping (S) and others: a line */

typedef struct _CsTaskPlotPainter CsTaskPlotPainter;

CsTaskPlotPainter *_cs_task_plot_painter_new             (CsDocument        *document,
                                                          PangoContext      *context);
void               _cs_task_plot_painter_free            (CsTaskPlotPainter *self);
void               _cs_task_plot_painter_context_changed (CsTaskPlotPainter *self);
gboolean           _cs_task_plot_painter_draw            (CsTaskPlotPainter *self,
                                                          cairo_t           *cr,
                                                          const CsPlotFrame *frame,
                                                          gint32             pid,
                                                          double             y_px,
                                                          GError           **error);
gboolean           _cs_task_plot_painter_find_interval   (CsTaskPlotPainter *self,
                                                          gint32             pid,
                                                          gint64             ts_ns,
                                                          gint64             radius_ns,
                                                          CsTaskInterval    *interval,
                                                          gboolean          *found,
                                                          GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTaskPlotPainter, _cs_task_plot_painter_free)

G_END_DECLS
