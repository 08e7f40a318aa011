/* test-task-spans.c: a task's intervals over many short spans of a
 * recording whose busy tasks fill many task chunks (the bundled sample:
 * 34 chunks of 1,024 rows for its busiest task), as a critical path or a
 * wakeup chain asks for them.  cs_document_get_task_intervals() answers
 * those from the task's directory and from walks it keeps
 * (cs-task-rows.c, cs-task-timeline.c); each answer must be what a walk
 * of that span alone gives (_cs_document_walk_task()), and between the
 * span's first run and its end, what the walk of the whole recording
 * gives.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "cs-task-timeline-private.h"
#include "index-test-util.h"

/* The @n tasks with the most intervals over the whole recording. */
static GArray *
busiest_tasks (CsDocument *doc,
               guint       n)
{
  GArray *best = g_array_new (FALSE, TRUE, sizeof (gint32));
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  g_autoptr(GError) error = NULL;

  g_array_set_size (best, n);
  g_array_set_size (counts, n);
  for (guint t = 0; t < cs_document_get_n_tasks (doc); t++)
    {
      gint32 pid = cs_document_get_task (doc, t)->pid;
      guint k = n;

      g_array_set_size (iv, 0);
      g_assert_true (cs_document_get_task_intervals (doc, pid, cs_document_get_first_ns (doc),
                                                     cs_document_get_last_ns (doc) + 1, iv, &error));
      g_assert_no_error (error);
      while (k > 0 && iv->len > g_array_index (counts, guint, k - 1))
        k--;
      if (k == n)
        continue;
      g_array_remove_index (best, n - 1);
      g_array_remove_index (counts, n - 1);
      g_array_insert_val (best, k, pid);
      g_array_insert_val (counts, k, iv->len);
    }
  /* Several chunks (1,024 rows, about as many intervals) on some CPU. */
  g_assert_cmpuint (g_array_index (counts, guint, 0), >, 4 * 1024);
  return best;
}

/* CsTaskInterval has no padding: its bytes are its fields. */
G_STATIC_ASSERT (sizeof (CsTaskInterval) == 32);

static gboolean
same_interval (const CsTaskInterval *a,
               const CsTaskInterval *b)
{
  return a->begin_ns == b->begin_ns && a->end_ns == b->end_ns && a->state == b->state &&
         a->cpu == b->cpu && a->wakeup_ns == b->wakeup_ns;
}

static void
test_short_spans (void)
{
  g_autoptr(CsDocument) doc = cs_test_load_path (CS_SAMPLE_TRACE);
  g_autoptr(GArray) pids = busiest_tasks (doc, 3);
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);
  const gint64 lengths[] = { 20000, 1000000, 50000000 };
  g_autoptr(GError) error = NULL;
  guint n_spans = 0, n_checked = 0;

  for (guint p = 0; p < pids->len; p++)
    {
      gint32 pid = g_array_index (pids, gint32, p);
      g_autoptr(GArray) whole = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
      /* Each interval of the whole recording, by its bytes: where events
       * were lost, a task's intervals can overlap (the sample's tar, 26736,
       * switched out at 554.523077870 s without a recorded switch-in),
       * so they are not looked up by time. */
      g_autoptr(GHashTable) in_whole = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                              (GDestroyNotify) g_bytes_unref, NULL);

      g_assert_true (_cs_document_walk_task (doc, pid, first, last + 1, whole, NULL, NULL, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < whole->len; i++)
        g_hash_table_add (in_whole, g_bytes_new_static (&g_array_index (whole, CsTaskInterval, i),
                                                        sizeof (CsTaskInterval)));
      /* Spans one after another, as a path moves on, of each length. */
      for (guint l = 0; l < G_N_ELEMENTS (lengths); l++)
        for (gint64 b = first + (last - first) / 7; b + lengths[l] <= last;
             b += MAX (lengths[l] * 3 / 2, (last - first) / 1500) + 12345)
          {
            g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
            g_autoptr(GArray) alone = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
            gboolean ran = FALSE;

            g_assert_true (cs_document_get_task_intervals (doc, pid, b, b + lengths[l], kept, &error));
            g_assert_no_error (error);
            g_assert_true (_cs_document_walk_task (doc, pid, b, b + lengths[l], alone, NULL, NULL,
                                                   &error));
            g_assert_no_error (error);
            g_assert_cmpuint (kept->len, ==, alone->len);
            for (guint i = 0; i < kept->len; i++)
              g_assert_true (same_interval (&g_array_index (kept, CsTaskInterval, i),
                                            &g_array_index (alone, CsTaskInterval, i)));
            /* Once the task has run in the span, its state no longer
             * depends on where the walk began. */
            for (guint i = 0; i < kept->len; i++)
              {
                const CsTaskInterval *x = &g_array_index (kept, CsTaskInterval, i);
                g_autoptr(GBytes) key = g_bytes_new_static (x, sizeof *x);

                if (!ran)
                  {
                    ran = x->state == CS_TASK_RUNNING;
                    continue;
                  }
                /* Past the span, the rows of the other CPUs that would end
                 * an interval may not have been read (cs-task-timeline.c). */
                if (x->end_ns > b + lengths[l])
                  continue;
                if (!g_hash_table_contains (in_whole, key))
                  g_error ("pid %d, span [%" G_GINT64_FORMAT ", +%" G_GINT64_FORMAT "): interval %u"
                           " [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") state %d is not the whole"
                           " recording's", pid, b, lengths[l], i, x->begin_ns, x->end_ns, x->state);
                n_checked++;
              }
            n_spans++;
          }
    }
  g_test_message ("%u spans of 3 tasks, %u intervals found in the whole recording's", n_spans,
                  n_checked);
  g_assert_cmpuint (n_checked, >, 1000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/task-intervals/short-spans", test_short_spans);
  return g_test_run ();
}
