/* cs-cpu-cursor.c: reads one CPU's records of a recording, in time order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A cursor reads through Chronoscope's own reader (cs-tracedat-reader.c)
 * when the recording's data is in its streams, or through libtracecmd,
 * merging the CPU's records of the top buffer and the instance buffers by
 * timestamp.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "cs-trace-file-private.h"

/* Records read by cursors that have been freed; see
 * cs_trace_file_get_n_records_read(). */
G_LOCK_DEFINE_STATIC (n_records_read);
static guint64 n_records_read;

struct _CsCpuCursor
{
  CsTraceFile *file;     /* owned */
  guint cpu;
  CsTracedatCpu *own;    /* when the file's own_data */
  /* Per buffer: its next record (NULL when not read yet or exhausted). */
  struct tep_record **pending;
  gboolean *started;
  gboolean *done;
  struct tep_record *record;   /* the one handed out last */
  guint64 n_read;
};

/**
 * cs_trace_file_open_cpu:
 * @self: a recording
 * @cpu: 0 .. n_cpus - 1
 * @error: unused for now; reserved for readers that fail on open
 *
 * Starts reading one CPU's ring-buffer data from its first record.
 *
 * Returns: (transfer full): a cursor holding a reference on @self
 */
CsCpuCursor *
cs_trace_file_open_cpu (CsTraceFile  *self,
                        guint         cpu,
                        GError      **error)
{
  CsCpuCursor *cursor;

  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  g_return_val_if_fail (cpu < self->n_cpus, NULL);

  cursor = g_new0 (CsCpuCursor, 1);
  cursor->file = g_object_ref (self);
  cursor->cpu = cpu;
  if (self->own_data)
    {
      cursor->own = cs_tracedat_reader_open_cpu (self->reader, cpu, error);
      if (cursor->own == NULL)
        {
          cs_cpu_cursor_free (cursor);
          return NULL;
        }
    }
  cursor->pending = g_new0 (struct tep_record *, self->buffers->len);
  cursor->started = g_new0 (gboolean, self->buffers->len);
  cursor->done = g_new0 (gboolean, self->buffers->len);
  return cursor;
}

/**
 * cs_trace_file_open_cpu_at:
 * @self: a recording whose CPU data are uncompressed, in this reader's own
 *   streams (cs_trace_file_get_cursors_are_independent())
 * @cpu: 0 .. n_cpus - 1
 * @data_pos: where to start, in bytes from the start of the CPU's data
 *   (trace-cmd.dat.v6(5): the flyrecord section's offset of the CPU); on a
 *   page boundary, at most the data's size
 * @data_offset: (out) (optional): where the CPU's data starts in the file
 * @error: %CS_INDEX_ERROR_UNSUPPORTED for compressed data or a file read by
 *   libtracecmd; %CS_INDEX_ERROR_CORRUPT for a @data_pos off a page boundary
 *   or past the data
 *
 * Like cs_trace_file_open_cpu(), from the page at @data_pos instead of the
 * first: for a recording in progress whose snapshots each add whole pages
 * to each CPU's data, this reads only what a snapshot added.
 *
 * Returns: (transfer full): a cursor, or %NULL with @error set
 */
CsCpuCursor *
cs_trace_file_open_cpu_at (CsTraceFile  *self,
                           guint         cpu,
                           guint64       data_pos,
                           guint64      *data_offset,
                           GError      **error)
{
  g_autoptr(CsCpuCursor) cursor = NULL;

  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  g_return_val_if_fail (cpu < self->n_cpus, NULL);

  if (!self->own_data)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: a recording with buffer instances cannot be read from a position"),
                   self->path);
      return NULL;
    }
  cursor = cs_trace_file_open_cpu (self, cpu, error);
  if (cursor == NULL || !cs_tracedat_cpu_skip_to (cursor->own, data_pos, error))
    return NULL;
  if (data_offset != NULL)
    *data_offset = cs_tracedat_reader_get_cpu_data_offset (self->reader, cpu);
  return g_steal_pointer (&cursor);
}

/**
 * cs_cpu_cursor_get_tep:
 * @cursor: a cursor
 *
 * Returns: (transfer none): the libtraceevent handle to use with the
 *   cursor's records
 */
struct tep_handle *
cs_cpu_cursor_get_tep (CsCpuCursor *cursor)
{
  /* With independent cursors this is the file's handle, shared by the
   * threads: see warm_up_tep(). */
  return cs_trace_file_get_tep (cursor->file);
}

/**
 * cs_cpu_cursor_next:
 * @cursor: a cursor
 * @record: (out caller-allocates): the next record, valid until the next
 *   call
 * @error: set when the data is damaged
 *
 * Advances to the next record of the CPU, in time order.
 *
 * Returns: %TRUE with @record filled; %FALSE at the end (@error unset) or on
 *   error (@error set)
 */
gboolean
cs_cpu_cursor_next (CsCpuCursor *cursor,
                    CsRecord    *record,
                    GError     **error)
{
  GPtrArray *buffers = cursor->file->buffers;
  int best = -1;

  if (cursor->own != NULL)
    {
      CsTracedatRecord rec;

      if (!cs_tracedat_cpu_next (cursor->own, &rec, error))
        return FALSE;
      cursor->n_read++;
      _cs_trace_file_fill_own_record (record, &rec);
      return TRUE;
    }

  g_clear_pointer (&cursor->record, tracecmd_free_record);

  /* Merge the buffers' records of this CPU by timestamp (almost always
   * only the top buffer or one instance has any). */
  for (guint b = 0; b < buffers->len; b++)
    {
      struct tracecmd_input *handle = g_ptr_array_index (buffers, b);

      if (cursor->pending[b] == NULL && !cursor->done[b])
        {
          if ((int) cursor->cpu >= tracecmd_cpus (handle))
            cursor->pending[b] = NULL;
          else if (!cursor->started[b])
            cursor->pending[b] = tracecmd_read_cpu_first (handle, cursor->cpu);
          else
            cursor->pending[b] = tracecmd_read_data (handle, cursor->cpu);
          cursor->started[b] = TRUE;
          cursor->done[b] = cursor->pending[b] == NULL;
        }
      if (cursor->pending[b] != NULL &&
          (best < 0 || cursor->pending[b]->ts < cursor->pending[best]->ts))
        best = b;
    }
  if (best < 0)
    return FALSE;

  cursor->record = cursor->pending[best];
  cursor->pending[best] = NULL;
  cursor->n_read++;
  _cs_trace_file_fill_record (record, cursor->cpu, best, cursor->record);
  return TRUE;
}

/**
 * cs_cpu_cursor_next_batch:
 * @cursor: a cursor
 * @records: (out caller-allocates) (array length=max): where the records go
 * @max: how many records at most, >= 1
 * @error: set when the data is damaged
 *
 * Like @max calls of cs_cpu_cursor_next(), for a scan of every record,
 * with each record as cs_tracedat_cpu_next_batch() gives it: its @data
 * and @size as its tep_record holds them, valid until the next call on
 * @cursor, its @offset as #CsRecord's, but its @ts_ns not clamped yet
 * (cs_trace_file_clamp_ts() makes it #CsRecord's) and its @missed_events
 * -1 when unknown.  Through the recording's own reader a batch walks
 * pages without a call per record; through libtracecmd it holds one
 * record.
 *
 * Errors: as cs_cpu_cursor_next(); the records read before an error are
 * still given, so @error may be set with a nonzero result.
 *
 * Returns: how many records were put in @records; 0 at the end (@error
 *   unset) or on error (@error set)
 */
guint
cs_cpu_cursor_next_batch (CsCpuCursor          *cursor,
                          CsTracedatSlimRecord *records,
                          guint                 max,
                          GError              **error)
{
  CsRecord rec;
  guint n;

  g_return_val_if_fail (cursor != NULL && records != NULL && max > 0, 0);

  if (cursor->own == NULL)
    {
      if (!cs_cpu_cursor_next (cursor, &rec, error))
        return 0;
      records[0].ts_ns = rec.ts_ns;
      records[0].offset = rec.offset;
      records[0].data = rec.tep_record->data;
      records[0].size = (guint32) rec.tep_record->size;
      records[0].missed_events = rec.missed_events == G_MAXUINT32 ? -1 : (gint64) rec.missed_events;
      return 1;
    }

  n = cs_tracedat_cpu_next_batch (cursor->own, records, max, error);
  cursor->n_read += n;
  return n;
}

/**
 * cs_cpu_cursor_set_read_ahead:
 * @cursor: a cursor
 * @idle_core: (nullable): tells when a core is idle, or %NULL to stop
 * @user_data: for @idle_core; it must outlive @cursor or the next call
 *
 * Lets a cursor of compressed data decompress its next chunks on a thread
 * of its own while a core is idle (cs_tracedat_cpu_set_read_ahead()).
 * Does nothing for cursors reading through libtracecmd or uncompressed
 * data.
 *
 * Thread: the cursor's.
 */
void
cs_cpu_cursor_set_read_ahead (CsCpuCursor        *cursor,
                              CsTracedatIdleFunc  idle_core,
                              gpointer            user_data)
{
  g_return_if_fail (cursor != NULL);

  if (cursor->own != NULL)
    cs_tracedat_cpu_set_read_ahead (cursor->own, idle_core, user_data);
}

/**
 * cs_cpu_cursor_free:
 * @cursor: (transfer full): a cursor
 */
void
cs_cpu_cursor_free (CsCpuCursor *cursor)
{
  if (cursor == NULL)
    return;
  g_clear_pointer (&cursor->record, tracecmd_free_record);
  g_clear_pointer (&cursor->own, cs_tracedat_cpu_free);
  for (guint b = 0; cursor->pending != NULL && b < cursor->file->buffers->len; b++)
    g_clear_pointer (&cursor->pending[b], tracecmd_free_record);
  g_free (cursor->pending);
  g_free (cursor->started);
  g_free (cursor->done);
  g_object_unref (cursor->file);
  G_LOCK (n_records_read);
  n_records_read += cursor->n_read;
  G_UNLOCK (n_records_read);
  g_free (cursor);
}

/**
 * cs_trace_file_get_n_records_read:
 *
 * Counts the records read by the cursors of the process that have been
 * freed; tests use it to prove that reopening a recording reuses its index.
 * Any thread.
 *
 * Returns: the count
 */
guint64
cs_trace_file_get_n_records_read (void)
{
  guint64 n;

  G_LOCK (n_records_read);
  n = n_records_read;
  G_UNLOCK (n_records_read);
  return n;
}

/**
 * cs_cpu_cursor_read_at:
 * @cursor: a cursor of a recording whose cursors are independent
 *   (cs_trace_file_get_cursors_are_independent())
 * @offset: a #CsRecord offset seen earlier on the cursor's CPU
 * @record: (out caller-allocates): the record, valid until the next call
 *   on @cursor
 * @error: %CS_INDEX_ERROR_CORRUPT when no record starts at @offset,
 *   %CS_INDEX_ERROR_UNSUPPORTED when the cursors of the recording are not
 *   independent (libtracecmd reads them)
 *
 * Like cs_trace_file_read_at(), on the cursor's own stream: threads that
 * each hold a cursor of another CPU read records at once.  The cursor
 * then goes on from the record after @offset.  Reading offsets in
 * increasing order reuses the data read for the previous one.
 *
 * Thread: the cursor's.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_cpu_cursor_read_at (CsCpuCursor  *cursor,
                       guint64       offset,
                       CsRecord     *record,
                       GError      **error)
{
  CsTracedatRecord rec;
  GError *local = NULL;

  g_return_val_if_fail (cursor != NULL && record != NULL, FALSE);

  if (cursor->own == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   "%s: CPU %u: records are read at an offset only through the recording",
                   cursor->file->path, cursor->cpu);
      return FALSE;
    }
  if (!cs_tracedat_cpu_seek (cursor->own, offset, error))
    return FALSE;
  if (!cs_tracedat_cpu_next (cursor->own, &rec, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                     _("%s has no event of CPU %u at offset %" PRIu64),
                     cursor->file->path, cursor->cpu, offset);
      return FALSE;
    }
  cursor->n_read++;
  _cs_trace_file_fill_own_record (record, &rec);
  return TRUE;
}

/**
 * cs_cpu_cursor_peek_at:
 * @cursor: a cursor of a recording whose cursors are independent
 *   (cs_trace_file_get_cursors_are_independent())
 * @offset: a #CsRecord offset of the cursor's CPU, as the recording's
 *   index holds it
 * @ts_ns: that record's time (ns), as the index holds it
 * @record: (out caller-allocates): the record, with @ts_ns as its time;
 *   valid until the next call on @cursor
 * @error: as for cs_cpu_cursor_read_at()
 *
 * Like cs_cpu_cursor_read_at(), without walking the records of the
 * record's page before it (cs_tracedat_cpu_peek_at()): for readers that
 * take offsets and times from the index, in increasing order.  The cursor
 * then has no next record until cs_cpu_cursor_read_at().
 *
 * Thread: the cursor's.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_cpu_cursor_peek_at (CsCpuCursor  *cursor,
                       guint64       offset,
                       gint64        ts_ns,
                       CsRecord     *record,
                       GError      **error)
{
  CsTracedatRecord rec;

  g_return_val_if_fail (cursor != NULL && record != NULL, FALSE);

  if (cursor->own == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   "%s: CPU %u: records are read at an offset only through the recording",
                   cursor->file->path, cursor->cpu);
      return FALSE;
    }
  if (!cs_tracedat_cpu_peek_at (cursor->own, offset, ts_ns, &rec, error))
    return FALSE;
  cursor->n_read++;
  _cs_trace_file_fill_own_record (record, &rec);
  return TRUE;
}

