/* cs-window-demo.h: opening a classroom demo's recording in a window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-window.h"

G_BEGIN_DECLS

void        cs_window_open_demo      (CsWindow    *window,
                                      GFile       *file,
                                      const char  *scenario);
gboolean    cs_window_demo_apply     (CsWindow    *window,
                                      const char  *scenario,
                                      GError     **error);
const char *cs_window_demo_get_error (CsWindow    *window);
void        _cs_window_demo_action   (GSimpleAction *action,
                                      GVariant      *parameter,
                                      gpointer       user_data);

G_END_DECLS
