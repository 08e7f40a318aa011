/* cs-latency-pass.c: the latency pass, every A → B pair of a definition.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over the events of the definition's types,
 * in time order (cs-plugin-pass.h), and applies the pairing rule of
 * cs-latency-def.h.  Memory is per key, never per pair: one hash table
 * entry for each key with an open A; each pair is inserted into the pass
 * database as it closes, and handed to two external sorters
 * (cs-latency-sorter.c, bounded memory) for the two other orders the
 * readers need, written once at the end as plain tables in that order.
 * SQLite indexes on `latency` would give the same orders, but building
 * them (CREATE INDEX after the inserts) took twice as long as the rest
 * of the pass; sorting arrays of numbers and appending rows in rowid
 * order costs a fraction of it.
 *
 * Rows of `latency` are inserted as each B comes, in time order, so their
 * rowids (1, 2, 3...) follow B's time: a range of time is a range of
 * rowids, found by bisection, and needs no index of its own.
 *
 * Tables (read by cs-latency-stats.c and cs-latency-layer.c):
 *   latency_pair  (pair, definition, a_event, b_event, a_keys, b_keys,
 *                  n_a, n_b, n_pairs, n_unmatched): one row per CsLatencyPair
 *   latency       (dur_ns, a_ts, a_cpu, a_row, b_ts, b_cpu, pid, pair,
 *                  k0, k1, k2, k3): one row per measured pair
 *   latency_worst (rank INTEGER PRIMARY KEY, dur_ns, id): the pairs worst
 *                  first (longest, then A's time, CPU and row; rank 1 is
 *                  the worst), id the pair's rowid in `latency`
 *   latency_task  (pid, dur_ns, a_ts, b_ts): the pairs by task (pid
 *                  ascending), then longest first, then A's time, in
 *                  rowid order
 *   latency_task_span (pid INTEGER PRIMARY KEY, lo, hi): the rowids
 *                  [lo, hi) of each task's rows in latency_task
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-batch.h"
#include "cs-latency-def.h"
#include "cs-latency-pass.h"
#include "cs-latency-sorter.h"

/* An open A, and the key it is open under. */
typedef struct {
  guint pair;
  gint64 key[CS_LATENCY_MAX_KEYS];
  gint64 ts_ns;
  guint64 row;
  guint cpu;
  gint32 pid;
} OpenA;

/* What one event type is in the definition's pairs. */
typedef struct {
  GArray *as_a;         /* guint: pairs it starts */
  GArray *as_b;         /* guint: pairs it ends */
} Role;

typedef struct {
  guint64 n_a, n_b, n_pairs, n_unmatched;
} PairCounts;

#define N_COLUMNS 12

/* Records of the sorters, and the run held in memory (the memory
 * bound: about 36 MiB for both, and as much again while a run is
 * sorted). */
enum { W_DUR, W_A_TS, W_A_CPU, W_A_ROW, W_ID, N_WORST_FIELDS };
enum { T_PID, T_DUR, T_A_TS, T_B_TS, N_TASK_FIELDS };
#define RUN_RECORDS (512 * 1024)

typedef struct {
  CsLatencyDef *def;
  sqlite3 *db;
  CsLatencyBatch *rows;         /* into `latency` */
  gint64 n_rows;                /* rows inserted: the last rowid */
  CsLatencySorter *worst;       /* W_ records */
  CsLatencySorter *by_task;     /* T_ records */
  GHashTable *open;             /* OpenA (its pair and key) -> itself */
  GHashTable *roles;            /* "system:name" -> Role */
  GHashTable *roles_by_format;  /* struct tep_event * -> Role, or &no_role */
  PairCounts *counts;           /* by pair */
} LatencyPass;

/* What an event type none of the pairs reads maps to. */
static Role no_role;

static guint
open_a_hash (gconstpointer data)
{
  const OpenA *o = data;
  guint64 h = o->pair * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  for (guint i = 0; i < CS_LATENCY_MAX_KEYS; i++)
    h = (h ^ (guint64) o->key[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return (guint) (h ^ (h >> 32));
}

static gboolean
open_a_equal (gconstpointer a,
              gconstpointer b)
{
  const OpenA *x = a, *y = b;

  return x->pair == y->pair && memcmp (x->key, y->key, sizeof x->key) == 0;
}

static void
role_free (gpointer data)
{
  Role *role = data;

  g_array_unref (role->as_a);
  g_array_unref (role->as_b);
  g_free (role);
}

static Role *
role_for (LatencyPass *lp,
          const char  *system,
          const char  *name)
{
  char *key = g_strdup_printf ("%s:%s", system, name);
  Role *role = g_hash_table_lookup (lp->roles, key);

  if (role != NULL)
    {
      g_free (key);
      return role;
    }
  role = g_new0 (Role, 1);
  role->as_a = g_array_new (FALSE, FALSE, sizeof (guint));
  role->as_b = g_array_new (FALSE, FALSE, sizeof (guint));
  g_hash_table_insert (lp->roles, key, role);
  return role;
}

/* A side's key from @event; FALSE when a field cannot be read (a record
 * too short for its format: it takes part in no pair). */
static gboolean
read_key (const CsPluginEvent *event,
          char * const        *keys,
          guint                n_keys,
          gint64              *key)
{
  memset (key, 0, sizeof (gint64) * CS_LATENCY_MAX_KEYS);
  for (guint i = 0; i < n_keys; i++)
    {
      if (g_str_equal (keys[i], "@cpu"))
        key[i] = event->cpu;
      else if (g_str_equal (keys[i], "@pid"))
        key[i] = event->pid;
      else if (!cs_plugin_event_get_int (event, keys[i], &key[i]))
        return FALSE;
    }
  return TRUE;
}

/* Worst first: longest, then A's time, CPU and row, then the row. */
static int
compare_worst (const gint64 *a,
               const gint64 *b)
{
  if (a[W_DUR] != b[W_DUR])
    return a[W_DUR] > b[W_DUR] ? -1 : 1;
  for (guint f = W_A_TS; f < N_WORST_FIELDS; f++)
    if (a[f] != b[f])
      return a[f] < b[f] ? -1 : 1;
  return 0;
}

/* By task, then longest first, then A's and B's time. */
static int
compare_task (const gint64 *a,
              const gint64 *b)
{
  if (a[T_PID] != b[T_PID])
    return a[T_PID] < b[T_PID] ? -1 : 1;
  if (a[T_DUR] != b[T_DUR])
    return a[T_DUR] > b[T_DUR] ? -1 : 1;
  if (a[T_A_TS] != b[T_A_TS])
    return a[T_A_TS] < b[T_A_TS] ? -1 : 1;
  if (a[T_B_TS] != b[T_B_TS])
    return a[T_B_TS] < b[T_B_TS] ? -1 : 1;
  return 0;
}

/* Writes the pair of @a and @b: a row of `latency`, and a record for
 * each sorter. */
static gboolean
write_pair (LatencyPass          *lp,
            const CsLatencyPair  *pair,
            const OpenA          *a,
            const CsPluginEvent  *b,
            GError              **error)
{
  gint64 v[N_COLUMNS];
  gint64 worst[N_WORST_FIELDS];
  gint64 task[N_TASK_FIELDS];
  guint64 nulls = 0;

  v[0] = b->ts_ns - a->ts_ns;
  v[1] = a->ts_ns;
  v[2] = a->cpu;
  v[3] = (gint64) a->row;
  v[4] = b->ts_ns;
  v[5] = b->cpu;
  v[6] = pair->pid_key >= 0 ? (gint32) a->key[pair->pid_key] : a->pid;
  v[7] = a->pair;
  for (guint i = 0; i < CS_LATENCY_MAX_KEYS; i++)
    {
      v[8 + i] = a->key[i];
      if (i >= pair->n_keys)
        nulls |= G_GUINT64_CONSTANT (1) << (8 + i);
    }
  if (!cs_latency_batch_append (lp->rows, v, nulls, error))
    return FALSE;
  lp->n_rows++;
  worst[W_DUR] = v[0];
  worst[W_A_TS] = v[1];
  worst[W_A_CPU] = v[2];
  worst[W_A_ROW] = v[3];
  worst[W_ID] = lp->n_rows;
  task[T_PID] = v[6];
  task[T_DUR] = v[0];
  task[T_A_TS] = v[1];
  task[T_B_TS] = v[4];
  return cs_latency_sorter_add (lp->worst, worst, error) &&
         cs_latency_sorter_add (lp->by_task, task, error);
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write the latency pairs: %s"), message);
  sqlite3_free (message);
  return FALSE;
}

static char **
latency_list_events (CsPluginDocument  *document,
                     const char        *param,
                     GError           **error)
{
  g_autoptr(CsLatencyDef) def = cs_latency_def_new (document, param, error);

  return def != NULL ? cs_latency_def_dup_events (def) : NULL;
}

static void latency_free (gpointer state);

static gpointer
latency_begin (CsPluginPass  *pass,
               GError       **error)
{
  LatencyPass *lp = g_new0 (LatencyPass, 1);

  lp->def = cs_latency_def_new (cs_plugin_pass_get_document (pass),
                                cs_plugin_pass_get_param (pass), error);
  if (lp->def == NULL)
    {
      latency_free (lp);
      return NULL;
    }
  lp->db = cs_plugin_pass_get_db (pass);
  lp->open = g_hash_table_new_full (open_a_hash, open_a_equal, g_free, NULL);
  lp->roles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, role_free);
  lp->roles_by_format = g_hash_table_new (NULL, NULL);
  lp->counts = g_new0 (PairCounts, lp->def->pairs->len);
  for (guint i = 0; i < lp->def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, i);

      g_array_append_val (role_for (lp, pair->a_system, pair->a_event)->as_a, i);
      g_array_append_val (role_for (lp, pair->b_system, pair->b_event)->as_b, i);
    }
  if (!exec (lp->db,
             "CREATE TABLE latency_pair (pair INTEGER PRIMARY KEY, definition TEXT NOT NULL,"
             " a_event TEXT NOT NULL, b_event TEXT NOT NULL, a_keys TEXT NOT NULL,"
             " b_keys TEXT NOT NULL, n_a INTEGER, n_b INTEGER, n_pairs INTEGER,"
             " n_unmatched INTEGER);"
             "CREATE TABLE latency (dur_ns INTEGER NOT NULL, a_ts INTEGER NOT NULL,"
             " a_cpu INTEGER NOT NULL, a_row INTEGER NOT NULL, b_ts INTEGER NOT NULL,"
             " b_cpu INTEGER NOT NULL, pid INTEGER NOT NULL, pair INTEGER NOT NULL,"
             " k0 INTEGER, k1 INTEGER, k2 INTEGER, k3 INTEGER);"
             "CREATE TABLE latency_worst (rank INTEGER PRIMARY KEY, dur_ns INTEGER NOT NULL,"
             " id INTEGER NOT NULL);"
             "CREATE TABLE latency_task (pid INTEGER NOT NULL, dur_ns INTEGER NOT NULL,"
             " a_ts INTEGER NOT NULL, b_ts INTEGER NOT NULL);"
             "CREATE TABLE latency_task_span (pid INTEGER PRIMARY KEY, lo INTEGER NOT NULL,"
             " hi INTEGER NOT NULL);", error) ||
      (lp->rows = cs_latency_batch_new (lp->db, "latency", N_COLUMNS, error)) == NULL)
    {
      latency_free (lp);
      return NULL;
    }
  lp->worst = cs_latency_sorter_new (N_WORST_FIELDS, compare_worst, RUN_RECORDS);
  lp->by_task = cs_latency_sorter_new (N_TASK_FIELDS, compare_task, RUN_RECORDS);
  return lp;
}

static gboolean
latency_event (gpointer              state,
               const CsPluginEvent  *event,
               GError              **error)
{
  LatencyPass *lp = state;
  Role *role = g_hash_table_lookup (lp->roles_by_format, event->format);

  if (role == NULL)
    {
      g_autofree char *name = g_strdup_printf ("%s:%s", event->system, event->name);

      role = g_hash_table_lookup (lp->roles, name);
      if (role == NULL)
        role = &no_role;
      g_hash_table_insert (lp->roles_by_format, event->format, role);
    }
  if (role == &no_role)
    return TRUE;

  /* B first: an event on both sides closes before it opens. */
  for (guint i = 0; i < role->as_b->len; i++)
    {
      guint p = g_array_index (role->as_b, guint, i);
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, p);
      OpenA probe = { .pair = p };
      OpenA *a;

      lp->counts[p].n_b++;
      if (!read_key (event, pair->b_keys, pair->n_keys, probe.key))
        continue;
      a = g_hash_table_lookup (lp->open, &probe);
      if (a == NULL)
        continue;
      if (!write_pair (lp, pair, a, event, error))
        return FALSE;
      lp->counts[p].n_pairs++;
      g_hash_table_remove (lp->open, a);
    }
  for (guint i = 0; i < role->as_a->len; i++)
    {
      guint p = g_array_index (role->as_a, guint, i);
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, p);
      OpenA *a = g_new (OpenA, 1);

      lp->counts[p].n_a++;
      a->pair = p;
      if (!read_key (event, pair->a_keys, pair->n_keys, a->key))
        {
          lp->counts[p].n_unmatched++;
          g_free (a);
          continue;
        }
      a->ts_ns = event->ts_ns;
      a->row = event->row;
      a->cpu = event->cpu;
      a->pid = event->pid;
      /* A newer A replaces the open one with its key. */
      if (!g_hash_table_add (lp->open, a))
        lp->counts[p].n_unmatched++;
    }
  return TRUE;
}

/* Where the sorted orders are being written. */
typedef struct {
  CsLatencyBatch *batch;
  gint64 n;                     /* rows written */
  CsLatencyBatch *spans;        /* latency_task_span */
  gint64 pid, lo;               /* the task being written, its first row */
} Writer;

static gboolean
write_worst_record (const gint64  *record,
                    gpointer       user_data,
                    GError       **error)
{
  Writer *w = user_data;
  gint64 v[3] = { ++w->n, record[W_DUR], record[W_ID] };

  return cs_latency_batch_append (w->batch, v, 0, error);
}

/* latency_worst, from the sorter. */
static gboolean
write_worst (LatencyPass  *lp,
             GError      **error)
{
  Writer w = { 0 };
  gboolean ok;

  w.batch = cs_latency_batch_new (lp->db, "latency_worst", 3, error);
  if (w.batch == NULL)
    return FALSE;
  ok = cs_latency_sorter_finish (lp->worst, write_worst_record, &w, error) &&
       cs_latency_batch_flush (w.batch, error);
  cs_latency_batch_free (w.batch);
  return ok;
}

/* Ends the task being written: its span. */
static gboolean
write_span (Writer  *w,
            GError **error)
{
  gint64 v[3] = { w->pid, w->lo, w->n + 1 };

  return w->n < w->lo || cs_latency_batch_append (w->spans, v, 0, error);
}

static gboolean
write_task_record (const gint64  *record,
                   gpointer       user_data,
                   GError       **error)
{
  Writer *w = user_data;

  if (w->n >= w->lo && record[T_PID] != w->pid)
    {
      if (!write_span (w, error))
        return FALSE;
      w->lo = w->n + 1;
    }
  w->pid = record[T_PID];
  w->n++;
  return cs_latency_batch_append (w->batch, record, 0, error);
}

/* latency_task and latency_task_span, from the sorter. */
static gboolean
write_by_task (LatencyPass  *lp,
               GError      **error)
{
  Writer w = { .lo = 1 };
  gboolean ok;

  w.batch = cs_latency_batch_new (lp->db, "latency_task", N_TASK_FIELDS, error);
  w.spans = w.batch != NULL ? cs_latency_batch_new (lp->db, "latency_task_span", 3, error) : NULL;
  ok = w.spans != NULL &&
       cs_latency_sorter_finish (lp->by_task, write_task_record, &w, error) &&
       write_span (&w, error) &&
       cs_latency_batch_flush (w.batch, error) &&
       cs_latency_batch_flush (w.spans, error);
  cs_latency_batch_free (w.batch);
  cs_latency_batch_free (w.spans);
  return ok;
}

static gboolean
latency_end (gpointer   state,
             GError   **error)
{
  LatencyPass *lp = state;
  GHashTableIter iter;
  gpointer key;
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;

  if (!cs_latency_batch_flush (lp->rows, error))
    return FALSE;
  g_hash_table_iter_init (&iter, lp->open);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    lp->counts[((OpenA *) key)->pair].n_unmatched++;
  g_hash_table_remove_all (lp->open);

  if (sqlite3_prepare_v2 (lp->db,
                          "INSERT INTO latency_pair VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
                          " ?9, ?10)", -1, &s, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the latency pairs: %s"), sqlite3_errmsg (lp->db));
      return FALSE;
    }
  for (guint i = 0; ok && i < lp->def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, i);
      g_autofree char *definition = cs_latency_pair_describe (pair);
      g_autofree char *a_event = g_strdup_printf ("%s:%s", pair->a_system, pair->a_event);
      g_autofree char *b_event = g_strdup_printf ("%s:%s", pair->b_system, pair->b_event);
      g_autofree char *a_keys = g_strjoinv (",", (char **) pair->a_keys);
      g_autofree char *b_keys = g_strjoinv (",", (char **) pair->b_keys);

      sqlite3_bind_int (s, 1, i);
      sqlite3_bind_text (s, 2, definition, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (s, 3, a_event, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (s, 4, b_event, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (s, 5, a_keys, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (s, 6, b_keys, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (s, 7, lp->counts[i].n_a);
      sqlite3_bind_int64 (s, 8, lp->counts[i].n_b);
      sqlite3_bind_int64 (s, 9, lp->counts[i].n_pairs);
      sqlite3_bind_int64 (s, 10, lp->counts[i].n_unmatched);
      if (sqlite3_step (s) != SQLITE_DONE)
        {
          g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                       _("Cannot write the latency pairs: %s"), sqlite3_errmsg (lp->db));
          ok = FALSE;
        }
      sqlite3_reset (s);
    }
  sqlite3_finalize (s);
  return ok && write_worst (lp, error) && write_by_task (lp, error);
}

static void
latency_free (gpointer state)
{
  LatencyPass *lp = state;

  if (lp == NULL)
    return;
  cs_latency_batch_free (lp->rows);
  cs_latency_sorter_free (lp->worst);
  cs_latency_sorter_free (lp->by_task);
  g_clear_pointer (&lp->open, g_hash_table_unref);
  g_clear_pointer (&lp->roles_by_format, g_hash_table_unref);
  g_clear_pointer (&lp->roles, g_hash_table_unref);
  g_free (lp->counts);
  cs_latency_def_free (lp->def);
  g_free (lp);
}

static const CsPluginPassInfo latency_pass_info = {
  .struct_size = sizeof (CsPluginPassInfo),
  .name = CS_LATENCY_PASS,
  .version = CS_LATENCY_PASS_VERSION,
  .automatic = FALSE,
  .events = NULL,
  .list_events = latency_list_events,
  .begin = latency_begin,
  .event = latency_event,
  .end = latency_end,
  .free = latency_free,
};

/**
 * cs_latency_pass_register:
 * @plugin: the latency plugin, in its init
 *
 * Registers the pass.
 */
void
cs_latency_pass_register (CsPlugin *plugin)
{
  cs_plugin_add_pass (plugin, &latency_pass_info);
}
