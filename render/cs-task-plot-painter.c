/* cs-task-plot-painter.c: draws the data of one task plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task plot shows what one task did over time, from the intervals the
 * index derives from sched_switch and sched_waking / sched_wakeup
 * (cs_document_get_task_intervals()), each state centred on the plot's
 * middle row:
 *
 *   running          a tall box in the colour of the CPU it ran on, so a
 *                    migration shows as a change of colour; "CPU n" (or
 *                    "n") inside where it fits
 *   runnable         a hatched light amber box: ready, waiting for a CPU
 *                    (preempted while runnable, or woken up)
 *   wakeup latency   the runnable time after a wakeup, outlined from the
 *                    sched_waking (or sched_wakeup) to the sched_switch
 *                    that ran the task, labelled with the latency where
 *                    the label fits
 *   sleeping (S)     a thin grey line
 *   uninterruptible  a red bar, thicker than a sleep
 *   (D)
 *   other            a thin dark line (stopped, dead, unknown prev_state)
 *
 * Intervals at least a pixel wide are drawn as vector boxes, merged into
 * one path per colour.  Narrower ones are summed per pixel column into an
 * image drawn with one paint (as CsCpuPlotPainter does): the column shows
 * the state the task spent most of it in behind a running bar whose
 * height is the share of the column the task ran, in the colour of the CPU
 * it ran on most.  So zoomed out, drawing costs what the width costs;
 * reading costs what the intervals in view cost (see the index's task
 * tables).
 */
#include "cs-task-plot-painter-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cs-palette.h"
#include "cs-plot-raster-private.h"
#include "cs-text-runs-private.h"
#include "cs-time-axis.h"

#define N_STATES            (CS_TASK_OTHER + 1)
#define COLUMN_CPUS         3      /* CPUs tracked per pixel column */
#define LABEL_PAD_PX        3
#define HATCH_PERIOD_PX     6
#define MIN_RUN_BAR_PX      2      /* a column the task ran in at all */

#define LABEL_FONT "Sans 8"

static const CsColor hatch_color        = { 0.851, 0.647, 0.227 };  /* #d9a53a */
static const CsColor latency_edge_color = { 0.612, 0.420, 0.047 };  /* #9c6b0c */
static const CsColor latency_text_color = { 0.310, 0.200, 0.020 };  /* #4f3305 */

/* What the task did during one pixel column, from intervals narrower than
 * a pixel. */
typedef struct {
  gint64 ns[N_STATES];
  gint32 cpu[COLUMN_CPUS];
  gint64 cpu_ns[COLUMN_CPUS];
} TaskColumn;

/* An interval at least a pixel wide, in whole pixel columns of the time
 * area. */
typedef struct {
  CsTaskState state;
  gint32 cpu;
  int left;
  int right;
} Box;

/* A wakeup latency box: from the wakeup to the switch-in. */
typedef struct {
  double x0;          /* the wakeup */
  double label_x0;    /* where the task became runnable, if later */
  double x1;          /* the switch-in */
  gint64 latency_ns;
} LatencyBox;

struct _CsTaskPlotPainter
{
  /* borrowed */
  CsDocument *document;
  PangoContext *pango_context;

  /* owned */
  GArray *intervals;          /* CsTaskInterval */
  GArray *boxes;              /* Box */
  GArray *latencies;          /* LatencyBox */
  TaskColumn *columns;
  guint n_columns_allocated;
  GByteArray *covered;        /* one byte per pixel column */
  CsPlotRaster raster;        /* one plot, a pixel per column */
  cairo_pattern_t *hatch;
  GHashTable *cpu_layouts;    /* GUINT_TO_POINTER (cpu + 1) → PangoLayout "CPU n" */
  GHashTable *cpu_short_layouts; /* … → PangoLayout "n" */
  PangoLayout *latency_layout;
};

/* cs_palette_get_state_color(), but the "other" state's dark grey comes
 * from the frame's theme: it must stand out from a dark page too. */
static gboolean
state_color (const CsPlotFrame *frame, CsTaskState state, CsColor *color)
{
  if (state == CS_TASK_OTHER)
    {
      *color = frame->theme->other_state;
      return TRUE;
    }
  return cs_palette_get_state_color (state, color);
}

static void
set_source (cairo_t *cr, const CsColor *color)
{
  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
}

static guint32
opaque_argb (const CsColor *color)
{
  return 0xff000000U | cs_color_to_rgb24 (color);
}

static double
plot_middle (double y)
{
  return y + CS_PLOT_HEIGHT_PX / 2.0;
}

/* Rows [top, bottom) of a state's glyph, from the plot's top. */
static void
state_rows (CsTaskState state, int *top, int *bottom)
{
  int middle = CS_PLOT_HEIGHT_PX / 2;
  int height;

  switch (state)
    {
    case CS_TASK_RUNNING:
      *top = CS_TASK_RUN_INSET_PX;
      *bottom = CS_PLOT_HEIGHT_PX - CS_TASK_RUN_INSET_PX;
      return;
    case CS_TASK_RUNNABLE:
      *top = CS_TASK_RUNNABLE_INSET_PX;
      *bottom = CS_PLOT_HEIGHT_PX - CS_TASK_RUNNABLE_INSET_PX;
      return;
    case CS_TASK_UNINTERRUPTIBLE:
      height = CS_TASK_BLOCKED_HEIGHT_PX;
      break;
    case CS_TASK_SLEEPING:
    case CS_TASK_OTHER:
    default:
      height = CS_TASK_SLEEP_HEIGHT_PX;
      break;
    }
  *top = middle - height / 2;
  *bottom = *top + height;
}

/* A transparent tile with one diagonal line: repeated, it hatches the
 * runnable boxes, anchored at the drawing's origin so that neighbouring
 * boxes line up. */
static cairo_pattern_t *
hatch_pattern_new (void)
{
  cairo_surface_t *tile = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HATCH_PERIOD_PX,
                                                      HATCH_PERIOD_PX);
  guint32 argb = opaque_argb (&hatch_color);
  cairo_pattern_t *pattern;
  guint8 *data;
  int stride;

  cairo_surface_flush (tile);
  data = cairo_image_surface_get_data (tile);
  stride = cairo_image_surface_get_stride (tile);
  if (data != NULL)
    {
      memset (data, 0, (gsize) stride * HATCH_PERIOD_PX);
      for (int i = 0; i < HATCH_PERIOD_PX; i++)
        ((guint32 *) (data + (gsize) i * stride))[HATCH_PERIOD_PX - 1 - i] = argb;
    }
  cairo_surface_mark_dirty (tile);

  pattern = cairo_pattern_create_for_surface (tile);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_REPEAT);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_surface_destroy (tile);
  return pattern;
}

static gboolean
is_hatch_pixel (int x, int row)
{
  return (x + row) % HATCH_PERIOD_PX == HATCH_PERIOD_PX - 1;
}

/* ------------------------------------------------------------------------ */
/* Pixel columns                                                             */

static void
column_add (TaskColumn *column, const CsTaskInterval *interval, gint64 ns)
{
  if (ns <= 0)
    return;
  column->ns[MIN ((guint) interval->state, N_STATES - 1)] += ns;
  if (interval->state != CS_TASK_RUNNING)
    return;

  _cs_plot_share_add (column->cpu, column->cpu_ns, COLUMN_CPUS, interval->cpu, ns);
}

static gint32
column_get_cpu (const TaskColumn *column)
{
  return _cs_plot_share_get_dominant (column->cpu, column->cpu_ns, COLUMN_CPUS);
}

/* Columns shared by intervals narrower than a pixel: the state the task
 * spent most of the column in (among runnable, sleeping, uninterruptible
 * and other), and over it a bar as high as the share of the column it ran,
 * in the colour of the CPU it ran on most. */
static void
draw_columns (CsTaskPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, double y)
{
  const TaskColumn *columns = self->columns;
  const guint8 *covered = self->covered->data;
  guint32 state_argb[N_STATES] = { 0 };
  guint32 hatch_argb = opaque_argb (&hatch_color);
  int run_max = CS_PLOT_HEIGHT_PX - 2 * CS_TASK_RUN_INSET_PX;
  int x_origin = (int) frame->time_x;
  guint32 *pixels;
  int stride;

  if (!_cs_plot_raster_begin (&self->raster, frame->n_columns))
    return;
  pixels = self->raster.pixels;
  stride = self->raster.stride_px;

  for (guint state = 0; state < N_STATES; state++)
    {
      CsColor color;

      if (state_color (frame, state, &color))
        state_argb[state] = opaque_argb (&color);
    }

  for (guint i = 0; i < frame->n_columns; i++)
    {
      const TaskColumn *column = &columns[i];
      guint waiting = CS_TASK_RUNNING;
      gint64 waiting_ns = 0;
      int top, bottom;

      if (covered[i])
        continue;

      for (guint state = 0; state < N_STATES; state++)
        if (state != CS_TASK_RUNNING && column->ns[state] > waiting_ns)
          {
            waiting = state;
            waiting_ns = column->ns[state];
          }

      if (waiting != CS_TASK_RUNNING)
        {
          state_rows (waiting, &top, &bottom);
          _cs_plot_raster_rows (&self->raster, i, top, bottom, state_argb[waiting]);
          if (waiting == CS_TASK_RUNNABLE)
            for (int row = top; row < bottom; row++)
              if (is_hatch_pixel (x_origin + (int) i, (int) y + row))
                pixels[(gsize) row * stride + i] = hatch_argb;
        }

      if (column->ns[CS_TASK_RUNNING] > 0)
        {
          double share = MIN ((double) column->ns[CS_TASK_RUNNING] / frame->ns_per_px, 1.0);
          int height = MAX ((int) lround (share * run_max), MIN_RUN_BAR_PX);
          CsColor color;

          cs_palette_get_cpu_color ((guint) MAX (column_get_cpu (column), 0), &color);
          top = CS_PLOT_HEIGHT_PX / 2 - height / 2;
          _cs_plot_raster_rows (&self->raster, i, top, top + height, opaque_argb (&color));
        }
    }

  _cs_plot_raster_end (&self->raster, cr, frame->n_columns, frame->time_x, y);
}

/* ------------------------------------------------------------------------ */
/* Boxes                                                                     */

static void
add_box (GArray *boxes, CsTaskState state, gint32 cpu, int left, int right)
{
  if (boxes->len > 0)
    {
      Box *last = &g_array_index (boxes, Box, boxes->len - 1);

      if (last->state == state && last->cpu == cpu && last->right == left)
        {
          last->right = right;
          return;
        }
    }
  g_array_append_val (boxes, ((Box) { state, cpu, left, right }));
}

static int
compare_boxes (gconstpointer a, gconstpointer b)
{
  const Box *box_a = a, *box_b = b;

  if (box_a->state != box_b->state)
    return box_a->state < box_b->state ? -1 : 1;
  if (box_a->cpu != box_b->cpu)
    return box_a->cpu < box_b->cpu ? -1 : 1;
  return (box_a->left > box_b->left) - (box_a->left < box_b->left);
}

static PangoLayout *
lookup_cpu_layout (CsTaskPlotPainter *self, gint32 cpu, gboolean abbreviated)
{
  GHashTable *table = abbreviated ? self->cpu_short_layouts : self->cpu_layouts;
  gpointer key = GUINT_TO_POINTER ((guint) cpu + 1);
  PangoLayout *layout = g_hash_table_lookup (table, key);

  if (layout == NULL)
    {
      char text[32];

      if (abbreviated)
        g_snprintf (text, sizeof text, "%d", cpu);
      else
        /* TRANSLATORS: inside a task plot's running box: the CPU the task
         * ran on; keep it short */
        g_snprintf (text, sizeof text, _("CPU %d"), cpu);
      layout = _cs_layout_new (self->pango_context, LABEL_FONT);
      pango_layout_set_text (layout, text, -1);
      g_hash_table_insert (table, key, layout);
    }
  return layout;
}

static void
draw_run_label (CsTaskPlotPainter *self, cairo_t *cr, const Box *box, double x0, double y)
{
  double width = box->right - box->left;
  PangoLayout *layout;
  CsColor fill, text;
  int text_width, text_height;

  if (box->cpu < 0)
    return;
  layout = lookup_cpu_layout (self, box->cpu, FALSE);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  if (text_width + 2 * LABEL_PAD_PX > width)
    {
      layout = lookup_cpu_layout (self, box->cpu, TRUE);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      if (text_width + 2 * LABEL_PAD_PX > width)
        return;
    }

  cs_palette_get_cpu_color ((guint) box->cpu, &fill);
  cs_palette_get_text_color (&fill, &text);
  set_source (cr, &text);
  cairo_move_to (cr, x0 + box->left + LABEL_PAD_PX, floor (plot_middle (y) - text_height / 2.0));
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
}

static void
draw_latency (CsTaskPlotPainter *self, cairo_t *cr, const LatencyBox *box, double y)
{
  int top, bottom, text_width, text_height;
  double x0 = floor (box->x0) + 0.5;
  double x1 = floor (box->x1) - 0.5;
  char text[32];

  if (x1 - x0 < 2.0)
    return;

  state_rows (CS_TASK_RUNNABLE, &top, &bottom);
  set_source (cr, &latency_edge_color);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, x0, y + top + 0.5, x1 - x0, bottom - top - 1);
  cairo_stroke (cr);

  /* The label goes in the part not covered by the run it may overlap. */
  x0 = MAX (x0, floor (box->label_x0) + 0.5);
  cs_time_axis_format_duration (box->latency_ns, text, sizeof text);
  pango_layout_set_text (self->latency_layout, text, -1);
  pango_layout_get_pixel_size (self->latency_layout, &text_width, &text_height);
  if (text_width + 2 * LABEL_PAD_PX > x1 - x0)
    return;

  /* Over a plain patch, not the hatching, so the figure reads. */
  {
    double text_x = floor ((x0 + x1 - text_width) / 2.0);
    double text_y = floor (plot_middle (y) - text_height / 2.0);
    CsColor fill;

    cs_palette_get_state_color (CS_TASK_RUNNABLE, &fill);
    set_source (cr, &fill);
    cairo_rectangle (cr, text_x - 2, y + top + 1, text_width + 4, bottom - top - 2);
    cairo_fill (cr);
    set_source (cr, &latency_text_color);
    cairo_move_to (cr, text_x, text_y);
    _cs_text_show (cr, self->latency_layout, CS_TEXT_ANCHOR_MIDDLE);
  }
}

static void
fill_box_group (cairo_t *cr, const Box *boxes, guint n_boxes, double x0, double y)
{
  for (guint i = 0; i < n_boxes; i++)
    {
      int top, bottom;

      state_rows (boxes[i].state, &top, &bottom);
      cairo_rectangle (cr, x0 + boxes[i].left, y + top, boxes[i].right - boxes[i].left,
                       bottom - top);
    }
}

/* One path per colour: the waiting states (@runs FALSE) or the runs,
 * grouped by CPU (@runs TRUE).  @boxes are sorted by compare_boxes(). */
static void
draw_boxes (CsTaskPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, double y,
            gboolean runs)
{
  GArray *boxes = self->boxes;
  guint i = 0;

  while (i < boxes->len)
    {
      const Box *first = &g_array_index (boxes, Box, i);
      guint end = i + 1;
      CsColor color;

      while (end < boxes->len &&
             g_array_index (boxes, Box, end).state == first->state &&
             (first->state != CS_TASK_RUNNING || g_array_index (boxes, Box, end).cpu == first->cpu))
        end++;

      if ((first->state == CS_TASK_RUNNING) != runs)
        {
          i = end;
          continue;
        }

      if (first->state == CS_TASK_RUNNING)
        cs_palette_get_cpu_color ((guint) MAX (first->cpu, 0), &color);
      else
        state_color (frame, first->state, &color);

      fill_box_group (cr, first, end - i, frame->time_x, y);
      set_source (cr, &color);
      if (first->state == CS_TASK_RUNNABLE)
        {
          cairo_fill_preserve (cr);
          cairo_set_source (cr, self->hatch);
          cairo_fill (cr);
        }
      else
        cairo_fill (cr);

      i = end;
    }
}

/**
 * _cs_task_plot_painter_draw:
 * @self: a painter
 * @cr: the target
 * @frame: the frame's geometry
 * @pid: the task whose states are drawn
 * @y_px: top of the plot; it is CS_PLOT_HEIGHT_PX high and spans the time
 *   area of @frame
 * @error: return location for an error of the document (%CS_INDEX_ERROR)
 *
 * Draws what @pid did over @frame, over the plot's background (drawn by the
 * caller).
 *
 * Returns: %TRUE on success
 */
gboolean
_cs_task_plot_painter_draw (CsTaskPlotPainter *self,
                            cairo_t           *cr,
                            const CsPlotFrame *frame,
                            gint32             pid,
                            double             y_px,
                            GError           **error)
{
  guint n_columns = frame->n_columns;
  gboolean any_column = FALSE;
  guint8 *covered;

  if (n_columns == 0)
    return TRUE;

  g_array_set_size (self->intervals, 0);
  if (!cs_document_get_task_intervals (self->document, pid, frame->begin_ns, frame->end_ns,
                                       self->intervals, error))
    return FALSE;
  if (self->intervals->len == 0)
    return TRUE;

  if (n_columns > self->n_columns_allocated)
    {
      self->columns = g_renew (TaskColumn, self->columns, n_columns);
      self->n_columns_allocated = n_columns;
    }
  memset (self->columns, 0, sizeof (TaskColumn) * n_columns);
  g_byte_array_set_size (self->covered, n_columns);
  covered = self->covered->data;
  memset (covered, 0, n_columns);
  g_array_set_size (self->boxes, 0);
  g_array_set_size (self->latencies, 0);

  for (guint i = 0; i < self->intervals->len; i++)
    {
      const CsTaskInterval *interval = &g_array_index (self->intervals, CsTaskInterval, i);
      gint64 begin_ns = MAX (interval->begin_ns, frame->begin_ns);
      gint64 end_ns = MIN (interval->end_ns, frame->end_ns);
      double x0, x1;

      if (end_ns <= begin_ns)
        continue;
      x0 = _cs_plot_frame_offset_ns (frame, begin_ns) / frame->ns_per_px;
      x1 = _cs_plot_frame_offset_ns (frame, end_ns) / frame->ns_per_px;

      if (interval->state == CS_TASK_RUNNABLE && interval->wakeup_ns >= 0 &&
          interval->end_ns <= frame->end_ns)
        {
          gint64 wakeup_ns = MAX (interval->wakeup_ns, frame->begin_ns);
          double wakeup_x = _cs_plot_frame_offset_ns (frame, wakeup_ns) / frame->ns_per_px;

          if (x1 - wakeup_x >= 3.0)
            g_array_append_val (self->latencies,
                                ((LatencyBox) { frame->time_x + wakeup_x,
                                                frame->time_x + MAX (x0, wakeup_x),
                                                frame->time_x + x1,
                                                interval->end_ns - interval->wakeup_ns }));
        }

      if (x1 - x0 >= 1.0)
        {
          /* Clamped as doubles: a damaged recording's times can put
           * them past what an int holds. */
          int left = (int) CLAMP (floor (x0 + 0.5), 0.0, (double) n_columns);
          int right = (int) CLAMP (floor (x1 + 0.5), 0.0, (double) n_columns);

          if (right <= left)
            continue;
          add_box (self->boxes, interval->state, interval->cpu, left, right);
          memset (covered + left, 1, right - left);
        }
      else
        {
          guint column = (guint) x0;
          double boundary = column + 1.0;

          if (column >= n_columns)
            continue;
          any_column = TRUE;
          if (x1 <= boundary || column + 1 >= n_columns)
            column_add (&self->columns[column], interval, end_ns - begin_ns);
          else
            {
              gint64 split_ns = frame->begin_ns + (gint64) (boundary * frame->ns_per_px);

              split_ns = CLAMP (split_ns, begin_ns, end_ns);
              column_add (&self->columns[column], interval, split_ns - begin_ns);
              column_add (&self->columns[column + 1], interval, end_ns - split_ns);
            }
        }
    }

  if (any_column)
    draw_columns (self, cr, frame, y_px);

  /* Waiting states, then wakeup latencies over the runnable boxes, then the
   * runs on top: a latency box that began while the task still ran (a
   * sched_waking before its switch-out) goes under the run. */
  g_array_sort (self->boxes, compare_boxes);
  draw_boxes (self, cr, frame, y_px, FALSE);
  for (guint i = 0; i < self->latencies->len; i++)
    draw_latency (self, cr, &g_array_index (self->latencies, LatencyBox, i), y_px);
  draw_boxes (self, cr, frame, y_px, TRUE);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);

      if (box->state == CS_TASK_RUNNING)
        draw_run_label (self, cr, box, frame->time_x, y_px);
    }

  return TRUE;
}

/* How far @ts_ns lies from @interval (0 inside). */
static gint64
interval_distance (const CsTaskInterval *interval, gint64 ts_ns)
{
  if (ts_ns < interval->begin_ns)
    return interval->begin_ns - ts_ns;
  if (ts_ns >= interval->end_ns)
    return ts_ns - interval->end_ns + 1;
  return 0;
}

static gboolean
is_wakeup_latency_at (const CsTaskInterval *interval, gint64 ts_ns)
{
  return interval->state == CS_TASK_RUNNABLE && interval->wakeup_ns >= 0 &&
         ts_ns >= interval->wakeup_ns && ts_ns < interval->end_ns;
}

/**
 * _cs_task_plot_painter_find_interval:
 * @self: a painter
 * @pid: the task of the plot
 * @ts_ns: the time under the pointer
 * @radius_ns: how far an interval may be to count, ns (a few pixels)
 * @interval: (out caller-allocates): the interval found
 * @found: (out): whether there is one
 * @error: return location for an error of the document (%CS_INDEX_ERROR)
 *
 * What @pid did at @ts_ns, for hover text and clicks.  A wakeup latency
 * box holding @ts_ns (from the wakeup to the switch-in, which may begin
 * before the runnable interval) comes first, so that it can be clicked
 * wherever it is drawn; then the interval holding @ts_ns, unless that one
 * is narrower than 2 × @radius_ns and a wakeup latency lies within
 * @radius_ns (a box a few pixels wide is what the pointer aims at); then
 * the nearest interval within @radius_ns.
 *
 * Returns: %TRUE on success (with @found telling whether @interval is set)
 */
gboolean
_cs_task_plot_painter_find_interval (CsTaskPlotPainter *self,
                                     gint32             pid,
                                     gint64             ts_ns,
                                     gint64             radius_ns,
                                     CsTaskInterval    *interval,
                                     gboolean          *found,
                                     GError           **error)
{
  const CsTaskInterval *containing = NULL, *near_wakeup = NULL, *nearest = NULL;
  gint64 nearest_distance = G_MAXINT64, wakeup_distance = G_MAXINT64;
  GArray *intervals = self->intervals;

  *found = FALSE;
  radius_ns = MAX (radius_ns, 0);

  g_array_set_size (intervals, 0);
  if (!cs_document_get_task_intervals (self->document, pid, ts_ns - radius_ns,
                                       ts_ns + radius_ns + 1, intervals, error))
    return FALSE;

  for (guint i = 0; i < intervals->len; i++)
    {
      const CsTaskInterval *candidate = &g_array_index (intervals, CsTaskInterval, i);
      gint64 distance = interval_distance (candidate, ts_ns);

      if (is_wakeup_latency_at (candidate, ts_ns))
        {
          *interval = *candidate;
          *found = TRUE;
          return TRUE;
        }
      if (distance == 0 && containing == NULL)
        containing = candidate;
      if (candidate->state == CS_TASK_RUNNABLE && candidate->wakeup_ns >= 0 &&
          distance <= radius_ns && distance < wakeup_distance)
        {
          near_wakeup = candidate;
          wakeup_distance = distance;
        }
      if (distance <= radius_ns && distance < nearest_distance)
        {
          nearest = candidate;
          nearest_distance = distance;
        }
    }

  if (containing != NULL &&
      (near_wakeup == NULL || containing->end_ns - containing->begin_ns >= 2 * radius_ns))
    *interval = *containing;
  else if (near_wakeup != NULL)
    *interval = *near_wakeup;
  else if (nearest != NULL)
    *interval = *nearest;
  else
    return TRUE;

  *found = TRUE;
  return TRUE;
}

/**
 * _cs_task_plot_painter_new:
 * @document: (transfer none): the recording; must outlive the painter
 * @context: (transfer none): the Pango context labels are laid out in;
 *   must outlive the painter
 *
 * Returns: (transfer full): a painter with empty buffers
 */
CsTaskPlotPainter *
_cs_task_plot_painter_new (CsDocument   *document,
                           PangoContext *context)
{
  CsTaskPlotPainter *self = g_new0 (CsTaskPlotPainter, 1);

  self->document = document;
  self->pango_context = context;
  self->intervals = g_array_sized_new (FALSE, FALSE, sizeof (CsTaskInterval), 1024);
  self->boxes = g_array_sized_new (FALSE, FALSE, sizeof (Box), 256);
  self->latencies = g_array_sized_new (FALSE, FALSE, sizeof (LatencyBox), 64);
  self->covered = g_byte_array_sized_new (2048);
  self->hatch = hatch_pattern_new ();
  self->cpu_layouts = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->cpu_short_layouts = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->latency_layout = _cs_layout_new (context, LABEL_FONT);
  return self;
}

/**
 * _cs_task_plot_painter_free:
 * @self: (transfer full): a painter
 */
void
_cs_task_plot_painter_free (CsTaskPlotPainter *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->intervals);
  g_array_unref (self->boxes);
  g_array_unref (self->latencies);
  g_byte_array_unref (self->covered);
  g_free (self->columns);
  _cs_plot_raster_clear (&self->raster);
  cairo_pattern_destroy (self->hatch);
  g_hash_table_unref (self->cpu_layouts);
  g_hash_table_unref (self->cpu_short_layouts);
  g_object_unref (self->latency_layout);
  g_free (self);
}

/**
 * _cs_task_plot_painter_context_changed:
 * @self: a painter
 *
 * Drops measured labels after the Pango context changed.
 */
void
_cs_task_plot_painter_context_changed (CsTaskPlotPainter *self)
{
  g_hash_table_remove_all (self->cpu_layouts);
  g_hash_table_remove_all (self->cpu_short_layouts);
  pango_layout_context_changed (self->latency_layout);
}
