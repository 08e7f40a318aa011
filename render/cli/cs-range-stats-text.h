/* cs-range-stats-text.h: statistics of a span as text.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-document.h"
#include "cs-range-stats.h"

G_BEGIN_DECLS

char *cs_range_stats_to_text (CsDocument         *doc,
                              const CsRangeStats *st,
                              guint               top);

G_END_DECLS
