/* cs-explain-pass.h: the explain room's passes and SQL tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

#define CS_EXPLAIN_BLOCKERS_PASS "blockers"
#define CS_EXPLAIN_PATH_PASS "critical_path"

void     cs_explain_pass_register  (CsPlugin   *plugin);
gboolean cs_explain_blockers_parse (const char *param,
                                    gint64     *threshold_ns);
gboolean cs_explain_path_parse     (const char *param,
                                    gint32     *pid,
                                    gint64     *begin_ns,
                                    gint64     *end_ns,
                                    guint      *depth);

G_END_DECLS
