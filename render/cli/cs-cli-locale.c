/* cs-cli-locale.c: the locale and message catalogues of Chronoscope's
 * programs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * chronoscope (gui/main.c) and chronoscope-record-helper
 * (cs-record-helper-main.c) bind the same catalogues the same way, first
 * thing in main().
 */
#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>

#include "cs-cli-locale.h"

/**
 * cs_cli_bind_locale:
 *
 * Sets the locale from the environment (LC_ALL, LANG…) and binds the
 * GETTEXT_PACKAGE catalogues, in UTF-8: those of LOCALEDIR, or of
 * `CHRONOSCOPE_LOCALEDIR` when it is set and not empty (the build tree's
 * `build/po`, so that tests read the translations before they are
 * installed).  Call it once, from main(), before any other thread starts.
 */
void
cs_cli_bind_locale (void)
{
  const char *localedir = g_getenv ("CHRONOSCOPE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
