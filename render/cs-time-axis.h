/* cs-time-axis.h: ticks and labels for a span of trace time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Time is gint64 nanoseconds in the recording's trace clock; spans are
 * half-open [begin_ns, end_ns).  Labelled ticks are 1, 2 or 5 × 10^k ns
 * apart, at least %CS_TIME_AXIS_MIN_SPACING_PX pixels apart, and fall on
 * round values relative to an origin (the start of the recording), so the
 * labels read "0 s", "1.5 ms", "250 µs" rather than raw clock values.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CS_TIME_AXIS_MIN_SPACING_PX:
 *
 * The least distance between two labelled ticks, in pixels.  With steps of
 * 1, 2 and 5 × 10^k ns the distance chosen lies in [80, 200) pixels, usually
 * close to 100.
 */
#define CS_TIME_AXIS_MIN_SPACING_PX 80.0

/**
 * CS_TIME_AXIS_LABEL_SIZE:
 *
 * Bytes enough for any label cs_time_axis_format_label() writes, with its
 * terminating nul.
 */
#define CS_TIME_AXIS_LABEL_SIZE 48

/**
 * CsTimeAxis:
 * @begin_ns: start of the visible span (inclusive)
 * @end_ns: end of the visible span (exclusive)
 * @origin_ns: the time labelled zero (usually the recording's first event)
 * @step_ns: nanoseconds between labelled ticks, 1, 2 or 5 × 10^k
 * @minor_step_ns: nanoseconds between unlabelled ticks; divides @step_ns
 *   (equal to @step_ns when the step is too small to divide)
 * @first_tick_ns: the first labelled tick >= @begin_ns; ticks are
 *   @origin_ns + n × @step_ns
 * @unit_ns: unit of absolute labels: 1 (ns), 1000 (µs), 10^6 (ms) or
 *   10^9 (s)
 * @decimals: digits after the decimal point of absolute labels
 * @has_base: whether labels are offsets from a base tick: deep zooms into a
 *   long recording would otherwise print many digits on every tick ("+2 µs"
 *   reads better than "1043.000002 s")
 * @base_ns: with @has_base, the tick labelled in full; later ticks read
 *   "+offset"
 * @offset_unit_ns: with @has_base, the unit of offsets (as @unit_ns)
 * @offset_decimals: with @has_base, digits after the point of offsets
 *
 * Which ticks to draw for a span and how to label them; fill it with
 * cs_time_axis_init().  Plain data: copy it freely.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gint64 origin_ns;
  gint64 step_ns;
  gint64 minor_step_ns;
  gint64 first_tick_ns;
  gint64 unit_ns;
  guint decimals;
  gboolean has_base;
  gint64 base_ns;
  gint64 offset_unit_ns;
  guint offset_decimals;
} CsTimeAxis;

gint64      cs_time_axis_choose_step  (gint64            span_ns,
                                       double            width_px,
                                       double            min_spacing_px);
gsize       cs_time_axis_format_duration (gint64        duration_ns,
                                       char             *buffer,
                                       gsize             buffer_size);
void        cs_time_axis_init         (CsTimeAxis       *axis,
                                       gint64            begin_ns,
                                       gint64            end_ns,
                                       double            width_px,
                                       gint64            origin_ns);
gsize       cs_time_axis_format_label (const CsTimeAxis *axis,
                                       gint64            tick_ns,
                                       char             *buffer,
                                       gsize             buffer_size);
const char *cs_time_unit_name         (gint64            unit_ns);

char       *cs_time_format_duration   (gint64            duration_ns);
char       *cs_time_format_timestamp  (gint64            ts_ns);

G_END_DECLS
