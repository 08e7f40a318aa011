/* cs-tracedat-writer-peer.h: the host/guest options a #CsTracedatWriter
 * writes (TRACEID, TIME_SHIFT, GUEST, TSC2NSEC), in the types
 * cs-tracedat-clock.h reads them back into.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-tracedat-clock.h"
#include "cs-tracedat-writer.h"

G_BEGIN_DECLS

void cs_tracedat_writer_set_trace_id   (CsTracedatWriter      *self,
                                        guint64                trace_id);
void cs_tracedat_writer_add_time_shift (CsTracedatWriter      *self,
                                        const CsTimeShift     *shift);
void cs_tracedat_writer_add_guest      (CsTracedatWriter      *self,
                                        const CsTracedatGuest *guest);
void cs_tracedat_writer_set_tsc2nsec   (CsTracedatWriter      *self,
                                        guint32                mult,
                                        guint32                shift,
                                        guint64                offset);

G_END_DECLS
