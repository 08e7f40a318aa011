/* cs-index-builder.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Builds an index in four steps:
 *  1. scanner threads (one recording handle each) start reading their CPUs
 *     in parallel; the first records of every CPU fix the summaries' grid
 *     (origin and finest bucket width), so that the scan builds them as it
 *     goes and no record is read twice;
 *  2. the scanners read the rest and hand encoded chunks (events, slices,
 *     tasks, summary blocks) to this thread through a queue; a scanner
 *     alone on its core (the last CPU, or a recording with one busy CPU)
 *     leaves encoding its chunks to an encoder thread on the idle core;
 *  3. this thread, the only one touching SQLite, inserts them, then the
 *     derived tables (CPUs, event types, tasks);
 *  4. the file, written under a temporary name, is renamed into place.
 * With CHRONOSCOPE_INDEX_STEPS=1 each thread counts its CPU time per step
 * (cs-index-steps.c): the scanners read, decode, summarise and encode
 * (cs-cpu-scanner.c), this thread writes.
 * Memory is bounded by the chunks in flight (the queue is capped) plus the
 * per-task table, never by the number of events.
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <event-parse.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "cs-cpu-scanner.h"
#include "cs-chunk-packer.h"
#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-index-private.h"
#include "cs-index-steps.h"
#include "cs-index-tables-private.h"
#include "cs-test-hook.h"

/* Chunks waiting for SQLite; past this the scanners wait (~20 KiB each). */
#define MAX_QUEUED_CHUNKS 512

/* The memory budget (DESIGN.md: 256 MiB of RssAnon for the indexer) is a
 * sum of fixed parts, none of which follows the recording's size:
 *   SQLite's page cache                         16 MiB (build_into())
 *   chunks in flight, MAX_QUEUED_CHUNKS         ~10 MiB
 *   per scanner thread: task rows (4 MiB, cs-cpu-scanner.c), event and
 *     slice columns (~200 KiB), the reader's block (a 256 KiB window or
 *     one decompressed chunk) and compressed window (256 KiB), chunks
 *     waiting for its encoder (MAX_ENCODE_BYTES, 1 MiB), and for v7 the
 *     chunks decompressed ahead on an idle core (16 chunks, 640 KiB, and
 *     another compressed window)             ~7 MiB x MAX_SCAN_THREADS
 * plus ~150 bytes per task per CPU in the task table.  Measured on the
 * large benchmark recording (80 M events, 2 threads): 57 MiB. */
#define MAX_SCAN_THREADS 8

/* What the first records of a CPU tell. */
typedef struct {
  gboolean has_events;
  gint64 first_ns;
  double events_per_ns;
} CpuSample;

/* A guess at a CPU's records (cs_trace_file_estimate_cpu()). */
typedef struct {
  guint64 n_records;
  gint64 first_ns;
  gint64 last_ns;
} CpuEstimate;

/* Pages (or compressed chunks) of each CPU that guess is made from. */
#define ESTIMATE_SAMPLES 64

typedef struct {
  /* Set up before the threads start, then read-only. */
  const char *trace_path;
  CsTraceFile *file;        /* shared by the scanners when its cursors allow */
  CsTypeMap types;
  guint n_cpus;
  guint n_threads;
  guint n_cores;
  GCancellable *cancellable;

  GAsyncQueue *queue;       /* CsScanChunk*, or a ScanDone* marker */
  guint next_cpu;           /* atomic: the next CPU to scan */
  gint n_scanning;          /* atomic: scanner threads not done yet */
  volatile gint64 *progress_bytes;
  volatile gint64 *offsets;  /* per CPU, see _cs_cpu_scan_start(); -1 when
                              * not being read */
  gint64 *seen_offsets;     /* the writer's: offsets at the last report */
  gint64 *moved_us;         /* and when each last moved */

  /* The summaries' grid, chosen when every scanner thread has started its
   * CPUs (see choose_grid()). */
  GMutex grid_lock;
  GCond grid_cond;
  guint n_started;          /* scanner threads done starting their CPUs */
  gint failed;              /* atomic */
  CsCpuScan **scans;        /* per CPU, started and not yet taken */
  guint next_finish;        /* atomic: the next CPU of @scans to finish */
  CpuSample *samples;       /* per CPU */
  CpuEstimate *estimates;   /* per CPU, or NULL */
  CsSummaryGrid grid;
} Build;

/* Sent on the queue when a scanner thread has finished all its CPUs. */
typedef struct {
  GPtrArray *results;       /* CsScanResult* */
  GError *error;
} ScanDone;

/* Chunks travel in batches: one wake-up of the writer per batch instead of
 * per chunk (a profile showed the wake-ups costing several per cent). */
#define BATCH_CHUNKS 32

/* Bytes of rows to encode (CsScanChunk.raw) that a scanner may have
 * waiting for its encoder: 8 event chunks, or many small task chunks
 * (every task's rows go out at once when their budget is spent). */
#define MAX_ENCODE_BYTES (1024 * 1024)
/* The encoder, asleep, is woken for this many bytes of rows (an event
 * chunk) or this many chunks: a wake-up is a system call on each side,
 * and a scan hands on tens of thousands of small task chunks. */
#define WAKE_ENCODER_BYTES (128 * 1024)
#define WAKE_ENCODER_CHUNKS 64

/* A scanner thread and its encoder.  The scanner reads, decodes and
 * summarises; a core left idle (a recording with one busy CPU, or the
 * last CPU still being scanned) encodes its chunks meanwhile, on the
 * encoder's thread, which hands them to the writer in their order.  While
 * every core scans, the scanner encodes its chunks itself: handing them
 * over then cost ~20 % more CPU time (caches, context switches) for
 * nothing. */
typedef struct {
  Build *build;
  GPtrArray *batch;         /* CsScanChunk*, encoded, for the writer */

  GMutex lock;
  GCond chunk_added;        /* the encoder waits on it */
  GCond chunk_encoded;      /* the scanner waits on it */
  GQueue pending;           /* CsScanChunk*, for the encoder, in order */
  gsize raw_bytes;          /* of their rows to encode */
  gboolean encoder_busy;    /* with a chunk it took from @pending */
  gboolean scanner_encoding;  /* the scanner took chunks from @pending */
  gboolean encoder_waits;   /* on chunk_added */
  gboolean scanner_waits;   /* on chunk_encoded */
  GThread *encoder;
} Scanner;

/* The recording's file size from which the index is written in pages of
 * 64 KiB rather than 8 KiB (see build_into()). */
#define LARGE_PAGES_FROM_BYTES (G_GINT64_CONSTANT (32) << 20)

static void
flush_batch (Scanner *sc)
{
  Build *b = sc->build;

  if (sc->batch->len == 0)
    return;
  /* Back-pressure: never let the queue grow with the recording. */
  while (g_async_queue_length (b->queue) > MAX_QUEUED_CHUNKS / BATCH_CHUNKS &&
         !g_cancellable_is_cancelled (b->cancellable))
    g_usleep (500);
  g_async_queue_push (b->queue, g_steal_pointer (&sc->batch));
  sc->batch = g_ptr_array_new ();
}

/* The bytes of @chunk's rows to encode. */
static gsize
raw_bytes (const CsScanChunk *chunk)
{
  return chunk->raw != NULL ? sizeof (gint64) * chunk->n_columns * chunk->raw_stride : 0;
}

/* An encoded chunk goes into the batch for the writer. */
static void
send_chunk (Scanner     *sc,
            CsScanChunk *chunk)
{
  g_ptr_array_add (sc->batch, chunk);
  if (sc->batch->len >= BATCH_CHUNKS)
    flush_batch (sc);
}

/* With sc->lock held: wakes the encoder if it sleeps. */
static void
wake_encoder (Scanner *sc)
{
  if (sc->encoder_waits)
    {
      sc->encoder_waits = FALSE;
      g_cond_signal (&sc->chunk_added);
    }
}

/* CsScanEmitFunc, on the scanner's thread: the chunk is encoded here, or
 * when a core is idle or the encoder still has chunks (which go first),
 * goes to the encoder, after at most MAX_ENCODE_BYTES of others' rows;
 * chunks the encoder has not taken by then are encoded here.  The
 * ScanDone marker (kind -1) always goes to the encoder, which ends with
 * it. */
static void
enqueue_chunk (CsScanChunk *chunk,
               gpointer     user_data)
{
  Scanner *sc = user_data;
  Build *b = sc->build;

  g_mutex_lock (&sc->lock);
  if (chunk->kind != (CsScanChunkKind) -1 && g_queue_is_empty (&sc->pending) &&
      !sc->encoder_busy && g_atomic_int_get (&b->n_scanning) >= (gint) b->n_cores)
    {
      /* The encoder cannot take a chunk before the next one is queued:
       * the batch is this thread's until then. */
      g_mutex_unlock (&sc->lock);
      cs_scan_chunk_encode (chunk);
      send_chunk (sc, chunk);
      return;
    }
  /* The encoder lags: no core is idle after all (other programs run).
   * Chunks it has not taken are encoded here, in order, while their rows
   * are still in this core's caches, rather than waiting for it. */
  while (!sc->encoder_busy && g_queue_get_length (&sc->pending) >= 2)
    {
      CsScanChunk *old = g_queue_pop_head (&sc->pending);
      gsize old_bytes = raw_bytes (old);

      sc->scanner_encoding = TRUE;
      g_mutex_unlock (&sc->lock);
      cs_scan_chunk_encode (old);
      send_chunk (sc, old);
      g_mutex_lock (&sc->lock);
      sc->scanner_encoding = FALSE;
      sc->raw_bytes -= old_bytes;
    }
  if (chunk->raw != NULL)
    {
      while (sc->raw_bytes >= MAX_ENCODE_BYTES)
        {
          wake_encoder (sc);
          sc->scanner_waits = TRUE;
          g_cond_wait (&sc->chunk_encoded, &sc->lock);
        }
      sc->raw_bytes += raw_bytes (chunk);
    }
  g_queue_push_tail (&sc->pending, chunk);
  /* A wake-up only when the encoder sleeps, and has work enough (see
   * WAKE_ENCODER_BYTES); always for the marker, its last chunk. */
  if (sc->raw_bytes >= WAKE_ENCODER_BYTES || g_queue_get_length (&sc->pending) >= WAKE_ENCODER_CHUNKS ||
      chunk->kind == (CsScanChunkKind) -1)
    wake_encoder (sc);
  g_mutex_unlock (&sc->lock);
}

/* The encoder of a scanner: encodes the chunks enqueue_chunk() gives it
 * and sends them to the writer, up to the ScanDone marker. */
static gpointer
encoder_thread (gpointer user_data)
{
  Scanner *sc = user_data;

  for (;;)
    {
      CsScanChunk *chunk;
      gsize rows_bytes;

      g_mutex_lock (&sc->lock);
      while (g_queue_is_empty (&sc->pending) || sc->scanner_encoding)
        {
          sc->encoder_waits = TRUE;
          g_cond_wait (&sc->chunk_added, &sc->lock);
        }
      chunk = g_queue_pop_head (&sc->pending);
      sc->encoder_busy = TRUE;
      g_mutex_unlock (&sc->lock);

      if (chunk->kind == (CsScanChunkKind) -1)
        {
          g_ptr_array_add (sc->batch, chunk);
          g_async_queue_push (sc->build->queue, g_steal_pointer (&sc->batch));
          return NULL;
        }
      rows_bytes = raw_bytes (chunk);
      cs_scan_chunk_encode (chunk);
      send_chunk (sc, chunk);

      g_mutex_lock (&sc->lock);
      sc->encoder_busy = FALSE;
      sc->raw_bytes -= rows_bytes;
      if (sc->scanner_waits)
        {
          sc->scanner_waits = FALSE;
          g_cond_signal (&sc->chunk_encoded);
        }
      g_mutex_unlock (&sc->lock);
    }
}

/* Step 1, once every scanner has started its CPUs: the summaries' origin
 * is the recording's first event (the earliest first record of the CPUs,
 * what the whole scan would find) and their finest width follows the
 * recording's event rate, which is known only after the scan: it is
 * estimated from pages spread over each CPU's data (b->estimates), or else
 * from the first records of each CPU, which can be far from the average.
 * A wrong guess costs only a finer or coarser level 0.  Called with
 * b->grid_lock held. */
static void
choose_grid (Build *b)
{
  gint64 origin = G_MAXINT64, last = G_MININT64;
  double rate_sum = 0;
  guint n_rates = 0, n_active = 0;
  guint64 n_estimated = 0;
  gboolean estimated = b->estimates != NULL;

  for (guint cpu = 0; cpu < b->n_cpus; cpu++)
    {
      if (!b->samples[cpu].has_events)
        continue;
      origin = MIN (origin, b->samples[cpu].first_ns);
      if (b->samples[cpu].events_per_ns > 0)
        {
          rate_sum += b->samples[cpu].events_per_ns;
          n_rates++;
        }
      n_active++;
      if (estimated && b->estimates[cpu].n_records > 0)
        {
          n_estimated += b->estimates[cpu].n_records;
          last = MAX (last, b->estimates[cpu].last_ns);
        }
      else
        estimated = FALSE;
    }
  b->grid.origin_ns = origin == G_MAXINT64 ? 0 : origin;
  if (estimated && n_active > 0 && last > origin)
    b->grid.shift = _cs_summary_choose_shift (n_estimated, n_active, _cs_span_ns (origin, last));
  else
    b->grid.shift = _cs_summary_shift_for_rate (n_rates > 0 ? rate_sum / n_rates : 0);
}

typedef struct {
  Build *build;
  guint index;              /* 0 .. n_threads - 1 */
} ScannerArg;

/* CsTracedatIdleFunc: a core is idle when fewer scanner threads scan
 * than there are cores (the last CPU is scanned alone, or the recording
 * has fewer busy CPUs than the machine cores): then a scan's cursor
 * decompresses its next chunks (v7) on that core, as its encoder encodes
 * its chunks there.  While every core scans, a thread more would only
 * take time from the scanners. */
static gboolean
core_is_idle (gpointer user_data)
{
  Build *b = user_data;

  return g_atomic_int_get (&b->n_scanning) < (gint) b->n_cores;
}

static gpointer
scanner_thread (gpointer user_data)
{
  ScannerArg *arg = user_data;
  Build *b = arg->build;
  ScanDone *done = g_new0 (ScanDone, 1);
  g_autoptr(CsTraceFile) file = NULL;
  g_autoptr(GPtrArray) scans = g_ptr_array_new_with_free_func ((GDestroyNotify) _cs_cpu_scan_free);
  Scanner sc = { b, g_ptr_array_new () };
  gboolean shared = cs_trace_file_get_cursors_are_independent (b->file);
  guint cpu, next_own = arg->index;

  done->results = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_result_free);
  g_mutex_init (&sc.lock);
  g_cond_init (&sc.chunk_added);
  g_cond_init (&sc.chunk_encoded);
  g_queue_init (&sc.pending);
  sc.encoder = g_thread_new ("cs-encode", encoder_thread, &sc);
  if (shared)
    file = g_object_ref (b->file);
  else
    file = cs_trace_file_open (b->trace_path, &done->error);

  /* Start CPUs: their first records give the grid.  Starting one takes
   * a moment, so the first thread to get here would start them all: with
   * independent cursors the scans are shared out again after the grid is
   * chosen; otherwise each thread takes every n_threads-th CPU. */
  for (;;)
    {
      if (file == NULL || done->error != NULL)
        break;
      if (shared)
        cpu = g_atomic_int_add (&b->next_cpu, 1);
      else
        {
          cpu = next_own;
          next_own += b->n_threads;
        }
      if (cpu >= b->n_cpus || g_atomic_int_get (&b->failed))
        break;

      /* The origin needs one record; the rate, unless estimated, more. */
      CsCpuScan *scan = _cs_cpu_scan_start (file, cpu, &b->types,
                                            b->estimates != NULL ? 1 : CS_SCAN_SAMPLE_RECORDS,
                                            enqueue_chunk, &sc,
                                            &b->progress_bytes[cpu], &b->offsets[cpu],
                                            b->cancellable,
                                            &done->error);
      if (scan == NULL)
        break;
      _cs_cpu_scan_set_read_ahead (scan, core_is_idle, b);
      b->samples[cpu].has_events = _cs_cpu_scan_get_sample (scan, &b->samples[cpu].first_ns,
                                                            &b->samples[cpu].events_per_ns);
      if (shared)
        b->scans[cpu] = scan;
      else
        g_ptr_array_add (scans, scan);
    }

  /* Wait for the others; the last one chooses the grid. */
  g_mutex_lock (&b->grid_lock);
  if (done->error != NULL)
    g_atomic_int_set (&b->failed, TRUE);   /* stops the other scanners too */
  if (++b->n_started == b->n_threads)
    {
      choose_grid (b);
      g_cond_broadcast (&b->grid_cond);
    }
  while (b->n_started < b->n_threads)
    g_cond_wait (&b->grid_cond, &b->grid_lock);
  if (g_atomic_int_get (&b->failed) && done->error == NULL)
    g_set_error_literal (&done->error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Another CPU failed"));
  g_mutex_unlock (&b->grid_lock);

  for (guint i = 0; done->error == NULL; i++)
    {
      g_autoptr(CsCpuScan) scan = NULL;
      CsScanResult *r;

      if (shared)
        {
          /* The next CPU no thread has finished yet, whoever started it. */
          cpu = g_atomic_int_add (&b->next_finish, 1);
          if (cpu >= b->n_cpus)
            break;
          scan = g_steal_pointer (&b->scans[cpu]);
          if (scan == NULL)
            continue;
          _cs_cpu_scan_set_emit (scan, enqueue_chunk, &sc);
        }
      else if (i < scans->len)
        scan = g_steal_pointer (&g_ptr_array_index (scans, i));
      else
        break;

      r = _cs_cpu_scan_finish (scan, &b->grid, &done->error);
      if (r == NULL)
        {
          g_cancellable_cancel (b->cancellable);   /* stop the other scanners too */
          break;
        }
      g_ptr_array_add (done->results, r);
    }

  /* A ScanDone is told apart from a chunk by this marker kind; it goes in
   * the last batch, after this scanner's chunks. */
  CsScanChunk *marker = g_new0 (CsScanChunk, 1);
  g_atomic_int_add (&b->n_scanning, -1);   /* its core is free for encoders */
  marker->kind = (CsScanChunkKind) -1;
  marker->data = (GBytes *) done;
  enqueue_chunk (marker, &sc);
  g_thread_join (sc.encoder);
  g_mutex_clear (&sc.lock);
  g_cond_clear (&sc.chunk_added);
  g_cond_clear (&sc.chunk_encoded);
  return NULL;
}

/* Progress is the share of the file's bytes the scanners have passed:
 * each CPU's data is one region of the file, and the scanners report how
 * far into their region they are.  (For compressed files the positions are
 * in decompressed bytes, so this runs ahead and is clamped.) */
/* Where the scan is, for a watchdog: when any CPU moved on, the CPU being
 * read that moved on least recently (a stuck one, if any). */
static void
report_position (Build              *b,
                 gint64              now_us,
                 CsIndexPositionFunc position,
                 gpointer            user_data)
{
  gboolean moved = FALSE;
  gint stalest = -1;

  for (guint cpu = 0; cpu < b->n_cpus; cpu++)
    {
      gint64 offset = b->offsets[cpu];

      if (offset != b->seen_offsets[cpu])
        {
          b->seen_offsets[cpu] = offset;
          b->moved_us[cpu] = now_us;
          moved = TRUE;
        }
      if (offset >= 0 && (stalest < 0 || b->moved_us[cpu] < b->moved_us[stalest]))
        stalest = cpu;
    }
  if (moved && stalest >= 0 && position != NULL)
    position (stalest, b->seen_offsets[stalest], user_data);
}

static void
report_progress (Build              *b,
                 gint64              file_size,
                 CsIndexProgressFunc progress,
                 gpointer            user_data)
{
  double sum = 0;

  if (progress == NULL || file_size <= 0)
    return;
  for (guint cpu = 0; cpu < b->n_cpus; cpu++)
    sum += b->progress_bytes[cpu];
  /* Scanning is nearly all of the work; the secondary indexes take the
   * rest. */
  progress (0.95 * CLAMP (sum / file_size, 0, 1), user_data);
}

static int
compare_results_by_cpu (gconstpointer a,
                        gconstpointer b)
{
  const CsScanResult *ra = *(CsScanResult * const *) a;
  const CsScanResult *rb = *(CsScanResult * const *) b;

  return (int) ra->cpu - (int) rb->cpu;
}

static gboolean
build_into (sqlite3             *db,
            Build               *b,
            CsTraceFile         *file,
            const char          *identity,
            CsIndexProgressFunc  progress,
            CsIndexPositionFunc  position,
            gpointer             user_data,
            GError             **error)
{
  struct tep_handle *tep = cs_trace_file_get_tep (file);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_result_free);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_auto(CsIndexInserts) ins = { 0 };
  GStatBuf st;
  gint64 file_size = g_stat (b->trace_path, &st) == 0 ? st.st_size : 0;
  /* CS_INDEX_TEST_LARGE_PAGES: a small recording's index as a large one's
   * (tests/index/test-index-pages.c). */
  gsize page_size = file_size >= LARGE_PAGES_FROM_BYTES ||
                    cs_test_hook_is_set ("CS_INDEX_TEST_LARGE_PAGES") ? 65536 : 8192;
  g_autoptr(CsChunkPacker) packer = _cs_chunk_packer_new (page_size);
  g_autofree char *page_pragma = g_strdup_printf ("PRAGMA page_size = %zu;", page_size);
  g_autofree ScannerArg *args = NULL;
  GError *scan_error = NULL;
  guint n_threads, n_running;
  gboolean ok;
  gint64 last_report = 0;
  gint64 t0 = g_get_monotonic_time ();

  /* SQLite's default 2 MiB page cache is a little smaller than what the
   * inserts touch (the B-tree pages where each table grows, with the
   * blobs' overflow pages going through the cache): its evictions made
   * the writer read back ~150 MB of its own pages for the medium
   * recording.  8 MiB was enough for the large one; 16 MiB leaves room for
   * recordings of more CPUs and tasks.
   * Pages of 64 KiB: an event chunk's blob (~11 KiB) then fits in its
   * leaf page, ~5 to a page, instead of spilling into an overflow page of
   * 8 KiB (cs-chunk-packer.c stores them so that they fill the pages).
   * Measured on the large bench recording (v6, 3 runs each, same
   * binary): the write step's CPU time 0.72-0.88 s against 0.96-1.16 s,
   * and the index 4 % smaller (341.6 MB against 356.2 MB).  Pages of 32
   * KiB fit two blobs where three would do (+9 %: 389 MB), 16 KiB one
   * (+25 % on the medium one).  Readers see no difference beyond the
   * noise (render to the first frame, bench-frame); indexes written with
   * other page sizes read the same (SQLite keeps the size in the file), so
   * the schema version stays.
   * But every table and index takes one page at least: in pages of 64 KiB
   * the index of a recording of a few hundred events would be ~1.5 MB.
   * Recordings smaller than LARGE_PAGES_FROM_BYTES keep pages of 8 KiB. */
  cs_index_step_enter (CS_INDEX_STEP_WRITE);
  ok = _cs_sqlite_exec (db, page_pragma, error) &&
       _cs_sqlite_exec (db, "PRAGMA journal_mode = OFF;"
                            "PRAGMA synchronous = OFF; PRAGMA cache_size = -16384; BEGIN;", error) &&
       _cs_sqlite_exec (db, _cs_index_schema_sql, error) &&
       _cs_index_inserts_prepare (db, &ins, error);
  cs_index_step_leave ();
  if (!ok)
    return FALSE;

  _cs_index_build_type_map (tep, &b->types);

  /* Scanning is CPU-bound (page parsing, varints, zstd): one thread per
   * core, each taking the next unscanned CPU, and no more than
   * MAX_SCAN_THREADS, whose buffers the memory budget counts. */
  n_threads = CLAMP (g_get_num_processors (), 1, MIN (MAX (b->n_cpus, 1), MAX_SCAN_THREADS));
  b->n_threads = n_threads;
  b->n_scanning = (gint) n_threads;
  b->n_cores = MAX (g_get_num_processors (), 1);
  b->samples = g_new0 (CpuSample, MAX (b->n_cpus, 1));
  if (cs_trace_file_get_cursors_are_independent (file))
    {
      b->estimates = g_new0 (CpuEstimate, MAX (b->n_cpus, 1));
      cs_index_step_enter (CS_INDEX_STEP_READ);
      for (guint cpu = 0; cpu < b->n_cpus; cpu++)
        if (!cs_trace_file_estimate_cpu (file, cpu, ESTIMATE_SAMPLES, &b->estimates[cpu].n_records,
                                         &b->estimates[cpu].first_ns, &b->estimates[cpu].last_ns))
          b->estimates[cpu].n_records = 0;
      cs_index_step_leave ();
      g_debug ("%s: estimated the CPUs' records in %.3f s", b->trace_path,
               (g_get_monotonic_time () - t0) / 1e6);
    }
  b->scans = g_new0 (CsCpuScan *, MAX (b->n_cpus, 1));
  args = g_new0 (ScannerArg, n_threads);
  for (guint i = 0; i < n_threads; i++)
    {
      args[i].build = b;
      args[i].index = i;
      g_ptr_array_add (threads, g_thread_new ("cs-scan", scanner_thread, &args[i]));
    }

  n_running = n_threads;
  while (n_running > 0)
    {
      g_autoptr(GPtrArray) batch = g_async_queue_timeout_pop (b->queue, 50 * G_TIME_SPAN_MILLISECOND);
      gint64 now = g_get_monotonic_time ();

      if (now - last_report > 50 * G_TIME_SPAN_MILLISECOND)
        {
          report_progress (b, file_size, progress, user_data);
          report_position (b, now, position, user_data);
          last_report = now;
        }
      cs_index_step_enter (CS_INDEX_STEP_WRITE);
      for (guint i = 0; batch != NULL && i < batch->len; i++)
        {
          CsScanChunk *c = g_ptr_array_index (batch, i);

          if (c->kind == (CsScanChunkKind) -1)
            {
              ScanDone *done = (ScanDone *) c->data;

              n_running--;
              g_ptr_array_extend_and_steal (results, done->results);
              /* A scanner stopped because another failed says so with
               * G_IO_ERROR_CANCELLED: report the failure itself. */
              if (done->error != NULL &&
                  (scan_error == NULL ||
                   (g_error_matches (scan_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
                    !g_error_matches (done->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))))
                {
                  g_clear_error (&scan_error);
                  scan_error = done->error;
                }
              else
                g_clear_error (&done->error);
              g_free (done);
              g_free (c);
              continue;
            }

          if (scan_error != NULL)
            cs_scan_chunk_free (c);
          else if (!_cs_chunk_packer_add (packer, &ins, c, &scan_error))
            {
              /* Let the scanners finish quickly; their chunks are dropped. */
              g_cancellable_cancel (b->cancellable);
            }
        }
      cs_index_step_leave ();
    }
  /* The chunks the packer held back. */
  if (scan_error == NULL)
    {
      cs_index_step_enter (CS_INDEX_STEP_WRITE);
      _cs_chunk_packer_flush (packer, &ins, &scan_error);
      cs_index_step_leave ();
    }
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
  /* Scans left by a failure. */
  for (guint cpu = 0; cpu < b->n_cpus; cpu++)
    g_clear_pointer (&b->scans[cpu], _cs_cpu_scan_free);

  if (scan_error != NULL)
    {
      g_propagate_error (error, scan_error);
      return FALSE;
    }

  /* Results arrive in thread order; the tables want CPU order. */
  g_ptr_array_sort (results, compare_results_by_cpu);
  cs_index_step_enter (CS_INDEX_STEP_WRITE);
  ok = _cs_index_write_derived (db, file, identity, b->n_cpus, &b->types, &b->grid,
                                results, TRUE, error);
  cs_index_step_leave ();
  if (!ok)
    return FALSE;

  if (progress)
    progress (0.95, user_data);
  g_debug ("%s: scanned in %.3f s", b->trace_path, (g_get_monotonic_time () - t0) / 1e6);
  cs_index_step_enter (CS_INDEX_STEP_WRITE);
  ok = _cs_index_write_complete (db, error);
  cs_index_step_leave ();
  if (!ok)
    return FALSE;
  g_debug ("%s: complete at %.3f s", b->trace_path, (g_get_monotonic_time () - t0) / 1e6);
  if (progress)
    progress (1.0, user_data);
  return TRUE;
}

/* SQLite says "database or disk is full"; say which folder ran out of
 * room, as a %G_FILE_ERROR_NOSPC the window and CLI can show as it is. */
static void
explain_no_space (sqlite3     *db,
                  const char  *dir,
                  const char  *trace_path,
                  GError     **error)
{
  int sys = sqlite3_system_errno (db);

  if (error == NULL || *error == NULL ||
      g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      (sqlite3_errcode (db) != SQLITE_FULL && sys != ENOSPC && sys != EDQUOT))
    return;
  g_autofree char *detail = g_strdup ((*error)->message);
  g_clear_error (error);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC,
               _("No space left in the index cache folder %s while indexing %s; "
               "nothing was kept (%s)"), dir, trace_path, detail);
}

/* Returns @ok, or FALSE with a %CS_INDEX_ERROR_CHANGED @error (replacing
 * any other) when @trace_path no longer has @identity. */
static gboolean
check_unchanged (const char  *trace_path,
                 const char  *identity,
                 gboolean     ok,
                 GError     **error)
{
  g_autoptr(GError) id_error = NULL;
  g_autofree char *now = cs_index_cache_compute_identity (trace_path, &id_error);

  if (g_strcmp0 (now, identity) == 0)
    return ok;
  if (error != NULL && *error != NULL &&
      g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;
  g_clear_error (error);
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED,
               _("%s changed while it was being indexed (%s); its index was not kept"),
               trace_path, now == NULL ? id_error->message
                                       : _("it was truncated, rewritten or replaced"));
  return FALSE;
}

static void
batch_free (gpointer data)
{
  GPtrArray *batch = data;

  for (guint i = 0; i < batch->len; i++)
    {
      CsScanChunk *c = g_ptr_array_index (batch, i);

      if (c->kind == (CsScanChunkKind) -1)
        g_free (c);   /* ScanDone markers are only left on errors */
      else
        cs_scan_chunk_free (c);
    }
  g_ptr_array_unref (batch);
}

/* A "cancelled" handler gets the cancellable that fired first: passing it
 * g_cancellable_cancel() directly cancelled the caller's again, never
 * @own, so Cancel did not reach the scanners. */
static void
forward_cancel (GCancellable *cancellable,
                gpointer      own)
{
  g_cancellable_cancel (own);
}

/* Trace text is converted to a trace.dat before it is indexed: the
 * conversion's fraction (by bytes read) fills the first half of one
 * progress, the indexing's the second, so that it runs from 0 to 1 once.
 * A file that needed no conversion gives the indexing the whole range.
 * Nothing is ever reported lower than what was reported before. */
#define CONVERSION_SHARE 0.5

typedef struct {
  CsIndexProgressFunc progress;
  CsIndexPositionFunc position;
  gpointer user_data;
  gboolean indexing;     /* the conversion (if any) is over */
  gboolean converted;    /* the conversion reported: it had its half */
  double last;
} PhasedProgress;

static void
phased_progress_cb (double   fraction,
                    gpointer data)
{
  PhasedProgress *p = data;
  double overall;

  fraction = CLAMP (fraction, 0.0, 1.0);
  if (!p->indexing)
    {
      p->converted = TRUE;
      overall = CONVERSION_SHARE * fraction;
    }
  else if (p->converted)
    overall = CONVERSION_SHARE + (1.0 - CONVERSION_SHARE) * fraction;
  else
    overall = fraction;
  if (overall < p->last)
    return;
  p->last = overall;
  p->progress (overall, p->user_data);
}

static void
phased_position_cb (guint    cpu,
                    guint64  offset,
                    gpointer data)
{
  PhasedProgress *p = data;

  p->position (cpu, offset, p->user_data);
}

/**
 * cs_index_build:
 * @trace_path: the recording
 * @identity: its identity (cs_index_cache_compute_identity()), stored in
 *   the index
 * @index_path: where the finished index goes; its directory is created
 * @progress: (nullable): called on this thread with the fraction done,
 *   0..1, never lower than the call before; for trace text the conversion
 *   (when the cache does not hold it) is the first half
 * @position: (nullable): called on this thread with where the scan is
 *   (see #CsIndexPositionFunc)
 * @user_data: for @progress and @position
 * @cancellable: (nullable): stops the build with %G_IO_ERROR_CANCELLED
 * @error: %CS_INDEX_ERROR codes for a bad recording (see
 *   cs_trace_file_open()), %CS_INDEX_ERROR_SQLITE, %G_FILE_ERROR for the
 *   cache directory (%G_FILE_ERROR_NOSPC naming it when it is full),
 *   %CS_INDEX_ERROR_CHANGED when the recording's identity at the end
 *   differs from @identity (it was truncated or rewritten meanwhile),
 *   %G_IO_ERROR_CANCELLED
 *
 * Reads every event of the recording once and writes its index.  The index
 * is written under cs_index_cache_dup_temporary_path() and renamed to
 * @index_path only when complete and when the recording still has
 * @identity; on any failure nothing is left.  The caller serialises builds
 * of one @index_path (cs_index_lock_acquire()).  Uses one
 * scanner thread per core; anonymous memory stays bounded whatever the
 * recording's size.  Blocks: call it from a worker thread or process.
 *
 * Returns: %TRUE when @index_path holds a complete index
 */
gboolean
cs_index_build (const char          *trace_path,
                const char          *identity,
                const char          *index_path,
                CsIndexProgressFunc  progress,
                CsIndexPositionFunc  position,
                gpointer             user_data,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autoptr(CsTraceFile) file = NULL;
  g_autoptr(GCancellable) own_cancellable = g_cancellable_new ();
  g_autofree char *dir = g_path_get_dirname (index_path);
  g_autofree char *tmp_path = cs_index_cache_dup_temporary_path (index_path, getpid ());
  g_autofree gint64 *progress_bytes = NULL;
  g_autofree gint64 *offsets = NULL;
  g_autofree gint64 *seen_offsets = NULL;
  g_autofree gint64 *moved_us = NULL;
  sqlite3 *db = NULL;
  gulong handler = 0;
  gboolean ok;
  Build b = { 0 };
  PhasedProgress phased = { progress, position, user_data, FALSE, FALSE, 0.0 };

  /* Trace text is converted here first: the first half of the progress. */
  file = cs_trace_file_open_full (trace_path, progress != NULL ? phased_progress_cb : NULL,
                                  &phased, cancellable, error);
  if (file == NULL)
    return FALSE;
  phased.indexing = TRUE;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot create the index directory %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  cs_index_cache_remove_stale_temporaries ();
  g_unlink (tmp_path);

  if (sqlite3_open_v2 (tmp_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                       SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                   _("Cannot create the index %s: %s"), tmp_path,
                   db ? sqlite3_errmsg (db) : _("out of memory"));
      sqlite3_close (db);
      g_unlink (tmp_path);
      return FALSE;
    }

  /* Scanners watch their own cancellable so that an SQLite failure here
   * can stop them as well as the caller's Cancel. */
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel),
                                     g_object_ref (own_cancellable), g_object_unref);

  b.trace_path = trace_path;
  b.file = file;
  b.n_cpus = cs_trace_file_get_n_cpus (file);
  b.cancellable = own_cancellable;
  b.queue = g_async_queue_new_full (batch_free);
  g_mutex_init (&b.grid_lock);
  g_cond_init (&b.grid_cond);
  progress_bytes = g_new0 (gint64, MAX (b.n_cpus, 1));
  b.progress_bytes = progress_bytes;
  offsets = g_new (gint64, MAX (b.n_cpus, 1));
  seen_offsets = g_new (gint64, MAX (b.n_cpus, 1));
  moved_us = g_new0 (gint64, MAX (b.n_cpus, 1));
  for (guint cpu = 0; cpu < MAX (b.n_cpus, 1); cpu++)
    offsets[cpu] = seen_offsets[cpu] = -1;
  b.offsets = offsets;
  b.seen_offsets = seen_offsets;
  b.moved_us = moved_us;

  ok = build_into (db, &b, file, identity, progress != NULL ? phased_progress_cb : NULL,
                   position != NULL ? phased_position_cb : NULL, &phased, error);

  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, handler);
  if (!ok && g_cancellable_is_cancelled (cancellable) && error && *error &&
      !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Indexing was cancelled"));
    }

  g_async_queue_unref (b.queue);
  g_free (b.types.by_tep_id);
  g_free (b.samples);
  g_free (b.scans);
  g_free (b.estimates);
  g_mutex_clear (&b.grid_lock);
  g_cond_clear (&b.grid_cond);
  if (!ok)
    explain_no_space (db, dir, trace_path, error);
  cs_index_step_enter (CS_INDEX_STEP_WRITE);
  if (sqlite3_close (db) != SQLITE_OK && ok)
    ok = _cs_sqlite_check (db, SQLITE_ERROR, _("closing the index"), error);
  cs_index_step_leave ();

  /* What was read must be what is there now: a recording truncated or
   * rewritten meanwhile would leave an index of neither version.  Checked
   * after failures too, since a file cut short mid-read fails as damaged. */
  ok = check_unchanged (trace_path, identity, ok, error);

  if (ok && g_rename (tmp_path, index_path) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot move the finished index to %s: %s"), index_path, g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp_path);
  return ok;
}
