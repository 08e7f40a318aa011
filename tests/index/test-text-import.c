/* test-text-import.c: trace text opened as a recording (issue 14).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every text trace of ../shared/testdata/public/text/ opens, with as many
 * events as it has event lines (counted here with a regular expression,
 * independently of the importer); and for the project's recordings, the
 * text `trace-cmd report` makes of them, generated here in a temporary
 * folder, gives the same per-CPU and per-type counts, task states and
 * wakeup latencies as the trace.dat itself.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cs-document.h"
#include "cs-range-stats.h"
#include "cs-task-timeline.h"
#include "index-test-util.h"
#include "tracefs-test-util.h"

/* Whether @program is on PATH (g_find_program_in_path()'s answer freed). */
static gboolean
have_program (const char *program)
{
  g_autofree char *path = g_find_program_in_path (program);

  return path != NULL;
}


/* Event lines of ftrace / trace-cmd text: "<task> [<cpu>] ... <secs>.<frac>: ". */
static guint64
count_event_lines (const char  *path,
                   GHashTable **per_cpu)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GRegex) re = g_regex_new ("^.*-\\d+ +(\\( *[-\\d]+\\) +)?\\[(\\d+)\\] .*\\d+\\.\\d+: ",
                                      0, 0, NULL);
  guint64 n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  *per_cpu = g_hash_table_new (NULL, NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;

      if (g_regex_match (re, lines[i], 0, &m))
        {
          g_autofree char *cpu = g_match_info_fetch (m, 2);
          gpointer key = GUINT_TO_POINTER ((guint) g_ascii_strtoull (cpu, NULL, 10));
          g_hash_table_insert (*per_cpu, key,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (*per_cpu, key)) + 1));
          n++;
        }
    }
  return n;
}

/* The per-CPU text files of the public test data open with every event line. */
static void
test_public_text (void)
{
  g_autofree char *dir_path = cs_test_public_path ("text");
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n_files = 0;

  if (dir_path == NULL)
    return;
  dir = g_dir_open (dir_path, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GHashTable) per_cpu = NULL;
      g_autoptr(CsDocument) doc = NULL;
      guint64 expected = count_event_lines (path, &per_cpu);
      guint64 first_bad = 0, n_bad;

      doc = cs_test_load_path (path);
      n_bad = cs_document_get_n_bad_lines (doc, &first_bad);
      g_test_message ("%s: %s, %u CPUs, %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
                      " lines not understood (first %" G_GUINT64_FORMAT ")", name,
                      cs_document_get_source_format (doc), cs_document_get_n_cpus (doc),
                      cs_document_get_n_events (doc), n_bad, first_bad);
      g_assert_cmpstr (cs_document_get_source_format (doc), !=, "trace.dat");
      g_assert_cmpuint (cs_document_get_n_events (doc), >, 0);
      g_assert_true ((n_bad == 0) == (first_bad == 0));
      if (expected > 0)
        {
          g_assert_cmpuint (cs_document_get_n_events (doc), ==, expected);
          for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
            g_assert_cmpuint (cs_document_get_cpu (doc, cpu)->n_events, ==,
                              GPOINTER_TO_UINT (g_hash_table_lookup (per_cpu, GUINT_TO_POINTER (cpu))));
        }
      n_files++;
    }
  g_assert_cmpuint (n_files, >, 0);
}

/* Text out of time order within a CPU is indexed in time order. */
static void
test_unsorted (void)
{
  g_autofree char *path = cs_test_public_path ("text/report-unsorted.txt");
  g_autoptr(CsDocument) doc = NULL;
  CsTraceFile *file;
  guint n_checked = 0;

  if (path == NULL)
    return;
  doc = cs_test_load_path (path);
  file = cs_document_get_trace_file (doc);
  g_assert_nonnull (file);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsCpuCursor) cursor = cs_trace_file_open_cpu (file, cpu, &error);
      gint64 last = G_MININT64;
      CsRecord rec;

      g_assert_no_error (error);
      while (cs_cpu_cursor_next (cursor, &rec, &error))
        {
          g_assert_cmpint (rec.ts_ns, >=, last);
          last = rec.ts_ns;
          n_checked++;
        }
      g_assert_no_error (error);
    }
  g_assert_cmpuint (n_checked, ==, cs_document_get_n_events (doc));
  /* CPU 6's cpu_idle at .449809 comes after the one at .449811 in the text. */
  g_assert_cmpint (cs_document_get_cpu (doc, 6)->first_ns, ==, G_GINT64_CONSTANT (7115449594000));
}

/* A line that is none of the known kinds is counted, with its number. */
static void
test_bad_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-text-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace", NULL);
  g_autofree char *prose = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  guint64 first_bad = 0;
  const char *text =
    "# tracer: nop\n"
    "          <idle>-0     [001] d..2.   100.000100: sched_waking: comm=cs-a pid=42 prio=120 target_cpu=001\n"
    "this line is damaged\n"
    "          <idle>-0     [001] d..2.   100.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 "
    "prev_prio=120 prev_state=R ==> next_comm=cs-a next_pid=42 next_prio=120\n"
    "            cs-a-42    [001] ....1   100.000400: my_event: anything at all\n";

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  doc = cs_test_load_path (path);
  g_assert_cmpstr (cs_document_get_source_format (doc), ==, "ftrace text (trace)");
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, 3);
  g_assert_cmpuint (cs_document_get_n_bad_lines (doc, &first_bad), ==, 1);
  g_assert_cmpuint (first_bad, ==, 3);
  g_assert_cmpuint (cs_document_get_n_cpus (doc), ==, 2);

  /* The wakeup latency of cs-a: waking at 100.0001, ran at 100.0003. */
  {
    g_autoptr(GArray) intervals = g_array_new (FALSE, TRUE, sizeof (CsTaskInterval));
    gboolean found = FALSE;

    g_assert_true (cs_document_get_task_intervals (doc, 42, 0, G_MAXINT64, intervals, &error));
    g_assert_no_error (error);
    for (guint i = 0; i < intervals->len; i++)
      {
        CsTaskInterval *iv = &g_array_index (intervals, CsTaskInterval, i);
        if (iv->wakeup_ns >= 0)
          {
            g_assert_cmpint (iv->end_ns - iv->wakeup_ns, ==, 200000);
            found = TRUE;
          }
      }
    g_assert_true (found);
  }

  /* Prose is not a trace: the message lists what Chronoscope reads. */
  g_assert_true (g_file_set_contents (prose, "Dear colleague,\nplease find the trace attached.\n",
                                      -1, NULL));
  g_assert_null (cs_document_load (prose, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_NOT_A_TRACE);
  g_assert_nonnull (strstr (error->message, "not a trace-cmd recording"));
  g_assert_nonnull (strstr (error->message, "ftrace text"));
  g_test_message ("%s", error->message);

  g_unlink (path);
  g_unlink (prose);
  g_rmdir (dir);
}

/* function_graph's layout with funcgraph-abstime and funcgraph-proc. */
static void
test_funcgraph (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-text-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "graph.txt", NULL);
  g_autoptr(CsDocument) doc = NULL;
  const CsTask *task;
  const char *text =
    "# tracer: function_graph\n"
    "#\n"
    "#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
    "#      |          |     |    |           |   |                     |   |   |   |\n"
    " 2000.000100 |   1)   bash-77    |               |  do_sys_open() {\n"
    " 2000.000101 |   1)   bash-77    |   0.500 us    |    getname();\n"
    " 2000.000110 |   1)   bash-77    | + 10.000 us   |  }\n"
    " ------------------------------------------\n"
    " 1)   bash-77    =>  cs-b-78   \n"
    " ------------------------------------------\n"
    " 2000.000200 |   1)   cs-b-78    |   1.000 us    |  schedule_tail();\n";

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  doc = cs_test_load_path (path);
  g_assert_cmpstr (cs_document_get_source_format (doc), ==, "ftrace text (function_graph)");
  g_assert_cmpuint (cs_document_get_n_bad_lines (doc, NULL), ==, 0);
  /* do_sys_open entry and exit, getname's and schedule_tail's pairs. */
  g_assert_cmpuint (cs_document_get_n_events (doc), ==, 6);
  g_assert_cmpint (cs_document_get_cpu (doc, 1)->first_ns, ==, G_GINT64_CONSTANT (2000000100000));
  g_assert_cmpint (cs_document_get_cpu (doc, 1)->last_ns, ==, G_GINT64_CONSTANT (2000000201000));
  task = cs_document_lookup_task (doc, 77);
  g_assert_nonnull (task);
  g_assert_cmpstr (task->comm, ==, "bash");
  g_assert_cmpuint (task->n_events, ==, 4);
  g_unlink (path);
  g_rmdir (dir);
}

static void
wakeup_cb (gint64 wakeup_ns, gint64 run_ns, gint32 cpu, gpointer user_data)
{
  gint64 w[3] = { wakeup_ns, run_ns, cpu };

  g_array_append_vals (user_data, w, 3);
}

/* trace-cmd report [@flag] of @dat into @txt. */
static gboolean
make_report (const char *dat,
             const char *flag,
             const char *txt)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "trace-cmd", "report", flag ? flag : dat, flag ? dat : NULL, NULL };
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error) || !g_spawn_check_wait_status (status, NULL))
    return FALSE;
  g_assert_true (g_file_set_contents (txt, out, -1, NULL));
  return TRUE;
}

/* The same recording as trace.dat and as text: same counts, same task
 * states and wakeup latencies (exactly with -t's nanoseconds, to the
 * microsecond with the default text). */
static void
compare (CsDocument *dat,
         CsDocument *txt,
         gboolean    exact_ns)
{
  gint64 tolerance = exact_ns ? 0 : 1000;

  g_assert_cmpuint (cs_document_get_n_events (txt), ==, cs_document_get_n_events (dat));
  g_assert_cmpuint (cs_document_get_n_cpus (txt), ==, cs_document_get_n_cpus (dat));
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (dat); cpu++)
    {
      g_assert_cmpuint (cs_document_get_cpu (txt, cpu)->n_events, ==,
                        cs_document_get_cpu (dat, cpu)->n_events);
      g_assert_cmpuint (cs_document_get_cpu (txt, cpu)->missed_events, ==,
                        cs_document_get_cpu (dat, cpu)->missed_events);
    }

  for (guint i = 0; i < cs_document_get_n_event_types (dat); i++)
    {
      const CsEventType *t = cs_document_get_event_type (dat, i);
      guint64 n = 0;

      if (t->n_events == 0)
        continue;
      for (guint j = 0; j < cs_document_get_n_event_types (txt); j++)
        if (g_str_equal (cs_document_get_event_type (txt, j)->name, t->name))
          n += cs_document_get_event_type (txt, j)->n_events;
      if (n != t->n_events)
        g_error ("%s:%s: %" G_GUINT64_FORMAT " events in the text, %" G_GUINT64_FORMAT
                 " in the trace.dat", t->system, t->name, n, t->n_events);
    }

  for (guint i = 0; i < cs_document_get_n_tasks (dat); i++)
    {
      const CsTask *task = cs_document_get_task (dat, i);
      g_autoptr(GArray) a = g_array_new (FALSE, TRUE, sizeof (CsTaskInterval));
      g_autoptr(GArray) b = g_array_new (FALSE, TRUE, sizeof (CsTaskInterval));
      g_autoptr(GArray) wa = g_array_new (FALSE, TRUE, sizeof (gint64));
      g_autoptr(GArray) wb = g_array_new (FALSE, TRUE, sizeof (gint64));
      g_autoptr(GError) error = NULL;

      if (task->pid == 0)
        continue;
      g_assert_true (cs_document_get_task_intervals (dat, task->pid, 0, G_MAXINT64, a, &error));
      g_assert_true (cs_document_get_task_intervals (txt, task->pid, 0, G_MAXINT64, b, &error));
      g_assert_no_error (error);
      if (!exact_ns)
        {
          /* Text to the microsecond cannot order events less than one
           * apart on different CPUs (a wakeup and a switch-out), nor keep
           * what lasted less than one: compare the time spent in each
           * state, to a microsecond per interval. */
          gint64 per_state[8] = { 0 };
          gint64 n = a->len + b->len + 1;

          for (guint k = 0; k < a->len; k++)
            per_state[g_array_index (a, CsTaskInterval, k).state & 7] +=
              g_array_index (a, CsTaskInterval, k).end_ns - g_array_index (a, CsTaskInterval, k).begin_ns;
          for (guint k = 0; k < b->len; k++)
            per_state[g_array_index (b, CsTaskInterval, k).state & 7] -=
              g_array_index (b, CsTaskInterval, k).end_ns - g_array_index (b, CsTaskInterval, k).begin_ns;
          for (guint st = 0; st < 8; st++)
            g_assert_cmpint (ABS (per_state[st]), <=, n * tolerance);
          g_assert_cmpint (ABS ((gint64) a->len - (gint64) b->len), <=, 2 + a->len / 20);
        }
      else
        {
          g_assert_cmpuint (a->len, ==, b->len);
          for (guint k = 0; k < a->len; k++)
            {
              CsTaskInterval *x = &g_array_index (a, CsTaskInterval, k);
              CsTaskInterval *y = &g_array_index (b, CsTaskInterval, k);

              g_assert_cmpint (x->state, ==, y->state);
              g_assert_cmpint (x->cpu, ==, y->cpu);
              g_assert_cmpint (x->begin_ns, ==, y->begin_ns);
              g_assert_cmpint (x->end_ns, ==, y->end_ns);
              g_assert_cmpint (x->wakeup_ns, ==, y->wakeup_ns);
            }
        }

      g_assert_true (cs_document_foreach_wakeup (dat, task->pid, 0, G_MAXINT64, wakeup_cb, wa, &error));
      g_assert_true (cs_document_foreach_wakeup (txt, task->pid, 0, G_MAXINT64, wakeup_cb, wb, &error));
      g_assert_no_error (error);
      if (!exact_ns)
        {
          /* Ties across CPUs can pair a wakeup differently: the count, to
           * a few percent; each latency to 2 µs (the text's rounding of
           * its two ends), but for a tenth of them (+1) paired with
           * another switch. */
          guint n_off = 0;

          g_assert_cmpint (ABS ((gint64) wa->len - (gint64) wb->len) / 3, <=, 1 + wa->len / 3 / 20);
          if (wa->len == wb->len)
            {
              for (guint k = 0; k < wa->len; k += 3)
                {
                  gint64 la = g_array_index (wa, gint64, k + 1) - g_array_index (wa, gint64, k);
                  gint64 lb = g_array_index (wb, gint64, k + 1) - g_array_index (wb, gint64, k);

                  n_off += ABS (la - lb) > 2 * tolerance;
                }
              g_assert_cmpuint (n_off, <=, 1 + wa->len / 3 / 10);
            }
          continue;
        }
      g_assert_cmpuint (wa->len, ==, wb->len);
      for (guint k = 0; k < wa->len; k++)
        g_assert_cmpint (g_array_index (wa, gint64, k), ==, g_array_index (wb, gint64, k));
    }
}

/* Android systrace HTML, both layouts, wrapped here around the public
 * tracefs text with atrace markers (raw-tgid.txt); the page around the
 * data is the shape systrace writes, the data is real. */
static void
test_systrace (gconstpointer data)
{
  g_autofree char *src = cs_test_path (data);
  g_autofree char *dir = g_dir_make_tmp ("cs-text-XXXXXX", NULL);
  g_autofree char *modern = g_build_filename (dir, "trace.html", NULL);
  g_autofree char *legacy = g_build_filename (dir, "legacy.html", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) page = g_string_new (NULL);
  g_autoptr(GString) old = g_string_new (NULL);
  g_autoptr(CsDocument) plain = NULL;
  g_auto(GStrv) lines = NULL;

  if (src == NULL)
    return;
  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  g_string_append (page, "<!DOCTYPE html>\n<html>\n<head><title>systrace</title></head>\n<body>\n"
                   "<script class=\"trace-data\" type=\"application/text\">{\"systemTraceEvents\": 1}"
                   "</script>\n<script class=\"trace-data\" type=\"application/text\">\n");
  g_string_append (page, text);
  g_string_append (page, "</script>\n<!-- END TRACE -->\n</body>\n</html>\n");
  g_assert_true (g_file_set_contents (modern, page->str, page->len, NULL));

  g_string_append (old, "<html>\n<head><script>\nvar linuxPerfData = \"\\\n");
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i + 1] != NULL; i++)
    g_string_append_printf (old, "%s\\n\\\n", lines[i]);
  g_string_append (old, "\";\n</script></head>\n</html>\n");
  g_assert_true (g_file_set_contents (legacy, old->str, old->len, NULL));

  plain = cs_test_load_path (src);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(CsDocument) doc = cs_test_load_path (i == 0 ? modern : legacy);
      gboolean has_marks = FALSE;

      g_assert_cmpstr (cs_document_get_source_format (doc), ==, "Android systrace HTML");
      g_assert_cmpuint (cs_document_get_n_bad_lines (doc, NULL), ==, 0);
      compare (plain, doc, TRUE);
      for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
        if (g_str_equal (cs_document_get_event_type (doc, t)->system, "atrace"))
          has_marks = cs_document_get_event_type (doc, t)->n_events > 0;
      g_assert_true (has_marks);
    }
  g_unlink (modern);
  g_unlink (legacy);
  g_rmdir (dir);
}

/* The value of the field @name in @fields (alternating names and values). */
static const char *
field_value (char       **fields,
             const char  *name)
{
  for (guint i = 0; fields[i] != NULL && fields[i + 1] != NULL; i += 2)
    if (g_str_equal (fields[i], name))
      return fields[i + 1];
  return NULL;
}

/* atrace's one-byte field "kind" reads back as the marker's letter (the
 * first character of buf: 'B', 'E', 'C'...), as libtraceevent reads the
 * format the importer writes; it once held 1 for every marker. */
static void
test_atrace_kind (gconstpointer data)
{
  g_autofree char *src = cs_test_path (data);
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GHashTable) kinds = g_hash_table_new (NULL, NULL);
  const CsEventType *marks = NULL;
  guint64 n_checked = 0;

  if (src == NULL)
    return;
  doc = cs_test_load_path (src);
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    if (g_str_equal (cs_document_get_event_type (doc, t)->system, "atrace"))
      marks = cs_document_get_event_type (doc, t);
  g_assert_nonnull (marks);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
      g_autoptr(GError) error = NULL;

      g_assert_true (cs_document_get_events (doc, cpu, G_MININT64, G_MAXINT64, G_MAXUINT,
                                             events, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < events->len; i++)
        {
          const CsEvent *ev = &g_array_index (events, CsEvent, i);
          g_auto(GStrv) fields = NULL;
          const char *kind, *buf;

          if (ev->type_id != marks->id)
            continue;
          fields = cs_document_dup_event_fields (doc, ev, &error);
          g_assert_no_error (error);
          kind = field_value (fields, "kind");
          buf = field_value (fields, "buf");
          g_assert_nonnull (kind);
          g_assert_nonnull (buf);
          g_assert_cmpint (g_ascii_strtoll (kind, NULL, 10), ==, (guchar) buf[0]);
          g_hash_table_add (kinds, GINT_TO_POINTER ((int) buf[0]));
          n_checked++;
        }
    }
  g_assert_cmpuint (n_checked, ==, marks->n_events);
  /* The file has both begins and ends. */
  g_assert_true (g_hash_table_contains (kinds, GINT_TO_POINTER ('B')));
  g_assert_true (g_hash_table_contains (kinds, GINT_TO_POINTER ('E')));
}

/* perf.data (through perf script) and the text perf script made of it. */
static void
test_perf (void)
{
  g_autofree char *data_path = cs_test_own_path ("perf-sched.data");
  g_autofree char *text_path = cs_test_own_path ("perf-sched.txt");
  g_autoptr(CsDocument) text = cs_test_load_path (text_path);
  g_autoptr(GHashTable) per_cpu = NULL;
  g_autoptr(GRegex) re = g_regex_new ("^ *\\S.* +\\d+ +\\[\\d+\\] +\\d+\\.\\d+: sched:", 0, 0, NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 n_lines = 0;

  g_assert_cmpstr (cs_document_get_source_format (text), ==, "perf script text");
  g_assert_true (g_file_get_contents (text_path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    n_lines += g_regex_match (re, lines[i], 0, NULL);
  g_assert_cmpuint (n_lines, >, 0);
  g_assert_cmpuint (cs_document_get_n_events (text), ==, n_lines);
  g_assert_cmpuint (cs_document_get_n_bad_lines (text, NULL), ==, 0);

  if (!have_program ("perf"))
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (cs_document_load (data_path, NULL, NULL, NULL, NULL, &error));
      g_assert_nonnull (strstr (error->message, "perf script"));
      g_test_skip ("perf is not installed: only its message is checked");
      return;
    }
  {
    g_autoptr(CsDocument) data = cs_test_load_path (data_path);

    g_assert_cmpstr (cs_document_get_source_format (data), ==, "perf.data (through perf script)");
    compare (data, text, TRUE);
  }
}

static gboolean
write_tracefs (const char *path,
               const char *value)
{
  return g_file_set_contents_full (path, value, -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

/* tracefs's own `trace` text of a private instance, read right before
 * `trace-cmd extract -B` of the same instance: both index alike.  Needs
 * root and trace-cmd; tracefs is found, or mounted, as the recorder does
 * (tracefs-test-util.c), or the skip says why. */
static void
test_tracefs_trace (void)
{
  const char *events[] = { "sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup" };
  g_autofree char *name = g_strdup_printf ("cs-text-test-%d", (int) getpid ());
  g_autofree char *instance = NULL, *on = NULL, *trace = NULL;
  g_autofree char *dir = NULL, *txt_path = NULL, *dat_path = NULL, *text = NULL;
  g_autoptr(CsDocument) txt = NULL;
  g_autoptr(CsDocument) dat = NULL;
  const char *sleep_argv[] = { "sleep", "0.01", NULL };
  const char *extract_argv[] = { "trace-cmd", "extract", "-B", name, "-o", NULL, NULL };
  int status = -1;

  if (!have_program ("trace-cmd"))
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  if (!cs_test_require_tracefs ())
    return;
  instance = g_build_filename (cs_test_tracing_dir (NULL), "instances", name, NULL);
  on = g_build_filename (instance, "tracing_on", NULL);
  trace = g_build_filename (instance, "trace", NULL);
  if (g_mkdir (instance, 0755) != 0)
    {
      int saved_errno = errno;
      g_autofree char *message = g_strdup_printf ("cannot create the tracefs instance %s: %s",
                                                  instance, g_strerror (saved_errno));
      g_test_skip (message);
      return;
    }
  {
    /* Room for a busy machine's scheduler events: the `trace` file does
     * not say per CPU what an overrun lost. */
    g_autofree char *size = g_build_filename (instance, "buffer_size_kb", NULL);
    write_tracefs (size, "16384");
  }
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_autofree char *enable = g_build_filename (instance, "events", events[i], "enable", NULL);
      g_assert_true (write_tracefs (enable, "1"));
    }
  g_assert_true (write_tracefs (on, "1"));
  for (guint i = 0; i < 5; i++)
    g_spawn_sync (NULL, (char **) sleep_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  write_tracefs (on, "0");

  dir = g_dir_make_tmp ("cs-text-XXXXXX", NULL);
  txt_path = g_build_filename (dir, "trace", NULL);
  dat_path = g_build_filename (dir, "trace.dat", NULL);
  g_assert_true (g_file_get_contents (trace, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (txt_path, text, -1, NULL));
  extract_argv[5] = dat_path;
  g_spawn_sync (dir, (char **) extract_argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL);
  /* extract removes the instance; make sure it is gone whatever happened. */
  g_rmdir (instance);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  txt = cs_test_load_path (txt_path);
  dat = cs_test_load_path (dat_path);
  g_test_message ("%" G_GUINT64_FORMAT " events", cs_document_get_n_events (dat));
  g_assert_cmpstr (cs_document_get_source_format (txt), ==, "ftrace text (trace)");
  g_assert_cmpuint (cs_document_get_n_bad_lines (txt, NULL), ==, 0);
  g_assert_cmpuint (cs_document_get_n_events (dat), >, 0);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (dat); cpu++)
    if (cs_document_get_cpu (dat, cpu)->missed_events > 0)
      {
        g_test_skip ("the instance's ring buffer overran: the trace file does not say where");
        g_unlink (txt_path);
        g_unlink (dat_path);
        g_rmdir (dir);
        return;
      }
  compare (dat, txt, FALSE);

  g_unlink (txt_path);
  g_unlink (dat_path);
  g_rmdir (dir);
}

static void
test_report_roundtrip (gconstpointer data)
{
  const char *name = data;
  g_autofree char *dat_path = cs_test_own_path (name);
  g_autofree char *dir = g_dir_make_tmp ("cs-text-XXXXXX", NULL);
  g_autoptr(CsDocument) dat = NULL;
  const struct { const char *flag; gboolean exact; } runs[] = {
    { "-t", TRUE }, { NULL, FALSE }, { "-R", FALSE }, { "-l", FALSE },
  };

  if (!have_program ("trace-cmd"))
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  dat = cs_test_load_path (dat_path);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *base = g_strdup_printf ("%s%s.txt", name, runs[i].flag ? runs[i].flag : "");
      g_autofree char *txt_path = g_build_filename (dir, base, NULL);
      g_autoptr(CsDocument) txt = NULL;

      g_assert_true (make_report (dat_path, runs[i].flag, txt_path));
      txt = cs_test_load_path (txt_path);
      g_test_message ("%s: %s, %" G_GUINT64_FORMAT " events", base,
                      cs_document_get_source_format (txt), cs_document_get_n_events (txt));
      g_assert_cmpstr (cs_document_get_source_format (txt), ==, "trace-cmd report text");
      g_assert_cmpuint (cs_document_get_n_bad_lines (txt, NULL), ==, 0);
      if (runs[i].flag != NULL && g_str_equal (runs[i].flag, "-l"))
        {
          /* -l cuts comms to 8 characters: counts only. */
          g_assert_cmpuint (cs_document_get_n_events (txt), ==, cs_document_get_n_events (dat));
          continue;
        }
      compare (dat, txt, runs[i].exact);
      g_unlink (txt_path);
    }
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *n;
    while ((n = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, n, NULL);
        g_unlink (p);
      }
  }
  g_rmdir (dir);
}

static void
collect_fraction_cb (double   fraction,
                     gpointer user_data)
{
  GArray *fractions = user_data;

  g_array_append_val (fractions, fraction);
}

/* Opening text reports one progress from 0 to 1 over the conversion and
 * the indexing: never back, the conversion below the half, the indexing
 * above it, 1 at the end. */
static void
test_progress_monotonic (gconstpointer data)
{
  g_autofree char *path = cs_test_path (data);
  g_autoptr(GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) doc = NULL;
  gboolean in_conversion = FALSE, in_indexing = FALSE;

  if (path == NULL)
    return;
  doc = cs_document_load (path, collect_fraction_cb, fractions, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);

  g_assert_cmpuint (fractions->len, >, 2);
  for (guint i = 0; i < fractions->len; i++)
    {
      double f = g_array_index (fractions, double, i);

      g_test_message ("progress %.4f", f);
      g_assert_cmpfloat (f, >=, 0.0);
      g_assert_cmpfloat (f, <=, 1.0);
      if (i > 0)
        g_assert_cmpfloat (f, >=, g_array_index (fractions, double, i - 1));
      in_conversion |= f > 0.0 && f < 0.5;
      in_indexing |= f > 0.5 && f < 1.0;
    }
  /* 4,465 lines: the conversion said where it was at least once. */
  g_assert_true (in_conversion);
  g_assert_true (in_indexing);
  g_assert_cmpfloat (g_array_index (fractions, double, fractions->len - 1), ==, 1.0);
}

int
main (int argc, char **argv)
{
  const char *recordings[] = { "sched-irq-v6.dat", "sched-irq-v7.dat", "no-sched-v6.dat",
                               "missed-events-v7.dat", "block-v7.dat" };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/TextImport/public-text", test_public_text);
  g_test_add_func ("/cs/index/TextImport/unsorted", test_unsorted);
  g_test_add_func ("/cs/index/TextImport/bad-lines", test_bad_lines);
  g_test_add_func ("/cs/index/TextImport/funcgraph", test_funcgraph);
  g_test_add_func ("/cs/index/TextImport/perf", test_perf);
  g_test_add_data_func ("/cs/index/TextImport/systrace/atrace-tgid", "atrace-tgid.txt", test_systrace);
  g_test_add_data_func ("/cs/index/TextImport/systrace/public/raw-tgid", "public/text/raw-tgid.txt", test_systrace);
  g_test_add_data_func ("/cs/index/TextImport/atrace-kind/atrace-tgid", "atrace-tgid.txt", test_atrace_kind);
  g_test_add_data_func ("/cs/index/TextImport/atrace-kind/public/raw-tgid", "public/text/raw-tgid.txt", test_atrace_kind);
  g_test_add_func ("/cs/index/TextImport/tracefs-trace", test_tracefs_trace);
  g_test_add_data_func ("/cs/index/TextImport/progress-monotonic/public/raw-tgid", "public/text/raw-tgid.txt", test_progress_monotonic);
  for (guint i = 0; i < G_N_ELEMENTS (recordings); i++)
    {
      g_autofree char *path = g_strdup_printf ("/cs/index/TextImport/report-roundtrip/%s", recordings[i]);
      g_test_add_data_func (path, recordings[i], test_report_roundtrip);
    }
  return g_test_run ();
}
