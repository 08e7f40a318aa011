/* cs-tracedat-sections.c: the metadata sections of a trace.dat file (header
 * page and event, ftrace and event formats, kallsyms, printk formats, saved
 * command lines), their decompression, and the libtraceevent handle built
 * from them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layouts: trace-cmd.dat.v6(5) "HEADER INFO FORMAT" to "PROCESS INFORMATION"
 * (sections one after the other after the initial format), and
 * trace-cmd.dat.v7(5) "HEADER INFO SECTION" to "SAVED COMMAND LINES SECTION"
 * (each section found through an option, possibly compressed as described in
 * "COMPRESSION FORMAT OF THE FILE SECTIONS").
 */
#include <errno.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-private.h"

static const char *section_names[CS_TD_N_SECTIONS] = {
  N_("header info"),
  N_("ftrace event formats"),
  N_("event formats"),
  N_("kallsyms"),
  N_("printk formats"),
  N_("saved command lines"),
};

const char *
_cs_td_section_name (CsTdSectionKind kind)
{
  g_return_val_if_fail (kind < CS_TD_N_SECTIONS, "?");
  return _(section_names[kind]);
}

gboolean
_cs_td_pread_exact (CsTracedatReader  *self,
                    void              *buf,
                    gsize              len,
                    guint64            offset,
                    const char        *what,
                    GError           **error)
{
  guint8 *p = buf;
  gsize done = 0;

  if (offset > self->file_size || len > self->file_size - offset)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("%s: %s: %zu bytes at offset %" PRIu64
                   " go past the end of the file (%" PRIu64 " bytes)"),
                   self->display_name, what, len, offset, self->file_size);
      return FALSE;
    }

  while (done < len)
    {
      ssize_t r = pread (self->fd, p + done, len - done, (off_t) (offset + done));

      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          int saved_errno = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       _("%s: %s: cannot read at offset %" PRIu64 ": %s"),
                       self->display_name, what, offset + done, g_strerror (saved_errno));
          return FALSE;
        }
      if (r == 0)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                       _("%s: %s: the file ends at offset %" PRIu64),
                       self->display_name, what, offset + done);
          return FALSE;
        }
      done += (gsize) r;
    }

  return TRUE;
}

gboolean
_cs_td_decompress (CsTracedatReader  *self,
                   ZSTD_DCtx         *zstd,
                   z_stream          *zs,
                   const guint8      *in,
                   gsize              in_len,
                   guint8            *out,
                   gsize              out_len,
                   const char        *what,
                   guint64            offset,
                   GError           **error)
{
  switch (self->codec)
    {
    case CS_TD_CODEC_ZSTD:
      {
        ZSTD_DCtx *ctx = zstd ? zstd : ZSTD_createDCtx ();
        size_t r;

        if (ctx == NULL)
          g_error ("ZSTD_createDCtx: out of memory");
        r = ZSTD_decompressDCtx (ctx, out, out_len, in, in_len);
        if (zstd == NULL)
          ZSTD_freeDCtx (ctx);
        if (ZSTD_isError (r))
          {
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                         _("%s: %s at offset %" PRIu64 ": zstd cannot decompress "
                         "%zu bytes into the %zu bytes the file announces: %s"),
                         self->display_name, what, offset, in_len, out_len,
                         ZSTD_getErrorName (r));
            return FALSE;
          }
        if (r != out_len)
          {
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                         _("%s: %s at offset %" PRIu64 ": decompressed to %zu bytes, "
                           "the file announces %zu"),
                         self->display_name, what, offset, (gsize) r, out_len);
            return FALSE;
          }
        return TRUE;
      }

    case CS_TD_CODEC_ZLIB:
      {
        z_stream local = { 0 };
        z_stream *s = zs;
        int ret;
        gboolean ok;

        if (in_len > G_MAXUINT32 || out_len > G_MAXUINT32)
          {
            g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                         _("%s: %s at offset %" PRIu64 ": block too large for zlib"),
                         self->display_name, what, offset);
            return FALSE;
          }
        if (s == NULL)
          {
            s = &local;
            if (inflateInit (s) != Z_OK)
              g_error ("inflateInit: out of memory");
          }
        else if (inflateReset (s) != Z_OK)
          g_error ("inflateReset failed on a valid stream");

        s->next_in = (Bytef *) in;
        s->avail_in = (uInt) in_len;
        s->next_out = out;
        s->avail_out = (uInt) out_len;
        ret = inflate (s, Z_FINISH);
        ok = ret == Z_STREAM_END && s->total_out == out_len;
        if (!ok)
          {
            if (ret == Z_STREAM_END || (s->avail_out == 0 && (ret == Z_BUF_ERROR || ret == Z_OK)))
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                           _("%s: %s at offset %" PRIu64 ": the zlib data does not "
                           "decompress to the %zu bytes the file announces"),
                           self->display_name, what, offset, out_len);
            else
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                           _("%s: %s at offset %" PRIu64 ": zlib cannot decompress "
                           "%zu bytes: %s"),
                           self->display_name, what, offset, in_len,
                           s->msg ? s->msg : zError (ret));
          }
        if (s == &local)
          inflateEnd (s);
        return ok;
      }

    case CS_TD_CODEC_NONE:
    default:
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: %s at offset %" PRIu64 " is marked compressed but the "
                   "file names no compression algorithm"),
                   self->display_name, what, offset);
      return FALSE;
    }
}

/* Reads @size bytes at @offset, decompressing them when @compressed (then
 * they start with the compression header: compressed size, uncompressed
 * size).  The result is NUL-terminated (not counted in @len). */
gboolean
_cs_td_load_block (CsTracedatReader  *self,
                   guint64            offset,
                   guint64            size,
                   gboolean           compressed,
                   const char        *what,
                   guint8           **data,
                   gsize             *len,
                   GError           **error)
{
  g_autofree guint8 *in = NULL;
  g_autofree guint8 *out = NULL;
  guint8 hdr[8];
  guint32 csize, usize;

  if (!compressed)
    {
      if (size > CS_TD_MAX_SECTION_BYTES)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                       _("%s: %s at offset %" PRIu64 " is %" PRIu64
                       " bytes, more than this reader accepts"),
                       self->display_name, what, offset, size);
          return FALSE;
        }
      if (offset > self->file_size || size > self->file_size - offset)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                       _("%s: %s at offset %" PRIu64 " (%" PRIu64
                       " bytes) goes past the end of the file (%" PRIu64 " bytes)"),
                       self->display_name, what, offset, size, self->file_size);
          return FALSE;
        }
      out = g_malloc (size + 1);
      if (!_cs_td_pread_exact (self, out, size, offset, what, error))
        return FALSE;
      out[size] = 0;
      *len = size;
      *data = g_steal_pointer (&out);
      return TRUE;
    }

  if (size < 8)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: compressed %s at offset %" PRIu64 " is too short (%"
                   PRIu64 " bytes) for its compression header"),
                   self->display_name, what, offset, size);
      return FALSE;
    }
  if (!_cs_td_pread_exact (self, hdr, 8, offset, what, error))
    return FALSE;
  csize = _cs_td_u32 (self->big_endian, hdr);
  usize = _cs_td_u32 (self->big_endian, hdr + 4);
  if (csize > size - 8)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: compressed %s at offset %" PRIu64 " claims %u compressed "
                   "bytes in a section of %" PRIu64),
                   self->display_name, what, offset, csize, size);
      return FALSE;
    }
  if (usize > CS_TD_MAX_SECTION_BYTES)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("%s: compressed %s at offset %" PRIu64 " claims to decompress "
                   "to %u bytes, more than this reader accepts"),
                   self->display_name, what, offset, usize);
      return FALSE;
    }

  in = g_malloc (MAX (csize, 1));
  if (!_cs_td_pread_exact (self, in, csize, offset + 8, what, error))
    return FALSE;
  out = g_malloc ((gsize) usize + 1);
  if (!_cs_td_decompress (self, NULL, NULL, in, csize, out, usize, what, offset, error))
    return FALSE;
  out[usize] = 0;
  *len = usize;
  *data = g_steal_pointer (&out);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* v6: the sections follow each other; find where each one is.              */

typedef struct {
  CsTracedatReader *self;
  guint64 pos;
  const char *what;
} FileCur;

static gboolean
fc_read (FileCur *fc, void *buf, gsize len, GError **error)
{
  if (!_cs_td_pread_exact (fc->self, buf, len, fc->pos, fc->what, error))
    return FALSE;
  fc->pos += len;
  return TRUE;
}

static gboolean
fc_u32 (FileCur *fc, guint32 *v, GError **error)
{
  guint8 b[4];

  if (!fc_read (fc, b, 4, error))
    return FALSE;
  *v = _cs_td_u32 (fc->self->big_endian, b);
  return TRUE;
}

static gboolean
fc_u64 (FileCur *fc, guint64 *v, GError **error)
{
  guint8 b[8];

  if (!fc_read (fc, b, 8, error))
    return FALSE;
  *v = _cs_td_u64 (fc->self->big_endian, b);
  return TRUE;
}

static gboolean
fc_skip (FileCur *fc, guint64 len, GError **error)
{
  CsTracedatReader *self = fc->self;

  if (fc->pos > self->file_size || len > self->file_size - fc->pos)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_TRUNCATED,
                   _("%s: %s: %" PRIu64 " bytes at offset %" PRIu64
                   " go past the end of the file (%" PRIu64 " bytes)"),
                   self->display_name, fc->what, len, fc->pos, self->file_size);
      return FALSE;
    }
  fc->pos += len;
  return TRUE;
}

/* Skips a NUL-terminated string of at most 4 KiB. */
static gboolean
fc_skip_string (FileCur *fc, GError **error)
{
  guint8 buf[256];
  guint64 start = fc->pos;

  while (fc->pos - start < 4096)
    {
      gsize n = MIN (sizeof buf, fc->self->file_size - MIN (fc->pos, fc->self->file_size));
      guint8 *nul;

      if (n == 0)
        return fc_skip (fc, 1, error);
      if (!_cs_td_pread_exact (fc->self, buf, n, fc->pos, fc->what, error))
        return FALSE;
      nul = memchr (buf, 0, n);
      if (nul != NULL)
        {
          fc->pos += (guint64) (nul - buf) + 1;
          return TRUE;
        }
      fc->pos += n;
    }

  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
               _("%s: %s: no end to the string at offset %" PRIu64),
               fc->self->display_name, fc->what, start);
  return FALSE;
}

static gboolean
fc_expect (FileCur *fc, const char *magic, gsize len, GError **error)
{
  char buf[16];

  g_assert (len <= sizeof buf);
  if (!fc_read (fc, buf, len, error))
    return FALSE;
  if (memcmp (buf, magic, len) != 0)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: %s: expected \"%s\" at offset %" PRIu64),
                   fc->self->display_name, fc->what, magic, fc->pos - len);
      return FALSE;
    }
  return TRUE;
}

static void
fc_begin (FileCur *fc, CsTracedatReader *self, CsTdSectionKind kind)
{
  fc->what = _(section_names[kind]);
  self->sections[kind].present = TRUE;
  self->sections[kind].compressed = FALSE;
  self->sections[kind].offset = fc->pos;
}

static void
fc_end (FileCur *fc, CsTracedatReader *self, CsTdSectionKind kind)
{
  self->sections[kind].size = fc->pos - self->sections[kind].offset;
}

gboolean
_cs_td_scan_v6_sections (CsTracedatReader  *self,
                         guint64           *pos,
                         GError           **error)
{
  FileCur fc = { self, *pos, NULL };
  guint64 size64;
  guint32 count, systems, size32;

  fc_begin (&fc, self, CS_TD_SEC_HEADER_INFO);
  if (!fc_expect (&fc, "header_page", 12, error) ||
      !fc_u64 (&fc, &size64, error) || !fc_skip (&fc, size64, error) ||
      !fc_expect (&fc, "header_event", 13, error) ||
      !fc_u64 (&fc, &size64, error) || !fc_skip (&fc, size64, error))
    return FALSE;
  fc_end (&fc, self, CS_TD_SEC_HEADER_INFO);

  fc_begin (&fc, self, CS_TD_SEC_FTRACE_EVENTS);
  if (!fc_u32 (&fc, &count, error))
    return FALSE;
  for (guint32 i = 0; i < count; i++)
    if (!fc_u64 (&fc, &size64, error) || !fc_skip (&fc, size64, error))
      return FALSE;
  fc_end (&fc, self, CS_TD_SEC_FTRACE_EVENTS);

  fc_begin (&fc, self, CS_TD_SEC_EVENT_FORMATS);
  if (!fc_u32 (&fc, &systems, error))
    return FALSE;
  for (guint32 i = 0; i < systems; i++)
    {
      if (!fc_skip_string (&fc, error) || !fc_u32 (&fc, &count, error))
        return FALSE;
      for (guint32 j = 0; j < count; j++)
        if (!fc_u64 (&fc, &size64, error) || !fc_skip (&fc, size64, error))
          return FALSE;
    }
  fc_end (&fc, self, CS_TD_SEC_EVENT_FORMATS);

  fc_begin (&fc, self, CS_TD_SEC_KALLSYMS);
  if (!fc_u32 (&fc, &size32, error) || !fc_skip (&fc, size32, error))
    return FALSE;
  fc_end (&fc, self, CS_TD_SEC_KALLSYMS);

  fc_begin (&fc, self, CS_TD_SEC_PRINTK);
  if (!fc_u32 (&fc, &size32, error) || !fc_skip (&fc, size32, error))
    return FALSE;
  fc_end (&fc, self, CS_TD_SEC_PRINTK);

  fc_begin (&fc, self, CS_TD_SEC_CMDLINES);
  if (!fc_u64 (&fc, &size64, error) || !fc_skip (&fc, size64, error))
    return FALSE;
  fc_end (&fc, self, CS_TD_SEC_CMDLINES);

  *pos = fc.pos;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Parsing a section's bytes into a tep_handle.                              */

typedef struct {
  CsTracedatReader *self;
  CsTdMem m;
  const char *what;
  guint64 offset;
} MemCur;

static gboolean
mc_fail (MemCur *mc, const char *msg, GError **error)
{
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
               _("%s: %s at offset %" PRIu64 ": %s at byte %zu of %zu"),
               mc->self->display_name, mc->what, mc->offset, msg, mc->m.pos, mc->m.len);
  return FALSE;
}

static gboolean
mc_u32 (MemCur *mc, guint32 *v, GError **error)
{
  if (!_cs_td_mem_has (&mc->m, 4))
    return mc_fail (mc, _("the section ends inside a 4-byte number"), error);
  *v = _cs_td_u32 (mc->m.be, mc->m.data + mc->m.pos);
  mc->m.pos += 4;
  return TRUE;
}

static gboolean
mc_u64 (MemCur *mc, guint64 *v, GError **error)
{
  if (!_cs_td_mem_has (&mc->m, 8))
    return mc_fail (mc, _("the section ends inside an 8-byte number"), error);
  *v = _cs_td_u64 (mc->m.be, mc->m.data + mc->m.pos);
  mc->m.pos += 8;
  return TRUE;
}

static gboolean
mc_bytes (MemCur *mc, guint64 len, const guint8 **p, GError **error)
{
  if (len > G_MAXSIZE || !_cs_td_mem_has (&mc->m, (gsize) len))
    return mc_fail (mc, _("a size goes past the end of the section"), error);
  *p = mc->m.data + mc->m.pos;
  mc->m.pos += (gsize) len;
  return TRUE;
}

static gboolean
mc_string (MemCur *mc, const char **s, GError **error)
{
  const guint8 *start = mc->m.data + mc->m.pos;
  const guint8 *nul;

  if (mc->m.pos >= mc->m.len)
    return mc_fail (mc, _("the section ends where a string should start"), error);
  nul = memchr (start, 0, mc->m.len - mc->m.pos);
  if (nul == NULL)
    return mc_fail (mc, _("a string has no end"), error);
  *s = (const char *) start;
  mc->m.pos += (gsize) (nul - start) + 1;
  return TRUE;
}

static gboolean
mc_expect (MemCur *mc, const char *magic, gsize len, GError **error)
{
  const guint8 *p = NULL;

  if (!mc_bytes (mc, len, &p, error))
    return FALSE;
  if (memcmp (p, magic, len) != 0)
    {
      g_autofree char *msg = g_strdup_printf (_("expected \"%s\""), magic);
      mc->m.pos -= len;
      return mc_fail (mc, msg, error);
    }
  return TRUE;
}

/* Runs @parse on a NUL-terminated copy-free view: the byte after the text is
 * set to 0 for the call (the section buffer is ours and has a spare byte at
 * its end). */
static void
with_terminated_text (guint8 *text, gsize len,
                      int (*parse) (struct tep_handle *, const char *),
                      struct tep_handle *tep)
{
  guint8 saved = text[len];

  text[len] = 0;
  parse (tep, (const char *) text);
  text[len] = saved;
}

/* Whether the event format @text (as the kernel's `format` file gives it:
 * "name: NAME\nID: ID\nformat:...") is one the reader was asked to
 * parse.  A format whose ID line cannot be found is parsed: libtraceevent
 * says what is wrong with it. */
static gboolean
format_wanted (CsTracedatReader *self,
               const guint8     *text,
               guint64           size)
{
  const char *p, *end = (const char *) text + MIN (size, 512);
  guint id = 0;

  if (self->wanted_ids == NULL)
    return TRUE;
  p = g_strstr_len ((const char *) text, end - (const char *) text, "\nID: ");
  if (p == NULL || (p += 5) >= end || !g_ascii_isdigit (*p))
    return TRUE;
  /* The text is not NUL-terminated: the digits are read up to @end. */
  for (; p < end && g_ascii_isdigit (*p) && id < 65536; p++)
    id = id * 10 + (guint) (*p - '0');
  return id >= 65536 || (self->wanted_ids[id >> 3] & (1u << (id & 7))) != 0;
}

static gboolean
parse_section (CsTracedatReader   *self,
               struct tep_handle  *tep,
               CsTdSectionKind     kind,
               guint8             *buf,
               gsize               len,
               guint              *n_failures,
               GError            **error)
{
  MemCur mc = { self, { buf, len, 0, self->big_endian }, _(section_names[kind]),
                self->sections[kind].offset };
  const guint8 *p = NULL;
  guint64 size64;
  guint32 count, size32;

  switch (kind)
    {
    case CS_TD_SEC_HEADER_INFO:
      if (!mc_expect (&mc, "header_page", 12, error) || !mc_u64 (&mc, &size64, error) ||
          !mc_bytes (&mc, size64, &p, error))
        return FALSE;
      if (tep_parse_header_page (tep, (char *) p, (unsigned long) size64, (int) self->long_size) != 0)
        return mc_fail (&mc, _("libtraceevent cannot parse the header_page format"), error);
      if (!mc_expect (&mc, "header_event", 13, error) || !mc_u64 (&mc, &size64, error) ||
          !mc_bytes (&mc, size64, &p, error))
        return FALSE;
      if (tep_get_header_page_size (tep) != 4 && tep_get_header_page_size (tep) != 8)
        return mc_fail (&mc, _("the header_page commit field is neither 4 nor 8 bytes"), error);
      if (tep_get_header_timestamp_size (tep) != 8)
        return mc_fail (&mc, _("the header_page timestamp is not 8 bytes"), error);
      if (tep_is_old_format (tep))
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                       _("%s: the ring buffer uses the format of Linux 2.6.30 and older"),
                       self->display_name);
          return FALSE;
        }
      return TRUE;

    case CS_TD_SEC_FTRACE_EVENTS:
      if (!mc_u32 (&mc, &count, error))
        return FALSE;
      for (guint32 i = 0; i < count; i++)
        {
          if (!mc_u64 (&mc, &size64, error) || !mc_bytes (&mc, size64, &p, error))
            return FALSE;
          if (!format_wanted (self, p, size64))
            continue;
          if (tep_parse_event (tep, (const char *) p, (unsigned long) size64, "ftrace") != 0)
            (*n_failures)++;
        }
      return TRUE;

    case CS_TD_SEC_EVENT_FORMATS:
      {
        guint32 systems;

        if (!mc_u32 (&mc, &systems, error))
          return FALSE;
        for (guint32 i = 0; i < systems; i++)
          {
            const char *system = NULL;

            if (!mc_string (&mc, &system, error) || !mc_u32 (&mc, &count, error))
              return FALSE;
            for (guint32 j = 0; j < count; j++)
              {
                if (!mc_u64 (&mc, &size64, error) || !mc_bytes (&mc, size64, &p, error))
                  return FALSE;
                if (!format_wanted (self, p, size64))
                  continue;
                if (tep_parse_event (tep, (const char *) p, (unsigned long) size64, system) != 0)
                  (*n_failures)++;
              }
          }
        return TRUE;
      }

    case CS_TD_SEC_KALLSYMS:
    case CS_TD_SEC_PRINTK:
      if (!mc_u32 (&mc, &size32, error) || !mc_bytes (&mc, size32, &p, error))
        return FALSE;
      if (size32 > 0)
        with_terminated_text (buf + (p - buf), size32,
                              kind == CS_TD_SEC_KALLSYMS ? tep_parse_kallsyms
                                                         : tep_parse_printk_formats,
                              tep);
      return TRUE;

    case CS_TD_SEC_CMDLINES:
      if (!mc_u64 (&mc, &size64, error) || !mc_bytes (&mc, size64, &p, error))
        return FALSE;
      if (size64 > 0)
        with_terminated_text (buf + (p - buf), (gsize) size64, tep_parse_saved_cmdlines, tep);
      return TRUE;

    case CS_TD_N_SECTIONS:
    default:
      g_assert_not_reached ();
    }
}

/* libtraceevent's plugins register options in global lists, and its format
 * parser kept its tokenizer in process-global variables (input_buf,
 * input_buf_ptr, input_buf_siz in event-parse.c) before 1.7 moved them into
 * the tep_handle: building or tearing down any tep_handle must not overlap
 * with another, in any thread.  (Within one handle, 1.7's tep_filter_match()
 * resets that tokenizer: see _cs_event_filter_matches_record().) */
static GMutex parse_lock;

/**
 * cs_tracedat_reader_get_parse_lock:
 *
 * The lock CsTracedatReader holds while it builds or frees a #tep_handle
 * (cs_tracedat_reader_open(), cs_tracedat_cpu_get_tep(), the last unref of a
 * reader).  libtraceevent parses event formats with process-global state, so
 * other code of the process that makes libtraceevent parse formats or load
 * plugins (tracecmd_open(), tep_parse_event(), tep_load_plugins()) while
 * readers may be opened on other threads must hold it too.  Reading records
 * and decoding them (tep_data_pid(), tep_print_event()) need no lock.
 *
 * Returns: (transfer none): a process-wide #GMutex
 */
GMutex *
cs_tracedat_reader_get_parse_lock (void)
{
  return &parse_lock;
}

static void
tep_free_with_plugins (struct tep_handle *tep, struct tep_plugin_list *plugins)
{
  if (plugins != NULL)
    tep_unload_plugins (plugins, tep);
  tep_free (tep);
}

void
_cs_td_free_tep (struct tep_handle *tep, struct tep_plugin_list *plugins)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&parse_lock);

  if (tep != NULL)
    tep_free_with_plugins (tep, plugins);
}

struct tep_handle *
_cs_td_new_tep (CsTracedatReader        *self,
                gboolean                 full,
                struct tep_plugin_list **plugins,
                guint                   *n_parse_failures,
                GError                 **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&parse_lock);
  struct tep_handle *tep;
  struct tep_plugin_list *list = NULL;
  guint failures = 0;

  tep = tep_alloc ();
  if (tep == NULL)
    g_error ("tep_alloc: out of memory");
  tep_set_file_bigendian (tep, self->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size (tep, (int) self->long_size);
  tep_set_page_size (tep, (int) self->page_size);
  if (self->n_cpus > 0)
    tep_set_cpus (tep, (int) self->n_cpus);
  /* Plugins register print handlers by event name; like libtracecmd, load
   * them before the formats. */
  if (full)
    list = tep_load_plugins (tep);

  if (!self->sections[CS_TD_SEC_HEADER_INFO].present)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: the file has no header info section (header_page format)"),
                   self->display_name);
      tep_free_with_plugins (tep, list);
      return NULL;
    }

  for (guint k = 0; k < CS_TD_N_SECTIONS; k++)
    {
      const CsTdSection *sec = &self->sections[k];
      g_autofree guint8 *buf = NULL;
      gsize len = 0;

      /* kallsyms (~15 MB of text with a full kernel) only matter when
       * printing: cs_tracedat_reader_load_symbols() parses them on demand,
       * so that indexing never pays for them. */
      if (!sec->present || k == CS_TD_SEC_KALLSYMS)
        continue;
      if (!_cs_td_load_block (self, sec->offset, sec->size, sec->compressed,
                              _(section_names[k]), &buf, &len, error) ||
          !parse_section (self, tep, (CsTdSectionKind) k, buf, len, &failures, error))
        {
          tep_free_with_plugins (tep, list);
          return NULL;
        }
    }

  if (plugins != NULL)
    *plugins = list;
  if (n_parse_failures != NULL)
    *n_parse_failures = failures;
  return tep;
}

/* Parses the kallsyms section into @tep (the reader's handle), once. */
gboolean
_cs_td_load_kallsyms (CsTracedatReader  *self,
                      struct tep_handle *tep,
                      GError           **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&parse_lock);
  const CsTdSection *sec = &self->sections[CS_TD_SEC_KALLSYMS];
  g_autofree guint8 *buf = NULL;
  gsize len = 0;
  guint failures = 0;

  if (!sec->present)
    return TRUE;
  return _cs_td_load_block (self, sec->offset, sec->size, sec->compressed,
                            _(section_names[CS_TD_SEC_KALLSYMS]), &buf, &len, error) &&
         parse_section (self, tep, CS_TD_SEC_KALLSYMS, buf, len, &failures, error);
}
