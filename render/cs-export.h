/* cs-export.h: the timeline as a picture for slides (PNG, SVG or PDF).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An export is the renderer's drawing (plots, time axis, plugin rows) with
 * a title line above it (the recording's file name, its trace clock, the
 * span and, when both markers are placed, B − A), markers A and B drawn
 * over the plots, and a legend of the tasks shown below (colour swatch,
 * comm and pid).  Always the light scheme, whatever the desktop's theme.
 * SVG and PDF go through cairo's vector surfaces with Pango, so their text
 * stays text, never pixels: Pango's in the PDF, `<text>` elements in the
 * SVG (cairo 1.16 would write glyph outlines there; see
 * cs-text-runs-private.h).
 *
 * Sizes are in device-independent pixels; a PDF page is in millimetres and
 * drawn at 96 px per inch (1 px = 0.75 pt), so a page of W × H mm holds a
 * picture of W / 25.4 × 96 by H / 25.4 × 96 px.
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * CS_EXPORT_ERROR:
 *
 * Error domain of the export.  Errors in this domain are from the
 * #CsExportError enumeration; failures to write the file are
 * %G_FILE_ERROR, naming the file.
 */
#define CS_EXPORT_ERROR (cs_export_error_quark ())
GQuark cs_export_error_quark (void);

/**
 * CsExportError:
 * @CS_EXPORT_ERROR_FORMAT: the file name's extension is not .png, .svg or
 *   .pdf
 * @CS_EXPORT_ERROR_PAGE: a page size that cannot be read or is out of range
 * @CS_EXPORT_ERROR_SIZE: a picture size out of range
 */
typedef enum {
  CS_EXPORT_ERROR_FORMAT,
  CS_EXPORT_ERROR_PAGE,
  CS_EXPORT_ERROR_SIZE,
} CsExportError;

/**
 * CsExportFormat:
 * @CS_EXPORT_PNG: a PNG image (pixels)
 * @CS_EXPORT_SVG: an SVG drawing, one px per SVG user unit
 * @CS_EXPORT_PDF: a one-page PDF
 */
typedef enum {
  CS_EXPORT_PNG,
  CS_EXPORT_SVG,
  CS_EXPORT_PDF,
} CsExportFormat;

/**
 * CS_EXPORT_MAX_SIZE_PX:
 *
 * The largest width or height of an export, in px.
 */
#define CS_EXPORT_MAX_SIZE_PX 32768

/**
 * CS_EXPORT_NO_MARKER:
 *
 * The time of a marker that is not drawn.
 */
#define CS_EXPORT_NO_MARKER G_GINT64_CONSTANT (-1)

/**
 * CsExportOptions:
 * @format: the kind of file
 * @begin_ns: first time drawn (trace clock, ns), inclusive
 * @end_ns: end of the span drawn, exclusive; > @begin_ns
 * @width_px: width of the picture in px, 1 .. %CS_EXPORT_MAX_SIZE_PX;
 *   for a PDF with a page size, ignored
 * @height_px: height of the picture in px, or 0 for room for the title,
 *   every plot and the legend; for a PDF with a page size, ignored
 * @page_width_mm: the PDF's page width in mm (0: from @width_px at 96 dpi);
 *   only for %CS_EXPORT_PDF
 * @page_height_mm: the PDF's page height in mm, > 0 when @page_width_mm is
 * @marker_a_ns: time of marker A, or %CS_EXPORT_NO_MARKER
 * @marker_b_ns: time of marker B, or %CS_EXPORT_NO_MARKER
 * @title: (nullable): the title line's name of the recording; NULL for the
 *   base name of the document's trace file
 * @plain: only the renderer's drawing (with the markers' lines), without
 *   title line, markers' band or legend: the window's timeline as it is
 * @legend_tasks: (nullable) (element-type gint32): the tasks that ran
 *   longest in the span, longest first, as cs_export_compute_legend_tasks()
 *   gives them (computed beforehand, e.g. in a worker thread); NULL: the
 *   export computes them while it draws (instant for the whole recording,
 *   at most half its sched_switch slices for a span).  Borrowed.
 *
 * What to export.  Initialise with cs_export_options_init().
 */
typedef struct {
  CsExportFormat format;
  gint64 begin_ns;
  gint64 end_ns;
  int width_px;
  int height_px;
  double page_width_mm;
  double page_height_mm;
  gint64 marker_a_ns;
  gint64 marker_b_ns;
  const char *title;
  gboolean plain;
  GArray *legend_tasks;
} CsExportOptions;

void     cs_export_options_init      (CsExportOptions    *options,
                                      CsDocument         *document);
gboolean cs_export_format_from_path  (const char         *path,
                                      CsExportFormat     *format,
                                      GError            **error);
gboolean cs_export_parse_page        (const char         *text,
                                      double             *width_mm,
                                      double             *height_mm,
                                      GError            **error);
void     cs_export_get_size          (CsTimelineRenderer *renderer,
                                      const CsExportOptions *options,
                                      int                *width_px,
                                      int                *height_px);
double   cs_export_get_timeline_y    (const CsExportOptions *options);
gboolean cs_export_draw              (CsTimelineRenderer *renderer,
                                      cairo_t            *cr,
                                      const CsExportOptions *options,
                                      int                 width_px,
                                      int                 height_px,
                                      GError            **error);
GArray  *cs_export_compute_legend_tasks (CsDocument      *document,
                                      gint64              begin_ns,
                                      gint64              end_ns,
                                      GCancellable       *cancellable,
                                      GError            **error);
gboolean cs_export_write             (CsTimelineRenderer *renderer,
                                      const CsExportOptions *options,
                                      const char         *path,
                                      GError            **error);

G_END_DECLS
