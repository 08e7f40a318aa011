/* cs-kmod-overlay.c: the kernel module's events over CPU and task plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A section of kmod/ (interrupts or preemption disabled on purpose, between
 * chronoscope:*_begin and *_end) is a band over its CPU's plot: the
 * section's slices washed with the kind's colour, translucent so the task
 * that ran stays readable, between two opaque edges and under an opaque
 * strip along the top that marks it even where the wash is faint; where the
 * band is wide enough, a tab at the strip's right end names the kind and
 * the length.  A band
 * is at least one pixel wide, so a 20 ms section shows in a whole-recording
 * view of hours.  Colours: cs_palette_get_kmod_section_color().
 *
 * A wakeup latency the module measured in the kernel
 * (chronoscope:wakeup_latency) is a bracket over the woken task's plot,
 * from time_ns - latency_ns to time_ns (the switch-in), above the states
 * and dipping into them at both ends, with a small triangle at the
 * switch-in; the amber boxes the index derives from sched_waking stay as
 * they are underneath, so the kernel's figure and the recording's can be
 * compared.
 */
#include "cs-kmod-overlay-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cs-palette.h"
#include "cs-text-cache-private.h"
#include "cs-time-axis.h"

#define BAND_WASH_ALPHA   0.30
#define TRIANGLE_PX       4.0
#define TAB_PAD_PX        3
#define TAB_FONT          "Sans Bold 7"

struct _CsKmodOverlay
{
  /* borrowed */
  CsDocument *document;
  PangoContext *pango_context;

  /* owned */
  CsTextCache tab_texts;      /* "irqs-off 20.2 ms" */

  /* Whether the recording holds any module event: when not, nothing is
   * asked of the document, ever. */
  gboolean enabled;
};

/**
 * _cs_kmod_overlay_new:
 * @document: (transfer none): the recording; must outlive the overlay
 * @context: (transfer none): the renderer's Pango context, for the bands'
 *   labels; must outlive the overlay
 *
 * Returns: (transfer full): a new overlay for @document
 */
CsKmodOverlay *
_cs_kmod_overlay_new (CsDocument   *document,
                      PangoContext *context)
{
  CsKmodOverlay *self = g_new0 (CsKmodOverlay, 1);

  self->document = document;
  self->pango_context = context;
  self->enabled = cs_document_has_kmod_events (document);
  _cs_text_cache_init (&self->tab_texts, TAB_FONT, -1);
  return self;
}

void
_cs_kmod_overlay_free (CsKmodOverlay *self)
{
  _cs_text_cache_free (&self->tab_texts);
  g_free (self);
}

/* The Pango context's font options or transform changed. */
void
_cs_kmod_overlay_context_changed (CsKmodOverlay *self)
{
  _cs_text_cache_clear (&self->tab_texts);
}

/* Whole pixel columns [*left, *right) covering [begin_ns, end_ns) in the
 * frame, at least one wide; FALSE when outside the time area. */
static gboolean
span_columns (const CsPlotFrame *frame,
              gint64             begin_ns,
              gint64             end_ns,
              double            *left,
              double            *right)
{
  double area_right = frame->time_x + frame->time_width;

  if (end_ns < frame->begin_ns || begin_ns >= frame->end_ns || frame->time_width < 1.0)
    return FALSE;
  *left = floor (_cs_plot_frame_ns_to_x (frame, MAX (begin_ns, frame->begin_ns)));
  *right = ceil (_cs_plot_frame_ns_to_x (frame, MIN (end_ns, frame->end_ns)));
  *left = CLAMP (*left, frame->time_x, area_right - 1.0);
  *right = CLAMP (MAX (*right, *left + 1.0), *left + 1.0, area_right);
  return TRUE;
}

/* "irqs-off 20.2 ms" on a tab of the band's colour at the right end of its
 * strip, when the band is wide enough: the section reads without pointing
 * at it.  The slices' own labels sit lower, centred on the plot. */
static void
draw_tab (CsKmodOverlay       *self,
          cairo_t             *cr,
          const CsKmodSection *section,
          const CsColor       *color,
          double               left,
          double               right,
          double               y)
{
  char length[CS_TIME_AXIS_LABEL_SIZE];
  g_autofree char *text = NULL;
  PangoLayout *layout;
  CsColor ink;
  int width, height;
  double tab_left;

  cs_time_axis_format_duration (section->end_ns - section->begin_ns, length, sizeof length);
  text = section->kind == CS_KMOD_SECTION_IRQS_OFF
    /* TRANSLATORS: on a band over a CPU plot; %s is a duration, "20.2 ms" */
    ? g_strdup_printf (_("irqs-off %s"), length)
    /* TRANSLATORS: on a band over a CPU plot; %s is a duration, "304 ms" */
    : g_strdup_printf (_("preempt-off %s"), length);
  layout = _cs_text_cache_get (&self->tab_texts, self->pango_context, text);
  pango_layout_get_pixel_size (layout, &width, &height);
  tab_left = right - width - 2 * TAB_PAD_PX;
  if (tab_left < left + 2 * TAB_PAD_PX)
    return;

  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
  cairo_rectangle (cr, tab_left, y, right - tab_left, CS_KMOD_BAND_TAB_PX);
  cairo_fill (cr);
  cs_palette_get_text_color (color, &ink);
  cairo_set_source_rgb (cr, ink.red, ink.green, ink.blue);
  cairo_move_to (cr, tab_left + TAB_PAD_PX, y + floor ((CS_KMOD_BAND_TAB_PX - height) / 2.0) + 1);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_band (CsKmodOverlay       *self,
           cairo_t             *cr,
           const CsKmodSection *section,
           double               left,
           double               right,
           double               y)
{
  CsColor color;

  cs_palette_get_kmod_section_color (section->kind, &color);

  cairo_set_source_rgba (cr, color.red, color.green, color.blue, BAND_WASH_ALPHA);
  cairo_rectangle (cr, left, y + CS_KMOD_BAND_STRIP_PX, right - left,
                   CS_PLOT_HEIGHT_PX - CS_KMOD_BAND_STRIP_PX);
  cairo_fill (cr);

  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_rectangle (cr, left, y, right - left, CS_KMOD_BAND_STRIP_PX);
  cairo_rectangle (cr, left, y, 1, CS_PLOT_HEIGHT_PX);
  if (right - left >= 2.0)
    cairo_rectangle (cr, right - 1, y, 1, CS_PLOT_HEIGHT_PX);
  cairo_fill (cr);

  draw_tab (self, cr, section, &color, left, right, y);
}

/**
 * _cs_kmod_overlay_draw_sections:
 * @self: an overlay
 * @cr: where to draw, in pixels
 * @frame: the frame's geometry
 * @cpu: the CPU of the plot
 * @y_px: top of the plot
 * @error: return location for a %CS_INDEX_ERROR of the document
 *
 * Draws the bands of @cpu's module sections overlapping the frame, over
 * what the CPU plot painter drew.
 *
 * Returns: %FALSE with @error set when the document could not answer
 */
gboolean
_cs_kmod_overlay_draw_sections (CsKmodOverlay      *self,
                                cairo_t            *cr,
                                const CsPlotFrame  *frame,
                                guint               cpu,
                                double              y_px,
                                GError            **error)
{
  g_autoptr(GArray) sections = NULL;

  if (!self->enabled)
    return TRUE;
  sections = cs_document_get_kmod_sections (self->document, frame->begin_ns, frame->end_ns, error);
  if (sections == NULL)
    return FALSE;

  /* Preempt-off first, irqs-off over it: where both share pixels (zoomed
   * out), the stronger condition shows (interrupts off also keeps the
   * task on its CPU). */
  for (int kind = CS_KMOD_SECTION_PREEMPT_OFF; kind >= CS_KMOD_SECTION_IRQS_OFF; kind--)
    for (guint i = 0; i < sections->len; i++)
      {
        const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);
        double left, right;

        if ((int) s->kind == kind && s->cpu == cpu &&
            span_columns (frame, s->begin_ns, s->end_ns, &left, &right))
          draw_band (self, cr, s, left, right, y_px);
      }
  return TRUE;
}

static void
draw_bracket (cairo_t *cr,
              double   left,
              double   right,
              double   y)
{
  double top = y + CS_KMOD_BRACKET_TOP_PX + 0.5;
  double bottom = y + CS_KMOD_BRACKET_BOTTOM_PX;
  double x0 = left + 0.5;
  double x1 = right - 0.5;
  CsColor color;

  cs_palette_get_kmod_latency_color (&color);
  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, x0, bottom);
  cairo_line_to (cr, x0, top);
  cairo_line_to (cr, x1, top);
  cairo_line_to (cr, x1, bottom);
  cairo_stroke (cr);

  /* The switch-in: where the latency ends and the task runs. */
  cairo_move_to (cr, x1 - TRIANGLE_PX, top);
  cairo_line_to (cr, x1 + TRIANGLE_PX, top);
  cairo_line_to (cr, x1, top + TRIANGLE_PX);
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* The module's latencies of @pid whose bracket may reach [begin_ns, end_ns). */
static GArray *
get_latencies (CsKmodOverlay  *self,
               gint32          pid,
               gint64          begin_ns,
               GError        **error)
{
  /* Brackets end at time_ns, so only events at or after the span's begin
   * can reach it; how far back a bracket starts is the event's own. */
  return cs_document_get_kmod_wakeup_latencies (self->document, pid, begin_ns, G_MAXINT64, error);
}

/**
 * _cs_kmod_overlay_draw_latencies:
 * @self: an overlay
 * @cr: where to draw, in pixels
 * @frame: the frame's geometry
 * @pid: the task of the plot
 * @y_px: top of the plot
 * @error: return location for a %CS_INDEX_ERROR of the document
 *
 * Draws the brackets of the module's wakeup latencies of @pid in the frame,
 * over what the task plot painter drew.
 *
 * Returns: %FALSE with @error set when the document could not answer
 */
gboolean
_cs_kmod_overlay_draw_latencies (CsKmodOverlay      *self,
                                 cairo_t            *cr,
                                 const CsPlotFrame  *frame,
                                 gint32              pid,
                                 double              y_px,
                                 GError            **error)
{
  g_autoptr(GArray) latencies = NULL;

  if (!self->enabled)
    return TRUE;
  latencies = get_latencies (self, pid, frame->begin_ns, error);
  if (latencies == NULL)
    return FALSE;

  cairo_save (cr);
  cairo_rectangle (cr, frame->time_x, y_px, frame->time_width, CS_PLOT_HEIGHT_PX);
  cairo_clip (cr);
  for (guint i = 0; i < latencies->len; i++)
    {
      const CsKmodWakeupLatency *l = &g_array_index (latencies, CsKmodWakeupLatency, i);
      gint64 begin_ns = l->time_ns - (gint64) MIN (l->latency_ns, (guint64) G_MAXINT64 / 2);
      double left, right;

      if (span_columns (frame, begin_ns, l->time_ns, &left, &right))
        draw_bracket (cr, left, MAX (right, left + 2.0), y_px);
    }
  cairo_restore (cr);
  return TRUE;
}

/**
 * _cs_kmod_overlay_find_section:
 * @self: an overlay
 * @cpu: the CPU of the plot under the pointer
 * @ts_ns: the time under the pointer
 * @radius_ns: how far from @ts_ns a section still counts (a few pixels, so
 *   a band drawn one pixel wide can be pointed at)
 * @section: (out caller-allocates): the section found
 * @found: (out): whether one was found
 * @error: return location for a %CS_INDEX_ERROR of the document
 *
 * The module section of @cpu holding @ts_ns, else the nearest within
 * @radius_ns; of two as near, irqs-off (drawn on top).
 *
 * Returns: %FALSE with @error set when the document could not answer
 */
gboolean
_cs_kmod_overlay_find_section (CsKmodOverlay  *self,
                               guint           cpu,
                               gint64          ts_ns,
                               gint64          radius_ns,
                               CsKmodSection  *section,
                               gboolean       *found,
                               GError        **error)
{
  g_autoptr(GArray) sections = NULL;
  gint64 best = G_MAXINT64;

  *found = FALSE;
  if (!self->enabled)
    return TRUE;
  sections = cs_document_get_kmod_sections (self->document, ts_ns - radius_ns,
                                            ts_ns + radius_ns + 1, error);
  if (sections == NULL)
    return FALSE;
  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);
      gint64 distance = ts_ns < s->begin_ns ? s->begin_ns - ts_ns
                      : ts_ns >= s->end_ns ? ts_ns - s->end_ns + (s->end_ns > s->begin_ns)
                      : 0;

      /* The nearest; on a tie irqs-off, which is drawn on top. */
      if (s->cpu == cpu && distance <= radius_ns &&
          (distance < best || (distance == best && s->kind == CS_KMOD_SECTION_IRQS_OFF)))
        {
          *section = *s;
          *found = TRUE;
          best = distance;
        }
    }
  return TRUE;
}

/**
 * _cs_kmod_overlay_find_latency:
 * @self: an overlay
 * @pid: the task of the plot under the pointer
 * @ts_ns: the time under the pointer
 * @radius_ns: how far from @ts_ns a bracket still counts
 * @latency: (out caller-allocates): the latency found
 * @found: (out): whether one was found
 * @error: return location for a %CS_INDEX_ERROR of the document
 *
 * The module's wakeup latency of @pid whose bracket
 * [time_ns - latency_ns, time_ns] holds @ts_ns, else the nearest within
 * @radius_ns.
 *
 * Returns: %FALSE with @error set when the document could not answer
 */
gboolean
_cs_kmod_overlay_find_latency (CsKmodOverlay        *self,
                               gint32                pid,
                               gint64                ts_ns,
                               gint64                radius_ns,
                               CsKmodWakeupLatency  *latency,
                               gboolean             *found,
                               GError              **error)
{
  g_autoptr(GArray) latencies = NULL;
  gint64 best = G_MAXINT64;

  *found = FALSE;
  if (!self->enabled)
    return TRUE;
  latencies = get_latencies (self, pid, ts_ns - radius_ns, error);
  if (latencies == NULL)
    return FALSE;
  for (guint i = 0; i < latencies->len; i++)
    {
      const CsKmodWakeupLatency *l = &g_array_index (latencies, CsKmodWakeupLatency, i);
      gint64 begin_ns = l->time_ns - (gint64) MIN (l->latency_ns, (guint64) G_MAXINT64 / 2);
      gint64 distance = ts_ns < begin_ns ? begin_ns - ts_ns
                      : ts_ns > l->time_ns ? ts_ns - l->time_ns
                      : 0;

      if (distance <= radius_ns && distance < best)
        {
          *latency = *l;
          *found = TRUE;
          best = distance;
        }
    }
  return TRUE;
}
