/* cs-query-page.c: CsQueryPage, SQL over the recordings in the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A tab beside the event list (layout: cs-query-page.ui): an SQL editor
 * (GtkSourceView, SQL highlighting), the tables and their columns beside it (the same list as
 * `chronoscope query --tables` and `--schema`), and the result in a
 * GtkColumnView.  Run (Ctrl+Enter) hands the statement to a
 * CsQueryRunner, which steps it in a worker thread on its own document and
 * SQL session; Cancel interrupts it (sqlite3_interrupt()).  While it runs,
 * the status line shows the rows read and the time spent.
 *
 * The result is never read whole: the first page of rows comes with the
 * run, and the next page is stepped only when the view binds a row near
 * the end of what it has (FETCH_AHEAD), so scrolling reads on and a query
 * over every event of a large recording costs what is looked at.
 *
 * A result row with integer `ts` and `cpu` or `pid` columns points at an
 * event: activating it (double click, Enter) shows the event list, selects
 * that event there and moves the timeline to its time.  A bad query shows
 * SQLite's message, underlines the word where SQLite says the error is
 * and puts the cursor there.
 * Every query run is kept in a history (newest first, HISTORY_MAX),
 * which sessions save with the editor's text (cs-session.c).
 */
#include "config.h"

#include <inttypes.h>

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "cs-query-page.h"
#include "cs-query-row.h"
#include "cs-query-runner.h"
#include "cs-query-tables.h"
#include "cs-event-list.h"

#define FIRST_PAGE_ROWS 500
#define PAGE_ROWS 500
#define FETCH_AHEAD 100
#define HISTORY_MAX 50
#define PROGRESS_MS 200

struct _CsQueryPage
{
  GtkWidget parent_instance;

  /* template widgets (cs-query-page.ui) */
  GtkWidget *paned;
  CsQueryTables *tables;
  GtkSourceView *editor;
  GtkButton *run_button;
  GtkButton *cancel_button;
  GtkMenuButton *history_button;
  GtkListBox *history_box;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  GtkLabel *error_label;
  GtkColumnView *column_view;

  /* owned */
  CsDocument *document;         /* the window's recording; NULL without */
  CsStreamSet *streams;         /* the window's recordings, when several */
  CsQueryRunner *runner;        /* NULL without a document */
  GCancellable *cancellable;    /* of the running operation */
  GListStore *rows;             /* CsQueryRow */
  GPtrArray *history;           /* strings, newest first, NULL-terminated */
  char *error_message;
  char *status;
  gint64 started_us;            /* when the running query started */
  guint progress_id;
  gboolean done;                /* the statement has no more rows */
  gboolean run_pending;         /* run once the tables are read */
  gboolean tables_started;      /* the runner was asked for the tables */
  gboolean fetching;            /* the running op reads a next page */
  char *running_sql;            /* the statement of the result shown */
};

G_DEFINE_FINAL_TYPE (CsQueryPage, cs_query_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_HISTORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void fetch_more (CsQueryPage *self);

/* ------------------------------------------------------------------------ */
/* Status                                                                    */

static void
set_status (CsQueryPage *self,
            const char  *status)
{
  g_free (self->status);
  self->status = g_strdup (status);
  gtk_label_set_text (self->status_label, status);
}

static void
set_error (CsQueryPage *self,
           const char  *message)
{
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
update_busy (CsQueryPage *self)
{
  gboolean busy = self->runner != NULL && cs_query_runner_is_busy (self->runner);

  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), self->runner != NULL && !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
}

static char *
rows_text (guint n_rows,
           gboolean done)
{
  /* Translators: the rows a query gave so far; more come when scrolled to. */
  return done ? g_strdup_printf (ngettext ("%u row", "%u rows", n_rows), n_rows)
              : g_strdup_printf (ngettext ("%u row so far, more when scrolled to",
                                           "%u rows so far, more when scrolled to", n_rows), n_rows);
}

static gboolean
progress_cb (gpointer data)
{
  CsQueryPage *self = data;
  double seconds = (g_get_monotonic_time () - self->started_us) / 1e6;
  guint n = cs_query_runner_get_n_rows_read (self->runner);
  g_autofree char *text = NULL;

  /* Translators: progress of a running query: rows read, seconds spent. */
  text = g_strdup_printf (ngettext ("Running… %u row, %.1f s", "Running… %u rows, %.1f s", n),
                          n, seconds);
  set_status (self, text);
  return G_SOURCE_CONTINUE;
}

static void
start_progress (CsQueryPage *self)
{
  g_clear_handle_id (&self->progress_id, g_source_remove);
  self->progress_id = g_timeout_add (PROGRESS_MS, progress_cb, self);
  update_busy (self);
}

static void
stop_progress (CsQueryPage *self)
{
  g_clear_handle_id (&self->progress_id, g_source_remove);
  update_busy (self);
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */

static void
insert_name_cb (CsQueryTables *tables,
                const char    *name,
                CsQueryPage   *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));

  gtk_text_buffer_insert_at_cursor (buffer, name, -1);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

static void
tables_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  g_autoptr(CsQueryPage) self = data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) pairs = cs_query_runner_tables_finish (CS_QUERY_RUNNER (source), result, &error);

  if (CS_QUERY_RUNNER (source) != self->runner)
    return;
  stop_progress (self);
  set_status (self, "");
  if (pairs == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, error->message);
    }
  else
    cs_query_tables_set (self->tables, (const char * const *) pairs);
  if (self->run_pending)
    cs_query_page_run (self);
}

/* The worker opens the recording's SQL session and lists its tables the
 * first time the page is shown or a query runs, not for every recording
 * opened. */
static void
ensure_tables (CsQueryPage *self)
{
  if (self->runner == NULL || self->tables_started || cs_query_runner_is_busy (self->runner))
    return;
  self->tables_started = TRUE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->started_us = g_get_monotonic_time ();
  cs_query_runner_tables_async (self->runner, self->cancellable, tables_done_cb, g_object_ref (self));
  set_status (self, _("Reading the tables…"));
  start_progress (self);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  gtk_inscription_set_min_chars (GTK_INSCRIPTION (inscription), 4);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (inscription), 12);
  gtk_list_item_set_child (item, inscription);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              CsQueryPage              *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "cs-column"));
  CsQueryRow *row = gtk_list_item_get_item (item);
  const char *text = cs_query_row_get_cell (row, column);
  GtkInscription *inscription = GTK_INSCRIPTION (gtk_list_item_get_child (item));

  gtk_inscription_set_text (inscription, text != NULL ? text : "NULL");
  if (text == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (inscription), "dim-label");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (inscription), "dim-label");
  gtk_widget_set_tooltip_text (GTK_WIDGET (inscription),
                               cs_query_row_get_link (row, NULL) ? _("Double-click to show this event") : NULL);

  /* Rows near the end are on screen: read the next page. */
  if (!self->done && gtk_list_item_get_position (item) + FETCH_AHEAD >=
                     g_list_model_get_n_items (G_LIST_MODEL (self->rows)))
    fetch_more (self);
}

static void
set_columns (CsQueryPage *self,
             char       **names)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (self->column_view, column);
    }
  for (guint i = 0; names[i] != NULL; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "cs-column", GUINT_TO_POINTER (i));
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), self);
      column = gtk_column_view_column_new (names[i], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
    }
}

static void
append_page (CsQueryPage       *self,
             CsQueryResultPage *page)
{
  self->done = page->done;
  g_list_store_splice (self->rows, g_list_model_get_n_items (G_LIST_MODEL (self->rows)), 0,
                       page->rows->pdata, page->rows->len);
}

static void
finish_page (CsQueryPage  *self,
             GError       *error)
{
  stop_progress (self);
  if (error != NULL)
    {
      self->done = TRUE;
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_error (self, _("Cancelled"));
      else
        set_error (self, error->message);
    }
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
    g_autofree char *rows = rows_text (n, self->done);
    g_autofree char *text = g_strdup_printf ("%s, %.3f s", rows,
                                             (g_get_monotonic_time () - self->started_us) / 1e6);
    set_status (self, text);
  }
}

static void
clear_error_mark (CsQueryPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  GtkTextIter begin, end;

  gtk_text_buffer_get_bounds (buffer, &begin, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "cs-error", &begin, &end);
}

/* SQLite's error position ("... (at character N)", a byte offset into the
 * SQL) as a place in the editor. */
static void
show_error_position (CsQueryPage *self,
                     const char  *sql,
                     const char  *message)
{
  const char *at = g_strrstr (message, "(at character ");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  g_autofree char *text = cs_query_page_dup_text (self);
  GtkTextIter iter, end;
  long offset;

  /* Not when the SQL was edited meanwhile: the position would be off. */
  if (at == NULL || !g_str_equal (text, sql))
    return;
  offset = strtol (at + strlen ("(at character "), NULL, 10);
  if (offset < 0 || (gsize) offset > strlen (sql))
    return;
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, g_utf8_pointer_to_offset (sql, sql + offset));
  end = iter;
  if (!gtk_text_iter_forward_word_end (&end) || gtk_text_iter_equal (&iter, &end))
    gtk_text_iter_forward_char (&end);
  gtk_text_buffer_apply_tag_by_name (buffer, "cs-error", &iter, &end);
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (self->editor), gtk_text_buffer_get_insert (buffer));
}

/* The first page of a run (with its columns), or the next page. */
static void
page_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  g_autoptr(CsQueryPage) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsQueryResultPage) page = cs_query_runner_run_finish (CS_QUERY_RUNNER (source), result, &error);
  gboolean first;

  if (CS_QUERY_RUNNER (source) != self->runner)
    return;
  first = !self->fetching;
  self->fetching = FALSE;
  if (page != NULL && first)
    set_columns (self, page->columns);
  if (page != NULL)
    append_page (self, page);
  else if (first && self->running_sql != NULL)
    show_error_position (self, self->running_sql, error->message);
  finish_page (self, error);
}

static void
fetch_more (CsQueryPage *self)
{
  if (self->runner == NULL || self->done || cs_query_runner_is_busy (self->runner))
    return;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->started_us = g_get_monotonic_time ();
  self->fetching = TRUE;
  cs_query_runner_run_async (self->runner, NULL, PAGE_ROWS, self->cancellable,
                             page_done_cb, g_object_ref (self));
  start_progress (self);
}

/* ------------------------------------------------------------------------ */
/* Links                                                                     */

/* The event @link names: of its CPU (or of any CPU), at its time, of its
 * task when one there is (a latency pair's pid is the woken task, not the
 * waker that ran the A event), else the first at that time. */
static gboolean
find_event (CsDocument        *document,
            const CsQueryLink *link,
            CsEvent           *event)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  guint n_cpus = cs_document_get_n_cpus (document);
  gboolean found = FALSE;

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      g_autoptr(GError) error = NULL;

      if (link->cpu >= 0 && link->cpu != cpu)
        continue;
      g_array_set_size (events, 0);
      if (!cs_document_get_events (document, cpu, link->ts_ns, link->ts_ns + 1, 64, events, &error))
        {
          g_message ("Cannot read the events of CPU %u at %" G_GINT64_FORMAT ": %s",
                     cpu, link->ts_ns, error->message);
          continue;
        }
      for (guint i = 0; i < events->len; i++)
        {
          const CsEvent *e = &g_array_index (events, CsEvent, i);

          if (e->ts_ns != link->ts_ns)
            continue;
          if (link->pid < 0 || e->pid == link->pid)
            {
              *event = *e;
              return TRUE;
            }
          if (!found && link->cpu >= 0)
            {
              *event = *e;
              found = TRUE;
            }
        }
    }
  return found;
}

static void
activate_cb (GtkColumnView *view,
             guint          position,
             CsQueryPage   *self)
{
  g_autoptr(CsQueryRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  CsQueryLink link;
  CsEvent event;

  if (row == NULL || self->document == NULL || !cs_query_row_get_link (row, &link))
    return;
  /* The window's actions move its timeline and list: the page knows
   * neither. */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-time", "x", link.ts_ns);
  if (!find_event (self->document, &link, &event))
    {
      g_autofree char *text = g_strdup_printf (_("No event at %" PRId64 " ns of this CPU or task"),
                                               link.ts_ns);
      set_status (self, text);
      return;
    }
  gtk_widget_activate_action_variant (GTK_WIDGET (self), "win.select-event",
                                      cs_event_to_variant (&event));
}

/* ------------------------------------------------------------------------ */
/* History                                                                   */

static void
history_row_activated_cb (GtkListBox    *box,
                          GtkListBoxRow *row,
                          CsQueryPage   *self)
{
  const char *sql = g_object_get_data (G_OBJECT (gtk_list_box_row_get_child (row)), "cs-sql");

  cs_query_page_set_text (self, sql);
  gtk_menu_button_popdown (self->history_button);
}

static void
update_history_box (CsQueryPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->history_box))) != NULL)
    gtk_list_box_remove (self->history_box, child);
  for (guint i = 0; i + 1 < self->history->len; i++)
    {
      const char *sql = self->history->pdata[i];
      /* The list box puts the label in a row of its own. */
      GtkWidget *label = gtk_label_new (sql);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
      gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
      gtk_widget_set_tooltip_text (label, sql);
      g_object_set_data_full (G_OBJECT (label), "cs-sql", g_strdup (sql), g_free);
      gtk_list_box_append (self->history_box, label);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->history_button), self->history->len > 1);
}

static void
remember (CsQueryPage *self,
          const char  *sql)
{
  g_autofree char *text = g_strstrip (g_strdup (sql));

  if (*text == '\0')
    return;
  for (guint i = 0; i + 1 < self->history->len; i++)
    if (g_str_equal (self->history->pdata[i], text))
      {
        g_free (g_ptr_array_steal_index (self->history, i));
        break;
      }
  g_ptr_array_insert (self->history, 0, g_steal_pointer (&text));
  while (self->history->len > HISTORY_MAX + 1)
    g_ptr_array_remove_index (self->history, self->history->len - 2);
  update_history_box (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  cs_query_page_run (CS_QUERY_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  cs_query_page_cancel (CS_QUERY_PAGE (widget));
}

/* ------------------------------------------------------------------------ */
/* Construction                                                              */

static void
cs_query_page_dispose (GObject *object)
{
  CsQueryPage *self = CS_QUERY_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->runner != NULL)
    cs_query_runner_interrupt (self->runner);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_QUERY_PAGE);
  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->rows);
  g_clear_object (&self->streams);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (cs_query_page_parent_class)->dispose (object);
}

static void
cs_query_page_finalize (GObject *object)
{
  CsQueryPage *self = CS_QUERY_PAGE (object);

  g_ptr_array_unref (self->history);
  g_free (self->error_message);
  g_free (self->status);
  g_free (self->running_sql);
  G_OBJECT_CLASS (cs_query_page_parent_class)->finalize (object);
}

static void
cs_query_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (cs_query_page_parent_class)->map (widget);
  ensure_tables (CS_QUERY_PAGE (widget));
}

static void
cs_query_page_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CsQueryPage *self = CS_QUERY_PAGE (object);

  switch (prop_id)
    {
    case PROP_HISTORY:
      g_value_set_boxed (value, cs_query_page_get_history (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_query_page_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  CsQueryPage *self = CS_QUERY_PAGE (object);

  switch (prop_id)
    {
    case PROP_HISTORY:
      cs_query_page_set_history (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_query_page_class_init (CsQueryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->map = cs_query_page_map;
  object_class->dispose = cs_query_page_dispose;
  object_class->finalize = cs_query_page_finalize;
  object_class->get_property = cs_query_page_get_property;
  object_class->set_property = cs_query_page_set_property;

  /* "history" (strv, newest first): the queries run; notified when one
   * runs or a session sets them, so that the window's view model binds
   * to it. */
  properties[PROP_HISTORY] =
    g_param_spec_boxed ("history", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "query.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "query.cancel", NULL, cancel_action);

  /* The template names GtkSourceView and CsQueryTables. */
  gtk_source_init ();
  g_type_ensure (CS_TYPE_QUERY_TABLES);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-query-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, paned);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, tables);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, editor);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, run_button);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, history_button);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, history_box);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, CsQueryPage, column_view);
  gtk_widget_class_bind_template_callback (widget_class, insert_name_cb);
  gtk_widget_class_bind_template_callback (widget_class, history_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
}

static void
cs_query_page_init (CsQueryPage *self)
{
  GtkSourceLanguage *sql = gtk_source_language_manager_get_language (
      gtk_source_language_manager_get_default (), "sql");
  GtkTextBuffer *buffer;
  g_autoptr(GtkSingleSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->history = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->history, NULL);

  /* GtkSourceView made its own GtkSourceBuffer. */
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  if (sql != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), sql);
  gtk_text_buffer_create_tag (buffer, "cs-error", "underline", PANGO_UNDERLINE_ERROR, NULL);
  gtk_text_buffer_set_text (buffer,
                            "SELECT comm, count(*) AS events FROM events GROUP BY comm ORDER BY events DESC", -1);

  self->rows = g_list_store_new (CS_TYPE_QUERY_ROW);
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));

  update_history_box (self);
  update_busy (self);
}

/**
 * cs_query_page_new:
 *
 * An activated result row that names a CPU or task and a time goes to
 * that event through the window's actions "win.show-time" and
 * "win.select-event" (cs-window-actions.c), so the page works in any
 * window that has them.
 *
 * Returns: (transfer full): a page without a recording; see
 *   cs_query_page_set_document()
 */
CsQueryPage *
cs_query_page_new (void)
{
  return g_object_new (CS_TYPE_QUERY_PAGE, NULL);
}

/* A new runner for the document (and its streams), the result forgotten. */
static void
reset (CsQueryPage *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->runner != NULL)
    cs_query_runner_interrupt (self->runner);
  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);
  g_list_store_remove_all (self->rows);
  set_columns (self, (char *[]) { NULL });
  cs_query_tables_set (self->tables, NULL);
  set_error (self, NULL);
  set_status (self, "");
  self->done = TRUE;
  self->run_pending = FALSE;
  stop_progress (self);
  if (self->document == NULL)
    return;

  self->runner = self->streams != NULL
                 ? cs_query_runner_new_for_streams (self->streams)
                 : cs_query_runner_new (cs_document_get_trace_path (self->document),
                                        cs_document_get_index_path (self->document),
                                        cs_document_get_identity (self->document));
  self->tables_started = FALSE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    ensure_tables (self);
  update_busy (self);
}

/**
 * cs_query_page_set_document:
 * @self: a page
 * @document: (nullable): the recording the window shows
 *
 * Forgets the result and the tables of the previous recording (stopping
 * its query) and the streams of cs_query_page_set_streams().  The tables of
 * @document are listed when the page is shown (or a query runs), read in a
 * worker thread on a document of its own opened from @document's index.
 * The editor's text and the history stay.  Main thread.
 */
void
cs_query_page_set_document (CsQueryPage *self,
                            CsDocument  *document)
{
  g_return_if_fail (CS_IS_QUERY_PAGE (self));

  g_set_object (&self->document, document);
  g_clear_object (&self->streams);
  reset (self);
}

/**
 * cs_query_page_set_streams:
 * @self: a page with a document
 * @streams: (nullable): the recordings the window shows on its axis, the
 *   page's document among them, when there are several; %NULL for the
 *   document alone
 *
 * Makes the page's SQL run over every stream of @streams, as they are now
 * (cs_query_runner_new_for_streams(): a `stream` column, a `streams`
 * table, `ts_aligned` on the window's axis), forgetting the result as
 * cs_query_page_set_document() does.  Call it again when the streams,
 * their order or their manual offsets change.  Main thread.
 */
void
cs_query_page_set_streams (CsQueryPage *self,
                           CsStreamSet *streams)
{
  g_return_if_fail (CS_IS_QUERY_PAGE (self));
  g_return_if_fail (streams == NULL || CS_IS_STREAM_SET (streams));

  g_set_object (&self->streams, streams);
  reset (self);
}

/**
 * cs_query_page_dup_text:
 * @self: a page
 *
 * Returns: (transfer full): the editor's text
 */
char *
cs_query_page_dup_text (CsQueryPage *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter begin, end;

  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  gtk_text_buffer_get_bounds (buffer, &begin, &end);
  return gtk_text_buffer_get_text (buffer, &begin, &end, FALSE);
}

/**
 * cs_query_page_set_text:
 * @self: a page
 * @sql: the editor's new text
 */
void
cs_query_page_set_text (CsQueryPage *self,
                        const char  *sql)
{
  g_return_if_fail (CS_IS_QUERY_PAGE (self));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor)), sql ?: "", -1);
}

/**
 * cs_query_page_run:
 * @self: a page
 *
 * Runs the editor's statement (the Run button, Ctrl+Enter): the result
 * replaces the previous one, its first page comes when the worker has it.
 * While the tables are still being read, the run starts after them; while
 * another query runs, nothing happens (Cancel it first).  Main thread.
 */
void
cs_query_page_run (CsQueryPage *self)
{
  g_autofree char *sql = NULL;

  g_return_if_fail (CS_IS_QUERY_PAGE (self));
  if (self->runner == NULL)
    return;
  if (!self->tables_started)
    ensure_tables (self);
  if (cs_query_runner_is_busy (self->runner))
    {
      /* Still listing the tables: run when they are there. */
      self->run_pending = cs_query_tables_get_names (self->tables)[0] == NULL;
      return;
    }
  self->run_pending = FALSE;
  sql = cs_query_page_dup_text (self);
  clear_error_mark (self);
  g_free (self->running_sql);
  self->running_sql = g_strdup (sql);
  remember (self, sql);
  g_list_store_remove_all (self->rows);
  set_error (self, NULL);
  self->done = FALSE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->started_us = g_get_monotonic_time ();
  self->fetching = FALSE;
  cs_query_runner_run_async (self->runner, sql, FIRST_PAGE_ROWS, self->cancellable,
                             page_done_cb, g_object_ref (self));
  start_progress (self);
  progress_cb (self);
}

/**
 * cs_query_page_cancel:
 * @self: a page
 *
 * Stops the running query (sqlite3_interrupt()); its result then ends
 * where it stopped, with "Cancelled" or SQLite's "interrupted".
 */
void
cs_query_page_cancel (CsQueryPage *self)
{
  g_return_if_fail (CS_IS_QUERY_PAGE (self));
  self->run_pending = FALSE;
  if (self->runner == NULL || !cs_query_runner_is_busy (self->runner))
    return;
  g_cancellable_cancel (self->cancellable);
  cs_query_runner_interrupt (self->runner);
}

/** cs_query_page_is_busy: Returns: whether a query or the tables are being read */
gboolean
cs_query_page_is_busy (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), FALSE);
  return self->run_pending || (self->runner != NULL && cs_query_runner_is_busy (self->runner));
}

/**
 * cs_query_page_get_error_message:
 * @self: a page
 *
 * Returns: (nullable): the message shown for the last query's failure
 *   (SQLite's, with "at character N"), %NULL when it did not fail
 */
const char *
cs_query_page_get_error_message (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return self->error_message;
}

/** cs_query_page_get_status: Returns: the status line's text */
const char *
cs_query_page_get_status (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return self->status ?: "";
}

/**
 * cs_query_page_get_rows:
 * @self: a page
 *
 * Returns: (transfer none): the result rows read so far (#CsQueryRow),
 *   which the column view shows
 */
GListModel *
cs_query_page_get_rows (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return G_LIST_MODEL (self->rows);
}

/** cs_query_page_get_done: Returns: whether every row of the result is read */
gboolean
cs_query_page_get_done (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), FALSE);
  return self->done;
}

/** cs_query_page_get_editor: Returns: (transfer none): the SQL editor */
GtkTextView *
cs_query_page_get_editor (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return GTK_TEXT_VIEW (self->editor);
}

/** cs_query_page_get_column_view: Returns: (transfer none): the result view */
GtkColumnView *
cs_query_page_get_column_view (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return self->column_view;
}

/**
 * cs_query_page_get_tables:
 * @self: a page
 *
 * Returns: (transfer none) (array zero-terminated=1): the tables listed
 *   beside the editor (empty until the worker has read them)
 */
const char * const *
cs_query_page_get_tables (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return cs_query_tables_get_names (self->tables);
}

/**
 * cs_query_page_get_history:
 * @self: a page
 *
 * Returns: (transfer none) (array zero-terminated=1): the queries run,
 *   newest first, each once
 */
const char * const *
cs_query_page_get_history (CsQueryPage *self)
{
  g_return_val_if_fail (CS_IS_QUERY_PAGE (self), NULL);
  return (const char * const *) self->history->pdata;
}

/**
 * cs_query_page_set_history:
 * @self: a page
 * @history: (array zero-terminated=1) (nullable): queries, newest first
 *   (a session's); at most the first 50 are kept
 */
void
cs_query_page_set_history (CsQueryPage        *self,
                           const char * const *history)
{
  g_return_if_fail (CS_IS_QUERY_PAGE (self));
  g_ptr_array_set_size (self->history, 0);
  for (guint i = 0; history != NULL && history[i] != NULL && i < HISTORY_MAX; i++)
    g_ptr_array_add (self->history, g_strdup (history[i]));
  g_ptr_array_add (self->history, NULL);
  update_history_box (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
}
