/* cs-vcpu-timeline.c: the host's view of KVM vCPU threads over time, from
 * one pass over a host recording's kvm_entry, kvm_exit and sched_switch
 * events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "cs-vcpu-timeline.h"

/* Events per block of the drawing summaries. */
#define BLOCK 64

/* An event as collected, before the threads are split. */
typedef struct {
  gint64 ts_ns;
  guint64 seq;        /* collection order: time order within one CPU */
  guint thread;
  gint16 reason;
  guint8 kind;
} Mark;

/* The summary of BLOCK events of a thread (the intervals they start). */
typedef struct {
  gint64 before_ns[CS_VCPU_N_STATES];  /* state time from the first event up to the block */
  gint64 top_ns;                        /* the block's top exit reason: its time */
  gint32 top_reason;                    /* and its index, -1 with none */
} Block;

typedef struct {
  gint32 tid;
  CsVcpuState initial_state;   /* before its first event */
  gint initial_reason;
  GArray *events;              /* CsVcpuEvent */
  GArray *blocks;              /* Block, one per BLOCK events, plus a last one with the totals */
} Thread;

struct _CsVcpuTimeline {
  gint64 first_ns;
  gint64 last_ns;
  gboolean has_sched;
  GPtrArray *reasons;          /* char *, by reason index */
  Thread *threads;
  guint n_threads;
};

/* While collecting: exit reason values → indexes. */
typedef struct {
  GHashTable *by_value;        /* exit_reason value + 1 → index + 1 */
  GPtrArray *names;
} Reasons;

/**
 * cs_vcpu_timeline_free:
 * @self: (transfer full) (nullable): a timeline
 */
void
cs_vcpu_timeline_free (CsVcpuTimeline *self)
{
  if (self == NULL)
    return;
  for (guint t = 0; t < self->n_threads; t++)
    {
      g_clear_pointer (&self->threads[t].events, g_array_unref);
      g_clear_pointer (&self->threads[t].blocks, g_array_unref);
    }
  g_free (self->threads);
  g_clear_pointer (&self->reasons, g_ptr_array_unref);
  g_free (self);
}

/* The reason's name as the event prints it: the word after "reason " in
 * the kvm_exit line (arch/x86/kvm/trace.h prints "reason %s ..." with
 * __print_symbolic() of VMX or SVM exit codes); the number when the
 * format has no name for it.  Printed once per distinct value. */
static gint16
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
      return (gint16) (GPOINTER_TO_INT (found) - 1);
    }
  if (reasons->names->len >= G_MAXINT16)
    {
      trace_seq_destroy (&seq);
      return -1;
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
  return (gint16) (reasons->names->len - 1);
}

/* The watched thread of @pid, or -1. */
static gint
thread_of (GHashTable *by_tid, int pid)
{
  gpointer found = g_hash_table_lookup (by_tid, GINT_TO_POINTER (pid));

  return found != NULL ? GPOINTER_TO_INT (found) - 1 : -1;
}

typedef struct {
  GHashTable *by_tid;          /* tid → thread index + 1 */
  Reasons reasons;
  GArray *marks;               /* Mark */
  guint64 seq;
  gboolean any_record;
  gboolean has_sched;
  gint64 first_ns;
  gint64 last_ns;
} Collect;

static void
add_mark (Collect *c, gint64 ts_ns, gint thread, CsVcpuEventKind kind, gint16 reason)
{
  Mark m = { ts_ns, c->seq++, (guint) thread, reason, (guint8) kind };

  if (thread >= 0)
    g_array_append_val (c->marks, m);
}

static gboolean
collect_cpu (CsTracedatReader *host, guint cpu, Collect *c, GCancellable *cancellable,
             GError **error)
{
  g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (host, cpu, error);
  struct tep_handle *tep;
  struct tep_event *entry, *exit_event, *sw;
  struct tep_format_field *prev_pid = NULL, *next_pid = NULL;
  CsTracedatRecord rec;
  GError *local = NULL;
  guint64 n = 0;

  if (stream == NULL || (tep = cs_tracedat_cpu_get_tep (stream, error)) == NULL)
    return FALSE;
  entry = tep_find_event_by_name (tep, "kvm", "kvm_entry");
  exit_event = tep_find_event_by_name (tep, "kvm", "kvm_exit");
  sw = tep_find_event_by_name (tep, "sched", "sched_switch");
  if (sw != NULL)
    {
      prev_pid = tep_find_field (sw, "prev_pid");
      next_pid = tep_find_field (sw, "next_pid");
      if (prev_pid == NULL || next_pid == NULL)
        sw = NULL;
    }
  while (cs_tracedat_cpu_next (stream, &rec, &local))
    {
      int type = tep_data_type (tep, rec.tep_record);

      if ((++n & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      c->first_ns = c->any_record ? MIN (c->first_ns, rec.ts_ns) : rec.ts_ns;
      c->last_ns = c->any_record ? MAX (c->last_ns, rec.ts_ns) : rec.ts_ns;
      c->any_record = TRUE;
      if (entry != NULL && type == entry->id)
        add_mark (c, rec.ts_ns, thread_of (c->by_tid, tep_data_pid (tep, rec.tep_record)),
                  CS_VCPU_EVENT_ENTRY, -1);
      else if (exit_event != NULL && type == exit_event->id)
        {
          gint t = thread_of (c->by_tid, tep_data_pid (tep, rec.tep_record));

          if (t >= 0)
            add_mark (c, rec.ts_ns, t, CS_VCPU_EVENT_EXIT,
                      reason_index (&c->reasons, tep, exit_event, rec.tep_record));
        }
      else if (sw != NULL && type == sw->id)
        {
          unsigned long long prev = 0, next = 0;

          c->has_sched = TRUE;
          tep_read_number_field (prev_pid, rec.tep_record->data, &prev);
          tep_read_number_field (next_pid, rec.tep_record->data, &next);
          add_mark (c, rec.ts_ns, thread_of (c->by_tid, (int) prev), CS_VCPU_EVENT_SWITCH_OUT, -1);
          add_mark (c, rec.ts_ns, thread_of (c->by_tid, (int) next), CS_VCPU_EVENT_SWITCH_IN, -1);
        }
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* At one time, a thread's events in the order they must have happened:
 * out of the guest, off the CPU, on another, into the guest. */
static int
kind_rank (guint8 kind)
{
  static const int rank[] = { 3, 0, 1, 2 };   /* ENTRY, EXIT, SWITCH_OUT, SWITCH_IN */

  return rank[kind];
}

static int
compare_marks (gconstpointer a, gconstpointer b)
{
  const Mark *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  if (x->kind != y->kind)
    return kind_rank (x->kind) - kind_rank (y->kind);
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* kvm: 0 unknown, 1 in the guest, 2 out; cpu: 0 unknown, 1 running, 2 not. */
static CsVcpuState
combine (int kvm, int cpu)
{
  if (cpu == 2)
    return CS_VCPU_STATE_NOT_RUNNING;
  return kvm == 1 ? CS_VCPU_STATE_IN_GUEST : kvm == 2 ? CS_VCPU_STATE_EXIT
                                                      : CS_VCPU_STATE_UNKNOWN;
}

/* End of interval @i of @t (the one its event @i starts). */
static inline gint64
interval_end (const CsVcpuTimeline *self, const Thread *t, gsize i)
{
  return i + 1 < t->events->len ? g_array_index (t->events, CsVcpuEvent, i + 1).ts_ns
                                : self->last_ns;
}

static void
add_time (gint64 *tally, gint64 *state_ns, const CsVcpuEvent *e, gint64 ns)
{
  state_ns[e->state] += ns;
  if (e->state == CS_VCPU_STATE_EXIT && e->reason >= 0)
    tally[e->reason] += ns;
}

/* The blocks: state times before each, and each one's top reason. */
static void
build_blocks (CsVcpuTimeline *self, Thread *t)
{
  gsize n = t->events->len;
  g_autofree gint64 *tally = g_new0 (gint64, self->reasons->len + 1);
  Block cur = { { 0 }, 0, -1 };

  t->blocks = g_array_new (FALSE, TRUE, sizeof (Block));
  for (gsize i = 0; i < n; i++)
    {
      const CsVcpuEvent *e = &g_array_index (t->events, CsVcpuEvent, i);

      if (i % BLOCK == 0)
        {
          if (i > 0)
            {
              for (guint r = 0; r < self->reasons->len; r++)
                if (tally[r] > cur.top_ns)
                  cur.top_ns = tally[r], cur.top_reason = (gint32) r;
              g_array_index (t->blocks, Block, t->blocks->len - 1).top_ns = cur.top_ns;
              g_array_index (t->blocks, Block, t->blocks->len - 1).top_reason = cur.top_reason;
            }
          memset (tally, 0, sizeof (gint64) * self->reasons->len);
          cur.top_ns = 0;
          cur.top_reason = -1;
          g_array_append_val (t->blocks, cur);
        }
      add_time (tally, cur.before_ns, e, interval_end (self, t, i) - e->ts_ns);
    }
  if (n > 0)
    {
      Block *last = &g_array_index (t->blocks, Block, t->blocks->len - 1);

      for (guint r = 0; r < self->reasons->len; r++)
        if (tally[r] > last->top_ns)
          last->top_ns = tally[r], last->top_reason = (gint32) r;
    }
  /* The totals after the last block. */
  cur.top_ns = 0;
  cur.top_reason = -1;
  g_array_append_val (t->blocks, cur);
}

/* One thread's sorted marks into its events and initial state. */
static void
build_thread (CsVcpuTimeline *self, Thread *t, const Mark *m, guint n)
{
  int kvm = 0, cpu = self->has_sched ? 1 : 0;
  gint reason = -1;
  gboolean kvm_seen = FALSE, sched_seen = FALSE;

  /* Before the first events: what the first kvm and sched events imply. */
  for (guint i = 0; i < n && !(kvm_seen && sched_seen); i++)
    {
      if (!kvm_seen && (m[i].kind == CS_VCPU_EVENT_ENTRY || m[i].kind == CS_VCPU_EVENT_EXIT))
        {
          kvm = m[i].kind == CS_VCPU_EVENT_EXIT ? 1 : 2;
          kvm_seen = TRUE;
        }
      if (!sched_seen && (m[i].kind == CS_VCPU_EVENT_SWITCH_OUT || m[i].kind == CS_VCPU_EVENT_SWITCH_IN))
        {
          cpu = m[i].kind == CS_VCPU_EVENT_SWITCH_OUT ? 1 : 2;
          sched_seen = TRUE;
        }
    }
  t->initial_state = combine (kvm, cpu);
  t->initial_reason = -1;
  t->events = g_array_sized_new (FALSE, FALSE, sizeof (CsVcpuEvent), n);
  for (guint i = 0; i < n; i++)
    {
      CsVcpuEvent e = { m[i].ts_ns, -1, m[i].kind, 0 };

      switch (m[i].kind)
        {
        case CS_VCPU_EVENT_ENTRY:
          kvm = 1;
          cpu = self->has_sched ? 1 : cpu;
          break;
        case CS_VCPU_EVENT_EXIT:
          kvm = 2;
          reason = m[i].reason;
          cpu = self->has_sched ? 1 : cpu;
          break;
        case CS_VCPU_EVENT_SWITCH_OUT:
          cpu = 2;
          break;
        default:
          cpu = 1;
          break;
        }
      e.reason = (gint16) reason;
      e.state = (guint8) combine (kvm, cpu);
      g_array_append_val (t->events, e);
    }
  build_blocks (self, t);
}

/**
 * cs_vcpu_timeline_new:
 * @host: a host recording
 * @tids: (array length=n_tids): the vCPU threads (host task pids), for
 *   instance from cs_time_relation_get_vcpu_tid()
 * @n_tids: how many
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads every record of @host once and keeps, for each thread of @tids,
 * its kvm:kvm_entry, kvm:kvm_exit and sched:sched_switch events (as prev
 * or next task) in time order over all CPUs.  Events of one thread at the
 * same nanosecond are ordered exit, switch out, switch in, entry.  Before
 * a thread's first event its state is what that event implies (a kvm_exit
 * first: it was in the guest; a switch-in first: it was not running).
 * Without any sched_switch in @host, whether a thread runs is unknown and
 * #CS_VCPU_STATE_NOT_RUNNING never appears (cs_vcpu_timeline_has_sched()).
 *
 * Linear in the records of @host; memory in the events of @tids (see the
 * file's comment).  Any thread.
 *
 * Errors: those of cs_tracedat_cpu_next() (%CS_INDEX_ERROR);
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the timeline, %NULL on error
 */
CsVcpuTimeline *
cs_vcpu_timeline_new (CsTracedatReader  *host,
                      const gint32      *tids,
                      guint              n_tids,
                      GCancellable      *cancellable,
                      GError           **error)
{
  g_autoptr(CsVcpuTimeline) self = NULL;
  g_autoptr(GHashTable) by_tid = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) by_value = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  Collect c = { by_tid, { by_value, NULL }, marks, 0, FALSE, FALSE, 0, 0 };
  guint start = 0;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (host), NULL);
  g_return_val_if_fail (tids != NULL || n_tids == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (CsVcpuTimeline, 1);
  self->reasons = g_ptr_array_new_with_free_func (g_free);
  c.reasons.names = self->reasons;
  for (guint t = 0; t < n_tids; t++)
    if (!g_hash_table_contains (by_tid, GINT_TO_POINTER (tids[t])))
      g_hash_table_insert (by_tid, GINT_TO_POINTER (tids[t]), GUINT_TO_POINTER (t + 1));

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (host); cpu++)
    if (cs_tracedat_reader_get_cpu_data_size (host, cpu) > 0 &&
        !collect_cpu (host, cpu, &c, cancellable, error))
      return NULL;
  g_array_sort (marks, compare_marks);

  self->first_ns = c.first_ns;
  self->last_ns = c.last_ns;
  self->has_sched = c.has_sched;
  self->n_threads = n_tids;
  self->threads = g_new0 (Thread, MAX (n_tids, 1));
  for (guint t = 0; t < n_tids; t++)
    {
      guint end = start;

      while (end < marks->len && g_array_index (marks, Mark, end).thread == t)
        end++;
      self->threads[t].tid = tids[t];
      build_thread (self, &self->threads[t],
                    marks->len > 0 ? &g_array_index (marks, Mark, start) : NULL, end - start);
      start = end;
    }
  return g_steal_pointer (&self);
}

/**
 * cs_vcpu_timeline_new_for_guest:
 * @host: the host recording of @relation
 * @relation: a guest related to @host (cs_time_relation_new())
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * cs_vcpu_timeline_new() for every vCPU of the guest, in vCPU order:
 * thread v is vCPU v (its TIME_SHIFT option's vCPU count), with the host
 * thread the host's GUEST option names for it, or -1 (no events, state
 * unknown throughout) when it names none.  What a guest vCPU plot draws
 * (cs_vcpu_plot_paint() with thread = the vCPU); a guest time converts
 * to the timeline's with cs_time_relation_guest_to_host().
 *
 * Errors: those of cs_vcpu_timeline_new().
 *
 * Returns: (transfer full) (nullable): the timeline, %NULL on error
 */
CsVcpuTimeline *
cs_vcpu_timeline_new_for_guest (CsTracedatReader  *host,
                                CsTimeRelation    *relation,
                                GCancellable      *cancellable,
                                GError           **error)
{
  const CsTimeShift *shift;
  g_autofree gint32 *tids = NULL;

  g_return_val_if_fail (CS_IS_TRACEDAT_READER (host), NULL);
  g_return_val_if_fail (relation != NULL, NULL);
  shift = cs_time_relation_get_time_shift (relation);
  tids = g_new0 (gint32, MAX (shift->n_vcpus, 1));
  for (guint v = 0; v < shift->n_vcpus; v++)
    tids[v] = cs_time_relation_get_vcpu_tid (relation, v);
  return cs_vcpu_timeline_new (host, tids, shift->n_vcpus, cancellable, error);
}

/**
 * cs_vcpu_timeline_get_n_threads:
 * @self: a timeline
 *
 * Returns: the number of threads, as given to cs_vcpu_timeline_new()
 */
guint
cs_vcpu_timeline_get_n_threads (CsVcpuTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_threads;
}

/**
 * cs_vcpu_timeline_get_tid:
 * @self: a timeline
 * @thread: a thread index, < cs_vcpu_timeline_get_n_threads()
 *
 * Returns: its host task pid
 */
gint32
cs_vcpu_timeline_get_tid (CsVcpuTimeline *self,
                          guint           thread)
{
  g_return_val_if_fail (self != NULL && thread < self->n_threads, -1);
  return self->threads[thread].tid;
}

/**
 * cs_vcpu_timeline_has_sched:
 * @self: a timeline
 *
 * Returns: whether the host recorded sched_switch events, so that
 *   %CS_VCPU_STATE_NOT_RUNNING can be told from %CS_VCPU_STATE_EXIT
 */
gboolean
cs_vcpu_timeline_has_sched (CsVcpuTimeline *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_sched;
}

/**
 * cs_vcpu_timeline_get_span:
 * @self: a timeline
 * @first_ns: (out) (optional): the host's first record time, ns
 * @last_ns: (out) (optional): its last; intervals end there
 *
 * The span the timeline covers: the host recording's, whatever thread.
 */
void
cs_vcpu_timeline_get_span (CsVcpuTimeline *self,
                           gint64         *first_ns,
                           gint64         *last_ns)
{
  g_return_if_fail (self != NULL);
  if (first_ns != NULL)
    *first_ns = self->first_ns;
  if (last_ns != NULL)
    *last_ns = self->last_ns;
}

/**
 * cs_vcpu_timeline_get_n_reasons:
 * @self: a timeline
 *
 * Returns: the number of distinct exit reasons seen (indexes 0 to this
 *   minus one)
 */
guint
cs_vcpu_timeline_get_n_reasons (CsVcpuTimeline *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->reasons->len;
}

/**
 * cs_vcpu_timeline_get_reason_name:
 * @self: a timeline
 * @reason: a reason index, or -1
 *
 * Returns: (nullable): the exit reason as the host's kvm_exit event prints
 *   it ("HLT", "EPT_VIOLATION", ...), %NULL for -1 or an unknown index
 */
const char *
cs_vcpu_timeline_get_reason_name (CsVcpuTimeline *self,
                                  gint            reason)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (reason < 0 || (guint) reason >= self->reasons->len)
    return NULL;
  return g_ptr_array_index (self->reasons, reason);
}

/**
 * cs_vcpu_timeline_get_events:
 * @self: a timeline
 * @thread: a thread index
 * @n_events: (out): how many
 *
 * Returns: (transfer none) (array length=n_events): the thread's events in
 *   time order, each with the state it starts
 */
const CsVcpuEvent *
cs_vcpu_timeline_get_events (CsVcpuTimeline *self,
                             guint           thread,
                             gsize          *n_events)
{
  g_return_val_if_fail (self != NULL && thread < self->n_threads, NULL);
  g_return_val_if_fail (n_events != NULL, NULL);
  *n_events = self->threads[thread].events->len;
  return (const CsVcpuEvent *) self->threads[thread].events->data;
}

/* How many of @t's events are at or before @ts_ns. */
static gsize
n_events_up_to (const Thread *t, gint64 ts_ns)
{
  gsize lo = 0, hi = t->events->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (g_array_index (t->events, CsVcpuEvent, mid).ts_ns <= ts_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * cs_vcpu_timeline_state_at:
 * @self: a timeline
 * @thread: a thread index
 * @ts_ns: a time, ns of the host's clock
 * @reason: (out) (optional): the exit reason that goes with the state
 *   (see #CsVcpuInterval.reason), -1 with none
 *
 * What @thread did at @ts_ns: the state of its last event at or before
 * it.  O(log n).
 *
 * Returns: the state; %CS_VCPU_STATE_UNKNOWN outside the host's span
 */
CsVcpuState
cs_vcpu_timeline_state_at (CsVcpuTimeline *self,
                           guint           thread,
                           gint64          ts_ns,
                           gint           *reason)
{
  const Thread *t;
  gsize i;

  g_return_val_if_fail (self != NULL && thread < self->n_threads, CS_VCPU_STATE_UNKNOWN);
  t = &self->threads[thread];
  if (reason != NULL)
    *reason = -1;
  if (ts_ns < self->first_ns || ts_ns > self->last_ns)
    return CS_VCPU_STATE_UNKNOWN;
  i = n_events_up_to (t, ts_ns);
  if (i == 0)
    {
      if (reason != NULL)
        *reason = t->initial_reason;
      return t->initial_state;
    }
  if (reason != NULL)
    *reason = g_array_index (t->events, CsVcpuEvent, i - 1).reason;
  return g_array_index (t->events, CsVcpuEvent, i - 1).state;
}

/* Interval @i of @t: -1 the lead-in before its first event. */
static void
get_interval (const CsVcpuTimeline *self, const Thread *t, gssize i, CsVcpuInterval *iv)
{
  if (i < 0)
    {
      iv->begin_ns = self->first_ns;
      iv->end_ns = t->events->len > 0 ? g_array_index (t->events, CsVcpuEvent, 0).ts_ns
                                      : self->last_ns;
      iv->state = t->initial_state;
      iv->reason = t->initial_reason;
      return;
    }
  iv->begin_ns = g_array_index (t->events, CsVcpuEvent, i).ts_ns;
  iv->end_ns = interval_end (self, t, (gsize) i);
  iv->state = g_array_index (t->events, CsVcpuEvent, i).state;
  iv->reason = g_array_index (t->events, CsVcpuEvent, i).reason;
}

/**
 * cs_vcpu_timeline_get_intervals:
 * @self: a timeline
 * @thread: a thread index
 * @begin_ns: start of the range, ns of the host's clock
 * @end_ns: its end (exclusive)
 * @intervals: (element-type CsVcpuInterval): where to append
 *
 * Appends @thread's intervals that overlap [@begin_ns, @end_ns) and the
 * host's span, clipped to both, in time order; neighbours with the same
 * state and reason are merged, empty ones left out.  O(log n) plus the
 * intervals appended.
 *
 * Returns: how many were appended
 */
gsize
cs_vcpu_timeline_get_intervals (CsVcpuTimeline *self,
                                guint           thread,
                                gint64          begin_ns,
                                gint64          end_ns,
                                GArray         *intervals)
{
  const Thread *t;
  gsize before;
  gssize i;

  g_return_val_if_fail (self != NULL && thread < self->n_threads, 0);
  g_return_val_if_fail (intervals != NULL, 0);
  t = &self->threads[thread];
  before = intervals->len;
  begin_ns = MAX (begin_ns, self->first_ns);
  end_ns = MIN (end_ns, self->last_ns);
  for (i = (gssize) n_events_up_to (t, begin_ns) - 1; i < (gssize) t->events->len; i++)
    {
      CsVcpuInterval iv;
      CsVcpuInterval *prev;

      get_interval (self, t, i, &iv);
      if (iv.begin_ns >= end_ns)
        break;
      iv.begin_ns = MAX (iv.begin_ns, begin_ns);
      iv.end_ns = MIN (iv.end_ns, end_ns);
      if (iv.end_ns <= iv.begin_ns)
        continue;
      prev = intervals->len > before ? &g_array_index (intervals, CsVcpuInterval, intervals->len - 1)
                                     : NULL;
      if (prev != NULL && prev->state == iv.state && prev->reason == iv.reason &&
          prev->end_ns == iv.begin_ns)
        prev->end_ns = iv.end_ns;
      else
        g_array_append_val (intervals, iv);
    }
  return intervals->len - before;
}

/* The reason with the most time in @tally among @touched (then cleared). */
static gint
top_reason (gint64 *tally, GArray *touched)
{
  gint best = -1;

  for (guint k = 0; k < touched->len; k++)
    {
      gint r = g_array_index (touched, gint, k);

      if (tally[r] > 0 && (best < 0 || tally[r] > tally[best]))
        best = r;
    }
  for (guint k = 0; k < touched->len; k++)
    tally[g_array_index (touched, gint, k)] = 0;
  g_array_set_size (touched, 0);
  return best;
}

static void
tally_add (gint64 *tally, GArray *touched, gint reason, gint64 ns)
{
  if (reason < 0 || ns <= 0)
    return;
  if (tally[reason] == 0)
    g_array_append_val (touched, reason);
  tally[reason] += ns;
}

/**
 * cs_vcpu_timeline_summarize:
 * @self: a timeline
 * @thread: a thread index
 * @begin_ns: start of the range, ns of the host's clock
 * @end_ns: its end (exclusive), > @begin_ns
 * @n_bins: how many equal bins to cut it into (one per pixel column, say)
 * @bins: (array length=n_bins) (out caller-allocates): the bins; bin b
 *   covers [begin + (end - begin) × b / n_bins, the same for b + 1)
 *
 * Per bin, the time of @thread in each state and the exit reason with the
 * most time out of the guest (see #CsVcpuBin).  Time outside the host's
 * span counts in no state.  Cost: O(n_bins × log n) plus the thread's
 * events in the range divided by 64 (whole blocks of events inside a bin
 * are added from their summaries), so drawing costs the same at every
 * zoom.
 */
void
cs_vcpu_timeline_summarize (CsVcpuTimeline *self,
                            guint           thread,
                            gint64          begin_ns,
                            gint64          end_ns,
                            guint           n_bins,
                            CsVcpuBin      *bins)
{
  const Thread *t;
  g_autofree gint64 *tally = NULL;
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (gint));
  gssize i;

  g_return_if_fail (self != NULL && thread < self->n_threads);
  g_return_if_fail (bins != NULL || n_bins == 0);
  g_return_if_fail (end_ns > begin_ns);
  t = &self->threads[thread];
  tally = g_new0 (gint64, self->reasons->len + 1);
  memset (bins, 0, sizeof (CsVcpuBin) * n_bins);
  i = (gssize) n_events_up_to (t, MAX (begin_ns, self->first_ns)) - 1;

  for (guint b = 0; b < n_bins; b++)
    {
      CsVcpuBin *bin = &bins[b];
      gint64 bb = begin_ns + (gint64) (((__int128) (end_ns - begin_ns) * b) / n_bins);
      gint64 be = begin_ns + (gint64) (((__int128) (end_ns - begin_ns) * (b + 1)) / n_bins);

      bb = MAX (bb, self->first_ns);
      be = MIN (be, self->last_ns);
      while (bb < be && i < (gssize) t->events->len)
        {
          CsVcpuInterval iv;
          gint64 lo, hi;

          /* A whole block inside the bin: its summary. */
          if (i >= 0 && i % BLOCK == 0 &&
              g_array_index (t->events, CsVcpuEvent, i).ts_ns >= bb &&
              (gsize) i + BLOCK <= t->events->len &&
              interval_end (self, t, (gsize) i + BLOCK - 1) <= be)
            {
              const Block *k = &g_array_index (t->blocks, Block, i / BLOCK);
              const Block *k1 = k + 1;

              for (guint s = 0; s < CS_VCPU_N_STATES; s++)
                bin->state_ns[s] += k1->before_ns[s] - k->before_ns[s];
              tally_add (tally, touched, k->top_reason, k->top_ns);
              i += BLOCK;
              continue;
            }
          get_interval (self, t, i, &iv);
          lo = MAX (iv.begin_ns, bb);
          hi = MIN (iv.end_ns, be);
          if (hi > lo)
            {
              bin->state_ns[iv.state] += hi - lo;
              if (iv.state == CS_VCPU_STATE_EXIT)
                tally_add (tally, touched, iv.reason, hi - lo);
            }
          if (iv.end_ns > be)
            break;
          i++;
        }
      bin->reason = top_reason (tally, touched);
    }
}
