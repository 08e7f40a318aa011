/* cs-timeline-renderer.c: draws CPU and task plots of a CsDocument onto any
 * cairo_t.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout, top to bottom: the time axis (CS_AXIS_HEIGHT_PX), then one CPU
 * plot per CPU shown, then one task plot per task plotted (all
 * CS_PLOT_HEIGHT_PX high, CS_PLOT_GAP_PX apart).  A label column
 * (CS_LABEL_WIDTH_PX) on the left carries the trace clock's name, "CPU n"
 * and, for a task plot, the command name over the pid next to a strip of
 * the task's colour; the visible span [begin_ns, end_ns) is spread over the
 * rest of the width, the time area.  What a plot shows is drawn by
 * CsCpuPlotPainter (cs-cpu-plot-painter.c) and CsTaskPlotPainter
 * (cs-task-plot-painter.c), the axis by CsAxisPainter (cs-axis-painter.c);
 * this file places the plots, answers hit tests and is the public face.
 */
#include "cs-timeline-renderer-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cs-axis-painter-private.h"
#include "cs-cpu-plot-painter-private.h"
#include "cs-task-plot-painter-private.h"
#include "cs-text-cache-private.h"
#include "cs-text-runs-private.h"
#include "cs-theme-private.h"

#define LABEL_PAD_PX         3

#define CPU_FONT   "Sans 9"
#define PID_FONT   "Sans 8"
#define NOTE_FONT  "Sans Italic 7"
#define TASK_STRIP_PX 3

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsTimelineRenderer, cs_timeline_renderer, G_TYPE_OBJECT)

/* Makes the Pango context follow the target's font options and transform;
 * layouts made for another target are measured again.  Pango 1.50 bumps
 * the context's serial on every pango_cairo_update_context(), changed or
 * not, so the comparison is made here: otherwise every frame would shape
 * every label again. */
static void
update_pango_context (CsTimelineRenderer *self, cairo_t *cr)
{
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *cr_options = cairo_font_options_create ();
  cairo_matrix_t matrix;

  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, cr_options);
  cairo_font_options_merge (options, cr_options);
  cairo_font_options_destroy (cr_options);
  cairo_get_matrix (cr, &matrix);

  if (self->font_options != NULL &&
      cairo_font_options_equal (options, self->font_options) &&
      memcmp (&matrix, &self->matrix, sizeof matrix) == 0)
    {
      cairo_font_options_destroy (options);
      return;
    }

  g_clear_pointer (&self->font_options, cairo_font_options_destroy);
  self->font_options = options;
  self->matrix = matrix;

  pango_cairo_update_context (cr, self->pango_context);
  _cs_axis_painter_context_changed (&self->axis_painter);
  _cs_text_cache_clear (&self->cpu_texts);
  _cs_text_cache_clear (&self->pid_texts);
  _cs_text_cache_clear (&self->note_texts);
  _cs_text_cache_clear (&self->plugin_texts);
  _cs_cpu_plot_painter_context_changed (self->painter);
  _cs_task_plot_painter_context_changed (self->task_painter);
}

static guint
n_plots (CsTimelineRenderer *self)
{
  return self->cpus->len + self->task_pids->len + self->rows->len;
}

static void
draw_cpu_label (CsTimelineRenderer *self, cairo_t *cr, guint cpu, double y)
{
  PangoLayout *layout;
  char text[32];
  int height;

  /* TRANSLATORS: the label of a CPU plot, %u is the CPU number; keep it
   * short, it must fit 56 pixels */
  g_snprintf (text, sizeof text, _("CPU %u"), cpu);
  layout = _cs_text_cache_get (&self->cpu_texts, self->pango_context, text);
  pango_layout_get_pixel_size (layout, NULL, &height);
  _cs_theme_set_source (cr, &cs_theme_get (self->scheme)->text);
  cairo_move_to (cr, 6, floor (y + (CS_PLOT_HEIGHT_PX - height) / 2.0));
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
}

/* A small note at the top right of a plot, over a light patch. */
static void
draw_plot_note (CsTimelineRenderer *self, cairo_t *cr, const CsPlotFrame *frame, double y,
                const char *text)
{
  PangoLayout *layout = _cs_text_cache_get (&self->note_texts, self->pango_context, text);
  int width, height;
  double x;

  pango_layout_get_pixel_size (layout, &width, &height);
  x = frame->time_x + frame->time_width - width - 2 * LABEL_PAD_PX;
  if (x < frame->time_x)
    return;
  cairo_set_source_rgba (cr, frame->theme->note_background.red, frame->theme->note_background.green,
                         frame->theme->note_background.blue, 0.8);
  cairo_rectangle (cr, x - LABEL_PAD_PX, y + 1, width + 2 * LABEL_PAD_PX, height + 1);
  cairo_fill (cr);
  _cs_theme_set_source (cr, &frame->theme->dim_text);
  cairo_move_to (cr, x, y + 1);
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_END);
}

static gboolean
draw_cpu_plot (CsTimelineRenderer *self, cairo_t *cr, const CsPlotFrame *frame, guint index,
               GError **error)
{
  guint cpu = g_array_index (self->cpus, guint, index);
  double y = _cs_timeline_renderer_plot_y (index);

  CsPluginView view;

  draw_cpu_label (self, cr, cpu, y);
  if (!_cs_cpu_plot_painter_draw (self->painter, cr, frame, cpu, y, error))
    return FALSE;
  _cs_timeline_renderer_init_plugin_view (self, &view, frame, y);
  view.cpu = cpu;
  _cs_plugin_layers_draw (&view, CS_PLUGIN_LAYER_CPU_PLOT, cr);
  if (!_cs_cpu_plot_painter_get_filter_exact (self->painter))
    {
      self->filter_exact = FALSE;
      /* TRANSLATORS: over a CPU plot drawn from summaries, which an event
       * filter does not apply to; keep it short */
      draw_plot_note (self, cr, frame, y, _("unfiltered at this zoom"));
    }
  return TRUE;
}

/* Command name over pid, right of a strip of the task's colour. */
static void
draw_task_label (CsTimelineRenderer *self, cairo_t *cr, gint32 pid, double y)
{
  const char *comm = cs_document_get_comm (self->document, pid);
  PangoLayout *comm_layout, *pid_layout;
  int comm_height, pid_height;
  char pid_text[32];
  CsColor strip;
  double top;

  if (cs_palette_get_task_color (pid, &strip))
    {
      _cs_theme_set_source (cr, &strip);
      cairo_rectangle (cr, 0, y, TASK_STRIP_PX, CS_PLOT_HEIGHT_PX);
      cairo_fill (cr);
    }

  comm_layout = _cs_text_cache_get (&self->cpu_texts, self->pango_context,
                                comm != NULL && *comm != '\0' ? comm : "<…>");
  g_snprintf (pid_text, sizeof pid_text, "%d", pid);
  pid_layout = _cs_text_cache_get (&self->pid_texts, self->pango_context, pid_text);
  pango_layout_get_pixel_size (comm_layout, NULL, &comm_height);
  pango_layout_get_pixel_size (pid_layout, NULL, &pid_height);

  top = floor (y + (CS_PLOT_HEIGHT_PX - comm_height - pid_height) / 2.0);
  _cs_theme_set_source (cr, &cs_theme_get (self->scheme)->text);
  cairo_move_to (cr, 6, top);
  _cs_text_show (cr, comm_layout, CS_TEXT_ANCHOR_START);
  _cs_theme_set_source (cr, &cs_theme_get (self->scheme)->dim_text);
  cairo_move_to (cr, 6, top + comm_height);
  _cs_text_show (cr, pid_layout, CS_TEXT_ANCHOR_START);
}

static gboolean
draw_task_plot (CsTimelineRenderer *self, cairo_t *cr, const CsPlotFrame *frame, guint index,
                GError **error)
{
  gint32 pid = g_array_index (self->task_pids, gint32, index - self->cpus->len);
  double y = _cs_timeline_renderer_plot_y (index);
  CsPluginView view;

  draw_task_label (self, cr, pid, y);
  if (!_cs_task_plot_painter_draw (self->task_painter, cr, frame, pid, y, error))
    return FALSE;
  _cs_timeline_renderer_init_plugin_view (self, &view, frame, y);
  view.pid = pid;
  _cs_plugin_layers_draw (&view, CS_PLUGIN_LAYER_TASK_PLOT, cr);
  return TRUE;
}

static void
cs_timeline_renderer_constructed (GObject *object)
{
  CsTimelineRenderer *self = CS_TIMELINE_RENDERER (object);

  G_OBJECT_CLASS (cs_timeline_renderer_parent_class)->constructed (object);

  g_return_if_fail (CS_IS_DOCUMENT (self->document));
  self->painter = _cs_cpu_plot_painter_new (self->document, self->pango_context);
  self->task_painter = _cs_task_plot_painter_new (self->document, self->pango_context);
  cs_timeline_renderer_set_cpus (self, NULL, 0);
}

static void
cs_timeline_renderer_dispose (GObject *object)
{
  CsTimelineRenderer *self = CS_TIMELINE_RENDERER (object);

  g_clear_pointer (&self->painter, _cs_cpu_plot_painter_free);
  g_clear_pointer (&self->task_painter, _cs_task_plot_painter_free);
  g_clear_object (&self->filter);
  _cs_axis_painter_clear (&self->axis_painter);
  _cs_text_cache_free (&self->cpu_texts);
  _cs_text_cache_free (&self->pid_texts);
  _cs_text_cache_free (&self->note_texts);
  _cs_text_cache_free (&self->plugin_texts);
  g_clear_pointer (&self->plugins, cs_plugin_document_unref);
  if (self->rows != NULL)
    g_array_set_size (self->rows, 0);
  g_clear_pointer (&self->item_text, g_free);
  g_clear_object (&self->pango_context);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (cs_timeline_renderer_parent_class)->dispose (object);
}

static void
cs_timeline_renderer_finalize (GObject *object)
{
  CsTimelineRenderer *self = CS_TIMELINE_RENDERER (object);

  g_clear_pointer (&self->cpus, g_array_unref);
  g_clear_pointer (&self->task_pids, g_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->font_options, cairo_font_options_destroy);

  G_OBJECT_CLASS (cs_timeline_renderer_parent_class)->finalize (object);
}

static void
cs_timeline_renderer_get_property (GObject *object, guint prop_id, GValue *value,
                                   GParamSpec *pspec)
{
  CsTimelineRenderer *self = CS_TIMELINE_RENDERER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_timeline_renderer_set_property (GObject *object, guint prop_id, const GValue *value,
                                   GParamSpec *pspec)
{
  CsTimelineRenderer *self = CS_TIMELINE_RENDERER (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_timeline_renderer_class_init (CsTimelineRendererClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = cs_timeline_renderer_constructed;
  object_class->dispose = cs_timeline_renderer_dispose;
  object_class->finalize = cs_timeline_renderer_finalize;
  object_class->get_property = cs_timeline_renderer_get_property;
  object_class->set_property = cs_timeline_renderer_set_property;

  /**
   * CsTimelineRenderer:document:
   *
   * The recording drawn.  Set at construction.
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, CS_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_timeline_renderer_init (CsTimelineRenderer *self)
{
  self->cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  self->task_pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  self->rows = g_array_new (FALSE, TRUE, sizeof (CsPluginRow));
  g_array_set_clear_func (self->rows, (GDestroyNotify) _cs_plugin_row_clear);
  self->filter_exact = TRUE;

  self->pango_context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  _cs_axis_painter_init (&self->axis_painter);
  _cs_text_cache_init (&self->cpu_texts, CPU_FONT, CS_LABEL_WIDTH_PX - 8);
  _cs_text_cache_init (&self->pid_texts, PID_FONT, CS_LABEL_WIDTH_PX - 8);
  _cs_text_cache_init (&self->note_texts, NOTE_FONT, -1);
  _cs_text_cache_init (&self->plugin_texts, PID_FONT, -1);
}

/**
 * cs_timeline_renderer_new:
 * @document: the recording to draw
 *
 * Creates a renderer of @document's CPU plots, showing every CPU until
 * cs_timeline_renderer_set_cpus() says otherwise.  The renderer queries
 * @document while drawing, so it belongs to the thread that uses @document.
 *
 * Returns: (transfer full): a new renderer holding a reference on @document
 */
CsTimelineRenderer *
cs_timeline_renderer_new (CsDocument *document)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);

  return g_object_new (CS_TYPE_TIMELINE_RENDERER, "document", document, NULL);
}

/**
 * cs_timeline_renderer_get_document:
 * @self: a renderer
 *
 * Returns: (transfer none): the recording drawn
 */
CsDocument *
cs_timeline_renderer_get_document (CsTimelineRenderer *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), NULL);

  return self->document;
}

/**
 * cs_timeline_renderer_set_cpus:
 * @self: a renderer
 * @cpus: (array length=n_cpus) (nullable): CPU numbers, each below
 *   cs_document_get_n_cpus(), in the order the plots are stacked top to
 *   bottom; %NULL for every CPU in numerical order
 * @n_cpus: length of @cpus (ignored when @cpus is %NULL)
 *
 * Chooses which CPU plots are drawn.  Plot indices (as taken by
 * cs_timeline_renderer_get_cpu_plot_area()) are positions in @cpus.  The
 * caller redraws afterwards; the natural height changes with the count.
 */
void
cs_timeline_renderer_set_cpus (CsTimelineRenderer *self,
                               const guint        *cpus,
                               guint               n_cpus)
{
  guint n_document_cpus;

  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));

  n_document_cpus = cs_document_get_n_cpus (self->document);
  g_array_set_size (self->cpus, 0);

  if (cpus == NULL)
    {
      for (guint cpu = 0; cpu < n_document_cpus; cpu++)
        g_array_append_val (self->cpus, cpu);
      return;
    }

  for (guint i = 0; i < n_cpus; i++)
    {
      g_return_if_fail (cpus[i] < n_document_cpus);
      g_array_append_val (self->cpus, cpus[i]);
    }
}

/**
 * cs_timeline_renderer_get_cpus:
 * @self: a renderer
 * @n_cpus: (out): how many CPU plots are drawn
 *
 * Returns: (array length=n_cpus) (transfer none): the CPU of each CPU plot,
 *   top to bottom, valid until the next cs_timeline_renderer_set_cpus()
 */
const guint *
cs_timeline_renderer_get_cpus (CsTimelineRenderer *self,
                               guint              *n_cpus)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), NULL);
  g_return_val_if_fail (n_cpus != NULL, NULL);

  *n_cpus = self->cpus->len;
  return (const guint *) self->cpus->data;
}

/**
 * cs_timeline_renderer_set_task_plots:
 * @self: a renderer
 * @pids: (array length=n_pids) (nullable): tasks (thread ids, as in
 *   sched_switch next_pid), in the order their plots are stacked below the
 *   CPU plots; a pid may be one the recording never saw (its plot is empty)
 * @n_pids: length of @pids
 *
 * Chooses which task plots are drawn.  Adding a plot costs nothing until it
 * is drawn, and drawing it reads only that task's rows of the index
 * (cs_document_get_task_intervals()).  Task plot indices (as taken by
 * cs_timeline_renderer_get_task_plot_area()) are positions in @pids.  The
 * caller redraws afterwards; the natural height changes with the count.
 */
void
cs_timeline_renderer_set_task_plots (CsTimelineRenderer *self,
                                     const gint32       *pids,
                                     guint               n_pids)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (pids != NULL || n_pids == 0);

  g_array_set_size (self->task_pids, 0);
  if (n_pids > 0)
    g_array_append_vals (self->task_pids, pids, n_pids);
}

/**
 * cs_timeline_renderer_get_task_plots:
 * @self: a renderer
 * @n_pids: (out): how many task plots are drawn
 *
 * Returns: (array length=n_pids) (transfer none): the task of each task
 *   plot, top to bottom, valid until the next
 *   cs_timeline_renderer_set_task_plots()
 */
const gint32 *
cs_timeline_renderer_get_task_plots (CsTimelineRenderer *self,
                                     guint              *n_pids)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), NULL);
  g_return_val_if_fail (n_pids != NULL, NULL);

  *n_pids = self->task_pids->len;
  return (const gint32 *) self->task_pids->data;
}

/**
 * cs_timeline_renderer_set_event_filter:
 * @self: a renderer
 * @filter: (nullable) (transfer none): which events' ticks show, or %NULL
 *   (or an empty filter) for all; the renderer keeps a copy, so later
 *   changes to @filter need another call
 * @hide: %TRUE to leave out the events @filter rejects, %FALSE to draw them
 *   faint
 *
 * Filters the event ticks of CPU plots, event by event
 * (cs_event_filter_matches_event()).  Only plots drawn from the events
 * themselves can be filtered; a plot drawn from summaries (zoomed out, or
 * more events than pixels) stays as it is and carries a note saying so, and
 * cs_timeline_renderer_get_filter_exact() tells after a frame whether that
 * happened.  Slices (who ran) are never filtered.  The caller redraws.
 */
void
cs_timeline_renderer_set_event_filter (CsTimelineRenderer *self,
                                       CsEventFilter      *filter,
                                       gboolean            hide)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (filter == NULL || CS_IS_EVENT_FILTER (filter));

  g_clear_object (&self->filter);
  if (filter != NULL && !cs_event_filter_is_empty (filter))
    self->filter = cs_event_filter_copy (filter);
  _cs_cpu_plot_painter_set_filter (self->painter, self->filter, hide);
  self->filter_exact = TRUE;
}

/**
 * cs_timeline_renderer_get_filter_exact:
 * @self: a renderer
 *
 * Returns: %FALSE when the last frame drawn had an event filter to apply and
 *   drew at least one CPU plot from summaries, which the filter does not
 *   reach (see cs_timeline_renderer_set_event_filter()); %TRUE otherwise
 */
gboolean
cs_timeline_renderer_get_filter_exact (CsTimelineRenderer *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), TRUE);

  return self->filter_exact;
}

/**
 * cs_timeline_renderer_get_natural_height:
 * @self: a renderer
 *
 * Returns: the height in pixels the axis and all CPU and task plots need,
 *   gaps included; a viewport of this height shows every plot
 */
int
cs_timeline_renderer_get_natural_height (CsTimelineRenderer *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), 0);

  return (int) _cs_timeline_renderer_plot_y (n_plots (self));
}

/**
 * cs_timeline_renderer_get_cpu_plot_area:
 * @self: a renderer
 * @index: a plot index, below the number of CPUs given to
 *   cs_timeline_renderer_set_cpus() (not a CPU number)
 * @y_px: (out) (optional): top of the plot, pixels from the top of the drawing
 * @height_px: (out) (optional): height of the plot in pixels
 *
 * Where a CPU plot lies vertically, for overlays (markers, selections) drawn
 * over the renderer's output.  Plots span the time area horizontally, see
 * cs_timeline_renderer_get_time_area().
 */
void
cs_timeline_renderer_get_cpu_plot_area (CsTimelineRenderer *self,
                                        guint               index,
                                        double             *y_px,
                                        double             *height_px)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));

  if (y_px != NULL)
    *y_px = _cs_timeline_renderer_plot_y (index);
  if (height_px != NULL)
    *height_px = CS_PLOT_HEIGHT_PX;
}

/**
 * cs_timeline_renderer_get_task_plot_area:
 * @self: a renderer
 * @index: a task plot index, below the number of tasks given to
 *   cs_timeline_renderer_set_task_plots() (not a pid)
 * @y_px: (out) (optional): top of the plot, pixels from the top of the drawing
 * @height_px: (out) (optional): height of the plot in pixels
 *
 * Where a task plot lies vertically: below the CPU plots, see
 * cs_timeline_renderer_get_cpu_plot_area().
 */
void
cs_timeline_renderer_get_task_plot_area (CsTimelineRenderer *self,
                                         guint               index,
                                         double             *y_px,
                                         double             *height_px)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));

  if (y_px != NULL)
    *y_px = _cs_timeline_renderer_plot_y (self->cpus->len + index);
  if (height_px != NULL)
    *height_px = CS_PLOT_HEIGHT_PX;
}

/**
 * cs_timeline_renderer_get_time_area:
 * @self: a renderer
 * @viewport: the viewport drawn
 * @x_px: (out) (optional): left edge of the time area, pixels; @viewport's
 *   begin_ns is drawn there
 * @width_px: (out) (optional): width of the time area, pixels (0 when the
 *   viewport is narrower than the label column); end_ns is at its right edge
 *
 * Where time is drawn horizontally.  Left of it is the label column with the
 * trace clock's name and the CPU names.
 */
void
cs_timeline_renderer_get_time_area (CsTimelineRenderer *self,
                                    const CsViewport   *viewport,
                                    double             *x_px,
                                    double             *width_px)
{
  CsPlotFrame frame;

  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (viewport != NULL);

  _cs_plot_frame_init (&frame, viewport, 1);
  if (x_px != NULL)
    *x_px = frame.time_x;
  if (width_px != NULL)
    *width_px = frame.time_width;
}

/**
 * cs_timeline_renderer_ns_to_x:
 * @self: a renderer
 * @viewport: the viewport drawn
 * @ts_ns: a time in the trace clock, ns (may lie outside the viewport)
 *
 * Returns: the horizontal position of @ts_ns in pixels from the left edge of
 *   the drawing (fractional; outside the time area for times outside the
 *   viewport)
 */
double
cs_timeline_renderer_ns_to_x (CsTimelineRenderer *self,
                              const CsViewport   *viewport,
                              gint64              ts_ns)
{
  CsPlotFrame frame;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), 0.0);
  g_return_val_if_fail (viewport != NULL, 0.0);

  _cs_plot_frame_init (&frame, viewport, 1);
  return _cs_plot_frame_ns_to_x (&frame, ts_ns);
}

/**
 * cs_timeline_renderer_x_to_ns:
 * @self: a renderer
 * @viewport: the viewport drawn
 * @x_px: pixels from the left edge of the drawing
 *
 * The inverse of cs_timeline_renderer_ns_to_x(), rounded down to whole
 * nanoseconds.  Positions in the label column give times before begin_ns.
 *
 * Returns: the time at @x_px, trace clock ns
 */
gint64
cs_timeline_renderer_x_to_ns (CsTimelineRenderer *self,
                              const CsViewport   *viewport,
                              double              x_px)
{
  CsPlotFrame frame;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), 0);
  g_return_val_if_fail (viewport != NULL, 0);

  _cs_plot_frame_init (&frame, viewport, 1);
  return frame.begin_ns + (gint64) floor ((x_px - frame.time_x) * frame.ns_per_px);
}

/**
 * cs_timeline_renderer_draw:
 * @self: a renderer
 * @cr: where to draw, in pixels (any surface: image, GTK snapshot, SVG, PDF);
 *   the drawing covers (0, 0) to (@viewport->width_px, the smaller of
 *   @viewport->height_px and the natural height)
 * @viewport: the span drawn and the size drawn on
 * @error: return location for an error of the document
 *
 * Draws the time axis and the CPU and task plots of @viewport.  Plots outside @cr's
 * clip are skipped, so a scrolled widget pays only for what it shows.  The
 * state of @cr is left as it was.  Call it from the document's thread.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%CS_INDEX_ERROR, for
 *   example %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT) when the
 *   document could not answer, in which case the drawing is incomplete
 */
gboolean
cs_timeline_renderer_draw (CsTimelineRenderer  *self,
                           cairo_t             *cr,
                           const CsViewport    *viewport,
                           GError             **error)
{
  double clip_x1, clip_y1, clip_x2, clip_y2, plots_bottom;
  gboolean ret = TRUE;
  CsTimeAxis axis;
  CsPlotFrame frame;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (viewport != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (viewport->width_px <= 0 || viewport->height_px <= 0)
    return TRUE;

  _cs_plot_frame_init (&frame, viewport, cs_document_get_summary_resolution_ns (self->document));
  cs_time_axis_init (&axis, frame.begin_ns, frame.end_ns, frame.time_width,
                     cs_document_get_first_ns (self->document));
  plots_bottom = MIN (_cs_timeline_renderer_plot_y (n_plots (self)), viewport->height_px);
  self->filter_exact = TRUE;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, viewport->width_px, viewport->height_px);
  cairo_clip (cr);
  cairo_clip_extents (cr, &clip_x1, &clip_y1, &clip_x2, &clip_y2);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  update_pango_context (self, cr);

  frame.theme = cs_theme_get (self->scheme);
  _cs_theme_set_source (cr, &frame.theme->page);
  cairo_paint (cr);

  _cs_theme_set_source (cr, &frame.theme->plot);
  for (guint i = 0; i < n_plots (self); i++)
    cairo_rectangle (cr, frame.time_x, _cs_timeline_renderer_plot_y (i), frame.time_width, CS_PLOT_HEIGHT_PX);
  cairo_fill (cr);

  _cs_axis_painter_draw (&self->axis_painter, cr, self->pango_context, &frame, &axis,
                         cs_document_get_clock (self->document), plots_bottom);

  for (guint i = 0; i < n_plots (self) && ret; i++)
    {
      double y = _cs_timeline_renderer_plot_y (i);

      if (y + CS_PLOT_HEIGHT_PX <= clip_y1 || y >= clip_y2)
        continue;
      if (i < self->cpus->len)
        ret = draw_cpu_plot (self, cr, &frame, i, error);
      else if (i < self->cpus->len + self->task_pids->len)
        ret = draw_task_plot (self, cr, &frame, i, error);
      else
        _cs_timeline_renderer_draw_plugin_row (self, cr, &frame, i);
    }

  cairo_restore (cr);
  return ret;
}

/**
 * cs_timeline_renderer_hit_test:
 * @self: a renderer
 * @viewport: the viewport drawn
 * @x_px: horizontal position, pixels from the left of the drawing
 * @y_px: vertical position, pixels from the top
 * @hit: (out caller-allocates): what lies there
 * @error: return location for an error of the document
 *
 * Tells what is drawn at a point, for hover text and clicks: the axis, a
 * plot's label, a CPU plot with the time under the point, the
 * sched_switch slice running then (cs_document_find_slice_at()) and the
 * nearest event within HIT_RADIUS_PX (4) pixels (cs_document_find_event_near()),
 * or a task plot with what the task did there (#CsHit.interval: a wakeup
 * latency box wherever it is drawn first, then the interval under the
 * point, then the nearest within HIT_RADIUS_PX).  What the layers of the
 * enabled plugins drew there is reported too (#CsHit.item).
 * Call it from the document's thread.
 *
 * Returns: %TRUE with @hit filled (possibly %CS_HIT_NONE); %FALSE with
 *   @error set (%CS_INDEX_ERROR) when the document could not answer
 */
gboolean
cs_timeline_renderer_hit_test (CsTimelineRenderer  *self,
                               const CsViewport    *viewport,
                               double               x_px,
                               double               y_px,
                               CsHit               *hit,
                               GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  const CsCpuInfo *info;
  double offset, radius_ns;
  guint index;
  CsPlotFrame frame;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), FALSE);
  g_return_val_if_fail (viewport != NULL, FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (hit, 0, sizeof *hit);
  hit->kind = CS_HIT_NONE;
  hit->item.pid = -1;
  g_clear_pointer (&self->item_text, g_free);

  if (x_px < 0 || y_px < 0 || x_px >= viewport->width_px || y_px >= viewport->height_px)
    return TRUE;

  _cs_plot_frame_init (&frame, viewport, 1);
  hit->ts_ns = CLAMP (frame.begin_ns + (gint64) floor ((x_px - frame.time_x) * frame.ns_per_px),
                      frame.begin_ns, frame.end_ns - 1);

  if (y_px < CS_AXIS_HEIGHT_PX)
    {
      hit->kind = CS_HIT_AXIS;
      return TRUE;
    }

  offset = y_px - CS_AXIS_HEIGHT_PX - CS_PLOT_GAP_PX;
  if (offset < 0)
    return TRUE;
  index = (guint) (offset / (CS_PLOT_HEIGHT_PX + CS_PLOT_GAP_PX));
  if (index >= n_plots (self) || offset - index * (CS_PLOT_HEIGHT_PX + CS_PLOT_GAP_PX) >= CS_PLOT_HEIGHT_PX)
    return TRUE;
  hit->plot_index = index;

  if (index >= self->cpus->len + self->task_pids->len)
    return _cs_timeline_renderer_hit_test_plugin_row (self, &frame, index, x_px, y_px, hit);

  if (index >= self->cpus->len)
    {
      hit->pid = g_array_index (self->task_pids, gint32, index - self->cpus->len);
      if (x_px < frame.time_x)
        {
          hit->kind = CS_HIT_TASK_LABEL;
          return TRUE;
        }
      hit->kind = CS_HIT_TASK_PLOT;
      _cs_timeline_renderer_hit_test_layers (self, &frame, index, CS_PLUGIN_LAYER_TASK_PLOT, x_px, y_px, hit);
      radius_ns = MAX (HIT_RADIUS_PX * frame.ns_per_px, 1.0);
      return _cs_task_plot_painter_find_interval (self->task_painter, hit->pid, hit->ts_ns,
                                                  (gint64) ceil (radius_ns), &hit->interval,
                                                  &hit->has_interval, error);
    }

  hit->cpu = g_array_index (self->cpus, guint, index);
  if (x_px < frame.time_x)
    {
      hit->kind = CS_HIT_CPU_LABEL;
      return TRUE;
    }
  hit->kind = CS_HIT_CPU_PLOT;
  _cs_timeline_renderer_hit_test_layers (self, &frame, index, CS_PLUGIN_LAYER_CPU_PLOT, x_px, y_px, hit);

  info = cs_document_get_cpu (self->document, hit->cpu);
  if (info == NULL || info->n_events == 0)
    return TRUE;

  if (info->has_sched_switch)
    {
      hit->has_slice = cs_document_find_slice_at (self->document, hit->cpu, hit->ts_ns,
                                                  &hit->slice, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }

  radius_ns = MAX (HIT_RADIUS_PX * frame.ns_per_px, 1.0);
  hit->has_event = cs_document_find_event_near (self->document, hit->cpu, hit->ts_ns,
                                                (gint64) ceil (radius_ns), &hit->event,
                                                &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}


/**
 * cs_timeline_renderer_set_color_scheme:
 * @self: a #CsTimelineRenderer
 * @scheme: the page to draw on
 *
 * Draws the next frames on a light or dark page (cs_theme_get()): the
 * window follows the desktop's style with it.  Task and CPU colours do not
 * change.  cs_export_draw() always draws light, whatever @scheme.
 */
void
cs_timeline_renderer_set_color_scheme (CsTimelineRenderer *self,
                                       CsColorScheme       scheme)
{
  g_return_if_fail (CS_IS_TIMELINE_RENDERER (self));
  g_return_if_fail (scheme == CS_COLOR_SCHEME_LIGHT || scheme == CS_COLOR_SCHEME_DARK);

  self->scheme = scheme;
}

/**
 * cs_timeline_renderer_get_color_scheme:
 * @self: a #CsTimelineRenderer
 *
 * Returns: the page the renderer draws on, %CS_COLOR_SCHEME_LIGHT unless
 *   set
 */
CsColorScheme
cs_timeline_renderer_get_color_scheme (CsTimelineRenderer *self)
{
  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (self), CS_COLOR_SCHEME_LIGHT);

  return self->scheme;
}
