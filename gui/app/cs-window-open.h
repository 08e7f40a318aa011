/* cs-window-open.h: how a CsWindow opens a recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Private to gui/: cs-window-open.c implements the public
 * cs_window_open_file(), cs_window_choose_file() and cs_window_cancel().
 */
#pragma once

#include "cs-window.h"

G_BEGIN_DECLS

void _cs_window_open_init (CsWindow *self);

G_END_DECLS
