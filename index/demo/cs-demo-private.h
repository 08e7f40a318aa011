/* cs-demo-private.h: the kernel module and its knobs, for cs-demo.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-demo.h"

G_BEGIN_DECLS

#define CS_DEMO_KNOB_DIR "/sys/kernel/debug/chronoscope"

gboolean _cs_demo_module_is_loaded  (void);
gboolean _cs_demo_module_load       (const char  *module_path,
                                     gboolean    *loaded_by_us,
                                     GError     **error);
gboolean _cs_demo_module_unload     (GError     **error);
char    *_cs_demo_knob_read         (const char  *name,
                                     GError     **error);
gboolean _cs_demo_knob_write        (const char  *name,
                                     const char  *value,
                                     GError     **error);

G_END_DECLS
