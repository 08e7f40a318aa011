/* cs-cpu-plot-painter.c: draws the data of one CPU plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Zoomed out, a CPU plot reads one CsColumn per pixel and draws, bottom
 * aligned, a bar in the dominant task's colour as high as the CPU was busy:
 * an idle CPU is low, a saturated one full, never a rainbow of every task
 * that ran.  Zoomed in (a pixel narrower than the index's finest summary
 * bucket), it draws the exact sched_switch slices at full height, labelled
 * "comm-pid" where they are wide enough, and every event as a tick along
 * the bottom.  CPUs without sched_switch show event density instead.
 *
 * With an event filter (_cs_cpu_plot_painter_set_filter()), the ticks of
 * events it rejects are drawn faint or not at all.  That needs the events
 * themselves: where a plot is drawn from summaries (zoomed out, or too many
 * events to list), it stays unfiltered and the painter says so
 * (_cs_cpu_plot_painter_get_filter_exact()).
 *
 * Cost: a frame's cost follows its width.  Per-column output goes through
 * one image per plot (cs-plot-raster-private.h); wide slices of one task are
 * merged into one path and filled once; slice labels reuse one Pango layout
 * per task; every buffer lives as long as the painter.
 */
#include "cs-cpu-plot-painter-private.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "cs-palette.h"
#include "cs-plot-raster-private.h"
#include "cs-text-runs-private.h"

#define EVENT_TICK_PX        5     /* events under slices */
#define DENSITY_TICK_PX      4     /* event marks under a density bar */
#define LABEL_PAD_PX         3
#define MIN_LABEL_SLICE_PX   24    /* narrower slices carry no label */
#define MIN_ELLIPSIZED_PX    40    /* room for a shortened label: a few letters and … */
#define EVENTS_PER_PX        8     /* more events than this: marks from summaries */

#define LABEL_FONT "Sans 8"

static const CsColor unknown_task     = { 0.60, 0.60, 0.60 };

/* Per-task drawing state, created on first use. */
typedef struct {
  CsColor fill;
  guint32 argb;              /* fill as an opaque CAIRO_FORMAT_ARGB32 pixel */
  CsColor text;
  char *label;               /* "comm-pid" */
  PangoLayout *layout;       /* the label, unellipsized; NULL until needed */
  int label_width_px;
} TaskStyle;

/* One rectangle of a plot, in whole pixels, to be filled with a task's
 * colour (pid <= 0: the unknown-task grey). */
typedef struct {
  gint32 pid;
  int x;
  int width;
  int height;
} Bar;

/* Running time of the tasks in a pixel column shared by slices narrower
 * than a pixel: the SHARE_TASKS tasks seen longest there. */
#define SHARE_TASKS 4

typedef struct {
  gint64 busy_ns;
  gint32 pid[SHARE_TASKS];
  gint64 ns[SHARE_TASKS];
} PixelShare;

struct _CsCpuPlotPainter
{
  /* borrowed */
  CsDocument *document;
  PangoContext *pango_context;

  /* owned */
  GHashTable *task_styles;   /* GINT_TO_POINTER (pid) → TaskStyle */
  gint32 last_pid;           /* one-entry cache of lookup_task_style() */
  TaskStyle *last_style;
  PangoLayout *ellipsis_layout;  /* slice labels that must be shortened */
  CsColumn *columns;
  guint n_columns_allocated;
  GArray *slices;            /* CsSlice */
  GArray *events;            /* CsEvent */
  GArray *bars;              /* Bar */
  GByteArray *marks;         /* one byte per pixel column */
  GByteArray *covered;       /* one byte per pixel column */
  PixelShare *shares;
  guint n_shares_allocated;
  CsPlotRaster raster;       /* one plot, a pixel per column */
  CsEventFilter *filter;     /* NULL: every event shows */
  gboolean hide_filtered;    /* rejected events: hidden, or faint */
  gboolean filter_exact;     /* the last plot drawn applied the filter */
};

/* Values of CsCpuPlotPainter.marks: what a pixel column holds. */
enum {
  MARK_NONE,
  MARK_SHOWN,                /* an event the filter lets through */
  MARK_FILTERED,             /* only events the filter rejects */
};

/**
 * _cs_plot_frame_init:
 * @frame: (out caller-allocates): the frame's geometry
 * @viewport: what is drawn, onto how many pixels
 * @resolution_ns: cs_document_get_summary_resolution_ns()
 *
 * Lays the visible span over the time area, right of the label column.
 */
void
_cs_plot_frame_init (CsPlotFrame      *frame,
                     const CsViewport *viewport,
                     gint64            resolution_ns)
{
  frame->begin_ns = viewport->begin_ns;
  frame->end_ns = MAX (viewport->end_ns, viewport->begin_ns + 1);
  frame->time_x = CS_LABEL_WIDTH_PX;
  frame->time_width = MAX ((double) viewport->width_px - CS_LABEL_WIDTH_PX, 0.0);
  frame->n_columns = (guint) floor (frame->time_width);
  frame->ns_per_px = frame->time_width > 0.0
                   ? _cs_plot_frame_offset_ns (frame, frame->end_ns) / frame->time_width
                   : _cs_plot_frame_offset_ns (frame, frame->end_ns);
  frame->zoomed_in = frame->ns_per_px < (double) MAX (resolution_ns, 1);
  frame->theme = cs_theme_get (CS_COLOR_SCHEME_LIGHT);
}

/**
 * _cs_plot_frame_ns_to_x:
 * @frame: a frame
 * @ts_ns: a time, trace clock ns
 *
 * Returns: where @ts_ns is drawn, px from the left of the drawing
 */
double
_cs_plot_frame_ns_to_x (const CsPlotFrame *frame,
                        gint64             ts_ns)
{
  return frame->time_x + _cs_plot_frame_offset_ns (frame, ts_ns) / frame->ns_per_px;
}

/**
 * _cs_layout_new:
 * @context: the renderer's Pango context
 * @font: a font description, as pango_font_description_from_string() takes
 *
 * Returns: (transfer full): a new layout in @font
 */
PangoLayout *
_cs_layout_new (PangoContext *context,
                const char   *font)
{
  g_autoptr(PangoFontDescription) description = pango_font_description_from_string (font);
  PangoLayout *layout = pango_layout_new (context);

  pango_layout_set_font_description (layout, description);
  return layout;
}

static void
task_style_free (gpointer data)
{
  TaskStyle *style = data;

  g_clear_object (&style->layout);
  g_free (style->label);
  g_free (style);
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

static TaskStyle *
lookup_task_style (CsCpuPlotPainter *self, gint32 pid)
{
  TaskStyle *style = g_hash_table_lookup (self->task_styles, GINT_TO_POINTER (pid));

  if (style == NULL)
    {
      style = g_new0 (TaskStyle, 1);
      if (!cs_palette_get_task_color (pid, &style->fill))
        style->fill = unknown_task;
      style->argb = opaque_argb (&style->fill);
      cs_palette_get_text_color (&style->fill, &style->text);
      g_hash_table_insert (self->task_styles, GINT_TO_POINTER (pid), style);
    }
  return style;
}

static const char *
task_style_get_label (CsCpuPlotPainter *self, TaskStyle *style, gint32 pid)
{
  if (style->label == NULL)
    {
      const char *comm = cs_document_get_comm (self->document, pid);

      style->label = g_strdup_printf ("%s-%d", comm != NULL ? comm : "<...>", pid);
    }
  return style->label;
}

static CsColumn *
ensure_columns (CsCpuPlotPainter *self, guint n_columns)
{
  if (n_columns > self->n_columns_allocated)
    {
      self->columns = g_renew (CsColumn, self->columns, n_columns);
      self->n_columns_allocated = n_columns;
    }
  return self->columns;
}

static void
add_bar (GArray *bars, gint32 pid, int x, int width, int height)
{
  if (bars->len > 0)
    {
      Bar *last = &g_array_index (bars, Bar, bars->len - 1);

      if (last->pid == pid && last->height == height && last->x + last->width == x)
        {
          last->width += width;
          return;
        }
    }
  g_array_append_val (bars, ((Bar) { pid, x, width, height }));
}

static int
compare_bars (gconstpointer a, gconstpointer b)
{
  const Bar *bar_a = a;
  const Bar *bar_b = b;

  if (bar_a->pid != bar_b->pid)
    return bar_a->pid < bar_b->pid ? -1 : 1;
  return (bar_a->x > bar_b->x) - (bar_a->x < bar_b->x);
}

/* Fills @bars bottom-aligned in a plot whose bottom edge is @bottom_px, one
 * cairo fill per task. */
static void
fill_bars (CsCpuPlotPainter *self, cairo_t *cr, GArray *bars, double x0, double bottom_px)
{
  guint i = 0;

  g_array_sort (bars, compare_bars);
  while (i < bars->len)
    {
      gint32 pid = g_array_index (bars, Bar, i).pid;

      set_source (cr, &lookup_task_style (self, pid)->fill);
      for (; i < bars->len && g_array_index (bars, Bar, i).pid == pid; i++)
        {
          const Bar *bar = &g_array_index (bars, Bar, i);

          cairo_rectangle (cr, x0 + bar->x, bottom_px - bar->height, bar->width, bar->height);
        }
      cairo_fill (cr);
    }
}

/* Fills one @height-high tick for each run of pixel columns marked @value. */
static void
fill_marks (cairo_t *cr, const guint8 *marks, guint8 value, guint n_columns, double x0,
            double bottom_px, double height, const CsColor *color)
{
  gboolean any = FALSE;
  guint i = 0;

  while (i < n_columns)
    {
      guint start;

      if (marks[i] != value)
        {
          i++;
          continue;
        }
      for (start = i; i < n_columns && marks[i] == value; i++)
        ;
      cairo_rectangle (cr, x0 + start, bottom_px - height, i - start, height);
      any = TRUE;
    }

  if (any)
    {
      set_source (cr, color);
      cairo_fill (cr);
    }
}

static gboolean
read_columns (CsCpuPlotPainter *self, const CsPlotFrame *frame, guint cpu, GError **error)
{
  ensure_columns (self, frame->n_columns);
  return cs_document_get_cpu_columns (self->document, cpu, frame->begin_ns, frame->end_ns,
                                      frame->n_columns, self->columns, error);
}

/* The pixel value of @pid's colour, with a one-entry cache: neighbouring
 * columns usually show the same task. */
static guint32
task_argb (CsCpuPlotPainter *self, gint32 pid)
{
  if (pid != self->last_pid || self->last_style == NULL)
    {
      self->last_pid = pid;
      self->last_style = lookup_task_style (self, pid);
    }
  return self->last_style->argb;
}

/* Zoomed out, with sched_switch: dominant task and how busy the CPU was. */
static gboolean
draw_busy_columns (CsCpuPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, guint cpu,
                   double y, GError **error)
{
  double column_ns = _cs_plot_frame_offset_ns (frame, frame->end_ns) / frame->n_columns;

  if (!read_columns (self, frame, cpu, error))
    return FALSE;
  if (!_cs_plot_raster_begin (&self->raster, frame->n_columns))
    return TRUE;

  for (guint i = 0; i < frame->n_columns; i++)
    {
      const CsColumn *column = &self->columns[i];
      double busy;

      if (column->busy_ns <= 0)
        continue;
      busy = MIN ((double) column->busy_ns / column_ns, 1.0);
      _cs_plot_raster_bar (&self->raster, i, MAX ((int) lround (busy * CS_PLOT_HEIGHT_PX), 1),
                           task_argb (self, column->dominant_pid > 0 ? column->dominant_pid : -1));
    }

  _cs_plot_raster_end (&self->raster, cr, frame->n_columns, frame->time_x, y);
  return TRUE;
}

/* Zoomed out, without sched_switch: a grey bar as high as the logarithm of
 * the number of events (scaled to the busiest column of this plot), over a
 * darker mark at the bottom of every column with events, so that lone
 * events stay visible. */
static gboolean
draw_density_columns (CsCpuPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, guint cpu,
                      double y, GError **error)
{
  guint32 bar_argb = opaque_argb (&frame->theme->density);
  guint32 tick_argb = opaque_argb (&frame->theme->density_tick);
  guint32 max_events = 0;
  double scale;

  if (!read_columns (self, frame, cpu, error))
    return FALSE;

  for (guint i = 0; i < frame->n_columns; i++)
    max_events = MAX (max_events, self->columns[i].n_events);
  if (max_events == 0)
    return TRUE;
  if (!_cs_plot_raster_begin (&self->raster, frame->n_columns))
    return TRUE;

  scale = (CS_PLOT_HEIGHT_PX - DENSITY_TICK_PX) / log1p ((double) MAX (max_events, 2));
  for (guint i = 0; i < frame->n_columns; i++)
    {
      guint32 n_events = self->columns[i].n_events;

      if (n_events == 0)
        continue;
      _cs_plot_raster_bar (&self->raster, i,
                           DENSITY_TICK_PX + (int) lround (log1p ((double) n_events) * scale),
                           bar_argb);
      _cs_plot_raster_bar (&self->raster, i, DENSITY_TICK_PX, tick_argb);
    }

  _cs_plot_raster_end (&self->raster, cr, frame->n_columns, frame->time_x, y);
  return TRUE;
}

static void
draw_slice_label (CsCpuPlotPainter *self, cairo_t *cr, gint32 pid, double x, double width,
                  double y)
{
  TaskStyle *style = lookup_task_style (self, pid);
  const char *label = task_style_get_label (self, style, pid);
  double room = width - 2 * LABEL_PAD_PX;
  PangoLayout *layout;
  int text_height;

  if (style->layout == NULL)
    {
      style->layout = _cs_layout_new (self->pango_context, LABEL_FONT);
      pango_layout_set_text (style->layout, label, -1);
      pango_layout_get_pixel_size (style->layout, &style->label_width_px, NULL);
    }

  if (style->label_width_px <= room)
    layout = style->layout;
  else if (room < MIN_ELLIPSIZED_PX)
    return;  /* "c…" says nothing; hover tells */
  else
    {
      /* Shortening costs a shaping pass; only slices wide enough to show a
       * few characters and the ellipsis get one. */
      layout = self->ellipsis_layout;
      pango_layout_set_text (layout, label, -1);
      pango_layout_set_width (layout, (int) (room * PANGO_SCALE));
    }

  pango_layout_get_pixel_size (layout, NULL, &text_height);
  set_source (cr, &style->text);
  cairo_move_to (cr, x + LABEL_PAD_PX,
                 floor (y + (CS_PLOT_HEIGHT_PX - EVENT_TICK_PX - text_height) / 2.0));
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
}

/* Adds @ns of @pid's running time to a pixel column shared by slices
 * narrower than a pixel. */
static void
share_add (PixelShare *share, gint32 pid, gint64 ns)
{
  share->busy_ns += ns;
  _cs_plot_share_add (share->pid, share->ns, SHARE_TASKS, pid, ns);
}

static gint32
share_get_dominant (const PixelShare *share)
{
  return _cs_plot_share_get_dominant (share->pid, share->ns, SHARE_TASKS);
}

/* Zoomed in: the exact sched_switch slices, labelled where they fit.
 *
 * A slice at least a pixel wide is drawn at full height from its switch-in
 * to its switch-out, edges rounded to the nearest pixel on both sides of a
 * switch so that neighbours neither overlap nor leave a gap.  Slices
 * narrower than a pixel share their column: it is drawn like a zoomed-out
 * column (dominant task, height by busy time), so that zooming in from the
 * summaries changes nothing until slices become wide enough to show. */
static gboolean
draw_slices (CsCpuPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, guint cpu, double y,
             GError **error)
{
  guint n_columns = frame->n_columns;
  guint n_shared = 0;
  PixelShare *shares;
  guint8 *covered;

  g_array_set_size (self->slices, 0);
  if (!cs_document_get_slices (self->document, cpu, frame->begin_ns, frame->end_ns,
                               self->slices, error))
    return FALSE;

  if (n_columns > self->n_shares_allocated)
    {
      self->shares = g_renew (PixelShare, self->shares, n_columns);
      self->n_shares_allocated = n_columns;
    }
  shares = self->shares;
  memset (shares, 0, sizeof (PixelShare) * n_columns);
  g_byte_array_set_size (self->covered, n_columns);
  covered = self->covered->data;
  memset (covered, 0, n_columns);

  g_array_set_size (self->bars, 0);
  for (guint i = 0; i < self->slices->len; i++)
    {
      const CsSlice *slice = &g_array_index (self->slices, CsSlice, i);
      gint64 begin_ns = MAX (slice->begin_ns, frame->begin_ns);
      gint64 end_ns = MIN (slice->end_ns, frame->end_ns);
      double x0, x1;

      if (slice->pid <= 0 || end_ns <= begin_ns)
        continue;
      x0 = _cs_plot_frame_offset_ns (frame, begin_ns) / frame->ns_per_px;
      x1 = _cs_plot_frame_offset_ns (frame, end_ns) / frame->ns_per_px;

      if (x1 - x0 >= 1.0)
        {
          /* Clamped as doubles: a damaged recording's times can put
           * them past what an int holds. */
          int left = (int) CLAMP (floor (x0 + 0.5), 0.0, (double) n_columns);
          int right = (int) CLAMP (floor (x1 + 0.5), 0.0, (double) n_columns);

          if (right <= left)
            continue;
          add_bar (self->bars, slice->pid, left, right - left, CS_PLOT_HEIGHT_PX);
          memset (covered + left, 1, right - left);
        }
      else
        {
          guint column = (guint) x0;
          double boundary = column + 1.0;

          if (column >= n_columns)
            continue;
          n_shared++;
          if (x1 <= boundary || column + 1 >= n_columns)
            share_add (&shares[column], slice->pid, end_ns - begin_ns);
          else
            {
              gint64 split_ns = frame->begin_ns + (gint64) (boundary * frame->ns_per_px);

              split_ns = CLAMP (split_ns, begin_ns, end_ns);
              share_add (&shares[column], slice->pid, split_ns - begin_ns);
              share_add (&shares[column + 1], slice->pid, end_ns - split_ns);
            }
        }
    }

  if (n_shared > 0 && _cs_plot_raster_begin (&self->raster, n_columns))
    {
      for (guint column = 0; column < n_columns; column++)
        {
          double busy;

          if (covered[column] || shares[column].busy_ns == 0)
            continue;
          busy = MIN ((double) shares[column].busy_ns / frame->ns_per_px, 1.0);
          _cs_plot_raster_bar (&self->raster, column,
                               MAX ((int) lround (busy * CS_PLOT_HEIGHT_PX), 1),
                               task_argb (self, share_get_dominant (&shares[column])));
        }
      _cs_plot_raster_end (&self->raster, cr, n_columns, frame->time_x, y);
    }

  fill_bars (self, cr, self->bars, frame->time_x, y + CS_PLOT_HEIGHT_PX);

  /* Bars are merged per task, so labels go by bar: a task that ran in
   * several consecutive slices gets one label. */
  for (guint i = 0; i < self->bars->len; i++)
    {
      const Bar *bar = &g_array_index (self->bars, Bar, i);

      if (bar->width >= MIN_LABEL_SLICE_PX)
        draw_slice_label (self, cr, bar->pid, frame->time_x + bar->x, bar->width, y);
    }

  return TRUE;
}

/* Zoomed in: every event as a tick along the bottom; when there are more
 * than EVENTS_PER_PX per pixel, one mark per column with events. */
static gboolean
draw_events (CsCpuPlotPainter *self, cairo_t *cr, const CsPlotFrame *frame, guint cpu, double y,
             double tick_height, gint64 resolution_ns, GError **error)
{
  guint max_events = MAX (frame->n_columns * EVENTS_PER_PX, 1);

  g_byte_array_set_size (self->marks, frame->n_columns);
  memset (self->marks->data, 0, frame->n_columns);

  g_array_set_size (self->events, 0);
  if (!cs_document_get_events (self->document, cpu, frame->begin_ns, frame->end_ns,
                               max_events, self->events, error))
    return FALSE;

  if (self->events->len >= max_events)
    {
      /* Too many to list: mark where the finest summary buckets hold
       * events.  Columns at least one bucket wide come from the summaries,
       * so this costs what a zoomed-out plot costs whatever the density. */
      gint64 span_ns = frame->end_ns - frame->begin_ns;
      guint n_coarse = (guint) CLAMP (span_ns / MAX (resolution_ns, 1), 1, (gint64) frame->n_columns);
      double px_per_coarse = (double) frame->n_columns / n_coarse;

      ensure_columns (self, n_coarse);
      if (!cs_document_get_cpu_columns (self->document, cpu, frame->begin_ns, frame->end_ns,
                                        n_coarse, self->columns, error))
        return FALSE;
      for (guint i = 0; i < n_coarse; i++)
        {
          guint first, last;

          if (self->columns[i].n_events == 0)
            continue;
          first = (guint) floor (i * px_per_coarse);
          last = MIN ((guint) ceil ((i + 1) * px_per_coarse), frame->n_columns);
          memset (self->marks->data + first, MARK_SHOWN, last - first);
        }
      if (self->filter != NULL)
        self->filter_exact = FALSE;
    }
  else
    {
      /* An expression reads each event's record: worth it for a few events
       * per column, not for a dense plot. */
      CsEventFilter *filter = self->filter;

      if (filter != NULL && cs_event_filter_get_expression (filter) != NULL &&
          self->events->len > frame->n_columns)
        {
          filter = NULL;
          self->filter_exact = FALSE;
        }

      for (guint i = 0; i < self->events->len; i++)
        {
          const CsEvent *event = &g_array_index (self->events, CsEvent, i);
          double px = floor (_cs_plot_frame_offset_ns (frame, event->ts_ns) / frame->ns_per_px);
          guint8 *mark;

          if (px < 0.0 || px >= frame->n_columns)
            continue;
          mark = &self->marks->data[(guint) px];
          if (filter == NULL || cs_event_filter_matches_event (filter, event))
            *mark = MARK_SHOWN;
          else if (*mark == MARK_NONE)
            *mark = MARK_FILTERED;
        }
    }

  if (self->filter != NULL && !self->hide_filtered)
    fill_marks (cr, self->marks->data, MARK_FILTERED, frame->n_columns, frame->time_x,
                y + CS_PLOT_HEIGHT_PX, tick_height, &frame->theme->filtered);
  fill_marks (cr, self->marks->data, MARK_SHOWN, frame->n_columns, frame->time_x,
              y + CS_PLOT_HEIGHT_PX, tick_height, &frame->theme->event);
  return TRUE;
}

/**
 * _cs_cpu_plot_painter_new:
 * @document: (transfer none): the recording; must outlive the painter
 * @context: (transfer none): the Pango context labels are laid out in;
 *   must outlive the painter
 *
 * Returns: (transfer full): a painter with empty buffers
 */
CsCpuPlotPainter *
_cs_cpu_plot_painter_new (CsDocument   *document,
                          PangoContext *context)
{
  CsCpuPlotPainter *self = g_new0 (CsCpuPlotPainter, 1);

  self->document = document;
  self->pango_context = context;
  self->task_styles = g_hash_table_new_full (NULL, NULL, NULL, task_style_free);
  self->ellipsis_layout = _cs_layout_new (context, LABEL_FONT);
  pango_layout_set_ellipsize (self->ellipsis_layout, PANGO_ELLIPSIZE_END);
  self->slices = g_array_sized_new (FALSE, FALSE, sizeof (CsSlice), 1024);
  self->events = g_array_sized_new (FALSE, FALSE, sizeof (CsEvent), 4096);
  self->bars = g_array_sized_new (FALSE, FALSE, sizeof (Bar), 1024);
  self->marks = g_byte_array_sized_new (2048);
  self->covered = g_byte_array_sized_new (2048);
  return self;
}

/**
 * _cs_cpu_plot_painter_free:
 * @self: (transfer full): a painter
 */
void
_cs_cpu_plot_painter_free (CsCpuPlotPainter *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->task_styles);
  g_object_unref (self->ellipsis_layout);
  g_free (self->columns);
  g_array_unref (self->slices);
  g_array_unref (self->events);
  g_array_unref (self->bars);
  g_byte_array_unref (self->marks);
  g_byte_array_unref (self->covered);
  g_free (self->shares);
  _cs_plot_raster_clear (&self->raster);
  g_clear_object (&self->filter);
  g_free (self);
}

/**
 * _cs_cpu_plot_painter_context_changed:
 * @self: a painter
 *
 * Drops measured labels after the Pango context changed (another target,
 * font options or transform).
 */
void
_cs_cpu_plot_painter_context_changed (CsCpuPlotPainter *self)
{
  GHashTableIter iter;
  gpointer value;

  pango_layout_context_changed (self->ellipsis_layout);
  g_hash_table_iter_init (&iter, self->task_styles);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_clear_object (&((TaskStyle *) value)->layout);
}

/**
 * _cs_cpu_plot_painter_draw:
 * @self: a painter
 * @cr: the target
 * @frame: the frame's geometry
 * @cpu: the CPU whose data is drawn
 * @y_px: top of the plot; it is CS_PLOT_HEIGHT_PX high and spans the time
 *   area of @frame
 * @error: return location for an error of the document (%CS_INDEX_ERROR)
 *
 * Draws the plot's data over its background (drawn by the caller).
 *
 * Returns: %TRUE on success
 */
gboolean
_cs_cpu_plot_painter_draw (CsCpuPlotPainter  *self,
                           cairo_t           *cr,
                           const CsPlotFrame *frame,
                           guint              cpu,
                           double             y_px,
                           GError           **error)
{
  const CsCpuInfo *info = cs_document_get_cpu (self->document, cpu);
  gboolean has_sched_switch;

  self->filter_exact = TRUE;
  if (frame->n_columns == 0 || info == NULL || info->n_events == 0)
    return TRUE;
  has_sched_switch = info->has_sched_switch;

  if (!frame->zoomed_in)
    {
      /* Columns from summaries: who ran and how many events, whatever the
       * filter. */
      self->filter_exact = self->filter == NULL;
      if (has_sched_switch)
        return draw_busy_columns (self, cr, frame, cpu, y_px, error);
      return draw_density_columns (self, cr, frame, cpu, y_px, error);
    }

  if (has_sched_switch && !draw_slices (self, cr, frame, cpu, y_px, error))
    return FALSE;
  return draw_events (self, cr, frame, cpu, y_px,
                      has_sched_switch ? EVENT_TICK_PX : CS_PLOT_HEIGHT_PX * 0.6,
                      cs_document_get_summary_resolution_ns (self->document), error);
}

/**
 * _cs_cpu_plot_painter_set_filter:
 * @self: a painter
 * @filter: (nullable) (transfer none): which events show; %NULL for all.
 *   The painter keeps a copy.
 * @hide: whether events @filter rejects are left out (%TRUE) or drawn
 *   faint (%FALSE)
 *
 * Applies an event filter to the event ticks of the plots drawn next.
 */
void
_cs_cpu_plot_painter_set_filter (CsCpuPlotPainter *self,
                                 CsEventFilter    *filter,
                                 gboolean          hide)
{
  g_clear_object (&self->filter);
  if (filter != NULL && !cs_event_filter_is_empty (filter))
    self->filter = cs_event_filter_copy (filter);
  self->hide_filtered = hide;
}

/**
 * _cs_cpu_plot_painter_get_filter_exact:
 * @self: a painter
 *
 * Returns: %FALSE when the last plot drawn had a filter to apply but was
 *   drawn from summaries, so that it shows filtered events too
 */
gboolean
_cs_cpu_plot_painter_get_filter_exact (CsCpuPlotPainter *self)
{
  return self->filter_exact;
}
