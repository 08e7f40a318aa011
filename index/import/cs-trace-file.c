/* cs-trace-file.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Reads recordings through libtracecmd.  The file's header is checked here
 * first so that a file that is not a recording, or is cut short, gets an
 * error that says so instead of libtracecmd's stderr chatter.
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <trace-cmd/trace-cmd.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "cs-trace-file-private.h"

/* "\027\010\104tracing": the magic of trace-cmd.dat(5). */
static const guint8 tracedat_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

G_DEFINE_FINAL_TYPE (CsTraceFile, cs_trace_file, G_TYPE_OBJECT)

static void
cs_trace_file_finalize (GObject *object)
{
  CsTraceFile *self = CS_TRACE_FILE (object);

  g_clear_pointer (&self->read_at_record, tracecmd_free_record);
  /* Instance handles first: they share the top handle's formats. */
  if (self->buffers != NULL)
    for (guint i = self->buffers->len; i > 1; i--)
      tracecmd_close (g_ptr_array_index (self->buffers, i - 1));
  g_clear_pointer (&self->buffers, g_ptr_array_unref);
  g_clear_pointer (&self->handle, tracecmd_close);
  g_clear_object (&self->reader);
  g_free (self->path);
  g_free (self->data_path);
  g_clear_pointer (&self->text_report, cs_text_import_report_free);
  g_free (self->clock);

  G_OBJECT_CLASS (cs_trace_file_parent_class)->finalize (object);
}

static void
cs_trace_file_class_init (CsTraceFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_trace_file_finalize;
}

static void
cs_trace_file_init (CsTraceFile *self)
{
}

/* Checks the magic bytes and the version string (trace-cmd.dat.v6(5)) so
 * that an empty, foreign or cut file gets an error naming exactly that;
 * the rest of the header is CsTracedatReader's. */
static gboolean
check_header (CsTraceFile *self,
              GError     **error)
{
  guint8 head[256];
  ssize_t n;
  int fd;

  fd = g_open (self->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot open %s: %s"), self->path, g_strerror (saved));
      return FALSE;
    }
  n = read (fd, head, sizeof head);
  if (n < 0)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot read %s: %s"), self->path, g_strerror (saved));
      return FALSE;
    }
  close (fd);

  if (n == 0)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("%s is empty, not a trace-cmd recording"), self->path);
      return FALSE;
    }
  if ((gsize) n < sizeof tracedat_magic ||
      memcmp (head, tracedat_magic, sizeof tracedat_magic) != 0)
    {
      if ((gsize) n < sizeof tracedat_magic &&
          memcmp (head, tracedat_magic, n) == 0)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                     _("%s is truncated: it ends inside the trace-cmd header"), self->path);
      else
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                     _("%s is not a trace-cmd recording (no trace.dat magic bytes)"),
                     self->path);
      return FALSE;
    }

  /* The version is a NUL-terminated decimal string after the magic. */
  const char *version = (const char *) head + sizeof tracedat_magic;
  gsize vmax = n - sizeof tracedat_magic;
  gsize vlen = strnlen (version, vmax);
  guint64 v;

  if (vlen == vmax)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("%s is truncated: it ends inside the trace-cmd header"), self->path);
      return FALSE;
    }
  if (!g_ascii_string_to_unsigned (version, 10, 0, 1000, &v, NULL))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s has a damaged trace-cmd header (file version \"%.16s\")"),
                   self->path, version);
      return FALSE;
    }
  if (v != 6 && v != 7)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s is a trace-cmd recording of file version %u; "
                   "Chronoscope reads versions 6 and 7"),
                   self->path, (guint) v);
      return FALSE;
    }
  return TRUE;
}

/* Every CPU's data must lie inside the file: libtracecmd maps it and
 * crashes reading past the end of a truncated recording. */
static gboolean
check_data_in_file (CsTraceFile  *self,
                    GError      **error)
{
  GStatBuf st;

  const char *data_path = self->data_path != NULL ? self->data_path : self->path;

  if (cs_trace_file_get_compression (self) != NULL || g_stat (data_path, &st) != 0)
    return TRUE;   /* compressed data is bounds-checked chunk by chunk */

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (self->reader); cpu++)
    {
      guint64 offset = cs_tracedat_reader_get_cpu_data_offset (self->reader, cpu);
      guint64 size = cs_tracedat_reader_get_cpu_data_size (self->reader, cpu);

      if (size > 0 && (offset > (guint64) st.st_size || size > (guint64) st.st_size - offset))
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                       _("%s is truncated: the data of CPU %u ends at byte %" PRIu64
                       " but the file has only %" PRId64 " bytes"),
                       data_path, cpu, offset + size, (gint64) st.st_size);
          return FALSE;
        }
    }
  return TRUE;
}

/* libtraceevent 1.7 finds the offsets of common_type and common_pid on the
 * first tep_data_type() / tep_data_pid() and only reads them afterwards.
 * Doing that first call here, on one thread, lets the scanner threads
 * share the handle for those reads (and tep_read_number_field(), which
 * reads only its field) instead of each parsing every event format again:
 * a recording made by `trace-cmd extract` carries all ~2,000 of them. */
static void
warm_up_tep (struct tep_handle *tep)
{
  guint8 zeros[256] = { 0 };
  struct tep_record rec = { 0 };

  rec.data = zeros;
  rec.size = sizeof zeros;
  tep_data_type (tep, &rec);
  tep_data_pid (tep, &rec);
}

/* A file that is not a trace.dat may be trace text: then the trace.dat
 * converted from it is read instead (converted now when the cache does not
 * have it).  Otherwise the error says which formats Chronoscope reads. */
static gboolean
open_text (CsTraceFile          *self,
           GError               *header_error,
           CsIndexProgressFunc   progress,
           gpointer              user_data,
           GCancellable         *cancellable,
           GError              **error)
{
  g_autoptr(GError) local_error = header_error;
  g_autofree char *format = NULL;

  if (!g_error_matches (local_error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!cs_text_import_sniff (self->path, &format, error))
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                     _("%s is not a trace-cmd recording nor trace text Chronoscope knows; "
                     "it reads %s"), self->path, _(CS_TEXT_IMPORT_FORMATS));
      return FALSE;
    }
  self->data_path = cs_text_import_ensure (self->path, progress, user_data, cancellable,
                                           &self->text_report, error);
  return self->data_path != NULL;
}

/**
 * cs_trace_file_open:
 * @path: a trace.dat file (trace-cmd.dat.v6(5) or .v7(5)), or trace text
 *   (see cs_trace_file_open_full())
 * @error: %CS_INDEX_ERROR_NOT_A_TRACE, %CS_INDEX_ERROR_TRUNCATED,
 *   %CS_INDEX_ERROR_UNSUPPORTED or %CS_INDEX_ERROR_CORRUPT for a bad file,
 *   a %G_FILE_ERROR when it cannot be opened (the message names the path
 *   and the missing permission)
 *
 * Opens a recording: parses its headers and event formats.  Does not read
 * the events.  The returned object and its cursors must be used from one
 * thread at a time.
 *
 * Returns: (transfer full): the recording, or %NULL with @error set
 */
CsTraceFile *
cs_trace_file_open (const char  *path,
                    GError     **error)
{
  return cs_trace_file_open_full (path, NULL, NULL, NULL, error);
}

static CsTraceFile *open_file (const char          *path,
                               CsIndexProgressFunc  progress,
                               gpointer             user_data,
                               GCancellable        *cancellable,
                               const gint32        *tep_ids,
                               guint                n_ids,
                               GError             **error);

/**
 * cs_trace_file_open_full:
 * @path: a trace.dat file, or trace text: tracefs `trace`/`trace_pipe`
 *   text, `trace-cmd report` output or `perf script` output, recognised by
 *   content (cs_text_import_sniff())
 * @progress: (nullable): called on this thread while trace text is
 *   converted (cs_text_import_convert())
 * @user_data: for @progress
 * @cancellable: (nullable): stops a conversion (%G_IO_ERROR_CANCELLED)
 * @error: as cs_trace_file_open(), and the errors of
 *   cs_text_import_ensure() for text
 *
 * cs_trace_file_open() that also opens trace text: the text is converted
 * into a trace.dat in the index cache once (see cs_text_import_ensure()),
 * and that file is read; cs_trace_file_get_path() still gives @path, and
 * cs_trace_file_get_source_format() says what the text was.
 *
 * Returns: (transfer full): the recording, or %NULL with @error set
 */
CsTraceFile *
cs_trace_file_open_full (const char          *path,
                         CsIndexProgressFunc  progress,
                         gpointer             user_data,
                         GCancellable        *cancellable,
                         GError             **error)
{
  return open_file (path, progress, user_data, cancellable, NULL, 0, error);
}

/**
 * cs_trace_file_open_for_types:
 * @path: a recording, as for cs_trace_file_open()
 * @tep_ids: (array length=n_ids): the format IDs of the event types the
 *   recording holds, as its index lists them
 * @n_ids: how many
 * @error: as cs_trace_file_open()
 *
 * cs_trace_file_open() that parses only the formats of @tep_ids
 * (cs_tracedat_reader_open_for_types()): what a document whose index is
 * built opens to read records, ~0.2 s sooner on a recording that carries
 * every format of its kernel.  Trace text is converted as
 * cs_trace_file_open() does (once: then it is in the index cache).
 *
 * Returns: (transfer full): the recording, or %NULL with @error set
 */
CsTraceFile *
cs_trace_file_open_for_types (const char   *path,
                              const gint32 *tep_ids,
                              guint         n_ids,
                              GError      **error)
{
  static const gint32 none[1] = { -1 };

  g_return_val_if_fail (tep_ids != NULL || n_ids == 0, NULL);
  /* No ID (a recording without events): no format, not every one. */
  return open_file (path, NULL, NULL, NULL, tep_ids != NULL ? tep_ids : none, n_ids, error);
}

/* cs_trace_file_open_full(), parsing only the formats of @tep_ids unless
 * it is %NULL. */
static CsTraceFile *
open_file (const char          *path,
           CsIndexProgressFunc  progress,
           gpointer             user_data,
           GCancellable        *cancellable,
           const gint32        *tep_ids,
           guint                n_ids,
           GError             **error)
{
  g_autoptr(CsTraceFile) self = NULL;
  GError *header_error = NULL;
  const char *compression;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CS_TYPE_TRACE_FILE, NULL);
  self->path = g_strdup (path);

  if (!check_header (self, &header_error) &&
      !open_text (self, header_error, progress, user_data, cancellable, error))
    return NULL;
  if (self->data_path != NULL)
    path = self->data_path;

  self->reader = cs_tracedat_reader_open_for_types (path, tep_ids, n_ids, error);
  if (self->reader == NULL)
    return NULL;
  if (!check_data_in_file (self, error))
    return NULL;

  /* Our reader streams each CPU independently, so the scanner threads of
   * an index build share one open file, and it reads compressed data
   * linearly (libtracecmd 3.1.6 does not).  libtracecmd needs a handle per
   * thread, each parsing the formats and kallsyms again (~0.5 s with a
   * full kallsyms): it is used for what our reader does not read, the
   * buffer instances of `trace-cmd record -B` / `extract -B` recordings. */
  compression = cs_trace_file_get_compression (self);
  self->own_data = cs_tracedat_reader_get_n_instance_buffers (self->reader) == 0;
  if (!self->own_data)
    {
      GMutex *lock = cs_tracedat_reader_get_parse_lock ();

      g_mutex_lock (lock);
      tracecmd_set_loglevel (TEP_LOG_NONE);
      /* Plugins (the ones trace-cmd ships) give sched_switch and friends
       * the same text as `trace-cmd report`. */
      self->handle = tracecmd_open (path, 0);
      g_mutex_unlock (lock);
    }
  if (self->handle == NULL && !self->own_data)
    {
      if (compression != NULL && g_strcmp0 (compression, "zstd") != 0)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                     _("%s keeps events in buffer instances and is compressed with %s: "
                     "Chronoscope reads instances only through libtracecmd, which reads "
                     "zstd here"), path, compression);
      else
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                     _("%s is damaged: libtracecmd cannot read its headers"), path);
      return NULL;
    }

  self->buffers = g_ptr_array_new ();
  if (self->handle != NULL)
    {
      g_ptr_array_add (self->buffers, self->handle);
      int n_instances = tracecmd_buffer_instances (self->handle);
      for (int i = 0; i < n_instances && i < MAX_BUFFERS - 1; i++)
        {
          struct tracecmd_input *instance = tracecmd_buffer_instance_handle (self->handle, i);
          if (instance != NULL)
            g_ptr_array_add (self->buffers, instance);
        }
    }

  if (self->own_data)
    {
      self->n_cpus = cs_tracedat_reader_get_n_cpus (self->reader);
      warm_up_tep (cs_tracedat_reader_get_tep (self->reader));
    }
  for (guint i = 0; !self->own_data && i < self->buffers->len; i++)
    {
      int cpus = tracecmd_cpus (g_ptr_array_index (self->buffers, i));
      if (cpus < 0 || cpus > 8192)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("%s declares %d CPUs"), path, cpus);
          return NULL;
        }
      self->n_cpus = MAX (self->n_cpus, (guint) cpus);
    }

  const char *clock = cs_tracedat_reader_get_clock (self->reader);
  self->clock = g_strdup (clock != NULL && *clock != '\0' ? clock : "local");

  return g_steal_pointer (&self);
}

/**
 * cs_trace_file_get_source_format:
 * @self: a recording
 *
 * Returns: (transfer none): what the file is, for people: "trace.dat"
 *   for a trace-cmd recording, or the kind of trace text it was converted
 *   from ("ftrace text (trace_pipe)", "trace-cmd report text", ...)
 */
const char *
cs_trace_file_get_source_format (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  if (self->text_report != NULL && self->text_report->format != NULL)
    return self->text_report->format;
  return "trace.dat";
}

/**
 * cs_trace_file_get_n_bad_lines:
 * @self: a recording
 * @first_bad_line: (out) (optional): the line number (1-based) of the first
 *   line of the text that was not understood, 0 when none
 *
 * Returns: how many lines of trace text were not understood (0 for a
 *   trace.dat)
 */
guint64
cs_trace_file_get_n_bad_lines (CsTraceFile *self,
                               guint64     *first_bad_line)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), 0);
  if (first_bad_line != NULL)
    *first_bad_line = self->text_report ? self->text_report->first_bad_line : 0;
  return self->text_report ? self->text_report->n_bad_lines : 0;
}

/**
 * cs_trace_file_get_path:
 * @self: a recording
 *
 * Returns: (transfer none): the path it was opened from
 */
const char *
cs_trace_file_get_path (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  return self->path;
}

/**
 * cs_trace_file_get_n_cpus:
 * @self: a recording
 *
 * Returns: the number of per-CPU ring buffers recorded (trace-cmd.dat(5),
 *   "cpus"); CPUs are numbered 0 .. n - 1
 */
guint
cs_trace_file_get_n_cpus (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), 0);
  return self->n_cpus;
}

/**
 * cs_trace_file_get_file_version:
 * @self: a recording
 *
 * Returns: 6 or 7, the trace.dat format version
 */
guint
cs_trace_file_get_file_version (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), 0);
  return cs_tracedat_reader_get_file_version (self->reader);
}

/**
 * cs_trace_file_get_compression:
 * @self: a recording
 *
 * Returns: (nullable) (transfer none): the compression algorithm of a v7
 *   file ("zstd", "zlib"), or %NULL when the data is not compressed
 */
const char *
cs_trace_file_get_compression (CsTraceFile *self)
{
  const char *compression;

  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  compression = cs_tracedat_reader_get_compression (self->reader);
  return g_strcmp0 (compression, "none") != 0 ? compression : NULL;
}

/**
 * cs_trace_file_get_clock:
 * @self: a recording
 *
 * Returns: (transfer none): the trace clock the recording used, as selected
 *   in tracefs's trace_clock file ("local", "global", "mono", "x86-tsc",
 *   ...); "local" when the file does not say (older recordings)
 */
const char *
cs_trace_file_get_clock (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  return self->clock;
}

/**
 * cs_trace_file_get_tep:
 * @self: a recording
 *
 * Returns: (transfer none): the libtraceevent handle holding the recording's
 *   event formats, owned by @self
 */
struct tep_handle *
cs_trace_file_get_tep (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), NULL);
  if (self->own_data)
    return cs_tracedat_reader_get_tep (self->reader);
  return tracecmd_get_tep (self->handle);
}

/**
 * cs_trace_file_load_symbols:
 * @self: a recording
 *
 * Makes cs_trace_file_get_tep()'s handle name kernel addresses
 * (tep_find_function()): parses the recording's kallsyms into it when our
 * reader opened the file (it skips them, as indexing never prints);
 * libtracecmd's handle has them already.  A damaged kallsyms section leaves
 * addresses unnamed.  The first call costs the parse (up to half a second
 * with a full kallsyms), later ones nothing.  One thread at a time.
 */
void
cs_trace_file_load_symbols (CsTraceFile *self)
{
  g_return_if_fail (CS_IS_TRACE_FILE (self));
  if (self->own_data)
    cs_tracedat_reader_load_symbols (self->reader, NULL);
}


void
_cs_trace_file_fill_record (CsRecord          *out,
             guint              cpu,
             guint              buffer,
             struct tep_record *rec)
{
  out->ts_ns = cs_trace_file_clamp_ts (rec->ts);
  out->offset = ((guint64) buffer << BUFFER_SHIFT) | (rec->offset & OFFSET_MASK);
  out->cpu = cpu;
  out->missed_events = rec->missed_events < 0 ? G_MAXUINT32 : (guint32) rec->missed_events;
  out->tep_record = rec;
}

void
_cs_trace_file_fill_own_record (CsRecord               *out,
                 const CsTracedatRecord *rec)
{
  out->ts_ns = cs_trace_file_clamp_ts ((guint64) rec->ts_ns);
  out->offset = rec->offset;
  out->cpu = rec->cpu;
  out->missed_events = rec->missed_events < 0 ? G_MAXUINT32
                       : (guint32) MIN (rec->missed_events, (gint64) G_MAXUINT32 - 1);
  out->tep_record = rec->tep_record;
}

/**
 * cs_trace_file_read_at:
 * @self: a recording
 * @cpu: the CPU the record belongs to
 * @offset: a #CsRecord offset seen earlier on @cpu
 * @record: (out caller-allocates): the record, valid until the next call on
 *   @self
 * @error: %CS_INDEX_ERROR_CORRUPT when no record starts at @offset
 *
 * Reads one record again, for instance to format it.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_trace_file_read_at (CsTraceFile *self,
                       guint        cpu,
                       guint64      offset,
                       CsRecord    *record,
                       GError     **error)
{
  struct tep_record *rec;
  int rec_cpu = -1;

  g_return_val_if_fail (CS_IS_TRACE_FILE (self), FALSE);

  guint buffer = offset >> BUFFER_SHIFT;

  if (self->own_data)
    {
      if (!cs_tracedat_reader_read_at (self->reader, cpu, offset, &self->read_at_own, error))
        return FALSE;
      _cs_trace_file_fill_own_record (record, &self->read_at_own);
      return TRUE;
    }

  g_clear_pointer (&self->read_at_record, tracecmd_free_record);
  rec = buffer < self->buffers->len
        ? tracecmd_read_at (g_ptr_array_index (self->buffers, buffer), offset & OFFSET_MASK, &rec_cpu)
        : NULL;
  if (rec == NULL || (rec_cpu >= 0 && (guint) rec_cpu != cpu))
    {
      g_clear_pointer (&rec, tracecmd_free_record);
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s has no event of CPU %u at offset %" PRIu64),
                   self->path, cpu, offset);
      return FALSE;
    }
  self->read_at_record = rec;
  _cs_trace_file_fill_record (record, cpu, buffer, rec);
  return TRUE;
}

/**
 * cs_trace_file_peek_at:
 * @self: a recording
 * @cpu: the CPU the record belongs to
 * @offset: a #CsRecord offset of @cpu, as the recording's index holds it
 * @ts_ns: that record's time (ns), as the index holds it
 * @record: (out caller-allocates): the record, valid until the next call
 *   on @self
 * @error: as for cs_trace_file_read_at()
 *
 * Like cs_trace_file_read_at(), without walking the records of the
 * record's page before it when Chronoscope's own reader opened the file
 * (cs_tracedat_reader_peek_at(): the record's time is @ts_ns); through
 * libtracecmd, cs_trace_file_read_at().  For readers that take offsets and
 * times from the index, in increasing order.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_trace_file_peek_at (CsTraceFile *self,
                       guint        cpu,
                       guint64      offset,
                       gint64       ts_ns,
                       CsRecord    *record,
                       GError     **error)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), FALSE);

  if (!self->own_data)
    return cs_trace_file_read_at (self, cpu, offset, record, error);
  if (!cs_tracedat_reader_peek_at (self->reader, cpu, offset, ts_ns, &self->read_at_own, error))
    return FALSE;
  _cs_trace_file_fill_own_record (record, &self->read_at_own);
  return TRUE;
}

/**
 * cs_trace_file_format_record:
 * @self: a recording
 * @record: one of its records
 *
 * Formats the record's fields as `trace-cmd report` prints them after the
 * event name (the event's print fmt from its format file, through
 * libtraceevent).  Multi-line output (kernel_stack) keeps its newlines.
 *
 * Returns: (transfer full): the text
 */
char *
cs_trace_file_format_record (CsTraceFile    *self,
                             const CsRecord *record)
{
  struct tep_handle *tep = cs_trace_file_get_tep (self);
  struct trace_seq s;
  char *text;

  /* Printing may name functions (kernel_stack, function, bprint...). */
  cs_trace_file_load_symbols (self);

  trace_seq_init (&s);
  tep_print_event (tep, &s, record->tep_record, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (&s);
  text = g_strdup (s.buffer);
  trace_seq_destroy (&s);
  g_strchomp (text);
  return text;
}

/**
 * cs_trace_file_get_cursors_are_independent:
 * @self: a recording
 *
 * Returns: whether cursors of different CPUs of @self may be used from
 *   different threads at once (then one #CsTraceFile serves all threads);
 *   otherwise each thread must open the recording itself
 */
gboolean
cs_trace_file_get_cursors_are_independent (CsTraceFile *self)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), FALSE);
  return self->own_data;
}

/**
 * cs_trace_file_get_cpu_data_offset:
 * @self: a recording read by this reader's own streams
 * @cpu: 0 .. n_cpus - 1
 *
 * Returns: where the CPU's ring-buffer data starts in the file (bytes; the
 *   flyrecord section's offset, trace-cmd.dat.v6(5)), 0 for a file read by
 *   libtracecmd
 */
guint64
cs_trace_file_get_cpu_data_offset (CsTraceFile *self,
                                   guint        cpu)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), 0);
  g_return_val_if_fail (cpu < self->n_cpus, 0);
  return self->own_data ? cs_tracedat_reader_get_cpu_data_offset (self->reader, cpu) : 0;
}

/**
 * cs_trace_file_get_cpu_data_size:
 * @self: a recording read by this reader's own streams
 * @cpu: 0 .. n_cpus - 1
 *
 * Returns: the size in bytes of the CPU's ring-buffer data in the file
 *   (compressed size for compressed data), 0 for a file read by libtracecmd
 */
guint64
cs_trace_file_get_cpu_data_size (CsTraceFile *self,
                                 guint        cpu)
{
  g_return_val_if_fail (CS_IS_TRACE_FILE (self), 0);
  g_return_val_if_fail (cpu < self->n_cpus, 0);
  return self->own_data ? cs_tracedat_reader_get_cpu_data_size (self->reader, cpu) : 0;
}

/**
 * cs_trace_file_estimate_cpu:
 * @self: a recording
 * @cpu: 0 .. n_cpus - 1
 * @n_samples: pages (or compressed chunks) to look at, spread over the CPU's data
 * @n_records: (out): about how many records the CPU holds
 * @first_ns: (out): about when its first record is
 * @last_ns: (out): about when its last record is
 *
 * A quick guess at the size and time span of one CPU's records, without
 * reading them (see cs_tracedat_cpu_estimate()); they are not counted by
 * cs_trace_file_get_n_records_read().  Only for recordings read by
 * Chronoscope's own reader.  Thread: any, with a file whose cursors are
 * independent (cs_trace_file_get_cursors_are_independent()).
 *
 * Returns: %FALSE when no guess can be made
 */
gboolean
cs_trace_file_estimate_cpu (CsTraceFile *self,
                            guint        cpu,
                            guint        n_samples,
                            guint64     *n_records,
                            gint64      *first_ns,
                            gint64      *last_ns)
{
  g_autoptr(CsTracedatCpu) stream = NULL;

  g_return_val_if_fail (CS_IS_TRACE_FILE (self), FALSE);
  g_return_val_if_fail (cpu < self->n_cpus, FALSE);

  if (!self->own_data)
    return FALSE;
  stream = cs_tracedat_reader_open_cpu (self->reader, cpu, NULL);
  if (stream == NULL || !cs_tracedat_cpu_estimate (stream, n_samples, n_records, first_ns, last_ns))
    return FALSE;
  *first_ns = cs_trace_file_clamp_ts ((guint64) *first_ns);
  *last_ns = cs_trace_file_clamp_ts ((guint64) *last_ns);
  return TRUE;
}
