/* cs-latency-wakeup.c: the wakeup preset's tasks, by Chronoscope's rule.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * See cs-latency-wakeup.h; the rule itself is Chronoscope's
 * (cs-plugin-wakeup.h), called here once per event.
 */
#include <string.h>

#include <event-parse.h>

#include "cs-latency-wakeup.h"

/* Tasks by pid in pages of PAGE_TASKS states, made as pids are seen: a
 * pass looks up two tasks per sched_switch and one per wakeup (15 M on
 * the large benchmark recording), which a hash table made a tenth of the
 * pass thread's time.  Pids are at most PID_MAX_LIMIT (4 M, 64 MiB of
 * states at most) on Linux; a larger one (a damaged record) is given a
 * page too, the page table growing to it (16 MiB for the largest). */
#define PAGE_BITS 10
#define PAGE_TASKS (1u << PAGE_BITS)

/* A task: its state in the rule and, while a wait is open, where the
 * wakeup that opened it is (the pair's A: its time is the rule's
 * wakeup_ns).  Keeping the open A here rather than in a table of open A's
 * by key saves the pass a hash lookup per event: with the wakeup rule a
 * task has an open A exactly when its wait is open. */
typedef struct {
  CsPluginWakeupState rule;
  guint64 a_row;
  guint32 a_cpu;
} Task;

struct _CsLatencyWakeups
{
  Task **pages;                         /* by pid >> PAGE_BITS; NULL: none seen */
  guint n_pages;
  guint64 n_open;                       /* tasks whose wait is open */
  /* sched_switch's fields, looked up once per format. */
  const struct tep_event *format;
  CsPluginField prev_pid;
  CsPluginField prev_state;
  CsPluginField next_pid;
};

CsLatencyWakeups *
cs_latency_wakeups_new (void)
{
  CsLatencyWakeups *w = g_new0 (CsLatencyWakeups, 1);

  return w;
}

void
cs_latency_wakeups_free (CsLatencyWakeups *wakeups)
{
  if (wakeups == NULL)
    return;
  for (guint i = 0; i < wakeups->n_pages; i++)
    g_free (wakeups->pages[i]);
  g_free (wakeups->pages);
  g_free (wakeups);
}

/* @pid's entry (@pid > 0), unknown (zero-filled) when first asked. */
static Task *
task (CsLatencyWakeups *w,
      gint32            pid)
{
  guint page = (guint) pid >> PAGE_BITS;

  if (page >= w->n_pages)
    {
      guint n = MAX (page + 1, w->n_pages * 2);

      w->pages = g_renew (Task *, w->pages, n);
      memset (w->pages + w->n_pages, 0, (n - w->n_pages) * sizeof *w->pages);
      w->n_pages = n;
    }
  if (w->pages[page] == NULL)
    w->pages[page] = g_new0 (Task, PAGE_TASKS);
  return &w->pages[page][(guint) pid & (PAGE_TASKS - 1)];
}

gboolean
cs_latency_wakeups_wake (CsLatencyWakeups *wakeups,
                         gint64            pid,
                         gint64            ts_ns,
                         guint32           cpu,
                         guint64           row)
{
  Task *t;

  if (pid <= 0 || pid > G_MAXINT32)
    return FALSE;
  t = task (wakeups, (gint32) pid);
  if (!cs_plugin_wakeup_wake (&t->rule, ts_ns))
    return FALSE;
  t->a_row = row;
  t->a_cpu = cpu;
  wakeups->n_open++;
  return TRUE;
}

gboolean
cs_latency_wakeups_switch (CsLatencyWakeups    *wakeups,
                           const CsPluginEvent *event,
                           gboolean            *dropped,
                           CsLatencyWakeupA    *a)
{
  gint64 prev = 0, prev_state = 0, next = 0;
  Task *t;

  *dropped = FALSE;
  if (event->format != wakeups->format)
    {
      wakeups->format = event->format;
      cs_plugin_field_lookup (&wakeups->prev_pid, event, "prev_pid");
      cs_plugin_field_lookup (&wakeups->prev_state, event, "prev_state");
      cs_plugin_field_lookup (&wakeups->next_pid, event, "next_pid");
    }
  if (!cs_plugin_event_read_int (event, &wakeups->prev_pid, &prev) ||
      !cs_plugin_event_read_int (event, &wakeups->next_pid, &next))
    return FALSE;
  /* A sched_switch without prev_state (very old kernels): runnable, as
   * the index reads it. */
  if (!cs_plugin_event_read_int (event, &wakeups->prev_state, &prev_state))
    prev_state = 0;
  if (prev > 0 && prev <= G_MAXINT32 &&
      cs_plugin_wakeup_switch_out (&task (wakeups, (gint32) prev)->rule, prev_state))
    {
      *dropped = TRUE;
      wakeups->n_open--;
    }
  if (next <= 0 || next > G_MAXINT32)
    return FALSE;
  t = task (wakeups, (gint32) next);
  if (!cs_plugin_wakeup_switch_in (&t->rule, event->ts_ns, (gint32) event->cpu, NULL))
    return FALSE;
  wakeups->n_open--;
  a->pid = (gint32) next;
  a->ts_ns = t->rule.wakeup_ns;
  a->row = t->a_row;
  a->cpu = t->a_cpu;
  return TRUE;
}

guint64
cs_latency_wakeups_get_n_open (CsLatencyWakeups *wakeups)
{
  return wakeups->n_open;
}
