/* census.c: a test plugin that counts what its pass receives.
 *
 * `chronoscope census FILE TYPES` runs the pass "census" with TYPES (a
 * comma-separated list of "system:name" or "system:*") as its parameter,
 * in the worker, through cs_plugin_cli_open() and
 * cs_plugin_document_ensure_pass(), then prints from the pass's own
 * database, as JSON:
 *
 *   {"n_events": N, "cpus": {"0": n, ...}, "events": {"sched:sched_switch": n, ...},
 *    "ordered": true, "first_ns": T, "last_ns": T}
 *
 * "ordered" says every event came at or after the one before (ties in CPU
 * order), as cs-plugin-pass.h promises.  tests/plugins/check-pass.py
 * compares it with `trace-cmd report`.  An empty TYPES is a usage error
 * (CS_PLUGIN_ERROR_USAGE from list_events): the command then exits 2.
 *
 * The pass's prepare registers the SQL function census_zero() on each
 * connection the host opens on its database; the pass writes its summary
 * and the command reads it through that function, so a connection the
 * host did not prepare fails the command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chronoscope-plugin-core.h>

typedef struct {
  sqlite3 *db;
  GHashTable *counts;       /* "cpu\tsystem:name" -> count (in the pointer) */
  gint64 last_ts;
  guint last_cpu;
  gboolean ordered;
  gint64 first_ns;
} Census;

static char **
census_list_events (CsPluginDocument  *document,
                    const char        *param,
                    GError           **error)
{
  if (param == NULL || *param == '\0')
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                           "census needs a list of event types");
      return NULL;
    }
  return g_strsplit (param, ",", -1);
}

static gpointer
census_begin (CsPluginPass  *pass,
              GError       **error)
{
  Census *c = g_new0 (Census, 1);

  c->db = cs_plugin_pass_get_db (pass);
  c->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->ordered = TRUE;
  c->last_ts = G_MININT64;
  c->first_ns = -1;
  if (sqlite3_exec (c->db, "CREATE TABLE census (cpu INTEGER, type TEXT, n INTEGER);"
                           "CREATE TABLE summary (ordered INTEGER, first_ns INTEGER,"
                           " last_ns INTEGER);", NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (c->db));
      g_hash_table_unref (c->counts);
      g_free (c);
      return NULL;
    }
  return c;
}

static gboolean
census_event (gpointer              state,
              const CsPluginEvent  *event,
              GError              **error)
{
  Census *c = state;
  g_autofree char *key = g_strdup_printf ("%u\t%s:%s", event->cpu, event->system, event->name);
  gpointer n = g_hash_table_lookup (c->counts, key);

  if (event->ts_ns < c->last_ts || (event->ts_ns == c->last_ts && event->cpu < c->last_cpu))
    c->ordered = FALSE;
  if (c->first_ns < 0)
    c->first_ns = event->ts_ns;
  c->last_ts = event->ts_ns;
  c->last_cpu = event->cpu;
  g_hash_table_insert (c->counts, g_steal_pointer (&key), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (n) + 1));
  return TRUE;
}

static gboolean
census_end (gpointer   state,
            GError   **error)
{
  Census *c = state;
  sqlite3_stmt *s = NULL;
  GHashTableIter iter;
  gpointer key, value;

  sqlite3_prepare_v2 (c->db, "INSERT INTO census VALUES (?1, ?2, ?3)", -1, &s, NULL);
  g_hash_table_iter_init (&iter, c->counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *tab = strchr (key, '\t');

      sqlite3_bind_int (s, 1, atoi (key));
      sqlite3_bind_text (s, 2, tab + 1, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 3, (gint64) GPOINTER_TO_SIZE (value));
      sqlite3_step (s);
      sqlite3_reset (s);
    }
  sqlite3_finalize (s);
  sqlite3_prepare_v2 (c->db, "INSERT INTO summary VALUES (?1 + census_zero (), ?2, ?3)", -1, &s, NULL);
  sqlite3_bind_int (s, 1, c->ordered);
  sqlite3_bind_int64 (s, 2, c->first_ns);
  sqlite3_bind_int64 (s, 3, c->last_ts);
  if (sqlite3_step (s) != SQLITE_DONE)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (c->db));
      sqlite3_finalize (s);
      return FALSE;
    }
  sqlite3_finalize (s);
  return TRUE;
}

static void
census_zero (sqlite3_context  *ctx,
             int               argc,
             sqlite3_value   **argv)
{
  sqlite3_result_int (ctx, 0);
}

static gboolean
census_prepare (sqlite3  *db,
                GError  **error)
{
  if (sqlite3_create_function_v2 (db, "census_zero", 0, SQLITE_UTF8, NULL, census_zero, NULL,
                                  NULL, NULL) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (db));
  return FALSE;
}

static void
census_free (gpointer state)
{
  Census *c = state;

  if (c == NULL)
    return;
  g_hash_table_unref (c->counts);
  g_free (c);
}

static void
print_counts (sqlite3    *db,
              const char *member,
              const char *sql)
{
  sqlite3_stmt *s = NULL;
  const char *sep = "";

  printf (", \"%s\": {", member);
  sqlite3_prepare_v2 (db, sql, -1, &s, NULL);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      printf ("%s\"%s\": %lld", sep, (const char *) sqlite3_column_text (s, 0),
              (long long) sqlite3_column_int64 (s, 1));
      sep = ", ";
    }
  sqlite3_finalize (s);
  printf ("}");
}

static int
census_run (CsPlugin  *plugin,
            int        argc,
            char     **argv)
{
  g_autoptr(GError) error = NULL;
  CsPluginDocument *document;
  sqlite3 *db;
  sqlite3_stmt *s = NULL;

  if (argc != 3)
    {
      fprintf (stderr, "usage: chronoscope census FILE TYPES\n");
      return 1;
    }
  document = cs_plugin_cli_open (plugin, argv[1], &error);
  if (document == NULL ||
      !cs_plugin_document_ensure_pass (document, plugin, "census", argv[2], NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (document, plugin, "census", argv[2], &error)) == NULL)
    {
      fprintf (stderr, "chronoscope census: %s\n", error->message);
      if (document != NULL)
        cs_plugin_document_unref (document);
      /* 2: the API's usage error reached the command. */
      return g_error_matches (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE) ? 2 : 1;
    }
  sqlite3_prepare_v2 (db, "SELECT (SELECT coalesce(sum(n), 0) FROM census) + census_zero (),"
                          " ordered, first_ns, last_ns FROM summary", -1, &s, NULL);
  if (sqlite3_step (s) == SQLITE_ROW)
    printf ("{\"n_events\": %lld, \"ordered\": %s, \"first_ns\": %lld, \"last_ns\": %lld",
            (long long) sqlite3_column_int64 (s, 0), sqlite3_column_int (s, 1) ? "true" : "false",
            (long long) sqlite3_column_int64 (s, 2), (long long) sqlite3_column_int64 (s, 3));
  sqlite3_finalize (s);
  print_counts (db, "cpus", "SELECT cpu, sum(n) FROM census GROUP BY cpu ORDER BY cpu");
  print_counts (db, "events", "SELECT type, sum(n) FROM census GROUP BY type ORDER BY type");
  printf ("}\n");
  cs_plugin_document_unref (document);
  return 0;
}

static gboolean
census_init (CsPlugin  *plugin,
             GError   **error)
{
  static const CsPluginPassInfo pass = {
    sizeof pass, "census", 1, FALSE, NULL, census_list_events, census_begin, census_event,
    census_end, census_free, census_prepare,
  };
  static const CsPluginCommandInfo command = {
    sizeof command, "census", "Count what a plugin pass receives (tests)", census_run,
  };

  cs_plugin_add_pass (plugin, &pass);
  cs_plugin_add_command (plugin, &command);
  return TRUE;
}

CS_PLUGIN_DEFINE ("census", "Census", "Counts the events its pass receives (tests)", "1",
                  census_init)
