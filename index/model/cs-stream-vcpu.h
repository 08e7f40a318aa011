/* cs-stream-vcpu.h: when a guest stream's vCPU was out of the guest, in
 * the guest's own clock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The one place that turns the host's view of a vCPU
 * (cs_stream_get_vcpu_timeline(), in the host's clock) into spans of the
 * guest's clock: SQL's vcpu_out_ns() and vcpu_not_running_ns() sum them,
 * and the plugin API's cs_plugin_document_get_vcpu_out() hands them to
 * the latency plugin, whose breakdown of a guest wakeup carves them out
 * of what held the waiting CPU.  Both therefore agree to the nanosecond.
 *
 * cs-stream-vcpu.c also builds that view, which cs-stream.h declares
 * (cs_stream_get_vcpu_timeline(), cs_stream_peek_vcpu_timeline()).
 *
 * GTK-free; the thread that owns the stream's document.
 */
#pragma once

#include "cs-stream.h"

G_BEGIN_DECLS

gboolean cs_stream_get_vcpu_out (CsStream *self,
                                 guint     vcpu,
                                 gint64    begin_ns,
                                 gint64    end_ns,
                                 GArray   *intervals,
                                 gboolean *exits_known);

G_END_DECLS
