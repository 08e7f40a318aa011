/* cs-timeline-plot-item.c: one plot of a CsTimeline, as assistive
 * technology sees it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The timeline draws all its plots itself with cairo, so a screen reader
 * would see one image.  Each plot gets one of these children instead: it
 * is never drawn (the timeline's snapshot does not snapshot its children)
 * and never takes pointer input or focus, but it is allocated the plot's
 * rectangle, so that assistive technology finds the plot's name
 * (GTK_ACCESSIBLE_PROPERTY_LABEL: "CPU 0", "bash (1234)", a plugin row's
 * label) and its extent, and the timeline can point at the focused plot
 * (GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT) and describe what lies under
 * the keyboard cursor on it (GTK_ACCESSIBLE_PROPERTY_DESCRIPTION).  See
 * cs-timeline-a11y.c.
 */
#include "config.h"

#include "cs-timeline-plot-item.h"

struct _CsTimelinePlotItem
{
  GtkWidget parent_instance;

  /* owned */
  char *name;
};

G_DEFINE_FINAL_TYPE (CsTimelinePlotItem, cs_timeline_plot_item, GTK_TYPE_WIDGET)

static void
cs_timeline_plot_item_finalize (GObject *object)
{
  CsTimelinePlotItem *self = CS_TIMELINE_PLOT_ITEM (object);

  g_free (self->name);

  G_OBJECT_CLASS (cs_timeline_plot_item_parent_class)->finalize (object);
}

static void
cs_timeline_plot_item_class_init (CsTimelinePlotItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = cs_timeline_plot_item_finalize;

  gtk_widget_class_set_css_name (widget_class, "plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cs_timeline_plot_item_init (CsTimelinePlotItem *self)
{
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
}

/**
 * cs_timeline_plot_item_new:
 *
 * Returns: (transfer floating): a plot item with no name yet, for
 *   gtk_widget_set_parent() on a #CsTimeline
 */
GtkWidget *
cs_timeline_plot_item_new (void)
{
  return g_object_new (CS_TYPE_TIMELINE_PLOT_ITEM, NULL);
}

/**
 * cs_timeline_plot_item_get_name:
 * @self: a plot item
 *
 * Returns: (transfer none): the plot's name, as its accessible label ("" at
 *   first)
 */
const char *
cs_timeline_plot_item_get_name (CsTimelinePlotItem *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_PLOT_ITEM (self), "");

  return self->name != NULL ? self->name : "";
}

/**
 * cs_timeline_plot_item_set_name:
 * @self: a plot item
 * @name: the plot's name as its label column shows it: "CPU 2", a task's
 *   "comm (pid)", a plugin row's label
 *
 * Sets the accessible label (only when it changes, so that assistive
 * technology is not told of a change that is none).
 */
void
cs_timeline_plot_item_set_name (CsTimelinePlotItem *self,
                                const char         *name)
{
  g_return_if_fail (CS_IS_TIMELINE_PLOT_ITEM (self));
  g_return_if_fail (name != NULL);

  if (g_strcmp0 (self->name, name) == 0)
    return;

  g_free (self->name);
  self->name = g_strdup (name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  -1);
}
