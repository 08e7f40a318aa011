/* cs-tracedat-writer-peer.c: the options that tie a host's and a guest's
 * recordings together (TRACEID, TIME_SHIFT, GUEST) and the tick conversion
 * (TSC2NSEC), written by #CsTracedatWriter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The payloads are laid out as trace-cmd 3.x writes them and as
 * cs-tracedat-clock.c reads them back (trace-cmd.dat.v7(5), option ids 11
 * to 14; libtracecmd's handle_options(), tsync_cpu_offsets_load() and
 * trace_guest_load() in trace-input.c), in this machine's byte order like
 * the rest of the writer's header.
 */
#include "config.h"

#include <string.h>

#include "cs-tracedat-clock.h"
#include "cs-tracedat-private.h"
#include "cs-tracedat-writer-peer.h"

/* Appends the bytes of the lvalue @v, in this machine's byte order. */
#define PUT(out, v) g_byte_array_append ((out), (const guint8 *) &(v), sizeof (v))

static void
add_array (CsTracedatWriter *self, guint16 id, GByteArray *out)
{
  g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (out);

  cs_tracedat_writer_add_option (self, id, bytes);
}

/**
 * cs_tracedat_writer_set_trace_id:
 * @self: a #CsTracedatWriter
 * @trace_id: the recording's 8-byte trace ID, any value but one the peer
 *   uses (trace-cmd draws it at random)
 *
 * Adds a TRACEID option: the name by which a guest's TIME_SHIFT option
 * (for a host) or a host's GUEST option (for a guest) refers to this
 * recording.  Call it once.
 */
void
cs_tracedat_writer_set_trace_id (CsTracedatWriter *self,
                                 guint64           trace_id)
{
  GByteArray *out;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  out = g_byte_array_sized_new (8);
  PUT (out, trace_id);
  add_array (self, CS_TD_OPTION_TRACEID, out);
}

/**
 * cs_tracedat_writer_add_time_shift:
 * @self: a #CsTracedatWriter
 * @shift: the guest's clock relation to its host: the host's trace ID, the
 *   protocol flags (%CS_TIME_SHIFT_FLAG_INTERPOLATE) and, per vCPU (the
 *   guest recording's CPUs 0 .. n_vcpus-1), samples of guest time (guest
 *   ring-buffer units), offset (host units, host − scaled guest), scaling
 *   and fraction bits; see #CsTimeShiftSample
 *
 * Adds a TIME_SHIFT option, written as trace-cmd writes it: u64 peer trace
 * ID, u32 flags, u32 vCPU count, then per vCPU a u32 count and that many
 * s64 times, s64 offsets and s64 scalings, then per vCPU its s64 fraction
 * bits.  The samples are written as given (trace-cmd's reader sorts them).
 * For a guest recording; a reader maps its times onto the host's with
 * cs_time_relation_guest_to_host().
 */
void
cs_tracedat_writer_add_time_shift (CsTracedatWriter  *self,
                                   const CsTimeShift *shift)
{
  GByteArray *out;
  guint32 n_vcpus;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (shift != NULL);
  g_return_if_fail (shift->n_vcpus <= CS_TD_MAX_CPUS);

  n_vcpus = shift->n_vcpus;
  out = g_byte_array_new ();
  PUT (out, shift->peer_trace_id);
  PUT (out, shift->flags);
  PUT (out, n_vcpus);
  for (guint v = 0; v < n_vcpus; v++)
    {
      const CsTimeShiftSample *s = shift->samples[v];
      guint32 n = shift->n_samples[v];

      PUT (out, n);
      for (guint i = 0; i < n; i++)
        PUT (out, s[i].time);
      for (guint i = 0; i < n; i++)
        PUT (out, s[i].offset);
      for (guint i = 0; i < n; i++)
        PUT (out, s[i].scaling);
    }
  for (guint v = 0; v < n_vcpus; v++)
    for (guint i = 0; i < shift->n_samples[v]; i++)
      PUT (out, shift->samples[v][i].fraction);
  add_array (self, CS_TD_OPTION_TIME_SHIFT, out);
}

/**
 * cs_tracedat_writer_add_guest:
 * @self: a #CsTracedatWriter
 * @guest: one guest recorded with this host: its name (UTF-8, no NUL
 *   inside), its recording's trace ID and, per vCPU 0 .. n_vcpus-1, the
 *   host thread (task pid) that ran it (0: unknown)
 *
 * Adds a GUEST option, written as trace-cmd writes it: the name with its
 * NUL, u64 trace ID, u32 vCPU count, then per vCPU u32 vCPU number and
 * u32 host pid.  For a host recording; one call per guest.
 */
void
cs_tracedat_writer_add_guest (CsTracedatWriter      *self,
                              const CsTracedatGuest *guest)
{
  GByteArray *out;
  const char *name;
  guint32 n_vcpus;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (guest != NULL);
  g_return_if_fail (guest->n_vcpus <= CS_TD_MAX_CPUS);

  name = guest->name != NULL ? guest->name : "";
  n_vcpus = guest->n_vcpus;
  out = g_byte_array_new ();
  g_byte_array_append (out, (const guint8 *) name, (guint) strlen (name) + 1);
  PUT (out, guest->trace_id);
  PUT (out, n_vcpus);
  for (guint32 v = 0; v < n_vcpus; v++)
    {
      PUT (out, v);
      PUT (out, guest->vcpu_tids[v]);
    }
  add_array (self, CS_TD_OPTION_GUEST, out);
}

/**
 * cs_tracedat_writer_set_tsc2nsec:
 * @self: a #CsTracedatWriter
 * @mult: multiplier, > 0
 * @shift: shift, 0..32
 * @offset: ticks that trace-cmd subtracts before converting (0 for none)
 *
 * Adds a TSC2NSEC option (u32 multiplier, u32 shift, u64 offset): readers
 * turn the counter ticks of an x86-tsc recording into nanoseconds as
 * (ticks × @mult) >> @shift, the conversion of the kernel's
 * perf_event_mmap_page time_mult and time_shift that trace-cmd copies.  A
 * host and its guest must carry the same values for their times to meet.
 */
void
cs_tracedat_writer_set_tsc2nsec (CsTracedatWriter *self,
                                 guint32           mult,
                                 guint32           shift,
                                 guint64           offset)
{
  GByteArray *out;

  g_return_if_fail (CS_IS_TRACEDAT_WRITER (self));
  g_return_if_fail (mult > 0 && shift <= 32);

  out = g_byte_array_sized_new (16);
  PUT (out, mult);
  PUT (out, shift);
  PUT (out, offset);
  add_array (self, CS_TD_OPTION_TSC2NSEC, out);
}
