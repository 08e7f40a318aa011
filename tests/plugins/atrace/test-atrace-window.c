/* test-atrace-window.c: atrace slices on a task plot in a real window
 * (Xvfb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A person opens a copy of the Android systrace text
 * ../shared/testdata/public/text/raw-tgid.txt (made in a fresh temporary
 * folder), adds the task plot of the task that wrote the text's first B
 * marker, and zooms on that marker: once the plugin's pass ran in the
 * background, the pointer just after the marker, somewhere over the task
 * plot, must give the slice's name (read from the marker's line here) and
 * its duration.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-timeline.h"
#include "gui-test-util.h"

/* The first "tracing_mark_write: B|tgid|name" line of @path: its pid
 * (the TASK-PID column), time and name. */
static void
first_begin (const char *path,
             gint32     *pid,
             gint64     *ts_ns,
             char      **name)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *mark = strstr (lines[i], "tracing_mark_write: B|");
      const char *colon, *dot, *dash;
      g_autofree char *head = NULL;
      g_auto(GStrv) parts = NULL;

      if (mark == NULL)
        continue;
      /* "TASK-PID ( TGID) [CPU] FLAGS SEC.USEC: tracing_mark_write: B|..." */
      head = g_strndup (lines[i], mark - lines[i]);
      colon = strrchr (head, ':');
      g_assert_nonnull (colon);
      *strrchr (head, ':') = '\0';
      dot = strrchr (head, ' ');
      g_assert_nonnull (dot);
      *ts_ns = (gint64) (g_ascii_strtod (dot + 1, NULL) * 1e6 + 0.5) * 1000;
      dash = strchr (head, '(');
      g_assert_nonnull (dash);
      while (dash > head && dash[-1] == ' ')
        dash--;
      {
        const char *p = dash;

        while (p > head && p[-1] != '-')
          p--;
        *pid = (gint32) atoi (p);
      }
      parts = g_strsplit (mark + strlen ("tracing_mark_write: "), "|", 4);
      g_assert_nonnull (parts[1]);
      g_assert_nonnull (parts[2]);
      *name = g_strdup (parts[2]);
      return;
    }
  g_error ("%s has no B marker", path);
}

static void
test_slice_hover (void)
{
  g_autofree char *src = g_build_filename (g_getenv ("CS_SHARED_TESTDATA"), "text", "raw-tgid.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-atrace-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  g_autofree char *want = NULL;
  CsWindow *window;
  CsTimeline *timeline;
  CsTimelineRenderer *renderer;
  const char *hover = NULL;
  gint64 ts_ns;
  gint32 pid;
  gsize len;

  g_assert_no_error (error);
  if (!g_file_test (src, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("no ../shared/testdata/public/text/raw-tgid.txt");
      return;
    }
  path = g_build_filename (dir, "raw-tgid.txt", NULL);
  g_assert_true (g_file_get_contents (src, &contents, &len, &error));
  g_assert_true (g_file_set_contents (path, contents, len, &error));
  first_begin (path, &pid, &ts_ns, &name);
  want = g_strdup_printf ("Slice %s: ", name);
  g_test_message ("pid %d, B at %" G_GINT64_FORMAT " ns: %s", pid, ts_ns, name);

  window = cs_test_open_window (path, 1200, 900);
  timeline = cs_window_get_timeline (window);
  renderer = cs_timeline_get_renderer (timeline);
  cs_test_wait_until (cs_test_passes_done, window, "the plugin passes");
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (pid));
  g_assert_true (cs_analysis_has_task_plot (cs_window_get_analysis (window), pid));
  cs_timeline_set_span (timeline, ts_ns - 100000, ts_ns + 400000);
  cs_test_wait_until (cs_test_widget_is_drawable, timeline, "the timeline");

  for (guint tries = 0; ; tries++)
    {
      const gint32 *pids;
      guint n_pids, i;
      double y, height, x;

      pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);
      for (i = 0; i < n_pids && pids[i] != pid; i++)
        ;
      g_assert_cmpuint (i, <, n_pids);
      cs_timeline_renderer_get_task_plot_area (renderer, i, &y, &height);
      x = cs_test_timeline_x (timeline, ts_ns) + 1;
      for (double dy = 0; dy < height; dy += 1)
        {
          cs_timeline_hover_at (timeline, x, y + dy);
          hover = cs_timeline_get_hover_text (timeline);
          if (hover != NULL && strstr (hover, want) != NULL)
            break;
        }
      if (tries >= 200 || (hover != NULL && strstr (hover, want) != NULL))
        break;
      gtk_widget_queue_draw (GTK_WIDGET (timeline));
      cs_test_spin (100);
    }
  g_test_message ("hover: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, want));
  /* A duration follows the name: "… ms" or "… µs". */
  g_assert_nonnull (strstr (strstr (hover, want), "s"));
  cs_test_save_screenshot (GTK_WIDGET (window), "atrace-slice");
  cs_test_destroy_window (window);
  cs_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-atrace-window", TRUE);
  g_test_add_func ("/cs/plugins/Atrace/slice-hover", test_slice_hover);
  return cs_test_gui_run ();
}
