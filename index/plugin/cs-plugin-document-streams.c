/* cs-plugin-document-streams.c: what plugins ask of a recording shown
 * with others (cs-plugin-document.h): a KVM guest's vCPUs as its host saw
 * them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The recording's CsStream (set by the window or the command line with
 * _cs_plugin_document_set_stream()) answers through cs-stream-vcpu.h,
 * the code SQL's vcpu_out_ns() uses too.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-plugin-document-private.h"
#include "cs-stream-vcpu.h"

/**
 * cs_plugin_document_has_vcpu_host:
 *
 * See cs-plugin-document.h.
 */
gboolean
cs_plugin_document_has_vcpu_host (CsPluginDocument *document)
{
  CsStream *stream;

  g_return_val_if_fail (document != NULL, FALSE);

  stream = _cs_plugin_document_get_stream (document);
  return stream != NULL && cs_stream_get_vcpu_timeline (stream) != NULL;
}

/**
 * cs_plugin_document_get_vcpu_out:
 *
 * See cs-plugin-document.h.
 */
gboolean
cs_plugin_document_get_vcpu_out (CsPluginDocument *document,
                                 guint             vcpu,
                                 gint64            begin_ns,
                                 gint64            end_ns,
                                 GArray           *intervals,
                                 gboolean         *exits_known,
                                 GError          **error)
{
  CsStream *stream;
  g_autoptr(GArray) out = NULL;
  CsVcpuTimeline *tl;

  g_return_val_if_fail (document != NULL, FALSE);
  g_return_val_if_fail (intervals != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (intervals) == sizeof (CsPluginVcpuInterval), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (exits_known != NULL)
    *exits_known = FALSE;
  stream = _cs_plugin_document_get_stream (document);
  if (stream == NULL || (tl = cs_stream_get_vcpu_timeline (stream)) == NULL)
    {
      /* Asked per slice of a breakdown, without a GError: no message. */
      if (error != NULL)
        g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY,
                     _("%s is not a KVM guest shown with its host’s recording"),
                     cs_plugin_document_get_path (document));
      return FALSE;
    }
  out = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  if (!cs_stream_get_vcpu_out (stream, vcpu, begin_ns, end_ns, out, exits_known))
    {
      if (error != NULL)
        g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY,
                     _("The host’s recording does not say what vCPU %u did from %" PRId64 " to %"
                       PRId64 " ns"), vcpu, begin_ns, end_ns);
      return FALSE;
    }
  for (guint i = 0; i < out->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (out, CsVcpuInterval, i);
      CsPluginVcpuInterval pi = {
        iv->begin_ns, iv->end_ns,
        iv->state == CS_VCPU_STATE_NOT_RUNNING ? CS_PLUGIN_VCPU_NOT_RUNNING : CS_PLUGIN_VCPU_EXIT,
        cs_vcpu_timeline_get_reason_name (tl, iv->reason),
      };

      g_array_append_val (intervals, pi);
    }
  return TRUE;
}
