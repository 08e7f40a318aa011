/* cs-plugin-document.c: a recording as plugins see it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Wraps a CsDocument for the plugins enabled on it.  The public functions
 * (cs-plugin-document.h) answer from the index; the host's functions
 * (cs-plugin-document-private.h) enable and disable plugins, which opens
 * and closes their instances, and keep their pass results.
 *
 * A pass's results live in one SQLite file per plugin, pass, pass version
 * and parameter, next to the recording's index and named after it
 * (`<index>.<plugin>.<pass>.<hash>.cspass`), so that deleting the cache
 * folder deletes them too.  The file records what wrote it (table
 * chronoscope_pass: plugin, pass, version, parameter, the recording's
 * identity and the index's schema); a file that says otherwise is never
 * read, and the pass runs again.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-plugin-document-private.h"

typedef struct {
  CsPlugin *plugin;
  gpointer instance;
} Slot;

struct _CsPluginDocument
{
  gatomicrefcount ref_count;
  CsDocument *document;
  GArray *slots;                  /* Slot, in the order plugins were enabled */
  GHashTable *pass_dbs;           /* pass key -> sqlite3 * */
  const CsPluginPassScheduler *scheduler;
  gpointer scheduler_data;
  CsRecord record;                /* of the last cs_plugin_document_read_event() */
  GHashTable *wanted_types;       /* type names joined -> gboolean[] by type id */
  CsStream *stream;               /* (nullable) among other recordings: cs-plugin-document-streams.c */
  CsStreamSet *own_set;           /* (nullable) the set the command line made for it */
  /* The last two formats of the records read, newest first
   * (_cs_plugin_document_describe_record()), and the recording they
   * belong to (a reference: its formats live as long as it). */
  struct tep_event *formats[2];
  CsTraceFile *formats_file;
  /* formats_file's common fields when they have the usual layout (an
   * unsigned 2-byte common_type, a 4-byte common_pid, in this machine's
   * byte order): read without libtraceevent's calls per record
   * (common_end: the bytes a record needs for both; 0: not known yet,
   * G_MAXUINT32: another layout, read through libtraceevent). */
  guint32 common_type_at, common_pid_at, common_end;
  GArray *events;                 /* CsEvent: cs-plugin-document-events.c's list, kept */
};

static char *
pass_key (CsPlugin   *plugin,
          const char *pass,
          const char *param)
{
  return g_strdup_printf ("%s\x1f%s\x1f%s", plugin->id, pass, param != NULL ? param : "");
}

static void
close_db (gpointer db)
{
  sqlite3_close_v2 (db);
}

/**
 * _cs_plugin_document_new:
 * @document: an open recording
 *
 * Returns: (transfer full): a wrapper with no plugin enabled
 */
CsPluginDocument *
_cs_plugin_document_new (CsDocument *document)
{
  CsPluginDocument *self = g_new0 (CsPluginDocument, 1);

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);

  g_atomic_ref_count_init (&self->ref_count);
  self->document = g_object_ref (document);
  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->pass_dbs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, close_db);
  self->wanted_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

CsPluginDocument *
cs_plugin_document_ref (CsPluginDocument *document)
{
  g_return_val_if_fail (document != NULL, NULL);
  g_atomic_ref_count_inc (&document->ref_count);
  return document;
}

void
cs_plugin_document_unref (CsPluginDocument *document)
{
  if (document == NULL || !g_atomic_ref_count_dec (&document->ref_count))
    return;
  _cs_plugin_document_close (document);
  g_array_unref (document->slots);
  g_hash_table_unref (document->pass_dbs);
  g_hash_table_unref (document->wanted_types);
  g_clear_object (&document->stream);
  g_clear_object (&document->own_set);
  g_clear_pointer (&document->events, g_array_unref);
  g_clear_object (&document->formats_file);
  g_object_unref (document->document);
  g_free (document);
}

/**
 * _cs_plugin_document_set_stream:
 * @self: a document
 * @stream: (nullable): @self's recording as a stream of a set (its
 *   document is @self's), or %NULL for a recording alone
 * @set: (nullable): a set to keep alive with @self (the command line's,
 *   which nothing else holds), or %NULL when the window keeps it
 *
 * Puts the recording among others, for what plugins ask across
 * recordings (cs_plugin_document_get_vcpu_out()).  Main thread.
 */
void
_cs_plugin_document_set_stream (CsPluginDocument *self,
                                CsStream         *stream,
                                CsStreamSet      *set)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (stream == NULL || cs_stream_get_document (stream) == self->document);

  g_set_object (&self->stream, stream);
  g_set_object (&self->own_set, set);
}

/**
 * _cs_plugin_document_get_stream:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): what _cs_plugin_document_set_stream() set
 */
CsStream *
_cs_plugin_document_get_stream (CsPluginDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->stream;
}

/**
 * _cs_plugin_document_get_stream_set:
 * @self: a document
 *
 * Returns: (transfer none) (nullable): the set given to
 *   _cs_plugin_document_set_stream() to keep
 */
CsStreamSet *
_cs_plugin_document_get_stream_set (CsPluginDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->own_set;
}

/**
 * _cs_plugin_document_close:
 * @self: a document
 *
 * Disables every plugin (their close hooks run, newest first) and closes
 * the pass databases; the document stays usable with no plugin.
 */
void
_cs_plugin_document_close (CsPluginDocument *self)
{
  while (self->slots->len > 0)
    _cs_plugin_document_disable (self, g_array_index (self->slots, Slot, self->slots->len - 1).plugin);
  g_hash_table_remove_all (self->pass_dbs);
}

CsDocument *
_cs_plugin_document_get_document (CsPluginDocument *self)
{
  return self->document;
}

/**
 * _cs_plugin_document_set_scheduler:
 * @self: a document
 * @scheduler: (nullable): how to run passes; %NULL runs them in the
 *   calling thread
 * @data: its closure
 */
void
_cs_plugin_document_set_scheduler (CsPluginDocument            *self,
                                   const CsPluginPassScheduler *scheduler,
                                   gpointer                     data)
{
  self->scheduler = scheduler;
  self->scheduler_data = data;
}

static Slot *
find_slot (CsPluginDocument *self,
           CsPlugin         *plugin)
{
  for (guint i = 0; i < self->slots->len; i++)
    if (g_array_index (self->slots, Slot, i).plugin == plugin)
      return &g_array_index (self->slots, Slot, i);
  return NULL;
}

/**
 * _cs_plugin_document_enable:
 * @self: a document
 * @plugin: a loaded plugin
 * @error: what the plugin's open hook reported (%CS_PLUGIN_ERROR_FAILED
 *   when it gave no error)
 *
 * Opens the plugin's instance for the recording.  Its passes are not
 * started here: see _cs_plugin_document_request_automatic_passes().
 *
 * Returns: %TRUE when enabled (or enabled already)
 */
gboolean
_cs_plugin_document_enable (CsPluginDocument  *self,
                            CsPlugin          *plugin,
                            GError           **error)
{
  Slot slot = { plugin, NULL };

  if (find_slot (self, plugin) != NULL)
    return TRUE;
  if (plugin->document_hooks.open != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      slot.instance = plugin->document_hooks.open (plugin, self, &local_error);
      if (local_error != NULL)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("The plugin “%s” cannot show this recording: %s"),
                       plugin->name, local_error->message);
          return FALSE;
        }
    }
  g_array_append_val (self->slots, slot);
  return TRUE;
}

static gboolean
remove_plugin_dbs (gpointer key,
                   gpointer value,
                   gpointer user_data)
{
  CsPlugin *plugin = user_data;
  gsize len = strlen (plugin->id);

  return strncmp (key, plugin->id, len) == 0 && ((const char *) key)[len] == '\x1f';
}

/**
 * _cs_plugin_document_disable:
 * @self: a document
 * @plugin: a plugin
 *
 * Closes the plugin's instance and its pass databases, if it was enabled.
 */
void
_cs_plugin_document_disable (CsPluginDocument *self,
                             CsPlugin         *plugin)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot slot = g_array_index (self->slots, Slot, i);

      if (slot.plugin != plugin)
        continue;
      g_array_remove_index (self->slots, i);
      /* The instance's statements go before its databases. */
      if (plugin->document_hooks.close != NULL)
        plugin->document_hooks.close (slot.instance);
      g_hash_table_foreach_remove (self->pass_dbs, remove_plugin_dbs, plugin);
      return;
    }
}

gboolean
_cs_plugin_document_is_enabled (CsPluginDocument *self,
                                CsPlugin         *plugin)
{
  return find_slot (self, plugin) != NULL;
}

/**
 * _cs_plugin_document_get_plugins:
 * @self: a document
 *
 * Returns: (transfer container) (element-type CsPlugin): the enabled
 *   plugins, in the order they were enabled
 */
GPtrArray *
_cs_plugin_document_get_plugins (CsPluginDocument *self)
{
  GPtrArray *plugins = g_ptr_array_sized_new (self->slots->len);

  for (guint i = 0; i < self->slots->len; i++)
    g_ptr_array_add (plugins, g_array_index (self->slots, Slot, i).plugin);
  return plugins;
}

gpointer
cs_plugin_document_get_instance (CsPluginDocument *document,
                                 CsPlugin         *plugin)
{
  Slot *slot;

  g_return_val_if_fail (document != NULL && plugin != NULL, NULL);
  slot = find_slot (document, plugin);
  return slot != NULL ? slot->instance : NULL;
}

/**
 * _cs_plugin_document_get_wanted_types:
 * @self: a document
 *
 * Returns: (transfer none): the cache of cs-plugin-document-events.c:
 *   the event types a list of type names selects, by the names joined
 */
GHashTable *
_cs_plugin_document_get_wanted_types (CsPluginDocument *self)
{
  return self->wanted_types;
}

/* _cs_plugin_document_describe_record() of a record whose common_type
 * and common_pid were read already. */
static void
describe (struct tep_handle  *tep,
          guint               cpu,
          guint64             row,
          gint64              ts_ns,
          struct tep_record  *record,
          struct tep_event   *formats[2],
          int                 type,
          int                 pid,
          CsPluginEvent      *event)
{
  memset (event, 0, sizeof *event);
  event->ts_ns = ts_ns;
  event->cpu = cpu;
  event->row = row;
  event->tep = tep;
  event->record = record;
  event->pid = pid;
  if (formats == NULL)
    event->format = tep_find_event (tep, type);
  else if (formats[0] != NULL && formats[0]->id == type)
    event->format = formats[0];
  else
    {
      event->format = formats[1] != NULL && formats[1]->id == type
                      ? formats[1] : tep_find_event (tep, type);
      if (event->format != NULL)
        {
          formats[1] = formats[0];
          formats[0] = event->format;
        }
    }
  event->system = event->format != NULL ? event->format->system : "unknown";
  event->name = event->format != NULL ? event->format->name : "unknown";
}

/* Where the records of @format's recording keep common_type and
 * common_pid, when it is the usual layout (the common fields are the
 * same in every format: any one tells); self->common_end G_MAXUINT32
 * otherwise. */
static void
find_common_layout (CsPluginDocument  *self,
                    struct tep_handle *tep,
                    struct tep_event  *format)
{
  struct tep_format_field *ft = tep_find_common_field (format, "common_type");
  struct tep_format_field *fp = tep_find_common_field (format, "common_pid");

  self->common_end = G_MAXUINT32;
  if (ft != NULL && fp != NULL && ft->size == 2 && !(ft->flags & TEP_FIELD_IS_SIGNED) &&
      fp->size == 4 && ft->offset >= 0 && fp->offset >= 0 &&
      tep_is_file_bigendian (tep) == tep_is_local_bigendian (tep))
    {
      self->common_type_at = (guint32) ft->offset;
      self->common_pid_at = (guint32) fp->offset;
      self->common_end = MAX (self->common_type_at + 2, self->common_pid_at + 4);
    }
}

/**
 * _cs_plugin_document_fill_event:
 * @self: a document
 * @cpu: the event's CPU
 * @row: its row among the CPU's events
 * @offset: its record's offset (from the index)
 * @ts_ns: (nullable): its time as the index holds it, or %NULL: with a
 *   time, the record is read without walking its page up to it
 *   (cs_trace_file_peek_at())
 * @event: (out caller-allocates): the event, borrowing the document's
 *   record until the next call
 * @error: %CS_PLUGIN_ERROR_FAILED when the record cannot be read
 *
 * Reads a record and describes it as plugins see events.
 */
gboolean
_cs_plugin_document_fill_event (CsPluginDocument  *self,
                                guint              cpu,
                                guint64            row,
                                guint64            offset,
                                const gint64      *ts_ns,
                                CsPluginEvent     *event,
                                GError           **error)
{
  CsTraceFile *file = cs_document_get_trace_file (self->document);
  g_autoptr(GError) local_error = NULL;
  struct tep_handle *tep;

  if (file == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("The recording “%s” can no longer be read"),
                   cs_document_get_trace_path (self->document));
      return FALSE;
    }
  if (ts_ns != NULL ? !cs_trace_file_peek_at (file, cpu, offset, *ts_ns, &self->record,
                                              &local_error)
                    : !cs_trace_file_read_at (file, cpu, offset, &self->record, &local_error))
    return _cs_plugin_failed (error, local_error);
  tep = cs_trace_file_get_tep (file);
  if (file != self->formats_file)
    {
      self->formats[0] = self->formats[1] = NULL;
      self->common_end = 0;
      g_set_object (&self->formats_file, file);
    }
  if (self->common_end != 0 && self->common_end != G_MAXUINT32 &&
      self->record.tep_record->size >= 0 &&
      (guint32) self->record.tep_record->size >= self->common_end)
    {
      const guint8 *data = self->record.tep_record->data;
      guint16 type;
      gint32 pid;

      /* What tep_data_type() and tep_data_pid() would read. */
      memcpy (&type, data + self->common_type_at, sizeof type);
      memcpy (&pid, data + self->common_pid_at, sizeof pid);
      describe (tep, cpu, row, self->record.ts_ns, self->record.tep_record, self->formats, type,
                pid, event);
      return TRUE;
    }
  _cs_plugin_document_describe_record (tep, cpu, row, self->record.ts_ns,
                                       self->record.tep_record, self->formats, event);
  if (self->common_end == 0 && event->format != NULL)
    find_common_layout (self, tep, event->format);
  return TRUE;
}

/**
 * _cs_plugin_document_get_events:
 * @self: a document
 *
 * Returns: (transfer none) (element-type CsEvent): an empty array that
 *   cs-plugin-document-events.c lists a span's events in, kept from one
 *   call to the next so that a pair explained span after span does not
 *   grow (and fault in) a new one each time
 */
GArray *
_cs_plugin_document_get_events (CsPluginDocument *self)
{
  if (self->events == NULL)
    self->events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_array_set_size (self->events, 0);
  return self->events;
}

/**
 * _cs_plugin_document_describe_record:
 * @tep: the recording's formats (cs_trace_file_get_tep())
 * @cpu: the event's CPU
 * @row: its row among the CPU's events
 * @ts_ns: its time, ns
 * @record: its record, borrowed by @event
 * @formats: (nullable): the caller's cache of the last two formats
 *   found, newest first, both %NULL at first; for a caller describing
 *   many records of few types in turn (a pass), which spares
 *   tep_find_event()'s search (it remembers only one)
 * @event: (out caller-allocates): the event as plugins see it
 *
 * Describes a record read already.  Any thread (one @tep per thread).
 */
void
_cs_plugin_document_describe_record (struct tep_handle  *tep,
                                     guint               cpu,
                                     guint64             row,
                                     gint64              ts_ns,
                                     struct tep_record  *record,
                                     struct tep_event   *formats[2],
                                     CsPluginEvent      *event)
{
  describe (tep, cpu, row, ts_ns, record, formats, tep_data_type (tep, record),
            tep_data_pid (tep, record), event);
}

gboolean
cs_plugin_document_read_event (CsPluginDocument        *document,
                               const CsPluginEventRef  *ref,
                               CsPluginEvent           *event,
                               GError                 **error)
{
  g_autoptr(GError) local_error = NULL;
  CsEvent ev;

  g_return_val_if_fail (document != NULL && ref != NULL && event != NULL, FALSE);

  if (!cs_document_get_event_at_row (document->document, ref->cpu, ref->row, &ev, &local_error))
    return _cs_plugin_failed (error, local_error);
  return _cs_plugin_document_fill_event (document, ref->cpu, ref->row, ev.offset, NULL, event,
                                         error);
}

/**
 * _cs_plugin_document_describe_event:
 * @self: a document
 * @ref: an event of the list
 *
 * Returns: (transfer full) (nullable): what the enabled plugins say of
 *   @ref, joined with " · ", or %NULL when none says anything
 */
char *
_cs_plugin_document_describe_event (CsPluginDocument       *self,
                                    const CsPluginEventRef *ref)
{
  g_autoptr(GString) text = NULL;

  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *slot = &g_array_index (self->slots, Slot, i);
      g_autofree char *part = NULL;

      if (slot->plugin->document_hooks.describe_event == NULL)
        continue;
      part = slot->plugin->document_hooks.describe_event (slot->instance, ref);
      if (part == NULL || *part == '\0')
        continue;
      if (text == NULL)
        text = g_string_new (part);
      else
        g_string_append_printf (text, "  ·  %s", part);
    }
  return text != NULL ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Pass results                                                              */

/**
 * _cs_plugin_document_dup_pass_path:
 * @self: a document
 * @plugin: a plugin
 * @info: one of its passes
 * @param: (nullable): the pass's parameter
 *
 * Returns: (transfer full): where the pass's results for @param live
 */
char *
_cs_plugin_document_dup_pass_path (CsPluginDocument       *self,
                                   CsPlugin               *plugin,
                                   const CsPluginPassInfo *info,
                                   const char             *param)
{
  const char *index_path = cs_document_get_index_path (self->document);
  g_autofree char *base = g_str_has_suffix (index_path, ".csindex")
                          ? g_strndup (index_path, strlen (index_path) - strlen (".csindex"))
                          : g_strdup (index_path);
  g_autoptr(GString) what = g_string_new (NULL);
  g_autofree char *hash = NULL;

  /* NULs between the parts keep "a" + "bc" apart from "ab" + "c". */
  g_string_append_printf (what, "%s%c%s%c%u%c%s", plugin->id, 0, info->name, 0,
                          info->version, 0, param != NULL ? param : "");
  hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) what->str, what->len);
  hash[16] = '\0';
  return g_strdup_printf ("%s.%s.%s.%s.cspass", base, plugin->id, info->name, hash);
}

/**
 * _cs_plugin_document_pass_db_matches:
 * @self: a document
 * @db: a pass database open for reading
 * @plugin: a plugin
 * @info: one of its passes
 * @param: (nullable): the pass's parameter
 *
 * Returns: whether @db says it holds @info's results (this version) for
 *   @param of this recording and this index schema
 */
gboolean
_cs_plugin_document_pass_db_matches (CsPluginDocument       *self,
                                     sqlite3                *db,
                                     CsPlugin               *plugin,
                                     const CsPluginPassInfo *info,
                                     const char             *param)
{
  sqlite3_stmt *s = NULL;
  g_autofree char *version = g_strdup_printf ("%u", info->version);
  g_autofree char *schema = g_strdup_printf ("%d", CS_INDEX_SCHEMA_VERSION);
  const char *expected[][2] = {
    { "plugin", plugin->id },
    { "pass", info->name },
    { "version", version },
    { "param", param != NULL ? param : "" },
    { "identity", cs_document_get_identity (self->document) },
    { "index_schema", schema },
  };
  guint n_matched = 0;
  int user_version = -1;

  if (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK &&
      sqlite3_step (s) == SQLITE_ROW)
    user_version = sqlite3_column_int (s, 0);
  sqlite3_finalize (s);
  if (user_version != CS_PLUGIN_PASS_DB_FORMAT)
    return FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT key, value FROM chronoscope_pass", -1, &s, NULL) != SQLITE_OK)
    return FALSE;
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      const char *key = (const char *) sqlite3_column_text (s, 0);
      const char *value = (const char *) sqlite3_column_text (s, 1);

      for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
        if (g_strcmp0 (key, expected[i][0]) == 0)
          {
            if (g_strcmp0 (value, expected[i][1]) != 0)
              {
                sqlite3_finalize (s);
                return FALSE;
              }
            n_matched++;
          }
    }
  sqlite3_finalize (s);
  return n_matched == G_N_ELEMENTS (expected);
}

/* Opens the pass's database read-only if it holds the right results
 * (%NULL, @error unset, if not), and calls the pass's prepare on it
 * (%NULL with @error set when it fails). */
static sqlite3 *
open_pass_db (CsPluginDocument        *self,
              CsPlugin                *plugin,
              const CsPluginPassInfo  *info,
              const char              *param,
              GError                 **error)
{
  g_autofree char *path = _cs_plugin_document_dup_pass_path (self, plugin, info, param);
  sqlite3 *db = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
      !_cs_plugin_document_pass_db_matches (self, db, plugin, info, param))
    {
      g_debug ("Pass results %s are not this recording's or this version's: ignored", path);
      sqlite3_close_v2 (db);
      return NULL;
    }
  if (info->prepare != NULL && !info->prepare (db, error))
    {
      g_prefix_error (error,
                      _("Cannot read the results of the pass “%s” of the plugin “%s” in %s: "),
                      info->name, plugin->id, path);
      if (error != NULL && *error != NULL)
        {
          (*error)->domain = CS_PLUGIN_ERROR;
          (*error)->code = CS_PLUGIN_ERROR_FAILED;
        }
      sqlite3_close_v2 (db);
      return NULL;
    }
  return db;
}

static const CsPluginPassInfo *
lookup_pass (CsPluginDocument  *self,
             CsPlugin          *plugin,
             const char        *pass,
             GError           **error)
{
  const CsPluginPassInfo *info = _cs_plugin_find_pass (plugin, pass);

  if (info == NULL)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                 _("The plugin “%s” has no pass “%s”"), plugin->id, pass);
  return info;
}

sqlite3 *
cs_plugin_document_get_pass_db (CsPluginDocument  *document,
                                CsPlugin          *plugin,
                                const char        *pass,
                                const char        *param,
                                GError           **error)
{
  g_autofree char *key = NULL;
  const CsPluginPassInfo *info;
  GError *local_error = NULL;
  sqlite3 *db;

  g_return_val_if_fail (document != NULL && plugin != NULL && pass != NULL, NULL);

  key = pass_key (plugin, pass, param);
  db = g_hash_table_lookup (document->pass_dbs, key);
  if (db != NULL)
    return db;
  info = lookup_pass (document, plugin, pass, error);
  if (info == NULL)
    return NULL;
  db = open_pass_db (document, plugin, info, param, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (db == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY,
                   _("The results of the pass “%s” of the plugin “%s” are not computed yet"),
                   pass, plugin->id);
      return NULL;
    }
  g_hash_table_insert (document->pass_dbs, g_steal_pointer (&key), db);
  return db;
}

/**
 * _cs_plugin_document_pass_is_ready:
 * @self: a document
 * @plugin: a plugin
 * @pass: one of its passes
 * @param: (nullable): its parameter
 *
 * Returns: whether the pass's results exist for this recording
 */
gboolean
_cs_plugin_document_pass_is_ready (CsPluginDocument *self,
                                   CsPlugin         *plugin,
                                   const char       *pass,
                                   const char       *param)
{
  return cs_plugin_document_get_pass_db (self, plugin, pass, param, NULL) != NULL;
}

/**
 * _cs_plugin_document_pass_finished:
 * @self: a document
 * @plugin: a plugin
 * @pass: one of its passes, whose results were just written
 * @param: (nullable): its parameter
 *
 * Forgets any connection to older results and tells the plugin.  Main
 * thread.
 */
void
_cs_plugin_document_pass_finished (CsPluginDocument *self,
                                   CsPlugin         *plugin,
                                   const char       *pass,
                                   const char       *param)
{
  g_autofree char *key = pass_key (plugin, pass, param);
  Slot *slot = find_slot (self, plugin);

  g_hash_table_remove (self->pass_dbs, key);
  if (slot != NULL && plugin->document_hooks.pass_ready != NULL)
    plugin->document_hooks.pass_ready (slot->instance, pass, param);
}

typedef struct {
  CsPluginDocument *document;
  CsPlugin *plugin;
  char *pass;
  char *param;
} ReadyLater;

static gboolean
ready_later_cb (gpointer user_data)
{
  ReadyLater *r = user_data;

  if (_cs_plugin_document_is_enabled (r->document, r->plugin))
    {
      _cs_plugin_document_pass_finished (r->document, r->plugin, r->pass, r->param);
      if (r->document->scheduler != NULL && r->document->scheduler->ready != NULL)
        r->document->scheduler->ready (r->document->scheduler_data, r->document, r->plugin);
    }
  return G_SOURCE_REMOVE;
}

static void
ready_later_free (gpointer user_data)
{
  ReadyLater *r = user_data;

  cs_plugin_document_unref (r->document);
  g_free (r->pass);
  g_free (r->param);
  g_free (r);
}

void
cs_plugin_document_request_pass (CsPluginDocument *document,
                                 CsPlugin         *plugin,
                                 const char       *pass,
                                 const char       *param)
{
  ReadyLater *r;

  g_return_if_fail (document != NULL && plugin != NULL && pass != NULL);

  if (!_cs_plugin_document_pass_is_ready (document, plugin, pass, param) &&
      document->scheduler != NULL)
    {
      document->scheduler->request (document->scheduler_data, document, plugin, pass, param);
      return;
    }
  if (!_cs_plugin_document_pass_is_ready (document, plugin, pass, param))
    {
      g_autoptr(GError) error = NULL;

      if (!cs_plugin_document_ensure_pass (document, plugin, pass, param, NULL, &error))
        {
          g_warning ("%s", error->message);
          return;
        }
    }
  r = g_new0 (ReadyLater, 1);
  r->document = cs_plugin_document_ref (document);
  r->plugin = plugin;
  r->pass = g_strdup (pass);
  r->param = g_strdup (param);
  g_idle_add_full (G_PRIORITY_DEFAULT, ready_later_cb, r, ready_later_free);
}

gboolean
cs_plugin_document_ensure_pass (CsPluginDocument  *document,
                                CsPlugin          *plugin,
                                const char        *pass,
                                const char        *param,
                                GCancellable      *cancellable,
                                GError           **error)
{
  g_return_val_if_fail (document != NULL && plugin != NULL && pass != NULL, FALSE);

  if (lookup_pass (document, plugin, pass, error) == NULL)
    return FALSE;
  if (_cs_plugin_document_pass_is_ready (document, plugin, pass, param))
    return TRUE;
  if (document->scheduler != NULL)
    return document->scheduler->ensure (document->scheduler_data, document, plugin, pass,
                                        param, cancellable, error);
  return _cs_plugin_pass_run (document, plugin, pass, param, NULL, NULL, cancellable, NULL, error);
}

/**
 * _cs_plugin_document_request_automatic_passes:
 * @self: a document
 * @plugin: (nullable): one enabled plugin, or %NULL for all of them
 *
 * Requests the automatic passes of the enabled plugins (see
 * cs_plugin_document_request_pass()).
 */
void
_cs_plugin_document_request_automatic_passes (CsPluginDocument *self,
                                              CsPlugin         *plugin)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      CsPlugin *p = g_array_index (self->slots, Slot, i).plugin;

      if (plugin != NULL && p != plugin)
        continue;
      for (guint k = 0; k < _cs_plugin_get_n_hooks (p, CS_PLUGIN_HOOK_PASS); k++)
        {
          const CsPluginPassInfo *info = _cs_plugin_get_hook (p, CS_PLUGIN_HOOK_PASS, k);

          if (info->automatic)
            cs_plugin_document_request_pass (self, p, info->name, NULL);
        }
    }
}

/**
 * _cs_plugin_document_ensure_automatic_passes:
 * @self: a document
 * @cancellable: (nullable): stops waiting
 * @error: the first pass's failure
 *
 * Runs the automatic passes of the enabled plugins that have no results
 * yet, and waits; then tells each plugin its passes are ready.  For the
 * command line.
 *
 * Returns: %FALSE with @error set when a pass failed
 */
gboolean
_cs_plugin_document_ensure_automatic_passes (CsPluginDocument  *self,
                                             GCancellable      *cancellable,
                                             GError           **error)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      CsPlugin *p = g_array_index (self->slots, Slot, i).plugin;

      for (guint k = 0; k < _cs_plugin_get_n_hooks (p, CS_PLUGIN_HOOK_PASS); k++)
        {
          const CsPluginPassInfo *info = _cs_plugin_get_hook (p, CS_PLUGIN_HOOK_PASS, k);

          if (!info->automatic)
            continue;
          if (!cs_plugin_document_ensure_pass (self, p, info->name, NULL, cancellable, error))
            return FALSE;
          _cs_plugin_document_pass_finished (self, p, info->name, NULL);
        }
    }
  return TRUE;
}

gboolean
_cs_plugin_failed (GError       **error,
                   const GError  *cause)
{
  g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       cause != NULL ? cause->message : "");
  return FALSE;
}
