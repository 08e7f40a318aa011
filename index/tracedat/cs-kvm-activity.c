/* cs-kvm-activity.c: time in the guest, exits by reason and the longest
 * exit of KVM vCPU threads, from a host recording's kvm events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "cs-kvm-activity.h"

/* One kvm event of a watched thread. */
typedef struct {
  gint64 ts_ns;
  guint thread;       /* index into the tids */
  gint reason;        /* index into the reason names; -1 for kvm_entry */
} Mark;

typedef struct {
  GHashTable *by_value;   /* exit_reason value → index + 1 */
  GPtrArray *names;       /* char *, by index */
} Reasons;

/**
 * cs_kvm_vcpu_activity_free:
 * @activity: (transfer full) (nullable): an activity
 */
void
cs_kvm_vcpu_activity_free (CsKvmVcpuActivity *activity)
{
  if (activity == NULL)
    return;
  g_free (activity->longest_exit_reason);
  g_clear_pointer (&activity->reasons, g_ptr_array_unref);
  g_free (activity);
}

static void
exit_reason_free (CsKvmExitReason *r)
{
  g_free (r->reason);
  g_free (r);
}

/* The reason's name as the event prints it: the word after "reason " in
 * the kvm_exit line (arch/x86/kvm/trace.h prints "reason %s ..." with
 * __print_symbolic() of VMX or SVM exit codes). */
static gint
reason_index (Reasons *reasons, struct tep_handle *tep, struct tep_event *exit_event,
              struct tep_record *record)
{
  struct trace_seq seq;
  unsigned long long value = 0;
  gpointer found;
  char *name = NULL;
  const char *at;

  trace_seq_init (&seq);
  if (tep_get_field_val (&seq, exit_event, "exit_reason", record, &value, 0) != 0)
    value = G_MAXUINT64;
  found = g_hash_table_lookup (reasons->by_value, GUINT_TO_POINTER ((guint) value + 1));
  if (found != NULL)
    {
      trace_seq_destroy (&seq);
      return GPOINTER_TO_INT (found) - 1;
    }
  trace_seq_reset (&seq);
  tep_print_event (tep, &seq, record, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (&seq);
  at = seq.buffer != NULL ? strstr (seq.buffer, "reason ") : NULL;
  if (at != NULL)
    {
      at += strlen ("reason ");
      name = g_strndup (at, strcspn (at, " "));
    }
  if (name == NULL || *name == '\0')
    {
      g_free (name);
      name = g_strdup_printf ("%llu", value);
    }
  trace_seq_destroy (&seq);
  g_ptr_array_add (reasons->names, name);
  g_hash_table_insert (reasons->by_value, GUINT_TO_POINTER ((guint) value + 1),
                       GINT_TO_POINTER ((gint) reasons->names->len));
  return (gint) reasons->names->len - 1;
}

static gboolean
collect_cpu (CsTracedatReader *host, guint cpu, const gint32 *tids, guint n_tids,
             Reasons *reasons, GArray *marks, GError **error)
{
  g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (host, cpu, error);
  struct tep_handle *tep;
  struct tep_event *entry, *exit_event;
  CsTracedatRecord rec;
  GError *local = NULL;

  if (stream == NULL || (tep = cs_tracedat_cpu_get_tep (stream, error)) == NULL)
    return FALSE;
  entry = tep_find_event_by_name (tep, "kvm", "kvm_entry");
  exit_event = tep_find_event_by_name (tep, "kvm", "kvm_exit");
  if (entry == NULL || exit_event == NULL)
    return TRUE;   /* no kvm events recorded: no activity */
  while (cs_tracedat_cpu_next (stream, &rec, &local))
    {
      int type = tep_data_type (tep, rec.tep_record);
      int pid;

      if (type != entry->id && type != exit_event->id)
        continue;
      pid = tep_data_pid (tep, rec.tep_record);
      for (guint t = 0; t < n_tids; t++)
        if (tids[t] == pid)
          {
            Mark m = { rec.ts_ns, t, -1 };

            if (type == exit_event->id)
              m.reason = reason_index (reasons, tep, exit_event, rec.tep_record);
            g_array_append_val (marks, m);
            break;
          }
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static int
compare_marks (gconstpointer a, gconstpointer b)
{
  const Mark *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

static int
compare_reasons (gconstpointer a, gconstpointer b)
{
  const CsKvmExitReason *x = *(CsKvmExitReason * const *) a;
  const CsKvmExitReason *y = *(CsKvmExitReason * const *) b;

  if (x->n_exits != y->n_exits)
    return x->n_exits > y->n_exits ? -1 : 1;
  return strcmp (x->reason, y->reason);
}

/* One thread's marks, in time order, into its activity. */
static void
sum_thread (CsKvmVcpuActivity *a, const Mark *m, guint n, Reasons *reasons)
{
  g_autofree CsKvmExitReason **by_index = g_new0 (CsKvmExitReason *, reasons->names->len + 1);

  a->reasons = g_ptr_array_new_with_free_func ((GDestroyNotify) exit_reason_free);
  for (guint i = 0; i < n; i++)
    {
      const Mark *next = i + 1 < n ? &m[i + 1] : NULL;

      if (i == 0)
        a->first_ns = m[i].ts_ns;
      a->last_ns = m[i].ts_ns;
      if (m[i].reason < 0)
        {
          a->n_entries++;
          if (next != NULL && next->reason >= 0)
            a->in_guest_ns += next->ts_ns - m[i].ts_ns;
        }
      else
        {
          CsKvmExitReason *r = by_index[m[i].reason];
          gint64 out = next != NULL && next->reason < 0 ? next->ts_ns - m[i].ts_ns : 0;

          if (r == NULL)
            {
              r = by_index[m[i].reason] = g_new0 (CsKvmExitReason, 1);
              r->reason = g_strdup (g_ptr_array_index (reasons->names, m[i].reason));
              g_ptr_array_add (a->reasons, r);
            }
          a->n_exits++;
          r->n_exits++;
          r->out_ns += out;
          r->longest_ns = MAX (r->longest_ns, out);
          if (out > a->longest_exit_ns)
            {
              a->longest_exit_ns = out;
              a->longest_exit_at_ns = m[i].ts_ns;
              g_free (a->longest_exit_reason);
              a->longest_exit_reason = g_strdup (r->reason);
            }
        }
    }
  g_ptr_array_sort (a->reasons, compare_reasons);
}

/**
 * cs_kvm_activity_measure:
 * @host: a host recording
 * @tids: (array length=n_tids): the vCPU threads to measure (host pids)
 * @n_tids: how many
 * @error: return location for a #GError
 *
 * Reads every record of @host once and measures, for each thread of @tids,
 * its kvm:kvm_entry and kvm:kvm_exit events: time in the guest, exits by
 * reason and the longest time out of the guest.  A thread's events are
 * taken in time order over all CPUs.  A recording without kvm events gives
 * zero activity.  Linear in the records of @host; memory in the kvm
 * events of @tids.  Any thread (it uses the streams' own format handles).
 *
 * Errors: those of cs_tracedat_cpu_next() (%CS_INDEX_ERROR).
 *
 * Returns: (transfer full) (element-type CsKvmVcpuActivity): one activity
 *   per thread of @tids, in that order; %NULL on error
 */
GPtrArray *
cs_kvm_activity_measure (CsTracedatReader  *host,
                         const gint32      *tids,
                         guint              n_tids,
                         GError           **error)
{
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  g_autoptr(GHashTable) by_value = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  Reasons reasons = { by_value, names };
  GPtrArray *result;
  guint start = 0;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (host), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (host); cpu++)
    if (cs_tracedat_reader_get_cpu_data_size (host, cpu) > 0 &&
        !collect_cpu (host, cpu, tids, n_tids, &reasons, marks, error))
      return NULL;
  g_array_sort (marks, compare_marks);

  result = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_kvm_vcpu_activity_free);
  for (guint t = 0; t < n_tids; t++)
    {
      CsKvmVcpuActivity *a = g_new0 (CsKvmVcpuActivity, 1);
      guint end = start;

      while (end < marks->len && g_array_index (marks, Mark, end).thread == t)
        end++;
      a->tid = tids[t];
      sum_thread (a, &g_array_index (marks, Mark, start), end - start, &reasons);
      g_ptr_array_add (result, a);
      start = end;
    }
  return result;
}
