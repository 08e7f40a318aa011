/* test-atrace-window.c: atrace slices on a task plot in a real window
 * (Xvfb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A person opens a copy of the Android-style systrace text
 * tests/data/atrace-tgid.txt, recorded here (made in a fresh temporary
 * folder), adds the task plot of the task that wrote the text's first B
 * marker, and zooms on that marker: once the plugin's pass ran in the
 * background, the pointer just after the marker, somewhere over the task
 * plot, must give the slice's name (read from the marker's line here) and
 * its duration.
 *
 * Counters: a second copy has a C marker "C|tgid|opened|N" after each B
 * marker (same task and time, N counting the process's Bs so far, as
 * check-atrace.py makes it).  The task plot of the first B's task then has
 * the counters band at its bottom: the pointer there, just after that B,
 * must give "Counter opened: N" with the N in force (counted from the
 * text here), and the band's pixels change there.  The Atrace page lists
 * the counter; Enter on its line adds the counter's own row, which gives
 * the same text.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-analysis.h"
#include "cs-cli.h"
#include "cs-export.h"
#include "cs-timeline.h"
#include "gui-test-util.h"

/* If @line is a "tracing_mark_write: B|tgid|name" line: its pid (the
 * TASK-PID column), time, tgid and name. */
static gboolean
parse_begin (const char *line,
             gint32     *pid,
             gint64     *ts_ns,
             gint32     *tgid,
             char      **name)
{
  const char *mark = strstr (line, "tracing_mark_write: B|");
  const char *colon, *dot, *dash;
  g_autofree char *head = NULL;
  g_auto(GStrv) parts = NULL;

  if (mark == NULL)
    return FALSE;
  /* "TASK-PID ( TGID) [CPU] FLAGS SEC.USEC: tracing_mark_write: B|..." */
  head = g_strndup (line, mark - line);
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
  *tgid = (gint32) atoi (parts[1]);
  *name = g_strdup (parts[2]);
  return TRUE;
}

/* The first B marker of @path. */
static void
first_begin (const char *path,
             gint32     *pid,
             gint64     *ts_ns,
             gint32     *tgid,
             char      **name)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (parse_begin (lines[i], pid, ts_ns, tgid, name))
      return;
  g_error ("%s has no B marker", path);
}

typedef enum { ADD_NONE, ADD_COUNTERS, ADD_ASYNC } AddMarks;

/* Writes to @dst the text of @src with markers added after each B marker
 * (the same task and time; N counts the tgid's Bs so far): none for
 * ADD_NONE; "C|tgid|opened|N" for ADD_COUNTERS; for ADD_ASYNC, "F|tgid|frame|N-1"
 * (from the second B on) and "S|tgid|frame|N", so that async slices run
 * from one B of a process to its next.  Returns the value of the counter
 * of @want_tgid in force at @at_ns (the N of its last B at or before
 * then); appends the times of @want_tgid's Bs to @begins_ns. */
static gint64
write_with (const char *src,
            const char *dst,
            AddMarks    add,
            gint32      want_tgid,
            gint64      at_ns,
            GArray     *begins_ns)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  gint64 in_force = -1, in_force_ns = G_MININT64;

  g_assert_true (g_file_get_contents (src, &text, NULL, &error));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      const char *mark = strstr (lines[i], "tracing_mark_write: B|");
      gint32 pid, tgid;
      gint64 ts_ns;
      guint n;

      g_string_append (out, lines[i]);
      if (lines[i + 1] != NULL)
        g_string_append_c (out, '\n');
      if (add == ADD_NONE || !parse_begin (lines[i], &pid, &ts_ns, &tgid, &name))
        continue;
      n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, GINT_TO_POINTER (tgid))) + 1;
      g_hash_table_insert (seen, GINT_TO_POINTER (tgid), GUINT_TO_POINTER (n));
      if (add == ADD_ASYNC && n > 1)
        {
          g_string_append_len (out, lines[i], mark - lines[i]);
          g_string_append_printf (out, "tracing_mark_write: F|%d|frame|%u\n", tgid, n - 1);
        }
      g_string_append_len (out, lines[i], mark - lines[i]);
      if (add == ADD_ASYNC)
        g_string_append_printf (out, "tracing_mark_write: S|%d|frame|%u\n", tgid, n);
      else
        g_string_append_printf (out, "tracing_mark_write: C|%d|opened|%u\n", tgid, n);
      if (tgid == want_tgid && ts_ns <= at_ns && ts_ns >= in_force_ns)
        in_force = n, in_force_ns = ts_ns;
      if (tgid == want_tgid)
        g_array_append_val (begins_ns, ts_ns);
    }
  g_assert_true (g_file_set_contents (dst, out->str, out->len, &error));
  return in_force;
}

/* Where the task plot of @pid is in @timeline. */
static void
task_plot_area (CsTimeline *timeline,
                gint32      pid,
                double     *y_px,
                double     *height_px)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  const gint32 *pids;
  guint n_pids, i;

  pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);
  for (i = 0; i < n_pids && pids[i] != pid; i++)
    ;
  g_assert_cmpuint (i, <, n_pids);
  cs_timeline_renderer_get_task_plot_area (renderer, i, y_px, height_px);
}

/* How many pixel rows of [@y0, @y1) differ (beyond a small tolerance)
 * between the columns @x0 and @x1 of B G R A pixels (GDK's and cairo's
 * ARGB32 layout on this machine). */
static guint
count_changed_rows (const guchar *pixels,
                    gsize         stride,
                    int           x0,
                    int           x1,
                    int           y0,
                    int           y1)
{
  guint n = 0;

  for (int row = y0; row < y1; row++)
    {
      const guchar *p = pixels + (gsize) row * stride + (gsize) x0 * 4;
      const guchar *q = pixels + (gsize) row * stride + (gsize) x1 * 4;

      if (!cs_test_same_color (((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0],
                               ((guint32) q[2] << 16) | ((guint32) q[1] << 8) | q[0], 8))
        n++;
    }
  return n;
}

/* Moves the pointer down the task plot of @pid at @x until the hover text
 * holds @want, redrawing between tries while the pass's results arrive.
 * Returns the last hover text (owned by @timeline). */
static const char *
hover_task_plot (CsTimeline *timeline,
                 gint32      pid,
                 double      x,
                 double      from_bottom_px,
                 const char *want)
{
  const char *hover = NULL;

  for (guint tries = 0; ; tries++)
    {
      double y, height;

      task_plot_area (timeline, pid, &y, &height);
      for (double dy = MAX (0, height - from_bottom_px); dy < height; dy += 1)
        {
          cs_timeline_hover_at (timeline, x, y + dy);
          hover = cs_timeline_get_hover_text (timeline);
          if (hover != NULL && strstr (hover, want) != NULL)
            return hover;
        }
      if (tries >= 200)
        return hover;
      gtk_widget_queue_draw (GTK_WIDGET (timeline));
      cs_test_spin (100);
    }
}

/* A temporary copy of atrace-tgid.txt with markers added, and its first B. */
typedef struct {
  char *dir;
  char *path;
  gint32 pid;          /* the first B's task */
  gint32 tgid;         /* and its process */
  gint64 ts_ns;        /* its time */
  char *name;          /* its slice's name */
  gint64 value;        /* the counter "opened" of tgid in force at ts_ns */
  GArray *begins_ns;   /* the times of tgid's Bs */
  CsWindow *window;
  CsTimeline *timeline;
} Copy;

/* Makes the copy of tests/data/atrace-tgid.txt; TRUE. */
static gboolean
copy_make (Copy       *copy,
           AddMarks    add,
           const char *file_name)
{
  g_autofree char *src = cs_test_own_path ("atrace-tgid.txt");
  g_autoptr(GError) error = NULL;

  memset (copy, 0, sizeof *copy);
  copy->dir = g_dir_make_tmp ("cs-atrace-XXXXXX", &error);
  g_assert_no_error (error);
  copy->path = g_build_filename (copy->dir, file_name, NULL);
  copy->begins_ns = g_array_new (FALSE, FALSE, sizeof (gint64));
  first_begin (src, &copy->pid, &copy->ts_ns, &copy->tgid, &copy->name);
  copy->value = write_with (src, copy->path, add, copy->tgid, copy->ts_ns, copy->begins_ns);
  return TRUE;
}

/* Opens the copy in a window once its passes ran, with the task plot of
 * @pid, showing [@begin_ns, @end_ns). */
static void
copy_open (Copy   *copy,
           gint32  pid,
           gint64  begin_ns,
           gint64  end_ns)
{
  copy->window = cs_test_open_window (copy->path, 1200, 900);
  copy->timeline = cs_window_get_timeline (copy->window);
  cs_test_wait_until (cs_test_passes_done, copy->window, "the plugin passes");
  cs_test_activate (copy->window, "add-task-plot", g_variant_new_int32 (pid));
  g_assert_true (cs_analysis_has_task_plot (cs_window_get_analysis (copy->window), pid));
  cs_timeline_set_span (copy->timeline, begin_ns, end_ns);
  cs_test_wait_until (cs_test_widget_is_drawable, copy->timeline, "the timeline");
}

static void
copy_clear (Copy       *copy,
            const char *screenshot)
{
  if (copy->window != NULL && screenshot != NULL)
    cs_test_save_screenshot (GTK_WIDGET (copy->window), screenshot);
  if (copy->window != NULL)
    cs_test_destroy_window (copy->window);
  cs_test_remove_tree (copy->dir);
  g_free (copy->dir);
  g_free (copy->path);
  g_free (copy->name);
  g_array_unref (copy->begins_ns);
}

static void
test_slice_hover (void)
{
  g_autofree char *want = NULL;
  const char *hover;
  Copy copy;

  if (!copy_make (&copy, ADD_NONE, "atrace-tgid.txt"))
    return;
  want = g_strdup_printf ("Slice %s: ", copy.name);
  g_test_message ("pid %d, B at %" G_GINT64_FORMAT " ns: %s", copy.pid, copy.ts_ns, copy.name);
  copy_open (&copy, copy.pid, copy.ts_ns - 100000, copy.ts_ns + 400000);

  hover = hover_task_plot (copy.timeline, copy.pid, cs_test_timeline_x (copy.timeline, copy.ts_ns) + 1,
                           G_MAXDOUBLE, want);
  g_test_message ("hover: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, want));
  /* A duration follows the name: "… ms" or "… µs". */
  g_assert_nonnull (strstr (strstr (hover, want), "s"));
  copy_clear (&copy, "atrace-slice");
}

static gboolean
is_line (GtkWidget     *widget,
         gconstpointer  tooltip)
{
  const char *text = GTK_IS_LIST_BOX_ROW (widget) ? gtk_widget_get_tooltip_text (widget) : NULL;

  return g_strcmp0 (text, tooltip) == 0;
}

/* The Atrace page lists the counter; Enter on its line (the row's
 * activation, as the keyboard gives it) adds the counter's own row, whose
 * pointer text is @want at @x. */
static void
check_counter_page (CsWindow   *window,
                    gint32      tgid,
                    double      x,
                    const char *want)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  g_autofree char *key = g_strdup_printf ("%d:opened", tgid);
  g_autofree char *tooltip = g_strdup_printf ("Show counter opened of process %d", tgid);
  GtkWidget *row = NULL;
  CsPluginRowSpec spec;
  const char *label = NULL, *hover = NULL;
  double y, height;

  for (guint tries = 0; row == NULL && tries < 100; tries++)
    {
      row = cs_test_find_where (GTK_WIDGET (window), is_line, tooltip);
      if (row == NULL)
        cs_test_spin (100);
    }
  g_assert_nonnull (row);
  cs_test_show_tab (row);
  g_assert_true (gtk_widget_get_focusable (row));
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 0);
  gtk_widget_grab_focus (row);
  gtk_widget_activate (row);
  cs_test_spin (200);
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 1);
  cs_timeline_renderer_get_plugin_row (renderer, 0, &spec, &label);
  g_assert_cmpstr (spec.key, ==, key);
  g_assert_nonnull (strstr (label, "opened"));
  cs_test_save_screenshot (GTK_WIDGET (window), "atrace-counter-page");

  cs_timeline_renderer_get_plugin_row_area (renderer, 0, &y, &height);
  for (double dy = 0; dy < height; dy += 2)
    {
      cs_timeline_hover_at (timeline, x, y + dy);
      hover = cs_timeline_get_hover_text (timeline);
      if (hover != NULL && strstr (hover, want) != NULL)
        break;
    }
  g_test_message ("hover in the row: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, want));
}

/* What the window shows exports too: in a plain PNG-like export of the
 * timeline's span (cs_export_draw(), as File → Export and `render` draw),
 * the band at the bottom of @pid's plot and the counter's row (the first
 * plugin row) change across the first C at @ts_ns. */
static void
check_counter_export (CsTimeline *timeline,
                      gint32      pid,
                      gint64      ts_ns)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  CsViewport viewport;
  cairo_surface_t *surface;
  cairo_t *cr;
  double y, height, top, x;
  int width_px, height_px;
  guint n_band, n_row;

  cs_export_options_init (&options, cs_timeline_get_document (timeline));
  options.format = CS_EXPORT_PNG;
  options.begin_ns = cs_timeline_get_begin_ns (timeline);
  options.end_ns = cs_timeline_get_end_ns (timeline);
  options.width_px = 1000;
  options.plain = TRUE;
  cs_export_get_size (renderer, &options, &width_px, &height_px);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width_px, height_px);
  cr = cairo_create (surface);
  g_assert_true (cs_export_draw (renderer, cr, &options, width_px, height_px, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  viewport = (CsViewport) { options.begin_ns, options.end_ns, width_px, height_px };
  x = cs_timeline_renderer_ns_to_x (renderer, &viewport, ts_ns);
  top = cs_export_get_timeline_y (&options);
  task_plot_area (timeline, pid, &y, &height);
  n_band = count_changed_rows (cairo_image_surface_get_data (surface), cairo_image_surface_get_stride (surface),
                               (int) x - 20, (int) x + 20, (int) (top + y + height) - 8, (int) (top + y + height));
  cs_timeline_renderer_get_plugin_row_area (renderer, 0, &y, &height);
  g_assert_cmpint ((int) (top + y + height), <=, height_px);
  n_row = count_changed_rows (cairo_image_surface_get_data (surface), cairo_image_surface_get_stride (surface),
                              (int) x - 20, (int) x + 20, (int) (top + y), (int) (top + y + height));
  cairo_surface_destroy (surface);
  g_test_message ("export: %u rows of the band, %u of the counter's row differ across the first C",
                  n_band, n_row);
  g_assert_cmpuint (n_band, >=, 1);
  g_assert_cmpuint (n_row, >=, 1);
}

static void
test_counters (void)
{
  g_autofree char *want = NULL;
  const char *hover;
  double y, height, x;
  guint n_diff = 0;
  CsTestPixels pixels;
  Copy copy;

  if (!copy_make (&copy, ADD_COUNTERS, "atrace-counters.txt"))
    return;
  g_assert_cmpint (copy.value, >=, 1);
  want = g_strdup_printf ("Counter opened: %" G_GINT64_FORMAT, copy.value);
  g_test_message ("pid %d of tgid %d, B and C at %" G_GINT64_FORMAT " ns: want %s",
                  copy.pid, copy.tgid, copy.ts_ns, want);
  /* About 5 ns a pixel: the text's times are whole µs, so 2 px after the
   * marker no other marker has come. */
  copy_open (&copy, copy.pid, copy.ts_ns - 1000, copy.ts_ns + 4000);
  x = cs_test_timeline_x (copy.timeline, copy.ts_ns);

  /* The band is the bottom of the plot: look only there. */
  hover = hover_task_plot (copy.timeline, copy.pid, x + 2, 10, want);
  g_test_message ("hover: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, want));
  /* The whole value, not the start of a longer number. */
  g_assert_false (g_ascii_isdigit (strstr (hover, want)[strlen (want)]));

  /* And the band is drawn: the task ran on either side of the marker, so
   * the bottom of its plot differs across it only by the counter's line,
   * which starts at the marker's C. */
  task_plot_area (copy.timeline, copy.pid, &y, &height);
  cs_test_pixels_init (&pixels, GTK_WIDGET (copy.timeline));
  g_assert_cmpint ((int) (y + height), <=, pixels.height);
  n_diff = count_changed_rows (pixels.pixels, pixels.stride, (int) x - 20, (int) x + 20,
                               (int) (y + height) - 8, (int) (y + height));
  cs_test_pixels_clear (&pixels);
  g_test_message ("%u rows of the band differ across the first C marker", n_diff);
  g_assert_cmpuint (n_diff, >=, 1);

  check_counter_page (copy.window, copy.tgid, x + 2, want);
  check_counter_export (copy.timeline, copy.pid, copy.ts_ns);
  copy_clear (&copy, "atrace-counters");
}

/* Async slices: a copy with S/F markers from each B of a process to its
 * next.  The process's own plot (the first B's task is the app's main
 * thread, pid = tgid) has the async lane just above its bottom: the
 * pointer there, just after the first B, gives the first async slice's
 * name and its duration (to the process's second B, read from the text
 * here). */
static void
test_async (void)
{
  g_autofree char *dur = NULL;
  g_autofree char *want = NULL;
  const char *hover;
  Copy copy;

  if (!copy_make (&copy, ADD_ASYNC, "atrace-async.txt"))
    return;
  if (copy.pid != copy.tgid)
    {
      g_test_skip ("the first B is not written by its app's main thread");
      copy_clear (&copy, NULL);
      return;
    }
  g_assert_cmpuint (copy.begins_ns->len, >=, 2);
  g_assert_cmpint (g_array_index (copy.begins_ns, gint64, 0), ==, copy.ts_ns);
  dur = cs_plugin_format_duration (g_array_index (copy.begins_ns, gint64, 1) - copy.ts_ns);
  want = g_strdup_printf ("Async slice frame: %s", dur);
  g_test_message ("tgid %d, S at %" G_GINT64_FORMAT " ns: want %s", copy.tgid, copy.ts_ns, want);
  copy_open (&copy, copy.tgid, copy.ts_ns - 1000, copy.ts_ns + 4000);

  /* The lane is the plot's last 6 px, above the counters' band (8 px) when
   * the process has counters too, as cs-ui has. */
  hover = hover_task_plot (copy.timeline, copy.tgid, cs_test_timeline_x (copy.timeline, copy.ts_ns) + 2,
                           16, want);
  g_test_message ("hover: %s", hover);
  g_assert_nonnull (hover);
  g_assert_nonnull (strstr (hover, want));
  copy_clear (&copy, "atrace-async");
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
  g_test_add_func ("/cs/plugins/Atrace/counters", test_counters);
  g_test_add_func ("/cs/plugins/Atrace/async", test_async);
  return cs_test_gui_run ();
}
