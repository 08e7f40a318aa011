/* cs-cli-render-streams.h: `chronoscope render FILE --add FILE2 -o OUT`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-export.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

int cs_cli_render_streams (CsTimelineRenderer    *renderer,
                           const char * const    *added,
                           const CsExportOptions *options,
                           const char            *output);

G_END_DECLS
