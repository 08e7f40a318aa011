/* test-range-stats.c: cs_document_compute_range_stats() against an oracle
 * that reads trace-cmd report (tests/oracle/report-stats.py).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * On every recording of tests/data and ../shared/testdata/public whose
 * events are all in the top buffer, for the whole recording (answered from
 * the index's summaries) and for spans (answered from the chunks of the
 * span): per task CPU time, per CPU busy time and events, events per type
 * and the wakeup latency summary must equal the oracle's; and the figures
 * of two halves must add up to those of the whole.  With several
 * recordings on one axis (a KVM host and its guest), a span of the axis
 * converted into each recording's clock (cs_stream_span_from_axis())
 * must hold the span on every vCPU and give, through the set's document,
 * the figures of the recording opened alone.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cs-document.h"
#include "cs-range-stats.h"
#include "cs-range-wakeups-private.h"
#include "cs-stream-set.h"
#include "index-test-util.h"

/* The oracle's JSON for [begin, end) of @path, or NULL when trace-cmd
 * cannot read it. */
static JsonObject *
run_oracle (const char *path,
            gint64      begin,
            gint64      end)
{
  g_autofree char *b = g_strdup_printf ("--begin=%" G_GINT64_FORMAT, begin);
  g_autofree char *e = g_strdup_printf ("--end=%" G_GINT64_FORMAT, end);
  const char *argv[] = { "python3", g_getenv ("CS_STATS_ORACLE"), b, e, path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *members[] = { "begin", "end", "n_events", "top_buffer_only",
                            "tasks", "cpus", "events", "wakeups" };
  JsonObject *root;
  int status;

  g_assert_nonnull (argv[1]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  if (WIFEXITED (status) && WEXITSTATUS (status) == 1)
    return NULL;
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("report-stats.py failed on %s: %s\n%s", path, error->message, err);
  if (!json_parser_load_from_data (parser, out, -1, &error)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    g_error ("report-stats.py printed no JSON object for %s (%s)\nstdout: %s\nstderr: %s",
             path, error ? error->message : "not an object", out, err);
  root = json_node_get_object (json_parser_get_root (parser));
  /* A member missing would only show as a json-glib critical later on:
   * say here what the oracle printed, and what trace-cmd told it.  The
   * span (the first two) is only there when the top buffer has events;
   * the test skips recordings with instance buffers. */
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    if (!json_object_has_member (root, members[i])
        && (i >= 2 || !json_object_has_member (root, "top_buffer_only")
            || json_object_get_boolean_member (root, "top_buffer_only")))
      g_error ("report-stats.py's output for %s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
               ") has no \"%s\"\nstdout: %s\nstderr: %s",
               path, begin, end, members[i], out, err);
  return json_object_ref (root);
}

static void
assert_stats_match (CsDocument         *doc,
                    const CsRangeStats *st,
                    JsonObject         *oracle,
                    const char         *what)
{
  JsonObject *tasks = json_object_get_object_member (oracle, "tasks");
  JsonObject *cpus = json_object_get_object_member (oracle, "cpus");
  JsonObject *events = json_object_get_object_member (oracle, "events");
  JsonObject *w = json_object_get_object_member (oracle, "wakeups");
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_assert_cmpint (st->begin_ns, ==, json_object_get_int_member (oracle, "begin"));
  g_assert_cmpint (st->end_ns, ==, json_object_get_int_member (oracle, "end"));
  g_assert_cmpuint (st->n_events, ==, json_object_get_int_member (oracle, "n_events"));

  g_assert_cmpuint (st->tasks->len, ==, json_object_get_size (tasks));
  for (guint i = 0; i < st->tasks->len; i++)
    {
      const CsTaskTime *t = &g_array_index (st->tasks, CsTaskTime, i);
      g_autofree char *key = g_strdup_printf ("%d", t->pid);

      if (!json_object_has_member (tasks, key) || json_object_get_int_member (tasks, key) != t->runtime_ns)
        g_error ("%s: pid %d ran %" G_GINT64_FORMAT " ns, the oracle says %" G_GINT64_FORMAT,
                 what, t->pid, t->runtime_ns,
                 json_object_has_member (tasks, key) ? json_object_get_int_member (tasks, key) : -1);
      if (i > 0)
        g_assert_cmpint (t->runtime_ns, <=, g_array_index (st->tasks, CsTaskTime, i - 1).runtime_ns);
    }

  for (guint i = 0; i < st->cpus->len; i++)
    {
      const CsCpuBusy *c = &g_array_index (st->cpus, CsCpuBusy, i);
      g_autofree char *key = g_strdup_printf ("%u", c->cpu);
      JsonObject *o = json_object_has_member (cpus, key) ? json_object_get_object_member (cpus, key) : NULL;

      g_assert_cmpint (c->busy_ns, ==, o ? json_object_get_int_member (o, "busy_ns") : 0);
      g_assert_cmpuint (c->n_events, ==, o ? json_object_get_int_member (o, "n_events") : 0);
    }

  /* report prints names only: sum types of the same name. */
  for (guint i = 0; i < st->event_types->len; i++)
    {
      const CsTypeCount *c = &g_array_index (st->event_types, CsTypeCount, i);
      const char *name = cs_document_get_event_type (doc, c->type_id)->name;
      guint64 *n = g_hash_table_lookup (by_name, name);

      if (n == NULL)
        g_hash_table_insert (by_name, (gpointer) name, (n = g_new0 (guint64, 1)));
      *n += c->n_events;
    }
  g_assert_cmpuint (g_hash_table_size (by_name), ==, json_object_get_size (events));
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init (&iter, by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!json_object_has_member (events, key))
        g_error ("%s: %" G_GUINT64_FORMAT " %s events, none in the oracle's", what,
                 *(guint64 *) value, (const char *) key);
      g_assert_cmpuint (*(guint64 *) value, ==, json_object_get_int_member (events, key));
    }

  g_assert_cmpuint (st->wakeups.count, ==, json_object_get_int_member (w, "count"));
  if (st->wakeups.count > 0)
    {
      g_assert_cmpint (st->wakeups.min_ns, ==, json_object_get_int_member (w, "min"));
      g_assert_cmpint (st->wakeups.p50_ns, ==, json_object_get_int_member (w, "p50"));
      g_assert_cmpint (st->wakeups.p90_ns, ==, json_object_get_int_member (w, "p90"));
      g_assert_cmpint (st->wakeups.p99_ns, ==, json_object_get_int_member (w, "p99"));
      g_assert_cmpint (st->wakeups.max_ns, ==, json_object_get_int_member (w, "max"));
    }
}

static CsRangeStats *
compute (CsDocument *doc,
         gint64      begin,
         gint64      end)
{
  g_autoptr(GError) error = NULL;
  CsRangeStats *st = cs_document_compute_range_stats (doc, begin, end, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (st);
  return st;
}

/* The recording at @path, or NULL when it cannot be read or has no events
 * (the damaged ones of the recordings listed). */
static CsDocument *
load_with_events (const char *path)
{
  g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, NULL);

  return doc != NULL && cs_document_get_n_events (doc) > 0 ? g_steal_pointer (&doc) : NULL;
}

static void
test_match_oracle (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_spans = 0, n_wakeups = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      const char *path = paths->pdata[p];
      g_autoptr(CsDocument) doc = load_with_events (path);
      gint64 first, last;
      GRand *rand;

      if (doc == NULL)
        continue;
      first = cs_document_get_first_ns (doc);
      last = cs_document_get_last_ns (doc);
      rand = g_rand_new_with_seed (13 + p);
      for (guint r = 0; r < 4; r++)
        {
          /* The whole recording, then spans of 1/2 to 1/64 of it. */
          gint64 len = r == 0 ? last - first + 1 : (last - first + 1) >> g_rand_int_range (rand, 1, 7);
          gint64 begin = r == 0 ? G_MININT64 : first + (gint64) (g_rand_double (rand) * (last - first + 1 - len));
          gint64 end = r == 0 ? G_MAXINT64 : begin + MAX (len, 1);
          g_autoptr(JsonObject) oracle = run_oracle (path, r == 0 ? first : begin, r == 0 ? last + 1 : end);
          g_autoptr(CsRangeStats) st = NULL;
          g_autofree char *what = NULL;

          if (oracle == NULL || !json_object_get_boolean_member (oracle, "top_buffer_only"))
            break;
          st = compute (doc, begin, end);
          g_assert_true (st->whole == (r == 0));
          what = g_strdup_printf ("%s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", path,
                                  st->begin_ns, st->end_ns);
          assert_stats_match (doc, st, oracle, what);
          n_spans++;
          n_wakeups += st->wakeups.count;
        }
      g_rand_free (rand);
    }
  g_test_message ("%u spans compared, %u wakeups", n_spans, n_wakeups);
  g_assert_cmpuint (n_spans, >=, 40);
  g_assert_cmpuint (n_wakeups, >, 500);
}

/* The whole recording comes from summaries, spans from chunks: two halves
 * must add up to the whole. */
static void
test_halves_add_up (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  gint64 mid = first + (last - first) / 3;
  g_autoptr(CsRangeStats) whole = compute (doc, G_MININT64, G_MAXINT64);
  g_autoptr(CsRangeStats) a = compute (doc, first, mid);
  g_autoptr(CsRangeStats) b = compute (doc, mid, last + 1);
  g_autoptr(CsRangeStats) empty = compute (doc, last + 10, last + 20);
  gint64 sum_whole = 0, sum_halves = 0;

  g_assert_true (whole->whole);
  g_assert_false (a->whole);
  g_assert_cmpuint (a->n_events + b->n_events, ==, whole->n_events);
  g_assert_cmpuint (a->wakeups.count + b->wakeups.count, ==, whole->wakeups.count);
  g_assert_cmpint (MAX (a->wakeups.max_ns, b->wakeups.max_ns), ==, whole->wakeups.max_ns);
  for (guint i = 0; i < whole->cpus->len; i++)
    g_assert_cmpint (g_array_index (a->cpus, CsCpuBusy, i).busy_ns + g_array_index (b->cpus, CsCpuBusy, i).busy_ns,
                     ==, g_array_index (whole->cpus, CsCpuBusy, i).busy_ns);
  for (guint i = 0; i < whole->tasks->len; i++)
    sum_whole += g_array_index (whole->tasks, CsTaskTime, i).runtime_ns;
  for (guint i = 0; i < a->tasks->len; i++)
    sum_halves += g_array_index (a->tasks, CsTaskTime, i).runtime_ns;
  for (guint i = 0; i < b->tasks->len; i++)
    sum_halves += g_array_index (b->tasks, CsTaskTime, i).runtime_ns;
  g_assert_cmpint (sum_halves, ==, sum_whole);

  /* Past the end: nothing, and no error. */
  g_assert_cmpuint (empty->n_events, ==, 0);
  g_assert_cmpuint (empty->tasks->len, ==, 0);
  g_assert_cmpuint (empty->wakeups.count, ==, 0);
}

static void
append_wait (gint64   wakeup_ns,
             gint64   run_ns,
             gint32   cpu,
             gpointer user_data)
{
  gint64 wait[3] = { wakeup_ns, run_ns, cpu };

  g_array_append_vals (user_data, wait, 3);
}

static int
compare_ns (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* A task's waits walked in windows, as the whole recording's summary
 * walks a busy task (cs-range-stats.c), are those of one walk: each
 * once, in its wakeup's window, its run found past the window's end.
 * The windows are cut into equal parts and at waits' own wakeups and
 * runs. */
static void
test_windows_give_the_same_waits (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint64 n_waits = 0, n_windows = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsDocument) doc = cs_document_load (paths->pdata[p], NULL, NULL, NULL, NULL, &error);
      gint64 first, end;

      if (doc == NULL || cs_document_get_n_events (doc) == 0)
        continue;
      first = cs_document_get_first_ns (doc);
      end = cs_document_get_last_ns (doc) + 1;
      for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
        {
          gint32 pid = cs_document_get_task (doc, i)->pid;
          g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GArray) windowed = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gint64));

          if (pid <= 0)
            continue;
          g_assert_true (cs_document_foreach_wakeup (doc, pid, first, end, append_wait, one, &error));
          g_assert_no_error (error);
          for (guint k = 1; k < 7; k++)
            {
              gint64 cut = first + (end - first) / 7 * k;

              g_array_append_val (cuts, cut);
            }
          for (guint w = 0; w < one->len / 3; w++)
            if (w % 3 == 0 || w % 5 == 0)
              g_array_append_val (cuts, g_array_index (one, gint64, 3 * w + (w % 3 == 0 ? 0 : 1)));
          g_array_append_val (cuts, end);
          g_array_sort (cuts, compare_ns);
          for (guint c = 0, b = 0; c < cuts->len; c++)
            {
              gint64 from = b == 0 ? first : g_array_index (cuts, gint64, b - 1);
              gint64 to = g_array_index (cuts, gint64, c);

              if (to <= from)
                continue;
              g_assert_true (cs_document_foreach_wakeup (doc, pid, from, to, append_wait, windowed, &error));
              g_assert_no_error (error);
              b = c + 1;
              n_windows++;
            }
          /* No memcmp() of an empty array's NULL data. */
          if (one->len != windowed->len ||
              (one->len > 0 && memcmp (one->data, windowed->data, one->len * sizeof (gint64)) != 0))
            g_error ("%s: pid %d: %u waits in one walk, %u in windows",
                     (const char *) paths->pdata[p], pid, one->len / 3, windowed->len / 3);
          n_waits += one->len / 3;
        }
    }
  g_test_message ("%" G_GUINT64_FORMAT " waits, %" G_GUINT64_FORMAT " windows", n_waits, n_windows);
  g_assert_cmpuint (n_waits, >, 1000);
}

/* The whole recording's wakeup summary is kept beside the index; a kept
 * summary of another recording, or a damaged one, is not trusted. */
static void
test_wakeups_kept (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autofree char *kept = g_strconcat (cs_document_get_index_path (doc), ".wakeups", NULL);
  g_autoptr(CsRangeStats) first = compute (doc, G_MININT64, G_MAXINT64);
  const char *foreign[] = {
    "[wakeups]\nidentity=another\nschema=2\nversion=1\ncount=1\nmin=1\np50=1\np90=1\np99=1\nmax=1\n",
    "[wakeups]\ncount=oops\n",
    "not a key file",
  };

  g_assert_true (g_file_test (kept, G_FILE_TEST_EXISTS));
  for (guint i = 0; i <= G_N_ELEMENTS (foreign); i++)
    {
      g_autoptr(CsRangeStats) again = compute (doc, G_MININT64, G_MAXINT64);

      g_assert_cmpuint (again->wakeups.count, ==, first->wakeups.count);
      g_assert_cmpint (again->wakeups.p50_ns, ==, first->wakeups.p50_ns);
      g_assert_cmpint (again->wakeups.p99_ns, ==, first->wakeups.p99_ns);
      g_assert_cmpint (again->wakeups.max_ns, ==, first->wakeups.max_ns);
      if (i < G_N_ELEMENTS (foreign))
        g_assert_true (g_file_set_contents (kept, foreign[i], -1, NULL));
    }
}

/* Compares cs_document_compute_task_times() with the range's statistics on
 * six spans of @doc; returns how many, and counts in *@n_outside those
 * long enough to be read outside. */
static guint
compare_task_times (CsDocument *doc,
                    const char *path,
                    guint      *n_outside)
{
  g_autofree char *kept = g_strconcat (cs_document_get_index_path (doc), ".wakeups", NULL);
  gint64 first = cs_document_get_first_ns (doc);
  gint64 len = cs_document_get_last_ns (doc) - first + 1;
  /* The whole recording; spans of 9/10, 3/5 (read outside), 2/5, 1/10
   * (read inside) of it; one past its end. */
  const gint64 tenths[][2] = { { -1, -1 }, { 1, 10 }, { 2, 8 }, { 3, 7 }, { 6, 7 }, { 11, 12 } };

  g_unlink (kept);
  for (guint r = 0; r < G_N_ELEMENTS (tenths); r++)
    {
      gint64 begin = r == 0 ? G_MININT64 : first + len / 10 * tenths[r][0];
      gint64 end = r == 0 ? G_MAXINT64 : first + len / 10 * tenths[r][1];
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) times = cs_document_compute_task_times (doc, begin, end, NULL, &error);
      g_autoptr(CsRangeStats) st = NULL;

      g_assert_no_error (error);
      g_assert_false (g_file_test (kept, G_FILE_TEST_EXISTS));
      st = compute (doc, begin, end);
      if (times->len != st->tasks->len)
        g_error ("%s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): %u tasks, the range's "
                 "statistics have %u", path, st->begin_ns, st->end_ns, times->len, st->tasks->len);
      for (guint i = 0; i < times->len; i++)
        {
          const CsTaskTime *a = &g_array_index (times, CsTaskTime, i);
          const CsTaskTime *b = &g_array_index (st->tasks, CsTaskTime, i);

          if (a->pid != b->pid || a->runtime_ns != b->runtime_ns)
            g_error ("%s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), task %u: pid %d ran %"
                     G_GINT64_FORMAT " ns, the range's statistics say pid %d ran %"
                     G_GINT64_FORMAT " ns", path, st->begin_ns, st->end_ns, i, a->pid,
                     a->runtime_ns, b->pid, b->runtime_ns);
          g_assert_cmpfloat (fabs (a->share - b->share), <, 1e-12);
        }
      *n_outside += !st->whole && (st->end_ns - st->begin_ns) * 2 > len && times->len > 0;
      g_unlink (kept);
    }
  return G_N_ELEMENTS (tenths);
}

/* cs_document_compute_task_times() gives the tasks of the range's
 * statistics (checked against the oracle above), the same figures in the
 * same order, whether it reads the span's slices, those outside a long
 * span, or the tasks table; and it never computes the wakeup summary. */
/* The wakeup summary of a span is shared between two threads when its
 * tasks hold enough events (cs-range-wakeups.c): forced on every span
 * here, it must give what one thread gives. */
static void
test_two_threads (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint64 saved = _cs_range_wakeups_share_min_events;
  guint helped = g_atomic_int_get (&_cs_range_wakeups_n_helped);
  guint n_spans = 0, n_wakeups = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      g_autoptr(CsDocument) doc = load_with_events (paths->pdata[p]);
      gint64 first, last;

      if (doc == NULL)
        continue;
      first = cs_document_get_first_ns (doc);
      last = cs_document_get_last_ns (doc);
      for (guint r = 0; r < 3; r++)
        {
          /* All but the last nanosecond (not the whole recording, whose
           * summary is kept in a file), then its first and second half. */
          gint64 begin = r < 2 ? first : first + (last - first) / 2;
          gint64 end = r == 0 ? last : r == 1 ? first + (last - first) / 2 : last + 1;
          g_autoptr(CsRangeStats) one = NULL;
          g_autoptr(CsRangeStats) two = NULL;

          _cs_range_wakeups_share_min_events = G_MAXUINT64;
          one = compute (doc, begin, end);
          _cs_range_wakeups_share_min_events = 0;
          two = compute (doc, begin, end);
          g_assert_false (one->whole);
          g_assert_cmpmem (&one->wakeups, sizeof one->wakeups, &two->wakeups, sizeof two->wakeups);
          n_spans++;
          n_wakeups += one->wakeups.count;
        }
    }
  _cs_range_wakeups_share_min_events = saved;
  g_test_message ("%u spans, %u wakeups, the second thread walked %u shares", n_spans, n_wakeups,
                  g_atomic_int_get (&_cs_range_wakeups_n_helped) - helped);
  g_assert_cmpuint (n_spans, >=, 30);
  g_assert_cmpuint (n_wakeups, >, 500);
  g_assert_cmpuint (g_atomic_int_get (&_cs_range_wakeups_n_helped) - helped, >=, n_spans / 2);
}

static void
test_task_times (void)
{
  g_autoptr(GPtrArray) paths = cs_test_list_recordings ();
  guint n_spans = 0, n_outside = 0;

  for (guint p = 0; p < paths->len; p++)
    {
      g_autoptr(CsDocument) doc = load_with_events (paths->pdata[p]);

      if (doc != NULL)
        n_spans += compare_task_times (doc, paths->pdata[p], &n_outside);
    }
  g_test_message ("%u spans compared, %u read outside the span", n_spans, n_outside);
  g_assert_cmpuint (n_spans, >=, 30);
  g_assert_cmpuint (n_outside, >=, 5);
}

static void
test_cancel (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  CsRangeStats *st;

  g_cancellable_cancel (cancellable);
  st = cs_document_compute_range_stats (doc, cs_document_get_first_ns (doc) + 1, G_MAXINT64,
                                        cancellable, &error);
  g_assert_null (st);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* The figures of two computations, field by field. */
static void
assert_same_stats (const CsRangeStats *a, const CsRangeStats *b)
{
  g_assert_cmpint (a->begin_ns, ==, b->begin_ns);
  g_assert_cmpint (a->end_ns, ==, b->end_ns);
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpuint (a->tasks->len, ==, b->tasks->len);
  for (guint i = 0; i < a->tasks->len; i++)
    {
      const CsTaskTime *x = &g_array_index (a->tasks, CsTaskTime, i);
      const CsTaskTime *y = &g_array_index (b->tasks, CsTaskTime, i);

      g_assert_cmpint (x->pid, ==, y->pid);
      g_assert_cmpint (x->runtime_ns, ==, y->runtime_ns);
      g_assert_cmpfloat (x->share, ==, y->share);
    }
  g_assert_cmpuint (a->cpus->len, ==, b->cpus->len);
  for (guint i = 0; i < a->cpus->len; i++)
    {
      const CsCpuBusy *x = &g_array_index (a->cpus, CsCpuBusy, i);
      const CsCpuBusy *y = &g_array_index (b->cpus, CsCpuBusy, i);

      g_assert_cmpuint (x->cpu, ==, y->cpu);
      g_assert_cmpint (x->busy_ns, ==, y->busy_ns);
      g_assert_cmpuint (x->n_events, ==, y->n_events);
    }
  g_assert_cmpuint (a->event_types->len, ==, b->event_types->len);
  for (guint i = 0; i < a->event_types->len; i++)
    {
      g_assert_cmpuint (g_array_index (a->event_types, CsTypeCount, i).type_id, ==,
                        g_array_index (b->event_types, CsTypeCount, i).type_id);
      g_assert_cmpuint (g_array_index (a->event_types, CsTypeCount, i).n_events, ==,
                        g_array_index (b->event_types, CsTypeCount, i).n_events);
    }
  g_assert_cmpuint (a->wakeups.count, ==, b->wakeups.count);
  g_assert_cmpint (a->wakeups.min_ns, ==, b->wakeups.min_ns);
  g_assert_cmpint (a->wakeups.p50_ns, ==, b->wakeups.p50_ns);
  g_assert_cmpint (a->wakeups.p99_ns, ==, b->wakeups.p99_ns);
  g_assert_cmpint (a->wakeups.max_ns, ==, b->wakeups.max_ns);
}

/* One span of a host/guest pair's axis, per stream. */
static void
check_stream_pair (const char *host_path, const char *guest_path)
{
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsDocument) host = cs_document_load (host_path, NULL, NULL, NULL, NULL, NULL);
  g_autoptr(CsDocument) guest = cs_document_load (guest_path, NULL, NULL, NULL, NULL, NULL);
  const char *paths[2] = { host_path, guest_path };
  CsStream *gs;
  gint64 first, last, axis_begin, axis_end;

  g_assert_nonnull (host);
  g_assert_nonnull (guest);
  cs_stream_set_add (set, host, NULL);
  gs = cs_stream_set_add (set, guest, NULL);
  g_assert_cmpint (cs_stream_get_alignment (gs), ==, CS_STREAM_ALIGNMENT_GUEST);
  /* The middle half of the guest's recording, on the axis (the host's clock). */
  first = cs_stream_to_axis_ns (gs, 0, cs_document_get_first_ns (guest));
  last = cs_stream_to_axis_ns (gs, 0, cs_document_get_last_ns (guest));
  axis_begin = first + (last - first) / 4;
  axis_end = first + (last - first) * 3 / 4;

  for (guint k = 0; k < 2; k++)
    {
      CsStream *stream = cs_stream_set_get_stream (set, k);
      CsDocument *doc = cs_stream_get_document (stream);
      g_autoptr(CsDocument) alone = cs_document_load (paths[k], NULL, NULL, NULL, NULL, NULL);
      g_autoptr(CsRangeStats) in_set = NULL;
      g_autoptr(CsRangeStats) by_itself = NULL;
      gint64 begin, end;
      gboolean exact = FALSE;

      cs_stream_span_from_axis (stream, axis_begin, axis_end, &begin, &end);
      g_test_message ("%s: axis [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is [%" G_GINT64_FORMAT
                      ", %" G_GINT64_FORMAT ") of its clock", cs_stream_get_name (stream),
                      axis_begin, axis_end, begin, end);
      /* The span lands on the axis span, on every CPU (each vCPU its own
       * offsets), within the fixed-point's nanosecond or two. */
      for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
        {
          gint64 b = cs_stream_to_axis_ns (stream, cpu, begin);
          gint64 e = cs_stream_to_axis_ns (stream, cpu, end);

          g_assert_cmpint (b, <=, axis_begin + 2);
          g_assert_cmpint (e, >=, axis_end - 2);
          exact = exact || ABS (b - axis_begin) <= 2;
        }
      g_assert_true (exact);
      if (k == 0)
        {
          g_assert_cmpint (begin, ==, axis_begin);
          g_assert_cmpint (end, ==, axis_end);
        }
      else
        g_assert_cmpint (ABS ((begin - axis_begin) - (cs_document_get_first_ns (guest) - first)), <,
                         (axis_end - axis_begin) / 100);

      in_set = compute (doc, begin, end);
      g_assert_nonnull (alone);
      by_itself = compute (alone, begin, end);
      g_assert_cmpuint (in_set->n_events, >, 0);
      assert_same_stats (in_set, by_itself);
    }
}

static void
test_streams (void)
{
  g_autofree char *host = cs_test_own_path ("pair/pair-host-v6.dat");
  g_autofree char *guest = cs_test_own_path ("pair/pair-guest-v6.dat");
  g_autofree char *kvm_host = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *kvm_guest = kvm_host != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;

  check_stream_pair (host, guest);
  if (kvm_guest != NULL)     /* else cs_test_kvm_path() said why */
    check_stream_pair (kvm_host, kvm_guest);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/index/RangeStats/match-report", test_match_oracle);
  g_test_add_func ("/cs/index/RangeStats/halves-add-up", test_halves_add_up);
  g_test_add_func ("/cs/index/RangeStats/whole-wakeups-kept", test_wakeups_kept);
  g_test_add_func ("/cs/index/RangeStats/windows-give-the-same-waits", test_windows_give_the_same_waits);
  g_test_add_func ("/cs/index/RangeStats/two-threads", test_two_threads);
  g_test_add_func ("/cs/index/RangeStats/task-times", test_task_times);
  g_test_add_func ("/cs/index/RangeStats/cancel", test_cancel);
  g_test_add_func ("/cs/index/RangeStats/streams", test_streams);
  return g_test_run ();
}
