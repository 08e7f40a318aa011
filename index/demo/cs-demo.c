/* cs-demo.c: running a classroom scenario.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The main thread runs the recorder (its health checks are sources on the
 * default main context) while a trigger thread writes the knobs: a section
 * knob's write() returns only when the section has ended, and the sleeper
 * or spinner thread it delays must be pinned to the section's CPU.  The
 * recording starts before the trigger and stops a little after it, so
 * the scheduler's events on both sides of the latency are there.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cs-demo-private.h"
#include "cs-recorder.h"

#define SETTLE_BEFORE_MS     100   /* scheduler events before the latency */
#define SETTLE_AFTER_MS       50   /* and after it */
#define SLEEPER_SLEEP_NS  20000000 /* the sleeper is due 20 ms after it sleeps */
#define SPIN_AROUND_MS        10   /* the spinner runs this long on both sides */
#define THRESHOLD_US       10000   /* above TCG's normal 1-13 ms of wakeup latency */
#define TASK_STATE_TRIES    2000
#define MAX_ATTEMPTS           3

static const CsDemoScenario scenarios[] = {
  { "wakeup-latency", N_("Wakeup latency"),
    N_("A task pinned to a CPU wakes up while another task runs an 80 ms preempt-off "
       "section there: it waits for the section to end."),
    80000, "wakeup" },
  { "irqs-off", N_("Interrupts off"),
    N_("A CPU runs 20 ms with interrupts disabled: no interrupt, timer or task switch "
       "happens there meanwhile."),
    20000, "kmod-irqs-off" },
  { "preemption", N_("Preemption"),
    N_("A busy task is switched out by a 50 ms preempt-off section on its CPU and stays "
       "runnable, but off the CPU, until it ends."),
    50000, "kmod-preempt-off" },
};

/**
 * cs_demo_get_scenarios:
 * @n_scenarios: (out): how many
 *
 * Returns: (transfer none) (array length=n_scenarios): the scenarios, in the
 *   order `chronoscope demo --list` and the window show them
 */
const CsDemoScenario *
cs_demo_get_scenarios (guint *n_scenarios)
{
  *n_scenarios = G_N_ELEMENTS (scenarios);
  return scenarios;
}

/**
 * cs_demo_lookup:
 * @name: a scenario's name
 *
 * Returns: (transfer none) (nullable): the scenario, or %NULL
 */
const CsDemoScenario *
cs_demo_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (g_strcmp0 (scenarios[i].name, name) == 0)
      return &scenarios[i];
  return NULL;
}

/**
 * cs_demo_dup_record_options:
 * @scenario: a scenario's name (all record the same events today)
 * @output: the trace.dat to write
 *
 * What a scenario records: the module's system (`chronoscope`: sections,
 * wakeup_latency, mark), sched_switch, sched_waking, sched_wakeup and
 * sched_wakeup_new for the CPU and task plots, and hrtimer_expire_entry,
 * which shows the timer interrupts an irqs-off section holds back.
 *
 * Returns: (transfer full): the options, for CsRecorder or the helper
 */
CsRecordOptions *
cs_demo_dup_record_options (const char *scenario,
                            const char *output)
{
  CsRecordOptions *options = cs_record_options_new ();
  static const char * const events[] = {
    "chronoscope", "sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
    "sched:sched_wakeup_new", "timer:hrtimer_expire_entry",
  };

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    cs_record_options_add_event (options, events[i], NULL);
  options->output = g_strdup (output);
  return options;
}

/* ------------------------------------------------------------------------ */
/* The trigger thread                                                        */

typedef struct {
  const CsDemoScenario *scenario;
  guint cpu;
  gint tid;             /* atomic: the delayed thread, once it runs */
  gint stop;            /* atomic: the spinner's end */
  gint done;            /* atomic */
  gint64 late_us;       /* how late the sleeper ran, by its own clock */
  GError *error;
} Trigger;

static void
pin_to (guint cpu)
{
  cpu_set_t set;

  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  sched_setaffinity (0, sizeof set, &set);
}

static gpointer
sleeper_thread (gpointer data)
{
  Trigger *t = data;
  struct timespec due = { 0, SLEEPER_SLEEP_NS };

  gint64 due_us;

  pin_to (t->cpu);
  prctl (PR_SET_NAME, CS_DEMO_SLEEPER_COMM);
  g_atomic_int_set (&t->tid, (gint) syscall (SYS_gettid));
  due_us = g_get_monotonic_time () + SLEEPER_SLEEP_NS / 1000;
  while (clock_nanosleep (CLOCK_MONOTONIC, 0, &due, &due) == EINTR)
    ;
  t->late_us = g_get_monotonic_time () - due_us;
  return NULL;
}

static gpointer
spinner_thread (gpointer data)
{
  Trigger *t = data;

  pin_to (t->cpu);
  prctl (PR_SET_NAME, CS_DEMO_SPINNER_COMM);
  g_atomic_int_set (&t->tid, (gint) syscall (SYS_gettid));
  while (!g_atomic_int_get (&t->stop))
    ;
  return NULL;
}

/* Waits until the thread has started and is in @state ('S' asleep, 'R'
 * running) on its CPU, by /proc/self/task/TID/stat. */
static gboolean
wait_for_task (Trigger *t, char state)
{
  for (guint i = 0; i < TASK_STATE_TRIES; i++)
    {
      gint tid = g_atomic_int_get (&t->tid);

      if (tid > 0)
        {
          g_autofree char *path = g_strdup_printf ("/proc/self/task/%d/stat", tid);
          g_autofree char *text = NULL;
          const char *paren;

          if (g_file_get_contents (path, &text, NULL, NULL) &&
              (paren = strrchr (text, ')')) != NULL && paren[1] == ' ' && paren[2] == state)
            return TRUE;
        }
      g_usleep (500);
    }
  return FALSE;
}

static gboolean
write_section (const char *knob, guint us, GError **error)
{
  g_autofree char *value = g_strdup_printf ("%u", us);

  return _cs_demo_knob_write (knob, value, error);
}

static gboolean
write_mark (Trigger *t, GError **error)
{
  g_autofree char *mark = g_strdup_printf ("chronoscope demo %s: %u us on CPU %u",
                                           t->scenario->name, t->scenario->section_us, t->cpu);

  return _cs_demo_knob_write ("mark", mark, error);
}

static gboolean
trigger_wakeup_latency (Trigger *t, GError **error)
{
  /* The sleeper's timer must expire inside the section.  A kernel worker
   * started on its CPU can begin tens of milliseconds late on a busy
   * machine (the test guest under TCG), so here the section runs in this
   * thread's own context (cpu knob -1), on the sleeper's CPU: it starts as
   * soon as the sleeper sleeps.  When it still missed, try again. */
  if (!_cs_demo_knob_write ("cpu", "-1", error))
    return FALSE;
  pin_to (t->cpu);
  for (guint attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
    {
      GThread *thread;
      gboolean ok;

      g_atomic_int_set (&t->tid, 0);
      thread = g_thread_new ("cs-demo-sleeper", sleeper_thread, t);
      ok = wait_for_task (t, 'S') && write_mark (t, error) &&
           write_section ("preempt_off_us", t->scenario->section_us, error);
      g_thread_join (thread);
      if (!ok)
        {
          if (error != NULL && *error == NULL)
            g_set_error_literal (error, CS_DEMO_ERROR, CS_DEMO_ERROR_FAILED,
                                 _("The demo's sleeper thread never went to sleep"));
          return FALSE;
        }
      /* Joined: late_us is written. */
      if (t->late_us > THRESHOLD_US)
        return TRUE;
    }
  return TRUE;   /* cs_demo_find_markers() will say what is missing */
}

static gboolean
trigger_preemption (Trigger *t, GError **error)
{
  GThread *thread;
  gboolean ok;

  g_atomic_int_set (&t->stop, 0);
  thread = g_thread_new ("cs-demo-spinner", spinner_thread, t);
  ok = wait_for_task (t, 'R');
  g_usleep (SPIN_AROUND_MS * 1000);
  ok = ok && write_mark (t, error) && write_section ("preempt_off_us", t->scenario->section_us, error);
  g_usleep (SPIN_AROUND_MS * 1000);
  g_atomic_int_set (&t->stop, 1);
  g_thread_join (thread);
  if (!ok && error != NULL && *error == NULL)
    g_set_error_literal (error, CS_DEMO_ERROR, CS_DEMO_ERROR_FAILED,
                         _("The demo's spinner thread never ran"));
  return ok;
}

static gpointer
trigger_thread (gpointer data)
{
  Trigger *t = data;
  g_autofree char *cpu = g_strdup_printf ("%u", t->cpu);
  g_autofree char *threshold = g_strdup_printf ("%u", THRESHOLD_US);
  gboolean ok = _cs_demo_knob_write ("cpu", cpu, &t->error) &&
                _cs_demo_knob_write ("threshold_us", threshold, &t->error);

  if (ok && strcmp (t->scenario->name, "irqs-off") == 0)
    ok = write_mark (t, &t->error) && write_section ("irqs_off_us", t->scenario->section_us, &t->error);
  else if (ok && strcmp (t->scenario->name, "wakeup-latency") == 0)
    ok = trigger_wakeup_latency (t, &t->error);
  else if (ok)
    ok = trigger_preemption (t, &t->error);

  g_atomic_int_set (&t->done, 1);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

static gboolean
quit_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin_ms (guint ms)
{
  gboolean over = FALSE;

  /* The recorder's health checks run meanwhile: iterate, do not sleep. */
  g_timeout_add (ms, quit_cb, &over);
  while (!over)
    g_main_context_iteration (NULL, TRUE);
}

static void
enter_phase (const CsDemoConfig *config, CsDemoPhase phase)
{
  if (config->phase_func != NULL)
    config->phase_func (phase, config->phase_data);
}

static void
wait_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static guint
default_cpu (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);

  return n > 1 ? (guint) (n - 1) : 0;
}

/* Restores what the scenario changed on the module. */
static void
restore_module (gboolean loaded_by_us, const char *saved_cpu, const char *saved_threshold,
                GError **error)
{
  if (loaded_by_us)
    {
      _cs_demo_module_unload (error);
      return;
    }
  if (saved_cpu != NULL)
    _cs_demo_knob_write ("cpu", saved_cpu, NULL);
  if (saved_threshold != NULL)
    _cs_demo_knob_write ("threshold_us", saved_threshold, NULL);
}

/**
 * cs_demo_run:
 * @config: the scenario, the module to load, the CPU
 * @options: what to record (cs_demo_dup_record_options(), possibly with an
 *   owner for the window's helper)
 * @run: (out caller-allocates): what the scenario did
 * @error: return location for a %CS_DEMO_ERROR (no module, not root, a
 *   knob refused…) or a %CS_RECORD_ERROR from the recorder
 *
 * Loads chronoscope_tracer when it is not loaded, records @options with a
 * private tracefs instance while the scenario injects its latency, writes
 * the trace.dat, then restores the module's `cpu` and `threshold_us`
 * knobs, or unloads the module when it loaded it, telling
 * @config's phase_func when each step begins.  Takes about half a
 * second.  Call it from the thread that owns the default main context
 * (the recorder's sources run there); it iterates that context.
 *
 * Returns: whether the recording was written
 */
gboolean
cs_demo_run (const CsDemoConfig     *config,
             const CsRecordOptions  *options,
             CsDemoRun              *run,
             GError                **error)
{
  const CsDemoScenario *scenario = cs_demo_lookup (config->scenario);
  g_autoptr(CsRecorder) recorder = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *saved_cpu = NULL;
  g_autofree char *saved_threshold = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GError) restore_error = NULL;
  gboolean loaded_by_us = FALSE;
  Trigger t = { 0 };
  GThread *thread;
  long n_cpus = sysconf (_SC_NPROCESSORS_ONLN);

  memset (run, 0, sizeof *run);
  run->pid = -1;
  if (scenario == NULL)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_UNKNOWN_SCENARIO,
                   _("No demo is called “%s” (see chronoscope demo --list)"), config->scenario);
      return FALSE;
    }
  if (config->cpu >= 0 && config->cpu >= n_cpus)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_KNOB,
                   _("CPU %d is not online (this machine has %ld)"), config->cpu, n_cpus);
      return FALSE;
    }

  enter_phase (config, CS_DEMO_PHASE_MODULE);
  if (!_cs_demo_module_load (config->module_path, &loaded_by_us, error))
    return FALSE;
  run->module_loaded = loaded_by_us;

  saved_cpu = _cs_demo_knob_read ("cpu", &local);
  saved_threshold = saved_cpu != NULL ? _cs_demo_knob_read ("threshold_us", &local) : NULL;
  if (saved_threshold == NULL)
    {
      restore_module (loaded_by_us, NULL, NULL, NULL);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  t.scenario = scenario;
  t.cpu = config->cpu >= 0 ? (guint) config->cpu : default_cpu ();

  enter_phase (config, CS_DEMO_PHASE_RECORDING);
  recorder = cs_recorder_new (options);
  if (!cs_recorder_start (recorder, error))
    {
      restore_module (loaded_by_us, saved_cpu, saved_threshold, NULL);
      return FALSE;
    }

  spin_ms (SETTLE_BEFORE_MS);
  enter_phase (config, CS_DEMO_PHASE_INJECTING);
  thread = g_thread_new ("cs-demo-trigger", trigger_thread, &t);
  while (!g_atomic_int_get (&t.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  spin_ms (SETTLE_AFTER_MS);

  enter_phase (config, CS_DEMO_PHASE_WRITING);
  cs_recorder_stop (recorder);
  cs_recorder_wait_async (recorder, NULL, wait_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  enter_phase (config, CS_DEMO_PHASE_RESTORING);
  restore_module (loaded_by_us, saved_cpu, saved_threshold, &restore_error);

  if (!cs_recorder_wait_finish (recorder, result, error))
    {
      g_clear_error (&t.error);
      return FALSE;
    }
  if (t.error != NULL)
    {
      g_propagate_error (error, t.error);
      return FALSE;
    }
  if (restore_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&restore_error));
      return FALSE;
    }

  run->cpu = t.cpu;
  if (strcmp (scenario->name, "irqs-off") != 0)
    {
      run->pid = g_atomic_int_get (&t.tid);
      g_strlcpy (run->comm, strcmp (scenario->name, "preemption") == 0 ? CS_DEMO_SPINNER_COMM
                                                                         : CS_DEMO_SLEEPER_COMM,
                 sizeof run->comm);
    }
  return TRUE;
}
