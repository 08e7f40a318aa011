/* cs-event-filter.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The sets are small hash sets of gint64; the expression is compiled with
 * libtraceevent's filter parser (tep_filter_add_filter_str(), the syntax of
 * tracefs's events/.../filter files) against the recording's formats.
 * Events whose type the expression does not name do not pass it, as with
 * `trace-cmd report -F`.
 */
#include "config.h"

#include <event-parse.h>

#include <glib/gi18n-lib.h>

#include "cs-event-filter-private.h"
#include "cs-tracedat-reader.h"

typedef struct {
  struct tep_event_filter *filter;
} Compiled;

struct _CsEventFilter
{
  GObject parent_instance;

  CsFilterMode modes[CS_FILTER_N_FIELDS];
  GHashTable *sets[CS_FILTER_N_FIELDS];   /* gint64* -> itself */

  char *expression;
  CsDocument *document;                   /* for the expression's formats */
  Compiled *compiled;                     /* shared by copies, never changed */

  /* The stream dimension (lists of several streams): recording paths */
  CsFilterMode stream_mode;
  GHashTable *streams;                    /* char* -> itself */
};

G_DEFINE_FINAL_TYPE (CsEventFilter, cs_event_filter, G_TYPE_OBJECT)

/* A compiled expression, shared by a filter and its copies: a copy that
 * compiled its text again could fail where the original did not (another
 * thread matching records against the same tep_handle resets its
 * tokenizer, see _cs_event_filter_matches_record()) and would then lose
 * its expression. */
static void
compiled_clear (gpointer data)
{
  Compiled *compiled = data;

  tep_filter_free (compiled->filter);
}

static Compiled *
compiled_new (struct tep_event_filter *filter)
{
  Compiled *compiled = g_atomic_rc_box_new0 (Compiled);

  compiled->filter = filter;
  return compiled;
}

static void
compiled_unref (Compiled *compiled)
{
  g_atomic_rc_box_release_full (compiled, compiled_clear);
}

static void
cs_event_filter_finalize (GObject *object)
{
  CsEventFilter *self = CS_EVENT_FILTER (object);

  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    g_hash_table_unref (self->sets[f]);
  g_hash_table_unref (self->streams);
  g_clear_pointer (&self->compiled, compiled_unref);
  g_clear_object (&self->document);
  g_free (self->expression);

  G_OBJECT_CLASS (cs_event_filter_parent_class)->finalize (object);
}

static void
cs_event_filter_class_init (CsEventFilterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_event_filter_finalize;
}

static void
cs_event_filter_init (CsEventFilter *self)
{
  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    self->sets[f] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
copy_streams (CsEventFilter *to,
              CsEventFilter *from)
{
  GHashTableIter iter;
  gpointer key;

  to->stream_mode = from->stream_mode;
  g_hash_table_iter_init (&iter, from->streams);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (to->streams, g_strdup (key));
}

static gboolean
streams_equal (CsEventFilter *a,
               CsEventFilter *b)
{
  GHashTableIter iter;
  gpointer key;

  if (a->stream_mode != b->stream_mode)
    return FALSE;
  if (a->stream_mode == CS_FILTER_ALL)
    return TRUE;
  if (g_hash_table_size (a->streams) != g_hash_table_size (b->streams))
    return FALSE;
  g_hash_table_iter_init (&iter, a->streams);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (b->streams, key))
      return FALSE;
  return TRUE;
}

/**
 * cs_event_filter_new:
 *
 * Returns: (transfer full): a filter that passes every event
 */
CsEventFilter *
cs_event_filter_new (void)
{
  return g_object_new (CS_TYPE_EVENT_FILTER, NULL);
}

/**
 * cs_event_filter_copy:
 * @self: a filter
 *
 * A copy never fails and loses nothing: it shares the original's compiled
 * expression, which neither of them changes (setting an expression
 * compiles a new one).
 *
 * Returns: (transfer full): an independent filter with the same sets and
 *   expression
 */
CsEventFilter *
cs_event_filter_copy (CsEventFilter *self)
{
  CsEventFilter *copy = cs_event_filter_new ();

  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    {
      GHashTableIter iter;
      gpointer key;

      copy->modes[f] = self->modes[f];
      g_hash_table_iter_init (&iter, self->sets[f]);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        cs_event_filter_add (copy, f, *(gint64 *) key);
    }
  copy->expression = g_strdup (self->expression);
  g_set_object (&copy->document, self->document);
  copy->compiled = self->compiled != NULL ? g_atomic_rc_box_acquire (self->compiled) : NULL;
  copy_streams (copy, self);
  return copy;
}

/**
 * cs_event_filter_equal:
 * @a: a filter
 * @b: another
 *
 * Returns: whether both let the same events through by construction (same
 *   modes, sets and expression text)
 */
gboolean
cs_event_filter_equal (CsEventFilter *a,
                       CsEventFilter *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return cs_event_filter_is_empty (a ? a : b);
  if (g_strcmp0 (a->expression, b->expression) != 0 || !streams_equal (a, b))
    return FALSE;
  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    {
      GHashTableIter iter;
      gpointer key;

      if (a->modes[f] != b->modes[f])
        return FALSE;
      if (a->modes[f] == CS_FILTER_ALL)
        continue;
      if (g_hash_table_size (a->sets[f]) != g_hash_table_size (b->sets[f]))
        return FALSE;
      g_hash_table_iter_init (&iter, a->sets[f]);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (b->sets[f], key))
          return FALSE;
    }
  return TRUE;
}

/**
 * cs_event_filter_is_empty:
 * @self: (nullable): a filter
 *
 * Returns: whether it passes every event
 */
gboolean
cs_event_filter_is_empty (CsEventFilter *self)
{
  if (self == NULL)
    return TRUE;
  if (self->expression != NULL)
    return FALSE;
  if (self->stream_mode == CS_FILTER_SHOW_ONLY ||
      (self->stream_mode == CS_FILTER_HIDE && g_hash_table_size (self->streams) > 0))
    return FALSE;
  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    if (self->modes[f] == CS_FILTER_SHOW_ONLY ||
        (self->modes[f] == CS_FILTER_HIDE && g_hash_table_size (self->sets[f]) > 0))
      return FALSE;
  return TRUE;
}

/**
 * cs_event_filter_clear:
 * @self: a filter
 *
 * Makes @self pass every event.
 */
void
cs_event_filter_clear (CsEventFilter *self)
{
  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    {
      self->modes[f] = CS_FILTER_ALL;
      g_hash_table_remove_all (self->sets[f]);
    }
  self->stream_mode = CS_FILTER_ALL;
  g_hash_table_remove_all (self->streams);
  g_clear_pointer (&self->expression, g_free);
  g_clear_pointer (&self->compiled, compiled_unref);
  g_clear_object (&self->document);
}

/** cs_event_filter_get_mode: Returns: how @field's set is used */
CsFilterMode
cs_event_filter_get_mode (CsEventFilter *self,
                          CsFilterField  field)
{
  g_return_val_if_fail (field < CS_FILTER_N_FIELDS, CS_FILTER_ALL);
  return self->modes[field];
}

/**
 * cs_event_filter_set_mode:
 * @self: a filter
 * @field: which set
 * @mode: show only its members, hide them, or ignore the set
 */
void
cs_event_filter_set_mode (CsEventFilter *self,
                          CsFilterField  field,
                          CsFilterMode   mode)
{
  g_return_if_fail (field < CS_FILTER_N_FIELDS);
  self->modes[field] = mode;
}

/**
 * cs_event_filter_add:
 * @self: a filter
 * @field: which set
 * @value: a CPU number, a pid or a #CsEventType id
 */
void
cs_event_filter_add (CsEventFilter *self,
                     CsFilterField  field,
                     gint64         value)
{
  g_return_if_fail (field < CS_FILTER_N_FIELDS);
  g_hash_table_add (self->sets[field], g_memdup2 (&value, sizeof value));
}

/** cs_event_filter_remove: removes @value from @field's set */
void
cs_event_filter_remove (CsEventFilter *self,
                        CsFilterField  field,
                        gint64         value)
{
  g_return_if_fail (field < CS_FILTER_N_FIELDS);
  g_hash_table_remove (self->sets[field], &value);
}

/** cs_event_filter_contains: Returns: whether @value is in @field's set */
gboolean
cs_event_filter_contains (CsEventFilter *self,
                          CsFilterField  field,
                          gint64         value)
{
  g_return_val_if_fail (field < CS_FILTER_N_FIELDS, FALSE);
  return g_hash_table_contains (self->sets[field], &value);
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/**
 * cs_event_filter_dup_values:
 * @self: a filter
 * @field: which set
 *
 * Returns: (transfer full) (element-type gint64): the set's members, sorted
 */
GArray *
cs_event_filter_dup_values (CsEventFilter *self,
                            CsFilterField  field)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gint64));
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (field < CS_FILTER_N_FIELDS, values);
  g_hash_table_iter_init (&iter, self->sets[field]);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_array_append_val (values, *(gint64 *) key);
  g_array_sort (values, compare_gint64);
  return values;
}

/* libtraceevent 1.7 accepts a comparison with a field the event does not
 * have, or with no value, and then matches nothing (trace-cmd report -F
 * shows an empty report): check those two mistakes here so that the user
 * is told which name or operator is wrong. */
static gboolean
check_expression (struct tep_handle  *tep,
                  const char         *expression,
                  GError            **error)
{
  g_autoptr(GRegex) events_re = g_regex_new ("([A-Za-z0-9_]+)(?:/([A-Za-z0-9_]+))?\\s*:", 0, 0, NULL);
  g_autoptr(GRegex) compare_re = g_regex_new ("([A-Za-z_][A-Za-z0-9_]*)\\s*(==|!=|<=|>=|=~|!~|<|>|&)", 0, 0, NULL);
  g_autoptr(GRegex) dangling_re = g_regex_new ("(==|!=|<=|>=|=~|!~|<|>)\\s*($|&&|\\|\\||\\)|,)", 0, 0, NULL);
  g_autoptr(GPtrArray) events = g_ptr_array_new ();
  g_autoptr(GMatchInfo) m = NULL;
  int n_events = tep_get_events_count (tep);
  struct tep_event **all = tep_list_events (tep, TEP_EVENT_SORT_ID);

  if (g_regex_match (dangling_re, expression, 0, &m))
    {
      g_autofree char *op = g_match_info_fetch (m, 1);
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("Bad filter \"%s\": no value after \"%s\""), expression, op);
      return FALSE;
    }
  g_clear_pointer (&m, g_match_info_free);

  for (g_regex_match (events_re, expression, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *system = g_match_info_fetch (m, 1);
      g_autofree char *name = g_match_info_fetch (m, 2);
      gboolean any = FALSE;

      for (int i = 0; i < n_events; i++)
        if (name != NULL && *name != '\0'
            ? g_str_equal (all[i]->system, system) && g_str_equal (all[i]->name, name)
            : g_str_equal (all[i]->system, system) || g_str_equal (all[i]->name, system))
          {
            g_ptr_array_add (events, all[i]);
            any = TRUE;
          }
      if (!any)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                       _("Bad filter \"%s\": the recording has no event %s%s%s"), expression,
                       system, name && *name ? "/" : "", name ? name : "");
          return FALSE;
        }
    }
  g_clear_pointer (&m, g_match_info_free);

  for (g_regex_match (compare_re, expression, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *field = g_match_info_fetch (m, 1);
      gboolean known = g_str_equal (field, "COMM") || g_str_equal (field, "CPU") || events->len == 0;

      for (guint i = 0; !known && i < events->len; i++)
        known = tep_find_any_field (g_ptr_array_index (events, i), field) != NULL;
      if (!known)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                       _("Bad filter \"%s\": no event it names has a field \"%s\""), expression, field);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * cs_event_filter_set_expression:
 * @self: a filter
 * @document: (nullable): the recording whose event formats the expression
 *   names; may be %NULL only with a %NULL @expression
 * @expression: (nullable): an expression in libtraceevent's filter syntax
 *   (`system/event: field op value && ...`, several events separated by
 *   commas), or %NULL / "" to remove it
 * @error: %CS_INDEX_ERROR_UNSUPPORTED with libtraceevent's own message
 *   naming what is wrong (an unknown event, field or operator) when the
 *   expression does not compile; the filter is then unchanged
 *
 * Returns: %TRUE when the expression was set
 */
gboolean
cs_event_filter_set_expression (CsEventFilter *self,
                                CsDocument    *document,
                                const char    *expression,
                                GError       **error)
{
  struct tep_event_filter *compiled;
  struct tep_handle *tep;
  CsTraceFile *file;
  enum tep_errno err;

  if (expression == NULL || *expression == '\0')
    {
      g_clear_pointer (&self->expression, g_free);
      g_clear_pointer (&self->compiled, compiled_unref);
      g_clear_object (&self->document);
      return TRUE;
    }
  g_return_val_if_fail (CS_IS_DOCUMENT (document), FALSE);

  file = cs_document_get_trace_file (document);
  if (file == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("The recording %s cannot be read to check the filter"),
                   cs_document_get_trace_path (document));
      return FALSE;
    }
  tep = cs_trace_file_get_tep (file);
  if (!check_expression (tep, expression, error))
    return FALSE;

  /* The filter parser is libtraceevent's format tokenizer (see the lock). */
  g_mutex_lock (cs_tracedat_reader_get_parse_lock ());
  compiled = tep_filter_alloc (tep);
  err = tep_filter_add_filter_str (compiled, expression);
  if (err < 0)
    {
      char buf[512] = "";

      tep_filter_strerror (compiled, err, buf, sizeof buf);
      g_mutex_unlock (cs_tracedat_reader_get_parse_lock ());
      tep_filter_free (compiled);
      /* libtraceevent reports some syntax errors as an allocation
       * failure: say what the syntax is instead. */
      if (*buf == '\0' || strstr (buf, "alloc") != NULL)
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                     _("Bad filter \"%s\": write it as system/event: condition, and separate "
                     "several with commas, each with its own condition"), expression);
      else
        g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                     _("Bad filter \"%s\": %s"), expression, buf);
      return FALSE;
    }
  g_mutex_unlock (cs_tracedat_reader_get_parse_lock ());

  g_clear_pointer (&self->compiled, compiled_unref);
  g_set_object (&self->document, document);
  self->compiled = compiled_new (compiled);
  g_free (self->expression);
  self->expression = g_strdup (expression);
  return TRUE;
}

/** cs_event_filter_get_expression: Returns: (nullable): the expression */
const char *
cs_event_filter_get_expression (CsEventFilter *self)
{
  return self->expression;
}

static gboolean
passes_set (CsEventFilter *self,
            CsFilterField  field,
            gint64         value)
{
  switch (self->modes[field])
    {
    case CS_FILTER_SHOW_ONLY:
      return g_hash_table_contains (self->sets[field], &value);
    case CS_FILTER_HIDE:
      return !g_hash_table_contains (self->sets[field], &value);
    case CS_FILTER_ALL:
    default:
      return TRUE;
    }
}

/*
 * _cs_event_filter_matches_sets:
 *
 * The CPU, pid and type part of the filter, which needs nothing but the
 * index.  Any thread.
 */
gboolean
_cs_event_filter_matches_sets (CsEventFilter *self,
                               guint          cpu,
                               gint32         pid,
                               guint          type_id)
{
  return passes_set (self, CS_FILTER_CPU, cpu) &&
         passes_set (self, CS_FILTER_PID, pid) &&
         passes_set (self, CS_FILTER_TYPE, type_id);
}

/*
 * _cs_event_filter_matches_record:
 *
 * The expression part, on a record read from the recording with the same
 * formats as the expression was compiled against.
 *
 * Only in the thread that compiles expressions against the same
 * tep_handle, or against none: libtraceevent 1.7 keeps its tokenizer in
 * the tep_handle, and tep_filter_match() resets it (filter_init_error_buf()
 * in parse-filter.c), so a match in one thread while another compiles
 * makes that compile fail with "Syntax error".  A worker thread compiles
 * its own filter against its own document (cs-event-list-count.c).
 */
gboolean
_cs_event_filter_matches_record (CsEventFilter     *self,
                                 struct tep_record *record)
{
  if (self->compiled == NULL)
    return TRUE;
  return tep_filter_match (self->compiled->filter, record) == TEP_ERRNO__FILTER_MATCH;
}

/*
 * _cs_event_filter_has_expression:
 */
gboolean
_cs_event_filter_has_expression (CsEventFilter *self)
{
  return self->compiled != NULL;
}

/**
 * cs_event_filter_matches_event:
 * @self: a filter
 * @event: an event of the document the expression was set with
 *
 * Tests one event, reading it from the recording when an expression is
 * set (slow: views filter many events with #CsEventList instead).  Main
 * thread (uses the document's recording).
 *
 * Returns: whether the event passes
 */
gboolean
cs_event_filter_matches_event (CsEventFilter *self,
                               const CsEvent *event)
{
  CsTraceFile *file;
  CsRecord rec;

  if (!_cs_event_filter_matches_sets (self, event->cpu, event->pid, event->type_id))
    return FALSE;
  if (self->compiled == NULL)
    return TRUE;
  file = cs_document_get_trace_file (self->document);
  if (file == NULL || !cs_trace_file_read_at (file, event->cpu, event->offset, &rec, NULL))
    return FALSE;
  return _cs_event_filter_matches_record (self, rec.tep_record);
}

static const char *field_keys[CS_FILTER_N_FIELDS] = { "cpu", "pid", "type" };
static const char *mode_names[] = { "all", "show-only", "hide" };

/**
 * cs_event_filter_to_string:
 * @self: a filter
 *
 * Serialises the filter for sessions, as a GVariant text
 * (`{'cpu': <('show-only', [0, 1])>, ..., 'expression': <'...'>}`).
 * Event types are written as "system:name" so that the text survives a
 * rebuilt index.
 *
 * Returns: (transfer full): the text
 */
char *
cs_event_filter_to_string (CsEventFilter *self)
{
  g_auto(GVariantBuilder) dict = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);

  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    {
      g_autoptr(GArray) values = cs_event_filter_dup_values (self, f);
      g_auto(GVariantBuilder) list = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("as"));

      for (guint i = 0; i < values->len; i++)
        {
          gint64 v = g_array_index (values, gint64, i);
          g_autofree char *text = NULL;

          if (f == CS_FILTER_TYPE && self->document != NULL &&
              v >= 0 && v < cs_document_get_n_event_types (self->document))
            {
              const CsEventType *t = cs_document_get_event_type (self->document, v);
              text = g_strdup_printf ("%s:%s", t->system, t->name);
            }
          else
            text = g_strdup_printf ("%" G_GINT64_FORMAT, v);
          g_variant_builder_add (&list, "s", text);
        }
      g_variant_builder_add (&dict, "{sv}", field_keys[f],
                             g_variant_new ("(sas)", mode_names[self->modes[f]], &list));
    }
  if (self->expression != NULL)
    g_variant_builder_add (&dict, "{sv}", "expression", g_variant_new_string (self->expression));
  if (self->stream_mode != CS_FILTER_ALL)
    {
      g_auto(GVariantBuilder) list = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("as"));
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, self->streams);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_variant_builder_add (&list, "s", key);
      g_variant_builder_add (&dict, "{sv}", "streams",
                             g_variant_new ("(sas)", mode_names[self->stream_mode], &list));
    }
  return g_variant_print (g_variant_builder_end (&dict), FALSE);
}

static gboolean
parse_type (CsDocument *document,
            const char *text,
            gint64     *id)
{
  const char *colon = strchr (text, ':');

  if (colon == NULL)
    return g_ascii_string_to_signed (text, 10, 0, G_MAXINT32, id, NULL);
  for (guint t = 0; document != NULL && t < cs_document_get_n_event_types (document); t++)
    {
      const CsEventType *type = cs_document_get_event_type (document, t);

      if (strncmp (type->system, text, colon - text) == 0 &&
          type->system[colon - text] == '\0' && g_str_equal (type->name, colon + 1))
        {
          *id = t;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * cs_event_filter_new_from_string:
 * @document: the recording the filter is for
 * @text: from cs_event_filter_to_string()
 * @error: %CS_INDEX_ERROR_UNSUPPORTED naming what cannot be read back (bad
 *   syntax, an event type the recording lacks, a bad expression)
 *
 * Returns: (transfer full): the filter, or %NULL with @error set
 */
CsEventFilter *
cs_event_filter_new_from_string (CsDocument  *document,
                                 const char  *text,
                                 GError     **error)
{
  g_autoptr(CsEventFilter) self = cs_event_filter_new ();
  g_autoptr(GVariant) dict = NULL;
  g_autoptr(GError) parse_error = NULL;
  const char *expression = NULL;

  dict = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, &parse_error);
  if (dict == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                   _("Not a saved filter: %s"), parse_error->message);
      return NULL;
    }

  for (guint f = 0; f < CS_FILTER_N_FIELDS; f++)
    {
      g_autoptr(GVariant) entry = g_variant_lookup_value (dict, field_keys[f], G_VARIANT_TYPE ("(sas)"));
      g_autoptr(GVariantIter) values = NULL;
      const char *mode, *value;

      if (entry == NULL)
        continue;
      g_variant_get (entry, "(&sas)", &mode, &values);
      for (guint m = 0; m < G_N_ELEMENTS (mode_names); m++)
        if (g_str_equal (mode, mode_names[m]))
          self->modes[f] = m;
      while (g_variant_iter_next (values, "&s", &value))
        {
          gint64 v;

          if (f == CS_FILTER_TYPE ? !parse_type (document, value, &v)
                                  : !g_ascii_string_to_signed (value, 10, G_MININT32, G_MAXINT32, &v, NULL))
            {
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED,
                           _("The saved filter names %s \"%s\", which this recording does not have"),
                           field_keys[f], value);
              return NULL;
            }
          cs_event_filter_add (self, f, v);
        }
    }
  {
    g_autoptr(GVariant) entry = g_variant_lookup_value (dict, "streams", G_VARIANT_TYPE ("(sas)"));
    g_autoptr(GVariantIter) values = NULL;
    const char *mode, *value;

    if (entry != NULL)
      {
        g_variant_get (entry, "(&sas)", &mode, &values);
        for (guint m = 0; m < G_N_ELEMENTS (mode_names); m++)
          if (g_str_equal (mode, mode_names[m]))
            self->stream_mode = m;
        while (g_variant_iter_next (values, "&s", &value))
          cs_event_filter_add_stream (self, value);
      }
  }
  g_variant_lookup (dict, "expression", "&s", &expression);
  if (expression != NULL && !cs_event_filter_set_expression (self, document, expression, error))
    return NULL;
  /* Types are written by name: keep the document to write them back. */
  if (self->document == NULL && document != NULL)
    self->document = g_object_ref (document);
  return g_steal_pointer (&self);
}

/* ---- Several streams ------------------------------------------------------ */

/**
 * cs_event_filter_set_stream_mode:
 * @self: a filter
 * @mode: how the set of streams is used
 *
 * The stream dimension, for lists of several recordings
 * (cs_event_list_new_for_streams()): with %CS_FILTER_SHOW_ONLY only the
 * events of the streams added with cs_event_filter_add_stream() pass, with
 * %CS_FILTER_HIDE theirs do not.  A list of one recording ignores it.
 */
void
cs_event_filter_set_stream_mode (CsEventFilter *self,
                                 CsFilterMode   mode)
{
  g_return_if_fail (CS_IS_EVENT_FILTER (self));
  self->stream_mode = mode;
}

/** cs_event_filter_get_stream_mode: Returns: how the set of streams is used */
CsFilterMode
cs_event_filter_get_stream_mode (CsEventFilter *self)
{
  g_return_val_if_fail (CS_IS_EVENT_FILTER (self), CS_FILTER_ALL);
  return self->stream_mode;
}

/**
 * cs_event_filter_add_stream:
 * @self: a filter
 * @trace_path: the stream's recording (cs_stream_get_path()): a path
 *   survives reordering and sessions, a position would not
 */
void
cs_event_filter_add_stream (CsEventFilter *self,
                            const char    *trace_path)
{
  g_return_if_fail (CS_IS_EVENT_FILTER (self) && trace_path != NULL);
  g_hash_table_add (self->streams, g_strdup (trace_path));
}

/**
 * cs_event_filter_clear_streams:
 * @self: a filter
 *
 * Empties the set of the stream dimension (its mode stays).
 */
void
cs_event_filter_clear_streams (CsEventFilter *self)
{
  g_return_if_fail (CS_IS_EVENT_FILTER (self));
  g_hash_table_remove_all (self->streams);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * cs_event_filter_dup_streams:
 * @self: a filter
 *
 * Returns: (transfer full): the recording paths of the stream dimension,
 *   sorted
 */
GStrv
cs_event_filter_dup_streams (CsEventFilter *self)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (CS_IS_EVENT_FILTER (self), NULL);
  g_hash_table_iter_init (&iter, self->streams);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (paths, g_strdup (key));
  g_ptr_array_sort (paths, compare_paths);
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}

/**
 * cs_event_filter_passes_stream:
 * @self: a filter
 * @trace_path: a stream's recording
 *
 * Returns: whether the stream dimension lets that stream's events through
 */
gboolean
cs_event_filter_passes_stream (CsEventFilter *self,
                               const char    *trace_path)
{
  g_return_val_if_fail (CS_IS_EVENT_FILTER (self), TRUE);
  switch (self->stream_mode)
    {
    case CS_FILTER_SHOW_ONLY:
      return g_hash_table_contains (self->streams, trace_path);
    case CS_FILTER_HIDE:
      return !g_hash_table_contains (self->streams, trace_path);
    case CS_FILTER_ALL:
    default:
      return TRUE;
    }
}

/**
 * cs_event_filter_translate:
 * @self: a filter whose event types are those of @from
 * @from: the recording its type ids (and expression) were made for
 * @to: another recording
 * @error: %CS_INDEX_ERROR_UNSUPPORTED when the expression does not
 *   compile against @to's formats (it names an event @to lacks)
 *
 * The same filter for the events of @to: CPUs and pids as they are, event
 * types matched by "system:name" (types @to lacks are dropped: a "show
 * only" set keeps only those it has), the expression compiled against
 * @to's formats; the stream dimension is left out (it chose @to already).
 *
 * Returns: (transfer full) (nullable): the filter, or %NULL with @error
 */
CsEventFilter *
cs_event_filter_translate (CsEventFilter  *self,
                           CsDocument     *from,
                           CsDocument     *to,
                           GError        **error)
{
  g_autoptr(CsEventFilter) copy = NULL;
  g_autoptr(GHashTable) ids = NULL;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (CS_IS_EVENT_FILTER (self), NULL);
  g_return_val_if_fail (CS_IS_DOCUMENT (from) && CS_IS_DOCUMENT (to), NULL);

  copy = cs_event_filter_copy (self);
  copy->stream_mode = CS_FILTER_ALL;
  g_hash_table_remove_all (copy->streams);
  if (from != to)
    {
      /* "system:name" → id + 1 in @to */
      ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint t = 0; t < cs_document_get_n_event_types (to); t++)
        {
          const CsEventType *type = cs_document_get_event_type (to, t);

          g_hash_table_insert (ids, g_strdup_printf ("%s:%s", type->system, type->name),
                               GUINT_TO_POINTER (t + 1));
        }
      g_hash_table_remove_all (copy->sets[CS_FILTER_TYPE]);
      g_hash_table_iter_init (&iter, self->sets[CS_FILTER_TYPE]);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          gint64 v = *(gint64 *) key;
          const CsEventType *type = v >= 0 && v < cs_document_get_n_event_types (from)
                                    ? cs_document_get_event_type (from, v) : NULL;
          g_autofree char *name = type ? g_strdup_printf ("%s:%s", type->system, type->name) : NULL;
          guint id = name ? GPOINTER_TO_UINT (g_hash_table_lookup (ids, name)) : 0;

          if (id != 0)
            cs_event_filter_add (copy, CS_FILTER_TYPE, id - 1);
        }
    }
  if (self->expression != NULL && from != to &&
      !cs_event_filter_set_expression (copy, to, self->expression, error))
    return NULL;
  return g_steal_pointer (&copy);
}
