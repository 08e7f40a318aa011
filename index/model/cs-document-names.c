/* cs-document-names.c: the names a CPU's chunks number (cpu_names rows),
 * read once per CPU and kind.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An interrupt chunk's IR_NAME and a slice chunk's SL_COMM are positions
 * among their CPU's names of that kind (CS_CPU_NAMES_*: the scan's
 * CsScanNames, cs-scan-names.c): a handler's name or a task's comm,
 * stored once however often it repeats.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cs-document-private.h"

#define N_KINDS 2
G_STATIC_ASSERT (CS_CPU_NAMES_IRQ < N_KINDS && CS_CPU_NAMES_COMM < N_KINDS);

/*
 * _cs_document_cpu_names:
 * @self: a document
 * @cpu: a CPU, below n_cpus
 * @kind: CS_CPU_NAMES_IRQ or CS_CPU_NAMES_COMM (cs-index-private.h)
 * @error: %CS_INDEX_ERROR_SQLITE
 *
 * Returns: (transfer none): the names by position (a damaged table's
 *   missing ones %NULL), owned by @self, or %NULL with @error set
 */
GPtrArray *
_cs_document_cpu_names (CsDocument  *self,
                        guint        cpu,
                        int          kind,
                        GError     **error)
{
  g_autoptr(sqlite3_stmt) s = NULL;
  g_autoptr(GPtrArray) names = NULL;
  GPtrArray **slot;
  int rc;

  g_return_val_if_fail (cpu < self->n_cpus && kind >= 0 && kind < N_KINDS, NULL);
  if (self->cpu_names == NULL)
    self->cpu_names = g_new0 (GPtrArray *, (gsize) self->n_cpus * N_KINDS);
  slot = &self->cpu_names[(gsize) kind * self->n_cpus + cpu];
  if (*slot != NULL)
    return *slot;
  s = _cs_sqlite_prepare (self->db,
                          "SELECT id, name FROM cpu_names WHERE cpu = ?1 AND kind = ?2 ORDER BY id",
                          error);
  if (s == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int (s, 2, kind);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (s, 1);

      /* Ids are 0, 1, ... in order; a damaged table's gaps stay unnamed. */
      while (names->len < (guint) MIN (sqlite3_column_int64 (s, 0), 1 << 20))
        g_ptr_array_add (names, NULL);
      if (names->len == (guint) sqlite3_column_int64 (s, 0))
        g_ptr_array_add (names, g_strdup (name != NULL ? name : ""));
    }
  if (!_cs_sqlite_check (self->db, rc, _("reading interrupt handlers' and tasks' names"), error))
    return NULL;
  *slot = g_steal_pointer (&names);
  return *slot;
}

/* Frees what _cs_document_cpu_names() read. */
void
_cs_document_free_cpu_names (CsDocument *self)
{
  for (gsize i = 0; self->cpu_names != NULL && i < (gsize) self->n_cpus * N_KINDS; i++)
    g_clear_pointer (&self->cpu_names[i], g_ptr_array_unref);
  g_clear_pointer (&self->cpu_names, g_free);
}
