/* cs-tracedat-clock.c: the TRACEID, TIME_SHIFT, GUEST and TSC2NSEC options
 * of a trace.dat recording, and the TIME_SHIFT conversion of one timestamp.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The layouts and the arithmetic are those of trace-cmd 3.x's
 * lib/trace-cmd/trace-input.c (handle_options(), tsync_cpu_offsets_load(),
 * trace_guest_load(), timestamp_host_sync(), timestamp_correction_calc(),
 * timestamp_calc()); this is Chronoscope's own code, written from their
 * description, with bounds checks where libtracecmd reads past a short
 * option or divides by zero.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-tracedat-clock.h"
#include "cs-tracedat-private.h"

G_DEFINE_QUARK (cs-tracedat-clock-error-quark, cs_tracedat_clock_error)

/* ------------------------------------------------------------------------ */
/* TIME_SHIFT                                                                */

/**
 * cs_time_shift_free:
 * @shift: (transfer full) (nullable): a TIME_SHIFT option
 *
 * Frees @shift and its sample arrays.
 */
void
cs_time_shift_free (CsTimeShift *shift)
{
  if (shift == NULL)
    return;
  for (guint i = 0; i < shift->n_vcpus; i++)
    g_free (shift->samples[i]);
  g_free (shift->samples);
  g_free (shift->n_samples);
  g_free (shift);
}

static gint
compare_sample_time (gconstpointer a, gconstpointer b, gpointer unused)
{
  const CsTimeShiftSample *sa = a, *sb = b;

  return sa->time < sb->time ? -1 : sa->time > sb->time;
}

/* Parses a TIME_SHIFT payload (handle_options() and tsync_cpu_offsets_load()
 * of trace-input.c):
 *   u64 peer trace ID, u32 flags, u32 vCPU count, then per vCPU
 *   u32 count, count x s64 times, count x s64 offsets, count x s64 scalings;
 *   then, when bytes remain (trace-cmd 2.9.2 and later), per vCPU count x
 *   s64 fraction bits (0 when absent). */
static CsTimeShift *
parse_time_shift (CsTracedatReader *reader, GBytes *bytes, GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  gboolean be = reader->big_endian;
  g_autoptr(CsTimeShift) shift = g_new0 (CsTimeShift, 1);
  gsize pos = 16;
  guint32 n_vcpus;

  if (size < 16)
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_CORRUPT,
                   _("%s: the TIME_SHIFT option has %zu bytes, fewer than its 16-byte head"),
                   reader->display_name, size);
      return NULL;
    }
  shift->peer_trace_id = _cs_td_u64 (be, data);
  shift->flags = _cs_td_u32 (be, data + 8);
  n_vcpus = _cs_td_u32 (be, data + 12);
  /* Each vCPU needs at least its 4-byte count. */
  if (n_vcpus > CS_TD_MAX_CPUS || n_vcpus > (size - pos) / 4)
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_CORRUPT,
                   _("%s: the TIME_SHIFT option declares %u vCPUs in %zu bytes"),
                   reader->display_name, n_vcpus, size);
      return NULL;
    }
  shift->n_vcpus = n_vcpus;
  shift->n_samples = g_new0 (guint, n_vcpus);
  shift->samples = g_new0 (CsTimeShiftSample *, n_vcpus);

  for (guint v = 0; v < n_vcpus; v++)
    {
      guint32 count;

      if (size - pos < 4)
        goto short_option;
      count = _cs_td_u32 (be, data + pos);
      pos += 4;
      if (count > (size - pos) / 24)
        goto short_option;
      shift->n_samples[v] = count;
      shift->samples[v] = g_new0 (CsTimeShiftSample, MAX (count, 1));
      for (guint i = 0; i < count; i++)
        shift->samples[v][i].time = (gint64) _cs_td_u64 (be, data + pos + 8 * (gsize) i);
      pos += 8 * (gsize) count;
      for (guint i = 0; i < count; i++)
        shift->samples[v][i].offset = (gint64) _cs_td_u64 (be, data + pos + 8 * (gsize) i);
      pos += 8 * (gsize) count;
      for (guint i = 0; i < count; i++)
        shift->samples[v][i].scaling = (gint64) _cs_td_u64 (be, data + pos + 8 * (gsize) i);
      pos += 8 * (gsize) count;
    }

  if (pos < size)
    for (guint v = 0; v < n_vcpus; v++)
      {
        guint count = shift->n_samples[v];

        if (count > (size - pos) / 8)
          goto short_option;
        for (guint i = 0; i < count; i++)
          shift->samples[v][i].fraction = (gint64) _cs_td_u64 (be, data + pos + 8 * (gsize) i);
        pos += 8 * (gsize) count;
      }

  /* Sorted by time, samples of an equal time dropped but the first (the
   * sort is stable here; libtracecmd's qsort() keeps an arbitrary one). */
  for (guint v = 0; v < n_vcpus; v++)
    {
      CsTimeShiftSample *s = shift->samples[v];
      guint n = shift->n_samples[v], kept = 0;

      g_qsort_with_data (s, (gint) n, sizeof *s, compare_sample_time, NULL);
      for (guint i = 0; i < n; i++)
        if (i == 0 || s[i].time != s[i - 1].time)
          s[kept++] = s[i];
      shift->n_samples[v] = kept;
    }
  return g_steal_pointer (&shift);

short_option:
  g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_CORRUPT,
               _("%s: the TIME_SHIFT option (%zu bytes) ends inside its samples, at byte %zu"),
               reader->display_name, size, pos);
  return NULL;
}

/* The two samples libtracecmd's timestamp_host_sync() interpolates between
 * for @ts: the first two before the first sample, the last two after the
 * last, otherwise the sample at or just before @ts and the next one.
 * Needs n >= 2. */
static void
pick_samples (const CsTimeShiftSample *s, guint n, gint64 ts,
              const CsTimeShiftSample **a, const CsTimeShiftSample **b)
{
  guint lo = 0, hi = n - 1;

  if (ts <= s[0].time)
    hi = 1;
  else if (ts >= s[n - 1].time)
    lo = n - 2;
  else
    {
      /* s[lo].time < ts < s[hi].time: narrow to neighbours. */
      while (hi - lo > 1)
        {
          guint mid = lo + (hi - lo) / 2;

          if (s[mid].time <= ts)
            lo = mid;
          else
            hi = mid;
        }
    }
  *a = &s[lo];
  *b = &s[hi];
}

/**
 * cs_time_shift_get_offset_at:
 * @shift: a TIME_SHIFT option
 * @vcpu: a guest vCPU, < @shift->n_vcpus
 * @guest_ts: a guest ring-buffer time (ticks for x86-tsc)
 * @offset: (out) (optional): the offset, in host ring-buffer units, that
 *   libtracecmd adds after scaling: the earlier sample's, or with
 *   %CS_TIME_SHIFT_FLAG_INTERPOLATE the offsets of the two samples around
 *   @guest_ts interpolated linearly (rounded as libtracecmd's
 *   timestamp_correction_calc() rounds: (x + delta / 2) / delta in C)
 * @sample: (out) (optional) (transfer none): the sample whose scaling and
 *   fraction bits apply
 *
 * Which correction trace-cmd applies to @guest_ts on @vcpu.
 *
 * Returns: %FALSE when @vcpu has no sample (libtracecmd would leave the
 *   timestamp unconverted) or the interpolation overflows 64 bits
 */
gboolean
cs_time_shift_get_offset_at (const CsTimeShift        *shift,
                             guint                     vcpu,
                             guint64                   guest_ts,
                             gint64                   *offset,
                             const CsTimeShiftSample **sample)
{
  const CsTimeShiftSample *s, *a, *b;
  guint n;
  gint64 cor;

  g_return_val_if_fail (shift != NULL, FALSE);
  if (vcpu >= shift->n_vcpus || shift->n_samples[vcpu] == 0)
    return FALSE;
  s = shift->samples[vcpu];
  n = shift->n_samples[vcpu];
  if (n == 1)
    {
      /* One sample: libtracecmd adds its offset and does not scale. */
      if (offset != NULL)
        *offset = s[0].offset;
      if (sample != NULL)
        *sample = NULL;
      return TRUE;
    }
  pick_samples (s, n, (gint64) guest_ts, &a, &b);
  cor = a->offset;
  if ((shift->flags & CS_TIME_SHIFT_FLAG_INTERPOLATE) != 0)
    {
      __int128 delta = (__int128) b->time - a->time;
      __int128 x = ((__int128) (gint64) guest_ts - a->time) * ((__int128) b->offset - a->offset);
      __int128 c = a->offset + (x + delta / 2) / delta;

      if (c > G_MAXINT64 || c < G_MININT64)
        return FALSE;
      cor = (gint64) c;
    }
  if (offset != NULL)
    *offset = cor;
  if (sample != NULL)
    *sample = a;
  return TRUE;
}

/**
 * cs_time_shift_apply:
 * @shift: a TIME_SHIFT option
 * @vcpu: the guest vCPU (the guest recording's CPU) of the timestamp
 * @guest_ts: a guest ring-buffer time (#CsTracedatRecord.raw_ts)
 * @host_ts: (out): the same moment in the host's ring-buffer units, before
 *   TSC2NSEC: (guest_ts × scaling) >> fraction + offset, as libtracecmd's
 *   timestamp_host_sync() computes it (with one sample: guest_ts + offset)
 *
 * Returns: %FALSE when @vcpu has no sample, or when the result would
 *   overflow 64 bits or fall below 0 (libtracecmd would wrap around)
 */
gboolean
cs_time_shift_apply (const CsTimeShift *shift,
                     guint              vcpu,
                     guint64            guest_ts,
                     guint64           *host_ts)
{
  const CsTimeShiftSample *sample = NULL;
  gint64 offset;
  unsigned __int128 scaled = guest_ts;
  __int128 r;

  g_return_val_if_fail (host_ts != NULL, FALSE);
  if (!cs_time_shift_get_offset_at (shift, vcpu, guest_ts, &offset, &sample))
    return FALSE;
  if (sample != NULL)
    {
      if (sample->scaling <= 0 || sample->fraction < 0 || sample->fraction > 62)
        return FALSE;
      scaled = ((unsigned __int128) guest_ts * (guint64) sample->scaling) >> sample->fraction;
    }
  r = (__int128) scaled + offset;
  if (r < 0 || r > (__int128) G_MAXUINT64)
    return FALSE;
  *host_ts = (guint64) r;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GUEST                                                                     */

/**
 * cs_tracedat_guest_free:
 * @guest: (transfer full) (nullable): a GUEST option
 */
void
cs_tracedat_guest_free (CsTracedatGuest *guest)
{
  if (guest == NULL)
    return;
  g_free (guest->name);
  g_free (guest->vcpu_tids);
  g_free (guest);
}

/* trace_guest_load() of trace-input.c: name (NUL-terminated), u64 trace ID,
 * u32 vCPU count, then per vCPU u32 vCPU number and u32 host pid.  A vCPU
 * number >= the count rejects the option, as there. */
static CsTracedatGuest *
parse_guest (CsTracedatReader *reader, GBytes *bytes)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  const guint8 *nul = size > 0 ? memchr (data, '\0', size) : NULL;
  g_autoptr(CsTracedatGuest) guest = NULL;
  gsize pos;
  guint32 n_vcpus;

  if (nul == NULL)
    return NULL;
  pos = (gsize) (nul - data) + 1;
  if (size - pos < 12)
    return NULL;
  guest = g_new0 (CsTracedatGuest, 1);
  guest->name = g_utf8_make_valid ((const char *) data, -1);
  guest->trace_id = _cs_td_u64 (reader->big_endian, data + pos);
  n_vcpus = _cs_td_u32 (reader->big_endian, data + pos + 8);
  pos += 12;
  if (n_vcpus > CS_TD_MAX_CPUS || n_vcpus > (size - pos) / 8)
    return NULL;
  guest->n_vcpus = n_vcpus;
  guest->vcpu_tids = g_new0 (gint32, MAX (n_vcpus, 1));
  for (guint i = 0; i < n_vcpus; i++, pos += 8)
    {
      guint32 vcpu = _cs_td_u32 (reader->big_endian, data + pos);

      if (vcpu >= n_vcpus)
        return NULL;
      guest->vcpu_tids[vcpu] = (gint32) _cs_td_u32 (reader->big_endian, data + pos + 4);
    }
  return g_steal_pointer (&guest);
}

/* ------------------------------------------------------------------------ */
/* The reader's accessors                                                    */

/**
 * cs_tracedat_reader_get_trace_id:
 * @self: a #CsTracedatReader
 * @trace_id: (out) (optional): the TRACEID option's 8-byte ID
 *
 * trace-cmd gives every recording of a host/guest session a random trace
 * ID; a guest's TIME_SHIFT option and a host's GUEST options name the peer
 * by it.
 *
 * Returns: whether the recording has a TRACEID option (of at least 8 bytes)
 */
gboolean
cs_tracedat_reader_get_trace_id (CsTracedatReader *self,
                                 guint64          *trace_id)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), FALSE);
  if (trace_id != NULL)
    *trace_id = self->trace_id;
  return self->has_trace_id;
}

/**
 * cs_tracedat_reader_get_tsc2nsec_offset:
 * @self: a #CsTracedatReader
 *
 * The TSC2NSEC option's third field (ticks).  trace-cmd's timestamp_calc()
 * as read in trace-input.c converts with the multiplier and shift only and
 * keeps this value for tracecmd_get_tsc2nsec(); so does this reader.  It is
 * reported, and compared between host and guest.
 *
 * Returns: the offset, 0 without a TSC2NSEC option
 */
guint64
cs_tracedat_reader_get_tsc2nsec_offset (CsTracedatReader *self)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  return self->has_tsc2nsec ? self->tsc2nsec_offset : 0;
}

/**
 * cs_tracedat_reader_ticks_to_ns:
 * @self: a #CsTracedatReader
 * @raw_ts: a ring-buffer time of this recording's clock (or, for a guest
 *   converted by cs_time_shift_apply(), of its host's)
 *
 * What #CsTracedatRecord.ts_ns is made of: TSC2NSEC's
 * mul_u64_u32_shr(@raw_ts, mult, shift) when the file has that option, then
 * the DATE and OFFSET options (libtracecmd's timestamp_calc()).
 *
 * Returns: nanoseconds of the trace clock (ticks without TSC2NSEC)
 */
guint64
cs_tracedat_reader_ticks_to_ns (CsTracedatReader *self,
                                guint64           raw_ts)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), 0);
  if (self->has_tsc2nsec)
    raw_ts = _cs_td_mul_u64_u32_shr (raw_ts, self->tsc2nsec_mult, self->tsc2nsec_shift);
  return raw_ts + (guint64) self->ts_offset_ns;
}

/**
 * cs_tracedat_reader_dup_time_shift:
 * @self: a #CsTracedatReader
 * @error: return location for a #GError
 *
 * Parses the recording's TIME_SHIFT option (the last one when there are
 * several, as libtracecmd keeps the last).
 *
 * Errors: %CS_TRACEDAT_CLOCK_ERROR_NO_PEER without the option,
 * %CS_TRACEDAT_CLOCK_ERROR_CORRUPT when it is shorter than it declares.
 *
 * Returns: (transfer full) (nullable): the option, %NULL on error
 */
CsTimeShift *
cs_tracedat_reader_dup_time_shift (CsTracedatReader  *self,
                                   GError           **error)
{
  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->time_shift_option == NULL)
    {
      g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_NO_PEER,
                   _("%s has no TIME_SHIFT option: nothing relates its clock to a host's"),
                   self->display_name);
      return NULL;
    }
  return parse_time_shift (self, self->time_shift_option, error);
}

/**
 * cs_tracedat_reader_dup_guests:
 * @self: a #CsTracedatReader
 * @n_damaged: (out) (optional): how many GUEST options were left out
 *   because they end early or list a vCPU beyond their count (libtracecmd
 *   drops those too)
 *
 * The host recording's GUEST options, in file order: one per guest recorded
 * with it (`trace-cmd record -A`, or `trace-cmd agent`).
 *
 * Returns: (transfer full) (element-type CsTracedatGuest): the guests,
 *   possibly none
 */
GPtrArray *
cs_tracedat_reader_dup_guests (CsTracedatReader *self,
                               guint            *n_damaged)
{
  GPtrArray *guests = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_tracedat_guest_free);
  guint damaged = 0;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), guests);
  for (guint i = 0; self->guest_options != NULL && i < self->guest_options->len; i++)
    {
      CsTracedatGuest *guest = parse_guest (self, g_ptr_array_index (self->guest_options, i));

      if (guest != NULL)
        g_ptr_array_add (guests, guest);
      else
        damaged++;
    }
  if (n_damaged != NULL)
    *n_damaged = damaged;
  return guests;
}

/**
 * cs_tracedat_reader_dup_clock_description:
 * @self: a #CsTracedatReader
 *
 * The trace clock as people should read it: the clock's name, and whether
 * its counter ticks were converted to nanoseconds by the TSC2NSEC option
 * ("x86-tsc, converted to ns by TSC2NSEC (multiplier 736891383, shift
 * 31)") or stay ticks ("x86-tsc (counter ticks, not nanoseconds)").
 *
 * Returns: (transfer full): a translated sentence fragment
 */
char *
cs_tracedat_reader_dup_clock_description (CsTracedatReader *self)
{
  const char *clock;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (self), NULL);
  clock = self->clock != NULL && *self->clock != '\0' ? self->clock : "local";
  if (self->has_tsc2nsec && self->tsc2nsec_offset != 0)
    /* TRANSLATORS: a trace clock's name ("x86-tsc"), then numbers */
    return g_strdup_printf (_("%s, converted to ns by TSC2NSEC (multiplier %u, shift %u, "
                              "offset %" PRIu64 ")"), clock, self->tsc2nsec_mult,
                            self->tsc2nsec_shift, self->tsc2nsec_offset);
  if (self->has_tsc2nsec)
    /* TRANSLATORS: a trace clock's name ("x86-tsc"), then numbers */
    return g_strdup_printf (_("%s, converted to ns by TSC2NSEC (multiplier %u, shift %u)"),
                            clock, self->tsc2nsec_mult, self->tsc2nsec_shift);
  if (g_str_equal (clock, "x86-tsc") || g_str_equal (clock, "counter"))
    /* TRANSLATORS: a trace clock's name ("x86-tsc") */
    return g_strdup_printf (_("%s (counter ticks, not nanoseconds)"), clock);
  return g_strdup (clock);
}
