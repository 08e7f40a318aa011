/* cs-record-panel.h: the window's record panel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-record-job.h"
#include "cs-record-live.h"
#include "cs-record-options.h"

G_BEGIN_DECLS

#define CS_TYPE_RECORD_PANEL (cs_record_panel_get_type ())
G_DECLARE_FINAL_TYPE (CsRecordPanel, cs_record_panel, CS, RECORD_PANEL, GtkWindow)

CsRecordPanel   *cs_record_panel_new            (GtkWindow            *parent);
CsRecordPanel   *cs_record_panel_get_for        (GtkWindow            *parent);
void             cs_record_panel_set_available  (CsRecordPanel        *self,
                                                 const char * const   *events,
                                                 const char * const   *tracers,
                                                 const char * const   *clocks);
void             cs_record_panel_set_event      (CsRecordPanel        *self,
                                                 const char           *key,
                                                 gboolean              enabled,
                                                 const char           *filter);
void             cs_record_panel_set_output     (CsRecordPanel        *self,
                                                 const char           *path);
CsRecordOptions *cs_record_panel_dup_options    (CsRecordPanel        *self);
void             cs_record_panel_start          (CsRecordPanel        *self);
void             cs_record_panel_stop           (CsRecordPanel        *self);
CsRecordJob     *cs_record_panel_get_job        (CsRecordPanel        *self);
CsRecordLive    *cs_record_panel_get_live       (CsRecordPanel        *self);
const char      *cs_record_panel_get_status     (CsRecordPanel        *self);

G_END_DECLS
