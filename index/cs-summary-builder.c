/* cs-summary-builder.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The summary pyramid lets a frame at any zoom read about one stored bucket
 * per pixel column instead of every event.  Level 0 buckets are
 * 2^shift ns wide, shift chosen so that a bucket holds ~16 events of a busy
 * CPU; each level up is 4x wider, up to a level of at most ~2048 buckets for
 * the whole recording.  A bucket holds the number of events, the time a
 * non-idle task ran (from the sched_switch slices) and the dominant task.
 *
 * It is built after the scan by reading the event and slice chunks of each
 * CPU back in time order: a streaming merge that keeps one open bucket per
 * level and one block of buckets per level, so memory does not grow with
 * the recording.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "cs-index-private.h"

#define MAX_LEVELS 32

typedef struct {
  guint32 n_events;
  gint64 busy_ns;
  CsDominant busy_dom;      /* weighted by ns run */
  CsDominant event_dom;     /* weighted by events, for CPUs without slices */
} Bucket;

typedef struct {
  gint64 idx;               /* bucket index of @acc, -1 when none open */
  Bucket acc;
  gint64 block;             /* block held in the arrays, -1 when none */
  gboolean block_used;
  gint64 n_events[CS_SUMMARY_BLOCK_BUCKETS];
  gint64 busy[CS_SUMMARY_BLOCK_BUCKETS];
  gint64 dominant[CS_SUMMARY_BLOCK_BUCKETS];
} Level;

typedef struct {
  sqlite3 *read_db;         /* the index being built, read-only */
  sqlite3_stmt *insert;     /* into this thread's side file */
  guint cpu;
  guint n_levels;
  Level *levels;
} Pyramid;

/* A chunk table read back in order, one decoded chunk at a time. */
typedef struct {
  sqlite3_stmt *stmt;
  const CsChunkColumnMode *modes;
  guint n_columns;
  guint n_wanted;           /* the summaries need only the first columns */
  gint64 *cols[CS_CHUNK_MAX_COLUMNS];
  guint n, i;
} ChunkStream;

static gboolean
chunk_stream_fill (ChunkStream *cs,
                   GError     **error)
{
  while (cs->i >= cs->n)
    {
      int rc = sqlite3_step (cs->stmt);

      if (rc == SQLITE_DONE)
        return FALSE;
      if (!_cs_sqlite_check (sqlite3_db_handle (cs->stmt), rc, "reading chunks", error))
        return FALSE;

      guint n = sqlite3_column_int (cs->stmt, 0);
      const guint8 *data = sqlite3_column_blob (cs->stmt, 1);
      gsize size = sqlite3_column_bytes (cs->stmt, 1);

      if (n == 0)
        continue;
      for (guint c = 0; c < cs->n_columns; c++)
        cs->cols[c] = g_renew (gint64, cs->cols[c], n);
      if (!cs_chunk_decode_columns (data, size, n, cs->n_columns, cs->n_wanted, cs->modes,
                                    cs->cols, error))
        return FALSE;
      cs->n = n;
      cs->i = 0;
    }
  return TRUE;
}

static void
chunk_stream_clear (ChunkStream *cs)
{
  for (guint c = 0; c < cs->n_columns; c++)
    g_free (cs->cols[c]);
  g_clear_pointer (&cs->stmt, sqlite3_finalize);
}

static gboolean
flush_block (Pyramid *p,
             guint    level,
             GError **error)
{
  Level *l = &p->levels[level];
  const gint64 *cols[SU_N_COLUMNS] = { l->n_events, l->busy, l->dominant };
  g_autoptr(GBytes) blob = NULL;
  gsize size;
  const void *data;
  int rc;

  if (l->block < 0 || !l->block_used)
    return TRUE;
  blob = cs_chunk_encode (CS_SUMMARY_BLOCK_BUCKETS, SU_N_COLUMNS, _cs_summary_modes, cols, TRUE);
  data = g_bytes_get_data (blob, &size);
  sqlite3_bind_int (p->insert, 1, p->cpu);
  sqlite3_bind_int (p->insert, 2, level);
  sqlite3_bind_int64 (p->insert, 3, l->block);
  sqlite3_bind_blob (p->insert, 4, data, size, SQLITE_STATIC);
  rc = sqlite3_step (p->insert);
  sqlite3_reset (p->insert);
  return _cs_sqlite_check (sqlite3_db_handle (p->insert), rc, "storing summaries", error);
}

static gboolean
store_bucket (Pyramid      *p,
              guint         level,
              gint64        idx,
              const Bucket *b,
              GError      **error)
{
  Level *l = &p->levels[level];
  gint64 block = idx / CS_SUMMARY_BLOCK_BUCKETS;
  guint slot = idx % CS_SUMMARY_BLOCK_BUCKETS;

  if (block != l->block)
    {
      if (!flush_block (p, level, error))
        return FALSE;
      l->block = block;
      l->block_used = FALSE;
      memset (l->n_events, 0, sizeof l->n_events);
      memset (l->busy, 0, sizeof l->busy);
      memset (l->dominant, 0, sizeof l->dominant);
    }
  l->block_used = TRUE;
  l->n_events[slot] = b->n_events;
  l->busy[slot] = b->busy_ns;
  l->dominant[slot] = 1 + (b->busy_ns > 0 ? _cs_dominant_get (&b->busy_dom)
                                          : _cs_dominant_get (&b->event_dom));
  return TRUE;
}

static void
merge_bucket (Bucket       *into,
              const Bucket *from)
{
  into->n_events += from->n_events;
  into->busy_ns += from->busy_ns;
  for (guint i = 0; i < from->busy_dom.n; i++)
    _cs_dominant_add (&into->busy_dom, from->busy_dom.pid[i], from->busy_dom.weight[i]);
  for (guint i = 0; i < from->event_dom.n; i++)
    _cs_dominant_add (&into->event_dom, from->event_dom.pid[i], from->event_dom.weight[i]);
}

/* Closes the open bucket of @level: stores it and folds it into the level
 * above, closing that one first when the bucket belongs to a new parent. */
static gboolean
close_bucket (Pyramid *p,
              guint    level,
              GError **error)
{
  Level *l = &p->levels[level];

  if (l->idx < 0)
    return TRUE;
  if (!store_bucket (p, level, l->idx, &l->acc, error))
    return FALSE;

  if (level + 1 < p->n_levels)
    {
      Level *up = &p->levels[level + 1];
      gint64 parent = l->idx >> CS_SUMMARY_LEVEL_BITS;

      if (up->idx != parent)
        {
          if (!close_bucket (p, level + 1, error))
            return FALSE;
          up->idx = parent;
          memset (&up->acc, 0, sizeof up->acc);
        }
      merge_bucket (&up->acc, &l->acc);
    }
  l->idx = -1;
  return TRUE;
}

static gboolean
add_finest (Pyramid      *p,
            gint64        idx,
            const Bucket *b,
            GError      **error)
{
  Level *l0 = &p->levels[0];

  l0->idx = idx;
  l0->acc = *b;
  return close_bucket (p, 0, error);
}

static inline gint64
bucket_of (gint64 ts_ns,
           gint64 origin_ns,
           guint  shift)
{
  return ts_ns <= origin_ns ? 0 : (ts_ns - origin_ns) >> shift;
}

static gboolean
build_cpu (Pyramid       *p,
           gint64         origin_ns,
           guint          shift,
           GCancellable  *cancellable,
           GError       **error)
{
  /* Events: time and pid only; slices: all of begin, duration, pid. */
  ChunkStream ev = { .modes = _cs_event_chunk_modes, .n_columns = EV_N_COLUMNS, .n_wanted = EV_PID + 1 };
  ChunkStream sl = { .modes = _cs_slice_chunk_modes, .n_columns = SL_N_COLUMNS, .n_wanted = SL_PID + 1 };
  GError *local_error = NULL;
  gboolean have_ev, have_sl, ok = FALSE;
  gint64 slice_pos = 0;
  gint64 last_cur = -1;
  guint64 n_buckets = 0;

  ev.stmt = _cs_sqlite_prepare (p->read_db,
      "SELECT n_rows, data FROM event_chunks WHERE cpu = ?1 ORDER BY chunk", error);
  sl.stmt = _cs_sqlite_prepare (p->read_db,
      "SELECT n_rows, data FROM slice_chunks WHERE cpu = ?1 ORDER BY chunk", error);
  if (ev.stmt == NULL || sl.stmt == NULL)
    goto out;
  sqlite3_bind_int (ev.stmt, 1, p->cpu);
  sqlite3_bind_int (sl.stmt, 1, p->cpu);

  have_ev = chunk_stream_fill (&ev, &local_error);
  have_sl = local_error == NULL && chunk_stream_fill (&sl, &local_error);
  if (have_sl)
    slice_pos = sl.cols[SL_BEGIN][sl.i];

  while (local_error == NULL && (have_ev || have_sl))
    {
      gint64 ev_idx = have_ev ? bucket_of (ev.cols[EV_TS][ev.i], origin_ns, shift) : G_MAXINT64;
      gint64 sl_idx = have_sl ? bucket_of (slice_pos, origin_ns, shift) : G_MAXINT64;
      /* Buckets are closed in increasing order; a timestamp that goes back
       * in time (clock trouble in the recording) joins the current bucket. */
      gint64 cur = MAX (MIN (ev_idx, sl_idx), last_cur + 1);
      gint64 bucket_end = origin_ns + ((cur + 1) << shift);
      Bucket b;

      last_cur = cur;
      memset (&b, 0, sizeof b);
      /* Slices first: their busy time decides whether events need to
       * elect a dominant task. */
      while (have_sl && slice_pos < bucket_end)
        {
          gint64 end = sl.cols[SL_BEGIN][sl.i] + sl.cols[SL_DURATION][sl.i];
          gint64 part_end = MIN (end, bucket_end);

          if (part_end > slice_pos)
            {
              b.busy_ns += part_end - slice_pos;
              _cs_dominant_add (&b.busy_dom, (gint32) sl.cols[SL_PID][sl.i],
                                part_end - slice_pos);
            }
          if (end > bucket_end)
            slice_pos = bucket_end;
          else
            {
              sl.i++;
              have_sl = chunk_stream_fill (&sl, &local_error);
              if (have_sl)
                slice_pos = MAX (sl.cols[SL_BEGIN][sl.i], slice_pos);
            }
        }
      while (have_ev && bucket_of (ev.cols[EV_TS][ev.i], origin_ns, shift) <= cur)
        {
          b.n_events++;
          /* Which task had most events only matters where nothing ran
           * (CPUs without sched_switch): skip the candidates otherwise. */
          if (b.busy_ns == 0)
            _cs_dominant_add (&b.event_dom, (gint32) ev.cols[EV_PID][ev.i], 1);
          ev.i++;
          have_ev = chunk_stream_fill (&ev, &local_error);
        }
      if (local_error == NULL && !add_finest (p, cur, &b, &local_error))
        break;
      if ((++n_buckets & 0xffff) == 0 &&
          g_cancellable_set_error_if_cancelled (cancellable, &local_error))
        break;
    }

  for (guint level = 0; local_error == NULL && level < p->n_levels; level++)
    close_bucket (p, level, &local_error);
  for (guint level = 0; local_error == NULL && level < p->n_levels; level++)
    flush_block (p, level, &local_error);

  if (local_error != NULL)
    g_propagate_error (error, local_error);
  else
    ok = TRUE;
out:
  chunk_stream_clear (&ev);
  chunk_stream_clear (&sl);
  return ok;
}

guint
_cs_summary_choose_shift (guint64 n_events,
                          guint   n_active_cpus,
                          gint64  span_ns)
{
  double width;
  guint shift = 4;

  if (n_events == 0 || span_ns <= 0)
    return 20;
  /* ~16 events per finest bucket on an average active CPU. */
  width = 16.0 * (double) span_ns * MAX (n_active_cpus, 1) / (double) n_events;
  while (shift < 40 && (double) (G_GINT64_CONSTANT (1) << (shift + 1)) <= width)
    shift++;
  return shift;
}

guint
_cs_summary_count_levels (guint  shift,
                          gint64 span_ns)
{
  guint n = 1;

  while (n < MAX_LEVELS && (span_ns >> (shift + CS_SUMMARY_LEVEL_BITS * (n - 1))) > 2048)
    n++;
  return n;
}

typedef struct {
  const char *db_path;
  guint n_cpus;
  gint64 origin_ns;
  guint shift;
  guint n_levels;
  GCancellable *cancellable;
  guint next_cpu;           /* atomic */
} SummaryJob;

typedef struct {
  SummaryJob *job;
  char *aux_path;
  GError *error;
} SummaryThread;

static gboolean
open_db (const char  *path,
         int          flags,
         sqlite3    **db,
         GError     **error)
{
  if (sqlite3_open_v2 (path, db, flags | SQLITE_OPEN_NOMUTEX, NULL) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE, "Cannot open %s: %s", path,
               *db ? sqlite3_errmsg (*db) : "out of memory");
  return FALSE;
}

/* One thread: its own read connection to the index and its own side file
 * to write, so that threads never wait on SQLite's locks. */
static gpointer
summary_thread (gpointer data)
{
  SummaryThread *t = data;
  SummaryJob *job = t->job;
  sqlite3 *rdb = NULL, *adb = NULL;
  sqlite3_stmt *insert = NULL;
  g_autofree Level *levels = g_new0 (Level, job->n_levels);
  Pyramid p = { 0 };
  guint cpu;

  if (!open_db (job->db_path, SQLITE_OPEN_READONLY, &rdb, &t->error) ||
      !open_db (t->aux_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &adb, &t->error) ||
      !_cs_sqlite_exec (adb, "PRAGMA page_size = 8192; PRAGMA journal_mode = OFF;"
                             "PRAGMA synchronous = OFF;" CS_SUMMARIES_TABLE_SQL "BEGIN;", &t->error) ||
      (insert = _cs_sqlite_prepare (adb, "INSERT INTO summaries VALUES (?1, ?2, ?3, ?4)",
                                    &t->error)) == NULL)
    goto out;

  p.read_db = rdb;
  p.insert = insert;
  p.n_levels = job->n_levels;
  p.levels = levels;
  while ((cpu = g_atomic_int_add (&job->next_cpu, 1)) < job->n_cpus)
    {
      p.cpu = cpu;
      for (guint l = 0; l < job->n_levels; l++)
        {
          levels[l].idx = -1;
          levels[l].block = -1;
          levels[l].block_used = FALSE;
        }
      if (!build_cpu (&p, job->origin_ns, job->shift, job->cancellable, &t->error))
        {
          g_atomic_int_set (&job->next_cpu, job->n_cpus);
          goto out;
        }
    }
  _cs_sqlite_exec (adb, "COMMIT;", &t->error);
out:
  g_clear_pointer (&insert, sqlite3_finalize);
  sqlite3_close (adb);
  sqlite3_close (rdb);
  return NULL;
}

/*
 * _cs_summary_build:
 * @db: the index being built, with no transaction open
 * @db_path: its file
 *
 * Writes the summaries table for every CPU from the event_chunks and
 * slice_chunks tables already in @db (see the file comment).  CPUs are
 * summarised in parallel, one thread per core, each writing a side file
 * next to @db_path that is then copied in and deleted.
 */
gboolean
_cs_summary_build (sqlite3       *db,
                   const char    *db_path,
                   guint          n_cpus,
                   gint64         origin_ns,
                   gint64         last_ns,
                   guint          shift,
                   guint          n_levels,
                   GCancellable  *cancellable,
                   GError       **error)
{
  SummaryJob job = { db_path, n_cpus, origin_ns, shift, CLAMP (n_levels, 1, MAX_LEVELS), cancellable, 0 };
  guint n_threads = CLAMP (g_get_num_processors (), 1, MAX (n_cpus, 1));
  g_autofree SummaryThread *threads = g_new0 (SummaryThread, n_threads);
  g_autofree GThread **handles = g_new0 (GThread *, n_threads);
  gboolean ok = TRUE;

  for (guint i = 0; i < n_threads; i++)
    {
      threads[i].job = &job;
      threads[i].aux_path = g_strdup_printf ("%s-summary%u", db_path, i);
      g_unlink (threads[i].aux_path);
      handles[i] = g_thread_new ("cs-summary", summary_thread, &threads[i]);
    }
  for (guint i = 0; i < n_threads; i++)
    g_thread_join (handles[i]);

  for (guint i = 0; i < n_threads; i++)
    {
      if (threads[i].error != NULL)
        {
          if (ok)
            g_propagate_error (error, g_steal_pointer (&threads[i].error));
          g_clear_error (&threads[i].error);
          ok = FALSE;
        }
      if (ok)
        {
          char *attach = sqlite3_mprintf ("ATTACH DATABASE %Q AS side;", threads[i].aux_path);
          ok = _cs_sqlite_exec (db, attach, error) &&
               _cs_sqlite_exec (db, "INSERT INTO main.summaries SELECT * FROM side.summaries;"
                                    "DETACH DATABASE side;", error);
          sqlite3_free (attach);
        }
      g_unlink (threads[i].aux_path);
      g_free (threads[i].aux_path);
    }
  return ok;
}
