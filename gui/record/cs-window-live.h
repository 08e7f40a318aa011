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
  gboolean keep_list;            /* it keeps the plots, selection, scroll */
  gboolean restore_has_event;    /* restore_event is set */
  gboolean restore_selected;     /* the next picture selects restore_event */
  CsEvent restore_event;         /* the event selected in the last one */
  double restore_scroll;         /* the event list's scroll position there */
  gboolean restore_scroll_kept;  /* it is set again (the selected row was in sight) */
  GdkFrameClock *restore_clock;  /* the list's clock, while restore waits */
  gulong restore_id;             /* its after-paint handler */
  guint restore_frames;          /* frames to set restore_scroll again */
  guint retry_id;                /* a restore waiting for the list to count */
  char *restore_filter;          /* the event filter to apply again, or NULL */
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
void          _cs_window_live_dispose    (CsWindow    *window);

G_END_DECLS
