/* cs-tracedat-estimate.c: cs_tracedat_cpu_estimate(), a CPU's records
 * guessed from pages spread over its data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index builder sizes its summaries' grid before the scan from this
 * guess (cs-index-builder.c); the pages are read as cs-tracedat-cpu.c
 * reads them, and checked the same way.
 */
#include <traceevent/event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-cpu-private.h"

/* The pages of one block of @len bytes at @buf: records counted into
 * *@n_records / *@n_pages, and the header times of its first and last
 * pages that hold data. */
static void
survey_block (CsTracedatCpu *c, const guint8 *buf, gsize len, guint64 *n_records,
              guint64 *n_pages, gint64 *first_ts, gint64 *last_ts)
{
  for (gsize off = 0; off + c->page_size <= len; off += c->page_size)
    {
      guint n, committed;

      if (cs_td_page_check (&c->page_format, buf + off, &n, &committed, NULL, NULL) != CS_TD_PAGE_OK)
        continue;
      *n_records += n;
      (*n_pages)++;
      if (committed > 0)
        {
          gint64 ts = (gint64) _cs_tracedat_cpu_ts_calc (c, _cs_td_u64 (c->be, buf + off));

          if (*first_ts == G_MAXINT64)
            *first_ts = ts;
          *last_ts = ts;
        }
    }
}

/**
 * cs_tracedat_cpu_estimate:
 * @cpu: a stream, not yet read from
 * @n_samples: how many places of the CPU's data to look at (pages of
 *   uncompressed data, chunks of compressed data), >= 2; the first and the
 *   last are always among them
 * @n_records: (out): about how many records the CPU holds
 * @first_ns: (out): the time of its first page (ring-buffer page header;
 *   its records are at or after it)
 * @last_ns: (out): the time of its last page that holds data (its last
 *   records are a page's worth of time after it, at most)
 *
 * Guesses the size and time span of one CPU's data without reading it all:
 * it counts the records of @n_samples pages or chunks spread evenly over
 * the data and extrapolates to all its pages.  Compressed data also needs
 * every chunk's 8-byte header.  Leaves the stream where it was.
 *
 * Thread: the stream's.
 *
 * Returns: %FALSE when it cannot tell (no data, unreadable samples)
 */
gboolean
cs_tracedat_cpu_estimate (CsTracedatCpu *cpu,
                          guint          n_samples,
                          guint64       *n_records,
                          gint64        *first_ns,
                          gint64        *last_ns)
{
  CsTracedatCpu *c = cpu;
  guint64 seen_records = 0, seen_pages = 0, total_pages = 0, n_places;
  gint64 first = G_MAXINT64, last = G_MININT64;
  g_autofree guint8 *buf = NULL;
  g_autofree guint8 *in = NULL;

  g_return_val_if_fail (cpu != NULL, FALSE);

  n_samples = MAX (n_samples, 2);
  if (c->data_end <= c->data_offset || c->page_size < 16)
    return FALSE;

  if (!c->compressed)
    {
      n_places = total_pages = (c->data_end - c->data_offset) / c->page_size;
      buf = g_malloc (c->page_size);
    }
  else
    {
      /* Every chunk header, as a full read would (they are kept), read
       * ahead: one pread() each cost ~0.2 s for the large bench recording. */
      gboolean ok = TRUE;

      c->hdr_buf = g_malloc (HEADER_READAHEAD);
      c->hdr_len = 0;
      while (ok && c->chunks->len < c->n_chunks)
        ok = _cs_tracedat_cpu_read_chunk_header (c, NULL);
      g_clear_pointer (&c->hdr_buf, g_free);
      if (!ok)
        return FALSE;
      n_places = c->n_chunks;
      for (guint i = 0; i < c->n_chunks; i++)
        total_pages += g_array_index (c->chunks, Chunk, i).usize / c->page_size;
    }
  if (n_places == 0 || total_pages == 0)
    return FALSE;

  for (guint k = 0; k < n_samples; k++)
    {
      guint64 place = n_places == 1 ? 0 : (guint64) k * (n_places - 1) / (n_samples - 1);

      if (k > 0 && place == (guint64) (k - 1) * (n_places - 1) / (n_samples - 1))
        continue;
      if (!c->compressed)
        {
          if (!_cs_td_pread_exact (c->reader, buf, c->page_size,
                                   c->data_offset + place * c->page_size, "a page", NULL))
            continue;
          survey_block (c, buf, c->page_size, &seen_records, &seen_pages, &first, &last);
        }
      else
        {
          const Chunk *ch = &g_array_index (c->chunks, Chunk, place);

          if (ch->usize < c->page_size)
            continue;
          in = g_realloc (in, MAX (ch->csize, 1));
          buf = g_realloc (buf, ch->usize);
          if (!_cs_td_pread_exact (c->reader, in, ch->csize, ch->file_pos + 8, "chunk", NULL) ||
              !_cs_td_decompress (c->reader, c->zstd, c->zs_ready ? &c->zs : NULL, in, ch->csize,
                                  buf, ch->usize, "chunk", ch->file_pos, NULL))
            continue;
          survey_block (c, buf, ch->usize, &seen_records, &seen_pages, &first, &last);
        }
    }
  if (seen_pages == 0 || first == G_MAXINT64)
    return FALSE;
  *n_records = (guint64) ((double) seen_records / seen_pages * total_pages + 0.5);
  *first_ns = first;
  *last_ns = last;
  return TRUE;
}
