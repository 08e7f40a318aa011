/* cs-recorder.h: records trace events with tracefs into a trace.dat.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-record-error.h"
#include "cs-record-options.h"

G_BEGIN_DECLS

/**
 * CsRecorderState:
 * @CS_RECORDER_STATE_NEW: not started
 * @CS_RECORDER_STATE_RECORDING: tracing is on, pages are streamed to disk
 * @CS_RECORDER_STATE_STOPPING: tracing is off; the last pages are drained,
 *   tracefs restored and the trace.dat written
 * @CS_RECORDER_STATE_DONE: the trace.dat is written, tracefs restored
 * @CS_RECORDER_STATE_FAILED: the recording failed, tracefs restored,
 *   nothing written
 */
typedef enum {
  CS_RECORDER_STATE_NEW,
  CS_RECORDER_STATE_RECORDING,
  CS_RECORDER_STATE_STOPPING,
  CS_RECORDER_STATE_DONE,
  CS_RECORDER_STATE_FAILED,
} CsRecorderState;

/**
 * CsRecordCpuStats:
 * @cpu: the CPU
 * @events: events recorded: those written to disk plus those waiting in the
 *   ring buffer (`entries` of `per_cpu/cpuN/stats`)
 * @bytes: bytes of ring-buffer pages written to disk
 * @overrun: events the ring buffer overwrote before they were read
 *   (`overrun` of `per_cpu/cpuN/stats`)
 * @dropped: events dropped with a full buffer (`dropped events`)
 * @missed_events: events the page headers report lost (what readers show
 *   as "[LOST n EVENTS]")
 *
 * Live statistics of one CPU of a recording.
 */
typedef struct {
  guint cpu;
  guint64 events;
  guint64 bytes;
  guint64 overrun;
  guint64 dropped;
  guint64 missed_events;
} CsRecordCpuStats;

#define CS_TYPE_RECORDER (cs_recorder_get_type ())
G_DECLARE_FINAL_TYPE (CsRecorder, cs_recorder, CS, RECORDER, GObject)

CsRecorder            *cs_recorder_new                (const CsRecordOptions *options);
gboolean               cs_recorder_start              (CsRecorder            *self,
                                                       GError               **error);
void                   cs_recorder_stop               (CsRecorder            *self);
void                   cs_recorder_abort              (CsRecorder            *self);
void                   cs_recorder_wait_async         (CsRecorder            *self,
                                                       GCancellable          *cancellable,
                                                       GAsyncReadyCallback    callback,
                                                       gpointer               user_data);
gboolean               cs_recorder_wait_finish        (CsRecorder            *self,
                                                       GAsyncResult          *result,
                                                       GError               **error);
CsRecorderState        cs_recorder_get_state          (CsRecorder            *self);
const CsRecordOptions *cs_recorder_get_options        (CsRecorder            *self);
const char            *cs_recorder_get_instance_name  (CsRecorder            *self);
guint                  cs_recorder_get_n_cpus         (CsRecorder            *self);
GArray                *cs_recorder_dup_stats          (CsRecorder            *self);
double                 cs_recorder_get_elapsed_s      (CsRecorder            *self);
const char * const    *cs_recorder_get_warnings       (CsRecorder            *self);
GPid                   cs_recorder_get_command_pid    (CsRecorder            *self);
gboolean               cs_recorder_get_command_status (CsRecorder            *self,
                                                       int                   *wait_status);
gboolean               cs_recorder_write_snapshot     (CsRecorder            *self,
                                                       const char            *path,
                                                       guint64               *events,
                                                       GError               **error);
void                   cs_recorder_set_command_stdin_null (CsRecorder        *self,
                                                       gboolean               null_stdin);

const char *cs_recorder_find_tracing_dir (void);

G_END_DECLS
