/* cs-window-plugins.h: the plugins of one window (CsPluginWindow, whose
 * public half is include/chronoscope-1/cs-plugin-window.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-plugin-window.h"      /* the public half, include/chronoscope-1/ */
#include "cs-plugin-document-private.h"
#include "cs-stream-set.h"
#include "cs-event-list-view.h"
#include "cs-timeline.h"
#include "cs-view-model.h"

G_BEGIN_DECLS

#define CS_TYPE_PLUGIN_WINDOW (cs_plugin_window_get_type ())
G_DECLARE_FINAL_TYPE (CsPluginWindow, cs_plugin_window, CS, PLUGIN_WINDOW, GObject)

CsPluginWindow   *cs_plugin_window_new            (GtkWindow        *window,
                                                   CsTimeline       *timeline,
                                                   CsEventListView  *list_view,
                                                   CsViewModel      *model,
                                                   GtkNotebook      *notebook,
                                                   GtkBox           *info_bar);
void              cs_plugin_window_set_document   (CsPluginWindow   *self,
                                                   CsDocument       *document);
CsPluginDocument *cs_plugin_window_get_plugins    (CsPluginWindow   *self);
void              cs_plugin_window_set_streams    (CsPluginWindow   *self,
                                                   CsStreamSet      *streams);
void              cs_plugin_window_range_changed  (CsPluginWindow   *self);
char            **cs_plugin_window_dup_rows       (CsPluginWindow   *self);
void              cs_plugin_window_set_rows       (CsPluginWindow   *self,
                                                   const char * const *rows);
gboolean          cs_plugin_window_show_page      (CsPluginWindow   *self,
                                                   const char       *plugin_id,
                                                   const char       *page_name,
                                                   const char       *arg);
gboolean          cs_plugin_window_get_pass_running (CsPluginWindow *self);
void              cs_plugin_window_cancel_passes  (CsPluginWindow   *self);

G_END_DECLS
