/* cs-compare-table.c: the statistics of two recordings side by side.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Pairs what cs_document_compute_range_stats() computed on two recordings
 * (A, the reference, and B, the one changed) so that a user sees what a
 * change did to scheduling: per task CPU time and share, per CPU busy
 * time and events, events per type, the wakeup latency summary, each as
 * A, B, B − A and the change in percent of A.  `chronoscope stats A
 * --compare B` prints it, and the comparison window of the main window
 * shows the same text.
 *
 * Tasks are matched by comm: a pid that ran under the same comm in both
 * recordings gets a row of its own; the other tasks of that comm (pids
 * that differ between the recordings, as they do between two runs) are
 * summed in one row per comm.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "cs-compare-table.h"
#include "cs-format.h"

static const char * const wakeup_names[] = { "count", "min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns" };

static void
clear_task (gpointer data)
{
  g_free (((CsCompareTask *) data)->comm);
}

static void
clear_type (gpointer data)
{
  CsCompareType *t = data;

  g_free (t->system);
  g_free (t->name);
}

static void
side_init (CsCompareSide      *side,
           CsDocument         *doc,
           const CsRangeStats *st)
{
  side->name = g_path_get_basename (cs_document_get_trace_path (doc));
  side->begin_ns = st->begin_ns;
  side->end_ns = st->end_ns;
  side->whole = st->whole;
}

/* comm → GArray of CsTaskTime, the tasks of one recording. */
static GHashTable *
tasks_by_comm (CsDocument         *doc,
               const CsRangeStats *st)
{
  GHashTable *by_comm = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < st->tasks->len; i++)
    {
      const CsTaskTime *t = &g_array_index (st->tasks, CsTaskTime, i);
      const char *comm = cs_document_get_comm (doc, t->pid);
      GArray *group = g_hash_table_lookup (by_comm, comm);

      if (group == NULL)
        {
          group = g_array_new (FALSE, FALSE, sizeof (CsTaskTime));
          g_hash_table_insert (by_comm, g_strdup (comm), group);
        }
      g_array_append_val (group, *t);
    }
  return by_comm;
}

static const CsTaskTime *
find_pid (GArray *group,
          gint32  pid)
{
  for (guint i = 0; group != NULL && i < group->len; i++)
    if (g_array_index (group, CsTaskTime, i).pid == pid)
      return &g_array_index (group, CsTaskTime, i);
  return NULL;
}

/* The rows of one comm: its pids in both, then the rest summed. */
static void
add_comm_rows (GArray     *rows,
               const char *comm,
               GArray     *group_a,
               GArray     *group_b)
{
  CsCompareTask rest = { NULL, -1, 0, 0, { 0, 0 }, { 0, 0 } };

  for (guint i = 0; group_a != NULL && i < group_a->len; i++)
    {
      const CsTaskTime *ta = &g_array_index (group_a, CsTaskTime, i);
      const CsTaskTime *tb = find_pid (group_b, ta->pid);

      if (tb != NULL)
        {
          CsCompareTask row = { g_strdup (comm), ta->pid, 1, 1, { ta->runtime_ns, tb->runtime_ns },
                                { ta->share, tb->share } };

          g_array_append_val (rows, row);
          continue;
        }
      rest.n_a++;
      rest.runtime_ns.a += ta->runtime_ns;
      rest.share.a += ta->share;
    }
  for (guint i = 0; group_b != NULL && i < group_b->len; i++)
    {
      const CsTaskTime *tb = &g_array_index (group_b, CsTaskTime, i);

      if (find_pid (group_a, tb->pid) != NULL)
        continue;
      rest.n_b++;
      rest.runtime_ns.b += tb->runtime_ns;
      rest.share.b += tb->share;
    }
  if (rest.n_a + rest.n_b > 0)
    {
      rest.comm = g_strdup (comm);
      g_array_append_val (rows, rest);
    }
}

static int
compare_tasks (gconstpointer pa,
               gconstpointer pb)
{
  const CsCompareTask *a = pa, *b = pb;
  double ka = MAX (a->runtime_ns.a, a->runtime_ns.b);
  double kb = MAX (b->runtime_ns.a, b->runtime_ns.b);
  int by_comm;

  if (ka != kb)
    return ka > kb ? -1 : 1;
  by_comm = strcmp (a->comm, b->comm);
  if (by_comm != 0)
    return by_comm;
  return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static GArray *
match_tasks (CsDocument         *doc_a,
             const CsRangeStats *stats_a,
             CsDocument         *doc_b,
             const CsRangeStats *stats_b)
{
  g_autoptr(GHashTable) by_a = tasks_by_comm (doc_a, stats_a);
  g_autoptr(GHashTable) by_b = tasks_by_comm (doc_b, stats_b);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (CsCompareTask));
  GHashTableIter iter;
  gpointer comm, group;

  g_array_set_clear_func (rows, clear_task);
  g_hash_table_iter_init (&iter, by_a);
  while (g_hash_table_iter_next (&iter, &comm, &group))
    add_comm_rows (rows, comm, group, g_hash_table_lookup (by_b, comm));
  g_hash_table_iter_init (&iter, by_b);
  while (g_hash_table_iter_next (&iter, &comm, &group))
    if (!g_hash_table_contains (by_a, comm))
      add_comm_rows (rows, comm, NULL, group);
  g_array_sort (rows, compare_tasks);
  return rows;
}

static GArray *
match_cpus (const CsRangeStats *stats_a,
            const CsRangeStats *stats_b)
{
  guint n = MAX (stats_a->cpus->len, stats_b->cpus->len);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (CsCompareCpu), n);

  g_array_set_size (rows, n);
  for (guint i = 0; i < n; i++)
    g_array_index (rows, CsCompareCpu, i).cpu = i;
  for (guint i = 0; i < stats_a->cpus->len; i++)
    {
      const CsCpuBusy *c = &g_array_index (stats_a->cpus, CsCpuBusy, i);
      CsCompareCpu *row = &g_array_index (rows, CsCompareCpu, MIN (c->cpu, n - 1));

      row->busy_ns.a = c->busy_ns;
      row->n_events.a = c->n_events;
    }
  for (guint i = 0; i < stats_b->cpus->len; i++)
    {
      const CsCpuBusy *c = &g_array_index (stats_b->cpus, CsCpuBusy, i);
      CsCompareCpu *row = &g_array_index (rows, CsCompareCpu, MIN (c->cpu, n - 1));

      row->busy_ns.b = c->busy_ns;
      row->n_events.b = c->n_events;
    }
  return rows;
}

/* Adds the counts of one recording's types to rows, keyed "system:name". */
static void
add_types (GArray             *rows,
           GHashTable         *index,
           CsDocument         *doc,
           const CsRangeStats *st,
           gboolean            is_b)
{
  for (guint i = 0; i < st->event_types->len; i++)
    {
      const CsTypeCount *c = &g_array_index (st->event_types, CsTypeCount, i);
      const CsEventType *type = cs_document_get_event_type (doc, c->type_id);
      g_autofree char *key = g_strdup_printf ("%s:%s", type->system, type->name);
      gpointer found;
      CsCompareType *row;

      if (!g_hash_table_lookup_extended (index, key, NULL, &found))
        {
          CsCompareType added = { g_strdup (type->system), g_strdup (type->name), { 0, 0 } };

          found = GUINT_TO_POINTER (rows->len);
          g_array_append_val (rows, added);
          g_hash_table_insert (index, g_steal_pointer (&key), found);
        }
      row = &g_array_index (rows, CsCompareType, GPOINTER_TO_UINT (found));
      if (is_b)
        row->n_events.b += c->n_events;
      else
        row->n_events.a += c->n_events;
    }
}

static int
compare_types (gconstpointer pa,
               gconstpointer pb)
{
  const CsCompareType *a = pa, *b = pb;
  double ka = MAX (a->n_events.a, a->n_events.b);
  double kb = MAX (b->n_events.a, b->n_events.b);
  int by_system;

  if (ka != kb)
    return ka > kb ? -1 : 1;
  by_system = strcmp (a->system, b->system);
  return by_system != 0 ? by_system : strcmp (a->name, b->name);
}

static void
latency_figures (const CsLatencySummary *s,
                 double                  out[6])
{
  out[0] = s->count;
  out[1] = s->min_ns;
  out[2] = s->p50_ns;
  out[3] = s->p90_ns;
  out[4] = s->p99_ns;
  out[5] = s->max_ns;
}

/**
 * cs_compare_table_new:
 * @doc_a: recording A, the reference
 * @stats_a: statistics computed on @doc_a
 * @doc_b: recording B, compared with A
 * @stats_b: statistics computed on @doc_b
 *
 * Pairs the figures of both; a task, CPU or event type missing from one
 * recording counts 0 there.  The documents are only read (comms, event
 * type names), in the calling thread.
 *
 * Returns: (transfer full): the comparison, free with
 *   cs_compare_table_free()
 */
CsCompareTable *
cs_compare_table_new (CsDocument         *doc_a,
                      const CsRangeStats *stats_a,
                      CsDocument         *doc_b,
                      const CsRangeStats *stats_b)
{
  CsCompareTable *table = g_new0 (CsCompareTable, 1);
  g_autoptr(GHashTable) type_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  double wa[6], wb[6];

  side_init (&table->a, doc_a, stats_a);
  side_init (&table->b, doc_b, stats_b);
  table->n_events.a = stats_a->n_events;
  table->n_events.b = stats_b->n_events;
  table->tasks = match_tasks (doc_a, stats_a, doc_b, stats_b);
  table->cpus = match_cpus (stats_a, stats_b);
  table->event_types = g_array_new (FALSE, FALSE, sizeof (CsCompareType));
  g_array_set_clear_func (table->event_types, clear_type);
  add_types (table->event_types, type_index, doc_a, stats_a, FALSE);
  add_types (table->event_types, type_index, doc_b, stats_b, TRUE);
  g_array_sort (table->event_types, compare_types);
  latency_figures (&stats_a->wakeups, wa);
  latency_figures (&stats_b->wakeups, wb);
  for (guint i = 0; i < G_N_ELEMENTS (table->wakeups); i++)
    table->wakeups[i] = (CsComparePair) { wa[i], wb[i] };
  return table;
}

/**
 * cs_compare_table_free:
 * @table: (nullable): a comparison
 */
void
cs_compare_table_free (CsCompareTable *table)
{
  if (table == NULL)
    return;
  g_free (table->a.name);
  g_free (table->b.name);
  g_array_unref (table->tasks);
  g_array_unref (table->cpus);
  g_array_unref (table->event_types);
  g_free (table);
}

/* Text ------------------------------------------------------------------- */

typedef enum {
  UNIT_COUNT,
  UNIT_NS,
  UNIT_SHARE,
} Unit;

static char *
format_value (double value,
              Unit   unit,
              gboolean sign)
{
  const char *prefix = !sign ? "" : value > 0 ? "+" : value < 0 ? "−" : "±";
  g_autofree char *body = NULL;

  if (sign)
    value = ABS (value);
  switch (unit)
    {
    case UNIT_NS:
      body = cs_format_duration ((gint64) value);
      break;
    case UNIT_SHARE:
      body = g_strdup_printf ("%.2f%%", 100.0 * value);
      break;
    case UNIT_COUNT:
    default:
      body = cs_format_count ((guint64) value);
      break;
    }
  return g_strconcat (prefix, body, NULL);
}

static char *
format_change (const CsComparePair *p)
{
  if (p->a == 0)
    return g_strdup (p->b == 0 ? "" : _("new"));
  return g_strdup_printf ("%+.1f%%", 100.0 * (p->b - p->a) / p->a);
}

/* A printf width for @s that pads to @width characters, not bytes. */
static int
char_width (const char *s,
            int         width)
{
  return width + (int) (strlen (s) - g_utf8_strlen (s, -1));
}

static void
append_row (GString             *out,
            int                  key_width,
            const char          *key,
            const CsComparePair *p,
            Unit                 unit)
{
  g_autofree char *a = format_value (p->a, unit, FALSE);
  g_autofree char *b = format_value (p->b, unit, FALSE);
  g_autofree char *diff = format_value (p->b - p->a, unit, TRUE);
  g_autofree char *change = format_change (p);

  g_string_append_printf (out, "  %-*s  %*s  %*s  %*s  %8s\n", char_width (key, key_width), key,
                          char_width (a, 12), a, char_width (b, 12), b, char_width (diff, 12), diff, change);
}

static void
append_header (GString    *out,
               const char *title,
               int         key_width,
               const char *key)
{
  const char *diff = _("B − A");

  g_string_append_printf (out, "\n%s\n", title);
  g_string_append_printf (out, "  %-*s  %12s  %12s  %*s  %8s\n", char_width (key, key_width), key, "A", "B",
                          char_width (diff, 12), diff, "%");
}

static char *
task_key (const CsCompareTask *t)
{
  if (t->pid >= 0)
    return g_strdup_printf ("%s (%d)", t->comm, t->pid);
  /* TRANSLATORS: a comm and how many tasks of it ran in A and in B */
  return g_strdup_printf (_("%s (%u+%u tasks)"), t->comm, t->n_a, t->n_b);
}

static void
append_side (GString             *out,
             const char          *label,
             const CsCompareSide *side)
{
  g_autofree char *span = cs_format_duration (side->end_ns - side->begin_ns);

  g_string_append_printf (out, _("%s: %s, span [%" PRId64 ", %" PRId64 ") ns, %s%s\n"),
                          label, side->name, side->begin_ns, side->end_ns, span,
                          side->whole ? _(" (the whole recording)") : "");
}

/**
 * cs_compare_table_to_text:
 * @table: a comparison
 * @top: how many task rows to list (those that ran longest in A or B)
 *
 * The comparison as `chronoscope stats A --compare B` prints it and the
 * comparison window shows it: the two spans, then one table each for the
 * events, tasks, CPUs, event types and wakeup latencies, with the columns
 * A, B, B − A and the change in percent of A ("new" when A is 0).
 * Durations are rounded to three significant digits; the JSON
 * (cs_compare_table_to_json()) has the exact figures.
 *
 * Returns: (transfer full): the text, lines ending in newlines
 */
char *
cs_compare_table_to_text (const CsCompareTable *table,
                          guint                 top)
{
  GString *out = g_string_new (NULL);
  int key_width = 24;
  guint n_tasks = MIN (top, table->tasks->len);

  append_side (out, "A", &table->a);
  append_side (out, "B", &table->b);
  for (guint i = 0; i < n_tasks; i++)
    {
      g_autofree char *key = task_key (&g_array_index (table->tasks, CsCompareTask, i));
      key_width = MAX (key_width, (int) g_utf8_strlen (key, -1));
    }
  for (guint i = 0; i < table->event_types->len; i++)
    {
      const CsCompareType *t = &g_array_index (table->event_types, CsCompareType, i);
      key_width = MAX (key_width, (int) (strlen (t->system) + 1 + strlen (t->name)));
    }

  append_header (out, _("Events:"), key_width, "");
  append_row (out, key_width, _("all events"), &table->n_events, UNIT_COUNT);

  append_header (out, _("Tasks by CPU time, matched by comm (and pid where the same):"), key_width,
                 _("COMM (PID)"));
  for (guint i = 0; i < n_tasks; i++)
    {
      const CsCompareTask *t = &g_array_index (table->tasks, CsCompareTask, i);
      g_autofree char *key = task_key (t);
      g_autofree char *share_key = g_strdup_printf ("  %s", _("share"));

      append_row (out, key_width, key, &t->runtime_ns, UNIT_NS);
      append_row (out, key_width, share_key, &t->share, UNIT_SHARE);
    }
  if (table->tasks->len > n_tasks)
    g_string_append_printf (out, ngettext ("  … and %u more row\n", "  … and %u more rows\n",
                                           table->tasks->len - n_tasks),
                            table->tasks->len - n_tasks);

  append_header (out, _("CPUs, busy time and events:"), key_width, _("CPU"));
  for (guint i = 0; i < table->cpus->len; i++)
    {
      const CsCompareCpu *c = &g_array_index (table->cpus, CsCompareCpu, i);
      g_autofree char *busy = g_strdup_printf (_("%u busy"), c->cpu);
      g_autofree char *events = g_strdup_printf (_("%u events"), c->cpu);

      append_row (out, key_width, busy, &c->busy_ns, UNIT_NS);
      append_row (out, key_width, events, &c->n_events, UNIT_COUNT);
    }

  append_header (out, _("Events per type:"), key_width, _("TYPE"));
  for (guint i = 0; i < table->event_types->len; i++)
    {
      const CsCompareType *t = &g_array_index (table->event_types, CsCompareType, i);
      g_autofree char *key = g_strdup_printf ("%s:%s", t->system, t->name);

      append_row (out, key_width, key, &t->n_events, UNIT_COUNT);
    }

  append_header (out, _("Wakeup latency (sched_waking or sched_wakeup to sched_switch):"), key_width, "");
  for (guint i = 0; i < G_N_ELEMENTS (table->wakeups); i++)
    append_row (out, key_width, wakeup_names[i], &table->wakeups[i], i == 0 ? UNIT_COUNT : UNIT_NS);
  return g_string_free (out, FALSE);
}

/* JSON ------------------------------------------------------------------- */

static void
add_pair (JsonBuilder         *b,
          const char          *name,
          const CsComparePair *p,
          gboolean             integer)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "a");
  integer ? json_builder_add_int_value (b, (gint64) p->a) : json_builder_add_double_value (b, p->a);
  json_builder_set_member_name (b, "b");
  integer ? json_builder_add_int_value (b, (gint64) p->b) : json_builder_add_double_value (b, p->b);
  json_builder_set_member_name (b, "diff");
  integer ? json_builder_add_int_value (b, (gint64) p->b - (gint64) p->a)
          : json_builder_add_double_value (b, p->b - p->a);
  json_builder_set_member_name (b, "pct");
  if (p->a == 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, 100.0 * (p->b - p->a) / p->a);
  json_builder_end_object (b);
}

static void
add_side (JsonBuilder         *b,
          const char          *name,
          const CsCompareSide *side)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, side->name);
  json_builder_set_member_name (b, "begin_ns");
  json_builder_add_int_value (b, side->begin_ns);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, side->end_ns);
  json_builder_set_member_name (b, "whole");
  json_builder_add_boolean_value (b, side->whole);
  json_builder_end_object (b);
}

/**
 * cs_compare_table_to_json:
 * @table: a comparison
 *
 * The comparison as `chronoscope stats A --compare B --json` prints it:
 * an object with "a" and "b" (file, begin_ns, end_ns, whole), "n_events",
 * "tasks" (comm, pid or null for the summed row, n_a, n_b, runtime_ns,
 * share), "cpus" (cpu, busy_ns, n_events), "event_types" (system, name,
 * n_events) and "wakeup_latency" (count, min_ns, p50_ns, p90_ns, p99_ns,
 * max_ns); each figure is an object {a, b, diff: b - a, pct: 100 (b - a)
 * / a, null when a is 0}, integers except the shares.
 *
 * Returns: (transfer full): the JSON text
 */
char *
cs_compare_table_to_json (const CsCompareTable *table)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_side (b, "a", &table->a);
  add_side (b, "b", &table->b);
  add_pair (b, "n_events", &table->n_events, TRUE);

  json_builder_set_member_name (b, "tasks");
  json_builder_begin_array (b);
  for (guint i = 0; i < table->tasks->len; i++)
    {
      const CsCompareTask *t = &g_array_index (table->tasks, CsCompareTask, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "comm");
      json_builder_add_string_value (b, t->comm);
      json_builder_set_member_name (b, "pid");
      if (t->pid >= 0)
        json_builder_add_int_value (b, t->pid);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "n_a");
      json_builder_add_int_value (b, t->n_a);
      json_builder_set_member_name (b, "n_b");
      json_builder_add_int_value (b, t->n_b);
      add_pair (b, "runtime_ns", &t->runtime_ns, TRUE);
      add_pair (b, "share", &t->share, FALSE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "cpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < table->cpus->len; i++)
    {
      const CsCompareCpu *c = &g_array_index (table->cpus, CsCompareCpu, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "cpu");
      json_builder_add_int_value (b, c->cpu);
      add_pair (b, "busy_ns", &c->busy_ns, TRUE);
      add_pair (b, "n_events", &c->n_events, TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "event_types");
  json_builder_begin_array (b);
  for (guint i = 0; i < table->event_types->len; i++)
    {
      const CsCompareType *t = &g_array_index (table->event_types, CsCompareType, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "system");
      json_builder_add_string_value (b, t->system);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, t->name);
      add_pair (b, "n_events", &t->n_events, TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "wakeup_latency");
  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (table->wakeups); i++)
    add_pair (b, wakeup_names[i], &table->wakeups[i], TRUE);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return cs_format_json (b);
}
