/* cs-kmod-layers.c: the kernel module's sections and wakeup latencies on
 * the timeline, and what the info bar says about them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A section of kmod/ (interrupts or preemption disabled on purpose,
 * between chronoscope:*_begin and *_end) is a band over its CPU's plot:
 * the section's slices washed with the kind's colour, translucent so the
 * task that ran stays readable, between two opaque edges and under an
 * opaque strip along the top that marks it even where the wash is faint;
 * where the band is wide enough, a tab at the strip's right end names the
 * kind and the length.  A band is at least one pixel wide, so a 20 ms
 * section shows in a whole-recording view of hours.  Colours are two of
 * Okabe and Ito's colour-blind-safe set, far apart for every kind of
 * colour vision: vermillion (#d55e00) for irqs-off, blue (#0072b2) for
 * preempt-off.
 *
 * A wakeup latency the module measured in the kernel
 * (chronoscope:wakeup_latency) is a bracket over the woken task's plot,
 * from time_ns - latency_ns to time_ns (the switch-in), above the states
 * and dipping into them at both ends, with a small triangle at the
 * switch-in, in a dark wine (#882255) unlike the amber of the wakeup
 * latencies Chronoscope derives from sched events, so the kernel's own
 * measurement stands apart from the recording's.
 *
 * Pointing at a band or a bracket (within a few pixels) gives the info
 * bar its figures, and a double-click puts markers A and B on its ends
 * (#CsPluginItem).  Main thread.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cs-kmod-plugin-private.h"

/* The band: an opaque strip along the top, px, and the tab hanging from
 * its right end with the kind and length where they fit. */
#define BAND_STRIP_PX    4
#define BAND_TAB_PX      13
#define BAND_WASH_ALPHA  0.30
#define TAB_PAD_PX       3
#define TAB_FONT         "Sans Bold 7"

/* The bracket's rows from the plot's top: above the running boxes, down
 * into them at both ends. */
#define BRACKET_TOP_PX     1
#define BRACKET_BOTTOM_PX  12
#define TRIANGLE_PX        4.0

/* How near the pointer a band or bracket still counts. */
#define HIT_RADIUS_PX    4.0

/* #882255: not one of the palette's roles. */
static const CsPluginColor latency_color = { 0.533, 0.133, 0.333, 1.0 };

static void
section_color (const CsPluginView *view,
               KmodSectionKind     kind,
               CsPluginColor      *color)
{
  cs_plugin_view_get_color (view, kind == KMOD_SECTION_IRQS_OFF ? CS_PLUGIN_COLOR_VERMILLION
                                                                : CS_PLUGIN_COLOR_BLUE, color);
}

/* ------------------------------------------------------------------------ */
/* Texts                                                                     */

/**
 * kmod_format_duration_exact:
 * @duration_ns: a duration, ns
 *
 * Writes @duration_ns with the unit that keeps one to three digits before
 * the decimal point (ns, µs, ms, s) and at most three decimals, without
 * trailing zeros: a requested round figure reads as it was asked for
 * ("20 ms"), a measured one to the microsecond ("20.168 ms"); as the
 * window writes durations in its info bar.
 *
 * Returns: (transfer full): the text
 */
char *
kmod_format_duration_exact (gint64 duration_ns)
{
  double magnitude = ABS ((double) duration_ns);
  char number[64];
  gsize len;

  if (magnitude < 1e3)
    return g_strdup_printf (_("%" PRId64 " ns"), duration_ns);

  g_snprintf (number, sizeof number, "%.3f",
              duration_ns / (magnitude < 1e6 ? 1e3 : magnitude < 1e9 ? 1e6 : 1e9));
  /* Drop trailing zeros, then the decimal separator (whatever the
   * locale's) when nothing follows it. */
  len = strlen (number);
  while (len > 0 && number[len - 1] == '0')
    number[--len] = '\0';
  if (len > 0 && !g_ascii_isdigit (number[len - 1]))
    number[--len] = '\0';

  if (magnitude < 1e6)
    /* TRANSLATORS: a duration, %s is a number such as "12.5" */
    return g_strdup_printf (_("%s µs"), number);
  if (magnitude < 1e9)
    /* TRANSLATORS: a duration, %s is a number such as "12.5" */
    return g_strdup_printf (_("%s ms"), number);
  /* TRANSLATORS: a duration, %s is a number such as "12.5" */
  return g_strdup_printf (_("%s s"), number);
}

/* Three significant digits, as durations drawn over the plots read
 * ("20.2 ms"). */
static char *
format_duration_short (gint64 duration_ns)
{
  if (duration_ns < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", duration_ns);
  if (duration_ns < 1000000)
    return g_strdup_printf ("%.3g µs", duration_ns / 1e3);
  if (duration_ns < 1000000000)
    return g_strdup_printf ("%.3g ms", duration_ns / 1e6);
  return g_strdup_printf ("%.3g s", duration_ns / 1e9);
}

/* "irqs-off section on CPU 1: 20.168 ms (requested 20 ms, measured 20 ms;
 * ...)": the length in the trace clock, then what the module was asked
 * for and what its own clock measured (kmod/chronoscope_trace.h, fields
 * requested_ns and measured_ns). */
static char *
describe_section (const KmodSection *section)
{
  g_autofree char *length = kmod_format_duration_exact (section->end_ns - section->begin_ns);
  g_autofree char *requested = kmod_format_duration_exact ((gint64) section->requested_ns);
  g_autofree char *measured = kmod_format_duration_exact ((gint64) section->measured_ns);

  if (section->measured_ns == 0)
    return section->kind == KMOD_SECTION_IRQS_OFF
      /* TRANSLATORS: the kernel module's section whose end is not in the
       * recording; %u is a CPU, then durations */
      ? g_strdup_printf (_("irqs-off section on CPU %u: %s or more (requested %s, its end is not recorded)"),
                         section->cpu, length, requested)
      : g_strdup_printf (_("preempt-off section on CPU %u: %s or more (requested %s, its end is not recorded)"),
                         section->cpu, length, requested);
  return section->kind == KMOD_SECTION_IRQS_OFF
    /* TRANSLATORS: a section the kernel module ran with interrupts off; %u
     * is a CPU, then its length, the length asked for and the length the
     * module measured */
    ? g_strdup_printf (_("irqs-off section on CPU %u: %s (requested %s, measured %s; double-click to put markers A and B on it)"),
                       section->cpu, length, requested, measured)
    /* TRANSLATORS: the same with preemption off */
    : g_strdup_printf (_("preempt-off section on CPU %u: %s (requested %s, measured %s; double-click to put markers A and B on it)"),
                       section->cpu, length, requested, measured);
}

/* "wakeup latency measured by the module: 111.546 ms (threshold 50 ms)"
 * (chronoscope:wakeup_latency, fields latency_ns and threshold_ns). */
static char *
describe_latency (const KmodWakeupLatency *latency)
{
  g_autofree char *value = kmod_format_duration_exact ((gint64) latency->latency_ns);
  g_autofree char *threshold = kmod_format_duration_exact ((gint64) latency->threshold_ns);

  /* TRANSLATORS: a task plot's hover text over the kernel module's own
   * measurement; durations */
  return g_strdup_printf (_("wakeup latency measured by the module: %s (threshold %s)"),
                          value, threshold);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */

/* Whole pixel columns [*left, *right) covering [begin_ns, end_ns) in the
 * view, at least one wide; FALSE when outside the time area. */
static gboolean
span_columns (const CsPluginView *view,
              gint64              begin_ns,
              gint64              end_ns,
              double             *left,
              double             *right)
{
  gint64 span_begin_ns, span_end_ns;
  double area_x, area_width, area_right;

  cs_plugin_view_get_span (view, &span_begin_ns, &span_end_ns);
  cs_plugin_view_get_area (view, &area_x, NULL, &area_width, NULL);
  area_right = area_x + area_width;
  if (end_ns < span_begin_ns || begin_ns >= span_end_ns || area_width < 1.0)
    return FALSE;
  *left = floor (cs_plugin_view_ns_to_x (view, MAX (begin_ns, span_begin_ns)));
  *right = ceil (cs_plugin_view_ns_to_x (view, MIN (end_ns, span_end_ns)));
  *left = CLAMP (*left, area_x, area_right - 1.0);
  *right = CLAMP (MAX (*right, *left + 1.0), *left + 1.0, area_right);
  return TRUE;
}

/* Black or white, whichever has the higher contrast ratio on @background
 * (WCAG 2 relative luminance). */
static void
ink_on (const CsPluginColor *background,
        CsPluginColor       *ink)
{
  const double *c[3] = { &background->red, &background->green, &background->blue };
  double linear[3], luminance;

  for (guint i = 0; i < 3; i++)
    linear[i] = *c[i] <= 0.04045 ? *c[i] / 12.92 : pow ((*c[i] + 0.055) / 1.055, 2.4);
  luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  *ink = (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05)
         ? (CsPluginColor) { 0.0, 0.0, 0.0, 1.0 } : (CsPluginColor) { 1.0, 1.0, 1.0, 1.0 };
}

/* "irqs-off 20.2 ms" on a tab of the band's colour at the right end of its
 * strip, when the band is wide enough: the section reads without pointing
 * at it.  A bold face smaller than the slices' labels, which sit lower,
 * centred on the plot; drawn with Pango on @cr, so it is text in SVG and
 * PDF too.  A frame shows a handful of tabs at most. */
static void
draw_tab (cairo_t             *cr,
          const KmodSection   *section,
          const CsPluginColor *color,
          double               left,
          double               right,
          double               y)
{
  g_autofree char *length = format_duration_short (section->end_ns - section->begin_ns);
  g_autofree char *text = NULL;
  PangoLayout *layout;
  PangoFontDescription *font;
  CsPluginColor ink;
  int width, height;
  double tab_left;

  text = section->kind == KMOD_SECTION_IRQS_OFF
    /* TRANSLATORS: on a band over a CPU plot; %s is a duration, "20.2 ms" */
    ? g_strdup_printf (_("irqs-off %s"), length)
    /* TRANSLATORS: on a band over a CPU plot; %s is a duration, "304 ms" */
    : g_strdup_printf (_("preempt-off %s"), length);
  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string (TAB_FONT);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  tab_left = right - width - 2 * TAB_PAD_PX;
  if (tab_left >= left + 2 * TAB_PAD_PX)
    {
      cairo_set_source_rgb (cr, color->red, color->green, color->blue);
      cairo_rectangle (cr, tab_left, y, right - tab_left, BAND_TAB_PX);
      cairo_fill (cr);
      ink_on (color, &ink);
      cairo_set_source_rgb (cr, ink.red, ink.green, ink.blue);
      cairo_move_to (cr, tab_left + TAB_PAD_PX, y + floor ((BAND_TAB_PX - height) / 2.0) + 1);
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
}

static void
draw_band (const CsPluginView *view,
           cairo_t            *cr,
           const KmodSection  *section,
           double              left,
           double              right)
{
  CsPluginColor color;
  double y, height;

  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  section_color (view, section->kind, &color);

  cairo_set_source_rgba (cr, color.red, color.green, color.blue, BAND_WASH_ALPHA);
  cairo_rectangle (cr, left, y + BAND_STRIP_PX, right - left, height - BAND_STRIP_PX);
  cairo_fill (cr);

  cairo_set_source_rgb (cr, color.red, color.green, color.blue);
  cairo_rectangle (cr, left, y, right - left, BAND_STRIP_PX);
  cairo_rectangle (cr, left, y, 1, height);
  if (right - left >= 2.0)
    cairo_rectangle (cr, right - 1, y, 1, height);
  cairo_fill (cr);

  draw_tab (cr, section, &color, left, right, y);
}

/* The bands of the plot's CPU overlapping the view. */
static gboolean
draw_sections (gpointer             instance,
               cairo_t             *cr,
               const CsPluginView  *view,
               GError             **error)
{
  KmodInstance *self = instance;
  g_autoptr(GArray) sections = NULL;
  gint64 begin_ns, end_ns;
  int cpu = cs_plugin_view_get_cpu (view);

  if (self == NULL || !kmod_instance_has_events (self) || cpu < 0)
    return TRUE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  sections = g_array_new (FALSE, FALSE, sizeof (KmodSection));
  if (!kmod_instance_get_sections (self, begin_ns, end_ns, sections, error))
    return FALSE;

  /* Preempt-off first, irqs-off over it: where both share pixels (zoomed
   * out), the stronger condition shows (interrupts off also keeps the
   * task on its CPU). */
  for (int kind = KMOD_SECTION_PREEMPT_OFF; kind >= KMOD_SECTION_IRQS_OFF; kind--)
    for (guint i = 0; i < sections->len; i++)
      {
        const KmodSection *s = &g_array_index (sections, KmodSection, i);
        double left, right;

        if ((int) s->kind == kind && s->cpu == (guint) cpu &&
            span_columns (view, s->begin_ns, s->end_ns, &left, &right))
          draw_band (view, cr, s, left, right);
      }
  return TRUE;
}

static void
draw_bracket (cairo_t *cr,
              double   left,
              double   right,
              double   y)
{
  double top = y + BRACKET_TOP_PX + 0.5;
  double bottom = y + BRACKET_BOTTOM_PX;
  double x0 = left + 0.5;
  double x1 = right - 0.5;

  cairo_set_source_rgb (cr, latency_color.red, latency_color.green, latency_color.blue);
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

static gint64
latency_begin_ns (const KmodWakeupLatency *l)
{
  return l->time_ns - (gint64) MIN (l->latency_ns, (guint64) G_MAXINT64 / 2);
}

/* The brackets of the plot's task in the view. */
static gboolean
draw_latencies (gpointer             instance,
                cairo_t             *cr,
                const CsPluginView  *view,
                GError             **error)
{
  KmodInstance *self = instance;
  g_autoptr(GArray) latencies = NULL;
  gint64 begin_ns, end_ns;
  double y;

  if (self == NULL || !kmod_instance_has_events (self) || cs_plugin_view_get_pid (view) < 0)
    return TRUE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  cs_plugin_view_get_area (view, NULL, &y, NULL, NULL);
  latencies = g_array_new (FALSE, FALSE, sizeof (KmodWakeupLatency));
  if (!kmod_instance_get_latencies (self, cs_plugin_view_get_pid (view), begin_ns, end_ns,
                                    latencies, error))
    return FALSE;

  for (guint i = 0; i < latencies->len; i++)
    {
      const KmodWakeupLatency *l = &g_array_index (latencies, KmodWakeupLatency, i);
      double left, right;

      if (span_columns (view, latency_begin_ns (l), l->time_ns, &left, &right))
        draw_bracket (cr, left, MAX (right, left + 2.0), y);
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Under the pointer                                                         */

/* The time under @x_px, and how far from it a mark still counts; FALSE
 * when the plugin has nothing on this recording. */
static gboolean
pointer_time (KmodInstance       *self,
              const CsPluginView *view,
              double              x_px,
              gint64             *ts_ns,
              gint64             *radius_ns)
{
  gint64 begin_ns, end_ns;

  if (self == NULL || !kmod_instance_has_events (self))
    return FALSE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  *ts_ns = CLAMP (cs_plugin_view_x_to_ns (view, x_px), begin_ns, end_ns - 1);
  *radius_ns = (gint64) ceil (MAX (HIT_RADIUS_PX * cs_plugin_view_get_ns_per_px (view), 1.0));
  return TRUE;
}

/* Logs a failed read under the pointer: the info bar then says nothing
 * of the layer, which is all a lookup can do. */
static gboolean
lookup_failed (GError *error)
{
  g_message ("%s", error->message);
  g_error_free (error);
  return FALSE;
}

/* The section of the plot's CPU holding the time under the pointer, else
 * the nearest within a few pixels; of two as near, irqs-off (drawn on
 * top). */
static gboolean
lookup_section (gpointer             instance,
                const CsPluginView  *view,
                double               x_px,
                double               y_px,
                CsPluginItem        *item)
{
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (KmodSection));
  GError *error = NULL;
  int cpu = cs_plugin_view_get_cpu (view);
  gint64 ts_ns, radius_ns, best = G_MAXINT64;
  const KmodSection *found = NULL;

  if (cpu < 0 || !pointer_time (instance, view, x_px, &ts_ns, &radius_ns))
    return FALSE;
  if (!kmod_instance_get_sections (instance, ts_ns - radius_ns, ts_ns + radius_ns + 1, sections,
                                   &error))
    return lookup_failed (error);
  for (guint i = 0; i < sections->len; i++)
    {
      const KmodSection *s = &g_array_index (sections, KmodSection, i);
      gint64 distance = ts_ns < s->begin_ns ? s->begin_ns - ts_ns
                      : ts_ns >= s->end_ns ? ts_ns - s->end_ns + (s->end_ns > s->begin_ns)
                      : 0;

      if (s->cpu == (guint) cpu && distance <= radius_ns &&
          (distance < best || (distance == best && s->kind == KMOD_SECTION_IRQS_OFF)))
        {
          found = s;
          best = distance;
        }
    }
  if (found == NULL)
    return FALSE;
  item->text = describe_section (found);
  item->begin_ns = found->begin_ns;
  item->end_ns = found->end_ns;
  item->pid = -1;
  return TRUE;
}

/* The wakeup latency of the plot's task whose bracket holds the time
 * under the pointer, else the nearest within a few pixels. */
static gboolean
lookup_latency (gpointer             instance,
                const CsPluginView  *view,
                double               x_px,
                double               y_px,
                CsPluginItem        *item)
{
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (KmodWakeupLatency));
  GError *error = NULL;
  gint32 pid = cs_plugin_view_get_pid (view);
  gint64 ts_ns, radius_ns, best = G_MAXINT64;
  const KmodWakeupLatency *found = NULL;

  if (pid < 0 || !pointer_time (instance, view, x_px, &ts_ns, &radius_ns))
    return FALSE;
  if (!kmod_instance_get_latencies (instance, pid, ts_ns - radius_ns, ts_ns + radius_ns + 1,
                                    latencies, &error))
    return lookup_failed (error);
  for (guint i = 0; i < latencies->len; i++)
    {
      const KmodWakeupLatency *l = &g_array_index (latencies, KmodWakeupLatency, i);
      gint64 begin_ns = latency_begin_ns (l);
      gint64 distance = ts_ns < begin_ns ? begin_ns - ts_ns
                      : ts_ns > l->time_ns ? ts_ns - l->time_ns
                      : 0;

      if (distance <= radius_ns && distance < best)
        {
          found = l;
          best = distance;
        }
    }
  if (found == NULL)
    return FALSE;
  item->text = describe_latency (found);
  item->begin_ns = latency_begin_ns (found);
  item->end_ns = found->time_ns;
  item->pid = found->pid;
  return TRUE;
}

/**
 * kmod_sections_layer:
 *
 * The layer "sections" over CPU plots: the module's irqs-off and
 * preempt-off sections as bands.
 */
const CsPluginLayerInfo kmod_sections_layer = {
  .struct_size = sizeof (CsPluginLayerInfo),
  .name = "sections",
  .target = CS_PLUGIN_LAYER_CPU_PLOT,
  .draw = draw_sections,
  .lookup = lookup_section,
};

/**
 * kmod_latencies_layer:
 *
 * The layer "wakeup_latencies" over task plots: the wakeup latencies the
 * module measured, as brackets.
 */
const CsPluginLayerInfo kmod_latencies_layer = {
  .struct_size = sizeof (CsPluginLayerInfo),
  .name = "wakeup_latencies",
  .target = CS_PLUGIN_LAYER_TASK_PLOT,
  .draw = draw_latencies,
  .lookup = lookup_latency,
};
