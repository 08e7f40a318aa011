/* cs-timeline-style.c: the timeline follows the desktop's light or dark
 * style.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * AdwStyleManager:dark (which honours the color-scheme setting, see
 * cs-application.c) chooses the renderer's CsColorScheme; render/ never
 * sees GTK.  Exports draw light whatever it says (cs_export_draw()).
 */
#include "config.h"

#include <adwaita.h>

#include "cs-timeline-private.h"

/**
 * _cs_timeline_style_apply:
 * @self: a #CsTimeline
 *
 * Gives the timeline's renderer, if any, the scheme of the desktop's style
 * now, and redraws.  Main thread.
 */
void
_cs_timeline_style_apply (CsTimeline *self)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (renderer == NULL)
    return;
  cs_timeline_renderer_set_color_scheme (renderer, dark ? CS_COLOR_SCHEME_DARK : CS_COLOR_SCHEME_LIGHT);
  _cs_timeline_streams_set_color_scheme (self, dark ? CS_COLOR_SCHEME_DARK : CS_COLOR_SCHEME_LIGHT);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * _cs_timeline_style_init:
 * @self: a #CsTimeline being initialised
 *
 * Follows the style manager for the life of @self.
 */
void
_cs_timeline_style_init (CsTimeline *self)
{
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (_cs_timeline_style_apply), self, G_CONNECT_SWAPPED);
}
