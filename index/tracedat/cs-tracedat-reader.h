/* cs-tracedat-reader.h: Chronoscope's own reader of trace-cmd trace.dat files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The file format is the one documented in trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5).  This reader parses the header, the metadata sections
 * and the options itself, feeds the event formats to libtraceevent (a
 * struct tep_handle it creates) and reads the per-CPU ring-buffer pages of the
 * top (unnamed) buffer with libtraceevent's kbuffer.  Compressed v7 data
 * (zstd or zlib) is decompressed one chunk at a time, so reading is linear in
 * the size of the file and memory stays bounded by about two chunks per
 * stream, whatever the size of the recording.
 *
 * Why not libtracecmd: libtracecmd 1.3.1 (trace-cmd 3.1.6, Debian 12) reads
 * compressed v7 files super-linearly and keeps every decompressed chunk in
 * memory, and the Debian build cannot read zlib-compressed files at all.
 *
 * Threads: a reader is immutable once open; each #CsTracedatCpu stream owns
 * its state and its own #tep_handle, so streams run on their own threads.
 * libtraceevent parses formats with process-global state: readers build
 * their handles under cs_tracedat_reader_get_parse_lock(), which other code
 * that makes libtraceevent parse formats (tracecmd_open()) should take too.
 *
 * The peer options of a host/guest pair (TRACEID, TIME_SHIFT, GUEST) are read
 * by cs-tracedat-clock.h; the TIME_SHIFT option is not applied to @ts_ns
 * (libtracecmd applies it): see #CsTimeRelation.
 *
 * Not handled: instance buffers (only the top buffer is read), latency-tracer
 * text recordings, the ring-buffer format of Linux
 * 2.6.30 and older.  32-bit recordings (4-byte longs) are read and tested;
 * big-endian ones follow the file's byte order throughout but no big-endian
 * recording was at hand to test them.
 */
#pragma once

#include <glib-object.h>

#include "cs-index-error.h"

G_BEGIN_DECLS

struct tep_handle;
struct tep_record;

/**
 * CsTracedatRecord:
 * @ts_ns: timestamp in nanoseconds of the recording's trace clock (for a
 *   counter clock such as x86-tsc without a TSC2NSEC option: the raw counter),
 *   computed the way `trace-cmd report` does: the ring-buffer time, converted
 *   with the TSC2NSEC multiplier and shift when the file has that option, plus
 *   the DATE and OFFSET options (see cs_tracedat_reader_get_ts_offset()).
 * @raw_ts: the ring-buffer time itself, before TSC2NSEC and the DATE and
 *   OFFSET options (for x86-tsc: counter ticks of the recording machine);
 *   what a TIME_SHIFT option applies to (see cs_time_relation_guest_to_host())
 * @offset: where the record lives, a value that increases strictly with each
 *   record of a CPU and that cs_tracedat_cpu_seek() and
 *   cs_tracedat_reader_read_at() accept again.  For uncompressed data (v6,
 *   or v7 with compression "none") it is the byte offset of the record's
 *   ring-buffer header in the file, the same number libtracecmd puts in
 *   `tep_record.offset`.  For compressed v7 data it is the byte position of
 *   that header in the CPU's decompressed data stream, counted from 0 at the
 *   first byte of the CPU's first chunk (chunks hold whole pages, so
 *   `offset / page_size` is the page index in the CPU and
 *   `offset % page_size` the position in the page).  The two kinds are never
 *   mixed within one file.
 * @data: the event's payload (the bytes described by the event's format file,
 *   starting with the common_type field); borrowed, see below
 * @size: bytes in @data
 * @cpu: the CPU whose ring buffer held the record
 * @missed_events: events the kernel dropped just before this record: 0 for
 *   none, -1 when it dropped an unknown number, otherwise the count (only the
 *   first record of a ring-buffer page can carry it)
 * @tep_record: the libtraceevent view of the same record (ts, offset, cpu,
 *   data, size, record_size, missed_events filled in), to pass to
 *   tep_data_pid(), tep_data_type(), tep_print_event() together with a
 *   #tep_handle of the same recording.
 *
 * One ring-buffer event.  @data and @tep_record are borrowed from the
 * #CsTracedatCpu (or, for cs_tracedat_reader_read_at(), from the reader) that
 * filled the record and stay valid until its next call that moves it; copy
 * what you need to keep.
 */
typedef struct {
  gint64 ts_ns;
  guint64 raw_ts;
  guint64 offset;
  const guint8 *data;
  guint size;
  guint cpu;
  gint64 missed_events;
  struct tep_record *tep_record;
} CsTracedatRecord;

/**
 * CsTracedatSlimRecord:
 * @ts_ns: as in #CsTracedatRecord
 * @offset: as in #CsTracedatRecord
 * @data: as in #CsTracedatRecord; borrowed until the stream moves again
 * @size: bytes in @data
 * @missed_events: as in #CsTracedatRecord
 *
 * What cs_tracedat_cpu_next_batch() gives of each record: a
 * #CsTracedatRecord without the fields a scan does not need (the raw
 * time, the CPU, the libtraceevent view), so that a batch costs a few
 * stores per record.
 */
typedef struct {
  gint64 ts_ns;
  guint64 offset;
  const guint8 *data;
  guint32 size;
  gint64 missed_events;
} CsTracedatSlimRecord;

/**
 * CsTracedatCpu:
 *
 * One CPU's records in the order the kernel wrote them (time order).  A
 * stream owns all its state (file position, decompression context, the
 * current chunk or window of pages, a kbuffer and, on demand, its own
 * #tep_handle), so streams of the same #CsTracedatReader may be used from
 * different threads at once; one stream must be used by one thread at a time.
 */
typedef struct _CsTracedatCpu CsTracedatCpu;

/**
 * CsTracedatIdleFunc:
 * @user_data: what was given with the function
 *
 * Tells whether a core is idle now, so that work can move to another
 * thread without slowing the threads that use every core (see
 * cs_tracedat_cpu_set_read_ahead()).  Called often (once per chunk of
 * data), from any thread: it must be cheap and thread-safe, such as one
 * atomic read.
 *
 * Returns: %TRUE when a core is idle
 */
typedef gboolean (*CsTracedatIdleFunc) (gpointer user_data);

#define CS_TYPE_TRACEDAT_READER (cs_tracedat_reader_get_type ())
G_DECLARE_FINAL_TYPE (CsTracedatReader, cs_tracedat_reader, CS, TRACEDAT_READER, GObject)

GMutex            *cs_tracedat_reader_get_parse_lock      (void);
CsTracedatReader  *cs_tracedat_reader_open                (const char        *path,
                                                           GError           **error);
CsTracedatReader  *cs_tracedat_reader_open_for_types      (const char        *path,
                                                           const gint32      *tep_ids,
                                                           guint              n_ids,
                                                           GError           **error);
CsTracedatReader  *cs_tracedat_reader_open_options        (const char        *path,
                                                           GError           **error);
const char        *cs_tracedat_reader_get_path            (CsTracedatReader  *self);
guint              cs_tracedat_reader_get_file_version    (CsTracedatReader  *self);
gboolean           cs_tracedat_reader_is_big_endian       (CsTracedatReader  *self);
guint              cs_tracedat_reader_get_long_size       (CsTracedatReader  *self);
guint              cs_tracedat_reader_get_kernel_long_size (CsTracedatReader *self);
guint              cs_tracedat_reader_get_page_size       (CsTracedatReader  *self);
const char        *cs_tracedat_reader_get_compression     (CsTracedatReader  *self);
guint              cs_tracedat_reader_get_n_cpus          (CsTracedatReader  *self);
guint64            cs_tracedat_reader_get_cpu_data_size   (CsTracedatReader  *self,
                                                           guint              cpu);
guint64            cs_tracedat_reader_get_cpu_data_offset (CsTracedatReader  *self,
                                                           guint              cpu);
const char        *cs_tracedat_reader_get_clock           (CsTracedatReader  *self);
const char        *cs_tracedat_reader_get_uname           (CsTracedatReader  *self);
gint64             cs_tracedat_reader_get_ts_offset       (CsTracedatReader  *self);
gboolean           cs_tracedat_reader_get_tsc2nsec        (CsTracedatReader  *self,
                                                           guint32           *mult,
                                                           guint32           *shift);
gboolean           cs_tracedat_reader_has_time_shift      (CsTracedatReader  *self);
guint              cs_tracedat_reader_get_n_parse_failures (CsTracedatReader *self);
guint              cs_tracedat_reader_get_n_instance_buffers (CsTracedatReader *self);
struct tep_handle *cs_tracedat_reader_get_tep             (CsTracedatReader  *self);
gboolean           cs_tracedat_reader_load_symbols        (CsTracedatReader  *self,
                                                           GError           **error);
gboolean           cs_tracedat_reader_read_at             (CsTracedatReader  *self,
                                                           guint              cpu,
                                                           guint64            offset,
                                                           CsTracedatRecord  *record,
                                                           GError           **error);
gboolean           cs_tracedat_reader_peek_at             (CsTracedatReader  *self,
                                                           guint              cpu,
                                                           guint64            offset,
                                                           gint64             ts_ns,
                                                           CsTracedatRecord  *record,
                                                           GError           **error);

CsTracedatCpu     *cs_tracedat_reader_open_cpu            (CsTracedatReader  *self,
                                                           guint              cpu,
                                                           GError           **error);
void               cs_tracedat_cpu_free                   (CsTracedatCpu     *cpu);
guint              cs_tracedat_cpu_get_cpu                (CsTracedatCpu     *cpu);
struct tep_handle *cs_tracedat_cpu_get_tep                (CsTracedatCpu     *cpu,
                                                           GError           **error);
gboolean           cs_tracedat_cpu_next                   (CsTracedatCpu     *cpu,
                                                           CsTracedatRecord  *record,
                                                           GError           **error);
guint              cs_tracedat_cpu_next_batch             (CsTracedatCpu     *cpu,
                                                           CsTracedatSlimRecord *records,
                                                           guint              max,
                                                           GError           **error);
gboolean           cs_tracedat_cpu_skip_to                (CsTracedatCpu     *cpu,
                                                           guint64            data_pos,
                                                           GError           **error);
gboolean           cs_tracedat_cpu_seek                   (CsTracedatCpu     *cpu,
                                                           guint64            offset,
                                                           GError           **error);
gboolean           cs_tracedat_cpu_peek_at                (CsTracedatCpu     *cpu,
                                                           guint64            offset,
                                                           gint64             ts_ns,
                                                           CsTracedatRecord  *record,
                                                           GError           **error);
guint64            cs_tracedat_cpu_get_bytes_done         (CsTracedatCpu     *cpu);
void               cs_tracedat_cpu_set_read_ahead         (CsTracedatCpu     *cpu,
                                                           CsTracedatIdleFunc idle_core,
                                                           gpointer           user_data);
gboolean           cs_tracedat_cpu_estimate               (CsTracedatCpu     *cpu,
                                                           guint              n_samples,
                                                           guint64           *n_records,
                                                           gint64            *first_ns,
                                                           gint64            *last_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTracedatCpu, cs_tracedat_cpu_free)

G_END_DECLS
