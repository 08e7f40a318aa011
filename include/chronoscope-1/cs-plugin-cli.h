/* cs-plugin-cli.h: a plugin on the `chronoscope` command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 *
 * A plugin can add a subcommand (`chronoscope NAME ...`, listed by
 * `chronoscope --help`) and a member of the object `chronoscope info FILE
 * --json` prints.  Both run on the main thread of a process without a
 * display; GTK is not initialised there.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-plugin-document.h"

G_BEGIN_DECLS

/**
 * CsPluginCommandInfo:
 * @struct_size: sizeof (CsPluginCommandInfo)
 * @name: the subcommand, `[a-z0-9-]+`; it must not be one of
 *   Chronoscope's own (info, render, record, demo, ...)
 * @summary: one line for `chronoscope --help`
 * @run: runs the command: @argv[0] is @name, the rest its arguments
 *   (parse them with GOptionContext); returns the exit status (0 on
 *   success; on failure print one line naming the file to stderr and
 *   return 1).  Open recordings with cs_plugin_cli_open().
 *
 * A subcommand of the command line.
 */
typedef struct {
  guint32 struct_size;
  const char *name;
  const char *summary;
  int (*run) (CsPlugin  *plugin,
              int        argc,
              char     **argv);
} CsPluginCommandInfo;

/**
 * cs_plugin_add_command:
 * @plugin: the plugin being initialised
 * @info: the command; copied (the first @info->struct_size bytes)
 *
 * Registers a subcommand.  Call it from #CsPluginEntry.init.
 */
void              cs_plugin_add_command      (CsPlugin                  *plugin,
                                              const CsPluginCommandInfo *info);

/**
 * CsPluginJsonFunc:
 * @instance: the plugin's instance for the recording
 * @builder: a builder positioned where the member's value goes: add
 *   exactly one value (an object, an array, a number...)
 * @error: return location for an error
 *
 * Builds the plugin's member of `info --json`.
 *
 * Returns: %FALSE with @error set on failure (the command then fails)
 */
typedef gboolean (*CsPluginJsonFunc) (gpointer      instance,
                                      JsonBuilder  *builder,
                                      GError      **error);

/**
 * cs_plugin_add_json_section:
 * @plugin: the plugin being initialised
 * @member: the member's name in the object `info --json` prints; unique
 *   among plugins (the plugin's id is a good choice)
 * @func: builds its value; called only when @func's plugin is enabled,
 *   after the plugin's automatic passes are done
 *
 * Adds a member to `chronoscope info FILE --json`.  Call it from
 * #CsPluginEntry.init.
 */
void              cs_plugin_add_json_section (CsPlugin         *plugin,
                                              const char       *member,
                                              CsPluginJsonFunc  func);

/**
 * cs_plugin_cli_open:
 * @plugin: the plugin whose command is running
 * @path: a recording (a trace-cmd trace.dat), as the user gave it
 * @error: %CS_PLUGIN_ERROR_FAILED with a message naming the file when it
 *   cannot be opened or indexed (not a recording, truncated, damaged),
 *   %G_IO_ERROR_CANCELLED when the user interrupted it
 *
 * Opens a recording as `chronoscope info` does: its index is built in a
 * worker process, or reused from the cache, and the automatic passes of
 * the enabled plugins (@plugin among them) are run.  The plugin's
 * instance for it is then cs_plugin_document_get_instance().
 *
 * Returns: (transfer full) (nullable): the document; release it with
 *   cs_plugin_document_unref()
 */
CsPluginDocument *cs_plugin_cli_open         (CsPlugin    *plugin,
                                              const char  *path,
                                              GError     **error);

/**
 * cs_plugin_cli_fail:
 * @command: the subcommand that failed (#CsPluginCommandInfo.name)
 * @path: (nullable): the recording it is about, as the user gave it, or
 *   %NULL for a message about the arguments
 * @message: what went wrong, one line (translated)
 *
 * Prints "chronoscope COMMAND: PATH: MESSAGE" (or "chronoscope COMMAND:
 * MESSAGE" without @path) and a newline to stderr, as Chronoscope's own
 * commands report failures.  Main thread.
 *
 * Returns: 1, the exit status of a failed command, for
 *   `return cs_plugin_cli_fail (...);` in #CsPluginCommandInfo.run
 */
int               cs_plugin_cli_fail         (const char  *command,
                                              const char  *path,
                                              const char  *message);

/**
 * cs_plugin_json_add_int:
 * @builder: a builder inside an object
 * @member: the member's name
 * @value: its value (ns, counts, ids)
 *
 * Adds the member `"MEMBER": VALUE` to the object being built, as
 * `--json` outputs print integers.
 */
void              cs_plugin_json_add_int     (JsonBuilder *builder,
                                              const char  *member,
                                              gint64       value);

/**
 * cs_plugin_json_add_int_or_null:
 * @builder: a builder inside an object
 * @member: the member's name
 * @value: its value when @present
 * @present: whether there is a value: %FALSE adds `"MEMBER": null` (a
 *   range's open end, the minimum of no sample)
 *
 * Adds an integer member that may have no value.
 */
void              cs_plugin_json_add_int_or_null (JsonBuilder *builder,
                                              const char  *member,
                                              gint64       value,
                                              gboolean     present);

/**
 * cs_plugin_cli_add_recording:
 * @document: a recording a command opened (cs_plugin_cli_open())
 * @path: another recording, as the user gave it (`--add FILE`, as
 *   `chronoscope render FILE --add FILE2` takes it)
 * @error: %CS_PLUGIN_ERROR_FAILED with a message naming the file when it
 *   cannot be opened or indexed, %G_IO_ERROR_CANCELLED when the user
 *   interrupted it
 *
 * Opens @path (its index built in a worker process, or reused) and puts
 * it on @document's time axis, as the window's File → Add Recording does:
 * @document stays the reference, and a KVM guest and its host relate by
 * their TIME_SHIFT and GUEST options.  What plugins ask across recordings
 * then answers for @document: cs_plugin_document_get_vcpu_out() for a
 * guest whose host was added.  No plugin is enabled on @path.  When the
 * two do not relate, a warning with the reason is printed and the command
 * goes on.
 *
 * Since: plugin API 1.2
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean          cs_plugin_cli_add_recording (CsPluginDocument *document,
                                              const char       *path,
                                              GError          **error);

G_END_DECLS
