/* cs-scan-names.c: CsScanNames, the strings a CPU's scan numbers for its
 * chunks (interrupt handlers' names, the comms that begin slices), each
 * kept once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A chunk column holds numbers; a name that repeats thousands of times
 * (one handler's every irq_handler_entry, a task's every run) is stored
 * once in the CPU's cpu_names rows and the column holds its position.
 */
#include "config.h"

#include "cs-cpu-scanner.h"

void
_cs_scan_names_init (CsScanNames *names)
{
  names->names = g_ptr_array_new_with_free_func (g_free);
  names->ids = g_hash_table_new (g_str_hash, g_str_equal);
}

void
_cs_scan_names_clear (CsScanNames *names)
{
  g_clear_pointer (&names->ids, g_hash_table_unref);
  g_clear_pointer (&names->names, g_ptr_array_unref);
}

void
_cs_scan_names_copy (CsScanNames       *copy,
                     const CsScanNames *names)
{
  _cs_scan_names_init (copy);
  for (guint i = 0; i < names->names->len; i++)
    _cs_scan_names_id (copy, names->names->pdata[i]);
}

gint64
_cs_scan_names_id (CsScanNames *names,
                   const char  *name)
{
  gpointer id = g_hash_table_lookup (names->ids, name);

  if (id == NULL)
    {
      char *owned = g_strdup (name);

      g_ptr_array_add (names->names, owned);
      id = GUINT_TO_POINTER (names->names->len);
      g_hash_table_insert (names->ids, owned, id);
    }
  return (gint64) GPOINTER_TO_UINT (id) - 1;
}
