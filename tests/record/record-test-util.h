/* record-test-util.h: what the recording tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cs-document.h"

G_BEGIN_DECLS

/* The state of tracefs outside our instances, compared before and after a
 * test: the top instance must be left as found. */
typedef struct {
  char *set_event;
  char *current_tracer;
  char *tracing_on;
  char *buffer_size_kb;
} TracefsSnapshot;

gboolean    rt_require_tracefs          (void);
const char *rt_tracing_dir              (void);
char       *rt_read_text                (const char *path);
void        rt_snapshot_take            (TracefsSnapshot *snap);
void        rt_snapshot_assert_same     (TracefsSnapshot *snap);
void        rt_assert_instance_gone     (int         pid);
void        rt_assert_no_orphan_instances (void);
void        rt_assert_no_leftovers      (const char *dir,
                                         const char *keep);
void        rt_assert_no_temp_files     (const char *dir);
JsonObject *rt_run_oracle               (const char *trace_path);
JsonObject *rt_run_oracle_env           (const char  *trace_path,
                                         char       **envp);
void        rt_describe_recording       (const char *path,
                                         JsonObject *oracle);
void        rt_assert_oracle_has_events (JsonObject *oracle);
void        rt_assert_document_matches  (CsDocument *doc,
                                         JsonObject *oracle);
CsDocument *rt_load_document            (const char *trace_path);
GHashTable *rt_report_counts_for_pid    (const char *trace_path,
                                         int         pid,
                                         guint64    *n_events);

G_END_DECLS
