/* cs-time-relation.c: a guest recording's clock related to its host's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libtracecmd applies a guest's TIME_SHIFT option whenever the guest file
 * has one (tracecmd_enable_tsync() in trace-input.c), without looking at the
 * host: the right host, the wrong one or none give the same numbers.  Here
 * the relation is built from both recordings and checked first; the
 * conversion itself is libtracecmd's (cs_time_shift_apply(), then the
 * guest's own TSC2NSEC and DATE/OFFSET as timestamp_calc() does).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-clock.h"
#include "cs-tracedat-private.h"

/* How far outside the host's recording the TIME_SHIFT samples may fall.
 * trace-cmd's agent samples the clocks while both sides record, so the
 * samples fall within the host's span; the margin allows for a host ring
 * buffer that overwrote its oldest pages. */
#define SAMPLE_MARGIN_NS ((gint64) 60 * G_USEC_PER_SEC * 1000)

struct _CsTimeRelation {
  CsTracedatReader *host;
  CsTracedatReader *guest;
  CsTimeShift *shift;
  CsTracedatGuest *guest_entry;   /* the host's GUEST option for it, or NULL */
};

/**
 * cs_time_relation_free:
 * @self: (transfer full) (nullable): a relation
 */
void
cs_time_relation_free (CsTimeRelation *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->host);
  g_clear_object (&self->guest);
  cs_time_shift_free (self->shift);
  cs_tracedat_guest_free (self->guest_entry);
  g_free (self);
}

/* The host's first and last page times over its CPUs, from a sample of
 * pages (cs_tracedat_cpu_estimate()). */
static gboolean
host_span (CsTracedatReader *host, gint64 *first_ns, gint64 *last_ns)
{
  gboolean any = FALSE;

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (host); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      guint64 n;
      gint64 f, l;

      if (cs_tracedat_reader_get_cpu_data_size (host, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (host, cpu, NULL);
      if (stream == NULL || !cs_tracedat_cpu_estimate (stream, 2, &n, &f, &l))
        continue;
      *first_ns = any ? MIN (*first_ns, f) : f;
      *last_ns = any ? MAX (*last_ns, l) : l;
      any = TRUE;
    }
  return any;
}

static gboolean
check_clocks (CsTracedatReader *host, CsTracedatReader *guest, GError **error)
{
  guint32 hm = 0, hs = 0, gm = 0, gs = 0;
  gboolean h = cs_tracedat_reader_get_tsc2nsec (host, &hm, &hs);
  gboolean g = cs_tracedat_reader_get_tsc2nsec (guest, &gm, &gs);

  if (h != g || hm != gm || hs != gs ||
      cs_tracedat_reader_get_tsc2nsec_offset (host) != cs_tracedat_reader_get_tsc2nsec_offset (guest))
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_CLOCK_MISMATCH,
                   _("%s and %s turn clock ticks into nanoseconds differently (TSC2NSEC "
                     "multiplier %u and %u, shift %u and %u): shifted guest times would not "
                     "land on the host's"),
                   host->display_name, guest->display_name, hm, gm, hs, gs);
      return FALSE;
    }
  if (cs_tracedat_reader_get_ts_offset (host) != cs_tracedat_reader_get_ts_offset (guest))
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_CLOCK_MISMATCH,
                   _("%s and %s have different DATE/OFFSET options (%" PRId64
                     " and %" PRId64 " ns added to their times)"),
                   host->display_name, guest->display_name,
                   cs_tracedat_reader_get_ts_offset (host),
                   cs_tracedat_reader_get_ts_offset (guest));
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_samples (CsTimeRelation *self, GError **error)
{
  const CsTimeShift *shift = self->shift;
  const char *gname = self->guest->display_name;
  gint64 hf = 0, hl = 0, sf = G_MAXINT64, sl = G_MININT64;
  gboolean have_span = host_span (self->host, &hf, &hl);

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (self->guest); cpu++)
    if (cpu >= shift->n_vcpus && cs_tracedat_reader_get_cpu_data_size (self->guest, cpu) > 0)
      {
        g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
                     _("%s recorded CPU %u, but its TIME_SHIFT option has samples for %u vCPUs"),
                     gname, cpu, shift->n_vcpus);
        return FALSE;
      }

  for (guint v = 0; v < shift->n_vcpus; v++)
    {
      if (shift->n_samples[v] == 0)
        {
          g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
                       _("%s: the TIME_SHIFT option has no sample for vCPU %u"), gname, v);
          return FALSE;
        }
      for (guint i = 0; i < shift->n_samples[v]; i++)
        {
          const CsTimeShiftSample *s = &shift->samples[v][i];
          gint64 ns;

          if (s->scaling <= 0 || s->fraction < 0 || s->fraction > 62)
            {
              g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
                           _("%s: TIME_SHIFT sample %u of vCPU %u has scaling %" PRId64
                             " with %" PRId64 " fraction bits"),
                           gname, i, v, s->scaling, s->fraction);
              return FALSE;
            }
          if (s->time < 0 || !cs_time_relation_guest_to_host (self, v, (guint64) s->time, &ns))
            {
              g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
                           _("%s: TIME_SHIFT sample %u of vCPU %u (time %" PRId64
                             ", offset %" PRId64 ") maps outside the 64-bit clock"),
                           gname, i, v, s->time, s->offset);
              return FALSE;
            }
          sf = MIN (sf, ns);
          sl = MAX (sl, ns);
        }
    }

  if (have_span && shift->n_vcpus > 0 &&
      (sl < hf - SAMPLE_MARGIN_NS || sf > hl + SAMPLE_MARGIN_NS))
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
                   _("%s: the TIME_SHIFT offsets put the guest's clock samples at %"
                     PRId64 "..%" PRId64 " ns of the host's clock, but %s "
                     "recorded %" PRId64 "..%" PRId64 " ns"),
                   gname, sf, sl, self->host->display_name, hf, hl);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_time_relation_new:
 * @host: the host recording (the one with the GUEST option)
 * @guest: the guest recording (the one with the TIME_SHIFT option)
 * @error: return location for a #GError
 *
 * Relates @guest's clock to @host's and checks that they belong together:
 * @guest's TIME_SHIFT option must name @host's TRACEID; both must turn
 * ticks into nanoseconds alike (TSC2NSEC multiplier, shift and offset, and
 * the DATE/OFFSET options); every guest CPU with data needs samples; each
 * sample's scaling must be > 0 with 0..62 fraction bits; and the samples,
 * converted, must fall within 60 s of the host's recorded span (the first
 * and last page times of its CPUs).  @host's GUEST option for @guest's
 * trace ID, when there is one, gives the vCPU → host thread map; without it
 * the relation holds but cs_time_relation_get_guest() is %NULL.
 *
 * Reads a few pages of each host CPU.  Any thread.
 *
 * Errors (%CS_TRACEDAT_CLOCK_ERROR): %CS_TRACEDAT_CLOCK_ERROR_NO_PEER,
 * %CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER, %CS_TRACEDAT_CLOCK_ERROR_CLOCK_MISMATCH,
 * %CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET, %CS_TRACEDAT_CLOCK_ERROR_CORRUPT.
 *
 * Returns: (transfer full) (nullable): the relation (it keeps references
 *   on both readers), %NULL on error
 */
CsTimeRelation *
cs_time_relation_new (CsTracedatReader  *host,
                      CsTracedatReader  *guest,
                      GError           **error)
{
  g_autoptr(CsTimeRelation) self = NULL;
  g_autoptr(GPtrArray) guests = NULL;
  guint64 host_id = 0, guest_id = 0;
  gboolean guest_has_id;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (host), NULL);
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (guest), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (CsTimeRelation, 1);
  self->host = g_object_ref (host);
  self->guest = g_object_ref (guest);
  self->shift = cs_tracedat_reader_dup_time_shift (guest, error);
  if (self->shift == NULL)
    return NULL;

  if (!cs_tracedat_reader_get_trace_id (host, &host_id))
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER,
                   _("%s has no TRACEID option, so it cannot be the host that %s's "
                     "TIME_SHIFT option names (trace ID 0x%016" PRIX64 ")"),
                   host->display_name, guest->display_name, self->shift->peer_trace_id);
      return NULL;
    }
  if (host_id != self->shift->peer_trace_id)
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER,
                   _("%s's TIME_SHIFT option names host trace ID 0x%016" PRIX64 ", but %s "
                     "has trace ID 0x%016" PRIX64 ": they were not recorded together"),
                   guest->display_name, self->shift->peer_trace_id, host->display_name,
                   host_id);
      return NULL;
    }
  if (!check_clocks (host, guest, error) || !check_samples (self, error))
    return NULL;

  guest_has_id = cs_tracedat_reader_get_trace_id (guest, &guest_id);
  guests = cs_tracedat_reader_dup_guests (host, NULL);
  for (guint i = 0; guest_has_id && i < guests->len; i++)
    {
      CsTracedatGuest *entry = g_ptr_array_index (guests, i);

      if (entry->trace_id == guest_id)
        self->guest_entry = g_ptr_array_steal_index (guests, i);
      if (self->guest_entry != NULL)
        break;
    }
  return g_steal_pointer (&self);
}

/**
 * cs_time_relation_get_time_shift:
 * @self: a relation
 *
 * Returns: (transfer none): the guest's TIME_SHIFT option, parsed
 */
const CsTimeShift *
cs_time_relation_get_time_shift (CsTimeRelation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->shift;
}

/**
 * cs_time_relation_get_guest:
 * @self: a relation
 *
 * Returns: (transfer none) (nullable): the host's GUEST option for this
 *   guest (matched by the guest's TRACEID), %NULL when the host has none
 */
const CsTracedatGuest *
cs_time_relation_get_guest (CsTimeRelation *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->guest_entry;
}

/**
 * cs_time_relation_get_vcpu_tid:
 * @self: a relation
 * @vcpu: a guest vCPU
 *
 * Returns: the host thread (task pid in the host recording) that ran
 *   @vcpu, by the host's GUEST option; -1 when unknown
 */
gint32
cs_time_relation_get_vcpu_tid (CsTimeRelation *self,
                               guint           vcpu)
{
  g_return_val_if_fail (self != NULL, -1);
  if (self->guest_entry == NULL || vcpu >= self->guest_entry->n_vcpus ||
      self->guest_entry->vcpu_tids[vcpu] == 0)
    return -1;
  return self->guest_entry->vcpu_tids[vcpu];
}

/**
 * cs_time_relation_guest_to_host:
 * @self: a relation
 * @vcpu: the guest CPU that recorded the event (#CsTracedatRecord.cpu of
 *   the guest's record)
 * @guest_raw_ts: the guest event's ring-buffer time (#CsTracedatRecord.raw_ts)
 * @host_ns: (out): the same moment in ns of the host recording's clock, the
 *   scale of the host's #CsTracedatRecord.ts_ns
 *
 * libtracecmd's timestamp_calc() for a guest file: the TIME_SHIFT
 * correction of @vcpu (cs_time_shift_apply()), then the guest's TSC2NSEC
 * and DATE/OFFSET (equal to the host's, checked by cs_time_relation_new()).
 * Cost: a binary search over @vcpu's samples.  Any thread.
 *
 * Returns: %FALSE when @vcpu has no samples or the result leaves the
 *   64-bit clock (@host_ns untouched)
 */
gboolean
cs_time_relation_guest_to_host (CsTimeRelation *self,
                                guint           vcpu,
                                guint64         guest_raw_ts,
                                gint64         *host_ns)
{
  guint64 host_ts;
  guint64 ns;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (host_ns != NULL, FALSE);
  if (!cs_time_shift_apply (self->shift, vcpu, guest_raw_ts, &host_ts))
    return FALSE;
  ns = cs_tracedat_reader_ticks_to_ns (self->guest, host_ts);
  if (ns > (guint64) G_MAXINT64)
    return FALSE;
  *host_ns = (gint64) ns;
  return TRUE;
}
