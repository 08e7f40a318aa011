/* cs-event-item.c: one row of the event list, made when a view asks for it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-event-list-private.h"

struct _CsEventItem
{
  GObject parent_instance;

  CsDocument *document;
  CsStream *stream;             /* NULL in one recording's list */
  gint64 axis_ns;               /* the event's time on the list's axis */
  guint64 row;
  CsEvent event;
  char *name;
  char *info;
  char *latency;
};

G_DEFINE_FINAL_TYPE (CsEventItem, cs_event_item, G_TYPE_OBJECT)

static void
cs_event_item_finalize (GObject *object)
{
  CsEventItem *self = CS_EVENT_ITEM (object);

  g_clear_object (&self->document);
  g_clear_object (&self->stream);
  g_free (self->name);
  g_free (self->info);
  g_free (self->latency);
  G_OBJECT_CLASS (cs_event_item_parent_class)->finalize (object);
}

static void
cs_event_item_class_init (CsEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_event_item_finalize;
}

static void
cs_event_item_init (CsEventItem *self)
{
}

CsEventItem *
_cs_event_item_new (CsDocument    *document,
                    guint64        row,
                    const CsEvent *event)
{
  CsEventItem *self = g_object_new (CS_TYPE_EVENT_ITEM, NULL);

  self->document = g_object_ref (document);
  self->row = row;
  self->event = *event;
  self->axis_ns = event->ts_ns;
  return self;
}

/* In a merged list: the stream the event is in, and its axis time. */
void
_cs_event_item_set_stream (CsEventItem *self,
                           CsStream    *stream,
                           gint64       axis_ns)
{
  g_set_object (&self->stream, stream);
  self->axis_ns = axis_ns;
}

/**
 * cs_event_item_get_document:
 * @self: an item
 *
 * Returns: (transfer none): the recording the event is in (in a merged
 *   list, its stream's)
 */
CsDocument *
cs_event_item_get_document (CsEventItem *self)
{
  g_return_val_if_fail (CS_IS_EVENT_ITEM (self), NULL);
  return self->document;
}

/**
 * cs_event_item_get_stream:
 * @self: an item
 *
 * Returns: (transfer none) (nullable): the stream the event is in, in a
 *   list of several streams (cs_event_list_new_for_streams()); %NULL in
 *   one recording's list
 */
CsStream *
cs_event_item_get_stream (CsEventItem *self)
{
  g_return_val_if_fail (CS_IS_EVENT_ITEM (self), NULL);
  return self->stream;
}

/**
 * cs_event_item_get_time_ns:
 * @self: an item
 *
 * Returns: the event's time on the list's axis, in ns: its stream's
 *   cs_stream_to_axis_ns() in a merged list, its own ts_ns otherwise
 */
gint64
cs_event_item_get_time_ns (CsEventItem *self)
{
  g_return_val_if_fail (CS_IS_EVENT_ITEM (self), 0);
  return self->axis_ns;
}

/** cs_event_item_get_row: Returns: the row in its list (0-based) */
guint64
cs_event_item_get_row (CsEventItem *self)
{
  return self->row;
}

/** cs_event_item_get_event: Returns: (transfer none): the event */
const CsEvent *
cs_event_item_get_event (CsEventItem *self)
{
  return &self->event;
}

/**
 * cs_event_to_variant:
 * @event: an event of a document
 *
 * @event as a GVariant of type %CS_EVENT_VARIANT_TYPE, "(xtiuut)": the
 * fields of #CsEvent in order (ts_ns in ns, offset, pid, type_id, cpu,
 * row).  The parameter of the window's "win.select-event" action, so that
 * a page names an event to the window without knowing the window.
 *
 * Returns: (transfer floating): the variant
 */
GVariant *
cs_event_to_variant (const CsEvent *event)
{
  return g_variant_new (CS_EVENT_VARIANT_TYPE, event->ts_ns, event->offset, event->pid,
                        event->type_id, event->cpu, event->row);
}

/**
 * cs_event_from_variant:
 * @variant: a variant of type %CS_EVENT_VARIANT_TYPE (cs_event_to_variant())
 * @event: (out caller-allocates): the event it holds
 */
void
cs_event_from_variant (GVariant *variant,
                       CsEvent  *event)
{
  g_variant_get (variant, CS_EVENT_VARIANT_TYPE, &event->ts_ns, &event->offset, &event->pid,
                 &event->type_id, &event->cpu, &event->row);
}

/** cs_event_item_get_comm: Returns: (transfer none): the task's command name */
const char *
cs_event_item_get_comm (CsEventItem *self)
{
  return cs_document_get_comm (self->document, self->event.pid);
}

/** cs_event_item_get_name: Returns: (transfer none): "system:name" of the event */
const char *
cs_event_item_get_name (CsEventItem *self)
{
  if (self->name == NULL)
    self->name = _cs_event_column_text (self->document, &self->event, self->row, CS_COLUMN_EVENT);
  return self->name;
}

/**
 * cs_event_item_get_info:
 *
 * The event's fields as `trace-cmd report` prints them, read from the
 * recording on first call (main thread).
 *
 * Returns: (transfer none): the text ("" if the recording cannot be read)
 */
const char *
cs_event_item_get_info (CsEventItem *self)
{
  if (self->info == NULL)
    self->info = _cs_event_column_text (self->document, &self->event, self->row, CS_COLUMN_INFO);
  return self->info;
}

/**
 * cs_event_item_get_latency:
 *
 * Returns: (transfer none): the latency flags as ftrace prints them
 *   ("d.h2."), read from the recording on first call
 */
const char *
cs_event_item_get_latency (CsEventItem *self)
{
  if (self->latency == NULL)
    self->latency = _cs_event_column_text (self->document, &self->event, self->row, CS_COLUMN_LATENCY);
  return self->latency;
}

/**
 * cs_event_item_dup_column_text:
 * @self: an item
 * @column: which column
 *
 * Returns: (transfer full): the text the event list shows in @column
 */
char *
cs_event_item_dup_column_text (CsEventItem   *self,
                               CsEventColumn  column)
{
  if (column == CS_COLUMN_STREAM)
    return g_strdup (self->stream != NULL ? cs_stream_get_name (self->stream) : "");
  if (column == CS_COLUMN_TIME && self->stream != NULL)
    {
      CsEvent on_axis = self->event;

      on_axis.ts_ns = self->axis_ns;
      return _cs_event_column_text (self->document, &on_axis, self->row, column);
    }
  return _cs_event_column_text (self->document, &self->event, self->row, column);
}

/* The text of a column; the same function feeds the view and the search,
 * so what a search matches is what the user reads. */
char *
_cs_event_column_text (CsDocument    *document,
                       const CsEvent *event,
                       guint64        row,
                       CsEventColumn  column)
{
  const CsEventType *type;
  char *text;

  switch (column)
    {
    case CS_COLUMN_ROW:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, row);
    case CS_COLUMN_CPU:
      return g_strdup_printf ("%u", event->cpu);
    case CS_COLUMN_TIME:
      /* As trace-cmd report -t prints it: seconds.nanoseconds. */
      return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                              event->ts_ns / 1000000000, event->ts_ns % 1000000000);
    case CS_COLUMN_TASK:
      return g_strdup (cs_document_get_comm (document, event->pid));
    case CS_COLUMN_PID:
      return g_strdup_printf ("%d", event->pid);
    case CS_COLUMN_LATENCY:
      text = cs_document_format_latency (document, event, NULL);
      return text ? text : g_strdup ("");
    case CS_COLUMN_EVENT:
      type = cs_document_get_event_type (document, event->type_id);
      return type ? g_strdup_printf ("%s:%s", type->system, type->name) : g_strdup ("");
    case CS_COLUMN_INFO:
      text = cs_document_format_event (document, event, NULL);
      return text ? text : g_strdup ("");
    case CS_COLUMN_STREAM:   /* the item knows its stream: cs_event_item_dup_column_text() */
    case CS_N_COLUMNS:
    default:
      return g_strdup ("");
    }
}
