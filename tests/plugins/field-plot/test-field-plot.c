/* test-field-plot.c: the field-plot built-in on the project's recordings
 * (sched-irq-v7.dat: hrtimer expiry times, write sizes) and, where they
 * are there, on public ones (cpu_frequency, sched_stat_runtime).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The oracle, tests/oracle/field-values.py, reads the values from
 * `trace-cmd report -t -R`.  The plugin's pass must store exactly those
 * values (all of them, or those of one CPU, one task, one value of
 * another field), its summaries must agree with them bucket by bucket,
 * and its row must draw them where they are: the exact points zoomed in,
 * each column's min..max zoomed out.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "builtin-test-host.h"

static const CsTestRecording sched_irq = { "sched-irq-v7.dat" };
static const CsTestRecording lisa = { "public/lisa-rtapp-arm64-v6.dat" };
static const CsTestRecording sched = { "public/sched-x86-v7-zstd.dat" };

/* The row's colours (Okabe-Ito blue and sky blue) and its layout. */
#define LINE_RGB 0x0072b2
#define PAD_PX   4.0

typedef struct {
  const CsTestRecording *recording;
  const char *key;
  const char *oracle_args[4];   /* after FILE: SYSTEM:EVENT FIELD [--opt value] */
} Series;

static const Series expires = {
  &sched_irq, "timer:hrtimer_start.expires", { "timer:hrtimer_start", "expires" } };
static const Series expires_cpu1 = {
  &sched_irq, "timer:hrtimer_start.expires/cpu=1", { "timer:hrtimer_start", "expires", "--cpu", "1" } };
static const Series expires_mode0 = {
  &sched_irq, "timer:hrtimer_start.expires/mode=0",
  { "timer:hrtimer_start", "expires", "--where", "mode=0" } };
static const Series write_count_pid = {
  &sched_irq, "syscalls:sys_enter_write.count/pid=31127",
  { "syscalls:sys_enter_write", "count", "--pid", "31127" } };
static const Series lisa_state = {
  &lisa, "power:cpu_frequency.state", { "power:cpu_frequency", "state" } };
static const Series lisa_state_cpu0 = {
  &lisa, "power:cpu_frequency.state/cpu_id=0",
  { "power:cpu_frequency", "state", "--where", "cpu_id=0" } };
static const Series sched_runtime = {
  &sched, "sched:sched_stat_runtime.runtime", { "sched:sched_stat_runtime", "runtime" } };
static const Series sched_runtime_cpu5 = {
  &sched, "sched:sched_stat_runtime.runtime/cpu=5",
  { "sched:sched_stat_runtime", "runtime", "--cpu", "5" } };
static const Series sched_runtime_pid = {
  &sched, "sched:sched_stat_runtime.runtime/pid=4687",
  { "sched:sched_stat_runtime", "runtime", "--pid", "4687" } };

typedef struct {
  gint64 ts_ns;
  gint64 cpu;
  gint64 pid;
  gint64 value;
} Point;

static void
set_up (CsBuiltinFixture *fixture,
        gconstpointer     data)
{
  const Series *series = data;

  cs_builtin_fixture_set_up (fixture, "field-plot", series->recording);
}

static void
tear_down (CsBuiltinFixture *fixture,
           gconstpointer     data)
{
  cs_builtin_fixture_tear_down (fixture);
}

static GArray *
oracle_points (CsBuiltinFixture *fixture,
               const Series     *series)
{
  const char *args[6] = { cs_document_get_trace_path (fixture->base.document) };
  g_autoptr(JsonNode) root = NULL;
  GArray *points = g_array_new (FALSE, FALSE, sizeof (Point));
  JsonArray *list;

  for (guint i = 0; i < 4 && series->oracle_args[i] != NULL; i++)
    args[i + 1] = series->oracle_args[i];
  root = cs_builtin_run_oracle ("field-values.py", args);
  list = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonArray *row = json_array_get_array_element (list, i);
      Point p = { json_array_get_int_element (row, 0), json_array_get_int_element (row, 1),
                  json_array_get_int_element (row, 2), json_array_get_int_element (row, 3) };

      g_array_append_val (points, p);
    }
  g_test_message ("%s: %u values in trace-cmd report", series->key, points->len);
  g_assert_cmpuint (points->len, >, 0);
  return points;
}

/* Runs the key's pass here and opens its results. */
static sqlite3 *
pass_db (CsBuiltinFixture *fixture,
         const char       *key)
{
  g_autoptr(GError) error = NULL;
  sqlite3 *db;

  g_assert_true (cs_plugin_document_ensure_pass (fixture->plugins, fixture->plugin, "values", key,
                                                 NULL, &error));
  g_assert_no_error (error);
  db = cs_plugin_document_get_pass_db (fixture->plugins, fixture->plugin, "values", key, &error);
  g_assert_no_error (error);
  g_assert_nonnull (db);
  return db;
}

static gint64
series_meta (sqlite3    *db,
             const char *name)
{
  sqlite3_stmt *s = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT value FROM series WHERE name = ?1", -1, &s,
                                       NULL), ==, SQLITE_OK);
  sqlite3_bind_text (s, 1, name, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return value;
}

/* The stored values are the report's, in its order. */
static void
test_values_equal_report (CsBuiltinFixture *fixture,
                          gconstpointer     data)
{
  const Series *series = data;
  g_autoptr(GArray) expected = oracle_points (fixture, series);
  sqlite3 *db = pass_db (fixture, series->key);
  sqlite3_stmt *s = NULL;
  guint i = 0;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT ts, cpu, pid, value FROM points ORDER BY ts, seq",
                                       -1, &s, NULL), ==, SQLITE_OK);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      const Point *e;

      g_assert_cmpuint (i, <, expected->len);
      e = &g_array_index (expected, Point, i++);
      g_assert_cmpint (sqlite3_column_int64 (s, 0), ==, e->ts_ns);
      g_assert_cmpint (sqlite3_column_int64 (s, 1), ==, e->cpu);
      g_assert_cmpint (sqlite3_column_int64 (s, 2), ==, e->pid);
      g_assert_cmpint (sqlite3_column_int64 (s, 3), ==, e->value);
    }
  sqlite3_finalize (s);
  g_assert_cmpuint (i, ==, expected->len);
  g_assert_cmpint (series_meta (db, "n_points"), ==, expected->len);
}

typedef struct {
  gint64 idx;
  gint64 n;
  gint64 min;
  gint64 max;
  gint64 last_ts;
  gint64 last;
} Bucket;

/* Every bucket of every level holds the count, min, max and last value of
 * the report's values in its time range, and no value is left out. */
static void
test_buckets_match_values (CsBuiltinFixture *fixture,
                           gconstpointer     data)
{
  const Series *series = data;
  g_autoptr(GArray) points = oracle_points (fixture, series);
  sqlite3 *db = pass_db (fixture, series->key);
  gint64 origin = series_meta (db, "origin_ns");
  gint64 min_level = series_meta (db, "min_level");
  gint64 max_level = series_meta (db, "max_level");
  guint n_buckets = 0;

  g_assert_cmpint (min_level, <=, max_level);
  g_assert_cmpint (origin, ==, cs_document_get_first_ns (fixture->base.document));
  /* The top level holds the whole recording in one or two buckets. */
  g_assert_cmpint (cs_document_get_last_ns (fixture->base.document) - origin, <,
                   G_GINT64_CONSTANT (1) << max_level);

  for (gint64 level = min_level; level <= max_level; level++)
    {
      g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Bucket));
      sqlite3_stmt *s = NULL;
      guint i = 0;

      for (guint p = 0; p < points->len; p++)
        {
          const Point *pt = &g_array_index (points, Point, p);
          gint64 idx = (pt->ts_ns - origin) >> level;
          Bucket *b = expected->len > 0 ? &g_array_index (expected, Bucket, expected->len - 1) : NULL;

          if (b == NULL || b->idx != idx)
            {
              Bucket nb = { idx, 0, pt->value, pt->value, 0, 0 };

              g_array_append_val (expected, nb);
              b = &g_array_index (expected, Bucket, expected->len - 1);
            }
          b->n++;
          b->min = MIN (b->min, pt->value);
          b->max = MAX (b->max, pt->value);
          b->last_ts = pt->ts_ns;
          b->last = pt->value;
        }

      g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT idx, n, min_value, max_value, last_ts,"
                                               " last_value FROM buckets WHERE level = ?1"
                                               " ORDER BY idx", -1, &s, NULL), ==, SQLITE_OK);
      sqlite3_bind_int64 (s, 1, level);
      while (sqlite3_step (s) == SQLITE_ROW)
        {
          const Bucket *b;

          g_assert_cmpuint (i, <, expected->len);
          b = &g_array_index (expected, Bucket, i++);
          g_assert_cmpint (sqlite3_column_int64 (s, 0), ==, b->idx);
          g_assert_cmpint (sqlite3_column_int64 (s, 1), ==, b->n);
          g_assert_cmpint (sqlite3_column_int64 (s, 2), ==, b->min);
          g_assert_cmpint (sqlite3_column_int64 (s, 3), ==, b->max);
          g_assert_cmpint (sqlite3_column_int64 (s, 4), ==, b->last_ts);
          g_assert_cmpint (sqlite3_column_int64 (s, 5), ==, b->last);
        }
      sqlite3_finalize (s);
      g_assert_cmpuint (i, ==, expected->len);
      n_buckets += i;
    }
  g_test_message ("%u buckets on levels %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
                  n_buckets, min_level, max_level);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */

static void
add_row (CsBuiltinFixture *fixture,
         const char       *key)
{
  CsPluginRowSpec spec = { fixture->plugin, "values", key };

  pass_db (fixture, key);
  g_assert_cmpuint (cs_timeline_renderer_set_plugin_rows (fixture->base.renderer, &spec, 1), ==, 1);
}

static CsViewport
viewport_for (CsBuiltinFixture *fixture,
              gint64            begin_ns,
              gint64            end_ns,
              int               width_px)
{
  CsViewport v = { begin_ns, end_ns, width_px, 0 };

  v.height_px = cs_timeline_renderer_get_natural_height (fixture->base.renderer);
  return v;
}

static double
expected_y (double y0,
            double height,
            gint64 min,
            gint64 max,
            gint64 value)
{
  if (min == max)
    return y0 + height / 2;
  return y0 + PAD_PX + (height - 2 * PAD_PX) * (1.0 - (double) (value - min) / (double) (max - min));
}

/* The line-coloured pixels of column @x inside the row: their mean y, or
 * -1 when there are none. */
static double
line_y_in_column (CsBuiltinFixture *fixture,
                  int               x,
                  double            y0,
                  double            height)
{
  double sum = 0;
  int n = 0;

  for (int y = (int) y0; y < (int) (y0 + height); y++)
    if (cs_test_same_color (cs_test_pixel (&fixture->base, x, y), LINE_RGB, 40))
      {
        sum += y;
        n++;
      }
  return n > 0 ? sum / n : -1;
}

/* Zoomed in, the step line is at each value's height between that point
 * and the next, and the info bar names the point under the pointer. */
static void
test_row_points (CsBuiltinFixture *fixture,
                 gconstpointer     data)
{
  const Series *series = data;
  g_autoptr(GArray) points = oracle_points (fixture, series);
  gint64 min = G_MAXINT64, max = G_MININT64;
  const char *label = NULL;
  CsPluginRowSpec spec;
  double y0, height;
  guint n_checked = 0;

  add_row (fixture, series->key);
  cs_timeline_renderer_get_plugin_row (fixture->base.renderer, 0, &spec, &label);
  g_assert_cmpstr (spec.key, ==, series->key);
  g_assert_true (g_str_has_prefix (label, "state\n") || g_str_has_prefix (label, "runtime\n") ||
                 g_str_has_prefix (label, "expires\n") || g_str_has_prefix (label, "count\n"));
  g_assert_true (g_str_has_suffix (label, strchr (series->key, '/') != NULL
                                          ? strchr (series->key, '/') + 1 : "\nall"));
  cs_timeline_renderer_get_plugin_row_area (fixture->base.renderer, 0, &y0, &height);
  for (guint i = 0; i < points->len; i++)
    {
      min = MIN (min, g_array_index (points, Point, i).value);
      max = MAX (max, g_array_index (points, Point, i).value);
    }

  for (guint i = 0; i + 1 < points->len && n_checked < 8; i++)
    {
      const Point *a = &g_array_index (points, Point, i);
      const Point *b = &g_array_index (points, Point, i + 1);
      gint64 span = b->ts_ns - a->ts_ns;
      CsViewport v;
      double x_a, x_b, y;
      CsHit hit;
      g_autoptr(GError) error = NULL;
      g_autofree char *value_text = NULL;

      if (span < 100)
        continue;
      /* a and b at a quarter and three quarters of the width. */
      v = viewport_for (fixture, a->ts_ns - span / 2, b->ts_ns + span / 2, 800);
      cs_test_render (&fixture->base, &v);
      x_a = cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, a->ts_ns);
      x_b = cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, b->ts_ns);
      y = line_y_in_column (fixture, (int) ((x_a + x_b) / 2), y0, height);
      cs_test_check (&fixture->base, y >= 0 &&
                     fabs (y - expected_y (y0, height, min, max, a->value)) <= 2.0,
                     "%s: value %" G_GINT64_FORMAT " drawn at y %.1f, expected %.1f", series->key,
                     a->value, y, expected_y (y0, height, min, max, a->value));

      g_assert_true (cs_timeline_renderer_hit_test (fixture->base.renderer, &v, x_a + 1,
                                                    y0 + height / 2, &hit, &error));
      g_assert_no_error (error);
      g_assert_cmpint (hit.kind, ==, CS_HIT_PLUGIN_ROW);
      g_assert_true (hit.has_item);
      value_text = g_strdup_printf ("= %" G_GINT64_FORMAT " (CPU %" G_GINT64_FORMAT ", pid %"
                                    G_GINT64_FORMAT ")", a->value, a->cpu, a->pid);
      g_assert_nonnull (strstr (hit.item.text, value_text));
      g_assert_cmpint (hit.item.begin_ns, ==, a->ts_ns);
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 0);
}

/* Whether anything is drawn within 2 px of (@ts_ns, @y) (a column either
 * side): a pixel unlike the row's empty top padding. */
static gboolean
drawn_near (CsBuiltinFixture *fixture,
            const CsViewport *v,
            gint64            ts_ns,
            double            y,
            double            y0)
{
  double time_x, time_width;
  guint32 empty;
  int x = (int) cs_timeline_renderer_ns_to_x (fixture->base.renderer, v, ts_ns);

  cs_timeline_renderer_get_time_area (fixture->base.renderer, v, &time_x, &time_width);
  empty = cs_test_pixel (&fixture->base, (int) (time_x + time_width) - 2, (int) y0 + 1);
  for (int dx = -1; dx <= 1; dx++)
    for (int dy = -2; dy <= 2; dy++)
      if (!cs_test_same_color (cs_test_pixel (&fixture->base, x + dx, (int) y + dy), empty, 10))
        return TRUE;
  return FALSE;
}

/* Zoomed out (more values than columns), each column shows its values'
 * min..max: the bar reaches the top where the largest value is and the
 * bottom where the smallest is, and nothing is drawn before the first. */
static void
test_row_columns (CsBuiltinFixture *fixture,
                  gconstpointer     data)
{
  const Series *series = data;
  g_autoptr(GArray) points = oracle_points (fixture, series);
  const Point *first = &g_array_index (points, Point, 0);
  const Point *lowest = first, *highest = first;
  gint64 begin = cs_document_get_first_ns (fixture->base.document);
  CsViewport v;
  double y0, height, time_x;
  int width_px = (int) points->len / 4 + 60;

  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      if (p->value < lowest->value)
        lowest = p;
      if (p->value > highest->value)
        highest = p;
    }
  g_assert_cmpint (lowest->value, <, highest->value);
  add_row (fixture, series->key);
  cs_timeline_renderer_get_plugin_row_area (fixture->base.renderer, 0, &y0, &height);
  v = viewport_for (fixture, begin, cs_document_get_last_ns (fixture->base.document) + 1, width_px);
  cs_test_render (&fixture->base, &v);
  cs_timeline_renderer_get_time_area (fixture->base.renderer, &v, &time_x, NULL);

  /* Columns drawn from summaries: something at the max's height in its
   * column, and at the min's in its column. */
  cs_test_check (&fixture->base, drawn_near (fixture, &v, highest->ts_ns,
                                             expected_y (y0, height, lowest->value, highest->value,
                                                         highest->value), y0),
                 "%s: nothing reaches the max %" G_GINT64_FORMAT, series->key, highest->value);
  cs_test_check (&fixture->base, drawn_near (fixture, &v, lowest->ts_ns,
                                             expected_y (y0, height, lowest->value, highest->value,
                                                         lowest->value), y0),
                 "%s: nothing reaches the min %" G_GINT64_FORMAT, series->key, lowest->value);

  /* The info bar sums up the values around the pointer: the largest
   * value of the recording is the max there. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *max_text = g_strdup_printf (", max %" G_GINT64_FORMAT ",", highest->value);
    CsHit hit;

    g_assert_true (cs_timeline_renderer_hit_test (
      fixture->base.renderer, &v, cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, highest->ts_ns),
      y0 + height / 2, &hit, &error));
    g_assert_no_error (error);
    g_assert_cmpint (hit.kind, ==, CS_HIT_PLUGIN_ROW);
    g_assert_true (hit.has_item);
    g_test_message ("info bar: %s", hit.item.text);
    {
      /* "EVENT.FIELD: ", the key's event name without its system. */
      const char *name = strchr (series->key, ':') + 1;
      g_autofree char *prefix = g_strdup_printf ("%.*s: ", (int) strcspn (name, "/"), name);

      g_assert_true (g_str_has_prefix (hit.item.text, prefix));
    }
    g_assert_nonnull (strstr (hit.item.text, max_text));
  }

  /* Before the first value: nothing in line colour (the row's labels
   * are at its left edge, so look from 40 px in). */
  for (int x = (int) time_x + 40;
       x < (int) cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, first->ts_ns) - 2; x++)
    cs_test_check (&fixture->base, line_y_in_column (fixture, x, y0, height) < 0,
                   "%s: drawn at x %d before the first value", series->key, x);
  if (g_getenv ("CS_KEEP_DRAWINGS") != NULL)
    cs_test_save_output (&fixture->base);
}

/* `chronoscope render --row field-plot:KEY` draws the same row: the line
 * at the first value's height between the first two values. */
static void
test_cli_render (CsBuiltinFixture *fixture,
                 gconstpointer     data)
{
  const Series *series = data;
  g_autoptr(GArray) points = oracle_points (fixture, series);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-field-plot-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "row.png", NULL);
  g_autofree char *row = g_strdup_printf ("field-plot:%s", series->key);
  g_autofree char *begin = NULL;
  g_autofree char *end = NULL;
  g_autofree char *out = NULL;
  const Point *a = NULL, *b = NULL;
  gint64 min = G_MAXINT64, max = G_MININT64;
  double y0, height, x_a, x_b, y;
  CsViewport v;

  g_assert_no_error (error);
  for (guint i = 0; i < points->len; i++)
    {
      const Point *p = &g_array_index (points, Point, i);

      min = MIN (min, p->value);
      max = MAX (max, p->value);
      if (a == NULL && i + 1 < points->len &&
          g_array_index (points, Point, i + 1).ts_ns - p->ts_ns >= 100)
        {
          a = p;
          b = &g_array_index (points, Point, i + 1);
        }
    }
  g_assert_nonnull (a);
  v = viewport_for (fixture, a->ts_ns - (b->ts_ns - a->ts_ns) / 2,
                    b->ts_ns + (b->ts_ns - a->ts_ns) / 2, 800);
  begin = g_strdup_printf ("%" G_GINT64_FORMAT, v.begin_ns);
  end = g_strdup_printf ("%" G_GINT64_FORMAT, v.end_ns);
  {
    const char *args[] = { "render", cs_document_get_trace_path (fixture->base.document),
                           "--row", row, "--begin", begin, "--end", end, "--width", "800",
                           "--plain", "-o", png, NULL };

    out = cs_builtin_run_chronoscope (args);
  }

  /* The same layout as this renderer's with the same row. */
  add_row (fixture, series->key);
  cs_timeline_renderer_get_plugin_row_area (fixture->base.renderer, 0, &y0, &height);
  g_clear_pointer (&fixture->base.surface, cairo_surface_destroy);
  fixture->base.surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (fixture->base.surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_height (fixture->base.surface), >=, (int) (y0 + height));
  x_a = cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, a->ts_ns);
  x_b = cs_timeline_renderer_ns_to_x (fixture->base.renderer, &v, b->ts_ns);
  y = line_y_in_column (fixture, (int) ((x_a + x_b) / 2), y0, height);
  cs_test_check (&fixture->base, y >= 0 && fabs (y - expected_y (y0, height, min, max, a->value)) <= 2.0,
                 "render --row %s: value %" G_GINT64_FORMAT " at y %.1f, expected %.1f", row,
                 a->value, y, expected_y (y0, height, min, max, a->value));
  g_unlink (png);
  g_rmdir (dir);
}

/* Keys the recording cannot plot are refused, with the reason. */
static void
test_bad_keys (CsBuiltinFixture *fixture,
               gconstpointer     data)
{
  const char *bad[] = {
    "timer:hrtimer_start.nope",           /* no such field */
    "nosuch:event.value",                 /* no such event */
    "sched:sched_switch.prev_comm",       /* a string */
    "timer:hrtimer_start",                /* no field */
    "timer:hrtimer_start.expires/nope=1", /* no such field to choose by */
    "timer:hrtimer_start.expires/cpu=x",  /* not a number */
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      CsPluginRowSpec spec = { fixture->plugin, "values", bad[i] };
      g_autoptr(GError) error = NULL;

      g_test_message ("key %s", bad[i]);
      g_assert_cmpuint (cs_timeline_renderer_set_plugin_rows (fixture->base.renderer, &spec, 1),
                        ==, 0);
      g_assert_false (cs_plugin_document_ensure_pass (fixture->plugins, fixture->plugin, "values",
                                                      bad[i], NULL, &error));
      g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE);
    }
}

typedef void (*CaseFunc) (CsBuiltinFixture *fixture, gconstpointer data);

/* A test case: what it checks, on which series. */
typedef struct {
  const char *path;
  const Series *series;
  CaseFunc func;
} Case;

static const Case cases[] = {
  { "values-equal-report/hrtimer-expires", &expires, test_values_equal_report },
  { "values-equal-report/hrtimer-expires-cpu", &expires_cpu1, test_values_equal_report },
  { "values-equal-report/hrtimer-expires-mode", &expires_mode0, test_values_equal_report },
  { "values-equal-report/write-count-pid", &write_count_pid, test_values_equal_report },
  { "buckets-match-values/hrtimer-expires", &expires, test_buckets_match_values },
  { "row-points/hrtimer-expires", &expires_cpu1, test_row_points },
  { "row-columns/hrtimer-expires", &expires, test_row_columns },
  { "cli-render/hrtimer-expires", &expires_cpu1, test_cli_render },
  { "bad-keys", &expires, test_bad_keys },
  /* The same on public recordings, where they are there. */
  { "values-equal-report/cpu-frequency", &lisa_state, test_values_equal_report },
  { "values-equal-report/cpu-frequency-cpu-id", &lisa_state_cpu0, test_values_equal_report },
  { "values-equal-report/stat-runtime", &sched_runtime, test_values_equal_report },
  { "values-equal-report/stat-runtime-cpu", &sched_runtime_cpu5, test_values_equal_report },
  { "values-equal-report/stat-runtime-pid", &sched_runtime_pid, test_values_equal_report },
  { "buckets-match-values/cpu-frequency", &lisa_state, test_buckets_match_values },
  { "buckets-match-values/stat-runtime", &sched_runtime, test_buckets_match_values },
  { "row-points/cpu-frequency", &lisa_state_cpu0, test_row_points },
  { "row-points/stat-runtime", &sched_runtime_pid, test_row_points },
  { "row-columns/stat-runtime", &sched_runtime, test_row_columns },
  { "cli-render/cpu-frequency", &lisa_state_cpu0, test_cli_render },
};

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *name = cases[i].series->recording->name;
      g_autofree char *path = g_strconcat ("/cs/plugins/FieldPlot/", cases[i].path, NULL);

      /* A public recording's case only skips, naming the folder, without it. */
      if (!g_str_has_prefix (name, "public/") ||
          cs_test_public_or_add_skip (path, name + strlen ("public/")))
        g_test_add (path, CsBuiltinFixture, cases[i].series, set_up, cases[i].func, tear_down);
    }
  return cs_test_render_run ();
}
