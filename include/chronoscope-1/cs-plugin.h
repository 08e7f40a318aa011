/* cs-plugin.h: what a Chronoscope plugin is and how it registers its hooks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 *
 * A plugin is a shared object (`cc -shared`) that exports one function,
 * chronoscope_plugin_entry() (write it with #CS_PLUGIN_DEFINE).  Chronoscope
 * loads it with GModule, checks the API version the entry reports, and
 * calls its #CsPluginEntry.init once, on the main thread, where the plugin
 * registers what it adds:
 *
 * - cs_plugin_set_document_hooks(): a per-recording instance, event list
 *   details (cs-plugin.h);
 * - cs_plugin_add_pass(): work at index time, over the events it names,
 *   writing its own tables (cs-plugin-pass.h);
 * - cs_plugin_add_sql_table(): an SQL table over a pass's stored results,
 *   for `chronoscope query` and the window's Query page (cs-plugin-pass.h);
 * - cs_plugin_add_layer(): drawing on CPU plots, task plots or rows of its
 *   own, and what the info bar says under the pointer (cs-plugin-view.h);
 * - cs_plugin_add_page(): a page of the window (cs-plugin-window.h);
 * - cs_plugin_add_command() and cs_plugin_add_json_section(): a subcommand
 *   of the `chronoscope` command line and a member of `info --json`
 *   (cs-plugin-cli.h).
 *
 * Registration functions copy the structures they are given; the strings
 * and function pointers in them must stay valid as long as the process
 * runs (plugins are never unloaded), so static storage is the rule.
 *
 * Threads: everything is called on the main thread, except the callbacks
 * of a pass (#CsPluginPassInfo), which run in the indexing worker process,
 * one pass at a time, on one thread of that process.
 *
 * Time is nanoseconds in the recording's trace clock (a gint64), and spans
 * are half-open: [begin_ns, end_ns).
 */
#pragma once

#include <glib.h>
#include <gmodule.h>

#include "cs-plugin-version.h"

G_BEGIN_DECLS

/**
 * CsPlugin:
 *
 * A loaded plugin, owned by Chronoscope.  Plugins receive it in their
 * #CsPluginEntry.init and in command callbacks, and pass it back to the
 * registration functions and to cs_plugin_document_get_instance().
 */
typedef struct _CsPlugin CsPlugin;

/**
 * CsPluginDocument:
 *
 * One recording opened by Chronoscope with its index (cs-plugin-document.h).
 */
typedef struct _CsPluginDocument CsPluginDocument;

/**
 * CS_PLUGIN_ERROR:
 *
 * Error domain of the plugin API: loading plugins, running their passes,
 * reading their results.
 */
#define CS_PLUGIN_ERROR (cs_plugin_error_quark ())

/**
 * CsPluginError:
 * @CS_PLUGIN_ERROR_NOT_A_PLUGIN: the file is not a shared object GModule
 *   can load, or it has no chronoscope_plugin_entry symbol
 * @CS_PLUGIN_ERROR_VERSION: the plugin was built for another
 *   #CS_PLUGIN_API_VERSION
 * @CS_PLUGIN_ERROR_SYMBOL: the plugin needs a symbol this Chronoscope does
 *   not provide (built against a newer API, or uses Chronoscope's internals)
 * @CS_PLUGIN_ERROR_INVALID: the entry is malformed (a bad id, a missing
 *   callback) or another plugin already has its id
 * @CS_PLUGIN_ERROR_INIT: the plugin's #CsPluginEntry.init failed
 * @CS_PLUGIN_ERROR_NOT_READY: results a pass writes are not computed yet
 *   for this recording and parameter (see cs_plugin_document_request_pass())
 * @CS_PLUGIN_ERROR_FAILED: a plugin's hook failed; the message is its own
 * @CS_PLUGIN_ERROR_USAGE: a parameter names an event or a field the
 *   recording does not have, or command-line arguments are wrong
 *
 * Codes of %CS_PLUGIN_ERROR.
 */
typedef enum {
  CS_PLUGIN_ERROR_NOT_A_PLUGIN,
  CS_PLUGIN_ERROR_VERSION,
  CS_PLUGIN_ERROR_SYMBOL,
  CS_PLUGIN_ERROR_INVALID,
  CS_PLUGIN_ERROR_INIT,
  CS_PLUGIN_ERROR_NOT_READY,
  CS_PLUGIN_ERROR_FAILED,
  CS_PLUGIN_ERROR_USAGE,
} CsPluginError;

GQuark cs_plugin_error_quark (void);

/**
 * CsPluginEntry:
 * @api_version: #CS_PLUGIN_API_VERSION as the plugin was built; always the
 *   first member, in every version of the API
 * @struct_size: sizeof (CsPluginEntry) as the plugin was built
 * @id: a short stable name, `[a-z0-9-]+`, unique among plugins: it names
 *   the plugin in settings, sessions, the command line (`--row ID:KEY`) and
 *   the files of its results
 * @name: the name users read (the plugin translates it itself; the host
 *   also looks it up in Chronoscope's own gettext domain, so built-in
 *   plugins mark it with N_())
 * @description: one sentence on what it adds (translated like @name)
 * @version: the plugin's own version, shown in the Plugins dialog
 * @init: (nullable): registers the plugin's hooks; main thread, once.
 *   Return %FALSE with @error set to refuse to load (for example when a
 *   library the plugin needs is missing); the message reaches the user.
 *
 * What chronoscope_plugin_entry() returns: a static structure.
 */
typedef struct {
  guint32 api_version;
  guint32 struct_size;
  const char *id;
  const char *name;
  const char *description;
  const char *version;
  gboolean (*init) (CsPlugin  *plugin,
                    GError   **error);
} CsPluginEntry;

/**
 * CS_PLUGIN_DEFINE:
 * @id: the plugin's id (a string literal)
 * @name: its name
 * @description: its description
 * @version: its version
 * @init: its init function, `gboolean init (CsPlugin *, GError **)`
 *
 * Writes the plugin's entry symbol.  Use it once, at file scope, in one
 * source file of the plugin:
 *
 * |[<!-- language="C" -->
 * CS_PLUGIN_DEFINE ("migrations", "Migrations",
 *                   "Arrows where sched_migrate_task moved a task",
 *                   "1.0", migrations_init)
 * ]|
 */
#define CS_PLUGIN_DEFINE(id, name, description, version, init)            \
  G_MODULE_EXPORT const CsPluginEntry *chronoscope_plugin_entry (void);   \
  G_MODULE_EXPORT const CsPluginEntry *                                  \
  chronoscope_plugin_entry (void)                                        \
  {                                                                      \
    static const CsPluginEntry entry = {                                 \
      CS_PLUGIN_API_VERSION, sizeof (CsPluginEntry),                      \
      (id), (name), (description), (version), (init),                    \
    };                                                                   \
    return &entry;                                                       \
  }

/**
 * cs_plugin_get_id:
 * @plugin: a loaded plugin
 *
 * Returns: (transfer none): its #CsPluginEntry.id
 */
const char *cs_plugin_get_id          (CsPlugin *plugin);

/**
 * cs_plugin_get_name:
 * @plugin: a loaded plugin
 *
 * Returns: (transfer none): its #CsPluginEntry.name
 */
const char *cs_plugin_get_name        (CsPlugin *plugin);

/**
 * cs_plugin_get_path:
 * @plugin: a loaded plugin
 *
 * Returns: (transfer none): the file it was loaded from (absolute)
 */
const char *cs_plugin_get_path        (CsPlugin *plugin);

/**
 * CsPluginEventRef:
 * @ts_ns: the event's timestamp
 * @cpu: the CPU whose ring buffer held it
 * @pid: its common_pid
 * @system: its trace system, as in events/<system>/ of tracefs
 * @name: its name, as in events/<system>/<name>/
 * @row: its position among the events of its CPU (0-based, time order)
 *
 * An event of the recording as the views know it, without its fields
 * (read them with cs_plugin_document_read_event()).
 */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  gint32 pid;
  const char *system;
  const char *name;
  guint64 row;
} CsPluginEventRef;

/**
 * CsPluginDocumentHooks:
 * @struct_size: sizeof (CsPluginDocumentHooks)
 * @open: (nullable): a recording was opened (in a window, or by a command
 *   of the command line) with this plugin enabled: return the plugin's
 *   instance for it, which every other callback receives (%NULL is a valid
 *   instance when the plugin keeps no state).  Return %NULL with @error set
 *   to stay out of this recording: the error is shown in the Plugins
 *   dialog.  Main thread; should be quick (ask for passes rather than
 *   reading the recording here).
 * @close: (nullable): the recording is closed or the plugin disabled: free
 *   the instance.  Main thread.
 * @pass_ready: (nullable): a pass of this plugin has finished for this
 *   recording (@param is %NULL for a pass without parameter), whether it
 *   was computed now or found from an earlier run; its results can be read
 *   (cs_plugin_document_get_pass_db()).  The window redraws after it.
 *   Main thread.
 * @describe_event: (nullable): details for a row of the event list, or
 *   %NULL when the plugin has nothing to say about @event.  Called for
 *   each row shown, so it must be cheap (an indexed query, not a scan).
 *   Returns a newly allocated string, one line.  Main thread.
 *
 * Per-recording callbacks of a plugin.
 */
typedef struct {
  guint32 struct_size;
  gpointer (*open)           (CsPlugin               *plugin,
                              CsPluginDocument       *document,
                              GError                **error);
  void     (*close)          (gpointer                instance);
  void     (*pass_ready)     (gpointer                instance,
                              const char             *pass,
                              const char             *param);
  char    *(*describe_event) (gpointer                instance,
                              const CsPluginEventRef *event);
} CsPluginDocumentHooks;

/**
 * cs_plugin_set_document_hooks:
 * @plugin: the plugin being initialised
 * @hooks: its per-recording callbacks; copied (the first
 *   @hooks->struct_size bytes)
 *
 * Sets the plugin's per-recording callbacks.  Call it at most once, from
 * #CsPluginEntry.init.  A plugin without them has a %NULL instance.
 */
void cs_plugin_set_document_hooks (CsPlugin                    *plugin,
                                   const CsPluginDocumentHooks *hooks);

G_END_DECLS
