/* bench-decode.c: how fast the index's chunks decode, per row.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: bench-decode INDEX [CHUNKS]
 *
 * Reads the first CHUNKS (default 2000) event chunks and slice chunks of
 * CPU 0 of INDEX (a .csindex file from the index cache:
 * ~/.cache/chronoscope/) into memory, then decodes them seven times
 * each way and prints the best CPU time per row:
 *
 *   events <ns/row> <rows>          every column of the event chunks
 *   events_no_pid <ns/row> <rows>   without the pid column, as a scan of
 *                                   some event types reads them
 *   slices <ns/row> <rows>          every column of the slice chunks
 *
 * Every read of the index decodes chunks (the event list, a pass, SQL, an
 * explanation), so this is the step to watch when they slow down.  Prints
 * figures: never a pass/fail test.
 */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cs-chunk-codec.h"
#include "cs-index-private.h"

#define REPEATS 7

typedef struct {
  GBytes *data;
  guint n_rows;
} Chunk;

static double
cpu_seconds (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static GArray *
load_chunks (sqlite3    *db,
             const char *sql,
             guint       max_chunks)
{
  GArray *chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
  sqlite3_stmt *s = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    {
      g_printerr ("bench-decode: %s\n", sqlite3_errmsg (db));
      exit (1);
    }
  sqlite3_bind_int (s, 1, (int) max_chunks);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      Chunk c = { g_bytes_new (sqlite3_column_blob (s, 1), sqlite3_column_bytes (s, 1)),
                  (guint) sqlite3_column_int (s, 0) };

      g_array_append_val (chunks, c);
    }
  sqlite3_finalize (s);
  return chunks;
}

/* Decodes every chunk REPEATS times; prints the best time per row. */
static void
measure (const char              *name,
         GArray                  *chunks,
         guint                    n_columns,
         const CsChunkColumnMode *modes,
         guint                    skip)
{
  g_autofree gint64 *mem = NULL;
  gint64 *cols[8];
  guint max_rows = 1;
  guint64 rows = 0;
  double best = G_MAXDOUBLE;

  g_assert (n_columns <= G_N_ELEMENTS (cols));
  for (guint i = 0; i < chunks->len; i++)
    max_rows = MAX (max_rows, g_array_index (chunks, Chunk, i).n_rows);
  mem = g_new (gint64, (gsize) n_columns * max_rows);
  for (guint c = 0; c < n_columns; c++)
    cols[c] = (skip >> c) & 1 ? NULL : mem + (gsize) c * max_rows;
  for (guint r = 0; r < REPEATS; r++)
    {
      double t0 = cpu_seconds ();

      rows = 0;
      for (guint i = 0; i < chunks->len; i++)
        {
          const Chunk *c = &g_array_index (chunks, Chunk, i);
          g_autoptr(GError) error = NULL;
          gsize size;
          const guint8 *data = g_bytes_get_data (c->data, &size);

          if (!cs_chunk_decode_columns (data, size, c->n_rows, n_columns, n_columns, modes, cols,
                                        c->n_rows, &error))
            {
              g_printerr ("bench-decode: %s\n", error->message);
              exit (1);
            }
          rows += c->n_rows;
        }
      best = MIN (best, cpu_seconds () - t0);
    }
  printf ("%s %.2f %" G_GUINT64_FORMAT "\n", name, rows > 0 ? best * 1e9 / rows : 0.0, rows);
}

int
main (int    argc,
      char **argv)
{
  sqlite3 *db = NULL;
  guint max_chunks = argc > 2 ? (guint) atoi (argv[2]) : 2000;
  GArray *events, *slices;

  if (argc < 2)
    {
      g_printerr ("Usage: bench-decode INDEX [CHUNKS]\n");
      return 2;
    }
  if (sqlite3_open_v2 (argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      g_printerr ("bench-decode: %s: %s\n", argv[1], sqlite3_errmsg (db));
      return 1;
    }
  events = load_chunks (db, "SELECT n_rows, data FROM event_chunks WHERE cpu = 0 "
                        "ORDER BY chunk LIMIT ?", max_chunks);
  slices = load_chunks (db, "SELECT n_rows, data FROM slice_chunks WHERE cpu = 0 "
                        "ORDER BY chunk LIMIT ?", max_chunks);
  sqlite3_close (db);
  measure ("events", events, EV_N_COLUMNS, _cs_event_chunk_modes, 0);
  measure ("events_no_pid", events, EV_N_COLUMNS, _cs_event_chunk_modes, 1u << EV_PID);
  measure ("slices", slices, SL_N_COLUMNS, _cs_slice_chunk_modes, 0);
  return 0;
}
