/* cs-timeline-private.h: what cs-timeline.c shares with the files that
 * implement parts of CsTimeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-hover-text.h"
#include "cs-timeline.h"

G_BEGIN_DECLS

/**
 * CsTimelineMarkers:
 *
 * The marker state a #CsTimeline embeds; cs-timeline-markers.c owns it and
 * reaches the rest of the timeline through its public API only.
 */
typedef struct {
  gint64 ns[2];               /* indexed by CsMarker; CS_MARKER_UNSET */
  CsMarker active;

  /* A double-click's first click moved the active marker; its second
   * puts B there and undoes that move. */
  guint32 last_click_time_ms;
  double last_click_x;
  double last_click_y;
  gboolean undo_valid;
  CsMarker undo_marker;
  gint64 undo_ns;

  GtkWidget *context_menu;
} CsTimelineMarkers;

CsTimelineMarkers *_cs_timeline_get_markers          (CsTimeline         *self);

/* The other recordings' drawing, which cs-timeline-streams.c sets, holds
 * a reference on and drops (cs_timeline_set_streams()). */
CsStreamsRenderer **_cs_timeline_get_streams_slot    (CsTimeline         *self);

/**
 * CsTimelineA11y:
 *
 * What the timeline tells assistive technology and the keyboard cursor;
 * cs-timeline-a11y.c owns it (see there), cs-timeline-keys.c moves the
 * cursor and the focused plot.
 */
typedef struct {
  GPtrArray *plots;           /* CsTimelinePlotItem, the timeline's children,
                               * top to bottom: CPU plots, task plots,
                               * plugin rows */
  guint focused_plot;         /* index into the plots shown */
  gint64 cursor_ns;           /* CS_MARKER_UNSET: the middle of the view */
  char *selected_text;        /* the last event selected on the timeline */
  char *label;                /* as last set, to skip needless updates */
  char *description;
  guint update_id;            /* the idle that brings the above up to date */
} CsTimelineA11y;

CsTimelineA11y    *_cs_timeline_get_a11y             (CsTimeline         *self);
void               _cs_timeline_fill_viewport        (CsTimeline         *self,
                                                      CsViewport         *viewport);

/* cs-timeline-markers.c */
void               _cs_timeline_markers_class_init   (GtkWidgetClass     *widget_class,
                                                      guint               first_prop_id);
void               _cs_timeline_markers_init         (CsTimeline         *self);
void               _cs_timeline_markers_dispose      (CsTimeline         *self);
gboolean           _cs_timeline_markers_get_property (CsTimeline         *self,
                                                      guint               prop_id,
                                                      GValue             *value);
gboolean           _cs_timeline_markers_set_property (CsTimeline         *self,
                                                      guint               prop_id,
                                                      const GValue       *value);
void               _cs_timeline_markers_reset        (CsTimeline         *self);
void               _cs_timeline_markers_click        (CsTimeline         *self,
                                                      guint32             time_ms,
                                                      double              x_px,
                                                      double              y_px,
                                                      GdkModifierType     modifiers);
void               _cs_timeline_markers_snapshot     (CsTimeline         *self,
                                                      GtkSnapshot        *snapshot);

void               _cs_timeline_style_init           (CsTimeline         *self);
void               _cs_timeline_style_apply          (CsTimeline         *self);
/* cs-timeline-a11y.c */
void               _cs_timeline_a11y_class_init      (GtkWidgetClass     *widget_class);
void               _cs_timeline_a11y_init            (CsTimeline         *self);
void               _cs_timeline_a11y_dispose         (CsTimeline         *self);
void               _cs_timeline_a11y_reset           (CsTimeline         *self);
void               _cs_timeline_a11y_queue_update    (CsTimeline         *self);
void               _cs_timeline_a11y_allocate        (CsTimeline         *self,
                                                      int                 width_px);
void               _cs_timeline_a11y_snapshot        (CsTimeline         *self,
                                                      GtkSnapshot        *snapshot);
gboolean           _cs_timeline_get_plot_area        (CsTimeline         *self,
                                                      guint               index,
                                                      double             *y_px,
                                                      double             *height_px);

/* cs-timeline.c and cs-timeline-streams.c: other recordings on the axis */
CsStreamsRenderer *_cs_timeline_get_streams          (CsTimeline         *self);
double             _cs_timeline_get_plots_y          (CsTimeline         *self);
char              *_cs_timeline_streams_hover        (CsTimeline         *self,
                                                      double              x_px,
                                                      double              y_px);
CsStream          *_cs_timeline_streams_other_hit    (CsTimeline         *self,
                                                      double              x_px,
                                                      double              y_px,
                                                      CsHit              *hit,
                                                      gint64             *axis_ns);
gboolean           _cs_timeline_streams_click        (CsTimeline         *self,
                                                      double              x_px,
                                                      double              y_px,
                                                      guint               n_press);
void               _cs_timeline_streams_set_color_scheme (CsTimeline   *self,
                                                      CsColorScheme       scheme);
gboolean           _cs_timeline_streams_popup        (CsTimeline         *self,
                                                      double              x_px,
                                                      double              y_px);

/* cs-timeline-keys.c */
void               _cs_timeline_keys_class_init      (GtkWidgetClass     *widget_class);
void               _cs_timeline_keys_update_actions  (CsTimeline         *self);

G_END_DECLS
