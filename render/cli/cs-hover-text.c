/* cs-hover-text.c: what the info bar says about the point under the
 * pointer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * CsTimeline asks its renderer what lies under the pointer (a #CsHit) and
 * shows the one line made here as its hover-text: the time, the task that
 * ran or the event there on a CPU plot, what a task did on a task plot,
 * after what a plugin's layer drew there (the kmod plugin's sections and
 * measured wakeup latencies, for example).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-hover-text.h"

static char *
describe_task (CsDocument *document,
               gint32      pid)
{
  const char *comm = cs_document_get_comm (document, pid);

  if (pid == 0)
    return g_strdup (_("idle"));
  return g_strdup_printf ("%s-%d", comm != NULL ? comm : "<…>", pid);
}

/**
 * cs_hover_text_for_time:
 * @document: the recording
 * @ts_ns: a time in its trace clock, ns
 *
 * Since the recording's start, as the axis counts, then the trace clock's
 * own timestamp, as trace-cmd report prints it.
 *
 * Returns: (transfer full): for example "123.457 ms (427.930691399 s)"
 */
char *
cs_hover_text_for_time (CsDocument *document,
                            gint64      ts_ns)
{
  gint64 first_ns = cs_document_get_first_ns (document);
  g_autofree char *offset = cs_format_offset (ts_ns - first_ns);
  g_autofree char *timestamp = cs_format_timestamp (ts_ns);

  /* TRANSLATORS: time since the start, then the raw timestamp */
  return g_strdup_printf (_("%s (%s)"), offset, timestamp);
}

/* A task plot: what the task did under the pointer, and for how long. */
static char *
describe_task_hit (CsDocument  *document,
                   const CsHit *hit)
{
  g_autofree char *task = describe_task (document, hit->pid);
  g_autofree char *time = cs_hover_text_for_time (document, hit->ts_ns);
  g_autofree char *duration = NULL;
  g_autofree char *state = NULL;
  const CsTaskInterval *interval = &hit->interval;

  if (hit->kind == CS_HIT_TASK_LABEL || !hit->has_interval)
    return g_strdup_printf ("%s  ·  %s", task, time);

  duration = cs_format_duration (interval->end_ns - interval->begin_ns);
  switch (interval->state)
    {
    case CS_TASK_RUNNING:
      /* TRANSLATORS: a task plot's hover text, "ran on CPU 1 for 3.2 ms" */
      state = g_strdup_printf (_("ran on CPU %d for %s"), interval->cpu, duration);
      break;
    case CS_TASK_RUNNABLE:
      if (interval->wakeup_ns >= 0)
        {
          g_autofree char *latency = cs_format_duration (interval->end_ns - interval->wakeup_ns);

          /* TRANSLATORS: a task plot's hover text; %s is a duration */
          state = g_strdup_printf (_("wakeup latency %s (double-click to put markers A and B on it)"),
                                   latency);
        }
      else
        /* TRANSLATORS: a task plot's hover text; %s is a duration */
        state = g_strdup_printf (_("runnable, preempted, for %s"), duration);
      break;
    case CS_TASK_SLEEPING:
      /* TRANSLATORS: a task plot's hover text; %s is a duration */
      state = g_strdup_printf (_("sleeping (S) for %s"), duration);
      break;
    case CS_TASK_UNINTERRUPTIBLE:
      /* TRANSLATORS: a task plot's hover text; %s is a duration */
      state = g_strdup_printf (_("uninterruptible (D) for %s"), duration);
      break;
    case CS_TASK_OTHER:
    default:
      /* TRANSLATORS: a task plot's hover text; %s is a duration */
      state = g_strdup_printf (_("stopped, dead or unknown for %s"), duration);
      break;
    }
  return g_strdup_printf ("%s  ·  %s  ·  %s", task, time, state);
}

/**
 * cs_hover_text_for_hit:
 * @document: the recording
 * @hit: what the renderer found under the pointer (not %CS_HIT_NONE)
 *
 * One line for the info bar: on a CPU plot the event near the pointer or
 * the task that ran; on a task plot what the task did; elsewhere the
 * time.  What a plugin layer found there (#CsHit.item) comes first.
 *
 * Returns: (transfer full): the text
 */
char *
cs_hover_text_for_hit (CsDocument  *document,
                           const CsHit *hit)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *separator = "  ·  ";

  /* What a plugin's layer drew there comes first: it is what the pointer
   * is on (cs-plugin-view.h, CsPluginItem). */
  if (hit->has_item)
    {
      g_autofree char *rest = NULL;
      CsHit under = *hit;

      under.has_item = FALSE;
      rest = cs_hover_text_for_hit (document, &under);
      return g_strdup_printf ("%s%s%s", hit->item.text, separator, rest);
    }
  if (hit->kind == CS_HIT_TASK_PLOT || hit->kind == CS_HIT_TASK_LABEL)
    return describe_task_hit (document, hit);
  if (hit->kind != CS_HIT_CPU_PLOT)
    return cs_hover_text_for_time (document, hit->ts_ns);

  g_string_append_printf (text, _("CPU %u"), hit->cpu);
  g_string_append (text, separator);

  if (hit->has_event)
    {
      g_autofree char *time = cs_hover_text_for_time (document, hit->event.ts_ns);
      g_autofree char *task = describe_task (document, hit->event.pid);
      const CsEventType *type = cs_document_get_event_type (document, hit->event.type_id);
      g_autoptr(GError) error = NULL;
      g_autofree char *latency = cs_document_format_latency (document, &hit->event, NULL);
      g_autofree char *info = cs_document_format_event (document, &hit->event, &error);

      /* As the event list's columns: time, task, latency flags as ftrace
       * prints them ("d.h2."), system:name and the event's text. */
      g_string_append_printf (text, "%s%s%s%s", time, separator, task, separator);
      if (latency != NULL && *latency != '\0')
        g_string_append_printf (text, "%s%s", latency, separator);
      if (type != NULL)
        g_string_append_printf (text, "%s:%s", type->system, type->name);
      else
        g_string_append (text, "?");
      /* One line: a kernel_stack's frames follow each other. */
      if (info != NULL && *info != '\0')
        g_string_append_printf (text, "  %s", g_strdelimit (g_strstrip (info), "\n\t", ' '));
      else if (error != NULL)
        g_string_append_printf (text, "  (%s)", error->message);
    }
  else
    {
      g_autofree char *time = cs_hover_text_for_time (document, hit->ts_ns);

      g_string_append (text, time);
      g_string_append (text, separator);
      if (hit->has_slice)
        {
          g_autofree char *task = describe_task (document, hit->slice.pid);
          g_autofree char *duration = cs_format_duration (hit->slice.end_ns - hit->slice.begin_ns);

          /* TRANSLATORS: a task and how long it ran, "bash-1234 ran 1.23 ms" */
          g_string_append_printf (text, _("%s ran %s"), task, duration);
        }
      else
        {
          g_string_append (text, _("idle"));
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}
