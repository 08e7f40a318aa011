/* cs-record-stream.h: one CPU's ring buffer streamed to a temporary file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-record-error.h"

G_BEGIN_DECLS

/**
 * CsRecordStreamStats:
 * @events: trace events in the pages written so far (counted with
 *   libtraceevent's kbuffer; padding and time stamps excluded)
 * @bytes: bytes of pages written to the temporary file
 * @pages: pages written
 * @missed_events: events the kernel reported lost in the page headers
 *   (pages that only say "some were lost" count as one)
 *
 * What a #CsRecordStream has written, for live statistics.
 */
typedef struct {
  guint64 events;
  guint64 bytes;
  guint64 pages;
  guint64 missed_events;
} CsRecordStreamStats;

#define CS_TYPE_RECORD_STREAM (cs_record_stream_get_type ())
G_DECLARE_FINAL_TYPE (CsRecordStream, cs_record_stream, CS, RECORD_STREAM, GObject)

CsRecordStream *cs_record_stream_new       (guint                 cpu,
                                            int                   out_fd,
                                            const char           *out_path,
                                            guint                 page_size_bytes,
                                            guint                 kernel_long_size);
gboolean        cs_record_stream_start     (CsRecordStream       *self,
                                            int                   raw_fd,
                                            GError              **error);
void            cs_record_stream_stop      (CsRecordStream       *self);
gboolean        cs_record_stream_join      (CsRecordStream       *self,
                                            GError              **error);
gboolean        cs_record_stream_has_failed (CsRecordStream      *self);
void            cs_record_stream_get_stats (CsRecordStream       *self,
                                            CsRecordStreamStats  *stats);
guint           cs_record_stream_get_cpu   (CsRecordStream       *self);
int             cs_record_stream_get_fd    (CsRecordStream       *self);

G_END_DECLS
