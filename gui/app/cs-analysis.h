/* cs-analysis.h: what one window chose to look at in its recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-event-filter.h"
#include "cs-event-list-view.h"
#include "cs-timeline.h"

G_BEGIN_DECLS

/**
 * CsFilterTarget:
 * @CS_FILTER_TARGET_LIST: the event list shows only the events passing
 * @CS_FILTER_TARGET_TIMELINE: the timeline's event ticks follow the filter
 *
 * Where an event filter applies, as KernelShark's "Apply filters to
 * graph / list".
 */
typedef enum {
  CS_FILTER_TARGET_LIST     = 1 << 0,
  CS_FILTER_TARGET_TIMELINE = 1 << 1,
} CsFilterTarget;

#define CS_FILTER_TARGET_BOTH (CS_FILTER_TARGET_LIST | CS_FILTER_TARGET_TIMELINE)

#define CS_TYPE_ANALYSIS (cs_analysis_get_type ())
G_DECLARE_FINAL_TYPE (CsAnalysis, cs_analysis, CS, ANALYSIS, GObject)

CsAnalysis     *cs_analysis_new                (CsTimeline      *timeline,
                                                CsEventListView *list_view);
CsDocument     *cs_analysis_get_document       (CsAnalysis      *self);
CsTimeline     *cs_analysis_get_timeline       (CsAnalysis      *self);
void            cs_analysis_document_changed   (CsAnalysis      *self);

void            cs_analysis_set_startup_plots  (CsAnalysis      *self,
                                                GArray          *cpus,
                                                GArray          *pids,
                                                const char * const *comms);

const guint    *cs_analysis_get_cpu_plots      (CsAnalysis      *self,
                                                guint           *n_cpus);
void            cs_analysis_set_cpu_plots      (CsAnalysis      *self,
                                                const guint     *cpus,
                                                guint            n_cpus);
gboolean        cs_analysis_has_cpu_plot       (CsAnalysis      *self,
                                                guint            cpu);
void            cs_analysis_add_cpu_plot       (CsAnalysis      *self,
                                                guint            cpu);
void            cs_analysis_remove_cpu_plot    (CsAnalysis      *self,
                                                guint            cpu);

const gint32   *cs_analysis_get_task_plots     (CsAnalysis      *self,
                                                guint           *n_pids);
void            cs_analysis_set_task_plots     (CsAnalysis      *self,
                                                const gint32    *pids,
                                                guint            n_pids);
gboolean        cs_analysis_has_task_plot      (CsAnalysis      *self,
                                                gint32           pid);
void            cs_analysis_add_task_plot      (CsAnalysis      *self,
                                                gint32           pid);
void            cs_analysis_remove_task_plot   (CsAnalysis      *self,
                                                gint32           pid);

CsEventFilter  *cs_analysis_get_filter         (CsAnalysis      *self);
void            cs_analysis_set_filter         (CsAnalysis      *self,
                                                CsEventFilter   *filter);
CsFilterTarget  cs_analysis_get_filter_targets (CsAnalysis      *self);
void            cs_analysis_set_filter_targets (CsAnalysis      *self,
                                                CsFilterTarget   targets);
gboolean        cs_analysis_get_hide_filtered  (CsAnalysis      *self);
void            cs_analysis_set_hide_filtered  (CsAnalysis      *self,
                                                gboolean         hide);
void            cs_analysis_filter_show_only   (CsAnalysis      *self,
                                                CsFilterField    field,
                                                gint64           value);
void            cs_analysis_filter_hide        (CsAnalysis      *self,
                                                CsFilterField    field,
                                                gint64           value);
gboolean        cs_analysis_get_filter_ready   (CsAnalysis      *self);
double          cs_analysis_get_filter_progress (CsAnalysis     *self);
guint64         cs_analysis_get_n_list_events  (CsAnalysis      *self);

G_END_DECLS
