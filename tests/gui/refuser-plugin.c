/* refuser-plugin.c: a test plugin that refuses every recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Its document hook fails with CS_PLUGIN_ERROR_FAILED, as a plugin does
 * when a recording lacks what it needs: the window goes on without it and
 * says so in a toast (tests/gui/test-adwaita.c).
 */
#include <chronoscope-plugin.h>

static gpointer
refuser_open (CsPlugin          *plugin,
              CsPluginDocument  *document,
              GError           **error)
{
  g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       "this recording has no refuser:events");
  return NULL;
}

static gboolean
refuser_init (CsPlugin  *plugin,
              GError   **error)
{
  static const CsPluginDocumentHooks hooks = { sizeof hooks, refuser_open, NULL, NULL, NULL };

  cs_plugin_set_document_hooks (plugin, &hooks);
  return TRUE;
}

CS_PLUGIN_DEFINE ("refuser", "Refuser", "Refuses every recording (tests)", "1", refuser_init)
