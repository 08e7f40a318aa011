/* cs-record-private.h: helpers shared by the files of index/capture/.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-record-error.h"
#include "cs-tracedat-writer.h"
#include "cs-output-file-private.h"

G_BEGIN_DECLS

/* cs-record-tracefs.c: tracefs files, read and written with errno kept */

/* One event to record, resolved against available_events. */
typedef struct {
  char *system;
  char *name;
  char *filter;          /* nullable: none */
} CsRecordEvent;

void        _cs_record_event_free        (CsRecordEvent *event);

const char *_cs_record_tracing_dir       (GError      **error);
GBytes     *_cs_record_read_file         (const char   *path,
                                          GError      **error);
int         _cs_record_write_file        (const char   *path,
                                          const char   *value);
GPtrArray  *_cs_record_resolve_events    (const char   *tracing_dir,
                                          char * const *specs,
                                          char * const *filters,
                                          GError      **error);
gboolean    _cs_record_page_layout       (GBytes       *header_page,
                                          guint        *page_size,
                                          guint        *kernel_long_size,
                                          GError      **error);
guint       _cs_record_count_cpus        (const char   *tracing_dir);
gboolean    _cs_record_add_formats       (CsTracedatWriter *writer,
                                          const char   *tracing_dir,
                                          GPtrArray    *events,
                                          GError      **error);
void        _cs_record_read_symbols      (const char        *tracing_dir,
                                          GBytes           **kallsyms,
                                          GBytes           **printk_formats);
void        _cs_record_merge_saved_cmdlines (GHashTable *comms,
                                          const char   *tracing_dir);
void        _cs_record_merge_proc_comms  (GHashTable   *comms);
GBytes     *_cs_record_cmdlines_bytes    (GHashTable   *comms);
guint64     _cs_record_stats_value       (const char   *stats_text,
                                          const char   *key);
void        _cs_record_remove_stale_instances (const char *tracing_dir);

G_END_DECLS
