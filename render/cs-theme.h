/* cs-theme.h: the timeline's fixed colours, light or dark.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The renderer draws on a light or a dark page (the window follows the
 * desktop's style; exports are always light).  Only what surrounds the data
 * changes with the scheme: page, axis, plot background, grid, text, event
 * ticks, density bars and the dark grey of the "other" task state.  Task
 * and CPU colours (cs-palette.h) stay the
 * same in both, so a task keeps its colour in every view and export: their
 * OKLab lightness (0.58 .. 0.83) is far from both backgrounds, and they
 * differ in lightness as well as hue, which keeps them apart for people
 * who do not see some hues.
 */
#pragma once

#include "cs-palette.h"

G_BEGIN_DECLS

/**
 * CsColorScheme:
 * @CS_COLOR_SCHEME_LIGHT: dark text on a white page (the default, and
 *   always the scheme of exports)
 * @CS_COLOR_SCHEME_DARK: light text on a dark page, for a desktop in dark
 *   style
 *
 * Which page the timeline is drawn on.
 */
typedef enum {
  CS_COLOR_SCHEME_LIGHT,
  CS_COLOR_SCHEME_DARK,
} CsColorScheme;

/**
 * CsTheme:
 * @page: behind everything (and the idle parts of nothing: see @plot)
 * @axis: the time axis band
 * @plot: a plot's background; idle time is drawn as this absence
 * @grid: grid lines of labelled ticks, plugin rows' guides
 * @rule: the axis's bottom rule and its ticks
 * @text: labels
 * @dim_text: secondary labels (pids, notes, minor tick labels)
 * @note_background: the patch under a note over a plot (drawn at 80 %)
 * @event: event ticks at the bottom of a CPU plot
 * @filtered: ticks of events a filter hides, while shown dimmed
 * @density: zoomed-out event density bars without sched_switch
 * @density_tick: the mark under every column with events
 * @other_state: a task plot's line for a state other than running,
 *   runnable, sleeping or uninterruptible (cs_palette_get_state_color()'s
 *   dark grey, lighter on the dark page)
 *
 * The colours of one scheme, as cairo takes them.
 */
typedef struct {
  CsColor page;
  CsColor axis;
  CsColor plot;
  CsColor grid;
  CsColor rule;
  CsColor text;
  CsColor dim_text;
  CsColor note_background;
  CsColor event;
  CsColor filtered;
  CsColor density;
  CsColor density_tick;
  CsColor other_state;
} CsTheme;

const CsTheme *cs_theme_get (CsColorScheme scheme);

G_END_DECLS
