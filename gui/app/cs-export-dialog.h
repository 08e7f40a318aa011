/* cs-export-dialog.h: File → Export…, the view as PNG, SVG or PDF.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-export.h"
#include "cs-timeline.h"

G_BEGIN_DECLS

/**
 * CsExportRange:
 * @CS_EXPORT_RANGE_VISIBLE: the timeline's visible span
 * @CS_EXPORT_RANGE_MARKERS: from marker A to marker B (either order)
 */
typedef enum {
  CS_EXPORT_RANGE_VISIBLE,
  CS_EXPORT_RANGE_MARKERS,
} CsExportRange;

#define CS_TYPE_EXPORT_DIALOG (cs_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsExportDialog, cs_export_dialog, CS, EXPORT_DIALOG, GtkWindow)

GtkWindow *cs_export_dialog_new         (GtkWindow       *parent,
                                         CsTimeline      *timeline);
void       cs_export_dialog_set_format  (CsExportDialog  *self,
                                         CsExportFormat   format);
void       cs_export_dialog_set_range   (CsExportDialog  *self,
                                         CsExportRange    range);
void       cs_export_dialog_get_options (CsExportDialog  *self,
                                         CsExportOptions *options);
gboolean   cs_export_dialog_write       (CsExportDialog  *self,
                                         const char      *path,
                                         GError         **error);
void       cs_export_dialog_start       (CsExportDialog  *self,
                                         const char      *path);
gboolean   cs_export_dialog_is_busy     (CsExportDialog  *self);
GtkWidget *cs_export_dialog_get_cancel_button (CsExportDialog *self);
GtkWidget *cs_export_dialog_get_progress (CsExportDialog *self);

G_END_DECLS
