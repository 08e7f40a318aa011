/* cs-latency-wakeup.c: the wakeup preset's tasks, by Chronoscope's rule.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * See cs-latency-wakeup.h; the rule itself is Chronoscope's
 * (cs-plugin-wakeup.h), called here once per event.
 */
#include <event-parse.h>

#include "cs-latency-wakeup.h"

struct _CsLatencyWakeups
{
  GHashTable *tasks;                    /* pid -> CsPluginWakeupState */
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

  w->tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return w;
}

void
cs_latency_wakeups_free (CsLatencyWakeups *wakeups)
{
  if (wakeups == NULL)
    return;
  g_hash_table_unref (wakeups->tasks);
  g_free (wakeups);
}

static CsPluginWakeupState *
task (CsLatencyWakeups *w,
      gint32            pid)
{
  CsPluginWakeupState *state = g_hash_table_lookup (w->tasks, GINT_TO_POINTER (pid));

  if (state == NULL)
    {
      state = g_new0 (CsPluginWakeupState, 1);
      g_hash_table_insert (w->tasks, GINT_TO_POINTER (pid), state);
    }
  return state;
}

gboolean
cs_latency_wakeups_wake (CsLatencyWakeups *wakeups,
                         gint64            pid,
                         gint64            ts_ns)
{
  if (pid <= 0 || pid > G_MAXINT32)
    return FALSE;
  return cs_plugin_wakeup_wake (task (wakeups, (gint32) pid), ts_ns);
}

gboolean
cs_latency_wakeups_switch (CsLatencyWakeups    *wakeups,
                           const CsPluginEvent *event,
                           gint32              *dropped_pid,
                           gint32              *next_pid)
{
  gint64 prev = 0, prev_state = 0, next = 0;

  *dropped_pid = 0;
  *next_pid = 0;
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
      cs_plugin_wakeup_switch_out (task (wakeups, (gint32) prev), prev_state))
    *dropped_pid = (gint32) prev;
  if (next <= 0 || next > G_MAXINT32)
    return FALSE;
  *next_pid = (gint32) next;
  return cs_plugin_wakeup_switch_in (task (wakeups, (gint32) next), event->ts_ns, (gint32) event->cpu, NULL);
}
