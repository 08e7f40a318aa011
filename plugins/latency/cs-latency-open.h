/* cs-latency-open.h: the latency pass's open A events, by pair and key.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

#include "cs-latency-def.h"

G_BEGIN_DECLS

/* An open A, and the key it is open under (key parts a pair lacks are
 * 0). */
typedef struct {
  guint pair;
  gint32 pid;
  gint64 key[CS_LATENCY_MAX_KEYS];
  gint64 ts_ns;
  guint64 row;
  guint cpu;
} CsLatencyOpenA;

typedef struct _CsLatencyOpen CsLatencyOpen;

CsLatencyOpen  *cs_latency_open_new          (void);
void            cs_latency_open_free         (CsLatencyOpen        *open);
CsLatencyOpenA *cs_latency_open_lookup       (CsLatencyOpen        *open,
                                              guint                 pair,
                                              const gint64         *key);
void            cs_latency_open_remove       (CsLatencyOpen        *open,
                                              CsLatencyOpenA       *a);
gboolean        cs_latency_open_put          (CsLatencyOpen        *open,
                                              const CsLatencyOpenA *a);
void            cs_latency_open_drain        (CsLatencyOpen        *open,
                                              guint64              *n_by_pair,
                                              guint                 n_pairs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLatencyOpen, cs_latency_open_free)

G_END_DECLS
