/* cs-explain-slices.h: a stay of a waiting task fed to the tracker from
 * the index's slices (cs-explain-slices.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-explain-tracker.h"

G_BEGIN_DECLS

typedef enum {
  CS_EXPLAIN_SLICES_FED,
  CS_EXPLAIN_SLICES_UNSUITABLE,
  CS_EXPLAIN_SLICES_ABANDONED,
  CS_EXPLAIN_SLICES_FAILED,
} CsExplainSlicesResult;

CsExplainSlicesResult _cs_explain_feed_stay_from_slices (CsPluginDocument    *document,
                                                         CsExplainTracker    *tracker,
                                                         guint                cpu,
                                                         gint64               from_ns,
                                                         gint64               to_ns,
                                                         CsExplainBreakdown **found,
                                                         GError             **error);

G_END_DECLS
