/* cs-latency-plugin.c: the latency pairs plugin's entry.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Latency pairs (issue 12): every A → B pair of a definition measured
 * over the whole recording in the indexing worker (cs-latency-pass.c),
 * with statistics, a histogram and a worst-first list read from the
 * pass's database (cs-latency-stats.c), on the command line as
 * `chronoscope latency` (cs-latency-cli.c).  The definitions and the
 * pairing rule are in cs-latency-def.h and README.md.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-cli.h"
#include "cs-latency-pass.h"

static gboolean
latency_init (CsPlugin  *plugin,
              GError   **error)
{
  cs_latency_pass_register (plugin);
  cs_latency_cli_register (plugin);
  return TRUE;
}

CS_PLUGIN_DEFINE ("latency", N_("Latency pairs"),
                  N_("Every A → B pair of events (wakeups, IRQs, system calls...) measured, "
                     "with percentiles, a histogram and the worst first"),
                  "1.0", latency_init)
