/* cli-run.h: what a test gets back from running the chronoscope
 * executable, and where its recordings are (test-cli.c,
 * test-cli-progress.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

typedef struct {
  int status;      /* exit status, or -1 when killed by a signal */
  char *out;
  char *err;
} Run;

static inline void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* $@env/@name: a recording in CS_TESTDATA or CS_SHARED_TESTDATA. */
static inline char *
recording_path (const char *env,
                const char *name)
{
  const char *dir = g_getenv (env);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}
