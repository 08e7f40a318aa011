/* cs-field-plot-series.c: reading a field plot's series for a frame.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A series is what the pass wrote for one key (cs-field-plot-pass.c).  A
 * frame asks for the values in its span: the points themselves when there
 * are few (one indexed range read, bounded by max_points), otherwise one
 * summary per pixel column from the bucket level just finer than a
 * column, so a frame reads about as many rows as it has columns whatever
 * the recording's size.  Main thread; statements are prepared once.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-field-plot-private.h"

/* A frame's request and what it read, so that redrawing the same span
 * (the pointer moved, the window was exposed) reads nothing. */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  double ns_per_column;
  guint max_points;
  gboolean exact;
  GArray *values;               /* NULL: empty slot */
} Cached;

#define N_CACHED 2

struct _CsFieldPlotSeries
{
  Cached cached[N_CACHED];      /* most recent first */
  sqlite3 *db;                  /* owned by the document */
  sqlite3_stmt *count;
  sqlite3_stmt *points;
  sqlite3_stmt *before;
  sqlite3_stmt *buckets;
  gint64 n_points;
  gint64 min_value;
  gint64 max_value;
  gint64 origin_ns;
  guint min_level;
  guint max_level;
};

static gboolean
sql_error (sqlite3     *db,
           const char  *what,
           GError     **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the field plot's %s: %s"), what, sqlite3_errmsg (db));
  return FALSE;
}

void
_cs_field_plot_series_free (CsFieldPlotSeries *series)
{
  if (series == NULL)
    return;
  sqlite3_finalize (series->count);
  sqlite3_finalize (series->points);
  sqlite3_finalize (series->before);
  sqlite3_finalize (series->buckets);
  for (guint i = 0; i < N_CACHED; i++)
    g_clear_pointer (&series->cached[i].values, g_array_unref);
  g_free (series);
}

/**
 * _cs_field_plot_series_open:
 * @db: a finished pass's database (cs_plugin_document_get_pass_db())
 * @error: %CS_PLUGIN_ERROR_FAILED when it does not hold a series
 *
 * Returns: (transfer full) (nullable): the series, whose statements must
 *   be freed before @db closes
 */
CsFieldPlotSeries *
_cs_field_plot_series_open (sqlite3  *db,
                            GError  **error)
{
  CsFieldPlotSeries *series = g_new0 (CsFieldPlotSeries, 1);
  sqlite3_stmt *s = NULL;
  guint n_found = 0;

  series->db = db;
  if (sqlite3_prepare_v2 (db, "SELECT name, value FROM series", -1, &s, NULL) != SQLITE_OK)
    goto failed;
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (s, 0);
      gint64 value = sqlite3_column_int64 (s, 1);

      n_found++;
      if (g_strcmp0 (name, "n_points") == 0)
        series->n_points = value;
      else if (g_strcmp0 (name, "min_value") == 0)
        series->min_value = value;
      else if (g_strcmp0 (name, "max_value") == 0)
        series->max_value = value;
      else if (g_strcmp0 (name, "origin_ns") == 0)
        series->origin_ns = value;
      else if (g_strcmp0 (name, "min_level") == 0)
        series->min_level = (guint) CLAMP (value, 0, 62);
      else if (g_strcmp0 (name, "max_level") == 0)
        series->max_level = (guint) CLAMP (value, 0, 62);
      else
        n_found--;
    }
  sqlite3_finalize (g_steal_pointer (&s));
  if (n_found != 6 ||
      /* points_rows bisects on ts, and its rowids follow ts. */
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM (SELECT 1 FROM points_rows"
                              " WHERE ts >= ?1 AND ts < ?2 LIMIT ?3)", -1,
                          &series->count, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT ts, value, cpu, pid FROM points_rows"
                              " WHERE ts >= ?1 AND ts < ?2 ORDER BY rowid", -1,
                          &series->points, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT ts, value, cpu, pid FROM points_rows"
                              " WHERE ts < ?1 ORDER BY rowid DESC LIMIT 1", -1,
                          &series->before, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, "SELECT idx, n, min_value, max_value, last_ts, last_value"
                              " FROM buckets WHERE level = ?1 AND idx >= ?2 AND idx <= ?3"
                              " ORDER BY idx", -1,
                          &series->buckets, NULL) != SQLITE_OK)
    goto failed;
  return series;

failed:
  sql_error (db, "summaries", error);
  sqlite3_finalize (s);
  _cs_field_plot_series_free (series);
  return NULL;
}

gint64
_cs_field_plot_series_get_n_points (CsFieldPlotSeries *series)
{
  return series->n_points;
}

/**
 * _cs_field_plot_series_get_range:
 * @series: a series
 * @min_value: (out): its smallest value (0 when it has none)
 * @max_value: (out): its largest
 */
void
_cs_field_plot_series_get_range (CsFieldPlotSeries *series,
                                 gint64            *min_value,
                                 gint64            *max_value)
{
  *min_value = series->min_value;
  *max_value = series->max_value;
}

static void
point_from_row (sqlite3_stmt     *s,
                CsFieldPlotValue *v)
{
  v->ts_ns = sqlite3_column_int64 (s, 0);
  v->n = 1;
  v->min = v->max = v->last = sqlite3_column_int64 (s, 1);
  v->cpu = sqlite3_column_int (s, 2);
  v->pid = sqlite3_column_int (s, 3);
}

/**
 * _cs_field_plot_series_get_before:
 * @series: a series
 * @ts_ns: a time
 * @value: (out caller-allocates): the last point before @ts_ns
 * @error: %CS_PLUGIN_ERROR_FAILED
 *
 * Returns: %TRUE with @value set when there is one; %FALSE otherwise
 *   (with @error set on failure)
 */
gboolean
_cs_field_plot_series_get_before (CsFieldPlotSeries  *series,
                                  gint64              ts_ns,
                                  CsFieldPlotValue   *value,
                                  GError            **error)
{
  sqlite3_stmt *s = series->before;
  int rc;

  sqlite3_bind_int64 (s, 1, ts_ns);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    point_from_row (s, value);
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    sql_error (series->db, "values", error);
  return rc == SQLITE_ROW;
}

/**
 * _cs_field_plot_log2:
 * @n: a number >= 1
 *
 * Returns: floor (log2 (@n)): the bucket level whose width is at most @n ns
 */
guint
_cs_field_plot_log2 (guint64 n)
{
  guint l = 0;

  while (n > 1)
    {
      n >>= 1;
      l++;
    }
  return l;
}

/* One value per column, from the level just finer than a column. */
static gboolean
read_columns (CsFieldPlotSeries  *series,
              gint64              begin_ns,
              gint64              end_ns,
              double              ns_per_column,
              GArray             *values,
              GError            **error)
{
  guint level = CLAMP (_cs_field_plot_log2 ((guint64) MAX (ns_per_column, 1.0)), series->min_level, series->max_level);
  sqlite3_stmt *s = series->buckets;
  CsFieldPlotValue *col = NULL;
  gint64 col_index = -1;
  int rc;

  sqlite3_bind_int (s, 1, level);
  sqlite3_bind_int64 (s, 2, MAX (begin_ns - series->origin_ns, 0) >> level);
  sqlite3_bind_int64 (s, 3, MAX (end_ns - 1 - series->origin_ns, 0) >> level);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 start = series->origin_ns + (sqlite3_column_int64 (s, 0) << level);
      gint64 c = (gint64) ((MAX (start, begin_ns) - begin_ns) / ns_per_column);
      gint64 n = sqlite3_column_int64 (s, 1);
      gint64 min = sqlite3_column_int64 (s, 2);
      gint64 max = sqlite3_column_int64 (s, 3);

      if (c != col_index)
        {
          CsFieldPlotValue v = { .n = 0, .min = min, .max = max, .cpu = -1, .pid = -1 };

          g_array_append_val (values, v);
          col = &g_array_index (values, CsFieldPlotValue, values->len - 1);
          col_index = c;
        }
      col->n += n;
      col->min = MIN (col->min, min);
      col->max = MAX (col->max, max);
      col->ts_ns = sqlite3_column_int64 (s, 4);
      col->last = sqlite3_column_int64 (s, 5);
    }
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_error (series->db, "summaries", error);
}

/* How many points [begin_ns, end_ns) holds at most: the sum over the few
 * coarse buckets that cover it (-1 on failure). */
static gint64
estimate_points (CsFieldPlotSeries *series,
                 gint64             begin_ns,
                 gint64             end_ns)
{
  guint level = CLAMP (_cs_field_plot_log2 ((guint64) MAX (end_ns - begin_ns, 1)) + 1,
                       series->min_level, series->max_level);
  sqlite3_stmt *s = series->buckets;
  gint64 n = 0;
  int rc;

  /* Buckets at least as wide as the span: two of them cover it. */
  sqlite3_bind_int (s, 1, level);
  sqlite3_bind_int64 (s, 2, MAX (begin_ns - series->origin_ns, 0) >> level);
  sqlite3_bind_int64 (s, 3, MAX (end_ns - 1 - series->origin_ns, 0) >> level);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    n += sqlite3_column_int64 (s, 1);
  sqlite3_reset (s);
  return rc == SQLITE_DONE ? n : -1;
}

/* Whether [begin_ns, end_ns) holds at most @max_points points. */
static gboolean
count_at_most (CsFieldPlotSeries  *series,
               gint64              begin_ns,
               gint64              end_ns,
               guint               max_points,
               gboolean           *at_most,
               GError            **error)
{
  gint64 estimate = estimate_points (series, begin_ns, end_ns);
  sqlite3_stmt *s = series->count;
  int rc;

  if (estimate < 0)
    return sql_error (series->db, "summaries", error);
  /* Few enough even counting the neighbours' points; or far too many. */
  if (estimate <= max_points || estimate > 64 * (gint64) max_points)
    {
      *at_most = estimate <= max_points;
      return TRUE;
    }
  sqlite3_bind_int64 (s, 1, begin_ns);
  sqlite3_bind_int64 (s, 2, end_ns);
  sqlite3_bind_int64 (s, 3, (gint64) max_points + 1);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    *at_most = sqlite3_column_int64 (s, 0) <= max_points;
  sqlite3_reset (s);
  return rc == SQLITE_ROW || sql_error (series->db, "values", error);
}

static gboolean
read_points (CsFieldPlotSeries  *series,
             gint64              begin_ns,
             gint64              end_ns,
             GArray             *values,
             GError            **error)
{
  sqlite3_stmt *s = series->points;
  int rc;

  sqlite3_bind_int64 (s, 1, begin_ns);
  sqlite3_bind_int64 (s, 2, end_ns);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsFieldPlotValue v;

      point_from_row (s, &v);
      g_array_append_val (values, v);
    }
  sqlite3_reset (s);
  return rc == SQLITE_DONE || sql_error (series->db, "values", error);
}

/**
 * _cs_field_plot_series_read:
 * @series: a series
 * @begin_ns: start of the span
 * @end_ns: its end (exclusive)
 * @ns_per_column: width of a pixel column, in ns (> 0)
 * @max_points: read the points themselves when the span has at most this
 *   many
 * @values: (element-type CsFieldPlotValue): where the values are appended,
 *   in time order: the points, or one summary per pixel column that has
 *   values (min, max and last value of the column, n values)
 * @exact: (out): whether @values are the points
 * @error: %CS_PLUGIN_ERROR_FAILED
 *
 * The last two requests are remembered: asking again costs a copy.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_field_plot_series_read (CsFieldPlotSeries  *series,
                            gint64              begin_ns,
                            gint64              end_ns,
                            double              ns_per_column,
                            guint               max_points,
                            GArray             *values,
                            gboolean           *exact,
                            GError            **error)
{
  Cached fresh = { begin_ns, end_ns, ns_per_column, max_points, FALSE, NULL };
  gboolean ok;

  for (guint i = 0; i < N_CACHED; i++)
    {
      Cached *c = &series->cached[i];

      if (c->values != NULL && c->begin_ns == begin_ns && c->end_ns == end_ns &&
          c->ns_per_column == ns_per_column && c->max_points == max_points)
        {
          g_array_append_vals (values, c->values->data, c->values->len);
          *exact = c->exact;
          return TRUE;
        }
    }

  fresh.values = g_array_new (FALSE, FALSE, sizeof (CsFieldPlotValue));
  ok = count_at_most (series, begin_ns, end_ns, max_points, &fresh.exact, error) &&
       (fresh.exact ? read_points (series, begin_ns, end_ns, fresh.values, error)
                    : read_columns (series, begin_ns, end_ns, ns_per_column, fresh.values, error));
  if (!ok)
    {
      g_array_unref (fresh.values);
      return FALSE;
    }
  g_array_append_vals (values, fresh.values->data, fresh.values->len);
  *exact = fresh.exact;
  g_clear_pointer (&series->cached[N_CACHED - 1].values, g_array_unref);
  memmove (&series->cached[1], &series->cached[0], (N_CACHED - 1) * sizeof (Cached));
  series->cached[0] = fresh;
  return TRUE;
}
