/* cs-kmod-sections.h: the events of Chronoscope's kernel module (kmod/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The module's trace system is `chronoscope` (kmod/chronoscope_trace.h):
 * irqs_off_begin/irqs_off_end and preempt_off_begin/preempt_off_end bracket a
 * demonstration section on one CPU (fields requested_ns, and measured_ns on
 * the end), wakeup_latency reports a task switched in later than a threshold
 * after its wakeup (comm, pid, prio, target_cpu, kind, latency_ns,
 * threshold_ns; recorded just before the sched_switch that runs the task, on
 * that CPU), mark carries a text.  These queries pair the sections and read
 * the fields.  The events are rare: the first query finds them once per
 * document and caches them; a recording without them costs nothing.
 *
 * The timeline, the info bar and `info --json` show these events through
 * the kmod plugin (plugins/kmod/), whose pass does the same pairing in the
 * worker.  Only the classroom demos (index/demo/cs-demo-markers.c) still
 * ask here, for one reason: they place markers A and B the moment the
 * window shows the recording, and must do so whether or not the user has
 * the kmod plugin enabled, while the plugin's results come later, from a
 * pass the window runs in the background when the plugin is enabled.
 */
#pragma once

#include "cs-document.h"

G_BEGIN_DECLS

/**
 * CsKmodSectionKind:
 * @CS_KMOD_SECTION_IRQS_OFF: interrupts were disabled (irqs_off_begin/_end)
 * @CS_KMOD_SECTION_PREEMPT_OFF: preemption was disabled
 *   (preempt_off_begin/_end)
 */
typedef enum {
  CS_KMOD_SECTION_IRQS_OFF,
  CS_KMOD_SECTION_PREEMPT_OFF,
} CsKmodSectionKind;

/**
 * CsKmodSection:
 * @kind: irqs-off or preempt-off
 * @cpu: the CPU that ran the section (whose ring buffer holds its events)
 * @begin_ns: timestamp of the *_begin event
 * @end_ns: timestamp of the *_end event; the recording's last_ns when the
 *   recording holds no matching end
 * @requested_ns: the section's requested length (field requested_ns)
 * @measured_ns: the busy-wait the module measured (field measured_ns of the
 *   *_end event; 0 without an end)
 *
 * One demonstration section of the module, in the recording's trace clock.
 * The module measures with ktime_get_mono_fast_ns(), so @measured_ns and
 * @end_ns - @begin_ns agree only when the trace clock runs like it.
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
 * One wakeup latency measured in the kernel by the module.
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

const char *cs_kmod_section_kind_to_string           (CsKmodSectionKind kind);

gboolean    cs_document_has_kmod_events              (CsDocument  *document);
GArray     *cs_document_get_kmod_sections            (CsDocument  *document,
                                                      gint64       begin_ns,
                                                      gint64       end_ns,
                                                      GError     **error);
GArray     *cs_document_get_kmod_wakeup_latencies    (CsDocument  *document,
                                                      gint32       pid,
                                                      gint64       begin_ns,
                                                      gint64       end_ns,
                                                      GError     **error);

G_END_DECLS
