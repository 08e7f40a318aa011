/* cs-latency-pass.c: the latency pass, every A → B pair of a definition.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over the events of the definition's types,
 * in time order (cs-plugin-pass.h), and applies the pairing rule of
 * cs-latency-def.h (the wakeup preset: Chronoscope's wakeup rule, through
 * cs-latency-wakeup.c).  Memory is per key, never per pair: one hash table
 * entry for each key with an open A (the wakeup preset: the rule's entry
 * for each task, which holds its open A); each pair goes as it closes to the
 * pass's result table (cs-latency-table.c, which describes the tables),
 * which inserts it from a thread of its own and sorts the pairs for the
 * worst-first and by-task orders, in bounded memory.
 *
 * Tables: cs-latency-table.c creates them all and the result table writes
 * the pairs; latency_pair (one row per CsLatencyPair: its definition and
 * counts) is written here, at the end.
 */
#include <string.h>

#include <event-parse.h>
#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-open.h"
#include "cs-latency-pass.h"
#include "cs-latency-table.h"
#include "cs-latency-wakeup.h"

#define N_LAST_FORMATS 4

/* What one event type is in the definition's pairs. */
typedef struct {
  GArray *as_a;         /* guint: pairs it starts */
  GArray *as_b;         /* guint: pairs it ends */
} Role;

typedef struct {
  guint64 n_a, n_b, n_pairs, n_unmatched;
} PairCounts;

/* How one side of a pair reads its key from events of one format: its
 * fields looked up once (by name, that costs more than the reading). */
typedef enum { KEY_CPU, KEY_PID, KEY_FIELD, KEY_MISSING } KeyKind;

typedef struct {
  guint n_keys;
  KeyKind kind[CS_LATENCY_MAX_KEYS];
  CsPluginField field[CS_LATENCY_MAX_KEYS];
} KeyReader;

/* A format's role, and its key readers (one for each of role->as_a and
 * role->as_b). */
typedef struct {
  Role *role;
  KeyReader *as_a;
  KeyReader *as_b;
} FormatRole;

typedef struct {
  CsLatencyDef *def;
  sqlite3 *db;
  CsPluginResultTable *table;   /* owns the database until latency_end */
  CsLatencyOpen *open;          /* the open A events, by pair and key */
  GHashTable *roles;            /* "system:name" -> Role */
  GHashTable *roles_by_format;  /* struct tep_event * -> FormatRole, or &no_role */
  /* The last formats looked up and their roles, newest first: a pair's
   * A and B events come in turn (the wakeup preset's three or four types
   * in a cycle), and a hash lookup per event showed in the pass's
   * profile. */
  const struct tep_event *last_format[N_LAST_FORMATS];
  const FormatRole *last_role[N_LAST_FORMATS];
  PairCounts *counts;           /* by pair */
  CsLatencyWakeups *wakeups;    /* the tasks of a pair with the wakeup rule */
} LatencyPass;

/* What an event type none of the pairs reads maps to. */
static FormatRole no_role;

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

/* How @keys are read from events of @event's format (none: an unknown
 * type, whose fields cannot be read).  A field that cannot hold a number
 * key reads as missing, as cs_plugin_event_get_int() says. */
static void
resolve_keys (const CsPluginEvent *event,
              char * const        *keys,
              guint                n_keys,
              KeyReader           *reader)
{
  reader->n_keys = n_keys;
  for (guint i = 0; i < n_keys; i++)
    {
      if (g_str_equal (keys[i], "@cpu"))
        reader->kind[i] = KEY_CPU;
      else if (g_str_equal (keys[i], "@pid"))
        reader->kind[i] = KEY_PID;
      else
        reader->kind[i] = cs_plugin_field_lookup (&reader->field[i], event, keys[i]) ? KEY_FIELD
                                                                                   : KEY_MISSING;
    }
}

/* A side's key from @event; FALSE when a field cannot be read (not a
 * number, or a record too short for its format: it takes part in no
 * pair).  Reads numbers as cs_plugin_event_get_int() does, with the
 * fields found beforehand. */
static gboolean
read_key (const CsPluginEvent *event,
          const KeyReader     *reader,
          gint64              *key)
{
  memset (key, 0, sizeof (gint64) * CS_LATENCY_MAX_KEYS);
  for (guint i = 0; i < reader->n_keys; i++)
    switch (reader->kind[i])
      {
      case KEY_CPU:
        key[i] = event->cpu;
        break;
      case KEY_PID:
        key[i] = event->pid;
        break;
      case KEY_FIELD:
        if (!cs_plugin_event_read_int (event, &reader->field[i], &key[i]))
          return FALSE;
        break;
      case KEY_MISSING:
      default:
        return FALSE;
      }
  return TRUE;
}

static void
format_role_free (gpointer data)
{
  FormatRole *fr = data;

  if (fr == &no_role)
    return;
  g_free (fr->as_a);
  g_free (fr->as_b);
  g_free (fr);
}

/* Makes @format's role the newest of those remembered. */
static const FormatRole *
remember_role (LatencyPass             *lp,
               const struct tep_event  *format,
               const FormatRole        *role)
{
  memmove (lp->last_format + 1, lp->last_format, (N_LAST_FORMATS - 1) * sizeof *lp->last_format);
  memmove (lp->last_role + 1, lp->last_role, (N_LAST_FORMATS - 1) * sizeof *lp->last_role);
  lp->last_format[0] = format;
  lp->last_role[0] = role;
  return role;
}

/* format_role_of() for a format not among the last ones: out of line,
 * so that the path taken for nearly every event frees no name (a call
 * per event, when this was inlined there). */
static G_GNUC_NO_INLINE const FormatRole *
format_role_find (LatencyPass         *lp,
                  const CsPluginEvent *event)
{
  FormatRole *fr;
  g_autofree char *name = NULL;
  Role *role;

  fr = g_hash_table_lookup (lp->roles_by_format, event->format);
  if (fr != NULL)
    return remember_role (lp, event->format, fr);
  name = g_strdup_printf ("%s:%s", event->system, event->name);
  role = g_hash_table_lookup (lp->roles, name);
  if (role == NULL)
    fr = &no_role;
  else
    {
      fr = g_new0 (FormatRole, 1);
      fr->role = role;
      fr->as_a = g_new0 (KeyReader, MAX (role->as_a->len, 1));
      fr->as_b = g_new0 (KeyReader, MAX (role->as_b->len, 1));
      for (guint i = 0; i < role->as_a->len; i++)
        {
          const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs,
                                                         g_array_index (role->as_a, guint, i));

          resolve_keys (event, pair->a_keys, pair->n_keys, &fr->as_a[i]);
        }
      for (guint i = 0; i < role->as_b->len; i++)
        {
          const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs,
                                                         g_array_index (role->as_b, guint, i));

          resolve_keys (event, pair->b_keys, pair->n_keys, &fr->as_b[i]);
        }
    }
  g_hash_table_insert (lp->roles_by_format, event->format, fr);
  return remember_role (lp, event->format, fr);
}

/* The role of @event's format, with its key readers; &no_role for a type
 * none of the pairs reads. */
static inline const FormatRole *
format_role_of (LatencyPass         *lp,
                const CsPluginEvent *event)
{
  for (guint i = 0; i < N_LAST_FORMATS; i++)
    if (event->format == lp->last_format[i] && lp->last_role[i] != NULL)
      {
        /* Found: kept where it is (the types come in a cycle, which
         * moving it to the front would only shuffle). */
        return lp->last_role[i];
      }
  return format_role_find (lp, event);
}

/* Hands the pair of @a and @b to the result table. */
static gboolean
write_pair (LatencyPass           *lp,
            const CsLatencyPair   *pair,
            const CsLatencyOpenA  *a,
            const CsPluginEvent   *b,
            GError               **error)
{
  CsLatencyRow row = {
    .a_ts = a->ts_ns,
    .b_ts = b->ts_ns,
    .a_cpu = a->cpu,
    .a_row = (gint64) a->row,
    .b_cpu = b->cpu,
    .pid = pair->pid_key >= 0 ? (gint32) a->key[pair->pid_key] : a->pid,
    .pair = a->pair,
    .n_keys = pair->n_keys,
    .keys = a->key,
  };

  return cs_latency_table_add (lp->table, &row, error);
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
  lp->open = cs_latency_open_new ();
  lp->roles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, role_free);
  lp->roles_by_format = g_hash_table_new_full (NULL, NULL, NULL, format_role_free);
  lp->counts = g_new0 (PairCounts, lp->def->pairs->len);
  for (guint i = 0; i < lp->def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, i);

      g_array_append_val (role_for (lp, pair->a_system, pair->a_event)->as_a, i);
      g_array_append_val (role_for (lp, pair->b_system, pair->b_event)->as_b, i);
      for (guint j = 0; pair->a_more[j] != NULL; j++)
        g_array_append_val (role_for (lp, pair->a_system, pair->a_more[j])->as_a, i);
      if (pair->wakeup_rule && lp->wakeups == NULL)
        lp->wakeups = cs_latency_wakeups_new ();
    }
  lp->table = cs_latency_table_new (lp->db, error);
  if (lp->table == NULL)
    {
      latency_free (lp);
      return NULL;
    }
  return lp;
}

/* A sched_switch of pair @p with the wakeup rule: counts prev_pid's open
 * wait unmatched when the rule drops it, and writes the pair when
 * next_pid's wait ends.  The open A's are the rule's own
 * (cs-latency-wakeup.c), not in lp->open. */
static gboolean
wakeup_switch (LatencyPass           *lp,
               guint                  p,
               const CsLatencyPair   *pair,
               const CsPluginEvent   *event,
               GError               **error)
{
  CsLatencyWakeupA a;
  gboolean dropped;
  gint64 key;

  if (cs_latency_wakeups_switch (lp->wakeups, event, &dropped, &a))
    {
      CsLatencyRow row = {
        .a_ts = a.ts_ns,
        .b_ts = event->ts_ns,
        .a_cpu = a.cpu,
        .a_row = (gint64) a.row,
        .b_cpu = event->cpu,
        .pid = a.pid,
        .pair = p,
        .n_keys = pair->n_keys,
        .keys = &key,
      };

      key = a.pid;
      if (!cs_latency_table_add (lp->table, &row, error))
        return FALSE;
      lp->counts[p].n_pairs++;
    }
  if (dropped)
    lp->counts[p].n_unmatched++;
  return TRUE;
}

static gboolean
latency_event (gpointer              state,
               const CsPluginEvent  *event,
               GError              **error)
{
  LatencyPass *lp = state;
  const FormatRole *fr = format_role_of (lp, event);
  const Role *role = fr->role;

  if (fr == &no_role)
    return TRUE;

  /* B first: an event on both sides closes before it opens. */
  for (guint i = 0; i < role->as_b->len; i++)
    {
      guint p = g_array_index (role->as_b, guint, i);
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, p);
      gint64 key[CS_LATENCY_MAX_KEYS];
      CsLatencyOpenA *a;

      lp->counts[p].n_b++;
      if (pair->wakeup_rule)
        {
          if (!wakeup_switch (lp, p, pair, event, error))
            return FALSE;
          continue;
        }
      if (!read_key (event, &fr->as_b[i], key))
        continue;
      a = cs_latency_open_lookup (lp->open, p, key);
      if (a == NULL)
        continue;
      if (!write_pair (lp, pair, a, event, error))
        return FALSE;
      lp->counts[p].n_pairs++;
      cs_latency_open_remove (lp->open, a);
    }
  for (guint i = 0; i < role->as_a->len; i++)
    {
      guint p = g_array_index (role->as_a, guint, i);
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, p);
      CsLatencyOpenA a;

      lp->counts[p].n_a++;
      a.pair = p;
      if (!read_key (event, &fr->as_a[i], a.key))
        {
          lp->counts[p].n_unmatched++;
          continue;
        }
      if (pair->wakeup_rule)
        {
          /* The rule keeps the wait's A itself. */
          if (!cs_latency_wakeups_wake (lp->wakeups, a.key[0], event->ts_ns, event->cpu, event->row))
            lp->counts[p].n_unmatched++;
          continue;
        }
      a.ts_ns = event->ts_ns;
      a.row = event->row;
      a.cpu = event->cpu;
      a.pid = event->pid;
      /* A newer A replaces the open one with its key. */
      if (!cs_latency_open_put (lp->open, &a))
        lp->counts[p].n_unmatched++;
    }
  return TRUE;
}

static gboolean
latency_end (gpointer   state,
             GError   **error)
{
  LatencyPass *lp = state;
  g_autofree guint64 *n_open = g_new0 (guint64, MAX (lp->def->pairs->len, 1));
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;

  if (!cs_plugin_result_table_finish (lp->table, error))
    return FALSE;
  cs_latency_open_drain (lp->open, n_open, lp->def->pairs->len);
  for (guint i = 0; i < lp->def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (lp->def->pairs, i);

      lp->counts[i].n_unmatched += n_open[i];
      if (pair->wakeup_rule)
        lp->counts[i].n_unmatched += cs_latency_wakeups_get_n_open (lp->wakeups);
    }

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
  return ok;
}

static void
latency_free (gpointer state)
{
  LatencyPass *lp = state;

  if (lp == NULL)
    return;
  cs_plugin_result_table_free (lp->table);
  g_clear_pointer (&lp->open, cs_latency_open_free);
  g_clear_pointer (&lp->roles_by_format, g_hash_table_unref);
  g_clear_pointer (&lp->roles, g_hash_table_unref);
  g_free (lp->counts);
  cs_latency_wakeups_free (lp->wakeups);
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
  .prepare = cs_latency_table_prepare,      /* latency_rows, over latency_chunks */
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
