/* cs-event-search.c: searching the event list's text, in a worker thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The worker opens the index again (one SQLite connection per thread) and
 * walks each CPU's chunks from the starting event, forwards or backwards,
 * testing the passing events' column text (_cs_event_column_text(), the
 * very text the list shows).  The first match of each CPU is a candidate;
 * the earliest (or latest, backwards) in list order wins.  Counting walks
 * every passing event.
 *
 * CS_SEARCH_TEST_HANG (tests only): the worker waits until it is cancelled,
 * so that a test can see the search bar's spinner and press Stop.
 */
#include "config.h"

#include "cs-document-private.h"
#include "cs-event-list-private.h"
#include "cs-test-hook.h"

typedef struct {
  char *trace_path;
  char *index_path;
  char *identity;
  CsEventFilter *filter;        /* NULL for none */
  CsFilterCounts *counts;       /* NULL for none */
  CsEventColumn column;
  CsSearchMode mode;
  char *text;
  gboolean forward;
  gboolean have_start;
  CsEvent start;                /* search strictly after (before) it */
  gboolean count_only;
  gboolean test_hang;           /* CS_SEARCH_TEST_HANG */
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_free (job->trace_path);
  g_free (job->index_path);
  g_free (job->identity);
  g_clear_object (&job->filter);
  g_clear_pointer (&job->counts, _cs_filter_counts_unref);
  g_free (job->text);
  g_free (job);
}

static gboolean
text_matches (const SearchJob *job,
              const char      *text)
{
  switch (job->mode)
    {
    case CS_SEARCH_FULL_MATCH:
      return g_str_equal (text, job->text);
    case CS_SEARCH_NOT_CONTAINS:
      return strstr (text, job->text) == NULL;
    case CS_SEARCH_CONTAINS:
    default:
      return strstr (text, job->text) != NULL;
    }
}

/* (ts, cpu, row) order of the list. */
static int
compare_events (const CsEvent *a,
                const CsEvent *b)
{
  if (a->ts_ns != b->ts_ns)
    return a->ts_ns < b->ts_ns ? -1 : 1;
  if (a->cpu != b->cpu)
    return a->cpu < b->cpu ? -1 : 1;
  return a->row < b->row ? -1 : a->row > b->row;
}

static gboolean
event_matches (SearchJob         *job,
               CsDocument        *doc,
               CsEventChunkCache *chunk,
               guint              cpu,
               gint64             c,
               guint              i,
               CsEvent           *ev)
{
  g_autofree char *text = NULL;

  ev->ts_ns = chunk->cols[EV_TS][i];
  ev->offset = chunk->cols[EV_OFFSET][i];
  ev->pid = chunk->cols[EV_PID][i];
  ev->type_id = chunk->cols[EV_TYPE][i];
  ev->cpu = cpu;
  ev->row = chunk->first_row + i;
  if (!_cs_event_passes (job->filter, job->counts, cpu, c, i, ev->pid, ev->type_id))
    return FALSE;
  text = _cs_event_column_text (doc, ev, 0, job->column);
  return text_matches (job, text);
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  g_autoptr(CsDocument) doc = NULL;
  GError *error = NULL;
  gboolean found = FALSE;
  CsEvent best = { 0 };
  guint64 n_matches = 0;

  if (job->test_hang)
    cs_test_hook_hold_until_cancelled (cancellable);
  if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
    doc = cs_document_open_as (job->trace_path, job->index_path, job->identity,
                               &error);
  if (doc == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc) && error == NULL; cpu++)
    {
      gint64 n_chunks = _cs_document_get_n_chunks (doc, cpu);
      gint64 c, step = job->forward || job->count_only ? 1 : -1;
      gboolean done = FALSE;

      if (job->count_only || !job->have_start)
        c = step > 0 ? 0 : n_chunks - 1;
      else
        {
          /* Start at the chunk holding the start time on this CPU. */
          guint64 before = _cs_document_count_before (doc, cpu, job->start.ts_ns + (step > 0 ? 0 : 1), &error);
          if (before == G_MAXUINT64)
            break;
          c = MIN ((gint64) (before / CS_EVENT_CHUNK_ROWS), n_chunks - 1);
        }

      for (; !done && c >= 0 && c < n_chunks; c += step)
        {
          CsEventChunkCache *chunk;

          if (g_cancellable_set_error_if_cancelled (cancellable, &error))
            break;
          if (job->counts != NULL && job->counts->prefix[cpu][c + 1] == job->counts->prefix[cpu][c])
            continue;
          chunk = _cs_document_get_chunk (doc, cpu, c, &error);
          if (chunk == NULL)
            break;
          for (guint k = 0; k < chunk->n && !done; k++)
            {
              guint i = step > 0 ? k : chunk->n - 1 - k;
              CsEvent ev;

              if (!job->count_only && job->have_start)
                {
                  CsEvent probe = { .ts_ns = chunk->cols[EV_TS][i], .cpu = cpu,
                                    .row = chunk->first_row + i };
                  int cmp = compare_events (&probe, &job->start);
                  if ((step > 0 && cmp <= 0) || (step < 0 && cmp >= 0))
                    continue;
                  /* Past the best candidate so far: this CPU is done. */
                  if (found && ((step > 0 && compare_events (&probe, &best) > 0) ||
                                (step < 0 && compare_events (&probe, &best) < 0)))
                    {
                      done = TRUE;
                      break;
                    }
                }
              if (!event_matches (job, doc, chunk, cpu, c, i, &ev))
                continue;
              if (job->count_only)
                {
                  n_matches++;
                  continue;
                }
              if (!found || (step > 0 ? compare_events (&ev, &best) < 0
                                      : compare_events (&ev, &best) > 0))
                best = ev;
              found = TRUE;
              done = TRUE;
            }
        }
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else if (job->count_only)
    g_task_return_pointer (task, g_memdup2 (&n_matches, sizeof n_matches), g_free);
  else if (found)
    g_task_return_pointer (task, g_memdup2 (&best, sizeof best), g_free);
  else
    g_task_return_pointer (task, NULL, NULL);
}

static SearchJob *
new_job (CsEventList   *self,
         CsEventColumn  column,
         CsSearchMode   mode,
         const char    *text)
{
  SearchJob *job = g_new0 (SearchJob, 1);
  CsDocument *doc = cs_event_list_get_document (self);
  CsEventFilter *filter = cs_event_list_get_filter (self);
  CsFilterCounts *counts = _cs_event_list_get_counts (self);

  job->trace_path = g_strdup (cs_document_get_trace_path (doc));
  job->index_path = g_strdup (cs_document_get_index_path (doc));
  job->identity = g_strdup (cs_document_get_identity (doc));
  job->filter = filter ? cs_event_filter_copy (filter) : NULL;
  job->counts = counts ? _cs_filter_counts_ref (counts) : NULL;
  job->column = column;
  job->mode = mode;
  job->text = g_strdup (text ? text : "");
  job->test_hang = g_getenv ("CS_SEARCH_TEST_HANG") != NULL;
  return job;
}

/**
 * cs_event_list_search_async:
 * @self: a ready list
 * @column: which column's text to test
 * @mode: how to test it
 * @text: the text
 * @from_row: search the rows after it (forward) or before it (backward);
 *   G_MAXUINT64 to start at the first (last) row
 * @forward: direction
 * @cancellable: (nullable): stops the search (%G_IO_ERROR_CANCELLED)
 * @callback: called on this thread when done
 * @user_data: for @callback
 *
 * Finds the next row whose @column text matches, in a worker thread.
 * For the # column, @text is a row number.
 */
void
cs_event_list_search_async (CsEventList         *self,
                            CsEventColumn        column,
                            CsSearchMode         mode,
                            const char          *text,
                            guint64              from_row,
                            gboolean             forward,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  SearchJob *job;

  g_task_set_source_tag (task, cs_event_list_search_async);
  if (column == CS_COLUMN_ROW)
    {
      /* The # column is the row itself: no need to walk anything. */
      guint64 row;
      CsEvent event;

      if (text != NULL && g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &row, NULL) &&
          row < cs_event_list_get_n_events (self) &&
          cs_event_list_get_event (self, row, &event, &error))
        g_task_return_pointer (task, g_memdup2 (&event, sizeof event), g_free);
      else if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_pointer (task, NULL, NULL);
      return;
    }
  job = new_job (self, column, mode, text);
  job->forward = forward;
  if (from_row != G_MAXUINT64)
    {
      if (!cs_event_list_get_event (self, from_row, &job->start, &error))
        {
          search_job_free (job);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      job->have_start = TRUE;
    }
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

/**
 * cs_event_list_search_finish:
 * @self: the list
 * @result: the result
 * @row: (out): the matching row
 * @error: %G_IO_ERROR_CANCELLED, or index errors
 *
 * Returns: %TRUE with @row set when a row matches; %FALSE with @error
 *   unset when none does
 */
gboolean
cs_event_list_search_finish (CsEventList   *self,
                             GAsyncResult  *result,
                             guint64       *row,
                             GError       **error)
{
  g_autofree CsEvent *event = g_task_propagate_pointer (G_TASK (result), error);

  if (event == NULL)
    return FALSE;
  return cs_event_list_find_row (self, event, row, error);
}

/**
 * cs_event_list_count_matches_async:
 * @self: a ready list
 * @column: which column's text to test
 * @mode: how to test it
 * @text: the text
 * @cancellable: (nullable): stops the count
 * @callback: called on this thread when done
 * @user_data: for @callback
 *
 * Counts the rows whose @column text matches, in a worker thread (for a
 * "3 of 120" counter).
 */
void
cs_event_list_count_matches_async (CsEventList         *self,
                                   CsEventColumn        column,
                                   CsSearchMode         mode,
                                   const char          *text,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SearchJob *job = new_job (self, column, mode, text);

  g_task_set_source_tag (task, cs_event_list_count_matches_async);
  job->count_only = TRUE;
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

/**
 * cs_event_list_count_matches_finish:
 * @self: the list
 * @result: the result
 * @n_matches: (out): how many rows match
 * @error: %G_IO_ERROR_CANCELLED, or index errors
 *
 * Returns: %TRUE on success
 */
gboolean
cs_event_list_count_matches_finish (CsEventList   *self,
                                    GAsyncResult  *result,
                                    guint64       *n_matches,
                                    GError       **error)
{
  g_autofree guint64 *n = g_task_propagate_pointer (G_TASK (result), error);

  if (n == NULL)
    return FALSE;
  *n_matches = *n;
  return TRUE;
}
