/* cs-plugin-result-batch.c: rows inserted into a table many at a time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Result tables write many rows of a few integers (the spans of an
 * order's groups, cs-plugin-result-table.c): one
 * statement step per row costs more than the row itself, so rows are
 * queued and inserted BATCH_ROWS at a time by one prepared multi-row
 * INSERT (a partial batch at the end goes row by row).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-result-batch.h"

#define BATCH_ROWS 64

struct _CsResultBatch
{
  sqlite3 *db;
  guint n_columns;
  sqlite3_stmt *insert;         /* one row */
  sqlite3_stmt *insert_batch;   /* BATCH_ROWS rows */
  gint64 *values;               /* BATCH_ROWS × n_columns */
  guint64 nulls[BATCH_ROWS];    /* bit c: column c is NULL */
  guint n_pending;
};

static gboolean
failed (CsResultBatch  *self,
        GError         **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write the result table: %s"), sqlite3_errmsg (self->db));
  return FALSE;
}

/**
 * _cs_result_batch_new:
 * @db: a database open for writing
 * @table: a table of @db with @n_columns integer columns
 * @n_columns: 1 to 64
 * @error: %CS_PLUGIN_ERROR_FAILED when the statements cannot be prepared
 *
 * Returns: (transfer full) (nullable): the batch, or %NULL with @error
 *   set; free with _cs_result_batch_free() (rows still queued are lost:
 *   flush first)
 */
CsResultBatch *
_cs_result_batch_new (sqlite3     *db,
                      const char  *table,
                      guint        n_columns,
                      GError     **error)
{
  g_autoptr(CsResultBatch) self = g_new0 (CsResultBatch, 1);
  g_autoptr(GString) row = g_string_new ("(");
  g_autoptr(GString) sql = g_string_new (NULL);

  g_return_val_if_fail (n_columns >= 1 && n_columns <= 64, NULL);

  self->db = db;
  self->n_columns = n_columns;
  self->values = g_new0 (gint64, BATCH_ROWS * n_columns);
  for (guint c = 0; c < n_columns; c++)
    g_string_append (row, c == 0 ? "?" : ",?");
  g_string_append_c (row, ')');
  g_string_printf (sql, "INSERT INTO %s VALUES %s", table, row->str);
  if (sqlite3_prepare_v2 (db, sql->str, -1, &self->insert, NULL) != SQLITE_OK)
    {
      failed (self, error);
      return NULL;
    }
  for (guint r = 1; r < BATCH_ROWS; r++)
    g_string_append_printf (sql, ",%s", row->str);
  if (sqlite3_prepare_v2 (db, sql->str, -1, &self->insert_batch, NULL) != SQLITE_OK)
    {
      failed (self, error);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * _cs_result_batch_free:
 * @batch: (nullable): a batch
 */
void
_cs_result_batch_free (CsResultBatch *self)
{
  if (self == NULL)
    return;
  sqlite3_finalize (self->insert);
  sqlite3_finalize (self->insert_batch);
  g_free (self->values);
  g_free (self);
}

/**
 * _cs_result_batch_flush:
 * @batch: a batch
 * @error: %CS_PLUGIN_ERROR_FAILED when a row cannot be inserted
 *
 * Inserts the queued rows.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_result_batch_flush (CsResultBatch  *self,
                        GError         **error)
{
  guint per_step = self->n_pending == BATCH_ROWS ? BATCH_ROWS : 1;
  sqlite3_stmt *s = per_step == BATCH_ROWS ? self->insert_batch : self->insert;

  for (guint first = 0; first < self->n_pending; first += per_step)
    {
      int rc;

      for (guint r = 0; r < per_step; r++)
        {
          const gint64 *v = self->values + (first + r) * self->n_columns;
          guint64 nulls = self->nulls[first + r];

          for (guint c = 0; c < self->n_columns; c++)
            {
              int i = (int) (r * self->n_columns + c + 1);

              if (nulls & (G_GUINT64_CONSTANT (1) << c))
                sqlite3_bind_null (s, i);
              else
                sqlite3_bind_int64 (s, i, v[c]);
            }
        }
      rc = sqlite3_step (s);
      sqlite3_reset (s);
      if (rc != SQLITE_DONE)
        return failed (self, error);
    }
  self->n_pending = 0;
  return TRUE;
}

/**
 * _cs_result_batch_get_n_pending:
 * @batch: a batch
 *
 * Returns: how many rows are queued, not inserted yet
 */
guint
_cs_result_batch_get_n_pending (CsResultBatch *self)
{
  return self->n_pending;
}

/**
 * _cs_result_batch_append:
 * @batch: a batch
 * @values: the row's n_columns values, copied
 * @null_mask: bit c set: column c is NULL (its value is ignored)
 * @error: %CS_PLUGIN_ERROR_FAILED when a full batch cannot be inserted
 *
 * Queues a row; a full batch is inserted.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_result_batch_append (CsResultBatch  *self,
                         const gint64    *values,
                         guint64          null_mask,
                         GError         **error)
{
  memcpy (self->values + self->n_pending * self->n_columns, values,
          self->n_columns * sizeof (gint64));
  self->nulls[self->n_pending++] = null_mask;
  return self->n_pending < BATCH_ROWS || _cs_result_batch_flush (self, error);
}
