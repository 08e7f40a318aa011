/* cs-cli-render-streams.c: `chronoscope render FILE --add FILE2 -o OUT`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Draws the recording and the ones --add names on one time axis, as the
 * window shows several recordings (CsStreamSet, CsStreamsRenderer): a
 * group per recording with its header row, the first drawn by the
 * renderer `render` configured (--cpu, --pid, --task, --row).  The picture
 * is the timeline's pixels (what --plain draws for one recording): PNG, SVG
 * or a PDF of the pixel size at 96 dpi.  The span is --begin/--end on the
 * first recording's clock, or every recording's events on the axis.
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "cs-cli-private.h"
#include "cs-cli-render-streams.h"
#include "cs-streams-renderer.h"

static cairo_surface_t *
create_surface (const CsExportOptions *options, const char *output, int height_px)
{
  switch (options->format)
    {
    case CS_EXPORT_SVG:
      return cairo_svg_surface_create (output, options->width_px, height_px);
    case CS_EXPORT_PDF:
      /* 96 px to the inch, 72 pt to the inch */
      {
        cairo_surface_t *s = cairo_pdf_surface_create (output, options->width_px * 0.75,
                                                       height_px * 0.75);
        cairo_surface_set_fallback_resolution (s, 96, 96);
        return s;
      }
    case CS_EXPORT_PNG:
    default:
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, options->width_px, height_px);
    }
}

/**
 * cs_cli_render_streams:
 * @renderer: the first recording's renderer, configured by `render`
 * @added: (array zero-terminated=1): the recordings to add
 * @options: the picture's format, span (begin_ns >= end_ns: every event
 *   on the axis) and size (height 0: every group)
 * @output: the file to write
 *
 * Loads each of @added (indexing it, or reusing its index, as `render`
 * does), relates them to the first (cs_stream_set_add()), prints each
 * stream's alignment note on stderr, and draws all of them.  Failures are
 * printed on stderr.
 *
 * Returns: the exit status: 0, or 1 on failure
 */
int
cs_cli_render_streams (CsTimelineRenderer    *renderer,
                       const char * const    *added,
                       const CsExportOptions *options,
                       const char            *output)
{
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsStreamsRenderer) streams = cs_streams_renderer_new (set);
  g_autoptr(GError) error = NULL;
  CsViewport viewport;
  cairo_surface_t *surface;
  cairo_status_t status;
  CsStream *first;
  cairo_t *cr;
  gboolean ok;

  first = cs_stream_set_add (set, cs_timeline_renderer_get_document (renderer), NULL);
  cs_streams_renderer_set_stream_renderer (streams, first, renderer);
  for (guint i = 0; added[i] != NULL; i++)
    {
      g_autoptr(CsDocument) document = _cs_cli_load_document ("render", added[i]);
      CsStream *s;

      if (document == NULL)
        return 1;
      s = cs_stream_set_add (set, document, NULL);
      g_printerr ("%s: %s\n", cs_stream_get_name (s), cs_stream_get_note (s));
    }
  /* the drawing only peeks at a guest's host view, which a window builds
   * in the background; one picture has no main loop to wait in: read it now */
  for (guint i = 0; i < cs_stream_set_get_n_streams (set); i++)
    cs_stream_get_vcpu_timeline (cs_stream_set_get_stream (set, i));

  viewport.begin_ns = options->begin_ns;
  viewport.end_ns = options->end_ns;
  if (viewport.end_ns <= viewport.begin_ns)
    {
      if (!cs_stream_set_get_span (set, &viewport.begin_ns, &viewport.end_ns))
        viewport.end_ns = viewport.begin_ns + 1;
      viewport.end_ns++;
    }
  viewport.width_px = options->width_px;
  viewport.height_px = options->height_px > 0 ? options->height_px
                                               : MAX (cs_streams_renderer_get_natural_height (streams), 1);

  surface = create_surface (options, output, viewport.height_px);
  cr = cairo_create (surface);
  ok = cs_streams_renderer_draw (streams, cr, &viewport, &error);
  cairo_destroy (cr);
  if (options->format == CS_EXPORT_PNG)
    status = cairo_surface_write_to_png (surface, output);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (!ok)
    {
      _cs_cli_fail ("render", error->message);
      return 1;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *message = g_strdup_printf (_("Cannot write %s: %s"), output,
                                                  cairo_status_to_string (status));
      _cs_cli_fail ("render", message);
      return 1;
    }
  return 0;
}
