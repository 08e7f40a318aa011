/* cs-format.h: how gui/ and the CLI write times and durations for people.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char *cs_format_timestamp (gint64 ts_ns);
char *cs_format_duration  (gint64 duration_ns);
char *cs_format_offset    (gint64 offset_ns);
char *cs_format_count     (guint64 count);
char *cs_format_json      (JsonBuilder *builder);

G_END_DECLS
