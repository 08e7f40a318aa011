/* cs-trace-file.h: one trace-cmd recording (trace.dat v6 or v7), read-only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The meaning of every field comes from the file format documented in
 * trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5); records are ring-buffer events
 * whose layout is given by the recording's own event formats
 * (events/<system>/<event>/format in tracefs), parsed by libtraceevent.
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-error.h"
#include "cs-tracedat-reader.h"

G_BEGIN_DECLS

/**
 * CS_TRACE_FILE_MAX_TS_NS:
 *
 * The latest time a #CsRecord gives, 2^62 ns (146 years): no clock gets
 * there, so a later time (or one read as negative) can only come from a
 * damaged recording, and is given as this instead.  So the difference of
 * any two times of a recording fits in a gint64.
 */
#define CS_TRACE_FILE_MAX_TS_NS (G_GINT64_CONSTANT (1) << 62)

/**
 * cs_trace_file_clamp_ts:
 * @ts: a record's time as read (ns), taken as unsigned
 *
 * Returns: @ts, or %CS_TRACE_FILE_MAX_TS_NS when later (or negative as a
 *   gint64): the time a #CsRecord gives
 */
static inline gint64
cs_trace_file_clamp_ts (guint64 ts)
{
  return (gint64) MIN (ts, (guint64) CS_TRACE_FILE_MAX_TS_NS);
}

struct tep_handle;
struct tep_record;

/**
 * CsRecord:
 * @ts_ns: timestamp in the recording's trace clock, nanoseconds (for
 *   counter clocks, the raw counter value), 0 .. %CS_TRACE_FILE_MAX_TS_NS
 * @offset: where the record lives: for an uncompressed recording its byte
 *   offset in the file (what tracecmd_read_at() takes); for a compressed v7
 *   recording a position in the CPU's decompressed data stream.  Offsets
 *   increase with each record of a CPU.
 * @cpu: the CPU whose ring buffer held the record
 * @missed_events: events the kernel dropped just before this one (0 if none,
 *   G_MAXUINT32 if it dropped an unknown number)
 * @tep_record: the libtraceevent view of the record, valid as long as the
 *   #CsRecord; pass it to tep_data_pid(), tep_print_event() and friends
 *   together with the #tep_handle it came with.
 *
 * One ring-buffer event, borrowed from a cursor until its next call.
 */
typedef struct {
  gint64 ts_ns;
  guint64 offset;
  guint cpu;
  guint32 missed_events;
  struct tep_record *tep_record;
} CsRecord;

/**
 * CsCpuCursor:
 *
 * Reads the records of one CPU in time order.  Unless
 * cs_trace_file_get_cursors_are_independent() says so, cursors share the
 * reader of their #CsTraceFile: the file and its cursors are then used
 * from one thread at a time, and reading CPUs in parallel needs one open
 * file per thread.
 */
typedef struct _CsCpuCursor CsCpuCursor;

#define CS_TYPE_TRACE_FILE (cs_trace_file_get_type ())
G_DECLARE_FINAL_TYPE (CsTraceFile, cs_trace_file, CS, TRACE_FILE, GObject)

CsTraceFile        *cs_trace_file_open              (const char   *path,
                                                     GError      **error);
CsTraceFile        *cs_trace_file_open_for_types   (const char   *path,
                                                    const gint32 *tep_ids,
                                                    guint         n_ids,
                                                    GError      **error);
CsTraceFile        *cs_trace_file_open_full         (const char   *path,
                                                     void        (*progress) (double fraction,
                                                                              gpointer user_data),
                                                     gpointer      user_data,
                                                     GCancellable *cancellable,
                                                     GError      **error);
const char         *cs_trace_file_get_source_format (CsTraceFile  *self);
guint64             cs_trace_file_get_n_bad_lines   (CsTraceFile  *self,
                                                     guint64      *first_bad_line);
const char         *cs_trace_file_get_path          (CsTraceFile  *self);
guint               cs_trace_file_get_n_cpus        (CsTraceFile  *self);
guint               cs_trace_file_get_file_version  (CsTraceFile  *self);
const char         *cs_trace_file_get_compression   (CsTraceFile  *self);
const char         *cs_trace_file_get_clock         (CsTraceFile  *self);
struct tep_handle  *cs_trace_file_get_tep           (CsTraceFile  *self);
void                cs_trace_file_load_symbols      (CsTraceFile  *self);
gboolean            cs_trace_file_read_at           (CsTraceFile  *self,
                                                     guint         cpu,
                                                     guint64       offset,
                                                     CsRecord     *record,
                                                     GError      **error);
gboolean            cs_trace_file_peek_at           (CsTraceFile  *self,
                                                     guint         cpu,
                                                     guint64       offset,
                                                     gint64        ts_ns,
                                                     CsRecord     *record,
                                                     GError      **error);
char               *cs_trace_file_format_record     (CsTraceFile  *self,
                                                     const CsRecord *record);

gboolean            cs_trace_file_get_cursors_are_independent (CsTraceFile *self);
CsCpuCursor        *cs_trace_file_open_cpu          (CsTraceFile  *self,
                                                     guint         cpu,
                                                     GError      **error);
CsCpuCursor        *cs_trace_file_open_cpu_at       (CsTraceFile  *self,
                                                     guint         cpu,
                                                     guint64       data_pos,
                                                     guint64      *data_offset,
                                                     GError      **error);
guint64             cs_trace_file_get_cpu_data_size (CsTraceFile  *self,
                                                     guint         cpu);
guint64             cs_trace_file_get_cpu_data_offset (CsTraceFile *self,
                                                       guint        cpu);
struct tep_handle  *cs_cpu_cursor_get_tep           (CsCpuCursor  *cursor);
gboolean            cs_cpu_cursor_next              (CsCpuCursor  *cursor,
                                                     CsRecord     *record,
                                                     GError      **error);
guint               cs_cpu_cursor_next_batch        (CsCpuCursor  *cursor,
                                                     CsTracedatSlimRecord *records,
                                                     guint         max,
                                                     GError      **error);
gboolean            cs_cpu_cursor_read_at           (CsCpuCursor  *cursor,
                                                     guint64       offset,
                                                     CsRecord     *record,
                                                     GError      **error);
gboolean            cs_cpu_cursor_peek_at           (CsCpuCursor  *cursor,
                                                     guint64       offset,
                                                     gint64        ts_ns,
                                                     CsRecord     *record,
                                                     GError      **error);
void                cs_cpu_cursor_set_read_ahead    (CsCpuCursor  *cursor,
                                                     CsTracedatIdleFunc idle_core,
                                                     gpointer      user_data);
void                cs_cpu_cursor_free              (CsCpuCursor  *cursor);

gboolean            cs_trace_file_estimate_cpu      (CsTraceFile  *self,
                                                     guint         cpu,
                                                     guint         n_samples,
                                                     guint64      *n_records,
                                                     gint64       *first_ns,
                                                     gint64       *last_ns);

guint64             cs_trace_file_get_n_records_read (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCpuCursor, cs_cpu_cursor_free)

G_END_DECLS
