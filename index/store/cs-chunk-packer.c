/* cs-chunk-packer.c: event and slice chunks handed to SQLite in an order
 * that fills the index's pages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A chunk's blob (~13 KiB of events) stays whole in a table leaf of the
 * 64 KiB pages a large recording's index has (cs-index-schema.c), and a
 * rowid table filled in rowid order puts a row on a new page when the last
 * page cannot hold it (SQLite's balance_quick(), btree.c): a page holds as
 * many consecutive blobs as fit, and the rest of it stays empty.  The
 * event blobs of the large benchmark recording are 10.9 to 15.2 KiB, half
 * of them over the 13.1 KiB that five to a page allows: 4.5 to a page,
 * 11.6 % of event_chunks' pages empty (32 MB, 0.40 B/event).  Rows are
 * read by their (cpu, chunk) key, never in rowid order, so the packer
 * holds a few chunks of each table back and stores, a page at a time,
 * the set of them with the oldest that fills a page best.  Small indexes
 * (8 KiB pages, where a blob overflows anyway) are stored in the order
 * they come.
 */
#include "config.h"

#include "cs-chunk-packer.h"

/* Chunks of a table held back (encoded: ~13 KiB each), from which each
 * page's are chosen: the 2^(WINDOW - 1) sets with the oldest in them are
 * weighed, ~24 M additions for the ~4,600 pages of the large recording's
 * event and slice chunks. */
#define WINDOW 10
/* What a row costs in a leaf besides its blob, at most: its cell pointer
 * (2), the cell's payload size and rowid varints (3 + 4), the record's
 * header (10) and its integers (cpu, chunk, first_ns, last_ns, first_row,
 * n_rows: 1 + 3 + 8 + 8 + 6 + 2 = 28 bytes at most).  Too much only
 * leaves a few bytes a page; too little would put a row on the next page
 * and the rows chosen for that page after it. */
#define ROW_OVERHEAD 47
/* A table leaf page's header (btree.c: 8 bytes, no right child). */
#define LEAF_HEADER 8

typedef struct {
  GPtrArray *held;              /* CsScanChunk, oldest first */
} Table;

struct _CsChunkPacker {
  gsize page_size;              /* 0: no packing */
  Table tables[2];              /* events, slices */
};

/**
 * _cs_chunk_packer_new:
 * @page_size: the index's page size in bytes (PRAGMA page_size)
 *
 * Returns: (transfer full): a packer for an index being built; packs only
 *   with pages of 64 KiB
 */
CsChunkPacker *
_cs_chunk_packer_new (gsize page_size)
{
  CsChunkPacker *self = g_new0 (CsChunkPacker, 1);

  self->page_size = page_size >= 65536 ? page_size : 0;
  for (guint t = 0; t < G_N_ELEMENTS (self->tables); t++)
    self->tables[t].held = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_scan_chunk_free);
  return self;
}

/**
 * _cs_chunk_packer_free:
 * @self: (transfer full): a packer; chunks still held are dropped (a
 *   build that failed)
 */
void
_cs_chunk_packer_free (CsChunkPacker *self)
{
  for (guint t = 0; t < G_N_ELEMENTS (self->tables); t++)
    g_ptr_array_unref (self->tables[t].held);
  g_free (self);
}

static gsize
row_size (CsScanChunk *c)
{
  gsize size = 0;

  cs_scan_chunk_encode (c);
  if (c->data != NULL)
    g_bytes_get_data (c->data, &size);
  return size + ROW_OVERHEAD;
}

/* Stores the held chunks of @table that fill a new page best, the oldest
 * among them (so none waits for more than WINDOW pages). */
static gboolean
store_page (CsChunkPacker        *self,
            Table                *table,
            const CsIndexInserts *ins,
            GError              **error)
{
  gsize sizes[WINDOW];
  gsize room = self->page_size - LEAF_HEADER;
  guint n = MIN (table->held->len, WINDOW), best = 1;
  gsize best_sum = 0;

  for (guint i = 0; i < n; i++)
    sizes[i] = row_size (g_ptr_array_index (table->held, i));
  /* Every set with the oldest (bit 0), the fullest that fits. */
  for (guint set = 1; set < (1u << n) && room - best_sum >= ROW_OVERHEAD; set += 2)
    {
      gsize sum = 0;

      for (guint i = 0; i < n && sum <= room; i++)
        if (set & (1u << i))
          sum += sizes[i];
      if (sum <= room && sum > best_sum)
        {
          best = set;
          best_sum = sum;
        }
    }
  {
    CsScanChunk *chosen[WINDOW];
    guint n_chosen = 0;
    gboolean ok = TRUE;

    /* Taken from the last so that the positions hold, stored in the order
     * they came. */
    for (guint i = n; i-- > 0;)
      if (best & (1u << i))
        chosen[n_chosen++] = g_ptr_array_steal_index (table->held, i);
    while (n_chosen > 0)
      {
        CsScanChunk *c = chosen[--n_chosen];

        ok = ok && _cs_index_insert_chunk (ins, c, error);
        cs_scan_chunk_free (c);
      }
    return ok;
  }
}

/**
 * _cs_chunk_packer_add:
 * @self: a packer
 * @ins: the index's inserts
 * @c: (transfer full): a chunk of a scan, any kind
 * @error: the errors of _cs_index_insert_chunk()
 *
 * Stores @c, or holds it back (event and slice chunks of an index of 64
 * KiB pages) and, when WINDOW of its table are held, stores a page of
 * them.
 *
 * Returns: %FALSE with @error set when a store failed
 */
gboolean
_cs_chunk_packer_add (CsChunkPacker        *self,
                      const CsIndexInserts *ins,
                      CsScanChunk          *c,
                      GError              **error)
{
  Table *table = NULL;
  gboolean ok;

  if (self->page_size > 0 && c->kind == CS_SCAN_EVENT_CHUNK)
    table = &self->tables[0];
  else if (self->page_size > 0 && c->kind == CS_SCAN_SLICE_CHUNK)
    table = &self->tables[1];
  if (table == NULL)
    {
      ok = _cs_index_insert_chunk (ins, c, error);
      cs_scan_chunk_free (c);
      return ok;
    }
  /* Encoded now, so that what it holds is the blob, not the raw rows. */
  cs_scan_chunk_encode (c);
  g_ptr_array_add (table->held, c);
  return table->held->len < WINDOW || store_page (self, table, ins, error);
}

/**
 * _cs_chunk_packer_flush:
 * @self: a packer
 * @ins: the index's inserts
 * @error: the errors of _cs_index_insert_chunk()
 *
 * Stores every chunk held back; call once the scans are done, before the
 * transaction commits.
 *
 * Returns: %FALSE with @error set when a store failed
 */
gboolean
_cs_chunk_packer_flush (CsChunkPacker        *self,
                        const CsIndexInserts *ins,
                        GError              **error)
{
  for (guint t = 0; t < G_N_ELEMENTS (self->tables); t++)
    while (self->tables[t].held->len > 0)
      if (!store_page (self, &self->tables[t], ins, error))
        return FALSE;
  return TRUE;
}
