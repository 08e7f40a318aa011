/* cs-scan-chunk.c: CsScanChunk, what a CPU's scan (cs-cpu-scanner.c)
 * hands on, and the columns of its rows until they are encoded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-cpu-scan-private.h"

/* Event and slice chunks' columns go back and forth between a scanner
 * and the encoder: freed on one thread and allocated on the other, glibc
 * gave their pages back to the kernel and took them again, zeroed (~5 %
 * of indexing in page faults).  Up to SPARE_COLUMNS of each size wait
 * here for the next chunk instead. */
#define SPARE_COLUMNS 32

static GMutex spare_lock;
static gint64 *spare_events[SPARE_COLUMNS];
static gint64 *spare_slices[SPARE_COLUMNS];
static guint n_spare_events, n_spare_slices;

/* The spare blocks for chunks of @n_columns x @stride values, if kept. */
static gint64 **
spare_list (guint   n_columns,
            guint   stride,
            guint **n_spare)
{
  if (n_columns == EV_N_COLUMNS && stride == CS_EVENT_CHUNK_ROWS)
    {
      *n_spare = &n_spare_events;
      return spare_events;
    }
  if (n_columns == SL_N_COLUMNS && stride == CS_SLICE_CHUNK_ROWS)
    {
      *n_spare = &n_spare_slices;
      return spare_slices;
    }
  return NULL;
}

/*
 * _cs_scan_chunk_take_rows:
 * @kind: the chunk's table
 * @cpu: its CPU
 * @chunk: its number among the CPU's chunks of @kind
 * @first_ns: its first time, @last_ns: its last (or its last slice's end)
 * @n_rows: rows in @columns
 * @columns: (transfer full): the scan's columns (_cs_scan_columns_new()
 *   with @n_columns, @stride): the scan goes on in new ones
 * @modes: the columns' forms (cs_chunk_encode())
 *
 * A chunk of a scan's rows, to encode where it goes (CsScanChunk.raw).
 *
 * Returns: (transfer full): the chunk, for the scan's emit function
 */
CsScanChunk *
_cs_scan_chunk_take_rows (CsScanChunkKind           kind,
                          guint                     cpu,
                          guint64                   chunk,
                          gint64                    first_ns,
                          gint64                    last_ns,
                          guint                     n_rows,
                          gint64                   *columns,
                          guint                     n_columns,
                          guint                     stride,
                          const CsChunkColumnMode  *modes)
{
  CsScanChunk *c = g_new0 (CsScanChunk, 1);

  c->kind = kind;
  c->cpu = cpu;
  c->chunk = chunk;
  c->first_ns = first_ns;
  c->last_ns = last_ns;
  c->n_rows = n_rows;
  c->raw = columns;
  c->raw_stride = stride;
  c->n_columns = n_columns;
  c->modes = modes;
  return c;
}

/*
 * _cs_scan_columns_new:
 * @n_columns: columns of a chunk
 * @stride: values a column has room for
 *
 * Room for one chunk's columns (n_columns x stride gint64, column c
 * from c x stride): the scan fills them, a full chunk takes them
 * (CsScanChunk.raw).  Any thread.
 *
 * Returns: (transfer full): the block, for _cs_scan_columns_free()
 */
gint64 *
_cs_scan_columns_new (guint n_columns,
                      guint stride)
{
  guint *n_spare;
  gint64 **list = spare_list (n_columns, stride, &n_spare);
  gint64 *block = NULL;

  if (list != NULL)
    {
      g_mutex_lock (&spare_lock);
      if (*n_spare > 0)
        block = list[--*n_spare];
      g_mutex_unlock (&spare_lock);
    }
  return block != NULL ? block : g_new (gint64, (gsize) n_columns * stride);
}

/*
 * _cs_scan_columns_free:
 * @block: (transfer full) (nullable): from _cs_scan_columns_new() with
 *   the same @n_columns and @stride
 *
 * Frees @block, or keeps it for the next chunk.  Any thread.
 */
void
_cs_scan_columns_free (gint64 *block,
                       guint   n_columns,
                       guint   stride)
{
  guint *n_spare;
  gint64 **list = spare_list (n_columns, stride, &n_spare);

  if (block == NULL)
    return;
  if (list != NULL)
    {
      g_mutex_lock (&spare_lock);
      if (*n_spare < SPARE_COLUMNS)
        {
          list[(*n_spare)++] = block;
          block = NULL;
        }
      g_mutex_unlock (&spare_lock);
    }
  g_free (block);
}

/**
 * cs_scan_chunk_free:
 * @chunk: (transfer full): a chunk from a scanner
 *
 * Frees @chunk, its data and its rows not yet encoded.
 */
void
cs_scan_chunk_free (CsScanChunk *chunk)
{
  g_clear_pointer (&chunk->data, g_bytes_unref);
  _cs_scan_columns_free (chunk->raw, chunk->n_columns, chunk->raw_stride);
  g_free (chunk);
}

/**
 * cs_scan_chunk_encode:
 * @chunk: a chunk from a scanner
 *
 * Encodes @chunk's rows (CsScanChunk.raw) into its data and frees them;
 * does nothing to a chunk encoded already or without rows.  Callable from
 * any thread; its CPU time is the ENCODE step's.
 */
void
cs_scan_chunk_encode (CsScanChunk *chunk)
{
  const gint64 *cols[CS_CHUNK_MAX_COLUMNS];

  if (chunk->raw == NULL)
    return;
  g_assert (chunk->n_columns <= CS_CHUNK_MAX_COLUMNS);
  for (guint c = 0; c < chunk->n_columns; c++)
    cols[c] = chunk->raw + (gsize) c * chunk->raw_stride;
  g_clear_pointer (&chunk->data, g_bytes_unref);
  chunk->data = cs_chunk_encode (chunk->n_rows, chunk->n_columns, chunk->modes, cols,
                                 chunk->compress);
  _cs_scan_columns_free (g_steal_pointer (&chunk->raw), chunk->n_columns, chunk->raw_stride);
}

/*
 * _cs_cpu_scan_emit_rows:
 * @st: a scan
 * @kind: the chunk's table
 * @n_chunks: the CPU's chunks of @kind so far (the new one's number; counted)
 * @first_ns: the chunk's first time, @last_ns: its last (or its last
 *   slice's end)
 * @n_rows: rows gathered in *@columns (1 or more; set to 0)
 * @columns: the scan's columns of @kind (_cs_scan_columns_new() with
 *   @n_columns, @stride): handed on with the chunk, and replaced by new ones
 * @modes: the columns' forms (cs_chunk_encode())
 *
 * Hands the rows a scan gathered of one kind on as a chunk, and goes on
 * in new columns.
 */
void
_cs_cpu_scan_emit_rows (ScanState               *st,
                        CsScanChunkKind          kind,
                        guint64                 *n_chunks,
                        gint64                   first_ns,
                        gint64                   last_ns,
                        guint                   *n_rows,
                        gpointer                *columns,
                        guint                    n_columns,
                        guint                    stride,
                        const CsChunkColumnMode *modes)
{
  CsScanChunk *chunk = _cs_scan_chunk_take_rows (kind, st->result->cpu, (*n_chunks)++, first_ns,
                                                 last_ns, *n_rows, *columns, n_columns, stride,
                                                 modes);

  *columns = _cs_scan_columns_new (n_columns, stride);
  *n_rows = 0;
  st->emit (chunk, st->emit_data);
}

/* CsSummaryStoreFunc: summary blocks travel to the writer like chunks. */
gboolean
_cs_scan_emit_summary_block (gpointer   user_data,
                             guint      cpu,
                             guint      level,
                             gint64     block,
                             GBytes    *blob,
                             GError   **error)
{
  ScanState *st = user_data;
  CsScanChunk *chunk = g_new0 (CsScanChunk, 1);

  chunk->kind = CS_SCAN_SUMMARY_CHUNK;
  chunk->cpu = cpu;
  chunk->level = level;
  chunk->chunk = block;
  chunk->data = blob;
  st->emit (chunk, st->emit_data);
  return TRUE;
}

/* CsSummaryRunFunc: so do runs. */
gboolean
_cs_scan_emit_summary_run (gpointer   user_data,
                           guint      cpu,
                           gint64     begin_ns,
                           gint64     end_ns,
                           gint32     pid,
                           GError   **error)
{
  ScanState *st = user_data;
  const CsScanChunk run = {
    .kind = CS_SCAN_SUMMARY_RUN, .cpu = cpu, .pid = pid, .first_ns = begin_ns, .last_ns = end_ns,
  };

  st->emit (g_memdup2 (&run, sizeof run), st->emit_data);
  return TRUE;
}
