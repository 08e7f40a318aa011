/* test-vcpu-plot-painter.c: the host's view of a guest vCPU, painted
 * (render/cs-vcpu-plot-painter.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Paints the real KVM pair of ../shared/testdata/kvm (skipped without it)
 * into image surfaces and reads pixels where the timeline says what the
 * vCPU did: in the guest, out on its longest exit, outside the host's
 * recording; and "not running" on a local recording with sched_switch.
 * On failure the drawing is written next to the message.
 */
#include <event-parse.h>

#include "render-test-util.h"
#include "cs-kvm-activity.h"
#include "cs-tracedat-clock.h"
#include "cs-vcpu-plot-painter.h"

#define WIDTH 1000
#define HEIGHT 40
#define BACKGROUND 0xffffff

static const int mid_row = HEIGHT / 2;
static const int guest_row = HEIGHT / 8 + 1;   /* inside in-guest boxes only */
static const int band_row = 0;                 /* the in-guest band */

/* Paints [@begin, @end) into a fresh white surface of @fx. */
static void
paint (CsTestFixture *fx, CsVcpuTimeline *tl, gint64 begin, gint64 end)
{
  cairo_t *cr;

  g_clear_pointer (&fx->surface, cairo_surface_destroy);
  fx->surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cr = cairo_create (fx->surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cs_vcpu_plot_paint (cr, tl, 0, begin, end, 0, 0, WIDTH, HEIGHT);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (fx->surface);
}

static guint32
rgb (CsVcpuTimeline *tl, CsVcpuState state, gint reason)
{
  CsColor c;

  cs_vcpu_plot_get_color (tl, state, reason, &c);
  return cs_color_to_rgb24 (&c);
}

/* The column of @ts in [@begin, @end). */
static int
column (gint64 begin, gint64 end, gint64 ts)
{
  return (int) (((__int128) (ts - begin) * WIDTH) / (end - begin));
}

static CsVcpuTimeline *
pair_timeline (gint32 *tid)
{
  g_autofree char *hpath = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *gpath = hpath != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  g_autoptr(CsTracedatReader) host = NULL;
  g_autoptr(CsTracedatReader) guest = NULL;
  g_autoptr(CsTimeRelation) rel = NULL;
  g_autoptr(GError) error = NULL;
  CsVcpuTimeline *tl;

  if (gpath == NULL)
    return NULL;
  host = cs_tracedat_reader_open (hpath, &error);
  g_assert_no_error (error);
  guest = cs_tracedat_reader_open (gpath, &error);
  g_assert_no_error (error);
  rel = cs_time_relation_new (host, guest, &error);
  g_assert_no_error (error);
  *tid = cs_time_relation_get_vcpu_tid (rel, 0);
  tl = cs_vcpu_timeline_new (host, tid, 1, NULL, &error);
  g_assert_no_error (error);
  return tl;
}

/* The longest interval of @state over the host's span. */
static CsVcpuInterval
longest (CsVcpuTimeline *tl, CsVcpuState state)
{
  g_autoptr(GArray) ivs = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  CsVcpuInterval best = { 0, 0, CS_VCPU_STATE_UNKNOWN, -1 };
  gint64 first, last;

  cs_vcpu_timeline_get_span (tl, &first, &last);
  cs_vcpu_timeline_get_intervals (tl, 0, first, last, ivs);
  for (guint i = 0; i < ivs->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (ivs, CsVcpuInterval, i);

      if (iv->state == state && iv->end_ns - iv->begin_ns > best.end_ns - best.begin_ns)
        best = *iv;
    }
  g_assert_cmpint (best.end_ns, >, best.begin_ns);
  return best;
}

static void
test_exit_and_guest (void)
{
  CsTestFixture fx = { 0 };
  g_autoptr(CsVcpuTimeline) tl = NULL;
  CsVcpuInterval ex, in;
  gint64 begin, end;
  gint32 tid = 0;
  guint32 exit_rgb, guest_rgb;
  int c0, c1;

  tl = pair_timeline (&tid);
  if (tl == NULL)
    return;

  /* The longest exit (HLT, 10 ms in the pair), with a tenth of it on
   * each side. */
  ex = longest (tl, CS_VCPU_STATE_EXIT);
  g_test_message ("longest exit: %s, %" G_GINT64_FORMAT " ns",
                  cs_vcpu_timeline_get_reason_name (tl, ex.reason), ex.end_ns - ex.begin_ns);
  begin = ex.begin_ns - (ex.end_ns - ex.begin_ns) / 10;
  end = ex.end_ns + (ex.end_ns - ex.begin_ns) / 10;
  paint (&fx, tl, begin, end);
  exit_rgb = rgb (tl, CS_VCPU_STATE_EXIT, ex.reason);
  g_assert_false (cs_test_same_color (exit_rgb, BACKGROUND, 8));
  c0 = column (begin, end, ex.begin_ns) + 1;
  c1 = column (begin, end, ex.end_ns) - 1;
  for (int x = c0; x <= c1; x++)
    {
      cs_test_check (&fx, cs_test_same_color (cs_test_pixel (&fx, x, mid_row), exit_rgb, 2),
                     "column %d: 0x%06x, not the exit's 0x%06x", x,
                     cs_test_pixel (&fx, x, mid_row), exit_rgb);
      /* an exit box leaves the in-guest rows free */
      cs_test_check (&fx, cs_test_pixel (&fx, x, guest_row) == BACKGROUND,
                     "column %d row %d: 0x%06x above an exit", x, guest_row,
                     cs_test_pixel (&fx, x, guest_row));
    }

  /* The longest stay in the guest, alone in the strip. */
  in = longest (tl, CS_VCPU_STATE_IN_GUEST);
  guest_rgb = rgb (tl, CS_VCPU_STATE_IN_GUEST, -1);
  paint (&fx, tl, in.begin_ns, in.end_ns);
  for (int x = 0; x < WIDTH; x++)
    cs_test_check (&fx, cs_test_same_color (cs_test_pixel (&fx, x, guest_row), guest_rgb, 2) &&
                        cs_test_same_color (cs_test_pixel (&fx, x, mid_row), guest_rgb, 2),
                   "column %d: 0x%06x, not in the guest's 0x%06x", x,
                   cs_test_pixel (&fx, x, guest_row), guest_rgb);

  /* Past the host's recording nothing is drawn. */
  cs_vcpu_timeline_get_span (tl, &begin, &end);
  paint (&fx, tl, end, end + 1000000);
  for (int x = 1; x < WIDTH; x++)
    for (int y = 0; y < HEIGHT; y += 3)
      cs_test_check (&fx, cs_test_pixel (&fx, x, y) == BACKGROUND,
                     "(%d, %d) drawn after the host's recording", x, y);
  g_clear_pointer (&fx.surface, cairo_surface_destroy);
}

/* Zoomed out over the whole recording: mostly out of the guest (HLT), and
 * the short entries still show as a band where the summary has them. */
static void
test_zoomed_out (void)
{
  CsTestFixture fx = { 0 };
  g_autoptr(CsVcpuTimeline) tl = NULL;
  g_autofree CsVcpuBin *bins = g_new (CsVcpuBin, WIDTH);
  gint64 first, last;
  gint32 tid = 0;
  guint32 guest_rgb;
  guint n_band = 0, n_exit = 0;

  tl = pair_timeline (&tid);
  if (tl == NULL)
    return;
  cs_vcpu_timeline_get_span (tl, &first, &last);
  paint (&fx, tl, first, last);
  cs_vcpu_timeline_summarize (tl, 0, first, last, WIDTH, bins);
  guest_rgb = rgb (tl, CS_VCPU_STATE_IN_GUEST, -1);
  for (int x = 0; x < WIDTH; x++)
    {
      const CsVcpuBin *b = &bins[x];
      guint32 band = cs_test_pixel (&fx, x, band_row);

      if (b->state_ns[CS_VCPU_STATE_EXIT] > b->state_ns[CS_VCPU_STATE_IN_GUEST] &&
          b->state_ns[CS_VCPU_STATE_EXIT] > b->state_ns[CS_VCPU_STATE_UNKNOWN])
        {
          guint32 want = rgb (tl, CS_VCPU_STATE_EXIT, b->reason);

          n_exit++;
          cs_test_check (&fx, cs_test_same_color (cs_test_pixel (&fx, x, mid_row), want, 2),
                         "column %d: 0x%06x, not its main exit's 0x%06x", x,
                         cs_test_pixel (&fx, x, mid_row), want);
          if (b->state_ns[CS_VCPU_STATE_IN_GUEST] > 0)
            {
              n_band++;
              cs_test_check (&fx, cs_test_same_color (band, guest_rgb, 2),
                             "column %d: no in-guest band (0x%06x)", x, band);
            }
          else
            cs_test_check (&fx, band == BACKGROUND, "column %d: a band without entries", x);
        }
    }
  g_test_message ("%u columns mostly out of the guest, %u of them with a band", n_exit, n_band);
  g_assert_cmpuint (n_exit, >, WIDTH / 2);
  g_assert_cmpuint (n_band, >, 0);
  g_clear_pointer (&fx.surface, cairo_surface_destroy);
}

/* Not running: a grey line on the middle row, nothing above it. */
static void
test_not_running (void)
{
  g_autofree char *path = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(CsVcpuTimeline) all = NULL;
  g_autoptr(CsVcpuTimeline) tl = NULL;
  g_autoptr(GError) error = NULL;
  CsTestFixture fx = { 0 };
  CsVcpuInterval iv;
  guint32 grey;
  gint32 tid = -1;
  guint best = 0;

  g_assert_nonnull (path);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  /* The task with the most sched_switch events: a timeline of pids
   * 1..65535 is cheap enough to find it. */
  {
    g_autofree gint32 *pids = g_new (gint32, 65535);

    for (gint32 p = 0; p < 65535; p++)
      pids[p] = p + 1;
    all = cs_vcpu_timeline_new (reader, pids, 65535, NULL, &error);
    g_assert_no_error (error);
    for (guint t = 0; t < 65535; t++)
      {
        gsize n = 0;

        cs_vcpu_timeline_get_events (all, t, &n);
        if (n > best)
          best = (guint) n, tid = t + 1;
      }
  }
  tl = cs_vcpu_timeline_new (reader, &tid, 1, NULL, &error);
  g_assert_no_error (error);
  iv = longest (tl, CS_VCPU_STATE_NOT_RUNNING);
  paint (&fx, tl, iv.begin_ns, iv.end_ns);
  grey = rgb (tl, CS_VCPU_STATE_NOT_RUNNING, -1);
  for (int x = 0; x < WIDTH; x++)
    {
      cs_test_check (&fx, cs_test_same_color (cs_test_pixel (&fx, x, mid_row), grey, 2),
                     "column %d: 0x%06x, not the grey of not running", x,
                     cs_test_pixel (&fx, x, mid_row));
      cs_test_check (&fx, cs_test_pixel (&fx, x, HEIGHT / 4 + 1) == BACKGROUND,
                     "column %d: a box while not running", x);
    }
  g_clear_pointer (&fx.surface, cairo_surface_destroy);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/render/VcpuPlotPainter/exit-and-guest", test_exit_and_guest);
  g_test_add_func ("/cs/render/VcpuPlotPainter/zoomed-out", test_zoomed_out);
  g_test_add_func ("/cs/render/VcpuPlotPainter/not-running", test_not_running);
  return cs_test_render_run ();
}
