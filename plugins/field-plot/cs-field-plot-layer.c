/* cs-field-plot-layer.c: the field plot's rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A row plots its key's values on a fixed vertical scale (the series'
 * min at the bottom, max at the top, both written at the left edge), as
 * a step line: a value holds until the next one.  Zoomed in, each point
 * is drawn where it is (a dot on it when points are a few pixels apart);
 * zoomed out, each pixel column shows the min..max of its values as a
 * bar and the step line goes through its last value.  Everything comes
 * from the series (cs-field-plot-series.c): about one row per column.
 */
#include <inttypes.h>
#include <math.h>

#include <glib/gi18n-lib.h>

#include "cs-field-plot-private.h"

#define PAD_PX         4.0
#define DOT_SPACING_PX 6.0
#define LOOKUP_PX      4.0

static char *
values_row_label (gpointer    instance,
                  const char *key)
{
  CsFieldPlot *self = instance;
  g_auto(CsFieldPlotKey) k = { 0 };

  if (self == NULL || !_cs_field_plot_key_parse (key, &k, NULL) ||
      !_cs_field_plot_key_check (&k, self->document, NULL))
    return NULL;
  /* The row is being set up: its values are needed soon. */
  _cs_field_plot_request (self, key);
  return _cs_field_plot_key_label (&k);
}

typedef struct {
  double y0;
  double height;
  gint64 min;
  gint64 max;
} Scale;

static double
scale_y (const Scale *s,
         gint64       value)
{
  if (s->max == s->min)
    return s->y0 + s->height / 2;
  return s->y0 + PAD_PX + (s->height - 2 * PAD_PX) *
         (1.0 - ((double) value - (double) s->min) / ((double) s->max - (double) s->min));
}

/* Small text at the row's left edge, over a light patch so that the line
 * under it does not hide it.  The text is first laid out with a
 * transparent source to learn its width (the view caches the layout, so
 * this costs far less than drawing through a group). */
static void
draw_note (cairo_t            *cr,
           const CsPluginView *view,
           double              y,
           const char         *text)
{
  double x0, width, text_width;

  cs_plugin_view_get_area (view, &x0, NULL, &width, NULL);
  cairo_set_source_rgba (cr, 0, 0, 0, 0);
  text_width = cs_plugin_view_draw_text (view, cr, x0 + 4, y, width - 8, CS_PLUGIN_TEXT_SMALL, text);
  if (text_width <= 0)
    return;
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_BACKGROUND, 0.8);
  cairo_rectangle (cr, x0 + 2, round (y) - 7, text_width + 4, 14);
  cairo_fill (cr);
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 1.0);
  cs_plugin_view_draw_text (view, cr, x0 + 4, y, width - 8, CS_PLUGIN_TEXT_SMALL, text);
}

/* A 2 px thick horizontal line from @x1 to @x2 centred on @y (whole
 * pixels). */
static void
add_hline (cairo_t *cr,
           double   x1,
           double   x2,
           double   y)
{
  if (x2 > x1)
    cairo_rectangle (cr, x1 - 1, y - 1, x2 - x1 + 2, 2);
}

/* A 2 px wide vertical line at @x from @y1 to @y2 (a 2 px square when
 * they are equal). */
static void
add_vline (cairo_t *cr,
           double   x,
           double   y1,
           double   y2)
{
  cairo_rectangle (cr, x - 1, MIN (y1, y2) - 1, 2, ABS (y2 - y1) + 2);
}

/* Where the series reaches to on the right: its value holds until the
 * recording ends. */
static double
hold_until_x (const CsPluginView *view)
{
  double x0, width;

  cs_plugin_view_get_area (view, &x0, NULL, &width, NULL);
  return MIN (x0 + width,
              cs_plugin_view_ns_to_x (view, cs_plugin_document_get_last_ns (cs_plugin_view_get_document (view)) + 1));
}

static gboolean
values_draw (gpointer             instance,
             cairo_t             *cr,
             const CsPluginView  *view,
             GError             **error)
{
  CsFieldPlot *self = instance;
  const char *key = cs_plugin_view_get_row_key (view);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (CsFieldPlotValue));
  g_autofree char *top = NULL;
  g_autofree char *bottom = NULL;
  CsFieldPlotSeries *series;
  CsFieldPlotValue prev;
  gboolean exact, has_prev;
  double x0, width, ns_per_px, x_prev, y_prev;
  gint64 begin_ns, end_ns;
  Scale scale;

  if (self == NULL || key == NULL)
    return TRUE;
  cs_plugin_view_get_area (view, &x0, &scale.y0, &width, &scale.height);
  series = _cs_field_plot_get_series (self, key, &local_error);
  if (series == NULL)
    {
      if (g_error_matches (local_error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY))
        {
          draw_note (cr, view, scale.y0 + scale.height / 2, "computing…");
          return TRUE;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (_cs_field_plot_series_get_n_points (series) == 0)
    {
      draw_note (cr, view, scale.y0 + scale.height / 2, _("no values"));
      return TRUE;
    }
  _cs_field_plot_series_get_range (series, &scale.min, &scale.max);

  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  ns_per_px = cs_plugin_view_get_ns_per_px (view);
  if (!_cs_field_plot_series_read (series, begin_ns, end_ns, ns_per_px, (guint) MAX (width / 2, 1),
                                   values, &exact, error))
    return FALSE;
  has_prev = _cs_field_plot_series_get_before (series, begin_ns, &prev, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* Zoomed out: each column's min..max. */
  if (!exact)
    {
      cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_SKY_BLUE, 0.6);
      for (guint i = 0; i < values->len; i++)
        {
          const CsFieldPlotValue *v = &g_array_index (values, CsFieldPlotValue, i);
          double x = floor (cs_plugin_view_ns_to_x (view, v->ts_ns));
          double y_max = scale_y (&scale, v->max), y_min = scale_y (&scale, v->min);

          /* Ranges under 3 px hide under the 2 px line through the column. */
          if (floor (y_min) - floor (y_max) >= 3)
            cairo_rectangle (cr, x, floor (y_max), 1, floor (y_min) - floor (y_max) + 1);
        }
      cairo_fill (cr);
    }

  /* The step line through each point (or each column's last value). */
  /* The step line as 2 px boxes on whole pixels: crisp, the same in every
   * frame, and cairo fills pixel-aligned boxes much faster than it
   * strokes a polyline of thousands of segments. */
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_BLUE, 1.0);
  y_prev = has_prev ? round (scale_y (&scale, prev.last)) : NAN;
  x_prev = x0;
  for (guint i = 0; i < values->len; i++)
    {
      const CsFieldPlotValue *v = &g_array_index (values, CsFieldPlotValue, i);
      double x = exact ? round (cs_plugin_view_ns_to_x (view, v->ts_ns))
                       : floor (cs_plugin_view_ns_to_x (view, v->ts_ns)) + 1.0;
      double y = round (scale_y (&scale, v->last));

      if (!isnan (y_prev))
        {
          /* Next to the previous column, its vertical box covers the step. */
          if (x - x_prev > 1)
            add_hline (cr, x_prev, x, y_prev);
          add_vline (cr, x, y_prev, y);
        }
      y_prev = y;
      x_prev = x;
    }
  if (!isnan (y_prev))
    add_hline (cr, x_prev, round (hold_until_x (view)), y_prev);
  cairo_fill (cr);

  if (exact && values->len > 0 && width / values->len >= DOT_SPACING_PX)
    {
      for (guint i = 0; i < values->len; i++)
        {
          const CsFieldPlotValue *v = &g_array_index (values, CsFieldPlotValue, i);

          cairo_new_sub_path (cr);
          cairo_arc (cr, cs_plugin_view_ns_to_x (view, v->ts_ns), scale_y (&scale, v->last),
                     2.5, 0, 2 * G_PI);
        }
      cairo_fill (cr);
    }

  top = g_strdup_printf ("%" G_GINT64_FORMAT, scale.max);
  bottom = g_strdup_printf ("%" G_GINT64_FORMAT, scale.min);
  draw_note (cr, view, scale.y0 + 7, top);
  if (scale.max != scale.min)
    draw_note (cr, view, scale.y0 + scale.height - 7, bottom);
  return TRUE;
}

static gboolean
values_lookup (gpointer            instance,
               const CsPluginView *view,
               double              x_px,
               double              y_px,
               CsPluginItem       *item)
{
  CsFieldPlot *self = instance;
  const char *key = cs_plugin_view_get_row_key (view);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (CsFieldPlotValue));
  g_auto(CsFieldPlotKey) k = { 0 };
  CsFieldPlotSeries *series;
  gint64 begin_ns, end_ns;
  gboolean exact;

  if (self == NULL || key == NULL || !_cs_field_plot_key_parse (key, &k, NULL))
    return FALSE;
  series = _cs_field_plot_get_series (self, key, NULL);
  if (series == NULL)
    return FALSE;
  begin_ns = cs_plugin_view_x_to_ns (view, x_px - LOOKUP_PX);
  end_ns = cs_plugin_view_x_to_ns (view, x_px + LOOKUP_PX) + 1;
  if (!_cs_field_plot_series_read (series, begin_ns, end_ns, cs_plugin_view_get_ns_per_px (view),
                                   16, values, &exact, NULL) || values->len == 0)
    return FALSE;

  if (exact)
    {
      const CsFieldPlotValue *best = NULL;
      double best_dx = G_MAXDOUBLE;

      for (guint i = 0; i < values->len; i++)
        {
          const CsFieldPlotValue *v = &g_array_index (values, CsFieldPlotValue, i);
          double dx = fabs (cs_plugin_view_ns_to_x (view, v->ts_ns) - x_px);

          if (dx < best_dx)
            {
              best = v;
              best_dx = dx;
            }
        }
      item->text = g_strdup_printf (_("%s.%s = %" PRId64 " (CPU %d, pid %d)"), k.event,
                                    k.field, best->last, best->cpu, best->pid);
      item->begin_ns = item->end_ns = best->ts_ns;
      item->pid = best->pid;
      return TRUE;
    }
  else
    {
      CsFieldPlotValue all = g_array_index (values, CsFieldPlotValue, 0);

      for (guint i = 1; i < values->len; i++)
        {
          const CsFieldPlotValue *v = &g_array_index (values, CsFieldPlotValue, i);

          all.n += v->n;
          all.min = MIN (all.min, v->min);
          all.max = MAX (all.max, v->max);
          all.last = v->last;
        }
      item->text = g_strdup_printf (_("%s.%s: %" PRId64 " values, min %" PRId64
                                      ", max %" PRId64 ", last %" PRId64),
                                    k.event, k.field, all.n, all.min, all.max, all.last);
      item->begin_ns = begin_ns;
      item->end_ns = end_ns;
      item->pid = -1;
      return TRUE;
    }
}

/**
 * _cs_field_plot_add_layer:
 * @plugin: the field-plot plugin, in its init
 *
 * Registers the row layer "values" (keys: cs-field-plot-key.h).
 */
void
_cs_field_plot_add_layer (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = CS_FIELD_PLOT_LAYER,
    .target = CS_PLUGIN_LAYER_ROW,
    .row_label = values_row_label,
    .draw = values_draw,
    .lookup = values_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
