/* cs-record-helper-main.c: chronoscope-record-helper, the window's recorder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The program the window runs to record: through pkexec as root (the
 * polkit action org.chronoscope.Chronoscope.record names its installed
 * path, $libexecdir/chronoscope-record-helper), or directly when the
 * window already runs as root.  It speaks the JSON-lines protocol of
 * cs-cli-record.c on stdout.  It is a program of its own so that what runs
 * as root links capture (index/capture/) and GLib, never GTK or libadwaita;
 * the window finds it with cs_record_job_build_argv().
 */
#include "config.h"

#include "cs-cli-locale.h"
#include "cs-cli-record.h"

int
main (int   argc,
      char *argv[])
{
  cs_cli_bind_locale ();
  return cs_cli_record_helper (argc, argv);
}
