/* cs-filter-bar.h: the bar that says an event filter is on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

#define CS_TYPE_FILTER_BAR (cs_filter_bar_get_type ())
G_DECLARE_FINAL_TYPE (CsFilterBar, cs_filter_bar, CS, FILTER_BAR, GtkWidget)

GtkWidget  *cs_filter_bar_new            (void);
void        cs_filter_bar_set_analysis   (CsFilterBar *self,
                                          CsAnalysis  *analysis);
const char *cs_filter_bar_get_text       (CsFilterBar *self);
GtkWidget  *cs_filter_bar_get_cancel_button (CsFilterBar *self);
GtkWidget  *cs_filter_bar_get_progress_bar (CsFilterBar *self);

G_END_DECLS
