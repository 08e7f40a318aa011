/* cs-record-job.c: a recording run by the privileged helper for the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The window never runs as root.  A job starts chronoscope-record-helper
 * (cs-record-helper-main.c; see cs-cli-record.c for its JSON-lines
 * protocol): through pkexec (polkit action
 * org.chronoscope.Chronoscope.record, which names the installed helper)
 * when the user is not root, directly when the window already is.  The
 * helper's stdout is read asynchronously on the main context: "started"
 * turns the job to recording, "stats" lines update #CsRecordJob:stats
 * once a second, "snapshot" lines (answers to "snapshot" requests, for the
 * live timeline) emit #CsRecordJob::snapshot, "done" or "error" end it.
 *
 * Stop writes a "stop" line and closes the helper's stdin: a root helper
 * cannot be signalled by the user, but it stops on either.  The helper also
 * stops by itself when the window dies (PR_SET_PDEATHSIG).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "cs-record-error.h"
#include "cs-record-job.h"

struct _CsRecordJob
{
  GObject parent_instance;

  /* owned */
  CsRecordOptions *options;
  char *demo;                 /* nullable: a classroom scenario (--demo) */
  char *module_path;          /* nullable: the demo's --module */
  GSubprocess *subprocess;
  GDataInputStream *output;
  GCancellable *cancellable;
  JsonObject *stats;
  JsonObject *result;
  GError *error;
  GPtrArray *warnings;        /* NULL-terminated */
  CsRecordJobState state;
  gboolean output_done;
  gboolean exited;
  gboolean stop_requested;
  gboolean stop_before_start;
};

G_DEFINE_FINAL_TYPE (CsRecordJob, cs_record_job, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  PROP_STATS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SNAPSHOT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_state (CsRecordJob *self, CsRecordJobState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
fail (CsRecordJob *self, GError *error)
{
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
  set_state (self, CS_RECORD_JOB_STATE_FAILED);
}

/* ------------------------------------------------------------------------ */
/* Which program to run                                                      */

/* The helper to run: for a program of a build tree that was not installed
 * (build/gui/chronoscope, and the tests that open a window), the helper
 * of that build tree (BUILD_RECORD_HELPER), never an installed one of
 * another version; else the installed one, which the polkit policy names
 * (LIBEXECDIR).  This process's executable is /proc/self/exe, resolved. */
static const char *
find_helper (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *build_root = realpath (BUILD_ROOT, NULL);

  if (exe != NULL && build_root != NULL && g_str_has_prefix (exe, build_root) &&
      exe[strlen (build_root)] == '/')
    return BUILD_RECORD_HELPER;
  return LIBEXECDIR G_DIR_SEPARATOR_S "chronoscope-record-helper";
}

/**
 * cs_record_job_build_argv:
 * @helper_args: (array zero-terminated=1): the helper's arguments
 *   (cs_record_options_to_args(), or "--list")
 * @error: return location for %CS_RECORD_ERROR_PERMISSION when the user is
 *   not root and pkexec is not installed
 *
 * The command line that runs chronoscope-record-helper: through `pkexec`
 * for a user, directly for root.  The helper is the installed one
 * (`$libexecdir/chronoscope-record-helper`, the path the polkit policy
 * names), or for a program run from a build tree that build tree's
 * (`build/render/cli/chronoscope-record-helper`).
 *
 * Returns: (transfer full) (array zero-terminated=1): the argv, or %NULL
 */
char **
cs_record_job_build_argv (const char * const  *helper_args,
                          GError             **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (geteuid () != 0)
    {
      g_autofree char *pkexec = g_find_program_in_path ("pkexec");

      if (pkexec == NULL)
        {
          g_set_error_literal (error, CS_RECORD_ERROR, CS_RECORD_ERROR_PERMISSION,
                               _("Recording needs root, and pkexec (polkit) is not installed. "
                                 "Install polkit, or record with “sudo chronoscope record” "
                                 "and open the file."));
          return NULL;
        }
      g_strv_builder_add (builder, pkexec);
    }
  g_strv_builder_add (builder, find_helper ());

  g_strv_builder_addv (builder, (const char **) helper_args);
  return g_strv_builder_end (builder);
}

/* ------------------------------------------------------------------------ */
/* The helper's lines                                                        */

static void
handle_line (CsRecordJob *self, const char *line)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonObject *object;
  const char *type;

  if (!json_parser_load_from_data (parser, line, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_debug ("Not a helper line: %s", line);
      return;
    }
  object = json_node_get_object (root);
  type = json_object_get_string_member_with_default (object, "type", "");

  if (strcmp (type, "started") == 0)
    {
      if (self->state == CS_RECORD_JOB_STATE_STARTING)
        set_state (self, CS_RECORD_JOB_STATE_RECORDING);
      if (self->stop_before_start)
        cs_record_job_stop (self);
    }
  else if (strcmp (type, "stats") == 0)
    {
      g_clear_pointer (&self->stats, json_object_unref);
      self->stats = json_object_ref (object);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATS]);
    }
  else if (strcmp (type, "snapshot") == 0)
    {
      g_signal_emit (self, signals[SIGNAL_SNAPSHOT], 0,
                     json_object_get_string_member_with_default (object, "path", NULL),
                     json_object_get_string_member_with_default (object, "message", NULL));
    }
  else if (strcmp (type, "warning") == 0)
    {
      g_ptr_array_insert (self->warnings, (int) self->warnings->len - 1,
                          g_strdup (json_object_get_string_member_with_default (object, "message", "")));
    }
  else if (strcmp (type, "done") == 0)
    {
      g_clear_pointer (&self->result, json_object_unref);
      self->result = json_object_ref (object);
    }
  else if (strcmp (type, "error") == 0)
    {
      const char *code = json_object_get_string_member_with_default (object, "code", "failed");
      const char *message = json_object_get_string_member_with_default (object, "message", "");

      if (strcmp (code, "cancelled") == 0)
        fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, message));
      else
        fail (self, g_error_new_literal (CS_RECORD_ERROR, cs_record_error_from_nick (code), message));
    }
}

/* Both the output's end and the exit are needed to conclude. */
static void
maybe_conclude (CsRecordJob *self)
{
  int status;

  if (!self->output_done || !self->exited || self->state == CS_RECORD_JOB_STATE_FAILED)
    return;

  if (self->result != NULL)
    {
      if (self->stop_before_start)
        fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                         _("The recording was cancelled")));
      else
        set_state (self, CS_RECORD_JOB_STATE_DONE);
      return;
    }

  status = g_subprocess_get_if_exited (self->subprocess) ? g_subprocess_get_exit_status (self->subprocess) : -1;
  if (geteuid () != 0 && (status == 126 || status == 127))
    fail (self, g_error_new_literal (CS_RECORD_ERROR, CS_RECORD_ERROR_PERMISSION,
                                     _("Authentication was dismissed or failed (pkexec): "
                                       "recording needs an administrator’s permission")));
  else if (self->stop_before_start)
    fail (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     _("The recording was cancelled")));
  else
    fail (self, g_error_new (CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                             _("The recording helper ended without a result (exit status %d)"),
                             status));
}

static void read_next_line (CsRecordJob *self);

static void
line_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(CsRecordJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (line == NULL)
    {
      self->output_done = TRUE;
      maybe_conclude (self);
      return;
    }
  handle_line (self, line);
  read_next_line (self);
}

static void
read_next_line (CsRecordJob *self)
{
  g_data_input_stream_read_line_async (self->output, G_PRIORITY_DEFAULT, self->cancellable,
                                       line_cb, g_object_ref (self));
}

static void
wait_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(CsRecordJob) self = user_data;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL))
    return;   /* cancelled: the job is going away */
  self->exited = TRUE;
  maybe_conclude (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_record_job_new:
 * @options: what to record (copied); its output must be an absolute path
 *
 * Returns: (transfer full): a job, not started
 */
CsRecordJob *
cs_record_job_new (const CsRecordOptions *options)
{
  CsRecordJob *self;

  g_return_val_if_fail (options != NULL, NULL);

  self = g_object_new (CS_TYPE_RECORD_JOB, NULL);
  self->options = cs_record_options_copy (options);
  return self;
}

/**
 * cs_record_job_set_demo:
 * @self: a #CsRecordJob, not started
 * @scenario: a classroom scenario (cs_demo_lookup())
 * @module_path: (nullable): a built chronoscope_tracer.ko for the helper to
 *   load, or %NULL for the installed one
 *
 * Makes the job a classroom demo: the helper (`chronoscope-record-helper --demo`) loads
 * the module when needed, records the job's options while the scenario
 * injects its latency, restores everything and says "done" with a "demo"
 * member (see cs-cli-record.c).  Stop has no effect once it runs.
 */
void
cs_record_job_set_demo (CsRecordJob *self,
                        const char  *scenario,
                        const char  *module_path)
{
  g_return_if_fail (CS_IS_RECORD_JOB (self));
  g_return_if_fail (self->state == CS_RECORD_JOB_STATE_IDLE);

  g_free (self->demo);
  self->demo = g_strdup (scenario);
  g_free (self->module_path);
  self->module_path = g_strdup (module_path);
}

/**
 * cs_record_job_start:
 * @self: a #CsRecordJob
 * @error: return location for a %CS_RECORD_ERROR (not root and no pkexec,
 *   bad options) or a `G_SPAWN_ERROR`
 *
 * Starts the helper.  What the helper refuses arrives later, as the
 * %CS_RECORD_JOB_STATE_FAILED state.
 *
 * Returns: whether the helper was started
 */
gboolean
cs_record_job_start (CsRecordJob  *self,
                     GError      **error)
{
  g_auto(GStrv) args = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_val_if_fail (CS_IS_RECORD_JOB (self), FALSE);
  g_return_val_if_fail (self->state == CS_RECORD_JOB_STATE_IDLE, FALSE);

  if (!cs_record_options_validate (self->options, error))
    return FALSE;
  if (!g_path_is_absolute (self->options->output))
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_BAD_OPTION,
                   _("The output “%s” must be an absolute path"), self->options->output);
      return FALSE;
    }

  args = cs_record_options_to_args (self->options);
  if (self->demo != NULL)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      g_strv_builder_addv (builder, (const char **) args);
      g_strv_builder_add_many (builder, "--demo", self->demo, NULL);
      if (self->module_path != NULL)
        g_strv_builder_add_many (builder, "--module", self->module_path, NULL);
      g_strfreev (args);
      args = g_strv_builder_end (builder);
    }
  argv = cs_record_job_build_argv ((const char * const *) args, error);
  if (argv == NULL)
    return FALSE;

  self->subprocess = g_subprocess_newv ((const char * const *) argv,
                                        G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE, error);
  if (self->subprocess == NULL)
    return FALSE;

  self->output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->subprocess));
  set_state (self, CS_RECORD_JOB_STATE_STARTING);
  read_next_line (self);
  g_subprocess_wait_async (self->subprocess, self->cancellable, wait_cb, g_object_ref (self));
  return TRUE;
}

/* Writes @line ("stop\n", "snapshot\n") to the helper without risking
 * SIGPIPE (the helper may have just exited): the signal is blocked in this
 * thread for the write and a pending one is consumed. */
static void
write_line (int fd, const char *line)
{
  sigset_t pipe_set, old_set;
  struct timespec zero = { 0, 0 };
  ssize_t n;

  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_set, &old_set);
  do
    n = write (fd, line, strlen (line));
  while (n < 0 && errno == EINTR);
  if (n < 0 && errno == EPIPE)
    sigtimedwait (&pipe_set, NULL, &zero);
  pthread_sigmask (SIG_SETMASK, &old_set, NULL);
}

/**
 * cs_record_job_stop:
 * @self: a #CsRecordJob
 *
 * Asks the helper to stop: tracing off, the file written, tracefs
 * restored.  Before the recording started (pkexec asking), cancels it.
 */
void
cs_record_job_stop (CsRecordJob *self)
{
  GOutputStream *in;

  g_return_if_fail (CS_IS_RECORD_JOB (self));

  if (self->subprocess == NULL || self->stop_requested)
    return;
  if (self->state == CS_RECORD_JOB_STATE_STARTING)
    self->stop_before_start = TRUE;

  self->stop_requested = TRUE;
  in = g_subprocess_get_stdin_pipe (self->subprocess);
  if (!self->exited)
    write_line (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (in)), "stop\n");
  /* The end of its stdin stops the helper too. */
  g_output_stream_close (in, NULL, NULL);
  if (self->state == CS_RECORD_JOB_STATE_RECORDING)
    set_state (self, CS_RECORD_JOB_STATE_STOPPING);
}

/**
 * cs_record_job_request_snapshot:
 * @self: a #CsRecordJob
 *
 * Asks the helper for a trace.dat of what was recorded so far; it answers
 * with #CsRecordJob::snapshot.  Does nothing unless recording (and not
 * a demo, which does not answer).
 *
 * Returns: whether the request was sent
 */
gboolean
cs_record_job_request_snapshot (CsRecordJob *self)
{
  GOutputStream *in;

  g_return_val_if_fail (CS_IS_RECORD_JOB (self), FALSE);

  if (self->subprocess == NULL || self->stop_requested || self->exited || self->demo != NULL ||
      self->state != CS_RECORD_JOB_STATE_RECORDING)
    return FALSE;
  in = g_subprocess_get_stdin_pipe (self->subprocess);
  write_line (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (in)), "snapshot\n");
  return TRUE;
}

/**
 * cs_record_job_get_state:
 * @self: a #CsRecordJob
 *
 * Returns: where the recording is (#CsRecordJob:state)
 */
CsRecordJobState
cs_record_job_get_state (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), CS_RECORD_JOB_STATE_FAILED);
  return self->state;
}

/**
 * cs_record_job_get_stats:
 * @self: a #CsRecordJob
 *
 * Returns: (nullable) (transfer none): the latest "stats" line: elapsed_s,
 *   events, bytes, overrun, missed and a "cpus" array of the same per CPU
 */
JsonObject *
cs_record_job_get_stats (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), NULL);
  return self->stats;
}

/**
 * cs_record_job_get_result:
 * @self: a #CsRecordJob
 *
 * Returns: (nullable) (transfer none): the "done" line: output, events,
 *   bytes, overrun, missed, size (bytes of the file), elapsed_s
 */
JsonObject *
cs_record_job_get_result (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), NULL);
  return self->result;
}

/**
 * cs_record_job_get_error:
 * @self: a #CsRecordJob
 *
 * Returns: (nullable) (transfer none): why the job failed: a
 *   %CS_RECORD_ERROR from the helper (with its code), or
 *   `G_IO_ERROR_CANCELLED`
 */
const GError *
cs_record_job_get_error (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), NULL);
  return self->error;
}

/**
 * cs_record_job_get_output:
 * @self: a #CsRecordJob
 *
 * Returns: (transfer none): the trace.dat being recorded
 */
const char *
cs_record_job_get_output (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), NULL);
  return self->options->output;
}

/**
 * cs_record_job_get_warnings:
 * @self: a #CsRecordJob
 *
 * Returns: (transfer none) (array zero-terminated=1): what the helper gave
 *   up to go on (a refused tracer)
 */
const char * const *
cs_record_job_get_warnings (CsRecordJob *self)
{
  g_return_val_if_fail (CS_IS_RECORD_JOB (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_record_job_dispose (GObject *object)
{
  CsRecordJob *self = CS_RECORD_JOB (object);

  /* The helper finishes its file and restores tracefs on its own. */
  cs_record_job_stop (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->output);
  g_clear_object (&self->subprocess);

  G_OBJECT_CLASS (cs_record_job_parent_class)->dispose (object);
}

static void
cs_record_job_finalize (GObject *object)
{
  CsRecordJob *self = CS_RECORD_JOB (object);

  cs_record_options_free (self->options);
  g_free (self->demo);
  g_free (self->module_path);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->stats, json_object_unref);
  g_clear_pointer (&self->result, json_object_unref);
  g_clear_error (&self->error);
  g_ptr_array_unref (self->warnings);

  G_OBJECT_CLASS (cs_record_job_parent_class)->finalize (object);
}

static void
cs_record_job_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CsRecordJob *self = CS_RECORD_JOB (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_STATS:
      g_value_set_boxed (value, self->stats);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_record_job_class_init (CsRecordJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_record_job_dispose;
  object_class->finalize = cs_record_job_finalize;
  object_class->get_property = cs_record_job_get_property;

  /**
   * CsRecordJob:state:
   *
   * Where the recording is, a #CsRecordJobState.
   */
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, CS_RECORD_JOB_STATE_IDLE, CS_RECORD_JOB_STATE_FAILED,
                      CS_RECORD_JOB_STATE_IDLE,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsRecordJob:stats:
   *
   * The latest live statistics, notified about once a second.
   */
  properties[PROP_STATS] =
    g_param_spec_boxed ("stats", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CsRecordJob::snapshot:
   * @job: the job
   * @path: (nullable): the trace.dat of what was recorded so far, owned by
   *   the user; the receiver removes it when done with it
   * @message: (nullable): why no snapshot was written (@path is %NULL)
   *
   * The helper's answer to cs_record_job_request_snapshot().
   */
  signals[SIGNAL_SNAPSHOT] =
    g_signal_new ("snapshot", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
cs_record_job_init (CsRecordJob *self)
{
  self->cancellable = g_cancellable_new ();
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->warnings, NULL);
}
