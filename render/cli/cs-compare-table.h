/* cs-compare-table.h: the statistics of two recordings side by side.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-document.h"
#include "cs-range-stats.h"

G_BEGIN_DECLS

/**
 * CsComparePair:
 * @a: the figure in recording A
 * @b: the figure in recording B (the difference is @b - @a, the change
 *   (@b - @a) / @a, undefined when @a is 0)
 *
 * Integer figures (ns, counts) are exact up to 2^53.
 */
typedef struct {
  double a;
  double b;
} CsComparePair;

/**
 * CsCompareTask:
 * @comm: the command name
 * @pid: the pid when a task of this comm and pid ran in both recordings;
 *   -1 for the row that sums the other tasks of @comm (their pids differ)
 * @n_a: tasks of A summed in this row (0 when none ran in A)
 * @n_b: tasks of B summed in this row
 * @runtime_ns: CPU time
 * @share: share of the span's CPU time, 0 .. 1
 */
typedef struct {
  char *comm;
  gint32 pid;
  guint n_a, n_b;
  CsComparePair runtime_ns;
  CsComparePair share;
} CsCompareTask;

/**
 * CsCompareCpu:
 * @cpu: a CPU number (0 in a recording without it)
 * @busy_ns: time a task other than idle ran on it
 * @n_events: events recorded on it
 */
typedef struct {
  guint cpu;
  CsComparePair busy_ns;
  CsComparePair n_events;
} CsCompareCpu;

/**
 * CsCompareType:
 * @system: the event's system, as "sched"
 * @name: its name, as "sched_switch"
 * @n_events: its events (0 in a recording without the type)
 */
typedef struct {
  char *system;
  char *name;
  CsComparePair n_events;
} CsCompareType;

/**
 * CsCompareSide:
 * @name: the recording's file name (basename)
 * @begin_ns: start of its span (inclusive), its own trace clock
 * @end_ns: end of its span (exclusive)
 * @whole: whether the span is the whole recording
 */
typedef struct {
  char *name;
  gint64 begin_ns;
  gint64 end_ns;
  gboolean whole;
} CsCompareSide;

/**
 * CsCompareTable:
 * @a: recording A
 * @b: recording B
 * @n_events: events in the spans
 * @tasks: (element-type CsCompareTask): tasks matched by comm, and by pid
 *   where it is the same; longest-running (in A or B) first
 * @cpus: (element-type CsCompareCpu): every CPU of either, in order
 * @event_types: (element-type CsCompareType): types with events in
 *   either, most events (in A or B) first
 * @wakeups: the wakeup latency summary, in the order count, min_ns,
 *   p50_ns, p90_ns, p99_ns, max_ns
 */
typedef struct {
  CsCompareSide a;
  CsCompareSide b;
  CsComparePair n_events;
  GArray *tasks;
  GArray *cpus;
  GArray *event_types;
  CsComparePair wakeups[6];
} CsCompareTable;

CsCompareTable *cs_compare_table_new     (CsDocument           *doc_a,
                                          const CsRangeStats   *stats_a,
                                          CsDocument           *doc_b,
                                          const CsRangeStats   *stats_b);
void            cs_compare_table_free    (CsCompareTable       *table);
char           *cs_compare_table_to_text (const CsCompareTable *table,
                                          guint                 top);
char           *cs_compare_table_to_json (const CsCompareTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCompareTable, cs_compare_table_free)

G_END_DECLS
