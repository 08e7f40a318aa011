/* cs-plugin-private.h: what Chronoscope keeps about a loaded plugin.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The public API (include/chronoscope-1/) sees CsPlugin as an opaque
 * handle; the host's layers read its registrations from here: index/
 * (passes, document hooks), render/ (layers) and gui/ (pages, commands,
 * JSON sections).  Each registration is kept as a zero-padded copy of the
 * plugin's structure at the host's size, so that a plugin built with a
 * smaller struct_size reads as having the newer members unset.
 */
#pragma once

#include <gmodule.h>

#include "cs-plugin.h"
#include "cs-plugin-pass.h"

G_BEGIN_DECLS

/**
 * CsPluginHookKind:
 *
 * The kinds of registration a plugin makes from its init.
 */
typedef enum {
  CS_PLUGIN_HOOK_PASS,          /* CsPluginPassInfo */
  CS_PLUGIN_HOOK_LAYER,         /* CsPluginLayerInfo */
  CS_PLUGIN_HOOK_PAGE,          /* CsPluginPageInfo */
  CS_PLUGIN_HOOK_COMMAND,       /* CsPluginCommandInfo */
  CS_PLUGIN_HOOK_JSON,          /* CsPluginJsonSection */
  CS_PLUGIN_HOOK_SQL_TABLE,     /* CsPluginSqlTableInfo */
  CS_PLUGIN_N_HOOK_KINDS,
} CsPluginHookKind;

/* A member of `info --json` (cs_plugin_add_json_section()). */
typedef struct {
  const char *member;
  gpointer func;                /* CsPluginJsonFunc */
} CsPluginJsonSection;

struct _CsPlugin
{
  char *path;
  char *id;
  char *name;
  char *description;
  char *version;
  GModule *module;
  gboolean initialising;        /* registrations are allowed */
  gboolean has_document_hooks;
  CsPluginDocumentHooks document_hooks;
  GPtrArray *hooks[CS_PLUGIN_N_HOOK_KINDS];   /* zero-padded copies */
};

gboolean  _cs_plugin_check_name      (const char        *kind,
                                      const char        *name,
                                      const char        *allowed_punct,
                                      GError           **error);
gpointer  _cs_plugin_add_hook        (CsPlugin          *plugin,
                                      CsPluginHookKind   kind,
                                      gconstpointer      info,
                                      gsize              host_size,
                                      const char        *what);
guint     _cs_plugin_get_n_hooks     (CsPlugin          *plugin,
                                      CsPluginHookKind   kind);
gpointer  _cs_plugin_get_hook        (CsPlugin          *plugin,
                                      CsPluginHookKind   kind,
                                      guint              index);
const CsPluginPassInfo *_cs_plugin_find_pass (CsPlugin  *plugin,
                                              const char *name);
void      _cs_plugin_free            (CsPlugin          *plugin);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPlugin, _cs_plugin_free)

G_END_DECLS
