/* cs-tracedat-writer.c: writes a trace-cmd trace.dat, file version 6.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The layout follows trace-cmd.dat.v6(5) as libtracecmd 3.1.6 reads it:
 *
 *   "\x17\x08\x44tracing" "6\0" endian(1) long_size(1) page_size(4)
 *   "header_page\0"  size(8) events/header_page
 *   "header_event\0" size(8) events/header_event
 *   n(4) { size(8) events/ftrace/<event>/format }
 *   n_systems(4) { "<system>\0" n(4) { size(8) events/<system>/<event>/format } }
 *   size(4) /proc/kallsyms
 *   size(4) printk_formats
 *   size(8) saved_cmdlines
 *   n_cpus(4) "options  \0" { id(2) size(4) data } id 0(2)
 *   "flyrecord\0" n_cpus × { offset(8) size(8) }
 *   [size(8) trace_clock text, when a TRACECLOCK option (which holds the
 *    same text, NUL-terminated) was written]
 *   padding to a page, then each CPU's ring-buffer pages, page-aligned.
 *
 * Numbers are in this machine's byte order (the endian byte says which);
 * the pages are copied as the kernel produced them.  Everything but the CPU
 * data is built in memory (a few MB: kallsyms dominates), so the offsets are
 * known before anything is written.  The file is written under a temporary
 * name in the output's folder and renamed at the end: a failed or cancelled
 * write leaves nothing that looks like a recording.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-private.h"
#include "cs-tracedat-writer.h"
#include "cs-tracedat-writer-private.h"
#include "cs-output-file-private.h"

#define COPY_CHUNK_BYTES ((gsize) 64 * 1024 * 1024)

G_DEFINE_FINAL_TYPE (CsTracedatWriter, cs_tracedat_writer, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Building the header in memory                                             */

static void
put_bytes (GByteArray *out, const void *data, gsize len)
{
  g_byte_array_append (out, data, (guint) len);
}

static void
put_u16 (GByteArray *out, guint16 v)
{
  put_bytes (out, &v, 2);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  put_bytes (out, &v, 4);
}

static void
put_u64 (GByteArray *out, guint64 v)
{
  put_bytes (out, &v, 8);
}

static void
put_sized (GByteArray *out, GBytes *bytes, gboolean size64)
{
  gsize len = 0;
  const void *data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  if (size64)
    put_u64 (out, len);
  else
    put_u32 (out, (guint32) len);
  if (len > 0)
    put_bytes (out, data, len);
}

gboolean
_cs_tracedat_writer_check_sizes (CsTracedatWriter *self, GError **error)
{
  GBytes *small[] = { self->kallsyms, self->printk_formats };

  /* kallsyms and printk_formats have 4-byte sizes in v6. */
  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    if (small[i] != NULL && g_bytes_get_size (small[i]) > G_MAXUINT32)
      {
        g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                     _("%s is too large for a trace.dat v6 (%zu bytes)"),
                     i == 0 ? "kallsyms" : "printk_formats", g_bytes_get_size (small[i]));
        return FALSE;
      }
  return TRUE;
}

/* Everything before the CPU data; *@table_pos is where the flyrecord table
 * of (offset, size) pairs starts, filled in by the caller. */
GByteArray *
_cs_tracedat_writer_build_header (CsTracedatWriter *self,
              gsize            *table_pos)
{
  GByteArray *out = g_byte_array_sized_new (8 * 1024 * 1024);
  guint8 endian = G_BYTE_ORDER == G_BIG_ENDIAN ? 1 : 0;
  guint8 long_size = (guint8) sizeof (long);
  static const guint8 zero_option[2] = { 0, 0 };

  /* INITIAL FORMAT */
  put_bytes (out, "\x17\x08\x44tracing", 10);
  put_bytes (out, "6", 2);
  put_bytes (out, &endian, 1);
  put_bytes (out, &long_size, 1);
  put_u32 (out, self->page_size);

  /* HEADER INFO FORMAT */
  put_bytes (out, "header_page", 12);
  put_sized (out, self->header_page, TRUE);
  put_bytes (out, "header_event", 13);
  put_sized (out, self->header_event, TRUE);

  /* FTRACE EVENT FORMATS */
  put_u32 (out, self->ftrace_formats->len);
  for (guint i = 0; i < self->ftrace_formats->len; i++)
    put_sized (out, g_ptr_array_index (self->ftrace_formats, i), TRUE);

  /* EVENT FORMATS */
  put_u32 (out, self->systems->len);
  for (guint i = 0; i < self->systems->len; i++)
    {
      SystemFormats *sys = g_ptr_array_index (self->systems, i);

      put_bytes (out, sys->name, strlen (sys->name) + 1);
      put_u32 (out, sys->formats->len);
      for (guint j = 0; j < sys->formats->len; j++)
        put_sized (out, g_ptr_array_index (sys->formats, j), TRUE);
    }

  /* KALLSYMS, TRACE_PRINTK, PROCESS INFORMATION */
  put_sized (out, self->kallsyms, FALSE);
  put_sized (out, self->printk_formats, FALSE);
  put_sized (out, self->cmdlines, TRUE);

  /* REST OF TRACE-CMD HEADER */
  put_u32 (out, self->n_cpus);
  put_bytes (out, "options  ", 10);
  for (guint i = 0; i < self->options->len; i++)
    {
      const Option *opt = &g_array_index (self->options, Option, i);

      put_u16 (out, opt->id);
      put_sized (out, opt->data, FALSE);
    }
  if (self->trace_clock != NULL)
    {
      /* v6: a TRACECLOCK option says the clock text follows the flyrecord
       * table.  The option carries the text too, NUL included, as
       * trace-cmd 3.1.6 writes it: libtracecmd 1.3.1 parses the option's
       * payload as clock text (tracecmd_parse_trace_clock() on a
       * malloc(size) buffer, unterminated).  An empty option made it parse
       * whatever malloc(0) returned: about one time in 256 that heap
       * garbage held a "[word]", taken as an unknown clock, and report
       * then printed raw counts ("[000]7681726931543:") instead of
       * seconds for the whole file. */
      put_u16 (out, CS_TD_OPTION_TRACECLOCK);
      put_u32 (out, (guint32) strlen (self->trace_clock) + 1);
      put_bytes (out, self->trace_clock, strlen (self->trace_clock) + 1);
    }
  put_bytes (out, zero_option, 2);

  put_bytes (out, "flyrecord", 10);
  *table_pos = out->len;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      put_u64 (out, 0);
      put_u64 (out, 0);
    }

  if (self->trace_clock != NULL)
    {
      gsize len = strlen (self->trace_clock);

      put_u64 (out, len);
      put_bytes (out, self->trace_clock, len);
    }

  return out;
}

/* ------------------------------------------------------------------------ */
/* Copying the CPU data                                                      */

gboolean
_cs_tracedat_writer_pwrite_all (CsTracedatWriter  *self,
            const void        *data,
            gsize              len,
            guint64            offset,
            GError           **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = pwrite (self->fd, p, len, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return _cs_record_output_error (error, n < 0 ? errno : ENOSPC, _("Cannot write “%s”"),
                                        self->path);
      p += n;
      len -= (gsize) n;
      offset += (guint64) n;
    }
  return TRUE;
}

/* Copies bytes [@from, @to) of @src to the output at @dst_base + @from
 * (copy_file_range(), else pread() and pwrite()). */
gboolean
_cs_tracedat_writer_copy_range (CsTracedatWriter  *self,
            guint              cpu,
            int                src,
            guint64            from,
            guint64            to,
            guint64            dst_base,
            GCancellable      *cancellable,
            GError           **error)
{
  loff_t in_off = (loff_t) from;
  loff_t out_off = (loff_t) (dst_base + from);
  gboolean use_cfr = TRUE;
  g_autofree guint8 *buf = NULL;

  while ((guint64) in_off < to)
    {
      gsize want = (gsize) MIN ((guint64) COPY_CHUNK_BYTES, to - (guint64) in_off);
      ssize_t n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (use_cfr)
        {
          n = copy_file_range (src, &in_off, self->fd, &out_off, want, 0);
          if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
                        errno == EOPNOTSUPP))
            {
              use_cfr = FALSE;
              continue;
            }
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0)
            return _cs_record_output_error (error, errno,
                                            _("Cannot write the data of CPU %u into “%s”"),
                                            cpu, self->path);
          if (n == 0)
            break;
          continue;
        }

      if (buf == NULL)
        buf = g_malloc (1024 * 1024);
      want = MIN (want, (gsize) 1024 * 1024);
      n = pread (src, buf, want, in_off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return _cs_record_output_error (error, errno, _("Cannot read the data of CPU %u"), cpu);
      if (n == 0)
        break;
      if (!_cs_tracedat_writer_pwrite_all (self, buf, (gsize) n, (guint64) out_off, error))
        return FALSE;
      in_off += n;
      out_off += n;
    }

  if ((guint64) in_off != to)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                   _("The data of CPU %u is shorter than expected (%" PRIu64
                   " of %" PRIu64 " bytes)"), cpu, (guint64) in_off, to);
      return FALSE;
    }
  return TRUE;
}

/* Closes the output, and renames it into place when it was written under
 * a temporary name. */
gboolean
_cs_tracedat_writer_close_output (CsTracedatWriter  *self,
              GError           **error)
{
  int rc = close (self->fd);

  self->fd = -1;
  if (rc != 0)
    return _cs_record_output_error (error, errno, _("Cannot write “%s”"), self->path);
  if (self->temp_path != NULL &&
      !_cs_record_rename (self->temp_path, self->path, self->owner_uid, self->owner_gid, error))
    return FALSE;
  g_clear_pointer (&self->temp_path, g_free);
  return TRUE;
}

/* Fills the flyrecord table of @header: each CPU's @offsets and size. */
void
_cs_tracedat_writer_set_cpu_table (CsTracedatWriter *self,
               GByteArray       *header,
               gsize             table_pos,
               const guint64    *offsets)
{
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      guint64 size = self->cpus[cpu].size;

      memcpy (header->data + table_pos + cpu * 16, &offsets[cpu], 8);
      memcpy (header->data + table_pos + cpu * 16 + 8, &size, 8);
    }
}

static gboolean
write_padding (CsTracedatWriter *self, guint64 pos, guint64 *new_pos, GError **error)
{
  guint64 aligned = (pos + self->page_size - 1) / self->page_size * self->page_size;

  if (aligned > pos)
    {
      g_autofree guint8 *zeros = g_malloc0 (self->page_size);

      if (!_cs_record_write_all (self->fd, zeros, (gsize) (aligned - pos), self->path, error))
        return FALSE;
    }
  *new_pos = aligned;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_tracedat_writer_new:
 * @path: the trace.dat to write (written as a temporary file in the same
 *   folder and renamed by cs_tracedat_writer_finish())
 * @page_size_bytes: size of one ring-buffer page (sub-buffer) in bytes, a
 *   power of two: what `events/header_page` describes, usually 4096
 * @n_cpus: number of CPUs whose data the file holds (CPU ids 0 .. n_cpus-1,
 *   as in `per_cpu/cpuN` of tracefs)
 *
 * Creates a writer.  Nothing touches the disk before
 * cs_tracedat_writer_finish().  Any thread may use a writer, one at a time.
 *
 * Returns: (transfer full): a new writer
 */
CsTracedatWriter *
cs_tracedat_writer_new (const char *path,
                        guint       page_size_bytes,
                        guint       n_cpus)
{
  CsTracedatWriter *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (page_size_bytes >= 64 && page_size_bytes <= CS_TD_MAX_PAGE_SIZE &&
                        (page_size_bytes & (page_size_bytes - 1)) == 0, NULL);
  g_return_val_if_fail (n_cpus <= CS_TD_MAX_CPUS, NULL);

  self = g_object_new (CS_TYPE_TRACEDAT_WRITER, NULL);
  self->path = g_strdup (path);
  self->page_size = page_size_bytes;
  self->n_cpus = n_cpus;
  self->cpus = g_new0 (CpuData, MAX (n_cpus, 1));
  for (guint i = 0; i < n_cpus; i++)
    self->cpus[i].fd = -1;
  return self;
}

/**
 * cs_tracedat_writer_get_path:
 * @self: a #CsTracedatWriter
 *
 * Returns: (transfer none): the final path of the trace.dat
 */
const char *
cs_tracedat_writer_get_path (CsTracedatWriter *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_WRITER (self), NULL);
  return self->path;
}

/**
 * cs_tracedat_writer_set_owner:
 * @self: a #CsTracedatWriter
 * @uid: user id to create the file as (setfsuid), or -1 for ours
 * @gid: group id to create the file as, or -1 for ours
 *
 * When the writer runs as root on behalf of a user (the pkexec helper), the
 * file is created and renamed with the user's file-system identity: the
 * user's permissions on the folder apply and the file belongs to them.
 */
void
cs_tracedat_writer_set_owner (CsTracedatWriter *self,
                              gint64            uid,
                              gint64            gid)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  self->owner_uid = uid;
  self->owner_gid = gid;
}

/**
 * cs_tracedat_writer_set_header_page:
 * @self: a #CsTracedatWriter
 * @text: the contents of tracefs `events/header_page`
 *
 * Sets the description of the ring-buffer page header.
 */
void
cs_tracedat_writer_set_header_page (CsTracedatWriter *self,
                                    GBytes           *text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_clear_pointer (&self->header_page, g_bytes_unref);
  self->header_page = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * cs_tracedat_writer_set_header_event:
 * @self: a #CsTracedatWriter
 * @text: the contents of tracefs `events/header_event`
 *
 * Sets the description of the ring-buffer event header.
 */
void
cs_tracedat_writer_set_header_event (CsTracedatWriter *self,
                                     GBytes           *text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_clear_pointer (&self->header_event, g_bytes_unref);
  self->header_event = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * cs_tracedat_writer_add_ftrace_format:
 * @self: a #CsTracedatWriter
 * @format: the contents of tracefs `events/ftrace/<event>/format`
 *
 * Adds the format of one of ftrace's own events (function, print,
 * kernel_stack…), which the file stores apart from the other systems.
 */
void
cs_tracedat_writer_add_ftrace_format (CsTracedatWriter *self,
                                      GBytes           *format)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (format != NULL);
  g_ptr_array_add (self->ftrace_formats, g_bytes_ref (format));
}

/**
 * cs_tracedat_writer_add_event_format:
 * @self: a #CsTracedatWriter
 * @system: the event's system, as in `events/<system>/`
 * @format: the contents of tracefs `events/<system>/<event>/format`
 *
 * Adds the format of a trace event.  Events of one system are grouped in
 * the file in the order they were added.
 */
void
cs_tracedat_writer_add_event_format (CsTracedatWriter *self,
                                     const char       *system,
                                     GBytes           *format)
{
  SystemFormats *sys = NULL;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (system != NULL && *system != '\0');
  g_return_if_fail (format != NULL);

  for (guint i = 0; i < self->systems->len && sys == NULL; i++)
    {
      SystemFormats *candidate = g_ptr_array_index (self->systems, i);

      if (strcmp (candidate->name, system) == 0)
        sys = candidate;
    }

  if (sys == NULL)
    {
      sys = g_new0 (SystemFormats, 1);
      sys->name = g_strdup (system);
      sys->formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      g_ptr_array_add (self->systems, sys);
    }

  g_ptr_array_add (sys->formats, g_bytes_ref (format));
}

/**
 * cs_tracedat_writer_set_kallsyms:
 * @self: a #CsTracedatWriter
 * @text: (nullable): the contents of `/proc/kallsyms` (less than 4 GiB)
 *
 * Sets the kernel symbol table that resolves addresses in function and
 * stack-trace events.
 */
void
cs_tracedat_writer_set_kallsyms (CsTracedatWriter *self,
                                 GBytes           *text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_clear_pointer (&self->kallsyms, g_bytes_unref);
  self->kallsyms = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * cs_tracedat_writer_set_printk_formats:
 * @self: a #CsTracedatWriter
 * @text: (nullable): the contents of tracefs `printk_formats`
 *
 * Sets the trace_printk() format strings kept outside the ring buffer.
 */
void
cs_tracedat_writer_set_printk_formats (CsTracedatWriter *self,
                                       GBytes           *text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_clear_pointer (&self->printk_formats, g_bytes_unref);
  self->printk_formats = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * cs_tracedat_writer_set_cmdlines:
 * @self: a #CsTracedatWriter
 * @text: (nullable): "PID COMM\n" lines, as in tracefs `saved_cmdlines`
 *
 * Sets the names of the tasks, which readers show next to their pids.
 */
void
cs_tracedat_writer_set_cmdlines (CsTracedatWriter *self,
                                 GBytes           *text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_clear_pointer (&self->cmdlines, g_bytes_unref);
  self->cmdlines = text != NULL ? g_bytes_ref (text) : NULL;
}

/**
 * cs_tracedat_writer_set_trace_clock:
 * @self: a #CsTracedatWriter
 * @trace_clock_text: (nullable): the contents of tracefs `trace_clock`, the
 *   clock in use in brackets ("[local] global counter …")
 *
 * Records which clock the timestamps are in (a TRACECLOCK option followed
 * by the text after the flyrecord table).  Without it readers assume local.
 */
void
cs_tracedat_writer_set_trace_clock (CsTracedatWriter *self,
                                    const char       *trace_clock_text)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_free (self->trace_clock);
  self->trace_clock = g_strdup (trace_clock_text);
}

/**
 * cs_tracedat_writer_add_option:
 * @self: a #CsTracedatWriter
 * @id: an option id of trace-cmd.dat(5) (`CS_TD_OPTION_UNAME`,
 *   `CS_TD_OPTION_CPUSTAT`, `CS_TD_OPTION_CPUCOUNT`…; not DONE, TRACECLOCK
 *   or the v7-only section ids)
 * @data: the option's payload; the text of UNAME and VERSION is written
 *   with a terminating NUL, added when @data lacks one
 *
 * Adds an option in the "options" part of the header, in order.
 */
void
cs_tracedat_writer_add_option (CsTracedatWriter *self,
                               guint16           id,
                               GBytes           *data)
{
  gsize len = 0;
  const guint8 *bytes;
  Option opt;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (id != CS_TD_OPTION_DONE && id != CS_TD_OPTION_TRACECLOCK);
  g_return_if_fail (data != NULL && g_bytes_get_size (data) < G_MAXUINT32);

  opt.id = id;
  bytes = g_bytes_get_data (data, &len);
  /* libtracecmd strdup()s these payloads as they are (trace-cmd writes
   * them with their NUL): without one it reads past its buffer. */
  if ((id == CS_TD_OPTION_UNAME || id == CS_TD_OPTION_VERSION) &&
      (len == 0 || bytes[len - 1] != '\0'))
    {
      guint8 *text = g_malloc (len + 1);

      if (len > 0)
        memcpy (text, bytes, len);
      text[len] = '\0';
      opt.data = g_bytes_new_take (text, len + 1);
    }
  else
    opt.data = g_bytes_ref (data);
  g_array_append_val (self->options, opt);
}

/**
 * cs_tracedat_writer_set_cpu_data:
 * @self: a #CsTracedatWriter
 * @cpu: the CPU, below the writer's n_cpus
 * @fd: a readable file holding the CPU's ring-buffer pages from offset 0,
 *   as read from `per_cpu/cpuN/trace_pipe_raw`; borrowed, it must stay open
 *   until cs_tracedat_writer_finish() returns
 * @size_bytes: bytes of pages, a multiple of the page size (0: no data)
 *
 * Says where a CPU's data is; it is copied into the file by
 * cs_tracedat_writer_finish() (with copy_file_range(), so on the same file
 * system this costs no copy through user space).
 */
void
cs_tracedat_writer_set_cpu_data (CsTracedatWriter *self,
                                 guint             cpu,
                                 int               fd,
                                 guint64           size_bytes)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (cpu < self->n_cpus);
  g_return_if_fail (size_bytes == 0 || fd >= 0);
  g_return_if_fail (size_bytes % self->page_size == 0);

  self->cpus[cpu].fd = fd;
  self->cpus[cpu].size = size_bytes;
}

/**
 * cs_tracedat_writer_finish:
 * @self: a #CsTracedatWriter
 * @cancellable: (nullable): cancels the copy of the CPU data
 * @error: return location for a #CS_RECORD_ERROR (%CS_RECORD_ERROR_OUTPUT
 *   when the folder is not writable, %CS_RECORD_ERROR_DISK_FULL) or
 *   `G_IO_ERROR_CANCELLED`
 *
 * Writes the trace.dat under a temporary name in the output's folder
 * (".NAME.XXXXXX.part") and renames it to the final path.  On failure the
 * temporary file is removed and the final path is untouched.  May run in
 * any thread.
 *
 * Returns: whether the file was written
 */
gboolean
cs_tracedat_writer_finish (CsTracedatWriter  *self,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autoptr(GByteArray) header = NULL;
  g_autofree guint64 *offsets = NULL;
  gsize table_pos = 0;
  guint64 pos;

  g_return_val_if_fail (CS_IS_TRACEDAT_WRITER (self), FALSE);
  g_return_val_if_fail (self->fd < 0, FALSE);

  if (self->header_page == NULL || self->header_event == NULL)
    {
      g_set_error_literal (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                           _("The ring-buffer headers (events/header_page, "
                           "events/header_event) are missing"));
      return FALSE;
    }
  if (!_cs_tracedat_writer_check_sizes (self, error))
    return FALSE;

  self->fd = _cs_record_create_temp (self->path, ".part", self->owner_uid, self->owner_gid,
                                     &self->temp_path, error);
  if (self->fd < 0)
    return FALSE;

  header = _cs_tracedat_writer_build_header (self, &table_pos);

  /* The CPU data starts on the page after the header; each CPU's pages
   * follow the previous CPU's, so every CPU starts page-aligned. */
  offsets = g_new (guint64, MAX (self->n_cpus, 1));
  pos = (header->len + self->page_size - 1) / self->page_size * self->page_size;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      offsets[cpu] = pos;
      pos += self->cpus[cpu].size;
    }
  _cs_tracedat_writer_set_cpu_table (self, header, table_pos, offsets);

  if (!_cs_record_write_all (self->fd, header->data, header->len, self->path, error) ||
      !write_padding (self, header->len, &pos, error))
    goto fail;

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    if (self->cpus[cpu].size > 0 &&
        !_cs_tracedat_writer_copy_range (self, cpu, self->cpus[cpu].fd, 0, self->cpus[cpu].size, offsets[cpu],
                     cancellable, error))
      goto fail;

  if (!_cs_tracedat_writer_close_output (self, error))
    goto fail;
  return TRUE;

fail:
  cs_tracedat_writer_abort (self);
  return FALSE;
}

/**
 * cs_tracedat_writer_abort:
 * @self: a #CsTracedatWriter
 *
 * Removes the temporary file of an unfinished write.  Disposing of the
 * writer does the same.
 */
void
cs_tracedat_writer_abort (CsTracedatWriter *self)
{
  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));

  if (self->fd >= 0)
    {
      close (self->fd);
      self->fd = -1;
    }
  if (self->temp_path != NULL)
    {
      g_unlink (self->temp_path);
      g_clear_pointer (&self->temp_path, g_free);
    }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
system_formats_free (SystemFormats *sys)
{
  g_free (sys->name);
  g_ptr_array_unref (sys->formats);
  g_free (sys);
}

static void
option_clear (Option *opt)
{
  g_clear_pointer (&opt->data, g_bytes_unref);
}

static void
cs_tracedat_writer_finalize (GObject *object)
{
  CsTracedatWriter *self = CS_TRACEDAT_WRITER (object);

  cs_tracedat_writer_abort (self);
  g_free (self->path);
  g_clear_pointer (&self->header_page, g_bytes_unref);
  g_clear_pointer (&self->header_event, g_bytes_unref);
  g_ptr_array_unref (self->ftrace_formats);
  g_ptr_array_unref (self->systems);
  g_clear_pointer (&self->kallsyms, g_bytes_unref);
  g_clear_pointer (&self->printk_formats, g_bytes_unref);
  g_clear_pointer (&self->cmdlines, g_bytes_unref);
  g_free (self->trace_clock);
  g_array_unref (self->options);
  g_free (self->cpus);

  G_OBJECT_CLASS (cs_tracedat_writer_parent_class)->finalize (object);
}

static void
cs_tracedat_writer_class_init (CsTracedatWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_tracedat_writer_finalize;
}

static void
cs_tracedat_writer_init (CsTracedatWriter *self)
{
  self->fd = -1;
  self->owner_uid = -1;
  self->owner_gid = -1;
  self->ftrace_formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->systems = g_ptr_array_new_with_free_func ((GDestroyNotify) system_formats_free);
  self->options = g_array_new (FALSE, TRUE, sizeof (Option));
  g_array_set_clear_func (self->options, (GDestroyNotify) option_clear);
}
