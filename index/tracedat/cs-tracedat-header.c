/* cs-tracedat-header.c: the initial format, the options and the location of
 * each CPU's data in a trace.dat file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * trace-cmd.dat.v6(5): "INITIAL FORMAT", then the metadata sections one after
 * the other (their extent is found by cs-tracedat-sections.c), the CPU count,
 * "options  \0" with options ending at a zero id, "flyrecord\0" and one
 * (offset, size) pair per CPU, then the trace clock text when a TRACECLOCK
 * option was present.
 *
 * trace-cmd.dat.v7(5): "INITIAL FORMAT" with the compression algorithm and
 * the offset of the first options section; options sections chained by their
 * DONE option; the metadata sections and the flyrecord data found through
 * options (HEADER_INFO ... CMDLINES, BUFFER).
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-private.h"

/* What the options of the top buffer told us, before it is checked. */
typedef struct {
  gboolean seen;
  gboolean latency;
  guint64 offset;
  char *clock;
  guint32 page_size;
  GArray *cpus;        /* BufferCpu */
} TopBuffer;

typedef struct {
  guint32 id;
  guint64 offset;
  guint64 size;
} BufferCpu;

typedef struct {
  TopBuffer top;
  char *trace_clock_text;
  guint32 cpucount;
  gboolean have_cpucount;
} OptionState;

static void
option_state_clear (OptionState *st)
{
  g_clear_pointer (&st->top.clock, g_free);
  g_clear_pointer (&st->top.cpus, g_array_unref);
  g_clear_pointer (&st->trace_clock_text, g_free);
}

/* ------------------------------------------------------------------------ */

static gboolean
corrupt (CsTracedatReader *self, GError **error, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
corrupt (CsTracedatReader *self, GError **error, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;

  va_start (ap, fmt);
  msg = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT, _("%s: %s"), self->display_name, msg);
  return FALSE;
}

/* Reads a NUL-terminated string of at most @max bytes at *@pos. */
static gboolean
read_string (CsTracedatReader *self, guint64 *pos, gsize max, const char *what,
             char **out, GError **error)
{
  g_autofree char *buf = g_malloc0 (max + 1);
  gsize n = (gsize) MIN ((guint64) max, self->file_size - MIN (*pos, self->file_size));
  char *nul;

  if (n == 0 || !_cs_td_pread_exact (self, buf, n, *pos, what, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                     _("%s: %s: the file ends at offset %" PRIu64),
                     self->display_name, what, *pos);
      return FALSE;
    }
  nul = memchr (buf, 0, n);
  if (nul == NULL)
    return corrupt (self, error, _("%s at offset %" PRIu64 " has no end"),
                    what, *pos);
  *pos += (guint64) (nul - buf) + 1;
  *out = g_steal_pointer (&buf);
  return TRUE;
}

static gboolean
read_u32_at (CsTracedatReader *self, guint64 *pos, const char *what, guint32 *v, GError **error)
{
  guint8 b[4];

  if (!_cs_td_pread_exact (self, b, 4, *pos, what, error))
    return FALSE;
  *v = _cs_td_u32 (self->big_endian, b);
  *pos += 4;
  return TRUE;
}

static gboolean
read_u64_at (CsTracedatReader *self, guint64 *pos, const char *what, guint64 *v, GError **error)
{
  guint8 b[8];

  if (!_cs_td_pread_exact (self, b, 8, *pos, what, error))
    return FALSE;
  *v = _cs_td_u64 (self->big_endian, b);
  *pos += 8;
  return TRUE;
}

/* The selected clock in the text of tracefs's trace_clock file, e.g.
 * "local" in "[local] global counter ...". */
static char *
selected_clock (const char *text)
{
  const char *open = strchr (text, '[');
  gsize n;

  if (open == NULL)
    return NULL;
  open++;
  n = strcspn (open, "] \t\n");
  if (n == 0 || open[n] != ']')
    return NULL;
  return g_strndup (open, n);
}

/* Reads a v7 section header (trace-cmd.dat.v7(5) "FORMAT OF THE SECTION
 * HEADER") at @offset and checks its id. */
static gboolean
read_section_header (CsTracedatReader *self, guint64 offset, guint16 want_id,
                     const char *what, guint16 *flags, guint64 *size, GError **error)
{
  guint8 hdr[16];
  guint16 id;

  if (!_cs_td_pread_exact (self, hdr, sizeof hdr, offset, what, error))
    return FALSE;
  id = _cs_td_u16 (self->big_endian, hdr);
  *flags = _cs_td_u16 (self->big_endian, hdr + 2);
  *size = _cs_td_u64 (self->big_endian, hdr + 8);
  if (id != want_id)
    return corrupt (self, error, _("the %s section at offset %" PRIu64
                    " has id %u, expected %u"), what, offset, id, want_id);
  if (offset + 16 > self->file_size || *size > self->file_size - offset - 16)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("%s: the %s section at offset %" PRIu64 " (%" PRIu64
                   " bytes) goes past the end of the file (%" PRIu64 " bytes)"),
                   self->display_name, what, offset, *size, self->file_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_buffer_option (CsTracedatReader *self, CsTdMem *m, guint64 opt_offset,
                     gboolean latency, OptionState *st, GError **error)
{
  guint64 offset;
  const char *name, *clock;
  const guint8 *nul;
  guint32 page_size = 0, n;

  if (!_cs_td_mem_has (m, 8))
    goto short_option;
  offset = _cs_td_u64 (m->be, m->data + m->pos);
  m->pos += 8;
  name = (const char *) m->data + m->pos;
  nul = memchr (name, 0, m->len - m->pos);
  if (nul == NULL)
    goto short_option;
  m->pos += (gsize) ((const char *) nul - name) + 1;
  if (name[0] != '\0')
    {
      /* An instance buffer: only the top buffer is read, but callers want
       * to know that there is more. */
      self->n_instance_buffers++;
      return TRUE;
    }

  clock = (const char *) m->data + m->pos;
  nul = memchr (clock, 0, m->len - m->pos);
  if (nul == NULL)
    goto short_option;
  m->pos += (gsize) ((const char *) nul - clock) + 1;

  /* A later top BUFFER option replaces an earlier one, as in libtracecmd. */
  g_clear_pointer (&st->top.clock, g_free);
  g_clear_pointer (&st->top.cpus, g_array_unref);
  st->top.seen = TRUE;
  st->top.latency = latency;
  st->top.offset = offset;
  st->top.clock = g_strdup (clock);
  st->top.cpus = g_array_new (FALSE, TRUE, sizeof (BufferCpu));
  if (latency)
    return TRUE;

  if (!_cs_td_mem_has (m, 8))
    goto short_option;
  page_size = _cs_td_u32 (m->be, m->data + m->pos);
  n = _cs_td_u32 (m->be, m->data + m->pos + 4);
  m->pos += 8;
  st->top.page_size = page_size;
  if (n > (m->len - m->pos) / 20)
    return corrupt (self, error,
                    g_dngettext (GETTEXT_PACKAGE,
                                 "the BUFFER option at offset %" PRIu64 " lists %u CPU in %zu bytes",
                                 "the BUFFER option at offset %" PRIu64 " lists %u CPUs in %zu bytes",
                                 n),
                    opt_offset, n, m->len - m->pos);
  for (guint32 i = 0; i < n; i++)
    {
      BufferCpu c;

      c.id = _cs_td_u32 (m->be, m->data + m->pos);
      c.offset = _cs_td_u64 (m->be, m->data + m->pos + 4);
      c.size = _cs_td_u64 (m->be, m->data + m->pos + 12);
      m->pos += 20;
      if (c.id >= CS_TD_MAX_CPUS)
        return corrupt (self, error, _("the BUFFER option at offset %" PRIu64
                        " names CPU %u"), opt_offset, c.id);
      g_array_append_val (st->top.cpus, c);
    }
  return TRUE;

short_option:
  return corrupt (self, error, _("the %s option at offset %" PRIu64 " is too short"),
                  latency ? "BUFFER_TEXT" : "BUFFER", opt_offset);
}

static gboolean
parse_number_text (const guint8 *data, gsize size, gint64 *value)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  char *end = NULL;

  *value = g_ascii_strtoll (text, &end, 0);
  return end != text;
}

/* One option, v6 or v7 (trace-cmd.dat.v7(5) "OPTIONS SECTION"; v6 uses the
 * same ids, see trace-cmd.dat.v6(5) "REST OF TRACE-CMD HEADER"). */
static gboolean
handle_option (CsTracedatReader *self, guint16 id, const guint8 *data, guint32 size,
               guint64 opt_offset, OptionState *st, guint64 *next_options, GError **error)
{
  CsTdMem m = { data, size, 0, self->big_endian };
  gint64 v;

  switch (id)
    {
    case CS_TD_OPTION_DATE:
      /* Difference between the ring-buffer clock and gettimeofday, in
       * microseconds; libtracecmd adds it unless told to ignore it. */
      if (parse_number_text (data, size, &v))
        self->ts_offset_ns = (gint64) ((guint64) self->ts_offset_ns + (guint64) v * 1000u);
      return TRUE;

    case CS_TD_OPTION_OFFSET:
      if (parse_number_text (data, size, &v))
        self->ts_offset_ns = (gint64) ((guint64) self->ts_offset_ns + (guint64) v);
      return TRUE;

    case CS_TD_OPTION_TRACECLOCK:
      if (size == 0 && self->file_version < 7)
        self->v6_trace_clock_follows = TRUE;
      else
        {
          g_free (st->trace_clock_text);
          st->trace_clock_text = g_strndup ((const char *) data, size);
          if (self->file_version < 7)
            self->v6_trace_clock_follows = TRUE;
        }
      return TRUE;

    case CS_TD_OPTION_CPUCOUNT:
      if (size < 4)
        return TRUE;
      st->cpucount = _cs_td_u32 (self->big_endian, data);
      st->have_cpucount = TRUE;
      if (st->cpucount > CS_TD_MAX_CPUS)
        return corrupt (self, error, _("the CPUCOUNT option at offset %" PRIu64
                        " says %u CPUs"), opt_offset, st->cpucount);
      return TRUE;

    case CS_TD_OPTION_TSC2NSEC:
      if (size < 16)
        return TRUE;
      self->tsc2nsec_mult = _cs_td_u32 (self->big_endian, data);
      self->tsc2nsec_shift = _cs_td_u32 (self->big_endian, data + 4);
      self->tsc2nsec_offset = _cs_td_u64 (self->big_endian, data + 8);
      self->has_tsc2nsec = self->tsc2nsec_mult != 0;
      if (self->has_tsc2nsec && self->tsc2nsec_shift > 32)
        return corrupt (self, error, _("the TSC2NSEC option at offset %" PRIu64
                        " has a shift of %u"), opt_offset, self->tsc2nsec_shift);
      return TRUE;

    case CS_TD_OPTION_TIME_SHIFT:
      /* Parsed on demand (cs-tracedat-clock.c); libtracecmd also ignores
       * one shorter than its 16-byte head. */
      self->has_time_shift = TRUE;
      g_clear_pointer (&self->time_shift_option, g_bytes_unref);
      self->time_shift_option = g_bytes_new (data, size);
      return TRUE;

    case CS_TD_OPTION_UNAME:
      /* trace-cmd's "sysname nodename release version machine" */
      g_free (self->uname);
      self->uname = g_utf8_make_valid ((const char *) data, strnlen ((const char *) data, size));
      return TRUE;

    case CS_TD_OPTION_TRACEID:
      /* trace-cmd.dat.v7(5): the recording's 8-byte trace ID; libtracecmd's
       * handle_options() ignores a shorter one. */
      if (size >= 8)
        {
          self->trace_id = _cs_td_u64 (self->big_endian, data);
          self->has_trace_id = TRUE;
        }
      return TRUE;

    case CS_TD_OPTION_GUEST:
      if (self->guest_options == NULL)
        self->guest_options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      if (self->guest_options->len < CS_TD_MAX_CPUS)
        g_ptr_array_add (self->guest_options, g_bytes_new (data, size));
      return TRUE;

    case CS_TD_OPTION_BUFFER:
    case CS_TD_OPTION_BUFFER_TEXT:
      if (self->file_version < 7)
        {
          /* v6: instances only; the top buffer is the flyrecord */
          self->n_instance_buffers++;
          return TRUE;
        }
      return parse_buffer_option (self, &m, opt_offset, id == CS_TD_OPTION_BUFFER_TEXT,
                                  st, error);

    case CS_TD_OPTION_HEADER_INFO:
    case CS_TD_OPTION_FTRACE_EVENTS:
    case CS_TD_OPTION_EVENT_FORMATS:
    case CS_TD_OPTION_KALLSYMS:
    case CS_TD_OPTION_PRINTK:
    case CS_TD_OPTION_CMDLINES:
      {
        CsTdSectionKind kind = (CsTdSectionKind) (id - CS_TD_OPTION_HEADER_INFO);
        CsTdSection *sec = &self->sections[kind];
        guint64 offset, sec_size;
        guint16 flags;

        if (self->file_version < 7 || size < 8)
          return TRUE;
        offset = _cs_td_u64 (self->big_endian, data);
        if (!read_section_header (self, offset, id, _cs_td_section_name (kind),
                                  &flags, &sec_size, error))
          return FALSE;
        sec->present = TRUE;
        sec->compressed = (flags & CS_TD_SECTION_FL_COMPRESS) != 0;
        sec->offset = offset + 16;
        sec->size = sec_size;
        return TRUE;
      }

    case CS_TD_OPTION_DONE:
      if (self->file_version >= 7 && size >= 8)
        *next_options = _cs_td_u64 (self->big_endian, data);
      return TRUE;

    default:
      return TRUE;
    }
}

/* The chain of v7 options sections starting at @offset. */
static gboolean
read_v7_options (CsTracedatReader *self, guint64 offset, OptionState *st, GError **error)
{
  guint64 visited[CS_TD_MAX_OPTION_SECTIONS];
  guint n_visited = 0;

  while (offset != 0)
    {
      g_autofree guint8 *buf = NULL;
      gsize len = 0, pos = 0;
      guint64 size, next = 0;
      guint16 flags;

      for (guint i = 0; i < n_visited; i++)
        if (visited[i] == offset)
          return corrupt (self, error, _("the options sections loop back to offset %"
                          PRIu64), offset);
      if (n_visited == CS_TD_MAX_OPTION_SECTIONS)
        return corrupt (self, error, _("more than %d options sections"), CS_TD_MAX_OPTION_SECTIONS);
      visited[n_visited++] = offset;

      if (!read_section_header (self, offset, CS_TD_OPTION_DONE, "options", &flags, &size, error) ||
          !_cs_td_load_block (self, offset + 16, size, (flags & CS_TD_SECTION_FL_COMPRESS) != 0,
                              _("options section"), &buf, &len, error))
        return FALSE;

      while (pos < len)
        {
          guint16 id;
          guint32 osize;

          if (len - pos < 6)
            return corrupt (self, error, _("the options section at offset %" PRIu64
                            " ends inside an option header"), offset);
          id = _cs_td_u16 (self->big_endian, buf + pos);
          osize = _cs_td_u32 (self->big_endian, buf + pos + 2);
          pos += 6;
          if (osize > len - pos)
            return corrupt (self, error, _("option %u in the options section at offset %"
                            PRIu64 " claims %u bytes, %zu are left"),
                            id, offset, osize, len - pos);
          if (!handle_option (self, id, buf + pos, osize, offset + 16 + pos - 6, st, &next, error))
            return FALSE;
          pos += osize;
          if (id == CS_TD_OPTION_DONE)
            break;
        }
      offset = next;
    }
  return TRUE;
}

/* v6: "options  \0" (optional), then "flyrecord\0" and the per-CPU table. */
static gboolean
read_v6_rest (CsTracedatReader *self, guint64 pos, guint32 header_cpus, OptionState *st,
              GError **error)
{
  char tag[10];
  guint32 n_entries;

  if (!_cs_td_pread_exact (self, tag, 10, pos, _("options or flyrecord tag"), error))
    return FALSE;
  pos += 10;
  if (memcmp (tag, "options  ", 10) == 0)
    {
      for (;;)
        {
          guint8 hdr[6];
          guint16 id;
          guint32 size;
          g_autofree guint8 *data = NULL;
          guint64 unused = 0;

          if (!_cs_td_pread_exact (self, hdr, 2, pos, "options", error))
            return FALSE;
          id = _cs_td_u16 (self->big_endian, hdr);
          if (id == CS_TD_OPTION_DONE)
            {
              pos += 2;
              break;
            }
          if (!_cs_td_pread_exact (self, hdr, 6, pos, "options", error))
            return FALSE;
          size = _cs_td_u32 (self->big_endian, hdr + 2);
          if (size > self->file_size - MIN (self->file_size, pos + 6))
            {
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                           _("%s: option %u at offset %" PRIu64 " (%u bytes) goes past "
                           "the end of the file"), self->display_name, id, pos, size);
              return FALSE;
            }
          data = g_malloc (MAX (size, 1));
          if (!_cs_td_pread_exact (self, data, size, pos + 6, "options", error) ||
              !handle_option (self, id, data, size, pos, st, &unused, error))
            return FALSE;
          pos += 6 + (guint64) size;
        }
      if (!_cs_td_pread_exact (self, tag, 10, pos, _("flyrecord tag"), error))
        return FALSE;
      pos += 10;
    }

  if (memcmp (tag, "latency  ", 10) == 0)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: a latency-tracer recording (text, not ring-buffer pages)"),
                   self->display_name);
      return FALSE;
    }
  if (memcmp (tag, "flyrecord", 10) != 0)
    return corrupt (self, error, _("expected \"flyrecord\" at offset %" PRIu64), pos - 10);

  /* Like libtracecmd, a CPUCOUNT option overrides the header's count. */
  n_entries = st->have_cpucount ? st->cpucount : header_cpus;
  if (n_entries > CS_TD_MAX_CPUS)
    return corrupt (self, error, _("the header says %u CPUs"), n_entries);
  self->n_cpus = n_entries;
  self->cpu_data = g_new0 (CsTdCpuData, MAX (n_entries, 1));
  for (guint32 i = 0; i < n_entries; i++)
    if (!read_u64_at (self, &pos, _("flyrecord CPU table"), &self->cpu_data[i].offset, error) ||
        !read_u64_at (self, &pos, _("flyrecord CPU table"), &self->cpu_data[i].size, error))
      return FALSE;

  if (self->v6_trace_clock_follows)
    {
      guint64 size;
      GError *local = NULL;

      /* "There was a bug in the original setting of the trace_clock file":
       * libtracecmd falls back to the local clock when this does not read. */
      if (read_u64_at (self, &pos, _("trace clock"), &size, &local) && size <= 64 * 1024)
        {
          g_autofree char *text = g_malloc0 (size + 1);

          if (_cs_td_pread_exact (self, text, size, pos, _("trace clock"), &local))
            {
              g_free (st->trace_clock_text);
              st->trace_clock_text = g_steal_pointer (&text);
            }
        }
      if (st->trace_clock_text == NULL)
        st->trace_clock_text = g_strdup ("[local]");
      g_clear_error (&local);
    }
  return TRUE;
}

static gboolean
setup_v7_top_buffer (CsTracedatReader *self, OptionState *st, GError **error)
{
  guint n = st->have_cpucount ? st->cpucount : 0;

  if (st->top.seen && st->top.latency)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: a latency-tracer recording (text, not ring-buffer pages)"),
                   self->display_name);
      return FALSE;
    }

  if (st->top.seen)
    for (guint i = 0; i < st->top.cpus->len; i++)
      n = MAX (n, g_array_index (st->top.cpus, BufferCpu, i).id + 1);

  self->n_cpus = n;
  self->cpu_data = g_new0 (CsTdCpuData, MAX (n, 1));
  if (!st->top.seen)
    return TRUE;

  if (st->top.page_size != 0 && st->top.page_size != self->page_size)
    {
      if (st->top.page_size < 64 || st->top.page_size > CS_TD_MAX_PAGE_SIZE ||
          (st->top.page_size & (st->top.page_size - 1)) != 0)
        return corrupt (self, error, _("the top buffer has a page size of %u bytes"),
                        st->top.page_size);
      self->page_size = st->top.page_size;
    }

  for (guint i = 0; i < st->top.cpus->len; i++)
    {
      const BufferCpu *c = &g_array_index (st->top.cpus, BufferCpu, i);

      if (self->cpu_data[c->id].size != 0)
        return corrupt (self, error, _("the BUFFER option lists CPU %u twice"), c->id);
      self->cpu_data[c->id].offset = c->offset;
      self->cpu_data[c->id].size = c->size;
    }

  if (st->top.cpus->len > 0)
    {
      guint16 flags;
      guint64 size;

      if (!read_section_header (self, st->top.offset, CS_TD_OPTION_BUFFER, "flyrecord",
                                &flags, &size, error))
        return FALSE;
      self->data_compressed = (flags & CS_TD_SECTION_FL_COMPRESS) != 0;
      if (self->data_compressed && self->codec == CS_TD_CODEC_NONE)
        return corrupt (self, error, _("the flyrecord section is marked compressed but the "
                        "file names no compression algorithm"));
    }
  return TRUE;
}

gboolean
_cs_td_read_header (CsTracedatReader  *self,
                    GError           **error)
{
  guint8 head[10];
  char verbuf[16] = { 0 };
  guint64 pos;
  gsize n;
  guint8 b[2];
  guint32 page_size;
  OptionState st = { 0 };
  gboolean ok = FALSE;
  char *text;

  /* trace-cmd.dat.v7(5) "INITIAL FORMAT" */
  if (self->file_size < 10 || !_cs_td_pread_exact (self, head, 10, 0, _("magic"), error) ||
      memcmp (head, "\x17\x08\x44tracing", 10) != 0)
    {
      g_clear_error (error);
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE,
                   _("%s: not a trace-cmd recording (no trace.dat magic bytes)"),
                   self->display_name);
      return FALSE;
    }
  n = (gsize) MIN ((guint64) sizeof verbuf - 1, self->file_size - 10);
  if (!_cs_td_pread_exact (self, verbuf, n, 10, _("version"), error))
    return FALSE;
  if (memchr (verbuf, 0, n) == NULL)
    return corrupt (self, error, _("the file version string has no end"));
  if (g_strcmp0 (verbuf, "6") == 0)
    self->file_version = 6;
  else if (g_strcmp0 (verbuf, "7") == 0)
    self->file_version = 7;
  else
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: file version \"%.15s\" (this reader knows versions 6 and 7)"),
                   self->display_name, verbuf);
      return FALSE;
    }
  pos = 10 + strlen (verbuf) + 1;

  if (!_cs_td_pread_exact (self, b, 2, pos, _("endianness and long size"), error))
    return FALSE;
  pos += 2;
  if (b[0] > 1)
    return corrupt (self, error, _("endianness byte %u is neither 0 nor 1"), b[0]);
  if (b[1] != 4 && b[1] != 8)
    return corrupt (self, error, _("a long of %u bytes"), b[1]);
  self->big_endian = b[0] == 1;
  self->long_size = b[1];
  if (!read_u32_at (self, &pos, _("page size"), &page_size, error))
    return FALSE;
  if (page_size < 64 || page_size > CS_TD_MAX_PAGE_SIZE || (page_size & (page_size - 1)) != 0)
    return corrupt (self, error, _("a page size of %u bytes"), page_size);
  self->page_size = page_size;

  if (self->file_version >= 7)
    {
      guint64 options_offset;

      if (!read_string (self, &pos, 64, _("compression name"), &self->compression, error) ||
          !read_string (self, &pos, 64, _("compression version"), &self->compression_version, error) ||
          !read_u64_at (self, &pos, _("options offset"), &options_offset, error))
        goto out;
      if (g_strcmp0 (self->compression, "none") == 0)
        self->codec = CS_TD_CODEC_NONE;
      else if (g_strcmp0 (self->compression, "zstd") == 0)
        self->codec = CS_TD_CODEC_ZSTD;
      else if (g_strcmp0 (self->compression, "zlib") == 0)
        self->codec = CS_TD_CODEC_ZLIB;
      else
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                       _("%s: compression \"%s\" (this reader knows zstd and zlib)"),
                       self->display_name, self->compression);
          goto out;
        }
      if (!read_v7_options (self, options_offset, &st, error) ||
          !setup_v7_top_buffer (self, &st, error))
        goto out;
    }
  else
    {
      guint32 header_cpus;

      self->compression = g_strdup ("none");
      self->codec = CS_TD_CODEC_NONE;
      if (!_cs_td_scan_v6_sections (self, &pos, error) ||
          !read_u32_at (self, &pos, _("CPU count"), &header_cpus, error) ||
          !read_v6_rest (self, pos, header_cpus, &st, error))
        goto out;
    }

  text = st.trace_clock_text ? selected_clock (st.trace_clock_text) : NULL;
  if (text == NULL && st.top.clock != NULL && st.top.clock[0] != '\0')
    text = g_strdup (st.top.clock);
  self->clock = text;

  ok = TRUE;

out:
  option_state_clear (&st);
  return ok;
}

