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
 * exported pictures.  Recordings without markers get no page.  The list fills once the pass's results are there
 * (the page polls for them every POLL_MS while they are not).  GTK 4.8
 * widgets only.
 */
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>
#include <inttypes.h>

#include "cs-atrace-private.h"

#define POLL_MS    500
#define MAX_LINES  500

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

typedef struct {
  CsAtrace *atrace;
  CsPluginWindow *window;
  GtkListBox *list;
  GtkLabel *status;
  guint poll_id;
  gboolean filled;
} Page;

static void
page_free (gpointer data)
{
  Page *page = data;

  g_clear_handle_id (&page->poll_id, g_source_remove);
  g_free (page);
}

/* Adds the process's task plot and the counter's row of the line @row. */
static void
show_counter (Page          *page,
              GtkListBoxRow *row)
{
  gint64 tgid = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "cs-atrace-tgid"));
  const char *key = g_object_get_data (G_OBJECT (row), "cs-atrace-key");
  const char *name = g_object_get_data (G_OBJECT (row), "cs-atrace-name");
  g_autofree char *status = NULL;

  if (cs_plugin_document_get_comm (page->atrace->document, (gint32) tgid) != NULL)
    cs_plugin_window_add_task_plot (page->window, (gint32) tgid);
  cs_plugin_window_add_row (page->window, page->atrace->plugin, CS_ATRACE_COUNTER_ROWS, key);
  status = g_strdup_printf (_("Added the row of the counter %s"), name);
  gtk_label_set_text (page->status, status);
}

static void
row_activated_cb (GtkListBox    *list,
                  GtkListBoxRow *row,
                  gpointer       user_data)
{
  show_counter (user_data, row);
}

static void
show_clicked_cb (GtkButton *button,
                 gpointer   user_data)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  if (row != NULL)
    show_counter (user_data, GTK_LIST_BOX_ROW (row));
}

static GtkWidget *
counter_line (Page         *page,
              sqlite3_stmt *stmt)
{
  gint64 tgid = sqlite3_column_int64 (stmt, 0);
  const char *name = (const char *) sqlite3_column_text (stmt, 1);
  const char *comm = cs_plugin_document_get_comm (page->atrace->document, (gint32) tgid);
  g_autofree char *title = NULL;
  g_autofree char *show = g_strdup_printf (_("Show counter %s"), name);
  /* TRANSLATORS: the tooltip of a counter's line: its name and the
   * process's tgid */
  g_autofree char *tip = g_strdup_printf (_("Show counter %s of process %" PRId64), name, tgid);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label, *button;

  /* TRANSLATORS: a counter's line: its name, the process's command and
   * tgid, its number of samples, its smallest and largest value */
  title = g_strdup_printf (_("%s — %s %" PRId64 " — %" PRId64 " samples, %" PRId64 " … %" PRId64),
                           name, comm != NULL ? comm : "", tgid,
                           (gint64) sqlite3_column_int64 (stmt, 2), (gint64) sqlite3_column_int64 (stmt, 3),
                           (gint64) sqlite3_column_int64 (stmt, 4));
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  button = gtk_button_new_with_label (show);
  g_signal_connect (button, "clicked", G_CALLBACK (show_clicked_cb), page);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), button);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_widget_set_tooltip_text (row, tip);
  gtk_widget_set_tooltip_text (button, tip);
  g_object_set_data (G_OBJECT (row), "cs-atrace-tgid", GINT_TO_POINTER ((gint32) tgid));
  g_object_set_data_full (G_OBJECT (row), "cs-atrace-name", g_strdup (name), g_free);
  g_object_set_data_full (G_OBJECT (row), "cs-atrace-key",
                          g_strdup_printf ("%" G_GINT64_FORMAT ":%s", tgid, name), g_free);
  return row;
}

/* Fills the list once the pass's results are there; TRUE when done. */
static gboolean
fill (Page *page)
{
  sqlite3 *db;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint n = 0;

  if (page->filled)
    return TRUE;
  db = _cs_atrace_get_db (page->atrace);
  if (db == NULL)
    {
      gtk_label_set_text (page->status, _("Reading the atrace markers…"));
      return FALSE;
    }
  page->filled = TRUE;
  if (sqlite3_prepare_v2 (db, "SELECT tgid, name, samples, min, max FROM counter_name "
                          "ORDER BY tgid, name LIMIT " G_STRINGIFY (MAX_LINES),
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      gtk_label_set_text (page->status, sqlite3_errmsg (db));
      return TRUE;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gtk_list_box_append (page->list, counter_line (page, stmt));
      n++;
    }
  if (n == 0)
    gtk_label_set_text (page->status, _("The atrace markers set no counter (no C marker)."));
  else
    gtk_label_set_text (page->status, _("Counters (C markers). A task plot of a process draws its "
                                        "counters at its bottom; “Show counter” adds the process's "
                                        "task plot and the counter's own row."));
  return TRUE;
}

static gboolean
poll_cb (gpointer user_data)
{
  Page *page = user_data;

  if (!fill (page))
    return G_SOURCE_CONTINUE;
  page->poll_id = 0;
  return G_SOURCE_REMOVE;
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  CsAtrace *atrace = instance;
  Page *page;
  GtkWidget *box, *scrolled;

  /* No tab for recordings without markers. */
  if (atrace == NULL || !atrace->has_events)
    return NULL;
  page = g_new0 (Page, 1);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  scrolled = gtk_scrolled_window_new ();
  page->atrace = atrace;
  page->window = window;
  page->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (page->status, 0.0);
  gtk_label_set_wrap (page->status, TRUE);
  page->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (page->list, GTK_SELECTION_NONE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (page->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Atrace counters"), -1);
  g_signal_connect (page->list, "row-activated", G_CALLBACK (row_activated_cb), page);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (page->list));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page->status));
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  g_object_set_data_full (G_OBJECT (box), "cs-atrace-page", page, page_free);
  if (!fill (page))
    page->poll_id = g_timeout_add (POLL_MS, poll_cb, page);
  return box;
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
