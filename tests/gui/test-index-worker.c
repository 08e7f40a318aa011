/* test-index-worker.c: the index worker's life and death, with real
 * processes and no display.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `chronoscope info` runs `chronoscope index-worker` (CsIndexJob).  Killing
 * the parent with SIGKILL, sending the worker SIGTERM (while it reads, or
 * while it is stuck where it does not look at Cancel) and a worker that
 * stops making progress (the watchdog) must each leave no worker process
 * and no temporary index in the cache, promptly.
 *
 * To act while the index is being built, whatever the machine's speed, the
 * worker is slowed by the scanner's test hooks (index/store/cs-cpu-scanner.c):
 * CS_INDEX_TEST_DELAY_MS sleeps between groups of records (waking up for
 * Cancel), CS_INDEX_TEST_HANG=1 stops the scan for good, deaf to Cancel, as
 * a reader loop on a damaged file would.  Each test starts when the worker
 * has created its temporary index.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "worker-test-util.h"

/* How long a worker may take to go: the bound. */
#define GONE_WITHIN_US (1 * G_USEC_PER_SEC)
/* How long to wait for the worker to start building: generous, as a
 * sanitizer build on a loaded machine is slow to start one. */
#define START_WITHIN_US (120 * G_USEC_PER_SEC)

static char *
recording (void)
{
  const char *dir = g_getenv ("CS_TESTDATA");

  g_assert_nonnull (dir);
  return g_build_filename (dir, "sched-irq-v6.dat", NULL);
}

static char *
cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
}

static guint
count_temporaries (void)
{
  return cs_test_count_temporaries (g_get_user_cache_dir ());
}

static GSubprocess *
spawn (GSubprocessFlags    flags,
       const char * const *env,
       const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strjoinv (" ", (char **) argv);
  GSubprocess *subprocess;

  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  for (guint i = 0; env[i] != NULL; i += 2)
    g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
  g_test_message ("$ %s", command);
  subprocess = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  return subprocess;
}

/* Waits until a worker of @parent has created its temporary index. */
static pid_t
wait_building (pid_t parent)
{
  gint64 start = g_get_monotonic_time ();
  pid_t worker = 0;

  while (g_get_monotonic_time () - start < START_WITHIN_US)
    {
      if (worker == 0)
        worker = parent < 0 ? -parent : cs_test_find_worker (parent);
      if (worker != 0 && count_temporaries () > 0)
        return worker;
      g_usleep (10 * G_TIME_SPAN_MILLISECOND);
    }
  g_assert_not_reached ();
}

static void
test_parent_killed (void)
{
  g_autofree char *path = recording ();
  const char *env[] = { "CS_INDEX_TEST_DELAY_MS", "2000", NULL };
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "info", path, NULL };
  g_autoptr(GSubprocess) info = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, env, argv);
  pid_t parent = (pid_t) g_ascii_strtoll (g_subprocess_get_identifier (info), NULL, 10);
  pid_t worker = wait_building (parent);
  gint64 took;

  g_test_message ("killing chronoscope info (%d), whose worker is %d", (int) parent, (int) worker);
  g_subprocess_force_exit (info);
  g_assert_true (g_subprocess_wait (info, NULL, NULL));

  took = cs_test_wait_gone (worker, GONE_WITHIN_US);
  g_test_message ("the worker went in %.3f s", took / 1e6);
  g_assert_cmpint (took, >=, 0);
  g_assert_cmpuint (count_temporaries (), ==, 0);
}

/* SIGTERM to a worker run as the window runs it; returns its output. */
static char *
terminate_worker (const char *env_name,
                  const char *env_value)
{
  g_autofree char *path = recording ();
  const char *env[] = { env_name, env_value, NULL };
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "index-worker", "--", path, NULL };
  g_autoptr(GSubprocess) worker = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, env, argv);
  pid_t pid = (pid_t) g_ascii_strtoll (g_subprocess_get_identifier (worker), NULL, 10);
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  gint64 start;

  wait_building (-pid);
  start = g_get_monotonic_time ();
  g_subprocess_send_signal (worker, SIGTERM);
  g_assert_true (g_subprocess_communicate_utf8 (worker, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("the worker went in %.3f s; it said:\n%s",
                  (g_get_monotonic_time () - start) / 1e6, out);
  g_assert_cmpint (g_get_monotonic_time () - start, <=, GONE_WITHIN_US);
  g_assert_true (g_subprocess_get_if_exited (worker));
  g_assert_cmpint (g_subprocess_get_exit_status (worker), ==, 1);
  g_assert_cmpuint (count_temporaries (), ==, 0);
  return out;
}

static void
test_sigterm (void)
{
  g_autofree char *out = terminate_worker ("CS_INDEX_TEST_DELAY_MS", "2000");

  g_assert_nonnull (strstr (out, "\nerror "));
}

static void
test_sigterm_stuck (void)
{
  g_autofree char *out = terminate_worker ("CS_INDEX_TEST_HANG", "1");

  g_assert_nonnull (strstr (out, "error Indexing was cancelled\n"));
}

static void
test_watchdog (void)
{
  g_autofree char *path = recording ();
  const char *env[] = { "CS_INDEX_TEST_HANG", "1", "CS_INDEX_WATCHDOG_SECONDS", "1", NULL };
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "info", path, NULL };
  g_autoptr(GSubprocess) info = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                       G_SUBPROCESS_FLAGS_STDERR_PIPE, env, argv);
  pid_t parent = (pid_t) g_ascii_strtoll (g_subprocess_get_identifier (info), NULL, 10);
  pid_t worker = wait_building (parent);
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_assert_true (g_subprocess_communicate_utf8 (info, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_true (g_subprocess_get_if_exited (info));
  g_assert_cmpint (g_subprocess_get_exit_status (info), !=, 0);
  g_assert_nonnull (strstr (err, "looks damaged at offset "));
  g_assert_nonnull (strstr (err, "made no progress for 1 s"));
  g_assert_cmpint (cs_test_wait_gone (worker, GONE_WITHIN_US), >=, 0);
  g_assert_cmpuint (count_temporaries (), ==, 0);
}

/* @worker (0 for none) when it runs a plugin pass (`--pass` in its
 * argv), else 0. */
static pid_t
runs_pass (pid_t worker)
{
  g_autofree char *cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) worker);
  g_autofree char *cmdline = NULL;
  gsize len;

  if (worker == 0 || !g_file_get_contents (cmdline_path, &cmdline, &len, NULL))
    return 0;
  for (gsize at = 0; at < len; at += strlen (cmdline + at) + 1)
    if (g_str_equal (cmdline + at, "--pass"))
      return worker;
  return 0;
}

/* A plugin pass that computes longer than the watchdog allows between
 * lines (CS_PASS_TEST_HANG holds it after its end, as a critical path
 * over a long recording computes) says `working` and is not taken for a
 * damaged recording; Ctrl+C still stops it. */
static void
test_long_pass_not_damaged (void)
{
  g_autofree char *path = recording ();
  const char *env[] = { "CS_PASS_TEST_HANG", "1", "CS_INDEX_WATCHDOG_SECONDS", "2", NULL };
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "critical-path", path, "--pid", "1", NULL };
  g_autoptr(GSubprocess) cli = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                      G_SUBPROCESS_FLAGS_STDERR_PIPE, env, argv);
  pid_t parent = (pid_t) g_ascii_strtoll (g_subprocess_get_identifier (cli), NULL, 10);
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  pid_t worker = 0;

  /* The worker that runs the pass, after the one that indexed. */
  while (worker == 0 && g_get_monotonic_time () - start < START_WITHIN_US)
    {
      worker = runs_pass (cs_test_find_worker (parent));
      g_usleep (10 * G_TIME_SPAN_MILLISECOND);
    }
  g_assert_cmpint (worker, !=, 0);
  /* Three watchdog periods: the pass holds, and the worker lives. */
  g_usleep (6 * G_USEC_PER_SEC);
  g_assert_cmpint (kill (worker, 0), ==, 0);
  g_assert_cmpint (kill (parent, SIGINT), ==, 0);
  g_assert_true (g_subprocess_communicate_utf8 (cli, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_assert_null (strstr (err, "looks damaged"));
  g_assert_null (strstr (err, "made no progress"));
  g_assert_cmpint (cs_test_wait_gone (worker, 5 * GONE_WITHIN_US), >=, 0);
}

/* A temporary index whose worker died (SIGKILL gives no chance to clean
 * up) is removed by the next build. */
static void
test_stale_temporary_removed (void)
{
  g_autofree char *path = recording ();
  g_autofree char *dir = cache_dir ();
  g_autofree char *stale = NULL;
  const char *env[] = { NULL };
  const char *argv[] = { g_getenv ("CHRONOSCOPE"), "info", path, NULL };
  g_autoptr(GSubprocess) info = NULL;
  pid_t dead;

  /* A pid that existed and is gone: a finished child's.  Forked and
   * reaped here, since GSubprocess forgets the pid of a child that has
   * already exited (its identifier is then NULL). */
  dead = fork ();
  g_assert_cmpint (dead, >=, 0);
  if (dead == 0)
    _exit (0);
  g_assert_cmpint (waitpid (dead, NULL, 0), ==, dead);
  stale = g_strdup_printf ("%s/0123456789abcdef0123456789abcdef.csindex.tmp-%d", dir, (int) dead);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (stale, "half an index", -1, NULL));
  g_assert_cmpuint (count_temporaries (), ==, 1);

  info = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, env, argv);
  g_assert_true (g_subprocess_wait_check (info, NULL, NULL));
  g_assert_cmpuint (count_temporaries (), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/gui/IndexJob/parent-killed", test_parent_killed);
  g_test_add_func ("/cs/gui/IndexJob/worker-sigterm", test_sigterm);
  g_test_add_func ("/cs/gui/IndexJob/worker-sigterm-stuck", test_sigterm_stuck);
  g_test_add_func ("/cs/gui/IndexJob/watchdog", test_watchdog);
  g_test_add_func ("/cs/gui/IndexJob/long-pass-not-damaged", test_long_pass_not_damaged);
  g_test_add_func ("/cs/gui/IndexJob/stale-temporary-removed", test_stale_temporary_removed);

  return g_test_run ();
}
