/* cs-cli-demo.h: `chronoscope demo`, the classroom scenarios.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-document.h"

G_BEGIN_DECLS

int      cs_cli_demo               (int           argc,
                                    char        **argv);
gboolean cs_cli_demo_add_kmod_json (JsonBuilder  *builder,
                                    CsDocument   *document,
                                    GError      **error);

G_END_DECLS
