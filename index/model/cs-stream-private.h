/* cs-stream-private.h: what CsStreamSet sets on its streams.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-stream.h"
#include "cs-tracedat-clock.h"

G_BEGIN_DECLS

/* The host's view of a guest stream's vCPUs, built on demand by
 * cs-stream-vcpu.c (cs_stream_get_vcpu_timeline(), or in a worker thread
 * by cs_stream_peek_vcpu_timeline()); the stream owns it. */
typedef struct {
  CsVcpuTimeline *timeline;   /* NULL until built */
  gboolean tried;             /* a build was started or failed */
  GCancellable *build;        /* the background build in flight, or NULL */
} CsStreamVcpuView;

CsStreamVcpuView *_cs_stream_get_vcpu_view (CsStream     *self);
void              _cs_stream_vcpu_view_clear (CsStreamVcpuView *view);
void              _cs_stream_notify_vcpu_timeline_ready (CsStream *self);

CsTracedatReader *_cs_stream_get_reader   (CsStream          *self);
CsTracedatReader *_cs_stream_get_full_reader (CsStream       *self,
                                            GError           **error);
CsTimeRelation   *_cs_stream_get_relation (CsStream         *self);
void              _cs_stream_set_reference_guest (CsStream   *self,
                                                  CsStream   *guest);
void              _cs_stream_set_alignment (CsStream         *self,
                                            CsStreamAlignment  alignment,
                                            gint64             base_offset_ns,
                                            CsStream          *host,
                                            CsTimeRelation    *relation,
                                            const char        *note);

G_END_DECLS
