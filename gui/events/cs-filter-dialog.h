/* cs-filter-dialog.h: the event filter dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

/**
 * CsFilterPage:
 * @CS_FILTER_PAGE_TASKS: tasks to show only or hide
 * @CS_FILTER_PAGE_EVENTS: event types, by system
 * @CS_FILTER_PAGE_CPUS: CPUs
 * @CS_FILTER_PAGE_ADVANCED: the libtraceevent expression
 */
typedef enum {
  CS_FILTER_PAGE_TASKS,
  CS_FILTER_PAGE_EVENTS,
  CS_FILTER_PAGE_CPUS,
  CS_FILTER_PAGE_ADVANCED,
} CsFilterPage;

#define CS_TYPE_FILTER_DIALOG (cs_filter_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsFilterDialog, cs_filter_dialog, CS, FILTER_DIALOG, GtkWindow)

CsFilterDialog *cs_filter_dialog_new            (GtkWindow      *parent,
                                                 CsAnalysis     *analysis);
void            cs_filter_dialog_set_page       (CsFilterDialog *self,
                                                 CsFilterPage    page);
void            cs_filter_dialog_set_mode       (CsFilterDialog *self,
                                                 CsFilterField   field,
                                                 CsFilterMode    mode);
void            cs_filter_dialog_set_checked    (CsFilterDialog *self,
                                                 CsFilterField   field,
                                                 gint64          value,
                                                 gboolean        checked);
void            cs_filter_dialog_set_expression (CsFilterDialog *self,
                                                 const char     *expression);
const char     *cs_filter_dialog_get_error      (CsFilterDialog *self);
gboolean        cs_filter_dialog_apply          (CsFilterDialog *self);

G_END_DECLS
