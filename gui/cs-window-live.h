/* cs-window-live.h: a window showing a recording while it is made.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Private to gui/: cs-window.c embeds a CsWindowLive and calls these
 * around opening a file; cs-window-live.c implements the public
 * cs_window_show_live_document() and cs_window_is_live().
 */
#pragma once

#include "cs-window.h"

G_BEGIN_DECLS

/* What the window knows of the live picture it shows. */
typedef struct {
  gboolean live;                 /* the document is a live recording's snapshot */
  gint64 fit_begin_ns;           /* the span the window fitted it to */
  gint64 fit_end_ns;
  gboolean keep_span;            /* the file being opened shows this span: */
  gint64 keep_begin_ns;          /* the user zoomed into its live picture */
  gint64 keep_end_ns;
} CsWindowLive;

/* cs-window.c */
CsWindowLive *_cs_window_get_live        (CsWindow    *window);
void          _cs_window_set_document    (CsWindow    *window,
                                          CsDocument  *document,
                                          GFile       *file);

/* cs-window-live.c */
char         *_cs_window_live_dup_title  (CsWindow    *window);
void          _cs_window_live_before_open (CsWindow   *window,
                                          GFile       *file);
void          _cs_window_live_opened     (CsWindow    *window,
                                          gboolean     ok);

G_END_DECLS
