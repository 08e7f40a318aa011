/* cs-index-private.h: the index's on-disk schema, shared by its writer
 * (cs-index-builder.c, cs-summary-builder.c) and its reader (cs-document.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "cs-chunk-codec.h"

G_BEGIN_DECLS

/* Bump when the schema or a blob layout changes: older indexes are then
 * rebuilt, never trusted (PRAGMA user_version).  4: the missed_events and
 * summary_runs tables, both added at 3 on separate branches.  5: the CPUs'
 * offset_base and meta summary_origin_ns (the live index).  6: the task
 * rows' kinds TK_KIND_RUN_UNSEEN and TK_KIND_SWITCH_IN, and chunks of
 * columns in bit-packed forms (cs-chunk-column.c), which a version-5
 * reader would call damaged.  7: switch_state_counts (sched_switch events
 * per CPU by prev_state, for SQL).  8 was encode2's column forms (674c45e,
 * taken back in 98fd7ff): never reused, so that an index a build of that
 * time left in a cache is rebuilt.  9: task chunks of up to 1024 rows,
 * which a version-7 reader would call damaged.  10: a slice chunk's
 * flags column (SL_FLAGS), which a version-9 reader would call damaged.
 * 11: event_chunk_types, which a version-10 index lacks (a reader of
 * rare types would find none of its events).  12: irq_chunks, which a
 * version-11 index lacks (a breakdown would find no interrupts).  13: a
 * slice chunk's next_comm and next_prio (SL_COMM, SL_PRIO), and cpu_names
 * in place of irq_names.  14: migrate_chunks, which a version-13 index
 * lacks. */
#define CS_INDEX_SCHEMA_VERSION 14

/* Rows per event chunk and per slice chunk.  4096 events make blobs of
 * ~20 KiB: few SQLite rows, and decoding one costs ~10 µs. */
#define CS_EVENT_CHUNK_ROWS 4096
#define CS_SLICE_CHUNK_ROWS 2048

/* Summary buckets per stored block, and the factor between levels: level
 * L has buckets of 2^(shift + 2 L) ns, so a frame picks a level whose
 * bucket is at most one pixel wide and reads at most ~4 buckets a pixel. */
#define CS_SUMMARY_BLOCK_BUCKETS 1024
#define CS_SUMMARY_LEVEL_BITS 2

/* Columns of an event chunk: ts (delta), pid (delta: runs of one task
 * cost a byte), type id (plain), offset (delta: the record's size). */
enum { EV_TS, EV_PID, EV_TYPE, EV_OFFSET, EV_N_COLUMNS };
extern const CsChunkColumnMode _cs_event_chunk_modes[EV_N_COLUMNS];
gboolean _cs_event_chunk_may_hold (const guint8   *data,
                                   gsize           size,
                                   guint           n_rows,
                                   const gboolean *wanted,
                                   guint           n_types);

/* Columns of a slice chunk: begin (delta), duration, pid, prev_state,
 * flags (CS_SLICE_SWITCHED, CS_SLICE_SAME_TASK of cs-document.h), and
 * when a sched_switch to the task began the slice, that switch's
 * next_comm (its id among the CPU's CS_CPU_NAMES_COMM names; -1: no
 * such switch, or no next_comm) and next_prio (-1 with comm -1). */
enum { SL_BEGIN, SL_DURATION, SL_PID, SL_STATE, SL_FLAGS, SL_COMM, SL_PRIO, SL_N_COLUMNS };
/* SL_FLAGS's bits: their meaning is CS_SLICE_SWITCHED's and
 * CS_SLICE_SAME_TASK's (cs-document.h, which the model's readers see). */
enum { SL_FLAG_SWITCHED = 1, SL_FLAG_SAME_TASK = 2 };
extern const CsChunkColumnMode _cs_slice_chunk_modes[SL_N_COLUMNS];

/* What the names of a CPU's cpu_names rows number: irq_handler_entry's
 * name field (IR_NAME of an interrupt chunk), or the next_comm of the
 * sched_switch events that began slices (SL_COMM). */
enum { CS_CPU_NAMES_IRQ = 0, CS_CPU_NAMES_COMM = 1 };

/* Columns of an interrupt chunk: the CPU's irq_handler_entry/exit and
 * softirq_entry/exit events again, with the one field a breakdown needs
 * of each (events/irq/<name>/format: irq, or vec), so that explaining a
 * wait of seconds reads a few chunks of these instead of every event
 * chunk of the wait and a record per interrupt.  ts (delta), row among
 * the CPU's events (delta; the event chunks give its record's offset),
 * kind (IR_KIND_*), value (irq or vec), name (irq_handler_entry: the
 * handler's name, as its id among the CPU's CS_CPU_NAMES_IRQ names; -1
 * otherwise). */
enum { IR_TS, IR_ROW, IR_KIND, IR_VALUE, IR_NAME, IR_N_COLUMNS };
enum { IR_KIND_IRQ_ENTRY, IR_KIND_IRQ_EXIT, IR_KIND_SOFTIRQ_ENTRY, IR_KIND_SOFTIRQ_EXIT,
       IR_N_KINDS };
extern const CsChunkColumnMode _cs_irq_chunk_modes[IR_N_COLUMNS];
#define CS_IRQ_CHUNK_ROWS 1024

/* Columns of a migration chunk: the CPU's sched_migrate_task events
 * again, with the fields that say who moved where
 * (events/sched/sched_migrate_task/format: pid, orig_cpu, dest_cpu), so
 * that following a waiting task across CPUs over seconds reads a few
 * chunks of these instead of every event chunk of every CPU.  ts (delta),
 * row among the CPU's events (delta), pid, orig_cpu, dest_cpu (-1 when
 * the record lacks one). */
enum { MG_TS, MG_ROW, MG_PID, MG_ORIG, MG_DEST, MG_N_COLUMNS };
extern const CsChunkColumnMode _cs_migrate_chunk_modes[MG_N_COLUMNS];
#define CS_MIGRATE_CHUNK_ROWS 1024

/* Per task and CPU, what the task tables hold (time order per CPU): its
 * runs (sched_switch in and out) and the wakeups aimed at it.  Columns: ts
 * (delta), duration (runs; 0 for wakeups), kind, prev_state (-1: the run
 * lasts until the CPU's recording stops).  Kinds: TK_KIND_RUN, a run that
 * began with a sched_switch to the task; TK_KIND_RUN_UNSEEN, a run whose
 * switch-in was not recorded (it began before the CPU's recording, or the
 * events between were lost); TK_KIND_SWITCH_IN, a switch-in whose run has
 * no recorded end (the CPU's recording stops at it, or the events after
 * it were lost): duration 0, prev_state -1. */
/* 1024 rows, not 256: a task chunk's encoding has a cost per chunk
 * (choosing each column's form) that 256-row chunks paid 84,000 times on
 * the large benchmark recording, 0.94 s of CPU for its 15 M task rows
 * against 0.54 s now; a task plot decodes at most 1024 rows too many at
 * each end of its span (~10 µs).  Memory stays within the scanner's
 * budget (cs-cpu-scanner.c). */
#define CS_TASK_CHUNK_ROWS 1024
enum { TK_TS, TK_DURATION, TK_KIND, TK_STATE, TK_N_COLUMNS };
enum {
  TK_KIND_RUN = 0,
  TK_KIND_WAKING = 1,
  TK_KIND_WAKEUP = 2,
  TK_KIND_RUN_UNSEEN = 3,
  TK_KIND_SWITCH_IN = 4,
};
extern const CsChunkColumnMode _cs_task_chunk_modes[TK_N_COLUMNS];

/* Columns of a summary block: events, busy ns, dominant pid + 1 (0 = none). */
enum { SU_EVENTS, SU_BUSY, SU_DOMINANT, SU_N_COLUMNS };
extern const CsChunkColumnMode _cs_summary_modes[SU_N_COLUMNS];

extern const char _cs_index_schema_sql[];

/* The summaries table, also created in the side files the summary threads
 * write (cs-summary-builder.c). */
#define CS_SUMMARIES_TABLE_SQL \
  "CREATE TABLE summaries (cpu INTEGER, level INTEGER, block INTEGER, data BLOB," \
  "  PRIMARY KEY (cpu, level, block)) WITHOUT ROWID;"

/* Runs of a task through many level-0 buckets without events, kept out of
 * the summaries (cs-summary-builder.c): [begin_ns, end_ns) on the level-0
 * grid; a CPU's runs do not overlap, so end_ns orders them. */
#define CS_SUMMARY_RUNS_TABLE_SQL \
  "CREATE TABLE summary_runs (cpu INTEGER, end_ns INTEGER, begin_ns INTEGER, pid INTEGER," \
  "  PRIMARY KEY (cpu, end_ns)) WITHOUT ROWID;"


gboolean _cs_sqlite_exec   (sqlite3       *db,
                            const char    *sql,
                            GError       **error);
/* _cs_sqlite_check: TRUE when @rc is SQLITE_OK, _DONE or _ROW; otherwise sets
 * CS_INDEX_ERROR_SQLITE naming @what (translated, a phrase such as
 * _("reading events") that the message reads after "while"), sqlite3_errmsg()
 * and the database file. */
gboolean _cs_sqlite_check  (sqlite3       *db,
                            int            rc,
                            const char    *what,
                            GError       **error);
sqlite3_stmt *_cs_sqlite_prepare (sqlite3  *db,
                                  const char *sql,
                                  GError  **error);
/* _cs_sqlite_open_index: opens a finished index read-only as a file that
 * never changes (see cs-index-schema.c); sqlite3_open_v2()'s return code,
 * *db to be closed whatever it is. */
int _cs_sqlite_open_index (const char  *path,
                           sqlite3    **db);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* Receives a summary block, encoded (transfer full), of @level of @cpu. */
typedef gboolean (*CsSummaryStoreFunc) (gpointer   user_data,
                                        guint      cpu,
                                        guint      level,
                                        gint64     block,
                                        GBytes    *blob,
                                        GError   **error);

/* Receives a run of task @pid through [@begin_ns, @end_ns) of @cpu. */
typedef gboolean (*CsSummaryRunFunc) (gpointer   user_data,
                                      guint      cpu,
                                      gint64     begin_ns,
                                      gint64     end_ns,
                                      gint32     pid,
                                      GError   **error);

/* Summary pyramid of one CPU built during its scan (cs-summary-builder.c):
 * fed each event and each sched_switch slice in time order. */
typedef struct _CsSummaryScan CsSummaryScan;

CsSummaryScan *_cs_summary_scan_new    (guint              cpu,
                                        gint64             origin_ns,
                                        guint              shift,
                                        CsSummaryStoreFunc store,
                                        CsSummaryRunFunc   store_run,
                                        gpointer           store_data);
void           _cs_summary_scan_event  (CsSummaryScan     *s,
                                        gint64             ts_ns,
                                        gint32             pid);
void           _cs_summary_scan_events (CsSummaryScan     *s,
                                        const gint64      *ts_ns,
                                        const gint64      *pids,
                                        guint              n);
void           _cs_summary_scan_switch (CsSummaryScan     *s,
                                        gint32             prev_pid,
                                        gint64             begin_ns,
                                        gint64             end_ns,
                                        gint32             next_pid);
gboolean       _cs_summary_scan_finish (CsSummaryScan     *s,
                                        GError           **error);
void           _cs_summary_scan_free   (CsSummaryScan     *s);
CsSummaryScan *_cs_summary_scan_copy   (const CsSummaryScan *s,
                                        gpointer           store_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSummaryScan, _cs_summary_scan_free)

guint    _cs_summary_choose_shift  (guint64 n_events,
                                    guint   n_active_cpus,
                                    gint64  span_ns);
guint    _cs_summary_count_levels  (guint   shift,
                                    gint64  span_ns);
guint    _cs_summary_shift_for_rate (double events_per_ns);

/* Small fixed set of (pid, weight) candidates to find a column's or a
 * bucket's dominant task without a hash table. */
#define CS_DOMINANT_SLOTS 8
typedef struct {
  gint32 pid[CS_DOMINANT_SLOTS];
  gint64 weight[CS_DOMINANT_SLOTS];
  guint n;
} CsDominant;

/* Adds @weight to @pid's candidate.  Inline: the summaries call it for
 * every bucket of every level, and a frame for every column. */
static inline void
_cs_dominant_add (CsDominant *d,
                  gint32      pid,
                  gint64      weight)
{
  guint min_i = 0;

  for (guint i = 0; i < d->n; i++)
    {
      if (d->pid[i] == pid)
        {
          d->weight[i] += weight;
          return;
        }
      if (d->weight[i] < d->weight[min_i])
        min_i = i;
    }
  if (d->n < CS_DOMINANT_SLOTS)
    {
      d->pid[d->n] = pid;
      d->weight[d->n] = weight;
      d->n++;
    }
  else if (weight > d->weight[min_i])
    {
      /* Full: the lightest candidate gives way (an approximation that only
       * matters when more than eight tasks share one pixel). */
      d->pid[min_i] = pid;
      d->weight[min_i] = weight;
    }
}

gint32 _cs_dominant_get    (const CsDominant *d);

/* end_ns - begin_ns for end_ns >= begin_ns, saturated at G_MAXINT64: a
 * damaged timestamp (-2^63 read from a corrupt page) can make a span that
 * a gint64 cannot hold, and signed overflow is undefined. */
static inline gint64
_cs_span_ns (gint64 begin_ns,
             gint64 end_ns)
{
  guint64 span = (guint64) end_ns - (guint64) begin_ns;

  return end_ns <= begin_ns ? 0 : (gint64) MIN (span, (guint64) G_MAXINT64);
}

G_END_DECLS
