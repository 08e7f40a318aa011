/* cs-plugin-host.h: the plugins of this process, which are enabled, and
 * how their passes run in a worker.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-plugin-registry.h"
#include "cs-plugin-document-private.h"
#include "cs-sql-session.h"

G_BEGIN_DECLS

#define CS_TYPE_PLUGIN_HOST (cs_plugin_host_get_type ())
G_DECLARE_FINAL_TYPE (CsPluginHost, cs_plugin_host, CS, PLUGIN_HOST, GObject)

int               cs_plugin_host_take_args        (int               argc,
                                                   char            **argv);
void              cs_plugin_host_add_file         (const char       *path);
CsPluginHost     *cs_plugin_host_get_default      (void);
CsPluginRegistry *cs_plugin_host_get_registry     (CsPluginHost     *self);
gboolean          cs_plugin_host_is_enabled       (CsPluginHost     *self,
                                                   CsPlugin         *plugin);
void              cs_plugin_host_set_enabled      (CsPluginHost     *self,
                                                   CsPlugin         *plugin,
                                                   gboolean          enabled);
char            **cs_plugin_host_dup_disabled_ids (CsPluginHost     *self);
GPtrArray        *cs_plugin_host_dup_enabled_plugins (CsPluginHost  *self);
gboolean          cs_plugin_host_add_sql_tables   (GPtrArray        *plugins,
                                                   CsDocument       *document,
                                                   CsSqlSession     *session,
                                                   GError          **error);
void              cs_plugin_host_set_disabled_ids (CsPluginHost     *self,
                                                   const char * const *ids);
const char       *cs_plugin_host_get_open_error   (CsPluginHost     *self,
                                                   CsPlugin         *plugin);
CsPluginDocument *cs_plugin_host_open_document    (CsPluginHost     *self,
                                                   CsDocument       *document);
CsPluginDocument *cs_plugin_host_open_results     (CsDocument       *document,
                                                   gboolean          in_worker);
gboolean          cs_plugin_host_enable_on        (CsPluginHost     *self,
                                                   CsPluginDocument *document,
                                                   CsPlugin         *plugin);
CsDocument       *cs_plugin_host_load_document    (const char       *path,
                                                   GCancellable     *cancellable,
                                                   GError          **error);
gboolean          cs_plugin_host_ensure_pass      (gpointer          data,
                                                   CsPluginDocument *document,
                                                   CsPlugin         *plugin,
                                                   const char       *pass,
                                                   const char       *param,
                                                   GCancellable     *cancellable,
                                                   GError          **error);
gboolean          cs_plugin_host_run_pass         (CsPluginDocument *document,
                                                   CsPlugin         *plugin,
                                                   const char       *pass,
                                                   const char       *param,
                                                   GCancellable     *cancellable,
                                                   GError          **error);

G_END_DECLS
