/* test-sql.c: SQL over recordings (CsSqlSession) against trace-cmd report.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * On every recording of tests/data and ../shared/testdata/public:
 *  - each event type's table has as many rows as trace-cmd report prints
 *    events of that type (tests/oracle/report-counts.py), and so has
 *    `events` per type;
 *  - the fields of sampled events equal the raw fields `trace-cmd report
 *    -R` prints (tests/oracle/report-fields.py);
 *  - queries on ts ranges (pushed down to the index's chunks), with and
 *    without a cpu, return exactly the events report prints in the range.
 * And on one recording: the authorizer refuses every kind of write, and
 * bad SQL gets SQLite's message with its position.
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "cs-document.h"
#include "cs-sql-private.h"
#include "cs-sql-session.h"
#include "index-test-util.h"
#include "sql-test-util.h"

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The document of @path, or NULL when Chronoscope refuses the file (the
 * damaged ones: test-document checks those errors). */
static CsDocument *
load_or_null (const char *path)
{
  g_autoptr(GError) error = NULL;
  CsDocument *doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);

  if (doc == NULL)
    g_test_message ("%s: not indexed (%s)", path, error->message);
  return doc;
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return (x > y) - (x < y);
}

/* Events per CPU, counted from the index (GROUP BY cpu is answered from
 * its per-CPU counts) against report's. */
static void
check_cpu_counts (CsSqlSession *session,
                  const char   *path,
                  JsonObject   *cpus)
{
  g_autoptr(GString) want = g_string_new (NULL);
  g_autofree char *have = cs_test_query_rows (session, "SELECT cpu, count(*) FROM events GROUP BY cpu");
  g_autoptr(GList) members = json_object_get_members (cpus);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  for (GList *l = members; l != NULL; l = l->next)
    {
      guint cpu = (guint) g_ascii_strtoull (l->data, NULL, 10);
      g_array_append_val (order, cpu);
    }
  g_array_sort (order, compare_uint);
  for (guint i = 0; i < order->len; i++)
    {
      g_autofree char *key = g_strdup_printf ("%u", g_array_index (order, guint, i));

      g_string_append_printf (want, "%s|%" G_GINT64_FORMAT "\n", key, json_object_get_int_member (cpus, key));
    }
  if (g_strcmp0 (have, want->str) != 0)
    g_error ("%s: events per CPU\n%s\nagainst trace-cmd report\n%s", path, have, want->str);
}

static void
test_counts (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_checked = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(CsDocument) doc = load_or_null (path);
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(CsSqlSession) session = NULL;
      g_autoptr(GError) error = NULL;
      JsonObject *events;

      if (doc == NULL || (root = cs_test_run_oracle ("CS_ORACLE", path)) == NULL)
        continue;
      events = json_object_get_object_member (json_node_get_object (root), "events");
      session = cs_sql_session_new (doc, &error);
      g_assert_no_error (error);

      g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM events"), ==,
                       json_object_get_int_member (json_node_get_object (root), "n_events"));
      check_cpu_counts (session, path, json_object_get_object_member (json_node_get_object (root), "cpus"));
      for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
        {
          const CsEventType *type = cs_document_get_event_type (doc, t);
          g_autofree char *key = g_strdup_printf ("%s:%s", type->system, type->name);
          gint64 want = json_object_has_member (events, key) ? json_object_get_int_member (events, key) : 0;
          g_autofree char *by_type = g_strdup_printf ("SELECT count(*) FROM \"%s\"", key);
          g_autofree char *in_events = g_strdup_printf (
              "SELECT count(*) FROM events WHERE system = '%s' AND name = '%s'", type->system, type->name);

          if (want == 0)
            continue;
          if (cs_test_query_int (session, by_type) != want || cs_test_query_int (session, in_events) != want)
            g_error ("%s: %s: table has %" G_GINT64_FORMAT ", events %" G_GINT64_FORMAT
                     ", trace-cmd report %" G_GINT64_FORMAT, path, key,
                     cs_test_query_int (session, by_type), cs_test_query_int (session, in_events), want);
          n_checked++;
        }
    }
  g_test_message ("%u event tables checked", n_checked);
  g_assert_cmpuint (n_checked, >, 50);
}

/* Compares a value of the table with report's raw text of the field:
 * returns FALSE on a mismatch, TRUE when equal or not comparable (a
 * pointer report printed as a symbol, an array). */
static gboolean
field_matches (CsSqlQuery *q,
               guint       column,
               const char *want,
               gboolean   *compared)
{
  *compared = FALSE;
  switch (cs_sql_query_get_value_type (q, column))
    {
    case CS_SQL_INTEGER:
      {
        guint64 have = (guint64) cs_sql_query_get_int64 (q, column);
        const char *s = want;
        gboolean negative = *s == '-';
        char *end = NULL;
        guint64 v;

        if (negative)
          s++;
        if (g_str_has_prefix (s, "0x"))
          v = g_ascii_strtoull (s + 2, &end, 16);
        else
          v = g_ascii_strtoull (s, &end, 10);
        if (end == s || *end != '\0')
          return TRUE;      /* a symbol, or text: not a number to compare */
        if (negative)
          v = -v;
        *compared = TRUE;
        /* report prints with the field's width: compare the same bits.
         * It prints some unsigned 64-bit fields in hex without "0x"
         * (function_graph's calltime and rettime). */
        if (have == v || (guint32) have == (guint32) v)
          return TRUE;
        v = g_ascii_strtoull (s, &end, 16);
        return !negative && *end == '\0' && have == v;
      }
    case CS_SQL_TEXT:
      {
        g_autofree char *have = g_strdup (cs_sql_query_get_text (q, column));
        g_autofree char *w = g_strdup (want);

        *compared = TRUE;
        return g_str_equal (g_strchomp (have), g_strchomp (w));
      }
    default:
      return TRUE;
    }
}

static void
check_sample (CsSqlSession *session,
              const char   *path,
              JsonObject   *sample,
              guint        *n_fields)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) find = NULL;
  g_autoptr(CsSqlQuery) q = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *system = NULL;
  gint64 cpu = json_object_get_int_member (sample, "cpu");
  gint64 ts = json_object_get_int_member (sample, "ts");
  const char *name = json_object_get_string_member (sample, "name");
  JsonObject *fields = json_object_get_object_member (sample, "fields");
  gboolean found = FALSE;

  sql = g_strdup_printf ("SELECT DISTINCT system FROM events WHERE cpu = %" G_GINT64_FORMAT
                         " AND ts = %" G_GINT64_FORMAT " AND name = '%s'", cpu, ts, name);
  find = cs_sql_session_prepare (session, sql, &error);
  g_assert_no_error (error);
  if (!cs_sql_query_next (find, &error))
    g_error ("%s: no %s event at %" G_GINT64_FORMAT " on CPU %" G_GINT64_FORMAT " (%s)", path,
             name, ts, cpu, error ? error->message : "no row");
  system = g_strdup (cs_sql_query_get_text (find, 0));

  g_free (sql);
  sql = g_strdup_printf ("SELECT * FROM \"%s:%s\" WHERE cpu = %" G_GINT64_FORMAT
                         " AND ts = %" G_GINT64_FORMAT, system, name, cpu, ts);
  q = cs_sql_session_prepare (session, sql, &error);
  g_assert_no_error (error);
  /* Several events may share the time: one of them must match. */
  while (!found && cs_sql_query_next (q, &error))
    {
      guint n_compared = 0;
      gboolean all = TRUE;

      for (guint c = 0; c < cs_sql_query_get_n_columns (q); c++)
        {
          const char *col = cs_sql_query_get_column_name (q, c);
          const char *field = g_str_has_prefix (col, "field_") ? col + 6 : col;
          gboolean compared;

          if (c < 9 || !json_object_has_member (fields, field))
            continue;
          if (!field_matches (q, c, json_object_get_string_member (fields, field), &compared))
            {
              all = FALSE;
              g_test_message ("%s %s:%s at %" G_GINT64_FORMAT ": %s differs from report's %s",
                              path, system, name, ts, col,
                              json_object_get_string_member (fields, field));
            }
          n_compared += compared;
        }
      if (all)
        {
          found = TRUE;
          *n_fields += n_compared;
        }
    }
  g_assert_no_error (error);
  if (!found)
    g_error ("%s: the fields of %s:%s at %" G_GINT64_FORMAT " on CPU %" G_GINT64_FORMAT
             " differ from trace-cmd report -R's", path, system, name, ts, cpu);
}

/* [cpu, ts] of the oracle's events in [begin, end) (and on @cpu unless -1),
 * sorted, as "cpu:ts" lines. */
static char *
oracle_range (JsonArray *events,
              gint64     begin,
              gint64     end,
              gint64     cpu,
              guint     *n)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonArray *e = json_array_get_array_element (events, i);
      gint64 c = json_array_get_int_element (e, 0), ts = json_array_get_int_element (e, 1);

      if (ts >= begin && ts < end && (cpu < 0 || c == cpu))
        g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT ":%020" G_GINT64_FORMAT, c, ts));
    }
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (s, "%s\n", (char *) lines->pdata[i]);
  *n = lines->len;
  return g_string_free (s, FALSE);
}

static char *
sql_range (CsSqlSession *session,
           gint64        begin,
           gint64        end,
           gint64        cpu)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) q = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *sql = NULL;
  GString *s = g_string_new (NULL);

  if (cpu >= 0)
    sql = g_strdup_printf ("SELECT cpu, ts FROM events WHERE ts >= %" G_GINT64_FORMAT
                           " AND ts < %" G_GINT64_FORMAT " AND cpu = %" G_GINT64_FORMAT,
                           begin, end, cpu);
  else
    sql = g_strdup_printf ("SELECT cpu, ts FROM events WHERE ts BETWEEN %" G_GINT64_FORMAT
                           " AND %" G_GINT64_FORMAT, begin, end - 1);
  q = cs_sql_session_prepare (session, sql, &error);
  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    g_ptr_array_add (lines, g_strdup_printf ("%" G_GINT64_FORMAT ":%020" G_GINT64_FORMAT,
                                             cs_sql_query_get_int64 (q, 0),
                                             cs_sql_query_get_int64 (q, 1)));
  g_assert_no_error (error);
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (s, "%s\n", (char *) lines->pdata[i]);
  return g_string_free (s, FALSE);
}

static void
check_ranges (CsSqlSession *session,
              CsDocument   *doc,
              JsonArray    *events,
              guint        *n_ranges)
{
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  gint64 span = last - first + 1;
  GRand *rand = g_rand_new_with_seed (13);

  for (guint r = 0; r < 12; r++)
    {
      /* Short and long ranges, some straddling the ends of the recording. */
      gint64 len = span >> g_rand_int_range (rand, 1, 16);
      gint64 begin = first - span / 20 + (gint64) (g_rand_double (rand) * (span + span / 10));
      gint64 cpu = r % 3 == 0 ? g_rand_int_range (rand, 0, cs_document_get_n_cpus (doc)) : -1;
      guint n;
      g_autofree char *want = oracle_range (events, begin, begin + MAX (len, 1), cpu, &n);
      g_autofree char *have = sql_range (session, begin, begin + MAX (len, 1), cpu);

      g_assert_cmpstr (have, ==, want);
      (*n_ranges)++;
    }
  g_rand_free (rand);
}

static void
test_fields_and_ranges (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_samples = 0, n_fields = 0, n_ranges = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(CsDocument) doc = load_or_null (path);
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(CsSqlSession) session = NULL;
      g_autoptr(GError) error = NULL;
      JsonArray *samples, *events;

      if (doc == NULL || (root = cs_test_run_oracle ("CS_FIELDS_ORACLE", path)) == NULL)
        continue;
      session = cs_sql_session_new (doc, &error);
      g_assert_no_error (error);
      samples = json_object_get_array_member (json_node_get_object (root), "samples");
      events = json_object_get_array_member (json_node_get_object (root), "events");
      for (guint i = 0; i < json_array_get_length (samples); i++)
        {
          check_sample (session, path, json_array_get_object_element (samples, i), &n_fields);
          n_samples++;
        }
      /* Recordings with instance buffers hold events the oracle leaves out. */
      if (json_array_get_length (events) == cs_document_get_n_events (doc) &&
          cs_document_get_n_events (doc) > 0)
        check_ranges (session, doc, events, &n_ranges);
    }
  g_test_message ("%u samples, %u fields, %u ranges compared", n_samples, n_fields, n_ranges);
  g_assert_cmpuint (n_samples, >, 300);
  g_assert_cmpuint (n_fields, >, 1000);
  g_assert_cmpuint (n_ranges, >=, 60);
}

/* Pairs of queries that must give the same rows: the first is answered
 * from the index's counts or with its constraints pushed into the scan,
 * the second defeats that (it reads ts, or hides a field in a CAST that
 * keeps its affinity), so SQLite reads and checks every row itself.  %s is a table with
 * an integer field %F, @V a value of it. */
static const struct {
  const char *fast;
  const char *slow;
} pushdown_pairs[] = {
  { "SELECT count(*) FROM events",
    "SELECT count(*) FROM events WHERE ts IS NOT NULL" },
  { "SELECT comm, count(*) FROM events GROUP BY comm",
    "SELECT comm, count(*) FROM events WHERE ts IS NOT NULL GROUP BY comm" },
  { "SELECT pid, comm, count(*) FROM events GROUP BY pid ORDER BY pid DESC",
    "SELECT pid, comm, count(*) FROM events WHERE ts IS NOT NULL GROUP BY pid ORDER BY pid DESC" },
  { "SELECT DISTINCT comm FROM events ORDER BY comm DESC",
    "SELECT DISTINCT comm FROM events WHERE ts IS NOT NULL ORDER BY comm DESC" },
  { "SELECT DISTINCT comm FROM events WHERE pid > 0 OR pid < 0 ORDER BY comm",
    "SELECT DISTINCT comm FROM events WHERE (pid > 0 OR pid < 0) AND ts IS NOT NULL ORDER BY comm" },
  { "SELECT DISTINCT cpu, name FROM events ORDER BY name, cpu DESC",
    "SELECT DISTINCT cpu, name FROM events WHERE ts IS NOT NULL ORDER BY name, cpu DESC" },
  { "SELECT comm, pid FROM events ORDER BY comm, pid LIMIT 7 OFFSET 3",
    "SELECT comm, pid FROM events WHERE ts IS NOT NULL ORDER BY comm, pid LIMIT 7 OFFSET 3" },
  { "SELECT comm, count(*) FROM events WHERE pid = 0 GROUP BY comm",
    "SELECT comm, count(*) FROM events WHERE pid = 0 AND ts IS NOT NULL GROUP BY comm" },
  { "SELECT count(*), min(comm), max(comm) FROM events WHERE pid = -1 OR pid = NULL",
    "SELECT count(*), min(comm), max(comm) FROM events WHERE (pid = -1 OR pid = NULL) AND ts IS NOT NULL" },
  { "SELECT cpu, count(*) FROM events GROUP BY cpu ORDER BY cpu DESC",
    "SELECT cpu, count(*) FROM events WHERE ts IS NOT NULL GROUP BY cpu ORDER BY cpu DESC" },
  { "SELECT count(*) FROM events WHERE cpu = 1",
    "SELECT count(*) FROM events WHERE cpu = 1 AND ts IS NOT NULL" },
  { "SELECT cpu, system, name, count(*) FROM events GROUP BY cpu, system, name",
    "SELECT cpu, system, name, count(*) FROM events WHERE ts IS NOT NULL GROUP BY cpu, system, name" },
  { "SELECT name, system, count(*) FROM events GROUP BY name, system ORDER BY name DESC, system",
    "SELECT name, system, count(*) FROM events WHERE ts IS NOT NULL GROUP BY name, system ORDER BY name DESC, system" },
  { "SELECT ts, cpu, pid, name FROM events ORDER BY ts, cpu LIMIT 300",
    "SELECT ts, cpu, pid, name FROM events ORDER BY ts + 0, cpu, rowid LIMIT 300" },
  { "SELECT ts, cpu, comm FROM events WHERE ts >= (SELECT avg(ts) FROM events) ORDER BY ts, cpu LIMIT 200 OFFSET 10",
    "SELECT ts, cpu, comm FROM events WHERE ts >= (SELECT avg(ts) FROM events) ORDER BY ts + 0, cpu, rowid LIMIT 200 OFFSET 10" },
  { "SELECT count(*), sum(ts % 1000), min(ts), max(ts) FROM (SELECT ts FROM events WHERE pid > 0 ORDER BY ts)",
    "SELECT count(*), sum(ts % 1000), min(ts), max(ts) FROM (SELECT ts FROM events WHERE pid > 0 AND ts IS NOT NULL)" },
  { "SELECT ts, cpu, pid, name FROM events ORDER BY ts DESC, cpu DESC LIMIT 300",
    "SELECT ts, cpu, pid, name FROM events ORDER BY ts + 0 DESC, cpu DESC, rowid DESC LIMIT 300" },
  { "SELECT ts, cpu FROM events WHERE ts < (SELECT avg(ts) FROM events) AND pid > 0 ORDER BY ts DESC LIMIT 9000",
    "SELECT ts, cpu FROM events WHERE ts < (SELECT avg(ts) FROM events) AND pid > 0 ORDER BY ts + 0 DESC, cpu DESC, rowid DESC LIMIT 9000" },
  { "SELECT rowid, cpu FROM events ORDER BY rowid DESC LIMIT 5",
    "SELECT rowid, cpu FROM events WHERE ts IS NOT NULL ORDER BY rowid DESC LIMIT 5" },
  { "SELECT cpu, count(*) FROM %s GROUP BY cpu",
    "SELECT cpu, count(*) FROM %s WHERE ts IS NOT NULL GROUP BY cpu" },
  { "SELECT count(*) FROM %s WHERE %F = @V",
    "SELECT count(*) FROM %s WHERE CAST(%F AS INTEGER) = @V" },
  { "SELECT count(*), min(ts), max(%F) FROM %s WHERE %F >= @V AND %F < @V + 2 AND cpu = 0",
    "SELECT count(*), min(ts), max(%F) FROM %s WHERE CAST(%F AS INTEGER) >= @V AND CAST(%F AS INTEGER) < @V + 2 AND cpu = 0" },
  { "SELECT ts, cpu, %F FROM %s WHERE %F <= @V AND ts > (SELECT min(ts) FROM %s) + 1000 ORDER BY ts, cpu LIMIT 50",
    "SELECT ts, cpu, %F FROM %s WHERE CAST(%F AS INTEGER) <= @V AND ts > (SELECT min(ts) FROM %s) + 1000 ORDER BY ts + 0, cpu, rowid LIMIT 50" },
  { "SELECT ts, cpu, %F FROM %s WHERE %F >= @V ORDER BY ts DESC, cpu DESC LIMIT 70",
    "SELECT ts, cpu, %F FROM %s WHERE CAST(%F AS INTEGER) >= @V ORDER BY ts + 0 DESC, cpu DESC, rowid DESC LIMIT 70" },
  { "SELECT count(*) FROM %s WHERE %F = NULL OR %F > '@V' OR %F = @V.5",
    "SELECT count(*) FROM %s WHERE CAST(%F AS INTEGER) = NULL OR CAST(%F AS INTEGER) > '@V' OR CAST(%F AS INTEGER) = @V.5" },
  { "SELECT count(*) FROM %s WHERE %F != @V AND %F IS NOT NULL",
    "SELECT count(*) FROM %s WHERE CAST(%F AS INTEGER) != @V AND CAST(%F AS INTEGER) IS NOT NULL" },
};

/* @pattern with %s, %F and @V replaced. */
static char *
expand_pair (const char *pattern,
             const char *table,
             const char *field,
             const char *value)
{
  g_autoptr(GString) s = g_string_new (pattern);

  g_string_replace (s, "%s", table, 0);
  g_string_replace (s, "%F", field ? field : "", 0);
  g_string_replace (s, "@V", value ? value : "", 0);
  return g_strdup (s->str);
}

/* An integer field of @table (quoted) and a value it takes, or FALSE. */
static gboolean
pick_integer_field (CsSqlSession  *session,
                    const char    *table,
                    char         **field,
                    char         **value)
{
  g_autofree char *sql = g_strdup_printf ("SELECT name FROM pragma_table_info('%s')"
                                          " WHERE type = 'INTEGER' AND cid >= 9 LIMIT 1", table);
  g_autofree char *name = g_strstrip (cs_test_query_rows (session, sql));
  g_autofree char *pick = NULL;

  if (*name == '\0')
    return FALSE;
  /* The most common value of the field: a filter that keeps some rows. */
  pick = g_strdup_printf ("SELECT \"%s\" FROM \"%s\" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1",
                          name, table);
  *value = g_strstrip (cs_test_query_rows (session, pick));
  *field = g_strdup_printf ("\"%s\"", name);
  return **value != '\0' && g_strcmp0 (*value, "NULL") != 0;
}

static CsSqlSession *
sample_session (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(GError) error = NULL;
  CsSqlSession *session = cs_sql_session_new (doc, &error);

  g_assert_no_error (error);
  return session;
}

/* The fast queries of the pairs do take the fast ways: the plan of the
 * table (its idxStr: counted by, arguments, field arguments, order
 * terms) and no sort by SQLite. */
static void
check_plans (void)
{
  g_autoptr(CsSqlSession) session = sample_session ();
  static const struct {
    const char *sql;
    const char *plan;
  } plans[] = {
    { "SELECT count(*) FROM events", "INDEX 0:2 0 0 0 0 0" },
    { "SELECT comm, count(*) FROM events GROUP BY comm", "INDEX 0:1 0 0 0 0 1 2 0" },
    { "SELECT cpu, count(*) FROM events GROUP BY cpu", "INDEX 0:2 0 0 0 0 1 0 0" },
    /* The index's sched_switch counts by prev_state (switch_state_counts). */
    { "SELECT count(*) FROM sched_sched_switch WHERE prev_state = 2", "INDEX 0:4 0 0 0 0 0" },
    { "SELECT count(*) FROM sched_sched_switch WHERE cpu = 1 AND prev_state > 0", "INDEX 16:4 0 0 1 0 0" },
    { "SELECT prev_state, count(*) FROM sched_sched_switch GROUP BY prev_state", "INDEX 0:4 0 0 0 0 1 5 0" },
    { "SELECT count(*) FROM sched_sched_switch WHERE prev_state = 2 AND prev_pid > 0", "INDEX 0:0 0 0 0 2 0 12 2 10 4" },
    { "SELECT DISTINCT comm FROM events ORDER BY comm", "INDEX 0:1 1 0 0 0 1 2 0" },
    { "SELECT * FROM events ORDER BY ts LIMIT 10", "INDEX 0:0 0 1 0 0 0" },
    { "SELECT * FROM events ORDER BY ts DESC, cpu DESC LIMIT 10", "INDEX 0:0 0 2 0 0 0" },
    { "SELECT ts, prev_state FROM sched_sched_switch WHERE prev_state = 1 ORDER BY ts, cpu", "INDEX 0:0 0 1 0 1 0 12 2" },
    { "SELECT DISTINCT comm FROM events WHERE pid > 0 ORDER BY comm", "INDEX 0:1 0 0 0 0 1 2 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    {
      g_autofree char *sql = g_strdup_printf ("EXPLAIN QUERY PLAN %s", plans[i].sql);
      g_autofree char *plan = cs_test_query_rows (session, sql);

      if (strstr (plan, plans[i].plan) == NULL || strstr (plan, "TEMP B-TREE") != NULL)
        g_error ("%s: plan\n%s\nwants %s", plans[i].sql, plan, plans[i].plan);
    }
}

static void
test_pushdown (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_pairs = 0, n_tables = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(CsDocument) doc = load_or_null (path);
      g_autoptr(CsSqlSession) session = NULL;
      g_autoptr(GError) error = NULL;

      if (doc == NULL)
        continue;
      session = cs_sql_session_new (doc, &error);
      g_assert_no_error (error);
      for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
        {
          const CsEventType *type = cs_document_get_event_type (doc, t);
          g_autofree char *table = g_strdup_printf ("%s:%s", type->system, type->name);
          g_autofree char *quoted = g_strdup_printf ("\"%s\"", table);
          g_autofree char *field = NULL;
          g_autofree char *value = NULL;
          /* The `events` pairs once per recording, the typed ones on the
           * first types and on sched_switch (prev_state is a long). */
          gboolean typed = (t < 6 || g_str_equal (table, "sched:sched_switch")) && type->n_events > 0 &&
                           pick_integer_field (session, table, &field, &value);

          if (!typed && t > 0)
            continue;
          for (guint i = 0; i < G_N_ELEMENTS (pushdown_pairs); i++)
            {
              gboolean is_typed = strstr (pushdown_pairs[i].fast, "%s") != NULL;
              g_autofree char *fast = NULL;
              g_autofree char *slow = NULL;
              g_autofree char *want = NULL;
              g_autofree char *have = NULL;

              if (is_typed != typed || (!is_typed && t > 0))
                continue;
              fast = expand_pair (pushdown_pairs[i].fast, quoted, field, value);
              slow = expand_pair (pushdown_pairs[i].slow, quoted, field, value);
              have = cs_test_query_rows (session, fast);
              want = cs_test_query_rows (session, slow);
              if (g_strcmp0 (have, want) != 0)
                g_error ("%s: %s\n%s\nagainst %s\n%s", path, fast, have, slow, want);
              n_pairs++;
            }
          n_tables += typed;
        }
    }
  g_test_message ("%u query pairs on %u typed tables compared", n_pairs, n_tables);
  check_plans ();
  g_assert_cmpuint (n_tables, >, 20);
  g_assert_cmpuint (n_pairs, >, 200);
}

/* count(*) read from the rows' weights (cs-sql-count-rewrite.c) against
 * the same query in a form the rewrite leaves alone (a subquery), which
 * SQLite answers by stepping through every row.  %s is an event table. */
static const struct {
  const char *fast;
  const char *plain;
} weight_pairs[] = {
  { "SELECT count(*) FROM %s",
    "SELECT count(*) FROM (SELECT cpu FROM %s)" },
  { "SELECT comm, count(*) FROM %s GROUP BY comm",
    "SELECT comm, count(*) FROM (SELECT comm FROM %s) GROUP BY comm" },
  { "SELECT cpu, count(*) AS n FROM %s GROUP BY cpu ORDER BY n DESC, cpu",
    "SELECT cpu, count(*) AS n FROM (SELECT cpu FROM %s) GROUP BY cpu ORDER BY n DESC, cpu" },
  { "SELECT pid, comm, COUNT( * ) FROM %s WHERE comm LIKE '%%o%%' OR pid IN (0, 1) GROUP BY pid, comm ORDER BY count(*) DESC, 1 LIMIT 9 OFFSET 1",
    "SELECT pid, comm, COUNT( * ) FROM (SELECT pid, comm FROM %s WHERE comm LIKE '%%o%%' OR pid IN (0, 1)) GROUP BY pid, comm ORDER BY count(*) DESC, 1 LIMIT 9 OFFSET 1" },
  { "SELECT count(*) FROM %s WHERE cpu = 0 AND pid > 0",
    "SELECT count(*) FROM (SELECT pid FROM %s WHERE cpu = 0 AND pid > 0)" },
  { "SELECT count(*) FROM %s WHERE pid = -5",
    "SELECT count(*) FROM (SELECT pid FROM %s WHERE pid = -5)" },
  { "SELECT comm, count(*) FROM %s WHERE ts % 3 = 1 GROUP BY comm",
    "SELECT comm, count(*) FROM (SELECT comm FROM %s WHERE ts % 3 = 1) GROUP BY comm" },
  { "SELECT irqs_off, count(*) FROM %s GROUP BY irqs_off",
    "SELECT irqs_off, count(*) FROM (SELECT irqs_off FROM %s) GROUP BY irqs_off" },
};

/* The same for sched_switch by prev_state (the index's counts by it). */
static const struct {
  const char *fast;
  const char *plain;
} state_pairs[] = {
  { "SELECT count(*) FROM %s WHERE prev_state = 2",
    "SELECT count(*) FROM (SELECT ts FROM %s WHERE prev_state = 2 AND ts IS NOT NULL)" },
  { "SELECT prev_state, count(*) FROM %s GROUP BY prev_state",
    "SELECT prev_state, count(*) FROM (SELECT prev_state, ts FROM %s WHERE ts IS NOT NULL) GROUP BY prev_state" },
  { "SELECT cpu, prev_state, count(*) FROM %s WHERE prev_state > 0 AND cpu < 2 GROUP BY cpu, prev_state ORDER BY prev_state DESC, cpu",
    "SELECT cpu, prev_state, count(*) FROM (SELECT cpu, prev_state, ts FROM %s WHERE prev_state > 0 AND cpu < 2 AND ts IS NOT NULL) GROUP BY cpu, prev_state ORDER BY prev_state DESC, cpu" },
  { "SELECT DISTINCT prev_state FROM %s ORDER BY prev_state",
    "SELECT DISTINCT prev_state FROM %s WHERE ts IS NOT NULL ORDER BY prev_state" },
  { "SELECT count(*) FROM %s WHERE prev_state IS NULL OR prev_state & 1",
    "SELECT count(*) FROM (SELECT ts FROM %s WHERE (prev_state IS NULL OR prev_state & 1) AND ts IS NOT NULL)" },
  { "SELECT min(prev_state), max(prev_state), count(*), sum(prev_state) FROM %s WHERE cpu = 0",
    "SELECT min(prev_state), max(prev_state), count(*), sum(prev_state) FROM %s WHERE cpu = 0 AND ts IS NOT NULL" },
};

static gboolean
is_events (const char *name,
           gpointer    user_data)
{
  return g_str_equal (name, "events");
}

/* The shapes the rewrite takes, and those it must leave alone. */
static void
check_rewrite_shapes (void)
{
  static const char * const taken[] = {
    "SELECT count(*) FROM events",
    "select Comm, COUNT(*) as n from \"events\" group by comm order by n desc limit 3;",
    "SELECT count(*) FROM events WHERE cpu = 1 AND comm IN ('a', 'b')",
  };
  static const char * const left[] = {
    "SELECT comm, count(*) FROM events",                       /* comm is no group */
    "SELECT count(*) FROM events WHERE random() > 0",          /* a function per row */
    "SELECT count(*) FROM events WHERE rowid > 5",
    "SELECT count(*) FROM events -- a comment",
    "SELECT count(*) FROM tasks",                              /* no event table */
    "SELECT DISTINCT count(*) FROM events",
    "SELECT count(*), sum(pid) FROM events",
    "SELECT count(*) FROM events e",
    "SELECT count(*) FROM events, tasks",
    "SELECT count(*) FROM events GROUP BY comm HAVING count(*) > 1",
    "SELECT count(*) FROM events WHERE pid IN (SELECT pid FROM tasks)",
    "SELECT count(pid) FROM events",
    "EXPLAIN SELECT count(*) FROM events",
  };

  for (guint i = 0; i < G_N_ELEMENTS (taken); i++)
    {
      g_autofree char *sql = _cs_sql_rewrite_counts (taken[i], is_events, NULL);

      if (sql == NULL || strstr (sql, "sum(_cs_n)") == NULL)
        g_error ("not rewritten: %s", taken[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (left); i++)
    {
      g_autofree char *sql = _cs_sql_rewrite_counts (left[i], is_events, NULL);

      if (sql != NULL)
        g_error ("rewritten: %s\nas %s", left[i], sql);
    }
}

static void
test_count_by_weights (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_pairs = 0;

  check_rewrite_shapes ();
  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(CsDocument) doc = load_or_null (path);
      g_autoptr(CsSqlSession) session = NULL;
      g_autoptr(GError) error = NULL;
      const char *tables[] = { "events", "sched_sched_switch", "\"sched:sched_wakeup\"" };

      if (doc == NULL)
        continue;
      session = cs_sql_session_new (doc, &error);
      g_assert_no_error (error);
      for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
        {
          g_autofree char *probe = g_strdup_printf ("SELECT 1 FROM %s LIMIT 1", tables[t]);
          g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, probe, NULL);

          if (q == NULL)
            continue;
          for (guint i = 0; i < G_N_ELEMENTS (weight_pairs) + G_N_ELEMENTS (state_pairs); i++)
            {
              gboolean state = i >= G_N_ELEMENTS (weight_pairs);
              guint k = state ? i - G_N_ELEMENTS (weight_pairs) : i;
              g_autoptr(GString) fast = g_string_new (state ? state_pairs[k].fast : weight_pairs[k].fast);
              g_autoptr(GString) plain = g_string_new (state ? state_pairs[k].plain : weight_pairs[k].plain);
              g_autofree char *have = NULL;
              g_autofree char *want = NULL;

              if (state && t != 1)
                continue;
              g_string_replace (fast, "%s", tables[t], 0);
              g_string_replace (plain, "%s", tables[t], 0);
              g_string_replace (fast, "%%", "%", 0);
              g_string_replace (plain, "%%", "%", 0);
              have = cs_test_query_rows (session, fast->str);
              want = cs_test_query_rows (session, plain->str);
              if (g_strcmp0 (have, want) != 0)
                g_error ("%s: %s\n%s\nagainst %s\n%s", path, fast->str, have, plain->str, want);
              n_pairs++;
            }
        }
    }

  /* Named and typed as SQLite names and types count(*). */
  {
    g_autoptr(CsSqlSession) session = sample_session ();
    g_autoptr(GError) error = NULL;
    g_autoptr(CsSqlQuery) one = cs_sql_session_prepare (session,
        "SELECT comm, COUNT( * ), count(*) AS n FROM events GROUP BY comm", &error);

    g_assert_no_error (error);
    g_assert_cmpstr (cs_sql_query_get_column_name (one, 1), ==, "COUNT( * )");
    g_assert_cmpstr (cs_sql_query_get_column_name (one, 2), ==, "n");
    g_assert_true (cs_sql_query_next (one, &error));
    g_assert_cmpint (cs_sql_query_get_value_type (one, 1), ==, CS_SQL_INTEGER);
    g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM events WHERE pid = -5"), ==, 0);
  }
  /* prev_state counts that do not add up (a damaged index) are not used:
   * the table reads the records and answers the same. */
  {
    const char *sql = "SELECT prev_state, count(*) FROM sched_sched_switch GROUP BY prev_state";
    g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
    g_autoptr(CsSqlSession) session = cs_sql_session_new (doc, NULL);
    g_autofree char *index_path = g_strdup (cs_document_get_index_path (doc));
    g_autofree char *want = cs_test_query_rows (session, sql);
    g_autofree char *have = NULL;
    g_autofree char *plan = NULL;
    g_autofree char *explain = g_strdup_printf ("EXPLAIN QUERY PLAN %s", sql);
    sqlite3 *db = NULL;

    g_clear_object (&session);
    g_clear_object (&doc);
    g_assert_cmpint (sqlite3_open (index_path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE switch_state_counts SET n_events = n_events + 1"
                                       " WHERE rowid = (SELECT max(rowid) FROM switch_state_counts)",
                                   NULL, NULL, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_changes (db), ==, 1);
    sqlite3_close (db);
    doc = cs_test_load ("sched-irq-v6.dat");
    session = cs_sql_session_new (doc, NULL);
    plan = cs_test_query_rows (session, explain);
    have = cs_test_query_rows (session, sql);
    g_assert_nonnull (strstr (plan, "INDEX 0:0 "));
    g_assert_cmpstr (have, ==, want);
  }
  g_test_message ("%u count pairs compared", n_pairs);
  g_assert_cmpuint (n_pairs, >, 100);
}

static void
test_refuses_writes (void)
{
  g_autoptr(CsSqlSession) session = sample_session ();
  const char *refused[] = {
    "INSERT INTO tasks VALUES (1, 'x', 2, 3)",
    "UPDATE tasks SET comm = 'x'",
    "DELETE FROM events",
    "CREATE TABLE t (a)",
    "CREATE TEMP TABLE t (a)",
    "CREATE VIEW v AS SELECT 1",
    "CREATE VIRTUAL TABLE v USING events",
    "DROP TABLE events",
    "ATTACH DATABASE '/tmp/cs-sql-test.db' AS other",
    "PRAGMA user_version = 3",
    "PRAGMA journal_mode = WAL",
    "PRAGMA writable_schema = ON",
    "SELECT load_extension('/nonexistent.so')",
    "BEGIN",
    "VACUUM",
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, refused[i], &error);

      g_assert_null (q);
      if (!g_error_matches (error, CS_SQL_ERROR, CS_SQL_ERROR_REFUSED))
        g_error ("%s: %s", refused[i], error ? error->message : "accepted");
      g_assert_nonnull (strstr (error->message, "read-only"));
    }
  g_assert_false (g_file_test ("/tmp/cs-sql-test.db", G_FILE_TEST_EXISTS));

  /* Reading is allowed, including the pragmas that only report. */
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM pragma_table_info('events')"), ==, 11);
  g_assert_cmpint (cs_test_query_int (session, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT sum(i) FROM n"), ==, 15);
}

static void
test_errors (void)
{
  g_autoptr(CsSqlSession) session = sample_session ();
  g_autoptr(GError) error = NULL;
  g_autofree char *schema = NULL;
  const struct { const char *sql; const char *says; } bad[] = {
    { "SELECT ts FROM events WHER cpu = 1", "syntax error" },
    { "SELECT ts FROM events WHER cpu = 1", "(at character 27)" },
    { "SELECT nope FROM events", "no such column: nope" },
    { "SELECT 1; SELECT 2", "Only one statement" },
    { "SELECT * FROM sched_nothing", "no such table" },
    { "   ", "empty" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, bad[i].sql, &error);

      g_assert_null (q);
      g_assert_error (error, CS_SQL_ERROR, CS_SQL_ERROR_SYNTAX);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("%s: \"%s\" does not say \"%s\"", bad[i].sql, error->message, bad[i].says);
      g_clear_error (&error);
    }

  schema = cs_sql_session_dup_schema (session, "sched:sched_wakeup", &error);
  g_assert_no_error (error);
  /* sched_wakeup's own pid and comm (the task woken) are field_pid, field_comm. */
  g_assert_nonnull (strstr (schema, "\"field_pid\" INTEGER"));
  g_assert_nonnull (strstr (schema, "\"field_comm\" TEXT"));
  g_assert_null (cs_sql_session_dup_schema (session, "nothing", &error));
  g_assert_error (error, CS_SQL_ERROR, CS_SQL_ERROR_NO_TABLE);
}

/* The derived tables agree with each other and with the document. */
static void
test_derived (void)
{
  g_autoptr(CsSqlSession) session = sample_session ();
  CsDocument *doc = cs_sql_session_get_document (session);

  /* Every task's runtime is the sum of its slices. */
  g_assert_cmpint (cs_test_query_int (session,
      "SELECT count(*) FROM tasks t WHERE runtime_ns != (SELECT coalesce(sum(dur), 0)"
      " FROM sched_slices s WHERE s.pid = t.pid)"), ==, 0);
  /* The same with the pid pushed down and without. */
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM sched_slices"), ==,
                   cs_test_query_int (session, "SELECT sum((SELECT count(*) FROM sched_slices s WHERE s.pid = t.pid)) FROM tasks t"));
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM cpus"), ==, cs_document_get_n_cpus (doc));
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM tasks"), ==, cs_document_get_n_tasks (doc));
  /* Each wakeup ends at the sched_switch that puts its task on a CPU,
   * where its task starts running (but for a run whose end was lost: the
   * recording's next sched_switch of that CPU does not name it). */
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM wakeups"), >, 0);
  g_assert_cmpint (cs_test_query_int (session,
      "SELECT count(*) FROM wakeups w WHERE NOT EXISTS (SELECT 1 FROM sched_sched_switch x"
      " WHERE x.ts = w.run_ts AND x.cpu = w.cpu AND x.next_pid = w.pid)"), ==, 0);
  g_assert_cmpint (cs_test_query_int (session,
      "SELECT count(*) FROM wakeups w WHERE NOT EXISTS (SELECT 1 FROM task_states s"
      " WHERE s.pid = w.pid AND s.ts = w.run_ts AND s.state = 'running')"
      " AND (SELECT x.prev_pid FROM sched_sched_switch x WHERE x.cpu = w.cpu AND x.ts > w.run_ts"
      " ORDER BY x.ts LIMIT 1) = w.pid"), ==, 0);
  g_assert_cmpint (cs_test_query_int (session, "SELECT count(*) FROM wakeups WHERE latency_ns < 0"), ==, 0);
}

/* A typed table reads only the event chunks that hold its type
 * (cs-sql-event-tables.c, from event_chunk_types): its rows, forwards and
 * backwards, are those of `events` filtered by type without that help
 * (a unary + keeps the filter out of the table's hands). */
static void
test_typed_tables_skip_chunks (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("preemptirq-v7.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlSession) session = cs_sql_session_new (doc, &error);
  guint n_tables = 0;

  g_assert_no_error (error);
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, t);
      g_autofree char *filter = g_strdup_printf ("+system = '%s' AND +name = '%s'", type->system,
                                                 type->name);
      g_autofree char *table = g_strdup_printf ("\"%s:%s\"", type->system, type->name);
      char *pairs[2][2] = {
        { g_strdup_printf ("SELECT cpu, ts, pid FROM %s", table),
          g_strdup_printf ("SELECT cpu, ts, pid FROM events WHERE %s", filter) },
        { g_strdup_printf ("SELECT ts FROM %s ORDER BY ts DESC LIMIT 3", table),
          g_strdup_printf ("SELECT ts FROM events WHERE %s ORDER BY ts DESC LIMIT 3", filter) },
      };

      if (type->n_events == 0)
        {
          for (guint f = 0; f < G_N_ELEMENTS (pairs); f++)
            g_free (pairs[f][0]), g_free (pairs[f][1]);
          continue;
        }
      for (guint f = 0; f < G_N_ELEMENTS (pairs); f++)
        {
          g_autofree char *fast = pairs[f][0];
          g_autofree char *slow = pairs[f][1];
          g_autofree char *have = cs_test_query_rows (session, fast);
          g_autofree char *want = cs_test_query_rows (session, slow);
          g_auto(GStrv) lines = g_strsplit (have, "\n", -1);

          if (g_strcmp0 (have, want) != 0)
            g_error ("%s\n%s\nagainst %s\n%s", fast, have, slow, want);
          if (f == 0)
            g_assert_cmpuint (g_strv_length (lines), >=, type->n_events);
        }
      n_tables++;
    }
  g_test_message ("%u typed tables compared with `events`", n_tables);
  g_assert_cmpuint (n_tables, >=, 10);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/sql/SqlSession/event-counts-match-report", test_counts);
  g_test_add_func ("/cs/sql/SqlSession/fields-and-ranges-match-report", test_fields_and_ranges);
  g_test_add_func ("/cs/sql/SqlSession/pushdown-matches-scan", test_pushdown);
  g_test_add_func ("/cs/sql/SqlSession/typed-tables-skip-chunks", test_typed_tables_skip_chunks);
  g_test_add_func ("/cs/sql/SqlSession/count-by-weights-matches-plain", test_count_by_weights);
  g_test_add_func ("/cs/sql/SqlSession/refuses-writes", test_refuses_writes);
  g_test_add_func ("/cs/sql/SqlSession/errors", test_errors);
  g_test_add_func ("/cs/sql/SqlSession/derived-tables", test_derived);
  return g_test_run ();
}
