/* cs-atrace-counter-line.c: a line of the Atrace page, one counter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A counter (a C marker's name in one process) with the process's
 * command, its samples, smallest and largest value, and a "Show counter"
 * button.  The layout is the template cs-atrace-counter-line.ui.  The
 * button activates the line, so a click, Enter on the line and a double
 * click all reach the list's row-activated (cs-atrace-page.c).
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-atrace-private.h"

struct _CsAtraceCounterLine
{
  GtkListBoxRow parent_instance;

  GtkLabel *title;
  GtkButton *show_button;
  gint32 tgid;
  char *name;
  char *key;
};

G_DEFINE_FINAL_TYPE (CsAtraceCounterLine, cs_atrace_counter_line, GTK_TYPE_LIST_BOX_ROW)

static void
show_clicked_cb (CsAtraceCounterLine *self)
{
  gtk_widget_activate (GTK_WIDGET (self));
}

static void
cs_atrace_counter_line_finalize (GObject *object)
{
  CsAtraceCounterLine *self = CS_ATRACE_COUNTER_LINE (object);

  g_free (self->name);
  g_free (self->key);
  G_OBJECT_CLASS (cs_atrace_counter_line_parent_class)->finalize (object);
}

static void
cs_atrace_counter_line_class_init (CsAtraceCounterLineClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = cs_atrace_counter_line_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/atrace/cs-atrace-counter-line.ui");
  gtk_widget_class_bind_template_child (widget_class, CsAtraceCounterLine, title);
  gtk_widget_class_bind_template_child (widget_class, CsAtraceCounterLine, show_button);
  gtk_widget_class_bind_template_callback (widget_class, show_clicked_cb);
}

static void
cs_atrace_counter_line_init (CsAtraceCounterLine *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * _cs_atrace_counter_line_new:
 * @tgid: the process's tgid
 * @name: the counter's name (the C marker's)
 * @comm: (nullable): the process's command
 * @samples: the counter's samples
 * @min: its smallest value
 * @max: its largest value
 *
 * Returns: (transfer floating): a line for the Atrace page's list
 */
GtkWidget *
_cs_atrace_counter_line_new (gint32      tgid,
                             const char *name,
                             const char *comm,
                             gint64      samples,
                             gint64      min,
                             gint64      max)
{
  CsAtraceCounterLine *self = g_object_new (CS_TYPE_ATRACE_COUNTER_LINE, NULL);
  g_autofree char *show = g_strdup_printf (_("Show counter %s"), name);
  /* TRANSLATORS: the tooltip of a counter's line: its name and the
   * process's tgid */
  g_autofree char *tip = g_strdup_printf (_("Show counter %s of process %" PRId64), name, (gint64) tgid);
  /* TRANSLATORS: a counter's line: its name, the process's command and
   * tgid, its number of samples, its smallest and largest value */
  g_autofree char *title = g_strdup_printf (_("%s — %s %" PRId64 " — %" PRId64 " samples, %"
                                              PRId64 " … %" PRId64),
                                            name, comm != NULL ? comm : "", (gint64) tgid, samples,
                                            min, max);

  self->tgid = tgid;
  self->name = g_strdup (name);
  self->key = g_strdup_printf ("%" PRId32 ":%s", tgid, name);
  gtk_label_set_text (self->title, title);
  gtk_button_set_label (self->show_button, show);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tip);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_button), tip);
  return GTK_WIDGET (self);
}

/**
 * _cs_atrace_counter_line_get_tgid:
 * @self: a line
 *
 * Returns: the counter's process
 */
gint32
_cs_atrace_counter_line_get_tgid (CsAtraceCounterLine *self)
{
  return self->tgid;
}

/**
 * _cs_atrace_counter_line_get_name:
 * @self: a line
 *
 * Returns: (transfer none): the counter's name
 */
const char *
_cs_atrace_counter_line_get_name (CsAtraceCounterLine *self)
{
  return self->name;
}

/**
 * _cs_atrace_counter_line_get_key:
 * @self: a line
 *
 * Returns: (transfer none): the key of the counter's row,
 *   CS_ATRACE_COUNTER_ROWS's "TGID:NAME"
 */
const char *
_cs_atrace_counter_line_get_key (CsAtraceCounterLine *self)
{
  return self->key;
}
