/* cs-stream-private.h: what CsStreamSet sets on its streams.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-stream.h"
#include "cs-tracedat-clock.h"

G_BEGIN_DECLS

CsTracedatReader *_cs_stream_get_reader   (CsStream          *self);
CsTracedatReader *_cs_stream_get_full_reader (CsStream       *self,
                                            GError           **error);
CsTimeRelation   *_cs_stream_get_relation (CsStream         *self);
void              _cs_stream_set_reference_guest (CsStream   *self,
                                                  CsStream   *guest);
void              _cs_stream_set_alignment (CsStream         *self,
                                            CsStreamAlignment  alignment,
                                            gint64             base_offset_ns,
                                            CsStream          *host,
                                            CsTimeRelation    *relation,
                                            const char        *note);

G_END_DECLS
