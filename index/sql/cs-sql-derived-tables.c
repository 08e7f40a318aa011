/* cs-sql-derived-tables.c: tables of what the index derives: cpus, tasks,
 * sched_slices, task_states and wakeups.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One module serves them all.  A table is a list of columns and a fill
 * function that appends the rows of one "unit" (a CPU time window, a task)
 * to a batch; the cursor walks the units the pushed-down bounds allow, one
 * batch in memory at a time:
 *
 *   cpus, tasks     one unit, the document's small tables
 *   sched_slices    per CPU, windows of the time range sized so that a
 *                   window holds about 64 Ki events: a slice is listed in
 *                   the window where it begins (the first window also
 *                   lists the slices running when the range begins)
 *   task_states     per task: cs_document_get_task_intervals() over the
 *   wakeups         range (these read only that task's index rows)
 *
 * Every value is a 64-bit integer in the batch; a column's kind says how
 * it is shown: as is, as the comm of the pid it holds, as a task state, as
 * a prev_state name, or as NULL when negative.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cs-sql-private.h"
#include "cs-range-stats.h"
#include "cs-task-timeline.h"

typedef enum {
  KIND_INT,
  KIND_INT_OR_NULL,     /* negative -> NULL */
  KIND_COMM,            /* a pid, shown as its comm */
  KIND_TASK_STATE,      /* a CsTaskState */
  KIND_PREV_STATE,      /* sched_switch prev_state bits, as text */
  KIND_INT_OR_MIN,      /* G_MININT64 -> NULL (negative values are values) */
  KIND_DOC_STRING,      /* a string owned by the document, as its address; 0 -> NULL */
} ColumnKind;

typedef struct {
  const char *name;
  const char *sql_type;
  ColumnKind kind;
} Column;

typedef struct _DerivedTable DerivedTable;
typedef gboolean (*FillFunc) (const DerivedTable *table, CsDocument *doc, guint unit,
                              const CsSqlBounds *bounds, GArray *rows, GError **error);
typedef guint (*UnitsFunc) (CsDocument *doc, const CsSqlBounds *bounds);

struct _DerivedTable {
  const char *name;
  const Column *columns;
  guint n_columns;
  CsSqlPushdown pushdown;
  UnitsFunc n_units;
  FillFunc fill;
};

typedef struct {
  CsSqlTable base;
  const DerivedTable *table;
} DerivedAux;

typedef struct {
  sqlite3_vtab_cursor base;
  DerivedAux *aux;
  CsSqlBounds bounds;
  guint unit, n_units;
  GArray *rows;                 /* gint64, n_columns per row */
  guint pos;                    /* current row in @rows */
  gboolean eof;
  sqlite3_int64 rowid;
} DerivedCursor;

static void
append_row (GArray       *rows,
            const gint64 *values,
            guint         n)
{
  g_array_append_vals (rows, values, n);
}

/* The time range the bounds leave of the recording: [*lo, *hi). */
static gboolean
clip_range (CsDocument        *doc,
            const CsSqlBounds *b,
            gint64            *lo,
            gint64            *hi)
{
  *lo = MAX (b->begin_ns, cs_document_get_first_ns (doc));
  *hi = MIN (b->end_ns, cs_document_get_last_ns (doc) == G_MAXINT64
                        ? G_MAXINT64 : cs_document_get_last_ns (doc) + 1);
  return *lo < *hi;
}

/* ---- cpus ----------------------------------------------------------------- */

static const Column cpus_columns[] = {
  { "cpu", "INTEGER", KIND_INT },
  { "n_events", "INTEGER", KIND_INT },
  { "first_ts", "INTEGER", KIND_INT },
  { "last_ts", "INTEGER", KIND_INT },
  { "missed_events", "INTEGER", KIND_INT },
  { "has_sched_switch", "INTEGER", KIND_INT },
};

static guint
one_unit (CsDocument        *doc,
          const CsSqlBounds *bounds)
{
  return 1;
}

static gboolean
fill_cpus (const DerivedTable *table,
           CsDocument         *doc,
           guint               unit,
           const CsSqlBounds  *b,
           GArray             *rows,
           GError            **error)
{
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      const CsCpuInfo *c = cs_document_get_cpu (doc, cpu);
      gint64 v[] = { cpu, (gint64) c->n_events, c->first_ns, c->last_ns,
                     (gint64) c->missed_events, c->has_sched_switch };

      if (b->cpu < 0 || b->cpu == cpu)
        append_row (rows, v, G_N_ELEMENTS (v));
    }
  return TRUE;
}

/* ---- tasks ---------------------------------------------------------------- */

static const Column tasks_columns[] = {
  { "pid", "INTEGER", KIND_INT },
  { "comm", "TEXT", KIND_COMM },
  { "n_events", "INTEGER", KIND_INT },
  { "runtime_ns", "INTEGER", KIND_INT },
};

static gboolean
fill_tasks (const DerivedTable *table,
            CsDocument         *doc,
            guint               unit,
            const CsSqlBounds  *b,
            GArray             *rows,
            GError            **error)
{
  for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
    {
      const CsTask *t = cs_document_get_task (doc, i);
      gint64 v[] = { t->pid, t->pid, (gint64) t->n_events, t->runtime_ns };

      if (b->pid < 0 || b->pid == t->pid)
        append_row (rows, v, G_N_ELEMENTS (v));
    }
  return TRUE;
}

/* ---- sched_slices --------------------------------------------------------- */

static const Column slices_columns[] = {
  { "ts", "INTEGER", KIND_INT },
  { "end_ts", "INTEGER", KIND_INT },
  { "dur", "INTEGER", KIND_INT },
  { "cpu", "INTEGER", KIND_INT },
  { "pid", "INTEGER", KIND_INT },
  { "comm", "TEXT", KIND_COMM },
  { "prev_state", "INTEGER", KIND_INT_OR_NULL },
  { "end_state", "TEXT", KIND_PREV_STATE },
  /* CsSlice.flags (cs-document.h): 1 when the slice's sched_switch events
   * and those since the CPU's slice before are all present (none lost). */
  { "switched", "INTEGER", KIND_INT },
  /* 1 when the switch that began it had the next_comm and next_prio of
   * the one that began the task's switched slice before on this CPU. */
  { "same_task", "INTEGER", KIND_INT },
  /* The next_comm and next_prio of the sched_switch that began it (the
   * task's comm then, where `comm` is its last); NULL when no recorded
   * switch to the task began it. */
  { "next_comm", "TEXT", KIND_DOC_STRING },
  { "next_prio", "INTEGER", KIND_INT_OR_MIN },
};

/* Windows per CPU: about 64 Ki events each over the whole recording. */
static guint
slice_windows (CsDocument *doc)
{
  guint64 per_cpu = cs_document_get_n_events (doc) / MAX (cs_document_get_n_cpus (doc), 1);

  return (guint) CLAMP (per_cpu / 65536, 1, 65536);
}

static guint
slice_units (CsDocument        *doc,
             const CsSqlBounds *b)
{
  gint64 lo, hi;

  if (!clip_range (doc, b, &lo, &hi))
    return 0;
  return cs_document_get_n_cpus (doc) * slice_windows (doc);
}

static gint64
window_edge (gint64 lo,
             gint64 hi,
             guint  w,
             guint  n_windows)
{
  return lo + (gint64) ((__int128) (hi - lo) * w / n_windows);
}

static gboolean
fill_slices (const DerivedTable *table,
             CsDocument         *doc,
             guint               unit,
             const CsSqlBounds  *b,
             GArray             *rows,
             GError            **error)
{
  guint n_windows = slice_windows (doc);
  guint cpu = unit / n_windows, w = unit % n_windows;
  g_autoptr(GArray) slices = NULL;
  gint64 lo, hi, w0, w1;

  if ((b->cpu >= 0 && b->cpu != cpu) || !clip_range (doc, b, &lo, &hi))
    return TRUE;
  if (!cs_document_get_cpu (doc, cpu)->has_sched_switch)
    return TRUE;
  w0 = window_edge (lo, hi, w, n_windows);
  w1 = window_edge (lo, hi, w + 1, n_windows);
  if (w0 >= w1)
    return TRUE;
  slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
  if (!cs_document_get_slices (doc, cpu, w0, w1, slices, error))
    return FALSE;
  for (guint i = 0; i < slices->len; i++)
    {
      const CsSlice *s = &g_array_index (slices, CsSlice, i);
      gint64 v[] = { s->begin_ns, s->end_ns, s->end_ns - s->begin_ns, cpu, s->pid, s->pid,
                     s->prev_state, s->prev_state, (s->flags & CS_SLICE_SWITCHED) != 0,
                     (s->flags & CS_SLICE_SAME_TASK) != 0, (gint64) (gintptr) s->next_comm,
                     s->next_comm != NULL ? s->next_prio : G_MININT64 };

      if ((w > 0 && s->begin_ns < w0) || (b->pid >= 0 && s->pid != b->pid))
        continue;
      append_row (rows, v, G_N_ELEMENTS (v));
    }
  return TRUE;
}

/* ---- task_states and wakeups ---------------------------------------------- */

static const Column states_columns[] = {
  { "ts", "INTEGER", KIND_INT },
  { "end_ts", "INTEGER", KIND_INT },
  { "dur", "INTEGER", KIND_INT },
  { "pid", "INTEGER", KIND_INT },
  { "comm", "TEXT", KIND_COMM },
  { "state", "TEXT", KIND_TASK_STATE },
  { "cpu", "INTEGER", KIND_INT_OR_NULL },
  { "wakeup_ts", "INTEGER", KIND_INT_OR_NULL },
};

static const Column wakeups_columns[] = {
  { "ts", "INTEGER", KIND_INT },
  { "run_ts", "INTEGER", KIND_INT },
  { "latency_ns", "INTEGER", KIND_INT },
  { "pid", "INTEGER", KIND_INT },
  { "comm", "TEXT", KIND_COMM },
  { "cpu", "INTEGER", KIND_INT_OR_NULL },
};

static guint
task_units (CsDocument        *doc,
            const CsSqlBounds *b)
{
  return cs_document_get_n_tasks (doc);
}

/* The intervals of task @unit overlapping the bounds, or NULL when the
 * bounds exclude the task (an empty array) or on error. */
static GArray *
task_intervals (CsDocument         *doc,
                guint               unit,
                const CsSqlBounds  *b,
                GError            **error)
{
  const CsTask *t = cs_document_get_task (doc, unit);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  gint64 lo, hi;

  if ((b->pid >= 0 && b->pid != t->pid) || t->pid <= 0 || !clip_range (doc, b, &lo, &hi))
    return g_steal_pointer (&out);
  if (!cs_document_get_task_intervals (doc, t->pid, lo, hi, out, error))
    return NULL;
  return g_steal_pointer (&out);
}

static gboolean
fill_states (const DerivedTable *table,
             CsDocument         *doc,
             guint               unit,
             const CsSqlBounds  *b,
             GArray             *rows,
             GError            **error)
{
  g_autoptr(GArray) iv = task_intervals (doc, unit, b, error);
  gint32 pid = cs_document_get_task (doc, unit)->pid;

  if (iv == NULL)
    return FALSE;
  for (guint i = 0; i < iv->len; i++)
    {
      const CsTaskInterval *t = &g_array_index (iv, CsTaskInterval, i);
      gint64 v[] = { t->begin_ns, t->end_ns, t->end_ns - t->begin_ns, pid, pid, t->state,
                     t->cpu, t->wakeup_ns };

      if (b->cpu < 0 || b->cpu == t->cpu)
        append_row (rows, v, G_N_ELEMENTS (v));
    }
  return TRUE;
}

typedef struct {
  GArray *rows;
  gint32 pid;
  gint64 cpu;           /* -1: any */
} WakeupRows;

static void
add_wakeup_row (gint64   wakeup_ns,
                gint64   run_ns,
                gint32   cpu,
                gpointer user_data)
{
  WakeupRows *w = user_data;
  gint64 v[] = { wakeup_ns, run_ns, run_ns - wakeup_ns, w->pid, w->pid, cpu };

  if (w->cpu < 0 || w->cpu == cpu)
    append_row (w->rows, v, G_N_ELEMENTS (v));
}

/* The wakeups of cs_document_foreach_wakeup(). */
static gboolean
fill_wakeups (const DerivedTable *table,
              CsDocument         *doc,
              guint               unit,
              const CsSqlBounds  *b,
              GArray             *rows,
              GError            **error)
{
  WakeupRows w = { rows, cs_document_get_task (doc, unit)->pid, b->cpu };
  gint64 lo, hi;

  if ((b->pid >= 0 && b->pid != w.pid) || !clip_range (doc, b, &lo, &hi))
    return TRUE;
  return cs_document_foreach_wakeup (doc, w.pid, lo, hi, add_wakeup_row, &w, error);
}

static const DerivedTable derived_tables[] = {
  { "cpus", cpus_columns, G_N_ELEMENTS (cpus_columns), { -1, 0, -1 }, one_unit, fill_cpus },
  { "tasks", tasks_columns, G_N_ELEMENTS (tasks_columns), { -1, -1, 0 }, one_unit, fill_tasks },
  { "sched_slices", slices_columns, G_N_ELEMENTS (slices_columns), { 0, 3, 4 },
    slice_units, fill_slices },
  { "task_states", states_columns, G_N_ELEMENTS (states_columns), { 0, -1, 3 },
    task_units, fill_states },
  { "wakeups", wakeups_columns, G_N_ELEMENTS (wakeups_columns), { 0, -1, 3 },
    task_units, fill_wakeups },
};

/* ---- The module ----------------------------------------------------------- */

static void
derived_aux_free (gpointer data)
{
  DerivedAux *aux = data;

  g_free (aux->base.schema);
  g_free (aux);
}

static int
derived_best_index (sqlite3_vtab       *vtab,
                    sqlite3_index_info *info)
{
  DerivedAux *a = (DerivedAux *) ((CsSqlVtab *) vtab)->table;
  CsDocument *doc = a->base.ctx->document;
  double rows = a->table->n_units == one_unit ? 100.0
                                              : (double) cs_document_get_n_events (doc) / 4.0;

  return _cs_sql_best_index (&a->table->pushdown, info, rows);
}

static int
derived_open (sqlite3_vtab         *vtab,
              sqlite3_vtab_cursor **out)
{
  DerivedCursor *cur = g_new0 (DerivedCursor, 1);

  cur->aux = (DerivedAux *) ((CsSqlVtab *) vtab)->table;
  cur->rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  cur->eof = TRUE;
  *out = &cur->base;
  return SQLITE_OK;
}

static int
derived_close (sqlite3_vtab_cursor *cursor)
{
  DerivedCursor *cur = (DerivedCursor *) cursor;

  g_array_unref (cur->rows);
  g_free (cur);
  return SQLITE_OK;
}

/* Moves to row cur->pos, filling batches from the next units as needed. */
static int
settle (DerivedCursor *cur)
{
  const DerivedTable *table = cur->aux->table;
  CsDocument *doc = cur->aux->base.ctx->document;

  while (cur->pos * table->n_columns >= cur->rows->len)
    {
      GError *error = NULL;

      if (cur->unit >= cur->n_units)
        {
          cur->eof = TRUE;
          return SQLITE_OK;
        }
      g_array_set_size (cur->rows, 0);
      cur->pos = 0;
      if (!table->fill (table, doc, cur->unit++, &cur->bounds, cur->rows, &error))
        return _cs_sql_vtab_fail (&cur->base, error);
    }
  return SQLITE_OK;
}

static int
derived_filter (sqlite3_vtab_cursor  *cursor,
                int                   idx_num,
                const char           *idx_str,
                int                   argc,
                sqlite3_value       **argv)
{
  DerivedCursor *cur = (DerivedCursor *) cursor;

  _cs_sql_bounds_decode (&cur->bounds, idx_num, argc, argv);
  g_array_set_size (cur->rows, 0);
  cur->pos = 0;
  cur->unit = 0;
  cur->rowid = 0;
  cur->eof = cur->bounds.empty;
  cur->n_units = cur->eof ? 0 : cur->aux->table->n_units (cur->aux->base.ctx->document, &cur->bounds);
  return cur->eof ? SQLITE_OK : settle (cur);
}

static int
derived_next (sqlite3_vtab_cursor *cursor)
{
  DerivedCursor *cur = (DerivedCursor *) cursor;

  cur->pos++;
  cur->rowid++;
  return settle (cur);
}

static int
derived_eof (sqlite3_vtab_cursor *cursor)
{
  return ((DerivedCursor *) cursor)->eof;
}

static int
derived_rowid (sqlite3_vtab_cursor *cursor,
               sqlite3_int64       *rowid)
{
  *rowid = ((DerivedCursor *) cursor)->rowid;
  return SQLITE_OK;
}

static const char * const task_state_names[] = {
  [CS_TASK_RUNNING] = "running",
  [CS_TASK_RUNNABLE] = "runnable",
  [CS_TASK_SLEEPING] = "sleeping",
  [CS_TASK_UNINTERRUPTIBLE] = "uninterruptible",
  [CS_TASK_OTHER] = "other",
};

static int
derived_column (sqlite3_vtab_cursor *cursor,
                sqlite3_context     *context,
                int                  column)
{
  DerivedCursor *cur = (DerivedCursor *) cursor;
  const DerivedTable *table = cur->aux->table;
  gint64 v;
  const char *text;

  if (column < 0 || (guint) column >= table->n_columns)
    {
      sqlite3_result_null (context);
      return SQLITE_OK;
    }
  v = g_array_index (cur->rows, gint64, cur->pos * table->n_columns + column);
  switch (table->columns[column].kind)
    {
    case KIND_INT:
      sqlite3_result_int64 (context, v);
      break;
    case KIND_INT_OR_NULL:
      if (v < 0)
        sqlite3_result_null (context);
      else
        sqlite3_result_int64 (context, v);
      break;
    case KIND_COMM:
      sqlite3_result_text (context, cs_document_get_comm (cur->aux->base.ctx->document, (gint32) v), -1,
                           SQLITE_TRANSIENT);
      break;
    case KIND_TASK_STATE:
      text = v >= 0 && v < (gint64) G_N_ELEMENTS (task_state_names) ? task_state_names[v] : NULL;
      sqlite3_result_text (context, text ? text : "other", -1, SQLITE_STATIC);
      break;
    case KIND_PREV_STATE:
      text = _cs_sql_prev_state_name (v);
      if (text == NULL)
        sqlite3_result_null (context);
      else
        sqlite3_result_text (context, text, -1, SQLITE_STATIC);
      break;
    case KIND_INT_OR_MIN:
      if (v == G_MININT64)
        sqlite3_result_null (context);
      else
        sqlite3_result_int64 (context, v);
      break;
    case KIND_DOC_STRING:
      if (v == 0)
        sqlite3_result_null (context);
      else
        sqlite3_result_text (context, (const char *) (gintptr) v, -1, SQLITE_TRANSIENT);
      break;
    }
  return SQLITE_OK;
}

static const sqlite3_module derived_module = {
  .iVersion = 1,
  .xCreate = NULL,              /* eponymous only */
  .xConnect = _cs_sql_vtab_connect,
  .xBestIndex = derived_best_index,
  .xDisconnect = _cs_sql_vtab_disconnect,
  .xDestroy = _cs_sql_vtab_disconnect,
  .xOpen = derived_open,
  .xClose = derived_close,
  .xFilter = derived_filter,
  .xNext = derived_next,
  .xEof = derived_eof,
  .xColumn = derived_column,
  .xRowid = derived_rowid,
};

gboolean
_cs_sql_register_derived_tables (sqlite3       *db,
                                 CsSqlContext  *ctx,
                                 const char    *prefix,
                                 GPtrArray     *tables,
                                 GError       **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (derived_tables); i++)
    {
      const DerivedTable *t = &derived_tables[i];
      DerivedAux *aux = g_new0 (DerivedAux, 1);
      GString *schema = g_string_new ("CREATE TABLE x(");
      g_autofree char *module = NULL;

      for (guint c = 0; c < t->n_columns; c++)
        g_string_append_printf (schema, "%s%s %s", c ? ", " : "", t->columns[c].name,
                                t->columns[c].sql_type);
      g_string_append (schema, ")");
      aux->table = t;
      aux->base.ctx = ctx;
      aux->base.schema = g_string_free (schema, FALSE);
      g_ptr_array_add (tables, g_strdup (t->name));
      g_ptr_array_add (tables, g_strdup (aux->base.schema));
      module = g_strconcat (prefix != NULL ? prefix : "", t->name, NULL);
      if (sqlite3_create_module_v2 (db, module, &derived_module, aux, derived_aux_free) != SQLITE_OK)
        {
          g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the table %s: %s"),
                       t->name, sqlite3_errmsg (db));
          return FALSE;
        }
    }
  return TRUE;
}
