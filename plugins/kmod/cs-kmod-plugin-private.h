/* cs-kmod-plugin-private.h: what the files of the kmod plugin share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The kmod plugin shows what Chronoscope's kernel module (kmod/) recorded:
 * the events of its trace system `chronoscope` (kmod/chronoscope_trace.h).
 * irqs_off_begin/irqs_off_end and preempt_off_begin/preempt_off_end
 * bracket a demonstration section on one CPU (fields requested_ns, and
 * measured_ns on the end); wakeup_latency reports a task switched in later
 * than a threshold after its wakeup (comm, pid, prio, target_cpu, kind,
 * latency_ns, threshold_ns; recorded just before the sched_switch that
 * runs the task, on that CPU).
 *
 * - cs-kmod-pass.c: the pass "events" pairs the sections and reads the
 *   fields, in the indexing worker, into the tables `sections` and
 *   `wakeup_latencies` of the plugin's pass database;
 * - cs-kmod-results.c: the instance for one recording, reading those
 *   tables for a span (main thread);
 * - cs-kmod-layers.c: bands over CPU plots, brackets over task plots, and
 *   what the info bar says about them;
 * - cs-kmod-plugin.c: the entry point, and the "kmod" member of
 *   `chronoscope info --json`.
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

/* The module's trace system and the pass that reads it. */
#define KMOD_SYSTEM        "chronoscope"
#define KMOD_PASS          "events"
#define KMOD_PASS_VERSION  1

/**
 * KmodSectionKind:
 * @KMOD_SECTION_IRQS_OFF: interrupts were disabled (irqs_off_begin/_end)
 * @KMOD_SECTION_PREEMPT_OFF: preemption was disabled
 *   (preempt_off_begin/_end)
 *
 * The values stored in the `kind` column of the `sections` table.
 */
typedef enum {
  KMOD_SECTION_IRQS_OFF = 0,
  KMOD_SECTION_PREEMPT_OFF = 1,
} KmodSectionKind;

/**
 * KmodSection:
 * @kind: irqs-off or preempt-off
 * @cpu: the CPU that ran the section (whose ring buffer holds its events)
 * @begin_ns: timestamp of the *_begin event; the recording's first_ns when
 *   it holds the end but not the begin
 * @end_ns: timestamp of the *_end event; the recording's last_ns when it
 *   holds no matching end
 * @requested_ns: the section's requested length (field requested_ns)
 * @measured_ns: the busy-wait the module measured (field measured_ns of
 *   the *_end event; 0 without an end)
 *
 * One demonstration section of the module, in the recording's trace
 * clock: a row of the `sections` table.
 */
typedef struct {
  KmodSectionKind kind;
  guint   cpu;
  gint64  begin_ns;
  gint64  end_ns;
  guint64 requested_ns;
  guint64 measured_ns;
} KmodSection;

/**
 * KmodWakeupLatency:
 * @time_ns: timestamp of the wakeup_latency event (just before the
 *   sched_switch that ran the task)
 * @cpu: CPU the event was recorded on
 * @pid: the woken task (field pid)
 * @comm: its command name (field comm)
 * @target_cpu: the CPU it was woken onto (field target_cpu)
 * @latency_ns: from its wakeup to that sched_switch (field latency_ns)
 * @threshold_ns: the module's threshold at the time (field threshold_ns)
 *
 * One wakeup latency measured in the kernel by the module: a row of the
 * `wakeup_latencies` table.  The latency spans
 * [time_ns - latency_ns, time_ns].
 */
typedef struct {
  gint64  time_ns;
  guint   cpu;
  gint32  pid;
  char    comm[16];
  gint32  target_cpu;
  guint64 latency_ns;
  guint64 threshold_ns;
} KmodWakeupLatency;

typedef struct _KmodInstance KmodInstance;

/* cs-kmod-pass.c */
extern const CsPluginPassInfo kmod_pass_info;

/* cs-kmod-results.c */
gpointer    kmod_instance_open            (CsPlugin           *plugin,
                                           CsPluginDocument   *document,
                                           GError            **error);
void        kmod_instance_close           (gpointer            instance);
void        kmod_instance_pass_ready      (gpointer            instance,
                                           const char         *pass,
                                           const char         *param);
gboolean    kmod_instance_has_events      (KmodInstance       *self);
gboolean    kmod_instance_ensure_results  (KmodInstance       *self,
                                           GError            **error);
gboolean    kmod_instance_get_sections    (KmodInstance       *self,
                                           gint64              begin_ns,
                                           gint64              end_ns,
                                           GArray             *sections,
                                           GError            **error);
gboolean    kmod_instance_get_latencies   (KmodInstance       *self,
                                           gint32              pid,
                                           gint64              begin_ns,
                                           gint64              end_ns,
                                           GArray             *latencies,
                                           GError            **error);
const char *kmod_section_kind_to_string   (KmodSectionKind     kind);
void        kmod_bind_int                 (sqlite3_stmt       *s,
                                           const char         *name,
                                           gint64              value);

/* cs-kmod-layers.c */
extern const CsPluginLayerInfo kmod_sections_layer;
extern const CsPluginLayerInfo kmod_latencies_layer;

char       *kmod_format_duration_exact    (gint64              duration_ns);

G_END_DECLS
