/* cs-index-tables.c: the index's tables of what the scan found.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Once every CPU is scanned, the index builder (cs-index-builder.c) writes
 * the per-recording tables here: the CPUs with their counts and missed
 * events, the tasks (pid, last comm, events, runtime), the event types and
 * the metadata rows.  The event chunks and summaries are written while the
 * scan goes on, not here.
 */
#include "config.h"

#include <event-parse.h>
#include <glib/gi18n-lib.h>

#include "cs-cpu-scanner.h"
#include "cs-index-private.h"
#include "cs-index-tables-private.h"

gboolean
_cs_index_write_event_types (sqlite3           *db,
                             struct tep_handle *tep,
                             const CsTypeMap   *map,
                             const guint64     *totals,
                             GError           **error)
{
  struct tep_event **events = tep_list_events (tep, TEP_EVENT_SORT_ID);
  g_autoptr(sqlite3_stmt) s =
    _cs_sqlite_prepare (db, "INSERT INTO event_types VALUES (?1, ?2, ?3, ?4, ?5)", error);

  if (s == NULL)
    return FALSE;
  for (guint id = 0; id < map->n_types; id++)
    {
      gboolean unknown = id == map->n_types - 1;
      struct tep_event *ev = unknown ? NULL : events[id];

      sqlite3_bind_int (s, 1, id);
      sqlite3_bind_int (s, 2, unknown ? -1 : ev->id);
      sqlite3_bind_text (s, 3, unknown ? "ftrace" : ev->system, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (s, 4, unknown ? "unknown" : ev->name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (s, 5, totals[id]);
      int rc = sqlite3_step (s);
      sqlite3_reset (s);
      if (!_cs_sqlite_check (db, rc, _("storing event types"), error))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  guint64 n_events;
  gint64 runtime_ns;
  gint64 comm_ts;
  const char *comm;
} TaskTotal;

gboolean
_cs_index_write_cpus_and_tasks (sqlite3           *db,
                                struct tep_handle *tep,
                                GPtrArray         *results,
                                guint              n_types,
                                guint64           *type_totals,
                                GError           **error)
{
  g_autoptr(GHashTable) tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(sqlite3_stmt) cpu_s = _cs_sqlite_prepare (db,
      "INSERT INTO cpus VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error);
  g_autoptr(sqlite3_stmt) count_s = _cs_sqlite_prepare (db,
      "INSERT INTO cpu_type_counts VALUES (?1, ?2, ?3)", error);
  g_autoptr(sqlite3_stmt) task_s = _cs_sqlite_prepare (db,
      "INSERT INTO tasks VALUES (?1, ?2, ?3, ?4)", error);
  g_autoptr(sqlite3_stmt) loss_s = _cs_sqlite_prepare (db,
      "INSERT INTO missed_events VALUES (?1, ?2, ?3)", error);
  GHashTableIter iter;
  gpointer key, value;
  int rc;

  if (cpu_s == NULL || count_s == NULL || task_s == NULL || loss_s == NULL)
    return FALSE;

  for (guint i = 0; i < results->len; i++)
    {
      CsScanResult *r = g_ptr_array_index (results, i);

      sqlite3_bind_int (cpu_s, 1, r->cpu);
      sqlite3_bind_int64 (cpu_s, 2, r->n_events);
      sqlite3_bind_int64 (cpu_s, 3, r->first_ns);
      sqlite3_bind_int64 (cpu_s, 4, r->last_ns);
      sqlite3_bind_int64 (cpu_s, 5, r->missed_events);
      sqlite3_bind_int (cpu_s, 6, r->has_sched_switch);
      rc = sqlite3_step (cpu_s);
      sqlite3_reset (cpu_s);
      if (!_cs_sqlite_check (db, rc, _("storing CPUs"), error))
        return FALSE;

      for (guint l = 0; l < r->losses->len; l++)
        {
          const CsScanLoss *loss = &g_array_index (r->losses, CsScanLoss, l);

          sqlite3_bind_int (loss_s, 1, r->cpu);
          sqlite3_bind_int64 (loss_s, 2, loss->ts_ns);
          sqlite3_bind_int64 (loss_s, 3, loss->n_missed);
          rc = sqlite3_step (loss_s);
          sqlite3_reset (loss_s);
          if (!_cs_sqlite_check (db, rc, _("storing missed events"), error))
            return FALSE;
        }

      for (guint t = 0; t < n_types; t++)
        {
          if (r->type_counts[t] == 0)
            continue;
          type_totals[t] += r->type_counts[t];
          sqlite3_bind_int (count_s, 1, r->cpu);
          sqlite3_bind_int (count_s, 2, t);
          sqlite3_bind_int64 (count_s, 3, r->type_counts[t]);
          rc = sqlite3_step (count_s);
          sqlite3_reset (count_s);
          if (!_cs_sqlite_check (db, rc, _("storing event counts"), error))
            return FALSE;
        }

      g_hash_table_iter_init (&iter, r->tasks);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          CsScanTask *st = value;
          TaskTotal *tt = g_hash_table_lookup (tasks, key);

          if (tt == NULL)
            {
              tt = g_new0 (TaskTotal, 1);
              tt->comm_ts = -1;
              g_hash_table_insert (tasks, key, tt);
            }
          tt->n_events += st->n_events;
          tt->runtime_ns += st->runtime_ns;
          if (st->comm_ts > tt->comm_ts)
            {
              tt->comm_ts = st->comm_ts;
              tt->comm = st->comm;
            }
        }
    }

  g_hash_table_iter_init (&iter, tasks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      TaskTotal *tt = value;
      gint32 pid = GPOINTER_TO_INT (key);
      const char *comm = tt->comm;

      /* Tasks never seen in a sched_switch: the recording's saved
       * cmdlines (saved_cmdlines in tracefs) may know them. */
      if (comm == NULL || *comm == '\0')
        comm = pid == 0 ? "<idle>" : tep_data_comm_from_pid (tep, pid);

      sqlite3_bind_int (task_s, 1, pid);
      sqlite3_bind_text (task_s, 2, comm, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (task_s, 3, tt->n_events);
      sqlite3_bind_int64 (task_s, 4, tt->runtime_ns);
      rc = sqlite3_step (task_s);
      sqlite3_reset (task_s);
      if (!_cs_sqlite_check (db, rc, _("storing tasks"), error))
        return FALSE;
    }
  return TRUE;
}

gboolean
_cs_index_write_meta (sqlite3     *db,
                      const char  *key,
                      const char  *text,
                      gint64       number,
                      GError     **error)
{
  g_autoptr(sqlite3_stmt) s = _cs_sqlite_prepare (db, "INSERT INTO meta VALUES (?1, ?2)", error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
  if (text != NULL)
    sqlite3_bind_text (s, 2, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_int64 (s, 2, number);
  return _cs_sqlite_check (db, sqlite3_step (s), _("storing metadata"), error);
}
