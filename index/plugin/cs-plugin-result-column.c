/* cs-plugin-result-column.c: a column of a result table's sorted order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A result table stores each sorted order (cs-plugin-result-table.c) as a
 * table of chunks: row `chunk` k holds, in each of its blob columns, the
 * numbers at positions [k × CS_PLUGIN_RESULT_ORDER_CHUNK, (k + 1) × …) of
 * the order, as varints of the differences between them
 * (cs_chunk_encode_records(); the orders are sorted, so a chunk is about a
 * third of its plain gint64s).  Millions of rows are then a few thousand
 * rows.  A reader keeps the last chunk it read, decoded, so walking
 * positions in either direction costs one blob read per chunk.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-result-private.h"

struct _CsPluginResultColumn
{
  sqlite3 *db;
  sqlite3_stmt *select;
  sqlite3_stmt *last;           /* the last chunk's number */
  char *what;                   /* "ORDER.COLUMN", for messages */
  gint64 chunk;                 /* held in @values, or -1 */
  gint64 values[CS_PLUGIN_RESULT_ORDER_CHUNK];
  gsize n;
};

static gboolean
failed (CsPluginResultColumn  *self,
        GError               **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the result column %s: %s"), self->what, sqlite3_errmsg (self->db));
  return FALSE;
}

/**
 * cs_plugin_result_column_new:
 * @db: a pass's database, with a result table's sorted order
 * @order: the order's table (#CsPluginResultOrder.name)
 * @column: one of its stored columns (#CsPluginResultOrder.stored), an
 *   SQL identifier
 * @error: %CS_PLUGIN_ERROR_FAILED when there is no such order or column
 *
 * Opens a reader of a column of a sorted order, by position.  It keeps
 * the chunk it read last (%CS_PLUGIN_RESULT_ORDER_CHUNK numbers), so
 * walking positions near each other reads each chunk once.  One thread
 * at a time, that of @db.
 *
 * Returns: (transfer full) (nullable): a reader of the column, or %NULL
 *   with @error set; free with cs_plugin_result_column_free()
 */
CsPluginResultColumn *
cs_plugin_result_column_new (sqlite3     *db,
                             const char  *order,
                             const char  *column,
                             GError     **error)
{
  CsPluginResultColumn *self = g_new0 (CsPluginResultColumn, 1);
  /* Not quoted: SQLite reads an unknown "column" as a string. */
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM \"%s\" WHERE chunk = ?1", column, order);
  g_autofree char *last = g_strdup_printf ("SELECT max(chunk) FROM \"%s\"", order);

  self->db = db;
  self->chunk = -1;
  self->what = g_strdup_printf ("%s.%s", order, column);
  if (!_cs_result_is_identifier (column))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot read the result column %s: not a column name"), self->what);
      cs_plugin_result_column_free (self);
      return NULL;
    }
  if (sqlite3_prepare_v2 (db, sql, -1, &self->select, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db, last, -1, &self->last, NULL) != SQLITE_OK)
    {
      failed (self, error);
      cs_plugin_result_column_free (self);
      return NULL;
    }
  return self;
}

/**
 * cs_plugin_result_column_free:
 * @column: (nullable): a reader
 *
 * Frees the reader (before its connection is closed).
 */
void
cs_plugin_result_column_free (CsPluginResultColumn *self)
{
  if (self == NULL)
    return;
  sqlite3_finalize (self->select);
  sqlite3_finalize (self->last);
  g_free (self->what);
  g_free (self);
}

/**
 * cs_plugin_result_column_get:
 * @column: a reader
 * @position: 0-based position in the order
 * @value: (out): the number there
 * @error: %CS_PLUGIN_ERROR_FAILED when the position is outside [0, n) or
 *   the chunk cannot be read (damaged)
 *
 * Reads row @position of the order: one blob read and decode when it is
 * not in the chunk read last.
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_column_get (CsPluginResultColumn  *self,
                             gint64                 position,
                             gint64                *value,
                             GError               **error)
{
  gint64 chunk = position >= 0 ? position / CS_PLUGIN_RESULT_ORDER_CHUNK : -1;
  gsize i = (gsize) (position - chunk * CS_PLUGIN_RESULT_ORDER_CHUNK);

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
          n = blob != NULL ? cs_chunk_decode_records (blob, (gsize) MAX (bytes, 0),
                                                        CS_PLUGIN_RESULT_ORDER_CHUNK, 1, self->values)
                           : 0;
          if (n < 0)
            {
              sqlite3_reset (self->select);
              g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           _("Cannot read the result column %s: chunk %" PRId64
                             " is damaged"), self->what, chunk);
              return FALSE;
            }
          self->n = (gsize) n;
          self->chunk = chunk;
        }
      sqlite3_reset (self->select);
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return failed (self, error);
    }
  if (self->chunk == chunk && i < self->n)
    {
      *value = self->values[i];
      return TRUE;
    }
out_of_range:
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the result column %s: no position %" PRId64), self->what,
               position);
  return FALSE;
}

/**
 * cs_plugin_result_column_get_n_positions:
 * @column: a reader
 * @n_positions: (out): how many positions the order has (its rows)
 * @error: %CS_PLUGIN_ERROR_FAILED when the last chunk cannot be read
 *
 * Counts the order's positions: reads the last chunk.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_column_get_n_positions (CsPluginResultColumn  *self,
                                         gint64                *n_positions,
                                         GError               **error)
{
  gint64 last = -1, v;
  int rc;

  *n_positions = 0;
  rc = sqlite3_step (self->last);
  if (rc == SQLITE_ROW && sqlite3_column_type (self->last, 0) != SQLITE_NULL)
    last = sqlite3_column_int64 (self->last, 0);
  sqlite3_reset (self->last);
  if (rc != SQLITE_ROW)
    return failed (self, error);
  if (last < 0)
    return TRUE;
  if (!cs_plugin_result_column_get (self, last * CS_PLUGIN_RESULT_ORDER_CHUNK, &v, error))
    return FALSE;
  *n_positions = last * CS_PLUGIN_RESULT_ORDER_CHUNK + (gint64) self->n;
  return TRUE;
}

/* The first position of [@lo, @hi) at or past @value, by bisection. */
static gboolean
bisect (CsPluginResultColumn  *self,
        gint64                 lo,
        gint64                 hi,
        gint64                 value,
        gboolean               descending,
        gint64                *position,
        GError               **error)
{
  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2, v;

      if (!cs_plugin_result_column_get (self, mid, &v, error))
        return FALSE;
      if (descending ? v > value : v < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  *position = lo;
  return TRUE;
}

/**
 * cs_plugin_result_column_find:
 * @column: a reader of a column sorted along its order (the order's first
 *   number, or a number sorted within equal first ones over a span)
 * @value: the value looked for
 * @descending: whether the column's values fall along the order
 * @position: (out): the first position whose value is at or past @value:
 *   for an ascending column the first ≥ @value, for a descending one the
 *   first ≤ @value; the number of positions when there is none
 * @error: %CS_PLUGIN_ERROR_FAILED when a chunk cannot be read
 *
 * Finds where @value is or would go by bisection over the whole order:
 * about log2(n) reads, most within few chunks.  For a column sorted only
 * within the groups of an order, use cs_plugin_result_column_find_in().
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_column_find (CsPluginResultColumn  *self,
                              gint64                 value,
                              gboolean               descending,
                              gint64                *position,
                              GError               **error)
{
  gint64 n;

  if (!cs_plugin_result_column_get_n_positions (self, &n, error))
    return FALSE;
  return bisect (self, 0, n, value, descending, position, error);
}

/**
 * cs_plugin_result_column_find_in:
 * @column: a reader of a column sorted along its order over [@lo, @hi):
 *   typically one group's positions (a row of the order's ORDER_span
 *   table, #CsPluginResultOrder.group_column), over which the records'
 *   second number (or a later one, after numbers equal within the group)
 *   is sorted, such as the calls of one task by time
 * @lo: the first position of the span (0 ≤ @lo ≤ @hi)
 * @hi: the position past its last (at most the order's number of
 *   positions)
 * @value: the value looked for
 * @descending: whether the column's values fall along the span
 * @position: (out): the first position in [@lo, @hi) whose value is at
 *   or past @value (for an ascending column the first ≥ @value, for a
 *   descending one the first ≤ @value); @hi when there is none
 * @error: %CS_PLUGIN_ERROR_FAILED when a chunk cannot be read or the span
 *   reaches past the order's last position
 *
 * Finds where @value is or would go within one span of the order by
 * galloping from @lo (positions @lo, @lo + 1, @lo + 3, @lo + 7, … until
 * one is at or past @value), then bisection between the last two: about
 * 2 × log2(d) reads for an answer d positions past @lo, the last ones
 * within one chunk (%CS_PLUGIN_RESULT_ORDER_CHUNK numbers).  So a
 * look-up by time among a group's rows costs a few blob reads whatever
 * the order's size, and walking forward by look-ups (a drawing that
 * skips to the next pixel column) reads mostly the chunks it is in.  The
 * position before the returned one (when it is above @lo) holds the last
 * value before @value.  One thread at a time, that of the column's
 * connection.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_column_find_in (CsPluginResultColumn  *self,
                                 gint64                 lo,
                                 gint64                 hi,
                                 gint64                 value,
                                 gboolean               descending,
                                 gint64                *position,
                                 GError               **error)
{
  g_return_val_if_fail (lo >= 0 && lo <= hi, FALSE);

  /* Positions before @lo are before @value; find one at or past it. */
  for (gint64 step = 1; lo < hi; step *= 2)
    {
      gint64 probe = lo + step - 1, v;

      if (probe >= hi)
        break;
      if (!cs_plugin_result_column_get (self, probe, &v, error))
        return FALSE;
      if (descending ? v <= value : v >= value)
        {
          hi = probe;
          break;
        }
      lo = probe + 1;
    }
  return bisect (self, lo, hi, value, descending, position, error);
}
