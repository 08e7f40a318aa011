/* cs-plugin-view-private.h: how the renderer lets plugin layers draw.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsPluginView (cs-plugin-view.h) is filled by the renderer for each
 * plot or row it asks plugin layers to draw or look at; it maps the
 * renderer's frame (cs-cpu-plot-painter-private.h) to the plugin API.
 */
#pragma once

#include <pango/pango.h>

#include "cs-plugin-view.h"
#include "cs-cpu-plot-painter-private.h"
#include "cs-plugin-document-private.h"
#include "cs-text-cache-private.h"

G_BEGIN_DECLS

struct _CsPluginView
{
  CsPluginDocument *document;
  const CsPlotFrame *frame;
  double y_px;
  double height_px;
  int cpu;                      /* -1 unless a CPU plot */
  gint32 pid;                   /* -1 unless a task plot */
  const char *row_key;          /* NULL unless a plugin row */
  PangoContext *pango_context;
  CsTextCache *label_texts;     /* the renderer's, for cs_plugin_view_draw_text() */
  CsTextCache *note_texts;
};

/* A row of a plugin's own below the task plots. */
typedef struct {
  CsPlugin *plugin;
  const CsPluginLayerInfo *layer;
  char *key;
  char *label;                  /* from the layer's row_label */
} CsPluginRow;

void                     _cs_plugin_row_clear     (CsPluginRow         *row);
const CsPluginLayerInfo *_cs_plugin_find_layer    (CsPlugin            *plugin,
                                                   const char          *name);
gboolean                 _cs_plugin_layers_draw   (CsPluginView        *view,
                                                   CsPluginLayerTarget  target,
                                                   cairo_t             *cr);
gboolean                 _cs_plugin_layers_lookup (CsPluginView        *view,
                                                   CsPluginLayerTarget  target,
                                                   double               x_px,
                                                   double               y_px,
                                                   CsPlugin           **plugin,
                                                   CsPluginItem        *item);
gboolean                 _cs_plugin_row_draw      (const CsPluginRow   *row,
                                                   CsPluginView        *view,
                                                   cairo_t             *cr);
gboolean                 _cs_plugin_row_lookup    (const CsPluginRow   *row,
                                                   CsPluginView        *view,
                                                   double               x_px,
                                                   double               y_px,
                                                   CsPluginItem        *item);

G_END_DECLS
