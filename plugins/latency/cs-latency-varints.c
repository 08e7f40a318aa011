/* cs-latency-varints.c: records of numbers as varints of differences.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The latency pass writes sorted numbers: the sorters' runs
 * (cs-latency-sorter.c) and the sorted orders' columns
 * (cs-latency-column.c).  Sorted, each number differs little from the
 * same number of the record before, so each is stored as the zigzag
 * varint (7 bits a byte, low first, the high bit set on all but the
 * last byte) of that difference, the first record's from 0: on the large
 * benchmark recording's wakeups, under a third of the bytes of plain
 * gint64s.
 */
#include "cs-latency-varints.h"

#define MAX_FIELDS 8

static inline guint64
zigzag (gint64 v)
{
  return ((guint64) v << 1) ^ (guint64) (v >> 63);
}

static inline gint64
unzigzag (guint64 v)
{
  return (gint64) (v >> 1) ^ -(gint64) (v & 1);
}

/**
 * cs_latency_varints_encode:
 * @values: (array): @n_records × @n_fields numbers, record after record
 * @n_records: how many records
 * @n_fields: numbers per record, 1 to 8
 * @out: where the bytes go: room for @n_records × @n_fields ×
 *   %CS_LATENCY_VARINT_MAX_BYTES
 *
 * Returns: the bytes written to @out
 */
gsize
cs_latency_varints_encode (const gint64 *values,
                           gsize         n_records,
                           guint         n_fields,
                           guint8       *out)
{
  return cs_latency_varints_encode_strided (values, n_records, n_fields, n_fields, out);
}

/**
 * cs_latency_varints_encode_strided:
 * @values: (array): the first number of the first record
 * @n_records: how many records
 * @n_fields: numbers per record encoded, 1 to 8: the first @n_fields of
 *   each record
 * @stride: numbers from one record to the next in @values, at least
 *   @n_fields
 * @out: where the bytes go: room for @n_records × @n_fields ×
 *   %CS_LATENCY_VARINT_MAX_BYTES
 *
 * Like cs_latency_varints_encode(), for records that hold more numbers
 * than are encoded (a few columns of a wider row); the bytes decode with
 * cs_latency_varints_decode() into records of @n_fields numbers.
 *
 * Returns: the bytes written to @out
 */
gsize
cs_latency_varints_encode_strided (const gint64 *values,
                                   gsize         n_records,
                                   guint         n_fields,
                                   guint         stride,
                                   guint8       *out)
{
  gint64 prev[MAX_FIELDS] = { 0 };
  guint8 *p = out;

  g_return_val_if_fail (n_fields >= 1 && n_fields <= MAX_FIELDS && stride >= n_fields, 0);

  for (gsize r = 0; r < n_records; r++, values += stride)
    for (guint f = 0; f < n_fields; f++)
      {
        guint64 v = zigzag ((gint64) ((guint64) values[f] - (guint64) prev[f]));

        prev[f] = values[f];
        while (v >= 0x80)
          {
            *p++ = (guint8) (v | 0x80);
            v >>= 7;
          }
        *p++ = (guint8) v;
      }
  return (gsize) (p - out);
}

/**
 * cs_latency_varints_decode:
 * @in: (array length=len): bytes cs_latency_varints_encode() wrote
 * @len: their count
 * @max_records: room in @values, in records
 * @n_fields: numbers per record, as encoded (1 to 8)
 * @values: (out) (array): where the records go
 *
 * Decodes every record of @in.
 *
 * Returns: the records decoded, or -1 when @in is not whole records of
 *   varints or holds more than @max_records
 */
gssize
cs_latency_varints_decode (const guint8 *in,
                           gsize         len,
                           gsize         max_records,
                           guint         n_fields,
                           gint64       *values)
{
  const guint8 *end = in + len;
  gint64 prev[MAX_FIELDS] = { 0 };
  gsize r;

  g_return_val_if_fail (n_fields >= 1 && n_fields <= MAX_FIELDS, -1);

  for (r = 0; in < end; r++, values += n_fields)
    {
      if (r == max_records || r > G_MAXSSIZE - 1)
        return -1;
      for (guint f = 0; f < n_fields; f++)
        {
          guint64 v = 0;
          guint shift = 0;

          for (;;)
            {
              if (in == end || shift >= 64)
                return -1;
              v |= (guint64) (*in & 0x7f) << shift;
              shift += 7;
              if ((*in++ & 0x80) == 0)
                break;
            }
          prev[f] = (gint64) ((guint64) prev[f] + (guint64) unzigzag (v));
          values[f] = prev[f];
        }
    }
  return (gssize) r;
}
