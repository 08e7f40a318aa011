/* test-tracedat-reader.c: CsTracedatReader against libtracecmd, the oracle.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every record of every CPU of each recording is read with CsTracedatReader
 * and, in lockstep, with libtracecmd (tracecmd_open, tracecmd_read_cpu_first,
 * tracecmd_read_data): timestamps, payload bytes, sizes, missed events, pid
 * and event type (each side decoding with its own tep_handle) must be equal,
 * offsets equal for uncompressed data and off by a per-CPU constant for
 * compressed data (libtracecmd numbers a compressed CPU from a virtual base).
 * Recordings: the public files in $CS_SHARED_TESTDATA, the project's in
 * $CS_TESTDATA; each test skips, saying why, when its directory is missing.
 *
 * Zlib: Debian's trace-cmd can neither write nor read zlib-compressed v7
 * files, so cs_test_rewrite_v7() (tracedat-rewrite.c) rewrites a compressed v7 file chunk by chunk
 * with another codec (the layout trace-cmd.dat.v7(5) describes).  Rewritten
 * with zstd, libtracecmd reads it like the original (which checks the
 * rewriter); rewritten with zlib, CsTracedatReader must read it like
 * libtracecmd reads the original.
 *
 * Damaged files are test-tracedat-damaged.c's.
 *
 * Optional: CS_TRACEDAT_BIG=FILE [CS_TRACEDAT_BIG_ORACLE=FILE]
 * [CS_TRACEDAT_BIG_LIMIT=N] compares the first N records (default 2000000)
 * of each CPU of a big recording.
 *
 * Helper mode (not a test): `test-tracedat-reader --rewrite-v7 zlib|zstd IN
 * OUT [INSTANCE]` writes the rewritten file (with the buffer of INSTANCE made
 * the top buffer, for files of `trace-cmd extract -B INSTANCE`) and exits.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include "cs-tracedat-clock.h"
#include "cs-tracedat-reader.h"
#include "index-test-util.h"
#include "tracedat-rewrite.h"

/* Exported by libtracecmd 1.3.1 but missing from its public header. */
int tracecmd_cpus (struct tracecmd_input *handle);
int tracecmd_page_size (struct tracecmd_input *handle);
int tracecmd_long_size (struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock (struct tracecmd_input *handle);

typedef struct {
  const char *name;
  guint64 n_events;     /* trace-cmd report 3.1.6, see MANIFEST.md; ANY_N_EVENTS: as
                         * libtracecmd reads it (the comparison checks that) */
  guint n_cpus;         /* the "cpus=" line of trace-cmd report */
  guint version;
  const char *compression;
  guint long_size;
} PublicFile;

static const PublicFile public_files[] = {
  { "buildroot-fifo-i686-v6.dat", 1154, 4, 6, "none", 4 },
  { "empty-truncated-v6.dat", 0, 1, 6, "none", 8 },
  { "empty-v7-zstd.dat", 0, 16, 7, "zstd", 8 },
  { "function-graph-i686-v6.dat", 21, 1, 6, "none", 4 },
  { "function-i686-v6.dat", 12527, 1, 6, "none", 4 },
  { "kstack-x86-v7-zstd.dat", 406, 8, 7, "zstd", 8 },
  { "lisa-rtapp-arm64-v6.dat", 7820, 6, 6, "none", 8 },
  { "rpi-sched-arm32-v6.dat", 4427, 4, 6, "none", 4 },
  { "sched-x86-v7-zstd.dat", 3562, 8, 7, "zstd", 8 },
  { "trappy-thermal-arm32-v6.dat", 525, 8, 6, "none", 4 },
};

#define ANY_N_EVENTS G_MAXUINT64

/* The project's recordings of the same cases (tests/data), read by the
 * same checks whether or not the public ones are there: empty, cut, and a
 * 32-bit kernel's (4-byte long; made in an i386 guest). */
static const PublicFile own_files[] = {
  { "empty-cut-v6.dat", 0, 2, 6, "none", 8 },
  { "empty-v7.dat", 0, 2, 7, "zstd", 8 },
  { "sched-i686-v6.dat", ANY_N_EVENTS, 2, 6, "none", 4 },
};

/* ------------------------------------------------------------------------ */
/* Lockstep comparison with libtracecmd                                      */

typedef struct {
  guint64 offset;
  gint64 ts_ns;
  int pid;
  int type;
  guint64 next_offset;  /* offset of the following record, 0 if none */
} Sample;

typedef struct {
  guint64 n_records;
  guint64 per_cpu[64];
} CompareResult;

static char *
print_info (struct tep_handle *tep, struct tep_record *rec)
{
  struct trace_seq s;
  char *text;

  trace_seq_init (&s);
  tep_print_event (tep, &s, rec, "%s|%s|%s", TEP_PRINT_NAME, TEP_PRINT_COMM, TEP_PRINT_INFO);
  trace_seq_terminate (&s);
  text = g_strdup (s.buffer);
  trace_seq_destroy (&s);
  return text;
}

/* CsTracedatIdleFunc for the read-ahead tests: a core is "idle" at 13
 * calls of 20, so that the stream takes chunks its read-ahead thread
 * decompressed, waits for one it is at, and decompresses others itself. */
static gint idle_calls;

static gboolean
sometimes_idle (gpointer user_data)
{
  return g_atomic_int_add ((gint *) user_data, 1) % 20 < 13;
}

static gboolean
always_idle (gpointer user_data)
{
  return TRUE;
}

/* With @read_ahead, the streams (the one compared in lockstep and the one
 * that seeks) decompress ahead (cs_tracedat_cpu_set_read_ahead()). */
static void
compare_with_oracle (const char         *ours_path,
                     const char         *oracle_path,
                     guint64             limit_per_cpu,
                     gboolean            check_text,
                     CsTracedatIdleFunc  read_ahead,
                     CompareResult      *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  struct tracecmd_input *lib;
  struct tep_handle *ltep, *rtep;
  gboolean compressed;
  guint n_cpus, lib_cpus;
  const char *lib_clock;

  memset (result, 0, sizeof *result);
  reader = cs_tracedat_reader_open (ours_path, &error);
  g_assert_no_error (error);
  /* Symbols are parsed on demand; the text comparison needs them. */
  g_assert_true (cs_tracedat_reader_load_symbols (reader, &error));
  g_assert_no_error (error);
  lib = tracecmd_open (oracle_path, 0);
  g_assert_nonnull (lib);

  ltep = tracecmd_get_tep (lib);
  rtep = cs_tracedat_reader_get_tep (reader);
  n_cpus = cs_tracedat_reader_get_n_cpus (reader);
  lib_cpus = (guint) tracecmd_cpus (lib);
  g_assert_cmpuint (n_cpus, >=, lib_cpus);
  g_assert_cmpuint (cs_tracedat_reader_get_page_size (reader), ==, (guint) tracecmd_page_size (lib));
  g_assert_cmpuint (cs_tracedat_reader_get_kernel_long_size (reader), ==,
                    (guint) tracecmd_long_size (lib));
  lib_clock = tracecmd_get_trace_clock (lib);
  if (lib_clock != NULL)
    g_assert_cmpstr (cs_tracedat_reader_get_clock (reader), ==, lib_clock);
  compressed = g_strcmp0 (cs_tracedat_reader_get_compression (reader), "none") != 0;

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (reader, cpu, &error);
      struct tep_handle *stream_tep;
      struct tep_record *lrec;
      gboolean have_delta = FALSE;
      guint64 delta = 0, k = 0, prev_offset = 0;
      Sample *pending = NULL;
      guint pending_index = 0;

      g_assert_no_error (error);
      g_assert_nonnull (stream);
      if (read_ahead != NULL)
        cs_tracedat_cpu_set_read_ahead (stream, read_ahead, &idle_calls);
      stream_tep = cs_tracedat_cpu_get_tep (stream, &error);
      g_assert_no_error (error);
      g_assert_true (stream_tep != rtep);

      lrec = cpu < lib_cpus ? tracecmd_read_cpu_first (lib, (int) cpu) : NULL;
      for (;;)
        {
          CsTracedatRecord rec;
          gboolean have;

          if (limit_per_cpu != 0 && k >= limit_per_cpu)
            break;
          have = cs_tracedat_cpu_next (stream, &rec, &error);
          g_assert_no_error (error);
          if (!have)
            {
              if (lrec != NULL)
                g_error ("%s: CPU %u: ours ends after %" G_GUINT64_FORMAT
                         " records, libtracecmd goes on", ours_path, cpu, k);
              break;
            }
          if (lrec == NULL)
            g_error ("%s: CPU %u: libtracecmd ends after %" G_GUINT64_FORMAT
                     " records, ours goes on", ours_path, cpu, k);

          g_assert_cmpuint (rec.cpu, ==, cpu);
          g_assert_cmpint (lrec->cpu, ==, (int) cpu);
          g_assert_cmpint (rec.ts_ns, ==, (gint64) lrec->ts);
          g_assert_cmpuint (rec.size, ==, (guint) lrec->size);
          g_assert_true (rec.size == 0 || memcmp (rec.data, lrec->data, rec.size) == 0);
          g_assert_cmpint (rec.missed_events, ==, lrec->missed_events);
          g_assert_true (rec.tep_record->data == rec.data);
          g_assert_cmpint (rec.tep_record->record_size, ==, lrec->record_size);
          if (k > 0)
            g_assert_cmpuint (rec.offset, >, prev_offset);
          prev_offset = rec.offset;
          if (!compressed)
            g_assert_cmpuint (rec.offset, ==, lrec->offset);
          else if (!have_delta)
            {
              delta = lrec->offset - rec.offset;
              have_delta = TRUE;
            }
          else
            g_assert_cmpuint (lrec->offset - rec.offset, ==, delta);

          g_assert_cmpint (tep_data_pid (rtep, rec.tep_record), ==, tep_data_pid (ltep, lrec));
          g_assert_cmpint (tep_data_type (rtep, rec.tep_record), ==, tep_data_type (ltep, lrec));
          g_assert_cmpint (tep_data_pid (stream_tep, rec.tep_record), ==, tep_data_pid (ltep, lrec));
          g_assert_cmpint (tep_data_type (stream_tep, rec.tep_record), ==, tep_data_type (ltep, lrec));

          if (check_text)
            {
              struct tep_event *ev = tep_find_event (ltep, tep_data_type (ltep, lrec));

              /* trace-cmd overrides funcgraph printing with a look-ahead at
               * the next record (tracecmd_ftrace_overrides); libtraceevent
               * alone prints the fields. */
              if (ev == NULL || !g_str_has_prefix (ev->name, "funcgraph_"))
                {
                  g_autofree char *a = print_info (rtep, rec.tep_record);
                  g_autofree char *b = print_info (ltep, lrec);
                  g_assert_cmpstr (a, ==, b);
                }
            }

          if (pending != NULL)
            {
              g_array_index (samples, Sample, pending_index).next_offset = rec.offset;
              pending = NULL;
            }
          if (k % 97 == 3 && samples->len < 4000)
            {
              Sample smp = { rec.offset, rec.ts_ns, tep_data_pid (rtep, rec.tep_record),
                             tep_data_type (rtep, rec.tep_record), 0 };
              g_array_append_val (samples, smp);
              pending_index = samples->len - 1;
              pending = &g_array_index (samples, Sample, pending_index);
            }

          tracecmd_free_record (lrec);
          lrec = tracecmd_read_data (lib, (int) cpu);
          k++;
        }
      tracecmd_free_record (lrec);
      if (cpu < G_N_ELEMENTS (result->per_cpu))
        result->per_cpu[cpu] = k;
      result->n_records += k;
      if (k == limit_per_cpu || k == 0)
        g_assert_cmpuint (cs_tracedat_cpu_get_bytes_done (stream), <=,
                          cs_tracedat_reader_get_cpu_data_size (reader, cpu));
      else
        g_assert_cmpuint (cs_tracedat_cpu_get_bytes_done (stream), ==,
                          cs_tracedat_reader_get_cpu_data_size (reader, cpu));

      /* Random access: read_at and seek give back the sampled records. */
      if (samples->len > 0)
        {
          g_autoptr(CsTracedatCpu) seeker = cs_tracedat_reader_open_cpu (reader, cpu, &error);

          g_assert_no_error (error);
          if (read_ahead != NULL)
            cs_tracedat_cpu_set_read_ahead (seeker, read_ahead, &idle_calls);
          for (guint i = 0; i < samples->len; i++)
            {
              /* from the last sample backwards, so that reads jump around */
              const Sample *smp = &g_array_index (samples, Sample, samples->len - 1 - i);
              CsTracedatRecord rec;

              g_assert_true (cs_tracedat_reader_read_at (reader, cpu, smp->offset, &rec, &error));
              g_assert_no_error (error);
              g_assert_cmpuint (rec.offset, ==, smp->offset);
              g_assert_cmpint (rec.ts_ns, ==, smp->ts_ns);
              g_assert_cmpint (tep_data_pid (rtep, rec.tep_record), ==, smp->pid);
              g_assert_cmpint (tep_data_type (rtep, rec.tep_record), ==, smp->type);

              g_assert_true (cs_tracedat_cpu_seek (seeker, smp->offset, &error));
              g_assert_no_error (error);
              g_assert_true (cs_tracedat_cpu_next (seeker, &rec, &error));
              g_assert_cmpuint (rec.offset, ==, smp->offset);
              g_assert_cmpint (rec.ts_ns, ==, smp->ts_ns);
              if (smp->next_offset != 0)
                {
                  g_assert_true (cs_tracedat_cpu_next (seeker, &rec, &error));
                  g_assert_no_error (error);
                  g_assert_cmpuint (rec.offset, ==, smp->next_offset);
                }
            }
          /* peek_at, in increasing offsets as a pass's feed reads: the
           * same records, with the time given. */
          {
            g_autoptr(CsTracedatCpu) peeker = cs_tracedat_reader_open_cpu (reader, cpu, &error);

            g_assert_no_error (error);
            for (guint i = 0; i < samples->len; i++)
              {
                const Sample *smp = &g_array_index (samples, Sample, i);
                CsTracedatRecord rec;

                g_assert_true (cs_tracedat_cpu_peek_at (peeker, smp->offset, smp->ts_ns, &rec, &error));
                g_assert_no_error (error);
                g_assert_cmpuint (rec.offset, ==, smp->offset);
                g_assert_cmpint (rec.ts_ns, ==, smp->ts_ns);
                g_assert_cmpint (tep_data_pid (rtep, rec.tep_record), ==, smp->pid);
                g_assert_cmpint (tep_data_type (rtep, rec.tep_record), ==, smp->type);
              }
          }
          /* Far apart (every 16th sample: ~1,500 records, past a read_at
           * stream's window): each record is read with its page alone,
           * forwards and backwards, and peeked at forwards. */
          {
            g_autoptr(CsTracedatCpu) peeker = cs_tracedat_reader_open_cpu (reader, cpu, &error);

            g_assert_no_error (error);
            for (guint pass = 0; pass < 3; pass++)
              for (guint j = 0; j < samples->len; j += 16)
                {
                  guint i = pass == 1 ? samples->len - 1 - j : j;
                  const Sample *smp = &g_array_index (samples, Sample, i);
                  CsTracedatRecord rec;

                  if (pass < 2)
                    g_assert_true (cs_tracedat_reader_read_at (reader, cpu, smp->offset, &rec, &error));
                  else
                    g_assert_true (cs_tracedat_cpu_peek_at (peeker, smp->offset, smp->ts_ns, &rec,
                                                            &error));
                  g_assert_no_error (error);
                  g_assert_cmpuint (rec.offset, ==, smp->offset);
                  g_assert_cmpint (rec.ts_ns, ==, smp->ts_ns);
                  g_assert_cmpint (tep_data_pid (rtep, rec.tep_record), ==, smp->pid);
                  g_assert_cmpint (tep_data_type (rtep, rec.tep_record), ==, smp->type);
                }
          }
          /* An offset inside a record is refused. */
          {
            const Sample *smp = &g_array_index (samples, Sample, 0);
            CsTracedatRecord rec;

            g_assert_false (cs_tracedat_reader_read_at (reader, cpu, smp->offset + 1, &rec, &error));
            g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT);
            g_clear_error (&error);
          }
          g_array_set_size (samples, 0);
        }
    }

  tracecmd_close (lib);
}

static void
check_known_file (const PublicFile *pf,
                  const char       *path)
{
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  CompareResult res;

  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_tracedat_reader_get_file_version (reader), ==, pf->version);
  g_assert_cmpstr (cs_tracedat_reader_get_compression (reader), ==, pf->compression);
  g_assert_cmpuint (cs_tracedat_reader_get_long_size (reader), ==, pf->long_size);
  g_assert_cmpuint (cs_tracedat_reader_get_n_cpus (reader), ==, pf->n_cpus);
  g_assert_false (cs_tracedat_reader_is_big_endian (reader));
  g_assert_cmpuint (cs_tracedat_reader_get_n_parse_failures (reader), ==, 0);

  compare_with_oracle (path, path, 0, TRUE, NULL, &res);
  if (pf->n_events != ANY_N_EVENTS)
    g_assert_cmpuint (res.n_records, ==, pf->n_events);
  else
    g_assert_cmpuint (res.n_records, >, 0);
}

static void
test_public_file (gconstpointer data)
{
  const PublicFile *pf = data;
  g_autofree char *path = cs_test_public_path (pf->name);

  if (path != NULL)
    check_known_file (pf, path);
}

static void
test_own_file (gconstpointer data)
{
  const PublicFile *pf = data;
  g_autofree char *path = cs_test_own_path (pf->name);

  check_known_file (pf, path);
}


static void
check_twins (const char *orig)
{
  g_autofree char *base = g_path_get_basename (orig);
  g_autofree char *zstd = g_build_filename (g_get_user_runtime_dir (), "zstd-twin.dat", NULL);
  g_autofree char *zlib = g_build_filename (g_get_user_runtime_dir (), "zlib-twin.dat", NULL);
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  CompareResult a, c;

  g_test_message ("%s: rewriting with zstd and zlib", base);
  /* zstd twin: libtracecmd reads it as ours reads the original (this checks
   * rewrite_v7 against the oracle) */
  cs_test_rewrite_v7 (orig, zstd, "zstd", NULL, NULL);
  compare_with_oracle (orig, zstd, 0, FALSE, NULL, &a);

  /* zlib twin: ours must read it like libtracecmd reads the original */
  cs_test_rewrite_v7 (orig, zlib, "zlib", NULL, NULL);
  reader = cs_tracedat_reader_open (zlib, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cs_tracedat_reader_get_compression (reader), ==, "zlib");
  compare_with_oracle (zlib, orig, 0, FALSE, NULL, &c);
  g_assert_cmpuint (a.n_records, ==, c.n_records);
  for (guint i = 0; i < G_N_ELEMENTS (a.per_cpu); i++)
    g_assert_cmpuint (a.per_cpu[i], ==, c.per_cpu[i]);
}

static void
test_zlib_public (void)
{
  guint n = 0;

  if (cs_test_public_dir () == NULL)
    {
      g_autofree char *skipped = cs_test_public_path (public_files[0].name);  /* skips */
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (public_files); i++)
    {
      g_autofree char *path = g_build_filename (cs_test_public_dir (), public_files[i].name, NULL);

      if (public_files[i].version == 7 && g_file_test (path, G_FILE_TEST_EXISTS))
        {
          check_twins (path);
          n++;
        }
    }
  g_assert_cmpuint (n, >, 0);
}

/* ------------------------------------------------------------------------ */
/* The project's recordings                                                  */

/* The .dat files of @dir and of its subdirectories (zlib/ holds the zlib
 * twins that libtracecmd cannot read). */
static void
add_recordings (GPtrArray *files, const char *dir, gboolean recurse)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_str_has_suffix (name, ".dat"))
        g_ptr_array_add (files, g_steal_pointer (&path));
      /* damaged/ holds the fuzzers' regression files (tests/fuzz), which
       * must fail to open: they have their own tests. */
      else if (recurse && !g_str_equal (name, "damaged") &&
               g_file_test (path, G_FILE_TEST_IS_DIR))
        add_recordings (files, path, FALSE);
    }
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

static GPtrArray *
project_recordings (void)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  add_recordings (files, g_getenv ("CS_TESTDATA"), TRUE);
  g_ptr_array_sort (files, compare_paths);
  return files;
}

/* libtracecmd cannot read zlib: X-zlib.dat is compared with X.dat, next to
 * it or one directory up. */
static char *
oracle_for (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *up = g_path_get_dirname (dir);
  g_autofree char *base = g_path_get_basename (path);
  char *zlib = strstr (base, "-zlib");
  char *twin;

  if (zlib == NULL)
    return g_strdup (path);
  memmove (zlib, zlib + 5, strlen (zlib + 5) + 1);
  twin = g_build_filename (dir, base, NULL);
  if (!g_file_test (twin, G_FILE_TEST_EXISTS))
    {
      g_free (twin);
      twin = g_build_filename (up, base, NULL);
    }
  return twin;
}

/* What libtracecmd reads to compare with the recording at @path (opened
 * in *@reader), or NULL, saying why, when it cannot be compared. */
static char *
comparable_oracle (const char        *path,
                   CsTracedatReader **reader)
{
  g_autofree char *oracle = oracle_for (path);
  g_autoptr(GError) error = NULL;
  struct tracecmd_input *lib;

  *reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  /* libtracecmd shifts a guest's times by its TIME_SHIFT option; the
   * reader does not (test-tracedat-pair compares the shifted times). */
  if (cs_tracedat_reader_has_time_shift (*reader))
    {
      g_test_message ("%s: a guest recording, shifted by libtracecmd", path);
      return NULL;
    }
  if (!g_file_test (oracle, G_FILE_TEST_EXISTS) || (lib = tracecmd_open (oracle, 0)) == NULL)
    {
      g_test_message ("%s: libtracecmd cannot read it and it has no twin", path);
      return NULL;
    }
  tracecmd_close (lib);
  return g_steal_pointer (&oracle);
}

static void
test_project_recordings (void)
{
  g_autoptr(GPtrArray) files = NULL;

  files = project_recordings ();
  if (files->len == 0)
    {
      g_test_skip ("no .dat recording in $CS_TESTDATA yet");
      return;
    }

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(CsTracedatReader) reader = NULL;
      g_autofree char *oracle = comparable_oracle (path, &reader);
      CompareResult res;

      if (oracle == NULL)
        continue;
      compare_with_oracle (path, oracle, 0, TRUE, NULL, &res);
      g_test_message ("%s: %" G_GUINT64_FORMAT " records equal to libtracecmd's (%s)",
                      path, res.n_records, cs_tracedat_reader_get_compression (reader));
      if (cs_tracedat_reader_get_file_version (reader) == 7 &&
          g_str_equal (cs_tracedat_reader_get_compression (reader), "zstd"))
        check_twins (path);
    }
}

/* The project's compressed v7 recordings (zstd, and zlib compared with
 * their zstd twins), read with chunks decompressed ahead on another thread,
 * are read as libtracecmd reads them, record by record, forwards and by
 * seeking; whether the thread is allowed to work all the time or only
 * some of it. */
static void
test_read_ahead (gconstpointer data)
{
  CsTracedatIdleFunc idle = data;
  g_autoptr(GPtrArray) files = project_recordings ();
  guint n_compared = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(CsTracedatReader) reader = NULL;
      g_autofree char *oracle = comparable_oracle (path, &reader);
      CompareResult res;

      if (oracle == NULL || g_str_equal (cs_tracedat_reader_get_compression (reader), "none"))
        continue;
      /* (Each side ending first is an error: the counts are equal.) */
      compare_with_oracle (path, oracle, 0, FALSE, idle, &res);
      g_test_message ("%s: %" G_GUINT64_FORMAT " records read ahead equal to libtracecmd's (%s)",
                      path, res.n_records, cs_tracedat_reader_get_compression (reader));
      n_compared++;
    }
  g_assert_cmpuint (n_compared, >, 0);
}

/* Reading a CPU in batches (cs_tracedat_cpu_next_batch()) gives the
 * records one at a time gives, batches of any size: compared record by
 * record, after each batch, on every project recording (v6, v7 zstd and
 * zlib, damaged ones included), so a batch's data stays valid after the
 * call that filled it. */
static void
test_batch (void)
{
  static const guint sizes[] = { 1, 3, 256, 1000 };
  g_autoptr(GPtrArray) files = project_recordings ();
  g_autofree CsTracedatSlimRecord *batch = g_new (CsTracedatSlimRecord, 1000);
  guint64 n_compared = 0;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);

      if (reader == NULL)
        continue;   /* damaged before its data: nothing to read either way */
      for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
        {
          g_autoptr(CsTracedatCpu) one = cs_tracedat_reader_open_cpu (reader, cpu, NULL);
          g_autoptr(CsTracedatCpu) many = cs_tracedat_reader_open_cpu (reader, cpu, NULL);
          guint round = 0;

          if (one == NULL || many == NULL)
            continue;
          for (;;)
            {
              g_autoptr(GError) batch_error = NULL;
              guint n = cs_tracedat_cpu_next_batch (many, batch, sizes[round++ % G_N_ELEMENTS (sizes)],
                                                    &batch_error);

              for (guint k = 0; k < n; k++)
                {
                  g_autoptr(GError) one_error = NULL;
                  CsTracedatRecord rec;

                  /* A damaged page fails both the same way, then both go on. */
                  while (!cs_tracedat_cpu_next (one, &rec, &one_error) && one_error != NULL)
                    g_clear_error (&one_error);
                  g_assert_no_error (one_error);
                  g_assert_cmpint (batch[k].ts_ns, ==, rec.ts_ns);
                  g_assert_cmpuint (batch[k].offset, ==, rec.offset);
                  g_assert_cmpint (batch[k].missed_events, ==, rec.missed_events);
                  g_assert_cmpmem (batch[k].data, batch[k].size, rec.data, rec.size);
                  n_compared++;
                }
              if (n == 0 && batch_error == NULL)
                break;
            }
          {
            CsTracedatRecord rec;
            g_autoptr(GError) one_error = NULL;
            gboolean more;

            /* Both end at the same record. */
            while (!(more = cs_tracedat_cpu_next (one, &rec, &one_error)) && one_error != NULL)
              g_clear_error (&one_error);
            g_assert_false (more);
          }
        }
    }
  g_test_message ("%" G_GUINT64_FORMAT " records read in batches as one by one", n_compared);
  g_assert_cmpuint (n_compared, >, 0);
}

/* ------------------------------------------------------------------------ */
/* Threads                                                                   */

typedef struct {
  CsTracedatReader *reader;
  guint cpu;
  guint64 n;
  gint64 pid_sum;
  gint64 ts_xor;
} Job;

static gpointer
read_cpu_thread (gpointer data)
{
  Job *job = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (job->reader, job->cpu, &error);
  struct tep_handle *tep;
  CsTracedatRecord rec;

  g_assert_no_error (error);
  tep = cs_tracedat_cpu_get_tep (stream, &error);
  g_assert_no_error (error);
  while (cs_tracedat_cpu_next (stream, &rec, &error))
    {
      job->n++;
      job->pid_sum += tep_data_pid (tep, rec.tep_record) + tep_data_type (tep, rec.tep_record);
      job->ts_xor ^= rec.ts_ns;
    }
  g_assert_no_error (error);
  return NULL;
}

static void
test_threads (gconstpointer data)
{
  /* "public/NAME" is in the public folder, NAME in tests/data. */
  const char *name = data;
  g_autofree char *path = cs_test_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  guint n;
  g_autofree Job *seq = NULL;
  g_autofree Job *par = NULL;
  g_autofree GThread **threads = NULL;

  if (path == NULL)
    return;
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  n = cs_tracedat_reader_get_n_cpus (reader);
  seq = g_new0 (Job, n);
  par = g_new0 (Job, n);
  threads = g_new0 (GThread *, n);
  for (guint i = 0; i < n; i++)
    {
      seq[i] = (Job) { reader, i, 0, 0, 0 };
      read_cpu_thread (&seq[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      par[i] = (Job) { reader, i, 0, 0, 0 };
      threads[i] = g_thread_new ("cpu", read_cpu_thread, &par[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpuint (par[i].n, ==, seq[i].n);
      g_assert_cmpint (par[i].pid_sum, ==, seq[i].pid_sum);
      g_assert_cmpint (par[i].ts_xor, ==, seq[i].ts_xor);
    }
}

/* ------------------------------------------------------------------------ */

/* DATE, OFFSET and TSC2NSEC change timestamps the way libtracecmd does. */
static void
test_time_options (gconstpointer name)
{
  g_autofree char *v7 = cs_test_path (name);
  g_autofree char *path = g_build_filename (g_get_user_runtime_dir (), "time-options.dat", NULL);
  g_autoptr(GByteArray) opts = g_byte_array_new ();
  g_autoptr(GBytes) extra = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  /* ts * 3 >> 1, and an offset of 10^6 ticks that libtracecmd keeps for
   * tracecmd_get_tsc2nsec() but does not subtract (compare_with_oracle()
   * proves the reader does not either) */
  guint32 tsc[4] = { GUINT32_TO_LE (3), GUINT32_TO_LE (1), GUINT32_TO_LE (1000000), 0 };
  guint32 mult, shift;
  CompareResult res, orig;

  if (v7 == NULL)
    return;
  cs_test_add_option (opts, 1, "0x10", 5);            /* DATE: 16 us */
  cs_test_add_option (opts, 7, "-123456789", 11);     /* OFFSET: ns */
  cs_test_add_option (opts, 14, tsc, sizeof tsc);     /* TSC2NSEC: mult, shift, offset */
  extra = g_byte_array_free_to_bytes (g_steal_pointer (&opts));
  cs_test_rewrite_v7 (v7, path, "zstd", NULL, extra);

  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cs_tracedat_reader_get_ts_offset (reader), ==, 16000 - 123456789);
  g_assert_true (cs_tracedat_reader_get_tsc2nsec (reader, &mult, &shift));
  g_assert_cmpuint (mult, ==, 3);
  g_assert_cmpuint (shift, ==, 1);
  g_assert_cmpuint (cs_tracedat_reader_get_tsc2nsec_offset (reader), ==, 1000000);
  compare_with_oracle (path, path, 0, FALSE, NULL, &res);
  compare_with_oracle (v7, v7, 0, FALSE, NULL, &orig);
  g_assert_cmpuint (res.n_records, ==, orig.n_records);
  g_assert_cmpuint (res.n_records, >, 0);
}

static void
test_big (void)
{
  const char *big = g_getenv ("CS_TRACEDAT_BIG");
  const char *oracle = g_getenv ("CS_TRACEDAT_BIG_ORACLE");
  const char *limit = g_getenv ("CS_TRACEDAT_BIG_LIMIT");
  CompareResult res;

  if (big == NULL)
    {
      g_test_skip ("set CS_TRACEDAT_BIG to a big recording to compare it");
      return;
    }
  compare_with_oracle (big, oracle ? oracle : big,
                       limit ? g_ascii_strtoull (limit, NULL, 10) : 2000000, FALSE,
                       g_strcmp0 (g_getenv ("CS_TRACEDAT_BIG_READ_AHEAD"), "1") == 0 ? sometimes_idle : NULL,
                       &res);
  g_test_message ("%s: the first %" G_GUINT64_FORMAT " records equal libtracecmd's",
                  big, res.n_records);
}

int
main (int argc, char **argv)
{
  if ((argc == 5 || argc == 6) && g_str_equal (argv[1], "--rewrite-v7"))
    {
      cs_test_rewrite_v7 (argv[3], argv[4], argv[2], argc == 6 ? argv[5] : NULL, NULL);
      return 0;
    }

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tracecmd_set_loglevel (TEP_LOG_NONE);

  for (guint i = 0; i < G_N_ELEMENTS (public_files); i++)
    {
      g_autofree char *name = g_strndup (public_files[i].name, strlen (public_files[i].name) - 4);
      g_autofree char *test = g_strdup_printf ("/cs/index/TracedatReader/public/%s", name);
      g_test_add_data_func (test, &public_files[i], test_public_file);
    }
  for (guint i = 0; i < G_N_ELEMENTS (own_files); i++)
    {
      g_autofree char *name = g_strndup (own_files[i].name, strlen (own_files[i].name) - 4);
      g_autofree char *test = g_strdup_printf ("/cs/index/TracedatReader/own/%s", name);
      g_test_add_data_func (test, &own_files[i], test_own_file);
    }
  g_test_add_func ("/cs/index/TracedatReader/zlib-twins", test_zlib_public);
  g_test_add_func ("/cs/index/TracedatReader/project-recordings", test_project_recordings);
  g_test_add_data_func ("/cs/index/TracedatReader/read-ahead/always", always_idle, test_read_ahead);
  g_test_add_data_func ("/cs/index/TracedatReader/read-ahead/sometimes", sometimes_idle, test_read_ahead);
  g_test_add_data_func ("/cs/index/TracedatReader/threads/sched-irq-v7", "sched-irq-v7.dat", test_threads);
  g_test_add_data_func ("/cs/index/TracedatReader/threads/sched-irq-v6", "sched-irq-v6.dat", test_threads);
  g_test_add_data_func ("/cs/index/TracedatReader/threads/public/sched-x86-v7-zstd",
                        "public/sched-x86-v7-zstd.dat", test_threads);
  g_test_add_data_func ("/cs/index/TracedatReader/threads/public/lisa-rtapp-arm64-v6",
                        "public/lisa-rtapp-arm64-v6.dat", test_threads);
  g_test_add_data_func ("/cs/index/TracedatReader/time-options", "sched-irq-v7.dat", test_time_options);
  g_test_add_data_func ("/cs/index/TracedatReader/time-options/public", "public/sched-x86-v7-zstd.dat",
                        test_time_options);
  g_test_add_func ("/cs/index/TracedatReader/batch", test_batch);
  g_test_add_func ("/cs/index/TracedatReader/big", test_big);

  return g_test_run ();
}
