/* cs-explain-private.h: what the files of plugins/latency/explain/ share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-explain.h"

G_BEGIN_DECLS

/* A wake event as found by _cs_explain_find_waking(). */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  gint32 waker_pid;             /* its common_pid */
  gint32 flags;                 /* its common_flags */
} CsExplainWaking;

gboolean    _cs_explain_find_waking (CsPluginDocument *document,
                                     gint32            pid,
                                     gint64            ts_ns,
                                     CsExplainWaking  *waking,
                                     GError          **error);

void        _cs_explain_add_slice   (GArray           *slices,
                                     gint64            begin_ns,
                                     gint64            end_ns,
                                     guint             cpu,
                                     guint             contributor);
void        _cs_explain_breakdown_reorder (CsExplainBreakdown *breakdown);
gboolean    _cs_explain_flags_may_read (CsPluginDocument  *document,
                                        guint              cpu,
                                        gint64             begin_ns,
                                        gint64             end_ns,
                                        gboolean          *may_read,
                                        GError           **error);

G_END_DECLS
