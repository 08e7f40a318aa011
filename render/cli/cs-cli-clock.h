/* cs-cli-clock.h: the clock and peer lines of `chronoscope info`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _CsCliClock CsCliClock;

CsCliClock *cs_cli_clock_new        (const char  *path,
                                     const char  *peer_path,
                                     gint64       host_first_ns,
                                     gint64       host_last_ns,
                                     GError     **error);
void        cs_cli_clock_free       (CsCliClock  *self);
void        cs_cli_clock_add_json   (CsCliClock  *self,
                                     const char  *peer_path,
                                     JsonBuilder *builder);
void        cs_cli_clock_print_text (CsCliClock  *self,
                                     const char  *peer_path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCliClock, cs_cli_clock_free)

G_END_DECLS
