/* bench-field-plot.c: what a field-plot row costs: its pass, and a frame.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: bench-field-plot [FILE.dat [KEY]]
 *
 * Opens FILE (default: the large benchmark recording if
 * /var/tmp/chronoscope-bench/large-v6.dat exists, else the bundled
 * sample), runs the field plot's pass for KEY (default
 * sched:sched_stat_runtime.runtime, or sched:sched_switch.next_pid when
 * the recording has no sched_stat_runtime) and prints how long it took, how many
 * values and summary rows it wrote, then the median and worst time of a
 * 1920 x 1080 frame of all CPU plots with and without the row (the first
 * frame, which reads the row's values, and the median and worst of the
 * same frame redrawn), at full zoom-out and over a 10 µs window in the
 * middle.  A benchmark: it prints figures and asserts nothing about them.
 */
#include <stdio.h>

#include "builtin-test-host.h"

#define N_FRAMES 21

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* First, median and worst of N_FRAMES frames, in ms.  The first reads
 * the row's values; the others redraw the same span (as a window does
 * when the pointer moves), which the row answers from what it read. */
static void
time_frames (CsBuiltinFixture *fixture,
             const CsViewport *viewport,
             double           *first_ms,
             double           *median_ms,
             double           *worst_ms)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, viewport->width_px,
                                                         viewport->height_px);
  double times[N_FRAMES];

  for (guint i = 0; i < N_FRAMES; i++)
    {
      cairo_t *cr = cairo_create (surface);
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();

      if (!cs_timeline_renderer_draw (fixture->base.renderer, cr, viewport, &error))
        g_error ("frame failed: %s", error->message);
      cairo_surface_flush (surface);
      times[i] = (g_get_monotonic_time () - t0) / 1000.0;
      cairo_destroy (cr);
    }
  *first_ms = times[0];
  qsort (times, N_FRAMES, sizeof (double), compare_double);
  *median_ms = times[N_FRAMES / 2];
  *worst_ms = times[N_FRAMES - 1];
  cairo_surface_destroy (surface);
}

static gint64
count_rows (sqlite3    *db,
            const char *sql)
{
  sqlite3_stmt *s = NULL;
  gint64 n = -1;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return n;
}

int
main (int   argc,
      char *argv[])
{
  const char *large = "/var/tmp/chronoscope-bench/large-v6.dat";
  const char *path = argc > 1 ? argv[1]
                     : g_file_test (large, G_FILE_TEST_EXISTS) ? large : CS_SAMPLE_TRACE;
  const char *key = argc > 2 ? argv[2] : NULL;
  CsBuiltinFixture fixture = { 0 };
  g_autoptr(GError) error = NULL;
  CsPluginRowSpec spec;
  sqlite3 *db;
  gint64 t0, first, last;
  struct {
    const char *name;
    gint64 begin_ns;
    gint64 end_ns;
  } zooms[2];

  printf ("recording: %s\n", path);
  fflush (stdout);
  t0 = g_get_monotonic_time ();
  cs_builtin_fixture_set_up_path (&fixture, "field-plot", path);
  if (key == NULL)
    key = cs_plugin_document_count_events (fixture.plugins, "sched", "sched_stat_runtime") > 0
          ? "sched:sched_stat_runtime.runtime" : "sched:sched_switch.next_pid";
  printf ("key: %s\n", key);
  printf ("open (index built or reused): %.2f s, %" G_GUINT64_FORMAT " events\n",
          (g_get_monotonic_time () - t0) / 1e6, cs_document_get_n_events (fixture.base.document));

  t0 = g_get_monotonic_time ();
  if (!cs_plugin_document_ensure_pass (fixture.plugins, fixture.plugin, "values", key, NULL, &error))
    {
      fprintf (stderr, "bench-field-plot: %s\n", error->message);
      return 1;
    }
  db = cs_plugin_document_get_pass_db (fixture.plugins, fixture.plugin, "values", key, &error);
  g_assert_no_error (error);
  printf ("pass: %.2f s (or reused), %" G_GINT64_FORMAT " values, %" G_GINT64_FORMAT
          " summary buckets\n", (g_get_monotonic_time () - t0) / 1e6,
          count_rows (db, "SELECT value FROM series WHERE name = 'n_points'"),
          count_rows (db, "SELECT count(*) FROM buckets"));

  first = cs_document_get_first_ns (fixture.base.document);
  last = cs_document_get_last_ns (fixture.base.document);
  zooms[0].name = "full zoom-out";
  zooms[0].begin_ns = first;
  zooms[0].end_ns = last + 1;
  zooms[1].name = "10 us window";
  zooms[1].begin_ns = first + (last - first) / 2;
  zooms[1].end_ns = zooms[1].begin_ns + 10000;

  spec.plugin = fixture.plugin;
  spec.layer = "values";
  spec.key = key;
  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      CsViewport v = { zooms[z].begin_ns, zooms[z].end_ns, 1920, 1080 };
      double without_first, without_ms, without_worst, with_first, with_ms, with_worst;

      cs_timeline_renderer_set_plugin_rows (fixture.base.renderer, NULL, 0);
      time_frames (&fixture, &v, &without_first, &without_ms, &without_worst);
      g_assert_cmpuint (cs_timeline_renderer_set_plugin_rows (fixture.base.renderer, &spec, 1), ==, 1);
      time_frames (&fixture, &v, &with_first, &with_ms, &with_worst);
      printf ("%s, 1920x1080: with the row first frame %.2f ms, then median %.2f ms (worst %.2f); "
              "without it first %.2f ms, median %.2f ms (worst %.2f)\n", zooms[z].name,
              with_first, with_ms, with_worst, without_first, without_ms, without_worst);
    }
  cs_builtin_fixture_tear_down (&fixture);
  return 0;
}
