/* test-chunk-codec.c: index chunks decode to what was encoded, and damaged
 * blobs are refused with an error instead of crashing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-chunk-codec.h"

#define N_ROWS 3000

static void
roundtrip (gboolean compress)
{
  static const CsChunkColumnMode modes[3] = { CS_CHUNK_DELTA, CS_CHUNK_PLAIN, CS_CHUNK_DELTA };
  g_autofree gint64 *in = g_new (gint64, 3 * N_ROWS);
  g_autofree gint64 *out = g_new0 (gint64, 3 * N_ROWS);
  const gint64 *cols_in[3] = { in, in + N_ROWS, in + 2 * N_ROWS };
  gint64 *cols_out[3] = { out, out + N_ROWS, out + 2 * N_ROWS };
  g_autoptr(GBytes) blob = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  gsize size;
  const guint8 *data;

  for (guint i = 0; i < N_ROWS; i++)
    {
      /* Timestamps near 2^50 ns, going back now and then; pids; extremes. */
      in[i] = G_GINT64_CONSTANT (1) << 50 | (i * 1000 + g_rand_int_range (rand, -500, 500));
      in[N_ROWS + i] = i % 97 == 0 ? G_MININT64 : (i % 89 == 0 ? G_MAXINT64 : g_rand_int (rand));
      in[2 * N_ROWS + i] = (gint64) i * 24;
    }

  blob = cs_chunk_encode (N_ROWS, 3, modes, cols_in, compress);
  data = g_bytes_get_data (blob, &size);
  g_assert_true (cs_chunk_decode (data, size, N_ROWS, 3, modes, cols_out, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (in, 3 * N_ROWS * sizeof (gint64), out, 3 * N_ROWS * sizeof (gint64));

  /* A NULL column is walked over: the others decode as before. */
  {
    g_autofree gint64 *some = g_new0 (gint64, 2 * N_ROWS);
    gint64 *cols_some[3] = { some, NULL, some + N_ROWS };

    g_assert_true (cs_chunk_decode_columns (data, size, N_ROWS, 3, 3, modes, cols_some, N_ROWS,
                                            &error));
    g_assert_no_error (error);
    g_assert_cmpmem (in, N_ROWS * sizeof (gint64), some, N_ROWS * sizeof (gint64));
    g_assert_cmpmem (in + 2 * N_ROWS, N_ROWS * sizeof (gint64), some + N_ROWS,
                     N_ROWS * sizeof (gint64));
    g_assert_false (cs_chunk_decode_columns (data, size, N_ROWS + 1, 3, 3, modes, cols_some,
                                             N_ROWS + 1, &error));
    g_clear_error (&error);
  }

  /* Wrong row count, truncation and flipped bytes: an error, never a crash. */
  g_assert_false (cs_chunk_decode (data, size, N_ROWS + 1, 3, modes, cols_out, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT);
  g_clear_error (&error);
  for (gsize cut = 0; cut < size; cut += 1 + size / 50)
    {
      g_assert_false (cs_chunk_decode (data, cut, N_ROWS, 3, modes, cols_out, &error));
      g_clear_error (&error);
    }
  {
    g_autofree guint8 *bad = g_memdup2 (data, size);
    for (gsize i = 0; i < size; i += 7)
      bad[i] ^= 0xa5;
    cs_chunk_decode (bad, size, N_ROWS, 3, modes, cols_out, NULL);
  }
}

/* Columns that take each of the forms of cs-chunk-column.c: a few
 * distinct numbers (a dictionary), small numbers with rare outliers
 * (patched bit packing), one number repeated (no bits a row), one row. */
static void
test_column_forms (void)
{
  static const CsChunkColumnMode modes[4] = { CS_CHUNK_PLAIN, CS_CHUNK_DELTA, CS_CHUNK_PLAIN, CS_CHUNK_DELTA };
  static const gint64 types[] = { 3, 17, 250, G_GINT64_CONSTANT (1) << 40, -9 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint n_peeked = 0;

  for (guint n = 1; n <= N_ROWS; n = n < 8 ? n + 1 : n * 3)
    for (guint compress = 0; compress <= 1; compress++)
      {
        g_autofree gint64 *in = g_new (gint64, 4 * n);
        g_autofree gint64 *out = g_new0 (gint64, 4 * n);
        const gint64 *cols_in[4] = { in, in + n, in + 2 * n, in + 3 * n };
        gint64 *cols_out[4] = { out, out + n, out + 2 * n, out + 3 * n };
        g_autoptr(GBytes) blob = NULL;
        g_autoptr(GError) error = NULL;
        gint64 ts = 0;
        const guint8 *data;
        gsize size, varints = 0;

        for (guint i = 0; i < n; i++)
          {
            in[i] = types[g_rand_int_range (rand, 0, G_N_ELEMENTS (types))];
            /* An idle gap of seconds every hundred events or so. */
            ts += g_rand_int_range (rand, 0, 100) == 0 ? G_GINT64_CONSTANT (3000000000)
                                                        : g_rand_int_range (rand, 200, 4000);
            in[n + i] = ts;
            in[2 * n + i] = 42;
            in[3 * n + i] = (gint64) i * g_rand_int_range (rand, 16, 64);
          }
        blob = cs_chunk_encode (n, 4, modes, cols_in, compress);
        data = g_bytes_get_data (blob, &size);
        g_assert_true (cs_chunk_decode (data, size, n, 4, modes, cols_out, &error));
        g_assert_no_error (error);
        g_assert_cmpmem (in, 4 * n * sizeof (gint64), out, 4 * n * sizeof (gint64));
        /* The types' dictionary tells which types the chunk holds
         * without decoding it (uncompressed blobs only), and no column
         * that is not a dictionary claims to. */
        {
          gint64 seen[CS_CHUNK_PEEK_MAX];
          guint n_seen;

          if (cs_chunk_peek_values (data, size, n, 0, seen, &n_seen))
            {
              n_peeked++;
              for (guint i = 0; i < n; i++)
                {
                  guint j = 0;

                  while (j < n_seen && seen[j] != in[i])
                    j++;
                  g_assert_cmpuint (j, <, n_seen);
                }
              for (guint j = 0; j < n_seen; j++)
                {
                  guint i = 0;

                  while (i < n && in[i] != seen[j])
                    i++;
                  g_assert_cmpuint (i, <, n);
                }
            }
          else
            g_assert_true (compress || n < 32);
          g_assert_false (cs_chunk_peek_values (data, size, n + 1, 0, seen, &n_seen));
        }
        /* The row count is checked even where no column's size shows it. */
        g_assert_false (cs_chunk_decode (data, size, n + 1, 4, modes, cols_out, NULL));
        if (n > 1)
          g_assert_false (cs_chunk_decode (data, size, n - 1, 4, modes, cols_out, NULL));
        /* Smaller than the varints of schema 5 (a zigzag varint a
         * number), once there are rows enough to pay for the headers. */
        for (guint c = 0; c < 4; c++)
          for (guint i = 0; i < n; i++)
            {
              gint64 v = modes[c] == CS_CHUNK_DELTA && i > 0 ? in[c * n + i] - in[c * n + i - 1] : in[c * n + i];
              guint64 z = ((guint64) v << 1) ^ (guint64) (v >> 63);

              do
                varints++;
              while ((z >>= 7) != 0);
            }
        if (n >= 1000)
          g_assert_cmpuint (size, <, varints * 3 / 4);
      }
  g_assert_cmpuint (n_peeked, >, 0);
}

/* The encoder keeps, per column, whether the chunk before weighed a
 * dictionary, and builds it first where it did (cs-chunk-column.c): that
 * orders its work, never what it writes.  Two chunks whose columns go
 * opposite ways, encoded in turn, each come out the same every time and
 * decode to what went in; among them columns whose dictionary overflows
 * after a few thousand rows, in both modes. */
static void
test_column_hints (void)
{
  static const CsChunkColumnMode modes[4] = { CS_CHUNK_DELTA, CS_CHUNK_PLAIN, CS_CHUNK_DELTA, CS_CHUNK_PLAIN };
  enum { N = 4096 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autofree gint64 *a = g_new (gint64, 4 * N);
  g_autofree gint64 *b = g_new (gint64, 4 * N);
  g_autofree gint64 *out = g_new (gint64, 4 * N);
  gint64 *chunks[2] = { a, b };
  GBytes *first[2] = { NULL, NULL };

  for (guint i = 0; i < N; i++)
    {
      /* a: timestamps of a few distinct gaps, then of many (the
       * dictionary overflows at row ~3000); types of a handful; a pid
       * column of zeros with rare others; offsets of many sizes. */
      a[i] = (i > 0 ? a[i - 1] : 1000) + (i < 3000 ? 100 * g_rand_int_range (rand, 1, 20)
                                                    : g_rand_int_range (rand, 1, 100000));
      a[N + i] = g_rand_int_range (rand, 0, 6);
      a[2 * N + i] = (i > 0 ? a[2 * N + i - 1] : 0) + (g_rand_int_range (rand, 0, 50) == 0 ? g_rand_int (rand) : 0);
      a[3 * N + i] = i < 2500 ? g_rand_int_range (rand, 0, 200) : g_rand_int_range (rand, 0, 1 << 20);
      /* b: each column the other way. */
      b[i] = (i > 0 ? b[i - 1] : 0) + g_rand_int_range (rand, 0, 4);
      b[N + i] = g_rand_int (rand);
      b[2 * N + i] = (i > 0 ? b[2 * N + i - 1] : 0) + 24 * g_rand_int_range (rand, 1, 8);
      b[3 * N + i] = 7;
    }
  for (guint round = 0; round < 3; round++)
    for (guint k = 0; k < 2; k++)
      {
        const gint64 *cols[4] = { chunks[k], chunks[k] + N, chunks[k] + 2 * N, chunks[k] + 3 * N };
        gint64 *cols_out[4] = { out, out + N, out + 2 * N, out + 3 * N };
        g_autoptr(GBytes) blob = cs_chunk_encode (N, 4, modes, cols, FALSE);
        g_autoptr(GError) error = NULL;
        gsize size;
        const guint8 *data = g_bytes_get_data (blob, &size);

        g_assert_true (cs_chunk_decode (data, size, N, 4, modes, cols_out, &error));
        g_assert_no_error (error);
        g_assert_cmpmem (chunks[k], 4 * N * sizeof (gint64), out, 4 * N * sizeof (gint64));
        if (first[k] == NULL)
          first[k] = g_bytes_ref (blob);
        else
          g_assert_true (g_bytes_equal (first[k], blob));
      }
  g_bytes_unref (first[0]);
  g_bytes_unref (first[1]);
}

/* Every width a packed column can take, and dictionaries of every size
 * that changes their indexes' width, in both modes, at row counts that
 * end a group of eight rows and that do not: decoding unpacks a width
 * known when compiled, eight rows at a time (cs-chunk-column.c). */
static void
test_column_widths (void)
{
  static const CsChunkColumnMode modes[2] = { CS_CHUNK_PLAIN, CS_CHUNK_DELTA };
  static const guint counts[] = { 1, 7, 8, 9, 33, 1000, 4096 };
  static const guint dict_sizes[] = { 1, 2, 3, 4, 5, 9, 17, 33, 65, 129, 200, 256 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);

  for (guint ci = 0; ci < G_N_ELEMENTS (counts); ci++)
    {
      guint n = counts[ci];
      g_autofree gint64 *in = g_new (gint64, 2 * n);
      g_autofree gint64 *out = g_new (gint64, 2 * n);
      const gint64 *cols_in[2] = { in, in + n };
      gint64 *cols_out[2] = { out, out + n };

      for (guint round = 0; round < 57 + G_N_ELEMENTS (dict_sizes); round++)
        {
          g_autoptr(GBytes) blob = NULL;
          g_autoptr(GError) error = NULL;
          const guint8 *data;
          gsize size;

          for (guint i = 0; i < n; i++)
            {
              gint64 v;

              if (round < 57)
                {
                  /* Zigzags of @round bits (0 .. 56), of either sign,
                   * few enough alike that no dictionary is made. */
                  guint bits = round;
                  guint64 u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
                  gint64 w = bits <= 1 ? 0 : (gint64) (u & ((G_GUINT64_CONSTANT (1) << (bits - 1)) - 1));

                  v = i % 2 == 0 ? w : -w - (bits >= 1);
                }
              else
                {
                  guint k = dict_sizes[round - 57];

                  v = (gint64) g_rand_int_range (rand, 0, k) * 1000003 - 7;
                }
              in[i] = v;
              /* The delta column: a running sum of the same numbers. */
              in[n + i] = (i > 0 ? in[n + i - 1] : 0) + v;
            }
          blob = cs_chunk_encode (n, 2, modes, cols_in, FALSE);
          data = g_bytes_get_data (blob, &size);
          g_assert_true (cs_chunk_decode (data, size, n, 2, modes, cols_out, &error));
          g_assert_no_error (error);
          g_assert_cmpmem (in, 2 * n * sizeof (gint64), out, 2 * n * sizeof (gint64));
        }
    }
}

/* The first rows of each column decode alone (cs_chunk_decode_columns()),
 * whatever its form: varints (a short column), packed with exceptions
 * before and after the rows read, a dictionary; plain and delta. */
static void
test_first_rows (void)
{
  static const CsChunkColumnMode modes[2] = { CS_CHUNK_PLAIN, CS_CHUNK_DELTA };
  static const guint counts[] = { 20, 1000, 4096 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);

  for (guint ci = 0; ci < G_N_ELEMENTS (counts); ci++)
    for (guint kind = 0; kind < 3; kind++)
      {
        guint n = counts[ci];
        g_autofree gint64 *in = g_new (gint64, 2 * n);
        g_autofree gint64 *out = g_new (gint64, 2 * n);
        const gint64 *cols_in[2] = { in, in + n };
        gint64 *cols_out[2] = { out, out + n };
        const guint limits[] = { 0, 1, 5, 8, 9, 96, 97, 98, n / 2, n - 1, n };
        g_autoptr(GBytes) blob = NULL;
        const guint8 *data;
        gsize size;

        for (guint i = 0; i < n; i++)
          {
            gint64 v;

            if (kind == 0)
              /* Small numbers, an outlier every 97 rows: packed, patched. */
              v = i % 97 == 0 ? (gint64) g_rand_int (rand) << 20 : g_rand_int_range (rand, -9, 9);
            else if (kind == 1)
              v = (gint64) g_rand_int_range (rand, 0, 5) * 1000003;
            else
              v = (gint64) g_rand_int (rand) << g_rand_int_range (rand, 0, 30);
            in[i] = v;
            /* Modulo 2^64, as the codec takes differences. */
            in[n + i] = (gint64) ((i > 0 ? (guint64) in[n + i - 1] : 0) + (guint64) v);
          }
        blob = cs_chunk_encode (n, 2, modes, cols_in, FALSE);
        data = g_bytes_get_data (blob, &size);
        for (guint li = 0; li < G_N_ELEMENTS (limits); li++)
          {
            g_autoptr(GError) error = NULL;
            guint limit = MIN (limits[li], n);

            memset (out, 0x5a, 2 * n * sizeof (gint64));
            g_assert_true (cs_chunk_decode_columns (data, size, n, 2, 2, modes, cols_out, limit,
                                                    &error));
            g_assert_no_error (error);
            g_assert_cmpmem (in, limit * sizeof (gint64), out, limit * sizeof (gint64));
            g_assert_cmpmem (in + n, limit * sizeof (gint64), out + n, limit * sizeof (gint64));
          }
      }
}

/* A dictionary's index past its numbers (a damaged blob) is refused, not
 * looked up. */
static void
test_dict_index_refused (void)
{
  static const CsChunkColumnMode modes[1] = { CS_CHUNK_PLAIN };
  enum { N = 4096 };
  g_autofree gint64 *in = g_new (gint64, N);
  g_autofree gint64 *out = g_new (gint64, N);
  const gint64 *cols_in[1] = { in };
  gint64 *cols_out[1] = { out };
  g_autoptr(GBytes) blob = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *bad = NULL;
  gint64 seen[CS_CHUNK_PEEK_MAX];
  guint n_seen;
  const guint8 *data;
  gsize size;

  /* Three numbers: indexes of two bits, of which 3 is none. */
  for (guint i = 0; i < N; i++)
    in[i] = 10 + i % 3;
  blob = cs_chunk_encode (N, 1, modes, cols_in, FALSE);
  data = g_bytes_get_data (blob, &size);
  g_assert_true (cs_chunk_peek_values (data, size, N, 0, seen, &n_seen));
  g_assert_cmpuint (n_seen, ==, 3);
  g_assert_true (cs_chunk_decode (data, size, N, 1, modes, cols_out, &error));
  g_assert_no_error (error);
  /* The indexes end the blob: the last byte holds the last four rows'. */
  bad = g_memdup2 (data, size);
  bad[size - 1] = 0xff;
  g_assert_false (cs_chunk_decode (bad, size, N, 1, modes, cols_out, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT);
}

static void
test_roundtrip_plain (void)
{
  roundtrip (FALSE);
}

static void
test_roundtrip_zstd (void)
{
  roundtrip (TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cs/index/ChunkCodec/roundtrip-plain", test_roundtrip_plain);
  g_test_add_func ("/cs/index/ChunkCodec/roundtrip-zstd", test_roundtrip_zstd);
  g_test_add_func ("/cs/index/ChunkCodec/column-forms", test_column_forms);
  g_test_add_func ("/cs/index/ChunkCodec/column-hints", test_column_hints);
  g_test_add_func ("/cs/index/ChunkCodec/column-widths", test_column_widths);
  g_test_add_func ("/cs/index/ChunkCodec/dict-index-refused", test_dict_index_refused);
  g_test_add_func ("/cs/index/ChunkCodec/first-rows", test_first_rows);
  return g_test_run ();
}
