/* cs-plugin-pass-bar.c: a plugin pass's progress in the window's info bar.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Hidden until a pass runs; then what runs, its progress and Cancel.  A
 * failed pass leaves its message (whole in the tooltip) and Dismiss.
 * ::button-clicked says either button was pressed: CsPluginWindow cancels
 * the pass or hides the bar.  The layout is the template
 * cs-plugin-pass-bar.ui.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-plugin-pass-bar.h"

struct _CsPluginPassBar
{
  GtkBox parent_instance;

  /* template widgets */
  GtkLabel *label;
  GtkProgressBar *progress_bar;
  GtkButton *button;
};

G_DEFINE_FINAL_TYPE (CsPluginPassBar, cs_plugin_pass_bar, GTK_TYPE_BOX)

enum {
  BUTTON_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
button_clicked_cb (CsPluginPassBar *self)
{
  g_signal_emit (self, signals[BUTTON_CLICKED], 0);
}

static void
cs_plugin_pass_bar_class_init (CsPluginPassBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /**
   * CsPluginPassBar::button-clicked:
   * @self: the bar
   *
   * Cancel (while a pass runs) or Dismiss (after one failed) was pressed.
   */
  signals[BUTTON_CLICKED] = g_signal_new ("button-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-plugin-pass-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, CsPluginPassBar, label);
  gtk_widget_class_bind_template_child (widget_class, CsPluginPassBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CsPluginPassBar, button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
}

static void
cs_plugin_pass_bar_init (CsPluginPassBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * cs_plugin_pass_bar_new:
 *
 * Returns: (transfer floating): a hidden pass bar
 */
GtkWidget *
cs_plugin_pass_bar_new (void)
{
  return g_object_new (CS_TYPE_PLUGIN_PASS_BAR, NULL);
}

/**
 * cs_plugin_pass_bar_show_running:
 * @self: a #CsPluginPassBar
 * @text: what runs, such as "Latency: reading the recording…"
 *
 * Shows the bar with @text, an empty progress bar and Cancel.
 */
void
cs_plugin_pass_bar_show_running (CsPluginPassBar *self,
                                 const char      *text)
{
  g_return_if_fail (CS_IS_PLUGIN_PASS_BAR (self));

  gtk_label_set_label (self->label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), NULL);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  gtk_button_set_label (self->button, _("Cancel"));
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

/**
 * cs_plugin_pass_bar_set_fraction:
 * @self: a #CsPluginPassBar
 * @fraction: how much of the pass is done, 0.0 .. 1.0
 */
void
cs_plugin_pass_bar_set_fraction (CsPluginPassBar *self,
                                 double           fraction)
{
  g_return_if_fail (CS_IS_PLUGIN_PASS_BAR (self));

  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
}

/**
 * cs_plugin_pass_bar_show_error:
 * @self: a #CsPluginPassBar
 * @message: why the pass failed, shown whole in the tooltip
 *
 * Shows the bar with @message and Dismiss, without progress.
 */
void
cs_plugin_pass_bar_show_error (CsPluginPassBar *self,
                               const char      *message)
{
  g_return_if_fail (CS_IS_PLUGIN_PASS_BAR (self));

  gtk_label_set_label (self->label, message);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), message);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  gtk_button_set_label (self->button, _("Dismiss"));
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}
