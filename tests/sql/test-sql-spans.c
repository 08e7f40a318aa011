/* test-sql-spans.c: the event tables over a span of time, TABLE(BEGIN,
 * END), the WHERE clauses on ts that the count rewrite turns into one, and
 * counts per time bucket, TABLE(BEGIN, END, WIDTH, ORIGIN)
 * (index/sql/cs-sql-count-rewrite.c, cs-sql-event-plan.c,
 * cs-sql-event-buckets.c): their rows and counts must be those SQLite
 * finds by stepping through every row.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "cs-document.h"
#include "cs-tracedat-reader.h"
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
    /* Time buckets: their width and origin join the table's arguments. */
    { "SELECT ts / 1000 AS b, count(*) FROM events GROUP BY b",
      "SELECT ts / 1000 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(NULL, NULL, 1000, 0) GROUP BY b" },
    { "SELECT (ts - 5) / 10 * 10, cpu, count(*) AS n FROM events WHERE ts >= 5 AND cpu = 1 GROUP BY 1, cpu ORDER BY 1",
      "SELECT (ts - 5) / 10 * 10, cpu, ifnull(sum(_cs_n), 0) AS n FROM events(5, NULL, 10, 5) WHERE cpu = 1 GROUP BY 1, cpu ORDER BY 1" },
    { "SELECT count(*) FROM events(1, 9) GROUP BY ts / 4",
      "SELECT ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(1, 9, 4, 0) GROUP BY ts / 4" },
    { "SELECT (\"ts\" - -3) / 7 AS b, count(*) FROM events WHERE ts < 9 GROUP BY (ts - -3) / 7 ORDER BY b DESC",
      "SELECT (\"ts\" - -3) / 7 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(NULL, 9, 7, -3) GROUP BY (ts - -3) / 7 ORDER BY b DESC" },
    /* ts read elsewhere, or no table argument for them: no buckets. */
    { "SELECT ts / 10 AS b, count(*) FROM events WHERE ts % 2 = 0 GROUP BY b",
      "SELECT ts / 10 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts % 2 = 0 GROUP BY b" },
    { "SELECT ts / 10 AS b, count(*) FROM events WHERE ts > 4 OR cpu = 1 GROUP BY b",
      "SELECT ts / 10 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events WHERE ts > 4 OR cpu = 1 GROUP BY b" },
    { "SELECT ts / 10 AS b, count(*) FROM events GROUP BY b ORDER BY ts",
      "SELECT ts / 10 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events GROUP BY b ORDER BY ts" },
    { "SELECT ts / 10 AS b, count(*) FROM events GROUP BY b, ts",
      "SELECT ts / 10 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events GROUP BY b, ts" },
    { "SELECT ts / 10 AS b, count(*) FROM events(1) GROUP BY b",
      "SELECT ts / 10 AS b, ifnull(sum(_cs_n), 0) AS \"count(*)\" FROM events(1) GROUP BY b" },
    /* Not the group's, two widths, a counted column's name, no integer,
     * an operator after: left as written. */
    { "SELECT ts / 10, count(*) FROM events", NULL },
    { "SELECT ts / 10, ts / 20, count(*) FROM events GROUP BY 1, 2", NULL },
    { "SELECT ts / 10 AS cpu, count(*) FROM events GROUP BY cpu", NULL },
    { "SELECT ts / 1e3 AS b, count(*) FROM events GROUP BY b", NULL },
    { "SELECT ts / 0 AS b, count(*) FROM events GROUP BY b", NULL },
    { "SELECT ts / 10 + 1 AS b, count(*) FROM events GROUP BY b", NULL },
    { "SELECT ts - 5 / 10 AS b, count(*) FROM events GROUP BY b", NULL },
    { "SELECT ts / 10 AS b, count(*) FROM events GROUP BY 2", NULL },
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

/* Time buckets: %W a width, %O an origin. */
static const struct {
  const char *fast;
  const char *plain;
} bucket_pairs[] = {
  { "SELECT ts / %W AS b, count(*) FROM %T WHERE ts >= %B AND ts < %E GROUP BY b ORDER BY b",
    "SELECT b, count(*) FROM (SELECT ts / %W AS b FROM %T WHERE ts + 0 >= %B AND ts < %E) GROUP BY b ORDER BY b" },
  { "SELECT (ts - %O) / %W * %W AS b, cpu, count(*) FROM %T WHERE ts >= %B GROUP BY 1, 2 ORDER BY 1, 2",
    "SELECT b, cpu, count(*) FROM (SELECT (ts - %O) / %W * %W AS b, cpu FROM %T WHERE ts + 0 >= %B) GROUP BY 1, 2 ORDER BY 1, 2" },
  { "SELECT comm, pid, (ts - %O) / %W AS b, count(*) AS n FROM %T WHERE ts < %E GROUP BY comm, pid, b ORDER BY b, n DESC, pid",
    "SELECT comm, pid, b, count(*) AS n FROM (SELECT comm, pid, (ts - %O) / %W AS b FROM %T WHERE ts + 0 < %E) GROUP BY comm, pid, b ORDER BY b, n DESC, pid" },
  { "SELECT count(*) AS n, ts / %W AS b FROM %T(%B, %E) WHERE cpu = 0 GROUP BY b ORDER BY b",
    "SELECT count(*) AS n, b FROM (SELECT ts / %W AS b FROM %T WHERE ts + 0 >= %B AND ts < %E AND cpu = 0) GROUP BY b ORDER BY b" },
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
  { "SELECT ts / %W AS b, name, count(*) FROM events WHERE ts >= %B AND ts < %E GROUP BY b, name ORDER BY b, name",
    "SELECT b, name, count(*) FROM (SELECT ts / %W AS b, name FROM events WHERE ts + 0 >= %B AND ts < %E) GROUP BY b, name ORDER BY b, name" },
};

/* Time buckets of a recording: their width and origin. */
typedef struct {
  gint64 width, origin;
} Buckets;

static char *
fill (const char    *templ,
      const char    *table,
      gint64         begin_ns,
      gint64         end_ns,
      const Buckets *buckets)
{
  g_autoptr(GString) s = g_string_new (templ);
  g_autofree char *b = g_strdup_printf ("%" G_GINT64_FORMAT, begin_ns);
  g_autofree char *e = g_strdup_printf ("%" G_GINT64_FORMAT, end_ns);
  g_autofree char *l = g_strdup_printf ("%" G_GINT64_FORMAT, end_ns - 1);
  g_autofree char *w = g_strdup_printf ("%" G_GINT64_FORMAT, buckets->width);
  g_autofree char *o = g_strdup_printf ("%" G_GINT64_FORMAT, buckets->origin);

  g_string_replace (s, "%W", w, 0);
  g_string_replace (s, "%O", o, 0);
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
              gint64        end_ns,
              const Buckets *buckets)
{
  g_autofree char *fast = fill (fast_templ, table, begin_ns, end_ns, buckets);
  g_autofree char *plain = fill (plain_templ, table, begin_ns, end_ns, buckets);
  g_autofree char *have = cs_test_query_rows (session, fast);
  g_autofree char *want = cs_test_query_rows (session, plain);

  if (g_strcmp0 (have, want) != 0)
    g_error ("%s: %s\n%s\nagainst %s\n%s", path, fast, have, plain, want);
  return 1;
}

/* Spans of every recording: the whole, halves, one event at a chunk's
 * edge, empty and upside down; time buckets coarser than the chunks (a
 * third of the recording, counted at their edges), finer (a fiftieth)
 * and of 1 µs, from 0 and from the middle of the recording (buckets
 * before it count toward 0, as SQLite's division truncates); each fast
 * query against its plain twin. */
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
      Buckets buckets[4];

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
      buckets[0] = (Buckets) { (last - first) / 3 + 1, 0 };
      buckets[1] = (Buckets) { (last - first) / 50 + 1, first + (last - first) / 2 };
      buckets[2] = (Buckets) { 1000, first };
      buckets[3] = (Buckets) { (last - first) / 3 + 1, first - 1 };
      n_recordings++;
      for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
        {
          g_autofree char *probe = g_strdup_printf ("SELECT 1 FROM %s LIMIT 1", tables[t]);
          g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, probe, NULL);

          if (q == NULL)
            continue;
          for (guint s = 0; s < G_N_ELEMENTS (spans); s++)
            {
              /* Buckets over fewer spans: the whole, a half and one event
               * of events; the whole of the typed tables (whose plans
               * differ only in the type wanted). */
              guint n_buckets = s == 0 ? (t == 0 ? G_N_ELEMENTS (buckets) : 2)
                                       : t == 0 && (s == 1 || s == 3) ? 2 : 0;

              for (guint i = 0; i < G_N_ELEMENTS (span_pairs); i++)
                n_pairs += compare_pair (session, path, tables[t], span_pairs[i].fast,
                                         span_pairs[i].plain, spans[s][0], spans[s][1], &buckets[0]);
              for (guint i = 0; t == 0 && i < G_N_ELEMENTS (type_pairs); i++)
                for (guint k = 0; k < (strstr (type_pairs[i].fast, "%W") ? MAX (n_buckets, 1) : 1); k++)
                  n_pairs += compare_pair (session, path, tables[t], type_pairs[i].fast,
                                           type_pairs[i].plain, spans[s][0], spans[s][1], &buckets[k]);
              for (guint i = 0; i < G_N_ELEMENTS (bucket_pairs); i++)
                for (guint k = 0; k < n_buckets; k++)
                  n_pairs += compare_pair (session, path, tables[t], bucket_pairs[i].fast,
                                           bucket_pairs[i].plain, spans[s][0], spans[s][1], &buckets[k]);
            }
        }
    }
  g_test_message ("%u query pairs on %u recordings compared", n_pairs, n_recordings);
  g_assert_cmpuint (n_recordings, >, 5);
  g_assert_cmpuint (n_pairs, >, 500);
}

/* The rewritten queries take counted rows (idxStr: counted by, flags 14:
 * weighted, begin and end given) with no sort of SQLite's, or with time
 * buckets (flags 126: then width, origin, bucketed) a sort of the
 * buckets only; a span that is no number, or a bucket's width not a
 * whole number above 0, is an error that says so. */
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
    { "SELECT ts / 1000 AS b, count(*) FROM events WHERE ts >= 5 GROUP BY b", "INDEX 0:2 126 0 0 0 0" },
    { "SELECT ts / 1000 AS b, comm, count(*) FROM events GROUP BY b, comm", "INDEX 0:1 126 0 0 0 0" },
    { "SELECT name, (ts - 9) / 1000 AS b, count(*) FROM events GROUP BY b, name", "INDEX 0:3 126 0 0 0 0" },
    { "SELECT ts / 1000 AS b, count(*) FROM sched_sched_switch WHERE cpu = 1 GROUP BY b", "INDEX 16:2 126 0 1 0 0" },
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
      if (strstr (plan, plans[i].plan) == NULL ||
          (strstr (plan, "TEMP B-TREE") != NULL && strstr (plans[i].plan, " 126 ") == NULL))
        g_error ("%s: plan\n%s\nwants %s", rewritten, plan, plans[i].plan);
    }

  {
    g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, "SELECT count(*) FROM events('soon', 5)", &error);

    if (q != NULL)
      g_assert_false (cs_sql_query_next (q, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "nanoseconds"));
    g_assert_nonnull (strstr (error->message, "soon"));
    g_clear_error (&error);
  }
  for (guint i = 0; i < 2; i++)
    {
      const char *sql = i == 0 ? "SELECT count(*) FROM events(NULL, NULL, 0)"
                               : "SELECT count(*) FROM events(NULL, NULL, 10, 1.5)";
      g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, sql, &error);

      if (q != NULL)
        g_assert_false (cs_sql_query_next (q, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "WIDTH"));
      g_assert_nonnull (strstr (error->message, i == 0 ? "“0”" : "“1.5”"));
      g_clear_error (&error);
    }
}

/* A recording whose time goes back on a CPU (sched-irq-v6.dat with CPU
 * 0's fourth ring-buffer page stamped 2 ms before its third, as a damaged
 * file might be): the index keeps the events as they come, so the
 * buckets counted from a chunk whose ts column is not sorted must still
 * be those SQLite counts row by row. */
static void
test_buckets_time_going_back (void)
{
  g_autofree char *src = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-time-back-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "time-back-v6.dat", NULL);
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(CsSqlSession) session = NULL;
  g_autofree char *data = NULL;
  gsize len;
  guint64 page, page_size, ts;
  Buckets buckets[] = { { 1000000, 0 }, { 100000, 575600000000 }, { 7, 0 } };

  g_assert_no_error (error);
  reader = cs_tracedat_reader_open (src, &error);
  g_assert_no_error (error);
  page_size = cs_tracedat_reader_get_page_size (reader);
  page = cs_tracedat_reader_get_cpu_data_offset (reader, 0) + 2 * page_size;
  g_assert_true (g_file_get_contents (src, &data, &len, &error));
  g_assert_cmpuint (page + 2 * page_size, <=, len);
  /* The page header's first word: its time (little-endian, as the
   * recording is). */
  memcpy (&ts, data + page, sizeof ts);
  ts = GUINT64_FROM_LE (ts) - 2000000;
  ts = GUINT64_TO_LE (ts);
  memcpy (data + page + page_size, &ts, sizeof ts);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));

  doc = cs_test_load_path (path);
  session = cs_sql_session_new (doc, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM (SELECT ts - lag(ts) OVER () AS d"
                                               " FROM events WHERE cpu = 0) WHERE d < 0"), >, 0);
  for (guint k = 0; k < G_N_ELEMENTS (buckets); k++)
    for (guint i = 0; i < G_N_ELEMENTS (bucket_pairs); i++)
      compare_pair (session, path, "events", bucket_pairs[i].fast, bucket_pairs[i].plain,
                    G_MININT64 / 2, G_MAXINT64 / 2, &buckets[k]);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/sql/spans/rewrite-shapes", test_rewrite_shapes);
  g_test_add_func ("/cs/sql/spans/match-scan", test_spans_match_scan);
  g_test_add_func ("/cs/sql/spans/plans-and-errors", test_span_plans_and_errors);
  g_test_add_func ("/cs/sql/spans/buckets-time-going-back", test_buckets_time_going_back);
  return g_test_run ();
}
