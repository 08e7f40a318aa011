/* cs-cli-record.h: `chronoscope record` and the window's record helper.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int cs_cli_record        (int    argc,
                          char **argv);
int cs_cli_record_helper (int    argc,
                          char **argv);

G_END_DECLS
