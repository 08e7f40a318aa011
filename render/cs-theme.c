/* cs-theme.c: the timeline's fixed colours, light or dark.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-theme.h"

/* The light scheme: the colours the timeline always had (GNOME's light
 * greys).  The dark one mirrors it on libadwaita's dark greys (#1e1e1e
 * page), at WCAG contrasts no lower than the light scheme's: on the plot
 * background text 12:1, dim text 6.1:1, event ticks 9.4:1 (light: 9.8,
 * 4.3 and 7.7).  tests/render/test-palette.c checks them. */
static const CsTheme themes[] = {
  [CS_COLOR_SCHEME_LIGHT] = {
    .page            = { 1.0, 1.0, 1.0 },
    .axis            = { 0.965, 0.961, 0.957 },
    .plot            = { 0.953, 0.953, 0.953 },
    .grid            = { 0.878, 0.878, 0.878 },
    .rule            = { 0.753, 0.749, 0.737 },
    .text            = { 0.239, 0.239, 0.239 },
    .dim_text        = { 0.45, 0.45, 0.45 },
    .note_background = { 1.0, 1.0, 1.0 },
    .event           = { 0.30, 0.30, 0.30 },
    .filtered        = { 0.78, 0.78, 0.78 },
    .density         = { 0.66, 0.66, 0.66 },
    .density_tick    = { 0.31, 0.31, 0.31 },
    .other_state     = { 0.369, 0.361, 0.392 },   /* #5e5c64 */
  },
  [CS_COLOR_SCHEME_DARK] = {
    .page            = { 0.118, 0.118, 0.118 },   /* #1e1e1e */
    .axis            = { 0.141, 0.141, 0.141 },   /* #242424 */
    .plot            = { 0.165, 0.165, 0.165 },   /* #2a2a2a */
    .grid            = { 0.255, 0.255, 0.255 },
    .rule            = { 0.40, 0.40, 0.40 },
    .text            = { 0.92, 0.92, 0.92 },
    .dim_text        = { 0.66, 0.66, 0.66 },
    .note_background = { 0.118, 0.118, 0.118 },
    .event           = { 0.82, 0.82, 0.82 },
    .filtered        = { 0.36, 0.36, 0.36 },
    .density         = { 0.45, 0.45, 0.45 },
    .density_tick    = { 0.82, 0.82, 0.82 },
    .other_state     = { 0.753, 0.749, 0.737 },   /* #c0bfbc */
  },
};

/**
 * cs_theme_get:
 * @scheme: light or dark
 *
 * Returns: (transfer none): the colours of @scheme, static; any thread
 */
const CsTheme *
cs_theme_get (CsColorScheme scheme)
{
  if ((guint) scheme >= G_N_ELEMENTS (themes))
    scheme = CS_COLOR_SCHEME_LIGHT;
  return &themes[scheme];
}
