/* test-task-plot-painter.c: task plots drawn from real recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Recordings: $CS_TESTDATA (tests/data/) when the project's own recordings
 * are there, otherwise public ones from $CS_SHARED_TESTDATA.  The index is
 * built in the test's own $XDG_CACHE_HOME (G_TEST_OPTION_ISOLATE_DIRS).
 * What a task plot must show is asked from the index
 * (cs_document_get_task_intervals()), and the pixels are checked against
 * it: a running interval in the colour of its CPU, a wakeup latency as an
 * outlined runnable box, a sleep as a line.  On a mismatch the drawing is
 * written to <test>.out.png in a temporary directory whose path is printed.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-palette.h"
#include "cs-task-plot-painter-private.h"
#include "cs-timeline-renderer.h"
#include "render-test-util.h"

static const CsTestRecording sched_v6 = { "sched-irq-v6.dat" };

#define WIDTH_PX 1000

static guint32
state_rgb (CsTaskState state)
{
  CsColor color;

  g_assert_true (cs_palette_get_state_color (state, &color));
  return cs_color_to_rgb24 (&color);
}

static guint32
cpu_rgb (guint cpu)
{
  CsColor color;

  cs_palette_get_cpu_color (cpu, &color);
  return cs_color_to_rgb24 (&color);
}

static GArray *
all_intervals (CsTestFixture *fixture, gint32 pid)
{
  g_autoptr(GError) error = NULL;
  GArray *intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));

  g_assert_true (cs_document_get_task_intervals (fixture->document, pid,
                                                 cs_document_get_first_ns (fixture->document),
                                                 cs_document_get_last_ns (fixture->document) + 1,
                                                 intervals, &error));
  g_assert_no_error (error);
  return intervals;
}

typedef gboolean (*IntervalTest) (const CsTaskInterval *interval);

/* The longest interval passing @test among the tasks of the recording
 * (idle excepted), and its task. */
static gboolean
find_interval (CsTestFixture *fixture, IntervalTest test, gint32 *pid, CsTaskInterval *found)
{
  gint64 best_ns = 0;

  for (guint i = 0; i < cs_document_get_n_tasks (fixture->document); i++)
    {
      const CsTask *task = cs_document_get_task (fixture->document, i);
      g_autoptr(GArray) intervals = NULL;

      if (task->pid <= 0 || task->runtime_ns == 0)
        continue;
      intervals = all_intervals (fixture, task->pid);
      for (guint j = 0; j < intervals->len; j++)
        {
          const CsTaskInterval *interval = &g_array_index (intervals, CsTaskInterval, j);

          if (test (interval) && interval->end_ns - interval->begin_ns > best_ns)
            {
              best_ns = interval->end_ns - interval->begin_ns;
              *pid = task->pid;
              *found = *interval;
            }
        }
    }
  return best_ns > 0;
}

static gboolean
is_running (const CsTaskInterval *interval)
{
  return interval->state == CS_TASK_RUNNING && interval->cpu >= 0;
}

static gboolean
is_wakeup_latency (const CsTaskInterval *interval)
{
  return interval->state == CS_TASK_RUNNABLE && interval->wakeup_ns >= 0 &&
         interval->wakeup_ns >= interval->begin_ns;
}

static gboolean
is_sleep (const CsTaskInterval *interval)
{
  return interval->state == CS_TASK_SLEEPING;
}

/* A viewport of WIDTH_PX showing [begin_ns, end_ns) in the middle half. */
static CsViewport
viewport_around (CsTestFixture *fixture, gint64 begin_ns, gint64 end_ns)
{
  gint64 span_ns = MAX ((end_ns - begin_ns) * 2, 2 * WIDTH_PX);
  CsViewport viewport;

  viewport.begin_ns = begin_ns + (end_ns - begin_ns) / 2 - span_ns / 2;
  viewport.end_ns = viewport.begin_ns + span_ns;
  viewport.width_px = WIDTH_PX;
  viewport.height_px = cs_timeline_renderer_get_natural_height (fixture->renderer);
  return viewport;
}

static void
show_task_only (CsTestFixture *fixture, gint32 pid)
{
  cs_timeline_renderer_set_cpus (fixture->renderer, NULL, 0);
  cs_timeline_renderer_set_task_plots (fixture->renderer, &pid, 1);
}

/* ------------------------------------------------------------------------ */

static void
test_layout (CsTestFixture *fixture, gconstpointer data)
{
  gint32 pids[] = { 1, 2, 3 };
  int cpus_height = cs_timeline_renderer_get_natural_height (fixture->renderer);
  double cpu_y, cpu_height, y, height;
  const gint32 *got;
  guint n_cpus = cs_document_get_n_cpus (fixture->document), n;

  cs_timeline_renderer_set_task_plots (fixture->renderer, pids, G_N_ELEMENTS (pids));
  got = cs_timeline_renderer_get_task_plots (fixture->renderer, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (got[2], ==, 3);

  /* Task plots follow the CPU plots, as tall and as far apart. */
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (fixture->renderer), ==,
                   cpus_height + 3 * (CS_PLOT_HEIGHT_PX + CS_PLOT_GAP_PX));
  cs_timeline_renderer_get_cpu_plot_area (fixture->renderer, n_cpus - 1, &cpu_y, &cpu_height);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  g_assert_cmpfloat (y, ==, cpu_y + cpu_height + CS_PLOT_GAP_PX);
  g_assert_cmpfloat (height, ==, CS_PLOT_HEIGHT_PX);

  cs_timeline_renderer_set_task_plots (fixture->renderer, NULL, 0);
  g_assert_cmpint (cs_timeline_renderer_get_natural_height (fixture->renderer), ==, cpus_height);
}

static void
test_running_color (CsTestFixture *fixture, gconstpointer data)
{
  CsTaskInterval interval;
  gint32 pid = 0;
  CsViewport viewport;
  double y, height, x;
  guint32 found, expected;

  g_assert_true (find_interval (fixture, is_running, &pid, &interval));
  g_test_message ("pid %d ran on CPU %d for %" G_GINT64_FORMAT " ns", pid, interval.cpu,
                  interval.end_ns - interval.begin_ns);
  show_task_only (fixture, pid);
  viewport = viewport_around (fixture, interval.begin_ns, interval.end_ns);
  cs_test_render (fixture, &viewport);

  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  expected = cpu_rgb ((guint) interval.cpu);

  /* Across the run, above its label: the CPU's colour over the box's
   * height, plot background above and below it. */
  for (double f = 0.1; f < 0.95; f += 0.2)
    {
      x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport,
                                        interval.begin_ns + (gint64) ((interval.end_ns - interval.begin_ns) * f));
      found = cs_test_pixel (fixture, (int) x, (int) y + CS_TASK_RUN_INSET_PX + 1);
      cs_test_check (fixture, cs_test_same_color (found, expected, 2),
                     "pixel (%d, %d) of the run of pid %d on CPU %d is %06x, not %06x", (int) x,
                     (int) y + CS_TASK_RUN_INSET_PX + 1, pid, interval.cpu, found, expected);
      found = cs_test_pixel (fixture, (int) x, (int) (y + height) - CS_TASK_RUN_INSET_PX - 1);
      cs_test_check (fixture, cs_test_same_color (found, expected, 2),
                     "bottom of the run of pid %d is %06x, not %06x", pid, found, expected);
      found = cs_test_pixel (fixture, (int) x, (int) y + 1);
      cs_test_check (fixture, !cs_test_same_color (found, expected, 20),
                     "the run of pid %d is taller than its box", pid);
    }

  /* Another CPU's colour is clearly another. */
  cs_test_check (fixture,
                 !cs_test_same_color (cpu_rgb ((guint) interval.cpu), cpu_rgb ((guint) interval.cpu + 1), 30),
                 "CPUs %d and %d look alike", interval.cpu, interval.cpu + 1);
}

static void
test_migration (CsTestFixture *fixture, gconstpointer data)
{
  CsTaskInterval first = { 0 }, second = { 0 };
  gint32 pid = 0;
  double best = 0.0, y, height;
  CsViewport viewport;
  guint n_first = 0, n_second = 0;

  /* Two runs of a task on different CPUs, the later one next after the
   * other: the pair where the shorter run is widest in a view of both. */
  for (guint i = 0; i < cs_document_get_n_tasks (fixture->document); i++)
    {
      const CsTask *task = cs_document_get_task (fixture->document, i);
      g_autoptr(GArray) intervals = NULL;
      const CsTaskInterval *last_run = NULL;

      if (task->pid <= 0)
        continue;
      intervals = all_intervals (fixture, task->pid);
      for (guint j = 0; j < intervals->len; j++)
        {
          const CsTaskInterval *run = &g_array_index (intervals, CsTaskInterval, j);
          double share;

          if (run->state != CS_TASK_RUNNING || run->cpu < 0)
            continue;
          if (last_run != NULL && last_run->cpu != run->cpu)
            {
              share = (double) MIN (last_run->end_ns - last_run->begin_ns,
                                    run->end_ns - run->begin_ns) /
                      (double) (run->end_ns - last_run->begin_ns);
              if (share > best)
                {
                  best = share;
                  pid = task->pid;
                  first = *last_run;
                  second = *run;
                }
            }
          last_run = run;
        }
    }

  g_assert_cmpint (pid, >, 0);
  g_test_message ("pid %d ran on CPU %d then on CPU %d (shorter run %.1f %% of the view)", pid,
                  first.cpu, second.cpu, 50.0 * best);
  show_task_only (fixture, pid);
  viewport = viewport_around (fixture, first.begin_ns, second.end_ns);
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  for (int x = CS_LABEL_WIDTH_PX; x < WIDTH_PX; x++)
    {
      guint32 found = cs_test_pixel (fixture, x, (int) y + CS_TASK_RUN_INSET_PX + 1);

      n_first += cs_test_same_color (found, cpu_rgb ((guint) first.cpu), 2);
      n_second += cs_test_same_color (found, cpu_rgb ((guint) second.cpu), 2);
    }
  cs_test_check (fixture, n_first > 0 && n_second > 0,
                 "pid %d: %u columns of CPU %d, %u of CPU %d", pid, n_first, first.cpu, n_second,
                 second.cpu);
}

static void
test_wakeup_latency_box (CsTestFixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  CsTaskInterval interval;
  gint32 pid = 0;
  CsViewport viewport;
  double y, height, x0, x1;
  guint32 fill = state_rgb (CS_TASK_RUNNABLE);
  guint n_fill = 0, n_columns = 0, n_edge = 0;
  int top = CS_TASK_RUNNABLE_INSET_PX;
  CsHit hit;

  g_assert_true (find_interval (fixture, is_wakeup_latency, &pid, &interval));
  g_test_message ("pid %d: woken at %" G_GINT64_FORMAT ", runnable %" G_GINT64_FORMAT
                  " .. %" G_GINT64_FORMAT, pid, interval.wakeup_ns, interval.begin_ns,
                  interval.end_ns);
  show_task_only (fixture, pid);
  viewport = viewport_around (fixture, interval.wakeup_ns, interval.end_ns);
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  x0 = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, interval.begin_ns);
  x1 = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport, interval.end_ns);

  /* Inside the box, above its label: the runnable fill (or its hatching,
   * which is darker amber). */
  for (int x = (int) ceil (x0) + 2; x < (int) floor (x1) - 2; x++)
    {
      guint32 found = cs_test_pixel (fixture, x, (int) y + top + 2);

      n_columns++;
      if (cs_test_same_color (found, fill, 2))
        n_fill++;
      else
        cs_test_check (fixture, ((found >> 16) & 0xff) > ((found) & 0xff) + 60,
                       "pixel (%d, %d) in the runnable box of pid %d is %06x", x, (int) y + top + 2,
                       pid, found);
      /* The outline along the top. */
      n_edge += !cs_test_same_color (cs_test_pixel (fixture, x, (int) y + top), fill, 20) &&
                !cs_test_same_color (cs_test_pixel (fixture, x, (int) y + top), 0xf3f3f3, 2);
    }
  cs_test_check (fixture, n_columns > 100 && n_fill > n_columns / 2,
                 "%u of %u columns of the runnable box of pid %d have its colour", n_fill, n_columns, pid);
  cs_test_check (fixture, n_edge > n_columns * 9 / 10, "the wakeup latency of pid %d has no outline", pid);

  /* Hit testing the box finds it, with its wakeup. */
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, (x0 + x1) / 2,
                                                y + height / 2, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hit.kind, ==, CS_HIT_TASK_PLOT);
  g_assert_cmpint (hit.pid, ==, pid);
  g_assert_true (hit.has_interval);
  g_assert_cmpint (hit.interval.state, ==, CS_TASK_RUNNABLE);
  g_assert_cmpint (hit.interval.wakeup_ns, ==, interval.wakeup_ns);
  g_assert_cmpint (hit.interval.end_ns, ==, interval.end_ns);
  g_assert_cmpuint (hit.plot_index, ==, cs_document_get_n_cpus (fixture->document));

  /* And the label column names the task. */
  g_assert_true (cs_timeline_renderer_hit_test (fixture->renderer, &viewport, 10,
                                                y + height / 2, &hit, &error));
  g_assert_cmpint (hit.kind, ==, CS_HIT_TASK_LABEL);
  g_assert_cmpint (hit.pid, ==, pid);
}

static void
test_sleep_line (CsTestFixture *fixture, gconstpointer data)
{
  CsTaskInterval interval;
  gint32 pid = 0;
  CsViewport viewport;
  double y, height, x;
  guint32 line = state_rgb (CS_TASK_SLEEPING);
  guint32 found;

  g_assert_true (find_interval (fixture, is_sleep, &pid, &interval));
  show_task_only (fixture, pid);
  viewport = viewport_around (fixture, interval.begin_ns, interval.end_ns);
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  x = cs_timeline_renderer_ns_to_x (fixture->renderer, &viewport,
                                    interval.begin_ns + (interval.end_ns - interval.begin_ns) / 2);

  /* A thin line through the middle, background above it. */
  found = cs_test_pixel (fixture, (int) x, (int) (y + height / 2));
  cs_test_check (fixture, cs_test_same_color (found, line, 2), "the sleep of pid %d is %06x, not %06x", pid,
                 found, line);
  found = cs_test_pixel (fixture, (int) x, (int) (y + height / 2) - CS_TASK_SLEEP_HEIGHT_PX - 2);
  cs_test_check (fixture, cs_test_same_color (found, 0xf3f3f3, 2),
                 "the sleep line of pid %d is too thick", pid);
}

static void
test_zoomed_out_not_blank (CsTestFixture *fixture, gconstpointer data)
{
  /* The busiest task, zoomed out: every column where it ran most has its
   * running bar, and drawing it costs about as much as a CPU plot. */
  const CsTask *busiest = NULL;
  CsViewport viewport;
  double y, height;
  guint n_marked = 0;

  for (guint i = 0; i < cs_document_get_n_tasks (fixture->document); i++)
    {
      const CsTask *task = cs_document_get_task (fixture->document, i);

      if (task->pid > 0 && (busiest == NULL || task->runtime_ns > busiest->runtime_ns))
        busiest = task;
    }
  g_assert_nonnull (busiest);
  show_task_only (fixture, busiest->pid);
  viewport.begin_ns = cs_document_get_first_ns (fixture->document);
  viewport.end_ns = cs_document_get_last_ns (fixture->document) + 1;
  viewport.width_px = WIDTH_PX;
  viewport.height_px = cs_timeline_renderer_get_natural_height (fixture->renderer);
  cs_test_render (fixture, &viewport);
  cs_timeline_renderer_get_task_plot_area (fixture->renderer, 0, &y, &height);
  for (int x = CS_LABEL_WIDTH_PX; x < WIDTH_PX; x++)
    n_marked += !cs_test_same_color (cs_test_pixel (fixture, x, (int) (y + height / 2)), 0xf3f3f3, 2);
  cs_test_check (fixture, n_marked > 0, "the plot of pid %d is blank", busiest->pid);
}

static void
test_unknown_task (CsTestFixture *fixture, gconstpointer data)
{
  CsViewport viewport;
  gint32 pid = 0x7ffffff0;

  /* A pid the recording never saw: an empty plot, not an error. */
  show_task_only (fixture, pid);
  viewport.begin_ns = cs_document_get_first_ns (fixture->document);
  viewport.end_ns = cs_document_get_last_ns (fixture->document) + 1;
  viewport.width_px = WIDTH_PX;
  viewport.height_px = cs_timeline_renderer_get_natural_height (fixture->renderer);
  cs_test_render (fixture, &viewport);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/cs/render/TaskPlotPainter/" path, CsTestFixture, &sched_v6, \
              cs_test_fixture_set_up, func, cs_test_fixture_tear_down)

  ADD ("layout", test_layout);
  ADD ("running-color", test_running_color);
  ADD ("migration", test_migration);
  ADD ("wakeup-latency-box", test_wakeup_latency_box);
  ADD ("sleep-line", test_sleep_line);
  ADD ("zoomed-out-not-blank", test_zoomed_out_not_blank);
  ADD ("unknown-task", test_unknown_task);

#undef ADD

  return cs_test_render_run ();
}
