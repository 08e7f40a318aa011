/* cs-latency-stats.h: figures and lists read from the latency pass's tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every function reads a finished pass database
 * (cs_plugin_document_get_pass_db() for the pass "pairs"), on the main
 * thread, with the tables cs-latency-pass.c describes.  A range
 * [begin_ns, end_ns) keeps the pairs that lie inside it: A at or after
 * @begin_ns and B before @end_ns; G_MININT64 .. G_MAXINT64 keeps them all.
 */
#pragma once

#include <chronoscope-plugin.h>

#include "cs-latency-def.h"

G_BEGIN_DECLS

/**
 * CsLatencyBucket:
 * @lo_ns: the shortest duration it holds
 * @hi_ns: the end of its durations, exclusive: [lo_ns, hi_ns)
 * @count: how many pairs
 *
 * One bar of the histogram.  Bars double in width: [0, 1), [1, 2), [2, 4),
 * [4, 8) ... ns, a logarithmic time axis with no gap between bars.
 */
typedef struct {
  gint64 lo_ns;
  gint64 hi_ns;
  guint64 count;
} CsLatencyBucket;

/**
 * CsLatencyStats:
 * @count: pairs in the range
 * @min_ns: the shortest (0 when @count is 0)
 * @p50_ns: the median, and @p90_ns, @p99_ns, @p999_ns the 90th, 99th and
 *   99.9th percentiles: nearest rank, the ⌈q·count⌉-th shortest pair
 * @p90_ns: see @p50_ns
 * @p99_ns: see @p50_ns
 * @p999_ns: see @p50_ns
 * @max_ns: the longest
 * @histogram: (element-type CsLatencyBucket): bars from the shortest
 *   pair's to the longest's, empty ones between included
 *
 * Statistics of the pairs in a range.
 */
typedef struct {
  guint64 count;
  gint64 min_ns;
  gint64 p50_ns;
  gint64 p90_ns;
  gint64 p99_ns;
  gint64 p999_ns;
  gint64 max_ns;
  GArray *histogram;
} CsLatencyStats;

/**
 * CsLatencyItem:
 * @dur_ns: B's time − A's time
 * @a_ts_ns: A's time
 * @b_ts_ns: B's time
 * @a_cpu: A's CPU
 * @b_cpu: B's CPU
 * @a_row: A's position among its CPU's events (CsPluginEventRef.row)
 * @pid: the pair's task (cs-latency-def.h, CsLatencyPair.pid_key)
 * @pair: which CsLatencyPair of the definition
 * @n_keys: how many key parts
 * @key: the key's values, as in CsLatencyPair.a_keys
 *
 * One measured pair.
 */
typedef struct {
  gint64 dur_ns;
  gint64 a_ts_ns;
  gint64 b_ts_ns;
  guint a_cpu;
  guint b_cpu;
  guint64 a_row;
  gint32 pid;
  guint pair;
  guint n_keys;
  gint64 key[CS_LATENCY_MAX_KEYS];
} CsLatencyItem;

/**
 * CsLatencyPairInfo:
 * @definition: the pair as text (cs_latency_pair_describe())
 * @a_event: "system:name" of A
 * @b_event: "system:name" of B
 * @a_keys: A's key parts joined with commas
 * @n_a: A events seen over the recording
 * @n_b: B events seen
 * @n_pairs: pairs measured
 * @n_unmatched: A's that found no B (replaced by a newer A, or open at
 *   the end)
 *
 * What the pass saw of one pair of the definition, whole recording.
 */
typedef struct {
  char *definition;
  char *a_event;
  char *b_event;
  char *a_keys;
  guint64 n_a;
  guint64 n_b;
  guint64 n_pairs;
  guint64 n_unmatched;
} CsLatencyPairInfo;

gboolean cs_latency_stats_compute   (sqlite3         *db,
                                     gint64           begin_ns,
                                     gint64           end_ns,
                                     CsLatencyStats  *stats,
                                     GError         **error);
void     cs_latency_stats_clear     (CsLatencyStats  *stats);
gboolean cs_latency_stats_count     (sqlite3         *db,
                                     gint64          *count,
                                     GError         **error);
gboolean cs_latency_list_worst      (sqlite3         *db,
                                     gint64           begin_ns,
                                     gint64           end_ns,
                                     gint64           min_dur_ns,
                                     gint64           max_dur_ns,
                                     guint64          offset,
                                     guint            limit,
                                     GArray          *items,
                                     GError         **error);
gboolean cs_latency_find_rows       (sqlite3         *db,
                                     gint64           begin_ns,
                                     gint64           end_ns,
                                     gint64          *lo,
                                     gint64          *hi,
                                     GError         **error);
GPtrArray *cs_latency_list_pairs    (sqlite3         *db,
                                     GError         **error);
void     cs_latency_pair_info_free  (gpointer         info);
char    *cs_latency_format_ns       (gint64           ns);
char    *cs_latency_describe_key    (const CsLatencyPairInfo *info,
                                     const CsLatencyItem     *item);

G_END_DECLS
