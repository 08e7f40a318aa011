/* cs-about.h: the About Chronoscope window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

GtkWindow *cs_about_window_new (GtkWindow *parent);

G_END_DECLS
