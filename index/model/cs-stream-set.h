/* cs-stream-set.h: the recordings of one window, on one time axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsStreamSet is a GListModel of CsStream, in display order, that decides
 * how each stream's times reach the common axis whenever a stream is added,
 * removed or moved (see #CsStreamAlignment):
 *
 * 1. A recording with a TIME_SHIFT option (a KVM guest's, trace-cmd.dat.v7(5)
 *    option 12) is related to the stream whose TRACEID its option names,
 *    with cs_time_relation_new(), which checks the pair (trace IDs, tick
 *    conversion, sane offsets).  When that host is not in the set, when the
 *    option names another host than the one open, or when the offsets are
 *    absurd, the guest is unrelated and its note says which and why; it is
 *    never shifted by numbers that do not belong to it.
 * 2. The reference is the stream cs_stream_set_set_reference() named or,
 *    by default, the first stream that is not a related guest; its clock
 *    is the axis.  A related guest as reference puts its host on its
 *    clock through the inverse conversion (%CS_STREAM_ALIGNMENT_HOST).
 * 3. Every other stream is "as recorded" when its UNAME host name and its
 *    trace clock equal the reference's, otherwise unrelated: its first event
 *    is put at the reference's first event, and the note says so and invites
 *    a manual shift.
 *
 * GTK-free; the thread that owns the documents.
 */
#pragma once

#include "cs-stream.h"

G_BEGIN_DECLS

#define CS_TYPE_STREAM_SET (cs_stream_set_get_type ())
G_DECLARE_FINAL_TYPE (CsStreamSet, cs_stream_set, CS, STREAM_SET, GObject)

CsStreamSet *cs_stream_set_new              (void);
guint        cs_stream_set_get_n_streams    (CsStreamSet *self);
CsStream    *cs_stream_set_get_stream       (CsStreamSet *self,
                                             guint        position);
CsStream    *cs_stream_set_get_reference    (CsStreamSet *self);
CsStream    *cs_stream_set_add              (CsStreamSet *self,
                                             CsDocument  *document,
                                             const char  *name);
gboolean     cs_stream_set_find             (CsStreamSet *self,
                                             CsStream    *stream,
                                             guint       *position);
CsStream    *cs_stream_set_find_path        (CsStreamSet *self,
                                             const char  *trace_path);
void         cs_stream_set_remove           (CsStreamSet *self,
                                             CsStream    *stream);
void         cs_stream_set_move             (CsStreamSet *self,
                                             CsStream    *stream,
                                             guint        position);
void         cs_stream_set_set_reference    (CsStreamSet *self,
                                             CsStream    *stream);
gboolean     cs_stream_set_get_span         (CsStreamSet *self,
                                             gint64      *begin_ns,
                                             gint64      *end_ns);

G_END_DECLS
