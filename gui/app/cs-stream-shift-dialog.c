/* cs-stream-shift-dialog.c: shift one recording of a window by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A small modal window (cs-stream-shift-dialog.ui): the recording's name
 * and alignment note, and its manual shift in nanoseconds
 * (cs_stream_set_offset_ns()), which sessions keep.  Shift moves the
 * recording and closes the window.  A spin button holds a double, so
 * shifts are exact up to 2^53 ns (104 days).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-stream-shift-dialog.h"

struct _CsStreamShiftDialog
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkLabel *name_label;
  GtkLabel *note_label;
  GtkSpinButton *offset_spin;

  /* owned */
  CsStream *stream;
};

G_DEFINE_FINAL_TYPE (CsStreamShiftDialog, cs_stream_shift_dialog, GTK_TYPE_WINDOW)

static void
apply_clicked_cb (CsStreamShiftDialog *self)
{
  cs_stream_shift_dialog_apply (self, (gint64) gtk_spin_button_get_value (self->offset_spin));
}

static void
cs_stream_shift_dialog_dispose (GObject *object)
{
  CsStreamShiftDialog *self = CS_STREAM_SHIFT_DIALOG (object);

  g_clear_object (&self->stream);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_STREAM_SHIFT_DIALOG);
  G_OBJECT_CLASS (cs_stream_shift_dialog_parent_class)->dispose (object);
}

static void
cs_stream_shift_dialog_class_init (CsStreamShiftDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_stream_shift_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/Chronoscope/cs-stream-shift-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsStreamShiftDialog, name_label);
  gtk_widget_class_bind_template_child (widget_class, CsStreamShiftDialog, note_label);
  gtk_widget_class_bind_template_child (widget_class, CsStreamShiftDialog, offset_spin);
  gtk_widget_class_bind_template_callback (widget_class, apply_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, gtk_window_destroy);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cs_stream_shift_dialog_init (CsStreamShiftDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * cs_stream_shift_dialog_new:
 * @parent: the window showing @stream
 * @stream: one of its recordings
 *
 * Returns: (transfer none): a new modal window over @parent, showing
 *   @stream's current manual shift; present it
 */
CsStreamShiftDialog *
cs_stream_shift_dialog_new (GtkWindow *parent,
                            CsStream  *stream)
{
  CsStreamShiftDialog *self;

  g_return_val_if_fail (CS_IS_STREAM (stream), NULL);

  self = g_object_new (CS_TYPE_STREAM_SHIFT_DIALOG, "transient-for", parent, NULL);
  self->stream = g_object_ref (stream);
  gtk_label_set_label (self->name_label, cs_stream_get_name (stream));
  gtk_label_set_label (self->note_label, cs_stream_get_note (stream));
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), cs_stream_get_note (stream)[0] != '\0');
  gtk_spin_button_set_value (self->offset_spin, (double) cs_stream_get_offset_ns (stream));
  return self;
}

/**
 * cs_stream_shift_dialog_apply:
 * @self: the dialog
 * @offset_ns: the recording's new manual shift, ns (negative: earlier)
 *
 * What Shift does with the spin button's value: sets it on the recording
 * and closes the window.
 */
void
cs_stream_shift_dialog_apply (CsStreamShiftDialog *self,
                              gint64               offset_ns)
{
  g_return_if_fail (CS_IS_STREAM_SHIFT_DIALOG (self));
  cs_stream_set_offset_ns (self->stream, offset_ns);
  gtk_window_destroy (GTK_WINDOW (self));
}
