/* cs-explain-tasks.c: the tracker's tasks by pid (cs-explain-tasks.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A sweep over a whole recording looks up a task two or three times per
 * event (the wakeup rule's state, the task's open pair): in GLib hash
 * tables that was the largest single cost of the sweep's thread.  Pids
 * below the kernel's PID_MAX_LIMIT (include/linux/threads.h: 4 M on 64-bit)
 * are found in pages of PAGE_PIDS tasks, allocated when a pid of the page
 * is first kept: a recording's pids cluster, so a few pages hold them, and
 * an entry never moves (a pointer to it stays valid).  Other pids (a
 * damaged recording's) go to a hash table.
 */
#include <string.h>

#include "cs-explain-tasks.h"

#define PID_LIMIT (1 << 22)
#define PAGE_BITS 10
#define PAGE_PIDS (1 << PAGE_BITS)
#define N_PAGES (PID_LIMIT / PAGE_PIDS)

struct _CsExplainTasks
{
  CsExplainTask *pages[N_PAGES];        /* PAGE_PIDS each, or NULL */
  GHashTable *others;                   /* pid -> CsExplainTask * (owned) */
  GDestroyNotify waiting_free;
};

/**
 * _cs_explain_tasks_new:
 * @waiting_free: frees a task's open pair
 *
 * Returns: (transfer full): an empty table: every task unknown
 */
CsExplainTasks *
_cs_explain_tasks_new (GDestroyNotify waiting_free)
{
  CsExplainTasks *self = g_new0 (CsExplainTasks, 1);

  self->others = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->waiting_free = waiting_free;
  return self;
}

/* Calls @func on every entry. */
static void
foreach_task (CsExplainTasks *self,
              void          (*func) (CsExplainTasks *self,
                                     CsExplainTask  *task))
{
  GHashTableIter iter;
  gpointer value;

  for (guint p = 0; p < N_PAGES; p++)
    for (guint i = 0; self->pages[p] != NULL && i < PAGE_PIDS; i++)
      func (self, &self->pages[p][i]);
  g_hash_table_iter_init (&iter, self->others);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    func (self, value);
}

static void
free_waiting (CsExplainTasks *self,
              CsExplainTask  *task)
{
  if (task->waiting != NULL)
    self->waiting_free (g_steal_pointer (&task->waiting));
}

/**
 * _cs_explain_tasks_free:
 * @self: (transfer full): a table; the open pairs it holds are freed
 */
void
_cs_explain_tasks_free (CsExplainTasks *self)
{
  foreach_task (self, free_waiting);
  for (guint p = 0; p < N_PAGES; p++)
    g_free (self->pages[p]);
  g_hash_table_unref (self->others);
  g_free (self);
}

/**
 * _cs_explain_tasks_lookup:
 * @self: a table
 * @pid: any pid (negative ones are never kept)
 *
 * Returns: (transfer none) (nullable): @pid's entry, or %NULL when none
 *   was made (the task is unknown and has no open pair)
 */
CsExplainTask *
_cs_explain_tasks_lookup (CsExplainTasks *self,
                          gint32          pid)
{
  if (pid < 0)
    return NULL;
  if (pid < PID_LIMIT)
    {
      CsExplainTask *page = self->pages[pid >> PAGE_BITS];

      return page != NULL ? &page[pid & (PAGE_PIDS - 1)] : NULL;
    }
  return g_hash_table_lookup (self->others, GINT_TO_POINTER (pid));
}

/**
 * _cs_explain_tasks_ensure:
 * @self: a table
 * @pid: a pid, not negative
 *
 * Returns: (transfer none): @pid's entry, made zero-filled (unknown, no
 *   open pair) when there was none; valid until the table is freed
 */
CsExplainTask *
_cs_explain_tasks_ensure (CsExplainTasks *self,
                          gint32          pid)
{
  CsExplainTask *task;

  g_return_val_if_fail (pid >= 0, NULL);
  if (pid < PID_LIMIT)
    {
      CsExplainTask **page = &self->pages[pid >> PAGE_BITS];

      if (*page == NULL)
        *page = g_new0 (CsExplainTask, PAGE_PIDS);
      return &(*page)[pid & (PAGE_PIDS - 1)];
    }
  task = g_hash_table_lookup (self->others, GINT_TO_POINTER (pid));
  if (task == NULL)
    {
      task = g_new0 (CsExplainTask, 1);
      g_hash_table_insert (self->others, GINT_TO_POINTER (pid), task);
    }
  return task;
}

static void
reset_rule (CsExplainTasks *self,
            CsExplainTask  *task)
{
  memset (&task->rule, 0, sizeof task->rule);
}

/**
 * _cs_explain_tasks_reset_rules:
 * @self: a table
 *
 * Makes every task unknown in the wakeup rule; their open pairs stay.
 */
void
_cs_explain_tasks_reset_rules (CsExplainTasks *self)
{
  foreach_task (self, reset_rule);
}
