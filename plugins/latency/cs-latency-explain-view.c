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
 * Widgets a test reaches have names: latency-explain, latency-verdict,
 * latency-breakdown-bar, latency-contributors (rows: their time label
 * latency-contributor-ns, exact ns in its tooltip) and latency-chain.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

#define DEFAULT_DEPTH 8
#define BAR_HEIGHT_PX 22
#define SUMMARY_PARTS 5
#define CONTRIBUTORS_HEIGHT_PX 120

typedef struct {
  CsLatency *latency;           /* borrowed; NULL once the recording is gone */
  CsPluginWindow *window;
  GtkLabel *verdict;
  GtkDrawingArea *bar;
  GtkLabel *breakdown_title;
  GtkListBox *contributors;
  GtkListBox *chain;
} View;

/* A time of the explained recording on the window's axis (the page may
 * analyse one of the window's added recordings). */
static gint64
axis_ns (View *view, guint cpu, gint64 ts_ns)
{
  return cs_plugin_window_to_axis_ns (view->window, view->latency->document, cpu, ts_ns);
}

static View *
get_view (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), "cs-latency-explain-view");
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
shown_pair (View *view)
{
  if (view->latency == NULL || view->latency->explained == NULL)
    return NULL;
  return _cs_latency_explained_get_shown (view->latency->explained);
}

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

/* Fills [x, x + w) x [y, y + h) in @c's colour, hatched for a section. */
static void
fill_part (cairo_t                    *cr,
           const CsExplainContributor *c,
           double                      x,
           double                      y,
           double                      w,
           double                      h)
{
  CsPluginColor color;
  gboolean hatch = contributor_color (c, &color);

  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  if (!hatch)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.45);
  cairo_set_line_width (cr, 1.5);
  for (double sx = x - h; sx < x + w; sx += 6.0)
    {
      cairo_move_to (cr, sx, y + h);
      cairo_line_to (cr, sx + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
bar_draw (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        user_data)
{
  View *view = user_data;
  const CsExplainBreakdown *b = shown_pair (view);
  gint64 total;
  double x = 0.0;

  if (b == NULL || b->contributors->len == 0 || b->b_ns <= b->a_ns)
    return;
  total = b->b_ns - b->a_ns;
  for (guint i = 0; i < b->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, i);
      double w = MAX (1.0, (double) c->ns / (double) total * width);

      fill_part (cr, c, x, 0, MIN (w, width - x), height);
      if ((int) i == view->latency->explained->contributor)
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

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  fill_part (cr, user_data, 0, 0, width, height);
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

static char *
format_share (gint64 ns,
              gint64 total_ns)
{
  return g_strdup_printf ("%.1f %%", total_ns > 0 ? 100.0 * (double) ns / (double) total_ns : 0.0);
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
      g_autofree char *share = format_share (c->ns, b->b_ns - b->a_ns);
      g_autofree char *part = g_strdup_printf (_("%s, %s (%s)"), what, dur, share);

      g_string_append_printf (text, i == 0 ? " %s" : "; %s", part);
    }
  if (b->contributors->len > SUMMARY_PARTS)
    g_string_append_printf (text, ngettext ("; and %u more", "; and %u more",
                                            b->contributors->len - SUMMARY_PARTS),
                            b->contributors->len - SUMMARY_PARTS);
  return g_string_free (text, FALSE);
}

static GtkWidget *
new_label (const char *text,
           float       xalign,
           gboolean    expand)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_ellipsize (GTK_LABEL (label), expand ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  gtk_widget_set_hexpand (label, expand);
  return label;
}

static GtkWidget *
new_contributor_row (const CsExplainContributor *c,
                     gint64                      total_ns,
                     guint                       index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *swatch = gtk_drawing_area_new ();
  g_autofree char *what = cs_explain_contributor_describe (c);
  g_autofree char *dur = cs_latency_format_ns (c->ns);
  g_autofree char *exact = g_strdup_printf ("%" G_GINT64_FORMAT " ns", c->ns);
  g_autofree char *share = format_share (c->ns, total_ns);
  g_autofree char *slices = g_strdup_printf (ngettext ("%s in %u slice", "%s in %u slices", c->n_slices),
                                             exact, c->n_slices);
  GtkWidget *time = new_label (dur, 1.0, FALSE);
  GtkWidget *name;
  CsExplainContributor *copy = g_memdup2 (c, sizeof *c);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 14);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 14);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), swatch_draw, copy, g_free);
  gtk_box_append (GTK_BOX (box), swatch);
  name = new_label (what, 0.0, TRUE);
  gtk_widget_set_tooltip_text (name, what);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), new_label (kind_label (c), 0.0, FALSE));
  gtk_widget_set_name (time, "latency-contributor-ns");
  gtk_widget_set_tooltip_text (time, slices);
  gtk_box_append (GTK_BOX (box), time);
  gtk_box_append (GTK_BOX (box), new_label (share, 1.0, FALSE));
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "cs-index", GUINT_TO_POINTER (index));
  return row;
}

static GtkWidget *
new_link_row (CsLatency         *latency,
              const CsExplainLink *link,
              guint               index)
{
  const CsExplainBreakdown *b = link->breakdown;
  CsPluginDocument *doc = latency->document;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *dur = cs_latency_format_ns (b->b_ns - b->a_ns);
  g_autofree char *verdict = cs_explain_verdict (b);
  g_autofree char *waker = b->waker_pid == 0
    ? g_strdup (_("an interrupt or the idle task"))
    : g_strdup_printf (_("%s (pid %d)"), cs_plugin_document_get_comm (doc, b->waker_pid), b->waker_pid);
  /* TRANSLATORS: a step of a wakeup chain: depth, the latency, the
   * waker, its CPU, the woken task, its CPU */
  g_autofree char *step = g_strdup_printf (_("%u. %s: %s on CPU %u → %s (pid %d) on CPU %u"),
                                           link->depth, dur, waker, b->a_cpu,
                                           cs_plugin_document_get_comm (doc, b->pid), b->pid,
                                           b->b_cpu);
  GtkWidget *first = new_label (step, 0.0, TRUE);

  gtk_widget_set_tooltip_text (first, step);
  GtkWidget *second = new_label (verdict, 0.0, TRUE);

  gtk_widget_add_css_class (second, "dim-label");
  gtk_box_append (GTK_BOX (box), first);
  gtk_box_append (GTK_BOX (box), second);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, _("Show this wakeup on the timeline, between markers A and B"));
  g_object_set_data (G_OBJECT (row), "cs-index", GUINT_TO_POINTER (index));
  return row;
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
fill_breakdown (View *view)
{
  const CsExplainBreakdown *b = shown_pair (view);
  g_autofree char *summary = NULL;
  g_autofree char *title = NULL;
  g_autofree char *dur = NULL;

  remove_rows (view->contributors);
  gtk_widget_queue_draw (GTK_WIDGET (view->bar));
  if (b == NULL)
    {
      gtk_label_set_text (view->breakdown_title, _("What held it"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (view->bar),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No pair explained"), -1);
      return;
    }
  dur = cs_latency_format_ns (b->b_ns - b->a_ns);
  /* TRANSLATORS: the heading of a breakdown: a latency, its task */
  title = g_strdup_printf (_("What held it: %s of %s (pid %d)"), dur,
                           cs_plugin_document_get_comm (view->latency->document, b->pid), b->pid);
  gtk_label_set_text (view->breakdown_title, title);
  summary = describe_breakdown (b);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view->bar),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (view->bar), summary);
  for (guint i = 0; i < b->contributors->len; i++)
    gtk_list_box_append (view->contributors,
                         new_contributor_row (&g_array_index (b->contributors, CsExplainContributor, i),
                                              b->b_ns - b->a_ns, i));
}

/* The widgets for CsLatency.explained (empty without one). */
static void
fill (View *view)
{
  const CsLatencyExplained *x = view->latency != NULL ? view->latency->explained : NULL;

  fill_breakdown (view);
  remove_rows (view->chain);
  if (x != NULL && x->links != NULL)
    {
      g_autofree char *end = g_strdup_printf (_("The chain ends: %s."), cs_explain_stop_describe (x->stop));
      GtkWidget *last = gtk_list_box_row_new ();

      for (guint i = 0; i < x->links->len; i++)
        gtk_list_box_append (view->chain,
                             new_link_row (view->latency, &g_array_index (x->links, CsExplainLink, i), i));
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (last), new_label (end, 0.0, TRUE));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (last), FALSE);
      gtk_list_box_append (view->chain, last);
    }
}

static void
contributor_activated_cb (GtkListBox    *list,
                          GtkListBoxRow *row,
                          gpointer       user_data)
{
  View *view = user_data;
  const CsExplainBreakdown *b = shown_pair (view);
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "cs-index"));
  gint64 begin_ns = G_MAXINT64, end_ns = G_MININT64;

  if (b == NULL || index >= b->contributors->len)
    return;
  view->latency->explained->contributor = index;
  for (guint i = 0; b->slices != NULL && i < b->slices->len; i++)
    {
      const CsExplainSlice *s = &g_array_index (b->slices, CsExplainSlice, i);

      if (s->contributor != index)
        continue;
      begin_ns = MIN (begin_ns, s->begin_ns);
      end_ns = MAX (end_ns, s->end_ns);
    }
  if (begin_ns < end_ns)
    cs_plugin_window_show_span (view->window, axis_ns (view, b->b_cpu, begin_ns),
                                axis_ns (view, b->b_cpu, end_ns));
  gtk_widget_queue_draw (GTK_WIDGET (view->bar));
  cs_plugin_window_queue_draw (view->window);
}

static void
link_activated_cb (GtkListBox    *list,
                   GtkListBoxRow *row,
                   gpointer       user_data)
{
  View *view = user_data;
  CsLatencyExplained *x = view->latency != NULL ? view->latency->explained : NULL;
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "cs-index"));
  const CsExplainBreakdown *b;

  if (x == NULL || x->links == NULL || index >= x->links->len)
    return;
  b = g_array_index (x->links, CsExplainLink, index).breakdown;
  x->link = index;
  x->contributor = -1;
  fill_breakdown (view);
  cs_plugin_window_show_span (view->window, axis_ns (view, b->a_cpu, b->a_ns),
                              axis_ns (view, b->b_cpu, b->b_ns));
  cs_plugin_window_set_markers (view->window, axis_ns (view, b->a_cpu, b->a_ns),
                                axis_ns (view, b->b_cpu, b->b_ns));
  if (view->latency->document == cs_plugin_window_get_document (view->window))
    cs_plugin_window_add_task_plot (view->window, b->pid);
  cs_plugin_window_queue_draw (view->window);
}

/* A heading that names @list for screen readers. */
static GtkWidget *
new_heading (const char *text,
             GtkWidget  *list)
{
  GtkWidget *label = new_label (text, 0.0, FALSE);

  gtk_widget_add_css_class (label, "heading");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  label, NULL, -1);
  return label;
}

static GtkWidget *
new_list (const char *name,
          GCallback   activated,
          View       *view)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_widget_set_name (list, name);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_SINGLE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "boxed-list");
  g_signal_connect (list, "row-activated", activated, view);
  return list;
}

/**
 * _cs_latency_explain_view_new:
 * @latency: the recording's instance (borrowed; call
 *   _cs_latency_explain_view_clear() with @gone %TRUE when it goes)
 * @window: the window the page is in
 *
 * Returns: (transfer floating): the view, explaining no pair yet
 */
GtkWidget *
_cs_latency_explain_view_new (CsLatency      *latency,
                              CsPluginWindow *window)
{
  View *view = g_new0 (View, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *contributors, *chain, *verdict_heading;

  view->latency = latency;
  view->window = window;
  verdict_heading = new_label (_("Why was it late"), 0.0, FALSE);
  gtk_widget_add_css_class (verdict_heading, "heading");
  gtk_box_append (GTK_BOX (box), verdict_heading);
  view->verdict = GTK_LABEL (gtk_label_new (_("Click a pair to see what held it.")));
  gtk_widget_set_name (GTK_WIDGET (view->verdict), "latency-verdict");
  gtk_label_set_xalign (view->verdict, 0.0);
  gtk_label_set_wrap (view->verdict, TRUE);
  gtk_label_set_selectable (view->verdict, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view->verdict));

  view->bar = GTK_DRAWING_AREA (g_object_new (GTK_TYPE_DRAWING_AREA,
                                              "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL));
  gtk_widget_set_name (GTK_WIDGET (view->bar), "latency-breakdown-bar");
  gtk_drawing_area_set_content_height (view->bar, BAR_HEIGHT_PX);
  gtk_widget_set_focusable (GTK_WIDGET (view->bar), TRUE);
  gtk_drawing_area_set_draw_func (view->bar, bar_draw, view, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view->bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Breakdown of the latency"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No pair explained"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view->bar));

  contributors = new_list ("latency-contributors", G_CALLBACK (contributor_activated_cb), view);
  view->contributors = GTK_LIST_BOX (contributors);
  view->breakdown_title = GTK_LABEL (new_heading (_("What held it"), contributors));
  gtk_widget_set_name (GTK_WIDGET (view->breakdown_title), "latency-breakdown-title");
  gtk_label_set_ellipsize (view->breakdown_title, PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (contributors, _("Activate one to see its slices on the CPU plots"));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view->breakdown_title));
  /* A few rows in sight, the chain below them. */
  {
    GtkWidget *rows = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (rows), contributors);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (rows), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (rows), TRUE);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (rows), CONTRIBUTORS_HEIGHT_PX);
    gtk_box_append (GTK_BOX (box), rows);
  }
  chain = new_list ("latency-chain", G_CALLBACK (link_activated_cb), view);
  view->chain = GTK_LIST_BOX (chain);
  gtk_box_append (GTK_BOX (box), new_heading (_("What led to it: the wakeup chain"), chain));
  gtk_box_append (GTK_BOX (box), chain);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scrolled, 440, -1);
  gtk_widget_set_name (scrolled, "latency-explain");
  g_object_set_data_full (G_OBJECT (scrolled), "cs-latency-explain-view", view, g_free);
  return scrolled;
}

/**
 * _cs_latency_explain_view_show:
 * @widget: a view from _cs_latency_explain_view_new()
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
_cs_latency_explain_view_show (GtkWidget           *widget,
                               const CsLatencyItem *item)
{
  View *view = get_view (widget);
  g_autoptr(GError) error = NULL;
  CsLatencyExplained *x;
  g_autofree char *verdict = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *line = NULL;

  g_return_val_if_fail (view != NULL && item != NULL, FALSE);
  if (view->latency == NULL)
    return FALSE;
  x = g_new0 (CsLatencyExplained, 1);
  x->contributor = -1;
  x->link = -1;
  if (g_strcmp0 (view->latency->param, "wakeup") == 0)
    x->links = cs_explain_wakeup_chain (view->latency->document, item->pid, item->a_ts_ns, item->a_cpu,
                                        item->b_ts_ns, item->b_cpu, DEFAULT_DEPTH, TRUE, &x->stop, &error);
  else
    x->alone = cs_explain_span_on_cpu (view->latency->document, item->pid, item->a_ts_ns, item->b_ts_ns,
                                       item->b_cpu, TRUE, &error);
  g_clear_pointer (&view->latency->explained, _cs_latency_explained_free);
  if (x->links == NULL && x->alone == NULL)
    {
      _cs_latency_explained_free (x);
      gtk_label_set_text (view->verdict, error->message);
      fill (view);
      cs_plugin_window_queue_draw (view->window);
      return FALSE;
    }
  view->latency->explained = x;
  verdict = cs_explain_verdict (_cs_latency_explained_get_shown (x));
  dur = cs_latency_format_ns (item->dur_ns);
  /* TRANSLATORS: the latency of a pair, then the verdict on it */
  line = g_strdup_printf (_("%s of %s (pid %d): %s"), dur,
                          cs_plugin_document_get_comm (view->latency->document, item->pid), item->pid,
                          verdict);
  gtk_label_set_text (view->verdict, line);
  fill (view);
  cs_plugin_window_queue_draw (view->window);
  return TRUE;
}

/**
 * _cs_latency_explain_view_clear:
 * @widget: a view
 * @gone: whether the recording's instance is gone (the view then forgets
 *   it), rather than only its explanation
 *
 * Explains no pair: the definition shown changed, or the recording closed.
 */
void
_cs_latency_explain_view_clear (GtkWidget *widget,
                                gboolean   gone)
{
  View *view = get_view (widget);

  g_return_if_fail (view != NULL);
  if (gone)
    view->latency = NULL;
  else if (view->latency != NULL)
    g_clear_pointer (&view->latency->explained, _cs_latency_explained_free);
  gtk_label_set_text (view->verdict, _("Click a pair to see what held it."));
  fill (view);
  if (!gone)
    cs_plugin_window_queue_draw (view->window);
}
