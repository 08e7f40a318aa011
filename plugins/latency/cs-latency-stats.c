/* cs-latency-stats.c: statistics, histogram and worst-first list of pairs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Queries over the pass's tables (cs-latency-pass.c).  The table
 * latency_worst (the pairs' rowids worst first, by rank) serves both the
 * worst-first list (a page of it is a span of ranks, found by bisection
 * when a histogram bar restricts the durations, since durations fall as
 * ranks grow) and the percentiles (one scan in duration order that picks
 * the ranks and fills the histogram).  A range is a span of rowids of
 * `latency`, since rows follow B's time; its pairs are sorted on their
 * own.
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

/* The first rowid in [1, @n + 1) whose value (the one column of
 * @value, bound to a rowid) is at or after @x, for values that grow with
 * the rowid (B's time in `latency`), or is below @x, for values that fall
 * (@descending: durations in latency_worst). */
static gboolean
first_row_from (sqlite3       *db,
                sqlite3_stmt  *value,
                gint64         n,
                gint64         x,
                gboolean       descending,
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
      if (descending ? v >= x : v < x)
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
  ok = first_row_from (db, s, n, begin_ns, FALSE, &span->lo, error) &&
       first_row_from (db, s, n, end_ns, FALSE, &span->hi, error);
  sqlite3_finalize (s);
  return ok;
}

/* The ranks [@from, @to) of latency_worst whose durations lie in
 * [@min_ns, @max_ns): durations fall as ranks grow, so bisect. */
static gboolean
find_ranks (sqlite3  *db,
            gint64    min_ns,
            gint64    max_ns,
            gint64   *from,
            gint64   *to,
            GError  **error)
{
  sqlite3_stmt *s = prepare (db, "SELECT ifnull(max(rank), 0) FROM latency_worst", NULL, error);
  gint64 n = 0;
  gboolean ok;

  *from = *to = 1;
  if (s == NULL)
    return FALSE;
  if (sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  s = prepare (db, "SELECT dur_ns FROM latency_worst WHERE rank = ?1", NULL, error);
  if (s == NULL)
    return FALSE;
  ok = first_row_from (db, s, n, max_ns, TRUE, from, error) &&
       first_row_from (db, s, n, min_ns, TRUE, to, error);
  sqlite3_finalize (s);
  *to = MAX (*to, *from);
  return ok;
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
  static const guint quantiles[] = { 500, 900, 990, 999 };
  gint64 *targets[] = { &stats->p50_ns, &stats->p90_ns, &stats->p99_ns, &stats->p999_ns };
  g_autofree guint64 *bars = g_new0 (guint64, 65);
  sqlite3_stmt *s;
  guint64 n = 0;
  guint next_q = 0;
  Span span;
  int rc;

  memset (stats, 0, sizeof *stats);
  stats->histogram = g_array_new (FALSE, FALSE, sizeof (CsLatencyBucket));
  if (!find_span (db, begin_ns, end_ns, &span, error))
    return FALSE;
  /* Count first, for the ranks. */
  s = prepare (db, WHOLE (begin_ns, end_ns)
                   ? "SELECT ifnull(max(rank), 0) FROM latency_worst"
                   : "SELECT count(*) FROM latency WHERE rowid >= :lo AND rowid < :hi"
                     " AND a_ts >= :begin", &span, error);
  if (s == NULL)
    return FALSE;
  if (sqlite3_step (s) == SQLITE_ROW)
    stats->count = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  /* A range is sorted on its own (+dur_ns: not through the index, which
   * would scan every pair). */
  s = prepare (db, WHOLE (begin_ns, end_ns)
                   ? "SELECT dur_ns FROM latency_worst ORDER BY rank DESC"
                   : "SELECT dur_ns FROM latency WHERE rowid >= :lo AND rowid < :hi"
                     " AND a_ts >= :begin ORDER BY +dur_ns", &span, error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 d = sqlite3_column_int64 (s, 0);

      n++;
      if (n == 1)
        stats->min_ns = d;
      stats->max_ns = d;
      while (next_q < G_N_ELEMENTS (quantiles) && rank_of (stats->count, quantiles[next_q]) == n)
        *targets[next_q++] = d;
      bars[bucket_of (d)]++;
    }
  sqlite3_finalize (s);
  if (rc != SQLITE_DONE)
    return fail (db, error);
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
  const char *sql = WHOLE (begin_ns, end_ns)
    ? "SELECT l.dur_ns, l.a_ts, l.b_ts, l.a_cpu, l.b_cpu, l.a_row, l.pid, l.pair,"
      " l.k0, l.k1, l.k2, l.k3 FROM latency_worst AS w CROSS JOIN latency AS l"
      " ON l.rowid = w.id WHERE w.rank >= :from AND w.rank < :to ORDER BY w.rank"
    : "SELECT dur_ns, a_ts, b_ts, a_cpu, b_cpu, a_row, pid, pair, k0, k1, k2, k3"
      " FROM latency WHERE rowid >= :lo AND rowid < :hi AND a_ts >= :begin"
      " AND dur_ns >= :min AND dur_ns < :max"
      " ORDER BY +dur_ns DESC, a_ts, a_cpu, a_row LIMIT :limit OFFSET :offset";
  sqlite3_stmt *s;
  Span span;
  int rc;

  if (WHOLE (begin_ns, end_ns))
    {
      gint64 from, to;

      if (!find_ranks (db, min_dur_ns, max_dur_ns, &from, &to, error))
        return FALSE;
      from = (guint64) (to - from) > offset ? from + (gint64) offset : to;
      to = MIN (to, from + (gint64) limit);
      s = prepare (db, sql, NULL, error);
      if (s == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":from"), from);
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":to"), to);
    }
  else
    {
      if (!find_span (db, begin_ns, end_ns, &span, error))
        return FALSE;
      s = prepare (db, sql, &span, error);
      if (s == NULL)
        return FALSE;
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":min"), min_dur_ns);
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":max"), max_dur_ns);
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":limit"), limit);
      sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, ":offset"),
                          (sqlite3_int64) MIN (offset, (guint64) G_MAXINT64));
    }
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
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
