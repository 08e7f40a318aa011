/* tracecmd-iterate.c: the raw libtracecmd iteration any trace.dat reader pays.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: tracecmd-iterate [--per-cpu] RECORDING
 *
 * Opens RECORDING with tracecmd_open() and reads every record of its top
 * buffer once, doing nothing with them but counting them per CPU: the floor
 * under any reader built on libtracecmd (trace-cmd report, KernelShark,
 * an indexer).  By default through tracecmd_iterate_events(), which merges
 * the CPUs in time order as report and KernelShark do; with --per-cpu,
 * through tracecmd_read_cpu_first() / tracecmd_read_data() one CPU after the
 * other.  Buffer instances are not read (the benchmark's recordings have
 * none; their count is printed).
 *
 * Prints one line of key=value pairs on stdout:
 *
 *   events=N open_s=S iterate_s=S seconds=S cpus=N cpu0=N cpu1=N ... instances=N
 *
 * seconds is open_s + iterate_s (monotonic clock, inside the process: process
 * start-up and tracecmd_close() are not counted).  Exit status 1 when the
 * file cannot be opened.  libtracecmd's log is silenced.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <trace-cmd.h>

typedef struct {
  uint64_t n_events;
  uint64_t *per_cpu;
  int n_cpus;
} Counts;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
count_record_cb (struct tracecmd_input *handle,
                 struct tep_record     *record,
                 int                    cpu,
                 void                  *user_data)
{
  Counts *counts = user_data;

  counts->n_events++;
  if (cpu >= 0 && cpu < counts->n_cpus)
    counts->per_cpu[cpu]++;
  return 0;
}

static void
read_per_cpu (struct tracecmd_input *handle,
              Counts                *counts)
{
  for (int cpu = 0; cpu < counts->n_cpus; cpu++)
    {
      struct tep_record *record = tracecmd_read_cpu_first (handle, cpu);

      while (record != NULL)
        {
          counts->n_events++;
          counts->per_cpu[cpu]++;
          tracecmd_free_record (record);
          record = tracecmd_read_data (handle, cpu);
        }
    }
}

int
main (int argc, char *argv[])
{
  struct tracecmd_input *handle;
  const char *path = NULL;
  int per_cpu = 0;
  Counts counts = { 0, NULL, 0 };
  double start, opened, done;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--per-cpu") == 0)
        per_cpu = 1;
      else if (path == NULL && argv[i][0] != '-')
        path = argv[i];
      else
        path = NULL, i = argc;
    }
  if (path == NULL)
    {
      fprintf (stderr, "usage: tracecmd-iterate [--per-cpu] RECORDING\n");
      return 2;
    }

  tracecmd_set_loglevel (TEP_LOG_NONE);

  start = now_s ();
  handle = tracecmd_open (path, 0);
  if (handle == NULL)
    {
      fprintf (stderr, "tracecmd-iterate: %s: tracecmd_open failed\n", path);
      return 1;
    }
  opened = now_s ();

  counts.n_cpus = tep_get_cpus (tracecmd_get_tep (handle));
  counts.per_cpu = calloc (counts.n_cpus > 0 ? counts.n_cpus : 1, sizeof (uint64_t));
  if (counts.per_cpu == NULL)
    return 1;

  if (per_cpu)
    read_per_cpu (handle, &counts);
  else
    tracecmd_iterate_events (handle, NULL, 0, count_record_cb, &counts);
  done = now_s ();

  printf ("events=%llu open_s=%.6f iterate_s=%.6f seconds=%.6f cpus=%d",
          (unsigned long long) counts.n_events, opened - start, done - opened, done - start,
          counts.n_cpus);
  for (int cpu = 0; cpu < counts.n_cpus; cpu++)
    printf (" cpu%d=%llu", cpu, (unsigned long long) counts.per_cpu[cpu]);
  printf (" instances=%d mode=%s\n", tracecmd_buffer_instances (handle),
          per_cpu ? "per-cpu" : "iterate");

  tracecmd_close (handle);
  free (counts.per_cpu);
  return 0;
}
