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
/* Numbers below this are their own slot of a dictionary's direct table. */
#define DIRECT_LIMIT (G_GUINT64_CONSTANT (1) << CS_CHUNK_DICT_DIRECT_BITS)
/* A position in a dictionary is kept in a byte. */
G_STATIC_ASSERT (MAX_DICT <= 256);
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
           gboolean       bytes,
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
      guint64 v = bytes ? ((const guint8 *) at)[k] : ((const guint64 *) at)[k];

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
 * @bits bits are listed there (room for @n), without a branch a row. */
G_ALWAYS_INLINE static inline guint8 *
pack_rows (guint8        *p,
           gconstpointer  values,
           gboolean       bytes,
           guint          n,
           guint          bits,
           guint32       *exceptions)
{
  gsize size = bytes ? 1 : sizeof (guint64);
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
          word = pack_word (last, bytes, r, per_word, bits, exceptions, &n_exc);
        }
      else
        word = pack_word ((const guint8 *) values + r * size, bytes, r, per_word, bits, exceptions, &n_exc);
      /* filled <= 7 and a word's bits <= 56: the sum fits in 64 bits. */
      acc |= word << filled;
      filled += in_word * bits;
      le = GUINT64_TO_LE (acc);
      memcpy (p, &le, 8);
      p += filled >> 3;
      acc >>= filled & ~7u;
      filled &= 7;
    }
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
          guint32       *exceptions)
{
#define WIDTH(b) case b: return pack_rows (p, values, FALSE, n, b, exceptions);
  switch (bits)
    {
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    WIDTH (8) WIDTH (9) WIDTH (10) WIDTH (11) WIDTH (12) WIDTH (13) WIDTH (14)
    WIDTH (15) WIDTH (16) WIDTH (17) WIDTH (18) WIDTH (19) WIDTH (20)
    default:
      return pack_rows (p, values, FALSE, n, bits, exceptions);
    }
#undef WIDTH
}

/* Packs a dictionary's rows: positions of a byte, in 0 to 8 bits. */
static guint8 *
pack_indexes (guint8       *p,
              const guint8 *indexes,
              guint         n,
              guint         bits)
{
#define WIDTH(b) case b: return pack_rows (p, indexes, TRUE, n, b, NULL);
  switch (bits)
    {
    case 0:
      return p;
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    default:
      return pack_rows (p, indexes, TRUE, n, bits, NULL);
    }
#undef WIDTH
}

/* Packs a column's numbers in @bits bits (0..MAX_PACKED_BITS) and lists
 * its exceptions: the rows of more than @bits bits. */
static guint8 *
pack_patched (guint8        *p,
              const guint64 *values,
              guint          n,
              guint          bits,
              guint32       *exceptions)
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
      return p;
    }
  return pack_any (p, values, n, bits, exceptions);
}

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

/* unpack() for one width known when compiled: eight rows take @bits
 * bytes exactly, so within a group of eight each row's byte and shift
 * are constants and the loads are independent.  Every read of the index
 * decodes chunks (a scan, a pass, an explanation); with the lookup below
 * this took an event chunk of the large benchmark recording from 6.8 to
 * 4.3 ns a row, a slice chunk from 9.1 to 5.1 (tests/bench/bench-decode). */
G_ALWAYS_INLINE static inline void
unpack_width (const guint8 *in,
              gsize         in_size,
              guint         n_safe,
              guint         n,
              guint         bits,
              guint64      *out)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
  guint r = 0;

  for (; r + 8 <= n_safe; r += 8)
    {
      const guint8 *group = in + (gsize) (r / 8) * bits;

#pragma GCC unroll 8
      for (guint k = 0; k < 8; k++)
        {
          guint64 word;

          memcpy (&word, group + (k * bits) / 8, 8);
          out[r + k] = (GUINT64_FROM_LE (word) >> ((k * bits) & 7)) & mask;
        }
    }
  unpack_rows (in, in_size, r, n_safe, n, bits, out);
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

/* A dictionary's rows: each row's index (@bits bits, 1..8, packed as
 * unpack() reads them) looked up in @values as it is unpacked, rather
 * than unpacked to @out and read back (the lookup loop was a quarter of
 * decoding an event chunk).  Returns the largest index met, for the
 * caller to refuse one past the dictionary without a branch a row. */
G_ALWAYS_INLINE static inline guint64
unpack_lookup_width (const guint8  *in,
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
          guint64 word, i;

          memcpy (&word, group + (k * bits) / 8, 8);
          i = (GUINT64_FROM_LE (word) >> ((k * bits) & 7)) & mask;
          top = MAX (top, i);
          out[r + k] = values[i];
        }
    }
  if (r < n)
    {
      unpack_rows (in, in_size, r, n_safe, n, bits, out);
      for (; r < n; r++)
        {
          top = MAX (top, out[r]);
          out[r] = values[out[r] & mask];
        }
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
#define WIDTH(b) case b: unpack_width (in, in_size, n_safe, n, b, out); return;
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

#define WIDTH(b) case b: return unpack_lookup_width (in, in_size, n_safe, n, b, values, out);
  switch (bits)
    {
    WIDTH (1) WIDTH (2) WIDTH (3) WIDTH (4) WIDTH (5) WIDTH (6) WIDTH (7)
    default:
      return unpack_lookup_width (in, in_size, n_safe, n, 8, values, out);
    }
#undef WIDTH
}

/* Counting ----------------------------------------------------------------- */

/* Writes the zigzag of each of @n values of @column (of its difference to
 * the row before when @delta, @prev the value before the first) to
 * @values, and counts their bit lengths into @hist, in four lanes that
 * rows take in turn: rows of one length would otherwise wait on each
 * other's increment of the same counter.  Modulo 2^64: a damaged
 * recording's timestamps can be further apart than a gint64 holds;
 * decoding adds back the same way, so the values come back exactly. */
G_ALWAYS_INLINE static inline void
zigzag_count_mode (const gint64 *column,
                   gboolean      delta,
                   guint64       prev,
                   guint         n,
                   guint64      *values,
                   guint32     (*hist)[HIST_LENGTHS])
{
  guint r = 0;

  if (!delta)
    prev = 0;
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
              guint64       prev,
              guint         n,
              guint64      *values,
              guint32     (*hist)[HIST_LENGTHS])
{
  if (delta)
    zigzag_count_mode (column, TRUE, prev, n, values, hist);
  else
    zigzag_count_mode (column, FALSE, prev, n, values, hist);
}

/* Dictionaries ------------------------------------------------------------- */

static inline guint
dict_slot (const CsChunkDict *d, guint64 v)
{
  guint s = (guint) ((v * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 55) & (DICT_SLOTS - 1);

  while (d->stamp[s] == d->generation && d->keys[s] != v)
    s = (s + 1) & (DICT_SLOTS - 1);
  return s;
}

/* Starts a dictionary: a slot is in use when its stamp is this
 * generation, so no table is cleared a column.  Returns the stamp of
 * direct slots: the generation above the index's byte. */
static guint32
dict_begin (CsChunkDict *d)
{
  if (++d->generation == 1u << 24)
    {
      memset (d->stamp, 0, sizeof d->stamp);
      memset (d->direct, 0, sizeof d->direct);
      d->generation = 1;
    }
  d->n = 0;
  return d->generation << 8;
}

/* Adds @v, which dict_index() did not find, to the dictionary: its
 * position, or MAX_DICT when the dictionary is full. */
static guint
dict_add (CsChunkDict *d,
          guint64      v)
{
  guint i = d->n;

  if (i == MAX_DICT)
    return MAX_DICT;
  if (v < DIRECT_LIMIT)
    d->direct[v] = d->generation << 8 | i;
  else
    {
      guint s = dict_slot (d, v);

      d->stamp[s] = d->generation;
      d->keys[s] = v;
      d->index[s] = (guint8) i;
    }
  d->values[d->n++] = v;
  return i;
}

/* @v's position in the dictionary, added in the order numbers first
 * occur, or MAX_DICT when it is not there and the dictionary is full.
 * Numbers below 2^CS_CHUNK_DICT_DIRECT_BITS (event types, record sizes, a
 * pid column's zero differences: most rows) are their own slot in a
 * direct table, which holds the stamp and the index in one word (one load
 * a row); larger ones are hashed. */
G_ALWAYS_INLINE static inline guint
dict_index (CsChunkDict *d,
            guint32      stamp,
            guint64      v)
{
  if (G_LIKELY (v < DIRECT_LIMIT))
    {
      guint32 i = d->direct[v] ^ stamp;

      return G_LIKELY (i < 256) ? i : dict_add (d, v);
    }
  else
    {
      guint s = dict_slot (d, v);

      return d->stamp[s] == d->generation ? d->index[s] : dict_add (d, v);
    }
}

/* The distinct numbers of @values, and each row's position among them in
 * @indexes, in the order they first occur, or FALSE when there are more
 * than MAX_DICT. */
static gboolean
dict_build (CsChunkDict   *d,
            const guint64 *values,
            guint          n,
            guint8        *indexes)
{
  guint32 stamp = dict_begin (d);

  for (guint r = 0; r < n; r++)
    {
      guint i = dict_index (d, stamp, values[r]);

      if (i == MAX_DICT)
        return FALSE;
      indexes[r] = (guint8) i;
    }
  return TRUE;
}

/* One row of dict_first(), counted in @lane: FALSE when the dictionary
 * overflows at it. */
G_ALWAYS_INLINE static inline gboolean
dict_first_row (CsChunkDict *d,
                guint32      stamp,
                guint64      v,
                guint        r,
                guint        lane,
                guint8      *indexes)
{
  guint i = dict_index (d, stamp, v);

  if (G_UNLIKELY (i == MAX_DICT))
    return FALSE;
  indexes[r] = (guint8) i;
  d->counts[lane][i]++;
  return TRUE;
}

/* Like zigzag_count() and dict_build() in one pass, for a column that
 * likely is a dictionary: it counts the rows of each distinct number
 * (d->counts, in four lanes as zigzag_count() does) instead of each bit
 * length, and keeps the numbers only in the dictionary (zigzag_rows()
 * makes them where another form wins).  Returns the row at which the
 * dictionary overflowed, or @n; rows from there on are not read. */
G_ALWAYS_INLINE static inline guint
dict_first_mode (CsChunkDict  *d,
                 const gint64 *column,
                 gboolean      delta,
                 guint         n,
                 guint8       *indexes)
{
  guint32 stamp = dict_begin (d);
  guint64 prev = 0;
  guint r = 0;

#define ROW(k) \
  G_STMT_START { \
    guint64 x = (guint64) column[r + k]; \
    if (!dict_first_row (d, stamp, _cs_chunk_zigzag ((gint64) (x - prev)), r + k, k, indexes)) \
      return r + k; \
    prev = delta ? x : 0; \
  } G_STMT_END
  for (; r + 4 <= n; r += 4)
    {
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
dict_first (CsChunkDict  *d,
            const gint64 *column,
            gboolean      delta,
            guint         n,
            guint8       *indexes)
{
  return delta ? dict_first_mode (d, column, TRUE, n, indexes)
               : dict_first_mode (d, column, FALSE, n, indexes);
}

/* Writes the numbers of the first @n rows of @column to @values, as
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

/* Adds the rows dict_first() counted to @hist by their numbers' bit
 * lengths, and clears its counts for the next column. */
static void
dict_counts_to_hist (CsChunkDict *d,
                     guint32     *hist)
{
  for (guint i = 0; i < d->n; i++)
    {
      hist[bit_length (d->values[i])] += d->counts[0][i] + d->counts[1][i] +
                                         d->counts[2][i] + d->counts[3][i];
      d->counts[0][i] = d->counts[1][i] = d->counts[2][i] = d->counts[3][i] = 0;
    }
}

/* Choosing ----------------------------------------------------------------- */

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
 * @column: (array length=n): the column's values
 * @delta: store the differences of @column's values to the row before
 *   (CS_CHUNK_DELTA), else the values
 * @n: how many, >= 1
 * @d: (out caller-allocates): scratch for the dictionary
 * @values: (array length=n): scratch for the numbers (the zigzag of the
 *   values or of their differences)
 * @scratch: (array length=n): scratch for the rows' dictionary indexes,
 *   or a packed column's exceptions
 * @dict_hint: (inout): whether the column is likely to weigh a
 *   dictionary, as it did in its chunk before (the caller keeps it per
 *   column; %TRUE at first); set to whether this one did
 *
 * Writes the column in its smallest form (see the file comment).  The
 * form is chosen from a histogram of the numbers' bit lengths, and a
 * dictionary is weighed when packing needs 3 bits a row or more.  Where
 * @dict_hint tells that it will be, the dictionary is built first, in the
 * pass that makes the numbers, and the histogram is taken from its
 * distinct numbers (or from the rows after it overflowed): a pass less
 * than counting every row then building the dictionary.  The hint only
 * orders the work: the form written is the same either way.
 *
 * Returns: the byte after it
 */
guint8 *
_cs_chunk_column_encode (guint8       *p,
                         const gint64 *column,
                         gboolean      delta,
                         guint         n,
                         CsChunkDict  *d,
                         guint64      *values,
                         guint64      *scratch,
                         gboolean     *dict_hint)
{
  guint32 hist[4][HIST_LENGTHS];
  guint lengths[65], counts[65], n_lengths = 0, max_length = 0;
  gsize varints = 0, best_packed = G_MAXSIZE, dict_size = G_MAXSIZE;
  guint best_bits = 0, dict_bits = 0, tag;
  gboolean dict_ok = FALSE, dict_tried = FALSE;
  guint unmade = 0;   /* rows from 0 whose numbers are not in @values yet */
  guint8 *body;

  /* A few rows (a task's chunk, say) are not worth the choosing: their
   * headers would eat what packing saves. */
  if (n < SMALL_COLUMN)
    {
      memset (hist, 0, sizeof hist);
      zigzag_count (column, delta, 0, n, values, hist);
      tag = COLUMN_VARINTS;
      goto write;
    }

  memset (hist, 0, sizeof hist);
  if (*dict_hint)
    {
      guint overflow = dict_first (d, column, delta, n, (guint8 *) scratch);

      unmade = overflow;
      dict_tried = TRUE;
      dict_ok = overflow == n;
      dict_counts_to_hist (d, hist[0]);
      if (!dict_ok)
        zigzag_count (column + overflow, delta, overflow > 0 ? (guint64) column[overflow - 1] : 0,
                      n - overflow, values + overflow, hist);
    }
  else
    zigzag_count (column, delta, 0, n, values, hist);

  for (guint l = 0; l < HIST_LENGTHS; l++)
    hist[0][l] += hist[1][l] + hist[2][l] + hist[3][l];
  for (guint l = 0; l <= 64; l++)
    if (hist[0][l] != 0)
      {
        varints += (gsize) hist[0][l] * (l > 7 ? 1 + (l - 1) / 7 : 1);
        lengths[n_lengths] = l;
        counts[n_lengths++] = hist[0][l];
        max_length = l;
      }
  for (guint bits = 0; bits <= MIN (max_length, MAX_PACKED_BITS); bits++)
    {
      gsize size;

      /* The packed bits alone grow with b: no wider b can win. */
      if (1 + ((gsize) n * bits + 7) / 8 >= best_packed)
        break;
      size = packed_size (lengths, counts, n_lengths, n, bits);
      if (size < best_packed)
        {
          best_packed = size;
          best_bits = bits;
        }
    }
  /* A dictionary takes at least a bit a row plus its numbers: only worth
   * trying where packing needs a few bits a row. */
  *dict_hint = best_bits >= 3;
  if (best_bits >= 3)
    {
      if (!dict_tried)
        dict_ok = dict_build (d, values, n, (guint8 *) scratch);
      if (dict_ok)
        {
          dict_bits = bit_length (d->n - 1);
          dict_size = varint_size (d->n) + ((gsize) n * dict_bits + 7) / 8;
          for (guint i = 0; i < d->n; i++)
            dict_size += varint_size (d->values[i]);
        }
    }

  if (varints <= best_packed && varints <= dict_size)
    tag = COLUMN_VARINTS;
  else if (dict_size < best_packed)
    tag = COLUMN_DICT;
  else
    tag = COLUMN_PACKED;
  if (tag != COLUMN_DICT)
    zigzag_rows (column, delta, unmade, values);

write:
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
        /* The dictionary left each row's index in @scratch. */
        q = pack_indexes (q, (const guint8 *) scratch, n, dict_bits);
        break;
      default:
        {
          guint32 *exceptions = (guint32 *) scratch;
          guint n_exc = 0, last = 0;

          for (guint l = best_bits + 1; l <= 64; l++)
            n_exc += hist[0][l];
          *q++ = (guint8) best_bits;
          q = _cs_chunk_put_varint (q, n_exc);
          q = pack_patched (q, values, n, best_bits, exceptions);
          for (guint i = 0; i < n_exc; i++)
            {
              guint r = exceptions[i];

              q = _cs_chunk_put_varint (q, r - last);
              q = _cs_chunk_put_varint (q, values[r] >> best_bits);
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

static gboolean
decode_column (const guint8 **pp,
               const guint8  *end,
               guint          n,
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
      for (guint r = 0; r < n; r++)
        if (!_cs_chunk_get_varint (&p, body_end, &out[r]))
          return FALSE;
      numbers_to_values (out, n, form);
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
        numbers_to_values (out, n, form);
        return p == body_end;
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
          for (guint r = 0; r < n; r++)
            out[r] = values[0];
        else
          {
            memset (values + k, 0, ((G_GUINT64_CONSTANT (1) << bits) - k) * sizeof values[0]);
            if (unpack_lookup (p, packed, n, bits, values, out) >= k)
              return FALSE;
          }
        if (form == FORM_DELTA)
          numbers_to_values (out, n, form);
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
  return decode_column (pp, end, n, FORM_NUMBERS, out);
}

/**
 * _cs_chunk_column_decode_values:
 * @pp: (inout): the column's tag; moved past the column
 * @end: the end of the blob
 * @n: rows in the chunk
 * @delta: whether the column was encoded as differences to the row
 *   before (%CS_CHUNK_DELTA)
 * @out: (array length=n) (nullable): the values, or %NULL to walk over
 *   the column
 *
 * _cs_chunk_column_decode() with each number made the value it stands
 * for: the zigzag undone and, with @delta, the differences added up
 * (modulo 2^64, as they were taken: cs-chunk-codec.c).  A dictionary's
 * values are made once per distinct number and looked up as the rows
 * are unpacked.
 *
 * Returns: %FALSE when the column does not decode to @n numbers within
 *   @end (a damaged or hostile blob)
 */
gboolean
_cs_chunk_column_decode_values (const guint8 **pp,
                                const guint8  *end,
                                guint          n,
                                gboolean       delta,
                                guint64       *out)
{
  return decode_column (pp, end, n, delta ? FORM_DELTA : FORM_PLAIN, out);
}
