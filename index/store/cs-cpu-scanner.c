/* cs-cpu-scanner.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The hot loop of indexing: for each record, its pid and event type, one
 * row in the current event chunk, a few counters; for sched_switch also the
 * end of one slice and the start of the next.  No allocation per event:
 * rows go into fixed column arrays that are encoded when full.
 *
 * Records are read in batches: decoded into the event columns (with what
 * the summaries need of sched_switch and wakeup records, copied out by
 * cs-cpu-scan-fields.c), then summarised, then encoded when a chunk is
 * full, so that each step's CPU time can be measured per batch
 * (cs-index-steps.c, CHRONOSCOPE_INDEX_STEPS=1).
 */
#include "config.h"

#include <event-parse.h>
#include <glib/gi18n-lib.h>

#include "cs-cpu-scan-private.h"
#include "cs-index-steps.h"




/* Records between two looks at the cancellable (a power of two). */
#define CANCEL_CHECK_RECORDS 256


/* Runs and wakeups wait per task until a chunk of CS_TASK_CHUNK_ROWS is
 * full.  A recording can hold any number of tasks (a fork loop makes tens
 * of thousands, each with a few rows), so their buffers start small and
 * grow, and when the buffers of one scan pass this budget every task's
 * rows are written out as shorter chunks and the buffers freed: memory
 * stays within the budget per scanning thread, whatever the recording.
 * TASK_ROWS_BUDGET_BYTES is the default of _cs_scan_task_rows_budget_bytes. */
#define TASK_ROWS_FIRST 8
#define TASK_ROWS_BUDGET_BYTES (4 * 1024 * 1024)

/* Tests lower it to make every path of the budget run on small files. */
gsize _cs_scan_task_rows_budget_bytes = TASK_ROWS_BUDGET_BYTES;


G_STATIC_ASSERT (TK_N_COLUMNS == TK_N_COLUMNS_PUBLIC);

void
_cs_scan_task_free (gpointer data)
{
  CsScanTask *task = data;

  g_free (task->rows);
  g_free (task);
}

void
cs_scan_result_free (CsScanResult *result)
{
  if (result == NULL)
    return;
  g_free (result->type_counts);
  g_clear_pointer (&result->losses, g_array_unref);
  g_clear_pointer (&result->tasks, g_hash_table_unref);
  _cs_scan_names_clear (&result->irq_names);
  _cs_scan_names_clear (&result->comm_names);
  g_free (result);
}

static inline CsScanTask *
lookup_task (ScanState *st,
             gint32     pid)
{
  guint slot = (guint) pid & (TASK_CACHE_SLOTS - 1);
  CsScanTask *task;

  if (G_LIKELY (st->cache_task[slot] != NULL && st->cache_pid[slot] == pid))
    return st->cache_task[slot];

  task = g_hash_table_lookup (st->result->tasks, GINT_TO_POINTER (pid));
  if (task == NULL)
    {
      task = g_new0 (CsScanTask, 1);
      task->comm_ts = -1;
      g_hash_table_insert (st->result->tasks, GINT_TO_POINTER (pid), task);
    }
  /* Tasks stay in the table until the scan ends: the pointer stays good. */
  st->cache_pid[slot] = pid;
  st->cache_task[slot] = task;
  return task;
}

static void
flush_events (ScanState *st)
{
  CsScanChunk *chunk;

  if (st->n_ev == 0)
    return;

  /* Not zstd: on event chunks it cost ~15 % of indexing time (a callgrind
   * profile) for ~1 byte per event; the varints stay within the 10 bytes
   * per event DESIGN.md allows.  Encoded where the chunk goes (see
   * CsScanChunk.raw). */
  chunk = _cs_scan_chunk_take_rows (CS_SCAN_EVENT_CHUNK, st->result->cpu, st->n_event_chunks++,
                                    st->ev[EV_TS][0], st->ev[EV_TS][st->n_ev - 1], st->n_ev,
                                    (gint64 *) st->ev, EV_N_COLUMNS, CS_EVENT_CHUNK_ROWS,
                                    _cs_event_chunk_modes);
  st->ev = (gpointer) _cs_scan_columns_new (EV_N_COLUMNS, CS_EVENT_CHUNK_ROWS);
  chunk->first_row = st->result->n_events - st->n_ev;
  st->n_ev = st->n_summarised = 0;
  st->emit (chunk, st->emit_data);
}

static void
flush_slices (ScanState *st)
{
  if (st->n_sl > 0)
    _cs_cpu_scan_emit_rows (st, CS_SCAN_SLICE_CHUNK, &st->n_slice_chunks, st->sl[SL_BEGIN][0],
                            st->sl_last_end, &st->n_sl, (gpointer *) &st->sl, SL_N_COLUMNS,
                            CS_SLICE_CHUNK_ROWS, _cs_slice_chunk_modes);
}

static void
flush_task (ScanState  *st,
            gint32      pid,
            CsScanTask *task)
{
  CsScanChunk *chunk;
  gint64 *raw;
  gint64 first = G_MAXINT64, last = G_MININT64;

  if (task->n_rows == 0)
    return;
  raw = _cs_scan_columns_new (TK_N_COLUMNS, task->n_rows);
  for (guint i = 0; i < task->n_rows; i++)
    {
      for (guint c = 0; c < TK_N_COLUMNS; c++)
        raw[c * task->n_rows + i] = task->rows[i][c];
      first = MIN (first, task->rows[i][TK_TS]);
      last = MAX (last, task->rows[i][TK_TS] + task->rows[i][TK_DURATION]);
    }

  /* Not zstd, as for events: zstd here cost more time than the bytes it
   * saved. */
  chunk = _cs_scan_chunk_take_rows (CS_SCAN_TASK_CHUNK, st->result->cpu, task->n_chunks++, first,
                                    last, task->n_rows, raw, TK_N_COLUMNS, task->n_rows,
                                    _cs_task_chunk_modes);
  chunk->pid = pid;
  task->n_rows = 0;
  st->emit (chunk, st->emit_data);
}

/* Writes out every task's rows and frees their buffers (see
 * TASK_ROWS_BUDGET_BYTES). */
static void
flush_all_tasks (ScanState *st)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, st->result->tasks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsScanTask *task = value;

      flush_task (st, GPOINTER_TO_INT (key), task);
      g_clear_pointer (&task->rows, g_free);
      task->n_alloc = 0;
    }
  st->task_rows_bytes = 0;
}

static void
add_task_row (ScanState *st,
              gint32     pid,
              gint64     ts_ns,
              gint64     duration_ns,
              int        kind,
              gint64     prev_state)
{
  CsScanTask *task = lookup_task (st, pid);
  gint64 *row;

  if (task->n_rows == task->n_alloc)
    {
      guint n_alloc = task->n_alloc == 0 ? TASK_ROWS_FIRST
                                         : MIN (task->n_alloc * 2, CS_TASK_CHUNK_ROWS);

      task->rows = g_realloc (task->rows, sizeof (gint64[TK_N_COLUMNS]) * n_alloc);
      st->task_rows_bytes += sizeof (gint64[TK_N_COLUMNS]) * (n_alloc - task->n_alloc);
      task->n_alloc = n_alloc;
    }
  row = task->rows[task->n_rows];
  row[TK_TS] = ts_ns;
  row[TK_DURATION] = duration_ns;
  row[TK_KIND] = kind;
  row[TK_STATE] = prev_state;
  if (++task->n_rows == CS_TASK_CHUNK_ROWS)
    flush_task (st, pid, task);
  else if (st->task_rows_bytes > _cs_scan_task_rows_budget_bytes)
    flush_all_tasks (st);
}

/* The flags of @task's slice about to be stored (SL_FLAG_SWITCHED,
 * SL_FLAG_SAME_TASK: CS_SLICE_SWITCHED's meaning, cs-document.h), and what the next one compares
 * with.  A slice is switched when the sched_switch events around it,
 * and every one since the CPU's previous slice, each switched out the
 * task the one before had switched in: then the slices alone tell who
 * ran when (the gaps are idle), as the records would.  The running
 * task's comm and prio are those of the switch that began the slice. */
static gint64
slice_flags (ScanState  *st,
             CsScanTask *task,
             int         kind)
{
  gint64 flags = 0;

  if (kind == TK_KIND_RUN && st->switches_seen)
    {
      flags = SL_FLAG_SWITCHED;
      if (task->has_run && task->run_prio == st->running_prio &&
          task->run_comm_len == st->running_comm_len &&
          memcmp (task->run_comm, st->running_comm, MAX (st->running_comm_len, 0)) == 0)
        flags |= SL_FLAG_SAME_TASK;
      task->has_run = TRUE;
      task->run_prio = st->running_prio;
      task->run_comm_len = st->running_comm_len;
      memcpy (task->run_comm, st->running_comm, sizeof task->run_comm);
      if (!(flags & SL_FLAG_SAME_TASK))
        task->run_comm_id = -1;
    }
  else
    task->has_run = FALSE;
  st->switches_seen = TRUE;
  return flags;
}

/* The SL_COMM of a slice of @task that began with a sched_switch to it
 * (kind TK_KIND_RUN): the position of that switch's next_comm among the
 * CPU's comm_names, -1 when the record had none.  The task's runs mostly
 * repeat the comm of its run before, known by its id without a lookup. */
static gint64
slice_comm_id (ScanState  *st,
               CsScanTask *task,
               gint64      flags)
{
  char comm[17];
  gint64 id;

  if (st->running_comm_len < 0)
    return -1;
  if ((flags & SL_FLAG_SAME_TASK) && task->has_run && task->run_comm_id >= 0)
    return task->run_comm_id;
  memcpy (comm, st->running_comm, 16);
  comm[MIN (st->running_comm_len, 16)] = '\0';
  id = _cs_scan_names_id (&st->result->comm_names, comm);
  if (task->has_run)
    task->run_comm_id = id;
  return id;
}

/* A run of @pid on the CPU; @kind is TK_KIND_RUN or TK_KIND_RUN_UNSEEN
 * for its task row. */
static void
add_slice (ScanState *st,
           gint32     pid,
           gint64     begin_ns,
           gint64     end_ns,
           gint32     prev_state,
           int        kind)
{
  guint i = st->n_sl;
  CsScanTask *task;

  if (pid == 0 || end_ns <= begin_ns)
    return;
  task = lookup_task (st, pid);
  st->sl[SL_BEGIN][i] = begin_ns;
  st->sl[SL_DURATION][i] = _cs_span_ns (begin_ns, end_ns);
  st->sl[SL_PID][i] = pid;
  st->sl[SL_STATE][i] = prev_state;
  st->sl[SL_FLAGS][i] = slice_flags (st, task, kind);
  /* Who began the slice, as its sched_switch named them: a breakdown of
   * a long wait takes them from here, not from thousands of records. */
  st->sl[SL_COMM][i] = kind == TK_KIND_RUN ? slice_comm_id (st, task, st->sl[SL_FLAGS][i]) : -1;
  st->sl[SL_PRIO][i] = st->sl[SL_COMM][i] >= 0 ? st->running_prio : -1;
  st->sl_last_end = MAX (st->sl_last_end, end_ns);
  task->runtime_ns = (gint64) MIN ((guint64) task->runtime_ns + (guint64) st->sl[SL_DURATION][i],
                                   (guint64) G_MAXINT64);
  add_task_row (st, pid, begin_ns, st->sl[SL_DURATION][i], kind, prev_state);
  if (++st->n_sl == CS_SLICE_CHUNK_ROWS)
    flush_slices (st);
}

/* @comm: @len bytes, at most 16 */
static void
set_comm (ScanState  *st,
          gint32      pid,
          const char *comm,
          gsize       len,
          gint64      ts)
{
  CsScanTask *task = lookup_task (st, pid);

  if (ts < task->comm_ts)
    return;
  task->comm_ts = ts;
  memset (task->comm, 0, sizeof task->comm);
  memcpy (task->comm, comm, MIN (len, sizeof task->comm - 1));
}


static void
summary_switch (ScanState *st,
                gint32     prev_pid,
                gint64     begin_ns,
                gint64     end_ns,
                gint32     next_pid)
{
  if (G_LIKELY (st->summary != NULL))
    _cs_summary_scan_switch (st->summary, prev_pid, begin_ns, end_ns, next_pid);
  else
    {
      SummaryOp op = { end_ns, begin_ns, prev_pid, next_pid };
      g_array_append_val (st->held, op);
    }
}

static void
summarise_sched_switch (ScanState    *st,
                        const ScanOp *op,
                        gint64        ts_ns)
{
  st->result->has_sched_switch = TRUE;

  /* Before the first sched_switch the running task is known only now:
   * it ran since the CPU's first event. */
  gint64 begin = st->running_known ? st->running_since : st->result->first_ns;
  gboolean seen = st->running_known && st->running_pid == op->pid;
  /* Events were lost since the last sched_switch, which switched in
   * another task: keep that switch-in (its run's end is lost). */
  if (st->running_known && !seen && st->running_pid != 0)
    add_task_row (st, st->running_pid, st->running_since, 0, TK_KIND_SWITCH_IN, -1);
  if (!seen)
    st->switches_seen = FALSE;
  add_slice (st, op->pid, begin, ts_ns, op->prev_state, seen ? TK_KIND_RUN : TK_KIND_RUN_UNSEEN);
  summary_switch (st, op->pid, begin, ts_ns, op->next_pid);

  if (op->prev_comm_len >= 0)
    set_comm (st, op->pid, op->prev_comm, op->prev_comm_len, ts_ns);
  if (op->next_comm_len >= 0)
    set_comm (st, op->next_pid, op->next_comm, op->next_comm_len, ts_ns);

  st->running_pid = op->next_pid;
  st->running_since = ts_ns;
  st->running_known = TRUE;
  st->running_prio = op->next_prio;
  st->running_comm_len = op->next_comm_len;
  /* The name with its tail zeroed (copy_comm()): one 16-byte copy. */
  if (op->next_comm_len >= 0)
    memcpy (st->running_comm, op->next_comm, sizeof st->running_comm);
  else
    memset (st->running_comm, 0, sizeof st->running_comm);
}

static inline gboolean
read_common (const CommonFields *cf,
             const guint8       *d,
             guint32             size,
             int                *type,
             gint32             *pid)
{
  guint32 p;

  /* min_size is G_MAXUINT when !valid: one comparison for both. */
  if (size < cf->min_size)
    return FALSE;
  switch (cf->type_size)
    {
    case 1:
      *type = d[cf->type_offset];
      break;
    case 2:
      {
        guint16 t;
        memcpy (&t, d + cf->type_offset, 2);
        *type = cf->swap ? GUINT16_SWAP_LE_BE (t) : t;
      }
      break;
    default:
      {
        guint32 t;
        memcpy (&t, d + cf->type_offset, 4);
        *type = (int) (cf->swap ? GUINT32_SWAP_LE_BE (t) : t);
      }
      break;
    }
  memcpy (&p, d + cf->pid_offset, 4);
  *pid = (gint32) (cf->swap ? GUINT32_SWAP_LE_BE (p) : p);
  return TRUE;
}


static inline void
summary_event (CsCpuScan *scan,
               gint64     ts_ns,
               gint32     pid)
{
  if (G_LIKELY (scan->st->summary != NULL))
    _cs_summary_scan_event (scan->st->summary, ts_ns, pid);
  else
    {
      SummaryOp op = { ts_ns, G_MININT64, pid, 0 };
      g_array_append_val (scan->held, op);
    }
}


void
_cs_cpu_scan_free (CsCpuScan *scan)
{
  if (scan == NULL)
    return;
  g_clear_pointer (&scan->st->summary, _cs_summary_scan_free);
  _cs_scan_columns_free ((gint64 *) scan->st->ev, EV_N_COLUMNS, CS_EVENT_CHUNK_ROWS);
  _cs_scan_columns_free ((gint64 *) scan->st->sl, SL_N_COLUMNS, CS_SLICE_CHUNK_ROWS);
  _cs_scan_columns_free ((gint64 *) scan->st->ir, IR_N_COLUMNS, CS_IRQ_CHUNK_ROWS);
  _cs_scan_columns_free ((gint64 *) scan->st->mg, MG_N_COLUMNS, CS_MIGRATE_CHUNK_ROWS);
  g_free (scan->st);
  g_clear_pointer (&scan->cursor, cs_cpu_cursor_free);
  g_clear_pointer (&scan->result, cs_scan_result_free);
  g_clear_pointer (&scan->held, g_array_unref);
  g_free (scan);
}

/* Hooks for the tests of Cancel, SIGTERM, the watchdog and a dying parent
 * (tests/gui/test-index-worker.c), which need a build that is still
 * running when they act, whatever the machine's speed:
 * CS_INDEX_TEST_DELAY_MS=N sleeps N ms every CANCEL_CHECK_RECORDS records,
 * waking up for Cancel; CS_INDEX_TEST_HANG=1 stops the scan for good at its
 * first check, deaf to Cancel, as a reader loop on a damaged file would. */
static void
test_stall (CsCpuScan *scan)
{
  gint64 until = g_get_monotonic_time () + scan->test_delay_ms * G_TIME_SPAN_MILLISECOND;

  while (scan->test_hang)
    g_usleep (G_USEC_PER_SEC);
  while (g_get_monotonic_time () < until && !g_cancellable_is_cancelled (scan->cancellable))
    g_usleep (10 * G_TIME_SPAN_MILLISECOND);
}

static guint
test_env_uint (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL ? (guint) MIN (g_ascii_strtoull (value, NULL, 10), 3600000) : 0;
}

/* A sched_switch or wakeup record (by its libtraceevent id @tep_type,
 * dense @type) at event row @row: what the summaries need of it goes into
 * the next op. */
static void
decode_op (CsCpuScan                  *scan,
           const CsTracedatSlimRecord *rec,
           int                         tep_type,
           gint32                      type,
           guint                       row)
{
  ScanState *st = scan->st;
  ScanOp *op = &st->ops[st->n_ops];
  struct tep_record tr = { .data = (void *) rec->data, .size = (int) rec->size };

  if (tep_type == scan->sw.id)
    {
      _cs_cpu_scan_count_switch_state (&scan->sw, &tr, type, scan->result);
      if (_cs_cpu_scan_decode_switch (&scan->sw, &tr, op))
        st->ops[st->n_ops++].row = row;
      return;
    }
  for (guint w = 0; w < st->n_wakeups; w++)
    if (tep_type == st->wakeups[w].id)
      {
        if (_cs_cpu_scan_decode_wakeup (&st->wakeups[w], &tr, op))
          st->ops[st->n_ops++].row = row;
        return;
      }
}

/* Reads up to *@limit_inout more records into the event columns, taking what
 * the summaries need of sched_switch and wakeup records into st->ops;
 * stops early when the event chunk or the ops are full.  Records come a
 * batch at a time (cs_cpu_cursor_next_batch()), never more than the
 * columns and the ops have room for.  FALSE with @error set on failure.
 * Sets scan->at_end after the last record. */
static gboolean
decode_records (CsCpuScan *scan,
                guint64   *limit_inout,
                GError   **error)
{
  ScanState *st = scan->st;
  CsScanResult *result = scan->result;
  struct tep_handle *tep = scan->tep;
  CsTracedatSlimRecord *batch = scan->batch;
  GError *local_error = NULL;
  /* Locals, for the loop below: its stores into the columns (64-bit)
   * could alias any 64-bit field, which the compiler would then read
   * again after each one.  (*@limit_inout may even be such a store.) */
  const CommonFields common = scan->common;
  const gint32 *by_tep_id = st->types->by_tep_id;
  const gint32 unknown_type = (gint32) st->types->n_types - 1;
  const int switch_id = scan->sw.id;
  const int wakeup_min_id = st->wakeup_min_id;
  const guint wakeup_id_span = st->wakeup_id_span;
  const int irq_min_id = st->irq_min_id;
  const guint irq_id_span = st->irq_id_span;
  const int migrate_id = st->migrate.id;
  const guint64 offset_bias = scan->offset_bias;
  gint64 *const ev_ts = st->ev[EV_TS];
  gint64 *const ev_pid = st->ev[EV_PID];
  gint64 *const ev_type = st->ev[EV_TYPE];
  gint64 *const ev_offset = st->ev[EV_OFFSET];
  guint64 limit = *limit_inout;
  gboolean ok = TRUE;

  while (ok && limit > 0 && st->n_ev < CS_EVENT_CHUNK_ROWS && st->n_ops < SCAN_BATCH_OPS)
    {
      /* Each record adds one row and at most one op. */
      guint max = (guint) MIN (limit, (guint64) MIN (CS_EVENT_CHUNK_ROWS - st->n_ev,
                                                     MIN (SCAN_BATCH_OPS - st->n_ops, SCAN_BATCH_RECORDS)));
      guint n = cs_cpu_cursor_next_batch (scan->cursor, batch, max, &local_error);
      guint row = st->n_ev;
      guint64 n_events = result->n_events;

      limit -= n;
      if (n == 0 && local_error == NULL)
        {
          scan->at_end = TRUE;
          *scan->offset = -1;
          break;
        }
      if (n > 0 && n_events == 0)
        {
          result->first_ns = cs_trace_file_clamp_ts ((guint64) batch[0].ts_ns);
          scan->first_offset = batch[0].offset;
        }
      for (guint k = 0; k < n; k++, row++)
        {
          const CsTracedatSlimRecord *rec = &batch[k];
          int tep_type;
          gint32 pid;

          if (!read_common (&common, rec->data, rec->size, &tep_type, &pid))
            {
              struct tep_record tr = { .data = (void *) rec->data, .size = (int) rec->size };

              tep_type = tep_data_type (tep, &tr);
              pid = tep_data_pid (tep, &tr);
            }
          gint32 type = (tep_type >= 0 && tep_type < 65536) ? by_tep_id[tep_type] : -1;

          if (type < 0)
            type = unknown_type;

          ev_ts[row] = cs_trace_file_clamp_ts ((guint64) rec->ts_ns);
          ev_pid[row] = pid;
          ev_type[row] = type;
          ev_offset[row] = (gint64) (rec->offset - offset_bias);
          n_events++;
          if (G_UNLIKELY (rec->missed_events != 0))
            {
              /* As CsRecord counts them (at most G_MAXUINT32 - 1). */
              gint64 missed = MIN (rec->missed_events, (gint64) G_MAXUINT32 - 1);
              CsScanLoss loss = { ev_ts[row], missed };

              result->missed_events += missed < 0 ? 1 : (guint64) missed;
              g_array_append_val (result->losses, loss);
            }
          if (G_UNLIKELY (tep_type == switch_id ||
                          (guint) tep_type - (guint) wakeup_min_id <= wakeup_id_span))
            decode_op (scan, rec, tep_type, type, row);
          else if (G_UNLIKELY ((guint) tep_type - (guint) irq_min_id <= irq_id_span))
            _cs_cpu_scan_add_irq (scan, tep_type, rec, ev_ts[row], n_events - 1);
          else if (G_UNLIKELY (tep_type == migrate_id))
            _cs_cpu_scan_add_migrate (st, rec, ev_ts[row], n_events - 1);
          /* Often enough that Cancel stops a scan within milliseconds, and a
           * watchdog can name where a stuck one is. */
          if (G_UNLIKELY ((n_events & (CANCEL_CHECK_RECORDS - 1)) == 0))
            {
              *scan->offset = (gint64) rec->offset;
              if (G_UNLIKELY (scan->test_delay_ms != 0 || scan->test_hang))
                test_stall (scan);
              if (ok && g_cancellable_set_error_if_cancelled (scan->cancellable, error))
                ok = FALSE;
            }
        }
      st->n_ev = row;
      result->n_events = n_events;
      if (n > 0)
        {
          result->last_ns = ev_ts[row - 1];
          if (st->n_ev == CS_EVENT_CHUNK_ROWS)
            *scan->progress_bytes = (gint64) (batch[n - 1].offset - scan->first_offset);
        }
      if (local_error != NULL)
        {
          g_clear_error (error);
          g_propagate_prefixed_error (error, local_error, _("CPU %u: "), result->cpu);
          ok = FALSE;
        }
    }
  *limit_inout = limit;
  return ok;
}

/* Counts, slices, task rows and summaries of the rows decode_records()
 * added, in their order: the rows up to the next op's (inclusive) go to
 * the counts and the summary's level 0 together, then the op. */
static void
summarise_records (CsCpuScan *scan)
{
  ScanState *st = scan->st;
  guint64 *type_counts = scan->result->type_counts;
  const gint64 *ts = st->ev[EV_TS];
  const gint64 *pids = st->ev[EV_PID];
  const gint64 *types = st->ev[EV_TYPE];
  guint next_op = 0;
  guint i = st->n_summarised;
  gint32 last_pid = 0;
  CsScanTask *last_task = NULL;

  while (i < st->n_ev)
    {
      const ScanOp *op = next_op < st->n_ops ? &st->ops[next_op++] : NULL;
      guint end = op != NULL ? op->row + 1 : st->n_ev;

      for (guint r = i; r < end; r++)
        {
          gint32 pid = (gint32) pids[r];

          type_counts[types[r]]++;
          /* Runs of events of one task are common: one lookup a run. */
          if (last_task == NULL || pid != last_pid)
            {
              last_task = lookup_task (st, pid);
              last_pid = pid;
            }
          last_task->n_events++;
        }
      if (G_LIKELY (st->summary != NULL))
        _cs_summary_scan_events (st->summary, ts + i, pids + i, end - i);
      else
        for (guint r = i; r < end; r++)
          summary_event (scan, ts[r], (gint32) pids[r]);
      if (op != NULL)
        {
          if (op->wakeup_kind < 0)
            summarise_sched_switch (st, op, ts[op->row]);
          else
            add_task_row (st, op->pid, ts[op->row], 0, op->wakeup_kind, 0);
        }
      i = end;
    }
  st->n_summarised = st->n_ev;
  st->n_ops = 0;
}

/* Reads and indexes up to @limit more records, a batch at a time: decoded,
 * then summarised (each batch's CPU time goes to its step, see
 * cs-index-steps.c), then encoded when a chunk is full.  FALSE with
 * @error set on failure.  Sets scan->at_end after the last record. */
static gboolean
scan_records (CsCpuScan *scan,
              guint64    limit,
              GError   **error)
{
  ScanState *st = scan->st;
  gboolean ok = TRUE;

  /* One read of the clock per step change: handing a full chunk on (not
   * its encoding) counts as decoding. */
  cs_index_step_enter (CS_INDEX_STEP_DECODE);
  while (ok && limit > 0 && !scan->at_end)
    {
      ok = decode_records (scan, &limit, error);

      /* Even after a failure: what was read is counted, as it was read. */
      cs_index_step_switch (CS_INDEX_STEP_SUMMARISE);
      summarise_records (scan);
      cs_index_step_switch (CS_INDEX_STEP_DECODE);

      if (st->n_ev == CS_EVENT_CHUNK_ROWS)
        flush_events (st);
    }
  cs_index_step_leave ();
  return ok;
}

/*
 * _cs_cpu_scan_start:
 * @file: the recording, used by this thread only
 * @cpu: which CPU to read
 * @types: event id map, shared read-only
 * @sample_records: how many records to read now, >= 1
 * @emit: receives each encoded chunk (transfer full), in order
 * @progress_bytes: updated with how far (bytes) into the CPU's data the scan is
 * @offset: updated every CANCEL_CHECK_RECORDS records with the offset
 *   (CsRecord) of the record read, and set to -1 after the last one
 * @cancellable: checked every CANCEL_CHECK_RECORDS records
 *
 * Starts the scan of one CPU: reads its first @sample_records records,
 * which tell when it starts and how fast it records events
 * (_cs_cpu_scan_get_sample()), so that the caller can choose the summaries'
 * grid for all CPUs before _cs_cpu_scan_finish() reads the rest.  Every
 * record is read once; what the summaries need of the first ones is held
 * until then.  A started scan holds ~0.3 MiB.
 *
 * Returns: (transfer full): the scan, or %NULL with @error set
 */
CsCpuScan *
_cs_cpu_scan_start (CsTraceFile      *file,
                    guint             cpu,
                    const CsTypeMap  *types,
                    guint             sample_records,
                    CsScanEmitFunc    emit,
                    gpointer          emit_data,
                    volatile gint64  *progress_bytes,
                    volatile gint64  *offset,
                    GCancellable     *cancellable,
                    GError          **error)
{
  g_autoptr(CsCpuScan) scan = g_new0 (CsCpuScan, 1);
  CsScanResult *result;
  ScanState *st;

  scan->st = st = g_new0 (ScanState, 1);
  st->ev = (gpointer) _cs_scan_columns_new (EV_N_COLUMNS, CS_EVENT_CHUNK_ROWS);
  st->sl = (gpointer) _cs_scan_columns_new (SL_N_COLUMNS, CS_SLICE_CHUNK_ROWS);
  st->ir = (gpointer) _cs_scan_columns_new (IR_N_COLUMNS, CS_IRQ_CHUNK_ROWS);
  st->mg = (gpointer) _cs_scan_columns_new (MG_N_COLUMNS, CS_MIGRATE_CHUNK_ROWS);
  scan->result = result = g_new0 (CsScanResult, 1);
  scan->held = g_array_new (FALSE, FALSE, sizeof (SummaryOp));
  scan->progress_bytes = progress_bytes;
  scan->offset = offset;
  scan->test_delay_ms = test_env_uint ("CS_INDEX_TEST_DELAY_MS");
  scan->test_hang = test_env_uint ("CS_INDEX_TEST_HANG") != 0;
  scan->cancellable = cancellable;
  result->cpu = cpu;
  result->type_counts = g_new0 (guint64, types->n_types);
  result->switch_type = -1;
  result->losses = g_array_new (FALSE, FALSE, sizeof (CsScanLoss));
  result->tasks = g_hash_table_new_full (NULL, NULL, NULL, _cs_scan_task_free);
  _cs_scan_names_init (&result->irq_names);
  _cs_scan_names_init (&result->comm_names);

  scan->cursor = cs_trace_file_open_cpu (file, cpu, error);
  if (scan->cursor == NULL)
    return NULL;
  scan->tep = cs_cpu_cursor_get_tep (scan->cursor);
  _cs_cpu_scan_find_fields (scan);

  st->result = result;
  st->types = types;
  st->emit = emit;
  st->emit_data = emit_data;
  st->held = scan->held;

  if (!_cs_cpu_scan_read_sample (scan, sample_records, error))
    return NULL;
  return g_steal_pointer (&scan);
}

/*
 * _cs_cpu_scan_read_sample:
 * @n_records: how many more records to read
 *
 * Reads up to @n_records more records before the grid is chosen (see
 * _cs_cpu_scan_start()), which _cs_cpu_scan_get_sample() then describes.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_cpu_scan_read_sample (CsCpuScan *scan,
                          guint      n_records,
                          GError   **error)
{
  if (!scan_records (scan, n_records, error))
    return FALSE;
  scan->n_sampled = scan->result->n_events;
  scan->sample_last_ns = scan->result->last_ns;
  return TRUE;
}

/*
 * _cs_cpu_scan_set_emit:
 *
 * Where the chunks go from now on: a scan started on one thread may be
 * finished on another (with cursors that allow it), which has its own
 * @emit_data.
 */
void
_cs_cpu_scan_set_emit (CsCpuScan      *scan,
                       CsScanEmitFunc  emit,
                       gpointer        emit_data)
{
  scan->st->emit = emit;
  scan->st->emit_data = emit_data;
}

/*
 * _cs_cpu_scan_set_read_ahead:
 *
 * Lets the scan's cursor decompress ahead on a thread of its own while
 * @idle_core says a core is idle (cs_cpu_cursor_set_read_ahead()).
 */
void
_cs_cpu_scan_set_read_ahead (CsCpuScan          *scan,
                             CsTracedatIdleFunc  idle_core,
                             gpointer            user_data)
{
  if (scan->cursor != NULL)
    cs_cpu_cursor_set_read_ahead (scan->cursor, idle_core, user_data);
}

/*
 * _cs_cpu_scan_get_sample:
 * @first_ns: (out): the CPU's first event, when it has any
 * @events_per_ns: (out): its event rate over the records read so far, 0
 *   when unknown
 *
 * Returns: whether the CPU has events
 */
gboolean
_cs_cpu_scan_get_sample (CsCpuScan *scan,
                         gint64    *first_ns,
                         double    *events_per_ns)
{
  *first_ns = scan->result->first_ns;
  *events_per_ns = 0;
  if (scan->n_sampled > 1 && scan->sample_last_ns > scan->result->first_ns)
    *events_per_ns = (double) (scan->n_sampled - 1) /
                     (double) (scan->sample_last_ns - scan->result->first_ns);
  return scan->n_sampled > 0;
}

/*
 * _cs_cpu_scan_continue:
 * @scan: a scan from _cs_cpu_scan_start(), on the same thread
 * @grid: the summaries' grid, the same for all CPUs (only the first call
 *   of a scan uses it)
 *
 * Reads the CPU's records up to the end of its data, emitting the chunks
 * and summary blocks that fill up; what is still open stays open, for
 * _cs_cpu_scan_resume() to go on in a newer file of the same recording or
 * _cs_cpu_scan_finish() to close.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_cpu_scan_continue (CsCpuScan           *scan,
                       const CsSummaryGrid *grid,
                       GError             **error)
{
  ScanState *st = scan->st;

  if (st->summary == NULL)
    {
      cs_index_step_enter (CS_INDEX_STEP_SUMMARISE);
      st->summary = _cs_summary_scan_new (scan->result->cpu, grid->origin_ns, grid->shift,
                                          _cs_scan_emit_summary_block,
                                          _cs_scan_emit_summary_run, st);
      for (guint i = 0; i < scan->held->len; i++)
        {
          const SummaryOp *op = &g_array_index (scan->held, SummaryOp, i);

          if (op->begin_ns == G_MININT64)
            _cs_summary_scan_event (st->summary, op->ts_ns, op->pid);
          else
            _cs_summary_scan_switch (st->summary, op->pid, op->begin_ns, op->ts_ns, op->next_pid);
        }
      g_array_set_size (scan->held, 0);
      cs_index_step_leave ();
    }

  while (!scan->at_end)
    if (!scan_records (scan, G_MAXUINT64, error))
      return FALSE;
  return TRUE;
}

/* Closes what is open (the last chunks, the running task's slice, the
 * summaries' open blocks, every task's rows) and hands the result over:
 * the end of _cs_cpu_scan_finish(), and of a copy of a scan
 * (cs-cpu-scan-fork.c). */
CsScanResult *
_cs_cpu_scan_close (CsCpuScan *scan,
                    GError   **error)
{
  ScanState *st = scan->st;
  CsScanResult *result = scan->result;
  gboolean ok;

  flush_events (st);
  _cs_cpu_scan_flush_irqs (st);
  _cs_cpu_scan_flush_migrates (st);
  cs_index_step_enter (CS_INDEX_STEP_SUMMARISE);
  if (st->running_known)
    {
      /* A switch-in at the CPU's last event makes no run: keep it. */
      if (st->running_pid != 0 && result->last_ns <= st->running_since)
        add_task_row (st, st->running_pid, st->running_since, 0, TK_KIND_SWITCH_IN, -1);
      /* No sched_switch ends this slice. */
      st->switches_seen = FALSE;
      add_slice (st, st->running_pid, st->running_since, result->last_ns, -1, TK_KIND_RUN);
      summary_switch (st, st->running_pid, st->running_since, result->last_ns, -1);
    }
  flush_slices (st);
  ok = _cs_summary_scan_finish (st->summary, error);
  if (ok)
    flush_all_tasks (st);
  cs_index_step_leave ();
  if (!ok)
    return NULL;

  /* The thread may have more CPUs to finish: keep only the result. */
  g_clear_pointer (&st->summary, _cs_summary_scan_free);
  g_clear_pointer (&scan->cursor, cs_cpu_cursor_free);
  return g_steal_pointer (&scan->result);
}

/*
 * _cs_cpu_scan_resume:
 * @scan: a scan that read to the end of its CPU's data in an earlier
 *   file of the same recording (_cs_cpu_scan_continue())
 * @file: the newer file: the same event formats, and for this CPU the
 *   same data followed by more pages
 * @data_pos: where the CPU's data read so far ends (bytes)
 *
 * Goes on reading in @file: the next _cs_cpu_scan_continue() reads only
 * the pages after @data_pos.  The scan's record offsets are relative to
 * the CPU's data (see _cs_cpu_scan_set_relative()).
 *
 * Returns: %FALSE with @error set when @file cannot be read from there
 */
gboolean
_cs_cpu_scan_resume (CsCpuScan    *scan,
                     CsTraceFile  *file,
                     guint64       data_pos,
                     GError      **error)
{
  CsCpuCursor *cursor;
  guint64 data_offset = 0;

  cursor = cs_trace_file_open_cpu_at (file, scan->result->cpu, data_pos, &data_offset, error);
  if (cursor == NULL)
    return FALSE;
  g_clear_pointer (&scan->cursor, cs_cpu_cursor_free);
  scan->cursor = cursor;
  scan->offset_bias = data_offset;
  scan->at_end = FALSE;
  /* The fields are the new handle's (the old one goes with its file). */
  scan->tep = cs_cpu_cursor_get_tep (cursor);
  _cs_cpu_scan_find_fields (scan);
  return TRUE;
}

/*
 * _cs_cpu_scan_finish:
 * @scan: a scan from _cs_cpu_scan_start(), on the same thread
 * @grid: the summaries' grid, the same for all CPUs
 *
 * Reads the CPU's remaining records, emitting the rest of its chunks and
 * its summary blocks.
 *
 * Returns: (transfer full): what the CPU holds besides its events, or %NULL
 *   with @error set
 */
CsScanResult *
_cs_cpu_scan_finish (CsCpuScan           *scan,
                     const CsSummaryGrid *grid,
                     GError             **error)
{
  if (!_cs_cpu_scan_continue (scan, grid, error))
    return NULL;
  return _cs_cpu_scan_close (scan, error);
}
