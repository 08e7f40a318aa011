/* cs-test-hook.c: the test-only knobs that hold background work.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Work that runs in a worker thread with a GCancellable (the event list's
 * filter count and search, the statistics window, the export dialog) has
 * an environment variable, read on the main thread when the work starts
 * (CS_FILTER_TEST_HANG, CS_SEARCH_TEST_HANG, CS_STATS_TEST_HANG,
 * CS_EXPORT_TEST_HANG), that makes the worker hold here, so that a GUI
 * test sees the progress and its Cancel however fast the machine is.  A
 * plugin pass (run in the index worker process, which a Cancel stops with
 * SIGTERM) holds before it stores its results when CS_PASS_TEST_HANG is
 * in the environment it was started with.
 */
#include "config.h"

#include "cs-test-hook.h"

/* How often the held worker looks at its cancellable. */
#define HOLD_POLL_US (10 * G_TIME_SPAN_MILLISECOND)

/**
 * cs_test_hook_hold_until_cancelled:
 * @cancellable: the work's cancellable (not %NULL)
 *
 * Returns once @cancellable is cancelled.  For the test knobs above only;
 * any thread (the worker's).
 */
void
cs_test_hook_hold_until_cancelled (GCancellable *cancellable)
{
  g_return_if_fail (G_IS_CANCELLABLE (cancellable));

  while (!g_cancellable_is_cancelled (cancellable))
    g_usleep (HOLD_POLL_US);
}
