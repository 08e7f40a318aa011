/* cs-document-queries.c: the timeline queries of CsDocument (the events
 * of a span: cs-document-events.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every query reads chunks or summary blocks that overlap the span asked
 * for, so its cost follows the span (or the number of pixel columns), not
 * the recording.
 */
#include "config.h"

#include <event-parse.h>
#include <math.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-document-private.h"

G_STATIC_ASSERT (CS_SLICE_SWITCHED == SL_FLAG_SWITCHED);
G_STATIC_ASSERT (CS_SLICE_SAME_TASK == SL_FLAG_SAME_TASK);

/*
 * _cs_document_scan_chunk_rows:
 * @self: a document
 * @start: a statement of @cpu (?1) and @begin_ns (?2) giving the first
 *   chunk to read
 * @range: a statement of @cpu (?1) and a chunk (?2) giving first_ns,
 *   n_rows and data of each chunk from it, in order (columns 1 to 3)
 * @table: the chunks' table, for the error of a damaged one
 * @max_rows: rows a chunk may have (more: damaged)
 * @n_columns, @modes: the chunks' columns (cs_chunk_decode())
 * @skip: columns left undecoded, bit (1 << column) each (their cols[]
 *   are then %NULL)
 * @peek: (nullable): asked first of each chunk whether to decode it, pass
 *   over it or stop (then @range gives last_ns as its column 4)
 * @func: called with each chunk's decoded columns until it returns %FALSE
 *   or a chunk starts at or after @end_ns
 *
 * The chunks of a per-CPU chunk table (slice_chunks, irq_chunks) a span
 * needs, decoded one after the other.
 *
 * Returns: %FALSE with @error set (%CS_INDEX_ERROR_SQLITE, or
 *   %CS_INDEX_ERROR_CORRUPT for a damaged chunk)
 */
gboolean
_cs_document_scan_chunk_rows (CsDocument               *self,
                              sqlite3_stmt             *start,
                              sqlite3_stmt             *range,
                              const char               *table,
                              guint                     cpu,
                              gint64                    begin_ns,
                              gint64                    end_ns,
                              guint                     max_rows,
                              guint                     n_columns,
                              const CsChunkColumnMode  *modes,
                              guint                     skip,
                              ChunkPeekFunc             peek,
                              ChunkRowsFunc             func,
                              gpointer                  user_data,
                              GError                  **error)
{
  g_autofree gint64 *cols_mem = NULL;
  gint64 *cols[8];
  gint64 start_chunk;
  gboolean go_on = TRUE;
  guint n_wanted = 0;
  int rc;

  g_return_val_if_fail (n_columns <= G_N_ELEMENTS (cols), FALSE);
  sqlite3_bind_int (start, 1, cpu);
  sqlite3_bind_int64 (start, 2, begin_ns);
  rc = sqlite3_step (start);
  if (rc != SQLITE_ROW || sqlite3_column_type (start, 0) == SQLITE_NULL)
    {
      sqlite3_reset (start);
      return _cs_sqlite_check (self->db, rc, _("finding chunks"), error);
    }
  start_chunk = sqlite3_column_int64 (start, 0);
  sqlite3_reset (start);

  cols_mem = g_new (gint64, (gsize) n_columns * max_rows);
  for (guint c = 0; c < n_columns; c++)
    {
      cols[c] = skip & (1u << c) ? NULL : cols_mem + c * max_rows;
      if (cols[c] != NULL)
        n_wanted = c + 1;
    }

  sqlite3_bind_int (range, 1, cpu);
  sqlite3_bind_int64 (range, 2, start_chunk);
  while (go_on && (rc = sqlite3_step (range)) == SQLITE_ROW)
    {
      guint n = sqlite3_column_int (range, 2);
      ChunkPeek what = CHUNK_DECODE;

      if (sqlite3_column_int64 (range, 1) >= end_ns)
        break;
      if (peek != NULL && n <= max_rows)
        what = peek (sqlite3_column_blob (range, 3), sqlite3_column_bytes (range, 3), n,
                     sqlite3_column_int64 (range, 1), sqlite3_column_int64 (range, 4), user_data);
      if (what == CHUNK_STOP)
        break;
      if (what == CHUNK_PASS)
        continue;
      if (n > max_rows ||
          !cs_chunk_decode_columns (sqlite3_column_blob (range, 3), sqlite3_column_bytes (range, 3),
                                    n, n_columns, MAX (n_wanted, 1), modes, cols, n, NULL))
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       g_dngettext (GETTEXT_PACKAGE, "The index %s has a damaged chunk of %u row in %s",
                                    "The index %s has a damaged chunk of %u rows in %s", n),
                       self->index_path, n, table);
          sqlite3_reset (range);
          return FALSE;
        }
      go_on = func (cols, n, user_data);
    }
  sqlite3_reset (range);
  return _cs_sqlite_check (self->db, rc == SQLITE_ROW ? SQLITE_OK : rc, _("reading chunks"),
                           error);
}

/* The end of row @i of a slice chunk's decoded columns (G_MAXINT64 past
 * it): every reader of slices takes it the same way. */
static inline gint64
slice_end (gint64 *const *cols,
           guint          i)
{
  gint64 end;

  return __builtin_add_overflow (cols[SL_BEGIN][i], cols[SL_DURATION][i], &end) ? G_MAXINT64
                                                                                : end;
}

typedef struct {
  gint64 begin_ns, end_ns;
  GPtrArray *comms;             /* the CPU's CS_CPU_NAMES_COMM names */
  SliceFunc func;
  gpointer user_data;
} SliceScan;

static gboolean
slice_rows (gint64 *const *cols,
            guint          n,
            gpointer       user_data)
{
  const SliceScan *scan = user_data;

  for (guint i = 0; i < n; i++)
    {
      CsSlice sl;

      sl.begin_ns = cols[SL_BEGIN][i];
      sl.end_ns = slice_end (cols, i);
      sl.pid = (gint32) cols[SL_PID][i];
      sl.prev_state = (gint32) cols[SL_STATE][i];
      sl.flags = (guint) cols[SL_FLAGS][i];
      sl.next_comm = cols[SL_COMM][i] >= 0 && cols[SL_COMM][i] < scan->comms->len
                     ? scan->comms->pdata[cols[SL_COMM][i]] : NULL;
      sl.next_prio = sl.next_comm != NULL ? (gint32) cols[SL_PRIO][i] : -1;
      if (sl.begin_ns >= scan->end_ns)
        return FALSE;
      if (sl.end_ns > scan->begin_ns && !scan->func (&sl, scan->user_data))
        return FALSE;
    }
  return TRUE;
}

/* Calls @func for each slice of @cpu overlapping [begin, end), in order. */
gboolean
_cs_document_scan_slices (CsDocument  *self,
                          guint        cpu,
                          gint64       begin_ns,
                          gint64       end_ns,
                          SliceFunc    func,
                          gpointer     user_data,
                          GError     **error)
{
  SliceScan scan = { begin_ns, end_ns, NULL, func, user_data };

  if (cpu >= self->n_cpus || begin_ns >= end_ns)
    return TRUE;
  scan.comms = _cs_document_cpu_names (self, cpu, CS_CPU_NAMES_COMM, error);
  if (scan.comms == NULL)
    return FALSE;
  return _cs_document_scan_chunk_rows (self, self->sl_start, self->sl_range, "slice_chunks", cpu,
                                       begin_ns, end_ns, CS_SLICE_CHUNK_ROWS, SL_N_COLUMNS,
                                       _cs_slice_chunk_modes, 0, NULL, slice_rows, &scan, error);
}

/* A slice's times and flags, without its pid, state, comm and prio. */
#define SLICE_TIMES_ONLY ((1u << SL_PID) | (1u << SL_STATE) | (1u << SL_COMM) | (1u << SL_PRIO))

/* The spans the slices do not vouch for, as the scan meets them. */
typedef struct {
  gint64 begin_ns, end_ns;
  gint64 prev_end;              /* of the last slice seen (G_MININT64: none) */
  gboolean seen_after;          /* a slice begins at or after end_ns */
  gint64 from, to;              /* the span under way (from == to: none) */
  gboolean stopped;
  SpanFunc func;
  gpointer user_data;
} Unswitched;

/* Hands the span under way on. */
static void
flush_span (Unswitched *u)
{
  if (!u->stopped && u->to > u->from && !u->func (u->from, u->to, u->user_data))
    u->stopped = TRUE;
  u->from = u->to = 0;
}

/* Adds [@from, @to) to the span under way, or hands that on and starts
 * another: the spans handed on are apart and in order. */
static void
add_span (Unswitched *u,
          gint64      from,
          gint64      to)
{
  if (u->stopped || to <= from)
    return;
  if (u->to > u->from && from <= u->to)
    {
      u->to = MAX (u->to, to);
      return;
    }
  flush_span (u);
  u->from = from;
  u->to = to;
}

/* From where the slice before ended (@begin_ns at the earliest). */
static gint64
since_prev (const Unswitched *u)
{
  return MAX (u->prev_end, u->begin_ns);
}

/* A chunk whose flags column holds only switched values is passed over
 * undecoded (cs_chunk_peek_values()): the slices vouch for all of it, and
 * its last slice ends at its last_ns. */
static ChunkPeek
peek_unswitched (const guint8 *data,
                 gsize         size,
                 guint         n_rows,
                 gint64        first_ns,
                 gint64        last_ns,
                 gpointer      user_data)
{
  Unswitched *u = user_data;
  gint64 values[CS_CHUNK_PEEK_MAX];
  guint n = 0;

  if (u->stopped)
    return CHUNK_STOP;
  if (!cs_chunk_peek_values (data, size, n_rows, SL_FLAGS, values, &n))
    return CHUNK_DECODE;
  for (guint i = 0; i < n; i++)
    if (!(values[i] & SL_FLAG_SWITCHED))
      return CHUNK_DECODE;
  if (first_ns >= u->end_ns)
    {
      u->seen_after = TRUE;
      return CHUNK_STOP;
    }
  u->prev_end = last_ns;
  return CHUNK_PASS;
}

static gboolean
unswitched_rows (gint64 *const *cols,
                 guint          n,
                 gpointer       user_data)
{
  Unswitched *u = user_data;

  for (guint i = 0; i < n && !u->stopped; i++)
    {
      gint64 begin = cols[SL_BEGIN][i], end = slice_end (cols, i);
      gboolean switched = (cols[SL_FLAGS][i] & SL_FLAG_SWITCHED) != 0;

      if (begin >= u->end_ns)
        {
          u->seen_after = TRUE;
          /* Its flag vouches for the switches since the slice before. */
          if (!switched)
            add_span (u, since_prev (u), u->end_ns);
          return FALSE;
        }
      /* Its switches (the one that ends it too) and those since the slice
       * before. */
      if (!switched && end >= u->begin_ns)
        add_span (u, since_prev (u), MIN (end, u->end_ns - 1) + 1);
      u->prev_end = end;
    }
  return !u->stopped;
}

/*
 * _cs_document_scan_unswitched:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span
 * @end_ns: its end (exclusive), above @begin_ns
 * @func: called with each part of the span where @cpu's slices do not
 *   stand in for its sched_switch records, apart and in order, until it
 *   returns %FALSE
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Where a reader must take @cpu's sched_switch events from the records
 * rather than from the slices: for each slice without CS_SLICE_SWITCHED
 * that ends at or after @begin_ns and begins before @end_ns, from the end
 * of the slice before it (events were lost, or no switch began it) to
 * just after its own end (the switch that ended it); for the first slice
 * beginning at or after @end_ns, when not switched, from the end of the
 * slice before it to @end_ns; and when no slice begins at or after
 * @end_ns (the CPU's recording ends first: its last task may have no
 * slice), from the last one's end to @end_ns.  Each clipped to the span.
 * Slice chunks that are all switched are passed over undecoded, so a
 * long span costs a SQLite row per ~2,000 slices.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean
_cs_document_scan_unswitched (CsDocument  *self,
                              guint        cpu,
                              gint64       begin_ns,
                              gint64       end_ns,
                              SpanFunc     func,
                              gpointer     user_data,
                              GError     **error)
{
  Unswitched u = { begin_ns, end_ns, G_MININT64, FALSE, 0, 0, FALSE, func, user_data };

  if (cpu >= self->n_cpus || begin_ns >= end_ns || begin_ns == G_MININT64)
    return TRUE;
  /* From just before @begin_ns: a slice ending at it switches in the span. */
  if (!_cs_document_scan_chunk_rows (self, self->sl_start, self->sl_range, "slice_chunks", cpu,
                                     begin_ns - 1, G_MAXINT64, CS_SLICE_CHUNK_ROWS,
                                     SL_N_COLUMNS, _cs_slice_chunk_modes, SLICE_TIMES_ONLY,
                                     peek_unswitched, unswitched_rows, &u, error))
    return FALSE;
  if (!u.seen_after)
    add_span (&u, since_prev (&u), end_ns);
  flush_span (&u);
  return TRUE;
}

/* The CPU's idle stretches, as the scan meets them. */
typedef struct {
  gint64 begin_ns, end_ns;
  gint64 prev_end;              /* of the last slice seen (G_MININT64: none) */
  SpanFunc func;
  gpointer user_data;
} IdleScan;

static gboolean
idle_rows (gint64 *const *cols,
           guint          n,
           gpointer       user_data)
{
  IdleScan *scan = user_data;

  for (guint i = 0; i < n; i++)
    {
      gint64 begin = cols[SL_BEGIN][i], end = slice_end (cols, i);

      if (scan->prev_end != G_MININT64 && scan->prev_end < begin &&
          (cols[SL_FLAGS][i] & SL_FLAG_SWITCHED) && scan->prev_end >= scan->begin_ns &&
          scan->prev_end < scan->end_ns && !scan->func (scan->prev_end, begin, scan->user_data))
        return FALSE;
      if (begin >= scan->end_ns || end >= scan->end_ns)
        return FALSE;
      scan->prev_end = end;
    }
  return TRUE;
}

/*
 * _cs_document_scan_idle:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span
 * @end_ns: its end (exclusive)
 * @func: called with each stretch of @cpu's idle time that begins in the
 *   span, in order and not clipped to it, until it returns %FALSE
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Where @cpu ran its idle task, as its slices say: each gap between two
 * slices whose later one has CS_SLICE_SWITCHED (no sched_switch lost since
 * the earlier one ended: the switch to idle at the gap's start and the one
 * from it at its end are recorded).  Only the slices' times and flags are
 * decoded.
 *
 * Returns: %FALSE with @error set on failure (not when @func stops)
 */
gboolean
_cs_document_scan_idle (CsDocument  *self,
                        guint        cpu,
                        gint64       begin_ns,
                        gint64       end_ns,
                        SpanFunc     func,
                        gpointer     user_data,
                        GError     **error)
{
  IdleScan scan = { begin_ns, end_ns, G_MININT64, func, user_data };

  if (cpu >= self->n_cpus || begin_ns >= end_ns || begin_ns == G_MININT64)
    return TRUE;
  /* From the first slice ending at or after @begin_ns, on to the first
   * that begins or ends at or after @end_ns. */
  return _cs_document_scan_chunk_rows (self, self->sl_start, self->sl_range, "slice_chunks", cpu,
                                       begin_ns - 1, G_MAXINT64, CS_SLICE_CHUNK_ROWS, SL_N_COLUMNS,
                                       _cs_slice_chunk_modes, SLICE_TIMES_ONLY, NULL, idle_rows,
                                       &scan, error);
}

static gboolean
collect_slice (const CsSlice *slice,
               gpointer       user_data)
{
  g_array_append_val ((GArray *) user_data, *slice);
  return TRUE;
}

/**
 * cs_document_get_slices:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @slices: (element-type CsSlice): receives, in time order, every slice
 *   overlapping the span (appended); slices are not clipped
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Lists who ran on @cpu during the span, from sched_switch
 * (events/sched/sched_switch): a slice runs from the switch that put the
 * task on the CPU to the one that took it off.  Idle is not listed.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_slices (CsDocument  *self,
                        guint        cpu,
                        gint64       begin_ns,
                        gint64       end_ns,
                        GArray      *slices,
                        GError     **error)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  return _cs_document_scan_slices (self, cpu, begin_ns, end_ns, collect_slice, slices, error);
}

static gboolean
first_slice (const CsSlice *slice,
             gpointer       user_data)
{
  *(CsSlice *) user_data = *slice;
  return FALSE;
}

/**
 * cs_document_find_slice_at:
 * @self: a document
 * @cpu: a CPU
 * @ts_ns: a time
 * @slice: (out caller-allocates): the slice running at @ts_ns, when any
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * Returns: %TRUE when a task ran on @cpu at @ts_ns; %FALSE when the CPU was
 *   idle (or its task unknown) then (@error unset), or on error
 */
gboolean
cs_document_find_slice_at (CsDocument  *self,
                           guint        cpu,
                           gint64       ts_ns,
                           CsSlice     *slice,
                           GError     **error)
{
  CsSlice found = { .pid = -1 };

  if (!_cs_document_scan_slices (self, cpu, ts_ns, ts_ns + 1, first_slice, &found, error))
    return FALSE;
  if (found.pid < 0)
    return FALSE;
  *slice = found;
  return TRUE;
}

/**
 * cs_document_format_event:
 * @self: a document
 * @event: an event from this document
 * @error: %G_FILE_ERROR / %CS_INDEX_ERROR when the recording can no longer
 *   be read, %CS_INDEX_ERROR_CORRUPT when no record is at the event's offset
 *
 * Formats the event's fields as `trace-cmd report` prints them after the
 * event name, from the recording itself (text is never stored in the
 * index).
 *
 * Returns: (transfer full): the text, or %NULL with @error set
 */
char *
cs_document_format_event (CsDocument     *self,
                          const CsEvent  *event,
                          GError        **error)
{
  CsTraceFile *file;
  CsRecord rec;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), NULL);

  file = _cs_document_ensure_trace_file (self, error);
  if (file == NULL)
    return NULL;
  if (!cs_trace_file_read_at (file, event->cpu, event->offset, &rec, error))
    return NULL;
  return cs_trace_file_format_record (file, &rec);
}

/* ---- Chunks by position ---------------------------------------------------- */

gint64
_cs_document_get_offset_base (CsDocument *self,
                              guint       cpu)
{
  return cpu < self->n_cpus ? self->offset_bases[cpu] : 0;
}

/*
 * _cs_document_dup_switch_states:
 * @self: a document
 * @error: %CS_INDEX_ERROR_SQLITE
 *
 * The index's sched_switch counts per CPU by prev_state, as SQL reads the
 * field (switch_state_counts; cs-cpu-scan-fields.c counts them).  A CPU
 * whose counts do not add up to its sched_switch count has none that can
 * be used: the caller checks.
 *
 * Returns: (transfer full) (element-type CsSwitchStateCount): the rows,
 *   or %NULL with @error set
 */
GArray *
_cs_document_dup_switch_states (CsDocument  *self,
                                GError     **error)
{
  g_autoptr(sqlite3_stmt) s = _cs_sqlite_prepare (self->db,
      "SELECT cpu, type_id, prev_state, n_events FROM switch_state_counts ORDER BY cpu, prev_state",
      error);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (CsSwitchStateCount));
  int rc;

  if (s == NULL)
    return NULL;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsSwitchStateCount c = {
        (guint) sqlite3_column_int (s, 0), sqlite3_column_int (s, 1),
        sqlite3_column_type (s, 2) == SQLITE_NULL, sqlite3_column_int64 (s, 2),
        (guint64) sqlite3_column_int64 (s, 3),
      };

      g_array_append_val (rows, c);
    }
  if (!_cs_sqlite_check (self->db, rc, _("reading events"), error))
    return NULL;
  return g_steal_pointer (&rows);
}

/**
 * cs_document_format_latency:
 * @self: a document
 * @event: one of its events
 * @error: as for cs_document_format_event()
 *
 * Formats the event's latency flags as ftrace prints them in its latency
 * format (Documentation/trace/ftrace.rst, "irqs-off", "need-resched",
 * "hardirq/softirq", "preempt-depth"): for example "d.h2.".
 *
 * Returns: (transfer full): the flags, or %NULL with @error set
 */
char *
cs_document_format_latency (CsDocument     *self,
                            const CsEvent  *event,
                            GError        **error)
{
  CsTraceFile *file = cs_document_get_trace_file (self);
  struct trace_seq seq;
  CsRecord rec;
  char *text;

  if (file == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("The recording %s can no longer be read"), self->trace_path);
      return NULL;
    }
  if (!cs_trace_file_read_at (file, event->cpu, event->offset, &rec, error))
    return NULL;
  trace_seq_init (&seq);
  tep_print_event (cs_trace_file_get_tep (file), &seq, rec.tep_record, "%s", TEP_PRINT_LATENCY);
  trace_seq_terminate (&seq);
  text = g_strdup (seq.buffer);
  trace_seq_destroy (&seq);
  return g_strstrip (text);
}

static void
add_fields (GPtrArray               *out,
            struct tep_format_field *field,
            struct tep_record       *rec)
{
  for (; field != NULL; field = field->next)
    {
      struct trace_seq seq;

      if ((gsize) field->offset + field->size > (gsize) rec->size)
        continue;   /* a damaged record: do not read past it */
      trace_seq_init (&seq);
      tep_print_field (&seq, rec->data, field);
      trace_seq_terminate (&seq);
      g_ptr_array_add (out, g_strdup (field->name));
      g_ptr_array_add (out, g_strdup (seq.buffer));
      trace_seq_destroy (&seq);
    }
}

/**
 * cs_document_dup_event_fields:
 * @self: a document
 * @event: one of its events
 * @error: as for cs_document_format_event(); %CS_INDEX_ERROR_CORRUPT when
 *   the record's type has no format in the recording
 *
 * The raw fields of the event as its format file
 * (events/<system>/<name>/format) declares them, common fields first, each
 * printed by libtraceevent as `trace-cmd report -R` prints it.
 *
 * Returns: (transfer full) (array zero-terminated=1): alternating field
 *   names and values, or %NULL with @error set
 */
char **
cs_document_dup_event_fields (CsDocument     *self,
                              const CsEvent  *event,
                              GError        **error)
{
  CsTraceFile *file = cs_document_get_trace_file (self);
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  struct tep_event *format;
  CsRecord rec;

  if (file == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("The recording %s can no longer be read"), self->trace_path);
      return NULL;
    }
  if (!cs_trace_file_read_at (file, event->cpu, event->offset, &rec, error))
    return NULL;
  format = tep_find_event_by_record (cs_trace_file_get_tep (file), rec.tep_record);
  if (format == NULL)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s has no format for the event at offset %" PRIu64 " of CPU %u"),
                   self->trace_path, event->offset, event->cpu);
      return NULL;
    }
  add_fields (out, format->format.common_fields, rec.tep_record);
  add_fields (out, format->format.fields, rec.tep_record);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

/**
 * cs_document_get_event_at_row:
 * @self: a document
 * @cpu: a CPU
 * @row: an event's position among the events of @cpu (0-based, time order)
 * @event: (out caller-allocates): the event
 * @error: %CS_INDEX_ERROR_CORRUPT when @row is past the CPU's events or
 *   the index is damaged, %CS_INDEX_ERROR_SQLITE
 *
 * Reads one event of the index by its position.  Costs one chunk decode
 * (~10 µs) unless the chunk is the CPU's last one decoded.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_event_at_row (CsDocument  *self,
                              guint        cpu,
                              guint64      row,
                              CsEvent     *event,
                              GError     **error)
{
  CsEventChunkCache *cache;
  guint i;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);

  if (cpu >= self->n_cpus || row >= self->cpus[cpu].n_events)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("CPU %u of %s has no event %" PRIu64), cpu, self->trace_path, row);
      return FALSE;
    }
  cache = _cs_document_get_chunk (self, cpu, row / CS_EVENT_CHUNK_ROWS, error);
  if (cache == NULL)
    return FALSE;
  i = row - cache->first_row;
  if (row < cache->first_row || i >= cache->n)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("The index %s misplaces event %" PRIu64 " of CPU %u"),
                   self->index_path, row, cpu);
      return FALSE;
    }
  event->ts_ns = cache->cols[EV_TS][i];
  event->pid = cache->cols[EV_PID][i];
  event->type_id = cache->cols[EV_TYPE][i];
  event->offset = cache->cols[EV_OFFSET][i];
  event->cpu = cpu;
  event->row = row;
  return TRUE;
}

/**
 * cs_document_get_missed_events:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @missed: (element-type CsMissedEvents): where the losses of @cpu whose
 *   time lies in [@begin_ns, @end_ns) are appended, in time order
 * @error: %CS_INDEX_ERROR_SQLITE
 *
 * Where @cpu's ring buffer lost events: the missed-events count of its
 * ring-buffer pages (trace-cmd report's "[LOST n EVENTS]"), at the first
 * event recorded after each loss.  One indexed query.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_missed_events (CsDocument  *self,
                               guint        cpu,
                               gint64       begin_ns,
                               gint64       end_ns,
                               GArray      *missed,
                               GError     **error)
{
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);

  if (cpu >= self->n_cpus || self->cpus[cpu].missed_events == 0 || begin_ns >= end_ns)
    return TRUE;
  if (self->missed == NULL)
    {
      self->missed = _cs_sqlite_prepare (self->db,
          "SELECT ts_ns, n_missed FROM missed_events"
          " WHERE cpu = ?1 AND ts_ns >= ?2 AND ts_ns < ?3 ORDER BY ts_ns", error);
      if (self->missed == NULL)
        return FALSE;
    }
  s = self->missed;
  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int64 (s, 2, begin_ns);
  sqlite3_bind_int64 (s, 3, end_ns);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      CsMissedEvents m = {
        .ts_ns = sqlite3_column_int64 (s, 0),
        .cpu = cpu,
        .n_missed = (guint64) sqlite3_column_int64 (s, 1),
      };
      g_array_append_val (missed, m);
    }
  sqlite3_reset (s);
  return _cs_sqlite_check (self->db, rc, _("reading missed events"), error);
}
