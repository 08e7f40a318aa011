/* cs-time-axis.c: ticks and labels for a span of trace time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-time-axis.h"

#include <langinfo.h>
#include <stdio.h>

#define NS_PER_US G_GINT64_CONSTANT (1000)
#define NS_PER_MS G_GINT64_CONSTANT (1000000)
#define NS_PER_S  G_GINT64_CONSTANT (1000000000)

/* Absolute labels longer than this many digits switch the axis to a base
 * tick and "+offset" labels. */
#define MAX_LABEL_DIGITS 7

/* The largest 1/2/5 × 10^k that fits a gint64. */
#define MAX_STEP_NS G_GINT64_CONSTANT (5000000000000000000)

static guint64
abs64 (gint64 v)
{
  return v < 0 ? (guint64) 0 - (guint64) v : (guint64) v;
}

/* |a - b| without the signed overflow of a - b (a span past 2^63 ns). */
static guint64
abs_diff (gint64 a,
          gint64 b)
{
  return a >= b ? (guint64) a - (guint64) b : (guint64) b - (guint64) a;
}

/* a - b saturated to a gint64: a label's value across a span past 2^63 ns. */
static gint64
sat_diff (gint64 a,
          gint64 b)
{
  gint64 d;

  if (!__builtin_sub_overflow (a, b, &d))
    return d;
  return a > b ? G_MAXINT64 : G_MININT64;
}

/* The first tick at or after @begin_ns on the grid origin_ns + k × step.
 * In unsigned arithmetic: begin_ns - origin_ns can pass 2^63 ns. */
static gint64
first_tick (gint64 begin_ns,
            gint64 origin_ns,
            gint64 step)
{
  guint64 d, k;

  if (begin_ns > origin_ns)
    {
      d = (guint64) begin_ns - (guint64) origin_ns;
      k = d / (guint64) step + (d % (guint64) step != 0);
      return (gint64) ((guint64) origin_ns + k * (guint64) step);
    }
  d = (guint64) origin_ns - (guint64) begin_ns;
  k = d / (guint64) step;
  return (gint64) ((guint64) origin_ns - k * (guint64) step);
}

static guint
decimal_exponent (guint64 v)
{
  guint k = 0;

  while (v >= 10)
    {
      v /= 10;
      k++;
    }
  return k;
}

static guint
n_digits (guint64 v)
{
  return decimal_exponent (v) + 1;
}

static gint64
pow10_i64 (guint k)
{
  gint64 p = 1;

  while (k-- > 0)
    p *= 10;
  return p;
}

/* The largest unit not above @magnitude_ns, so that values read 1..999. */
static gint64
unit_for (guint64 magnitude_ns)
{
  if (magnitude_ns >= (guint64) NS_PER_S)
    return NS_PER_S;
  if (magnitude_ns >= (guint64) NS_PER_MS)
    return NS_PER_MS;
  if (magnitude_ns >= (guint64) NS_PER_US)
    return NS_PER_US;
  return 1;
}

/* Digits after the point needed to print multiples of @step_ns in @unit_ns. */
static guint
decimals_for (gint64 unit_ns, gint64 step_ns)
{
  guint unit_exponent = decimal_exponent ((guint64) unit_ns);
  guint step_exponent = decimal_exponent ((guint64) step_ns);

  return unit_exponent > step_exponent ? unit_exponent - step_exponent : 0;
}

/**
 * cs_time_unit_name:
 * @unit_ns: 1, 1000, 10^6 or 10^9
 *
 * Returns: the symbol of the unit: "ns", "µs", "ms" or "s"
 */
const char *
cs_time_unit_name (gint64 unit_ns)
{
  switch (unit_ns)
    {
    case NS_PER_S:
      return "s";
    case NS_PER_MS:
      return "ms";
    case NS_PER_US:
      return "µs";
    case 1:
      return "ns";
    default:
      g_return_val_if_reached ("ns");
    }
}

/* The decimal separator of LC_NUMERIC ("," in German), for text people read:
 * axis labels and durations. Never used for machine output. */
static const char *
decimal_point (void)
{
  const char *point = nl_langinfo (RADIXCHAR);

  return point != NULL && *point != '\0' ? point : ".";
}

/* Writes @value_ns / @unit_ns with @decimals digits after the locale's
 * decimal point (the digits dropped are zero for values on the tick grid). */
static gsize
format_fixed (char *buffer, gsize buffer_size, const char *prefix,
              gint64 value_ns, gint64 unit_ns, guint decimals, const char *suffix)
{
  guint64 magnitude = abs64 (value_ns);
  guint64 integral = magnitude / (guint64) unit_ns;
  guint64 fraction = magnitude % (guint64) unit_ns;
  const char *sign = value_ns < 0 ? "-" : "";
  int n;

  if (decimals > 0)
    {
      fraction /= (guint64) (unit_ns / pow10_i64 (decimals));
      n = g_snprintf (buffer, buffer_size, "%s%s%" G_GUINT64_FORMAT "%s%0*" G_GUINT64_FORMAT "%s",
                      prefix, sign, integral, decimal_point (), (int) decimals, fraction,
                      suffix);
    }
  else
    n = g_snprintf (buffer, buffer_size, "%s%s%" G_GUINT64_FORMAT "%s",
                    prefix, sign, integral, suffix);

  return MIN ((gsize) MAX (n, 0), buffer_size > 0 ? buffer_size - 1 : 0);
}

/**
 * cs_time_axis_choose_step:
 * @span_ns: length of the visible span, > 0
 * @width_px: pixels the span is drawn on, > 0
 * @min_spacing_px: least distance wanted between labelled ticks, pixels
 *
 * Picks the distance between labelled ticks: the smallest 1, 2 or 5 × 10^k
 * nanoseconds that is at least @min_spacing_px pixels wide.
 *
 * Returns: the step in nanoseconds, >= 1
 */
gint64
cs_time_axis_choose_step (gint64 span_ns,
                          double width_px,
                          double min_spacing_px)
{
  static const gint64 mantissas[] = { 1, 2, 5 };
  double min_step_ns;
  gint64 scale = 1;

  if (span_ns <= 0 || width_px <= 0.0)
    return 1;

  min_step_ns = (double) span_ns / width_px * MAX (min_spacing_px, 0.0);

  for (guint k = 0; k <= 18; k++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
        {
          gint64 step = mantissas[i] * scale;

          if ((double) step >= min_step_ns)
            return step;
          if (step == MAX_STEP_NS)
            return step;
        }
      scale *= 10;
    }

  return MAX_STEP_NS;
}

/**
 * cs_time_axis_init:
 * @axis: (out caller-allocates): the ticks and label format
 * @begin_ns: start of the visible span (inclusive)
 * @end_ns: end of the visible span (exclusive), > @begin_ns
 * @width_px: pixels the span is drawn on
 * @origin_ns: the time labelled zero, usually cs_document_get_first_ns()
 *
 * Chooses labelled ticks at least %CS_TIME_AXIS_MIN_SPACING_PX apart, minor
 * ticks between them, and a label format: values relative to @origin_ns in
 * the largest unit that keeps them above 1 ("1.5 ms", "250 µs", "12 s"), or,
 * when that would need more than seven digits (a deep zoom into a long
 * recording), the first tick in full followed by offsets from it ("+2 µs").
 */
void
cs_time_axis_init (CsTimeAxis *axis,
                   gint64      begin_ns,
                   gint64      end_ns,
                   double      width_px,
                   gint64      origin_ns)
{
  guint64 magnitude;
  gint64 step, mantissa;

  g_return_if_fail (axis != NULL);

  if (end_ns <= begin_ns)
    {
      if (begin_ns == G_MAXINT64)
        begin_ns--;
      end_ns = begin_ns + 1;
    }

  /* A damaged recording's span can pass 2^63 ns: unsigned, saturated. */
  step = cs_time_axis_choose_step ((gint64) MIN ((guint64) end_ns - (guint64) begin_ns,
                                                 (guint64) G_MAXINT64),
                                   width_px, CS_TIME_AXIS_MIN_SPACING_PX);
  mantissa = step / pow10_i64 (decimal_exponent ((guint64) step));

  axis->begin_ns = begin_ns;
  axis->end_ns = end_ns;
  axis->origin_ns = origin_ns;
  axis->step_ns = step;
  /* 1 → 0.2 steps, 2 → 0.5 steps, 5 → 1 steps: minor ticks on round values. */
  if (mantissa == 2)
    axis->minor_step_ns = step >= 20 ? step / 4 : step / 2;
  else
    axis->minor_step_ns = step >= 5 ? step / 5 : step;
  axis->first_tick_ns = first_tick (begin_ns, origin_ns, step);

  magnitude = MAX (abs_diff (axis->first_tick_ns, origin_ns), abs_diff (end_ns, origin_ns));
  axis->unit_ns = unit_for (magnitude);
  axis->decimals = decimals_for (axis->unit_ns, step);

  axis->has_base = n_digits (magnitude / (guint64) axis->unit_ns) + axis->decimals > MAX_LABEL_DIGITS;
  if (axis->has_base)
    {
      axis->base_ns = axis->first_tick_ns;
      axis->offset_unit_ns = unit_for (MAX (abs_diff (end_ns, axis->base_ns), (guint64) step));
      axis->offset_decimals = decimals_for (axis->offset_unit_ns, step);
    }
  else
    {
      axis->base_ns = origin_ns;
      axis->offset_unit_ns = axis->unit_ns;
      axis->offset_decimals = axis->decimals;
    }
}

/**
 * cs_time_axis_format_label:
 * @axis: an axis filled by cs_time_axis_init()
 * @tick_ns: a labelled tick (first_tick_ns + n × step_ns)
 * @buffer: (out caller-allocates): where the UTF-8 label goes, for example
 *   "1.5 ms", "0 s", or in base mode "1043.000010 s" then "+2 µs"
 * @buffer_size: bytes at @buffer; %CS_TIME_AXIS_LABEL_SIZE is always enough
 *
 * Formats the label of a tick without allocating (the renderer calls this
 * for every tick of every frame), with the decimal separator of LC_NUMERIC.
 *
 * Returns: the length of the label in bytes, without the nul
 */
gsize
cs_time_axis_format_label (const CsTimeAxis *axis,
                           gint64            tick_ns,
                           char             *buffer,
                           gsize             buffer_size)
{
  char suffix[8];

  g_return_val_if_fail (axis != NULL, 0);
  g_return_val_if_fail (buffer != NULL && buffer_size > 0, 0);

  if (axis->has_base && tick_ns != axis->base_ns)
    {
      g_snprintf (suffix, sizeof suffix, " %s", cs_time_unit_name (axis->offset_unit_ns));
      return format_fixed (buffer, buffer_size, tick_ns > axis->base_ns ? "+" : "",
                           sat_diff (tick_ns, axis->base_ns), axis->offset_unit_ns,
                           axis->offset_decimals, suffix);
    }

  g_snprintf (suffix, sizeof suffix, " %s", cs_time_unit_name (axis->unit_ns));
  return format_fixed (buffer, buffer_size, "", sat_diff (tick_ns, axis->origin_ns),
                       axis->unit_ns, axis->decimals, suffix);
}

/**
 * cs_time_format_duration:
 * @duration_ns: a duration in nanoseconds (may be negative)
 *
 * Formats a duration for people: whole nanoseconds below 1 µs ("850 ns"),
 * otherwise three decimals in the largest unit that keeps the value at 1 or
 * more ("1.250 µs", "12.346 ms", "3.000 s"), rounded to nearest, with the
 * decimal separator of LC_NUMERIC ("1,250 µs" in German).  Used for slice
 * lengths, wakeup latencies and marker distances; never for machine output.
 *
 * Returns: (transfer full): the UTF-8 text
 */
char *
cs_time_format_duration (gint64 duration_ns)
{
  static const gint64 units[] = { NS_PER_US, NS_PER_MS, NS_PER_S };
  guint64 magnitude = abs64 (duration_ns);
  const char *sign = duration_ns < 0 ? "-" : "";
  guint64 thousandths = 0;
  gint64 unit = 1;

  if (magnitude < (guint64) NS_PER_US)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " ns", sign, magnitude);

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      guint64 tick = (guint64) units[i] / 1000;

      unit = units[i];
      thousandths = (magnitude + tick / 2) / tick;
      /* 999.9996 µs rounds to 1000.000 µs: say 1.000 ms instead. */
      if (thousandths < 1000000 || i == G_N_ELEMENTS (units) - 1)
        break;
    }

  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%03u %s", sign,
                          thousandths / 1000, decimal_point (), (guint) (thousandths % 1000),
                          cs_time_unit_name (unit));
}

/**
 * cs_time_format_timestamp:
 * @ts_ns: a timestamp in the trace clock, nanoseconds
 *
 * Formats a timestamp as seconds and nanoseconds, "1234.567890123", the way
 * `trace-cmd report -t` prints the timestamp column, so values can be
 * compared with its output and searched for in it.
 *
 * Returns: (transfer full): the text
 */
char *
cs_time_format_timestamp (gint64 ts_ns)
{
  guint64 magnitude = abs64 (ts_ns);

  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                          ts_ns < 0 ? "-" : "",
                          magnitude / (guint64) NS_PER_S,
                          magnitude % (guint64) NS_PER_S);
}

/**
 * cs_time_axis_format_duration:
 * @duration_ns: a duration, ns
 * @buffer: (out caller-allocates): where the UTF-8 text goes, for example
 *   "37.2 µs", "112 ms", "850 ns"
 * @buffer_size: bytes at @buffer; %CS_TIME_AXIS_LABEL_SIZE is always enough
 *
 * Writes a duration drawn over the plots (a wakeup latency's box, a
 * section's band) with three significant digits in the unit that keeps one
 * to three digits before the point, without allocating.
 *
 * Returns: the length of the text in bytes, without the nul
 */
gsize
cs_time_axis_format_duration (gint64  duration_ns,
                              char   *buffer,
                              gsize   buffer_size)
{
  gint len;

  if (duration_ns < 1000)
    len = g_snprintf (buffer, buffer_size, "%" G_GINT64_FORMAT " ns", duration_ns);
  else if (duration_ns < 1000000)
    len = g_snprintf (buffer, buffer_size, "%.3g µs", duration_ns / 1e3);
  else if (duration_ns < 1000000000)
    len = g_snprintf (buffer, buffer_size, "%.3g ms", duration_ns / 1e6);
  else
    len = g_snprintf (buffer, buffer_size, "%.3g s", duration_ns / 1e9);
  return (gsize) MIN ((gsize) MAX (len, 0), buffer_size > 0 ? buffer_size - 1 : 0);
}
