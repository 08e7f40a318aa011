/* bench-live.c: what the live timeline costs per refresh and at Stop, with
 * the live index (cs-index-live.c) against indexing each file whole.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Records this machine's real tracefs (as root) for a while under a load
 * of context switches, takes a snapshot every second as the window does,
 * and for each one times writing it (the recorder grows the previous
 * snapshot's file in place) and the live index reading what it adds and
 * writing its index, as the window does.  At the end it times what the
 * window did before: indexing the last snapshot whole (each refresh did),
 * and the final file whole (Stop did), against the live index taking the
 * final file.  Not a test: it prints figures.
 *
 *   build/tests/bench/bench-live [SECONDS] [LOAD-PROCESSES]
 */
#include "config.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cs-document.h"
#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-index-live.h"
#include "cs-recorder.h"

typedef struct {
  CsRecorder *recorder;
  CsIndexLive *live;
  char *dir;
  guint n;
  double live_s, write_s;
  char *last;                   /* the snapshot written last */
  GMainLoop *loop;
  GError *error;
} Bench;

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Indexes @path whole into a file of @b->dir; the seconds it took, and
 * its events in @n_events. */
static double
index_whole (Bench *b, const char *path, const char *identity, guint64 *n_events)
{
  g_autofree char *index = g_build_filename (b->dir, "whole.index", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  double t0 = now_s ();

  if (!cs_index_build (path, identity, index, NULL, NULL, NULL, NULL, &error))
    g_error ("indexing %s whole: %s", path, error->message);
  t0 = now_s () - t0;
  doc = cs_document_open (path, index, &error);
  g_assert_no_error (error);
  *n_events = cs_document_get_n_events (doc);
  g_unlink (index);
  return t0;
}

static gboolean
snapshot_cb (gpointer user_data)
{
  Bench *b = user_data;
  g_autofree char *path = NULL;
  g_autofree char *index = g_build_filename (b->dir, "live.index", NULL);
  g_autofree char *identity = NULL;
  g_autoptr(GError) error = NULL;
  guint64 events = 0, read_before;
  double t_live, t0;

  if (cs_recorder_get_state (b->recorder) != CS_RECORDER_STATE_RECORDING)
    return G_SOURCE_CONTINUE;
  path = g_strdup_printf ("%s/snapshot-%u.dat", b->dir, b->n);
  t0 = now_s ();
  if (!cs_recorder_write_snapshot (b->recorder, path, &events, &error))
    g_error ("snapshot: %s", error->message);
  t0 = now_s () - t0;
  identity = cs_index_cache_compute_identity (path, &error);
  read_before = cs_index_live_get_bytes_read (b->live);

  t_live = now_s ();
  if (!cs_index_live_add (b->live, path, &error) ||
      !cs_index_live_write (b->live, identity, index, &error))
    {
      if (!g_error_matches (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED))
        g_error ("live index: %s", error->message);
      g_unlink (path);
      return G_SOURCE_CONTINUE;
    }
  t_live = now_s () - t_live;
  b->n++;
  b->live_s += t_live;
  b->write_s += t0;
  g_print ("snapshot %2u: %10" G_GUINT64_FORMAT " events, written in %.3f s, "
           "indexed in %.3f s (%" G_GUINT64_FORMAT " new MB)\n",
           b->n, events, t0, t_live,
           (cs_index_live_get_bytes_read (b->live) - read_before) >> 20);
  /* The window keeps the snapshot shown until the next one is. */
  if (b->last != NULL)
    g_unlink (b->last);
  g_free (b->last);
  b->last = g_steal_pointer (&path);
  g_unlink (index);
  return G_SOURCE_CONTINUE;
}

static void
wait_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Bench *b = user_data;

  cs_recorder_wait_finish (CS_RECORDER (source), result, &b->error);
  g_main_loop_quit (b->loop);
}

/* Context switches on every CPU: pairs of processes passing a byte back
 * and forth through pipes, for @seconds. */
static int
load (double seconds)
{
  int ab[2], ba[2];
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  char c = 0;
  pid_t child;

  if (pipe (ab) != 0 || pipe (ba) != 0)
    return 1;
  child = fork ();
  if (child == 0)
    {
      close (ab[1]);
      close (ba[0]);
      while (read (ab[0], &c, 1) == 1 && write (ba[1], &c, 1) == 1)
        ;
      _exit (0);
    }
  close (ab[0]);
  close (ba[1]);
  while (g_get_monotonic_time () < end)
    if (write (ab[1], &c, 1) != 1 || read (ba[0], &c, 1) != 1)
      break;
  close (ab[1]);
  waitpid (child, NULL, 0);
  return 0;
}

int
main (int argc, char **argv)
{
  g_autoptr(CsRecordOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *self_exe = NULL;
  g_autofree char *base = NULL;
  g_autofree char *output = NULL;
  g_autofree char *final_index = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *seconds_arg = NULL;
  g_autoptr(GPtrArray) command = g_ptr_array_new ();
  double seconds, t_live, t_whole, t_last = 0;
  guint64 last_events = 0, final_events = 0;
  guint n_load;
  Bench b = { 0 };

  if (argc == 3 && g_str_equal (argv[1], "--load"))
    return load (g_ascii_strtod (argv[2], NULL));

  seconds = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 20;
  n_load = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : g_get_num_processors ();
  if (getuid () != 0)
    {
      g_printerr ("bench-live records tracefs: run it as root\n");
      return 77;
    }

  b.dir = g_dir_make_tmp ("cs-bench-live-XXXXXX", &error);
  g_assert_no_error (error);
  base = g_build_filename (b.dir, "live-base.index", NULL);
  output = g_build_filename (b.dir, "rec.dat", NULL);
  b.live = cs_index_live_new (base, &error);
  g_assert_no_error (error);

  /* n_load pairs of ping-pong processes under a shell that waits for them. */
  self_exe = g_file_read_link ("/proc/self/exe", NULL);
  seconds_arg = g_strdup_printf ("%g", seconds);
  g_ptr_array_add (command, (char *) "/bin/sh");
  g_ptr_array_add (command, (char *) "-c");
  g_ptr_array_add (command, g_strdup_printf ("for i in $(seq %u); do \"%s\" --load %s & done; wait",
                                             n_load, self_exe, seconds_arg));
  g_ptr_array_add (command, NULL);

  options = cs_record_options_new ();
  cs_record_options_add_event (options, "sched", NULL);
  cs_record_options_add_event (options, "irq", NULL);
  options->buffer_size_kb = 8192;
  options->output = g_strdup (output);
  options->command = g_strdupv ((char **) command->pdata);

  b.recorder = cs_recorder_new (options);
  b.loop = g_main_loop_new (NULL, FALSE);
  if (!cs_recorder_start (b.recorder, &error))
    g_error ("recording: %s", error->message);
  g_timeout_add (1000, snapshot_cb, &b);
  cs_recorder_wait_async (b.recorder, NULL, wait_cb, &b);
  g_main_loop_run (b.loop);
  if (b.error != NULL)
    g_error ("recording: %s", b.error->message);

  if (b.last != NULL)
    {
      g_autofree char *last_identity = cs_index_cache_compute_identity (b.last, &error);

      g_assert_no_error (error);
      t_last = index_whole (&b, b.last, last_identity, &last_events);
    }

  identity = cs_index_cache_compute_identity (output, &error);
  g_assert_no_error (error);
  final_index = g_build_filename (b.dir, "final.index", NULL);
  t_live = now_s ();
  if (!cs_index_live_add (b.live, output, &error) ||
      !cs_index_live_finish (b.live, identity, final_index, &error))
    g_error ("live index of the final file: %s", error->message);
  t_live = now_s () - t_live;
  t_whole = index_whole (&b, output, identity, &final_events);

  g_print ("\n%u snapshots in %.0f s of recording (%u load pairs, %u CPUs):\n"
           "  per refresh, mean: snapshot written in %.3f s, live index %.3f s\n"
           "  the last snapshot (%" G_GUINT64_FORMAT " events) indexed whole: %.3f s\n"
           "  at Stop, %" G_GUINT64_FORMAT " events: live index %.3f s, indexed whole %.3f s\n",
           b.n, seconds, n_load, g_get_num_processors (),
           b.n > 0 ? b.write_s / b.n : 0, b.n > 0 ? b.live_s / b.n : 0,
           last_events, t_last,
           final_events, t_live, t_whole);
  if (final_events != cs_index_live_get_n_events (b.live))
    g_error ("the live index has %" G_GUINT64_FORMAT " events, the file %" G_GUINT64_FORMAT,
             cs_index_live_get_n_events (b.live), final_events);

  cs_index_live_free (b.live);
  if (b.last != NULL)
    g_unlink (b.last);
  g_free (b.last);
  g_unlink (final_index);
  g_unlink (output);
  g_rmdir (b.dir);
  g_object_unref (b.recorder);
  g_main_loop_unref (b.loop);
  g_free (b.dir);
  return 0;
}
