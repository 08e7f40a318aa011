/* cs-text-import.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Trace text is converted once into a trace.dat v6 in the index cache,
 * named after the text's identity like its index, and everything else
 * (scanner, index, event list, filters, SQL, plugins) reads that file
 * unchanged.  The conversion streams: a line at a time, each CPU's events
 * into ring-buffer pages in a temporary file (cs-text-cpu-pages.c), the
 * formats and names met kept in memory (a few per event type, task and
 * function name).  What it found (format, lines not understood, events out
 * of order) is written next to the converted file as a key file, read back
 * by whoever opens it.
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>

#include "cs-index-cache.h"
#include "cs-index-error.h"
#include "cs-text-cpu-pages.h"
#include "cs-text-events.h"
#include "cs-text-funcgraph.h"
#include "cs-text-html.h"
#include "cs-text-import.h"
#include "cs-text-line.h"
#include "cs-tracedat-writer.h"

/* Bumped when the conversion changes, so older converted files are not
 * reused.  2: one-byte fields (atrace's kind) hold their value, not 0/1. */
#define CONVERTER_VERSION 2
#define SNIFF_BYTES (64 * 1024)
#define SNIFF_LINES 400
#define MAX_CPUS 8192
/* Bytes of events held per CPU to put them in time order. */
#define WINDOW_BYTES_TOTAL ((gsize) 64 * 1024 * 1024)
#define WINDOW_BYTES_MAX ((gsize) 4 * 1024 * 1024)
#define PROGRESS_LINES 4096

/* perf.data (tools/perf/Documentation/perf.data-file-format.txt) is read
 * through `perf script`, whose text for tracepoints is like trace_pipe's. */
static const char perf_magic[] = "PERFILE2";
#define PERF_DATA_FORMAT "perf.data (through perf script)"
#define PERF_PROGRAM "perf"
#define SYSTRACE_FORMAT "Android systrace HTML"

/* events/header_page and events/header_event of Linux 6.x (x86_64). */
static const char header_page[] =
  "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
  "# compressed entry header\n"
  "\ttype_len    :    5 bits\n"
  "\ttime_delta  :   27 bits\n"
  "\tarray       :   32 bits\n"
  "\n"
  "\tpadding     : type == 29\n"
  "\ttime_extend : type == 30\n"
  "\ttime_stamp : type == 31\n"
  "\tdata max type_len  == 28\n";

/** cs_text_import_report_free: @report: (transfer full) (nullable): what to free */
void
cs_text_import_report_free (CsTextImportReport *report)
{
  if (report == NULL)
    return;
  g_free (report->format);
  g_free (report->first_bad_text);
  g_free (report);
}

/* ---- Recognising text ------------------------------------------------ */

typedef struct {
  guint n_events;
  guint n_perf;
  guint n_funcgraph;
  guint n_lines;
  gboolean report_header;   /* "version = 6" / "cpus=4" first */
  gboolean tracer_header;   /* "# tracer: nop" */
} Sniff;

static void
sniff_line (Sniff *s,
            char  *line)
{
  CsTextLine parsed;
  CsTextLineKind kind;

  if (s->n_lines == 0 &&
      (g_str_has_prefix (line, "version = ") || g_str_has_prefix (line, "cpus=")))
    s->report_header = TRUE;
  if (g_str_has_prefix (line, "# tracer: "))
    s->tracer_header = TRUE;
  s->n_lines++;
  kind = cs_text_line_parse (line, &parsed);
  if (kind == CS_TEXT_LINE_EVENT)
    {
      s->n_events++;
      if (parsed.system != NULL)
        s->n_perf++;
    }
  else if (kind == CS_TEXT_LINE_BAD && cs_text_funcgraph_is_line (line))
    {
      s->n_events++;
      s->n_funcgraph++;
    }
}

static char *
format_name (const Sniff *s)
{
  if (s->report_header)
    return g_strdup ("trace-cmd report text");
  if (s->n_funcgraph > 0 && s->n_funcgraph * 2 >= s->n_events)
    return g_strdup ("ftrace text (function_graph)");
  if (s->n_perf > 0 && s->n_perf * 2 >= s->n_events)
    return g_strdup ("perf script text");
  if (s->tracer_header)
    return g_strdup ("ftrace text (trace)");
  return g_strdup ("ftrace text (trace_pipe)");
}

/**
 * cs_text_import_sniff:
 * @path: any file
 * @format: (out) (optional) (transfer full): what the text is (see
 *   #CsTextImportReport's format), when it is trace text
 * @error: a %G_FILE_ERROR naming @path when it cannot be read
 *
 * Tells trace text from anything else by its first 64 KiB: a trace-cmd
 * report or tracefs header on its first line, or at least one event line
 * among its first few hundred lines.  Not by the file's name.
 *
 * Returns: whether @path is trace text; %FALSE with @error unset when it
 *   is not, with @error set when it cannot be read
 */
gboolean
cs_text_import_sniff (const char  *path,
                      char       **format,
                      GError     **error)
{
  g_autofree char *buf = g_malloc (SNIFF_BYTES + 1);
  Sniff s = { 0 };
  FILE *f;
  gsize n;
  char *line, *next;

  f = fopen (path, "rbe");
  if (f == NULL)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot open %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  n = fread (buf, 1, SNIFF_BYTES, f);
  fclose (f);
  buf[n] = '\0';
  if (n >= sizeof perf_magic - 1 && memcmp (buf, perf_magic, sizeof perf_magic - 1) == 0)
    {
      if (format != NULL)
        *format = g_strdup (PERF_DATA_FORMAT);
      return TRUE;
    }
  if (memchr (buf, '\0', n) != NULL)
    return FALSE;   /* binary */
  if (cs_text_html_sniff (buf))
    {
      if (format != NULL)
        *format = g_strdup (SYSTRACE_FORMAT);
      return TRUE;
    }

  for (line = buf; line != NULL && *line != '\0' && s.n_lines < SNIFF_LINES; line = next)
    {
      next = strchr (line, '\n');
      if (next == NULL && n == SNIFF_BYTES)
        break;      /* a line cut by the sniffing limit */
      if (next != NULL)
        *next++ = '\0';
      sniff_line (&s, line);
    }
  if (s.n_events == 0 && !s.report_header && !s.tracer_header)
    return FALSE;
  if (format != NULL)
    *format = format_name (&s);
  return TRUE;
}

/* ---- Converting ------------------------------------------------------- */

typedef struct {
  const char *path;
  CsTextEvents *events;
  CsTextFuncgraph *funcgraph;
  CsTextHtml *html;          /* NULL unless the file is systrace HTML */
  GPtrArray *cpus;           /* CsTextCpuPages, by CPU; NULL while unused */
  char *dir;
  guint n_cpus_declared;
  GHashTable *comms;         /* pid → comm */
  GByteArray *record;
  CsTextImportReport *report;
  Sniff sniff;
  const char *forced_format;   /* what the file is when not known from its text */
  guint64 line_no;

  /* The event line waiting for its continuation lines. */
  char *pending_buf;
  gsize pending_cap;
  gboolean has_pending;
  CsTextLine pending;
  guint64 pending_line_no;
  GString *more;
} Convert;

static void
convert_clear (Convert *c)
{
  g_clear_pointer (&c->events, cs_text_events_free);
  g_clear_pointer (&c->funcgraph, cs_text_funcgraph_free);
  g_clear_pointer (&c->html, cs_text_html_free);
  g_clear_pointer (&c->cpus, g_ptr_array_unref);
  g_clear_pointer (&c->comms, g_hash_table_unref);
  g_clear_pointer (&c->record, g_byte_array_unref);
  g_clear_pointer (&c->report, cs_text_import_report_free);
  if (c->more != NULL)
    g_string_free (c->more, TRUE);
  g_free (c->dir);
  free (c->pending_buf);
}

static void
bad_line (Convert    *c,
          const char *line)
{
  if (c->report->n_bad_lines++ == 0)
    {
      c->report->first_bad_line = c->line_no;
      c->report->first_bad_text = g_utf8_make_valid (line, MIN (strlen (line), 160));
    }
}

static CsTextCpuPages *
cpu_pages (Convert  *c,
           guint     cpu,
           GError  **error)
{
  CsTextCpuPages *pages;

  if (cpu >= c->cpus->len)
    g_ptr_array_set_size (c->cpus, cpu + 1);
  pages = g_ptr_array_index (c->cpus, cpu);
  if (pages == NULL)
    {
      guint n = MAX (MAX (c->n_cpus_declared, cpu + 1), 16);
      gsize window = MIN (WINDOW_BYTES_TOTAL / n, WINDOW_BYTES_MAX);

      pages = cs_text_cpu_pages_new (c->dir, window, error);
      g_ptr_array_index (c->cpus, cpu) = pages;
    }
  return pages;
}

/* Encodes and stores one event. */
static gboolean
store_event (Convert          *c,
             const CsTextLine *l,
             const char       *more_text,
             guint64           line_no,
             GError          **error)
{
  CsTextCpuPages *pages;

  if (!cs_text_events_encode (c->events, l, more_text, c->record))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s has more event types than a recording can hold (line %" PRIu64 ")"),
                   c->path, line_no);
      return FALSE;
    }
  pages = cpu_pages (c, l->cpu, error);
  if (pages == NULL || !cs_text_cpu_pages_add (pages, l->ts_ns, c->record->data, c->record->len, error))
    return FALSE;
  c->report->n_events++;

  if (l->comm_len > 0 && l->pid > 0 && !(l->comm_len == 5 && memcmp (l->comm, "<...>", 5) == 0))
    {
      gpointer key = GINT_TO_POINTER (l->pid);
      const char *old = g_hash_table_lookup (c->comms, key);

      if (old == NULL || strncmp (old, l->comm, l->comm_len) != 0 || old[l->comm_len] != '\0')
        g_hash_table_insert (c->comms, key, g_strndup (l->comm, MIN (l->comm_len, 15)));
    }
  return TRUE;
}

/* Stores the pending event with its continuation lines. */
static gboolean
flush_pending (Convert  *c,
               GError  **error)
{
  gboolean ok;

  if (!c->has_pending)
    return TRUE;
  c->has_pending = FALSE;
  ok = store_event (c, &c->pending, c->more->len > 0 ? c->more->str : NULL, c->pending_line_no, error);
  g_string_truncate (c->more, 0);
  return ok;
}

static gboolean
funcgraph_emit_cb (const CsTextLine *line,
                   gpointer          user_data,
                   GError          **error)
{
  Convert *c = user_data;

  c->sniff.n_events++;
  c->sniff.n_funcgraph++;
  return store_event (c, line, NULL, c->line_no, error);
}

/* Takes one line (in *buf, which may be swapped with the pending line's
 * buffer so that the parsed event keeps pointing at its text). */
static gboolean
take_line (Convert  *c,
           char    **buf,
           gsize    *cap,
           GError  **error)
{
  CsTextLine parsed;
  CsTextLineKind kind;

  c->line_no++;
  if (c->html != NULL && !cs_text_html_unwrap (c->html, *buf))
    return TRUE;
  if (c->line_no == 1 && (g_str_has_prefix (*buf, "version = ") || g_str_has_prefix (*buf, "cpus=")))
    c->sniff.report_header = TRUE;
  if (g_str_has_prefix (*buf, "# tracer: "))
    c->sniff.tracer_header = TRUE;

  kind = cs_text_line_parse (*buf, &parsed);
  switch (kind)
    {
    case CS_TEXT_LINE_HEADER:
      if (parsed.cpus > 0)
        c->n_cpus_declared = MAX (c->n_cpus_declared, parsed.cpus);
      return TRUE;
    case CS_TEXT_LINE_LOST:
      {
        CsTextCpuPages *pages;

        if (parsed.cpu >= MAX_CPUS)
          {
            bad_line (c, *buf);
            return TRUE;
          }
        if (!flush_pending (c, error) || (pages = cpu_pages (c, parsed.cpu, error)) == NULL)
          return FALSE;
        cs_text_cpu_pages_add_missed (pages, parsed.n_lost > 0 ? parsed.n_lost : G_MAXUINT64);
      }
      return TRUE;
    case CS_TEXT_LINE_CONTINUATION:
      if (!c->has_pending)
        {
          bad_line (c, *buf);
          return TRUE;
        }
      if (c->more->len > 0)
        g_string_append_c (c->more, '\n');
      g_string_append (c->more, *buf + strspn (*buf, " \t"));
      return TRUE;
    case CS_TEXT_LINE_BAD:
      {
        gboolean understood = FALSE;

        if (!flush_pending (c, error) ||
            !cs_text_funcgraph_take (c->funcgraph, *buf, funcgraph_emit_cb, c, &understood, error))
          return FALSE;
        if (!understood)
          bad_line (c, *buf);
      }
      return TRUE;
    case CS_TEXT_LINE_EVENT:
      break;
    }

  if (parsed.cpu >= MAX_CPUS)
    {
      bad_line (c, *buf);
      return TRUE;
    }
  if (!flush_pending (c, error))
    return FALSE;
  c->sniff.n_events++;
  if (parsed.system != NULL)
    c->sniff.n_perf++;

  /* Keep this line's text with the pending event: swap buffers. */
  {
    char *tmp = c->pending_buf;
    gsize tmp_cap = c->pending_cap;

    c->pending_buf = *buf;
    c->pending_cap = *cap;
    *buf = tmp;
    *cap = tmp_cap;
  }
  c->pending = parsed;
  c->pending_line_no = c->line_no;
  c->has_pending = TRUE;
  return TRUE;
}

static GBytes *
cmdlines_bytes (GHashTable *comms)
{
  GString *s = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, comms);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_string_append_printf (s, "%d %s\n", GPOINTER_TO_INT (key), (const char *) value);
  return g_string_free_to_bytes (s);
}

static gboolean
write_report (const char                *path,
              const CsTextImportReport  *r,
              GError                   **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  g_key_file_set_integer (kf, "text", "converter", CONVERTER_VERSION);
  g_key_file_set_string (kf, "text", "format", r->format);
  g_key_file_set_uint64 (kf, "text", "n_cpus", r->n_cpus);
  g_key_file_set_uint64 (kf, "text", "n_lines", r->n_lines);
  g_key_file_set_uint64 (kf, "text", "n_events", r->n_events);
  g_key_file_set_uint64 (kf, "text", "n_bad_lines", r->n_bad_lines);
  g_key_file_set_uint64 (kf, "text", "first_bad_line", r->first_bad_line);
  if (r->first_bad_text != NULL)
    g_key_file_set_string (kf, "text", "first_bad_text", r->first_bad_text);
  g_key_file_set_uint64 (kf, "text", "n_late", r->n_late);
  return g_key_file_save_to_file (kf, path, error);
}

static CsTextImportReport *
read_report (const char *path)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  CsTextImportReport *r;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL) ||
      g_key_file_get_integer (kf, "text", "converter", NULL) != CONVERTER_VERSION)
    return NULL;
  r = g_new0 (CsTextImportReport, 1);
  r->format = g_key_file_get_string (kf, "text", "format", NULL);
  r->n_cpus = (guint) g_key_file_get_uint64 (kf, "text", "n_cpus", NULL);
  r->n_lines = g_key_file_get_uint64 (kf, "text", "n_lines", NULL);
  r->n_events = g_key_file_get_uint64 (kf, "text", "n_events", NULL);
  r->n_bad_lines = g_key_file_get_uint64 (kf, "text", "n_bad_lines", NULL);
  r->first_bad_line = g_key_file_get_uint64 (kf, "text", "first_bad_line", NULL);
  r->first_bad_text = g_key_file_get_string (kf, "text", "first_bad_text", NULL);
  r->n_late = g_key_file_get_uint64 (kf, "text", "n_late", NULL);
  if (r->format == NULL)
    r->format = g_strdup ("trace text");
  return r;
}

static gboolean
finish (Convert     *c,
        const char  *out_path,
        GCancellable *cancellable,
        GError     **error)
{
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GBytes) hp = g_bytes_new_static (header_page, sizeof header_page - 1);
  g_autoptr(GBytes) he = g_bytes_new_static (header_event, sizeof header_event - 1);
  g_autoptr(GBytes) cmdlines = NULL;
  g_autofree char *report_path = g_strconcat (out_path, ".txt", NULL);
  guint n_cpus = MAX (MAX (c->n_cpus_declared, c->cpus->len), 1);

  if (!flush_pending (c, error))
    return FALSE;
  if (c->report->n_events == 0)
    {
      if (c->report->n_bad_lines > 0)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                     _("%s holds no event Chronoscope understands: line %" PRIu64
                     " is “%s”; Chronoscope reads %s"),
                     c->path, c->report->first_bad_line, c->report->first_bad_text,
                     _(CS_TEXT_IMPORT_FORMATS));
      else if (c->n_cpus_declared == 0)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                     _("%s holds no events"), c->path);
      if (c->report->n_bad_lines > 0 || c->n_cpus_declared == 0)
        return FALSE;
    }

  writer = cs_tracedat_writer_new (out_path, CS_TEXT_CPU_PAGES_PAGE_BYTES, n_cpus);
  cs_tracedat_writer_set_header_page (writer, hp);
  cs_tracedat_writer_set_header_event (writer, he);
  cs_text_events_add_to_writer (c->events, writer);
  cmdlines = cmdlines_bytes (c->comms);
  cs_tracedat_writer_set_cmdlines (writer, cmdlines);

  for (guint cpu = 0; cpu < c->cpus->len; cpu++)
    {
      CsTextCpuPages *pages = g_ptr_array_index (c->cpus, cpu);

      if (pages == NULL)
        continue;
      if (!cs_text_cpu_pages_finish (pages, error))
        return FALSE;
      c->report->n_late += cs_text_cpu_pages_get_n_late (pages);
      cs_tracedat_writer_set_cpu_data (writer, cpu, cs_text_cpu_pages_get_fd (pages),
                                       cs_text_cpu_pages_get_size (pages));
    }

  g_free (c->report->format);
  c->report->format = c->forced_format ? g_strdup (c->forced_format) : format_name (&c->sniff);
  c->report->n_cpus = n_cpus;
  c->report->n_lines = c->line_no;
  /* The report first: whoever finds the trace.dat finds its report. */
  if (!write_report (report_path, c->report, error))
    return FALSE;
  if (!cs_tracedat_writer_finish (writer, cancellable, error))
    {
      g_unlink (report_path);
      return FALSE;
    }
  return TRUE;
}

static gboolean finish_perf_script (const char *path, GPid pid, gboolean ok, GError **error);

/* `perf script --ns -i PATH`, its output read as a stream. */
static FILE *
open_perf_script (const char  *path,
                  GPid        *pid,
                  GError     **error)
{
  g_autofree char *perf = g_find_program_in_path (PERF_PROGRAM);
  const char *argv[] = { perf, "script", "--ns", "-i", path, NULL };
  g_autoptr(GError) local_error = NULL;
  int out_fd = -1;
  FILE *f;

  if (perf == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s is a perf recording (perf.data): Chronoscope reads it through "
                   "“perf script”, which is not installed (Debian: apt install linux-perf)"), path);
      return NULL;
    }
  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL |
                                 G_SPAWN_CLOEXEC_PIPES, NULL, NULL, pid, NULL, &out_fd, NULL,
                                 &local_error))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("Cannot run “perf script” on %s: %s"), path, local_error->message);
      *pid = 0;
      return NULL;
    }
  f = fdopen (out_fd, "rb");
  if (f == NULL)
    {
      close (out_fd);
      finish_perf_script (path, *pid, FALSE, NULL);
    }
  return f;
}

/* Reaps perf script; an error when it failed and @ok says all went well
 * so far. */
static gboolean
finish_perf_script (const char  *path,
                    GPid         pid,
                    gboolean     ok,
                    GError     **error)
{
  int status = 0;

  if (!ok)
    kill (pid, SIGTERM);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (pid);
  if (ok && !(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("“perf script” could not read %s (it exited with status %d)"),
                   path, WIFEXITED (status) ? WEXITSTATUS (status) : -1);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_text_import_convert:
 * @path: trace text (see cs_text_import_sniff())
 * @out_path: the trace.dat v6 to write (written under a temporary name in
 *   its folder and renamed); its report goes to `<out_path>.txt`
 * @progress: (nullable): called on this thread with the fraction of the
 *   text read, at most every 4,096 lines, and with 1.0 once the
 *   trace.dat is written
 * @user_data: for @progress
 * @cancellable: (nullable): stops with %G_IO_ERROR_CANCELLED
 * @report: (out) (optional) (transfer full): what the conversion found
 * @error: a %G_FILE_ERROR naming @path or the output's folder,
 *   %CS_INDEX_ERROR_NOT_A_TRACE when no line of the text is an event,
 *   %CS_RECORD_ERROR from writing the trace.dat, %G_IO_ERROR_CANCELLED
 *
 * Converts trace text into a recording: each event line becomes a record
 * of its CPU, in time order per CPU, with the fields of its event format
 * (cs-text-events.h).  Lines that are not understood are counted, never
 * dropped silently.  Memory stays bounded (the reordering window and one
 * entry per event type, task and function name).
 *
 * Returns: whether @out_path was written
 */
gboolean
cs_text_import_convert (const char          *path,
                        const char          *out_path,
                        CsIndexProgressFunc  progress,
                        gpointer             user_data,
                        GCancellable        *cancellable,
                        CsTextImportReport **report,
                        GError             **error)
{
  Convert c = { 0 };
  char *buf = NULL;
  gsize cap = 0;
  gint64 size = 0;
  gboolean ok = TRUE;
  FILE *f;
  GStatBuf st;
  GPid perf_pid = 0;
  g_autofree char *format = NULL;

  if (!cs_text_import_sniff (path, &format, error))
    {
      if (error == NULL || *error == NULL)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                     _("%s is not trace text; Chronoscope reads %s"), path,
                     _(CS_TEXT_IMPORT_FORMATS));
      return FALSE;
    }
  if (g_str_equal (format, PERF_DATA_FORMAT))
    f = open_perf_script (path, &perf_pid, error);
  else
    f = fopen (path, "rbe");
  if (f == NULL)
    {
      int saved = errno;
      if (perf_pid == 0)
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                     _("Cannot open %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  if (perf_pid == 0 && g_stat (path, &st) == 0)
    size = st.st_size;
  if (g_str_equal (format, SYSTRACE_FORMAT))
    {
      c.html = cs_text_html_new ();
      c.forced_format = SYSTRACE_FORMAT;
    }
  c.path = path;
  c.dir = g_path_get_dirname (out_path);
  c.events = cs_text_events_new ();
  c.funcgraph = cs_text_funcgraph_new ();
  c.cpus = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_text_cpu_pages_free);
  c.comms = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  c.record = g_byte_array_new ();
  c.more = g_string_new (NULL);
  c.report = g_new0 (CsTextImportReport, 1);

  while (ok && getline (&buf, &cap, f) >= 0)
    {
      ok = take_line (&c, &buf, &cap, error);
      if (ok && c.line_no % PROGRESS_LINES == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            ok = FALSE;
          else if (progress != NULL && size > 0)
            progress (CLAMP ((double) ftello (f) / size, 0.0, 1.0), user_data);
          else if (progress != NULL)   /* perf script: the text's size is not known */
            progress ((double) c.line_no / (c.line_no + 4e6), user_data);
        }
    }
  if (ok && ferror (f))
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot read %s at line %" PRIu64 ": %s"),
                   path, c.line_no + 1, g_strerror (saved));
      ok = FALSE;
    }
  fclose (f);
  free (buf);
  if (perf_pid != 0)
    ok = finish_perf_script (path, perf_pid, ok, error) && ok;
  if (perf_pid != 0)
    c.forced_format = PERF_DATA_FORMAT;

  ok = ok && finish (&c, out_path, cancellable, error);
  /* Small texts never reach PROGRESS_LINES: the end is said in any case. */
  if (ok && progress != NULL)
    progress (1.0, user_data);
  if (ok && report != NULL)
    *report = g_steal_pointer (&c.report);
  convert_clear (&c);
  return ok;
}

/**
 * cs_text_import_ensure:
 * @path: trace text (see cs_text_import_sniff())
 * @progress: (nullable): for a conversion, see cs_text_import_convert()
 * @user_data: for @progress
 * @cancellable: (nullable): stops a conversion
 * @report: (out) (optional) (transfer full): what the conversion found
 * @error: the errors of cs_index_cache_compute_identity(),
 *   cs_index_cache_dup_writable_dir() and cs_text_import_convert()
 *
 * The trace.dat converted from @path, from the index cache when an earlier
 * conversion of the same text (same identity, see
 * cs_index_cache_compute_identity()) is there, converted now otherwise.
 * Blocks for about the time it takes to read the text when converting.
 *
 * Returns: (transfer full): the converted file's path, or %NULL with
 *   @error set
 */
char *
cs_text_import_ensure (const char          *path,
                       CsIndexProgressFunc  progress,
                       gpointer             user_data,
                       GCancellable        *cancellable,
                       CsTextImportReport **report,
                       GError             **error)
{
  g_autofree char *identity = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *out_path = NULL;
  g_autofree char *report_path = NULL;
  CsTextImportReport *found;

  identity = cs_index_cache_compute_identity (path, error);
  if (identity == NULL)
    return NULL;

  /* The read-only cache first, then the writable one. */
  for (guint attempt = 0; attempt < 2; attempt++)
    {
      g_free (dir);
      dir = attempt == 0 ? cs_index_cache_dup_dir () : cs_index_cache_dup_writable_dir (NULL, error);
      if (dir == NULL)
        return NULL;
      g_free (index_path);
      index_path = cs_index_cache_dup_index_path_in (dir, identity);
      g_free (out_path);
      out_path = g_strdup_printf ("%.*s.text%d.dat", (int) (strlen (index_path) - strlen (".csindex")),
                                  index_path, CONVERTER_VERSION);
      g_free (report_path);
      report_path = g_strconcat (out_path, ".txt", NULL);
      if (g_file_test (out_path, G_FILE_TEST_IS_REGULAR) && (found = read_report (report_path)) != NULL)
        {
          if (report != NULL)
            *report = found;
          else
            cs_text_import_report_free (found);
          return g_steal_pointer (&out_path);
        }
    }

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot create the index directory %s: %s"), dir, g_strerror (saved));
      return NULL;
    }
  if (!cs_text_import_convert (path, out_path, progress, user_data, cancellable, report, error))
    return NULL;
  return g_steal_pointer (&out_path);
}
