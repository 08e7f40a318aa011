/* cs-atrace-pass.c: the atrace pass, every marker's slice and counter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over atrace:tracing_mark_write, in time
 * order.  Fields (index/import/ gives them): kind (the marker's letter:
 * 'B', 'E', 'C', 'S', 'F'; anything else is not a marker and is skipped;
 * the first character of buf where a recording has no kind field), tgid,
 * name, value (C's value, S/F's cookie), buf (the text as written).
 *
 * - B opens a slice on the event's task (its pid), one level deeper than
 *   the task's open slices; E closes the task's innermost open slice (an E
 *   whose task has none open is counted in meta.orphan_ends and skipped).
 *   A slice still open at the end closes at the recording's last event
 *   (closed = 0).
 * - S opens an async slice keyed by (tgid, name, cookie); F with the same
 *   key closes it.  One still open at the end closes there too.
 * - C is a counter sample (tgid, name, ts, value).
 * - Every marker with a tgid records which process its task (pid) belongs
 *   to, so that a task plot finds its process's counters.
 *
 * Memory is bounded by the tasks and open keys, never by the events: one
 * stack of open slices per pid (at most MAX_DEPTH deep: deeper Bs are
 * counted in meta.too_deep and skipped, with their Es) and one entry per
 * open async key, one entry per task that wrote markers; each slice is
 * inserted as it closes.
 *
 * Tables:
 *   slice   (pid, tgid, depth, begin_ns, end_ns, name, closed)
 *   async   (tgid, name, cookie, begin_ns, end_ns, closed)
 *   counter (tgid, name, ts_ns, value)
 *   counter_name (tgid, name, samples, min, max): one per counter, made
 *           at the end, so that drawing a counter never reads all its
 *           samples for its range
 *   thread  (pid, tgid): the process of each task that wrote a marker
 *   meta    (key, value): orphan_ends, too_deep
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-atrace-private.h"

/* Nesting deeper than this is not an app's tracing but a lost E. */
#define MAX_DEPTH 256

typedef struct {
  gint64 begin_ns;
  gint64 tgid;
  char *name;
} Frame;

typedef struct {
  gint64 begin_ns;
  gint64 tgid;
  gint64 cookie;
  char *name;
} Async;

typedef struct {
  CsPluginDocument *document;
  sqlite3 *db;
  sqlite3_stmt *insert_slice;
  sqlite3_stmt *insert_async;
  sqlite3_stmt *insert_counter;
  GHashTable *stacks;   /* pid -> GArray of Frame */
  GHashTable *asyncs;   /* "tgid|cookie|name" -> Async */
  GHashTable *skipped;  /* pid -> number of Bs beyond MAX_DEPTH still open */
  GHashTable *threads;  /* pid -> tgid of its markers */
  gint64 orphan_ends;
  gint64 too_deep;
} AtracePass;

static const char *const atrace_events[] = { "atrace:tracing_mark_write", NULL };

static gboolean
sql_failed (sqlite3  *db,
            GError  **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               "atrace pass: %s", sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
step (sqlite3_stmt  *stmt,
      GError       **error)
{
  gboolean ok = sqlite3_step (stmt) == SQLITE_DONE;

  if (!ok)
    sql_failed (sqlite3_db_handle (stmt), error);
  sqlite3_reset (stmt);
  return ok;
}

static void
frame_clear (gpointer data)
{
  g_free (((Frame *) data)->name);
}

static void
async_free (gpointer data)
{
  Async *a = data;

  g_free (a->name);
  g_free (a);
}

static void
atrace_pass_free (gpointer state)
{
  AtracePass *ap = state;

  if (ap == NULL)
    return;
  g_clear_pointer (&ap->insert_slice, sqlite3_finalize);
  g_clear_pointer (&ap->insert_async, sqlite3_finalize);
  g_clear_pointer (&ap->insert_counter, sqlite3_finalize);
  g_hash_table_unref (ap->stacks);
  g_hash_table_unref (ap->asyncs);
  g_hash_table_unref (ap->skipped);
  g_hash_table_unref (ap->threads);
  g_free (ap);
}

static gpointer
atrace_pass_begin (CsPluginPass  *pass,
                   GError       **error)
{
  AtracePass *ap = g_new0 (AtracePass, 1);
  char *message = NULL;

  ap->document = cs_plugin_pass_get_document (pass);
  ap->db = cs_plugin_pass_get_db (pass);
  ap->stacks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                      (GDestroyNotify) g_array_unref);
  ap->asyncs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, async_free);
  ap->skipped = g_hash_table_new (g_direct_hash, g_direct_equal);
  ap->threads = g_hash_table_new (g_direct_hash, g_direct_equal);
  if (sqlite3_exec (ap->db,
                    "CREATE TABLE slice (pid INTEGER NOT NULL, tgid INTEGER NOT NULL, "
                    "  depth INTEGER NOT NULL, begin_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, "
                    "  name TEXT NOT NULL, closed INTEGER NOT NULL);"
                    "CREATE TABLE async (tgid INTEGER NOT NULL, name TEXT NOT NULL, "
                    "  cookie INTEGER NOT NULL, begin_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, "
                    "  closed INTEGER NOT NULL);"
                    "CREATE TABLE counter (tgid INTEGER NOT NULL, name TEXT NOT NULL, "
                    "  ts_ns INTEGER NOT NULL, value INTEGER NOT NULL);"
                    "CREATE TABLE thread (pid INTEGER PRIMARY KEY, tgid INTEGER NOT NULL);"
                    "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);",
                    NULL, NULL, &message) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace pass: %s", message);
      sqlite3_free (message);
      goto fail;
    }
  if (sqlite3_prepare_v2 (ap->db, "INSERT INTO slice VALUES (?, ?, ?, ?, ?, ?, ?)", -1,
                          &ap->insert_slice, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (ap->db, "INSERT INTO async VALUES (?, ?, ?, ?, ?, ?)", -1,
                          &ap->insert_async, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (ap->db, "INSERT INTO counter VALUES (?, ?, ?, ?)", -1,
                          &ap->insert_counter, NULL) != SQLITE_OK)
    {
      sql_failed (ap->db, error);
      goto fail;
    }
  return ap;

fail:
  atrace_pass_free (ap);
  return NULL;
}

static GArray *
stack_for (AtracePass *ap,
           gint32      pid)
{
  GArray *stack = g_hash_table_lookup (ap->stacks, GINT_TO_POINTER (pid));

  if (stack == NULL)
    {
      stack = g_array_new (FALSE, TRUE, sizeof (Frame));
      g_array_set_clear_func (stack, frame_clear);
      g_hash_table_insert (ap->stacks, GINT_TO_POINTER (pid), stack);
    }
  return stack;
}

/* Inserts the innermost open slice of @pid's @stack, ending at @end_ns,
 * and pops it. */
static gboolean
close_slice (AtracePass  *ap,
             gint32       pid,
             GArray      *stack,
             gint64       end_ns,
             gboolean     closed,
             GError     **error)
{
  guint depth = stack->len - 1;
  Frame *frame = &g_array_index (stack, Frame, depth);

  sqlite3_bind_int64 (ap->insert_slice, 1, pid);
  sqlite3_bind_int64 (ap->insert_slice, 2, frame->tgid);
  sqlite3_bind_int64 (ap->insert_slice, 3, depth);
  sqlite3_bind_int64 (ap->insert_slice, 4, frame->begin_ns);
  sqlite3_bind_int64 (ap->insert_slice, 5, MAX (end_ns, frame->begin_ns));
  sqlite3_bind_text (ap->insert_slice, 6, frame->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (ap->insert_slice, 7, closed);
  g_array_set_size (stack, depth);
  return step (ap->insert_slice, error);
}

static gboolean
on_begin (AtracePass          *ap,
          const CsPluginEvent *event,
          gint64               tgid,
          char                *name)
{
  GArray *stack = stack_for (ap, event->pid);
  gpointer key = GINT_TO_POINTER (event->pid);
  Frame frame = { event->ts_ns, tgid, name };

  if (stack->len >= MAX_DEPTH)
    {
      ap->too_deep++;
      g_hash_table_insert (ap->skipped, key,
                           GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (ap->skipped, key)) + 1));
      g_free (name);
      return TRUE;
    }
  g_array_append_val (stack, frame);
  return TRUE;
}

static gboolean
on_end (AtracePass          *ap,
        const CsPluginEvent *event,
        GError             **error)
{
  GArray *stack = g_hash_table_lookup (ap->stacks, GINT_TO_POINTER (event->pid));
  gpointer key = GINT_TO_POINTER (event->pid);
  gint skipped = GPOINTER_TO_INT (g_hash_table_lookup (ap->skipped, key));

  if (skipped > 0)
    {
      g_hash_table_insert (ap->skipped, key, GINT_TO_POINTER (skipped - 1));
      return TRUE;
    }
  if (stack == NULL || stack->len == 0)
    {
      ap->orphan_ends++;
      return TRUE;
    }
  return close_slice (ap, event->pid, stack, event->ts_ns, TRUE, error);
}

static gboolean
insert_async (AtracePass   *ap,
              const Async  *a,
              gint64        end_ns,
              gboolean      closed,
              GError      **error)
{
  sqlite3_bind_int64 (ap->insert_async, 1, a->tgid);
  sqlite3_bind_text (ap->insert_async, 2, a->name, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (ap->insert_async, 3, a->cookie);
  sqlite3_bind_int64 (ap->insert_async, 4, a->begin_ns);
  sqlite3_bind_int64 (ap->insert_async, 5, MAX (end_ns, a->begin_ns));
  sqlite3_bind_int (ap->insert_async, 6, closed);
  return step (ap->insert_async, error);
}

static gboolean
on_async (AtracePass          *ap,
          const CsPluginEvent *event,
          gboolean             start,
          gint64               tgid,
          char                *name,
          gint64               cookie,
          GError             **error)
{
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%s",
                                          tgid, cookie, name);
  Async *a;
  gboolean ok = TRUE;

  if (start)
    {
      a = g_new0 (Async, 1);
      *a = (Async) { event->ts_ns, tgid, cookie, name };
      /* A second S for an open key restarts it. */
      g_hash_table_replace (ap->asyncs, g_steal_pointer (&key), a);
      return TRUE;
    }
  a = g_hash_table_lookup (ap->asyncs, key);
  if (a != NULL)
    {
      ok = insert_async (ap, a, event->ts_ns, TRUE, error);
      g_hash_table_remove (ap->asyncs, key);
    }
  g_free (name);
  return ok;
}

static gboolean
on_counter (AtracePass          *ap,
            const CsPluginEvent *event,
            gint64               tgid,
            char                *name,
            gint64               value,
            GError             **error)
{
  sqlite3_bind_int64 (ap->insert_counter, 1, tgid);
  sqlite3_bind_text (ap->insert_counter, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (ap->insert_counter, 3, event->ts_ns);
  sqlite3_bind_int64 (ap->insert_counter, 4, value);
  g_free (name);
  return step (ap->insert_counter, error);
}

static gboolean
atrace_pass_event (gpointer             state,
                   const CsPluginEvent *event,
                   GError             **error)
{
  AtracePass *ap = state;
  gint64 kind = 0, tgid = 0, value = 0;
  char *name;

  if (!cs_plugin_event_get_int (event, "kind", &kind))
    {
      g_autofree char *buf = cs_plugin_event_dup_string (event, "buf");

      kind = buf != NULL ? buf[0] : 0;
    }
  if (cs_plugin_event_get_int (event, "tgid", &tgid) && tgid > 0 && event->pid > 0)
    g_hash_table_insert (ap->threads, GINT_TO_POINTER (event->pid), GINT_TO_POINTER ((gint32) tgid));
  if (kind == 'E')
    return on_end (ap, event, error);
  if (kind != 'B' && kind != 'C' && kind != 'S' && kind != 'F')
    return TRUE;   /* trace_event_clock_sync: and other writes */
  cs_plugin_event_get_int (event, "value", &value);
  name = cs_plugin_event_dup_string (event, "name");
  if (name == NULL)
    name = g_strdup ("");
  switch (kind)
    {
    case 'B':
      return on_begin (ap, event, tgid, name);
    case 'C':
      return on_counter (ap, event, tgid, name, value, error);
    default:
      return on_async (ap, event, kind == 'S', tgid, name, value, error);
    }
}

static gboolean
put_meta (AtracePass  *ap,
          const char  *key,
          gint64       value,
          GError     **error)
{
  g_autofree char *sql = g_strdup_printf ("INSERT INTO meta VALUES ('%s', %" G_GINT64_FORMAT ")",
                                          key, value);

  if (sqlite3_exec (ap->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return sql_failed (ap->db, error);
  return TRUE;
}

static gboolean
put_threads (AtracePass  *ap,
             GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  gpointer pid, tgid;
  gboolean ok = TRUE;

  if (sqlite3_prepare_v2 (ap->db, "INSERT INTO thread VALUES (?, ?)", -1, &stmt, NULL) != SQLITE_OK)
    return sql_failed (ap->db, error);
  g_hash_table_iter_init (&iter, ap->threads);
  while (ok && g_hash_table_iter_next (&iter, &pid, &tgid))
    {
      sqlite3_bind_int64 (stmt, 1, GPOINTER_TO_INT (pid));
      sqlite3_bind_int64 (stmt, 2, GPOINTER_TO_INT (tgid));
      ok = step (stmt, error);
    }
  sqlite3_finalize (stmt);
  return ok;
}

/* What is still open ends at the recording's last event; then the
 * figures and the indexes. */
static gboolean
atrace_pass_end (gpointer   state,
                 GError   **error)
{
  AtracePass *ap = state;
  gint64 last = cs_plugin_document_get_last_ns (ap->document);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, ap->stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *stack = value;

      while (stack->len > 0)
        if (!close_slice (ap, GPOINTER_TO_INT (key), stack, last, FALSE, error))
          return FALSE;
    }
  g_hash_table_iter_init (&iter, ap->asyncs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (!insert_async (ap, value, last, FALSE, error))
      return FALSE;
  if (!put_threads (ap, error) ||
      !put_meta (ap, "orphan_ends", ap->orphan_ends, error) ||
      !put_meta (ap, "too_deep", ap->too_deep, error))
    return FALSE;
  if (sqlite3_exec (ap->db,
                    "CREATE INDEX slice_span ON slice (pid, depth, begin_ns);"
                    "CREATE INDEX slice_name ON slice (name);"
                    "CREATE INDEX counter_span ON counter (tgid, name, ts_ns);"
                    "CREATE INDEX async_span ON async (tgid, begin_ns);"
                    "CREATE TABLE counter_name AS SELECT tgid, name, count(*) AS samples, "
                    "  min(value) AS min, max(value) AS max FROM counter GROUP BY tgid, name;"
                    "CREATE INDEX counter_name_key ON counter_name (tgid, name);",
                    NULL, NULL, NULL) != SQLITE_OK)
    return sql_failed (ap->db, error);
  return TRUE;
}

static const CsPluginPassInfo atrace_pass = {
  .struct_size = sizeof (CsPluginPassInfo),
  .name = CS_ATRACE_PASS,
  .version = 2,   /* 2: the tables thread and counter_name, the index async_span */
  .automatic = FALSE,
  .events = atrace_events,
  .begin = atrace_pass_begin,
  .event = atrace_pass_event,
  .end = atrace_pass_end,
  .free = atrace_pass_free,
};

/**
 * _cs_atrace_add_pass:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the pass "marks" (see the top of this file), which the
 * command asks for when the recording has atrace markers.
 */
void
_cs_atrace_add_pass (CsPlugin *plugin)
{
  cs_plugin_add_pass (plugin, &atrace_pass);
}
