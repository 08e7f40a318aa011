/* cs-explain-tasks.h: the tracker's tasks by pid, without a hash per
 * event (cs-explain-tasks.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin-core.h>

G_BEGIN_DECLS

/* What the tracker keeps of one task: its state in the wakeup rule
 * (zero-filled: unknown) and, while the rule has it woken, its open pair
 * (a Waiting of cs-explain-waiting.h, owned by the table). */
typedef struct {
  CsPluginWakeupState rule;
  gpointer waiting;
} CsExplainTask;

typedef struct _CsExplainTasks CsExplainTasks;

CsExplainTasks *_cs_explain_tasks_new         (GDestroyNotify  waiting_free);
void            _cs_explain_tasks_free        (CsExplainTasks *self);
CsExplainTask  *_cs_explain_tasks_lookup      (CsExplainTasks *self,
                                               gint32          pid);
CsExplainTask  *_cs_explain_tasks_ensure      (CsExplainTasks *self,
                                               gint32          pid);
void            _cs_explain_tasks_reset_rules (CsExplainTasks *self);

G_END_DECLS
