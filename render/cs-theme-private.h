/* cs-theme-private.h: the timeline's fixed colours, shared by the renderer
 * and the painters of its parts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A light theme; idle is the plot background.
 */
#pragma once

#include "cs-palette.h"

static const CsColor cs_theme_page_color     = { 1.0, 1.0, 1.0 };
static const CsColor cs_theme_axis_color     = { 0.965, 0.961, 0.957 };
static const CsColor cs_theme_plot_color     = { 0.953, 0.953, 0.953 };
static const CsColor cs_theme_grid_color     = { 0.878, 0.878, 0.878 };
static const CsColor cs_theme_rule_color     = { 0.753, 0.749, 0.737 };
static const CsColor cs_theme_text_color     = { 0.239, 0.239, 0.239 };
static const CsColor cs_theme_dim_text_color = { 0.45, 0.45, 0.45 };

static inline void
_cs_theme_set_source (cairo_t *cr, const CsColor *color)
{
  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
}
