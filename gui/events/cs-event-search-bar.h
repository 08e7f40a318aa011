/* cs-event-search-bar.h: search in the event list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-event-list.h"

G_BEGIN_DECLS

#define CS_TYPE_EVENT_SEARCH_BAR (cs_event_search_bar_get_type ())
G_DECLARE_FINAL_TYPE (CsEventSearchBar, cs_event_search_bar, CS, EVENT_SEARCH_BAR, GtkWidget)

GtkWidget  *cs_event_search_bar_new             (void);
void        cs_event_search_bar_set_selection   (CsEventSearchBar   *self,
                                                 GtkSingleSelection *selection);
gboolean    cs_event_search_bar_get_search_mode (CsEventSearchBar   *self);
void        cs_event_search_bar_set_search_mode (CsEventSearchBar   *self,
                                                 gboolean            search_mode);
void        cs_event_search_bar_set_query       (CsEventSearchBar   *self,
                                                 CsEventColumn       column,
                                                 CsSearchMode        mode,
                                                 const char         *text);
void        cs_event_search_bar_find            (CsEventSearchBar   *self,
                                                 gboolean            forward);
void        cs_event_search_bar_stop            (CsEventSearchBar   *self);
gboolean    cs_event_search_bar_get_busy        (CsEventSearchBar   *self);
GtkWidget  *cs_event_search_bar_get_stop_button (CsEventSearchBar   *self);
const char *cs_event_search_bar_get_match_text  (CsEventSearchBar   *self);

G_END_DECLS
