/* cs-plugin-document-index.c: what the index knows of a plugin's
 * recording (cs-plugin-document.h): its path, span, CPUs, event counts,
 * task names, event formats, kernel functions and missed events, each
 * asked of the CsDocument the plugin document wraps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-document-private.h"
#include "cs-plugin-document-private.h"

const char *
cs_plugin_document_get_path (CsPluginDocument *document)
{
  g_return_val_if_fail (document != NULL, NULL);
  return cs_document_get_trace_path (_cs_plugin_document_get_document (document));
}

gint64
cs_plugin_document_get_first_ns (CsPluginDocument *document)
{
  g_return_val_if_fail (document != NULL, 0);
  return cs_document_get_first_ns (_cs_plugin_document_get_document (document));
}

gint64
cs_plugin_document_get_last_ns (CsPluginDocument *document)
{
  g_return_val_if_fail (document != NULL, 0);
  return cs_document_get_last_ns (_cs_plugin_document_get_document (document));
}

guint
cs_plugin_document_get_n_cpus (CsPluginDocument *document)
{
  g_return_val_if_fail (document != NULL, 0);
  return cs_document_get_n_cpus (_cs_plugin_document_get_document (document));
}

guint64
cs_plugin_document_get_cpu_n_events (CsPluginDocument *document,
                                     guint             cpu)
{
  const CsCpuInfo *info;

  g_return_val_if_fail (document != NULL, 0);
  info = cpu < cs_document_get_n_cpus (_cs_plugin_document_get_document (document))
         ? cs_document_get_cpu (_cs_plugin_document_get_document (document), cpu) : NULL;
  return info != NULL ? info->n_events : 0;
}

gboolean
cs_plugin_document_count_cpu_events (CsPluginDocument *document,
                                     guint             cpu,
                                     gint64            begin_ns,
                                     gint64            end_ns,
                                     guint64          *n_events,
                                     GError          **error)
{
  CsDocument *doc;
  g_autoptr(GError) local_error = NULL;
  guint64 before, until;

  g_return_val_if_fail (document != NULL && n_events != NULL, FALSE);

  doc = _cs_plugin_document_get_document (document);
  *n_events = 0;
  if (cpu >= cs_document_get_n_cpus (doc) || end_ns <= begin_ns)
    return TRUE;
  before = _cs_document_count_before (doc, cpu, begin_ns, &local_error);
  until = before != G_MAXUINT64 ? _cs_document_count_before (doc, cpu, end_ns, &local_error)
                                : G_MAXUINT64;
  if (until == G_MAXUINT64)
    return _cs_plugin_failed (error, local_error);
  *n_events = until > before ? until - before : 0;
  return TRUE;
}

guint64
cs_plugin_document_count_events (CsPluginDocument *document,
                                 const char       *system,
                                 const char       *name)
{
  guint64 n = 0;

  g_return_val_if_fail (document != NULL && system != NULL, 0);

  for (guint i = 0; i < cs_document_get_n_event_types (_cs_plugin_document_get_document (document)); i++)
    {
      const CsEventType *type = cs_document_get_event_type (_cs_plugin_document_get_document (document), i);

      if (g_strcmp0 (type->system, system) == 0 &&
          (name == NULL || g_strcmp0 (type->name, name) == 0))
        n += type->n_events;
    }
  return n;
}

const char *
cs_plugin_document_get_comm (CsPluginDocument *document,
                             gint32            pid)
{
  g_return_val_if_fail (document != NULL, NULL);
  return cs_document_get_comm (_cs_plugin_document_get_document (document), pid);
}

struct tep_handle *
cs_plugin_document_get_tep (CsPluginDocument  *document,
                            GError           **error)
{
  CsTraceFile *file;

  g_return_val_if_fail (document != NULL, NULL);

  file = cs_document_get_trace_file (_cs_plugin_document_get_document (document));
  if (file == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("The recording “%s” can no longer be read"),
                   cs_document_get_trace_path (_cs_plugin_document_get_document (document)));
      return NULL;
    }
  return cs_trace_file_get_tep (file);
}

const char *
cs_plugin_document_find_function (CsPluginDocument *document,
                                  guint64           addr,
                                  guint64          *start_addr)
{
  CsTraceFile *file;
  struct tep_handle *tep;
  const char *name = NULL;

  if (start_addr != NULL)
    *start_addr = addr;
  g_return_val_if_fail (document != NULL, NULL);

  file = cs_document_get_trace_file (_cs_plugin_document_get_document (document));
  if (file == NULL)
    return NULL;
  cs_trace_file_load_symbols (file);
  tep = cs_trace_file_get_tep (file);
  name = tep_find_function (tep, addr);
  if (name != NULL && start_addr != NULL)
    *start_addr = tep_find_function_address (tep, addr);
  return name;
}

gboolean
cs_plugin_document_get_missed_events (CsPluginDocument  *document,
                                      guint              cpu,
                                      gint64             begin_ns,
                                      gint64             end_ns,
                                      GArray            *missed,
                                      GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  guint first = missed->len;

  g_return_val_if_fail (document != NULL && missed != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (missed) == sizeof (CsPluginMissedEvents), FALSE);

  /* CsMissedEvents and CsPluginMissedEvents share their layout. */
  G_STATIC_ASSERT (sizeof (CsMissedEvents) == sizeof (CsPluginMissedEvents));
  if (!cs_document_get_missed_events (_cs_plugin_document_get_document (document), cpu, begin_ns, end_ns, missed,
                                      &local_error))
    {
      g_array_set_size (missed, first);
      return _cs_plugin_failed (error, local_error);
    }
  return TRUE;
}
