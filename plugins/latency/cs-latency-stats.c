/* cs-latency-stats.c: statistics, histogram and worst-first list of pairs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Queries over the pass's tables (cs-latency-table.c).  The columns of
 * latency_worst (the pairs' durations and rowids, worst first) serve
 * both the worst-first list (a page of it is a span of positions, found
 * by bisection when a histogram bar restricts the durations, since
 * durations fall along the order) and the whole recording's figures (a
 * percentile read at its rank's position, a histogram bar's count
 * between two bisections).  A range is a span of rowids of `latency`,
 * since rows follow B's time; its pairs are sorted on their own and
 * walked once in duration order, which picks the ranks and fills the
 * histogram.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-stats.h"

/* Whole recording: read latency_worst's order. */
#define WHOLE(begin, end) ((begin) == G_MININT64 && (end) == G_MAXINT64)

/* A range of time as a range of rows: [lo, hi) holds the pairs whose B
 * lies in [begin, end), a superset of those in the range. */
typedef struct {
  gint64 begin_ns, end_ns;
  gint64 lo, hi;
} Span;

static gboolean
fail (sqlite3  *db,
      GError  **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the latency pairs: %s"), sqlite3_errmsg (db));
  return FALSE;
}

static void
bind_named (sqlite3_stmt *s,
            const char   *name,
            gint64        value)
{
  int i = sqlite3_bind_parameter_index (s, name);

  if (i > 0)
    sqlite3_bind_int64 (s, i, value);
}

static sqlite3_stmt *
prepare (sqlite3     *db,
         const char  *sql,
         const Span  *span,
         GError     **error)
{
  sqlite3_stmt *s = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    {
      fail (db, error);
      return NULL;
    }
  if (span != NULL)
    {
      bind_named (s, ":begin", span->begin_ns);
      bind_named (s, ":end", span->end_ns);
      bind_named (s, ":lo", span->lo);
      bind_named (s, ":hi", span->hi);
    }
  return s;
}

/* The first rowid in [1, @n + 1) whose B is at or after @ts_ns: rows
 * are written in B's time order (cs-latency-table.c), so bisect. */
static gboolean
first_row_from (sqlite3       *db,
                sqlite3_stmt  *value,
                gint64         n,
                gint64         x,
                gint64        *row,
                GError       **error)
{
  gint64 lo = 1, hi = n + 1;

  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2;
      int rc;

      gint64 v;

      sqlite3_bind_int64 (value, 1, mid);
      rc = sqlite3_step (value);
      if (rc != SQLITE_ROW)
        {
          sqlite3_reset (value);
          return fail (db, error);
        }
      v = sqlite3_column_int64 (value, 0);
      if (v < x)
        lo = mid + 1;
      else
        hi = mid;
      sqlite3_reset (value);
    }
  *row = lo;
  return TRUE;
}

static gboolean
find_span (sqlite3  *db,
           gint64    begin_ns,
           gint64    end_ns,
           Span     *span,
           GError  **error)
{
  sqlite3_stmt *s = prepare (db, "SELECT ifnull(max(rowid), 0) FROM latency", NULL, error);
  gint64 n = 0;
  gboolean ok;

  *span = (Span) { begin_ns, end_ns, 1, 1 };
  if (s == NULL)
    return FALSE;
  if (sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  s = prepare (db, "SELECT b_ts FROM latency WHERE rowid = ?1", NULL, error);
  if (s == NULL)
    return FALSE;
  ok = first_row_from (db, s, n, begin_ns, &span->lo, error) &&
       first_row_from (db, s, n, end_ns, &span->hi, error);
  sqlite3_finalize (s);
  return ok;
}

/**
 * cs_latency_find_rows:
 * @db: a latency pass's database
 * @begin_ns: start of a span of time
 * @end_ns: its end, exclusive
 * @lo: (out): first rowid of the pairs whose B lies in [@begin_ns, @end_ns)
 * @hi: (out): the rowid after the last of them (@lo when there is none)
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The rows of table `latency` whose B lies in a span: they are
 * consecutive, since rows are written in B's time order.  Costs two
 * bisections of the table (about 2 log2(pairs) row reads).
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_find_rows (sqlite3  *db,
                      gint64    begin_ns,
                      gint64    end_ns,
                      gint64   *lo,
                      gint64   *hi,
                      GError  **error)
{
  Span span;

  if (!find_span (db, begin_ns, end_ns, &span, error))
    return FALSE;
  *lo = span.lo;
  *hi = MAX (span.lo, span.hi);
  return TRUE;
}

/* How many pairs there are. */
static gboolean
count_pairs (sqlite3  *db,
             gint64   *n,
             GError  **error)
{
  sqlite3_stmt *s = prepare (db, "SELECT ifnull(max(rowid), 0) FROM latency", NULL, error);
  int rc;

  *n = 0;
  if (s == NULL)
    return FALSE;
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    *n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return rc == SQLITE_ROW || fail (db, error);
}

/**
 * cs_latency_stats_count:
 * @db: a finished latency pass database
 * @count: (out): how many pairs it holds (the #CsLatencyStats.count of
 *   the whole recording), without the scan of their durations that
 *   cs_latency_stats_compute() makes
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_stats_count (sqlite3  *db,
                        gint64   *count,
                        GError  **error)
{
  return count_pairs (db, count, error);
}

/* The first position of the worst-first durations @dur that is below @x
 * (the number of pairs when none is): they fall along the order. */
static gboolean
first_below (CsPluginResultColumn  *dur,
             gint64                 x,
             gint64                *position,
             GError               **error)
{
  if (x == G_MININT64)
    return cs_plugin_result_column_get_n_positions (dur, position, error);
  return cs_plugin_result_column_find (dur, x - 1, TRUE, position, error);
}

/* The positions [@from, @to) of the worst-first order whose durations
 * lie in [@min_ns, @max_ns). */
static gboolean
find_positions (sqlite3  *db,
                gint64    min_ns,
                gint64    max_ns,
                gint64   *from,
                gint64   *to,
                GError  **error)
{
  g_autoptr(CsPluginResultColumn) dur = NULL;

  *from = *to = 0;
  dur = cs_plugin_result_column_new (db, "latency_worst", "dur_ns", error);
  if (dur == NULL ||
      !first_below (dur, max_ns, from, error) ||
      !first_below (dur, min_ns, to, error))
    return FALSE;
  *to = MAX (*to, *from);
  return TRUE;
}

/* The histogram bar of a duration: 0 for [0, 1), k for [2^(k-1), 2^k). */
static guint
bucket_of (gint64 dur_ns)
{
  return dur_ns <= 0 ? 0 : 64 - __builtin_clzll ((guint64) dur_ns);
}

static gint64
bucket_lo (guint b)
{
  return b == 0 ? 0 : G_GINT64_CONSTANT (1) << (b - 1);
}

static gint64
bucket_hi (guint b)
{
  return b >= 63 ? G_MAXINT64 : G_GINT64_CONSTANT (1) << b;
}

/* The 1-based rank of the per-mille quantile @q of @n values. */
static guint64
rank_of (guint64 n,
         guint   q)
{
  guint64 r = (n * q + 999) / 1000;

  return MAX (r, 1);
}

static const guint quantiles[] = { 500, 900, 990, 999 };
#define N_QUANTILES G_N_ELEMENTS (quantiles)

/* Where each percentile of @stats goes, in quantiles[]'s order. */
static void
quantile_targets (CsLatencyStats *stats,
                  gint64        **targets)
{
  targets[0] = &stats->p50_ns;
  targets[1] = &stats->p90_ns;
  targets[2] = &stats->p99_ns;
  targets[3] = &stats->p999_ns;
}

/* Takes the @n-th shortest duration (@n counts them, from 0), @d, into
 * @stats and the histogram's @bars; @ranks: each percentile's rank
 * (rank_of() of stats->count, known beforehand), @targets where it goes
 * (quantile_targets()). */
static inline void
add_duration (CsLatencyStats *stats,
              const guint64  *ranks,
              gint64 * const *targets,
              guint64        *bars,
              guint64        *n,
              gint64          d)
{
  ++*n;
  if (*n == 1)
    stats->min_ns = d;
  stats->max_ns = d;
  for (guint q = 0; q < N_QUANTILES; q++)
    if (ranks[q] == *n)
      *targets[q] = d;
  bars[bucket_of (d)]++;
}

/* The whole recording's figures from latency_worst's order alone, with
 * no walk over its pairs: a percentile is the duration at its rank's
 * position (the order is worst first: the rank r shortest sits at count
 * - r), and a histogram bar [lo, hi) the positions between the first
 * duration below hi and the first below lo, found by bisection.  Walking
 * the 5.1 M wakeups of the large benchmark recording took ~100 ms, each
 * time the Latency page or `chronoscope latency` showed them. */
static gboolean
whole_stats (sqlite3         *db,
             CsLatencyStats  *stats,
             guint64         *bars,
             GError         **error)
{
  g_autoptr(CsPluginResultColumn) dur = cs_plugin_result_column_new (db, "latency_worst", "dur_ns", error);
  gint64 *targets[N_QUANTILES];
  gint64 count, below_hi = 0;
  guint b_min, b_max;

  if (dur == NULL || !count_pairs (db, &count, error))
    return FALSE;
  stats->count = count;
  if (count == 0)
    return TRUE;
  if (!cs_plugin_result_column_get (dur, count - 1, &stats->min_ns, error) ||
      !cs_plugin_result_column_get (dur, 0, &stats->max_ns, error))
    return FALSE;
  quantile_targets (stats, targets);
  for (guint q = 0; q < N_QUANTILES; q++)
    if (!cs_plugin_result_column_get (dur, count - (gint64) rank_of (count, quantiles[q]),
                                      targets[q], error))
      return FALSE;
  /* Bar b holds the durations at or above its low edge less those at or
   * above the next bar's; none lies below the lowest bar's, nor at or
   * above the highest's high edge. */
  b_min = bucket_of (stats->min_ns);
  b_max = bucket_of (stats->max_ns);
  for (guint b = b_max + 1; b-- > b_min;)
    {
      gint64 below_lo = count;

      if (b > b_min && !first_below (dur, bucket_lo (b), &below_lo, error))
        return FALSE;
      bars[b] = (guint64) (below_lo - below_hi);
      below_hi = below_lo;
    }
  return TRUE;
}

/**
 * cs_latency_stats_compute:
 * @db: a finished latency pass database
 * @begin_ns: start of the range (G_MININT64: from the first pair)
 * @end_ns: end of the range, exclusive (G_MAXINT64: to the last pair)
 * @stats: (out caller-allocates): the figures; clear them with
 *   cs_latency_stats_clear()
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Count, min, percentiles, max and the histogram of the pairs in the
 * range.  Costs one scan of the range's pairs in duration order.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_stats_compute (sqlite3         *db,
                          gint64           begin_ns,
                          gint64           end_ns,
                          CsLatencyStats  *stats,
                          GError         **error)
{
  g_autofree guint64 *bars = g_new0 (guint64, 65);
  guint64 ranks[N_QUANTILES];
  gint64 *targets[N_QUANTILES];
  sqlite3_stmt *s;
  guint64 n = 0;
  Span span;
  int rc;

  memset (stats, 0, sizeof *stats);
  stats->histogram = g_array_new (FALSE, FALSE, sizeof (CsLatencyBucket));
  if (WHOLE (begin_ns, end_ns))
    {
      if (!whole_stats (db, stats, bars, error))
        return FALSE;
      n = (guint64) stats->count;
    }
  else
    {
      if (!find_span (db, begin_ns, end_ns, &span, error))
        return FALSE;
      /* Count first, for the ranks. */
      s = prepare (db, "SELECT count(*) FROM latency WHERE rowid >= :lo AND rowid < :hi"
                       " AND a_ts >= :begin", &span, error);
      if (s == NULL)
        return FALSE;
      if (sqlite3_step (s) == SQLITE_ROW)
        stats->count = sqlite3_column_int64 (s, 0);
      sqlite3_finalize (s);
      for (guint q = 0; q < N_QUANTILES; q++)
        ranks[q] = rank_of (stats->count, quantiles[q]);
      quantile_targets (stats, targets);
      /* A range is sorted on its own. */
      s = prepare (db, "SELECT dur_ns FROM latency WHERE rowid >= :lo AND rowid < :hi"
                       " AND a_ts >= :begin ORDER BY dur_ns", &span, error);
      if (s == NULL)
        return FALSE;
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        add_duration (stats, ranks, targets, bars, &n, sqlite3_column_int64 (s, 0));
      sqlite3_finalize (s);
      if (rc != SQLITE_DONE)
        return fail (db, error);
    }
  stats->count = n;
  if (n > 0)
    for (guint b = bucket_of (stats->min_ns); b <= bucket_of (stats->max_ns); b++)
      {
        CsLatencyBucket bar = { bucket_lo (b), bucket_hi (b), bars[b] };

        g_array_append_val (stats->histogram, bar);
      }
  return TRUE;
}

/**
 * cs_latency_stats_clear:
 * @stats: figures from cs_latency_stats_compute()
 *
 * Frees what @stats holds.
 */
void
cs_latency_stats_clear (CsLatencyStats *stats)
{
  g_clear_pointer (&stats->histogram, g_array_unref);
}

/* The columns of `latency` append_item() reads, in its order. */
#define ITEM_COLUMNS "dur_ns, a_ts, b_ts, a_cpu, b_cpu, a_row, pid, pair, k0, k1, k2, k3"

/* Appends the pair of @s's row (ITEM_COLUMNS) to @items. */
static void
append_item (sqlite3_stmt *s,
             GArray       *items)
{
  CsLatencyItem item = { 0 };

  item.dur_ns = sqlite3_column_int64 (s, 0);
  item.a_ts_ns = sqlite3_column_int64 (s, 1);
  item.b_ts_ns = sqlite3_column_int64 (s, 2);
  item.a_cpu = sqlite3_column_int (s, 3);
  item.b_cpu = sqlite3_column_int (s, 4);
  item.a_row = sqlite3_column_int64 (s, 5);
  item.pid = sqlite3_column_int (s, 6);
  item.pair = sqlite3_column_int (s, 7);
  for (guint k = 0; k < CS_LATENCY_MAX_KEYS; k++)
    if (sqlite3_column_type (s, 8 + k) != SQLITE_NULL)
      {
        item.key[k] = sqlite3_column_int64 (s, 8 + k);
        item.n_keys = k + 1;
      }
  g_array_append_val (items, item);
}

/**
 * cs_latency_list_worst:
 * @db: a finished latency pass database
 * @begin_ns: start of the range (G_MININT64: from the first pair)
 * @end_ns: end of the range, exclusive (G_MAXINT64: to the last pair)
 * @min_dur_ns: keep pairs lasting at least this (0: all)
 * @max_dur_ns: and less than this (G_MAXINT64: all), as a histogram bar
 * @offset: how many of the worst to skip
 * @limit: how many to append at most
 * @items: (element-type CsLatencyItem): where they are appended
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * The pairs worst first: longest duration first, then A's time, A's CPU
 * and A's row, ascending.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_list_worst (sqlite3   *db,
                       gint64     begin_ns,
                       gint64     end_ns,
                       gint64     min_dur_ns,
                       gint64     max_dur_ns,
                       guint64    offset,
                       guint      limit,
                       GArray    *items,
                       GError   **error)
{
  sqlite3_stmt *s;
  Span span;
  int rc;

  if (WHOLE (begin_ns, end_ns))
    {
      g_autoptr(CsPluginResultColumn) ids = NULL;
      gint64 from, to;
      gboolean ok = TRUE;

      if (!find_positions (db, min_dur_ns, max_dur_ns, &from, &to, error))
        return FALSE;
      from = (guint64) (to - from) > offset ? from + (gint64) offset : to;
      to = MIN (to, from + (gint64) limit);
      ids = cs_plugin_result_column_new (db, "latency_worst", "id", error);
      s = ids != NULL ? prepare (db, "SELECT " ITEM_COLUMNS " FROM latency WHERE rowid = ?1",
                                 NULL, error) : NULL;
      if (s == NULL)
        return FALSE;
      for (gint64 pos = from; ok && pos < to; pos++)
        {
          gint64 id;

          ok = cs_plugin_result_column_get (ids, pos, &id, error);
          if (ok)
            {
              sqlite3_bind_int64 (s, 1, id);
              rc = sqlite3_step (s);
              if (rc == SQLITE_ROW)
                append_item (s, items);
              sqlite3_reset (s);
              if (rc != SQLITE_ROW)
                ok = fail (db, error);
            }
        }
      sqlite3_finalize (s);
      return ok;
    }
  if (!find_span (db, begin_ns, end_ns, &span, error))
    return FALSE;
  s = prepare (db, "SELECT " ITEM_COLUMNS
                   " FROM latency WHERE rowid >= :lo AND rowid < :hi AND a_ts >= :begin"
                   " AND dur_ns >= :min AND dur_ns < :max"
                   " ORDER BY dur_ns DESC, a_ts, a_cpu, a_row LIMIT :limit OFFSET :offset",
               &span, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":min"), min_dur_ns);
  sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":max"), max_dur_ns);
  sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":limit"), limit);
  sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":offset"),
                      (sqlite3_int64) MIN (offset, (guint64) G_MAXINT64));
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    append_item (s, items);
  sqlite3_finalize (s);
  return rc == SQLITE_DONE || fail (db, error);
}

void
cs_latency_pair_info_free (gpointer data)
{
  CsLatencyPairInfo *info = data;

  g_free (info->definition);
  g_free (info->a_event);
  g_free (info->b_event);
  g_free (info->a_keys);
  g_free (info);
}

/**
 * cs_latency_list_pairs:
 * @db: a finished latency pass database
 * @error: %CS_PLUGIN_ERROR_FAILED when the database cannot be read
 *
 * Returns: (transfer full) (element-type CsLatencyPairInfo) (nullable):
 *   the definition's pairs, in CsLatencyItem.pair order
 */
GPtrArray *
cs_latency_list_pairs (sqlite3  *db,
                       GError  **error)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (cs_latency_pair_info_free);
  sqlite3_stmt *s = prepare (db, "SELECT definition, a_event, b_event, a_keys, n_a, n_b,"
                                 " n_pairs, n_unmatched FROM latency_pair ORDER BY pair",
                             NULL, error);
  int rc;

  if (s == NULL)
    return NULL;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsLatencyPairInfo *info = g_new0 (CsLatencyPairInfo, 1);

      info->definition = g_strdup ((const char *) sqlite3_column_text (s, 0));
      info->a_event = g_strdup ((const char *) sqlite3_column_text (s, 1));
      info->b_event = g_strdup ((const char *) sqlite3_column_text (s, 2));
      info->a_keys = g_strdup ((const char *) sqlite3_column_text (s, 3));
      info->n_a = sqlite3_column_int64 (s, 4);
      info->n_b = sqlite3_column_int64 (s, 5);
      info->n_pairs = sqlite3_column_int64 (s, 6);
      info->n_unmatched = sqlite3_column_int64 (s, 7);
      g_ptr_array_add (pairs, info);
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    {
      fail (db, error);
      return NULL;
    }
  return g_steal_pointer (&pairs);
}

/**
 * cs_latency_format_ns:
 * @ns: a duration in ns, >= 0
 *
 * Returns: (transfer full): the duration for people: "512 ns",
 *   "12.345 µs", "1.500 ms", "2.000 s"
 */
char *
cs_latency_format_ns (gint64 ns)
{
  if (ns < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.3f µs", ns / 1e3);
  if (ns < 1000000000)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

/**
 * cs_latency_describe_key:
 * @info: the pair of event types @item belongs to
 * @item: a measured pair
 *
 * Returns: (transfer full): the key as A's parts name it: "pid=42" or
 *   "irq=5,@cpu=1"
 */
char *
cs_latency_describe_key (const CsLatencyPairInfo *info,
                         const CsLatencyItem     *item)
{
  g_auto(GStrv) names = g_strsplit (info->a_keys, ",", -1);
  GString *text = g_string_new (NULL);

  for (guint k = 0; k < item->n_keys && names[k] != NULL; k++)
    g_string_append_printf (text, "%s%s=%" G_GINT64_FORMAT, k > 0 ? "," : "", names[k],
                            item->key[k]);
  return g_string_free (text, FALSE);
}
