/* cs-document-irqs.c: a CPU's interrupt entries and exits, from the
 * index's irq chunks (cs-index-private.h, IR_*).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The scan keeps every irq_handler_entry/exit and softirq_entry/exit
 * record of a CPU a second time, with its irq or vec
 * (events/irq/<name>/format), in chunks of CS_IRQ_CHUNK_ROWS: a span's
 * interrupts come from a few small chunks, where the event chunks would
 * be decoded in full and a record read for each.
 */
#include "config.h"

#include "cs-document-private.h"

G_STATIC_ASSERT ((int) CS_IRQ_ENTRY == IR_KIND_IRQ_ENTRY);
G_STATIC_ASSERT ((int) CS_IRQ_EXIT == IR_KIND_IRQ_EXIT);
G_STATIC_ASSERT ((int) CS_SOFTIRQ_ENTRY == IR_KIND_SOFTIRQ_ENTRY);
G_STATIC_ASSERT ((int) CS_SOFTIRQ_EXIT == IR_KIND_SOFTIRQ_EXIT);

typedef struct {
  guint cpu;
  gint64 begin_ns, end_ns;
  GPtrArray *names;
  CsIrqFunc func;
  gpointer user_data;
} IrqScan;

static gboolean
irq_rows (gint64 *const *cols,
          guint          n,
          gpointer       user_data)
{
  const IrqScan *scan = user_data;

  for (guint i = 0; i < n; i++)
    {
      CsIrq irq;
      gint64 name = cols[IR_NAME][i];

      irq.ts_ns = cols[IR_TS][i];
      if (irq.ts_ns >= scan->end_ns)
        return FALSE;
      if (irq.ts_ns < scan->begin_ns)
        continue;
      irq.row = (guint64) cols[IR_ROW][i];
      irq.cpu = scan->cpu;
      irq.kind = (CsIrqKind) CLAMP (cols[IR_KIND][i], 0, CS_SOFTIRQ_EXIT);
      irq.value = cols[IR_VALUE][i];
      irq.name = irq.kind == CS_IRQ_ENTRY && name >= 0 && name < scan->names->len
                 ? scan->names->pdata[name] : NULL;
      if (!scan->func (&irq, scan->user_data))
        return FALSE;
    }
  return TRUE;
}

/**
 * cs_document_foreach_irq:
 * @self: a document
 * @cpu: a CPU, 0 .. n_cpus - 1 (none for others)
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @func: called for each interrupt entry or exit of @cpu in [@begin_ns,
 *   @end_ns), in the CPU's order (time, then row); returns %FALSE to stop
 * @user_data: for @func
 * @error: %CS_INDEX_ERROR_SQLITE, or %CS_INDEX_ERROR_CORRUPT for a
 *   damaged chunk
 *
 * The CPU's irq_handler_entry, irq_handler_exit, softirq_entry and
 * softirq_exit events of a span, with the irq (hard interrupts) or vec
 * (softirqs) their records hold and a handler's name, without reading
 * the recording.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean
cs_document_foreach_irq (CsDocument  *self,
                         guint        cpu,
                         gint64       begin_ns,
                         gint64       end_ns,
                         CsIrqFunc    func,
                         gpointer     user_data,
                         GError     **error)
{
  IrqScan scan = { cpu, begin_ns, end_ns, NULL, func, user_data };

  g_return_val_if_fail (CS_IS_DOCUMENT (self) && func != NULL, FALSE);
  if (cpu >= self->n_cpus || begin_ns >= end_ns)
    return TRUE;
  /* Prepared on first use: only a breakdown reads them. */
  if (self->ir_start == NULL &&
      (self->ir_start = _cs_sqlite_prepare (self->db,
           "SELECT chunk FROM irq_chunks WHERE cpu = ?1 AND last_ns >= ?2"
           " ORDER BY last_ns LIMIT 1", error)) == NULL)
    return FALSE;
  if (self->ir_range == NULL &&
      (self->ir_range = _cs_sqlite_prepare (self->db,
           "SELECT chunk, first_ns, n_rows, data FROM irq_chunks"
           " WHERE cpu = ?1 AND chunk >= ?2 ORDER BY chunk", error)) == NULL)
    return FALSE;
  scan.names = _cs_document_cpu_names (self, cpu, CS_CPU_NAMES_IRQ, error);
  if (scan.names == NULL)
    return FALSE;
  return _cs_document_scan_chunk_rows (self, self->ir_start, self->ir_range, "irq_chunks", cpu,
                                       begin_ns, end_ns, CS_IRQ_CHUNK_ROWS, IR_N_COLUMNS,
                                       _cs_irq_chunk_modes, 0, NULL, irq_rows, &scan, error);
}
