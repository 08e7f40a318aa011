/* test-cli.c: `chronoscope info`, `render` and `index-worker` on real
 * recordings, with no display.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the built executable ($CHRONOSCOPE) in a child with DISPLAY and
 * WAYLAND_DISPLAY removed, so a command that initialised GTK would fail.
 * `info --json` is compared with tests/oracle/report-counts.py, which counts
 * what `trace-cmd report` prints.
 */
#include "config.h"

#include <cairo.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-run.h"

static void
run_argv (Run                *run,
          const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strjoinv (" ", (char **) argv);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  /* G_TEST_OPTION_ISOLATE_DIRS changes GLib's idea of the user directories,
   * not the environment children inherit: pass the test's own cache. */
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);

  g_test_message ("$ %s", command);
  subprocess = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (subprocess, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);

  run->status = g_subprocess_get_if_exited (subprocess) ? g_subprocess_get_exit_status (subprocess) : -1;
  if (run->err != NULL && *run->err != '\0')
    g_test_message ("stderr: %s", run->err);
}

static void
run_chronoscope (Run        *run,
                 const char *first_arg,
                 ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("CHRONOSCOPE"));
  g_assert_nonnull (argv->pdata[0]);

  va_start (args, first_arg);
  for (arg = first_arg; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  run_argv (run, (const char * const *) argv->pdata);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The recording the GUI issue names. */
static char *
main_recording (void)
{
  return cs_test_own_path ("sched-irq-v6.dat");
}

static char *
write_temp (const char *name,
            const char *contents,
            gssize      length)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  return g_steal_pointer (&path);
}

static void
assert_same_counts (JsonObject *expected,
                    JsonObject *actual,
                    const char *member)
{
  JsonObject *expected_map = json_object_get_object_member (expected, member);
  JsonObject *actual_map = json_object_get_object_member (actual, member);
  g_autoptr(GList) names = json_object_get_members (expected_map);

  g_assert_nonnull (actual_map);
  for (GList *l = names; l != NULL; l = l->next)
    {
      if (!json_object_has_member (actual_map, l->data))
        g_error ("%s: %s is missing", member, (char *) l->data);
      if (json_object_get_int_member (expected_map, l->data) !=
          json_object_get_int_member (actual_map, l->data))
        g_error ("%s: %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT, member,
                 (char *) l->data, json_object_get_int_member (expected_map, l->data),
                 json_object_get_int_member (actual_map, l->data));
    }
  g_assert_cmpuint (json_object_get_size (actual_map), ==, json_object_get_size (expected_map));
}

/* ------------------------------------------------------------------------ */

static void
test_info_json (gconstpointer data)
{
  g_autofree char *path = cs_test_path (data);
  g_auto(Run) oracle = { 0 };
  g_auto(Run) info = { 0 };
  g_autoptr(JsonObject) expected = NULL;
  g_autoptr(JsonObject) actual = NULL;
  const char *oracle_argv[] = { g_getenv ("PYTHON3"), g_getenv ("CS_ORACLE"),
                                "--trace-cmd", g_getenv ("TRACE_CMD"), path, NULL };

  /* A public recording may be absent (skipped); tests/data's may not. */
  if (path == NULL)
    return;

  run_argv (&oracle, oracle_argv);
  g_assert_cmpint (oracle.status, ==, 0);
  expected = parse_object (oracle.out);

  run_chronoscope (&info, "info", "--json", path, NULL);
  g_assert_cmpint (info.status, ==, 0);
  actual = parse_object (info.out);

  g_assert_cmpint (json_object_get_int_member (actual, "n_events"), ==,
                   json_object_get_int_member (expected, "n_events"));
  g_assert_cmpint (json_object_get_int_member (actual, "n_cpus"), ==,
                   json_object_get_int_member (expected, "n_cpus"));
  assert_same_counts (expected, actual, "cpus");
  assert_same_counts (expected, actual, "events");

  {
    /* The file is reported by its canonical path ("a/../b" as "b"). */
    g_autofree char *canonical = g_canonicalize_filename (path, NULL);
    g_assert_cmpstr (json_object_get_string_member (actual, "file"), ==, canonical);
  }
  g_assert_true (json_object_get_int_member (actual, "file_version") == 6 ||
                 json_object_get_int_member (actual, "file_version") == 7);
  g_assert_nonnull (json_object_get_string_member (actual, "compression"));
  g_assert_nonnull (json_object_get_string_member (actual, "clock"));
  g_assert_cmpint (json_object_get_int_member (actual, "first_ns"), <=,
                   json_object_get_int_member (actual, "last_ns"));
  g_assert_cmpint (json_object_get_int_member (actual, "duration_ns"), ==,
                   json_object_get_int_member (actual, "last_ns") -
                   json_object_get_int_member (actual, "first_ns"));
}

static void
test_info_text (void)
{
  g_autofree char *path = main_recording ();
  g_auto(Run) text = { 0 };
  g_auto(Run) json = { 0 };
  g_autoptr(JsonObject) object = NULL;
  g_autofree char *events_line = NULL;
  g_autofree char *cpus_line = NULL;

  run_chronoscope (&json, "info", "--json", path, NULL);
  g_assert_cmpint (json.status, ==, 0);
  object = parse_object (json.out);

  run_chronoscope (&text, "info", path, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, path));
  g_assert_nonnull (strstr (text.out, "File version:"));
  g_assert_nonnull (strstr (text.out, "Compression:"));
  g_assert_nonnull (strstr (text.out, "Trace clock:"));
  g_assert_nonnull (strstr (text.out, "Events per CPU:"));
  g_assert_nonnull (strstr (text.out, "Events per type:"));
  g_assert_nonnull (strstr (text.out, "sched:sched_switch"));

  events_line = g_strdup_printf ("Events:        %" G_GINT64_FORMAT "\n",
                                 json_object_get_int_member (object, "n_events"));
  g_assert_nonnull (strstr (text.out, events_line));
  cpus_line = g_strdup_printf ("CPUs:          %" G_GINT64_FORMAT "\n",
                               json_object_get_int_member (object, "n_cpus"));
  g_assert_nonnull (strstr (text.out, cpus_line));

  /* Nothing on stderr when it is not a terminal: no progress line. */
  g_assert_cmpstr (text.err, ==, "");
}

static void
assert_fails_naming (Run        *run,
                     const char *path,
                     const char *problem)
{
  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->err, path));
  if (problem != NULL && strstr (run->err, problem) == NULL)
    g_error ("stderr does not say “%s”: %s", problem, run->err);
  g_assert_cmpstr (run->out, ==, "");
}

static void
test_info_missing (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "no-such-recording.dat", NULL);
  g_auto(Run) run = { 0 };

  run_chronoscope (&run, "info", path, NULL);
  assert_fails_naming (&run, path, "No such file");
}

/* Trace text (issue 14): info names the format and the lines it did not
 * understand, in text and in JSON. */
static void
test_info_trace_text (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-cli-text-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace_pipe", NULL);
  g_auto(Run) run = { 0 };
  g_auto(Run) json = { 0 };

  g_assert_true (g_file_set_contents (path,
      "          <idle>-0     [003] d..2.   100.000100: sched_waking: comm=a pid=42 prio=120 target_cpu=003\n"
      "not a line of trace text\n"
      "          <idle>-0     [003] d..2.   100.000300: sched_switch: prev_comm=swapper/3 prev_pid=0 "
      "prev_prio=120 prev_state=R ==> next_comm=a next_pid=42 next_prio=120\n", -1, NULL));
  run_chronoscope (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "ftrace text (trace_pipe), 4 CPUs"));
  g_assert_nonnull (strstr (run.out, "1 line not understood, first at line 2"));
  run_chronoscope (&json, "info", "--json", path, NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_nonnull (strstr (json.out, "\"n_bad_lines\" : 1"));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_info_not_a_trace (void)
{
  g_autofree char *path = write_temp ("notes.dat", "These are notes, not a recording.\n", -1);
  g_auto(Run) run = { 0 };

  run_chronoscope (&run, "info", path, NULL);
  assert_fails_naming (&run, path, "not a trace-cmd recording");
}

static void
test_info_truncated (void)
{
  g_autofree char *source = main_recording ();
  g_autofree char *contents = NULL;
  g_autofree char *path = NULL;
  g_auto(Run) run = { 0 };
  gsize length;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  path = write_temp ("truncated.dat", contents, length / 2);

  run_chronoscope (&run, "info", path, NULL);
  assert_fails_naming (&run, path, NULL);
}

static void
test_info_directory (void)
{
  g_auto(Run) run = { 0 };

  run_chronoscope (&run, "info", g_get_tmp_dir (), NULL);
  assert_fails_naming (&run, g_get_tmp_dir (), "Not a regular file");
}

static void
test_bad_arguments (void)
{
  g_auto(Run) no_file = { 0 };
  g_auto(Run) two_files = { 0 };
  g_auto(Run) unknown = { 0 };

  run_chronoscope (&no_file, "info", NULL);
  g_assert_cmpint (no_file.status, ==, 1);
  g_assert_nonnull (strstr (no_file.err, "Missing FILE"));

  run_chronoscope (&two_files, "info", "a.dat", "b.dat", NULL);
  g_assert_cmpint (two_files.status, ==, 1);

  run_chronoscope (&unknown, "info", "--frobnicate", "a.dat", NULL);
  g_assert_cmpint (unknown.status, ==, 1);
  g_assert_nonnull (strstr (unknown.err, "frobnicate"));
}

typedef struct {
  int width;
  int height;
  guint n_colours;
  guint n_non_white;
} PngStats;

static void
png_stats (const char *path,
           PngStats   *stats)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  const guchar *data;
  int stride;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (surface);
  stats->width = cairo_image_surface_get_width (surface);
  stats->height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  stats->n_non_white = 0;

  for (int y = 0; y < stats->height; y++)
    for (int x = 0; x < stats->width; x++)
      {
        guint32 pixel = *(const guint32 *) (data + y * stride + x * 4);

        g_hash_table_add (colours, GUINT_TO_POINTER (pixel));
        stats->n_non_white += (pixel & 0xffffff) != 0xffffff;
      }

  stats->n_colours = g_hash_table_size (colours);
  cairo_surface_destroy (surface);
}

static void
test_render_png (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "out.png", NULL);
  g_autofree char *zoomed = g_build_filename (g_get_tmp_dir (), "zoomed.png", NULL);
  g_autofree char *begin = NULL;
  g_autofree char *end = NULL;
  g_autofree char *full_data = NULL;
  g_autofree char *zoomed_data = NULL;
  g_auto(Run) json = { 0 };
  g_auto(Run) run = { 0 };
  g_auto(Run) zoomed_run = { 0 };
  g_autoptr(JsonObject) object = NULL;
  gsize full_length, zoomed_length;
  PngStats stats;
  gint64 first_ns, last_ns;

  run_chronoscope (&run, "render", path, "-o", out, "--width", "800", "--height", "240", NULL);
  g_assert_cmpint (run.status, ==, 0);
  png_stats (out, &stats);
  g_assert_cmpint (stats.width, ==, 800);
  g_assert_cmpint (stats.height, ==, 240);
  /* Not blank: task colours, labels and an axis. */
  g_assert_cmpuint (stats.n_colours, >, 8);
  g_assert_cmpuint (stats.n_non_white, >, 800 * 240 / 20);

  /* The middle third of the recording draws differently. */
  run_chronoscope (&json, "info", "--json", path, NULL);
  object = parse_object (json.out);
  first_ns = json_object_get_int_member (object, "first_ns");
  last_ns = json_object_get_int_member (object, "last_ns");
  begin = g_strdup_printf ("%" G_GINT64_FORMAT, first_ns + (last_ns - first_ns) / 3);
  end = g_strdup_printf ("%" G_GINT64_FORMAT, first_ns + 2 * (last_ns - first_ns) / 3);
  run_chronoscope (&zoomed_run, "render", path, "-o", zoomed, "--width", "800", "--height", "240",
                   "--begin", begin, "--end", end, NULL);
  g_assert_cmpint (zoomed_run.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &full_data, &full_length, NULL));
  g_assert_true (g_file_get_contents (zoomed, &zoomed_data, &zoomed_length, NULL));
  g_assert_false (full_length == zoomed_length && memcmp (full_data, zoomed_data, full_length) == 0);
}

static void
test_render_default_size (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "default.png", NULL);
  g_auto(Run) run = { 0 };
  PngStats stats;

  run_chronoscope (&run, "render", path, "-o", out, NULL);
  g_assert_cmpint (run.status, ==, 0);
  png_stats (out, &stats);
  g_assert_cmpint (stats.width, ==, 1600);
  g_assert_cmpint (stats.height, >, 40);
}

/* The files of the index cache (the test's own XDG_CACHE_HOME) whose names
 * end with @suffix. */
static guint
count_cached (const char *suffix)
{
  g_autofree char *dir_path = g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (name, suffix);
  return n;
}

/* `render` right after the index is built draws the view and nothing more:
 * it computes no statistics the picture does not show (the wakeup summary
 * the whole recording's statistics keep beside the index stays absent),
 * with the legend or without; `stats` does compute it. */
static void
test_render_no_statistics (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "fresh.png", NULL);
  g_autofree char *pdf = g_build_filename (g_get_tmp_dir (), "fresh.pdf", NULL);
  g_auto(Run) png_run = { 0 };
  g_auto(Run) pdf_run = { 0 };
  g_auto(Run) stats_run = { 0 };

  g_assert_cmpuint (count_cached (".csindex"), ==, 0);
  run_chronoscope (&png_run, "render", path, "-o", out, "--width", "1920", "--height", "1080", NULL);
  g_assert_cmpint (png_run.status, ==, 0);
  run_chronoscope (&pdf_run, "render", path, "-o", pdf, NULL);
  g_assert_cmpint (pdf_run.status, ==, 0);
  g_assert_cmpuint (count_cached (".csindex"), ==, 1);
  g_assert_cmpuint (count_cached (".wakeups"), ==, 0);

  run_chronoscope (&stats_run, "stats", path, "--json", NULL);
  g_assert_cmpint (stats_run.status, ==, 0);
  g_assert_cmpuint (count_cached (".wakeups"), ==, 1);
}

/* KernelShark's plot options: --cpu chooses the CPU plots, --pid and --task
 * add task plots below them; each plot is 40 px high, 4 px apart, under a
 * 28 px axis. */
static void
test_render_plots (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "plots.png", NULL);
  g_auto(Run) one_cpu = { 0 };
  g_auto(Run) with_tasks = { 0 };
  g_auto(Run) bad_cpu = { 0 };
  g_auto(Run) bad_pid = { 0 };
  PngStats stats;

  run_chronoscope (&one_cpu, "render", path, "-o", out, "--width", "600", "--cpu", "1",
                   "--plain", NULL);
  g_assert_cmpint (one_cpu.status, ==, 0);
  png_stats (out, &stats);
  g_assert_cmpint (stats.height, ==, 28 + 4 + 40 + 4);

  run_chronoscope (&with_tasks, "render", path, "-o", out, "--width", "600", "--cpu", "0-1",
                   "--pid", "1,2,1", "--plain", NULL);
  g_assert_cmpint (with_tasks.status, ==, 0);
  png_stats (out, &stats);
  g_assert_cmpint (stats.height, ==, 28 + 4 * (4 + 40) + 4);

  run_chronoscope (&bad_cpu, "render", path, "-o", out, "--cpu", "1,x-3", NULL);
  g_assert_cmpint (bad_cpu.status, ==, 1);
  g_assert_nonnull (strstr (bad_cpu.err, "x-3"));

  run_chronoscope (&bad_pid, "render", path, "-o", out, "--pid", "12,abc", NULL);
  g_assert_cmpint (bad_pid.status, ==, 1);
  g_assert_nonnull (strstr (bad_pid.err, "abc"));
}

static void
test_render_errors (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "bad.png", NULL);
  g_autofree char *unwritable = g_build_filename (g_get_tmp_dir (), "no-such-dir", "out.png", NULL);
  g_auto(Run) no_output = { 0 };
  g_auto(Run) bad_range = { 0 };
  g_auto(Run) bad_width = { 0 };
  g_auto(Run) bad_dir = { 0 };

  run_chronoscope (&no_output, "render", path, NULL);
  g_assert_cmpint (no_output.status, ==, 1);
  g_assert_nonnull (strstr (no_output.err, "-o"));

  run_chronoscope (&bad_range, "render", path, "-o", out, "--begin", "2000", "--end", "1000", NULL);
  g_assert_cmpint (bad_range.status, ==, 1);
  g_assert_nonnull (strstr (bad_range.err, "--end"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));

  run_chronoscope (&bad_width, "render", path, "-o", out, "--width", "0", NULL);
  g_assert_cmpint (bad_width.status, ==, 1);

  run_chronoscope (&bad_dir, "render", path, "-o", unwritable, NULL);
  assert_fails_naming (&bad_dir, unwritable, "No such file");
}

/* The file's kind follows -o's extension: an SVG of the px size, a PDF of
 * the chosen page (read back by poppler's pdfinfo and pdftotext); a wrong
 * extension or --page for a PNG is refused before anything is written. */
static void
test_render_formats (void)
{
  g_autofree char *path = main_recording ();
  g_autofree char *svg = g_build_filename (g_get_tmp_dir (), "view.svg", NULL);
  g_autofree char *pdf = g_build_filename (g_get_tmp_dir (), "view.pdf", NULL);
  g_autofree char *jpeg = g_build_filename (g_get_tmp_dir (), "view.jpeg", NULL);
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "view.png", NULL);
  g_autofree char *svg_text = NULL;
  g_autofree char *info = NULL;
  g_autofree char *text = NULL;
  g_auto(Run) svg_run = { 0 };
  g_auto(Run) pdf_run = { 0 };
  g_auto(Run) bad_ext = { 0 };
  g_auto(Run) bad_page = { 0 };
  g_auto(Run) page_png = { 0 };
  g_autoptr(GError) error = NULL;
  const char *info_argv[] = { "pdfinfo", pdf, NULL };
  const char *text_argv[] = { "pdftotext", pdf, "-", NULL };
  int status;

  run_chronoscope (&svg_run, "render", path, "-o", svg, "--width", "700", NULL);
  g_assert_cmpint (svg_run.status, ==, 0);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_true (g_str_has_prefix (svg_text, "<?xml"));
  g_assert_nonnull (strstr (svg_text, "width=\"700px\""));

  run_chronoscope (&pdf_run, "render", path, "-o", pdf, "--page", "16:9", "--task", "cs-spin",
                   "--marker-a", "0", NULL);
  g_assert_cmpint (pdf_run.status, ==, 0);
  g_spawn_sync (NULL, (char **) info_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &info, NULL, &status, &error);
  g_assert_no_error (error);
  /* 254 × 142.875 mm = 720 × 405 pt */
  g_assert_nonnull (strstr (info, "Page size:       720 x 405 pts"));
  g_assert_nonnull (strstr (info, "Pages:           1\n"));
  g_spawn_sync (NULL, (char **) text_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &text, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "sched-irq-v6.dat"));

  run_chronoscope (&bad_ext, "render", path, "-o", jpeg, NULL);
  g_assert_cmpint (bad_ext.status, ==, 1);
  g_assert_nonnull (strstr (bad_ext.err, ".pdf"));
  g_assert_false (g_file_test (jpeg, G_FILE_TEST_EXISTS));

  run_chronoscope (&bad_page, "render", path, "-o", pdf, "--page", "letter", NULL);
  g_assert_cmpint (bad_page.status, ==, 1);
  g_assert_nonnull (strstr (bad_page.err, "letter"));

  run_chronoscope (&page_png, "render", path, "-o", png, "--page", "a4", NULL);
  g_assert_cmpint (page_png.status, ==, 1);
  g_assert_nonnull (strstr (page_png.err, "--page"));
}

static void
test_index_worker (void)
{
  g_autofree char *path = main_recording ();
  g_auto(Run) first = { 0 };
  g_auto(Run) second = { 0 };
  g_auto(GStrv) lines = NULL;
  const char *last;
  guint n;

  run_chronoscope (&first, "index-worker", path, NULL);
  g_assert_cmpint (first.status, ==, 0);
  lines = g_strsplit (first.out, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpstr (lines[n - 1], ==, "");   /* ends with a newline */
  /* First where it writes, then progress and positions. */
  g_assert_true (g_str_has_prefix (lines[0], "temporary "));
  g_assert_true (g_str_has_prefix (lines[0] + strlen ("temporary "), g_get_user_cache_dir ()));
  for (guint i = 1; i + 2 < n; i++)
    {
      char *end = NULL;
      double fraction;
      guint cpu;
      guint64 offset;

      if (g_str_has_prefix (lines[i], "position "))
        {
          g_assert_cmpint (sscanf (lines[i], "position %u %" G_GUINT64_FORMAT, &cpu, &offset), ==, 2);
          continue;
        }
      g_assert_true (g_str_has_prefix (lines[i], "progress "));
      fraction = g_ascii_strtod (lines[i] + strlen ("progress "), &end);
      g_assert_cmpstr (end, ==, "");
      g_assert_cmpfloat (fraction, >=, 0.0);
      g_assert_cmpfloat (fraction, <=, 1.0);
    }
  last = lines[n - 2];
  g_assert_true (g_str_has_prefix (last, "done "));
  g_assert_true (g_str_has_prefix (last + strlen ("done "), g_get_user_cache_dir ()));
  g_assert_true (g_file_test (last + strlen ("done "), G_FILE_TEST_IS_REGULAR));

  /* A second run reuses the index: the same path. */
  run_chronoscope (&second, "index-worker", path, NULL);
  g_assert_cmpint (second.status, ==, 0);
  g_assert_nonnull (strstr (second.out, last));
}

static void
test_index_worker_error (void)
{
  g_autofree char *path = write_temp ("notes.dat", "These are notes, not a recording.\n", -1);
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
  g_auto(Run) run = { 0 };
  g_autoptr(GDir) dir = NULL;
  const char *error_line;

  run_chronoscope (&run, "index-worker", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  /* Where it would have written, then the error, the last line. */
  g_assert_true (g_str_has_prefix (run.out, "temporary "));
  error_line = strstr (run.out, "\nerror ");
  g_assert_nonnull (error_line);
  error_line++;
  g_assert_nonnull (strstr (error_line, "notes.dat"));
  g_assert_nonnull (strchr (error_line, '\n'));
  g_assert_cmpuint (strchr (error_line, '\n') - error_line + 1, ==, strlen (error_line));

  /* No index, no temporary file. */
  dir = g_dir_open (cache, 0, NULL);
  g_assert_true (dir == NULL || g_dir_read_name (dir) == NULL);
}

int
main (int   argc,
      char *argv[])
{
  static const char * const recordings[] = {
    "sched-irq-v6.dat", "sched-irq-v7.dat", "funcgraph-v7.dat", "sched-i686-v6.dat",
    "public/buildroot-fifo-i686-v6.dat", "public/sched-x86-v7-zstd.dat",
  };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* Each command is checked on its own: one failure must not hide the
   * results of the others. */
  g_test_set_nonfatal_assertions ();

  for (guint i = 0; i < G_N_ELEMENTS (recordings); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cs/cli/info/json-matches-report/%s", recordings[i]);
      g_test_add_data_func (name, recordings[i], test_info_json);
    }
  g_test_add_func ("/cs/cli/info/text", test_info_text);
  g_test_add_func ("/cs/cli/info/missing-file", test_info_missing);
  g_test_add_func ("/cs/cli/info/not-a-trace", test_info_not_a_trace);
  g_test_add_func ("/cs/cli/info/trace-text", test_info_trace_text);
  g_test_add_func ("/cs/cli/info/truncated", test_info_truncated);
  g_test_add_func ("/cs/cli/info/directory", test_info_directory);
  g_test_add_func ("/cs/cli/arguments", test_bad_arguments);
  g_test_add_func ("/cs/cli/render/png", test_render_png);
  g_test_add_func ("/cs/cli/render/default-size", test_render_default_size);
  g_test_add_func ("/cs/cli/render/no-statistics", test_render_no_statistics);
  g_test_add_func ("/cs/cli/render/errors", test_render_errors);
  g_test_add_func ("/cs/cli/render/plots", test_render_plots);
  g_test_add_func ("/cs/cli/render/formats", test_render_formats);
  g_test_add_func ("/cs/cli/index-worker/done", test_index_worker);
  g_test_add_func ("/cs/cli/index-worker/error", test_index_worker_error);

  return g_test_run ();
}
