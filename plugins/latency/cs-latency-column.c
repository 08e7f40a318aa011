/* cs-latency-column.c: a column of numbers stored in chunks of blobs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The latency pass stores its sorted orders (latency_worst,
 * latency_task: cs-latency-writer.c) as tables of chunks: row `chunk` k
 * holds, in each of its blob columns, the numbers at positions
 * [k × CS_LATENCY_CHUNK, (k + 1) × CS_LATENCY_CHUNK) of the order, as
 * varints of the differences between them (cs-latency-varints.c; the
 * orders are sorted, so a chunk is about a third of its plain gint64s).
 * Millions of pairs are then a few thousand rows.  A reader keeps the
 * last chunk it read, decoded, so walking positions in either direction
 * costs one blob read per chunk.
 */
#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-column.h"
#include "cs-latency-varints.h"

struct _CsLatencyColumn
{
  sqlite3 *db;
  sqlite3_stmt *select;
  gint64 chunk;                 /* held in @values, or -1 */
  gint64 values[CS_LATENCY_CHUNK];
  gsize n;
};

static gboolean
failed (sqlite3  *db,
        GError  **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the latency pairs: %s"), sqlite3_errmsg (db));
  return FALSE;
}

/**
 * cs_latency_column_new:
 * @db: a latency pass's database
 * @table: a table of chunks (`chunk INTEGER PRIMARY KEY`, blob columns)
 * @column: one of its blob columns
 * @error: %CS_PLUGIN_ERROR_FAILED when the table has no such column
 *
 * Returns: (transfer full) (nullable): a reader of the column, or %NULL
 *   with @error set
 */
CsLatencyColumn *
cs_latency_column_new (sqlite3     *db,
                       const char  *table,
                       const char  *column,
                       GError     **error)
{
  CsLatencyColumn *self = g_new0 (CsLatencyColumn, 1);
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s WHERE chunk = ?1", column, table);

  self->db = db;
  self->chunk = -1;
  if (sqlite3_prepare_v2 (db, sql, -1, &self->select, NULL) != SQLITE_OK)
    {
      failed (db, error);
      cs_latency_column_free (self);
      return NULL;
    }
  return self;
}

/**
 * cs_latency_column_free:
 * @column: (nullable): a reader
 */
void
cs_latency_column_free (CsLatencyColumn *self)
{
  if (self == NULL)
    return;
  sqlite3_finalize (self->select);
  g_free (self);
}

/**
 * cs_latency_column_get:
 * @column: a reader
 * @position: 0-based position in the order
 * @value: (out): the number there
 * @error: %CS_PLUGIN_ERROR_FAILED when the position is past the end or
 *   the chunk cannot be read
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_column_get (CsLatencyColumn  *self,
                       gint64            position,
                       gint64           *value,
                       GError          **error)
{
  gint64 chunk = position >= 0 ? position / CS_LATENCY_CHUNK : -1;
  gsize i = (gsize) (position - chunk * CS_LATENCY_CHUNK);

  if (chunk != self->chunk)
    {
      int rc, bytes;

      self->chunk = -1;
      self->n = 0;
      if (chunk < 0)
        goto out_of_range;
      sqlite3_bind_int64 (self->select, 1, chunk);
      rc = sqlite3_step (self->select);
      if (rc == SQLITE_ROW)
        {
          const guint8 *blob = sqlite3_column_blob (self->select, 0);
          gssize n;

          bytes = sqlite3_column_bytes (self->select, 0);
          n = blob != NULL ? cs_latency_varints_decode (blob, (gsize) MAX (bytes, 0),
                                                        CS_LATENCY_CHUNK, 1, self->values)
                           : 0;
          if (n < 0)
            {
              sqlite3_reset (self->select);
              g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           _("Cannot read the latency pairs: chunk %" PRId64
                             " of a column is damaged"), chunk);
              return FALSE;
            }
          self->n = (gsize) n;
          self->chunk = chunk;
        }
      sqlite3_reset (self->select);
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return failed (self->db, error);
    }
  if (self->chunk == chunk && i < self->n)
    {
      *value = self->values[i];
      return TRUE;
    }
out_of_range:
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the latency pairs: no position %" PRId64 " in the pass's tables"),
               position);
  return FALSE;
}
