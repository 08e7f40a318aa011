/* cs-application.h: the Chronoscope GtkApplication.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define CS_TYPE_APPLICATION (cs_application_get_type ())
G_DECLARE_FINAL_TYPE (CsApplication, cs_application, CS, APPLICATION, AdwApplication)

CsApplication *cs_application_new (void);

G_END_DECLS
