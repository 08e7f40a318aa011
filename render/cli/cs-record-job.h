/* cs-record-job.h: a recording run by the privileged helper for the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cs-record-options.h"

G_BEGIN_DECLS

/**
 * CsRecordJobState:
 * @CS_RECORD_JOB_STATE_IDLE: not started
 * @CS_RECORD_JOB_STATE_STARTING: the helper runs (pkexec may be asking for a
 *   password) but tracing is not on yet
 * @CS_RECORD_JOB_STATE_RECORDING: tracing is on; statistics arrive
 * @CS_RECORD_JOB_STATE_STOPPING: Stop was asked; the helper writes the file
 * @CS_RECORD_JOB_STATE_DONE: the recording is written
 * @CS_RECORD_JOB_STATE_FAILED: the helper refused or failed (see
 *   cs_record_job_get_error())
 */
typedef enum {
  CS_RECORD_JOB_STATE_IDLE,
  CS_RECORD_JOB_STATE_STARTING,
  CS_RECORD_JOB_STATE_RECORDING,
  CS_RECORD_JOB_STATE_STOPPING,
  CS_RECORD_JOB_STATE_DONE,
  CS_RECORD_JOB_STATE_FAILED,
} CsRecordJobState;

#define CS_TYPE_RECORD_JOB (cs_record_job_get_type ())
G_DECLARE_FINAL_TYPE (CsRecordJob, cs_record_job, CS, RECORD_JOB, GObject)

CsRecordJob      *cs_record_job_new             (const CsRecordOptions *options);
void              cs_record_job_set_demo        (CsRecordJob           *self,
                                                 const char            *scenario,
                                                 const char            *module_path);
gboolean          cs_record_job_start           (CsRecordJob           *self,
                                                 GError               **error);
void              cs_record_job_stop            (CsRecordJob           *self);
gboolean          cs_record_job_request_snapshot (CsRecordJob          *self);
CsRecordJobState  cs_record_job_get_state       (CsRecordJob           *self);
JsonObject       *cs_record_job_get_stats       (CsRecordJob           *self);
JsonObject       *cs_record_job_get_result      (CsRecordJob           *self);
const GError     *cs_record_job_get_error       (CsRecordJob           *self);
const char       *cs_record_job_get_output      (CsRecordJob           *self);
const char * const *cs_record_job_get_warnings  (CsRecordJob           *self);

char            **cs_record_job_build_argv      (const char * const    *helper_args,
                                                 GError               **error);

G_END_DECLS
