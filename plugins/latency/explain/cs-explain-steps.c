/* cs-explain-steps.c: the CPU time of each step of explaining a pair.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * With CHRONOSCOPE_EXPLAIN_STEPS=1 in the environment, the explain engine
 * adds the thread CPU time (CLOCK_THREAD_CPUTIME_ID) of each step to a
 * per-thread tally, and `chronoscope latency FILE --explain` prints it on
 * stderr after each pair, apart from the latency pass that may run
 * before: the explanation's own cost, which wall time on a shared machine
 * hides.  Without it, nothing is measured (a clock read costs about as
 * much as a record read).
 */
#include <time.h>

#include "cs-explain-steps.h"

static const char *const step_names[CS_EXPLAIN_N_STEPS] = {
  [CS_EXPLAIN_STEP_MOVES] = "moves",
  [CS_EXPLAIN_STEP_PRIME] = "prime",
  [CS_EXPLAIN_STEP_INDEX] = "index",
  [CS_EXPLAIN_STEP_READ] = "records+tracker",
  [CS_EXPLAIN_STEP_CHAIN] = "chain",
};

/* A thread's tally. */
typedef struct {
  gint64 step_ns[CS_EXPLAIN_N_STEPS];
  gint64 started_ns;            /* -1 until the first step or reset */
  guint n_stays;                /* stays fed */
  guint n_stays_from_slices;    /* of them, fed from the index's slices */
} Tally;

/* Each thread's Tally, behind a GPrivate (a pthread key) rather than in
 * __thread variables: in a dlopen()ed plugin those make GCC 12's
 * LeakSanitizer crash at exit now and then (tests/plugins/check-tls.py
 * says how, and keeps every plugin free of them). */
static GPrivate tally_key = G_PRIVATE_INIT (g_free);

/* The calling thread's tally, made on first use. */
static Tally *
get_tally (void)
{
  Tally *tally = g_private_get (&tally_key);

  if (tally == NULL)
    {
      tally = g_new0 (Tally, 1);
      tally->started_ns = -1;
      g_private_set (&tally_key, tally);
    }
  return tally;
}

/**
 * _cs_explain_steps_enabled:
 *
 * Returns: whether CHRONOSCOPE_EXPLAIN_STEPS is set (to anything but "0")
 */
gboolean
_cs_explain_steps_enabled (void)
{
  static gsize once = 0;
  static gboolean enabled;

  if (g_once_init_enter (&once))
    {
      const char *v = g_getenv ("CHRONOSCOPE_EXPLAIN_STEPS");

      enabled = v != NULL && *v != '\0' && g_strcmp0 (v, "0") != 0;
      g_once_init_leave (&once, 1);
    }
  return enabled;
}

/**
 * _cs_explain_steps_now:
 *
 * Returns: the calling thread's CPU time, ns, when steps are measured;
 *   else 0
 */
gint64
_cs_explain_steps_now (void)
{
  struct timespec ts;

  if (!_cs_explain_steps_enabled () || clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/**
 * _cs_explain_steps_add:
 * @step: a step
 * @since_ns: _cs_explain_steps_now() when it began
 *
 * Adds the thread CPU time since @since_ns to @step (nothing when steps
 * are not measured).
 */
void
_cs_explain_steps_add (CsExplainStep step,
                       gint64        since_ns)
{
  if (_cs_explain_steps_enabled ())
    _cs_explain_steps_add_span (step, since_ns, _cs_explain_steps_now ());
}

/**
 * _cs_explain_steps_add_span:
 * @step: a step
 * @from_ns: _cs_explain_steps_now() when it began
 * @to_ns: and when it ended
 *
 * Adds @to_ns - @from_ns to @step (nothing when steps are not measured).
 */
void
_cs_explain_steps_add_span (CsExplainStep step,
                            gint64        from_ns,
                            gint64        to_ns)
{
  Tally *tally;

  if (!_cs_explain_steps_enabled ())
    return;
  tally = get_tally ();
  if (tally->started_ns < 0)
    tally->started_ns = from_ns;
  tally->step_ns[step] += to_ns - from_ns;
}

/**
 * _cs_explain_steps_reset:
 *
 * Zeroes the calling thread's tally and starts its total (nothing when
 * steps are not measured).
 */
void
_cs_explain_steps_reset (void)
{
  Tally *tally;

  /* Steps not measured: no tally is made. */
  if (!_cs_explain_steps_enabled ())
    return;
  tally = get_tally ();
  for (guint i = 0; i < CS_EXPLAIN_N_STEPS; i++)
    tally->step_ns[i] = 0;
  tally->n_stays = tally->n_stays_from_slices = 0;
  tally->started_ns = _cs_explain_steps_now ();
}

/**
 * _cs_explain_steps_count_stay:
 * @from_slices: whether the stay's sched_switch events came from the
 *   index's slices (cs-explain-slices.c) rather than its records
 *
 * Counts one stay of a pair explained, when steps are measured.
 */
void
_cs_explain_steps_count_stay (gboolean from_slices)
{
  Tally *tally;

  if (!_cs_explain_steps_enabled ())
    return;
  tally = get_tally ();
  tally->n_stays++;
  if (from_slices)
    tally->n_stays_from_slices++;
}

/**
 * _cs_explain_steps_describe:
 *
 * Returns: (transfer full): the tally since _cs_explain_steps_reset(), as
 *   one line: each step's ms, then the thread's whole CPU time since
 *   (the steps plus what falls between them: building the breakdown)
 */
char *
_cs_explain_steps_describe (void)
{
  GString *s = g_string_new ("explain steps (thread CPU):");
  Tally *tally = get_tally ();
  gint64 total = tally->started_ns >= 0 ? _cs_explain_steps_now () - tally->started_ns : 0;

  for (guint i = 0; i < CS_EXPLAIN_N_STEPS; i++)
    g_string_append_printf (s, " %s %.1f ms,", step_names[i], tally->step_ns[i] / 1e6);
  g_string_append_printf (s, " total %.1f ms, stays from slices %u of %u", total / 1e6,
                          tally->n_stays_from_slices, tally->n_stays);
  return g_string_free (s, FALSE);
}
