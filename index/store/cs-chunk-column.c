/* cs-chunk-column.c: one column of a chunk, in the cheapest of three forms.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A column arrives as unsigned numbers (the zigzag of a value or of its
 * difference to the row before: cs-chunk-codec.c) and is stored as
 *
 *   tag (1 byte), body size in bytes (varint), body
 *
 * where the body is one of
 *
 *   COLUMN_VARINTS  n varints, 7 bits a byte.
 *   COLUMN_PACKED   b (1 byte, 0..MAX_PACKED_BITS), the count of
 *                   exceptions (varint), the low b bits of every number
 *                   packed little-endian, ceil (n b / 8) bytes, then per
 *                   exception the distance to the one before (varint;
 *                   the first: its row) and the bits above b (varint).
 *                   "Patched frame of reference": b is chosen so that a
 *                   few outliers (an idle CPU's gap between two events)
 *                   do not widen every row.
 *   COLUMN_DICT     k (varint, 1..MAX_DICT), the k distinct numbers
 *                   (varints), then each row's index among them packed in
 *                   bit_length (k - 1) bits: an event type or a record
 *                   size, of which a chunk holds a handful.
 *
 * The encoder estimates each form's size from a histogram of bit lengths
 * (and the distinct numbers, while there are few) and writes the
 * smallest.  On the events of a large recording this halves the event
 * chunks against varints alone (README, "Where the index's bytes go").
 */
#include "config.h"

#include <string.h>

#include "cs-chunk-column.h"

enum {
  COLUMN_VARINTS = 0,
  COLUMN_PACKED = 1,
  COLUMN_DICT = 2,
};

/* Packed numbers are read with one unaligned 64-bit load: b bits at any
 * bit offset 0..7 of a byte must fit in 64. */
#define MAX_PACKED_BITS 56
/* Distinct numbers worth a dictionary; more cost more to look up than
 * they save. */
#define MAX_DICT CS_CHUNK_DICT_MAX
#define DICT_SLOTS CS_CHUNK_DICT_SLOTS
/* Columns of fewer rows are written as varints without weighing the
 * other forms: their headers would eat what packing saves. */
#define SMALL_COLUMN 32

static inline guint
bit_length (guint64 v)
{
  return v == 0 ? 0 : 64 - __builtin_clzll (v);
}

static inline guint
varint_size (guint64 v)
{
  return 1 + (bit_length (v) > 7 ? (bit_length (v) - 1) / 7 : 0);
}

/* Packing ------------------------------------------------------------------ */

/* Writes the low @bits bits of each of @n numbers, little-endian, into
 * ceil (n bits / 8) bytes. */
static guint8 *
pack (guint8        *p,
      const guint64 *values,
      guint          n,
      guint          bits)
{
  guint64 acc = 0;
  guint filled = 0;
  guint64 mask = bits >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << bits) - 1;

  if (bits == 0)
    return p;
  for (guint r = 0; r < n; r++)
    {
      guint64 v = values[r] & mask;

      acc |= v << filled;
      filled += bits;
      if (filled >= 64)
        {
          /* Flush the 64 bits; what did not fit is the top of v. */
          guint64 le = GUINT64_TO_LE (acc);

          memcpy (p, &le, 8);
          p += 8;
          filled -= 64;
          acc = filled > 0 ? v >> (bits - filled) : 0;
        }
    }
  while (filled > 0)
    {
      *p++ = (guint8) acc;
      acc >>= 8;
      filled = filled > 8 ? filled - 8 : 0;
    }
  return p;
}

/* Reads @n numbers of @bits bits packed at @in (ceil (n bits / 8) bytes,
 * all of them readable). */
static void
unpack (const guint8 *in,
        gsize         in_size,
        guint         n,
        guint         bits,
        guint64      *out)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
  guint r = 0;

  if (bits == 0)
    {
      memset (out, 0, n * sizeof (guint64));
      return;
    }
  /* Rows whose 8 bytes lie inside the region: one load each. */
  for (; r < n; r++)
    {
      gsize bit = (gsize) r * bits;
      guint64 word;

      if ((bit >> 3) + 8 > in_size)
        break;
      memcpy (&word, in + (bit >> 3), 8);
      out[r] = (GUINT64_FROM_LE (word) >> (bit & 7)) & mask;
    }
  /* The last few: byte by byte. */
  for (; r < n; r++)
    {
      gsize bit = (gsize) r * bits;
      guint64 word = 0;

      for (gsize i = bit >> 3, k = 0; i < in_size && k < 8; i++, k++)
        word |= (guint64) in[i] << (8 * k);
      out[r] = (word >> (bit & 7)) & mask;
    }
}

/* The first row from @r on whose number has more than @bits bits (an
 * exception of a packed column), or @n.  Exceptions are few: eight rows
 * are tested at once. */
static inline guint
next_exception (const guint64 *values,
                guint          r,
                guint          n,
                guint          bits)
{
  for (; r + 8 <= n; r += 8)
    if (((values[r] | values[r + 1] | values[r + 2] | values[r + 3] |
          values[r + 4] | values[r + 5] | values[r + 6] | values[r + 7]) >> bits) != 0)
      break;
  for (; r < n; r++)
    if ((values[r] >> bits) != 0)
      return r;
  return n;
}

/* Choosing ----------------------------------------------------------------- */

static inline guint
dict_slot (const CsChunkDict *d, guint64 v)
{
  guint s = (guint) ((v * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 55) & (DICT_SLOTS - 1);

  while (d->stamp[s] == d->generation && d->keys[s] != v)
    s = (s + 1) & (DICT_SLOTS - 1);
  return s;
}

/* The distinct numbers of @values, and each row's position among them in
 * @indexes, in the order they first occur, or FALSE when there are more
 * than MAX_DICT.  Numbers below 2^CS_CHUNK_DICT_DIRECT_BITS (event types,
 * record sizes, a pid column's zero differences: most rows) are their own
 * slot in a direct table; larger ones are hashed.  A slot is in use when
 * its stamp is this call's generation: no table to clear a call. */
static gboolean
dict_build (CsChunkDict   *d,
            const guint64 *values,
            guint          n,
            guint64       *indexes)
{
  guint32 generation;

  if (++d->generation == 0)
    {
      memset (d->stamp, 0, sizeof d->stamp);
      memset (d->direct_stamp, 0, sizeof d->direct_stamp);
      d->generation = 1;
    }
  generation = d->generation;
  d->n = 0;
  for (guint r = 0; r < n; r++)
    {
      guint64 v = values[r];
      guint32 *stamp;
      guint16 *index;

      if (v < (1u << CS_CHUNK_DICT_DIRECT_BITS))
        {
          stamp = &d->direct_stamp[v];
          index = &d->direct_index[v];
        }
      else
        {
          guint s = dict_slot (d, v);

          stamp = &d->stamp[s];
          index = &d->index[s];
          d->keys[s] = v;
        }
      if (G_UNLIKELY (*stamp != generation))
        {
          if (d->n == MAX_DICT)
            return FALSE;
          *stamp = generation;
          *index = (guint16) d->n;
          d->values[d->n++] = v;
        }
      indexes[r] = *index;
    }
  return TRUE;
}

/* The estimated size of a packed body of @n numbers with @bits bits a
 * row, given the bit lengths that occur (@lengths, @counts: @n_lengths
 * of them). */
static gsize
packed_size (const guint *lengths,
             const guint *counts,
             guint        n_lengths,
             guint        n,
             guint        bits)
{
  gsize size = 1 + ((gsize) n * bits + 7) / 8;
  guint n_exc = 0;

  for (guint i = 0; i < n_lengths; i++)
    if (lengths[i] > bits)
      {
        n_exc += counts[i];
        /* The bits above b, and a distance of about one byte (two when
         * exceptions are rare). */
        size += (gsize) counts[i] * (1 + (lengths[i] - bits + 6) / 7);
      }
  if (n_exc != 0 && n_exc < n / 128)
    size += n_exc;
  return size + varint_size (n_exc);
}

/**
 * _cs_chunk_column_encode:
 * @p: where the column goes: room for _cs_chunk_column_bound (@n) bytes
 * @values: (array length=n): the numbers
 * @n: how many, >= 1
 * @d: (out caller-allocates): scratch for the dictionary
 * @scratch: (array length=n): scratch for the rows' dictionary indexes
 *
 * Writes the column in its smallest form (see the file comment).
 *
 * Returns: the byte after it
 */
guint8 *
_cs_chunk_column_encode (guint8        *p,
                         const guint64 *values,
                         guint          n,
                         CsChunkDict   *d,
                         guint64       *scratch)
{
  guint hist[4][65] = { { 0 } };
  guint lengths[65], counts[65], n_lengths = 0, max_length = 0;
  gsize varints = 0, best_packed = G_MAXSIZE, dict_size = G_MAXSIZE;
  guint best_bits = 0, dict_bits = 0, tag;
  guint row = 0;
  guint8 *body;

  /* Four histograms: rows of one length would otherwise wait on each
   * other's increment of the same counter. */
  for (; row + 4 <= n; row += 4)
    {
      hist[0][bit_length (values[row])]++;
      hist[1][bit_length (values[row + 1])]++;
      hist[2][bit_length (values[row + 2])]++;
      hist[3][bit_length (values[row + 3])]++;
    }
  for (; row < n; row++)
    hist[0][bit_length (values[row])]++;
  for (guint l = 0; l <= 64; l++)
    hist[0][l] += hist[1][l] + hist[2][l] + hist[3][l];
  for (guint l = 0; l <= 64; l++)
    if (hist[0][l] != 0)
      {
        varints += (gsize) hist[0][l] * (l > 7 ? 1 + (l - 1) / 7 : 1);
        lengths[n_lengths] = l;
        counts[n_lengths++] = hist[0][l];
        max_length = l;
      }
  /* A few rows (a task's chunk, say) are not worth the choosing. */
  if (n < SMALL_COLUMN)
    best_packed = dict_size = G_MAXSIZE;
  else
    {
      for (guint bits = 0; bits <= MIN (max_length, MAX_PACKED_BITS); bits++)
        {
          gsize size = packed_size (lengths, counts, n_lengths, n, bits);

          if (size < best_packed)
            {
              best_packed = size;
              best_bits = bits;
            }
        }
    }
  /* A dictionary takes at least a bit a row plus its numbers: only worth
   * trying where packing needs a few bits a row. */
  if (n >= SMALL_COLUMN && best_bits >= 3 && dict_build (d, values, n, scratch))
    {
      dict_bits = bit_length (d->n - 1);
      dict_size = varint_size (d->n) + ((gsize) n * dict_bits + 7) / 8;
      for (guint i = 0; i < d->n; i++)
        dict_size += varint_size (d->values[i]);
    }

  if (varints <= best_packed && varints <= dict_size)
    tag = COLUMN_VARINTS;
  else if (dict_size < best_packed)
    tag = COLUMN_DICT;
  else
    tag = COLUMN_PACKED;

  /* The body goes after room for its size, then moves up to it. */
  *p++ = (guint8) tag;
  body = p + 5;
  {
    guint8 *q = body;

    switch (tag)
      {
      case COLUMN_VARINTS:
        for (guint r = 0; r < n; r++)
          q = _cs_chunk_put_varint (q, values[r]);
        break;
      case COLUMN_DICT:
        q = _cs_chunk_put_varint (q, d->n);
        for (guint i = 0; i < d->n; i++)
          q = _cs_chunk_put_varint (q, d->values[i]);
        /* dict_build() left each row's index in @scratch. */
        q = pack (q, scratch, n, dict_bits);
        break;
      default:
        {
          guint n_exc = 0, last = 0;

          for (guint l = best_bits + 1; l <= 64; l++)
            n_exc += hist[0][l];
          *q++ = (guint8) best_bits;
          q = _cs_chunk_put_varint (q, n_exc);
          q = pack (q, values, n, best_bits);
          for (guint r = next_exception (values, 0, n, best_bits); r < n && n_exc > 0;
               r = next_exception (values, r + 1, n, best_bits))
            {
              q = _cs_chunk_put_varint (q, r - last);
              q = _cs_chunk_put_varint (q, values[r] >> best_bits);
              last = r;
              n_exc--;
            }
        }
        break;
      }
    {
      gsize body_size = q - body;
      guint8 *after = _cs_chunk_put_varint (p, body_size);

      memmove (after, body, body_size);
      return after + body_size;
    }
  }
}

/**
 * _cs_chunk_column_bound:
 * @n: numbers in the column
 *
 * Returns: the most bytes _cs_chunk_column_encode() writes for @n numbers
 *   (with the room it takes for the body's size before moving it)
 */
gsize
_cs_chunk_column_bound (guint n)
{
  /* Tag, size, b, exception count; at worst every number is an
   * exception of 10 + 10 bytes beside its packed bits. */
  return 1 + 5 + 1 + 10 + (gsize) n * (2 * CS_CHUNK_MAX_VARINT_BYTES + 8);
}

/* Decoding ----------------------------------------------------------------- */

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
  const guint8 *p, *body_end;
  guint tag;

  if (!column_open (pp, end, &tag, &p, &body_end))
    return FALSE;
  if (out == NULL)
    return tag <= COLUMN_DICT;

  switch (tag)
    {
    case COLUMN_VARINTS:
      for (guint r = 0; r < n; r++)
        if (!_cs_chunk_get_varint (&p, body_end, &out[r]))
          return FALSE;
      return p == body_end;

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
        unpack (p, packed, n, bits, out);
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
            out[row] |= high << bits;
          }
        return p == body_end;
      }

    case COLUMN_DICT:
      {
        guint64 k;
        guint64 values[MAX_DICT];
        guint bits;
        gsize packed;

        if (!dict_read (&p, body_end, values, &k))
          return FALSE;
        bits = bit_length (k - 1);
        packed = ((gsize) n * bits + 7) / 8;
        if (packed != (gsize) (body_end - p))
          return FALSE;
        unpack (p, packed, n, bits, out);
        for (guint r = 0; r < n; r++)
          {
            if (out[r] >= k)
              return FALSE;
            out[r] = values[out[r]];
          }
        return TRUE;
      }

    default:
      return FALSE;
    }
}
