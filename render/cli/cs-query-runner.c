/* cs-query-runner.c: CsQueryRunner, the Query page's SQL in a worker thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsSqlSession is used from one thread at a time, like the document it
 * reads, and a query may read the whole recording: the runner opens its
 * own CsDocument from the recording's index and its own session on it, in
 * a worker thread (GTask), and steps statements there.  One operation runs
 * at a time (the caller waits for the previous one to finish); each runs
 * in some thread of GLib's pool, never two at once, so the document and
 * the session are only ever used by one thread.
 *
 * Results come a page at a time: cs_query_runner_run_async() compiles the
 * statement and steps it for the first page; the statement then stays
 * open and cs_query_runner_run_async() without SQL steps it for the next
 * page, when the view asks for more.  A query over millions of events is never
 * stepped further than what is scrolled to.  cs_query_runner_interrupt()
 * stops a statement from the main thread (sqlite3_interrupt()).
 */
#include "config.h"

#include <string.h>

#include "cs-plugin-host.h"
#include "cs-query-row.h"
#include "cs-query-runner.h"
#include "cs-sql-session.h"
#include "cs-stream-set.h"

/* One recording of a runner over several, as the window's set had it. */
typedef struct {
  char *trace_path;
  char *index_path;
  char *identity;
  char *name;
  gint64 offset_ns;
} StreamSpec;

static void
stream_spec_free (StreamSpec *spec)
{
  g_free (spec->trace_path);
  g_free (spec->index_path);
  g_free (spec->identity);
  g_free (spec->name);
  g_free (spec);
}

struct _CsQueryRunner
{
  GObject parent_instance;

  char *trace_path;
  char *index_path;
  char *identity;
  GPtrArray *plugins;           /* CsPlugin, enabled when made: their SQL tables */
  GPtrArray *specs;             /* StreamSpec; NULL: one recording */
  guint reference;              /* of @specs: the axis */
  gboolean busy;                /* main thread: an operation runs */
  gint n_rows_read;             /* atomic: rows of the running query */

  /* Worker state: used by one operation at a time. */
  CsDocument *document;
  CsStreamSet *set;             /* over @specs' documents, @document first */
  CsSqlQuery *query;
  char **columns;               /* of @query */
  int ts_column, cpu_column, pid_column, stream_column;

  GMutex lock;                  /* guards @session against interrupt() */
  CsSqlSession *session;
};

G_DEFINE_FINAL_TYPE (CsQueryRunner, cs_query_runner, G_TYPE_OBJECT)

/**
 * cs_query_result_page_free:
 * @page: (transfer full) (nullable): a page
 */
void
cs_query_result_page_free (CsQueryResultPage *page)
{
  if (page == NULL)
    return;
  g_strfreev (page->columns);
  g_clear_pointer (&page->rows, g_ptr_array_unref);
  g_free (page);
}

static void
cs_query_runner_finalize (GObject *object)
{
  CsQueryRunner *self = CS_QUERY_RUNNER (object);

  g_clear_pointer (&self->query, cs_sql_query_free);
  g_clear_object (&self->session);
  g_clear_object (&self->set);
  g_clear_object (&self->document);
  g_clear_pointer (&self->specs, g_ptr_array_unref);
  g_strfreev (self->columns);
  g_free (self->trace_path);
  g_free (self->index_path);
  g_free (self->identity);
  g_clear_pointer (&self->plugins, g_ptr_array_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (cs_query_runner_parent_class)->finalize (object);
}

static void
cs_query_runner_class_init (CsQueryRunnerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_query_runner_finalize;
}

static void
cs_query_runner_init (CsQueryRunner *self)
{
  g_mutex_init (&self->lock);
}

/**
 * cs_query_runner_new:
 * @trace_path: the recording (trace.dat)
 * @index_path: its index, as the window's document has it
 *   (cs_document_get_index_path())
 * @identity: the recording's identity, as the document has it
 *   (cs_document_get_identity())
 *
 * Nothing is opened until the first operation.  The SQL tables of the
 * plugins enabled now (cs_plugin_host_add_sql_tables()) are part of the
 * session, over the pass results stored when it opens.  Main thread.
 *
 * Returns: (transfer full): a runner
 */
CsQueryRunner *
cs_query_runner_new (const char *trace_path,
                     const char *index_path,
                     const char *identity)
{
  CsQueryRunner *self = g_object_new (CS_TYPE_QUERY_RUNNER, NULL);

  self->trace_path = g_strdup (trace_path);
  self->index_path = g_strdup (index_path);
  self->identity = g_strdup (identity);
  self->plugins = cs_plugin_host_dup_enabled_plugins (cs_plugin_host_get_default ());
  return self;
}

/**
 * cs_query_runner_new_for_streams:
 * @streams: the recordings a window shows on its axis, its own first
 *   (each opened from its index, cs_document_get_index_path())
 *
 * A runner over every stream of @streams (cs_sql_session_new_for_streams()):
 * in the worker, it opens a document of its own on each recording and a
 * #CsStreamSet of them in the same order, with the same manual offsets and
 * the same reference, so that the SQL `ts_aligned` is the window's axis
 * as it was when this was called.  A row whose `stream` column names
 * another stream than the reference (the window's own recording) links to
 * no event: its ts and cpu are not the window's document's.  With one
 * stream, this is
 * cs_query_runner_new() of its document, plugin tables included; with
 * more, plugins' tables (per recording) are left out.  Main thread.
 *
 * Returns: (transfer full): a runner
 */
CsQueryRunner *
cs_query_runner_new_for_streams (CsStreamSet *streams)
{
  CsDocument *first;
  CsQueryRunner *self;
  CsStream *reference;
  guint n;

  g_return_val_if_fail (CS_IS_STREAM_SET (streams), NULL);
  n = cs_stream_set_get_n_streams (streams);
  g_return_val_if_fail (n >= 1, NULL);
  first = cs_stream_get_document (cs_stream_set_get_stream (streams, 0));
  self = cs_query_runner_new (cs_document_get_trace_path (first),
                              cs_document_get_index_path (first),
                              cs_document_get_identity (first));
  if (n == 1)
    return self;
  self->specs = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_spec_free);
  reference = cs_stream_set_get_reference (streams);
  for (guint k = 0; k < n; k++)
    {
      CsStream *stream = cs_stream_set_get_stream (streams, k);
      CsDocument *doc = cs_stream_get_document (stream);
      StreamSpec *spec = g_new0 (StreamSpec, 1);

      spec->trace_path = g_strdup (cs_document_get_trace_path (doc));
      spec->index_path = g_strdup (cs_document_get_index_path (doc));
      spec->identity = g_strdup (cs_document_get_identity (doc));
      spec->name = g_strdup (cs_stream_get_name (stream));
      spec->offset_ns = cs_stream_get_offset_ns (stream);
      g_ptr_array_add (self->specs, spec);
      if (stream == reference)
        self->reference = k;
    }
  return self;
}

/* Worker: the set of the runner's streams, on documents of its own. */
static gboolean
ensure_set (CsQueryRunner  *self,
            GError        **error)
{
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(GPtrArray) streams = g_ptr_array_new ();

  for (guint k = 0; k < self->specs->len; k++)
    {
      StreamSpec *spec = g_ptr_array_index (self->specs, k);
      g_autoptr(CsDocument) doc = k == 0 ? g_object_ref (self->document)
                                         : cs_document_open_as (spec->trace_path, spec->index_path,
                                                                spec->identity, error);

      if (doc == NULL)
        return FALSE;
      g_ptr_array_add (streams, cs_stream_set_add (set, doc, spec->name));
    }
  /* the reference first, so that the others' offsets land as in the window */
  cs_stream_set_set_reference (set, g_ptr_array_index (streams, self->reference));
  for (guint k = 0; k < self->specs->len; k++)
    cs_stream_set_offset_ns (g_ptr_array_index (streams, k),
                             ((StreamSpec *) g_ptr_array_index (self->specs, k))->offset_ns);
  self->set = g_steal_pointer (&set);
  return TRUE;
}

/* Worker: the session, opened the first time. */
static CsSqlSession *
ensure_session (CsQueryRunner  *self,
                GError        **error)
{
  CsSqlSession *session;

  if (self->session != NULL)
    return self->session;
  if (self->document == NULL)
    {
      self->document = cs_document_open_as (self->trace_path, self->index_path, self->identity,
                                            error);
      if (self->document == NULL)
        return NULL;
    }
  if (self->specs != NULL && self->set == NULL && !ensure_set (self, error))
    return NULL;
  session = self->set != NULL ? cs_sql_session_new_for_streams (self->set, error)
                              : cs_sql_session_new (self->document, error);
  if (session == NULL)
    return NULL;
  if (self->set == NULL &&
      !cs_plugin_host_add_sql_tables (self->plugins, self->document, session, error))
    {
      g_object_unref (session);
      return NULL;
    }
  g_mutex_lock (&self->lock);
  self->session = session;
  g_mutex_unlock (&self->lock);
  return session;
}

static void
tables_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CsQueryRunner *self = source;
  GError *error = NULL;
  CsSqlSession *session = ensure_session (self, &error);
  const char * const *names;
  GPtrArray *out;

  if (session == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  names = cs_sql_session_get_tables (session);
  out = g_ptr_array_new ();
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *schema = cs_sql_session_dup_schema (session, names[i], NULL);

      /* "SYSTEM:EVENT" names the same table as SYSTEM_EVENT. */
      if (schema == NULL || strchr (names[i], ':') != NULL)
        {
          g_free (schema);
          continue;
        }
      g_ptr_array_add (out, g_strdup (names[i]));
      g_ptr_array_add (out, schema);
    }
  g_ptr_array_add (out, NULL);
  g_task_return_pointer (task, g_ptr_array_free (out, FALSE), (GDestroyNotify) g_strfreev);
}

static void
start (CsQueryRunner       *self,
       gpointer             task_data,
       GDestroyNotify       task_data_free,
       GTaskThreadFunc      func,
       gpointer             tag,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, task_data, task_data_free);
  if (self->busy)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY, "A query is running");
      return;
    }
  self->busy = TRUE;
  g_task_run_in_thread (task, func);
}

/**
 * cs_query_runner_tables_async:
 * @self: a runner, not busy
 * @cancellable: (nullable): a cancellable
 * @callback: called in the main thread when done
 * @user_data: for @callback
 *
 * Opens the SQL session (cs_sql_session_new(), or
 * cs_sql_session_new_for_streams() for a runner over streams) and lists its
 * tables, each with its `CREATE TABLE` statement, as `chronoscope query
 * --tables` and `--schema` give them.  Main thread.
 */
void
cs_query_runner_tables_async (CsQueryRunner       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (CS_IS_QUERY_RUNNER (self));
  start (self, NULL, NULL, tables_thread, cs_query_runner_tables_async,
         cancellable, callback, user_data);
}

/**
 * cs_query_runner_tables_finish:
 * @self: a runner
 * @result: the result given to the callback
 * @error: the document's or the session's error (%CS_INDEX_ERROR,
 *   %G_FILE_ERROR, %CS_SQL_ERROR)
 *
 * Returns: (transfer full) (array zero-terminated=1): pairs of a table's
 *   name and its `CREATE TABLE` statement, or %NULL with @error set
 */
char **
cs_query_runner_tables_finish (CsQueryRunner  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  self->busy = FALSE;
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  char *sql;                    /* NULL: fetch from the open statement */
  guint page_rows;
} Request;

static void
request_free (Request *r)
{
  g_free (r->sql);
  g_free (r);
}

static int
find_column (char      **columns,
             const char *name)
{
  for (int i = 0; columns[i] != NULL; i++)
    if (g_ascii_strcasecmp (columns[i], name) == 0)
      return i;
  return -1;
}

/* Worker: compiles @sql in place of the open statement. */
static gboolean
prepare (CsQueryRunner  *self,
         const char     *sql,
         GError        **error)
{
  CsSqlSession *session = ensure_session (self, error);
  guint n;

  g_clear_pointer (&self->query, cs_sql_query_free);
  g_clear_pointer (&self->columns, g_strfreev);
  if (session == NULL || (self->query = cs_sql_session_prepare (session, sql, error)) == NULL)
    return FALSE;
  n = cs_sql_query_get_n_columns (self->query);
  self->columns = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    self->columns[i] = g_strdup (cs_sql_query_get_column_name (self->query, i));
  self->ts_column = find_column (self->columns, "ts");
  self->cpu_column = find_column (self->columns, "cpu");
  self->pid_column = find_column (self->columns, "pid");
  self->stream_column = self->specs != NULL ? find_column (self->columns, "stream") : -1;
  g_atomic_int_set (&self->n_rows_read, 0);
  return TRUE;
}

static gboolean
int_cell (CsSqlQuery *q,
          int         column,
          gint64     *value)
{
  if (column < 0 || cs_sql_query_get_value_type (q, column) != CS_SQL_INTEGER)
    return FALSE;
  *value = cs_sql_query_get_int64 (q, column);
  return TRUE;
}

/* Worker: the row the statement is on. */
static CsQueryRow *
current_row (CsQueryRunner *self)
{
  guint n = g_strv_length (self->columns);
  char **cells = g_new0 (char *, MAX (n, 1));
  CsQueryLink link = { 0, -1, -1 };
  gboolean has_ts, has_cpu, has_pid;
  gint64 stream = self->reference;

  for (guint i = 0; i < n; i++)
    cells[i] = cs_sql_query_dup_text (self->query, i);
  /* over streams, ts and cpu are the window's own recording's (the
   * reference) only in its rows */
  int_cell (self->query, self->stream_column, &stream);
  has_ts = stream == self->reference && int_cell (self->query, self->ts_column, &link.ts_ns);
  has_cpu = int_cell (self->query, self->cpu_column, &link.cpu);
  has_pid = int_cell (self->query, self->pid_column, &link.pid);
  return cs_query_row_new (cells, n, has_ts && (has_cpu || has_pid) ? &link : NULL);
}

static void
page_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  CsQueryRunner *self = source;
  Request *r = task_data;
  GError *error = NULL;
  g_autoptr(CsQueryResultPage) page = g_new0 (CsQueryResultPage, 1);

  if (r->sql != NULL && !prepare (self, r->sql, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (self->query == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "No query has run");
      return;
    }
  page->columns = g_strdupv (self->columns);
  page->rows = g_ptr_array_new_with_free_func (g_object_unref);
  while (page->rows->len < r->page_rows)
    {
      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (!cs_sql_query_next (self->query, &error))
        {
          page->done = TRUE;
          break;
        }
      g_ptr_array_add (page->rows, current_row (self));
      g_atomic_int_inc (&self->n_rows_read);
    }
  if (page->done)
    g_clear_pointer (&self->query, cs_sql_query_free);
  if (error == NULL && g_cancellable_set_error_if_cancelled (cancellable, &error))
    g_clear_pointer (&self->query, cs_sql_query_free);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&page), (GDestroyNotify) cs_query_result_page_free);
}

/**
 * cs_query_runner_run_async:
 * @self: a runner, not busy
 * @sql: (nullable): one SQL statement; %NULL for the next page of the
 *   statement open (the last page was not done)
 * @page_rows: how many rows the page holds at most, > 0
 * @cancellable: (nullable): stops stepping between rows; use
 *   cs_query_runner_interrupt() as well to stop inside a row
 * @callback: called in the main thread when done
 * @user_data: for @callback
 *
 * Compiles @sql on the recording's session (closing the statement that
 * was open) and steps it for its first @page_rows rows; or, without @sql,
 * steps the open statement for its next @page_rows rows.  Main thread.
 */
void
cs_query_runner_run_async (CsQueryRunner       *self,
                           const char          *sql,
                           guint                page_rows,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  Request *r = g_new0 (Request, 1);

  g_return_if_fail (CS_IS_QUERY_RUNNER (self));
  g_return_if_fail (page_rows > 0);
  r->sql = g_strdup (sql);
  r->page_rows = page_rows;
  start (self, r, (GDestroyNotify) request_free, page_thread, cs_query_runner_run_async,
         cancellable, callback, user_data);
}

/**
 * cs_query_runner_run_finish:
 * @self: a runner
 * @result: the result given to the callback
 * @error: %CS_SQL_ERROR_SYNTAX (SQLite's message with "at character N"),
 *   %CS_SQL_ERROR_REFUSED, %CS_SQL_ERROR_FAILED (also when interrupted),
 *   %G_IO_ERROR_CANCELLED, the document's error, or
 *   %G_IO_ERROR_NOT_INITIALIZED when asked for the next page with no
 *   statement open
 *
 * Returns: (transfer full): the page, or %NULL with @error set
 */
CsQueryResultPage *
cs_query_runner_run_finish (CsQueryRunner  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  self->busy = FALSE;
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * cs_query_runner_interrupt:
 * @self: a runner
 *
 * Stops the statement being stepped as soon as SQLite can
 * (cs_sql_session_interrupt()); the operation then fails with
 * %CS_SQL_ERROR_FAILED.  Any thread.
 */
void
cs_query_runner_interrupt (CsQueryRunner *self)
{
  g_return_if_fail (CS_IS_QUERY_RUNNER (self));
  g_mutex_lock (&self->lock);
  if (self->session != NULL)
    cs_sql_session_interrupt (self->session);
  g_mutex_unlock (&self->lock);
}

/** cs_query_runner_is_busy: Returns: whether an operation runs (main thread) */
gboolean
cs_query_runner_is_busy (CsQueryRunner *self)
{
  g_return_val_if_fail (CS_IS_QUERY_RUNNER (self), FALSE);
  return self->busy;
}

/**
 * cs_query_runner_get_n_rows_read:
 * @self: a runner
 *
 * Returns: how many rows the current statement has given so far, all
 *   pages together; for progress while a page is read.  Any thread.
 */
guint
cs_query_runner_get_n_rows_read (CsQueryRunner *self)
{
  g_return_val_if_fail (CS_IS_QUERY_RUNNER (self), 0);
  return (guint) g_atomic_int_get (&self->n_rows_read);
}
