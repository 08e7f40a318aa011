/* cs-demo-kmod.h: the kernel module's sections and wakeup latencies, as
 * the demos read them from the kmod plugin's pass.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The module's trace system is `chronoscope` (kmod/chronoscope_trace.h):
 * irqs_off_begin/irqs_off_end and preempt_off_begin/preempt_off_end
 * bracket a demonstration section on one CPU, wakeup_latency reports a
 * task switched in later than a threshold after its wakeup.  Pairing them
 * is the kmod plugin's rule, written once, in its pass "events"
 * (plugins/kmod/cs-kmod-pass.c): the demos read the rows that pass wrote,
 * its tables `sections` and `wakeup_latencies`, through the plugin API's
 * pass results (cs_plugin_document_get_pass_db()), and never link the
 * plugin.  The pass runs for the demos whether or not the user enabled the
 * plugin in the window: it only writes results into the index cache, it
 * shows nothing.
 */
#pragma once

#include "cs-document.h"
#include "cs-plugin-document-private.h"

G_BEGIN_DECLS

/* The kmod plugin and the pass that pairs the module's events. */
#define CS_DEMO_KMOD_PLUGIN "kmod"
#define CS_DEMO_KMOD_PASS   "events"

/**
 * CsKmodSectionKind:
 * @CS_KMOD_SECTION_IRQS_OFF: interrupts were disabled (irqs_off_begin/_end)
 * @CS_KMOD_SECTION_PREEMPT_OFF: preemption was disabled
 *   (preempt_off_begin/_end)
 *
 * The values of the `kind` column of the kmod pass's `sections` table.
 */
typedef enum {
  CS_KMOD_SECTION_IRQS_OFF = 0,
  CS_KMOD_SECTION_PREEMPT_OFF = 1,
} CsKmodSectionKind;

/**
 * CsKmodSection:
 * @kind: irqs-off or preempt-off
 * @cpu: the CPU that ran the section (whose ring buffer holds its events)
 * @begin_ns: timestamp of the *_begin event; the recording's first_ns when
 *   it holds the end but not the begin
 * @end_ns: timestamp of the *_end event; the recording's last_ns when the
 *   recording holds no matching end
 * @requested_ns: the section's requested length (field requested_ns)
 * @measured_ns: the busy-wait the module measured (field measured_ns of the
 *   *_end event; 0 without an end)
 *
 * One demonstration section of the module, in the recording's trace clock:
 * a row of the kmod pass's `sections` table.
 */
typedef struct {
  CsKmodSectionKind kind;
  guint   cpu;
  gint64  begin_ns;
  gint64  end_ns;
  guint64 requested_ns;
  guint64 measured_ns;
} CsKmodSection;

/**
 * CsKmodWakeupLatency:
 * @time_ns: timestamp of the wakeup_latency event (just before the
 *   sched_switch that ran the task)
 * @cpu: CPU the event was recorded on
 * @pid: the woken task (field pid)
 * @comm: its command name (field comm, NUL-terminated)
 * @target_cpu: the CPU it was woken onto (field target_cpu)
 * @latency_ns: from its wakeup to that sched_switch (field latency_ns)
 * @threshold_ns: the module's threshold at the time (field threshold_ns)
 *
 * One wakeup latency measured in the kernel by the module: a row of the
 * kmod pass's `wakeup_latencies` table.
 */
typedef struct {
  gint64  time_ns;
  guint   cpu;
  gint32  pid;
  char    comm[16];
  gint32  target_cpu;
  guint64 latency_ns;
  guint64 threshold_ns;
} CsKmodWakeupLatency;

const char *cs_kmod_section_kind_to_string (CsKmodSectionKind  kind);
gboolean    cs_demo_read_kmod_results      (CsPluginDocument  *plugins,
                                            CsPlugin          *kmod,
                                            GArray            *sections,
                                            GArray            *latencies,
                                            GError           **error);

G_END_DECLS
