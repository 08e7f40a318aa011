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
 *   COLUMN_DICT     k (varint, 1..MAX_DICT: 1024 since schema 8, 256
 *                   before), the k distinct numbers (varints), then each
 *                   row's index among them packed in bit_length (k - 1)
 *                   bits: an event type or a record size, of which a
 *                   chunk holds a handful, or a timestamp's difference to
 *                   the event before, of which it holds a few hundred.
 *
 * The encoder weighs each form's size from a histogram of bit lengths
 * (and the distinct numbers, while there are few) and writes the
 * smallest; the chunks after take the same form without weighing, until
 * the next weighing (_cs_chunk_column_encode()).  On the events of a
 * large recording this halves the event chunks against varints alone
 * (README, "Where the index's bytes go").
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
/* Distinct numbers a dictionary holds (a chunk of 4096 events has a few
 * hundred distinct differences between timestamps), in a hash table of
 * twice as many slots. */
#define MAX_DICT CS_CHUNK_DICT_MAX
#define DICT_SLOTS CS_CHUNK_DICT_SLOTS
#define DICT_SLOT_BITS 11
G_STATIC_ASSERT (DICT_SLOTS == 1 << DICT_SLOT_BITS);
/* A slot keeps a position in its low bits, the generation above. */
#define DICT_POSITION_BITS 10
G_STATIC_ASSERT (MAX_DICT <= 1 << DICT_POSITION_BITS);
/* A column's form is weighed again every this many chunks (_cs_chunk_
 * column_encode()). */
#define REWEIGH 16
/* Columns of fewer rows are written as varints without weighing the
 * other forms: their headers would eat what packing saves. */
#define SMALL_COLUMN 32
/* Numbers below this are their own slot of a dictionary's direct table. */
#define DIRECT_LIMIT (G_GUINT64_CONSTANT (1) << CS_CHUNK_DICT_DIRECT_BITS)
/* A histogram's bit lengths, 0 to 64, and room for the lanes to be added
 * up eight at a time. */
#define HIST_LENGTHS 72

/* Without a branch: in a column of zeros and others (a pid column's
 * differences) the branch would often go the wrong way. */
static inline guint
bit_length (guint64 v)
{
  return (v != 0) + 63 - __builtin_clzll (v | 1);
}

static inline guint
varint_size (guint64 v)
{
  return 1 + (bit_length (v) > 7 ? (bit_length (v) - 1) / 7 : 0);
}

/* Packing ------------------------------------------------------------------ */

/* The @per_word numbers from @row (at @at) in one word, @bits each, the
 * exceptions among them listed (pack_rows()). */
G_ALWAYS_INLINE static inline guint64
pack_word (gconstpointer  at,
           gsize          size,
           guint          row,
           guint          per_word,
           guint          bits,
           guint32       *exceptions,
           guint         *n_exc)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
  guint64 word = 0;

#pragma GCC unroll 56
  for (guint k = 0; k < per_word; k++)
    {
      guint64 v = size == 2 ? ((const guint16 *) at)[k] : ((const guint64 *) at)[k];

      if (exceptions != NULL)
        {
          exceptions[*n_exc] = row + k;
          *n_exc += (v >> bits) != 0;
        }
      word |= (v & mask) << (k * bits);
    }
  return word;
}

/* Writes the low @bits bits (1..MAX_PACKED_BITS) of each of @n numbers,
 * little-endian, into ceil (n bits / 8) bytes, and returns the byte after
 * them.  It stores 8 bytes at a time, up to 7 of them past the end (the
 * column's bound leaves room).  Rows are gathered into words of up to 56
 * bits first, so that the bit position moves once per word rather than
 * once per row.  With @exceptions, the rows whose number has more than
 * @bits bits are listed there (room for @n), without a branch a row, and
 * counted in *@n_exc. */
G_ALWAYS_INLINE static inline guint8 *
pack_rows (guint8        *p,
           gconstpointer  values,
           gsize          size,
           guint          n,
           guint          bits,
           guint32       *exceptions,
           guint         *n_exc_out)
{
  guint per_word = MAX_PACKED_BITS / bits;
  guint64 acc = 0;
  guint filled = 0, n_exc = 0;

  for (guint r = 0; r < n; r += per_word)
    {
      guint in_word = MIN (per_word, n - r);
      guint64 word, le;

      /* Words of a number of rows known when compiling, unrolled where
       * @bits is; the last one's rows after the column are zeros. */
      if (G_UNLIKELY (in_word < per_word))
        {
          guint64 last[MAX_PACKED_BITS] = { 0 };

          memcpy (last, (const guint8 *) values + r * size, in_word * size);
          word = pack_word (last, size, r, per_word, bits, exceptions, &n_exc);
        }
      else
        word = pack_word ((const guint8 *) values + r * size, size, r, per_word, bits, exceptions, &n_exc);
      /* filled <= 7 and a word's bits <= 56: the sum fits in 64 bits. */
      acc |= word << filled;
      filled += in_word * bits;
      le = GUINT64_TO_LE (acc);
      memcpy (p, &le, 8);
      p += filled >> 3;
      acc >>= filled & ~7u;
      filled &= 7;
    }
  if (exceptions != NULL)
    *n_exc_out = n_exc;
  /* The last, partial byte was stored with the word before. */
  return p + (filled > 0);
}

/* pack_rows() for widths known when compiling, the words' rows unrolled:
 * dictionaries take up to 8 bits a row, packed columns mostly up to 20
 * (a timestamp's difference, a slice's duration).  @exceptions has room
 * for 2 @n (the last word's padding rows are listed, then overwritten). */
static guint8 *
pack_any (guint8        *p,
          const guint64 *values,
          guint          n,
          guint          bits,
          guint32       *exceptions,
          guint         *n_exc)
{
#define WIDTH(b) case b: return pack_rows (p, values, sizeof (guint64), n, b, exceptions, n_exc);
  switch (bits)
    {
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    WIDTH (8) WIDTH (9) WIDTH (10) WIDTH (11) WIDTH (12) WIDTH (13) WIDTH (14)
    WIDTH (15) WIDTH (16) WIDTH (17) WIDTH (18) WIDTH (19) WIDTH (20)
    default:
      return pack_rows (p, values, sizeof (guint64), n, bits, exceptions, n_exc);
    }
#undef WIDTH
}

/* Packs a dictionary's rows: positions of 16 bits, in 0 to
 * DICT_POSITION_BITS bits. */
static guint8 *
pack_indexes (guint8        *p,
              const guint16 *indexes,
              guint          n,
              guint          bits)
{
#define WIDTH(b) case b: return pack_rows (p, indexes, sizeof (guint16), n, b, NULL, NULL);
  switch (bits)
    {
    case 0:
      return p;
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    WIDTH (8) WIDTH (9)
    default:
      return pack_rows (p, indexes, sizeof (guint16), n, bits, NULL, NULL);
    }
#undef WIDTH
}

/* Packs a column's numbers in @bits bits (0..MAX_PACKED_BITS) and lists
 * its exceptions, the rows of more than @bits bits, and counts them in
 * *@n_exc. */
static guint8 *
pack_patched (guint8        *p,
              const guint64 *values,
              guint          n,
              guint          bits,
              guint32       *exceptions,
              guint         *n_exc_out)
{
  if (bits == 0)
    {
      /* No bits to pack, and the rows that are not zero are few (a pid
       * column's differences): eight rows are tested at once. */
      guint n_exc = 0, r = 0;

      for (; r + 8 <= n; r += 8)
        if (G_UNLIKELY ((values[r] | values[r + 1] | values[r + 2] | values[r + 3] |
                         values[r + 4] | values[r + 5] | values[r + 6] | values[r + 7]) != 0))
          for (guint k = r; k < r + 8; k++)
            {
              exceptions[n_exc] = k;
              n_exc += values[k] != 0;
            }
      for (; r < n; r++)
        {
          exceptions[n_exc] = r;
          n_exc += values[r] != 0;
        }
      *n_exc_out = n_exc;
      return p;
    }
  return pack_any (p, values, n, bits, exceptions, n_exc_out);
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

/* Counting ----------------------------------------------------------------- */

/* Writes the zigzag of each of @n values of @column (of its difference to
 * the row before when @delta) to @values, and counts their bit lengths into @hist, in four lanes that
 * rows take in turn: rows of one length would otherwise wait on each
 * other's increment of the same counter.  Modulo 2^64: a damaged
 * recording's timestamps can be further apart than a gint64 holds;
 * decoding adds back the same way, so the values come back exactly. */
G_ALWAYS_INLINE static inline void
zigzag_count_mode (const gint64 *column,
                   gboolean      delta,
                   guint         n,
                   guint64      *values,
                   guint32     (*hist)[HIST_LENGTHS])
{
  guint64 prev = 0;
  guint r = 0;

  for (; r + 4 <= n; r += 4)
    {
      guint64 x0 = column[r], x1 = column[r + 1], x2 = column[r + 2], x3 = column[r + 3];
      guint64 v0 = _cs_chunk_zigzag ((gint64) (x0 - prev));
      guint64 v1 = _cs_chunk_zigzag ((gint64) (x1 - (delta ? x0 : 0)));
      guint64 v2 = _cs_chunk_zigzag ((gint64) (x2 - (delta ? x1 : 0)));
      guint64 v3 = _cs_chunk_zigzag ((gint64) (x3 - (delta ? x2 : 0)));

      /* The column comes from the scanner's thread, likely not in this
       * core's caches: fetch ahead of the loop's dependent work. */
      __builtin_prefetch (column + r + 128);
      prev = delta ? x3 : 0;
      values[r] = v0;
      values[r + 1] = v1;
      values[r + 2] = v2;
      values[r + 3] = v3;
      hist[0][bit_length (v0)]++;
      hist[1][bit_length (v1)]++;
      hist[2][bit_length (v2)]++;
      hist[3][bit_length (v3)]++;
    }
  for (; r < n; r++)
    {
      values[r] = _cs_chunk_zigzag ((gint64) ((guint64) column[r] - prev));
      prev = delta ? (guint64) column[r] : 0;
      hist[0][bit_length (values[r])]++;
    }
}

static void
zigzag_count (const gint64 *column,
              gboolean      delta,
              guint         n,
              guint64      *values,
              guint32     (*hist)[HIST_LENGTHS])
{
  if (delta)
    zigzag_count_mode (column, TRUE, n, values, hist);
  else
    zigzag_count_mode (column, FALSE, n, values, hist);
}

/* Writes the numbers of the @n rows of @column to @values, as
 * zigzag_count() does, without counting them. */
static void
zigzag_rows (const gint64 *column,
             gboolean      delta,
             guint         n,
             guint64      *values)
{
  guint64 prev = 0;

  for (guint r = 0; r < n; r++)
    {
      values[r] = _cs_chunk_zigzag ((gint64) ((guint64) column[r] - prev));
      prev = delta ? (guint64) column[r] : 0;
    }
}

/* Dictionaries ------------------------------------------------------------- */

/* Starts a dictionary: a slot is in use when its stamp is this
 * generation, so no table is cleared a column.  Returns the stamp: the
 * generation above a position's bits, as slots hold it. */
static guint32
dict_begin (CsChunkDict *d)
{
  if (++d->generation == 1u << (32 - DICT_POSITION_BITS))
    {
      memset (d->slots, 0, sizeof d->slots);
      memset (d->direct, 0, sizeof d->direct);
      d->generation = 1;
    }
  d->n = 0;
  return d->generation << DICT_POSITION_BITS;
}

/* Adds @v, which dict_index() did not find, to the dictionary and stamps
 * @slot with its position: that position, or MAX_DICT when the
 * dictionary is full. */
static guint
dict_add (CsChunkDict *d,
          guint32      stamp,
          guint64      v,
          guint32     *slot)
{
  guint i = d->n;

  if (i == MAX_DICT)
    return MAX_DICT;
  *slot = stamp | i;
  d->values[d->n++] = v;
  return i;
}

/* @v's position in the dictionary, added in the order numbers first
 * occur, or MAX_DICT when it is not there and the dictionary is full.
 * Numbers below 2^CS_CHUNK_DICT_DIRECT_BITS (event types, record sizes, a
 * pid column's zero differences: most rows) are their own slot in a
 * direct table; larger ones (a timestamp's difference) are hashed, with
 * linear probing.  A slot holds its stamp and the position in one word:
 * XORed with this column's stamp, a position is left only where the slot
 * is this column's. */
G_ALWAYS_INLINE static inline guint
dict_index (CsChunkDict *d,
            guint32      stamp,
            guint64      v)
{
  guint s;

  if (G_LIKELY (v < DIRECT_LIMIT))
    {
      guint32 i = d->direct[v] ^ stamp;

      return G_LIKELY (i < MAX_DICT) ? i : dict_add (d, stamp, v, &d->direct[v]);
    }
  s = (guint) ((v * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - DICT_SLOT_BITS));
  for (;;)
    {
      guint32 i = d->slots[s] ^ stamp;

      if (i >= MAX_DICT)
        {
          d->keys[s] = v;
          return dict_add (d, stamp, v, &d->slots[s]);
        }
      if (G_LIKELY (d->keys[s] == v))
        return i;
      s = (s + 1) & (DICT_SLOTS - 1);
    }
}

/* Builds the dictionary of @n rows and writes each row's position in it to
 * @indexes, in one pass: from the column itself (the zigzag of each of its
 * values, or of their differences when @delta) when @values is %NULL,
 * else from the numbers there.  Returns the row at which the dictionary
 * overflowed, or @n. */
G_ALWAYS_INLINE static inline guint
dict_rows_mode (CsChunkDict   *d,
                const gint64  *column,
                const guint64 *values,
                gboolean       delta,
                guint          n,
                guint16       *indexes)
{
  guint32 stamp = dict_begin (d);
  guint64 prev = 0;
  guint r = 0;

#define ROW(k) \
  G_STMT_START { \
    guint64 v, i; \
    if (values != NULL) \
      v = values[r + k]; \
    else \
      { \
        guint64 x = (guint64) column[r + k]; \
        v = _cs_chunk_zigzag ((gint64) (x - prev)); \
        prev = delta ? x : 0; \
      } \
    i = dict_index (d, stamp, v); \
    if (G_UNLIKELY (i == MAX_DICT)) \
      return r + k; \
    indexes[r + k] = (guint16) i; \
  } G_STMT_END
  for (; r + 4 <= n; r += 4)
    {
      /* The column comes from the scanner's thread, likely not in this
       * core's caches: fetch ahead of the lookups. */
      if (values == NULL)
        __builtin_prefetch (column + r + 128);
      ROW (0);
      ROW (1);
      ROW (2);
      ROW (3);
    }
  for (; r < n; r++)
    ROW (0);
#undef ROW
  return n;
}

static guint
dict_rows (CsChunkDict   *d,
           const gint64  *column,
           const guint64 *values,
           gboolean       delta,
           guint          n,
           guint16       *indexes)
{
  if (values != NULL)
    return dict_rows_mode (d, NULL, values, FALSE, n, indexes);
  return delta ? dict_rows_mode (d, column, NULL, TRUE, n, indexes)
               : dict_rows_mode (d, column, NULL, FALSE, n, indexes);
}

/* The size of the dictionary's body d holds, for @n rows. */
static gsize
dict_body_size (const CsChunkDict *d,
                guint              n)
{
  gsize size = varint_size (d->n) + ((gsize) n * bit_length (d->n - 1) + 7) / 8;

  for (guint i = 0; i < d->n; i++)
    size += varint_size (d->values[i]);
  return size;
}

/* Choosing ----------------------------------------------------------------- */

/* The b of the smallest packed body of @n numbers whose bit lengths
 * @hist counts (0 to 64; @max_length the largest that occurs), and that
 * body's size in *@size.  Every b is weighed at once from two running
 * sums: the rows of more than b bits (each an exception: its distance,
 * about a byte, and its bits above b, a varint), and the bytes of those
 * bits above b, sum over l > b of ceil ((l - b) / 7) rows of l bits,
 * which is above[b] + above[b + 7] + ...: a varint byte for each 7 bits
 * a row has past b. */
static guint
best_packing (const guint32 *hist,
              guint          n,
              guint          max_length,
              gsize         *size)
{
  guint64 above[65 + 7], high[65 + 7];
  guint best_bits = 0;

  memset (above + 64, 0, 8 * sizeof above[0]);
  memset (high + 64, 0, 8 * sizeof high[0]);
  for (gint b = 63; b >= 0; b--)
    {
      above[b] = above[b + 1] + hist[b + 1];
      high[b] = above[b] + high[b + 7];
    }
  *size = G_MAXSIZE;
  for (guint b = 0; b <= MIN (max_length, MAX_PACKED_BITS); b++)
    {
      gsize n_exc = above[b];
      gsize s = 1 + ((gsize) n * b + 7) / 8 + n_exc + high[b] + varint_size (n_exc);

      /* Rare exceptions are far apart: their distances take two bytes. */
      if (n_exc != 0 && n_exc < n / 128)
        s += n_exc;
      if (s < *size)
        {
          *size = s;
          best_bits = b;
        }
    }
  return best_bits;
}

/* Weighs every form for a column of @n >= SMALL_COLUMN rows (see
 * _cs_chunk_column_encode()): makes its numbers in @values, and a
 * dictionary in @d with each row's position in @indexes where it is tried
 * (not with @d %NULL: it overflowed already).  Returns the smallest form,
 * with its b in *@bits when packed, and keeps both in @hint for the
 * chunks after. */
static guint
weigh (const gint64      *column,
       gboolean           delta,
       guint              n,
       CsChunkDict       *d,
       guint64           *values,
       guint16           *indexes,
       CsChunkColumnHint *hint,
       guint             *bits)
{
  guint32 hist[4][HIST_LENGTHS];
  gsize varints = 0, packed;
  guint max_length = 0, tag;

  memset (hist, 0, sizeof hist);
  zigzag_count (column, delta, n, values, hist);
  for (guint l = 0; l < HIST_LENGTHS; l++)
    hist[0][l] += hist[1][l] + hist[2][l] + hist[3][l];
  for (guint l = 0; l <= 64; l++)
    if (hist[0][l] != 0)
      {
        varints += (gsize) hist[0][l] * (l > 7 ? 1 + (l - 1) / 7 : 1);
        max_length = l;
      }
  *bits = best_packing (hist[0], n, max_length, &packed);
  tag = varints <= packed ? COLUMN_VARINTS : COLUMN_PACKED;
  /* A dictionary takes at least a bit a row plus its numbers: only worth
   * trying where packing needs a few bits a row. */
  if (*bits >= 3 && d != NULL &&
      dict_rows (d, NULL, values, FALSE, n, indexes) == n &&
      dict_body_size (d, n) < MIN (varints, packed))
    tag = COLUMN_DICT;
  hint->form = tag;
  hint->bits = *bits;
  hint->left = REWEIGH - 1;
  return tag;
}

/**
 * _cs_chunk_column_encode:
 * @p: where the column goes: room for _cs_chunk_column_bound (@n) bytes
 * @column: (array length=n): the column's values
 * @delta: store the differences of @column's values to the row before
 *   (CS_CHUNK_DELTA), else the values
 * @n: how many, >= 1
 * @d: (out caller-allocates): scratch for the dictionary
 * @values: (array length=n): scratch for the numbers (the zigzag of the
 *   values or of their differences)
 * @scratch: (array length=n): scratch for the rows' dictionary positions,
 *   or a packed column's exceptions
 * @hint: (inout): what the same column of the chunks before took (the
 *   caller keeps it per column; zeros at first)
 *
 * Writes the column in one of the forms of the file comment.  Weighing
 * every form takes a histogram of the numbers' bit lengths (which sizes
 * the varints and every packing at once) and, where packing needs 3 bits
 * a row or more, a dictionary (up to MAX_DICT numbers), and writes the
 * smallest.  A column's form seldom changes from chunk to chunk, so it is
 * weighed once every REWEIGH chunks (and when a dictionary overflows);
 * the chunks between take the form @hint tells outright: a dictionary
 * is then built in the pass that makes the numbers, with no histogram,
 * and a packed column is not tried as a dictionary.
 *
 * Returns: the byte after it
 */
guint8 *
_cs_chunk_column_encode (guint8            *p,
                         const gint64      *column,
                         gboolean           delta,
                         guint              n,
                         CsChunkDict       *d,
                         guint64           *values,
                         guint64           *scratch,
                         CsChunkColumnHint *hint)
{
  guint16 *indexes = (guint16 *) scratch;
  guint32 *exceptions = (guint32 *) scratch;
  guint tag, bits = 0, n_exc = 0;
  guint8 *body, *q;

  /* A few rows (a task's chunk, say) are not worth the choosing: their
   * headers would eat what packing saves. */
  if (n < SMALL_COLUMN)
    {
      zigzag_rows (column, delta, n, values);
      tag = COLUMN_VARINTS;
    }
  else if (hint->left == 0)
    tag = weigh (column, delta, n, d, values, indexes, hint, &bits);
  else if (hint->form == COLUMN_DICT)
    {
      hint->left--;
      tag = COLUMN_DICT;
      /* More distinct numbers than a dictionary holds: weigh the others. */
      if (dict_rows (d, column, NULL, delta, n, indexes) < n)
        tag = weigh (column, delta, n, NULL, values, indexes, hint, &bits);
    }
  else
    {
      hint->left--;
      tag = hint->form;
      bits = hint->bits;
      zigzag_rows (column, delta, n, values);
    }

  /* The body goes after room for its size, then moves up to it. */
  *p++ = (guint8) tag;
  body = q = p + 5;
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
      q = pack_indexes (q, indexes, n, bit_length (d->n - 1));
      break;
    default:
      {
        /* The count of exceptions goes first, known once they are
         * packed: they are packed after room for it, then moved. */
        guint8 *packed = q + 1 + 5, *packed_end;
        guint last = 0;

        packed_end = pack_patched (packed, values, n, bits, exceptions, &n_exc);
        *q++ = (guint8) bits;
        q = _cs_chunk_put_varint (q, n_exc);
        memmove (q, packed, packed_end - packed);
        q += packed_end - packed;
        for (guint i = 0; i < n_exc; i++)
          {
            guint r = exceptions[i];

            q = _cs_chunk_put_varint (q, r - last);
            q = _cs_chunk_put_varint (q, values[r] >> bits);
            last = r;
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

/* Reads a dictionary's count at *@pp (a COLUMN_DICT body), then its
 * numbers into @values when there are at most @max_values of them. */
static gboolean
dict_read (const guint8 **pp,
           const guint8  *body_end,
           guint64       *values,
           guint          max_values,
           guint64       *k)
{
  if (!_cs_chunk_get_varint (pp, body_end, k) || *k == 0 || *k > MAX_DICT)
    return FALSE;
  if (*k > max_values)
    return TRUE;
  for (guint i = 0; i < *k; i++)
    if (!_cs_chunk_get_varint (pp, body_end, &values[i]))
      return FALSE;
  return TRUE;
}

/**
 * _cs_chunk_column_get_dict:
 * @pp: (inout): the column's tag; moved past the column
 * @end: the end of the blob
 * @values: (out caller-allocates) (array length=max_values): the column's
 *   distinct numbers, when it is a dictionary of at most @max_values
 * @max_values: room in @values
 * @n_values: (out): how many, 0 when the column is not a dictionary or a
 *   larger one
 *
 * Reads a dictionary column's header only: what numbers its rows take,
 * without unpacking the rows.  Other forms, and dictionaries of more than
 * @max_values numbers, are walked over (@n_values 0: the caller must
 * decode them to know).
 *
 * Returns: %FALSE when the column is damaged
 */
gboolean
_cs_chunk_column_get_dict (const guint8 **pp,
                           const guint8  *end,
                           guint64       *values,
                           guint          max_values,
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
  if (!dict_read (&p, body_end, values, max_values, &k))
    return FALSE;
  if (k <= max_values)
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

        if (!dict_read (&p, body_end, values, MAX_DICT, &k))
          return FALSE;
        bits = bit_length (k - 1);
        packed = ((gsize) n * bits + 7) / 8;
        if (packed != (gsize) (body_end - p))
          return FALSE;
        unpack (p, packed, n, bits, out);
        /* A position reads below 2^bits <= 2 k: the slots past k are
         * zeros, and a damaged position found once at the end, so
         * that the loop has no branch. */
        memset (values + k, 0, ((G_GUINT64_CONSTANT (1) << bits) - k) * sizeof values[0]);
        {
          guint64 bad = 0;

          for (guint r = 0; r < n; r++)
            {
              bad |= out[r] >= k;
              out[r] = values[out[r]];
            }
          return bad == 0;
        }
      }

    default:
      return FALSE;
    }
}
