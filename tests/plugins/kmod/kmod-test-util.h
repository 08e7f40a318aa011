/* kmod-test-util.h: what the kmod plugin's tests share: its pass run
 * in-process, and its results read back from the pass's tables as the
 * demos read them (index/demo/cs-demo-kmod.h), whether the plugin was
 * enabled by the built-in plugins' test host (../builtin-test-host.h) or
 * by a window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-demo-kmod.h"
#include "cs-plugin-document-private.h"

G_BEGIN_DECLS

/* The kind column of the plugin's `sections` table. */
#define KMOD_TEST_IRQS_OFF     CS_KMOD_SECTION_IRQS_OFF
#define KMOD_TEST_PREEMPT_OFF  CS_KMOD_SECTION_PREEMPT_OFF

/* A row of the plugin's `sections` table, and of `wakeup_latencies`. */
typedef CsKmodSection KmodTestSection;
typedef CsKmodWakeupLatency KmodTestLatency;

void                   kmod_test_run_pass      (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
GArray                *kmod_test_get_sections  (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
GArray                *kmod_test_get_latencies (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
const KmodTestSection *kmod_test_only_section  (GArray           *sections,
                                                CsKmodSectionKind kind);
JsonNode              *kmod_test_build_json    (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);

G_END_DECLS
