/* test-index-step-clock.c: the index build's steps (cs-index-steps.c)
 * charge each thread's CPU time to the step on top of its stack, nested
 * steps and switches included, and print as the JSON line the worker
 * gives (tests/render/test-index-steps.py checks the worker's).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Not timed: the threads spin until their own CPU clock has moved by a
 * given amount, so the figures do not depend on the machine's load; the
 * checks allow for the clock reads themselves.
 */
#include "config.h"

#include <time.h>

#include "cs-index-steps.h"

#define MS (G_GINT64_CONSTANT (1000000))
/* What a step may hold beyond what was spun in it: clock reads and the
 * loop's last turn, on a busy machine. */
#define SLACK_NS (2 * MS)

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  g_assert_cmpint (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts), ==, 0);
  return (gint64) ts.tv_sec * 1000 * MS + ts.tv_nsec;
}

/* Burns @ns of this thread's CPU time. */
static void
spin (gint64 ns)
{
  gint64 until = thread_cpu_ns () + ns;
  volatile guint64 x = 0;

  while (thread_cpu_ns () < until)
    for (guint i = 0; i < 1000; i++)
      x += i;
}

static void
totals_since (const gint64 before[CS_INDEX_N_STEPS],
              gint64       delta[CS_INDEX_N_STEPS])
{
  cs_index_steps_get_ns (delta);
  for (guint i = 0; i < CS_INDEX_N_STEPS; i++)
    delta[i] -= before[i];
}

static void
assert_about (gint64 got_ns,
              gint64 want_ns)
{
  g_assert_cmpint (got_ns, >=, want_ns);
  g_assert_cmpint (got_ns, <=, want_ns + SLACK_NS);
}

/* READ 10 ms, then DECODE 20 ms inside it with ENCODE 5 ms inside that
 * (and ENCODE again inside ENCODE: no double count), back to READ 10 ms,
 * a switch to SUMMARISE 15 ms; time outside any step counts nowhere. */
static gpointer
nested_thread (gpointer data)
{
  spin (10 * MS);                              /* outside: not counted */
  cs_index_step_enter (CS_INDEX_STEP_READ);
  spin (10 * MS);
  cs_index_step_enter (CS_INDEX_STEP_DECODE);
  spin (20 * MS);
  cs_index_step_enter (CS_INDEX_STEP_ENCODE);
  cs_index_step_enter (CS_INDEX_STEP_ENCODE);
  spin (5 * MS);
  cs_index_step_leave ();
  cs_index_step_leave ();
  cs_index_step_leave ();
  spin (10 * MS);
  cs_index_step_switch (CS_INDEX_STEP_SUMMARISE);
  spin (15 * MS);
  cs_index_step_leave ();
  spin (10 * MS);                              /* outside again */
  cs_index_step_leave ();                      /* one too many: ignored */
  return NULL;
}

static void
test_nesting (void)
{
  gint64 before[CS_INDEX_N_STEPS], delta[CS_INDEX_N_STEPS];
  GThread *threads[2];

  g_assert_true (cs_index_steps_enabled ());
  cs_index_steps_get_ns (before);
  /* Two threads at once: each one's stack is its own, totals add up. */
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("steps", nested_thread, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  totals_since (before, delta);

  assert_about (delta[CS_INDEX_STEP_READ], 2 * 20 * MS);
  assert_about (delta[CS_INDEX_STEP_DECODE], 2 * 20 * MS);
  assert_about (delta[CS_INDEX_STEP_ENCODE], 2 * 5 * MS);
  assert_about (delta[CS_INDEX_STEP_SUMMARISE], 2 * 15 * MS);
  g_assert_cmpint (delta[CS_INDEX_STEP_WRITE], ==, 0);
}

static void
test_json (void)
{
  g_autofree char *line = cs_index_steps_dup_json (1.5);

  for (guint i = 0; i < CS_INDEX_N_STEPS; i++)
    {
      g_autofree char *key = g_strdup_printf ("\"%s_s\": ", cs_index_step_get_name (i));

      g_assert_nonnull (strstr (line, key));
    }
  g_assert_true (g_str_has_prefix (line, "{\"index_steps\": {\"read_s\": "));
  g_assert_true (g_str_has_suffix (line, "}, \"process_cpu_s\": 1.500000}"));
  g_assert_null (strchr (line, '\n'));
}

int
main (int argc, char **argv)
{
  /* Read once, at the first step: set before any. */
  g_setenv ("CHRONOSCOPE_INDEX_STEPS", "1", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cs/index/IndexSteps/nesting", test_nesting);
  g_test_add_func ("/cs/index/IndexSteps/json", test_json);
  return g_test_run ();
}
