/* cs-window-actions.h: the window's actions on plots, filters and sessions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-window.h"

G_BEGIN_DECLS

/* Makes one of the window's dialogs: see _cs_window_actions_show_dialog(). */
typedef GtkWindow *(*CsWindowDialogFactory) (CsWindow *window);

void        _cs_window_actions_init        (CsWindow *window);
void        _cs_window_actions_update      (CsWindow *window);
GtkWindow  *_cs_window_actions_get_dialog  (CsWindow   *window,
                                            const char *name);
GtkWindow  *_cs_window_actions_show_dialog (CsWindow              *window,
                                            const char            *name,
                                            CsWindowDialogFactory  create);

G_END_DECLS
