/* cs-sql-session.h: SQL over a recording, read-only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A CsSqlSession is an SQLite connection whose tables are virtual tables
 * over a #CsDocument and its recording:
 *
 *   events               every event: ts, cpu, pid, comm, system, name,
 *                        latency flags
 *   SYSTEM_EVENT         one per event type present, also reachable as
 *                        "SYSTEM:EVENT"; the common columns and one typed
 *                        column per field of the event's format
 *                        (events/SYSTEM/EVENT/format), read through
 *                        libtraceevent from the record
 *   tasks, cpus          the index's task and CPU tables
 *   sched_slices         who ran on which CPU from when to when
 *   task_states          what each task did over time
 *   wakeups              sched_waking/sched_wakeup to sched_switch, with the
 *                        wakeup latency
 *
 * With several recordings (cs_sql_session_new_streams(),
 * cs_sql_session_new_for_streams()) the same tables join them with a
 * `stream` column, and a `streams` table lists them, aligned on one axis
 * as a #CsStreamSet relates them.
 *
 * Constraints on ts, cpu and pid are pushed down, so a query on a short
 * span reads only the index chunks of that span.  User SQL can never
 * change anything: the connection is read-only and an authorizer refuses
 * writes, ATTACH, writing pragmas and loading extensions
 * (%CS_SQL_ERROR_REFUSED).
 *
 * A session is used from one thread, the thread that uses its document;
 * only cs_sql_session_interrupt() may be called from any thread.
 */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "cs-document.h"
#include "cs-sql-query.h"
#include "cs-stream-set.h"

G_BEGIN_DECLS

#define CS_SQL_ERROR (cs_sql_error_quark ())

/**
 * CsSqlError:
 * @CS_SQL_ERROR_SYNTAX: the statement does not compile (bad SQL, unknown
 *   table or column); the message is SQLite's, with the position
 * @CS_SQL_ERROR_REFUSED: the statement would change something, attach a
 *   database or load an extension
 * @CS_SQL_ERROR_FAILED: the statement failed while running (SQLite's
 *   message, or the index or recording could not be read)
 * @CS_SQL_ERROR_NO_TABLE: no such table (cs_sql_session_dup_schema())
 */
typedef enum {
  CS_SQL_ERROR_SYNTAX,
  CS_SQL_ERROR_REFUSED,
  CS_SQL_ERROR_FAILED,
  CS_SQL_ERROR_NO_TABLE,
} CsSqlError;

GQuark cs_sql_error_quark (void);

/**
 * CsSqlFileTable:
 * @name: the table's name, `[a-z0-9_]+`, not one the session has
 * @key_column: the name of its first column (TEXT), which holds the key
 *   of the file each row comes from
 * @columns: the other columns, as in CREATE TABLE ("a_ts INTEGER, ...")
 * @select: the SELECT run on each file, giving @columns in that order
 * @paths: (array zero-terminated=1) (nullable): SQLite files, opened
 *   read-only when the table is read
 * @keys: (array zero-terminated=1) (nullable): each file's key, as many
 *   as @paths
 * @missing: how to compute what is missing, said when a query asks for a
 *   key no file has, or the table has no file at all
 * @prepare: (nullable): called on each connection opened on a file, before
 *   @select is compiled there (to register the SQL functions or virtual
 *   tables @select uses); %FALSE with @error set fails the query with
 *   that message.  The thread that reads the table.
 *
 * A table over other SQLite files (a plugin's pass results): see
 * cs_sql_session_add_file_table().
 */
typedef struct {
  const char *name;
  const char *key_column;
  const char *columns;
  const char *select;
  const char * const *paths;
  const char * const *keys;
  const char *missing;
  gboolean (*prepare) (sqlite3 *db, GError **error);
} CsSqlFileTable;

#define CS_TYPE_SQL_SESSION (cs_sql_session_get_type ())
G_DECLARE_FINAL_TYPE (CsSqlSession, cs_sql_session, CS, SQL_SESSION, GObject)

CsSqlSession *cs_sql_session_new          (CsDocument    *document,
                                           GError       **error);
CsSqlSession *cs_sql_session_new_streams  (CsDocument * const *documents,
                                           guint          n_documents,
                                           GError       **error);
CsSqlSession *cs_sql_session_new_for_streams (CsStreamSet *streams,
                                           GError       **error);
guint         cs_sql_session_get_n_streams (CsSqlSession *self);
CsDocument   *cs_sql_session_get_document (CsSqlSession  *self);
const char * const *cs_sql_session_get_tables (CsSqlSession *self);
char         *cs_sql_session_dup_schema   (CsSqlSession  *self,
                                           const char    *table,
                                           GError       **error);
CsSqlQuery   *cs_sql_session_prepare      (CsSqlSession  *self,
                                           const char    *sql,
                                           GError       **error);
void          cs_sql_session_interrupt    (CsSqlSession  *self);
gboolean      cs_sql_session_add_file_table (CsSqlSession        *self,
                                           const CsSqlFileTable *table,
                                           GError             **error);

G_END_DECLS
