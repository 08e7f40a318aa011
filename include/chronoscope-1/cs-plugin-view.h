/* cs-plugin-view.h: drawing on the timeline, and what lies under the pointer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's UI (chronoscope-plugin-ui-1.pc).  Include
 * <chronoscope-plugin-ui.h> or <chronoscope-plugin.h>, not this file.
 *
 * A layer draws with cairo over every CPU plot, over every task plot, or
 * into rows of the plugin's own below them.  The same code draws the
 * window, `chronoscope render` and exported images (PNG, SVG, PDF), so a
 * layer draws only with cairo and cs_plugin_view_draw_text(), in the
 * view's coordinates, and never assumes a pixel grid or a GTK widget.  A
 * frame must stay fast at any zoom (Chronoscope's target is 16 ms for a
 * 1920 x 1080 frame of a recording of 80 million events): read what the
 * visible span needs, about one summary value per pixel column when zoomed
 * out, never every event of the recording.
 *
 * All callbacks run on the main thread.
 */
#pragma once

#include <cairo.h>

#include "cs-plugin-document.h"

G_BEGIN_DECLS

/**
 * CsPluginView:
 *
 * One plot or row being drawn or looked at: the visible span, the
 * rectangle it maps to, and the palette.  Borrowed, valid during the
 * callback that receives it.
 */
typedef struct _CsPluginView CsPluginView;

/**
 * CsPluginLayerTarget:
 * @CS_PLUGIN_LAYER_CPU_PLOT: drawn over each CPU plot, after what
 *   Chronoscope draws there (cs_plugin_view_get_cpu() says which CPU)
 * @CS_PLUGIN_LAYER_TASK_PLOT: drawn over each task plot, after its states
 *   (cs_plugin_view_get_pid() says which task)
 * @CS_PLUGIN_LAYER_ROW: rows of the plugin's own, below the task plots,
 *   each named by a key the plugin chooses (cs_plugin_view_get_row_key());
 *   the user adds them through the plugin's page, a session or
 *   `chronoscope render --row PLUGIN:KEY`
 *
 * Where a layer draws.
 */
typedef enum {
  CS_PLUGIN_LAYER_CPU_PLOT,
  CS_PLUGIN_LAYER_TASK_PLOT,
  CS_PLUGIN_LAYER_ROW,
} CsPluginLayerTarget;

/**
 * CsPluginItem:
 * @text: (transfer full): one line for the info bar, as users read it
 *   ("irqs-off section on CPU 1: 20.2 ms"); freed by Chronoscope
 * @begin_ns: start of what the item covers; a double-click on it puts
 *   marker A here
 * @end_ns: its end; a double-click puts marker B here.  Equal to
 *   @begin_ns for a moment (a double-click then only moves marker A)
 * @pid: the task the item is about, -1 for none
 *
 * Something a layer drew, found under the pointer.
 */
typedef struct {
  char *text;
  gint64 begin_ns;
  gint64 end_ns;
  gint32 pid;
} CsPluginItem;

/**
 * CsPluginLayerInfo:
 * @struct_size: sizeof (CsPluginLayerInfo)
 * @name: the layer's name, `[a-z0-9_]+`, unique within the plugin
 * @target: where it draws
 * @row_label: (nullable): for %CS_PLUGIN_LAYER_ROW, the text of the label
 *   column for the row @key (a short line, or two separated by "\n"), or
 *   %NULL when @key is not a row this plugin can draw for this recording
 *   (a session from another recording): the row is then dropped
 * @draw: draws the layer into @view's area (cs_plugin_view_get_area()),
 *   already clipped to it; return %FALSE with @error set when the data
 *   cannot be read (the frame goes on without the layer and the error is
 *   logged)
 * @lookup: (nullable): what the layer drew at (@x_px, @y_px), in the
 *   view's coordinates, for the info bar and double-clicks: fill @item
 *   and return %TRUE, or return %FALSE when there is nothing there (look
 *   within a few pixels, as thin marks are hard to hit)
 *
 * A layer of the timeline.
 */
typedef struct {
  guint32 struct_size;
  const char *name;
  CsPluginLayerTarget target;
  char    *(*row_label) (gpointer            instance,
                         const char         *key);
  gboolean (*draw)      (gpointer            instance,
                         cairo_t            *cr,
                         const CsPluginView *view,
                         GError            **error);
  gboolean (*lookup)    (gpointer            instance,
                         const CsPluginView *view,
                         double              x_px,
                         double              y_px,
                         CsPluginItem       *item);
} CsPluginLayerInfo;

/**
 * cs_plugin_add_layer:
 * @plugin: the plugin being initialised
 * @info: the layer; copied (the first @info->struct_size bytes)
 *
 * Registers a layer.  Call it from #CsPluginEntry.init.  Layers draw in
 * the order plugins and their layers were registered.
 */
void cs_plugin_add_layer (CsPlugin                *plugin,
                          const CsPluginLayerInfo *info);

/**
 * cs_plugin_view_get_document:
 * @view: a view
 *
 * Returns: (transfer none): the recording drawn
 */
CsPluginDocument *cs_plugin_view_get_document (const CsPluginView *view);

/**
 * cs_plugin_view_get_span:
 * @view: a view
 * @begin_ns: (out) (optional): first visible time
 * @end_ns: (out) (optional): end of the visible span (exclusive), always
 *   greater than @begin_ns
 *
 * The visible span of the recording, [begin_ns, end_ns).
 */
void     cs_plugin_view_get_span      (const CsPluginView *view,
                                       gint64             *begin_ns,
                                       gint64             *end_ns);

/**
 * cs_plugin_view_get_area:
 * @view: a view
 * @x_px: (out) (optional): left edge of the time area, where begin_ns is
 * @y_px: (out) (optional): top of the plot or row
 * @width_px: (out) (optional): width of the time area (end_ns is at
 *   @x_px + @width_px)
 * @height_px: (out) (optional): height of the plot or row
 *
 * The rectangle the layer draws in, in the cairo_t's user space (pixels
 * of the window, of the PNG, or points of an SVG or PDF page).
 */
void     cs_plugin_view_get_area      (const CsPluginView *view,
                                       double             *x_px,
                                       double             *y_px,
                                       double             *width_px,
                                       double             *height_px);

/**
 * cs_plugin_view_ns_to_x:
 * @view: a view
 * @ts_ns: a time, inside the span or not
 *
 * Returns: the horizontal position of @ts_ns, in the view's coordinates
 *   (left of the area for times before the span, right of it after)
 */
double   cs_plugin_view_ns_to_x       (const CsPluginView *view,
                                       gint64              ts_ns);

/**
 * cs_plugin_view_x_to_ns:
 * @view: a view
 * @x_px: a horizontal position in the view's coordinates
 *
 * Returns: the time at @x_px (the inverse of cs_plugin_view_ns_to_x(),
 *   rounded down)
 */
gint64   cs_plugin_view_x_to_ns       (const CsPluginView *view,
                                       double              x_px);

/**
 * cs_plugin_view_get_ns_per_px:
 * @view: a view
 *
 * Returns: how many nanoseconds one unit of width covers (> 0): below 1,
 *   single events are far apart; above the summaries' resolution, draw
 *   summaries
 */
double   cs_plugin_view_get_ns_per_px (const CsPluginView *view);

/**
 * cs_plugin_view_get_cpu:
 * @view: a view
 *
 * Returns: the CPU of the plot, for a %CS_PLUGIN_LAYER_CPU_PLOT layer;
 *   -1 otherwise
 */
int      cs_plugin_view_get_cpu       (const CsPluginView *view);

/**
 * cs_plugin_view_get_pid:
 * @view: a view
 *
 * Returns: the task of the plot, for a %CS_PLUGIN_LAYER_TASK_PLOT layer;
 *   -1 otherwise
 */
gint32   cs_plugin_view_get_pid       (const CsPluginView *view);

/**
 * cs_plugin_view_get_row_key:
 * @view: a view
 *
 * Returns: (transfer none) (nullable): the row's key, for a
 *   %CS_PLUGIN_LAYER_ROW layer; %NULL otherwise
 */
const char *cs_plugin_view_get_row_key (const CsPluginView *view);

/**
 * CsPluginColor:
 * @red: 0.0 .. 1.0
 * @green: 0.0 .. 1.0
 * @blue: 0.0 .. 1.0
 * @alpha: 0.0 .. 1.0
 *
 * A colour, as cairo_set_source_rgba() takes it.
 */
typedef struct {
  double red;
  double green;
  double blue;
  double alpha;
} CsPluginColor;

/**
 * CsPluginColorRole:
 * @CS_PLUGIN_COLOR_TEXT: text and thin marks over the plot background
 * @CS_PLUGIN_COLOR_BACKGROUND: the plots' background
 * @CS_PLUGIN_COLOR_GRID: faint lines: baselines, grids
 * @CS_PLUGIN_COLOR_ORANGE: accents from the Okabe-Ito palette, which
 *   stays distinguishable with the common colour-vision deficiencies;
 *   adjusted for the light or dark scheme in use
 * @CS_PLUGIN_COLOR_SKY_BLUE: see %CS_PLUGIN_COLOR_ORANGE
 * @CS_PLUGIN_COLOR_GREEN: bluish green; see %CS_PLUGIN_COLOR_ORANGE
 * @CS_PLUGIN_COLOR_YELLOW: see %CS_PLUGIN_COLOR_ORANGE
 * @CS_PLUGIN_COLOR_BLUE: see %CS_PLUGIN_COLOR_ORANGE
 * @CS_PLUGIN_COLOR_VERMILLION: see %CS_PLUGIN_COLOR_ORANGE
 * @CS_PLUGIN_COLOR_PURPLE: reddish purple; see %CS_PLUGIN_COLOR_ORANGE
 *
 * Colours of the palette, by role.
 */
typedef enum {
  CS_PLUGIN_COLOR_TEXT,
  CS_PLUGIN_COLOR_BACKGROUND,
  CS_PLUGIN_COLOR_GRID,
  CS_PLUGIN_COLOR_ORANGE,
  CS_PLUGIN_COLOR_SKY_BLUE,
  CS_PLUGIN_COLOR_GREEN,
  CS_PLUGIN_COLOR_YELLOW,
  CS_PLUGIN_COLOR_BLUE,
  CS_PLUGIN_COLOR_VERMILLION,
  CS_PLUGIN_COLOR_PURPLE,
} CsPluginColorRole;

/**
 * cs_plugin_view_get_color:
 * @view: a view
 * @role: which colour
 * @color: (out caller-allocates): the colour, opaque
 *
 * A colour of the palette the timeline is drawn with.
 */
void     cs_plugin_view_get_color      (const CsPluginView *view,
                                        CsPluginColorRole   role,
                                        CsPluginColor      *color);

/**
 * cs_plugin_view_set_source:
 * @view: a view
 * @cr: the cairo context the layer draws with
 * @role: which colour of the palette (cs_plugin_view_get_color())
 * @alpha: its opacity, 0.0 .. 1.0 (replaces the colour's own)
 *
 * Makes @role's colour, with @alpha, the current source of @cr
 * (cairo_set_source_rgba()).
 */
void     cs_plugin_view_set_source     (const CsPluginView *view,
                                        cairo_t            *cr,
                                        CsPluginColorRole   role,
                                        double              alpha);

/**
 * cs_plugin_view_get_task_color:
 * @view: a view
 * @pid: a task; 0 (idle) has no colour of its own and gives the
 *   background's
 * @color: (out caller-allocates): the colour, opaque
 *
 * The colour the CPU and task plots give @pid: stable for a pid across
 * frames and recordings.
 */
void     cs_plugin_view_get_task_color (const CsPluginView *view,
                                        gint32              pid,
                                        CsPluginColor      *color);

/**
 * cs_plugin_get_task_color:
 * @pid: a task
 * @color: (out caller-allocates): the colour, opaque
 *
 * The colour the CPU and task plots give @pid (as
 * cs_plugin_view_get_task_color()), for a page that draws outside the
 * timeline, for example a legend or a bar whose parts are tasks.  Any
 * thread.
 *
 * Returns: %TRUE and sets @color for a real task, %FALSE (leaving @color
 *   untouched) for the idle task (pid 0) and pids below 0, which have no
 *   colour of their own
 */
gboolean cs_plugin_get_task_color      (gint32              pid,
                                        CsPluginColor      *color);

/**
 * CsPluginTextFlags:
 * @CS_PLUGIN_TEXT_LEFT: @x is the text's left edge
 * @CS_PLUGIN_TEXT_CENTER: @x is the text's centre
 * @CS_PLUGIN_TEXT_RIGHT: @x is the text's right edge
 * @CS_PLUGIN_TEXT_SMALL: the small size of the timeline's notes, rather
 *   than the size of its labels
 *
 * How cs_plugin_view_draw_text() places text.
 */
typedef enum {
  CS_PLUGIN_TEXT_LEFT   = 0,
  CS_PLUGIN_TEXT_CENTER = 1 << 0,
  CS_PLUGIN_TEXT_RIGHT  = 1 << 1,
  CS_PLUGIN_TEXT_SMALL  = 1 << 2,
} CsPluginTextFlags;

/**
 * cs_plugin_view_draw_text:
 * @view: a view
 * @cr: the cairo context the layer draws with; its current source is
 *   the text's colour
 * @x_px: where the text goes horizontally (see @flags)
 * @y_px: the vertical centre of the text's line
 * @max_width_px: the room there is; the text is not drawn if it needs
 *   more (pass a large number for no limit)
 * @flags: alignment and size
 * @text: UTF-8 text, one line
 *
 * Draws text in the timeline's font (Pango), as text in SVG and PDF.
 * Layouts are cached per view, so repeating the same labels frame after
 * frame is cheap.
 *
 * Returns: the width drawn in px, or 0 when @text did not fit
 */
double   cs_plugin_view_draw_text      (const CsPluginView *view,
                                        cairo_t            *cr,
                                        double              x_px,
                                        double              y_px,
                                        double              max_width_px,
                                        CsPluginTextFlags   flags,
                                        const char         *text);

/**
 * cs_plugin_format_duration:
 * @duration_ns: a duration (negative ones get a minus sign)
 *
 * Formats a duration as the timeline and the info bar write them: "812
 * ns", "3.242 µs", "20.200 ms", "1.500 s" (three decimals, rounded).
 * Any thread.
 *
 * Returns: (transfer full): the text
 */
char    *cs_plugin_format_duration     (gint64              duration_ns);

G_END_DECLS
