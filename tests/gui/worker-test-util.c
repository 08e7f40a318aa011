/* worker-test-util.c: the index worker's process and its temporary files,
 * seen from a test.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "worker-test-util.h"

/**
 * cs_test_count_temporaries:
 * @cache_home: what XDG_CACHE_HOME is for the worker
 *
 * Returns: the number of temporary indexes (`<hash>.csindex.tmp-<pid>…`) in
 *   its chronoscope/ folder, each named in a test message
 */
guint
cs_test_count_temporaries (const char *cache_home)
{
  g_autofree char *dir_path = g_build_filename (cache_home, "chronoscope", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (strstr (name, ".csindex.tmp-") != NULL)
      {
        g_test_message ("temporary file: %s", name);
        n++;
      }
  return n;
}

/* Field 4 of /proc/PID/stat (after the command in parentheses), or -1;
 * @state gets field 3. */
static pid_t
read_parent (pid_t pid,
             char *state)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  const char *close;
  int ppid;
  char st;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (close = strrchr (text, ')')) == NULL ||
      sscanf (close + 1, " %c %d", &st, &ppid) != 2)
    return -1;
  if (state != NULL)
    *state = st;
  return ppid;
}

/**
 * cs_test_process_is_gone:
 * @pid: a process
 *
 * Returns: whether @pid runs no more: gone, or a zombie nobody reaped yet
 */
gboolean
cs_test_process_is_gone (pid_t pid)
{
  char state = '?';

  return read_parent (pid, &state) < 0 || state == 'Z' || state == 'X';
}

/**
 * cs_test_wait_gone:
 * @pid: a process
 * @timeout_us: how long to wait, in µs
 *
 * Returns: how long @pid took to go (cs_test_process_is_gone()), in µs, or
 *   -1 when it still runs after @timeout_us
 */
gint64
cs_test_wait_gone (pid_t  pid,
                   gint64 timeout_us)
{
  gint64 start = g_get_monotonic_time ();

  while (g_get_monotonic_time () - start < timeout_us)
    {
      if (cs_test_process_is_gone (pid))
        return g_get_monotonic_time () - start;
      g_usleep (10 * G_TIME_SPAN_MILLISECOND);
    }
  return -1;
}

/**
 * cs_test_find_worker:
 * @parent: a process
 *
 * Returns: the child of @parent that runs `index-worker` (its argv[1]), or
 *   0 when there is none
 */
pid_t
cs_test_find_worker (pid_t parent)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);
      g_autofree char *cmdline_path = NULL;
      g_autofree char *cmdline = NULL;
      gsize len;

      if (pid <= 0 || read_parent (pid, NULL) != parent)
        continue;
      cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
      /* argv is NUL-separated: the command is the second string. */
      if (g_file_get_contents (cmdline_path, &cmdline, &len, NULL) &&
          strlen (cmdline) + 1 < len && g_str_equal (cmdline + strlen (cmdline) + 1, "index-worker"))
        return pid;
    }
  return 0;
}
