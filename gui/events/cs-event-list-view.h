/* cs-event-list-view.h: the event list under the timeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-event-list.h"
#include "cs-event-search-bar.h"

G_BEGIN_DECLS

#define CS_TYPE_EVENT_LIST_VIEW (cs_event_list_view_get_type ())
G_DECLARE_FINAL_TYPE (CsEventListView, cs_event_list_view, CS, EVENT_LIST_VIEW, GtkWidget)

GtkWidget        *cs_event_list_view_new               (void);
CsEventList      *cs_event_list_view_get_model         (CsEventListView *self);
void              cs_event_list_view_set_model         (CsEventListView *self,
                                                        CsEventList     *model);
guint             cs_event_list_view_get_selected_row  (CsEventListView *self);
CsEventItem      *cs_event_list_view_get_selected_item (CsEventListView *self);
void              cs_event_list_view_select_row        (CsEventListView *self,
                                                        guint            row);
gboolean          cs_event_list_view_row_in_view       (CsEventListView *self,
                                                        guint            row);
gboolean          cs_event_list_view_select_event      (CsEventListView *self,
                                                        const CsEvent   *event);
gboolean          cs_event_list_view_select_stream_event (CsEventListView *self,
                                                        CsStream        *stream,
                                                        const CsEvent   *event);
gboolean          cs_event_list_view_get_graph_follows (CsEventListView *self);
void              cs_event_list_view_set_graph_follows (CsEventListView *self,
                                                        gboolean         graph_follows);
CsEventSearchBar *cs_event_list_view_get_search_bar    (CsEventListView *self);
GtkColumnView    *cs_event_list_view_get_column_view   (CsEventListView *self);

/**
 * CsEventDetailsFunc:
 * @item: a row of the list
 * @user_data: closure
 *
 * Returns: (transfer full) (nullable): one line about @item
 */
typedef char *(*CsEventDetailsFunc) (CsEventItem *item,
                                     gpointer     user_data);

void              cs_event_list_view_set_details_func  (CsEventListView    *self,
                                                        CsEventDetailsFunc  func,
                                                        gpointer            user_data);
void              cs_event_list_view_popup_menu_at_row (CsEventListView *self,
                                                        guint            row,
                                                        double           x_px,
                                                        double           y_px);

G_END_DECLS
