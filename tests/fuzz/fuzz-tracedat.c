/* fuzz-tracedat.c: libFuzzer target for the trace.dat reader, the per-CPU
 * scanner and the index builder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each input is written to a file in a private folder and opened the way
 * `chronoscope info` opens a recording, but in-process: cs_document_load()
 * builds the index into a private $XDG_CACHE_HOME, then a few document
 * queries read it back (CPU columns, slices, events, the first event's
 * text, missed events).  A damaged input must end in a GError; a crash, a
 * sanitizer report, a leak or a hang (libFuzzer's -timeout) is a finding.
 * After each input the recording and everything in the cache folder are
 * removed, so no index of one input is ever reused for the next.
 *
 * Inputs with buffer instances are skipped (and kept out of the corpus):
 * Chronoscope reads instances through libtracecmd 1.3.1, whose
 * tracecmd_buffer_instance_handle() crashes in tracecmd_close() on a
 * damaged instance section.  That crash is libtracecmd's, and the index
 * worker process contains it ("The indexer crashed"); those files are
 * damaged by tests/fuzz/mutate-info.py instead, through the worker.
 *
 * Built by tests/fuzz/build.sh (clang, -fsanitize=fuzzer,address); see
 * tests/fuzz/README.md.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cs-document.h"
#include "cs-tracedat-clock.h"
#include "cs-tracedat-reader.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define N_COLUMNS   64
#define MAX_EVENTS  256

static char *work_dir;
static char *trace_path;
static char *cache_dir;

/* Removes every file below @dir (indexes, their temporaries and the
 * summary threads' side files), keeping @dir itself. */
static void
empty_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          empty_dir (path);
          g_rmdir (path);
        }
      else
        g_unlink (path);
    }
}

static void
remove_work_dir (void)
{
  if (work_dir == NULL)
    return;
  empty_dir (work_dir);
  g_rmdir (work_dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(GError) error = NULL;

  work_dir = g_dir_make_tmp ("cs-fuzz-XXXXXX", &error);
  if (work_dir == NULL)
    g_error ("fuzz-tracedat: %s", error->message);
  trace_path = g_build_filename (work_dir, "input.dat", NULL);
  cache_dir = g_build_filename (work_dir, "cache", NULL);
  /* GLib reads $XDG_CACHE_HOME once, so set it before anything asks. */
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  g_mkdir_with_parents (cache_dir, 0700);
  atexit (remove_work_dir);
  return 0;
}

/* The queries a window and `chronoscope info` make first. */
static void
query_document (CsDocument *document)
{
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 last_ns = cs_document_get_last_ns (document);
  guint n_cpus = cs_document_get_n_cpus (document);
  guint n_types = cs_document_get_n_event_types (document);
  guint n_tasks = cs_document_get_n_tasks (document);

  (void) cs_document_get_n_events (document);
  (void) cs_document_get_clock (document);
  (void) cs_document_get_compression (document);
  for (guint i = 0; i < n_types; i++)
    (void) cs_document_get_event_type (document, i);
  for (guint i = 0; i < n_tasks && i < 64; i++)
    {
      const CsTask *task = cs_document_get_task (document, i);

      if (task != NULL)
        (void) cs_document_get_comm (document, task->pid);
    }

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      CsColumn columns[N_COLUMNS];
      g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      g_autoptr(GArray) missed = g_array_new (FALSE, FALSE, sizeof (CsMissedEvents));
      const CsCpuInfo *info = cs_document_get_cpu (document, cpu);
      gint64 end_ns = last_ns < G_MAXINT64 ? last_ns + 1 : last_ns;
      CsEvent event;

      if (info == NULL)
        continue;

      /* Every query may fail on a damaged index with a GError; only a
       * crash or a sanitizer report is a finding. */
      (void) cs_document_get_cpu_columns (document, cpu, first_ns, end_ns,
                                          N_COLUMNS, columns, NULL);
      (void) cs_document_get_slices (document, cpu, first_ns, end_ns, slices, NULL);
      (void) cs_document_get_events (document, cpu, first_ns, end_ns, MAX_EVENTS,
                                     events, NULL);
      (void) cs_document_get_missed_events (document, cpu, first_ns, end_ns,
                                            missed, NULL);
      if (info->n_events > 0 &&
          cs_document_get_event_at_row (document, cpu, info->n_events - 1, &event, NULL))
        {
          g_free (cs_document_format_event (document, &event, NULL));
          g_strfreev (cs_document_dup_event_fields (document, &event, NULL));
        }
      if (events->len > 0)
        {
          const CsEvent *first = &g_array_index (events, CsEvent, 0);
          CsSlice slice;

          g_free (cs_document_format_event (document, first, NULL));
          (void) cs_document_find_slice_at (document, cpu, first->ts_ns, &slice, NULL);
        }
    }
}

/* The clock and peer options, parsed on demand (cs-tracedat-clock.c), as
 * `chronoscope info` reads them; with itself as the host a relation
 * exercises its checks. */
static void
query_clock (CsTracedatReader *reader)
{
  g_autoptr(CsTimeShift) shift = cs_tracedat_reader_dup_time_shift (reader, NULL);
  g_autoptr(GPtrArray) guests = cs_tracedat_reader_dup_guests (reader, NULL);
  g_autoptr(CsTimeRelation) relation = cs_time_relation_new (reader, reader, NULL);
  guint64 host_ts;
  gint64 ns;

  g_free (cs_tracedat_reader_dup_clock_description (reader));
  (void) cs_tracedat_reader_get_trace_id (reader, NULL);
  for (guint v = 0; shift != NULL && v < shift->n_vcpus && v < 4; v++)
    {
      (void) cs_time_shift_apply (shift, v, 0, &host_ts);
      (void) cs_time_shift_apply (shift, v, G_MAXUINT64, &host_ts);
      if (shift->n_samples[v] > 0)
        (void) cs_time_shift_apply (shift, v, (guint64) shift->samples[v][0].time, &host_ts);
    }
  if (relation != NULL)
    (void) cs_time_relation_guest_to_host (relation, 0, 1000, &ns);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsTracedatReader) reader = NULL;

  if (!g_file_set_contents (trace_path, (const char *) data, (gssize) size, &error))
    g_error ("fuzz-tracedat: %s", error->message);

  reader = cs_tracedat_reader_open (trace_path, NULL);
  if (reader != NULL)
    query_clock (reader);
  if (reader != NULL && cs_tracedat_reader_get_n_instance_buffers (reader) > 0)
    {
      g_clear_object (&reader);
      g_unlink (trace_path);
      return -1;
    }
  g_clear_object (&reader);

  document = cs_document_load (trace_path, NULL, NULL, NULL, NULL, &error);
  if (document != NULL)
    query_document (document);
  else if (error == NULL)
    g_error ("fuzz-tracedat: cs_document_load() failed without an error");

  g_clear_object (&document);
  g_unlink (trace_path);
  empty_dir (cache_dir);
  return 0;
}
