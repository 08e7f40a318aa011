/* cs-explain-formats.c: what the explanation reads of each event format:
 * its kind (a sched_switch, a wakeup, an interrupt's entry...) and its
 * fields, found once per format (events/<system>/<name>/format).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <event-parse.h>

#include "cs-explain-formats.h"

/* The wakeups of Chronoscope's wakeup rule (cs-plugin-wakeup.h): every
 * one the recording has is fed, and the rule says which opens a wait. */
const char *const cs_explain_wake_events[] = { CS_PLUGIN_WAKEUP_EVENTS ("sched:"), NULL };

/* The event types that change a CPU's state, for
 * cs_plugin_document_foreach_event() and the pass. */
const char *const cs_explain_state_events[] = {
  "sched:sched_switch",
  "irq:irq_handler_entry",
  "irq:irq_handler_exit",
  "irq:softirq_entry",
  "irq:softirq_exit",
  "preemptirq:irq_disable",
  "preemptirq:irq_enable",
  "preemptirq:preempt_disable",
  "preemptirq:preempt_enable",
  "chronoscope:irqs_off_begin",
  "chronoscope:irqs_off_end",
  "chronoscope:preempt_off_begin",
  "chronoscope:preempt_off_end",
  NULL
};

static const struct {
  const char *system;
  const char *name;
  CsExplainEventKind kind;
} event_kinds[] = {
  { "sched", "sched_switch", EV_SWITCH },
  { "sched", "sched_migrate_task", EV_MIGRATE },
  { "irq", "irq_handler_entry", EV_IRQ_ENTRY },
  { "irq", "irq_handler_exit", EV_IRQ_EXIT },
  { "irq", "softirq_entry", EV_SOFTIRQ_ENTRY },
  { "irq", "softirq_exit", EV_SOFTIRQ_EXIT },
  { "preemptirq", "irq_disable", EV_IRQS_OFF },
  { "preemptirq", "irq_enable", EV_IRQS_ON },
  { "preemptirq", "preempt_disable", EV_PREEMPT_OFF },
  { "preemptirq", "preempt_enable", EV_PREEMPT_ON },
  { "chronoscope", "irqs_off_begin", EV_IRQS_OFF },
  { "chronoscope", "irqs_off_end", EV_IRQS_ON },
  { "chronoscope", "preempt_off_begin", EV_PREEMPT_OFF },
  { "chronoscope", "preempt_off_end", EV_PREEMPT_ON },
};

/* The fields each kind reads, in the order of Format.fields. */
static const char *const kind_fields[][7] = {
  [EV_SWITCH] = { "prev_pid", "prev_prio", "prev_comm", "next_pid", "next_prio", "next_comm",
                  "prev_state" },
  [EV_WAKE] = { "pid", "prio", "target_cpu", "common_flags" },
  [EV_MIGRATE] = { "pid", "dest_cpu" },
  [EV_IRQ_ENTRY] = { "irq", "name" },
  [EV_SOFTIRQ_ENTRY] = { "vec" },
};

/* What the tracker reads of events of @event's format. */
static CsExplainFormat *
new_format (CsExplainFormats     *self,
            const CsPluginEvent *event)
{
  CsExplainFormat *format = g_new0 (CsExplainFormat, 1);

  static const char *const wakeups[] = { CS_PLUGIN_WAKEUP_EVENTS (""), NULL };

  format->kind = strcmp (event->system, "sched") == 0 && g_strv_contains (wakeups, event->name)
                 ? EV_WAKE : EV_OTHER;
  for (guint i = 0; i < G_N_ELEMENTS (event_kinds); i++)
    if (strcmp (event->system, event_kinds[i].system) == 0 &&
        strcmp (event->name, event_kinds[i].name) == 0)
      {
        format->kind = event_kinds[i].kind;
        format->source = strcmp (event->system, "chronoscope") == 0 ? CS_EXPLAIN_SOURCE_KMOD
                                                                    : CS_EXPLAIN_SOURCE_PREEMPTIRQ;
      }
  for (guint i = 0; i < G_N_ELEMENTS (format->fields); i++)
    cs_plugin_field_lookup (&format->fields[i], event,
                            (guint) format->kind < G_N_ELEMENTS (kind_fields)
                            ? kind_fields[format->kind][i] : NULL);
  format->format = event->format;
  g_hash_table_insert (self->formats, event->format, format);
  return format;
}

/**
 * _cs_explain_formats_classify:
 * @self: a table
 * @event: an event
 *
 * Returns: (transfer none): what is read of @event's format, looked up
 *   once per format
 */
const CsExplainFormat *
_cs_explain_formats_classify (CsExplainFormats    *self,
                              const CsPluginEvent *event)
{
  gint id = event->format != NULL ? event->format->id : -1;
  CsExplainFormat *format;

  if (id >= 0 && (guint) id < self->by_id->len)
    {
      format = g_ptr_array_index (self->by_id, id);
      if (format != NULL && format->format == event->format)
        return format;
    }
  format = g_hash_table_lookup (self->formats, event->format);
  if (format == NULL)
    format = new_format (self, event);
  if (id >= 0 && id < G_MAXUINT16)
    {
      if ((guint) id >= self->by_id->len)
        g_ptr_array_set_size (self->by_id, id + 1);
      g_ptr_array_index (self->by_id, id) = format;
    }
  return format;
}

/**
 * _cs_explain_formats_new:
 *
 * Returns: (transfer full): an empty table; free with
 *   _cs_explain_formats_free()
 */
CsExplainFormats *
_cs_explain_formats_new (void)
{
  CsExplainFormats *self = g_new0 (CsExplainFormats, 1);

  self->formats = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->by_id = g_ptr_array_new ();
  return self;
}

void
_cs_explain_formats_free (CsExplainFormats *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->formats);
  g_ptr_array_unref (self->by_id);
  g_free (self);
}

/* An interrupt event's record (@format's kind EV_IRQ_ENTRY ..
 * EV_SOFTIRQ_EXIT) as the index's interrupt tables give it, for
 * cs_explain_tracker_interrupt(); @name holds CS_EXPLAIN_NAME_LEN. */
void
_cs_explain_interrupt_of_record (const CsPluginEvent   *event,
                                 const CsExplainFormat *format,
                                 char                  *name,
                                 CsPluginInterrupt     *irq)
{
  G_STATIC_ASSERT (EV_IRQ_EXIT - EV_IRQ_ENTRY == CS_PLUGIN_IRQ_EXIT - CS_PLUGIN_IRQ_ENTRY &&
                   EV_SOFTIRQ_ENTRY - EV_IRQ_ENTRY == CS_PLUGIN_SOFTIRQ_ENTRY - CS_PLUGIN_IRQ_ENTRY &&
                   EV_SOFTIRQ_EXIT - EV_IRQ_ENTRY == CS_PLUGIN_SOFTIRQ_EXIT - CS_PLUGIN_IRQ_ENTRY);
  irq->ts_ns = event->ts_ns;
  irq->cpu = event->cpu;
  irq->row = event->row;
  irq->kind = (CsPluginInterruptKind) (format->kind - EV_IRQ_ENTRY + CS_PLUGIN_IRQ_ENTRY);
  irq->value = -1;
  irq->name = NULL;
  if (format->kind == EV_IRQ_ENTRY)
    {
      irq->value = _cs_explain_get_int (event, &format->fields[F_IRQ], -1);
      _cs_explain_copy_string (event, &format->fields[F_IRQ_NAME], name, CS_EXPLAIN_NAME_LEN);
      irq->name = name;
    }
  else if (format->kind == EV_SOFTIRQ_ENTRY)
    irq->value = _cs_explain_get_int (event, &format->fields[F_VEC], -1);
}
