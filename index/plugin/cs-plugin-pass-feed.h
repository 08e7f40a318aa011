/* cs-plugin-pass-feed.h: the events a plugin pass reads, in time order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-document.h"

G_BEGIN_DECLS

struct tep_record;
struct tep_event;

/**
 * CsPassFeedEvent:
 * @cpu: the CPU whose ring buffer held the event
 * @row: its row among the CPU's events in the index
 * @ts_ns: its time, ns (the record's, as cs_trace_file_read_at() gives it)
 * @record: the record, for libtraceevent; valid until the next
 *   _cs_pass_feed_next() call
 * @format: its format, or %NULL when the feed could not tell it (then
 *   look it up from the record)
 * @pid: its common_pid, when @format is set
 *
 * One event of a pass.
 */
typedef struct {
  guint cpu;
  guint64 row;
  gint64 ts_ns;
  struct tep_record *record;
  struct tep_event *format;
  gint32 pid;
} CsPassFeedEvent;

typedef struct _CsPassFeed CsPassFeed;

CsPassFeed *_cs_pass_feed_new  (CsDocument       *document,
                                const gboolean   *wanted,
                                GError          **error);
gboolean    _cs_pass_feed_next (CsPassFeed       *feed,
                                CsPassFeedEvent  *event,
                                GError          **error);
void        _cs_pass_feed_free (CsPassFeed       *feed);
gboolean    _cs_pass_feed_is_threaded (CsDocument *document);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPassFeed, _cs_pass_feed_free)

G_END_DECLS
