/* cs-plugin-result-private.h: the result tables' internals shared by
 * their files (cs-plugin-result-table.c writes, cs-plugin-result-rows.c
 * reads the rows, cs-plugin-result-column.c the orders).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-plugin.h"
#include "cs-plugin-result.h"

#include "cs-chunk-codec.h"

G_BEGIN_DECLS

#define _CS_RESULT_CHUNK CS_PLUGIN_RESULT_ROWS_PER_CHUNK
/* A row as the writer holds it: the fixed values, the count of optional
 * values, the optional values. */
#define _CS_RESULT_MAX_STRIDE (CS_PLUGIN_RESULT_MAX_FIXED + 1 + CS_PLUGIN_RESULT_MAX_OPTIONAL)

/* The largest encoded chunk of rows, in bytes. */
#define _CS_RESULT_ROWS_MAX_BYTES \
  (5 + _CS_RESULT_CHUNK * _CS_RESULT_MAX_STRIDE * CS_CHUNK_VARINT_MAX_BYTES)

gsize    _cs_result_rows_encode (const gint64  *rows,
                                 gsize          n_rows,
                                 guint          n_fixed,
                                 guint          n_optional,
                                 guint8        *out);

gboolean _cs_result_is_identifier (const char    *s);

G_END_DECLS
