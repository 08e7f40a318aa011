/* cs-latency-explain-layer.c: the explained pair over the CPU plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The layer `explain` draws what the Latency page explains
 * (CsLatency.explained, cs-latency-explain-view.c):
 *
 * - the slices of the contributor activated in the page's list, on the
 *   CPU plot where the task waited then: each a vermillion band over the
 *   plot, at least CS_EXPLAIN_MIN_WIDTH wide, outlined;
 * - the wakeup chain as arrows from the waker to the woken task: a dot on
 *   the waker's CPU plot at the waking (A), a line from there towards the
 *   woken task's CPU plot, through the plots between, and an arrowhead on
 *   that plot at the switch-in (B).  A layer draws one plot at a time,
 *   clipped to it, so the arrow is drawn in pieces, one per plot it
 *   crosses; CPU plots are stacked in CPU order.  The link activated in
 *   the page is drawn thicker, in vermillion; the others in blue.
 *
 * The same layer draws in `chronoscope render` and in File → Export (the
 * window's renderer), so an exported slide shows the highlighted slices
 * and the chain as the window does.  A frame reads nothing: the few
 * slices and links are in memory.
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

#define CS_EXPLAIN_LAYER "explain"
#define CS_EXPLAIN_MIN_WIDTH 2.0
#define CS_EXPLAIN_HEAD_PX 7.0
#define CS_EXPLAIN_DOT_PX 3.5

/* Strokes the current path over a halo of the plots' background, so that
 * it reads over task colours of any hue. */
static void
stroke_with_halo (cairo_t            *cr,
                  const CsPluginView *view,
                  CsPluginColorRole   role,
                  double              width)
{
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_BACKGROUND, 0.9);
  cairo_set_line_width (cr, width + 3.0);
  cairo_stroke_preserve (cr);
  cs_plugin_view_set_source (view, cr, role, 1.0);
  cairo_set_line_width (cr, width);
  cairo_stroke (cr);
}

/* Fills the current path over the same halo. */
static void
fill_with_halo (cairo_t            *cr,
                const CsPluginView *view,
                CsPluginColorRole   role)
{
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_BACKGROUND, 0.9);
  cairo_set_line_width (cr, 3.0);
  cairo_stroke_preserve (cr);
  cs_plugin_view_set_source (view, cr, role, 1.0);
  cairo_fill (cr);
}

static void
draw_slices (const CsLatencyExplained *x,
             cairo_t                  *cr,
             const CsPluginView       *view,
             int                       cpu)
{
  const CsExplainBreakdown *b = _cs_latency_explained_get_shown (x);
  double y, h;

  if (x->contributor < 0 || b->slices == NULL)
    return;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &h);
  for (guint i = 0; i < b->slices->len; i++)
    {
      const CsExplainSlice *s = &g_array_index (b->slices, CsExplainSlice, i);
      double x0, x1;

      if ((int) s->contributor != x->contributor || (int) s->cpu != cpu)
        continue;
      x0 = cs_plugin_view_ns_to_x (view, s->begin_ns);
      x1 = MAX (cs_plugin_view_ns_to_x (view, s->end_ns), x0 + CS_EXPLAIN_MIN_WIDTH);
      cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_VERMILLION, 0.3);
      cairo_rectangle (cr, x0, y, x1 - x0, h);
      cairo_fill (cr);
      cairo_rectangle (cr, x0 + 1, y + 1, x1 - x0 - 2, h - 2);
      stroke_with_halo (cr, view, CS_PLUGIN_COLOR_VERMILLION, 2.0);
    }
}

static void
arrow_head (cairo_t *cr,
            double   from_x,
            double   from_y,
            double   to_x,
            double   to_y)
{
  double angle = atan2 (to_y - from_y, to_x - from_x);

  cairo_move_to (cr, to_x, to_y);
  cairo_line_to (cr, to_x - CS_EXPLAIN_HEAD_PX * cos (angle - G_PI / 7),
                 to_y - CS_EXPLAIN_HEAD_PX * sin (angle - G_PI / 7));
  cairo_line_to (cr, to_x - CS_EXPLAIN_HEAD_PX * cos (angle + G_PI / 7),
                 to_y - CS_EXPLAIN_HEAD_PX * sin (angle + G_PI / 7));
  cairo_close_path (cr);
}

/* The piece of one link's arrow that crosses the plot of @cpu. */
static void
draw_link (const CsExplainBreakdown *b,
           gboolean                  highlighted,
           cairo_t                  *cr,
           const CsPluginView       *view,
           int                       cpu)
{
  double y, h, mid, xa, xb, edge, width;
  CsPluginColorRole role;
  int lo = MIN (b->a_cpu, b->b_cpu), hi = MAX (b->a_cpu, b->b_cpu);

  if (cpu < lo || cpu > hi)
    return;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &h);
  mid = y + h / 2.0;
  xa = cs_plugin_view_ns_to_x (view, b->a_ns);
  xb = cs_plugin_view_ns_to_x (view, b->b_ns);
  role = highlighted ? CS_PLUGIN_COLOR_VERMILLION : CS_PLUGIN_COLOR_BLUE;
  width = highlighted ? 3.0 : 1.5;
  if (b->a_cpu == b->b_cpu)
    {
      /* Waker and woken task on one CPU: an arc over the plot. */
      double top = y + h * 0.2;

      cairo_move_to (cr, xa, mid);
      cairo_curve_to (cr, xa, top, xb, top, xb, mid - CS_EXPLAIN_HEAD_PX);
      stroke_with_halo (cr, view, role, width);
      cairo_arc (cr, xa, mid, CS_EXPLAIN_DOT_PX, 0, 2 * G_PI);
      fill_with_halo (cr, view, role);
      arrow_head (cr, xb, top, xb, mid);
      fill_with_halo (cr, view, role);
      return;
    }
  if (cpu == (int) b->a_cpu)
    {
      edge = b->b_cpu > b->a_cpu ? y + h : y;
      cairo_move_to (cr, xa, mid);
      cairo_line_to (cr, xa, edge);
      stroke_with_halo (cr, view, role, width);
      cairo_arc (cr, xa, mid, CS_EXPLAIN_DOT_PX, 0, 2 * G_PI);
      fill_with_halo (cr, view, role);
    }
  else if (cpu == (int) b->b_cpu)
    {
      edge = b->a_cpu > b->b_cpu ? y + h : y;
      cairo_move_to (cr, xa, edge);
      cairo_line_to (cr, xb, mid);
      stroke_with_halo (cr, view, role, width);
      arrow_head (cr, xa, edge, xb, mid);
      fill_with_halo (cr, view, role);
    }
  else
    {
      cairo_move_to (cr, xa, y);
      cairo_line_to (cr, xa, y + h);
      stroke_with_halo (cr, view, role, width);
    }
}

static gboolean
layer_draw (gpointer            instance,
            cairo_t            *cr,
            const CsPluginView *view,
            GError            **error)
{
  CsLatency *self = instance;
  const CsLatencyExplained *x = self != NULL ? self->explained : NULL;
  int cpu = cs_plugin_view_get_cpu (view);

  if (x == NULL || cpu < 0)
    return TRUE;
  draw_slices (x, cr, view, cpu);
  for (guint i = 0; x->links != NULL && i < x->links->len; i++)
    if ((int) i != x->link)
      draw_link (g_array_index (x->links, CsExplainLink, i).breakdown, FALSE, cr, view, cpu);
  if (x->links != NULL && x->link >= 0 && (guint) x->link < x->links->len)
    draw_link (g_array_index (x->links, CsExplainLink, x->link).breakdown, TRUE, cr, view, cpu);
  return TRUE;
}

/* A highlighted slice under the pointer names its contributor. */
static gboolean
layer_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  CsLatency *self = instance;
  const CsLatencyExplained *x = self != NULL ? self->explained : NULL;
  const CsExplainBreakdown *b;
  int cpu = cs_plugin_view_get_cpu (view);

  if (x == NULL || x->contributor < 0 || cpu < 0)
    return FALSE;
  b = _cs_latency_explained_get_shown (x);
  for (guint i = 0; b->slices != NULL && i < b->slices->len; i++)
    {
      const CsExplainSlice *s = &g_array_index (b->slices, CsExplainSlice, i);
      const CsExplainContributor *c;
      g_autofree char *what = NULL;
      g_autofree char *dur = NULL;
      double x0, x1;

      if ((int) s->contributor != x->contributor || (int) s->cpu != cpu)
        continue;
      x0 = cs_plugin_view_ns_to_x (view, s->begin_ns);
      x1 = MAX (cs_plugin_view_ns_to_x (view, s->end_ns), x0 + CS_EXPLAIN_MIN_WIDTH);
      if (x_px < x0 - 2 || x_px > x1 + 2)
        continue;
      c = &g_array_index (b->contributors, CsExplainContributor, s->contributor);
      what = cs_explain_contributor_describe (c);
      dur = cs_latency_format_ns (s->end_ns - s->begin_ns);
      /* TRANSLATORS: a slice of a latency's breakdown under the pointer */
      item->text = g_strdup_printf (_("held the waiting task's CPU: %s, %s"), what, dur);
      item->begin_ns = s->begin_ns;
      item->end_ns = s->end_ns;
      item->pid = c->kind == CS_EXPLAIN_TASK || c->kind == CS_EXPLAIN_IRQS_OFF ||
                  c->kind == CS_EXPLAIN_PREEMPT_OFF ? c->id : -1;
      return TRUE;
    }
  return FALSE;
}

/**
 * _cs_latency_add_explain_layer:
 * @plugin: the latency plugin, in its init
 *
 * Registers the CPU-plot layer `explain`.
 */
void
_cs_latency_add_explain_layer (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = CS_EXPLAIN_LAYER,
    .target = CS_PLUGIN_LAYER_CPU_PLOT,
    .draw = layer_draw,
    .lookup = layer_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
