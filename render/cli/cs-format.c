/* cs-format.c: how gui/ and the CLI write times and durations for people.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "cs-format.h"

/**
 * cs_format_timestamp:
 * @ts_ns: a timestamp in the trace clock, nanoseconds
 *
 * Writes @ts_ns in seconds with nanosecond digits, the way `trace-cmd report
 * -t` prints timestamps, so what the window shows can be found in a report.
 *
 * Returns: (transfer full): for example "59.866283412 s"
 */
char *
cs_format_timestamp (gint64 ts_ns)
{
  const char *sign = ts_ns < 0 ? "-" : "";
  guint64 abs_ns = ts_ns < 0 ? (guint64) -(ts_ns + 1) + 1 : (guint64) ts_ns;

  /* TRANSLATORS: a timestamp in seconds, for example "59.866283412 s" */
  return g_strdup_printf (_("%s%" PRIu64 ".%09" PRIu64 " s"),
                          sign, abs_ns / G_GUINT64_CONSTANT (1000000000),
                          abs_ns % G_GUINT64_CONSTANT (1000000000));
}

/**
 * cs_format_duration:
 * @duration_ns: a duration, nanoseconds
 *
 * Writes @duration_ns with the unit that keeps one to three digits before
 * the decimal point (ns, µs, ms, s) and three significant digits.
 *
 * Returns: (transfer full): for example "12.3 ms"
 */
char *
cs_format_duration (gint64 duration_ns)
{
  double magnitude = ABS ((double) duration_ns);
  double value;
  int digits;

  if (magnitude < 1e3)
    return g_strdup_printf (_("%" PRId64 " ns"), duration_ns);

  value = duration_ns / (magnitude < 1e6 ? 1e3 : magnitude < 1e9 ? 1e6 : 1e9);
  digits = ABS (value) >= 99.95 ? 0 : ABS (value) >= 9.995 ? 1 : 2;

  if (magnitude < 1e6)
    return g_strdup_printf (_("%.*f µs"), digits, value);
  if (magnitude < 1e9)
    return g_strdup_printf (_("%.*f ms"), digits, value);
  return g_strdup_printf (_("%.*f s"), digits, value);
}

/**
 * cs_format_offset:
 * @offset_ns: time since the start of the recording, nanoseconds
 *
 * Like the time axis: the unit that keeps one to three digits before the
 * decimal point, with three decimals, so neighbouring events stay apart.
 *
 * Returns: (transfer full): for example "123.457 ms"
 */
char *
cs_format_offset (gint64 offset_ns)
{
  double magnitude = ABS ((double) offset_ns);

  if (magnitude < 1e3)
    return g_strdup_printf (_("%" PRId64 " ns"), offset_ns);
  if (magnitude < 1e6)
    return g_strdup_printf (_("%.3f µs"), offset_ns / 1e3);
  if (magnitude < 1e9)
    return g_strdup_printf (_("%.3f ms"), offset_ns / 1e6);
  return g_strdup_printf (_("%.6f s"), offset_ns / 1e9);
}

/**
 * cs_format_count:
 * @count: a number of things
 *
 * Returns: (transfer full): @count with the locale's digit grouping
 */
char *
cs_format_count (guint64 count)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

/**
 * cs_format_json:
 * @builder: a builder holding one complete value (its object ended)
 *
 * The value as indented JSON, the form `chronoscope info --json` and
 * `chronoscope demo --json` print for people and scripts alike.
 *
 * Returns: (transfer full): the text, without a final newline
 */
char *
cs_format_json (JsonBuilder *builder)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}
