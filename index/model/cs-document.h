/* cs-document.h: read-only queries on the event index of one recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsDocument is what every view reads: it answers from the SQLite index
 * built by cs_index_build() and formats event text on demand from the
 * recording with libtraceevent.  Time is nanoseconds in the recording's trace
 * clock; spans are half-open [begin_ns, end_ns).  A document is used from
 * one thread at a time (it owns one SQLite connection).
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-error.h"
#include "cs-index-progress.h"
#include "cs-trace-file.h"

G_BEGIN_DECLS

/**
 * CsEventType:
 * @id: dense id used by the index (0 .. n_event_types - 1)
 * @system: trace event system, as in events/<system>/ of tracefs
 * @name: trace event name, as in events/<system>/<name>/
 * @n_events: events of this type in the recording
 */
typedef struct {
  guint id;
  const char *system;
  const char *name;
  guint64 n_events;
} CsEventType;

/**
 * CsCpuInfo:
 * @cpu: CPU number
 * @n_events: events recorded on this CPU
 * @first_ns: timestamp of its first event (0 when it has none)
 * @last_ns: timestamp of its last event (0 when it has none)
 * @missed_events: events the kernel reported as lost on this CPU
 * @has_sched_switch: whether any sched:sched_switch was recorded here, that is
 *   whether the CPU plot can show who ran
 */
typedef struct {
  guint cpu;
  guint64 n_events;
  gint64 first_ns;
  gint64 last_ns;
  guint64 missed_events;
  gboolean has_sched_switch;
} CsCpuInfo;

/**
 * CsTask:
 * @pid: thread id (the kernel's pid); 0 is the idle task
 * @comm: its last known command name (TASK_COMM_LEN bytes at most)
 * @n_events: events recorded in its context
 * @runtime_ns: time it ran on any CPU according to sched_switch
 */
typedef struct {
  gint32 pid;
  const char *comm;
  guint64 n_events;
  gint64 runtime_ns;
} CsTask;

/**
 * CsEvent:
 * @ts_ns: timestamp
 * @offset: the record's offset, see #CsRecord
 * @pid: common_pid of the record
 * @type_id: #CsEventType id
 * @cpu: CPU whose ring buffer held it
 * @row: index of the event among its CPU's events (0-based, time order)
 */
typedef struct {
  gint64 ts_ns;
  guint64 offset;
  gint32 pid;
  guint32 type_id;
  guint32 cpu;
  guint64 row;
} CsEvent;

/**
 * CsSlice:
 * @begin_ns: when the task was switched in (or the CPU's first event)
 * @end_ns: when it was switched out (exclusive)
 * @pid: the task that ran; never 0 (idle is absence)
 * @prev_state: the prev_state of the sched_switch that ended the slice
 *   (TASK_* bits as the recording's sched_switch format prints them; -1 when
 *   the recording ended while the task ran)
 * @flags: #CS_SLICE_SWITCHED, #CS_SLICE_SAME_TASK
 * @next_prio: the next_prio of the sched_switch that began the slice
 *   (include/trace/events/sched.h; -1 also for SCHED_DEADLINE); -1 when
 *   @next_comm is %NULL
 * @next_comm: (nullable): that sched_switch's next_comm, owned by the
 *   document; %NULL when no recorded sched_switch to @pid began the slice
 *   (the CPU's first run, or events lost before it) or it had no next_comm
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gint32 pid;
  gint32 prev_state;
  guint flags;
  gint32 next_prio;
  const char *next_comm;
} CsSlice;

/**
 * CsIrqKind:
 * @CS_IRQ_ENTRY: irq:irq_handler_entry
 * @CS_IRQ_EXIT: irq:irq_handler_exit
 * @CS_SOFTIRQ_ENTRY: irq:softirq_entry
 * @CS_SOFTIRQ_EXIT: irq:softirq_exit
 */
typedef enum {
  CS_IRQ_ENTRY,
  CS_IRQ_EXIT,
  CS_SOFTIRQ_ENTRY,
  CS_SOFTIRQ_EXIT,
} CsIrqKind;

/**
 * CsIrq:
 * @ts_ns: the event's timestamp
 * @row: its row among its CPU's events (as #CsEvent's)
 * @cpu: its CPU
 * @kind: which of the four interrupt events it is
 * @value: its irq field (hard interrupts) or vec field (softirqs), as
 *   events/irq/<name>/format gives them; -1 when its record lacked it
 * @name: (nullable): an irq_handler_entry's name field (the handler's
 *   name: several share an irq line), owned by the document; %NULL for
 *   the other kinds
 */
typedef struct {
  gint64 ts_ns;
  guint64 row;
  guint cpu;
  CsIrqKind kind;
  gint64 value;
  const char *name;
} CsIrq;

typedef gboolean (*CsIrqFunc) (const CsIrq *irq,
                               gpointer     user_data);

/**
 * CsMigration:
 * @ts_ns: the sched_migrate_task event's timestamp
 * @row: its row among its CPU's events (as #CsEvent's)
 * @cpu: the CPU that logged it (the one that moved the task, not always
 *   @orig_cpu)
 * @pid: the task moved
 * @orig_cpu: the CPU whose run queue it left
 * @dest_cpu: the CPU whose run queue it joined
 *
 * A task moved between run queues (events/sched/sched_migrate_task/format;
 * set_task_cpu() in kernel/sched/core.c).  Fields the record lacks are -1.
 */
typedef struct {
  gint64 ts_ns;
  guint64 row;
  guint cpu;
  gint32 pid;
  gint32 orig_cpu;
  gint32 dest_cpu;
} CsMigration;

typedef gboolean (*CsMigrationFunc) (const CsMigration *migration,
                                     gpointer           user_data);

/**
 * CS_SLICE_SWITCHED:
 *
 * A #CsSlice flag: a sched_switch to @pid began the slice, one from @pid
 * ended it, and every sched_switch of the CPU since its previous slice
 * switched out the task the one before had switched in (no events lost
 * between, none before the CPU's first sched_switch).  Then the CPU's
 * slices alone say what its sched_switch events say: @pid ran from
 * @begin_ns to @end_ns, the idle task (pid 0) in the gaps.
 */
#define CS_SLICE_SWITCHED 1u

/**
 * CS_SLICE_SAME_TASK:
 *
 * A #CsSlice flag, only with #CS_SLICE_SWITCHED: the sched_switch that
 * began the slice had the same next_comm and next_prio as the one that
 * began @pid's previous slice on this CPU, which was switched too (the
 * slices of zero length are not stored and do not count).  A reader that
 * knows one slice's comm and prio knows those of the slices after it
 * without reading their records, until one lacks the flag.
 */
#define CS_SLICE_SAME_TASK 2u

/**
 * CsColumn:
 * @n_events: events whose timestamp falls in the column
 * @busy_ns: time a non-idle task ran in the column (0 without sched_switch)
 * @dominant_pid: the task that ran longest in the column, or, with no
 *   sched_switch data, the pid with most events; -1 when the column is empty
 *
 * What one pixel column of a CPU plot shows.
 */
typedef struct {
  guint32 n_events;
  gint64 busy_ns;
  gint32 dominant_pid;
} CsColumn;

/**
 * CsMissedEvents:
 * @ts_ns: time of the first event recorded after the loss
 * @cpu: the CPU whose ring buffer lost events
 * @n_missed: how many it lost (the page header's count), %G_MAXUINT64 when
 *   the kernel did not count them
 *
 * Where a CPU's ring buffer was overrun.
 */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  guint64 n_missed;
} CsMissedEvents;

#define CS_TYPE_DOCUMENT (cs_document_get_type ())
G_DECLARE_FINAL_TYPE (CsDocument, cs_document, CS, DOCUMENT, GObject)

/* Opening */
CsDocument        *cs_document_open_cached       (const char          *trace_path,
                                                  GError             **error);
CsDocument        *cs_document_open              (const char          *trace_path,
                                                  const char          *index_path,
                                                  GError             **error);
CsDocument        *cs_document_open_as           (const char          *trace_path,
                                                  const char          *index_path,
                                                  const char          *identity,
                                                  GError             **error);
CsDocument        *cs_document_load              (const char          *trace_path,
                                                  CsIndexProgressFunc  progress,
                                                  gpointer             user_data,
                                                  GCancellable        *cancellable,
                                                  gboolean            *reused,
                                                  GError             **error);
CsDocument        *cs_document_load_full         (const char          *trace_path,
                                                  CsIndexProgressFunc  progress,
                                                  CsIndexPositionFunc  position,
                                                  gpointer             user_data,
                                                  GCancellable        *cancellable,
                                                  gboolean            *reused,
                                                  GError             **error);

/* The recording */
CsTraceFile       *cs_document_get_trace_file    (CsDocument  *self);
CsTraceFile       *cs_document_open_trace_file   (CsDocument  *self,
                                                  GError     **error);
const char        *cs_document_get_trace_path    (CsDocument  *self);
const char        *cs_document_get_index_path    (CsDocument  *self);
const char        *cs_document_get_identity      (CsDocument  *self);
const char        *cs_document_get_clock         (CsDocument  *self);
guint              cs_document_get_file_version  (CsDocument  *self);
const char        *cs_document_get_source_format (CsDocument  *self);
guint64            cs_document_get_n_bad_lines   (CsDocument  *self,
                                                  guint64     *first_bad_line);
const char        *cs_document_get_compression   (CsDocument  *self);
guint              cs_document_get_n_cpus        (CsDocument  *self);
guint64            cs_document_get_n_events      (CsDocument  *self);
gint64             cs_document_get_first_ns      (CsDocument  *self);
gint64             cs_document_get_last_ns       (CsDocument  *self);
gint64             cs_document_get_summary_resolution_ns (CsDocument *self);
const CsCpuInfo   *cs_document_get_cpu           (CsDocument  *self,
                                                  guint        cpu);
guint              cs_document_get_n_event_types (CsDocument  *self);
const CsEventType *cs_document_get_event_type    (CsDocument  *self,
                                                  guint        type_id);
guint64            cs_document_get_cpu_type_count (CsDocument *self,
                                                  guint        cpu,
                                                  guint        type_id);

/* Tasks */
guint              cs_document_get_n_tasks       (CsDocument  *self);
const CsTask      *cs_document_get_task          (CsDocument  *self,
                                                  guint        index);
const CsTask      *cs_document_lookup_task       (CsDocument  *self,
                                                  gint32       pid);
const char        *cs_document_get_comm          (CsDocument  *self,
                                                  gint32       pid);

/* Timeline queries */
gboolean           cs_document_get_cpu_columns   (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       begin_ns,
                                                  gint64       end_ns,
                                                  guint        n_columns,
                                                  CsColumn    *columns,
                                                  GError     **error);
gboolean           cs_document_get_slices        (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       begin_ns,
                                                  gint64       end_ns,
                                                  GArray      *slices,
                                                  GError     **error);
gboolean           cs_document_get_events        (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       begin_ns,
                                                  gint64       end_ns,
                                                  guint        max_events,
                                                  GArray      *events,
                                                  GError     **error);
gboolean           cs_document_get_events_of_types (CsDocument   *self,
                                                  guint           cpu,
                                                  gint64          begin_ns,
                                                  gint64          end_ns,
                                                  const gboolean *wanted,
                                                  guint           n_types,
                                                  guint           max_events,
                                                  GArray         *events,
                                                  GError        **error);
gboolean           cs_document_find_event_near   (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       ts_ns,
                                                  gint64       radius_ns,
                                                  CsEvent     *event,
                                                  GError     **error);
gboolean           cs_document_get_event_at_row  (CsDocument  *self,
                                                  guint        cpu,
                                                  guint64      row,
                                                  CsEvent     *event,
                                                  GError     **error);
gboolean           cs_document_get_missed_events (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       begin_ns,
                                                  gint64       end_ns,
                                                  GArray      *missed,
                                                  GError     **error);
gboolean           cs_document_foreach_irq       (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       begin_ns,
                                                  gint64       end_ns,
                                                  CsIrqFunc    func,
                                                  gpointer     user_data,
                                                  GError     **error);
gboolean           cs_document_foreach_migration (CsDocument      *self,
                                                  guint            cpu,
                                                  gint64           begin_ns,
                                                  gint64           end_ns,
                                                  CsMigrationFunc  func,
                                                  gpointer         user_data,
                                                  GError         **error);
gboolean           cs_document_find_slice_at     (CsDocument  *self,
                                                  guint        cpu,
                                                  gint64       ts_ns,
                                                  CsSlice     *slice,
                                                  GError     **error);
char              *cs_document_format_event      (CsDocument  *self,
                                                  const CsEvent *event,
                                                  GError     **error);
char              *cs_document_format_latency    (CsDocument  *self,
                                                  const CsEvent *event,
                                                  GError     **error);
char             **cs_document_dup_event_fields  (CsDocument  *self,
                                                  const CsEvent *event,
                                                  GError     **error);

G_END_DECLS
