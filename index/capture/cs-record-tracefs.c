/* cs-record-tracefs.c: reading and writing tracefs for the recorder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tracefs files report a size of 0 and answer a refused write with an
 * errno that says why (EINVAL for a bad filter or clock, EPERM for a
 * tracer the kernel does not permit), so they are read to EOF and written
 * with one write() here, keeping errno for the caller's message.  libtracefs
 * finds the mount point and lists the instances.
 */
#define _GNU_SOURCE
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <tracefs.h>

#include "cs-record-private.h"
#include "cs-recorder.h"

#define INSTANCE_PREFIX "chronoscope-"

void
_cs_record_event_free (CsRecordEvent *event)
{
  g_free (event->system);
  g_free (event->name);
  g_free (event->filter);
  g_free (event);
}

/**
 * cs_recorder_find_tracing_dir:
 *
 * Where tracefs is, found as libtracefs finds it (tracefs_tracing_dir():
 * /sys/kernel/tracing, or debugfs's tracing folder; mounted there first
 * when the process is root and it is not mounted yet), so that what lists
 * the events and what records them read the same tracefs.  Any thread.
 *
 * Returns: (transfer none) (nullable): the folder, or %NULL when there is
 *   no tracefs this process can reach (not mounted and not root, or a
 *   kernel without it)
 */
const char *
cs_recorder_find_tracing_dir (void)
{
  return tracefs_tracing_dir ();
}

/* The tracefs mount, checked for what recording needs: writing instances/. */
const char *
_cs_record_tracing_dir (GError **error)
{
  const char *dir = tracefs_tracing_dir ();
  g_autofree char *instances = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      if (geteuid () != 0)
        g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_PERMISSION,
                     _("Cannot reach tracefs (/sys/kernel/tracing) as an unprivileged user: "
                       "recording needs root"));
      else
        g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_NO_TRACEFS,
                     _("No tracefs is mounted (mount -t tracefs nodev /sys/kernel/tracing)"));
      return NULL;
    }

  instances = g_build_filename (dir, "instances", NULL);
  if (access (instances, W_OK) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == EACCES || saved_errno == EPERM || saved_errno == EROFS)
        g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_PERMISSION,
                     _("Cannot create a tracefs instance in %s: %s (recording needs root)"),
                     instances, g_strerror (saved_errno));
      else
        g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_NO_TRACEFS,
                     _("tracefs at %s has no instances folder: %s"), dir, g_strerror (saved_errno));
      return NULL;
    }

  return dir;
}

/* Reads a whole tracefs or /proc file (their size is unknown until EOF). */
GBytes *
_cs_record_read_file (const char  *path,
                      GError     **error)
{
  g_autoptr(GByteArray) out = NULL;
  guint8 buf[64 * 1024];
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, CS_RECORD_ERROR,
                   saved_errno == EACCES || saved_errno == EPERM ? CS_RECORD_ERROR_PERMISSION
                                                                 : CS_RECORD_ERROR_FAILED,
                   _("Cannot read %s: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  out = g_byte_array_new ();
  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                       _("Cannot read %s: %s"), path, g_strerror (saved_errno));
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (out, buf, (guint) n);
    }
  close (fd);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* Writes @value in one write(), as tracefs wants.  Returns 0 or errno. */
int
_cs_record_write_file (const char *path,
                       const char *value)
{
  gsize len = strlen (value);
  ssize_t n;
  int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  int saved_errno;

  if (fd < 0)
    return errno;

  do
    n = write (fd, value, len);
  while (n < 0 && errno == EINTR);
  saved_errno = n < 0 ? errno : (gsize) n != len ? EIO : 0;
  if (close (fd) != 0 && saved_errno == 0)
    saved_errno = errno;
  return saved_errno;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                    */

static gboolean
match (const char *pattern, const char *text)
{
  if (strpbrk (pattern, "*?[") == NULL)
    return strcmp (pattern, text) == 0;
  return g_pattern_match_simple (pattern, text);
}

static void
add_event (GPtrArray  *events,
           GHashTable *seen,
           const char *system,
           const char *name,
           const char *filter)
{
  g_autofree char *key = g_strdup_printf ("%s:%s", system, name);
  CsRecordEvent *event = g_hash_table_lookup (seen, key);

  if (event == NULL)
    {
      event = g_new0 (CsRecordEvent, 1);
      event->system = g_strdup (system);
      event->name = g_strdup (name);
      g_ptr_array_add (events, event);
      g_hash_table_insert (seen, g_steal_pointer (&key), event);
    }
  /* A later filter for the same event replaces an earlier one. */
  if (filter != NULL && *filter != '\0')
    {
      g_free (event->filter);
      event->filter = g_strdup (filter);
    }
}

/* Resolves trace-cmd style specifications ("sched:sched_switch", "sched",
 * "sched_switch", globs) against available_events ("system:event" lines).
 * Returns an array of CsRecordEvent, or NULL with UNKNOWN_EVENT. */
GPtrArray *
_cs_record_resolve_events (const char   *tracing_dir,
                           char * const *specs,
                           char * const *filters,
                           GError      **error)
{
  g_autofree char *path = g_build_filename (tracing_dir, "available_events", NULL);
  g_autoptr(GBytes) text = _cs_record_read_file (path, error);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_autofree char *available = NULL;
  g_auto(GStrv) lines = NULL;

  if (text == NULL)
    return NULL;

  available = g_strndup (g_bytes_get_data (text, NULL), g_bytes_get_size (text));
  lines = g_strsplit (available, "\n", -1);
  events = g_ptr_array_new_with_free_func ((GDestroyNotify) _cs_record_event_free);
  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      g_autofree char *spec = g_strdup (specs[i]);
      const char *filter = filters != NULL ? filters[i] : NULL;
      char *sep = strpbrk (spec, ":/");
      const char *want_system = NULL, *want_name = NULL;
      guint matched = 0;

      if (sep != NULL)
        {
          *sep = '\0';
          want_system = spec;
          want_name = sep[1] != '\0' ? sep + 1 : "*";
        }

      /* "system:event"; else a system name; else an event name. */
      for (int pass = 0; pass < 2 && matched == 0; pass++)
        for (guint j = 0; lines[j] != NULL; j++)
          {
            g_autofree char *line = g_strdup (lines[j]);
            char *colon = strchr (line, ':');
            gboolean hit;

            if (colon == NULL)
              continue;
            *colon = '\0';
            if (want_system != NULL)
              hit = match (want_system, line) && match (want_name, colon + 1);
            else if (pass == 0)
              hit = match (spec, line);
            else
              hit = match (spec, colon + 1);
            if (hit)
              {
                add_event (events, seen, line, colon + 1, filter);
                matched++;
              }
          }

      if (matched == 0)
        {
          g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_UNKNOWN_EVENT,
                       _("Unknown event “%s”: no such event or system in %s"),
                       specs[i], path);
          return NULL;
        }
    }

  return g_steal_pointer (&events);
}

/* ------------------------------------------------------------------------ */
/* Metadata                                                                  */

/* The page size and the kernel's long size from events/header_page:
 *   field: local_t commit;	offset:8;	size:8;	signed:1;
 *   field: char data;	offset:16;	size:4080;	signed:0; */
gboolean
_cs_record_page_layout (GBytes  *header_page,
                        guint   *page_size,
                        guint   *kernel_long_size,
                        GError **error)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (header_page, NULL),
                                     g_bytes_get_size (header_page));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint data_offset = 0, data_size = 0, commit_size = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *field = strstr (lines[i], "field:");
      const char *off = strstr (lines[i], "offset:");
      const char *size = strstr (lines[i], "size:");

      if (field == NULL || off == NULL || size == NULL)
        continue;
      if (strstr (field, " commit;") != NULL)
        commit_size = (guint) g_ascii_strtoull (size + 5, NULL, 10);
      else if (strstr (field, " data;") != NULL)
        {
          data_offset = (guint) g_ascii_strtoull (off + 7, NULL, 10);
          data_size = (guint) g_ascii_strtoull (size + 5, NULL, 10);
        }
    }

  *page_size = data_offset + data_size;
  *kernel_long_size = commit_size;
  if ((commit_size != 4 && commit_size != 8) || *page_size < 64 ||
      (*page_size & (*page_size - 1)) != 0)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                   _("Cannot understand events/header_page (page of %u bytes, long of %u)"),
                   *page_size, commit_size);
      return FALSE;
    }
  return TRUE;
}

guint
_cs_record_count_cpus (const char *tracing_dir)
{
  g_autofree char *path = g_build_filename (tracing_dir, "per_cpu", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      guint64 cpu;

      if (g_str_has_prefix (name, "cpu") &&
          g_ascii_string_to_unsigned (name + 3, 10, 0, 8191, &cpu, NULL))
        n = MAX (n, (guint) cpu + 1);
    }
  return n;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* ftrace's own formats (all of them, as trace-cmd does: function, print,
 * kernel_stack… are cheap) and the formats of @events.  kallsyms and
 * printk_formats: _cs_record_read_symbols(). */
gboolean
_cs_record_add_formats (CsTracedatWriter  *writer,
                        const char        *tracing_dir,
                        GPtrArray         *events,
                        GError           **error)
{
  g_autofree char *ftrace_dir = g_build_filename (tracing_dir, "events", "ftrace", NULL);
  g_autoptr(GDir) dir = g_dir_open (ftrace_dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (ftrace_dir, g_ptr_array_index (names, i),
                                                "format", NULL);
      g_autoptr(GBytes) format = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      format = _cs_record_read_file (path, error);
      if (format == NULL)
        return FALSE;
      cs_tracedat_writer_add_ftrace_format (writer, format);
    }

  for (guint i = 0; i < events->len; i++)
    {
      CsRecordEvent *event = g_ptr_array_index (events, i);
      g_autofree char *path = g_build_filename (tracing_dir, "events", event->system,
                                                event->name, "format", NULL);
      g_autoptr(GBytes) format = _cs_record_read_file (path, error);

      if (format == NULL)
        return FALSE;
      cs_tracedat_writer_add_event_format (writer, event->system, format);
    }
  return TRUE;
}

/* /proc/kallsyms (several MB, a fraction of a second to read) and
 * tracefs's printk_formats, read once per recording: the final file and
 * every live snapshot share them.  Either may be NULL: without kallsyms
 * (kptr_restrict, no /proc) stack traces show addresses, not a reason to
 * lose the recording. */
void
_cs_record_read_symbols (const char  *tracing_dir,
                         GBytes     **kallsyms,
                         GBytes     **printk_formats)
{
  g_autofree char *printk_path = g_build_filename (tracing_dir, "printk_formats", NULL);

  *kallsyms = _cs_record_read_file ("/proc/kallsyms", NULL);
  *printk_formats = _cs_record_read_file (printk_path, NULL);
}

/* ------------------------------------------------------------------------ */
/* Task names                                                                */

/* saved_cmdlines ("PID COMM" lines) is a ring of the names tracefs saw at
 * sched_switch; it is merged in while recording so that names of tasks
 * that came and went survive. */
void
_cs_record_merge_saved_cmdlines (GHashTable *comms,
                                 const char *tracing_dir)
{
  g_autofree char *path = g_build_filename (tracing_dir, "saved_cmdlines", NULL);
  g_autoptr(GBytes) bytes = _cs_record_read_file (path, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (bytes == NULL)
    return;
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strchr (lines[i], ' ');
      guint64 pid;

      if (space == NULL)
        continue;
      *space = '\0';
      if (!g_ascii_string_to_unsigned (lines[i], 10, 1, G_MAXINT, &pid, NULL) ||
          space[1] == '\0' || strcmp (space + 1, "<...>") == 0)
        continue;
      g_hash_table_insert (comms, GINT_TO_POINTER ((int) pid), g_strdup (space + 1));
    }
}

/* The names of every thread alive now, from /proc/PID/task/TID/comm. */
void
_cs_record_merge_proc_comms (GHashTable *comms)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *task_path = NULL;
      g_autoptr(GDir) tasks = NULL;
      const char *tid_name;
      guint64 pid;

      if (!g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT, &pid, NULL))
        continue;
      task_path = g_build_filename ("/proc", name, "task", NULL);
      tasks = g_dir_open (task_path, 0, NULL);
      while (tasks != NULL && (tid_name = g_dir_read_name (tasks)) != NULL)
        {
          g_autofree char *comm_path = g_build_filename (task_path, tid_name, "comm", NULL);
          g_autofree char *comm = NULL;
          guint64 tid;

          if (!g_ascii_string_to_unsigned (tid_name, 10, 1, G_MAXINT, &tid, NULL) ||
              !g_file_get_contents (comm_path, &comm, NULL, NULL))
            continue;
          g_strchomp (comm);
          if (*comm != '\0')
            g_hash_table_insert (comms, GINT_TO_POINTER ((int) tid), g_steal_pointer (&comm));
        }
    }
}

static int
compare_pids (gconstpointer a, gconstpointer b)
{
  int pa = *(const int *) a, pb = *(const int *) b;

  return pa < pb ? -1 : pa > pb;
}

/* "PID COMM\n" lines sorted by pid, as saved_cmdlines. */
GBytes *
_cs_record_cmdlines_bytes (GHashTable *comms)
{
  g_autoptr(GArray) pids = g_array_sized_new (FALSE, FALSE, sizeof (int),
                                              g_hash_table_size (comms));
  GString *out = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, comms);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      int pid = GPOINTER_TO_INT (key);
      g_array_append_val (pids, pid);
    }
  g_array_sort (pids, compare_pids);
  for (guint i = 0; i < pids->len; i++)
    {
      int pid = g_array_index (pids, int, i);
      g_string_append_printf (out, "%d %s\n", pid,
                              (const char *) g_hash_table_lookup (comms, GINT_TO_POINTER (pid)));
    }
  return g_string_free_to_bytes (out);
}

/* A number of per_cpu/cpuN/stats: "overrun: 12" for key "overrun". */
guint64
_cs_record_stats_value (const char *stats_text,
                        const char *key)
{
  gsize key_len = strlen (key);

  for (const char *line = stats_text; line != NULL && *line != '\0';)
    {
      const char *next = strchr (line, '\n');

      if (strncmp (line, key, key_len) == 0 && line[key_len] == ':')
        return g_ascii_strtoull (line + key_len + 1, NULL, 10);
      line = next != NULL ? next + 1 : NULL;
    }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Stale instances                                                           */

/* An instance "chronoscope-PID" whose recorder is gone (killed with
 * SIGKILL, which no code can catch) keeps its ring buffers and events; the
 * next recorder removes it.  Instances of live recorders stay. */
void
_cs_record_remove_stale_instances (const char *tracing_dir)
{
  g_autofree char *path = g_build_filename (tracing_dir, "instances", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *instance = NULL;
      guint64 pid;

      if (!g_str_has_prefix (name, INSTANCE_PREFIX) ||
          !g_ascii_string_to_unsigned (name + strlen (INSTANCE_PREFIX), 10, 1, G_MAXINT,
                                       &pid, NULL))
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;

      instance = g_build_filename (path, name, NULL);
      if (rmdir (instance) == 0)
        g_message ("Removed the tracefs instance %s of a recorder that is gone", name);
    }
}
