/* cs-latency-contributor-row.c: a contributor of a breakdown, as the
 * explain view shows it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A contributor's colour (a task, and its sections hatched, in its
 * timeline colour; interrupts and softirqs in the palette's vermillion
 * and orange; idle and unexplained time grey), which the view's bar and
 * the line's swatch both draw, and the line of the view's list of
 * contributors: the swatch, what it is, its kind, its time with the exact
 * ns in its tooltip, its share.  The line's layout is the template
 * cs-latency-contributor-row.ui; activating it is the list's
 * (cs-latency-explain-view.c), which knows the contributor by the line's
 * index.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

struct _CsLatencyContributorRow
{
  GtkListBoxRow parent_instance;

  GtkDrawingArea *swatch;
  GtkLabel *what;
  GtkLabel *kind;
  GtkLabel *time;
  GtkLabel *share;
  CsExplainContributor contributor;
};

G_DEFINE_FINAL_TYPE (CsLatencyContributorRow, cs_latency_contributor_row, GTK_TYPE_LIST_BOX_ROW)

/* A contributor's colour in the bar and the list: a task (and its
 * sections, hatched) in its timeline colour.  Returns whether to hatch. */
static gboolean
contributor_color (const CsExplainContributor *c,
                   CsPluginColor              *color)
{
  static const CsPluginColor vermillion = { 213 / 255.0, 94 / 255.0, 0.0, 1.0 };
  static const CsPluginColor orange = { 230 / 255.0, 159 / 255.0, 0.0, 1.0 };
  static const CsPluginColor idle = { 0.86, 0.86, 0.86, 1.0 };
  static const CsPluginColor unknown = { 0.6, 0.6, 0.6, 1.0 };

  switch (c->kind)
    {
    case CS_EXPLAIN_IRQ:
      *color = vermillion;
      return FALSE;
    case CS_EXPLAIN_SOFTIRQ:
      *color = orange;
      return FALSE;
    case CS_EXPLAIN_IDLE:
      *color = idle;
      return FALSE;
    case CS_EXPLAIN_UNKNOWN:
      *color = unknown;
      return FALSE;
    case CS_EXPLAIN_VCPU_EXIT:
    case CS_EXPLAIN_VCPU_NOT_RUNNING:
      /* the host's colour for a vCPU out of the guest: hatched grey */
      *color = unknown;
      return TRUE;
    case CS_EXPLAIN_TASK:
    case CS_EXPLAIN_IRQS_OFF:
    case CS_EXPLAIN_PREEMPT_OFF:
    default:
      if (!cs_plugin_get_task_color (c->id, color))
        *color = unknown;
      return c->kind != CS_EXPLAIN_TASK;
    }
}

/**
 * _cs_latency_contributor_fill:
 * @cr: where to draw
 * @contributor: a contributor of a breakdown
 * @x: the left of the rectangle
 * @y: its top
 * @width: its width
 * @height: its height
 *
 * Fills the rectangle in @contributor's colour, hatched for a section (a
 * task's with interrupts or preemption off, a vCPU out of the guest).
 */
void
_cs_latency_contributor_fill (cairo_t                    *cr,
                              const CsExplainContributor *contributor,
                              double                      x,
                              double                      y,
                              double                      width,
                              double                      height)
{
  CsPluginColor color;
  gboolean hatch = contributor_color (contributor, &color);

  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_rectangle (cr, x, y, width, height);
  cairo_fill (cr);
  if (!hatch)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.45);
  cairo_set_line_width (cr, 1.5);
  for (double sx = x - height; sx < x + width; sx += 6.0)
    {
      cairo_move_to (cr, sx, y + height);
      cairo_line_to (cr, sx + height, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/**
 * _cs_latency_format_share:
 * @ns: a part of a latency
 * @total_ns: the latency
 *
 * Returns: (transfer full): @ns as a share of @total_ns, "12.3 %"
 */
char *
_cs_latency_format_share (gint64 ns,
                          gint64 total_ns)
{
  return g_strdup_printf ("%.1f %%", total_ns > 0 ? 100.0 * (double) ns / (double) total_ns : 0.0);
}

/* What a part of the breakdown is, as the list's "Kind" column says. */
static const char *
kind_label (const CsExplainContributor *c)
{
  /* A section inferred from the events' flags is named apart: it is a
   * lower bound, not a section the kernel logged. */
  if (c->source == CS_EXPLAIN_SOURCE_LATENCY_FLAGS)
    return c->kind == CS_EXPLAIN_IRQS_OFF ? _("interrupts off (latency flags)")
                                          : _("preemption off (latency flags)");
  switch (c->kind)
    {
    case CS_EXPLAIN_TASK:
      return _("task");
    case CS_EXPLAIN_IRQ:
      return _("hard interrupt");
    case CS_EXPLAIN_SOFTIRQ:
      return _("softirq");
    case CS_EXPLAIN_IRQS_OFF:
      return _("interrupts off");
    case CS_EXPLAIN_PREEMPT_OFF:
      return _("preemption off");
    case CS_EXPLAIN_IDLE:
      return _("idle");
    case CS_EXPLAIN_VCPU_EXIT:
      return _("vCPU exit");
    case CS_EXPLAIN_VCPU_NOT_RUNNING:
      return _("vCPU not running");
    case CS_EXPLAIN_UNKNOWN:
    default:
      return _("no event");
    }
}

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  CsLatencyContributorRow *self = user_data;

  _cs_latency_contributor_fill (cr, &self->contributor, 0, 0, width, height);
}

static void
cs_latency_contributor_row_class_init (CsLatencyContributorRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-contributor-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContributorRow, swatch);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContributorRow, what);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContributorRow, kind);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContributorRow, time);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContributorRow, share);
}

static void
cs_latency_contributor_row_init (CsLatencyContributorRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->swatch, swatch_draw, self, NULL);
}

/**
 * _cs_latency_contributor_row_new:
 * @contributor: a contributor of a breakdown (copied)
 * @total_ns: the breakdown's latency, for the share
 *
 * Returns: (transfer floating): a line for the explain view's list of
 *   contributors
 */
GtkWidget *
_cs_latency_contributor_row_new (const CsExplainContributor *contributor,
                                 gint64                      total_ns)
{
  CsLatencyContributorRow *self = g_object_new (CS_LATENCY_TYPE_CONTRIBUTOR_ROW, NULL);
  g_autofree char *what = cs_explain_contributor_describe (contributor);
  g_autofree char *dur = cs_latency_format_ns (contributor->ns);
  g_autofree char *exact = g_strdup_printf ("%" G_GINT64_FORMAT " ns", contributor->ns);
  g_autofree char *share = _cs_latency_format_share (contributor->ns, total_ns);
  g_autofree char *slices = g_strdup_printf (ngettext ("%s in %u slice", "%s in %u slices",
                                                       contributor->n_slices),
                                             exact, contributor->n_slices);

  self->contributor = *contributor;
  gtk_label_set_text (self->what, what);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->what), what);
  gtk_label_set_text (self->kind, kind_label (contributor));
  gtk_label_set_text (self->time, dur);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->time), slices);
  gtk_label_set_text (self->share, share);
  return GTK_WIDGET (self);
}
