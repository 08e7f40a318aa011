/* cs-cli-progress.h: the progress line of the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cs-index-job.h"

G_BEGIN_DECLS

typedef struct _CsCliProgress CsCliProgress;

void           cs_cli_progress_set_quiet (gboolean       quiet);
gboolean       cs_cli_progress_get_quiet (void);
int            cs_cli_progress_take_args (int            argc,
                                          char         **argv);
CsCliProgress *cs_cli_progress_new       (const char    *label,
                                          guint64        total_bytes);
CsCliProgress *cs_cli_progress_new_for_file (const char *label,
                                          const char    *path);
CsCliProgress *cs_cli_progress_new_indexing (const char *path);
CsCliProgress *cs_cli_progress_new_activity (const char *label);
void           cs_cli_progress_update    (CsCliProgress *self,
                                          double         fraction);
void           cs_cli_progress_set_detail (CsCliProgress *self,
                                          const char    *detail);
gboolean       cs_cli_progress_is_active (CsCliProgress *self);
void           cs_cli_progress_watch_job (CsCliProgress *self,
                                          CsIndexJob    *job);
void           cs_cli_progress_free      (CsCliProgress *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCliProgress, cs_cli_progress_free)

G_END_DECLS
