/* cs-preferences-window.h: the Preferences window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CS_TYPE_PREFERENCES_WINDOW (cs_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (CsPreferencesWindow, cs_preferences_window, CS, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

GtkWindow *cs_preferences_window_new          (GtkWindow           *parent);
GSettings *cs_preferences_window_get_settings (CsPreferencesWindow *self);

G_END_DECLS
