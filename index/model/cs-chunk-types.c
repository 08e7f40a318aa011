/* cs-chunk-types.c: which event types each event chunk holds, read from
 * event_chunk_types a block of chunks at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A reader of rare event types (a task's sched_migrate_task events, a
 * pair's interrupts) passes over the chunks that hold none of them
 * undecoded.  The table has a row per chunk (20,000 for the 83 M events
 * of the large benchmark recording, 1 MB of type ids); reading it whole
 * took 10.6-11.3 ms, a sixth of explaining that recording's worst wakeup,
 * whose span covers a tenth of it.  So a span reads only the blocks of
 * BLOCK_CHUNKS chunks it covers (_cs_document_read_chunk_types_span()),
 * and a pass over the whole recording still reads the table in one query
 * (_cs_document_read_chunk_types()).
 *
 * A block is read once, published whole and never changes afterwards, so
 * other threads may ask while the document's thread reads more (the pass
 * feed's streams): a block not read yet may hold any type.  A block whose rows are missing or out of order (a damaged
 * index) is kept as damaged: each of its chunks may hold any type, and a
 * span over it is scanned chunk by chunk instead of listed.
 */
#include "config.h"

#include <string.h>

#include "cs-document-private.h"
#include "cs-index-private.h"

/* Chunks of one CPU per block: 1 M events, a ~13 KB query.  The tests
 * make it smaller (_cs_document_set_chunk_types_block()), so that their
 * small recordings have spans over several blocks. */
#define BLOCK_CHUNKS 256

struct _CsChunkTypesBlock
{
  guint n;                      /* chunks read so far (block_chunks, or fewer in a CPU's last) */
  gboolean damaged;
  guint32 *starts;              /* block_chunks + 1: chunk i's ids are ids[starts[i] .. starts[i + 1]) */
  gint64 *first_ns;             /* block_chunks */
  GArray *ids;                  /* guint16, CS_CHUNK_TYPES_ANY: any type */
};

/* The number of chunks of block @b of @t. */
static guint
block_size (const CsChunkTypes *t,
            guint64             b)
{
  return (guint) MIN ((guint64) t->block_chunks, t->n_chunks - b * t->block_chunks);
}

static CsChunkTypesBlock *
block_new (const CsChunkTypes *t)
{
  CsChunkTypesBlock *block = g_new0 (CsChunkTypesBlock, 1);

  block->starts = g_new0 (guint32, t->block_chunks + 1);
  block->first_ns = g_new0 (gint64, t->block_chunks);
  block->ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  return block;
}

static void
block_free (CsChunkTypesBlock *block)
{
  g_free (block->starts);
  g_free (block->first_ns);
  g_array_free (block->ids, TRUE);
  g_free (block);
}

/**
 * _cs_document_set_chunk_types_block:
 * @self: a document whose event_chunk_types was not read yet
 * @n_chunks: chunks per block, 1 or more
 *
 * For the tests: reads the table @n_chunks chunks at a time instead of
 * BLOCK_CHUNKS.
 */
void
_cs_document_set_chunk_types_block (CsDocument *self,
                                    guint       n_chunks)
{
  g_return_if_fail (self->chunk_types == NULL && n_chunks > 0);
  self->chunk_types_block = n_chunks;
}

/* The per-CPU tables, made (with no block read) on first use. */
static CsChunkTypes *
ensure_tables (CsDocument *self)
{
  if (self->chunk_types == NULL && self->n_cpus > 0)
    {
      CsChunkTypes *tables = g_new0 (CsChunkTypes, self->n_cpus);

      for (guint c = 0; c < self->n_cpus; c++)
        {
          CsChunkTypes *t = &tables[c];

          /* A CPU's chunks are its rows CS_EVENT_CHUNK_ROWS at a time. */
          t->n_chunks = (self->cpus[c].n_events + CS_EVENT_CHUNK_ROWS - 1) / CS_EVENT_CHUNK_ROWS;
          t->block_chunks = self->chunk_types_block > 0 ? self->chunk_types_block : BLOCK_CHUNKS;
          t->n_blocks = (t->n_chunks + t->block_chunks - 1) / t->block_chunks;
          t->blocks = g_new0 (CsChunkTypesBlock *, MAX (t->n_blocks, 1));
        }
      /* Made whole, then published: see block_of(). */
      g_atomic_pointer_set (&self->chunk_types, tables);
    }
  return self->chunk_types;
}

/**
 * _cs_document_free_chunk_types:
 * @self: a document
 *
 * Frees what _cs_document_read_chunk_types() and
 * _cs_document_read_chunk_types_span() read (finalize).
 */
void
_cs_document_free_chunk_types (CsDocument *self)
{
  for (guint c = 0; self->chunk_types != NULL && c < self->n_cpus; c++)
    {
      CsChunkTypes *t = &self->chunk_types[c];

      for (guint64 b = 0; b < t->n_blocks; b++)
        if (t->blocks[b] != NULL)
          block_free (t->blocks[b]);
      g_free (t->blocks);
    }
  g_clear_pointer (&self->chunk_types, g_free);
}

/* The blocks under way while rows are read: made as their first row
 * comes, published (or marked damaged) when the query ends. */
typedef struct {
  CsChunkTypes *t;
  CsChunkTypesBlock **filling;  /* by block: NULL, or the block being read */
  guint64 first_block, n_blocks;
} Reading;

/* Takes one row of event_chunk_types for @r's CPU. */
static void
take_row (Reading      *r,
          gint64        chunk,
          gint64        first_ns,
          const guint8 *list,
          gsize         size)
{
  guint64 b;
  CsChunkTypesBlock *block;
  guint16 any = CS_CHUNK_TYPES_ANY;

  if (chunk < 0 || (guint64) chunk >= r->t->n_chunks)
    return;
  b = (guint64) chunk / r->t->block_chunks;
  if (b < r->first_block || b >= r->first_block + r->n_blocks || r->t->blocks[b] != NULL)
    return;
  block = r->filling[b - r->first_block];
  if (block == NULL)
    block = r->filling[b - r->first_block] = block_new (r->t);
  /* Rows out of order or missing, or more ids than a chunk has rows (a
   * damaged or hostile index): not trusted. */
  if (block->damaged || (guint64) chunk != b * r->t->block_chunks + block->n ||
      size / 2 > CS_EVENT_CHUNK_ROWS)
    {
      block->damaged = TRUE;
      return;
    }
  block->starts[block->n] = block->ids->len;
  block->first_ns[block->n] = first_ns;
  if (list == NULL || size % 2 != 0)
    g_array_append_val (block->ids, any);
  else
    {
      /* Little-endian 16-bit ids, copied at once (a row holds ~20). */
      guint at = block->ids->len;
      guint16 *out;

      g_array_set_size (block->ids, at + size / 2);
      out = &g_array_index (block->ids, guint16, at);
      memcpy (out, list, size);
      for (gsize i = 0; i < size / 2; i++)
        out[i] = GUINT16_FROM_LE (out[i]);
    }
  block->n++;
}

/* Publishes @r's blocks: each one with all its rows, the others damaged
 * (a query that failed, or rows missing: fewer rows than the CPU's chunks
 * would hide events from a scan of rare types). */
static void
publish (Reading  *r,
         gboolean  ok)
{
  for (guint64 i = 0; i < r->n_blocks; i++)
    {
      guint64 b = r->first_block + i;
      CsChunkTypesBlock *block = r->filling[i];

      if (r->t->blocks[b] != NULL)
        continue;
      if (block == NULL)
        block = block_new (r->t);
      if (!ok || block->n != block_size (r->t, b))
        block->damaged = TRUE;
      block->starts[block->n] = block->ids->len;
      /* Read whole, then published: see block_of(). */
      g_atomic_pointer_set (&r->t->blocks[b], block);
    }
}

/* Reads blocks [@first_block, @first_block + @n_blocks) of @cpu that are
 * not read yet, in one query. */
static void
read_blocks (CsDocument *self,
             guint       cpu,
             guint64     first_block,
             guint64     n_blocks)
{
  CsChunkTypes *t = &self->chunk_types[cpu];
  g_autofree CsChunkTypesBlock **filling = g_new0 (CsChunkTypesBlock *, MAX (n_blocks, 1));
  Reading r = { t, filling, first_block, n_blocks };
  g_autoptr(sqlite3_stmt) s = _cs_sqlite_prepare (self->db,
      "SELECT chunk, first_ns, types FROM event_chunk_types"
      " WHERE cpu = ?1 AND chunk >= ?2 AND chunk < ?3 ORDER BY chunk", NULL);
  int rc = SQLITE_ERROR;

  if (s != NULL)
    {
      sqlite3_bind_int (s, 1, (int) cpu);
      sqlite3_bind_int64 (s, 2, (gint64) (first_block * t->block_chunks));
      sqlite3_bind_int64 (s, 3, (gint64) ((first_block + n_blocks) * t->block_chunks));
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        take_row (&r, sqlite3_column_int64 (s, 0), sqlite3_column_int64 (s, 1),
                  sqlite3_column_blob (s, 2), (gsize) sqlite3_column_bytes (s, 2));
    }
  publish (&r, rc == SQLITE_DONE);
}

/* Reads the blocks of @cpu's chunks [@first, @last] not read yet. */
static void
read_span (CsDocument *self,
           guint       cpu,
           guint64     first,
           guint64     last)
{
  CsChunkTypes *t = &self->chunk_types[cpu];
  guint64 b = first / t->block_chunks, end = MIN (last / t->block_chunks + 1, t->n_blocks);

  /* Skip the blocks read already; the others from the first to the last
   * missing in one query. */
  while (b < end && t->blocks[b] != NULL)
    b++;
  while (end > b && t->blocks[end - 1] != NULL)
    end--;
  if (b < end)
    read_blocks (self, cpu, b, end - b);
}

/**
 * _cs_document_read_chunk_types:
 * @self: a document
 *
 * Reads every row of event_chunk_types not read yet, so that
 * _cs_document_chunk_may_hold() answers for every chunk from any thread.
 * A pass over the whole recording reads it so; a reader of a span reads
 * only its blocks (_cs_document_read_chunk_types_span()).  The document's
 * thread.
 */
void
_cs_document_read_chunk_types (CsDocument *self)
{
  if (ensure_tables (self) == NULL)
    return;
  /* read_span() passes over the blocks read already: a second call costs
   * a look at each block. */
  for (guint c = 0; c < self->n_cpus; c++)
    if (self->chunk_types[c].n_chunks > 0)
      read_span (self, c, 0, self->chunk_types[c].n_chunks - 1);
}

/**
 * _cs_document_read_chunk_types_span:
 * @self: a document
 * @cpu: a CPU
 * @first: its first chunk looked at
 * @last: its last (inclusive), @first or after
 *
 * Reads the rows of event_chunk_types of @cpu's chunks [@first, @last]
 * that are not read yet, a block of chunks at a time (see the top of this
 * file).  The document's thread.
 *
 * Returns: %TRUE when the table tells the types of all those chunks and
 *   their first events' times; %FALSE when it does not (no such chunks, a
 *   damaged or missing table: then every chunk may hold any type)
 */
gboolean
_cs_document_read_chunk_types_span (CsDocument *self,
                                    guint       cpu,
                                    gint64      first,
                                    gint64      last)
{
  CsChunkTypes *t;

  if (cpu >= self->n_cpus || first < 0 || last < first || ensure_tables (self) == NULL)
    return FALSE;
  t = &self->chunk_types[cpu];
  if ((guint64) last >= t->n_chunks)
    return FALSE;
  read_span (self, cpu, (guint64) first, (guint64) last);
  for (guint64 b = (guint64) first / t->block_chunks; b <= (guint64) last / t->block_chunks; b++)
    if (t->blocks[b] == NULL || t->blocks[b]->damaged)
      return FALSE;
  return TRUE;
}

/* Chunk @chunk of @cpu's block, read and whole; else NULL.  Another
 * thread may ask (a pass's streams) while the document's thread reads
 * blocks: the tables and each block are published whole, atomically. */
static const CsChunkTypesBlock *
block_of (CsDocument *self,
          guint       cpu,
          gint64      chunk)
{
  const CsChunkTypes *tables = g_atomic_pointer_get (&self->chunk_types);
  const CsChunkTypes *t;
  const CsChunkTypesBlock *block;

  if (tables == NULL || cpu >= self->n_cpus || chunk < 0)
    return NULL;
  t = &tables[cpu];
  if ((guint64) chunk >= t->n_chunks)
    return NULL;
  block = g_atomic_pointer_get (&t->blocks[(guint64) chunk / t->block_chunks]);
  return block != NULL && !block->damaged ? block : NULL;
}

/**
 * _cs_document_chunk_types_last_before:
 * @self: a document
 * @cpu: a CPU
 * @first: one of its event chunks, whose block was read
 * @end_ns: a time
 *
 * The last chunk from @first on whose first event is before @end_ns
 * (@first itself when none after it is), told from @first's block alone:
 * a short span is found without a query (a critical path asks for
 * millions).
 *
 * Returns: that chunk; -1 when the block does not tell (it is not read or
 *   damaged, or the span goes on past its last chunk)
 */
gint64
_cs_document_chunk_types_last_before (CsDocument *self,
                                      guint       cpu,
                                      gint64      first,
                                      gint64      end_ns)
{
  const CsChunkTypesBlock *block = block_of (self, cpu, first);
  const CsChunkTypes *t;
  guint64 base;
  guint lo, hi;

  if (block == NULL)
    return -1;
  t = &self->chunk_types[cpu];
  base = (guint64) first - (guint64) first % t->block_chunks;
  /* [lo, hi): the block's chunks after @first; the first of them that
   * starts at or after @end_ns ends the span (first_ns grows). */
  lo = (guint) ((guint64) first - base) + 1;
  hi = block->n;
  if (hi == 0 || lo > hi)
    return -1;
  if (block->first_ns[hi - 1] < end_ns)
    return base + hi < t->n_chunks ? -1 : (gint64) (base + hi - 1);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (block->first_ns[mid] < end_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gint64) (base + lo - 1);
}

/* Whether chunk @chunk of @cpu may hold a type @wanted says (by type
 * id, @n_types of them), or when @wanted is NULL type @type_id: FALSE only
 * when the table as read says it holds none. */
static gboolean
chunk_may_hold (CsDocument     *self,
                guint           cpu,
                gint64          chunk,
                const gboolean *wanted,
                guint           n_types,
                guint           type_id)
{
  const CsChunkTypesBlock *block = block_of (self, cpu, chunk);
  guint i;
  const guint16 *ids;

  if (block == NULL)
    return TRUE;
  i = (guint) ((guint64) chunk % self->chunk_types[cpu].block_chunks);
  ids = (const guint16 *) block->ids->data;
  for (guint32 k = block->starts[i]; k < block->starts[i + 1]; k++)
    {
      guint16 id = ids[k];

      if (id == CS_CHUNK_TYPES_ANY ||
          (wanted != NULL ? id >= n_types || wanted[id] : id == type_id))
        return TRUE;
    }
  return FALSE;
}

/**
 * _cs_document_chunk_may_hold_type:
 * @self: a document
 * @cpu: a CPU
 * @chunk: one of its event chunks
 * @type_id: an event type
 *
 * Reads the chunk's block of event_chunk_types first, if need be.  The
 * document's thread.
 *
 * Returns: %FALSE only when event_chunk_types says the chunk holds no
 *   event of type @type_id
 */
gboolean
_cs_document_chunk_may_hold_type (CsDocument *self,
                                  guint       cpu,
                                  gint64      chunk,
                                  guint       type_id)
{
  if (!_cs_document_read_chunk_types_span (self, cpu, chunk, chunk))
    return TRUE;
  return chunk_may_hold (self, cpu, chunk, NULL, 0, type_id);
}

/**
 * _cs_document_chunk_may_hold:
 * @self: a document
 * @cpu: a CPU
 * @chunk: one of its event chunks
 * @wanted: (array length=n_types): by type id, the types looked for
 * @n_types: the recording's event types
 *
 * From the blocks of event_chunk_types read so far (every chunk may hold
 * any type before its block is read).  Reads only memory that does not
 * change once read: any thread, for the blocks read before it asks.
 *
 * Returns: %FALSE only when the table says the chunk holds none of them
 */
gboolean
_cs_document_chunk_may_hold (CsDocument     *self,
                             guint           cpu,
                             gint64          chunk,
                             const gboolean *wanted,
                             guint           n_types)
{
  return chunk_may_hold (self, cpu, chunk, wanted, n_types, 0);
}
