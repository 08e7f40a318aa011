/* cs-window.h: the main window: one recording, its CPU plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cs-event-list-view.h"
#include "cs-session.h"
#include "cs-timeline.h"
#include "cs-view-model.h"

G_BEGIN_DECLS

/**
 * CsWindowState:
 * @CS_WINDOW_STATE_EMPTY: no recording: the "Open a recording" page
 * @CS_WINDOW_STATE_LOADING: a recording is being indexed
 * @CS_WINDOW_STATE_READY: a recording is shown
 */
typedef enum {
  CS_WINDOW_STATE_EMPTY,
  CS_WINDOW_STATE_LOADING,
  CS_WINDOW_STATE_READY,
} CsWindowState;

#define CS_TYPE_WINDOW_STATE (cs_window_state_get_type ())
GType cs_window_state_get_type (void) G_GNUC_CONST;

#define CS_TYPE_WINDOW (cs_window_get_type ())
G_DECLARE_FINAL_TYPE (CsWindow, cs_window, CS, WINDOW, AdwApplicationWindow)

typedef struct _CsAnalysis CsAnalysis;

CsWindow      *cs_window_new               (GtkApplication *application);
void           cs_window_open_file         (CsWindow       *self,
                                            GFile          *file);
void           cs_window_choose_file       (CsWindow       *self);
void           cs_window_cancel            (CsWindow       *self);
CsWindowState  cs_window_get_state         (CsWindow       *self);
const char    *cs_window_get_error_message (CsWindow       *self);
CsTimeline    *cs_window_get_timeline      (CsWindow       *self);
CsAnalysis    *cs_window_get_analysis      (CsWindow       *self);
GFile         *cs_window_get_file          (CsWindow       *self);
void           cs_window_show_live_document (CsWindow      *self,
                                            CsDocument     *document);
gboolean       cs_window_is_live           (CsWindow       *self);
CsEventListView *cs_window_get_event_list_view (CsWindow     *self);
gboolean       cs_window_select_event      (CsWindow       *self,
                                            const CsEvent  *event);
struct _CsPluginWindow *cs_window_get_plugins (CsWindow    *self);
struct _CsQueryPage *cs_window_get_query_page (CsWindow    *self);
void           cs_window_show_toast        (CsWindow       *self,
                                            const char     *title);
CsViewModel   *cs_window_get_model         (CsWindow       *self);
void           cs_window_restore_session   (CsWindow       *self,
                                            CsSession      *session);
gboolean       cs_window_open_session      (CsWindow       *self,
                                            const char     *path,
                                            GError        **error);
gboolean       cs_window_save_last_session (CsWindow       *self,
                                            GError        **error);

G_END_DECLS
