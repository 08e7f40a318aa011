/* cs-markers.c: markers A and B of the timeline, drawn and described.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The markers are state of CsTimeline (its marker-a-ns, marker-b-ns and
 * active-marker properties); this file only paints one onto a snapshot and
 * writes the info bar's line about both, so the timeline stays a thin
 * widget and the colours live in one place.  The colours are KernelShark's:
 * A green, B red.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-markers.h"
#include "cs-time-axis.h"

#define LINE_WIDTH_PX        1.0
#define ACTIVE_LINE_WIDTH_PX 2.0
#define FLAG_PADDING_PX      4.0
#define FLAG_TOP_PX          2.0

G_DEFINE_ENUM_TYPE (CsMarker, cs_marker,
                    G_DEFINE_ENUM_VALUE (CS_MARKER_A, "a"),
                    G_DEFINE_ENUM_VALUE (CS_MARKER_B, "b"))

/* GNOME palette green 5 and red 3: readable on white and as a thin line. */
static const GdkRGBA marker_colours[] = {
  { 0.149, 0.635, 0.412, 1.0 },   /* #26a269 */
  { 0.878, 0.106, 0.141, 1.0 },   /* #e01b24 */
};
static const char * const marker_hex[] = { "#26a269", "#e01b24" };
static const char * const marker_names[] = { "A", "B" };

/**
 * cs_marker_snapshot:
 * @widget: the widget drawn into, for its Pango context
 * @snapshot: where to draw
 * @marker: which marker
 * @active: whether it is the active marker (a click moves it): drawn bolder
 * @x_px: its position, widget pixels
 * @height_px: the height of the line, pixels from the top
 *
 * Draws a marker as a vertical line with a flag at the top carrying its
 * letter.  The flag sits right of the line, or left of it near the right
 * edge of @widget, so that it never leaves the widget.
 */
void
cs_marker_snapshot (GtkWidget   *widget,
                    GtkSnapshot *snapshot,
                    CsMarker     marker,
                    gboolean     active,
                    double       x_px,
                    double       height_px)
{
  g_autoptr(PangoLayout) layout = NULL;
  const GdkRGBA *colour = &marker_colours[marker];
  GdkRGBA line = *colour;
  GdkRGBA white = { 1, 1, 1, 1 };
  double line_width = active ? ACTIVE_LINE_WIDTH_PX : LINE_WIDTH_PX;
  double flag_x, flag_width, flag_height;
  PangoRectangle ink, logical;
  GskRoundedRect rounded;

  g_return_if_fail (marker == CS_MARKER_A || marker == CS_MARKER_B);

  if (!active)
    line.alpha = 0.8;
  gtk_snapshot_append_color (snapshot, &line,
                             &GRAPHENE_RECT_INIT (floor (x_px - line_width / 2.0), 0,
                                                  line_width, height_px));

  layout = gtk_widget_create_pango_layout (widget, marker_names[marker]);
  if (active)
    {
      g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, attrs);
    }
  pango_layout_get_pixel_extents (layout, &ink, &logical);
  flag_width = logical.width + 2 * FLAG_PADDING_PX;
  flag_height = logical.height + 2;
  flag_x = floor (x_px - line_width / 2.0);
  if (flag_x + flag_width > gtk_widget_get_width (widget))
    flag_x = floor (x_px + line_width / 2.0) - flag_width;

  gsk_rounded_rect_init_from_rect (&rounded,
                                   &GRAPHENE_RECT_INIT (flag_x, FLAG_TOP_PX, flag_width, flag_height),
                                   3.0);
  if (!active)
    {
      /* Inactive: an outlined flag, so the active one stands out. */
      GdkRGBA fill = { 1, 1, 1, 0.92 };
      float widths[4] = { 1, 1, 1, 1 };
      GdkRGBA colours[4] = { *colour, *colour, *colour, *colour };

      gtk_snapshot_push_rounded_clip (snapshot, &rounded);
      gtk_snapshot_append_color (snapshot, &fill, &rounded.bounds);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_append_border (snapshot, &rounded, widths, colours);
      white = *colour;
    }
  else
    {
      gtk_snapshot_push_rounded_clip (snapshot, &rounded);
      gtk_snapshot_append_color (snapshot, colour, &rounded.bounds);
      gtk_snapshot_pop (snapshot);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (flag_x + FLAG_PADDING_PX, FLAG_TOP_PX + 1));
  gtk_snapshot_append_layout (snapshot, layout, &white);
  gtk_snapshot_restore (snapshot);
}

static void
append_marker (GString    *text,
               CsMarker    marker,
               gboolean    active,
               gint64      ts_ns)
{
  g_autofree char *time = ts_ns != CS_MARKER_UNSET ? cs_time_format_timestamp (ts_ns)
                                                   : g_strdup ("–");

  /* The active marker's letter is a coloured chip, the other one coloured
   * text: the chip says which marker the next click moves. */
  if (active)
    g_string_append_printf (text, "<span background=\"%s\" foreground=\"white\" weight=\"bold\"> %s </span> %s",
                            marker_hex[marker], marker_names[marker], time);
  else
    g_string_append_printf (text, "<span foreground=\"%s\" weight=\"bold\">%s</span> %s",
                            marker_hex[marker], marker_names[marker], time);
}

/**
 * cs_marker_describe_markup:
 * @a_ns: time of marker A, or %CS_MARKER_UNSET
 * @b_ns: time of marker B, or %CS_MARKER_UNSET
 * @active: the active marker
 *
 * The info bar's line about the markers: each marker's timestamp as
 * `trace-cmd report -t` and the event list print it, and the distance
 * B − A in readable units ("B − A 350.692 µs") when both are placed.
 *
 * Returns: (transfer full): Pango markup
 */
char *
cs_marker_describe_markup (gint64   a_ns,
                           gint64   b_ns,
                           CsMarker active)
{
  GString *text = g_string_new (NULL);

  append_marker (text, CS_MARKER_A, active == CS_MARKER_A, a_ns);
  g_string_append (text, "    ");
  append_marker (text, CS_MARKER_B, active == CS_MARKER_B, b_ns);

  if (a_ns != CS_MARKER_UNSET && b_ns != CS_MARKER_UNSET)
    {
      g_autofree char *delta = cs_time_format_duration (b_ns - a_ns);
      g_autofree char *escaped = g_markup_escape_text (delta, -1);

      g_string_append (text, "    ");
      /* TRANSLATORS: the distance between the markers, "B − A 350.692 µs" */
      g_string_append_printf (text, _("B − A <b>%s</b>"), escaped);
    }

  return g_string_free (text, FALSE);
}
