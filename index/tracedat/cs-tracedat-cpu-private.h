/* cs-tracedat-cpu-private.h: CsTracedatCpu's instance, shared by its
 * files: cs-tracedat-cpu.c (reading a CPU's pages),
 * cs-tracedat-cpu-ahead.c (decompressing chunks ahead on another thread)
 * and cs-tracedat-estimate.c (guessing its records from a few of them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-tracedat-page.h"
#include "cs-tracedat-private.h"

G_BEGIN_DECLS

/* Bytes of chunk headers read at once (compressed data). */
#define HEADER_READAHEAD (256 * 1024)

typedef struct {
  guint64 file_pos;     /* file offset of the chunk's 8-byte header */
  guint64 stream_pos;   /* position of its first byte in the decompressed stream */
  guint32 csize;
  guint32 usize;
} Chunk;

/* Compressed bytes of the file read ahead by one pread(): the headers and
 * data of the next chunks (trace-cmd writes chunks of ~4 KB compressed,
 * so a window of 256 KiB holds about 60 of them). */
typedef struct {
  guint8 *buf;
  gsize alloc;
  guint64 pos;          /* file offset of buf[0] */
  gsize len;            /* bytes of the file in buf */
} CsTdInWindow;

typedef struct _CsTdReadAhead CsTdReadAhead;

struct _CsTracedatCpu {
  CsTracedatReader *reader;
  gboolean owns_reader_ref;
  guint cpu;
  gsize window_bytes;    /* of uncompressed data: WINDOW_BYTES or READ_AT_WINDOW_BYTES */

  /* copied from the reader */
  guint page_size;
  gboolean be;
  guint klong;
  gboolean compressed;
  guint64 data_offset;
  guint64 data_end;
  gboolean tsc2nsec;
  guint32 mult;
  guint32 shift;
  guint64 ts_offset;

  /* the block in memory: positions [block_pos, block_next), padded with
   * zeroes to block_len (a whole number of pages) plus CS_TD_PAGE_SLACK */
  guint8 *block;
  gsize block_alloc;
  gsize block_len;
  guint64 block_pos;
  guint64 block_next;
  gboolean have_block;
  guint32 block_chunk;

  /* compressed data */
  guint32 n_chunks;
  GArray *chunks;       /* Chunk: the first chunks->len chunk headers */
  guint8 *hdr_buf;      /* when set, chunk headers are read through it */
  guint64 hdr_pos;
  gsize hdr_len;
  CsTdInWindow in;      /* compressed bytes being read */
  CsTdReadAhead *ahead; /* when chunks are decompressed ahead, or NULL */
  ZSTD_DCtx *zstd;
  z_stream zs;
  gboolean zs_ready;

  /* the current page */
  gsize page_off;
  gboolean page_started;  /* page_off names a page of this block already used */
  gboolean page_loaded;   /* walk is in the page at page_off */
  gboolean page_checked;  /* the page at page_off was checked, at least its
                           * commit size; walk.data and walk.size are its
                           * (cs_tracedat_cpu_peek_at()) */
  gboolean at_end;
  guint64 bytes_done;

  CsTdPageFormat page_format;  /* page_size, be and klong again, for the walk */
  CsTdPageWalk walk;
  struct tep_record record;
  struct tep_handle *tep;
};

/* A record's time in ns: converted by TSC2NSEC when the file asks, plus
 * the file's offset. */
static inline guint64
_cs_tracedat_cpu_ts_calc (CsTracedatCpu *c, guint64 ts)
{
  if (c->tsc2nsec)
    ts = _cs_td_mul_u64_u32_shr (ts, c->mult, c->shift);
  return ts + c->ts_offset;
}

gboolean _cs_tracedat_cpu_read_chunk_header (CsTracedatCpu  *c,
                                             GError        **error);
gboolean _cs_tracedat_cpu_parse_chunk_header (CsTracedatCpu  *c,
                                              guint           i,
                                              guint64         file_pos,
                                              guint64         stream_pos,
                                              const guint8   *header,
                                              Chunk          *ch,
                                              GError        **error);
const guint8 *_cs_tracedat_cpu_in_get       (CsTracedatCpu  *c,
                                             CsTdInWindow   *w,
                                             guint64         pos,
                                             gsize           len,
                                             const char     *what,
                                             GError        **error);
void     _cs_tracedat_cpu_next_chunk_pos    (CsTracedatCpu  *c,
                                             guint           i,
                                             guint64        *file_pos,
                                             guint64        *stream_pos);

CsTdReadAhead *_cs_td_read_ahead_new     (CsTracedatCpu      *c,
                                          CsTracedatIdleFunc  idle_core,
                                          gpointer            user_data);
void           _cs_td_read_ahead_free    (CsTdReadAhead      *ra);
gboolean       _cs_td_read_ahead_take    (CsTdReadAhead      *ra,
                                          guint               i,
                                          guint8            **block,
                                          gsize              *block_alloc,
                                          Chunk              *ch);
void           _cs_td_read_ahead_claimed (CsTdReadAhead      *ra,
                                          guint               i);

/* cs-tracedat-cpu.c's stream, for cs-tracedat-cpu-seek.c's random access:
 * an error naming the file and CPU (always FALSE), the window's size, the
 * block at a file position (uncompressed data) or of chunk @i, the page at
 * the stream's position, and the next page. */
gboolean _cs_tracedat_cpu_error          (CsTracedatCpu  *c,
                                          GError        **error,
                                          gint            code,
                                          const char     *fmt,
                                          ...) G_GNUC_PRINTF (4, 5);
gsize    _cs_tracedat_cpu_window_bytes   (CsTracedatCpu  *c);
gboolean _cs_tracedat_cpu_load_window    (CsTracedatCpu  *c,
                                          guint64         pos,
                                          gsize           max_len,
                                          GError        **error);
gboolean _cs_tracedat_cpu_load_chunk     (CsTracedatCpu  *c,
                                          guint           i,
                                          GError        **error);
gboolean _cs_tracedat_cpu_load_page      (CsTracedatCpu  *c,
                                          GError        **error);
gboolean _cs_tracedat_cpu_load_page_to_peek (CsTracedatCpu  *c,
                                             GError        **error);

G_END_DECLS
