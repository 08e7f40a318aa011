/* cs-recorder-snapshot.c: a trace.dat of what a running recording holds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * While recording, each CPU's stream file grows by whole pages.  A snapshot
 * is a complete trace.dat (version 6) with the same headers and event
 * formats as the final file, the task names known so far and, for each
 * CPU, the pages streamed up to now: the window indexes and shows it while
 * the recording goes on (the live timeline).  The pages are copied with
 * copy_file_range() from explicit offsets, so the stream threads keep
 * appending undisturbed; pages counted in a stream's statistics are
 * complete in its file.  Each snapshot is a hard link to the previous
 * one's file, grown in place, while that file is there and has room
 * (cs_tracedat_writer_finish_growing()): only the new pages are copied.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-record-stream.h"
#include "cs-recorder-private.h"

/**
 * cs_recorder_write_snapshot:
 * @self: a recording #CsRecorder
 * @path: the trace.dat to write (written under a temporary name in its
 *   folder, then renamed; owned by the recording's user like the output)
 * @events: (out) (optional): events in the pages written, all CPUs
 * @error: return location for a %CS_RECORD_ERROR: %CS_RECORD_ERROR_FAILED
 *   when not recording, %CS_RECORD_ERROR_OUTPUT or
 *   %CS_RECORD_ERROR_DISK_FULL when @path cannot be written, or what
 *   reading tracefs's headers and formats gives
 *
 * Writes what has been recorded so far as a standard trace.dat: for each
 * CPU the pages streamed until now, in the order the final file will have
 * them.  Runs in the main context's thread, synchronously.  It copies the
 * pages recorded since the previous snapshot, when that snapshot's file
 * still exists (the new path is then a hard link to it, grown in place:
 * readers of the previous snapshot read what its header says, which is
 * unchanged), else all of them.
 *
 * Returns: whether @path was written
 */
gboolean
cs_recorder_write_snapshot (CsRecorder  *self,
                            const char  *path,
                            guint64     *events,
                            GError     **error)
{
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GBytes) cmdlines = NULL;
  guint64 total = 0;

  g_return_val_if_fail (CS_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->state != CS_RECORDER_STATE_RECORDING || self->streams == NULL)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                   _("Cannot write a snapshot to %s: not recording"), path);
      return FALSE;
    }

  writer = _cs_recorder_new_writer (self, path, error);
  if (writer == NULL)
    return FALSE;

  cmdlines = _cs_record_cmdlines_bytes (self->comms);
  cs_tracedat_writer_set_cmdlines (writer, cmdlines);
  _cs_recorder_add_options (self, writer, NULL);
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      CsRecordStream *stream = g_ptr_array_index (self->streams, cpu);
      CsRecordStreamStats stats;

      cs_record_stream_get_stats (stream, &stats);
      cs_tracedat_writer_set_cpu_data (writer, cpu, cs_record_stream_get_fd (stream),
                                       stats.bytes);
      total += stats.events;
    }

  /* Only what was recorded since the previous snapshot is copied (when
   * its file is still there): a refresh does not cost in proportion to
   * the recording. */
  if (!cs_tracedat_writer_finish_growing (writer, &self->snapshots, NULL, error))
    return FALSE;
  if (events != NULL)
    *events = total;
  return TRUE;
}
