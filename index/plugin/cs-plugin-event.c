/* cs-plugin-event.c: reading an event's fields for plugins.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Fields read as the event's format (events/<system>/<name>/format)
 * describes them, the way trace-cmd report prints them: numbers
 * sign-extended when the format says "signed:1", char arrays and
 * __data_loc strings as text.  libtraceevent finds a field by name (a
 * walk over the format's list with strcmp); a CsPluginField keeps what it
 * found (offset, size, kind, byte order), so a pass finds each field once
 * per format and reads it from each record in a few instructions.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>

#include "cs-plugin-document.h"

/* What a CsPluginField reads. */
enum {
  FIELD_MISSING,
  FIELD_NUMBER,         /* 1, 2, 4 or 8 bytes */
  FIELD_ARRAY,          /* char name[N] */
  FIELD_DYNAMIC,        /* __data_loc char[] name: a u32 (length << 16 | offset) */
};

enum {
  FIELD_SIGNED = 1 << 0,
  FIELD_SWAP = 1 << 1,          /* the recording's byte order is not ours */
  FIELD_RELATIVE = 1 << 2,      /* __rel_loc: the offset counts from the field's end */
};

G_STATIC_ASSERT (sizeof (CsPluginField) >= 4 * sizeof (guint32));

gboolean
cs_plugin_field_lookup (CsPluginField       *field,
                        const CsPluginEvent *event,
                        const char          *name)
{
  struct tep_format_field *f;

  g_return_val_if_fail (field != NULL, FALSE);

  memset (field, 0, sizeof *field);
  field->kind = FIELD_MISSING;
  if (event == NULL || event->format == NULL || name == NULL ||
      (f = tep_find_any_field (event->format, name)) == NULL || f->offset < 0 || f->size < 0)
    return FALSE;
  field->offset = f->offset;
  field->size = (guint32) f->size;
  if (event->tep != NULL && tep_is_file_bigendian (event->tep) != tep_is_local_bigendian (event->tep))
    field->flags |= FIELD_SWAP;
  if (f->flags & TEP_FIELD_IS_SIGNED)
    field->flags |= FIELD_SIGNED;
  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    {
      if (f->size == 4)
        field->kind = FIELD_DYNAMIC;
      if (f->flags & TEP_FIELD_IS_RELATIVE)
        field->flags |= FIELD_RELATIVE;
    }
  else if ((f->flags & TEP_FIELD_IS_STRING) || ((f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1))
    field->kind = FIELD_ARRAY;
  else if (!(f->flags & TEP_FIELD_IS_ARRAY) &&
           (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8))
    field->kind = FIELD_NUMBER;
  return TRUE;
}

/* The unsigned number of @size bytes at @p, in the recording's order. */
static inline guint64
read_raw (const guint8 *p,
          guint32       size,
          gboolean      swap)
{
  guint16 u16;
  guint32 u32;
  guint64 u64;

  switch (size)
    {
    case 1:
      return p[0];
    case 2:
      memcpy (&u16, p, 2);
      return swap ? GUINT16_SWAP_LE_BE (u16) : u16;
    case 4:
      memcpy (&u32, p, 4);
      return swap ? GUINT32_SWAP_LE_BE (u32) : u32;
    default:
      memcpy (&u64, p, 8);
      return swap ? GUINT64_SWAP_LE_BE (u64) : u64;
    }
}

gboolean
cs_plugin_event_read_int (const CsPluginEvent *event,
                          const CsPluginField *field,
                          gint64              *value)
{
  guint64 raw;

  g_return_val_if_fail (field != NULL && value != NULL, FALSE);

  if (field->kind != FIELD_NUMBER || event == NULL || event->record == NULL ||
      event->record->size < 0 || (guint64) field->offset + field->size > (guint64) event->record->size)
    return FALSE;
  raw = read_raw ((const guint8 *) event->record->data + field->offset, field->size,
                  field->flags & FIELD_SWAP);
  if ((field->flags & FIELD_SIGNED) && field->size < 8)
    {
      guint64 sign = G_GUINT64_CONSTANT (1) << (field->size * 8 - 1);

      raw = (raw ^ sign) - sign;
    }
  *value = (gint64) raw;
  return TRUE;
}

const char *
cs_plugin_event_peek_string (const CsPluginEvent *event,
                             const CsPluginField *field,
                             gsize               *len)
{
  const char *data;
  guint64 size, off, n;

  g_return_val_if_fail (field != NULL && len != NULL, NULL);

  *len = 0;
  if ((field->kind != FIELD_ARRAY && field->kind != FIELD_DYNAMIC) || event == NULL ||
      event->record == NULL || event->record->size < 0)
    return NULL;
  data = event->record->data;
  size = (guint64) event->record->size;
  if ((guint64) field->offset + field->size > size)
    return NULL;
  off = (guint64) field->offset;
  n = field->size;
  if (field->kind == FIELD_DYNAMIC)
    {
      /* A hostile __data_loc must not point outside the record. */
      guint64 loc = read_raw ((const guint8 *) data + field->offset, 4, field->flags & FIELD_SWAP);

      off = loc & 0xffff;
      n = (loc >> 16) & 0xffff;
      if (field->flags & FIELD_RELATIVE)
        off += (guint64) field->offset + field->size;
      if (off + n > size)
        return NULL;
    }
  /* Arrays and dynamic strings end at their first NUL, if any. */
  *len = strnlen (data + off, n);
  return data + off;
}

gboolean
cs_plugin_event_get_int (const CsPluginEvent *event,
                         const char          *field,
                         gint64              *value)
{
  CsPluginField f;

  g_return_val_if_fail (value != NULL, FALSE);

  return cs_plugin_field_lookup (&f, event, field) && cs_plugin_event_read_int (event, &f, value);
}

char *
cs_plugin_event_dup_string (const CsPluginEvent *event,
                            const char          *field)
{
  CsPluginField f;
  const char *data;
  gsize len;

  if (!cs_plugin_field_lookup (&f, event, field) ||
      (data = cs_plugin_event_peek_string (event, &f, &len)) == NULL)
    return NULL;
  return g_utf8_make_valid (data, len);
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
