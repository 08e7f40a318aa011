/* cs-task-timeline-private.h: the task timeline's walk, shared with the
 * wakeup queries of cs-range-stats.c, and the task rows it reads
 * (cs-task-rows.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <cs-plugin-wakeup.h>

#include "cs-task-timeline.h"

G_BEGIN_DECLS

/* A run of the task or a wakeup aimed at it, as task_chunks keeps it
 * (cs-index-private.h's TK_* columns), and the CPU of its chunk. */
typedef struct {
  gint64 ts;
  gint64 duration;
  gint32 kind;
  gint32 state;
  gint32 cpu;
} CsTaskRow;

/* A chunk of task_chunks: its rowid and CPU. */
typedef struct {
  gint64 rowid;
  gint32 cpu;
} CsTaskChunkRef;

/* Appends to @chunks (CsTaskChunkRef) the chunks of @pid that a walk of
 * [@begin_ns, @end_ns) reads: per CPU, in CPU order, its latest chunk
 * ending before @begin_ns, then those overlapping the span, in time order.
 * From the task's directory (read on first use, kept in @self).  Errors
 * as cs_document_get_task_intervals(). */
gboolean _cs_document_select_task_chunks (CsDocument  *self,
                                          gint32       pid,
                                          gint64       begin_ns,
                                          gint64       end_ns,
                                          GArray      *chunks,
                                          GError     **error);
/* Appends to @rows (CsTaskRow) the rows of @chunks, in their order. */
gboolean _cs_document_read_task_chunks   (CsDocument  *self,
                                          GArray      *chunks,
                                          GArray      *rows,
                                          GError     **error);
/* Appends to @rows (CsTaskRow) the rows a walk of [@begin_ns, @end_ns)
 * reads (_cs_document_select_task_chunks()'s chunks): in CPU order and,
 * within a CPU, in time order. */
gboolean _cs_document_read_task_rows     (CsDocument  *self,
                                          gint32       pid,
                                          gint64       begin_ns,
                                          gint64       end_ns,
                                          GArray      *rows,
                                          GError     **error);

/* Called with each wait of the rule (cs-plugin-wakeup.h) that a switch-in
 * before the span's end closed, in time order; then, once, with the wait
 * still open at the span's end, if any: its run_ns and cpu are -1. */
typedef void (*CsTaskWaitFunc) (const CsPluginWakeupWait *wait,
                                gpointer                  user_data);

/* Walks @pid's events of [@begin_ns, @end_ns) (and the state before it,
 * from the chunks before): appends to @intervals (nullable) what
 * cs_document_get_task_intervals() returns, and calls @func (nullable)
 * with the waits.  Errors as cs_document_get_task_intervals(). */
gboolean _cs_document_walk_task (CsDocument     *self,
                                 gint32          pid,
                                 gint64          begin_ns,
                                 gint64          end_ns,
                                 GArray         *intervals,
                                 CsTaskWaitFunc  func,
                                 gpointer        user_data,
                                 GError        **error);

G_END_DECLS
