/* cs-timeline-streams.c: the timeline with other recordings on its axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsTimeline (cs-timeline-private.h).  When the window holds two
 * recordings or more (CsStreamSet), the timeline draws them all through
 * CsStreamsRenderer: each a group with a header row.  The timeline's own
 * document keeps its renderer, its markers, keys and accessible plots;
 * their y positions move down by _cs_timeline_get_plots_y().  Here:
 *
 *   hover on a header         its file, host, kernel, clock and note
 *   hover on another stream   what its own plots have there
 *   click on ▸/▾              collapse or expand the group
 *   click on ×                win.stream-close(u)
 *   right click on a header   move up/down, hide, close, align by the
 *                             markers, clear the shift (win.stream-*(u))
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-timeline-private.h"

/**
 * cs_timeline_set_streams:
 * @self: a #CsTimeline
 * @streams: (nullable): a renderer of the window's streams, whose first
 *   recording is the timeline's document, or %NULL for that one alone
 *
 * With two or more streams in @streams' set, the timeline draws them all;
 * its span is then in the set's axis time, which is its document's clock
 * as long as that stays the reference.  Setting another document drops
 * @streams.
 */
void
cs_timeline_set_streams (CsTimeline        *self,
                         CsStreamsRenderer *streams)
{
  CsStreamsRenderer *old;

  g_return_if_fail (CS_IS_TIMELINE (self));
  g_return_if_fail (streams == NULL || CS_IS_STREAMS_RENDERER (streams));

  old = *_cs_timeline_get_streams_slot (self);
  if (old == streams)
    return;
  if (old != NULL)
    g_signal_handlers_disconnect_by_data (cs_streams_renderer_get_stream_set (old), self);
  if (streams != NULL)
    {
      g_signal_connect_object (cs_streams_renderer_get_stream_set (streams), "items-changed",
                               G_CALLBACK (gtk_widget_queue_resize), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (cs_streams_renderer_get_stream_set (streams), "stream-updated",
                               G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
    }
  g_set_object (_cs_timeline_get_streams_slot (self), streams);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * cs_timeline_get_streams:
 * @self: a timeline
 *
 * Returns: (transfer none) (nullable): what cs_timeline_set_streams() set,
 *   drawn once its set holds two streams or more
 */
CsStreamsRenderer *
cs_timeline_get_streams (CsTimeline *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE (self), NULL);
  return *_cs_timeline_get_streams_slot (self);
}

/* The streams renderer while there are two streams or more, else NULL. */
CsStreamsRenderer *
_cs_timeline_get_streams (CsTimeline *self)
{
  CsStreamsRenderer *streams = *_cs_timeline_get_streams_slot (self);

  if (streams == NULL ||
      cs_stream_set_get_n_streams (cs_streams_renderer_get_stream_set (streams)) < 2)
    return NULL;
  return streams;
}

/* The other recordings' groups follow the timeline's colours (dark or
 * light), with one recording or several. */
void
_cs_timeline_streams_set_color_scheme (CsTimeline    *self,
                                       CsColorScheme  scheme)
{
  CsStreamsRenderer *streams = *_cs_timeline_get_streams_slot (self);

  if (streams != NULL)
    cs_streams_renderer_set_color_scheme (streams, scheme);
}

/* The stream of the timeline's own document. */
static CsStream *
own_stream (CsTimeline *self, CsStreamSet *set)
{
  CsDocument *doc = cs_timeline_get_document (self);

  for (guint i = 0; i < cs_stream_set_get_n_streams (set); i++)
    if (cs_stream_get_document (cs_stream_set_get_stream (set, i)) == doc)
      return cs_stream_set_get_stream (set, i);
  return NULL;
}

/**
 * _cs_timeline_get_plots_y:
 * @self: a #CsTimeline
 *
 * Returns: where the drawing of the timeline's own document starts, px
 *   from the widget's top: 0 with one recording, below its group's header
 *   with several (far above the widget when its group is hidden or
 *   collapsed, so that nothing hits it)
 */
double
_cs_timeline_get_plots_y (CsTimeline *self)
{
  CsStreamsRenderer *streams = _cs_timeline_get_streams (self);
  CsStream *own;
  double y = 0;

  if (streams == NULL)
    return 0;
  own = own_stream (self, cs_streams_renderer_get_stream_set (streams));
  if (own == NULL || cs_stream_get_collapsed (own) ||
      !cs_streams_renderer_get_stream_area (streams, own, &y, NULL))
    return -1e6;
  return y + CS_STREAM_HEADER_HEIGHT_PX;
}

static gboolean
hit_test (CsTimeline *self, double x_px, double y_px, CsStreamsHit *hit)
{
  CsStreamsRenderer *streams = _cs_timeline_get_streams (self);
  g_autoptr(GError) error = NULL;
  CsViewport viewport;

  if (streams == NULL)
    return FALSE;
  _cs_timeline_fill_viewport (self, &viewport);
  if (!cs_streams_renderer_hit_test (streams, &viewport, x_px, y_px, hit, &error))
    {
      g_message ("Cannot tell what lies under the pointer: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * _cs_timeline_streams_hover:
 * @self: a #CsTimeline
 * @x_px: x in widget coordinates
 * @y_px: y in widget coordinates
 *
 * Returns: (transfer full) (nullable): the hover text with several
 *   streams, %NULL with one (the timeline's own hit test answers)
 */
char *
_cs_timeline_streams_hover (CsTimeline *self,
                            double      x_px,
                            double      y_px)
{
  CsStreamsHit hit;
  CsDocument *doc;

  if (!hit_test (self, x_px, y_px, &hit))
    return NULL;
  if (hit.stream == NULL)
    return cs_hover_text_for_time (cs_timeline_get_document (self), hit.axis_ns);
  doc = cs_stream_get_document (hit.stream);
  switch (hit.part)
    {
    case CS_STREAMS_HIT_HEADER:
    case CS_STREAMS_HIT_COLLAPSE:
    case CS_STREAMS_HIT_CLOSE:
      /* TRANSLATORS: hover text of a recording's header row: its file, its
       * clock, and how it is aligned with the others */
      return g_strdup_printf (_("%s (%s). %s"), cs_stream_get_path (hit.stream),
                              cs_stream_get_clock_description (hit.stream),
                              cs_stream_get_note (hit.stream));
    case CS_STREAMS_HIT_VCPU_STRIP:
      return g_strdup_printf (_("vCPU %u, run by host thread %d"), hit.vcpu,
                              cs_stream_get_vcpu_tid (hit.stream, hit.vcpu));
    case CS_STREAMS_HIT_PLOTS:
      {
        g_autofree char *text = hit.hit.kind != CS_HIT_NONE
                                ? cs_hover_text_for_hit (doc, &hit.hit)
                                : cs_hover_text_for_time (doc, cs_stream_from_axis_ns (hit.stream, 0, hit.axis_ns));

        /* TRANSLATORS: hover text over a recording's plots in a window of
         * several: its name, then what lies under the pointer */
        return g_strdup_printf (_("%s: %s"), cs_stream_get_name (hit.stream), text);
      }
    case CS_STREAMS_HIT_NONE:
    default:
      return cs_hover_text_for_time (cs_timeline_get_document (self), hit.axis_ns);
    }
}

/**
 * _cs_timeline_streams_other_hit:
 * @self: a #CsTimeline
 * @x_px: x in widget coordinates
 * @y_px: y in widget coordinates
 * @hit: (out caller-allocates): what another stream's drawing has there,
 *   its times in that stream's own clock
 * @axis_ns: (out): the axis time under the point
 *
 * Returns: (transfer none) (nullable): the stream whose plots (not the
 *   timeline's own document's) lie under the point, or %NULL (one
 *   recording, the own stream's plots, a header, a vCPU strip)
 */
CsStream *
_cs_timeline_streams_other_hit (CsTimeline *self,
                                double      x_px,
                                double      y_px,
                                CsHit      *hit,
                                gint64     *axis_ns)
{
  CsStreamsHit streams_hit;

  if (!hit_test (self, x_px, y_px, &streams_hit) || streams_hit.stream == NULL ||
      streams_hit.part != CS_STREAMS_HIT_PLOTS ||
      cs_stream_get_document (streams_hit.stream) == cs_timeline_get_document (self))
    return NULL;
  *hit = streams_hit.hit;
  *axis_ns = streams_hit.axis_ns;
  return streams_hit.stream;
}

static guint
stream_position (CsTimeline *self, CsStream *stream)
{
  guint pos = 0;

  cs_stream_set_find (cs_streams_renderer_get_stream_set (_cs_timeline_get_streams (self)),
                      stream, &pos);
  return pos;
}

/**
 * _cs_timeline_streams_click:
 * @self: a #CsTimeline
 * @x_px: where the primary button was clicked
 * @y_px: likewise
 * @n_press: 1, or 2 for a double-click's second click (which does nothing
 *   more: the first toggled already)
 *
 * Returns: whether the click was a stream header's (collapse, close, or
 *   nothing), so that it places no marker
 */
gboolean
_cs_timeline_streams_click (CsTimeline *self,
                            double      x_px,
                            double      y_px,
                            guint       n_press)
{
  CsStreamsHit hit;

  if (!hit_test (self, x_px, y_px, &hit) || hit.stream == NULL)
    return FALSE;
  switch (hit.part)
    {
    case CS_STREAMS_HIT_COLLAPSE:
      if (n_press != 1)
        return TRUE;
      cs_stream_set_collapsed (hit.stream, !cs_stream_get_collapsed (hit.stream));
      gtk_widget_queue_resize (GTK_WIDGET (self));
      _cs_timeline_a11y_queue_update (self);
      return TRUE;
    case CS_STREAMS_HIT_CLOSE:
      if (n_press != 1)
        return TRUE;
      gtk_widget_activate_action (GTK_WIDGET (self), "win.stream-close", "u",
                                  stream_position (self, hit.stream));
      return TRUE;
    case CS_STREAMS_HIT_HEADER:
      return TRUE;
    case CS_STREAMS_HIT_NONE:
    case CS_STREAMS_HIT_PLOTS:
    case CS_STREAMS_HIT_VCPU_STRIP:
    default:
      return FALSE;
    }
}

static void
append (GMenu *menu, const char *label, const char *action, guint position)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint32 (position));
  g_menu_append_item (menu, item);
}

static gboolean
unparent_idle (gpointer data)
{
  GtkWidget *popover = data;

  if (gtk_widget_get_parent (popover) != NULL)
    gtk_widget_unparent (popover);
  g_object_unref (popover);
  return G_SOURCE_REMOVE;
}

static void
popover_closed_cb (GtkPopover *popover)
{
  /* after the menu's action ran */
  g_idle_add (unparent_idle, g_object_ref (popover));
}

/**
 * _cs_timeline_streams_popup:
 * @self: a #CsTimeline
 * @x_px: where the secondary button was pressed
 * @y_px: likewise
 *
 * Pops up a header's menu.
 *
 * Returns: whether (@x_px, @y_px) was on a stream header
 */
gboolean
_cs_timeline_streams_popup (CsTimeline *self,
                            double      x_px,
                            double      y_px)
{
  g_autoptr(GMenu) menu = NULL;
  GtkWidget *popover;
  CsStreamsHit hit;
  guint pos;

  if (!hit_test (self, x_px, y_px, &hit) || hit.stream == NULL ||
      (hit.part != CS_STREAMS_HIT_HEADER && hit.part != CS_STREAMS_HIT_COLLAPSE &&
       hit.part != CS_STREAMS_HIT_CLOSE))
    return FALSE;

  pos = stream_position (self, hit.stream);
  menu = g_menu_new ();
  append (menu, _("Move _Up"), "win.stream-up", pos);
  append (menu, _("Move _Down"), "win.stream-down", pos);
  append (menu, _("_Hide"), "win.stream-hide", pos);
  append (menu, _("_Shift…"), "win.stream-shift", pos);
  append (menu, _("_Align Marker A Here with Marker B"), "win.stream-align-markers", pos);
  append (menu, _("_Clear Manual Shift"), "win.stream-clear-offset", pos);
  append (menu, _("_Close"), "win.stream-close", pos);

  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, GTK_WIDGET (self));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int) x_px, (int) y_px, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (popover_closed_cb), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
  return TRUE;
}
