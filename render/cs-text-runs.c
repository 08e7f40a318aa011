/* cs-text-runs.c: every text of render/ is drawn here, or kept as SVG
 * <text>.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-text-runs-private.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

/* A text as the picture shows it, in the surface's device space (SVG
 * user units, px). */
typedef struct {
  char *text;           /* UTF-8, as shown: an ellipsis replaces what was elided */
  double x, y;          /* the anchor's point on the baseline */
  CsTextAnchor anchor;
  char *family;         /* a CSS font-family list: the font used, then the one asked for */
  double size_px;
  PangoWeight weight;
  PangoStyle style;
  double rgba[4];
  int clip;             /* index in CsTextRuns.clips, or -1 */
} TextRun;

typedef struct {
  double x1, y1, x2, y2;
} Box;

struct _CsTextRuns {
  GArray *runs;         /* TextRun, in drawing order */
  GArray *clips;        /* Box: the clips that cut a text, each once */
  Box page;             /* the SVG's own edges, which cut without a clip-path */
};

static const cairo_user_data_key_t runs_key;

static void
text_run_clear (gpointer data)
{
  TextRun *run = data;

  g_free (run->text);
  g_free (run->family);
}

/**
 * _cs_text_runs_new:
 *
 * Returns: (transfer full): an empty record of texts, to attach to a
 *   surface with _cs_text_runs_attach()
 */
CsTextRuns *
_cs_text_runs_new (void)
{
  CsTextRuns *runs = g_new0 (CsTextRuns, 1);

  runs->runs = g_array_new (FALSE, FALSE, sizeof (TextRun));
  g_array_set_clear_func (runs->runs, text_run_clear);
  runs->clips = g_array_new (FALSE, FALSE, sizeof (Box));
  return runs;
}

void
_cs_text_runs_free (CsTextRuns *runs)
{
  if (runs == NULL)
    return;
  g_array_unref (runs->runs);
  g_array_unref (runs->clips);
  g_free (runs);
}

/**
 * _cs_text_runs_attach:
 * @runs: where texts go; must outlive the drawing on @surface
 * @surface: a surface whose device units are the px of the SVG written
 *   (cairo's SVG surface with %CAIRO_SVG_UNIT_PX)
 * @width_px: @surface's width, px
 * @height_px: its height, px
 *
 * From now on, _cs_text_show() on a cairo_t targeting @surface records its
 * text in @runs and draws no glyphs.
 */
void
_cs_text_runs_attach (CsTextRuns      *runs,
                      cairo_surface_t *surface,
                      double           width_px,
                      double           height_px)
{
  runs->page = (Box) { 0, 0, width_px, height_px };
  cairo_surface_set_user_data (surface, &runs_key, runs, NULL);
}

/* The bounding box in device space of a user-space rectangle. */
static Box
box_to_device (cairo_t *cr, double x1, double y1, double x2, double y2)
{
  double xs[4] = { x1, x2, x1, x2 }, ys[4] = { y1, y1, y2, y2 };
  Box box = { G_MAXDOUBLE, G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };

  for (guint i = 0; i < 4; i++)
    {
      cairo_user_to_device (cr, &xs[i], &ys[i]);
      box.x1 = MIN (box.x1, xs[i]);
      box.y1 = MIN (box.y1, ys[i]);
      box.x2 = MAX (box.x2, xs[i]);
      box.y2 = MAX (box.y2, ys[i]);
    }
  return box;
}

/* The index of @clip in @runs, added when new. */
static int
add_clip (CsTextRuns *runs, const Box *clip)
{
  for (guint i = 0; i < runs->clips->len; i++)
    if (memcmp (&g_array_index (runs->clips, Box, i), clip, sizeof *clip) == 0)
      return (int) i;
  g_array_append_val (runs->clips, *clip);
  return (int) runs->clips->len - 1;
}

/* The family as CSS names it: "Sans" is Pango's (fontconfig's) alias of
 * the generic family. */
static void
append_family (GString *list, const char *family)
{
  static const char * const generic[][2] = {
    { "sans", "sans-serif" }, { "sans-serif", "sans-serif" }, { "serif", "serif" },
    { "monospace", "monospace" }, { "mono", "monospace" },
  };
  g_autofree char *name = g_strstrip (g_strdup (family));

  if (*name == '\0')
    return;
  if (list->len > 0)
    g_string_append (list, ", ");
  for (guint i = 0; i < G_N_ELEMENTS (generic); i++)
    if (g_ascii_strcasecmp (name, generic[i][0]) == 0)
      {
        g_string_append (list, generic[i][1]);
        return;
      }
  g_string_append_c (list, '\'');
  for (const char *c = name; *c != '\0'; c++)
    if (*c != '\'' && *c != '\\')
      g_string_append_c (list, *c);
  g_string_append_c (list, '\'');
}

/* The font the line's first run was shaped with, then the families asked
 * for, so that a viewer without the first still picks the same kind. */
static char *
font_family_list (PangoLayoutLine *line, const PangoFontDescription *asked)
{
  GString *list = g_string_new (NULL);
  const char *asked_families = pango_font_description_get_family (asked);
  PangoGlyphItem *first = line->runs != NULL ? line->runs->data : NULL;
  g_auto(GStrv) families = NULL;

  if (first != NULL && first->item->analysis.font != NULL)
    {
      g_autoptr(PangoFontDescription) used = pango_font_describe (first->item->analysis.font);

      if (pango_font_description_get_family (used) != NULL)
        append_family (list, pango_font_description_get_family (used));
    }
  families = g_strsplit (asked_families != NULL ? asked_families : "sans", ",", -1);
  for (guint i = 0; families[i] != NULL; i++)
    append_family (list, families[i]);
  return g_string_free (list, FALSE);
}

static int
compare_run_offsets (gconstpointer a, gconstpointer b)
{
  const PangoGlyphItem *run_a = *(PangoGlyphItem * const *) a;
  const PangoGlyphItem *run_b = *(PangoGlyphItem * const *) b;

  return (run_a->item->offset > run_b->item->offset) - (run_a->item->offset < run_b->item->offset);
}

/* What @line shows of @text, in logical order (a viewer lays bidi out
 * itself): the runs' text, and "…" where Pango ellipsized. */
static char *
line_text (PangoLayoutLine *line, const char *text)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new ();
  GString *shown = g_string_new (NULL);

  for (GSList *l = line->runs; l != NULL; l = l->next)
    g_ptr_array_add (runs, l->data);
  g_ptr_array_sort (runs, compare_run_offsets);
  for (guint i = 0; i < runs->len; i++)
    {
      const PangoItem *item = ((PangoGlyphItem *) runs->pdata[i])->item;

      if (item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS)
        g_string_append (shown, "…");
      else
        g_string_append_len (shown, text + item->offset, item->length);
    }
  return g_string_free (shown, FALSE);
}

/* The size of @font in user px. */
static double
font_size_px (PangoContext *context, const PangoFontDescription *font)
{
  double size = (double) pango_font_description_get_size (font) / PANGO_SCALE;
  double dpi;

  if (pango_font_description_get_size_is_absolute (font))
    return size;
  dpi = pango_cairo_context_get_resolution (context);
  return size * (dpi > 0 ? dpi : 96.0) / 72.0;
}

/* Records each line of @layout as pango_cairo_show_layout() would draw it
 * at @cr's current point in @rgba. */
static void
record (CsTextRuns *runs, cairo_t *cr, PangoLayout *layout, CsTextAnchor anchor,
        const double rgba[4])
{
  static const double anchor_share[] = { 0.0, 0.5, 1.0 };
  PangoContext *context = pango_layout_get_context (layout);
  const char *text = pango_layout_get_text (layout);
  g_autoptr(PangoFontDescription) font = NULL;
  PangoLayoutIter *iter;
  PangoRectangle ink;
  double x0 = 0, y0 = 0, dx = 0, dy = 1, size_px;
  double clip_x1, clip_y1, clip_x2, clip_y2;
  Box box, clip;
  int clip_index = -1;

  if (cairo_has_current_point (cr))
    cairo_get_current_point (cr, &x0, &y0);
  pango_layout_get_extents (layout, &ink, NULL);
  if (ink.width <= 0 || ink.height <= 0)
    return;  /* blanks: nothing drawn */

  /* Only what the clip lets through: nothing, all of it, or a part, cut
   * in the SVG by the same rectangle unless that is the page's. */
  box = box_to_device (cr, x0 + pango_units_to_double (ink.x), y0 + pango_units_to_double (ink.y),
                       x0 + pango_units_to_double (ink.x + ink.width),
                       y0 + pango_units_to_double (ink.y + ink.height));
  cairo_clip_extents (cr, &clip_x1, &clip_y1, &clip_x2, &clip_y2);
  clip = box_to_device (cr, clip_x1, clip_y1, clip_x2, clip_y2);
  if (box.x2 <= clip.x1 || box.x1 >= clip.x2 || box.y2 <= clip.y1 || box.y1 >= clip.y2)
    return;
  if ((box.x1 < clip.x1 || box.x2 > clip.x2 || box.y1 < clip.y1 || box.y2 > clip.y2) &&
      (clip.x1 > runs->page.x1 || clip.y1 > runs->page.y1 ||
       clip.x2 < runs->page.x2 || clip.y2 < runs->page.y2))
    clip_index = add_clip (runs, &clip);

  font = pango_font_description_copy (pango_context_get_font_description (context));
  if (pango_layout_get_font_description (layout) != NULL)
    pango_font_description_merge (font, pango_layout_get_font_description (layout), TRUE);
  cairo_user_to_device_distance (cr, &dx, &dy);
  size_px = font_size_px (context, font) * hypot (dx, dy);

  iter = pango_layout_get_iter (layout);
  do
    {
      PangoLayoutLine *line = pango_layout_iter_get_line_readonly (iter);
      PangoRectangle logical;
      TextRun run;

      if (line->runs == NULL)
        continue;
      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      run = (TextRun) {
        .text = line_text (line, text),
        .x = x0 + pango_units_to_double (logical.x) + anchor_share[anchor] * pango_units_to_double (logical.width),
        .y = y0 + pango_units_to_double (pango_layout_iter_get_baseline (iter)),
        .anchor = anchor,
        .family = font_family_list (line, font),
        .size_px = size_px,
        .weight = pango_font_description_get_weight (font),
        .style = pango_font_description_get_style (font),
        .rgba = { rgba[0], rgba[1], rgba[2], rgba[3] },
        .clip = clip_index,
      };
      cairo_user_to_device (cr, &run.x, &run.y);
      g_array_append_val (runs->runs, run);
    }
  while (pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

/**
 * _cs_text_show:
 * @cr: where to draw; the layout's top left goes at its current point,
 *   (0, 0) when it has none
 * @layout: a text laid out in a context that follows @cr
 *   (pango_cairo_update_context())
 * @anchor: which point of the text the caller placed (see #CsTextAnchor)
 *
 * Draws @layout as pango_cairo_show_layout() does, in @cr's source, or,
 * when a #CsTextRuns is attached to @cr's target and the source is a
 * colour, records it there (see cs-text-runs-private.h).  Either way @cr's
 * path and current point are left as they were.
 */
void
_cs_text_show (cairo_t      *cr,
               PangoLayout  *layout,
               CsTextAnchor  anchor)
{
  CsTextRuns *runs = cairo_surface_get_user_data (cairo_get_target (cr), &runs_key);
  double rgba[4];

  g_return_if_fail (anchor <= CS_TEXT_ANCHOR_END);

  if (runs != NULL &&
      cairo_pattern_get_rgba (cairo_get_source (cr), &rgba[0], &rgba[1], &rgba[2], &rgba[3])
        == CAIRO_STATUS_SUCCESS)
    record (runs, cr, layout, anchor, rgba);
  else
    pango_cairo_show_layout (cr, layout);
}

/* @text for XML, in content or a double-quoted attribute; C0 controls,
 * which XML 1.0 cannot carry even as references, become U+FFFD. */
static void
append_escaped (GString *out, const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    switch (*c)
      {
      case '&': g_string_append (out, "&amp;"); break;
      case '<': g_string_append (out, "&lt;"); break;
      case '>': g_string_append (out, "&gt;"); break;
      case '"': g_string_append (out, "&quot;"); break;
      case '\t': case '\n': g_string_append_c (out, ' '); break;
      default:
        if ((guchar) *c < 0x20)
          g_string_append (out, "\xef\xbf\xbd");
        else
          g_string_append_c (out, *c);
      }
}

/* @value with at most two decimals, without trailing zeros, whatever the
 * locale. */
static void
append_number (GString *out, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  g_ascii_formatd (buffer, sizeof buffer, "%.2f", value);
  end = buffer + strlen (buffer);
  while (end[-1] == '0')
    *--end = '\0';
  if (end[-1] == '.')
    *--end = '\0';
  g_string_append (out, strcmp (buffer, "-0") == 0 ? "0" : buffer);
}

static void
append_attribute (GString *out, const char *name, double value)
{
  g_string_append_printf (out, " %s=\"", name);
  append_number (out, value);
  g_string_append_c (out, '"');
}

static void
append_text_element (GString *out, const TextRun *run)
{
  static const char * const anchors[] = { NULL, "middle", "end" };
  guint8 rgb[3];

  for (guint i = 0; i < 3; i++)
    rgb[i] = (guint8) round (CLAMP (run->rgba[i], 0.0, 1.0) * 255);

  g_string_append (out, "<text xml:space=\"preserve\"");
  append_attribute (out, "x", run->x);
  append_attribute (out, "y", run->y);
  g_string_append (out, " font-family=\"");
  append_escaped (out, run->family);
  g_string_append_c (out, '"');
  append_attribute (out, "font-size", run->size_px);
  if (run->weight != PANGO_WEIGHT_NORMAL)
    g_string_append_printf (out, " font-weight=\"%d\"", (int) run->weight);
  if (run->style != PANGO_STYLE_NORMAL)
    g_string_append_printf (out, " font-style=\"%s\"",
                            run->style == PANGO_STYLE_ITALIC ? "italic" : "oblique");
  if (anchors[run->anchor] != NULL)
    g_string_append_printf (out, " text-anchor=\"%s\"", anchors[run->anchor]);
  g_string_append_printf (out, " fill=\"#%02x%02x%02x\"", rgb[0], rgb[1], rgb[2]);
  if (run->rgba[3] < 1.0)
    append_attribute (out, "fill-opacity", run->rgba[3]);
  if (run->clip >= 0)
    g_string_append_printf (out, " clip-path=\"url(#cs-text-clip-%d)\"", run->clip);
  g_string_append_c (out, '>');
  append_escaped (out, run->text);
  g_string_append (out, "</text>\n");
}

/**
 * _cs_text_runs_insert_svg:
 * @runs: the texts recorded while drawing the SVG
 * @svg: the SVG document cairo wrote, finished
 *
 * Inserts @runs' texts before @svg's closing tag, in a group of their own
 * (`<g id="cs-text">`): one `<text>` per line, at its baseline, with its
 * text-anchor, font-family, font-size (px), font-weight and font-style
 * where not normal, fill (and fill-opacity) and, for a text a clip cuts,
 * a clip-path to that rectangle.
 *
 * Returns: %FALSE when @svg has no `</svg>` (nothing inserted)
 */
gboolean
_cs_text_runs_insert_svg (CsTextRuns *runs,
                          GString    *svg)
{
  const char *end = g_strrstr (svg->str, "</svg>");
  g_autoptr(GString) group = NULL;

  if (end == NULL)
    return FALSE;

  group = g_string_new ("<g id=\"cs-text\">\n");
  if (runs->clips->len > 0)
    {
      g_string_append (group, "<defs>\n");
      for (guint i = 0; i < runs->clips->len; i++)
        {
          const Box *clip = &g_array_index (runs->clips, Box, i);

          g_string_append_printf (group, "<clipPath id=\"cs-text-clip-%u\"><rect", i);
          append_attribute (group, "x", clip->x1);
          append_attribute (group, "y", clip->y1);
          append_attribute (group, "width", clip->x2 - clip->x1);
          append_attribute (group, "height", clip->y2 - clip->y1);
          g_string_append (group, "/></clipPath>\n");
        }
      g_string_append (group, "</defs>\n");
    }
  for (guint i = 0; i < runs->runs->len; i++)
    append_text_element (group, &g_array_index (runs->runs, TextRun, i));
  g_string_append (group, "</g>\n");

  g_string_insert_len (svg, end - svg->str, group->str, (gssize) group->len);
  return TRUE;
}
