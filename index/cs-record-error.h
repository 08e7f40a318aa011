/* cs-record-error.h: the GError domain of making a recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CS_RECORD_ERROR:
 *
 * Error domain for making a recording: everything under `index/capture/`
 * (configuring a private tracefs instance, streaming its ring buffers) and
 * the trace.dat writer of `index/tracedat/`.
 * Every message names what was refused (the event, the filter with
 * tracefs's own `error_log` text, the tracer, the file) and why.  A Stop
 * request is not an error; cancellation of the final write is reported as
 * `G_IO_ERROR_CANCELLED`.
 */
#define CS_RECORD_ERROR (cs_record_error_quark ())

/**
 * CsRecordError:
 * @CS_RECORD_ERROR_PERMISSION: tracefs refused access (not root: `EACCES` or
 *   `EPERM` on `instances/`); recording needs root or the pkexec helper.
 * @CS_RECORD_ERROR_NO_TRACEFS: no tracefs is mounted (neither
 *   `/sys/kernel/tracing` nor `debugfs/tracing`).
 * @CS_RECORD_ERROR_UNKNOWN_EVENT: an event or system that is not in
 *   `available_events`; the message names it.
 * @CS_RECORD_ERROR_BAD_FILTER: the kernel refused an event filter; the
 *   message names the event and quotes the instance's `error_log`.
 * @CS_RECORD_ERROR_TRACER_REFUSED: the tracer is not in `available_tracers`
 *   or writing `current_tracer` failed (`EPERM` where function tracing is
 *   not permitted); the message names the tracer and the reason.
 * @CS_RECORD_ERROR_BAD_OPTION: a trace clock, CPU mask, buffer size, pid or
 *   duration the kernel (or the parser) refused; the message names it.
 * @CS_RECORD_ERROR_DISK_FULL: `ENOSPC` or `EDQUOT` while streaming or
 *   writing; nothing that looks like a recording is left.
 * @CS_RECORD_ERROR_OUTPUT: the output file or its temporary files cannot be
 *   created or written (the message names the folder and the system's
 *   reason, e.g. "Permission denied").
 * @CS_RECORD_ERROR_COMMAND: the command to record could not be started.
 * @CS_RECORD_ERROR_BUSY: a recording is already running in this object.
 * @CS_RECORD_ERROR_FAILED: any other tracefs or system failure; the message
 *   names the tracefs file and errno text.
 *
 * Codes of %CS_RECORD_ERROR.
 */
typedef enum {
  CS_RECORD_ERROR_PERMISSION,
  CS_RECORD_ERROR_NO_TRACEFS,
  CS_RECORD_ERROR_UNKNOWN_EVENT,
  CS_RECORD_ERROR_BAD_FILTER,
  CS_RECORD_ERROR_TRACER_REFUSED,
  CS_RECORD_ERROR_BAD_OPTION,
  CS_RECORD_ERROR_DISK_FULL,
  CS_RECORD_ERROR_OUTPUT,
  CS_RECORD_ERROR_COMMAND,
  CS_RECORD_ERROR_BUSY,
  CS_RECORD_ERROR_FAILED,
} CsRecordError;

GQuark      cs_record_error_quark    (void);
const char *cs_record_error_to_nick  (int          code);
int         cs_record_error_from_nick (const char *nick);

G_END_DECLS
