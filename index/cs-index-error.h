/* cs-index-error.h: the GError domain of the index layer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CS_INDEX_ERROR:
 *
 * Error domain for everything under `index/`: reading trace.dat recordings,
 * building and querying the SQLite event index.  Cancellation is reported as
 * `G_IO_ERROR_CANCELLED`, file-system failures as `G_FILE_ERROR` codes.
 */
#define CS_INDEX_ERROR (cs_index_error_quark ())

/**
 * CsIndexError:
 * @CS_INDEX_ERROR_NOT_A_TRACE: the file is not a trace-cmd trace.dat recording
 *   (wrong magic bytes).
 * @CS_INDEX_ERROR_TRUNCATED: the recording ends before a section it declares.
 * @CS_INDEX_ERROR_UNSUPPORTED: a valid recording using something this build
 *   cannot read (a file version other than 6 or 7, an unknown compression).
 * @CS_INDEX_ERROR_CORRUPT: the recording or the index contradicts itself
 *   (a bad page header, an event type missing from the formats, a broken blob).
 * @CS_INDEX_ERROR_SQLITE: SQLite failed; the message carries sqlite3_errmsg().
 * @CS_INDEX_ERROR_STALE: the index exists but was built by another schema
 *   version or from another recording; it must be rebuilt.
 * @CS_INDEX_ERROR_WORKER: the indexing worker process died or misbehaved.
 * @CS_INDEX_ERROR_CHANGED: the recording was truncated, rewritten or
 *   replaced while it was being indexed (its identity differs at the end of
 *   the build from what it was at the start); nothing was kept.
 *
 * Codes of %CS_INDEX_ERROR.
 */
typedef enum {
  CS_INDEX_ERROR_NOT_A_TRACE,
  CS_INDEX_ERROR_TRUNCATED,
  CS_INDEX_ERROR_UNSUPPORTED,
  CS_INDEX_ERROR_CORRUPT,
  CS_INDEX_ERROR_SQLITE,
  CS_INDEX_ERROR_STALE,
  CS_INDEX_ERROR_WORKER,
  CS_INDEX_ERROR_CHANGED,
} CsIndexError;

GQuark cs_index_error_quark (void);

G_END_DECLS
