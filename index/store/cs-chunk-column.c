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
 * Reading a column back: cs-chunk-column-read.c.
 */
#include "config.h"

#include <string.h>

#include "cs-chunk-column.h"

#define COLUMN_VARINTS CS_CHUNK_COLUMN_VARINTS
#define COLUMN_PACKED CS_CHUNK_COLUMN_PACKED
#define COLUMN_DICT CS_CHUNK_COLUMN_DICT
#define MAX_PACKED_BITS CS_CHUNK_MAX_PACKED_BITS
#define bit_length _cs_chunk_bit_length
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
