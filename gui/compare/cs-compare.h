/* cs-compare.h: a second recording beside the window's, to compare.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"
#include "cs-timeline.h"
#include "cs-view-model.h"

G_BEGIN_DECLS

#define CS_TYPE_COMPARE (cs_compare_get_type ())
G_DECLARE_FINAL_TYPE (CsCompare, cs_compare, CS, COMPARE, GObject)

void        cs_compare_install             (GtkApplicationWindow *window,
                                            CsTimeline *timeline_a,
                                            CsViewModel *model);
CsCompare  *cs_compare_get_for             (GtkApplicationWindow *window);
void        cs_compare_open                (CsCompare  *self,
                                            GFile      *file);
void        cs_compare_close               (CsCompare  *self);
gboolean    cs_compare_is_active           (CsCompare  *self);
gboolean    cs_compare_is_loading          (CsCompare  *self);
CsTimeline *cs_compare_get_timeline        (CsCompare  *self);
CsDocument *cs_compare_get_document        (CsCompare  *self);
CsAnalysis *cs_compare_get_analysis        (CsCompare  *self);
const char *cs_compare_get_label           (CsCompare  *self,
                                            gboolean    b);
const char *cs_compare_get_error_message   (CsCompare  *self);
void        cs_compare_set_align_markers   (CsCompare  *self,
                                            gboolean    align_markers);
gboolean    cs_compare_get_align_markers   (CsCompare  *self);
gint64      cs_compare_get_origin_ns       (CsCompare  *self,
                                            gboolean    b);
GtkWindow  *cs_compare_show_stats          (CsCompare  *self);

G_END_DECLS
