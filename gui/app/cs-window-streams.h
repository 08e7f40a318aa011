/* cs-window-streams.h: the other recordings a CsWindow shows on its axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-stream-set.h"
#include "cs-window.h"

G_BEGIN_DECLS

CsStreamSet *cs_window_get_streams       (CsWindow   *self);
void         cs_window_add_file          (CsWindow   *self,
                                          GFile      *file);
guint        cs_window_get_n_adding      (CsWindow   *self);

void         _cs_window_streams_init     (CsWindow   *self);
void         _cs_window_streams_reset    (CsWindow   *self);
void         _cs_window_streams_show     (CsWindow   *self,
                                          CsStream   *stream);

G_END_DECLS
