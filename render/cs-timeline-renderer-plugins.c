/* cs-timeline-renderer-plugins.c: plugin layers and rows in the renderer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The part of CsTimelineRenderer that deals with plugins: the rows of
 * their own below the task plots (label column and layer), the
 * CsPluginView each layer draws and looks through, and what layers found
 * under a point for hit tests (CsHit.item).  The layers themselves run in
 * cs-plugin-view.c.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "cs-text-runs-private.h"
#include "cs-theme-private.h"
#include "cs-timeline-renderer-private.h"

double
_cs_timeline_renderer_plot_y (guint index)
{
  return CS_AXIS_HEIGHT_PX + CS_PLOT_GAP_PX + (double) index * (CS_PLOT_HEIGHT_PX + CS_PLOT_GAP_PX);
}

/* What plugin layers need to draw on plot @y of @frame. */
void
_cs_timeline_renderer_init_plugin_view (CsTimelineRenderer *self,
                  CsPluginView       *view,
                  const CsPlotFrame  *frame,
                  double              y)
{
  memset (view, 0, sizeof *view);
  view->document = self->plugins;
  view->frame = frame;
  view->y_px = y;
  view->height_px = CS_PLOT_HEIGHT_PX;
  view->cpu = -1;
  view->pid = -1;
  view->pango_context = self->pango_context;
  view->label_texts = &self->plugin_texts;
  view->note_texts = &self->note_texts;
}

/* A plugin row: its label (one or two lines) and its layer. */
void
_cs_timeline_renderer_draw_plugin_row (CsTimelineRenderer *self, cairo_t *cr, const CsPlotFrame *frame, guint index)
{
  const CsPluginRow *row = &g_array_index (self->rows, CsPluginRow, index - self->cpus->len - self->task_pids->len);
  g_auto(GStrv) lines = g_strsplit (row->label, "\n", 2);
  double y = _cs_timeline_renderer_plot_y (index);
  double top;
  int heights[2] = { 0, 0 };
  PangoLayout *layouts[2] = { NULL, NULL };
  CsPluginView view;

  for (guint i = 0; i < 2 && lines[i] != NULL; i++)
    {
      layouts[i] = _cs_text_cache_get (i == 0 ? &self->cpu_texts : &self->pid_texts,
                                       self->pango_context, lines[i]);
      pango_layout_get_pixel_size (layouts[i], NULL, &heights[i]);
    }
  top = floor (y + (CS_PLOT_HEIGHT_PX - heights[0] - heights[1]) / 2.0);
  for (guint i = 0; i < 2 && layouts[i] != NULL; i++)
    {
      _cs_theme_set_source (cr, i == 0 ? &frame->theme->text : &frame->theme->dim_text);
      cairo_move_to (cr, 6, top);
      _cs_text_show (cr, layouts[i], CS_TEXT_ANCHOR_START);
      top += heights[i];
    }
  _cs_timeline_renderer_init_plugin_view (self, &view, frame, y);
  if (self->plugins != NULL && _cs_plugin_document_is_enabled (self->plugins, row->plugin))
    _cs_plugin_row_draw (row, &view, cr);
}

/* Keeps what a layer found in @hit; its text lives until the next hit
 * test. */
static void
take_item (CsTimelineRenderer *self,
           CsHit              *hit,
           CsPlugin           *plugin,
           CsPluginItem       *item)
{
  hit->has_item = TRUE;
  hit->item = *item;
  hit->item_plugin = plugin;
  self->item_text = item->text;
}

/* Asks the plugin layers over plot @index what lies at (@x_px, @y_px). */
void
_cs_timeline_renderer_hit_test_layers (CsTimelineRenderer  *self,
                 const CsPlotFrame   *frame,
                 guint                index,
                 CsPluginLayerTarget  target,
                 double               x_px,
                 double               y_px,
                 CsHit               *hit)
{
  CsPluginView view;
  CsPluginItem item;
  CsPlugin *plugin = NULL;

  if (self->plugins == NULL)
    return;
  _cs_timeline_renderer_init_plugin_view (self, &view, frame, _cs_timeline_renderer_plot_y (index));
  if (target == CS_PLUGIN_LAYER_CPU_PLOT)
    view.cpu = hit->cpu;
  else
    view.pid = hit->pid;
  if (_cs_plugin_layers_lookup (&view, target, x_px, y_px, &plugin, &item))
    take_item (self, hit, plugin, &item);
}

gboolean
_cs_timeline_renderer_hit_test_plugin_row (CsTimelineRenderer *self,
                     const CsPlotFrame  *frame,
                     guint               index,
                     double              x_px,
                     double              y_px,
                     CsHit              *hit)
{
  const CsPluginRow *row;
  CsPluginView view;
  CsPluginItem item;

  hit->row = index - self->cpus->len - self->task_pids->len;
  row = &g_array_index (self->rows, CsPluginRow, hit->row);
  if (x_px < frame->time_x)
    {
      hit->kind = CS_HIT_PLUGIN_LABEL;
      return TRUE;
    }
  hit->kind = CS_HIT_PLUGIN_ROW;
  if (self->plugins == NULL || !_cs_plugin_document_is_enabled (self->plugins, row->plugin))
    return TRUE;
  _cs_timeline_renderer_init_plugin_view (self, &view, frame, _cs_timeline_renderer_plot_y (index));
  if (_cs_plugin_row_lookup (row, &view, x_px, y_px, &item))
    take_item (self, hit, row->plugin, &item);
  return TRUE;
}


/**
 * cs_timeline_renderer_set_plugins:
 * @self: a renderer
 * @plugins: (nullable): the plugin side of the renderer's document, whose
 *   enabled plugins' layers draw over the plots; %NULL for none
 *
 * Chooses whose layers draw.  Plugins enabled or disabled on @plugins
 * later take effect at the next frame; plugin rows of a disabled plugin
 * stay in place, empty, until cs_timeline_renderer_set_plugin_rows() drops
 * them.  The caller redraws.
 */
void
cs_timeline_renderer_set_plugins (CsTimelineRenderer *self,
                                  CsPluginDocument   *plugins)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));

  if (plugins == self->plugins)
    return;
  g_array_set_size (self->rows, 0);
  g_clear_pointer (&self->plugins, cs_plugin_document_unref);
  if (plugins != NULL)
    self->plugins = cs_plugin_document_ref (plugins);
}

/**
 * cs_timeline_renderer_set_plugin_rows:
 * @self: a renderer with plugins (cs_timeline_renderer_set_plugins())
 * @rows: (array length=n_rows) (nullable): the rows, top to bottom, below
 *   the task plots
 * @n_rows: length of @rows
 *
 * Chooses the plugin rows.  A row whose plugin is not enabled, whose layer
 * is not a %CS_PLUGIN_LAYER_ROW layer of that plugin, or whose key the
 * layer's row_label refuses is dropped.  The caller redraws.
 *
 * Returns: how many rows were kept
 */
guint
cs_timeline_renderer_set_plugin_rows (CsTimelineRenderer    *self,
                                      const CsPluginRowSpec *rows,
                                      guint                  n_rows)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), 0);
  g_return_val_if_fail (rows != NULL || n_rows == 0, 0);

  g_array_set_size (self->rows, 0);
  for (guint i = 0; i < n_rows && self->plugins != NULL; i++)
    {
      const CsPluginLayerInfo *layer;
      CsPluginRow row = { 0 };
      gpointer instance;

      if (rows[i].plugin == NULL || rows[i].key == NULL ||
          !_cs_plugin_document_is_enabled (self->plugins, rows[i].plugin))
        continue;
      layer = _cs_plugin_find_layer (rows[i].plugin, rows[i].layer);
      if (layer == NULL || layer->target != CS_PLUGIN_LAYER_ROW)
        continue;
      instance = cs_plugin_document_get_instance (self->plugins, rows[i].plugin);
      row.label = layer->row_label (instance, rows[i].key);
      if (row.label == NULL)
        continue;
      row.plugin = rows[i].plugin;
      row.layer = layer;
      row.key = g_strdup (rows[i].key);
      g_array_append_val (self->rows, row);
    }
  return self->rows->len;
}

/**
 * cs_timeline_renderer_get_n_plugin_rows:
 * @self: a renderer
 *
 * Returns: how many plugin rows are drawn, below the task plots
 */
guint
cs_timeline_renderer_get_n_plugin_rows (CsTimelineRenderer *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), 0);
  return self->rows->len;
}

/**
 * cs_timeline_renderer_get_plugin_row:
 * @self: a renderer
 * @index: 0 .. cs_timeline_renderer_get_n_plugin_rows() - 1
 * @row: (out caller-allocates): the row; its strings are borrowed until
 *   the next cs_timeline_renderer_set_plugin_rows()
 * @label: (out) (optional) (transfer none): its label
 */
void
cs_timeline_renderer_get_plugin_row (CsTimelineRenderer *self,
                                     guint               index,
                                     CsPluginRowSpec    *row,
                                     const char        **label)
{
  const CsPluginRow *r;

  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (index < self->rows->len && row != NULL);

  r = &g_array_index (self->rows, CsPluginRow, index);
  row->plugin = r->plugin;
  row->layer = r->layer->name;
  row->key = r->key;
  if (label != NULL)
    *label = r->label;
}

/**
 * cs_timeline_renderer_get_plugin_row_area:
 * @self: a renderer
 * @index: a plugin row index
 * @y_px: (out) (optional): top of the row, pixels from the top
 * @height_px: (out) (optional): its height in pixels
 *
 * Where a plugin row lies: below the task plots.
 */
void
cs_timeline_renderer_get_plugin_row_area (CsTimelineRenderer *self,
                                          guint               index,
                                          double             *y_px,
                                          double             *height_px)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));

  if (y_px != NULL)
    *y_px = _cs_timeline_renderer_plot_y (self->cpus->len + self->task_pids->len + index);
  if (height_px != NULL)
    *height_px = CS_PLOT_HEIGHT_PX;
}
