/* cs-range-stats.c: cs_document_compute_range_stats() and
 * cs_document_compute_task_times(), its task list alone.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The whole recording is answered from what the index keeps per recording:
 * task runtimes and event type counts from its tables, per-CPU busy time
 * from the coarsest level of its summaries (one column spanning the
 * recording).  A span reads only the index rows of that span: per CPU the
 * sched_switch slices overlapping it (in windows of about 64 Ki events, so
 * memory stays bounded) clipped to it, and the event chunks between the
 * span's first and last rows, for the type counts.  Wakeups come from the
 * task rows (the task timeline's walk, by the wakeup rule of
 * cs-plugin-wakeup.h that the latency plugin uses too) of the tasks the
 * span's sched_waking / sched_wakeup events name; for the whole recording
 * that is every task's rows, read once and then kept beside the index
 * (cs-range-wakeups.c).
 *
 * The task list alone (an export's legend) needs none of the event chunks
 * nor the wakeups: cs_document_compute_task_times() reads the slices of
 * the span, or of the rest of the recording when that is shorter.
 */
#include "config.h"


#include "cs-document-private.h"
#include "cs-range-stats.h"
#include "cs-range-wakeups-private.h"
#include "cs-task-timeline-private.h"

#include <event-parse.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

/**
 * cs_stream_span_from_axis:
 * @stream: a stream of a set
 * @begin_ns: start of a span of the set's common axis (inclusive)
 * @end_ns: its end (exclusive), >= @begin_ns
 * @own_begin_ns: (out): the span's start in @stream's own clock
 * @own_end_ns: (out): its end (exclusive), >= @own_begin_ns
 *
 * The span of @stream's recording that lands in [@begin_ns, @end_ns) of
 * the axis, for the statistics of one range over several recordings
 * (cs_document_compute_range_stats() on each, with its own span).  Each
 * end goes through cs_stream_from_axis_ns(); for a KVM guest, whose vCPUs
 * each have their own TIME_SHIFT offsets, the span is the smallest that
 * holds the range on every vCPU (the earliest start, the latest end).
 * The thread that owns @stream's document.
 */
void
cs_stream_span_from_axis (CsStream *stream,
                          gint64    begin_ns,
                          gint64    end_ns,
                          gint64   *own_begin_ns,
                          gint64   *own_end_ns)
{
  guint n_cpus = 1;

  g_return_if_fail (CS_IS_STREAM (stream));
  g_return_if_fail (own_begin_ns != NULL && own_end_ns != NULL);

  if (cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_GUEST)
    n_cpus = MAX (cs_document_get_n_cpus (cs_stream_get_document (stream)), 1);
  *own_begin_ns = G_MAXINT64;
  *own_end_ns = G_MININT64;
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      *own_begin_ns = MIN (*own_begin_ns, cs_stream_from_axis_ns (stream, cpu, begin_ns));
      *own_end_ns = MAX (*own_end_ns, cs_stream_from_axis_ns (stream, cpu, end_ns));
    }
  *own_end_ns = MAX (*own_end_ns, *own_begin_ns);
}

/**
 * cs_range_stats_free:
 * @stats: (transfer full) (nullable): statistics
 */
void
cs_range_stats_free (CsRangeStats *stats)
{
  if (stats == NULL)
    return;
  g_clear_pointer (&stats->tasks, g_array_unref);
  g_clear_pointer (&stats->cpus, g_array_unref);
  g_clear_pointer (&stats->event_types, g_array_unref);
  g_free (stats);
}

/* What a walk of the task timeline found (cs-task-timeline-private.h). */
typedef struct {
  gint64 begin_ns, end_ns;      /* the wakeups wanted */
  CsWakeupFunc func;            /* NULL: looking for @wakeup_ns's run */
  gpointer user_data;
  gint64 open_ns;               /* a wakeup in the span whose run lies past it, or -1 */
  gint64 wakeup_ns;             /* the wait looked for */
  gint64 run_ns;                /* its run when found, else -1 */
  gint32 cpu;
} WaitWalk;

static void
on_wait (const CsPluginWakeupWait *wait,
         gpointer                  user_data)
{
  WaitWalk *w = user_data;

  if (w->func == NULL)
    {
      if (wait->wakeup_ns == w->wakeup_ns && wait->run_ns >= 0)
        {
          w->run_ns = wait->run_ns;
          w->cpu = wait->cpu;
        }
      else if (wait->wakeup_ns == w->wakeup_ns)
        w->open_ns = wait->wakeup_ns;
      return;
    }
  if (wait->wakeup_ns < w->begin_ns || wait->wakeup_ns >= w->end_ns)
    return;
  if (wait->run_ns >= 0)
    w->func (wait->wakeup_ns, wait->run_ns, wait->cpu, w->user_data);
  else
    w->open_ns = wait->wakeup_ns;
}

/* The run that ended the wait of @pid woken at @wakeup_ns, when a walk of
 * a span ending at @end_ns could not say: it is exact only before @end_ns
 * (rows of other CPUs after it are not read), so walk again from the
 * wakeup on, over longer and longer spans.  FALSE when the recording ends
 * first, or the task leaves a CPU first (no wakeup then), or on error. */
static gboolean
find_run_after (CsDocument  *doc,
                gint32       pid,
                gint64       wakeup_ns,
                gint64       end_ns,
                gint64      *run_ns,
                gint32      *cpu,
                GError     **error)
{
  gint64 last_ns = cs_document_get_last_ns (doc);
  gint64 step = MAX (end_ns - wakeup_ns, 1000000);

  for (gint64 e = end_ns; ; e = e > last_ns - step ? last_ns + 1 : e + step, step *= 2)
    {
      WaitWalk w = { .open_ns = -1, .wakeup_ns = wakeup_ns, .run_ns = -1 };

      if (!_cs_document_walk_task (doc, pid, wakeup_ns, MAX (e, wakeup_ns + 1), NULL,
                                   on_wait, &w, error))
        return FALSE;
      if (w.run_ns >= 0)
        {
          *run_ns = w.run_ns;
          *cpu = w.cpu;
          return TRUE;
        }
      if (w.open_ns < 0 || e > last_ns)
        return FALSE;
    }
}

/**
 * cs_document_foreach_wakeup:
 * @self: a document
 * @pid: a task (> 0)
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @func: called for each wakeup, in time order
 * @user_data: for @func
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * The wakeup latencies of @pid whose wakeup (the sched_waking, sched_wakeup
 * or sched_wakeup_new that opened the wait) lies in the span, by the one
 * rule of cs-plugin-wakeup.h, the latency plugin's too: from the first
 * wakeup of a sleeping task to its switch-in (a wait the end of the
 * recording cuts is not one).  The run that ends a wait may lie past
 * @end_ns; it is then looked for there.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_foreach_wakeup (CsDocument     *self,
                            gint32          pid,
                            gint64          begin_ns,
                            gint64          end_ns,
                            CsWakeupFunc    func,
                            gpointer        user_data,
                            GError        **error)
{
  WaitWalk w = { begin_ns, end_ns, func, user_data, -1 };
  GError *local = NULL;
  gint64 run_ns;
  gint32 cpu;

  g_return_val_if_fail (func != NULL, FALSE);

  if (pid <= 0 || begin_ns >= end_ns)
    return TRUE;
  if (!_cs_document_walk_task (self, pid, begin_ns, end_ns, NULL, on_wait, &w, error))
    return FALSE;
  if (w.open_ns < 0)
    return TRUE;
  if (find_run_after (self, pid, w.open_ns, end_ns, &run_ns, &cpu, &local))
    func (w.open_ns, run_ns, cpu, user_data);
  else if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

static int
compare_task_time (gconstpointer a,
                   gconstpointer b)
{
  const CsTaskTime *x = a, *y = b;

  if (x->runtime_ns != y->runtime_ns)
    return x->runtime_ns > y->runtime_ns ? -1 : 1;
  return x->pid - y->pid;
}

static int
compare_type_count (gconstpointer a,
                    gconstpointer b)
{
  const CsTypeCount *x = a, *y = b;

  if (x->n_events != y->n_events)
    return x->n_events > y->n_events ? -1 : 1;
  return (int) x->type_id - (int) y->type_id;
}

/* sched_waking, sched_wakeup and sched_wakeup_new (the rule's
 * CS_PLUGIN_WAKEUP_EVENTS): the events that start a wakeup; their "pid" field names the task woken
 * (events/sched/sched_waking/format).  Only the tasks they name in a span
 * can have a wakeup there, so a span's statistics ask only those. */
typedef struct {
  CsTraceFile *file;
  struct tep_format_field **pid_fields;     /* per type id; NULL: not a wakeup */
  GHashTable *pids;                          /* the tasks woken */
} WakeupTargets;

static void
wakeup_targets_init (WakeupTargets *w,
                     CsDocument    *doc)
{
  struct tep_handle *tep;
  guint n = cs_document_get_n_event_types (doc);

  w->file = cs_document_get_trace_file (doc);
  w->pid_fields = g_new0 (struct tep_format_field *, MAX (n, 1));
  w->pids = g_hash_table_new (NULL, NULL);
  tep = w->file ? cs_trace_file_get_tep (w->file) : NULL;
  for (guint id = 0; tep != NULL && id < n; id++)
    {
      static const char *const wakeups[] = { CS_PLUGIN_WAKEUP_EVENTS ("sched:"), NULL };
      const CsEventType *type = cs_document_get_event_type (doc, id);
      g_autofree char *system_name = g_strdup_printf ("%s:%s", type->system, type->name);
      struct tep_event *event;

      if (!g_strv_contains (wakeups, system_name))
        continue;
      event = tep_find_event_by_name (tep, type->system, type->name);
      w->pid_fields[id] = event ? tep_find_field (event, "pid") : NULL;
    }
}

static void
wakeup_targets_clear (WakeupTargets *w)
{
  g_clear_pointer (&w->pid_fields, g_free);
  g_clear_pointer (&w->pids, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WakeupTargets, wakeup_targets_clear)

/* Notes the task a wakeup event of @cpu at @offset names. */
static gboolean
wakeup_targets_add (WakeupTargets  *w,
                    guint           cpu,
                    guint64         offset,
                    guint           type_id,
                    GError        **error)
{
  struct tep_format_field *field = w->pid_fields[type_id];
  unsigned long long pid;
  CsRecord rec;

  if (!cs_trace_file_read_at (w->file, cpu, offset, &rec, error))
    return FALSE;
  if ((gsize) field->offset + field->size <= (gsize) rec.tep_record->size &&
      tep_read_number_field (field, rec.tep_record->data, &pid) == 0)
    g_hash_table_add (w->pids, GINT_TO_POINTER ((gint32) pid));
  return TRUE;
}

/* The tasks that ran in the whole recording, from the index's tasks table
 * (the sum of each task's sched_switch slices, see cs-cpu-scanner.c),
 * appended to @tasks (CsTaskTime, unsorted, share 0). */
static void
whole_task_times (CsDocument *doc,
                  GArray     *tasks)
{
  for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
    {
      const CsTask *task = cs_document_get_task (doc, i);
      CsTaskTime t = { task->pid, task->runtime_ns, 0 };

      if (task->pid != 0 && task->runtime_ns > 0)
        g_array_append_val (tasks, t);
    }
}

/* Adds to @runtimes (pid -> gint64*, created as needed) each task's time on
 * @cpu in [@b_ns, @e_ns), its sched_switch slices clipped to the span, and
 * to *@busy_ns their sum.  Reads the slices in windows of about 64 Ki
 * events, so memory stays bounded whatever the span. */
static gboolean
add_cpu_runtimes (CsDocument  *doc,
                  guint        cpu,
                  gint64       b_ns,
                  gint64       e_ns,
                  GHashTable  *runtimes,
                  gint64      *busy_ns,
                  GError     **error)
{
  const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
  g_autoptr(GArray) slices = NULL;
  double fraction;
  guint n_windows;

  if (info->n_events == 0 || !info->has_sched_switch || b_ns >= e_ns)
    return TRUE;
  slices = g_array_new (FALSE, FALSE, sizeof (CsSlice));
  fraction = (double) (e_ns - b_ns) / MAX (cs_document_get_last_ns (doc) + 1 - cs_document_get_first_ns (doc), 1);
  n_windows = (guint) CLAMP (info->n_events * fraction / 65536, 1, 65536);
  for (guint w = 0; w < n_windows; w++)
    {
      gint64 w0 = b_ns + (gint64) ((__int128) (e_ns - b_ns) * w / n_windows);
      gint64 w1 = b_ns + (gint64) ((__int128) (e_ns - b_ns) * (w + 1) / n_windows);

      g_array_set_size (slices, 0);
      if (w0 >= w1)
        continue;
      if (!cs_document_get_slices (doc, cpu, w0, w1, slices, error))
        return FALSE;
      for (guint i = 0; i < slices->len; i++)
        {
          const CsSlice *s = &g_array_index (slices, CsSlice, i);
          gint64 part;
          gint64 *runtime;

          if (w > 0 && s->begin_ns < w0)
            continue;   /* counted in the window where it began */
          part = MIN (s->end_ns, e_ns) - MAX (s->begin_ns, b_ns);
          if (part <= 0 || s->pid == 0)
            continue;
          *busy_ns += part;
          runtime = g_hash_table_lookup (runtimes, GINT_TO_POINTER (s->pid));
          if (runtime == NULL)
            {
              runtime = g_new0 (gint64, 1);
              g_hash_table_insert (runtimes, GINT_TO_POINTER (s->pid), runtime);
            }
          *runtime += part;
        }
    }
  return TRUE;
}

/* Each task's share of the span's CPU time (its duration times the number
 * of CPUs), then longest first (ties: lower pid first). */
static void
finish_task_times (CsDocument *doc,
                   GArray     *tasks,
                   gint64      begin_ns,
                   gint64      end_ns)
{
  double cpu_time = (double) (end_ns - begin_ns) * MAX (cs_document_get_n_cpus (doc), 1);

  for (guint i = 0; i < tasks->len; i++)
    {
      CsTaskTime *t = &g_array_index (tasks, CsTaskTime, i);
      t->share = cpu_time > 0 ? t->runtime_ns / cpu_time : 0;
    }
  g_array_sort (tasks, compare_task_time);
}

/* Clips [*@begin_ns, *@end_ns) to the recording ([first event, last
 * event]); TRUE when it then covers all of it. */
static gboolean
clip_span (CsDocument *doc,
           gint64     *begin_ns,
           gint64     *end_ns)
{
  gint64 first = cs_document_get_first_ns (doc), last = cs_document_get_last_ns (doc);

  *begin_ns = MAX (*begin_ns, first);
  *end_ns = MIN (*end_ns, last == G_MAXINT64 ? last : last + 1);
  *end_ns = MAX (*end_ns, *begin_ns);
  return *begin_ns == first && *end_ns == last + 1;
}

/* Appends @runtimes (pid -> gint64*) to @tasks as CsTaskTime. */
static void
append_runtimes (GHashTable *runtimes,
                 GArray     *tasks)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, runtimes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsTaskTime t = { GPOINTER_TO_INT (key), *(gint64 *) value, 0 };
      g_array_append_val (tasks, t);
    }
}

static gboolean
whole_recording (CsDocument    *doc,
                 CsRangeStats  *stats,
                 GError       **error)
{
  stats->n_events = cs_document_get_n_events (doc);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
      CsCpuBusy b = { cpu, 0, info->n_events };
      CsColumn column;

      if (info->n_events > 0 && info->has_sched_switch)
        {
          if (!cs_document_get_cpu_columns (doc, cpu, stats->begin_ns, stats->end_ns, 1, &column, error))
            return FALSE;
          b.busy_ns = column.busy_ns;
        }
      g_array_append_val (stats->cpus, b);
    }
  whole_task_times (doc, stats->tasks);
  for (guint id = 0; id < cs_document_get_n_event_types (doc); id++)
    {
      CsTypeCount c = { id, cs_document_get_event_type (doc, id)->n_events };

      if (c.n_events > 0)
        g_array_append_val (stats->event_types, c);
    }
  return TRUE;
}

/* Per CPU: busy time, task runtimes (into @runtimes, pid -> gint64*) and
 * event counts per type (into @type_counts, n_event_types) of the span. */
static gboolean
scan_cpu (CsDocument    *doc,
          CsRangeStats  *stats,
          guint          cpu,
          GHashTable    *runtimes,
          guint64       *type_counts,
          WakeupTargets *targets,
          GError       **error)
{
  const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
  CsCpuBusy b = { cpu, 0, 0 };
  gint64 b_ns = stats->begin_ns, e_ns = stats->end_ns;
  guint64 row, row_end;

  if (!add_cpu_runtimes (doc, cpu, b_ns, e_ns, runtimes, &b.busy_ns, error))
    return FALSE;
  if (info->n_events > 0 && b_ns <= info->last_ns && e_ns > info->first_ns)
    {
      row = _cs_document_count_before (doc, cpu, b_ns, error);
      row_end = row == G_MAXUINT64 ? row : _cs_document_count_before (doc, cpu, e_ns, error);
      if (row == G_MAXUINT64 || row_end == G_MAXUINT64)
        return FALSE;
      b.n_events = row_end - row;
      while (row < row_end)
        {
          CsEventChunkCache *cache = _cs_document_get_chunk (doc, cpu, row / CS_EVENT_CHUNK_ROWS, error);
          guint i, n;

          if (cache == NULL)
            return FALSE;
          if (row < cache->first_row || row - cache->first_row >= cache->n)
            {
              g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                           _("The index %s misplaces event %" PRIu64 " of CPU %u"),
                           cs_document_get_index_path (doc), row, cpu);
              return FALSE;
            }
          i = row - cache->first_row;
          n = (guint) MIN ((guint64) cache->n, row_end - cache->first_row);
          for (; i < n; i++, row++)
            {
              gint64 type = cache->cols[EV_TYPE][i];

              if (type < 0 || type >= cs_document_get_n_event_types (doc))
                continue;
              type_counts[type]++;
              if (targets->pid_fields[type] != NULL &&
                  !wakeup_targets_add (targets, cpu, (guint64) cache->cols[EV_OFFSET][i], type, error))
                return FALSE;
            }
        }
    }
  stats->n_events += b.n_events;
  g_array_append_val (stats->cpus, b);
  return TRUE;
}

static void
add_pid (gpointer key,
         gpointer value,
         gpointer user_data)
{
  g_hash_table_add (user_data, key);
}

static gboolean
span (CsDocument    *doc,
      CsRangeStats  *stats,
      GHashTable    *woken,
      GCancellable  *cancellable,
      GError       **error)
{
  g_auto(WakeupTargets) targets = { 0 };
  g_autoptr(GHashTable) runtimes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autofree guint64 *type_counts = g_new0 (guint64, MAX (cs_document_get_n_event_types (doc), 1));

  wakeup_targets_init (&targets, doc);
  if (targets.file == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("The recording %s can no longer be read"), cs_document_get_trace_path (doc));
      return FALSE;
    }
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !scan_cpu (doc, stats, cpu, runtimes, type_counts, &targets, error))
        return FALSE;
    }
  g_hash_table_foreach (targets.pids, add_pid, woken);
  append_runtimes (runtimes, stats->tasks);
  for (guint id = 0; id < cs_document_get_n_event_types (doc); id++)
    {
      CsTypeCount c = { id, type_counts[id] };

      if (c.n_events > 0)
        g_array_append_val (stats->event_types, c);
    }
  return TRUE;
}

/**
 * cs_document_compute_range_stats:
 * @self: a document
 * @begin_ns: start of the span (inclusive); G_MININT64 for the start of
 *   the recording
 * @end_ns: end of the span (exclusive); G_MAXINT64 for the end of the
 *   recording
 * @cancellable: (nullable): checked between CPUs and between tasks
 *   (%G_IO_ERROR_CANCELLED)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT when the index
 *   cannot be read, %G_IO_ERROR_CANCELLED
 *
 * Statistics of [@begin_ns, @end_ns): per task CPU time and share, per CPU
 * busy time and events, events per type, and the wakeup latency summary.
 * The span is clipped to the recording ([first event, last event]); when
 * it covers all of it the figures come from the index's tables and
 * summaries.  Blocks for as long as it reads: call it off the main
 * thread for long spans.
 *
 * Returns: (transfer full): the statistics, or %NULL with @error set
 */
CsRangeStats *
cs_document_compute_range_stats (CsDocument    *self,
                                 gint64         begin_ns,
                                 gint64         end_ns,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  g_autoptr(CsRangeStats) stats = g_new0 (CsRangeStats, 1);
  g_autoptr(GHashTable) woken = NULL;
  gboolean ok;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), NULL);

  stats->begin_ns = begin_ns;
  stats->end_ns = end_ns;
  stats->whole = clip_span (self, &stats->begin_ns, &stats->end_ns);
  stats->tasks = g_array_new (FALSE, FALSE, sizeof (CsTaskTime));
  stats->cpus = g_array_new (FALSE, FALSE, sizeof (CsCpuBusy));
  stats->event_types = g_array_new (FALSE, FALSE, sizeof (CsTypeCount));

  woken = g_hash_table_new (NULL, NULL);
  ok = stats->whole ? whole_recording (self, stats, error) : span (self, stats, woken, cancellable, error);
  if (!ok)
    return NULL;
  if (!_cs_range_stats_add_wakeups (self, stats, stats->whole ? NULL : woken, cancellable, error))
    return NULL;

  finish_task_times (self, stats->tasks, stats->begin_ns, stats->end_ns);
  g_array_sort (stats->event_types, compare_type_count);
  return g_steal_pointer (&stats);
}

/**
 * cs_document_compute_task_times:
 * @self: a document
 * @begin_ns: start of the span (inclusive); G_MININT64 for the start of
 *   the recording
 * @end_ns: end of the span (exclusive); G_MAXINT64 for the end of the
 *   recording
 * @cancellable: (nullable): checked between CPUs (%G_IO_ERROR_CANCELLED)
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT when the index
 *   cannot be read, %G_IO_ERROR_CANCELLED
 *
 * The tasks that ran in [@begin_ns, @end_ns) and for how long: the
 * #CsRangeStats.tasks of cs_document_compute_range_stats() for the same
 * span, the same figures in the same order, without the rest of the
 * statistics (no event counts, no wakeup latencies).  The time of a task
 * is that of its sched_switch slices (events/sched/sched_switch) clipped
 * to the span, the span itself clipped to the recording.
 *
 * It reads only what the span needs: for the whole recording nothing
 * (the index's tasks table, already in memory); for a span, the slice
 * chunks of the span, or, when the span is longer than half the
 * recording, those outside it, subtracted from the tasks table's totals.
 * So its cost is at most that of half the recording's sched_switch
 * events (about 0.04 s per million on the benchmark machine), and its
 * memory a window of about 64 Ki slices per CPU plus one entry per task.
 * Any thread, on a document used by that thread only.
 *
 * Returns: (transfer full) (element-type CsTaskTime): the tasks (never
 *   pid 0), longest first, ties by increasing pid; %NULL with @error set
 */
GArray *
cs_document_compute_task_times (CsDocument    *self,
                                gint64         begin_ns,
                                gint64         end_ns,
                                GCancellable  *cancellable,
                                GError       **error)
{
  g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (CsTaskTime));
  g_autoptr(GHashTable) runtimes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gint64 first = cs_document_get_first_ns (self), last = cs_document_get_last_ns (self);
  gboolean outside;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), NULL);

  if (clip_span (self, &begin_ns, &end_ns))
    {
      whole_task_times (self, tasks);
      finish_task_times (self, tasks, begin_ns, end_ns);
      return g_steal_pointer (&tasks);
    }

  /* The part of the recording to read: the span, or what lies outside
   * (not for a damaged recording whose last event has no end). */
  outside = last < G_MAXINT64 &&
            (guint64) end_ns - (guint64) begin_ns > ((guint64) last + 1 - (guint64) first) / 2;
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (self); cpu++)
    {
      gint64 busy_ns = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (outside
          ? !add_cpu_runtimes (self, cpu, first, begin_ns, runtimes, &busy_ns, error) ||
            !add_cpu_runtimes (self, cpu, end_ns, last + 1, runtimes, &busy_ns, error)
          : !add_cpu_runtimes (self, cpu, begin_ns, end_ns, runtimes, &busy_ns, error))
        return NULL;
    }

  if (!outside)
    append_runtimes (runtimes, tasks);
  else
    {
      g_autoptr(GArray) whole = g_array_new (FALSE, FALSE, sizeof (CsTaskTime));

      whole_task_times (self, whole);
      for (guint i = 0; i < whole->len; i++)
        {
          CsTaskTime t = g_array_index (whole, CsTaskTime, i);
          gint64 *out_ns = g_hash_table_lookup (runtimes, GINT_TO_POINTER (t.pid));

          t.runtime_ns -= out_ns != NULL ? *out_ns : 0;
          if (t.runtime_ns > 0)
            g_array_append_val (tasks, t);
        }
    }
  finish_task_times (self, tasks, begin_ns, end_ns);
  return g_steal_pointer (&tasks);
}
