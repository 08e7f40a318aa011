/* cs-plugin-pass.h: a plugin's work at index time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 *
 * A pass reads the events a plugin asks for, once per recording, and
 * writes what it derives from them into tables of its own: a SQLite
 * database kept in the user's cache next to the recording's index and
 * reused whenever the recording is opened again, until the pass's
 * #CsPluginPassInfo.version changes.  Chronoscope runs passes in its
 * indexing worker process (a plugin that crashes there takes down only
 * the worker), after the recording's index is built, or later when the
 * plugin is enabled or a parameter is chosen, with progress and Cancel in
 * the window.  Memory is the plugin's to bound: keep per-key state, not
 * per-event state, and write rows as they come (the host commits them in
 * one transaction at the end).
 *
 * Events come in time order over all CPUs (ties in CPU order), exactly
 * the events of the types the pass names, with their fields.
 */
#pragma once

#include <sqlite3.h>

#include "cs-plugin-document.h"

G_BEGIN_DECLS

/**
 * CsPluginPass:
 *
 * A pass being run, owned by Chronoscope; valid from #CsPluginPassInfo.begin
 * to #CsPluginPassInfo.free.
 */
typedef struct _CsPluginPass CsPluginPass;

/**
 * CsPluginPassInfo:
 * @struct_size: sizeof (CsPluginPassInfo)
 * @name: the pass's name, `[a-z0-9_]+`, unique within the plugin
 * @version: version of what the pass writes: results written by another
 *   version are never read, the pass runs again
 * @automatic: run the pass whenever the plugin is enabled for a recording
 *   (with a %NULL parameter), rather than only when asked with
 *   cs_plugin_document_request_pass() or cs_plugin_document_ensure_pass()
 * @events: (array zero-terminated=1) (nullable): the event types the pass
 *   reads, as "system:name", or "system:*" for every event of a system;
 *   types the recording lacks are skipped (a pass over none of them still
 *   runs, with no events, so that its tables exist)
 * @list_events: (nullable): for a pass with a parameter, the event types
 *   it reads for @param, in the form of @events; used instead of @events.
 *   Return %NULL with %CS_PLUGIN_ERROR_USAGE when @param names an event or
 *   a field the recording does not have: the message reaches the user.
 *   Runs in the worker.
 * @begin: creates the pass's tables (cs_plugin_pass_get_db()) and
 *   prepares its statements; returns the pass's state (%NULL is valid), or
 *   %NULL with @error set to fail the pass.  Runs in the worker.
 * @event: one event, in time order over all CPUs; return %FALSE with
 *   @error set to fail the pass.  Runs in the worker.
 * @end: (nullable): after the last event: write what is left.  Runs in the
 *   worker.
 * @free: (nullable): frees the state, whether the pass succeeded, failed or
 *   was cancelled (the database is then discarded).  Runs in the worker.
 * @prepare: (nullable): called on each connection the host opens on the
 *   pass's database (@db): the one the pass writes, before @begin; the
 *   read-only one cs_plugin_document_get_pass_db() returns; and each one
 *   the host opens to run a #CsPluginSqlTableInfo.select over the pass,
 *   before that SELECT is compiled: to register the SQL functions or
 *   virtual table modules the pass's tables and views use
 *   (sqlite3_create_module_v2(), sqlite3_create_function_v2()).  Called
 *   once per connection, in the thread that then uses it; return %FALSE
 *   with @error set to refuse the connection (the pass fails, or its
 *   results are not read).  Added after @free: a plugin built before it
 *   (a smaller struct_size) has none.
 *
 * How a plugin's pass runs.
 */
typedef struct {
  guint32 struct_size;
  const char *name;
  guint32 version;
  gboolean automatic;
  const char *const *events;
  char   **(*list_events) (CsPluginDocument  *document,
                           const char        *param,
                           GError           **error);
  gpointer (*begin)       (CsPluginPass      *pass,
                           GError           **error);
  gboolean (*event)       (gpointer           state,
                           const CsPluginEvent *event,
                           GError           **error);
  gboolean (*end)         (gpointer           state,
                           GError           **error);
  void     (*free)        (gpointer           state);
  gboolean (*prepare)     (sqlite3           *db,
                           GError           **error);
} CsPluginPassInfo;

/**
 * cs_plugin_add_pass:
 * @plugin: the plugin being initialised
 * @info: the pass; copied (the first @info->struct_size bytes)
 *
 * Registers a pass.  Call it from #CsPluginEntry.init.
 */
void              cs_plugin_add_pass           (CsPlugin               *plugin,
                                                const CsPluginPassInfo *info);

/**
 * cs_plugin_pass_get_db:
 * @pass: the running pass
 *
 * The pass's own database, open for writing, inside a transaction that
 * Chronoscope commits after #CsPluginPassInfo.end succeeds (and discards
 * otherwise): create tables and indexes there, and insert with prepared
 * statements.  It is a fresh database each time the pass runs; the
 * window later reads it with cs_plugin_document_get_pass_db().
 *
 * Returns: (transfer none): the connection, owned by Chronoscope
 */
sqlite3          *cs_plugin_pass_get_db        (CsPluginPass *pass);

/**
 * cs_plugin_pass_get_document:
 * @pass: the running pass
 *
 * Returns: (transfer none): the recording the pass reads, for its CPUs,
 *   time span, task names and missed events (cs-plugin-document.h)
 */
CsPluginDocument *cs_plugin_pass_get_document  (CsPluginPass *pass);

/**
 * cs_plugin_pass_get_param:
 * @pass: the running pass
 *
 * Returns: (transfer none) (nullable): the parameter the pass was asked
 *   for, %NULL for a pass without one
 */
const char       *cs_plugin_pass_get_param     (CsPluginPass *pass);

/**
 * cs_plugin_pass_get_n_events:
 * @pass: the running pass
 *
 * Returns: how many events the pass will receive in all, from the index's
 *   counts (for sizing, and for summaries that adapt to the density)
 */
guint64           cs_plugin_pass_get_n_events  (CsPluginPass *pass);

/**
 * cs_plugin_pass_get_plugin:
 * @pass: the running pass
 *
 * The plugin that registered the pass (cs_plugin_add_pass()): for a pass
 * that reads its own plugin's other results, e.g. with
 * cs_plugin_document_get_pass_db(), without keeping the plugin in a
 * global of its own.
 *
 * Returns: (transfer none): the plugin, owned by Chronoscope, valid while
 *   Chronoscope runs
 *
 * Since: plugin API 1.4
 */
CsPlugin         *cs_plugin_pass_get_plugin    (CsPluginPass *pass);

/**
 * cs_plugin_pass_get_document_is_idle:
 * @pass: the running pass
 *
 * Whether Chronoscope leaves the document alone while it hands out the
 * pass's events: its own threads read the recording, each with its own
 * connection to the index and its own cursor (a recording read by
 * Chronoscope's reader; not one with buffer instances, which libtracecmd
 * reads through the document).  Then one other thread of the pass may
 * use the document (cs-plugin-document.h: one thread at a time, so the
 * pass's callbacks must not use it meanwhile) from the first
 * #CsPluginPassInfo.event on (before it, the host sets its threads up
 * and looks the formats up in the document's tep handle), provided the
 * pass joins that thread before it uses the document again and before
 * #CsPluginPassInfo.free returns.  Called in #CsPluginPassInfo.begin or
 * after.
 *
 * Returns: %TRUE when a thread of the pass may use the document while
 *   the events are handed out
 */
gboolean          cs_plugin_pass_get_document_is_idle (CsPluginPass *pass);

/**
 * CsPluginSqlTableInfo:
 * @struct_size: sizeof (CsPluginSqlTableInfo)
 * @name: the SQL table's name, `[a-z0-9_]+`, unique among every table of
 *   `chronoscope query` (the event tables are `system_event`: choose a
 *   name of the plugin's own, e.g. `latency_pairs`)
 * @pass: the plugin's pass whose results the table reads
 * @param_column: the name of the table's first column (TEXT), which holds
 *   the pass's parameter the row was computed for (e.g. `definition`); an
 *   equality on it reads only that parameter's results
 * @columns: the other columns, as in CREATE TABLE: "a_ts INTEGER, b_ts
 *   INTEGER, ..."; name time columns `ts` (ns) and give `cpu` and `pid`
 *   when they apply, so the window links rows to events
 * @select: a SELECT over the pass's own tables (those #CsPluginPassInfo.begin
 *   creates), giving @columns in that order; run on each parameter's
 *   results, on a read-only connection of their own
 * @how_to_compute: (nullable): a sentence for users, said when a query
 *   asks for results not computed yet, e.g. "run `chronoscope latency
 *   FILE --preset NAME` first"
 *
 * An SQL table over a pass's stored results, for `chronoscope query` and
 * the window's Query page.  Every parameter the pass was run with for the
 * recording (and whose results are of the pass's current version) is
 * part of the table.  Rows are read when queried, never copied.  User SQL
 * cannot change the pass databases or attach them: the host opens them
 * read-only itself and runs only @select there.
 */
typedef struct {
  guint32 struct_size;
  const char *name;
  const char *pass;
  const char *param_column;
  const char *columns;
  const char *select;
  const char *how_to_compute;
} CsPluginSqlTableInfo;

/**
 * cs_plugin_add_sql_table:
 * @plugin: the plugin being initialised
 * @info: the table; copied (the first @info->struct_size bytes; the
 *   strings must stay valid while the plugin is loaded)
 *
 * Registers an SQL table over the results of one of the plugin's passes
 * (register the pass first).  Call it from #CsPluginEntry.init.
 */
void              cs_plugin_add_sql_table      (CsPlugin                   *plugin,
                                                const CsPluginSqlTableInfo *info);

G_END_DECLS
