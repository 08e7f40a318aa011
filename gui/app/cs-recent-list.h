/* cs-recent-list.h: the recordings opened lately, on the empty window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * CS_RECENT_APP_NAME:
 *
 * The application name Chronoscope registers its recordings under in
 * GtkRecentManager (recently-used.xbel); the list shows only those.
 */
#define CS_RECENT_APP_NAME "Chronoscope"

/**
 * CS_RECENT_MAX_ITEMS:
 *
 * How many recordings the list shows at most, the latest first.
 */
#define CS_RECENT_MAX_ITEMS 8

#define CS_TYPE_RECENT_LIST (cs_recent_list_get_type ())
G_DECLARE_FINAL_TYPE (CsRecentList, cs_recent_list, CS, RECENT_LIST, GtkWidget)

GtkWidget *cs_recent_list_new        (void);
guint      cs_recent_list_get_n_items (CsRecentList *self);
char      *cs_recent_list_dup_uri    (CsRecentList *self,
                                      guint         index);
void       cs_recent_list_add_file   (GFile        *file);

G_END_DECLS
