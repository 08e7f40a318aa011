/* cs-cpu-scan-fork.c: a copy of a CPU's scan, to close while the scan
 * itself goes on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The live index (cs-index-live.c) keeps each CPU's scan open from one
 * snapshot of a recording in progress to the next.  To write an index of
 * a snapshot it closes a copy: the copy's last chunks, running slice,
 * open summary blocks and task rows go into that snapshot's index, and
 * the scan goes on as if nothing had been closed.  So the index of the
 * final file is the one a single scan of it builds.
 */
#include "config.h"

#include "cs-cpu-scan-private.h"

static CsScanResult *
copy_result (const CsScanResult *r,
             guint               n_types)
{
  CsScanResult *c = g_memdup2 (r, sizeof *r);
  GHashTableIter iter;
  gpointer key, value;

  c->type_counts = g_memdup2 (r->type_counts, sizeof (guint64) * n_types);
  c->losses = g_array_copy (r->losses);
  _cs_scan_names_copy (&c->irq_names, &r->irq_names);
  _cs_scan_names_copy (&c->comm_names, &r->comm_names);
  c->tasks = g_hash_table_new_full (NULL, NULL, NULL, _cs_scan_task_free);
  g_hash_table_iter_init (&iter, r->tasks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const CsScanTask *task = value;
      CsScanTask *copy = g_memdup2 (task, sizeof *task);

      copy->rows = task->rows != NULL
        ? g_memdup2 (task->rows, sizeof (gint64[TK_N_COLUMNS]) * task->n_alloc) : NULL;
      g_hash_table_insert (c->tasks, key, copy);
    }
  return c;
}

/*
 * _cs_cpu_scan_fork:
 * @scan: a scan past _cs_cpu_scan_continue() (its grid is set)
 * @emit: receives the copy's chunks when it is closed
 *
 * Copies everything @scan holds open (~0.3 MiB, ~3.5 MiB of summaries and
 * the tasks' rows), without its cursor: the copy can only be closed, by
 * _cs_cpu_scan_close(), then freed with _cs_cpu_scan_free().
 *
 * Returns: (transfer full): the copy
 */
CsCpuScan *
_cs_cpu_scan_fork (CsCpuScan      *scan,
                   CsScanEmitFunc  emit,
                   gpointer        emit_data)
{
  CsCpuScan *copy = g_new0 (CsCpuScan, 1);
  ScanState *st = g_memdup2 (scan->st, sizeof *scan->st);

  g_return_val_if_fail (scan->st->summary != NULL, NULL);

  copy->st = st;
  st->ev = g_memdup2 (scan->st->ev, sizeof (gint64[EV_N_COLUMNS][CS_EVENT_CHUNK_ROWS]));
  st->sl = g_memdup2 (scan->st->sl, sizeof (gint64[SL_N_COLUMNS][CS_SLICE_CHUNK_ROWS]));
  st->ir = g_memdup2 (scan->st->ir, sizeof (gint64[IR_N_COLUMNS][CS_IRQ_CHUNK_ROWS]));
  st->mg = g_memdup2 (scan->st->mg, sizeof (gint64[MG_N_COLUMNS][CS_MIGRATE_CHUNK_ROWS]));
  copy->result = st->result = copy_result (scan->result, st->types->n_types);
  copy->held = st->held = g_array_new (FALSE, FALSE, sizeof (SummaryOp));
  st->emit = emit;
  st->emit_data = emit_data;
  st->summary = _cs_summary_scan_copy (scan->st->summary, st);
  /* The cache points at the scan's tasks, not the copy's. */
  memset (st->cache_task, 0, sizeof st->cache_task);
  copy->at_end = TRUE;
  return copy;
}
