/* cs-sql-event-buckets.c: weighted rows of the event tables per time
 * bucket, for `SELECT ts / N, count(*) ... GROUP BY 1`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A histogram over time reads ts, which no count of the index tells
 * apart: SQLite would step through every event, each row made by the
 * virtual table one value at a time (5 M events in 3.1 s).  Given the
 * buckets' width (cs-sql-event-plan.c), the table instead hands out one
 * weighted row per bucket and group of the counted plans (per CPU, per
 * CPU and event type, per task), its ts one that falls in the bucket, so
 * that SQLite sums a few thousand weights.  Buckets coarser than the
 * index's chunks are counted by bisection at their edges; finer ones
 * from the chunks' columns in C, no record read: per CPU by bisection of
 * each chunk's ts column, the only one decoded; per type or task row by
 * row.
 */
#include "config.h"

#include <string.h>

#include "cs-sql-private.h"

typedef struct {
  const CsSqlBuckets *buckets;
  CsSqlCountBy by;
  gint cpu;
  gint type_id;
  gint64 pid;                   /* the bound on pid, -1 for any */
  GArray *groups;
  guint max_groups;
  gboolean failed;              /* too many groups, or ts - origin out of range */
  /* The bucket of the last event, the ts - origin it holds ([d_lo,
   * d_hi], empty before a CPU's first event: no division for the events
   * after it in it), and its groups by key (pid or type): key -> index in
   * groups + 1.  A CPU's events come in time order, so a bucket's groups
   * are all made before the next bucket's. */
  gint64 d_lo, d_hi;
  GHashTable *slots;
  gint32 last_key;
  guint last_slot;
  /* Type ids, which alternate from event to event, are looked up in
   * arrays instead (n_keys of them): a key's slot is this bucket's when
   * its generation is the bucket's. */
  guint *key_slots;
  guint32 *key_gen;
  guint n_keys;
  guint32 gen;
} BucketScan;

/* The bucket of @ts: (ts - origin) / width, truncated toward 0 as
 * SQLite's integer division is; FALSE when ts - origin is no 64-bit
 * integer (SQLite would then compute in floating point). */
static gboolean
bucket_of (const CsSqlBuckets *b,
           gint64              ts,
           gint64             *bucket)
{
  gint64 d;

  if (__builtin_sub_overflow (ts, b->origin, &d))
    return FALSE;
  *bucket = d / b->width;
  return TRUE;
}

/* The values of ts - origin in the bucket of @d, [*@lo, *@hi]: bucket k
 * holds [k w, k w + w - 1] above 0, [k w - w + 1, k w] below, and
 * [-w + 1, w - 1] for k = 0 (the division truncates toward 0). */
static void
bucket_range (gint64  d,
              gint64  width,
              gint64 *lo,
              gint64 *hi)
{
  gint64 k = d / width, edge = k * width;

  if (k > 0 || (k == 0 && d >= 0))
    {
      *lo = k > 0 ? edge : -(width - 1);
      if (__builtin_add_overflow (edge, width - 1, hi))
        *hi = G_MAXINT64;
    }
  if (k < 0 || (k == 0 && d < 0))
    {
      *hi = k < 0 ? edge : width - 1;
      if (__builtin_sub_overflow (edge, width - 1, lo))
        *lo = G_MININT64;
    }
}

/* Moves to the bucket of an event at @ts, unless it is in the current
 * one; FALSE (the scan failed) when ts - origin is out of range. */
static inline gboolean
enter_bucket (BucketScan *bs,
              gint64      ts)
{
  gint64 d;

  if (__builtin_sub_overflow (ts, bs->buckets->origin, &d))
    {
      bs->failed = TRUE;
      return FALSE;
    }
  /* Most events are in the bucket of the one before: no division. */
  if (G_UNLIKELY (d < bs->d_lo || d > bs->d_hi))
    {
      bucket_range (d, bs->buckets->width, &bs->d_lo, &bs->d_hi);
      if (bs->n_keys == 0)
        g_hash_table_remove_all (bs->slots);
      else if (++bs->gen == 0)
        {
          memset (bs->key_gen, 0, bs->n_keys * sizeof *bs->key_gen);
          bs->gen = 1;
        }
      bs->last_slot = 0;
    }
  return TRUE;
}

/* Adds @n events of @key (a pid, a type id or 0, as the groups go), the
 * first of them at @ts, to the current bucket's group of @key; FALSE
 * (the scan failed) when it would be one group too many. */
static inline gboolean
add_to_group (BucketScan *bs,
              gint32      key,
              gint64      ts,
              guint64     n)
{
  if (bs->last_slot == 0 || key != bs->last_key)
    {
      gboolean direct = (guint32) key < bs->n_keys;
      guint slot = direct ? (bs->key_gen[key] == bs->gen ? bs->key_slots[key] : 0)
                          : GPOINTER_TO_UINT (g_hash_table_lookup (bs->slots, GINT_TO_POINTER (key)));

      if (slot == 0)
        {
          CsSqlCountGroup g = { -1, bs->cpu, bs->type_id, 0, FALSE, 0, ts };

          if (bs->groups->len >= bs->max_groups)
            {
              bs->failed = TRUE;
              return FALSE;
            }
          if (bs->by == CS_SQL_COUNT_BY_PID)
            {
              g.pid = key;
              g.cpu = -1;
            }
          else if (bs->by == CS_SQL_COUNT_BY_CPU_TYPE)
            g.type_id = key;
          g_array_append_val (bs->groups, g);
          slot = bs->groups->len;
          if (direct)
            {
              bs->key_slots[key] = slot;
              bs->key_gen[key] = bs->gen;
            }
          else
            g_hash_table_insert (bs->slots, GINT_TO_POINTER (key), GUINT_TO_POINTER (slot));
        }
      bs->last_key = key;
      bs->last_slot = slot;
    }
  g_array_index (bs->groups, CsSqlCountGroup, bs->last_slot - 1).n += n;
  return TRUE;
}

/* The rows [@from, @to) of an event chunk counted per bucket and group
 * one by one: per task, per type, or of the typed table's type per CPU.
 * Only the columns the groups need are decoded (ts, and pid or type). */
static gboolean
bucket_rows (const CsEventChunkCache *chunk,
             guint                    from,
             guint                    to,
             gpointer                 user_data)
{
  BucketScan *bs = user_data;
  const gint64 *ts = chunk->cols[EV_TS];
  const gint64 *pids = chunk->cols[EV_PID], *types = chunk->cols[EV_TYPE];

  for (guint i = from; i < to; i++)
    {
      gint32 key = 0;

      if (bs->by == CS_SQL_COUNT_BY_PID)
        {
          key = (gint32) pids[i];
          if (bs->pid >= 0 && key != bs->pid)
            continue;
        }
      else if (bs->by == CS_SQL_COUNT_BY_CPU_TYPE)
        key = (gint32) types[i];
      else if (types[i] != bs->type_id)
        continue;
      if (!enter_bucket (bs, ts[i]) || !add_to_group (bs, key, ts[i], 1))
        return FALSE;
    }
  return TRUE;
}

/* The rows [@from, @to) of an event chunk counted per bucket, for
 * CS_SQL_COUNT_BY_CPU of every type: a CPU's events of one bucket are
 * consecutive, so each bucket's are found by bisection of the chunk's ts
 * column rather than one by one (1 ms buckets of the large benchmark
 * recording's 82 M events: 1.28 -> 0.34 s, with only the ts column
 * decoded).  A chunk whose times go back (a damaged recording) is
 * counted row by row. */
static gboolean
bucket_chunk (const CsEventChunkCache *chunk,
              guint                    from,
              guint                    to,
              gpointer                 user_data)
{
  BucketScan *bs = user_data;
  const gint64 *ts = chunk->cols[EV_TS];
  gboolean sorted = TRUE;

  for (guint k = from + 1; k < to; k++)
    sorted &= ts[k - 1] <= ts[k];
  for (guint i = from, next; i < to; i = next)
    {
      gint64 last_ts;
      guint hi = to;

      if (!enter_bucket (bs, ts[i]))
        return FALSE;
      /* d_hi + origin >= ts[i]: it can only overflow upward. */
      if (__builtin_add_overflow (bs->d_hi, bs->buckets->origin, &last_ts))
        last_ts = G_MAXINT64;
      next = i + 1;
      while (sorted && next < hi)
        {
          guint mid = next + (hi - next) / 2;

          if (ts[mid] <= last_ts)
            next = mid + 1;
          else
            hi = mid;
        }
      if (!add_to_group (bs, 0, ts[i], next - i))
        return FALSE;
    }
  return TRUE;
}

/* Every event of @cpu in [@lo, @hi) at or after the origin, counted per
 * bucket by bisection at the buckets' edges; *@done FALSE, nothing
 * counted, when the buckets are not fewer than a quarter of the span's
 * chunks (the walk is then cheaper: the CPU's chunks, which bound the
 * span's, tell most such buckets before any chunk is read), or when one
 * is out of range.  FALSE with @error set when a chunk cannot be read. */
static gboolean
count_by_edges (CsDocument         *doc,
                guint               cpu,
                gint64              lo,
                gint64              hi,
                const CsSqlBuckets *b,
                BucketScan         *bs,
                gboolean           *done,
                GError            **error)
{
  gint64 first, last;
  guint64 before, end;

  *done = FALSE;
  if (lo < b->origin || !bucket_of (b, lo, &first) || !bucket_of (b, hi - 1, &last) ||
      (guint64) (last - first) >= (cs_document_get_cpu (doc, cpu)->n_events / CS_EVENT_CHUNK_ROWS + 1) / 4 ||
      (guint64) (last - first) >= bs->max_groups - bs->groups->len)
    return TRUE;
  before = _cs_document_count_before (doc, cpu, lo, error);
  end = before == G_MAXUINT64 ? before : _cs_document_count_before (doc, cpu, hi, error);
  if (end == G_MAXUINT64)
    return FALSE;
  if ((guint64) (last - first) >= ((end - before) / CS_EVENT_CHUNK_ROWS + 1) / 4)
    return TRUE;
  for (gint64 k = first; k <= last; k++)
    {
      CsSqlCountGroup g = { -1, (gint) cpu, -1, 0, FALSE, 0, 0 };
      guint64 at;

      /* origin <= origin + k * width <= hi - 1 (k <= last): no overflow;
       * the last bucket ends at hi, counted already. */
      g.ts = b->origin + k * b->width;
      at = k == last ? end : _cs_document_count_before (doc, cpu, g.ts + b->width, error);
      if (at == G_MAXUINT64)
        return FALSE;
      g.n = at - before;
      before = at;
      if (g.n > 0)
        g_array_append_val (bs->groups, g);
    }
  *done = TRUE;
  return TRUE;
}

/**
 * _cs_sql_count_bucket_groups:
 * @doc: the document
 * @type_id: the table's event type, or -1 for every event
 * @by: %CS_SQL_COUNT_BY_PID (only with @type_id -1), %CS_SQL_COUNT_BY_CPU
 *   or %CS_SQL_COUNT_BY_CPU_TYPE (only with @type_id -1)
 * @bounds: the pushed-down constraints: cpu, pid, and a span of time
 * @buckets: the buckets' width (> 0) and origin, in nanoseconds
 * @max_groups: the most groups to make
 * @answered: (out): %FALSE when the groups would be more than
 *   @max_groups, or an event's ts - origin is out of range (the caller
 *   then scans); the result is then %NULL, @error unset
 * @error: an error of the index (%CS_INDEX_ERROR) when the chunks cannot
 *   be read
 *
 * The events of @bounds counted per group of @by and per time bucket
 * (ts - origin) / width, each group's @ts that of one of its events (or
 * the start of its bucket), so that every expression of the bucket has
 * on it the value it has on each of the group's events.  The same group
 * may come more than once (a task on several CPUs): SQLite's GROUP BY
 * adds them up.  Without the empty ones, in no particular order.
 *
 * Returns: (transfer full) (element-type CsSqlCountGroup) (nullable): the
 *   groups; %NULL when not @answered or with @error set
 */
GArray *
_cs_sql_count_bucket_groups (CsDocument         *doc,
                             gint                type_id,
                             CsSqlCountBy        by,
                             const CsSqlBounds  *bounds,
                             const CsSqlBuckets *buckets,
                             guint               max_groups,
                             gboolean           *answered,
                             GError            **error)
{
  guint n_types = cs_document_get_n_event_types (doc);
  g_autofree gboolean *wanted = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (CsSqlCountGroup));
  g_autoptr(GHashTable) slots = g_hash_table_new (NULL, NULL);
  /* Keys of groups other than tasks are type ids (or 0): in arrays. */
  guint n_keys = by == CS_SQL_COUNT_BY_PID ? 0 : MAX (n_types, 1);
  g_autofree guint *key_slots = g_new (guint, MAX (n_keys, 1));
  g_autofree guint32 *key_gen = g_new0 (guint32, MAX (n_keys, 1));
  BucketScan bs = { buckets, by, 0, type_id, by == CS_SQL_COUNT_BY_PID ? bounds->pid : -1,
                    groups, max_groups, FALSE, 0, -1, slots, 0, 0,
                    key_slots, key_gen, n_keys, 0 };
  /* Every event of a CPU counted alike: by its ts alone. */
  gboolean per_cpu = by == CS_SQL_COUNT_BY_CPU && type_id < 0;

  g_return_val_if_fail (buckets->width > 0 && by != CS_SQL_COUNT_BY_CPU_STATE, NULL);
  *answered = FALSE;
  if (type_id >= 0 && (guint) type_id < n_types)
    {
      wanted = g_new0 (gboolean, n_types);
      wanted[type_id] = TRUE;
    }
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc) && !bounds->empty; cpu++)
    {
      const CsCpuInfo *c = cs_document_get_cpu (doc, cpu);
      gint64 lo, hi;
      gboolean done = FALSE;

      if ((bounds->cpu >= 0 && bounds->cpu != cpu) || c->n_events == 0)
        continue;
      lo = MAX (bounds->begin_ns, c->first_ns);
      hi = c->last_ns < bounds->end_ns ? c->last_ns + 1 : bounds->end_ns;
      if (lo >= hi)
        continue;
      if (per_cpu && !count_by_edges (doc, cpu, lo, hi, buckets, &bs, &done, error))
        return NULL;
      if (done)
        continue;
      bs.cpu = (gint) cpu;
      bs.d_lo = 0, bs.d_hi = -1;
      bs.last_slot = 0;
      if (per_cpu
          ? !_cs_document_scan_event_chunks (doc, cpu, lo, hi, NULL, 0,
                                             (1u << EV_PID) | (1u << EV_TYPE) | (1u << EV_OFFSET),
                                             bucket_chunk, &bs, error)
          : !_cs_document_scan_event_chunks (doc, cpu, lo, hi, wanted, n_types,
                                             (1u << EV_OFFSET) |
                                             (by == CS_SQL_COUNT_BY_PID ? 1u << EV_TYPE : 1u << EV_PID),
                                             bucket_rows, &bs, error))
        return NULL;
      if (bs.failed)
        return NULL;
    }
  *answered = TRUE;
  return g_steal_pointer (&groups);
}
