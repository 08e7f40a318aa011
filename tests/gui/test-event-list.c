/* test-event-list.c: the event list, markers and search in the window, under
 * Xvfb, against `trace-cmd report`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process, as test-gui.c does (this program
 * answers `index-worker FILE` itself).  The oracle is `trace-cmd report -t`
 * on the same recording: its lines are the list's rows, in the same order.
 * Screenshots go to $CS_SCREENSHOT_DIR.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "cs-cli.h"
#include "cs-time-axis.h"
#include "cs-window.h"
#include "gui-test-util.h"
#include "cs-test-hook.h"


/* ------------------------------------------------------------------------ */
/* The oracle                                                                */

typedef struct {
  char *comm;
  gint32 pid;
  guint cpu;
  char *time;    /* "575.579925508" */
  char *name;    /* "sched_switch": report prints no system */
} ReportLine;

static GArray *report_lines;   /* of ReportLine */

/* "   comm-with-dashes-1234  [001]   575.579925508: sched_switch:   info" */
static void
load_report (const char *path)
{
  const char *trace_cmd = g_getenv ("TRACE_CMD") != NULL ? g_getenv ("TRACE_CMD") : "trace-cmd";
  const char *argv[] = { trace_cmd, "report", "-t", path, NULL };
  g_autoptr(GRegex) regex = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error))
    g_error ("Cannot run %s: %s", trace_cmd, error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  regex = g_regex_new ("^\\s*(.*)-(\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+\\.\\d+):\\s+([^:\\s]+):", 0, 0, &error);
  g_assert_no_error (error);

  report_lines = g_array_new (FALSE, TRUE, sizeof (ReportLine));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      g_autofree char *pid = NULL;
      g_autofree char *cpu = NULL;
      ReportLine line;

      if (!g_regex_match (regex, lines[i], 0, &match))
        continue;
      pid = g_match_info_fetch (match, 2);
      cpu = g_match_info_fetch (match, 3);
      line.comm = g_match_info_fetch (match, 1);
      line.pid = atoi (pid);
      line.cpu = (guint) atoi (cpu);
      line.time = g_match_info_fetch (match, 4);
      line.name = g_match_info_fetch (match, 5);
      g_strstrip (line.comm);
      g_array_append_val (report_lines, line);
    }
  g_test_message ("trace-cmd report: %u events", report_lines->len);
  g_assert_cmpuint (report_lines->len, >, 100);
}

static const ReportLine *
report_line (guint i)
{
  g_assert_cmpuint (i, <, report_lines->len);
  return &g_array_index (report_lines, ReportLine, i);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static gboolean
list_is_ready (gpointer data)
{
  CsEventList *list = cs_event_list_view_get_model (data);

  return list != NULL && cs_event_list_get_ready (list);
}

/* The list counted its rows and selected a row again (after a filter). */
static gboolean
list_has_selection (gpointer data)
{
  return list_is_ready (data) && cs_event_list_view_get_selected_item (data) != NULL;
}

static gboolean
search_is_idle (gpointer data)
{
  return !cs_event_search_bar_get_busy (data);
}

/* The window with sched-irq-v6.dat open and its event list ready. */
typedef struct {
  CsWindow *window;
  CsTimeline *timeline;
  CsEventListView *view;
  CsEventList *list;
  CsDocument *document;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  fixture->window = cs_test_new_window (1200, 760);

  cs_window_open_file (fixture->window, file);
  cs_test_wait_until (cs_test_window_is_idle, fixture->window, "the index");
  g_assert_null (cs_window_get_error_message (fixture->window));
  g_assert_cmpint (cs_window_get_state (fixture->window), ==, CS_WINDOW_STATE_READY);

  fixture->timeline = cs_window_get_timeline (fixture->window);
  fixture->view = cs_window_get_event_list_view (fixture->window);
  fixture->document = cs_timeline_get_document (fixture->timeline);
  cs_test_wait_until (list_is_ready, fixture->view, "the event list");
  fixture->list = cs_event_list_view_get_model (fixture->view);
  cs_test_wait_until (cs_test_widget_is_drawable, fixture->view, "the event list to show");
  cs_test_spin (300);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  cs_test_destroy_window (fixture->window);
}

static CsEventItem *
get_item (Fixture *fixture,
          guint    row)
{
  CsEventItem *item = g_list_model_get_item (G_LIST_MODEL (fixture->list), row);

  g_assert_nonnull (item);
  return item;
}

static GtkWidget *
find_by_id (GtkWidget  *widget,
            const char *id)
{
  if (GTK_IS_BUILDABLE (widget) &&
      g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)), id) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_id (child, id);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_by_type (GtkWidget *widget,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_type (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
assert_row_matches_report (CsEventItem      *item,
                           const ReportLine *line)
{
  const CsEvent *event = cs_event_item_get_event (item);
  g_autofree char *time = cs_time_format_timestamp (event->ts_ns);
  const char *name = cs_event_item_get_name (item);
  const char *colon = strchr (name, ':');

  g_test_message ("row %" G_GUINT64_FORMAT ": %s-%d [%03u] %s %s | report: %s-%d [%03u] %s %s",
                  cs_event_item_get_row (item), cs_event_item_get_comm (item), event->pid,
                  event->cpu, time, name, line->comm, line->pid, line->cpu, line->time, line->name);
  g_assert_cmpstr (time, ==, line->time);
  g_assert_cmpint (event->pid, ==, line->pid);
  g_assert_cmpuint (event->cpu, ==, line->cpu);
  g_assert_cmpstr (cs_event_item_get_comm (item), ==, line->comm);
  g_assert_nonnull (colon);
  g_assert_cmpstr (colon + 1, ==, line->name);
}

/* Where the row's time label is, in the scrolled window; -1 when not shown. */
static double
row_y (Fixture *fixture,
       guint    row)
{
  g_autoptr(CsEventItem) item = get_item (fixture, row);
  g_autofree char *time = cs_time_format_timestamp (cs_event_item_get_event (item)->ts_ns);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (fixture->view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *label = cs_test_find_visible_label (scrolled, time, scrolled);
  graphene_rect_t bounds;

  if (label == NULL || !gtk_widget_compute_bounds (label, scrolled, &bounds))
    return -1;
  return bounds.origin.y + bounds.size.height / 2;
}

/* Lines of pixels holding text in the list: a list drawn empty, or with a
 * single row, has few. */
static guint
count_text_lines (Fixture *fixture)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (fixture->view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  CsTestPixels pixels;
  guint n_lines = 0;

  cs_test_pixels_init (&pixels, scrolled);
  for (int y = 0; y < pixels.height; y++)
    for (int x = 0; x < pixels.width; x++)
      {
        const guchar *p = pixels.pixels + (gsize) y * pixels.stride + (gsize) x * 4;

        /* Dark text on the light rows (B G R A). */
        if (p[0] < 90 && p[1] < 90 && p[2] < 90 && p[3] > 200)
          {
            n_lines++;
            break;
          }
      }

  cs_test_pixels_clear (&pixels);
  return n_lines;
}

/* The row whose time text is on screen in the list. */
static gboolean
row_is_visible (Fixture *fixture,
                guint    row)
{
  g_autoptr(CsEventItem) item = get_item (fixture, row);
  g_autofree char *time = cs_time_format_timestamp (cs_event_item_get_event (item)->ts_ns);
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (fixture->view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);

  return cs_test_find_visible_label (scrolled, time, scrolled) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static void
test_rows (Fixture       *fixture,
           gconstpointer  data)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (fixture->list));
  g_autoptr(CsEventItem) first = NULL;
  g_autoptr(CsEventItem) last = NULL;

  /* As many rows as the index has events, and as report prints. */
  g_assert_cmpuint (n_items, ==, cs_document_get_n_events (fixture->document));
  g_assert_cmpuint (n_items, ==, report_lines->len);

  first = get_item (fixture, 0);
  last = get_item (fixture, n_items - 1);
  assert_row_matches_report (first, report_line (0));
  assert_row_matches_report (last, report_line (report_lines->len - 1));

  /* The first rows are on screen, in the Time column's format. */
  g_assert_true (row_is_visible (fixture, 0));
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-open.png");

  /* A row in the middle matches report too. */
  {
    g_autoptr(CsEventItem) middle = get_item (fixture, n_items / 2);

    assert_row_matches_report (middle, report_line (n_items / 2));
  }
}

typedef struct {
  Fixture *fixture;
  guint row;
} RowWait;

static gboolean
row_is_shown (gpointer data)
{
  RowWait *wait = data;

  return row_is_visible (wait->fixture, wait->row);
}

static gboolean
row_is_shown_in_middle (gpointer data)
{
  RowWait *wait = data;
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (wait->fixture->view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  double y = row_y (wait->fixture, wait->row);
  double middle = gtk_widget_get_height (scrolled) / 2.0;

  return y >= 0 && fabs (y - middle) < middle / 3;
}

static void
test_scroll_to_row (Fixture       *fixture,
                    gconstpointer  data)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (fixture->list));
  guint rows[] = { n_items - 1, n_items / 2, 3, n_items - 60, n_items / 3 };
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (cs_event_list_view_get_column_view (fixture->view)),
                                                 GTK_TYPE_SCROLLED_WINDOW);

  /* How long the model takes to find a row at random (the list view asks
   * for a few such rows when it jumps). */
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(CsEventItem) item = get_item (fixture, rows[i]);
      g_autoptr(CsEventItem) next = rows[i] + 1 < n_items ? get_item (fixture, rows[i] + 1) : NULL;
      gint64 middle = g_get_monotonic_time ();
      const char *info = cs_event_item_get_info (item);

      g_test_message ("model: row %u in %" G_GINT64_FORMAT " µs (and the next row), its info in %" G_GINT64_FORMAT " µs",
                      rows[i], middle - start, g_get_monotonic_time () - middle);
      g_assert_nonnull (info);
    }

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      RowWait wait = { fixture, rows[i] };
      gint64 start = g_get_monotonic_time ();
      gint64 selected_us;

      cs_event_list_view_select_row (fixture->view, rows[i]);
      selected_us = g_get_monotonic_time () - start;
      g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), ==, rows[i]);
      cs_test_wait_until (row_is_shown, &wait, "the row to scroll into view");
      g_test_message ("row %u: selected in %" G_GINT64_FORMAT " µs, on screen after %" G_GINT64_FORMAT " ms",
                      rows[i], selected_us, (g_get_monotonic_time () - start) / 1000);

      /* Far from the ends, a row that was out of sight comes to the middle,
       * and stays there once the list has focused it. */
      if (rows[i] > 40 && rows[i] + 40 < n_items)
        cs_test_wait_until (row_is_shown_in_middle, &wait, "the row in the middle");
      g_test_message ("row %u at y %.0f of %d", rows[i], row_y (fixture, rows[i]),
                      gtk_widget_get_height (scrolled));
      cs_test_spin (200);
      g_assert_true (row_is_visible (fixture, rows[i]));
      g_assert_cmpuint (count_text_lines (fixture), >, 150);
    }

  cs_event_list_view_select_row (fixture->view, n_items - 1);
  cs_test_spin (150);
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-last-row.png");
}

static void
test_graph_follows (Fixture       *fixture,
                    gconstpointer  data)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (fixture->list));
  g_autoptr(CsEventItem) item = get_item (fixture, n_items * 3 / 4);
  g_autoptr(CsEventItem) other = get_item (fixture, n_items / 4);
  const CsEvent *event = cs_event_item_get_event (item);
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);

  g_assert_true (cs_event_list_view_get_graph_follows (fixture->view));
  g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_A), ==, CS_MARKER_UNSET);

  /* Zoomed in on the start, so that the event is out of view. */
  cs_timeline_set_span (fixture->timeline, first_ns, first_ns + (last_ns - first_ns) / 50);
  g_assert_cmpint (event->ts_ns, >=, cs_timeline_get_end_ns (fixture->timeline));

  cs_event_list_view_select_row (fixture->view, n_items * 3 / 4);
  g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_A), ==, event->ts_ns);
  g_assert_cmpint (cs_timeline_get_begin_ns (fixture->timeline), <=, event->ts_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (fixture->timeline), >, event->ts_ns);
  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-graph-follows.png");

  /* With B active, selecting moves B. */
  gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.select-marker-b", NULL);
  g_assert_cmpint (cs_timeline_get_active_marker (fixture->timeline), ==, CS_MARKER_B);
  cs_event_list_view_select_row (fixture->view, n_items / 4);
  g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_B), ==,
                   cs_event_item_get_event (other)->ts_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_A), ==, event->ts_ns);
  gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.select-marker-a", NULL);

  /* Switched off: the markers stay. */
  cs_event_list_view_set_graph_follows (fixture->view, FALSE);
  cs_event_list_view_select_row (fixture->view, 5);
  g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_A), ==, event->ts_ns);
  cs_event_list_view_set_graph_follows (fixture->view, TRUE);
}

static const char *
marker_text (Fixture *fixture)
{
  GtkWidget *label = find_by_id (GTK_WIDGET (fixture->window), "marker_label");

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
test_markers (Fixture       *fixture,
              gconstpointer  data)
{
  CsTimeline *timeline = fixture->timeline;
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  g_autofree char *a_text = NULL;
  g_autofree char *b_text = NULL;
  g_autofree char *delta = NULL;
  gint64 a_ns, b_ns, span_ns;
  double y, height, x0, width;
  CsViewport viewport = { 0 };

  /* Set from code, as a session restores them. */
  a_ns = first_ns + (last_ns - first_ns) / 3;
  b_ns = a_ns + 350692;
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, a_ns);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, b_ns);
  a_text = cs_time_format_timestamp (a_ns);
  b_text = cs_time_format_timestamp (b_ns);
  g_test_message ("markers: %s", marker_text (fixture));
  g_assert_nonnull (strstr (marker_text (fixture), a_text));
  g_assert_nonnull (strstr (marker_text (fixture), b_text));
  g_assert_nonnull (strstr (marker_text (fixture), "B − A 350.692 µs"));

  /* Markers survive zoom and pan: they are times. */
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "view.zoom-in", NULL);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.pan-right", NULL);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, b_ns);

  /* m centres the view on the active marker, at the same zoom. */
  span_ns = cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-to-marker", NULL));
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), ==, span_ns);
  g_assert_cmpint (ABS ((cs_timeline_get_begin_ns (timeline) + span_ns / 2) - a_ns), <=, 1);
  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-markers.png");

  /* Clicks: the active marker (A), then Shift+click for B, then a
   * double-click, which leaves A where it was and puts B there. */
  cs_timeline_zoom_to_fit (timeline);
  cs_timeline_renderer_get_cpu_plot_area (renderer, 0, &y, &height);
  viewport.begin_ns = cs_timeline_get_begin_ns (timeline);
  viewport.end_ns = cs_timeline_get_end_ns (timeline);
  viewport.width_px = gtk_widget_get_width (GTK_WIDGET (timeline));
  viewport.height_px = gtk_widget_get_height (GTK_WIDGET (timeline));
  cs_timeline_renderer_get_time_area (renderer, &viewport, &x0, &width);

  /* Below the plots nothing snaps: the marker goes where the pointer is. */
  cs_timeline_click_at (timeline, x0 + width * 0.25, viewport.height_px - 1, 1, 0);
  a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  g_assert_cmpint (ABS (a_ns - cs_timeline_renderer_x_to_ns (renderer, &viewport, x0 + width * 0.25)), <=,
                   (viewport.end_ns - viewport.begin_ns) / (gint64) width + 1);
  cs_timeline_click_at (timeline, x0 + width * 0.75, viewport.height_px - 1, 1, GDK_SHIFT_MASK);
  b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  g_assert_cmpint (b_ns, >, a_ns);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ns);
  delta = cs_time_format_duration (b_ns - a_ns);
  g_test_message ("markers: %s", marker_text (fixture));
  g_assert_nonnull (strstr (marker_text (fixture), delta));

  cs_timeline_click_at (timeline, x0 + width * 0.5, viewport.height_px - 1, 1, 0);
  cs_timeline_click_at (timeline, x0 + width * 0.5, viewport.height_px - 1, 2, 0);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ns);
  g_assert_cmpint (ABS (cs_timeline_get_marker_ns (timeline, CS_MARKER_B) -
                        cs_timeline_renderer_x_to_ns (renderer, &viewport, x0 + width * 0.5)), <=,
                   (viewport.end_ns - viewport.begin_ns) / (gint64) width + 1);

  /* Clicks on the CPU labels do nothing. */
  cs_timeline_click_at (timeline, x0 / 2, y + height / 2, 1, 0);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, a_ns);
  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-markers-clicked.png");
}

static void
test_click_selects_row (Fixture       *fixture,
                        gconstpointer  data)
{
  CsTimeline *timeline = fixture->timeline;
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsEventItem) item = NULL;
  CsViewport viewport = { 0 };
  const CsEvent *target, *selected;
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  double y, height, x;
  guint cpu = 1, row;

  /* Zoom onto an event of CPU 1 in the middle of the recording. */
  g_assert_true (cs_document_get_events (fixture->document, cpu, first_ns + (last_ns - first_ns) / 2,
                                         last_ns + 1, 1, events, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, 1);
  target = &g_array_index (events, CsEvent, 0);
  cs_event_list_view_select_row (fixture->view, 0);
  cs_timeline_set_span (timeline, target->ts_ns - 20000, target->ts_ns + 20000);

  viewport.begin_ns = cs_timeline_get_begin_ns (timeline);
  viewport.end_ns = cs_timeline_get_end_ns (timeline);
  viewport.width_px = gtk_widget_get_width (GTK_WIDGET (timeline));
  viewport.height_px = gtk_widget_get_height (GTK_WIDGET (timeline));
  cs_timeline_renderer_get_cpu_plot_area (renderer, cpu, &y, &height);
  x = cs_timeline_renderer_ns_to_x (renderer, &viewport, target->ts_ns);

  cs_timeline_click_at (timeline, x + 1, y + height / 2, 1, 0);

  row = cs_event_list_view_get_selected_row (fixture->view);
  g_assert_cmpuint (row, !=, GTK_INVALID_LIST_POSITION);
  item = get_item (fixture, row);
  selected = cs_event_item_get_event (item);
  g_test_message ("clicked near %" G_GINT64_FORMAT " on CPU %u: row %u, %" G_GINT64_FORMAT " on CPU %u",
                  target->ts_ns, cpu, row, selected->ts_ns, selected->cpu);
  /* The click snapped to an event within a few pixels: the one selected. */
  g_assert_cmpuint (selected->cpu, ==, cpu);
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, selected->ts_ns);
  g_assert_cmpfloat (fabs (cs_timeline_renderer_ns_to_x (renderer, &viewport, selected->ts_ns) - x), <=, 8.0);
  assert_row_matches_report (item, report_line (row));

  /* The info bar says what the list says about it: latency flags, name. */
  cs_timeline_hover_at (timeline, x + 1, y + height / 2);
  g_test_message ("hover: %s", cs_timeline_get_hover_text (timeline));
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), cs_event_item_get_latency (item)));
  g_assert_nonnull (strstr (cs_timeline_get_hover_text (timeline), cs_event_item_get_name (item)));

  cs_test_wait_until (row_is_shown, &(RowWait) { fixture, row }, "the row to scroll into view");
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-clicked.png");
}

static gboolean
count_label_is (gpointer data)
{
  gpointer *args = data;
  GtkWidget *label = find_by_id (args[0], "count_label");

  return label != NULL && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), args[1]) == 0;
}

static void
test_filtered (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsEventItem) item = NULL;
  g_autofree char *expected = NULL;
  CsTimeline *timeline = fixture->timeline;
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  CsViewport viewport = { 0 };
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  guint n_cpu0 = 0, first_after = G_MAXUINT, n_before = 0;
  const CsEvent *target;
  double y, height, x;
  gpointer args[2];

  /* Show only CPU 0, as the context menu's "Show Only CPU 0" asks. */
  cs_event_filter_set_mode (filter, CS_FILTER_CPU, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add (filter, CS_FILTER_CPU, 0);
  cs_event_list_set_filter (fixture->list, filter);
  cs_test_wait_until (list_is_ready, fixture->view, "the filter");

  for (guint i = 0; i < report_lines->len; i++)
    n_cpu0 += report_line (i)->cpu == 0;
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->list)), ==, n_cpu0);
  expected = g_strdup_printf ("%u of %u events", n_cpu0, report_lines->len);
  args[0] = fixture->view;
  args[1] = expected;
  cs_test_wait_until (count_label_is, args, "the count label");

  /* Clicking an event the filter hides (CPU 1) selects the first shown row
   * at or after its time. */
  g_assert_true (cs_document_get_events (fixture->document, 1, first_ns + (last_ns - first_ns) / 2,
                                         last_ns + 1, 1, events, &error));
  g_assert_no_error (error);
  target = &g_array_index (events, CsEvent, 0);
  cs_timeline_set_span (timeline, target->ts_ns - 20000, target->ts_ns + 20000);
  viewport.begin_ns = cs_timeline_get_begin_ns (timeline);
  viewport.end_ns = cs_timeline_get_end_ns (timeline);
  viewport.width_px = gtk_widget_get_width (GTK_WIDGET (timeline));
  viewport.height_px = gtk_widget_get_height (GTK_WIDGET (timeline));
  cs_timeline_renderer_get_cpu_plot_area (renderer, 1, &y, &height);
  x = cs_timeline_renderer_ns_to_x (renderer, &viewport, target->ts_ns);
  cs_timeline_click_at (timeline, x + 1, y + height / 2, 1, 0);

  for (guint i = 0; i < report_lines->len && first_after == G_MAXUINT; i++)
    {
      g_autofree char *time = NULL;

      if (report_line (i)->cpu != 0)
        continue;
      time = cs_time_format_timestamp (cs_timeline_get_marker_ns (timeline, CS_MARKER_A));
      /* Same-width "seconds.nanoseconds" strings compare as numbers. */
      if (strlen (report_line (i)->time) == strlen (time) && strcmp (report_line (i)->time, time) >= 0)
        first_after = n_before;
      n_before++;
    }
  g_test_message ("clicked CPU 1 at %" G_GINT64_FORMAT ": row %u, expected %u",
                  cs_timeline_get_marker_ns (timeline, CS_MARKER_A),
                  cs_event_list_view_get_selected_row (fixture->view), first_after);
  g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), ==, first_after);
  item = get_item (fixture, first_after);
  g_assert_cmpuint (cs_event_item_get_event (item)->cpu, ==, 0);

  /* The row is in view, in a list drawn full of rows (GTK 4.8 once kept
   * drawing the emptied rows after such a jump in a new model).  It comes
   * to the middle when the list view's estimates of rows it has not laid
   * out are right, which a new model spoils for a while: not checked here. */
  cs_test_wait_until (row_is_shown, &(RowWait) { fixture, first_after }, "the row to scroll into view");
  g_test_message ("text lines in the list: %u", count_text_lines (fixture));
  g_assert_cmpuint (count_text_lines (fixture), >, 150);
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-filtered.png");

  /* Without the filter the same event stays selected, in its row of the
   * whole list; with a filter that hides it, the row at its time is. */
  {
    CsEvent selected = *cs_event_item_get_event (item);
    const CsEvent *now;

    cs_event_list_set_filter (fixture->list, NULL);
    cs_test_wait_until (list_has_selection, fixture->view, "the selection without the filter");
    now = cs_event_item_get_event (cs_event_list_view_get_selected_item (fixture->view));
    g_assert_cmpint (now->ts_ns, ==, selected.ts_ns);
    g_assert_cmpuint (now->cpu, ==, selected.cpu);
    g_assert_cmpuint (now->offset, ==, selected.offset);

    cs_event_filter_set_mode (filter, CS_FILTER_CPU, CS_FILTER_SHOW_ONLY);
    cs_event_filter_remove (filter, CS_FILTER_CPU, 0);
    cs_event_filter_add (filter, CS_FILTER_CPU, 1);
    cs_event_list_set_filter (fixture->list, filter);
    cs_test_wait_until (list_has_selection, fixture->view, "the selection with the CPU 1 filter");
    now = cs_event_item_get_event (cs_event_list_view_get_selected_item (fixture->view));
    g_assert_cmpuint (now->cpu, ==, 1);
    g_assert_cmpint (now->ts_ns, >=, selected.ts_ns);
    g_test_message ("after the CPU 1 filter: row %u at %" G_GINT64_FORMAT " ns",
                    cs_event_list_view_get_selected_row (fixture->view), now->ts_ns);
  }
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  CsEventSearchBar *bar = cs_event_list_view_get_search_bar (fixture->view);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (fixture->list));
  g_autofree char *expected = NULL;
  guint matches[3], n_matches = 0;

  /* The oracle: the sched_switch lines of report, in order. */
  for (guint i = 0; i < report_lines->len; i++)
    if (g_str_equal (report_line (i)->name, "sched_switch"))
      {
        if (n_matches < G_N_ELEMENTS (matches))
          matches[n_matches] = i;
        n_matches++;
      }
  g_test_message ("report has %u sched_switch events", n_matches);
  g_assert_cmpuint (n_matches, >=, 3);

  /* Ctrl+F, handled wherever the focus is, opens the bar. */
  g_assert_false (cs_event_search_bar_get_search_mode (bar));
  gtk_widget_grab_focus (GTK_WIDGET (fixture->timeline));
  g_assert_cmpint (cs_test_activate_shortcut (GTK_WIDGET (fixture->view), "<Control>f"), ==,
                   GTK_SHORTCUT_SCOPE_GLOBAL);
  g_assert_true (cs_event_search_bar_get_search_mode (bar));
  cs_test_spin (200);

  cs_event_list_view_select_row (fixture->view, GTK_INVALID_LIST_POSITION);
  cs_event_search_bar_set_query (bar, CS_COLUMN_EVENT, CS_SEARCH_CONTAINS, "sched_switch");
  cs_test_wait_until (search_is_idle, bar, "the count");
  expected = g_strdup_printf ("%u matches", n_matches);
  g_test_message ("counter: %s", cs_event_search_bar_get_match_text (bar));
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);

  /* Next from nothing selected: the first match, then the second. */
  cs_event_search_bar_find (bar, TRUE);
  cs_test_wait_until (search_is_idle, bar, "the search");
  g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), ==, matches[0]);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("1 of %u", n_matches);
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);

  cs_event_search_bar_find (bar, TRUE);
  cs_test_wait_until (search_is_idle, bar, "the search");
  g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), ==, matches[1]);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("2 of %u", n_matches);
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);
  cs_test_wait_until (row_is_shown, &(RowWait) { fixture, matches[1] }, "the match to scroll into view");
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-search.png");

  /* Previous goes back; before the first it wraps to the last. */
  cs_event_search_bar_find (bar, FALSE);
  cs_test_wait_until (search_is_idle, bar, "the search");
  g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), ==, matches[0]);
  cs_event_search_bar_find (bar, FALSE);
  cs_test_wait_until (search_is_idle, bar, "the search");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%u of %u", n_matches, n_matches);
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);
  g_assert_cmpuint (cs_event_list_view_get_selected_row (fixture->view), >, matches[1]);

  /* "does not have" counts the others; a full match needs the whole text. */
  cs_event_search_bar_set_query (bar, CS_COLUMN_EVENT, CS_SEARCH_NOT_CONTAINS, "sched_switch");
  cs_test_wait_until (search_is_idle, bar, "the count");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%u matches", n_items - n_matches);
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);

  cs_event_search_bar_set_query (bar, CS_COLUMN_EVENT, CS_SEARCH_FULL_MATCH, "sched_switch");
  cs_test_wait_until (search_is_idle, bar, "the count");
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, "No matches");
  cs_event_search_bar_set_query (bar, CS_COLUMN_EVENT, CS_SEARCH_FULL_MATCH, "sched:sched_switch");
  cs_test_wait_until (search_is_idle, bar, "the count");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%u matches", n_matches);
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, expected);

  /* Searching a task name, with graph follows: the marker goes there. */
  cs_event_search_bar_set_query (bar, CS_COLUMN_TASK, CS_SEARCH_CONTAINS, report_line (matches[2])->comm);
  cs_test_wait_until (search_is_idle, bar, "the count");
  cs_event_search_bar_find (bar, TRUE);
  cs_test_wait_until (search_is_idle, bar, "the search");
  {
    g_autoptr(CsEventItem) item = get_item (fixture, cs_event_list_view_get_selected_row (fixture->view));

    g_assert_nonnull (strstr (cs_event_item_get_comm (item), report_line (matches[2])->comm));
    g_assert_cmpint (cs_timeline_get_marker_ns (fixture->timeline, CS_MARKER_A), ==,
                     cs_event_item_get_event (item)->ts_ns);
  }

  /* A count that runs shows the spinner and Stop; Stop ends it.
   * CS_SEARCH_TEST_HANG holds the worker until then. */
  cs_test_hook_set ("CS_SEARCH_TEST_HANG", TRUE);
  cs_event_search_bar_set_query (bar, CS_COLUMN_INFO, CS_SEARCH_CONTAINS, "prev_comm");
  g_assert_true (cs_event_search_bar_get_busy (bar));
  g_assert_true (gtk_widget_get_visible (cs_event_search_bar_get_stop_button (bar)));
  cs_test_spin (20);
  g_assert_true (cs_event_search_bar_get_busy (bar));
  cs_test_hook_set ("CS_SEARCH_TEST_HANG", FALSE);
  gtk_widget_activate (cs_event_search_bar_get_stop_button (bar));
  cs_test_wait_until (search_is_idle, bar, "the stopped count");
  g_assert_cmpstr (cs_event_search_bar_get_match_text (bar), ==, "Stopped");
  g_assert_false (gtk_widget_get_visible (cs_event_search_bar_get_stop_button (bar)));

  /* Stop cancels what runs. */
  cs_event_search_bar_set_query (bar, CS_COLUMN_INFO, CS_SEARCH_CONTAINS, "no such text anywhere");
  cs_event_search_bar_stop (bar);
  g_assert_false (cs_event_search_bar_get_busy (bar));
  cs_test_wait_until (search_is_idle, bar, "the stop");
}

static void
test_context_menu (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(CsEventItem) item = get_item (fixture, 7);
  GtkWidget *popover, *dialog = NULL;
  GMenuModel *model;
  GListModel *toplevels;
  g_autofree char *title = NULL;
  guint n_before;

  cs_event_list_view_select_row (fixture->view, 7);
  cs_test_spin (100);
  cs_event_list_view_popup_menu_at_row (fixture->view, 7, 300, 200);
  cs_test_spin (300);

  popover = find_by_type (GTK_WIDGET (fixture->view), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  g_assert_nonnull (model);
  g_assert_cmpint (g_menu_model_get_n_items (model), ==, 3);   /* filters, plots, fields */
  cs_test_save_screenshot (GTK_WIDGET (fixture->window), "event-list-context-menu.png");
  cs_test_save_screenshot (popover, "event-list-context-menu-popover.png");

  /* Raw fields: a window named after the event. */
  toplevels = gtk_window_get_toplevels ();   /* (transfer none) */
  n_before = g_list_model_get_n_items (toplevels);
  g_assert_true (gtk_widget_activate_action (popover, "event.show-fields", NULL));
  gtk_popover_popdown (GTK_POPOVER (popover));
  cs_test_spin (300);
  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, n_before + 1);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (gtk_window_get_transient_for (window) == GTK_WINDOW (fixture->window))
        dialog = GTK_WIDGET (window);
    }
  g_assert_nonnull (dialog);
  title = g_strdup (gtk_window_get_title (GTK_WINDOW (dialog)));
  g_assert_cmpstr (title, ==, cs_event_item_get_name (item));
  cs_test_save_screenshot (dialog, "event-list-fields.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  g_autofree char *recording = NULL;

  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-event-list", FALSE);

  recording = cs_test_find_recording ();
  load_report (recording);

#define ADD(path, func) \
  g_test_add ("/cs/gui/CsEventListView/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("rows-match-report", test_rows);
  ADD ("scroll-to-row", test_scroll_to_row);
  ADD ("graph-follows", test_graph_follows);
  ADD ("markers", test_markers);
  ADD ("click-selects-row", test_click_selects_row);
  ADD ("search", test_search);
  ADD ("context-menu", test_context_menu);
  ADD ("filtered", test_filtered);
#undef ADD

  return cs_test_gui_run ();
}
