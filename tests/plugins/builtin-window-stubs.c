/* builtin-window-stubs.c: the window's and the command line's side of the
 * plugin API, for test hosts without a window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The built-ins register pages, commands and `info --json` members,
 * which gui/ and render/cli/ implement for the chronoscope executable
 * (gui/plugins/cs-window-plugins.c, render/cli/cs-cli-plugins.c).  These
 * tests load the built-ins into a host made of index/ and render/ only,
 * which must still provide every symbol a plugin resolves when it loads
 * (plugins are loaded with every symbol bound).  Registrations are kept
 * as the host keeps them (cs-plugin-private.h), so a test can call a JSON
 * member; the window functions are never reached (no page is created
 * without a window).  The window itself is tested with the real ones
 * (tests/plugins/field-plot/test-field-plot-page.c).
 */
#include <gtk/gtk.h>

#include "cs-plugin-private.h"
#include "chronoscope-plugin.h"

void
cs_plugin_add_page (CsPlugin               *plugin,
                    const CsPluginPageInfo *info)
{
  _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_PAGE, info, sizeof (CsPluginPageInfo),
                       "cs_plugin_add_page");
}

void
cs_plugin_add_command (CsPlugin                  *plugin,
                       const CsPluginCommandInfo *info)
{
  _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_COMMAND, info, sizeof (CsPluginCommandInfo),
                       "cs_plugin_add_command");
}

void
cs_plugin_add_json_section (CsPlugin         *plugin,
                            const char       *member,
                            CsPluginJsonFunc  func)
{
  CsPluginJsonSection section = { member, (gpointer) func };

  _cs_plugin_add_hook (plugin, CS_PLUGIN_HOOK_JSON, &section, sizeof section,
                       "cs_plugin_add_json_section");
}

CsPluginDocument *
cs_plugin_cli_open (CsPlugin    *plugin,
                    const char  *path,
                    GError     **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "no command line in this test");
  return NULL;
}

gboolean
cs_plugin_cli_add_recording (CsPluginDocument *document,
                             const char       *path,
                             GError          **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "no command line in this test");
  return FALSE;
}

#define NOT_HERE() g_error ("%s: no window in this test", G_STRFUNC)

/* The command line's helpers: no command runs in these tests. */
int cs_plugin_cli_fail (const char *command, const char *path, const char *message) { NOT_HERE (); return 1; }
void cs_plugin_json_add_int (JsonBuilder *builder, const char *member, gint64 value) { NOT_HERE (); }
void cs_plugin_json_add_int_or_null (JsonBuilder *builder, const char *member, gint64 value, gboolean present) { NOT_HERE (); }

CsPluginDocument *cs_plugin_window_get_document (CsPluginWindow *window) { NOT_HERE (); return NULL; }
GtkWindow *cs_plugin_window_get_toplevel (CsPluginWindow *window) { NOT_HERE (); return NULL; }
void cs_plugin_window_get_range (CsPluginWindow *window, gint64 *begin_ns, gint64 *end_ns) { NOT_HERE (); }
void cs_plugin_window_show_span (CsPluginWindow *window, gint64 begin_ns, gint64 end_ns) { NOT_HERE (); }
void cs_plugin_window_set_markers (CsPluginWindow *window, gint64 a_ns, gint64 b_ns) { NOT_HERE (); }
gboolean cs_plugin_window_select_event (CsPluginWindow *window, guint cpu, gint64 ts_ns) { NOT_HERE (); return FALSE; }
void cs_plugin_window_add_task_plot (CsPluginWindow *window, gint32 pid) { NOT_HERE (); }
void cs_plugin_window_add_row (CsPluginWindow *window, CsPlugin *plugin, const char *layer, const char *key) { NOT_HERE (); }
void cs_plugin_window_remove_row (CsPluginWindow *window, CsPlugin *plugin, const char *layer, const char *key) { NOT_HERE (); }
void cs_plugin_window_queue_draw (CsPluginWindow *window) { NOT_HERE (); }
guint cs_plugin_window_get_n_documents (CsPluginWindow *window) { NOT_HERE (); return 0; }
CsPluginDocument *cs_plugin_window_get_nth_document (CsPluginWindow *window, guint n) { NOT_HERE (); return NULL; }
gint64 cs_plugin_window_to_axis_ns (CsPluginWindow *window, CsPluginDocument *document, guint cpu, gint64 ts_ns) { NOT_HERE (); return ts_ns; }
gint64 cs_plugin_window_from_axis_ns (CsPluginWindow *window, CsPluginDocument *document, guint cpu, gint64 axis_ns) { NOT_HERE (); return axis_ns; }
