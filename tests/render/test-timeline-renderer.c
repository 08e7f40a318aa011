/* test-timeline-renderer.c: CPU plots drawn from real recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Recordings: $CS_TESTDATA (tests/data/) when the project's own recordings
 * are there, otherwise public ones from $CS_SHARED_TESTDATA.  Each test
 * builds the index in its own $XDG_CACHE_HOME (G_TEST_OPTION_ISOLATE_DIRS).
 * On a mismatch the drawing is written to <test>.out.png in a temporary
 * directory whose path is printed.
 */
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gstdio.h>

#include "cs-palette.h"
#include "cs-theme.h"
#include "cs-timeline-renderer.h"
#include "render-test-util.h"

static const CsTestRecording sched_v6 = { "sched-irq-v6.dat" };
static const CsTestRecording sched_v7 = { "sched-irq-v7.dat" };
static const CsTestRecording no_sched = { "no-sched-v6.dat" };

static void
fixture_set_up (CsTestFixture *fixture, gconstpointer data)
{
  cs_test_fixture_set_up (fixture, data);
  g_assert_cmpuint (cs_document_get_n_events (fixture->document), >, 0);
}

static CsViewport
full_viewport (CsTestFixture *fixture, int width_px)
{
  CsViewport viewport = {
    .begin_ns = cs_document_get_first_ns (fixture->document),
    .end_ns = cs_document_get_last_ns (fixture->document) + 1,
    .width_px = width_px,
    .height_px = cs_timeline_renderer_get_natural_height (fixture->renderer),
  };
  return viewport;
}

/* A viewport of @width_px starting at the first event, zoomed out (at
 * least the summary resolution per pixel): small recordings are drawn from
 * slices even when shown whole, so this may extend past the last event. */
static CsViewport
zoomed_out_viewport (CsTestFixture *fixture, int width_px)
{
  CsViewport viewport = full_viewport (fixture, width_px);
  gint64 resolution_ns = cs_document_get_summary_resolution_ns (fixture->document);

  viewport.end_ns = MAX (viewport.end_ns, viewport.begin_ns + resolution_ns * (width_px - 64));
  return viewport;
}

/* A viewport of @width_px centred on @center_ns, zoomed in (less than the
 * summary resolution per pixel) and at most @span_ns wide. */
static CsViewport
zoomed_in_viewport (CsTestFixture *fixture, gint64 center_ns, gint64 span_ns, int width_px)
{
  gint64 resolution_ns = cs_document_get_summary_resolution_ns (fixture->document);
  gint64 max_span_ns = resolution_ns * (width_px - 64) / 2;
  CsViewport viewport;

  span_ns = CLAMP (span_ns, 2 * width_px, MAX (max_span_ns, 2 * width_px));
  viewport.begin_ns = center_ns - span_ns / 2;
  viewport.end_ns = viewport.begin_ns + span_ns;
  viewport.width_px = width_px;
  viewport.height_px = cs_timeline_renderer_get_natural_height (fixture->renderer);
  return viewport;
}

static int
channel_spread (guint32 rgb)
{
  int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;

  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b));
}

static int
channel_max (guint32 rgb)
{
  return MAX ((rgb >> 16) & 0xff, MAX ((rgb >> 8) & 0xff, rgb & 0xff));
}

static guint
find_sched_cpu (CsTestFixture *fixture)
{
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    if (cs_document_get_cpu (fixture->document, cpu)->has_sched_switch)
      return cpu;
  g_error ("no CPU with sched_switch");
  return 0;
}

/* The longest slice of the recording, to sample its middle. */
static guint
find_long_slice (CsTestFixture *fixture, CsSlice *longest)
{
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
  g_autoptr(GError) error = NULL;
  guint best_cpu = 0;

  longest->end_ns = longest->begin_ns = 0;
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    {
      g_array_set_size (slices, 0);
      g_assert_true (cs_document_get_slices (fixture->document, cpu,
                                             cs_document_get_first_ns (fixture->document),
                                             cs_document_get_last_ns (fixture->document) + 1,
                                             slices, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < slices->len; i++)
        {
          const CsSlice *slice = &g_array_index (slices, CsSlice, i);

          g_assert_cmpint (slice->pid, >, 0);
          if (slice->end_ns - slice->begin_ns > longest->end_ns - longest->begin_ns)
            {
              *longest = *slice;
              best_cpu = cpu;
            }
        }
    }
  g_assert_cmpint (longest->end_ns, >, longest->begin_ns);
  return best_cpu;
}

static guint
plot_index_of (CsTestFixture *fixture, guint cpu)
{
  /* Every CPU is drawn, in order, unless set_cpus() says otherwise. */
  return cpu;
}

static void
test_zoomed_out_not_blank (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport = zoomed_out_viewport (fixture, 1200);
  guint n_colored = 0, n_plots_with_bars = 0;
  double time_x, time_width;

  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, &time_width);
  g_assert_cmpfloat (time_x, >, 0);
  g_assert_cmpfloat (time_x + time_width, ==, viewport.width_px);

  for (guint i = 0; i < cs_document_get_n_cpus (fixture->document); i++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (fixture->document, i);
      double y, height;
      guint n_in_plot = 0;

      cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, i),
                                              &y, &height);
      for (int x = (int) time_x; x < viewport.width_px; x++)
        {
          gboolean in_bar = FALSE;

          for (int row = (int) y; row < (int) (y + height); row++)
            {
              gboolean colored = channel_spread (cs_test_pixel (fixture, x, row)) > 40;

              /* Busy bars stand on the bottom of the plot: once a column
               * is coloured, it stays coloured down to the bottom. */
              cs_test_check (fixture, !in_bar || colored,
                             "CPU %u: column %d has a gap at row %d under a busy bar", i, x, row);
              in_bar = in_bar || colored;
              n_in_plot += colored;
            }
        }

      if (info->has_sched_switch && info->n_events > 0)
        n_plots_with_bars += n_in_plot > 0;
      n_colored += n_in_plot;
    }

  cs_test_check (fixture, n_plots_with_bars > 0, "no CPU plot has busy bars");
  cs_test_check (fixture, n_colored > 200, "only %u coloured pixels in the plots", n_colored);
}

static void
test_full_view_not_blank (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport = full_viewport (fixture, 1920);
  guint n_colored = 0;
  double time_x;

  /* The whole recording on a wide screen, from summaries or from slices
   * depending on its length: task colours over most of the plots. */
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, NULL);
  for (guint i = 0; i < cs_document_get_n_cpus (fixture->document); i++)
    {
      double y, height;

      cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, i),
                                              &y, &height);
      for (int x = (int) time_x; x < viewport.width_px; x++)
        n_colored += channel_spread (cs_test_pixel (fixture, x, (int) (y + height) - 8)) > 40;
    }

  cs_test_check (fixture, n_colored > 1000, "only %u coloured pixels along the plots", n_colored);
}

static void
test_zoomed_out_busy_height (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  CsViewport viewport = zoomed_out_viewport (fixture, 1000);
  double time_x, time_width, y, height;
  guint cpu = find_sched_cpu (fixture);
  g_autofree CsColumn *columns = NULL;
  guint n_checked = 0;

  /* The bar of each column is as high as the CPU was busy in it, in the
   * dominant task's colour. */
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, &time_width);
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);
  columns = g_new (CsColumn, (guint) time_width);
  g_assert_true (cs_document_get_cpu_columns (fixture->document, cpu, viewport.begin_ns,
                                              viewport.end_ns, (guint) time_width, columns,
                                              &error));
  g_assert_no_error (error);

  for (guint i = 0; i < (guint) time_width; i++)
    {
      double column_ns = (double) (viewport.end_ns - viewport.begin_ns) / time_width;
      double busy = MIN (columns[i].busy_ns / column_ns, 1.0);
      int expected = columns[i].busy_ns > 0 ? MAX ((int) lround (busy * height), 1) : 0;
      int x = (int) time_x + (int) i;
      int measured = 0;
      CsColor color;

      for (int row = (int) (y + height) - 1; row >= (int) y; row--)
        {
          if (channel_spread (cs_test_pixel (fixture, x, row)) <= 40)
            break;
          measured++;
        }
      cs_test_check (fixture, ABS (measured - expected) <= 1,
                     "CPU %u column %u: bar %d px high, busy %.2f wants %d", cpu, i, measured, busy,
                     expected);

      if (expected > 0 && cs_palette_get_task_color (columns[i].dominant_pid, &color))
        {
          cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, x, (int) (y + height) - 1),
                                              cs_color_to_rgb24 (&color), 2),
                         "CPU %u column %u: %06x is not the colour %06x of pid %d", cpu, i,
                         cs_test_pixel (fixture, x, (int) (y + height) - 1), cs_color_to_rgb24 (&color),
                         columns[i].dominant_pid);
          n_checked++;
        }
    }
  cs_test_check (fixture, n_checked > 0, "no busy column on CPU %u", cpu);
}

static void
test_slice_color (CsTestFixture *fixture, gconstpointer data)
{
  CsSlice slice;
  guint cpu = find_long_slice (fixture, &slice);
  gint64 middle = slice.begin_ns + (slice.end_ns - slice.begin_ns) / 2;
  CsViewport viewport = zoomed_in_viewport (fixture, middle, 2 * (slice.end_ns - slice.begin_ns), 1000);
  double y, height, x;
  CsColor color;
  guint32 expected, found;

  g_test_message ("CPU %u slice of pid %d, %" G_GINT64_FORMAT " ns", cpu, slice.pid,
                  slice.end_ns - slice.begin_ns);
  cs_test_render (fixture, &viewport);

  g_assert_true (cs_palette_get_task_color (slice.pid, &color));
  expected = cs_color_to_rgb24 (&color);
  x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, middle);
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);

  /* Near the top: the label is in the vertical middle, events along the
   * bottom. */
  found = cs_test_pixel (fixture, (int) x, (int) y + 3);
  cs_test_check (fixture, cs_test_same_color (found, expected, 2),
                 "pixel (%d, %d) in the slice of pid %d is %06x, not %06x", (int) x, (int) y + 3,
                 slice.pid, found, expected);

  /* The slice fills the plot's height. */
  found = cs_test_pixel (fixture, (int) x, (int) (y + height) - 8);
  cs_test_check (fixture, cs_test_same_color (found, expected, 2),
                 "pixel (%d, %d) low in the slice is %06x, not %06x", (int) x,
                 (int) (y + height) - 8, found, expected);
}

static void
test_slice_label (CsTestFixture *fixture, gconstpointer data)
{
  CsSlice slice;
  guint cpu = find_long_slice (fixture, &slice);
  CsViewport viewport;
  double y, height, x0;
  CsColor color, text;
  guint n_text = 0;

  /* Show the slice over about 600 px from its start: its comm-pid label is
   * written inside it, in the text colour that reads on it. */
  viewport = zoomed_in_viewport (fixture, slice.begin_ns + (slice.end_ns - slice.begin_ns) / 2,
                                 (slice.end_ns - slice.begin_ns) * 3 / 2, 1000);
  viewport.begin_ns = MAX (viewport.begin_ns, slice.begin_ns - (viewport.end_ns - viewport.begin_ns) / 8);
  cs_test_render (fixture, &viewport);

  g_assert_true (cs_palette_get_task_color (slice.pid, &color));
  cs_palette_get_text_color (&color, &text);
  x0 = MAX (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, slice.begin_ns), 64);
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);
  for (int x = (int) x0; x < (int) x0 + 60; x++)
    for (int row = (int) y; row < (int) (y + height) - 8; row++)
      n_text += cs_test_same_color (cs_test_pixel (fixture, x, row), cs_color_to_rgb24 (&text), 60);

  cs_test_check (fixture, n_text > 20, "no label at the start of the slice of pid %d (%u text pixels)",
                 slice.pid, n_text);
}

static void
test_hit_test (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  CsSlice slice;
  guint cpu = find_long_slice (fixture, &slice);
  gint64 middle = slice.begin_ns + (slice.end_ns - slice.begin_ns) / 2;
  CsViewport viewport = zoomed_in_viewport (fixture, middle, 2 * (slice.end_ns - slice.begin_ns), 1000);
  double y, height, x;
  CsHit hit;

  x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, middle);
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);

  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x,
                                                y + height / 2, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_cmpuint (hit.cpu, ==, cpu);
  g_assert_true (hit.has_slice);
  g_assert_cmpint (hit.slice.pid, ==, slice.pid);
  g_assert_cmpint (hit.slice.begin_ns, ==, slice.begin_ns);
  g_assert_cmpint (ABS (hit.ts_ns - middle), <=,
                   (viewport.end_ns - viewport.begin_ns) / (viewport.width_px - 64) + 1);
  g_assert_cmpint (cs_timeline_renderer_x_to_ns (fixture->renderer, &viewport, x), ==, hit.ts_ns);

  /* The axis, a label, the gap under the last plot, outside. */
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x, 5, &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_AXIS);
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, 10,
                                                y + height / 2, &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_LABEL);
  g_assert_cmpuint (hit.cpu, ==, cpu);
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x,
                                                y + height + 1, &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_NONE);
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, -1, 5, &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_NONE);
  g_assert_no_error (error);
}

static void
test_hit_test_event (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  guint cpu = find_sched_cpu (fixture);
  const CsEvent *event;
  CsViewport viewport;
  double y, height, x;
  CsHit hit;

  g_assert_true (cs_document_get_events (fixture->document, cpu,
                                         cs_document_get_cpu (fixture->document, cpu)->first_ns,
                                         G_MAXINT64, 100, events, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, >, 0);
  event = &g_array_index (events, CsEvent, events->len / 2);

  /* Two pixels right of an event: it is found, within four pixels. */
  viewport = zoomed_in_viewport (fixture, event->ts_ns, 20000, 1000);
  x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, event->ts_ns) + 2;
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, x,
                                                y + height - 2, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_true (hit.has_event);
  g_assert_cmpuint (hit.event.cpu, ==, cpu);
  g_assert_cmpint (ABS (hit.event.ts_ns - event->ts_ns), <=,
                   (gint64) ceil (4 * (viewport.end_ns - viewport.begin_ns) / 936.0) + 1);

  /* Its tick is drawn at the bottom of the plot, darker than any task. */
  cs_test_render (fixture, &viewport);
  x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, event->ts_ns);
  cs_test_check (fixture, channel_max (cs_test_pixel (fixture, (int) x, (int) (y + height) - 2)) < 0x60,
                 "no event tick at (%d, %d)", (int) x, (int) (y + height) - 2);
}

static void
test_no_sched_draws_events (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  CsViewport viewport = zoomed_out_viewport (fixture, 1200);
  guint n_busy_cpus = 0;
  double time_x;

  /* Zoomed out: event density in every plot of a CPU with events. */
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, NULL);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (fixture->document, cpu);
      double y, height;
      guint n_marked = 0;

      g_assert_false (info->has_sched_switch);
      cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                              &y, &height);
      for (int x = (int) time_x; x < viewport.width_px; x++)
        n_marked += channel_max (cs_test_pixel (fixture, x, (int) (y + height) - 1)) < 0x90;

      if (info->n_events > 0)
        {
          cs_test_check (fixture, n_marked > 0, "CPU %u has %" G_GUINT64_FORMAT " events, none drawn",
                         cpu, info->n_events);
          n_busy_cpus++;
        }
      else
        cs_test_check (fixture, n_marked == 0, "CPU %u has no events but %u marks", cpu, n_marked);
    }
  g_assert_cmpuint (n_busy_cpus, >, 0);

  /* Zoomed in around one event: its tick. */
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    {
      const CsEvent *event;
      double y, height, x;

      if (cs_document_get_cpu (fixture->document, cpu)->n_events == 0)
        continue;
      g_assert_true (cs_document_get_events (fixture->document, cpu,
                                             cs_document_get_cpu (fixture->document, cpu)->first_ns,
                                             G_MAXINT64, 1, events, &error));
      g_assert_no_error (error);
      event = &g_array_index (events, CsEvent, 0);
      viewport = zoomed_in_viewport (fixture, event->ts_ns, 100000, 1000);
      cs_test_render (fixture, &viewport);
      x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, event->ts_ns);
      cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                              &y, &height);
      cs_test_check (fixture, channel_max (cs_test_pixel (fixture, (int) x, (int) (y + height / 2))) < 0x60,
                     "no tick for the event of CPU %u at %" G_GINT64_FORMAT, cpu, event->ts_ns);
      break;
    }
}

static void
test_set_cpus (CsTestFixture *fixture, gconstpointer data)
{
  guint n_cpus = cs_document_get_n_cpus (fixture->document);
  guint cpu = find_sched_cpu (fixture);
  int all_height = cs_timeline_renderer_get_natural_height (fixture->renderer);
  CsViewport viewport;
  double y, height;
  guint n_colored = 0;
  CsHit hit;

  g_assert_cmpuint (n_cpus, >, 1);
  cs_timeline_renderer_set_cpus (fixture->renderer, &cpu, 1);
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (fixture->renderer), <, all_height);

  /* The one plot left is that CPU's, drawn first. */
  viewport = full_viewport (fixture, 800);
  cs_test_render (fixture, &viewport);
  g_assert_cmpint (cairo_image_surface_get_height (fixture->surface), ==,
                   cs_timeline_renderer_get_natural_height (fixture->renderer));
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, 0, &y, &height);
  for (int x = 64; x < viewport.width_px; x++)
    n_colored += channel_spread (cs_test_pixel (fixture, x, (int) (y + height) - 1)) > 40;
  cs_test_check (fixture, n_colored > 0, "the plot of CPU %u is empty", cpu);

  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, 300,
                                                y + height / 2, &hit, NULL));
  g_assert_cmpint (hit.kind, ==, CS_HIT_CPU_PLOT);
  g_assert_cmpuint (hit.cpu, ==, cpu);

  cs_timeline_renderer_set_cpus (fixture->renderer, NULL, 0);
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (fixture->renderer), ==, all_height);
}

static void
test_axis_labels (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport = full_viewport (fixture, 1200);
  guint n_dark = 0;

  /* Tick labels and the clock's name are written in the axis. */
  cs_test_render (fixture, &viewport);
  for (int x = 0; x < viewport.width_px; x++)
    for (int row = 0; row < 20; row++)
      n_dark += channel_max (cs_test_pixel (fixture, x, row)) < 0x80;
  cs_test_check (fixture, n_dark > 100, "the axis has no text (%u dark pixels)", n_dark);
}

static void
test_empty_span (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport = full_viewport (fixture, 600);
  gint64 span = viewport.end_ns - viewport.begin_ns;
  double time_x;
  guint n_colored = 0;

  /* Before the recording: the axis, empty plots, no error. */
  viewport.begin_ns -= 2 * span;
  viewport.end_ns -= 2 * span;
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, NULL);
  for (int x = (int) time_x; x < viewport.width_px; x++)
    for (int row = 28; row < viewport.height_px; row++)
      n_colored += channel_spread (cs_test_pixel (fixture, x, row)) > 40 ||
                   channel_max (cs_test_pixel (fixture, x, row)) < 0x90;
  cs_test_check (fixture, n_colored == 0, "%u marks outside the recording", n_colored);

  /* A viewport narrower than the label column draws just that. */
  viewport.width_px = 30;
  cs_test_render (fixture, &viewport);
}

static void
test_recording_surface (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  CsViewport viewport = zoomed_out_viewport (fixture, 900);
  cairo_surface_t *direct, *recording;
  guint n_different = 0;
  cairo_t *cr;

  /* GTK records what a widget draws and replays it later: a recorded
   * frame must equal one drawn straight onto an image, even though the
   * renderer reuses its buffers from one plot to the next. */
  cs_test_render (fixture, &viewport);
  direct = g_steal_pointer (&fixture->surface);

  recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cr = cairo_create (recording);
  g_assert_true (cs_timeline_renderer_draw (fixture->renderer, cr, &viewport, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);

  fixture->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, viewport.width_px,
                                                 viewport.height_px);
  cr = cairo_create (fixture->surface);
  cairo_set_source_surface (cr, recording, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (fixture->surface);
  cairo_surface_destroy (recording);

  for (int y = 0; y < viewport.height_px; y++)
    for (int x = 0; x < viewport.width_px; x++)
      {
        const guint8 *pixels = cairo_image_surface_get_data (direct);
        guint32 expected = *(const guint32 *) (pixels + (gsize) y * cairo_image_surface_get_stride (direct)
                                               + (gsize) x * 4) & 0xffffff;

        n_different += !cs_test_same_color (cs_test_pixel (fixture, x, y), expected, 2);
      }
  cairo_surface_destroy (direct);
  cs_test_check (fixture, n_different == 0, "the replayed recording differs in %u pixels", n_different);
}

static cairo_status_t
append_to_string (void *closure, const unsigned char *data, unsigned int length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

static void
test_vector_export (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewports[] = {
    zoomed_out_viewport (fixture, 800),
    full_viewport (fixture, 800),
  };

  /* SVG and PDF exports draw with the same code; both mode of the plots
   * produce a valid document. */
  for (guint i = 0; i < G_N_ELEMENTS (viewports); i++)
    {
      g_autoptr(GString) svg = g_string_new (NULL);
      g_autoptr(GString) pdf = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      cairo_surface_t *surface;
      cairo_t *cr;

      surface = cairo_svg_surface_create_for_stream (append_to_string, svg,
                                                     viewports[i].width_px,
                                                     viewports[i].height_px);
      cr = cairo_create (surface);
      g_assert_true (cs_timeline_renderer_draw (fixture->renderer, cr, &viewports[i], &error));
      g_assert_no_error (error);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_destroy (surface);
      g_assert_nonnull (strstr (svg->str, "<svg"));
      g_assert_nonnull (strstr (svg->str, "</svg>"));

      surface = cairo_pdf_surface_create_for_stream (append_to_string, pdf,
                                                     viewports[i].width_px,
                                                     viewports[i].height_px);
      cr = cairo_create (surface);
      g_assert_true (cs_timeline_renderer_draw (fixture->renderer, cr, &viewports[i], &error));
      g_assert_no_error (error);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_destroy (surface);
      g_assert_true (g_str_has_prefix (pdf->str, "%PDF-"));
    }
}

/* An event alone within a few pixels of a zoomed-in view: its tick is drawn,
 * faint when an event filter rejects it, gone when rejected events are
 * hidden; zoomed out, the renderer says the filter could not apply. */
static void
test_event_filter (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(GError) error = NULL;
  guint cpu = find_sched_cpu (fixture);
  const CsEvent *lonely = NULL;
  CsViewport viewport;
  double y, height, x;
  int row;

  g_assert_true (cs_document_get_events (fixture->document, cpu,
                                         cs_document_get_cpu (fixture->document, cpu)->first_ns,
                                         G_MAXINT64, 100000, events, &error));
  g_assert_no_error (error);
  for (guint i = 1; i + 1 < events->len && lonely == NULL; i++)
    {
      const CsEvent *event = &g_array_index (events, CsEvent, i);

      if (event->ts_ns - g_array_index (events, CsEvent, i - 1).ts_ns > 2000 &&
          g_array_index (events, CsEvent, i + 1).ts_ns - event->ts_ns > 2000)
        lonely = event;
    }
  g_assert_nonnull (lonely);

  viewport = zoomed_in_viewport (fixture, lonely->ts_ns, 100000, 1000);
  x = floor (cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, lonely->ts_ns));
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &y, &height);
  row = (int) (y + height) - 2;

  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, channel_max (cs_test_pixel (fixture, (int) x, row)) < 0x60,
                 "no tick for the event at %" G_GINT64_FORMAT, lonely->ts_ns);

  cs_event_filter_set_mode (filter, CS_FILTER_TYPE, CS_FILTER_HIDE);
  cs_event_filter_add (filter, CS_FILTER_TYPE, lonely->type_id);

  cs_timeline_renderer_set_event_filter (fixture->renderer, filter, FALSE);
  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, (int) x, row), 0xc7c7c7, 2),
                 "the filtered event's tick is %06x, not faint", cs_test_pixel (fixture, (int) x, row));
  g_assert_true (cs_timeline_renderer_get_filter_exact (fixture->renderer));

  cs_timeline_renderer_set_event_filter (fixture->renderer, filter, TRUE);
  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, channel_max (cs_test_pixel (fixture, (int) x, row)) >= 0x60 &&
                          !cs_test_same_color (cs_test_pixel (fixture, (int) x, row), 0xc7c7c7, 2),
                 "the hidden event's tick is still drawn (%06x)", cs_test_pixel (fixture, (int) x, row));

  /* Show only that type: the tick is back. */
  cs_event_filter_set_mode (filter, CS_FILTER_TYPE, CS_FILTER_SHOW_ONLY);
  cs_timeline_renderer_set_event_filter (fixture->renderer, filter, TRUE);
  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, channel_max (cs_test_pixel (fixture, (int) x, row)) < 0x60,
                 "the tick of a shown event is missing");

  /* Zoomed out the plots come from summaries: not filtered, and said so. */
  viewport = zoomed_out_viewport (fixture, 1000);
  cs_test_render (fixture, &viewport);
  g_assert_false (cs_timeline_renderer_get_filter_exact (fixture->renderer));

  cs_timeline_renderer_set_event_filter (fixture->renderer, NULL, FALSE);
  cs_test_render (fixture, &viewport);
  g_assert_true (cs_timeline_renderer_get_filter_exact (fixture->renderer));
}

/* The dark scheme changes the page, the axis band and the plot background,
 * never a task's colour: every pixel of a task's colour in the light
 * drawing has the same colour in the dark one.  Labels stay readable: the
 * CPU label column holds pixels much lighter than the dark page. */
static void
test_dark_scheme (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport = zoomed_out_viewport (fixture, 900);
  const CsTheme *light = cs_theme_get (CS_COLOR_SCHEME_LIGHT);
  const CsTheme *dark = cs_theme_get (CS_COLOR_SCHEME_DARK);
  guint cpu = find_sched_cpu (fixture);
  double plot_y, plot_height, time_x;
  g_autofree guint32 *light_row = NULL;
  guint n_task_pixels = 0, n_light_text = 0;
  int row;

  g_assert_cmpint (cs_timeline_renderer_get_color_scheme (fixture->renderer), ==, CS_COLOR_SCHEME_LIGHT);
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, plot_index_of (fixture, cpu),
                                          &plot_y, &plot_height);
  cs_timeline_renderer_get_time_area (fixture->renderer, &viewport, &time_x, NULL);
  row = (int) (plot_y + plot_height - 8);

  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, 1, 1), cs_color_to_rgb24 (&light->axis), 1),
                 "the light axis band is %06x", cs_test_pixel (fixture, 1, 1));
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, 1, (int) plot_y + 1),
                                              cs_color_to_rgb24 (&light->page), 1),
                 "the light page is %06x", cs_test_pixel (fixture, 1, (int) plot_y + 1));
  light_row = g_new (guint32, viewport.width_px);
  for (int x = 0; x < viewport.width_px; x++)
    light_row[x] = cs_test_pixel (fixture, x, row);

  cs_timeline_renderer_set_color_scheme (fixture->renderer, CS_COLOR_SCHEME_DARK);
  cs_test_render (fixture, &viewport);
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, 1, 1), cs_color_to_rgb24 (&dark->axis), 1),
                 "the dark axis band is %06x", cs_test_pixel (fixture, 1, 1));
  cs_test_check (fixture, cs_test_same_color (cs_test_pixel (fixture, 1, (int) plot_y + 1),
                                              cs_color_to_rgb24 (&dark->page), 1),
                 "the dark page is %06x", cs_test_pixel (fixture, 1, (int) plot_y + 1));
  for (int x = (int) time_x + 1; x < viewport.width_px - 1; x++)
    if (channel_spread (light_row[x]) > 40)
      {
        n_task_pixels++;
        cs_test_check (fixture, cs_test_same_color (light_row[x], cs_test_pixel (fixture, x, row), 2),
                       "the task colour at x %d is %06x light, %06x dark", x, light_row[x],
                       cs_test_pixel (fixture, x, row));
      }
  cs_test_check (fixture, n_task_pixels > 50, "only %u task pixels on row %d", n_task_pixels, row);
  for (int y = (int) plot_y; y < (int) (plot_y + plot_height); y++)
    for (int x = 0; x < (int) time_x - 4; x++)
      if (channel_max (cs_test_pixel (fixture, x, y)) > 160)
        n_light_text++;
  cs_test_check (fixture, n_light_text > 10, "the CPU label is not light on the dark page");

  cs_timeline_renderer_set_color_scheme (fixture->renderer, CS_COLOR_SCHEME_LIGHT);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, recording, func) \
  g_test_add ("/cs/render/TimelineRenderer/" path, CsTestFixture, recording, \
              fixture_set_up, func, cs_test_fixture_tear_down)

  ADD ("zoomed-out-not-blank", &sched_v6, test_zoomed_out_not_blank);
  ADD ("zoomed-out-not-blank-v7", &sched_v7, test_zoomed_out_not_blank);
  ADD ("full-view-not-blank", &sched_v6, test_full_view_not_blank);
  ADD ("zoomed-out-busy-height", &sched_v6, test_zoomed_out_busy_height);
  ADD ("slice-color", &sched_v6, test_slice_color);
  ADD ("slice-label", &sched_v6, test_slice_label);
  ADD ("hit-test", &sched_v6, test_hit_test);
  ADD ("hit-test-event", &sched_v6, test_hit_test_event);
  ADD ("no-sched-draws-events", &no_sched, test_no_sched_draws_events);
  ADD ("set-cpus", &sched_v6, test_set_cpus);
  ADD ("axis-labels", &sched_v6, test_axis_labels);
  ADD ("empty-span", &sched_v6, test_empty_span);
  ADD ("recording-surface", &sched_v6, test_recording_surface);
  ADD ("vector-export", &sched_v6, test_vector_export);
  ADD ("event-filter", &sched_v6, test_event_filter);
  ADD ("dark-scheme", &sched_v6, test_dark_scheme);

#undef ADD

  return cs_test_render_run ();
}
