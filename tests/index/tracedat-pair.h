/* tracedat-pair.h: see tracedat-pair.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-tracedat-writer-peer.h"

G_BEGIN_DECLS

/* The peer options cs_test_rewrite_v6_peer() writes. */
typedef struct {
  gboolean has_trace_id;
  guint64 trace_id;
  const CsTimeShift *time_shift;     /* nullable */
  const CsTracedatGuest *guest;      /* nullable */
  guint32 tsc2nsec_mult;             /* 0: no TSC2NSEC option */
  guint32 tsc2nsec_shift;
} CsTestPeerOptions;

gboolean cs_test_rewrite_v6_peer (const char              *in_path,
                                  const char              *out_path,
                                  const CsTestPeerOptions *peer,
                                  GError                 **error);

/* One "cs-pair: WHAT SEQ" marker of make-host-guest-pair.sh. */
typedef struct {
  gboolean seen;
  guint64 raw_ts;
  gint64 ts_ns;
  guint cpu;
} CsTestPairMark;

GArray  *cs_test_pair_read_marks (CsTracedatReader *reader,
                                  const char       *what,
                                  GError          **error);

gboolean cs_test_pair_get_exchange (GArray                *send,
                                    GArray                *recv,
                                    GArray                *got,
                                    guint                  seq,
                                    const CsTestPairMark **s,
                                    const CsTestPairMark **r,
                                    const CsTestPairMark **g);

G_END_DECLS
