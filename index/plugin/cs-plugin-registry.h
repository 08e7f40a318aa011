/* cs-plugin-registry.h: which plugins this process found, loaded or refused.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "cs-plugin.h"

G_BEGIN_DECLS

/**
 * CsPluginSource:
 * @CS_PLUGIN_SOURCE_COMMAND_LINE: given with `-p FILE.so`
 * @CS_PLUGIN_SOURCE_ENVIRONMENT: found through CHRONOSCOPE_PLUGIN_PATH
 * @CS_PLUGIN_SOURCE_USER: found in $XDG_DATA_HOME/chronoscope/plugins/
 * @CS_PLUGIN_SOURCE_BUILT_IN: installed with Chronoscope, in
 *   $libdir/chronoscope/plugins/
 *
 * Where a plugin came from, in the order a plugin id is looked for: the
 * first plugin with an id wins, later ones with the same id are refused.
 */
typedef enum {
  CS_PLUGIN_SOURCE_COMMAND_LINE,
  CS_PLUGIN_SOURCE_ENVIRONMENT,
  CS_PLUGIN_SOURCE_USER,
  CS_PLUGIN_SOURCE_BUILT_IN,
} CsPluginSource;

/**
 * CsPluginRecord:
 * @path: the file, absolute
 * @source: where it was found
 * @plugin: (nullable): the loaded plugin, %NULL when it was refused
 * @error: (nullable): why it was refused (%CS_PLUGIN_ERROR), %NULL when
 *   it was loaded
 *
 * One plugin file and what came of loading it.
 */
typedef struct {
  char *path;
  CsPluginSource source;
  CsPlugin *plugin;
  GError *error;
} CsPluginRecord;

#define CS_TYPE_PLUGIN_REGISTRY (cs_plugin_registry_get_type ())
G_DECLARE_FINAL_TYPE (CsPluginRegistry, cs_plugin_registry, CS, PLUGIN_REGISTRY, GObject)

CsPluginRegistry     *cs_plugin_registry_new          (void);
const CsPluginRecord *cs_plugin_registry_load_file    (CsPluginRegistry *self,
                                                       const char       *path,
                                                       CsPluginSource    source);
void                  cs_plugin_registry_scan         (CsPluginRegistry *self);
char                 *cs_plugin_registry_dup_builtin_path (void);
guint                 cs_plugin_registry_get_n_records (CsPluginRegistry *self);
const CsPluginRecord *cs_plugin_registry_get_record   (CsPluginRegistry *self,
                                                       guint             index);
const CsPluginRecord *cs_plugin_registry_find_record  (CsPluginRegistry *self,
                                                       CsPlugin         *plugin);
CsPlugin             *cs_plugin_registry_lookup       (CsPluginRegistry *self,
                                                       const char       *id);
GPtrArray            *cs_plugin_registry_dup_plugins  (CsPluginRegistry *self);
const char           *cs_plugin_source_to_string      (CsPluginSource    source);

/* cs-plugin.c */
CsPlugin             *_cs_plugin_load                 (const char       *path,
                                                       GError          **error);

G_END_DECLS
