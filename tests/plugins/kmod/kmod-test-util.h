/* kmod-test-util.h: what the kmod plugin's tests share: its pass run
 * in-process, and its results read back from the pass's tables, whether
 * the plugin was enabled by the built-in plugins' test host
 * (../builtin-test-host.h) or by a window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-plugin-document-private.h"

G_BEGIN_DECLS

/* The kind column of the plugin's `sections` table. */
#define KMOD_TEST_IRQS_OFF     0
#define KMOD_TEST_PREEMPT_OFF  1

/* A row of the plugin's `sections` table. */
typedef struct {
  int kind;
  guint cpu;
  gint64 begin_ns;
  gint64 end_ns;
  guint64 requested_ns;
  guint64 measured_ns;
} KmodTestSection;

/* A row of its `wakeup_latencies` table. */
typedef struct {
  gint64 time_ns;
  guint cpu;
  gint32 pid;
  char comm[16];
  gint32 target_cpu;
  guint64 latency_ns;
  guint64 threshold_ns;
} KmodTestLatency;

void                   kmod_test_run_pass      (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
GArray                *kmod_test_get_sections  (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
GArray                *kmod_test_get_latencies (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);
const KmodTestSection *kmod_test_only_section  (GArray           *sections,
                                                int               kind);
JsonNode              *kmod_test_build_json    (CsPluginDocument *plugins,
                                                CsPlugin         *plugin);

G_END_DECLS
