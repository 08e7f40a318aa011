/* cs-timeline-markers.c: markers A and B and the context menu of CsTimeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsTimeline, kept apart so that the widget's file stays about
 * zooming and drawing.  It works through the timeline's public API and the
 * CsTimelineMarkers state the timeline embeds:
 *
 *   click                    put the active marker there, on the event drawn
 *                            there when one lies within a few pixels, and
 *                            emit ::event-clicked for it
 *   double-click, Shift+click  put marker B there
 *   a, b                     make marker A or B the active one
 *   m                        centre the view on the active marker
 *   right click              the context menu of what lies under the pointer
 *
 * Markers are times, not pixels, so they stay on their events through zoom
 * and pan; they are drawn over the renderer's output with cs_marker_snapshot().
 */
#include "config.h"

#include <math.h>

#include "cs-event-menu.h"
#include "cs-timeline-private.h"

enum {
  MARKER_PROP_A_NS,
  MARKER_PROP_B_NS,
  MARKER_PROP_ACTIVE,
  N_MARKER_PROPS
};

static GParamSpec *marker_properties[N_MARKER_PROPS];
static guint first_marker_prop_id;
static guint event_clicked_signal;
static guint stream_event_clicked_signal;

/* @ts_ns of @stream's clock on the axis; as it is for the own document */
static gint64
to_axis (CsStream *stream,
         guint     cpu,
         gint64    ts_ns)
{
  return stream != NULL ? cs_stream_to_axis_ns (stream, cpu, ts_ns) : ts_ns;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_timeline_get_marker_ns:
 * @self: a #CsTimeline
 * @marker: which marker
 *
 * Returns: the marker's time, ns in the trace clock, or %CS_MARKER_UNSET
 */
gint64
cs_timeline_get_marker_ns (CsTimeline *self,
                           CsMarker    marker)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), CS_MARKER_UNSET);
  g_return_val_if_fail (marker == CS_MARKER_A || marker == CS_MARKER_B, CS_MARKER_UNSET);

  return _cs_timeline_get_markers (self)->ns[marker];
}

/**
 * cs_timeline_set_marker_ns:
 * @self: a #CsTimeline
 * @marker: which marker
 * @ts_ns: its time, ns in the trace clock, or %CS_MARKER_UNSET to remove it
 *
 * Places a marker.  The view does not move: see cs_timeline_show_time().
 */
void
cs_timeline_set_marker_ns (CsTimeline *self,
                           CsMarker    marker,
                           gint64      ts_ns)
{
  CsTimelineMarkers *markers;

  g_return_if_fail (CS_IS_TIMELINE (self));
  g_return_if_fail (marker == CS_MARKER_A || marker == CS_MARKER_B);

  markers = _cs_timeline_get_markers (self);
  if (ts_ns < 0)
    ts_ns = CS_MARKER_UNSET;
  if (markers->ns[marker] == ts_ns)
    return;

  markers->ns[marker] = ts_ns;
  g_object_notify_by_pspec (G_OBJECT (self),
                            marker_properties[marker == CS_MARKER_A ? MARKER_PROP_A_NS : MARKER_PROP_B_NS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * cs_timeline_get_active_marker:
 * @self: a #CsTimeline
 *
 * Returns: the marker a click moves
 */
CsMarker
cs_timeline_get_active_marker (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), CS_MARKER_A);

  return _cs_timeline_get_markers (self)->active;
}

/**
 * cs_timeline_set_active_marker:
 * @self: a #CsTimeline
 * @marker: the marker a click should move (keys a and b)
 */
void
cs_timeline_set_active_marker (CsTimeline *self,
                               CsMarker    marker)
{
  CsTimelineMarkers *markers;

  g_return_if_fail (CS_IS_TIMELINE (self));
  g_return_if_fail (marker == CS_MARKER_A || marker == CS_MARKER_B);

  markers = _cs_timeline_get_markers (self);
  if (markers->active == marker)
    return;

  markers->active = marker;
  g_object_notify_by_pspec (G_OBJECT (self), marker_properties[MARKER_PROP_ACTIVE]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * cs_timeline_center_on:
 * @self: a #CsTimeline
 * @ts_ns: a time, ns in the trace clock
 *
 * Moves the view, keeping its zoom, so that @ts_ns is in the middle of the
 * plots (or as close as the ends of the recording allow).
 */
void
cs_timeline_center_on (CsTimeline *self,
                       gint64      ts_ns)
{
  gint64 span_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));

  if (cs_timeline_get_document (self) == NULL)
    return;

  span_ns = cs_timeline_get_end_ns (self) - cs_timeline_get_begin_ns (self);
  cs_timeline_set_span (self, ts_ns - span_ns / 2, ts_ns - span_ns / 2 + span_ns);
}

/**
 * cs_timeline_show_time:
 * @self: a #CsTimeline
 * @ts_ns: a time, ns in the trace clock
 *
 * Makes sure @ts_ns is visible, away from the edges: when it lies outside
 * the middle 90 % of the view, the view is centred on it at the same zoom.
 */
void
cs_timeline_show_time (CsTimeline *self,
                       gint64      ts_ns)
{
  gint64 begin_ns, end_ns, margin_ns;

  g_return_if_fail (CS_IS_TIMELINE (self));

  begin_ns = cs_timeline_get_begin_ns (self);
  end_ns = cs_timeline_get_end_ns (self);
  margin_ns = (end_ns - begin_ns) / 20;
  if (ts_ns < begin_ns + margin_ns || ts_ns >= end_ns - margin_ns)
    cs_timeline_center_on (self, ts_ns);
}

/* A on @a_ns, B on @b_ns: a double-click measured a span, and its first
 * click's move of the active marker is not undone. */
static void
put_markers_on (CsTimeline *self,
                gint64      a_ns,
                gint64      b_ns)
{
  _cs_timeline_get_markers (self)->undo_valid = FALSE;
  cs_timeline_set_marker_ns (self, CS_MARKER_A, a_ns);
  cs_timeline_set_marker_ns (self, CS_MARKER_B, b_ns);
}

/**
 * cs_timeline_click_at:
 * @self: a #CsTimeline
 * @x_px: x in widget coordinates
 * @y_px: y in widget coordinates
 * @n_press: 1 for a click, 2 for the second click of a double-click
 * @modifiers: the modifier keys held (%GDK_SHIFT_MASK puts marker B)
 *
 * What a primary-button click does: places the active marker at the time
 * under (@x_px, @y_px), on the event drawn there if one lies within a few
 * pixels, and emits #CsTimeline::event-clicked for that event (with
 * several recordings, #CsTimeline::stream-event-clicked for an event of
 * another recording's plots, the marker on its axis time).  The second
 * click of a double-click, or a click with Shift, places marker B instead
 * (a double-click leaves the active marker where it was before its first
 * click).  A double-click on a wakeup latency (a task plot's box or the
 * kernel module's bracket) or on a module section's band puts A on its
 * start and B on its end.  Clicks left of the plots, on the CPU labels, do
 * nothing; with several recordings, clicks on a header row collapse or
 * close its recording instead (cs-timeline-streams.c).
 */
void
cs_timeline_click_at (CsTimeline      *self,
                      double           x_px,
                      double           y_px,
                      guint            n_press,
                      GdkModifierType  modifiers)
{
  CsTimelineRenderer *renderer;
  CsTimelineMarkers *markers;
  g_autoptr(GError) error = NULL;
  CsViewport viewport;
  CsHit hit = { 0 };
  CsMarker marker;
  CsStream *other;
  gint64 ts_ns = 0;
  double x0, width;

  g_return_if_fail (CS_IS_TIMELINE (self));

  renderer = cs_timeline_get_renderer (self);
  /* a stream header's click (collapse, close) places no marker */
  if (renderer == NULL || _cs_timeline_streams_click (self, x_px, y_px, n_press))
    return;

  markers = _cs_timeline_get_markers (self);
  _cs_timeline_fill_viewport (self, &viewport);
  cs_timeline_renderer_get_time_area (renderer, &viewport, &x0, &width);
  if (x_px < x0 || x_px > x0 + width)
    return;

  /* Another recording's plots: its own hit, its times put on the axis. */
  other = _cs_timeline_streams_other_hit (self, x_px, y_px, &hit, &ts_ns);
  if (other == NULL &&
      !cs_timeline_renderer_hit_test (renderer, &viewport, x_px,
                                      y_px - _cs_timeline_get_plots_y (self), &hit, &error))
    {
      g_message ("Cannot tell what lies under the pointer: %s", error->message);
      hit.has_event = FALSE;
    }

  /* A task plot's wakeup latency box: A on the wakeup, B on the
   * switch-in, so that the info bar measures it.  Without one there, what
   * a plugin layer drew (the kmod plugin's bracket or section band): A on
   * its begin, B on its end (only A for a moment). */
  if (n_press >= 2 && hit.kind == CS_HIT_TASK_PLOT && hit.has_interval &&
      hit.interval.state == CS_TASK_RUNNABLE && hit.interval.wakeup_ns >= 0)
    {
      put_markers_on (self, to_axis (other, 0, hit.interval.wakeup_ns),
                      to_axis (other, 0, hit.interval.end_ns));
      return;
    }
  if (n_press >= 2 && hit.has_item)
    {
      if (hit.item.end_ns > hit.item.begin_ns)
        put_markers_on (self, to_axis (other, 0, hit.item.begin_ns), to_axis (other, 0, hit.item.end_ns));
      else
        cs_timeline_set_marker_ns (self, CS_MARKER_A, to_axis (other, 0, hit.item.begin_ns));
      return;
    }

  if (hit.has_event)
    ts_ns = to_axis (other, hit.event.cpu, hit.event.ts_ns);
  else if (other == NULL)
    ts_ns = cs_timeline_renderer_x_to_ns (renderer, &viewport, x_px);

  if (n_press >= 2 || (modifiers & GDK_SHIFT_MASK))
    {
      if (n_press >= 2 && markers->undo_valid)
        cs_timeline_set_marker_ns (self, markers->undo_marker, markers->undo_ns);
      markers->undo_valid = FALSE;
      marker = CS_MARKER_B;
    }
  else
    {
      marker = markers->active;
      markers->undo_valid = TRUE;
      markers->undo_marker = marker;
      markers->undo_ns = markers->ns[marker];
    }

  cs_timeline_set_marker_ns (self, marker, ts_ns);

  if (hit.has_event && other == NULL)
    g_signal_emit (self, event_clicked_signal, 0, &hit.event);
  else if (hit.has_event)
    g_signal_emit (self, stream_event_clicked_signal, 0, other, &hit.event);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */

/**
 * _cs_timeline_markers_click:
 * @self: a #CsTimeline
 * @time_ms: the event time of the button release
 * @x_px: where the button went down
 * @y_px: where the button went down
 * @modifiers: the modifiers held when it went down
 *
 * A primary-button press and release that did not move: tells a
 * double-click apart (by the desktop's time and distance) and passes it
 * to cs_timeline_click_at().
 */
void
_cs_timeline_markers_click (CsTimeline      *self,
                            guint32          time_ms,
                            double           x_px,
                            double           y_px,
                            GdkModifierType  modifiers)
{
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);
  GtkSettings *settings = gtk_widget_get_settings (GTK_WIDGET (self));
  int double_click_time = 400, double_click_distance = 5;
  gboolean is_double;

  g_object_get (settings,
                "gtk-double-click-time", &double_click_time,
                "gtk-double-click-distance", &double_click_distance,
                NULL);

  is_double = markers->last_click_time_ms != 0 &&
              time_ms - markers->last_click_time_ms <= (guint32) double_click_time &&
              fabs (x_px - markers->last_click_x) <= double_click_distance &&
              fabs (y_px - markers->last_click_y) <= double_click_distance;

  /* A third click starts over rather than making another double-click. */
  markers->last_click_time_ms = is_double ? 0 : time_ms;
  markers->last_click_x = x_px;
  markers->last_click_y = y_px;

  cs_timeline_click_at (self, x_px, y_px, is_double ? 2 : 1, modifiers);
}

static void
cs_timeline_popup_menu (CsTimeline *self,
                        double      x_px,
                        double      y_px)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  g_autoptr(GError) error = NULL;
  CsEventMenuTarget target = { 0 };
  CsViewport viewport;
  CsHit hit = { 0 };
  CsStream *other;
  gint64 axis_ns;

  if (renderer == NULL || _cs_timeline_streams_popup (self, x_px, y_px))
    return;

  _cs_timeline_fill_viewport (self, &viewport);
  /* another recording's plots: its names, its raw fields (cs-event-menu.c) */
  other = _cs_timeline_streams_other_hit (self, x_px, y_px, &hit, &axis_ns);
  if (other != NULL)
    {
      target.source = cs_stream_get_document (other);
      target.stream_path = cs_stream_get_path (other);
      target.stream_name = cs_stream_get_name (other);
    }
  else if (!cs_timeline_renderer_hit_test (renderer, &viewport, x_px,
                                           y_px - _cs_timeline_get_plots_y (self), &hit, &error))
    return;

  if (hit.kind == CS_HIT_CPU_PLOT || hit.kind == CS_HIT_CPU_LABEL)
    {
      target.has_cpu = TRUE;
      target.cpu = hit.cpu;
    }
  if (hit.has_event)
    {
      target.has_event = TRUE;
      target.event = hit.event;
      target.has_task = TRUE;
      target.pid = hit.event.pid;
    }
  else if (hit.has_slice)
    {
      target.has_task = TRUE;
      target.pid = hit.slice.pid;
    }
  else if (hit.kind == CS_HIT_TASK_PLOT || hit.kind == CS_HIT_TASK_LABEL)
    {
      /* A task plot: its task (filters, remove the plot). */
      target.has_task = TRUE;
      target.pid = hit.pid;
    }

  cs_event_menu_popup (&_cs_timeline_get_markers (self)->context_menu, GTK_WIDGET (self),
                       cs_timeline_get_document (self), &target, x_px, y_px);
}

static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    CsTimeline      *self)
{
  if (cs_timeline_get_document (self) == NULL)
    return;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  cs_timeline_popup_menu (self, x, y);
}

static void
select_marker_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  cs_timeline_set_active_marker (CS_TIMELINE (widget),
                                 g_str_equal (action_name, "timeline.select-marker-b") ? CS_MARKER_B
                                                                                       : CS_MARKER_A);
}

static void
zoom_to_marker_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  CsTimeline *self = CS_TIMELINE (widget);
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);
  gint64 ts_ns = markers->ns[markers->active];

  if (ts_ns != CS_MARKER_UNSET)
    cs_timeline_center_on (self, ts_ns);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */

/**
 * _cs_timeline_markers_snapshot:
 * @self: a #CsTimeline
 * @snapshot: where the timeline draws, after its plots
 *
 * Draws the visible markers over the plots, the active one on top.
 */
void
_cs_timeline_markers_snapshot (CsTimeline  *self,
                               GtkSnapshot *snapshot)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);
  CsViewport viewport;
  double x0, width;

  if (renderer == NULL)
    return;

  _cs_timeline_fill_viewport (self, &viewport);
  cs_timeline_renderer_get_time_area (renderer, &viewport, &x0, &width);

  for (guint i = 0; i < 2; i++)
    {
      CsMarker marker = i == 0 ? 1 - markers->active : markers->active;
      gint64 ts_ns = markers->ns[marker];
      double x;

      if (ts_ns == CS_MARKER_UNSET || ts_ns < viewport.begin_ns || ts_ns >= viewport.end_ns)
        continue;

      x = cs_timeline_renderer_ns_to_x (renderer, &viewport, ts_ns);
      if (x < x0 - 1 || x > x0 + width + 1)
        continue;
      cs_marker_snapshot (GTK_WIDGET (self), snapshot, marker, marker == markers->active,
                          x, viewport.height_px);
    }
}

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                */

/**
 * _cs_timeline_markers_class_init:
 * @widget_class: CsTimeline's class
 * @first_prop_id: the first free property id of CsTimeline
 *
 * Installs the marker properties (ids @first_prop_id and the next two),
 * the ::event-clicked signal, and the marker actions with their keys.
 */
void
_cs_timeline_markers_class_init (GtkWidgetClass *widget_class,
                                 guint           first_prop_id)
{
  GObjectClass *object_class = G_OBJECT_CLASS (widget_class);

  first_marker_prop_id = first_prop_id;

  /**
   * CsTimeline:marker-a-ns:
   *
   * Time of marker A, ns in the trace clock; -1 when it is not placed.
   */
  marker_properties[MARKER_PROP_A_NS] =
    g_param_spec_int64 ("marker-a-ns", NULL, NULL, -1, G_MAXINT64, CS_MARKER_UNSET,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsTimeline:marker-b-ns:
   *
   * Time of marker B, ns in the trace clock; -1 when it is not placed.
   */
  marker_properties[MARKER_PROP_B_NS] =
    g_param_spec_int64 ("marker-b-ns", NULL, NULL, -1, G_MAXINT64, CS_MARKER_UNSET,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsTimeline:active-marker:
   *
   * The marker a click moves: A unless the user pressed b.
   */
  marker_properties[MARKER_PROP_ACTIVE] =
    g_param_spec_enum ("active-marker", NULL, NULL, CS_TYPE_MARKER, CS_MARKER_A,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < N_MARKER_PROPS; i++)
    g_object_class_install_property (object_class, first_prop_id + i, marker_properties[i]);

  /**
   * CsTimeline::event-clicked:
   * @self: the timeline
   * @event: (type gpointer): the #CsEvent clicked, valid during the emission
   *
   * A click placed a marker on an event; the window selects its row in the
   * event list.
   */
  event_clicked_signal =
    g_signal_new ("event-clicked", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * CsTimeline::stream-event-clicked:
   * @self: the timeline
   * @stream: the #CsStream whose plots were clicked, not the timeline's
   *   own document's
   * @event: (type gpointer): the #CsEvent clicked, in @stream's recording
   *   and clock, valid during the emission
   *
   * As #CsTimeline::event-clicked, for another recording of a window of
   * several: the window selects its row in the merged event list.
   */
  stream_event_clicked_signal =
    g_signal_new ("stream-event-clicked", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, CS_TYPE_STREAM, G_TYPE_POINTER);

  gtk_widget_class_install_action (widget_class, "timeline.select-marker-a", NULL, select_marker_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-marker-b", NULL, select_marker_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-to-marker", NULL, zoom_to_marker_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.select-marker-a", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, 0, "timeline.select-marker-b", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, 0, "timeline.zoom-to-marker", NULL);
}

/**
 * _cs_timeline_markers_init:
 * @self: a #CsTimeline being initialised
 */
void
_cs_timeline_markers_init (CsTimeline *self)
{
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);
  GtkGesture *gesture;

  markers->ns[CS_MARKER_A] = CS_MARKER_UNSET;
  markers->ns[CS_MARKER_B] = CS_MARKER_UNSET;
  markers->active = CS_MARKER_A;

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (context_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

/**
 * _cs_timeline_markers_dispose:
 * @self: a #CsTimeline being disposed
 */
void
_cs_timeline_markers_dispose (CsTimeline *self)
{
  g_clear_pointer (&_cs_timeline_get_markers (self)->context_menu, gtk_widget_unparent);
}

/**
 * _cs_timeline_markers_reset:
 * @self: a #CsTimeline showing another recording
 *
 * Removes both markers: their times meant something in the old recording.
 */
void
_cs_timeline_markers_reset (CsTimeline *self)
{
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);

  markers->undo_valid = FALSE;
  markers->last_click_time_ms = 0;
  cs_timeline_set_marker_ns (self, CS_MARKER_A, CS_MARKER_UNSET);
  cs_timeline_set_marker_ns (self, CS_MARKER_B, CS_MARKER_UNSET);
}

/**
 * _cs_timeline_markers_get_property:
 * @self: a #CsTimeline
 * @prop_id: a property id
 * @value: where to store it
 *
 * Returns: whether @prop_id is a marker property
 */
gboolean
_cs_timeline_markers_get_property (CsTimeline *self,
                                   guint       prop_id,
                                   GValue     *value)
{
  CsTimelineMarkers *markers = _cs_timeline_get_markers (self);

  if (prop_id < first_marker_prop_id || prop_id >= first_marker_prop_id + N_MARKER_PROPS)
    return FALSE;

  switch (prop_id - first_marker_prop_id)
    {
    case MARKER_PROP_A_NS:
      g_value_set_int64 (value, markers->ns[CS_MARKER_A]);
      break;
    case MARKER_PROP_B_NS:
      g_value_set_int64 (value, markers->ns[CS_MARKER_B]);
      break;
    case MARKER_PROP_ACTIVE:
      g_value_set_enum (value, markers->active);
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/**
 * _cs_timeline_markers_set_property:
 * @self: a #CsTimeline
 * @prop_id: a property id
 * @value: the new value
 *
 * Returns: whether @prop_id is a marker property
 */
gboolean
_cs_timeline_markers_set_property (CsTimeline   *self,
                                   guint         prop_id,
                                   const GValue *value)
{
  if (prop_id < first_marker_prop_id || prop_id >= first_marker_prop_id + N_MARKER_PROPS)
    return FALSE;

  switch (prop_id - first_marker_prop_id)
    {
    case MARKER_PROP_A_NS:
      cs_timeline_set_marker_ns (self, CS_MARKER_A, g_value_get_int64 (value));
      break;
    case MARKER_PROP_B_NS:
      cs_timeline_set_marker_ns (self, CS_MARKER_B, g_value_get_int64 (value));
      break;
    case MARKER_PROP_ACTIVE:
      cs_timeline_set_active_marker (self, g_value_get_enum (value));
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}
