/* cs-chunk-column-read.c: one column of a chunk read back, in whichever
 * of the three forms cs-chunk-column.c wrote it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The forms are described at the top of cs-chunk-column.c.  Every read
 * of the index decodes chunks (a scan, a pass, an explanation), so the
 * packed rows are unpacked by a loop made for each width, and a
 * dictionary's rows looked up as they are unpacked.  Nothing here
 * trusts the blob: a column that does not decode to its rows within its
 * bounds is refused, never read past.
 */
#include "config.h"

#include <string.h>

#include "cs-chunk-column.h"

#define COLUMN_VARINTS CS_CHUNK_COLUMN_VARINTS
#define COLUMN_PACKED CS_CHUNK_COLUMN_PACKED
#define COLUMN_DICT CS_CHUNK_COLUMN_DICT
#define MAX_PACKED_BITS CS_CHUNK_MAX_PACKED_BITS
#define MAX_DICT CS_CHUNK_DICT_MAX
#define bit_length _cs_chunk_bit_length

/* Unpacking ---------------------------------------------------------------- */

/* Rows [@r, @n) of unpack(), each read whole from its first byte: @r ..
 * @n_safe - 1 with one unaligned load, the rest byte by byte. */
G_ALWAYS_INLINE static inline void
unpack_rows (const guint8 *in,
             gsize         in_size,
             guint         r,
             guint         n_safe,
             guint         n,
             guint         bits,
             guint64      *out)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;

  for (; r < n_safe; r++)
    {
      gsize bit = (gsize) r * bits;
      guint64 word;

      memcpy (&word, in + (bit >> 3), 8);
      out[r] = (GUINT64_FROM_LE (word) >> (bit & 7)) & mask;
    }
  for (; r < n; r++)
    {
      gsize bit = (gsize) r * bits;
      guint64 word = 0;

      for (gsize i = bit >> 3, k = 0; i < in_size && k < 8; i++, k++)
        word |= (guint64) in[i] << (8 * k);
      out[r] = (word >> (bit & 7)) & mask;
    }
}

/* How many of @n rows of @bits bits (1..) packed in @in_size bytes can
 * be read with one 8-byte load from their first byte: row r starts at
 * byte r bits / 8, so those with r bits <= (in_size - 8) 8 + 7. */
static inline guint
rows_in_one_load (gsize in_size,
                  guint n,
                  guint bits)
{
  return in_size < 8 ? 0 : (guint) MIN ((guint64) n, ((guint64) (in_size - 8) * 8 + 7) / bits + 1);
}

/* unpack() for one width known when compiled: eight rows take @bits
 * bytes exactly, so within a group of eight each row's byte and shift
 * are constants and the loads are independent.  With @values (a
 * dictionary's, room for 1 << @bits), each row's number is an index,
 * looked up as it is unpacked rather than unpacked to @out and read back
 * (the read-back loop was a quarter of decoding an event chunk); without
 * (%NULL where it is inlined), the lookup is compiled away.  Every read
 * of the index decodes chunks (a scan, a pass, an explanation): this took
 * an event chunk of the large benchmark recording from 6.8 to 4.3 ns a
 * row, a slice chunk from 9.1 to 5.1 (tests/bench/bench-decode).
 * Returns the largest number met, for the caller to refuse an index past
 * the dictionary without a branch a row (0 without @values). */
G_ALWAYS_INLINE static inline guint64
unpack_width (const guint8  *in,
              gsize          in_size,
              guint          n_safe,
              guint          n,
              guint          bits,
              const guint64 *values,
              guint64       *out)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
  guint64 top = 0;
  guint r = 0;

  for (; r + 8 <= n_safe; r += 8)
    {
      const guint8 *group = in + (gsize) (r / 8) * bits;

#pragma GCC unroll 8
      for (guint k = 0; k < 8; k++)
        {
          guint64 word, v;

          memcpy (&word, group + (k * bits) / 8, 8);
          v = (GUINT64_FROM_LE (word) >> ((k * bits) & 7)) & mask;
          if (values != NULL)
            {
              top = MAX (top, v);
              v = values[v];
            }
          out[r + k] = v;
        }
    }
  unpack_rows (in, in_size, r, n_safe, n, bits, out);
  if (values != NULL)
    for (; r < n; r++)
      {
        top = MAX (top, out[r]);
        out[r] = values[out[r]];
      }
  return top;
}

/* Reads @n numbers of @bits bits packed at @in (ceil (n bits / 8) bytes,
 * all of them readable, and no byte past them read). */
static void
unpack (const guint8 *in,
        gsize         in_size,
        guint         n,
        guint         bits,
        guint64      *out)
{
  guint n_safe;

  if (bits == 0)
    {
      memset (out, 0, n * sizeof (guint64));
      return;
    }
  n_safe = rows_in_one_load (in_size, n, bits);
#define WIDTH(b) case b: unpack_width (in, in_size, n_safe, n, b, NULL, out); return;
  switch (bits)
    {
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7) WIDTH (8)
    WIDTH (9) WIDTH (10) WIDTH (11) WIDTH (12) WIDTH (13) WIDTH (14) WIDTH (15) WIDTH (16)
    WIDTH (17) WIDTH (18) WIDTH (19) WIDTH (20) WIDTH (21) WIDTH (22) WIDTH (23) WIDTH (24)
    WIDTH (25) WIDTH (26) WIDTH (27) WIDTH (28) WIDTH (29) WIDTH (30) WIDTH (31) WIDTH (32)
    WIDTH (33) WIDTH (34) WIDTH (35) WIDTH (36) WIDTH (37) WIDTH (38) WIDTH (39) WIDTH (40)
    WIDTH (41) WIDTH (42) WIDTH (43) WIDTH (44) WIDTH (45) WIDTH (46) WIDTH (47) WIDTH (48)
    WIDTH (49) WIDTH (50) WIDTH (51) WIDTH (52) WIDTH (53) WIDTH (54) WIDTH (55) WIDTH (56)
    default:
      unpack_rows (in, in_size, 0, n_safe, n, bits, out);
    }
#undef WIDTH
}

/* unpack() with each index looked up in @values (room for 1 << @bits,
 * @bits 1..8); returns the largest index met. */
static guint64
unpack_lookup (const guint8  *in,
               gsize          in_size,
               guint          n,
               guint          bits,
               const guint64 *values,
               guint64       *out)
{
  guint n_safe = rows_in_one_load (in_size, n, bits);

#define WIDTH(b) case b: return unpack_width (in, in_size, n_safe, n, b, values, out);
  switch (bits)
    {
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    default:
      return unpack_width (in, in_size, n_safe, n, 8, values, out);
    }
#undef WIDTH
}

/* Columns ------------------------------------------------------------------ */

/* Reads a column's tag and body size at *@pp, and moves *@pp past the
 * column: FALSE when they do not fit before @end. */
static gboolean
column_open (const guint8 **pp,
             const guint8  *end,
             guint         *tag,
             const guint8 **body,
             const guint8 **body_end)
{
  const guint8 *p = *pp;
  guint64 body_size;

  if (p >= end)
    return FALSE;
  *tag = *p++;
  if (!_cs_chunk_get_varint (&p, end, &body_size) || body_size > (guint64) (end - p))
    return FALSE;
  *body = p;
  *body_end = *pp = p + body_size;
  return TRUE;
}

/* Reads a dictionary's count and numbers at *@pp (a COLUMN_DICT body). */
static gboolean
dict_read (const guint8 **pp,
           const guint8  *body_end,
           guint64       *values,
           guint64       *k)
{
  if (!_cs_chunk_get_varint (pp, body_end, k) || *k == 0 || *k > MAX_DICT)
    return FALSE;
  for (guint i = 0; i < *k; i++)
    if (!_cs_chunk_get_varint (pp, body_end, &values[i]))
      return FALSE;
  return TRUE;
}

/**
 * _cs_chunk_column_get_dict:
 * @pp: (inout): the column's tag; moved past the column
 * @end: the end of the blob
 * @values: (out caller-allocates) (array fixed-size=CS_CHUNK_DICT_MAX):
 *   the column's distinct numbers, when it is a dictionary
 * @n_values: (out): how many, 0 when the column is not a dictionary
 *
 * Reads a dictionary column's header only: what numbers its rows take,
 * without unpacking the rows.  Other forms are walked over (@n_values 0:
 * the caller must decode them to know).
 *
 * Returns: %FALSE when the column is damaged
 */
gboolean
_cs_chunk_column_get_dict (const guint8 **pp,
                           const guint8  *end,
                           guint64       *values,
                           guint         *n_values)
{
  const guint8 *p, *body_end;
  guint64 k;
  guint tag;

  *n_values = 0;
  if (!column_open (pp, end, &tag, &p, &body_end))
    return FALSE;
  if (tag != COLUMN_DICT)
    return tag < COLUMN_DICT;
  if (!dict_read (&p, body_end, values, &k))
    return FALSE;
  *n_values = (guint) k;
  return TRUE;
}

/* What a column's decoding gives: its numbers as stored, or the values
 * they stand for (the zigzag undone; for a delta column, added up). */
typedef enum {
  FORM_NUMBERS,
  FORM_PLAIN,
  FORM_DELTA,
} Form;

/* The numbers in @out (@n) made values of @form. */
static void
numbers_to_values (guint64 *out,
                   guint    n,
                   Form     form)
{
  if (form == FORM_DELTA)
    {
      guint64 prev = 0;

      for (guint r = 0; r < n; r++)
        out[r] = prev += (guint64) _cs_chunk_unzigzag (out[r]);
    }
  else if (form == FORM_PLAIN)
    for (guint r = 0; r < n; r++)
      out[r] = (guint64) _cs_chunk_unzigzag (out[r]);
}

/* Decodes the first @limit (<= @n) of a column's @n rows into @out:
 * the rows after them are neither read nor checked. */
static gboolean
decode_column (const guint8 **pp,
               const guint8  *end,
               guint          n,
               guint          limit,
               Form           form,
               guint64       *out)
{
  const guint8 *p, *body_end;
  guint tag;

  if (!column_open (pp, end, &tag, &p, &body_end))
    return FALSE;
  if (out == NULL)
    return tag <= COLUMN_DICT;

  switch (tag)
    {
    case COLUMN_VARINTS:
      for (guint r = 0; r < limit; r++)
        if (!_cs_chunk_get_varint (&p, body_end, &out[r]))
          return FALSE;
      numbers_to_values (out, limit, form);
      return limit < n || p == body_end;

    case COLUMN_PACKED:
      {
        guint bits;
        guint64 n_exc;
        gsize packed;
        guint64 row = 0;

        if (p >= body_end || (bits = *p++) > MAX_PACKED_BITS ||
            !_cs_chunk_get_varint (&p, body_end, &n_exc) || n_exc > n)
          return FALSE;
        packed = ((gsize) n * bits + 7) / 8;
        if (packed > (gsize) (body_end - p))
          return FALSE;
        unpack (p, packed, limit, bits, out);
        p += packed;
        for (guint64 i = 0; i < n_exc; i++)
          {
            guint64 distance, high;

            if (!_cs_chunk_get_varint (&p, body_end, &distance) ||
                !_cs_chunk_get_varint (&p, body_end, &high))
              return FALSE;
            row += distance;
            if (row >= n)
              return FALSE;
            /* Exceptions come in row order. */
            if (row >= limit)
              break;
            out[row] |= high << bits;
          }
        numbers_to_values (out, limit, form);
        return limit < n || p == body_end;
      }

    case COLUMN_DICT:
      {
        guint64 k;
        /* Room for every index @bits can hold (the unread ones zero). */
        guint64 values[MAX_DICT];
        guint bits;
        gsize packed;

        if (!dict_read (&p, body_end, values, &k))
          return FALSE;
        bits = bit_length (k - 1);
        packed = ((gsize) n * bits + 7) / 8;
        if (packed != (gsize) (body_end - p))
          return FALSE;
        /* A plain column's values from the dictionary's k numbers, not
         * from each of the n rows. */
        if (form == FORM_PLAIN)
          for (guint i = 0; i < k; i++)
            values[i] = (guint64) _cs_chunk_unzigzag (values[i]);
        if (bits == 0)
          for (guint r = 0; r < limit; r++)
            out[r] = values[0];
        else
          {
            memset (values + k, 0, ((G_GUINT64_CONSTANT (1) << bits) - k) * sizeof values[0]);
            if (unpack_lookup (p, packed, limit, bits, values, out) >= k)
              return FALSE;
          }
        if (form == FORM_DELTA)
          numbers_to_values (out, limit, form);
        return TRUE;
      }

    default:
      return FALSE;
    }
}

/**
 * _cs_chunk_column_decode:
 * @pp: (inout): the column's tag; moved past the column
 * @end: the end of the blob
 * @n: rows in the chunk
 * @out: (array length=n) (nullable): the numbers, or %NULL to walk over
 *   the column (its size says where it ends)
 *
 * Returns: %FALSE when the column does not decode to @n numbers within
 *   @end (a damaged or hostile blob)
 */
gboolean
_cs_chunk_column_decode (const guint8 **pp,
                         const guint8  *end,
                         guint          n,
                         guint64       *out)
{
  return decode_column (pp, end, n, n, FORM_NUMBERS, out);
}

/**
 * _cs_chunk_column_decode_values:
 * @pp: (inout): the column's tag; moved past the column
 * @end: the end of the blob
 * @n: rows in the chunk
 * @limit: how many of its first rows to decode, at most @n (a reader of
 *   a few rows near a chunk's start stops there; the rows after them are
 *   neither read nor checked)
 * @delta: whether the column was encoded as differences to the row
 *   before (%CS_CHUNK_DELTA)
 * @out: (array length=limit) (nullable): the values, or %NULL to walk
 *   over the column
 *
 * _cs_chunk_column_decode() with each number made the value it stands
 * for: the zigzag undone and, with @delta, the differences added up
 * (modulo 2^64, as they were taken: cs-chunk-codec.c).  A dictionary's
 * values are made once per distinct number and looked up as the rows
 * are unpacked.
 *
 * Returns: %FALSE when the rows read do not decode within @end (a
 *   damaged or hostile blob), or the whole column when @limit is @n
 */
gboolean
_cs_chunk_column_decode_values (const guint8 **pp,
                                const guint8  *end,
                                guint          n,
                                guint          limit,
                                gboolean       delta,
                                guint64       *out)
{
  g_return_val_if_fail (limit <= n, FALSE);
  return decode_column (pp, end, n, limit, delta ? FORM_DELTA : FORM_PLAIN, out);
}
