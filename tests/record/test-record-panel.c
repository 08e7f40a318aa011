/* test-record-panel.c: recording from the window, under Xvfb, as root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The real CsWindow opens its record panel through win.record; the panel
 * lists tracefs's events (readable as root), searches them, records sched
 * and irq through the build tree's chronoscope-record-helper (this program
 * answers `index-worker` like chronoscope, since the window runs
 * /proc/self/exe for it),
 * shows live statistics, stops, and the window opens the recording.
 * Settings go to a memory GSettings backend.  Needs root; skipped (with the
 * reason) without it or without tracefs.
 */
#include "config.h"

#include <unistd.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-record-event-tree.h"
#include "cs-record-panel.h"
#include "cs-window.h"
#include "record-test-util.h"

#define WAIT_TIMEOUT_S 60

static void
picture_time_cb (CsRecordLive *live,
                 CsDocument   *document,
                 GArray       *times)
{
  gint64 now = g_get_monotonic_time ();

  g_array_append_val (times, now);
}

/* A figure, not a check (the machine's load decides it): how often the
 * live timeline grew. */
static void
print_picture_times (GArray *times)
{
  gint64 longest = 0;

  for (guint i = 1; i < times->len; i++)
    longest = MAX (longest, g_array_index (times, gint64, i) - g_array_index (times, gint64, i - 1));
  if (times->len > 1)
    g_test_message ("%u live pictures, one every %.2f s on average, %.2f s at the longest",
                    times->len,
                    (g_array_index (times, gint64, times->len - 1) - g_array_index (times, gint64, 0))
                    / 1e6 / (times->len - 1), longest / 1e6);
}

/* The meta row live_files of an index (cs-index-live.c), -1 when none:
 * how many files of a recording in progress the index was built over. */
static gint64
index_live_files (const char *index_path)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  gint64 n = -1;

  g_assert_cmpint (sqlite3_open_v2 (index_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = 'live_files'", -1,
                                       &s, NULL), ==, SQLITE_OK);
  if (sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  sqlite3_close (db);
  g_test_message ("%s: live_files %" G_GINT64_FORMAT, index_path, n);
  return n;
}

static char *work_dir;

typedef gboolean (*Condition) (gpointer data);

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* What the condition being waited for lacks last, for the timeout's
 * message. */
static const char *waiting_reason;

static gboolean
waiting_for (const char *what)
{
  waiting_reason = what;
  return FALSE;
}

static void
wait_until (Condition condition, gpointer data, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_TIMEOUT_S * G_USEC_PER_SEC;
  /* Wakes the loop up when nothing else does, so a wait that will never
   * end times out instead of blocking. */
  guint tick = g_timeout_add (100, tick_cb, NULL);

  waiting_reason = NULL;
  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out after %d s waiting for %s%s%s", WAIT_TIMEOUT_S, what,
                 waiting_reason != NULL ? ": still waiting for " : "",
                 waiting_reason != NULL ? waiting_reason : "");
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (tick);
}

static gboolean
job_state_is (CsRecordPanel *panel, CsRecordJobState state)
{
  CsRecordJob *job = cs_record_panel_get_job (panel);

  return job != NULL && cs_record_job_get_state (job) == state;
}

static gboolean
is_recording_with_stats (gpointer data)
{
  CsRecordJob *job = cs_record_panel_get_job (data);

  return job_state_is (data, CS_RECORD_JOB_STATE_RECORDING) && cs_record_job_get_stats (job) != NULL;
}

static gboolean
is_finished (gpointer data)
{
  return job_state_is (data, CS_RECORD_JOB_STATE_DONE) || job_state_is (data, CS_RECORD_JOB_STATE_FAILED);
}

static gboolean
window_is_ready (gpointer data)
{
  return cs_window_get_state (data) == CS_WINDOW_STATE_READY;
}

/* Events of what the window's timeline shows. */
static guint64
timeline_n_events (CsWindow *window)
{
  CsDocument *doc = cs_timeline_get_document (cs_window_get_timeline (window));

  return doc != NULL ? cs_document_get_n_events (doc) : 0;
}

typedef struct {
  CsWindow *window;
  guint64 more_than;
} LiveWait;

/* The window shows a live picture with more than @more_than events. */
static gboolean
live_grew (gpointer data)
{
  LiveWait *wait = data;

  return cs_window_is_live (wait->window) && timeline_n_events (wait->window) > wait->more_than;
}

/* The helper removes the live snapshots when it ends. */
static void
assert_no_live_snapshots (void)
{
  g_autoptr(GDir) dir = g_dir_open (work_dir, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, ".from-window.dat.live-"))
      g_error ("A live snapshot was left behind: %s", name);
}

/* The window shows the written recording (no longer a live snapshot). */
static gboolean
window_shows_recording (gpointer data)
{
  return window_is_ready (data) && !cs_window_is_live (data);
}

/* Saves what @widget shows to $CS_SCREENSHOT_DIR/@name, for people to look
 * at after a run (nothing when the variable is unset). */
static void
save_screenshot (GtkWidget *widget, const char *name)
{
  const char *dir = g_getenv ("CS_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  /* Let GTK lay out and draw a frame first. */
  for (gint64 until = g_get_monotonic_time () + 300 * 1000; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  if (dir == NULL || width <= 0 || height <= 0)
    {
      g_test_message ("no screenshot %s: %dx%d", name, width, height);
      return;
    }
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_test_message ("no screenshot %s: nothing drawn", name);
      return;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

/* A visible label of @widget's tree whose text begins with @prefix. */
static GtkLabel *
find_label (GtkWidget *widget, const char *prefix)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_label (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* What the window showed when it began opening the written recording. */
typedef struct {
  gboolean loading_seen;
  gboolean timeline_page;        /* the stack kept the timeline's page */
  guint64 n_events;              /* events of the picture shown then */
  gboolean live;
  gboolean progress_shown;       /* "Opening “…”" beside the picture */
} OpeningSeen;

/* The page the window's stack shows. */
static GtkWidget *
shown_page (CsWindow *window)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (cs_window_get_timeline (window)), GTK_TYPE_STACK);

  return gtk_stack_get_visible_child (GTK_STACK (stack));
}

/* The page shown says it opens the written recording. */
static gboolean
opening_progress_shown (CsWindow *window)
{
  GtkLabel *label = find_label (shown_page (window), "Opening “from-window.dat”");

  return label != NULL && gtk_widget_is_visible (GTK_WIDGET (label));
}

static void
window_state_cb (CsWindow *window, GParamSpec *pspec, OpeningSeen *seen)
{
  if (seen->loading_seen || cs_window_get_state (window) != CS_WINDOW_STATE_LOADING)
    return;
  seen->loading_seen = TRUE;
  seen->timeline_page = gtk_widget_is_ancestor (GTK_WIDGET (cs_window_get_timeline (window)),
                                                shown_page (window));
  seen->n_events = timeline_n_events (window);
  seen->live = cs_window_is_live (window);
  seen->progress_shown = opening_progress_shown (window);
}

/* Where the user was in the event list and which task plot they added. */
typedef struct {
  CsWindow *window;
  CsRecordLive *live;
  guint min_updates;             /* wait for this many live pictures */
  CsEvent selected;
  gint32 pid;
  char *filter;                  /* the event filter the user set, as text */
} ListPlace;

static GtkAdjustment *
list_adjustment (CsWindow *window)
{
  GtkColumnView *view = cs_event_list_view_get_column_view (cs_window_get_event_list_view (window));

  return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
}

/* The list's selected row is where the list is scrolled to (rows are of
 * one height). */
static gboolean
selected_row_shown (CsWindow *window)
{
  GtkColumnView *view = cs_event_list_view_get_column_view (cs_window_get_event_list_view (window));
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (view));
  GtkAdjustment *adjustment = list_adjustment (window);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (selection));
  guint row = gtk_single_selection_get_selected (selection);
  double row_height, y, value;

  if (n == 0 || row == GTK_INVALID_LIST_POSITION || gtk_adjustment_get_upper (adjustment) <= 0)
    return FALSE;
  row_height = gtk_adjustment_get_upper (adjustment) / n;
  y = row * row_height;
  value = gtk_adjustment_get_value (adjustment);
  return y + row_height > value && y < value + gtk_adjustment_get_page_size (adjustment);
}

static gboolean
selected_row_in_view (gpointer data)
{
  return selected_row_shown (data);
}

/* The window shows the event filter the user set (none, or place->filter),
 * and its list has counted what passes (after enough pictures). */
static gboolean
filter_kept (gpointer data)
{
  ListPlace *place = data;
  CsAnalysis *analysis = cs_window_get_analysis (place->window);
  g_autofree char *filter = NULL;

  if (place->live != NULL && cs_record_live_get_n_updates (place->live) < place->min_updates)
    return FALSE;
  if (place->filter == NULL)
    return cs_event_filter_is_empty (cs_analysis_get_filter (analysis));
  filter = cs_event_filter_to_string (cs_analysis_get_filter (analysis));
  return g_strcmp0 (filter, place->filter) == 0 && cs_analysis_get_filter_ready (analysis);
}

/* The window shows (enough pictures later) the same selected event, in
 * view in the list, the task plot, the filter, and the keyboard still in
 * the list. */
static gboolean
list_place_kept (gpointer data)
{
  ListPlace *place = data;
  CsEventItem *item = cs_event_list_view_get_selected_item (cs_window_get_event_list_view (place->window));
  const CsEvent *event;
  GtkWidget *focus;

  if (place->live != NULL && cs_record_live_get_n_updates (place->live) < place->min_updates)
    return waiting_for ("the next live picture");
  if (item == NULL)
    return waiting_for ("a selected event");
  event = cs_event_item_get_event (item);
  focus = gtk_root_get_focus (GTK_ROOT (place->window));
  if (!filter_kept (place))
    return waiting_for ("the filter");
  if (focus == NULL || focus == GTK_WIDGET (cs_window_get_timeline (place->window)) ||
      !gtk_widget_is_ancestor (focus, GTK_WIDGET (cs_window_get_event_list_view (place->window))))
    return waiting_for ("the keyboard in the list");
  if (event->ts_ns != place->selected.ts_ns || event->cpu != place->selected.cpu)
    return waiting_for ("the same selected event");
  if (!selected_row_shown (place->window))
    return waiting_for ("the selected row in view");
  if (!cs_analysis_has_task_plot (cs_window_get_analysis (place->window), place->pid))
    return waiting_for ("the task plot");
  return TRUE;
}

/* Selects an event of a task in the middle of the live picture's list,
 * which scrolls there, and adds the task's plot. */
static void
choose_list_place (ListPlace *place)
{
  CsEventListView *view = cs_window_get_event_list_view (place->window);
  GListModel *model = G_LIST_MODEL (cs_event_list_view_get_model (view));
  guint n = g_list_model_get_n_items (model);

  g_assert_cmpuint (n, >=, 100);
  for (guint row = n / 2; row < n; row++)
    {
      g_autoptr(CsEventItem) item = g_list_model_get_item (model, row);

      if (cs_event_item_get_event (item)->pid > 0)
        {
          cs_event_list_view_select_row (view, row);
          break;
        }
    }
  g_assert_nonnull (cs_event_list_view_get_selected_item (view));
  place->selected = *cs_event_item_get_event (cs_event_list_view_get_selected_item (view));
  place->pid = place->selected.pid;
  /* The keyboard is in the list: it stays there through the pictures. */
  gtk_widget_grab_focus (GTK_WIDGET (cs_event_list_view_get_column_view (view)));
  cs_analysis_add_task_plot (cs_window_get_analysis (place->window), place->pid);
  /* In view: scrolled there, or there already (the list's own rule,
   * which list_place_kept() checks too). */
  wait_until (selected_row_in_view, place->window, "the event list to show the selected event");
  g_test_message ("selected row at %" G_GINT64_FORMAT " ns on CPU %u, task %d",
                  place->selected.ts_ns, place->selected.cpu, place->pid);
}

static CsRecordEventTree *
find_event_tree (GtkWidget *widget)
{
  if (CS_IS_RECORD_EVENT_TREE (widget))
    return CS_RECORD_EVENT_TREE (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      CsRecordEventTree *found = find_event_tree (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_record_from_window (void)
{
  CsWindow *window;
  CsRecordPanel *panel;
  CsRecordEventTree *tree;
  g_autofree char *output = g_build_filename (work_dir, "from-window.dat", NULL);
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GArray) picture_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_auto(GStrv) saved = NULL;
  g_autoptr(JsonObject) oracle = NULL;
  g_autoptr(CsDocument) doc = NULL;
  TracefsSnapshot snapshot;
  guint n_all;
  LiveWait live;
  guint64 first_live, last_live;
  CsTimeline *timeline;
  gint64 zoom_begin_ns, zoom_end_ns;
  OpeningSeen opening = { 0 };
  ListPlace place = { 0 };

  if (!rt_require_tracefs ())
    return;
  rt_snapshot_take (&snapshot);

  window = cs_window_new (NULL);
  timeline = cs_window_get_timeline (window);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (cs_record_panel_get_for (GTK_WINDOW (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL));
  panel = cs_record_panel_get_for (GTK_WINDOW (window));
  g_assert_nonnull (panel);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (panel)));

  /* The tree lists tracefs's systems; a search narrows it to sched_switch. */
  tree = find_event_tree (GTK_WIDGET (panel));
  g_assert_nonnull (tree);
  g_assert_cmpuint (cs_record_event_tree_get_n_systems (tree), >, 5);
  n_all = cs_record_event_tree_get_n_rows (tree);
  cs_record_event_tree_set_search (tree, "sched_swi");
  g_assert_cmpuint (cs_record_event_tree_get_n_rows (tree), <, n_all);
  g_assert_cmpuint (cs_record_event_tree_get_n_rows (tree), >=, 1);
  cs_record_event_tree_set_search (tree, "");

  cs_record_panel_set_event (panel, "sched", FALSE, NULL);
  cs_record_panel_set_event (panel, "sched:sched_switch", TRUE, "prev_pid >= 0");
  cs_record_panel_set_event (panel, "sched:sched_wakeup", TRUE, NULL);
  cs_record_panel_set_event (panel, "irq", TRUE, NULL);
  g_assert_true (cs_record_event_tree_get_enabled (tree, "irq:irq_handler_entry"));
  cs_record_panel_set_output (panel, output);

  cs_record_panel_start (panel);
  /* When each live picture came, for the figures printed at Stop. */
  g_signal_connect (cs_record_panel_get_live (panel), "document", G_CALLBACK (picture_time_cb),
                    picture_times);
  wait_until (is_recording_with_stats, panel, "live statistics");
  g_test_message ("status: %s", cs_record_panel_get_status (panel));
  g_assert_true (g_str_has_prefix (cs_record_panel_get_status (panel), "Recording"));
  save_screenshot (GTK_WIDGET (panel), "record-panel.png");

  /* The timeline shows what was recorded so far, and it grows. */
  live.window = window;
  live.more_than = 0;
  wait_until (live_grew, &live, "a live timeline");
  first_live = timeline_n_events (window);
  /* The user zooms into the live picture: the zoom stays while it grows,
   * and when the written recording opens. */
  {
    CsDocument *doc1 = cs_timeline_get_document (timeline);
    gint64 first_ns = cs_document_get_first_ns (doc1);
    gint64 length_ns = cs_document_get_last_ns (doc1) - first_ns;

    g_assert_cmpint (length_ns, >, 0);
    cs_timeline_set_span (timeline, first_ns + length_ns / 4, first_ns + length_ns / 2);
    zoom_begin_ns = cs_timeline_get_begin_ns (timeline);
    zoom_end_ns = cs_timeline_get_end_ns (timeline);
  }
  live.more_than = first_live;
  wait_until (live_grew, &live, "the live timeline to grow");
  last_live = timeline_n_events (window);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, zoom_begin_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, zoom_end_ns);
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)),
                                   "Recording “from-window.dat”"));
  g_test_message ("live timeline: %" G_GUINT64_FORMAT " then %" G_GUINT64_FORMAT " events "
                  "(%u live updates)", first_live, last_live,
                  cs_record_live_get_n_updates (cs_record_panel_get_live (panel)));
  g_assert_cmpuint (last_live, >, first_live);
  g_assert_cmpuint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  save_screenshot (GTK_WIDGET (window), "record-window-live.png");

  /* The selected event, the list's position and a task plot the user
   * added stay through the next live picture. */
  place.window = window;
  place.live = cs_record_panel_get_live (panel);
  choose_list_place (&place);
  /* With Graph follows, selecting the row showed its time. */
  zoom_begin_ns = cs_timeline_get_begin_ns (timeline);
  zoom_end_ns = cs_timeline_get_end_ns (timeline);
  place.min_updates = cs_record_live_get_n_updates (place.live) + 1;
  wait_until (list_place_kept, &place, "the list's place to stay through live pictures");
  g_test_message ("the list stayed at %.0f px until live picture %u",
                  gtk_adjustment_get_value (list_adjustment (window)), place.min_updates);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, zoom_begin_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, zoom_end_ns);

  /* The user hides the idle task's events (pid 0): the filter stays
   * through the next live picture, and into the written recording. */
  {
    g_autoptr(CsEventFilter) filter = cs_event_filter_new ();

    cs_event_filter_set_mode (filter, CS_FILTER_PID, CS_FILTER_HIDE);
    cs_event_filter_add (filter, CS_FILTER_PID, 0);
    cs_analysis_set_filter (cs_window_get_analysis (window), filter);
    place.filter = cs_event_filter_to_string (cs_analysis_get_filter (cs_window_get_analysis (window)));
    place.min_updates = cs_record_live_get_n_updates (place.live) + 1;
    wait_until (filter_kept, &place, "the filter to stay through a live picture");
  }

  /* After Stop the last live picture stays, with the opening's progress
   * beside it, until the written recording is ready. */
  g_signal_connect (window, "notify::state", G_CALLBACK (window_state_cb), &opening);
  cs_record_panel_stop (panel);
  print_picture_times (picture_times);
  wait_until (is_finished, panel, "the recording to be written");
  if (cs_record_job_get_error (cs_record_panel_get_job (panel)) != NULL)
    g_error ("%s", cs_record_job_get_error (cs_record_panel_get_job (panel))->message);
  g_test_message ("status: %s", cs_record_panel_get_status (panel));
  g_assert_true (g_str_has_prefix (cs_record_panel_get_status (panel), "Saved"));
  assert_no_live_snapshots ();

  /* The window opens what was recorded: at least what it showed live, and
   * the same per CPU as a fresh open of the file. */
  wait_until (window_shows_recording, window, "the window to open the recording");
  g_signal_handlers_disconnect_by_func (window, window_state_cb, &opening);
  g_assert_true (opening.loading_seen);
  g_assert_true (opening.timeline_page);
  g_assert_true (opening.live);
  g_assert_true (opening.progress_shown);
  g_assert_cmpuint (opening.n_events, >=, last_live);
  g_assert_false (opening_progress_shown (window));
  /* And into the written recording. */
  place.live = NULL;
  wait_until (list_place_kept, &place, "the list's place to stay in the written recording");
  g_clear_pointer (&place.filter, g_free);
  {
    g_autoptr(GFile) written = g_file_new_for_path (output);
    CsDocument *shown = cs_timeline_get_document (cs_window_get_timeline (window));
    g_autoptr(CsDocument) fresh = rt_load_document (output);

    g_assert_true (g_file_equal (cs_window_get_file (window), written));
    /* Its index is the one built while recording: not built again. */
    g_assert_cmpint (index_live_files (cs_document_get_index_path (shown)), >=, 1);
    g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, zoom_begin_ns);
    g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, zoom_end_ns);
    g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (window)), "from-window.dat"));
    g_assert_cmpuint (cs_document_get_n_events (shown), >=, last_live);
    g_assert_cmpuint (cs_document_get_n_cpus (shown), ==, cs_document_get_n_cpus (fresh));
    for (guint cpu = 0; cpu < cs_document_get_n_cpus (fresh); cpu++)
      g_assert_cmpuint (cs_document_get_cpu (shown, cpu)->n_events, ==,
                        cs_document_get_cpu (fresh, cpu)->n_events);
  }
  save_screenshot (GTK_WIDGET (panel), "record-panel-saved.png");
  save_screenshot (GTK_WIDGET (window), "record-window.png");
  oracle = rt_run_oracle (output);
  doc = rt_load_document (output);
  rt_assert_document_matches (doc, oracle);
  g_assert_true (json_object_has_member (json_object_get_object_member (oracle, "events"),
                                         "sched:sched_switch"));
  g_assert_false (json_object_has_member (json_object_get_object_member (oracle, "events"),
                                          "sched:sched_stat_runtime"));

  /* What was recorded is remembered. */
  settings = g_settings_new (APP_ID);
  saved = g_settings_get_strv (settings, "record-events");
  g_assert_true (g_strv_contains ((const char * const *) saved, "irq"));
  g_assert_true (g_strv_contains ((const char * const *) saved, "sched:sched_switch"));
  g_assert_false (g_strv_contains ((const char * const *) saved, "sched"));

  gtk_window_destroy (GTK_WINDOW (window));
  rt_assert_no_orphan_instances ();
  rt_snapshot_assert_same (&snapshot);
  g_unlink (output);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache_dir = NULL;
  int status;

  /* The window runs /proc/self/exe index-worker. */
  if (argc >= 2 && cs_cli_is_command (argv[1]))
    return cs_cli_run (argc, argv);

  /* No G_TEST_OPTION_ISOLATE_DIRS: GTK would lose the icon theme in
   * XDG_DATA_DIRS.  The index cache goes to a temporary folder. */
  work_dir = g_dir_make_tmp ("cs-test-record-panel-XXXXXX", NULL);
  g_assert_nonnull (work_dir);
  cache_dir = g_build_filename (work_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_printerr ("Cannot open a display (run under xvfb-run)\n");
      return 1;
    }

  /* Without a window manager, two toplevels confuse focus: the cursor
   * blink of the panel's entries would warn about a missing focus-out. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  g_test_add_func ("/cs/record/CsRecordPanel/record-from-window", test_record_from_window);
  status = g_test_run ();
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", work_dir);
    g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
  }
  return status;
}
