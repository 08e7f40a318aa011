/* cs-latency-blocker-row.c: a line of the Top blockers list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A contributor (a task, an interrupt, a section...) with the total time
 * it added to the wakeups at or above p99 and the count of those it
 * delayed.  The layout is the template cs-latency-blocker-row.ui;
 * activating the line is the list's (cs-latency-blockers-view.c), which
 * knows the contributor by the line's index.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-latency-ui.h"

struct _CsLatencyBlockerRow
{
  GtkListBoxRow parent_instance;

  GtkLabel *name;
  GtkLabel *total;
  GtkLabel *pairs;
};

G_DEFINE_FINAL_TYPE (CsLatencyBlockerRow, cs_latency_blocker_row, GTK_TYPE_LIST_BOX_ROW)

static void
cs_latency_blocker_row_class_init (CsLatencyBlockerRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-blocker-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockerRow, name);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockerRow, total);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockerRow, pairs);
}

static void
cs_latency_blocker_row_init (CsLatencyBlockerRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * _cs_latency_blocker_row_new:
 * @contributor: a contributor of the pass `blockers`, with its total
 *   time and count of pairs
 *
 * Returns: (transfer floating): a line for the Top blockers list
 */
GtkWidget *
_cs_latency_blocker_row_new (const CsExplainContributor *contributor)
{
  CsLatencyBlockerRow *self = g_object_new (CS_LATENCY_TYPE_BLOCKER_ROW, NULL);
  g_autofree char *what = cs_explain_contributor_describe (contributor);
  g_autofree char *total = cs_latency_format_ns (contributor->ns);
  g_autofree char *pairs = g_strdup_printf (ngettext ("%" PRIu64 " pair",
                                                      "%" PRIu64 " pairs", contributor->n_pairs),
                                            contributor->n_pairs);

  gtk_label_set_text (self->name, what);
  gtk_label_set_text (self->total, total);
  gtk_label_set_text (self->pairs, pairs);
  return GTK_WIDGET (self);
}
