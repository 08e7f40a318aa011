/* tracedat-pair.c: a v6 recording rewritten by Chronoscope's writer with
 * other peer options (TRACEID, TIME_SHIFT, GUEST, TSC2NSEC), and the
 * "cs-pair:" markers of tests/data/make-host-guest-pair.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Used by make-host-guest-pair (which makes tests/data/pair/pair-*-v6.dat) and
 * by the tests that make damaged pairs from them: every file goes through
 * the writer's public calls, none is edited byte by byte.  The v6 layout
 * is the one cs-tracedat-writer.c writes (trace-cmd.dat.v6(5)); a
 * little-endian file of this machine's long size is all it needs to read.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cs-tracedat-private.h"
#include "tracedat-pair.h"

typedef struct {
  const guint8 *data;
  gsize size;
  gsize pos;
  gboolean short_read;
} Cursor;

static const guint8 *
take (Cursor *c, gsize n)
{
  const guint8 *p;

  if (c->short_read || n > c->size - c->pos)
    {
      c->short_read = TRUE;
      return NULL;
    }
  p = c->data + c->pos;
  c->pos += n;
  return p;
}

static guint64
take_uint (Cursor *c, gsize n)
{
  const guint8 *p = take (c, n);
  guint64 v = 0;

  if (p != NULL)
    memcpy (&v, p, n);   /* little endian, checked by the caller */
  return v;
}

static GBytes *
take_sized (Cursor *c, gsize size_bytes)
{
  guint64 n = take_uint (c, size_bytes);
  const guint8 *p = take (c, (gsize) MIN (n, (guint64) G_MAXSIZE));

  return p != NULL ? g_bytes_new (p, (gsize) n) : NULL;
}

static const char *
take_string (Cursor *c)
{
  const guint8 *start = c->data + c->pos;
  const guint8 *nul = c->pos < c->size ? memchr (start, '\0', c->size - c->pos) : NULL;

  if (nul == NULL)
    {
      c->short_read = TRUE;
      return NULL;
    }
  c->pos += (gsize) (nul - start) + 1;
  return (const char *) start;
}

static gboolean
is_peer_option (guint16 id)
{
  return id == CS_TD_OPTION_TRACEID || id == CS_TD_OPTION_TIME_SHIFT ||
         id == CS_TD_OPTION_GUEST || id == CS_TD_OPTION_TSC2NSEC ||
         id == CS_TD_OPTION_TRACECLOCK;
}

/* Writes bytes [@offset, @offset + @size) of @c to a new temporary file;
 * returns its fd (-1 on error), its path in @path. */
static int
cpu_data_file (Cursor *c, guint64 offset, guint64 size, char **path, GError **error)
{
  int fd;

  if (offset > c->size || size > c->size - offset)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "CPU data at %" G_GUINT64_FORMAT " (+%" G_GUINT64_FORMAT ") past the end",
                   offset, size);
      return -1;
    }
  fd = g_file_open_tmp ("cs-pair-cpu-XXXXXX", path, error);
  if (fd < 0)
    return -1;
  if (size > 0 && write (fd, c->data + offset, size) != (ssize_t) size)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s", g_strerror (errno));
      close (fd);
      return -1;
    }
  return fd;
}

/* cs_test_rewrite_v6_peer: writes @out_path with Chronoscope's writer: the
 * v6 recording @in_path's formats, symbols, cmdlines, options (but its
 * TRACEID, TIME_SHIFT, GUEST and TSC2NSEC), trace clock and CPU data, then
 * the options of @peer.  G_IO_ERROR on a file it cannot read. */
gboolean
cs_test_rewrite_v6_peer (const char              *in_path,
                         const char              *out_path,
                         const CsTestPeerOptions *peer,
                         GError                 **error)
{
  g_autoptr(GMappedFile) map = g_mapped_file_new (in_path, FALSE, error);
  g_autoptr(CsTracedatWriter) writer = NULL;
  g_autoptr(GPtrArray) temp_paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *clock_text = NULL;
  Cursor c = { 0 };
  guint32 page_size, n, n_cpus;
  gboolean ok = FALSE;
  const char *version;

  if (map == NULL)
    return FALSE;
  c.data = (const guint8 *) g_mapped_file_get_contents (map);
  c.size = g_mapped_file_get_length (map);

  take (&c, 10);
  version = take_string (&c);
  if (c.short_read || memcmp (c.data, "\x17\x08\x44tracing", 10) != 0 ||
      g_strcmp0 (version, "6") != 0 || take_uint (&c, 1) != 0 ||
      take_uint (&c, 1) != sizeof (long))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s is not a little-endian v6 trace.dat of this machine", in_path);
      return FALSE;
    }
  page_size = (guint32) take_uint (&c, 4);
  if (page_size < 64 || page_size > CS_TD_MAX_PAGE_SIZE || (page_size & (page_size - 1)) != 0)
    goto corrupt;

  /* Parsed in full first: the CPU count comes last. */
  {
    g_autoptr(GBytes) header_page = NULL, header_event = NULL;
    g_autoptr(GBytes) kallsyms = NULL, printk = NULL, cmdlines = NULL;
    g_autoptr(GPtrArray) ftrace = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    g_autoptr(GPtrArray) formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    g_autoptr(GPtrArray) systems = g_ptr_array_new ();   /* borrowed names */
    g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
    g_autoptr(GArray) option_ids = g_array_new (FALSE, FALSE, sizeof (guint16));
    guint32 n_systems;

    if (g_strcmp0 (take_string (&c), "header_page") != 0)
      goto corrupt;
    header_page = take_sized (&c, 8);
    if (g_strcmp0 (take_string (&c), "header_event") != 0)
      goto corrupt;
    header_event = take_sized (&c, 8);
    n = (guint32) take_uint (&c, 4);
    for (guint i = 0; i < n && !c.short_read; i++)
      {
        GBytes *f = take_sized (&c, 8);

        if (f != NULL)
          g_ptr_array_add (ftrace, f);
      }
    n_systems = (guint32) take_uint (&c, 4);
    for (guint s = 0; s < n_systems && !c.short_read; s++)
      {
        const char *name = take_string (&c);

        n = (guint32) take_uint (&c, 4);
        for (guint i = 0; i < n && !c.short_read; i++)
          {
            GBytes *f = take_sized (&c, 8);

            if (f == NULL)
              break;
            g_ptr_array_add (formats, f);
            g_ptr_array_add (systems, (gpointer) name);
          }
      }
    kallsyms = take_sized (&c, 4);
    printk = take_sized (&c, 4);
    cmdlines = take_sized (&c, 8);
    n_cpus = (guint32) take_uint (&c, 4);
    if (c.short_read || n_cpus > CS_TD_MAX_CPUS || g_strcmp0 (take_string (&c), "options  ") != 0)
      goto corrupt;
    for (;;)
      {
        guint16 id = (guint16) take_uint (&c, 2);
        GBytes *data;

        if (id == CS_TD_OPTION_DONE || c.short_read)
          break;
        data = take_sized (&c, 4);
        if (data == NULL)
          goto corrupt;
        g_ptr_array_add (options, data);
        g_array_append_val (option_ids, id);
      }
    if (g_strcmp0 (take_string (&c), "flyrecord") != 0)
      goto corrupt;

    writer = cs_tracedat_writer_new (out_path, page_size, n_cpus);
    cs_tracedat_writer_set_header_page (writer, header_page);
    cs_tracedat_writer_set_header_event (writer, header_event);
    for (guint i = 0; i < ftrace->len; i++)
      cs_tracedat_writer_add_ftrace_format (writer, g_ptr_array_index (ftrace, i));
    for (guint i = 0; i < formats->len; i++)
      cs_tracedat_writer_add_event_format (writer, g_ptr_array_index (systems, i),
                                           g_ptr_array_index (formats, i));
    cs_tracedat_writer_set_kallsyms (writer, kallsyms);
    cs_tracedat_writer_set_printk_formats (writer, printk);
    cs_tracedat_writer_set_cmdlines (writer, cmdlines);

    for (guint cpu = 0; cpu < n_cpus; cpu++)
      {
        guint64 offset = take_uint (&c, 8), size = take_uint (&c, 8);
        char *path = NULL;
        int fd;

        if (c.short_read)
          goto corrupt;
        fd = cpu_data_file (&c, offset, size, &path, error);
        if (fd < 0)
          goto out;
        g_ptr_array_add (temp_paths, path);
        g_array_append_val (fds, fd);
        cs_tracedat_writer_set_cpu_data (writer, cpu, fd, size);
      }
    for (guint i = 0; i < option_ids->len; i++)
      {
        guint16 id = g_array_index (option_ids, guint16, i);

        if (id == CS_TD_OPTION_TRACECLOCK)
          {
            /* The text after the flyrecord table is the same. */
            g_autoptr(GBytes) text = take_sized (&c, 8);

            if (text != NULL)
              clock_text = g_strndup (g_bytes_get_data (text, NULL), g_bytes_get_size (text));
          }
        else if (!is_peer_option (id))
          cs_tracedat_writer_add_option (writer, id, g_ptr_array_index (options, i));
      }
  }

  if (clock_text != NULL)
    cs_tracedat_writer_set_trace_clock (writer, clock_text);
  if (peer->has_trace_id)
    cs_tracedat_writer_set_trace_id (writer, peer->trace_id);
  if (peer->time_shift != NULL)
    cs_tracedat_writer_add_time_shift (writer, peer->time_shift);
  if (peer->guest != NULL)
    cs_tracedat_writer_add_guest (writer, peer->guest);
  if (peer->tsc2nsec_mult != 0)
    cs_tracedat_writer_set_tsc2nsec (writer, peer->tsc2nsec_mult, peer->tsc2nsec_shift, 0);
  ok = cs_tracedat_writer_finish (writer, NULL, error);
  goto out;

corrupt:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "%s: cannot follow its v6 layout (stopped at byte %zu)", in_path, c.pos);
out:
  for (guint i = 0; i < fds->len; i++)
    close (g_array_index (fds, int, i));
  for (guint i = 0; i < temp_paths->len; i++)
    g_unlink (g_ptr_array_index (temp_paths, i));
  return ok;
}

/* cs_test_pair_read_marks: the "cs-pair: @what SEQ" markers (ftrace:print
 * payloads) of every CPU of @reader, as an array of CsTestPairMark indexed
 * by SEQ (entries without a marker have seen = FALSE). */
GArray *
cs_test_pair_read_marks (CsTracedatReader *reader,
                         const char       *what,
                         GError          **error)
{
  g_autoptr(GArray) marks = g_array_new (FALSE, TRUE, sizeof (CsTestPairMark));
  g_autofree char *prefix = g_strdup_printf ("cs-pair: %s ", what);
  gsize prefix_len = strlen (prefix);

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      CsTracedatRecord rec;
      GError *local = NULL;

      if (cs_tracedat_reader_get_cpu_data_size (reader, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (reader, cpu, error);
      if (stream == NULL)
        return NULL;
      while (cs_tracedat_cpu_next (stream, &rec, &local))
        {
          const guint8 *hit = memmem (rec.data, rec.size, prefix, prefix_len);
          char digits[16] = "";
          gsize avail;
          guint64 seq;
          CsTestPairMark *m;

          if (hit == NULL)
            continue;
          avail = rec.size - (gsize) (hit - rec.data) - prefix_len;
          memcpy (digits, hit + prefix_len, MIN (avail, sizeof digits - 1));
          digits[strspn (digits, "0123456789")] = '\0';
          if (!g_ascii_string_to_unsigned (digits, 10, 0, 1000000, &seq, NULL))
            continue;
          if (seq >= marks->len)
            g_array_set_size (marks, (guint) seq + 1);
          m = &g_array_index (marks, CsTestPairMark, seq);
          m->seen = TRUE;
          m->raw_ts = rec.raw_ts;
          m->ts_ns = rec.ts_ns;
          m->cpu = rec.cpu;
        }
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return NULL;
        }
    }
  return g_steal_pointer (&marks);
}

/* cs_test_pair_get_exchange: the three markers of exchange @seq (host send
 * and recv, guest receipt) from the arrays of cs_test_pair_read_marks();
 * FALSE when one of them is missing. */
gboolean
cs_test_pair_get_exchange (GArray                *send,
                           GArray                *recv,
                           GArray                *got,
                           guint                  seq,
                           const CsTestPairMark **s,
                           const CsTestPairMark **r,
                           const CsTestPairMark **g)
{
  if (seq >= send->len || seq >= recv->len || seq >= got->len)
    return FALSE;
  *s = &g_array_index (send, CsTestPairMark, seq);
  *r = &g_array_index (recv, CsTestPairMark, seq);
  *g = &g_array_index (got, CsTestPairMark, seq);
  return (*s)->seen && (*r)->seen && (*g)->seen;
}
