/* cs-latency-writer.c: the latency pass's tables, written in a thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass (cs-latency-pass.c) finds the pairs; this writes them, in
 * threads of its own so that reading the events and pairing them overlap
 * with SQLite's inserts and the sorting: the pass fills chunks of rows
 * and hands each full one to three stages at once, each a thread and a
 * queue, and takes back an empty chunk once all three are done with one
 * (N_CHUNKS in all: the memory is bounded, and a pass that gets ahead
 * waits; the stages work side by side, so a slow moment of one holds
 * the others back only once the chunks run out).  The first stage
 * encodes each chunk of rows into one blob of `latency_chunks`
 * (cs-latency-rowtab.c: one INSERT per 512 pairs, where rows of a
 * table cost an INSERT each, a tenth of the pass); the other two give each
 * pair to an external sorter (cs-latency-sorter.c), one for each order,
 * and at the end the two orders are merged side by side, each in a
 * thread, and written by the caller's thread as columns of numbers in
 * chunks (cs-latency-column.c).  SQLite indexes on `latency` would give the same
 * orders, but building them (CREATE INDEX after the inserts) took twice
 * as long as the rest of the pass, and rows of plain tables in those
 * orders still cost as much as the table `latency` itself.
 *
 * The database connection is used by one thread at a time: the first
 * stage's from the first chunk until it is joined, in
 * cs_latency_writer_finish() or cs_latency_writer_free(), the caller's
 * thread before and after.
 *
 * Tables (read by cs-latency-stats.c and cs-latency-layer.c):
 *   latency_pair  (pair, definition, a_event, b_event, a_keys, b_keys,
 *                  n_a, n_b, n_pairs, n_unmatched): one row per
 *                  CsLatencyPair, created here, written by the pass
 *   latency_chunks (chunk INTEGER PRIMARY KEY, data BLOB): the rows of
 *                  latency_rows, CS_LATENCY_ROWTAB_CHUNK per blob
 *   latency_rows  (a_ts, b_ts, ids, pp, k0, k1, k2, k3): a virtual table
 *                  over latency_chunks (cs-latency-rowtab.c): one row per
 *                  pair, in B's time order, so that rowids follow B's
 *                  time; the numbers of a row are packed into few
 *                  columns (as they were when it was a table of rows,
 *                  whose cost of an insert grew with its columns): ids is
 *                  a_row << 26 | a_cpu << 13 | b_cpu, pp is pid << 16 |
 *                  pair, keys the pair lacks are NULL, and so is the only
 *                  key k0 when it is the pid (the wakeups' key): a pair
 *                  has 1 to 4 keys, so k0 is never NULL otherwise
 *   latency       a view of latency_rows: (rowid, dur_ns, a_ts, a_cpu,
 *                  a_row, b_ts, b_cpu, pid, pair, k0, k1, k2, k3), what
 *                  the readers and SQL see (dur_ns is b_ts - a_ts, a
 *                  NULL k0 is the pid)
 *   latency_worst (chunk INTEGER PRIMARY KEY, dur_ns BLOB, id BLOB): the
 *                  pairs worst first (longest, then A's time, CPU and
 *                  row; position 0 is the worst): their durations, and
 *                  their rowids in `latency`
 *   latency_task  (chunk INTEGER PRIMARY KEY, dur_ns BLOB, a_ts BLOB):
 *                  the pairs by task (pid ascending), then longest first,
 *                  then A's time: their durations and A's times (B's is
 *                  A's plus the duration)
 *   latency_task_span (pid INTEGER PRIMARY KEY, lo, hi): the positions
 *                  [lo, hi) of each task's pairs in latency_task
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-batch.h"
#include "cs-latency-column.h"
#include "cs-latency-rowtab.h"
#include "cs-latency-sorter.h"
#include "cs-latency-varints.h"
#include "cs-latency-writer.h"

/* Records of the sorters, which sort them ascending: durations are
 * stored negated, for the longest first.  Worst first: longest, then
 * A's time, CPU and row, then the row; by task: pid, then longest, then
 * A's time.  Each sorter holds a run being filled, one being sorted
 * and written, and a spare as large for its merge sort: 3 × 28 MiB for
 * both. */
enum { W_DUR, W_A_TS, W_A_CPU_ROW, W_ID, N_WORST_FIELDS };
enum { T_PID, T_DUR, T_A_TS, N_TASK_FIELDS };
#define RUN_RECORDS (512 * 1024)   /* CS_LATENCY_SORT_RUN makes it shorter */
#define A_ROW_BITS 48

#define CHUNK_ROWS 4096
/* Every blob of latency_chunks but the last is full. */
G_STATIC_ASSERT (CHUNK_ROWS % CS_LATENCY_ROWTAB_CHUNK == 0);
#define N_CHUNKS 12

/* latency_rows' packing (see above): CPUs below 2^13 (the kernel's
 * NR_CPUS is at most 8192), rows below 2^37, pairs below 2^16. */
#define CPU_BITS 13
#define ROW_BITS 37
#define PAIR_BITS 16
#define MAX_KEYS (CS_LATENCY_N_COLUMNS - CS_LATENCY_COL_K0)
#define LATENCY_VIEW \
  "CREATE VIEW latency AS SELECT rowid AS rowid, b_ts - a_ts AS dur_ns, a_ts," \
  " (ids >> 13) & 8191 AS a_cpu, ids >> 26 AS a_row, b_ts, ids & 8191 AS b_cpu," \
  " pp >> 16 AS pid, pp & 65535 AS pair, ifnull(k0, pp >> 16) AS k0, k1, k2, k3" \
  " FROM latency_rows;"

typedef struct {
  gint64 v[CHUNK_ROWS][CS_LATENCY_N_COLUMNS];
  guint8 n_keys[CHUNK_ROWS];
  guint n;
  gint n_stages_left;           /* atomic: stages not done with it yet */
} Chunk;

/* A stage: takes chunks from @in and works on them; the last stage done
 * with a chunk gives it back to the writer's empty chunks. */
typedef struct {
  CsLatencyWriter *writer;
  gboolean (*work) (CsLatencyWriter *writer, const Chunk *chunk, GError **error);
  GThread *thread;
  GAsyncQueue *in;              /* Chunk *, or &stop */
  GError *error;                /* the stage's failure, once writer->failed */
} Stage;

enum { STAGE_ROWS, STAGE_WORST, STAGE_TASK, N_STAGES };

struct _CsLatencyWriter
{
  sqlite3 *db;
  /* Into `latency_chunks` (STAGE_ROWS): a chunk's rows, encoded. */
  sqlite3_stmt *insert_rows;
  gint64 n_row_chunks;          /* inserted */
  gint64 *rows;                 /* CHUNK_ROWS × CS_LATENCY_ROWTAB_FIELDS */
  guint8 *row_bytes;            /* CS_LATENCY_ROWTAB_MAX_BYTES */
  CsLatencySorter *worst;       /* W_ records (STAGE_WORST) */
  gint64 n_worst;               /* records given to it: the last rowid */
  CsLatencySorter *by_task;     /* T_ records (STAGE_TASK) */

  Stage stages[N_STAGES];
  GAsyncQueue *empty;           /* Chunk * */
  Chunk *chunk;                 /* being filled */
  gint failed;                  /* atomic: a stage failed, see its error */
  gint abandon;                 /* atomic: drop what comes */
};

/* What tells the thread to end. */
static Chunk stop;

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write the latency pairs: %s"), message);
  sqlite3_free (message);
  return FALSE;
}

static gboolean
work_rows (CsLatencyWriter  *self,
           const Chunk      *chunk,
           GError          **error)
{
  if (chunk->n == 0)
    return TRUE;
  for (guint r = 0; r < chunk->n; r++)
    {
      const gint64 *v = chunk->v[r];
      gint64 *row = self->rows + (gsize) r * CS_LATENCY_ROWTAB_FIELDS;
      guint n_keys = MIN (chunk->n_keys[r], MAX_KEYS);

      /* k0 NULL: the pid. */
      if (n_keys == 1 && v[CS_LATENCY_COL_K0] == v[CS_LATENCY_COL_PID])
        n_keys = 0;
      if ((guint64) v[CS_LATENCY_COL_A_CPU] >> CPU_BITS != 0 ||
          (guint64) v[CS_LATENCY_COL_B_CPU] >> CPU_BITS != 0 ||
          (guint64) v[CS_LATENCY_COL_A_ROW] >> ROW_BITS != 0 ||
          (guint64) v[CS_LATENCY_COL_PAIR] >> PAIR_BITS != 0 ||
          v[CS_LATENCY_COL_PID] != (gint32) v[CS_LATENCY_COL_PID])
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("Cannot write the latency pairs: the pair of row %" PRId64
                         " of CPU %" PRId64 " is out of range"),
                       v[CS_LATENCY_COL_A_ROW], v[CS_LATENCY_COL_A_CPU]);
          return FALSE;
        }
      row[CS_LATENCY_ROWTAB_A_TS] = v[CS_LATENCY_COL_A_TS];
      row[CS_LATENCY_ROWTAB_B_TS] = v[CS_LATENCY_COL_B_TS];
      row[CS_LATENCY_ROWTAB_IDS] = (v[CS_LATENCY_COL_A_ROW] << (2 * CPU_BITS)) |
                                   (v[CS_LATENCY_COL_A_CPU] << CPU_BITS) | v[CS_LATENCY_COL_B_CPU];
      row[CS_LATENCY_ROWTAB_PP] = (gint64) ((guint64) v[CS_LATENCY_COL_PID] << PAIR_BITS) |
                                  v[CS_LATENCY_COL_PAIR];
      row[CS_LATENCY_ROWTAB_N_KEYS] = n_keys;
      memcpy (row + CS_LATENCY_ROWTAB_K0, v + CS_LATENCY_COL_K0, n_keys * sizeof (gint64));
    }
  for (guint first = 0; first < chunk->n; first += CS_LATENCY_ROWTAB_CHUNK)
    {
      gsize len = cs_latency_rowtab_encode (self->rows + (gsize) first * CS_LATENCY_ROWTAB_FIELDS,
                                            MIN (chunk->n - first, CS_LATENCY_ROWTAB_CHUNK),
                                            self->row_bytes);
      int rc;

      sqlite3_bind_int64 (self->insert_rows, 1, self->n_row_chunks);
      sqlite3_bind_blob (self->insert_rows, 2, self->row_bytes, (int) len, SQLITE_STATIC);
      rc = sqlite3_step (self->insert_rows);
      sqlite3_reset (self->insert_rows);
      if (rc != SQLITE_DONE)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("Cannot write the latency pairs: %s"), sqlite3_errmsg (self->db));
          return FALSE;
        }
      self->n_row_chunks++;
    }
  return TRUE;
}

static gboolean
work_worst (CsLatencyWriter  *self,
            const Chunk      *chunk,
            GError          **error)
{
  for (guint r = 0; r < chunk->n; r++)
    {
      const gint64 *v = chunk->v[r];
      gint64 worst[N_WORST_FIELDS];

      worst[W_DUR] = -v[CS_LATENCY_COL_DUR];
      worst[W_A_TS] = v[CS_LATENCY_COL_A_TS];
      worst[W_A_CPU_ROW] = (v[CS_LATENCY_COL_A_CPU] << A_ROW_BITS) | v[CS_LATENCY_COL_A_ROW];
      worst[W_ID] = ++self->n_worst;    /* rows go into `latency` in this order */
      if (!cs_latency_sorter_add (self->worst, worst, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
work_task (CsLatencyWriter  *self,
           const Chunk      *chunk,
           GError          **error)
{
  for (guint r = 0; r < chunk->n; r++)
    {
      const gint64 *v = chunk->v[r];
      gint64 task[N_TASK_FIELDS];

      task[T_PID] = v[CS_LATENCY_COL_PID];
      task[T_DUR] = -v[CS_LATENCY_COL_DUR];
      task[T_A_TS] = v[CS_LATENCY_COL_A_TS];
      if (!cs_latency_sorter_add (self->by_task, task, error))
        return FALSE;
    }
  return TRUE;
}

static gpointer
stage_thread (gpointer data)
{
  Stage *stage = data;
  CsLatencyWriter *self = stage->writer;
  Chunk *chunk;

  while ((chunk = g_async_queue_pop (stage->in)) != &stop)
    {
      if (!g_atomic_int_get (&self->failed) && !g_atomic_int_get (&self->abandon) &&
          !stage->work (self, chunk, &stage->error))
        g_atomic_int_set (&self->failed, TRUE);
      if (g_atomic_int_dec_and_test (&chunk->n_stages_left))
        {
          chunk->n = 0;
          g_async_queue_push (self->empty, chunk);
        }
    }
  return NULL;
}

/* Hands a full chunk to every stage. */
static void
dispatch (CsLatencyWriter *self,
          Chunk           *chunk)
{
  g_atomic_int_set (&chunk->n_stages_left, N_STAGES);
  for (guint i = 0; i < N_STAGES; i++)
    g_async_queue_push (self->stages[i].in, chunk);
}

/* Waits for the stages to have done everything handed to them. */
static void
join (CsLatencyWriter *self)
{
  for (guint i = 0; i < N_STAGES; i++)
    if (self->stages[i].thread != NULL)
      g_async_queue_push (self->stages[i].in, &stop);
  for (guint i = 0; i < N_STAGES; i++)
    if (self->stages[i].thread != NULL)
      g_thread_join (g_steal_pointer (&self->stages[i].thread));
}

static gboolean
thread_failed (CsLatencyWriter  *self,
               GError          **error)
{
  if (!g_atomic_int_get (&self->failed))
    return FALSE;
  /* Read only once the stages are joined, or by the stage itself. */
  for (guint i = 0; i < N_STAGES; i++)
    if (self->stages[i].error != NULL && self->stages[i].thread == NULL)
      {
        if (error != NULL && *error == NULL)
          *error = g_error_copy (self->stages[i].error);
        return TRUE;
      }
  if (error != NULL && *error == NULL)
    g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                         _("Cannot write the latency pairs"));
  return TRUE;
}

/**
 * cs_latency_writer_new:
 * @db: the pass's database, in the pass's transaction
 * @error: %CS_PLUGIN_ERROR_FAILED when the tables cannot be created
 *
 * Creates the tables `latency_pair` (the pass fills it at the end),
 * `latency_chunks`, `latency_rows` (its module must be registered on
 * @db: cs_latency_rowtab_register()), the view `latency`,
 * `latency_worst`, `latency_task` and `latency_task_span`,
 * and starts the thread that writes them.  From now
 * until cs_latency_writer_finish() or cs_latency_writer_free(), the
 * caller does not use @db.
 *
 * Returns: (transfer full) (nullable): the writer, or %NULL with @error
 *   set
 */
CsLatencyWriter *
cs_latency_writer_new (sqlite3  *db,
                       GError  **error)
{
  CsLatencyWriter *self;
  guint64 run;

  if (!exec (db,
             "CREATE TABLE latency_pair (pair INTEGER PRIMARY KEY, definition TEXT NOT NULL,"
             " a_event TEXT NOT NULL, b_event TEXT NOT NULL, a_keys TEXT NOT NULL,"
             " b_keys TEXT NOT NULL, n_a INTEGER, n_b INTEGER, n_pairs INTEGER,"
             " n_unmatched INTEGER);"
             "CREATE TABLE latency_chunks (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);"
             "CREATE VIRTUAL TABLE latency_rows USING cs_latency_rows;"
             LATENCY_VIEW
             "CREATE TABLE latency_worst (chunk INTEGER PRIMARY KEY, dur_ns BLOB NOT NULL,"
             " id BLOB NOT NULL);"
             "CREATE TABLE latency_task (chunk INTEGER PRIMARY KEY, dur_ns BLOB NOT NULL,"
             " a_ts BLOB NOT NULL);"
             "CREATE TABLE latency_task_span (pid INTEGER PRIMARY KEY, lo INTEGER NOT NULL,"
             " hi INTEGER NOT NULL);", error))
    return NULL;
  self = g_new0 (CsLatencyWriter, 1);
  self->db = db;
  if (sqlite3_prepare_v2 (db, "INSERT INTO latency_chunks VALUES (?1, ?2)", -1,
                          &self->insert_rows, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the latency pairs: %s"), sqlite3_errmsg (db));
      g_free (self);
      return NULL;
    }
  self->rows = g_new (gint64, (gsize) CHUNK_ROWS * CS_LATENCY_ROWTAB_FIELDS);
  self->row_bytes = g_malloc (CS_LATENCY_ROWTAB_MAX_BYTES);
  /* Tests make the runs short, to merge many of them on small recordings. */
  run = g_getenv ("CS_LATENCY_SORT_RUN") != NULL
        ? g_ascii_strtoull (g_getenv ("CS_LATENCY_SORT_RUN"), NULL, 10) : 0;
  if (run == 0 || run > RUN_RECORDS)
    run = RUN_RECORDS;
  /* By radix on the durations (and the pids), then by comparisons
   * between the pairs of one duration (and task). */
  self->worst = cs_latency_sorter_new (N_WORST_FIELDS, 1, run);
  self->by_task = cs_latency_sorter_new (N_TASK_FIELDS, 2, run);
  self->empty = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    g_async_queue_push (self->empty, g_new0 (Chunk, 1));
  self->chunk = g_async_queue_pop (self->empty);
  self->stages[STAGE_ROWS].work = work_rows;
  self->stages[STAGE_WORST].work = work_worst;
  self->stages[STAGE_TASK].work = work_task;
  for (guint i = 0; i < N_STAGES; i++)
    {
      self->stages[i].writer = self;
      self->stages[i].in = g_async_queue_new ();
    }
  for (guint i = 0; i < N_STAGES; i++)
    {
      self->stages[i].thread = g_thread_new ("cs-latency-writer", stage_thread, &self->stages[i]);
    }
  return self;
}

/**
 * cs_latency_writer_add:
 * @writer: a writer
 * @row: the CS_LATENCY_N_COLUMNS values of a row of `latency`, copied
 * @n_keys: how many of k0..k3 the pair has (the others are NULL)
 * @error: %CS_PLUGIN_ERROR_FAILED when the thread could not write
 *   earlier rows
 *
 * Queues a pair.  Pairs come in B's time order.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_writer_add (CsLatencyWriter  *self,
                       const gint64     *row,
                       guint             n_keys,
                       GError          **error)
{
  Chunk *c = self->chunk;

  memcpy (c->v[c->n], row, sizeof c->v[0]);
  c->n_keys[c->n++] = (guint8) n_keys;
  if (c->n < CHUNK_ROWS)
    return TRUE;
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

/* The two sorted orders are merged from their sorters at the end, each
 * in a thread of its own (the merges took 0.4 s one after the other, the
 * other core idle, on the large benchmark recording), and handed as
 * pieces to the caller's thread, which alone uses the database: a piece
 * is a chunk of the order's two columns, and for latency_task the spans
 * of the tasks that ended in it.  N_PIECES pieces per order bound the
 * memory. */
#define N_PIECES 4

enum { ORDER_WORST, ORDER_TASK, N_ORDERS };

typedef struct {
  guint order;                  /* ORDER_ */
  gsize n;                      /* in @col */
  gint64 first;                 /* the position of col[..][0] */
  gint64 col[2][CS_LATENCY_CHUNK];
  GArray *spans;                /* gint64 triples (pid, lo, hi), or NULL */
} Piece;

/* An order being merged, in its thread. */
typedef struct {
  guint order;
  CsLatencySorter *sorter;
  CsLatencySorterFunc record_func;
  GThread *thread;
  GAsyncQueue *empty;           /* Piece * */
  GAsyncQueue *full;            /* the caller's, shared: Piece *, or the Order when done */
  gint *abandon;                /* atomic: the caller failed, stop */
  Piece *piece;                 /* being filled */
  gint64 n_written;             /* positions before @piece's */
  gint64 pid, lo;               /* the task being written, its first position */
  GError *error;                /* read once joined */
} Order;

static gboolean
order_flush (Order   *o,
             GError **error)
{
  Piece *p = o->piece;

  if (g_atomic_int_get (o->abandon))
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           _("Cannot write the latency pairs"));
      return FALSE;
    }
  if (p->n == 0 && (p->spans == NULL || p->spans->len == 0))
    return TRUE;
  p->first = o->n_written;
  o->n_written += (gint64) p->n;
  g_async_queue_push (o->full, p);
  o->piece = g_async_queue_pop (o->empty);
  o->piece->n = 0;
  if (o->piece->spans != NULL)
    g_array_set_size (o->piece->spans, 0);
  return TRUE;
}

static gboolean
order_append (Order   *o,
              gint64   a,
              gint64   b,
              GError **error)
{
  Piece *p = o->piece;

  p->col[0][p->n] = a;
  p->col[1][p->n] = b;
  return ++p->n < CS_LATENCY_CHUNK || order_flush (o, error);
}

/* The position the next number goes to. */
static gint64
order_position (const Order *o)
{
  return o->n_written + (gint64) o->piece->n;
}

static gboolean
write_worst_record (const gint64  *record,
                    gpointer       user_data,
                    GError       **error)
{
  return order_append (user_data, -record[W_DUR], record[W_ID], error);
}

/* Ends the task being written: its span. */
static void
write_span (Order *o)
{
  gint64 v[3] = { o->pid, o->lo, order_position (o) };

  if (order_position (o) > o->lo)
    g_array_append_vals (o->piece->spans, v, 3);
}

static gboolean
write_task_record (const gint64  *record,
                   gpointer       user_data,
                   GError       **error)
{
  Order *o = user_data;

  if (order_position (o) > o->lo && record[T_PID] != o->pid)
    {
      write_span (o);
      o->lo = order_position (o);
    }
  o->pid = record[T_PID];
  return order_append (o, -record[T_DUR], record[T_A_TS], error);
}

static gpointer
order_thread (gpointer data)
{
  Order *o = data;

  o->piece = g_async_queue_pop (o->empty);
  if (cs_latency_sorter_finish (o->sorter, o->record_func, o, &o->error))
    {
      if (o->order == ORDER_TASK)
        write_span (o);
      order_flush (o, &o->error);
    }
  g_async_queue_push (o->empty, o->piece);
  o->piece = NULL;
  g_async_queue_push (o->full, o);      /* done */
  return NULL;
}

/* Inserts @p's chunk, its columns encoded by cs_latency_varints_encode()
 * into @bytes (room for two columns of CS_LATENCY_CHUNK numbers), and
 * its spans. */
static gboolean
insert_piece (sqlite3_stmt    *insert,
              CsLatencyBatch  *spans,
              const Piece     *p,
              guint8          *bytes,
              GError         **error)
{
  int rc;

  if (p->n > 0)
    {
      guint8 *second = bytes + CS_LATENCY_CHUNK * CS_LATENCY_VARINT_MAX_BYTES;
      gsize len0 = cs_latency_varints_encode (p->col[0], p->n, 1, bytes);
      gsize len1 = cs_latency_varints_encode (p->col[1], p->n, 1, second);

      sqlite3_bind_int64 (insert, 1, p->first / CS_LATENCY_CHUNK);
      sqlite3_bind_blob (insert, 2, bytes, (int) len0, SQLITE_STATIC);
      sqlite3_bind_blob (insert, 3, second, (int) len1, SQLITE_STATIC);
      rc = sqlite3_step (insert);
      sqlite3_reset (insert);
      if (rc != SQLITE_DONE)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("Cannot write the latency pairs: %s"),
                       sqlite3_errmsg (sqlite3_db_handle (insert)));
          return FALSE;
        }
    }
  for (guint i = 0; p->spans != NULL && i < p->spans->len; i += 3)
    if (!cs_latency_batch_append (spans, &g_array_index (p->spans, gint64, i), 0, error))
      return FALSE;
  return TRUE;
}

/* latency_worst, latency_task and latency_task_span, from the sorters:
 * merged in two threads, inserted here. */
static gboolean
write_orders (CsLatencyWriter  *self,
              GError          **error)
{
  const char *tables[N_ORDERS] = { "latency_worst", "latency_task" };
  sqlite3_stmt *insert[N_ORDERS] = { NULL, NULL };
  g_autoptr(CsLatencyBatch) spans = NULL;
  g_autofree Order *orders = g_new0 (Order, N_ORDERS);
  g_autofree guint8 *bytes = g_malloc (2 * CS_LATENCY_CHUNK * CS_LATENCY_VARINT_MAX_BYTES);
  GAsyncQueue *full = g_async_queue_new ();
  gint abandon = FALSE;
  GError *local_error = NULL;
  guint n_running = 0;

  for (guint i = 0; i < N_ORDERS; i++)
    {
      g_autofree char *sql = g_strdup_printf ("INSERT INTO %s VALUES (?1, ?2, ?3)", tables[i]);

      if (local_error == NULL &&
          sqlite3_prepare_v2 (self->db, sql, -1, &insert[i], NULL) != SQLITE_OK)
        g_set_error (&local_error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                     _("Cannot write the latency pairs: %s"), sqlite3_errmsg (self->db));
    }
  if (local_error == NULL)
    spans = cs_latency_batch_new (self->db, "latency_task_span", 3, &local_error);
  for (guint i = 0; local_error == NULL && i < N_ORDERS; i++)
    {
      Order *o = &orders[i];

      o->order = i;
      o->sorter = i == ORDER_WORST ? self->worst : self->by_task;
      o->record_func = i == ORDER_WORST ? write_worst_record : write_task_record;
      o->empty = g_async_queue_new ();
      o->full = full;
      o->abandon = &abandon;
      for (guint k = 0; k < N_PIECES; k++)
        {
          Piece *p = g_new0 (Piece, 1);

          p->order = i;
          if (i == ORDER_TASK)
            p->spans = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_async_queue_push (o->empty, p);
        }
      o->thread = g_thread_new ("cs-latency-order", order_thread, o);
      n_running++;
    }
  /* After a failure, the pieces still come (and go back) until both
   * threads are done. */
  while (n_running > 0)
    {
      gpointer item = g_async_queue_pop (full);
      Piece *p;

      if (item == &orders[ORDER_WORST] || item == &orders[ORDER_TASK])
        {
          n_running--;
          continue;
        }
      p = item;
      if (local_error == NULL &&
          !insert_piece (insert[p->order], spans, p, bytes, &local_error))
        g_atomic_int_set (&abandon, TRUE);
      g_async_queue_push (orders[p->order].empty, p);
    }
  for (guint i = 0; i < N_ORDERS; i++)
    {
      Order *o = &orders[i];
      Piece *p;

      if (o->thread != NULL)
        g_thread_join (o->thread);
      if (local_error == NULL && o->error != NULL)
        local_error = g_steal_pointer (&o->error);
      g_clear_error (&o->error);
      while (o->empty != NULL && (p = g_async_queue_try_pop (o->empty)) != NULL)
        {
          if (p->spans != NULL)
            g_array_unref (p->spans);
          g_free (p);
        }
      g_clear_pointer (&o->empty, g_async_queue_unref);
      sqlite3_finalize (insert[i]);
    }
  g_async_queue_unref (full);
  if (local_error == NULL && spans != NULL)
    cs_latency_batch_flush (spans, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_latency_writer_finish:
 * @writer: a writer
 * @error: %CS_PLUGIN_ERROR_FAILED when a table cannot be written, a
 *   #G_FILE_ERROR when the sorters' temporary file fails
 *
 * Writes the queued pairs, then latency_worst, latency_task and
 * latency_task_span.  The caller may use the database again.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_writer_finish (CsLatencyWriter  *self,
                          GError          **error)
{
  if (self->chunk->n > 0)
    {
      dispatch (self, self->chunk);
      self->chunk = NULL;
    }
  join (self);
  return !thread_failed (self, error) && write_orders (self, error);
}

/**
 * cs_latency_writer_free:
 * @writer: (nullable): a writer
 *
 * Stops the thread (dropping what it was not given yet) and frees the
 * writer.
 */
void
cs_latency_writer_free (CsLatencyWriter *self)
{
  Chunk *c;

  if (self == NULL)
    return;
  g_atomic_int_set (&self->abandon, TRUE);
  join (self);
  g_free (self->chunk);
  for (guint i = 0; i < N_STAGES; i++)
    if (self->stages[i].in != NULL)
      {
        while ((c = g_async_queue_try_pop (self->stages[i].in)) != NULL)
          if (c != &stop)
            g_free (c);
        g_async_queue_unref (self->stages[i].in);
        g_clear_error (&self->stages[i].error);
      }
  if (self->empty != NULL)
    {
      while ((c = g_async_queue_try_pop (self->empty)) != NULL)
        g_free (c);
      g_async_queue_unref (self->empty);
    }
  sqlite3_finalize (self->insert_rows);
  g_free (self->rows);
  g_free (self->row_bytes);
  cs_latency_sorter_free (self->worst);
  cs_latency_sorter_free (self->by_task);
  g_free (self);
}
