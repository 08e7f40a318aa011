/* cs-explain-pair.c: the breakdown of one pair and its wakeup chain, read
 * from the index around the pair (cs-explain.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pair's breakdown needs each CPU's state at A: the running task, an
 * interrupt or a section in progress.  A sched_switch is a clean point
 * (no task is switched inside an interrupt or a section), so each CPU is
 * read back from A until its last sched_switch before A (1 ms, doubled
 * up to 4 s), then every CPU from A to B, in time order.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-explain-private.h"
#include "cs-explain-slices.h"
#include "cs-explain-steps.h"
#include "cs-explain-tracker.h"

/* A stay with this many events or more on its CPU is fed from the
 * index's slices (cs-explain-slices.c): reading its records would cost
 * ~10 ms, the slices' few record reads ~1 ms. */
#define SLICES_MIN_EVENTS 20000

#define FIRST_LOOKBACK_NS 1000000
#define MAX_LOOKBACK_NS 4000000000
/* Above this many CPUs, only A's and B's are read back. */
#define MAX_PRIMED_CPUS 16

static const char *const switch_only[] = { "sched:sched_switch", NULL };

typedef struct {
  CsPluginEventFunc func;
  gpointer user_data;
  gint64 listed_ns;             /* when the first event came: the listing's end */
} Timed;

/* A breakdown read: its sections from the latency flags, then its
 * vCPU's time out of the guest (cs-explain-flags.c, cs-explain-vcpu.c),
 * which both cut its slices; they are dropped after unless
 * @with_slices (they may have been kept on some CPUs only: see
 * slice_cpus()). */
static CsExplainBreakdown *
finish (CsPluginDocument   *document,
        CsExplainBreakdown *breakdown,
        gboolean            with_slices,
        GError            **error)
{
  gint64 t0 = _cs_explain_steps_enabled () ? _cs_explain_steps_now () : 0;

  breakdown = cs_explain_add_flag_sections (document, breakdown, error);
  if (t0 != 0)
    _cs_explain_steps_add (CS_EXPLAIN_STEP_READ, t0);
  breakdown = cs_explain_add_vcpu_out (document, breakdown);
  if (breakdown != NULL && !with_slices)
    g_clear_pointer (&breakdown->slices, g_array_unref);
  return breakdown;
}

static gboolean
timed_event (const CsPluginEvent *event,
             gpointer             user_data)
{
  Timed *t = user_data;

  if (t->listed_ns == 0)
    t->listed_ns = _cs_explain_steps_now ();
  return t->func (event, t->user_data);
}

/* cs_plugin_document_foreach_event(), its CPU time added to @step when
 * steps are measured (cs-explain-steps.c); %CS_EXPLAIN_STEP_INDEX is
 * split at the first event: the index's listing, then the records read
 * and fed (%CS_EXPLAIN_STEP_READ). */
static gboolean
read_events (CsPluginDocument  *document,
             gint               cpu,
             gint64             begin_ns,
             gint64             end_ns,
             const char *const *types,
             CsPluginEventFunc  func,
             gpointer           user_data,
             CsExplainStep      step,
             GError           **error)
{
  Timed t = { func, user_data, 0 };
  gint64 t0;
  gboolean ok;

  if (!_cs_explain_steps_enabled ())
    return cs_plugin_document_foreach_event (document, cpu, begin_ns, end_ns, types, func,
                                             user_data, error);
  t0 = _cs_explain_steps_now ();
  ok = cs_plugin_document_foreach_event (document, cpu, begin_ns, end_ns, types, timed_event,
                                         &t, error);
  if (step != CS_EXPLAIN_STEP_INDEX || t.listed_ns == 0)
    _cs_explain_steps_add (step, t0);
  else
    {
      _cs_explain_steps_add_span (CS_EXPLAIN_STEP_INDEX, t0, t.listed_ns);
      _cs_explain_steps_add (CS_EXPLAIN_STEP_READ, t.listed_ns);
    }
  return ok;
}

static gboolean
stop_at_first (const CsPluginEvent *event,
               gpointer             user_data)
{
  *(gboolean *) user_data = TRUE;
  return FALSE;
}

static gboolean
feed_state (const CsPluginEvent *event,
            gpointer             tracker)
{
  return cs_explain_tracker_event (tracker, event);
}

/* Feeds @cpu's state events from its last sched_switch before @a_ns. */
static gboolean
prime_cpu (CsPluginDocument *document,
           CsExplainTracker *tracker,
           guint             cpu,
           gint64            a_ns,
           GError          **error)
{
  gint64 first_ns = cs_plugin_document_get_first_ns (document);
  gint64 back = FIRST_LOOKBACK_NS;

  for (;;)
    {
      gboolean found = FALSE;
      gint64 from = MAX (first_ns, a_ns - back);

      if (!read_events (document, cpu, from, a_ns, switch_only, stop_at_first, &found,
                        CS_EXPLAIN_STEP_PRIME, error))
        return FALSE;
      if (found || from == first_ns || back >= MAX_LOOKBACK_NS)
        return read_events (document, cpu, from, a_ns, cs_explain_state_events, feed_state,
                            tracker, CS_EXPLAIN_STEP_PRIME, error);
      back *= 4;
    }
}

static gboolean
prime (CsPluginDocument *document,
       CsExplainTracker *tracker,
       guint             a_cpu,
       guint             b_cpu,
       gint64            a_ns,
       GError          **error)
{
  guint n_cpus = cs_plugin_document_get_n_cpus (document);

  cs_explain_tracker_set_open_pairs (tracker, FALSE);
  for (guint c = 0; c < n_cpus; c++)
    if ((n_cpus <= MAX_PRIMED_CPUS || c == a_cpu || c == b_cpu) &&
        !prime_cpu (document, tracker, c, a_ns, error))
      return FALSE;
  cs_explain_tracker_set_open_pairs (tracker, TRUE);
  return TRUE;
}

typedef struct {
  CsExplainTracker *tracker;
  gint64 b_ns;
  guint b_cpu;
  CsExplainBreakdown *found;
} PairFeed;

static void
take_pair (const CsExplainBreakdown *b,
           gpointer                  user_data)
{
  PairFeed *feed = user_data;
  /* Freed after the call: its arrays are taken, not copied
   * (CsExplainPairFunc). */
  CsExplainBreakdown *closed = (CsExplainBreakdown *) b;

  if (feed->found != NULL || b->b_ns != feed->b_ns || b->b_cpu != feed->b_cpu)
    return;
  feed->found = g_new0 (CsExplainBreakdown, 1);
  *feed->found = *b;
  closed->contributors = NULL;
  closed->slices = NULL;
}

static gboolean
feed_until_found (const CsPluginEvent *event,
                  gpointer             user_data)
{
  PairFeed *feed = user_data;

  cs_explain_tracker_event (feed->tracker, event);
  return feed->found == NULL;
}

/* A tracker that opens @pid's pairs and hands them to @feed, their
 * slices kept on the CPUs @slice_cpus says (NULL: all). */
static CsExplainTracker *
new_pair_tracker (CsPluginDocument *document,
                  gint32            pid,
                  const gboolean   *slice_cpus,
                  PairFeed         *feed)
{
  CsExplainTracker *tracker =
    cs_explain_tracker_new (cs_plugin_document_get_n_cpus (document), take_pair, feed);

  feed->tracker = tracker;
  cs_explain_tracker_set_only_pid (tracker, pid);
  cs_explain_tracker_set_record_slices (tracker, TRUE);
  cs_explain_tracker_set_slice_cpus (tracker, slice_cpus);
  return tracker;
}

/* A sched_migrate_task of the pair's task: where it was logged (its
 * place in the order a pass reads events) and where it sent the task. */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  guint64 row;
  gint64 dest_cpu;
} Move;

typedef struct {
  gint32 pid;
  GArray *moves;                /* Move */
  gint64 target_cpu;
  guint64 a_row;
} Plan;

static gboolean
note_move (const CsPluginMigration *migration,
           gpointer                 user_data)
{
  Plan *plan = user_data;
  Move move = { migration->ts_ns, migration->cpu, migration->row, migration->dest_cpu };

  if (migration->pid == plan->pid)
    g_array_append_val (plan->moves, move);
  return TRUE;
}

static gint
compare_move_times (gconstpointer a,
                    gconstpointer b)
{
  const Move *x = a, *y = b;

  return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

/* @plan's task's moves over [@begin_ns, @end_ns), from every CPU's
 * migrations in the index (cs_plugin_document_foreach_migration(): a
 * wait of seconds is crossed by hundreds of them, whose event chunks and
 * records cost ~20 ms where these cost well under one). */
static gboolean
read_moves (CsPluginDocument  *document,
            gint64             begin_ns,
            gint64             end_ns,
            Plan              *plan,
            GError           **error)
{
  gboolean timed = _cs_explain_steps_enabled ();
  gint64 t0 = timed ? _cs_explain_steps_now () : 0;

  for (guint cpu = 0; cpu < cs_plugin_document_get_n_cpus (document); cpu++)
    if (!cs_plugin_document_foreach_migration (document, cpu, begin_ns, end_ns, note_move, plan,
                                               error))
      return FALSE;
  /* Gathered by CPU, each in its order: sorted by time alone, stably
   * (g_array_sort()), they are in the order a pass reads them. */
  g_array_sort (plan->moves, compare_move_times);
  if (timed)
    _cs_explain_steps_add (CS_EXPLAIN_STEP_MOVES, t0);
  return TRUE;
}

static gboolean
note_a (const CsPluginEvent *event,
        gpointer             user_data)
{
  Plan *plan = user_data;
  gint64 pid;

  if (!cs_plugin_event_get_int (event, "pid", &pid) || pid != plan->pid)
    return TRUE;
  if (!cs_plugin_event_get_int (event, "target_cpu", &plan->target_cpu))
    plan->target_cpu = event->cpu;
  plan->a_row = event->row;
  return FALSE;
}

/* Where @pid waited from @a_ns to @b_ns, as the tracker follows it (A's
 * target_cpu, then each sched_migrate_task's dest_cpu that moves it):
 * @stays receives the Moves that start a stay on another CPU, in time
 * order.  FALSE (@error unset) when the stays cannot be told apart from
 * the index alone (A not found, a move at B's time or to a CPU the
 * recording lacks, the last CPU not B's): read every CPU then. */
static gboolean
plan_stays (CsPluginDocument *document,
            gint32            pid,
            gint64            a_ns,
            guint             a_cpu,
            gint64            b_ns,
            guint             b_cpu,
            gint64           *first_cpu,
            GArray           *stays,
            GError          **error)
{
  guint n_cpus = cs_plugin_document_get_n_cpus (document);
  g_autoptr(GArray) moves = g_array_new (FALSE, FALSE, sizeof (Move));
  Plan plan = { .pid = pid, .moves = moves, .target_cpu = -1 };
  gint64 cpu;

  if (!read_events (document, a_cpu, a_ns, a_ns + 1, cs_explain_wake_events, note_a, &plan,
                    CS_EXPLAIN_STEP_MOVES, error) ||
      !read_moves (document, a_ns, b_ns + 1, &plan, error))
    return FALSE;
  if (plan.target_cpu < 0 || plan.target_cpu >= n_cpus)
    return FALSE;
  cpu = *first_cpu = plan.target_cpu;
  for (guint i = 0; i < moves->len; i++)
    {
      const Move *m = &g_array_index (moves, Move, i);

      /* Before A in the order events are read: no wait to move yet. */
      if (m->ts_ns == a_ns &&
          (m->cpu < a_cpu || (m->cpu == a_cpu && m->row < plan.a_row)))
        continue;
      if (m->ts_ns == b_ns || m->dest_cpu >= n_cpus)
        return FALSE;
      if (m->dest_cpu < 0 || m->dest_cpu == cpu)
        continue;
      cpu = m->dest_cpu;
      g_array_append_val (stays, *m);
    }
  return cpu == b_cpu;
}

/* The CPUs whose slices a pair's breakdown needs when its caller does
 * not keep them (!@with_slices): those where the latency flags are read
 * (cs_explain_add_flag_sections(), which cuts the slices), or all of
 * them with a KVM host open (cs_explain_add_vcpu_out() cuts them too).
 * The pair waits on @first_cpu from @a_ns, then where @stays move it,
 * until @b_ns; its slices on a CPU span that CPU's stays of some length,
 * which is what the flags rule counts the events of.  The large
 * benchmark recording's worst pair has 1.7 M slices on a CPU too busy
 * for the flags rule: storing them touched 40 MB for nothing, a tenth
 * of its time.  *@cpus: NULL for all, else n_cpus flags (free it). */
static gboolean
slice_cpus (CsPluginDocument  *document,
            gboolean           with_slices,
            gint64             a_ns,
            gint64             b_ns,
            guint              first_cpu,
            GArray            *stays,
            gboolean         **cpus,
            GError           **error)
{
  guint n_cpus = cs_plugin_document_get_n_cpus (document);
  g_autofree gint64 *begin = NULL, *end = NULL;
  g_autofree gboolean *keep = NULL;
  gint64 from = a_ns;
  guint cpu = first_cpu;

  *cpus = NULL;
  if (with_slices || cs_plugin_document_has_vcpu_host (document) || first_cpu >= n_cpus)
    return TRUE;
  begin = g_new (gint64, n_cpus);
  end = g_new (gint64, n_cpus);
  keep = g_new0 (gboolean, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    {
      begin[c] = G_MAXINT64;
      end[c] = G_MININT64;
    }
  for (guint i = 0; i <= stays->len; i++)
    {
      const Move *next = i < stays->len ? &g_array_index (stays, Move, i) : NULL;
      gint64 to = next != NULL ? next->ts_ns : b_ns;

      if (to > from)
        {
          begin[cpu] = MIN (begin[cpu], from);
          end[cpu] = MAX (end[cpu], to);
        }
      if (next == NULL)
        break;
      cpu = (guint) next->dest_cpu;
      from = next->ts_ns;
    }
  for (guint c = 0; c < n_cpus; c++)
    if (begin[c] != G_MAXINT64 &&
        !_cs_explain_flags_may_read (document, c, begin[c], end[c], &keep[c], error))
      return FALSE;
  *cpus = g_steal_pointer (&keep);
  return TRUE;
}

typedef struct {
  PairFeed *feed;
  const Move *move;
} MoveFeed;

static gboolean
feed_move (const CsPluginEvent *event,
           gpointer             user_data)
{
  MoveFeed *mf = user_data;

  if (event->row != mf->move->row)
    return TRUE;
  cs_explain_tracker_event (mf->feed->tracker, event);
  return FALSE;
}

/* Whether a stay is fed from the index's slices: when it is long, or
 * as CHRONOSCOPE_EXPLAIN_SLICES says ("always", "never": the tests
 * compare the two ways). */
static gboolean
use_slices (CsPluginDocument *document,
            guint             cpu,
            gint64            from_ns,
            gint64            to_ns)
{
  const char *env = g_getenv ("CHRONOSCOPE_EXPLAIN_SLICES");
  guint64 n = 0;

  if (env != NULL && strcmp (env, "never") == 0)
    return FALSE;
  if (env != NULL && strcmp (env, "always") == 0)
    return TRUE;
  return cs_plugin_document_count_cpu_events (document, cpu, from_ns, to_ns, &n, NULL) &&
         n >= SLICES_MIN_EVENTS;
}

/* One stay's state events, from the slices or the records; *@abandoned
 * when the slices fed part of it (start the pair again without them). */
static gboolean
feed_stay (CsPluginDocument *document,
           PairFeed         *feed,
           guint             cpu,
           gint64            from,
           gint64            to,
           gboolean          slices,
           gboolean         *abandoned,
           GError          **error)
{
  if (slices && use_slices (document, cpu, from, to))
    {
      gint64 t0 = _cs_explain_steps_enabled () ? _cs_explain_steps_now () : 0;
      CsExplainSlicesResult r =
        _cs_explain_feed_stay_from_slices (document, feed->tracker, cpu, from, to, &feed->found,
                                           error);

      if (t0 != 0)
        _cs_explain_steps_add (CS_EXPLAIN_STEP_READ, t0);
      if (r == CS_EXPLAIN_SLICES_FAILED)
        return FALSE;
      *abandoned = r == CS_EXPLAIN_SLICES_ABANDONED;
      if (r == CS_EXPLAIN_SLICES_FED)
        _cs_explain_steps_count_stay (TRUE);
      if (r != CS_EXPLAIN_SLICES_UNSUITABLE)
        return TRUE;
    }
  _cs_explain_steps_count_stay (FALSE);
  return read_events (document, cpu, from, to, cs_explain_state_events, feed_until_found, feed,
                      CS_EXPLAIN_STEP_INDEX, error);
}

/* Feeds the tracker (open on @pid) the events that decide @pid's
 * breakdown, CPU by CPU as it waited: each stay's CPU is read back to its
 * last sched_switch (only to learn its state), then its state events up
 * to the next move, which is fed alone.  Events of other CPUs, and the
 * wakeups after A (the task is woken already: the rule passes them
 * over), change nothing of the pair, so they are not read.  A long stay's
 * sched_switch events come from the index's slices when @slices
 * (*@abandoned when that had to be given up half way). */
static gboolean
feed_stays (CsPluginDocument *document,
            PairFeed         *feed,
            gint64            a_ns,
            guint             a_cpu,
            gint64            b_ns,
            guint             first_cpu,
            GArray           *stays,
            gboolean          slices,
            gboolean         *abandoned,
            GError          **error)
{
  const char *migrate[] = { "sched:sched_migrate_task", NULL };
  CsExplainTracker *tracker = feed->tracker;
  gint64 from = a_ns;
  guint cpu = first_cpu;

  cs_explain_tracker_set_open_pairs (tracker, FALSE);
  if (!prime_cpu (document, tracker, cpu, a_ns, error))
    return FALSE;
  cs_explain_tracker_set_open_pairs (tracker, TRUE);
  if (!read_events (document, a_cpu, a_ns, a_ns + 1, cs_explain_wake_events, feed_until_found,
                    feed, CS_EXPLAIN_STEP_MOVES, error))
    return FALSE;
  for (guint i = 0; i <= stays->len && feed->found == NULL; i++)
    {
      const Move *next = i < stays->len ? &g_array_index (stays, Move, i) : NULL;
      gint64 to = next != NULL ? next->ts_ns : b_ns + 1;
      MoveFeed mf = { feed, next };

      if (!feed_stay (document, feed, cpu, from, to, slices, abandoned, error))
        return FALSE;
      if (*abandoned)
        return TRUE;
      if (next == NULL || feed->found != NULL)
        break;
      cpu = next->dest_cpu;
      from = next->ts_ns;
      cs_explain_tracker_set_learning (tracker, TRUE);
      if (!prime_cpu (document, tracker, cpu, from, error))
        return FALSE;
      cs_explain_tracker_set_learning (tracker, FALSE);
      if (!read_events (document, next->cpu, next->ts_ns, next->ts_ns + 1, migrate, feed_move,
                        &mf, CS_EXPLAIN_STEP_MOVES, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * cs_explain_wakeup_pair:
 * @document: a recording
 * @pid: the woken task
 * @a_ns: the time of the wakeup that opened the wait (the pair's A by
 *   Chronoscope's wakeup rule, cs-plugin-wakeup.h: the first wakeup of
 *   the sleeping task, a sched_waking, sched_wakeup or sched_wakeup_new)
 * @a_cpu: the CPU that logged the wakeup
 * @b_ns: the time of the sched_switch that ran @pid
 * @b_cpu: its CPU
 * @with_slices: keep the breakdown's slices (#CsExplainBreakdown): a
 *   caller that only shows the sums leaves them out, which saves a long
 *   wait's storing them (slice_cpus(): the large benchmark recording's
 *   worst, 1.7 M slices, 40 MB touched for the first time)
 * @error: %CS_PLUGIN_ERROR_FAILED when the recording cannot be read,
 *   %CS_PLUGIN_ERROR_USAGE when no wakeup of @pid at @a_ns is followed by
 *   a switch to it at @b_ns
 *
 * Breaks down a wakeup latency (a pair of the latency preset `wakeup`):
 * what ran on the CPU @pid was queued on from @a_ns to @b_ns (the
 * wakeup's target_cpu, then each sched_migrate_task's dest_cpu).  It reads
 * the task's moves (sched_migrate_task, rare: the index skips the chunks
 * without any), then for each stay only that CPU's state events (from its
 * last sched_switch before the stay, to learn its state); every CPU's
 * events of the span only when the moves do not say where the task
 * waited (see README.md, "Speed").  Milliseconds; main thread or a pass's
 * callbacks.
 *
 * Returns: (transfer full) (nullable): the breakdown; its contributors'
 *   @ns add up to @b_ns - @a_ns
 */
CsExplainBreakdown *
cs_explain_wakeup_pair (CsPluginDocument *document,
                        gint32            pid,
                        gint64            a_ns,
                        guint             a_cpu,
                        gint64            b_ns,
                        guint             b_cpu,
                        gboolean          with_slices,
                        GError          **error)
{
  PairFeed feed = { .b_ns = b_ns, .b_cpu = b_cpu };
  g_autoptr(CsExplainTracker) tracker = NULL;
  g_autoptr(GPtrArray) types = g_ptr_array_new ();
  g_autoptr(GArray) stays = g_array_new (FALSE, FALSE, sizeof (Move));
  g_autofree gboolean *keep = NULL;
  gint64 first_cpu = -1;

  if (!plan_stays (document, pid, a_ns, a_cpu, b_ns, b_cpu, &first_cpu, stays, error))
    {
      if (error != NULL && *error != NULL)
        return NULL;
      first_cpu = -1;
    }
  if (first_cpu >= 0 &&
      !slice_cpus (document, with_slices, a_ns, b_ns, (guint) first_cpu, stays, &keep, error))
    return NULL;
  for (gboolean slices = TRUE; first_cpu >= 0; slices = FALSE)
    {
      gboolean abandoned = FALSE;

      tracker = new_pair_tracker (document, pid, keep, &feed);
      if (!feed_stays (document, &feed, a_ns, a_cpu, b_ns, first_cpu, stays, slices, &abandoned,
                       error))
        return NULL;
      if (abandoned)
        {
          g_clear_pointer (&feed.found, cs_explain_breakdown_free);
          g_clear_pointer (&tracker, cs_explain_tracker_free);
          continue;
        }
      if (feed.found != NULL)
        return finish (document, feed.found, with_slices, error);
      g_clear_pointer (&tracker, cs_explain_tracker_free);
      break;
    }

  /* Every CPU over A..B, as a pass reads them (the stays unknown: every
   * CPU's slices kept). */
  tracker = new_pair_tracker (document, pid, NULL, &feed);
  for (guint i = 0; cs_explain_state_events[i] != NULL; i++)
    g_ptr_array_add (types, (gpointer) cs_explain_state_events[i]);
  for (guint i = 0; cs_explain_wake_events[i] != NULL; i++)
    g_ptr_array_add (types, (gpointer) cs_explain_wake_events[i]);
  g_ptr_array_add (types, (gpointer) "sched:sched_migrate_task");
  g_ptr_array_add (types, NULL);
  if (!prime (document, tracker, a_cpu, b_cpu, a_ns, error) ||
      !read_events (document, -1, a_ns, b_ns + 1, (const char *const *) types->pdata,
                    feed_until_found, &feed, CS_EXPLAIN_STEP_INDEX, error))
    return NULL;
  if (feed.found == NULL)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                 _("no wakeup of pid %d at %" PRId64 " ns is followed by a "
                   "switch to it at %" PRId64 " ns on CPU %u"),
                 pid, a_ns, b_ns, b_cpu);
  return finish (document, feed.found, with_slices, error);
}

/**
 * cs_explain_span_on_cpu:
 * @document: a recording
 * @pid: the pair's task, for the breakdown's @pid (-1 when none)
 * @a_ns: the pair's A
 * @b_ns: the pair's B, >= @a_ns
 * @cpu: the CPU whose time is broken down (B's CPU)
 * @with_slices: as cs_explain_wakeup_pair()
 * @error: %CS_PLUGIN_ERROR_FAILED when the recording cannot be read
 *
 * Breaks down what @cpu did over [@a_ns, @b_ns), for pairs that are not
 * wakeups (IRQ, softirq, system call, block, custom A → B): who ran,
 * interrupts, softirqs, sections, idle.
 *
 * Returns: (transfer full) (nullable): the breakdown; its contributors'
 *   @ns add up to @b_ns - @a_ns
 */
CsExplainBreakdown *
cs_explain_span_on_cpu (CsPluginDocument *document,
                        gint32            pid,
                        gint64            a_ns,
                        gint64            b_ns,
                        guint             cpu,
                        gboolean          with_slices,
                        GError          **error)
{
  g_autoptr(CsExplainTracker) tracker =
    cs_explain_tracker_new (cs_plugin_document_get_n_cpus (document), NULL, NULL);
  g_autoptr(GArray) no_moves = g_array_new (FALSE, FALSE, sizeof (Move));
  g_autofree gboolean *keep = NULL;

  if (cpu >= cs_plugin_document_get_n_cpus (document))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("the recording has no CPU %u"), cpu);
      return NULL;
    }
  /* One stay, on @cpu from @a_ns to @b_ns. */
  if (!slice_cpus (document, with_slices, a_ns, b_ns, cpu, no_moves, &keep, error) ||
      !prime_cpu (document, tracker, cpu, a_ns, error))
    return NULL;
  cs_explain_tracker_set_record_slices (tracker, TRUE);
  cs_explain_tracker_set_slice_cpus (tracker, keep);
  cs_explain_tracker_open_window (tracker, pid, a_ns, cpu);
  if (!read_events (document, cpu, a_ns, b_ns, cs_explain_state_events, feed_state, tracker,
                    CS_EXPLAIN_STEP_INDEX, error))
    return NULL;
  return finish (document, cs_explain_tracker_close_window (tracker, b_ns), with_slices, error);
}

typedef struct {
  gint32 pid;
  gboolean found;
  CsExplainWaking waking;
} FindWaking;

static gboolean
match_waking (const CsPluginEvent *event,
              gpointer             user_data)
{
  FindWaking *f = user_data;
  gint64 pid, flags = 0;

  if (!cs_plugin_event_get_int (event, "pid", &pid) || pid != f->pid)
    return TRUE;
  cs_plugin_event_get_int (event, "common_flags", &flags);
  f->found = TRUE;
  f->waking.ts_ns = event->ts_ns;
  f->waking.cpu = event->cpu;
  f->waking.waker_pid = event->pid;
  f->waking.flags = flags;
  return FALSE;
}

/**
 * _cs_explain_find_waking:
 * @document: a recording
 * @pid: a woken task
 * @ts_ns: the time of its wakeup (a #CsPluginTaskInterval's wakeup_ns:
 *   the wakeup that opened the wait by the wakeup rule, cs-plugin-wakeup.h)
 * @waking: (out): the wakeup event's CPU, waker and flags
 * @error: %CS_PLUGIN_ERROR_FAILED when the recording cannot be read
 *
 * Looks among every wakeup event (cs_explain_wake_events): the first
 * one of @pid at @ts_ns, in the order a pass reads them.
 *
 * Returns: %TRUE when found; %FALSE with @error unset when no wakeup
 *   of @pid lies at @ts_ns, or with @error set on failure
 */
gboolean
_cs_explain_find_waking (CsPluginDocument *document,
                         gint32            pid,
                         gint64            ts_ns,
                         CsExplainWaking  *waking,
                         GError          **error)
{
  FindWaking f = { .pid = pid };

  if (!cs_plugin_document_foreach_event (document, -1, ts_ns, ts_ns + 1, cs_explain_wake_events,
                                         match_waking, &f, error))
    return FALSE;
  *waking = f.waking;
  return f.found;
}

/* The wakeup pair of @pid whose switch-in came last at or before @ts_ns:
 * [*wake_ns, *run_ns), run on *run_cpu, woken as *waking says.  The pairs
 * are the task timeline's runnable intervals with a wakeup_ns, which
 * follow the wakeup rule (cs-plugin-wakeup.h): no pairing here. */
static gboolean
latest_wakeup_before (CsPluginDocument *document,
                      gint32            pid,
                      gint64            ts_ns,
                      gint64           *wake_ns,
                      gint64           *run_ns,
                      gint32           *run_cpu,
                      CsExplainWaking  *waking,
                      GError          **error)
{
  gint64 first_ns = cs_plugin_document_get_first_ns (document);
  gint64 back = 1000000000;
  gint64 before = ts_ns + 1;

  for (;;)
    {
      g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));
      gint64 from = MAX (first_ns, ts_ns - back);

      if (!cs_plugin_document_get_task_intervals (document, pid, from, before, iv, error))
        return FALSE;
      for (guint i = iv->len; i-- > 0;)
        {
          const CsPluginTaskInterval *x = &g_array_index (iv, CsPluginTaskInterval, i);

          if (x->state != CS_PLUGIN_TASK_RUNNABLE || x->wakeup_ns < 0 || x->end_ns > ts_ns ||
              x->end_ns >= before)
            continue;
          before = x->end_ns;
          if (!_cs_explain_find_waking (document, pid, x->wakeup_ns, waking, error))
            {
              if (error != NULL && *error != NULL)
                return FALSE;
              continue;
            }
          *wake_ns = x->wakeup_ns;
          *run_ns = x->end_ns;
          *run_cpu = i + 1 < iv->len ? g_array_index (iv, CsPluginTaskInterval, i + 1).cpu
                                     : x->cpu;
          return TRUE;
        }
      if (from == first_ns)
        return FALSE;
      back *= 16;
    }
}

#define IRQ_FLAGS 0x58          /* TRACE_FLAG_HARDIRQ | SOFTIRQ | NMI */

/**
 * cs_explain_wakeup_chain:
 * @document: a recording
 * @pid: the woken task of the first link
 * @a_ns: its wakeup's time
 * @a_cpu: the CPU that logged its wakeup
 * @b_ns: the time it was switched in
 * @b_cpu: that switch's CPU
 * @max_depth: how many links at most (the first one included), >= 1
 *   (the default is 8)
 * @with_slices: as cs_explain_wakeup_pair(), for every link
 * @stop: (out) (optional): why the chain ended
 * @error: as cs_explain_wakeup_pair()
 *
 * Follows a wakeup back: link 0 is the pair asked about; its waker is
 * the task that was running where the wakeup was logged (its
 * common_pid); link 1 is that waker's latest wakeup whose switch-in came
 * before it woke the task of link 0, and so on, until the wakeup was
 * logged in an interrupt (common_flags hardirq, softirq or NMI), by the
 * idle task, by a task with no wakeup recorded before, or @max_depth
 * links.
 *
 * Returns: (transfer full) (element-type CsExplainLink) (nullable): the
 *   links, free with cs_explain_links_free()
 */
GArray *
cs_explain_wakeup_chain (CsPluginDocument *document,
                         gint32            pid,
                         gint64            a_ns,
                         guint             a_cpu,
                         gint64            b_ns,
                         guint             b_cpu,
                         guint             max_depth,
                         gboolean          with_slices,
                         CsExplainStop    *stop,
                         GError          **error)
{
  CsExplainBreakdown *first = cs_explain_wakeup_pair (document, pid, a_ns, a_cpu, b_ns, b_cpu,
                                                      with_slices, error);

  if (first == NULL)
    return NULL;
  return cs_explain_wakeup_chain_from (document, first, max_depth, with_slices, stop, error);
}

/**
 * cs_explain_wakeup_chain_from:
 * @document: a recording
 * @first: (transfer full): link 0's breakdown, of a wakeup pair (its
 *   @pid, @a_ns, @waker_pid and @waker_flags lead to the next link): one
 *   that cs_explain_wakeup_pair() made, or the blockers sweep's
 *   (cs-explain-pass.c), which has it already
 * @max_depth: as cs_explain_wakeup_chain()
 * @with_slices: as cs_explain_wakeup_pair(), for the links after @first
 * @stop: (out) (optional): why the chain ended
 * @error: as cs_explain_wakeup_pair()
 *
 * cs_explain_wakeup_chain() with link 0 given: only the links after it
 * are read.  A long wait costs its breakdown most of what its chain
 * costs (the large benchmark recording's worst, 13 s long: 0.58 s of CPU
 * for link 0, against 0.6 s for its eight links), so a caller that has
 * link 0 does not read it again.
 *
 * Returns: (transfer full) (element-type CsExplainLink) (nullable): the
 *   links, @first the first, free with cs_explain_links_free(); %NULL
 *   with @error set (and @first freed) on failure
 */
GArray *
cs_explain_wakeup_chain_from (CsPluginDocument   *document,
                              CsExplainBreakdown *first,
                              guint               max_depth,
                              gboolean            with_slices,
                              CsExplainStop      *stop,
                              GError            **error)
{
  GArray *links = g_array_new (FALSE, FALSE, sizeof (CsExplainLink));
  CsExplainStop why = CS_EXPLAIN_STOP_DEPTH;
  CsExplainLink link = { .depth = 0, .breakdown = first };

  g_array_append_val (links, link);
  for (guint depth = 1; depth < max_depth; depth++)
    {
      const CsExplainBreakdown *b = g_array_index (links, CsExplainLink, links->len - 1).breakdown;
      CsExplainWaking waking;
      gint64 wake_ns, run_ns;
      gint32 run_cpu;
      gint64 t0;
      gboolean found;
      g_autoptr(GError) local_error = NULL;

      if (b->waker_flags & IRQ_FLAGS)
        {
          why = CS_EXPLAIN_STOP_IRQ;
          break;
        }
      if (b->waker_pid <= 0)
        {
          why = CS_EXPLAIN_STOP_IDLE;
          break;
        }
      t0 = _cs_explain_steps_now ();
      found = latest_wakeup_before (document, b->waker_pid, b->a_ns, &wake_ns, &run_ns,
                                    &run_cpu, &waking, &local_error);
      _cs_explain_steps_add (CS_EXPLAIN_STEP_CHAIN, t0);
      if (!found)
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              cs_explain_links_free (links);
              return NULL;
            }
          why = CS_EXPLAIN_STOP_NOT_WAITING;
          break;
        }
      link.depth = depth;
      link.breakdown = cs_explain_wakeup_pair (document, b->waker_pid, wake_ns, waking.cpu, run_ns,
                                               run_cpu >= 0 ? (guint) run_cpu : waking.cpu,
                                               with_slices, error);
      if (link.breakdown == NULL)
        {
          cs_explain_links_free (links);
          return NULL;
        }
      g_array_append_val (links, link);
    }
  if (stop != NULL)
    *stop = why;
  return links;
}
