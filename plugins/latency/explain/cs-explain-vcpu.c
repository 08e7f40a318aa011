/* cs-explain-vcpu.c: a KVM guest's latency split into the guest's own
 * wait and the time its vCPU was out of the guest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A guest's trace cannot see its vCPU leave the guest: while the host
 * handles an exit, or does not run the vCPU's thread at all, the guest's
 * events go on saying that the task, idle or nothing held its CPU.  When
 * the guest's host recording is open with it, the core answers where the
 * host had the vCPU out (cs_plugin_document_get_vcpu_out(), the same
 * figures as SQL's vcpu_out_ns()), and those parts of each slice move to
 * a contributor of their own: "vCPU exited to host: REASON" or "vCPU not
 * running on the host".  The breakdown still tiles [A, B) exactly: what is
 * carved out of a slice is taken from the contributor that held it.
 */
#include <string.h>

#include "cs-explain-private.h"

/* The index of the contributor for @iv, added when new. */
static guint
vcpu_contributor (GArray *contributors, const CsPluginVcpuInterval *iv)
{
  CsExplainContributor c = { 0 };

  c.kind = iv->state == CS_PLUGIN_VCPU_NOT_RUNNING ? CS_EXPLAIN_VCPU_NOT_RUNNING
                                                   : CS_EXPLAIN_VCPU_EXIT;
  c.id = -1;
  c.prio = -1;
  c.n_pairs = 1;
  /* Exits are told apart by their reason; not running is one part. */
  if (c.kind == CS_EXPLAIN_VCPU_EXIT && iv->reason != NULL)
    g_strlcpy (c.name, iv->reason, sizeof c.name);
  for (guint i = 0; i < contributors->len; i++)
    {
      const CsExplainContributor *o = &g_array_index (contributors, CsExplainContributor, i);

      if (o->kind == c.kind && strcmp (o->name, c.name) == 0)
        return i;
    }
  g_array_append_val (contributors, c);
  return contributors->len - 1;
}

/* Appends the slice [@begin_ns, @end_ns) of @contributor on @cpu to
 * @slices (of #CsExplainSlice), unless it is empty. */
void
_cs_explain_add_slice (GArray *slices, gint64 begin_ns, gint64 end_ns, guint cpu, guint contributor)
{
  CsExplainSlice s = { begin_ns, end_ns, cpu, contributor };

  if (end_ns > begin_ns)
    g_array_append_val (slices, s);
}

/* Contributors without time dropped, the rest largest first, and the
 * slices' indexes following them. */
void
_cs_explain_breakdown_reorder (CsExplainBreakdown *x)
{
  g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  g_autofree guint *map = g_new (guint, MAX (x->contributors->len, 1));
  g_autofree gboolean *taken = NULL;

  for (guint i = 0; i < x->contributors->len; i++)
    if (g_array_index (x->contributors, CsExplainContributor, i).ns > 0)
      g_array_append_val (sorted, g_array_index (x->contributors, CsExplainContributor, i));
  cs_explain_sort_contributors (sorted);
  /* Each old part is a byte-for-byte copy of one sorted part. */
  taken = g_new0 (gboolean, MAX (sorted->len, 1));
  for (guint i = 0; i < x->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (x->contributors, CsExplainContributor, i);

      map[i] = G_MAXUINT;
      for (guint k = 0; c->ns > 0 && k < sorted->len; k++)
        if (!taken[k] && memcmp (c, &g_array_index (sorted, CsExplainContributor, k), sizeof *c) == 0)
          {
            map[i] = k;
            taken[k] = TRUE;
            break;
          }
    }
  for (guint i = 0; i < x->slices->len; i++)
    {
      CsExplainSlice *s = &g_array_index (x->slices, CsExplainSlice, i);

      s->contributor = map[s->contributor];
    }
  g_array_unref (x->contributors);
  x->contributors = g_steal_pointer (&sorted);
}

/**
 * cs_explain_add_vcpu_out:
 * @document: the recording @breakdown was read from
 * @breakdown: (transfer full) (nullable): a breakdown with slices
 *   (cs_explain_wakeup_pair(), cs_explain_span_on_cpu()), or %NULL
 *
 * When @document is a KVM guest whose host recording is open with it,
 * moves the parts of each slice during which the host had that slice's
 * CPU (a vCPU) out of the guest to the contributors
 * %CS_EXPLAIN_VCPU_EXIT (one per exit reason) and
 * %CS_EXPLAIN_VCPU_NOT_RUNNING, taking that time from the contributor
 * that held the slice (a task, idle, no event, an interrupt...): the
 * contributors still add up to B − A and the slices still tile [A, B).
 * A slice the host's view does not cover (before the vCPU thread's first
 * kvm event, say) stays as it is; a recording alone is returned as it is.
 *
 * Returns: (transfer full) (nullable): @breakdown
 */
CsExplainBreakdown *
cs_explain_add_vcpu_out (CsPluginDocument   *document,
                         CsExplainBreakdown *breakdown)
{
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GArray) out = NULL;
  gboolean changed = FALSE;

  /* A recording alone (most) is answered once, not per slice: a long
   * wait has a million slices. */
  if (breakdown == NULL || breakdown->slices == NULL || breakdown->slices->len == 0 ||
      !cs_plugin_document_has_vcpu_host (document))
    return breakdown;
  out = g_array_new (FALSE, FALSE, sizeof (CsPluginVcpuInterval));
  for (guint i = 0; i < breakdown->slices->len; i++)
    {
      CsExplainSlice s = g_array_index (breakdown->slices, CsExplainSlice, i);
      gint64 at = s.begin_ns;
      guint n_kept = 0;

      g_array_set_size (out, 0);
      /* Not a guest with its host, or not covered: the slice as it is
       * (no GError: a recording alone answers at once, and often). */
      if (!cs_plugin_document_get_vcpu_out (document, s.cpu, s.begin_ns, s.end_ns, out, NULL, NULL))
        {
          if (slices != NULL)
            g_array_append_val (slices, s);
          continue;
        }
      /* The first slice the host covers: the new slices start with those
       * before it, as they are (a recording alone copies none). */
      if (slices == NULL)
        {
          slices = g_array_sized_new (FALSE, FALSE, sizeof (CsExplainSlice),
                                      breakdown->slices->len);
          g_array_append_vals (slices, breakdown->slices->data, i);
        }
      for (guint k = 0; k < out->len; k++)
        {
          const CsPluginVcpuInterval *iv = &g_array_index (out, CsPluginVcpuInterval, k);
          guint c = vcpu_contributor (breakdown->contributors, iv);

          if (iv->begin_ns > at)
            n_kept++;
          _cs_explain_add_slice (slices, at, iv->begin_ns, s.cpu, s.contributor);
          _cs_explain_add_slice (slices, iv->begin_ns, iv->end_ns, s.cpu, c);
          g_array_index (breakdown->contributors, CsExplainContributor, s.contributor).ns -=
            iv->end_ns - iv->begin_ns;
          g_array_index (breakdown->contributors, CsExplainContributor, c).ns +=
            iv->end_ns - iv->begin_ns;
          g_array_index (breakdown->contributors, CsExplainContributor, c).n_slices++;
          at = iv->end_ns;
          changed = TRUE;
        }
      if (s.end_ns > at)
        n_kept++;
      _cs_explain_add_slice (slices, at, s.end_ns, s.cpu, s.contributor);
      /* The slice is now n_kept pieces of its contributor. */
      if (out->len > 0)
        {
          CsExplainContributor *held = &g_array_index (breakdown->contributors,
                                                       CsExplainContributor, s.contributor);

          held->n_slices = held->n_slices + n_kept >= 1 ? held->n_slices + n_kept - 1 : 0;
        }
    }
  if (!changed)
    return breakdown;
  g_array_unref (breakdown->slices);
  breakdown->slices = g_steal_pointer (&slices);
  _cs_explain_breakdown_reorder (breakdown);
  return breakdown;
}
