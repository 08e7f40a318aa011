/* cs-index-schema.c: the SQL schema of the index and small SQLite helpers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"
#include <glib/gi18n-lib.h>

#include "cs-index-private.h"

const CsChunkColumnMode _cs_event_chunk_modes[EV_N_COLUMNS] = {
  [EV_TS] = CS_CHUNK_DELTA,
  [EV_PID] = CS_CHUNK_DELTA,
  [EV_TYPE] = CS_CHUNK_PLAIN,
  [EV_OFFSET] = CS_CHUNK_DELTA,
};

const CsChunkColumnMode _cs_slice_chunk_modes[SL_N_COLUMNS] = {
  [SL_BEGIN] = CS_CHUNK_DELTA,
  [SL_DURATION] = CS_CHUNK_PLAIN,
  [SL_PID] = CS_CHUNK_PLAIN,
  [SL_STATE] = CS_CHUNK_PLAIN,
  [SL_FLAGS] = CS_CHUNK_PLAIN,
  [SL_COMM] = CS_CHUNK_PLAIN,
  [SL_PRIO] = CS_CHUNK_PLAIN,
};

const CsChunkColumnMode _cs_irq_chunk_modes[IR_N_COLUMNS] = {
  [IR_TS] = CS_CHUNK_DELTA,
  [IR_ROW] = CS_CHUNK_DELTA,
  [IR_KIND] = CS_CHUNK_PLAIN,
  [IR_VALUE] = CS_CHUNK_PLAIN,
  [IR_NAME] = CS_CHUNK_PLAIN,
};

const CsChunkColumnMode _cs_migrate_chunk_modes[MG_N_COLUMNS] = {
  [MG_TS] = CS_CHUNK_DELTA,
  [MG_ROW] = CS_CHUNK_DELTA,
  [MG_PID] = CS_CHUNK_PLAIN,
  [MG_ORIG] = CS_CHUNK_PLAIN,
  [MG_DEST] = CS_CHUNK_PLAIN,
};

const CsChunkColumnMode _cs_task_chunk_modes[TK_N_COLUMNS] = {
  [TK_TS] = CS_CHUNK_DELTA,
  [TK_DURATION] = CS_CHUNK_PLAIN,
  [TK_KIND] = CS_CHUNK_PLAIN,
  [TK_STATE] = CS_CHUNK_PLAIN,
};

const CsChunkColumnMode _cs_summary_modes[SU_N_COLUMNS] = {
  [SU_EVENTS] = CS_CHUNK_PLAIN,
  [SU_BUSY] = CS_CHUNK_PLAIN,
  [SU_DOMINANT] = CS_CHUNK_PLAIN,
};

/* meta: identity (see cs-index-cache.c), file_version, compression, clock,
 *   n_cpus, first_ns, last_ns, n_events, summary_shift, summary_levels,
 *   summary_origin_ns (where level 0 starts: first_ns, or earlier or later
 *   for an index built while recording), live_files (an index built while
 *   recording: how many snapshots and final file it read, one after the
 *   other).
 * cpus, event_types, cpu_type_counts, tasks: small derived tables; a CPU's
 *   offset_base is added to its event chunks' offsets (0, or where its
 *   data starts for an index built while recording: cs-index-live.c).
 * switch_state_counts: per CPU, its sched_switch events (of dense type
 *   type_id) by prev_state as SQL reads the field (NULL: the record ends
 *   before it); a CPU with too many values has no rows (then they do not
 *   add up to cpu_type_counts, and SQL reads the records).
 * missed_events: per CPU, where its ring buffer lost events: the first
 *   event after the loss and the page header's count (-1: not counted).
 * event_chunks: per CPU, CS_EVENT_CHUNK_ROWS events per row in time order;
 *   first_row is the CPU-local index of the chunk's first event.
 * event_chunk_types: per event chunk, its first_ns and the type ids its
 *   events have (types: little-endian 16-bit ids, in no order; NULL when
 *   the chunk's type column is not a dictionary or an id is 65535 or
 *   more): a reader of rare types (a task's sched_migrate_task events
 *   over seconds) walks these small rows, ~1,000 to a page, instead of
 *   stepping over every chunk's blob of ~12 KiB (SQLite copies each blob
 *   it steps over), and reads only the chunks that hold its types
 *   (cs-document-events.c).
 * slice_chunks: per CPU, who ran from when to when (sched_switch), ordered
 *   by begin; last_ns is the largest end in the chunk (slices of one CPU do
 *   not overlap, so it grows with the chunk number).  Each slice's flags
 *   say whether its switches can stand in for the records (CS_SLICE_*,
 *   cs-document.h).
 * task_chunks: per task and CPU, CS_TASK_CHUNK_ROWS runs and wakeups per
 *   row in time order (a task's rows of one CPU are ordered; CPUs merge at
 *   query time), so a task plot reads only that task's rows.  The row
 *   kinds (cs-index-private.h) keep every sched_switch of the task, so
 *   that the wakeup rule sees them all (cs-task-timeline.c).
 * summaries: per CPU and level, blocks of CS_SUMMARY_BLOCK_BUCKETS buckets
 *   of 2^(summary_shift + 2 level) ns counted from first_ns.
 * summary_runs: per CPU, long runs of one task kept out of the summaries,
 *   which a reader of summaries adds back.
 *
 * The three chunk tables have rowids (their keys are an index beside
 * them): a row's blob of ~10 KiB then fills its overflow pages, where a
 * WITHOUT ROWID table keeps at most ~2 KiB of it in the leaf and leaves
 * the last overflow page part empty, a third of the bytes of the event
 * chunks of a large recording (SQLite's file format, "B-tree Cell
 * Payload Overflow Pages").  In the pages of 64 KiB the builder writes
 * (cs-index-builder.c) a blob stays whole in its leaf, ~5 to a page. */
/**
 * _cs_event_chunk_may_hold:
 * @data: (array length=size): an event chunk's blob (event_chunks.data)
 * @size: its size in bytes
 * @n_rows: its row count (event_chunks.n_rows)
 * @wanted: (array length=n_types): by type id, the types looked for
 * @n_types: the recording's event types
 *
 * Whether the chunk may hold an event of a wanted type, told from its type
 * column's dictionary without decoding a row (cs_chunk_peek_values(): a
 * chunk holds a handful of the recording's types).  Readers looking for
 * a few types (a plugin pass, an explained pair) skip the chunks it rules
 * out.
 *
 * Returns: %FALSE when the chunk holds none; %TRUE when it may, or when
 *   the blob does not say (another form, compressed, damaged, an id out
 *   of range): decoding it then tells
 */
gboolean
_cs_event_chunk_may_hold (const guint8   *data,
                          gsize           size,
                          guint           n_rows,
                          const gboolean *wanted,
                          guint           n_types)
{
  gint64 types[CS_CHUNK_PEEK_MAX];
  guint n = 0;

  if (!cs_chunk_peek_values (data, size, n_rows, EV_TYPE, types, &n))
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (types[i] < 0 || (guint64) types[i] >= n_types || wanted[types[i]])
      return TRUE;
  return FALSE;
}

const char _cs_index_schema_sql[] =
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;"
  "CREATE TABLE cpus (cpu INTEGER PRIMARY KEY, n_events INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, missed_events INTEGER, has_sched_switch INTEGER, offset_base INTEGER);"
  "CREATE TABLE missed_events (cpu INTEGER, ts_ns INTEGER, n_missed INTEGER);"
  "CREATE INDEX missed_events_by_time ON missed_events (cpu, ts_ns);"
  "CREATE TABLE event_types (id INTEGER PRIMARY KEY, tep_id INTEGER, system TEXT,"
  "  name TEXT, n_events INTEGER);"
  "CREATE TABLE cpu_type_counts (cpu INTEGER, type_id INTEGER, n_events INTEGER,"
  "  PRIMARY KEY (cpu, type_id)) WITHOUT ROWID;"
  "CREATE TABLE switch_state_counts (cpu INTEGER, type_id INTEGER, prev_state INTEGER,"
  "  n_events INTEGER);"
  "CREATE TABLE tasks (pid INTEGER PRIMARY KEY, comm TEXT, n_events INTEGER,"
  "  runtime_ns INTEGER);"
  "CREATE TABLE event_chunks (cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, first_row INTEGER, n_rows INTEGER, data BLOB,"
  "  PRIMARY KEY (cpu, chunk));"
  "CREATE TABLE event_chunk_types (cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  types BLOB, PRIMARY KEY (cpu, chunk)) WITHOUT ROWID;"
  "CREATE TABLE slice_chunks (cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, n_rows INTEGER, data BLOB,"
  "  PRIMARY KEY (cpu, chunk));"
  "CREATE INDEX event_chunks_by_time ON event_chunks (cpu, first_ns);"
  "CREATE INDEX slice_chunks_by_end ON slice_chunks (cpu, last_ns);"
  "CREATE TABLE irq_chunks (cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, n_rows INTEGER, data BLOB,"
  "  PRIMARY KEY (cpu, chunk));"
  "CREATE INDEX irq_chunks_by_end ON irq_chunks (cpu, last_ns);"
  "CREATE TABLE migrate_chunks (cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, n_rows INTEGER, data BLOB,"
  "  PRIMARY KEY (cpu, chunk));"
  "CREATE INDEX migrate_chunks_by_end ON migrate_chunks (cpu, last_ns);"
  "CREATE TABLE cpu_names (cpu INTEGER, kind INTEGER, id INTEGER, name TEXT,"
  "  PRIMARY KEY (cpu, kind, id)) WITHOUT ROWID;"
  "CREATE TABLE task_chunks (pid INTEGER, cpu INTEGER, chunk INTEGER, first_ns INTEGER,"
  "  last_ns INTEGER, n_rows INTEGER, data BLOB,"
  "  PRIMARY KEY (pid, cpu, chunk));"
  CS_SUMMARIES_TABLE_SQL
  CS_SUMMARY_RUNS_TABLE_SQL;

gboolean
_cs_sqlite_check (sqlite3     *db,
                  int          rc,
                  const char  *what,
                  GError     **error)
{
  if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW)
    return TRUE;
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
               _("Index database error while %s: %s (%s)"), what,
               sqlite3_errmsg (db), sqlite3_db_filename (db, "main"));
  return FALSE;
}

gboolean
_cs_sqlite_exec (sqlite3     *db,
                 const char  *sql,
                 GError     **error)
{
  return _cs_sqlite_check (db, sqlite3_exec (db, sql, NULL, NULL, NULL),
                           _("writing"), error);
}

sqlite3_stmt *
_cs_sqlite_prepare (sqlite3     *db,
                    const char  *sql,
                    GError     **error)
{
  sqlite3_stmt *stmt = NULL;

  if (!_cs_sqlite_check (db, sqlite3_prepare_v3 (db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                                 &stmt, NULL),
                         _("preparing a query"), error))
    return NULL;
  return stmt;
}

/* An index is written under another name and renamed into place
 * (cs-index-builder.c, cs-index-live.c); once there, nothing writes to
 * it again: a new build is a new file renamed over it, which readers of
 * the old one do not see.  So readers open it with SQLite's immutable=1
 * (https://www.sqlite.org/uri.html): no lock taken, released and
 * checked for a hot journal at every statement.  Those were 26 % of the
 * samples of a critical path over the large benchmark recording, whose
 * walk runs a few million short queries (two fcntl() and two stat() each).
 * A path that cannot be made a URI (not absolute) is opened as before. */
int
_cs_sqlite_open_index (const char  *path,
                       sqlite3    **db)
{
  g_autofree char *uri = g_path_is_absolute (path) ? g_filename_to_uri (path, NULL, NULL)
                                                   : NULL;
  g_autofree char *immutable = uri != NULL ? g_strconcat (uri, "?immutable=1", NULL) : NULL;

  if (immutable == NULL)
    return sqlite3_open_v2 (path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  return sqlite3_open_v2 (immutable, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX |
                          SQLITE_OPEN_URI, NULL);
}

gint32
_cs_dominant_get (const CsDominant *d)
{
  gint32 best = -1;
  gint64 best_w = -1;

  for (guint i = 0; i < d->n; i++)
    if (d->weight[i] > best_w)
      {
        best_w = d->weight[i];
        best = d->pid[i];
      }
  return best;
}
