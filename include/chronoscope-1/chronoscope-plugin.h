/* chronoscope-plugin.h: Chronoscope's plugin API (chronoscope-plugin-1.pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The one header a plugin includes.  Build a plugin out of tree with
 *
 *   cc -shared -fPIC -o my-plugin.so my-plugin.c \
 *      $(pkg-config --cflags --libs chronoscope-plugin-1)
 *
 * and install it in $XDG_DATA_HOME/chronoscope/plugins/ (or point
 * CHRONOSCOPE_PLUGIN_PATH at its folder, or pass `-p my-plugin.so`).
 * A plugin calls only the functions declared here: the chronoscope
 * executable provides them when it loads the plugin, and nothing else of
 * Chronoscope is visible to it.  See cs-plugin.h for the whole picture
 * and plugins/README.md in Chronoscope's sources for a walk-through.
 */
#pragma once

#include "cs-plugin-version.h"
#include "cs-plugin.h"
#include "cs-plugin-document.h"
#include "cs-plugin-pass.h"
#include "cs-plugin-view.h"
#include "cs-plugin-window.h"
#include "cs-plugin-cli.h"
