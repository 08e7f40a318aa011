/* cli-run.h: what a test gets back from running the chronoscope
 * executable, and where its recordings are (test-cli.c,
 * test-cli-progress.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cs-test-data.h"

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
