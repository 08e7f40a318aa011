/* cs-atrace-private.h: the atrace plugin's shared declarations.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#pragma once

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

/* The pass's name; it has no parameter. */
#define CS_ATRACE_PASS "marks"

/**
 * CsAtrace:
 * @plugin: the plugin
 * @document: the recording (outlives the instance)
 * @has_events: whether it has atrace markers (the pass is asked for only
 *   then)
 *
 * The plugin's instance for one recording.
 */
typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;
  gboolean has_events;
} CsAtrace;

/* The task-plot layer drawing the slices. */
#define CS_ATRACE_LAYER "slices"

void     _cs_atrace_add_layer    (CsPlugin         *plugin);
void     _cs_atrace_add_counter_rows (CsPlugin     *plugin);
sqlite3 *_cs_atrace_get_db       (CsAtrace         *self);
gboolean _cs_atrace_prepare_span (sqlite3            *db,
                                  sqlite3_stmt      **stmt,
                                  const char         *sql,
                                  const CsPluginView *view);
void     _cs_atrace_add_pass     (CsPlugin         *plugin);
void     _cs_atrace_add_command  (CsPlugin         *plugin);
gboolean _cs_atrace_has_events   (CsPluginDocument *document);

G_END_DECLS
