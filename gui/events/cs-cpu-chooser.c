/* cs-cpu-chooser.c: a popover choosing which CPU plots show.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One check box per CPU of the recording with its event count ("idle" for
 * none), and three shortcuts: all CPUs, the CPUs with events (what a
 * recording opens with), none.  On a large machine the boxes flow into
 * columns inside a scrolled area, so 256 CPUs stay one screen.  The boxes
 * are rebuilt each time the popover opens, from CsAnalysis; a toggle
 * changes the plots at once.
 *
 * The layout is the template cs-cpu-chooser.ui; the boxes are made here.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-cpu-chooser.h"
#include "cs-format.h"

#define FEW_CPUS 8

struct _CsCpuChooser
{
  GtkPopover parent_instance;

  /* template widgets */
  GtkFlowBox *flow_box;
  GtkScrolledWindow *scrolled;

  /* owned */
  CsAnalysis *analysis;
  GPtrArray *checks;          /* GtkCheckButton, indexed by CPU */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (CsCpuChooser, cs_cpu_chooser, GTK_TYPE_POPOVER)

static void
check_toggled_cb (GtkCheckButton *check, CsCpuChooser *self)
{
  guint cpu = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "cs-cpu"));

  if (self->updating)
    return;
  if (gtk_check_button_get_active (check))
    cs_analysis_add_cpu_plot (self->analysis, cpu);
  else
    cs_analysis_remove_cpu_plot (self->analysis, cpu);
}

static void
cs_cpu_chooser_sync (CsCpuChooser *self)
{
  self->updating = TRUE;
  for (guint cpu = 0; cpu < self->checks->len; cpu++)
    gtk_check_button_set_active (g_ptr_array_index (self->checks, cpu),
                                 cs_analysis_has_cpu_plot (self->analysis, cpu));
  self->updating = FALSE;
}

static void
cs_cpu_chooser_rebuild (CsCpuChooser *self)
{
  CsDocument *document = cs_analysis_get_document (self->analysis);
  guint n_cpus = document != NULL ? cs_document_get_n_cpus (document) : 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->flow_box))) != NULL)
    gtk_flow_box_remove (self->flow_box, child);
  g_ptr_array_set_size (self->checks, 0);

  gtk_flow_box_set_max_children_per_line (self->flow_box, n_cpus <= FEW_CPUS ? 1 : 4);
  gtk_flow_box_set_min_children_per_line (self->flow_box, n_cpus <= FEW_CPUS ? 1 : 4);

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (document, cpu);
      /* The flow box takes the check before the builder lets it go. */
      g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-cpu-check.ui");
      GtkWidget *check = GTK_WIDGET (gtk_builder_get_object (builder, "check"));
      g_autofree char *name = g_strdup_printf (_("CPU %u"), cpu);
      g_autofree char *count = NULL;
      g_autofree char *detail = NULL;

      if (info->n_events == 0)
        detail = g_strdup (_("idle"));
      else
        {
          count = cs_format_count (info->n_events);
          detail = g_strdup_printf (ngettext ("%s event", "%s events", (gulong) info->n_events), count);
        }
      gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "name")), name);
      gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "detail")), detail);
      g_object_set_data (G_OBJECT (check), "cs-cpu", GUINT_TO_POINTER (cpu));
      g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), self);
      gtk_flow_box_append (self->flow_box, check);
      g_ptr_array_add (self->checks, check);
    }

  gtk_scrolled_window_set_max_content_height (self->scrolled, 420);
  cs_cpu_chooser_sync (self);
}

static void
all_clicked_cb (CsCpuChooser *self)
{
  CsDocument *document = cs_analysis_get_document (self->analysis);
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint cpu = 0; document != NULL && cpu < cs_document_get_n_cpus (document); cpu++)
    g_array_append_val (cpus, cpu);
  cs_analysis_set_cpu_plots (self->analysis, (const guint *) cpus->data, cpus->len);
}

static void
busy_clicked_cb (CsCpuChooser *self)
{
  CsDocument *document = cs_analysis_get_document (self->analysis);
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint cpu = 0; document != NULL && cpu < cs_document_get_n_cpus (document); cpu++)
    if (cs_document_get_cpu (document, cpu)->n_events > 0)
      g_array_append_val (cpus, cpu);
  cs_analysis_set_cpu_plots (self->analysis, (const guint *) cpus->data, cpus->len);
}

static void
none_clicked_cb (CsCpuChooser *self)
{
  cs_analysis_set_cpu_plots (self->analysis, NULL, 0);
}

static void
cs_cpu_chooser_show (GtkWidget *widget)
{
  cs_cpu_chooser_rebuild (CS_CPU_CHOOSER (widget));

  GTK_WIDGET_CLASS (cs_cpu_chooser_parent_class)->show (widget);
}

static void
cs_cpu_chooser_dispose (GObject *object)
{
  CsCpuChooser *self = CS_CPU_CHOOSER (object);

  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_clear_object (&self->analysis);
  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (cs_cpu_chooser_parent_class)->dispose (object);
}

static void
cs_cpu_chooser_class_init (CsCpuChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_cpu_chooser_dispose;
  widget_class->show = cs_cpu_chooser_show;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-cpu-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, CsCpuChooser, flow_box);
  gtk_widget_class_bind_template_child (widget_class, CsCpuChooser, scrolled);
  gtk_widget_class_bind_template_callback (widget_class, all_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, busy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, none_clicked_cb);
}

static void
cs_cpu_chooser_init (CsCpuChooser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->checks = g_ptr_array_new ();
}

/**
 * cs_cpu_chooser_new:
 * @analysis: (transfer none): the window's #CsAnalysis
 *
 * Returns: (transfer floating): a popover for a menu button
 */
GtkWidget *
cs_cpu_chooser_new (CsAnalysis *analysis)
{
  CsCpuChooser *self;

  g_return_val_if_fail (CS_IS_ANALYSIS (analysis), NULL);

  self = g_object_new (CS_TYPE_CPU_CHOOSER, NULL);
  self->analysis = g_object_ref (analysis);
  g_signal_connect_object (analysis, "plots-changed", G_CALLBACK (cs_cpu_chooser_sync), self,
                           G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}
