/* cs-range-stats.h: what happened during a span of a recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The answers every user asks of a range without writing a query: which
 * tasks used the CPUs and how much, how busy each CPU was, how many events
 * of each type, and the wakeup latencies (sched_waking / sched_wakeup to
 * the sched_switch that ran the task, by the one rule of
 * cs-plugin-wakeup.h that the latency plugin's wakeup preset follows too).  For the whole recording the
 * figures come from the index's summaries; for a span, from the chunks of
 * that span only.
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-stream.h"

G_BEGIN_DECLS

/**
 * CsTaskTime:
 * @pid: the task (never 0: idle is not a task here)
 * @runtime_ns: time it ran on any CPU in the span (slices clipped to it)
 * @share: @runtime_ns over the CPU time of the span (its duration times
 *   the number of CPUs), 0 .. 1
 */
typedef struct {
  gint32 pid;
  gint64 runtime_ns;
  double share;
} CsTaskTime;

/**
 * CsCpuBusy:
 * @cpu: a CPU
 * @busy_ns: time a task other than idle ran on it in the span (0 without
 *   sched_switch events on that CPU)
 * @n_events: events recorded on it in the span
 */
typedef struct {
  guint cpu;
  gint64 busy_ns;
  guint64 n_events;
} CsCpuBusy;

/**
 * CsTypeCount:
 * @type_id: a #CsEventType id
 * @n_events: its events in the span (> 0)
 */
typedef struct {
  guint type_id;
  guint64 n_events;
} CsTypeCount;

/**
 * CsLatencySummary:
 * @count: wakeups whose sched_waking (or sched_wakeup, sched_wakeup_new)
 *   that opened the wait lies in the span (cs-plugin-wakeup.h)
 * @min_ns: shortest wakeup latency (0 when @count is 0)
 * @p50_ns: median, nearest-rank
 * @p90_ns: 90th percentile, nearest-rank
 * @p99_ns: 99th percentile, nearest-rank
 * @max_ns: longest
 */
typedef struct {
  guint64 count;
  gint64 min_ns;
  gint64 p50_ns;
  gint64 p90_ns;
  gint64 p99_ns;
  gint64 max_ns;
} CsLatencySummary;

/**
 * CsRangeStats:
 * @begin_ns: start of the span (inclusive), clipped to the recording
 * @end_ns: end of the span (exclusive), clipped to the recording
 * @whole: whether the span is the whole recording (the figures then come
 *   from the index's summaries and tables)
 * @n_events: events in the span
 * @tasks: (element-type CsTaskTime): tasks that ran, longest first
 * @cpus: (element-type CsCpuBusy): every CPU, in order
 * @event_types: (element-type CsTypeCount): types with events, most first
 * @wakeups: the wakeup latencies
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gboolean whole;
  guint64 n_events;
  GArray *tasks;
  GArray *cpus;
  GArray *event_types;
  CsLatencySummary wakeups;
} CsRangeStats;

CsRangeStats *cs_document_compute_range_stats (CsDocument    *self,
                                               gint64         begin_ns,
                                               gint64         end_ns,
                                               GCancellable  *cancellable,
                                               GError       **error);
void          cs_range_stats_free             (CsRangeStats  *stats);
void          cs_stream_span_from_axis        (CsStream      *stream,
                                               gint64         begin_ns,
                                               gint64         end_ns,
                                               gint64        *own_begin_ns,
                                               gint64        *own_end_ns);
GArray       *cs_document_compute_task_times  (CsDocument    *self,
                                               gint64         begin_ns,
                                               gint64         end_ns,
                                               GCancellable  *cancellable,
                                               GError       **error);


/**
 * CsWakeupFunc:
 * @wakeup_ns: time of the wakeup that opened the wait (cs-plugin-wakeup.h)
 * @run_ns: time of the sched_switch that ran the task; the wakeup latency
 *   is @run_ns - @wakeup_ns
 * @cpu: the CPU it then ran on, -1 when unknown
 * @user_data: closure
 */
typedef void (*CsWakeupFunc) (gint64   wakeup_ns,
                              gint64   run_ns,
                              gint32   cpu,
                              gpointer user_data);

gboolean      cs_document_foreach_wakeup      (CsDocument    *self,
                                               gint32         pid,
                                               gint64         begin_ns,
                                               gint64         end_ns,
                                               CsWakeupFunc   func,
                                               gpointer       user_data,
                                               GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsRangeStats, cs_range_stats_free)

G_END_DECLS
