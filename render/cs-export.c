/* cs-export.c: the timeline as a picture for slides (PNG, SVG or PDF).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout, top to bottom: the title line (TITLE_HEIGHT_PX), a band for the
 * markers' letters (MARKER_BAND_PX), the renderer's own drawing at the
 * picture's full width (so that its pixels are the window's pixels for the
 * same span and width), then the legend of the tasks shown: the task plots
 * first, then the tasks that ran longest in the span (they are what the
 * CPU plots show), MAX_LEGEND_TASKS in all.
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "cs-export.h"
#include "cs-palette.h"
#include "cs-range-stats.h"
#include "cs-text-runs-private.h"
#include "cs-theme-private.h"
#include "cs-time-axis.h"

#define TITLE_HEIGHT_PX   30
#define MARKER_BAND_PX    16
#define MARGIN_PX         8
#define LEGEND_ROW_PX     20
#define LEGEND_SWATCH_PX  12
#define LEGEND_GAP_PX     24
#define MAX_LEGEND_TASKS  16
#define PX_PER_MM         (96.0 / 25.4)
#define PT_PER_PX         0.75
#define TITLE_FONT        "Sans Bold 11"
#define TEXT_FONT         "Sans 9"

/* GNOME palette green 5 and red 3, as the window draws markers A and B. */
static const CsColor marker_colors[2] = {
  { 0.149, 0.635, 0.412 },
  { 0.878, 0.106, 0.141 },
};

G_DEFINE_QUARK (cs-export-error-quark, cs_export_error)

typedef struct {
  gint32 pid;
  char *text;
} LegendEntry;

static void
legend_entry_clear (gpointer data)
{
  g_free (((LegendEntry *) data)->text);
}

static void
add_entry (GArray     *entries,
           GHashTable *seen,
           CsDocument *document,
           gint32      pid)
{
  LegendEntry entry;

  if (pid == 0 || entries->len >= MAX_LEGEND_TASKS ||
      !g_hash_table_add (seen, GINT_TO_POINTER (pid)))
    return;
  entry.pid = pid;
  entry.text = g_strdup_printf ("%s %d", cs_document_get_comm (document, pid), pid);
  g_array_append_val (entries, entry);
}

/* The tasks the legend lists, in order (see the top of the file). */
static GArray *
collect_legend (CsTimelineRenderer    *renderer,
                const CsExportOptions *options)
{
  CsDocument *document = cs_timeline_renderer_get_document (renderer);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  GArray *tasks;
  const gint32 *pids;
  guint n_pids;

  g_array_set_clear_func (entries, legend_entry_clear);


  pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);
  for (guint i = 0; i < n_pids; i++)
    add_entry (entries, seen, document, pids[i]);

  /* A span the index cannot answer for leaves only the task plots: the
   * picture is still worth having, and the renderer reports the error. */
  if (options->legend_tasks != NULL)
    tasks = g_array_ref (options->legend_tasks);
  else
    tasks = cs_export_compute_legend_tasks (document, options->begin_ns, options->end_ns,
                                            NULL, &error);
  if (tasks != NULL)
    {
      for (guint i = 0; i < tasks->len; i++)
        add_entry (entries, seen, document, g_array_index (tasks, gint32, i));
      g_array_unref (tasks);
    }

  return entries;
}

/**
 * cs_export_compute_legend_tasks:
 * @document: the recording; used from the calling thread only (any
 *   thread: open one per thread)
 * @begin_ns: start of the span (trace clock, ns), inclusive
 * @end_ns: its end, exclusive
 * @cancellable: (nullable): stops the computation
 * @error: cs_document_compute_task_times()'s errors, %G_IO_ERROR_CANCELLED
 *
 * The tasks an export's legend lists after the task plots: those that ran
 * in [@begin_ns, @end_ns), longest first (ties by increasing pid), as
 * cs_document_compute_task_times() gives them.  Nothing else of the
 * range's statistics is computed (no event counts, no wakeup latencies):
 * for the whole recording this reads only the index's tasks table, for a
 * span at most half the recording's sched_switch slices.  Split off so
 * that the window can run it in a worker thread and draw on the main
 * thread (#CsExportOptions.legend_tasks).
 *
 * Returns: (transfer full) (element-type gint32) (nullable): the pids
 */
GArray *
cs_export_compute_legend_tasks (CsDocument    *document,
                                gint64         begin_ns,
                                gint64         end_ns,
                                GCancellable  *cancellable,
                                GError       **error)
{
  g_autoptr(GArray) times = NULL;
  GArray *tasks;

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);

  times = cs_document_compute_task_times (document, begin_ns, end_ns, cancellable, error);
  if (times == NULL)
    return NULL;
  tasks = g_array_sized_new (FALSE, FALSE, sizeof (gint32), times->len);
  for (guint i = 0; i < times->len; i++)
    {
      gint32 pid = g_array_index (times, CsTaskTime, i).pid;

      g_array_append_val (tasks, pid);
    }
  return tasks;
}

static PangoLayout *
new_layout (PangoContext *context, const char *font, const char *text)
{
  PangoLayout *layout = pango_layout_new (context);
  PangoFontDescription *desc = pango_font_description_from_string (font);

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

/* Columns of the legend: every entry gets the widest entry's width. */
static void
legend_geometry (PangoContext *context,
                 GArray       *entries,
                 int           width_px,
                 int          *column_px,
                 int          *n_columns,
                 int          *height_px)
{
  int widest = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      g_autoptr(PangoLayout) layout =
        new_layout (context, TEXT_FONT, g_array_index (entries, LegendEntry, i).text);
      int w;

      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }

  *column_px = LEGEND_SWATCH_PX + 6 + widest + LEGEND_GAP_PX;
  *n_columns = MAX (1, (width_px - 2 * MARGIN_PX) / *column_px);
  *height_px = entries->len == 0 ? 0
             : MARGIN_PX * 2 + LEGEND_ROW_PX * (int) ((entries->len + *n_columns - 1) / *n_columns);
}

static PangoContext *
new_measuring_context (void)
{
  PangoFontMap *map = pango_cairo_font_map_get_default ();

  return pango_font_map_create_context (map);
}

/**
 * cs_export_options_init:
 * @options: (out caller-allocates): the options to fill
 * @document: the recording to export
 *
 * Fills @options with the defaults: PNG, the whole recording (first event
 * up to just after the last), 1600 px wide, natural height, no PDF page
 * size, no markers, the trace file's base name as title.
 */
void
cs_export_options_init (CsExportOptions *options,
                        CsDocument      *document)
{
  g_return_if_fail (options != NULL);
  g_return_if_fail (CS_IS_DOCUMENT (document));

  *options = (CsExportOptions) {
    .format = CS_EXPORT_PNG,
    .begin_ns = cs_document_get_first_ns (document),
    .end_ns = cs_document_get_last_ns (document) + 1,
    .width_px = 1600,
    .height_px = 0,
    .marker_a_ns = CS_EXPORT_NO_MARKER,
    .marker_b_ns = CS_EXPORT_NO_MARKER,
  };
  options->end_ns = MAX (options->end_ns, options->begin_ns + 1);
}

/**
 * cs_export_format_from_path:
 * @path: a file name (only its extension is read, case-insensitive)
 * @format: (out): the format its extension names
 * @error: %CS_EXPORT_ERROR_FORMAT when it is not .png, .svg or .pdf
 *
 * Returns: whether @format was set
 */
gboolean
cs_export_format_from_path (const char      *path,
                            CsExportFormat  *format,
                            GError         **error)
{
  const char *dot = strrchr (path, '.');

  if (dot != NULL && g_ascii_strcasecmp (dot, ".png") == 0)
    *format = CS_EXPORT_PNG;
  else if (dot != NULL && g_ascii_strcasecmp (dot, ".svg") == 0)
    *format = CS_EXPORT_SVG;
  else if (dot != NULL && g_ascii_strcasecmp (dot, ".pdf") == 0)
    *format = CS_EXPORT_PDF;
  else
    {
      g_set_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_FORMAT,
                   _("%s: the file name must end in .png, .svg or .pdf"), path);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_export_parse_page:
 * @text: "a4", "a4-landscape", "16:9" (a 16:9 slide, 254 × 142.875 mm as
 *   office suites make them) or "WxHmm" (e.g. "200x100mm")
 * @width_mm: (out): page width, mm
 * @height_mm: (out): page height, mm
 * @error: %CS_EXPORT_ERROR_PAGE when @text is none of those, or a side is
 *   not within 10 .. 5000 mm
 *
 * Returns: whether the outputs were set
 */
gboolean
cs_export_parse_page (const char  *text,
                      double      *width_mm,
                      double      *height_mm,
                      GError     **error)
{
  double w = 0, h = 0;

  if (g_ascii_strcasecmp (text, "a4") == 0)
    w = 210, h = 297;
  else if (g_ascii_strcasecmp (text, "a4-landscape") == 0)
    w = 297, h = 210;
  else if (strcmp (text, "16:9") == 0)
    w = 254, h = 142.875;
  else if (g_str_has_suffix (text, "mm"))
    {
      char *end;

      w = g_ascii_strtod (text, &end);
      if (*end == 'x' || *end == 'X')
        h = g_ascii_strtod (end + 1, &end);
      if (strcmp (end, "mm") != 0)
        w = h = 0;
    }

  if (!(w >= 10 && w <= 5000 && h >= 10 && h <= 5000))
    {
      g_set_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_PAGE,
                   _("Page size “%s”: expected a4, a4-landscape, 16:9 or WxHmm "
                     "with sides of 10 to 5000 mm"), text);
      return FALSE;
    }
  *width_mm = w;
  *height_mm = h;
  return TRUE;
}

/**
 * cs_export_get_timeline_y:
 * @options: the export
 *
 * Returns: where the renderer's drawing starts in an export, px from the
 *   top; it spans the picture's full width, so the export's pixels there
 *   are cs_timeline_renderer_draw()'s for the same span and width
 */
double
cs_export_get_timeline_y (const CsExportOptions *options)
{
  return options->plain ? 0 : TITLE_HEIGHT_PX + MARKER_BAND_PX;
}

/**
 * cs_export_get_size:
 * @renderer: what draws the plots (its CPUs, task plots and plugin rows)
 * @options: the export
 * @width_px: (out): the picture's width, px
 * @height_px: (out): the picture's height, px: @options' when given, else
 *   room for the title, every plot and the legend (only the plots when
 *   @options->plain)
 *
 * The size of the picture cs_export_write() draws.  For a PDF with a page
 * size, the page at 96 px per inch.  Main thread of @renderer's document.
 */
void
cs_export_get_size (CsTimelineRenderer    *renderer,
                    const CsExportOptions *options,
                    int                   *width_px,
                    int                   *height_px)
{
  g_autoptr(GArray) entries = NULL;
  PangoContext *context;
  int column_px, n_columns, legend_px;

  if (options->format == CS_EXPORT_PDF && options->page_width_mm > 0)
    {
      *width_px = (int) round (options->page_width_mm * PX_PER_MM);
      *height_px = (int) round (options->page_height_mm * PX_PER_MM);
      return;
    }

  *width_px = options->width_px;
  if (options->height_px > 0)
    {
      *height_px = options->height_px;
      return;
    }

  if (options->plain)
    {
      *height_px = MAX (cs_timeline_renderer_get_natural_height (renderer), 1);
      return;
    }
  entries = collect_legend (renderer, options);
  context = new_measuring_context ();
  legend_geometry (context, entries, *width_px, &column_px, &n_columns, &legend_px);
  g_object_unref (context);
  *height_px = (int) cs_export_get_timeline_y (options)
             + cs_timeline_renderer_get_natural_height (renderer) + legend_px;
}

static void
draw_title (cairo_t               *cr,
            PangoContext          *context,
            CsDocument            *document,
            const CsExportOptions *options,
            int                    width_px)
{
  g_autofree char *base = g_path_get_basename (cs_document_get_trace_path (document));
  g_autofree char *begin = cs_time_format_timestamp (options->begin_ns);
  g_autofree char *end = cs_time_format_timestamp (options->end_ns);
  g_autofree char *span = cs_time_format_duration (options->end_ns - options->begin_ns);
  g_autofree char *title = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  int height;

  /* TRANSLATORS: the title line of an exported picture: the recording's
   * file name, its trace clock, then the span shown (two timestamps in
   * seconds and its duration with its unit) */
  title = g_strdup_printf (_("%s — clock %s — %s s to %s s (%s)"),
                           options->title != NULL ? options->title : base,
                           cs_document_get_clock (document), begin, end, span);
  layout = new_layout (context, TITLE_FONT, title);
  pango_layout_set_width (layout, (width_px - 2 * MARGIN_PX) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_pixel_size (layout, NULL, &height);
  _cs_theme_set_source (cr, &cs_theme_get (CS_COLOR_SCHEME_LIGHT)->text);
  cairo_move_to (cr, MARGIN_PX, floor ((TITLE_HEIGHT_PX - height) / 2.0));
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
}

static gboolean
marker_x (CsTimelineRenderer *renderer,
          const CsViewport   *viewport,
          gint64              ts_ns,
          double             *x)
{
  double time_x, time_width;

  if (ts_ns == CS_EXPORT_NO_MARKER)
    return FALSE;
  cs_timeline_renderer_get_time_area (renderer, viewport, &time_x, &time_width);
  *x = floor (cs_timeline_renderer_ns_to_x (renderer, viewport, ts_ns)) + 0.5;
  return *x >= time_x && *x <= time_x + time_width;
}

/* Markers' lines over the plots, their letters in the band above, and
 * B − A right of B's letter when both are placed. */
static void
draw_markers (cairo_t               *cr,
              PangoContext          *context,
              CsTimelineRenderer    *renderer,
              const CsViewport      *viewport,
              const CsExportOptions *options,
              double                 timeline_height)
{
  const gint64 times[2] = { options->marker_a_ns, options->marker_b_ns };
  const double top = options->plain ? 0 : TITLE_HEIGHT_PX;
  const double band = options->plain ? 0 : MARKER_BAND_PX;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(PangoLayout) layout = NULL;
      g_autofree char *text = NULL;
      const CsColor *color = &marker_colors[i];
      double x;
      int w, h;

      if (!marker_x (renderer, viewport, times[i], &x))
        continue;

      cairo_set_source_rgba (cr, color->red, color->green, color->blue, 0.85);
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, top + band + timeline_height);
      cairo_stroke (cr);
      if (options->plain)
        continue;

      if (i == 1 && times[0] != CS_EXPORT_NO_MARKER)
        {
          g_autofree char *delta = cs_time_format_duration (times[1] - times[0]);

          /* TRANSLATORS: marker B's label in an export, with the distance
           * between the markers, "B   B − A 350.692 µs" */
          text = g_strdup_printf (_("B   B − A %s"), delta);
        }
      else
        text = g_strdup (i == 0 ? "A" : "B");

      layout = new_layout (context, TEXT_FONT, text);
      pango_layout_get_pixel_size (layout, &w, &h);
      _cs_theme_set_source (cr, color);
      cairo_rectangle (cr, x, top, w + 8, MARKER_BAND_PX);
      cairo_fill (cr);
      _cs_theme_set_source (cr, &cs_theme_get (CS_COLOR_SCHEME_LIGHT)->page);
      cairo_move_to (cr, x + 4, top + floor ((MARKER_BAND_PX - h) / 2.0));
      _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
    }
}

static void
draw_legend (cairo_t      *cr,
             PangoContext *context,
             GArray       *entries,
             int           width_px,
             double        y)
{
  int column_px, n_columns, legend_px;

  legend_geometry (context, entries, width_px, &column_px, &n_columns, &legend_px);
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *entry = &g_array_index (entries, LegendEntry, i);
      g_autoptr(PangoLayout) layout = new_layout (context, TEXT_FONT, entry->text);
      double x = MARGIN_PX + (i % n_columns) * column_px;
      double row_y = y + MARGIN_PX + (i / n_columns) * LEGEND_ROW_PX;
      CsColor color;
      int h;

      cs_palette_get_task_color (entry->pid, &color);
      _cs_theme_set_source (cr, &color);
      cairo_rectangle (cr, x, row_y + (LEGEND_ROW_PX - LEGEND_SWATCH_PX) / 2,
                       LEGEND_SWATCH_PX, LEGEND_SWATCH_PX);
      cairo_fill (cr);

      pango_layout_get_pixel_size (layout, NULL, &h);
      _cs_theme_set_source (cr, &cs_theme_get (CS_COLOR_SCHEME_LIGHT)->text);
      cairo_move_to (cr, x + LEGEND_SWATCH_PX + 6, row_y + floor ((LEGEND_ROW_PX - h) / 2.0));
      _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
    }
}

/**
 * cs_export_draw:
 * @renderer: what draws the plots
 * @cr: where to draw, in px from (0, 0)
 * @options: the span, markers and title
 * @width_px: the picture's width, px (as cs_export_get_size() gives it)
 * @height_px: the picture's height, px
 * @error: the renderer's error (its document's domain) when the index
 *   cannot be read
 *
 * Draws the whole picture: white page, title line, markers, the
 * renderer's plots at cs_export_get_timeline_y(), the legend below them
 * (clipped when @height_px leaves no room); with @options->plain only the
 * plots and the markers' lines.  Main thread of @renderer's document.
 *
 * Returns: whether everything was drawn
 */
gboolean
cs_export_draw (CsTimelineRenderer    *renderer,
                cairo_t               *cr,
                const CsExportOptions *options,
                int                    width_px,
                int                    height_px,
                GError               **error)
{
  CsDocument *document = cs_timeline_renderer_get_document (renderer);
  g_autoptr(GArray) entries = NULL;
  PangoContext *context = pango_cairo_create_context (cr);
  double timeline_y = cs_export_get_timeline_y (options);
  int column_px = 0, n_columns = 1, legend_px = 0;
  int timeline_px;
  CsViewport viewport;
  const CsTheme *light = cs_theme_get (CS_COLOR_SCHEME_LIGHT);
  CsColorScheme scheme;
  gboolean ok;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (renderer), FALSE);
  g_return_val_if_fail (options->end_ns > options->begin_ns, FALSE);

  entries = options->plain ? g_array_new (FALSE, FALSE, sizeof (LegendEntry))
                           : collect_legend (renderer, options);
  legend_geometry (context, entries, width_px, &column_px, &n_columns, &legend_px);
  timeline_px = MIN (cs_timeline_renderer_get_natural_height (renderer),
                     height_px - (int) timeline_y - legend_px);
  timeline_px = MAX (timeline_px, 1);

  /* Slides are light whatever the desktop's style. */
  scheme = cs_timeline_renderer_get_color_scheme (renderer);
  cs_timeline_renderer_set_color_scheme (renderer, CS_COLOR_SCHEME_LIGHT);

  cairo_save (cr);
  _cs_theme_set_source (cr, &light->page);
  cairo_paint (cr);
  if (!options->plain)
    draw_title (cr, context, document, options, width_px);

  viewport = (CsViewport) { options->begin_ns, options->end_ns, width_px, timeline_px };
  cairo_save (cr);
  cairo_translate (cr, 0, timeline_y);
  ok = cs_timeline_renderer_draw (renderer, cr, &viewport, error);
  cairo_restore (cr);

  draw_markers (cr, context, renderer, &viewport, options, timeline_px);
  draw_legend (cr, context, entries, width_px, timeline_y + timeline_px);
  cairo_restore (cr);
  cs_timeline_renderer_set_color_scheme (renderer, scheme);
  g_object_unref (context);
  return ok;
}

static cairo_status_t
write_cb (void                *closure,
          const unsigned char *data,
          unsigned int         length)
{
  return fwrite (data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                     : CAIRO_STATUS_WRITE_ERROR;
}

static cairo_status_t
append_cb (void                *closure,
           const unsigned char *data,
           unsigned int         length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* cairo's SVG with the texts it did not draw (see cs-text-runs-private.h). */
static cairo_status_t
write_svg (GString *svg, CsTextRuns *text_runs, FILE *file)
{
  if (!_cs_text_runs_insert_svg (text_runs, svg))
    {
      errno = EIO;  /* cairo wrote no </svg>: not an SVG to give */
      return CAIRO_STATUS_WRITE_ERROR;
    }
  return write_cb (file, (const unsigned char *) svg->str, (unsigned int) svg->len);
}

static void
set_write_error (GError **error, const char *path, int saved_errno, cairo_status_t status)
{
  g_set_error (error, G_FILE_ERROR,
               saved_errno != 0 ? g_file_error_from_errno (saved_errno) : G_FILE_ERROR_IO,
               _("Could not write %s: %s"), path,
               status == CAIRO_STATUS_WRITE_ERROR && saved_errno != 0
                 ? g_strerror (saved_errno) : cairo_status_to_string (status));
}

/**
 * cs_export_write:
 * @renderer: what draws the plots (its CPUs, task plots, plugin rows and
 *   event filter are the view exported)
 * @options: the export; @options->format decides the file's kind whatever
 *   @path's extension
 * @path: the file to write (replaced; removed again when writing fails)
 * @error: %CS_EXPORT_ERROR_SIZE for a size out of range, %G_FILE_ERROR
 *   naming @path when it cannot be written, or the renderer's error
 *
 * Draws the picture (see cs_export_draw()) into a new file: a PNG of
 * cs_export_get_size() pixels, an SVG of as many px, or a one-page PDF of
 * @options' page size (or of the px size at 96 dpi).  The SVG's labels,
 * title and legend are `<text>` elements (font family, size, weight,
 * fill, anchor), in a group of their own above cairo's drawing.  Main
 * thread of @renderer's document.
 *
 * Returns: whether the file was written
 */
gboolean
cs_export_write (CsTimelineRenderer    *renderer,
                 const CsExportOptions *options,
                 const char            *path,
                 GError               **error)
{
  g_autoptr(GString) svg = NULL;
  g_autoptr(CsTextRuns) text_runs = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  FILE *file;
  int width_px, height_px;
  double page_width_pt = 0, page_height_pt = 0;
  int saved_errno = 0;
  gboolean drawn;
  g_autoptr(GArray) legend_tasks = NULL;
  CsExportOptions with_legend;

  g_return_val_if_fail (CS_IS_TIMELINE_RENDERER (renderer), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (options->end_ns <= options->begin_ns)
    {
      g_set_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_SIZE,
                   _("The span to export is empty (%" PRId64 " to %" PRId64 " ns)"),
                   options->begin_ns, options->end_ns);
      return FALSE;
    }
  /* The legend's tasks once, for the size and the drawing (a span's cost
   * is a read of its slices); an error leaves only the task plots. */
  if (options->legend_tasks == NULL && !options->plain)
    {
      with_legend = *options;
      with_legend.legend_tasks = legend_tasks =
        cs_export_compute_legend_tasks (cs_timeline_renderer_get_document (renderer),
                                        options->begin_ns, options->end_ns, NULL, NULL);
      if (legend_tasks != NULL)
        options = &with_legend;
    }
  cs_export_get_size (renderer, options, &width_px, &height_px);
  if (width_px < 1 || width_px > CS_EXPORT_MAX_SIZE_PX ||
      height_px < 1 || height_px > CS_EXPORT_MAX_SIZE_PX)
    {
      g_set_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_SIZE,
                   _("A picture of %d × %d px: width and height must be between 1 and %d"),
                   width_px, height_px, CS_EXPORT_MAX_SIZE_PX);
      return FALSE;
    }

  file = g_fopen (path, "wb");
  if (file == NULL)
    {
      set_write_error (error, path, errno, CAIRO_STATUS_WRITE_ERROR);
      return FALSE;
    }

  switch (options->format)
    {
    case CS_EXPORT_SVG:
      /* Kept in memory: the texts go in after cairo's last word. */
      svg = g_string_new (NULL);
      surface = cairo_svg_surface_create_for_stream (append_cb, svg, width_px, height_px);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      text_runs = _cs_text_runs_new ();
      _cs_text_runs_attach (text_runs, surface, width_px, height_px);
      break;
    case CS_EXPORT_PDF:
      /* The page's own size in pt, not the rounded px size's. */
      page_width_pt = options->page_width_mm > 0 ? options->page_width_mm / 25.4 * 72
                                                 : width_px * PT_PER_PX;
      page_height_pt = options->page_width_mm > 0 ? options->page_height_mm / 25.4 * 72
                                                  : height_px * PT_PER_PX;
      surface = cairo_pdf_surface_create_for_stream (write_cb, file, page_width_pt,
                                                     page_height_pt);
      break;
    case CS_EXPORT_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width_px, height_px);
      break;
    }

  cr = cairo_create (surface);
  if (options->format == CS_EXPORT_PDF)
    cairo_scale (cr, page_width_pt / width_px, page_height_pt / height_px);
  drawn = cs_export_draw (renderer, cr, options, width_px, height_px, error);
  cairo_destroy (cr);

  if (options->format == CS_EXPORT_PNG && drawn)
    status = cairo_surface_write_to_png_stream (surface, write_cb, file);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
      if (svg != NULL && drawn && status == CAIRO_STATUS_SUCCESS)
        status = write_svg (svg, text_runs, file);
    }
  if (status == CAIRO_STATUS_WRITE_ERROR)
    saved_errno = errno;
  cairo_surface_destroy (surface);
  if (fclose (file) != 0 && status == CAIRO_STATUS_SUCCESS)
    {
      saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }

  if (drawn && status != CAIRO_STATUS_SUCCESS)
    set_write_error (error, path, saved_errno, status);
  if (!drawn || status != CAIRO_STATUS_SUCCESS)
    {
      g_unlink (path);
      return FALSE;
    }
  return TRUE;
}
