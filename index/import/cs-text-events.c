/* cs-text-events.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The formats written here follow the text of tracefs's
 * events/<system>/<event>/format on Linux 6.x (field types, offsets and
 * print fmt), so that a record built from text reads exactly as one the
 * kernel wrote: libtraceevent prints it, the scanner reads prev_state and
 * next_pid, filters and SQL find the same fields.  A type id is given to a
 * format the first time the text uses it.
 */
#include "config.h"

#include <string.h>

#include "cs-text-event-specs-private.h"
#include "cs-text-events.h"

typedef struct {
  const Spec *spec;
  char *system;
  char *name;
  guint16 id;
  guint n_fields;
  guint offsets[MAX_FIELDS];
  guint sizes[MAX_FIELDS];
  guint fixed_bytes;
} Type;

struct _CsTextEvents
{
  GHashTable *by_name;     /* "system:name" or "name" → Type */
  GPtrArray *types;        /* Type, by id - 1 */
  GHashTable *symbols;     /* name → address (GUINT_TO_POINTER index) */
  GString *kallsyms;
  GString *scratch;        /* the text of a generic event */
  GString *symbol_key;     /* a function name being looked up */
  GString *type_key;       /* an event's "system:name" or "name" being looked up */
};

#define FIRST_ID 1
/* Made-up kernel addresses for function names, 16 bytes apart. */
#define SYMBOL_BASE G_GUINT64_CONSTANT (0xffffffff81000000)

static void
type_free (Type *t)
{
  g_free (t->system);
  g_free (t->name);
  g_free (t);
}

/**
 * cs_text_events_new:
 *
 * Returns: (transfer full): an empty set of event types; free with
 *   cs_text_events_free()
 */
CsTextEvents *
cs_text_events_new (void)
{
  CsTextEvents *self = g_new0 (CsTextEvents, 1);

  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->type_key = g_string_new (NULL);
  self->types = g_ptr_array_new_with_free_func ((GDestroyNotify) type_free);
  self->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->kallsyms = g_string_new (NULL);
  self->scratch = g_string_new (NULL);
  self->symbol_key = g_string_new (NULL);
  return self;
}

/** cs_text_events_free: @self: (transfer full) (nullable): what to free */
void
cs_text_events_free (CsTextEvents *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->types);
  g_hash_table_unref (self->symbols);
  g_string_free (self->kallsyms, TRUE);
  g_string_free (self->scratch, TRUE);
  g_string_free (self->symbol_key, TRUE);
  g_string_free (self->type_key, TRUE);
  g_free (self);
}

/**
 * cs_text_events_symbol_address:
 * @self: the event types
 * @name: a function name (as the text prints it, "func" or "func+0x1c/0x40")
 * @len: its length in bytes, or -1 when NUL-terminated
 *
 * Gives @name an address in the made-up kallsyms the converted file
 * carries, the same one every time.
 *
 * Returns: the address; 0 for an empty name
 */
guint64
cs_text_events_symbol_address (CsTextEvents *self,
                               const char   *name,
                               gssize        len)
{
  gpointer index;
  guint64 addr;

  if (len < 0)
    len = strlen (name);
  if (len == 0)
    return 0;
  g_string_assign (self->symbol_key, "");
  g_string_append_len (self->symbol_key, name, len);
  if (g_hash_table_lookup_extended (self->symbols, self->symbol_key->str, NULL, &index))
    return SYMBOL_BASE + 16 * (guint64) GPOINTER_TO_UINT (index);
  index = GUINT_TO_POINTER (g_hash_table_size (self->symbols) + 1);
  g_hash_table_insert (self->symbols, g_strdup (self->symbol_key->str), index);
  addr = SYMBOL_BASE + 16 * (guint64) GPOINTER_TO_UINT (index);
  g_string_append_printf (self->kallsyms, "%016" G_GINT64_MODIFIER "x T %s\n", addr, self->symbol_key->str);
  return addr;
}

static guint
field_size (Kind kind)
{
  switch (kind)
    {
    case K_S32: case K_U32: case K_STR: return 4;
    case K_S64: case K_U64: case K_SYM: return 8;
    case K_COMM: return 16;
    case K_U8: return 1;
    case K_TAIL: return 0;
    }
  return 0;
}

static Type *
lookup_type (CsTextEvents *self,
             const CsTextLine *line,
             const char *name,
             gsize name_len)
{
  const Spec *spec = &_cs_text_generic_spec;
  Type *t;
  guint offset = 8;

  /* The key in a reused buffer: no allocation per event. */
  g_string_truncate (self->type_key, 0);
  if (line->system != NULL)
    {
      g_string_append_len (self->type_key, line->system, line->system_len);
      g_string_append_c (self->type_key, ':');
    }
  g_string_append_len (self->type_key, name, name_len);
  t = g_hash_table_lookup (self->by_name, self->type_key->str);
  if (t != NULL)
    return t;
  if (self->types->len >= G_MAXUINT16 - FIRST_ID)
    return NULL;

  for (guint i = 0; i < _cs_text_n_event_specs; i++)
    if (strlen (_cs_text_event_specs[i].name) == name_len && memcmp (_cs_text_event_specs[i].name, name, name_len) == 0 &&
        (line->system == NULL || (strlen (_cs_text_event_specs[i].system) == line->system_len &&
                                  memcmp (_cs_text_event_specs[i].system, line->system, line->system_len) == 0)))
      spec = &_cs_text_event_specs[i];

  t = g_new0 (Type, 1);
  t->spec = spec;
  t->id = FIRST_ID + self->types->len;
  t->name = g_strndup (name, name_len);
  t->system = spec->system != NULL ? g_strdup (spec->system)
            : line->system != NULL ? g_strndup (line->system, line->system_len)
            : g_strdup ("text");
  for (guint i = 0; i < MAX_FIELDS && spec->fields[i].decl != NULL; i++)
    {
      guint size = field_size (spec->fields[i].kind);
      guint align = MAX (MIN (size, 8), 1);

      if (spec->fields[i].kind == K_COMM)
        align = 1;
      offset = (offset + align - 1) / align * align;
      t->offsets[i] = offset;
      t->sizes[i] = size;
      offset += size;
      t->n_fields = i + 1;
    }
  t->fixed_bytes = offset;
  g_ptr_array_add (self->types, t);
  g_hash_table_insert (self->by_name, g_strdup (self->type_key->str), t);
  return t;
}

/* ---- Records --------------------------------------------------------- */

static void
put (GByteArray *out,
     guint       offset,
     const void *data,
     gsize       len)
{
  memcpy (out->data + offset, data, len);
}

/**
 * cs_text_events_encode:
 * @self: the event types
 * @line: an event line (%CS_TEXT_LINE_EVENT of cs_text_line_parse())
 * @more_text: (nullable): continuation lines of the event, joined with
 *   newlines, kept in the text of events without fields of their own
 * @out: (out caller-allocates): receives the record's data (common fields
 *   then the event's), at most %CS_TEXT_EVENTS_MAX_RECORD_BYTES long, a
 *   multiple of 4 bytes
 *
 * Builds the ring-buffer record of one event of the text.
 *
 * Returns: %FALSE when the text has more event types than a trace.dat
 *   holds (65,534); @out is then empty
 */
gboolean
cs_text_events_encode (CsTextEvents     *self,
                       const CsTextLine *line,
                       const char       *more_text,
                       GByteArray       *out)
{
  const char *name = line->is_function ? "function" : line->event;
  gsize name_len = line->is_function ? 8 : line->event_len;
  Value values[MAX_FIELDS] = { { 0 } };
  const char *payload = line->payload;
  guint16 id;
  gint32 pid = line->pid;
  Type *t;

  /* tracefs prints a trace_marker write as "tracing_mark_write: text",
   * trace-cmd as a print event "tracing_mark_write: text"; atrace's
   * markers get an event of their own. */
  if (line->system == NULL && name_len == 18 && memcmp (name, "tracing_mark_write", 18) == 0)
    {
      if (!_cs_text_is_atrace_mark (payload))
        name = "print", name_len = 5;
    }
  else if (line->system == NULL && name_len == 5 && memcmp (name, "print", 5) == 0 &&
           g_str_has_prefix (payload, "tracing_mark_write: ") && _cs_text_is_atrace_mark (payload + 20))
    {
      name = "tracing_mark_write", name_len = 18;
      payload += 20;
    }
  t = lookup_type (self, line, name, name_len);
  g_byte_array_set_size (out, 0);
  if (t == NULL)
    return FALSE;

  if (t->spec->parse != NULL)
    t->spec->parse (self, t->spec, line, payload, values);
  else
    {
      g_string_assign (self->scratch, line->payload);
      if (more_text != NULL)
        g_string_append_printf (self->scratch, "\n%s", more_text);
      values[0].str = self->scratch->str;
      values[0].len = self->scratch->len;
    }

  g_byte_array_set_size (out, t->fixed_bytes);
  memset (out->data, 0, out->len);
  id = t->id;
  put (out, 0, &id, 2);
  out->data[2] = line->flags;
  out->data[3] = line->preempt_count;
  put (out, 4, &pid, 4);

  for (guint i = 0; i < t->n_fields; i++)
    {
      const Field *f = &t->spec->fields[i];
      Value *v = &values[i];
      guint off = t->offsets[i];

      switch (f->kind)
        {
        case K_S32: case K_U32:
          {
            gint32 x = (gint32) v->num;
            put (out, off, &x, 4);
          }
          break;
        case K_S64: case K_U64:
          put (out, off, &v->num, 8);
          break;
        case K_U8:
          /* The byte itself: atrace's kind is the marker's letter. */
          out->data[off] = (guint8) v->num;
          break;
        case K_SYM:
          {
            guint64 addr = v->str != NULL ? cs_text_events_symbol_address (self, v->str, v->len)
                                          : (guint64) v->num;
            put (out, off, &addr, 8);
          }
          break;
        case K_COMM:
          if (v->str != NULL)
            put (out, off, v->str, MIN (v->len, 15));
          break;
        case K_STR: case K_TAIL:
          {
            gsize room = CS_TEXT_EVENTS_MAX_RECORD_BYTES - 8 - out->len;
            gsize len = v->str != NULL ? MIN (v->len, room) : 0;
            guint32 loc = (guint32) ((len + 1) << 16) | out->len;

            if (f->kind == K_STR)
              put (out, off, &loc, 4);
            g_byte_array_append (out, (const guint8 *) (v->str ? v->str : ""), len);
            g_byte_array_append (out, (const guint8 *) "", 1);
          }
          break;
        }
    }
  while (out->len % 4 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  return TRUE;
}

/** cs_text_events_get_n_types: Returns: the event types used so far */
guint
cs_text_events_get_n_types (CsTextEvents *self)
{
  return self->types->len;
}

static GBytes *
format_text (const Type *t)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "name: %s\nID: %u\nformat:\n", t->name, t->id);
  g_string_append (s,
      "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
  for (guint i = 0; i < t->n_fields; i++)
    {
      const Field *f = &t->spec->fields[i];
      const char *decl = f->decl;
      g_autofree char *array_decl = NULL;

      /* "unsigned long args[N]" entries are one array in the kernel's file. */
      if (g_str_has_prefix (f->name, "args"))
        {
          if (f->name[4] != '0')
            continue;
          decl = "unsigned long args[6]";
          g_string_append_printf (s, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:0;\n",
                                  decl, t->offsets[i], 48);
          continue;
        }
      g_string_append_printf (s, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
                              decl, t->offsets[i], t->sizes[i],
                              f->kind == K_S32 || f->kind == K_S64);
    }
  g_string_append_printf (s, "\nprint fmt: %s\n", t->spec->print_fmt);
  return g_string_free_to_bytes (s);
}

/**
 * cs_text_events_add_to_writer:
 * @self: the event types
 * @writer: a trace.dat writer not finished yet
 *
 * Gives @writer the format of every event type used so far (the ftrace
 * system's in its own section, as trace-cmd.dat.v6(5) has them) and the
 * made-up kallsyms of the function names met.
 */
void
cs_text_events_add_to_writer (CsTextEvents     *self,
                              CsTracedatWriter *writer)
{
  g_autoptr(GBytes) kallsyms = NULL;

  for (guint i = 0; i < self->types->len; i++)
    {
      Type *t = g_ptr_array_index (self->types, i);
      g_autoptr(GBytes) format = format_text (t);

      if (g_str_equal (t->system, "ftrace"))
        cs_tracedat_writer_add_ftrace_format (writer, format);
      else
        cs_tracedat_writer_add_event_format (writer, t->system, format);
    }
  kallsyms = g_bytes_new (self->kallsyms->str, self->kallsyms->len);
  cs_tracedat_writer_set_kallsyms (writer, kallsyms);
}
