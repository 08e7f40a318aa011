/* main.c: the chronoscope executable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `chronoscope info|render|record|index-worker …` run headless (render/cli/,
 * a library that links no GTK) and never initialise GTK, so they work
 * without a display; anything else starts the GUI, with an optional
 * recording to open.  The window records through a program of its own,
 * chronoscope-record-helper (render/cli/cs-record-helper-main.c).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-application.h"
#include "cs-cli.h"
#include "cs-cli-locale.h"
#include "cs-cli-plugins.h"
#include "cs-cli-progress.h"
#include "cs-cli-record.h"
#include "cs-plugin-host.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(CsApplication) application = NULL;

  cs_cli_bind_locale ();

  /* -q/--quiet: no progress line on stderr, for every command (record's
   * own stop at its "--", before the command it runs). */
  argc = cs_cli_progress_take_args (argc, argv);
  if (argc >= 2 && g_strcmp0 (argv[1], "record") == 0)
    return cs_cli_record (argc - 1, argv + 1);
  /* -p/--plugin FILE.so, for the window and every command but record's
   * (whose -p is a tracer). */
  argc = cs_plugin_host_take_args (argc, argv);
  if (argc >= 2 && cs_cli_is_command (argv[1]))
    return cs_cli_run (argc, argv);
  if (argc >= 2 && cs_cli_plugins_is_command (argv[1]))
    return cs_cli_plugins_run (argc, argv);
  if (argc >= 2 && cs_cli_plugins_is_unknown_command (argv[1]))
    return cs_cli_plugins_fail_unknown_command (argv[1]);

  g_set_application_name (_("Chronoscope"));
  application = cs_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
