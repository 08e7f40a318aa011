/* cs-cli-stats.c: `chronoscope stats FILE [--begin NS --end NS] [--json]`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "cs-cli-private.h"

int
cs_cli_stats (int    argc,
              char **argv)
{
  fprintf (stderr, "chronoscope stats: not yet\n");
  return 1;
}
