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
  char *stream_name;            /* the Stream column's text: its part's name */
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
  g_free (job->stream_name);
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
  text = job->column == CS_COLUMN_STREAM ? g_strdup (job->stream_name ? job->stream_name : "")
                                         : _cs_event_column_text (doc, ev, 0, job->column);
  return text_matches (job, text);
}

/* One recording's search (a part's, in a merged list): its first match
 * after (before) the start, or its count of matches. */
static gboolean
run_job (SearchJob    *job,
         GCancellable *cancellable,
         gboolean     *found_out,
         CsEvent      *best_out,
         guint64      *n_out,
         GError      **error_out)
{
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
      g_propagate_error (error_out, error);
      return FALSE;
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
    {
      g_propagate_error (error_out, error);
      return FALSE;
    }
  *found_out = found;
  *best_out = best;
  *n_out += n_matches;
  return TRUE;
}

/* The result of a search: per job, whether and where it matched. */
typedef struct {
  gboolean found;
  CsEvent event;
} JobResult;

/* Task data: the jobs, one per recording (one for one recording's list,
 * one per part of a merged list, in part order). */
typedef struct {
  GPtrArray *jobs;              /* SearchJob */
  gboolean count_only;
} SearchTask;

static void
search_task_free (SearchTask *st)
{
  g_ptr_array_unref (st->jobs);
  g_free (st);
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchTask *st = task_data;
  g_autoptr(GArray) results = g_array_sized_new (FALSE, TRUE, sizeof (JobResult), st->jobs->len);
  guint64 n_matches = 0;
  GError *error = NULL;

  g_array_set_size (results, st->jobs->len);
  for (guint i = 0; i < st->jobs->len; i++)
    {
      JobResult *r = &g_array_index (results, JobResult, i);

      if (!run_job (g_ptr_array_index (st->jobs, i), cancellable, &r->found, &r->event,
                    &n_matches, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  if (st->count_only)
    g_task_return_pointer (task, g_memdup2 (&n_matches, sizeof n_matches), g_free);
  else
    g_task_return_pointer (task, g_steal_pointer (&results), (GDestroyNotify) g_array_unref);
}

static SearchJob *
new_job (CsEventList   *list,
         CsEventColumn  column,
         CsSearchMode   mode,
         const char    *text)
{
  SearchJob *job = g_new0 (SearchJob, 1);
  CsDocument *doc = cs_event_list_get_document (list);
  CsEventFilter *filter = cs_event_list_get_filter (list);
  CsFilterCounts *counts = _cs_event_list_get_counts (list);

  job->trace_path = g_strdup (cs_document_get_trace_path (doc));
  job->index_path = g_strdup (cs_document_get_index_path (doc));
  job->identity = g_strdup (cs_document_get_identity (doc));
  job->filter = filter ? cs_event_filter_copy (filter) : NULL;
  job->counts = counts ? _cs_filter_counts_ref (counts) : NULL;
  job->column = column;
  job->mode = mode;
  job->text = g_strdup (text ? text : "");
  job->test_hang = cs_test_hook_is_set ("CS_SEARCH_TEST_HANG");
  return job;
}

/* The jobs of a search: one for one recording, else one per part, each
 * starting where the merged start row's axis time falls in its recording
 * (the part of that row from the row's own event). */
static SearchTask *
new_task (CsEventList   *self,
          CsEventColumn  column,
          CsSearchMode   mode,
          const char    *text)
{
  SearchTask *st = g_new0 (SearchTask, 1);
  CsEventListMerge *merge = _cs_event_list_get_merge (self);

  st->jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) search_job_free);
  if (merge == NULL)
    g_ptr_array_add (st->jobs, new_job (self, column, mode, text));
  for (guint i = 0; merge != NULL && i < _cs_event_list_merge_get_n_parts (merge); i++)
    {
      const CsEventListPart *p = _cs_event_list_merge_get_part (merge, i);
      SearchJob *job = new_job (p->list, column, mode, text);

      job->stream_name = g_strdup (cs_stream_get_name (p->stream));
      g_ptr_array_add (st->jobs, job);
    }
  return st;
}

/* A start for part @i of a merged search from (@start_part, @start_axis):
 * in that part's (ts, cpu, row) order, just before its first event that
 * comes after the start in merged order (forward), or just after its last
 * one before it (backward).  Exact but for the few ns by which a guest's
 * vCPUs' conversions differ. */
static CsEvent
part_start (CsEventListMerge *merge,
            guint             i,
            guint             start_part,
            gint64            start_axis,
            gboolean          forward)
{
  CsStream *stream = _cs_event_list_merge_get_part (merge, i)->stream;
  gint64 t = _cs_event_list_merge_local_threshold (stream, 0, i < start_part ? start_axis + 1
                                                                             : start_axis);
  CsEvent start = { 0 };

  if (forward)
    {
      start.ts_ns = t - 1;
      start.cpu = G_MAXUINT;
      start.row = G_MAXUINT64;
    }
  else
    start.ts_ns = t;
  return start;
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
 * For the # column, @text is a row number.  In a list of several streams
 * each stream is searched from the start row's axis time and the match
 * that comes first (last) in the merged order wins; the Time column's
 * text is then each recording's own time.
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
  CsEventListMerge *merge = _cs_event_list_get_merge (self);
  SearchTask *st;

  g_task_set_source_tag (task, cs_event_list_search_async);
  if (column == CS_COLUMN_ROW)
    {
      /* The # column is the row itself: no need to walk anything. */
      guint64 row;

      if (text != NULL && g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &row, NULL) &&
          row < cs_event_list_get_n_events (self))
        g_task_return_pointer (task, g_memdup2 (&row, sizeof row), g_free);
      else
        g_task_return_pointer (task, NULL, NULL);
      return;
    }
  st = new_task (self, column, mode, text);
  g_task_set_task_data (task, st, (GDestroyNotify) search_task_free);
  if (from_row != G_MAXUINT64)
    {
      CsStream *stream = NULL;
      CsEvent start;
      gint64 axis;

      if (!cs_event_list_get_stream_event (self, from_row, &stream, &start, &axis, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      for (guint i = 0; i < st->jobs->len; i++)
        {
          SearchJob *job = g_ptr_array_index (st->jobs, i);
          const CsEventListPart *p = merge ? _cs_event_list_merge_get_part (merge, i) : NULL;
          guint start_part = 0;

          for (guint k = 0; merge != NULL && k < st->jobs->len; k++)
            if (_cs_event_list_merge_get_part (merge, k)->stream == stream)
              start_part = k;
          job->start = (p == NULL || p->stream == stream)
                       ? start : part_start (merge, i, start_part, axis, forward);
          job->have_start = TRUE;
        }
    }
  for (guint i = 0; i < st->jobs->len; i++)
    ((SearchJob *) g_ptr_array_index (st->jobs, i))->forward = forward;
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
  SearchTask *st = g_task_get_task_data (G_TASK (result));
  CsEventListMerge *merge = _cs_event_list_get_merge (self);
  gpointer value = g_task_propagate_pointer (G_TASK (result), error);
  g_autoptr(GArray) results = NULL;
  gboolean forward, found = FALSE;
  guint best = 0;
  gint64 best_axis = 0;

  if (value == NULL)
    return FALSE;
  if (st == NULL)
    {
      /* the # column */
      *row = *(guint64 *) value;
      g_free (value);
      return TRUE;
    }
  results = value;
  forward = ((SearchJob *) g_ptr_array_index (st->jobs, 0))->forward;
  if (merge == NULL)
    {
      JobResult *r = &g_array_index (results, JobResult, 0);

      return r->found && cs_event_list_find_row (self, &r->event, row, error);
    }
  /* the first (last) of the parts' matches in merged order */
  for (guint i = 0; i < results->len; i++)
    {
      JobResult *r = &g_array_index (results, JobResult, i);
      gint64 axis;

      if (!r->found)
        continue;
      axis = cs_stream_to_axis_ns (_cs_event_list_merge_get_part (merge, i)->stream,
                                   r->event.cpu, r->event.ts_ns);
      /* parts are in merged tie order: on equal times the earlier part
       * wins forwards, the later backwards */
      if (!found || (forward ? axis < best_axis : axis >= best_axis))
        {
          best = i;
          best_axis = axis;
          found = TRUE;
        }
    }
  return found && _cs_event_list_merge_find_row (merge, best,
                                                 &g_array_index (results, JobResult, best).event,
                                                 row, error);
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
 * "3 of 120" counter); over every stream of a merged list.
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
  SearchTask *st = new_task (self, column, mode, text);

  g_task_set_source_tag (task, cs_event_list_count_matches_async);
  st->count_only = TRUE;
  for (guint i = 0; i < st->jobs->len; i++)
    ((SearchJob *) g_ptr_array_index (st->jobs, i))->count_only = TRUE;
  g_task_set_task_data (task, st, (GDestroyNotify) search_task_free);
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
