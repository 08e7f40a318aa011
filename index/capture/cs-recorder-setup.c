/* cs-recorder-setup.c: CsRecorder's work on tracefs and the command.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The private instance is created, configured (each option written to the
 * instance file it mirrors, the kernel's refusal turned into a
 * CS_RECORD_ERROR that names it) and removed here; the command is forked
 * here, held before exec until tracing is on.  See cs-recorder.c for the
 * life of a recording.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <tracefs.h>

#include "cs-record-private.h"
#include "cs-record-stream.h"
#include "cs-recorder-private.h"

/* Wake the streams when a quarter of the buffer is full (default 50). */
#define BUFFER_PERCENT "25"

char *
_cs_recorder_instance_file (CsRecorder *self, const char *file)
{
  return g_build_filename (self->tracing_dir, "instances", self->instance_name, file, NULL);
}

/* Writes an instance file; returns 0 or errno. */
int
_cs_recorder_instance_write (CsRecorder *self, const char *file, const char *value)
{
  g_autofree char *path = _cs_recorder_instance_file (self, file);
  return _cs_record_write_file (path, value);
}

char *
_cs_recorder_instance_read (CsRecorder *self, const char *file)
{
  g_autofree char *path = _cs_recorder_instance_file (self, file);
  g_autoptr(GBytes) bytes = _cs_record_read_file (path, NULL);

  if (bytes == NULL)
    return NULL;
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

void
_cs_recorder_add_warning (CsRecorder *self, const char *message)
{
  g_ptr_array_insert (self->warnings, (int) self->warnings->len - 1, g_strdup (message));
}

/* ------------------------------------------------------------------------ */
/* Restoring tracefs                                                         */

/* Turns everything off and removes the instance.  The streams must have
 * closed their trace_pipe_raw files (the kernel refuses to remove an
 * instance with open files), so they are joined first. */
void
_cs_recorder_restore_tracefs (CsRecorder *self)
{
  if (self->instance == NULL)
    return;

  _cs_recorder_instance_write (self, "tracing_on", "0");
  if (self->tracer_set)
    _cs_recorder_instance_write (self, "current_tracer", "nop");
  _cs_recorder_instance_write (self, "events/enable", "0");

  for (guint i = 0; self->streams != NULL && i < self->streams->len; i++)
    {
      CsRecordStream *stream = g_ptr_array_index (self->streams, i);

      cs_record_stream_stop (stream);
      cs_record_stream_join (stream, NULL);
    }

  for (int attempt = 0; attempt < 40; attempt++)
    {
      if (tracefs_instance_destroy (self->instance) == 0 || errno == ENOENT)
        break;
      g_usleep (50 * 1000);   /* EBUSY: a reader still closing */
    }
  if (tracefs_instance_exists (self->instance_name))
    g_warning ("Could not remove the tracefs instance %s: %s",
               self->instance_name, g_strerror (errno));

  tracefs_instance_free (self->instance);
  self->instance = NULL;
}

void
_cs_recorder_kill_command (CsRecorder *self, int signo)
{
  if (self->command_sync_fd >= 0)
    {
      close (self->command_sync_fd);   /* a child still waiting exits */
      self->command_sync_fd = -1;
    }
  if (self->command_pid > 0 && !self->command_exited)
    kill (self->command_pid, signo);
}

/* ------------------------------------------------------------------------ */
/* Configuring the instance                                                  */

static gboolean
set_option (CsRecorder *self, const char *file, const char *value, int code,
            const char *what, GError **error)
{
  int err = _cs_recorder_instance_write (self, file, value);

  if (err == 0)
    return TRUE;
  if (err == EACCES || err == EPERM)
    code = CS_RECORD_ERROR_PERMISSION;
  g_set_error (error, CS_RECORD_ERROR, code, _("%s (%s): %s"), what, file, g_strerror (err));
  return FALSE;
}

static gboolean
configure_clock (CsRecorder *self, GError **error)
{
  const char *clock = self->options->clock;
  int err;

  if (clock == NULL || *clock == '\0')
    return TRUE;
  err = _cs_recorder_instance_write (self, "trace_clock", clock);
  if (err != 0)
    {
      g_autofree char *available = _cs_recorder_instance_read (self, "trace_clock");

      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_BAD_OPTION,
                   _("The kernel refused the trace clock “%s” (trace_clock): %s; available: %s"),
                   clock, g_strerror (err), available != NULL ? g_strstrip (available) : "?");
      return FALSE;
    }
  return TRUE;
}

static gboolean
configure_pids (CsRecorder *self, GError **error)
{
  const CsRecordOptions *o = self->options;
  g_autoptr(GString) pids = g_string_new (NULL);

  for (guint i = 0; i < o->pids->len; i++)
    g_string_append_printf (pids, "%s%d", i > 0 ? " " : "", g_array_index (o->pids, int, i));
  if (o->trace_command_only && self->command_pid > 0)
    g_string_append_printf (pids, "%s%d", pids->len > 0 ? " " : "", (int) self->command_pid);
  if (pids->len == 0)
    return TRUE;

  if (!set_option (self, "set_event_pid", pids->str, CS_RECORD_ERROR_BAD_OPTION,
                   _("The kernel refused the pid filter"), error))
    return FALSE;
  if ((o->follow_children || o->trace_command_only) &&
      !set_option (self, "options/event-fork", "1", CS_RECORD_ERROR_FAILED,
                   _("Cannot follow children"), error))
    return FALSE;
  return TRUE;
}

static gboolean
configure_events (CsRecorder *self, GError **error)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      CsRecordEvent *event = g_ptr_array_index (self->events, i);
      g_autofree char *dir = g_build_filename ("events", event->system, event->name, NULL);
      g_autofree char *filter_file = g_build_filename (dir, "filter", NULL);
      g_autofree char *enable_file = g_build_filename (dir, "enable", NULL);
      int err;

      if (event->filter != NULL)
        {
          tracefs_error_clear (self->instance);
          err = _cs_recorder_instance_write (self, filter_file, event->filter);
          if (err != 0)
            {
              g_autofree char *log = tracefs_error_last (self->instance);

              g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_BAD_FILTER,
                           _("The kernel refused the filter “%s” of %s:%s: %s%s%s"),
                           event->filter, event->system, event->name, g_strerror (err),
                           log != NULL ? "\n" : "", log != NULL ? g_strchomp (log) : "");
              return FALSE;
            }
        }

      err = _cs_recorder_instance_write (self, enable_file, "1");
      if (err != 0)
        {
          g_set_error (error, CS_RECORD_ERROR,
                       err == EACCES || err == EPERM ? CS_RECORD_ERROR_PERMISSION
                                                     : CS_RECORD_ERROR_FAILED,
                       _("Cannot enable the event %s:%s: %s"),
                       event->system, event->name, g_strerror (err));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
tracer_available (CsRecorder *self, const char *tracer, char **available)
{
  g_auto(GStrv) names = NULL;

  *available = _cs_recorder_instance_read (self, "available_tracers");
  if (*available == NULL)
    return TRUE;   /* let current_tracer answer */
  g_strstrip (*available);
  names = g_strsplit_set (*available, " \t\n", -1);
  return g_strv_contains ((const char * const *) names, tracer);
}

static gboolean
configure_tracer (CsRecorder *self, GError **error)
{
  const char *tracer = self->options->tracer;
  g_autofree char *available = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) local = NULL;
  int err;

  if (tracer == NULL || *tracer == '\0' || strcmp (tracer, "nop") == 0)
    return TRUE;

  if (!tracer_available (self, tracer, &available))
    reason = g_strdup_printf (_("the kernel does not offer it in this instance "
                                "(available_tracers: %s)"), available);
  else if ((err = _cs_recorder_instance_write (self, "current_tracer", tracer)) != 0)
    reason = err == EPERM || err == EACCES
      ? g_strdup_printf (_("%s: tracing with it is not permitted on this system"), g_strerror (err))
      : g_strdup (g_strerror (err));

  if (reason == NULL)
    {
      self->tracer_set = TRUE;
      if (self->options->pids->len > 0 || self->options->trace_command_only)
        {
          g_autofree char *pids = _cs_recorder_instance_read (self, "set_event_pid");

          if (pids != NULL)
            _cs_recorder_instance_write (self, "set_ftrace_pid", g_strstrip (pids));
          if (self->options->follow_children || self->options->trace_command_only)
            _cs_recorder_instance_write (self, "options/function-fork", "1");
        }
      return TRUE;
    }

  g_set_error (&local, CS_RECORD_ERROR, CS_RECORD_ERROR_TRACER_REFUSED,
               _("The tracer “%s” was refused (current_tracer): %s"), tracer, reason);
  if (self->options->tracer_optional && self->events->len > 0)
    {
      g_autofree char *warning = g_strdup_printf (_("%s. Recording the events only."),
                                                  local->message);
      _cs_recorder_add_warning (self, warning);
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
_cs_recorder_configure_instance (CsRecorder *self, GError **error)
{
  const CsRecordOptions *o = self->options;

  if (!set_option (self, "tracing_on", "0", CS_RECORD_ERROR_FAILED,
                   _("Cannot turn tracing off"), error))
    return FALSE;

  if (o->buffer_size_kb > 0)
    {
      g_autofree char *kb = g_strdup_printf ("%u", o->buffer_size_kb);
      g_autofree char *what = g_strdup_printf (_("The kernel refused a ring buffer of %u KiB per CPU"),
                                               o->buffer_size_kb);

      if (!set_option (self, "buffer_size_kb", kb, CS_RECORD_ERROR_BAD_OPTION, what, error))
        return FALSE;
    }

  if (!configure_clock (self, error))
    return FALSE;

  if (o->cpumask != NULL && *o->cpumask != '\0')
    {
      g_autofree char *what = g_strdup_printf (_("The kernel refused the CPU mask “%s” (this machine has %u CPUs)"),
                                               o->cpumask, self->n_cpus);
      const char *mask = o->cpumask;

      if (g_str_has_prefix (mask, "0x") || g_str_has_prefix (mask, "0X"))
        mask += 2;
      if (!set_option (self, "tracing_cpumask", mask, CS_RECORD_ERROR_BAD_OPTION, what, error))
        return FALSE;
    }

  /* Wake the streams when a quarter of the buffer is full (default 50). */
  _cs_recorder_instance_write (self, "buffer_percent", BUFFER_PERCENT);

  if (o->stacktrace &&
      !set_option (self, "options/stacktrace", "1", CS_RECORD_ERROR_FAILED,
                   _("Cannot turn on kernel stack traces"), error))
    return FALSE;

  if (!configure_pids (self, error) ||
      !configure_events (self, error) ||
      !configure_tracer (self, error))
    return FALSE;

  g_free (self->trace_clock_text);
  self->trace_clock_text = _cs_recorder_instance_read (self, "trace_clock");
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The command                                                               */

static void
command_exited_cb (GPid     pid,
                   int      wait_status,
                   gpointer user_data)
{
  CsRecorder *self = user_data;

  self->command_watch_id = 0;
  self->command_exited = TRUE;
  self->command_status = wait_status;
  g_spawn_close_pid (pid);
  cs_recorder_stop (self);
}

/* Forks the command, held before exec until tracing is on (so its first
 * events are recorded and its pid is known for -F). */
gboolean
_cs_recorder_spawn_command (CsRecorder *self, GError **error)
{
  char **argv = self->options->command;
  g_autofree char *program = NULL;
  gint64 uid = self->options->owner_uid, gid = self->options->owner_gid;
  int sync_fds[2], null_fd = -1;
  pid_t pid;

  if (argv == NULL || argv[0] == NULL)
    return TRUE;

  program = g_find_program_in_path (argv[0]);
  if (program == NULL)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_COMMAND,
                   _("Cannot run “%s”: no such program in PATH"), argv[0]);
      return FALSE;
    }
  if (pipe2 (sync_fds, O_CLOEXEC) != 0)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_COMMAND,
                   _("Cannot run “%s”: %s"), argv[0], g_strerror (errno));
      return FALSE;
    }
  if (self->command_stdin_null)
    null_fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

  pid = fork ();
  if (pid < 0)
    {
      int saved_errno = errno;

      close (sync_fds[0]);
      close (sync_fds[1]);
      if (null_fd >= 0)
        close (null_fd);
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_COMMAND,
                   _("Cannot run “%s”: %s"), argv[0], g_strerror (saved_errno));
      return FALSE;
    }

  if (pid == 0)
    {
      /* The child: only async-signal-safe calls from here. */
      sigset_t none;
      char go;

      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      signal (SIGPIPE, SIG_DFL);
      signal (SIGINT, SIG_DFL);
      signal (SIGTERM, SIG_DFL);
      if (null_fd >= 0)
        dup2 (null_fd, STDIN_FILENO);
      if (uid >= 0)
        {
          gid_t g = (gid_t) (gid >= 0 ? gid : uid);

          if (setgroups (1, &g) != 0 || setgid (g) != 0 || setuid ((uid_t) uid) != 0)
            _exit (126);
        }
      if (read (sync_fds[0], &go, 1) != 1)
        _exit (125);   /* the recorder gave up */
      execv (program, argv);
      _exit (127);
    }

  close (sync_fds[0]);
  if (null_fd >= 0)
    close (null_fd);
  self->command_sync_fd = sync_fds[1];
  self->command_pid = pid;
  self->command_watch_id = g_child_watch_add (pid, command_exited_cb, self);
  return TRUE;
}

void
_cs_recorder_release_command (CsRecorder *self)
{
  if (self->command_sync_fd < 0)
    return;
  if (write (self->command_sync_fd, "g", 1) != 1)
    g_debug ("Cannot release the command: %s", g_strerror (errno));
  close (self->command_sync_fd);
  self->command_sync_fd = -1;
}

gboolean
_cs_recorder_create_instance (CsRecorder *self, GError **error)
{
  self->instance_name = g_strdup_printf ("chronoscope-%d", (int) getpid ());
  self->instance = tracefs_instance_create (self->instance_name);
  if (self->instance != NULL && !tracefs_instance_is_new (self->instance))
    {
      /* Left by an earlier process with our pid: not ours to trust. */
      tracefs_instance_destroy (self->instance);
      tracefs_instance_free (self->instance);
      self->instance = tracefs_instance_create (self->instance_name);
    }
  if (self->instance == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, CS_RECORD_ERROR,
                   saved_errno == EACCES || saved_errno == EPERM ? CS_RECORD_ERROR_PERMISSION
                                                                 : CS_RECORD_ERROR_FAILED,
                   _("Cannot create the tracefs instance %s/instances/%s: %s"),
                   self->tracing_dir, self->instance_name, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

