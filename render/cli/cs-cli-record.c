/* cs-cli-record.c: `chronoscope record` and the window's record helper.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both run a CsRecorder (index/capture/) in a GLib main loop.  SIGINT,
 * SIGTERM and SIGHUP stop the recording like the Stop button: tracing
 * off, last pages drained, tracefs restored, trace.dat written.  A second
 * signal while the file is written cancels the write (nothing is left).
 *
 * `chronoscope record` shows its statistics on stderr: on a terminal as
 * one progress line redrawn in place once a second ("Recording: 3.0 s,
 * 12345 events (4115/s), 1.2 MB written, 0 overruns", cs-cli-progress.c),
 * otherwise as one line per second, a log; with --quiet/-q neither.
 *
 * chronoscope-record-helper (cs-record-helper-main.c, a program of its own
 * that links no GTK) is what the window starts, as root through pkexec (or
 * directly when the window runs as root).  It takes the same
 * options and speaks JSON lines on stdout, one object each:
 *
 *   {"type":"started","instance":"chronoscope-PID","output":PATH,"n_cpus":N,"command_pid":P}
 *   {"type":"warning","message":TEXT}
 *   {"type":"stats","elapsed_s":S,"events":N,"bytes":N,"overrun":N,"missed":N,
 *    "cpus":[{"cpu":0,"events":N,"bytes":N,"overrun":N,"dropped":N,"missed":N},...]}
 *   {"type":"done","output":PATH,"events":N,"bytes":N,"size":FILE_BYTES}   (exit 0)
 *   {"type":"error","code":NICK,"message":TEXT}                             (exit 1)
 *
 * A line "snapshot" on stdin while recording asks for a trace.dat of what
 * was recorded so far (cs_recorder_write_snapshot()), written next to the
 * output as a hidden ".NAME.live-N.dat" owned by the user; the answer is
 *
 *   {"type":"snapshot","path":PATH,"seq":N,"events":N}
 *   {"type":"snapshot","seq":N,"message":TEXT}                   (not written)
 *
 * The window indexes it for the live timeline and removes it once it shows
 * a newer one; the helper removes those left when it exits.
 *
 * NICK is cs_record_error_to_nick() of the CS_RECORD_ERROR code ("failed"
 * for a demo's CS_DEMO_ERROR).
 *
 * With --demo NAME [--module PATH.ko] [--demo-cpu N] it runs a classroom
 * scenario (index/demo/cs-demo.c) with the given options instead, as
 * `chronoscope demo` does, and says "started" when it begins and "done"
 * with a "demo" member {"scenario":NAME,"cpu":N,"pid":P,"comm":C} when the
 * file is written; the window then finds the markers in the recording.  A
 * demo lasts well under a second, so it does not stop early.  A line
 * "stop" on stdin, or the end of stdin, stops the recording; so do SIGTERM
 * and the death of the parent (PR_SET_PDEATHSIG).  With --list, it prints
 * {"type":"capabilities","events":[...],"tracers":[...],"clocks":[...]}
 * for the record panel, which cannot read tracefs unprivileged.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>
#include <json-glib/json-glib.h>

#include "cs-cli-progress.h"
#include "cs-cli-record.h"
#include "cs-demo.h"
#include "cs-format.h"
#include "cs-recorder.h"

#define STATS_INTERVAL_MS 1000

typedef struct {
  GMainLoop *loop;
  CsRecorder *recorder;
  FILE *protocol;            /* helper: the JSON lines; NULL for record */
  gboolean done;
  gboolean ok;
  GError *error;
  guint n_signals;
  guint64 last_events;
  double last_elapsed_s;
  GDataInputStream *input;   /* helper: stdin */
  GCancellable *cancellable;
  CsCliProgress *progress;   /* record: the line on a terminal, or NULL */
  GPtrArray *snapshots;      /* helper: char*, the live snapshots written */
} RecordRun;

static void
totals (GArray *stats, guint64 *events, guint64 *bytes, guint64 *overrun, guint64 *missed)
{
  *events = *bytes = *overrun = *missed = 0;
  for (guint i = 0; i < stats->len; i++)
    {
      const CsRecordCpuStats *st = &g_array_index (stats, CsRecordCpuStats, i);

      *events += st->events;
      *bytes += st->bytes;
      *overrun += st->overrun + st->dropped;
      *missed += st->missed_events;
    }
}

static char *
format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_DEFAULT);
}

/* ------------------------------------------------------------------------ */
/* JSON lines                                                                */

static void
emit (RecordRun *run, JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  if (fprintf (run->protocol, "%s\n", text) < 0 || fflush (run->protocol) != 0)
    {
      /* Nobody listens any more: stop like the window asked. */
      if (run->recorder != NULL)
        cs_recorder_stop (run->recorder);
    }
}

static void
emit_simple (RecordRun *run, const char *type, const char *key, const char *value,
             const char *key2, const char *value2)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  json_builder_set_member_name (b, key);
  json_builder_add_string_value (b, value);
  if (key2 != NULL)
    {
      json_builder_set_member_name (b, key2);
      json_builder_add_string_value (b, value2);
    }
  json_builder_end_object (b);
  emit (run, b);
}

static void
emit_error (RecordRun *run, const GError *error)
{
  const char *code = error->domain == CS_RECORD_ERROR ? cs_record_error_to_nick (error->code)
                     : g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? "cancelled"
                     : "failed";

  emit_simple (run, "error", "code", code, "message", error->message);
}

static void
add_int (JsonBuilder *b, const char *name, guint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) value);
}

static void
emit_stats (RecordRun *run, GArray *stats)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 events, bytes, overrun, missed;

  totals (stats, &events, &bytes, &overrun, &missed);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "stats");
  json_builder_set_member_name (b, "elapsed_s");
  json_builder_add_double_value (b, cs_recorder_get_elapsed_s (run->recorder));
  add_int (b, "events", events);
  add_int (b, "bytes", bytes);
  add_int (b, "overrun", overrun);
  add_int (b, "missed", missed);
  json_builder_set_member_name (b, "cpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < stats->len; i++)
    {
      const CsRecordCpuStats *st = &g_array_index (stats, CsRecordCpuStats, i);

      json_builder_begin_object (b);
      add_int (b, "cpu", st->cpu);
      add_int (b, "events", st->events);
      add_int (b, "bytes", st->bytes);
      add_int (b, "overrun", st->overrun);
      add_int (b, "dropped", st->dropped);
      add_int (b, "missed", st->missed_events);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  emit (run, b);
}

/* ------------------------------------------------------------------------ */
/* Text statistics                                                           */

/* The rate of events since the previous call. */
static double
take_rate (RecordRun *run, guint64 events, double elapsed)
{
  double rate = 0.0;

  if (elapsed > run->last_elapsed_s && events >= run->last_events)
    rate = (double) (events - run->last_events) / (elapsed - run->last_elapsed_s);
  run->last_events = events;
  run->last_elapsed_s = elapsed;
  return rate;
}

/* The progress line's detail: the totals so far. */
static void
show_progress (RecordRun *run, GArray *stats)
{
  guint64 events, bytes, overrun, missed;
  double elapsed = cs_recorder_get_elapsed_s (run->recorder);
  g_autofree char *size = NULL;
  g_autofree char *events_text = NULL;
  g_autofree char *overrun_text = NULL;
  g_autofree char *detail = NULL;
  double rate;

  totals (stats, &events, &bytes, &overrun, &missed);
  rate = take_rate (run, events, elapsed);
  size = format_bytes (bytes);
  events_text = g_strdup_printf ("%" G_GUINT64_FORMAT, events);
  overrun_text = g_strdup_printf ("%" G_GUINT64_FORMAT, overrun);
  /* TRANSLATORS: the progress line of `record`, after "Recording: "; "3.0 s,
   * 12345 events (4115/s), 1.2 MB written, 0 overruns" */
  detail = g_strdup_printf (_("%.1f s, %s events (%.0f/s), %s written, %s overruns"),
                            elapsed, events_text, rate, size, overrun_text);
  cs_cli_progress_set_detail (run->progress, detail);
}

static void
print_stats (RecordRun *run, GArray *stats)
{
  guint64 events, bytes, overrun, missed;
  double elapsed = cs_recorder_get_elapsed_s (run->recorder);
  double rate;
  g_autofree char *size = NULL;
  g_autofree char *events_text = NULL;
  g_autofree char *overrun_text = NULL;
  g_autoptr(GString) line = g_string_new (NULL);

  totals (stats, &events, &bytes, &overrun, &missed);
  rate = take_rate (run, events, elapsed);

  size = format_bytes (bytes);
  events_text = g_strdup_printf ("%" G_GUINT64_FORMAT, events);
  overrun_text = g_strdup_printf ("%" G_GUINT64_FORMAT, overrun);
  /* TRANSLATORS: "  12.0 s  123456 events (10234/s)  4.5 MB  0 overruns" */
  g_string_append_printf (line, _("%6.1f s  %s events (%.0f/s)  %s  %s overruns"),
                          elapsed, events_text, rate, size, overrun_text);
  for (guint i = 0; i < stats->len; i++)
    {
      const CsRecordCpuStats *st = &g_array_index (stats, CsRecordCpuStats, i);
      g_autofree char *cpu_size = format_bytes (st->bytes);

      g_string_append_printf (line, "  | cpu%u %" G_GUINT64_FORMAT " ev %s ovr %" G_GUINT64_FORMAT,
                              st->cpu, st->events, cpu_size, st->overrun + st->dropped);
    }
  fprintf (stderr, "%s\n", line->str);
}

static gboolean
stats_cb (gpointer user_data)
{
  RecordRun *run = user_data;
  g_autoptr(GArray) stats = NULL;

  if (cs_recorder_get_state (run->recorder) != CS_RECORDER_STATE_RECORDING)
    {
      if (run->progress != NULL && cs_recorder_get_state (run->recorder) == CS_RECORDER_STATE_STOPPING)
        cs_cli_progress_set_detail (run->progress, _("stopped, writing the file"));
      return G_SOURCE_CONTINUE;
    }

  stats = cs_recorder_dup_stats (run->recorder);
  if (run->protocol != NULL)
    emit_stats (run, stats);
  else if (run->progress != NULL)
    show_progress (run, stats);
  else if (!cs_cli_progress_get_quiet ())
    print_stats (run, stats);
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

static gboolean
signal_cb (gpointer user_data)
{
  RecordRun *run = user_data;

  /* The first signal stops and writes; another one gives up the write. */
  if (run->n_signals++ == 0)
    cs_recorder_stop (run->recorder);
  else
    cs_recorder_abort (run->recorder);
  return G_SOURCE_CONTINUE;
}

static void
wait_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  RecordRun *run = user_data;

  run->ok = cs_recorder_wait_finish (CS_RECORDER (source), result, &run->error);
  run->done = TRUE;
  g_main_loop_quit (run->loop);
}

static void read_next_line (RecordRun *run);

/* Writes the next live snapshot and says where. */
static void
write_snapshot (RecordRun *run)
{
  const char *output = cs_recorder_get_options (run->recorder)->output;
  g_autofree char *dir = g_path_get_dirname (output);
  g_autofree char *base = g_path_get_basename (output);
  guint seq = run->snapshots->len + 1;
  g_autofree char *name = g_strdup_printf (".%s.live-%u.dat", base, seq);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 events = 0;
  gboolean ok = cs_recorder_write_snapshot (run->recorder, path, &events, &error);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "snapshot");
  add_int (b, "seq", seq);
  if (ok)
    {
      json_builder_set_member_name (b, "path");
      json_builder_add_string_value (b, path);
      add_int (b, "events", events);
    }
  else
    {
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, error->message);
    }
  json_builder_end_object (b);
  g_ptr_array_add (run->snapshots, g_steal_pointer (&path));
  emit (run, b);
}

static void
line_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  RecordRun *run = user_data;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;

  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (line == NULL)
    {
      /* The window closed our stdin: it is gone or wants us gone. */
      cs_recorder_stop (run->recorder);
      return;
    }
  g_strstrip (line);
  if (strcmp (line, "stop") == 0)
    cs_recorder_stop (run->recorder);
  else if (strcmp (line, "snapshot") == 0)
    write_snapshot (run);
  read_next_line (run);
}

static void
read_next_line (RecordRun *run)
{
  g_data_input_stream_read_line_async (run->input, G_PRIORITY_DEFAULT, run->cancellable,
                                       line_cb, run);
}

/* Runs the recorder to its end; @command prefixes its messages on stderr
 * ("chronoscope record").  Returns the exit status. */
static int
run_recorder (RecordRun       *run,
              CsRecordOptions *options,
              const char      *command)
{
  g_autoptr(GError) error = NULL;
  guint sig_ids[3], stats_id;
  const int signals[3] = { SIGINT, SIGTERM, SIGHUP };
  const char * const *warnings;

  run->loop = g_main_loop_new (NULL, FALSE);
  run->recorder = cs_recorder_new (options);
  run->snapshots = g_ptr_array_new_with_free_func (g_free);
  run->cancellable = g_cancellable_new ();
  /* Signals before the instance exists: a SIGTERM during set-up still
   * leads through the restore path. */
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    sig_ids[i] = g_unix_signal_add (signals[i], signal_cb, run);

  if (run->protocol != NULL)
    cs_recorder_set_command_stdin_null (run->recorder, TRUE);

  if (!cs_recorder_start (run->recorder, &error))
    {
      if (run->protocol != NULL)
        emit_error (run, error);
      else
        fprintf (stderr, "%s: %s\n", command, error->message);
      for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
        g_source_remove (sig_ids[i]);
      g_clear_pointer (&run->snapshots, g_ptr_array_unref);
      g_clear_object (&run->recorder);
      g_clear_pointer (&run->loop, g_main_loop_unref);
      g_clear_object (&run->cancellable);
      return 1;
    }

  warnings = cs_recorder_get_warnings (run->recorder);
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      if (run->protocol != NULL)
        emit_simple (run, "warning", "message", warnings[i], NULL, NULL);
      else
        fprintf (stderr, "%s: %s\n", command, warnings[i]);
    }

  if (run->protocol != NULL)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "started");
      json_builder_set_member_name (b, "instance");
      json_builder_add_string_value (b, cs_recorder_get_instance_name (run->recorder));
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, options->output);
      add_int (b, "n_cpus", cs_recorder_get_n_cpus (run->recorder));
      add_int (b, "command_pid", (guint64) cs_recorder_get_command_pid (run->recorder));
      json_builder_end_object (b);
      emit (run, b);

      run->input = g_data_input_stream_new (G_INPUT_STREAM (g_unix_input_stream_new (STDIN_FILENO, FALSE)));
      read_next_line (run);
    }
  else
    {
      fprintf (stderr, _("Recording into %s (tracefs instance %s); Ctrl+C stops.\n"),
               options->output, cs_recorder_get_instance_name (run->recorder));
      /* TRANSLATORS: the progress line of `record` while it records */
      run->progress = cs_cli_progress_new_activity (_("Recording"));
      if (!cs_cli_progress_is_active (run->progress))
        g_clear_pointer (&run->progress, cs_cli_progress_free);
    }

  stats_id = g_timeout_add (STATS_INTERVAL_MS, stats_cb, run);
  cs_recorder_wait_async (run->recorder, NULL, wait_cb, run);
  g_main_loop_run (run->loop);
  g_source_remove (stats_id);
  /* Erased before the summary or the error. */
  g_clear_pointer (&run->progress, cs_cli_progress_free);
  g_cancellable_cancel (run->cancellable);
  g_clear_object (&run->input);

  if (run->ok)
    {
      g_autoptr(GArray) stats = cs_recorder_dup_stats (run->recorder);
      guint64 events, bytes, overrun, missed;
      GStatBuf st;
      guint64 size = g_stat (options->output, &st) == 0 ? (guint64) st.st_size : 0;

      totals (stats, &events, &bytes, &overrun, &missed);
      if (run->protocol != NULL)
        {
          g_autoptr(JsonBuilder) b = json_builder_new ();

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "type");
          json_builder_add_string_value (b, "done");
          json_builder_set_member_name (b, "output");
          json_builder_add_string_value (b, options->output);
          add_int (b, "events", events);
          add_int (b, "bytes", bytes);
          add_int (b, "overrun", overrun);
          add_int (b, "missed", missed);
          add_int (b, "size", size);
          json_builder_set_member_name (b, "elapsed_s");
          json_builder_add_double_value (b, cs_recorder_get_elapsed_s (run->recorder));
          json_builder_end_object (b);
          emit (run, b);
        }
      else
        {
          g_autofree char *file_size = format_bytes (size);
          g_autofree char *events_text = g_strdup_printf ("%" G_GUINT64_FORMAT, events);
          g_autofree char *overrun_text = g_strdup_printf ("%" G_GUINT64_FORMAT, overrun);
          g_autofree char *missed_text = g_strdup_printf ("%" G_GUINT64_FORMAT, missed);
          int status;

          if (!cs_cli_progress_get_quiet ())
            print_stats (run, stats);
          /* TRANSLATORS: "Wrote trace.dat: 1234 events in 3.0 s, 6.3 MB, 0 overruns, 0 missed" */
          fprintf (stderr, _("Wrote %s: %s events in %.1f s, %s, %s overruns, %s missed\n"),
                   options->output, events_text, cs_recorder_get_elapsed_s (run->recorder),
                   file_size, overrun_text, missed_text);
          if (cs_recorder_get_command_status (run->recorder, &status))
            {
              g_autoptr(GError) status_error = NULL;

              if (!g_spawn_check_wait_status (status, &status_error))
                fprintf (stderr, _("The command %s: %s\n"), options->command[0], status_error->message);
            }
        }
    }
  else
    {
      if (run->protocol != NULL)
        emit_error (run, run->error);
      else
        fprintf (stderr, "%s: %s\n", command, run->error->message);
    }

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (sig_ids[i]);
  /* Live snapshots the window did not remove (gone, or not yet). */
  for (guint i = 0; i < run->snapshots->len; i++)
    g_unlink (g_ptr_array_index (run->snapshots, i));
  g_clear_pointer (&run->snapshots, g_ptr_array_unref);
  g_clear_object (&run->recorder);
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_object (&run->cancellable);
  g_clear_error (&run->error);
  return run->ok ? 0 : 1;
}

/**
 * cs_cli_record:
 * @argc: number of arguments
 * @argv: the arguments, argv[0] being "record"
 *
 * `chronoscope record [-e EVENT [-f FILTER]]... [-P PID] [-c CPUMASK] [-b KB]
 * [-C CLOCK] [-p TRACER] [-T] [-o FILE] [--duration S] [-- COMMAND ...]`:
 * records into a trace.dat (default ./trace.dat), showing statistics once
 * a second on stderr (see the top of this file).
 *
 * Returns: the exit status: 0 when the file was written, 1 otherwise
 */
int
cs_cli_record (int    argc,
               char **argv)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(GError) error = NULL;
  RecordRun run = { 0 };

  if (!cs_record_options_parse_args (options, &argc, &argv, "chronoscope record",
                                     _("Records Linux trace events into a trace.dat with a private "
                                       "tracefs instance, streaming the ring buffers to disk. "
                                       "Needs root."),
                                     NULL, &error))
    {
      fprintf (stderr, "chronoscope record: %s\n", error->message);
      return 1;
    }
  if (options->output == NULL)
    options->output = g_strdup ("trace.dat");

  return run_recorder (&run, options, "chronoscope record");
}

/* ------------------------------------------------------------------------ */
/* chronoscope-record-helper                                                 */

static void
list_capabilities (RecordRun *run)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  static const char * const files[] = { "available_events", "available_tracers", "trace_clock" };
  static const char * const keys[] = { "events", "tracers", "clocks" };
  /* Mounted first when it is not yet, as the recorder will find it. */
  const char *dir = cs_recorder_find_tracing_dir ();
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    dir = "/sys/kernel/tracing";   /* so that the message names the usual place */

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "capabilities");
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);
      g_autofree char *text = NULL;
      g_auto(GStrv) words = NULL;

      json_builder_set_member_name (b, keys[i]);
      json_builder_begin_array (b);
      if (g_file_get_contents (path, &text, NULL, error == NULL ? &error : NULL))
        {
          words = g_strsplit_set (text, i == 0 ? "\n" : " \n", -1);
          for (guint j = 0; words[j] != NULL; j++)
            {
              char *word = g_strstrip (words[j]);

              if (*word == '\0')
                continue;
              if (word[0] == '[')   /* "[local]": the current clock */
                {
                  word++;
                  word[strcspn (word, "]")] = '\0';
                }
              json_builder_add_string_value (b, word);
            }
        }
      json_builder_end_array (b);
    }
  if (error != NULL)
    {
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, error->message);
    }
  json_builder_end_object (b);
  emit (run, b);
}

/* chronoscope-record-helper --demo: runs a classroom scenario for the window. */
static int
run_demo (RecordRun       *run,
          CsRecordOptions *options,
          const char      *scenario,
          const char      *module_path,
          int              cpu)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GError) error = NULL;
  CsDemoConfig config = { scenario, module_path, cpu };
  CsDemoRun demo;
  GStatBuf st;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "started");
  json_builder_set_member_name (b, "instance");
  json_builder_add_string_value (b, "");
  json_builder_set_member_name (b, "output");
  json_builder_add_string_value (b, options->output);
  json_builder_end_object (b);
  emit (run, b);

  if (!cs_demo_run (&config, options, &demo, &error))
    {
      emit_error (run, error);
      return 1;
    }

  g_clear_object (&b);
  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "done");
  json_builder_set_member_name (b, "output");
  json_builder_add_string_value (b, options->output);
  add_int (b, "size", g_stat (options->output, &st) == 0 ? (guint64) st.st_size : 0);
  json_builder_set_member_name (b, "demo");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "scenario");
  json_builder_add_string_value (b, scenario);
  add_int (b, "cpu", demo.cpu);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, demo.pid);
  json_builder_set_member_name (b, "comm");
  json_builder_add_string_value (b, demo.comm);
  json_builder_end_object (b);
  json_builder_end_object (b);
  emit (run, b);
  return 0;
}

/**
 * cs_cli_record_helper:
 * @argc: number of arguments
 * @argv: the arguments, argv[0] being the program
 *
 * The window's recorder (see the protocol at the top of this file).  When
 * started by pkexec, the output file is created with the permissions of the
 * user who asked (PKEXEC_UID) and belongs to them, and the command runs as
 * that user.
 *
 * Returns: the exit status: 0 when the file was written, 1 otherwise
 */
int
cs_cli_record_helper (int    argc,
                      char **argv)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(GError) error = NULL;
  RecordRun run = { 0 };
  gboolean list = FALSE;
  g_autofree char *demo = NULL;
  g_autofree char *module_path = NULL;
  int demo_cpu = -1;
  const char *pkexec_uid = g_getenv ("PKEXEC_UID");
  int protocol_fd;
  const GOptionEntry extra[] = {
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, N_("Print what tracefs offers and exit"), NULL },
    { "demo", 0, 0, G_OPTION_ARG_STRING, &demo, N_("Run this classroom demo while recording"), N_("NAME") },
    { "module", 0, 0, G_OPTION_ARG_FILENAME, &module_path, N_("The demo loads this chronoscope_tracer.ko"), N_("PATH.ko") },
    { "demo-cpu", 0, 0, G_OPTION_ARG_INT, &demo_cpu, N_("The CPU the demo uses"), N_("N") },
    { NULL }
  };

  /* The protocol gets a private copy of stdout; fd 1 becomes stderr so that
   * libraries and the recorded command cannot write into it. */
  fflush (stdout);
  protocol_fd = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol_fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0 ||
      (run.protocol = fdopen (protocol_fd, "w")) == NULL)
    {
      printf ("{\"type\":\"error\",\"code\":\"failed\",\"message\":\"%s\"}\n", g_strerror (errno));
      return 1;
    }
  setvbuf (run.protocol, NULL, _IOLBF, 0);
  signal (SIGPIPE, SIG_IGN);

  /* The window going away (even by SIGKILL) stops the recording. */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () == 1)
    {
      emit_simple (&run, "error", "code", "failed", "message", _("The window is gone"));
      return 1;
    }

  if (!cs_record_options_parse_args (options, &argc, &argv, "chronoscope-record-helper",
                                     _("Records for the window (internal)."), extra, &error))
    {
      emit_simple (&run, "error", "code", "bad-option", "message", error->message);
      fclose (run.protocol);
      return 1;
    }

  if (list)
    {
      list_capabilities (&run);
      fclose (run.protocol);
      return 0;
    }

  if (geteuid () == 0 && pkexec_uid != NULL)
    {
      guint64 uid;

      if (g_ascii_string_to_unsigned (pkexec_uid, 10, 0, G_MAXUINT32, &uid, NULL))
        {
          struct passwd *pw = getpwuid ((uid_t) uid);

          options->owner_uid = (gint64) uid;
          options->owner_gid = pw != NULL ? (gint64) pw->pw_gid : (gint64) uid;
        }
    }

  if (options->output == NULL)
    {
      emit_simple (&run, "error", "code", "bad-option", "message", _("No output file (-o FILE)"));
      fclose (run.protocol);
      return 1;
    }

  {
    int status = demo != NULL ? run_demo (&run, options, demo, module_path, demo_cpu)
                              : run_recorder (&run, options, "chronoscope-record-helper");

    fclose (run.protocol);
    return status;
  }
}
