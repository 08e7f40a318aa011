/* cs-timeline.h: the zoomable CPU plots of one recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-document.h"
#include "cs-markers.h"
#include "cs-streams-renderer.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

#define CS_TYPE_TIMELINE (cs_timeline_get_type ())
G_DECLARE_FINAL_TYPE (CsTimeline, cs_timeline, CS, TIMELINE, GtkWidget)

GtkWidget          *cs_timeline_new            (void);
CsDocument         *cs_timeline_get_document   (CsTimeline *self);
void                cs_timeline_set_document   (CsTimeline *self,
                                                CsDocument *document);
CsTimelineRenderer *cs_timeline_get_renderer   (CsTimeline *self);
void                cs_timeline_set_streams    (CsTimeline        *self,
                                                CsStreamsRenderer *streams);
CsStreamsRenderer  *cs_timeline_get_streams    (CsTimeline        *self);
gint64              cs_timeline_get_begin_ns   (CsTimeline *self);
gint64              cs_timeline_get_end_ns     (CsTimeline *self);
void                cs_timeline_set_span       (CsTimeline *self,
                                                gint64      begin_ns,
                                                gint64      end_ns);
void                cs_timeline_zoom           (CsTimeline *self,
                                                double      factor,
                                                double      anchor_x_px);
void                cs_timeline_pan            (CsTimeline *self,
                                                double      fraction);
void                cs_timeline_zoom_to_fit    (CsTimeline *self);
const char         *cs_timeline_get_hover_text (CsTimeline *self);
void                cs_timeline_hover_at       (CsTimeline *self,
                                                double      x_px,
                                                double      y_px);
gint64              cs_timeline_get_marker_ns  (CsTimeline *self,
                                                CsMarker    marker);
void                cs_timeline_set_marker_ns  (CsTimeline *self,
                                                CsMarker    marker,
                                                gint64      ts_ns);
CsMarker            cs_timeline_get_active_marker (CsTimeline *self);
void                cs_timeline_set_active_marker (CsTimeline *self,
                                                CsMarker    marker);
void                cs_timeline_center_on      (CsTimeline *self,
                                                gint64      ts_ns);
void                cs_timeline_show_time      (CsTimeline *self,
                                                gint64      ts_ns);
void                cs_timeline_click_at       (CsTimeline *self,
                                                double      x_px,
                                                double      y_px,
                                                guint       n_press,
                                                GdkModifierType modifiers);


/* cs-timeline-a11y.c: the plots as assistive technology sees them, the
 * keyboard cursor */
guint               cs_timeline_get_n_plots    (CsTimeline *self);
char               *cs_timeline_dup_plot_name  (CsTimeline *self,
                                                guint       index);
guint               cs_timeline_get_focused_plot (CsTimeline *self);
void                cs_timeline_set_focused_plot (CsTimeline *self,
                                                guint       index);
gint64              cs_timeline_get_cursor_ns  (CsTimeline *self);
void                cs_timeline_set_cursor_ns  (CsTimeline *self,
                                                gint64      ts_ns);
void                cs_timeline_set_selected_event (CsTimeline    *self,
                                                const CsEvent *event);

/* cs-timeline-keys.c */
gboolean            cs_timeline_select_at_cursor (CsTimeline     *self,
                                                GdkModifierType modifiers);

G_END_DECLS
