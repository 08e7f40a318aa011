/* cs-latency-link-row.c: a step of the wakeup chain the explain view
 * shows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A link of the chain (link 0 the pair itself) in a line: its depth, its
 * latency, the waker and the woken task with their CPUs; its verdict
 * below.  The layout is the template cs-latency-link-row.ui; activating
 * the step is the list's (cs-latency-explain-view.c), which knows the
 * link by the line's index.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

struct _CsLatencyLinkRow
{
  GtkListBoxRow parent_instance;

  GtkLabel *step;
  GtkLabel *verdict;
};

G_DEFINE_FINAL_TYPE (CsLatencyLinkRow, cs_latency_link_row, GTK_TYPE_LIST_BOX_ROW)

static void
cs_latency_link_row_class_init (CsLatencyLinkRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-link-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyLinkRow, step);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyLinkRow, verdict);
}

static void
cs_latency_link_row_init (CsLatencyLinkRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * _cs_latency_link_row_new:
 * @document: the recording the chain is in, for the tasks' commands
 * @link: a link of a wakeup chain
 *
 * Returns: (transfer floating): a line for the explain view's chain
 */
GtkWidget *
_cs_latency_link_row_new (CsPluginDocument    *document,
                          const CsExplainLink *link)
{
  CsLatencyLinkRow *self = g_object_new (CS_LATENCY_TYPE_LINK_ROW, NULL);
  const CsExplainBreakdown *b = link->breakdown;
  g_autofree char *dur = cs_latency_format_ns (b->b_ns - b->a_ns);
  g_autofree char *verdict = cs_explain_verdict (b);
  g_autofree char *waker = b->waker_pid == 0
    ? g_strdup (_("an interrupt or the idle task"))
    : g_strdup_printf (_("%s (pid %d)"), cs_plugin_document_get_comm (document, b->waker_pid), b->waker_pid);
  /* TRANSLATORS: a step of a wakeup chain: depth, the latency, the
   * waker, its CPU, the woken task, its CPU */
  g_autofree char *step = g_strdup_printf (_("%u. %s: %s on CPU %u → %s (pid %d) on CPU %u"),
                                           link->depth, dur, waker, b->a_cpu,
                                           cs_plugin_document_get_comm (document, b->pid), b->pid,
                                           b->b_cpu);

  gtk_label_set_text (self->step, step);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->step), step);
  gtk_label_set_text (self->verdict, verdict);
  return GTK_WIDGET (self);
}
