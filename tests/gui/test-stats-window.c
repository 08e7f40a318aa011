/* test-stats-window.c: the statistics window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Opens a recording, opens Statistics… (win.show-stats) and checks that
 * the window shows the statistics of the visible span, then of markers
 * A..B once both are placed, each equal to what
 * cs_document_compute_range_stats() gives for that span (the computation
 * itself is checked against trace-cmd report in tests/sql).
 */
#include "config.h"

#include <string.h>

#include "cs-cli.h"
#include "cs-range-stats.h"
#include "cs-range-stats-text.h"
#include "cs-stats-window.h"
#include "cs-window-actions.h"
#include "cs-window-streams.h"
#include "gui-test-util.h"
#include "cs-test-hook.h"

static gboolean
stats_ready (gpointer data)
{
  CsStatsWindow *w = data;

  return !cs_stats_window_is_busy (w) && cs_stats_window_get_text (w) != NULL;
}

/* The text the window should show for [begin, end). */
static char *
expected_text (CsDocument *doc,
               gint64      begin_ns,
               gint64      end_ns)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsRangeStats) st = cs_document_compute_range_stats (doc, begin_ns, end_ns, NULL, &error);

  g_assert_no_error (error);
  return cs_range_stats_to_text (doc, st, 25);
}

static void
test_follows_span_and_markers (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *doc = cs_timeline_get_document (timeline);
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  gint64 a = first + (last - first) / 4, b = first + (last - first) / 2;
  CsStatsWindow *stats;
  gint64 begin_ns, end_ns;
  g_autofree char *want = NULL;
  g_autofree char *want_ab = NULL;

  cs_test_activate (window, "show-stats", NULL);
  stats = CS_STATS_WINDOW (_cs_window_actions_get_dialog (window, "stats"));
  g_assert_nonnull (stats);
  cs_test_wait_until (stats_ready, stats, "the statistics of the visible span");
  cs_stats_window_get_span (stats, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, cs_timeline_get_begin_ns (timeline));
  g_assert_cmpint (end_ns, ==, cs_timeline_get_end_ns (timeline));
  want = expected_text (doc, begin_ns, end_ns);
  g_assert_cmpstr (cs_stats_window_get_text (stats), ==, want);
  g_assert_nonnull (strstr (cs_stats_window_get_text (stats), "Wakeup latency"));
  cs_test_save_screenshot (GTK_WIDGET (stats), "stats-window.png");

  /* Markers A and B: the window follows them. */
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, b);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, a);
  cs_test_spin (50);
  cs_test_wait_until (stats_ready, stats, "the statistics of A..B");
  cs_stats_window_get_span (stats, &begin_ns, &end_ns);
  g_assert_cmpint (begin_ns, ==, a);
  g_assert_cmpint (end_ns, ==, b);
  want_ab = expected_text (doc, a, b);
  g_assert_cmpstr (cs_stats_window_get_text (stats), ==, want_ab);
  g_assert_cmpstr (want_ab, !=, want);

  /* Asking again presents the same window. */
  cs_test_activate (window, "show-stats", NULL);
  g_assert_true (_cs_window_actions_get_dialog (window, "stats") == GTK_WINDOW (stats));
  cs_test_destroy_window (window);
}

static gboolean
stop_shown (gpointer data)
{
  CsStatsWindow *w = data;

  return cs_stats_window_is_busy (w) && gtk_widget_get_visible (cs_stats_window_get_stop_button (w));
}

static gboolean
stats_idle (gpointer data)
{
  return !cs_stats_window_is_busy (CS_STATS_WINDOW (data));
}

/* A computation that does not end (CS_STATS_TEST_HANG) shows Stop; Stop
 * ends it, the window says so, and the next span computes again. */
static void
test_stop_cancels (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *doc = cs_timeline_get_document (timeline);
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  gint64 a = first + (last - first) / 3, b = first + (last - first) / 2;
  g_autofree char *want_ab = NULL;
  CsStatsWindow *stats;

  cs_test_hook_set ("CS_STATS_TEST_HANG", TRUE);
  cs_test_activate (window, "show-stats", NULL);
  stats = CS_STATS_WINDOW (_cs_window_actions_get_dialog (window, "stats"));
  g_assert_nonnull (stats);
  cs_test_wait_until (stop_shown, stats, "the Stop button of a running computation");
  g_assert_null (cs_stats_window_get_text (stats));

  gtk_widget_activate (cs_stats_window_get_stop_button (stats));
  cs_test_wait_until (stats_idle, stats, "the computation to stop");
  g_assert_nonnull (cs_stats_window_get_text (stats));
  g_assert_true (g_str_has_prefix (cs_stats_window_get_text (stats), "Stopped"));
  g_assert_false (gtk_widget_get_visible (cs_stats_window_get_stop_button (stats)));

  /* Without the hook, a new span computes to the end. */
  cs_test_hook_set ("CS_STATS_TEST_HANG", FALSE);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, b);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, a);
  cs_test_wait_until (stats_ready, stats, "the statistics of A..B after Stop");
  cs_test_wait_until (stats_idle, stats, "the statistics of A..B after Stop");
  want_ab = expected_text (doc, a, b);
  g_assert_cmpstr (cs_stats_window_get_text (stats), ==, want_ab);
  cs_test_destroy_window (window);
}

/* A host with its guest added: the statistics of markers A..B per
 * recording, each under its heading, each the figures of its own clock's
 * span (cs_stream_span_from_axis()) as the recording alone gives them. */
static void
test_per_stream (void)
{
  g_autofree char *host_path = cs_test_own_path ("pair/pair-host-v6.dat");
  g_autofree char *guest_path = cs_test_own_path ("pair/pair-guest-v6.dat");
  g_autoptr(GFile) guest_file = g_file_new_for_path (guest_path);
  CsWindow *window = cs_test_open_window (host_path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  g_autoptr(GString) want = g_string_new (NULL);
  CsStreamSet *set;
  CsStatsWindow *stats;
  CsStream *guest;
  gint64 first, last, a, b;

  cs_window_add_file (window, guest_file);
  cs_test_wait_until (cs_test_window_has_two_streams, window, "the guest's recording");
  set = cs_window_get_streams (window);
  guest = cs_stream_set_get_stream (set, 1);
  g_assert_true (cs_stream_is_aligned (guest));
  /* Markers around the middle of the guest's recording, on the axis. */
  first = cs_stream_to_axis_ns (guest, 0, cs_document_get_first_ns (cs_stream_get_document (guest)));
  last = cs_stream_to_axis_ns (guest, 0, cs_document_get_last_ns (cs_stream_get_document (guest)));
  a = first + (last - first) / 4;
  b = first + (last - first) * 3 / 4;
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, b);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, a);

  cs_test_activate (window, "show-stats", NULL);
  stats = CS_STATS_WINDOW (_cs_window_actions_get_dialog (window, "stats"));
  cs_test_spin (50);
  cs_test_wait_until (stats_ready, stats, "the statistics of each recording");
  for (guint i = 0; i < 2; i++)
    {
      CsStream *stream = cs_stream_set_get_stream (set, i);
      g_autoptr(CsDocument) alone = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gint64 begin_ns, end_ns;

      cs_stream_span_from_axis (stream, a, b, &begin_ns, &end_ns);
      alone = cs_document_load (cs_stream_get_path (stream), NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      text = expected_text (alone, begin_ns, end_ns);
      if (i > 0)
        g_string_append_c (want, '\n');
      g_string_append_printf (want, "── Recording %s (%s) ──\n%s", cs_stream_get_name (stream),
                              cs_document_get_trace_path (cs_stream_get_document (stream)), text);
    }
  g_assert_cmpstr (cs_stats_window_get_text (stats), ==, want->str);
  cs_test_save_screenshot (GTK_WIDGET (stats), "stats-window-streams.png");
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-stats-window", TRUE);

  g_test_add_func ("/cs/gui/StatsWindow/follows-span-and-markers", test_follows_span_and_markers);
  g_test_add_func ("/cs/gui/StatsWindow/stop-cancels", test_stop_cancels);
  g_test_add_func ("/cs/gui/StatsWindow/per-stream", test_per_stream);

  return cs_test_gui_run ();
}
