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

#include <inttypes.h>

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

/* @names as CPU @cpu's cpu_names rows of @kind (CS_CPU_NAMES_*). */
static gboolean
write_names (sqlite3            *db,
             sqlite3_stmt       *name_s,
             guint               cpu,
             int                 kind,
             const CsScanNames  *names,
             GError            **error)
{
  for (guint n = 0; n < names->names->len; n++)
    {
      int rc;

      sqlite3_bind_int (name_s, 1, cpu);
      sqlite3_bind_int (name_s, 2, kind);
      sqlite3_bind_int (name_s, 3, n);
      sqlite3_bind_text (name_s, 4, names->names->pdata[n], -1, SQLITE_STATIC);
      rc = sqlite3_step (name_s);
      sqlite3_reset (name_s);
      if (!_cs_sqlite_check (db, rc, _("storing interrupt handlers' and tasks' names"), error))
        return FALSE;
    }
  return TRUE;
}

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
      "INSERT INTO cpus VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", error);
  g_autoptr(sqlite3_stmt) count_s = _cs_sqlite_prepare (db,
      "INSERT INTO cpu_type_counts VALUES (?1, ?2, ?3)", error);
  g_autoptr(sqlite3_stmt) task_s = _cs_sqlite_prepare (db,
      "INSERT INTO tasks VALUES (?1, ?2, ?3, ?4)", error);
  g_autoptr(sqlite3_stmt) loss_s = _cs_sqlite_prepare (db,
      "INSERT INTO missed_events VALUES (?1, ?2, ?3)", error);
  g_autoptr(sqlite3_stmt) state_s = _cs_sqlite_prepare (db,
      "INSERT INTO switch_state_counts VALUES (?1, ?2, ?3, ?4)", error);
  g_autoptr(sqlite3_stmt) name_s = _cs_sqlite_prepare (db,
      "INSERT INTO cpu_names VALUES (?1, ?2, ?3, ?4)", error);
  GHashTableIter iter;
  gpointer key, value;
  int rc;

  if (cpu_s == NULL || count_s == NULL || task_s == NULL || loss_s == NULL || state_s == NULL ||
      name_s == NULL)
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
      sqlite3_bind_int64 (cpu_s, 7, (gint64) r->offset_base);
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

      if (!write_names (db, name_s, r->cpu, CS_CPU_NAMES_IRQ, &r->irq_names, error) ||
          !write_names (db, name_s, r->cpu, CS_CPU_NAMES_COMM, &r->comm_names, error))
        return FALSE;

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

      for (guint s = 0; r->n_switch_states != G_MAXUINT && s < r->n_switch_states; s++)
        {
          const CsScanStateCount *c = &r->switch_states[s];

          sqlite3_bind_int (state_s, 1, r->cpu);
          sqlite3_bind_int (state_s, 2, r->switch_type);
          if (c->is_null)
            sqlite3_bind_null (state_s, 3);
          else
            sqlite3_bind_int64 (state_s, 3, c->prev_state);
          sqlite3_bind_int64 (state_s, 4, (gint64) c->n_events);
          rc = sqlite3_step (state_s);
          sqlite3_reset (state_s);
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

gboolean
_cs_index_inserts_prepare (sqlite3         *db,
                           CsIndexInserts  *ins,
                           GError         **error)
{
  ins->events = _cs_sqlite_prepare (db, "INSERT INTO event_chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", error);
  ins->event_types = ins->events ? _cs_sqlite_prepare (db, "INSERT INTO event_chunk_types VALUES (?1, ?2, ?3, ?4)", error) : NULL;
  ins->slices = ins->event_types ? _cs_sqlite_prepare (db, "INSERT INTO slice_chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error) : NULL;
  ins->irqs = ins->slices ? _cs_sqlite_prepare (db, "INSERT INTO irq_chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error) : NULL;
  ins->migrates = ins->irqs ? _cs_sqlite_prepare (db, "INSERT INTO migrate_chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error) : NULL;
  ins->tasks = ins->migrates ? _cs_sqlite_prepare (db, "INSERT INTO task_chunks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", error) : NULL;
  ins->summaries = ins->tasks ? _cs_sqlite_prepare (db, "INSERT INTO summaries VALUES (?1, ?2, ?3, ?4)", error) : NULL;
  ins->runs = ins->summaries ? _cs_sqlite_prepare (db, "INSERT INTO summary_runs VALUES (?1, ?2, ?3, ?4)", error) : NULL;
  return ins->runs != NULL;
}

void
_cs_index_inserts_clear (CsIndexInserts *ins)
{
  g_clear_pointer (&ins->events, sqlite3_finalize);
  g_clear_pointer (&ins->event_types, sqlite3_finalize);
  g_clear_pointer (&ins->slices, sqlite3_finalize);
  g_clear_pointer (&ins->irqs, sqlite3_finalize);
  g_clear_pointer (&ins->migrates, sqlite3_finalize);
  g_clear_pointer (&ins->tasks, sqlite3_finalize);
  g_clear_pointer (&ins->summaries, sqlite3_finalize);
  g_clear_pointer (&ins->runs, sqlite3_finalize);
}

/* The row of event_chunk_types beside event chunk @c, stored as @data
 * (cs-index-schema.c): its types from the blob's dictionary. */
static gboolean
insert_event_chunk_types (const CsIndexInserts *ins,
                          const CsScanChunk    *c,
                          const guint8         *data,
                          gsize                 size,
                          GError              **error)
{
  sqlite3_stmt *s = ins->event_types;
  gint64 types[CS_CHUNK_PEEK_MAX];
  guint8 ids[2 * CS_CHUNK_PEEK_MAX];
  guint n = 0;
  gboolean listed;
  int rc;

  listed = cs_chunk_peek_values (data, size, c->n_rows, EV_TYPE, types, &n);
  for (guint i = 0; listed && i < n; i++)
    {
      listed = types[i] >= 0 && types[i] < G_MAXUINT16;
      ids[2 * i] = (guint8) (types[i] & 0xff);
      ids[2 * i + 1] = (guint8) (types[i] >> 8);
    }
  sqlite3_bind_int (s, 1, c->cpu);
  sqlite3_bind_int64 (s, 2, c->chunk);
  sqlite3_bind_int64 (s, 3, c->first_ns);
  if (listed)
    sqlite3_bind_blob (s, 4, ids, 2 * n, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (s, 4);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return _cs_sqlite_check (sqlite3_db_handle (s), rc, _("storing events"), error);
}

gboolean
_cs_index_insert_chunk (const CsIndexInserts *ins,
                        CsScanChunk          *c,
                        GError              **error)
{
  sqlite3_stmt *s = c->kind == CS_SCAN_EVENT_CHUNK ? ins->events
                    : c->kind == CS_SCAN_SLICE_CHUNK ? ins->slices
                    : c->kind == CS_SCAN_IRQ_CHUNK ? ins->irqs
                    : c->kind == CS_SCAN_MIGRATE_CHUNK ? ins->migrates
                    : c->kind == CS_SCAN_TASK_CHUNK ? ins->tasks : ins->summaries;
  gsize size = 0;
  const void *data;
  int i = 1;

  cs_scan_chunk_encode (c);
  data = c->data != NULL ? g_bytes_get_data (c->data, &size) : NULL;

  if (c->kind == CS_SCAN_SUMMARY_RUN)
    {
      int rc;

      s = ins->runs;
      sqlite3_bind_int (s, 1, c->cpu);
      sqlite3_bind_int64 (s, 2, c->last_ns);
      sqlite3_bind_int64 (s, 3, c->first_ns);
      sqlite3_bind_int (s, 4, c->pid);
      rc = sqlite3_step (s);
      sqlite3_reset (s);
      return _cs_sqlite_check (sqlite3_db_handle (s), rc, _("storing summary runs"), error);
    }
  if (c->kind == CS_SCAN_SUMMARY_CHUNK)
    {
      int rc;

      sqlite3_bind_int (s, 1, c->cpu);
      sqlite3_bind_int (s, 2, c->level);
      sqlite3_bind_int64 (s, 3, c->chunk);
      sqlite3_bind_blob (s, 4, data, size, SQLITE_STATIC);
      rc = sqlite3_step (s);
      sqlite3_reset (s);
      return _cs_sqlite_check (sqlite3_db_handle (s), rc, _("storing summaries"), error);
    }
  if (c->kind == CS_SCAN_TASK_CHUNK)
    sqlite3_bind_int (s, i++, c->pid);
  sqlite3_bind_int (s, i++, c->cpu);
  sqlite3_bind_int64 (s, i++, c->chunk);
  sqlite3_bind_int64 (s, i++, c->first_ns);
  sqlite3_bind_int64 (s, i++, c->last_ns);
  if (c->kind == CS_SCAN_EVENT_CHUNK)
    sqlite3_bind_int64 (s, i++, c->first_row);
  sqlite3_bind_int (s, i++, c->n_rows);
  sqlite3_bind_blob (s, i++, data, size, SQLITE_STATIC);
  int rc = sqlite3_step (s);
  sqlite3_reset (s);
  if (!_cs_sqlite_check (sqlite3_db_handle (s), rc, _("storing events"), error))
    return FALSE;
  return c->kind != CS_SCAN_EVENT_CHUNK || insert_event_chunk_types (ins, c, data, size, error);
}


gboolean
_cs_index_write_derived (sqlite3             *db,
                         CsTraceFile         *file,
                         const char          *identity,
                         guint                n_cpus,
                         const CsTypeMap     *types,
                         const CsSummaryGrid *grid,
                         GPtrArray           *results,
                         gboolean             origin_is_first,
                         GError             **error)
{
  struct tep_handle *tep = cs_trace_file_get_tep (file);
  const char *trace_path = cs_trace_file_get_path (file);
  g_autofree guint64 *type_totals = NULL;

  type_totals = g_new0 (guint64, types->n_types);
  if (!_cs_index_write_cpus_and_tasks (db, tep, results, types->n_types, type_totals, error) ||
      !_cs_index_write_event_types (db, tep, types, type_totals, error))
    return FALSE;

  guint64 n_events = 0;
  gint64 first_ns = G_MAXINT64, last_ns = 0;
  guint n_active = 0;
  for (guint i = 0; i < results->len; i++)
    {
      CsScanResult *r = g_ptr_array_index (results, i);
      if (r->n_events == 0)
        continue;
      n_active++;
      n_events += r->n_events;
      first_ns = MIN (first_ns, r->first_ns);
      last_ns = MAX (last_ns, r->last_ns);
    }
  if (n_events == 0)
    first_ns = last_ns = 0;

  /* The scan's summaries are on the grid chosen before it, whose origin is
   * the first record each scan sampled: the same records the scan then
   * counted, so the two agree unless the reader broke that promise. */
  if (origin_is_first && first_ns != grid->origin_ns)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: the first event read (%" PRId64 " ns) is not the one the "
                   "summaries were laid out from (%" PRId64 " ns)"),
                   trace_path, first_ns, grid->origin_ns);
      return FALSE;
    }
  guint shift = grid->shift;
  /* (A live index's grid may start after a CPU's first event: see
   * cs-index-live.c.  Its buckets start at the grid's origin.) */
  guint n_levels = _cs_summary_count_levels (shift, _cs_span_ns (MIN (first_ns, grid->origin_ns),
                                                                 last_ns));

  g_debug ("%s: summaries at 2^%u ns, %u levels (from the whole recording: 2^%u ns)",
           trace_path, shift, n_levels,
           _cs_summary_choose_shift (n_events, n_active, _cs_span_ns (first_ns, last_ns)));
  /* Each scanner built every level up to 2^62 ns: keep those wanted. */
  {
    g_autoptr(sqlite3_stmt) del = _cs_sqlite_prepare (db, "DELETE FROM summaries WHERE level >= ?1",
                                                       error);

    if (del == NULL)
      return FALSE;
    sqlite3_bind_int (del, 1, n_levels);
    if (!_cs_sqlite_check (db, sqlite3_step (del), _("dropping summary levels"), error))
      return FALSE;
  }

  if (!_cs_index_write_meta (db, "identity", identity, 0, error) ||
      !_cs_index_write_meta (db, "trace_path", cs_trace_file_get_path (file), 0, error) ||
      !_cs_index_write_meta (db, "file_version", NULL, cs_trace_file_get_file_version (file), error) ||
      !_cs_index_write_meta (db, "compression", cs_trace_file_get_compression (file)
                                        ? cs_trace_file_get_compression (file) : "none", 0, error) ||
      !_cs_index_write_meta (db, "clock", cs_trace_file_get_clock (file), 0, error) ||
      !_cs_index_write_meta (db, "n_cpus", NULL, n_cpus, error) ||
      !_cs_index_write_meta (db, "n_events", NULL, n_events, error) ||
      !_cs_index_write_meta (db, "first_ns", NULL, first_ns, error) ||
      !_cs_index_write_meta (db, "last_ns", NULL, last_ns, error) ||
      !_cs_index_write_meta (db, "summary_shift", NULL, shift, error) ||
      !_cs_index_write_meta (db, "summary_levels", NULL, n_levels, error) ||
      !_cs_index_write_meta (db, "summary_origin_ns", NULL, grid->origin_ns, error))
    return FALSE;
  /* Trace text (cs-text-import.c): what it was and what was not understood. */
  {
    guint64 first_bad = 0, n_bad = cs_trace_file_get_n_bad_lines (file, &first_bad);

    if (!_cs_index_write_meta (db, "source_format", cs_trace_file_get_source_format (file), 0, error) ||
        !_cs_index_write_meta (db, "n_bad_lines", NULL, n_bad, error) ||
        !_cs_index_write_meta (db, "first_bad_line", NULL, first_bad, error))
      return FALSE;
  }

  return TRUE;
}

gboolean
_cs_index_write_complete (sqlite3  *db,
                          GError  **error)
{
  g_autofree char *version_sql = NULL;

  if (!_cs_sqlite_exec (db, "COMMIT;", error))
    return FALSE;

  /* The schema version is written last: a file that has it is complete. */
  version_sql = g_strdup_printf ("BEGIN; PRAGMA user_version = %d; COMMIT;", CS_INDEX_SCHEMA_VERSION);
  return _cs_sqlite_exec (db, version_sql, error);
}

void
_cs_index_build_type_map (struct tep_handle *tep,
                          CsTypeMap         *map)
{
  struct tep_event **events = tep_list_events (tep, TEP_EVENT_SORT_ID);
  guint n = 0;

  map->by_tep_id = g_new (gint32, 65536);
  for (guint i = 0; i < 65536; i++)
    map->by_tep_id[i] = -1;
  for (; events != NULL && events[n] != NULL; n++)
    if (events[n]->id >= 0 && events[n]->id < 65536)
      map->by_tep_id[events[n]->id] = n;
  /* One more id for records whose type has no format in the file. */
  map->n_types = n + 1;
}
