/* cs-task-list.h: the tasks of a recording, to add and remove task plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

#define CS_TYPE_TASK_LIST (cs_task_list_get_type ())
G_DECLARE_FINAL_TYPE (CsTaskList, cs_task_list, CS, TASK_LIST, GtkWindow)

CsTaskList *cs_task_list_new            (GtkWindow  *parent,
                                         CsAnalysis *analysis);
void        cs_task_list_set_search     (CsTaskList *self,
                                         const char *text);
guint       cs_task_list_get_n_shown    (CsTaskList *self);
gint32      cs_task_list_get_shown_pid  (CsTaskList *self,
                                         guint       position);
void        cs_task_list_set_plotted    (CsTaskList *self,
                                         guint       position,
                                         gboolean    plotted);

G_END_DECLS
