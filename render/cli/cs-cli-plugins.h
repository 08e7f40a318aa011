/* cs-cli-plugins.h: plugins on the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-document.h"
#include "cs-plugin-document-private.h"
#include "cs-plugin-registry.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * CsCliPass:
 * @plugin_file: (nullable): the plugin the worker loads (`--plugin-file`)
 * @name: (nullable): the pass to run (`--pass`); %NULL: build the index only
 * @param: (nullable): its parameter (`--param`)
 * @registry: the worker's own registry, holding only @plugin_file
 * @plugin: the loaded plugin
 * @db_path: where the results went, once the pass succeeded
 *
 * What `chronoscope index-worker --pass` runs.
 */
typedef struct {
  char *plugin_file;
  char *name;
  char *param;
  CsPluginRegistry *registry;
  CsPlugin *plugin;
  char *db_path;
} CsCliPass;

gboolean          cs_cli_plugins_load_pass  (CsCliPass          *pass,
                                             GError            **error);
gboolean          cs_cli_plugins_run_pass   (CsCliPass          *pass,
                                             CsDocument         *document,
                                             CsPluginPassProgressFunc progress,
                                             gpointer            user_data,
                                             GCancellable       *cancellable,
                                             GError            **error);
int               cs_cli_plugins_worker_status (const GError   *error);
void              cs_cli_pass_clear         (CsCliPass          *pass);

gboolean          cs_cli_plugins_is_command (const char         *name);
int               cs_cli_plugins_run        (int                 argc,
                                             char              **argv);
char             *cs_cli_plugins_dup_help   (void);
gboolean          cs_cli_plugins_is_unknown_command   (const char *name);
int               cs_cli_plugins_fail_unknown_command (const char *name);
CsPluginDocument *cs_cli_plugins_open       (CsDocument         *document,
                                             GCancellable       *cancellable,
                                             GError            **error);
gboolean          cs_cli_plugins_add_json   (CsPluginDocument   *document,
                                             JsonBuilder        *builder,
                                             GError            **error);
gboolean          cs_cli_plugins_set_rows   (CsTimelineRenderer *renderer,
                                             CsPluginDocument   *document,
                                             const char * const *specs,
                                             GError            **error);

G_END_DECLS
