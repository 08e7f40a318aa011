/* cs-timeline.c: the zoomable CPU plots of one recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A thin widget around CsTimelineRenderer: it owns the visible span
 * [begin_ns, end_ns) and turns input into changes of it.
 *
 *   Ctrl+scroll              zoom around the pointer
 *   keys (+ - 0 arrows Home End Enter): see cs-timeline-keys.c
 *   scroll                   pan (vertical scrolling goes to the enclosing
 *                            GtkScrolledWindow when the plots do not fit)
 *   primary drag             select a range, zoom to it on release
 *   middle or Shift+drag     pan
 *   click, double-click, a, b, m, right click: markers and the context
 *                            menu, see cs-timeline-markers.c
 *
 * The widget is meant to sit in a GtkScrolledWindow with a vertical policy
 * of automatic and no horizontal scrolling: it is as tall as its plots and
 * always as wide as the scrolled window, handling horizontal movement itself.
 * Its plots are exposed to assistive technology as children that are
 * never drawn, see cs-timeline-a11y.c.
 */
#include "config.h"

#include <math.h>

#include "cs-timeline-private.h"

#define WHEEL_ZOOM_STEP    1.25    /* one notch of Ctrl+wheel */
#define PAN_STEP           0.10    /* one wheel notch */
#define MIN_SELECTION_PX   4.0
#define MIN_NS_PER_PX      0.05    /* deepest zoom: 20 px per ns */
#define EMPTY_SPAN_NS      G_GINT64_CONSTANT (1000000000)

typedef enum {
  DRAG_NONE,
  DRAG_SELECT,
  DRAG_PAN,
} DragMode;

struct _CsTimeline
{
  GtkWidget parent_instance;

  /* owned */
  CsDocument *document;
  CsTimelineRenderer *renderer;
  char *hover_text;
  gint64 begin_ns;
  gint64 end_ns;

  DragMode drag_mode;
  double drag_start_x;
  double drag_x;
  gint64 drag_start_begin_ns;

  gboolean pointer_inside;
  double pointer_x;
  double pointer_y;

  guint drag_button;
  GdkModifierType drag_modifiers;

  CsTimelineMarkers markers;
  CsTimelineA11y a11y;
  CsStreamsRenderer *streams;   /* owned by cs-timeline-streams.c, or NULL */

  gboolean draw_error_reported;
  gboolean first_frame_drawn;   /* of this document: see first_paint_cb() */
};

G_DEFINE_FINAL_TYPE (CsTimeline, cs_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_BEGIN_NS,
  PROP_END_NS,
  PROP_HOVER_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

CsTimelineMarkers *
_cs_timeline_get_markers (CsTimeline *self)
{
  return &self->markers;
}

CsStreamsRenderer **
_cs_timeline_get_streams_slot (CsTimeline *self)
{
  return &self->streams;
}

CsTimelineA11y *
_cs_timeline_get_a11y (CsTimeline *self)
{
  return &self->a11y;
}

/* ------------------------------------------------------------------------ */
/* The recording's extent and the visible span                               */

static void
cs_timeline_get_extent (CsTimeline *self,
                        gint64     *begin_ns,
                        gint64     *end_ns)
{
  gint64 first_ns = 0, last_ns = 0;

  if (self->document != NULL && cs_document_get_n_events (self->document) > 0)
    {
      first_ns = cs_document_get_first_ns (self->document);
      last_ns = cs_document_get_last_ns (self->document);
    }

  if (_cs_timeline_get_streams (self) != NULL &&
      cs_stream_set_get_span (cs_streams_renderer_get_stream_set (_cs_timeline_get_streams (self)),
                              &first_ns, &last_ns))
    {
      *begin_ns = first_ns;
      *end_ns = last_ns + 1;
      return;
    }

  *begin_ns = first_ns;
  /* Half-open: the last event must be inside; an empty or single-instant
   * recording still gets a span to draw. */
  *end_ns = last_ns > first_ns ? last_ns + 1 : first_ns + EMPTY_SPAN_NS;
}

static int
cs_timeline_get_width_px (CsTimeline *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
}


/**
 * _cs_timeline_fill_viewport:
 * @self: a #CsTimeline
 * @viewport: (out caller-allocates): the visible span on the widget's size
 *
 * What the renderer draws and hit-tests: the span on the whole widget.
 */
void
_cs_timeline_fill_viewport (CsTimeline *self,
                            CsViewport *viewport)
{
  viewport->begin_ns = self->begin_ns;
  viewport->end_ns = self->end_ns;
  viewport->width_px = cs_timeline_get_width_px (self);
  viewport->height_px = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
}

/* The plots start right of the CPU label column: time maps onto the
 * renderer's time area, not the whole widget. */
static void
cs_timeline_get_time_area (CsTimeline *self,
                           double     *x_px,
                           double     *width_px)
{
  CsViewport viewport;

  _cs_timeline_fill_viewport (self, &viewport);
  if (self->renderer != NULL)
    cs_timeline_renderer_get_time_area (self->renderer, &viewport, x_px, width_px);
  else
    {
      *x_px = 0;
      *width_px = viewport.width_px;
    }
  *width_px = MAX (*width_px, 1.0);
}

static double
cs_timeline_ns_per_px (CsTimeline *self)
{
  double x0, width;

  cs_timeline_get_time_area (self, &x0, &width);
  return (double) (self->end_ns - self->begin_ns) / width;
}

static gint64
cs_timeline_x_to_ns (CsTimeline *self,
                     double      x_px)
{
  double x0, width;

  cs_timeline_get_time_area (self, &x0, &width);
  return self->begin_ns + (gint64) llround ((x_px - x0) * (self->end_ns - self->begin_ns) / width);
}


/**
 * cs_timeline_set_span:
 * @self: a #CsTimeline
 * @begin_ns: first visible time (trace clock)
 * @end_ns: end of the visible span, exclusive
 *
 * Shows [@begin_ns, @end_ns), clamped to the recording and to the deepest
 * zoom (a twentieth of a nanosecond per pixel).
 */
void
cs_timeline_set_span (CsTimeline *self,
                      gint64      begin_ns,
                      gint64      end_ns)
{
  gint64 extent_begin_ns, extent_end_ns, span_ns, min_span_ns, max_span_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));

  cs_timeline_get_extent (self, &extent_begin_ns, &extent_end_ns);
  max_span_ns = extent_end_ns - extent_begin_ns;
  min_span_ns = MIN (MAX ((gint64) ceil (cs_timeline_get_width_px (self) * MIN_NS_PER_PX), 1),
                     max_span_ns);

  if (end_ns < begin_ns)
    {
      gint64 tmp = begin_ns;
      begin_ns = end_ns;
      end_ns = tmp;
    }

  span_ns = CLAMP (end_ns - begin_ns, min_span_ns, max_span_ns);
  /* Shrinking or growing happens around the centre of the request. */
  begin_ns += ((end_ns - begin_ns) - span_ns) / 2;
  begin_ns = CLAMP (begin_ns, extent_begin_ns, extent_end_ns - span_ns);
  end_ns = begin_ns + span_ns;

  if (begin_ns == self->begin_ns && end_ns == self->end_ns)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (begin_ns != self->begin_ns)
    {
      self->begin_ns = begin_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BEGIN_NS]);
    }
  if (end_ns != self->end_ns)
    {
      self->end_ns = end_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_NS]);
    }
  g_object_thaw_notify (G_OBJECT (self));

  if (self->pointer_inside)
    cs_timeline_hover_at (self, self->pointer_x, self->pointer_y);
  _cs_timeline_a11y_queue_update (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * cs_timeline_zoom:
 * @self: a #CsTimeline
 * @factor: new span / old span: below 1 zooms in, above 1 zooms out
 * @anchor_x_px: the x coordinate that keeps its time, in widget pixels
 */
void
cs_timeline_zoom (CsTimeline *self,
                  double      factor,
                  double      anchor_x_px)
{
  double span_ns, offset_ns;
  gint64 anchor_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));
  g_return_if_fail (factor > 0.0);

  if (self->document == NULL)
    return;

  span_ns = (double) (self->end_ns - self->begin_ns);
  anchor_ns = cs_timeline_x_to_ns (self, anchor_x_px);
  /* Offsets stay small: doubles keep nanoseconds exact on any clock. */
  offset_ns = (double) (anchor_ns - self->begin_ns) * factor;
  span_ns = MAX (span_ns * factor, 1.0);

  /* Zooming in by less than a nanosecond would stall: always move. */
  if (factor < 1.0 && (gint64) span_ns == self->end_ns - self->begin_ns)
    span_ns -= 1.0;

  cs_timeline_set_span (self,
                        anchor_ns - (gint64) llround (offset_ns),
                        anchor_ns - (gint64) llround (offset_ns) + (gint64) llround (span_ns));
}

/**
 * cs_timeline_pan:
 * @self: a #CsTimeline
 * @fraction: how far to move, in visible spans: negative goes back in time
 */
void
cs_timeline_pan (CsTimeline *self,
                 double      fraction)
{
  gint64 delta_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));

  if (self->document == NULL)
    return;

  delta_ns = (gint64) llround ((double) (self->end_ns - self->begin_ns) * fraction);
  if (delta_ns == 0)
    delta_ns = fraction < 0 ? -1 : 1;

  cs_timeline_set_span (self, self->begin_ns + delta_ns, self->end_ns + delta_ns);
}

/**
 * cs_timeline_zoom_to_fit:
 * @self: a #CsTimeline
 *
 * Shows the whole recording.
 */
void
cs_timeline_zoom_to_fit (CsTimeline *self)
{
  gint64 begin_ns, end_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));

  cs_timeline_get_extent (self, &begin_ns, &end_ns);
  cs_timeline_set_span (self, begin_ns, end_ns);
}

/* ------------------------------------------------------------------------ */
/* Hover                                                                     */

static void
cs_timeline_set_hover_text (CsTimeline *self,
                            const char *text)
{
  if (g_strcmp0 (self->hover_text, text) == 0)
    return;

  g_free (self->hover_text);
  self->hover_text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVER_TEXT]);
}

/**
 * cs_timeline_hover_at:
 * @self: a #CsTimeline
 * @x_px: x in widget coordinates
 * @y_px: y in widget coordinates
 *
 * Updates #CsTimeline:hover-text for what lies under (@x_px, @y_px), as the
 * pointer does.
 */
void
cs_timeline_hover_at (CsTimeline *self,
                      double      x_px,
                      double      y_px)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  CsViewport viewport;
  CsHit hit = { 0 };

  g_return_if_fail (CS_IS_TIMELINE (self));

  if (self->renderer == NULL)
    {
      cs_timeline_set_hover_text (self, "");
      return;
    }

  text = _cs_timeline_streams_hover (self, x_px, y_px);
  if (text != NULL)
    {
      cs_timeline_set_hover_text (self, text);
      return;
    }

  _cs_timeline_fill_viewport (self, &viewport);
  if (!cs_timeline_renderer_hit_test (self->renderer, &viewport, x_px, y_px, &hit, &error))
    {
      cs_timeline_set_hover_text (self, error->message);
      return;
    }

  if (hit.kind == CS_HIT_NONE)
    text = cs_hover_text_for_time (self->document, cs_timeline_x_to_ns (self, x_px));
  else
    text = cs_hover_text_for_hit (self->document, &hit);

  cs_timeline_set_hover_text (self, text);
}

/**
 * cs_timeline_get_hover_text:
 * @self: a #CsTimeline
 *
 * Returns: (transfer none): what lies under the pointer, one line ("" when
 *   the pointer is elsewhere)
 */
const char *
cs_timeline_get_hover_text (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), "");

  return self->hover_text != NULL ? self->hover_text : "";
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           CsTimeline               *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  cs_timeline_hover_at (self, x, y);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
leave_cb (GtkEventControllerMotion *controller,
          CsTimeline               *self)
{
  self->pointer_inside = FALSE;
  cs_timeline_set_hover_text (self, "");
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  CsTimeline *self)
{
  if (self->hover_text == NULL || *self->hover_text == '\0' || self->drag_mode != DRAG_NONE)
    return FALSE;

  gtk_tooltip_set_text (tooltip, self->hover_text);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Scrolling and dragging                                                    */

/* Whether the enclosing scrolled window can scroll vertically. */
static gboolean
cs_timeline_plots_overflow (CsTimeline *self)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;

  if (scrolled == NULL)
    return FALSE;

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment) >
         gtk_adjustment_get_page_size (adjustment) + 0.5;
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           CsTimeline               *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean pixels = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_SURFACE;
  double x0_px, width_px;

  cs_timeline_get_time_area (self, &x0_px, &width_px);

  if (self->document == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    {
      double anchor_x = self->pointer_inside ? self->pointer_x : x0_px + width_px / 2.0;
      double factor = pixels ? exp (dy * 0.01) : pow (WHEEL_ZOOM_STEP, dy);

      if (dy != 0.0)
        cs_timeline_zoom (self, factor, anchor_x);
      return TRUE;
    }

  /* Shift turns the wheel into horizontal movement. */
  if ((state & GDK_SHIFT_MASK) && dx == 0.0)
    {
      dx = dy;
      dy = 0.0;
    }

  if (dx == 0.0 && dy != 0.0)
    {
      if (cs_timeline_plots_overflow (self))
        return FALSE;   /* the scrolled window scrolls the plots */
      dx = dy;
    }

  if (dx == 0.0)
    return FALSE;

  cs_timeline_pan (self, pixels ? dx / width_px : dx * PAN_STEP);
  return TRUE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               CsTimeline     *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (self->document == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && (state & GDK_SHIFT_MASK)))
    self->drag_mode = DRAG_PAN;
  else if (button == GDK_BUTTON_PRIMARY)
    self->drag_mode = DRAG_SELECT;
  else
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->drag_x = x;
  self->drag_start_begin_ns = self->begin_ns;
  self->drag_button = button;
  self->drag_modifiers = state;

  if (self->drag_mode == DRAG_PAN)
    gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          offset_x,
                double          offset_y,
                CsTimeline     *self)
{
  if (self->drag_mode == DRAG_SELECT)
    {
      self->drag_x = CLAMP (self->drag_start_x + offset_x, 0.0, cs_timeline_get_width_px (self));
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else if (self->drag_mode == DRAG_PAN)
    {
      gint64 span_ns = self->end_ns - self->begin_ns;
      gint64 begin_ns = self->drag_start_begin_ns -
                        (gint64) llround (offset_x * cs_timeline_ns_per_px (self));

      cs_timeline_set_span (self, begin_ns, begin_ns + span_ns);
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          offset_x,
             double          offset_y,
             CsTimeline     *self)
{
  DragMode mode = self->drag_mode;
  gboolean is_click = fabs (offset_x) < MIN_SELECTION_PX && fabs (offset_y) < MIN_SELECTION_PX;

  self->drag_mode = DRAG_NONE;
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);

  if (is_click && mode != DRAG_NONE && self->drag_button == GDK_BUTTON_PRIMARY)
    {
      double x, y;

      /* A click, not a drag: markers (Shift+click too: a pan that did not move). */
      gtk_gesture_drag_get_start_point (gesture, &x, &y);
      _cs_timeline_markers_click (self,
                                  gtk_event_controller_get_current_event_time (GTK_EVENT_CONTROLLER (gesture)),
                                  x, y, self->drag_modifiers);
    }
  else if (mode == DRAG_SELECT && fabs (self->drag_x - self->drag_start_x) >= MIN_SELECTION_PX)
    {
      double x0 = MIN (self->drag_start_x, self->drag_x);
      double x1 = MAX (self->drag_start_x, self->drag_x);

      cs_timeline_set_span (self, cs_timeline_x_to_ns (self, x0), cs_timeline_x_to_ns (self, x1));
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                CsTimeline       *self)
{
  self->drag_mode = DRAG_NONE;
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ------------------------------------------------------------------------ */
/* GtkWidget                                                                 */

static void
cs_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  CsTimeline *self = CS_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 240;
      *natural = 960;
    }
  else
    {
      int height = _cs_timeline_get_streams (self) != NULL
                   ? cs_streams_renderer_get_natural_height (_cs_timeline_get_streams (self))
                   : self->renderer != NULL ? cs_timeline_renderer_get_natural_height (self->renderer) : 0;

      /* As tall as the plots: the scrolled window scrolls when they don't fit. */
      *minimum = *natural = MAX (height, 1);
    }
}

static void
cs_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  CsTimeline *self = CS_TIMELINE (widget);

  /* A new width changes the deepest zoom allowed: re-clamp. */
  if (self->document != NULL)
    cs_timeline_set_span (self, self->begin_ns, self->end_ns);
  _cs_timeline_a11y_allocate (self, width);
}

/* After the paint of the first frame that drew the document's plots: a
 * debug message the benchmark reads (tests/bench/bench_window.py) for the
 * window's reopen to first frame, with the time on the monotonic clock
 * (g_get_monotonic_time(), CLOCK_MONOTONIC) so that the launcher can
 * subtract its own. */
static void
first_paint_cb (GdkFrameClock *clock,
                CsTimeline    *self)
{
  g_signal_handlers_disconnect_by_func (clock, first_paint_cb, self);
  g_debug ("First timeline frame painted: %s, %" G_GINT64_FORMAT " us monotonic",
           self->document != NULL ? cs_document_get_trace_path (self->document) : "",
           g_get_monotonic_time ());
}

static void
cs_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  CsTimeline *self = CS_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GError) error = NULL;
  CsViewport viewport;
  cairo_t *cr;

  if (self->renderer == NULL || width <= 0 || height <= 0)
    return;

  _cs_timeline_fill_viewport (self, &viewport);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!(_cs_timeline_get_streams (self) != NULL
         ? cs_streams_renderer_draw (_cs_timeline_get_streams (self), cr, &viewport, &error)
         : cs_timeline_renderer_draw (self->renderer, cr, &viewport, &error)) &&
      !self->draw_error_reported)
    {
      /* Once: a broken index would otherwise flood the log every frame. */
      g_message ("Drawing the timeline failed: %s", error->message);
      self->draw_error_reported = TRUE;
    }
  else if (error == NULL && !self->first_frame_drawn && gtk_widget_get_frame_clock (widget) != NULL)
    {
      self->first_frame_drawn = TRUE;
      g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                               G_CALLBACK (first_paint_cb), self, 0);
    }
  cairo_destroy (cr);

  _cs_timeline_markers_snapshot (self, snapshot);
  _cs_timeline_a11y_snapshot (self, snapshot);

  if (self->drag_mode == DRAG_SELECT)
    {
      double x0 = MIN (self->drag_start_x, self->drag_x);
      double x1 = MAX (self->drag_start_x, self->drag_x);
      GdkRGBA band = { 0.21, 0.52, 0.89, 0.22 };
      GdkRGBA edge = { 0.21, 0.52, 0.89, 0.9 };

      gtk_snapshot_append_color (snapshot, &band, &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height));
      gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
      gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
    }
  else if (self->pointer_inside && self->drag_mode == DRAG_NONE)
    {
      GdkRGBA cursor = { 0.0, 0.0, 0.0, 0.35 };

      gtk_snapshot_append_color (snapshot, &cursor,
                                 &GRAPHENE_RECT_INIT (floor (self->pointer_x), 0, 1, height));
    }
}

static void
cs_timeline_dispose (GObject *object)
{
  CsTimeline *self = CS_TIMELINE (object);

  _cs_timeline_markers_dispose (self);
  _cs_timeline_a11y_dispose (self);
  cs_timeline_set_streams (self, NULL);
  g_clear_object (&self->renderer);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (cs_timeline_parent_class)->dispose (object);
}

static void
cs_timeline_finalize (GObject *object)
{
  CsTimeline *self = CS_TIMELINE (object);

  g_free (self->hover_text);

  G_OBJECT_CLASS (cs_timeline_parent_class)->finalize (object);
}

static void
cs_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CsTimeline *self = CS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_BEGIN_NS:
      g_value_set_int64 (value, self->begin_ns);
      break;
    case PROP_END_NS:
      g_value_set_int64 (value, self->end_ns);
      break;
    case PROP_HOVER_TEXT:
      g_value_set_string (value, cs_timeline_get_hover_text (self));
      break;
    default:
      if (!_cs_timeline_markers_get_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  CsTimeline *self = CS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      cs_timeline_set_document (self, g_value_get_object (value));
      break;
    case PROP_BEGIN_NS:
      cs_timeline_set_span (self, g_value_get_int64 (value), self->end_ns);
      break;
    case PROP_END_NS:
      cs_timeline_set_span (self, self->begin_ns, g_value_get_int64 (value));
      break;
    default:
      if (!_cs_timeline_markers_set_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_timeline_class_init (CsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_timeline_dispose;
  object_class->finalize = cs_timeline_finalize;
  object_class->get_property = cs_timeline_get_property;
  object_class->set_property = cs_timeline_set_property;

  widget_class->measure = cs_timeline_measure;
  widget_class->size_allocate = cs_timeline_size_allocate;
  widget_class->snapshot = cs_timeline_snapshot;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, CS_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsTimeline:begin-ns:
   *
   * First visible time, nanoseconds in the trace clock (inclusive).
   */
  properties[PROP_BEGIN_NS] =
    g_param_spec_int64 ("begin-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsTimeline:end-ns:
   *
   * End of the visible span, nanoseconds in the trace clock (exclusive).
   */
  properties[PROP_END_NS] =
    g_param_spec_int64 ("end-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsTimeline:hover-text:
   *
   * One line about what lies under the pointer: time, CPU, task and the
   * nearest event with its text; "" when the pointer is elsewhere.
   */
  properties[PROP_HOVER_TEXT] =
    g_param_spec_string ("hover-text", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
  _cs_timeline_markers_class_init (widget_class, N_PROPS);

  _cs_timeline_keys_class_init (widget_class);
  _cs_timeline_a11y_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
cs_timeline_init (CsTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->end_ns = EMPTY_SPAN_NS;
  _cs_timeline_markers_init (self);
  _cs_timeline_style_init (self);
  _cs_timeline_a11y_init (self);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect (gesture, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  _cs_timeline_keys_update_actions (self);
}

/**
 * cs_timeline_new:
 *
 * Returns: (transfer floating): a timeline showing nothing yet
 */
GtkWidget *
cs_timeline_new (void)
{
  return g_object_new (CS_TYPE_TIMELINE, NULL);
}

/**
 * cs_timeline_get_document:
 * @self: a #CsTimeline
 *
 * Returns: (transfer none) (nullable): the recording shown
 */
CsDocument *
cs_timeline_get_document (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), NULL);

  return self->document;
}

/**
 * cs_timeline_get_renderer:
 * @self: a #CsTimeline
 *
 * Returns: (transfer none) (nullable): the renderer drawing the plots, for
 *   their geometry (cs_timeline_renderer_get_cpu_plot_area())
 */
CsTimelineRenderer *
cs_timeline_get_renderer (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), NULL);

  return self->renderer;
}

/**
 * cs_timeline_set_document:
 * @self: a #CsTimeline
 * @document: (nullable): the recording to show, zoomed to fit
 */
void
cs_timeline_set_document (CsTimeline *self,
                          CsDocument *document)
{
  g_return_if_fail (CS_IS_TIMELINE (self));
  g_return_if_fail (document == NULL || CS_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;

  cs_timeline_set_streams (self, NULL);
  g_clear_object (&self->renderer);
  if (document != NULL)
    self->renderer = cs_timeline_renderer_new (document);
  _cs_timeline_style_apply (self);
  self->draw_error_reported = FALSE;
  self->first_frame_drawn = FALSE;
  self->drag_mode = DRAG_NONE;
  _cs_timeline_markers_reset (self);
  _cs_timeline_a11y_reset (self);

  _cs_timeline_keys_update_actions (self);
  cs_timeline_zoom_to_fit (self);
  cs_timeline_set_hover_text (self, "");
  gtk_widget_queue_resize (GTK_WIDGET (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/**
 * cs_timeline_get_begin_ns:
 * @self: a #CsTimeline
 *
 * Returns: the first visible time, ns (inclusive)
 */
gint64
cs_timeline_get_begin_ns (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), 0);

  return self->begin_ns;
}

/**
 * cs_timeline_get_end_ns:
 * @self: a #CsTimeline
 *
 * Returns: the end of the visible span, ns (exclusive)
 */
gint64
cs_timeline_get_end_ns (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), 0);

  return self->end_ns;
}

