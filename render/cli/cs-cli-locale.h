/* cs-cli-locale.h: the locale and message catalogues of Chronoscope's
 * programs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void cs_cli_bind_locale (void);

G_END_DECLS
