/* tracefs-dir.c: prints the tracefs folder `chronoscope record` would use,
 * mounting tracefs as libtracefs does when it is not mounted yet.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For the scripts (tracefs-dir.sh builds and runs it): one line on stdout,
 * exit 0; or the reason on stderr, exit 77 (a test's "skipped").
 */
#include <stdio.h>

#include "tracefs-test-util.h"

int
main (void)
{
  g_autofree char *why = NULL;
  const char *dir = cs_test_tracing_dir (&why);

  if (dir == NULL)
    {
      fprintf (stderr, "no tracefs: %s\n", why);
      return 77;
    }
  printf ("%s\n", dir);
  return 0;
}
