/* tracedat-rewrite.h: see tracedat-rewrite.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Rewrites the compressed v7 file @in to @out_path compressed with @codec
 * ("zstd" or "zlib"); @promote (nullable) names an instance buffer
 * to make the top buffer; @extra_options (nullable) are raw options to
 * append.  Aborts the test on failure. */
void cs_test_rewrite_v7 (const char *in,
                         const char *out_path,
                         const char *codec,
                         const char *promote,
                         GBytes     *extra_options);

/* Appends option @id with @size bytes of @data to @opts (little endian). */
void cs_test_add_option (GByteArray *opts,
                         guint16     id,
                         const void *data,
                         guint32     size);

G_END_DECLS
