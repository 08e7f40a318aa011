/* test-cli-progress.c: the command line's progress line on stderr.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the built executable ($CHRONOSCOPE) with its stderr on a
 * pseudo-terminal (and its stdout on a pipe): the progress line must be
 * drawn there and erased at the end; with stderr on a pipe, or with
 * --quiet/-q, there must be none; stdout must be the same clean output in
 * every case.  Each test has its own cache (G_TEST_OPTION_ISOLATE_DIRS),
 * so the first command really indexes.
 */
#define _GNU_SOURCE /* posix_openpt(), ptsname() */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* Run.err: what reached stderr, the terminal's or the pipe's. */
#include "cli-run.h"
#include "tracefs-test-util.h"

/* Reads the terminal's side until every writer has gone (EIO). */
static gpointer
read_master_thread (gpointer data)
{
  int master = GPOINTER_TO_INT (data);
  GString *text = g_string_new (NULL);
  char buffer[4096];

  for (;;)
    {
      ssize_t n = read (master, buffer, sizeof buffer);

      if (n > 0)
        g_string_append_len (text, buffer, n);
      else if (n < 0 && errno == EINTR)
        continue;
      else
        break;
    }
  return g_string_free (text, FALSE);
}

/* Runs chronoscope with @args (NULL-terminated), stderr on a terminal when
 * @tty, on a pipe otherwise. */
static void
run_chronoscope (Run                *run,
                 gboolean            tty,
                 const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;
  GThread *reader = NULL;
  int master = -1;

  g_ptr_array_add (argv, (char *) g_getenv ("CHRONOSCOPE"));
  g_assert_nonnull (argv->pdata[0]);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  command = g_strjoinv (" ", (char **) argv->pdata);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        (tty ? 0 : G_SUBPROCESS_FLAGS_STDERR_PIPE));
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  /* No dconf complaints about the isolated directories on stderr. */
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  if (tty)
    {
      int slave;

      master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
      g_assert_cmpint (master, >=, 0);
      g_assert_cmpint (grantpt (master), ==, 0);
      g_assert_cmpint (unlockpt (master), ==, 0);
      slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
      g_assert_cmpint (slave, >=, 0);
      g_subprocess_launcher_take_stderr_fd (launcher, slave);
    }

  g_test_message ("$ %s%s", command, tty ? "   (stderr on a terminal)" : "");
  subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  /* Closes our copy of the terminal's side, so the reader sees the end. */
  g_clear_object (&launcher);
  if (tty)
    reader = g_thread_new ("pty-reader", read_master_thread, GINT_TO_POINTER (master));

  g_subprocess_communicate_utf8 (subprocess, NULL, NULL, &run->out, tty ? NULL : &run->err, &error);
  g_assert_no_error (error);
  if (tty)
    {
      run->err = g_thread_join (reader);
      close (master);
    }

  run->status = g_subprocess_get_if_exited (subprocess) ? g_subprocess_get_exit_status (subprocess) : -1;
  if (run->err != NULL && *run->err != '\0')
    {
      g_autofree char *shown = g_strescape (run->err, NULL);
      g_test_message ("stderr: %s", shown);
    }
}

/* stdout holds no trace of a terminal line. */
static void
assert_clean_stdout (const Run *run)
{
  g_assert_nonnull (run->out);
  g_assert_null (strchr (run->out, '\r'));
  g_assert_null (strchr (run->out, '\033'));
}

/* @err holds a progress line starting with @label that was drawn, redrawn
 * in place and erased (with the byte counts when @with_bytes): after the last \r comes only the erase sequence
 * and @after (what the command printed on stderr afterwards). */
static void
assert_progress_drawn (const char *err,
                       const char *label,
                       gboolean    with_bytes,
                       const char *after)
{
  g_autofree char *prefix = g_strdup_printf ("\r%s: ", label);
  const char *line = strstr (err, prefix);
  const char *last_cr = strrchr (err, '\r');
  g_autofree char *tail = NULL;

  g_assert_nonnull (line);
  if (line == NULL)
    return;
  /* "LABEL: N %", the first draw being 0 %. */
  g_assert_nonnull (strstr (line, " %"));
  g_assert_true (g_str_has_prefix (line + strlen (prefix), "0 %"));
  /* Reading the recording: "(DONE of TOTAL)". */
  if (with_bytes)
    g_assert_nonnull (strstr (line, " of "));
  /* Ends erased. */
  if (after == NULL || *after == '\0')
    {
      g_assert_true (g_str_has_suffix (err, "\r\033[K"));
    }
  else
    {
      /* The terminal turns the message's \n into \r\n. */
      g_assert_nonnull (strstr (err, "\r\033[K"));
      tail = g_strdup (g_strrstr (err, "\r\033[K") + strlen ("\r\033[K"));
      g_assert_true (g_str_has_prefix (tail, after));
    }
  g_assert_nonnull (last_cr);
}

static void
test_info_tty (void)
{
  g_autofree char *path = cs_test_own_path ("funcgraph-v7.dat");
  const char *args[] = { "info", path, NULL };
  g_auto(Run) tty = { 0 };
  g_auto(Run) pipe = { 0 };

  run_chronoscope (&tty, TRUE, args);
  g_assert_cmpint (tty.status, ==, 0);
  assert_clean_stdout (&tty);
  assert_progress_drawn (tty.err, "Indexing funcgraph-v7.dat", TRUE, NULL);
  g_assert_cmpstr (tty.out, !=, "");

  /* The same stdout as without a terminal (the index is reused now). */
  run_chronoscope (&pipe, FALSE, args);
  g_assert_cmpint (pipe.status, ==, 0);
  g_assert_cmpstr (pipe.out, ==, tty.out);
}

static void
test_json_tty (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  const char *args[] = { "info", "--json", path, NULL };
  g_auto(Run) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  run_chronoscope (&run, TRUE, args);
  g_assert_cmpint (run.status, ==, 0);
  assert_clean_stdout (&run);
  assert_progress_drawn (run.err, "Indexing sched-irq-v7.dat", TRUE, NULL);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
}

static void
test_no_tty (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  const char *args[] = { "info", path, NULL };
  g_auto(Run) run = { 0 };

  run_chronoscope (&run, FALSE, args);
  g_assert_cmpint (run.status, ==, 0);
  assert_clean_stdout (&run);
  g_assert_cmpstr (run.err, ==, "");
}

static void
test_quiet (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *path_b = cs_test_own_path ("sched-irq-v7.dat");
  /* Before the command and among its own options. */
  const char *before[] = { "-q", "info", path, NULL };
  const char *among[] = { "stats", "--quiet", "--json", path_b, NULL };
  g_auto(Run) first = { 0 };
  g_auto(Run) second = { 0 };

  run_chronoscope (&first, TRUE, before);
  g_assert_cmpint (first.status, ==, 0);
  assert_clean_stdout (&first);
  g_assert_cmpstr (first.err, ==, "");
  g_assert_cmpstr (first.out, !=, "");

  run_chronoscope (&second, TRUE, among);
  g_assert_cmpint (second.status, ==, 0);
  assert_clean_stdout (&second);
  g_assert_cmpstr (second.err, ==, "");
  g_assert_cmpstr (second.out, !=, "");
}

/* A failure's message starts on a clean line, after the erased progress. */
static void
test_failure_tty (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-progress-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "not-a-trace.dat", NULL);
  const char *args[] = { "info", path, NULL };
  g_auto(Run) run = { 0 };

  g_assert_true (g_file_set_contents (path, "this is no trace.dat, but long enough to be read\n",
                                      -1, NULL));
  run_chronoscope (&run, TRUE, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  assert_progress_drawn (run.err, "Indexing not-a-trace.dat", TRUE, "chronoscope info: ");
  g_unlink (path);
  g_rmdir (dir);
}

/* Plugin commands: the index and the plugin's pass, each with its line. */
static void
test_plugin_pass_tty (void)
{
  g_autofree char *path = cs_test_own_path ("funcgraph-v7.dat");
  const char *args[] = { "funcgraph", path, NULL };
  const char *quiet_args[] = { "funcgraph", "-q", path, NULL };
  g_auto(Run) run = { 0 };
  g_auto(Run) quiet = { 0 };

  run_chronoscope (&run, TRUE, args);
  g_assert_cmpint (run.status, ==, 0);
  assert_clean_stdout (&run);
  g_assert_nonnull (strstr (run.err, "\rIndexing funcgraph-v7.dat: "));
  assert_progress_drawn (run.err, "Running funcgraph calls on funcgraph-v7.dat", FALSE, NULL);

  run_chronoscope (&quiet, TRUE, quiet_args);
  g_assert_cmpint (quiet.status, ==, 0);
  g_assert_cmpstr (quiet.err, ==, "");
  g_assert_cmpstr (quiet.out, ==, run.out);
}

/* stats, query and render say what they do after indexing ("LABEL…"),
 * erase it before they print, and keep stdout as without a terminal. */
static void
test_activities_tty (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *dir = g_dir_make_tmp ("cs-progress-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "view.png", NULL);
  const char *stats_args[] = { "stats", path, NULL };
  const char *query_args[] = { "query", path, "SELECT COUNT(*) FROM events", NULL };
  const char *render_args[] = { "render", path, "-o", png, NULL };
  const char * const *commands[] = { stats_args, query_args, render_args };
  const char *labels[] = { "\rComputing the statistics of sched-irq-v7.dat…\033[K",
                           "\rQuerying sched-irq-v7.dat…\033[K",
                           "\rDrawing view.png…\033[K" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(Run) tty = { 0 };
      g_auto(Run) pipe = { 0 };

      run_chronoscope (&tty, TRUE, commands[i]);
      g_assert_cmpint (tty.status, ==, 0);
      assert_clean_stdout (&tty);
      g_assert_nonnull (strstr (tty.err, labels[i]));
      g_assert_true (g_str_has_suffix (tty.err, "\r\033[K"));

      run_chronoscope (&pipe, FALSE, commands[i]);
      g_assert_cmpint (pipe.status, ==, 0);
      g_assert_cmpstr (pipe.err, ==, "");
      g_assert_cmpstr (pipe.out, ==, tty.out);
    }
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_unlink (png);
  g_rmdir (dir);
}

/* Removes @dir and the files in it. */
static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* `record` on a terminal: one line redrawn in place with the elapsed time,
 * the events, the bytes written and the overruns, erased before "Wrote";
 * on a pipe the per-second log lines and no terminal codes; with -q only
 * what it says before and after. */
static void
test_record_tty (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *output = NULL;
  g_auto(Run) tty = { 0 };
  g_auto(Run) pipe = { 0 };
  g_auto(Run) quiet = { 0 };
  const char *tail;

  if (!cs_test_require_tracefs ())
    return;
  dir = g_dir_make_tmp ("cs-progress-XXXXXX", NULL);
  output = g_build_filename (dir, "rec.dat", NULL);

  {
    const char *args[] = { "record", "-e", "sched", "--duration", "2.5", "-o", output, NULL };

    run_chronoscope (&tty, TRUE, args);
    g_assert_cmpint (tty.status, ==, 0);
    assert_clean_stdout (&tty);
    g_assert_cmpstr (tty.out, ==, "");
    /* Drawn at once, then with the totals at least once. */
    g_assert_nonnull (strstr (tty.err, "\rRecording…\033[K"));
    g_assert_nonnull (strstr (tty.err, "\rRecording: "));
    g_assert_nonnull (strstr (tty.err, " events ("));
    g_assert_nonnull (strstr (tty.err, " written, "));
    g_assert_nonnull (strstr (tty.err, " overruns\033[K"));
    /* Erased before the summary, and redrawn in place until then: no
     * per-second log lines. */
    tail = g_strrstr (tty.err, "\r\033[K");
    g_assert_nonnull (tail);
    if (tail != NULL && strstr (tty.err, "\rRecording…") != NULL)
      {
        const char *line = strstr (tty.err, "\rRecording…");
        g_autofree char *drawn = g_strndup (line, tail - line);

        g_assert_nonnull (strstr (tail, "Wrote "));
        g_assert_null (strchr (drawn, '\n'));
      }
  }
  {
    const char *args[] = { "record", "-e", "sched", "--duration", "1.5", "-o", output, NULL };

    run_chronoscope (&pipe, FALSE, args);
    g_assert_cmpint (pipe.status, ==, 0);
    g_assert_null (strchr (pipe.err, '\r'));
    g_assert_null (strchr (pipe.err, '\033'));
    g_assert_nonnull (strstr (pipe.err, "Wrote "));
  }
  {
    const char *args[] = { "-q", "record", "-e", "sched", "--duration", "1.5", "-o", output, NULL };

    run_chronoscope (&quiet, TRUE, args);
    g_assert_cmpint (quiet.status, ==, 0);
    g_assert_null (strstr (quiet.err, "\rRecording"));
    g_assert_null (strchr (quiet.err, '\033'));
    g_assert_nonnull (strstr (quiet.err, "Wrote "));
  }
  remove_dir (dir);
}

/* `demo --from`: indexing, then finding the markers, each on the line and
 * erased; the same stdout and a silent stderr on a pipe. */
static void
test_demo_from_tty (void)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  const char *args[] = { "demo", "irqs-off", "--from", path, "--no-open", NULL };
  g_auto(Run) tty = { 0 };
  g_auto(Run) pipe = { 0 };

  run_chronoscope (&tty, TRUE, args);
  g_assert_cmpint (tty.status, ==, 0);
  assert_clean_stdout (&tty);
  assert_progress_drawn (tty.err, "Indexing kmod-sections-v7.dat", TRUE, NULL);
  g_assert_nonnull (strstr (tty.err, "\rFinding markers A and B in kmod-sections-v7.dat…\033[K"));
  g_assert_nonnull (strstr (tty.out, "Marker A: "));

  run_chronoscope (&pipe, FALSE, args);
  g_assert_cmpint (pipe.status, ==, 0);
  g_assert_cmpstr (pipe.err, ==, "");
  g_assert_cmpstr (pipe.out, ==, tty.out);
}

/* `demo` where it cannot run (no chronoscope_tracer for this kernel): the
 * line names the step, and the failure starts on a clean line. */
static void
test_demo_failure_tty (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-progress-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "demo.dat", NULL);
  const char *args[] = { "demo", "irqs-off", "--no-open", "-o", output, NULL };
  g_auto(Run) tty = { 0 };
  g_auto(Run) pipe = { 0 };

  if (g_file_test ("/sys/module/chronoscope_tracer", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("chronoscope_tracer is loaded here: the demo would run");
      g_rmdir (dir);
      return;
    }
  run_chronoscope (&tty, TRUE, args);
  if (tty.status == 0)
    {
      /* The module is installed here (DKMS): the demo ran. */
      g_test_skip ("chronoscope_tracer is installed here: the demo ran");
      remove_dir (dir);
      return;
    }
  g_assert_cmpint (tty.status, ==, 1);
  g_assert_cmpstr (tty.out, ==, "");
  g_assert_nonnull (strstr (tty.err, "\rRunning the irqs-off demo: checking the module\033[K"));
  g_assert_nonnull (strstr (tty.err, "\r\033[Kchronoscope demo: "));

  run_chronoscope (&pipe, FALSE, args);
  g_assert_cmpint (pipe.status, ==, 1);
  g_assert_null (strchr (pipe.err, '\r'));
  g_assert_true (g_str_has_prefix (pipe.err, "chronoscope demo: "));
  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_set_nonfatal_assertions ();

  g_test_add_func ("/cs/cli/Progress/terminal-shows-and-erases", test_info_tty);
  g_test_add_func ("/cs/cli/Progress/terminal-json-stays-clean", test_json_tty);
  g_test_add_func ("/cs/cli/Progress/pipe-shows-none", test_no_tty);
  g_test_add_func ("/cs/cli/Progress/quiet-shows-none", test_quiet);
  g_test_add_func ("/cs/cli/Progress/failure-on-clean-line", test_failure_tty);
  g_test_add_func ("/cs/cli/Progress/plugin-pass", test_plugin_pass_tty);
  g_test_add_func ("/cs/cli/Progress/activities", test_activities_tty);
  g_test_add_func ("/cs/cli/Progress/record", test_record_tty);
  g_test_add_func ("/cs/cli/Progress/demo-from", test_demo_from_tty);
  g_test_add_func ("/cs/cli/Progress/demo-failure", test_demo_failure_tty);
  return g_test_run ();
}
