/* cs-document-migrations.c: a CPU's sched_migrate_task events, from the
 * index's migration chunks (cs-index-private.h, MG_*).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The scan keeps every sched_migrate_task record of a CPU a second time,
 * with who moved where, in chunks of CS_MIGRATE_CHUNK_ROWS: following a
 * waiting task across CPUs over seconds reads a few small chunks per CPU,
 * where the event chunks holding the migrations (hundreds over a busy
 * second) would each be read from the index and decoded, and a record
 * read for each.
 */
#include "config.h"

#include "cs-document-private.h"

typedef struct {
  guint cpu;
  gint64 begin_ns, end_ns;
  CsMigrationFunc func;
  gpointer user_data;
} MigrationScan;

static gboolean
migration_rows (gint64 *const *cols,
                guint          n,
                gpointer       user_data)
{
  const MigrationScan *scan = user_data;

  for (guint i = 0; i < n; i++)
    {
      CsMigration m;

      m.ts_ns = cols[MG_TS][i];
      if (m.ts_ns >= scan->end_ns)
        return FALSE;
      if (m.ts_ns < scan->begin_ns)
        continue;
      m.row = (guint64) cols[MG_ROW][i];
      m.cpu = scan->cpu;
      m.pid = (gint32) CLAMP (cols[MG_PID][i], -1, G_MAXINT32);
      m.orig_cpu = (gint32) CLAMP (cols[MG_ORIG][i], -1, G_MAXINT32);
      m.dest_cpu = (gint32) CLAMP (cols[MG_DEST][i], -1, G_MAXINT32);
      if (!scan->func (&m, scan->user_data))
        return FALSE;
    }
  return TRUE;
}

/**
 * cs_document_foreach_migration:
 * @self: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none for others)
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @func: called for each sched_migrate_task event @cpu logged in
 *   [@begin_ns, @end_ns), in the CPU's order (time, then row); returns
 *   %FALSE to stop
 * @user_data: for @func
 * @error: %CS_INDEX_ERROR_SQLITE, or %CS_INDEX_ERROR_CORRUPT for a
 *   damaged chunk
 *
 * The CPU's task migrations of a span, with the pid, orig_cpu and
 * dest_cpu their records hold, without reading the recording.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean
cs_document_foreach_migration (CsDocument       *self,
                               guint             cpu,
                               gint64            begin_ns,
                               gint64            end_ns,
                               CsMigrationFunc   func,
                               gpointer          user_data,
                               GError          **error)
{
  MigrationScan scan = { cpu, begin_ns, end_ns, func, user_data };

  g_return_val_if_fail (CS_IS_DOCUMENT (self) && func != NULL, FALSE);
  if (cpu >= self->n_cpus || begin_ns >= end_ns)
    return TRUE;
  /* Prepared on first use: only a breakdown reads them. */
  if (self->mg_start == NULL &&
      (self->mg_start = _cs_sqlite_prepare (self->db,
           "SELECT chunk FROM migrate_chunks WHERE cpu = ?1 AND last_ns >= ?2"
           " ORDER BY last_ns LIMIT 1", error)) == NULL)
    return FALSE;
  if (self->mg_range == NULL &&
      (self->mg_range = _cs_sqlite_prepare (self->db,
           "SELECT chunk, first_ns, n_rows, data FROM migrate_chunks"
           " WHERE cpu = ?1 AND chunk >= ?2 ORDER BY chunk", error)) == NULL)
    return FALSE;
  return _cs_document_scan_chunk_rows (self, self->mg_start, self->mg_range, "migrate_chunks",
                                       cpu, begin_ns, end_ns, CS_MIGRATE_CHUNK_ROWS,
                                       MG_N_COLUMNS, _cs_migrate_chunk_modes, 0, NULL, migration_rows,
                                       &scan, error);
}
