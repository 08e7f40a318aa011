/* test-document.c: the index against `trace-cmd report`, on real recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every recording in tests/data and in ../shared/testdata/public is indexed
 * and its counts per CPU and per event type compared with what
 * tests/oracle/report-counts.py reads from `trace-cmd report`.  Bad files
 * are indexed in a subprocess (g_test_trap_subprocess) so that a crash
 * fails the test instead of killing it.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <json-glib/json-glib.h>

#include <event-parse.h>
#include <sqlite3.h>

#include "cs-document.h"
#include "cs-document-private.h"
#include "cs-trace-file.h"
#include "cs-index-cache.h"
#include "index-test-util.h"

static JsonObject *
run_oracle (const char *trace_path)
{
  g_autoptr(JsonNode) root = cs_test_run_oracle ("CS_ORACLE", trace_path);

  return root != NULL ? json_object_ref (json_node_get_object (root)) : NULL;
}

static void
assert_counts_match (CsDocument *doc,
                     JsonObject *oracle)
{
  JsonObject *cpus = json_object_get_object_member (oracle, "cpus");
  JsonObject *events = json_object_get_object_member (oracle, "events");
  guint n_types_seen = 0;

  g_assert_cmpuint (cs_document_get_n_events (doc), ==,
                    json_object_get_int_member (oracle, "n_events"));

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autofree char *key = g_strdup_printf ("%u", cpu);
      gint64 want = json_object_has_member (cpus, key) ? json_object_get_int_member (cpus, key) : 0;

      g_assert_cmpuint (cs_document_get_cpu (doc, cpu)->n_events, ==, want);
    }

  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, t);
      g_autofree char *key = g_strdup_printf ("%s:%s", type->system, type->name);
      gint64 want = json_object_has_member (events, key) ? json_object_get_int_member (events, key) : 0;

      if (type->n_events != (guint64) want)
        g_error ("%s: index has %" G_GUINT64_FORMAT ", trace-cmd report %" G_GINT64_FORMAT,
                 key, type->n_events, want);
      if (type->n_events > 0)
        n_types_seen++;
    }
  g_assert_cmpuint (n_types_seen, ==, json_object_get_size (events));
}

static void
test_counts_match_report (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_checked = 0;

  if (cs_test_public_dir () == NULL)
    g_test_message ("../shared/testdata/public is absent: only tests/data is checked");

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(JsonObject) oracle = run_oracle (path);
      g_autoptr(CsDocument) doc = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", path);
      doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
      if (oracle == NULL)
        {
          /* trace-cmd cannot read it: we must refuse it with a message. */
          g_assert_null (doc);
          g_assert_nonnull (error);
          continue;
        }
      g_assert_no_error (error);
      assert_counts_match (doc, oracle);
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >=, 3);
}

static void
test_reopen_reuses_index (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(CsDocument) first = NULL;
  g_autoptr(CsDocument) second = NULL;
  g_autoptr(GError) error = NULL;
  gboolean reused = TRUE;
  guint64 before, after_build, after_reopen;

  before = cs_trace_file_get_n_records_read ();
  first = cs_document_load (path, NULL, NULL, NULL, &reused, &error);
  g_assert_no_error (error);
  g_assert_false (reused);
  after_build = cs_trace_file_get_n_records_read ();
  g_assert_cmpuint (after_build - before, ==, cs_document_get_n_events (first));

  second = cs_document_load (path, NULL, NULL, NULL, &reused, &error);
  g_assert_no_error (error);
  g_assert_true (reused);
  after_reopen = cs_trace_file_get_n_records_read ();
  /* Not one record of the recording was read to reopen it. */
  g_assert_cmpuint (after_reopen, ==, after_build);
  g_assert_cmpuint (cs_document_get_n_events (second), ==, cs_document_get_n_events (first));
  g_assert_cmpstr (cs_document_get_index_path (second), ==, cs_document_get_index_path (first));
  g_assert_true (g_str_has_prefix (cs_document_get_index_path (second), g_get_user_cache_dir ()));
}

static void
test_changed_recording_is_reindexed (void)
{
  g_autofree char *src = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *dir = g_dir_make_tmp ("cs-test-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.dat", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *first_index = NULL;
  gsize len;
  gboolean reused;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  {
    g_autoptr(CsDocument) doc = cs_document_load (copy, NULL, NULL, NULL, &reused, &error);
    g_assert_no_error (error);
    first_index = g_strdup (cs_document_get_index_path (doc));
  }

  /* Another recording at the same path: the old index must not be used. */
  g_autofree char *other = cs_test_own_path ("no-sched-v6.dat");
  g_autofree char *other_contents = NULL;
  gsize other_len;
  g_assert_true (g_file_get_contents (other, &other_contents, &other_len, NULL));
  g_assert_true (g_file_set_contents (copy, other_contents, other_len, NULL));
  {
    g_autoptr(CsDocument) doc = cs_document_load (copy, NULL, NULL, NULL, &reused, &error);
    g_autoptr(CsDocument) direct = cs_document_load (other, NULL, NULL, NULL, NULL, &error);
    g_autoptr(GError) stale_error = NULL;
    g_autoptr(CsDocument) old = NULL;

    g_assert_no_error (error);
    g_assert_false (reused);
    g_assert_cmpuint (cs_document_get_n_events (doc), ==, cs_document_get_n_events (direct));
    /* Opening the old index for the new file is refused as stale. */
    old = cs_document_open (copy, first_index, &stale_error);
    g_assert_null (old);
    g_assert_error (stale_error, CS_INDEX_ERROR, CS_INDEX_ERROR_STALE);
  }
  g_unlink (copy);
  g_rmdir (dir);
}

static guint
count_cache_files (void)
{
  g_autofree char *dir_path = cs_index_cache_dup_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* Runs in a subprocess: loads argv path and prints the error. */
static void
load_bad_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  guint before = count_cache_files ();

  doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  if (doc != NULL)
    {
      /* A clean empty (or partial) result is acceptable for a truncated
       * recording, as long as it is consistent. */
      g_print ("loaded %" G_GUINT64_FORMAT " events\n", cs_document_get_n_events (doc));
      return;
    }
  g_assert_nonnull (error);
  g_assert_cmpuint (strlen (error->message), >, 0);
  g_assert_nonnull (strstr (error->message, path));
  g_print ("error: %s\n", error->message);
  /* Nothing half-written stays in the cache. */
  g_assert_cmpuint (count_cache_files (), ==, before);
}

static void
test_bad_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-bad-XXXXXX", NULL);
  g_autofree char *good = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *contents = NULL;
  gsize len;
  struct { const char *name; const char *expect; } cases[] = {
    { "text.dat", "not a trace-cmd recording" },
    { "empty.dat", "empty" },
    { "missing.dat", "No such file" },
    { "magic-only.dat", "truncated" },
    { "version-9.dat", "version" },
  };

  g_assert_true (g_file_get_contents (good, &contents, &len, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);

      if (g_str_equal (cases[i].name, "text.dat"))
        g_file_set_contents (path, "This is a text file, not a recording.\n", -1, NULL);
      else if (g_str_equal (cases[i].name, "empty.dat"))
        g_file_set_contents (path, "", 0, NULL);
      else if (g_str_equal (cases[i].name, "magic-only.dat"))
        g_file_set_contents (path, contents, 8, NULL);
      else if (g_str_equal (cases[i].name, "version-9.dat"))
        g_file_set_contents (path, "\027\010\104tracing9\0", 13, NULL);
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);

      g_assert_null (doc);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].expect) == NULL)
        g_error ("%s: \"%s\" does not say \"%s\"", cases[i].name, error->message, cases[i].expect);
    }
  g_assert_cmpuint (count_cache_files (), ==, 0);
}

/* Truncated copies at many lengths: each is loaded in a subprocess, which
 * must exit normally (an error or a consistent partial index), never crash
 * or hang. */
static void
test_truncated_recordings (gconstpointer data)
{
  const char *name = data;
  g_autofree char *src = cs_test_own_path (name);
  g_autofree char *contents = NULL;
  gsize len;
  static const double fractions[] = { 0.02, 0.1, 0.3, 0.5, 0.7, 0.85, 0.9, 0.95, 0.99 };

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("cs-trunc-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "truncated.dat", NULL);

      g_assert_true (g_file_set_contents (path, contents, (gssize) (len * fractions[i]), NULL));
      g_setenv ("CS_TEST_BAD_FILE", path, TRUE);
      g_test_trap_subprocess ("/cs/index/Document/load-bad-file-subprocess", 60 * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_INHERIT_STDERR);
      if (!g_test_trap_has_passed ())
        g_error ("%s cut at %.0f %% (%" G_GSIZE_FORMAT " bytes) crashed or hung the loader",
                 name, fractions[i] * 100, (gsize) (len * fractions[i]));
      g_unlink (path);
      g_rmdir (dir);
    }
}

static void
test_load_bad_file_subprocess (void)
{
  if (!g_test_subprocess ())
    return;
  load_bad_file (g_getenv ("CS_TEST_BAD_FILE"));
}

/* The summaries and the exact data must agree: the columns of a frame at
 * any zoom count every event once, and their busy time is the slices'. */
static void
test_columns_agree_with_events (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  gint64 first, last;
  static const guint widths[] = { 1, 7, 300, 1920, 100000 };

  g_assert_no_error (error);
  first = cs_document_get_first_ns (doc);
  last = cs_document_get_last_ns (doc) + 1;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      gint64 slice_busy = 0;

      g_assert_true (cs_document_get_slices (doc, cpu, first, last, slices, &error));
      g_assert_true (cs_document_get_events (doc, cpu, first, last, G_MAXUINT, events, &error));
      g_assert_cmpuint (events->len, ==, cs_document_get_cpu (doc, cpu)->n_events);
      for (guint i = 0; i < slices->len; i++)
        {
          CsSlice *s = &g_array_index (slices, CsSlice, i);
          g_assert_cmpint (s->end_ns, >, s->begin_ns);
          g_assert_cmpint (s->pid, >, 0);
          if (i > 0)
            g_assert_cmpint (s->begin_ns, >=, g_array_index (slices, CsSlice, i - 1).end_ns);
          slice_busy += s->end_ns - s->begin_ns;
        }
      for (guint i = 1; i < events->len; i++)
        g_assert_cmpuint (g_array_index (events, CsEvent, i).row, ==, i);

      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        {
          g_autofree CsColumn *cols = g_new0 (CsColumn, widths[w]);
          guint64 n = 0;
          gint64 busy = 0;

          g_assert_true (cs_document_get_cpu_columns (doc, cpu, first, last, widths[w], cols, &error));
          g_assert_no_error (error);
          for (guint i = 0; i < widths[w]; i++)
            {
              n += cols[i].n_events;
              busy += cols[i].busy_ns;
              if (cols[i].busy_ns > 0)
                g_assert_cmpint (cols[i].dominant_pid, >, 0);
            }
          g_assert_cmpuint (n, ==, events->len);
          /* Summaries spread a bucket's busy time evenly over the columns
           * it covers: allow a nanosecond of rounding per bucket (at most
           * five buckets a column). */
          g_assert_cmpint (ABS (busy - slice_busy), <=, 5 * (gint64) widths[w]);
        }

      /* A zoomed-in window around an event finds it, with its text. */
      if (events->len > 0)
        {
          CsEvent *mid = &g_array_index (events, CsEvent, events->len / 2);
          CsEvent found;
          g_autofree char *text = NULL;

          g_assert_true (cs_document_find_event_near (doc, cpu, mid->ts_ns + 3, 10, &found, &error));
          g_assert_cmpint (found.ts_ns, ==, mid->ts_ns);
          text = cs_document_format_event (doc, &found, &error);
          g_assert_no_error (error);
          g_assert_nonnull (text);
        }
    }
}

/* A document reads its records with the formats of its own event types
 * only (cs_document_open_trace_file()): fewer formats than the recording
 * carries, and every record's text the same as with all of them. */
static void
test_formats_of_its_types (gconstpointer data)
{
  g_autofree char *path = cs_test_own_path (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(CsTraceFile) all = NULL;
  CsTraceFile *own;
  guint n_types = 0;
  guint64 n_compared = 0;

  g_assert_no_error (error);
  own = cs_document_get_trace_file (doc);
  g_assert_nonnull (own);
  all = cs_trace_file_open (path, &error);
  g_assert_no_error (error);
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    if (cs_document_get_event_type (doc, t)->n_events > 0 &&
        tep_find_event_by_name (cs_trace_file_get_tep (all), cs_document_get_event_type (doc, t)->system,
                                cs_document_get_event_type (doc, t)->name) != NULL)
      n_types++;
  g_assert_cmpint (tep_get_events_count (cs_trace_file_get_tep (own)), ==, n_types);
  /* A recording made with trace-cmd carries every format of its kernel. */
  g_assert_cmpint (tep_get_events_count (cs_trace_file_get_tep (all)), >, n_types);

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));

      g_assert_true (cs_document_get_events (doc, cpu, G_MININT64, G_MAXINT64, G_MAXUINT, events,
                                             &error));
      g_assert_no_error (error);
      for (guint i = 0; i < events->len; i++)
        {
          const CsEvent *ev = &g_array_index (events, CsEvent, i);
          g_autofree char *text = cs_document_format_event (doc, ev, &error);
          g_autofree char *want = NULL;
          CsRecord rec;

          g_assert_no_error (error);
          g_assert_true (cs_trace_file_read_at (all, ev->cpu, ev->offset, &rec, &error));
          g_assert_no_error (error);
          want = cs_trace_file_format_record (all, &rec);
          g_assert_cmpstr (text, ==, want);
          n_compared++;
        }
    }
  g_test_message ("%s: %u of %d formats parsed, %" G_GUINT64_FORMAT " records' text the same",
                  (const char *) data, n_types, tep_get_events_count (cs_trace_file_get_tep (all)),
                  n_compared);
  g_assert_cmpuint (n_compared, ==, cs_document_get_n_events (doc));
}

/* Events of some types, against all events filtered by type: the same
 * events (time, row, offset) over the whole recording and over a middle
 * span, whichever way the index finds them.  Returns how many (CPU, type)
 * pairs were rare enough for event_chunk_types (cs-document-events.c). */
static guint
compare_events_of_types (CsDocument *doc)
{
  guint n_types = cs_document_get_n_event_types (doc);
  g_autofree gboolean *wanted = g_new0 (gboolean, MAX (n_types, 1));
  guint n_rare = 0, n_compared = 0;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
      g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      g_autoptr(GError) error = NULL;
      guint64 n_chunks = info->n_events / 4096 + 1;
      /* The middle first: with event_chunk_types read a few chunks at a
       * time, the whole span then finds blocks read already between
       * those it reads. */
      gint64 spans[2][2] = {
        { info->first_ns + (info->last_ns - info->first_ns) / 3,
          info->first_ns + 2 * (info->last_ns - info->first_ns) / 3 },
        { info->first_ns, info->last_ns + 1 },
      };

      g_assert_true (cs_document_get_events (doc, cpu, info->first_ns, info->last_ns + 1,
                                             G_MAXUINT, all, &error));
      g_assert_no_error (error);
      for (guint t = 0; t < n_types; t++)
        {
          guint64 count = cs_document_get_cpu_type_count (doc, cpu, t);

          if (count == 0)
            continue;
          n_rare += count * 4 <= n_chunks;
          memset (wanted, 0, n_types * sizeof *wanted);
          wanted[t] = TRUE;
          for (guint sp = 0; sp < G_N_ELEMENTS (spans); sp++)
            {
              g_autoptr(GArray) some = g_array_new (FALSE, FALSE, sizeof (CsEvent));
              guint k = 0;

              g_assert_true (cs_document_get_events_of_types (doc, cpu, spans[sp][0], spans[sp][1],
                                                              wanted, n_types, G_MAXUINT, some,
                                                              &error));
              g_assert_no_error (error);
              for (guint i = 0; i < all->len; i++)
                {
                  const CsEvent *a = &g_array_index (all, CsEvent, i);
                  const CsEvent *b;

                  if (a->type_id != t || a->ts_ns < spans[sp][0] || a->ts_ns >= spans[sp][1])
                    continue;
                  g_assert_cmpuint (k, <, some->len);
                  b = &g_array_index (some, CsEvent, k++);
                  g_assert_cmpint (b->ts_ns, ==, a->ts_ns);
                  g_assert_cmpuint (b->row, ==, a->row);
                  g_assert_cmpuint (b->offset, ==, a->offset);
                  g_assert_cmpuint (b->type_id, ==, t);
                }
              g_assert_cmpuint (k, ==, some->len);
              if (sp == 1)
                g_assert_cmpuint (some->len, ==, count);
              n_compared += some->len;
            }
        }
    }
  g_test_message ("%u events compared; %u (CPU, type) pairs rare enough for event_chunk_types",
                  n_compared, n_rare);
  return n_rare;
}

/* preemptirq-v7.dat holds 15-17 event chunks per CPU, and types that few
 * of them hold (sched_process_exec), which the index finds from
 * event_chunk_types without stepping over the others. */
static void
test_events_of_rare_types (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("preemptirq-v7.dat");

  g_assert_cmpuint (compare_events_of_types (doc), >, 0);
}

/* Whether event_chunk_types was read for each chunk of @doc but those
 * of [@first_unknown, @end_unknown) (their blocks damaged): a chunk of a
 * block read tells where a span from it ends, here at once. */
static void
assert_chunk_types_known (CsDocument *doc,
                          gint64      first_unknown,
                          gint64      end_unknown)
{
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      gint64 n_chunks = (gint64) (cs_document_get_cpu (doc, cpu)->n_events + 4095) / 4096;

      g_assert_cmpint (n_chunks, >, 8);
      for (gint64 c = 0; c < n_chunks; c++)
        {
          gint64 last = _cs_document_chunk_types_last_before (doc, cpu, c, G_MININT64);

          if (c < first_unknown || c >= end_unknown)
            g_assert_cmpint (last, ==, c);
          else
            g_assert_cmpint (last, ==, -1);
        }
    }
}

/* The same with event_chunk_types read 4 chunks at a time
 * (cs-chunk-types.c reads 256 at a time; the recording has 15-17 a CPU):
 * spans that begin and end in different blocks. */
static void
test_events_of_rare_types_in_blocks (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("preemptirq-v7.dat");

  _cs_document_set_chunk_types_block (doc, 4);
  g_assert_cmpuint (compare_events_of_types (doc), >, 0);
  /* The whole spans read every block: each chunk's first time known. */
  assert_chunk_types_known (doc, G_MAXINT64, G_MAXINT64);
}

/* A copy of @name's index at @dir/@file (@dir made from @dir_template),
 * for a test that damages or moves it; the copy's path is returned and
 * @dir set.  drop_index_copy() removes both. */
static char *
copy_index (const char  *name,
            const char  *dir_template,
            const char  *file,
            char       **dir)
{
  g_autoptr(CsDocument) first = cs_test_load (name);
  g_autofree char *contents = NULL;
  char *copy;
  gsize len;

  *dir = g_dir_make_tmp (dir_template, NULL);
  g_assert_nonnull (*dir);
  copy = g_build_filename (*dir, file, NULL);
  g_assert_true (g_file_get_contents (cs_document_get_index_path (first), &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, len, NULL));
  return copy;
}

static void
drop_index_copy (const char *copy,
                 const char *dir)
{
  g_unlink (copy);
  g_rmdir (dir);
}

/* A copy of preemptirq-v7.dat's index (at @dir/index.db, for
 * drop_index_copy()) with @sql run on it, which must change rows. */
static char *
damaged_index_copy (const char  *sql,
                    char       **dir)
{
  char *copy = copy_index ("preemptirq-v7.dat", "cs-types-XXXXXX", "index.db", dir);
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (copy, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), >, 0);
  sqlite3_close (db);
  return copy;
}

/* The same with each CPU's later half of event_chunk_types gone (a
 * damaged index): those rows' blocks are not trusted, and every event is
 * still found by stepping over their chunks. */
static void
test_events_of_rare_types_without_table_rows (void)
{
  g_autofree char *recording = cs_test_own_path ("preemptirq-v7.dat");
  g_autofree char *dir = NULL;
  g_autofree char *copy = damaged_index_copy ("DELETE FROM event_chunk_types WHERE chunk >= 8",
                                              &dir);
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  doc = cs_document_open (recording, copy, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (compare_events_of_types (doc), >, 0);
  g_clear_object (&doc);
  /* Read 4 chunks at a time, the first two blocks are whole and the
   * others damaged: spans over both kinds. */
  doc = cs_document_open (recording, copy, &error);
  g_assert_no_error (error);
  _cs_document_set_chunk_types_block (doc, 4);
  g_assert_cmpuint (compare_events_of_types (doc), >, 0);
  assert_chunk_types_known (doc, 8, G_MAXINT64);
  g_clear_object (&doc);
  drop_index_copy (copy, dir);
}

/* The same with a row of event_chunk_types listing more type ids than a
 * chunk has rows (a hostile index): its block is not trusted, the others
 * are, and every event is still found. */
static void
test_events_of_rare_types_with_a_hostile_row (void)
{
  g_autofree char *recording = cs_test_own_path ("preemptirq-v7.dat");
  g_autofree char *dir = NULL;
  g_autofree char *copy = damaged_index_copy ("UPDATE event_chunk_types SET types ="
                                              " zeroblob(8194) WHERE chunk = 5", &dir);
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  doc = cs_document_open (recording, copy, &error);
  g_assert_no_error (error);
  _cs_document_set_chunk_types_block (doc, 4);
  g_assert_cmpuint (compare_events_of_types (doc), >, 0);
  assert_chunk_types_known (doc, 4, 8);
  g_clear_object (&doc);
  drop_index_copy (copy, dir);
}

static gboolean
count_irq (const CsIrq *irq,
           gpointer     user_data)
{
  (*(guint *) user_data)++;
  return TRUE;
}

/* An interrupt chunk whose blob was cut short, or claims more rows than
 * a chunk holds (a damaged or hostile index): reading a span over it is
 * an error that names the index, never a crash; a span before it reads. */
static void
test_damaged_irq_chunk (gconstpointer data)
{
  g_autofree char *recording = cs_test_own_path ("preemptirq-v7.dat");
  g_autofree char *dir = NULL;
  g_autofree char *copy = damaged_index_copy (data, &dir);
  g_autoptr(CsDocument) doc = cs_document_open (recording, copy, NULL);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_assert_nonnull (doc);
  g_assert_false (cs_document_foreach_irq (doc, 0, G_MININT64 + 1, G_MAXINT64, count_irq, &n,
                                           &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, copy));
  g_clear_object (&doc);
  drop_index_copy (copy, dir);
}

/* The events of [@begin_ns, @end_ns) in @all (a CPU's, in time order)
 * must be @got, of the types @wanted says (all when NULL). */
static void
assert_span (GArray         *all,
             GArray         *got,
             gint64          begin_ns,
             gint64          end_ns,
             const gboolean *wanted)
{
  guint k = 0;

  for (guint i = 0; i < all->len; i++)
    {
      const CsEvent *e = &g_array_index (all, CsEvent, i);

      if (e->ts_ns < begin_ns || e->ts_ns >= end_ns || (wanted != NULL && !wanted[e->type_id]))
        continue;
      g_assert_cmpuint (k, <, got->len);
      g_assert_cmpint (g_array_index (got, CsEvent, k).ts_ns, ==, e->ts_ns);
      g_assert_cmpuint (g_array_index (got, CsEvent, k).row, ==, e->row);
      k++;
    }
  g_assert_cmpuint (k, ==, got->len);
}

/* Short spans, as a critical path asks for the wakeups at one time:
 * around chunk edges, at events' own times, walking forward (answered
 * from the chunk decoded last) and jumping about, of all events and of
 * one type.  Each answer must be the whole CPU's events, filtered. */
static void
test_events_in_short_spans (void)
{
  g_autoptr(CsDocument) doc = cs_test_load_path (CS_SAMPLE_TRACE);
  guint n_types = cs_document_get_n_event_types (doc);
  g_autofree gboolean *wanted = g_new0 (gboolean, MAX (n_types, 1));
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261130);
  guint n_spans = 0;

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
      g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      g_autoptr(GError) error = NULL;

      g_assert_true (cs_document_get_events (doc, cpu, info->first_ns, info->last_ns + 1,
                                             G_MAXUINT, all, &error));
      g_assert_no_error (error);
      if (all->len == 0)
        continue;
      memset (wanted, 0, n_types * sizeof *wanted);
      wanted[g_array_index (all, CsEvent, all->len / 2).type_id] = TRUE;
      for (guint i = 0; i < all->len; i += (i % 4096 < 3 || i % 4096 > 4092) ? 1 : 31)
        for (guint r = 0; r < 2; r++)
          {
            /* Forward, and every fourth one from anywhere. */
            guint at = r == 0 ? i : (guint) g_rand_int_range (rand, 0, (gint32) all->len);
            gint64 ts = g_array_index (all, CsEvent, at).ts_ns;
            gint64 begin_ns = ts - g_rand_int_range (rand, 0, 3);
            /* Half of them up to just past the next event (into the
             * next chunk at a chunk's end). */
            gint64 end_ns = at + 1 < all->len && g_rand_boolean (rand)
                            ? g_array_index (all, CsEvent, at + 1).ts_ns + g_rand_int_range (rand, 0, 2)
                            : ts + g_rand_int_range (rand, 0, 3000);
            g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (CsEvent));
            g_autoptr(GArray) some = g_array_new (FALSE, FALSE, sizeof (CsEvent));

            if (r == 1 && i % 4 != 0)
              continue;
            g_assert_true (cs_document_get_events (doc, cpu, begin_ns, end_ns, G_MAXUINT, got,
                                                   &error));
            g_assert_true (cs_document_get_events_of_types (doc, cpu, begin_ns, end_ns, wanted,
                                                            n_types, G_MAXUINT, some, &error));
            g_assert_no_error (error);
            assert_span (all, got, begin_ns, end_ns, NULL);
            assert_span (all, some, begin_ns, end_ns, wanted);
            n_spans++;
          }
    }
  g_test_message ("%u spans", n_spans);
  g_assert_cmpuint (n_spans, >, 1000);
}

/* An index is opened through a URI (immutable, cs-index-schema.c): one
 * in a folder whose name holds what a URI escapes must open and read. */
static void
test_index_at_odd_path (void)
{
  g_autofree char *recording = cs_test_own_path ("sched-irq-v6.dat");
  g_autofree char *dir = NULL;
  g_autofree char *copy = copy_index ("sched-irq-v6.dat", "cs odd %41?#[x]-XXXXXX", "in dex?.db", &dir);
  g_autoptr(CsDocument) first = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  const CsCpuInfo *info;

  doc = cs_document_open (recording, copy, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, cs_document_get_n_events (first));
  info = cs_document_get_cpu (doc, 0);
  g_assert_true (cs_document_get_events (doc, 0, info->first_ns, info->last_ns + 1, G_MAXUINT,
                                         events, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, info->n_events);
  g_clear_object (&doc);
  drop_index_copy (copy, dir);
}

static void
test_cancel_leaves_nothing (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;

  g_cancellable_cancel (cancellable);
  doc = cs_document_load (path, NULL, NULL, cancellable, NULL, &error);
  /* A tiny recording may finish before the first check; either way the
   * cache holds a complete index or nothing. */
  if (doc == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (count_cache_files (), ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/index/Document/counts-match-report", test_counts_match_report);
  g_test_add_func ("/cs/index/Document/reopen-reuses-index", test_reopen_reuses_index);
  g_test_add_func ("/cs/index/Document/changed-recording-is-reindexed", test_changed_recording_is_reindexed);
  g_test_add_func ("/cs/index/Document/bad-files", test_bad_files);
  g_test_add_data_func ("/cs/index/Document/truncated-v6", "sched-irq-v6.dat", test_truncated_recordings);
  g_test_add_data_func ("/cs/index/Document/truncated-v7", "sched-irq-v7.dat", test_truncated_recordings);
  g_test_add_func ("/cs/index/Document/load-bad-file-subprocess", test_load_bad_file_subprocess);
  g_test_add_func ("/cs/index/Document/columns-agree-with-events", test_columns_agree_with_events);
  g_test_add_func ("/cs/index/Document/cancel-leaves-nothing", test_cancel_leaves_nothing);
  g_test_add_data_func ("/cs/index/Document/formats-of-its-types/v6", "sched-irq-v6.dat",
                        test_formats_of_its_types);
  g_test_add_data_func ("/cs/index/Document/formats-of-its-types/v7-function", "function-v7.dat",
                        test_formats_of_its_types);
  g_test_add_func ("/cs/index/Document/events-of-rare-types", test_events_of_rare_types);
  g_test_add_func ("/cs/index/Document/events-of-rare-types/in-blocks",
                   test_events_of_rare_types_in_blocks);
  g_test_add_func ("/cs/index/Document/events-of-rare-types/with-a-hostile-row",
                   test_events_of_rare_types_with_a_hostile_row);
  g_test_add_func ("/cs/index/Document/events-of-rare-types/without-table-rows",
                   test_events_of_rare_types_without_table_rows);
  g_test_add_data_func ("/cs/index/Document/damaged-irq-chunk/cut-short",
                        "UPDATE irq_chunks SET data = substr (data, 1, 100) WHERE cpu = 0 AND chunk = 0",
                        test_damaged_irq_chunk);
  g_test_add_data_func ("/cs/index/Document/damaged-irq-chunk/too-many-rows",
                        "UPDATE irq_chunks SET n_rows = 1000000 WHERE cpu = 0 AND chunk = 0",
                        test_damaged_irq_chunk);
  g_test_add_func ("/cs/index/Document/events-in-short-spans", test_events_in_short_spans);
  g_test_add_func ("/cs/index/Document/index-at-odd-path", test_index_at_odd_path);

  return g_test_run ();
}
