/* cs-cpu-scan-private.h: the state of one CPU's scan (cs-cpu-scanner.c),
 * shared with what copies it (cs-cpu-scan-fork.c) and what takes the
 * fields of its records (cs-cpu-scan-fields.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-cpu-scanner.h"
#include "cs-index-private.h"

G_BEGIN_DECLS

struct tep_format_field;
struct tep_handle;
struct tep_record;

#define TASK_CACHE_SLOTS 256

/* sched_waking, sched_wakeup and sched_wakeup_new: their "pid" field is
 * the task being woken (events/sched/sched_waking/format). */
typedef struct {
  int id;
  int kind;
  struct tep_format_field *pid;
  gboolean swap;           /* the recording's byte order is not ours */
} WakeupEvent;

/* irq_handler_entry, irq_handler_exit, softirq_entry and softirq_exit:
 * the field each keeps of its record in the irq chunks (irq, or vec). */
typedef struct {
  int id;
  int kind;                /* IR_KIND_* */
  struct tep_format_field *value;
  struct tep_format_field *name;   /* irq_handler_entry's, else NULL */
  gboolean swap;           /* the recording's byte order is not ours */
} IrqEvent;

/* sched_migrate_task: the fields its migration rows keep. */
typedef struct {
  int id;                  /* -1: the recording has no such event */
  struct tep_format_field *pid, *orig_cpu, *dest_cpu;
  gboolean swap;           /* the recording's byte order is not ours */
} MigrateEvent;

/* common_type and common_pid sit at the same place in every record
 * (events/header_event and the "common" fields of each format); reading
 * them directly saves two libtraceevent calls per event. */
typedef struct {
  guint type_offset, type_size;
  guint pid_offset, pid_size;
  guint min_size;          /* bytes a record needs for both; G_MAXUINT
                            * when they are not known (!valid) */
  gboolean swap;           /* the recording's byte order is not ours */
  gboolean valid;
} CommonFields;

typedef struct {
  struct tep_format_field *prev_pid;
  struct tep_format_field *prev_state;
  struct tep_format_field *prev_comm;
  struct tep_format_field *next_pid;
  struct tep_format_field *next_comm;
  struct tep_format_field *next_prio;
  int id;
  gboolean swap;           /* the recording's byte order is not ours */
} SchedSwitchFields;

void _cs_cpu_scan_count_switch_state (const SchedSwitchFields *f,
                                      struct tep_record       *rec,
                                      gint32                   type,
                                      CsScanResult            *result);

/* A sched_switch or wakeup event read and not yet summarised: what the
 * summaries need of its record, copied out of it (the next read may free
 * or overwrite the record). */
typedef struct {
  guint32 row;             /* the event's row in ScanState.ev */
  gint8 wakeup_kind;       /* TK_KIND_WAKING or _WAKEUP; -1: a sched_switch */
  gint8 prev_comm_len;     /* sched_switch: -1 when the record has no prev_comm */
  gint8 next_comm_len;
  gint32 pid;              /* the task woken, or prev_pid */
  gint32 next_pid;
  gint32 prev_state;
  gint32 next_prio;        /* -1 when the record has no next_prio */
  char prev_comm[16];      /* the names, zero after them */
  char next_comm[16];
} ScanOp;

/* Events read before they are summarised, at most: reading a batch and
 * then summarising it lets each step's CPU time be measured per batch
 * (cs-index-steps.c), and keeps each loop's code and data in the caches. */
#define SCAN_BATCH_OPS 512

/* Records asked of the cursor at once (cs_cpu_cursor_next_batch()). */
#define SCAN_BATCH_RECORDS 256

typedef struct {
  CsScanResult *result;
  const CsTypeMap *types;
  CsScanEmitFunc emit;
  gpointer emit_data;

  /* Event rows not yet handed on: EV_N_COLUMNS columns, on the heap
   * (ev_columns_new()) because a full chunk hands them on as they are
   * (CsScanChunk.raw) and the scan goes on in new ones. */
  gint64 (*ev)[CS_EVENT_CHUNK_ROWS];
  guint n_ev;
  guint n_summarised;      /* rows before it are summarised */
  guint64 n_event_chunks;
  ScanOp ops[SCAN_BATCH_OPS];   /* of the rows not yet summarised */
  guint n_ops;

  /* Slice rows not yet handed on: SL_N_COLUMNS columns, the same way. */
  gint64 (*sl)[CS_SLICE_CHUNK_ROWS];
  gint64 sl_last_end;
  guint n_sl;
  guint64 n_slice_chunks;

  /* Interrupt rows not yet handed on: IR_N_COLUMNS columns, as above. */
  gint64 (*ir)[CS_IRQ_CHUNK_ROWS];
  guint n_ir;
  guint64 n_irq_chunks;

  /* Migration rows not yet handed on: MG_N_COLUMNS columns, as above. */
  gint64 (*mg)[CS_MIGRATE_CHUNK_ROWS];
  guint n_mg;
  guint64 n_migrate_chunks;

  /* The task running now according to the last sched_switch, and that
   * switch's next_comm (running_comm_len bytes, -1: none) and next_prio. */
  gint32 running_pid;
  gint64 running_since;
  gboolean running_known;
  gint8 running_comm_len;
  gint32 running_prio;
  char running_comm[16];
  /* Every sched_switch since the end of the last slice stored was one
   * from the task the one before had switched in (see CS_SLICE_SWITCHED). */
  gboolean switches_seen;

  /* Wakeup events recorded; their event ids are within
   * [wakeup_min_id, wakeup_min_id + wakeup_id_span] (an empty range
   * without any), which most records are not. */
  WakeupEvent wakeups[3];
  guint n_wakeups;
  int wakeup_min_id;
  guint wakeup_id_span;
  /* The interrupt events recorded, the same way. */
  IrqEvent irqs[IR_N_KINDS];
  guint n_irqs;
  int irq_min_id;
  guint irq_id_span;
  MigrateEvent migrate;
  gsize task_rows_bytes;   /* allocated in the tasks' row buffers */

  /* Level 0 of the summaries, built as the events go by once the grid
   * is known; until then what it needs is held. */
  CsSummaryScan *summary;
  GArray *held;

  /* A direct-mapped cache in front of the task table: every event looks
   * its task up, and sched_switch and wakeups look up others in between
   * (a one-entry cache left ~4 % of indexing in g_hash_table_lookup). */
  gint32 cache_pid[TASK_CACHE_SLOTS];
  CsScanTask *cache_task[TASK_CACHE_SLOTS];
} ScanState;

/* Summary input held back until the grid is known (see _cs_cpu_scan_start()):
 * an event (begin_ns == G_MININT64) or a slice. */
typedef struct {
  gint64 ts_ns;
  gint64 begin_ns;
  gint32 pid;
  gint32 next_pid;
} SummaryOp;

struct _CsCpuScan {
  ScanState *st;
  CsScanResult *result;
  CsCpuCursor *cursor;
  struct tep_handle *tep;
  SchedSwitchFields sw;
  CommonFields common;
  guint64 first_offset;
  volatile gint64 *progress_bytes;
  volatile gint64 *offset;
  GCancellable *cancellable;
  guint test_delay_ms;      /* CS_INDEX_TEST_DELAY_MS, see test_stall() */
  gboolean test_hang;       /* CS_INDEX_TEST_HANG */
  gboolean at_end;
  /* Subtracted from record offsets: the CPU's data offset in the file
   * read, for a scan that goes on in newer files (_cs_cpu_scan_resume()),
   * whose offsets are relative to the CPU's data; else 0. */
  guint64 offset_bias;

  GArray *held;             /* SummaryOp, before the grid is known */
  CsTracedatSlimRecord batch[SCAN_BATCH_RECORDS];   /* being decoded */
  guint64 n_sampled;        /* records read by _cs_cpu_scan_start() */
  gint64 sample_last_ns;
};

void     _cs_cpu_scan_find_fields    (CsCpuScan               *scan);
gboolean _cs_cpu_scan_decode_switch  (const SchedSwitchFields *f,
                                      struct tep_record       *rec,
                                      ScanOp                  *op);
gboolean _cs_cpu_scan_decode_wakeup  (const WakeupEvent       *w,
                                      struct tep_record       *rec,
                                      ScanOp                  *op);

void     _cs_cpu_scan_add_irq        (CsCpuScan               *scan,
                                      int                      tep_type,
                                      const CsTracedatSlimRecord *rec,
                                      gint64                   ts_ns,
                                      guint64                  row);

void     _cs_cpu_scan_emit_rows      (ScanState               *st,
                                      CsScanChunkKind          kind,
                                      guint64                 *n_chunks,
                                      gint64                   first_ns,
                                      gint64                   last_ns,
                                      guint                   *n_rows,
                                      gpointer                *columns,
                                      guint                    n_columns,
                                      guint                    stride,
                                      const CsChunkColumnMode *modes);
void     _cs_cpu_scan_flush_irqs     (ScanState               *st);
void     _cs_cpu_scan_add_migrate    (ScanState                  *st,
                                      const CsTracedatSlimRecord *rec,
                                      gint64                      ts_ns,
                                      guint64                     row);
void     _cs_cpu_scan_flush_migrates (ScanState               *st);

void     _cs_scan_task_free (gpointer data);
CsScanChunk *_cs_scan_chunk_take_rows (CsScanChunkKind           kind,
                                       guint                     cpu,
                                       guint64                   chunk,
                                       gint64                    first_ns,
                                       gint64                    last_ns,
                                       guint                     n_rows,
                                       gint64                   *columns,
                                       guint                     n_columns,
                                       guint                     stride,
                                       const CsChunkColumnMode  *modes);
gint64  *_cs_scan_columns_new  (guint    n_columns,
                                guint    stride);
void     _cs_scan_columns_free (gint64  *block,
                                guint    n_columns,
                                guint    stride);
gboolean _cs_scan_emit_summary_block (gpointer   user_data,
                                      guint      cpu,
                                      guint      level,
                                      gint64     block,
                                      GBytes    *blob,
                                      GError   **error);
gboolean _cs_scan_emit_summary_run   (gpointer   user_data,
                                      guint      cpu,
                                      gint64     begin_ns,
                                      gint64     end_ns,
                                      gint32     pid,
                                      GError   **error);

G_END_DECLS
