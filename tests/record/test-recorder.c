/* test-recorder.c: CsRecorder on this machine's real tracefs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * - child-work: sched, irq, timer and syscall events while a child (this
 *   program, re-run with --child-work) makes N write()s of a marker and M
 *   sleeps; trace-cmd report and our index see exactly N sys_enter_write and
 *   M sys_enter_clock_nanosleep with the child's pid, and agree on all counts.
 *   (At most N and M when the kernel reports overruns: every process's
 *   syscalls are recorded, and a busy machine can outrun the streams.)
 * - outgrows-ring-buffer: a 64 KiB ring buffer per CPU and a flood of
 *   syscall events for a few seconds; the file holds many times what the
 *   ring buffer can, and the overruns the kernel counted match the losses
 *   the pages report.
 * - refusals: the function tracer (EPERM here), a tracer the kernel lacks,
 *   an unknown event, a filter on a missing field, an unwritable folder:
 *   each a CS_RECORD_ERROR naming it, with tracefs and the folder as found.
 *
 * Needs root; skipped (with the reason) without it or without tracefs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cs-index-cache.h"
#include "cs-index-live.h"
#include "cs-recorder.h"
#include "index-test-util.h"
#include "record-test-util.h"

#define N_WRITES 137
#define N_SLEEPS 23
#define MARKER   "chronoscope-test-marker\n"

static const char *self_exe;

typedef struct {
  char *dir;
  char *output;
  gboolean usable;
  TracefsSnapshot snapshot;
} Fixture;

/* ------------------------------------------------------------------------ */
/* The child's work (this program, re-executed)                              */

static int
child_work (int n_writes, int n_sleeps, const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  struct timespec ms = { 0, 1000 * 1000 };

  if (fd < 0)
    return 2;
  for (int i = 0; i < n_writes; i++)
    if (write (fd, MARKER, strlen (MARKER)) != (ssize_t) strlen (MARKER))
      return 3;
  for (int i = 0; i < n_sleeps; i++)
    nanosleep (&ms, NULL);
  close (fd);
  return 0;
}

/* Writes single bytes to /dev/null for @ms milliseconds, in bursts of 20
 * every 200 µs: about 150,000 sys_enter_write/sys_exit_write events a
 * second, many times what the test's ring buffers hold, yet few enough for
 * trace-cmd report to read back in seconds. */
static int
child_flood (int ms)
{
  int fd = open ("/dev/null", O_WRONLY);
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;
  struct timespec pause = { 0, 200 * 1000 };
  char c = 0;

  while (g_get_monotonic_time () < end)
    {
      for (int i = 0; i < 20; i++)
        if (write (fd, &c, 1) != 1)
          return 3;
      nanosleep (&pause, NULL);
    }
  return 0;
}

/* ------------------------------------------------------------------------ */

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cs-recorder-XXXXXX", &error);
  g_assert_no_error (error);
  f->output = g_build_filename (f->dir, "rec.dat", NULL);
  f->usable = rt_require_tracefs ();
  if (f->usable)
    rt_snapshot_take (&f->snapshot);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  if (f->usable)
    {
      rt_assert_instance_gone (getpid ());
      rt_assert_no_orphan_instances ();
      rt_snapshot_assert_same (&f->snapshot);
    }
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->output);
  g_free (f->dir);
}

typedef struct {
  GMainLoop *loop;
  gboolean ok;
  GError *error;
} Wait;

static void
wait_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Wait *w = user_data;

  w->ok = cs_recorder_wait_finish (CS_RECORDER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

/* Starts, runs until the recording ends by itself, returns the stats. */
static GArray *
record_to_end (CsRecorder *recorder)
{
  g_autoptr(GError) error = NULL;
  Wait w = { g_main_loop_new (NULL, FALSE), FALSE, NULL };

  g_assert_true (cs_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cs_recorder_get_state (recorder), ==, CS_RECORDER_STATE_RECORDING);
  cs_recorder_wait_async (recorder, NULL, wait_cb, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_true (w.ok);
  g_assert_cmpint (cs_recorder_get_state (recorder), ==, CS_RECORDER_STATE_DONE);
  return cs_recorder_dup_stats (recorder);
}

static guint64
sum_events (GArray *stats)
{
  guint64 n = 0;

  for (guint i = 0; i < stats->len; i++)
    n += g_array_index (stats, CsRecordCpuStats, i).events;
  return n;
}

/* ------------------------------------------------------------------------ */

static void
test_child_work (Fixture *f, gconstpointer data)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(CsRecorder) recorder = NULL;
  g_autoptr(GArray) stats = NULL;
  g_autoptr(JsonObject) oracle = NULL;
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autofree char *marker_path = g_build_filename (f->dir, "marker.txt", NULL);
  g_autofree char *n_writes = g_strdup_printf ("%d", N_WRITES);
  g_autofree char *n_sleeps = g_strdup_printf ("%d", N_SLEEPS);
  g_autofree char *marker_text = NULL;
  const char *command[] = { self_exe, "--child-work", n_writes, n_sleeps, marker_path, NULL };
  const CsTask *task;
  guint64 n_child_events = 0, lost = 0;
  int status = -1;
  GPid pid;

  if (!f->usable)
    return;

  cs_record_options_add_event (options, "sched", NULL);
  cs_record_options_add_event (options, "irq", NULL);
  cs_record_options_add_event (options, "timer", NULL);
  cs_record_options_add_event (options, "syscalls:sys_enter_write", NULL);
  cs_record_options_add_event (options, "syscalls:sys_exit_write", NULL);
  cs_record_options_add_event (options, "syscalls:sys_enter_clock_nanosleep", NULL);
  options->output = g_strdup (f->output);
  options->command = g_strdupv ((char **) command);
  /* Every process's write()s are recorded: room for a busy machine's. */
  options->buffer_size_kb = 8192;

  recorder = cs_recorder_new (options);
  stats = record_to_end (recorder);
  pid = cs_recorder_get_command_pid (recorder);
  g_assert_cmpint (pid, >, 0);
  g_assert_true (cs_recorder_get_command_status (recorder, &status));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (marker_path, &marker_text, NULL, NULL));
  g_assert_cmpuint (strlen (marker_text), ==, N_WRITES * strlen (MARKER));

  /* trace-cmd report: the child's writes and sleeps, with its pid.  A
   * flood of other processes' syscalls (`yes >/dev/null` makes millions a
   * second) can overrun the ring buffers while the streams wait for a
   * CPU; the kernel counts what it overwrote, and then only an upper
   * bound holds. */
  for (guint i = 0; i < stats->len; i++)
    lost += g_array_index (stats, CsRecordCpuStats, i).overrun +
            g_array_index (stats, CsRecordCpuStats, i).dropped;
  counts = rt_report_counts_for_pid (f->output, pid, &n_child_events);
  if (lost == 0)
    {
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_enter_write")), ==, N_WRITES);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_exit_write")), ==, N_WRITES);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_enter_clock_nanosleep")), ==, N_SLEEPS);
    }
  else
    {
      g_test_message ("The ring buffers overran (%" G_GUINT64_FORMAT " events lost): "
                      "the child's counts are upper bounds", lost);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_enter_write")), <=, N_WRITES);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_exit_write")), <=, N_WRITES);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "sys_enter_clock_nanosleep")), <=, N_SLEEPS);
    }

  /* Our index: the same counts as report, the child's events under its
   * pid and name, and every event the streams counted. */
  oracle = rt_run_oracle (f->output);
  doc = rt_load_document (f->output);
  rt_assert_document_matches (doc, oracle);
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, sum_events (stats));
  task = cs_document_lookup_task (doc, pid);
  g_assert_nonnull (task);
  g_assert_cmpuint (task->n_events, ==, n_child_events);
  g_assert_cmpstr (cs_document_get_comm (doc, pid), ==, "test-recorder");
  g_test_message ("%" G_GUINT64_FORMAT " events; the child (pid %d) has %" G_GUINT64_FORMAT,
                  cs_document_get_n_events (doc), pid, n_child_events);
  rt_assert_no_temp_files (f->dir);
}

static void
test_outgrows_ring_buffer (Fixture *f, gconstpointer data)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(CsRecorder) recorder = NULL;
  g_autoptr(GArray) stats = NULL;
  g_autoptr(JsonObject) oracle = NULL;
  g_autoptr(CsDocument) doc = NULL;
  const char *command[] = { self_exe, "--child-flood", "2500", NULL };
  guint64 n_events, bytes = 0, overrun = 0, missed = 0, capacity;
  guint n_cpus;

  if (!f->usable)
    return;

  cs_record_options_add_event (options, "syscalls:sys_enter_write", NULL);
  cs_record_options_add_event (options, "syscalls:sys_exit_write", NULL);
  cs_record_options_add_event (options, "sched", NULL);
  options->buffer_size_kb = 64;
  options->output = g_strdup (f->output);
  options->command = g_strdupv ((char **) command);

  recorder = cs_recorder_new (options);
  stats = record_to_end (recorder);
  n_cpus = stats->len;
  n_events = sum_events (stats);
  for (guint i = 0; i < stats->len; i++)
    {
      const CsRecordCpuStats *st = &g_array_index (stats, CsRecordCpuStats, i);

      bytes += st->bytes;
      overrun += st->overrun;
      missed += st->missed_events;
    }

  /* A sys_enter_write record takes at least 16 bytes: the ring buffers
   * (64 KiB per CPU) hold at most this many events at once. */
  capacity = (guint64) n_cpus * 64 * 1024 / 16;
  g_test_message ("%" G_GUINT64_FORMAT " events (%.0f/s), %" G_GUINT64_FORMAT " bytes streamed, "
                  "%" G_GUINT64_FORMAT " overruns, %" G_GUINT64_FORMAT " missed, ring buffers "
                  "hold %" G_GUINT64_FORMAT " events", n_events,
                  n_events / cs_recorder_get_elapsed_s (recorder), bytes, overrun, missed, capacity);
  g_assert_cmpuint (n_events, >, 10 * capacity);
  g_assert_cmpuint (bytes, >, 10 * (guint64) n_cpus * 64 * 1024);
  /* Losses are noted, in the statistics and in the file, or there are none. */
  g_assert_true ((overrun == 0) == (missed == 0));

  oracle = rt_run_oracle (f->output);
  doc = rt_load_document (f->output);
  rt_assert_document_matches (doc, oracle);
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, n_events);
  {
    guint64 doc_missed = 0;

    for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
      doc_missed += cs_document_get_cpu (doc, cpu)->missed_events;
    g_assert_true ((doc_missed == 0) == (missed == 0));
  }
}

/* ------------------------------------------------------------------------ */
/* Snapshots (the window's live timeline)                                    */

typedef struct {
  Fixture *f;
  CsRecorder *recorder;
  guint n;                   /* snapshots written */
  guint64 events;            /* what the last one said it holds */
  GArray *cpu_events;        /* guint64 per CPU: what the last one holds */
  char *path;                /* the last one, kept as the window keeps it */
  CsDocument *doc;           /* opened from it */
  char *last_text;           /* its last event of CPU 0, as text */
  guint n_in_place;          /* snapshots that grew the previous file */
  CsIndexLive *live;
  char *live_base;
} SnapshotRun;

/* The text of @doc's last event on @cpu (read through its offset), or
 * NULL when the CPU has none. */
static char *
last_event_text (CsDocument *doc,
                 guint       cpu)
{
  g_autoptr(GError) error = NULL;
  guint64 n = cs_document_get_cpu (doc, cpu)->n_events;
  CsEvent event;
  char *text;

  if (n == 0)
    return NULL;
  g_assert_true (cs_document_get_event_at_row (doc, cpu, n - 1, &event, &error));
  text = cs_document_format_event (doc, &event, &error);
  g_assert_no_error (error);
  return text;
}

/* What the window does with a snapshot, checked: it is a trace.dat that
 * trace-cmd reads like ours, holding what it said and more than the one
 * before; the live index, fed one snapshot after the other, reads only
 * what each adds, and its index of each is the one built from scratch. */
static void
check_snapshot (SnapshotRun *run,
                const char  *path,
                guint64      events)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) oracle = rt_run_oracle (path);
  g_autoptr(CsDocument) doc = rt_load_document (path);
  g_autofree char *identity = cs_index_cache_compute_identity (path, &error);
  g_autofree char *index = g_strdup_printf ("%s/live-%u.index", run->f->dir, run->n);
  g_autoptr(CsDocument) live_doc = NULL;
  guint64 read_before;

  rt_assert_document_matches (doc, oracle);
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, events);
  if (run->n > 1)
    g_assert_cmpuint (events, >, run->events);

  if (run->live == NULL)
    run->live = cs_index_live_new (run->live_base, &error);
  g_assert_no_error (error);
  read_before = cs_index_live_get_bytes_read (run->live);
  g_assert_true (cs_index_live_add (run->live, path, &error));
  g_assert_no_error (error);
  /* A snapshot that adds events adds pages to read.  The first one may
   * hold none yet (CI saw it under ASan: the flood had not filled a page
   * 400 ms in), and then there is nothing to read. */
  if (events > run->events)
    g_assert_cmpuint (cs_index_live_get_bytes_read (run->live), >, read_before);
  /* Such a snapshot has no index to write either: the live index says so
   * (CI saw this too under ASan, at the write). */
  if (events == 0)
    {
      g_assert_false (cs_index_live_write (run->live, identity, index, &error));
      g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED);
      g_test_message ("snapshot %u: no events yet", run->n);
      return;
    }
  g_assert_true (cs_index_live_write (run->live, identity, index, &error));
  g_assert_no_error (error);
  live_doc = cs_document_open (path, index, &error);
  g_assert_no_error (error);
  cs_test_assert_same_index (doc, live_doc);
  g_unlink (index);

  g_array_set_size (run->cpu_events, cs_document_get_n_cpus (doc));
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    g_array_index (run->cpu_events, guint64, cpu) = cs_document_get_cpu (doc, cpu)->n_events;
  run->events = events;
  g_set_object (&run->doc, doc);
  g_free (run->last_text);
  run->last_text = last_event_text (doc, 0);
  g_test_message ("snapshot %u: %" G_GUINT64_FORMAT " events", run->n, events);
}

static gboolean
snapshot_cb (gpointer user_data)
{
  SnapshotRun *run = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf (".rec.dat.live-%u.dat", run->n + 1);
  g_autofree char *path = g_build_filename (run->f->dir, name, NULL);
  guint64 events = 0;
  GStatBuf before, after;

  /* Stopping or done: the test removes this source. */
  if (cs_recorder_get_state (run->recorder) != CS_RECORDER_STATE_RECORDING)
    return G_SOURCE_CONTINUE;
  if (run->path != NULL)
    g_assert_cmpint (g_stat (run->path, &before), ==, 0);
  g_assert_true (cs_recorder_write_snapshot (run->recorder, path, &events, &error));
  g_assert_no_error (error);
  run->n++;

  if (run->path != NULL)
    {
      /* A previous snapshot that held no events yet has no document
       * (check_snapshot()), and no last event to compare. */
      g_autofree char *text = run->doc != NULL ? last_event_text (run->doc, 0) : NULL;

      /* The previous snapshot's file grew into this one (the same file
       * under a new name) or was left alone; either way what its reader
       * knows reads the same. */
      g_assert_cmpint (g_stat (path, &after), ==, 0);
      if (after.st_ino == before.st_ino)
        run->n_in_place++;
      g_assert_cmpstr (text, ==, run->last_text);
      g_unlink (run->path);
    }
  check_snapshot (run, path, events);
  g_free (run->path);
  run->path = g_steal_pointer (&path);
  return G_SOURCE_CONTINUE;
}

static void
test_snapshot (Fixture *f, gconstpointer data)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(GArray) stats = NULL;
  g_autoptr(CsDocument) final = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *refused = g_build_filename (f->dir, "refused.dat", NULL);
  const char *command[] = { self_exe, "--child-flood", "1500", NULL };
  SnapshotRun run = { f, NULL, 0, 0, g_array_new (FALSE, TRUE, sizeof (guint64)) };
  guint source;
  g_autofree char *final_identity = NULL;
  g_autofree char *final_index = NULL;
  g_autoptr(CsDocument) final_live = NULL;

  if (!f->usable)
    return;

  cs_record_options_add_event (options, "syscalls:sys_enter_write", NULL);
  cs_record_options_add_event (options, "sched", NULL);
  options->output = g_strdup (f->output);
  options->command = g_strdupv ((char **) command);
  options->buffer_size_kb = 4096;
  run.live_base = g_build_filename (f->dir, "live-base.index", NULL);

  run.recorder = cs_recorder_new (options);
  /* Not before the start. */
  g_assert_false (cs_recorder_write_snapshot (run.recorder, refused, NULL, &error));
  g_assert_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED);
  g_clear_error (&error);

  source = g_timeout_add (400, snapshot_cb, &run);
  stats = record_to_end (run.recorder);
  g_source_remove (source);
  final = rt_load_document (f->output);

  /* The snapshots after the first grew the previous one's file: only
   * what was recorded since was copied. */
  g_assert_cmpuint (run.n, >=, 2);
  g_assert_cmpuint (run.n_in_place, >=, 1);
  g_test_message ("%u snapshots, %u grown in place", run.n, run.n_in_place);
  g_unlink (run.path);

  /* The file written at the end holds at least as much on every CPU. */
  g_test_message ("final: %" G_GUINT64_FORMAT " events", cs_document_get_n_events (final));
  g_assert_cmpuint (cs_document_get_n_events (final), >=, run.events);
  g_assert_cmpuint (cs_document_get_n_cpus (final), ==, run.cpu_events->len);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (final); cpu++)
    g_assert_cmpuint (g_array_index (run.cpu_events, guint64, cpu), <=,
                      cs_document_get_cpu (final, cpu)->n_events);

  /* At the end the live index becomes the final file's. */
  g_assert_true (cs_index_live_add (run.live, f->output, &error));
  g_assert_no_error (error);
  final_identity = cs_index_cache_compute_identity (f->output, &error);
  final_index = g_strdup_printf ("%s/live-final.index", f->dir);
  g_assert_true (cs_index_live_finish (run.live, final_identity, final_index, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (run.live_base, G_FILE_TEST_EXISTS));
  final_live = cs_document_open (f->output, final_index, &error);
  g_assert_no_error (error);
  cs_test_assert_same_index (final, final_live);
  g_clear_object (&final_live);
  g_unlink (final_index);

  /* Not after the end either. */
  g_assert_false (cs_recorder_write_snapshot (run.recorder, refused, NULL, &error));
  g_assert_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED);
  g_assert_false (g_file_test (refused, G_FILE_TEST_EXISTS));
  rt_assert_no_temp_files (f->dir);

  g_object_unref (run.recorder);
  cs_index_live_free (run.live);
  g_clear_object (&run.doc);
  g_free (run.path);
  g_free (run.last_text);
  g_free (run.live_base);
  g_array_unref (run.cpu_events);
}

/* ------------------------------------------------------------------------ */
/* Refusals                                                                  */

static void
assert_refused (Fixture          *f,
                CsRecordOptions  *options,
                int               code,
                const char       *must_contain,
                const char       *or_contain)
{
  g_autoptr(CsRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;

  options->output = g_strdup (f->output);
  recorder = cs_recorder_new (options);
  g_assert_false (cs_recorder_start (recorder, &error));
  g_assert_error (error, CS_RECORD_ERROR, code);
  g_test_message ("refused: %s", error->message);
  if (strstr (error->message, must_contain) == NULL &&
      (or_contain == NULL || strstr (error->message, or_contain) == NULL))
    g_error ("“%s” does not mention “%s”", error->message, must_contain);
  g_assert_cmpint (cs_recorder_get_state (recorder), ==, CS_RECORDER_STATE_FAILED);
  rt_assert_instance_gone (getpid ());
  rt_assert_no_leftovers (f->dir, NULL);
}

static void
test_refusals (Fixture *f, gconstpointer data)
{
  CsRecordOptions *o;
  g_autofree char *locked = NULL;

  if (!f->usable)
    return;

  /* Function tracing is not permitted on these machines (EPERM); where it
   * is, the test records with it and checks nothing more. */
  o = cs_record_options_new ();
  cs_record_options_add_event (o, "sched:sched_switch", NULL);
  o->tracer = g_strdup ("function");
  {
    g_autoptr(CsRecorder) recorder = NULL;
    g_autoptr(GError) error = NULL;

    o->output = g_strdup (f->output);
    o->duration_s = 0.2;
    recorder = cs_recorder_new (o);
    if (cs_recorder_start (recorder, &error))
      {
        g_test_message ("the function tracer is permitted here");
        cs_recorder_abort (recorder);
      }
    else
      {
        g_assert_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_TRACER_REFUSED);
        g_assert_nonnull (strstr (error->message, "“function”"));
        g_assert_nonnull (strstr (error->message, "not permitted"));
        g_test_message ("refused: %s", error->message);
      }
  }
  rt_assert_instance_gone (getpid ());
  rt_assert_no_leftovers (f->dir, NULL);
  cs_record_options_free (o);

  o = cs_record_options_new ();
  cs_record_options_add_event (o, "sched:sched_switch", NULL);
  o->tracer = g_strdup ("no_such_tracer");
  assert_refused (f, o, CS_RECORD_ERROR_TRACER_REFUSED, "“no_such_tracer”", NULL);
  cs_record_options_free (o);

  o = cs_record_options_new ();
  cs_record_options_add_event (o, "sched:sched_switch", NULL);
  cs_record_options_add_event (o, "sched:no_such_event", NULL);
  assert_refused (f, o, CS_RECORD_ERROR_UNKNOWN_EVENT, "sched:no_such_event", NULL);
  cs_record_options_free (o);

  /* tracefs's own words from error_log: "Field not found". */
  o = cs_record_options_new ();
  cs_record_options_add_event (o, "sched:sched_switch", "no_such_field == 1");
  assert_refused (f, o, CS_RECORD_ERROR_BAD_FILTER, "Field not found", NULL);
  cs_record_options_free (o);

  /* Root may write anywhere, but not for a user who may not: the output
   * folder is checked with the user's identity (as under pkexec). */
  locked = g_build_filename (f->dir, "locked", NULL);
  g_assert_cmpint (g_mkdir (locked, 0755), ==, 0);
  o = cs_record_options_new ();
  cs_record_options_add_event (o, "sched:sched_switch", NULL);
  o->owner_uid = 65534;
  o->owner_gid = 65534;
  {
    g_autoptr(CsRecorder) recorder = NULL;
    g_autoptr(GError) error = NULL;

    o->output = g_build_filename (locked, "rec.dat", NULL);
    recorder = cs_recorder_new (o);
    g_assert_false (cs_recorder_start (recorder, &error));
    g_assert_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_OUTPUT);
    g_assert_nonnull (strstr (error->message, locked));
    g_assert_nonnull (strstr (error->message, g_strerror (EACCES)));
    g_test_message ("refused: %s", error->message);
    rt_assert_no_leftovers (locked, NULL);
  }
  cs_record_options_free (o);
  g_assert_cmpint (g_rmdir (locked), ==, 0);
}

int
main (int argc, char **argv)
{
  if (argc == 5 && strcmp (argv[1], "--child-work") == 0)
    return child_work (atoi (argv[2]), atoi (argv[3]), argv[4]);
  if (argc == 3 && strcmp (argv[1], "--child-flood") == 0)
    return child_flood (atoi (argv[2]));

  self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/record/CsRecorder/child-work", Fixture, NULL,
              fixture_set_up, test_child_work, fixture_tear_down);
  g_test_add ("/cs/record/CsRecorder/outgrows-ring-buffer", Fixture, NULL,
              fixture_set_up, test_outgrows_ring_buffer, fixture_tear_down);
  g_test_add ("/cs/record/CsRecorder/snapshot", Fixture, NULL,
              fixture_set_up, test_snapshot, fixture_tear_down);
  g_test_add ("/cs/record/CsRecorder/refusals", Fixture, NULL,
              fixture_set_up, test_refusals, fixture_tear_down);

  return g_test_run ();
}
