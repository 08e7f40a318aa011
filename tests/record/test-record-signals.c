/* test-record-signals.c: `chronoscope record` and its helper stopped
 * every way a recording can end, and tracefs left as found.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * - SIGTERM and SIGINT to `chronoscope record` mid-recording: exit 0, a
 *   trace.dat that trace-cmd report and our index read alike, no instance.
 * - SIGKILL of the process that started chronoscope-record-helper (as the
 *   window would die): the helper notices (PR_SET_PDEATHSIG), writes the
 *   file and removes its instance.
 * - a "stop" line on the helper's stdin, after live statistics.
 * - not root (setpriv to nobody): a message that says recording needs root.
 * - disk full (a 2 MiB tmpfs): a message that says so, nothing left behind.
 *
 * $CHRONOSCOPE is the executable, $CHRONOSCOPE_RECORD_HELPER the helper.
 * Needs root; skipped with the reason without it, without tracefs, without
 * setpriv or when tmpfs cannot be mounted.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "record-test-util.h"

typedef struct {
  char *dir;
  char *output;
  gboolean usable;
  TracefsSnapshot snapshot;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cs-signals-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (f->dir, 0755), ==, 0);
  f->output = g_build_filename (f->dir, "rec.dat", NULL);
  f->usable = rt_require_tracefs ();
  if (f->usable)
    rt_snapshot_take (&f->snapshot);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  if (f->usable)
    {
      rt_assert_no_orphan_instances ();
      rt_snapshot_assert_same (&f->snapshot);
    }
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->output);
  g_free (f->dir);
}

/* The program that @variable names: CHRONOSCOPE or
 * CHRONOSCOPE_RECORD_HELPER. */
static const char *
program (const char *variable)
{
  const char *path = g_getenv (variable);

  g_assert_nonnull (path);
  return path;
}

static gboolean
instance_exists (int pid)
{
  g_autofree char *name = g_strdup_printf ("chronoscope-%d", pid);
  g_autofree char *path = g_build_filename (rt_tracing_dir (), "instances", name, NULL);

  return g_file_test (path, G_FILE_TEST_IS_DIR);
}

static void
wait_for_instance (int pid)
{
  for (int i = 0; i < 200 && !instance_exists (pid); i++)
    g_usleep (25 * 1000);
  g_assert_true (instance_exists (pid));
}

/* The file is a good recording: report and our index read the same. */
static void
assert_good_recording (const char *path)
{
  g_autoptr(JsonObject) oracle = rt_run_oracle (path);
  g_autoptr(CsDocument) doc = rt_load_document (path);

  rt_assert_oracle_has_events (oracle);
  rt_assert_document_matches (doc, oracle);
}

static void
stop_cli_with (Fixture *f, int signo)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int pid;

  if (!f->usable)
    return;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              program ("CHRONOSCOPE"), "record", "-e", "sched", "-e", "timer",
                              "-o", f->output, NULL);
  g_assert_no_error (error);
  pid = atoi (g_subprocess_get_identifier (process));
  wait_for_instance (pid);
  g_usleep (500 * 1000);
  g_subprocess_send_signal (process, signo);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_nonnull (strstr (err, "Wrote "));

  rt_assert_instance_gone (pid);
  rt_assert_no_leftovers (f->dir, "rec.dat");
  assert_good_recording (f->output);
}

static void
test_cli_sigterm (Fixture *f, gconstpointer data)
{
  stop_cli_with (f, SIGTERM);
}

static void
test_cli_sigint (Fixture *f, gconstpointer data)
{
  stop_cli_with (f, SIGINT);
}

/* Reads JSON lines until one of @type; returns it (NULL at the end). */
static JsonObject *
read_until (GDataInputStream *in, const char *type)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error);
      JsonObject *object;

      g_assert_no_error (error);
      if (line == NULL)
        return NULL;
      g_assert_true (json_parser_load_from_data (parser, line, -1, &error));
      g_assert_no_error (error);
      object = json_node_get_object (json_parser_get_root (parser));
      g_test_message ("helper: %s", line);
      if (g_strcmp0 (json_object_get_string_member (object, "type"), "error") == 0)
        g_error ("The helper failed: %s", line);
      if (g_strcmp0 (json_object_get_string_member (object, "type"), type) == 0)
        return json_object_ref (object);
    }
}

static int
helper_pid (JsonObject *started)
{
  const char *instance = json_object_get_string_member (started, "instance");

  g_assert_true (g_str_has_prefix (instance, "chronoscope-"));
  return atoi (instance + strlen ("chronoscope-"));
}

static void
test_helper_parent_killed (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) parent = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autoptr(JsonObject) started = NULL;
  g_autoptr(JsonObject) done = NULL;
  g_autoptr(GError) error = NULL;
  int pid;

  if (!f->usable)
    return;

  /* A shell stands for the window: "; true" keeps it from exec'ing. */
  parent = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             "/bin/sh", "-c", "\"$0\" -e sched -o \"$1\"; true",
                             program ("CHRONOSCOPE_RECORD_HELPER"), f->output, NULL);
  g_assert_no_error (error);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (parent));
  started = read_until (in, "started");
  g_assert_nonnull (started);
  pid = helper_pid (started);
  g_assert_true (instance_exists (pid));
  json_object_unref (read_until (in, "stats"));

  g_subprocess_force_exit (parent);   /* SIGKILL */
  g_assert_true (g_subprocess_wait (parent, NULL, &error));

  done = read_until (in, "done");
  g_assert_nonnull (done);
  g_assert_cmpstr (json_object_get_string_member (done, "output"), ==, f->output);
  g_assert_cmpint (json_object_get_int_member (done, "events"), >, 0);
  for (int i = 0; i < 100 && kill (pid, 0) == 0; i++)
    g_usleep (20 * 1000);
  rt_assert_instance_gone (pid);
  rt_assert_no_leftovers (f->dir, "rec.dat");
  assert_good_recording (f->output);
}

static void
test_helper_stop_line (Fixture *f, gconstpointer data)
{
  g_autoptr(GSubprocess) helper = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autoptr(JsonObject) started = NULL;
  g_autoptr(JsonObject) stats = NULL;
  g_autoptr(JsonObject) done = NULL;
  g_autoptr(GError) error = NULL;
  GOutputStream *out;

  if (!f->usable)
    return;

  helper = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                             program ("CHRONOSCOPE_RECORD_HELPER"), "-e", "sched", "-e", "irq",
                             "-o", f->output, NULL);
  g_assert_no_error (error);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (helper));
  started = read_until (in, "started");
  g_assert_nonnull (started);
  g_assert_cmpint (json_object_get_int_member (started, "n_cpus"), >, 0);
  stats = read_until (in, "stats");
  g_assert_nonnull (stats);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (stats, "cpus")), ==,
                    (guint) json_object_get_int_member (started, "n_cpus"));

  out = g_subprocess_get_stdin_pipe (helper);
  g_assert_true (g_output_stream_write_all (out, "stop\n", 5, NULL, NULL, &error));
  g_assert_no_error (error);
  done = read_until (in, "done");
  g_assert_nonnull (done);
  g_assert_true (g_subprocess_wait_check (helper, NULL, &error));
  g_assert_no_error (error);
  rt_assert_instance_gone (helper_pid (started));
  assert_good_recording (f->output);
}

static void
test_not_root (Fixture *f, gconstpointer data)
{
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  if (!f->usable)
    return;
  if (setpriv == NULL)
    {
      g_test_skip ("setpriv (util-linux) is needed to run as another user");
      return;
    }

  g_assert_cmpint (g_chmod (f->dir, 0777), ==, 0);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                              program ("CHRONOSCOPE"), "record", "-e", "sched", "-o", f->output,
                              "--duration", "1", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error));
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  g_assert_nonnull (strstr (err, "needs root"));
  rt_assert_no_leftovers (f->dir, NULL);
}

static void
test_disk_full (Fixture *f, gconstpointer data)
{
  g_autofree char *mnt = NULL;
  g_autofree char *output = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int pid;

  if (!f->usable)
    return;

  mnt = g_build_filename (f->dir, "small", NULL);
  g_assert_cmpint (g_mkdir (mnt, 0755), ==, 0);
  if (mount ("tmpfs", mnt, "tmpfs", 0, "size=2m") != 0)
    {
      g_rmdir (mnt);
      g_test_skip ("cannot mount a small tmpfs to fill");
      return;
    }

  output = g_build_filename (mnt, "rec.dat", NULL);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              program ("CHRONOSCOPE"), "record", "-e", "sched", "-e", "timer",
                              "-e", "irq", "-o", output, "--duration", "2", NULL);
  g_assert_no_error (error);
  pid = atoi (g_subprocess_get_identifier (process));
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error));
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  g_assert_nonnull (strstr (err, g_strerror (ENOSPC)));
  rt_assert_no_leftovers (mnt, NULL);
  rt_assert_instance_gone (pid);
  g_assert_cmpint (umount (mnt), ==, 0);
  g_rmdir (mnt);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/record/cli/sigterm", Fixture, NULL,
              fixture_set_up, test_cli_sigterm, fixture_tear_down);
  g_test_add ("/cs/record/cli/sigint", Fixture, NULL,
              fixture_set_up, test_cli_sigint, fixture_tear_down);
  g_test_add ("/cs/record/helper/parent-sigkill", Fixture, NULL,
              fixture_set_up, test_helper_parent_killed, fixture_tear_down);
  g_test_add ("/cs/record/helper/stop-line", Fixture, NULL,
              fixture_set_up, test_helper_stop_line, fixture_tear_down);
  g_test_add ("/cs/record/cli/not-root", Fixture, NULL,
              fixture_set_up, test_not_root, fixture_tear_down);
  g_test_add ("/cs/record/cli/disk-full", Fixture, NULL,
              fixture_set_up, test_disk_full, fixture_tear_down);

  return g_test_run ();
}
