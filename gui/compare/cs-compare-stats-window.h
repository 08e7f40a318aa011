/* cs-compare-stats-window.h: the statistics of two recordings side by side.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-timeline.h"

G_BEGIN_DECLS

#define CS_TYPE_COMPARE_STATS_WINDOW (cs_compare_stats_window_get_type ())
G_DECLARE_FINAL_TYPE (CsCompareStatsWindow, cs_compare_stats_window, CS, COMPARE_STATS_WINDOW, GtkWindow)

CsCompareStatsWindow *cs_compare_stats_window_new        (GtkWindow            *parent,
                                                          CsTimeline           *timeline_a,
                                                          CsTimeline           *timeline_b);
void                  cs_compare_stats_window_set_visible_span (CsCompareStatsWindow *self,
                                                          gboolean              visible_span);
const char           *cs_compare_stats_window_get_text   (CsCompareStatsWindow *self);
gboolean              cs_compare_stats_window_is_busy    (CsCompareStatsWindow *self);

G_END_DECLS
