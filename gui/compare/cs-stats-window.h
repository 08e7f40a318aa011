/* cs-stats-window.h: statistics of the span the user looks at.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

#define CS_TYPE_STATS_WINDOW (cs_stats_window_get_type ())
G_DECLARE_FINAL_TYPE (CsStatsWindow, cs_stats_window, CS, STATS_WINDOW, GtkWindow)

CsStatsWindow *cs_stats_window_new          (GtkWindow     *parent,
                                             CsAnalysis    *analysis);
const char    *cs_stats_window_get_text     (CsStatsWindow *self);
gboolean       cs_stats_window_is_busy      (CsStatsWindow *self);
void           cs_stats_window_stop         (CsStatsWindow *self);
GtkWidget     *cs_stats_window_get_stop_button (CsStatsWindow *self);
void           cs_stats_window_get_span     (CsStatsWindow *self,
                                             gint64        *begin_ns,
                                             gint64        *end_ns);

G_END_DECLS
