/* cs-demo-dialog.h: the window's "Classroom Demos" dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_DEMO_DIALOG (cs_demo_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsDemoDialog, cs_demo_dialog, CS, DEMO_DIALOG, GtkWindow)

CsDemoDialog *cs_demo_dialog_new        (GtkWindow    *parent);
void          cs_demo_dialog_run        (CsDemoDialog *self,
                                         const char   *scenario);
const char   *cs_demo_dialog_get_status (CsDemoDialog *self);
void          cs_demo_dialog_set_module_path (CsDemoDialog *self,
                                              const char   *module_path);
const char   *cs_demo_dialog_get_module_path (CsDemoDialog *self);
const char   *cs_demo_dialog_get_module_text (CsDemoDialog *self);

G_END_DECLS
