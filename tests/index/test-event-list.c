/* test-event-list.c: the event list, its filters and search, and task
 * states, against `trace-cmd report` on real recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-document.h"
#include "cs-event-filter.h"
#include "cs-event-list.h"
#include "cs-task-timeline.h"
#include "index-test-util.h"

typedef struct {
  gint64 ts_ns;
  guint cpu;
  gint32 pid;
  char *name;
  char *rest;
} ReportLine;

static void
report_line_clear (gpointer data)
{
  ReportLine *l = data;
  g_free (l->name);
  g_free (l->rest);
}

/* `trace-cmd report -t [-F FILTER] FILE`, one entry per event line. */
static GArray *
run_report (const char *path,
            const char *filter)
{
  const char *argv[] = { "trace-cmd", "report", "-t", filter ? "-F" : path, filter ? filter : NULL, filter ? path : NULL, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) re = g_regex_new ("^\\s*(.*)-(\\d+)\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d{9}):\\s+([^:\\s]+):\\s*(.*)$",
                                      G_REGEX_OPTIMIZE, 0, NULL);
  GArray *lines = g_array_new (FALSE, TRUE, sizeof (ReportLine));
  g_auto(GStrv) split = NULL;
  int status;

  g_array_set_clear_func (lines, report_line_clear);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  split = g_strsplit (out, "\n", -1);
  for (guint i = 0; split[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;
      ReportLine l;

      if (!g_regex_match (re, split[i], 0, &m))
        continue;
      g_autofree char *pid = g_match_info_fetch (m, 2);
      g_autofree char *cpu = g_match_info_fetch (m, 3);
      g_autofree char *sec = g_match_info_fetch (m, 4);
      g_autofree char *ns = g_match_info_fetch (m, 5);
      l.pid = atoi (pid);
      l.cpu = atoi (cpu);
      l.ts_ns = g_ascii_strtoll (sec, NULL, 10) * 1000000000 + g_ascii_strtoll (ns, NULL, 10);
      l.name = g_match_info_fetch (m, 6);
      l.rest = g_match_info_fetch (m, 7);
      g_array_append_val (lines, l);
    }
  return lines;
}

static void
wait_ready (CsEventList *list)
{
  while (!cs_event_list_get_ready (list))
    g_main_context_iteration (NULL, TRUE);
}

static void
test_order_matches_report (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(CsEventList) list = cs_event_list_new (doc, NULL);
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GArray) report = run_report (path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  g_assert_true (cs_event_list_get_ready (list));
  g_assert_cmpuint (report->len, ==, cs_event_list_get_n_events (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, report->len);

  /* In sequence, as a view scrolls. */
  for (guint r = 0; r < report->len; r++)
    {
      ReportLine *l = &g_array_index (report, ReportLine, r);
      CsEvent ev;

      g_assert_true (cs_event_list_get_event (list, r, &ev, &error));
      g_assert_no_error (error);
      if (ev.ts_ns != l->ts_ns || ev.cpu != l->cpu || ev.pid != l->pid)
        g_error ("row %u: index %" G_GINT64_FORMAT " cpu %u pid %d, report %" G_GINT64_FORMAT " cpu %u pid %d",
                 r, ev.ts_ns, ev.cpu, ev.pid, l->ts_ns, l->cpu, l->pid);
      g_assert_cmpstr (cs_document_get_event_type (doc, ev.type_id)->name, ==, l->name);
    }

  /* At random, as a jump of the scrollbar; and back from event to row. */
  for (guint k = 0; k < 200; k++)
    {
      guint r = g_rand_int_range (rand, 0, report->len);
      ReportLine *l = &g_array_index (report, ReportLine, r);
      g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), r);
      const CsEvent *ev = cs_event_item_get_event (item);
      guint64 row;

      g_assert_cmpint (ev->ts_ns, ==, l->ts_ns);
      g_assert_cmpuint (ev->cpu, ==, l->cpu);
      g_assert_true (cs_event_list_find_row (list, ev, &row, &error));
      g_assert_cmpuint (row, ==, r);
      g_assert_true (g_str_has_suffix (cs_event_item_get_name (item), l->name));
      /* The info text is what report prints after the name. */
      g_assert_cmpstr (cs_event_item_get_info (item), ==, g_strstrip (l->rest));
    }

  /* Time to row: the first row at or after a time. */
  {
    ReportLine *l = &g_array_index (report, ReportLine, report->len / 2);
    guint64 row;
    g_assert_true (cs_event_list_find_row_at_time (list, l->ts_ns, &row, &error));
    g_assert_cmpint (g_array_index (report, ReportLine, row).ts_ns, ==, l->ts_ns);
    g_assert_true (row == 0 || g_array_index (report, ReportLine, row - 1).ts_ns < l->ts_ns);
  }
}

static guint
find_type (CsDocument *doc,
           const char *system,
           const char *name)
{
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, t);
      if (g_str_equal (type->system, system) && g_str_equal (type->name, name))
        return t;
    }
  g_assert_not_reached ();
}

static void
test_filters_match_report (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(CsEventList) list = NULL;
  g_autoptr(GArray) switches = run_report (path, "sched/sched_switch");
  g_autoptr(GError) error = NULL;
  guint sw = find_type (doc, "sched", "sched_switch");
  gint32 pid;

  /* Show only sched_switch. */
  cs_event_filter_set_mode (filter, CS_FILTER_TYPE, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add (filter, CS_FILTER_TYPE, sw);
  list = cs_event_list_new (doc, filter);
  wait_ready (list);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, switches->len);
  for (guint r = 0; r < switches->len; r += 7)
    {
      CsEvent ev;
      g_assert_true (cs_event_list_get_event (list, r, &ev, &error));
      g_assert_cmpint (ev.ts_ns, ==, g_array_index (switches, ReportLine, r).ts_ns);
    }

  /* An expression, as trace-cmd report -F takes it. */
  pid = g_array_index (switches, ReportLine, switches->len / 2).pid;
  {
    g_autofree char *expr = g_strdup_printf ("sched/sched_switch: prev_pid == %d", pid);
    g_autoptr(GArray) expected = run_report (path, expr);
    g_autoptr(CsEventFilter) f2 = cs_event_filter_new ();

    g_assert_true (cs_event_filter_set_expression (f2, doc, expr, &error));
    g_assert_no_error (error);
    cs_event_list_set_filter (list, f2);
    g_assert_false (cs_event_list_get_ready (list));
    wait_ready (list);
    g_assert_cmpuint (expected->len, >, 0);
    g_assert_cmpuint (cs_event_list_get_n_events (list), ==, expected->len);

    /* Round trip through the session text. */
    g_autofree char *text = cs_event_filter_to_string (f2);
    g_autoptr(CsEventFilter) back = cs_event_filter_new_from_string (doc, text, &error);
    g_assert_no_error (error);
    g_assert_true (cs_event_filter_equal (back, f2));
  }

  /* Hide a task: every remaining row is someone else's. */
  {
    g_autoptr(CsEventFilter) f3 = cs_event_filter_new ();
    g_autoptr(GArray) all = run_report (path, NULL);
    guint expected = 0;

    cs_event_filter_set_mode (f3, CS_FILTER_PID, CS_FILTER_HIDE);
    cs_event_filter_add (f3, CS_FILTER_PID, pid);
    for (guint i = 0; i < all->len; i++)
      expected += g_array_index (all, ReportLine, i).pid != pid;
    cs_event_list_set_filter (list, f3);
    wait_ready (list);
    g_assert_cmpuint (cs_event_list_get_n_events (list), ==, expected);
  }

  /* A bad expression names its problem. */
  {
    g_autoptr(CsEventFilter) bad = cs_event_filter_new ();
    g_assert_false (cs_event_filter_set_expression (bad, doc, "sched/sched_switch: no_such_field == 1", &error));
    g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "no_such_field"));
  }
}

/* Expressions compiled (and filters copied) while the list counts what
 * passes another expression, in its thread: a count that matched records
 * against the document's own tep_handle reset its tokenizer and made a
 * compile meanwhile fail with "Syntax error" (libtraceevent 1.7). */
static void
test_compile_while_counting (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(CsEventFilter) counted = cs_event_filter_new ();
  g_autoptr(CsEventList) list = NULL;
  g_autoptr(GError) error = NULL;
  guint n_during = 0;

  g_assert_true (cs_event_filter_set_expression (counted, doc, "sched/sched_switch: prev_prio < 130", &error));
  g_assert_no_error (error);
  list = cs_event_list_new (doc, NULL);
  wait_ready (list);
  for (guint round = 0; round < 40; round++)
    {
      g_autoptr(CsEventFilter) next = cs_event_filter_copy (counted);

      /* a different filter each round, so that the list counts anew */
      cs_event_filter_set_mode (next, CS_FILTER_PID, CS_FILTER_HIDE);
      cs_event_filter_add (next, CS_FILTER_PID, 100000 + round);
      cs_event_list_set_filter (list, next);
      while (!cs_event_list_get_ready (list))
        {
          g_autoptr(CsEventFilter) compiled = cs_event_filter_new ();
          g_autoptr(CsEventFilter) copy = NULL;

          g_assert_true (cs_event_filter_set_expression (compiled, doc, "sched/sched_switch: next_prio < 120", &error));
          g_assert_no_error (error);
          copy = cs_event_filter_copy (compiled);
          g_assert_cmpstr (cs_event_filter_get_expression (copy), ==, "sched/sched_switch: next_prio < 120");
          n_during++;
          g_main_context_iteration (NULL, FALSE);
        }
    }
  g_test_message ("%u expressions compiled while the list counted", n_during);
  g_assert_cmpuint (n_during, >, 0);
}

typedef struct {
  gboolean done;
  gboolean found;
  guint64 value;
} Wait;

static void
search_cb (GObject *src, GAsyncResult *res, gpointer data)
{
  Wait *w = data;
  g_autoptr(GError) error = NULL;
  w->found = cs_event_list_search_finish (CS_EVENT_LIST (src), res, &w->value, &error);
  g_assert_no_error (error);
  w->done = TRUE;
}

static void
count_cb (GObject *src, GAsyncResult *res, gpointer data)
{
  Wait *w = data;
  g_autoptr(GError) error = NULL;
  w->found = cs_event_list_count_matches_finish (CS_EVENT_LIST (src), res, &w->value, &error);
  g_assert_no_error (error);
  w->done = TRUE;
}

static void
test_search (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(CsEventList) list = cs_event_list_new (doc, NULL);
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GArray) report = run_report (path, NULL);
  guint expected = 0, first = G_MAXUINT, second = G_MAXUINT, last = G_MAXUINT;
  Wait w = { 0 };

  for (guint i = 0; i < report->len; i++)
    if (g_str_equal (g_array_index (report, ReportLine, i).name, "sched_wakeup"))
      {
        expected++;
        if (first == G_MAXUINT)
          first = i;
        else if (second == G_MAXUINT)
          second = i;
        last = i;
      }
  g_assert_cmpuint (expected, >, 2);

  cs_event_list_count_matches_async (list, CS_COLUMN_EVENT, CS_SEARCH_FULL_MATCH, "sched:sched_wakeup",
                                     NULL, count_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (w.value, ==, expected);

  w = (Wait) { 0 };
  cs_event_list_search_async (list, CS_COLUMN_EVENT, CS_SEARCH_CONTAINS, "sched_wakeup",
                              G_MAXUINT64, TRUE, NULL, search_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (w.found);
  /* "sched_wakeup" is also in "sched_wakeup_new": take the first of either. */
  for (guint i = 0; i < report->len; i++)
    if (g_str_has_prefix (g_array_index (report, ReportLine, i).name, "sched_wakeup"))
      {
        g_assert_cmpuint (w.value, ==, i);
        break;
      }

  w = (Wait) { 0 };
  cs_event_list_search_async (list, CS_COLUMN_EVENT, CS_SEARCH_FULL_MATCH, "sched:sched_wakeup",
                              first, TRUE, NULL, search_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (w.found);
  g_assert_cmpuint (w.value, ==, second);

  w = (Wait) { 0 };
  cs_event_list_search_async (list, CS_COLUMN_EVENT, CS_SEARCH_FULL_MATCH, "sched:sched_wakeup",
                              G_MAXUINT64, FALSE, NULL, search_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (w.found);
  g_assert_cmpuint (w.value, ==, last);

  /* In the info column too. */
  w = (Wait) { 0 };
  cs_event_list_count_matches_async (list, CS_COLUMN_INFO, CS_SEARCH_CONTAINS, "chronoscope-test",
                                     NULL, count_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  {
    guint n = 0;
    for (guint i = 0; i < report->len; i++)
      n += strstr (g_array_index (report, ReportLine, i).rest, "chronoscope-test") != NULL;
    g_assert_cmpuint (w.value, ==, n);
  }
}

/* Every sched_switch that takes a task off a CPU ends one of its running
 * intervals, and what follows is the state report prints. */
static void
test_task_states_match_report (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autofree char *path = cs_test_own_path ("sched-irq-v6.dat");
  g_autoptr(GArray) switches = run_report (path, "sched/sched_switch");
  g_autoptr(GRegex) re = g_regex_new (":(\\d+) \\[\\d+\\] (\\S+) ==>", 0, 0, NULL);
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  gint32 busiest = 0;
  guint best = 0, checked = 0;

  for (guint i = 0; i < switches->len; i++)
    {
      gint32 pid = g_array_index (switches, ReportLine, i).pid;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GINT_TO_POINTER (pid))) + 1;
      g_hash_table_insert (counts, GINT_TO_POINTER (pid), GUINT_TO_POINTER (n));
      if (pid != 0 && n > best)
        {
          best = n;
          busiest = pid;
        }
    }

  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  g_assert_true (cs_document_get_task_intervals (doc, busiest, cs_document_get_first_ns (doc),
                                                 cs_document_get_last_ns (doc) + 1, intervals, &error));
  g_assert_no_error (error);
  for (guint i = 1; i < intervals->len; i++)
    g_assert_cmpint (g_array_index (intervals, CsTaskInterval, i).begin_ns, >=,
                     g_array_index (intervals, CsTaskInterval, i - 1).end_ns);

  for (guint i = 0; i < switches->len; i++)
    {
      ReportLine *l = &g_array_index (switches, ReportLine, i);
      g_autoptr(GMatchInfo) m = NULL;
      g_autofree char *state = NULL;
      CsTaskState want;
      gboolean ended = FALSE;

      if (l->pid != busiest || !g_regex_match (re, l->rest, 0, &m))
        continue;
      state = g_match_info_fetch (m, 2);
      if (g_str_equal (state, "S"))
        want = CS_TASK_SLEEPING;
      else if (g_str_equal (state, "D"))
        want = CS_TASK_UNINTERRUPTIBLE;
      else if (g_str_has_prefix (state, "R"))
        want = CS_TASK_RUNNABLE;
      else
        continue;
      for (guint k = 0; k + 1 < intervals->len; k++)
        {
          CsTaskInterval *run = &g_array_index (intervals, CsTaskInterval, k);
          CsTaskInterval *next = &g_array_index (intervals, CsTaskInterval, k + 1);
          if (run->state == CS_TASK_RUNNING && run->end_ns == l->ts_ns)
            {
              g_assert_cmpint (run->cpu, ==, l->cpu);
              g_assert_cmpint (next->begin_ns, ==, l->ts_ns);
              /* A sleeper woken at once shows as runnable right away. */
              g_assert_true (next->state == want ||
                             (next->state == CS_TASK_RUNNABLE && next->wakeup_ns >= 0));
              ended = TRUE;
              break;
            }
        }
      if (!ended && l->ts_ns < cs_document_get_last_ns (doc))
        g_error ("pid %d switched out at %" G_GINT64_FORMAT " (%s): no running interval ends there",
                 busiest, l->ts_ns, state);
      checked++;
    }
  g_assert_cmpuint (checked, >, 3);

  /* Wakeup latencies end where the task runs. */
  for (guint k = 0; k + 1 < intervals->len; k++)
    {
      CsTaskInterval *iv = &g_array_index (intervals, CsTaskInterval, k);
      if (iv->state == CS_TASK_RUNNABLE && iv->wakeup_ns >= 0)
        {
          g_assert_cmpint (iv->wakeup_ns, ==, iv->begin_ns);
          g_assert_cmpint (g_array_index (intervals, CsTaskInterval, k + 1).state, ==, CS_TASK_RUNNING);
        }
    }
}

/* Every task's intervals over the whole recording follow one another:
 * a wakeup while the task still runs (a wakeup inside one of its runs,
 * as sched-x86-v7-zstd.dat has 14 of) opens no wait that would begin
 * before the run ended (cs-plugin-wakeup.h), and every wait that follows
 * a wakeup begins at it and ends where the task runs. */
static void
test_task_intervals_follow (gconstpointer data)
{
  const char *path = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  guint n_waits = 0;

  g_assert_no_error (error);
  for (guint t = 0; t < cs_document_get_n_tasks (doc); t++)
    {
      gint32 pid = cs_document_get_task (doc, t)->pid;

      g_array_set_size (intervals, 0);
      g_assert_true (cs_document_get_task_intervals (doc, pid, cs_document_get_first_ns (doc),
                                                     cs_document_get_last_ns (doc) + 1, intervals,
                                                     &error));
      g_assert_no_error (error);
      for (guint i = 0; i < intervals->len; i++)
        {
          const CsTaskInterval *iv = &g_array_index (intervals, CsTaskInterval, i);

          if (i > 0 && iv->begin_ns < g_array_index (intervals, CsTaskInterval, i - 1).end_ns)
            g_error ("%s: pid %d: interval %u (state %d) begins at %" G_GINT64_FORMAT
                     " before the one before it ends", path, pid, i, iv->state, iv->begin_ns);
          if (iv->state == CS_TASK_RUNNABLE && iv->wakeup_ns >= 0 && i + 1 < intervals->len)
            {
              g_assert_cmpint (iv->wakeup_ns, ==, iv->begin_ns);
              g_assert_cmpint (g_array_index (intervals, CsTaskInterval, i + 1).state, ==,
                               CS_TASK_RUNNING);
              n_waits++;
            }
        }
    }
  g_assert_cmpuint (n_waits, >, 0);
}

/* Raw fields: a sched_switch's prev_pid is its common_pid, as the format
 * file declares both. */
static void
test_raw_fields (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v6.dat");
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(CsEventList) list = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) fields = NULL;
  gboolean seen_prev_pid = FALSE, seen_common_pid = FALSE;
  CsEvent ev;

  cs_event_filter_set_mode (filter, CS_FILTER_TYPE, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add (filter, CS_FILTER_TYPE, find_type (doc, "sched", "sched_switch"));
  list = cs_event_list_new (doc, filter);
  wait_ready (list);
  g_assert_true (cs_event_list_get_event (list, 3, &ev, &error));
  fields = cs_document_dup_event_fields (doc, &ev, &error);
  g_assert_no_error (error);
  for (guint i = 0; fields[i] != NULL; i += 2)
    {
      g_autofree char *pid = g_strdup_printf ("%d", ev.pid);
      if (g_str_equal (fields[i], "prev_pid"))
        seen_prev_pid = g_str_equal (fields[i + 1], pid);
      if (g_str_equal (fields[i], "common_pid"))
        seen_common_pid = g_str_equal (fields[i + 1], pid);
    }
  g_assert_true (seen_prev_pid);
  g_assert_true (seen_common_pid);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/EventList/order-matches-report", test_order_matches_report);
  g_test_add_func ("/cs/index/EventList/filters-match-report", test_filters_match_report);
  g_test_add_func ("/cs/index/EventList/compile-while-counting", test_compile_while_counting);
  g_test_add_func ("/cs/index/EventList/search", test_search);
  g_test_add_func ("/cs/index/TaskTimeline/states-match-report", test_task_states_match_report);
  g_test_add_func ("/cs/index/EventList/raw-fields", test_raw_fields);
  g_test_add_data_func_full ("/cs/index/TaskTimeline/intervals-follow/sched-irq-v6",
                             cs_test_own_path ("sched-irq-v6.dat"), test_task_intervals_follow, g_free);
  if (cs_test_public_or_add_skip ("/cs/index/TaskTimeline/intervals-follow/sched-x86-v7-zstd",
                                  "sched-x86-v7-zstd.dat"))
    g_test_add_data_func_full ("/cs/index/TaskTimeline/intervals-follow/sched-x86-v7-zstd",
                               cs_test_public_path ("sched-x86-v7-zstd.dat"),
                               test_task_intervals_follow, g_free);
  return g_test_run ();
}
