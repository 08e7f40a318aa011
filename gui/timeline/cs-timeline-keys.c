/* cs-timeline-keys.c: the keyboard of CsTimeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsTimeline.  With the timeline focused (click it, or Tab to it)
 * every mouse action has a key.  The list below is the one the shortcuts
 * window shows, section "Timeline" (the actions are the timeline's own,
 * group "timeline", enabled while a recording is open):
 *
 *   Left, Right              pan by a tenth of the view   timeline.pan-left/-right
 *                            (the keyboard cursor moves with the view)
 *   + = -  (and keypad)      zoom in and out around the   timeline.zoom-in/-out
 *                            keyboard cursor
 *   Ctrl+wheel equivalent:   Ctrl++ Ctrl+- Ctrl+0 (the window's view.zoom-*)
 *   0 (and keypad 0)         zoom to fit                  timeline.zoom-fit
 *   Home, End                show the start / the end of  timeline.go-start/-end
 *                            the recording at the same zoom, the keyboard
 *                            cursor on its first / last event
 *   Up, Down                 focus the plot above / below timeline.previous-plot
 *                                                         timeline.next-plot
 *   Enter (and keypad)       select the event nearest the timeline.select-at-cursor
 *                            keyboard cursor on the focused plot: the active
 *                            marker goes there and the event list selects it,
 *                            as a click does
 *   Shift+Enter              put marker B there, as       timeline.mark-b-at-cursor
 *                            Shift+click does
 *   a, b                     make marker A or B the active one   (cs-timeline-markers.c)
 *   m                        centre the view on the active marker (cs-timeline-markers.c)
 *
 * The keyboard cursor is a time on the focused plot, drawn as a line with
 * a ring around that plot while focus is visible (cs-timeline-a11y.c).
 */
#include "config.h"

#include <math.h>

#include "cs-timeline-private.h"

#define ZOOM_STEP          1.5     /* + and - */
#define PAN_STEP           0.10    /* arrow keys */

static double
cursor_x (CsTimeline *self)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  CsViewport viewport;

  _cs_timeline_fill_viewport (self, &viewport);
  if (renderer == NULL)
    return viewport.width_px / 2.0;
  return cs_timeline_renderer_ns_to_x (renderer, &viewport, cs_timeline_get_cursor_ns (self));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CsTimeline *self = CS_TIMELINE (widget);
  gint64 cursor_ns = cs_timeline_get_cursor_ns (self);
  gboolean in = g_str_equal (action_name, "timeline.zoom-in");

  cs_timeline_zoom (self, in ? 1.0 / ZOOM_STEP : ZOOM_STEP, cursor_x (self));
  /* The cursor keeps its time when the view still holds it. */
  cs_timeline_set_cursor_ns (self, cursor_ns);
}

static void
zoom_fit_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  cs_timeline_zoom_to_fit (CS_TIMELINE (widget));
}

/* The view moves by a tenth, and the cursor with it; at either end of the
 * recording the view stops and the cursor goes on to the edge. */
static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  CsTimeline *self = CS_TIMELINE (widget);
  double fraction = g_str_equal (action_name, "timeline.pan-left") ? -PAN_STEP : PAN_STEP;
  gint64 cursor_ns = cs_timeline_get_cursor_ns (self);
  gint64 span_ns = cs_timeline_get_end_ns (self) - cs_timeline_get_begin_ns (self);
  gint64 delta_ns = (gint64) llround (span_ns * fraction);

  cs_timeline_pan (self, fraction);
  cursor_ns = CLAMP (cursor_ns + delta_ns, cs_timeline_get_begin_ns (self),
                     cs_timeline_get_end_ns (self) - 1);
  cs_timeline_set_cursor_ns (self, cursor_ns);
}

static void
go_action (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  CsTimeline *self = CS_TIMELINE (widget);
  CsDocument *document = cs_timeline_get_document (self);
  gint64 span_ns = cs_timeline_get_end_ns (self) - cs_timeline_get_begin_ns (self);
  gint64 ts_ns;

  if (document == NULL)
    return;

  if (g_str_equal (action_name, "timeline.go-start"))
    {
      ts_ns = cs_document_get_first_ns (document);
      cs_timeline_set_span (self, ts_ns, ts_ns + span_ns);
    }
  else
    {
      ts_ns = cs_document_get_last_ns (document);
      cs_timeline_set_span (self, ts_ns + 1 - span_ns, ts_ns + 1);
    }
  cs_timeline_set_cursor_ns (self, ts_ns);
}

static void
plot_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CsTimeline *self = CS_TIMELINE (widget);
  guint focused = cs_timeline_get_focused_plot (self);

  if (g_str_equal (action_name, "timeline.previous-plot"))
    {
      if (focused > 0)
        cs_timeline_set_focused_plot (self, focused - 1);
    }
  else
    cs_timeline_set_focused_plot (self, focused + 1);
}

/**
 * cs_timeline_select_at_cursor:
 * @self: a #CsTimeline
 * @modifiers: %GDK_SHIFT_MASK puts marker B, as Shift+click does; else 0
 *
 * What Enter does: on a CPU plot, finds the event of that CPU nearest to
 * the keyboard cursor within the visible span and clicks it (see
 * cs_timeline_click_at(): the active marker goes on it and
 * #CsTimeline::event-clicked is emitted), and moves the cursor onto it;
 * on other plots clicks at the cursor.
 *
 * Returns: %TRUE when an event of a CPU plot was found and clicked
 */
gboolean
cs_timeline_select_at_cursor (CsTimeline      *self,
                              GdkModifierType  modifiers)
{
  CsTimelineRenderer *renderer;
  CsDocument *document;
  g_autoptr(GError) error = NULL;
  const guint *cpus;
  guint n_cpus = 0, focused;
  gint64 cursor_ns, span_ns;
  CsEvent event;
  double y, height;

  g_return_val_if_fail (CS_IS_TIMELINE (self), FALSE);

  renderer = cs_timeline_get_renderer (self);
  document = cs_timeline_get_document (self);
  focused = cs_timeline_get_focused_plot (self);
  if (renderer == NULL || !_cs_timeline_get_plot_area (self, focused, &y, &height))
    return FALSE;

  cpus = cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  cursor_ns = cs_timeline_get_cursor_ns (self);
  span_ns = cs_timeline_get_end_ns (self) - cs_timeline_get_begin_ns (self);

  if (focused >= n_cpus)
    {
      cs_timeline_click_at (self, cursor_x (self), y + height / 2, 1, modifiers);
      return FALSE;
    }

  if (!cs_document_find_event_near (document, cpus[focused], cursor_ns, span_ns, &event, &error))
    {
      if (error != NULL)
        g_message ("Cannot find an event near the cursor on CPU %u: %s", cpus[focused], error->message);
      return FALSE;
    }

  cs_timeline_show_time (self, event.ts_ns);
  cs_timeline_set_cursor_ns (self, event.ts_ns);
  cs_timeline_click_at (self, cursor_x (self), y + height / 2, 1, modifiers);
  return TRUE;
}

static void
select_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  cs_timeline_select_at_cursor (CS_TIMELINE (widget),
                                g_str_equal (action_name, "timeline.mark-b-at-cursor") ? GDK_SHIFT_MASK : 0);
}

static const char * const action_names[] = {
  "timeline.zoom-in", "timeline.zoom-out", "timeline.zoom-fit",
  "timeline.pan-left", "timeline.pan-right",
  "timeline.go-start", "timeline.go-end",
  "timeline.previous-plot", "timeline.next-plot",
  "timeline.select-at-cursor", "timeline.mark-b-at-cursor",
};

/**
 * _cs_timeline_keys_update_actions:
 * @self: a #CsTimeline
 *
 * Enables the keyboard's actions while a recording is open.
 */
void
_cs_timeline_keys_update_actions (CsTimeline *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (action_names); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), action_names[i],
                                   cs_timeline_get_document (self) != NULL);
}

/**
 * _cs_timeline_keys_class_init:
 * @widget_class: CsTimeline's class
 *
 * Installs the actions of the list at the top of this file, with their keys.
 */
void
_cs_timeline_keys_class_init (GtkWidgetClass *widget_class)
{
  static const struct {
    guint keyval;
    GdkModifierType modifiers;
    const char *action;
  } keys[] = {
    { GDK_KEY_plus, 0, "timeline.zoom-in" },
    { GDK_KEY_equal, 0, "timeline.zoom-in" },
    { GDK_KEY_KP_Add, 0, "timeline.zoom-in" },
    { GDK_KEY_minus, 0, "timeline.zoom-out" },
    { GDK_KEY_KP_Subtract, 0, "timeline.zoom-out" },
    { GDK_KEY_0, 0, "timeline.zoom-fit" },
    { GDK_KEY_KP_0, 0, "timeline.zoom-fit" },
    { GDK_KEY_Left, 0, "timeline.pan-left" },
    { GDK_KEY_KP_Left, 0, "timeline.pan-left" },
    { GDK_KEY_Right, 0, "timeline.pan-right" },
    { GDK_KEY_KP_Right, 0, "timeline.pan-right" },
    { GDK_KEY_Home, 0, "timeline.go-start" },
    { GDK_KEY_KP_Home, 0, "timeline.go-start" },
    { GDK_KEY_End, 0, "timeline.go-end" },
    { GDK_KEY_KP_End, 0, "timeline.go-end" },
    { GDK_KEY_Up, 0, "timeline.previous-plot" },
    { GDK_KEY_KP_Up, 0, "timeline.previous-plot" },
    { GDK_KEY_Down, 0, "timeline.next-plot" },
    { GDK_KEY_KP_Down, 0, "timeline.next-plot" },
    { GDK_KEY_Return, 0, "timeline.select-at-cursor" },
    { GDK_KEY_KP_Enter, 0, "timeline.select-at-cursor" },
    { GDK_KEY_Return, GDK_SHIFT_MASK, "timeline.mark-b-at-cursor" },
    { GDK_KEY_KP_Enter, GDK_SHIFT_MASK, "timeline.mark-b-at-cursor" },
  };

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-fit", NULL, zoom_fit_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.go-start", NULL, go_action);
  gtk_widget_class_install_action (widget_class, "timeline.go-end", NULL, go_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-plot", NULL, plot_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-plot", NULL, plot_action);
  gtk_widget_class_install_action (widget_class, "timeline.select-at-cursor", NULL, select_action);
  gtk_widget_class_install_action (widget_class, "timeline.mark-b-at-cursor", NULL, select_action);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].keyval, keys[i].modifiers,
                                         keys[i].action, NULL);
}
