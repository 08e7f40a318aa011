/* cs-trace-file-private.h: the recording's state, for the files that read
 * it (cs-trace-file.c, cs-cpu-cursor.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <trace-cmd/trace-cmd.h>

#include "cs-trace-file.h"
#include "cs-tracedat-reader.h"
#include "cs-text-import.h"

G_BEGIN_DECLS

/* Exported by libtracecmd 1.3 but declared only in its private header
 * (trace-cmd-private.h); the public header has no way to ask how many
 * CPUs a recording has. */
int tracecmd_cpus (struct tracecmd_input *handle);

struct _CsTraceFile
{
  GObject parent_instance;

  char *path;
  /* For trace text: the trace.dat converted from it (cs-text-import.c),
   * which is what is read; NULL for a recording. */
  char *data_path;
  CsTextImportReport *text_report;
  /* Chronoscope's own reader checks every recording's headers and section
   * bounds first (libtracecmd crashes on a v6 file cut inside its data) and
   * reads compressed data, which libtracecmd 3.1.6 reads super-linearly
   * and cannot read at all when compressed with zlib. */
  CsTracedatReader *reader;
  gboolean own_data;     /* records come from @reader, not libtracecmd */
  CsTracedatRecord read_at_own;

  struct tracecmd_input *handle;
  /* The top buffer (handle) and the instance buffers (recordings made with
   * `trace-cmd extract -B` or `record -B` keep their events there); their
   * events are merged per CPU. */
  GPtrArray *buffers;
  char *clock;
  guint n_cpus;

  /* read_at() keeps its record until the next call. */
  struct tep_record *read_at_record;
};

/* A record's offset carries its buffer in the top bits; file offsets and
 * libtracecmd's positions in decompressed data stay far below 2^56. */
#define BUFFER_SHIFT 56
#define OFFSET_MASK ((G_GUINT64_CONSTANT (1) << BUFFER_SHIFT) - 1)
#define MAX_BUFFERS 255

/* Fills @out from a record of libtracecmd (buffer @buffer of @cpu). */
void _cs_trace_file_fill_record     (CsRecord               *out,
                                     guint                   cpu,
                                     guint                   buffer,
                                     struct tep_record      *rec);
/* Fills @out from a record of Chronoscope's own reader. */
void _cs_trace_file_fill_own_record (CsRecord               *out,
                                     const CsTracedatRecord *rec);

G_END_DECLS
