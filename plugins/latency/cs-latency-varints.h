/* cs-latency-varints.h: records of numbers as varints of differences.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The largest varint is 10 bytes (64 bits in groups of 7). */
#define CS_LATENCY_VARINT_MAX_BYTES 10

gsize  cs_latency_varints_encode (const gint64 *values,
                                  gsize         n_records,
                                  guint         n_fields,
                                  guint8       *out);
gsize  cs_latency_varints_encode_strided (const gint64 *values,
                                          gsize         n_records,
                                          guint         n_fields,
                                          guint         stride,
                                          guint8       *out);
gssize cs_latency_varints_decode (const guint8 *in,
                                  gsize         len,
                                  gsize         max_records,
                                  guint         n_fields,
                                  gint64       *values);

G_END_DECLS
