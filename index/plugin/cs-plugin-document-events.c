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

#include <string.h>


#include "cs-document.h"
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
  guint n_cpus;

  g_return_val_if_fail (self != NULL && func != NULL, FALSE);

  document = _cs_plugin_document_get_document (self);
  n_cpus = cs_document_get_n_cpus (document);
  if (end_ns <= begin_ns || (cpu >= 0 && (guint) cpu >= n_cpus))
    return TRUE;
  wanted = cached_wanted_types (self, document, types);
  events = _cs_plugin_document_get_events (self);
  for (guint c = 0; c < n_cpus; c++)
    {
      if (cpu >= 0 && c != (guint) cpu)
        continue;
      if (!cs_document_get_events_of_types (document, c, begin_ns, end_ns, wanted,
                                            cs_document_get_n_event_types (document), events,
                                            &local_error))
        {
          g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                               local_error->message);
          return FALSE;
        }
    }
  if (cpu < 0)
    g_array_sort (events, compare_events);
  for (guint i = 0; i < events->len; i++)
    {
      const CsEvent *ev = &g_array_index (events, CsEvent, i);
      CsPluginEvent event;

      if (!_cs_plugin_document_fill_event (self, ev->cpu, ev->row, ev->offset, &event, error))
        return FALSE;
      if (!func (&event, user_data))
        break;
    }
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
