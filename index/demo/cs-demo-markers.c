/* cs-demo-markers.c: where markers A and B go in a demo's recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Everything is found in the recording itself: the module's sections and
 * wakeup_latency events as the kmod plugin's pass paired them
 * (cs-demo-kmod.c) and, through the index, the demo task's states
 * (cs-task-timeline.h), which it finds by its fixed name.
 * So the window can place the markers after the privileged helper ran the
 * demo, and `chronoscope demo NAME --from FILE` on a recording made
 * elsewhere (the test guest) places them the same way.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-demo.h"
#include "cs-task-timeline.h"

#define LOOK_AROUND_NS   100000000   /* task states this far around the section */
#define MATCH_SLACK_NS     5000000   /* a runnable interval ends at the latency event */

/* The scenario's section: the last one of @kind that was as long as the
 * scenario asks, or else the last one of @kind. */
static gboolean
find_section (GArray *sections, CsKmodSectionKind kind, guint64 requested_ns,
              CsKmodSection *out)
{
  gboolean found = FALSE;

  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);

      if (s->kind == kind && (!found || s->requested_ns == requested_ns ||
                              out->requested_ns != requested_ns))
        {
          *out = *s;
          found = TRUE;
        }
    }
  return found;
}

static gint32
find_task (CsDocument *document, const char *comm)
{
  gint32 pid = -1;

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    {
      const CsTask *task = cs_document_get_task (document, i);

      if (task != NULL && g_strcmp0 (task->comm, comm) == 0)
        pid = task->pid;
    }
  return pid;
}

/* The interval of @pid in @state that overlaps [begin_ns, end_ns) most. */
static gboolean
find_interval (CsDocument *document, gint32 pid, CsTaskState state, gboolean after_wakeup,
               gint64 begin_ns, gint64 end_ns, CsTaskInterval *out, GError **error)
{
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  gint64 best = -1;

  if (!cs_document_get_task_intervals (document, pid, begin_ns - LOOK_AROUND_NS,
                                       end_ns + LOOK_AROUND_NS, intervals, error))
    return FALSE;
  for (guint i = 0; i < intervals->len; i++)
    {
      const CsTaskInterval *iv = &g_array_index (intervals, CsTaskInterval, i);
      gint64 overlap = MIN (iv->end_ns, end_ns) - MAX (iv->begin_ns, begin_ns);

      if (iv->state != state || (after_wakeup != (iv->wakeup_ns >= 0)) || overlap < 0)
        continue;
      if (overlap > best)
        {
          best = overlap;
          *out = *iv;
        }
    }
  return best >= 0;
}

static gboolean
find_wakeup_latency (CsDocument *document, GArray *sections, GArray *latencies, CsDemoMarkers *m,
                     GError **error)
{
  CsTaskInterval iv;
  g_autoptr(GError) local = NULL;

  for (guint i = 0; i < latencies->len; i++)
    {
      const CsKmodWakeupLatency *l = &g_array_index (latencies, CsKmodWakeupLatency, i);

      /* The longest: a sleeper tried again keeps only the good try. */
      if (strcmp (l->comm, CS_DEMO_SLEEPER_COMM) == 0 &&
          (!m->has_latency || l->latency_ns > m->latency.latency_ns))
        {
          m->latency = *l;
          m->has_latency = TRUE;
        }
    }
  if (!m->has_latency)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND,
                   _("The recording has no wakeup_latency event of %s: its wakeup was not "
                     "delayed past the module's threshold"), CS_DEMO_SLEEPER_COMM);
      return FALSE;
    }

  m->pid = m->latency.pid;
  g_strlcpy (m->comm, m->latency.comm, sizeof m->comm);
  m->cpu = m->latency.target_cpu >= 0 ? (guint) m->latency.target_cpu : m->latency.cpu;
  m->b_ns = m->latency.time_ns;
  /* A is the sched_waking as recorded (the module measures with another
   * clock): the runnable interval after a wakeup that ends at the event. */
  if (find_interval (document, m->pid, CS_TASK_RUNNABLE, TRUE, m->b_ns - MATCH_SLACK_NS,
                     m->b_ns + MATCH_SLACK_NS, &iv, &local) &&
      ABS (iv.end_ns - m->b_ns) <= MATCH_SLACK_NS)
    {
      m->a_ns = iv.wakeup_ns;
      m->b_ns = iv.end_ns;
    }
  else
    m->a_ns = m->latency.time_ns - (gint64) m->latency.latency_ns;

  /* The section that held it back: the preempt-off one it ended with. */
  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);

      if (s->kind == CS_KMOD_SECTION_PREEMPT_OFF && s->cpu == m->cpu &&
          s->begin_ns <= m->b_ns && s->end_ns + LOOK_AROUND_NS >= m->a_ns)
        m->section = *s;
    }
  return TRUE;
}

/**
 * cs_demo_find_markers:
 * @plugins: the plugin side of a recording made by cs_demo_run() (see
 *   cs_demo_read_kmod_results() for how it runs the kmod pass)
 * @kmod: (nullable): the kmod plugin, enabled or not; %NULL when it is not
 *   installed
 * @scenario: the scenario that made it
 * @markers: (out caller-allocates): where markers A and B go, and why
 * @error: return location for %CS_DEMO_ERROR_UNKNOWN_SCENARIO,
 *   %CS_DEMO_ERROR_NOT_FOUND (the recording lacks what the scenario
 *   injects, or the kmod plugin is missing), the kmod pass's
 *   %CS_PLUGIN_ERROR, or a %CS_INDEX_ERROR
 *
 * irqs-off: A and B are the irqs_off_begin and irqs_off_end of the section.
 * wakeup-latency: A is the sched_waking of cs-demo-sleeper and B the
 * sched_switch that ran it, around its wakeup_latency event (A falls back to
 * the event's time minus latency_ns when the recording lacks sched_waking).
 * preemption: A and B bound the time cs-demo-spinner was runnable but off
 * its CPU (preempted, prev_state R) during the preempt-off section, or the
 * section itself when the recording does not show that.  Times are ns in
 * the recording's trace clock.  Call from the thread of @plugins.
 *
 * Returns: whether @markers was filled
 */
gboolean
cs_demo_find_markers (CsPluginDocument  *plugins,
                      CsPlugin          *kmod,
                      const char        *scenario,
                      CsDemoMarkers     *markers,
                      GError           **error)
{
  const CsDemoScenario *s = cs_demo_lookup (scenario);
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  CsDocument *document;
  CsKmodSectionKind kind;

  g_return_val_if_fail (plugins != NULL, FALSE);
  document = _cs_plugin_document_get_document (plugins);

  memset (markers, 0, sizeof *markers);
  markers->pid = -1;
  if (s == NULL)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_UNKNOWN_SCENARIO,
                   _("No demo is called “%s” (see chronoscope demo --list)"), scenario);
      return FALSE;
    }
  if (!cs_demo_read_kmod_results (plugins, kmod, sections, latencies, error))
    return FALSE;

  if (strcmp (s->name, "wakeup-latency") == 0)
    return find_wakeup_latency (document, sections, latencies, markers, error);

  kind = strcmp (s->name, "irqs-off") == 0 ? CS_KMOD_SECTION_IRQS_OFF : CS_KMOD_SECTION_PREEMPT_OFF;
  if (!find_section (sections, kind, (guint64) s->section_us * 1000, &markers->section))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND,
                   _("The recording has no %s section of chronoscope_tracer"),
                   cs_kmod_section_kind_to_string (kind));
      return FALSE;
    }
  markers->cpu = markers->section.cpu;
  markers->a_ns = markers->section.begin_ns;
  markers->b_ns = markers->section.end_ns;

  if (kind == CS_KMOD_SECTION_PREEMPT_OFF &&
      (markers->pid = find_task (document, CS_DEMO_SPINNER_COMM)) > 0)
    {
      CsTaskInterval iv;
      g_autoptr(GError) local = NULL;

      g_strlcpy (markers->comm, CS_DEMO_SPINNER_COMM, sizeof markers->comm);
      if (find_interval (document, markers->pid, CS_TASK_RUNNABLE, FALSE, markers->section.begin_ns,
                         markers->section.end_ns, &iv, &local))
        {
          markers->a_ns = iv.begin_ns;
          markers->b_ns = iv.end_ns;
        }
    }
  return TRUE;
}
