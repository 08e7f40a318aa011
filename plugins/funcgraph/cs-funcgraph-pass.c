/* cs-funcgraph-pass.c: the function_graph pass, every call of every task.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over ftrace:funcgraph_entry,
 * ftrace:funcgraph_exit and ftrace:function, in time order.  Each
 * funcgraph_exit is one call: its duration is the event's rettime −
 * calltime (as `trace-cmd report` prints it); it began at the matching
 * funcgraph_entry (same task, depth and function) when the recording has
 * it, else at the exit's time minus the duration.  Self time is the
 * duration minus the durations of the calls one level deeper that
 * returned inside it.  Memory is per task, never per call: one stack of
 * open entries (entry time, function, children's time) by depth for each
 * pid (the idle task, pid 0, has one per CPU), and one entry per distinct
 * function; each call is appended to a result table of the plugin API
 * (cs-plugin-result.h) as it returns, which stores the calls in chunks
 * and sorts them in bounded memory into the orders the readers need.
 * Functions are told apart by their start address in the recording's
 * kallsyms (two static functions may share a name).  ftrace:function
 * events (the function tracer) have no duration: they are stored as
 * instants, in a second result table.
 *
 * Tables (read by cs-funcgraph-reader.c and cs-funcgraph-query.c):
 *   func    (id, addr: its start, name, n_calls, n_hits, total_ns,
 *            self_ns, max_ns):
 *           one row per function, with its figures over the recording
 *   call_rows (pid, depth, begin_ns, end_ns, self_ns, func, cpu): the
 *           result table's rows, one per call in the order they returned
 *           (rowid 1, 2, …), and the view call with the same columns
 *   call_flame (begin_ns, end_ns, func, row), call_flame_span (key, lo,
 *           hi): the calls by task and depth (key: pid << 16 | depth),
 *           then time: a flame row's band
 *   call_worst (begin_ns, row), call_worst_span (func, lo, hi): the
 *           calls by function, longest first (then earliest)
 *   call_time (begin_ns, end_ns, self_ns, func): every call by its
 *           beginning, for the table of a range
 *   instant_rows (ts_ns, pid, func, parent, cpu): one per function
 *           event, in time order (ts_ns is its sorted column), and the
 *           view instant (pid, ts_ns, func, parent, cpu)
 *   instant_task (ts_ns, row), instant_task_span (pid, lo, hi): the
 *           function events by task, then time: a flame row's ticks
 *   band    (pid, depth, n_calls, max_ns): per task and depth, for the
 *           flame row's time-range queries
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

/* An open call of one task. */
typedef struct {
  gint64 begin_ns;
  gint64 func_addr;
  gint64 child_ns;
  gboolean open;
} Frame;

typedef struct {
  gint64 id;
  gint64 addr;
  gint64 n_calls, n_hits, total_ns, self_ns, max_ns;
  char *name;
} Func;

typedef struct {
  gint64 n_calls;
  gint64 max_ns;
} Band;

typedef struct {
  CsPluginPass *pass;
  CsPluginDocument *document;
  sqlite3 *db;
  CsPluginResultTable *calls;
  CsPluginResultTable *instants;
  GHashTable *stacks;     /* pid -> GArray of Frame, by depth */
  GHashTable *by_addr;    /* gint64 address -> Func (borrowed) */
  GHashTable *by_start;   /* gint64 function start -> Func (owned) */
  GHashTable *bands;      /* (pid << 16 | depth) -> Band */
  gint64 next_id;
  gint64 n_function_events;     /* in the recording, from the index */
} FuncgraphPass;

static const char *const funcgraph_events[] = {
  "ftrace:funcgraph_entry", "ftrace:funcgraph_exit", "ftrace:function", NULL,
};

static gboolean
exec_sql (sqlite3     *db,
          const char  *sql,
          GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               "function_graph pass: %s", message != NULL ? message : sqlite3_errmsg (db));
  sqlite3_free (message);
  return FALSE;
}

static gboolean
sql_failed (sqlite3  *db,
            GError  **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               "function_graph pass: %s", sqlite3_errmsg (db));
  return FALSE;
}

static void
func_free (gpointer data)
{
  Func *f = data;

  g_free (f->name);
  g_free (f);
}

static void
funcgraph_pass_free (gpointer state)
{
  FuncgraphPass *fp = state;

  if (fp == NULL)
    return;
  g_clear_pointer (&fp->calls, cs_plugin_result_table_free);
  g_clear_pointer (&fp->instants, cs_plugin_result_table_free);
  g_hash_table_unref (fp->stacks);
  g_hash_table_unref (fp->by_addr);
  g_hash_table_unref (fp->by_start);
  g_hash_table_unref (fp->bands);
  g_free (fp);
}

/* The orders' records, from a row of call_rows (CS_FUNCGRAPH_CALL_*). */
enum { FLAME_KEY, FLAME_BEGIN, FLAME_END, FLAME_FUNC, FLAME_ROW, N_FLAME };
enum { WORST_FUNC, WORST_DUR, WORST_BEGIN, WORST_ROW, N_WORST };
enum { TIME_BEGIN, TIME_END, TIME_SELF, TIME_FUNC, N_TIME };
enum { TASK_PID, TASK_TS, TASK_ROW, N_TASK };

static void
flame_record (const gint64 *row,
              gint64        position,
              gint64       *record,
              gpointer      user_data)
{
  record[FLAME_KEY] = CS_FUNCGRAPH_BAND_KEY (row[CS_FUNCGRAPH_CALL_PID], row[CS_FUNCGRAPH_CALL_DEPTH]);
  record[FLAME_BEGIN] = row[CS_FUNCGRAPH_CALL_BEGIN];
  record[FLAME_END] = row[CS_FUNCGRAPH_CALL_END];
  record[FLAME_FUNC] = row[CS_FUNCGRAPH_CALL_FUNC];
  record[FLAME_ROW] = position + 1;
}

static void
worst_record (const gint64 *row,
              gint64        position,
              gint64       *record,
              gpointer      user_data)
{
  record[WORST_FUNC] = row[CS_FUNCGRAPH_CALL_FUNC];
  record[WORST_DUR] = row[CS_FUNCGRAPH_CALL_END] - row[CS_FUNCGRAPH_CALL_BEGIN];
  record[WORST_BEGIN] = row[CS_FUNCGRAPH_CALL_BEGIN];
  record[WORST_ROW] = position + 1;
}

static void
time_record (const gint64 *row,
             gint64        position,
             gint64       *record,
             gpointer      user_data)
{
  record[TIME_BEGIN] = row[CS_FUNCGRAPH_CALL_BEGIN];
  record[TIME_END] = row[CS_FUNCGRAPH_CALL_END];
  record[TIME_SELF] = row[CS_FUNCGRAPH_CALL_SELF];
  record[TIME_FUNC] = row[CS_FUNCGRAPH_CALL_FUNC];
}

static void
task_record (const gint64 *row,
             gint64        position,
             gint64       *record,
             gpointer      user_data)
{
  record[TASK_PID] = row[CS_FUNCGRAPH_INSTANT_PID];
  record[TASK_TS] = row[CS_FUNCGRAPH_INSTANT_TS];
  record[TASK_ROW] = position + 1;
}

/* Records of an order sorted in memory before a run spills, for
 * @n_calls calls.  A sorter holds three runs while it fills, then one run
 * and a block of 4096 records for each run spilled while it merges: runs
 * of √(2048 × n) records make the two peaks equal, and memory grow as the
 * square root of the calls (3.5 M calls: runs of 93 K records, 3.7 MiB
 * for the widest order's). */
static gsize
run_records (gint64 n_calls)
{
  guint64 r = 4096;

  /* Within a quarter above the root, without libm. */
  while (r < 524288 && r * r < 2048 * (guint64) MAX (n_calls, 1))
    r += r / 4;
  return (gsize) MIN (r, 524288);
}

/* The result table of the calls, and its view `call` (the table's
 * columns under the name they had when calls were SQLite rows). */
static CsPluginResultTable *
calls_table_new (FuncgraphPass  *fp,
                 GError        **error)
{
  static const char * const columns[] = {
    "pid", "depth", "begin_ns", "end_ns", "self_ns", "func", "cpu", NULL,
  };
  static const char * const flame_stored[] = { "begin_ns", "end_ns", "func", "row", NULL };
  static const guint flame_fields[] = { FLAME_BEGIN, FLAME_END, FLAME_FUNC, FLAME_ROW };
  static const char * const worst_stored[] = { "begin_ns", "row", NULL };
  static const guint worst_fields[] = { WORST_BEGIN, WORST_ROW };
  static const char * const time_stored[] = { "begin_ns", "end_ns", "self_ns", "func", NULL };
  static const guint time_fields[] = { TIME_BEGIN, TIME_END, TIME_SELF, TIME_FUNC };
  const CsPluginResultOrder orders[] = {
    { .name = CS_FUNCGRAPH_ORDER_FLAME, .n_fields = N_FLAME, .n_radix_fields = 1,
      .stored = flame_stored, .stored_fields = flame_fields, .group_column = "key",
      .record_func = flame_record },
    { .name = CS_FUNCGRAPH_ORDER_WORST, .n_fields = N_WORST, .n_radix_fields = 2,
      .descending = 1 << WORST_DUR, .stored = worst_stored, .stored_fields = worst_fields,
      .group_column = "func", .record_func = worst_record },
    { .name = CS_FUNCGRAPH_ORDER_TIME, .n_fields = N_TIME, .stored = time_stored,
      .stored_fields = time_fields, .record_func = time_record },
  };
  /* Both tables write through the pass's connection: when the recording
   * has function events, the instants' table is written as they come,
   * and the calls' table in the pass's thread too. */
  const CsPluginResultTableInfo info = {
    .module = CS_FUNCGRAPH_ROWS_MODULE,
    .name = "call",
    .columns = columns,
    .orders = orders,
    .n_orders = G_N_ELEMENTS (orders),
    .run_records = run_records (cs_plugin_document_count_events (fp->document, "ftrace",
                                                                 "funcgraph_exit")),
    .same_thread = fp->n_function_events > 0,
  };

  /* The view first: once the table is made, its threads may own @db. */
  if (!exec_sql (fp->db,
                 "CREATE VIEW call AS SELECT pid, depth, begin_ns, end_ns, self_ns, func, cpu "
                 "FROM call_rows;", error))
    return NULL;
  return cs_plugin_result_table_new (fp->db, &info, error);
}

/* The result table of the function events, and its view `instant` (the
 * columns and name of their SQLite table before).  Written in the pass's
 * thread (a recording with function events and calls writes both). */
static CsPluginResultTable *
instants_table_new (FuncgraphPass  *fp,
                    GError        **error)
{
  static const char * const columns[] = { "ts_ns", "pid", "func", "parent", "cpu", NULL };
  static const char * const task_stored[] = { "ts_ns", "row", NULL };
  static const guint task_fields[] = { TASK_TS, TASK_ROW };
  const CsPluginResultOrder orders[] = {
    { .name = CS_FUNCGRAPH_ORDER_TASK, .n_fields = N_TASK, .n_radix_fields = 1,
      .stored = task_stored, .stored_fields = task_fields, .group_column = "pid",
      .record_func = task_record },
  };
  const CsPluginResultTableInfo info = {
    .module = CS_FUNCGRAPH_ROWS_MODULE,
    .name = "instant",
    .columns = columns,
    .orders = orders,
    .n_orders = G_N_ELEMENTS (orders),
    .run_records = run_records (fp->n_function_events),
    .sorted_column = "ts_ns",
    .same_thread = TRUE,
  };

  if (!exec_sql (fp->db,
                 "CREATE VIEW instant AS SELECT pid, ts_ns, func, parent, cpu "
                 "FROM instant_rows;", error))
    return NULL;
  return cs_plugin_result_table_new (fp->db, &info, error);
}

/* The module of call_rows, on every connection to the pass's database. */
static gboolean
funcgraph_pass_prepare (sqlite3  *db,
                        GError  **error)
{
  return cs_plugin_result_register (db, CS_FUNCGRAPH_ROWS_MODULE, error);
}

static gpointer
funcgraph_pass_begin (CsPluginPass  *pass,
                      GError       **error)
{
  FuncgraphPass *fp = g_new0 (FuncgraphPass, 1);

  fp->pass = pass;
  fp->document = cs_plugin_pass_get_document (pass);
  fp->db = cs_plugin_pass_get_db (pass);
  fp->stacks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                      (GDestroyNotify) g_array_unref);
  fp->by_addr = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  fp->by_start = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, func_free);
  fp->bands = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  fp->next_id = 1;
  fp->n_function_events = cs_plugin_document_count_events (fp->document, "ftrace", "function");
  if (!exec_sql (fp->db,
                 "CREATE TABLE func (id INTEGER PRIMARY KEY, addr INTEGER NOT NULL, "
                 "  name TEXT NOT NULL, n_calls INTEGER, n_hits INTEGER, total_ns INTEGER, "
                 "  self_ns INTEGER, max_ns INTEGER);"
                 "CREATE TABLE band (pid INTEGER NOT NULL, depth INTEGER NOT NULL, "
                 "  n_calls INTEGER NOT NULL, max_ns INTEGER NOT NULL, PRIMARY KEY (pid, depth));",
                 error))
    goto fail;
  /* The calls' table last: from then on its threads may own the
   * connection (when the recording has no function events). */
  fp->instants = instants_table_new (fp, error);
  if (fp->instants == NULL)
    goto fail;
  fp->calls = calls_table_new (fp, error);
  if (fp->calls == NULL)
    goto fail;
  return fp;

fail:
  funcgraph_pass_free (fp);
  return NULL;
}

/* The function @addr lies in, from the recording's kallsyms: one Func per
 * function start (an address inside a function, as a parent_ip is, counts
 * for the function; an address kallsyms does not cover is its own). */
static Func *
func_for (FuncgraphPass       *fp,
          const CsPluginEvent *event,
          gint64               addr)
{
  Func *f = g_hash_table_lookup (fp->by_addr, &addr);
  guint64 start;
  const char *sym;

  if (f != NULL)
    return f;
  sym = cs_plugin_document_find_function (fp->document, (guint64) addr, &start);
  f = g_hash_table_lookup (fp->by_start, &start);
  if (f == NULL)
    {
      f = g_new0 (Func, 1);
      f->id = fp->next_id++;
      f->addr = (gint64) start;
      f->name = sym != NULL ? g_strdup (sym)
                            : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", addr);
      g_hash_table_insert (fp->by_start, g_memdup2 (&f->addr, sizeof f->addr), f);
    }
  g_hash_table_insert (fp->by_addr, g_memdup2 (&addr, sizeof addr), f);
  return f;
}

/* The open calls of @event's task.  The idle task (pid 0) runs on every
 * CPU at once: it has a stack per CPU. */
static GArray *
stack_for (FuncgraphPass       *fp,
           const CsPluginEvent *event)
{
  gint key = event->pid != 0 ? event->pid : -1 - (gint) event->cpu;
  GArray *stack = g_hash_table_lookup (fp->stacks, GINT_TO_POINTER (key));

  if (stack == NULL)
    {
      stack = g_array_new (FALSE, TRUE, sizeof (Frame));
      g_hash_table_insert (fp->stacks, GINT_TO_POINTER (key), stack);
    }
  return stack;
}

/* Depths beyond this are the kernel's limit many times over: a record
 * claiming more is damaged, and is not given a stack that deep. */
#define MAX_DEPTH 1024

static gboolean
on_funcgraph_entry (FuncgraphPass       *fp,
          const CsPluginEvent *event,
          GError             **error)
{
  gint64 func, depth;
  GArray *stack;
  Frame *frame;

  if (!cs_plugin_event_get_int (event, "func", &func) ||
      !cs_plugin_event_get_int (event, "depth", &depth) || depth < 0 || depth >= MAX_DEPTH)
    return TRUE;   /* a record too short for its format: no call */
  stack = stack_for (fp, event);
  g_array_set_size (stack, (guint) depth + 1);
  frame = &g_array_index (stack, Frame, depth);
  frame->begin_ns = event->ts_ns;
  frame->func_addr = func;
  frame->child_ns = 0;
  frame->open = TRUE;
  return TRUE;
}

static void
note_band (FuncgraphPass *fp,
           gint32         pid,
           gint64         depth,
           gint64         dur)
{
  gint64 key = ((gint64) pid << 16) | depth;
  Band *band = g_hash_table_lookup (fp->bands, &key);

  if (band == NULL)
    {
      band = g_new0 (Band, 1);
      g_hash_table_insert (fp->bands, g_memdup2 (&key, sizeof key), band);
    }
  band->n_calls++;
  band->max_ns = MAX (band->max_ns, dur);
}

static gboolean
on_funcgraph_exit (FuncgraphPass       *fp,
         const CsPluginEvent *event,
         GError             **error)
{
  gint64 func, depth, calltime, rettime, dur, begin, child = 0;
  GArray *stack;
  Func *f;

  if (!cs_plugin_event_get_int (event, "func", &func) ||
      !cs_plugin_event_get_int (event, "depth", &depth) || depth < 0 || depth >= MAX_DEPTH ||
      !cs_plugin_event_get_int (event, "calltime", &calltime) ||
      !cs_plugin_event_get_int (event, "rettime", &rettime) || rettime < calltime)
    return TRUE;
  dur = rettime - calltime;
  begin = event->ts_ns - dur;
  stack = stack_for (fp, event);
  if ((guint) depth < stack->len)
    {
      Frame *frame = &g_array_index (stack, Frame, depth);

      if (frame->open && frame->func_addr == func)
        begin = frame->begin_ns;
      child = frame->child_ns;
      g_array_set_size (stack, (guint) depth);
    }
  /* The parent's children's time, for its self time. */
  if (depth > 0)
    {
      if ((guint) depth > stack->len)
        g_array_set_size (stack, (guint) depth);
      g_array_index (stack, Frame, depth - 1).child_ns += dur;
    }
  f = func_for (fp, event, func);
  f->n_calls++;
  f->total_ns += dur;
  f->self_ns += MAX (dur - child, 0);
  f->max_ns = MAX (f->max_ns, dur);
  note_band (fp, event->pid, depth, dur);

  {
    gint64 row[CS_FUNCGRAPH_CALL_N] = {
      [CS_FUNCGRAPH_CALL_PID] = event->pid,
      [CS_FUNCGRAPH_CALL_DEPTH] = depth,
      [CS_FUNCGRAPH_CALL_BEGIN] = begin,
      [CS_FUNCGRAPH_CALL_END] = begin + MAX (dur, 1),
      [CS_FUNCGRAPH_CALL_SELF] = MAX (dur - child, 0),
      [CS_FUNCGRAPH_CALL_FUNC] = f->id,
      [CS_FUNCGRAPH_CALL_CPU] = event->cpu,
    };

    return cs_plugin_result_table_append (fp->calls, row, G_N_ELEMENTS (row), error);
  }
}

static gboolean
on_function (FuncgraphPass       *fp,
             const CsPluginEvent *event,
             GError             **error)
{
  gint64 ip, parent_ip;
  Func *f, *parent;

  if (!cs_plugin_event_get_int (event, "ip", &ip) ||
      !cs_plugin_event_get_int (event, "parent_ip", &parent_ip))
    return TRUE;
  f = func_for (fp, event, ip);
  f->n_hits++;
  parent = func_for (fp, event, parent_ip);
  {
    gint64 row[CS_FUNCGRAPH_INSTANT_N] = {
      [CS_FUNCGRAPH_INSTANT_TS] = event->ts_ns,
      [CS_FUNCGRAPH_INSTANT_PID] = event->pid,
      [CS_FUNCGRAPH_INSTANT_FUNC] = f->id,
      [CS_FUNCGRAPH_INSTANT_PARENT] = parent->id,
      [CS_FUNCGRAPH_INSTANT_CPU] = event->cpu,
    };

    return cs_plugin_result_table_append (fp->instants, row, G_N_ELEMENTS (row), error);
  }
}

static gboolean
funcgraph_pass_event (gpointer             state,
                      const CsPluginEvent *event,
                      GError             **error)
{
  FuncgraphPass *fp = state;

  if (strcmp (event->name, "funcgraph_exit") == 0)
    return on_funcgraph_exit (fp, event, error);
  if (strcmp (event->name, "funcgraph_entry") == 0)
    return on_funcgraph_entry (fp, event, error);
  if (strcmp (event->name, "function") == 0)
    return on_function (fp, event, error);
  return TRUE;
}

/* The calls' last chunks and sorted orders (the calls' table first:
 * its threads may own the connection until then), the function events',
 * then the per-function figures and the bands. */
static gboolean
funcgraph_pass_end (gpointer   state,
                    GError   **error)
{
  FuncgraphPass *fp = state;
  g_autoptr(sqlite3_stmt) insert_func = NULL;
  g_autoptr(sqlite3_stmt) insert_band = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (!cs_plugin_result_table_finish (fp->calls, error) ||
      !cs_plugin_result_table_finish (fp->instants, error))
    return FALSE;
  if (sqlite3_prepare_v2 (fp->db, "INSERT INTO func VALUES (?, ?, ?, ?, ?, ?, ?, ?)", -1,
                          &insert_func, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (fp->db, "INSERT INTO band VALUES (?, ?, ?, ?)", -1,
                          &insert_band, NULL) != SQLITE_OK)
    return sql_failed (fp->db, error);
  g_hash_table_iter_init (&iter, fp->by_start);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Func *f = value;

      sqlite3_bind_int64 (insert_func, 1, f->id);
      sqlite3_bind_int64 (insert_func, 2, f->addr);
      sqlite3_bind_text (insert_func, 3, f->name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert_func, 4, f->n_calls);
      sqlite3_bind_int64 (insert_func, 5, f->n_hits);
      sqlite3_bind_int64 (insert_func, 6, f->total_ns);
      sqlite3_bind_int64 (insert_func, 7, f->self_ns);
      sqlite3_bind_int64 (insert_func, 8, f->max_ns);
      if (sqlite3_step (insert_func) != SQLITE_DONE)
        return sql_failed (fp->db, error);
      sqlite3_reset (insert_func);
    }
  g_hash_table_iter_init (&iter, fp->bands);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 k = *(gint64 *) key;
      Band *band = value;

      sqlite3_bind_int64 (insert_band, 1, k >> 16);
      sqlite3_bind_int64 (insert_band, 2, k & 0xffff);
      sqlite3_bind_int64 (insert_band, 3, band->n_calls);
      sqlite3_bind_int64 (insert_band, 4, band->max_ns);
      if (sqlite3_step (insert_band) != SQLITE_DONE)
        return sql_failed (fp->db, error);
      sqlite3_reset (insert_band);
    }
  return TRUE;
}

static const CsPluginPassInfo funcgraph_pass = {
  .struct_size = sizeof (CsPluginPassInfo),
  .name = CS_FUNCGRAPH_PASS,
  .version = 3,   /* 3: calls in a result table */
  .automatic = FALSE,
  .events = funcgraph_events,
  .begin = funcgraph_pass_begin,
  .event = funcgraph_pass_event,
  .end = funcgraph_pass_end,
  .free = funcgraph_pass_free,
  .prepare = funcgraph_pass_prepare,
};

/**
 * _cs_funcgraph_add_pass:
 * @plugin: the funcgraph plugin, in its init
 *
 * Registers the pass "calls" (see the top of this file), which the
 * instance asks for when the recording has the tracers' events.
 */
void
_cs_funcgraph_add_pass (CsPlugin *plugin)
{
  cs_plugin_add_pass (plugin, &funcgraph_pass);
}
