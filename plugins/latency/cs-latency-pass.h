/* cs-latency-pass.h: the latency plugin's pass.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

/* The pass's name and the version of the tables it writes
 * (cs-latency-pass.c describes them). */
#define CS_LATENCY_PASS "pairs"
#define CS_LATENCY_PASS_VERSION 8

void cs_latency_pass_register (CsPlugin *plugin);

G_END_DECLS
