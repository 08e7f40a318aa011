/* cs-explain-cli.h: the explain room on the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

void cs_explain_cli_register (CsPlugin         *plugin);
int  cs_explain_cli_explain  (CsPluginDocument *doc,
                              const char       *definition,
                              GArray           *items,
                              guint             depth,
                              gboolean          json);
int  cs_explain_cli_blockers (CsPlugin         *plugin,
                              CsPluginDocument *doc,
                              sqlite3          *latency_db,
                              const char       *definition,
                              double            percentile,
                              gint64            threshold_ns,
                              guint             top,
                              gboolean          json);

G_END_DECLS
