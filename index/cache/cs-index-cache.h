/* cs-index-cache.h: where the index of a recording lives, and whether an
 * existing one still belongs to it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

char     *cs_index_cache_dup_dir                 (void);
char     *cs_index_cache_compute_identity        (const char  *trace_path,
                                                  GError     **error);
char     *cs_index_cache_dup_index_path          (const char  *identity);
char     *cs_index_cache_dup_index_path_in       (const char  *dir,
                                                  const char  *identity);
char     *cs_index_cache_dup_temporary_path      (const char  *index_path,
                                                  GPid         pid);
void      cs_index_cache_remove_stale_temporaries (void);
void      cs_index_cache_remove_stale_temporaries_in (const char *dir_path);
char     *cs_index_cache_dup_writable_dir        (char       **fallback_reason,
                                                  GError     **error);
gboolean  cs_index_cache_is_temporary            (const char  *index_path);
void      cs_index_cache_adopt_temporary         (const char  *index_path);
void      cs_index_cache_keep_temporaries        (void);

G_END_DECLS
