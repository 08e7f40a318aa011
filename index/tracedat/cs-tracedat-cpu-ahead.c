/* cs-tracedat-cpu-ahead.c: a CsTracedatCpu's chunks of compressed data
 * decompressed ahead, on a thread of its own, while a core is idle
 * (cs_tracedat_cpu_set_read_ahead()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Decompressing is most of the cost of reading a compressed v7 recording
 * (zstd: ~25 us per chunk of 10 pages, 2 s for the 3.4 GB of the large
 * bench recording, against 0.5 s of pread() for its v6 twin).  When the
 * indexer scans a recording whose CPUs hold unequal shares of the events,
 * the last CPU is scanned alone while the other core waits: this thread
 * decompresses that CPU's next chunks there.
 *
 * The stream (its thread) and the read-ahead thread share a ring of
 * AHEAD_SLOTS decompressed chunks:
 *   - chunks [first, next) are done (decompressed, or failed), each in
 *     slot (index % AHEAD_SLOTS); chunk next is being decompressed when
 *     @busy;
 *   - the thread goes on from @next while a core is idle, the ring has
 *     room and it knows where chunk @next starts (@cursor_valid): it reads
 *     the chunks' headers itself, from a window of compressed data of its
 *     own, and checks them as the stream would;
 *   - the stream takes chunk @first when it is done, swapping buffers
 *     (no copy); waits when it is being decompressed; else claims it and
 *     decompresses it itself, and the thread goes on after it.  A failed
 *     chunk is claimed too, so that the stream's own reading reports the
 *     error as it would have, and goes on after it the same way.
 * One lock guards that state, taken twice per chunk (~4 KB compressed,
 * 40 KiB of pages) by each side; the sides wake each other only when the
 * other sleeps, and the thread is woken only when half the ring is free.
 * A stream that moves elsewhere (cs_tracedat_cpu_seek()) finds chunk
 * @first is not the one it wants: the ring is emptied and starts again
 * after the chunk it wants.
 */
#include "config.h"

#include <traceevent/event-parse.h>

#include "cs-index-steps.h"
#include "cs-tracedat-cpu-private.h"

/* Decompressed chunks kept ahead: 16 x 40 KiB for trace-cmd's chunks of
 * 10 pages of 4 KiB.  Each side wakes the other at most once per half
 * ring. */
#define AHEAD_SLOTS 16

typedef struct {
  guint8 *buf;          /* the pages, padded as CsTracedatCpu.block */
  gsize alloc;
  Chunk ch;
  gboolean ok;
} Slot;

struct _CsTdReadAhead {
  CsTracedatCpu *c;     /* borrowed: the thread reads its immutable fields */
  CsTracedatIdleFunc idle_core;
  gpointer idle_data;
  GThread *thread;      /* started when a core is idle the first time */

  /* The thread's own */
  CsTdInWindow in;
  ZSTD_DCtx *zstd;
  z_stream zs;
  gboolean zs_ready;

  /* Under @lock */
  GMutex lock;
  GCond work;           /* the thread waits on it */
  GCond done;           /* the stream waits on it */
  guint first;
  guint next;
  gboolean busy;
  gboolean cursor_valid;
  guint64 cursor_file_pos;    /* where chunk @next starts */
  guint64 cursor_stream_pos;
  gboolean thread_waits;
  gboolean stream_waits;
  gboolean quit;
  Slot slots[AHEAD_SLOTS];
};

/* Reads, checks and decompresses chunk @i, which starts at @file_pos and
 * @stream_pos, into @slot; FALSE when it cannot (the stream will find out
 * why).  Without the lock. */
static gboolean
decompress_chunk (CsTdReadAhead *ra,
                  guint          i,
                  guint64        file_pos,
                  guint64        stream_pos,
                  Slot          *slot)
{
  CsTracedatCpu *c = ra->c;
  const guint8 *b;
  gsize padded;

  if (i >= c->n_chunks || file_pos + 8 > c->data_end)
    return FALSE;
  b = _cs_tracedat_cpu_in_get (c, &ra->in, file_pos, 8, "chunk header", NULL);
  if (b == NULL || !_cs_tracedat_cpu_parse_chunk_header (c, i, file_pos, stream_pos, b, &slot->ch, NULL))
    return FALSE;
  padded = ((gsize) slot->ch.usize + c->page_size - 1) / c->page_size * c->page_size;
  if (slot->alloc < padded + CS_TD_PAGE_SLACK)
    {
      g_free (slot->buf);
      slot->alloc = padded + CS_TD_PAGE_SLACK;
      slot->buf = g_malloc (slot->alloc);
    }
  b = _cs_tracedat_cpu_in_get (c, &ra->in, file_pos + 8, slot->ch.csize, "chunk", NULL);
  if (b == NULL ||
      !_cs_td_decompress (c->reader, ra->zstd, ra->zs_ready ? &ra->zs : NULL, b, slot->ch.csize,
                          slot->buf, slot->ch.usize, "chunk", file_pos, NULL))
    return FALSE;
  return TRUE;
}

/* With @lock held: whether the thread has work it may do now. */
static gboolean
may_work (CsTdReadAhead *ra)
{
  return ra->cursor_valid && ra->next < ra->c->n_chunks && ra->next - ra->first < AHEAD_SLOTS &&
         ra->idle_core (ra->idle_data);
}

static gpointer
read_ahead_thread (gpointer user_data)
{
  CsTdReadAhead *ra = user_data;

  /* Its CPU time is the READ step's, as the stream's own decompression. */
  cs_index_step_enter (CS_INDEX_STEP_READ);
  g_mutex_lock (&ra->lock);
  for (;;)
    {
      guint i;
      Slot *slot;
      guint64 file_pos, stream_pos;
      gboolean ok;

      if (ra->quit)
        break;
      if (!may_work (ra))
        {
          ra->thread_waits = TRUE;
          g_cond_wait (&ra->work, &ra->lock);
          continue;
        }
      i = ra->next;
      slot = &ra->slots[i % AHEAD_SLOTS];
      file_pos = ra->cursor_file_pos;
      stream_pos = ra->cursor_stream_pos;
      ra->busy = TRUE;
      g_mutex_unlock (&ra->lock);

      ok = decompress_chunk (ra, i, file_pos, stream_pos, slot);

      g_mutex_lock (&ra->lock);
      ra->busy = FALSE;
      slot->ok = ok;
      ra->next = i + 1;
      if (ok)
        {
          ra->cursor_file_pos = slot->ch.file_pos + 8 + slot->ch.csize;
          ra->cursor_stream_pos = slot->ch.stream_pos + slot->ch.usize;
        }
      else
        ra->cursor_valid = FALSE;   /* until the stream has read past it */
      if (ra->stream_waits)
        {
          ra->stream_waits = FALSE;
          g_cond_broadcast (&ra->done);
        }
    }
  g_mutex_unlock (&ra->lock);
  cs_index_step_leave ();
  return NULL;
}

/* With @lock held, on the stream's thread: starts the thread, or wakes it
 * when it sleeps and half the ring is free, if a core is idle. */
static void
wake_thread (CsTdReadAhead *ra)
{
  if (ra->thread != NULL && !ra->thread_waits)
    return;
  if (ra->next - ra->first > AHEAD_SLOTS / 2 || !may_work (ra))
    return;
  if (ra->thread == NULL)
    {
      ra->thread = g_thread_new ("cs-read-ahead", read_ahead_thread, ra);
      return;
    }
  ra->thread_waits = FALSE;
  g_cond_signal (&ra->work);
}

/* With @lock held: waits until the thread is not decompressing. */
static void
wait_idle (CsTdReadAhead *ra)
{
  while (ra->busy)
    {
      ra->stream_waits = TRUE;
      g_cond_wait (&ra->done, &ra->lock);
    }
}

/*
 * _cs_td_read_ahead_new:
 * @c: the stream, compressed, which outlives the result
 * @idle_core: whether the thread may work now
 *
 * Returns: (transfer full): a read-ahead for @c, its thread not started
 *   yet; free with _cs_td_read_ahead_free()
 */
CsTdReadAhead *
_cs_td_read_ahead_new (CsTracedatCpu      *c,
                       CsTracedatIdleFunc  idle_core,
                       gpointer            user_data)
{
  CsTdReadAhead *ra = g_new0 (CsTdReadAhead, 1);

  ra->c = c;
  ra->idle_core = idle_core;
  ra->idle_data = user_data;
  g_mutex_init (&ra->lock);
  g_cond_init (&ra->work);
  g_cond_init (&ra->done);
  if (c->reader->codec == CS_TD_CODEC_ZSTD)
    {
      ra->zstd = ZSTD_createDCtx ();
      if (ra->zstd == NULL)
        g_error ("ZSTD_createDCtx: out of memory");
    }
  else if (c->reader->codec == CS_TD_CODEC_ZLIB)
    {
      if (inflateInit (&ra->zs) != Z_OK)
        g_error ("inflateInit: out of memory");
      ra->zs_ready = TRUE;
    }
  /* Chunk 0 (or whichever the stream takes first: see take()) next. */
  ra->first = ra->next = G_MAXUINT;
  return ra;
}

/*
 * _cs_td_read_ahead_free:
 * @ra: (transfer full): a read-ahead
 *
 * Stops its thread and frees it.  The stream's thread.
 */
void
_cs_td_read_ahead_free (CsTdReadAhead *ra)
{
  g_mutex_lock (&ra->lock);
  ra->quit = TRUE;
  g_cond_signal (&ra->work);
  g_mutex_unlock (&ra->lock);
  if (ra->thread != NULL)
    g_thread_join (ra->thread);
  for (guint k = 0; k < AHEAD_SLOTS; k++)
    g_free (ra->slots[k].buf);
  g_free (ra->in.buf);
  if (ra->zstd != NULL)
    ZSTD_freeDCtx (ra->zstd);
  if (ra->zs_ready)
    inflateEnd (&ra->zs);
  g_mutex_clear (&ra->lock);
  g_cond_clear (&ra->work);
  g_cond_clear (&ra->done);
  g_free (ra);
}

/*
 * _cs_td_read_ahead_take:
 * @i: the chunk the stream reads next (the one after its current block;
 *   chunks->len >= @i)
 * @block, @block_alloc: (inout): the stream's block buffer, swapped with
 *   the chunk's when it is taken
 * @ch: (out): the chunk's header, when taken
 *
 * On the stream's thread.  When the thread has decompressed chunk @i (or
 * is at it: this waits), gives it to the stream.  Otherwise the stream
 * has to load chunk @i itself and then call _cs_td_read_ahead_claimed():
 * until then the thread does not go on.
 *
 * Returns: %TRUE with the chunk in *@block, %FALSE when it is the stream's
 *   to load
 */
gboolean
_cs_td_read_ahead_take (CsTdReadAhead  *ra,
                        guint           i,
                        guint8        **block,
                        gsize          *block_alloc,
                        Chunk          *ch)
{
  g_mutex_lock (&ra->lock);
  if (i != ra->first || (!ra->cursor_valid && ra->next == ra->first))
    {
      /* The start, a seek, or the stream went past a failed chunk: start
       * again from chunk @i. */
      wait_idle (ra);
      ra->first = ra->next = i;
      _cs_tracedat_cpu_next_chunk_pos (ra->c, i, &ra->cursor_file_pos, &ra->cursor_stream_pos);
      ra->cursor_valid = TRUE;
    }
  if (ra->next == i && ra->busy)
    wait_idle (ra);
  if (ra->next > i)
    {
      Slot *slot = &ra->slots[i % AHEAD_SLOTS];
      gboolean ok = slot->ok;

      ra->first = i + 1;
      if (ok)
        {
          guint8 *buf = *block;
          gsize alloc = *block_alloc;

          *block = slot->buf;
          *block_alloc = slot->alloc;
          slot->buf = buf;
          slot->alloc = alloc;
          *ch = slot->ch;
        }
      wake_thread (ra);
      g_mutex_unlock (&ra->lock);
      return ok;
    }
  /* Not begun: the stream's.  The thread waits for its header. */
  ra->first = ra->next = i + 1;
  ra->cursor_valid = FALSE;
  g_mutex_unlock (&ra->lock);
  return FALSE;
}

/*
 * _cs_td_read_ahead_claimed:
 * @i: the chunk _cs_td_read_ahead_take() left to the stream, whose header
 *   the stream knows now (chunks->len > @i)
 *
 * On the stream's thread: the thread may go on after chunk @i.
 */
void
_cs_td_read_ahead_claimed (CsTdReadAhead *ra,
                           guint          i)
{
  if (i >= ra->c->chunks->len)
    return;
  g_mutex_lock (&ra->lock);
  if (ra->first == i + 1 && ra->next == i + 1 && !ra->cursor_valid)
    {
      _cs_tracedat_cpu_next_chunk_pos (ra->c, i + 1, &ra->cursor_file_pos, &ra->cursor_stream_pos);
      ra->cursor_valid = TRUE;
      wake_thread (ra);
    }
  g_mutex_unlock (&ra->lock);
}
