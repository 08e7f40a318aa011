/* test-time-jump.c: CsDocument on recordings whose clock jumps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One byte changed in a timestamp of a test recording makes the next
 * event jump by days or by years (the two files of issue 10; trace-cmd
 * still reads them).  The index must cost what the events cost, not what
 * the time span claims: each load runs in a subprocess with a timeout, and
 * the index must stay small and its summaries must still hold the slices.  The damaged
 * copies are made at test time from tests/data.
 */
#include <cairo.h>
#include <glib/gstdio.h>

#include "cs-document.h"
#include "cs-timeline-renderer.h"

typedef struct {
  const char *test_path;
  const char *recording;    /* in tests/data */
  gsize offset;             /* the byte changed */
  guint8 was, becomes;
  gboolean span_fits;       /* last - first fits in a gint64 */
} Damage;

static const Damage damages[] = {
  /* The timestamp after it jumps to 49,175,004.9 s. */
  { "/cs/render/TimelineRenderer/time-jump/sched-irq-v7-nocompress",
    "sched-irq-v7-nocompress.dat", 132732, 0x4e, 0x7f, TRUE },
  { "/cs/render/TimelineRenderer/time-jump/instance-only-v7",
    "instance-only-v7.dat", 12835, 0xd1, 0x00, TRUE },
  /* The top byte of CPU 0's first page time: its events start at -2^63. */
  { "/cs/render/TimelineRenderer/time-jump/first-at-minus-2^63",
    "sched-irq-v6.dat", 45063, 0x00, 0x80, FALSE },
};

/* How long a load may take before it counts as a hang: the files hold a
 * few thousand events and index in well under a second. */
#define LOAD_TIMEOUT_US (30 * G_USEC_PER_SEC)

/* The index of a recording of ~150 KB; the runaway build wrote 524 MB. */
#define MAX_INDEX_BYTES (2 * 1024 * 1024)

static char *
make_damaged_copy (const Damage *d)
{
  g_autofree char *src = g_build_filename (g_getenv ("CS_TESTDATA"), d->recording, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  char *dst = g_build_filename (g_get_tmp_dir (), d->recording, NULL);
  gsize len;

  g_assert_true (g_file_get_contents (src, &data, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (d->offset, <, len);
  g_assert_cmphex ((guint8) data[d->offset], ==, d->was);
  data[d->offset] = (char) d->becomes;
  g_assert_true (g_file_set_contents (dst, data, len, &error));
  g_assert_no_error (error);
  return dst;
}

static void
assert_columns_agree_with_slices (CsDocument *doc)
{
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      g_autoptr(GError) error = NULL;
      const guint width = 1920;
      g_autofree CsColumn *cols = g_new0 (CsColumn, width);
      gint64 begin = cs_document_get_first_ns (doc), end = cs_document_get_last_ns (doc) + 1;
      gint64 slice_busy = 0, longest = 0, busy = 0;
      guint64 n = 0;

      /* The slices and events past the last event (the jump) count as
       * well. */
      g_assert_true (cs_document_get_slices (doc, cpu, begin, G_MAXINT64 / 4, slices, &error));
      g_assert_no_error (error);
      g_assert_true (cs_document_get_events (doc, cpu, 0, G_MAXINT64 / 4, G_MAXUINT, events, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (events->len, ==, cs_document_get_cpu (doc, cpu)->n_events);
      for (guint i = 0; i < events->len; i++)
        end = MAX (end, g_array_index (events, CsEvent, i).ts_ns + 1);
      for (guint i = 0; i < slices->len; i++)
        {
          CsSlice *s = &g_array_index (slices, CsSlice, i);

          slice_busy += s->end_ns - s->begin_ns;
          longest = MAX (longest, s->end_ns - s->begin_ns);
          end = MAX (end, s->end_ns);
        }

      g_assert_true (cs_document_get_cpu_columns (doc, cpu, begin, end, width, cols, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < width; i++)
        {
          n += cols[i].n_events;
          busy += cols[i].busy_ns;
          g_assert_cmpint (cols[i].busy_ns, <=, (end - begin) / width * 1.000001 + 2);
        }
      g_assert_cmpuint (n, ==, cs_document_get_cpu (doc, cpu)->n_events);
      /* Where the clock goes back, slices overlap and the summaries count
       * their union: at least the longest slice (the one across the jump,
       * which must not be lost), at most their sum.  Columns trillions of
       * ns wide: allow the doubles' rounding. */
      g_test_message ("CPU %u: busy %" G_GINT64_FORMAT " ns, slices %" G_GINT64_FORMAT
                      " ns, the longest %" G_GINT64_FORMAT " ns", cpu, busy, slice_busy, longest);
      g_assert_cmpint (busy, >=, longest - longest / 1000000 - 5 * (gint64) width);
      g_assert_cmpint (busy, <=, slice_busy + slice_busy / 1000000 + 5 * (gint64) width);
    }
}

/* The whole span, then 10 ms at the end of the jump and in its middle. */
static void
assert_frames_draw (CsDocument *doc,
                    gint64      end)
{
  g_autoptr(CsTimelineRenderer) renderer = cs_timeline_renderer_new (doc);
  gint64 first = cs_document_get_first_ns (doc);
  gint64 middle = (gint64) (((guint64) first + (guint64) end) / 2);
  const CsViewport viewports[] = {
    { first, end, 1600, 400 },
    { end - 10000000, end, 1600, 400 },
    { middle, middle + 10000000, 1600, 400 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (viewports); i++)
    {
      g_autoptr(GError) error = NULL;
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 400);
      cairo_t *cr = cairo_create (surface);
      gint64 t0 = g_get_monotonic_time ();

      if (viewports[i].end_ns <= viewports[i].begin_ns)
        continue;
      g_assert_true (cs_timeline_renderer_draw (renderer, cr, &viewports[i], &error));
      g_assert_no_error (error);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      g_test_message ("frame %u drawn in %.1f ms", i, (g_get_monotonic_time () - t0) / 1e3);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
}

static void
test_time_jump (gconstpointer data)
{
  const Damage *d = data;

  if (g_test_subprocess ())
    {
      g_autofree char *path = make_damaged_copy (d);
      g_autoptr(GError) error = NULL;
      g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
      GStatBuf st;

      g_assert_no_error (error);
      g_assert_nonnull (doc);
      g_assert_cmpint (g_stat (cs_document_get_index_path (doc), &st), ==, 0);
      g_test_message ("%s: index of %" G_GINT64_FORMAT " bytes", d->recording, (gint64) st.st_size);
      g_assert_cmpint (st.st_size, <, MAX_INDEX_BYTES);
      if (d->span_fits)
        assert_columns_agree_with_slices (doc);
      assert_frames_draw (doc, cs_document_get_last_ns (doc) + 1);
      return;
    }

  g_test_trap_subprocess (NULL, LOAD_TIMEOUT_US, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    g_test_add_data_func (damages[i].test_path, &damages[i], test_time_jump);

  return g_test_run ();
}
