/* chronoscope-plugin-ui.h: the part of Chronoscope's plugin API that draws
 * and shows (chronoscope-plugin-ui-1.pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layers on the timeline's plots and rows of a plugin's own, drawn with
 * cairo (cs-plugin-view.h), and pages and hooks of the window, with GTK 4
 * (cs-plugin-window.h); with the core API of chronoscope-plugin-core.h.
 * They run on the window's main thread, and layers in `render` and
 * File → Export too.  Build a plugin that uses them with
 *
 *   cc -shared -fPIC -o my-plugin.so my-plugin.c \
 *      $(pkg-config --cflags --libs chronoscope-plugin-ui-1)
 */
#pragma once

#include "chronoscope-plugin-core.h"
#include "cs-plugin-view.h"
#include "cs-plugin-window.h"
