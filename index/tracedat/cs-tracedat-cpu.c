/* cs-tracedat-cpu.c: CsTracedatCpu, one CPU's ring-buffer data of a
 * trace.dat file, read page by page the way libtraceevent's kbuffer reads
 * them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout: trace-cmd.dat.v6(5) "CPU DATA" and trace-cmd.dat.v7(5) "BUFFER
 * FLYRECORD SECTION": the pages of the kernel's ring buffer (a page header
 * with a timestamp and a commit size, then events) copied one after the
 * other; for compressed v7 files, "COMPRESSION FORMAT OF THE TRACE DATA": a
 * 4-byte chunk count, then per chunk a 4-byte compressed size, a 4-byte
 * uncompressed size (a whole number of pages) and the compressed bytes.
 *
 * A stream holds one "block" in memory: a decompressed chunk, or for
 * uncompressed data a window of 256 KiB read with pread().  Records
 * point into the block.  Compressed chunks (~4 KB each from trace-cmd)
 * are read through a window of the same size, one pread() for ~60 chunks'
 * headers and data, and may be decompressed ahead on another thread
 * (cs-tracedat-cpu-ahead.c).  Positions (record offsets) are file offsets for
 * uncompressed data and positions in the CPU's decompressed stream for
 * compressed data (see CsTracedatRecord in cs-tracedat-reader.h).
 *
 * Every page is checked before kbuffer sees it (commit size within the page,
 * every event header moving forward, every event inside the committed data),
 * because kbuffer trusts the page: a hostile page could otherwise make it
 * read outside the buffer or loop forever.
 */
#include <traceevent/event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-index-steps.h"
#include "cs-tracedat-page.h"
#include "cs-tracedat-private.h"
#include "cs-tracedat-cpu-private.h"

/* 1 MiB windows cost ~6 % more CPU time indexing the large bench
 * recording (user + sys, 4 runs each): less of a window is still in the
 * caches when it is parsed.  Mapping the pages instead of copying them
 * saved ~2 % but mapped gigabytes (RSS) and is worse on a busy machine. */
#define WINDOW_BYTES (256 * 1024)
/* The reader's own streams for cs_tracedat_reader_read_at() read a few
 * records here and there (a plugin's sparse event types, an event list's
 * rows): a window is copied for each, so it is kept small.  Reading all
 * the records of a span this way costs 8 times as many pread() calls of
 * an eighth of the size, a few µs per MiB. */
#define READ_AT_WINDOW_BYTES (32 * 1024)
#define FIRST_WINDOW_PAGES 4

gboolean
_cs_tracedat_cpu_error (CsTracedatCpu *c, GError **error, gint code, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, CS_INDEX_ERROR, code, _("%s: CPU %u: %s"),
               c->reader->display_name, c->cpu, msg);
  return FALSE;
}

static void
ensure_alloc (guint8 **buf, gsize *alloc, gsize need)
{
  if (need <= *alloc)
    return;
  g_free (*buf);
  *buf = g_malloc (need);
  *alloc = need;
}

CsTracedatCpu *
_cs_tracedat_cpu_new (CsTracedatReader  *reader,
                      guint              cpu,
                      gboolean           ref_reader,
                      GError           **error)
{
  g_autoptr(CsTracedatCpu) c = g_new0 (CsTracedatCpu, 1);
  const CsTdCpuData *d = &reader->cpu_data[cpu];

  c->reader = ref_reader ? g_object_ref (reader) : reader;
  c->owns_reader_ref = ref_reader;
  c->cpu = cpu;
  /* Streams that do not own a reference are the reader's read_at ones. */
  c->window_bytes = ref_reader ? WINDOW_BYTES : READ_AT_WINDOW_BYTES;
  c->page_size = reader->page_size;
  c->be = reader->big_endian;
  c->klong = reader->kernel_long_size;
  c->page_format.be = c->be;
  c->page_format.klong = c->klong;
  c->page_format.page_size = c->page_size;
  c->compressed = reader->data_compressed;
  c->data_offset = d->offset;
  c->data_end = d->offset + d->size;
  c->tsc2nsec = reader->has_tsc2nsec;
  c->mult = reader->tsc2nsec_mult;
  c->shift = reader->tsc2nsec_shift;
  c->ts_offset = (guint64) reader->ts_offset_ns;
  c->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));

  if (d->size == 0)
    {
      c->at_end = TRUE;
      return g_steal_pointer (&c);
    }
  if (d->offset > reader->file_size || d->size > reader->file_size - d->offset)
    {
      _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_TRUNCATED,
                 _("its data at offset %" PRIu64 " (%" PRIu64 " bytes) goes "
                 "past the end of the file (%" PRIu64 " bytes)"),
                 d->offset, d->size, reader->file_size);
      return NULL;
    }

  if (c->compressed)
    {
      guint8 b[4];

      if (d->size < 4)
        {
          _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                     _("compressed data at offset %" PRIu64 " is only %" PRIu64
                     " bytes"), d->offset, d->size);
          return NULL;
        }
      if (!_cs_td_pread_exact (reader, b, 4, d->offset, _("chunk count"), error))
        return NULL;
      /* trace-cmd extract (3.1.6) stores in the BUFFER option the size of
       * the chunks without the 4-byte count before them, trace-cmd record
       * with it: accept both, chunks may end 4 bytes after offset + size. */
      c->data_end = MIN (reader->file_size, d->offset + d->size + 4);
      c->n_chunks = _cs_td_u32 (c->be, b);
      if (c->n_chunks > (c->data_end - d->offset - 4) / 8)
        {
          _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "%u chunk cannot fit in %" PRIu64 " bytes at offset %" PRIu64,
                                  "%u chunks cannot fit in %" PRIu64 " bytes at offset %" PRIu64,
                                  c->n_chunks),
                     c->n_chunks, c->data_end - d->offset, d->offset);
          return NULL;
        }
      if (reader->codec == CS_TD_CODEC_ZSTD)
        {
          c->zstd = ZSTD_createDCtx ();
          if (c->zstd == NULL)
            g_error ("ZSTD_createDCtx: out of memory");
        }
      else if (reader->codec == CS_TD_CODEC_ZLIB)
        {
          if (inflateInit (&c->zs) != Z_OK)
            g_error ("inflateInit: out of memory");
          c->zs_ready = TRUE;
        }
    }

  return g_steal_pointer (&c);
}

/**
 * cs_tracedat_cpu_free:
 * @cpu: (transfer full) (nullable): a stream
 *
 * Frees @cpu, its buffers and its #tep_handle, and drops its reference on the
 * reader.
 */
void
cs_tracedat_cpu_free (CsTracedatCpu *cpu)
{
  if (cpu == NULL)
    return;
  g_clear_pointer (&cpu->ahead, _cs_td_read_ahead_free);
  _cs_td_free_tep (cpu->tep, NULL);
  if (cpu->zstd != NULL)
    ZSTD_freeDCtx (cpu->zstd);
  if (cpu->zs_ready)
    inflateEnd (&cpu->zs);
  g_free (cpu->in.buf);
  g_free (cpu->block);
  g_clear_pointer (&cpu->chunks, g_array_unref);
  if (cpu->owns_reader_ref)
    g_object_unref (cpu->reader);
  g_free (cpu);
}

/**
 * cs_tracedat_cpu_get_cpu:
 * @cpu: a stream
 *
 * Returns: the CPU number @cpu was opened for
 */
guint
cs_tracedat_cpu_get_cpu (CsTracedatCpu *cpu)
{
  g_return_val_if_fail (cpu != NULL, 0);
  return cpu->cpu;
}

/**
 * cs_tracedat_cpu_get_tep:
 * @cpu: a stream
 * @error: return location for a #GError
 *
 * The stream's own libtraceevent handle, for tep_data_pid(), tep_data_type(),
 * tep_find_event(), field access and tep_data_comm_from_pid() on its records
 * from the stream's thread.  It is built on the first call by parsing the
 * file's header page, event formats, printk formats and saved command lines
 * again (a few milliseconds for the usual few hundred formats), so streams
 * never share libtraceevent state (handles cache lookups without locks).
 *
 * Two things are left out, on purpose: kallsyms (15 MB of text and tens of
 * MB of memory for a distribution kernel, per handle) and libtraceevent's
 * plugins (some keep process-global state and are not safe to use from
 * several threads).  So tep_print_event() on this handle prints function
 * addresses instead of names and no plugin output: format events for people
 * with cs_tracedat_reader_get_tep().  Building the handle takes
 * cs_tracedat_reader_get_parse_lock(), so streams of several threads build
 * theirs one at a time.
 *
 * Errors: those of cs_tracedat_reader_open() if the file changed since.
 *
 * Thread: the stream's.
 *
 * Returns: (transfer none): the handle, owned by @cpu, or %NULL with @error
 *   set
 */
struct tep_handle *
cs_tracedat_cpu_get_tep (CsTracedatCpu  *cpu,
                         GError        **error)
{
  g_return_val_if_fail (cpu != NULL, NULL);

  if (cpu->tep == NULL)
    cpu->tep = _cs_td_new_tep (cpu->reader, FALSE, NULL, NULL, error);
  return cpu->tep;
}

/**
 * cs_tracedat_cpu_get_bytes_done:
 * @cpu: a stream
 *
 * Returns: how many bytes of the CPU's data in the file the stream has
 *   consumed, up to cs_tracedat_reader_get_cpu_data_size(); for progress
 */
guint64
cs_tracedat_cpu_get_bytes_done (CsTracedatCpu *cpu)
{
  guint64 total;

  g_return_val_if_fail (cpu != NULL, 0);
  total = cpu->reader->cpu_data[cpu->cpu].size;
  return cpu->at_end ? total : MIN (cpu->bytes_done, total);
}

/**
 * cs_tracedat_cpu_set_read_ahead:
 * @cpu: a stream
 * @idle_core: (nullable): tells when a core is idle, or %NULL to stop
 *   reading ahead
 * @user_data: for @idle_core; it must outlive @cpu or the next call
 *
 * For compressed data (v7 zstd or zlib): while @idle_core says a core is
 * idle, a thread of the stream's own decompresses the next chunks ahead
 * of cs_tracedat_cpu_next(), which then takes them ready.  When no core
 * is idle the stream decompresses its chunks itself, as without this
 * call: a thread more would only slow the others.  What the thread has
 * not begun when the stream needs it, the stream does itself, so reading
 * ahead never waits for a busy core.  Memory: up to 16 decompressed chunks
 * (trace-cmd writes chunks of 10 pages: 640 KiB for pages of 4 KiB) and a
 * window of compressed data, while the stream lives.  Records, positions
 * and errors are the same as without it.  Does nothing for uncompressed
 * data.
 *
 * Thread: the stream's.
 */
void
cs_tracedat_cpu_set_read_ahead (CsTracedatCpu      *cpu,
                                CsTracedatIdleFunc  idle_core,
                                gpointer            user_data)
{
  g_return_if_fail (cpu != NULL);

  g_clear_pointer (&cpu->ahead, _cs_td_read_ahead_free);
  if (idle_core != NULL && cpu->compressed && cpu->n_chunks > 1)
    cpu->ahead = _cs_td_read_ahead_new (cpu, idle_core, user_data);
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                    */

gsize
_cs_tracedat_cpu_window_bytes (CsTracedatCpu *c)
{
  return MAX (c->page_size, c->window_bytes / c->page_size * c->page_size);
}

static void
set_block (CsTracedatCpu *c, guint64 pos, gsize data_len)
{
  gsize padded = (data_len + c->page_size - 1) / c->page_size * c->page_size;

  memset (c->block + data_len, 0, padded - data_len + CS_TD_PAGE_SLACK);
  c->have_block = TRUE;
  c->block_pos = pos;
  c->block_next = pos + data_len;
  c->block_len = padded;
  c->page_started = FALSE;
  c->page_loaded = FALSE;
  c->page_checked = FALSE;
}

/* Uncompressed data: the window starting at file offset @pos, of up to
 * @max_len bytes (a whole number of pages). */
gboolean
_cs_tracedat_cpu_load_window (CsTracedatCpu *c, guint64 pos, gsize max_len, GError **error)
{
  gsize len = (gsize) MIN ((guint64) max_len, c->data_end - pos);

  ensure_alloc (&c->block, &c->block_alloc, max_len + CS_TD_PAGE_SLACK);
  c->have_block = FALSE;
  c->page_loaded = FALSE;
  c->page_checked = FALSE;
  if (!_cs_td_pread_exact (c->reader, c->block, len, pos, _("ring-buffer pages"), error))
    return FALSE;
  set_block (c, pos, len);
  return TRUE;
}

/*
 * _cs_tracedat_cpu_in_get:
 * @w: a window of @c's compressed data (the stream's, or a read-ahead's)
 * @pos: a file offset in the CPU's data
 * @len: bytes wanted, with @pos + @len at most the data's end
 *
 * The bytes [@pos, @pos + @len) of the file: from @w when it holds them,
 * else @w is read again from @pos, a window's worth (c->window_bytes, or
 * @len if more) but not past the CPU's data.  Reads @c's immutable fields
 * only: any thread that owns @w.
 *
 * Returns: (transfer none): the bytes, valid until @w is read again, or
 *   %NULL with @error set
 */
const guint8 *
_cs_tracedat_cpu_in_get (CsTracedatCpu  *c,
                         CsTdInWindow   *w,
                         guint64         pos,
                         gsize           len,
                         const char     *what,
                         GError        **error)
{
  gsize want;

  if (pos >= w->pos && pos + len <= w->pos + w->len)
    return w->buf + (pos - w->pos);
  want = (gsize) MIN ((guint64) MAX (len, c->window_bytes), c->data_end - pos);
  want = MAX (want, len);
  ensure_alloc (&w->buf, &w->alloc, MAX (want, 1));
  w->pos = pos;
  w->len = 0;
  if (!_cs_td_pread_exact (c->reader, w->buf, want, pos, what, error))
    return NULL;
  w->len = want;
  return w->buf;
}

/* Where chunk @i starts (in the file and in the decompressed stream): after
 * chunk @i - 1, whose header must be known (@i <= chunks->len). */
void
_cs_tracedat_cpu_next_chunk_pos (CsTracedatCpu *c,
                                 guint          i,
                                 guint64       *file_pos,
                                 guint64       *stream_pos)
{
  if (i == 0)
    {
      *file_pos = c->data_offset + 4;
      *stream_pos = 0;
    }
  else
    {
      const Chunk *prev = &g_array_index (c->chunks, Chunk, i - 1);

      *file_pos = prev->file_pos + 8 + prev->csize;
      *stream_pos = prev->stream_pos + prev->usize;
    }
}

/*
 * _cs_tracedat_cpu_parse_chunk_header:
 * @i: the chunk's index
 * @file_pos, @stream_pos: where it starts (_cs_tracedat_cpu_next_chunk_pos())
 * @header: its 8 bytes, read at @file_pos
 * @ch: (out): the chunk
 *
 * Checks chunk @i's header against the CPU's data and the reader's limits.
 * Reads @c's immutable fields only: any thread.
 *
 * Returns: %FALSE with @error set (%CS_INDEX_ERROR_CORRUPT,
 *   %CS_INDEX_ERROR_UNSUPPORTED) when the chunk cannot be read
 */
gboolean
_cs_tracedat_cpu_parse_chunk_header (CsTracedatCpu  *c,
                                     guint           i,
                                     guint64         file_pos,
                                     guint64         stream_pos,
                                     const guint8   *header,
                                     Chunk          *ch,
                                     GError        **error)
{
  ch->file_pos = file_pos;
  ch->stream_pos = stream_pos;
  ch->csize = _cs_td_u32 (c->be, header);
  ch->usize = _cs_td_u32 (c->be, header + 4);
  if (ch->csize > c->data_end - ch->file_pos - 8)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("chunk %u at offset %" PRIu64 " claims %u compressed bytes, "
                      "past the end of the CPU's data (%" PRIu64 ")"),
                      i, ch->file_pos, ch->csize, c->data_end);
  if (ch->usize > CS_TD_MAX_CHUNK_BYTES || ch->csize > CS_TD_MAX_CHUNK_BYTES)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_UNSUPPORTED,
                      _("chunk %u at offset %" PRIu64 " is %u bytes (%u compressed), "
                      "more than this reader accepts"),
                      i, ch->file_pos, ch->usize, ch->csize);
  return TRUE;
}

/* Reads the header of chunk chunks->len, which follows the last known one. */
gboolean
_cs_tracedat_cpu_read_chunk_header (CsTracedatCpu *c, GError **error)
{
  guint i = c->chunks->len;
  guint64 file_pos, stream_pos;
  const guint8 *b;
  Chunk ch;

  if (i >= c->n_chunks)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      g_dngettext (GETTEXT_PACKAGE, "reading past its %u chunk",
                                   "reading past its %u chunks", c->n_chunks),
                      c->n_chunks);
  _cs_tracedat_cpu_next_chunk_pos (c, i, &file_pos, &stream_pos);
  if (file_pos + 8 > c->data_end)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("chunk %u of %u would start at offset %" PRIu64
                      ", past the end of the CPU's data (%" PRIu64 ")"),
                      i, c->n_chunks, file_pos, c->data_end);
  if (c->hdr_buf != NULL)
    {
      /* Walking the headers only (cs_tracedat_cpu_estimate()): read ahead. */
      if (file_pos < c->hdr_pos || file_pos + 8 > c->hdr_pos + c->hdr_len)
        {
          c->hdr_pos = file_pos;
          c->hdr_len = (gsize) MIN ((guint64) HEADER_READAHEAD, c->data_end - file_pos);
          if (!_cs_td_pread_exact (c->reader, c->hdr_buf, c->hdr_len, c->hdr_pos, _("chunk header"),
                                   error))
            {
              c->hdr_len = 0;
              return FALSE;
            }
        }
      b = c->hdr_buf + (file_pos - c->hdr_pos);
    }
  else if ((b = _cs_tracedat_cpu_in_get (c, &c->in, file_pos, 8, _("chunk header"), error)) == NULL)
    return FALSE;
  if (!_cs_tracedat_cpu_parse_chunk_header (c, i, file_pos, stream_pos, b, &ch, error))
    return FALSE;
  g_array_append_val (c->chunks, ch);
  return TRUE;
}

/* Compressed data: decompresses chunk @i (its header must be known). */
gboolean
_cs_tracedat_cpu_load_chunk (CsTracedatCpu *c, guint i, GError **error)
{
  const Chunk *ch = &g_array_index (c->chunks, Chunk, i);
  gsize padded = ((gsize) ch->usize + c->page_size - 1) / c->page_size * c->page_size;
  g_autofree char *what = NULL;
  const guint8 *in;

  ensure_alloc (&c->block, &c->block_alloc, padded + CS_TD_PAGE_SLACK);

  /* On failure the block is this chunk, empty: reading on goes to the next. */
  c->have_block = TRUE;
  c->block_chunk = i;
  c->block_pos = ch->stream_pos;
  c->block_next = ch->stream_pos + ch->usize;
  c->block_len = 0;
  c->page_started = FALSE;
  c->page_loaded = FALSE;
  c->page_checked = FALSE;
  c->bytes_done = ch->file_pos + 8 + ch->csize - c->data_offset;

  in = _cs_tracedat_cpu_in_get (c, &c->in, ch->file_pos + 8, ch->csize, _("chunk"), error);
  if (in == NULL)
    return FALSE;
  what = g_strdup_printf (_("CPU %u: chunk %u"), c->cpu, i);
  if (!_cs_td_decompress (c->reader, c->zstd, c->zs_ready ? &c->zs : NULL, in, ch->csize,
                          c->block, ch->usize, what, ch->file_pos, error))
    return FALSE;
  set_block (c, ch->stream_pos, ch->usize);
  c->block_chunk = i;
  return TRUE;
}

/* Compressed data: chunk @i, the one after the current block, from the
 * read-ahead thread if it decompressed it already (or is at it); FALSE
 * when it did not, and the stream loads it itself. */
static gboolean
take_ahead (CsTracedatCpu *c, guint i)
{
  Chunk ch;

  if (!_cs_td_read_ahead_take (c->ahead, i, &c->block, &c->block_alloc, &ch))
    return FALSE;
  if (i == c->chunks->len)
    g_array_append_val (c->chunks, ch);
  c->have_block = TRUE;
  c->bytes_done = ch.file_pos + 8 + ch.csize - c->data_offset;
  set_block (c, ch.stream_pos, ch.usize);
  c->block_chunk = i;
  return TRUE;
}

/* Loads the block after the current one; FALSE at the end (error unset). */
static gboolean
next_block_unmeasured (CsTracedatCpu *c, GError **error)
{
  if (!c->compressed)
    {
      guint64 pos = c->have_block ? c->block_next : c->data_offset;

      if (pos >= c->data_end)
        {
          c->at_end = TRUE;
          return FALSE;
        }
      /* The first window is small: a stream that reads a few records
       * and waits (the index builder starts every CPU before reading on)
       * holds little memory. */
      if (!_cs_tracedat_cpu_load_window (c, pos, c->have_block ? _cs_tracedat_cpu_window_bytes (c)
                                              : MIN (_cs_tracedat_cpu_window_bytes (c), FIRST_WINDOW_PAGES * c->page_size),
                        error))
        {
          c->at_end = TRUE;
          return FALSE;
        }
      return TRUE;
    }
  else
    {
      guint i = c->have_block ? c->block_chunk + 1 : 0;

      if (i >= c->n_chunks)
        {
          c->at_end = TRUE;
          return FALSE;
        }
      if (c->ahead != NULL && take_ahead (c, i))
        return TRUE;
      if (i == c->chunks->len && !_cs_tracedat_cpu_read_chunk_header (c, error))
        {
          c->at_end = TRUE;
          return FALSE;
        }
      if (c->ahead != NULL)
        _cs_td_read_ahead_claimed (c->ahead, i);
      return _cs_tracedat_cpu_load_chunk (c, i, error);
    }
}

/* next_block_unmeasured(), its CPU time the READ step's
 * (cs-index-steps.c): once per window or chunk, not per record. */
static gboolean
next_block (CsTracedatCpu *c, GError **error)
{
  gboolean ok;

  cs_index_step_enter (CS_INDEX_STEP_READ);
  ok = next_block_unmeasured (c, error);
  cs_index_step_leave ();
  return ok;
}

/* ------------------------------------------------------------------------ */
/* Pages                                                                     */

/* The error for a page that load_page() or scan_page() refused. */
static gboolean
page_error (CsTracedatCpu    *c,
            CsTdPageProblem   problem,
            guint             committed,
            guint             bad_byte,
            guint             bad_type,
            GError          **error)
{
  guint64 where = c->block_pos + c->page_off;

  if (problem == CS_TD_PAGE_COMMIT_TOO_BIG)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("the page at %s %" PRIu64 " commits %u bytes, more than a "
                      "page of %u holds"), c->compressed ? _("stream position") : _("offset"),
                      where, committed, c->page_size);
  return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                    _("the event at byte %u of the page at %s %" PRIu64
                    " has a bad length (type %u)"), bad_byte,
                    c->compressed ? _("stream position") : _("offset"), where, bad_type);
}

/* The page at c->page_off into c->walk.  With @walk, every event header
 * walked and checked (cs_td_page_check()) and the walk at the first data
 * event, page_loaded set: for cs_tracedat_cpu_next() and the seeks.
 * Without, only the commit size checked (cs_td_page_check_commit()) and
 * the walk begun before the first event, page_loaded unset: the scan
 * checks each header as it reads it (scan_page()), so that a page's
 * headers are walked once, not twice, and cs_tracedat_cpu_peek_at()
 * decodes single records at the offsets the index gives, each bounded by
 * the committed data. */
static gboolean
load_page (CsTracedatCpu *c, gboolean walk, GError **error)
{
  guint8 *page = c->block + c->page_off;
  guint committed = 0, bad_byte = 0, bad_type = 0;
  CsTdPageProblem problem;

  c->page_loaded = FALSE;
  c->page_checked = FALSE;
  if (!c->compressed)
    c->bytes_done = MIN (c->block_pos + c->page_off + c->page_size, c->data_end) - c->data_offset;
  problem = walk ? cs_td_page_check (&c->page_format, page, NULL, &committed, &bad_byte, &bad_type)
                 : cs_td_page_check_commit (&c->page_format, page, &committed);
  if (problem != CS_TD_PAGE_OK)
    return page_error (c, problem, committed, bad_byte, bad_type, error);
  if (walk)
    cs_td_page_walk_start (&c->page_format, &c->walk, page);
  else
    cs_td_page_walk_begin (&c->page_format, &c->walk, page);
  c->page_loaded = walk;
  c->page_checked = TRUE;
  return TRUE;
}

gboolean
_cs_tracedat_cpu_load_page (CsTracedatCpu *c, GError **error)
{
  return load_page (c, TRUE, error);
}

/* For cs_tracedat_cpu_peek_at(): walking every event header of the page
 * first (cs_td_page_check()), for pages whose events the first open
 * walked and checked already, was 8 % of the latency plugin's wakeup pass
 * (CPU and wall time, tests/bench/HISTORY.md, 2026-12-03). */
gboolean
_cs_tracedat_cpu_load_page_to_peek (CsTracedatCpu *c, GError **error)
{
  return load_page (c, FALSE, error);
}

/* Moves to the next page, loading blocks as needed, and loads it as
 * load_page() with @walk does; FALSE at the end (error unset) or on error.
 * After a bad page, the next call goes on after it. */
static gboolean
advance_page (CsTracedatCpu *c, gboolean walk, GError **error)
{
  for (;;)
    {
      if (c->have_block)
        {
          gsize next = c->page_started ? c->page_off + c->page_size : 0;

          if (next < c->block_len)
            {
              c->page_off = next;
              c->page_started = TRUE;
              return load_page (c, walk, error);
            }
        }
      if (!next_block (c, error))
        return FALSE;
    }
}

/* The walk's current record into @out; @page_data_pos is the position of
 * the page's first event header.  Returns the record's size with its
 * header (the tep_record's record_size). */
static inline guint32
fill_record (CsTracedatCpu        *c,
             const CsTdPageWalk   *w,
             guint64               page_data_pos,
             CsTracedatSlimRecord *out)
{
  out->ts_ns = (gint64) _cs_tracedat_cpu_ts_calc (c, w->timestamp);
  out->offset = page_data_pos + w->curr;
  /* Only a page's first event can follow missed events; kbuffer reports
   * them only when no time extend comes before it, and as an int. */
  out->missed_events = w->curr == 0 ? (int) w->lost_events : 0;
  out->data = w->data + w->index;
  out->size = w->next - w->index;
  return w->next - w->curr;
}

/* fill_record(), and the walk on to the next record (on a page
 * load_page() checked whole). */
static inline guint32
take_record (CsTracedatCpu        *c,
             CsTdPageWalk         *w,
             guint64               page_data_pos,
             CsTracedatSlimRecord *out)
{
  guint32 record_size = fill_record (c, w, page_data_pos, out);

  cs_td_page_walk_next (c->be, w);
  return record_size;
}

/* Reads the page advance_page() just loaded without a walk into @records
 * from *@n (up to @max), checking each event header as cs_td_page_check()
 * would before taking its record.  When the batch fills inside the page, the rest of
 * its headers are checked before it returns, so that a page is given out
 * whole or not at all, as when it was checked before being read, and a
 * page left loaded (page_loaded) is always one checked whole.  A damaged
 * page takes back its records (*@n as on entry) and sets @error as
 * load_page() does; the next call goes on after it. */
static gboolean
scan_page (CsTracedatCpu        *c,
           CsTracedatSlimRecord *records,
           guint                *n,
           guint                 max,
           GError              **error)
{
  /* The walk in a local: the records' 64-bit stores could alias its
   * fields, which would then be read again after each. */
  CsTdPageWalk w = c->walk;
  guint64 page_data_pos = c->block_pos + c->page_off + 8 + c->klong;
  guint taken = *n;
  guint32 bad_type = 0;
  int step;

  while ((step = cs_td_page_walk_next_checked (c->be, &w, &bad_type)) > 0)
    {
      if (taken == max)
        {
          CsTdPageWalk rest = w;

          while ((step = cs_td_page_walk_next_checked (c->be, &rest, &bad_type)) > 0)
            ;
          if (step < 0)
            w = rest;
          break;
        }
      fill_record (c, &w, page_data_pos, &records[taken++]);
    }
  if (step < 0)
    return page_error (c, CS_TD_PAGE_BAD_LENGTH, 0, 8 + c->klong + w.curr, bad_type, error);
  c->walk = w;
  c->page_loaded = TRUE;
  *n = taken;
  return TRUE;
}

/**
 * cs_tracedat_cpu_next:
 * @cpu: a stream
 * @record: (out caller-allocates): the next record
 * @error: return location for a #GError
 *
 * Reads the stream's next record, in the order of the CPU's ring buffer
 * (time order).  Records borrow the stream's memory until the next call of
 * cs_tracedat_cpu_next() or cs_tracedat_cpu_seek() on it.
 *
 * Cost: amortized constant per record; one chunk is decompressed (or one
 * window of pages read) every few hundred records; no allocation per record.
 *
 * Errors: %CS_INDEX_ERROR_CORRUPT for a damaged page (the next call goes on
 * with the following page) or a chunk that does not decompress to its
 * announced size (the next call goes on with the following chunk),
 * %CS_INDEX_ERROR_TRUNCATED when the data ends early, %CS_INDEX_ERROR_UNSUPPORTED
 * for chunks beyond this reader's size limit (32 MiB).  Messages name the
 * file, the CPU and the offset.
 *
 * Thread: the stream's.
 *
 * Returns: %TRUE with @record filled in; %FALSE at the end of the CPU's data
 *   (@error unset) or on error (@error set)
 */
gboolean
cs_tracedat_cpu_next (CsTracedatCpu     *cpu,
                      CsTracedatRecord  *record,
                      GError           **error)
{
  CsTracedatCpu *c = cpu;

  g_return_val_if_fail (cpu != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (;;)
    {
      if (c->page_loaded)
        {
          CsTdPageWalk *w = &c->walk;

          if (w->curr < w->size)
            {
              struct tep_record *r = &c->record;
              CsTracedatSlimRecord slim;

              record->raw_ts = w->timestamp;
              r->record_size = (int) take_record (c, w, c->block_pos + c->page_off + 8 + c->klong, &slim);
              r->ts = (guint64) slim.ts_ns;
              r->offset = slim.offset;
              r->missed_events = (int) slim.missed_events;
              r->size = (int) slim.size;
              r->data = (void *) slim.data;
              r->cpu = (int) c->cpu;
              r->ref_count = 1;
              r->locked = 0;
              r->priv = NULL;

              record->ts_ns = slim.ts_ns;
              record->offset = slim.offset;
              record->data = slim.data;
              record->size = slim.size;
              record->cpu = c->cpu;
              record->missed_events = slim.missed_events;
              record->tep_record = r;
              return TRUE;
            }
          c->page_loaded = FALSE;
        }
      if (c->at_end || !advance_page (c, TRUE, error))
        return FALSE;
    }
}

/**
 * cs_tracedat_cpu_next_batch:
 * @cpu: a stream
 * @records: (out caller-allocates) (array length=max): where the records go
 * @max: how many records at most, >= 1
 * @error: return location for a #GError
 *
 * Reads up to @max next records, as @max calls of cs_tracedat_cpu_next()
 * would, but without the calls: for a scan of every record.  A batch ends
 * where the stream would load its next window or chunk, so every record's
 * data stays valid until the next call that moves the stream.  Mixing
 * this with cs_tracedat_cpu_next() reads each record once, in order.
 * Each page's event headers are checked in the walk that reads them
 * (scan_page()), and a damaged page gives none of its records, as with
 * cs_tracedat_cpu_next().
 *
 * Errors: as for cs_tracedat_cpu_next().  A batch stops at the first error,
 * and the records read before it are still given: @error may be set with
 * a nonzero result, and the next call goes on after the damage.
 *
 * Thread: the stream's.
 *
 * Returns: how many records were put in @records; 0 at the end of the
 *   CPU's data (@error unset) or on error (@error set)
 */
guint
cs_tracedat_cpu_next_batch (CsTracedatCpu        *cpu,
                            CsTracedatSlimRecord *records,
                            guint                 max,
                            GError              **error)
{
  CsTracedatCpu *c = cpu;
  guint n = 0;

  g_return_val_if_fail (cpu != NULL, 0);
  g_return_val_if_fail (records != NULL, 0);
  g_return_val_if_fail (error == NULL || *error == NULL, 0);

  for (;;)
    {
      if (c->page_loaded)
        {
          /* The walk in a local: the records' 64-bit stores could alias
           * its fields, which would then be read again after each. */
          CsTdPageWalk w = c->walk;
          guint64 page_data_pos = c->block_pos + c->page_off + 8 + c->klong;

          while (n < max && w.curr < w.size)
            take_record (c, &w, page_data_pos, &records[n++]);
          c->walk = w;
          if (n == max)
            return n;
          c->page_loaded = FALSE;
        }
      /* Loading the next block would move the records' data. */
      if (n > 0 && !(c->have_block && c->page_off + c->page_size < c->block_len))
        return n;
      if (c->at_end || !advance_page (c, FALSE, error) || !scan_page (c, records, &n, max, error))
        return n;
    }
}
