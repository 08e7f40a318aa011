/* cs-plugin-result-table.c: a result table, written in threads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass finds the rows; this writes them, in threads of its own so
 * that reading the events and finding rows overlap with SQLite's inserts
 * and the sorting: the pass fills chunks of rows and hands each full one
 * to a stage per job at once (the rows, and each sorted order), each a
 * thread and a queue, and takes back an empty chunk once every stage is
 * done with one (N_CHUNKS in all: the memory is bounded, and a pass that
 * gets ahead waits; the stages work side by side, so a slow moment of
 * one holds the others back only once the chunks run out).  The rows'
 * stage encodes each chunk of rows into blobs of NAME_chunks
 * (cs-plugin-result-rows.c: one INSERT per 512 rows, where rows of a
 * table cost an INSERT each, a tenth of the latency pass); each order's
 * stage gives each row's record to an external sorter
 * (cs-plugin-result-sorter.c), and at the end the orders are merged side
 * by side, each in a thread, and written by the caller's thread as
 * columns of numbers in chunks (cs-plugin-result-column.c).  SQLite
 * indexes would give the same orders, but building them (CREATE INDEX
 * after the inserts) took twice as long as the rest of the latency pass,
 * and rows of plain tables in those orders still cost as much as the
 * rows themselves.
 *
 * The database connection is used by one thread at a time: the rows'
 * stage's from the first chunk until it is joined, in
 * cs_plugin_result_table_finish() or cs_plugin_result_table_free(), the
 * caller's thread before and after.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-result-batch.h"
#include "cs-plugin-result-private.h"
#include "cs-plugin-result-sorter.h"

/* Records of an order's sorter: descending numbers are stored negated.
 * Each sorter holds a run being filled, one being sorted and written, and
 * a spare as large for its merge sort. */
#define RUN_RECORDS (512 * 1024)

#define CHUNK_ROWS 4096
/* Every blob of NAME_chunks but the last is full. */
G_STATIC_ASSERT (CHUNK_ROWS % _CS_RESULT_CHUNK == 0);
#define N_CHUNKS 12

typedef struct {
  gint64 *v;                    /* CHUNK_ROWS rows of the table's stride */
  gint64 first;                 /* the position of its first row */
  guint n;
  gint n_stages_left;           /* atomic: stages not done with it yet */
} Chunk;

/* A stage: takes chunks from @in and works on them; the last stage done
 * with a chunk gives it back to the writer's empty chunks. */
typedef struct _Stage Stage;

struct _Stage {
  CsPluginResultTable *writer;
  guint order;                  /* an order's stage: the order's index */
  CsResultSorter *sorter;       /* an order's stage: the order's */
  gboolean (*work) (CsPluginResultTable *writer, Stage *stage, const Chunk *chunk, GError **error);
  GThread *thread;
  GAsyncQueue *in;              /* Chunk *, or &stop */
  GError *error;                /* the stage's failure, once writer->failed */
};

#define STAGE_ROWS 0
#define MAX_STAGES (1 + CS_PLUGIN_RESULT_MAX_ORDERS)

/* An order, copied from the caller's. */
typedef struct {
  char *name;
  guint n_fields;
  guint descending;
  guint n_desc;                 /* the descending numbers, for the stages */
  guint desc_fields[CS_PLUGIN_RESULT_MAX_FIELDS];
  gint64 stored_sign[CS_PLUGIN_RESULT_MAX_STORED];      /* -1: stored negated in the sorter */
  gint64 group_sign;
  guint n_stored;
  char *stored[CS_PLUGIN_RESULT_MAX_STORED];
  guint stored_fields[CS_PLUGIN_RESULT_MAX_STORED];
  char *group_column;
  CsPluginResultRecordFunc record_func;
  gpointer user_data;
} Order_;

struct _CsPluginResultTable
{
  sqlite3 *db;
  char *name;
  guint n_fixed, n_optional, stride;
  gboolean same_thread;         /* no stage threads: the caller's works */
  int sorted;                   /* the fixed column that never falls, or -1 */
  char *sorted_name;
  gint64 last_sorted;           /* its value in the last row */
  guint n_orders;
  Order_ orders[CS_PLUGIN_RESULT_MAX_ORDERS];
  /* Into NAME_chunks (STAGE_ROWS): a chunk's rows, encoded. */
  sqlite3_stmt *insert_rows;
  gint64 n_row_chunks;          /* inserted */
  guint8 *row_bytes;            /* _CS_RESULT_ROWS_MAX_BYTES */
  gint64 n_rows;                /* appended */

  guint n_stages;
  Stage stages[MAX_STAGES];
  GAsyncQueue *empty;           /* Chunk * */
  Chunk *chunk;                 /* being filled */
  gint failed;                  /* atomic: a stage failed, see its error */
  gint abandon;                 /* atomic: drop what comes */
};

/* What tells the thread to end. */
static Chunk stop;

static gboolean
exec (CsPluginResultTable  *self,
      const char           *sql,
      GError              **error)
{
  char *message = NULL;

  if (sqlite3_exec (self->db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write the result table %s: %s"), self->name, message);
  sqlite3_free (message);
  return FALSE;
}

static gboolean
db_failed (CsPluginResultTable  *self,
           GError              **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write the result table %s: %s"), self->name, sqlite3_errmsg (self->db));
  return FALSE;
}

static gboolean
work_rows (CsPluginResultTable  *self,
           Stage                *stage,
           const Chunk          *chunk,
           GError              **error)
{
  for (guint first = 0; first < chunk->n; first += _CS_RESULT_CHUNK)
    {
      gsize len = _cs_result_rows_encode (chunk->v + (gsize) first * self->stride,
                                          MIN (chunk->n - first, _CS_RESULT_CHUNK),
                                          self->n_fixed, self->n_optional, self->row_bytes);
      int rc;

      sqlite3_bind_int64 (self->insert_rows, 1, self->n_row_chunks);
      sqlite3_bind_blob (self->insert_rows, 2, self->row_bytes, (int) len, SQLITE_STATIC);
      rc = sqlite3_step (self->insert_rows);
      sqlite3_reset (self->insert_rows);
      if (rc != SQLITE_DONE)
        return db_failed (self, error);
      self->n_row_chunks++;
    }
  return TRUE;
}

/* An order's stage: each row's record to the order's sorter. */
static gboolean
work_order (CsPluginResultTable  *self,
            Stage                *stage,
            const Chunk          *chunk,
            GError              **error)
{
  const Order_ *o = &self->orders[stage->order];

  for (guint r = 0; r < chunk->n; r++)
    {
      gint64 record[CS_PLUGIN_RESULT_MAX_FIELDS];

      o->record_func (chunk->v + (gsize) r * self->stride, chunk->first + r, record, o->user_data);
      for (guint k = 0; k < o->n_desc; k++)
        record[o->desc_fields[k]] = -record[o->desc_fields[k]];
      if (!_cs_result_sorter_add (stage->sorter, record, error))
        return FALSE;
    }
  return TRUE;
}

static gpointer
stage_thread (gpointer data)
{
  Stage *stage = data;
  CsPluginResultTable *self = stage->writer;
  Chunk *chunk;

  while ((chunk = g_async_queue_pop (stage->in)) != &stop)
    {
      if (!g_atomic_int_get (&self->failed) && !g_atomic_int_get (&self->abandon) &&
          !stage->work (self, stage, chunk, &stage->error))
        g_atomic_int_set (&self->failed, TRUE);
      if (g_atomic_int_dec_and_test (&chunk->n_stages_left))
        {
          chunk->n = 0;
          g_async_queue_push (self->empty, chunk);
        }
    }
  return NULL;
}

/* Works a full chunk with every stage in the caller's thread (a table
 * written in the same thread), then empties it for the next rows. */
static gboolean
work_here (CsPluginResultTable  *self,
           Chunk                *chunk,
           GError              **error)
{
  for (guint i = 0; i < self->n_stages; i++)
    if (!self->stages[i].work (self, &self->stages[i], chunk, error))
      return FALSE;
  chunk->n = 0;
  return TRUE;
}

/* Hands a full chunk to every stage. */
static void
dispatch (CsPluginResultTable *self,
          Chunk           *chunk)
{
  g_atomic_int_set (&chunk->n_stages_left, (gint) self->n_stages);
  for (guint i = 0; i < self->n_stages; i++)
    g_async_queue_push (self->stages[i].in, chunk);
}

/* Waits for the stages to have done everything handed to them. */
static void
join (CsPluginResultTable *self)
{
  for (guint i = 0; i < self->n_stages; i++)
    if (self->stages[i].thread != NULL)
      g_async_queue_push (self->stages[i].in, &stop);
  for (guint i = 0; i < self->n_stages; i++)
    if (self->stages[i].thread != NULL)
      g_thread_join (g_steal_pointer (&self->stages[i].thread));
}

static gboolean
thread_failed (CsPluginResultTable  *self,
               GError          **error)
{
  if (!g_atomic_int_get (&self->failed))
    return FALSE;
  /* Read only once the stages are joined, or by the stage itself. */
  for (guint i = 0; i < self->n_stages; i++)
    if (self->stages[i].error != NULL && self->stages[i].thread == NULL)
      {
        if (error != NULL && *error == NULL)
          *error = g_error_copy (self->stages[i].error);
        return TRUE;
      }
  if (error != NULL && *error == NULL)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                 _("Cannot write the result table %s"), self->name);
  return TRUE;
}

/* Whether @info is a table this file can write; the programmer's error
 * otherwise. */
static gboolean
info_is_valid (const CsPluginResultTableInfo *info)
{
  guint n_columns = info->columns != NULL ? g_strv_length ((char **) info->columns) : 0;

  g_return_val_if_fail (_cs_result_is_identifier (info->module) &&
                        _cs_result_is_identifier (info->name), FALSE);
  g_return_val_if_fail (info->n_optional <= CS_PLUGIN_RESULT_MAX_OPTIONAL &&
                        n_columns > info->n_optional &&
                        n_columns - info->n_optional <= CS_PLUGIN_RESULT_MAX_FIXED, FALSE);
  for (guint c = 0; c < n_columns; c++)
    g_return_val_if_fail (_cs_result_is_identifier (info->columns[c]), FALSE);
  g_return_val_if_fail (info->n_orders <= CS_PLUGIN_RESULT_MAX_ORDERS &&
                        (info->n_orders == 0 || info->orders != NULL), FALSE);
  for (guint i = 0; i < info->n_orders; i++)
    {
      const CsPluginResultOrder *o = &info->orders[i];
      guint n_stored = o->stored != NULL ? g_strv_length ((char **) o->stored) : 0;

      g_return_val_if_fail (_cs_result_is_identifier (o->name) && o->record_func != NULL &&
                            o->n_fields >= 1 && o->n_fields <= CS_PLUGIN_RESULT_MAX_FIELDS &&
                            o->n_radix_fields <= o->n_fields &&
                            n_stored >= 1 && n_stored <= CS_PLUGIN_RESULT_MAX_STORED &&
                            o->stored_fields != NULL &&
                            (o->group_column == NULL ||
                             _cs_result_is_identifier (o->group_column)), FALSE);
      for (guint c = 0; c < n_stored; c++)
        g_return_val_if_fail (_cs_result_is_identifier (o->stored[c]) && o->stored_fields[c] < o->n_fields,
                              FALSE);
    }
  return TRUE;
}

/* The CREATE statements of the tables of @self. */
static char *
schema_sql (CsPluginResultTable           *self,
            const CsPluginResultTableInfo *info)
{
  GString *sql = g_string_new (NULL);

  g_string_append_printf (sql,
                          "CREATE TABLE %s_chunks (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);"
                          "CREATE VIRTUAL TABLE %s_rows USING %s(%s_chunks, %u, %d",
                          self->name, self->name, info->module, self->name, self->n_fixed,
                          self->sorted);
  for (guint c = 0; info->columns[c] != NULL; c++)
    g_string_append_printf (sql, ", %s", info->columns[c]);
  g_string_append (sql, ");");
  for (guint i = 0; i < self->n_orders; i++)
    {
      const Order_ *o = &self->orders[i];

      g_string_append_printf (sql, "CREATE TABLE %s (chunk INTEGER PRIMARY KEY", o->name);
      for (guint c = 0; c < o->n_stored; c++)
        g_string_append_printf (sql, ", %s BLOB NOT NULL", o->stored[c]);
      g_string_append (sql, ");");
      if (o->group_column != NULL)
        g_string_append_printf (sql, "CREATE TABLE %s_span (%s INTEGER PRIMARY KEY,"
                                " lo INTEGER NOT NULL, hi INTEGER NOT NULL);",
                                o->name, o->group_column);
    }
  return g_string_free (sql, FALSE);
}

/**
 * cs_plugin_result_table_new:
 * @db: the pass's database (cs_plugin_pass_get_db()), in the pass's
 *   transaction, with @info's module registered (cs_plugin_result_register())
 * @info: the table's columns and orders, copied
 * @error: %CS_PLUGIN_ERROR_FAILED when the tables cannot be created (a
 *   name is taken)
 *
 * Creates the tables @info names (NAME_chunks, NAME_rows and each order's,
 * see #CsPluginResultTableInfo) and starts the threads that write them
 * (none when #CsPluginResultTableInfo.same_thread is set).  From now until
 * cs_plugin_result_table_finish() or cs_plugin_result_table_free(), the
 * caller does not use @db, unless the table is written in its thread.
 * The pass's thread; the table is then used from that thread only.
 *
 * Returns: (transfer full) (nullable): the table, or %NULL with @error
 *   set; free with cs_plugin_result_table_free()
 */
CsPluginResultTable *
cs_plugin_result_table_new (sqlite3                        *db,
                            const CsPluginResultTableInfo  *info,
                            GError                        **error)
{
  g_autoptr(CsPluginResultTable) self = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *insert = NULL;
  guint64 run = info->run_records;

  g_return_val_if_fail (db != NULL && info != NULL && info_is_valid (info), NULL);

  self = g_new0 (CsPluginResultTable, 1);
  self->db = db;
  self->name = g_strdup (info->name);
  self->n_optional = info->n_optional;
  self->n_fixed = g_strv_length ((char **) info->columns) - info->n_optional;
  self->stride = self->n_fixed + 1 + self->n_optional;
  self->sorted = -1;
  self->last_sorted = G_MININT64;
  for (guint c = 0; info->sorted_column != NULL && c < self->n_fixed; c++)
    if (g_strcmp0 (info->columns[c], info->sorted_column) == 0)
      self->sorted = (int) c;
  g_return_val_if_fail (info->sorted_column == NULL || self->sorted >= 0, NULL);
  self->sorted_name = g_strdup (info->sorted_column);
  self->n_orders = info->n_orders;
  for (guint i = 0; i < info->n_orders; i++)
    {
      const CsPluginResultOrder *from = &info->orders[i];
      Order_ *o = &self->orders[i];

      o->name = g_strdup (from->name);
      o->n_fields = from->n_fields;
      o->descending = from->descending;
      for (guint f = 0; f < from->n_fields; f++)
        if (from->descending & (1u << f))
          o->desc_fields[o->n_desc++] = f;
      o->group_sign = from->descending & 1 ? -1 : 1;
      o->n_stored = g_strv_length ((char **) from->stored);
      for (guint c = 0; c < o->n_stored; c++)
        {
          o->stored[c] = g_strdup (from->stored[c]);
          o->stored_fields[c] = from->stored_fields[c];
          o->stored_sign[c] = from->descending & (1u << from->stored_fields[c]) ? -1 : 1;
        }
      o->group_column = g_strdup (from->group_column);
      o->record_func = from->record_func;
      o->user_data = from->user_data;
    }
  sql = schema_sql (self, info);
  if (!exec (self, sql, error))
    return NULL;
  insert = g_strdup_printf ("INSERT INTO %s_chunks VALUES (?1, ?2)", self->name);
  if (sqlite3_prepare_v2 (db, insert, -1, &self->insert_rows, NULL) != SQLITE_OK)
    {
      db_failed (self, error);
      return NULL;
    }
  self->row_bytes = g_malloc (_CS_RESULT_ROWS_MAX_BYTES);
  if (run == 0 || run > RUN_RECORDS)
    run = RUN_RECORDS;
  self->empty = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    {
      Chunk *c = g_new0 (Chunk, 1);

      c->v = g_new (gint64, (gsize) CHUNK_ROWS * self->stride);
      g_async_queue_push (self->empty, c);
    }
  self->chunk = g_async_queue_pop (self->empty);
  self->n_stages = 1 + self->n_orders;
  self->stages[STAGE_ROWS].work = work_rows;
  for (guint i = 0; i < self->n_orders; i++)
    {
      Stage *stage = &self->stages[1 + i];

      stage->work = work_order;
      stage->order = i;
      stage->sorter = _cs_result_sorter_new (info->orders[i].n_fields,
                                             info->orders[i].n_radix_fields, (gsize) run);
    }
  for (guint i = 0; i < self->n_stages; i++)
    {
      self->stages[i].writer = self;
      self->stages[i].in = g_async_queue_new ();
    }
  self->same_thread = info->same_thread;
  for (guint i = 0; !self->same_thread && i < self->n_stages; i++)
    self->stages[i].thread = g_thread_new ("cs-result-table", stage_thread, &self->stages[i]);
  return g_steal_pointer (&self);
}

/**
 * cs_plugin_result_table_append:
 * @table: a table
 * @values: (array length=n_values): the row's fixed values, then its
 *   optional ones, copied
 * @n_values: from the number of fixed columns to that of all columns: the
 *   optional columns past @n_values are NULL in NAME_rows
 * @error: %CS_PLUGIN_ERROR_FAILED (or a #GFileError of the sorters) when a
 *   thread could not write earlier rows, or the sorted column would fall
 *
 * Queues a row at the next position (its rowid in NAME_rows is the
 * position + 1).  Usually returns at once; waits when the table's threads
 * are behind by more than the chunks it holds.  The pass's thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_table_append (CsPluginResultTable  *self,
                               const gint64         *values,
                               guint                 n_values,
                               GError              **error)
{
  Chunk *c = self->chunk;
  gint64 *row;

  g_return_val_if_fail (n_values >= self->n_fixed && n_values <= self->n_fixed + self->n_optional,
                        FALSE);

  if (self->sorted >= 0)
    {
      if (values[self->sorted] < self->last_sorted)
        {
          /* Numbers as text: xgettext cannot read G_GINT64_FORMAT. */
          g_autofree char *from = g_strdup_printf ("%" G_GINT64_FORMAT, self->last_sorted);
          g_autofree char *to = g_strdup_printf ("%" G_GINT64_FORMAT, values[self->sorted]);
          g_autofree char *row_text = g_strdup_printf ("%" G_GINT64_FORMAT, self->n_rows + 1);

          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("Cannot write the result table %s: %s falls from %s to %s at row %s"),
                       self->name, self->sorted_name, from, to, row_text);
          return FALSE;
        }
      self->last_sorted = values[self->sorted];
    }
  row = c->v + (gsize) c->n * self->stride;
  if (c->n == 0)
    c->first = self->n_rows;
  /* A few numbers: loops cost less than calls to memcpy(). */
  for (guint i = 0; i < self->n_fixed; i++)
    row[i] = values[i];
  row[self->n_fixed] = n_values - self->n_fixed;
  for (guint i = self->n_fixed; i < n_values; i++)
    row[i + 1] = values[i];
  /* The values a row lacks encode as 0 (cs-plugin-result-rows.c). */
  for (guint i = n_values + 1; i < self->stride; i++)
    row[i] = 0;
  c->n++;
  self->n_rows++;
  if (c->n < CHUNK_ROWS)
    return TRUE;
  if (self->same_thread)
    return work_here (self, c, error);
  if (g_atomic_int_get (&self->failed))
    {
      /* The stages' errors are read once they are joined. */
      join (self);
      thread_failed (self, error);
      return FALSE;
    }
  dispatch (self, c);
  self->chunk = g_async_queue_pop (self->empty);
  return TRUE;
}

/* The sorted orders are merged from their sorters at the end, each in a
 * thread of its own (the latency pass's two merges took 0.4 s one after
 * the other, the other core idle, on the large benchmark recording), and
 * handed as pieces to the caller's thread, which alone uses the database:
 * a piece is a chunk of the order's stored columns, and the spans of the
 * groups that ended in it.  N_PIECES pieces per order bound the memory. */
#define N_PIECES 4

typedef struct {
  guint order;
  gsize n;                      /* in @col */
  gint64 first;                 /* the position of col[..][0] */
  gint64 col[CS_PLUGIN_RESULT_MAX_STORED][CS_PLUGIN_RESULT_ORDER_CHUNK];
  GArray *spans;                /* gint64 triples (group, lo, hi), or NULL */
} Piece;

/* An order being merged, in its thread. */
typedef struct {
  const Order_ *spec;
  guint order;
  CsResultSorter *sorter;
  GThread *thread;
  GAsyncQueue *empty;           /* Piece * */
  GAsyncQueue *full;            /* the caller's, shared: Piece *, or the Merge when done */
  gint *abandon;                /* atomic: the caller failed, stop */
  const char *table;            /* for messages */
  Piece *piece;                 /* being filled */
  gint64 n_written;             /* positions before @piece's */
  gint64 group, lo;             /* the group being written, its first position */
  GError *error;                /* read once joined */
} Merge;

static gboolean
merge_flush (Merge   *m,
             GError **error)
{
  Piece *p = m->piece;

  if (g_atomic_int_get (m->abandon))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the result table %s"), m->table);
      return FALSE;
    }
  if (p->n == 0 && (p->spans == NULL || p->spans->len == 0))
    return TRUE;
  p->first = m->n_written;
  m->n_written += (gint64) p->n;
  g_async_queue_push (m->full, p);
  m->piece = g_async_queue_pop (m->empty);
  m->piece->n = 0;
  if (m->piece->spans != NULL)
    g_array_set_size (m->piece->spans, 0);
  return TRUE;
}

/* The position the next record goes to. */
static gint64
merge_position (const Merge *m)
{
  return m->n_written + (gint64) m->piece->n;
}

/* Ends the group being written: its span. */
static void
write_span (Merge *m)
{
  gint64 v[3] = { m->group, m->lo, merge_position (m) };

  if (merge_position (m) > m->lo)
    g_array_append_vals (m->piece->spans, v, 3);
}

static gboolean
write_record (const gint64  *record,
              gpointer       user_data,
              GError       **error)
{
  Merge *m = user_data;
  const Order_ *o = m->spec;
  Piece *p;

  if (o->group_column != NULL)
    {
      gint64 group = record[0] * o->group_sign;

      if (merge_position (m) > m->lo && group != m->group)
        {
          write_span (m);
          m->lo = merge_position (m);
        }
      m->group = group;
    }
  p = m->piece;
  for (guint c = 0; c < o->n_stored; c++)
    p->col[c][p->n] = record[o->stored_fields[c]] * o->stored_sign[c];
  return ++p->n < CS_PLUGIN_RESULT_ORDER_CHUNK || merge_flush (m, error);
}

static gpointer
merge_thread (gpointer data)
{
  Merge *m = data;

  m->piece = g_async_queue_pop (m->empty);
  if (_cs_result_sorter_finish (m->sorter, write_record, m, &m->error))
    {
      if (m->spec->group_column != NULL)
        write_span (m);
      merge_flush (m, &m->error);
    }
  g_async_queue_push (m->empty, m->piece);
  m->piece = NULL;
  g_async_queue_push (m->full, m);      /* done */
  return NULL;
}

/* Inserts @p's chunk, its columns encoded by cs_chunk_encode_records()
 * into @bytes (room for CS_PLUGIN_RESULT_MAX_STORED columns of
 * CS_PLUGIN_RESULT_ORDER_CHUNK numbers), and its spans. */
static gboolean
insert_piece (CsPluginResultTable  *self,
              sqlite3_stmt         *insert,
              CsResultBatch        *spans,
              const Piece          *p,
              guint8               *bytes,
              GError              **error)
{
  const Order_ *o = &self->orders[p->order];

  if (p->n > 0)
    {
      int rc;

      sqlite3_bind_int64 (insert, 1, p->first / CS_PLUGIN_RESULT_ORDER_CHUNK);
      for (guint c = 0; c < o->n_stored; c++)
        {
          guint8 *at = bytes + (gsize) c * CS_PLUGIN_RESULT_ORDER_CHUNK * CS_CHUNK_VARINT_MAX_BYTES;
          gsize len = cs_chunk_encode_records (p->col[c], p->n, 1, at);

          sqlite3_bind_blob (insert, (int) c + 2, at, (int) len, SQLITE_STATIC);
        }
      rc = sqlite3_step (insert);
      sqlite3_reset (insert);
      if (rc != SQLITE_DONE)
        return db_failed (self, error);
    }
  for (guint i = 0; p->spans != NULL && i < p->spans->len; i += 3)
    if (!_cs_result_batch_append (spans, &g_array_index (p->spans, gint64, i), 0, error))
      return FALSE;
  return TRUE;
}

/* The orders' tables, from the sorters: merged in threads, inserted
 * here. */
static gboolean
write_orders (CsPluginResultTable  *self,
              GError              **error)
{
  sqlite3_stmt *insert[CS_PLUGIN_RESULT_MAX_ORDERS] = { NULL, };
  CsResultBatch *spans[CS_PLUGIN_RESULT_MAX_ORDERS] = { NULL, };
  g_autofree Merge *merges = g_new0 (Merge, CS_PLUGIN_RESULT_MAX_ORDERS);
  g_autofree guint8 *bytes = g_malloc ((gsize) CS_PLUGIN_RESULT_MAX_STORED *
                                       CS_PLUGIN_RESULT_ORDER_CHUNK * CS_CHUNK_VARINT_MAX_BYTES);
  GAsyncQueue *full = g_async_queue_new ();
  gint abandon = FALSE;
  GError *local_error = NULL;
  guint n_running = 0;

  for (guint i = 0; local_error == NULL && i < self->n_orders; i++)
    {
      const Order_ *o = &self->orders[i];
      g_autoptr(GString) sql = g_string_new (NULL);

      g_string_printf (sql, "INSERT INTO %s VALUES (?1", o->name);
      for (guint c = 0; c < o->n_stored; c++)
        g_string_append_printf (sql, ", ?%u", c + 2);
      g_string_append_c (sql, ')');
      if (sqlite3_prepare_v2 (self->db, sql->str, -1, &insert[i], NULL) != SQLITE_OK)
        db_failed (self, &local_error);
      else if (o->group_column != NULL)
        {
          g_autofree char *table = g_strdup_printf ("%s_span", o->name);

          spans[i] = _cs_result_batch_new (self->db, table, 3, &local_error);
        }
    }
  for (guint i = 0; local_error == NULL && i < self->n_orders; i++)
    {
      Merge *m = &merges[i];

      m->spec = &self->orders[i];
      m->order = i;
      m->sorter = self->stages[1 + i].sorter;
      m->empty = g_async_queue_new ();
      m->full = full;
      m->abandon = &abandon;
      m->table = self->name;
      for (guint k = 0; k < N_PIECES; k++)
        {
          Piece *p = g_new0 (Piece, 1);

          p->order = i;
          if (m->spec->group_column != NULL)
            p->spans = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_async_queue_push (m->empty, p);
        }
      m->thread = g_thread_new ("cs-result-order", merge_thread, m);
      n_running++;
    }
  /* After a failure, the pieces still come (and go back) until every
   * thread is done. */
  while (n_running > 0)
    {
      gpointer item = g_async_queue_pop (full);
      Piece *p;

      if (item >= (gpointer) merges && item < (gpointer) (merges + CS_PLUGIN_RESULT_MAX_ORDERS))
        {
          n_running--;
          continue;
        }
      p = item;
      if (local_error == NULL &&
          !insert_piece (self, insert[p->order], spans[p->order], p, bytes, &local_error))
        g_atomic_int_set (&abandon, TRUE);
      g_async_queue_push (merges[p->order].empty, p);
    }
  for (guint i = 0; i < self->n_orders; i++)
    {
      Merge *m = &merges[i];
      Piece *p;

      if (m->thread != NULL)
        g_thread_join (m->thread);
      if (local_error == NULL && m->error != NULL)
        local_error = g_steal_pointer (&m->error);
      g_clear_error (&m->error);
      while (m->empty != NULL && (p = g_async_queue_try_pop (m->empty)) != NULL)
        {
          if (p->spans != NULL)
            g_array_unref (p->spans);
          g_free (p);
        }
      g_clear_pointer (&m->empty, g_async_queue_unref);
      sqlite3_finalize (insert[i]);
      if (local_error == NULL && spans[i] != NULL)
        _cs_result_batch_flush (spans[i], &local_error);
      _cs_result_batch_free (spans[i]);
    }
  g_async_queue_unref (full);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_plugin_result_table_finish:
 * @table: a table
 * @error: %CS_PLUGIN_ERROR_FAILED when a table cannot be written, a
 *   #GFileError when the sorters' temporary file fails
 *
 * Writes the queued rows, then the sorted orders.  The caller may use the
 * database again (and free the table).  The pass's thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_table_finish (CsPluginResultTable  *self,
                               GError              **error)
{
  if (self->same_thread)
    return (self->chunk->n == 0 || work_here (self, self->chunk, error)) &&
           write_orders (self, error);
  if (self->chunk->n > 0)
    {
      dispatch (self, self->chunk);
      self->chunk = NULL;
    }
  join (self);
  return !thread_failed (self, error) && write_orders (self, error);
}

/**
 * cs_plugin_result_table_free:
 * @table: (nullable): a table
 *
 * Stops the threads (dropping the rows not written yet, when the table is
 * not finished) and frees the table; the database keeps what was
 * written (roll the pass's transaction back to drop it).  The pass's
 * thread.
 */
void
cs_plugin_result_table_free (CsPluginResultTable *self)
{
  Chunk *c;

  if (self == NULL)
    return;
  g_atomic_int_set (&self->abandon, TRUE);
  join (self);
  if (self->chunk != NULL)
    g_free (self->chunk->v);
  g_free (self->chunk);
  for (guint i = 0; i < self->n_stages; i++)
    if (self->stages[i].in != NULL)
      {
        while ((c = g_async_queue_try_pop (self->stages[i].in)) != NULL)
          if (c != &stop)
            {
              g_free (c->v);
              g_free (c);
            }
        g_async_queue_unref (self->stages[i].in);
        g_clear_error (&self->stages[i].error);
      }
  if (self->empty != NULL)
    {
      while ((c = g_async_queue_try_pop (self->empty)) != NULL)
        {
          g_free (c->v);
          g_free (c);
        }
      g_async_queue_unref (self->empty);
    }
  sqlite3_finalize (self->insert_rows);
  g_free (self->row_bytes);
  for (guint i = 0; i < self->n_stages; i++)
    _cs_result_sorter_free (self->stages[i].sorter);
  for (guint i = 0; i < self->n_orders; i++)
    {
      Order_ *o = &self->orders[i];

      g_free (o->name);
      for (guint k = 0; k < o->n_stored; k++)
        g_free (o->stored[k]);
      g_free (o->group_column);
    }
  g_free (self->name);
  g_free (self->sorted_name);
  g_free (self);
}
