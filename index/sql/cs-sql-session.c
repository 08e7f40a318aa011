/* cs-sql-session.c: CsSqlSession, a read-only SQLite connection whose
 * tables are virtual tables over a document.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The connection is an in-memory database opened read-only: the index
 * file is never opened by it (the tables read through the document's own
 * connection), so nothing user SQL does can reach the index or the
 * recording.  On top, an authorizer allows only reading (SELECT, reads,
 * functions other than load_extension, recursive CTEs and pragmas that
 * only report) and records what it refused, so the error can say it
 * plainly instead of SQLite's "not authorized".
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-sql-private.h"
#include "cs-sql-query-private.h"

G_DEFINE_QUARK (cs-sql-error-quark, cs_sql_error)

struct _CsSqlSession
{
  GObject parent_instance;

  CsDocument *document;         /* owned; the first stream's */
  sqlite3 *db;                  /* owned */
  CsSqlContext ctx;             /* the first stream's */
  GPtrArray *documents;         /* owned: every stream's, in order */
  GPtrArray *more_contexts;     /* CsSqlContext *, owned: streams 1.. */
  GPtrArray *table_names;       /* NULL-terminated */
  GHashTable *schemas;          /* name -> CREATE TABLE text */
  GHashTable *event_tables;     /* names of the event tables (one stream) */
  char *refused;                /* what the authorizer refused last */
};

G_DEFINE_FINAL_TYPE (CsSqlSession, cs_sql_session, G_TYPE_OBJECT)

static void
cs_sql_session_finalize (GObject *object)
{
  CsSqlSession *self = CS_SQL_SESSION (object);

  /* Closing the connection destroys the modules' client data. */
  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_clear_pointer (&self->table_names, g_ptr_array_unref);
  g_clear_pointer (&self->schemas, g_hash_table_unref);
  g_clear_pointer (&self->event_tables, g_hash_table_unref);
  g_clear_pointer (&self->more_contexts, g_ptr_array_unref);
  g_clear_pointer (&self->documents, g_ptr_array_unref);
  g_clear_object (&self->document);
  g_free (self->refused);

  G_OBJECT_CLASS (cs_sql_session_parent_class)->finalize (object);
}

static void
cs_sql_session_class_init (CsSqlSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_sql_session_finalize;
}

static void
cs_sql_session_init (CsSqlSession *self)
{
  self->table_names = g_ptr_array_new_with_free_func (g_free);
  self->documents = g_ptr_array_new_with_free_func (g_object_unref);
  self->more_contexts = g_ptr_array_new_with_free_func (g_free);
  self->schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->event_tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* Pragmas that only report, whatever their argument (a table name). */
static const char * const readonly_pragmas[] = {
  "table_info", "table_xinfo", "table_list", "module_list", "function_list",
  "pragma_list", "collation_list", "compile_options", "database_list",
};

static const char *
refused_action (int action)
{
  switch (action)
    {
    case SQLITE_INSERT: return "INSERT";
    case SQLITE_UPDATE: return "UPDATE";
    case SQLITE_DELETE: return "DELETE";
    case SQLITE_ATTACH: return "ATTACH";
    case SQLITE_DETACH: return "DETACH";
    case SQLITE_PRAGMA: return _("a PRAGMA that changes settings");
    case SQLITE_TRANSACTION: return _("a transaction");
    case SQLITE_SAVEPOINT: return _("a savepoint");
    case SQLITE_ANALYZE: return "ANALYZE";
    case SQLITE_REINDEX: return "REINDEX";
    case SQLITE_ALTER_TABLE: return "ALTER TABLE";
    case SQLITE_CREATE_VTABLE: return "CREATE VIRTUAL TABLE";
    case SQLITE_DROP_VTABLE: return "DROP TABLE";
    default:
      if (action >= SQLITE_CREATE_INDEX && action <= SQLITE_DROP_VIEW)
        return _("creating or dropping tables, indexes, triggers or views");
      return _("changing the database");
    }
}

static int
authorize (void       *user_data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *db_name,
           const char *trigger)
{
  CsSqlSession *self = user_data;

  /* sqlite3_declare_vtab() in a table's xConnect parses its CREATE TABLE
   * through the authorizer: that is the table being made, not user SQL. */
  if (self->ctx.declaring > 0)
    return SQLITE_OK;
  for (guint i = 0; i < self->more_contexts->len; i++)
    if (((CsSqlContext *) self->more_contexts->pdata[i])->declaring > 0)
      return SQLITE_OK;
  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      /* arg2 is the function's name. */
      if (arg2 != NULL && g_ascii_strcasecmp (arg2, "load_extension") == 0)
        {
          g_free (self->refused);
          self->refused = g_strdup ("load_extension()");
          return SQLITE_DENY;
        }
      return SQLITE_OK;
    case SQLITE_UPDATE:
      /* sqlite3_declare_vtab() of SQLite's own eponymous tables
       * (pragma_table_info() ...) reports an UPDATE of sqlite_master's
       * "type" while it parses their CREATE TABLE.  It never writes: the
       * connection is read-only and in defensive mode, where
       * sqlite_master cannot be written at all. */
      if (arg1 != NULL && (g_str_equal (arg1, "sqlite_master") || g_str_equal (arg1, "sqlite_temp_master")))
        return SQLITE_OK;
      break;
    case SQLITE_PRAGMA:
      for (guint i = 0; arg1 != NULL && i < G_N_ELEMENTS (readonly_pragmas); i++)
        if (g_ascii_strcasecmp (arg1, readonly_pragmas[i]) == 0)
          return SQLITE_OK;
      break;
    default:
      break;
    }
  g_free (self->refused);
  self->refused = g_strdup (refused_action (action));
  return SQLITE_DENY;
}

/* A table context over @document: its recording, opened again for the
 * reason when the document cannot give it. */
static gboolean
context_init (CsSqlContext *ctx, CsDocument *document, GError **error)
{
  ctx->document = document;
  ctx->trace_file = cs_document_get_trace_file (document);
  if (ctx->trace_file == NULL)
    {
      /* Ask again, for the reason. */
      g_autoptr(CsTraceFile) file = cs_document_open_trace_file (document, error);
      if (file == NULL)
        return FALSE;
      ctx->trace_file = cs_document_get_trace_file (document);
    }
  return TRUE;
}

static CsSqlSession *
session_new (CsDocument * const *documents,
             guint               n_documents,
             CsStreamSet        *set,
             GError            **error)
{
  g_autoptr(CsSqlSession) self = NULL;
  g_autoptr(GPtrArray) tables = g_ptr_array_new ();
  int rc;

  self = g_object_new (CS_TYPE_SQL_SESSION, NULL);
  self->document = g_object_ref (documents[0]);
  for (guint k = 0; k < n_documents; k++)
    {
      CsSqlContext *ctx = k == 0 ? &self->ctx : g_new0 (CsSqlContext, 1);

      g_ptr_array_add (self->documents, g_object_ref (documents[k]));
      if (k > 0)
        g_ptr_array_add (self->more_contexts, ctx);
      if (!context_init (ctx, documents[k], error))
        return NULL;
    }

  rc = sqlite3_open_v2 (":memory:", &self->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot open an SQL connection: %s"),
                   self->db ? sqlite3_errmsg (self->db) : _("out of memory"));
      return NULL;
    }
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_limit (self->db, SQLITE_LIMIT_ATTACHED, 0);

  if (set == NULL)
    {
      guint first_event_table;

      if (!_cs_sql_register_derived_tables (self->db, &self->ctx, NULL, tables, error))
        return NULL;
      first_event_table = tables->len;
      if (!_cs_sql_register_event_tables (self->db, &self->ctx, NULL, tables, error))
        return NULL;
      for (guint i = first_event_table; i + 1 < tables->len; i += 2)
        g_hash_table_add (self->event_tables, g_strdup (tables->pdata[i]));
    }
  else
    {
      g_autofree CsSqlContext **contexts = g_new (CsSqlContext *, n_documents);

      contexts[0] = &self->ctx;
      for (guint k = 1; k < n_documents; k++)
        contexts[k] = self->more_contexts->pdata[k - 1];
      if (!_cs_sql_streams_setup (self->db, contexts, set, tables, error))
        {
          for (guint i = 0; i < tables->len; i++)
            g_free (tables->pdata[i]);
          return NULL;
        }
    }
  for (guint i = 0; i + 1 < tables->len; i += 2)
    {
      g_ptr_array_add (self->table_names, g_strdup (tables->pdata[i]));
      const char *schema = tables->pdata[i + 1];
      g_autofree char *quoted = _cs_sql_quote_identifier (tables->pdata[i]);

      /* The modules declare "CREATE TABLE x(...)": show the real name. */
      if (g_str_has_prefix (schema, "CREATE TABLE x("))
        schema += strlen ("CREATE TABLE x");
      g_hash_table_insert (self->schemas, tables->pdata[i],
                           g_strdup_printf ("CREATE TABLE %s%s", quoted, schema));
      g_free (tables->pdata[i + 1]);
    }
  g_ptr_array_add (self->table_names, NULL);

  sqlite3_set_authorizer (self->db, authorize, self);
  return g_steal_pointer (&self);
}

/**
 * cs_sql_session_new:
 * @document: the recording's document; the session keeps a reference and
 *   reads it from the calling thread only
 * @error: %CS_INDEX_ERROR / %G_FILE_ERROR when the recording can no longer
 *   be read (event fields come from it), %CS_SQL_ERROR_FAILED when SQLite
 *   cannot set up the connection
 *
 * Makes a read-only SQL connection whose tables are the document's events,
 * one table per event type present, and the index's derived tables (see
 * the header).  Costs no reading of events: tables read on demand.
 *
 * Returns: (transfer full): the session, or %NULL with @error set
 */
CsSqlSession *
cs_sql_session_new (CsDocument  *document,
                    GError     **error)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);
  return session_new (&document, 1, NULL, error);
}

/**
 * cs_sql_session_new_streams:
 * @documents: (array length=n_documents): the recordings, stream 0 first;
 *   the session keeps a reference on each and reads them from the calling
 *   thread only
 * @n_documents: how many, >= 1
 * @error: as cs_sql_session_new(), for any of them
 *
 * cs_sql_session_new_for_streams() over a #CsStreamSet of @documents in
 * this order, whose reference (the axis) is the first recording that is
 * not a KVM guest's (no TIME_SHIFT option), or the set's default when all
 * are.  With one document this is cs_sql_session_new().
 *
 * Returns: (transfer full): the session, or %NULL with @error set
 */
CsSqlSession *
cs_sql_session_new_streams (CsDocument * const *documents,
                            guint               n_documents,
                            GError            **error)
{
  g_autoptr(CsStreamSet) set = NULL;
  CsStream *reference = NULL;

  g_return_val_if_fail (documents != NULL && n_documents >= 1, NULL);
  for (guint k = 0; k < n_documents; k++)
    g_return_val_if_fail (CS_IS_DOCUMENT (documents[k]), NULL);
  if (n_documents == 1)
    return session_new (documents, 1, NULL, error);
  set = cs_stream_set_new ();
  for (guint k = 0; k < n_documents; k++)
    {
      CsStream *stream = cs_stream_set_add (set, documents[k], NULL);

      if (reference == NULL && !cs_stream_get_peer_trace_id (stream, NULL))
        reference = stream;
    }
  if (reference != NULL)
    cs_stream_set_set_reference (set, reference);
  return cs_sql_session_new_for_streams (set, error);
}

/**
 * cs_sql_session_new_for_streams:
 * @streams: the recordings, as a window shows them on one axis (at least
 *   one); the session keeps a reference on it and reads its documents
 *   from the calling thread only
 * @error: as cs_sql_session_new(), for any of them
 *
 * A session over several recordings (streams): the tables of
 * cs_sql_session_new() join every stream's rows, with a first column
 * `stream` (its position in @streams now) and, on `events` and the event
 * type tables, a last column `ts_aligned`: the time on the set's common
 * axis, cs_stream_to_axis_ns() of the row's cpu and ts (a KVM guest's
 * TIME_SHIFT conversion, within 1 ns of trace-cmd's, the user's manual
 * offsets included), NULL where cs_stream_is_aligned() says the place
 * rests on nothing.  `ts` stays each stream's own.  A `streams` table
 * lists them: id, file, host and kernel (the UNAME option's), clock (as
 * `chronoscope info` says it), role ("host", "guest", "host and guest"),
 * trace_id, peer (the stream it is related to: a guest's host, the guest
 * whose clock a host is converted to), peer_trace_id, offset_ns, scaling
 * and fraction_bits (the correction at its start: a guest's TIME_SHIFT
 * option's first sample, else the ns added to its times; NULL when not
 * aligned, or for a host converted by the inverse), manual_offset_ns (the
 * user's shift), aligned (0 or 1) and note (the set's cs_stream_get_note(),
 * NULL when empty).  Two functions split a guest's time by its host's
 * view of the vCPU: vcpu_out_ns(stream, cpu, begin_ts, end_ts), how long
 * of the guest span [begin_ts, end_ts) (the stream's own ns) the host had
 * vCPU @cpu out of the guest (exits and not running), and
 * vcpu_not_running_ns(), only the time its thread was not running (NULL
 * when the host recorded no sched_switch); both NULL where the host's view
 * does not cover the span.  The first call reads the host recording once
 * (cs_stream_get_vcpu_timeline()).
 *
 * The streams and their order are taken now; changing @streams later
 * (adding, moving, shifting) is not seen consistently: make a new session.
 * With one stream this is cs_sql_session_new() of its document.
 *
 * Returns: (transfer full): the session, or %NULL with @error set
 */
CsSqlSession *
cs_sql_session_new_for_streams (CsStreamSet  *streams,
                                GError      **error)
{
  guint n;
  g_autofree CsDocument **documents = NULL;

  g_return_val_if_fail (CS_IS_STREAM_SET (streams), NULL);
  n = cs_stream_set_get_n_streams (streams);
  g_return_val_if_fail (n >= 1, NULL);
  documents = g_new (CsDocument *, n);
  for (guint k = 0; k < n; k++)
    documents[k] = cs_stream_get_document (cs_stream_set_get_stream (streams, k));
  return session_new (documents, n, n > 1 ? streams : NULL, error);
}

/**
 * cs_sql_session_get_n_streams:
 * @self: a session
 *
 * Returns: how many recordings it reads (1 from cs_sql_session_new())
 */
guint
cs_sql_session_get_n_streams (CsSqlSession *self)
{
  g_return_val_if_fail (CS_IS_SQL_SESSION (self), 0);
  return self->documents->len;
}

/** cs_sql_session_get_document: Returns: (transfer none): the document (stream 0's) */
CsDocument *
cs_sql_session_get_document (CsSqlSession *self)
{
  g_return_val_if_fail (CS_IS_SQL_SESSION (self), NULL);
  return self->document;
}

/**
 * cs_sql_session_get_tables:
 * @self: a session
 *
 * Returns: (transfer none) (array zero-terminated=1): the tables' names:
 *   the derived tables, `events`, then per event type `SYSTEM_EVENT` and
 *   `SYSTEM:EVENT`
 */
const char * const *
cs_sql_session_get_tables (CsSqlSession *self)
{
  g_return_val_if_fail (CS_IS_SQL_SESSION (self), NULL);
  return (const char * const *) self->table_names->pdata;
}

/**
 * cs_sql_session_dup_schema:
 * @self: a session
 * @table: a table name, as cs_sql_session_get_tables() lists it
 * @error: %CS_SQL_ERROR_NO_TABLE
 *
 * Returns: (transfer full): the table's `CREATE TABLE` statement: its
 *   columns and their types
 */
char *
cs_sql_session_dup_schema (CsSqlSession  *self,
                           const char    *table,
                           GError       **error)
{
  const char *schema;

  g_return_val_if_fail (CS_IS_SQL_SESSION (self), NULL);
  schema = g_hash_table_lookup (self->schemas, table);
  if (schema == NULL)
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_NO_TABLE,
                   _("%s has no table %s"), cs_document_get_trace_path (self->document), table);
      return NULL;
    }
  return g_strdup (schema);
}

/**
 * cs_sql_session_prepare:
 * @self: a session
 * @sql: one SQL statement (UTF-8); a trailing semicolon is allowed
 * @error: %CS_SQL_ERROR_SYNTAX with SQLite's message and the character
 *   position of the error when SQLite knows it (0-based), for bad SQL,
 *   unknown tables or columns, or more than one statement;
 *   %CS_SQL_ERROR_REFUSED when the statement would change anything, attach
 *   a database, change a setting or load an extension
 *
 * Compiles a statement; nothing is read until cs_sql_query_next().
 *
 * Returns: (transfer full): the query, or %NULL with @error set
 */
static gboolean
is_event_table (const char *name,
                gpointer    user_data)
{
  return g_hash_table_contains (user_data, name);
}

/* @stmt, or the same query with count(*) from the rows' weights
 * (cs-sql-count-rewrite.c), which SQLite steps through one row per group
 * of counted rows instead of one per event. */
static sqlite3_stmt *
count_by_weights (CsSqlSession *self,
                  const char   *sql,
                  sqlite3_stmt *stmt)
{
  g_autofree char *rewritten = _cs_sql_rewrite_counts (sql, is_event_table, self->event_tables);
  sqlite3_stmt *faster = NULL;
  gboolean same = FALSE;

  if (rewritten != NULL && sqlite3_prepare_v3 (self->db, rewritten, -1, 0, &faster, NULL) == SQLITE_OK &&
      faster != NULL && sqlite3_column_count (faster) == sqlite3_column_count (stmt))
    {
      same = TRUE;
      for (int i = 0; i < sqlite3_column_count (stmt) && same; i++)
        same = g_strcmp0 (sqlite3_column_name (stmt, i), sqlite3_column_name (faster, i)) == 0;
    }
  if (!same)
    {
      g_clear_pointer (&faster, sqlite3_finalize);
      return stmt;
    }
  g_debug ("Counting by weights: %s", rewritten);
  sqlite3_finalize (stmt);
  return faster;
}

CsSqlQuery *
cs_sql_session_prepare (CsSqlSession  *self,
                        const char    *sql,
                        GError       **error)
{
  sqlite3_stmt *stmt = NULL;
  const char *tail = NULL;
  int rc;

  g_return_val_if_fail (CS_IS_SQL_SESSION (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);

  g_clear_pointer (&self->refused, g_free);
  rc = sqlite3_prepare_v3 (self->db, sql, -1, 0, &stmt, &tail);
  /* A write to a table SQLite knows it cannot change is refused before
   * the authorizer is asked ("table tasks may not be modified"). */
  if (rc != SQLITE_OK && self->refused == NULL &&
      (strstr (sqlite3_errmsg (self->db), "may not be modified") != NULL ||
       sqlite3_extended_errcode (self->db) == SQLITE_READONLY))
    self->refused = g_strdup_printf (_("changing a table (%s)"), sqlite3_errmsg (self->db));
  if (rc == SQLITE_AUTH || (rc != SQLITE_OK && self->refused != NULL))
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_REFUSED,
                   _("Refused: %s. SQL over a recording is read-only: it can read the tables "
                   "but never change them, attach databases, change settings or load "
                   "extensions"), self->refused ? self->refused : _("changing the database"));
      return NULL;
    }
  if (rc != SQLITE_OK)
    {
      int offset = sqlite3_error_offset (self->db);

      if (offset >= 0)
        g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_SYNTAX, _("%s (at character %d)"),
                     sqlite3_errmsg (self->db), offset);
      else
        g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_SYNTAX, "%s", sqlite3_errmsg (self->db));
      return NULL;
    }
  if (stmt == NULL)
    {
      g_set_error_literal (error, CS_SQL_ERROR, CS_SQL_ERROR_SYNTAX, _("The query is empty"));
      return NULL;
    }
  while (tail != NULL && (g_ascii_isspace (*tail) || *tail == ';'))
    tail++;
  if (tail != NULL && *tail != '\0')
    {
      sqlite3_finalize (stmt);
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_SYNTAX,
                   _("Only one statement can run at a time; the second one starts at character %d"),
                   (int) (tail - sql));
      return NULL;
    }
  if (!sqlite3_stmt_readonly (stmt))
    {
      sqlite3_finalize (stmt);
      g_set_error_literal (error, CS_SQL_ERROR, CS_SQL_ERROR_REFUSED,
                           _("Refused: the statement would change the database. SQL over a "
                           "recording is read-only"));
      return NULL;
    }
  return _cs_sql_query_new (self, count_by_weights (self, sql, stmt));
}

/**
 * cs_sql_session_interrupt:
 * @self: a session
 *
 * Makes the statement the session is running (cs_sql_query_next() in
 * another thread) stop as soon as it can: that call then fails with
 * %CS_SQL_ERROR_FAILED ("interrupted").  Nothing happens when no
 * statement runs.  sqlite3_interrupt().
 *
 * Thread safety: callable from any thread, as long as the caller holds a
 * reference on @self.
 */
void
cs_sql_session_interrupt (CsSqlSession *self)
{
  g_return_if_fail (CS_IS_SQL_SESSION (self));
  sqlite3_interrupt (self->db);
}

/**
 * cs_sql_session_add_file_table:
 * @self: a session
 * @table: the table: its name, columns, the SELECT to run on each file,
 *   the files and their keys (all copied)
 * @error: %CS_SQL_ERROR_FAILED when the name is taken or the keys do not
 *   match the files
 *
 * Adds a table over other SQLite files, listed with the others
 * (cs_sql_session_get_tables(), cs_sql_session_dup_schema()): a plugin's
 * pass results, for example (cs_plugin_host_add_sql_tables()).  The first
 * column is the key of each row's file, the others what @table's SELECT
 * gives on that file.  User SQL still cannot attach or change anything:
 * the table opens each file read-only itself, on a connection that runs
 * only @table's SELECT.  A query on a key no file has fails with
 * %CS_SQL_ERROR_FAILED and @table's missing text.  Same thread as the
 * session.
 *
 * Returns: %TRUE when added
 */
gboolean
cs_sql_session_add_file_table (CsSqlSession          *self,
                               const CsSqlFileTable  *table,
                               GError               **error)
{
  g_autofree char *schema = NULL;
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (CS_IS_SQL_SESSION (self), FALSE);
  g_return_val_if_fail (table != NULL && table->name != NULL && table->select != NULL, FALSE);

  if (g_hash_table_contains (self->schemas, table->name))
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("There is a table %s already"), table->name);
      return FALSE;
    }
  if (!_cs_sql_register_file_table (self->db, &self->ctx, table, &schema, error))
    return FALSE;
  quoted = _cs_sql_quote_identifier (table->name);
  g_ptr_array_remove_index (self->table_names, self->table_names->len - 1);
  g_ptr_array_add (self->table_names, g_strdup (table->name));
  g_ptr_array_add (self->table_names, NULL);
  g_hash_table_insert (self->schemas, g_strdup (table->name),
                       g_strdup_printf ("CREATE TABLE %s%s", quoted, schema + strlen ("CREATE TABLE x")));
  return TRUE;
}

/* ---- Helpers the tables share ------------------------------------------ */

const char *
_cs_sql_prev_state_name (gint64 prev_state)
{
  /* TASK_* bits of include/trace/events/sched.h as the sched_switch
   * format prints them (__print_flags of prev_state & (TASK_REPORT_MAX - 1),
   * "+" for TASK_REPORT_MAX). */
  static const struct { gint64 bit; const char *name; } states[] = {
    { 0x01, "S" }, { 0x02, "D" }, { 0x04, "T" }, { 0x08, "t" },
    { 0x10, "X" }, { 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" },
  };

  if (prev_state < 0)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (prev_state & states[i].bit)
      return states[i].name;
  return (prev_state & 0x100) ? "R+" : "R";
}

char *
_cs_sql_quote_identifier (const char *name)
{
  GString *s = g_string_new ("\"");

  for (const char *p = name; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}
