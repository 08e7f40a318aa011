/* cs-sql-event-counts.c: rows of the event tables made from the index's
 * counts, for queries that read no column a count cannot tell apart.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SQLite 3.40 gives a virtual table no way to answer an aggregate: it
 * steps through every row.  But when a query reads only the columns that
 * the index counts by (none at all for count(*); pid and comm, from the
 * tasks table's events per task; cpu, system and name, from the per-CPU
 * counts per event type), every row of one (pid) or (cpu, type) group
 * looks the same, so the table hands out the group's count of identical
 * rows without reading a chunk.  sched_switch read only by cpu and
 * prev_state has the index's counts per CPU and prev_state value
 * (switch_state_counts), so its prev_state predicates need no record
 * either: SQLite checks them on one row per group.  Sorted by the ORDER
 * BY or GROUP BY terms it is given, the groups also spare SQLite the
 * sort of every row.  A query that reads the hidden column _cs_n gets one
 * row per group, _cs_n its count (cs-sql-count-rewrite.c).
 *
 * Over a span of time (events(BEGIN, END), or a WHERE on ts that
 * cs-sql-count-rewrite.c turned into one) the index's counts, which are
 * the whole recording's, do not answer: the groups are counted from the
 * span's chunks instead (a CPU's rows by bisection; its types or pids
 * from the chunks' columns, no record read), which is what SQLite would
 * have stepped through row by row, decoding each row's names as text and
 * sorting them (17.8 s for 15.4 M events of one CPU of the large
 * benchmark recording, against 0.26 s from the chunks).
 */
#include "config.h"

#include <string.h>

#include "cs-sql-private.h"

/**
 * _cs_sql_counts_usable:
 * @doc: the document
 * @by_pid: %TRUE for groups per task, %FALSE per CPU (and event type)
 *
 * Whether the document's counts of that kind add up to its events, so
 * that counted rows are the rows a scan would give (a damaged index must
 * not answer differently from its chunks: the scan then answers).  The
 * answer is the same for the document's life; callers may keep it.
 *
 * Returns: %TRUE when they do
 */
gboolean
_cs_sql_counts_usable (CsDocument *doc,
                       gboolean    by_pid)
{
  guint64 total = 0;

  if (by_pid)
    {
      for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
        total += cs_document_get_task (doc, i)->n_events;
      return total == cs_document_get_n_events (doc);
    }
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      guint64 n = 0;

      for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
        n += cs_document_get_cpu_type_count (doc, cpu, t);
      if (n != cs_document_get_cpu (doc, cpu)->n_events)
        return FALSE;
      total += n;
    }
  return total == cs_document_get_n_events (doc);
}

static const char *
group_text (CsDocument          *doc,
            const CsSqlCountGroup *g,
            CsSqlCountKey        key)
{
  const CsEventType *type;

  if (key == CS_SQL_KEY_COMM)
    return cs_document_get_comm (doc, g->pid);
  type = g->type_id >= 0 ? cs_document_get_event_type (doc, (guint) g->type_id) : NULL;
  if (type == NULL)
    return NULL;
  return key == CS_SQL_KEY_SYSTEM ? type->system : type->name;
}

typedef struct {
  CsDocument *doc;
  const CsSqlOrderTerm *terms;
  guint n_terms;
} SortData;

static gint
compare_groups (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const SortData *sd = user_data;
  const CsSqlCountGroup *x = a, *y = b;

  for (guint i = 0; i < sd->n_terms; i++)
    {
      CsSqlCountKey key = sd->terms[i].key;
      int c;

      if (key == CS_SQL_KEY_CPU)
        c = (x->cpu > y->cpu) - (x->cpu < y->cpu);
      else if (key == CS_SQL_KEY_STATE)
        c = x->state_null || y->state_null ? (int) !x->state_null - (int) !y->state_null
                                           : (x->state > y->state) - (x->state < y->state);
      else if (key == CS_SQL_KEY_PID)
        c = (x->pid > y->pid) - (x->pid < y->pid);
      else
        {
          /* SQLite's BINARY collation: the bytes, NULL first. */
          const char *s = group_text (sd->doc, x, key), *t = group_text (sd->doc, y, key);

          c = s == NULL || t == NULL ? (s != NULL) - (t != NULL) : strcmp (s, t);
        }
      if (c != 0)
        return sd->terms[i].desc ? -c : c;
    }
  return 0;
}

typedef struct {
  guint64 *by_type;             /* per type id, n_types of them; or NULL */
  guint n_types;
  GHashTable *by_pid;           /* pid -> guint64 *; or NULL */
  gint32 last_pid;              /* the slot of the last pid seen */
  guint64 *last_slot;
} SpanCounts;

static gboolean
count_event (const CsEvent *ev,
             gpointer       user_data)
{
  SpanCounts *sc = user_data;

  if (sc->by_type != NULL && ev->type_id < sc->n_types)
    sc->by_type[ev->type_id]++;
  if (sc->by_pid != NULL)
    {
      if (sc->last_slot == NULL || ev->pid != sc->last_pid)
        {
          sc->last_slot = g_hash_table_lookup (sc->by_pid, GINT_TO_POINTER (ev->pid));
          if (sc->last_slot == NULL)
            {
              sc->last_slot = g_new0 (guint64, 1);
              g_hash_table_insert (sc->by_pid, GINT_TO_POINTER (ev->pid), sc->last_slot);
            }
          sc->last_pid = ev->pid;
        }
      (*sc->last_slot)++;
    }
  return TRUE;
}

/* The groups of @by over @bounds' span, counted from the chunks: per CPU
 * (@type_id's events, or all: by bisection), per CPU and type, or per
 * pid (over the CPUs @bounds allows). */
static gboolean
count_span_groups (CsDocument         *doc,
                   gint                type_id,
                   CsSqlCountBy        by,
                   const CsSqlBounds  *bounds,
                   GArray             *groups,
                   GError            **error)
{
  guint n_types = cs_document_get_n_event_types (doc);
  g_autofree guint64 *by_type = g_new0 (guint64, MAX (n_types, 1));
  g_autofree gboolean *wanted = NULL;
  g_autoptr(GHashTable) by_pid = NULL;
  SpanCounts sc = { NULL, n_types, NULL, 0, NULL };

  if (by == CS_SQL_COUNT_BY_PID)
    sc.by_pid = by_pid = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  else
    sc.by_type = by_type;
  if (type_id >= 0 && (guint) type_id < n_types)
    {
      wanted = g_new0 (gboolean, n_types);
      wanted[type_id] = TRUE;
    }
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      if (bounds->cpu >= 0 && bounds->cpu != cpu)
        continue;
      if (by == CS_SQL_COUNT_BY_CPU && type_id < 0)
        {
          guint64 a = _cs_document_count_before (doc, cpu, bounds->begin_ns, error);
          guint64 b = a == G_MAXUINT64 ? a : _cs_document_count_before (doc, cpu, bounds->end_ns, error);
          CsSqlCountGroup g = { -1, (gint) cpu, -1, b - a, FALSE, 0 };

          if (b == G_MAXUINT64)
            return FALSE;
          if (g.n > 0)
            g_array_append_val (groups, g);
          continue;
        }
      if (by != CS_SQL_COUNT_BY_PID)
        memset (by_type, 0, MAX (n_types, 1) * sizeof *by_type);
      if (!_cs_document_scan_events (doc, cpu, bounds->begin_ns, bounds->end_ns, wanted, n_types,
                                     count_event, &sc, error))
        return FALSE;
      sc.last_slot = NULL;
      for (guint t = 0; by != CS_SQL_COUNT_BY_PID && t < n_types; t++)
        {
          CsSqlCountGroup g = { -1, (gint) cpu, by == CS_SQL_COUNT_BY_CPU ? type_id : (gint) t,
                                by_type[t], FALSE, 0 };

          if (g.n > 0 && (by == CS_SQL_COUNT_BY_CPU_TYPE || (gint) t == type_id))
            g_array_append_val (groups, g);
        }
    }
  if (by_pid != NULL)
    {
      GHashTableIter it;
      gpointer key, value;

      g_hash_table_iter_init (&it, by_pid);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          CsSqlCountGroup g = { GPOINTER_TO_INT (key), -1, -1, *(guint64 *) value, FALSE, 0 };

          if (bounds->pid < 0 || bounds->pid == g.pid)
            g_array_append_val (groups, g);
        }
    }
  return TRUE;
}

/**
 * _cs_sql_count_groups:
 * @doc: the document
 * @type_id: the table's event type, or -1 for every event
 * @by: %CS_SQL_COUNT_BY_PID (only with @type_id -1), %CS_SQL_COUNT_BY_CPU,
 *   %CS_SQL_COUNT_BY_CPU_TYPE (only with @type_id -1) or
 *   %CS_SQL_COUNT_BY_CPU_STATE (only with sched_switch's @type_id)
 * @bounds: the pushed-down constraints: cpu, pid, and a span of time
 *   (events(BEGIN, END); a plan with a WHERE on ts reads ts and is never
 *   counted), which only %CS_SQL_COUNT_BY_CPU_STATE cannot take
 * @states: (element-type CsSwitchStateCount) (nullable): for
 *   %CS_SQL_COUNT_BY_CPU_STATE, the index's sched_switch counts by
 *   prev_state (_cs_document_dup_switch_states())
 * @terms: (array length=n_terms): the order the groups come in
 * @n_terms: how many
 * @error: an error of the index (%CS_INDEX_ERROR) when a span's chunks
 *   cannot be read
 *
 * The groups of identical rows of an event table, in the order of @terms,
 * without the empty ones.
 *
 * Returns: (transfer full) (element-type CsSqlCountGroup) (nullable): the
 *   groups, or %NULL with @error set
 */
GArray *
_cs_sql_count_groups (CsDocument           *doc,
                      gint                  type_id,
                      CsSqlCountBy          by,
                      const CsSqlBounds    *bounds,
                      const GArray         *states,
                      const CsSqlOrderTerm *terms,
                      guint                 n_terms,
                      GError              **error)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (CsSqlCountGroup));
  SortData sd = { doc, terms, n_terms };

  if (bounds->empty)
    return groups;
  if (bounds->begin_ns != G_MININT64 || bounds->end_ns != G_MAXINT64)
    {
      g_return_val_if_fail (by != CS_SQL_COUNT_BY_CPU_STATE, groups);
      if (!count_span_groups (doc, type_id, by, bounds, groups, error))
        {
          g_array_unref (groups);
          return NULL;
        }
    }
  else if (by == CS_SQL_COUNT_BY_CPU_STATE)
    {
      for (guint i = 0; states != NULL && i < states->len; i++)
        {
          const CsSwitchStateCount *c = &g_array_index (states, CsSwitchStateCount, i);
          CsSqlCountGroup g = { -1, (gint) c->cpu, type_id, c->n_events, c->is_null, c->prev_state };

          if (c->type_id == type_id && g.n > 0 && (bounds->cpu < 0 || bounds->cpu == c->cpu))
            g_array_append_val (groups, g);
        }
    }
  else if (by == CS_SQL_COUNT_BY_PID)
    {
      for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
        {
          const CsTask *task = cs_document_get_task (doc, i);
          CsSqlCountGroup g = { task->pid, -1, -1, task->n_events, FALSE, 0 };

          if (g.n > 0 && (bounds->pid < 0 || bounds->pid == task->pid))
            g_array_append_val (groups, g);
        }
    }
  else
    {
      for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
        {
          if (bounds->cpu >= 0 && bounds->cpu != cpu)
            continue;
          if (by == CS_SQL_COUNT_BY_CPU)
            {
              CsSqlCountGroup g = { -1, (gint) cpu, type_id, 0, FALSE, 0 };

              g.n = type_id >= 0 ? cs_document_get_cpu_type_count (doc, cpu, (guint) type_id)
                                 : cs_document_get_cpu (doc, cpu)->n_events;
              if (g.n > 0)
                g_array_append_val (groups, g);
              continue;
            }
          for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
            {
              CsSqlCountGroup g = { -1, (gint) cpu, (gint) t,
                                    cs_document_get_cpu_type_count (doc, cpu, t), FALSE, 0 };

              if (g.n > 0)
                g_array_append_val (groups, g);
            }
        }
    }
  if (n_terms > 0)
    g_array_sort_with_data (groups, compare_groups, &sd);
  return groups;
}
