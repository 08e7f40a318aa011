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

/* A TIME_SHIFT option's payload: @n_vcpus vCPUs with the same @n samples
 * (@times, @offsets, and @scaling with 0 fraction bits), peer @peer. */
GBytes *cs_test_time_shift (guint64       peer,
                            guint32       flags,
                            guint32       n_vcpus,
                            guint         n,
                            const gint64 *times,
                            const gint64 *offsets,
                            gint64        scaling);

/* tests/data/sched-irq-v7.dat rewritten as @name in the runtime dir with a
 * TRACEID @id (0: its own), TIME_SHIFT @shift (nullable), and TSC2NSEC
 * (multiplier 3, shift 1) when @tsc; returns the path (free it). */
char *cs_test_make_peer_recording (const char *name,
                                   guint64     id,
                                   GBytes     *shift,
                                   gboolean    tsc);

/* ../shared/testdata/kvm/@name (the real KVM pair), or NULL with the test
 * skipped when the folder is absent (free the path). */

/* The CPU count of tests/data/sched-irq-v7.dat; *@first_raw gets the
 * ring-buffer time of its first record. */
guint cs_test_sample_cpus (gint64 *first_raw);

G_END_DECLS
