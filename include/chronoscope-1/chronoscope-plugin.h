/* chronoscope-plugin.h: Chronoscope's whole plugin API
 * (chronoscope-plugin-ui-1.pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The API comes in two parts, by the process they run in:
 * chronoscope-plugin-core.h (passes, SQL tables, commands, the document:
 * no GTK, chronoscope-plugin-1.pc) and chronoscope-plugin-ui.h (layers,
 * pages and window hooks: cairo and GTK 4, chronoscope-plugin-ui-1.pc).
 * This header includes both.  Build a plugin out of tree with
 *
 *   cc -shared -fPIC -o my-plugin.so my-plugin.c \
 *      $(pkg-config --cflags --libs chronoscope-plugin-ui-1)
 *
 * (or chronoscope-plugin-1 and chronoscope-plugin-core.h for a plugin that
 * only adds passes, tables and commands) and install it in
 * $XDG_DATA_HOME/chronoscope/plugins/ (or point CHRONOSCOPE_PLUGIN_PATH
 * at its folder, or pass `-p my-plugin.so`).  A plugin calls only the
 * functions declared here: the chronoscope executable provides them when
 * it loads the plugin, and nothing else of Chronoscope is visible to it.
 * See cs-plugin.h for the whole picture and plugins/README.md in
 * Chronoscope's sources for a walk-through.
 */
#pragma once

#include "chronoscope-plugin-core.h"
#include "chronoscope-plugin-ui.h"
