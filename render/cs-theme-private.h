/* cs-theme-private.h: setting a theme colour as cairo's source.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The colours themselves are in cs-theme.h; painters take them from their
 * frame (CsPlotFrame.theme), set by the renderer for its colour scheme.
 */
#pragma once

#include <cairo.h>

#include "cs-theme.h"

static inline void
_cs_theme_set_source (cairo_t *cr, const CsColor *color)
{
  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
}
