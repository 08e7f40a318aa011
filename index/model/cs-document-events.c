/* cs-document-events.c: the events of a span, from the index's event
 * chunks (the rest of CsDocument's timeline queries: cs-document-queries.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CPU's events are stored CS_EVENT_CHUNK_ROWS to a row of event_chunks
 * (cs-index-schema.c).  A reader of all events steps over the chunks of
 * its span; a reader of some types skips the chunks whose type column
 * holds none of them, and when the types are rare on the CPU or in the
 * span (list_chunks()) it finds the chunks that hold them from
 * event_chunk_types without stepping over the others (each step copies a
 * chunk's blob of ~12 KiB out of SQLite); it decodes a chunk only up to
 * its last event of one of them.
 * That table is read into memory a block of chunks at a time, the blocks
 * a span covers (cs-chunk-types.c); the same copy tells the typed SQL
 * tables and the plugin passes' feeds which chunks to pass over
 * (_cs_document_chunk_may_hold()).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#include "cs-document-private.h"

/* A flag of decode_event_chunk()'s @skip: the rows after the chunk's
 * last event of a wanted type may be left undecoded (a scan of some
 * types, which reads nothing else).  The large benchmark recording's
 * CPU 0 has 18,989 softirqs in 11,004 chunks of 4,096 events: a scan for
 * them over a long wait decoded every row of most chunks to use two. */
#define UP_TO_WANTED (1u << EV_N_COLUMNS)
/* In a cache's @missing: rows were left out (UP_TO_WANTED), so that no
 * other reader takes the cache for the chunk's. */
#define ROWS_LEFT_OUT (1u << (EV_N_COLUMNS + 1))

/* How many of a chunk's @n rows (@data, @size) a scan of @wanted types
 * decodes: up to its last event of one, by its type column (decoded
 * into @cache). */
static gboolean
rows_up_to_wanted (CsEventChunkCache *cache,
                   const guint8      *data,
                   gsize              size,
                   guint              n,
                   const gboolean    *wanted,
                   guint              n_types,
                   guint             *n_rows,
                   GError           **error)
{
  gint64 *types[EV_N_COLUMNS] = { NULL, };
  const gint64 *t = cache->cols[EV_TYPE];

  types[EV_TYPE] = cache->cols[EV_TYPE];
  if (!cs_chunk_decode_columns (data, size, n, EV_N_COLUMNS, EV_TYPE + 1, _cs_event_chunk_modes,
                                types, n, error))
    return FALSE;
  *n_rows = n;
  while (*n_rows > 0 && ((guint64) t[*n_rows - 1] >= n_types || !wanted[t[*n_rows - 1]]))
    (*n_rows)--;
  return TRUE;
}

/* The chunk of @row into @cpu's cache; without the columns of @skip (bit
 * 1 << EV_* each): a scan of some types leaves out the pid (the records
 * say it, and it is a quarter of the decoding), a count by time all but
 * the ts; with UP_TO_WANTED in @skip (and @wanted, @n_types: the types
 * of the scan), the rows after the last wanted one.  A cache of the
 * chunk that has the other columns is kept. */
static CsEventChunkCache *
decode_event_chunk (CsDocument     *self,
                    guint           cpu,
                    sqlite3_stmt   *row,
                    guint           skip,
                    const gboolean *wanted,
                    guint           n_types,
                    GError        **error)
{
  CsEventChunkCache *cache = self->chunk_caches[cpu];
  gint64 chunk = sqlite3_column_int64 (row, 0);
  guint n = sqlite3_column_int (row, 3);
  const guint8 *data = sqlite3_column_blob (row, 4);
  gsize size = sqlite3_column_bytes (row, 4);
  gint64 *cols[EV_N_COLUMNS];
  guint missing = skip & ~UP_TO_WANTED, n_decoded = n;

  if (cache == NULL)
    {
      cache = self->chunk_caches[cpu] = g_new0 (CsEventChunkCache, 1);
      cache->chunk = -1;
    }
  if (cache->chunk == chunk && (cache->missing & ~skip) == 0)
    return cache;
  if (n > 16 * CS_EVENT_CHUNK_ROWS)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   g_dngettext (GETTEXT_PACKAGE, "The index %s has a chunk of %u event",
                                "The index %s has a chunk of %u events", n),
                   self->index_path, n);
      return NULL;
    }
  for (guint c = 0; c < EV_N_COLUMNS; c++)
    {
      cache->cols[c] = g_renew (gint64, cache->cols[c], MAX (n, 1));
      cols[c] = (skip >> c) & 1 ? NULL : cache->cols[c];
    }
  cache->chunk = -1;
  if ((skip & UP_TO_WANTED) && wanted != NULL && cols[EV_TYPE] != NULL)
    {
      if (!rows_up_to_wanted (cache, data, size, n, wanted, n_types, &n_decoded, error))
        return NULL;
      /* The type column is in: walked over below. */
      cols[EV_TYPE] = NULL;
      if (n_decoded < n)
        missing |= ROWS_LEFT_OUT;
    }
  if (!cs_chunk_decode_columns (data, size, n, EV_N_COLUMNS, EV_N_COLUMNS, _cs_event_chunk_modes,
                                cols, n_decoded, error))
    return NULL;
  cache->missing = missing;
  if (self->offset_bases[cpu] != 0 && !((skip >> EV_OFFSET) & 1))
    for (guint i = 0; i < n_decoded; i++)
      cache->cols[EV_OFFSET][i] += self->offset_bases[cpu];
  cache->chunk = chunk;
  cache->first_row = sqlite3_column_int64 (row, 2);
  cache->n = n_decoded;
  return cache;
}

/* The first event of @cache at or after @ts_ns (cache->n when none): a
 * CPU's events are in time order. */
static guint
first_at_or_after (const CsEventChunkCache *cache,
                   gint64                   ts_ns)
{
  guint lo = 0, hi = cache->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (cache->cols[EV_TS][mid] < ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The rows [from, to) of @cache in [@begin_ns, @end_ns): the span's
 * first event is found by bisection (a critical path asks for the
 * wakeups at one time, millions of times, each in a chunk of thousands
 * of events).  FALSE when the span ends in the chunk. */
static gboolean
chunk_rows (const CsEventChunkCache *cache,
            gint64                   begin_ns,
            gint64                   end_ns,
            guint                   *from,
            guint                   *to)
{
  const gint64 *ts = cache->cols[EV_TS];
  guint i;

  /* The end by a walk, not a bisection: a comparison a row costs little
   * beside what the caller does with them, and it ends the span at the
   * first event at or after its end as a walk of the events would, where
   * a damaged recording's times go back. */
  *from = first_at_or_after (cache, begin_ns);
  for (i = *from; i < cache->n && ts[i] < end_ns; i++)
    ;
  *to = i;
  return *to == cache->n;
}

/* A scan of chunks for the events in them (_cs_document_scan_events()). */
typedef struct {
  guint cpu;
  const gboolean *wanted;
  guint n_types;
  EventFunc func;
  gpointer user_data;
} ChunkEvents;

/* Calls the scan's function for the events of rows [@from, @to) of
 * @cache whose type is wanted (all when it wants all); FALSE when the
 * function asked to stop. */
static gboolean
call_chunk_events (const CsEventChunkCache *cache,
                   guint                    from,
                   guint                    to,
                   gpointer                 user_data)
{
  const ChunkEvents *ce = user_data;

  for (guint i = from; i < to; i++)
    {
      CsEvent ev;

      if (ce->wanted != NULL && ((guint64) cache->cols[EV_TYPE][i] >= ce->n_types ||
                                 !ce->wanted[cache->cols[EV_TYPE][i]]))
        continue;
      ev.ts_ns = cache->cols[EV_TS][i];
      ev.offset = (guint64) cache->cols[EV_OFFSET][i];
      ev.pid = ce->wanted != NULL ? -1 : (gint32) cache->cols[EV_PID][i];
      ev.type_id = (guint32) cache->cols[EV_TYPE][i];
      ev.cpu = ce->cpu;
      ev.row = cache->first_row + i;
      if (!ce->func (&ev, ce->user_data))
        return FALSE;
    }
  return TRUE;
}

/* Calls @func for @cache's rows in [@begin_ns, @end_ns); FALSE when it
 * asked to stop or the span ends in the chunk. */
static gboolean
call_chunk (const CsEventChunkCache *cache,
            gint64                   begin_ns,
            gint64                   end_ns,
            ChunkFunc                func,
            gpointer                 user_data)
{
  guint from, to;
  gboolean more = chunk_rows (cache, begin_ns, end_ns, &from, &to);

  return (from == to || func (cache, from, to, user_data)) && more;
}

/* At most one chunk in RARE_CHUNKS holds a wanted type (by the CPU's
 * counts of them): then listing the chunks that do from
 * event_chunk_types, and reading only those, beats stepping over every
 * chunk's blob.  Where the types are common the extra lookup per chunk
 * would cost more. */
#define RARE_CHUNKS 4

gboolean
_cs_document_types_are_rare (CsDocument     *self,
                             guint           cpu,
                             const gboolean *wanted,
                             guint           n_types)
{
  guint64 n_chunks = self->cpus[cpu].n_events / CS_EVENT_CHUNK_ROWS + 1;
  guint64 n = 0;

  for (guint id = 0; id < n_types && n * RARE_CHUNKS <= n_chunks; id++)
    if (wanted[id])
      n += cs_document_get_cpu_type_count (self, cpu, id);
  return n * RARE_CHUNKS <= n_chunks;
}

/* The prepared lookup of one event chunk (prepared on first use). */
static sqlite3_stmt *
ev_chunk_query (CsDocument  *self,
                GError     **error)
{
  if (self->ev_chunk == NULL)
    self->ev_chunk = _cs_sqlite_prepare (self->db,
        "SELECT chunk, first_ns, first_row, n_rows, data FROM event_chunks"
        " WHERE cpu = ?1 AND chunk = ?2", error);
  return self->ev_chunk;
}

/* Steps @s to chunk @chunk of @cpu (ev_chunk_query()); FALSE with @error
 * set when the index lacks it. */
static gboolean
step_to_chunk (CsDocument    *self,
               sqlite3_stmt  *s,
               guint          cpu,
               gint64         chunk,
               GError       **error)
{
  int rc;

  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int64 (s, 2, chunk);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    return TRUE;
  sqlite3_reset (s);
  if (_cs_sqlite_check (self->db, rc, _("reading events"), error))
    g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                 _("The index %s lacks chunk %" PRId64 " of CPU %u"),
                 self->index_path, chunk, cpu);
  return FALSE;
}

/* The scan of rare types: the chunks of @cpu from @start_chunk to
 * @last_chunk that event_chunk_types (their blocks read) says may hold a
 * wanted type, each read alone, without stepping over the others. */
static gboolean
scan_listed_chunks (CsDocument     *self,
                    guint           cpu,
                    gint64          start_chunk,
                    gint64          last_chunk,
                    gint64          begin_ns,
                    gint64          end_ns,
                    const gboolean *wanted,
                    guint           n_types,
                    guint           skip,
                    ChunkFunc       func,
                    gpointer        user_data,
                    GError        **error)
{
  sqlite3_stmt *one = ev_chunk_query (self, error);

  if (one == NULL)
    return FALSE;
  for (gint64 c = start_chunk; c <= last_chunk; c++)
    {
      CsEventChunkCache *cache;

      if (!_cs_document_chunk_may_hold (self, cpu, c, wanted, n_types))
        continue;
      if (!step_to_chunk (self, one, cpu, c, error))
        return FALSE;
      cache = decode_event_chunk (self, cpu, one, skip, wanted, n_types, error);
      sqlite3_reset (one);
      if (cache == NULL)
        return FALSE;
      if (!call_chunk (cache, begin_ns, end_ns, func, user_data))
        break;
    }
  return TRUE;
}

/* Whether a scan of @wanted types over @cpu's chunks from @start_chunk
 * to the one holding @end_ns (*@last_chunk; -1 with @error set when it
 * cannot be found) reads the chunks that may hold one alone, found from
 * event_chunk_types (the span's blocks read first; without them, no): when the
 * types are rare on the CPU (_cs_document_types_are_rare()), or when at
 * most one chunk in SPAN_LISTED of the span holds one.  Types common over
 * the whole CPU can still be rare in a span: the large benchmark
 * recording's CPU 0 has 2,859 sched_migrate_task events in 11,004
 * chunks; finding a waiting task's moves over its worst wakeup's 13 s
 * stepped over the chunks of the span and took 18 ms, the chunks listed
 * 10 ms.  Where about every chunk holds one (that recording's softirqs),
 * stepping and listing cost the same. */
#define SPAN_LISTED 2

static gboolean
list_chunks (CsDocument     *self,
             guint           cpu,
             gint64          start_chunk,
             gint64          end_ns,
             const gboolean *wanted,
             guint           n_types,
             gint64         *last_chunk,
             GError        **error)
{
  guint64 n_holders = 0;
  gint64 last;

  /* The span's chunks: [start_chunk, *last_chunk], the last the one
   * holding the span's end (the last that starts before it): from the
   * start's block of the table when the span ends in it, else from the
   * index. */
  *last_chunk = start_chunk;
  if (!_cs_document_read_chunk_types_span (self, cpu, start_chunk, start_chunk))
    return FALSE;
  last = _cs_document_chunk_types_last_before (self, cpu, start_chunk, end_ns);
  if (last < 0)
    {
      last = _cs_document_find_chunk (self, cpu, end_ns, error);
      if (last < 0)
        {
          *last_chunk = -1;
          return FALSE;
        }
    }
  *last_chunk = MAX (last, start_chunk);
  if (!_cs_document_read_chunk_types_span (self, cpu, start_chunk, *last_chunk))
    return FALSE;
  if (_cs_document_types_are_rare (self, cpu, wanted, n_types))
    return TRUE;
  for (gint64 c = start_chunk; c <= *last_chunk; c++)
    if (_cs_document_chunk_may_hold (self, cpu, c, wanted, n_types) &&
        ++n_holders * SPAN_LISTED > (guint64) (*last_chunk - start_chunk + 1))
      return FALSE;
  return TRUE;
}

/* Whether every event of the CPU in [@begin_ns, @end_ns) is in @cache's
 * chunk: the chunk's first event is before the span (so no earlier
 * chunk holds one of the span's: _cs_document_find_chunk() would name
 * this one) and its last is at or after the span's end (so no later
 * chunk holds one either: their events are no earlier than it). */
static gboolean
cache_holds_span (const CsEventChunkCache *cache,
                  gint64                   begin_ns,
                  gint64                   end_ns)
{
  return cache->cols[EV_TS][0] < begin_ns && end_ns <= cache->cols[EV_TS][cache->n - 1];
}

/* @wanted (nullable): the types the caller wants, by type id (@n_types
 * of them); chunks whose type column says they hold none are skipped
 * undecoded, and the others' pid column too.  Where the types are rare,
 * the chunks that may hold them are found from event_chunk_types
 * (scan_listed_chunks()).  @func gets each chunk's rows in the span,
 * every type's. */
gboolean
_cs_document_scan_event_chunks (CsDocument     *self,
                                guint           cpu,
                                gint64          begin_ns,
                                gint64          end_ns,
                                const gboolean *wanted,
                                guint           n_types,
                                guint           skip,
                                ChunkFunc       func,
                                gpointer        user_data,
                                GError        **error)
{
  sqlite3_stmt *s = self->ev_range;
  CsEventChunkCache *cache;
  gint64 start_chunk;
  gboolean go_on = TRUE;
  int rc;

  if (cpu >= self->n_cpus || begin_ns >= end_ns)
    return TRUE;
  /* A span inside the chunk decoded last, no query: a critical path asks
   * for the wakeups at one time millions of times, mostly in the chunk
   * it asked last. */
  cache = self->chunk_caches[cpu];
  if (cache != NULL && cache->chunk >= 0 && cache->n > 0 && (cache->missing & ~skip) == 0 &&
      cache_holds_span (cache, begin_ns, end_ns))
    {
      call_chunk (cache, begin_ns, end_ns, func, user_data);
      return TRUE;
    }

  start_chunk = _cs_document_find_chunk (self, cpu, begin_ns, error);
  if (start_chunk < 0)
    return FALSE;
  /* Otherwise (or without event_chunk_types: an index that lacks it
   * whole), the steps below. */
  if (wanted != NULL)
    {
      gint64 last_chunk;

      if (list_chunks (self, cpu, start_chunk, end_ns, wanted, n_types, &last_chunk, error))
        return scan_listed_chunks (self, cpu, start_chunk, last_chunk, begin_ns, end_ns, wanted,
                                   n_types, skip, func, user_data, error);
      if (last_chunk < 0)
        return FALSE;
    }

  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int64 (s, 2, start_chunk);
  while (go_on && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      if (sqlite3_column_int64 (s, 1) >= end_ns)
        break;
      if (wanted != NULL &&
          !_cs_event_chunk_may_hold (sqlite3_column_blob (s, 4), sqlite3_column_bytes (s, 4),
                                     sqlite3_column_int (s, 3), wanted, n_types))
        continue;
      cache = decode_event_chunk (self, cpu, s, skip, wanted, n_types, error);
      if (cache == NULL)
        {
          sqlite3_reset (s);
          return FALSE;
        }
      go_on = call_chunk (cache, begin_ns, end_ns, func, user_data);
    }
  sqlite3_reset (s);
  return _cs_sqlite_check (self->db, rc == SQLITE_ROW ? SQLITE_OK : rc, _("reading events"), error);
}

gboolean
_cs_document_scan_events (CsDocument     *self,
                          guint           cpu,
                          gint64          begin_ns,
                          gint64          end_ns,
                          const gboolean *wanted,
                          guint           n_types,
                          EventFunc       func,
                          gpointer        user_data,
                          GError        **error)
{
  ChunkEvents ce = { cpu, wanted, n_types, func, user_data };

  /* Of some types, the records say the pid; nothing after the last of
   * them in a chunk is read. */
  return _cs_document_scan_event_chunks (self, cpu, begin_ns, end_ns, wanted, n_types,
                                         wanted != NULL ? (1u << EV_PID) | UP_TO_WANTED : 0,
                                         call_chunk_events, &ce, error);
}

typedef struct {
  GArray *out;
  guint max;
} CollectEvents;

static gboolean
collect_event (const CsEvent *ev,
               gpointer       user_data)
{
  CollectEvents *c = user_data;

  g_array_append_val (c->out, *ev);
  return c->out->len < c->max;
}

/**
 * cs_document_get_events:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @max_events: stop after appending this many
 * @events: (element-type CsEvent): receives the events in time order
 *   (appended)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Lists the events of one CPU whose timestamp is in [@begin_ns, @end_ns).
 * When @events reached @max_events more may exist.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_events (CsDocument  *self,
                        guint        cpu,
                        gint64       begin_ns,
                        gint64       end_ns,
                        guint        max_events,
                        GArray      *events,
                        GError     **error)
{
  CollectEvents c = { events, events->len + max_events };

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  if (max_events == 0)
    return TRUE;
  return _cs_document_scan_events (self, cpu, begin_ns, end_ns, NULL, 0, collect_event, &c, error);
}

/**
 * cs_document_get_events_of_types:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @wanted: (array length=n_types): by #CsEventType id, whether to list
 *   events of that type
 * @n_types: the length of @wanted (cs_document_get_n_event_types())
 * @max_events: stop after appending this many (%G_MAXUINT: no bound);
 *   when @events received that many, more may exist
 * @events: (element-type CsEvent): receives the events in time order
 *   (appended), their @pid -1 (the record says it)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Lists the events of the wanted types of one CPU whose timestamp is in
 * [@begin_ns, @end_ns).  A chunk of the index whose type column lists
 * none of them is skipped without being decoded, so types that are rare
 * in the span cost little more than finding its chunks; of the others,
 * the pid column is not decoded.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_events_of_types (CsDocument     *self,
                                 guint           cpu,
                                 gint64          begin_ns,
                                 gint64          end_ns,
                                 const gboolean *wanted,
                                 guint           n_types,
                                 guint           max_events,
                                 GArray         *events,
                                 GError        **error)
{
  CollectEvents c = { events, max_events > G_MAXUINT - events->len ? G_MAXUINT
                                                                   : events->len + max_events };

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (wanted != NULL || n_types == 0, FALSE);
  if (n_types == 0 || max_events == 0)
    return TRUE;
  return _cs_document_scan_events (self, cpu, begin_ns, end_ns, wanted, n_types, collect_event, &c, error);
}

typedef struct {
  gint64 target;
  gboolean found;
  CsEvent best;
} NearestEvent;

static gboolean
nearest_event (const CsEvent *ev,
               gpointer       user_data)
{
  NearestEvent *n = user_data;

  if (!n->found || ABS (ev->ts_ns - n->target) < ABS (n->best.ts_ns - n->target))
    {
      n->best = *ev;
      n->found = TRUE;
    }
  /* Events come in time order: past the target, the first one is the
   * nearest on that side. */
  return ev->ts_ns < n->target;
}

/**
 * cs_document_find_event_near:
 * @self: a document
 * @cpu: a CPU
 * @ts_ns: a time
 * @radius_ns: how far from @ts_ns to look, >= 0
 * @event: (out caller-allocates): the nearest event, when found
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Finds the event of @cpu nearest to @ts_ns within @radius_ns.
 *
 * Returns: %TRUE when found; %FALSE when none is that close (@error unset)
 *   or on error
 */
gboolean
cs_document_find_event_near (CsDocument  *self,
                             guint        cpu,
                             gint64       ts_ns,
                             gint64       radius_ns,
                             CsEvent     *event,
                             GError     **error)
{
  NearestEvent n = { .target = ts_ns };

  if (!_cs_document_scan_events (self, cpu, ts_ns - radius_ns, ts_ns + radius_ns + 1, NULL, 0, nearest_event,
                    &n, error))
    return FALSE;
  if (n.found)
    *event = n.best;
  return n.found;
}

gint64
_cs_document_get_n_chunks (CsDocument *self,
                           guint       cpu)
{
  if (cpu >= self->n_cpus)
    return 0;
  return (self->cpus[cpu].n_events + CS_EVENT_CHUNK_ROWS - 1) / CS_EVENT_CHUNK_ROWS;
}

CsEventChunkCache *
_cs_document_get_chunk (CsDocument  *self,
                        guint        cpu,
                        gint64       chunk,
                        GError     **error)
{
  CsEventChunkCache *cache = cpu < self->n_cpus ? self->chunk_caches[cpu] : NULL;
  sqlite3_stmt *s;

  if (cache != NULL && cache->chunk == chunk && cache->missing == 0)
    return cache;
  s = ev_chunk_query (self, error);
  if (s == NULL || !step_to_chunk (self, s, cpu, chunk, error))
    return NULL;
  cache = decode_event_chunk (self, cpu, s, 0, NULL, 0, error);
  sqlite3_reset (s);
  return cache;
}

gint64
_cs_document_find_chunk (CsDocument  *self,
                         guint        cpu,
                         gint64       ts_ns,
                         GError     **error)
{
  sqlite3_stmt *s = self->ev_start;
  gint64 chunk;
  int rc;

  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int64 (s, 2, ts_ns);
  rc = sqlite3_step (s);
  chunk = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);
  if (!_cs_sqlite_check (self->db, rc, _("finding events"), error))
    return -1;
  return chunk;
}

/* How many events of @cpu have a timestamp before @ts_ns. */
guint64
_cs_document_count_before (CsDocument  *self,
                           guint        cpu,
                           gint64       ts_ns,
                           GError     **error)
{
  CsEventChunkCache *cache;
  gint64 chunk;

  if (cpu >= self->n_cpus || self->cpus[cpu].n_events == 0)
    return 0;
  chunk = _cs_document_find_chunk (self, cpu, ts_ns, error);
  if (chunk < 0 || (cache = _cs_document_get_chunk (self, cpu, chunk, error)) == NULL)
    return G_MAXUINT64;
  return cache->first_row + first_at_or_after (cache, ts_ns);
}
