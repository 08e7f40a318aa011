/* cs-latency-pass.c: the latency pass, every A → B pair of a definition.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over the events of the definition's types,
 * in time order (cs-plugin-pass.h), and applies the pairing rule of
 * cs-latency-def.h.  Memory is per key, never per pair: one hash table
 * entry for each key with an open A; each pair is inserted into the pass
 * database as it closes, and the index on duration is built once at the
 * end, which is cheaper than keeping it up to date row by row.
 *
 * Rows of `latency` are inserted as each B comes, in time order, so their
 * rowids (1, 2, 3...) follow B's time: a range of time is a range of
 * rowids, found by bisection, and needs no index of its own.
 *
 * Tables (read by cs-latency-stats.c):
 *   latency_pair  (pair, definition, a_event, b_event, a_keys, b_keys,
 *                  n_a, n_b, n_pairs, n_unmatched): one row per CsLatencyPair
 *   latency       (dur_ns, a_ts, a_cpu, a_row, b_ts, b_cpu, pid, pair,
 *                  k0, k1, k2, k3): one row per measured pair
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-pass.h"

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

/* Rows go to SQLite BATCH at a time: one statement step per row costs
 * more than the row itself. */
#define BATCH 64
#define N_COLUMNS 12

typedef struct {
  gint64 v[N_COLUMNS];
  guint n_keys;
} PendingRow;

typedef struct {
  CsLatencyDef *def;
  sqlite3 *db;
  sqlite3_stmt *insert;         /* one row */
  sqlite3_stmt *insert_batch;   /* BATCH rows */
  PendingRow pending[BATCH];    /* rows not inserted yet */
  guint n_pending;
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

static gboolean
insert_failed (LatencyPass  *lp,
               GError      **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot write a latency pair: %s"), sqlite3_errmsg (lp->db));
  return FALSE;
}

/* Inserts the pending rows: a full batch with one statement, a partial
 * one (at the end) row by row. */
static gboolean
flush_pairs (LatencyPass  *lp,
             GError      **error)
{
  guint per_step = lp->n_pending == BATCH ? BATCH : 1;
  sqlite3_stmt *s = per_step == BATCH ? lp->insert_batch : lp->insert;

  for (guint first = 0; first < lp->n_pending; first += per_step)
    {
      int rc;

      for (guint r = 0; r < per_step; r++)
        {
          const PendingRow *row = &lp->pending[first + r];

          for (guint c = 0; c < N_COLUMNS; c++)
            {
              int i = (int) (r * N_COLUMNS + c + 1);

              if (c >= 8 && c - 8 >= row->n_keys)
                sqlite3_bind_null (s, i);
              else
                sqlite3_bind_int64 (s, i, row->v[c]);
            }
        }
      rc = sqlite3_step (s);
      sqlite3_reset (s);
      if (rc != SQLITE_DONE)
        return insert_failed (lp, error);
    }
  lp->n_pending = 0;
  return TRUE;
}

/* Queues the pair of @a and @b, in the columns of the table `latency`. */
static gboolean
write_pair (LatencyPass          *lp,
            const CsLatencyPair  *pair,
            const OpenA          *a,
            const CsPluginEvent  *b,
            GError              **error)
{
  PendingRow *row = &lp->pending[lp->n_pending++];

  row->v[0] = b->ts_ns - a->ts_ns;
  row->v[1] = a->ts_ns;
  row->v[2] = a->cpu;
  row->v[3] = (gint64) a->row;
  row->v[4] = b->ts_ns;
  row->v[5] = b->cpu;
  row->v[6] = pair->pid_key >= 0 ? (gint32) a->key[pair->pid_key] : a->pid;
  row->v[7] = a->pair;
  for (guint i = 0; i < CS_LATENCY_MAX_KEYS; i++)
    row->v[8 + i] = a->key[i];
  row->n_keys = pair->n_keys;
  return lp->n_pending < BATCH || flush_pairs (lp, error);
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
  gboolean ok = TRUE;

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
             " k0 INTEGER, k1 INTEGER, k2 INTEGER, k3 INTEGER);", error))
    {
      latency_free (lp);
      return NULL;
    }
  {
    g_autoptr(GString) batch = g_string_new ("INSERT INTO latency VALUES ");

    for (guint r = 0; r < BATCH; r++)
      g_string_append (batch, r == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?)");
    if (sqlite3_prepare_v2 (lp->db, "INSERT INTO latency VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", -1,
                            &lp->insert, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2 (lp->db, batch->str, -1, &lp->insert_batch, NULL) != SQLITE_OK)
      ok = FALSE;
  }
  if (!ok)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot write the latency pairs: %s"), sqlite3_errmsg (lp->db));
      latency_free (lp);
      return NULL;
    }
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

static gboolean
latency_end (gpointer   state,
             GError   **error)
{
  LatencyPass *lp = state;
  GHashTableIter iter;
  gpointer key;
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;

  if (!flush_pairs (lp, error))
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
  /* Worst first.  Ranges need no index: rows are written as their B
   * comes, so b_ts grows with the rowid (cs-latency-stats.c).  The task
   * plots' brackets (cs-latency-layer.c) read one task's pairs worst
   * first, from a covering index so that skipping the pairs outside the
   * visible span never touches the table.  The sorts that build the
   * indexes get 64 MiB before they spill to temporary files, a bound
   * whatever the number of pairs. */
  return ok && exec (lp->db,
                     "PRAGMA cache_size = -65536;"
                     "CREATE INDEX latency_by_duration ON latency (dur_ns DESC);"
                     "CREATE INDEX latency_by_task ON latency (pid, dur_ns DESC, a_ts, b_ts);", error);
}

static void
latency_free (gpointer state)
{
  LatencyPass *lp = state;

  if (lp == NULL)
    return;
  sqlite3_finalize (lp->insert);
  sqlite3_finalize (lp->insert_batch);
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
