/* cs-plugin-pass-feed.c: the events a plugin pass reads, in time order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index lists every event with its time, type and record offset, so
 * a pass does not re-scan the recording: each CPU that holds events of
 * the wanted types is a stream that walks the CPU's event chunks, keeps
 * the wanted events and reads their records at their offsets, a batch of
 * events at a time (with a thread, cs_cpu_cursor_peek_at(): the index
 * gives each record's time, so the records of its page before it are not
 * walked); the streams are merged in time order (ties in CPU
 * order) with a small heap.  A CPU without events of the wanted types
 * (cpu_type_counts) has no stream; a chunk whose type column is a
 * dictionary (a chunk holds a handful of types) without a wanted type is
 * skipped from that dictionary alone, its rows not decoded
 * (cs_chunk_peek_values()).
 *
 * When the recording's CPUs can be read independently
 * (cs_trace_file_get_cursors_are_independent(), every recording read by
 * Chronoscope's own reader), each stream runs in a thread of its own with
 * its own connection to the index and its own cursor, N_BATCHES batches
 * ahead of the merge: decoding chunks and reading records, most of a
 * pass's cost, then use the other cores while the pass works on the
 * events before them.  Otherwise (libtracecmd reads the recording) the
 * merge fills each stream's batch itself when it runs out, through the
 * document (as it does when CS_PASS_FEED_THREADS is "0": tests compare
 * the two ways).  Memory is N_BATCHES batches per CPU, whatever the size of
 * the recording: 68 bytes an event and copies of the records, 4,096 to
 * 16,384 events a batch (fewer CPUs, larger batches: EVENTS_IN_FLIGHT).
 * The merge hands out one event at a time; a struct tep_record for it is
 * made then, in the feed (RecordInfo).
 */
#include "config.h"

#include <string.h>

#include <event-parse.h>
#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-index-private.h"
#include "cs-plugin-document.h"
#include "cs-plugin-pass-feed.h"
#include "cs-trace-file.h"

/* Events a stream's batch holds: EVENTS_IN_FLIGHT shared by the
 * streams' N_BATCHES batches each, from MIN_BATCH_EVENTS to
 * MAX_BATCH_EVENTS.  Each batch a stream's thread hands to the merge
 * costs a futex wake each way, and on a virtual machine a reschedule
 * interrupt: with 4,096 events a batch, those were a tenth of the wakeup
 * preset's pass over the large benchmark recording (2 CPUs), whose wall
 * time went from 2.94 to 2.70 s, CPU 5.13 to 4.77 s, with 16,384 (medians
 * of 6 alternated runs; 32,768: the same).  A recording of many CPUs
 * keeps smaller batches, so memory stays ~16 MiB. */
#define MIN_BATCH_EVENTS 4096
#define MAX_BATCH_EVENTS 16384
#define EVENTS_IN_FLIGHT 131072
/* Fields written by one thread and read by another at every event start
 * a cache line of their own. */
#define CACHE_LINE_BYTES 64
#define CACHE_LINE __attribute__ ((aligned (CACHE_LINE_BYTES)))
/* Rows of a chunk whose types produce() looks at together. */
#define SELECT_ROWS 64
#define N_BATCHES 4

/* What the merge hands out of a record besides its data: the rest of
 * its struct tep_record is made in the merge's thread, in one struct for
 * the feed (a tep_record per event was a third of a batch's bytes, which
 * travel from a stream's thread to the merge's). */
typedef struct {
  guint64 offset;
  gint64 missed_events;
  gint32 record_size;
  gint32 size;
} RecordInfo;

/* Wanted events of one CPU, with copies of their records; each array
 * holds the feed's batch_events. */
typedef struct {
  guint n;
  gint64 *key_ts;                       /* the index's time: the merge's order */
  guint64 *row;
  gint64 *ts_ns;
  RecordInfo *record;
  struct tep_event **format;            /* NULL: look it up (describe_record) */
  gint32 *pid;
  gsize *data_at;                       /* each record's data in @data */
  guint8 *data;
  gsize data_len, data_size;
  gboolean last;                        /* the CPU has no more */
  GError *error;                        /* then the batch is the last */
} Batch;

typedef struct {
  CsPassFeed *feed;
  guint cpu;
  gint64 n_chunks;

  /* The producer's (the stream's thread, or the merge without threads):
   * the chunk being walked and the position in it. */
  gint64 chunk;
  guint chunk_pos;
  sqlite3 *db;                  /* with a thread: its own connection */
  sqlite3_stmt *select_chunk;
  CsCpuCursor *cursor;          /* with a thread: its own cursor */
  gint64 decoded_chunk;         /* in @cols, with a thread */
  guint64 decoded_first_row;
  guint decoded_n;
  gint64 *cols[EV_N_COLUMNS];
  gint64 offset_base;           /* the CPU's, added to @cols' offsets */
  guint64 n_skipped;            /* chunks without wanted types, not decoded */

  GThread *thread;
  GAsyncQueue *full;            /* Batch *, in order */
  GAsyncQueue *empty;           /* Batch *, or STOP_BATCH */
  gint stop;                    /* atomic */

  /* The merge's, on a cache line of their own (CACHE_LINE): the merge
   * writes @pos at every event, and a stream's thread that read its own
   * fields on the same line (the next stream's, in the array) waited for
   * the line to come back from the other core at every record. */
  Batch *batch CACHE_LINE;      /* being merged; without a thread, refilled */
  guint pos;
} Stream;

/* A wanted type's format and common fields, found once (read-only in
 * the streams' threads). */
typedef struct {
  struct tep_event *format;
  CsPluginField common_type;
  CsPluginField common_pid;
  /* The usual layout (an unsigned 2-byte common_type, a 4-byte
   * common_pid, in this machine's byte order), read without a call per
   * field: @direct_end is the bytes a record needs for both (0: read
   * through the fields). */
  guint32 type_at, pid_at, direct_end;
} TypeInfo;

/* Streams' threads read the first fields for every record they take;
 * the merge writes those from @heap on for every event it hands out:
 * apart on cache lines (allocated aligned: _cs_pass_feed_new()). */
struct _CsPassFeed
{
  CsDocument *doc;
  CsTraceFile *file;
  const gboolean *wanted;
  guint8 *wanted8;              /* @wanted as bytes, and a 0 past it for any other id */
  guint n_types;
  TypeInfo *types;              /* by the index's type id */
  gboolean threaded;
  guint batch_events;           /* a batch's room */
  Stream *streams;
  guint n_streams;
  guint *heap CACHE_LINE;       /* stream indexes, a min-heap on (key_ts, cpu) */
  guint heap_len;
  Stream *advance;              /* the stream of the event handed out last */
  /* While the stream at the heap's top stays before this stream's event
   * (the second in the merge's order; NULL: none), it goes on without a
   * look at the heap: events of one CPU come in runs. */
  const Stream *runner_up;
  gint64 runner_up_ts;          /* its event's key_ts */
  struct tep_record record;     /* the event handed out last */
};

/* What tells a stream's thread to end. */
static char stop_mark;
#define STOP_BATCH ((Batch *) &stop_mark)

/* ------------------------------------------------------------------------ */
/* The producer                                                              */

/* The rows of @st's chunk st->chunk: its first row, count and columns
 * (with a thread, none when it holds no wanted type). */
static gboolean
chunk_get (Stream    *st,
           guint64   *first_row,
           guint     *n,
           gint64   **cols,
           GError   **error)
{
  CsPassFeed *feed = st->feed;
  const guint8 *data;
  gsize size;
  guint rows;
  gboolean ok;
  int rc;

  /* A chunk that event_chunk_types says holds none of the types: not
   * even looked up (a pass of rare types steps over no blob). */
  if (!_cs_document_chunk_may_hold (feed->doc, st->cpu, st->chunk, feed->wanted, feed->n_types))
    {
      st->n_skipped++;
      *first_row = 0;
      *n = 0;
      return TRUE;
    }
  if (!feed->threaded)
    {
      CsEventChunkCache *c = _cs_document_get_chunk (feed->doc, st->cpu, st->chunk, error);

      if (c == NULL)
        return FALSE;
      *first_row = c->first_row;
      *n = c->n;
      memcpy (cols, c->cols, sizeof c->cols);
      return TRUE;
    }
  if (st->decoded_chunk != st->chunk)
    {
      const char *index_path = cs_document_get_index_path (feed->doc);

      if (st->db == NULL)
        {
          /* Immutable: no lock, unlock and look at the file's change
           * counter for each chunk (_cs_sqlite_open_index()). */
          if (_cs_sqlite_open_index (index_path, &st->db) != SQLITE_OK ||
              sqlite3_prepare_v2 (st->db,
                                  "SELECT first_row, n_rows, data FROM event_chunks"
                                  " WHERE cpu = ?1 AND chunk = ?2", -1,
                                  &st->select_chunk, NULL) != SQLITE_OK)
            {
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                           "Cannot read the index %s: %s", index_path,
                           st->db != NULL ? sqlite3_errmsg (st->db) : "out of memory");
              return FALSE;
            }
        }
      sqlite3_bind_int (st->select_chunk, 1, st->cpu);
      sqlite3_bind_int64 (st->select_chunk, 2, st->chunk);
      rc = sqlite3_step (st->select_chunk);
      if (rc != SQLITE_ROW)
        {
          if (rc == SQLITE_DONE)
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                         "The index %s lacks chunk %" G_GINT64_FORMAT " of CPU %u",
                         index_path, st->chunk, st->cpu);
          else
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                         "Cannot read the index %s: %s", index_path, sqlite3_errmsg (st->db));
          sqlite3_reset (st->select_chunk);
          return FALSE;
        }
      rows = (guint) sqlite3_column_int (st->select_chunk, 1);
      data = sqlite3_column_blob (st->select_chunk, 2);
      size = (gsize) sqlite3_column_bytes (st->select_chunk, 2);
      if (rows > 16 * CS_EVENT_CHUNK_ROWS)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       "The index %s has a chunk of %u events", index_path, rows);
          sqlite3_reset (st->select_chunk);
          return FALSE;
        }
      if (!_cs_event_chunk_may_hold (data, size, rows, feed->wanted, feed->n_types))
        {
          /* Nothing to read in it: an empty chunk for produce(). */
          st->n_skipped++;
          st->decoded_first_row = 0;
          st->decoded_n = 0;
          st->decoded_chunk = st->chunk;
          sqlite3_reset (st->select_chunk);
          *first_row = 0;
          *n = 0;
          return TRUE;
        }
      for (guint c = 0; c < EV_N_COLUMNS; c++)
        st->cols[c] = g_renew (gint64, st->cols[c], MAX (rows, 1));
      st->decoded_chunk = -1;
      /* produce() reads no pids (the records hold them): walk over them. */
      {
        gint64 *wanted_cols[EV_N_COLUMNS];

        memcpy (wanted_cols, st->cols, sizeof wanted_cols);
        wanted_cols[EV_PID] = NULL;
        ok = cs_chunk_decode_columns (data, size, rows, EV_N_COLUMNS, EV_N_COLUMNS,
                                      _cs_event_chunk_modes, wanted_cols, rows, error);
      }
      if (!ok)
        {
          sqlite3_reset (st->select_chunk);
          return FALSE;
        }
      if (st->offset_base != 0)
        for (guint i = 0; i < rows; i++)
          st->cols[EV_OFFSET][i] += st->offset_base;
      st->decoded_first_row = (guint64) sqlite3_column_int64 (st->select_chunk, 0);
      st->decoded_n = rows;
      st->decoded_chunk = st->chunk;
      sqlite3_reset (st->select_chunk);
    }
  *first_row = st->decoded_first_row;
  *n = st->decoded_n;
  memcpy (cols, st->cols, sizeof st->cols);
  return TRUE;
}

/* The format and pid of @b's record @i, of the index's type @type, from
 * the record's common fields: what the pass would otherwise ask
 * libtraceevent for (tep_data_type(), a search for the format,
 * tep_data_pid()) in its own thread.  A record whose common_type is not
 * its format's id (a recording with two formats of one name) is left to
 * the pass's lookup. */
static void
describe (const CsPassFeed        *feed,
          gint64                   type,
          const struct tep_record *record,
          Batch                   *b,
          guint                    i)
{
  const TypeInfo *t = &feed->types[type];
  CsPluginEvent ev = { .record = (struct tep_record *) record };
  gint64 id = -1, pid = 0;

  b->format[i] = NULL;
  b->pid[i] = 0;
  if (t->direct_end > 0 && record->size >= 0 && (guint32) record->size >= t->direct_end)
    {
      const guint8 *data = record->data;
      guint16 id16;
      gint32 pid32;

      memcpy (&id16, data + t->type_at, sizeof id16);
      memcpy (&pid32, data + t->pid_at, sizeof pid32);
      if (id16 != t->format->id)
        return;
      b->format[i] = t->format;
      b->pid[i] = pid32;
      return;
    }
  if (t->format == NULL || !cs_plugin_event_read_int (&ev, &t->common_type, &id) ||
      id != t->format->id)
    return;
  cs_plugin_event_read_int (&ev, &t->common_pid, &pid);
  b->format[i] = t->format;
  b->pid[i] = (gint32) pid;
}

/* Appends the record at @offset of @st's CPU, of the index's type @type,
 * to @b. */
static gboolean
batch_add (Stream   *st,
           Batch    *b,
           gint64    type,
           guint64   row,
           gint64    key_ts,
           guint64   offset,
           GError  **error)
{
  CsRecord rec;
  gsize size, at;

  /* The index gives the record's time: its page's records before it need
   * not be walked (most of the cost of reading it). */
  if (st->feed->threaded ? !cs_cpu_cursor_peek_at (st->cursor, offset, key_ts, &rec, error)
                         : !cs_trace_file_read_at (st->feed->file, st->cpu, offset, &rec, error))
    return FALSE;
  size = rec.tep_record->size > 0 ? (gsize) rec.tep_record->size : 0;
  /* 8-byte aligned copies: libtraceevent reads 8-byte fields in place. */
  at = (b->data_len + 7) & ~(gsize) 7;
  if (at + size > b->data_size)
    {
      b->data_size = MAX (b->data_size * 2, at + size + 4096);
      b->data = g_realloc (b->data, b->data_size);
    }
  if (size > 0)
    memcpy (b->data + at, rec.tep_record->data, size);
  b->data_len = at + size;
  b->data_at[b->n] = at;
  b->record[b->n].offset = rec.tep_record->offset;
  b->record[b->n].missed_events = rec.tep_record->missed_events;
  b->record[b->n].record_size = rec.tep_record->record_size;
  b->record[b->n].size = rec.tep_record->size;
  describe (st->feed, type, rec.tep_record, b, b->n);
  b->key_ts[b->n] = key_ts;
  b->row[b->n] = row;
  b->ts_ns[b->n] = rec.ts_ns;
  b->n++;
  return TRUE;
}

/* Fills @b with the next wanted events of @st's CPU, up to the feed's
 * batch_events; sets b->last at the CPU's end or on an error (b->error). */
static void
produce (Stream *st,
         Batch  *b)
{
  CsPassFeed *feed = st->feed;
  const guint room = feed->batch_events;

  b->n = 0;
  b->data_len = 0;
  while (b->n < room && st->chunk < st->n_chunks)
    {
      gint64 *cols[EV_N_COLUMNS];
      guint64 first_row;
      guint n;

      if (!chunk_get (st, &first_row, &n, cols, &b->error))
        {
          b->last = TRUE;
          return;
        }
      while (st->chunk_pos < n && b->n < room)
        {
          guint rows[SELECT_ROWS];
          guint end = MIN (n, st->chunk_pos + SELECT_ROWS), n_rows = 0, i;

          /* The wanted rows of the next SELECT_ROWS, without a branch a
           * row: a pass wants a few types among many, in no pattern a
           * branch predictor learns, and a mispredicted branch a row
           * had made this loop a tenth of a feed thread's time. */
          for (guint r = st->chunk_pos; r < end; r++)
            {
              guint64 type = (guint64) cols[EV_TYPE][r];

              rows[n_rows] = r;
              n_rows += feed->wanted8[MIN (type, (guint64) feed->n_types)];
            }
          for (i = 0; i < n_rows && b->n < room; i++)
            {
              guint r = rows[i];

              if (!batch_add (st, b, cols[EV_TYPE][r], first_row + r, cols[EV_TS][r],
                              (guint64) cols[EV_OFFSET][r], &b->error))
                {
                  b->last = TRUE;
                  return;
                }
            }
          /* A full batch: the next one starts at the first row not taken
           * (the rows before it are not wanted). */
          st->chunk_pos = i < n_rows ? rows[i] : end;
        }
      if (st->chunk_pos == n)
        {
          st->chunk++;
          st->chunk_pos = 0;
        }
    }
  b->last = st->chunk >= st->n_chunks;
}

static gpointer
stream_thread (gpointer data)
{
  Stream *st = data;
  gboolean last = FALSE;
  GError *error = NULL;

  st->cursor = cs_trace_file_open_cpu (st->feed->file, st->cpu, &error);
  while (!last)
    {
      Batch *b = g_async_queue_pop (st->empty);

      if (b == STOP_BATCH || g_atomic_int_get (&st->stop))
        {
          if (b != STOP_BATCH)
            g_async_queue_push (st->empty, b);
          break;
        }
      if (error != NULL)
        {
          b->n = 0;
          b->last = TRUE;
          b->error = g_steal_pointer (&error);
        }
      else
        produce (st, b);
      last = b->last;
      g_async_queue_push (st->full, b);
    }
  g_clear_error (&error);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The merge                                                                 */

static Batch *
batch_new (guint room)
{
  Batch *b = g_new0 (Batch, 1);

  b->key_ts = g_new0 (gint64, room);
  b->row = g_new0 (guint64, room);
  b->ts_ns = g_new0 (gint64, room);
  b->record = g_new0 (RecordInfo, room);
  b->format = g_new0 (struct tep_event *, room);
  b->pid = g_new0 (gint32, room);
  b->data_at = g_new0 (gsize, room);
  return b;
}

static void
batch_free (Batch *b)
{
  if (b == NULL)
    return;
  g_clear_error (&b->error);
  g_free (b->key_ts);
  g_free (b->row);
  g_free (b->ts_ns);
  g_free (b->record);
  g_free (b->format);
  g_free (b->pid);
  g_free (b->data_at);
  g_free (b->data);
  g_free (b);
}

/* The stream's next batch with events; FALSE at its end or on error. */
static gboolean
stream_refill (Stream  *st,
               GError **error)
{
  st->pos = 0;
  for (;;)
    {
      Batch *b;

      if (st->batch != NULL && st->batch->last)
        return FALSE;
      if (!st->feed->threaded)
        {
          if (st->batch == NULL)
            st->batch = batch_new (st->feed->batch_events);
          produce (st, st->batch);
        }
      else
        {
          b = g_async_queue_pop (st->full);
          if (st->batch != NULL)
            g_async_queue_push (st->empty, st->batch);
          st->batch = b;
        }
      if (st->batch->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&st->batch->error));
          return FALSE;
        }
      if (st->batch->n > 0)
        return TRUE;
    }
}

static gboolean
stream_before (const CsPassFeed *feed,
               guint             a,
               guint             b)
{
  const Stream *sa = &feed->streams[a], *sb = &feed->streams[b];
  gint64 ta = sa->batch->key_ts[sa->pos], tb = sb->batch->key_ts[sb->pos];

  return ta < tb || (ta == tb && sa->cpu < sb->cpu);
}

/* Whether @st's event comes before the runner-up's (stream_before()). */
static inline gboolean
before_runner_up (const CsPassFeed *feed,
                  const Stream     *st)
{
  gint64 ts = st->batch->key_ts[st->pos];

  return ts < feed->runner_up_ts || (ts == feed->runner_up_ts && st->cpu < feed->runner_up->cpu);
}

static void
heap_sift_down (CsPassFeed *feed,
                guint       i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, best = i;

      if (l < feed->heap_len && stream_before (feed, feed->heap[l], feed->heap[best]))
        best = l;
      if (r < feed->heap_len && stream_before (feed, feed->heap[r], feed->heap[best]))
        best = r;
      if (best == i)
        return;
      guint t = feed->heap[i];
      feed->heap[i] = feed->heap[best];
      feed->heap[best] = t;
      i = best;
    }
}

/**
 * _cs_pass_feed_is_threaded:
 * @document: the recording, with its index
 *
 * Returns: whether a feed of @document reads in threads of its own, each
 *   with its own connection to the index and its own cursors, never
 *   through @document (cs_plugin_pass_get_document_is_idle())
 */
gboolean
_cs_pass_feed_is_threaded (CsDocument *document)
{
  CsTraceFile *file = cs_document_get_trace_file (document);

  return file != NULL && cs_trace_file_get_cursors_are_independent (file) &&
         g_strcmp0 (g_getenv ("CS_PASS_FEED_THREADS"), "0") != 0;
}

/**
 * _cs_pass_feed_new:
 * @document: the recording, with its index
 * @wanted: (array): by event type id (cs_document_get_n_event_types()
 *   of them): whether the pass reads events of that type; must stay valid
 *   until the feed is freed
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT when the
 *   index cannot be read, the recording's errors when a record cannot
 *   be read
 *
 * Starts reading the wanted events: with independent CPUs, one thread per
 * CPU that holds some starts reading ahead.
 *
 * Returns: (transfer full): the feed, or %NULL with @error set
 */
CsPassFeed *
_cs_pass_feed_new (CsDocument      *document,
                   const gboolean  *wanted,
                   GError         **error)
{
  g_autoptr(CsPassFeed) feed = g_aligned_alloc0 (1, sizeof (CsPassFeed), CACHE_LINE_BYTES);
  struct tep_handle *tep;
  guint n_cpus = cs_document_get_n_cpus (document);

  feed->doc = document;
  feed->file = cs_document_get_trace_file (document);
  feed->wanted = wanted;
  feed->n_types = cs_document_get_n_event_types (document);
  feed->wanted8 = g_new0 (guint8, feed->n_types + 1);
  for (guint t = 0; t < feed->n_types; t++)
    feed->wanted8[t] = wanted[t] != FALSE;
  feed->threaded = _cs_pass_feed_is_threaded (document);
  /* Here, before the streams' threads ask _cs_document_chunk_may_hold(),
   * and only where it pays: a pass of types every chunk holds (the
   * wakeup preset's) would read the table for nothing. */
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    if (_cs_document_types_are_rare (document, cpu, wanted, feed->n_types))
      {
        _cs_document_read_chunk_types (document);
        break;
      }
  feed->streams = g_aligned_alloc0 (MAX (n_cpus, 1), sizeof (Stream), CACHE_LINE_BYTES);
  feed->heap = g_new0 (guint, MAX (n_cpus, 1));
  if (feed->file == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("The recording “%s” can no longer be read"),
                   cs_document_get_trace_path (document));
      return NULL;
    }
  feed->types = g_new0 (TypeInfo, MAX (feed->n_types, 1));
  tep = cs_trace_file_get_tep (feed->file);
  for (guint t = 0; tep != NULL && t < feed->n_types; t++)
    {
      const CsEventType *type = cs_document_get_event_type (document, t);
      CsPluginEvent ev = { .tep = tep };

      if (!wanted[t] || type == NULL)
        continue;
      ev.format = tep_find_event_by_name (tep, type->system, type->name);
      if (ev.format != NULL && cs_plugin_field_lookup (&feed->types[t].common_type, &ev, "common_type") &&
          cs_plugin_field_lookup (&feed->types[t].common_pid, &ev, "common_pid"))
        {
          struct tep_format_field *ft = tep_find_common_field (ev.format, "common_type");
          struct tep_format_field *fp = tep_find_common_field (ev.format, "common_pid");

          feed->types[t].format = ev.format;
          if (ft != NULL && fp != NULL && ft->size == 2 && !(ft->flags & TEP_FIELD_IS_SIGNED) &&
              fp->size == 4 && ft->offset >= 0 && fp->offset >= 0 &&
              tep_is_file_bigendian (tep) == tep_is_local_bigendian (tep))
            {
              feed->types[t].type_at = (guint32) ft->offset;
              feed->types[t].pid_at = (guint32) fp->offset;
              feed->types[t].direct_end = MAX (feed->types[t].type_at + 2, feed->types[t].pid_at + 4);
            }
        }
    }
  feed->batch_events = CLAMP (EVENTS_IN_FLIGHT / (MAX (n_cpus, 1) * N_BATCHES),
                              MIN_BATCH_EVENTS, MAX_BATCH_EVENTS);
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      guint64 n_wanted = 0;
      Stream *st;

      for (guint t = 0; t < feed->n_types; t++)
        if (wanted[t])
          n_wanted += cs_document_get_cpu_type_count (document, cpu, t);
      if (n_wanted == 0)
        continue;
      st = &feed->streams[feed->n_streams++];
      st->feed = feed;
      st->cpu = cpu;
      st->n_chunks = _cs_document_get_n_chunks (document, cpu);
      st->offset_base = _cs_document_get_offset_base (document, cpu);
      st->decoded_chunk = -1;
      if (!feed->threaded)
        continue;
      st->full = g_async_queue_new ();
      st->empty = g_async_queue_new ();
      for (guint i = 0; i < N_BATCHES; i++)
        g_async_queue_push (st->empty, batch_new (feed->batch_events));
      st->thread = g_thread_new ("cs-pass-feed", stream_thread, st);
    }
  for (guint i = 0; i < feed->n_streams; i++)
    {
      GError *local_error = NULL;

      if (stream_refill (&feed->streams[i], &local_error))
        feed->heap[feed->heap_len++] = i;
      else if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
    }
  for (guint i = feed->heap_len / 2; i-- > 0;)
    heap_sift_down (feed, i);
  return g_steal_pointer (&feed);
}

/**
 * _cs_pass_feed_next:
 * @feed: a feed
 * @event: (out caller-allocates): the next wanted event in time order
 *   (ties in CPU order, then in the CPU's order)
 * @error: as for _cs_pass_feed_new()
 *
 * Returns: %TRUE with @event set; %FALSE at the end, or with @error set
 */
gboolean
_cs_pass_feed_next (CsPassFeed       *feed,
                    CsPassFeedEvent  *event,
                    GError          **error)
{
  struct tep_record *r = &feed->record;
  const RecordInfo *info;
  const Batch *b;
  Stream *st;

  /* The last event handed out stays valid until now. */
  if (feed->advance != NULL)
    {
      st = g_steal_pointer (&feed->advance);
      if (++st->pos == st->batch->n)
        {
          GError *local_error = NULL;

          feed->runner_up = NULL;
          if (!stream_refill (st, &local_error))
            {
              if (local_error != NULL)
                {
                  g_propagate_error (error, local_error);
                  feed->heap_len = 0;
                  return FALSE;
                }
              feed->heap[0] = feed->heap[--feed->heap_len];
            }
        }
      /* Still before the runner-up's event (which has not moved): the
       * heap's order holds as it is.  Otherwise sift, and note the new
       * runner-up: the better of the top's children. */
      if (feed->runner_up == NULL || !before_runner_up (feed, st))
        {
          heap_sift_down (feed, 0);
          feed->runner_up = NULL;
          if (feed->heap_len == 2)
            feed->runner_up = &feed->streams[feed->heap[1]];
          else if (feed->heap_len > 2)
            feed->runner_up = &feed->streams[feed->heap[stream_before (feed, feed->heap[1],
                                                                       feed->heap[2]) ? 1 : 2]];
          if (feed->runner_up != NULL)
            feed->runner_up_ts = feed->runner_up->batch->key_ts[feed->runner_up->pos];
        }
    }
  if (feed->heap_len == 0)
    return FALSE;
  st = &feed->streams[feed->heap[0]];
  b = st->batch;
  info = &b->record[st->pos];
  event->cpu = st->cpu;
  event->row = b->row[st->pos];
  event->ts_ns = b->ts_ns[st->pos];
  event->format = b->format[st->pos];
  event->pid = b->pid[st->pos];
  r->ts = (unsigned long long) event->ts_ns;
  r->offset = info->offset;
  r->missed_events = info->missed_events;
  r->record_size = info->record_size;
  r->size = info->size;
  r->data = b->data + b->data_at[st->pos];
  r->cpu = (int) st->cpu;
  r->ref_count = 1;
  r->locked = 0;
  r->priv = NULL;
  event->record = r;
  feed->advance = st;
  return TRUE;
}

/**
 * _cs_pass_feed_free:
 * @feed: (nullable): a feed
 *
 * Stops its threads and frees it.
 */
void
_cs_pass_feed_free (CsPassFeed *feed)
{
  if (feed == NULL)
    return;
  for (guint i = 0; i < feed->n_streams; i++)
    {
      Stream *st = &feed->streams[i];
      Batch *b;

      if (st->thread != NULL)
        {
          g_atomic_int_set (&st->stop, TRUE);
          g_async_queue_push (st->empty, STOP_BATCH);
          g_thread_join (st->thread);
          g_debug ("Pass feed, CPU %u: %" G_GUINT64_FORMAT " of %" G_GINT64_FORMAT
                   " chunks without wanted types skipped", st->cpu, st->n_skipped, st->n_chunks);
        }
      batch_free (st->batch);
      if (st->full != NULL)
        {
          while ((b = g_async_queue_try_pop (st->full)) != NULL)
            batch_free (b);
          g_async_queue_unref (st->full);
        }
      if (st->empty != NULL)
        {
          while ((b = g_async_queue_try_pop (st->empty)) != NULL)
            if (b != STOP_BATCH)
              batch_free (b);
          g_async_queue_unref (st->empty);
        }
      g_clear_pointer (&st->cursor, cs_cpu_cursor_free);
      sqlite3_finalize (st->select_chunk);
      if (st->db != NULL)
        sqlite3_close (st->db);
      for (guint c = 0; c < EV_N_COLUMNS; c++)
        g_free (st->cols[c]);
    }
  g_aligned_free (feed->streams);
  g_free (feed->heap);
  g_free (feed->types);
  g_free (feed->wanted8);
  g_aligned_free (feed);
}
