/* cs-stream-shift-dialog.h: shift one recording of a window by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-stream.h"

G_BEGIN_DECLS

#define CS_TYPE_STREAM_SHIFT_DIALOG (cs_stream_shift_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsStreamShiftDialog, cs_stream_shift_dialog, CS, STREAM_SHIFT_DIALOG, GtkWindow)

CsStreamShiftDialog *cs_stream_shift_dialog_new   (GtkWindow           *parent,
                                                   CsStream            *stream);
void                 cs_stream_shift_dialog_apply (CsStreamShiftDialog *self,
                                                   gint64               offset_ns);

G_END_DECLS
