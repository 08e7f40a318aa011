/* test-streams-renderer.c: several recordings drawn on one axis
 * (render/cs-streams-renderer.h; issue 25 item 1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * On the real KVM pair of ../shared/testdata/kvm (skipped with a message
 * when absent) and on two recordings of tests/data: the groups stack in
 * the set's order with their header rows, collapse, hide, move and close;
 * each group's drawing is, pixel for pixel, what its own renderer draws of
 * the viewport mapped into its clock (so a guest is drawn where its
 * TIME_SHIFT puts it); hit tests find headers, buttons and plots.
 */
#include <math.h>
#include <string.h>

#include "cs-cpu-plot-painter-private.h"
#include "cs-streams-renderer.h"
#include "cs-vcpu-plot-painter.h"
#include "cs-test-data.h"
#include "index-test-util.h"

#define WIDTH_PX 900


/* The KVM pair's two paths, or FALSE with the test skipped. */
static gboolean
kvm_paths (char **host, char **guest)
{
  *host = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  *guest = *host != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  return *guest != NULL;
}

static cairo_surface_t *
draw_streams (CsStreamsRenderer *r, const CsViewport *vp)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp->width_px, vp->height_px);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_streams_renderer_draw (r, cr, vp, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Rows [@y, @y + @h) of @a from @ay equal those of @b from 0. */
static guint
count_differing_rows (cairo_surface_t *a, int ay, cairo_surface_t *b, int h)
{
  int sa = cairo_image_surface_get_stride (a), sb = cairo_image_surface_get_stride (b);
  const guint8 *da = cairo_image_surface_get_data (a), *db = cairo_image_surface_get_data (b);
  guint n = 0;

  for (int y = 0; y < h; y++)
    if (memcmp (da + (gsize) (ay + y) * sa, db + (gsize) y * sb, (gsize) WIDTH_PX * 4) != 0)
      n++;
  return n;
}

/* Each group's body is its own renderer's drawing of the mapped viewport. */
static void
check_groups_drawn (CsStreamsRenderer *r, const CsViewport *vp)
{
  CsStreamSet *set = cs_streams_renderer_get_stream_set (r);
  cairo_surface_t *all = draw_streams (r, vp);

  for (guint i = 0; i < cs_stream_set_get_n_streams (set); i++)
    {
      CsStream *s = cs_stream_set_get_stream (set, i);
      CsTimelineRenderer *sub = cs_streams_renderer_get_stream_renderer (r, s);
      cairo_surface_t *alone;
      CsViewport mapped;
      double y = 0;
      cairo_t *cr;
      guint n;

      g_assert_true (cs_streams_renderer_get_stream_area (r, s, &y, NULL));
      if (cs_stream_get_collapsed (s))
        continue;
      cs_streams_renderer_map_viewport (r, s, vp, &mapped);
      g_assert_cmpint (mapped.begin_ns, ==, cs_stream_from_axis_ns (s, 0, vp->begin_ns));
      alone = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH_PX, mapped.height_px);
      cr = cairo_create (alone);
      g_assert_true (cs_timeline_renderer_draw (sub, cr, &mapped, NULL));
      cairo_destroy (cr);
      cairo_surface_flush (alone);
      n = count_differing_rows (all, (int) y + CS_STREAM_HEADER_HEIGHT_PX, alone, mapped.height_px);
      g_test_message ("%s: group at y %.0f, %d px of drawing, %u rows differ from its own "
                      "renderer's", cs_stream_get_name (s), y, mapped.height_px, n);
      if (n != 0)
        {
          g_autofree char *a = g_build_filename (g_get_tmp_dir (), "streams-all.png", NULL);
          g_autofree char *b = g_strdup_printf ("%s/streams-alone-%u.png", g_get_tmp_dir (), i);

          cairo_surface_write_to_png (all, a);
          cairo_surface_write_to_png (alone, b);
          g_test_message ("drawings written to %s and %s", a, b);
        }
      g_assert_cmpuint (n, ==, 0);
      cairo_surface_destroy (alone);
    }
  cairo_surface_destroy (all);
}

/* The guest's vCPU strip (at @strip_y) shows the host's view: columns in
 * the in-guest colour, each over a span of the host's clock where the
 * host recorded the vCPU's thread in the guest. */
static void
check_vcpu_strip (CsStreamsRenderer *r, CsStream *guest, const CsViewport *vp, double strip_y)
{
  CsVcpuTimeline *timeline = cs_stream_get_vcpu_timeline (guest);
  CsStream *host = cs_stream_get_host (guest);
  cairo_surface_t *all = draw_streams (r, vp);
  int stride = cairo_image_surface_get_stride (all);
  const guint8 *row = cairo_image_surface_get_data (all) +
                      (gsize) (strip_y + CS_VCPU_STRIP_HEIGHT_PX / 2) * stride;
  guint n = WIDTH_PX - CS_LABEL_WIDTH_PX, n_green = 0;
  g_autofree CsVcpuBin *bins = g_new (CsVcpuBin, n);
  CsColor green;
  guint8 want[3];

  g_assert_nonnull (timeline);
  g_assert_nonnull (host);
  cs_vcpu_plot_get_color (timeline, CS_VCPU_STATE_IN_GUEST, -1, &green);
  want[0] = (guint8) lround (green.blue * 255);  /* ARGB32 is BGRA in memory */
  want[1] = (guint8) lround (green.green * 255);
  want[2] = (guint8) lround (green.red * 255);
  cs_vcpu_timeline_summarize (timeline, 0, cs_stream_from_axis_ns (host, 0, vp->begin_ns),
                              cs_stream_from_axis_ns (host, 0, vp->end_ns), n, bins);
  for (guint c = 0; c < n; c++)
    {
      const guint8 *px = row + (gsize) (CS_LABEL_WIDTH_PX + c) * 4;

      if (ABS (px[0] - want[0]) <= 1 && ABS (px[1] - want[1]) <= 1 && ABS (px[2] - want[2]) <= 1)
        {
          n_green++;
          g_assert_cmpint (bins[c].state_ns[CS_VCPU_STATE_IN_GUEST], >, 0);
        }
    }
  g_test_message ("vCPU 0 strip: %u of %u columns in the guest", n_green, n);
  g_assert_cmpuint (n_green, >, 0);
  cairo_surface_destroy (all);
}

static void
test_kvm_pair (void)
{
  g_autofree char *host_path = NULL;
  g_autofree char *guest_path = NULL;
  g_autoptr(CsDocument) host_doc = NULL;
  g_autoptr(CsDocument) guest_doc = NULL;
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsStreamsRenderer) r = cs_streams_renderer_new (set);
  CsStream *host, *guest;
  CsViewport vp = { 0, 0, WIDTH_PX, 0 };
  CsStreamsHit hit;
  double gy = 0, gh = 0;
  gint64 mid;

  if (!kvm_paths (&host_path, &guest_path))
    return;
  host_doc = cs_test_load_path (host_path);
  guest_doc = cs_test_load_path (guest_path);
  host = cs_stream_set_add (set, host_doc, NULL);
  guest = cs_stream_set_add (set, guest_doc, NULL);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_true (cs_stream_set_get_span (set, &vp.begin_ns, &vp.end_ns));
  vp.end_ns++;
  vp.height_px = cs_streams_renderer_get_natural_height (r);

  /* the guest group has one vCPU strip under its drawing */
  g_assert_true (cs_streams_renderer_get_stream_area (r, guest, &gy, &gh));
  g_assert_cmpfloat (gh, ==, CS_STREAM_HEADER_HEIGHT_PX +
                     cs_timeline_renderer_get_natural_height (cs_streams_renderer_get_stream_renderer (r, guest)) +
                     CS_VCPU_STRIP_HEIGHT_PX);
  check_groups_drawn (r, &vp);

  /* 2 ms in the middle of the guest's recording, on the axis */
  mid = cs_stream_to_axis_ns (guest, 0, (cs_document_get_first_ns (guest_doc) +
                                         cs_document_get_last_ns (guest_doc)) / 2);
  vp.begin_ns = mid - 1000000;
  vp.end_ns = mid + 1000000;
  check_groups_drawn (r, &vp);

  check_vcpu_strip (r, guest, &vp, gy + gh - CS_VCPU_STRIP_HEIGHT_PX);

  /* a point on the guest's first CPU plot: its time maps back to the axis */
  {
    g_autoptr(GError) error = NULL;
    double x = WIDTH_PX * 0.6, plot_y = 0;

    cs_timeline_renderer_get_cpu_plot_area (cs_streams_renderer_get_stream_renderer (r, guest), 0,
                                            &plot_y, NULL);
    g_assert_true (cs_streams_renderer_hit_test (r, &vp, x, gy + CS_STREAM_HEADER_HEIGHT_PX +
                                                 plot_y + 5, &hit, &error));
    g_assert_no_error (error);
    g_assert_cmpint (hit.part, ==, CS_STREAMS_HIT_PLOTS);
    g_assert_true (hit.stream == guest);
    g_assert_cmpint (hit.hit.kind, ==, CS_HIT_CPU_PLOT);
    g_assert_cmpint (ABS (cs_stream_to_axis_ns (guest, hit.hit.cpu, hit.hit.ts_ns) - hit.axis_ns),
                     <=, 2 * (vp.end_ns - vp.begin_ns) / WIDTH_PX + 2);
    g_assert_true (cs_streams_renderer_hit_test (r, &vp, x, gy + gh - 2, &hit, NULL));
    g_assert_cmpint (hit.part, ==, CS_STREAMS_HIT_VCPU_STRIP);
    g_assert_cmpuint (hit.vcpu, ==, 0);
  }
  g_assert_true (cs_streams_renderer_hit_test (r, &vp, 5, 5, &hit, NULL));
  g_assert_cmpint (hit.part, ==, CS_STREAMS_HIT_COLLAPSE);
  g_assert_true (hit.stream == host);
}

/* Collapse, hide, move and close change the layout as they say. */
static void
test_layout (void)
{
  g_autofree char *a_path = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *b_path = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autoptr(CsDocument) a_doc = cs_test_load_path (a_path);
  g_autoptr(CsDocument) b_doc = cs_test_load_path (b_path);
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsStreamsRenderer) r = cs_streams_renderer_new (set);
  CsStream *a = cs_stream_set_add (set, a_doc, NULL);
  CsStream *b = cs_stream_set_add (set, b_doc, NULL);
  int ha = cs_timeline_renderer_get_natural_height (cs_streams_renderer_get_stream_renderer (r, a));
  int hb = cs_timeline_renderer_get_natural_height (cs_streams_renderer_get_stream_renderer (r, b));
  int full = cs_streams_renderer_get_natural_height (r);
  CsViewport vp = { 0, 0, WIDTH_PX, 0 };
  CsStreamsHit hit;
  double y = -1;

  g_assert_cmpint (cs_stream_get_alignment (b), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
  g_assert_cmpint (full, >, 2 * CS_STREAM_HEADER_HEIGHT_PX + ha + hb);
  g_assert_cmpint (full, <=, 2 * CS_STREAM_HEADER_HEIGHT_PX + ha + hb + 20);
  g_assert_true (cs_stream_set_get_span (set, &vp.begin_ns, &vp.end_ns));
  vp.end_ns++;
  vp.height_px = full;
  check_groups_drawn (r, &vp);

  g_assert_true (cs_streams_renderer_get_stream_area (r, b, &y, NULL));
  g_assert_true (cs_streams_renderer_hit_test (r, &vp, WIDTH_PX - 4, y + 6, &hit, NULL));
  g_assert_cmpint (hit.part, ==, CS_STREAMS_HIT_CLOSE);
  g_assert_true (hit.stream == b);
  g_assert_true (cs_streams_renderer_hit_test (r, &vp, WIDTH_PX / 2.0, y + 6, &hit, NULL));
  g_assert_cmpint (hit.part, ==, CS_STREAMS_HIT_HEADER);

  cs_stream_set_collapsed (a, TRUE);
  g_assert_cmpint (cs_streams_renderer_get_natural_height (r), ==, full - ha);
  check_groups_drawn (r, &vp);
  cs_stream_set_collapsed (a, FALSE);

  cs_stream_set_hidden (a, TRUE);
  g_assert_false (cs_streams_renderer_get_stream_area (r, a, NULL, NULL));
  g_assert_true (cs_streams_renderer_get_stream_area (r, b, &y, NULL));
  g_assert_cmpfloat (y, ==, 0);
  cs_stream_set_hidden (a, FALSE);

  cs_stream_set_move (set, b, 0);
  g_assert_true (cs_streams_renderer_get_stream_area (r, b, &y, NULL));
  g_assert_cmpfloat (y, ==, 0);
  g_assert_true (cs_streams_renderer_get_stream_area (r, a, &y, NULL));
  g_assert_cmpfloat (y, >, hb);

  cs_stream_set_remove (set, b);
  g_assert_false (cs_streams_renderer_get_stream_area (r, b, NULL, NULL));
  g_assert_cmpint (cs_streams_renderer_get_natural_height (r), ==, CS_STREAM_HEADER_HEIGHT_PX + ha);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/render/StreamsRenderer/kvm-pair", test_kvm_pair);
  g_test_add_func ("/cs/render/StreamsRenderer/layout", test_layout);
  return g_test_run ();
}
