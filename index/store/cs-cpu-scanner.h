/* cs-cpu-scanner.h: one pass over the records of one CPU, producing the
 * index's event and slice chunks and the CPU's derived counts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-chunk-codec.h"
#include "cs-trace-file.h"

G_BEGIN_DECLS

/* TK_N_COLUMNS of cs-index-private.h, which this header does not include. */
#define TK_N_COLUMNS_PUBLIC 4

/* What a scanner hands to the writer, in order per CPU. */
typedef enum {
  CS_SCAN_EVENT_CHUNK,
  CS_SCAN_SLICE_CHUNK,
  CS_SCAN_TASK_CHUNK,
  CS_SCAN_IRQ_CHUNK,       /* interrupt entries and exits (irq_chunks) */
  CS_SCAN_MIGRATE_CHUNK,   /* sched_migrate_task events (migrate_chunks) */
  CS_SCAN_SUMMARY_CHUNK,   /* one block of the summaries table */
  CS_SCAN_SUMMARY_RUN,     /* one row of summary_runs: first_ns, last_ns
                            * (its end), pid; no data */
} CsScanChunkKind;

typedef struct {
  CsScanChunkKind kind;
  guint cpu;
  gint32 pid;              /* CS_SCAN_TASK_CHUNK and CS_SCAN_SUMMARY_RUN */
  guint level;             /* CS_SCAN_SUMMARY_CHUNK only */
  guint64 chunk;           /* for CS_SCAN_SUMMARY_CHUNK, the block */
  gint64 first_ns;
  gint64 last_ns;
  guint64 first_row;
  guint n_rows;
  GBytes *data;
  /* Rows not encoded yet, or %NULL: @n_columns columns of @n_rows values,
   * column c from raw[c * raw_stride], to encode with @modes (and zstd
   * when @compress) by cs_scan_chunk_encode() into @data.  Scanners hand
   * event, slice and task chunks on this way, so that encoding them can
   * run on another thread than the scan (cs-index-builder.c). */
  gint64 *raw;
  guint raw_stride;
  guint n_columns;
  const CsChunkColumnMode *modes;
  gboolean compress;
} CsScanChunk;

void cs_scan_chunk_free   (CsScanChunk *chunk);
void cs_scan_chunk_encode (CsScanChunk *chunk);

/* Bytes of task rows one scan buffers before writing every task's rows out
 * (4 MiB); lowered only by tests.  Set it before a build starts. */
extern gsize _cs_scan_task_rows_budget_bytes;

/* Strings a scan numbers for a chunk column (cs-scan-names.c): @names
 * in the order they came, each once; @ids maps each to its position + 1. */
typedef struct {
  GPtrArray *names;
  GHashTable *ids;
} CsScanNames;

void _cs_scan_names_init (CsScanNames *names);
void _cs_scan_names_clear (CsScanNames *names);
/* @copy: uninitialised; it gets @names' strings at the same positions. */
void _cs_scan_names_copy (CsScanNames       *copy,
                          const CsScanNames *names);
/* The position of @name (NUL-terminated), added at the end when new. */
gint64 _cs_scan_names_id (CsScanNames *names,
                          const char  *name);

/* Per task, what one CPU saw of it. */
typedef struct {
  guint64 n_events;
  gint64 runtime_ns;
  gint64 comm_ts;          /* when @comm was seen; -1 when never */
  char comm[17];
  /* The next_comm and next_prio of the sched_switch that began the
   * task's last slice on this CPU, when that slice was switched
   * (SL_FLAG_SWITCHED): what SL_FLAG_SAME_TASK compares with. */
  gboolean has_run;
  gint8 run_comm_len;
  gint32 run_prio;
  char run_comm[16];
  gint64 run_comm_id;      /* run_comm's position in comm_names */
  /* Runs and wakeups of the task on this CPU not yet encoded. */
  gint64 (*rows)[TK_N_COLUMNS_PUBLIC];
  guint n_rows;
  guint n_alloc;           /* rows @rows has room for */
  guint64 n_chunks;
} CsScanTask;

/* A loss of the ring buffer: the missed-events count of a ring-buffer
 * page, at that page's first event; -1 when the kernel did not count. */
typedef struct {
  gint64 ts_ns;
  gint64 n_missed;
} CsScanLoss;

/* sched_switch events of one prev_state value (switch_state_counts). */
typedef struct {
  gint64 prev_state;       /* as SQL reads the field: sign-extended as the
                            * format says */
  gboolean is_null;        /* the record is too short for the field */
  guint64 n_events;
} CsScanStateCount;

/* prev_state values counted per CPU, at most: more (never seen in real
 * recordings: a handful of task states) leave the CPU's counts out. */
#define CS_SCAN_SWITCH_STATES 24

/* Everything about one CPU that is not per event. */
typedef struct {
  guint cpu;
  guint64 n_events;
  gint64 first_ns;
  gint64 last_ns;
  guint64 missed_events;
  GArray *losses;          /* CsScanLoss, in time order: where events were lost */
  gboolean has_sched_switch;
  guint64 *type_counts;    /* n_types entries */
  /* The CPU's sched_switch events (dense type switch_type, -1 until one
   * came) by prev_state; n_switch_states is G_MAXUINT when they are not
   * counted (too many values, or a prev_state that is no integer). */
  gint32 switch_type;
  guint n_switch_states;
  CsScanStateCount switch_states[CS_SCAN_SWITCH_STATES];
  GHashTable *tasks;       /* GINT_TO_POINTER (pid) -> CsScanTask */
  /* What a reader adds to the event chunks' offsets: 0, or for a scan of
   * a recording in progress (cs-index-live.c), whose offsets are relative
   * to the CPU's data, where that data starts in the file indexed. */
  guint64 offset_base;
  /* The names irq_handler_entry records gave, each once, in the order
   * they came: an irq chunk's IR_NAME is a position here
   * (CS_CPU_NAMES_IRQ rows of cpu_names). */
  CsScanNames irq_names;
  /* The next_comm of the sched_switch events that began slices, the
   * same way: a slice chunk's SL_COMM (CS_CPU_NAMES_COMM rows). */
  CsScanNames comm_names;
} CsScanResult;

void cs_scan_result_free (CsScanResult *result);

/* Maps libtraceevent event ids (common_type) to the index's dense ids. */
typedef struct {
  guint n_types;           /* dense ids 0 .. n_types - 1; the last is "unknown" */
  gint32 *by_tep_id;       /* 65536 entries (common_type is 16 bits) */
} CsTypeMap;

typedef void (*CsScanEmitFunc) (CsScanChunk *chunk, gpointer user_data);

/* Where level 0 of the summaries starts and how wide its buckets are
 * (2^shift ns), decided before the scan. */
typedef struct {
  gint64 origin_ns;
  guint shift;
} CsSummaryGrid;

/* Records each CPU's scan reads before the grid is chosen, when the event
 * rate is to be estimated from them. */
#define CS_SCAN_SAMPLE_RECORDS 4096

typedef struct _CsCpuScan CsCpuScan;

CsCpuScan    *_cs_cpu_scan_start      (CsTraceFile         *file,
                                       guint                cpu,
                                       const CsTypeMap     *types,
                                       guint                sample_records,
                                       CsScanEmitFunc       emit,
                                       gpointer             emit_data,
                                       volatile gint64     *progress_bytes,
                                       volatile gint64     *offset,
                                       GCancellable        *cancellable,
                                       GError             **error);
void          _cs_cpu_scan_set_emit   (CsCpuScan           *scan,
                                       CsScanEmitFunc       emit,
                                       gpointer             emit_data);
void          _cs_cpu_scan_set_read_ahead (CsCpuScan          *scan,
                                           CsTracedatIdleFunc  idle_core,
                                           gpointer            user_data);
gboolean      _cs_cpu_scan_get_sample (CsCpuScan           *scan,
                                       gint64              *first_ns,
                                       double              *events_per_ns);
CsScanResult *_cs_cpu_scan_finish     (CsCpuScan           *scan,
                                       const CsSummaryGrid *grid,
                                       GError             **error);
gboolean      _cs_cpu_scan_read_sample (CsCpuScan          *scan,
                                       guint                n_records,
                                       GError             **error);
gboolean      _cs_cpu_scan_continue   (CsCpuScan           *scan,
                                       const CsSummaryGrid *grid,
                                       GError             **error);
gboolean      _cs_cpu_scan_resume     (CsCpuScan           *scan,
                                       CsTraceFile         *file,
                                       guint64              data_pos,
                                       GError             **error);
CsScanResult *_cs_cpu_scan_close      (CsCpuScan           *scan,
                                       GError             **error);
CsCpuScan    *_cs_cpu_scan_fork       (CsCpuScan           *scan,
                                       CsScanEmitFunc       emit,
                                       gpointer             emit_data);
void          _cs_cpu_scan_free       (CsCpuScan           *scan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCpuScan, _cs_cpu_scan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsScanResult, cs_scan_result_free)

G_END_DECLS
