/* cs-plugin-cpu-tables.h: a CPU's slices, idle time, interrupts and
 * migrations, as plugins read them from the index.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc), included
 * by cs-plugin-document.h.  Include <chronoscope-plugin-core.h> (no GTK),
 * <chronoscope-plugin-ui.h> or <chronoscope-plugin.h>, not this file.
 *
 * The index keeps, per CPU, tables of what its sched_switch, interrupt
 * and sched_migrate_task events say (index/store/cs-index-schema.c), so
 * that an analysis of a long span reads thousands of rows per SQLite row
 * rather than a record each.  Every function here may be called where
 * cs-plugin-document.h's may.
 */
#pragma once

#include "cs-plugin-document.h"

G_BEGIN_DECLS

/**
 * CsPluginSliceFlags:
 * @CS_PLUGIN_SLICE_SWITCHED: a sched_switch to @pid began the slice, one
 *   from @pid ended it, and every sched_switch of the CPU since its
 *   previous slice switched out the task the one before had switched in
 *   (no events lost between, none before the CPU's first sched_switch).
 *   The CPU's slices alone then say what its sched_switch events say:
 *   @pid ran from @begin_ns to @end_ns, the idle task (pid 0) in the
 *   gaps.
 * @CS_PLUGIN_SLICE_SAME_TASK: with @CS_PLUGIN_SLICE_SWITCHED only: the
 *   sched_switch that began the slice had the next_comm and next_prio of
 *   the one that began @pid's previous slice on this CPU (which was
 *   switched too; slices of zero length are not stored and do not
 *   count).  Since API 1.8 the slice's @next_comm and @next_prio say
 *   the same without a record.
 *
 * What the index knows of a #CsPluginSlice's sched_switch events.
 */
typedef enum {
  CS_PLUGIN_SLICE_SWITCHED = 1 << 0,
  CS_PLUGIN_SLICE_SAME_TASK = 1 << 1,
} CsPluginSliceFlags;

/**
 * CsPluginSlice:
 * @begin_ns: when @pid was switched in (or the CPU's first event)
 * @end_ns: when it was switched out (exclusive; or the CPU's last event)
 * @pid: the task that ran, never 0 (the idle task's time is the gaps)
 * @prev_state: the prev_state of the sched_switch that ended the slice,
 *   as the recording's format has it (-1 when the recording ended first)
 * @flags: #CsPluginSliceFlags
 * @next_prio: the next_prio of the sched_switch that began the slice
 *   (-1 also for SCHED_DEADLINE tasks); -1 when @next_comm is %NULL.
 *   Since API 1.8.
 * @next_comm: (nullable): that sched_switch's next_comm, owned by the
 *   document (valid while it is open); %NULL when no recorded sched_switch to @pid began the slice (the
 *   CPU's first run, or events lost just before it) or the record had no
 *   next_comm.  Since API 1.8.
 *
 * One run of a task on a CPU, as the CPU plot draws it (the index's
 * slices, from sched_switch: include/trace/events/sched.h).  The struct
 * only grows at its end: a plugin built against an older minor version
 * reads the fields it knows.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gint32 pid;
  gint32 prev_state;
  guint flags;
  gint32 next_prio;
  const char *next_comm;
} CsPluginSlice;

/**
 * CsPluginSliceFunc:
 * @slice: (transfer none): a slice, valid during the call
 * @user_data: the caller's data
 *
 * Returns: %TRUE to go on, %FALSE to stop
 */
typedef gboolean (*CsPluginSliceFunc) (const CsPluginSlice *slice,
                                       gpointer             user_data);

/**
 * cs_plugin_document_foreach_slice:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none out of range)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @func: called for each slice of @cpu overlapping the span, in time
 *   order, not clipped to it
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Who ran on @cpu over a span, from the index's slice tables alone (no
 * record is read: ~2,000 slices per SQLite row, tens of nanoseconds
 * each).  Since API 1.5.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean           cs_plugin_document_foreach_slice  (CsPluginDocument *document,
                                                      guint             cpu,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      CsPluginSliceFunc func,
                                                      gpointer          user_data,
                                                      GError          **error);

/**
 * CsPluginSpanFunc:
 * @begin_ns: a span's start
 * @end_ns: its end (exclusive)
 * @user_data: the caller's data
 *
 * Returns: %TRUE to go on, %FALSE to stop
 */
typedef gboolean (*CsPluginSpanFunc) (gint64   begin_ns,
                                      gint64   end_ns,
                                      gpointer user_data);

/**
 * cs_plugin_document_foreach_unswitched:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none out of range)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @func: called with each part of the span where @cpu's slices do not
 *   say what its sched_switch records do, apart and in time order
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Where a reader of @cpu's sched_switch events must take them from the
 * records, not from cs_plugin_document_foreach_slice(): around each slice
 * without %CS_PLUGIN_SLICE_SWITCHED (from the end of the slice before it
 * to just after its own end), before the first slice that begins at or
 * after @end_ns when it is not switched, and after the CPU's last slice
 * when none begins at or after @end_ns (its last task may have no slice);
 * each clipped to the span.  Elsewhere the slices' switches and their
 * gaps (idle) are the records'.  The index's slice chunks that are all
 * switched are not decoded, so a span of seconds costs well under a
 * millisecond.  Since API 1.9.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean           cs_plugin_document_foreach_unswitched (CsPluginDocument *document,
                                                          guint             cpu,
                                                          gint64            begin_ns,
                                                          gint64            end_ns,
                                                          CsPluginSpanFunc  func,
                                                          gpointer          user_data,
                                                          GError          **error);

/**
 * cs_plugin_document_foreach_idle:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none out of range)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @func: called with each stretch of @cpu's idle time that begins in the
 *   span (from the sched_switch to the idle task to the one from it), in
 *   time order, not clipped to the span
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Where @cpu was idle, from the index's slices: the gaps between two
 * slices whose later one has %CS_PLUGIN_SLICE_SWITCHED (no sched_switch
 * lost between them, so both ends of the gap are recorded switches, to
 * and from pid 0).  Only the slices' times and flags are decoded.  Since
 * API 1.9.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean           cs_plugin_document_foreach_idle (CsPluginDocument *document,
                                                    guint             cpu,
                                                    gint64            begin_ns,
                                                    gint64            end_ns,
                                                    CsPluginSpanFunc  func,
                                                    gpointer          user_data,
                                                    GError          **error);

/**
 * CsPluginInterruptKind:
 * @CS_PLUGIN_IRQ_ENTRY: irq:irq_handler_entry (a hard interrupt's handler
 *   starts)
 * @CS_PLUGIN_IRQ_EXIT: irq:irq_handler_exit
 * @CS_PLUGIN_SOFTIRQ_ENTRY: irq:softirq_entry
 * @CS_PLUGIN_SOFTIRQ_EXIT: irq:softirq_exit
 *
 * Which interrupt event a #CsPluginInterrupt is (include/trace/events/irq.h).
 */
typedef enum {
  CS_PLUGIN_IRQ_ENTRY,
  CS_PLUGIN_IRQ_EXIT,
  CS_PLUGIN_SOFTIRQ_ENTRY,
  CS_PLUGIN_SOFTIRQ_EXIT,
} CsPluginInterruptKind;

/**
 * CsPluginInterrupt:
 * @ts_ns: the event's timestamp
 * @cpu: its CPU
 * @row: its position among the events of its CPU (as #CsPluginEvent's)
 * @kind: #CsPluginInterruptKind
 * @value: the irq field (@CS_PLUGIN_IRQ_ENTRY, @CS_PLUGIN_IRQ_EXIT) or the
 *   vec field (softirqs; 0 HI .. 9 RCU, kernel/softirq.c's softirq_to_name)
 *   of its record; -1 when the record lacked it
 * @name: (nullable): for @CS_PLUGIN_IRQ_ENTRY, the name field (the
 *   handler's: handlers sharing an irq line differ), valid as long as the
 *   document; %NULL otherwise
 *
 * One interrupt event, as the index keeps it: what its record says,
 * without reading it.
 */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  guint64 row;
  CsPluginInterruptKind kind;
  gint64 value;
  const char *name;
} CsPluginInterrupt;

/**
 * CsPluginInterruptFunc:
 * @interrupt: (transfer none): an interrupt event, valid during the call
 * @user_data: the caller's data
 *
 * Returns: %TRUE to go on, %FALSE to stop
 */
typedef gboolean (*CsPluginInterruptFunc) (const CsPluginInterrupt *interrupt,
                                           gpointer                 user_data);

/**
 * cs_plugin_document_foreach_interrupt:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none out of range)
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @func: called for each irq_handler_entry, irq_handler_exit,
 *   softirq_entry and softirq_exit event of @cpu in the span, in the
 *   CPU's order (time, then row)
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * A CPU's interrupt events of a span from the index's interrupt tables
 * alone: no record is read, and the event tables are not decoded (a wait
 * of seconds on a busy CPU: a few chunks of 1,024 interrupts instead of
 * thousands of chunks of events and a record per interrupt).  The same
 * events, with the same values, as cs_plugin_document_foreach_event() on
 * those four types gives.  Since API 1.7.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean           cs_plugin_document_foreach_interrupt (CsPluginDocument     *document,
                                                         guint                 cpu,
                                                         gint64                begin_ns,
                                                         gint64                end_ns,
                                                         CsPluginInterruptFunc func,
                                                         gpointer              user_data,
                                                         GError              **error);

/**
 * CsPluginMigration:
 * @ts_ns: the sched_migrate_task event's timestamp
 * @row: its position among the events of its CPU (as #CsPluginEvent's)
 * @cpu: the CPU that logged it (the one moving the task: not always
 *   @orig_cpu)
 * @pid: the task moved
 * @orig_cpu: the CPU whose run queue it left
 * @dest_cpu: the CPU whose run queue it joined
 *
 * A task moved between run queues, as the index keeps it
 * (events/sched/sched_migrate_task/format, from set_task_cpu() in
 * kernel/sched/core.c).  A field the record lacked is -1.  Since API 1.8.
 */
typedef struct {
  gint64 ts_ns;
  guint64 row;
  guint cpu;
  gint32 pid;
  gint32 orig_cpu;
  gint32 dest_cpu;
} CsPluginMigration;

/**
 * CsPluginMigrationFunc:
 * @migration: (transfer none): a migration, valid during the call
 * @user_data: the caller's data
 *
 * Returns: %TRUE to go on, %FALSE to stop
 */
typedef gboolean (*CsPluginMigrationFunc) (const CsPluginMigration *migration,
                                           gpointer                 user_data);

/**
 * cs_plugin_document_foreach_migration:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none out of range)
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @func: called for each sched_migrate_task event @cpu logged in the span,
 *   in the CPU's order (time, then row)
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * A CPU's task migrations of a span from the index's migration tables
 * alone: no record is read and the event tables are not decoded
 * (following a task across CPUs over seconds: a few chunks of 1,024
 * migrations per CPU, instead of the hundreds of event chunks holding
 * them).  The same events, with the same values, as
 * cs_plugin_document_foreach_event() on sched:sched_migrate_task gives.
 * Since API 1.8.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean           cs_plugin_document_foreach_migration (CsPluginDocument     *document,
                                                         guint                 cpu,
                                                         gint64                begin_ns,
                                                         gint64                end_ns,
                                                         CsPluginMigrationFunc func,
                                                         gpointer              user_data,
                                                         GError              **error);

G_END_DECLS
