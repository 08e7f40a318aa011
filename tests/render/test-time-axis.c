/* test-time-axis.c: tick steps, label units and time formatting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <glib.h>

#include "cs-time-axis.h"

#define US G_GINT64_CONSTANT (1000)
#define MS G_GINT64_CONSTANT (1000000)
#define S  G_GINT64_CONSTANT (1000000000)

static char *
label (const CsTimeAxis *axis, gint64 tick_ns)
{
  char buffer[CS_TIME_AXIS_LABEL_SIZE];

  cs_time_axis_format_label (axis, tick_ns, buffer, sizeof buffer);
  return g_strdup (buffer);
}

static void
assert_label (const CsTimeAxis *axis, gint64 tick_ns, const char *expected)
{
  g_autofree char *text = label (axis, tick_ns);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_step_spacing (void)
{
  static const double widths[] = { 120, 333, 800, 1000, 1856, 3840 };

  /* Every span from 1 ns to ~3 hours gets a 1/2/5 × 10^k step whose labelled
   * ticks lie 80 to 200 px apart (or 1 ns when the pixels are wider). */
  for (gint64 span = 1; span < G_GINT64_CONSTANT (10000000000000); span = span * 3 + 1)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        gint64 step = cs_time_axis_choose_step (span, widths[w], CS_TIME_AXIS_MIN_SPACING_PX);
        double step_px = (double) step * widths[w] / (double) span;
        gint64 mantissa = step;

        while (mantissa % 10 == 0)
          mantissa /= 10;
        g_assert_true (mantissa == 1 || mantissa == 2 || mantissa == 5);
        g_assert_cmpfloat (step_px, >=, CS_TIME_AXIS_MIN_SPACING_PX);
        if (step > 1)
          g_assert_cmpfloat (step_px, <, 200.0);
      }
}

static void
test_seconds (void)
{
  CsTimeAxis axis;
  gint64 origin = 7 * S + 123;

  /* 10 s on 1000 px: 80 px is 0.8 s, so a tick every second. */
  cs_time_axis_init (&axis, origin, origin + 10 * S, 1000, origin);
  g_assert_cmpint (axis.step_ns, ==, S);
  g_assert_cmpint (axis.first_tick_ns, ==, origin);
  g_assert_false (axis.has_base);
  assert_label (&axis, origin, "0 s");
  assert_label (&axis, origin + 3 * S, "3 s");

  /* 2 s on 1000 px: 200 ms steps, labelled in seconds with one decimal. */
  cs_time_axis_init (&axis, origin + 250 * MS, origin + 2250 * MS, 1000, origin);
  g_assert_cmpint (axis.step_ns, ==, 200 * MS);
  g_assert_cmpint (axis.first_tick_ns, ==, origin + 400 * MS);
  assert_label (&axis, axis.first_tick_ns, "0.4 s");
  assert_label (&axis, origin + 1200 * MS, "1.2 s");
}

static void
test_milliseconds (void)
{
  CsTimeAxis axis;

  /* 2 ms on 1000 px: 200 µs steps; values stay below 1 s, so milliseconds. */
  cs_time_axis_init (&axis, 0, 2 * MS, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, 200 * US);
  g_assert_cmpint (axis.unit_ns, ==, MS);
  assert_label (&axis, 1200 * US, "1.2 ms");
  assert_label (&axis, 0, "0.0 ms");

  /* 40 ms on 1920 px: 80 px is 1.67 ms, so 2 ms steps. */
  cs_time_axis_init (&axis, 10 * MS, 50 * MS, 1920, 0);
  g_assert_cmpint (axis.step_ns, ==, 2 * MS);
  assert_label (&axis, 12 * MS, "12 ms");
}

static void
test_micro_and_nanoseconds (void)
{
  CsTimeAxis axis;

  cs_time_axis_init (&axis, 0, 500, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, 50);
  assert_label (&axis, 250, "250 ns");

  cs_time_axis_init (&axis, 0, 50 * US, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, 5 * US);
  assert_label (&axis, 35 * US, "35 µs");

  /* 5 ns on 1000 px: one tick per nanosecond, never a fraction. */
  cs_time_axis_init (&axis, 100, 105, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, 1);
  g_assert_cmpint (axis.minor_step_ns, ==, 1);
  assert_label (&axis, 103, "103 ns");
}

static void
test_deep_zoom_uses_base (void)
{
  CsTimeAxis axis;
  gint64 begin = 1043 * S + 1234;

  /* A 10 µs window 1043 s into the recording: "1043.000002 s" on every tick
   * would be unreadable; the first tick is written in full, then offsets. */
  cs_time_axis_init (&axis, begin, begin + 10 * US, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, US);
  g_assert_true (axis.has_base);
  g_assert_cmpint (axis.base_ns, ==, axis.first_tick_ns);
  g_assert_cmpint (axis.first_tick_ns, ==, 1043 * S + 2 * US);
  assert_label (&axis, axis.first_tick_ns, "1043.000002 s");
  assert_label (&axis, axis.first_tick_ns + 2 * US, "+2 µs");

  /* 12 µs on 1920 px: 500 ns steps, offsets with one decimal. */
  cs_time_axis_init (&axis, begin, begin + 12 * US, 1920, 0);
  g_assert_cmpint (axis.step_ns, ==, 500);
  assert_label (&axis, axis.base_ns + 3500, "+3.5 µs");

  /* The same window near the start keeps absolute labels. */
  cs_time_axis_init (&axis, 3 * MS, 3 * MS + 10 * US, 1000, 0);
  g_assert_false (axis.has_base);
  assert_label (&axis, 3 * MS + 4 * US, "3.004 ms");
}

static void
test_before_origin (void)
{
  CsTimeAxis axis;

  /* Spans may start before the recording: ticks stay on the origin's grid
   * and read negative. */
  cs_time_axis_init (&axis, -3 * MS, 7 * MS, 1000, 0);
  g_assert_cmpint (axis.step_ns, ==, MS);
  g_assert_cmpint (axis.first_tick_ns, ==, -3 * MS);
  assert_label (&axis, -2 * MS, "-2 ms");

  cs_time_axis_init (&axis, 999, 1999, 1000, 1000);
  g_assert_cmpint (axis.first_tick_ns, ==, 1000);
  assert_label (&axis, 1000, "0 ns");
}

static void
test_span_past_int64 (void)
{
  CsTimeAxis axis;
  gint64 begin = G_MININT64 + 1, end = 576 * S;

  /* A damaged recording (a first timestamp read as -2^63) spans more than
   * a gint64 holds: the step must still leave a few ticks across the
   * width, never 1 ns ticks over 2^63 ns (which drew forever). */
  cs_time_axis_init (&axis, begin, end, 1600, begin);
  g_test_message ("step %" G_GINT64_FORMAT " ns", axis.step_ns);
  g_assert_cmpint (axis.step_ns, >=, G_MAXINT64 / 1600 * (gint64) CS_TIME_AXIS_MIN_SPACING_PX / 2);
  g_assert_cmpint (axis.minor_step_ns, >, 0);
  g_assert_cmpint (axis.first_tick_ns, >=, begin);

  /* The degenerate span at the very end of time. */
  cs_time_axis_init (&axis, G_MAXINT64, G_MAXINT64, 1600, 0);
  g_assert_cmpint (axis.step_ns, >=, 1);
}

static void
test_labels_short (void)
{
  /* Whatever the zoom and position, labels stay shorter than the room
   * between ticks: at most 14 characters (about 80 px at 8 pt). */
  for (gint64 begin = 0; begin < G_GINT64_CONSTANT (100000) * S; begin = begin * 7 + 12345)
    for (gint64 span = 3; span < G_GINT64_CONSTANT (100000) * S; span = span * 5 + 1)
      {
        CsTimeAxis axis;
        gint64 tick;
        guint n = 0;

        cs_time_axis_init (&axis, begin, begin + span, 1500, 0);
        for (tick = axis.first_tick_ns; tick < begin + span && n < 40; tick += axis.step_ns, n++)
          {
            g_autofree char *text = label (&axis, tick);

            if (tick != axis.base_ns || !axis.has_base)
              g_assert_cmpint (g_utf8_strlen (text, -1), <=, 14);
          }
      }
}

static void
test_format_duration (void)
{
  static const struct {
    gint64 ns;
    const char *text;
  } cases[] = {
    { 0, "0 ns" },
    { 850, "850 ns" },
    { 1250, "1.250 µs" },
    { 999999, "999.999 µs" },
    { 12345678, "12.346 ms" },
    { 999999600, "1.000 s" },
    { 3 * S, "3.000 s" },
    { 3723 * S + 500 * MS, "3723.500 s" },
    { -1250, "-1.250 µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cs_time_format_duration (cases[i].ns);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_format_timestamp (void)
{
  g_autofree char *a = cs_time_format_timestamp (G_GINT64_CONSTANT (1234567890123));
  g_autofree char *b = cs_time_format_timestamp (5);
  g_autofree char *c = cs_time_format_timestamp (-1500000000);

  g_assert_cmpstr (a, ==, "1234.567890123");
  g_assert_cmpstr (b, ==, "0.000000005");
  g_assert_cmpstr (c, ==, "-1.500000000");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/render/TimeAxis/step-spacing", test_step_spacing);
  g_test_add_func ("/cs/render/TimeAxis/seconds", test_seconds);
  g_test_add_func ("/cs/render/TimeAxis/milliseconds", test_milliseconds);
  g_test_add_func ("/cs/render/TimeAxis/micro-and-nanoseconds", test_micro_and_nanoseconds);
  g_test_add_func ("/cs/render/TimeAxis/deep-zoom-uses-base", test_deep_zoom_uses_base);
  g_test_add_func ("/cs/render/TimeAxis/before-origin", test_before_origin);
  g_test_add_func ("/cs/render/TimeAxis/span-past-int64", test_span_past_int64);
  g_test_add_func ("/cs/render/TimeAxis/labels-short", test_labels_short);
  g_test_add_func ("/cs/render/TimeAxis/format-duration", test_format_duration);
  g_test_add_func ("/cs/render/TimeAxis/format-timestamp", test_format_timestamp);

  return g_test_run ();
}
