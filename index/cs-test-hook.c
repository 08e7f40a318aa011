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
 * in the environment it was started with.  CS_INDEX_TEST_LARGE_PAGES
 * makes the index builder write a small recording's index in the 64 KiB
 * pages of a large one's, whose chunks it packs (cs-chunk-packer.c).
 *
 * A test that runs in the window's own process turns a knob on and off
 * with cs_test_hook_set(), not setenv(): by then the process has threads
 * (GTK's, GLib's pools, our workers), and setenv() while another thread
 * reads the environment is undefined (glibc may move the array getenv()
 * walks); task-plots died with SIGSEGV that way, once.
 */
#include "config.h"

#include "cs-test-hook.h"

/* How often the held worker looks at its cancellable. */
#define HOLD_POLL_US (10 * G_TIME_SPAN_MILLISECOND)

/* Knobs set in this process: name -> GINT_TO_POINTER (on + 1). */
static GMutex knobs_lock;
static GHashTable *knobs;

/**
 * cs_test_hook_set:
 * @name: a knob above, such as "CS_FILTER_TEST_HANG"
 * @on: whether it is on
 *
 * Turns @name on or off in this process, whatever the environment says.
 * For GUI tests; any thread.
 */
void
cs_test_hook_set (const char *name,
                  gboolean    on)
{
  g_return_if_fail (name != NULL);

  g_mutex_lock (&knobs_lock);
  if (knobs == NULL)
    knobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (knobs, g_strdup (name), GINT_TO_POINTER (on ? 2 : 1));
  g_mutex_unlock (&knobs_lock);
}

/**
 * cs_test_hook_is_set:
 * @name: a knob above
 *
 * Returns: whether @name is on: as cs_test_hook_set() set it, or else
 *   whether it is in the environment
 */
gboolean
cs_test_hook_is_set (const char *name)
{
  gpointer value = NULL;

  g_return_val_if_fail (name != NULL, FALSE);

  g_mutex_lock (&knobs_lock);
  if (knobs != NULL)
    value = g_hash_table_lookup (knobs, name);
  g_mutex_unlock (&knobs_lock);
  if (value != NULL)
    return GPOINTER_TO_INT (value) == 2;
  return g_getenv (name) != NULL;
}

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
