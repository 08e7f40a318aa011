/* test-vcpu-timeline.c: the host's view of a guest vCPU over time
 * (index/tracedat/cs-vcpu-timeline.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * On the real KVM pair of ../shared/testdata/kvm: every guest event,
 * converted to the host's clock by the guest's TIME_SHIFT option, falls in
 * an "in the guest" interval of its vCPU's host thread, within the error
 * the option implies; the intervals agree with cs_kvm_activity_measure()
 * and the drawing summaries with the intervals.  The host of that pair
 * recorded no sched_switch, so "not running" is checked on
 * tests/data/sched-prio-migrate-v7.dat against the task's own sched_switch
 * events, read here independently.
 */
#include "config.h"

#include <string.h>

#include <event-parse.h>

#include "index-test-util.h"
#include "cs-kvm-activity.h"
#include "cs-tracedat-clock.h"
#include "cs-vcpu-timeline.h"

/* The error, in ns of the host's clock, that the TIME_SHIFT option of
 * @shift implies for @vcpu, as trace-cmd computes a guest time: between
 * two samples it adds the earlier one's offset (or, with the interpolate
 * flag, the straight line between both, rounded to a tick), so a guest
 * moment is placed at most the largest change of offset between
 * neighbouring samples away from where either sample puts it, plus one
 * tick of rounding; TSC2NSEC's floor adds at most 1 ns. */
static gint64
implied_error_ns (CsTracedatReader *guest, const CsTimeShift *shift, guint vcpu)
{
  guint64 ticks = 1;

  for (guint i = 1; i < shift->n_samples[vcpu]; i++)
    {
      gint64 d = shift->samples[vcpu][i].offset - shift->samples[vcpu][i - 1].offset;

      ticks = MAX (ticks, (guint64) ABS (d) + 1);
    }
  return (gint64) (cs_tracedat_reader_ticks_to_ns (guest, ticks) -
                   (guint64) cs_tracedat_reader_get_ts_offset (guest)) + 1;
}

/* Calls @fn on every record of @reader, CPU by CPU. */
static void
each_record (CsTracedatReader *reader, void (*fn) (const CsTracedatRecord *rec, gpointer data),
             gpointer data)
{
  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      g_autoptr(GError) error = NULL;
      CsTracedatRecord rec;

      if (cs_tracedat_reader_get_cpu_data_size (reader, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (reader, cpu, &error);
      g_assert_no_error (error);
      while (cs_tracedat_cpu_next (stream, &rec, &error))
        fn (&rec, data);
      g_assert_no_error (error);
    }
}

/* Whether the thread was in the guest within @tol of @ns. */
static gboolean
in_guest_near (CsVcpuTimeline *tl, gint64 ns, gint64 tol)
{
  g_autoptr(GArray) ivs = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));

  cs_vcpu_timeline_get_intervals (tl, 0, ns - tol, ns + tol + 1, ivs);
  for (guint i = 0; i < ivs->len; i++)
    if (g_array_index (ivs, CsVcpuInterval, i).state == CS_VCPU_STATE_IN_GUEST)
      return TRUE;
  return FALSE;
}

/* The pair, its relation and the timeline of vCPU 0's host thread; NULL
 * (the test skipped) without ../shared. */
static CsVcpuTimeline *
open_pair (CsTracedatReader **host, CsTracedatReader **guest, CsTimeRelation **rel)
{
  g_autoptr(GError) error = NULL;
  CsVcpuTimeline *tl;
  gint32 tid;

  if (!cs_test_open_kvm_pair (host, guest))
    return NULL;
  *rel = cs_time_relation_new (*host, *guest, &error);
  g_assert_no_error (error);
  tid = cs_time_relation_get_vcpu_tid (*rel, 0);
  g_assert_cmpint (tid, >, 0);
  /* thread v is vCPU v */
  tl = cs_vcpu_timeline_new_for_guest (*host, *rel, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_vcpu_timeline_get_n_threads (tl), ==,
                    cs_time_relation_get_time_shift (*rel)->n_vcpus);
  g_assert_cmpint (cs_vcpu_timeline_get_tid (tl, 0), ==, tid);
  return tl;
}

typedef struct {
  CsTimeRelation *rel;
  CsVcpuTimeline *tl;
  const CsKvmVcpuActivity *act;
  gint64 tol;
  guint64 n, n_inside, n_outside, n_moved;
} GuestCheck;

static void
check_guest_event (const CsTracedatRecord *rec, gpointer data)
{
  GuestCheck *c = data;
  gint64 ns;

  g_assert_true (cs_time_relation_guest_to_host (c->rel, rec->cpu, rec->raw_ts, &ns));
  c->n++;
  if (ns < c->act->first_ns || ns > c->act->last_ns)
    return;
  if (in_guest_near (c->tl, ns, c->tol))
    c->n_inside++;
  else
    c->n_outside++;
  if (cs_vcpu_timeline_state_at (c->tl, 0, ns + 100000, NULL) == CS_VCPU_STATE_IN_GUEST)
    c->n_moved++;
}

static void
test_pair (void)
{
  GuestCheck check = { 0 };
  g_autoptr(CsTracedatReader) host = NULL;
  g_autoptr(CsTracedatReader) guest = NULL;
  g_autoptr(CsTimeRelation) rel = NULL;
  g_autoptr(CsVcpuTimeline) tl = open_pair (&host, &guest, &rel);
  g_autoptr(GPtrArray) acts = NULL;
  g_autoptr(GArray) ivs = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  g_autoptr(GError) error = NULL;
  const CsKvmVcpuActivity *act;
  const CsTimeShift *shift;
  gint64 in_guest = 0, prev_end;
  gint32 tid;

  if (tl == NULL)
    return;
  tid = cs_vcpu_timeline_get_tid (tl, 0);
  g_assert_false (cs_vcpu_timeline_has_sched (tl));
  acts = cs_kvm_activity_measure (host, &tid, 1, &error);
  g_assert_no_error (error);
  act = g_ptr_array_index (acts, 0);
  g_assert_cmpint (act->not_running_ns, ==, -1);

  /* The intervals over the thread's kvm span agree with the activity. */
  cs_vcpu_timeline_get_intervals (tl, 0, act->first_ns, act->last_ns, ivs);
  prev_end = act->first_ns;
  for (guint i = 0; i < ivs->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (ivs, CsVcpuInterval, i);

      g_assert_cmpint (iv->begin_ns, ==, prev_end);
      g_assert_cmpint (iv->end_ns, >, iv->begin_ns);
      prev_end = iv->end_ns;
      g_assert_cmpint (iv->state, !=, CS_VCPU_STATE_NOT_RUNNING);
      g_assert_cmpint (iv->state, !=, CS_VCPU_STATE_UNKNOWN);
      if (iv->state == CS_VCPU_STATE_IN_GUEST)
        in_guest += iv->end_ns - iv->begin_ns;
    }
  g_assert_cmpint (prev_end, ==, act->last_ns);
  g_assert_cmpint (in_guest, ==, act->in_guest_ns);
  for (guint r = 0; r < act->reasons->len; r++)
    {
      const CsKvmExitReason *reason = g_ptr_array_index (act->reasons, r);
      gint64 out = 0;

      for (guint i = 0; i < ivs->len; i++)
        {
          const CsVcpuInterval *iv = &g_array_index (ivs, CsVcpuInterval, i);
          const char *name = cs_vcpu_timeline_get_reason_name (tl, iv->reason);

          if (iv->state == CS_VCPU_STATE_EXIT && g_strcmp0 (name, reason->reason) == 0)
            out += iv->end_ns - iv->begin_ns;
        }
      g_assert_cmpint (out, ==, reason->out_ns);
    }

  /* Every guest event where the host ran its vCPU. */
  shift = cs_time_relation_get_time_shift (rel);
  check.rel = rel;
  check.tl = tl;
  check.tol = implied_error_ns (guest, shift, 0);
  g_test_message ("the TIME_SHIFT option implies an error of %" G_GINT64_FORMAT " ns", check.tol);
  g_assert_cmpint (check.tol, <, 1000);
  check.act = act;
  each_record (guest, check_guest_event, &check);
  g_test_message ("guest events %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " in the guest by "
                  "the host's view, %" G_GUINT64_FORMAT " not; moved by 100 us, %"
                  G_GUINT64_FORMAT " would be", check.n, check.n_inside, check.n_outside,
                  check.n_moved);
  g_assert_cmpuint (check.n, ==, 90029);
  g_assert_cmpuint (check.n_outside, ==, 0);
  g_assert_cmpuint (check.n_inside * 100, >=, check.n * 99);
  /* The check can fail: the same events 100 us later mostly fall out. */
  g_assert_cmpuint (check.n_moved * 2, <, check.n_inside);
}

/* The drawing summaries add up to the intervals, at any bin count. */
static void
test_summaries (void)
{
  g_autoptr(CsTracedatReader) host = NULL;
  g_autoptr(CsTracedatReader) guest = NULL;
  g_autoptr(CsTimeRelation) rel = NULL;
  g_autoptr(CsVcpuTimeline) tl = open_pair (&host, &guest, &rel);
  static const guint n_bins[] = { 1, 7, 1000, 100000 };
  gint64 first, last;

  if (tl == NULL)
    return;
  cs_vcpu_timeline_get_span (tl, &first, &last);

  for (guint k = 0; k < G_N_ELEMENTS (n_bins); k++)
    {
      g_autofree CsVcpuBin *bins = g_new (CsVcpuBin, n_bins[k]);
      /* A range a little wider than the host's, so that edges count. */
      gint64 begin = first - 1000, end = last + 1000;
      gint64 sums[CS_VCPU_N_STATES] = { 0 }, want[CS_VCPU_N_STATES] = { 0 };
      g_autoptr(GArray) ivs = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
      guint n_exact = 0;

      cs_vcpu_timeline_summarize (tl, 0, begin, end, n_bins[k], bins);
      for (guint b = 0; b < n_bins[k]; b++)
        {
          gint64 bb = begin + (gint64) (((__int128) (end - begin) * b) / n_bins[k]);
          gint64 be = begin + (gint64) (((__int128) (end - begin) * (b + 1)) / n_bins[k]);
          gint64 total = 0;
          gint reason = -1;

          for (guint s = 0; s < CS_VCPU_N_STATES; s++)
            {
              g_assert_cmpint (bins[b].state_ns[s], >=, 0);
              sums[s] += bins[b].state_ns[s];
              total += bins[b].state_ns[s];
            }
          g_assert_cmpint (total, <=, be - bb);
          /* A bin inside one exit: its reason is that exit's. */
          if (be - bb > 0 && bins[b].state_ns[CS_VCPU_STATE_EXIT] == be - bb &&
              cs_vcpu_timeline_state_at (tl, 0, bb, &reason) == CS_VCPU_STATE_EXIT)
            {
              g_assert_cmpint (bins[b].reason, ==, reason);
              n_exact++;
            }
          if (bins[b].state_ns[CS_VCPU_STATE_EXIT] == 0)
            g_assert_cmpint (bins[b].reason, ==, -1);
        }
      cs_vcpu_timeline_get_intervals (tl, 0, begin, end, ivs);
      for (guint i = 0; i < ivs->len; i++)
        {
          const CsVcpuInterval *iv = &g_array_index (ivs, CsVcpuInterval, i);
          want[iv->state] += iv->end_ns - iv->begin_ns;
        }
      for (guint s = 0; s < CS_VCPU_N_STATES; s++)
        g_assert_cmpint (sums[s], ==, want[s]);
      g_assert_cmpint (want[CS_VCPU_STATE_IN_GUEST] + want[CS_VCPU_STATE_EXIT] +
                       want[CS_VCPU_STATE_UNKNOWN], ==, last - first);
      g_test_message ("%u bins: %u inside one exit, its reason right", n_bins[k], n_exact);
      if (n_bins[k] >= 1000)
        g_assert_cmpuint (n_exact, >, 0);
    }
}

typedef struct {
  gint64 ts;
  int in;
} Switch;

static int
compare_switch (gconstpointer a, gconstpointer b)
{
  const Switch *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->in - y->in;
}

typedef struct {
  struct tep_handle *tep;
  struct tep_event *sw;
  GHashTable *counts;     /* prev_pid → switches out, while tid < 0 */
  GArray *switches;       /* Switch of tid */
  gint32 tid;
  gint64 first, last;
} SwitchScan;

static void
scan_switch (const CsTracedatRecord *rec, gpointer data)
{
  SwitchScan *c = data;
  unsigned long long prev = 0, next = 0;

  c->first = MIN (c->first, rec->ts_ns);
  c->last = MAX (c->last, rec->ts_ns);
  if (tep_data_type (c->tep, rec->tep_record) != c->sw->id)
    return;
  g_assert_cmpint (tep_get_field_val (NULL, c->sw, "prev_pid", rec->tep_record, &prev, 0), ==, 0);
  g_assert_cmpint (tep_get_field_val (NULL, c->sw, "next_pid", rec->tep_record, &next, 0), ==, 0);
  if (c->tid < 0 && prev != 0)
    {
      gpointer key = GINT_TO_POINTER ((int) prev);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (c->counts, key)) + 1;

      g_hash_table_insert (c->counts, key, GUINT_TO_POINTER (n));
    }
  if (c->tid > 0 && (prev == (unsigned long long) c->tid || next == (unsigned long long) c->tid))
    {
      Switch s = { rec->ts_ns, next == (unsigned long long) c->tid };

      g_array_append_val (c->switches, s);
    }
}

/* "Not running" is the time between a task's switch out and its next
 * switch in, read here from the records' fields. */
static void
test_not_running (void)
{
  g_autofree char *path = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autoptr(CsTracedatReader) reader = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) switches = g_array_new (FALSE, FALSE, sizeof (Switch));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsVcpuTimeline) tl = NULL;
  g_autoptr(CsKvmVcpuActivity) act = NULL;
  g_autoptr(GArray) ivs = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  struct tep_handle *tep;
  struct tep_event *sw;
  GHashTableIter it;
  gpointer key, value;
  SwitchScan sc;
  gint32 tid = -1;
  guint best = 0;
  gint64 first = G_MAXINT64, last = G_MININT64, want = 0, got = 0;

  g_assert_nonnull (path);
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  tep = cs_tracedat_reader_get_tep (reader);
  sw = tep_find_event_by_name (tep, "sched", "sched_switch");
  g_assert_nonnull (sw);

  /* Twice over the records: the busiest task, then its switches. */
  sc.tep = tep;
  sc.sw = sw;
  sc.counts = counts;
  sc.switches = switches;
  sc.first = G_MAXINT64;
  sc.last = G_MININT64;
  sc.tid = -1;
  each_record (reader, scan_switch, &sc);
  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (GPOINTER_TO_UINT (value) > best)
      best = GPOINTER_TO_UINT (value), tid = GPOINTER_TO_INT (key);
  sc.tid = tid;
  each_record (reader, scan_switch, &sc);
  first = sc.first;
  last = sc.last;
  g_assert_cmpint (tid, >, 0);
  g_array_sort (switches, compare_switch);
  g_assert_cmpuint (switches->len, >, 4);
  for (guint i = 0; i < switches->len; i++)
    {
      const Switch *s = &g_array_index (switches, Switch, i);

      if (i == 0 && s->in)
        want += s->ts - first;
      if (!s->in)
        want += (i + 1 < switches->len ? g_array_index (switches, Switch, i + 1).ts : last) - s->ts;
    }

  tl = cs_vcpu_timeline_new (reader, &tid, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (cs_vcpu_timeline_has_sched (tl));
  act = cs_kvm_activity_from_timeline (tl, 0);
  g_test_message ("task %d: %u sched_switch events, %" G_GINT64_FORMAT " ns not running",
                  tid, switches->len, want);
  g_assert_cmpint (act->not_running_ns, ==, want);
  g_assert_cmpuint (act->n_exits, ==, 0);
  cs_vcpu_timeline_get_intervals (tl, 0, first, last, ivs);
  for (guint i = 0; i < ivs->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (ivs, CsVcpuInterval, i);

      if (iv->state == CS_VCPU_STATE_NOT_RUNNING)
        {
          got += iv->end_ns - iv->begin_ns;
          /* each starts at a switch out */
          g_assert_cmpint (cs_vcpu_timeline_state_at (tl, 0, iv->begin_ns, NULL), ==,
                           CS_VCPU_STATE_NOT_RUNNING);
        }
      else
        g_assert_cmpint (iv->state, ==, CS_VCPU_STATE_UNKNOWN);
    }
  g_assert_cmpint (got, ==, want);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/VcpuTimeline/pair", test_pair);
  g_test_add_func ("/cs/index/VcpuTimeline/summaries", test_summaries);
  g_test_add_func ("/cs/index/VcpuTimeline/not-running", test_not_running);
  return g_test_run ();
}
