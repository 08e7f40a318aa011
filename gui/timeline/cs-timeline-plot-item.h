/* cs-timeline-plot-item.h: one plot of a CsTimeline, as assistive
 * technology sees it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_TIMELINE_PLOT_ITEM (cs_timeline_plot_item_get_type ())
G_DECLARE_FINAL_TYPE (CsTimelinePlotItem, cs_timeline_plot_item, CS, TIMELINE_PLOT_ITEM, GtkWidget)

GtkWidget  *cs_timeline_plot_item_new      (void);
const char *cs_timeline_plot_item_get_name (CsTimelinePlotItem *self);
void        cs_timeline_plot_item_set_name (CsTimelinePlotItem *self,
                                            const char         *name);

G_END_DECLS
