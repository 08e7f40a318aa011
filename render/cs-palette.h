/* cs-palette.h: stable, distinguishable colours for tasks, CPUs and task
 * states.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task's colour depends only on its pid, so the same thread has the same
 * colour in every view, every export and every session.  Colours are chosen
 * in the OKLCh colour space (perceptual lightness, chroma and hue), so that
 * no hue looks brighter or louder than another on the light background the
 * timeline is drawn on.  The idle task (pid 0) has no colour: idle is drawn
 * as absence.
 *
 * Task plots colour a task's running time by the CPU it ran on, so that
 * migrations show: CPU colours are darker and more saturated than task
 * colours, and the states a task waits in (runnable, sleeping,
 * uninterruptible) have fixed colours of their own.
 */
#pragma once

#include <glib.h>

#include "cs-task-timeline.h"

G_BEGIN_DECLS

/**
 * CsColor:
 * @red: sRGB red, 0.0 .. 1.0 (gamma-encoded, what cairo_set_source_rgb() takes)
 * @green: sRGB green, 0.0 .. 1.0
 * @blue: sRGB blue, 0.0 .. 1.0
 *
 * An opaque colour, in the components cairo expects.
 */
typedef struct {
  double red;
  double green;
  double blue;
} CsColor;

gboolean cs_palette_get_task_color (gint32         pid,
                                    CsColor       *color);
void     cs_palette_get_cpu_color  (guint          cpu,
                                    CsColor       *color);
gboolean cs_palette_get_state_color (CsTaskState   state,
                                    CsColor       *color);
void     cs_palette_get_text_color (const CsColor *background,
                                    CsColor       *text);
void     cs_palette_get_reason_color (const char  *reason,
                                    CsColor       *color);
guint32  cs_color_to_rgb24         (const CsColor *color);

G_END_DECLS
