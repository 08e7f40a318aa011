/* cs-recorder.c: records trace events with tracefs into a trace.dat.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A recorder owns a private tracefs instance, instances/chronoscope-<pid>,
 * so that nothing else on the machine is disturbed and everything it
 * changed disappears with one rmdir.  Its life:
 *
 *   start()  checks the options against tracefs (events, filters, clock,
 *            CPU mask, tracer), creates the per-CPU temporary files next to
 *            the output (so an unwritable folder fails before tracing),
 *            configures the instance, starts one CsRecordStream per CPU,
 *            turns tracing on and lets the command run.
 *   stop()   (Stop, duration, command exit, a signal, a stream's error)
 *            turns tracing off and hands over to a thread that drains the
 *            last pages, reads the per-CPU statistics, removes the instance
 *            and only then writes the trace.dat with CsTracedatWriter.
 *
 * Every way out goes through _cs_recorder_restore_tracefs(): a failed start,
 * stop(), abort() and dispose.  What cannot be caught (SIGKILL of the
 * recorder itself) leaves the instance behind; the next recorder removes
 * instances whose process is gone.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <tracefs.h>

#include "cs-record-private.h"
#include "cs-record-stream.h"
#include "cs-recorder.h"
#include "cs-tracedat-private.h"
#include "cs-recorder-private.h"

#define HEALTH_INTERVAL_MS   250
#define CMDLINES_EVERY_TICKS 4


G_DEFINE_FINAL_TYPE (CsRecorder, cs_recorder, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
recorder_set_state (CsRecorder      *self,
                    CsRecorderState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* ------------------------------------------------------------------------ */
/* Starting                                                                  */

static gboolean
prepare_writer (CsRecorder *self, GError **error)
{
  g_autofree char *header_page_path = g_build_filename (self->tracing_dir, "events", "header_page", NULL);
  g_autoptr(GBytes) header_page = _cs_record_read_file (header_page_path, error);

  if (header_page == NULL ||
      !_cs_record_page_layout (header_page, &self->page_size, &self->kernel_long_size, error))
    return FALSE;

  self->n_cpus = _cs_record_count_cpus (self->tracing_dir);
  if (self->n_cpus == 0)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_NO_TRACEFS,
                   _("tracefs at %s has no per_cpu folders"), self->tracing_dir);
      return FALSE;
    }

  _cs_record_read_symbols (self->tracing_dir, &self->kallsyms, &self->printk_formats);
  self->writer = _cs_recorder_new_writer (self, self->options->output, error);
  return self->writer != NULL;
}

/**
 * _cs_recorder_new_writer:
 * @self: a #CsRecorder whose page size and CPU count are known
 * @path: the trace.dat to write
 * @error: return location for a CS_RECORD_ERROR
 *
 * A writer for @path owned by the recording's user, with the headers and
 * event formats read from tracefs and the symbols read at the start; CPU
 * data, task names and options are the caller's.
 *
 * Returns: (transfer full) (nullable): the writer, %NULL with @error set
 */
CsTracedatWriter *
_cs_recorder_new_writer (CsRecorder  *self,
                         const char  *path,
                         GError     **error)
{
  g_autofree char *header_page_path = g_build_filename (self->tracing_dir, "events", "header_page", NULL);
  g_autofree char *header_event_path = g_build_filename (self->tracing_dir, "events", "header_event", NULL);
  g_autoptr(GBytes) header_page = _cs_record_read_file (header_page_path, error);
  g_autoptr(GBytes) header_event = NULL;
  g_autoptr(CsTracedatWriter) writer = NULL;

  if (header_page == NULL)
    return NULL;
  header_event = _cs_record_read_file (header_event_path, error);
  if (header_event == NULL)
    return NULL;

  writer = cs_tracedat_writer_new (path, self->page_size, self->n_cpus);
  cs_tracedat_writer_set_owner (writer, self->options->owner_uid, self->options->owner_gid);
  cs_tracedat_writer_set_header_page (writer, header_page);
  cs_tracedat_writer_set_header_event (writer, header_event);
  if (!_cs_record_add_formats (writer, self->tracing_dir, self->events, error))
    return NULL;
  cs_tracedat_writer_set_kallsyms (writer, self->kallsyms);
  cs_tracedat_writer_set_printk_formats (writer, self->printk_formats);
  return g_steal_pointer (&writer);
}

/* The streams and their temporary files, before the instance exists: an
 * unwritable output folder fails here, with tracefs untouched. */
static gboolean
create_streams (CsRecorder *self, GError **error)
{
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autofree char *suffix = g_strdup_printf (".cpu%u", cpu);
      g_autofree char *temp_path = NULL;
      int fd = _cs_record_create_temp (self->options->output, suffix,
                                       self->options->owner_uid, self->options->owner_gid,
                                       &temp_path, error);

      if (fd < 0)
        return FALSE;
      g_ptr_array_add (self->streams,
                       cs_record_stream_new (cpu, fd, temp_path, self->page_size,
                                             self->kernel_long_size));
    }
  return TRUE;
}

static gboolean
start_streams (CsRecorder *self, GError **error)
{
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autofree char *raw_name = g_strdup_printf ("per_cpu/cpu%u/trace_pipe_raw", cpu);
      g_autofree char *raw_path = _cs_recorder_instance_file (self, raw_name);
      int raw_fd = open (raw_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

      if (raw_fd < 0)
        {
          g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                       _("Cannot open %s: %s"), raw_path, g_strerror (errno));
          return FALSE;
        }
      if (!cs_record_stream_start (g_ptr_array_index (self->streams, cpu), raw_fd, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean health_cb (gpointer user_data);
static gboolean duration_cb (gpointer user_data);

/**
 * cs_recorder_start:
 * @self: a new #CsRecorder
 * @error: return location for a #CS_RECORD_ERROR: %CS_RECORD_ERROR_BAD_OPTION,
 *   %CS_RECORD_ERROR_NO_TRACEFS, %CS_RECORD_ERROR_PERMISSION,
 *   %CS_RECORD_ERROR_UNKNOWN_EVENT, %CS_RECORD_ERROR_BAD_FILTER (with
 *   tracefs's `error_log` text), %CS_RECORD_ERROR_TRACER_REFUSED,
 *   %CS_RECORD_ERROR_OUTPUT, %CS_RECORD_ERROR_COMMAND…
 *
 * Checks the options against tracefs, creates the private instance
 * `instances/chronoscope-<pid>`, configures it, starts streaming every
 * CPU's ring buffer to temporary files next to the output, turns tracing
 * on and starts the command.  The recording runs until cs_recorder_stop(),
 * the duration, or the command's exit.  On failure tracefs is left as it
 * was and no file remains.
 *
 * Call from the thread that runs the default main context: the command's
 * exit, the duration and the streams' health are watched from it.
 *
 * Returns: whether the recording runs
 */
gboolean
cs_recorder_start (CsRecorder  *self,
                   GError     **error)
{
  const CsRecordOptions *o;
  const char *dir;

  g_return_val_if_fail (CS_IS_RECORDER (self), FALSE);

  if (self->state != CS_RECORDER_STATE_NEW)
    {
      g_set_error_literal (error, CS_RECORD_ERROR, CS_RECORD_ERROR_BUSY,
                           _("This recorder was already started"));
      return FALSE;
    }
  o = self->options;

  if (!cs_record_options_validate (o, error) || (dir = _cs_record_tracing_dir (error)) == NULL)
    goto fail;
  self->tracing_dir = g_strdup (dir);
  _cs_record_remove_stale_instances (self->tracing_dir);

  self->events = _cs_record_resolve_events (self->tracing_dir, o->events, o->filters, error);
  if (self->events == NULL || !prepare_writer (self, error) || !create_streams (self, error))
    goto fail;

  _cs_record_merge_proc_comms (self->comms);
  if (!_cs_recorder_spawn_command (self, error) || !_cs_recorder_create_instance (self, error) ||
      !_cs_recorder_configure_instance (self, error) || !start_streams (self, error))
    goto fail;

  if (_cs_recorder_instance_write (self, "tracing_on", "1") != 0)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                   _("Cannot turn tracing on in %s: %s"), self->instance_name, g_strerror (errno));
      goto fail;
    }

  self->start_us = g_get_monotonic_time ();
  recorder_set_state (self, CS_RECORDER_STATE_RECORDING);
  _cs_recorder_release_command (self);
  self->health_id = g_timeout_add (HEALTH_INTERVAL_MS, health_cb, self);
  if (o->duration_s > 0)
    self->duration_id = g_timeout_add ((guint) MIN (o->duration_s * 1000.0, (double) G_MAXUINT),
                                       duration_cb, self);
  return TRUE;

fail:
  _cs_recorder_kill_command (self, SIGKILL);
  _cs_recorder_restore_tracefs (self);
  g_clear_pointer (&self->streams, g_ptr_array_unref);   /* removes the temporary files */
  g_clear_object (&self->writer);
  recorder_set_state (self, CS_RECORDER_STATE_FAILED);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* While recording                                                           */

static gboolean
duration_cb (gpointer user_data)
{
  CsRecorder *self = user_data;

  self->duration_id = 0;
  cs_recorder_stop (self);
  return G_SOURCE_REMOVE;
}

static gboolean
health_cb (gpointer user_data)
{
  CsRecorder *self = user_data;

  for (guint i = 0; i < self->streams->len; i++)
    if (cs_record_stream_has_failed (g_ptr_array_index (self->streams, i)))
      {
        self->health_id = 0;
        cs_recorder_stop (self);   /* the thread reports the stream's error */
        return G_SOURCE_REMOVE;
      }

  if (++self->health_ticks % CMDLINES_EVERY_TICKS == 0)
    _cs_record_merge_saved_cmdlines (self->comms, self->tracing_dir);
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------------ */
/* Stopping: drain, restore, write (in a thread)                            */

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

/**
 * _cs_recorder_add_options:
 * @self: a #CsRecorder
 * @writer: the writer to give them to
 * @stats_text: (nullable): per CPU, `per_cpu/cpuN/stats` (entries may be
 *   %NULL)
 *
 * Adds the options every recording carries (uname, version, CPU count,
 * the CPUs' statistics, the trace clock).
 */
void
_cs_recorder_add_options (CsRecorder        *self,
                          CsTracedatWriter  *writer,
                          char             **stats_text)
{
  struct utsname uts;
  guint32 n_cpus = self->n_cpus;
  g_autoptr(GBytes) count = g_bytes_new (&n_cpus, sizeof n_cpus);
  g_autoptr(GBytes) version = text_bytes ("chronoscope " PACKAGE_VERSION);

  if (uname (&uts) == 0)
    {
      g_autofree char *text = g_strdup_printf ("%s %s %s %s", uts.sysname, uts.nodename,
                                               uts.release, uts.version);
      g_autoptr(GBytes) bytes = text_bytes (text);

      cs_tracedat_writer_add_option (writer, CS_TD_OPTION_UNAME, bytes);
    }
  cs_tracedat_writer_add_option (writer, CS_TD_OPTION_VERSION, version);
  cs_tracedat_writer_add_option (writer, CS_TD_OPTION_CPUCOUNT, count);
  for (guint cpu = 0; stats_text != NULL && cpu < self->n_cpus; cpu++)
    if (stats_text[cpu] != NULL)
      {
        g_autofree char *text = g_strdup_printf ("CPU: %u\n%s", cpu, stats_text[cpu]);
        g_autoptr(GBytes) bytes = text_bytes (text);

        cs_tracedat_writer_add_option (writer, CS_TD_OPTION_CPUSTAT, bytes);
      }
  cs_tracedat_writer_set_trace_clock (writer, self->trace_clock_text);
}

static void
finish_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CsRecorder *self = source_object;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) cmdlines = NULL;
  char **stats_text = g_new0 (char *, self->n_cpus + 1);

  /* 1. The last pages (tracing is already off). */
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autoptr(GError) stream_error = NULL;

      if (!cs_record_stream_join (g_ptr_array_index (self->streams, cpu), &stream_error) &&
          error == NULL)
        error = g_steal_pointer (&stream_error);
    }

  /* 2. What the kernel counted, then tracefs as it was. */
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autofree char *file = g_strdup_printf ("per_cpu/cpu%u/stats", cpu);
      stats_text[cpu] = _cs_recorder_instance_read (self, file);
    }
  _cs_record_merge_saved_cmdlines (self->comms, self->tracing_dir);
  _cs_record_merge_proc_comms (self->comms);
  _cs_record_merge_saved_cmdlines (self->comms, self->tracing_dir);
  _cs_recorder_restore_tracefs (self);
  self->final_stats_text = stats_text;

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* 3. The trace.dat. */
  cmdlines = _cs_record_cmdlines_bytes (self->comms);
  cs_tracedat_writer_set_cmdlines (self->writer, cmdlines);
  _cs_recorder_add_options (self, self->writer, stats_text);
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      CsRecordStream *stream = g_ptr_array_index (self->streams, cpu);
      CsRecordStreamStats stats;

      cs_record_stream_get_stats (stream, &stats);
      cs_tracedat_writer_set_cpu_data (self->writer, cpu, cs_record_stream_get_fd (stream),
                                       stats.bytes);
    }

  if (!cs_tracedat_writer_finish (self->writer, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
finish_done_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  CsRecorder *self = CS_RECORDER (source_object);
  g_autoptr(GList) waiters = NULL;
  gboolean ok;

  ok = g_task_propagate_boolean (G_TASK (result), &self->error);
  self->final_stats = cs_recorder_dup_stats (self);
  g_clear_pointer (&self->streams, g_ptr_array_unref);   /* removes the temporary files */
  g_clear_object (&self->writer);
  recorder_set_state (self, ok ? CS_RECORDER_STATE_DONE : CS_RECORDER_STATE_FAILED);

  waiters = g_steal_pointer (&self->waiters);
  for (GList *l = waiters; l != NULL; l = l->next)
    {
      GTask *waiter = l->data;

      if (ok)
        g_task_return_boolean (waiter, TRUE);
      else
        g_task_return_error (waiter, g_error_copy (self->error));
      g_object_unref (waiter);
    }
  g_object_unref (self);
}

/**
 * cs_recorder_stop:
 * @self: a #CsRecorder
 *
 * Ends the recording: turns tracing off (`tracing_on` = 0), terminates
 * the command if it still runs (SIGTERM), drains the last pages, removes
 * the instance and writes the trace.dat in a thread.  Returns at once;
 * cs_recorder_wait_async() reports the result.  Does nothing unless
 * recording.  Call from the main context's thread; to stop from a signal,
 * use g_unix_signal_add().
 */
void
cs_recorder_stop (CsRecorder *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CS_IS_RECORDER (self));

  if (self->state != CS_RECORDER_STATE_RECORDING)
    return;

  _cs_recorder_instance_write (self, "tracing_on", "0");
  self->stop_us = g_get_monotonic_time ();
  recorder_set_state (self, CS_RECORDER_STATE_STOPPING);
  g_clear_handle_id (&self->duration_id, g_source_remove);
  g_clear_handle_id (&self->health_id, g_source_remove);
  _cs_recorder_kill_command (self, SIGTERM);

  for (guint i = 0; i < self->streams->len; i++)
    cs_record_stream_stop (g_ptr_array_index (self->streams, i));

  task = g_task_new (g_object_ref (self), self->cancellable, finish_done_cb, NULL);
  g_task_set_source_tag (task, cs_recorder_stop);
  g_task_run_in_thread (task, finish_thread);
}

/**
 * cs_recorder_abort:
 * @self: a #CsRecorder
 *
 * Ends the recording at once without writing anything: the command is
 * killed, tracefs restored and the temporary files removed.  Blocks until
 * the streams have ended (a fraction of a second).  While the file is being
 * written (stopping), cancels the write instead.
 */
void
cs_recorder_abort (CsRecorder *self)
{
  g_return_if_fail (CS_IS_RECORDER (self));

  if (self->state == CS_RECORDER_STATE_STOPPING)
    {
      g_cancellable_cancel (self->cancellable);
      return;
    }
  if (self->state != CS_RECORDER_STATE_RECORDING)
    return;

  g_clear_handle_id (&self->duration_id, g_source_remove);
  g_clear_handle_id (&self->health_id, g_source_remove);
  _cs_recorder_kill_command (self, SIGKILL);
  _cs_recorder_restore_tracefs (self);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_object (&self->writer);
  g_set_error_literal (&self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       _("The recording was aborted"));
  recorder_set_state (self, CS_RECORDER_STATE_FAILED);
}

/**
 * cs_recorder_wait_async:
 * @self: a #CsRecorder
 * @cancellable: (nullable): stops waiting (not the recording)
 * @callback: called in the caller's main context when the recording has
 *   ended, tracefs is restored and the file written (or not)
 * @user_data: for @callback
 *
 * Waits for the end of the recording, whatever ends it.
 */
void
cs_recorder_wait_async (CsRecorder          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (CS_IS_RECORDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cs_recorder_wait_async);

  if (self->state == CS_RECORDER_STATE_DONE)
    g_task_return_boolean (task, TRUE);
  else if (self->state == CS_RECORDER_STATE_FAILED)
    g_task_return_error (task, self->error != NULL ? g_error_copy (self->error)
                                                   : g_error_new_literal (CS_RECORD_ERROR,
                                                                          CS_RECORD_ERROR_FAILED,
                                                                          _("The recording failed")));
  else
    {
      self->waiters = g_list_append (self->waiters, task);
      return;
    }
  g_object_unref (task);
}

/**
 * cs_recorder_wait_finish:
 * @self: a #CsRecorder
 * @result: the result given to the callback
 * @error: return location for the recording's #CS_RECORD_ERROR (e.g.
 *   %CS_RECORD_ERROR_DISK_FULL while streaming or writing)
 *
 * Returns: whether the trace.dat was written to the output path
 */
gboolean
cs_recorder_wait_finish (CsRecorder    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                 */

/**
 * cs_recorder_new:
 * @options: what to record (copied)
 *
 * Returns: (transfer full): a recorder, not started
 */
CsRecorder *
cs_recorder_new (const CsRecordOptions *options)
{
  CsRecorder *self;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (CS_TYPE_RECORDER, NULL);
  self->options = cs_record_options_copy (options);
  return self;
}

/**
 * cs_recorder_get_state:
 * @self: a #CsRecorder
 *
 * Returns: where the recording is (#CsRecorder:state)
 */
CsRecorderState
cs_recorder_get_state (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), CS_RECORDER_STATE_FAILED);
  return self->state;
}

/**
 * cs_recorder_get_options:
 * @self: a #CsRecorder
 *
 * Returns: (transfer none): the options it records with
 */
const CsRecordOptions *
cs_recorder_get_options (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), NULL);
  return self->options;
}

/**
 * cs_recorder_get_instance_name:
 * @self: a #CsRecorder
 *
 * Returns: (nullable) (transfer none): "chronoscope-<pid>", the tracefs
 *   instance under `instances/`, once started
 */
const char *
cs_recorder_get_instance_name (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), NULL);
  return self->instance_name;
}

/**
 * cs_recorder_get_n_cpus:
 * @self: a #CsRecorder
 *
 * Returns: the number of CPUs (`per_cpu/cpuN` folders), once started
 */
guint
cs_recorder_get_n_cpus (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), 0);
  return self->n_cpus;
}

/**
 * cs_recorder_dup_stats:
 * @self: a #CsRecorder
 *
 * Live statistics while recording (reads `per_cpu/cpuN/stats` of the
 * instance), final ones afterwards.  Main context's thread only.
 *
 * Returns: (transfer full) (element-type CsRecordCpuStats): one entry per
 *   CPU, empty before start
 */
GArray *
cs_recorder_dup_stats (CsRecorder *self)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (CsRecordCpuStats));

  g_return_val_if_fail (CS_IS_RECORDER (self), out);

  if (self->final_stats != NULL)
    {
      g_array_append_vals (out, self->final_stats->data, self->final_stats->len);
      return out;
    }

  for (guint cpu = 0; self->streams != NULL && cpu < self->streams->len; cpu++)
    {
      CsRecordStream *stream = g_ptr_array_index (self->streams, cpu);
      CsRecordCpuStats st = { cpu, 0, 0, 0, 0, 0 };
      CsRecordStreamStats ss;
      g_autofree char *text = NULL;

      cs_record_stream_get_stats (stream, &ss);
      st.events = ss.events;
      st.bytes = ss.bytes;
      st.missed_events = ss.missed_events;

      if (self->state == CS_RECORDER_STATE_RECORDING)
        {
          g_autofree char *file = g_strdup_printf ("per_cpu/cpu%u/stats", cpu);
          text = _cs_recorder_instance_read (self, file);
          if (text != NULL)
            st.events += _cs_record_stats_value (text, "entries");
        }
      else if (self->final_stats_text != NULL && self->final_stats_text[cpu] != NULL)
        text = g_strdup (self->final_stats_text[cpu]);

      if (text != NULL)
        {
          st.overrun = _cs_record_stats_value (text, "overrun");
          st.dropped = _cs_record_stats_value (text, "dropped events");
        }
      g_array_append_val (out, st);
    }
  return out;
}

/**
 * cs_recorder_get_elapsed_s:
 * @self: a #CsRecorder
 *
 * Returns: seconds since tracing was turned on, up to the stop
 */
double
cs_recorder_get_elapsed_s (CsRecorder *self)
{
  gint64 end;

  g_return_val_if_fail (CS_IS_RECORDER (self), 0.0);
  if (self->start_us == 0)
    return 0.0;
  end = self->stop_us != 0 ? self->stop_us : g_get_monotonic_time ();
  return (double) (end - self->start_us) / G_USEC_PER_SEC;
}

/**
 * cs_recorder_get_warnings:
 * @self: a #CsRecorder
 *
 * Returns: (transfer none) (array zero-terminated=1): what was given up
 *   to go on (a refused tracer with #CsRecordOptions:tracer_optional)
 */
const char * const *
cs_recorder_get_warnings (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

/**
 * cs_recorder_get_command_pid:
 * @self: a #CsRecorder
 *
 * Returns: the pid of the recorded command, 0 when there is none
 */
GPid
cs_recorder_get_command_pid (CsRecorder *self)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), 0);
  return self->command_pid;
}

/**
 * cs_recorder_get_command_status:
 * @self: a #CsRecorder
 * @wait_status: (out) (optional): the command's wait status (see
 *   g_spawn_check_wait_status())
 *
 * Returns: whether the command has exited
 */
gboolean
cs_recorder_get_command_status (CsRecorder *self,
                                int        *wait_status)
{
  g_return_val_if_fail (CS_IS_RECORDER (self), FALSE);
  if (wait_status != NULL)
    *wait_status = self->command_status;
  return self->command_exited;
}

/**
 * cs_recorder_set_command_stdin_null:
 * @self: a #CsRecorder, not started
 * @null_stdin: whether the command reads /dev/null instead of our stdin
 *
 * The helper keeps its stdin for the window's "stop" lines.
 */
void
cs_recorder_set_command_stdin_null (CsRecorder *self,
                                    gboolean    null_stdin)
{
  g_return_if_fail (CS_IS_RECORDER (self));
  self->command_stdin_null = null_stdin;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_recorder_dispose (GObject *object)
{
  CsRecorder *self = CS_RECORDER (object);

  cs_recorder_abort (self);
  if (self->command_watch_id != 0)
    {
      /* Killed and reaped here: the watch would outlive us. */
      g_clear_handle_id (&self->command_watch_id, g_source_remove);
      _cs_recorder_kill_command (self, SIGKILL);
      waitpid (self->command_pid, NULL, 0);
    }
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_object (&self->writer);

  G_OBJECT_CLASS (cs_recorder_parent_class)->dispose (object);
}

static void
cs_recorder_finalize (GObject *object)
{
  CsRecorder *self = CS_RECORDER (object);

  g_clear_pointer (&self->snapshots, cs_tracedat_growth_free);

  _cs_recorder_restore_tracefs (self);
  cs_record_options_free (self->options);
  g_free (self->tracing_dir);
  g_free (self->instance_name);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self->trace_clock_text);
  g_clear_pointer (&self->kallsyms, g_bytes_unref);
  g_clear_pointer (&self->printk_formats, g_bytes_unref);
  g_ptr_array_unref (self->warnings);
  g_hash_table_unref (self->comms);
  g_clear_error (&self->error);
  g_clear_pointer (&self->final_stats, g_array_unref);
  g_strfreev (self->final_stats_text);
  g_clear_object (&self->cancellable);
  if (self->command_sync_fd >= 0)
    close (self->command_sync_fd);

  G_OBJECT_CLASS (cs_recorder_parent_class)->finalize (object);
}

static void
cs_recorder_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CsRecorder *self = CS_RECORDER (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_recorder_class_init (CsRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_recorder_dispose;
  object_class->finalize = cs_recorder_finalize;
  object_class->get_property = cs_recorder_get_property;

  /**
   * CsRecorder:state:
   *
   * Where the recording is, a #CsRecorderState.
   */
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, CS_RECORDER_STATE_NEW, CS_RECORDER_STATE_FAILED,
                      CS_RECORDER_STATE_NEW,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_recorder_init (CsRecorder *self)
{
  self->command_sync_fd = -1;
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->warnings, NULL);
  self->comms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->cancellable = g_cancellable_new ();
}
