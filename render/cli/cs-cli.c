/* cs-cli.c: the headless commands of the chronoscope executable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each command loads the recording through the index worker (CsIndexJob, which
 * reuses the cached index when there is one) and reports failures as one
 * line on stderr that names the file, with exit status 1.
 *
 * index-worker is what CsIndexJob runs in a child process so that a hostile
 * recording can only take down the worker.  Its protocol on stdout, one line
 * each:
 *
 *   progress <fraction 0..1>   (coalesced to changes of 0.1 %)
 *   temporary <path>           (first line: where a build writes until it
 *                               renames, for the parent to remove should
 *                               the worker be killed)
 *   position <cpu> <offset>    (where the scan is, at most 4 a second while
 *                               it moves on: see CsIndexPositionFunc)
 *   working                    (every WORKER_WORKING_INTERVAL_MS while a
 *                               plugin pass runs: a pass reads the index,
 *                               not the recording, and its end may compute
 *                               for minutes without a fraction to give, as
 *                               a critical path over a long recording does;
 *                               the parent's watchdog guards the scan of
 *                               the recording, CsIndexJob)
 *   done <index path>          (last line on success, exit status 0)
 *   error <message>            (last line on failure, exit status 1; 2 for
 *                              a pass whose parameter names what the
 *                              recording lacks, CS_PLUGIN_ERROR_USAGE)
 *
 * With CHRONOSCOPE_INDEX_STEPS=1 in its environment, the worker also
 * prints on stderr, as its last line, the CPU time of each step of the
 * build and its own CPU time, one JSON object (see cs-index-steps.c).
 *
 * SIGTERM and SIGINT cancel the build through a GCancellable; the index layer
 * then removes its temporary file, so no half index is left behind.  Should
 * the build not stop within WORKER_CANCEL_GRACE_MS, the worker removes the
 * temporary file itself and exits.  It dies with its parent
 * (PR_SET_PDEATHSIG, and a check that the parent named in
 * CS_INDEX_WORKER_PARENT is still the one).
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "cs-cli.h"
#include "cs-cli-clock.h"
#include "cs-cli-demo.h"
#include "cs-cli-plugins.h"
#include "cs-cli-private.h"
#include "cs-cli-progress.h"
#include "cs-index-job.h"
#include "cs-document.h"
#include "cs-index-cache.h"
#include "cs-index-steps.h"
#include "cs-format.h"
#include "cs-plot-args.h"

typedef int (*CsCliCommandFunc) (int argc, char **argv);

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                            */

static void G_GNUC_PRINTF (2, 3)
cli_fail (const char *command,
          const char *format,
          ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "chronoscope %s: %s\n", command, message);
}

/* Reports @error about @path, naming the file once even when the index
 * layer's message already names it. */
static void
cli_fail_file (const char   *command,
               const char   *path,
               const GError *error)
{
  g_autofree char *basename = g_path_get_basename (path);

  if (strstr (error->message, basename) != NULL)
    cli_fail (command, "%s", error->message);
  else
    cli_fail (command, "%s: %s", path, error->message);
}

/* A missing file, a directory or an unreadable file are reported here with
 * the system's own words before the index layer sees the path. */
static gboolean
cli_check_file (const char  *path,
                GError     **error)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return FALSE;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                           _("Not a regular file"));
      return FALSE;
    }

  if (g_access (path, R_OK) != 0)
    {
      int saved_errno = errno;
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                           g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

typedef struct {
  GMainLoop *loop;
  CsDocument *document;
  GError *error;
} CliJobWait;

static void
cli_job_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  CliJobWait *wait = user_data;

  wait->document = cs_index_job_run_finish (CS_INDEX_JOB (source), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

/* The index is built by the same worker process the window uses, so that a
 * recording that crashes or hangs the parser takes down only the worker
 * and the command still reports a clear error. */
static CsDocument *
cli_load_document (const char  *command,
                   const char  *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(CsIndexJob) job = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(CsCliProgress) progress = NULL;
  CliJobWait wait = { 0 };

  if (!cli_check_file (path, &error))
    {
      cli_fail_file (command, path, error);
      return NULL;
    }

  file = g_file_new_for_path (path);
  job = cs_index_job_new (file);
  /* No command shows event text at once: the formats are read if needed. */
  cs_index_job_set_read_formats (job, FALSE);
  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  progress = cs_cli_progress_new_indexing (path);
  cs_cli_progress_watch_job (progress, job);
  cs_index_job_run_async (job, NULL, cli_job_done_cb, &wait);
  g_main_loop_run (loop);
  g_clear_pointer (&progress, cs_cli_progress_free);

  if (wait.document == NULL)
    cli_fail_file (command, path, wait.error);
  g_clear_error (&wait.error);

  return wait.document;
}

/* Parses the options of @command; argv[0] is the command's name.  On success
 * *@path is the one FILE argument.  (cs-cli-private.h) */
gboolean
_cs_cli_parse (const char    *command,
               const char    *parameter_string,
               const char    *summary,
               GOptionEntry  *entries,
               int            argc,
               char         **argv,
               const char   **path)
{
  g_autoptr(GOptionContext) context = g_option_context_new (parameter_string);
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("chronoscope %s", command);

  g_set_prgname (prgname);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      cli_fail (command, "%s", error->message);
      return FALSE;
    }

  if (argc != 2)
    {
      cli_fail (command, "%s", argc < 2 ? _("Missing FILE argument (see --help)")
                                        : _("Too many arguments (see --help)"));
      return FALSE;
    }

  *path = argv[1];
  return TRUE;
}

static const char *
cli_compression (CsDocument *document)
{
  const char *compression = cs_document_get_compression (document);

  return compression != NULL && *compression != '\0' ? compression : "none";
}

static char *
cli_event_type_key (const CsEventType *type)
{
  return g_strdup_printf ("%s:%s", type->system, type->name);
}

/* Event types that occur, most frequent first, then by name. */
static int
cli_compare_types (gconstpointer a,
                   gconstpointer b)
{
  const CsEventType *type_a = *(const CsEventType * const *) a;
  const CsEventType *type_b = *(const CsEventType * const *) b;
  int cmp;

  if (type_a->n_events != type_b->n_events)
    return type_a->n_events > type_b->n_events ? -1 : 1;

  cmp = g_strcmp0 (type_a->system, type_b->system);
  return cmp != 0 ? cmp : g_strcmp0 (type_a->name, type_b->name);
}

static GPtrArray *
cli_dup_used_types (CsDocument *document)
{
  GPtrArray *types = g_ptr_array_new ();
  guint n_types = cs_document_get_n_event_types (document);

  for (guint i = 0; i < n_types; i++)
    {
      const CsEventType *type = cs_document_get_event_type (document, i);

      if (type != NULL && type->n_events > 0)
        g_ptr_array_add (types, (gpointer) type);
    }

  g_ptr_array_sort (types, cli_compare_types);
  return types;
}

/* ------------------------------------------------------------------------ */
/* info                                                                      */

static gboolean
cli_info_print_json (CsDocument        *document,
                     CsPluginDocument  *plugins,
                     CsCliClock        *clock,
                     const char        *peer_path,
                     GError           **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GPtrArray) types = cli_dup_used_types (document);
  g_autofree char *text = NULL;
  guint n_cpus = cs_document_get_n_cpus (document);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, cs_document_get_trace_path (document));
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, cs_document_get_source_format (document));
  {
    guint64 first_bad = 0;
    guint64 n_bad = cs_document_get_n_bad_lines (document, &first_bad);

    json_builder_set_member_name (builder, "n_bad_lines");
    json_builder_add_int_value (builder, (gint64) n_bad);
    json_builder_set_member_name (builder, "first_bad_line");
    json_builder_add_int_value (builder, (gint64) first_bad);
  }
  json_builder_set_member_name (builder, "file_version");
  json_builder_add_int_value (builder, cs_document_get_file_version (document));
  json_builder_set_member_name (builder, "compression");
  json_builder_add_string_value (builder, cli_compression (document));
  json_builder_set_member_name (builder, "clock");
  json_builder_add_string_value (builder, cs_document_get_clock (document));
  /* What the clock truly is and how it relates to a peer (issue 25). */
  if (clock != NULL)
    cs_cli_clock_add_json (clock, peer_path, builder);
  json_builder_set_member_name (builder, "n_cpus");
  json_builder_add_int_value (builder, n_cpus);
  json_builder_set_member_name (builder, "n_events");
  json_builder_add_int_value (builder, (gint64) cs_document_get_n_events (document));

  /* Like trace-cmd report, the maps list only what occurs: CPUs and event
   * types with at least one event.  n_cpus says how many CPUs there were. */
  json_builder_set_member_name (builder, "cpus");
  json_builder_begin_object (builder);
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (document, cpu);
      char key[16];

      if (info == NULL || info->n_events == 0)
        continue;
      g_snprintf (key, sizeof key, "%u", info->cpu);
      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, (gint64) info->n_events);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "events");
  json_builder_begin_object (builder);
  for (guint i = 0; i < types->len; i++)
    {
      const CsEventType *type = g_ptr_array_index (types, i);
      g_autofree char *key = cli_event_type_key (type);

      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, (gint64) type->n_events);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "first_ns");
  json_builder_add_int_value (builder, cs_document_get_first_ns (document));
  json_builder_set_member_name (builder, "last_ns");
  json_builder_add_int_value (builder, cs_document_get_last_ns (document));
  json_builder_set_member_name (builder, "duration_ns");
  json_builder_add_int_value (builder, cs_document_get_last_ns (document) -
                                       cs_document_get_first_ns (document));
  /* The members of the enabled plugins: the kmod plugin's sections and
   * wakeup latencies are what the kmod guest test checks on the host. */
  if (!cs_cli_plugins_add_json (plugins, builder, error))
    return FALSE;
  json_builder_end_object (builder);

  text = cs_format_json (builder);
  g_print ("%s\n", text);
  return TRUE;
}

/* What the file is ("ftrace text (trace_pipe), 4 CPUs") and, for trace
 * text, the lines that were not understood (issue 14). */
static void
cli_info_print_source (CsDocument *document)
{
  guint n_cpus = cs_document_get_n_cpus (document);
  guint64 first_bad = 0;
  guint64 n_bad = cs_document_get_n_bad_lines (document, &first_bad);
  g_autofree char *cpus = g_strdup_printf (ngettext ("%u CPU", "%u CPUs", n_cpus), n_cpus);

  /* TRANSLATORS: the kind of file ("ftrace text (trace_pipe)"), then "4 CPUs" */
  g_print ("%-14s %s, %s\n", _("Format:"), cs_document_get_source_format (document), cpus);
  if (n_bad > 0)
    {
      g_autofree char *lines = g_strdup_printf (ngettext ("%" PRIu64 " line not understood",
                                                          "%" PRIu64 " lines not understood",
                                                          n_bad), n_bad);
      g_print ("%-14s ", _("Text:"));
      /* TRANSLATORS: "3 lines not understood", then the first line's number */
      g_print (_("%s, first at line %" PRIu64 "\n"), lines, first_bad);
    }
}

static void
cli_info_print_text (CsDocument *document,
                     CsCliClock *clock,
                     const char *peer_path)
{
  g_autoptr(GPtrArray) types = cli_dup_used_types (document);
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 last_ns = cs_document_get_last_ns (document);
  guint n_cpus = cs_document_get_n_cpus (document);
  g_autofree char *first = cs_format_timestamp (first_ns);
  g_autofree char *last = cs_format_timestamp (last_ns);
  g_autofree char *duration = cs_format_duration (last_ns - first_ns);
  int name_width = 10;

  g_print ("%-14s %s\n", _("File:"), cs_document_get_trace_path (document));
  cli_info_print_source (document);
  g_print ("%-14s %u\n", _("File version:"), cs_document_get_file_version (document));
  g_print ("%-14s %s\n", _("Compression:"), cli_compression (document));
  if (clock != NULL)
    cs_cli_clock_print_text (clock, peer_path);
  else
    g_print ("%-14s %s\n", _("Trace clock:"), cs_document_get_clock (document));
  g_print ("%-14s %u\n", _("CPUs:"), n_cpus);
  g_print ("%-14s %" G_GUINT64_FORMAT "\n", _("Events:"), cs_document_get_n_events (document));
  g_print ("%-14s %s (%" G_GINT64_FORMAT " ns)\n", _("First event:"), first, first_ns);
  g_print ("%-14s %s (%" G_GINT64_FORMAT " ns)\n", _("Last event:"), last, last_ns);
  g_print ("%-14s %s (%" G_GINT64_FORMAT " ns)\n", _("Duration:"), duration, last_ns - first_ns);

  g_print ("\n%s\n", _("Events per CPU:"));
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (document, cpu);

      if (info == NULL)
        continue;
      g_print ("  CPU %-4u %12" G_GUINT64_FORMAT, info->cpu, info->n_events);
      if (info->missed_events > 0)
        g_print (_("  (%" PRIu64 " missed)"), info->missed_events);
      g_print ("\n");
    }

  for (guint i = 0; i < types->len; i++)
    {
      const CsEventType *type = g_ptr_array_index (types, i);
      g_autofree char *key = cli_event_type_key (type);

      name_width = MAX (name_width, (int) strlen (key));
    }

  g_print ("\n%s\n", _("Events per type:"));
  for (guint i = 0; i < types->len; i++)
    {
      const CsEventType *type = g_ptr_array_index (types, i);
      g_autofree char *key = cli_event_type_key (type);

      g_print ("  %-*s %12" G_GUINT64_FORMAT "\n", name_width, key, type->n_events);
    }
}

static int
cli_info (int    argc,
          char **argv)
{
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsCliClock) clock = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  g_autofree char *peer_path = NULL;
  const char *path = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the description as JSON"), NULL },
    { "peer", 0, 0, G_OPTION_ARG_FILENAME, &peer_path,
      N_("The other recording of a KVM host/guest pair: check that they relate and "
         "where the guest's events fall on the host's clock"), N_("FILE") },
    { NULL }
  };

  if (!_cs_cli_parse ("info", _("FILE"),
                      _("Describes a trace-cmd recording (trace.dat): its file version, "
                        "compression, trace clock (and its conversion to ns), its host or "
                        "guests, CPUs, events per CPU and per event type, and time span."),
                      entries, argc, argv, &path))
    return 1;

  document = cli_load_document ("info", path);
  if (document == NULL)
    return 1;

  /* The clock options come from the file itself, not the index. */
  if (g_str_equal (cs_document_get_source_format (document), "trace.dat"))
    {
      clock = cs_cli_clock_new (path, peer_path, cs_document_get_first_ns (document),
                                cs_document_get_last_ns (document), &error);
      /* Alone, info still describes what the index read; a peer that
       * cannot be read fails the command. */
      if (clock == NULL && peer_path != NULL)
        {
          cli_fail_file ("info", path, error);
          return 1;
        }
      g_clear_error (&error);
    }

  if (json)
    {
      g_autoptr(CsPluginDocument) plugins = cs_cli_plugins_open (document, NULL, &error);

      if (plugins == NULL || !cli_info_print_json (document, plugins, clock, peer_path, &error))
        {
          cli_fail_file ("info", path, error);
          return 1;
        }
    }
  else
    cli_info_print_text (document, clock, peer_path);

  return 0;
}

/* ------------------------------------------------------------------------ */
/* index-worker                                                              */

/* How long a cancelled build may take to stop before the worker exits
 * anyway: Cancel and SIGTERM must end it within a second. */
#define WORKER_CANCEL_GRACE_MS 500
#define WORKER_POSITION_INTERVAL_US (250 * G_TIME_SPAN_MILLISECOND)
#define WORKER_WORKING_INTERVAL_MS 1000

typedef struct {
  GMainLoop *loop;
  FILE *protocol;
  GCancellable *cancellable;
  const char *path;
  int last_permille;
  gint64 last_position_us;
  guint grace_id;
  CsDocument *document;
  GError *error;
  CsCliPass pass;             /* --pass: run a plugin pass, not only the index */
  gint in_pass;               /* atomic: the building thread runs the pass */
  guint working_id;
} CliWorker;

/* Called from the building thread. */
static void
cli_worker_position_cb (guint    cpu,
                        guint64  offset,
                        gpointer user_data)
{
  CliWorker *worker = user_data;
  gint64 now = g_get_monotonic_time ();

  if (now - worker->last_position_us < WORKER_POSITION_INTERVAL_US)
    return;
  worker->last_position_us = now;
  if (fprintf (worker->protocol, "position %u %" G_GUINT64_FORMAT "\n", cpu, offset) < 0 ||
      fflush (worker->protocol) != 0)
    g_cancellable_cancel (worker->cancellable);   /* nobody is listening */
}

/* Called from the building thread. */
static void
cli_worker_progress_cb (double   fraction,
                        gpointer user_data)
{
  CliWorker *worker = user_data;
  int permille = (int) (CLAMP (fraction, 0.0, 1.0) * 1000.0);

  if (permille == worker->last_permille)
    return;

  worker->last_permille = permille;
  if (fprintf (worker->protocol, "progress %.3f\n", permille / 1000.0) < 0 ||
      fflush (worker->protocol) != 0)
    g_cancellable_cancel (worker->cancellable);   /* nobody is listening */
}

static void
cli_worker_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  CliWorker *worker = task_data;
  const char *path = g_object_get_data (G_OBJECT (task), "path");

  worker->document = cs_document_load_full (path, cli_worker_progress_cb, cli_worker_position_cb,
                                            worker, cancellable, NULL, &worker->error);
  if (worker->document != NULL && worker->pass.name != NULL)
    {
      g_atomic_int_set (&worker->in_pass, TRUE);
      if (!cs_cli_plugins_run_pass (&worker->pass, worker->document, cli_worker_progress_cb, worker,
                                    cancellable, &worker->error))
        g_clear_object (&worker->document);
      g_atomic_int_set (&worker->in_pass, FALSE);
    }
  g_task_return_boolean (task, TRUE);
}

/* The `working` line (see the top of this file); the main thread's. */
static gboolean
cli_worker_working_cb (gpointer user_data)
{
  CliWorker *worker = user_data;

  if (g_atomic_int_get (&worker->in_pass) &&
      (fprintf (worker->protocol, "working\n") < 0 || fflush (worker->protocol) != 0))
    g_cancellable_cancel (worker->cancellable);   /* nobody is listening */
  return G_SOURCE_CONTINUE;
}

static void
cli_worker_done_cb (GObject      *source_object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  CliWorker *worker = user_data;

  g_main_loop_quit (worker->loop);
}

/* Where this process builds the index of @path, or NULL. */
static char *
cli_worker_dup_temporary_path (const char *path)
{
  g_autofree char *identity = cs_index_cache_compute_identity (path, NULL);
  g_autofree char *index_path = identity != NULL ? cs_index_cache_dup_index_path (identity) : NULL;

  return index_path != NULL ? cs_index_cache_dup_temporary_path (index_path, getpid ()) : NULL;
}

/* The build did not stop in time (stuck in a loop that does not look at
 * the cancellable): remove what it was writing and go. */
static gboolean
cli_worker_grace_cb (gpointer user_data)
{
  CliWorker *worker = user_data;
  g_autofree char *tmp_path = cli_worker_dup_temporary_path (worker->path);

  if (tmp_path != NULL)
    g_unlink (tmp_path);
  fprintf (worker->protocol, "error %s\n", _("Indexing was cancelled"));
  fflush (worker->protocol);
  _exit (1);
}

static gboolean
cli_worker_signal_cb (gpointer user_data)
{
  CliWorker *worker = user_data;

  g_cancellable_cancel (worker->cancellable);
  if (worker->grace_id == 0)
    worker->grace_id = g_timeout_add (WORKER_CANCEL_GRACE_MS, cli_worker_grace_cb, worker);
  return G_SOURCE_CONTINUE;
}

/* The CHRONOSCOPE_INDEX_STEPS line on stderr (see the top of this file). */
static void
cli_worker_print_steps (void)
{
  struct rusage usage;
  double cpu_s = -1;
  g_autofree char *line = NULL;

  if (!cs_index_steps_enabled ())
    return;
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    cpu_s = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
            (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  line = cs_index_steps_dup_json (cpu_s);
  fprintf (stderr, "%s\n", line);
  fflush (stderr);
}

/* Whether the process that started us is gone already (it may die before
 * PR_SET_PDEATHSIG is set): CS_INDEX_WORKER_PARENT names it. */
static gboolean
cli_worker_parent_is_gone (void)
{
  const char *parent = g_getenv ("CS_INDEX_WORKER_PARENT");
  char *end = NULL;
  guint64 pid;

  if (parent == NULL)
    return FALSE;
  pid = g_ascii_strtoull (parent, &end, 10);
  return end != parent && *end == '\0' && (pid_t) pid != getppid ();
}

static int
cli_index_worker (int    argc,
                  char **argv)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) check_error = NULL;
  CliWorker worker = { .last_permille = -1 };
  const char *path = NULL;
  guint sigterm_id, sigint_id;
  int status = 0;
  int protocol_fd;
  GOptionEntry entries[] = {
    { "plugin-file", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &worker.pass.plugin_file, NULL, NULL },
    { "pass", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &worker.pass.name, NULL, NULL },
    { "param", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &worker.pass.param, NULL, NULL },
    { NULL }
  };

  /* The protocol gets stdout to itself: libtracecmd prints warnings such as
   * "File possibly truncated" with printf(), so fd 1 becomes a copy of
   * stderr and the protocol lines go to a private copy of the pipe. */
  fflush (stdout);
  protocol_fd = dup (STDOUT_FILENO);
  if (protocol_fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0 ||
      (worker.protocol = fdopen (protocol_fd, "w")) == NULL)
    {
      printf ("error %s\n", g_strerror (errno));
      return 1;
    }
  /* Line-based: a reader must see each line when it is written. */
  setvbuf (worker.protocol, NULL, _IOLBF, 0);
  /* A parent that went away must not keep us writing to a dead pipe. */
  signal (SIGPIPE, SIG_IGN);
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (cli_worker_parent_is_gone ())
    {
      fprintf (worker.protocol, "error %s\n", _("The window that started the indexer has gone"));
      fclose (worker.protocol);
      return 1;
    }

  if (!_cs_cli_parse ("index-worker", _("FILE"),
                      _("Builds the index of a recording for the window (internal)."),
                      entries, argc, argv, &path))
    {
      fprintf (worker.protocol, "error %s\n", _("Bad arguments to the indexer"));
      fclose (worker.protocol);
      return 1;
    }

  if (!cli_check_file (path, &check_error))
    {
      g_autofree char *basename = g_path_get_basename (path);
      fprintf (worker.protocol, "error %s: %s\n", basename, check_error->message);
      fclose (worker.protocol);
      return 1;
    }

  if (!cs_cli_plugins_load_pass (&worker.pass, &check_error))
    {
      g_autofree char *message = g_strdup (check_error->message);

      fprintf (worker.protocol, "error %s\n", g_strdelimit (message, "\r\n", ' '));
      fclose (worker.protocol);
      return 1;
    }

  {
    g_autofree char *tmp_path = cli_worker_dup_temporary_path (path);

    if (tmp_path != NULL)
      fprintf (worker.protocol, "temporary %s\n", tmp_path);
  }

  worker.loop = g_main_loop_new (NULL, FALSE);
  worker.cancellable = g_cancellable_new ();
  worker.path = path;
  sigterm_id = g_unix_signal_add (SIGTERM, cli_worker_signal_cb, &worker);
  sigint_id = g_unix_signal_add (SIGINT, cli_worker_signal_cb, &worker);

  task = g_task_new (NULL, worker.cancellable, cli_worker_done_cb, &worker);
  g_task_set_task_data (task, &worker, NULL);
  g_object_set_data_full (G_OBJECT (task), "path", g_strdup (path), g_free);
  if (worker.pass.name != NULL)
    worker.working_id = g_timeout_add (WORKER_WORKING_INTERVAL_MS, cli_worker_working_cb, &worker);
  g_task_run_in_thread (task, cli_worker_thread);
  g_main_loop_run (worker.loop);

  g_source_remove (sigterm_id);
  g_source_remove (sigint_id);
  g_clear_handle_id (&worker.grace_id, g_source_remove);
  g_clear_handle_id (&worker.working_id, g_source_remove);

  if (worker.document != NULL)
    {
      fprintf (worker.protocol, "done %s\n", worker.pass.db_path != NULL
               ? worker.pass.db_path : cs_document_get_index_path (worker.document));
    }
  else
    {
      g_autofree char *message = g_strdup (worker.error != NULL ? worker.error->message
                                                                : _("The indexer failed"));
      g_strdelimit (message, "\r\n", ' ');
      fprintf (worker.protocol, "error %s\n", message);
      status = cs_cli_plugins_worker_status (worker.error);
    }

  if (fclose (worker.protocol) != 0)
    status = 1;
  cli_worker_print_steps ();
  /* An index in a temporary folder is the parent's to remove now. */
  if (worker.document != NULL)
    cs_index_cache_keep_temporaries ();
  g_clear_object (&worker.document);
  g_clear_error (&worker.error);
  cs_cli_pass_clear (&worker.pass);
  g_clear_object (&worker.cancellable);
  g_main_loop_unref (worker.loop);
  return status;
}

/* ------------------------------------------------------------------------ */
/* What the commands in other files share (cs-cli-private.h)                 */

CsDocument *
_cs_cli_load_document (const char *command,
                       const char *path)
{
  return cli_load_document (command, path);
}

void
_cs_cli_fail_file (const char   *command,
                   const char   *path,
                   const GError *error)
{
  cli_fail_file (command, path, error);
}

void
_cs_cli_fail (const char *command,
              const char *message)
{
  cli_fail (command, "%s", message);
}

/* ------------------------------------------------------------------------ */

static const struct {
  const char *name;
  CsCliCommandFunc func;
} cli_commands[] = {
  { "info", cli_info },
  { "render", cs_cli_render },
  { "index-worker", cli_index_worker },
  { "demo", cs_cli_demo },
  { "query", cs_cli_query },
  { "stats", cs_cli_stats },
};

/**
 * cs_cli_is_command:
 * @name: the first command-line argument
 *
 * Returns: whether @name is one of the headless commands
 */
gboolean
cs_cli_is_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (cli_commands); i++)
    if (g_strcmp0 (name, cli_commands[i].name) == 0)
      return TRUE;
  return FALSE;
}

/**
 * cs_cli_run:
 * @argc: number of arguments
 * @argv: the program's arguments, argv[1] being the command
 *
 * Runs a headless command; GTK is never initialised.
 *
 * Returns: the exit status: 0 on success, 1 on any failure
 */
int
cs_cli_run (int    argc,
            char **argv)
{
  g_return_val_if_fail (argc >= 2, 1);

  for (guint i = 0; i < G_N_ELEMENTS (cli_commands); i++)
    if (g_strcmp0 (argv[1], cli_commands[i].name) == 0)
      return cli_commands[i].func (argc - 1, argv + 1);

  return 1;
}
