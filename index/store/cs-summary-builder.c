/* cs-summary-builder.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The summary pyramid lets a frame at any zoom read about one stored bucket
 * per pixel column instead of every event.  Level 0 buckets are
 * 2^shift ns wide, shift chosen so that a bucket holds ~16 events of a busy
 * CPU; each level up is 4x wider, up to a level of at most ~2048 buckets for
 * the whole recording.  A bucket holds the number of events, the time a
 * non-idle task ran (from the sched_switch slices) and the dominant task.
 *
 * Level 0 is built during the scan (CsSummaryScan, fed by cs-cpu-scanner.c
 * with each event's time and pid and each sched_switch's slice), so no event
 * chunk is read twice; each level up is folded from the one below as its
 * buckets close.  A level-0 bucket stays open while a slice that may still
 * add busy time to it is running, in a bounded queue (see
 * PENDING_BUCKETS).  Memory does not grow with the recording.
 *
 * Work does not grow with the time span either: a task that ran through
 * RUN_MIN_BUCKETS or more level-0 buckets holding no event (a long busy
 * loop, or a clock that jumps by hours in a damaged or suspended
 * recording) is stored as one row of summary_runs (its bucket-aligned
 * middle, the same at every level) instead of one bucket per level-0
 * width, and the reader adds it back (cs-document-queries.c).  So a gap of
 * any size costs a row, and the buckets walked are bounded by the events.
 */
#include "config.h"

#include "cs-index-private.h"

#define MAX_LEVELS 32

typedef struct {
  guint32 n_events;
  gint64 busy_ns;
  CsDominant busy_dom;      /* weighted by ns run */
  CsDominant event_dom;     /* weighted by events, for CPUs without slices */
} Bucket;

/* An empty bucket.  The candidates past each CsDominant's n are never
 * read: clearing the counts is enough, and far cheaper than clearing
 * the ~220 bytes, once per bucket of every level. */
static inline void
bucket_clear (Bucket *b)
{
  b->n_events = 0;
  b->busy_ns = 0;
  b->busy_dom.n = 0;
  b->event_dom.n = 0;
}

typedef struct {
  gint64 idx;               /* bucket index of @acc, -1 when none open */
  Bucket acc;
  gint64 block;             /* block held in the arrays, -1 when none */
  gboolean block_used;
  gint64 n_events[CS_SUMMARY_BLOCK_BUCKETS];
  gint64 busy[CS_SUMMARY_BLOCK_BUCKETS];
  gint64 dominant[CS_SUMMARY_BLOCK_BUCKETS];
} Level;

typedef struct {
  CsSummaryStoreFunc store; /* receives each encoded block */
  gpointer store_data;
  guint cpu;
  guint n_levels;
  Level *levels;
} Pyramid;

static gboolean
flush_block (Pyramid *p,
             guint    level,
             GError **error)
{
  Level *l = &p->levels[level];
  const gint64 *cols[SU_N_COLUMNS] = { l->n_events, l->busy, l->dominant };

  if (l->block < 0 || !l->block_used)
    return TRUE;
  l->block_used = FALSE;
  return p->store (p->store_data, p->cpu, level, l->block,
                   cs_chunk_encode (CS_SUMMARY_BLOCK_BUCKETS, SU_N_COLUMNS, _cs_summary_modes,
                                    cols, TRUE),
                   error);
}

static void
pyramid_reset (Pyramid *p)
{
  for (guint l = 0; l < p->n_levels; l++)
    {
      p->levels[l].idx = -1;
      p->levels[l].block = -1;
      p->levels[l].block_used = FALSE;
    }
}


static gboolean
store_bucket (Pyramid      *p,
              guint         level,
              gint64        idx,
              const Bucket *b,
              GError      **error)
{
  Level *l = &p->levels[level];
  gint64 block = idx / CS_SUMMARY_BLOCK_BUCKETS;
  guint slot = idx % CS_SUMMARY_BLOCK_BUCKETS;

  if (block != l->block)
    {
      if (!flush_block (p, level, error))
        return FALSE;
      l->block = block;
      l->block_used = FALSE;
      memset (l->n_events, 0, sizeof l->n_events);
      memset (l->busy, 0, sizeof l->busy);
      memset (l->dominant, 0, sizeof l->dominant);
    }
  l->block_used = TRUE;
  l->n_events[slot] = b->n_events;
  l->busy[slot] = b->busy_ns;
  l->dominant[slot] = 1 + (b->busy_ns > 0 ? _cs_dominant_get (&b->busy_dom)
                                          : _cs_dominant_get (&b->event_dom));
  return TRUE;
}

static void
merge_bucket (Bucket       *into,
              const Bucket *from)
{
  into->n_events += from->n_events;
  into->busy_ns += from->busy_ns;
  for (guint i = 0; i < from->busy_dom.n; i++)
    _cs_dominant_add (&into->busy_dom, from->busy_dom.pid[i], from->busy_dom.weight[i]);
  for (guint i = 0; i < from->event_dom.n; i++)
    _cs_dominant_add (&into->event_dom, from->event_dom.pid[i], from->event_dom.weight[i]);
}

static gboolean close_bucket (Pyramid *p,
                              guint    level,
                              GError **error);

/* Stores bucket @idx of @level and folds it into the level above, closing
 * that one's open bucket first when @idx belongs to a new parent. */
static gboolean
pass_up (Pyramid      *p,
         guint         level,
         gint64        idx,
         const Bucket *b,
         GError      **error)
{
  if (!store_bucket (p, level, idx, b, error))
    return FALSE;

  if (level + 1 < p->n_levels)
    {
      Level *up = &p->levels[level + 1];
      gint64 parent = idx >> CS_SUMMARY_LEVEL_BITS;

      if (up->idx != parent)
        {
          if (!close_bucket (p, level + 1, error))
            return FALSE;
          up->idx = parent;
          bucket_clear (&up->acc);
        }
      merge_bucket (&up->acc, b);
    }
  return TRUE;
}

/* Closes the open bucket of @level (pass_up()). */
static gboolean
close_bucket (Pyramid *p,
              guint    level,
              GError **error)
{
  Level *l = &p->levels[level];

  if (l->idx < 0)
    return TRUE;
  if (!pass_up (p, level, l->idx, &l->acc, error))
    return FALSE;
  l->idx = -1;
  return TRUE;
}

/* A level-0 bucket, complete: level 0 has no open bucket of its own. */
static gboolean
add_finest (Pyramid      *p,
            gint64        idx,
            const Bucket *b,
            GError      **error)
{
  return pass_up (p, 0, idx, b, error);
}

/* Closes every open bucket and stores every block. */
static gboolean
pyramid_finish (Pyramid *p,
                GError **error)
{
  for (guint level = 0; level < p->n_levels; level++)
    if (!close_bucket (p, level, error))
      return FALSE;
  for (guint level = 0; level < p->n_levels; level++)
    if (!flush_block (p, level, error))
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Level 0 during the scan                                                   */

/* Level-0 buckets that a running slice may still add busy time to wait in
 * a queue of at most this many; when it is full the running slice is cut
 * at the newest bucket and accounted to the task sched_switch switched in
 * (next_pid), which the slice's end (prev_pid) nearly always confirms.  So
 * a summary only guesses inside one slice longer than ~16 x 16384 events
 * of its CPU, and memory stays ~3.5 MiB a CPU. */
#define PENDING_BUCKETS 16384

typedef struct {
  gint64 idx;
  Bucket b;
} Pending;

/* Fully covered level-0 buckets without events that make a run rather
 * than buckets.  One block: shorter runs are walked bucket by bucket, as
 * before runs existed, so the summaries of ordinary recordings stay as
 * they were, and a slice never costs more than this many steps beyond
 * the buckets its events opened. */
#define RUN_MIN_BUCKETS CS_SUMMARY_BLOCK_BUCKETS

struct _CsSummaryScan {
  Pyramid pyramid;
  CsSummaryRunFunc store_run;
  gint64 origin_ns;
  guint shift;

  /* Open level-0 buckets in increasing order, a ring of PENDING_BUCKETS.
   * Every bucket before the first one open is stored. */
  Pending *pending;
  guint head, len;
  gint64 floor_ns;          /* busy time before it is accounted for */
  gint64 min_idx;           /* buckets below it are stored */
  gint32 running_pid;       /* next_pid of the last sched_switch, -1 unknown */
  gint32 last_event_pid;    /* event_dom slot of the newest bucket's last event */
  guint last_event_slot;
  gint64 tail_end_ns;       /* events before it go to the newest bucket
                             * (G_MININT64: to be found again) */

  GError *error;            /* from the store function; the first one */
};

static inline gint64
scan_bucket_of (CsSummaryScan *s,
                gint64         ts_ns)
{
  /* Unsigned: a damaged recording's timestamps may be ~2^63 apart, and
   * the shift leaves bucket numbers far below 2^62. */
  return ts_ns <= s->origin_ns ? 0 : (gint64) (((guint64) ts_ns - (guint64) s->origin_ns) >> s->shift);
}

/* Where bucket @idx (>= 0) of level 0 starts; wraps rather than overflow
 * past the last timestamp a gint64 holds. */
static inline gint64
scan_bucket_start (CsSummaryScan *s,
                   gint64         idx)
{
  return (gint64) ((guint64) s->origin_ns + ((guint64) idx << s->shift));
}

static inline Pending *
pending_at (CsSummaryScan *s,
            guint          i)
{
  return &s->pending[(s->head + i) & (PENDING_BUCKETS - 1)];
}

/* Hands a level-0 bucket to the pyramid. */
static void
finalize_bucket (CsSummaryScan *s,
                 gint64         idx,
                 Bucket        *b)
{
  /* As _cs_summary_build() does: events elect a dominant task only where
   * nothing ran. */
  if (b->busy_ns > 0)
    b->event_dom.n = 0;
  if (s->error == NULL)
    add_finest (&s->pyramid, idx, b, &s->error);
  s->min_idx = MAX (s->min_idx, idx + 1);
}

/* Stores the open buckets before @idx. */
static void
finalize_before (CsSummaryScan *s,
                 gint64         idx)
{
  s->tail_end_ns = G_MININT64;
  while (s->len > 0 && s->pending[s->head].idx < idx)
    {
      Pending *p = &s->pending[s->head];

      finalize_bucket (s, p->idx, &p->b);
      s->head = (s->head + 1) & (PENDING_BUCKETS - 1);
      s->len--;
    }
  s->min_idx = MAX (s->min_idx, idx);
}

/* Task @pid ran through the level-0 buckets [@from, @to), all fully
 * covered and without events: hands them over as one run. */
static void
hand_over_run (CsSummaryScan *s,
               gint64         from,
               gint64         to,
               gint32         pid)
{
  if (s->error == NULL)
    s->store_run (s->pyramid.store_data, s->pyramid.cpu, scan_bucket_start (s, from),
                  scan_bucket_start (s, to), pid, &s->error);
  s->min_idx = MAX (s->min_idx, to);
}

/* Task @pid (0: idle, -1: unknown) ran over [floor_ns, @end_ns): adds its
 * busy time to the buckets it covers and stores every bucket before the
 * one holding @end_ns, where the next slice starts. */
static void
account_until (CsSummaryScan *s,
               gint32         pid,
               gint64         end_ns)
{
  gint64 begin_ns = s->floor_ns;
  gint64 first, last;

  if (end_ns <= begin_ns)
    return;
  s->floor_ns = end_ns;
  s->tail_end_ns = G_MININT64;
  first = MAX (scan_bucket_of (s, begin_ns), s->min_idx);
  last = scan_bucket_of (s, end_ns);
  if (pid <= 0)
    {
      finalize_before (s, last);
      return;
    }

  finalize_before (s, first);
  for (gint64 idx = first; idx <= last; idx++)
    {
      gint64 b0 = scan_bucket_start (s, idx);
      gint64 b1 = scan_bucket_start (s, idx + 1);
      gint64 part = MIN (end_ns, b1) - MAX (begin_ns, b0);
      gint64 next_open = s->len > 0 ? s->pending[s->head].idx : G_MAXINT64;
      Pending *p = NULL;
      Bucket fresh;

      /* Buckets [idx, stop) are fully covered and hold no event: many of
       * them make one run. */
      if (idx < last && idx < next_open && b0 >= begin_ns &&
          MIN (next_open, last) - idx >= RUN_MIN_BUCKETS)
        {
          hand_over_run (s, idx, MIN (next_open, last), pid);
          idx = MIN (next_open, last) - 1;
          continue;
        }

      if (s->len > 0 && s->pending[s->head].idx == idx)
        p = &s->pending[s->head];
      if (part <= 0)
        continue;   /* only the last bucket, when @end_ns starts it */
      if (idx == last)
        {
          /* The next slice starts in this bucket: it stays open.  (With
           * the clock going back, the queue may be full of later buckets:
           * the earliest takes the time.) */
          if (p == NULL && s->len == PENDING_BUCKETS)
            p = &s->pending[s->head];
          if (p == NULL)
            {
              s->head = (s->head + PENDING_BUCKETS - 1) & (PENDING_BUCKETS - 1);
              s->len++;
              p = &s->pending[s->head];
              bucket_clear (&p->b);
              p->idx = idx;
              if (s->len == 1)
                s->last_event_pid = -2;
            }
          p->b.busy_ns += part;
          _cs_dominant_add (&p->b.busy_dom, pid, part);
          break;
        }
      if (p != NULL)
        {
          p->b.busy_ns += part;
          _cs_dominant_add (&p->b.busy_dom, pid, part);
          finalize_bucket (s, idx, &p->b);
          s->head = (s->head + 1) & (PENDING_BUCKETS - 1);
          s->len--;
        }
      else
        {
          bucket_clear (&fresh);
          fresh.busy_ns = part;
          _cs_dominant_add (&fresh.busy_dom, pid, part);
          finalize_bucket (s, idx, &fresh);
        }
    }
}

/*
 * _cs_summary_scan_new:
 * @cpu: the CPU whose events will be given
 * @origin_ns: start of bucket 0 (the recording's first_ns)
 * @shift: level 0 buckets are 2^@shift ns
 * @store: receives each block (any level) as it is complete
 * @store_run: receives each run (see RUN_MIN_BUCKETS), in time order
 * @store_data: for @store and @store_run
 *
 * Returns: (transfer full): a level-0 builder for one CPU's scan; levels up
 *   to 2^62 ns are built, the caller drops those it does not want
 */
CsSummaryScan *
_cs_summary_scan_new (guint              cpu,
                      gint64             origin_ns,
                      guint              shift,
                      CsSummaryStoreFunc store,
                      CsSummaryRunFunc   store_run,
                      gpointer           store_data)
{
  CsSummaryScan *s = g_new0 (CsSummaryScan, 1);

  s->store_run = store_run;

  shift = MIN (shift, 62);
  s->origin_ns = origin_ns;
  s->shift = shift;
  s->floor_ns = G_MININT64;
  s->running_pid = -1;
  s->last_event_pid = -2;
  s->tail_end_ns = G_MININT64;
  s->pending = g_new (Pending, PENDING_BUCKETS);
  s->pyramid.store = store;
  s->pyramid.store_data = store_data;
  s->pyramid.cpu = cpu;
  s->pyramid.n_levels = MIN (MAX_LEVELS, (62 - shift) / CS_SUMMARY_LEVEL_BITS + 1);
  s->pyramid.levels = g_new0 (Level, s->pyramid.n_levels);
  pyramid_reset (&s->pyramid);
  return s;
}

/* A copy of @s whose blocks and runs go to @store and @store_run with
 * @store_data: closing it (_cs_summary_scan_finish()) gives what closing
 * @s now would, and leaves @s open (the live index, cs-index-live.c). */
CsSummaryScan *
_cs_summary_scan_copy (const CsSummaryScan *s,
                       gpointer             store_data)
{
  CsSummaryScan *c = g_memdup2 (s, sizeof *s);

  c->pending = g_memdup2 (s->pending, sizeof (Pending) * PENDING_BUCKETS);
  c->pyramid.levels = g_memdup2 (s->pyramid.levels, sizeof (Level) * s->pyramid.n_levels);
  c->pyramid.store_data = store_data;
  c->error = NULL;
  return c;
}

void
_cs_summary_scan_free (CsSummaryScan *s)
{
  if (s == NULL)
    return;
  g_clear_error (&s->error);
  g_free (s->pending);
  g_free (s->pyramid.levels);
  g_free (s);
}

/* _cs_summary_scan_event(), inline for _cs_summary_scan_events(). */
static inline void
scan_event (CsSummaryScan *s,
            gint64         ts_ns,
            gint32         pid)
{
  gint64 idx;
  Pending *p;

  if (G_LIKELY (ts_ns < s->tail_end_ns))
    {
      /* The newest bucket (or earlier: clock trouble joins it), most often
       * for the task of the event before. */
      p = pending_at (s, s->len - 1);
      p->b.n_events++;
      if (G_LIKELY (pid == s->last_event_pid))
        {
          p->b.event_dom.weight[s->last_event_slot]++;
          return;
        }
    }
  else
    {
      idx = MAX (scan_bucket_of (s, ts_ns), s->min_idx);
      if (s->floor_ns == G_MININT64)
        s->floor_ns = ts_ns;   /* the first slice starts at the CPU's first event */
      if (s->len == 0 || (p = pending_at (s, s->len - 1))->idx < idx)
        {
          if (s->len == PENDING_BUCKETS)
            {
              /* Cut the running slice at this bucket (see PENDING_BUCKETS). */
              account_until (s, s->running_pid, scan_bucket_start (s, idx));
              finalize_before (s, idx);
            }
          /* An empty ring starts again at its first entry, which the
           * caches still hold, rather than walking its 3.8 MiB. */
          if (s->len == 0)
            s->head = 0;
          p = pending_at (s, s->len++);
          bucket_clear (&p->b);
          p->idx = idx;
          p->b.n_events = 1;
          _cs_dominant_add (&p->b.event_dom, pid, 1);
          s->last_event_pid = pid;
          s->last_event_slot = 0;
          s->tail_end_ns = scan_bucket_start (s, idx + 1);
          return;
        }
      p->b.n_events++;
      s->tail_end_ns = scan_bucket_start (s, p->idx + 1);
      if (pid == s->last_event_pid)
        {
          p->b.event_dom.weight[s->last_event_slot]++;
          return;
        }
    }

  /* Another task than the last event's. */
  {
    _cs_dominant_add (&p->b.event_dom, pid, 1);
    s->last_event_pid = -2;
    for (guint i = 0; i < p->b.event_dom.n; i++)
      if (p->b.event_dom.pid[i] == pid)
        {
          s->last_event_pid = pid;
          s->last_event_slot = i;
        }
  }
}

/*
 * _cs_summary_scan_event:
 * @ts_ns: the event's time; earlier than the one before (clock trouble in
 *   the recording), it joins the newest bucket
 * @pid: common_pid
 *
 * Counts one event, in time order.
 */
void
_cs_summary_scan_event (CsSummaryScan *s,
                        gint64         ts_ns,
                        gint32         pid)
{
  scan_event (s, ts_ns, pid);
}

/*
 * _cs_summary_scan_events:
 * @ts_ns: (array length=n): the events' times
 * @pids: (array length=n): their common_pid
 * @n: how many
 *
 * _cs_summary_scan_event() for each of @n events in turn (the columns of
 * an event chunk), without a call per event: most events fall in the
 * newest bucket, most often for the task of the event before.
 */
void
_cs_summary_scan_events (CsSummaryScan *s,
                         const gint64  *ts_ns,
                         const gint64  *pids,
                         guint          n)
{
  guint i = 0;

  while (i < n)
    {
      /* A run of events that scan_event() would count in the newest
       * bucket for the task of the event before: counted at once. */
      if (ts_ns[i] < s->tail_end_ns && (gint32) pids[i] == s->last_event_pid)
        {
          const gint64 tail_end_ns = s->tail_end_ns;
          const gint32 pid = s->last_event_pid;
          guint from = i;
          Pending *p = pending_at (s, s->len - 1);

          while (++i < n && ts_ns[i] < tail_end_ns && (gint32) pids[i] == pid)
            ;
          p->b.n_events += i - from;
          p->b.event_dom.weight[s->last_event_slot] += i - from;
          if (i == n)
            break;
        }
      scan_event (s, ts_ns[i], (gint32) pids[i]);
      i++;
    }
}

/*
 * _cs_summary_scan_switch:
 * @prev_pid: the task that ran (0: idle, which adds no busy time)
 * @begin_ns: since when, as the slice table says
 * @end_ns: until when (the sched_switch's time)
 * @next_pid: the task switched in, -1 at the end of the CPU's events
 *
 * Adds a slice of the slice table to the buckets it covers.  Slices come
 * in time order, after the events before @end_ns.
 */
void
_cs_summary_scan_switch (CsSummaryScan *s,
                         gint32         prev_pid,
                         gint64         begin_ns,
                         gint64         end_ns,
                         gint32         next_pid)
{
  s->floor_ns = MAX (s->floor_ns, begin_ns);
  account_until (s, prev_pid, end_ns);
  s->running_pid = next_pid;
}

/*
 * _cs_summary_scan_finish:
 *
 * Stores every bucket left and the last block of each level.
 *
 * Returns: %FALSE with @error set when the store function failed
 */
gboolean
_cs_summary_scan_finish (CsSummaryScan *s,
                         GError       **error)
{
  finalize_before (s, G_MAXINT64);
  if (s->error == NULL)
    pyramid_finish (&s->pyramid, &s->error);
  if (s->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&s->error));
      return FALSE;
    }
  return TRUE;
}

/* The finest bucket width: ~16 events per bucket on a CPU that records
 * @events_per_ns (on average over the CPUs with events). */
guint
_cs_summary_shift_for_rate (double events_per_ns)
{
  double width;
  guint shift = 4;

  if (!(events_per_ns > 0))
    return 20;
  width = 16.0 / events_per_ns;
  while (shift < 40 && (double) (G_GINT64_CONSTANT (1) << (shift + 1)) <= width)
    shift++;
  return shift;
}

guint
_cs_summary_choose_shift (guint64 n_events,
                          guint   n_active_cpus,
                          gint64  span_ns)
{
  if (n_events == 0 || span_ns <= 0)
    return 20;
  return _cs_summary_shift_for_rate ((double) n_events / ((double) span_ns * MAX (n_active_cpus, 1)));
}

guint
_cs_summary_count_levels (guint  shift,
                          gint64 span_ns)
{
  guint n = 1;

  while (n < MAX_LEVELS && (span_ns >> (shift + CS_SUMMARY_LEVEL_BITS * (n - 1))) > 2048)
    n++;
  return n;
}
