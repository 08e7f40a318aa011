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

    g_assert_true (cs_chunk_decode_columns (data, size, N_ROWS, 3, 3, modes, cols_some, &error));
    g_assert_no_error (error);
    g_assert_cmpmem (in, N_ROWS * sizeof (gint64), some, N_ROWS * sizeof (gint64));
    g_assert_cmpmem (in + 2 * N_ROWS, N_ROWS * sizeof (gint64), some + N_ROWS,
                     N_ROWS * sizeof (gint64));
    g_assert_false (cs_chunk_decode_columns (data, size, N_ROWS + 1, 3, 3, modes, cols_some,
                                             &error));
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
        /* The type column's distinct values are listed without decoding
         * when it is a dictionary (not compressed, rows enough to pay
         * for one): those of the rows, no other. */
        {
          gint64 values[CS_CHUNK_MAX_COLUMN_VALUES];
          guint n_values = 0;

          if (cs_chunk_get_column_values (data, size, n, 0, values, &n_values))
            {
              for (guint i = 0; i < n; i++)
                {
                  gboolean listed = FALSE;

                  for (guint k = 0; k < n_values; k++)
                    listed |= values[k] == in[i];
                  g_assert_true (listed);
                }
              for (guint k = 0; k < n_values; k++)
                {
                  gboolean used = FALSE;

                  for (guint i = 0; i < n; i++)
                    used |= values[k] == in[i];
                  g_assert_true (used);
                }
            }
          else
            g_assert_true (compress || n < 100);
          g_assert_false (cs_chunk_get_column_values (data, size, n + 1, 0, values, &n_values));
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
  return g_test_run ();
}
