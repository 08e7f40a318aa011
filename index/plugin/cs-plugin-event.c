/* cs-plugin-event.c: reading an event's fields for plugins.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Thin wrappers over libtraceevent that read fields as the event's format
 * (events/<system>/<name>/format) describes them, the way trace-cmd report
 * prints them: numbers sign-extended when the format says "signed:1",
 * char arrays and __data_loc strings as text.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>

#include "cs-plugin-document.h"

static struct tep_format_field *
find_field (const CsPluginEvent *event,
            const char          *name)
{
  if (event == NULL || event->format == NULL || name == NULL)
    return NULL;
  return tep_find_any_field (event->format, name);
}

gboolean
cs_plugin_event_get_int (const CsPluginEvent *event,
                         const char          *field,
                         gint64              *value)
{
  struct tep_format_field *f = find_field (event, field);
  unsigned long long raw;

  g_return_val_if_fail (value != NULL, FALSE);

  if (f == NULL || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) ||
      (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) ||
      f->offset < 0 || f->offset + f->size > event->record->size)
    return FALSE;
  if (tep_read_number_field (f, event->record->data, &raw) != 0)
    return FALSE;
  if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8)
    {
      guint bits = f->size * 8;
      guint64 sign = G_GUINT64_CONSTANT (1) << (bits - 1);

      *value = (gint64) ((raw ^ sign) - sign);
    }
  else
    *value = (gint64) raw;
  return TRUE;
}

/* Where a field's bytes are in the record, checked against its size (a
 * hostile __data_loc must not point outside the record). */
static const char *
field_bytes (const CsPluginEvent     *event,
             struct tep_format_field *f,
             gsize                   *len)
{
  const char *data = event->record->data;
  gsize size = event->record->size;

  if (f->offset < 0 || (gsize) f->offset + f->size > size)
    return NULL;
  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    {
      unsigned long long loc;
      gsize off;

      if (f->size != 4 || tep_read_number_field (f, data, &loc) != 0)
        return NULL;
      off = loc & 0xffff;
      *len = (loc >> 16) & 0xffff;
      if (f->flags & TEP_FIELD_IS_RELATIVE)
        off += f->offset + f->size;   /* __rel_loc: from the field's end */
      if (off + *len > size)
        return NULL;
      return data + off;
    }
  *len = f->size;
  return data + f->offset;
}

char *
cs_plugin_event_dup_string (const CsPluginEvent *event,
                            const char          *field)
{
  struct tep_format_field *f = find_field (event, field);
  const char *data;
  gsize len = 0;

  if (f == NULL)
    return NULL;
  if (!(f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
      !((f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1))
    return NULL;
  data = field_bytes (event, f, &len);
  if (data == NULL)
    return NULL;
  /* Arrays and dynamic strings end at their first NUL, if any. */
  return g_utf8_make_valid (data, strnlen (data, len));
}

char *
cs_plugin_event_format (const CsPluginEvent *event)
{
  struct trace_seq seq;
  char *text;

  g_return_val_if_fail (event != NULL, NULL);

  if (event->format == NULL)
    return g_strdup ("");
  trace_seq_init (&seq);
  tep_print_event (event->tep, &seq, event->record, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (&seq);
  text = g_strdup (seq.buffer != NULL ? seq.buffer : "");
  trace_seq_destroy (&seq);
  return text;
}
