/* cs-stream.h: one recording among several on a window's common time axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsStream is a CsDocument with what a window shows about it next to
 * other recordings (KernelShark 2.x calls these "data streams"): a display
 * name, the facts of its header (file, host name, kernel, clock), and how
 * its timestamps map onto the window's common axis.  The mapping is decided
 * by the CsStreamSet the stream belongs to (cs-stream-set.h):
 *
 *   reference     the axis is this recording's clock
 *   as recorded   same machine and same trace clock as the reference
 *   guest         a KVM guest whose TIME_SHIFT option names a host stream
 *                 of the set: each timestamp goes through CsTimeRelation
 *                 (cs-tracedat-clock.h), as libtracecmd converts it, then
 *                 through its host's own mapping
 *   host          the host of a guest that is the reference: the guest's
 *                 conversion, inverted per timestamp
 *   unrelated     nothing relates the clocks: the stream's first event is
 *                 put at the reference's first event, and a note says so
 *
 * plus a manual offset in ns that the user sets (or that
 * cs_stream_align_times() computes from one moment of each stream).  Axis
 * time = mapped time + the stream's base offset + its manual offset; a
 * guest is mapped through its host's mapping (so that a pair moves
 * together), a host of the reference guest through that guest's.
 *
 * GTK-free; used from the thread that owns its document.
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-vcpu-timeline.h"

G_BEGIN_DECLS

/**
 * CsStreamAlignment:
 * @CS_STREAM_ALIGNMENT_REFERENCE: the axis is this stream's own clock
 * @CS_STREAM_ALIGNMENT_AS_RECORDED: same machine and trace clock as the
 *   reference: times are used as recorded
 * @CS_STREAM_ALIGNMENT_GUEST: a KVM guest of a host stream of the set:
 *   times are converted by the guest's TIME_SHIFT option, per timestamp
 * @CS_STREAM_ALIGNMENT_HOST: the KVM host of the reference, a guest: times
 *   are converted by the inverse of the guest's TIME_SHIFT conversion, per
 *   timestamp
 * @CS_STREAM_ALIGNMENT_UNRELATED: no known relation to the reference (other
 *   clock, other machine, or a guest whose host is missing or does not
 *   match): the stream's start is put at the reference's start, and
 *   cs_stream_get_note() says why
 *
 * How a stream's timestamps reach the common axis.
 */
typedef enum {
  CS_STREAM_ALIGNMENT_REFERENCE,
  CS_STREAM_ALIGNMENT_AS_RECORDED,
  CS_STREAM_ALIGNMENT_GUEST,
  CS_STREAM_ALIGNMENT_HOST,
  CS_STREAM_ALIGNMENT_UNRELATED,
} CsStreamAlignment;

#define CS_TYPE_STREAM (cs_stream_get_type ())
G_DECLARE_FINAL_TYPE (CsStream, cs_stream, CS, STREAM, GObject)

CsStream          *cs_stream_new                (CsDocument  *document,
                                                 const char  *name);
CsDocument        *cs_stream_get_document       (CsStream    *self);
const char        *cs_stream_get_name           (CsStream    *self);
void               cs_stream_set_name           (CsStream    *self,
                                                 const char  *name);
const char        *cs_stream_get_path           (CsStream    *self);
const char        *cs_stream_get_host_name      (CsStream    *self);
const char        *cs_stream_get_kernel         (CsStream    *self);
const char        *cs_stream_get_clock          (CsStream    *self);
const char        *cs_stream_get_clock_description (CsStream *self);
gboolean           cs_stream_get_trace_id       (CsStream    *self,
                                                 guint64     *trace_id);
gboolean           cs_stream_get_peer_trace_id  (CsStream    *self,
                                                 guint64     *trace_id);
CsStreamAlignment  cs_stream_get_alignment      (CsStream    *self);
const char        *cs_stream_get_note           (CsStream    *self);
CsStream          *cs_stream_get_host           (CsStream    *self);
CsStream          *cs_stream_get_reference_guest (CsStream   *self);
gint32             cs_stream_get_vcpu_tid       (CsStream    *self,
                                                 guint        vcpu);
CsVcpuTimeline    *cs_stream_get_vcpu_timeline  (CsStream    *self);
CsVcpuTimeline    *cs_stream_peek_vcpu_timeline (CsStream    *self);
gboolean           cs_stream_guest_to_host_ns   (CsStream    *self,
                                                 guint        vcpu,
                                                 gint64       ts_ns,
                                                 gint64      *host_ns);
gboolean           cs_stream_get_start_shift    (CsStream    *self,
                                                 gint64      *offset_ns,
                                                 gint64      *scaling,
                                                 gint64      *fraction_bits);
gboolean           cs_stream_is_kvm_host        (CsStream    *self);
gboolean           cs_stream_is_aligned         (CsStream    *self);
gint64             cs_stream_get_offset_ns      (CsStream    *self);
void               cs_stream_set_offset_ns      (CsStream    *self,
                                                 gint64       offset_ns);
gboolean           cs_stream_get_collapsed      (CsStream    *self);
void               cs_stream_set_collapsed      (CsStream    *self,
                                                 gboolean     collapsed);
gboolean           cs_stream_get_hidden         (CsStream    *self);
void               cs_stream_set_hidden         (CsStream    *self,
                                                 gboolean     hidden);
gint64             cs_stream_to_axis_ns         (CsStream    *self,
                                                 guint        cpu,
                                                 gint64       ts_ns);
gint64             cs_stream_from_axis_ns       (CsStream    *self,
                                                 guint        cpu,
                                                 gint64       axis_ns);
void               cs_stream_align_times        (CsStream    *self,
                                                 gint64       ts_ns,
                                                 CsStream    *other,
                                                 gint64       other_ts_ns);

G_END_DECLS
