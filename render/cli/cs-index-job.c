/* cs-index-job.c: builds a recording's index in a worker process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The window never parses a recording itself: a hostile file that crashes
 * or hangs libtracecmd must take down only a child.  The job runs
 * `/proc/self/exe index-worker FILE` (see cs-cli.c for the line protocol),
 * reads its stdout asynchronously on the main context, turns `progress`
 * lines into the coalesced #CsIndexJob:fraction property, and when the
 * worker has exited opens the finished index with cs_document_open() in a
 * thread, so the main loop never waits for SQLite.  A recording whose
 * index is in the cache already is opened in that thread without a worker
 * (cs_document_open_cached(): the recording is not parsed, the index only
 * checked), so reopening costs no second process.
 *
 * Cancelling the GCancellable sends SIGTERM (the worker cancels its build
 * and removes its temporary file) and, if the worker has not gone after a
 * grace period, SIGKILL.
 *
 * A watchdog is the last line against a recording that makes the worker
 * loop: when no line has come for CS_INDEX_WATCHDOG_SECONDS (default 30,
 * the environment variable of that name overrides it, for tests), the
 * worker is killed and the job fails with "the recording looks damaged at
 * offset N", N from the worker's last `position` line.  A plugin pass,
 * which reads the index, says `working` while it computes (cs-cli.c), so
 * a long one is not taken for a damaged recording.  Whatever way the
 * worker ends, its temporary index (its `temporary` line) and those of
 * other dead workers are removed, so a killed worker leaves nothing in
 * the cache.
 */
#include "config.h"

#include <inttypes.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cs-index-cache.h"
#include "cs-index-job.h"
#include "cs-plugin.h"

#define WORKER_EXECUTABLE     "/proc/self/exe"
#define PROGRESS_INTERVAL_MS  50
#define KILL_GRACE_MS         1000
#define WATCHDOG_DEFAULT_S    30.0
#define WATCHDOG_TICK_MS      250

struct _CsIndexJob
{
  GObject parent_instance;

  /* owned */
  GFile *file;
  GSubprocess *subprocess;
  GDataInputStream *output;
  GTask *task;
  char *index_path;
  char *temporary_path;
  char *error_line;
  double fraction;
  double reported_fraction;
  guint progress_source_id;
  guint kill_source_id;
  guint watchdog_source_id;
  gulong cancelled_id;
  gboolean output_done;
  gboolean exited;
  char *pass_plugin;        /* pass mode (cs_index_job_set_pass()) */
  char *pass_name;
  char *pass_param;
  gboolean skip_formats;    /* cs_index_job_set_read_formats() */

  /* The watchdog's view of the worker. */
  gint64 last_line_us;
  gint64 watchdog_us;
  gboolean watchdog_fired;
  gboolean has_position;
  guint position_cpu;
  guint64 position_offset;
};

G_DEFINE_FINAL_TYPE (CsIndexJob, cs_index_job, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FILE,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void cs_index_job_read_next_line (CsIndexJob *self);

static void
cs_index_job_stop_timers (CsIndexJob *self)
{
  g_clear_handle_id (&self->progress_source_id, g_source_remove);
  g_clear_handle_id (&self->kill_source_id, g_source_remove);
  g_clear_handle_id (&self->watchdog_source_id, g_source_remove);
}

static void
cs_index_job_disconnect_cancellable (CsIndexJob *self)
{
  if (self->task != NULL && self->cancelled_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (self->task), self->cancelled_id);
  self->cancelled_id = 0;
}

static void
cs_index_job_dispose (GObject *object)
{
  CsIndexJob *self = CS_INDEX_JOB (object);

  cs_index_job_stop_timers (self);
  cs_index_job_disconnect_cancellable (self);

  /* Only reached without a pending task: the task holds a reference. */
  if (self->subprocess != NULL && !self->exited)
    g_subprocess_force_exit (self->subprocess);

  g_clear_object (&self->output);
  g_clear_object (&self->subprocess);
  g_clear_object (&self->task);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (cs_index_job_parent_class)->dispose (object);
}

static void
cs_index_job_finalize (GObject *object)
{
  CsIndexJob *self = CS_INDEX_JOB (object);

  g_free (self->index_path);
  g_free (self->temporary_path);
  g_free (self->error_line);
  g_free (self->pass_plugin);
  g_free (self->pass_name);
  g_free (self->pass_param);

  G_OBJECT_CLASS (cs_index_job_parent_class)->finalize (object);
}

static void
cs_index_job_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  CsIndexJob *self = CS_INDEX_JOB (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->reported_fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_index_job_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  CsIndexJob *self = CS_INDEX_JOB (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_index_job_class_init (CsIndexJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_index_job_dispose;
  object_class->finalize = cs_index_job_finalize;
  object_class->get_property = cs_index_job_get_property;
  object_class->set_property = cs_index_job_set_property;

  /**
   * CsIndexJob:file:
   *
   * The recording to index; a local file.
   */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * CsIndexJob:fraction:
   *
   * How much of the index is built, 0.0 .. 1.0; notified at most every
   * 50 ms, on the main context.
   */
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_index_job_init (CsIndexJob *self)
{
}

/**
 * cs_index_job_new:
 * @file: a local trace.dat recording
 *
 * Returns: (transfer full): a job that has not started yet
 */
CsIndexJob *
cs_index_job_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (CS_TYPE_INDEX_JOB, "file", file, NULL);
}

/**
 * cs_index_job_get_file:
 * @self: a #CsIndexJob
 *
 * Returns: (transfer none): the recording
 */
GFile *
cs_index_job_get_file (CsIndexJob *self)
{
  g_return_val_if_fail (CS_IS_INDEX_JOB (self), NULL);

  return self->file;
}

/**
 * cs_index_job_get_fraction:
 * @self: a #CsIndexJob
 *
 * Returns: the last reported progress, 0.0 .. 1.0
 */
double
cs_index_job_get_fraction (CsIndexJob *self)
{
  g_return_val_if_fail (CS_IS_INDEX_JOB (self), 0.0);

  return self->reported_fraction;
}

static gboolean
cs_index_job_report_progress_cb (gpointer user_data)
{
  CsIndexJob *self = user_data;

  self->progress_source_id = 0;
  if (self->reported_fraction != self->fraction)
    {
      self->reported_fraction = self->fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }

  return G_SOURCE_REMOVE;
}

static void
cs_index_job_set_fraction (CsIndexJob *self,
                           double      fraction)
{
  self->fraction = CLAMP (fraction, 0.0, 1.0);

  if (self->progress_source_id == 0)
    self->progress_source_id = g_timeout_add (PROGRESS_INTERVAL_MS,
                                              cs_index_job_report_progress_cb, self);
}

static void
cs_index_job_open_thread (GTask        *task,
                          gpointer      source_object,
                          gpointer      task_data,
                          GCancellable *cancellable)
{
  CsIndexJob *self = source_object;
  g_autofree char *trace_path = g_file_get_path (self->file);
  GError *error = NULL;
  CsDocument *document;

  document = cs_document_open (trace_path, self->index_path, &error);
  if (document == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The event list formats its first rows at once: the recording's event
   * formats and kallsyms are read here rather than on the main thread
   * (unless the caller shows no event text, cs_index_job_set_read_formats()). */
  if (!self->skip_formats)
    cs_document_get_trace_file (document);
  g_task_return_pointer (task, document, g_object_unref);
}

static void
cs_index_job_return_error (CsIndexJob *self,
                           GError     *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  cs_index_job_stop_timers (self);
  self->cancelled_id = 0;   /* disconnected by the caller */
  g_task_return_error (task, error);
}

/* Both the worker's stdout and its exit are known: decide. */
static void
cs_index_job_complete (CsIndexJob *self)
{
  GCancellable *cancellable = g_task_get_cancellable (self->task);
  g_autofree char *basename = g_file_get_basename (self->file);
  g_autoptr(GTask) task = NULL;

  cs_index_job_disconnect_cancellable (self);

  /* A worker killed or stopped on error leaves its temporary index to us
   * (a SIGKILL gives it no chance to clean up). */
  if (g_subprocess_get_if_signaled (self->subprocess) ||
      g_subprocess_get_exit_status (self->subprocess) != 0)
    {
      if (self->temporary_path != NULL)
        {
          g_autofree char *dir = g_path_get_dirname (self->temporary_path);

          g_unlink (self->temporary_path);
          /* Its summary threads' side files and its lock file too, where
           * it wrote them. */
          cs_index_cache_remove_stale_temporaries_in (dir);
        }
      else
        cs_index_cache_remove_stale_temporaries ();
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      cs_index_job_return_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                            _("Indexing was cancelled")));
      return;
    }

  if (self->watchdog_fired)
    {
      double seconds = self->watchdog_us / (double) G_USEC_PER_SEC;

      if (self->has_position)
        cs_index_job_return_error (self,
                                   g_error_new (CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                                                _("The recording “%s” looks damaged at offset %" PRIu64
                                                  " (CPU %u): the indexer made no progress for %.0f s"),
                                                basename, self->position_offset, self->position_cpu,
                                                seconds));
      else
        cs_index_job_return_error (self,
                                   g_error_new (CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                                                _("The recording “%s” looks damaged: the indexer made no progress for %.0f s"),
                                                basename, seconds));
      return;
    }

  if (g_subprocess_get_if_signaled (self->subprocess))
    {
      int signum = g_subprocess_get_term_sig (self->subprocess);

      cs_index_job_return_error (self,
                                 g_error_new (CS_INDEX_ERROR, CS_INDEX_ERROR_WORKER,
                                              _("The indexer crashed (signal %d, %s) while reading “%s”"),
                                              signum, g_strsignal (signum), basename));
      return;
    }

  if (g_subprocess_get_exit_status (self->subprocess) != 0 || self->index_path == NULL)
    {
      if (self->error_line != NULL && self->pass_name != NULL &&
          g_subprocess_get_exit_status (self->subprocess) == 2)
        cs_index_job_return_error (self, g_error_new_literal (CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                                                              self->error_line));
      else if (self->error_line != NULL)
        cs_index_job_return_error (self, g_error_new_literal (CS_INDEX_ERROR, CS_INDEX_ERROR_WORKER,
                                                              self->error_line));
      else
        cs_index_job_return_error (self,
                                   g_error_new (CS_INDEX_ERROR, CS_INDEX_ERROR_WORKER,
                                                _("The indexer stopped without an answer (exit status %d) while reading “%s”"),
                                                g_subprocess_get_exit_status (self->subprocess),
                                                basename));
      return;
    }

  /* Success: open the finished index off the main thread. */
  cs_index_job_stop_timers (self);
  self->reported_fraction = 1.0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);

  task = g_steal_pointer (&self->task);
  if (self->pass_name != NULL)
    {
      /* A pass: its results are written, nothing to open. */
      g_task_return_pointer (task, g_strdup (self->index_path), g_free);
      return;
    }
  g_task_run_in_thread (task, cs_index_job_open_thread);
}

static void
cs_index_job_wait_cb (GObject      *source_object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(CsIndexJob) self = user_data;

  /* wait_finish only fails when cancelled, and we never cancel the wait. */
  g_subprocess_wait_finish (G_SUBPROCESS (source_object), result, NULL);
  self->exited = TRUE;
  g_clear_handle_id (&self->kill_source_id, g_source_remove);

  if (self->output_done)
    cs_index_job_complete (self);
}

static void
cs_index_job_handle_line (CsIndexJob *self,
                          const char *line)
{
  self->last_line_us = g_get_monotonic_time ();

  if (g_str_has_prefix (line, "temporary "))
    {
      /* Only a file of this worker's: `<index>.tmp-<its pid>`. */
      g_autofree char *suffix = g_strdup_printf (".csindex.tmp-%s",
                                                 g_subprocess_get_identifier (self->subprocess));

      if (self->temporary_path == NULL && g_str_has_suffix (line, suffix))
        self->temporary_path = g_strdup (line + strlen ("temporary "));
    }
  else if (g_str_has_prefix (line, "position "))
    {
      guint cpu;
      guint64 offset;

      if (sscanf (line + strlen ("position "), "%u %" G_GUINT64_FORMAT, &cpu, &offset) == 2)
        {
          self->has_position = TRUE;
          self->position_cpu = cpu;
          self->position_offset = offset;
        }
    }
  else if (g_str_has_prefix (line, "progress "))
    {
      char *end = NULL;
      double fraction = g_ascii_strtod (line + strlen ("progress "), &end);

      if (end != NULL && *end == '\0')
        cs_index_job_set_fraction (self, fraction);
    }
  else if (g_str_equal (line, "working"))
    {
      /* A pass computing: the time of the line above is all it says. */
    }
  else if (g_str_has_prefix (line, "done "))
    {
      g_free (self->index_path);
      self->index_path = g_strdup (line + strlen ("done "));
      /* The cache folder could not be written: the worker indexed into a
       * temporary folder, which is ours to remove when we exit. */
      if (cs_index_cache_is_temporary (self->index_path))
        {
          cs_index_cache_adopt_temporary (self->index_path);
          g_message (_("The index cache cannot be written; “%s” was indexed into %s, "
                       "removed when Chronoscope exits"),
                     g_file_peek_path (self->file), self->index_path);
        }
    }
  else if (g_str_has_prefix (line, "error "))
    {
      g_free (self->error_line);
      self->error_line = g_utf8_make_valid (line + strlen ("error "), -1);
    }
  else
    {
      g_debug ("Unexpected line from the indexer: %s", line);
    }
}

static void
cs_index_job_read_line_cb (GObject      *source_object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(CsIndexJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source_object),
                                                    result, NULL, &error);
  if (line != NULL)
    {
      cs_index_job_handle_line (self, line);
      cs_index_job_read_next_line (self);
      return;
    }

  if (error != NULL)
    g_debug ("Reading from the indexer failed: %s", error->message);

  /* End of output: the worker has exited or is about to. */
  self->output_done = TRUE;
  if (self->exited)
    cs_index_job_complete (self);
}

static void
cs_index_job_read_next_line (CsIndexJob *self)
{
  g_data_input_stream_read_line_async (self->output, G_PRIORITY_DEFAULT, NULL,
                                       cs_index_job_read_line_cb, g_object_ref (self));
}

static gboolean
cs_index_job_kill_cb (gpointer user_data)
{
  CsIndexJob *self = user_data;

  self->kill_source_id = 0;
  if (!self->exited)
    g_subprocess_force_exit (self->subprocess);

  return G_SOURCE_REMOVE;
}

static gboolean
cs_index_job_watchdog_cb (gpointer user_data)
{
  CsIndexJob *self = user_data;

  if (self->exited || self->watchdog_fired)
    {
      self->watchdog_source_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (g_get_monotonic_time () - self->last_line_us < self->watchdog_us)
    return G_SOURCE_CONTINUE;

  g_debug ("The indexer said nothing for %.1f s: killing it",
           self->watchdog_us / (double) G_USEC_PER_SEC);
  self->watchdog_fired = TRUE;
  self->watchdog_source_id = 0;
  g_subprocess_force_exit (self->subprocess);
  return G_SOURCE_REMOVE;
}

/* CS_INDEX_WATCHDOG_SECONDS, or the default. */
static gint64
cs_index_job_watchdog_timeout_us (void)
{
  const char *value = g_getenv ("CS_INDEX_WATCHDOG_SECONDS");
  char *end = NULL;
  double seconds = value != NULL ? g_ascii_strtod (value, &end) : 0;

  if (value == NULL || end == value || *end != '\0' || !(seconds > 0) || seconds > 1e6)
    seconds = WATCHDOG_DEFAULT_S;
  return (gint64) (seconds * G_USEC_PER_SEC);
}

/* May run in any thread (g_cancellable_cancel()'s); we only ever cancel on
 * the main thread, where the job lives. */
static void
cs_index_job_cancelled_cb (GCancellable *cancellable,
                           CsIndexJob   *self)
{
  if (self->exited || self->subprocess == NULL)
    return;

  g_subprocess_send_signal (self->subprocess, SIGTERM);
  if (self->kill_source_id == 0)
    self->kill_source_id = g_timeout_add (KILL_GRACE_MS, cs_index_job_kill_cb, self);
}

/* Starts the worker for @task's recording at @path, in the environment
 * @launcher took when the job was asked to run. */
static void
cs_index_job_spawn (CsIndexJob          *self,
                    GTask               *task,
                    GSubprocessLauncher *launcher,
                    const char          *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *basename = g_file_get_basename (self->file);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GInputStream *stdout_pipe;

  if (g_task_return_error_if_cancelled (task))
    return;
  if (self->pass_name != NULL)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();

      g_ptr_array_add (argv, (gpointer) WORKER_EXECUTABLE);
      g_ptr_array_add (argv, (gpointer) "index-worker");
      g_ptr_array_add (argv, (gpointer) "--plugin-file");
      g_ptr_array_add (argv, self->pass_plugin);
      g_ptr_array_add (argv, (gpointer) "--pass");
      g_ptr_array_add (argv, self->pass_name);
      if (self->pass_param != NULL)
        {
          g_ptr_array_add (argv, (gpointer) "--param");
          g_ptr_array_add (argv, self->pass_param);
        }
      g_ptr_array_add (argv, (gpointer) "--");
      g_ptr_array_add (argv, (gpointer) path);
      g_ptr_array_add (argv, NULL);
      self->subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                       &error);
    }
  else
    self->subprocess = g_subprocess_launcher_spawn (launcher, &error,
                                                    WORKER_EXECUTABLE, "index-worker",
                                                    "--", path, NULL);
  if (self->subprocess == NULL)
    {
      g_task_return_new_error (task, CS_INDEX_ERROR, CS_INDEX_ERROR_WORKER,
                               _("Could not start the indexer for “%s”: %s"),
                               basename, error->message);
      return;
    }

  self->task = g_object_ref (task);
  stdout_pipe = g_subprocess_get_stdout_pipe (self->subprocess);
  self->output = g_data_input_stream_new (stdout_pipe);
  g_data_input_stream_set_newline_type (self->output, G_DATA_STREAM_NEWLINE_TYPE_LF);

  g_subprocess_wait_async (self->subprocess, NULL, cs_index_job_wait_cb, g_object_ref (self));
  cs_index_job_read_next_line (self);

  self->last_line_us = g_get_monotonic_time ();
  self->watchdog_us = cs_index_job_watchdog_timeout_us ();
  self->watchdog_source_id = g_timeout_add (WATCHDOG_TICK_MS, cs_index_job_watchdog_cb, self);

  if (cancellable != NULL)
    self->cancelled_id = g_cancellable_connect (cancellable,
                                                G_CALLBACK (cs_index_job_cancelled_cb),
                                                self, NULL);
}

/* What the worker needs once the cache has been looked at. */
typedef struct {
  char *path;
  GSubprocessLauncher *launcher;
} Reuse;

static void
reuse_free (gpointer data)
{
  Reuse *reuse = data;

  g_free (reuse->path);
  g_clear_object (&reuse->launcher);
  g_free (reuse);
}

/* A reopened recording's index, fresh in the cache, opened here without
 * a worker: the worker's process would start, open the same index to
 * check it and exit (~0.15 s of CPU on the benchmark machines, half of
 * `chronoscope render`'s); the recording is not parsed either way.  The
 * task's result: the document, or %NULL (no error) for the worker. */
static void
cs_index_job_reuse_thread (GTask        *probe,
                           gpointer      source_object,
                           gpointer      task_data,
                           GCancellable *cancellable)
{
  CsIndexJob *self = source_object;
  const Reuse *reuse = task_data;
  g_autoptr(CsDocument) document = cs_document_open_cached (reuse->path, NULL);

  /* As cs_index_job_open_thread() does. */
  if (document != NULL && !self->skip_formats)
    cs_document_get_trace_file (document);
  g_task_return_pointer (probe, g_steal_pointer (&document), g_object_unref);
}

static void
cs_index_job_reuse_cb (GObject      *source_object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  CsIndexJob *self = CS_INDEX_JOB (source_object);
  g_autoptr(GTask) task = user_data;
  const Reuse *reuse = g_task_get_task_data (G_TASK (result));
  CsDocument *document = g_task_propagate_pointer (G_TASK (result), NULL);

  if (document != NULL)
    {
      self->reported_fraction = 1.0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
      g_task_return_pointer (task, document, g_object_unref);
      return;
    }
  cs_index_job_spawn (self, task, reuse->launcher, reuse->path);
}

/**
 * cs_index_job_run_async:
 * @self: a #CsIndexJob that has not run yet
 * @cancellable: (nullable): cancels the build: the worker is stopped and the
 *   job fails with %G_IO_ERROR_CANCELLED
 * @callback: called on the calling thread's main context when done
 * @user_data: closure
 *
 * Builds (or reuses) the index of the recording in a worker process and
 * opens it; an index already in the cache for this recording is opened
 * without the worker.  Call from the main thread.
 */
void
cs_index_job_run_async (CsIndexJob          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) probe = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *path = NULL;
  g_autofree char *basename = NULL;
  Reuse *reuse;

  g_return_if_fail (CS_IS_INDEX_JOB (self));
  g_return_if_fail (self->task == NULL && self->subprocess == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cs_index_job_run_async);

  basename = g_file_get_basename (self->file);
  path = g_file_get_path (self->file);
  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("“%s” is not a local file; copy it to this computer first"),
                               basename);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* The worker gets the environment of now, even when it starts after the
   * look at the cache (a launcher copies it when made). */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  {
    /* So that the worker sees whether we died before it could ask to die
     * with us (cs-cli.c). */
    g_autofree char *parent = g_strdup_printf ("%d", (int) getpid ());

    g_subprocess_launcher_setenv (launcher, "CS_INDEX_WORKER_PARENT", parent, TRUE);
  }
  if (self->pass_name != NULL)
    {
      cs_index_job_spawn (self, task, launcher, path);
      return;
    }
  reuse = g_new0 (Reuse, 1);
  reuse->path = g_steal_pointer (&path);
  reuse->launcher = g_steal_pointer (&launcher);
  probe = g_task_new (self, NULL, cs_index_job_reuse_cb, g_steal_pointer (&task));
  g_task_set_task_data (probe, reuse, reuse_free);
  g_task_run_in_thread (probe, cs_index_job_reuse_thread);
}

/**
 * cs_index_job_run_finish:
 * @self: a #CsIndexJob
 * @result: the result given to the callback
 * @error: %G_IO_ERROR_CANCELLED when cancelled, %CS_INDEX_ERROR_WORKER with
 *   the worker's message when it failed or crashed, or what
 *   cs_document_open() reports
 *
 * Returns: (transfer full): the opened document, or %NULL on error
 */
CsDocument *
cs_index_job_run_finish (CsIndexJob    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (CS_IS_INDEX_JOB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * cs_index_job_set_read_formats:
 * @self: a job not started yet
 * @read_formats: whether the document the job returns has already read
 *   the recording's event formats and kallsyms (the default, %TRUE)
 *
 * By default the job reads the recording's event formats in its thread,
 * so that the window's event list can format its first rows without
 * blocking the main loop; that parse takes about 0.1 s on a large
 * recording.  A caller that draws without event text (`chronoscope
 * render`, `info`) passes %FALSE: the document then reads them on first
 * use (cs_document_get_trace_file()).  Main thread.
 */
void
cs_index_job_set_read_formats (CsIndexJob *self,
                               gboolean    read_formats)
{
  g_return_if_fail (CS_IS_INDEX_JOB (self));
  g_return_if_fail (self->task == NULL);

  self->skip_formats = !read_formats;
}

/**
 * cs_index_job_set_pass:
 * @self: a job not started yet
 * @plugin_path: the plugin's file, which the worker loads
 * @pass: the name of one of its passes
 * @param: (nullable): the pass's parameter
 *
 * Makes the job run a plugin pass (index-plugin/cs-plugin-pass-runner.c)
 * over the recording's index in the worker, instead of building the
 * index: same worker, progress and cancellation.  Finish it with
 * cs_index_job_run_pass_finish().
 */
void
cs_index_job_set_pass (CsIndexJob *self,
                       const char *plugin_path,
                       const char *pass,
                       const char *param)
{
  g_return_if_fail (CS_IS_INDEX_JOB (self));
  g_return_if_fail (plugin_path != NULL && pass != NULL);
  g_return_if_fail (self->subprocess == NULL);

  g_free (self->pass_plugin);
  g_free (self->pass_name);
  g_free (self->pass_param);
  self->pass_plugin = g_strdup (plugin_path);
  self->pass_name = g_strdup (pass);
  self->pass_param = g_strdup (param);
}

/**
 * cs_index_job_run_pass_finish:
 * @self: a job made a pass with cs_index_job_set_pass()
 * @result: the result given to the callback
 * @error: %G_IO_ERROR_CANCELLED when cancelled, %CS_PLUGIN_ERROR_USAGE when
 *   the parameter names what the recording lacks, %CS_INDEX_ERROR_WORKER
 *   with the worker's message (the pass's own) when it failed or crashed
 *
 * Returns: %TRUE when the pass's results are written
 */
gboolean
cs_index_job_run_pass_finish (CsIndexJob    *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_autofree char *db_path = NULL;

  g_return_val_if_fail (CS_IS_INDEX_JOB (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  db_path = g_task_propagate_pointer (G_TASK (result), error);
  return db_path != NULL;
}
