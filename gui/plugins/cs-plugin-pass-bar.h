/* cs-plugin-pass-bar.h: a plugin pass's progress in the window's info bar.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_PLUGIN_PASS_BAR (cs_plugin_pass_bar_get_type ())
G_DECLARE_FINAL_TYPE (CsPluginPassBar, cs_plugin_pass_bar, CS, PLUGIN_PASS_BAR, GtkBox)

GtkWidget *cs_plugin_pass_bar_new          (void);
void       cs_plugin_pass_bar_show_running (CsPluginPassBar *self,
                                            const char      *text);
void       cs_plugin_pass_bar_set_fraction (CsPluginPassBar *self,
                                            double           fraction);
void       cs_plugin_pass_bar_show_error   (CsPluginPassBar *self,
                                            const char      *message);

G_END_DECLS
