/* cs-cpu-scan-private.h: the state of one CPU's scan (cs-cpu-scanner.c),
 * shared with what copies it (cs-cpu-scan-fork.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-cpu-scanner.h"
#include "cs-index-private.h"

G_BEGIN_DECLS

struct tep_format_field;
struct tep_handle;

#define TASK_CACHE_SLOTS 256

/* sched_waking, sched_wakeup and sched_wakeup_new: their "pid" field is
 * the task being woken (events/sched/sched_waking/format). */
typedef struct {
  int id;
  int kind;
  struct tep_format_field *pid;
} WakeupEvent;

/* common_type and common_pid sit at the same place in every record
 * (events/header_event and the "common" fields of each format); reading
 * them directly saves two libtraceevent calls per event. */
typedef struct {
  guint type_offset, type_size;
  guint pid_offset, pid_size;
  gboolean swap;           /* the recording's byte order is not ours */
  gboolean valid;
} CommonFields;

typedef struct {
  struct tep_format_field *prev_pid;
  struct tep_format_field *prev_state;
  struct tep_format_field *prev_comm;
  struct tep_format_field *next_pid;
  struct tep_format_field *next_comm;
  int id;
} SchedSwitchFields;

typedef struct {
  CsScanResult *result;
  const CsTypeMap *types;
  CsScanEmitFunc emit;
  gpointer emit_data;

  /* Event rows not yet encoded. */
  gint64 ev[EV_N_COLUMNS][CS_EVENT_CHUNK_ROWS];
  guint n_ev;
  guint64 n_event_chunks;

  /* Slice rows not yet encoded. */
  gint64 sl[SL_N_COLUMNS][CS_SLICE_CHUNK_ROWS];
  gint64 sl_last_end;
  guint n_sl;
  guint64 n_slice_chunks;

  /* The task running now according to the last sched_switch. */
  gint32 running_pid;
  gint64 running_since;
  gboolean running_known;

  /* Wakeup events recorded, and columns to encode a task chunk. */
  WakeupEvent wakeups[3];
  guint n_wakeups;
  gint64 tk[TK_N_COLUMNS][CS_TASK_CHUNK_ROWS];
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
  guint64 n_sampled;        /* records read by _cs_cpu_scan_start() */
  gint64 sample_last_ns;
};

void     _cs_scan_task_free (gpointer data);
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
