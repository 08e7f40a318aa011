/* cs-event-list-count.c: which events of each chunk pass a filter,
 * counted once per filter in a worker thread (CsFilterCounts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsEventList (cs-event-list.c starts the count and waits for it).
 * The worker opens the index again (one SQLite connection per thread) and,
 * when the filter has an expression, the recording too, to test each
 * record in CPU order.
 */
#include "config.h"
#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-event-list-private.h"
#include "cs-test-hook.h"

CsFilterCounts *
_cs_filter_counts_ref (CsFilterCounts *counts)
{
  return g_atomic_rc_box_acquire (counts);
}

static void
filter_counts_clear (gpointer data)
{
  CsFilterCounts *counts = data;

  for (guint cpu = 0; cpu < counts->n_cpus; cpu++)
    {
      for (gint64 c = 0; counts->bits && counts->bits[cpu] && c < counts->n_chunks[cpu]; c++)
        g_free (counts->bits[cpu][c]);
      if (counts->bits)
        g_free (counts->bits[cpu]);
      g_free (counts->prefix[cpu]);
    }
  g_free (counts->bits);
  g_free (counts->prefix);
  g_free (counts->n_chunks);
}

void
_cs_filter_counts_unref (CsFilterCounts *counts)
{
  g_atomic_rc_box_release_full (counts, filter_counts_clear);
}

gboolean
_cs_event_passes (CsEventFilter  *filter,
                  CsFilterCounts *counts,
                  guint           cpu,
                  gint64          chunk,
                  guint           i,
                  gint32          pid,
                  guint           type_id)
{
  if (filter == NULL)
    return TRUE;
  if (!_cs_event_filter_matches_sets (filter, cpu, pid, type_id))
    return FALSE;
  if (counts != NULL && counts->bits != NULL && counts->bits[cpu] != NULL)
    {
      guint8 *bits = counts->bits[cpu][chunk];
      return bits != NULL && (bits[i / 8] >> (i % 8)) & 1;
    }
  return TRUE;
}

void
_cs_filter_count_job_free (CsFilterCountJob *job)
{
  g_free (job->trace_path);
  g_free (job->index_path);
  g_free (job->identity);
  g_free (job->filter_text);
  g_free (job);
}


/* Counts passing events chunk by chunk; with an expression, also reads
 * every record of the CPU in order (cursor rows and chunk rows are the
 * same sequence) to test it.  The thread opens the recording anew and
 * compiles the filter's text against it: matching records against the
 * window's own tep_handle would break an expression the window compiles
 * meanwhile (_cs_event_filter_matches_record()). */
void
_cs_filter_count_thread (GTask        *task,
                         gpointer      source,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  CsFilterCountJob *job = task_data;
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(CsEventFilter) filter = NULL;
  g_autoptr(CsFilterCounts) counts = NULL;
  CsTraceFile *file = NULL;
  GError *error = NULL;
  gboolean expression = FALSE;
  guint64 done = 0, total;
  gint64 last_post = 0;

  doc = cs_document_open_as (job->trace_path, job->index_path, job->identity,
                             &error);
  if (doc != NULL)
    filter = cs_event_filter_new_from_string (doc, job->filter_text, &error);
  expression = filter != NULL && _cs_event_filter_has_expression (filter);
  if (expression)
    file = _cs_document_ensure_trace_file (doc, &error);  /* what it was compiled against */
  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (job->test_hang)
    {
      _cs_event_list_post_progress (task, 0.25);
      cs_test_hook_hold_until_cancelled (cancellable);
    }

  total = MAX (cs_document_get_n_events (doc), 1);
  counts = g_atomic_rc_box_new0 (CsFilterCounts);
  counts->n_cpus = cs_document_get_n_cpus (doc);
  counts->n_chunks = g_new0 (gint64, MAX (counts->n_cpus, 1));
  counts->prefix = g_new0 (guint64 *, MAX (counts->n_cpus, 1));
  if (expression)
    counts->bits = g_new0 (guint8 **, MAX (counts->n_cpus, 1));

  for (guint cpu = 0; cpu < counts->n_cpus; cpu++)
    {
      gint64 n_chunks = _cs_document_get_n_chunks (doc, cpu);
      g_autoptr(CsCpuCursor) cursor = NULL;

      counts->n_chunks[cpu] = n_chunks;
      counts->prefix[cpu] = g_new0 (guint64, n_chunks + 1);
      if (expression)
        {
          counts->bits[cpu] = g_new0 (guint8 *, MAX (n_chunks, 1));
          cursor = cs_trace_file_open_cpu (file, cpu, &error);
          if (cursor == NULL)
            break;
        }

      for (gint64 c = 0; c < n_chunks; c++)
        {
          CsEventChunkCache *chunk = _cs_document_get_chunk (doc, cpu, c, &error);
          guint64 n_pass = 0;

          if (chunk == NULL || g_cancellable_set_error_if_cancelled (cancellable, &error))
            break;
          if (expression)
            counts->bits[cpu][c] = g_malloc0 ((chunk->n + 7) / 8);
          for (guint i = 0; i < chunk->n; i++)
            {
              gboolean pass = _cs_event_filter_matches_sets (filter, cpu,
                                                             chunk->cols[EV_PID][i],
                                                             chunk->cols[EV_TYPE][i]);
              if (expression)
                {
                  CsRecord rec;

                  if (!cs_cpu_cursor_next (cursor, &rec, &error))
                    {
                      if (error == NULL)
                        g_set_error (&error, CS_INDEX_ERROR, CS_INDEX_ERROR_STALE,
                                     _("%s has fewer events than its index"), job->trace_path);
                      break;
                    }
                  pass = pass && _cs_event_filter_matches_record (filter, rec.tep_record);
                  if (pass)
                    counts->bits[cpu][c][i / 8] |= 1 << (i % 8);
                }
              n_pass += pass;
            }
          if (error != NULL)
            break;
          counts->prefix[cpu][c + 1] = counts->prefix[cpu][c] + n_pass;
          done += chunk->n;
          if (g_get_monotonic_time () - last_post > 100 * G_TIME_SPAN_MILLISECOND)
            {
              _cs_event_list_post_progress (task, (double) done / total);
              last_post = g_get_monotonic_time ();
            }
        }
      if (error != NULL)
        break;
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&counts), (GDestroyNotify) _cs_filter_counts_unref);
}
