/* test-kmod-layers.c: the kmod plugin's bands and brackets drawn over a
 * real recording by the renderer, and found under the pointer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/kmod-sections-v7.dat (recorded in the kmod QEMU guest, see
 * tests/data/README.md) holds a 20 ms irqs-off section and a 300 ms
 * preempt-off section on CPU 1, and a wakeup latency the module measured
 * for the sleeper.  Where the plugin's pass puts them, the drawing must
 * show their colours, and nowhere else; the renderer's hit test must hand
 * the info bar the plugin's item for them.  On a mismatch the drawing is
 * written to <test>.out.png (path printed).  (These are the assertions
 * tests/render/test-kmod-overlay.c made of the overlay when it lived in
 * render/.)
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cs-timeline-renderer.h"
#include "builtin-test-host.h"
#include "kmod-test-util.h"

/* Pixel rows checked, from the top of a plot: inside the band's opaque
 * strip (4 px) and the bracket's top line (row 1). */
#define STRIP_ROW    1
#define BRACKET_ROW  1

/* The plugin's colours, as its documentation gives them: Okabe and Ito's
 * vermillion for irqs-off, their blue for preempt-off, a dark wine for the
 * module's measured wakeup latencies. */
#define IRQS_OFF_RGB     0xd55e00
#define PREEMPT_OFF_RGB  0x0072b2
#define LATENCY_RGB      0x882255

typedef CsBuiltinFixture Fixture;

static const CsTestRecording kmod = { "kmod-sections-v7.dat" };
static const CsTestRecording sched_v7 = { "sched-irq-v7.dat" };

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  cs_builtin_fixture_set_up (fixture, "kmod", data);
  kmod_test_run_pass (fixture->plugins, fixture->plugin);
}

/* A scheduler like the window's: a request is kept for later (counted
 * in @data), ensure runs the pass. */
static void
later_request (gpointer          data,
               CsPluginDocument *document,
               CsPlugin         *plugin,
               const char       *pass,
               const char       *param)
{
  (*(guint *) data)++;
}

static gboolean
later_ensure (gpointer           data,
              CsPluginDocument  *document,
              CsPlugin          *plugin,
              const char        *pass,
              const char        *param,
              GCancellable      *cancellable,
              GError           **error)
{
  return _cs_plugin_pass_run (document, plugin, pass, param, NULL, NULL, cancellable, NULL, error);
}

static const CsPluginPassScheduler later_scheduler = { later_request, later_ensure, NULL };
static guint n_later_requests;

/* The plugin enabled on a document whose passes run later, as in the
 * window: its first frames come before its pass is done. */
static void
fixture_set_up_before_pass (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->registry = cs_plugin_registry_new ();
  cs_plugin_registry_scan (fixture->registry);
  fixture->plugin = cs_plugin_registry_lookup (fixture->registry, "kmod");
  g_assert_nonnull (fixture->plugin);
  cs_test_fixture_set_up (&fixture->base, data);
  fixture->plugins = _cs_plugin_document_new (fixture->base.document);
  n_later_requests = 0;
  _cs_plugin_document_set_scheduler (fixture->plugins, &later_scheduler, &n_later_requests);
  g_assert_true (_cs_plugin_document_enable (fixture->plugins, fixture->plugin, &error));
  g_assert_no_error (error);
  cs_timeline_renderer_set_plugins (fixture->base.renderer, fixture->plugins);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  cs_builtin_fixture_tear_down (fixture);
}

static guint32
section_rgb (int kind)
{
  return kind == KMOD_TEST_IRQS_OFF ? IRQS_OFF_RGB : PREEMPT_OFF_RGB;
}

static const char *
kind_name (int kind)
{
  return kind == KMOD_TEST_IRQS_OFF ? "irqs-off" : "preempt-off";
}

/* The only section of @kind in the recording, from the plugin's pass. */
static KmodTestSection
get_section (Fixture *fixture,
             int      kind)
{
  g_autoptr(GArray) all = kmod_test_get_sections (fixture->plugins, fixture->plugin);

  return *kmod_test_only_section (all, kind);
}

/* The plot index of @cpu among the renderer's CPU plots. */
static guint
cpu_plot_index (Fixture *fixture,
                guint    cpu)
{
  guint n_cpus;
  const guint *cpus = cs_timeline_renderer_get_cpus (fixture->base.renderer, &n_cpus);

  for (guint i = 0; i < n_cpus; i++)
    if (cpus[i] == cpu)
      return i;
  g_assert_not_reached ();
}

static int
cpu_plot_row (Fixture *fixture,
              guint    cpu,
              int      row)
{
  double y;

  cs_timeline_renderer_get_cpu_plot_area (fixture->base.renderer, cpu_plot_index (fixture, cpu),
                                          &y, NULL);
  return (int) y + row;
}

static CsViewport
viewport_of (Fixture *fixture,
             gint64   begin_ns,
             gint64   end_ns,
             int      width_px)
{
  return (CsViewport) {
    .begin_ns = begin_ns,
    .end_ns = end_ns,
    .width_px = width_px,
    .height_px = cs_timeline_renderer_get_natural_height (fixture->base.renderer),
  };
}

/* Whether a pixel of @rgb lies in row @y between x0 and x1 (inclusive). */
static gboolean
row_has_color (Fixture *fixture,
               int      y,
               int      x0,
               int      x1,
               guint32  rgb)
{
  for (int x = MAX (x0, 0); x <= x1; x++)
    if (cs_test_same_color (cs_test_pixel (&fixture->base, x, y), rgb, 2))
      return TRUE;
  return FALSE;
}

/* The band of each kind is drawn across its section on CPU 1 and stops at
 * its ends; CPU 0 has none. */
static void
test_bands_cover_sections (Fixture       *fixture,
                           gconstpointer  data)
{
  const int kinds[] = { KMOD_TEST_IRQS_OFF, KMOD_TEST_PREEMPT_OFF };
  CsTestFixture *f = &fixture->base;
  gint64 first_ns = cs_document_get_first_ns (f->document);
  gint64 last_ns = cs_document_get_last_ns (f->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  int strip_y = cpu_plot_row (fixture, 1, STRIP_ROW);
  int cpu0_y = cpu_plot_row (fixture, 0, STRIP_ROW);

  cs_test_render (f, &viewport);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      KmodTestSection s = get_section (fixture, kinds[k]);
      guint32 rgb = section_rgb (kinds[k]);
      int x0 = (int) ceil (cs_timeline_renderer_ns_to_x (f->renderer, &viewport, s.begin_ns));
      int x1 = (int) floor (cs_timeline_renderer_ns_to_x (f->renderer, &viewport, s.end_ns)) - 1;
      int mid_y = cpu_plot_row (fixture, 1, 20);

      g_assert_cmpuint (s.cpu, ==, 1);
      g_assert_cmpint (x1, >, x0);
      for (int x = x0; x <= x1; x++)
        cs_test_check (f, cs_test_same_color (cs_test_pixel (f, x, strip_y), rgb, 2),
                       "%s band missing at x=%d (section %d..%d): %06x",
                       kind_name (kinds[k]), x, x0, x1, cs_test_pixel (f, x, strip_y));
      /* Translucent over the slices: the middle of the plot is not the
       * band's colour but the task's, tinted. */
      cs_test_check (f, !cs_test_same_color (cs_test_pixel (f, (x0 + x1) / 2, mid_y), rgb, 8),
                     "the band hides the slices");
      /* Not before or after it, nor on CPU 0. */
      cs_test_check (f, !row_has_color (fixture, strip_y, x0 - 12, x0 - 3, rgb),
                     "%s band before its section", kind_name (kinds[k]));
      cs_test_check (f, !row_has_color (fixture, strip_y, x1 + 3, x1 + 12, rgb),
                     "%s band after its section", kind_name (kinds[k]));
      cs_test_check (f, !row_has_color (fixture, cpu0_y, x0, x1, rgb),
                     "%s band on CPU 0", kind_name (kinds[k]));
    }
}

/* Zoomed onto the irqs-off section, its band carries a tab naming it at
 * the strip's right end; in the whole recording it is too narrow for one. */
static void
test_tab_where_it_fits (Fixture       *fixture,
                        gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  KmodTestSection s = get_section (fixture, KMOD_TEST_IRQS_OFF);
  gint64 length_ns = s.end_ns - s.begin_ns;
  guint32 rgb = IRQS_OFF_RGB;
  int tab_y = cpu_plot_row (fixture, 1, 9);
  CsViewport zoomed = viewport_of (fixture, s.begin_ns - length_ns / 4, s.end_ns + length_ns / 4, 1200);
  CsViewport whole = viewport_of (fixture, cs_document_get_first_ns (f->document),
                                  cs_document_get_last_ns (f->document) + 1, 1200);
  int x1;

  cs_test_render (f, &zoomed);
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (f->renderer, &zoomed, s.end_ns)) - 2;
  cs_test_check (f, cs_test_same_color (cs_test_pixel (f, x1, tab_y), rgb, 2),
                 "no tab at the right end of the irqs-off band: %06x", cs_test_pixel (f, x1, tab_y));
  /* The tab holds text: not every pixel of it is the band's colour. */
  cs_test_check (f, !row_has_color (fixture, tab_y, x1 - 40, x1 - 40, rgb) ||
                    !row_has_color (fixture, tab_y, x1 - 30, x1 - 30, rgb) ||
                    !row_has_color (fixture, tab_y, x1 - 20, x1 - 20, rgb),
                 "the tab has no text");

  cs_test_render (f, &whole);
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (f->renderer, &whole, s.end_ns)) - 2;
  cs_test_check (f, !cs_test_same_color (cs_test_pixel (f, x1, tab_y), rgb, 2),
                 "a tab on a band too narrow for it");
}

/* Zoomed far out, the 20 ms section is a sliver of a pixel: it still shows,
 * one pixel or so wide, where it is. */
static void
test_band_visible_zoomed_out (Fixture       *fixture,
                              gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  KmodTestSection s = get_section (fixture, KMOD_TEST_IRQS_OFF);
  gint64 first_ns = cs_document_get_first_ns (f->document);
  CsViewport viewport = viewport_of (fixture, first_ns - 3600 * G_GINT64_CONSTANT (1000000000),
                                     first_ns + 3600 * G_GINT64_CONSTANT (1000000000), 864);
  int strip_y = cpu_plot_row (fixture, 1, STRIP_ROW);
  double x = cs_timeline_renderer_ns_to_x (f->renderer, &viewport, s.begin_ns);
  double time_x, time_width;
  int n = 0;

  cs_timeline_renderer_get_time_area (f->renderer, &viewport, &time_x, &time_width);
  cs_test_render (f, &viewport);
  for (int px = (int) time_x; px < (int) (time_x + time_width); px++)
    if (cs_test_same_color (cs_test_pixel (f, px, strip_y), IRQS_OFF_RGB, 2))
      {
        cs_test_check (f, fabs (px - x) <= 1.5, "irqs-off band at x=%d, section at %.1f", px, x);
        n++;
      }
  cs_test_check (f, n >= 1 && n <= 2, "irqs-off band %d px wide zoomed out", n);
}

/* The module's wakeup latency: a bracket over the sleeper's task plot from
 * its wakeup to its switch-in; pointing at it gives the plugin's item. */
static void
test_latency_bracket (Fixture       *fixture,
                      gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = kmod_test_get_latencies (fixture->plugins, fixture->plugin);
  const KmodTestLatency *l;
  gint64 first_ns = cs_document_get_first_ns (f->document);
  gint64 last_ns = cs_document_get_last_ns (f->document);
  CsViewport viewport;
  CsHit hit;
  double y;
  int x0, x1, row;

  g_assert_cmpuint (all->len, ==, 1);
  l = &g_array_index (all, KmodTestLatency, 0);
  cs_timeline_renderer_set_task_plots (f->renderer, &l->pid, 1);
  viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  cs_timeline_renderer_get_task_plot_area (f->renderer, 0, &y, NULL);
  row = (int) y + BRACKET_ROW;
  x0 = (int) ceil (cs_timeline_renderer_ns_to_x (f->renderer, &viewport,
                                                 l->time_ns - (gint64) l->latency_ns));
  x1 = (int) floor (cs_timeline_renderer_ns_to_x (f->renderer, &viewport, l->time_ns)) - 1;

  cs_test_render (f, &viewport);
  for (int x = x0 + 1; x < x1; x++)
    cs_test_check (f, cs_test_same_color (cs_test_pixel (f, x, row), LATENCY_RGB, 2),
                   "bracket missing at x=%d (%d..%d)", x, x0, x1);
  cs_test_check (f, !row_has_color (fixture, row, x0 - 30, x0 - 3, LATENCY_RGB),
                 "bracket before the wakeup");

  /* Pointing at it names it, for the info bar and A/B on a double-click;
   * beside it, nothing. */
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, (x0 + x1) / 2.0,
                                                y + 20, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_TASK_PLOT);
  g_assert_true (hit.has_item);
  g_assert_true (hit.item_plugin == fixture->plugin);
  g_assert_cmpint (hit.item.pid, ==, l->pid);
  g_assert_cmpint (hit.item.end_ns, ==, l->time_ns);
  g_assert_cmpint (hit.item.end_ns - hit.item.begin_ns, ==, (gint64) l->latency_ns);
  g_assert_true (g_str_has_prefix (hit.item.text, "wakeup latency measured by the module: "));

  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x0 - 40,
                                                y + 20, &hit, &error));
  g_assert_false (hit.has_item);
}

static void
test_hit_finds_section (Fixture       *fixture,
                        gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  g_autoptr(GError) error = NULL;
  KmodTestSection s = get_section (fixture, KMOD_TEST_IRQS_OFF);
  gint64 first_ns = cs_document_get_first_ns (f->document);
  gint64 last_ns = cs_document_get_last_ns (f->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  double x = cs_timeline_renderer_ns_to_x (f->renderer, &viewport, (s.begin_ns + s.end_ns) / 2);
  CsHit hit;

  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x,
                                                cpu_plot_row (fixture, 1, 20), &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_true (hit.has_item);
  g_assert_true (hit.item_plugin == fixture->plugin);
  g_assert_cmpint (hit.item.begin_ns, ==, s.begin_ns);
  g_assert_cmpint (hit.item.end_ns, ==, s.end_ns);
  g_assert_cmpint (hit.item.pid, ==, -1);
  g_assert_true (g_str_has_prefix (hit.item.text, "irqs-off section on CPU 1: "));

  /* Same time on CPU 0: no section there. */
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x,
                                                cpu_plot_row (fixture, 0, 20), &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_false (hit.has_item);
}

/* Zoomed in, a section is found from its begin to its end, and not beyond
 * the few pixels the pointer is allowed to miss by. */
static void
test_hit_stays_in_section (Fixture       *fixture,
                           gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  g_autoptr(GError) error = NULL;
  KmodTestSection s = get_section (fixture, KMOD_TEST_IRQS_OFF);
  gint64 length_ns = s.end_ns - s.begin_ns;
  CsViewport viewport = viewport_of (fixture, s.begin_ns - length_ns, s.end_ns + length_ns, 1200);
  double x_begin = cs_timeline_renderer_ns_to_x (f->renderer, &viewport, s.begin_ns);
  double x_end = cs_timeline_renderer_ns_to_x (f->renderer, &viewport, s.end_ns);
  int y = cpu_plot_row (fixture, 1, 20);
  CsHit hit;

  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x_begin + 1, y, &hit, &error));
  g_assert_true (hit.has_item);
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x_end - 1, y, &hit, &error));
  g_assert_true (hit.has_item);
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x_begin - 12, y, &hit, &error));
  g_assert_false (hit.has_item);
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, x_end + 12, y, &hit, &error));
  g_assert_false (hit.has_item);
  g_assert_no_error (error);
}

/* Without the module's events, neither colour appears and nothing is
 * found. */
static void
test_no_bands_without_module (Fixture       *fixture,
                              gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  g_autoptr(GError) error = NULL;
  gint64 first_ns = cs_document_get_first_ns (f->document);
  gint64 last_ns = cs_document_get_last_ns (f->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 800);
  guint n_cpus;

  cs_timeline_renderer_get_cpus (f->renderer, &n_cpus);
  cs_test_render (f, &viewport);
  for (guint i = 0; i < n_cpus; i++)
    {
      double y;
      CsHit hit;

      cs_timeline_renderer_get_cpu_plot_area (f->renderer, i, &y, NULL);
      for (int k = KMOD_TEST_IRQS_OFF; k <= KMOD_TEST_PREEMPT_OFF; k++)
        cs_test_check (f, !row_has_color (fixture, (int) y + STRIP_ROW, 64, 799, section_rgb (k)),
                       "a band in a recording without the module");
      g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, 400, y + 20, &hit, &error));
      g_assert_no_error (error);
      g_assert_false (hit.has_item);
    }
}

/* Opening a recording with the module's events asks for the pass once;
 * before it has given its results, the plugin draws nothing and finds
 * nothing, quietly (a warning or a critical would fail the test); once
 * the pass is done, the band is there. */
static void
test_nothing_before_pass (Fixture       *fixture,
                          gconstpointer  data)
{
  CsTestFixture *f = &fixture->base;
  g_autoptr(GError) error = NULL;
  gint64 first_ns = cs_document_get_first_ns (f->document);
  gint64 last_ns = cs_document_get_last_ns (f->document);
  CsViewport viewport = viewport_of (fixture, first_ns, last_ns + 1, 1200);
  int strip_y = cpu_plot_row (fixture, 1, STRIP_ROW);
  double time_x, time_width;
  CsHit hit;
  KmodTestSection s;
  double x;

  g_assert_cmpuint (n_later_requests, ==, 1);
  cs_timeline_renderer_get_time_area (f->renderer, &viewport, &time_x, &time_width);
  cs_test_render (f, &viewport);
  cs_test_check (f, !row_has_color (fixture, strip_y, (int) time_x, (int) (time_x + time_width) - 1,
                                    IRQS_OFF_RGB),
                 "a band before the pass ran");
  g_assert_true (cs_timeline_renderer_hit_test (f->renderer, &viewport, time_x + time_width / 2,
                                                strip_y + 20, &hit, &error));
  g_assert_no_error (error);
  g_assert_false (hit.has_item);

  kmod_test_run_pass (fixture->plugins, fixture->plugin);
  _cs_plugin_document_pass_finished (fixture->plugins, fixture->plugin, "events", NULL);
  s = get_section (fixture, KMOD_TEST_IRQS_OFF);
  x = cs_timeline_renderer_ns_to_x (f->renderer, &viewport, (s.begin_ns + s.end_ns) / 2);
  cs_test_render (f, &viewport);
  cs_test_check (f, cs_test_same_color (cs_test_pixel (f, (int) x, strip_y), IRQS_OFF_RGB, 2),
                 "no band once the pass ran");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, recording, func) \
  g_test_add ("/cs/plugins/KmodLayers/" path, Fixture, recording, \
              fixture_set_up, func, fixture_tear_down)

  ADD ("bands-cover-sections", &kmod, test_bands_cover_sections);
  ADD ("band-visible-zoomed-out", &kmod, test_band_visible_zoomed_out);
  ADD ("tab-where-it-fits", &kmod, test_tab_where_it_fits);
  ADD ("latency-bracket", &kmod, test_latency_bracket);
  ADD ("hit-finds-section", &kmod, test_hit_finds_section);
  ADD ("hit-stays-in-section", &kmod, test_hit_stays_in_section);
  ADD ("no-bands-without-module", &sched_v7, test_no_bands_without_module);
  g_test_add ("/cs/plugins/KmodLayers/nothing-before-pass", Fixture, &kmod,
              fixture_set_up_before_pass, test_nothing_before_pass, fixture_tear_down);

#undef ADD
  return cs_test_render_run ();
}
