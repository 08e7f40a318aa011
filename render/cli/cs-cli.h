/* cs-cli.h: the headless commands of the chronoscope executable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `chronoscope info FILE [--json] [--peer FILE]`, `chronoscope render FILE -o OUT.png ...`
 * and the internal `chronoscope index-worker FILE` run without GTK: they
 * need no display and never initialise GDK.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean cs_cli_is_command (const char  *name);
int      cs_cli_run        (int          argc,
                            char       **argv);

G_END_DECLS
