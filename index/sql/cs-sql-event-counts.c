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

/**
 * _cs_sql_count_groups:
 * @doc: the document
 * @type_id: the table's event type, or -1 for every event
 * @by: %CS_SQL_COUNT_BY_PID (only with @type_id -1), %CS_SQL_COUNT_BY_CPU,
 *   %CS_SQL_COUNT_BY_CPU_TYPE (only with @type_id -1) or
 *   %CS_SQL_COUNT_BY_CPU_STATE (only with sched_switch's @type_id)
 * @bounds: the pushed-down constraints; only cpu and pid may narrow (a
 *   plan with a ts bound reads ts and is never counted)
 * @states: (element-type CsSwitchStateCount) (nullable): for
 *   %CS_SQL_COUNT_BY_CPU_STATE, the index's sched_switch counts by
 *   prev_state (_cs_document_dup_switch_states())
 * @terms: (array length=n_terms): the order the groups come in
 * @n_terms: how many
 *
 * The groups of identical rows of an event table, in the order of @terms,
 * without the empty ones.
 *
 * Returns: (transfer full) (element-type CsSqlCountGroup): the groups
 */
GArray *
_cs_sql_count_groups (CsDocument           *doc,
                      gint                  type_id,
                      CsSqlCountBy          by,
                      const CsSqlBounds    *bounds,
                      const GArray         *states,
                      const CsSqlOrderTerm *terms,
                      guint                 n_terms)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (CsSqlCountGroup));
  SortData sd = { doc, terms, n_terms };

  if (bounds->empty)
    return groups;
  if (by == CS_SQL_COUNT_BY_CPU_STATE)
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
