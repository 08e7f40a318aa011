/* cs-explain-pass.c: the passes `blockers` and `critical_path`, and the
 * SQL tables latency_breakdown, wakeup_chain and critical_path.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `blockers` (parameter "wakeup>=NS") reads the recording once, in time
 * order, with a #CsExplainTracker: every wakeup pair is broken down as
 * it goes (one sweep, not a query per pair), and those lasting NS or
 * more are kept: their parts in explain_part, the sum per contributor in
 * explain_blocker, and for the worst CHAINED of them their wakeup chain
 * in explain_chain, read from the index at the end from link 1 on: link
 * 0 is the pair as the sweep broke it down (the parts explain_part
 * holds), not read again (cs_explain_wakeup_chain_from()).  The pairs kept
 * are written, and summed per contributor, in a thread of the pass's own
 * (the writer), so that the sweep's thread, which bounds the pass's wall
 * time, only hands each one over.  `critical_path`
 * (parameter "PID:BEGIN:END:DEPTH") reads no event: at its end it
 * follows the task through the index and stores the segments.
 */
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-explain-pass.h"
#include "cs-explain-private.h"
#include "cs-explain-tracker.h"
#include "cs-explain-waiting.h"

/* 2: a stored chain's link 0 is the sweep's breakdown of its pair (no
 * sections from the latency flags), not the pair explained alone. */
#define BLOCKERS_VERSION 2
#define PATH_VERSION 1
/* Chains stored by the pass: those of the worst pairs kept.  Each link
 * reads its span from the index (milliseconds on a large recording), so
 * they are few. */
#define CHAINED 8
#define CHAIN_DEPTH 8
/* Pairs kept that the sweep may hand to the writer before it waits for
 * it: with a threshold of 0 (every pair kept) the writer is the slower,
 * and the pairs between them must not fill the memory. */
#define MAX_QUEUED 4096

static const char blockers_schema[] =
  "CREATE TABLE explain_pair (id INTEGER PRIMARY KEY, pid INTEGER, prio INTEGER,"
  " a_ts INTEGER, b_ts INTEGER, a_cpu INTEGER, b_cpu INTEGER, n_cpus INTEGER,"
  " waker_pid INTEGER, waker_flags INTEGER);"
  "CREATE TABLE explain_part (pair INTEGER, kind TEXT, id INTEGER, name TEXT, prio INTEGER,"
  " outranks INTEGER, ns INTEGER, n_slices INTEGER);"
  "CREATE TABLE explain_blocker (kind TEXT, id INTEGER, name TEXT, prio INTEGER,"
  " total_ns INTEGER, n_pairs INTEGER);"
  "CREATE TABLE explain_chain (pair INTEGER, depth INTEGER, pid INTEGER, a_ts INTEGER,"
  " b_ts INTEGER, a_cpu INTEGER, b_cpu INTEGER, waker_pid INTEGER, verdict TEXT,"
  " stop TEXT);"
  "CREATE TABLE explain_timing (sweep_us INTEGER, chains_us INTEGER);";

typedef struct {
  sqlite3 *db;
  CsPluginDocument *document;
  gint64 threshold_ns;
  CsExplainTracker *tracker;
  sqlite3_stmt *insert_pair;
  sqlite3_stmt *insert_part;
  GHashTable *blockers;         /* CsExplainContributor * (owned) by kind, id and name: the sums */
  GArray *worst;                /* CsExplainBreakdown (with parts, no slices): the worst CHAINED */
  gint64 n_pairs;
  gint64 begin_us;              /* monotonic, when the pass began */
  /* The writer: the sweep pushes each pair kept to @queue (a
   * CsExplainBreakdown *, owned, or WRITER_STOP) after taking one of the
   * MAX_QUEUED tokens in @tokens, which the writer gives back.  Until it
   * is joined, the writer alone uses @db, @insert_*, @blockers, @worst,
   * @n_pairs and @error. */
  GThread *writer;
  GAsyncQueue *queue;
  GAsyncQueue *tokens;
  gint failed;                  /* atomic; @error is set before it */
  char *error;
} Blockers;

static char writer_stop_mark;
#define WRITER_STOP ((gpointer) &writer_stop_mark)
#define TOKEN GINT_TO_POINTER (1)

/**
 * cs_explain_blockers_parse:
 * @param: "wakeup>=NS", the `blockers` pass's parameter
 * @threshold_ns: (out): NS
 *
 * Returns: whether @param has that form
 */
gboolean
cs_explain_blockers_parse (const char *param,
                           gint64     *threshold_ns)
{
  char *end = NULL;

  if (param == NULL || !g_str_has_prefix (param, "wakeup>="))
    return FALSE;
  *threshold_ns = g_ascii_strtoll (param + 8, &end, 10);
  return end != param + 8 && *end == '\0' && *threshold_ns >= 0;
}

static char **
blockers_list_events (CsPluginDocument  *document,
                      const char        *param,
                      GError           **error)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  gint64 threshold;

  if (!cs_explain_blockers_parse (param, &threshold))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("“%s” is not a parameter of the pass blockers (wakeup>=NS)"),
                   param != NULL ? param : "");
      return NULL;
    }
  for (guint i = 0; cs_explain_state_events[i] != NULL; i++)
    g_strv_builder_add (b, cs_explain_state_events[i]);
  for (guint i = 0; cs_explain_wake_events[i] != NULL; i++)
    g_strv_builder_add (b, cs_explain_wake_events[i]);
  g_strv_builder_add (b, "sched:sched_migrate_task");
  return g_strv_builder_end (b);
}

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      GError     **error)
{
  char *msg = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &msg) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", msg);
  sqlite3_free (msg);
  return FALSE;
}

static sqlite3_stmt *
prepare (sqlite3     *db,
         const char  *sql,
         GError     **error)
{
  sqlite3_stmt *s = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (db));
      return NULL;
    }
  return s;
}

/* Runs an INSERT and resets it. */
static gboolean
step (sqlite3       *db,
      sqlite3_stmt  *s,
      GError       **error)
{
  gboolean ok = sqlite3_step (s) == SQLITE_DONE;

  if (!ok)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (db));
  sqlite3_reset (s);
  return ok;
}

static int
compare_worst (gconstpointer a,
               gconstpointer b)
{
  const CsExplainBreakdown *x = a, *y = b;
  gint64 dx = x->b_ns - x->a_ns, dy = y->b_ns - y->a_ns;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x->a_ns < y->a_ns ? -1 : x->a_ns > y->a_ns;
}

/* A pair kept, in the writer's thread: its row and parts, the sums, the
 * worst.  Takes @b's parts. */
static void
write_pair (Blockers           *self,
            CsExplainBreakdown *b)
{
  gint64 id;

  sqlite3_bind_int64 (self->insert_pair, 1, b->pid);
  sqlite3_bind_int64 (self->insert_pair, 2, b->prio);
  sqlite3_bind_int64 (self->insert_pair, 3, b->a_ns);
  sqlite3_bind_int64 (self->insert_pair, 4, b->b_ns);
  sqlite3_bind_int64 (self->insert_pair, 5, b->a_cpu);
  sqlite3_bind_int64 (self->insert_pair, 6, b->b_cpu);
  sqlite3_bind_int64 (self->insert_pair, 7, b->n_cpus_queued);
  sqlite3_bind_int64 (self->insert_pair, 8, b->waker_pid);
  sqlite3_bind_int64 (self->insert_pair, 9, b->waker_flags);
  if (!step (self->db, self->insert_pair, NULL))
    goto fail;
  id = sqlite3_last_insert_rowid (self->db);
  self->n_pairs++;
  for (guint i = 0; i < b->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, i);
      CsExplainContributor *sum = g_hash_table_lookup (self->blockers, c);

      sqlite3_bind_int64 (self->insert_part, 1, id);
      sqlite3_bind_text (self->insert_part, 2, cs_explain_kind_name (c->kind), -1, SQLITE_STATIC);
      sqlite3_bind_int64 (self->insert_part, 3, c->id);
      sqlite3_bind_text (self->insert_part, 4, c->name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (self->insert_part, 5, c->prio);
      sqlite3_bind_int64 (self->insert_part, 6, c->outranks);
      sqlite3_bind_int64 (self->insert_part, 7, c->ns);
      sqlite3_bind_int64 (self->insert_part, 8, c->n_slices);
      if (!step (self->db, self->insert_part, NULL))
        goto fail;
      if (sum == NULL)
        {
          sum = g_new0 (CsExplainContributor, 1);
          *sum = *c;
          sum->ns = 0;
          sum->n_slices = 0;
          sum->n_pairs = 0;
          g_hash_table_add (self->blockers, sum);
        }
      sum->ns += c->ns;
      sum->n_slices += c->n_slices;
      sum->n_pairs++;
    }
  {
    /* With its parts: link 0 of its chain, if it stays among the worst. */
    CsExplainBreakdown kept = *b;

    kept.contributors = g_steal_pointer (&b->contributors);
    kept.slices = NULL;
    g_array_append_val (self->worst, kept);
    if (self->worst->len > 4 * CHAINED)
      {
        g_array_sort (self->worst, compare_worst);
        for (guint i = CHAINED; i < self->worst->len; i++)
          g_array_unref (g_array_index (self->worst, CsExplainBreakdown, i).contributors);
        g_array_set_size (self->worst, CHAINED);
      }
  }
  return;

fail:
  self->error = g_strdup (sqlite3_errmsg (self->db));
  g_atomic_int_set (&self->failed, TRUE);
}

static gpointer
writer_thread (gpointer data)
{
  Blockers *self = data;

  for (;;)
    {
      CsExplainBreakdown *b = g_async_queue_pop (self->queue);

      if (b == WRITER_STOP)
        return NULL;
      /* After a failure the pairs are only dropped: the sweep learns of
       * it at its next event and ends the pass. */
      if (!g_atomic_int_get (&self->failed))
        write_pair (self, b);
      cs_explain_breakdown_free (b);
      g_async_queue_push (self->tokens, TOKEN);
    }
}

/* Waits for the writer to write every pair handed over, and ends it. */
static void
writer_join (Blockers *self)
{
  if (self->writer == NULL)
    return;
  g_async_queue_push (self->queue, WRITER_STOP);
  g_thread_join (g_steal_pointer (&self->writer));
}

/* The tracker's pair, in the sweep's thread: handed to the writer when
 * it lasts the threshold or more (its parts shared, not copied). */
static void
keep_pair (const CsExplainBreakdown *b,
           gpointer                  user_data)
{
  Blockers *self = user_data;
  CsExplainBreakdown *copy;

  if (g_atomic_int_get (&self->failed) || b->b_ns - b->a_ns < self->threshold_ns)
    return;
  copy = g_new (CsExplainBreakdown, 1);
  *copy = *b;
  copy->contributors = g_array_ref (b->contributors);
  copy->slices = NULL;
  g_async_queue_pop (self->tokens);
  g_async_queue_push (self->queue, copy);
}

static void
blockers_free (gpointer state)
{
  Blockers *self = state;

  if (self == NULL)
    return;
  writer_join (self);
  g_clear_pointer (&self->queue, g_async_queue_unref);
  g_clear_pointer (&self->tokens, g_async_queue_unref);
  g_clear_pointer (&self->tracker, cs_explain_tracker_free);
  sqlite3_finalize (self->insert_pair);
  sqlite3_finalize (self->insert_part);
  g_hash_table_unref (self->blockers);
  for (guint i = 0; i < self->worst->len; i++)
    g_clear_pointer (&g_array_index (self->worst, CsExplainBreakdown, i).contributors,
                     g_array_unref);
  g_array_unref (self->worst);
  g_free (self->error);
  g_free (self);
}

static gpointer
blockers_begin (CsPluginPass  *pass,
                GError       **error)
{
  Blockers *self = g_new0 (Blockers, 1);

  self->db = cs_plugin_pass_get_db (pass);
  self->document = cs_plugin_pass_get_document (pass);
  self->blockers = g_hash_table_new_full (_cs_explain_part_hash, _cs_explain_part_equal, g_free,
                                          NULL);
  self->worst = g_array_new (FALSE, FALSE, sizeof (CsExplainBreakdown));
  if (!cs_explain_blockers_parse (cs_plugin_pass_get_param (pass), &self->threshold_ns) ||
      !exec (self->db, blockers_schema, error) ||
      (self->insert_pair = prepare (self->db, "INSERT INTO explain_pair (pid, prio, a_ts, b_ts,"
                                    " a_cpu, b_cpu, n_cpus, waker_pid, waker_flags)"
                                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", error)) == NULL ||
      (self->insert_part = prepare (self->db, "INSERT INTO explain_part VALUES"
                                    " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", error)) == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                             _("the pass blockers takes wakeup>=NS"));
      blockers_free (self);
      return NULL;
    }
  self->queue = g_async_queue_new ();
  self->tokens = g_async_queue_new ();
  for (guint i = 0; i < MAX_QUEUED; i++)
    g_async_queue_push (self->tokens, TOKEN);
  self->writer = g_thread_new ("cs-explain-writer", writer_thread, self);
  self->begin_us = g_get_monotonic_time ();
  self->tracker = cs_explain_tracker_new (cs_plugin_document_get_n_cpus (self->document),
                                          keep_pair, self);
  cs_explain_tracker_set_min_ns (self->tracker, self->threshold_ns);
  return self;
}

static gboolean
blockers_event (gpointer              state,
                const CsPluginEvent  *event,
                GError              **error)
{
  Blockers *self = state;

  cs_explain_tracker_event (self->tracker, event);
  if (g_atomic_int_get (&self->failed))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", self->error);
      return FALSE;
    }
  return TRUE;
}

/* The chains of the worst pairs kept: link 0 as the sweep broke it
 * down, the links after it from the index. */
static gboolean
store_chains (Blockers  *self,
              GError   **error)
{
  sqlite3_stmt *s = prepare (self->db, "INSERT INTO explain_chain SELECT p.id, ?1, ?2, ?3, ?4,"
                             " ?5, ?6, ?7, ?8, ?9 FROM explain_pair AS p"
                             " WHERE p.pid = ?10 AND p.a_ts = ?11 AND p.b_ts = ?12", error);
  gboolean ok = TRUE;

  if (s == NULL)
    return FALSE;
  g_array_sort (self->worst, compare_worst);
  for (guint i = 0; i < MIN (self->worst->len, CHAINED) && ok; i++)
    {
      CsExplainBreakdown *w = &g_array_index (self->worst, CsExplainBreakdown, i);
      CsExplainBreakdown *first = g_new (CsExplainBreakdown, 1);
      CsExplainStop stop = CS_EXPLAIN_STOP_DEPTH;
      GArray *links;

      /* Its parts go to the chain, which frees them. */
      *first = *w;
      w->contributors = NULL;
      links = cs_explain_wakeup_chain_from (self->document, first, CHAIN_DEPTH, FALSE, &stop, NULL);

      /* A chain the index cannot follow is left out, not an error. */
      for (guint k = 0; links != NULL && k < links->len && ok; k++)
        {
          const CsExplainLink *l = &g_array_index (links, CsExplainLink, k);
          g_autofree char *verdict = cs_explain_verdict (l->breakdown);

          sqlite3_bind_int64 (s, 1, l->depth);
          sqlite3_bind_int64 (s, 2, l->breakdown->pid);
          sqlite3_bind_int64 (s, 3, l->breakdown->a_ns);
          sqlite3_bind_int64 (s, 4, l->breakdown->b_ns);
          sqlite3_bind_int64 (s, 5, l->breakdown->a_cpu);
          sqlite3_bind_int64 (s, 6, l->breakdown->b_cpu);
          sqlite3_bind_int64 (s, 7, l->breakdown->waker_pid);
          sqlite3_bind_text (s, 8, verdict, -1, SQLITE_TRANSIENT);
          if (k + 1 == links->len)
            sqlite3_bind_text (s, 9, cs_explain_stop_describe (stop), -1, SQLITE_TRANSIENT);
          else
            sqlite3_bind_null (s, 9);
          sqlite3_bind_int64 (s, 10, w->pid);
          sqlite3_bind_int64 (s, 11, w->a_ns);
          sqlite3_bind_int64 (s, 12, w->b_ns);
          ok = step (self->db, s, error);
        }
      cs_explain_links_free (links);
    }
  sqlite3_finalize (s);
  return ok;
}

static gboolean
blockers_end (gpointer   state,
              GError   **error)
{
  Blockers *self = state;
  sqlite3_stmt *s;
  GHashTableIter iter;
  gpointer value;
  gint64 sweep_us, chains_us;

  writer_join (self);
  sweep_us = g_get_monotonic_time () - self->begin_us;
  if (g_atomic_int_get (&self->failed))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", self->error);
      return FALSE;
    }
  s = prepare (self->db, "INSERT INTO explain_blocker VALUES (?1, ?2, ?3, ?4, ?5, ?6)", error);
  if (s == NULL)
    return FALSE;
  g_hash_table_iter_init (&iter, self->blockers);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const CsExplainContributor *c = value;

      sqlite3_bind_text (s, 1, cs_explain_kind_name (c->kind), -1, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 2, c->id);
      sqlite3_bind_text (s, 3, c->name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (s, 4, c->prio);
      sqlite3_bind_int64 (s, 5, c->ns);
      sqlite3_bind_int64 (s, 6, c->n_pairs);
      if (!step (self->db, s, error))
        {
          sqlite3_finalize (s);
          return FALSE;
        }
    }
  sqlite3_finalize (s);
  chains_us = g_get_monotonic_time ();
  if (!store_chains (self, error))
    return FALSE;
  chains_us = g_get_monotonic_time () - chains_us;
  /* How long the sweep and the chains took, for the command line. */
  s = prepare (self->db, "INSERT INTO explain_timing VALUES (?1, ?2)", error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, sweep_us);
  sqlite3_bind_int64 (s, 2, chains_us);
  if (!step (self->db, s, error))
    {
      sqlite3_finalize (s);
      return FALSE;
    }
  sqlite3_finalize (s);
  return TRUE;
}

/* ------------------------------------------------------------------------ */

/**
 * cs_explain_path_parse:
 * @param: "PID:BEGIN:END:DEPTH", the `critical_path` pass's parameter
 *   (ns; BEGIN and END may be empty for the recording's ends)
 * @pid: (out): PID
 * @begin_ns: (out): BEGIN, or G_MININT64
 * @end_ns: (out): END, or G_MAXINT64
 * @depth: (out): DEPTH
 *
 * Returns: whether @param has that form
 */
gboolean
cs_explain_path_parse (const char *param,
                       gint32     *pid,
                       gint64     *begin_ns,
                       gint64     *end_ns,
                       guint      *depth)
{
  g_auto(GStrv) parts = param != NULL ? g_strsplit (param, ":", -1) : NULL;
  char *end = NULL;

  if (parts == NULL || g_strv_length (parts) != 4)
    return FALSE;
  *pid = g_ascii_strtoll (parts[0], &end, 10);
  if (end == parts[0] || *end != '\0' || *pid <= 0)
    return FALSE;
  *begin_ns = parts[1][0] != '\0' ? g_ascii_strtoll (parts[1], &end, 10) : G_MININT64;
  if (parts[1][0] != '\0' && *end != '\0')
    return FALSE;
  *end_ns = parts[2][0] != '\0' ? g_ascii_strtoll (parts[2], &end, 10) : G_MAXINT64;
  if (parts[2][0] != '\0' && *end != '\0')
    return FALSE;
  *depth = g_ascii_strtoull (parts[3], &end, 10);
  return end != parts[3] && *end == '\0' && *depth > 0 && *end_ns > *begin_ns;
}

typedef struct {
  sqlite3 *db;
  CsPluginDocument *document;
  char *param;
  sqlite3_stmt *insert;         /* into explain_path, once path_end() begins */
} PathPass;

static char **
path_list_events (CsPluginDocument  *document,
                  const char        *param,
                  GError           **error)
{
  gint32 pid;
  gint64 begin_ns, end_ns;
  guint depth;

  if (!cs_explain_path_parse (param, &pid, &begin_ns, &end_ns, &depth))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("“%s” is not a parameter of the pass critical_path (PID:BEGIN:END:DEPTH)"),
                   param != NULL ? param : "");
      return NULL;
    }
  return g_new0 (char *, 1);
}

static void
path_free (gpointer state)
{
  PathPass *self = state;

  if (self == NULL)
    return;
  g_free (self->param);
  g_clear_pointer (&self->insert, sqlite3_finalize);
  g_free (self);
}

static gpointer
path_begin (CsPluginPass  *pass,
            GError       **error)
{
  PathPass *self = g_new0 (PathPass, 1);

  self->db = cs_plugin_pass_get_db (pass);
  self->document = cs_plugin_pass_get_document (pass);
  self->param = g_strdup (cs_plugin_pass_get_param (pass));
  if (!exec (self->db, "CREATE TABLE explain_path (begin_ns INTEGER, end_ns INTEGER,"
             " pid INTEGER, state TEXT, cpu INTEGER, depth INTEGER)", error))
    {
      path_free (self);
      return NULL;
    }
  return self;
}

static gboolean
path_event (gpointer              state,
            const CsPluginEvent  *event,
            GError              **error)
{
  return TRUE;
}

/* Writes a segment of the path as the walk finds it (CsExplainPathFunc). */
static gboolean
insert_segment (const CsExplainPathSegment  *seg,
                gpointer                     user_data,
                GError                     **error)
{
  PathPass *self = user_data;

  sqlite3_bind_int64 (self->insert, 1, seg->begin_ns);
  sqlite3_bind_int64 (self->insert, 2, seg->end_ns);
  sqlite3_bind_int64 (self->insert, 3, seg->pid);
  sqlite3_bind_text (self->insert, 4, cs_explain_path_state_name (seg->state), -1,
                     SQLITE_STATIC);
  sqlite3_bind_int64 (self->insert, 5, seg->cpu);
  sqlite3_bind_int64 (self->insert, 6, seg->depth);
  return step (self->db, self->insert, error);
}

static gboolean
path_end (gpointer   state,
          GError   **error)
{
  PathPass *self = state;
  gint32 pid;
  gint64 begin_ns, end_ns;
  guint depth;

  if (!cs_explain_path_parse (self->param, &pid, &begin_ns, &end_ns, &depth))
    return TRUE;
  begin_ns = MAX (begin_ns, cs_plugin_document_get_first_ns (self->document));
  end_ns = MIN (end_ns, cs_plugin_document_get_last_ns (self->document) + 1);
  if (end_ns <= begin_ns)
    return TRUE;
  self->insert = prepare (self->db, "INSERT INTO explain_path VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                          error);
  return self->insert != NULL &&
         cs_explain_critical_path_foreach (self->document, pid, begin_ns, end_ns, depth,
                                           insert_segment, self, error);
}

/**
 * cs_explain_pass_register:
 * @plugin: the latency plugin, in its init
 *
 * Registers the passes `blockers` and `critical_path` and the SQL tables
 * latency_breakdown (every part of every wakeup pair at or above the
 * threshold), latency_blockers (their sum per contributor), wakeup_chain
 * (the chains of the worst of them) and critical_path.
 */
void
cs_explain_pass_register (CsPlugin *plugin)
{
  static const CsPluginPassInfo blockers = {
    .struct_size = sizeof (CsPluginPassInfo),
    .name = CS_EXPLAIN_BLOCKERS_PASS,
    .version = BLOCKERS_VERSION,
    .list_events = blockers_list_events,
    .begin = blockers_begin,
    .event = blockers_event,
    .end = blockers_end,
    .free = blockers_free,
  };
  static const CsPluginPassInfo path = {
    .struct_size = sizeof (CsPluginPassInfo),
    .name = CS_EXPLAIN_PATH_PASS,
    .version = PATH_VERSION,
    .list_events = path_list_events,
    .begin = path_begin,
    .event = path_event,
    .end = path_end,
    .free = path_free,
  };
  static const CsPluginSqlTableInfo breakdown_table = {
    .struct_size = sizeof (CsPluginSqlTableInfo),
    .name = "latency_breakdown",
    .pass = CS_EXPLAIN_BLOCKERS_PASS,
    .param_column = "selection",
    .columns = "ts INTEGER, b_ts INTEGER, duration_ns INTEGER, pid INTEGER, prio INTEGER,"
               " cpu INTEGER, b_cpu INTEGER, waker_pid INTEGER, kind TEXT,"
               " contributor_id INTEGER, contributor TEXT, contributor_prio INTEGER,"
               " outranks INTEGER, ns INTEGER, n_slices INTEGER",
    .select = "SELECT p.a_ts, p.b_ts, p.b_ts - p.a_ts, p.pid, p.prio, p.a_cpu, p.b_cpu,"
              " p.waker_pid, x.kind, x.id, x.name, x.prio, x.outranks, x.ns, x.n_slices"
              " FROM explain_part AS x JOIN explain_pair AS p ON p.id = x.pair",
    .how_to_compute = N_("compute them first with `chronoscope latency FILE --preset wakeup "
                         "--blockers` (the selection is then wakeup>=NS, NS the p99)"),
  };
  static const CsPluginSqlTableInfo blockers_table = {
    .struct_size = sizeof (CsPluginSqlTableInfo),
    .name = "latency_blockers",
    .pass = CS_EXPLAIN_BLOCKERS_PASS,
    .param_column = "selection",
    .columns = "kind TEXT, contributor_id INTEGER, contributor TEXT, prio INTEGER,"
               " total_ns INTEGER, n_pairs INTEGER",
    .select = "SELECT kind, id, name, prio, total_ns, n_pairs FROM explain_blocker",
    .how_to_compute = N_("compute them first with `chronoscope latency FILE --preset wakeup "
                         "--blockers`"),
  };
  static const CsPluginSqlTableInfo chain_table = {
    .struct_size = sizeof (CsPluginSqlTableInfo),
    .name = "wakeup_chain",
    .pass = CS_EXPLAIN_BLOCKERS_PASS,
    .param_column = "selection",
    .columns = "pair_ts INTEGER, pair_pid INTEGER, depth INTEGER, pid INTEGER, ts INTEGER,"
               " b_ts INTEGER, duration_ns INTEGER, cpu INTEGER, b_cpu INTEGER,"
               " waker_pid INTEGER, verdict TEXT, stop TEXT",
    .select = "SELECT p.a_ts, p.pid, c.depth, c.pid, c.a_ts, c.b_ts, c.b_ts - c.a_ts, c.a_cpu,"
              " c.b_cpu, c.waker_pid, c.verdict, c.stop"
              " FROM explain_chain AS c JOIN explain_pair AS p ON p.id = c.pair",
    .how_to_compute = N_("compute them first with `chronoscope latency FILE --preset wakeup "
                         "--blockers` (chains of the 8 worst pairs)"),
  };
  static const CsPluginSqlTableInfo path_table = {
    .struct_size = sizeof (CsPluginSqlTableInfo),
    .name = "critical_path",
    .pass = CS_EXPLAIN_PATH_PASS,
    .param_column = "request",
    .columns = "ts INTEGER, end_ns INTEGER, duration_ns INTEGER, pid INTEGER, state TEXT,"
               " cpu INTEGER, depth INTEGER",
    .select = "SELECT begin_ns, end_ns, end_ns - begin_ns, pid, state, cpu, depth"
              " FROM explain_path",
    .how_to_compute = N_("compute it first with `chronoscope critical-path FILE --pid PID` "
                         "(the request is then PID:BEGIN:END:DEPTH)"),
  };

  cs_plugin_add_pass (plugin, &blockers);
  cs_plugin_add_pass (plugin, &path);
  cs_plugin_add_sql_table (plugin, &breakdown_table);
  cs_plugin_add_sql_table (plugin, &blockers_table);
  cs_plugin_add_sql_table (plugin, &chain_table);
  cs_plugin_add_sql_table (plugin, &path_table);
}
