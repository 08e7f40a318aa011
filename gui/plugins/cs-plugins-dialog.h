/* cs-plugins-dialog.h: the Plugins dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_PLUGINS_DIALOG (cs_plugins_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsPluginsDialog, cs_plugins_dialog, CS, PLUGINS_DIALOG, GtkWindow)

GtkWidget *cs_plugins_dialog_new        (GtkWindow       *parent);
GtkSwitch *cs_plugins_dialog_get_switch (CsPluginsDialog *self,
                                         const char      *id);

G_END_DECLS
