/* cs-index-job.h: builds a recording's index in a worker process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"

G_BEGIN_DECLS

#define CS_TYPE_INDEX_JOB (cs_index_job_get_type ())
G_DECLARE_FINAL_TYPE (CsIndexJob, cs_index_job, CS, INDEX_JOB, GObject)

CsIndexJob *cs_index_job_new          (GFile                *file);
GFile      *cs_index_job_get_file     (CsIndexJob           *self);
double      cs_index_job_get_fraction (CsIndexJob           *self);
void        cs_index_job_run_async    (CsIndexJob           *self,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
CsDocument *cs_index_job_run_finish   (CsIndexJob           *self,
                                       GAsyncResult         *result,
                                       GError              **error);
void        cs_index_job_set_read_formats (CsIndexJob       *self,
                                       gboolean              read_formats);
void        cs_index_job_set_pass     (CsIndexJob           *self,
                                       const char           *plugin_path,
                                       const char           *pass,
                                       const char           *param);
gboolean    cs_index_job_run_pass_finish (CsIndexJob        *self,
                                       GAsyncResult         *result,
                                       GError              **error);

G_END_DECLS
