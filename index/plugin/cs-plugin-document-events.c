/* cs-plugin-document-events.c: the events of a span and a task's
 * intervals, as plugins read them (cs-plugin-document.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both answer from the index (cs-document-queries.c, cs-task-timeline.c);
 * only the records of the wanted event types are read from the recording,
 * and the index's chunks that hold none of them are not decoded.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>


#include "cs-document.h"
#include "cs-trace-file.h"
#include "cs-task-timeline.h"
#include "cs-plugin-document-private.h"

/* Which type ids of the document @types names ("system:name",
 * "system:*"); NULL types: all of them. */
static gboolean *
wanted_types (CsDocument        *document,
              const char *const *types)
{
  guint n = cs_document_get_n_event_types (document);
  gboolean *wanted = g_new0 (gboolean, MAX (n, 1));

  for (guint id = 0; id < n; id++)
    {
      const CsEventType *type = cs_document_get_event_type (document, id);

      if (types == NULL)
        {
          wanted[id] = TRUE;
          continue;
        }
      for (guint i = 0; types[i] != NULL && !wanted[id]; i++)
        {
          const char *colon = strchr (types[i], ':');
          gsize system_len;

          if (colon == NULL)
            continue;
          system_len = colon - types[i];
          if (strlen (type->system) != system_len
              || strncmp (type->system, types[i], system_len) != 0)
            continue;
          wanted[id] = strcmp (colon + 1, "*") == 0 || strcmp (colon + 1, type->name) == 0;
        }
    }
  return wanted;
}

/* wanted_types(), kept per list of names: a pair explained reads the
 * index many times with a few lists, and each costs a pass over the
 * recording's types (about a thousand formats). */
static const gboolean *
cached_wanted_types (CsPluginDocument  *self,
                     CsDocument        *document,
                     const char *const *types)
{
  GHashTable *cache = _cs_plugin_document_get_wanted_types (self);
  g_autoptr(GString) key = g_string_new (NULL);
  gboolean *wanted;

  /* The count of types: a recording in progress may learn new ones. */
  g_string_append_printf (key, "%u", cs_document_get_n_event_types (document));
  for (guint i = 0; types != NULL && types[i] != NULL; i++)
    g_string_append_printf (key, "\x1f%s", types[i]);
  if (types == NULL)
    g_string_append (key, "\x1f*all*");
  wanted = g_hash_table_lookup (cache, key->str);
  if (wanted == NULL)
    {
      wanted = wanted_types (document, types);
      g_hash_table_insert (cache, g_string_free (g_steal_pointer (&key), FALSE), wanted);
    }
  return wanted;
}

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const CsEvent *x = a, *y = b;

  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

/* Reads the records of @events[@first..] and calls @func for each;
 * *@stopped when @func asked to stop. */
static gboolean
call_events (CsPluginDocument  *self,
             GArray            *events,
             guint              first,
             CsPluginEventFunc  func,
             gpointer           user_data,
             gboolean          *stopped,
             GError           **error)
{
  for (guint i = first; i < events->len; i++)
    {
      const CsEvent *ev = &g_array_index (events, CsEvent, i);
      CsPluginEvent event;

      /* The index gives the record's time: its page is not walked. */
      if (!_cs_plugin_document_fill_event (self, ev->cpu, ev->row, ev->offset, &ev->ts_ns, &event,
                                           error))
        return FALSE;
      if (!func (&event, user_data))
        {
          *stopped = TRUE;
          return TRUE;
        }
    }
  return TRUE;
}

/* How many events of one CPU are listed from the index at a time: their
 * references (40 bytes each) stay in the caches, and a long span does not
 * grow (and fault in) an array of all of them. */
#define BATCH_EVENTS 4096

/* How many batches the lister of a long span may hold listed ahead of the
 * records read (list_ahead()). */
#define BATCHES_AHEAD 2

/* Where the listing of one CPU's span stands: each batch resumes at the
 * time of the last event listed, passing over the rows listed already at
 * that time. */
typedef struct {
  CsDocument     *document;
  guint           cpu;
  gint64          end_ns;
  const gboolean *wanted;
  gint64          from;
  guint64         last_row;
  guint           n_at_from;    /* events listed already at @from */
} Listing;

/* Lists the next batch of @listing into @events (emptied first): the new
 * events start at *@first; *@more when the span may hold more after them. */
static gboolean
list_batch (Listing   *listing,
            GArray    *events,
            guint     *first,
            gboolean  *more,
            GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  guint max = BATCH_EVENTS + listing->n_at_from;
  guint n_at_last;
  const CsEvent *last;

  *first = 0;
  *more = FALSE;
  g_array_set_size (events, 0);
  if (!cs_document_get_events_of_types (listing->document, listing->cpu, listing->from,
                                        listing->end_ns, listing->wanted,
                                        cs_document_get_n_event_types (listing->document), max,
                                        events, &local_error))
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           local_error->message);
      return FALSE;
    }
  while (listing->n_at_from > 0 && *first < events->len &&
         g_array_index (events, CsEvent, *first).ts_ns == listing->from &&
         g_array_index (events, CsEvent, *first).row <= listing->last_row)
    (*first)++;
  if (events->len < max)
    return TRUE;
  last = &g_array_index (events, CsEvent, events->len - 1);
  n_at_last = last->ts_ns == listing->from ? *first : 0;
  for (guint i = events->len; i-- > *first &&
       g_array_index (events, CsEvent, i).ts_ns == last->ts_ns;)
    n_at_last++;
  listing->n_at_from = n_at_last;
  listing->from = last->ts_ns;
  listing->last_row = last->row;
  *more = TRUE;
  return TRUE;
}

/* A record read on the lister's thread: its bytes lie in the batch's
 * @data from @data_at. */
typedef struct {
  struct tep_record record;
  gint64            ts_ns;
  gsize             data_at;
} Copied;

/* A batch listed ahead, handed between the lister's thread and the
 * reader's; with the lister's own cursor, its records read too. */
typedef struct {
  GArray     *events;
  guint       first;
  gboolean    more;             /* FALSE: the lister's last batch */
  GError     *error;
  GArray     *copied;           /* Copied, for @events[@first..] */
  GByteArray *data;
} Batch;

/* The lister of a long span: its thread lists the next batches (into the
 * batches of @empty, then handed over in @listed) and, with a cursor of
 * its own, reads and copies their records, while the caller's thread
 * calls the plugin back for the current one.  Only the lister's thread
 * uses the document's index meanwhile. */
typedef struct {
  Listing      listing;
  CsCpuCursor *cursor;          /* (nullable): the lister's own, to read the records */
  GAsyncQueue *empty;
  GAsyncQueue *listed;
  gint         stop;            /* atomic: the reader wants no more */
} Lister;

/* Reads the records of @batch's events on the lister's thread, copying
 * them: the cursor's window moves on at the next batch. */
static gboolean
read_batch (Lister  *lister,
            Batch   *batch,
            GError **error)
{
  g_autoptr(GError) local_error = NULL;

  g_array_set_size (batch->copied, 0);
  g_byte_array_set_size (batch->data, 0);
  for (guint i = batch->first; i < batch->events->len; i++)
    {
      const CsEvent *ev = &g_array_index (batch->events, CsEvent, i);
      CsRecord record;
      Copied copied;

      if (!cs_cpu_cursor_peek_at (lister->cursor, ev->offset, ev->ts_ns, &record,
                                  &local_error))
        {
          g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                               local_error->message);
          return FALSE;
        }
      copied.record = *record.tep_record;
      copied.ts_ns = record.ts_ns;
      copied.data_at = batch->data->len;
      g_byte_array_append (batch->data, record.tep_record->data, record.tep_record->size);
      g_array_append_val (batch->copied, copied);
    }
  return TRUE;
}

/* Calls @func for the records read by read_batch(). */
static void
call_copied (CsPluginDocument  *self,
             const Batch       *batch,
             CsPluginEventFunc  func,
             gpointer           user_data,
             gboolean          *stopped)
{
  CsTraceFile *file = cs_document_get_trace_file (_cs_plugin_document_get_document (self));

  for (guint i = 0; i < batch->copied->len; i++)
    {
      const CsEvent *ev = &g_array_index (batch->events, CsEvent, batch->first + i);
      Copied *copied = &g_array_index (batch->copied, Copied, i);
      CsPluginEvent event;

      copied->record.data = batch->data->data + copied->data_at;
      _cs_plugin_document_describe_read (self, file, ev->cpu, ev->row, copied->ts_ns,
                                         &copied->record, &event);
      if (!func (&event, user_data))
        {
          *stopped = TRUE;
          return;
        }
    }
}

static gpointer
list_ahead (gpointer data)
{
  Lister *lister = data;

  for (;;)
    {
      Batch *batch = g_async_queue_pop (lister->empty);

      if (g_atomic_int_get (&lister->stop))
        {
          g_array_set_size (batch->events, 0);
          batch->first = 0;
          batch->more = FALSE;
        }
      else if (!list_batch (&lister->listing, batch->events, &batch->first, &batch->more,
                            &batch->error) ||
               (lister->cursor != NULL && !read_batch (lister, batch, &batch->error)))
        batch->more = FALSE;
      g_async_queue_push (lister->listed, batch);
      if (!batch->more)
        return NULL;
    }
}

/* The rest of a long span, after its first batch: listed (and, for
 * uncompressed data, its records read) on a second thread, BATCHES_AHEAD
 * batches ahead of the plugin's work on them, so that decoding the
 * index's chunks and copying the ring buffer's pages overlap the plugin. */
static gboolean
call_listed_ahead (CsPluginDocument  *self,
                   const Listing     *listing,
                   GArray            *events,
                   guint              first,
                   CsPluginEventFunc  func,
                   gpointer           user_data,
                   GError           **error)
{
  CsTraceFile *file = cs_document_get_trace_file (listing->document);
  Lister lister = { *listing, NULL, g_async_queue_new (), g_async_queue_new (), 0 };
  Batch batches[BATCHES_AHEAD];
  GThread *thread;
  gboolean stopped = FALSE, ok, more = TRUE;

  for (guint i = 0; i < BATCHES_AHEAD; i++)
    {
      batches[i] = (Batch) { g_array_sized_new (FALSE, FALSE, sizeof (CsEvent), BATCH_EVENTS),
                             0, TRUE, NULL,
                             g_array_sized_new (FALSE, FALSE, sizeof (Copied), BATCH_EVENTS),
                             g_byte_array_new () };
      g_async_queue_push (lister.empty, &batches[i]);
    }
  /* The records too, through a cursor of the lister's own, when the
   * recording's cursors may be used from another thread and its data
   * are not compressed (a new cursor of compressed data would find its
   * chunks from the CPU's first one). */
  if (file != NULL && cs_trace_file_get_cursors_are_independent (file) &&
      cs_trace_file_get_compression (file) == NULL)
    lister.cursor = cs_trace_file_open_cpu (file, listing->cpu, NULL);
  thread = g_thread_new ("cs-list-events", list_ahead, &lister);
  ok = call_events (self, events, first, func, user_data, &stopped, error);
  while (more)
    {
      Batch *batch = g_async_queue_pop (lister.listed);

      more = batch->more;
      if (ok && !stopped && batch->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&batch->error));
          ok = FALSE;
        }
      if (ok && !stopped && lister.cursor != NULL)
        call_copied (self, batch, func, user_data, &stopped);
      else if (ok && !stopped)
        ok = call_events (self, batch->events, batch->first, func, user_data, &stopped, error);
      if (!ok || stopped)
        g_atomic_int_set (&lister.stop, 1);
      g_async_queue_push (lister.empty, batch);
    }
  g_thread_join (thread);
  for (guint i = 0; i < BATCHES_AHEAD; i++)
    {
      g_array_unref (batches[i].events);
      g_array_unref (batches[i].copied);
      g_byte_array_unref (batches[i].data);
      g_clear_error (&batches[i].error);
    }
  g_clear_pointer (&lister.cursor, cs_cpu_cursor_free);
  g_async_queue_unref (lister.empty);
  g_async_queue_unref (lister.listed);
  return ok;
}

/* The events of @cpu over [@begin_ns, @end_ns), BATCH_EVENTS at a time;
 * past the first batch, the next ones are listed and read on a second
 * thread (call_listed_ahead()). */
static gboolean
foreach_cpu_event (CsPluginDocument  *self,
                   CsDocument        *document,
                   guint              cpu,
                   gint64             begin_ns,
                   gint64             end_ns,
                   const gboolean    *wanted,
                   CsPluginEventFunc  func,
                   gpointer           user_data,
                   GError           **error)
{
  GArray *events = _cs_plugin_document_get_events (self);
  Listing listing = { document, cpu, end_ns, wanted, begin_ns, 0, 0 };
  gboolean stopped = FALSE, more;
  guint first;

  if (!list_batch (&listing, events, &first, &more, error))
    return FALSE;
  if (more)
    return call_listed_ahead (self, &listing, events, first, func, user_data, error);
  return call_events (self, events, first, func, user_data, &stopped, error);
}

gboolean
cs_plugin_document_foreach_event (CsPluginDocument  *self,
                                  gint               cpu,
                                  gint64             begin_ns,
                                  gint64             end_ns,
                                  const char *const *types,
                                  CsPluginEventFunc  func,
                                  gpointer           user_data,
                                  GError           **error)
{
  CsDocument *document;
  const gboolean *wanted;
  GArray *events;
  g_autoptr(GError) local_error = NULL;
  gboolean stopped = FALSE;
  guint n_cpus;

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  document = _cs_plugin_document_get_document (self);
  n_cpus = cs_document_get_n_cpus (document);
  if (end_ns <= begin_ns || (cpu >= 0 && (guint) cpu >= n_cpus))
    return TRUE;
  wanted = cached_wanted_types (self, document, types);
  if (cpu >= 0)
    return foreach_cpu_event (self, document, cpu, begin_ns, end_ns, wanted, func, user_data,
                              error);
  events = _cs_plugin_document_get_events (self);
  for (guint c = 0; c < n_cpus; c++)
    {
      if (!cs_document_get_events_of_types (document, c, begin_ns, end_ns, wanted,
                                            cs_document_get_n_event_types (document), G_MAXUINT,
                                            events, &local_error))
        {
          g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                               local_error->message);
          return FALSE;
        }
    }
  g_array_sort (events, compare_events);
  return call_events (self, events, 0, func, user_data, &stopped, error);
}

G_STATIC_ASSERT (sizeof (CsPluginTaskInterval) == sizeof (CsTaskInterval));
G_STATIC_ASSERT ((int) CS_PLUGIN_TASK_OTHER == (int) CS_TASK_OTHER);

gboolean
cs_plugin_document_get_task_intervals (CsPluginDocument *self,
                                       gint32            pid,
                                       gint64            begin_ns,
                                       gint64            end_ns,
                                       GArray           *intervals,
                                       GError          **error)
{
  g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (self != NULL && intervals != NULL, FALSE);

  if (!cs_document_get_task_intervals (_cs_plugin_document_get_document (self), pid,
                                       begin_ns, end_ns, got, &local_error))
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           local_error->message);
      return FALSE;
    }
  for (guint i = 0; i < got->len; i++)
    {
      const CsTaskInterval *in = &g_array_index (got, CsTaskInterval, i);
      CsPluginTaskInterval out = {
        .begin_ns = in->begin_ns,
        .end_ns = in->end_ns,
        .state = (CsPluginTaskState) in->state,
        .cpu = in->cpu,
        .wakeup_ns = in->wakeup_ns,
      };

      g_array_append_val (intervals, out);
    }
  return TRUE;
}
