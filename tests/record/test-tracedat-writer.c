/* test-tracedat-writer.c: CsTracedatWriter on pages from this machine's
 * ring buffers, read by `trace-cmd report` and by our index.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The test records by hand, without CsRecorder: a private instance with the
 * sched events, some activity, then every page of trace_pipe_raw read into
 * a file per CPU and its events counted with kbuffer.  The writer turns
 * that into a trace.dat; trace-cmd report must read the same number of
 * events, and cs_document_load() the same counts per CPU and per type.
 * Needs root; skipped (with the reason) without it or without tracefs.
 *
 * clock-option reads the file with trace-cmd while malloc(0) returns
 * garbage (tests/oracle/malloc0.c with CS_MALLOC0_TEXT=[garbage]): libtracecmd parses the
 * TRACECLOCK option's payload, so an empty one made report print raw counts
 * now and then (test-record-signals failed once in about seven full runs).
 * text-options needs neither root nor tracefs: it writes a crafted page
 * and reads the options back.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <kbuffer.h>

#include "cs-record-private.h"
#include "cs-tracedat-private.h"
#include "cs-tracedat-writer.h"
#include "record-test-util.h"

typedef struct {
  char *dir;
  char *instance;
  guint n_cpus;
  guint page_size;
  guint long_size;
  int *cpu_fds;
  guint64 *cpu_bytes;
  guint64 n_events;
  TracefsSnapshot snapshot;
} Fixture;

static void
write_file (const char *dir, const char *file, const char *value)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  int err = _cs_record_write_file (path, value);

  if (err != 0)
    g_error ("Cannot write %s to %s: %s", value, path, g_strerror (err));
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = _cs_record_read_file (path, &error);

  g_assert_no_error (error);
  return bytes;
}

/* Records the sched events of a little activity into per-CPU files of raw
 * pages, by hand. */
static void
capture_pages (Fixture *f)
{
  g_autofree char *header_page = g_build_filename (rt_tracing_dir (), "events", "header_page", NULL);
  g_autoptr(GBytes) header = read_bytes (header_page);
  g_autoptr(GError) error = NULL;
  struct kbuffer *kbuf;
  guint8 *page;

  g_assert_true (_cs_record_page_layout (header, &f->page_size, &f->long_size, &error));
  g_assert_no_error (error);
  f->n_cpus = _cs_record_count_cpus (rt_tracing_dir ());
  g_assert_cmpuint (f->n_cpus, >, 0);

  f->instance = g_strdup_printf ("%s/instances/chronoscope-%d", rt_tracing_dir (), (int) getpid ());
  g_assert_cmpint (g_mkdir (f->instance, 0755), ==, 0);
  write_file (f->instance, "tracing_on", "0");
  write_file (f->instance, "buffer_size_kb", "2048");
  write_file (f->instance, "events/sched/enable", "1");
  write_file (f->instance, "tracing_on", "1");
  for (int i = 0; i < 20; i++)
    {
      const char *argv[] = { "true", NULL };
      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                    NULL, NULL, NULL, NULL);
      g_usleep (2000);
    }
  write_file (f->instance, "tracing_on", "0");

  kbuf = kbuffer_alloc (f->long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
                        KBUFFER_ENDIAN_LITTLE);
  page = g_malloc (f->page_size);
  f->cpu_fds = g_new0 (int, f->n_cpus);
  f->cpu_bytes = g_new0 (guint64, f->n_cpus);
  for (guint cpu = 0; cpu < f->n_cpus; cpu++)
    {
      g_autofree char *raw = g_strdup_printf ("%s/per_cpu/cpu%u/trace_pipe_raw", f->instance, cpu);
      g_autofree char *name = g_strdup_printf ("cpu%u.raw", cpu);
      g_autofree char *out = g_build_filename (f->dir, name, NULL);
      int in = open (raw, O_RDONLY | O_NONBLOCK);
      ssize_t n;

      g_assert_cmpint (in, >=, 0);
      f->cpu_fds[cpu] = open (out, O_RDWR | O_CREAT | O_TRUNC, 0600);
      g_assert_cmpint (f->cpu_fds[cpu], >=, 0);
      g_unlink (out);
      while ((n = read (in, page, f->page_size)) > 0)
        {
          unsigned long long ts;

          memset (page + n, 0, f->page_size - (gsize) n);
          g_assert_cmpint (kbuffer_load_subbuffer (kbuf, page), ==, 0);
          for (void *ev = kbuffer_read_event (kbuf, &ts); ev; ev = kbuffer_next_event (kbuf, &ts))
            f->n_events++;
          g_assert_cmpint (write (f->cpu_fds[cpu], page, f->page_size), ==, (ssize_t) f->page_size);
          f->cpu_bytes[cpu] += f->page_size;
        }
      g_assert_true (n == 0 || errno == EAGAIN);
      close (in);
    }
  kbuffer_free (kbuf);
  g_free (page);
  g_assert_cmpuint (f->n_events, >, 0);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("cs-writer-XXXXXX", &error);
  g_assert_no_error (error);
  if (!rt_require_tracefs ())
    return;
  rt_snapshot_take (&f->snapshot);
  capture_pages (f);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  if (f->instance != NULL)
    {
      g_assert_cmpint (g_rmdir (f->instance), ==, 0);
      rt_snapshot_assert_same (&f->snapshot);
      rt_assert_instance_gone (getpid ());
    }
  for (guint cpu = 0; f->cpu_fds != NULL && cpu < f->n_cpus; cpu++)
    close (f->cpu_fds[cpu]);
  g_free (f->cpu_fds);
  g_free (f->cpu_bytes);
  g_free (f->instance);
  if (f->dir != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (f->dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (f->dir);
      g_free (f->dir);
    }
}

/* A writer with everything the recording needs, as CsRecorder fills it. */
static CsTracedatWriter *
new_writer (Fixture *f, const char *path)
{
  CsTracedatWriter *writer = cs_tracedat_writer_new (path, f->page_size, f->n_cpus);
  const char *top = rt_tracing_dir ();
  g_autofree char *header_page = g_build_filename (top, "events", "header_page", NULL);
  g_autofree char *header_event = g_build_filename (top, "events", "header_event", NULL);
  g_autofree char *sched = g_build_filename (top, "events", "sched", NULL);
  g_autofree char *printk = g_build_filename (top, "printk_formats", NULL);
  g_autofree char *cmdlines = g_build_filename (top, "saved_cmdlines", NULL);
  g_autofree char *clock = g_build_filename (f->instance, "trace_clock", NULL);
  g_autofree char *clock_text = rt_read_text (clock);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) _cs_record_event_free);
  g_autoptr(GDir) dir = g_dir_open (sched, 0, NULL);
  g_autoptr(GBytes) hp = read_bytes (header_page);
  g_autoptr(GBytes) he = read_bytes (header_event);
  g_autoptr(GBytes) pf = read_bytes (printk);
  g_autoptr(GBytes) cl = read_bytes (cmdlines);
  g_autoptr(GError) error = NULL;
  guint32 n_cpus = f->n_cpus;
  g_autoptr(GBytes) count = g_bytes_new (&n_cpus, 4);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *format = g_build_filename (sched, name, "format", NULL);
      CsRecordEvent *event;

      if (!g_file_test (format, G_FILE_TEST_EXISTS))
        continue;
      event = g_new0 (CsRecordEvent, 1);
      event->system = g_strdup ("sched");
      event->name = g_strdup (name);
      g_ptr_array_add (events, event);
    }

  cs_tracedat_writer_set_header_page (writer, hp);
  cs_tracedat_writer_set_header_event (writer, he);
  g_assert_true (_cs_record_add_formats (writer, top, events, &error));
  g_assert_no_error (error);
  cs_tracedat_writer_set_printk_formats (writer, pf);
  cs_tracedat_writer_set_cmdlines (writer, cl);
  cs_tracedat_writer_set_trace_clock (writer, clock_text);
  cs_tracedat_writer_add_option (writer, CS_TD_OPTION_CPUCOUNT, count);
  for (guint cpu = 0; cpu < f->n_cpus; cpu++)
    cs_tracedat_writer_set_cpu_data (writer, cpu, f->cpu_fds[cpu], f->cpu_bytes[cpu]);
  return writer;
}

static void
test_report_reads_it (Fixture *f, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) oracle = NULL;
  g_autoptr(CsDocument) doc = NULL;

  if (f->instance == NULL)
    return;

  path = g_build_filename (f->dir, "written.dat", NULL);
  writer = new_writer (f, path);
  g_assert_true (cs_tracedat_writer_finish (writer, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("%" G_GUINT64_FORMAT " events in %u CPUs' pages", f->n_events, f->n_cpus);

  /* trace-cmd report reads every event of the pages... */
  oracle = rt_run_oracle (path);
  g_assert_cmpuint ((guint64) json_object_get_int_member (oracle, "n_events"), ==, f->n_events);
  g_assert_cmpuint ((guint64) json_object_get_int_member (oracle, "n_cpus"), ==, f->n_cpus);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (oracle, "warnings")), ==, 0);

  /* ...and our index agrees with it, with the clock we wrote. */
  doc = rt_load_document (path);
  rt_assert_document_matches (doc, oracle);
  g_assert_cmpuint (cs_document_get_file_version (doc), ==, 6);
  g_assert_cmpstr (cs_document_get_clock (doc), ==, "local");
  rt_assert_no_leftovers (f->dir, "written.dat");
}

/* The same with malloc(0) returning "[garbage]" (tests/oracle/malloc0.c
 * and CS_MALLOC0_TEXT): nothing may depend on what malloc(0)
 * returns.  Before the TRACECLOCK option carried its text, libtracecmd took
 * "[garbage]" for the clock and report printed no "SECONDS.MICROS:" time,
 * so the oracle counted no event at all. */
static void
test_clock_option (Fixture *f, gconstpointer data)
{
  const char *shim = g_getenv ("CS_MALLOC0_SHIM");
  g_autofree char *path = NULL;
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) oracle = NULL;
  g_auto(GStrv) envp = NULL;

  if (f->instance == NULL)
    return;
  if (shim == NULL || !g_file_test (shim, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("$CS_MALLOC0_SHIM (tests/oracle/malloc0.c, built) is not set");
      return;
    }

  path = g_build_filename (f->dir, "clock.dat", NULL);
  writer = new_writer (f, path);
  g_assert_true (cs_tracedat_writer_finish (writer, NULL, &error));
  g_assert_no_error (error);

  envp = g_environ_setenv (g_get_environ (), "LD_PRELOAD", shim, TRUE);
  envp = g_environ_setenv (envp, "CS_MALLOC0_TEXT", "[garbage]", TRUE);
  oracle = rt_run_oracle_env (path, envp);
  if ((guint64) json_object_get_int_member (oracle, "n_events") != f->n_events)
    rt_describe_recording (path, oracle);
  g_assert_cmpuint ((guint64) json_object_get_int_member (oracle, "n_events"), ==, f->n_events);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (oracle, "warnings")), ==, 0);
}

/* ------------------------------------------------------------------------ */
/* The options as written, without tracefs                                   */

typedef struct {
  const guint8 *data;
  gsize len;
  gsize pos;
} Cursor;

static const guint8 *
take (Cursor *c, gsize n)
{
  const guint8 *p = c->data + c->pos;

  g_assert_cmpuint (n, <=, c->len - c->pos);
  c->pos += n;
  return p;
}

static guint64
take_u (Cursor *c, gsize n)
{
  guint64 v = 0;

  memcpy (&v, take (c, n), n);   /* this machine's byte order, little-endian */
  return v;
}

static void
skip_sized (Cursor *c, gsize size_bytes)
{
  take (c, (gsize) take_u (c, size_bytes));
}

/* Options by id: the payload of the last one of each id. */
static GHashTable *
read_options (const guint8 *file, gsize len, guint n_cpus, GBytes **clock_after)
{
  GHashTable *options = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_bytes_unref);
  Cursor c = { file, len, 0 };
  guint32 n;

  g_assert_cmpmem (take (&c, 10), 10, "\x17\x08\x44tracing", 10);
  g_assert_cmpmem (take (&c, 2), 2, "6", 2);
  take (&c, 1 + 1 + 4);                               /* endian, long size, page size */
  g_assert_cmpmem (take (&c, 12), 12, "header_page", 12);
  skip_sized (&c, 8);
  g_assert_cmpmem (take (&c, 13), 13, "header_event", 13);
  skip_sized (&c, 8);
  for (n = (guint32) take_u (&c, 4); n > 0; n--)      /* ftrace formats */
    skip_sized (&c, 8);
  for (guint32 systems = (guint32) take_u (&c, 4); systems > 0; systems--)
    {
      take (&c, strlen ((const char *) c.data + c.pos) + 1);
      for (n = (guint32) take_u (&c, 4); n > 0; n--)
        skip_sized (&c, 8);
    }
  skip_sized (&c, 4);                                 /* kallsyms */
  skip_sized (&c, 4);                                 /* printk formats */
  skip_sized (&c, 8);                                 /* saved cmdlines */
  g_assert_cmpuint (take_u (&c, 4), ==, n_cpus);
  g_assert_cmpmem (take (&c, 10), 10, "options  ", 10);
  for (;;)
    {
      guint16 id = (guint16) take_u (&c, 2);
      guint32 size;

      if (id == 0)
        break;
      size = (guint32) take_u (&c, 4);
      g_hash_table_insert (options, GUINT_TO_POINTER (id), g_bytes_new (take (&c, size), size));
    }
  g_assert_cmpmem (take (&c, 10), 10, "flyrecord", 10);
  take (&c, (gsize) n_cpus * 16);
  n = (guint32) take_u (&c, 8);
  *clock_after = g_bytes_new (take (&c, n), n);
  return options;
}

/* Text options end with their NUL, as trace-cmd writes them (libtracecmd
 * strdup()s UNAME and VERSION and parses TRACECLOCK's payload as it is),
 * and the v6 clock text still follows the flyrecord table.  A crafted
 * page; no tracefs. */
static void
test_text_options (void)
{
  static const char clock[] = "[local] global counter uptime perf mono mono_raw boot tai x86-tsc\n";
  static const char uname_text[] = "Linux test 6.18.0 #1 SMP";
  static const char version[] = "chronoscope test";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-writer-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "options.dat", NULL);
  g_autofree char *pages = g_build_filename (dir, "cpu0.raw", NULL);
  g_autoptr(CsTracedatWriter) writer = cs_tracedat_writer_new (path, 4096, 2);
  g_autoptr(GBytes) header = g_bytes_new_static ("field: u64 timestamp;\n", 22);
  g_autoptr(GBytes) uname_bytes = g_bytes_new_static (uname_text, strlen (uname_text));
  g_autoptr(GBytes) version_bytes = g_bytes_new_static (version, sizeof version);  /* has its NUL */
  g_autoptr(GHashTable) options = NULL;
  g_autoptr(GBytes) clock_after = NULL;
  g_autofree guint8 *page = g_malloc0 (4096);
  g_autofree char *file = NULL;
  gsize len = 0;
  GBytes *opt;
  int fd;

  g_assert_no_error (error);
  /* One page: time stamp 1000, 8 bytes committed, one 4-byte event. */
  page[0] = 0xe8; page[1] = 0x03;
  page[8] = 8;
  page[16] = 1;
  fd = open (pages, O_RDWR | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, page, 4096), ==, 4096);

  cs_tracedat_writer_set_header_page (writer, header);
  cs_tracedat_writer_set_header_event (writer, header);
  cs_tracedat_writer_set_trace_clock (writer, clock);
  cs_tracedat_writer_add_option (writer, CS_TD_OPTION_UNAME, uname_bytes);
  cs_tracedat_writer_add_option (writer, CS_TD_OPTION_VERSION, version_bytes);
  cs_tracedat_writer_set_cpu_data (writer, 0, fd, 4096);   /* CPU 1 is empty */
  g_assert_true (cs_tracedat_writer_finish (writer, NULL, &error));
  g_assert_no_error (error);
  close (fd);

  g_assert_true (g_file_get_contents (path, &file, &len, &error));
  g_assert_no_error (error);
  options = read_options ((const guint8 *) file, len, 2, &clock_after);

  opt = g_hash_table_lookup (options, GUINT_TO_POINTER (CS_TD_OPTION_TRACECLOCK));
  g_assert_nonnull (opt);
  g_assert_cmpmem (g_bytes_get_data (opt, NULL), g_bytes_get_size (opt), clock, sizeof clock);
  g_assert_cmpmem (g_bytes_get_data (clock_after, NULL), g_bytes_get_size (clock_after),
                   clock, strlen (clock));
  opt = g_hash_table_lookup (options, GUINT_TO_POINTER (CS_TD_OPTION_UNAME));
  g_assert_nonnull (opt);
  g_assert_cmpmem (g_bytes_get_data (opt, NULL), g_bytes_get_size (opt), uname_text, sizeof uname_text);
  opt = g_hash_table_lookup (options, GUINT_TO_POINTER (CS_TD_OPTION_VERSION));
  g_assert_nonnull (opt);
  g_assert_cmpmem (g_bytes_get_data (opt, NULL), g_bytes_get_size (opt), version, sizeof version);

  /* The page is there, whole, page-aligned. */
  g_assert_cmpuint (len % 4096, ==, 0);
  g_assert_cmpmem (file + len - 4096, 4096, page, 4096);

  g_unlink (path);
  g_unlink (pages);
  g_rmdir (dir);
}

static void
test_unwritable_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = NULL;
  g_autofree char *path = NULL;
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GError) error = NULL;

  if (f->instance == NULL)
    return;

  missing = g_build_filename (f->dir, "missing", NULL);
  path = g_build_filename (missing, "x.dat", NULL);
  writer = new_writer (f, path);
  g_assert_false (cs_tracedat_writer_finish (writer, NULL, &error));
  g_assert_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_OUTPUT);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
  rt_assert_no_leftovers (f->dir, NULL);
}

static void
test_cancelled (Fixture *f, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint64 total = 0;

  if (f->instance == NULL)
    return;
  for (guint cpu = 0; cpu < f->n_cpus; cpu++)
    total += f->cpu_bytes[cpu];
  g_assert_cmpuint (total, >, 0);

  path = g_build_filename (f->dir, "cancelled.dat", NULL);
  writer = new_writer (f, path);
  g_cancellable_cancel (cancellable);
  g_assert_false (cs_tracedat_writer_finish (writer, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* No half-written file under the final name, no temporary file. */
  rt_assert_no_leftovers (f->dir, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/record/CsTracedatWriter/report-reads-it", Fixture, NULL,
              fixture_set_up, test_report_reads_it, fixture_tear_down);
  g_test_add ("/cs/record/CsTracedatWriter/clock-option", Fixture, NULL,
              fixture_set_up, test_clock_option, fixture_tear_down);
  g_test_add_func ("/cs/record/CsTracedatWriter/text-options", test_text_options);
  g_test_add ("/cs/record/CsTracedatWriter/unwritable-folder", Fixture, NULL,
              fixture_set_up, test_unwritable_folder, fixture_tear_down);
  g_test_add ("/cs/record/CsTracedatWriter/cancelled", Fixture, NULL,
              fixture_set_up, test_cancelled, fixture_tear_down);

  return g_test_run ();
}
