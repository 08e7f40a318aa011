/* cs-atrace-page.c: the Atrace page in the window: the counters.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Lists the recording's atrace counters (C markers), one line per
 * process and name with the process's command, its samples, smallest and
 * largest value.  "Show counter NAME" on a line (its button, or Enter on
 * the line) adds the task plot of the process, whose bottom band draws
 * its counters (cs-atrace-counter-band.c), and the counter's own row
 * below the task plots (cs-atrace-counter.c), which stays in sessions and
 * exported pictures.  Recordings without markers get no page.  The list
 * fills once the pass's results are there (the page polls for them every
 * POLL_MS while they are not).  The layout is the template
 * cs-atrace-page.ui, each line a CsAtraceCounterLine.  GTK 4.8 widgets
 * only.
 */
#include <glib/gi18n-lib.h>

#include "cs-atrace-private.h"

#define POLL_MS    500
#define MAX_LINES  500

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

struct _CsAtracePage
{
  GtkBox parent_instance;

  GtkListBox *list;
  GtkLabel *status;
  CsAtrace *atrace;
  CsPluginWindow *window;
  guint poll_id;
  gboolean filled;
};

G_DEFINE_FINAL_TYPE (CsAtracePage, cs_atrace_page, GTK_TYPE_BOX)

/* Adds the process's task plot and the counter's row of the line @row
 * (its button activates it too). */
static void
row_activated_cb (CsAtracePage  *self,
                  GtkListBoxRow *row)
{
  CsAtraceCounterLine *line = CS_ATRACE_COUNTER_LINE (row);
  gint32 tgid = _cs_atrace_counter_line_get_tgid (line);
  g_autofree char *status = NULL;

  if (cs_plugin_document_get_comm (self->atrace->document, tgid) != NULL)
    cs_plugin_window_add_task_plot (self->window, tgid);
  cs_plugin_window_add_row (self->window, self->atrace->plugin, CS_ATRACE_COUNTER_ROWS,
                            _cs_atrace_counter_line_get_key (line));
  status = g_strdup_printf (_("Added the row of the counter %s"),
                            _cs_atrace_counter_line_get_name (line));
  gtk_label_set_text (self->status, status);
}

/* Fills the list once the pass's results are there; TRUE when done. */
static gboolean
fill (CsAtracePage *self)
{
  sqlite3 *db;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint n = 0;

  if (self->filled)
    return TRUE;
  db = _cs_atrace_get_db (self->atrace);
  if (db == NULL)
    {
      gtk_label_set_text (self->status, _("Reading the atrace markers…"));
      return FALSE;
    }
  self->filled = TRUE;
  if (sqlite3_prepare_v2 (db, "SELECT tgid, name, samples, min, max FROM counter_name "
                          "ORDER BY tgid, name LIMIT " G_STRINGIFY (MAX_LINES),
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      gtk_label_set_text (self->status, sqlite3_errmsg (db));
      return TRUE;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint32 tgid = (gint32) sqlite3_column_int64 (stmt, 0);

      gtk_list_box_append (self->list,
                           _cs_atrace_counter_line_new (tgid, (const char *) sqlite3_column_text (stmt, 1),
                                                        cs_plugin_document_get_comm (self->atrace->document, tgid),
                                                        sqlite3_column_int64 (stmt, 2),
                                                        sqlite3_column_int64 (stmt, 3),
                                                        sqlite3_column_int64 (stmt, 4)));
      n++;
    }
  if (n == 0)
    gtk_label_set_text (self->status, _("The atrace markers set no counter (no C marker)."));
  else
    gtk_label_set_text (self->status, _("Counters (C markers). A task plot of a process draws its "
                                        "counters at its bottom; “Show counter” adds the process's "
                                        "task plot and the counter's own row."));
  return TRUE;
}

static gboolean
poll_cb (gpointer user_data)
{
  CsAtracePage *self = user_data;

  if (!fill (self))
    return G_SOURCE_CONTINUE;
  self->poll_id = 0;
  return G_SOURCE_REMOVE;
}

static void
cs_atrace_page_dispose (GObject *object)
{
  CsAtracePage *self = CS_ATRACE_PAGE (object);

  g_clear_handle_id (&self->poll_id, g_source_remove);
  G_OBJECT_CLASS (cs_atrace_page_parent_class)->dispose (object);
}

static void
cs_atrace_page_class_init (CsAtracePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_atrace_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/atrace/cs-atrace-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsAtracePage, list);
  gtk_widget_class_bind_template_child (widget_class, CsAtracePage, status);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
cs_atrace_page_init (CsAtracePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  CsAtrace *atrace = instance;
  CsAtracePage *self;

  /* No tab for recordings without markers. */
  if (atrace == NULL || !atrace->has_events)
    return NULL;
  self = g_object_new (CS_TYPE_ATRACE_PAGE, NULL);
  self->atrace = atrace;
  self->window = window;
  if (!fill (self))
    self->poll_id = g_timeout_add (POLL_MS, poll_cb, self);
  return GTK_WIDGET (self);
}

/**
 * _cs_atrace_add_page:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the page "atrace".
 */
void
_cs_atrace_add_page (CsPlugin *plugin)
{
  static const CsPluginPageInfo info = {
    .struct_size = sizeof (CsPluginPageInfo),
    .name = "atrace",
    .title = N_("Atrace"),
    .create = page_create,
  };

  cs_plugin_add_page (plugin, &info);
}
