/* cs-tracedat-private.h: internals shared by cs-tracedat-reader.c (the reader
 * object), cs-tracedat-header.c (initial format, options, CPU data table),
 * cs-tracedat-sections.c (metadata sections, decompression, libtraceevent
 * set-up) and cs-tracedat-cpu.c (the per-CPU streams).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "cs-tracedat-reader.h"

G_BEGIN_DECLS

/* Section and option ids of trace-cmd.dat.v7(5); v6 uses the same option ids. */
enum {
  CS_TD_OPTION_DONE          = 0,
  CS_TD_OPTION_DATE          = 1,
  CS_TD_OPTION_CPUSTAT       = 2,
  CS_TD_OPTION_BUFFER        = 3,
  CS_TD_OPTION_TRACECLOCK    = 4,
  CS_TD_OPTION_UNAME         = 5,
  CS_TD_OPTION_HOOK          = 6,
  CS_TD_OPTION_OFFSET        = 7,
  CS_TD_OPTION_CPUCOUNT      = 8,
  CS_TD_OPTION_VERSION       = 9,
  CS_TD_OPTION_PROCMAPS      = 10,
  CS_TD_OPTION_TRACEID       = 11,
  CS_TD_OPTION_TIME_SHIFT    = 12,
  CS_TD_OPTION_GUEST         = 13,
  CS_TD_OPTION_TSC2NSEC      = 14,
  CS_TD_OPTION_STRINGS       = 15,
  CS_TD_OPTION_HEADER_INFO   = 16,
  CS_TD_OPTION_FTRACE_EVENTS = 17,
  CS_TD_OPTION_EVENT_FORMATS = 18,
  CS_TD_OPTION_KALLSYMS      = 19,
  CS_TD_OPTION_PRINTK        = 20,
  CS_TD_OPTION_CMDLINES      = 21,
  CS_TD_OPTION_BUFFER_TEXT   = 22,
};

#define CS_TD_SECTION_FL_COMPRESS 1

/* The metadata sections, in the order v6 stores them. */
typedef enum {
  CS_TD_SEC_HEADER_INFO,
  CS_TD_SEC_FTRACE_EVENTS,
  CS_TD_SEC_EVENT_FORMATS,
  CS_TD_SEC_KALLSYMS,
  CS_TD_SEC_PRINTK,
  CS_TD_SEC_CMDLINES,
  CS_TD_N_SECTIONS
} CsTdSectionKind;

typedef enum {
  CS_TD_CODEC_NONE,
  CS_TD_CODEC_ZSTD,
  CS_TD_CODEC_ZLIB,
} CsTdCodec;

/* Limits that keep a hostile file from causing huge allocations.  Real
 * recordings stay far below: trace-cmd writes chunks of 10 pages, kallsyms of
 * a distribution kernel is about 15 MB. */
#define CS_TD_MAX_SECTION_BYTES  ((gsize) 256 * 1024 * 1024)
#define CS_TD_MAX_CHUNK_BYTES    ((gsize) 32 * 1024 * 1024)
#define CS_TD_MAX_CPUS           8192
#define CS_TD_MAX_PAGE_SIZE      (1024 * 1024)
#define CS_TD_MAX_OPTION_SECTIONS 256
/* Zeroed bytes after every buffer of pages: kbuffer reads a few bytes past
 * the last event header it looks at. */
#define CS_TD_PAGE_SLACK 32

typedef struct {
  gboolean present;
  gboolean compressed;   /* v7 section flag: payload starts with csize, usize */
  guint64 offset;        /* file offset of the payload */
  guint64 size;          /* bytes of payload in the file */
} CsTdSection;

typedef struct {
  guint64 offset;        /* file offset of the CPU's data */
  guint64 size;          /* bytes of the CPU's data in the file */
} CsTdCpuData;

struct _CsTracedatReader {
  GObject parent_instance;

  /* immutable after cs_tracedat_reader_open() */
  char *path;
  char *display_name;
  int fd;
  guint64 file_size;
  guint file_version;
  gboolean big_endian;
  guint long_size;
  guint kernel_long_size;
  guint page_size;
  char *compression;
  char *compression_version;
  CsTdCodec codec;
  gboolean data_compressed;
  guint n_cpus;
  CsTdCpuData *cpu_data;
  char *clock;
  gint64 ts_offset_ns;
  gboolean has_tsc2nsec;
  guint32 tsc2nsec_mult;
  guint32 tsc2nsec_shift;
  guint64 tsc2nsec_offset;     /* TSC2NSEC's third field, in ticks */
  gboolean has_time_shift;
  /* Peer options kept as raw payloads (file byte order) and parsed on
   * demand by cs-tracedat-clock.c, so that a damaged one never stops the
   * recording from opening (libtracecmd ignores a bad GUEST option too). */
  gboolean has_trace_id;
  guint64 trace_id;            /* TRACEID option */
  GBytes *time_shift_option;   /* TIME_SHIFT payload, the last one */
  GPtrArray *guest_options;    /* GBytes: each GUEST option's payload */
  char *uname;                 /* UNAME option's text, or NULL */
  gboolean v6_trace_clock_follows;
  guint v6_cpucount;
  CsTdSection sections[CS_TD_N_SECTIONS];
  struct tep_handle *tep;
  struct tep_plugin_list *plugins;
  guint n_parse_failures;
  guint8 *wanted_ids;          /* bitmap of 65536 format IDs to parse, or NULL: all
                                * (cs_tracedat_reader_open_for_types()) */
  guint n_instance_buffers;   /* named BUFFER options seen */
  gboolean symbols_loaded;     /* kallsyms parsed into tep */

  /* cs_tracedat_reader_read_at() state, under read_at_lock */
  GMutex read_at_lock;
  CsTracedatCpu **read_at_cpus;
};

/* Byte order helpers: numbers are in the file's byte order. */
static inline guint16
_cs_td_u16 (gboolean be, const void *p)
{
  guint16 v;
  memcpy (&v, p, 2);
  return be ? GUINT16_FROM_BE (v) : GUINT16_FROM_LE (v);
}

static inline guint32
_cs_td_u32 (gboolean be, const void *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static inline guint64
_cs_td_u64 (gboolean be, const void *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return be ? GUINT64_FROM_BE (v) : GUINT64_FROM_LE (v);
}

/* The kernel's mul_u64_u32_shr() (include/linux/math64.h), which
 * libtracecmd's timestamp_calc() uses to turn TSC2NSEC ticks into ns. */
static inline guint64
_cs_td_mul_u64_u32_shr (guint64 ticks, guint32 mult, guint32 shift)
{
  guint64 al = ticks & 0xffffffffu;
  guint64 ah = ticks >> 32;
  guint64 r = (al * mult) >> shift;

  if (ah != 0)
    r += (ah * mult) << (32 - shift);
  return r;
}

/* A bounded cursor over bytes in memory (a decompressed section, an option). */
typedef struct {
  const guint8 *data;
  gsize len;
  gsize pos;
  gboolean be;
} CsTdMem;

static inline gboolean
_cs_td_mem_has (const CsTdMem *m, gsize n)
{
  return m->pos <= m->len && n <= m->len - m->pos;
}

/* cs-tracedat-header.c */
gboolean _cs_td_read_header        (CsTracedatReader *self,
                                    GError          **error);

/* cs-tracedat-sections.c */
gboolean _cs_td_pread_exact        (CsTracedatReader *self,
                                    void             *buf,
                                    gsize             len,
                                    guint64           offset,
                                    const char       *what,
                                    GError          **error);
gboolean _cs_td_decompress         (CsTracedatReader *self,
                                    ZSTD_DCtx        *zstd,
                                    z_stream         *zs,
                                    const guint8     *in,
                                    gsize             in_len,
                                    guint8           *out,
                                    gsize             out_len,
                                    const char       *what,
                                    guint64           offset,
                                    GError          **error);
gboolean _cs_td_load_block         (CsTracedatReader *self,
                                    guint64           offset,
                                    guint64           size,
                                    gboolean          compressed,
                                    const char       *what,
                                    guint8          **data,
                                    gsize            *len,
                                    GError          **error);
gboolean _cs_td_scan_v6_sections   (CsTracedatReader *self,
                                    guint64          *pos,
                                    GError          **error);
/* full: with libtraceevent's plugins and kallsyms (the reader's handle);
 * otherwise formats, printk formats and command lines only (streams'). */
gboolean _cs_td_load_kallsyms (CsTracedatReader  *self,
                               struct tep_handle *tep,
                               GError           **error);
struct tep_handle *_cs_td_new_tep  (CsTracedatReader *self,
                                    gboolean          full,
                                    struct tep_plugin_list **plugins,
                                    guint            *n_parse_failures,
                                    GError          **error);
void _cs_td_free_tep                (struct tep_handle *tep,
                                    struct tep_plugin_list *plugins);
const char *_cs_td_section_name    (CsTdSectionKind   kind);

/* cs-tracedat-cpu.c */
CsTracedatCpu *_cs_tracedat_cpu_new (CsTracedatReader *reader,
                                     guint             cpu,
                                     gboolean          ref_reader,
                                     GError          **error);

G_END_DECLS
