/* cs-chunk-codec.h: columnar, delta-encoded blobs of index rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index stores events (and sched_switch slices, and summary buckets) in
 * chunks of a few thousand rows instead of one SQLite row each: one row per
 * event costs ~26 bytes and caps inserts near 1.75 M rows/s (DESIGN.md,
 * TARGETS), while a chunk costs a few bytes per event.
 *
 * A chunk has up to CS_CHUNK_MAX_COLUMNS columns of gint64 values.  Each
 * column is written as zigzag varints, either of the values themselves or of
 * their differences to the previous row (the caller chooses per column).
 * The encoded bytes may then be compressed with zstd when that pays.
 *
 * Records (cs_chunk_encode_records()) are the row-major twin, for numbers
 * that come sorted: each number of a record is the zigzag varint of its
 * difference to the same number of the record before (the first record's
 * from 0), record after record, with no header.  The plugins' result
 * tables (index/plugin/cs-plugin-result-*.c) store their rows, sorted
 * orders and the runs of their external sorts this way.
 */
#pragma once

#include <glib.h>

#include "cs-index-error.h"

G_BEGIN_DECLS

#define CS_CHUNK_MAX_COLUMNS 8

/**
 * CsChunkColumnMode:
 * @CS_CHUNK_PLAIN: store the value
 * @CS_CHUNK_DELTA: store the difference to the previous row's value (the
 *   first row's difference is to 0)
 */
typedef enum {
  CS_CHUNK_PLAIN,
  CS_CHUNK_DELTA,
} CsChunkColumnMode;

GBytes   *cs_chunk_encode (guint                    n_rows,
                           guint                    n_columns,
                           const CsChunkColumnMode *modes,
                           const gint64 * const    *columns,
                           gboolean                 compress);
gboolean  cs_chunk_decode (const guint8            *data,
                           gsize                    size,
                           guint                    n_rows,
                           guint                    n_columns,
                           const CsChunkColumnMode *modes,
                           gint64 * const          *columns,
                           GError                 **error);

gboolean  cs_chunk_decode_columns (const guint8            *data,
                                   gsize                    size,
                                   guint                    n_rows,
                                   guint                    n_columns,
                                   guint                    n_wanted,
                                   const CsChunkColumnMode *modes,
                                   gint64 * const          *columns,
                                   guint                    n_first,
                                   GError                 **error);

/* The most distinct values cs_chunk_peek_values() gives. */
#define CS_CHUNK_PEEK_MAX 256

gboolean  cs_chunk_peek_values (const guint8 *data,
                                gsize         size,
                                guint         n_rows,
                                guint         column,
                                gint64       *values,
                                guint        *n_values);

/* The largest varint is 10 bytes (64 bits in groups of 7). */
#define CS_CHUNK_VARINT_MAX_BYTES 10
/* Numbers per record of cs_chunk_encode_records(). */
#define CS_CHUNK_MAX_RECORD_FIELDS 8

gsize  cs_chunk_encode_records         (const gint64 *values,
                                        gsize         n_records,
                                        guint         n_fields,
                                        guint8       *out);
gsize  cs_chunk_encode_records_strided (const gint64 *values,
                                        gsize         n_records,
                                        guint         n_fields,
                                        guint         stride,
                                        guint8       *out);
gssize cs_chunk_decode_records         (const guint8 *in,
                                        gsize         len,
                                        gsize         max_records,
                                        guint         n_fields,
                                        gint64       *values);

G_END_DECLS
