/* cs-tracedat-reader.c: CsTracedatReader, a trace.dat file opened for
 * reading: its properties, its per-CPU streams and random access to records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Formats: trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5).  The file header and
 * options are read by cs-tracedat-header.c, the metadata sections by
 * cs-tracedat-sections.c, the per-CPU ring-buffer data by cs-tracedat-cpu.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-private.h"

G_DEFINE_FINAL_TYPE (CsTracedatReader, cs_tracedat_reader, G_TYPE_OBJECT)

static void
cs_tracedat_reader_finalize (GObject *object)
{
  CsTracedatReader *self = CS_TRACEDAT_READER (object);

  if (self->read_at_cpus != NULL)
    {
      for (guint i = 0; i < self->n_cpus; i++)
        g_clear_pointer (&self->read_at_cpus[i], cs_tracedat_cpu_free);
      g_free (self->read_at_cpus);
    }
  g_mutex_clear (&self->read_at_lock);
  _cs_td_free_tep (g_steal_pointer (&self->tep), g_steal_pointer (&self->plugins));
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->cpu_data);
  g_free (self->clock);
  g_free (self->uname);
  g_clear_pointer (&self->time_shift_option, g_bytes_unref);
  g_clear_pointer (&self->guest_options, g_ptr_array_unref);
  g_free (self->compression);
  g_free (self->compression_version);
  g_free (self->wanted_ids);
  g_free (self->display_name);
  g_free (self->path);

  G_OBJECT_CLASS (cs_tracedat_reader_parent_class)->finalize (object);
}

static void
cs_tracedat_reader_class_init (CsTracedatReaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_tracedat_reader_finalize;
}

static void
cs_tracedat_reader_init (CsTracedatReader *self)
{
  self->fd = -1;
  g_mutex_init (&self->read_at_lock);
}

/**
 * cs_tracedat_reader_open:
 * @path: (type filename): a trace.dat file written by trace-cmd (format v6 or
 *   v7, uncompressed or compressed with zstd or zlib)
 * @error: return location for a #GError
 *
 * Opens @path and reads everything but the ring-buffer data: the initial
 * format, for v7 the compression algorithm and the chain of options sections,
 * for v6 the sections in file order, the options and the flyrecord table,
 * then the metadata sections (header page and event, ftrace and event formats,
 * kallsyms, printk formats, saved command lines), which are parsed into the
 * reader's own #tep_handle (with libtraceevent's plugins loaded, so that
 * tep_print_event() prints what `trace-cmd report` prints).
 *
 * Only the top (unnamed) buffer is read; instance buffers are ignored.
 * Options whose meaning is applied: DATE and OFFSET (added to timestamps, as
 * libtracecmd does by default), TSC2NSEC (multiplier and shift converting
 * counter ticks to ns), TRACECLOCK, CPUCOUNT, BUFFER, DONE and the section
 * options.  TIME_SHIFT (guest-to-host clock correction) is noticed but not
 * applied: see cs_tracedat_reader_has_time_shift().
 *
 * The file stays open (one descriptor, read with pread()) until the reader is
 * finalized.  Opening costs the size of the metadata (about 15 MB of kallsyms
 * for a distribution kernel) and does not read the ring-buffer data.
 *
 * Errors: %CS_INDEX_ERROR_NOT_A_TRACE (no trace.dat magic bytes),
 * %CS_INDEX_ERROR_UNSUPPORTED (a version other than 6 or 7, an unknown
 * compression algorithm, a latency-tracer text recording, sizes beyond this
 * reader's limits), %CS_INDEX_ERROR_TRUNCATED (a section or option past the
 * end of the file), %CS_INDEX_ERROR_CORRUPT (the file contradicts itself),
 * %G_FILE_ERROR codes for open() and read() failures.  Messages name the
 * file, the section and the offset.  Data errors of a CPU are reported when
 * that CPU is read.
 *
 * Thread: any.  The reader is immutable once open, except for
 * cs_tracedat_reader_read_at()'s cache.
 *
 * Returns: (transfer full): a new reader, or %NULL with @error set
 */
/* Opens @path and reads its header, options and section list: all but
 * the event formats. */
static CsTracedatReader *
open_file (const char  *path,
           GError     **error)
{
  g_autoptr(CsTracedatReader) self = NULL;
  struct stat st;

  self = g_object_new (CS_TYPE_TRACEDAT_READER, NULL);
  self->path = g_strdup (path);
  self->display_name = g_filename_display_name (path);
  self->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (self->fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("%s: cannot open: %s"), self->display_name, g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (self->fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: not a regular file"), self->display_name);
      return NULL;
    }
  self->file_size = (guint64) st.st_size;

  if (!_cs_td_read_header (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * cs_tracedat_reader_open_options:
 * @path: a trace.dat file
 * @error: as cs_tracedat_reader_open()
 *
 * A reader of what @path says about itself: its header, options (clock,
 * TSC2NSEC, TIME_SHIFT, GUEST, TRACEID...) and CPUs, without parsing its
 * event formats (a thousand of them cost ~0.1 s: `info` reads the clock of
 * a recording it has indexed).  It has no #tep_handle: do not read records
 * with it (cs_tracedat_reader_open_cpu(), cs_tracedat_reader_read_at()).
 *
 * Returns: (transfer full): a new reader, or %NULL with @error set
 */
CsTracedatReader *
cs_tracedat_reader_open_options (const char  *path,
                                 GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return open_file (path, error);
}

CsTracedatReader *
cs_tracedat_reader_open (const char  *path,
                         GError     **error)
{
  return cs_tracedat_reader_open_for_types (path, NULL, 0, error);
}

/**
 * cs_tracedat_reader_open_for_types:
 * @path: (type filename): a trace.dat file, as for cs_tracedat_reader_open()
 * @tep_ids: (array length=n_ids) (nullable): the format IDs (the `ID:`
 *   line of a format, common_type of its records) whose formats to parse;
 *   %NULL for all of them
 * @n_ids: how many; IDs outside 0..65535 are passed over
 * @error: as cs_tracedat_reader_open()
 *
 * cs_tracedat_reader_open() that gives libtraceevent only the formats of
 * @tep_ids: a recording carries the format of every event its kernel
 * offers (2,323 in large-v6.dat, ~0.19 s to parse) and holds records of a
 * few dozen, which an index lists (its event_types table).  Records of
 * other types read with this reader have no format: they are told as
 * unknown, as a record whose format failed to parse is.
 *
 * Returns: (transfer full): a new reader, or %NULL with @error set
 */
CsTracedatReader *
cs_tracedat_reader_open_for_types (const char   *path,
                                   const gint32 *tep_ids,
                                   guint         n_ids,
                                   GError      **error)
{
  g_autoptr(CsTracedatReader) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = open_file (path, error);
  if (self == NULL)
    return NULL;
  if (tep_ids != NULL)
    {
      self->wanted_ids = g_malloc0 (65536 / 8);
      for (guint i = 0; i < n_ids; i++)
        if (tep_ids[i] >= 0 && tep_ids[i] < 65536)
          self->wanted_ids[tep_ids[i] >> 3] |= 1u << (tep_ids[i] & 7);
    }
  self->tep = _cs_td_new_tep (self, TRUE, &self->plugins, &self->n_parse_failures, error);
  if (self->tep == NULL)
    return NULL;
  self->kernel_long_size = (guint) tep_get_header_page_size (self->tep);
  self->read_at_cpus = g_new0 (CsTracedatCpu *, MAX (self->n_cpus, 1));
  return g_steal_pointer (&self);
}

/**
 * cs_tracedat_reader_get_path:
 * @self: a #CsTracedatReader
 *
 * Returns: (type filename) (transfer none): the path given to
 *   cs_tracedat_reader_open()
 */
const char *
cs_tracedat_reader_get_path (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  return self->path;
}

/**
 * cs_tracedat_reader_get_file_version:
 * @self: a #CsTracedatReader
 *
 * Returns: the trace.dat format version, 6 or 7
 */
guint
cs_tracedat_reader_get_file_version (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->file_version;
}

/**
 * cs_tracedat_reader_is_big_endian:
 * @self: a #CsTracedatReader
 *
 * Returns: whether the recorded machine was big-endian (the endianness byte
 *   of the initial format)
 */
gboolean
cs_tracedat_reader_is_big_endian (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), FALSE);
  return self->big_endian;
}

/**
 * cs_tracedat_reader_get_long_size:
 * @self: a #CsTracedatReader
 *
 * Returns: bytes in a long of the recorded machine's user space, 4 or 8 (the
 *   initial format's long size)
 */
guint
cs_tracedat_reader_get_long_size (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->long_size;
}

/**
 * cs_tracedat_reader_get_kernel_long_size:
 * @self: a #CsTracedatReader
 *
 * The kernel's long size, from the size of the `commit` field of the
 * header_page format; it gives the layout of the ring-buffer pages (a 64-bit
 * kernel may run a 32-bit user space).
 *
 * Returns: 4 or 8
 */
guint
cs_tracedat_reader_get_kernel_long_size (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->kernel_long_size;
}

/**
 * cs_tracedat_reader_get_page_size:
 * @self: a #CsTracedatReader
 *
 * Returns: bytes in a ring-buffer page (sub-buffer), a power of two; the
 *   initial format's page size, or the top BUFFER option's when that differs
 */
guint
cs_tracedat_reader_get_page_size (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->page_size;
}

/**
 * cs_tracedat_reader_get_compression:
 * @self: a #CsTracedatReader
 *
 * Returns: (transfer none): "none" (always for v6), "zstd" or "zlib", the
 *   compression algorithm named in the v7 initial format
 */
const char *
cs_tracedat_reader_get_compression (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  return self->compression;
}

/**
 * cs_tracedat_reader_get_n_cpus:
 * @self: a #CsTracedatReader
 *
 * The number of CPUs: for v6 the header's count (or the CPUCOUNT option, as
 * libtracecmd does), for v7 the larger of the CPUCOUNT option and one more
 * than the highest CPU listed in the top BUFFER option.  CPUs in
 * `[0, n_cpus)` without data read as empty streams.
 *
 * Returns: the number of CPUs, possibly 0
 */
guint
cs_tracedat_reader_get_n_cpus (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->n_cpus;
}

/**
 * cs_tracedat_reader_get_cpu_data_size:
 * @self: a #CsTracedatReader
 * @cpu: a CPU in `[0, n_cpus)`
 *
 * Returns: bytes of @cpu's ring-buffer data in the file (compressed bytes for
 *   compressed data), 0 for a CPU without data; compare with
 *   cs_tracedat_cpu_get_bytes_done() to show progress
 */
guint64
cs_tracedat_reader_get_cpu_data_size (CsTracedatReader *self,
                                      guint             cpu)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  g_return_val_if_fail (cpu < self->n_cpus, 0);
  return self->cpu_data[cpu].size;
}

/**
 * cs_tracedat_reader_get_cpu_data_offset:
 * @self: a #CsTracedatReader
 * @cpu: a CPU in `[0, n_cpus)`
 *
 * Returns: the file offset of @cpu's ring-buffer data (for compressed data,
 *   of its chunk count), 0 for a CPU without data; for diagnostics
 */
guint64
cs_tracedat_reader_get_cpu_data_offset (CsTracedatReader *self,
                                        guint             cpu)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  g_return_val_if_fail (cpu < self->n_cpus, 0);
  return self->cpu_data[cpu].size != 0 ? self->cpu_data[cpu].offset : 0;
}

/**
 * cs_tracedat_reader_get_clock:
 * @self: a #CsTracedatReader
 *
 * The trace clock of the recording: the name selected (in brackets) in the
 * TRACECLOCK option, which holds the text of tracefs's `trace_clock` file,
 * e.g. "local", "global", "mono", "x86-tsc"; for v7 files without that
 * option, the clock of the top BUFFER option.
 *
 * Returns: (transfer none) (nullable): the clock name, or %NULL when the file
 *   does not say
 */
const char *
cs_tracedat_reader_get_clock (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  return self->clock;
}

/**
 * cs_tracedat_reader_get_uname:
 * @self: a #CsTracedatReader
 *
 * The UNAME option (trace-cmd.dat.v7(5), id 5): the recording machine's
 * `uname -a` as trace-cmd writes it, "sysname nodename release version
 * machine" (the version holds spaces), e.g. "Linux box 6.1.0-9-amd64 #1 SMP
 * PREEMPT_DYNAMIC Debian 6.1.27-1 (2023-05-08) x86_64".
 *
 * Returns: (transfer none) (nullable): the text (valid UTF-8), %NULL when
 *   the file has no UNAME option
 */
const char *
cs_tracedat_reader_get_uname (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  return self->uname;
}

/**
 * cs_tracedat_reader_get_ts_offset:
 * @self: a #CsTracedatReader
 *
 * Returns: nanoseconds added to every timestamp: the DATE option (stored in
 *   microseconds) plus the OFFSET option, 0 when the file has neither
 */
gint64
cs_tracedat_reader_get_ts_offset (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->ts_offset_ns;
}

/**
 * cs_tracedat_reader_get_tsc2nsec:
 * @self: a #CsTracedatReader
 * @mult: (out) (optional): the multiplier
 * @shift: (out) (optional): the shift, at most 32
 *
 * The TSC2NSEC option: when present, ring-buffer times are counter ticks and
 * each timestamp is `(ticks * mult) >> shift` (computed in 64 bits as the
 * kernel's mul_u64_u32_shr()) before the offset is added.
 *
 * Returns: whether the file has a TSC2NSEC option with a non-zero multiplier
 */
gboolean
cs_tracedat_reader_get_tsc2nsec (CsTracedatReader *self,
                                 guint32          *mult,
                                 guint32          *shift)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), FALSE);
  if (mult != NULL)
    *mult = self->tsc2nsec_mult;
  if (shift != NULL)
    *shift = self->tsc2nsec_shift;
  return self->has_tsc2nsec;
}

/**
 * cs_tracedat_reader_has_time_shift:
 * @self: a #CsTracedatReader
 *
 * A guest recording made with `trace-cmd record --host ...` carries a
 * TIME_SHIFT option that maps guest timestamps to the host's clock.  This
 * reader does not apply it to #CsTracedatRecord.ts_ns (libtracecmd does):
 * timestamps stay in the guest's clock.  cs_tracedat_reader_dup_time_shift()
 * parses the option and #CsTimeRelation applies it, checked against the host.
 *
 * Returns: whether the file has a TIME_SHIFT option
 */
gboolean
cs_tracedat_reader_has_time_shift (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), FALSE);
  return self->has_time_shift;
}

/**
 * cs_tracedat_reader_get_n_parse_failures:
 * @self: a #CsTracedatReader
 *
 * Returns: the number of event format files libtraceevent could not parse
 *   (their events are still read, but cannot be decoded)
 */
guint
cs_tracedat_reader_get_n_parse_failures (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->n_parse_failures;
}

/**
 * cs_tracedat_reader_get_tep:
 * @self: a #CsTracedatReader
 *
 * The reader's libtraceevent handle, with every event format, kallsyms,
 * printk formats and saved command lines of the file, and libtraceevent's
 * plugins loaded.  libtraceevent handles are not thread-safe (they cache
 * lookups, and plugins such as the function plugin keep global state): use
 * this one from one thread at a time, typically the one that formats events
 * read with cs_tracedat_reader_read_at(); streams have their own
 * (cs_tracedat_cpu_get_tep()).
 *
 * Returns: (transfer none): the handle, owned by @self
 */
struct tep_handle *
cs_tracedat_reader_get_tep (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  return self->tep;
}

/**
 * cs_tracedat_reader_open_cpu:
 * @self: a #CsTracedatReader
 * @cpu: a CPU in `[0, n_cpus)`
 * @error: return location for a #GError
 *
 * Opens a stream of @cpu's records, positioned before the first.  Each stream
 * is independent: several may be open on the same CPU or on different CPUs,
 * and used from different threads.  A stream takes a reference on @self.
 *
 * Compressed data (trace-cmd.dat.v7(5) "COMPRESSION FORMAT OF THE TRACE
 * DATA": a chunk count, then per chunk its compressed size, its uncompressed
 * size and the data) is decompressed one chunk at a time into a buffer the
 * stream reuses; uncompressed data is read with pread() one window of about
 * 1 MiB at a time.  Memory per stream: about two chunks (or one window).
 *
 * Errors: %CS_INDEX_ERROR_TRUNCATED when the CPU's data goes past the end of
 * the file, %CS_INDEX_ERROR_CORRUPT when its chunk count cannot fit in its
 * data.
 *
 * Thread: any.
 *
 * Returns: (transfer full): a new stream, free with cs_tracedat_cpu_free(),
 *   or %NULL with @error set
 */
CsTracedatCpu *
cs_tracedat_reader_open_cpu (CsTracedatReader  *self,
                             guint              cpu,
                             GError           **error)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  g_return_val_if_fail (cpu < self->n_cpus, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _cs_tracedat_cpu_new (self, cpu, TRUE, error);
}

/* Checks a read_at()/peek_at() call's arguments, takes read_at_lock
 * into *@locker and returns the stream of @cpu that reads records at
 * offsets, opened at the first use; %NULL on a bad argument or with
 * @error set. */
static CsTracedatCpu *
lock_read_at_stream (CsTracedatReader  *self,
                     guint              cpu,
                     CsTracedatRecord  *record,
                     GMutexLocker     **locker,
                     GError           **error)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  g_return_val_if_fail (cpu < self->n_cpus, NULL);
  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *locker = g_mutex_locker_new (&self->read_at_lock);
  if (self->read_at_cpus[cpu] == NULL)
    self->read_at_cpus[cpu] = _cs_tracedat_cpu_new (self, cpu, FALSE, error);
  return self->read_at_cpus[cpu];
}

/**
 * cs_tracedat_reader_read_at:
 * @self: a #CsTracedatReader
 * @cpu: the CPU the record belongs to, in `[0, n_cpus)`
 * @offset: a record offset returned earlier in #CsTracedatRecord.offset for
 *   the same CPU of the same file
 * @record: (out caller-allocates): the record
 * @error: return location for a #GError
 *
 * Reads one record again, typically to format it with tep_print_event() and
 * cs_tracedat_reader_get_tep().  The reader keeps one internal stream per
 * CPU, so reading a record near the previous one of the same CPU reuses the
 * decompressed chunk or the window of pages already in memory; for
 * compressed data a table of chunk positions (24 bytes per chunk of about
 * 40 KB of data) is built as far as needed, by reading chunk headers.
 *
 * The record's @data and @tep_record stay valid until the next call for the
 * same CPU or until @self is finalized.
 *
 * Errors: %CS_INDEX_ERROR_CORRUPT when @offset is not a record of @cpu (or
 * the data there is damaged), %CS_INDEX_ERROR_TRUNCATED when the data ends
 * early.
 *
 * Thread: any, serialized by an internal lock; since the record borrows the
 * reader's memory, use it from one thread at a time (the one that uses
 * cs_tracedat_reader_get_tep()).
 *
 * Returns: %TRUE and @record filled in, or %FALSE with @error set
 */
gboolean
cs_tracedat_reader_read_at (CsTracedatReader  *self,
                            guint              cpu,
                            guint64            offset,
                            CsTracedatRecord  *record,
                            GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  CsTracedatCpu *stream;
  GError *local = NULL;

  stream = lock_read_at_stream (self, cpu, record, &locker, error);
  if (stream == NULL)
    return FALSE;

  if (!cs_tracedat_cpu_seek (stream, offset, error))
    return FALSE;
  if (!cs_tracedat_cpu_next (stream, record, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                     _("%s: CPU %u: no record at offset %" PRIu64),
                     self->display_name, cpu, offset);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_tracedat_reader_peek_at:
 * @self: a #CsTracedatReader
 * @cpu: the CPU the record belongs to, in `[0, n_cpus)`
 * @offset: a record offset of @cpu, as an index built from this file
 *   holds it (#CsTracedatRecord.offset)
 * @ts_ns: that record's time (ns, trace clock), as the same index holds it
 * @record: (out caller-allocates): the record, with @ts_ns as its time
 * @error: return location for a #GError
 *
 * Like cs_tracedat_reader_read_at(), through the same per-CPU streams,
 * without walking the records of the record's page before it
 * (cs_tracedat_cpu_peek_at()): the page is checked once for all the
 * records read from it in turn, then only the event header at @offset is
 * decoded.  For readers that take offsets and times from the index in
 * increasing order (a plugin's events of a span), where the walk was a
 * fifth of the cost of reading a record.
 *
 * Errors: as cs_tracedat_cpu_peek_at(): %CS_INDEX_ERROR_CORRUPT when
 * @offset is not on an event of @cpu's data, %CS_INDEX_ERROR_TRUNCATED
 * when the data ends early.
 *
 * Thread: as cs_tracedat_reader_read_at().
 *
 * Returns: %TRUE and @record filled in, or %FALSE with @error set
 */
gboolean
cs_tracedat_reader_peek_at (CsTracedatReader  *self,
                            guint              cpu,
                            guint64            offset,
                            gint64             ts_ns,
                            CsTracedatRecord  *record,
                            GError           **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  CsTracedatCpu *stream;

  stream = lock_read_at_stream (self, cpu, record, &locker, error);
  if (stream == NULL)
    return FALSE;
  return cs_tracedat_cpu_peek_at (stream, offset, ts_ns, record, error);
}

/**
 * cs_tracedat_reader_get_n_instance_buffers:
 * @self: a reader
 *
 * Counts the named (instance) buffers the file's BUFFER options describe
 * (trace-cmd.dat.v7(5), option 3; in v6 files, the options of buffers
 * recorded with `trace-cmd record -B`).  This reader reads only the top
 * buffer; callers use this to send such files elsewhere.
 *
 * Returns: the number of instance buffers
 */
guint
cs_tracedat_reader_get_n_instance_buffers (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->n_instance_buffers;
}

/**
 * cs_tracedat_reader_load_symbols:
 * @self: a reader
 * @error: the reader's errors for a damaged kallsyms section
 *
 * Parses the recording's kallsyms (/proc/kallsyms at recording time) into
 * the reader's handle, so that addresses print as function names the way
 * `trace-cmd report` prints them.  Opening a reader skips them: indexing
 * never prints.  Main thread; cheap after the first call.
 *
 * Returns: %TRUE when the symbols are (now) loaded
 */
gboolean
cs_tracedat_reader_load_symbols (CsTracedatReader  *self,
                                 GError           **error)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), FALSE);
  if (self->symbols_loaded)
    return TRUE;
  if (!_cs_td_load_kallsyms (self, self->tep, error))
    return FALSE;
  self->symbols_loaded = TRUE;
  return TRUE;
}
