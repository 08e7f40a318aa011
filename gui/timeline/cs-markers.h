/* cs-markers.h: markers A and B of the timeline, drawn and described.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * CsMarker:
 * @CS_MARKER_A: marker A (green), the one a click moves by default
 * @CS_MARKER_B: marker B (red), set by double-click or Shift+click
 *
 * The two markers of a timeline, as in KernelShark: their distance B − A
 * measures a latency by hand.
 */
typedef enum {
  CS_MARKER_A,
  CS_MARKER_B,
} CsMarker;

/**
 * CS_MARKER_UNSET:
 *
 * The time of a marker that is not placed.
 */
#define CS_MARKER_UNSET G_GINT64_CONSTANT (-1)

#define CS_TYPE_MARKER (cs_marker_get_type ())
GType  cs_marker_get_type         (void) G_GNUC_CONST;

void   cs_marker_snapshot         (GtkWidget   *widget,
                                   GtkSnapshot *snapshot,
                                   CsMarker     marker,
                                   gboolean     active,
                                   double       x_px,
                                   double       height_px);
char  *cs_marker_describe_markup  (gint64       a_ns,
                                   gint64       b_ns,
                                   CsMarker     active);

G_END_DECLS
