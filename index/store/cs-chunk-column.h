/* cs-chunk-column.h: one column of a chunk (written by cs-chunk-column.c,
 * read by cs-chunk-column-read.c), for cs-chunk-codec.c only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A column's form, its first byte (cs-chunk-column.c describes them). */
enum {
  CS_CHUNK_COLUMN_VARINTS = 0,
  CS_CHUNK_COLUMN_PACKED = 1,
  CS_CHUNK_COLUMN_DICT = 2,
};

/* Packed numbers are read with one unaligned 64-bit load: b bits at any
 * bit offset 0..7 of a byte must fit in 64. */
#define CS_CHUNK_MAX_PACKED_BITS 56

/* A dictionary holds at most this many distinct numbers, in a hash table
 * of twice as many slots. */
#define CS_CHUNK_DICT_MAX 256
#define CS_CHUNK_DICT_SLOTS 512

/* Numbers below 2^CS_CHUNK_DICT_DIRECT_BITS are their own slot. */
#define CS_CHUNK_DICT_DIRECT_BITS 12

/* The encoder's scratch for a dictionary (~29 KiB: keep one per thread,
 * zeroed at first).  Positions fit a byte: CS_CHUNK_DICT_MAX is 256. */
typedef struct {
  guint64 keys[CS_CHUNK_DICT_SLOTS];
  guint32 stamp[CS_CHUNK_DICT_SLOTS];   /* == generation: the slot is used */
  guint8 index[CS_CHUNK_DICT_SLOTS];    /* its key's position in values */
  /* The same for small numbers, without hashing: the generation above
   * the position's byte. */
  guint32 direct[1 << CS_CHUNK_DICT_DIRECT_BITS];
  guint64 values[CS_CHUNK_DICT_MAX];
  /* Rows of each number, in four lanes (dict_first(): zero between
   * columns). */
  guint32 counts[4][CS_CHUNK_DICT_MAX];
  guint32 generation;
  guint n;
} CsChunkDict;

/* The largest varint is 10 bytes (64 bits in groups of 7). */
#define CS_CHUNK_MAX_VARINT_BYTES 10

/* Without a branch: in a column of zeros and others (a pid column's
 * differences) the branch would often go the wrong way. */
static inline guint
_cs_chunk_bit_length (guint64 v)
{
  return (v != 0) + 63 - __builtin_clzll (v | 1);
}

static inline guint64
_cs_chunk_zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static inline gint64
_cs_chunk_unzigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

static inline guint8 *
_cs_chunk_put_varint (guint8 *p, guint64 v)
{
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

/* FALSE when the varint runs past @end or past 64 bits. */
static inline gboolean
_cs_chunk_get_varint (const guint8 **pp, const guint8 *end, guint64 *out)
{
  const guint8 *p = *pp;
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      if (p >= end)
        return FALSE;
      v |= (guint64) (*p & 0x7f) << shift;
      if ((*p++ & 0x80) == 0)
        {
          *pp = p;
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

gsize     _cs_chunk_column_bound  (guint           n);
guint8   *_cs_chunk_column_encode (guint8         *p,
                                   const gint64   *column,
                                   gboolean        delta,
                                   guint           n,
                                   CsChunkDict    *d,
                                   guint64        *values,
                                   guint64        *scratch,
                                   gboolean       *dict_hint);
gboolean  _cs_chunk_column_decode (const guint8  **pp,
                                   const guint8   *end,
                                   guint           n,
                                   guint64        *out);
gboolean  _cs_chunk_column_decode_values (const guint8  **pp,
                                          const guint8   *end,
                                          guint           n,
                                          guint           limit,
                                          gboolean        delta,
                                          guint64        *out);
gboolean  _cs_chunk_column_get_dict (const guint8  **pp,
                                     const guint8   *end,
                                     guint64        *values,
                                     guint          *n_values);

G_END_DECLS
