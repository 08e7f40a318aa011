/* cs-window-plugins-private.h: CsPluginWindow's instance, shared by its
 * two files: cs-window-plugins.c (how a window hosts its plugins) and
 * cs-plugin-window-api.c (what plugins call, cs-plugin-window.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-index-job.h"
#include "cs-plugin-host.h"
#include "cs-plugin-pass-bar.h"
#include "cs-window-plugins.h"

G_BEGIN_DECLS

typedef struct {
  CsPlugin *plugin;
  char *layer;
  char *key;
} Row;

typedef struct {
  CsPlugin *plugin;
  const CsPluginPageInfo *info;
  GtkWidget *widget;
} Page;

typedef struct {
  CsPluginDocument *document;   /* the recording it reads (a reference) */
  CsPlugin *plugin;
  char *pass;
  char *param;
} PassRequest;

struct _CsPluginWindow
{
  GObject parent_instance;

  /* borrowed, from the window that owns us; window is NULL once disposed */
  GtkWindow *window;
  CsTimeline *timeline;         /* its layers and rows go there */
  CsEventListView *list_view;   /* plugins' details column */
  CsViewModel *model;           /* the view: task plots */
  GtkNotebook *notebook;        /* the event list's, where pages go */

  /* owned */
  CsPluginPassBar *pass_bar;    /* in the info bar: label, progress, Cancel */
  CsPluginHost *host;
  gulong enabled_changed_id;
  CsPluginDocument *document;
  GPtrArray *others;            /* CsPluginDocument: the window's added recordings, in order */
  GArray *rows;                 /* Row, top to bottom */
  GPtrArray *pages;             /* Page */
  GQueue passes;                /* PassRequest; the head runs */
  CsIndexJob *job;
  GCancellable *cancellable;
  guint follow_id;              /* pending range change after a zoom */
};

CsTimelineRenderer *_cs_plugin_window_get_renderer (CsPluginWindow *self);
void                _cs_plugin_window_rows_changed (CsPluginWindow *self);
int                 _cs_plugin_window_find_row     (CsPluginWindow *self,
                                                    CsPlugin       *plugin,
                                                    const char     *layer,
                                                    const char     *key);

G_END_DECLS
