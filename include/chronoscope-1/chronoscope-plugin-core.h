/* chronoscope-plugin-core.h: the part of Chronoscope's plugin API that runs
 * without a window (chronoscope-plugin-1.pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Passes at index time (cs-plugin-pass.h), SQL tables over their results,
 * commands and `info --json` sections of the command line (cs-plugin-cli.h),
 * the recording's document (cs-plugin-document.h), result tables that
 * store a pass's rows in bounded memory (cs-plugin-result.h) and the wakeup
 * latency rule Chronoscope itself measures by (cs-plugin-wakeup.h): what runs in the
 * headless worker and the command line, which never initialise GTK.  It
 * needs GLib, GIO, SQLite, json-glib and libtraceevent's declarations, and
 * no GTK or cairo: a plugin that only adds passes, tables or commands
 * builds with
 *
 *   cc -shared -fPIC -o my-pass.so my-pass.c \
 *      $(pkg-config --cflags --libs chronoscope-plugin-1)
 *
 * on a machine without GTK's headers.  Layers, pages and window hooks are
 * in chronoscope-plugin-ui.h (chronoscope-plugin-ui-1.pc);
 * chronoscope-plugin.h includes both.
 */
#pragma once

#include "cs-plugin-version.h"
#include "cs-plugin.h"
#include "cs-plugin-document.h"
#include "cs-plugin-pass.h"
#include "cs-plugin-cli.h"
#include "cs-plugin-result.h"
#include "cs-plugin-wakeup.h"
