/* cs-plugin-view.c: the render side of the plugin API.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Plugin layers (cs_plugin_add_layer()) draw through a CsPluginView that
 * the renderer fills for each plot or row: the frame's mapping between
 * time and x, the rectangle, the palette and Pango text from the
 * renderer's caches.  Layers of all enabled plugins draw in the order they
 * were registered.  A layer whose draw fails is skipped for that frame and
 * its error logged: one plugin must not blank the timeline.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "cs-plugin-view-private.h"
#include "cs-text-runs-private.h"
#include "cs-theme-private.h"
#include "cs-time-axis.h"

void
cs_plugin_add_layer (CsPlugin                *plugin,
                     const CsPluginLayerInfo *info)
{
  g_autoptr(GError) error = NULL;
  CsPluginLayerInfo *copy;

  g_return_if_fail (plugin != NULL && info != NULL);

  copy = _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_LAYER, info, sizeof (CsPluginLayerInfo),
                              "cs_plugin_add_layer");
  if (copy == NULL)
    return;
  if (!_cs_plugin_check_name ("layer name", copy->name, "_", &error) || copy->draw == NULL ||
      copy->target > CS_PLUGIN_LAYER_ROW ||
      (copy->target == CS_PLUGIN_LAYER_ROW && copy->row_label == NULL) ||
      _cs_plugin_find_layer (plugin, copy->name) != copy)
    {
      g_warning ("Plugin %s: layer %s is invalid (%s); ignored", plugin->path,
                 copy->name != NULL ? copy->name : "(unnamed)",
                 error != NULL ? error->message
                               : "draw or row_label is missing, the target is unknown, or the name is taken");
      g_ptr_array_remove (plugin->hooks[CS_PLUGIN_HOOK_LAYER], copy);
    }
}

/**
 * _cs_plugin_find_layer:
 * @plugin: a plugin
 * @name: a layer name
 *
 * Returns: (transfer none) (nullable): the layer @plugin registered as @name
 */
const CsPluginLayerInfo *
_cs_plugin_find_layer (CsPlugin   *plugin,
                       const char *name)
{
  for (guint i = 0; i < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_LAYER); i++)
    {
      const CsPluginLayerInfo *layer = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_LAYER, i);

      if (g_strcmp0 (layer->name, name) == 0)
        return layer;
    }
  return NULL;
}

void
_cs_plugin_row_clear (CsPluginRow *row)
{
  g_clear_pointer (&row->key, g_free);
  g_clear_pointer (&row->label, g_free);
}

static gboolean
draw_layer (CsPluginView            *view,
            CsPlugin                *plugin,
            const CsPluginLayerInfo *layer,
            cairo_t                 *cr)
{
  g_autoptr(GError) error = NULL;
  gpointer instance = cs_plugin_document_get_instance (view->document, plugin);
  gboolean ok;

  cairo_save (cr);
  cairo_rectangle (cr, view->frame->time_x, view->y_px, view->frame->time_width, view->height_px);
  cairo_clip (cr);
  cairo_new_path (cr);
  ok = layer->draw (instance, cr, view, &error);
  cairo_restore (cr);
  if (!ok)
    g_message ("The layer “%s” of the plugin “%s” could not draw: %s", layer->name, plugin->id,
               error != NULL ? error->message : "no reason given");
  return ok;
}

/**
 * _cs_plugin_layers_draw:
 * @view: the plot being drawn
 * @target: %CS_PLUGIN_LAYER_CPU_PLOT or %CS_PLUGIN_LAYER_TASK_PLOT
 * @cr: where
 *
 * Draws the layers of the enabled plugins over a plot.
 *
 * Returns: %FALSE when a layer failed (it was skipped and logged)
 */
gboolean
_cs_plugin_layers_draw (CsPluginView        *view,
                        CsPluginLayerTarget  target,
                        cairo_t             *cr)
{
  g_autoptr(GPtrArray) plugins = NULL;
  gboolean ok = TRUE;

  if (view->document == NULL)
    return TRUE;
  plugins = _cs_plugin_document_get_plugins (view->document);
  for (guint p = 0; p < plugins->len; p++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, p);

      for (guint i = 0; i < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_LAYER); i++)
        {
          const CsPluginLayerInfo *layer = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_LAYER, i);

          if (layer->target == target && !draw_layer (view, plugin, layer, cr))
            ok = FALSE;
        }
    }
  return ok;
}

/**
 * _cs_plugin_layers_lookup:
 * @view: the plot under the pointer
 * @target: %CS_PLUGIN_LAYER_CPU_PLOT or %CS_PLUGIN_LAYER_TASK_PLOT
 * @x_px: the pointer, in the drawing's coordinates
 * @y_px: the pointer
 * @plugin: (out): the plugin whose layer answered
 * @item: (out caller-allocates): what it found; @item->text is the
 *   caller's to free
 *
 * Asks the layers of the enabled plugins, last drawn first, what lies
 * under the pointer.
 *
 * Returns: whether a layer found something
 */
gboolean
_cs_plugin_layers_lookup (CsPluginView         *view,
                          CsPluginLayerTarget   target,
                          double                x_px,
                          double                y_px,
                          CsPlugin            **plugin,
                          CsPluginItem         *item)
{
  g_autoptr(GPtrArray) plugins = NULL;

  if (view->document == NULL)
    return FALSE;
  plugins = _cs_plugin_document_get_plugins (view->document);
  for (guint p = plugins->len; p-- > 0;)
    {
      CsPlugin *candidate = g_ptr_array_index (plugins, p);

      for (guint i = _cs_plugin_get_n_hooks (candidate, CS_PLUGIN_HOOK_LAYER); i-- > 0;)
        {
          const CsPluginLayerInfo *layer = _cs_plugin_get_hook (candidate, CS_PLUGIN_HOOK_LAYER, i);

          memset (item, 0, sizeof *item);
          item->pid = -1;
          if (layer->target == target && layer->lookup != NULL &&
              layer->lookup (cs_plugin_document_get_instance (view->document, candidate),
                             view, x_px, y_px, item))
            {
              *plugin = candidate;
              if (item->text == NULL)
                item->text = g_strdup (layer->name);
              return TRUE;
            }
          g_clear_pointer (&item->text, g_free);
        }
    }
  return FALSE;
}

/**
 * _cs_plugin_row_draw:
 * @row: a plugin row
 * @view: its area
 * @cr: where
 *
 * Returns: %FALSE when the layer failed (logged)
 */
gboolean
_cs_plugin_row_draw (const CsPluginRow *row,
                     CsPluginView      *view,
                     cairo_t           *cr)
{
  view->row_key = row->key;
  return draw_layer (view, row->plugin, row->layer, cr);
}

/**
 * _cs_plugin_row_lookup:
 * @row: a plugin row
 * @view: its area
 * @x_px: the pointer
 * @y_px: the pointer
 * @item: (out caller-allocates): what the layer found
 *
 * Returns: whether the row's layer found something
 */
gboolean
_cs_plugin_row_lookup (const CsPluginRow *row,
                       CsPluginView      *view,
                       double             x_px,
                       double             y_px,
                       CsPluginItem      *item)
{
  memset (item, 0, sizeof *item);
  item->pid = -1;
  view->row_key = row->key;
  if (row->layer->lookup == NULL ||
      !row->layer->lookup (cs_plugin_document_get_instance (view->document, row->plugin),
                           view, x_px, y_px, item))
    {
      g_clear_pointer (&item->text, g_free);
      return FALSE;
    }
  if (item->text == NULL)
    item->text = g_strdup (row->label);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The public API                                                            */

CsPluginDocument *
cs_plugin_view_get_document (const CsPluginView *view)
{
  g_return_val_if_fail (view != NULL, NULL);
  return view->document;
}

void
cs_plugin_view_get_span (const CsPluginView *view,
                         gint64             *begin_ns,
                         gint64             *end_ns)
{
  g_return_if_fail (view != NULL);
  if (begin_ns != NULL)
    *begin_ns = view->frame->begin_ns;
  if (end_ns != NULL)
    *end_ns = view->frame->end_ns;
}

void
cs_plugin_view_get_area (const CsPluginView *view,
                         double             *x_px,
                         double             *y_px,
                         double             *width_px,
                         double             *height_px)
{
  g_return_if_fail (view != NULL);
  if (x_px != NULL)
    *x_px = view->frame->time_x;
  if (y_px != NULL)
    *y_px = view->y_px;
  if (width_px != NULL)
    *width_px = view->frame->time_width;
  if (height_px != NULL)
    *height_px = view->height_px;
}

double
cs_plugin_view_ns_to_x (const CsPluginView *view,
                        gint64              ts_ns)
{
  g_return_val_if_fail (view != NULL, 0.0);
  return _cs_plot_frame_ns_to_x (view->frame, ts_ns);
}

gint64
cs_plugin_view_x_to_ns (const CsPluginView *view,
                        double              x_px)
{
  g_return_val_if_fail (view != NULL, 0);
  return view->frame->begin_ns + (gint64) floor ((x_px - view->frame->time_x) * view->frame->ns_per_px);
}

double
cs_plugin_view_get_ns_per_px (const CsPluginView *view)
{
  g_return_val_if_fail (view != NULL, 1.0);
  return view->frame->ns_per_px;
}

int
cs_plugin_view_get_cpu (const CsPluginView *view)
{
  g_return_val_if_fail (view != NULL, -1);
  return view->cpu;
}

gint32
cs_plugin_view_get_pid (const CsPluginView *view)
{
  g_return_val_if_fail (view != NULL, -1);
  return view->pid;
}

const char *
cs_plugin_view_get_row_key (const CsPluginView *view)
{
  g_return_val_if_fail (view != NULL, NULL);
  return view->row_key;
}

static void
set_color (CsPluginColor *color,
           double         red,
           double         green,
           double         blue)
{
  color->red = red;
  color->green = green;
  color->blue = blue;
  color->alpha = 1.0;
}

void
cs_plugin_view_set_source (const CsPluginView *view,
                           cairo_t            *cr,
                           CsPluginColorRole   role,
                           double              alpha)
{
  CsPluginColor c;

  g_return_if_fail (view != NULL && cr != NULL);
  cs_plugin_view_get_color (view, role, &c);
  cairo_set_source_rgba (cr, c.red, c.green, c.blue, alpha);
}

void
cs_plugin_view_get_color (const CsPluginView *view,
                          CsPluginColorRole   role,
                          CsPluginColor      *color)
{
  /* Okabe & Ito, "Color Universal Design" (2008). */
  static const guint8 accents[][3] = {
    [CS_PLUGIN_COLOR_ORANGE - CS_PLUGIN_COLOR_ORANGE] = { 230, 159, 0 },
    [CS_PLUGIN_COLOR_SKY_BLUE - CS_PLUGIN_COLOR_ORANGE] = { 86, 180, 233 },
    [CS_PLUGIN_COLOR_GREEN - CS_PLUGIN_COLOR_ORANGE] = { 0, 158, 115 },
    [CS_PLUGIN_COLOR_YELLOW - CS_PLUGIN_COLOR_ORANGE] = { 240, 228, 66 },
    [CS_PLUGIN_COLOR_BLUE - CS_PLUGIN_COLOR_ORANGE] = { 0, 114, 178 },
    [CS_PLUGIN_COLOR_VERMILLION - CS_PLUGIN_COLOR_ORANGE] = { 213, 94, 0 },
    [CS_PLUGIN_COLOR_PURPLE - CS_PLUGIN_COLOR_ORANGE] = { 204, 121, 167 },
  };
  const CsColor *c = NULL;

  g_return_if_fail (view != NULL && color != NULL);

  switch (role)
    {
    case CS_PLUGIN_COLOR_TEXT:
      c = &view->frame->theme->text;
      break;
    case CS_PLUGIN_COLOR_BACKGROUND:
      c = &view->frame->theme->plot;
      break;
    case CS_PLUGIN_COLOR_GRID:
      c = &view->frame->theme->grid;
      break;
    default:
      if (role >= CS_PLUGIN_COLOR_ORANGE && role <= CS_PLUGIN_COLOR_PURPLE)
        {
          const guint8 *rgb = accents[role - CS_PLUGIN_COLOR_ORANGE];

          set_color (color, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
          return;
        }
      c = &view->frame->theme->text;
      break;
    }
  set_color (color, c->red, c->green, c->blue);
}

void
cs_plugin_view_get_task_color (const CsPluginView *view,
                               gint32              pid,
                               CsPluginColor      *color)
{
  CsColor c;

  g_return_if_fail (view != NULL && color != NULL);

  if (!cs_palette_get_task_color (pid, &c))
    c = view->frame->theme->plot;
  set_color (color, c.red, c.green, c.blue);
}

gboolean
cs_plugin_get_task_color (gint32         pid,
                          CsPluginColor *color)
{
  CsColor c;

  g_return_val_if_fail (color != NULL, FALSE);

  if (!cs_palette_get_task_color (pid, &c))
    return FALSE;
  set_color (color, c.red, c.green, c.blue);
  return TRUE;
}

double
cs_plugin_view_draw_text (const CsPluginView *view,
                          cairo_t            *cr,
                          double              x_px,
                          double              y_px,
                          double              max_width_px,
                          CsPluginTextFlags   flags,
                          const char         *text)
{
  CsTextCache *cache;
  PangoLayout *layout;
  CsTextAnchor anchor = CS_TEXT_ANCHOR_START;
  int width, height;

  g_return_val_if_fail (view != NULL && cr != NULL, 0.0);

  if (text == NULL || *text == '\0' || !g_utf8_validate (text, -1, NULL))
    return 0.0;
  cache = (flags & CS_PLUGIN_TEXT_SMALL) ? view->note_texts : view->label_texts;
  layout = _cs_text_cache_get (cache, view->pango_context, text);
  pango_layout_get_pixel_size (layout, &width, &height);
  if (width > max_width_px)
    return 0.0;
  if (flags & CS_PLUGIN_TEXT_CENTER)
    {
      x_px -= width / 2.0;
      anchor = CS_TEXT_ANCHOR_MIDDLE;
    }
  else if (flags & CS_PLUGIN_TEXT_RIGHT)
    {
      x_px -= width;
      anchor = CS_TEXT_ANCHOR_END;
    }
  cairo_move_to (cr, x_px, y_px - height / 2.0);
  _cs_text_show (cr, layout, anchor);
  return width;
}

char *
cs_plugin_format_duration (gint64 duration_ns)
{
  return cs_time_format_duration (duration_ns);
}
