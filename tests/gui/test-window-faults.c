/* test-window-faults.c: the window when the index cache fails it: two
 * windows opening one new recording at once, and a full disk.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The real CsWindow in-process under Xvfb; this program is also its index
 * worker (/proc/self/exe index-worker FILE).  The workers read
 * XDG_CACHE_HOME from the environment, set here per test.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cache-watch.h"
#include "cs-cli.h"
#include "gui-test-util.h"

static char *
copy_recording (const char *as)
{
  g_autofree char *source = cs_test_find_recording ();
  g_autofree char *contents = NULL;
  char *path = g_build_filename (cs_test_work_dir, as, NULL);
  gsize length;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  return path;
}

static char *
use_cache (const char *name)
{
  char *cache = g_build_filename (cs_test_work_dir, name, NULL);
  g_autofree char *folder = g_build_filename (cache, "chronoscope", NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  return cache;
}

static guint
count_in_folder (const char *folder,
                 const char *suffix)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_test_message ("in the cache: %s", name);
      n += suffix == NULL || g_str_has_suffix (name, suffix);
    }
  return n;
}

/* Two windows open one new recording at the same moment: both show it,
 * from one index that one worker built. */
static void
test_two_windows_one_build (void)
{
  g_autofree char *saved_cache = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  g_autofree char *cache = use_cache ("two-windows-cache");
  g_autofree char *folder = g_build_filename (cache, "chronoscope", NULL);
  g_autofree char *path = copy_recording ("two-windows.dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  CsWindow *first = cs_test_new_window (800, 500);
  CsWindow *second = cs_test_new_window (800, 500);
  int watch_fd = cs_test_cache_watch_new (folder);

  cs_window_open_file (first, file);
  cs_window_open_file (second, file);
  cs_test_wait_until (cs_test_window_is_idle, first, "the first window");
  cs_test_wait_until (cs_test_window_is_idle, second, "the second window");
  g_setenv ("XDG_CACHE_HOME", saved_cache, TRUE);

  g_assert_null (cs_window_get_error_message (first));
  g_assert_null (cs_window_get_error_message (second));
  g_assert_cmpint (cs_window_get_state (first), ==, CS_WINDOW_STATE_READY);
  g_assert_cmpint (cs_window_get_state (second), ==, CS_WINDOW_STATE_READY);
  g_assert_cmpuint (cs_test_cache_watch_count (watch_fd, ".tmp-"), ==, 1);
  g_assert_cmpuint (count_in_folder (folder, NULL), ==, 1);
  g_assert_cmpuint (count_in_folder (folder, ".csindex"), ==, 1);
  close (watch_fd);

  cs_test_destroy_window (first);
  cs_test_destroy_window (second);
}

/* A full cache: the window shows the error naming the folder, keeps
 * nothing, and opens the recording once there is room. */
static void
test_disk_full (void)
{
  g_autofree char *saved_cache = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  g_autofree char *cache = g_build_filename (cs_test_work_dir, "full-cache", NULL);
  g_autofree char *folder = g_build_filename (cache, "chronoscope", NULL);
  g_autofree char *filler = g_build_filename (cache, "filler", NULL);
  g_autofree char *path = copy_recording ("full.dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *message;
  CsWindow *window;
  struct statvfs fs;
  gsize fill;

  g_assert_cmpint (g_mkdir_with_parents (cache, 0700), ==, 0);
  if (geteuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs as the cache needs root (CI runs as root)");
      return;
    }
  if (mount ("cs-test-cache", cache, "tmpfs", 0, "size=1024k,mode=0755") != 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a tmpfs: %s", g_strerror (errno));
      g_test_skip (why);
      return;
    }
  g_assert_cmpint (statvfs (cache, &fs), ==, 0);
  fill = (gsize) fs.f_bavail * fs.f_frsize - 16 * 1024;
  {
    g_autofree char *zeros = g_malloc0 (fill);
    g_assert_true (g_file_set_contents (filler, zeros, fill, NULL));
  }

  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  window = cs_test_new_window (800, 500);
  message = cs_test_open_failing (window, path, "the worker on a full disk");
  g_assert_nonnull (strstr (message, "No space left"));
  g_assert_nonnull (strstr (message, folder));
  g_assert_cmpuint (count_in_folder (folder, NULL), ==, 0);

  /* It carries on: with room again, the same window opens the file. */
  g_assert_cmpint (g_unlink (filler), ==, 0);
  cs_window_open_file (window, file);
  cs_test_wait_until (cs_test_window_is_idle, window, "the worker with room");
  g_setenv ("XDG_CACHE_HOME", saved_cache, TRUE);
  g_assert_null (cs_window_get_error_message (window));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  g_assert_cmpuint (count_in_folder (folder, ".csindex"), ==, 1);

  cs_test_destroy_window (window);
  g_assert_cmpint (umount2 (cache, MNT_DETACH), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-window-faults", FALSE);

  g_test_add_func ("/cs/gui/CsWindow/two-windows-one-build", test_two_windows_one_build);
  g_test_add_func ("/cs/gui/CsWindow/disk-full", test_disk_full);

  return cs_test_gui_run ();
}
