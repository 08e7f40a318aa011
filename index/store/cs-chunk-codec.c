/* cs-chunk-codec.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout of a blob: one byte of format, then
 *
 *   2  columns: the row count (varint), then each column in the cheapest
 *      of varints, patched bit packing or a dictionary, with its size
 *      (cs-chunk-column.c);
 *   3  the same, zstd-compressed: the decoded size as a varint, then the
 *      zstd frame;
 *   0  varints, column after column (indexes of schema 5 and before);
 *   1  the same, zstd-compressed.
 *
 * Each column holds the zigzag of its values, or of their differences to
 * the row before (CS_CHUNK_DELTA), so that similar numbers sit together
 * and small ones take few bits.
 */
#include "config.h"

#include <zstd.h>
#include <glib/gi18n-lib.h>

#include "cs-chunk-codec.h"
#include "cs-chunk-column.h"
#include "cs-index-steps.h"

enum {
  FORMAT_VARINTS = 0,
  FORMAT_ZSTD = 1,
  FORMAT_COLUMNS = 2,
  FORMAT_ZSTD_COLUMNS = 3,
};

#define MAX_VARINT_BYTES CS_CHUNK_MAX_VARINT_BYTES
#define zigzag _cs_chunk_zigzag
#define unzigzag _cs_chunk_unzigzag
#define put_varint _cs_chunk_put_varint
#define get_varint _cs_chunk_get_varint

static void
free_cctx (gpointer cctx)
{
  ZSTD_freeCCtx (cctx);
}

/* ZSTD_compress() sets up a context of its own on every call. */
static ZSTD_CCtx *
thread_cctx (void)
{
  static GPrivate cctx_key = G_PRIVATE_INIT (free_cctx);
  ZSTD_CCtx *cctx = g_private_get (&cctx_key);

  if (cctx == NULL)
    {
      cctx = ZSTD_createCCtx ();
      if (cctx == NULL)
        g_error ("ZSTD_createCCtx: out of memory");
      g_private_set (&cctx_key, cctx);
    }
  return cctx;
}

/**
 * cs_chunk_encode:
 * @n_rows: rows in the chunk, >= 1
 * @n_columns: 1 .. %CS_CHUNK_MAX_COLUMNS
 * @modes: (array length=n_columns): how each column is stored
 * @columns: (array length=n_columns): @n_rows values per column
 * @compress: also compress with zstd when that makes the blob smaller
 *
 * Encodes rows into a blob for the index.  Pure computation, callable from
 * any thread.
 *
 * Returns: (transfer full): the blob
 */
/* Chunks of this many kinds (event, slice, task, summary, ...: their
 * tables of modes) keep their columns' hints on a thread. */
#define N_HINTS 8

/* What an encoding thread keeps between chunks: the blob, one column's
 * numbers, the dictionary's scratch, and per kind of chunk (told by its
 * table of modes) whether each column weighed a dictionary last time
 * (_cs_chunk_column_encode()'s hint). */
typedef struct {
  guint8 *buf;
  gsize buf_size;
  guint64 *values;
  guint64 *scratch;
  guint n_values;
  CsChunkDict dict;
  const CsChunkColumnMode *hint_modes[N_HINTS];
  gboolean hints[N_HINTS][CS_CHUNK_MAX_COLUMNS];
  guint next_hint;
} Scratch;

/* The hints of chunks of @modes: the kind's own, or those of the kind
 * seen longest ago, reset. */
static gboolean *
thread_hints (Scratch                 *s,
              const CsChunkColumnMode *modes)
{
  guint h;

  for (h = 0; h < N_HINTS; h++)
    if (s->hint_modes[h] == modes)
      return s->hints[h];
  h = s->next_hint;
  s->next_hint = (h + 1) % N_HINTS;
  s->hint_modes[h] = modes;
  for (guint c = 0; c < CS_CHUNK_MAX_COLUMNS; c++)
    s->hints[h][c] = TRUE;
  return s->hints[h];
}

static void
scratch_free (gpointer data)
{
  Scratch *s = data;

  g_free (s->buf);
  g_free (s->values);
  g_free (s->scratch);
  g_free (s);
}

/* The worst case is many times the usual size: encode into buffers of this
 * thread and copy out what it took, rather than allocating the worst case
 * and shrinking it for every chunk (a profile showed malloc's bookkeeping
 * for that as a few per cent of indexing). */
static Scratch *
thread_scratch (gsize buf_size,
                guint n_values)
{
  static GPrivate key = G_PRIVATE_INIT (scratch_free);
  Scratch *s = g_private_get (&key);

  if (s == NULL)
    {
      s = g_new0 (Scratch, 1);
      g_private_set (&key, s);
    }
  if (s->buf_size < buf_size)
    {
      g_free (s->buf);
      s->buf = g_malloc (buf_size);
      s->buf_size = buf_size;
    }
  if (s->n_values < n_values)
    {
      g_free (s->values);
      g_free (s->scratch);
      s->values = g_new (guint64, n_values);
      s->scratch = g_new (guint64, n_values);
      s->n_values = n_values;
    }
  return s;
}

/**
 * cs_chunk_encode:
 * @n_rows: rows in the chunk, >= 1
 * @n_columns: 1 .. %CS_CHUNK_MAX_COLUMNS
 * @modes: (array length=n_columns): how each column is stored
 * @columns: (array length=n_columns): @n_rows values per column
 * @compress: also compress with zstd when that makes the blob smaller
 *
 * Encodes rows into a blob for the index.  Pure computation, callable from
 * any thread; its CPU time is the ENCODE step's (cs-index-steps.c).
 *
 * Returns: (transfer full): the blob
 */
GBytes *
cs_chunk_encode (guint                    n_rows,
                 guint                    n_columns,
                 const CsChunkColumnMode *modes,
                 const gint64 * const    *columns,
                 gboolean                 compress)
{
  Scratch *s;
  guint8 *buf, *p;
  gboolean *hints;
  GBytes *blob = NULL;

  g_return_val_if_fail (n_rows >= 1, NULL);
  g_return_val_if_fail (n_columns >= 1 && n_columns <= CS_CHUNK_MAX_COLUMNS, NULL);

  cs_index_step_enter (CS_INDEX_STEP_ENCODE);
  s = thread_scratch (1 + MAX_VARINT_BYTES + n_columns * _cs_chunk_column_bound (n_rows), n_rows);
  buf = p = s->buf;
  *p++ = FORMAT_COLUMNS;
  /* The row count, which the columns' sizes alone may not pin down (a
   * column of one repeated number takes no bits a row). */
  p = put_varint (p, n_rows);
  hints = thread_hints (s, modes);
  for (guint c = 0; c < n_columns; c++)
    p = _cs_chunk_column_encode (p, columns[c], modes[c] == CS_CHUNK_DELTA, n_rows, &s->dict,
                                 s->values, s->scratch, &hints[c]);

  gsize raw_size = p - buf;
  if (compress && raw_size > 64)
    {
      gsize zbound = ZSTD_compressBound (raw_size - 1);
      g_autofree guint8 *zbuf = g_malloc (1 + MAX_VARINT_BYTES + zbound);
      guint8 *z = zbuf;
      gsize zsize;

      *z++ = FORMAT_ZSTD_COLUMNS;
      z = put_varint (z, raw_size - 1);
      /* Level 1: the columns are already dense; higher levels cost build
       * time for a few percent. */
      zsize = ZSTD_compressCCtx (thread_cctx (), z, zbound, buf + 1, raw_size - 1, 1);
      if (!ZSTD_isError (zsize))
        {
          /* The size before g_steal_pointer() clears zbuf: the order in
           * which a call's arguments are evaluated is unspecified. */
          gsize blob_size = (gsize) (z - zbuf) + zsize;

          if (blob_size < raw_size)
            blob = g_bytes_new_take (g_steal_pointer (&zbuf), blob_size);
        }
    }

  if (blob == NULL)
    blob = g_bytes_new (buf, raw_size);
  cs_index_step_leave ();
  return blob;
}

/* Reads @n varints from *@pp into @out (a delta column's running sums
 * when @delta), or only walks over them when @out is %NULL.  Away from
 * @end a varint cannot run past it, so the bounds are checked only near
 * it: this loop is most of what decoding a chunk costs. */
static gboolean
get_varints (const guint8 **pp,
             const guint8  *end,
             guint          n,
             gboolean       delta,
             gint64        *out)
{
  const guint8 *p = *pp;
  gint64 prev = 0;
  guint r = 0;

  if (out == NULL)
    {
      /* A varint ends at each byte without its high bit. */
      for (; r < n && p < end; p++)
        r += (*p & 0x80) == 0;
      *pp = p;
      return r == n;
    }
  for (; r < n; r++)
    {
      guint64 raw;

      if (end - p >= MAX_VARINT_BYTES)
        {
          guint shift = 0;

          raw = 0;
          while (*p & 0x80)
            {
              raw |= (guint64) (*p++ & 0x7f) << shift;
              shift += 7;
              if (shift >= 64)
                return FALSE;
            }
          raw |= (guint64) *p++ << shift;
        }
      else if (!get_varint (&p, end, &raw))
        return FALSE;
      if (delta)
        prev = out[r] = (gint64) ((guint64) prev + (guint64) unzigzag (raw));
      else
        out[r] = unzigzag (raw);
    }
  *pp = p;
  return TRUE;
}

static gboolean
decode_varints (const guint8            *p,
                const guint8            *end,
                guint                    n_rows,
                guint                    n_columns,
                guint                    n_wanted,
                const CsChunkColumnMode *modes,
                gint64 * const          *columns)
{
  for (guint c = 0; c < n_wanted; c++)
    if (!get_varints (&p, end, n_rows, modes[c] == CS_CHUNK_DELTA, columns[c]))
      return FALSE;
  /* All columns read: the blob must end exactly there. */
  return n_wanted < n_columns ? p <= end : p == end;
}

/* Format 2: the row count, then each wanted column's numbers, then its
 * values in place; of each column only its first @limit rows (<=
 * @n_rows), the others left unread and unchecked. */
static gboolean
decode_columns (const guint8            *p,
                const guint8            *end,
                guint                    n_rows,
                guint                    n_columns,
                guint                    n_wanted,
                const CsChunkColumnMode *modes,
                gint64 * const          *columns,
                guint                    limit)
{
  guint64 stored_rows;

  if (!get_varint (&p, end, &stored_rows) || stored_rows != n_rows)
    return FALSE;
  for (guint c = 0; c < n_wanted; c++)
    {
      gint64 *col = columns[c];

      /* gint64 and guint64 have one size: the values land in place. */
      if (!_cs_chunk_column_decode_values (&p, end, n_rows, limit, modes[c] == CS_CHUNK_DELTA,
                                           (guint64 *) col))
        return FALSE;
    }
  /* All columns read: the blob must end exactly there. */
  return n_wanted < n_columns ? p <= end : p == end;
}

/**
 * cs_chunk_decode_columns:
 * @data: (array length=size): a blob made by cs_chunk_encode()
 * @size: its size in bytes
 * @n_rows: the row count stored beside the blob
 * @n_columns: as encoded
 * @n_wanted: decode only the first @n_wanted columns (1 .. @n_columns):
 *   columns are stored one after the other, so the rest is not read
 * @modes: (array length=n_columns): as encoded
 * @columns: (array length=n_wanted): each receives @n_first values (room
 *   for @n_rows); a %NULL column is walked over without being decoded or
 *   stored
 * @n_first: how many of the first rows to decode, at most @n_rows: a
 *   reader that knows where the rows it wants end (the last event of a
 *   rare type in a chunk, from its type column) stops there.  The rows
 *   after them are not checked, and may be decoded too (blobs of the
 *   older formats are decoded whole).
 * @error: %CS_INDEX_ERROR_CORRUPT when the blob does not decode
 *
 * Like cs_chunk_decode() for a prefix of the columns (or some of them:
 * %NULL entries of @columns) and of the rows.  Any thread.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_chunk_decode_columns (const guint8            *data,
                         gsize                    size,
                         guint                    n_rows,
                         guint                    n_columns,
                         guint                    n_wanted,
                         const CsChunkColumnMode *modes,
                         gint64 * const          *columns,
                         guint                    n_first,
                         GError                 **error)
{
  const guint8 *end = data + size;
  gboolean ok = FALSE;

  n_first = MIN (n_first, n_rows);
  if (size >= 1 && data[0] == FORMAT_VARINTS)
    ok = decode_varints (data + 1, end, n_rows, n_columns, n_wanted, modes, columns);
  else if (size >= 1 && data[0] == FORMAT_COLUMNS)
    ok = decode_columns (data + 1, end, n_rows, n_columns, n_wanted, modes, columns, n_first);
  else if (size >= 2 && (data[0] == FORMAT_ZSTD || data[0] == FORMAT_ZSTD_COLUMNS))
    {
      gboolean varints = data[0] == FORMAT_ZSTD;
      const guint8 *p = data + 1;
      guint64 raw_size;

      /* Refuse sizes that could not come from n_rows rows before
       * allocating: varints are at least a byte a number, columns at
       * least two bytes of tag and size. */
      if (get_varint (&p, end, &raw_size) &&
          raw_size >= (varints ? (guint64) n_rows * n_columns : 2 * (guint64) n_columns) &&
          raw_size <= (varints ? (guint64) n_rows * n_columns * MAX_VARINT_BYTES
                               : MAX_VARINT_BYTES + n_columns * (guint64) _cs_chunk_column_bound (n_rows)))
        {
          g_autofree guint8 *raw = g_malloc (raw_size ? raw_size : 1);
          gsize got = ZSTD_decompress (raw, raw_size, p, end - p);

          if (!ZSTD_isError (got) && got == raw_size)
            ok = varints ? decode_varints (raw, raw + raw_size, n_rows, n_columns, n_wanted, modes, columns)
                         : decode_columns (raw, raw + raw_size, n_rows, n_columns, n_wanted, modes, columns,
                                           n_first);
        }
    }

  if (!ok)
    g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                 g_dngettext (GETTEXT_PACKAGE,
                              "An index chunk of %u row does not decode (%zu bytes)",
                              "An index chunk of %u rows does not decode (%zu bytes)", n_rows),
                 n_rows, size);
  return ok;
}

/**
 * cs_chunk_peek_values:
 * @data: (array length=size): a blob made by cs_chunk_encode()
 * @size: its size in bytes
 * @n_rows: the row count stored beside the blob
 * @column: which column, 0 .. @n_columns - 1, encoded %CS_CHUNK_PLAIN
 * @values: (out caller-allocates) (array fixed-size=CS_CHUNK_PEEK_MAX):
 *   the distinct values the column's rows take, in no order
 * @n_values: (out): how many (1 .. %CS_CHUNK_PEEK_MAX)
 *
 * Tells which values a column holds without decoding its rows, when the
 * blob says so cheaply: an uncompressed blob whose column was stored as a
 * dictionary (an event chunk's types, a handful of the recording's).
 * Walks over the columns before it by their sizes.  Any thread.
 *
 * Returns: %TRUE with @values set; %FALSE when only decoding the column
 *   would tell (another form, a compressed or damaged blob: the decoder
 *   then reports the damage)
 */
gboolean
cs_chunk_peek_values (const guint8 *data,
                      gsize         size,
                      guint         n_rows,
                      guint         column,
                      gint64       *values,
                      guint        *n_values)
{
  const guint8 *p = data + 1, *end = data + size;
  guint64 stored_rows;

  G_STATIC_ASSERT (CS_CHUNK_PEEK_MAX == CS_CHUNK_DICT_MAX);
  *n_values = 0;
  if (size < 1 || data[0] != FORMAT_COLUMNS ||
      !get_varint (&p, end, &stored_rows) || stored_rows != n_rows)
    return FALSE;
  for (guint c = 0; c < column; c++)
    if (!_cs_chunk_column_decode (&p, end, n_rows, NULL))
      return FALSE;
  if (!_cs_chunk_column_get_dict (&p, end, (guint64 *) values, n_values) || *n_values == 0)
    return FALSE;
  for (guint i = 0; i < *n_values; i++)
    values[i] = unzigzag ((guint64) values[i]);
  return TRUE;
}

/**
 * cs_chunk_decode:
 * @data: (array length=size): a blob made by cs_chunk_encode()
 * @size: its size in bytes
 * @n_rows: the row count stored beside the blob
 * @n_columns: as encoded
 * @modes: (array length=n_columns): as encoded
 * @columns: (array length=n_columns): each receives @n_rows values
 * @error: %CS_INDEX_ERROR_CORRUPT when the blob does not decode to exactly
 *   @n_rows rows
 *
 * Decodes a chunk.  Any thread.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_chunk_decode (const guint8            *data,
                 gsize                    size,
                 guint                    n_rows,
                 guint                    n_columns,
                 const CsChunkColumnMode *modes,
                 gint64 * const          *columns,
                 GError                 **error)
{
  return cs_chunk_decode_columns (data, size, n_rows, n_columns, n_columns, modes, columns, n_rows,
                                  error);
}

/**
 * cs_chunk_encode_records:
 * @values: (array): @n_records × @n_fields numbers, record after record
 * @n_records: how many records
 * @n_fields: numbers per record, 1 to %CS_CHUNK_MAX_RECORD_FIELDS
 * @out: where the bytes go: room for @n_records × @n_fields ×
 *   %CS_CHUNK_VARINT_MAX_BYTES
 *
 * Encodes records as varints of differences (see the header).  Any
 * thread.
 *
 * Returns: the bytes written to @out
 */
gsize
cs_chunk_encode_records (const gint64 *values,
                         gsize         n_records,
                         guint         n_fields,
                         guint8       *out)
{
  return cs_chunk_encode_records_strided (values, n_records, n_fields, n_fields, out);
}

/**
 * cs_chunk_encode_records_strided:
 * @values: (array): the first number of the first record
 * @n_records: how many records
 * @n_fields: numbers per record encoded, 1 to %CS_CHUNK_MAX_RECORD_FIELDS:
 *   the first @n_fields of each record
 * @stride: numbers from one record to the next in @values, at least
 *   @n_fields
 * @out: where the bytes go: room for @n_records × @n_fields ×
 *   %CS_CHUNK_VARINT_MAX_BYTES
 *
 * Like cs_chunk_encode_records(), for records that hold more numbers
 * than are encoded (a few columns of a wider row); the bytes decode with
 * cs_chunk_decode_records() into records of @n_fields numbers.
 *
 * Returns: the bytes written to @out
 */
gsize
cs_chunk_encode_records_strided (const gint64 *values,
                                 gsize         n_records,
                                 guint         n_fields,
                                 guint         stride,
                                 guint8       *out)
{
  gint64 prev[CS_CHUNK_MAX_RECORD_FIELDS] = { 0 };
  guint8 *p = out;

  g_return_val_if_fail (n_fields >= 1 && n_fields <= CS_CHUNK_MAX_RECORD_FIELDS &&
                        stride >= n_fields, 0);

  for (gsize r = 0; r < n_records; r++, values += stride)
    for (guint f = 0; f < n_fields; f++)
      {
        p = put_varint (p, zigzag ((gint64) ((guint64) values[f] - (guint64) prev[f])));
        prev[f] = values[f];
      }
  return (gsize) (p - out);
}

/**
 * cs_chunk_decode_records:
 * @in: (array length=len): bytes cs_chunk_encode_records() wrote
 * @len: their count
 * @max_records: room in @values, in records
 * @n_fields: numbers per record, as encoded (1 to
 *   %CS_CHUNK_MAX_RECORD_FIELDS)
 * @values: (out) (array): where the records go
 *
 * Decodes every record of @in.  Any thread.
 *
 * Returns: the records decoded, or -1 when @in is not whole records of
 *   varints or holds more than @max_records
 */
gssize
cs_chunk_decode_records (const guint8 *in,
                         gsize         len,
                         gsize         max_records,
                         guint         n_fields,
                         gint64       *values)
{
  const guint8 *end = in + len;
  gint64 prev[CS_CHUNK_MAX_RECORD_FIELDS] = { 0 };
  gsize r;

  g_return_val_if_fail (n_fields >= 1 && n_fields <= CS_CHUNK_MAX_RECORD_FIELDS, -1);

  for (r = 0; in < end; r++, values += n_fields)
    {
      if (r == max_records || r > G_MAXSSIZE - 1)
        return -1;
      for (guint f = 0; f < n_fields; f++)
        {
          guint64 v;

          if (!get_varint (&in, end, &v))
            return -1;
          prev[f] = (gint64) ((guint64) prev[f] + (guint64) unzigzag (v));
          values[f] = prev[f];
        }
    }
  return (gssize) r;
}
