/* tracefs-test-util.c: finding tracefs as `chronoscope record` does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The recorder asks libtracefs (tracefs_tracing_dir()), which mounts
 * tracefs when it is not mounted yet and the caller may mount it.  The
 * tests and the scripts that make recordings (through tracefs-dir.c) ask
 * the same way, so that they run wherever the product records, and say
 * exactly why when they cannot.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracefs-test-util.h"

/* Whether /proc/filesystems lists tracefs (a kernel built with
 * CONFIG_TRACING has it; older kernels only have debugfs/tracing, which
 * libtracefs also finds). */
static gboolean
kernel_has_tracefs (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/filesystems", &text, NULL, NULL))
    return TRUE; /* Cannot tell: let the mount's own error speak. */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *name = strrchr (lines[i], '\t');

      if (g_strcmp0 (name != NULL ? name + 1 : lines[i], "tracefs") == 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * cs_test_tracing_dir:
 * @why: (out) (optional) (transfer full): when there is no tracefs, why, as
 *   one sentence for a skip message ("not root: ...", "the kernel has no
 *   tracefs ...", "mount failed: ..."); free with g_free()
 *
 * The tracefs mount the recorder would use: tracefs_tracing_dir(), which
 * finds tracefs (or debugfs/tracing) in /proc/mounts and, when there is
 * none, mounts tracefs at /sys/kernel/tracing; so calling this as root may
 * leave tracefs mounted, as `chronoscope record` and `trace-cmd` do.
 * libtracefs remembers its first answer for the life of the process.
 *
 * Any thread; the first call may block on mount(2).
 *
 * Returns: (nullable) (transfer none): the folder (for example
 *   "/sys/kernel/tracing"), owned by libtracefs, or %NULL with @why set
 */
const char *
cs_test_tracing_dir (char **why)
{
  const char *dir;
  int saved_errno;

  errno = 0;
  dir = tracefs_tracing_dir ();
  saved_errno = errno;
  if (dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR))
    return dir;

  if (why == NULL)
    return NULL;
  if (!kernel_has_tracefs ())
    *why = g_strdup ("the kernel has no tracefs (no tracefs in /proc/filesystems)");
  else if (geteuid () != 0)
    *why = g_strdup_printf ("not root: tracefs is not mounted and only root may mount it "
                            "(running as uid %u)", (guint) geteuid ());
  else if (dir != NULL)
    *why = g_strdup_printf ("libtracefs names %s, which is not a folder", dir);
  else if (saved_errno != 0)
    *why = g_strdup_printf ("mount failed: libtracefs could not mount tracefs at "
                            "/sys/kernel/tracing: %s", g_strerror (saved_errno));
  else
    *why = g_strdup ("mount failed: libtracefs found no tracefs and could not mount one");
  return NULL;
}

/**
 * cs_test_require_tracefs:
 *
 * For a GTest case that records: root and a tracefs, found or mounted as
 * cs_test_tracing_dir() does.  Otherwise marks the test skipped
 * (g_test_skip()) with the exact reason.
 *
 * Returns: %TRUE when the test can go on
 */
gboolean
cs_test_require_tracefs (void)
{
  g_autofree char *why = NULL;
  g_autofree char *message = NULL;

  if (geteuid () != 0)
    {
      message = g_strdup_printf ("not root: recording needs root (tracefs instances; "
                                 "running as uid %u)", (guint) geteuid ());
      g_test_skip (message);
      return FALSE;
    }
  if (cs_test_tracing_dir (&why) == NULL)
    {
      message = g_strdup_printf ("no tracefs: %s", why);
      g_test_skip (message);
      return FALSE;
    }
  return TRUE;
}
