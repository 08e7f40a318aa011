/* cs-plugin-document-events.c: the events, slices and interrupts of a
 * span and a task's intervals, as plugins read them (cs-plugin-document.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Both answer from the index (cs-document-queries.c, cs-task-timeline.c);
 * only the records of the wanted event types are read from the recording,
 * and the index's chunks that hold none of them are not decoded.
 */
#include "config.h"

#include <string.h>


#include "cs-document.h"
#include "cs-document-private.h"
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

/* The events of @cpu over [@begin_ns, @end_ns), BATCH_EVENTS at a time:
 * each batch resumes at the time of the last event listed, passing over
 * the rows listed already at that time. */
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
  g_autoptr(GError) local_error = NULL;
  gint64 from = begin_ns;
  guint64 last_row = 0;
  guint n_at_from = 0;          /* events listed already at @from */
  gboolean stopped = FALSE;

  for (;;)
    {
      guint max = BATCH_EVENTS + n_at_from;
      guint first = 0, n_at_last;
      const CsEvent *last;

      g_array_set_size (events, 0);
      if (!cs_document_get_events_of_types (document, cpu, from, end_ns, wanted,
                                            cs_document_get_n_event_types (document), max,
                                            events, &local_error))
        return _cs_plugin_failed (error, local_error);
      while (n_at_from > 0 && first < events->len &&
             g_array_index (events, CsEvent, first).ts_ns == from &&
             g_array_index (events, CsEvent, first).row <= last_row)
        first++;
      if (!call_events (self, events, first, func, user_data, &stopped, error))
        return FALSE;
      if (stopped || events->len < max)
        return TRUE;
      last = &g_array_index (events, CsEvent, events->len - 1);
      n_at_last = last->ts_ns == from ? first : 0;
      for (guint i = events->len; i-- > first &&
           g_array_index (events, CsEvent, i).ts_ns == last->ts_ns;)
        n_at_last++;
      n_at_from = n_at_last;
      from = last->ts_ns;
      last_row = last->row;
    }
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
        return _cs_plugin_failed (error, local_error);
    }
  g_array_sort (events, compare_events);
  return call_events (self, events, 0, func, user_data, &stopped, error);
}

G_STATIC_ASSERT (sizeof (CsPluginSlice) == sizeof (CsSlice));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CsPluginSlice, flags) == G_STRUCT_OFFSET (CsSlice, flags));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CsPluginSlice, next_comm) == G_STRUCT_OFFSET (CsSlice, next_comm));
G_STATIC_ASSERT ((int) CS_PLUGIN_SLICE_SWITCHED == (int) CS_SLICE_SWITCHED);
G_STATIC_ASSERT ((int) CS_PLUGIN_SLICE_SAME_TASK == (int) CS_SLICE_SAME_TASK);

typedef struct {
  CsPluginSliceFunc func;
  gpointer user_data;
} SliceCall;

static gboolean
call_slice (const CsSlice *slice,
            gpointer       user_data)
{
  SliceCall *call = user_data;

  /* The same layout (asserted above). */
  return call->func ((const CsPluginSlice *) slice, call->user_data);
}

gboolean
cs_plugin_document_foreach_slice (CsPluginDocument  *self,
                                  guint              cpu,
                                  gint64             begin_ns,
                                  gint64             end_ns,
                                  CsPluginSliceFunc  func,
                                  gpointer           user_data,
                                  GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  SliceCall call = { func, user_data };

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  if (!_cs_document_scan_slices (_cs_plugin_document_get_document (self), cpu, begin_ns,
                                 end_ns, call_slice, &call, &local_error))
    return _cs_plugin_failed (error, local_error);
  return TRUE;
}

/* The span scans of the model (SpanFunc: CsPluginSpanFunc's shape), their
 * errors the plugin API's. */
static gboolean
scan_spans (CsPluginDocument  *self,
            gboolean         (*scan) (CsDocument *, guint, gint64, gint64, SpanFunc, gpointer,
                                      GError **),
            guint              cpu,
            gint64             begin_ns,
            gint64             end_ns,
            CsPluginSpanFunc   func,
            gpointer           user_data,
            GError           **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  if (!scan (_cs_plugin_document_get_document (self), cpu, begin_ns, end_ns, func, user_data,
             &local_error))
    return _cs_plugin_failed (error, local_error);
  return TRUE;
}

gboolean
cs_plugin_document_foreach_unswitched (CsPluginDocument  *self,
                                       guint              cpu,
                                       gint64             begin_ns,
                                       gint64             end_ns,
                                       CsPluginSpanFunc   func,
                                       gpointer           user_data,
                                       GError           **error)
{
  return scan_spans (self, _cs_document_scan_unswitched, cpu, begin_ns, end_ns, func, user_data,
                     error);
}

gboolean
cs_plugin_document_foreach_idle (CsPluginDocument  *self,
                                 guint              cpu,
                                 gint64             begin_ns,
                                 gint64             end_ns,
                                 CsPluginSpanFunc   func,
                                 gpointer           user_data,
                                 GError           **error)
{
  return scan_spans (self, _cs_document_scan_idle, cpu, begin_ns, end_ns, func, user_data, error);
}

G_STATIC_ASSERT ((int) CS_PLUGIN_IRQ_ENTRY == (int) CS_IRQ_ENTRY);
G_STATIC_ASSERT ((int) CS_PLUGIN_IRQ_EXIT == (int) CS_IRQ_EXIT);
G_STATIC_ASSERT ((int) CS_PLUGIN_SOFTIRQ_ENTRY == (int) CS_SOFTIRQ_ENTRY);
G_STATIC_ASSERT ((int) CS_PLUGIN_SOFTIRQ_EXIT == (int) CS_SOFTIRQ_EXIT);

typedef struct {
  CsPluginInterruptFunc func;
  gpointer user_data;
} IrqCall;

static gboolean
call_irq (const CsIrq *irq,
          gpointer     user_data)
{
  const IrqCall *call = user_data;
  CsPluginInterrupt interrupt = {
    irq->ts_ns, irq->cpu, irq->row, (CsPluginInterruptKind) irq->kind, irq->value, irq->name
  };

  return call->func (&interrupt, call->user_data);
}

gboolean
cs_plugin_document_foreach_interrupt (CsPluginDocument      *self,
                                      guint                  cpu,
                                      gint64                 begin_ns,
                                      gint64                 end_ns,
                                      CsPluginInterruptFunc  func,
                                      gpointer               user_data,
                                      GError               **error)
{
  g_autoptr(GError) local_error = NULL;
  IrqCall call = { func, user_data };

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  if (!cs_document_foreach_irq (_cs_plugin_document_get_document (self), cpu, begin_ns, end_ns,
                                call_irq, &call, &local_error))
    return _cs_plugin_failed (error, local_error);
  return TRUE;
}

G_STATIC_ASSERT (sizeof (CsPluginMigration) == sizeof (CsMigration));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CsPluginMigration, cpu) == G_STRUCT_OFFSET (CsMigration, cpu));
G_STATIC_ASSERT (G_STRUCT_OFFSET (CsPluginMigration, dest_cpu) ==
                 G_STRUCT_OFFSET (CsMigration, dest_cpu));

typedef struct {
  CsPluginMigrationFunc func;
  gpointer user_data;
} MigrationCall;

static gboolean
call_migration (const CsMigration *migration,
                gpointer           user_data)
{
  const MigrationCall *call = user_data;

  /* The same layout (asserted above). */
  return call->func ((const CsPluginMigration *) migration, call->user_data);
}

gboolean
cs_plugin_document_foreach_migration (CsPluginDocument      *self,
                                      guint                  cpu,
                                      gint64                 begin_ns,
                                      gint64                 end_ns,
                                      CsPluginMigrationFunc  func,
                                      gpointer               user_data,
                                      GError               **error)
{
  g_autoptr(GError) local_error = NULL;
  MigrationCall call = { func, user_data };

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  if (!cs_document_foreach_migration (_cs_plugin_document_get_document (self), cpu, begin_ns,
                                      end_ns, call_migration, &call, &local_error))
    return _cs_plugin_failed (error, local_error);
  return TRUE;
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
    return _cs_plugin_failed (error, local_error);
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
