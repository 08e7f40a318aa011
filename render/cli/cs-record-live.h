/* cs-record-live.h: the live timeline of a recording in progress.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"
#include "cs-record-job.h"

G_BEGIN_DECLS

#define CS_TYPE_RECORD_LIVE (cs_record_live_get_type ())
G_DECLARE_FINAL_TYPE (CsRecordLive, cs_record_live, CS, RECORD_LIVE, GObject)

CsRecordLive *cs_record_live_new          (CsRecordJob  *job);
CsDocument   *cs_record_live_get_document (CsRecordLive *self);
guint         cs_record_live_get_n_updates (CsRecordLive *self);
void          cs_record_live_finish_async (CsRecordLive        *self,
                                           const char          *trace_path,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
char         *cs_record_live_finish_finish (CsRecordLive       *self,
                                            GAsyncResult       *result,
                                            GError            **error);

G_END_DECLS
