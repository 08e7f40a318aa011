/* cs-record-live.c: the live timeline of a recording in progress.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * While a #CsRecordJob records, this asks its helper about once a second
 * for a snapshot: a complete trace.dat of the pages streamed so far
 * (cs_recorder_write_snapshot(), written next to the output, owned by the
 * user).  Each snapshot is indexed in a worker thread into a private
 * folder (not the index cache: these files are gone after the recording)
 * and opened as a #CsDocument, announced with #CsRecordLive::document.
 *
 * One snapshot is in flight at a time: the next request goes out when the
 * previous one was shown, at least %LIVE_INTERVAL_MS after the previous
 * request and %LIVE_REST_MS after the picture, so a long recording
 * refreshes less often instead of queueing work.
 *
 * The snapshots are indexed incrementally (#CsIndexLive): each refresh
 * reads only the pages recorded since the previous one, and writes an
 * index of the snapshot from what was indexed so far.  At the end,
 * cs_record_live_finish_async() adds the final file's last pages and puts
 * its index in the index cache, so the window opens the recording without
 * indexing it again.  Should the live index fail (a file it cannot
 * follow), the snapshots are indexed whole and the final file as any.
 * The snapshot and index shown last are kept until a newer one replaces
 * them or this object goes away; older ones are removed.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "cs-index-builder.h"
#include "cs-index-cache.h"
#include "cs-index-live.h"
#include "cs-record-live.h"

/* From a request to the picture on screen takes a few tenths of a second
 * (writing the snapshot, cs-index-live.c, then the window's event list,
 * about 0.15 s): asking every 800 ms gives a picture more than once a
 * second. */
#define LIVE_INTERVAL_MS 800
/* The window gets at least this long with a picture before the next one
 * is asked for: to put the list back where the user had it (and to
 * answer the user) when showing took long. */
#define LIVE_REST_MS     150
#define LIVE_TICK_MS     50

struct _CsRecordLive
{
  GObject parent_instance;

  CsRecordJob *job;
  char *index_dir;            /* private folder of the live indexes */
  guint tick_id;
  gint64 last_request_us;
  gint64 shown_us;            /* when the last picture was shown */
  gboolean pending;           /* a snapshot asked for, or being indexed */
  GCancellable *cancellable;
  CsDocument *document;       /* the latest shown */
  char *shown_trace;          /* its snapshot and index, removed later */
  char *shown_index;
  guint n_updates;

  /* The incremental index, used by one thread at a time under @live_lock;
   * NULL before the first snapshot, after a failure or at the end. */
  GMutex live_lock;
  CsIndexLive *live_index;
  gboolean live_failed;       /* index the snapshots whole from now on */
  gboolean finishing;         /* the final file is being added: no more */
};

G_DEFINE_FINAL_TYPE (CsRecordLive, cs_record_live, G_TYPE_OBJECT)

enum {
  SIGNAL_DOCUMENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  char *trace_path;
  char *index_path;
} Snapshot;

static void
snapshot_free (Snapshot *snapshot)
{
  g_free (snapshot->trace_path);
  g_free (snapshot->index_path);
  g_free (snapshot);
}

static void
remove_files (const char *trace_path, const char *index_path)
{
  if (trace_path != NULL)
    g_unlink (trace_path);
  if (index_path != NULL)
    g_unlink (index_path);
}

/* Worker thread: indexes what @snapshot adds to the previous ones and
 * writes its index.  FALSE when the snapshot is to be indexed whole. */
static gboolean
index_incrementally (CsRecordLive   *self,
                     const Snapshot *snapshot,
                     const char     *identity)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->live_lock);
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  guint64 read_before;

  if (self->live_failed || self->finishing)
    return FALSE;
  if (self->live_index == NULL)
    {
      g_autofree char *base = g_build_filename (self->index_dir, "live-base.index", NULL);

      self->live_index = cs_index_live_new (base, &error);
    }
  read_before = self->live_index != NULL ? cs_index_live_get_bytes_read (self->live_index) : 0;
  if (self->live_index == NULL ||
      !cs_index_live_add (self->live_index, snapshot->trace_path, &error) ||
      !cs_index_live_write (self->live_index, identity, snapshot->index_path, &error))
    {
      /* Nothing recorded yet is not a failure: the next snapshot tells. */
      if (g_error_matches (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED))
        return FALSE;
      g_debug ("Live index given up, snapshots are indexed whole from now on: %s",
               error->message);
      g_clear_pointer (&self->live_index, cs_index_live_free);
      self->live_failed = TRUE;
      return FALSE;
    }
  g_debug ("live picture: %" G_GUINT64_FORMAT " new bytes of %" G_GUINT64_FORMAT " read, "
           "%" G_GUINT64_FORMAT " events indexed in %.3f s",
           cs_index_live_get_bytes_read (self->live_index) - read_before,
           cs_index_live_get_bytes_read (self->live_index),
           cs_index_live_get_n_events (self->live_index),
           (g_get_monotonic_time () - t0) / 1e6);
  return TRUE;
}

/* Worker thread: index the snapshot, open it. */
static void
index_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Snapshot *snapshot = task_data;
  g_autoptr(GError) error = NULL;
  CsRecordLive *self = source_object;
  g_autofree char *identity = cs_index_cache_compute_identity (snapshot->trace_path, &error);
  CsDocument *document;

  if (identity == NULL ||
      (!index_incrementally (self, snapshot, identity) &&
       !cs_index_build (snapshot->trace_path, identity, snapshot->index_path,
                        NULL, NULL, NULL, cancellable, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* The identity just computed: cs_document_open() would hash the
   * snapshot again. */
  document = cs_document_open_as (snapshot->trace_path, snapshot->index_path, identity, &error);
  if (document == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* Here, not when the list shows its first rows: reading a snapshot's
   * event formats and kallsyms took most of a second of the main thread
   * at each picture. */
  cs_document_get_trace_file (document);
  g_task_return_pointer (task, document, g_object_unref);
}

static void
index_done_cb (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  CsRecordLive *self = CS_RECORD_LIVE (source_object);
  Snapshot *snapshot = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *old_trace = NULL;
  g_autofree char *old_index = NULL;

  self->pending = FALSE;
  if (document == NULL)
    {
      /* A refresh missed is not worth a message: the next one follows. */
      g_debug ("Live snapshot %s not shown: %s", snapshot->trace_path, error->message);
      remove_files (snapshot->trace_path, snapshot->index_path);
      return;
    }

  old_trace = g_steal_pointer (&self->shown_trace);
  old_index = g_steal_pointer (&self->shown_index);
  self->shown_trace = g_strdup (snapshot->trace_path);
  self->shown_index = g_strdup (snapshot->index_path);
  g_set_object (&self->document, document);
  self->n_updates++;
  g_debug ("Live snapshot %u: %" G_GUINT64_FORMAT " events, %.3f s from the request "
           "to the document (written, indexed, opened)", self->n_updates,
           cs_document_get_n_events (document),
           (g_get_monotonic_time () - self->last_request_us) / 1e6);
  g_signal_emit (self, signals[SIGNAL_DOCUMENT], 0, document);
  self->shown_us = g_get_monotonic_time ();
  g_debug ("Live snapshot %u shown %.3f s after the request", self->n_updates,
           (self->shown_us - self->last_request_us) / 1e6);
  /* Only now that the window moved on (and cancelled what it ran on the
   * previous picture's files). */
  remove_files (old_trace, old_index);
}

static void
snapshot_cb (CsRecordLive *self,
             const char   *path,
             const char   *message)
{
  g_autoptr(GTask) task = NULL;
  Snapshot *snapshot;
  g_autofree char *name = NULL;

  if (path == NULL)
    {
      g_debug ("No live snapshot: %s", message != NULL ? message : "");
      self->pending = FALSE;
      return;
    }
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      g_unlink (path);
      return;
    }

  g_debug ("Live snapshot written %.3f s after the request",
           (g_get_monotonic_time () - self->last_request_us) / 1e6);
  snapshot = g_new0 (Snapshot, 1);
  snapshot->trace_path = g_strdup (path);
  name = g_strdup_printf ("live-%u.index", self->n_updates + 1);
  snapshot->index_path = g_build_filename (self->index_dir, name, NULL);

  task = g_task_new (self, self->cancellable, index_done_cb, NULL);
  g_task_set_source_tag (task, snapshot_cb);
  g_task_set_task_data (task, snapshot, (GDestroyNotify) snapshot_free);
  g_task_run_in_thread (task, index_thread);
}

static gboolean
tick_cb (gpointer user_data)
{
  CsRecordLive *self = user_data;
  gint64 now = g_get_monotonic_time ();

  if (self->pending || self->index_dir == NULL ||
      now - self->last_request_us < (gint64) LIVE_INTERVAL_MS * 1000 ||
      now - self->shown_us < (gint64) LIVE_REST_MS * 1000)
    return G_SOURCE_CONTINUE;
  if (cs_record_job_request_snapshot (self->job))
    {
      g_debug ("Live snapshot asked for %.3f s after the last request, %.3f s after "
               "the last picture", (now - self->last_request_us) / 1e6,
               (now - self->shown_us) / 1e6);
      self->pending = TRUE;
      self->last_request_us = now;
    }
  return G_SOURCE_CONTINUE;
}

static void
job_state_cb (CsRecordLive *self)
{
  CsRecordJobState state = cs_record_job_get_state (self->job);

  if (state == CS_RECORD_JOB_STATE_RECORDING && self->tick_id == 0)
    {
      self->tick_id = g_timeout_add (LIVE_TICK_MS, tick_cb, self);
      /* The first picture a second after the start, like the next ones. */
      self->last_request_us = g_get_monotonic_time ();
    }
  else if (state != CS_RECORD_JOB_STATE_RECORDING && self->tick_id != 0)
    g_clear_handle_id (&self->tick_id, g_source_remove);
}

/**
 * cs_record_live_new:
 * @job: the recording, not yet started or recording
 *
 * Follows @job: while it records, #CsRecordLive::document announces a
 * document of what was recorded so far, about once a second.
 *
 * Returns: (transfer full): the live view's source
 */
CsRecordLive *
cs_record_live_new (CsRecordJob *job)
{
  CsRecordLive *self;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (CS_IS_RECORD_JOB (job), NULL);

  self = g_object_new (CS_TYPE_RECORD_LIVE, NULL);
  self->job = g_object_ref (job);
  self->index_dir = g_dir_make_tmp ("chronoscope-live-XXXXXX", &error);
  if (self->index_dir == NULL)
    g_debug ("No live timeline: %s", error->message);
  g_signal_connect_object (job, "snapshot", G_CALLBACK (snapshot_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (job, "notify::state", G_CALLBACK (job_state_cb), self, G_CONNECT_SWAPPED);
  job_state_cb (self);
  return self;
}

/**
 * cs_record_live_get_document:
 * @self: a #CsRecordLive
 *
 * Returns: (transfer none) (nullable): the latest live document
 */
CsDocument *
cs_record_live_get_document (CsRecordLive *self)
{
  g_return_val_if_fail (CS_IS_RECORD_LIVE (self), NULL);
  return self->document;
}

/**
 * cs_record_live_get_n_updates:
 * @self: a #CsRecordLive
 *
 * Returns: how many live documents were announced so far
 */
guint
cs_record_live_get_n_updates (CsRecordLive *self)
{
  g_return_val_if_fail (CS_IS_RECORD_LIVE (self), 0);
  return self->n_updates;
}

static void
finish_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CsRecordLive *self = source_object;
  const char *trace_path = task_data;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->live_lock);
  g_autoptr(CsIndexLive) live = g_steal_pointer (&self->live_index);
  g_autoptr(GError) error = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *index_path = NULL;
  gint64 t0 = g_get_monotonic_time ();

  if (live == NULL)
    {
      g_task_return_new_error (task, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                               "No live index to finish");
      return;
    }
  if (!cs_index_live_add (live, trace_path, &error) ||
      (identity = cs_index_cache_compute_identity (trace_path, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  index_path = cs_index_cache_dup_index_path (identity);
  if (!cs_index_live_finish (live, identity, index_path, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_debug ("Live index of %s finished in %.3f s: %" G_GUINT64_FORMAT " events, %s",
           trace_path, (g_get_monotonic_time () - t0) / 1e6,
           cs_index_live_get_n_events (live), index_path);
  g_task_return_pointer (task, g_steal_pointer (&index_path), g_free);
}

/**
 * cs_record_live_finish_async:
 * @self: a #CsRecordLive whose recording is written (its job is done)
 * @trace_path: the recording's final file
 * @callback: called on this thread when done
 *
 * Gives the live index the final file's last pages and moves it into the
 * index cache as that file's index (cs_index_cache_dup_index_path() of
 * its identity), in a worker thread: opening the recording then finds its
 * index instead of building it.  Fails when the live index gave up or
 * never started; the recording is then indexed as any.
 */
void
cs_record_live_finish_async (CsRecordLive        *self,
                             const char          *trace_path,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CS_IS_RECORD_LIVE (self));
  g_return_if_fail (trace_path != NULL);

  self->finishing = TRUE;
  g_clear_handle_id (&self->tick_id, g_source_remove);
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, cs_record_live_finish_async);
  g_task_set_task_data (task, g_strdup (trace_path), g_free);
  g_task_run_in_thread (task, finish_thread);
}

/**
 * cs_record_live_finish_finish:
 * @self: a #CsRecordLive
 * @result: the result given to the callback
 * @error: %CS_INDEX_ERROR codes, %G_FILE_ERROR (see cs_index_live_finish())
 *
 * Returns: (transfer full): the final file's index, or %NULL with @error
 *   set
 */
char *
cs_record_live_finish_finish (CsRecordLive  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
cs_record_live_dispose (GObject *object)
{
  CsRecordLive *self = CS_RECORD_LIVE (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->job);

  G_OBJECT_CLASS (cs_record_live_parent_class)->dispose (object);
}

static void
cs_record_live_finalize (GObject *object)
{
  CsRecordLive *self = CS_RECORD_LIVE (object);

  g_clear_object (&self->document);
  g_clear_pointer (&self->live_index, cs_index_live_free);
  g_mutex_clear (&self->live_lock);
  remove_files (self->shown_trace, self->shown_index);
  if (self->index_dir != NULL)
    g_rmdir (self->index_dir);   /* fails, harmlessly, while a build runs */
  g_free (self->shown_trace);
  g_free (self->shown_index);
  g_free (self->index_dir);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (cs_record_live_parent_class)->finalize (object);
}

static void
cs_record_live_class_init (CsRecordLiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_record_live_dispose;
  object_class->finalize = cs_record_live_finalize;

  /**
   * CsRecordLive::document:
   * @live: the live source
   * @document: what was recorded so far (its file is a temporary snapshot,
   *   valid until a newer document is announced or @live is finalized)
   *
   * A newer picture of the recording.
   */
  signals[SIGNAL_DOCUMENT] =
    g_signal_new ("document", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, CS_TYPE_DOCUMENT);
}

static void
cs_record_live_init (CsRecordLive *self)
{
  self->cancellable = g_cancellable_new ();
  g_mutex_init (&self->live_lock);
}
