/* bench-sql.c: times SQL over a recording (issue 13) from inside one
 * process, so that the figures are the queries' and not the start-up's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: bench-sql FILE [RUNS]
 *
 * Opens FILE's index (building it when the cache has none: with an empty
 * cache, open is the first open), then runs, RUNS times each (default 3),
 * and prints one line per measurement:
 *
 *   open <seconds> <cpu s>                  document + SQL session (wall,
 *                                           and user + sys of the process
 *                                           and its children)
 *   d_switches <median s> <count>           SELECT count(*) FROM
 *                                           sched_sched_switch WHERE prev_state = 2
 *   comm_events <median s> <n comms> <file> SELECT comm, count(*) FROM
 *                                           events GROUP BY comm (the rows go
 *                                           to <file>, "comm\tcount")
 *   cpu <key> <median cpu s>                after d_switches and comm_events:
 *                                           the query's user + sys time, which
 *                                           other jobs on the machine disturb
 *                                           less than its wall time
 *   comm_cpu <median s> <n comms> <file>    SELECT comm, sum(dur) FROM
 *                                           sched_slices GROUP BY comm
 *                                           (the rows go to <file>, "comm\tns")
 *   comm_cpu_tasks <median s> <n comms>     the same from the tasks table
 *   span_names <median s> <n names> <file>  SELECT name, count(*) FROM events
 *                                           WHERE cpu = LAST AND ts over the
 *                                           middle 60 % of the recording
 *                                           GROUP BY name (counted from the
 *                                           span's chunks; rows to <file>)
 *   cpu span_names <median cpu s>
 *   span_names_rowwise <s> <file>           the same asked as a subquery,
 *                                           which SQLite steps through row by
 *                                           row (once: what it cost before)
 *   buckets_1ms <median s> <n buckets> <file>
 *                                           SELECT ts / 1000000 AS ms,
 *                                           count(*) FROM events GROUP BY ms
 *                                           (weighted rows per time bucket)
 *   cpu buckets_1ms <median cpu s>
 *   buckets_1ms_rowwise <s> <file>          the same as a subquery, row by row
 *   range_1ms <median s> <events>           count(*), min, max of events in
 *                                           1 ms spans spread over the
 *                                           recording (one span per run)
 *   range_1ms_fields <median s> <rows>      every field of sched_switch in
 *                                           those spans
 *   stats_whole <median s> / stats_1ms <median s>
 *
 * It prints figures; it never decides pass or fail (run-sql-bench.sh
 * compares the answers with trace-cmd report | awk).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "cs-document.h"
#include "cs-range-stats.h"
#include "cs-sql-session.h"

/* User + sys seconds of the process (and of its children, when asked:
 * the indexer may fork scanners). */
static double
cpu_seconds (gboolean children)
{
  struct rusage self, kids;

  getrusage (RUSAGE_SELF, &self);
  getrusage (RUSAGE_CHILDREN, &kids);
  return self.ru_utime.tv_sec + self.ru_stime.tv_sec +
         (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6 +
         (children ? kids.ru_utime.tv_sec + kids.ru_stime.tv_sec +
                     (kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) / 1e6 : 0.0);
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_double);
  return v[n / 2];
}

/* Runs @sql; returns the rows it printed into @out (NULL: none) and the
 * first column of the last row in *@last. */
static guint64
run (CsSqlSession *session,
     const char   *sql,
     FILE         *out,
     gint64       *last)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, sql, &error);
  guint64 n = 0;

  if (q == NULL)
    g_error ("%s: %s", sql, error->message);
  while (cs_sql_query_next (q, &error))
    {
      if (out != NULL)
        fprintf (out, "%s\t%" G_GINT64_FORMAT "\n", cs_sql_query_get_text (q, 0) ?: "",
                 cs_sql_query_get_int64 (q, 1));
      *last = cs_sql_query_get_int64 (q, 0);
      n++;
    }
  if (error != NULL)
    g_error ("%s: %s", sql, error->message);
  return n;
}

/* @fast @runs times and @rowwise, the same question SQLite answers row
 * by row, once: prints "@name <median s> <rows> <file>", "cpu @name
 * <median cpu s>" and "@name_rowwise <s> <file>", the rows of each in
 * $CS_BENCH_OUT.@file[-rowwise].tsv. */
static void
fast_and_rowwise (CsSqlSession *session,
                  const char   *name,
                  const char   *file,
                  const char   *fast,
                  const char   *rowwise,
                  guint         runs)
{
  g_autofree double *t = g_new0 (double, runs);
  g_autofree double *c = g_new0 (double, runs);
  guint64 rows = 0;
  gint64 value = 0;

  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *path = g_strdup_printf ("%s.%s%s.tsv", g_getenv ("CS_BENCH_OUT") ?: "/tmp/bench-sql",
                                               file, pass == 0 ? "" : "-rowwise");

      for (guint r = 0; r < (pass == 0 ? runs : 1); r++)
        {
          FILE *out = r == 0 ? fopen (path, "w") : NULL;
          double c0 = cpu_seconds (FALSE);
          gint64 t0 = g_get_monotonic_time ();

          rows = run (session, pass == 0 ? fast : rowwise, out, &value);
          t[r] = (g_get_monotonic_time () - t0) / 1e6;
          c[r] = cpu_seconds (FALSE) - c0;
          if (out != NULL)
            fclose (out);
        }
      if (pass == 0)
        {
          printf ("%s %.3f %" G_GUINT64_FORMAT " %s\n", name, median (t, runs), rows, path);
          printf ("cpu %s %.3f\n", name, median (c, runs));
        }
      else
        printf ("%s_rowwise %.3f %s\n", name, t[0], path);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(CsSqlSession) session = NULL;
  g_autofree char *comm_path = NULL;
  guint runs = argc > 2 ? (guint) atoi (argv[2]) : 3;
  g_autofree double *t = NULL;
  g_autofree double *c = NULL;
  double c0;
  gint64 first, last, value = 0;
  guint64 rows = 0;
  gint64 t0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-sql FILE [RUNS]\n");
      return 2;
    }
  runs = MAX (runs, 1);
  t = g_new0 (double, runs);
  c = g_new0 (double, runs);

  c0 = cpu_seconds (TRUE);
  t0 = g_get_monotonic_time ();
  doc = cs_document_load (argv[1], NULL, NULL, NULL, NULL, &error);
  session = doc ? cs_sql_session_new (doc, &error) : NULL;
  if (session == NULL)
    g_error ("%s: %s", argv[1], error->message);
  printf ("open %.3f %.3f\n", (g_get_monotonic_time () - t0) / 1e6, cpu_seconds (TRUE) - c0);
  first = cs_document_get_first_ns (doc);
  last = cs_document_get_last_ns (doc);

  for (guint r = 0; r < runs; r++)
    {
      c0 = cpu_seconds (FALSE);
      t0 = g_get_monotonic_time ();
      run (session, "SELECT count(*) FROM sched_sched_switch WHERE prev_state = 2", NULL, &value);
      t[r] = (g_get_monotonic_time () - t0) / 1e6;
      c[r] = cpu_seconds (FALSE) - c0;
    }
  printf ("d_switches %.3f %" G_GINT64_FORMAT "\n", median (t, runs), value);
  printf ("cpu d_switches %.3f\n", median (c, runs));

  comm_path = g_strdup_printf ("%s.comm-events.tsv", g_getenv ("CS_BENCH_OUT") ?: "/tmp/bench-sql");
  for (guint r = 0; r < runs; r++)
    {
      FILE *out = r == 0 ? fopen (comm_path, "w") : NULL;

      c0 = cpu_seconds (FALSE);
      t0 = g_get_monotonic_time ();
      rows = run (session, "SELECT comm, count(*) FROM events GROUP BY comm", out, &value);
      t[r] = (g_get_monotonic_time () - t0) / 1e6;
      c[r] = cpu_seconds (FALSE) - c0;
      if (out != NULL)
        fclose (out);
    }
  printf ("comm_events %.3f %" G_GUINT64_FORMAT " %s\n", median (t, runs), rows, comm_path);
  printf ("cpu comm_events %.3f\n", median (c, runs));
  g_free (comm_path);

  comm_path = g_strdup_printf ("%s.comm-cpu.tsv", g_getenv ("CS_BENCH_OUT") ?: "/tmp/bench-sql");
  for (guint r = 0; r < runs; r++)
    {
      FILE *out = r == 0 ? fopen (comm_path, "w") : NULL;

      t0 = g_get_monotonic_time ();
      rows = run (session, "SELECT comm, sum(dur) FROM sched_slices GROUP BY comm", out, &value);
      t[r] = (g_get_monotonic_time () - t0) / 1e6;
      if (out != NULL)
        fclose (out);
    }
  printf ("comm_cpu %.3f %" G_GUINT64_FORMAT " %s\n", median (t, runs), rows, comm_path);

  for (guint r = 0; r < runs; r++)
    {
      t0 = g_get_monotonic_time ();
      rows = run (session, "SELECT comm, sum(runtime_ns) FROM tasks WHERE runtime_ns > 0 GROUP BY comm",
                  NULL, &value);
      t[r] = (g_get_monotonic_time () - t0) / 1e6;
    }
  printf ("comm_cpu_tasks %.3f %" G_GUINT64_FORMAT "\n", median (t, runs), rows);

  /* A type's count over a long span of one CPU, counted and row by row. */
  {
    guint cpu = cs_document_get_n_cpus (doc) - 1;
    gint64 a = first + (last - first) / 5, b = last - (last - first) / 5;
    g_autofree char *fast = g_strdup_printf ("SELECT name, count(*) FROM events WHERE cpu = %u AND ts >= %"
                                             G_GINT64_FORMAT " AND ts < %" G_GINT64_FORMAT
                                             " GROUP BY name", cpu, a, b);
    g_autofree char *rowwise = g_strdup_printf ("SELECT name, count(*) FROM (SELECT name FROM events"
                                                " WHERE cpu = %u AND ts >= %" G_GINT64_FORMAT
                                                " AND ts < %" G_GINT64_FORMAT ") GROUP BY name",
                                                cpu, a, b);

    fast_and_rowwise (session, "span_names", "span-names", fast, rowwise, runs);
  }
  /* Every event in 1 ms time buckets, counted per bucket and row by row. */
  fast_and_rowwise (session, "buckets_1ms", "buckets-1ms",
                    "SELECT ts / 1000000 AS ms, count(*) FROM events GROUP BY ms",
                    "SELECT ms, count(*) FROM (SELECT ts / 1000000 AS ms FROM events WHERE ts + 0 >= 0)"
                    " GROUP BY ms", runs);

  /* 1 ms spans at different places, so no run profits from the previous
   * one's decoded chunk. */
  for (guint pass = 0; pass < 2; pass++)
    {
      guint64 total = 0;
      guint n = MAX (runs, 5);
      g_autofree double *tt = g_new0 (double, n);

      for (guint r = 0; r < n; r++)
        {
          gint64 b = first + (gint64) ((double) (last - first) * (r + 0.5) / n);
          g_autofree char *sql = pass == 0
            ? g_strdup_printf ("SELECT count(*), min(ts), max(ts) FROM events WHERE ts >= %" G_GINT64_FORMAT
                               " AND ts < %" G_GINT64_FORMAT, b, b + 1000000)
            : g_strdup_printf ("SELECT * FROM sched_sched_switch WHERE ts >= %" G_GINT64_FORMAT
                               " AND ts < %" G_GINT64_FORMAT, b, b + 1000000);

          t0 = g_get_monotonic_time ();
          rows = run (session, sql, NULL, &value);
          tt[r] = (g_get_monotonic_time () - t0) / 1e6;
          total += pass == 0 ? (guint64) value : rows;
        }
      printf ("%s %.4f %" G_GUINT64_FORMAT "\n", pass == 0 ? "range_1ms" : "range_1ms_fields",
              median (tt, n), total / n);
    }

  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint r = 0; r < runs; r++)
        {
          gint64 b = pass == 0 ? G_MININT64 : first + (last - first) / 2;
          g_autoptr(CsRangeStats) st = NULL;

          t0 = g_get_monotonic_time ();
          st = cs_document_compute_range_stats (doc, b, pass == 0 ? G_MAXINT64 : b + 1000000, NULL, &error);
          t[r] = (g_get_monotonic_time () - t0) / 1e6;
          if (st == NULL)
            g_error ("stats: %s", error->message);
        }
      printf ("%s %.4f\n", pass == 0 ? "stats_whole" : "stats_1ms", median (t, runs));
    }
  return 0;
}
