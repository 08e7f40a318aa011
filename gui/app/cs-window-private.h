/* cs-window-private.h: the parts of CsWindow its other files share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Private to the files of CsWindow, one object split across files:
 * gui/app/cs-window.c and its -actions.c, -open.c and -session.c (the view
 * model's bindings and sessions), gui/record/cs-window-demo.c and
 * cs-window-live.c.  The instance structure, and the state and error
 * banner helpers of cs-window.c.
 */
#pragma once

#include "cs-analysis.h"
#include "cs-event-list-view.h"
#include "cs-filter-bar.h"
#include "cs-index-job.h"
#include "cs-query-page.h"
#include "cs-view-model.h"
#include "cs-window-live.h"
#include "cs-window-plugins.h"
#include "cs-window.h"

G_BEGIN_DECLS

struct _CsWindow
{
  AdwApplicationWindow parent_instance;

  /* template widgets */
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkWidget *zoom_box;
  GtkRevealer *error_revealer;
  GtkLabel *error_title_label;
  GtkLabel *error_label;
  GtkStack *stack;
  GtkLabel *loading_label;
  GtkProgressBar *progress_bar;
  GtkWidget *opening_box;
  GtkLabel *opening_label;
  GtkProgressBar *opening_bar;
  CsTimeline *timeline;
  GtkPaned *paned;
  CsEventListView *event_list_view;
  GtkLabel *hover_label;
  GtkLabel *marker_label;
  GtkLabel *span_label;
  GtkWidget *analysis_box;
  GtkMenuButton *cpu_button;
  CsFilterBar *filter_bar;
  GtkBox *info_bar;
  AdwToastOverlay *toast_overlay;

  /* owned */
  GSettings *settings;
  CsAnalysis *analysis;
  CsIndexJob *job;
  GCancellable *cancellable;
  CsDocument *document;
  GFile *file;
  GtkFileChooserNative *chooser;
  CsPluginWindow *plugins;       /* layers, rows, pages, passes of plugins */
  GtkNotebook *list_notebook;    /* the event list, Query, plugin pages */
  CsQueryPage *query_page;       /* SQL over the recording */
  char *error_message;
  CsWindowState state;
  gboolean selecting_clicked_event;
  CsWindowLive live;             /* a recording shown while it is made */
  CsViewModel *model;            /* what it shows: cs-window-session.c */
  gboolean model_syncing;        /* a widget or the model is being set */
};

void _cs_window_set_state  (CsWindow      *self,
                            CsWindowState  state);
void _cs_window_show_error (CsWindow      *self,
                            GFile         *file,
                            const GError  *error);
void _cs_window_hide_error (CsWindow      *self);
void _cs_window_bind_model (CsWindow      *self);

G_END_DECLS
