/* builtin-test-host.h: what the built-in plugins' tests share: a
 * recording drawn by the renderer with one built-in plugin enabled on it,
 * loaded from the build tree (CHRONOSCOPE_PLUGIN_PATH) the way the
 * chronoscope executable loads it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "chronoscope-plugin.h"
#include "cs-plugin-document-private.h"
#include "cs-plugin-registry.h"
#include "render-test-util.h"

G_BEGIN_DECLS

typedef struct {
  CsTestFixture base;           /* the document, its renderer, the drawing */
  CsPluginRegistry *registry;
  CsPlugin *plugin;
  CsPluginDocument *plugins;    /* the document as plugins see it */
} CsBuiltinFixture;

/* @id: the built-in to enable; @recording: a CsTestRecording. */
void cs_builtin_fixture_set_up    (CsBuiltinFixture      *fixture,
                                   const char            *id,
                                   const CsTestRecording *recording);
void cs_builtin_fixture_tear_down (CsBuiltinFixture      *fixture);

/* Runs `python3 SCRIPT ARGS...` (tests/oracle/) and parses its JSON. */
JsonNode *cs_builtin_run_oracle   (const char            *script,
                                   const char * const    *args);

G_END_DECLS
