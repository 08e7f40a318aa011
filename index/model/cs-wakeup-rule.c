/* cs-wakeup-rule.c: the wakeup latency rule of cs-plugin-wakeup.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The one implementation of the rule the public header describes (its
 * comment is the rule's text and says where it comes from in the kernel).
 * It lives in the model room because the task timeline
 * (cs-task-timeline.c), and through it statistics for a range, use it; the
 * executable exports it to plugins (chronoscope-plugin.sym), where the
 * latency plugin's wakeup preset uses it.
 */
#include "config.h"

#include <cs-plugin-wakeup.h>

gboolean
cs_plugin_wakeup_prev_state_is_runnable (gint64 prev_state)
{
  /* R is 0 and R+ is TASK_REPORT_MAX (0x100, or TASK_STATE_MAX on kernels
   * before 4.14): no sleeping, stopped or dead bit in the low byte. */
  return prev_state >= 0 && (prev_state & 0xff) == 0;
}

gboolean
cs_plugin_wakeup_wake (CsPluginWakeupState *state,
                       gint64               ts_ns)
{
  g_return_val_if_fail (state != NULL, FALSE);

  if (state->phase != CS_PLUGIN_WAKEUP_UNKNOWN && state->phase != CS_PLUGIN_WAKEUP_SLEEPING)
    return FALSE;
  state->phase = CS_PLUGIN_WAKEUP_WOKEN;
  state->wakeup_ns = ts_ns;
  return TRUE;
}

gboolean
cs_plugin_wakeup_switch_in (CsPluginWakeupState *state,
                            gint64               ts_ns,
                            gint32               cpu,
                            CsPluginWakeupWait  *wait)
{
  gboolean ended;

  g_return_val_if_fail (state != NULL, FALSE);

  ended = state->phase == CS_PLUGIN_WAKEUP_WOKEN;
  if (ended && wait != NULL)
    {
      wait->wakeup_ns = state->wakeup_ns;
      wait->run_ns = ts_ns;
      wait->cpu = cpu;
    }
  state->phase = CS_PLUGIN_WAKEUP_RUNNING;
  return ended;
}

gboolean
cs_plugin_wakeup_switch_out (CsPluginWakeupState *state,
                             gint64               prev_state)
{
  gboolean dropped;

  g_return_val_if_fail (state != NULL, FALSE);

  dropped = state->phase == CS_PLUGIN_WAKEUP_WOKEN;
  state->phase = cs_plugin_wakeup_prev_state_is_runnable (prev_state) ? CS_PLUGIN_WAKEUP_PREEMPTED
                                                                       : CS_PLUGIN_WAKEUP_SLEEPING;
  return dropped;
}
