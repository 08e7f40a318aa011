/* tracedat-rewrite.c: rewrites a compressed trace.dat v7 with another
 * codec (zstd, zlib), for the reader's tests: Debian's trace-cmd writes
 * only zstd.  Test code, never shipped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <zlib.h>
#include <zstd.h>

#include "cs-test-data.h"
#include "cs-tracedat-reader.h"
#include "tracedat-rewrite.h"

/* ------------------------------------------------------------------------ */
/* Rewriting a compressed v7 file with another codec                         */

/* The rewriter reads little-endian files only (all recordings at hand). */
static guint16 le16 (const guint8 *p) { guint16 v; memcpy (&v, p, 2); return GUINT16_FROM_LE (v); }
static guint32 le32 (const guint8 *p) { guint32 v; memcpy (&v, p, 4); return GUINT32_FROM_LE (v); }
static guint64 le64 (const guint8 *p) { guint64 v; memcpy (&v, p, 8); return GUINT64_FROM_LE (v); }
static void set_le64 (guint8 *p, guint64 v) { v = GUINT64_TO_LE (v); memcpy (p, &v, 8); }
static void put_le32 (GByteArray *o, guint32 v) { v = GUINT32_TO_LE (v); g_byte_array_append (o, (guint8 *) &v, 4); }
static void put_le64 (GByteArray *o, guint64 v) { v = GUINT64_TO_LE (v); g_byte_array_append (o, (guint8 *) &v, 8); }

typedef struct {
  guint64 offset;       /* of the section header */
  guint16 id, flags;
  guint64 size;
} Section;

typedef struct {
  guint64 old_offset, old_size, new_offset, new_size;
} CpuMove;

typedef struct {
  guint64 buffer_offset;  /* its flyrecord section */
  GArray *cpus;           /* CpuMove */
} BufferInfo;

typedef struct {
  const char *in_codec, *codec;
  GArray *chain;        /* guint64: options section offsets, in chain order */
  GArray *buffers;      /* BufferInfo */
  GHashTable *moves;    /* old section offset -> new one */
} Rewrite;

static GBytes *
codec_decompress (const char *codec, const guint8 *in, gsize in_len, gsize out_len)
{
  guint8 *out = g_malloc (MAX (out_len, 1));
  uLongf n = out_len;

  if (g_str_equal (codec, "zstd"))
    g_assert_cmpuint (ZSTD_decompress (out, out_len, in, in_len), ==, out_len);
  else
    g_assert_true (uncompress (out, &n, in, in_len) == Z_OK && n == out_len);
  return g_bytes_new_take (out, out_len);
}

/* Appends <u32 csize><u32 usize><data> of @data compressed with @codec
 * (zlib at the default level; trace-cmd uses 9, the file does not say). */
static void
put_compressed (GByteArray *out, const char *codec, GBytes *data)
{
  gsize len = g_bytes_get_size (data);
  gsize cap = g_str_equal (codec, "zstd") ? ZSTD_compressBound (len) : compressBound (len);
  g_autofree guint8 *z = g_malloc (cap);
  uLongf n = cap;

  if (g_str_equal (codec, "zstd"))
    g_assert_false (ZSTD_isError (n = ZSTD_compress (z, cap, g_bytes_get_data (data, NULL), len, 3)));
  else
    g_assert_cmpint (compress2 (z, &n, g_bytes_get_data (data, NULL), len, Z_DEFAULT_COMPRESSION), ==, Z_OK);
  put_le32 (out, (guint32) n);
  put_le32 (out, (guint32) len);
  g_byte_array_append (out, z, n);
}

static GBytes *
section_payload (const guint8 *buf, const char *codec, const Section *s)
{
  const guint8 *p = buf + s->offset + 16;

  if ((s->flags & 1) && s->size >= 8)
    return codec_decompress (codec, p + 8, le32 (p), le32 (p + 4));
  return g_bytes_new (p, s->size);
}

static guint64
moved (Rewrite *rw, guint64 old)
{
  gpointer v;

  if (!g_hash_table_lookup_extended (rw->moves, GSIZE_TO_POINTER (old), NULL, &v))
    g_error ("rewrite: nothing was moved from offset %" G_GUINT64_FORMAT, old);
  return GPOINTER_TO_SIZE (v);
}

/* Where the per-CPU table of a BUFFER option starts (after offset, name,
 * clock, page size and CPU count). */
static gsize
buffer_cpus_at (const guint8 *p)
{
  gsize pos = 8 + strlen ((const char *) p + 8) + 1;

  return pos + strlen ((const char *) p + pos) + 1 + 8;
}

/* Walks an options payload: collects (@collect) the DONE chain and the
 * BUFFER options, or patches their offsets (with the new offset of the next
 * options section in @next_new). */
static void
walk_options (Rewrite *rw, guint8 *p, gsize len, gboolean collect, guint64 next_new)
{
  for (gsize pos = 0; pos + 6 <= len;)
    {
      guint16 id = le16 (p + pos);
      guint32 size = le32 (p + pos + 2);
      guint8 *d = p + pos + 6;

      g_assert_cmpuint (pos + 6 + size, <=, len);
      pos += 6 + size;
      if (id == 0 && size >= 8)
        {
          if (collect && le64 (d) != 0)
            g_array_append_val (rw->chain, (guint64) { le64 (d) });
          if (!collect)
            set_le64 (d, next_new);
          break;
        }
      if (collect && id == 3)
        {
          BufferInfo b = { le64 (d), g_array_new (FALSE, TRUE, sizeof (CpuMove)) };
          gsize at = buffer_cpus_at (d);

          for (guint32 i = 0; i < le32 (d + at - 4); i++)
            g_array_append_val (b.cpus, ((CpuMove) { le64 (d + at + 20 * i + 4),
                                                     le64 (d + at + 20 * i + 12), 0, 0 }));
          g_array_append_val (rw->buffers, b);
        }
      else if (!collect && ((id >= 16 && id <= 22) || id == 3))
        set_le64 (d, moved (rw, le64 (d)));
      if (!collect && id == 3)
        {
          gsize at = buffer_cpus_at (d);

          for (guint32 i = 0; i < le32 (d + at - 4); i++)
            for (guint b = 0; b < rw->buffers->len; b++)
              {
                GArray *cpus = g_array_index (rw->buffers, BufferInfo, b).cpus;

                for (guint c = 0; c < cpus->len; c++)
                  {
                    CpuMove *m = &g_array_index (cpus, CpuMove, c);
                    guint8 *e = d + at + 20 * i;

                    if (m->old_size != 0 && m->old_offset == le64 (e + 4) && m->old_size == le64 (e + 12))
                      {
                        set_le64 (e + 4, m->new_offset);
                        set_le64 (e + 12, m->new_size);
                      }
                  }
              }
        }
    }
}

/* A copy of an options payload where the BUFFER option of instance
 * @promote becomes the top buffer (named "") and the old top BUFFER option is
 * dropped (`trace-cmd extract -B NAME` stores a private instance that way),
 * and where @extra (whole options) goes before the DONE option. */
static GByteArray *
edit_options (const guint8 *p, gsize len, const char *promote, GBytes *extra)
{
  GByteArray *out = g_byte_array_new ();

  for (gsize pos = 0; pos + 6 <= len;)
    {
      guint16 id = le16 (p + pos);
      guint32 size = le32 (p + pos + 2);
      const guint8 *d = p + pos + 6;
      const char *name = (const char *) d + 8;

      pos += 6 + size;
      if (promote != NULL && id == 3 && name[0] == '\0')
        continue;
      if (promote != NULL && id == 3 && g_str_equal (name, promote))
        {
          gsize skip = strlen (name);

          g_byte_array_append (out, d - 6, 2);
          put_le32 (out, size - (guint32) skip);
          g_byte_array_append (out, d, 8);
          g_byte_array_append (out, d + 8 + skip, size - 8 - skip);
          continue;
        }
      if (id == 0 && extra != NULL)
        g_byte_array_append (out, g_bytes_get_data (extra, NULL), g_bytes_get_size (extra));
      g_byte_array_append (out, d - 6, 6 + size);
      if (id == 0)
        break;
    }
  return out;
}

/* The CPU data of one CPU, each chunk decompressed and compressed again;
 * the BUFFER option's size keeps the writer's convention (with or without
 * the 4-byte chunk count). */
static void
rewrite_cpu (Rewrite *rw, const guint8 *buf, gboolean compressed, GByteArray *out, CpuMove *m)
{
  const guint8 *p = buf + m->old_offset;
  guint32 count;

  m->new_offset = out->len;
  if (!compressed)
    {
      g_byte_array_append (out, p, m->old_size);
      m->new_size = m->old_size;
      return;
    }
  count = le32 (p);
  put_le32 (out, count);
  for (p += 4; count-- > 0; p += 8 + le32 (p))
    {
      g_autoptr(GBytes) raw = codec_decompress (rw->in_codec, p + 8, le32 (p), le32 (p + 4));
      put_compressed (out, rw->codec, raw);
    }
  g_assert_true ((gsize) (p - buf) == m->old_offset + m->old_size ||
                 (gsize) (p - buf) == m->old_offset + m->old_size + 4);
  m->new_size = out->len - m->new_offset -
                ((gsize) (p - buf) == m->old_offset + m->old_size ? 0 : 4);
}

/* Rewrites the compressed v7 file @in into @out with @codec ("zstd" or
 * "zlib"): the sections in file order, the options sections last (last of
 * the chain first, so each DONE knows its next); each compressed section and
 * each chunk of CPU data decompressed and compressed again (chunk boundaries
 * kept), CPU data page-aligned, and every offset in the header and the
 * options (sections, DONE, BUFFER and its per-CPU offsets and sizes)
 * remapped.  With @promote, the instance buffer of that name becomes the top
 * buffer; options in @extra_options are added to the first options section. */
void
cs_test_rewrite_v7 (const char *in, const char *out_path, const char *codec, const char *promote,
            GBytes *extra_options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (Section));
  g_autofree guint8 *buf = NULL;
  Rewrite rw = { NULL, codec, g_array_new (FALSE, FALSE, sizeof (guint64)),
                 g_array_new (FALSE, TRUE, sizeof (BufferInfo)), g_hash_table_new (NULL, NULL) };
  const char *ver = g_str_equal (codec, "zlib") ? zlibVersion () : ZSTD_versionString ();
  gsize len, pos, opt_at;
  guint64 next_new = 0;
  guint32 page;

  g_assert_true (g_file_get_contents (in, (char **) &buf, &len, &error));
  g_assert_true (memcmp (buf, "\x17\x08\x44tracing" "7\0\0", 13) == 0);   /* v7, LE */
  page = le32 (buf + 14);
  rw.in_codec = (const char *) buf + 18;
  g_assert_true (g_str_equal (rw.in_codec, "zstd") || g_str_equal (rw.in_codec, "zlib"));
  pos = 18 + strlen (rw.in_codec) + 1;
  pos += strlen ((char *) buf + pos) + 1;
  g_array_append_val (rw.chain, (guint64) { le64 (buf + pos) });
  for (pos += 8; pos + 16 <= len; pos += 16 + g_array_index (sections, Section, sections->len - 1).size)
    {
      g_array_append_val (sections, ((Section) { pos, le16 (buf + pos), le16 (buf + pos + 2),
                                                 le64 (buf + pos + 8) }));
      g_assert_cmpuint (pos + 16 + le64 (buf + pos + 8), <=, len);
    }
  for (guint i = 0; i < rw.chain->len; i++)
    for (guint j = 0; j < sections->len; j++)
      if (g_array_index (sections, Section, j).offset == g_array_index (rw.chain, guint64, i))
        {
          g_autoptr(GBytes) p = section_payload (buf, rw.in_codec, &g_array_index (sections, Section, j));
          g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (p, NULL), g_bytes_get_size (p));
          walk_options (&rw, copy, g_bytes_get_size (p), TRUE, 0);
        }

  g_byte_array_append (out, buf, 18);
  g_byte_array_append (out, (const guint8 *) codec, strlen (codec) + 1);
  g_byte_array_append (out, (const guint8 *) ver, strlen (ver) + 1);
  opt_at = out->len;
  put_le64 (out, 0);

  for (guint j = 0; j < sections->len; j++)
    {
      const Section *s = &g_array_index (sections, Section, j);
      gsize start = out->len;
      BufferInfo *b = NULL;

      if (s->id == 0)
        continue;
      g_hash_table_insert (rw.moves, GSIZE_TO_POINTER (s->offset), GSIZE_TO_POINTER (start));
      for (guint i = 0; i < rw.buffers->len; i++)
        if (g_array_index (rw.buffers, BufferInfo, i).buffer_offset == s->offset)
          b = &g_array_index (rw.buffers, BufferInfo, i);
      g_byte_array_append (out, buf + s->offset, 8);
      put_le64 (out, 0);
      if (s->id == 3 && b != NULL)
        for (guint c = 0; c < b->cpus->len; c++)
          {
            if (g_array_index (b->cpus, CpuMove, c).old_size == 0)
              continue;
            while (out->len % page != 0)
              g_byte_array_append (out, (const guint8 *) "", 1);
            rewrite_cpu (&rw, buf, s->flags & 1, out, &g_array_index (b->cpus, CpuMove, c));
          }
      else if ((s->flags & 1) && s->size >= 8)
        {
          g_autoptr(GBytes) raw = section_payload (buf, rw.in_codec, s);
          put_compressed (out, codec, raw);
        }
      else
        g_byte_array_append (out, buf + s->offset + 16, s->size);
      set_le64 (out->data + start + 8, out->len - start - 16);
    }

  for (guint i = rw.chain->len; i-- > 0;)
    for (guint j = 0; j < sections->len; j++)
      {
        const Section *s = &g_array_index (sections, Section, j);
        g_autoptr(GBytes) p = NULL;
        g_autoptr(GByteArray) opts = NULL;
        gsize start = out->len;

        if (s->offset != g_array_index (rw.chain, guint64, i))
          continue;
        p = section_payload (buf, rw.in_codec, s);
        opts = edit_options (g_bytes_get_data (p, NULL), g_bytes_get_size (p), promote,
                             i == 0 ? extra_options : NULL);
        walk_options (&rw, opts->data, opts->len, FALSE, next_new);
        g_byte_array_append (out, buf + s->offset, 8);
        put_le64 (out, 0);
        if (s->flags & 1)
          {
            g_autoptr(GBytes) raw = g_bytes_new_static (opts->data, opts->len);
            put_compressed (out, codec, raw);
          }
        else
          g_byte_array_append (out, opts->data, opts->len);
        set_le64 (out->data + start + 8, out->len - start - 16);
        next_new = start;
      }
  set_le64 (out->data + opt_at, next_new);

  g_assert_true (g_file_set_contents (out_path, (const char *) out->data, out->len, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < rw.buffers->len; i++)
    g_array_unref (g_array_index (rw.buffers, BufferInfo, i).cpus);
  g_array_unref (rw.buffers);
  g_array_unref (rw.chain);
  g_hash_table_unref (rw.moves);
}

/* Appends one option (trace-cmd.dat.v7(5): u16 id, u32 size, payload, little
 * endian) to @opts, for the @extra_options of cs_test_rewrite_v7(). */
void
cs_test_add_option (GByteArray *opts, guint16 id, const void *data, guint32 size)
{
  guint16 id_le = GUINT16_TO_LE (id);
  guint32 size_le = GUINT32_TO_LE (size);

  g_byte_array_append (opts, (guint8 *) &id_le, 2);
  g_byte_array_append (opts, (guint8 *) &size_le, 4);
  g_byte_array_append (opts, data, size);
}

/* A TIME_SHIFT payload (trace-cmd.dat.v7(5) option 12): every vCPU gets
 * the same @n samples. */
GBytes *
cs_test_time_shift (guint64 peer, guint32 flags, guint32 n_vcpus, guint n, const gint64 *times,
                    const gint64 *offsets, gint64 scaling)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  guint64 p = GUINT64_TO_LE (peer);
  guint32 f = GUINT32_TO_LE (flags), c = GUINT32_TO_LE (n_vcpus), cnt = GUINT32_TO_LE (n);

  g_byte_array_append (b, (guint8 *) &p, 8);
  g_byte_array_append (b, (guint8 *) &f, 4);
  g_byte_array_append (b, (guint8 *) &c, 4);
  for (guint v = 0; v < n_vcpus; v++)
    {
      g_byte_array_append (b, (guint8 *) &cnt, 4);
      for (guint i = 0; i < n; i++)
        {
          guint64 x = GUINT64_TO_LE ((guint64) times[i]);
          g_byte_array_append (b, (guint8 *) &x, 8);
        }
      for (guint i = 0; i < n; i++)
        {
          guint64 x = GUINT64_TO_LE ((guint64) offsets[i]);
          g_byte_array_append (b, (guint8 *) &x, 8);
        }
      for (guint i = 0; i < n; i++)
        {
          guint64 x = GUINT64_TO_LE ((guint64) scaling);
          g_byte_array_append (b, (guint8 *) &x, 8);
        }
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&b));
}

/* tests/data/sched-irq-v7.dat rewritten (zstd) into the user runtime dir as
 * @name, with a TRACEID of @id (0: its own, 0x18F0951CFE227E41), @shift as
 * its TIME_SHIFT (nullable) and a TSC2NSEC (multiplier 3, shift 1) when
 * @tsc.  Returns the new file's path. */
char *
cs_test_make_peer_recording (const char *name, guint64 id, GBytes *shift, gboolean tsc)
{
  g_autofree char *src = cs_test_own_path ("sched-irq-v7.dat");
  char *path = g_build_filename (g_get_user_runtime_dir (), name, NULL);
  g_autoptr(GByteArray) opts = g_byte_array_new ();
  g_autoptr(GBytes) extra = NULL;
  guint64 id_le = GUINT64_TO_LE (id);
  guint32 tsc_opt[4] = { GUINT32_TO_LE (3), GUINT32_TO_LE (1), 0, 0 };

  g_assert_nonnull (src);
  if (id != 0)
    cs_test_add_option (opts, 11, &id_le, 8);
  if (shift != NULL)
    cs_test_add_option (opts, 12, g_bytes_get_data (shift, NULL), (guint32) g_bytes_get_size (shift));
  if (tsc)
    cs_test_add_option (opts, 14, tsc_opt, sizeof tsc_opt);
  extra = g_byte_array_free_to_bytes (g_steal_pointer (&opts));
  cs_test_rewrite_v7 (src, path, "zstd", NULL, extra);
  return path;
}

/* The CPU count of sched-irq-v7.dat and the ring-buffer time of its first
 * record (of its first CPU with data). */
guint
cs_test_sample_cpus (gint64 *first_raw)
{
  g_autofree char *src = cs_test_own_path ("sched-irq-v7.dat");
  g_autoptr(CsTracedatReader) r = cs_tracedat_reader_open (src, NULL);
  gboolean found = FALSE;

  g_assert_nonnull (r);
  for (guint cpu = 0; !found && cpu < cs_tracedat_reader_get_n_cpus (r); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      CsTracedatRecord rec;

      if (cs_tracedat_reader_get_cpu_data_size (r, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (r, cpu, NULL);
      found = stream != NULL && cs_tracedat_cpu_next (stream, &rec, NULL);
      if (found)
        *first_raw = (gint64) rec.raw_ts;
    }
  g_assert_true (found);
  return cs_tracedat_reader_get_n_cpus (r);
}
