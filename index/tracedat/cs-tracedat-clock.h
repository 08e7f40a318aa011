/* cs-tracedat-clock.h: how a trace.dat recording's clock relates to
 * nanoseconds and to a peer recording (a KVM host and its guest).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * trace-cmd 3.x writes four options for this (trace-cmd.dat.v7(5), option
 * ids 11, 12, 13 and 14), which libtracecmd reads in handle_options() of
 * lib/trace-cmd/trace-input.c:
 *
 *   TRACEID (11)     the recording's own 8-byte trace ID.
 *   TIME_SHIFT (12)  in a guest's file: the host's trace ID, protocol flags
 *                    and, per guest vCPU, samples (time, offset, scaling,
 *                    fraction bits) that map the guest's ring-buffer clock
 *                    onto the host's (tsync_cpu_offsets_load()).
 *   GUEST (13)       in a host's file, one per guest: its name, trace ID
 *                    and which host thread ran each vCPU (trace_guest_load()).
 *   TSC2NSEC (14)    multiplier, shift and offset turning counter ticks
 *                    (x86-tsc) into nanoseconds (timestamp_calc()).
 *
 * This file reads them with Chronoscope's own code (no libtracecmd) and
 * converts a guest timestamp to host time the way libtracecmd's
 * timestamp_host_sync() and timestamp_calc() do; where libtracecmd would
 * silently leave a guest timestamp unconverted or misaligned (no peer, the
 * wrong host, a vCPU without samples, different tick conversions), the
 * functions here report a #CsTracedatClockError instead.
 *
 * Everything here is GTK-free and thread-safe on immutable data.
 */
#pragma once

#include "cs-tracedat-reader.h"

G_BEGIN_DECLS

/**
 * CS_TRACEDAT_CLOCK_ERROR:
 *
 * Error domain of clock relations between recordings.
 */
#define CS_TRACEDAT_CLOCK_ERROR (cs_tracedat_clock_error_quark ())

/**
 * CsTracedatClockError:
 * @CS_TRACEDAT_CLOCK_ERROR_NO_PEER: the guest recording has no TIME_SHIFT
 *   option, so nothing relates its clock to a host's.
 * @CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER: the guest's TIME_SHIFT option names a
 *   host trace ID other than the TRACEID of the host recording given, or the
 *   host recording has no TRACEID option.
 * @CS_TRACEDAT_CLOCK_ERROR_CLOCK_MISMATCH: guest and host turn ticks into
 *   nanoseconds differently (one has TSC2NSEC and the other not, or other
 *   multiplier, shift or offset), so shifted guest ticks would not land on
 *   the host's nanoseconds.
 * @CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET: the TIME_SHIFT samples are not
 *   usable: a scaling ratio <= 0, more than 62 fraction bits, a vCPU with no
 *   sample, or samples whose host times fall far outside the host's
 *   recording (see cs_time_relation_new()).
 * @CS_TRACEDAT_CLOCK_ERROR_CORRUPT: a TIME_SHIFT or GUEST option is shorter
 *   than what it declares.
 *
 * Codes of %CS_TRACEDAT_CLOCK_ERROR.  Messages name the files and the trace
 * IDs or values at fault.
 */
typedef enum {
  CS_TRACEDAT_CLOCK_ERROR_NO_PEER,
  CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER,
  CS_TRACEDAT_CLOCK_ERROR_CLOCK_MISMATCH,
  CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
  CS_TRACEDAT_CLOCK_ERROR_CORRUPT,
} CsTracedatClockError;

GQuark cs_tracedat_clock_error_quark (void);

/**
 * CS_TIME_SHIFT_FLAG_INTERPOLATE:
 *
 * TIME_SHIFT protocol flag (TRACECMD_TSYNC_FLAG_INTERPOLATE in trace-cmd):
 * offsets are interpolated linearly between two samples instead of taking
 * the earlier sample's offset.
 */
#define CS_TIME_SHIFT_FLAG_INTERPOLATE 0x1u

/**
 * CsTimeShiftSample:
 * @time: the guest ring-buffer time (guest ticks for x86-tsc) at which the
 *   sample was taken
 * @offset: host time minus scaled guest time, in host ring-buffer units
 *   (ticks); may be negative
 * @scaling: scaling ratio applied to the guest time, as a fixed-point number
 *   with @fraction bits (1 with 0 bits: no scaling)
 * @fraction: fraction bits of @scaling, 0..62
 *
 * One TIME_SHIFT sample (struct ts_offset_sample in libtracecmd).
 */
typedef struct {
  gint64 time;
  gint64 offset;
  gint64 scaling;
  gint64 fraction;
} CsTimeShiftSample;

/**
 * CsTimeShift:
 * @peer_trace_id: the host's trace ID (its TRACEID option)
 * @flags: protocol flags, see %CS_TIME_SHIFT_FLAG_INTERPOLATE
 * @n_vcpus: how many guest vCPUs have a sample list
 * @n_samples: (array length=n_vcpus): per vCPU, how many samples
 * @samples: (array length=n_vcpus): per vCPU, its samples sorted by time,
 *   samples with an equal time dropped but the first, as libtracecmd's
 *   tsync_cpu_offsets_load() leaves them
 *
 * A guest recording's TIME_SHIFT option.  Free with cs_time_shift_free().
 */
typedef struct {
  guint64 peer_trace_id;
  guint32 flags;
  guint n_vcpus;
  guint *n_samples;
  CsTimeShiftSample **samples;
} CsTimeShift;

/**
 * CsTracedatGuest:
 * @name: the guest's name as the host's trace-cmd knew it (may be "")
 * @trace_id: the guest recording's trace ID (its TRACEID option)
 * @n_vcpus: the guest's vCPU count
 * @vcpu_tids: (array length=n_vcpus): per vCPU, the host thread (task pid)
 *   that ran it, 0 when the option did not list that vCPU
 *
 * One GUEST option of a host recording.  Free with cs_tracedat_guest_free().
 */
typedef struct {
  char *name;
  guint64 trace_id;
  guint n_vcpus;
  gint32 *vcpu_tids;
} CsTracedatGuest;

void        cs_time_shift_free                   (CsTimeShift       *shift);
gboolean    cs_time_shift_apply                  (const CsTimeShift *shift,
                                                  guint              vcpu,
                                                  guint64            guest_ts,
                                                  guint64           *host_ts);
gboolean    cs_time_shift_get_offset_at          (const CsTimeShift *shift,
                                                  guint              vcpu,
                                                  guint64            guest_ts,
                                                  gint64            *offset,
                                                  const CsTimeShiftSample **sample);
void        cs_tracedat_guest_free               (CsTracedatGuest   *guest);

gboolean    cs_tracedat_reader_get_trace_id      (CsTracedatReader  *self,
                                                  guint64           *trace_id);
guint64     cs_tracedat_reader_get_tsc2nsec_offset (CsTracedatReader *self);
guint64     cs_tracedat_reader_ticks_to_ns       (CsTracedatReader  *self,
                                                  guint64            raw_ts);
CsTimeShift *cs_tracedat_reader_dup_time_shift   (CsTracedatReader  *self,
                                                  GError           **error);
GPtrArray  *cs_tracedat_reader_dup_guests        (CsTracedatReader  *self,
                                                  guint             *n_damaged);
char       *cs_tracedat_reader_dup_clock_description (CsTracedatReader *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTimeShift, cs_time_shift_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTracedatGuest, cs_tracedat_guest_free)

/**
 * CsTimeRelation:
 *
 * A guest recording's clock related to its host's: the guest's TIME_SHIFT
 * option checked against the host recording, the host's GUEST entry for
 * this guest (vCPU → host thread), and the conversion of guest timestamps
 * to host nanoseconds.  Immutable; any thread.
 */
typedef struct _CsTimeRelation CsTimeRelation;

CsTimeRelation        *cs_time_relation_new          (CsTracedatReader *host,
                                                      CsTracedatReader *guest,
                                                      GError          **error);
void                   cs_time_relation_free         (CsTimeRelation   *self);
const CsTimeShift     *cs_time_relation_get_time_shift (CsTimeRelation *self);
const CsTracedatGuest *cs_time_relation_get_guest    (CsTimeRelation   *self);
gint32                 cs_time_relation_get_vcpu_tid (CsTimeRelation   *self,
                                                      guint             vcpu);
gboolean               cs_time_relation_guest_to_host (CsTimeRelation  *self,
                                                      guint             vcpu,
                                                      guint64           guest_raw_ts,
                                                      gint64           *host_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTimeRelation, cs_time_relation_free)

G_END_DECLS
