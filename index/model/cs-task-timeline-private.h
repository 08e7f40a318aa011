/* cs-task-timeline-private.h: the task timeline's walk, shared with the
 * wakeup queries of cs-range-stats.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <cs-plugin-wakeup.h>

#include "cs-task-timeline.h"

G_BEGIN_DECLS

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
