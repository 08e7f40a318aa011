/* cs-window-settings.h: the window's remembered size.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GSettings *_cs_settings_lookup              (const char * const *keys);
GSettings *_cs_window_settings_lookup       (void);
void       _cs_window_settings_restore_size (GtkWindow *window,
                                             GSettings *settings);
void       _cs_window_settings_save_size    (GtkWindow *window,
                                             GSettings *settings);

G_END_DECLS
