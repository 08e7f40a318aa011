/* cs-latency-histogram.c: the page's histogram of durations.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A GtkDrawingArea drawn with cairo: one bar per power of two of
 * nanoseconds ([2^(k−1), 2^k), CsLatencyBucket), so the time axis is
 * logarithmic with bars of equal width; heights are linear in the count
 * (a bar with any pair is at least 2 px high, so a lone worst case shows).
 * A click selects a bar (again: deselects it), and the page then lists
 * only that bar's pairs.
 */
#include "cs-latency-ui.h"

#define LABEL_HEIGHT 18.0

typedef struct {
  GArray *bars;              /* CsLatencyBucket */
  int selected;              /* -1: none */
  CsLatencyReadyFunc changed;
  gpointer data;
} Histogram;

static void
histogram_free (gpointer data)
{
  Histogram *h = data;

  g_clear_pointer (&h->bars, g_array_unref);
  g_free (h);
}

static Histogram *
get (GtkDrawingArea *area)
{
  return g_object_get_data (G_OBJECT (area), "cs-latency-histogram");
}

static void
histogram_draw (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  Histogram *h = user_data;
  GtkWidget *widget = GTK_WIDGET (area);
  guint n = h->bars != NULL ? h->bars->len : 0;
  double bar_w = n > 0 ? (double) width / n : 0, plot_h = MAX (height - LABEL_HEIGHT, 1.0);
  double last_label = -1e9;
  guint64 top = 1;
  GdkRGBA fg;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  for (guint i = 0; i < n; i++)
    top = MAX (top, g_array_index (h->bars, CsLatencyBucket, i).count);
  for (guint i = 0; i < n; i++)
    {
      const CsLatencyBucket *bar = &g_array_index (h->bars, CsLatencyBucket, i);
      double bh = bar->count == 0 ? 0 : MAX (2.0, plot_h * bar->count / top);

      if ((int) i == h->selected)
        cairo_set_source_rgb (cr, 0.835, 0.369, 0.0);   /* vermillion */
      else
        cairo_set_source_rgb (cr, 0.0, 0.447, 0.698);   /* blue */
      cairo_rectangle (cr, i * bar_w + 1, plot_h - bh, MAX (bar_w - 2, 1.0), bh);
      cairo_fill (cr);
      /* The bar's lower bound under it, where the label has room. */
      if (i * bar_w - last_label >= 64)
        {
          g_autofree char *text = cs_latency_format_ns (bar->lo_ns);
          PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);

          gdk_cairo_set_source_rgba (cr, &fg);
          cairo_move_to (cr, i * bar_w + 1, plot_h + 2);
          pango_cairo_show_layout (cr, layout);
          g_object_unref (layout);
          last_label = i * bar_w;
        }
    }
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, plot_h + 0.5);
  cairo_line_to (cr, width, plot_h + 0.5);
  cairo_stroke (cr);
}

static void
pressed_cb (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            gpointer         user_data)
{
  GtkDrawingArea *area = GTK_DRAWING_AREA (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture)));
  Histogram *h = user_data;
  int width = gtk_widget_get_width (GTK_WIDGET (area));
  guint n = h->bars != NULL ? h->bars->len : 0;
  int bar;

  if (n == 0 || width <= 0)
    return;
  bar = CLAMP ((int) (x * n / width), 0, (int) n - 1);
  _cs_latency_histogram_select (area, bar == h->selected ? -1 : bar);
}

/**
 * _cs_latency_histogram_init:
 * @area: a new drawing area
 * @selected: called when the selected bar changes
 * @data: for @selected
 *
 * Makes @area the histogram: empty until _cs_latency_histogram_set().
 */
void
_cs_latency_histogram_init (GtkDrawingArea     *area,
                            CsLatencyReadyFunc  selected,
                            gpointer            data)
{
  Histogram *h = g_new0 (Histogram, 1);
  GtkGesture *click = gtk_gesture_click_new ();

  h->selected = -1;
  h->changed = selected;
  h->data = data;
  g_object_set_data_full (G_OBJECT (area), "cs-latency-histogram", h, histogram_free);
  gtk_drawing_area_set_draw_func (area, histogram_draw, h, NULL);
  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), h);
  gtk_widget_add_controller (GTK_WIDGET (area), GTK_EVENT_CONTROLLER (click));
}

/**
 * _cs_latency_histogram_set:
 * @area: a histogram
 * @bars: (element-type CsLatencyBucket) (nullable) (transfer none): the
 *   bars (CsLatencyStats.histogram), referenced
 *
 * Shows @bars, with no bar selected (the selected callback is not called).
 */
void
_cs_latency_histogram_set (GtkDrawingArea *area,
                           GArray         *bars)
{
  Histogram *h = get (area);

  g_clear_pointer (&h->bars, g_array_unref);
  h->bars = bars != NULL ? g_array_ref (bars) : NULL;
  h->selected = -1;
  gtk_widget_queue_draw (GTK_WIDGET (area));
}

/**
 * _cs_latency_histogram_get_selected:
 * @area: a histogram
 *
 * Returns: the selected bar's index in the bars given, or -1 for none
 */
int
_cs_latency_histogram_get_selected (GtkDrawingArea *area)
{
  return get (area)->selected;
}

/**
 * _cs_latency_histogram_select:
 * @area: a histogram
 * @bar: a bar's index, or -1 for none
 *
 * Selects a bar as a click does, and calls the selected callback.
 */
void
_cs_latency_histogram_select (GtkDrawingArea *area,
                              int             bar)
{
  Histogram *h = get (area);

  h->selected = h->bars != NULL && bar >= 0 && (guint) bar < h->bars->len ? bar : -1;
  gtk_widget_queue_draw (GTK_WIDGET (area));
  h->changed (h->data);
}
