/* cs-test-hook.h: the test-only knobs that hold background work.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void     cs_test_hook_hold_until_cancelled (GCancellable *cancellable);
void     cs_test_hook_set                  (const char   *name,
                                            gboolean      on);
gboolean cs_test_hook_is_set               (const char   *name);

G_END_DECLS
