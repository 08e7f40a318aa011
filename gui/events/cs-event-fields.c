/* cs-event-fields.c: the window listing one event's fields.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A small window, titled after the event, with one row per field: its
 * name, dimmed and right-aligned, and its value, selectable and wrapped.
 * Copy puts the whole event on the clipboard as one line of text; Escape
 * closes the window.  The layout is the template cs-event-fields.ui;
 * cs_event_fields_show() (cs-event-menu.c) says what the rows hold.
 */
#include "config.h"

#include "cs-event-fields.h"

struct _CsEventFields
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkGrid *grid;
  GtkWidget *copy_button;

  /* owned */
  char *copy_text;
  int n_rows;
};

G_DEFINE_FINAL_TYPE (CsEventFields, cs_event_fields, GTK_TYPE_WINDOW)

static void
copy_clicked_cb (CsEventFields *self)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->copy_text);
}

static void
cs_event_fields_finalize (GObject *object)
{
  g_free (CS_EVENT_FIELDS (object)->copy_text);

  G_OBJECT_CLASS (cs_event_fields_parent_class)->finalize (object);
}

static void
cs_event_fields_class_init (CsEventFieldsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = cs_event_fields_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-event-fields.ui");
  gtk_widget_class_bind_template_child (widget_class, CsEventFields, grid);
  gtk_widget_class_bind_template_child (widget_class, CsEventFields, copy_button);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
}

static void
cs_event_fields_init (CsEventFields *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * cs_event_fields_new:
 * @parent: (nullable): the window it belongs to, closing with it
 * @title: the window's title: the event's type
 * @copy_text: what Copy puts on the clipboard
 *
 * Returns: (transfer none): a new window without rows, not shown yet,
 *   owned by GTK's window list
 */
CsEventFields *
cs_event_fields_new (GtkWindow  *parent,
                     const char *title,
                     const char *copy_text)
{
  CsEventFields *self = g_object_new (CS_TYPE_EVENT_FIELDS,
                                      "title", title,
                                      "transient-for", parent,
                                      NULL);

  self->copy_text = g_strdup (copy_text);
  /* Focus on Copy, not on the first label: focusing a label selects it. */
  gtk_window_set_focus (GTK_WINDOW (self), self->copy_button);
  return self;
}

/**
 * cs_event_fields_add_row:
 * @self: a #CsEventFields
 * @name: what the row shows, such as "Time" or a field's name
 * @value: its value, as text
 * @monospace: whether the value shows in a monospaced font (numbers, raw
 *   fields)
 *
 * Adds a row under the others.
 */
void
cs_event_fields_add_row (CsEventFields *self,
                         const char    *name,
                         const char    *value,
                         gboolean       monospace)
{
  GtkWidget *name_label;
  GtkWidget *value_label;

  g_return_if_fail (CS_IS_EVENT_FIELDS (self));

  name_label = gtk_label_new (name);
  gtk_label_set_xalign (GTK_LABEL (name_label), 1.0);
  gtk_widget_set_valign (name_label, GTK_ALIGN_START);
  gtk_widget_add_css_class (name_label, "dim-label");

  value_label = gtk_label_new (value);
  gtk_label_set_xalign (GTK_LABEL (value_label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (value_label), 80);
  gtk_widget_set_hexpand (value_label, TRUE);
  if (monospace)
    gtk_widget_add_css_class (value_label, "monospace");

  gtk_grid_attach (self->grid, name_label, 0, self->n_rows, 1, 1);
  gtk_grid_attach (self->grid, value_label, 1, self->n_rows, 1, 1);
  self->n_rows++;
}
