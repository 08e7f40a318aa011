/* test-cli-faults.c: `chronoscope info` when the index cache fails it: a
 * full disk, a read-only or uncreatable cache folder, and two runs opening
 * the same new recording at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Real processes on real file systems: the full and the read-only cache are
 * small tmpfs mounts (root only; the tests skip, saying so, without it, and
 * CI runs as root), the uncreatable one a path under a regular file.  Each
 * child gets its own XDG_CACHE_HOME and TMPDIR, so that what it leaves
 * behind can be listed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cache-watch.h"
#include "cs-index-cache.h"
#include "cs-index-lock.h"

typedef struct {
  GSubprocess *process;
  char *out;
  char *err;
  gboolean exited;
} Child;

static void
child_clear (Child *child)
{
  g_clear_object (&child->process);
  g_clear_pointer (&child->out, g_free);
  g_clear_pointer (&child->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Child, child_clear)

static char *
recording (void)
{
  return g_build_filename (g_getenv ("CS_TESTDATA"), "sched-irq-v6.dat", NULL);
}

/* A fresh folder in the test's own temporary folder. */
static char *
make_dir (const char *name)
{
  char *path = g_build_filename (g_get_user_data_dir (), name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return path;
}

static void
communicate_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &child->out,
                                        &child->err, &error);
  g_assert_no_error (error);
  child->exited = TRUE;
}

/* Starts `chronoscope info ARGS` with @cache as XDG_CACHE_HOME and @tmp as
 * TMPDIR; the main context collects its output. */
static void
child_start (Child              *child,
             const char         *cache,
             const char         *tmp,
             const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (char *) g_getenv ("CHRONOSCOPE"));
  g_ptr_array_add (argv, (char *) "info");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", cache, TRUE);
  g_subprocess_launcher_setenv (launcher, "TMPDIR", tmp, TRUE);
  child->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                 &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (child->process, NULL, NULL, communicate_cb, child);
}

static int
child_wait (Child *child)
{
  while (!child->exited)
    g_main_context_iteration (NULL, TRUE);
  if (child->err != NULL && *child->err != '\0')
    g_test_message ("stderr: %s", child->err);
  g_assert_true (g_subprocess_get_if_exited (child->process));   /* no signal death */
  return g_subprocess_get_exit_status (child->process);
}

static int
run_info (Child      *child,
          const char *cache,
          const char *tmp,
          const char *path)
{
  const char *args[] = { path, NULL };

  child_start (child, cache, tmp, args);
  return child_wait (child);
}

/* The names in @dir, sorted; none when it does not exist. */
static GPtrArray *
list_dir (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_test_message ("in %s: %s", dir_path, name);
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

/* Mounts a tmpfs of @size_kib at @dir; FALSE (the test skipped) when this
 * process may not. */
static gboolean
mount_tmpfs (const char *dir,
             guint       size_kib,
             gboolean    read_only)
{
  g_autofree char *options = g_strdup_printf ("size=%uk,mode=0755", size_kib);

  if (geteuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs as the cache needs root (CI runs as root)");
      return FALSE;
    }
  if (mount ("cs-test-cache", dir, "tmpfs", read_only ? MS_RDONLY : 0, options) != 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a tmpfs at %s: %s", dir,
                                              g_strerror (errno));
      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

static void
unmount (const char *dir)
{
  g_assert_cmpint (umount2 (dir, MNT_DETACH), ==, 0);
}

/* A full disk: a clear error naming the cache folder and the lack of
 * space, nothing left in the cache, and the next run, with room again,
 * works. */
static void
test_disk_full (void)
{
  g_autofree char *cache = make_dir ("full-cache");
  g_autofree char *tmp = make_dir ("full-tmp");
  g_autofree char *folder = g_build_filename (cache, "chronoscope", NULL);
  g_autofree char *filler = g_build_filename (cache, "filler", NULL);
  g_autofree char *path = recording ();
  g_autoptr(GPtrArray) left = NULL;
  g_auto(Child) full = { 0 };
  g_auto(Child) again = { 0 };
  struct statvfs fs;
  gsize fill;

  if (!mount_tmpfs (cache, 1024, FALSE))
    return;
  /* Leave 16 KiB: room for the folder and the start of an index, not for
   * an index (its tables alone take more pages of 8 KiB). */
  g_assert_cmpint (statvfs (cache, &fs), ==, 0);
  fill = (gsize) fs.f_bavail * fs.f_frsize - 16 * 1024;
  {
    g_autofree char *zeros = g_malloc0 (fill);
    g_assert_true (g_file_set_contents (filler, zeros, fill, NULL));
  }

  g_assert_cmpint (run_info (&full, cache, tmp, path), !=, 0);
  g_assert_nonnull (strstr (full.err, "No space left"));
  g_assert_nonnull (strstr (full.err, folder));
  g_assert_nonnull (strstr (full.err, "sched-irq-v6.dat"));
  g_assert_cmpstr (full.out, ==, "");
  left = list_dir (folder);
  g_assert_cmpuint (left->len, ==, 0);   /* no partial index, no lock */

  g_assert_cmpint (g_unlink (filler), ==, 0);
  g_assert_cmpint (run_info (&again, cache, tmp, path), ==, 0);
  g_assert_nonnull (strstr (again.out, "Events:"));
  g_clear_pointer (&left, g_ptr_array_unref);
  left = list_dir (folder);
  g_assert_cmpuint (left->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (left, 0), ".csindex"));

  unmount (cache);
}

/* The recording opens anyway, indexed into a temporary folder that is gone
 * when the command has finished. */
static void
assert_opens_without_cache (const char *cache)
{
  g_autofree char *tmp = make_dir ("no-cache-tmp");
  g_autofree char *path = recording ();
  g_autoptr(GPtrArray) left = NULL;
  g_auto(Child) child = { 0 };
  g_auto(Child) again = { 0 };

  g_assert_cmpint (run_info (&child, cache, tmp, path), ==, 0);
  g_assert_nonnull (strstr (child.out, "Events:"));
  g_assert_nonnull (strstr (child.err, "cannot be written"));
  g_assert_nonnull (strstr (child.err, tmp));
  left = list_dir (tmp);
  g_assert_cmpuint (left->len, ==, 0);

  /* And again: nothing was kept, so it is indexed again, as well. */
  g_assert_cmpint (run_info (&again, cache, tmp, path), ==, 0);
  g_assert_cmpstr (again.out, ==, child.out);
  g_clear_pointer (&left, g_ptr_array_unref);
  left = list_dir (tmp);
  g_assert_cmpuint (left->len, ==, 0);
}

static void
test_read_only_cache (void)
{
  g_autofree char *cache = make_dir ("read-only-cache");

  if (!mount_tmpfs (cache, 1024, TRUE))
    return;
  assert_opens_without_cache (cache);
  unmount (cache);
}

/* An index already in a cache that has become read-only is still used. */
static void
test_read_only_cache_reused (void)
{
  g_autofree char *cache = make_dir ("reused-cache");
  g_autofree char *tmp = make_dir ("reused-tmp");
  g_autofree char *path = recording ();
  g_auto(Child) built = { 0 };
  g_auto(Child) reused = { 0 };

  if (!mount_tmpfs (cache, 1024, FALSE))
    return;
  g_assert_cmpint (run_info (&built, cache, tmp, path), ==, 0);
  g_assert_cmpint (mount (NULL, cache, NULL, MS_REMOUNT | MS_RDONLY, NULL), ==, 0);
  g_assert_cmpint (run_info (&reused, cache, tmp, path), ==, 0);
  g_assert_cmpstr (reused.out, ==, built.out);
  g_assert_null (strstr (reused.err, "cannot be written"));
  unmount (cache);
}

static void
test_uncreatable_cache (void)
{
  g_autofree char *dir = make_dir ("uncreatable");
  g_autofree char *file = g_build_filename (dir, "a-file", NULL);
  g_autofree char *cache = g_build_filename (file, "cache", NULL);

  /* No one, root included, can make a folder under a regular file. */
  g_assert_true (g_file_set_contents (file, "not a folder\n", -1, NULL));
  assert_opens_without_cache (cache);
}

/* Two runs on one new recording at once: while a build is going on (here
 * the test holds the index's lock, as a builder would), both wait without
 * writing; then exactly one builds and both print the same. */
static void
test_two_runs_at_once (void)
{
  g_autofree char *cache = make_dir ("shared-cache");
  g_autofree char *tmp = make_dir ("shared-tmp");
  g_autofree char *folder = g_build_filename (cache, "chronoscope", NULL);
  g_autofree char *path = recording ();
  g_autofree char *identity = cs_index_cache_compute_identity (path, NULL);
  g_autofree char *index_path = cs_index_cache_dup_index_path_in (folder, identity);
  g_autoptr(GPtrArray) left = NULL;
  g_autoptr(GError) error = NULL;
  const char *args[] = { "--json", path, NULL };
  g_auto(Child) first = { 0 };
  g_auto(Child) second = { 0 };
  CsIndexLock *lock;
  int watch_fd;
  gint64 until;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  watch_fd = cs_test_cache_watch_new (folder);

  lock = cs_index_lock_acquire (index_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  child_start (&first, cache, tmp, args);
  child_start (&second, cache, tmp, args);

  until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE), g_usleep (10 * 1000);
  g_assert_false (first.exited);
  g_assert_false (second.exited);
  g_assert_cmpuint (cs_test_cache_watch_count (watch_fd, ".tmp-"), ==, 0);

  cs_index_lock_release (lock);
  g_assert_cmpint (child_wait (&first), ==, 0);
  g_assert_cmpint (child_wait (&second), ==, 0);
  g_assert_cmpstr (first.out, ==, second.out);
  g_assert_nonnull (strstr (first.out, "\"events\""));
  g_assert_cmpuint (cs_test_cache_watch_count (watch_fd, ".tmp-"), ==, 1);   /* one build */
  close (watch_fd);

  left = list_dir (folder);
  g_assert_cmpuint (left->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (left, 0), ==, strrchr (index_path, '/') + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/cli/faults/disk-full", test_disk_full);
  g_test_add_func ("/cs/cli/faults/read-only-cache", test_read_only_cache);
  g_test_add_func ("/cs/cli/faults/read-only-cache-reused", test_read_only_cache_reused);
  g_test_add_func ("/cs/cli/faults/uncreatable-cache", test_uncreatable_cache);
  g_test_add_func ("/cs/cli/faults/two-runs-at-once", test_two_runs_at_once);

  return g_test_run ();
}
