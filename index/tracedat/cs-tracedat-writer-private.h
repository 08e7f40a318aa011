/* cs-tracedat-writer-private.h: the trace.dat writer's state, for the
 * files that write it (cs-tracedat-writer.c, cs-tracedat-growth.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-tracedat-writer.h"

G_BEGIN_DECLS

typedef struct {
  char *name;
  GPtrArray *formats;   /* GBytes */
} SystemFormats;

typedef struct {
  guint16 id;
  GBytes *data;
} Option;

typedef struct {
  int fd;               /* borrowed */
  guint64 size;
} CpuData;

struct _CsTracedatWriter
{
  GObject parent_instance;

  /* owned */
  char *path;
  char *temp_path;
  int fd;
  guint page_size;
  guint n_cpus;
  gint64 owner_uid;
  gint64 owner_gid;
  GBytes *header_page;
  GBytes *header_event;
  GPtrArray *ftrace_formats;   /* GBytes */
  GPtrArray *systems;          /* SystemFormats */
  GBytes *kallsyms;
  GBytes *printk_formats;
  GBytes *cmdlines;
  char *trace_clock;
  GArray *options;             /* Option */
  CpuData *cpus;
};

/* kallsyms and printk_formats fit their 4-byte sizes (CS_RECORD_ERROR_FAILED). */
gboolean    _cs_tracedat_writer_check_sizes   (CsTracedatWriter  *self,
                                               GError           **error);
/* Everything before the CPU data, in memory; *@table_pos is where the
 * flyrecord table of (offset, size) pairs starts. */
GByteArray *_cs_tracedat_writer_build_header  (CsTracedatWriter  *self,
                                               gsize             *table_pos);
/* Fills the flyrecord table of @header: each CPU's @offsets and size. */
void        _cs_tracedat_writer_set_cpu_table (CsTracedatWriter  *self,
                                               GByteArray        *header,
                                               gsize              table_pos,
                                               const guint64     *offsets);
/* Writes @len bytes at @offset of the output. */
gboolean    _cs_tracedat_writer_pwrite_all    (CsTracedatWriter  *self,
                                               const void        *data,
                                               gsize              len,
                                               guint64            offset,
                                               GError           **error);
/* Copies bytes [@from, @to) of @src to the output at @dst_base + @from. */
gboolean    _cs_tracedat_writer_copy_range    (CsTracedatWriter  *self,
                                               guint              cpu,
                                               int                src,
                                               guint64            from,
                                               guint64            to,
                                               guint64            dst_base,
                                               GCancellable      *cancellable,
                                               GError           **error);
/* Closes the output and renames it into place when it was written under a
 * temporary name. */
gboolean    _cs_tracedat_writer_close_output  (CsTracedatWriter  *self,
                                               GError           **error);

G_END_DECLS
