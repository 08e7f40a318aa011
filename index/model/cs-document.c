/* cs-document.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The read side of the index.  Small tables (CPUs, event types, tasks) are
 * loaded at open; events, slices and summaries stay on disk and are read
 * per query, a chunk or a block at a time, so a document's memory does not
 * grow with the recording.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "cs-document.h"
#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-index-lock.h"
#include "cs-document-private.h"
#include "cs-index-private.h"


G_DEFINE_FINAL_TYPE (CsDocument, cs_document, G_TYPE_OBJECT)

static void
cs_document_finalize (GObject *object)
{
  CsDocument *self = CS_DOCUMENT (object);

  g_clear_pointer (&self->ev_start, sqlite3_finalize);
  g_clear_pointer (&self->ev_range, sqlite3_finalize);
  _cs_document_free_chunk_types (self);
  g_clear_pointer (&self->sl_start, sqlite3_finalize);
  g_clear_pointer (&self->sl_range, sqlite3_finalize);
  g_clear_pointer (&self->ir_start, sqlite3_finalize);
  g_clear_pointer (&self->ir_range, sqlite3_finalize);
  g_clear_pointer (&self->mg_start, sqlite3_finalize);
  g_clear_pointer (&self->mg_range, sqlite3_finalize);
  _cs_document_free_cpu_names (self);
  g_clear_pointer (&self->summary, sqlite3_finalize);
  g_clear_pointer (&self->summary_runs, sqlite3_finalize);
  g_clear_pointer (&self->task_range, sqlite3_finalize);
  g_clear_pointer (&self->task_dir, sqlite3_finalize);
  g_clear_pointer (&self->task_chunk, sqlite3_finalize);
  g_clear_pointer (&self->task_dirs, g_hash_table_unref);
  g_clear_pointer (&self->task_walks, g_ptr_array_unref);
  g_clear_pointer (&self->ev_chunk, sqlite3_finalize);
  g_clear_pointer (&self->missed, sqlite3_finalize);
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_object (&self->trace_file);
  g_clear_pointer (&self->event_types, g_array_unref);
  g_clear_pointer (&self->tep_ids, g_array_unref);
  g_clear_pointer (&self->cpu_type_counts, g_hash_table_unref);
  g_clear_pointer (&self->tasks, g_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  for (guint cpu = 0; self->chunk_caches != NULL && cpu < self->n_cpus; cpu++)
    {
      CsEventChunkCache *cache = self->chunk_caches[cpu];
      if (cache == NULL)
        continue;
      for (guint c = 0; c < EV_N_COLUMNS; c++)
        g_free (cache->cols[c]);
      g_free (cache);
    }
  g_free (self->chunk_caches);
  g_free (self->cpus);
  g_free (self->offset_bases);
  g_free (self->clock);
  g_free (self->compression);
  g_free (self->source_format);
  g_free (self->trace_path);
  g_free (self->index_path);
  g_free (self->identity);

  G_OBJECT_CLASS (cs_document_parent_class)->finalize (object);
}

static void
cs_document_class_init (CsDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_document_finalize;
}

static void
cs_document_init (CsDocument *self)
{
  self->strings = g_string_chunk_new (4096);
}

static gboolean
stale (CsDocument  *self,
       const char  *why,
       GError     **error)
{
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_STALE,
               _("The index %s cannot be used: %s"), self->index_path, why);
  return FALSE;
}

static gboolean
load_meta (CsDocument  *self,
           const char  *identity,
           GError     **error)
{
  g_autoptr(sqlite3_stmt) s = NULL;
  gboolean identity_ok = FALSE, has_origin = FALSE;
  int rc;

  s = _cs_sqlite_prepare (self->db, "SELECT key, value FROM meta", error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *key = (const char *) sqlite3_column_text (s, 0);
      const char *text = (const char *) sqlite3_column_text (s, 1);
      gint64 v = sqlite3_column_int64 (s, 1);

      if (key == NULL)
        continue;
      if (g_str_equal (key, "identity"))
        identity_ok = text != NULL && g_strcmp0 (text, identity) == 0;
      else if (g_str_equal (key, "clock"))
        self->clock = g_strdup (text);
      else if (g_str_equal (key, "compression"))
        self->compression = g_strcmp0 (text, "none") != 0 ? g_strdup (text) : NULL;
      else if (g_str_equal (key, "source_format"))
        self->source_format = g_strdup (text);
      else if (g_str_equal (key, "n_bad_lines"))
        self->n_bad_lines = v;
      else if (g_str_equal (key, "first_bad_line"))
        self->first_bad_line = v;
      else if (g_str_equal (key, "file_version"))
        self->file_version = v;
      else if (g_str_equal (key, "n_cpus"))
        self->n_cpus = CLAMP (v, 0, 65536);
      else if (g_str_equal (key, "n_events"))
        self->n_events = v;
      else if (g_str_equal (key, "first_ns"))
        self->first_ns = v;
      else if (g_str_equal (key, "last_ns"))
        self->last_ns = v;
      else if (g_str_equal (key, "summary_shift"))
        self->summary_shift = CLAMP (v, 0, 62);
      else if (g_str_equal (key, "summary_levels"))
        self->summary_levels = CLAMP (v, 1, 32);
      else if (g_str_equal (key, "summary_origin_ns"))
        {
          self->summary_origin_ns = v;
          has_origin = TRUE;
        }
    }
  if (!has_origin)
    self->summary_origin_ns = self->first_ns;
  if (!_cs_sqlite_check (self->db, rc, _("reading metadata"), error))
    return FALSE;
  if (!identity_ok)
    return stale (self, _("it was built from another recording or an older version of it"), error);
  if (self->clock == NULL)
    self->clock = g_strdup ("local");
  if (self->source_format == NULL)
    self->source_format = g_strdup ("trace.dat");
  return TRUE;
}

static gboolean
load_tables (CsDocument  *self,
             GError     **error)
{
  g_autoptr(sqlite3_stmt) s = NULL;
  int rc;

  self->cpus = g_new0 (CsCpuInfo, MAX (self->n_cpus, 1));
  self->chunk_caches = g_new0 (CsEventChunkCache *, MAX (self->n_cpus, 1));
  for (guint i = 0; i < self->n_cpus; i++)
    self->cpus[i].cpu = i;

  self->offset_bases = g_new0 (gint64, MAX (self->n_cpus, 1));
  s = _cs_sqlite_prepare (self->db, "SELECT cpu, n_events, first_ns, last_ns, missed_events,"
                                    " has_sched_switch, offset_base FROM cpus", error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      guint cpu = sqlite3_column_int (s, 0);
      CsCpuInfo *c;

      if (cpu >= self->n_cpus)
        return stale (self, _("it lists a CPU the recording does not have"), error);
      c = &self->cpus[cpu];
      c->n_events = sqlite3_column_int64 (s, 1);
      c->first_ns = sqlite3_column_int64 (s, 2);
      c->last_ns = sqlite3_column_int64 (s, 3);
      c->missed_events = sqlite3_column_int64 (s, 4);
      c->has_sched_switch = sqlite3_column_int (s, 5) != 0;
      self->offset_bases[cpu] = sqlite3_column_int64 (s, 6);
    }
  if (!_cs_sqlite_check (self->db, rc, _("reading CPUs"), error))
    return FALSE;
  g_clear_pointer (&s, sqlite3_finalize);

  self->event_types = g_array_new (FALSE, TRUE, sizeof (CsEventType));
  self->tep_ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  s = _cs_sqlite_prepare (self->db,
                          "SELECT id, system, name, n_events, tep_id FROM event_types ORDER BY id",
                          error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsEventType t;

      t.id = sqlite3_column_int (s, 0);
      if (t.id != self->event_types->len)
        return stale (self, _("its event types are not numbered densely"), error);
      t.system = g_string_chunk_insert_const (self->strings, (const char *) sqlite3_column_text (s, 1) ?: "");
      t.name = g_string_chunk_insert_const (self->strings, (const char *) sqlite3_column_text (s, 2) ?: "");
      t.n_events = sqlite3_column_int64 (s, 3);
      g_array_append_val (self->event_types, t);
      if (t.n_events > 0 && sqlite3_column_int (s, 4) >= 0)
        {
          gint32 tep_id = sqlite3_column_int (s, 4);

          g_array_append_val (self->tep_ids, tep_id);
        }
    }
  if (!_cs_sqlite_check (self->db, rc, _("reading event types"), error))
    return FALSE;
  g_clear_pointer (&s, sqlite3_finalize);

  self->cpu_type_counts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s = _cs_sqlite_prepare (self->db, "SELECT cpu, type_id, n_events FROM cpu_type_counts", error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      /* Key and count in one allocation: [key, count]. */
      gint64 *kv = g_new (gint64, 2);
      kv[0] = ((gint64) sqlite3_column_int (s, 0) << 32) | (guint32) sqlite3_column_int (s, 1);
      kv[1] = sqlite3_column_int64 (s, 2);
      g_hash_table_insert (self->cpu_type_counts, kv, kv);
    }
  if (!_cs_sqlite_check (self->db, rc, _("reading event counts"), error))
    return FALSE;
  g_clear_pointer (&s, sqlite3_finalize);

  self->tasks = g_array_new (FALSE, TRUE, sizeof (CsTask));
  s = _cs_sqlite_prepare (self->db, "SELECT pid, comm, n_events, runtime_ns FROM tasks ORDER BY pid",
                          error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsTask t;

      t.pid = sqlite3_column_int (s, 0);
      t.comm = g_string_chunk_insert_const (self->strings, (const char *) sqlite3_column_text (s, 1) ?: "");
      t.n_events = sqlite3_column_int64 (s, 2);
      t.runtime_ns = sqlite3_column_int64 (s, 3);
      g_array_append_val (self->tasks, t);
    }
  return _cs_sqlite_check (self->db, rc, _("reading tasks"), error);
}

static gboolean
prepare_queries (CsDocument  *self,
                 GError     **error)
{
  /* The chunk holding the first event at or after a time may start before
   * it; "first_ns < ?2" finds that chunk (events of equal timestamps can
   * straddle two chunks).  Chunk numbers grow with first_ns (and, for
   * slices, with last_ns), so ORDER BY ... LIMIT 1 walks the time index to
   * one entry, where max(chunk) would visit every chunk before the time. */
  self->ev_start = _cs_sqlite_prepare (self->db,
      "SELECT chunk FROM event_chunks WHERE cpu = ?1 AND first_ns < ?2"
      " ORDER BY first_ns DESC LIMIT 1", error);
  self->ev_range = self->ev_start ? _cs_sqlite_prepare (self->db,
      "SELECT chunk, first_ns, first_row, n_rows, data FROM event_chunks"
      " WHERE cpu = ?1 AND chunk >= ?2 ORDER BY chunk", error) : NULL;
  self->sl_start = self->ev_range ? _cs_sqlite_prepare (self->db,
      "SELECT chunk FROM slice_chunks WHERE cpu = ?1 AND last_ns > ?2"
      " ORDER BY last_ns LIMIT 1", error) : NULL;
  self->sl_range = self->sl_start ? _cs_sqlite_prepare (self->db,
      "SELECT chunk, first_ns, n_rows, data, last_ns FROM slice_chunks"
      " WHERE cpu = ?1 AND chunk >= ?2 ORDER BY chunk", error) : NULL;
  self->summary = self->sl_range ? _cs_sqlite_prepare (self->db,
      "SELECT block, data FROM summaries WHERE cpu = ?1 AND level = ?2"
      " AND block BETWEEN ?3 AND ?4 ORDER BY block", error) : NULL;
  self->summary_runs = self->summary ? _cs_sqlite_prepare (self->db,
      "SELECT begin_ns, end_ns, pid FROM summary_runs WHERE cpu = ?1 AND end_ns > ?2"
      " ORDER BY end_ns", error) : NULL;
  return self->summary_runs != NULL;
}

static CsDocument *open_index (const char  *trace_path,
                               const char  *index_path,
                               const char  *identity,
                               GError     **error);

/**
 * cs_document_open:
 * @trace_path: the recording
 * @index_path: its index, as built by cs_index_build()
 * @error: %CS_INDEX_ERROR_STALE when the index is of another schema version
 *   or another recording (or another version of it), %CS_INDEX_ERROR_SQLITE
 *   when it cannot be read, %G_FILE_ERROR when the recording cannot be read
 *
 * Opens an existing index.  Reads the index's small tables (CPUs, event
 * types, tasks) and the first MiB of the recording (to check its identity);
 * never the events.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 */
CsDocument *
cs_document_open (const char  *trace_path,
                  const char  *index_path,
                  GError     **error)
{
  g_autofree char *identity = NULL;

  g_return_val_if_fail (trace_path != NULL && index_path != NULL, NULL);

  identity = cs_index_cache_compute_identity (trace_path, error);
  if (identity == NULL)
    return NULL;
  return open_index (trace_path, index_path, identity, error);
}

static CsDocument *open_index (const char  *trace_path,
                               const char  *index_path,
                               const char  *identity,
                               GError     **error);

/**
 * cs_document_open_as:
 * @trace_path: the recording of an open document
 * @index_path: its index (cs_document_get_index_path())
 * @identity: the identity the document checked when it opened
 *   (cs_document_get_identity())
 * @error: as for cs_document_open()
 *
 * Opens another #CsDocument on an open document's recording and index,
 * for a worker thread, without checking the recording's identity again:
 * it was checked when the document opened, and the snapshots of a
 * recording in progress grow in place (cs_tracedat_writer_finish_growing())
 * while a live picture of them is shown.  Reads the index's small tables,
 * not the recording.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 */
CsDocument *
cs_document_open_as (const char  *trace_path,
                     const char  *index_path,
                     const char  *identity,
                     GError     **error)
{
  g_return_val_if_fail (trace_path != NULL && index_path != NULL && identity != NULL, NULL);
  return open_index (trace_path, index_path, identity, error);
}

/* Opens @index_path for a recording whose identity is already known, so
 * that cs_document_load() reads the recording's first MiB only once. */
static CsDocument *
open_index (const char  *trace_path,
            const char  *index_path,
            const char  *identity,
            GError     **error)
{
  g_autoptr(CsDocument) self = NULL;
  g_autoptr(sqlite3_stmt) version = NULL;
  int rc;

  self = g_object_new (CS_TYPE_DOCUMENT, NULL);
  self->trace_path = g_strdup (trace_path);
  self->index_path = g_strdup (index_path);
  self->identity = g_strdup (identity);

  rc = _cs_sqlite_open_index (index_path, &self->db);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE, _("Cannot open the index %s: %s"),
                   index_path, self->db ? sqlite3_errmsg (self->db) : _("out of memory"));
      return NULL;
    }

  /* Index pages read in place from a mapping instead of copied through
   * read() into SQLite's page cache: on the large bench recording, the
   * index listing of a latency explanation went from 18 to 16.5 ms of CPU
   * time (on a quiet machine; a busy one hides it in the noise).
   * 256 MiB bounds the address space (the index of 75 M events is ~340
   * MB); mapped pages count as file pages in RSS, not anonymous memory.
   * A mapping gives SIGBUS if its file is cut short under it: an index is
   * written under another name and renamed into place (cs-index-builder.c,
   * cs-index-live.c), never truncated while a document reads it.  If the
   * pragma fails, SQLite reads with read() as before. */
  sqlite3_exec (self->db, "PRAGMA mmap_size = 268435456", NULL, NULL, NULL);

  version = _cs_sqlite_prepare (self->db, "PRAGMA user_version", error);
  if (version == NULL || sqlite3_step (version) != SQLITE_ROW)
    {
      g_clear_error (error);
      stale (self, _("it is not a Chronoscope index"), error);
      return NULL;
    }
  if (sqlite3_column_int (version, 0) != CS_INDEX_SCHEMA_VERSION)
    {
      stale (self, _("it was written by another version of Chronoscope"), error);
      return NULL;
    }

  if (!load_meta (self, identity, error) ||
      !load_tables (self, error) ||
      !prepare_queries (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/* The index at @index_path when it is there, complete and of this
 * recording.  A stale or damaged one is removed only when @may_remove
 * (the caller holds the index's lock): never trusted, rebuilt. */
static CsDocument *
try_existing (const char  *trace_path,
              const char  *index_path,
              const char  *identity,
              gboolean     may_remove,
              GError     **error)
{
  g_autoptr(GError) open_error = NULL;
  CsDocument *doc;

  if (!g_file_test (index_path, G_FILE_TEST_EXISTS))
    return NULL;
  doc = open_index (trace_path, index_path, identity, &open_error);
  if (doc != NULL)
    return doc;
  if (!g_error_matches (open_error, CS_INDEX_ERROR, CS_INDEX_ERROR_STALE) &&
      !g_error_matches (open_error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE))
    {
      g_propagate_error (error, g_steal_pointer (&open_error));
      return NULL;
    }
  if (may_remove)
    g_unlink (index_path);
  return NULL;
}

/**
 * cs_document_open_cached:
 * @trace_path: the recording
 * @error: the errors of cs_document_open(), and %G_FILE_ERROR when the
 *   recording cannot be read
 *
 * Opens the recording's index where cs_document_load() first looks for it
 * (cs_index_cache_dup_index_path()) when it is there and of this recording
 * and schema; builds nothing, removes nothing, reads none of the events.
 * A stale or missing index is no error: cs_document_load() (in the index
 * worker, cs-index-job.c) then builds it.
 *
 * Returns: (transfer full) (nullable): the document; %NULL when there is
 *   no index to reuse there (@error unset) or on error
 */
CsDocument *
cs_document_open_cached (const char  *trace_path,
                         GError     **error)
{
  g_autofree char *identity = NULL;
  g_autofree char *index_path = NULL;

  g_return_val_if_fail (trace_path != NULL, NULL);

  identity = cs_index_cache_compute_identity (trace_path, error);
  if (identity == NULL)
    return NULL;
  index_path = cs_index_cache_dup_index_path (identity);
  return try_existing (trace_path, index_path, identity, FALSE, error);
}

/* The builder's progress goes to the caller and, through the lock file,
 * to whoever waits for the same index. */
typedef struct {
  CsIndexProgressFunc progress;
  CsIndexPositionFunc position;
  gpointer user_data;
  CsIndexLock *lock;
} SharedProgress;

static void
shared_position_cb (guint    cpu,
                    guint64  offset,
                    gpointer data)
{
  SharedProgress *shared = data;

  shared->position (cpu, offset, shared->user_data);
}

static void
shared_progress_cb (double   fraction,
                    gpointer data)
{
  SharedProgress *shared = data;

  cs_index_lock_set_progress (shared->lock, fraction);
  if (shared->progress != NULL)
    shared->progress (fraction, shared->user_data);
}

/**
 * cs_document_load:
 * @trace_path: the recording
 * @progress: (nullable): called during a build, on this thread; also while
 *   waiting for another process's build of the same index, with its progress
 * @user_data: for @progress
 * @cancellable: (nullable): cancels a build, or the wait for another
 *   process's build (%G_IO_ERROR_CANCELLED)
 * @reused: (out) (optional): whether an existing index was used (also one
 *   another process built while this one waited)
 * @error: the errors of cs_index_build() and cs_document_open(), and
 *   %CS_INDEX_ERROR_CHANGED when the recording changed during two builds
 *   in a row
 *
 * Opens the recording's index from the cache, building it first when there
 * is none or when the one there is stale (another recording, an older
 * schema, or damaged).  One process builds a given index at a time (see
 * cs_index_lock_acquire()): a second one opening the same new recording
 * waits and reuses the first one's index.  When the cache folder cannot be
 * written, the index goes to a temporary folder removed at exit (see
 * cs_index_cache_dup_writable_dir()).  When the recording changes while it
 * is indexed, the build is thrown away and done once more on what the file
 * holds then.  Building blocks for about the time it takes to read the
 * recording: call it from a worker thread or process.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 */
CsDocument *
cs_document_load (const char          *trace_path,
                  CsIndexProgressFunc  progress,
                  gpointer             user_data,
                  GCancellable        *cancellable,
                  gboolean            *reused,
                  GError             **error)
{
  return cs_document_load_full (trace_path, progress, NULL, user_data, cancellable, reused, error);
}

/**
 * cs_document_load_full:
 * @trace_path: the recording
 * @progress: (nullable): called during a build, on this thread
 * @position: (nullable): called during a build, on this thread, with where
 *   the scan is in the recording (for a watchdog: see cs-index-job.c)
 * @user_data: for @progress and @position
 * @cancellable: (nullable): cancels a build (%G_IO_ERROR_CANCELLED)
 * @reused: (out) (optional): whether an existing index was used
 * @error: the errors of cs_index_build() and cs_document_open()
 *
 * cs_document_load() that also reports where the build is reading.
 *
 * Returns: (transfer full): the document, or %NULL with @error set
 */
CsDocument *
cs_document_load_full (const char          *trace_path,
                       CsIndexProgressFunc  progress,
                       CsIndexPositionFunc  position,
                       gpointer             user_data,
                       GCancellable        *cancellable,
                       gboolean            *reused,
                       GError             **error)
{
  g_autofree char *dir = NULL;
  g_autoptr(CsIndexLock) lock = NULL;
  GError *local_error = NULL;
  SharedProgress shared;

  if (reused)
    *reused = FALSE;

  for (guint attempt = 0; ; attempt++)
    {
      g_autofree char *identity = NULL;
      g_autofree char *index_path = NULL;
      CsDocument *doc;

      identity = cs_index_cache_compute_identity (trace_path, error);
      if (identity == NULL)
        return NULL;

      /* A finished index is only ever renamed into place: no lock needed
       * to read one, and none to write where it is (a read-only cache may
       * still hold it). */
      index_path = cs_index_cache_dup_index_path (identity);
      doc = try_existing (trace_path, index_path, identity, FALSE, &local_error);
      if (doc == NULL && local_error == NULL)
        {
          if (dir == NULL && (dir = cs_index_cache_dup_writable_dir (NULL, error)) == NULL)
            return NULL;
          g_free (index_path);
          index_path = cs_index_cache_dup_index_path_in (dir, identity);
          lock = cs_index_lock_acquire (index_path, progress, user_data, cancellable, NULL, error);
          if (lock == NULL)
            return NULL;
          /* Built by whoever held the lock while we waited? */
          doc = try_existing (trace_path, index_path, identity, TRUE, &local_error);
        }
      if (doc != NULL || local_error != NULL)
        {
          if (doc != NULL && reused)
            *reused = TRUE;
          if (local_error != NULL)
            g_propagate_error (error, local_error);
          return doc;
        }

      shared = (SharedProgress) { progress, position, user_data, lock };
      if (cs_index_build (trace_path, identity, index_path, shared_progress_cb,
                          position != NULL ? shared_position_cb : NULL, &shared,
                          cancellable, &local_error))
        return open_index (trace_path, index_path, identity, error);
      g_clear_pointer (&lock, cs_index_lock_release);
      /* Changed while it was read: once more on what it holds now. */
      if (attempt > 0 || !g_error_matches (local_error, CS_INDEX_ERROR, CS_INDEX_ERROR_CHANGED))
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
      g_clear_error (&local_error);
    }
}

/* ---- Getters ------------------------------------------------------------ */

/**
 * cs_document_get_trace_file:
 * @self: a document
 *
 * Opens the recording on first use, to format event text.
 *
 * Returns: (transfer none) (nullable): the recording, or %NULL when it can
 *   no longer be opened
 */
CsTraceFile *
cs_document_get_trace_file (CsDocument *self)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (self), NULL);
  return _cs_document_ensure_trace_file (self, NULL);
}

/* The document's own handle on its recording, opened on first use
 * (cs_document_open_trace_file()); NULL with @error set when it cannot
 * be. */
CsTraceFile *
_cs_document_ensure_trace_file (CsDocument  *self,
                                GError     **error)
{
  if (self->trace_file == NULL)
    self->trace_file = cs_document_open_trace_file (self, error);
  return self->trace_file;
}

/**
 * cs_document_open_trace_file:
 * @self: a document
 * @error: the errors of cs_trace_file_open()
 *
 * Opens the document's recording to read its records, parsing only the
 * formats of the event types its index counts records of
 * (cs_trace_file_open_for_types()): a recording carries every format of
 * its kernel (thousands) and holds a few dozen types.  Every record of the
 * recording has its format; one of another type has none.
 *
 * Returns: (transfer full) (nullable): a new handle on the recording, or
 *   %NULL with @error set
 */
CsTraceFile *
cs_document_open_trace_file (CsDocument  *self,
                             GError     **error)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (self), NULL);
  return cs_trace_file_open_for_types (self->trace_path, (const gint32 *) self->tep_ids->data,
                                       self->tep_ids->len, error);
}

/** cs_document_get_trace_path: Returns: (transfer none): the recording's path */
const char *
cs_document_get_trace_path (CsDocument *self)
{
  return self->trace_path;
}

/**
 * cs_document_get_identity:
 * @self: a document
 *
 * Returns: (transfer none): the recording's identity as the index records
 *   it (see cs_index_cache_compute_identity()): what results derived from
 *   the recording, such as plugin passes, are checked against
 */
const char *
cs_document_get_identity (CsDocument *self)
{
  return self->identity;
}

/** cs_document_get_index_path: Returns: (transfer none): the index's path */
const char *
cs_document_get_index_path (CsDocument *self)
{
  return self->index_path;
}

/**
 * cs_document_get_clock:
 * @self: a document
 *
 * Returns: (transfer none): the recording's trace clock (tracefs
 *   trace_clock: "local", "global", "mono", "x86-tsc", ...)
 */
const char *
cs_document_get_clock (CsDocument *self)
{
  return self->clock;
}

/**
 * cs_document_get_compression:
 * @self: a document
 *
 * Returns: (nullable) (transfer none): the compression of a v7 recording's
 *   data ("zstd", "zlib"), %NULL when not compressed; read from the index
 */
const char *
cs_document_get_compression (CsDocument *self)
{
  return self->compression;
}

/**
 * cs_document_get_source_format:
 * @self: a document
 *
 * Returns: (transfer none): what the opened file is, for people:
 *   "trace.dat", or the kind of trace text it was converted from
 *   ("ftrace text (trace_pipe)", "trace-cmd report text", "perf script
 *   text", ...; see cs_trace_file_get_source_format()); read from the index
 */
const char *
cs_document_get_source_format (CsDocument *self)
{
  return self->source_format;
}

/**
 * cs_document_get_n_bad_lines:
 * @self: a document
 * @first_bad_line: (out) (optional): the 1-based number of the first line
 *   of trace text that was not understood, 0 when none
 *
 * Returns: the lines of trace text that were not understood (counted, not
 *   indexed); 0 for a trace.dat
 */
guint64
cs_document_get_n_bad_lines (CsDocument *self,
                             guint64    *first_bad_line)
{
  if (first_bad_line != NULL)
    *first_bad_line = self->first_bad_line;
  return self->n_bad_lines;
}

/** cs_document_get_file_version: Returns: 6 or 7 (trace-cmd.dat(5)) */
guint
cs_document_get_file_version (CsDocument *self)
{
  return self->file_version;
}

/** cs_document_get_n_cpus: Returns: the number of CPUs (ring buffers) recorded */
guint
cs_document_get_n_cpus (CsDocument *self)
{
  return self->n_cpus;
}

/** cs_document_get_n_events: Returns: the number of events of all CPUs */
guint64
cs_document_get_n_events (CsDocument *self)
{
  return self->n_events;
}

/** cs_document_get_first_ns: Returns: the earliest timestamp of any CPU (ns; 0 if empty) */
gint64
cs_document_get_first_ns (CsDocument *self)
{
  return self->first_ns;
}

/** cs_document_get_last_ns: Returns: the latest timestamp of any CPU (ns; 0 if empty) */
gint64
cs_document_get_last_ns (CsDocument *self)
{
  return self->last_ns;
}

/**
 * cs_document_get_summary_resolution_ns:
 * @self: a document
 *
 * Below this many ns per pixel, cs_document_get_cpu_columns() reads events
 * and slices themselves; renderers then draw the exact slices instead.
 *
 * Returns: the width of the finest summary bucket, in ns
 */
gint64
cs_document_get_summary_resolution_ns (CsDocument *self)
{
  return G_GINT64_CONSTANT (1) << self->summary_shift;
}

/**
 * cs_document_get_cpu:
 * @self: a document
 * @cpu: 0 .. n_cpus - 1
 *
 * Returns: (transfer none): what the index knows of that CPU
 */
const CsCpuInfo *
cs_document_get_cpu (CsDocument *self,
                     guint       cpu)
{
  g_return_val_if_fail (cpu < self->n_cpus, NULL);
  return &self->cpus[cpu];
}

/** cs_document_get_n_event_types: Returns: the number of event types (formats in the recording, plus one "ftrace:unknown") */
guint
cs_document_get_n_event_types (CsDocument *self)
{
  return self->event_types->len;
}

/**
 * cs_document_get_event_type:
 * @self: a document
 * @type_id: 0 .. n_event_types - 1
 *
 * Returns: (transfer none): the event type
 */
const CsEventType *
cs_document_get_event_type (CsDocument *self,
                            guint       type_id)
{
  g_return_val_if_fail (type_id < self->event_types->len, NULL);
  return &g_array_index (self->event_types, CsEventType, type_id);
}

/**
 * cs_document_get_cpu_type_count:
 * @self: a document
 * @cpu: a CPU
 * @type_id: an event type
 *
 * Returns: how many events of that type the CPU recorded
 */
guint64
cs_document_get_cpu_type_count (CsDocument *self,
                                guint       cpu,
                                guint       type_id)
{
  gint64 key = ((gint64) cpu << 32) | type_id;
  gint64 *kv = g_hash_table_lookup (self->cpu_type_counts, &key);

  return kv ? (guint64) kv[1] : 0;
}

/** cs_document_get_n_tasks: Returns: the number of distinct pids seen (idle included) */
guint
cs_document_get_n_tasks (CsDocument *self)
{
  return self->tasks->len;
}

/**
 * cs_document_get_task:
 * @self: a document
 * @index: 0 .. n_tasks - 1; tasks are in pid order
 *
 * Returns: (transfer none): the task
 */
const CsTask *
cs_document_get_task (CsDocument *self,
                      guint       index)
{
  g_return_val_if_fail (index < self->tasks->len, NULL);
  return &g_array_index (self->tasks, CsTask, index);
}

/**
 * cs_document_lookup_task:
 * @self: a document
 * @pid: a pid
 *
 * Returns: (transfer none) (nullable): the task, or %NULL if the recording
 *   never saw that pid
 */
const CsTask *
cs_document_lookup_task (CsDocument *self,
                         gint32      pid)
{
  guint lo = 0, hi = self->tasks->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const CsTask *t = &g_array_index (self->tasks, CsTask, mid);

      if (t->pid == pid)
        return t;
      if (t->pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/**
 * cs_document_get_comm:
 * @self: a document
 * @pid: a pid
 *
 * Returns: (transfer none): the task's command name, "<idle>" for pid 0,
 *   "<...>" when unknown (as `trace-cmd report` prints it)
 */
const char *
cs_document_get_comm (CsDocument *self,
                      gint32      pid)
{
  const CsTask *t = cs_document_lookup_task (self, pid);

  if (pid == 0)
    return "<idle>";
  return t != NULL && t->comm[0] != '\0' ? t->comm : "<...>";
}
