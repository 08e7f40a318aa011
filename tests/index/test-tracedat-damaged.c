/* test-tracedat-damaged.c: CsTracedatReader on damaged recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Damaged files (truncations, lying sizes, absurd counts, looping options,
 * corrupt pages, random byte flips), made from the project's recordings in
 * tests/data and from the public ones in $CS_SHARED_TESTDATA, must give a
 * CS_INDEX_ERROR, never a crash, a hang or a huge allocation.  The tests
 * on public recordings skip, saying why, when those are missing.  The page
 * tests need a 32-bit kernel's layout: sched-i686-v6.dat, made in an i386
 * guest, and the public arm32 recording.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cs-tracedat-reader.h"
#include "index-test-util.h"
#include "tracedat-rewrite.h"

/* A ring-buffer padding event's type_len (include/linux/ring_buffer.h). */
#define CS_TEST_RB_TYPE_PADDING 29

static char *
tmp_copy (const char *src, const char *name, gsize truncate_to, guint8 **contents, gsize *len)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize n;
  char *dst = g_build_filename (g_get_user_runtime_dir (), name, NULL);

  g_assert_true (g_file_get_contents (src, &data, &n, &error));
  g_assert_no_error (error);
  if (truncate_to < n)
    n = truncate_to;
  g_assert_true (g_file_set_contents (dst, data, n, &error));
  if (contents != NULL)
    {
      *contents = (guint8 *) g_steal_pointer (&data);
      *len = n;
    }
  return dst;
}

static void
write_file (const char *path, const guint8 *data, gsize len)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, (const char *) data, len, &error));
  g_assert_no_error (error);
}

/* Reads everything it can; returns the number of errors seen.  A bounded
 * number of calls guards against a hang. */
static guint
exercise (CsTracedatReader *reader, GQuark *first_domain, gint *first_code)
{
  guint errors = 0;

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (reader, cpu, &error);
      CsTracedatRecord rec;
      guint64 calls = 0, last_offset = 0;

      if (stream == NULL)
        {
          g_assert_true (error->domain == CS_INDEX_ERROR || error->domain == G_FILE_ERROR);
          if (errors++ == 0 && first_domain != NULL)
            *first_domain = error->domain, *first_code = error->code;
          continue;
        }
      for (;;)
        {
          gboolean ok = cs_tracedat_cpu_next (stream, &rec, &error);

          g_assert_cmpuint (++calls, <, 10000000);
          if (ok)
            {
              /* touch the payload: valgrind/ASan see a bad pointer */
              volatile guint8 sum = 0;
              for (guint i = 0; i < rec.size; i++)
                sum += rec.data[i];
              (void) sum;
              last_offset = rec.offset;
              continue;
            }
          if (error == NULL)
            break;
          g_assert_true (error->domain == CS_INDEX_ERROR || error->domain == G_FILE_ERROR);
          if (errors++ == 0 && first_domain != NULL)
            *first_domain = error->domain, *first_code = error->code;
          g_clear_error (&error);
        }
      if (last_offset != 0)
        {
          if (!cs_tracedat_reader_read_at (reader, cpu, last_offset, &rec, &error))
            {
              g_assert_true (error->domain == CS_INDEX_ERROR);
              g_clear_error (&error);
              errors++;
            }
        }
    }
  return errors;
}

/* What reading CPU @cpu of @reader gives, one line per record (time,
 * offset, missed events, size, a sum of its bytes) and per error (its
 * message), with cs_tracedat_cpu_next() when @batch is 0, else with
 * cs_tracedat_cpu_next_batch() of @batch records at most.  A bounded
 * number of calls guards against a hang. */
static char *
read_sequence (CsTracedatReader *reader, guint cpu, guint batch)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (reader, cpu, &error);
  g_autofree CsTracedatSlimRecord *records = g_new (CsTracedatSlimRecord, MAX (batch, 1));
  GString *seq = g_string_new (NULL);
  guint64 calls = 0;

  if (stream == NULL)
    {
      g_string_append_printf (seq, "e %s\n", error->message);
      return g_string_free (seq, FALSE);
    }
  for (;;)
    {
      guint n = 0;

      g_assert_cmpuint (++calls, <, 10000000);
      if (batch == 0)
        {
          CsTracedatRecord rec;

          if (cs_tracedat_cpu_next (stream, &rec, &error))
            {
              records[0] = (CsTracedatSlimRecord) { rec.ts_ns, rec.offset, rec.data, rec.size,
                                                    rec.missed_events };
              n = 1;
            }
        }
      else
        n = cs_tracedat_cpu_next_batch (stream, records, batch, &error);
      for (guint k = 0; k < n; k++)
        {
          guint sum = 0;

          for (guint i = 0; i < records[k].size; i++)
            sum += records[k].data[i];
          g_string_append_printf (seq, "r %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %"
                                  G_GINT64_FORMAT " %u %u\n", records[k].ts_ns,
                                  records[k].offset, records[k].missed_events, records[k].size,
                                  sum);
        }
      if (error != NULL)
        {
          g_string_append_printf (seq, "e %s\n", error->message);
          g_clear_error (&error);
        }
      else if (n == 0)
        break;
    }
  return g_string_free (seq, FALSE);
}

/* Reading @reader's recording in batches of any size gives what reading it
 * a record at a time gives, records and errors in the same order: a
 * damaged page gives none of its records either way, and both go on
 * after it (the scan checks each page's events as it reads them,
 * cs_tracedat_cpu_next() before it does).  With @all_sizes, batches of 1
 * to 4,096 records; else of 7 only, which fill inside most pages (for the
 * fuzz rounds, which run it 600 times). */
static void
assert_batches_agree_in (CsTracedatReader *reader,
                         gboolean          all_sizes)
{
  static const guint all[] = { 1, 2, 3, 7, 64, 4096 };
  static const guint fill_inside[] = { 7 };
  const guint *sizes = all_sizes ? all : fill_inside;
  guint n_sizes = all_sizes ? G_N_ELEMENTS (all) : G_N_ELEMENTS (fill_inside);

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    {
      g_autofree char *one = read_sequence (reader, cpu, 0);

      for (guint i = 0; i < n_sizes; i++)
        {
          g_autofree char *many = read_sequence (reader, cpu, sizes[i]);

          g_assert_cmpstr (many, ==, one);
        }
    }
}

/* assert_batches_agree_in() a new reader of @path, every batch size. */
static void
assert_batches_agree (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);

  if (reader != NULL)
    assert_batches_agree_in (reader, TRUE);
}

/* Opens @path and reads it all; returns the first error (domain, code), or
 * 0 domain when everything read without error. */
static GQuark
open_and_exercise (const char *path, gint *code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);
  GQuark domain = 0;

  *code = -1;
  /* Symbols are parsed on demand: ask for them so that a damaged kallsyms
   * section is found too. */
  if (reader != NULL && !cs_tracedat_reader_load_symbols (reader, &error))
    g_clear_object (&reader);
  if (reader == NULL)
    {
      g_assert_true (error->domain == CS_INDEX_ERROR || error->domain == G_FILE_ERROR);
      *code = error->code;
      return error->domain;
    }
  exercise (reader, &domain, code);
  return domain;
}

static void
expect_error (const char *path, gint code)
{
  gint got;
  GQuark domain = open_and_exercise (path, &got);

  if (domain != CS_INDEX_ERROR || got != code)
    g_error ("%s: expected CS_INDEX_ERROR code %d, got %s code %d", path, code,
             domain ? g_quark_to_string (domain) : "no error", got);
}

/* A v6 and a v7 recording (names for cs_test_path()). */
typedef struct {
  const char *v6;
  const char *v7;
} Pair;

static const Pair own_pair = { "sched-irq-v6.dat", "sched-irq-v7.dat" };
static const Pair public_pair = { "public/rpi-sched-arm32-v6.dat", "public/sched-x86-v7-zstd.dat" };

static void
test_damaged_header (gconstpointer pair_data)
{
  const Pair *pair = pair_data;
  g_autofree char *v6 = cs_test_path (pair->v6);
  g_autofree char *v7 = cs_test_path (pair->v7);
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  gsize len;
  guint8 long_size;

  if (v6 == NULL || v7 == NULL)
    return;

  /* not a trace, wrong version, bad page size, empty file */
  path = tmp_copy (v6, "damaged.dat", G_MAXSIZE, &data, &len);
  write_file (path, (const guint8 *) "GIF89a this is not a trace", 26);
  expect_error (path, CS_INDEX_ERROR_NOT_A_TRACE);
  write_file (path, (const guint8 *) "", 0);
  expect_error (path, CS_INDEX_ERROR_NOT_A_TRACE);
  data[10] = '8';
  write_file (path, data, len);
  expect_error (path, CS_INDEX_ERROR_UNSUPPORTED);
  data[10] = '6';
  data[14] = 3;   /* page size 4096 -> 4099 */
  write_file (path, data, len);
  expect_error (path, CS_INDEX_ERROR_CORRUPT);
  data[14] = 0;
  long_size = data[13];
  data[13] = 7;   /* long size */
  write_file (path, data, len);
  expect_error (path, CS_INDEX_ERROR_CORRUPT);
  data[13] = long_size;
  data[12] = 2;   /* endianness */
  write_file (path, data, len);
  expect_error (path, CS_INDEX_ERROR_CORRUPT);
  data[12] = 0;
  write_file (path, data, len);
  g_assert_cmpint (open_and_exercise (path, &(gint) { 0 }), ==, 0);

  /* truncations: in the header, then in the data of the last CPU */
  {
    const char *srcs[] = { v6, v7 };
    for (guint s = 0; s < G_N_ELEMENTS (srcs); s++)
      {
        g_autofree guint8 *full = NULL;
        gsize full_len;
        g_autofree char *p = tmp_copy (srcs[s], "truncated.dat", G_MAXSIZE, &full, &full_len);
        gsize cuts[] = { 0, 5, 10, 11, 13, 17, 20, 30, 37, 60, 100, 300, 1000, 5000,
                         full_len / 4, full_len / 2, full_len * 3 / 4, full_len - 40000,
                         full_len - 5000, full_len - 1000, full_len - 100, full_len - 9,
                         full_len - 1 };

        for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
          {
            gint code;
            GQuark domain;

            if (cuts[i] >= full_len)   /* full_len - 40000 of a small file */
              continue;
            write_file (p, full, cuts[i]);
            domain = open_and_exercise (p, &code);
            if (cuts[i] <= full_len / 2 || (s == 0 && cuts[i] >= full_len - 5000))
              g_assert_true (domain == CS_INDEX_ERROR &&
                             (code == CS_INDEX_ERROR_TRUNCATED || code == CS_INDEX_ERROR_NOT_A_TRACE ||
                              code == CS_INDEX_ERROR_CORRUPT));
          }
      }
  }
}

/* Little-endian fields at any offset: a cast pointer would be a misaligned
 * load, undefined behaviour that UBSan stops at. */
static guint16
get_le16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, sizeof v);
  return GUINT16_FROM_LE (v);
}

static guint32
get_le32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_LE (v);
}

static void
set_le32 (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, sizeof v);
}

/* Writes @data with the 32-bit value @v at @at, expects @code, restores. */
static void
poke32 (const char *path, guint8 *data, gsize len, gsize at, guint32 v, gint code)
{
  guint32 old;

  memcpy (&old, data + at, 4);
  v = GUINT32_TO_LE (v);
  memcpy (data + at, &v, 4);
  write_file (path, data, len);
  expect_error (path, code);
  assert_batches_agree (path);
  memcpy (data + at, &old, 4);
}

static guint64
cpu0_data_offset (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);

  g_assert_no_error (error);
  return cs_tracedat_reader_get_cpu_data_offset (reader, 0);
}

/* Lies in the chunks of CPU 0 of a compressed v7 file. */
static void
damage_chunks (const char *src)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  gsize len, count_at, chunk;
  guint32 usize, csize;

  path = tmp_copy (src, "chunks.dat", G_MAXSIZE, &data, &len);
  count_at = cpu0_data_offset (path);
  chunk = count_at + 4;
  csize = get_le32 (data + chunk);
  usize = get_le32 (data + chunk + 4);
  g_assert_cmpuint (usize % 4096, ==, 0);

  /* the uncompressed size lies by a page either way */
  poke32 (path, data, len, chunk + 4, usize + 4096, CS_INDEX_ERROR_CORRUPT);
  poke32 (path, data, len, chunk + 4, usize - 4096, CS_INDEX_ERROR_CORRUPT);
  /* absurd sizes: refused before any allocation */
  poke32 (path, data, len, chunk + 4, 0xfffff000u, CS_INDEX_ERROR_UNSUPPORTED);
  poke32 (path, data, len, chunk, 0x7fffffffu, CS_INDEX_ERROR_CORRUPT);
  poke32 (path, data, len, count_at, 0xffffffffu, CS_INDEX_ERROR_CORRUPT);
  /* compressed bytes damaged */
  poke32 (path, data, len, chunk + 8 + csize / 2, 0xa5a5a5a5u, CS_INDEX_ERROR_CORRUPT);
}

static void
test_damaged_chunks (gconstpointer pair_data)
{
  const Pair *pair = pair_data;
  g_autofree char *v7 = cs_test_path (pair->v7);
  g_autofree char *twin = NULL;
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  gsize len;

  if (v7 == NULL)
    return;
  damage_chunks (v7);
  twin = g_build_filename (g_get_user_runtime_dir (), "chunks-zlib.dat", NULL);
  cs_test_rewrite_v7 (v7, twin, "zlib", NULL, NULL);
  damage_chunks (twin);
  if (pair != &public_pair)
    return;

  /* sched-x86-v7-zstd.dat has its kallsyms section at 4058: a lying and an
   * absurd uncompressed size */
  path = tmp_copy (v7, "sections.dat", G_MAXSIZE, &data, &len);
  g_assert_cmpuint (get_le16 (data + 4058), ==, 19);
  poke32 (path, data, len, 4058 + 20, get_le32 (data + 4058 + 20) + 1,
          CS_INDEX_ERROR_CORRUPT);
  poke32 (path, data, len, 4058 + 20, 0xfffffff0u, CS_INDEX_ERROR_UNSUPPORTED);
  /* its second options section (2747981) ends with a DONE option (at
   * 2747981 + 16 + 203 - 14) that points back to the first one (2708580) */
  g_assert_cmpuint (get_le16 (data + 2747981 + 16 + 203 - 14), ==, 0);
  poke32 (path, data, len, 2747981 + 16 + 203 - 8, 2708580, CS_INDEX_ERROR_CORRUPT);
}

/* Page-level damage in a v6 file: commit sizes and event lengths. */
static void
test_damaged_pages (gconstpointer name)
{
  g_autofree char *v6 = NULL;
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  GQuark domain = 0;
  gint code = 0;
  gsize len, page;
  guint32 first;

  v6 = cs_test_path (name);
  if (v6 == NULL)
    return;
  path = tmp_copy (v6, "pages.dat", G_MAXSIZE, &data, &len);
  page = cpu0_data_offset (path);   /* 32-bit kernel: page header 8 + 4 bytes */

  /* commit size beyond the page: that page fails once, reading goes on */
  memcpy (&first, data + page + 8, 4);
  set_le32 (data + page + 8, 0x07ffffffu);
  write_file (path, data, len);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (exercise (reader, &domain, &code), ==, 1);
  g_assert_true (domain == CS_INDEX_ERROR && code == CS_INDEX_ERROR_CORRUPT);
  assert_batches_agree (path);
  memcpy (data + page + 8, &first, 4);

  /* the first event: a type-0 event whose length goes past the commit or is
   * negative, a padding whose length loops back (kbuffer would spin) */
  memcpy (&first, data + page + 12, 4);
  set_le32 (data + page + 12, 0);
  poke32 (path, data, len, page + 16, 100000, CS_INDEX_ERROR_CORRUPT);
  poke32 (path, data, len, page + 16, 0, CS_INDEX_ERROR_CORRUPT);
  set_le32 (data + page + 12, 29);
  poke32 (path, data, len, page + 16, 0xfffffffcu, CS_INDEX_ERROR_CORRUPT);
  memcpy (data + page + 12, &first, 4);
}

/* Peeks at @offset of CPU 0 in a new reader of @path (a pass's feed reads
 * records so, at offsets and times from the index); with @expect_code -1
 * expects success and returns the record's payload, else expects that
 * error and returns NULL. */
static GBytes *
peek (const char *path, guint64 offset, gint expect_code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);
  g_autoptr(CsTracedatCpu) stream = NULL;
  CsTracedatRecord rec;
  gboolean ok;

  g_assert_no_error (error);
  stream = cs_tracedat_reader_open_cpu (reader, 0, &error);
  g_assert_no_error (error);
  ok = cs_tracedat_cpu_peek_at (stream, offset, 1, &rec, &error);
  if (expect_code >= 0)
    {
      g_assert_false (ok);
      g_assert_error (error, CS_INDEX_ERROR, expect_code);
      return NULL;
    }
  g_assert_no_error (error);
  g_assert_true (ok);
  return g_bytes_new (rec.data, rec.size);
}

/* cs_tracedat_cpu_peek_at() checks the page's commit size and the one
 * record it decodes, not every event of the page: a damaged record is
 * refused, its undamaged neighbour is read as it was, and a walk through
 * the same page (cs_tracedat_cpu_seek()) still refuses the page. */
static void
test_damaged_peek (gconstpointer name)
{
  g_autofree char *src = cs_test_path (name);
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(CsTracedatCpu) stream = NULL;
  g_autoptr(GBytes) second = NULL;
  g_autoptr(GBytes) again = NULL;
  CsTracedatRecord rec;
  guint64 data_off, page_size, page, first_event, o1 = 0, o2 = 0, prev = 0;
  gsize len;
  guint32 old_commit;
  guint8 old_first[8];
  gboolean ok;

  if (src == NULL)
    return;
  path = tmp_copy (src, "peek.dat", G_MAXSIZE, &data, &len);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  g_assert_false (cs_tracedat_reader_is_big_endian (reader));
  data_off = cs_tracedat_reader_get_cpu_data_offset (reader, 0);
  page_size = cs_tracedat_reader_get_page_size (reader);
  stream = cs_tracedat_reader_open_cpu (reader, 0, &error);
  g_assert_no_error (error);
  /* Two records in a row on one page: o1, then o2. */
  while (cs_tracedat_cpu_next (stream, &rec, &error))
    {
      if (prev != 0 && (prev - data_off) / page_size == (rec.offset - data_off) / page_size)
        {
          o1 = prev;
          o2 = rec.offset;
          break;
        }
      prev = rec.offset;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (o2, !=, 0);
  page = data_off + (o1 - data_off) / page_size * page_size;
  first_event = page + 8 + cs_tracedat_reader_get_kernel_long_size (reader);
  second = peek (path, o2, -1);
  memcpy (old_first, data + o1, 8);

  /* A commit size past the page: nothing of it is read. */
  memcpy (&old_commit, data + page + 8, 4);
  set_le32 (data + page + 8, (guint32) page_size);
  write_file (path, data, len);
  peek (path, o2, CS_INDEX_ERROR_CORRUPT);
  memcpy (data + page + 8, &old_commit, 4);

  /* The first record made a type-0 event whose length runs past the
   * commit: it is refused, the second is read as it was. */
  set_le32 (data + o1, 0);
  set_le32 (data + o1 + 4, 100000);
  write_file (path, data, len);
  peek (path, o1, CS_INDEX_ERROR_CORRUPT);
  again = peek (path, o2, -1);
  g_assert_true (g_bytes_equal (again, second));
  /* A scan in batches refuses the page at the same event as a walk. */
  assert_batches_agree (path);

  /* The page's first event made a padding whose length loops back to
   * itself (a walk of its headers would spin): the record after it is
   * read as it was, without walking the page. */
  g_clear_pointer (&again, g_bytes_unref);
  memcpy (data + o1, &old_first, 8);
  set_le32 (data + first_event, CS_TEST_RB_TYPE_PADDING);
  set_le32 (data + first_event + 4, 0xfffffffcu);
  write_file (path, data, len);
  if (o2 != first_event)
    {
      again = peek (path, o2, -1);
      g_assert_true (g_bytes_equal (again, second));
    }
  assert_batches_agree (path);

  /* A walk through the page checks every event on it. */
  g_clear_pointer (&stream, cs_tracedat_cpu_free);
  g_clear_object (&reader);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  stream = cs_tracedat_reader_open_cpu (reader, 0, &error);
  g_assert_no_error (error);
  ok = cs_tracedat_cpu_seek (stream, o2, &error) && cs_tracedat_cpu_next (stream, &rec, &error);
  g_assert_false (ok);
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT);
}

/* Random byte flips in the ring-buffer data, with the reader kept open (it
 * reads the file with pread, so each round sees the new bytes). */
static void
fuzz_file (const char *src, const char *name, guint rounds, guint32 seed)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  gsize len, start;
  guint total_errors = 0;
  int fd;

  path = tmp_copy (src, name, G_MAXSIZE, &data, &len);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  /* flip bytes in the CPUs' data and what follows (options, strings) */
  start = len;
  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    if (cs_tracedat_reader_get_cpu_data_size (reader, cpu) != 0)
      start = MIN (start, cs_tracedat_reader_get_cpu_data_offset (reader, cpu));
  g_assert_cmpuint (start, <, len);
  fd = g_open (path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);

  for (guint r = 0; r < rounds; r++)
    {
      guint n = (guint) g_rand_int_range (rand, 1, 9);
      gsize at[8];
      guint8 old[8];

      for (guint i = 0; i < n; i++)
        {
          guint8 b = (guint8) g_rand_int (rand);
          at[i] = start + (gsize) g_rand_int_range (rand, 0, (gint32) (len - start));
          old[i] = data[at[i]];
          g_assert_cmpint (pwrite (fd, &b, 1, (off_t) at[i]), ==, 1);
        }
      total_errors += exercise (reader, NULL, NULL);
      assert_batches_agree_in (reader, FALSE);
      for (guint i = n; i-- > 0;)
        g_assert_cmpint (pwrite (fd, &old[i], 1, (off_t) at[i]), ==, 1);
    }
  close (fd);
  g_test_message ("%s: %u rounds, %u errors reported", name, rounds, total_errors);
}

static void
test_fuzz (gconstpointer pair_data)
{
  const Pair *pair = pair_data;
  g_autofree char *v6 = cs_test_path (pair->v6);
  g_autofree char *v7 = cs_test_path (pair->v7);

  if (v6 == NULL || v7 == NULL)
    return;
  fuzz_file (v6, "fuzz-v6.dat", 300, 1);
  fuzz_file (v7, "fuzz-v7.dat", 300, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_data_func ("/cs/index/TracedatReader/damaged/header", &own_pair, test_damaged_header);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/chunks", &own_pair, test_damaged_chunks);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/fuzz", &own_pair, test_fuzz);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/public/header", &public_pair,
                        test_damaged_header);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/public/chunks", &public_pair,
                        test_damaged_chunks);
  /* A 32-bit kernel's pages (the page header's commit is 4 bytes there). */
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/pages", "sched-i686-v6.dat",
                        test_damaged_pages);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/public/pages",
                        "public/rpi-sched-arm32-v6.dat", test_damaged_pages);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/public/fuzz", &public_pair, test_fuzz);
  /* Records read at their offsets, as a pass's feed does: a 64-bit and a
   * 32-bit kernel's pages. */
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/peek", "sched-irq-v6.dat",
                        test_damaged_peek);
  g_test_add_data_func ("/cs/index/TracedatReader/damaged/peek-i686", "sched-i686-v6.dat",
                        test_damaged_peek);

  return g_test_run ();
}
