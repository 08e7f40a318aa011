/* cs-latency-cli.h: the latency plugin's subcommand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

void cs_latency_cli_register (CsPlugin *plugin);

G_END_DECLS
