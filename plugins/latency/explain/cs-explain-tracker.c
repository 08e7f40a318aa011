/* cs-explain-tracker.c: per-CPU state and the breakdown of wakeup pairs
 * (cs-explain-tracker.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <event-parse.h>

#include "cs-explain-formats.h"
#include "cs-explain-tasks.h"
#include "cs-explain-tracker.h"
#include "cs-explain-waiting.h"


#define MAX_IRQ_NESTING 4
/* Stretches a CPU's log holds before the pairs waiting there take them
 * and it starts again (32 bytes each). */
#define LOG_STRETCHES 65536
#define RECENT_NUMBERS 1024     /* a power of two: many tasks come and go */


typedef struct {
  gint64 last_ns;               /* start of the slice not yet added; G_MININT64 */
  gint32 pid;                   /* -1 before the first sched_switch */
  gint32 prio;
  char comm[CS_EXPLAIN_NAME_LEN];
  guint irq_depth;
  gint32 irq[MAX_IRQ_NESTING];
  char irq_name[MAX_IRQ_NESTING][CS_EXPLAIN_NAME_LEN];
  gint32 softirq;               /* -1: none */
  gboolean irqs_off;
  gboolean preempt_off;
  CsExplainSource irqs_off_source;
  CsExplainSource preempt_off_source;
  gboolean saw_switch;
  GPtrArray *waiting;           /* Waiting *, borrowed */
  /* What holds the CPU, and its number (CsExplainTracker.numbers), made
   * once per change of the CPU's state rather than per pair waiting. */
  gboolean now_known;
  guint now_key;
  CsExplainContributor now;
  /* With a shortest pair (min_ns): the stretches since the pairs waiting
   * here were last given theirs, which a pair takes only when it turns
   * out long enough (most are not), or when it moves. */
  GArray *log;                  /* Stretch */
  guint64 log_base;             /* the number of log's first stretch */
} Cpu;

struct _CsExplainTracker
{
  guint n_cpus;
  Cpu *cpus;
  CsExplainFormats *formats;    /* what is read of each event format */
  CsExplainTasks *tasks;        /* by pid: the wakeup rule's state, the open pair */
  GHashTable *numbers;          /* CsExplainContributor (kind, id, name; owned) -> number + 1 */
  GArray *numbered;             /* CsExplainContributor by number */
  /* The numbers found last, by a hash of kind and id: most changes of a
   * CPU go back to a contributor seen a moment ago, found here without
   * the hash table's calls. */
  struct {
    CsExplainContributor c;
    guint number;               /* + 1; 0: the slot is empty */
  } recent[RECENT_NUMBERS];
  GPtrArray *spare;             /* Waiting * closed, for reuse: no malloc per wakeup */
  Waiting *window;
  gint32 only_pid;
  gint64 min_ns;                /* shorter pairs do not reach func */
  gboolean open_pairs;
  gboolean learning;
  gboolean record_slices;
  gboolean *slice_cpus;         /* n_cpus: the CPUs whose slices are kept (NULL: all) */
  CsExplainPairFunc func;
  gpointer user_data;
};

static void take_log (CsExplainTracker *self,
                      guint             c);

static void
waiting_free (gpointer data)
{
  Waiting *w = data;

  g_array_unref (w->parts);
  g_clear_pointer (&w->part_index, g_hash_table_unref);
  g_clear_pointer (&w->key_parts, g_array_unref);
  if (w->slices != NULL)
    g_array_unref (w->slices);
  g_free (w);
}

/* Gives a pair just opened its slices, when the tracker records them,
 * and the CPUs they are kept on. */
static void
give_slices (CsExplainTracker *self,
             Waiting          *w)
{
  if (!self->record_slices)
    return;
  w->slices = g_array_new (FALSE, FALSE, sizeof (Slice));
  w->slice_cpus = self->slice_cpus;
  w->n_slice_cpus = self->n_cpus;
}

/* A cleared Waiting, reused from a closed pair when there is one. */
static Waiting *
waiting_take (CsExplainTracker *self)
{
  Waiting *w;

  if (self->spare->len == 0)
    {
      w = g_new0 (Waiting, 1);
      w->parts = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
    }
  else
    {
      GArray *parts, *key_parts;
      guint32 key_gen;

      w = g_ptr_array_steal_index_fast (self->spare, self->spare->len - 1);
      parts = w->parts;
      key_parts = w->key_parts;
      key_gen = w->key_gen;
      g_array_set_size (parts, 0);
      g_clear_pointer (&w->part_index, g_hash_table_unref);
      g_clear_pointer (&w->slices, g_array_unref);
      memset (w, 0, sizeof *w);
      w->parts = parts;
      _cs_explain_waiting_reuse_keys (w, key_parts, key_gen);
    }
  w->last_part = -1;
  give_slices (self, w);
  return w;
}

/* Keeps a closed pair's Waiting for the next wakeup (a few at most). */
static void
waiting_recycle (CsExplainTracker *self,
                 Waiting          *w)
{
  if (self->spare->len < 64)
    g_ptr_array_add (self->spare, w);
  else
    waiting_free (w);
}

/**
 * cs_explain_tracker_new:
 * @n_cpus: the recording's CPUs
 * @func: (nullable): receives each closed pair
 * @user_data: for @func
 *
 * Wakeup pairs are those of Chronoscope's wakeup rule
 * (cs-plugin-wakeup.h), as the latency preset `wakeup` measures them: the
 * tracker keeps each task's state in the rule, fed with every
 * sched_waking, sched_wakeup and sched_wakeup_new (cs_explain_wake_events)
 * and sched_switch.
 *
 * Returns: (transfer full): a tracker that knows nothing yet: every CPU
 *   is unknown until its first sched_switch, every task until its first
 *   event
 */
CsExplainTracker *
cs_explain_tracker_new (guint              n_cpus,
                        CsExplainPairFunc  func,
                        gpointer           user_data)
{
  CsExplainTracker *self = g_new0 (CsExplainTracker, 1);

  self->n_cpus = n_cpus;
  self->cpus = g_new0 (Cpu, MAX (n_cpus, 1));
  for (guint c = 0; c < n_cpus; c++)
    {
      self->cpus[c].last_ns = G_MININT64;
      self->cpus[c].pid = -1;
      self->cpus[c].prio = -1;
      self->cpus[c].softirq = -1;
      self->cpus[c].waiting = g_ptr_array_new ();
      self->cpus[c].log = g_array_new (FALSE, FALSE, sizeof (Stretch));
    }
  self->formats = _cs_explain_formats_new ();
  self->tasks = _cs_explain_tasks_new (waiting_free);
  self->numbers = g_hash_table_new_full (_cs_explain_part_hash, _cs_explain_part_equal, g_free, NULL);
  self->numbered = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  self->spare = g_ptr_array_new_with_free_func (waiting_free);
  self->only_pid = -1;
  self->open_pairs = TRUE;
  self->func = func;
  self->user_data = user_data;
  return self;
}

/**
 * cs_explain_tracker_free:
 * @self: (transfer full): a tracker
 */
void
cs_explain_tracker_free (CsExplainTracker *self)
{
  for (guint c = 0; c < self->n_cpus; c++)
    {
      g_ptr_array_unref (self->cpus[c].waiting);
      g_array_unref (self->cpus[c].log);
    }
  g_free (self->cpus);
  _cs_explain_formats_free (self->formats);
  _cs_explain_tasks_free (self->tasks);
  g_hash_table_unref (self->numbers);
  g_array_unref (self->numbered);
  g_ptr_array_unref (self->spare);
  if (self->window != NULL)
    waiting_free (self->window);
  g_free (self->slice_cpus);
  g_free (self);
}

/**
 * cs_explain_tracker_set_only_pid:
 * @self: a tracker
 * @pid: the only task whose wakeups open pairs, or -1 for every task
 */
void
cs_explain_tracker_set_only_pid (CsExplainTracker *self,
                                 gint32            pid)
{
  self->only_pid = pid;
}

/**
 * cs_explain_tracker_set_min_ns:
 * @self: a tracker
 * @min_ns: the shortest pair handed to the tracker's #CsExplainPairFunc,
 *   ns (0: all of them); shorter ones close without a breakdown being
 *   built, which a sweep over millions of pairs keeping the longest needs.
 *   Above 0, what holds each CPU is logged once per stretch rather than
 *   added to every pair waiting there, and a pair takes the stretches of
 *   its wait only when it closes long enough (or moves to another CPU):
 *   the same parts, without the work for the short pairs
 */
void
cs_explain_tracker_set_min_ns (CsExplainTracker *self,
                               gint64            min_ns)
{
  /* Pairs given their time late must have what is logged first (and
   * the shortest pair is set before the first event, see enqueue()). */
  if (min_ns <= 0)
    for (guint c = 0; c < self->n_cpus; c++)
      take_log (self, c);
  self->min_ns = min_ns;
}

/**
 * cs_explain_tracker_set_record_slices:
 * @self: a tracker
 * @record: whether the pairs opened from now on keep their slices
 *   (#CsExplainBreakdown.slices): for a pair explained alone, not for a
 *   sweep over a whole recording
 */
void
cs_explain_tracker_set_record_slices (CsExplainTracker *self,
                                      gboolean          record)
{
  self->record_slices = record;
}

/**
 * cs_explain_tracker_set_slice_cpus:
 * @self: a tracker, with no pair open yet
 * @cpus: (array) (nullable): for each of the tracker's CPUs, whether the
 *   slices there are kept (copied); %NULL: all
 *
 * Keeps the slices of the pairs opened from now on (when
 * cs_explain_tracker_set_record_slices() asks for them) on those CPUs
 * alone: a caller that needs them only where the latency flags are read
 * (cs_explain_add_flag_sections()) saves storing a long wait's million
 * slices elsewhere.
 */
void
cs_explain_tracker_set_slice_cpus (CsExplainTracker *self,
                                   const gboolean   *cpus)
{
  g_clear_pointer (&self->slice_cpus, g_free);
  if (cpus != NULL)
    self->slice_cpus = g_memdup2 (cpus, MAX (self->n_cpus, 1) * sizeof (gboolean));
}

/**
 * cs_explain_tracker_set_open_pairs:
 * @self: a tracker
 * @open_pairs: whether the wakeup rule runs; %FALSE while reading what
 *   comes before a pair only to learn the CPUs' state (that reading skips
 *   other CPUs, so it must not move a task in the rule)
 *
 * Turning it back on starts the rule afresh, every task unknown: the
 * first wakeup of a task fed then opens its wait, as the first wakeup a
 * pair's A is.
 */
void
cs_explain_tracker_set_open_pairs (CsExplainTracker *self,
                                   gboolean          open_pairs)
{
  if (open_pairs && !self->open_pairs)
    _cs_explain_tasks_reset_rules (self->tasks);
  self->open_pairs = open_pairs;
}

/**
 * cs_explain_tracker_set_learning:
 * @self: a tracker
 * @learning: %TRUE while feeding what came before a time on one CPU only
 *   to learn its state (the CPU a waiting task moves to), %FALSE after
 *
 * Like cs_explain_tracker_set_open_pairs() with %FALSE, but the rule's
 * tasks are kept when it is turned off: the pairs open go on waiting.
 */
void
cs_explain_tracker_set_learning (CsExplainTracker *self,
                                 gboolean          learning)
{
  self->learning = learning;
}

/**
 * cs_explain_tracker_saw_switch:
 * @self: a tracker
 * @cpu: a CPU
 *
 * Returns: whether a sched_switch of @cpu was fed, so that its running
 *   task is known
 */
gboolean
cs_explain_tracker_saw_switch (CsExplainTracker *self,
                               guint             cpu)
{
  return cpu < self->n_cpus && self->cpus[cpu].saw_switch;
}

/* What holds @cpu now. */
static void
current (const Cpu            *cpu,
         CsExplainContributor *out)
{
  memset (out, 0, sizeof *out);
  out->id = cpu->pid;
  out->prio = cpu->prio;
  if (cpu->irq_depth > 0)
    {
      guint top = MIN (cpu->irq_depth, MAX_IRQ_NESTING) - 1;

      out->kind = CS_EXPLAIN_IRQ;
      out->id = cpu->irq[top];
      out->prio = -1;
      memcpy (out->name, cpu->irq_name[top], sizeof out->name);
      return;
    }
  if (cpu->softirq >= 0)
    {
      out->kind = CS_EXPLAIN_SOFTIRQ;
      out->id = cpu->softirq;
      out->prio = -1;
      g_strlcpy (out->name, cs_explain_softirq_name (cpu->softirq), sizeof out->name);
      return;
    }
  if (cpu->pid < 0)
    {
      out->kind = CS_EXPLAIN_UNKNOWN;
      out->id = -1;
      return;
    }
  memcpy (out->name, cpu->comm, sizeof out->name);
  if (cpu->irqs_off)
    {
      out->kind = CS_EXPLAIN_IRQS_OFF;
      out->source = cpu->irqs_off_source;
    }
  else if (cpu->preempt_off)
    {
      out->kind = CS_EXPLAIN_PREEMPT_OFF;
      out->source = cpu->preempt_off_source;
    }
  else if (cpu->pid == 0)
    {
      out->kind = CS_EXPLAIN_IDLE;
      out->id = -1;
      out->prio = -1;
      out->name[0] = '\0';
    }
  else
    out->kind = CS_EXPLAIN_TASK;
}

/* The number of contributor @c, the same for the same kind, id and name. */
static guint
number_of (CsExplainTracker           *self,
           const CsExplainContributor *c)
{
  guint slot = _cs_explain_part_hash (c) & (RECENT_NUMBERS - 1);
  const CsExplainContributor *seen = &self->recent[slot].c;
  gpointer n;

  /* current() zeroes the name's tail, so the names compare whole. */
  if (self->recent[slot].number != 0 && seen->kind == c->kind && seen->id == c->id &&
      memcmp (seen->name, c->name, sizeof c->name) == 0)
    return self->recent[slot].number - 1;
  n = g_hash_table_lookup (self->numbers, c);
  if (n == NULL)
    {
      n = GUINT_TO_POINTER (g_hash_table_size (self->numbers) + 1);
      g_hash_table_insert (self->numbers, g_memdup2 (c, sizeof *c), n);
      g_array_append_vals (self->numbered, c, 1);
    }
  self->recent[slot].c = *c;
  self->recent[slot].number = GPOINTER_TO_UINT (n);
  return GPOINTER_TO_UINT (n) - 1;
}

/* Gives @w the stretches of its CPU's log it has not had. */
static void
take_stretches (CsExplainTracker *self,
                Waiting          *w)
{
  Cpu *cpu;
  guint64 from;

  if (w->cpu >= self->n_cpus)
    return;
  cpu = &self->cpus[w->cpu];
  from = MAX (w->log_from, cpu->log_base) - cpu->log_base;
  if (from < cpu->log->len)
    _cs_explain_waiting_add_stretches (w, &g_array_index (cpu->log, Stretch, from),
                                       cpu->log->len - from,
                                       (const CsExplainContributor *) self->numbered->data,
                                       w->log_from_ns, w->cpu);
  w->log_from = cpu->log_base + cpu->log->len;
}

/* Gives every pair waiting on CPU @c its stretches and empties the log. */
static void
take_log (CsExplainTracker *self,
          guint             c)
{
  Cpu *cpu = &self->cpus[c];

  for (guint i = 0; i < cpu->waiting->len; i++)
    take_stretches (self, g_ptr_array_index (cpu->waiting, i));
  cpu->log_base += cpu->log->len;
  g_array_set_size (cpu->log, 0);
}

/* Adds the time since @cpu's last change to the pairs waiting there (or,
 * with a shortest pair, to its log: see take_stretches()). */
static void
flush (CsExplainTracker *self,
       guint             c,
       gint64            ts_ns)
{
  Cpu *cpu = &self->cpus[c];

  if (cpu->last_ns != G_MININT64 && ts_ns > cpu->last_ns && cpu->waiting->len > 0)
    {
      if (!cpu->now_known)
        {
          current (cpu, &cpu->now);
          cpu->now_key = number_of (self, &cpu->now);
          cpu->now_known = TRUE;
        }
      if (self->min_ns > 0)
        {
          Stretch e = { cpu->last_ns, ts_ns, cpu->now_key, cpu->now.prio, cpu->now.source };

          if (cpu->log->len == LOG_STRETCHES)
            take_log (self, c);
          g_array_set_size (cpu->log, cpu->log->len + 1);
          g_array_index (cpu->log, Stretch, cpu->log->len - 1) = e;
        }
      else
        for (guint i = 0; i < cpu->waiting->len; i++)
          _cs_explain_waiting_add_key_part (g_ptr_array_index (cpu->waiting, i), cpu->now_key,
                                            &cpu->now, cpu->last_ns, ts_ns, c);
    }
  if (cpu->last_ns == G_MININT64 || ts_ns > cpu->last_ns)
    cpu->last_ns = ts_ns;
}

/* The first sched_switch of a CPU says who ran before it: the time
 * counted as unknown on that CPU goes to that task. */
static void
resolve_unknown (Cpu        *cpu,
                 gint32      pid,
                 gint32      prio,
                 const char *comm)
{
  CsExplainContributor known = { .kind = pid == 0 ? CS_EXPLAIN_IDLE : CS_EXPLAIN_TASK,
                                 .id = pid == 0 ? -1 : pid, .prio = pid == 0 ? -1 : prio };

  if (pid != 0)
    g_strlcpy (known.name, comm, sizeof known.name);
  for (guint i = 0; i < cpu->waiting->len; i++)
    _cs_explain_waiting_resolve_unknown (g_ptr_array_index (cpu->waiting, i), &known);
}

static void
dequeue (CsExplainTracker *self,
         Waiting          *w)
{
  Cpu *cpu;

  if (w->cpu >= self->n_cpus)
    return;
  cpu = &self->cpus[w->cpu];
  g_ptr_array_remove_fast (cpu->waiting, w);
  if (cpu->waiting->len == 0)
    {
      cpu->log_base += cpu->log->len;
      g_array_set_size (cpu->log, 0);
    }
}

static void
enqueue (CsExplainTracker *self,
         Waiting          *w,
         guint             cpu,
         gint64            ts_ns)
{
  w->cpu = cpu < self->n_cpus ? cpu : G_MAXUINT;
  w->last_part = -1;
  if (w->cpu == G_MAXUINT)
    return;
  /* With a log, the stretch under way is not cut here (cutting it cost
   * every pair waiting on the CPU a stretch more): it is logged whole at
   * the CPU's next change, and @w takes it from @ts_ns on. */
  w->log_from_ns = ts_ns;
  if (self->min_ns <= 0 || self->cpus[cpu].last_ns == G_MININT64 ||
      ts_ns < self->cpus[cpu].last_ns)
    flush (self, cpu, ts_ns);
  g_ptr_array_add (self->cpus[cpu].waiting, w);
  w->log_from = self->cpus[cpu].log_base + self->cpus[cpu].log->len;
}

/* @pid's state in the wakeup rule, when the rule follows @pid (a task,
 * the tracker's only one if it has one, while pairs open); else NULL. */
static CsPluginWakeupState *
rule_state (CsExplainTracker *self,
            gint32            pid)
{
  if (!self->open_pairs || self->learning || pid <= 0 ||
      (self->only_pid >= 0 && pid != self->only_pid))
    return NULL;
  return &_cs_explain_tasks_ensure (self->tasks, pid)->rule;
}

/* @pid's open pair, or NULL. */
static inline Waiting *
waiting_of (CsExplainTracker *self,
            gint32            pid)
{
  CsExplainTask *task = _cs_explain_tasks_lookup (self->tasks, pid);

  return task != NULL ? task->waiting : NULL;
}

/* Takes @pid's open pair @w out of the table (the caller keeps it). */
static inline void
steal_waiting (CsExplainTracker *self,
               gint32            pid)
{
  _cs_explain_tasks_lookup (self->tasks, pid)->waiting = NULL;
}

/* Forgets @pid's open pair, if any (its wait dropped by the rule). */
static void
drop_waiting (CsExplainTracker *self,
              gint32            pid)
{
  Waiting *w = waiting_of (self, pid);

  if (w == NULL)
    return;
  dequeue (self, w);
  steal_waiting (self, pid);
  waiting_recycle (self, w);
}

/* A sched_switch of CPU @c at @ts_ns from @prev_pid (leaving in
 * @prev_state) to @next_pid, whose prio and comm are set already; the
 * CPU's time before it is flushed. */
static void
switch_to (CsExplainTracker *self,
           guint             c,
           gint64            ts_ns,
           gint32            prev_pid,
           gint64            prev_state,
           gint32            next_pid)
{
  Cpu *cpu = &self->cpus[c];
  CsPluginWakeupState *prev_rule = rule_state (self, prev_pid);
  CsPluginWakeupState *next_rule;
  Waiting *w;
  gboolean keep;

  cpu->saw_switch = TRUE;
  cpu->pid = next_pid;
  /* No task is switched inside an interrupt or a section: an exit lost
   * must not hold the CPU forever. */
  cpu->irq_depth = 0;
  cpu->softirq = -1;
  cpu->irqs_off = FALSE;
  cpu->preempt_off = FALSE;

  /* The rule: prev_pid leaves (a wait still open is dropped: its
   * switch-in was not seen), then next_pid runs (its wait ends here).
   * A sched_switch without prev_state (very old kernels) is runnable. */
  if (prev_rule != NULL && cs_plugin_wakeup_switch_out (prev_rule, prev_state))
    drop_waiting (self, prev_pid);
  next_rule = rule_state (self, next_pid);
  if (next_rule == NULL)
    return;
  if (!cs_plugin_wakeup_switch_in (next_rule, ts_ns, (gint32) c, NULL))
    {
      drop_waiting (self, next_pid);
      return;
    }
  w = waiting_of (self, next_pid);
  if (w == NULL)
    return;
  if (w->cpu != c && w->cpu < self->n_cpus)
    flush (self, w->cpu, ts_ns);
  keep = self->func != NULL && ts_ns - w->a_ns >= self->min_ns;
  if (keep)
    take_stretches (self, w);
  dequeue (self, w);
  steal_waiting (self, next_pid);
  if (keep)
    {
      g_autoptr(CsExplainBreakdown) b = _cs_explain_waiting_breakdown (w, ts_ns, c);

      self->func (b, self->user_data);
    }
  waiting_recycle (self, w);
}

static void
on_switch (CsExplainTracker    *self,
           const CsPluginEvent *event,
           const CsExplainFormat        *format)
{
  Cpu *cpu = &self->cpus[event->cpu];
  gint32 prev_pid = _cs_explain_get_int (event, &format->fields[F_PREV_PID], -1);

  if (cpu->pid < 0)
    {
      char prev_comm[CS_EXPLAIN_NAME_LEN];

      _cs_explain_copy_string (event, &format->fields[F_PREV_COMM], prev_comm, sizeof prev_comm);
      take_log (self, event->cpu);
      resolve_unknown (cpu, prev_pid,
                       _cs_explain_get_int (event, &format->fields[F_PREV_PRIO], -1), prev_comm);
    }
  cpu->prio = _cs_explain_get_int (event, &format->fields[F_NEXT_PRIO], -1);
  _cs_explain_copy_string (event, &format->fields[F_NEXT_COMM], cpu->comm, sizeof cpu->comm);
  /* A sched_switch without prev_state (very old kernels) is runnable. */
  switch_to (self, event->cpu, event->ts_ns, prev_pid,
             _cs_explain_get_int (event, &format->fields[F_PREV_STATE], 0),
             _cs_explain_get_int (event, &format->fields[F_NEXT_PID], -1));
}

/**
 * cs_explain_tracker_read_switch:
 * @self: a tracker
 * @event: a record
 * @next_pid: (out): its next_pid
 * @next_prio: (out): its next_prio (-1 when the record lacks it)
 * @next_comm: (out caller-allocates): its next_comm, zero-padded
 *
 * What the tracker would take of a sched_switch record's next task, for
 * cs_explain_tracker_switch().
 *
 * Returns: %FALSE when @event is not a sched_switch
 */
gboolean
cs_explain_tracker_read_switch (CsExplainTracker    *self,
                                const CsPluginEvent *event,
                                gint32              *next_pid,
                                gint32              *next_prio,
                                char                 next_comm[CS_EXPLAIN_NAME_LEN])
{
  const CsExplainFormat *format = _cs_explain_formats_classify (self->formats, event);

  if (format->kind != EV_SWITCH)
    return FALSE;
  *next_pid = _cs_explain_get_int (event, &format->fields[F_NEXT_PID], -1);
  *next_prio = _cs_explain_get_int (event, &format->fields[F_NEXT_PRIO], -1);
  _cs_explain_copy_string (event, &format->fields[F_NEXT_COMM], next_comm, CS_EXPLAIN_NAME_LEN);
  return TRUE;
}

/**
 * cs_explain_tracker_switch:
 * @self: a tracker
 * @cpu: a CPU whose running task is known (cs_explain_tracker_get_running())
 * @ts_ns: the switch's time, in order with the events fed
 * @prev_state: the leaving task's prev_state
 * @next_pid: the task switched in (0: idle)
 * @next_prio: its next_prio
 * @next_comm: its next_comm, as cs_explain_tracker_read_switch() gives it
 *
 * Takes a sched_switch known without its record (the index's slices,
 * cs_plugin_document_foreach_slice()): the same as feeding the record.
 */
void
cs_explain_tracker_switch (CsExplainTracker *self,
                           guint             cpu,
                           gint64            ts_ns,
                           gint32            prev_state,
                           gint32            next_pid,
                           gint32            next_prio,
                           const char        next_comm[CS_EXPLAIN_NAME_LEN])
{
  Cpu *c;

  g_return_if_fail (cpu < self->n_cpus && self->cpus[cpu].pid >= 0);
  c = &self->cpus[cpu];
  flush (self, cpu, ts_ns);
  c->now_known = FALSE;
  c->prio = next_prio;
  memcpy (c->comm, next_comm, sizeof c->comm);
  switch_to (self, cpu, ts_ns, c->pid, prev_state, next_pid);
}

/**
 * cs_explain_tracker_get_running:
 * @self: a tracker
 * @cpu: a CPU
 *
 * Returns: the pid running on @cpu by the sched_switch events fed (0:
 *   idle), or -1 when none was fed
 */
gint32
cs_explain_tracker_get_running (CsExplainTracker *self,
                                guint             cpu)
{
  return cpu < self->n_cpus ? self->cpus[cpu].pid : -1;
}

static void
on_wake (CsExplainTracker    *self,
         const CsPluginEvent *event,
         const CsExplainFormat        *format)
{
  gint32 pid = _cs_explain_get_int (event, &format->fields[F_PID], -1);
  gint64 target = _cs_explain_get_int (event, &format->fields[F_TARGET_CPU], event->cpu);
  CsPluginWakeupState *rule = rule_state (self, pid);
  Waiting *w;

  /* The rule: only the wakeup of a sleeping (or unknown) task opens a
   * wait; one of a task running, already woken or preempted changes
   * nothing. */
  if (rule == NULL || !cs_plugin_wakeup_wake (rule, event->ts_ns))
    return;
  drop_waiting (self, pid);
  w = waiting_take (self);
  w->pid = pid;
  w->prio = _cs_explain_get_int (event, &format->fields[F_PRIO], -1);
  w->a_ns = event->ts_ns;
  w->a_cpu = event->cpu;
  w->n_queued = 1;
  w->waker_pid = event->pid;
  w->waker_flags = _cs_explain_get_int (event, &format->fields[F_FLAGS], 0);
  _cs_explain_tasks_ensure (self->tasks, pid)->waiting = w;
  enqueue (self, w, target, event->ts_ns);
}

static void
on_migrate (CsExplainTracker    *self,
            const CsPluginEvent *event,
            const CsExplainFormat        *format)
{
  gint32 pid = _cs_explain_get_int (event, &format->fields[F_PID], -1);
  gint64 dest = _cs_explain_get_int (event, &format->fields[F_DEST_CPU], -1);
  Waiting *w = waiting_of (self, pid);

  if (w == NULL || dest < 0 || (guint) dest == w->cpu)
    return;
  if (w->cpu < self->n_cpus)
    flush (self, w->cpu, event->ts_ns);
  take_stretches (self, w);
  dequeue (self, w);
  enqueue (self, w, dest, event->ts_ns);
  w->n_queued++;
}

/**
 * cs_explain_tracker_interrupt:
 * @self: a tracker
 * @irq: an interrupt event from the index
 *   (cs_plugin_document_foreach_interrupt())
 *
 * Takes an interrupt event as cs_explain_tracker_event() takes its
 * record: the same event, without reading it.
 */
void
cs_explain_tracker_interrupt (CsExplainTracker        *self,
                              const CsPluginInterrupt *irq)
{
  Cpu *cpu;

  if (irq->cpu >= self->n_cpus)
    return;
  cpu = &self->cpus[irq->cpu];
  flush (self, irq->cpu, irq->ts_ns);
  /* What holds it changes now. */
  cpu->now_known = FALSE;
  switch (irq->kind)
    {
    case CS_PLUGIN_IRQ_ENTRY:
      if (cpu->irq_depth < MAX_IRQ_NESTING)
        {
          char *name = cpu->irq_name[cpu->irq_depth];

          /* As _cs_explain_copy_string() leaves a record's. */
          memset (name, 0, CS_EXPLAIN_NAME_LEN);
          if (irq->name != NULL)
            memcpy (name, irq->name, strnlen (irq->name, CS_EXPLAIN_NAME_LEN - 1));
          cpu->irq[cpu->irq_depth] = (gint32) irq->value;
        }
      cpu->irq_depth++;
      break;
    case CS_PLUGIN_IRQ_EXIT:
      if (cpu->irq_depth > 0)
        cpu->irq_depth--;
      break;
    case CS_PLUGIN_SOFTIRQ_ENTRY:
      cpu->softirq = irq->value;
      break;
    case CS_PLUGIN_SOFTIRQ_EXIT:
      cpu->softirq = -1;
      break;
    }
}

/**
 * cs_explain_tracker_event:
 * @self: a tracker
 * @event: the next event, in time order over all CPUs (or over one CPU
 *   while only learning its state)
 *
 * Takes one event: sched_switch, the wakeups (cs_explain_wake_events),
 * sched_migrate_task and the types of cs_explain_state_events; others
 * are ignored.  A pair
 * closed by a sched_switch reaches the tracker's #CsExplainPairFunc.
 *
 * Returns: %TRUE (a %gboolean for use as a feed's callback)
 */
gboolean
cs_explain_tracker_event (CsExplainTracker    *self,
                          const CsPluginEvent *event)
{
  const CsExplainFormat *format = _cs_explain_formats_classify (self->formats, event);
  CsExplainEventKind kind = format->kind;
  Cpu *cpu;

  if (kind == EV_OTHER || event->cpu >= self->n_cpus)
    return TRUE;
  if (kind >= EV_IRQ_ENTRY && kind <= EV_SOFTIRQ_EXIT)
    {
      char name[CS_EXPLAIN_NAME_LEN];
      CsPluginInterrupt irq;

      _cs_explain_interrupt_of_record (event, format, name, &irq);
      cs_explain_tracker_interrupt (self, &irq);
      return TRUE;
    }
  cpu = &self->cpus[event->cpu];
  /* A wakeup or a migration changes nothing of what holds its CPU: the
   * time before it and after it go to the same part, as one slice, so it
   * need not cut that CPU's time (on_wake() and on_migrate() flush the
   * CPUs they queue a task on or take it from).  Wakeups are more than
   * half of a sweep's events, and each cut costs every pair waiting on
   * the CPU. */
  if (kind != EV_WAKE && kind != EV_MIGRATE)
    {
      flush (self, event->cpu, event->ts_ns);
      /* What holds it may change now. */
      cpu->now_known = FALSE;
    }
  switch (kind)
    {
    case EV_SWITCH:
      on_switch (self, event, format);
      break;
    case EV_WAKE:
      on_wake (self, event, format);
      break;
    case EV_MIGRATE:
      on_migrate (self, event, format);
      break;
    case EV_IRQ_ENTRY:
    case EV_IRQ_EXIT:
    case EV_SOFTIRQ_ENTRY:
    case EV_SOFTIRQ_EXIT:
      /* Taken above, as the index's interrupt tables give them. */
      break;
    case EV_IRQS_OFF:
      cpu->irqs_off = TRUE;
      cpu->irqs_off_source = format->source;
      break;
    case EV_IRQS_ON:
      cpu->irqs_off = FALSE;
      break;
    case EV_PREEMPT_OFF:
      cpu->preempt_off = TRUE;
      cpu->preempt_off_source = format->source;
      break;
    case EV_PREEMPT_ON:
      cpu->preempt_off = FALSE;
      break;
    case EV_OTHER:
      break;
    }
  return TRUE;
}

/**
 * cs_explain_tracker_open_window:
 * @self: a tracker with no window open
 * @pid: the pair's task (for the breakdown's @pid)
 * @a_ns: the pair's A
 * @cpu: the CPU whose time is broken down (B's CPU)
 *
 * Starts breaking down what @cpu does from @a_ns, for a pair that is not
 * a wakeup (IRQ, softirq, system call, block, custom).  Feed the events
 * of @cpu from @a_ns on, then call cs_explain_tracker_close_window().
 */
void
cs_explain_tracker_open_window (CsExplainTracker *self,
                                gint32            pid,
                                gint64            a_ns,
                                guint             cpu)
{
  Waiting *w = g_new0 (Waiting, 1);

  g_return_if_fail (self->window == NULL);
  w->pid = pid;
  w->prio = -1;
  w->a_ns = a_ns;
  w->a_cpu = cpu;
  w->n_queued = 1;
  w->waker_pid = -1;
  w->parts = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  give_slices (self, w);
  self->window = w;
  enqueue (self, w, cpu, a_ns);
}

/**
 * cs_explain_tracker_close_window:
 * @self: a tracker with a window open
 * @b_ns: the pair's B, at or after the last event fed
 *
 * Returns: (transfer full): the window's breakdown
 */
CsExplainBreakdown *
cs_explain_tracker_close_window (CsExplainTracker *self,
                                 gint64            b_ns)
{
  Waiting *w = self->window;
  CsExplainBreakdown *b;

  g_return_val_if_fail (w != NULL, NULL);
  if (w->cpu < self->n_cpus)
    flush (self, w->cpu, b_ns);
  take_stretches (self, w);
  dequeue (self, w);
  b = _cs_explain_waiting_breakdown (w, b_ns, w->cpu < self->n_cpus ? w->cpu : w->a_cpu);
  self->window = NULL;
  waiting_free (w);
  return b;
}
