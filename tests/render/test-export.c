/* test-export.c: the exported picture (PNG, SVG, PDF) of a real recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The files are read back by other programs than the one that wrote them:
 * python3's xml.etree and GLib's GMarkup for the SVG, poppler's pdfinfo
 * and pdftotext for the PDF (poppler-utils, in .ci/packages.txt), cairo's
 * PNG reader for the PNG, whose plots are compared with the renderer's own
 * drawing of the same span and width (what the window's timeline shows).
 * The SVG's labels, title and legend are <text> elements (cairo 1.16 alone
 * would write glyph <symbol>s), placed where the PNG draws them.
 * Recordings as in test-timeline-renderer.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-export.h"
#include "cs-palette.h"
#include "cs-range-stats.h"
#include "cs-timeline-renderer.h"
#include "render-test-util.h"

static const CsTestRecording sched_v6 = { "sched-irq-v6.dat" };

static char *
out_path (const char *name)
{
  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

/* Runs @argv, asserting it exits 0; returns its stdout. */
static char *
run_tool (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", argv[0], err);
  return out;
}

/* The pid that ran longest in the recording: the first of the legend
 * when there are no task plots. */
static gint32
longest_running (CsTestFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  CsRangeStats *stats;
  gint32 pid;

  stats = cs_document_compute_range_stats (fixture->document,
                                           cs_document_get_first_ns (fixture->document),
                                           cs_document_get_last_ns (fixture->document) + 1,
                                           NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->tasks->len, >, 0);
  pid = g_array_index (stats->tasks, CsTaskTime, 0).pid;
  cs_range_stats_free (stats);
  return pid;
}

static gint32
pick_task_plot (CsTestFixture *fixture, gint32 not_pid)
{
  for (guint i = 0; i < cs_document_get_n_tasks (fixture->document); i++)
    {
      const CsTask *task = cs_document_get_task (fixture->document, i);

      if (task->pid != 0 && task->pid != not_pid)
        return task->pid;
    }
  g_assert_not_reached ();
  return 0;
}

static void
fixture_set_up (CsTestFixture *fixture, gconstpointer data)
{
  cs_test_fixture_set_up (fixture, data);
  g_assert_cmpuint (cs_document_get_n_events (fixture->document), >, 0);
}

/* The plots of an exported PNG are the renderer's pixels for the same span
 * and width; above them the title, below them the legend's swatch of the
 * task plot's colour. */
static void
test_png_matches_renderer (CsTestFixture *fixture, gconstpointer data)
{
  g_autofree char *png = out_path ("export.png");
  g_autoptr(GError) error = NULL;
  cairo_surface_t *exported;
  CsExportOptions options;
  CsViewport viewport;
  gint32 pid = pick_task_plot (fixture, 0);
  int width_px, height_px, y0, stride_a, stride_b;
  const guint8 *a, *b;
  guint n_differ = 0, n_title_ink = 0;
  gboolean swatch_found = FALSE;
  CsColor color;
  guint32 swatch;

  cs_timeline_renderer_set_task_plots (fixture->renderer, &pid, 1);
  cs_export_options_init (&options, fixture->document);
  options.width_px = 900;
  g_assert_true (cs_export_write (fixture->renderer, &options, png, &error));
  g_assert_no_error (error);

  exported = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (exported), ==, CAIRO_STATUS_SUCCESS);
  cs_export_get_size (fixture->renderer, &options, &width_px, &height_px);
  g_assert_cmpint (cairo_image_surface_get_width (exported), ==, 900);
  g_assert_cmpint (cairo_image_surface_get_height (exported), ==, height_px);

  viewport = (CsViewport) { options.begin_ns, options.end_ns, 900,
                            cs_timeline_renderer_get_natural_height (fixture->renderer) };
  cs_test_render (fixture, &viewport);
  y0 = (int) cs_export_get_timeline_y (&options);
  g_assert_cmpint (height_px, >, y0 + viewport.height_px);

  a = cairo_image_surface_get_data (exported);
  stride_a = cairo_image_surface_get_stride (exported);
  b = cairo_image_surface_get_data (fixture->surface);
  stride_b = cairo_image_surface_get_stride (fixture->surface);
  for (int y = 0; y < viewport.height_px; y++)
    for (int x = 0; x < 900; x++)
      {
        guint32 pa = *(const guint32 *) (a + (y + y0) * stride_a + 4 * x) & 0xffffff;
        guint32 pb = *(const guint32 *) (b + y * stride_b + 4 * x) & 0xffffff;

        n_differ += !cs_test_same_color (pa, pb, 2);
      }
  /* Same renderer, same size: at most a few antialiased pixels apart. */
  cs_test_check (fixture, n_differ <= 900u * viewport.height_px / 1000,
                 "%u pixels of the export's plots differ from the renderer's", n_differ);

  for (int y = 0; y < y0; y++)
    for (int x = 0; x < 900; x++)
      n_title_ink += (*(const guint32 *) (a + y * stride_a + 4 * x) & 0xffffff) != 0xffffff;
  g_assert_cmpuint (n_title_ink, >, 200);

  cs_palette_get_task_color (pid, &color);
  swatch = cs_color_to_rgb24 (&color);
  for (int y = y0 + viewport.height_px; y < height_px && !swatch_found; y++)
    for (int x = 0; x < 900 && !swatch_found; x++)
      swatch_found = cs_test_same_color (*(const guint32 *) (a + y * stride_a + 4 * x) & 0xffffff,
                                         swatch, 2);
  g_assert_true (swatch_found);

  cairo_surface_destroy (exported);
  g_unlink (png);
}

/* The SVG parses, has the size asked for in px, and writes its text as
 * <text>, not as glyphs (cairo 1.16's <symbol id="glyph…">s). */
static void
test_svg_parses (CsTestFixture *fixture, gconstpointer data)
{
  g_autofree char *svg = out_path ("export.svg");
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  int width_px, height_px;
  const char *script =
    "import sys, xml.etree.ElementTree as ET\n"
    "root = ET.parse(sys.argv[1]).getroot()\n"
    "ns = '{http://www.w3.org/2000/svg}'\n"
    "assert root.tag == ns + 'svg', root.tag\n"
    "glyphs = [s for s in root.iter(ns + 'symbol') if s.get('id', '').startswith('glyph')]\n"
    "texts = len(list(root.iter(ns + 'text')))\n"
    "print(root.get('width'), root.get('height'), len(glyphs), texts > 20)\n";

  cs_export_options_init (&options, fixture->document);
  options.format = CS_EXPORT_SVG;
  options.width_px = 1200;
  g_assert_true (cs_export_write (fixture->renderer, &options, svg, &error));
  g_assert_no_error (error);
  cs_export_get_size (fixture->renderer, &options, &width_px, &height_px);

  {
    const char *argv[] = { "python3", "-c", script, svg, NULL };

    out = run_tool (argv);
  }
  expected = g_strdup_printf ("%dpx %dpx 0 True\n", width_px, height_px);
  g_assert_cmpstr (out, ==, expected);
  g_assert_cmpint (width_px, ==, 1200);
  g_unlink (svg);
}

/* A <text> of an exported SVG, as GMarkup read it. */
typedef struct {
  char *content;
  double x, y, size_px;
  char *family;
  char *anchor;          /* NULL: start */
  int weight;
  guint32 fill;          /* 0xrrggbb */
  gboolean clipped;
} SvgText;

typedef struct {
  GArray *texts;         /* SvgText, in document order */
  guint n_glyphs;        /* <symbol id="glyph…">: cairo's glyph outlines */
  gboolean in_text;
} SvgDocument;

static void
svg_text_clear (gpointer data)
{
  SvgText *text = data;

  g_free (text->content);
  g_free (text->family);
  g_free (text->anchor);
}

static void
svg_start_element (GMarkupParseContext *context, const char *name, const char **names,
                   const char **values, gpointer user_data, GError **error)
{
  SvgDocument *document = user_data;

  if (strcmp (name, "symbol") == 0)
    {
      for (guint i = 0; names[i] != NULL; i++)
        document->n_glyphs += strcmp (names[i], "id") == 0 && g_str_has_prefix (values[i], "glyph");
    }
  else if (strcmp (name, "text") == 0)
    {
      SvgText text = { .content = g_strdup (""), .weight = 400 };

      g_assert_false (document->in_text);
      for (guint i = 0; names[i] != NULL; i++)
        if (strcmp (names[i], "x") == 0)
          text.x = g_ascii_strtod (values[i], NULL);
        else if (strcmp (names[i], "y") == 0)
          text.y = g_ascii_strtod (values[i], NULL);
        else if (strcmp (names[i], "font-size") == 0)
          text.size_px = g_ascii_strtod (values[i], NULL);
        else if (strcmp (names[i], "font-family") == 0)
          text.family = g_strdup (values[i]);
        else if (strcmp (names[i], "font-weight") == 0)
          text.weight = atoi (values[i]);
        else if (strcmp (names[i], "text-anchor") == 0)
          text.anchor = g_strdup (values[i]);
        else if (strcmp (names[i], "fill") == 0)
          {
            g_assert_cmpint (strlen (values[i]), ==, 7);
            g_assert_cmpint (values[i][0], ==, '#');
            text.fill = (guint32) g_ascii_strtoull (values[i] + 1, NULL, 16);
          }
        else if (strcmp (names[i], "clip-path") == 0)
          text.clipped = TRUE;
      g_array_append_val (document->texts, text);
      document->in_text = TRUE;
    }
}

static void
svg_end_element (GMarkupParseContext *context, const char *name, gpointer user_data,
                 GError **error)
{
  ((SvgDocument *) user_data)->in_text = FALSE;
}

static void
svg_text (GMarkupParseContext *context, const char *text, gsize length, gpointer user_data,
          GError **error)
{
  SvgDocument *document = user_data;
  SvgText *open;
  char *joined;

  if (!document->in_text)
    return;
  open = &g_array_index (document->texts, SvgText, document->texts->len - 1);
  joined = g_strdup_printf ("%s%.*s", open->content, (int) length, text);
  g_free (open->content);
  open->content = joined;
}

/* Reads @path with GMarkup, failing the test when it is not well-formed. */
static void
svg_document_load (SvgDocument *document, const char *path)
{
  static const GMarkupParser parser = { svg_start_element, svg_end_element, svg_text, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  *document = (SvgDocument) { g_array_new (FALSE, FALSE, sizeof (SvgText)) };
  g_array_set_clear_func (document->texts, svg_text_clear);
  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, document, NULL);
  g_markup_parse_context_parse (context, contents, (gssize) length, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
}

/* The <text> whose content is @content (or holds it, with @part), NULL
 * when there is none. */
static const SvgText *
svg_find_text (const SvgDocument *document, const char *content, gboolean part)
{
  for (guint i = 0; i < document->texts->len; i++)
    {
      const SvgText *text = &g_array_index (document->texts, SvgText, i);

      if (part ? strstr (text->content, content) != NULL : strcmp (text->content, content) == 0)
        return text;
    }
  return NULL;
}

/* The <text> that shows @content, whole or ellipsized at its end as
 * Pango shortens a label to its room ("qemu-…"), NULL when there is none. */
static const SvgText *
svg_find_label (const SvgDocument *document, const char *content)
{
  const SvgText *whole = svg_find_text (document, content, FALSE);

  for (guint i = 0; i < document->texts->len && whole == NULL; i++)
    {
      const SvgText *text = &g_array_index (document->texts, SvgText, i);
      gsize length = strlen (text->content);

      if (g_str_has_suffix (text->content, "…") && length > strlen ("…") &&
          strncmp (text->content, content, length - strlen ("…")) == 0)
        return text;
    }
  return whole;
}

/* Whether @png has pixels of @color in [@x0, @x1] × [@y0, @y1], px; their
 * leftmost column and lowest row. */
static gboolean
png_find_color (cairo_surface_t *png, guint32 color, double x0, double x1, double y0,
                double y1, int *left, int *bottom)
{
  const guint8 *data = cairo_image_surface_get_data (png);
  int stride = cairo_image_surface_get_stride (png);

  *left = G_MAXINT;
  *bottom = -1;
  for (int y = MAX (0, (int) ceil (y0)); y <= (int) y1 && y < cairo_image_surface_get_height (png); y++)
    for (int x = MAX (0, (int) ceil (x0)); x <= (int) x1 && x < cairo_image_surface_get_width (png); x++)
      if (cs_test_same_color (*(const guint32 *) (data + y * stride + 4 * x) & 0xffffff, color, 24))
        {
          *left = MIN (*left, x);
          *bottom = MAX (*bottom, y);
        }
  return *bottom >= 0;
}

/* Whether @text's glyphs are where @png draws them: its colour lies
 * between the baseline and half the font size above it (where every
 * letter and digit has ink), from the anchor on.  A figure ("31124",
 * "50 ms": no descender) is held closer: its ink starts within the
 * glyphs' left bearing of the anchor and ends on the baseline. */
static gboolean
png_has_text (cairo_surface_t *png, const SvgText *text)
{
  double x = text->x, y = text->y, em = text->size_px;
  int left, bottom;

  if (g_strcmp0 (text->anchor, "middle") == 0)
    return png_find_color (png, text->fill, x - em, x + em, y - 0.45 * em, y, &left, &bottom);
  if (g_strcmp0 (text->anchor, "end") == 0)
    return png_find_color (png, text->fill, x - em, x + 1, y - 0.45 * em, y, &left, &bottom);
  if (text->content[strspn (text->content, "0123456789 .ms")] != '\0')
    return png_find_color (png, text->fill, x - 1, x + 0.6 * em, y - 0.45 * em, y, &left, &bottom);
  return png_find_color (png, text->fill, x - 0.6 * em, x + 1.5 * em, y - em, y + 0.4 * em,
                         &left, &bottom) &&
         left >= x - 0.5 && left <= x + 3.5 && bottom >= y - 1.5 && bottom <= y + 1.1;
}

/* The SVG writes the title, the plots' labels and the legend as <text>
 * elements with a font family, size and colour, and no glyph outlines;
 * each lies where the PNG of the same export draws that text. */
static void
test_svg_text (CsTestFixture *fixture, gconstpointer data)
{
  g_autofree char *svg = out_path ("export-text.svg");
  g_autofree char *png = out_path ("export-text.png");
  g_autofree char *base = g_path_get_basename (cs_document_get_trace_path (fixture->document));
  g_autofree char *title_name = g_strdup_printf ("<%s> & \"“%s”\"", base, base);
  g_autofree char *longest = NULL;
  g_autofree char *plotted = NULL;
  g_autofree char *plotted_pid = NULL;
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  SvgDocument document;
  const SvgText *title, *text;
  cairo_surface_t *exported;
  gint32 longest_pid = longest_running (fixture);
  gint32 pid = pick_task_plot (fixture, longest_pid);
  double timeline_bottom, time_x;
  guint n_placed = 0;
  CsViewport viewport;

  cs_timeline_renderer_set_task_plots (fixture->renderer, &pid, 1);
  cs_export_options_init (&options, fixture->document);
  options.format = CS_EXPORT_SVG;
  options.width_px = 1200;
  options.marker_a_ns = options.begin_ns + (options.end_ns - options.begin_ns) / 4;
  options.marker_b_ns = options.begin_ns + (options.end_ns - options.begin_ns) / 2;
  /* Markup characters a title may hold come back as they were. */
  options.title = title_name;
  g_assert_true (cs_export_write (fixture->renderer, &options, svg, &error));
  g_assert_no_error (error);
  options.format = CS_EXPORT_PNG;
  g_assert_true (cs_export_write (fixture->renderer, &options, png, &error));
  g_assert_no_error (error);

  svg_document_load (&document, svg);
  g_assert_cmpuint (document.n_glyphs, ==, 0);

  /* The title line, bold, above the timeline. */
  title = svg_find_text (&document, title_name, TRUE);
  g_assert_nonnull (title);
  g_assert_nonnull (strstr (title->content, cs_document_get_clock (fixture->document)));
  g_assert_cmpint (title->weight, >=, 700);
  g_assert_cmpfloat (title->y, <, cs_export_get_timeline_y (&options));
  g_assert_nonnull (svg_find_text (&document, "B − A", TRUE));

  /* Every CPU plot's label, in the label column. */
  viewport = (CsViewport) { options.begin_ns, options.end_ns, 1200,
                            cs_timeline_renderer_get_natural_height (fixture->renderer) };
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, NULL);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    {
      g_autofree char *label = g_strdup_printf ("CPU %u", cpu);

      text = svg_find_text (&document, label, FALSE);
      g_assert_nonnull (text);
      g_assert_cmpfloat (text->x, <, time_x);
    }

  /* The task plot's command name and pid, in its label. */
  text = svg_find_label (&document, cs_document_get_comm (fixture->document, pid));
  g_assert_nonnull (text);
  g_assert_cmpfloat (text->x, <, time_x);
  plotted_pid = g_strdup_printf ("%d", pid);
  g_assert_nonnull (svg_find_text (&document, plotted_pid, FALSE));

  /* The legend: the task plot first, then the task that ran longest, below
   * the timeline. */
  timeline_bottom = cs_export_get_timeline_y (&options) + viewport.height_px;
  plotted = g_strdup_printf ("%s %d", cs_document_get_comm (fixture->document, pid), pid);
  longest = g_strdup_printf ("%s %d", cs_document_get_comm (fixture->document, longest_pid),
                             longest_pid);
  text = svg_find_text (&document, plotted, FALSE);
  g_assert_nonnull (text);
  g_assert_cmpfloat (text->y, >, timeline_bottom);
  text = svg_find_text (&document, longest, FALSE);
  g_assert_nonnull (text);
  g_assert_cmpfloat (text->y, >, timeline_bottom);

  /* Each text has a font and a colour, and sits on the PNG's glyphs. */
  exported = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (exported), ==, CAIRO_STATUS_SUCCESS);
  for (guint i = 0; i < document.texts->len; i++)
    {
      text = &g_array_index (document.texts, SvgText, i);
      g_assert_cmpstr (text->content, !=, "");
      g_assert_nonnull (text->family);
      g_assert_nonnull (strstr (text->family, "sans-serif"));
      g_assert_cmpfloat (text->size_px, >=, 8);
      g_assert_cmpfloat (text->size_px, <=, 20);
      if (!text->clipped)
        {
          if (!png_has_text (exported, text))
            g_error ("“%s” at (%g, %g) in %s: no ink of #%06x there in %s", text->content,
                     text->x, text->y, svg, text->fill, png);
          n_placed++;
        }
    }
  g_assert_cmpuint (n_placed, >, 20);

  cairo_surface_destroy (exported);
  g_array_unref (document.texts);
  g_unlink (svg);
  g_unlink (png);
}

/* One page of the asked size, whose text holds the file name, the clock,
 * the legend's tasks and the markers' delta. */
static void
test_pdf_page (CsTestFixture *fixture, gconstpointer data)
{
  g_autofree char *pdf = out_path ("export.pdf");
  g_autofree char *info = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = g_path_get_basename (cs_document_get_trace_path (fixture->document));
  g_autofree char *longest = NULL;
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  gint32 longest_pid = longest_running (fixture);
  double width_pt = 0, height_pt = 0;
  const char *size_line;
  gint64 span_ns;

  cs_export_options_init (&options, fixture->document);
  options.format = CS_EXPORT_PDF;
  g_assert_true (cs_export_parse_page ("a4-landscape", &options.page_width_mm,
                                       &options.page_height_mm, &error));
  span_ns = options.end_ns - options.begin_ns;
  options.marker_a_ns = options.begin_ns + span_ns / 4;
  options.marker_b_ns = options.begin_ns + span_ns / 2;
  g_assert_true (cs_export_write (fixture->renderer, &options, pdf, &error));
  g_assert_no_error (error);

  {
    const char *argv[] = { "pdfinfo", pdf, NULL };

    info = run_tool (argv);
  }
  g_assert_nonnull (strstr (info, "\nPages:           1\n"));
  size_line = strstr (info, "Page size:");
  g_assert_nonnull (size_line);
  g_assert_cmpint (sscanf (size_line, "Page size: %lf x %lf pts", &width_pt, &height_pt), ==, 2);
  g_assert_cmpfloat (fabs (width_pt - 297 / 25.4 * 72), <, 0.5);
  g_assert_cmpfloat (fabs (height_pt - 210 / 25.4 * 72), <, 0.5);

  {
    const char *argv[] = { "pdftotext", pdf, "-", NULL };

    text = run_tool (argv);
  }
  longest = g_strdup_printf ("%s %d", cs_document_get_comm (fixture->document, longest_pid),
                             longest_pid);
  g_assert_nonnull (strstr (text, base));
  g_assert_nonnull (strstr (text, cs_document_get_clock (fixture->document)));
  g_assert_nonnull (strstr (text, longest));
  g_assert_nonnull (strstr (text, "B − A"));
  g_unlink (pdf);
}

/* Exports @options as a PDF and returns its text (pdftotext). */
static char *
export_pdf_text (CsTestFixture   *fixture,
                 CsExportOptions *options)
{
  g_autofree char *pdf = out_path ("legend.pdf");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "pdftotext", pdf, "-", NULL };
  char *text;

  options->format = CS_EXPORT_PDF;
  g_assert_true (cs_export_write (fixture->renderer, options, pdf, &error));
  g_assert_no_error (error);
  text = run_tool (argv);
  g_unlink (pdf);
  return text;
}

/* An export draws the view without the range's statistics it does not
 * show: no wakeup summary is computed (none is kept beside the index
 * afterwards), yet its legend still lists the tasks that ran longest in
 * the span drawn, as cs_document_compute_range_stats() ranks them, for
 * the whole recording and for a span of it. */
static void
test_legend_without_statistics (CsTestFixture *fixture, gconstpointer data)
{
  CsDocument *doc = fixture->document;
  g_autofree char *kept = g_strconcat (cs_document_get_index_path (doc), ".wakeups", NULL);
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  const gint64 spans[][2] = {
    { first, last + 1 },
    { first + (last - first) / 3, first + (last - first) / 2 },
  };
  /* g_autofree on an array would free only its first element. */
  g_auto(GStrv) texts = g_new0 (char *, G_N_ELEMENTS (spans) + 1);

  g_assert_false (g_file_test (kept, G_FILE_TEST_EXISTS));
  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      CsExportOptions options;

      cs_export_options_init (&options, doc);
      options.begin_ns = spans[i][0];
      options.end_ns = spans[i][1];
      texts[i] = export_pdf_text (fixture, &options);
      g_assert_false (g_file_test (kept, G_FILE_TEST_EXISTS));
    }

  /* Now the statistics, which compute (and keep) the wakeup summary. */
  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsRangeStats) stats = cs_document_compute_range_stats (doc, spans[i][0], spans[i][1],
                                                                       NULL, &error);
      g_autoptr(GArray) legend = cs_export_compute_legend_tasks (doc, spans[i][0], spans[i][1],
                                                                 NULL, &error);
      guint n_shown = 0;

      g_assert_no_error (error);
      g_assert_cmpuint (stats->tasks->len, >, 0);
      g_assert_cmpuint (legend->len, ==, stats->tasks->len);
      for (guint t = 0; t < stats->tasks->len; t++)
        {
          gint32 pid = g_array_index (stats->tasks, CsTaskTime, t).pid;
          g_autofree char *entry = g_strdup_printf ("%s %d", cs_document_get_comm (doc, pid), pid);

          g_assert_cmpint (g_array_index (legend, gint32, t), ==, pid);
          /* The legend has room for the first sixteen. */
          if (t < 16)
            {
              if (strstr (texts[i], entry) == NULL)
                g_error ("span %u: the legend lacks “%s”, the task that ran longest but %u:\n%s",
                         i, entry, t, texts[i]);
              n_shown++;
            }
        }
      g_test_message ("span %u: the legend's %u tasks are the range's busiest", i, n_shown);
    }
  g_assert_true (g_file_test (kept, G_FILE_TEST_EXISTS));
}

/* Marker lines cross the plots at their times, in their colours. */
static void
test_markers (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  CsViewport viewport;
  cairo_surface_t *surface;
  cairo_t *cr;
  int width_px, height_px, x, y;
  guint32 pixel;
  const guint8 *d;

  cs_export_options_init (&options, fixture->document);
  options.width_px = 800;
  options.marker_a_ns = options.begin_ns + (options.end_ns - options.begin_ns) / 3;
  cs_export_get_size (fixture->renderer, &options, &width_px, &height_px);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width_px, height_px);
  cr = cairo_create (surface);
  g_assert_true (cs_export_draw (fixture->renderer, cr, &options, width_px, height_px, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  viewport = (CsViewport) { options.begin_ns, options.end_ns, width_px,
                            cs_timeline_renderer_get_natural_height (fixture->renderer) };
  x = (int) floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, options.marker_a_ns));
  /* Between the first plot and the axis: the page colour but for the line. */
  y = (int) cs_export_get_timeline_y (&options) + viewport.height_px - 2;
  d = cairo_image_surface_get_data (surface);
  pixel = *(const guint32 *) (d + y * cairo_image_surface_get_stride (surface) + 4 * x) & 0xffffff;
  /* Green dominates: GNOME green 5 over a light grey. */
  g_assert_cmpint ((pixel >> 8) & 0xff, >, ((pixel >> 16) & 0xff) + 40);
  cairo_surface_destroy (surface);
}

static void
test_options (void)
{
  g_autoptr(GError) error = NULL;
  CsExportFormat format;
  double w, h;

  g_assert_true (cs_export_format_from_path ("/a/b.SVG", &format, NULL));
  g_assert_cmpint (format, ==, CS_EXPORT_SVG);
  g_assert_true (cs_export_format_from_path ("x.pdf", &format, NULL));
  g_assert_cmpint (format, ==, CS_EXPORT_PDF);
  g_assert_true (cs_export_format_from_path ("x.png", &format, NULL));
  g_assert_cmpint (format, ==, CS_EXPORT_PNG);
  g_assert_false (cs_export_format_from_path ("x.jpeg", &format, &error));
  g_assert_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "x.jpeg"));
  g_clear_error (&error);

  g_assert_true (cs_export_parse_page ("a4", &w, &h, NULL));
  g_assert_cmpfloat (w, ==, 210);
  g_assert_cmpfloat (h, ==, 297);
  g_assert_true (cs_export_parse_page ("16:9", &w, &h, NULL));
  g_assert_cmpfloat (fabs (w / h - 16.0 / 9.0), <, 1e-6);
  g_assert_true (cs_export_parse_page ("200x100.5mm", &w, &h, NULL));
  g_assert_cmpfloat (w, ==, 200);
  g_assert_cmpfloat (h, ==, 100.5);
  for (guint i = 0; i < 4; i++)
    {
      const char *bad[] = { "letter", "200x100", "5x5mm", "200xmm" };

      g_assert_false (cs_export_parse_page (bad[i], &w, &h, &error));
      g_assert_error (error, CS_EXPORT_ERROR, CS_EXPORT_ERROR_PAGE);
      g_clear_error (&error);
    }
}

/* A file that cannot be written is a G_FILE_ERROR naming it, and leaves
 * nothing behind. */
static void
test_unwritable (CsTestFixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "no-such-dir", "x.pdf", NULL);
  g_autoptr(GError) error = NULL;
  CsExportOptions options;

  cs_export_options_init (&options, fixture->document);
  options.format = CS_EXPORT_PDF;
  g_assert_false (cs_export_write (fixture->renderer, &options, path, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/cs/render/Export/" path, CsTestFixture, &sched_v6, \
              fixture_set_up, func, cs_test_fixture_tear_down)

  ADD ("png-matches-renderer", test_png_matches_renderer);
  ADD ("svg-parses", test_svg_parses);
  ADD ("svg-text", test_svg_text);
  ADD ("pdf-page", test_pdf_page);
  ADD ("markers", test_markers);
  ADD ("legend-without-statistics", test_legend_without_statistics);
  ADD ("unwritable", test_unwritable);
  g_test_add_func ("/cs/render/Export/options", test_options);

#undef ADD

  return cs_test_render_run ();
}
