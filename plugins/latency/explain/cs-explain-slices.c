/* cs-explain-slices.c: a stay of a waiting task fed to the tracker from
 * the index's slices instead of the CPU's sched_switch records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A long wait is crossed by a great many sched_switch events (the worst
 * wakeup of the large benchmark recording, 25.6 s, by 2.35 million), and
 * reading each record costs about half a microsecond.  The index's slices
 * (cs_plugin_document_foreach_slice()) say who ran from when to when, at
 * tens of nanoseconds each, with the next_comm and next_prio of the
 * switch that began each; their flags say when they tell exactly what
 * the records would (CS_PLUGIN_SLICE_SWITCHED: no switch lost, the gaps
 * are idle).  So a stay is fed as:
 *
 *  1. a look at its slices: where the index says they do not stand in
 *     for the records (cs_plugin_document_foreach_unswitched(): events
 *     were lost there, so those parts are fed from the records; it skips
 *     the slice chunks that are all switched, where decoding every slice
 *     of a 8 s stay cost ~10 ms), and the first switch to idle
 *     (cs_plugin_document_foreach_idle(): the slices' times alone), whose
 *     record is read for the idle task's comm and prio (the slices are
 *     the gaps' edges, not the idle task's); a stay that does not qualify
 *     is left to the records, untouched;
 *  2. the CPU's other state events fed in the CPU's order, with a
 *     sched_switch made from the slices fed before each: interrupts and
 *     softirqs from the index's interrupt tables
 *     (cs_plugin_document_foreach_interrupt(): the worst wait of the large
 *     benchmark recording is crossed by ~8,400 of them, one in ~450
 *     events, whose event chunks and records were most of its cost),
 *     sections (preemptirq, the kernel module's) read as records; two at
 *     the same time as a switch cannot be put in the records' order, so
 *     the stay is then given up (the caller starts the pair again from the
 *     records).
 */
#include <string.h>

#include "cs-explain-slices.h"

/* Slices fetched at a time while feeding (256 KiB): each fetch finds its
 * first chunk again and decodes it from its start, but a larger batch is
 * memory touched for the first time: 65,536 (2 MiB, 512 page faults) made
 * the worst pair of large-v6.dat (352 k slices) cost 54.5 ms against
 * 49.7 ms (medians of 10-12 alternated runs; 4,096 and 16,384: 50 ms). */
#define BATCH_SLICES 8192
/* Interrupts taken from the index at a time, at most (about 1 MiB): a
 * part's interrupts are fed in windows of this many. */
#define BATCH_INTERRUPTS 32768
/* next_comm strings zero-padded as the tracker takes them, kept by their
 * address (the document's, one per comm of a CPU): padding each slice's
 * afresh was 4.5 % of the instructions of the large recording's worst
 * wakeup (callgrind, 465 M -> 444 M). */
#define PADDED_COMMS 16
/* Parts of a stay, at most (events lost in many places: the records). */
#define MAX_PARTS 64
/* A part of the stay fed one way: from the slices, or from the records
 * where a slice is not switched (events were lost around it). */
typedef struct {
  gint64 from, to;
  gboolean records;
} Part;

typedef struct {
  gint64 from, to;
  gboolean ok;
  gint64 part_from;             /* where the part from the slices under way began */
  GArray *parts;                /* Part */
} Look;

/* The part from the slices up to @from, then one from the records over
 * [@from, @to): the index's spans come apart and in order. */
static gboolean
look_at_span (gint64   from,
              gint64   to,
              gpointer user_data)
{
  Look *look = user_data;

  if (look->parts->len + 2 > MAX_PARTS)
    {
      look->ok = FALSE;
      return FALSE;
    }
  if (from > look->part_from)
    {
      Part p = { look->part_from, from, FALSE };

      g_array_append_val (look->parts, p);
    }
  {
    Part p = { from, to, TRUE };

    g_array_append_val (look->parts, p);
  }
  look->part_from = to;
  return TRUE;
}

/* Whether the records feed the switches at @ts_ns. */
static gboolean
in_records (const Look *look,
            gint64      ts_ns)
{
  for (guint i = 0; i < look->parts->len; i++)
    {
      const Part *p = &g_array_index (look->parts, Part, i);

      if (p->records && p->from <= ts_ns && ts_ns < p->to)
        return TRUE;
    }
  return FALSE;
}

/* The first switch to idle the slices make (where the CPU's idle time
 * begins) in a part from the slices. */
typedef struct {
  const Look *look;
  gint64 idle_ns;               /* -1: none */
} IdleLook;

static gboolean
find_idle_switch (gint64   begin_ns,
                  gint64   end_ns,
                  gpointer user_data)
{
  IdleLook *il = user_data;

  if (in_records (il->look, begin_ns))
    return TRUE;
  il->idle_ns = begin_ns;
  return FALSE;
}

/* Whether the stay's first switched slice has a next_comm: one without is
 * a recording whose switches lack the field (the records say it). */
static gboolean
check_comm (const CsPluginSlice *slice,
            gpointer             user_data)
{
  if (!(slice->flags & CS_PLUGIN_SLICE_SWITCHED))
    return TRUE;
  *(gboolean *) user_data = slice->next_comm != NULL;
  return FALSE;
}

/* The idle task's comm and prio, from the switch to it at a time. */
typedef struct {
  CsExplainTracker *tracker;
  gint64 ts_ns;
  gint32 prio;
  gboolean found;
  char comm[CS_EXPLAIN_NAME_LEN];
} Idle;

static gboolean
read_idle_switch (const CsPluginEvent *event,
                  gpointer             user_data)
{
  Idle *idle = user_data;
  gint32 pid, prio;
  char comm[CS_EXPLAIN_NAME_LEN];

  if (event->ts_ns == idle->ts_ns &&
      cs_explain_tracker_read_switch (idle->tracker, event, &pid, &prio, comm) && pid == 0)
    {
      idle->prio = prio;
      memcpy (idle->comm, comm, sizeof comm);
      idle->found = TRUE;
    }
  return TRUE;
}

/* The slices of a stay in order, BATCH_SLICES at a time, and the
 * switches they make. */
typedef struct {
  CsPluginDocument *document;
  CsExplainTracker *tracker;
  guint cpu;
  gint64 from, to;
  CsPluginSlice *batch;         /* BATCH_SLICES of room */
  guint n_batch;
  guint pos;
  gint64 fetch_from;            /* the next batch: slices ending after it */
  gboolean done;
  gint64 pending_end;           /* the slice switched in ends here (G_MININT64: idle) */
  gint32 pending_state;
  const Idle *idle;             /* NULL: no switch to idle was looked at */
  CsExplainBreakdown **found;
  gboolean tie;
  GError *error;
  struct _Irqs *irqs;           /* the part's interrupts, read ahead */
  const char *comm_of[PADDED_COMMS];    /* the document's string of each padded[] */
  char padded[PADDED_COMMS][CS_EXPLAIN_NAME_LEN];
} Feed;

/* @comm zero-padded to CS_EXPLAIN_NAME_LEN (cut to one less), as the
 * tracker takes a record's. */
static const char *
padded_comm (Feed       *f,
             const char *comm)
{
  guint slot = (guint) (GPOINTER_TO_SIZE (comm) >> 3) % PADDED_COMMS;

  if (f->comm_of[slot] != comm)
    {
      memset (f->padded[slot], 0, CS_EXPLAIN_NAME_LEN);
      strncpy (f->padded[slot], comm, CS_EXPLAIN_NAME_LEN - 1);
      f->comm_of[slot] = comm;
    }
  return f->padded[slot];
}

static gboolean
collect_slice (const CsPluginSlice *slice,
               gpointer             user_data)
{
  Feed *f = user_data;

  if (slice->begin_ns >= f->to)
    {
      f->done = TRUE;
      return FALSE;
    }
  /* Stored in place: through g_array_append_val() (a call and a copy of
   * unknown size a slice) this was a tenth of a long wait's time. */
  f->batch[f->n_batch++] = *slice;
  return f->n_batch < BATCH_SLICES;
}

/* The slice at the cursor, or NULL at the stay's end. */
static const CsPluginSlice *
current_slice (Feed *f)
{
  if (f->pos < f->n_batch)
    return &f->batch[f->pos];
  if (f->done || f->error != NULL)
    return NULL;
  f->n_batch = 0;
  f->pos = 0;
  if (!cs_plugin_document_foreach_slice (f->document, f->cpu, f->fetch_from, G_MAXINT64,
                                         collect_slice, f, &f->error))
    return NULL;
  if (f->n_batch < BATCH_SLICES)
    f->done = TRUE;
  if (f->n_batch == 0)
    return NULL;
  /* Slices do not overlap and last > 0: the next one ends after this. */
  f->fetch_from = f->batch[f->n_batch - 1].end_ns;
  return &f->batch[0];
}

/* The time of the next switch before the stay's end, or G_MAXINT64;
 * passes over the slice under way at the stay's start. */
static gint64
next_switch_ns (Feed *f)
{
  for (;;)
    {
      const CsPluginSlice *s = current_slice (f);

      if (s == NULL)
        return f->pending_end != G_MININT64 && f->pending_end < f->to ? f->pending_end
                                                                      : G_MAXINT64;
      if (s->begin_ns < f->from)
        {
          f->pending_end = s->end_ns;
          f->pending_state = s->prev_state;
          f->pos++;
          continue;
        }
      if (f->pending_end != G_MININT64 && f->pending_end < s->begin_ns)
        return f->pending_end;
      return s->begin_ns;
    }
}

/* Whether the switch at next_switch_ns() is to idle. */
static gboolean
switch_is_idle (Feed *f)
{
  const CsPluginSlice *s = current_slice (f);

  return s == NULL || (f->pending_end != G_MININT64 && f->pending_end < s->begin_ns);
}

/* Feeds the switch at next_switch_ns(). */
static void
feed_switch (Feed *f)
{
  const CsPluginSlice *s = current_slice (f);

  if (switch_is_idle (f))
    {
      /* To idle; looked at before, so its record was read. */
      cs_explain_tracker_switch (f->tracker, f->cpu, f->pending_end, f->pending_state, 0,
                                 f->idle->prio, f->idle->comm);
      f->pending_end = G_MININT64;
      return;
    }
  /* Set: feed_switches_before() looked. */
  cs_explain_tracker_switch (f->tracker, f->cpu, s->begin_ns,
                             f->pending_end != G_MININT64 ? f->pending_state : 0, s->pid,
                             s->next_prio, padded_comm (f, s->next_comm));
  f->pending_end = s->end_ns;
  f->pending_state = s->prev_state;
  f->pos++;
}

/* Feeds the switches before @ts_ns; FALSE when the pair closed, a switch
 * is at @ts_ns (f->tie) or the slices could not be read. */
static gboolean
feed_switches_before (Feed  *f,
                      gint64 ts_ns)
{
  for (;;)
    {
      gint64 next = next_switch_ns (f);

      if (f->error != NULL)
        return FALSE;
      if (next == ts_ns && next != G_MAXINT64)
        {
          f->tie = TRUE;
          return FALSE;
        }
      if (next > ts_ns || next == G_MAXINT64)
        return TRUE;
      /* A switch to idle the look did not see (cannot happen), or one to a
       * task without its comm: give up. */
      if (switch_is_idle (f) ? f->idle == NULL : current_slice (f)->next_comm == NULL)
        {
          f->tie = TRUE;
          return FALSE;
        }
      feed_switch (f);
      if (*f->found != NULL)
        return FALSE;
    }
}

/* A window of a part's interrupts, read ahead of its other state events. */
typedef struct _Irqs {
  GArray *irqs;                 /* CsPluginInterrupt */
  guint next;                   /* the first not fed yet */
  gint64 stop_ns;               /* where the window ends: the first left out */
} Irqs;

static gboolean
collect_interrupt (const CsPluginInterrupt *irq,
                   gpointer                 user_data)
{
  Irqs *w = user_data;

  /* Full: stop between two times, so a time's interrupts stay together. */
  if (w->irqs->len >= BATCH_INTERRUPTS &&
      irq->ts_ns != g_array_index (w->irqs, CsPluginInterrupt, w->irqs->len - 1).ts_ns)
    {
      w->stop_ns = irq->ts_ns;
      return FALSE;
    }
  g_array_append_val (w->irqs, *irq);
  return TRUE;
}

/* Feeds the window's interrupts before (@ts_ns, @row) in the CPU's order
 * (all of them with G_MAXINT64), each after the switches before it. */
static gboolean
feed_interrupts_before (Feed    *f,
                        Irqs    *w,
                        gint64   ts_ns,
                        guint64  row)
{
  while (w->next < w->irqs->len)
    {
      const CsPluginInterrupt *irq = &g_array_index (w->irqs, CsPluginInterrupt, w->next);

      if (irq->ts_ns > ts_ns || (irq->ts_ns == ts_ns && irq->row >= row))
        return TRUE;
      if (!feed_switches_before (f, irq->ts_ns))
        return FALSE;
      cs_explain_tracker_interrupt (f->tracker, irq);
      w->next++;
      if (*f->found != NULL)
        return FALSE;
    }
  return TRUE;
}

static gboolean
feed_record (const CsPluginEvent *event,
             gpointer             user_data)
{
  Feed *f = user_data;

  cs_explain_tracker_event (f->tracker, event);
  return *f->found == NULL;
}

static gboolean
feed_state_event (const CsPluginEvent *event,
                  gpointer             user_data)
{
  Feed *f = user_data;

  if (!feed_interrupts_before (f, f->irqs, event->ts_ns, event->row) ||
      !feed_switches_before (f, event->ts_ns))
    return FALSE;
  cs_explain_tracker_event (f->tracker, event);
  return *f->found == NULL;
}

/* cs_explain_state_events without sched:sched_switch (the slices make
 * those) and the interrupt events (the index's interrupt tables give
 * those): the sections' events. */
static const char *const *
section_events (void)
{
  static const char *types[32];
  static gsize done;

  if (g_once_init_enter (&done))
    {
      guint n = 0;

      for (guint i = 0; cs_explain_state_events[i] != NULL; i++)
        if (strcmp (cs_explain_state_events[i], "sched:sched_switch") != 0 &&
            !g_str_has_prefix (cs_explain_state_events[i], "irq:") &&
            n < G_N_ELEMENTS (types) - 1)
          types[n++] = cs_explain_state_events[i];
      types[n] = NULL;
      g_once_init_leave (&done, 1);
    }
  return types;
}

/**
 * _cs_explain_feed_stay_from_slices:
 * @document: a recording
 * @tracker: a tracker fed in time order up to @from_ns (excluded), with
 *   @cpu's state known (its last sched_switch before @from_ns fed)
 * @cpu: the CPU the task waits on
 * @from_ns: the stay's start
 * @to_ns: its end (exclusive)
 * @found: set by the tracker's pair function when the pair closes: the
 *   feed stops there
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Feeds @tracker what @cpu's state events over [@from_ns, @to_ns) would
 * feed it (cs_explain_state_events), the sched_switch events made from
 * the index's slices (see the top of this file).
 *
 * Returns: %CS_EXPLAIN_SLICES_FED; %CS_EXPLAIN_SLICES_UNSUITABLE (nothing
 *   fed: read the records); %CS_EXPLAIN_SLICES_ABANDONED (part fed: start
 *   the pair again from the records); %CS_EXPLAIN_SLICES_FAILED with
 *   @error set
 */
CsExplainSlicesResult
_cs_explain_feed_stay_from_slices (CsPluginDocument    *document,
                                   CsExplainTracker    *tracker,
                                   guint                cpu,
                                   gint64               from_ns,
                                   gint64               to_ns,
                                   CsExplainBreakdown **found,
                                   GError             **error)
{
  static const char *const switch_only[] = { "sched:sched_switch", NULL };
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (Part));
  g_autoptr(GArray) irqs = g_array_new (FALSE, FALSE, sizeof (CsPluginInterrupt));
  g_autofree CsPluginSlice *batch = g_new (CsPluginSlice, BATCH_SLICES);
  Look look = { .from = from_ns, .to = to_ns, .ok = TRUE, .part_from = from_ns, .parts = parts };
  IdleLook idle_look = { &look, -1 };
  gboolean has_comm = TRUE;
  Idle idle = { tracker, -1, -1 };

  if (from_ns <= G_MININT64 + 1 || to_ns <= from_ns)
    return CS_EXPLAIN_SLICES_UNSUITABLE;
  if (!cs_plugin_document_foreach_unswitched (document, cpu, from_ns, to_ns, look_at_span, &look,
                                              error))
    return CS_EXPLAIN_SLICES_FAILED;
  if (!look.ok)
    return CS_EXPLAIN_SLICES_UNSUITABLE;
  if (look.part_from < to_ns)
    {
      Part p = { look.part_from, to_ns, FALSE };

      g_array_append_val (parts, p);
    }
  /* From just before @from_ns: a slice ending at it makes a switch in
   * the stay. */
  if (!cs_plugin_document_foreach_slice (document, cpu, from_ns - 1, to_ns, check_comm,
                                         &has_comm, error) ||
      !cs_plugin_document_foreach_idle (document, cpu, from_ns, to_ns, find_idle_switch,
                                        &idle_look, error))
    return CS_EXPLAIN_SLICES_FAILED;
  if (!has_comm)
    return CS_EXPLAIN_SLICES_UNSUITABLE;
  if (idle_look.idle_ns >= 0)
    {
      idle.ts_ns = idle_look.idle_ns;
      if (!cs_plugin_document_foreach_event (document, cpu, idle.ts_ns, idle.ts_ns + 1,
                                             switch_only, read_idle_switch, &idle, error))
        return CS_EXPLAIN_SLICES_FAILED;
      if (!idle.found)
        return CS_EXPLAIN_SLICES_UNSUITABLE;
    }

  for (guint i = 0; i < parts->len && *found == NULL; i++)
    {
      const Part *part = &g_array_index (parts, Part, i);
      Feed f = { document, tracker, cpu, part->from, part->to, batch };
      const CsPluginSlice *first;

      f.found = found;
      if (part->records)
        {
          if (!cs_plugin_document_foreach_event (document, cpu, part->from, part->to,
                                                 cs_explain_state_events, feed_record, &f,
                                                 error))
            return CS_EXPLAIN_SLICES_FAILED;
          continue;
        }
      f.fetch_from = part->from - 1;
      f.pending_end = G_MININT64;
      f.idle = idle.found ? &idle : NULL;
      /* Who runs as the part starts: as the tracker knows it. */
      first = current_slice (&f);
      if (f.error == NULL &&
          cs_explain_tracker_get_running (tracker, cpu) !=
            (first != NULL && first->begin_ns < part->from ? first->pid : 0))
        return i == 0 ? CS_EXPLAIN_SLICES_UNSUITABLE : CS_EXPLAIN_SLICES_ABANDONED;
      /* The part's interrupts a window at a time, each window's sections
       * read between them. */
      for (gint64 at = part->from; f.error == NULL && !f.tie && *found == NULL && at < part->to;)
        {
          Irqs w = { irqs, 0, part->to };

          g_array_set_size (irqs, 0);
          if (!cs_plugin_document_foreach_interrupt (document, cpu, at, part->to,
                                                     collect_interrupt, &w, error))
            return CS_EXPLAIN_SLICES_FAILED;
          f.irqs = &w;
          if (!cs_plugin_document_foreach_event (document, cpu, at, w.stop_ns, section_events (),
                                                 feed_state_event, &f, error))
            return CS_EXPLAIN_SLICES_FAILED;
          if (f.error == NULL && !f.tie && *found == NULL)
            feed_interrupts_before (&f, &w, G_MAXINT64, 0);
          at = w.stop_ns;
        }
      if (f.error == NULL && !f.tie && *found == NULL)
        feed_switches_before (&f, part->to);
      if (f.error != NULL)
        {
          g_propagate_error (error, f.error);
          return CS_EXPLAIN_SLICES_FAILED;
        }
      if (f.tie)
        return CS_EXPLAIN_SLICES_ABANDONED;
    }
  return CS_EXPLAIN_SLICES_FED;
}
