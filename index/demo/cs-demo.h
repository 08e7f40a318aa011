/* cs-demo.h: classroom scenarios with Chronoscope's kernel module (kmod/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A scenario loads chronoscope_tracer when it is not loaded, records the
 * module's events and the scheduler's with CsRecorder (a private tracefs
 * instance), injects a known latency through the module's debugfs knobs
 * (/sys/kernel/debug/chronoscope/: irqs_off_us, preempt_off_us, cpu,
 * threshold_us, mark), stops, and restores the knobs and the module.  Then
 * cs_demo_find_markers() finds, in the recording's index and the kmod
 * plugin's pass results (cs-demo-kmod.h), where markers A and B go around
 * the latency.  No GTK here: `chronoscope demo`, the
 * window's record-helper and the tests share it.
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-demo-kmod.h"
#include "cs-record-options.h"

G_BEGIN_DECLS

/**
 * CS_DEMO_ERROR:
 *
 * Error domain of the classroom scenarios.  Recording errors keep their
 * %CS_RECORD_ERROR domain; index errors their %CS_INDEX_ERROR domain.
 */
#define CS_DEMO_ERROR (cs_demo_error_quark ())

/**
 * CsDemoError:
 * @CS_DEMO_ERROR_UNKNOWN_SCENARIO: no scenario has that name
 * @CS_DEMO_ERROR_NO_MODULE: chronoscope_tracer is neither loaded nor
 *   installed for the running kernel (no entry in
 *   /lib/modules/RELEASE/modules.dep), and no --module PATH.ko was given;
 *   the message says how to install it with DKMS
 * @CS_DEMO_ERROR_NOT_ROOT: loading the module, its debugfs knobs and
 *   tracefs need root
 * @CS_DEMO_ERROR_MODULE_LOAD: modprobe or finit_module() refused the
 *   module; the message quotes the reason (wrong kernel, signature…)
 * @CS_DEMO_ERROR_KNOB: a knob in /sys/kernel/debug/chronoscope/ is missing
 *   (debugfs not mounted) or refused a value; the message names the file
 * @CS_DEMO_ERROR_NOT_FOUND: the recording does not hold what the scenario
 *   injects (no section, no wakeup latency of the demo's task)
 * @CS_DEMO_ERROR_FAILED: anything else (a thread, the module not unloading)
 *
 * Codes of %CS_DEMO_ERROR.
 */
typedef enum {
  CS_DEMO_ERROR_UNKNOWN_SCENARIO,
  CS_DEMO_ERROR_NO_MODULE,
  CS_DEMO_ERROR_NOT_ROOT,
  CS_DEMO_ERROR_MODULE_LOAD,
  CS_DEMO_ERROR_KNOB,
  CS_DEMO_ERROR_NOT_FOUND,
  CS_DEMO_ERROR_FAILED,
} CsDemoError;

/**
 * CsDemoScenario:
 * @name: what `chronoscope demo NAME` takes ("irqs-off")
 * @title: a short title for the window (untranslated; use _())
 * @summary: one line saying what it shows (untranslated; use _())
 * @section_us: the length of the section it injects, µs
 * @latency_preset: the latency plugin's preset whose worst pair is the
 *   latency it injects (the window opens the demo on the Latency page
 *   with it): "wakeup" (the sleeper's wait from its sched_waking to its
 *   sched_switch, markers A and B), "kmod-irqs-off", "kmod-preempt-off"
 *   (the section, which the spinner waits out)
 *
 * One classroom scenario.
 */
typedef struct {
  const char *name;
  const char *title;
  const char *summary;
  guint section_us;
  const char *latency_preset;
} CsDemoScenario;

/**
 * CsDemoPhase:
 * @CS_DEMO_PHASE_MODULE: loading chronoscope_tracer (or finding it
 *   loaded) and reading its knobs
 * @CS_DEMO_PHASE_RECORDING: the recorder starts and records the scheduler
 *   before the latency
 * @CS_DEMO_PHASE_INJECTING: the scenario's latency is being injected
 * @CS_DEMO_PHASE_WRITING: tracing is off; the last pages are drained and
 *   the trace.dat written
 * @CS_DEMO_PHASE_RESTORING: the module's knobs are restored, or the
 *   module unloaded
 *
 * The steps of cs_demo_run(), in this order, for a progress display.
 */
typedef enum {
  CS_DEMO_PHASE_MODULE,
  CS_DEMO_PHASE_RECORDING,
  CS_DEMO_PHASE_INJECTING,
  CS_DEMO_PHASE_WRITING,
  CS_DEMO_PHASE_RESTORING,
} CsDemoPhase;

/**
 * CsDemoPhaseFunc:
 * @phase: the step that begins now
 * @user_data: #CsDemoConfig.phase_data
 *
 * Called by cs_demo_run() on its own thread (the caller's) when a step
 * begins.
 */
typedef void (*CsDemoPhaseFunc) (CsDemoPhase phase,
                                 gpointer    user_data);

/**
 * CsDemoConfig:
 * @scenario: the scenario's name
 * @module_path: (nullable): a built chronoscope_tracer.ko to load with
 *   finit_module(); %NULL: `modprobe chronoscope_tracer` (the DKMS one)
 * @cpu: the CPU that runs the section and the demo's task; -1: the last
 *   online CPU
 * @phase_func: (nullable): told when each step begins
 * @phase_data: for @phase_func
 *
 * How to run a scenario.
 */
typedef struct {
  const char *scenario;
  const char *module_path;
  int cpu;
  CsDemoPhaseFunc phase_func;
  gpointer phase_data;
} CsDemoConfig;

/**
 * CsDemoRun:
 * @cpu: the CPU the scenario used
 * @pid: the thread the scenario delayed (the sleeper or the spinner), or
 *   -1 for irqs-off
 * @comm: its name (cs-demo-sleeper, cs-demo-spinner), or ""
 * @module_loaded: whether the scenario loaded (and unloaded) the module
 *
 * What a finished scenario did.
 */
typedef struct {
  guint cpu;
  gint32 pid;
  char comm[16];
  gboolean module_loaded;
} CsDemoRun;

/**
 * CsDemoMarkers:
 * @a_ns: marker A, trace clock ns: where the latency begins
 * @b_ns: marker B, trace clock ns: where it ends
 * @cpu: the CPU of the section
 * @pid: the delayed task, -1 for irqs-off
 * @comm: its name, or ""
 * @section: the module's section the scenario injected
 * @has_latency: whether @latency holds the wakeup-latency event of @pid
 * @latency: the module's wakeup_latency event for @pid (wakeup-latency)
 *
 * Where the window puts markers A and B after a scenario.
 */
typedef struct {
  gint64 a_ns;
  gint64 b_ns;
  guint cpu;
  gint32 pid;
  char comm[16];
  CsKmodSection section;
  gboolean has_latency;
  CsKmodWakeupLatency latency;
} CsDemoMarkers;

#define CS_DEMO_SLEEPER_COMM "cs-demo-sleeper"
#define CS_DEMO_SPINNER_COMM "cs-demo-spinner"
#define CS_DEMO_MODULE_NAME  "chronoscope_tracer"

GQuark                cs_demo_error_quark          (void);
const CsDemoScenario *cs_demo_get_scenarios        (guint               *n_scenarios);
const CsDemoScenario *cs_demo_lookup               (const char          *name);
CsRecordOptions      *cs_demo_dup_record_options   (const char          *scenario,
                                                    const char          *output);
gboolean              cs_demo_check_module         (const char          *module_path,
                                                    GError             **error);
char                 *cs_demo_module_dup_kernel_release (const char     *module_path,
                                                    GError             **error);
gboolean              cs_demo_run                  (const CsDemoConfig  *config,
                                                    const CsRecordOptions *options,
                                                    CsDemoRun           *run,
                                                    GError             **error);
gboolean              cs_demo_find_markers         (CsPluginDocument    *plugins,
                                                    CsPlugin            *kmod,
                                                    const char          *scenario,
                                                    CsDemoMarkers       *markers,
                                                    GError             **error);

G_END_DECLS
