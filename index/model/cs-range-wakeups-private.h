/* cs-range-wakeups-private.h: the wakeup latency summary of a span, for
 * cs_document_compute_range_stats() (cs-range-stats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-document.h"
#include "cs-range-stats.h"

G_BEGIN_DECLS

/* Sets @stats->wakeups from the wakeups of the tasks in @candidates (pid
 * set; every task when NULL) whose wait opened in [@stats->begin_ns,
 * @stats->end_ns), by the rule of cs-plugin-wakeup.h.  For the whole
 * recording (@stats->whole) the summary is read from, or kept in, a file
 * beside the index.  The thread that owns @doc; a large span is shared
 * with a second thread that opens the recording again.  FALSE with
 * @error set (G_IO_ERROR_CANCELLED, or the index's errors). */
gboolean _cs_range_stats_add_wakeups (CsDocument    *doc,
                                      CsRangeStats  *stats,
                                      GHashTable    *candidates,
                                      GCancellable  *cancellable,
                                      GError       **error);

/* The events the second thread's share of tasks must hold for it to
 * start (default 2^22); tests set 0 to have it walk every span. */
extern guint64 _cs_range_wakeups_share_min_events;
/* Shares a second thread walked (atomic), for tests. */
extern guint _cs_range_wakeups_n_helped;

G_END_DECLS
