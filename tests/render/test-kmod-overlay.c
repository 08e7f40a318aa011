/* test-kmod-overlay.c: the kernel module's sections and wakeup latencies
 * drawn over a real recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/kmod-sections-v7.dat (recorded in the kmod QEMU guest, see
 * tests/data/README.md) holds a 20 ms irqs-off section and a 300 ms
 * preempt-off section on CPU 1, and a wakeup latency the module measured
 * for the sleeper.  Where the index puts them (cs-kmod-sections.h), the
 * drawing must show their colours, and nowhere else.  On a mismatch the
 * drawing is written to <test>.out.png (path printed).
 */
#include <math.h>

#include "cs-kmod-sections.h"
#include "cs-palette.h"
#include "cs-timeline-renderer.h"
#include "render-test-util.h"

/* Pixel rows checked, from the top of a plot: inside the band's opaque
 * strip (CS_KMOD_BAND_STRIP_PX = 4) and the bracket's top line (row 1). */
#define STRIP_ROW    1
#define BRACKET_ROW  1

static const CsTestRecording kmod = { "kmod-sections-v7.dat", "kmod-sections-v7.dat" };
static const CsTestRecording sched_v7 = { "sched-irq-v7.dat", "sched-x86-v7-zstd.dat" };

static guint32
rgb24 (const CsColor *color)
{
  return cs_color_to_rgb24 (color);
}

static guint32
section_rgb (CsKmodSectionKind kind)
{
  CsColor color;

  cs_palette_get_kmod_section_color (kind, &color);
  return rgb24 (&color);
}

static guint32
latency_rgb (void)
{
  CsColor color;

  cs_palette_get_kmod_latency_color (&color);
  return rgb24 (&color);
}

/* The only section of @kind in the recording. */
static CsKmodSection
get_section (CsTestFixture     *fixture,
             CsKmodSectionKind  kind)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = cs_document_get_kmod_sections (fixture->document, G_MININT64,
                                                         G_MAXINT64, &error);
  CsKmodSection found = { 0 };
  guint n = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, CsKmodSection, i).kind == kind)
      {
        found = g_array_index (all, CsKmodSection, i);
        n++;
      }
  g_assert_cmpuint (n, ==, 1);
  return found;
}

/* The plot index of @cpu among the renderer's CPU plots. */
static guint
cpu_plot_index (CsTestFixture *fixture,
                guint          cpu)
{
  guint n_cpus;
  const guint *cpus = cs_timeline_renderer_get_cpus (fixture->renderer, &n_cpus);

  for (guint i = 0; i < n_cpus; i++)
    if (cpus[i] == cpu)
      return i;
  g_assert_not_reached ();
}

static int
cpu_plot_row (CsTestFixture *fixture,
              guint          cpu,
              int            row)
{
  double y;

  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, cpu_plot_index (fixture, cpu), &y, NULL);
  return (int) y + row;
}

static CsViewport
viewport_of (CsTestFixture *fixture,
             gint64         begin_ns,
             gint64         end_ns,
             int            width_px)
{
  return (CsViewport) {
    .begin_ns = begin_ns,
    .end_ns = end_ns,
    .width_px = width_px,
    .height_px = cs_timeline_renderer_get_natural_height (fixture->renderer),
  };
}

/* Whether a pixel of @rgb lies in row @y between x0 and x1 (inclusive). */
static gboolean
row_has_color (CsTestFixture *fixture,
               int            y,
               int            x0,
               int            x1,
               guint32        rgb)
{
  for (int x = MAX (x0, 0); x <= x1; x++)
    if (cs_test_same_color (cs_test_pixel (fixture, x, y), rgb, 2))
      return TRUE;
  return FALSE;
}

/* The band of each kind is drawn across its section on CPU 1 and stops at
 * its ends; CPU 0 has none. */
static void
test_bands_cover_sections (CsTestFixture *fixture,
                           gconstpointer  data)
{
  const CsKmodSectionKind kinds[] = { CS_KMOD_SECTION_IRQS_OFF, CS_KMOD_SECTION_PREEMPT_OFF };
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  int strip_y = cpu_plot_row (fixture, 1, STRIP_ROW);
  int cpu0_y = cpu_plot_row (fixture, 0, STRIP_ROW);

  g_assert_cmpuint (section_rgb (kinds[0]), !=, section_rgb (kinds[1]));
  cs_test_render (fixture, &viewport);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      CsKmodSection s = get_section (fixture, kinds[k]);
      guint32 rgb = section_rgb (kinds[k]);
      int x0 = (int) ceil (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, s.begin_ns));
      int x1 = (int) floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, s.end_ns)) - 1;
      int mid_y = cpu_plot_row (fixture, 1, 20);

      g_assert_cmpuint (s.cpu, ==, 1);
      g_assert_cmpint (x1, >, x0);
      for (int x = x0; x <= x1; x++)
        cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, x, strip_y), rgb, 2),
                       "%s band missing at x=%d (section %d..%d): %06x",
                       cs_kmod_section_kind_to_string (kinds[k]), x, x0, x1,
                       cs_test_pixel (fixture, x, strip_y));
      /* Translucent over the slices: the middle of the plot is not the
       * band's colour but the task's, tinted. */
      cs_test_check (fixture, !cs_test_same_color (cs_test_pixel (fixture, (x0 + x1) / 2, mid_y), rgb, 8),
                     "the band hides the slices");
      /* Not before or after it, nor on CPU 0. */
      cs_test_check (fixture, !row_has_color (fixture, strip_y, x0 - 12, x0 - 3, rgb),
                     "%s band before its section", cs_kmod_section_kind_to_string (kinds[k]));
      cs_test_check (fixture, !row_has_color (fixture, strip_y, x1 + 3, x1 + 12, rgb),
                     "%s band after its section", cs_kmod_section_kind_to_string (kinds[k]));
      cs_test_check (fixture, !row_has_color (fixture, cpu0_y, x0, x1, rgb),
                     "%s band on CPU 0", cs_kmod_section_kind_to_string (kinds[k]));
    }
}

/* Zoomed onto the irqs-off section, its band carries a tab naming it at
 * the strip's right end; in the whole recording it is too narrow for one. */
static void
test_tab_where_it_fits (CsTestFixture *fixture,
                        gconstpointer  data)
{
  CsKmodSection s = get_section (fixture, CS_KMOD_SECTION_IRQS_OFF);
  gint64 length_ns = s.end_ns - s.begin_ns;
  guint32 rgb = section_rgb (CS_KMOD_SECTION_IRQS_OFF);
  int tab_y = cpu_plot_row (fixture, 1, 9);
  CsViewport zoomed = viewport_of (fixture, s.begin_ns - length_ns / 4, s.end_ns + length_ns / 4, 1200);
  CsViewport whole = viewport_of (fixture, cs_document_get_first_ns (fixture->document),
                                  cs_document_get_last_ns (fixture->document) + 1, 1200);
  int x1;

  cs_test_render (fixture, &zoomed);
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &zoomed, s.end_ns)) - 2;
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, x1, tab_y), rgb, 2),
                 "no tab at the right end of the irqs-off band: %06x", cs_test_pixel (fixture, x1, tab_y));
  /* The tab holds text: not every pixel of it is the band's colour. */
  cs_test_check (fixture, !row_has_color (fixture, tab_y, x1 - 40, x1 - 40, rgb) ||
                          !row_has_color (fixture, tab_y, x1 - 30, x1 - 30, rgb) ||
                          !row_has_color (fixture, tab_y, x1 - 20, x1 - 20, rgb),
                 "the tab has no text");

  cs_test_render (fixture, &whole);
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &whole, s.end_ns)) - 2;
  cs_test_check (fixture, !cs_test_same_color (cs_test_pixel (fixture, x1, tab_y), rgb, 2),
                 "a tab on a band too narrow for it");
}

/* Zoomed far out, the 20 ms section is a sliver of a pixel: it still shows,
 * one pixel or so wide, where it is. */
static void
test_band_visible_zoomed_out (CsTestFixture *fixture,
                              gconstpointer  data)
{
  CsKmodSection s = get_section (fixture, CS_KMOD_SECTION_IRQS_OFF);
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  CsViewport viewport = viewport_of (fixture, first_ns - 3600 * G_GINT64_CONSTANT (1000000000),
                                     first_ns + 3600 * G_GINT64_CONSTANT (1000000000), 864);
  guint32 rgb = section_rgb (CS_KMOD_SECTION_IRQS_OFF);
  int strip_y = cpu_plot_row (fixture, 1, STRIP_ROW);
  double x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, s.begin_ns);
  double time_x, time_width;
  int n = 0;

  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, &time_width);
  cs_test_render (fixture, &viewport);
  for (int px = (int) time_x; px < (int) (time_x + time_width); px++)
    if (cs_test_same_color (cs_test_pixel (fixture, px, strip_y), rgb, 2))
      {
        cs_test_check (fixture, fabs (px - x) <= 1.5, "irqs-off band at x=%d, section at %.1f", px, x);
        n++;
      }
  cs_test_check (fixture, n >= 1 && n <= 2, "irqs-off band %d px wide zoomed out", n);
}

/* The module's wakeup latency: a bracket over the sleeper's task plot from
 * its wakeup to its switch-in. */
static void
test_latency_bracket (CsTestFixture *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = cs_document_get_kmod_wakeup_latencies (fixture->document, -1,
                                                                 G_MININT64, G_MAXINT64, &error);
  const CsKmodWakeupLatency *l;
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  CsViewport viewport;
  double y;
  int x0, x1, row;

  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 1);
  l = &g_array_index (all, CsKmodWakeupLatency, 0);
  cs_timeline_renderer_set_task_plots (fixture->renderer, &l->pid, 1);
  viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, NULL);
  row = (int) y + BRACKET_ROW;
  x0 = (int) ceil (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport,
                                                 l->time_ns - (gint64) l->latency_ns));
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, l->time_ns)) - 1;

  cs_test_render (fixture, &viewport);
  for (int x = x0 + 1; x < x1; x++)
    cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, x, row), latency_rgb (), 2),
                   "bracket missing at x=%d (%d..%d)", x, x0, x1);
  cs_test_check (fixture, !row_has_color (fixture, row, x0 - 30, x0 - 3, latency_rgb ()),
                 "bracket before the wakeup");

  /* Pointing at it names it; the CPU plots do not. */
  {
    CsHit hit;

    g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, (x0 + x1) / 2.0,
                                                  y + 20, &hit, &error));
    g_assert_no_error (error);
    g_assert_cmpint (hit.kind, ==, CS_HIT_TASK_PLOT);
    g_assert_true (hit.has_kmod_latency);
    g_assert_cmpint (hit.kmod_latency.pid, ==, l->pid);
    g_assert_cmpuint (hit.kmod_latency.latency_ns, ==, l->latency_ns);

    g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x0 - 40,
                                                  y + 20, &hit, &error));
    g_assert_false (hit.has_kmod_latency);
  }
}

static void
test_hit_finds_section (CsTestFixture *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  CsKmodSection s = get_section (fixture, CS_KMOD_SECTION_IRQS_OFF);
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  double x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, (s.begin_ns + s.end_ns) / 2);
  CsHit hit;

  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x,
                                                cpu_plot_row (fixture, 1, 20), &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_true (hit.has_kmod_section);
  g_assert_cmpint (hit.kmod_section.kind, ==, CS_KMOD_SECTION_IRQS_OFF);
  g_assert_cmpint (hit.kmod_section.begin_ns, ==, s.begin_ns);
  g_assert_cmpint (hit.kmod_section.end_ns, ==, s.end_ns);

  /* Same time on CPU 0: no section there. */
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x,
                                                cpu_plot_row (fixture, 0, 20), &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_false (hit.has_kmod_section);
}

/* Without the module's events, neither colour appears. */
static void
test_no_bands_without_module (CsTestFixture *fixture,
                              gconstpointer  data)
{
  gint64 first_ns = cs_document_get_first_ns (fixture->document);
  gint64 last_ns = cs_document_get_last_ns (fixture->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 800);
  guint n_cpus;

  cs_timeline_renderer_get_cpus (fixture->renderer, &n_cpus);
  cs_test_render (fixture, &viewport);
  for (guint i = 0; i < n_cpus; i++)
    {
      double y;

      cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, i, &y, NULL);
      for (guint k = 0; k < 2; k++)
        cs_test_check (fixture, !row_has_color (fixture, (int) y + STRIP_ROW, 64, 799, section_rgb (k)),
                       "a band in a recording without the module");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, recording, func) \
  g_test_add ("/cs/render/KmodOverlay/" path, CsTestFixture, recording, \
              cs_test_fixture_set_up, func, cs_test_fixture_tear_down)

  ADD ("bands-cover-sections", &kmod, test_bands_cover_sections);
  ADD ("band-visible-zoomed-out", &kmod, test_band_visible_zoomed_out);
  ADD ("tab-where-it-fits", &kmod, test_tab_where_it_fits);
  ADD ("latency-bracket", &kmod, test_latency_bracket);
  ADD ("hit-finds-section", &kmod, test_hit_finds_section);
  ADD ("no-bands-without-module", &sched_v7, test_no_bands_without_module);

#undef ADD
  return cs_test_render_run ();
}
