/* make-host-guest-pair.c: ties a host recording and its QEMU guest's
 * recording together, for tests/data/make-host-guest-pair.sh.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: make-host-guest-pair --vcpu-threads 0:TID,1:TID [--tsc2nsec MULT,SHIFT]
 *          [--guest-name NAME] HOST-IN GUEST-IN HOST-OUT GUEST-OUT
 *
 * The inputs are `chronoscope record -C x86-tsc` files holding the
 * exchanges of pair-probe.c: host markers "cs-pair: send N" and
 * "cs-pair: recv N", guest markers "cs-pair: guest N" (N = 0, 1, …, in
 * batches of 16 on one guest CPU).  Each exchange bounds the offset from
 * guest to host ticks: host send − guest ≤ offset ≤ host recv − guest.
 * As trace-cmd's time sync, each batch gives one TIME_SHIFT sample (at the
 * guest time of its fastest exchange, scaling 1 with 0 fraction bits,
 * interpolated between samples), its offset the middle of the range all
 * its exchanges allow; when the batches of a vCPU agree on a common range
 * (the guest's TSC is the host's plus a constant under TCG), every sample
 * takes the middle of that range instead, so that every exchange's guest
 * marker maps between its host markers.  Prints per vCPU the samples, the fastest round trip
 * and the exchanges that fall outside, and fails when any does.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracedat-pair.h"

#define BATCH 16

static gint64
ticks_ns (guint32 mult, guint32 shift, gint64 ticks)
{
  return mult == 0 ? ticks : (gint64) (((__int128) ticks * mult) >> shift);
}

int
main (int argc, char **argv)
{
  g_autofree char *threads = NULL, *tsc = NULL, *name = NULL;
  GOptionEntry entries[] = {
    { "vcpu-threads", 0, 0, G_OPTION_ARG_STRING, &threads, "vCPU:host-tid,…", "LIST" },
    { "tsc2nsec", 0, 0, G_OPTION_ARG_STRING, &tsc, "TSC2NSEC multiplier,shift", "M,S" },
    { "guest-name", 0, 0, G_OPTION_ARG_STRING, &name, "the guest's name", "NAME" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("HOST-IN GUEST-IN HOST-OUT GUEST-OUT");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) host = NULL, guest = NULL;
  g_autoptr(GArray) send = NULL, recv = NULL, got = NULL;
  g_auto(GStrv) pairs = NULL;
  CsTimeShift shift = { 0 };
  CsTracedatGuest entry = { 0 };
  CsTestPeerOptions host_peer = { 0 }, guest_peer = { 0 };
  guint32 mult = 0, tshift = 0;
  guint n_vcpus, n_exchanges, n_outside = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 5 || threads == NULL)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "usage: see --help");
      return 2;
    }
  if (tsc != NULL && sscanf (tsc, "%" SCNu32 ",%" SCNu32, &mult, &tshift) != 2)
    return 2;

  host = cs_tracedat_reader_open (argv[1], &error);
  guest = host != NULL ? cs_tracedat_reader_open (argv[2], &error) : NULL;
  if (guest != NULL)
    send = cs_test_pair_read_marks (host, "send", &error);
  if (send != NULL)
    recv = cs_test_pair_read_marks (host, "recv", &error);
  if (recv != NULL)
    got = cs_test_pair_read_marks (guest, "guest", &error);
  if (got == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  n_vcpus = cs_tracedat_reader_get_n_cpus (guest);
  n_exchanges = MIN (send->len, MIN (recv->len, got->len));

  /* GUEST: the vCPU threads QEMU's monitor named. */
  pairs = g_strsplit (threads, ",", -1);
  entry.name = name != NULL ? name : "cs-pair-guest";
  entry.n_vcpus = n_vcpus;
  entry.vcpu_tids = g_new0 (gint32, n_vcpus);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      guint v, tid;

      if (sscanf (pairs[i], "%u:%u", &v, &tid) == 2 && v < n_vcpus)
        entry.vcpu_tids[v] = (gint32) tid;
    }

  /* TIME_SHIFT: per vCPU, one sample per batch. */
  do
    {
      shift.peer_trace_id = g_random_int () | (guint64) g_random_int () << 32;
      entry.trace_id = g_random_int () | (guint64) g_random_int () << 32;
    }
  while (shift.peer_trace_id == entry.trace_id || shift.peer_trace_id == 0 || entry.trace_id == 0);
  shift.flags = CS_TIME_SHIFT_FLAG_INTERPOLATE;
  shift.n_vcpus = n_vcpus;
  shift.n_samples = g_new0 (guint, n_vcpus);
  shift.samples = g_new0 (CsTimeShiftSample *, n_vcpus);
  for (guint v = 0; v < n_vcpus; v++)
    {
      gint64 all_lo = G_MININT64, all_hi = G_MAXINT64, best_rtt = G_MAXINT64;
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (CsTimeShiftSample));

      for (guint b = 0; b * BATCH < n_exchanges; b++)
        {
          gint64 lo = G_MININT64, hi = G_MAXINT64, rtt = G_MAXINT64, at = 0;

          for (guint i = b * BATCH; i < MIN ((b + 1) * BATCH, n_exchanges); i++)
            {
              const CsTestPairMark *s, *r, *g;

              if (!cs_test_pair_get_exchange (send, recv, got, i, &s, &r, &g) || g->cpu != v)
                continue;
              lo = MAX (lo, (gint64) (s->raw_ts - g->raw_ts));
              hi = MIN (hi, (gint64) (r->raw_ts - g->raw_ts));
              if ((gint64) (r->raw_ts - s->raw_ts) < rtt)
                {
                  rtt = (gint64) (r->raw_ts - s->raw_ts);
                  at = (gint64) g->raw_ts;
                }
            }
          if (rtt == G_MAXINT64)
            continue;
          if (lo > hi)
            g_printerr ("vCPU %u, batch %u: its exchanges disagree by %" G_GINT64_FORMAT " ticks\n",
                        v, b, lo - hi);
          g_array_append_vals (samples, &(CsTimeShiftSample) { at, lo + (hi - lo) / 2, 1, 0 }, 1);
          all_lo = MAX (all_lo, lo);
          all_hi = MIN (all_hi, hi);
          best_rtt = MIN (best_rtt, rtt);
        }
      if (samples->len == 0)
        {
          g_printerr ("vCPU %u has no exchange\n", v);
          return 1;
        }
      /* The batches agree (one constant offset, as under TCG): every sample
       * takes the middle of what all of them allow, the best estimate the
       * exchanges give; each batch's own middle is as far from the truth
       * as its fastest round trip is long. */
      if (all_lo <= all_hi)
        for (guint i = 0; i < samples->len; i++)
          g_array_index (samples, CsTimeShiftSample, i).offset = all_lo + (all_hi - all_lo) / 2;
      else
        g_printerr ("vCPU %u: the batches agree on no common offset (%" G_GINT64_FORMAT
                    " ticks apart): samples kept as measured\n", v, all_lo - all_hi);
      printf ("vCPU %u (host thread %d): %u samples, offsets %" G_GINT64_FORMAT
              "..%" G_GINT64_FORMAT " ticks allowed (%" G_GINT64_FORMAT " ns wide), "
              "fastest round trip %" G_GINT64_FORMAT " ns\n",
              v, entry.vcpu_tids[v], samples->len, all_lo, all_hi,
              ticks_ns (mult, tshift, all_hi - all_lo), ticks_ns (mult, tshift, best_rtt));
      shift.n_samples[v] = samples->len;
      shift.samples[v] = (CsTimeShiftSample *) g_array_free (g_steal_pointer (&samples), FALSE);
    }

  /* Every exchange's guest marker, shifted, between its host markers. */
  for (guint i = 0; i < n_exchanges; i++)
    {
      const CsTestPairMark *s, *r, *g;
      guint64 mapped;

      if (!cs_test_pair_get_exchange (send, recv, got, i, &s, &r, &g))
        continue;
      if (!cs_time_shift_apply (&shift, g->cpu, g->raw_ts, &mapped) ||
          mapped < s->raw_ts || mapped > r->raw_ts)
        n_outside++;
    }
  printf ("%u exchanges, %u outside their host markers once shifted; trace IDs host 0x%016"
          PRIX64 ", guest 0x%016" PRIX64 "\n", n_exchanges, n_outside,
          shift.peer_trace_id, entry.trace_id);

  host_peer = (CsTestPeerOptions) { TRUE, shift.peer_trace_id, NULL, &entry, mult, tshift };
  guest_peer = (CsTestPeerOptions) { TRUE, entry.trace_id, &shift, NULL, mult, tshift };
  if (!cs_test_rewrite_v6_peer (argv[1], argv[3], &host_peer, &error) ||
      !cs_test_rewrite_v6_peer (argv[2], argv[4], &guest_peer, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint v = 0; v < n_vcpus; v++)
    g_free (shift.samples[v]);
  g_free (shift.samples);
  g_free (shift.n_samples);
  g_free (entry.vcpu_tids);
  return n_outside == 0 && n_exchanges > 0 ? 0 : 1;
}
