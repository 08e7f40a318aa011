/* cs-event-list-view-private.h: what cs-event-list-view.c shares with the
 * files that implement parts of CsEventListView.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-event-list-view.h"

G_BEGIN_DECLS

/**
 * CsEventListDetails:
 * @func: (nullable): what plugins say of a row; %NULL leaves the
 *   "Plugins" column's cells empty
 * @user_data: @func's closure
 * @document: (nullable): the list's own recording (borrowed from its
 *   model): plugins describe its events only, not other streams' events
 *
 * The "Plugins" column's source, embedded in the #CsEventListView and read
 * each time a cell of that column is bound
 * (cs_event_list_view_set_details_func()).
 */
typedef struct {
  CsEventDetailsFunc func;
  gpointer user_data;
  CsDocument *document;
} CsEventListDetails;

/* cs-event-list-columns.c: the column factories */
GtkColumnViewColumn *_cs_event_list_columns_add      (GtkColumnView            *column_view,
                                                      const CsEventListDetails *details);
GtkColumnViewColumn *_cs_event_list_columns_find     (GtkColumnView            *column_view,
                                                      CsEventColumn             column);
guint                _cs_event_list_columns_pick_row (GtkColumnView            *column_view,
                                                      double                    x,
                                                      double                    y);

G_END_DECLS
