/* worker-test-util.h: what the tests of the index worker's life and death
 * share (test-index-worker.c, test-gui.c): its process and what it leaves
 * in the cache.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <sys/types.h>

#include <glib.h>

G_BEGIN_DECLS

guint    cs_test_count_temporaries (const char *cache_home);
pid_t    cs_test_find_worker       (pid_t       parent);
gboolean cs_test_process_is_gone   (pid_t       pid);
gint64   cs_test_wait_gone         (pid_t       pid,
                                    gint64      timeout_us);

G_END_DECLS
