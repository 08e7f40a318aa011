/* cs-task-rows.c: a task's rows of the index (its runs and the wakeups
 * aimed at it) that a walk of a span reads (cs-task-timeline.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * task_chunks holds a task's rows per CPU, CS_TASK_CHUNK_ROWS at a time,
 * in time order (cs-index-schema.c).  A walk of [begin, end) reads, per
 * CPU, the chunks that overlap the span and the latest one that ends
 * before it (to know the state the task was in when the span begins).
 * Which those are is found from the task's directory (its chunks without
 * their data, read once per task and kept in the document): finding them
 * with SQL read every chunk of the task from the recording's start, a
 * blob each, thousands for a busy task late in a long recording.  A walk
 * from the recording's start needs every chunk before its end and reads
 * them with one query instead.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-task-timeline-private.h"

/* A row of task_chunks without its data. */
typedef struct {
  gint64 rowid;
  gint64 first_ns;
  gint64 last_ns;
  gint32 cpu;
} TaskDirEntry;

/* Directories kept at once: a critical path or a wakeup chain asks the
 * same few tasks again and again. */
#define TASK_DIRS_MAX 1024

/* The chunks of @pid (TaskDirEntry, in CPU order and, within a CPU, in
 * time order), read once.  Owned by @self, valid until the next call;
 * NULL with @error set. */
static GArray *
task_directory (CsDocument  *self,
                gint32       pid,
                GError     **error)
{
  GArray *dir;
  int rc;

  if (self->task_dirs == NULL)
    self->task_dirs = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  dir = g_hash_table_lookup (self->task_dirs, GINT_TO_POINTER (pid));
  if (dir != NULL)
    return dir;
  if (self->task_dir == NULL &&
      (self->task_dir = _cs_sqlite_prepare (self->db,
          "SELECT cpu, first_ns, last_ns, rowid FROM task_chunks"
          " WHERE pid = ?1 ORDER BY cpu, chunk", error)) == NULL)
    return NULL;
  dir = g_array_new (FALSE, FALSE, sizeof (TaskDirEntry));
  sqlite3_bind_int (self->task_dir, 1, pid);
  while ((rc = sqlite3_step (self->task_dir)) == SQLITE_ROW)
    {
      TaskDirEntry e = {
        sqlite3_column_int64 (self->task_dir, 3),
        sqlite3_column_int64 (self->task_dir, 1),
        sqlite3_column_int64 (self->task_dir, 2),
        sqlite3_column_int (self->task_dir, 0),
      };

      g_array_append_val (dir, e);
    }
  sqlite3_reset (self->task_dir);
  if (!_cs_sqlite_check (self->db, rc, _("reading task rows"), error))
    {
      g_array_unref (dir);
      return NULL;
    }
  if (g_hash_table_size (self->task_dirs) >= TASK_DIRS_MAX)
    g_hash_table_remove_all (self->task_dirs);
  g_hash_table_insert (self->task_dirs, GINT_TO_POINTER (pid), dir);
  return dir;
}

/* By bisection, the first index in [@lo, @hi) of @dir (ordered by CPU,
 * then time) whose entry is of a CPU after @cpu (@by_cpu), or else, among
 * one CPU's entries, does not end before @begin_ns; @hi when none is. */
static guint
first_past (GArray   *dir,
            guint     lo,
            guint     hi,
            gint32    cpu,
            gint64    begin_ns,
            gboolean  by_cpu)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const TaskDirEntry *e = &g_array_index (dir, TaskDirEntry, mid);

      if (by_cpu ? e->cpu > cpu : e->last_ns >= begin_ns)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

gboolean
_cs_document_select_task_chunks (CsDocument  *self,
                                 gint32       pid,
                                 gint64       begin_ns,
                                 gint64       end_ns,
                                 GArray      *chunks,
                                 GError     **error)
{
  GArray *dir = task_directory (self, pid, error);

  if (dir == NULL)
    return FALSE;
  /* Per CPU, by bisection (a busy task has thousands of chunks, and a
   * critical path asks for short spans of it again and again): the
   * CPU's latest chunk that ends before the span, to know the task's
   * state when the span begins, then those up to the span's end.  A
   * CPU's chunks follow one another in time. */
  for (guint lo = 0, hi; lo < dir->len; lo = hi)
    {
      gint32 cpu = g_array_index (dir, TaskDirEntry, lo).cpu;
      guint i;

      hi = first_past (dir, lo, dir->len, cpu, 0, TRUE);
      i = first_past (dir, lo, hi, cpu, begin_ns, FALSE);
      for (i = i > lo ? i - 1 : i; i < hi; i++)
        {
          const TaskDirEntry *e = &g_array_index (dir, TaskDirEntry, i);
          CsTaskChunkRef ref = { e->rowid, e->cpu };

          if (e->first_ns >= end_ns)
            break;
          g_array_append_val (chunks, ref);
        }
    }
  return TRUE;
}

/* Appends to @rows the @n rows of a task chunk of @cpu (its data: @size
 * bytes at @data), decoded into @cols. */
static gboolean
decode_chunk_rows (CsDocument     *self,
                   guint           n,
                   const guint8   *data,
                   gsize           size,
                   gint32          cpu,
                   gint64        **cols,
                   GArray         *rows,
                   GError        **error)
{
  guint at = rows->len;

  if (n == 0 || n > CS_TASK_CHUNK_ROWS)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   g_dngettext (GETTEXT_PACKAGE, "The index %s has a task chunk of %u row",
                                "The index %s has a task chunk of %u rows", n),
                   self->index_path, n);
      return FALSE;
    }
  if (!cs_chunk_decode (data, size, n, TK_N_COLUMNS, _cs_task_chunk_modes, cols, error))
    return FALSE;
  g_array_set_size (rows, at + n);
  for (guint i = 0; i < n; i++)
    {
      CsTaskRow *r = &g_array_index (rows, CsTaskRow, at + i);

      r->ts = cols[TK_TS][i];
      r->duration = cols[TK_DURATION][i];
      r->kind = (gint32) cols[TK_KIND][i];
      r->state = (gint32) cols[TK_STATE][i];
      r->cpu = cpu;
    }
  return TRUE;
}

/* Room for one chunk's decoded columns: cols[c] points into the result. */
static gint64 *
column_room (gint64 **cols)
{
  gint64 *mem = g_new (gint64, (gsize) TK_N_COLUMNS * CS_TASK_CHUNK_ROWS);

  for (guint c = 0; c < TK_N_COLUMNS; c++)
    cols[c] = mem + c * CS_TASK_CHUNK_ROWS;
  return mem;
}

gboolean
_cs_document_read_task_chunks (CsDocument  *self,
                               GArray      *chunks,
                               GArray      *rows,
                               GError     **error)
{
  gint64 *cols[TK_N_COLUMNS];
  g_autofree gint64 *mem = column_room (cols);
  sqlite3_stmt *s;

  if (self->task_chunk == NULL &&
      (self->task_chunk = _cs_sqlite_prepare (self->db,
          "SELECT n_rows, data FROM task_chunks WHERE rowid = ?1", error)) == NULL)
    return FALSE;
  s = self->task_chunk;
  for (guint i = 0; i < chunks->len; i++)
    {
      const CsTaskChunkRef *ref = &g_array_index (chunks, CsTaskChunkRef, i);
      gboolean ok;
      int rc;

      sqlite3_bind_int64 (s, 1, ref->rowid);
      if ((rc = sqlite3_step (s)) != SQLITE_ROW)
        {
          sqlite3_reset (s);
          /* Gone since the directory was read: only a damaged index. */
          if (_cs_sqlite_check (self->db, rc, _("reading task rows"), error))
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                         _("The index %s lacks a task chunk"), self->index_path);
          return FALSE;
        }
      ok = decode_chunk_rows (self, sqlite3_column_int (s, 0), sqlite3_column_blob (s, 1),
                              sqlite3_column_bytes (s, 1), ref->cpu, cols, rows, error);
      sqlite3_reset (s);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* _cs_document_read_task_rows() of a span from the recording's start:
 * every chunk that begins before @end_ns, in one query (a walk over every
 * task, as `stats` does, asks each task once). */
static gboolean
read_rows_from_start (CsDocument  *self,
                      gint32       pid,
                      gint64       end_ns,
                      GArray      *rows,
                      GError     **error)
{
  gint64 *cols[TK_N_COLUMNS];
  g_autofree gint64 *mem = column_room (cols);
  sqlite3_stmt *s;
  gboolean ok = TRUE;
  int rc;

  if (self->task_range == NULL &&
      (self->task_range = _cs_sqlite_prepare (self->db,
          "SELECT cpu, n_rows, data FROM task_chunks"
          " WHERE pid = ?1 AND first_ns < ?2 ORDER BY cpu, chunk", error)) == NULL)
    return FALSE;
  s = self->task_range;
  sqlite3_bind_int (s, 1, pid);
  sqlite3_bind_int64 (s, 2, end_ns);
  while (ok && (rc = sqlite3_step (s)) == SQLITE_ROW)
    ok = decode_chunk_rows (self, sqlite3_column_int (s, 1), sqlite3_column_blob (s, 2),
                            sqlite3_column_bytes (s, 2), sqlite3_column_int (s, 0), cols, rows,
                            error);
  sqlite3_reset (s);
  return ok && _cs_sqlite_check (self->db, rc, _("reading task rows"), error);
}

gboolean
_cs_document_read_task_rows (CsDocument  *self,
                             gint32       pid,
                             gint64       begin_ns,
                             gint64       end_ns,
                             GArray      *rows,
                             GError     **error)
{
  g_autoptr(GArray) chunks = NULL;

  /* No chunk ends before the recording's first event. */
  if (begin_ns <= self->first_ns)
    return read_rows_from_start (self, pid, end_ns, rows, error);
  chunks = g_array_new (FALSE, FALSE, sizeof (CsTaskChunkRef));
  return _cs_document_select_task_chunks (self, pid, begin_ns, end_ns, chunks, error) &&
         _cs_document_read_task_chunks (self, chunks, rows, error);
}
