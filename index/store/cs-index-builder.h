/* cs-index-builder.h: builds the event index of one recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-progress.h"

G_BEGIN_DECLS

gboolean cs_index_build (const char          *trace_path,
                         const char          *identity,
                         const char          *index_path,
                         CsIndexProgressFunc  progress,
                         CsIndexPositionFunc  position,
                         gpointer             user_data,
                         GCancellable        *cancellable,
                         GError             **error);

G_END_DECLS
