/* tracefs-test-util.h: finding tracefs as `chronoscope record` does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *cs_test_tracing_dir     (char **why);
gboolean    cs_test_require_tracefs (void);

G_END_DECLS
