/* cs-tracedat-cpu-seek.c: random access to one CPU's records of a
 * trace.dat file: skip to, seek to or read the record at a position the
 * index gives (cs-tracedat-reader.h), for the readers that jump (the
 * event list, plugin passes' feeds, the latency explanation).  The stream
 * and its block are cs-tracedat-cpu.c's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <traceevent/event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-page.h"
#include "cs-tracedat-private.h"
#include "cs-tracedat-cpu-private.h"

/* Compressed data: the chunk holding stream position @pos. */
static gboolean
find_chunk (CsTracedatCpu *c, guint64 pos, guint *index, GError **error)
{
  guint lo = 0, hi;

  for (;;)
    {
      const Chunk *last;

      if (c->chunks->len > 0)
        {
          last = &g_array_index (c->chunks, Chunk, c->chunks->len - 1);
          if (pos < last->stream_pos + last->usize)
            break;
        }
      if (c->chunks->len >= c->n_chunks)
        return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                          _("stream position %" PRIu64 " is past the end of its data"),
                          pos);
      if (!_cs_tracedat_cpu_read_chunk_header (c, error))
        return FALSE;
    }

  hi = c->chunks->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Chunk *ch = &g_array_index (c->chunks, Chunk, mid);

      if (pos < ch->stream_pos)
        hi = mid;
      else if (pos >= ch->stream_pos + ch->usize)
        lo = mid + 1;
      else
        {
          *index = mid;
          return TRUE;
        }
    }
  return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                    _("no chunk holds stream position %" PRIu64), pos);
}

/**
 * cs_tracedat_cpu_skip_to:
 * @cpu: a stream of uncompressed data
 * @data_pos: a byte position in the CPU's data, on a page boundary, at
 *   most the data's size
 * @error: return location for a #GError
 *
 * Positions the stream at the start of the page at @data_pos, so that the
 * next cs_tracedat_cpu_next() returns that page's first record; at the
 * end when @data_pos is the data's size.  For a CPU whose data grows by
 * whole pages from one file to the next (the snapshots of a recording in
 * progress), this reads only the pages a newer file added.
 *
 * Errors: %CS_INDEX_ERROR_UNSUPPORTED for compressed data;
 * %CS_INDEX_ERROR_CORRUPT when @data_pos is past the data or not on a page
 * boundary; what reading the file gives.
 *
 * Thread: the stream's.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
cs_tracedat_cpu_skip_to (CsTracedatCpu  *cpu,
                         guint64         data_pos,
                         GError        **error)
{
  CsTracedatCpu *c = cpu;
  guint64 size;

  g_return_val_if_fail (cpu != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  size = c->data_end - c->data_offset;
  c->at_end = TRUE;
  c->page_loaded = FALSE;
  if (c->compressed)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_UNSUPPORTED,
                      _("cannot go on from a position in compressed data"));
  if (data_pos > size || data_pos % c->page_size != 0)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("cannot go on from byte %" PRIu64 " of data of %" PRIu64
                      " bytes in pages of %u"), data_pos, size, c->page_size);
  c->bytes_done = data_pos;
  if (data_pos == size)
    return TRUE;
  if (!_cs_tracedat_cpu_load_window (c, c->data_offset + data_pos, _cs_tracedat_cpu_window_bytes (c), error))
    return FALSE;
  c->at_end = FALSE;
  return TRUE;
}

/* A read_at stream's window when the records are read in order
 * (cs-tracedat-cpu.c's READ_AT_WINDOW_BYTES otherwise). */
#define IN_ORDER_WINDOW_BYTES (256 * 1024)
/* A read_at stream's record this far from its block or farther is read
 * with its page alone, nearer past it with a window read in order: one
 * pread() of a page costs about what copying 16 KiB does. */
#define SPARSE_JUMP_BYTES (32 * 1024)

/* Makes the block (window or chunk) holding @offset the current one,
 * reading it unless it is already; *@block_kept tells whether it was. */
static gboolean
hold_block (CsTracedatCpu  *c,
            guint64         offset,
            gboolean       *block_kept,
            GError        **error)
{
  *block_kept = TRUE;
  if (c->data_end == c->data_offset)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("no record at offset %" PRIu64 ": the CPU has no data"), offset);

  if (!c->compressed)
    {
      guint64 rel, win;

      if (offset < c->data_offset || offset >= c->data_end)
        return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                          _("offset %" PRIu64 " is outside its data [%" PRIu64
                          ", %" PRIu64 ")"), offset, c->data_offset, c->data_end);
      /* The block in hand holds it (the usual case of a reader going
       * forward: a feed peeks at ~10 records a page): no divisions. */
      if (c->have_block && offset >= c->block_pos && offset < c->block_next)
        return TRUE;
      rel = offset - c->data_offset;
      win = c->data_offset + rel / _cs_tracedat_cpu_window_bytes (c) * _cs_tracedat_cpu_window_bytes (c);
      /* Records read in order just past the block (a span's records read
       * at their offsets): the next window goes on from the block's end,
       * IN_ORDER_WINDOW_BYTES of it, one pread() for many pages. */
      if (c->have_block && offset >= c->block_next &&
          offset - c->block_next < SPARSE_JUMP_BYTES &&
          _cs_tracedat_cpu_window_bytes (c) < IN_ORDER_WINDOW_BYTES)
        {
          *block_kept = FALSE;
          if (!_cs_tracedat_cpu_load_window (c, c->block_next, IN_ORDER_WINDOW_BYTES, error))
            return FALSE;
        }
      else if (c->have_block && offset >= c->block_pos && offset < c->block_next &&
               c->block_len == c->block_next - c->block_pos)
        ;                       /* a window holding it, of whole pages */
      /* A reader jumping far from the block in hand (a rare type's records
       * across a span: the interrupts of a long wait, a typed SQL table)
       * wants this record and likely none near it: its page alone, not a
       * window of which it would use one page.  The interrupts over the
       * large benchmark recording's worst wakeup were read in ~1,600 windows
       * of 32 KiB and ~150 of 256 KiB, 91 MB copied for ~4,000 records. */
      else if (c->have_block && _cs_tracedat_cpu_window_bytes (c) < IN_ORDER_WINDOW_BYTES &&
               (offset >= c->block_next + SPARSE_JUMP_BYTES ||
                offset + SPARSE_JUMP_BYTES <= c->block_pos))
        {
          guint64 page = c->data_offset + rel / c->page_size * c->page_size;

          *block_kept = FALSE;
          if (!_cs_tracedat_cpu_load_window (c, page, c->page_size, error))
            return FALSE;
        }
      /* (A stream's first window is shorter than the others.) */
      else if (!c->have_block || c->block_pos != win ||
          c->block_next - c->block_pos < MIN ((guint64) _cs_tracedat_cpu_window_bytes (c), c->data_end - win))
        {
          *block_kept = FALSE;
          if (!_cs_tracedat_cpu_load_window (c, win, _cs_tracedat_cpu_window_bytes (c), error))
            return FALSE;
        }
    }
  else
    {
      guint i = 0;

      if (!c->have_block || c->block_len == 0 || offset < c->block_pos || offset >= c->block_next)
        {
          *block_kept = FALSE;
          if (!find_chunk (c, offset, &i, error) || !_cs_tracedat_cpu_load_chunk (c, i, error))
            {
              c->at_end = TRUE;
              return FALSE;
            }
        }
    }

  return TRUE;
}

/* Holds the block of record position @offset and puts the stream at the
 * start of its page, not yet loaded: *@in_page is @offset's place in that
 * page, *@block_kept whether the block was held already (see
 * hold_block()).  What cs_tracedat_cpu_seek() and _peek_at() share. */
static gboolean
enter_page (CsTracedatCpu  *c,
            guint64         offset,
            gboolean       *block_kept,
            gsize          *in_page,
            GError        **error)
{
  guint64 page_pos;

  c->at_end = TRUE;
  c->page_loaded = FALSE;
  if (!hold_block (c, offset, block_kept, error))
    return FALSE;
  /* The same page as the last record's: no division. */
  if (*block_kept && c->page_started && offset >= c->block_pos + c->page_off &&
      offset - (c->block_pos + c->page_off) < c->page_size)
    {
      *in_page = (gsize) (offset - (c->block_pos + c->page_off));
      return TRUE;
    }
  page_pos = c->block_pos + (offset - c->block_pos) / c->page_size * c->page_size;
  *in_page = (gsize) (offset - page_pos);
  c->page_off = (gsize) (page_pos - c->block_pos);
  c->page_started = TRUE;
  return TRUE;
}

/**
 * cs_tracedat_cpu_seek:
 * @cpu: a stream
 * @offset: the #CsTracedatRecord.offset of a record read earlier from this CPU
 *   of this file (by any stream or by cs_tracedat_reader_read_at())
 * @error: return location for a #GError
 *
 * Positions the stream so that the next cs_tracedat_cpu_next() returns the
 * record at @offset and then the records after it.  Seeking within the block
 * in memory (the current chunk, or window of pages) costs no I/O; otherwise
 * one chunk is decompressed (compressed data: chunk headers up to @offset
 * are read once to find it) or one window is read.  Timestamps are right
 * after a seek: they are recomputed from the start of the record's page.
 *
 * Errors: %CS_INDEX_ERROR_CORRUPT when no record of the CPU starts at
 * @offset, or the data there is damaged; %CS_INDEX_ERROR_TRUNCATED when the
 * data ends early.  After an error the stream is at its end until the next
 * successful seek.
 *
 * Thread: the stream's.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
cs_tracedat_cpu_seek (CsTracedatCpu  *cpu,
                      guint64         offset,
                      GError        **error)
{
  CsTracedatCpu *c = cpu;
  gsize in_page;
  /* Where the last read left the walk: a seek forward on that page (the
   * records of a query read in offset order) goes on walking from there
   * instead of checking and walking the page again from its start. */
  gboolean was_loaded, block_kept;
  gsize was_page_off;

  g_return_val_if_fail (cpu != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  was_loaded = c->page_loaded && c->have_block;
  was_page_off = c->page_off;
  if (!enter_page (c, offset, &block_kept, &in_page, error))
    return FALSE;
  if (block_kept && was_loaded && c->page_off == was_page_off &&
      c->walk.curr < c->walk.size && 8 + c->klong + c->walk.curr <= in_page)
    c->page_loaded = TRUE;      /* checked already; walk on from here */
  else if (c->page_off >= c->block_len || !_cs_tracedat_cpu_load_page (c, error))
    {
      c->page_loaded = FALSE;
      if (error != NULL && *error == NULL)
        _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                   _("no page holds offset %" PRIu64), offset);
      return FALSE;
    }

  for (;;)
    {
      gsize cur;

      if (c->walk.curr >= c->walk.size)
        break;
      cur = 8 + c->klong + c->walk.curr;
      if (cur == in_page)
        {
          c->at_end = FALSE;
          return TRUE;
        }
      if (cur > in_page)
        break;
      cs_td_page_walk_next (c->be, &c->walk);
    }

  c->page_loaded = FALSE;
  return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                    _("no record starts at %s %" PRIu64),
                    c->compressed ? _("stream position") : _("offset"), offset);
}

/**
 * cs_tracedat_cpu_peek_at:
 * @cpu: a stream
 * @offset: the #CsTracedatRecord.offset of a record of this CPU of this
 *   file, as an index built from the file holds it
 * @ts_ns: the record's time (ns, trace clock), as that index holds it
 * @record: (out caller-allocates): the record, with @ts_ns as its time
 *   (#CsTracedatRecord.raw_ts is 0); borrows the stream's memory until the
 *   next call on it
 * @error: return location for a #GError
 *
 * Reads the record at @offset without walking its page's records up to
 * it: the page is loaded and its commit size checked (once for all the
 * records read from it in turn; not each event header, as
 * cs_tracedat_cpu_seek() checks them), then only the event header at
 * @offset is decoded, and the record is refused unless it lies whole in
 * the page's committed data.  Its time cannot be known without the walk (the
 * headers hold deltas): the caller gives it.  For readers that take
 * offsets and times from the index (a plugin pass's feed), where the walk
 * was most of the cost of reading a few types of a recording's events.
 * The stream is then at its end until the next cs_tracedat_cpu_seek().
 *
 * An offset that is not a record's gives that error, or the bytes of a
 * record the offset points into (never bytes outside its page's committed
 * data).
 *
 * Errors: %CS_INDEX_ERROR_CORRUPT when @offset is outside the CPU's data,
 * on no event of its page, or on one that is not a data event;
 * %CS_INDEX_ERROR_TRUNCATED when the data ends early.
 *
 * Thread: the stream's.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
gboolean
cs_tracedat_cpu_peek_at (CsTracedatCpu     *cpu,
                         guint64            offset,
                         gint64             ts_ns,
                         CsTracedatRecord  *record,
                         GError           **error)
{
  CsTracedatCpu *c = cpu;
  gboolean was_checked, block_kept;
  gsize was_page_off, in_page, head = 8 + c->klong;
  CsTdPageWalk w;
  struct tep_record *r = &c->record;
  guint32 type_len;

  g_return_val_if_fail (cpu != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  was_checked = c->page_checked && c->have_block;
  was_page_off = c->page_off;
  if (!enter_page (c, offset, &block_kept, &in_page, error))
    return FALSE;
  if (!(block_kept && was_checked && c->page_off == was_page_off))
    {
      if (c->page_off >= c->block_len || !_cs_tracedat_cpu_load_page_to_peek (c, error))
        {
          c->page_checked = FALSE;
          if (error != NULL && *error == NULL)
            _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                       _("no page holds offset %" PRIu64), offset);
          return FALSE;
        }
    }

  /* Only the page's commit size is checked: decode the one header, and
   * refuse a record that does not lie whole in the committed data. */
  w = c->walk;
  if (in_page < head || in_page - head >= w.size)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("no record starts at %s %" PRIu64),
                      c->compressed ? _("stream position") : _("offset"), offset);
  w.curr = (guint32) (in_page - head);
  type_len = cs_td_page_walk_decode (c->be, &w);
  if (type_len >= CS_TD_RB_TYPE_PADDING || w.next > w.size || w.next < w.index)
    return _cs_tracedat_cpu_error (c, error, CS_INDEX_ERROR_CORRUPT,
                      _("no record starts at %s %" PRIu64),
                      c->compressed ? _("stream position") : _("offset"), offset);

  r->ts = (unsigned long long) ts_ns;
  r->offset = offset;
  r->missed_events = w.curr == 0 ? (int) w.lost_events : 0;
  r->record_size = w.next - w.curr;
  r->size = (int) (w.next - w.index);
  r->data = (void *) (w.data + w.index);
  r->cpu = (int) c->cpu;
  r->ref_count = 1;
  r->locked = 0;
  r->priv = NULL;

  record->raw_ts = 0;
  record->ts_ns = ts_ns;
  record->offset = offset;
  record->data = r->data;
  record->size = (guint) r->size;
  record->cpu = c->cpu;
  record->missed_events = r->missed_events;
  record->tep_record = r;
  return TRUE;
}
