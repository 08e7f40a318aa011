/* test-sql-spans.c: the event tables over a span of time, TABLE(BEGIN,
 * END), and the WHERE clauses on ts that the count rewrite turns into one
 * (index/sql/cs-sql-count-rewrite.c, cs-sql-event-plan.c): their rows and
 * counts must be those SQLite finds by stepping through every row.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cs-document.h"
#include "cs-sql-private.h"
#include "cs-sql-session.h"
#include "index-test-util.h"
#include "sql-test-util.h"

static gboolean
is_events (const char *name,
           gpointer    user_data)
{
  return g_str_equal (name, "events") || (user_data != NULL && g_str_equal (name, user_data));
}

/* What the rewrite makes of a WHERE on ts, and what it leaves. */
static void
test_rewrite_shapes (void)
{
  static const struct {
    const char *sql;
    const char *rewritten;
  } shapes[] = {
    { "SELECT system, name, count(*) FROM events WHERE cpu = 1 AND ts >= 5 AND ts < 10 GROUP BY system, name",
      "SELECT system, name, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(5, 10) WHERE cpu = 1 GROUP BY system, name" },
    { "SELECT count(*) FROM events WHERE ts BETWEEN 5 AND 9 AND cpu BETWEEN 0 AND 1",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(5, 10) WHERE cpu BETWEEN 0 AND 1" },
    { "SELECT count(*) FROM events WHERE 5 <= ts AND 7 > \"TS\" AND ts > 5",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(6, 7)" },
    { "SELECT count(*) FROM events WHERE ts == 4 AND 4 == ts",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(4, 5)" },
    { "SELECT count(*) FROM events WHERE ts = -3",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(-3, -2)" },
    { "SELECT count(*) FROM events WHERE ts > 9223372036854775807",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(0, 0)" },
    { "SELECT count(*) FROM events WHERE ts <= 9223372036854775807 AND ts >= 1",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(1, NULL)" },
    { "SELECT cpu, count(*) FROM events WHERE ts < 8 GROUP BY cpu ORDER BY count(*) DESC",
      "SELECT cpu, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(NULL, 8) GROUP BY cpu ORDER BY ifnull(sum(_cs_n), 0) DESC" },
    /* Table arguments as written; the WHERE then stays. */
    { "SELECT count(*) FROM events(1, 2) WHERE ts > 5",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(1, 2) WHERE ts > 5" },
    /* Not one term of the top-level AND, or not an integer: kept. */
    { "SELECT count(*) FROM events WHERE ts > 1 OR cpu = 1",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts > 1 OR cpu = 1" },
    { "SELECT count(*) FROM events WHERE CASE WHEN cpu = 1 AND ts > 5 THEN 1 ELSE 0 END",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE CASE WHEN cpu = 1 AND ts > 5 THEN 1 ELSE 0 END" },
    { "SELECT count(*) FROM events WHERE NOT ts > 5 AND cpu = 1",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE NOT ts > 5 AND cpu = 1" },
    { "SELECT count(*) FROM events WHERE ts >= 1.5 AND ts > 5 - 1 AND ts > 0x10 AND ts < 5 IS 1",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts >= 1.5 AND ts > 5 - 1 AND ts > 0x10 AND ts < 5 IS 1" },
    { "SELECT count(*) FROM events WHERE ts > 99999999999999999999",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts > 99999999999999999999" },
    { "SELECT count(*) FROM events WHERE (ts > 5) AND cpu = 0",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE (ts > 5) AND cpu = 0" },
    /* Not SQL: the WHERE stays for SQLite to say so. */
    { "SELECT count(*) FROM events WHERE ts > 5 AND",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts > 5 AND" },
    { "SELECT count(*) FROM events WHERE ts > 5 AND AND cpu = 0",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts > 5 AND AND cpu = 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *sql = _cs_sql_rewrite_counts (shapes[i].sql, is_events, NULL);

      if (g_strcmp0 (sql, shapes[i].rewritten) != 0)
        g_error ("%s\nbecame %s\nnot %s", shapes[i].sql, sql, shapes[i].rewritten);
    }
}

/* A fast query (counted over a span, or a span's scan) and the same
 * question in a form that SQLite answers row by row.  %T is the table,
 * %B and %E the span's begin and end, %L its last nanosecond. */
static const struct {
  const char *fast;
  const char *plain;
} span_pairs[] = {
  { "SELECT cpu, count(*) FROM %T WHERE ts >= %B AND ts < %E GROUP BY cpu",
    "SELECT cpu, count(*) FROM (SELECT cpu FROM %T WHERE ts + 0 >= %B AND ts < %E) GROUP BY cpu" },
  { "SELECT comm, pid, count(*) AS n FROM %T WHERE %B <= ts AND cpu = 0 AND ts < %E GROUP BY comm, pid ORDER BY n DESC, pid",
    "SELECT comm, pid, count(*) AS n FROM (SELECT comm, pid FROM %T WHERE ts + 0 >= %B AND cpu = 0 AND ts < %E) GROUP BY comm, pid ORDER BY n DESC, pid" },
  { "SELECT count(*) FROM %T WHERE ts BETWEEN %B AND %L",
    "SELECT count(*) FROM (SELECT ts FROM %T WHERE ts + 0 BETWEEN %B AND %L)" },
  { "SELECT count(*) FROM %T WHERE ts >= %B",
    "SELECT count(*) FROM (SELECT ts FROM %T WHERE ts + 0 >= %B)" },
  { "SELECT cpu, count(*) FROM %T(NULL, %E) GROUP BY cpu ORDER BY cpu DESC",
    "SELECT cpu, count(*) FROM (SELECT cpu FROM %T WHERE ts + 0 < %E) GROUP BY cpu ORDER BY cpu DESC" },
  { "SELECT ts, cpu, pid, comm FROM %T(%B, %E) ORDER BY ts, cpu",
    "SELECT ts, cpu, pid, comm FROM %T WHERE ts + 0 >= %B AND ts < %E ORDER BY ts, cpu" },
  { "SELECT ts, cpu FROM %T(%B, %E) WHERE pid > 0",
    "SELECT ts, cpu FROM %T WHERE ts + 0 >= %B AND ts < %E AND pid > 0" },
  { "SELECT count(*) FROM (SELECT %B AS b, %E AS e) AS s, %T(s.b, s.e)",
    "SELECT count(*) FROM (SELECT ts FROM %T WHERE ts + 0 >= %B AND ts < %E)" },
  { "SELECT count(*) FROM %T(%B.5, %E.5)",
    "SELECT count(*) FROM (SELECT ts FROM %T WHERE ts + 0 >= %B.5 AND ts < %E.5)" },
};

/* events only: by type. */
static const struct {
  const char *fast;
  const char *plain;
} type_pairs[] = {
  { "SELECT system, name, count(*) FROM events WHERE ts >= %B AND ts < %E GROUP BY system, name ORDER BY 3 DESC, 1, 2",
    "SELECT system, name, count(*) FROM (SELECT system, name FROM events WHERE ts + 0 >= %B AND ts < %E) GROUP BY system, name ORDER BY 3 DESC, 1, 2" },
  { "SELECT cpu, name, count(*) FROM events WHERE cpu = 1 AND ts >= %B AND ts < %E GROUP BY cpu, name",
    "SELECT cpu, name, count(*) FROM (SELECT cpu, name FROM events WHERE cpu = 1 AND ts + 0 >= %B AND ts < %E) GROUP BY cpu, name" },
};

static char *
fill (const char *templ,
      const char *table,
      gint64      begin_ns,
      gint64      end_ns)
{
  g_autoptr(GString) s = g_string_new (templ);
  g_autofree char *b = g_strdup_printf ("%" G_GINT64_FORMAT, begin_ns);
  g_autofree char *e = g_strdup_printf ("%" G_GINT64_FORMAT, end_ns);
  g_autofree char *l = g_strdup_printf ("%" G_GINT64_FORMAT, end_ns - 1);

  g_string_replace (s, "%T", table, 0);
  g_string_replace (s, "%B", b, 0);
  g_string_replace (s, "%E", e, 0);
  g_string_replace (s, "%L", l, 0);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static guint
compare_pair (CsSqlSession *session,
              const char   *path,
              const char   *table,
              const char   *fast_templ,
              const char   *plain_templ,
              gint64        begin_ns,
              gint64        end_ns)
{
  g_autofree char *fast = fill (fast_templ, table, begin_ns, end_ns);
  g_autofree char *plain = fill (plain_templ, table, begin_ns, end_ns);
  g_autofree char *have = cs_test_query_rows (session, fast);
  g_autofree char *want = cs_test_query_rows (session, plain);

  if (g_strcmp0 (have, want) != 0)
    g_error ("%s: %s\n%s\nagainst %s\n%s", path, fast, have, plain, want);
  return 1;
}

/* Spans of every recording: the whole, halves, one event at a chunk's
 * edge, empty and upside down; each fast query against its plain twin. */
static void
test_spans_match_scan (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_pairs = 0, n_recordings = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(GError) error = NULL;
      g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
      g_autoptr(CsSqlSession) session = NULL;
      const char *tables[] = { "events", "sched_sched_switch", "\"sched:sched_wakeup\"" };
      gint64 first, last, edge, spans[6][2];

      if (doc == NULL)
        {
          g_test_message ("%s: not indexed (%s)", path, error->message);
          continue;
        }
      if (cs_document_get_n_events (doc) == 0)
        continue;
      session = cs_sql_session_new (doc, &error);
      g_assert_no_error (error);
      first = cs_test_query_int (session, "SELECT min(ts) FROM events");
      last = cs_test_query_int (session, "SELECT max(ts) FROM events");
      /* The first event of CPU 0's second chunk (or its last event). */
      edge = cs_test_query_int (session, "SELECT ifnull((SELECT ts FROM events WHERE cpu = 0 LIMIT 1 OFFSET 4096),"
                                         " (SELECT max(ts) FROM events WHERE cpu = 0))");
      spans[0][0] = first, spans[0][1] = last + 1;
      spans[1][0] = first, spans[1][1] = first + (last - first) / 2;
      spans[2][0] = first + (last - first) / 2, spans[2][1] = last + 1;
      spans[3][0] = edge, spans[3][1] = edge + 1;
      spans[4][0] = edge - 1, spans[4][1] = edge;
      spans[5][0] = last, spans[5][1] = first;
      n_recordings++;
      for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
        {
          g_autofree char *probe = g_strdup_printf ("SELECT 1 FROM %s LIMIT 1", tables[t]);
          g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, probe, NULL);

          if (q == NULL)
            continue;
          for (guint s = 0; s < G_N_ELEMENTS (spans); s++)
            {
              for (guint i = 0; i < G_N_ELEMENTS (span_pairs); i++)
                n_pairs += compare_pair (session, path, tables[t], span_pairs[i].fast,
                                         span_pairs[i].plain, spans[s][0], spans[s][1]);
              for (guint i = 0; t == 0 && i < G_N_ELEMENTS (type_pairs); i++)
                n_pairs += compare_pair (session, path, tables[t], type_pairs[i].fast,
                                         type_pairs[i].plain, spans[s][0], spans[s][1]);
            }
        }
    }
  g_test_message ("%u query pairs on %u recordings compared", n_pairs, n_recordings);
  g_assert_cmpuint (n_recordings, >, 5);
  g_assert_cmpuint (n_pairs, >, 500);
}

/* The rewritten queries take counted rows (idxStr: counted by, flags 14:
 * weighted, begin and end given) with no sort of SQLite's, and a span
 * that is no number is an error that says so. */
static void
test_span_plans_and_errors (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlSession) session = cs_sql_session_new (doc, &error);
  static const struct {
    const char *sql;
    const char *plan;
  } plans[] = {
    { "SELECT system, name, count(*) FROM events WHERE cpu = 1 AND ts >= 5 AND ts < 10 GROUP BY system, name",
      "INDEX 16:3 14 0 1 0 2 3 0 4 0" },
    { "SELECT comm, count(*) FROM events WHERE ts >= 5 AND ts < 10 GROUP BY comm", "INDEX 0:1 14 0 0 0 1 2 0" },
    { "SELECT cpu, count(*) FROM sched_sched_switch WHERE ts < 10 GROUP BY cpu", "INDEX 0:2 14 0 0 0 1 0 0" },
  };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    {
      g_autofree char *rewritten = _cs_sql_rewrite_counts (plans[i].sql, is_events,
                                                           (gpointer) "sched_sched_switch");
      g_autofree char *sql = NULL;
      g_autofree char *plan = NULL;

      g_assert_nonnull (rewritten);
      sql = g_strdup_printf ("EXPLAIN QUERY PLAN %s", rewritten);
      plan = cs_test_query_rows (session, sql);
      if (strstr (plan, plans[i].plan) == NULL || strstr (plan, "TEMP B-TREE") != NULL)
        g_error ("%s: plan\n%s\nwants %s", rewritten, plan, plans[i].plan);
    }

  {
    g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, "SELECT count(*) FROM events('soon', 5)", &error);

    if (q != NULL)
      g_assert_false (cs_sql_query_next (q, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "nanoseconds"));
    g_assert_nonnull (strstr (error->message, "soon"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/sql/spans/rewrite-shapes", test_rewrite_shapes);
  g_test_add_func ("/cs/sql/spans/match-scan", test_spans_match_scan);
  g_test_add_func ("/cs/sql/spans/plans-and-errors", test_span_plans_and_errors);
  return g_test_run ();
}
