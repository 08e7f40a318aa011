/* cs-index-steps.c: the CPU time of each step of building an index.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * With CHRONOSCOPE_INDEX_STEPS=1 in the environment, the index builder's
 * threads count their CPU time (CLOCK_THREAD_CPUTIME_ID: user and system
 * time of the thread, the clock getrusage() sums over the process) per
 * step (#CsIndexStep), and `chronoscope index-worker FILE` prints the
 * totals on stderr as its last line, one JSON object:
 *
 *   {"index_steps": {"read_s": 0.41, "decode_s": 1.92, "summarise_s": 1.10,
 *    "encode_s": 0.77, "write_s": 1.35}, "process_cpu_s": 6.02}
 *
 * (seconds of CPU time summed over the threads; process_cpu_s is the
 * worker's own user + system time at that point, from getrusage(), so
 * what no step holds is process_cpu_s minus the sum).  The benchmark
 * (tests/bench/bench.py) shows them beside the first open's figures.
 *
 * The clock is read where a thread enters or leaves a step, and steps are
 * entered per batch of records, per chunk or per block of pages, never per
 * record: 35 k reads for the first open of the medium bench recording
 * (9.4 M events, 1.06 s of CPU), a system call of ~1 us each on the
 * project's VMs, so measuring costs ~3 % and the steps carry that cost.
 * Without the variable nothing is read: cs_index_step_enter() is one load
 * and one branch.  Each thread keeps a small stack of the steps it is in,
 * so a step entered inside another (reading a block while decoding,
 * encoding a chunk while summarising) counts for itself only; entering
 * the step a thread is in already, or leaving back to the same step,
 * reads no clock.
 */
#include "config.h"

#include <time.h>

#include "cs-index-steps.h"

#define MAX_DEPTH 8

int _cs_index_steps_state = -1;

static gint64 totals_ns[CS_INDEX_N_STEPS];

static const char *const step_names[CS_INDEX_N_STEPS] = {
  "read", "decode", "summarise", "encode", "write",
};

typedef struct {
  CsIndexStep stack[MAX_DEPTH];
  guint depth;
  gint64 since_ns;        /* when the step on top was entered or resumed */
} ThreadSteps;

static __thread ThreadSteps thread_steps;

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/**
 * cs_index_steps_enabled:
 *
 * Whether the steps are measured: CHRONOSCOPE_INDEX_STEPS is set to 1 in
 * the environment (read once, at the first call of this or of
 * cs_index_step_enter()).
 *
 * Thread: any.
 *
 * Returns: %TRUE when measuring
 */
gboolean
cs_index_steps_enabled (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      g_atomic_int_set (&_cs_index_steps_state, g_strcmp0 (g_getenv ("CHRONOSCOPE_INDEX_STEPS"), "1") == 0);
      g_once_init_leave (&once, 1);
    }
  return g_atomic_int_get (&_cs_index_steps_state) == 1;
}

/* Charges the time since the last change to the step on top, if any. */
static gint64
charge (ThreadSteps *t)
{
  gint64 now = thread_cpu_ns ();

  if (t->depth > 0 && t->depth <= MAX_DEPTH && now > t->since_ns)
    __atomic_fetch_add (&totals_ns[t->stack[t->depth - 1]], now - t->since_ns, __ATOMIC_RELAXED);
  t->since_ns = now;
  return now;
}

/* cs_index_step_enter() when measuring (or not yet known). */
void
_cs_index_step_enter_slow (CsIndexStep step)
{
  ThreadSteps *t = &thread_steps;

  g_return_if_fail ((guint) step < CS_INDEX_N_STEPS);
  if (!cs_index_steps_enabled ())
    return;
  if (t->depth == 0 || t->depth > MAX_DEPTH || t->stack[t->depth - 1] != step)
    charge (t);
  /* Past MAX_DEPTH (a bug) the depth still counts, so leaves match. */
  if (t->depth < MAX_DEPTH)
    t->stack[t->depth] = step;
  t->depth++;
}

/* cs_index_step_leave() when measuring (or not yet known). */
void
_cs_index_step_leave_slow (void)
{
  ThreadSteps *t = &thread_steps;

  if (!cs_index_steps_enabled () || t->depth == 0)
    return;
  if (t->depth < 2 || t->depth > MAX_DEPTH || t->stack[t->depth - 1] != t->stack[t->depth - 2])
    charge (t);
  t->depth--;
}

/* cs_index_step_switch() when measuring (or not yet known). */
void
_cs_index_step_switch_slow (CsIndexStep step)
{
  ThreadSteps *t = &thread_steps;

  g_return_if_fail ((guint) step < CS_INDEX_N_STEPS);
  if (!cs_index_steps_enabled () || t->depth == 0 || t->depth > MAX_DEPTH)
    return;
  if (t->stack[t->depth - 1] != step)
    charge (t);
  t->stack[t->depth - 1] = step;
}

/**
 * cs_index_steps_get_ns:
 * @totals_ns: (out caller-allocates) (array fixed-size=5): per
 *   #CsIndexStep, the CPU time (ns) counted for it so far, summed over the
 *   threads; zeroes when not measuring
 *
 * Steps still open on some thread count up to their last change.
 *
 * Thread: any.
 */
void
cs_index_steps_get_ns (gint64 out_ns[CS_INDEX_N_STEPS])
{
  for (guint i = 0; i < CS_INDEX_N_STEPS; i++)
    out_ns[i] = __atomic_load_n (&totals_ns[i], __ATOMIC_RELAXED);
}

/**
 * cs_index_step_get_name:
 * @step: a step
 *
 * Returns: (transfer none): its name in the JSON line: "read", "decode",
 *   "summarise", "encode" or "write"
 */
const char *
cs_index_step_get_name (CsIndexStep step)
{
  g_return_val_if_fail ((guint) step < CS_INDEX_N_STEPS, NULL);
  return step_names[step];
}

/**
 * cs_index_steps_dup_json:
 * @process_cpu_s: the process's CPU time (user + system, seconds) to
 *   print beside the steps, or a negative number to leave it out
 *
 * The totals as the one-line JSON object described at the top of
 * cs-index-steps.c, without a newline.
 *
 * Thread: any.
 *
 * Returns: (transfer full): the line
 */
char *
cs_index_steps_dup_json (double process_cpu_s)
{
  gint64 ns[CS_INDEX_N_STEPS];
  GString *s = g_string_new ("{\"index_steps\": {");
  char num[G_ASCII_DTOSTR_BUF_SIZE];

  cs_index_steps_get_ns (ns);
  for (guint i = 0; i < CS_INDEX_N_STEPS; i++)
    g_string_append_printf (s, "%s\"%s_s\": %s", i > 0 ? ", " : "", step_names[i],
                            g_ascii_formatd (num, sizeof num, "%.6f", ns[i] / 1e9));
  g_string_append_c (s, '}');
  if (process_cpu_s >= 0)
    g_string_append_printf (s, ", \"process_cpu_s\": %s",
                            g_ascii_formatd (num, sizeof num, "%.6f", process_cpu_s));
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}
