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
  struct tep_format_field *prev_pid;
  struct tep_format_field *prev_state;
  struct tep_format_field *next_pid;
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

/* A number field of @event; FALSE when the record is too short. */
static gboolean
read_field (const CsPluginEvent     *event,
            struct tep_format_field *field,
            gint64                  *value)
{
  unsigned long long raw;

  if (field == NULL || field->offset + field->size > event->record->size ||
      tep_read_number_field (field, event->record->data, &raw) != 0)
    return FALSE;
  if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8)
    {
      guint64 sign = G_GUINT64_CONSTANT (1) << (field->size * 8 - 1);

      raw = (raw ^ sign) - sign;
    }
  *value = (gint64) raw;
  return TRUE;
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
      wakeups->prev_pid = tep_find_field (event->format, "prev_pid");
      wakeups->prev_state = tep_find_field (event->format, "prev_state");
      wakeups->next_pid = tep_find_field (event->format, "next_pid");
    }
  if (!read_field (event, wakeups->prev_pid, &prev) || !read_field (event, wakeups->next_pid, &next))
    return FALSE;
  /* A sched_switch without prev_state (very old kernels): runnable, as
   * the index reads it. */
  if (wakeups->prev_state != NULL)
    read_field (event, wakeups->prev_state, &prev_state);
  if (prev > 0 && prev <= G_MAXINT32 &&
      cs_plugin_wakeup_switch_out (task (wakeups, (gint32) prev), prev_state))
    *dropped_pid = (gint32) prev;
  if (next <= 0 || next > G_MAXINT32)
    return FALSE;
  *next_pid = (gint32) next;
  return cs_plugin_wakeup_switch_in (task (wakeups, (gint32) next), event->ts_ns, (gint32) event->cpu, NULL);
}
