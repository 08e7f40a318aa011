/* cache-watch.h: counts the files made in an index cache folder, to tell
 * how many builds ran (each writes one `<index>.tmp-<pid>`).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int   cs_test_cache_watch_new   (const char *folder);
guint cs_test_cache_watch_count (int         watch,
                                 const char *infix);

G_END_DECLS
