/* cs-latency-explain-view.c: why the selected pair was late, beside the
 * Latency page's list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Selecting a pair explains it with the explain room's API
 * (explain/cs-explain.h): a wakeup pair gets its breakdown and its wakeup
 * chain (cs_explain_wakeup_chain(), link 0 the pair), any other pair the
 * breakdown of B's CPU (cs_explain_span_on_cpu()).  The view shows the
 * verdict, a stacked bar of the contributors (a task in its timeline
 * colour, a section of a task in that colour hatched, interrupts and
 * softirqs in the palette's vermillion and orange, idle and unexplained
 * time grey), the contributors as a list (name, kind, time with the exact
 * ns in its tooltip, share) and the chain as a list of steps.  Activating
 * a contributor highlights its slices on the CPU plots and zooms the
 * timeline to them; activating a step zooms to that link and puts markers
 * A and B on it.  What the timeline draws (the layer `explain`,
 * cs-latency-explain-layer.c) reads CsLatency.explained, which this view
 * sets.  Everything is reachable with Tab and activated with Enter; the
 * bar's accessible description is the breakdown in words.
 *
 * The layout is the template cs-latency-explain-view.ui, a contributor's
 * line a CsLatencyContributorRow (cs-latency-contributor-row.c, which
 * also has the contributors' colours), a step's a CsLatencyLinkRow
 * (cs-latency-link-row.c).
 *
 * Widgets a test reaches have names: latency-explain, latency-verdict,
 * latency-breakdown-bar, latency-contributors (rows: their time label
 * latency-contributor-ns, exact ns in its tooltip) and latency-chain.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

#define DEFAULT_DEPTH 8
#define SUMMARY_PARTS 5

struct _CsLatencyExplainView
{
  GtkBox parent_instance;

  GtkLabel *verdict;
  GtkDrawingArea *bar;
  GtkLabel *breakdown_title;
  GtkListBox *contributors;
  GtkListBox *chain;
  CsLatency *latency;           /* borrowed; NULL once the recording is gone */
  CsPluginWindow *window;
};

G_DEFINE_FINAL_TYPE (CsLatencyExplainView, cs_latency_explain_view, GTK_TYPE_BOX)

/* A time of the explained recording on the window's axis (the page may
 * analyse one of the window's added recordings). */
static gint64
axis_ns (CsLatencyExplainView *self, guint cpu, gint64 ts_ns)
{
  return cs_plugin_window_to_axis_ns (self->window, self->latency->document, cpu, ts_ns);
}

/**
 * _cs_latency_explained_free:
 * @explained: (transfer full) (nullable): an explanation
 */
void
_cs_latency_explained_free (CsLatencyExplained *explained)
{
  if (explained == NULL)
    return;
  g_clear_pointer (&explained->links, cs_explain_links_free);
  g_clear_pointer (&explained->alone, cs_explain_breakdown_free);
  g_free (explained);
}

/**
 * _cs_latency_explained_get_shown:
 * @explained: an explanation
 *
 * Returns: (transfer none): the breakdown the page shows: the chain link
 *   activated last (CsLatencyExplained.link), else the pair's own (the
 *   chain's link 0, or the breakdown of B's CPU)
 */
const CsExplainBreakdown *
_cs_latency_explained_get_shown (const CsLatencyExplained *explained)
{
  if (explained->links != NULL && explained->link >= 0 && (guint) explained->link < explained->links->len)
    return g_array_index (explained->links, CsExplainLink, explained->link).breakdown;
  if (explained->links != NULL && explained->links->len > 0)
    return g_array_index (explained->links, CsExplainLink, 0).breakdown;
  return explained->alone;
}

static const CsExplainBreakdown *
shown_pair (CsLatencyExplainView *self)
{
  if (self->latency == NULL || self->latency->explained == NULL)
    return NULL;
  return _cs_latency_explained_get_shown (self->latency->explained);
}

static void
bar_draw (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        user_data)
{
  CsLatencyExplainView *self = user_data;
  const CsExplainBreakdown *b = shown_pair (self);
  gint64 total;
  double x = 0.0;

  if (b == NULL || b->contributors->len == 0 || b->b_ns <= b->a_ns)
    return;
  total = b->b_ns - b->a_ns;
  for (guint i = 0; i < b->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, i);
      double w = MAX (1.0, (double) c->ns / (double) total * width);

      _cs_latency_contributor_fill (cr, c, x, 0, MIN (w, width - x), height);
      if ((int) i == self->latency->explained->contributor)
        {
          cairo_set_source_rgb (cr, 0.0, 0.0, 0.0);
          cairo_set_line_width (cr, 2.0);
          cairo_rectangle (cr, x + 1, 1, MAX (0.0, MIN (w, width - x) - 2), height - 2);
          cairo_stroke (cr);
        }
      x += w;
      if (x >= width)
        break;
    }
}

/* The breakdown in words, for screen readers: the latency, then its
 * largest parts. */
static char *
describe_breakdown (const CsExplainBreakdown *b)
{
  g_autofree char *total = cs_latency_format_ns (b->b_ns - b->a_ns);
  GString *text = g_string_new (NULL);

  g_string_printf (text, _("Breakdown of %s:"), total);
  for (guint i = 0; i < b->contributors->len && i < SUMMARY_PARTS; i++)
    {
      const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, i);
      g_autofree char *what = cs_explain_contributor_describe (c);
      g_autofree char *dur = cs_latency_format_ns (c->ns);
      g_autofree char *share = _cs_latency_format_share (c->ns, b->b_ns - b->a_ns);
      g_autofree char *part = g_strdup_printf (_("%s, %s (%s)"), what, dur, share);

      g_string_append_printf (text, i == 0 ? " %s" : "; %s", part);
    }
  if (b->contributors->len > SUMMARY_PARTS)
    g_string_append_printf (text, ngettext ("; and %u more", "; and %u more",
                                            b->contributors->len - SUMMARY_PARTS),
                            b->contributors->len - SUMMARY_PARTS);
  return g_string_free (text, FALSE);
}

static void
remove_rows (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* The bar and the contributors for the breakdown shown (the pair's, or
 * the chain link's activated last). */
static void
fill_breakdown (CsLatencyExplainView *self)
{
  const CsExplainBreakdown *b = shown_pair (self);
  g_autofree char *summary = NULL;
  g_autofree char *title = NULL;
  g_autofree char *dur = NULL;

  remove_rows (self->contributors);
  gtk_widget_queue_draw (GTK_WIDGET (self->bar));
  if (b == NULL)
    {
      gtk_label_set_text (self->breakdown_title, _("What held it"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->bar),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No pair explained"), -1);
      return;
    }
  dur = cs_latency_format_ns (b->b_ns - b->a_ns);
  /* TRANSLATORS: the heading of a breakdown: a latency, its task */
  title = g_strdup_printf (_("What held it: %s of %s (pid %d)"), dur,
                           cs_plugin_document_get_comm (self->latency->document, b->pid), b->pid);
  gtk_label_set_text (self->breakdown_title, title);
  summary = describe_breakdown (b);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->bar),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->bar), summary);
  /* A line's index is its contributor's. */
  for (guint i = 0; i < b->contributors->len; i++)
    gtk_list_box_append (self->contributors,
                         _cs_latency_contributor_row_new (&g_array_index (b->contributors,
                                                                          CsExplainContributor, i),
                                                          b->b_ns - b->a_ns));
}

/* The widgets for CsLatency.explained (empty without one). */
static void
fill (CsLatencyExplainView *self)
{
  const CsLatencyExplained *x = self->latency != NULL ? self->latency->explained : NULL;

  fill_breakdown (self);
  remove_rows (self->chain);
  if (x != NULL && x->links != NULL)
    {
      g_autofree char *end = g_strdup_printf (_("The chain ends: %s."), cs_explain_stop_describe (x->stop));
      GtkWidget *label = gtk_label_new (end);

      /* A step's index is its link's; the chain's end, a lone label,
       * comes last. */
      for (guint i = 0; i < x->links->len; i++)
        gtk_list_box_append (self->chain,
                             _cs_latency_link_row_new (self->latency->document,
                                                       &g_array_index (x->links, CsExplainLink, i)));
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
      /* The list box puts the label in a row of its own. */
      gtk_list_box_append (self->chain, label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (gtk_widget_get_parent (label)), FALSE);
    }
}

static void
contributor_activated_cb (CsLatencyExplainView *self,
                          GtkListBoxRow        *row)
{
  const CsExplainBreakdown *b = shown_pair (self);
  guint index = gtk_list_box_row_get_index (row);
  gint64 begin_ns = G_MAXINT64, end_ns = G_MININT64;

  if (b == NULL || index >= b->contributors->len)
    return;
  self->latency->explained->contributor = index;
  for (guint i = 0; b->slices != NULL && i < b->slices->len; i++)
    {
      const CsExplainSlice *s = &g_array_index (b->slices, CsExplainSlice, i);

      if (s->contributor != index)
        continue;
      begin_ns = MIN (begin_ns, s->begin_ns);
      end_ns = MAX (end_ns, s->end_ns);
    }
  if (begin_ns < end_ns)
    cs_plugin_window_show_span (self->window, axis_ns (self, b->b_cpu, begin_ns),
                                axis_ns (self, b->b_cpu, end_ns));
  gtk_widget_queue_draw (GTK_WIDGET (self->bar));
  cs_plugin_window_queue_draw (self->window);
}

static void
link_activated_cb (CsLatencyExplainView *self,
                   GtkListBoxRow        *row)
{
  CsLatencyExplained *x = self->latency != NULL ? self->latency->explained : NULL;
  guint index = gtk_list_box_row_get_index (row);
  const CsExplainBreakdown *b;

  if (x == NULL || x->links == NULL || index >= x->links->len)
    return;
  b = g_array_index (x->links, CsExplainLink, index).breakdown;
  x->link = index;
  x->contributor = -1;
  fill_breakdown (self);
  cs_plugin_window_show_span (self->window, axis_ns (self, b->a_cpu, b->a_ns),
                              axis_ns (self, b->b_cpu, b->b_ns));
  cs_plugin_window_set_markers (self->window, axis_ns (self, b->a_cpu, b->a_ns),
                                axis_ns (self, b->b_cpu, b->b_ns));
  if (self->latency->document == cs_plugin_window_get_document (self->window))
    cs_plugin_window_add_task_plot (self->window, b->pid);
  cs_plugin_window_queue_draw (self->window);
}

static void
cs_latency_explain_view_class_init (CsLatencyExplainViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-explain-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyExplainView, verdict);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyExplainView, bar);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyExplainView, breakdown_title);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyExplainView, contributors);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyExplainView, chain);
  gtk_widget_class_bind_template_callback (widget_class, contributor_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, link_activated_cb);
}

static void
cs_latency_explain_view_init (CsLatencyExplainView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (self->bar, bar_draw, self, NULL);
}

/**
 * _cs_latency_explain_view_set_latency:
 * @self: a view, explaining no pair
 * @latency: the recording's instance (borrowed; call
 *   _cs_latency_explain_view_clear() with @gone %TRUE when it goes)
 * @window: the window the page is in
 *
 * Gives the view the recording whose pairs it explains.
 */
void
_cs_latency_explain_view_set_latency (CsLatencyExplainView *self,
                                      CsLatency            *latency,
                                      CsPluginWindow       *window)
{
  self->latency = latency;
  self->window = window;
}

/**
 * _cs_latency_explain_view_show:
 * @self: a view
 * @item: a pair of the definition shown (CsLatency.param)
 *
 * Explains @item: a wakeup pair (the preset `wakeup`) with its chain, up
 * to 8 links, any other with the breakdown of B's CPU; shows it and has
 * the timeline draw it.  On the main thread; a few ms (the explain room
 * reads the events around the pair through the index).
 *
 * Returns: %FALSE when the pair could not be explained (the verdict line
 *   then says why)
 */
gboolean
_cs_latency_explain_view_show (CsLatencyExplainView *self,
                               const CsLatencyItem  *item)
{
  g_autoptr(GError) error = NULL;
  CsLatencyExplained *x;
  g_autofree char *verdict = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *line = NULL;

  g_return_val_if_fail (CS_LATENCY_IS_EXPLAIN_VIEW (self) && item != NULL, FALSE);
  if (self->latency == NULL)
    return FALSE;
  x = g_new0 (CsLatencyExplained, 1);
  x->contributor = -1;
  x->link = -1;
  if (g_strcmp0 (self->latency->param, "wakeup") == 0)
    x->links = cs_explain_wakeup_chain (self->latency->document, item->pid, item->a_ts_ns, item->a_cpu,
                                        item->b_ts_ns, item->b_cpu, DEFAULT_DEPTH, TRUE, &x->stop, &error);
  else
    x->alone = cs_explain_span_on_cpu (self->latency->document, item->pid, item->a_ts_ns, item->b_ts_ns,
                                       item->b_cpu, TRUE, &error);
  g_clear_pointer (&self->latency->explained, _cs_latency_explained_free);
  if (x->links == NULL && x->alone == NULL)
    {
      _cs_latency_explained_free (x);
      gtk_label_set_text (self->verdict, error->message);
      fill (self);
      cs_plugin_window_queue_draw (self->window);
      return FALSE;
    }
  self->latency->explained = x;
  verdict = cs_explain_verdict (_cs_latency_explained_get_shown (x));
  dur = cs_latency_format_ns (item->dur_ns);
  /* TRANSLATORS: the latency of a pair, then the verdict on it */
  line = g_strdup_printf (_("%s of %s (pid %d): %s"), dur,
                          cs_plugin_document_get_comm (self->latency->document, item->pid), item->pid,
                          verdict);
  gtk_label_set_text (self->verdict, line);
  fill (self);
  cs_plugin_window_queue_draw (self->window);
  return TRUE;
}

/**
 * _cs_latency_explain_view_clear:
 * @self: a view
 * @gone: whether the recording's instance is gone (the view then forgets
 *   it), rather than only its explanation
 *
 * Explains no pair: the definition shown changed, or the recording closed.
 */
void
_cs_latency_explain_view_clear (CsLatencyExplainView *self,
                                gboolean              gone)
{
  g_return_if_fail (CS_LATENCY_IS_EXPLAIN_VIEW (self));
  if (gone)
    self->latency = NULL;
  else if (self->latency != NULL)
    g_clear_pointer (&self->latency->explained, _cs_latency_explained_free);
  gtk_label_set_text (self->verdict, _("Click a pair to see what held it."));
  fill (self);
  if (!gone)
    cs_plugin_window_queue_draw (self->window);
}
