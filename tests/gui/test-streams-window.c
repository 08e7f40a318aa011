/* test-streams-window.c: a window with several recordings on one axis
 * (issue 25 item 1), under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Opens a recording, adds a second (cs_window_add_file(), what File → Add
 * Recording… and a drop do), and checks that the timeline draws both
 * groups, header rows included, that the added stream's state follows the
 * header's click and menu actions, and that a session saves and restores
 * both with the manual shift.  On the real KVM pair of ../shared/testdata/kvm
 * (skipped with a message when absent) the guest group must be the host's
 * guest, and a point of its drawing must map to the axis time under it;
 * opened guest first, the host must join on the guest's clock.  The
 * Query page runs over both recordings, on the window's axis.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "cs-cli.h"
#include "cs-event-fields.h"
#include "cs-event-menu.h"
#include "cs-query-page.h"
#include "cs-query-row.h"
#include "cs-session.h"
#include "cs-stream-shift-dialog.h"
#include "cs-timeline.h"
#include "cs-window-streams.h"
#include "gui-test-util.h"

/* The event list, once it is made again (in an idle), has this many rows. */
typedef struct {
  CsWindow *window;
  guint n_rows;
  gboolean merged;
} ListWait;

static gboolean
list_has_rows (gpointer data)
{
  ListWait *w = data;
  CsEventList *list = cs_event_list_view_get_model (cs_window_get_event_list_view (w->window));

  return list != NULL && cs_event_list_get_ready (list) &&
         (cs_event_list_get_stream_set (list) != NULL) == w->merged &&
         g_list_model_get_n_items (G_LIST_MODEL (list)) == w->n_rows;
}

static void
wait_rows (CsWindow *window, guint64 n_rows, gboolean merged, const char *what)
{
  ListWait w = { window, (guint) n_rows, merged };

  cs_test_wait_until (list_has_rows, &w, what);
}

static CsStreamsRenderer *
streams_renderer_of (CsWindow *window)
{
  /* the timeline draws through it once there are two streams */
  CsStreamSet *set = cs_window_get_streams (window);
  CsStream *own = cs_stream_set_get_stream (set, 0);
  CsTimeline *timeline = cs_window_get_timeline (window);

  g_assert_true (cs_stream_get_document (own) == cs_timeline_get_document (timeline));
  return cs_timeline_get_streams (timeline);
}

/* The Shift Recording window, if one is open. */
static CsStreamShiftDialog *
find_shift_dialog (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (CS_IS_STREAM_SHIFT_DIALOG (l->data))
      return l->data;
  return NULL;
}

/* Opens @first, adds @second, waits for both on the axis. */
static CsWindow *
open_two (const char *first, const char *second)
{
  CsWindow *window = cs_test_open_window (first, 1100, 800);
  g_autoptr(GFile) file = g_file_new_for_path (second);

  cs_window_add_file (window, file);
  cs_test_wait_until (cs_test_window_has_two_streams, window, "the second recording");
  cs_test_wait_until (cs_test_widget_is_drawable, cs_window_get_timeline (window), "the timeline");
  cs_test_spin (100);
  return window;
}

/* Both groups are drawn: their header rows are not the page's colour. */
static void
check_groups_drawn (CsWindow *window)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsStreamsRenderer *r = streams_renderer_of (window);
  CsStreamSet *set = cs_window_get_streams (window);
  CsTestPixels pixels;

  g_assert_nonnull (r);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (timeline)), >=,
                   cs_streams_renderer_get_natural_height (r) - 1);
  cs_test_pixels_init (&pixels, GTK_WIDGET (timeline));
  for (guint i = 0; i < 2; i++)
    {
      CsStream *s = cs_stream_set_get_stream (set, i);
      double y = 0;
      guint n_dark = 0;

      g_assert_true (cs_streams_renderer_get_stream_area (r, s, &y, NULL));
      /* the header's text: dark pixels along its first line */
      for (int x = 30; x < 400 && (int) y + 9 < pixels.height; x++)
        {
          const guchar *p = pixels.pixels + (gsize) ((int) y + 9) * pixels.stride + (gsize) x * 4;

          if (p[0] < 110 && p[1] < 110 && p[2] < 110)
            n_dark++;
        }
      g_test_message ("%s: header at y %.0f, %u dark pixels on its title line",
                      cs_stream_get_name (s), y, n_dark);
      g_assert_cmpuint (n_dark, >, 10);
    }
  g_free (pixels.pixels);
}

static void
test_two_recordings (void)
{
  g_autofree char *a = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *b = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autofree char *session_path = g_build_filename (cs_test_work_dir, "streams.session", NULL);
  g_autoptr(CsSession) session = NULL;
  g_autoptr(GError) error = NULL;
  CsWindow *window = open_two (a, b);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsStreamSet *set = cs_window_get_streams (window);
  CsStream *added = cs_stream_set_get_stream (set, 1);
  CsStreamsRenderer *r = streams_renderer_of (window);
  int height;
  double y = 0;

  g_assert_cmpint (cs_stream_get_alignment (added), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
  check_groups_drawn (window);
  cs_test_save_screenshot (GTK_WIDGET (window), "streams-window.png");

  /* hover on the added header tells its file and its alignment */
  g_assert_true (cs_streams_renderer_get_stream_area (r, added, &y, NULL));
  cs_timeline_hover_at (timeline, 400, y + 8);
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), b));
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), cs_stream_get_note (added)));

  /* a click on its triangle collapses it, and the timeline shrinks */
  height = cs_streams_renderer_get_natural_height (r);
  cs_timeline_click_at (timeline, 6, y + 8, 1, 0);
  g_assert_true (cs_stream_get_collapsed (added));
  cs_test_spin (100);
  g_assert_cmpint (cs_streams_renderer_get_natural_height (r), <, height);

  /* the header menu's actions: shift by hand (the Shift window), move up,
   * hide, show all */
  cs_test_activate (window, "stream-shift", g_variant_new_uint32 (1));
  {
    CsStreamShiftDialog *dialog = find_shift_dialog ();

    g_assert_nonnull (dialog);
    cs_stream_shift_dialog_apply (dialog, 12345);
    cs_test_spin (50);
    g_assert_null (find_shift_dialog ());
  }
  g_assert_cmpint (cs_stream_get_offset_ns (added), ==, 12345);
  cs_test_activate (window, "stream-up", g_variant_new_uint32 (1));
  g_assert_true (cs_stream_set_get_stream (set, 0) == added);
  cs_test_activate (window, "stream-down", g_variant_new_uint32 (0));
  g_assert_true (cs_stream_set_get_stream (set, 1) == added);
  cs_test_activate (window, "stream-hide", g_variant_new_uint32 (1));
  g_assert_true (cs_stream_get_hidden (added));
  cs_test_activate (window, "streams-show-all", NULL);
  g_assert_false (cs_stream_get_hidden (added));

  /* a session keeps both, with the added one's shift and state */
  session = cs_session_capture (cs_window_get_model (window));
  g_assert_true (cs_session_save (session, session_path, &error));
  g_assert_no_error (error);
  cs_test_destroy_window (window);

  window = cs_test_new_window (1100, 800);
  g_assert_true (cs_window_open_session (window, session_path, &error));
  g_assert_no_error (error);
  cs_test_wait_until (cs_test_window_is_ready, window, "the session's recording");
  cs_test_wait_until (cs_test_window_has_two_streams, window, "the session's second recording");
  set = cs_window_get_streams (window);
  added = cs_stream_set_get_stream (set, 1);
  g_assert_cmpstr (cs_stream_get_path (added), ==, b);
  g_assert_cmpint (cs_stream_get_offset_ns (added), ==, 12345);
  g_assert_true (cs_stream_get_collapsed (added));

  /* closing it leaves the window's recording alone */
  cs_test_activate (window, "stream-close", g_variant_new_uint32 (1));
  g_assert_cmpuint (cs_stream_set_get_n_streams (set), ==, 1);
  cs_test_activate (window, "stream-close", g_variant_new_uint32 (0));
  g_assert_cmpuint (cs_stream_set_get_n_streams (set), ==, 1);
  cs_test_destroy_window (window);
}

static gboolean
page_idle (gpointer data)
{
  return !cs_query_page_is_busy (data);
}

/* Runs @sql on the window's Query page; its rows as "a|b\n" lines. */
static char *
page_rows (CsWindow *window, const char *sql)
{
  CsQueryPage *page = cs_window_get_query_page (window);
  GListModel *rows = cs_query_page_get_rows (page);
  GString *out = g_string_new (NULL);

  cs_query_page_set_text (page, sql);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "query.run", NULL));
  cs_test_wait_until (page_idle, page, sql);
  g_assert_null (cs_query_page_get_error_message (page));
  g_assert_true (cs_query_page_get_done (page));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(CsQueryRow) row = g_list_model_get_item (rows, i);

      for (guint c = 0; c < cs_query_row_get_n_cells (row); c++)
        g_string_append_printf (out, "%s%s", c ? "|" : "", cs_query_row_get_cell (row, c));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/* The Query page of a window with two recordings runs over both, on the
 * window's axis (its manual shift included), and over one again once the
 * other is closed. */
static void
test_query_streams (void)
{
  g_autofree char *a = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *b = cs_test_own_path ("sched-prio-migrate-v7.dat");
  CsWindow *window = open_two (a, b);
  CsStreamSet *set = cs_window_get_streams (window);
  CsStream *own = cs_stream_set_get_stream (set, 0);
  CsStream *added = cs_stream_set_get_stream (set, 1);
  CsQueryPage *page = cs_window_get_query_page (window);
  g_autofree char *rows = NULL;
  g_autofree char *want = NULL;

  g_assert_cmpint (cs_stream_get_alignment (added), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
  cs_stream_set_offset_ns (added, 12345);
  rows = page_rows (window, "SELECT stream, count(*) FROM events GROUP BY stream ORDER BY stream");
  want = g_strdup_printf ("0|%" G_GUINT64_FORMAT "\n1|%" G_GUINT64_FORMAT "\n",
                          cs_document_get_n_events (cs_stream_get_document (own)),
                          cs_document_get_n_events (cs_stream_get_document (added)));
  g_test_message ("%s", rows);
  g_assert_cmpstr (rows, ==, want);
  g_assert_true (g_strv_contains (cs_query_page_get_tables (page), "streams"));
  g_clear_pointer (&rows, g_free);
  rows = page_rows (window, "SELECT stream, min(ts_aligned) - min(ts), count(*) FILTER "
                            "(WHERE ts_aligned IS NOT ts + 12345 * stream) FROM events "
                            "GROUP BY stream ORDER BY stream");
  g_assert_cmpstr (rows, ==, "0|0|0\n1|12345|0\n");
  g_clear_pointer (&rows, g_free);
  rows = page_rows (window, "SELECT file, aligned, note IS NOT NULL FROM streams ORDER BY id");
  g_clear_pointer (&want, g_free);
  want = g_strdup_printf ("%s|1|0\n%s|1|1\n", a, b);
  g_assert_cmpstr (rows, ==, want);

  /* a row links to an event of the window's own recording only */
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT stream, ts, cpu FROM events WHERE stream = %u "
                                              "LIMIT 1", k);
      g_autofree char *one = page_rows (window, sql);
      g_autoptr(CsQueryRow) row = g_list_model_get_item (cs_query_page_get_rows (page), 0);
      CsQueryLink link;

      g_assert_nonnull (row);
      g_assert_cmpint (cs_query_row_get_link (row, &link), ==, k == 0);
    }

  /* one recording again: exactly the one-document session */
  cs_test_activate (window, "stream-close", g_variant_new_uint32 (1));
  g_clear_pointer (&rows, g_free);
  rows = page_rows (window, "SELECT count(*) FROM events");
  g_clear_pointer (&want, g_free);
  want = g_strdup_printf ("%" G_GUINT64_FORMAT "\n",
                          cs_document_get_n_events (cs_stream_get_document (own)));
  g_assert_cmpstr (rows, ==, want);
  g_assert_false (g_strv_contains (cs_query_page_get_tables (page), "streams"));
  cs_test_destroy_window (window);
}

static void check_type_translation (CsDocument *host, CsDocument *guest);

static void
test_kvm_pair (void)
{
  g_autofree char *host = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *guest = host != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  CsWindow *window;
  CsStreamSet *set;
  CsStream *g;
  CsStreamsRenderer *r;
  CsStreamsHit hit;
  CsViewport viewport;
  double gy = 0, plot_y = 0;
  gint64 first;

  if (guest == NULL)
    return;        /* skipped: cs_test_kvm_path() says why */
  window = open_two (host, guest);
  set = cs_window_get_streams (window);
  g = cs_stream_set_get_stream (set, 1);
  r = streams_renderer_of (window);
  g_assert_cmpint (cs_stream_get_alignment (g), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_true (cs_stream_get_host (g) == cs_stream_set_get_stream (set, 0));
  check_groups_drawn (window);
  cs_test_save_screenshot (GTK_WIDGET (window), "streams-kvm-pair.png");

  /* the timeline shows both on the host's axis: the guest's first event,
   * converted, lies within the visible span */
  first = cs_stream_to_axis_ns (g, 0, cs_document_get_first_ns (cs_stream_get_document (g)));
  g_assert_cmpint (first, >=, cs_timeline_get_begin_ns (cs_window_get_timeline (window)));
  g_assert_cmpint (first, <, cs_timeline_get_end_ns (cs_window_get_timeline (window)));

  /* a point on the guest's CPU plot: the guest time under it maps back */
  viewport.begin_ns = cs_timeline_get_begin_ns (cs_window_get_timeline (window));
  viewport.end_ns = cs_timeline_get_end_ns (cs_window_get_timeline (window));
  viewport.width_px = gtk_widget_get_width (GTK_WIDGET (cs_window_get_timeline (window)));
  viewport.height_px = gtk_widget_get_height (GTK_WIDGET (cs_window_get_timeline (window)));
  g_assert_true (cs_streams_renderer_get_stream_area (r, g, &gy, NULL));
  cs_timeline_renderer_get_cpu_plot_area (cs_streams_renderer_get_stream_renderer (r, g), 0, &plot_y, NULL);
  g_assert_true (cs_streams_renderer_hit_test (r, &viewport, viewport.width_px * 0.5,
                                               gy + CS_STREAM_HEADER_HEIGHT_PX + plot_y + 5, &hit, NULL));
  g_assert_true (hit.stream == g);
  g_assert_cmpint (hit.hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_cmpint (ABS (cs_stream_to_axis_ns (g, 0, hit.hit.ts_ns) - hit.axis_ns), <=,
                   2 * (viewport.end_ns - viewport.begin_ns) / viewport.width_px + 2);
  check_type_translation (cs_stream_get_document (cs_stream_set_get_stream (set, 0)),
                          cs_stream_get_document (g));
  cs_test_destroy_window (window);

  /* the guest opened first keeps its clock as the axis; its host joins
   * through the inverse conversion */
  window = open_two (guest, host);
  set = cs_window_get_streams (window);
  g_assert_true (cs_stream_set_get_reference (set) == cs_stream_set_get_stream (set, 0));
  g_assert_cmpint (cs_stream_get_alignment (cs_stream_set_get_stream (set, 1)), ==,
                   CS_STREAM_ALIGNMENT_HOST);
  check_groups_drawn (window);
  first = cs_stream_to_axis_ns (cs_stream_set_get_stream (set, 1), 0,
                                cs_document_get_first_ns (cs_stream_get_document (cs_stream_set_get_stream (set, 1))));
  g_assert_cmpint (first, >=, cs_timeline_get_begin_ns (cs_window_get_timeline (window)));
  g_assert_cmpint (first, <, cs_timeline_get_end_ns (cs_window_get_timeline (window)));
  cs_test_save_screenshot (GTK_WIDGET (window), "streams-kvm-guest-first.png");
  cs_test_destroy_window (window);
}

/* Opens the project's own host/guest pair, host first; @guest_path gets
 * the guest's path. */
static CsWindow *
open_pair (char **guest_path)
{
  g_autofree char *host = cs_test_own_path ("pair/pair-host-v6.dat");

  *guest_path = cs_test_own_path ("pair/pair-guest-v6.dat");
  return open_two (host, *guest_path);
}

/* The event list merges both recordings of the project's host/guest pair
 * in axis order, with a Stream column; a row of the guest moves the
 * marker to its axis time; a hidden or closed stream leaves the list. */
static void
test_event_list (void)
{
  g_autofree char *guest = NULL;
  CsWindow *window = open_pair (&guest);
  CsEventListView *view = cs_window_get_event_list_view (window);
  CsStreamSet *set = cs_window_get_streams (window);
  CsStream *g = cs_stream_set_get_stream (set, 1);
  guint64 n_host = cs_document_get_n_events (cs_stream_get_document (cs_stream_set_get_stream (set, 0)));
  guint64 n_guest = cs_document_get_n_events (cs_stream_get_document (g));
  GListModel *columns = gtk_column_view_get_columns (cs_event_list_view_get_column_view (view));
  g_autoptr(GtkColumnViewColumn) stream_column = g_list_model_get_item (columns, 1);
  CsEventList *list;
  guint row = G_MAXUINT;

  wait_rows (window, n_host + n_guest, TRUE, "the merged list");
  list = cs_event_list_view_get_model (view);
  g_assert_cmpstr (gtk_column_view_column_get_title (stream_column), ==, "Stream");
  g_assert_true (gtk_column_view_column_get_visible (stream_column));

  /* a guest row in the middle: the marker goes to its axis time */
  for (guint i = (guint) (n_host + n_guest) / 2; i < n_host + n_guest && row == G_MAXUINT; i++)
    {
      g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), i);

      if (cs_event_item_get_stream (item) == g)
        row = i;
    }
  g_assert_cmpuint (row, !=, G_MAXUINT);
  cs_event_list_view_set_graph_follows (view, TRUE);
  cs_event_list_view_select_row (view, row);
  cs_test_spin (100);
  {
    CsEventItem *item = cs_event_list_view_get_selected_item (view);
    CsTimeline *timeline = cs_window_get_timeline (window);

    g_assert_true (cs_event_item_get_stream (item) == g);
    g_assert_cmpint (cs_event_item_get_time_ns (item), !=, cs_event_item_get_event (item)->ts_ns);
    g_assert_cmpint (cs_timeline_get_marker_ns (timeline, cs_timeline_get_active_marker (timeline)), ==,
                     cs_event_item_get_time_ns (item));
    /* and the timeline shows the guest's group */
    {
      GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (timeline), GTK_TYPE_SCROLLED_WINDOW);
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
      double y = 0;

      g_assert_true (cs_streams_renderer_get_stream_area (streams_renderer_of (window), g, &y, NULL));
      g_test_message ("guest group at y %.0f, timeline shows %.0f..%.0f", y,
                      gtk_adjustment_get_value (adj),
                      gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj));
      g_assert_cmpfloat (y, >=, gtk_adjustment_get_value (adj) - 1);
      g_assert_cmpfloat (y, <, gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj));
    }
  }
  cs_test_save_screenshot (GTK_WIDGET (window), "streams-event-list.png");

  /* the stream as a filter dimension (the row menu's Show Only / Hide
   * Recording), then cleared */
  cs_test_activate (window, "filter-stream-only", g_variant_new_string (guest));
  wait_rows (window, n_guest, TRUE, "the guest's rows only");
  cs_test_activate (window, "filter-stream-hide", g_variant_new_string (guest));
  wait_rows (window, n_host, TRUE, "the host's rows only");
  cs_test_activate (window, "filter-clear", NULL);
  wait_rows (window, n_host + n_guest, TRUE, "both again");

  /* hidden: out of the list; shown again: back */
  cs_test_activate (window, "stream-hide", g_variant_new_uint32 (1));
  wait_rows (window, n_host, TRUE, "the list without the guest");
  cs_test_activate (window, "streams-show-all", NULL);
  wait_rows (window, n_host + n_guest, TRUE, "the list with the guest again");

  /* closed: the window's own list, without the Stream column */
  cs_test_activate (window, "stream-close", g_variant_new_uint32 (1));
  wait_rows (window, n_host, FALSE, "the host's own list");
  g_assert_false (gtk_column_view_column_get_visible (stream_column));
  cs_test_destroy_window (window);
}

static gboolean
is_fields_window (GtkWidget *widget, gconstpointer data)
{
  return CS_IS_EVENT_FIELDS (widget);
}

static gboolean
is_label_with_text (GtkWidget *widget, gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* Whether @menu (or one of its sections) has an item of @action whose
 * target is @value. */
static gboolean
menu_has (GMenuModel *menu, const char *action, GVariant *value)
{
  g_autoptr(GVariant) owned = value != NULL ? g_variant_ref_sink (value) : NULL;

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      g_autoptr(GVariant) a = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_ACTION, NULL);
      g_autoptr(GVariant) t = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET, NULL);

      if (section != NULL && menu_has (section, action, owned != NULL ? g_variant_ref (owned) : NULL))
        return TRUE;
      if (a != NULL && g_str_equal (g_variant_get_string (a, NULL), action) &&
          (owned == NULL || (t != NULL && g_variant_equal (t, owned))))
        return TRUE;
    }
  return FALSE;
}

/* The id @doc gives the event type called as @type is, or G_MAXUINT. */
static guint
host_type_id (CsDocument *doc, const CsEventType *type)
{
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    if (g_str_equal (cs_document_get_event_type (doc, t)->system, type->system) &&
        g_str_equal (cs_document_get_event_type (doc, t)->name, type->name))
      return t;
  return G_MAXUINT;
}

/* Two kernels number their event types apart: a guest row's menu offers
 * its type's filter under the host's id of the same "system:name". */
static void
check_type_translation (CsDocument *host, CsDocument *guest)
{
  guint n_apart = 0;

  for (guint t = 0; t < cs_document_get_n_event_types (guest); t++)
    {
      guint id = host_type_id (host, cs_document_get_event_type (guest, t));
      CsEventMenuTarget target = { TRUE, { .type_id = t }, FALSE, 0, FALSE, 0, NULL, NULL, guest };
      g_autoptr(GMenuModel) menu = NULL;

      if (id == G_MAXUINT || id == t)
        continue;
      menu = cs_event_menu_build (host, &target);
      g_assert_true (menu_has (menu, "win.filter-event-hide", g_variant_new_uint32 (id)));
      g_assert_false (menu_has (menu, "win.filter-event-hide", g_variant_new_uint32 (t)));
      n_apart++;
    }
  g_test_message ("%u guest event types have another id in the host", n_apart);
  g_assert_cmpuint (n_apart, >, 0);
}

/* The row of the guest's event on CPU plot @cpu: y of its middle in the
 * timeline, or -1 when the guest draws no such CPU. */
static double
guest_cpu_y (CsWindow *window, CsStream *g, guint cpu, double x)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsStreamsRenderer *r = streams_renderer_of (window);
  CsViewport viewport = { cs_timeline_get_begin_ns (timeline), cs_timeline_get_end_ns (timeline),
                          gtk_widget_get_width (GTK_WIDGET (timeline)),
                          gtk_widget_get_height (GTK_WIDGET (timeline)) };
  double gy = 0;

  g_assert_true (cs_streams_renderer_get_stream_area (r, g, &gy, NULL));
  for (guint i = 0; i < 64; i++)
    {
      double plot_y = 0, height = 0;
      CsStreamsHit hit;

      cs_timeline_renderer_get_cpu_plot_area (cs_streams_renderer_get_stream_renderer (r, g), i,
                                              &plot_y, &height);
      if (height <= 0)
        break;
      plot_y += gy + CS_STREAM_HEADER_HEIGHT_PX + height / 2;
      if (cs_streams_renderer_hit_test (r, &viewport, x, plot_y, &hit, NULL) &&
          hit.stream == g && hit.hit.kind == CS_HIT_CPU_PLOT && hit.hit.cpu == cpu)
        return plot_y;
    }
  return -1;
}

typedef struct {
  CsTimeline *timeline;
  CsMarker marker;
  gint64 ns;
} MarkerWait;

static gboolean
marker_is_at (gpointer data)
{
  MarkerWait *w = data;

  return cs_timeline_get_marker_ns (w->timeline, w->marker) == w->ns;
}

/* Waits until @marker is at @ns: Graph follows moves it when a row is
 * selected.  Fails the test (with the marker's place) past the wait. */
static void
wait_marker (CsTimeline *timeline, CsMarker marker, gint64 ns)
{
  MarkerWait w = { timeline, marker, ns };

  cs_test_wait_until (marker_is_at, &w, "the marker on the selected row's axis time");
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, marker), ==, ns);
}

/* Another stream's events act as the window's own: a click on one in the
 * guest's group selects its row of the merged list and names the guest
 * in the hover text; its row menu filters by its task and event type
 * (by "system:name") and shows its own raw fields; markers placed from
 * its rows are axis times, and aligning A of the guest to B moves it so. */
static void
test_other_stream (void)
{
  g_autofree char *guest = NULL;
  CsWindow *window = open_pair (&guest);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsEventListView *view = cs_window_get_event_list_view (window);
  CsStreamSet *set = cs_window_get_streams (window);
  CsStream *h = cs_stream_set_get_stream (set, 0);
  CsStream *g = cs_stream_set_get_stream (set, 1);
  CsDocument *hdoc = cs_stream_get_document (h), *gdoc = cs_stream_get_document (g);
  guint64 n_all = cs_document_get_n_events (hdoc) + cs_document_get_n_events (gdoc);
  g_autoptr(GError) error = NULL;
  CsEventList *list;
  CsEvent ev = { 0 }, hev = { 0 };
  gint64 axis = 0, haxis = 0, drawn, ns_per_px;
  guint64 row = 0, host_row = G_MAXUINT64;
  CsStream *stream = NULL;
  double x, y = -1;

  wait_rows (window, n_all, TRUE, "the merged list");
  list = cs_event_list_view_get_model (view);

  /* a guest event and a host event after it, from the middle of the list */
  for (row = n_all / 2; row < n_all && stream != g; row++)
    g_assert_true (cs_event_list_get_stream_event (list, row, &stream, &ev, &axis, &error));
  g_assert_true (stream == g);
  row--;
  for (guint64 i = row + 1; i < n_all && host_row == G_MAXUINT64; i++)
    {
      g_assert_true (cs_event_list_get_stream_event (list, i, &stream, &hev, &haxis, &error));
      if (stream == h)
        host_row = i;
    }
  g_assert_cmpuint (host_row, !=, G_MAXUINT64);

  /* 1. a click on it in the guest's group: its row, the marker on its
   * axis time; the hover text names the guest */
  /* the group draws its recording through vCPU 0's conversion (the
   * list's axis time converts by the event's own vCPU): click where it
   * is drawn */
  drawn = cs_stream_to_axis_ns (g, 0, ev.ts_ns);
  g_test_message ("guest event on CPU %u: axis %" G_GINT64_FORMAT ", drawn at %" G_GINT64_FORMAT,
                  ev.cpu, axis, drawn);
  cs_event_list_view_select_row (view, 0);   /* (which shows its own time) */
  cs_test_spin (50);
  cs_timeline_set_span (timeline, drawn - 20000, drawn + 20000);
  cs_test_spin (100);
  x = cs_timeline_renderer_ns_to_x (cs_timeline_get_renderer (timeline),
                                    &(CsViewport) { cs_timeline_get_begin_ns (timeline),
                                                    cs_timeline_get_end_ns (timeline),
                                                    gtk_widget_get_width (GTK_WIDGET (timeline)),
                                                    gtk_widget_get_height (GTK_WIDGET (timeline)) },
                                    drawn);
  y = guest_cpu_y (window, g, ev.cpu, x);
  g_assert_cmpfloat (y, >, 0);
  cs_timeline_set_active_marker (timeline, CS_MARKER_A);
  cs_timeline_click_at (timeline, x, y, 1, 0);
  cs_test_spin (50);
  ns_per_px = (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline)) /
              gtk_widget_get_width (GTK_WIDGET (timeline));
  {
    CsEventItem *item = cs_event_list_view_get_selected_item (view);

    g_assert_nonnull (item);
    g_test_message ("clicked at axis %" G_GINT64_FORMAT ", selected row %u at %" G_GINT64_FORMAT,
                    axis, cs_event_list_view_get_selected_row (view), cs_event_item_get_time_ns (item));
    g_assert_true (cs_event_item_get_stream (item) == g);
    g_assert_cmpuint (cs_event_item_get_event (item)->cpu, ==, ev.cpu);
    g_assert_cmpint (ABS (cs_event_item_get_time_ns (item) - axis), <=, 6 * ns_per_px);
    g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, cs_event_item_get_time_ns (item));
  }
  cs_timeline_hover_at (timeline, x, y);
  g_assert_true (g_str_has_prefix (cs_timeline_get_hover_text (timeline), cs_stream_get_name (g)));

  /* 2. its row menu: task and event-type filters under the host's type
   * id of the same name, no task plot of the host's; Raw Fields read the
   * guest's record */
  {
    CsEvent typed = ev;
    const CsEventType *type;
    CsEventMenuTarget target = { TRUE, ev, TRUE, ev.pid, TRUE, ev.cpu, guest, NULL, gdoc };
    g_autoptr(GMenuModel) menu = NULL;
    g_autofree char *info = cs_document_format_event (gdoc, &ev, NULL);
    guint host_id = host_type_id (hdoc, cs_document_get_event_type (gdoc, ev.type_id));
    guint64 want;
    GtkWidget *fields;

    /* a type the guest recorded whose id differs in the host, if any,
     * so that the menu must translate it */
    for (guint t = 0; t < cs_document_get_n_event_types (gdoc); t++)
      {
        guint id = host_type_id (hdoc, cs_document_get_event_type (gdoc, t));

        if (cs_document_get_event_type (gdoc, t)->n_events > 0 && id != G_MAXUINT && id != t)
          {
            typed.type_id = t;
            host_id = id;
            break;
          }
      }
    type = cs_document_get_event_type (gdoc, typed.type_id);
    target.event = typed;
    menu = cs_event_menu_build (hdoc, &target);
    g_test_message ("guest event type %s:%s (id %u), host id %u", type->system, type->name,
                    typed.type_id, host_id);
    g_assert_true (menu_has (menu, "win.filter-task-only", g_variant_new_int32 (ev.pid)));
    g_assert_false (menu_has (menu, "win.add-task-plot", NULL));
    g_assert_cmpuint (host_id, !=, G_MAXUINT);
    g_assert_true (menu_has (menu, "win.filter-event-only", g_variant_new_uint32 (host_id)));

    cs_test_activate (window, "filter-event-only", g_variant_new_uint32 (host_id));
    want = cs_document_get_event_type (hdoc, host_id)->n_events + type->n_events;
    wait_rows (window, want, TRUE, "the rows of the guest's event type in both");
    cs_test_activate (window, "filter-clear", NULL);
    wait_rows (window, n_all, TRUE, "both again");

    g_assert_true (cs_event_list_find_stream_row (cs_event_list_view_get_model (view), g, &ev, &row, &error));
    cs_event_list_view_popup_menu_at_row (view, (guint) row, 10, 10);
    cs_test_spin (50);
    g_assert_true (gtk_widget_activate_action (cs_test_find_widget (GTK_WIDGET (view), GTK_TYPE_POPOVER_MENU),
                                               "event.show-fields", NULL));
    cs_test_spin (50);
    fields = NULL;
    {
      g_autoptr(GList) windows = gtk_window_list_toplevels ();

      for (GList *l = windows; l != NULL && fields == NULL; l = l->next)
        fields = cs_test_find_where (l->data, is_fields_window, NULL);
    }
    g_assert_nonnull (fields);
    g_assert_nonnull (info);
    g_assert_nonnull (cs_test_find_where (fields, is_label_with_text, g_strstrip (info)));
    gtk_window_destroy (GTK_WINDOW (fields));
  }

  /* 3. markers from rows are axis times; A on the guest's event, B on the
   * host's: aligning A of the guest to B puts the guest's event at B */
  list = cs_event_list_view_get_model (view);
  cs_event_list_view_set_graph_follows (view, TRUE);
  cs_timeline_set_active_marker (timeline, CS_MARKER_A);
  cs_event_list_view_select_row (view, 0);
  cs_event_list_view_select_row (view, (guint) row);
  wait_marker (timeline, CS_MARKER_A, axis);
  g_assert_true (cs_event_list_find_stream_row (list, h, &hev, &host_row, &error));
  cs_timeline_set_active_marker (timeline, CS_MARKER_B);
  cs_event_list_view_select_row (view, (guint) host_row);
  wait_marker (timeline, CS_MARKER_B, haxis);
  cs_test_activate (window, "stream-align-markers", g_variant_new_uint32 (1));
  g_assert_cmpint (cs_stream_to_axis_ns (g, ev.cpu, ev.ts_ns), ==, haxis);
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-streams-window", TRUE);
  g_test_add_func ("/cs/gui/StreamsWindow/two-recordings", test_two_recordings);
  g_test_add_func ("/cs/gui/StreamsWindow/query", test_query_streams);
  g_test_add_func ("/cs/gui/StreamsWindow/event-list", test_event_list);
  g_test_add_func ("/cs/gui/StreamsWindow/other-stream", test_other_stream);
  g_test_add_func ("/cs/gui/StreamsWindow/kvm-pair", test_kvm_pair);
  return cs_test_gui_run ();
}
