/* cs-index-live.c: the index of a recording in progress, built as it grows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * While the recorder streams each CPU's ring-buffer pages to disk, the
 * window asks it about once a second for a snapshot: a trace.dat of the
 * pages so far, whose CPU data each extend the previous snapshot's by
 * whole pages (cs-recorder-snapshot.c).  The final file at Stop extends
 * the last snapshot the same way.
 *
 * Instead of indexing each snapshot whole, this keeps one scan per CPU
 * open from one file to the next (cs-cpu-scanner.c): each file's new pages
 * only are read, and the chunks that fill up go into a base database that
 * only grows.  An index of a snapshot is a copy of that base plus what a
 * copy of each open scan closes (cs-cpu-scan-fork.c): the last chunks,
 * the running slice, the open summary blocks, the derived tables.  At Stop
 * the scans themselves are closed into the base, which becomes the final
 * file's index: the same index a single scan of that file builds, except
 * for the summaries' grid, chosen from the first snapshot.
 *
 * Record offsets are stored relative to each CPU's data, which starts
 * elsewhere in each file; each index says where (cpus.offset_base).
 *
 * The copy of the base is made ahead: after each index written, a thread
 * copies the base (idle until the next snapshot's chunks are stored) to a
 * spare file, and the next index is the spare plus the chunks the base
 * got since.  A refresh then costs what the snapshot added, not a copy of
 * everything indexed so far (0.2-0.4 s at 55 M events).
 *
 * Memory: per CPU an open scan (~4 MiB with its summaries), the tasks'
 * rows (bounded as in any scan), during cs_index_live_write() one copy of
 * each, and the chunks stored since the spare's copy (a few bytes per
 * event of one refresh).  One thread at a time calls in.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cs-cpu-scanner.h"
#include "cs-index-cache.h"
#include "cs-index-live.h"
#include "cs-index-private.h"
#include "cs-index-tables-private.h"

struct _CsIndexLive
{
  char *base_path;
  sqlite3 *db;                  /* the base: chunks that filled up */
  CsIndexInserts ins;
  GError *insert_error;         /* the first failure of emit_to_base() */
  GError *broken;               /* set when a scan stopped halfway */

  CsTraceFile *file;            /* the file added last */
  guint n_cpus;
  CsTypeMap types;
  CsCpuScan **scans;            /* n_cpus */
  guint64 *data_read;           /* n_cpus: bytes of each CPU's data read */
  gboolean has_grid;
  CsSummaryGrid grid;
  guint64 n_events;
  guint n_files;                /* added so far */
  gint64 *positions;            /* 2 n_cpus: where the scans say they are
                                 * (read by no one here) */

  /* A copy of the base made in the background after each index written,
   * while the recorder records the next snapshot: the next index is that
   * copy plus the chunks the base got since, so a refresh does not wait
   * for a copy of everything indexed so far. */
  char *spare_path;
  GThread *spare_thread;        /* copying the base to spare_path */
  gboolean spare_ready;         /* spare_path holds the base as it was... */
  GPtrArray *since_spare;       /* ...before these chunks (CsScanChunk*) */
};

/* CsScanEmitFunc: a scan's chunks go to the database being written. */
typedef struct {
  CsIndexInserts *ins;
  GError **error;
} Sink;

static void
emit_to_sink (CsScanChunk *chunk,
              gpointer     user_data)
{
  Sink *sink = user_data;

  if (*sink->error == NULL)
    _cs_index_insert_chunk (sink->ins, chunk, sink->error);
  cs_scan_chunk_free (chunk);
}

/* ---- The spare copy of the base -------------------------------------- */

static gpointer
copy_spare_thread (gpointer user_data)
{
  CsIndexLive *self = user_data;
  g_autoptr(GFile) base = g_file_new_for_path (self->base_path);
  g_autoptr(GFile) spare = g_file_new_for_path (self->spare_path);
  g_autoptr(GError) error = NULL;

  if (!g_file_copy (base, spare, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error))
    {
      g_debug ("live index: no spare copy of the base: %s", error->message);
      g_unlink (self->spare_path);
      return GINT_TO_POINTER (FALSE);
    }
  return GINT_TO_POINTER (TRUE);
}

/* Waits for the spare's copy: the base may change again. */
static void
join_spare (CsIndexLive *self)
{
  if (self->spare_thread != NULL)
    self->spare_ready = GPOINTER_TO_INT (g_thread_join (g_steal_pointer (&self->spare_thread)));
}

static void
drop_spare (CsIndexLive *self)
{
  join_spare (self);
  if (self->spare_ready)
    g_unlink (self->spare_path);
  self->spare_ready = FALSE;
  g_clear_pointer (&self->since_spare, g_ptr_array_unref);
}

/* After an index was written: copy the base, now idle, in the background. */
static void
start_spare (CsIndexLive *self)
{
  drop_spare (self);
  self->since_spare = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_chunk_free);
  self->spare_thread = g_thread_new ("cs-live-spare", copy_spare_thread, self);
}

static gboolean
open_db (const char  *path,
         sqlite3    **db,
         GError     **error)
{
  if (sqlite3_open_v2 (path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                   _("Cannot create the index %s: %s"), path,
                   *db ? sqlite3_errmsg (*db) : _("out of memory"));
      return FALSE;
    }
  /* As the builder's (cs-index-builder.c): nothing here survives a crash
   * anyway, and the file is complete only once renamed. */
  return _cs_sqlite_exec (*db, "PRAGMA page_size = 8192; PRAGMA journal_mode = OFF;"
                               "PRAGMA synchronous = OFF; PRAGMA cache_size = -16384;", error);
}

/**
 * cs_index_live_new:
 * @base_path: a file for the growing part of the index (replaced), in a
 *   private folder: it is removed by cs_index_live_free() or moved by
 *   cs_index_live_finish()
 * @error: %CS_INDEX_ERROR_SQLITE when it cannot be created
 *
 * Starts the index of a recording in progress; give it the recording's
 * snapshots with cs_index_live_add(), oldest first.
 *
 * Returns: (transfer full): the live index, or %NULL with @error set
 */
CsIndexLive *
cs_index_live_new (const char  *base_path,
                   GError     **error)
{
  g_autoptr(CsIndexLive) self = g_new0 (CsIndexLive, 1);

  g_return_val_if_fail (base_path != NULL, NULL);

  self->base_path = g_strdup (base_path);
  self->spare_path = g_strconcat (base_path, ".spare", NULL);
  g_unlink (base_path);
  if (!open_db (base_path, &self->db, error) ||
      !_cs_sqlite_exec (self->db, _cs_index_schema_sql, error) ||
      !_cs_index_inserts_prepare (self->db, &self->ins, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
check_same_recording (CsIndexLive  *self,
                      CsTraceFile  *file,
                      GError      **error)
{
  const char *path = cs_trace_file_get_path (file);
  CsTypeMap types = { 0 };
  gboolean same;

  if (cs_trace_file_get_compression (file) != NULL ||
      !cs_trace_file_get_cursors_are_independent (file))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: only an uncompressed recording without buffer instances can be "
                   "indexed while it grows"), path);
      return FALSE;
    }
  if (self->file == NULL)
    return TRUE;

  _cs_index_build_type_map (cs_trace_file_get_tep (file), &types);
  same = cs_trace_file_get_n_cpus (file) == self->n_cpus &&
         types.n_types == self->types.n_types &&
         memcmp (types.by_tep_id, self->types.by_tep_id, sizeof (gint32) * 65536) == 0;
  g_free (types.by_tep_id);
  if (!same)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED,
                   _("%s does not continue %s: its CPUs or event formats differ"),
                   path, cs_trace_file_get_path (self->file));
      return FALSE;
    }
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    if (cs_trace_file_get_cpu_data_size (file, cpu) < self->data_read[cpu])
      {
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED,
                     _("%s does not continue %s: CPU %u has less data (%" PRIu64
                     " bytes instead of %" PRIu64 " or more)"),
                     path, cs_trace_file_get_path (self->file), cpu,
                     cs_trace_file_get_cpu_data_size (file, cpu), self->data_read[cpu]);
        return FALSE;
      }
  return TRUE;
}

/* The summaries' grid, from the first records of the first file with any
 * (as cs-index-builder.c does from the first records when it cannot
 * estimate).  A CPU whose first pages come later may have events before
 * the origin: the summaries count them in the first bucket. */
static gboolean
choose_grid (CsIndexLive *self)
{
  gint64 origin = G_MAXINT64;
  double rate_sum = 0;
  guint n_rates = 0;

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      gint64 first_ns;
      double rate;

      if (!_cs_cpu_scan_get_sample (self->scans[cpu], &first_ns, &rate))
        continue;
      origin = MIN (origin, first_ns);
      if (rate > 0)
        {
          rate_sum += rate;
          n_rates++;
        }
    }
  if (origin == G_MAXINT64)
    return FALSE;
  self->grid.origin_ns = origin;
  self->grid.shift = _cs_summary_shift_for_rate (n_rates > 0 ? rate_sum / n_rates : 0);
  self->has_grid = TRUE;
  return TRUE;
}

/* One CPU's share of a file: its scan goes on in a thread of its own and
 * keeps its chunks here, for the caller to insert (SQLite is written by
 * one thread). */
typedef struct {
  CsCpuScan *scan;
  const CsSummaryGrid *grid;
  GPtrArray *chunks;            /* CsScanChunk* */
  GError *error;
} CpuJob;

typedef struct {
  CpuJob *jobs;
  guint n_jobs;
  guint next;                   /* atomic: the next job to take */
} Jobs;

static void
collect_chunk (CsScanChunk *chunk,
               gpointer     user_data)
{
  CpuJob *job = user_data;

  /* Here, on the CPU's thread: the chunks wait, and their rows are
   * larger than their blobs. */
  cs_scan_chunk_encode (chunk);
  g_ptr_array_add (job->chunks, chunk);
}

static gpointer
continue_thread (gpointer user_data)
{
  Jobs *jobs = user_data;
  guint i;

  while ((i = (guint) g_atomic_int_add (&jobs->next, 1)) < jobs->n_jobs)
    {
      CpuJob *job = &jobs->jobs[i];

      _cs_cpu_scan_continue (job->scan, job->grid, &job->error);
    }
  return NULL;
}

/* Reads each CPU's new pages, the CPUs side by side (one thread per core,
 * as cs-index-builder.c), then stores the chunks that filled up. */
static gboolean
continue_scans (CsIndexLive  *self,
                GError      **error)
{
  g_autofree CpuJob *job_array = g_new0 (CpuJob, MAX (self->n_cpus, 1));
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Jobs jobs = { job_array, self->n_cpus, 0 };
  guint n_threads = CLAMP (g_get_num_processors (), 1, MAX (self->n_cpus, 1));
  gboolean ok = TRUE;

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      job_array[cpu].scan = self->scans[cpu];
      job_array[cpu].grid = &self->grid;
      job_array[cpu].chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_chunk_free);
      _cs_cpu_scan_set_emit (self->scans[cpu], collect_chunk, &job_array[cpu]);
    }
  for (guint i = 0; i < n_threads; i++)
    g_ptr_array_add (threads, g_thread_new ("cs-live-scan", continue_thread, &jobs));
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (threads->pdata[i]);

  join_spare (self);
  if (!_cs_sqlite_exec (self->db, "BEGIN;", error))
    ok = FALSE;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      CpuJob *job = &job_array[cpu];

      if (ok && job->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          ok = FALSE;
        }
      for (guint i = 0; ok && i < job->chunks->len; i++)
        ok = _cs_index_insert_chunk (&self->ins, job->chunks->pdata[i], error);
      g_clear_error (&job->error);
      /* What the spare has not got yet. */
      if (ok && self->since_spare != NULL)
        g_ptr_array_extend_and_steal (self->since_spare, g_steal_pointer (&job->chunks));
      else
        g_ptr_array_unref (job->chunks);
    }
  return ok && _cs_sqlite_exec (self->db, "COMMIT;", error);
}

static gboolean
scan_file (CsIndexLive  *self,
           CsTraceFile  *file,
           GError      **error)
{
  /* The sample reads below store chunks in the base directly, not in
   * since_spare: they run only until the grid is chosen, before any index
   * is written and so before any spare exists. */
  Sink sink = { &self->ins, &self->insert_error };

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      if (self->scans[cpu] == NULL)
        {
          /* No record read yet: _cs_cpu_scan_resume() below starts it. */
          self->scans[cpu] = _cs_cpu_scan_start (file, cpu, &self->types, 0, emit_to_sink, &sink,
                                                 &self->positions[2 * cpu],
                                                 &self->positions[2 * cpu + 1], NULL, error);
          if (self->scans[cpu] == NULL)
            return FALSE;
        }
      _cs_cpu_scan_set_emit (self->scans[cpu], emit_to_sink, &sink);
      if (!_cs_cpu_scan_resume (self->scans[cpu], file, self->data_read[cpu], error))
        return FALSE;
      if (!self->has_grid &&
          !_cs_cpu_scan_read_sample (self->scans[cpu], CS_SCAN_SAMPLE_RECORDS, error))
        return FALSE;
    }
  if (self->insert_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->insert_error));
      return FALSE;
    }
  if (!self->has_grid && !choose_grid (self))
    return TRUE;            /* nothing recorded yet: the next file tells */
  return continue_scans (self, error);
}

/**
 * cs_index_live_add:
 * @self: a live index
 * @trace_path: the recording's latest snapshot (or its final file): an
 *   uncompressed trace.dat without buffer instances whose CPUs and event
 *   formats are those of the snapshots added before, and whose data of
 *   each CPU is theirs followed by whole pages
 * @error: %CS_INDEX_ERROR_UNSUPPORTED for a compressed file or one with
 *   instances, %CS_INDEX_ERROR_CHANGED for a file that does not continue
 *   the previous one, what reading the file gives (see cs_trace_file_open()),
 *   %CS_INDEX_ERROR_SQLITE
 *
 * Reads the pages @trace_path adds and indexes them.  After a failure the
 * live index keeps refusing (its scans stopped halfway): index the files
 * whole instead (cs_index_build()).
 *
 * Returns: %TRUE on success
 */
gboolean
cs_index_live_add (CsIndexLive  *self,
                   const char   *trace_path,
                   GError      **error)
{
  g_autoptr(CsTraceFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->broken != NULL)
    {
      g_propagate_error (error, g_error_copy (self->broken));
      return FALSE;
    }
  file = cs_trace_file_open (trace_path, error);
  if (file == NULL || !check_same_recording (self, file, error))
    return FALSE;
  g_debug ("live index: %s opened at %.3f s", trace_path, (g_get_monotonic_time () - t0) / 1e6);
  if (self->file == NULL)
    {
      self->n_cpus = cs_trace_file_get_n_cpus (file);
      _cs_index_build_type_map (cs_trace_file_get_tep (file), &self->types);
      self->scans = g_new0 (CsCpuScan *, MAX (self->n_cpus, 1));
      self->data_read = g_new0 (guint64, MAX (self->n_cpus, 1));
      self->positions = g_new0 (gint64, 2 * MAX (self->n_cpus, 1));
    }

  if (!scan_file (self, file, &local_error))
    {
      self->broken = g_error_copy (local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    self->data_read[cpu] = cs_trace_file_get_cpu_data_size (file, cpu);
  g_debug ("live index: %s scanned at %.3f s", trace_path, (g_get_monotonic_time () - t0) / 1e6);
  g_set_object (&self->file, file);
  self->n_files++;
  return TRUE;
}

/* Closes the scans (@fork: copies of them) into @db and completes the
 * tables of the file added last. */
static gboolean
close_scans (CsIndexLive  *self,
             sqlite3      *db,
             gboolean      fork,
             const char   *identity,
             GError      **error)
{
  g_auto(CsIndexInserts) ins = { 0 };
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_result_free);
  GError *insert_error = NULL;
  Sink sink = { &ins, &insert_error };

  if (!_cs_sqlite_exec (db, "BEGIN;", error) ||
      !_cs_index_inserts_prepare (db, &ins, error))
    return FALSE;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autoptr(CsCpuScan) copy = NULL;
      CsScanResult *result;

      if (fork)
        copy = _cs_cpu_scan_fork (self->scans[cpu], emit_to_sink, &sink);
      else
        {
          _cs_cpu_scan_set_emit (self->scans[cpu], emit_to_sink, &sink);
          copy = g_steal_pointer (&self->scans[cpu]);
        }
      result = _cs_cpu_scan_close (copy, error);
      if (result == NULL)
        return FALSE;
      result->offset_base = cs_trace_file_get_cpu_data_offset (self->file, cpu);
      g_ptr_array_add (results, result);
    }
  if (insert_error != NULL)
    {
      g_propagate_error (error, insert_error);
      return FALSE;
    }
  self->n_events = 0;
  for (guint i = 0; i < results->len; i++)
    self->n_events += ((CsScanResult *) results->pdata[i])->n_events;
  /* live_files: how many files the index was built over, for people and
   * tests to tell it from one built at once (which has no such row). */
  return _cs_index_write_derived (db, self->file, identity, self->n_cpus, &self->types,
                                  &self->grid, results, FALSE, error) &&
         _cs_index_write_meta (db, "live_files", NULL, self->n_files, error) &&
         _cs_index_write_complete (db, error);
}

static gboolean
check_ready (CsIndexLive  *self,
             GError      **error)
{
  if (self->broken != NULL)
    {
      g_propagate_error (error, g_error_copy (self->broken));
      return FALSE;
    }
  if (self->file == NULL || !self->has_grid)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("Nothing was recorded yet"));
      return FALSE;
    }
  return TRUE;
}

/* Renames @tmp_path to @index_path, or removes it. */
static gboolean
put_in_place (const char  *tmp_path,
              const char  *index_path,
              gboolean     ok,
              GError     **error)
{
  if (ok && g_rename (tmp_path, index_path) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot rename the index %s to %s: %s"), tmp_path, index_path,
                   g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp_path);
  return ok;
}

/* Brings the spare (@db) up to the base: the chunks the base got since
 * its copy. */
static gboolean
add_since_spare (CsIndexLive  *self,
                 sqlite3      *db,
                 GError      **error)
{
  g_auto(CsIndexInserts) ins = { 0 };
  gboolean ok;

  ok = _cs_sqlite_exec (db, "BEGIN;", error) && _cs_index_inserts_prepare (db, &ins, error);
  for (guint i = 0; ok && i < self->since_spare->len; i++)
    ok = _cs_index_insert_chunk (&ins, self->since_spare->pdata[i], error);
  _cs_index_inserts_clear (&ins);
  return ok && _cs_sqlite_exec (db, "COMMIT;", error);
}

/**
 * cs_index_live_write:
 * @self: a live index with at least one snapshot added that holds events
 * @identity: the identity of the file added last
 *   (cs_index_cache_compute_identity()), stored in the index
 * @index_path: where the index goes (replaced; written under a temporary
 *   name beside it first)
 * @error: %CS_INDEX_ERROR_TRUNCATED when nothing was recorded yet,
 *   %CS_INDEX_ERROR_SQLITE, %G_FILE_ERROR
 *
 * Writes a complete index of the file added last (cs_document_open()
 * reads it), leaving the live index to go on with the next.  Costs what
 * was added since the previous index written (the first time, and when
 * @index_path is in another folder than the base, a copy of the index so
 * far), not a scan of the recording; then starts copying the index so far
 * in a thread of its own, for the next call.
 *
 * Returns: %TRUE when @index_path holds the index
 */
gboolean
cs_index_live_write (CsIndexLive  *self,
                     const char   *identity,
                     const char   *index_path,
                     GError      **error)
{
  g_autofree char *tmp_path = NULL;
  g_autofree char *index_dir = NULL;
  g_autofree char *spare_dir = NULL;
  sqlite3 *db = NULL;
  gboolean ok, from_spare;
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (self != NULL, FALSE);

  if (!check_ready (self, error))
    return FALSE;
  join_spare (self);
  /* The spare is renamed into place: only within a folder. */
  index_dir = g_path_get_dirname (index_path);
  spare_dir = g_path_get_dirname (self->spare_path);
  from_spare = self->spare_ready && g_str_equal (index_dir, spare_dir);
  if (from_spare)
    {
      tmp_path = g_strdup (self->spare_path);
      self->spare_ready = FALSE;
      ok = open_db (tmp_path, &db, error) && add_since_spare (self, db, error);
    }
  else
    {
      g_autoptr(GFile) base = g_file_new_for_path (self->base_path);
      g_autoptr(GFile) tmp = NULL;

      tmp_path = cs_index_cache_dup_temporary_path (index_path, getpid ());
      tmp = g_file_new_for_path (tmp_path);
      /* The base is committed and idle: a copy of the file is a copy of it. */
      if (!g_file_copy (base, tmp, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
        return FALSE;
      ok = open_db (tmp_path, &db, error);
    }
  g_debug ("live index: %s at %.3f s", from_spare ? "spare completed" : "base copied",
           (g_get_monotonic_time () - t0) / 1e6);
  ok = ok && close_scans (self, db, TRUE, identity, error);
  g_debug ("live index: written at %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  if (sqlite3_close (db) != SQLITE_OK && ok)
    ok = _cs_sqlite_check (db, SQLITE_ERROR, _("closing the index"), error);
  ok = put_in_place (tmp_path, index_path, ok, error);
  start_spare (self);
  return ok;
}

/**
 * cs_index_live_finish:
 * @self: a live index whose last file added is the recording's final file
 * @identity: that file's identity (cs_index_cache_compute_identity())
 * @index_path: where its index goes, usually
 *   cs_index_cache_dup_index_path (@identity)
 * @error: as for cs_index_live_write()
 *
 * Closes the scans and makes the base the final file's index, moved to
 * @index_path (through a temporary name beside it).  The live index takes
 * no more files afterwards.
 *
 * Returns: %TRUE when @index_path holds the index
 */
gboolean
cs_index_live_finish (CsIndexLive  *self,
                      const char   *identity,
                      const char   *index_path,
                      GError      **error)
{
  g_autofree char *tmp_path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GFile) base = NULL;
  g_autoptr(GFile) tmp = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);

  if (!check_ready (self, error))
    return FALSE;
  drop_spare (self);
  _cs_index_inserts_clear (&self->ins);
  ok = close_scans (self, self->db, FALSE, identity, error);
  if (sqlite3_close (self->db) != SQLITE_OK && ok)
    ok = _cs_sqlite_check (self->db, SQLITE_ERROR, _("closing the index"), error);
  self->db = NULL;
  self->broken = g_error_new_literal (CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED,
                                      _("The recording's index is finished"));
  if (!ok)
    return FALSE;

  dir = g_path_get_dirname (index_path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot create the index directory %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  tmp_path = cs_index_cache_dup_temporary_path (index_path, getpid ());
  base = g_file_new_for_path (self->base_path);
  tmp = g_file_new_for_path (tmp_path);
  /* A rename when both are on one file system, else a copy. */
  if (!g_file_move (base, tmp, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
    {
      g_unlink (tmp_path);
      return FALSE;
    }
  return put_in_place (tmp_path, index_path, TRUE, error);
}

/**
 * cs_index_live_get_n_events:
 * @self: a live index
 *
 * Returns: the events of the index written last
 */
guint64
cs_index_live_get_n_events (CsIndexLive *self)
{
  return self->n_events;
}

/**
 * cs_index_live_get_bytes_read:
 * @self: a live index
 *
 * Returns: the bytes of CPU data read so far, all CPUs: what the next file
 *   added will not read again
 */
guint64
cs_index_live_get_bytes_read (CsIndexLive *self)
{
  guint64 n = 0;

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    n += self->data_read[cpu];
  return n;
}

/**
 * cs_index_live_free:
 * @self: (transfer full): a live index
 *
 * Frees it and removes its base file (unless cs_index_live_finish() moved
 * it).
 */
void
cs_index_live_free (CsIndexLive *self)
{
  if (self == NULL)
    return;
  if (self->spare_path != NULL)
    drop_spare (self);
  g_free (self->spare_path);
  _cs_index_inserts_clear (&self->ins);
  if (self->db != NULL)
    sqlite3_close (self->db);
  if (self->base_path != NULL)
    g_unlink (self->base_path);
  for (guint cpu = 0; self->scans != NULL && cpu < self->n_cpus; cpu++)
    _cs_cpu_scan_free (self->scans[cpu]);
  g_free (self->scans);
  g_free (self->data_read);
  g_free (self->positions);
  g_free (self->types.by_tep_id);
  g_clear_object (&self->file);
  g_clear_error (&self->insert_error);
  g_clear_error (&self->broken);
  g_free (self->base_path);
  g_free (self);
}
