/* test-query-page.c: the window's Query page, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Opens tests/data/sched-irq-v7.dat, lists the tables of the Query page
 * against `chronoscope query --tables --json`, runs queries from the page
 * (its query.run action, as Ctrl+Enter does) and checks the rows against
 * `chronoscope query --json`'s; scrolls a long result and checks that rows
 * come a page at a time; activates a result row and checks that the event
 * list selects that event and the timeline shows its time; checks that a
 * bad query and a write show their errors, and that Cancel stops a query
 * that never ends; and that the latency plugin's latency_pairs, computed
 * by `chronoscope latency` first, is listed, queried and linked alike.
 */
#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "cs-cli.h"
#include "cs-query-page.h"
#include "cs-query-row.h"
#include "cs-session.h"
#include "gui-test-util.h"

static char *
recording_path (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");

  if (dir == NULL)
    g_error ("Set CS_TESTDATA to tests/data");
  return g_build_filename (dir, "sched-irq-v7.dat", NULL);
}

/* What `chronoscope query PATH ARG --json` prints, parsed. */
static JsonNode *
cli_json (const char *path,
          const char *arg)
{
  const char *exe = g_getenv ("CHRONOSCOPE");
  const char *argv[] = { exe, "query", path, arg, "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_nonnull (exe);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("chronoscope query failed: %s\n%s", error->message, err);
  return json_from_string (out, &error);
}

static gboolean
page_idle (gpointer data)
{
  CsQueryPage *page = data;

  return !cs_query_page_is_busy (page);
}

static void
run_query (CsQueryPage *page,
           const char  *sql)
{
  cs_query_page_set_text (page, sql);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.run", NULL));
  cs_test_wait_until (page_idle, page, sql);
}

/* The page's text of a JSON value, as cs_sql_query_dup_text() writes it. */
static char *
json_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      return g_strdup (g_ascii_dtostr (buf, sizeof buf, json_node_get_double (node)));
    }
  return g_strdup (json_node_get_string (node));
}

/* The page's rows [0, n) equal the CLI's for @sql. */
static guint
assert_rows_match_cli (CsQueryPage *page,
                       const char  *path,
                       const char  *sql)
{
  g_autoptr(JsonNode) root = cli_json (path, sql);
  JsonArray *rows = json_node_get_array (root);
  GListModel *model = cs_query_page_get_rows (page);
  GListModel *columns = gtk_column_view_get_columns (cs_query_page_get_column_view (page));
  guint n = g_list_model_get_n_items (model);

  g_assert_true (cs_query_page_get_done (page));
  g_assert_cmpuint (n, ==, json_array_get_length (rows));
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsQueryRow) row = g_list_model_get_item (model, i);
      JsonObject *want = json_array_get_object_element (rows, i);

      g_assert_cmpuint (cs_query_row_get_n_cells (row), ==, json_object_get_size (want));
      g_assert_cmpuint (g_list_model_get_n_items (columns), ==, json_object_get_size (want));
      for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
        {
          g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
          const char *name = gtk_column_view_column_get_title (column);
          g_autofree char *text = NULL;

          g_assert_true (json_object_has_member (want, name));
          text = json_text (json_object_get_member (want, name));
          g_assert_cmpstr (cs_query_row_get_cell (row, c), ==, text);
        }
    }
  return n;
}

static gboolean
is_table (GtkWidget     *widget,
          gconstpointer  name)
{
  return GTK_IS_EXPANDER (widget) && g_strcmp0 (gtk_expander_get_label (GTK_EXPANDER (widget)), name) == 0;
}

/* Activating a column of a table beside the editor (its first, "ts" of
 * sched_sched_switch) puts its name into the SQL. */
static void
test_insert_column (CsQueryPage *page)
{
  GtkWidget *table = cs_test_find_where (GTK_WIDGET (page), is_table, "sched_sched_switch");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (cs_query_page_get_editor (page));
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GtkTextIter start, end;
  GtkListBoxRow *row;

  g_assert_nonnull (table);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (table), !=, NULL);
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (gtk_expander_get_child (GTK_EXPANDER (table))), 0);
  g_assert_nonnull (row);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  before = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_signal_emit_by_name (gtk_widget_get_parent (GTK_WIDGET (row)), "row-activated", row);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  after = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpuint (strlen (after), ==, strlen (before) + strlen ("ts"));
  g_assert_nonnull (strstr (after, "ts"));
  gtk_text_buffer_set_text (buffer, before, -1);
  /* The editor keeps the focus the page gave it: destroying the window
   * with the focus in its notebook must not make GTK complain (it did,
   * before cs_window_dispose() removed the pages itself). */
  g_assert_true (gtk_widget_is_focus (GTK_WIDGET (cs_query_page_get_editor (page))));
}

static void
test_tables (CsQueryPage *page,
             const char  *path)
{
  g_autoptr(JsonNode) root = cli_json (path, "--tables");
  JsonArray *tables = json_node_get_array (root);
  const char * const *listed = cs_query_page_get_tables (page);
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (tables); i++)
    {
      const char *name = json_array_get_string_element (tables, i);

      /* "system:event" names the same table as system_event. */
      if (strchr (name, ':') != NULL)
        continue;
      g_assert_nonnull (listed[n]);
      g_assert_cmpstr (listed[n], ==, name);
      n++;
    }
  g_assert_null (listed[n]);
  g_assert_true (g_strv_contains (listed, "events"));
  g_assert_true (g_strv_contains (listed, "sched_sched_switch"));
  test_insert_column (page);
}

typedef struct {
  CsQueryPage *page;
  GtkAdjustment *adj;
} ScrollWait;

/* Scrolls to the end of what the view has (again at every look: on a slow
 * build the rows may not be laid out yet at the first scroll) until the
 * next page has come. */
static gboolean
more_rows (gpointer data)
{
  ScrollWait *wait = data;

  if (!cs_query_page_is_busy (wait->page) &&
      g_list_model_get_n_items (cs_query_page_get_rows (wait->page)) > 500)
    return TRUE;
  gtk_adjustment_set_value (wait->adj, gtk_adjustment_get_upper (wait->adj));
  return FALSE;
}

/* A long result comes a page at a time, as the view scrolls. */
static void
test_pages (CsQueryPage *page,
            CsDocument  *doc)
{
  GListModel *rows = cs_query_page_get_rows (page);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_query_page_get_column_view (page)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  guint first;

  g_assert_cmpuint (cs_document_get_n_events (doc), >, 1000);
  run_query (page, "SELECT ts, cpu, pid FROM events");
  g_assert_null (cs_query_page_get_error_message (page));
  first = g_list_model_get_n_items (rows);
  g_assert_cmpuint (first, <, cs_document_get_n_events (doc));
  g_assert_false (cs_query_page_get_done (page));

  /* Scroll to the end of what is there: the next page is read. */
  cs_test_spin (100);
  {
    ScrollWait wait = { page, adj };

    cs_test_wait_until (more_rows, &wait, "the next page of rows");
  }
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, first);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <=, cs_document_get_n_events (doc));
}

static void
test_link (CsWindow    *window,
           CsQueryPage *page,
           guint        position)
{
  g_autoptr(CsQueryRow) row = g_list_model_get_item (cs_query_page_get_rows (page), position);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsEventListView *list = cs_window_get_event_list_view (window);
  CsEventItem *item;
  const CsEvent *event;
  CsQueryLink link;

  g_assert_true (cs_query_row_get_link (row, &link));
  /* Zoom in somewhere else first, so that the view has to move. */
  cs_timeline_set_span (timeline, cs_timeline_get_begin_ns (timeline),
                        cs_timeline_get_begin_ns (timeline) + 1000);
  cs_test_spin (50);
  g_signal_emit_by_name (cs_query_page_get_column_view (page), "activate", position);
  cs_test_spin (200);

  item = cs_event_list_view_get_selected_item (list);
  g_assert_nonnull (item);
  event = cs_event_item_get_event (item);
  g_assert_cmpint (event->ts_ns, ==, link.ts_ns);
  g_assert_cmpint (event->cpu, ==, link.cpu);
  g_assert_cmpint (event->pid, ==, link.pid);
  /* The window's view model holds the selection. */
  {
    g_autoptr(GVariant) selected = NULL;
    CsEvent held;

    g_object_get (cs_window_get_model (window), "selected-event", &selected, NULL);
    g_assert_nonnull (selected);
    cs_event_from_variant (selected, &held);
    g_assert_cmpint (held.ts_ns, ==, event->ts_ns);
    g_assert_cmpuint (held.cpu, ==, event->cpu);
    /* And the list follows the model: nothing, then that event again. */
    g_object_set (cs_window_get_model (window), "selected-event", NULL, NULL);
    g_assert_null (cs_event_list_view_get_selected_item (list));
    g_object_set (cs_window_get_model (window), "selected-event", selected, NULL);
    item = cs_event_list_view_get_selected_item (list);
    g_assert_nonnull (item);
    event = cs_event_item_get_event (item);
    g_assert_cmpint (event->ts_ns, ==, held.ts_ns);
  }
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), <=, link.ts_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), >, link.ts_ns);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (list)));
}

static void
test_errors (CsQueryPage *page)
{
  const char *message;
  GtkTextBuffer *buffer;
  GtkTextIter iter;
  GtkTextTag *tag;

  run_query (page, "SELECT ts, no_such_column FROM events");
  message = cs_query_page_get_error_message (page);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "no_such_column"));
  g_assert_nonnull (strstr (message, "at character 11"));
  g_assert_cmpuint (g_list_model_get_n_items (cs_query_page_get_rows (page)), ==, 0);
  /* The cursor is on the unknown column, underlined. */
  buffer = gtk_text_view_get_buffer (cs_query_page_get_editor (page));
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  g_assert_cmpint (gtk_text_iter_get_offset (&iter), ==, 11);
  tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "cs-error");
  g_assert_nonnull (tag);
  g_assert_true (gtk_text_iter_has_tag (&iter, tag));

  run_query (page, "DELETE FROM tasks");
  message = cs_query_page_get_error_message (page);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "Refused"));
}

static gboolean
page_running (gpointer data)
{
  CsQueryPage *page = data;

  return cs_query_page_is_busy (page) && g_str_has_prefix (cs_query_page_get_status (page), "Running");
}

/* A query that never ends stops on Cancel (sqlite3_interrupt()). */
static void
test_cancel (CsQueryPage *page)
{
  cs_query_page_set_text (page, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                "SELECT count(*) FROM c");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.run", NULL));
  cs_test_wait_until (page_running, page, "the endless query to show progress");
  cs_test_spin (300);
  g_assert_true (cs_query_page_is_busy (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.cancel", NULL));
  cs_test_wait_until (page_idle, page, "the cancelled query to stop");
  g_assert_nonnull (cs_query_page_get_error_message (page));
  g_assert_cmpuint (g_list_model_get_n_items (cs_query_page_get_rows (page)), ==, 0);
}

static gboolean
is_named (GtkWidget     *widget,
          gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

/* Activating the history's second line (the query before the last) puts
 * @sql back into the editor. */
static void
test_history_row (CsQueryPage *page,
                  const char  *sql)
{
  GtkWidget *box = cs_test_find_where (GTK_WIDGET (page), is_named, "query-history");
  GtkListBoxRow *row;
  g_autofree char *text = NULL;

  g_assert_nonnull (box);
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (box), 1);
  g_assert_nonnull (row);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (gtk_list_box_row_get_child (row)), ==, sql);
  g_signal_emit_by_name (box, "row-activated", row);
  text = cs_query_page_dup_text (page);
  g_assert_cmpstr (text, ==, sql);
}

static gboolean
tables_listed (gpointer data)
{
  CsQueryPage *page = data;

  return !cs_query_page_is_busy (page) && cs_query_page_get_tables (page)[0] != NULL;
}

static void
test_query_and_link (void)
{
  g_autofree char *path = recording_path ();
  CsWindow *window = cs_test_open_window (path, 1200, 900);
  CsQueryPage *page = cs_window_get_query_page (window);
  CsDocument *doc = cs_timeline_get_document (cs_window_get_timeline (window));
  const char *sql = "SELECT ts, cpu, pid, comm, prev_state, next_comm, next_pid "
                    "FROM sched_sched_switch WHERE cpu = 1 ORDER BY ts LIMIT 40";
  const char * const *history;

  cs_test_show_tab (GTK_WIDGET (page));
  cs_test_wait_until (tables_listed, page, "the tables");
  test_tables (page, path);

  run_query (page, sql);
  g_assert_null (cs_query_page_get_error_message (page));
  g_assert_cmpuint (assert_rows_match_cli (page, path, sql), ==, 40);
  cs_test_save_screenshot (GTK_WIDGET (window), "query-page.png");

  test_link (window, page, 17);

  cs_test_show_tab (GTK_WIDGET (page));
  test_pages (page, doc);
  test_errors (page);
  test_cancel (page);

  history = cs_query_page_get_history (page);
  g_assert_cmpstr (history[1], ==, "DELETE FROM tasks");
  g_assert_true (g_strv_contains (history, sql));
  /* The view model follows the page as queries run (it is bound, not
   * read when a session is saved). */
  g_assert_true (g_strv_equal (cs_view_model_get_query_history (cs_window_get_model (window)), history));
  test_history_row (page, history[1]);
  cs_test_destroy_window (window);
}

/* The latency plugin's latency_pairs, computed by `chronoscope latency`
 * before the window opens: the page lists it, its rows equal the CLI's,
 * and a pair's row links to its A event. */
static void
test_latency_pairs (void)
{
  g_autofree char *path = recording_path ();
  const char *exe = g_getenv ("CHRONOSCOPE");
  const char *argv[] = { exe, "latency", path, "--preset", "wakeup", NULL };
  const char *sql = "SELECT definition, ts, cpu, pid, b_ts, duration_ns FROM latency_pairs "
                    "WHERE definition = 'wakeup' ORDER BY duration_ns DESC, ts LIMIT 10";
  g_autoptr(GError) error = NULL;
  g_autoptr(CsQueryRow) row = NULL;
  CsWindow *window;
  CsQueryPage *page;
  CsEventItem *item;
  CsQueryLink link;
  int status = 0;

  g_assert_nonnull (exe);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  window = cs_test_open_window (path, 1200, 900);
  page = cs_window_get_query_page (window);
  cs_test_show_tab (GTK_WIDGET (page));
  cs_test_wait_until (tables_listed, page, "the tables");
  g_assert_true (g_strv_contains (cs_query_page_get_tables (page), "latency_pairs"));

  run_query (page, sql);
  g_assert_null (cs_query_page_get_error_message (page));
  g_assert_cmpuint (assert_rows_match_cli (page, path, sql), ==, 10);

  row = g_list_model_get_item (cs_query_page_get_rows (page), 0);
  g_assert_true (cs_query_row_get_link (row, &link));
  g_signal_emit_by_name (cs_query_page_get_column_view (page), "activate", 0);
  cs_test_spin (200);
  item = cs_event_list_view_get_selected_item (cs_window_get_event_list_view (window));
  g_assert_nonnull (item);
  g_assert_cmpint (cs_event_item_get_event (item)->ts_ns, ==, link.ts_ns);
  g_assert_cmpint (cs_event_item_get_event (item)->cpu, ==, link.cpu);
  cs_test_destroy_window (window);
}

/* A session keeps the editor's text and the history. */
static void
test_session (void)
{
  g_autofree char *path = recording_path ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-query-session-XXXXXX", &error);
  g_autofree char *session_path = NULL;
  g_autoptr(CsSession) session = NULL;
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsQueryPage *page = cs_window_get_query_page (window);
  CsWindow *restored;
  CsQueryPage *restored_page;
  const char *first = "SELECT count(*) FROM events";
  const char *second = "SELECT pid, comm FROM tasks ORDER BY pid";
  const char *edited = "SELECT cpu,\n       count(*) FROM events GROUP BY cpu";
  g_autofree char *text = NULL;
  const char * const *history;

  g_assert_no_error (error);
  session_path = g_build_filename (dir, "query.json", NULL);
  cs_test_wait_until (page_idle, page, "the tables");
  run_query (page, first);
  run_query (page, second);
  run_query (page, first);
  cs_query_page_set_text (page, edited);
  /* The window's view model follows the editor as it changes. */
  g_object_get (cs_window_get_model (window), "query-text", &text, NULL);
  g_assert_cmpstr (text, ==, edited);
  g_clear_pointer (&text, g_free);

  session = cs_session_capture (cs_window_get_model (window));
  g_assert_nonnull (session);
  g_assert_true (cs_session_save (session, session_path, &error));
  g_assert_no_error (error);
  cs_test_destroy_window (window);

  restored = cs_test_new_window (1000, 700);
  g_assert_true (cs_window_open_session (restored, session_path, &error));
  g_assert_no_error (error);
  cs_test_wait_until (cs_test_window_is_ready, restored, "the session's recording");
  cs_test_spin (200);
  restored_page = cs_window_get_query_page (restored);
  text = cs_query_page_dup_text (restored_page);
  g_assert_cmpstr (text, ==, edited);
  history = cs_query_page_get_history (restored_page);
  /* Newest first, each query once. */
  g_assert_cmpstr (history[0], ==, first);
  g_assert_cmpstr (history[1], ==, second);
  g_assert_null (history[2]);
  cs_test_destroy_window (restored);
  cs_test_remove_tree (dir);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-query-page", TRUE);

  g_test_add_func ("/cs/gui/QueryPage/query-and-link", test_query_and_link);
  g_test_add_func ("/cs/gui/QueryPage/session", test_session);
  g_test_add_func ("/cs/gui/QueryPage/latency-pairs", test_latency_pairs);

  return cs_test_gui_run ();
}
