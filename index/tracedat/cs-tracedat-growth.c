/* cs-tracedat-growth.c: trace.dat snapshots that grow in place.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cs_tracedat_writer_finish_growing() writes the snapshots of a recording
 * in progress.  Each snapshot's CPU data extends the previous one's, so
 * the new file is a hard link to the previous one, updated in place: the
 * pages added since are copied, then the header is rewritten.  The
 * layout (CsTracedatGrowth) leaves each CPU room to grow, as holes.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "cs-output-file-private.h"
#include "cs-tracedat-writer-private.h"

/* What cs_tracedat_writer_finish_growing() wrote last. */
struct _CsTracedatGrowth
{
  char *path;
  guint n_cpus;
  guint64 header_room;    /* the first CPU's data starts here */
  gsize header_len;       /* the header written last */
  guint64 *offset;        /* per CPU: where its data starts */
  guint64 *room;          /* per CPU: bytes it may grow to */
  guint64 *size;          /* per CPU: bytes of its data in the file */
};

/**
 * cs_tracedat_growth_free:
 * @growth: (transfer full) (nullable): what cs_tracedat_writer_finish_growing()
 *   keeps
 */
void
cs_tracedat_growth_free (CsTracedatGrowth *growth)
{
  if (growth == NULL)
    return;
  g_free (growth->path);
  g_free (growth->offset);
  g_free (growth->room);
  g_free (growth->size);
  g_free (growth);
}

/* Whether the file @g describes can take @self's data and @header_len
 * bytes of header in place. */
static gboolean
growth_fits (CsTracedatWriter       *self,
             const CsTracedatGrowth *g,
             gsize                   header_len)
{
  if (g == NULL || g->n_cpus != self->n_cpus || header_len > g->header_room ||
      !g_file_test (g->path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    if (self->cpus[cpu].size < g->size[cpu] || self->cpus[cpu].size > g->room[cpu])
      return FALSE;
  return TRUE;
}

/* A layout with room for 8 times what there is (at least 256 MiB a CPU):
 * the whole file is written again only when a CPU's data outgrows that,
 * so each byte is copied about 1.15 times, and a long recording pauses
 * its refreshes for such a copy at 256 MiB, 2 GiB and 16 GiB of a CPU.
 * The rooms are holes: the file's apparent size is larger than its data,
 * its disk use is not. */
static CsTracedatGrowth *
growth_new (CsTracedatWriter *self,
            gsize             header_len)
{
  CsTracedatGrowth *g = g_new0 (CsTracedatGrowth, 1);
  guint64 page = self->page_size, pos;

  g->n_cpus = self->n_cpus;
  g->offset = g_new0 (guint64, MAX (self->n_cpus, 1));
  g->room = g_new0 (guint64, MAX (self->n_cpus, 1));
  g->size = g_new0 (guint64, MAX (self->n_cpus, 1));
  g->header_room = (MAX ((guint64) header_len * 2, 1024 * 1024) + page - 1) / page * page;
  pos = g->header_room;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g->offset[cpu] = pos;
      g->room[cpu] = (MAX (self->cpus[cpu].size * 8, (guint64) 256 * 1024 * 1024) + page - 1)
                     / page * page;
      pos += g->room[cpu];
    }
  return g;
}

/**
 * cs_tracedat_writer_finish_growing:
 * @self: a writer with everything set, as for cs_tracedat_writer_finish()
 * @growth: (inout) (transfer full): what the previous call kept, or %NULL
 *   the first time; free it with cs_tracedat_growth_free()
 * @cancellable: (nullable): stops the copy of the CPU data
 * @error: as for cs_tracedat_writer_finish()
 *
 * Writes the same trace.dat as cs_tracedat_writer_finish(), for a series
 * of files whose CPU data each extend the previous one's (the snapshots
 * of a recording in progress), at a cost that follows what was added, not
 * what the file holds.  Each CPU's data is placed with room to grow (the
 * rest of its room is a hole: the file takes no more disk than its data).
 * When @growth describes the file written last and it still exists, and
 * every CPU's data still fits its room, the new path becomes a hard link
 * to that file, which is updated in place: the data added since is
 * copied, then the header (with the new sizes) rewritten.  Otherwise a new
 * file is written, under a temporary name and renamed.  The data of the
 * earlier files is never changed: a reader of one of them, which knows
 * its sizes from its header, reads the same records (only the header
 * bytes after the kallsyms and printk formats change).
 *
 * Returns: %TRUE when the path was written
 */
gboolean
cs_tracedat_writer_finish_growing (CsTracedatWriter  *self,
                                   CsTracedatGrowth **growth,
                                   GCancellable      *cancellable,
                                   GError           **error)
{
  g_autoptr(GByteArray) header = NULL;
  CsTracedatGrowth *g = *growth;
  gsize table_pos = 0;
  gboolean in_place;
  guint64 end = 0;
  struct stat st;

  g_return_val_if_fail (CS_IS_TRACEDAT_WRITER (self), FALSE);
  g_return_val_if_fail (self->fd < 0, FALSE);

  if (self->header_page == NULL || self->header_event == NULL)
    return cs_tracedat_writer_finish (self, cancellable, error);
  if (!_cs_tracedat_writer_check_sizes (self, error))
    return FALSE;

  header = _cs_tracedat_writer_build_header (self, &table_pos);
  in_place = growth_fits (self, g, header->len) &&
             _cs_record_link (g->path, self->path, self->owner_uid, self->owner_gid, NULL);
  if (in_place)
    {
      self->fd = open (self->path, O_WRONLY | O_CLOEXEC);
      if (self->fd < 0)
        {
          _cs_record_output_error (error, errno, _("Cannot write “%s”"), self->path);
          g_unlink (self->path);
          return FALSE;
        }
    }
  else
    {
      g = growth_new (self, header->len);
      self->fd = _cs_record_create_temp (self->path, ".part", self->owner_uid, self->owner_gid,
                                         &self->temp_path, error);
      if (self->fd < 0)
        {
          cs_tracedat_growth_free (g);
          return FALSE;
        }
    }

  /* The data first, the header last: a reader of this file never finds
   * sizes its data does not have yet. */
  _cs_tracedat_writer_set_cpu_table (self, header, table_pos, g->offset);
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      guint64 from = in_place ? g->size[cpu] : 0;

      if (self->cpus[cpu].size > from &&
          !_cs_tracedat_writer_copy_range (self, cpu, self->cpus[cpu].fd, from, self->cpus[cpu].size, g->offset[cpu],
                       cancellable, error))
        goto fail;
      end = MAX (end, g->offset[cpu] + self->cpus[cpu].size);
    }
  /* The last CPU's data may be empty: the file reaches where it starts. */
  if (fstat (self->fd, &st) != 0 || ((guint64) st.st_size < end && ftruncate (self->fd, (off_t) end) != 0))
    {
      _cs_record_output_error (error, errno, _("Cannot write “%s”"), self->path);
      goto fail;
    }
  if (!_cs_tracedat_writer_pwrite_all (self, header->data, header->len, 0, error))
    goto fail;
  if (in_place && header->len < g->header_len)
    {
      g_autofree guint8 *zeros = g_malloc0 (g->header_len - header->len);

      if (!_cs_tracedat_writer_pwrite_all (self, zeros, g->header_len - header->len, header->len, error))
        goto fail;
    }
  if (!_cs_tracedat_writer_close_output (self, error))
    goto fail;

  g->header_len = header->len;
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    g->size[cpu] = self->cpus[cpu].size;
  g_free (g->path);
  g->path = g_strdup (self->path);
  if (g != *growth)
    {
      cs_tracedat_growth_free (*growth);
      *growth = g;
    }
  return TRUE;

fail:
  cs_tracedat_writer_abort (self);
  if (in_place)
    {
      /* The link is the only name of nothing new: the file written last
       * keeps its own name and header. */
      g_unlink (self->path);
      g_clear_pointer (growth, cs_tracedat_growth_free);
    }
  else
    cs_tracedat_growth_free (g);
  return FALSE;
}

