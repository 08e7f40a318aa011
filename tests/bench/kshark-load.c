/* kshark-load.c: KernelShark 2.2.1's loader on one recording, the anchor of
 * DESIGN.md's targets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: kshark-load RECORDING
 *
 * Does what KernelShark does when it opens a file, and nothing else: a
 * session (kshark_instance), the file as a data stream (kshark_open: headers,
 * event formats, tasks) and every entry loaded into RAM, one struct
 * kshark_entry per event sorted in time order (kshark_load_entries).  Then it
 * frees everything: each entry, the array, the stream and the session.
 *
 * Prints one line of key=value pairs on stdout:
 *
 *   events=N open_s=S load_s=S seconds=S free_s=S
 *
 * seconds is open_s + load_s, the loader's time as the window would pay it
 * (monotonic clock, inside the process); free_s, the time to free it all, is
 * printed apart and not counted.  Exit status 1 when the file cannot be
 * opened or loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <libkshark.h>

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char *argv[])
{
  struct kshark_context *kshark_ctx = NULL;
  struct kshark_entry **rows = NULL;
  double start, opened, loaded, freed;
  ssize_t n_rows;
  int sd;

  if (argc != 2)
    {
      fprintf (stderr, "usage: kshark-load RECORDING\n");
      return 2;
    }

  start = now_s ();
  if (!kshark_instance (&kshark_ctx))
    {
      fprintf (stderr, "kshark-load: cannot create a KernelShark session\n");
      return 1;
    }

  sd = kshark_open (kshark_ctx, argv[1]);
  if (sd < 0)
    {
      fprintf (stderr, "kshark-load: %s: kshark_open failed (%d)\n", argv[1], sd);
      kshark_free (kshark_ctx);
      return 1;
    }
  opened = now_s ();

  n_rows = kshark_load_entries (kshark_ctx, sd, &rows);
  loaded = now_s ();
  if (n_rows < 0)
    {
      fprintf (stderr, "kshark-load: %s: kshark_load_entries failed (%zd)\n", argv[1], n_rows);
      kshark_close (kshark_ctx, sd);
      kshark_free (kshark_ctx);
      return 1;
    }

  for (ssize_t r = 0; r < n_rows; r++)
    free (rows[r]);
  free (rows);
  kshark_close (kshark_ctx, sd);
  kshark_free (kshark_ctx);
  freed = now_s ();

  printf ("events=%zd open_s=%.6f load_s=%.6f seconds=%.6f free_s=%.6f\n",
          n_rows, opened - start, loaded - opened, loaded - start, freed - loaded);
  return 0;
}
