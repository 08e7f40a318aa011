/* cs-hover-text.h: what the info bar says about a point of the timeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-document.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

char *cs_hover_text_for_time (CsDocument  *document,
                              gint64       ts_ns);
char *cs_hover_text_for_hit  (CsDocument  *document,
                              const CsHit *hit);

G_END_DECLS
