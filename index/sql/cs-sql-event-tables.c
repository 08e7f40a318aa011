/* cs-sql-event-tables.c: the `events` table and one table per event type.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Rows come from the index's per-CPU event chunks, CPU by CPU and in time
 * order within a CPU, or merged in time order for ORDER BY ts (and ORDER
 * BY ts, cpu), which assumes what the index's time lookups assume: each
 * CPU's events are in time order (a row out of order makes the query
 * fail, never lie).  A ts range becomes a range of CPU-local rows (two
 * chunk lookups per CPU), a cpu constraint selects one CPU, and a typed
 * table skips CPUs that never saw its type; the rows between are read
 * chunk by chunk, never all at once.  Constraints on a typed table's
 * integer fields are checked on the record in the scan, so that only rows
 * that may pass reach SQLite.  A query that reads no column but those the
 * index counts by gets counted rows instead of a scan
 * (cs-sql-event-counts.c).  cs-sql-event-plan.c chooses among these.
 *
 * The common columns ts, cpu, pid and comm come from the index.  The
 * latency flags (common_flags, common_preempt_count; ftrace's latency
 * format, Documentation/trace/ftrace.rst) and the fields of a typed table
 * are read from the record at its offset, only when a query asks for one
 * of them, and decoded with the event's format as libtraceevent parsed it
 * from the recording (events/SYSTEM/EVENT/format): numbers as integers
 * (signed or not as the format says; unsigned 64-bit values above 2^63
 * wrap to negative, SQLite having no unsigned type), char arrays and
 * __data_loc strings as text, other arrays as blobs.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cs-sql-event-private.h"

/* Groups of weighted rows per time bucket kept at most (40 bytes each):
 * finer buckets are left to the scan, which needs no memory for them. */
#define MAX_BUCKET_GROUPS (1u << 20)

static const char * const common_names[N_COMMON] = {
  "ts", "cpu", "pid", "comm", "irqs_off", "need_resched", "hardirq", "softirq",
  "preempt_depth",
};

static const char common_sql[] =
  "ts INTEGER, cpu INTEGER, pid INTEGER, comm TEXT, irqs_off INTEGER,"
  " need_resched INTEGER, hardirq INTEGER, softirq INTEGER, preempt_depth INTEGER";

static gboolean passes_filters (CsSqlEventCursor  *cur,
                                gboolean          *passes,
                                GError           **error);

static void
event_table_free (gpointer data)
{
  CsSqlEventTable *t = data;

  g_clear_pointer (&t->fields, g_ptr_array_unref);
  g_clear_pointer (&t->states, g_array_unref);
  g_free (t->base.schema);
  g_free (t->base.declared);
  g_free (t);
}

static int
event_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **out)
{
  CsSqlEventCursor *cur = g_new0 (CsSqlEventCursor, 1);

  cur->table = (CsSqlEventTable *) ((CsSqlVtab *) vtab)->table;
  cur->eof = TRUE;
  *out = &cur->base;
  return SQLITE_OK;
}

static int
event_close (sqlite3_vtab_cursor *cursor)
{
  CsSqlEventCursor *cur = (CsSqlEventCursor *) cursor;

  g_clear_pointer (&cur->groups, g_array_unref);
  g_free (cur->heads);
  g_free (cur);
  return SQLITE_OK;
}

/* The rows of @cpu within the bounds: [*row, *row_end); FALSE when none
 * (or on error, with @error set). */
static gboolean
cpu_rows (CsSqlEventCursor  *cur,
          guint         cpu,
          guint64      *row,
          guint64      *row_end,
          GError      **error)
{
  CsDocument *doc = cur->table->base.ctx->document;
  const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);

  if (info == NULL || info->n_events == 0)
    return FALSE;
  if (cur->table->type_id >= 0 &&
      cs_document_get_cpu_type_count (doc, cpu, cur->table->type_id) == 0)
    return FALSE;
  if (cur->bounds.begin_ns > info->last_ns || cur->bounds.end_ns <= info->first_ns)
    return FALSE;
  *row = cur->bounds.begin_ns > info->first_ns
         ? _cs_document_count_before (doc, cpu, cur->bounds.begin_ns, error) : 0;
  *row_end = cur->bounds.end_ns <= info->last_ns
             ? _cs_document_count_before (doc, cpu, cur->bounds.end_ns, error)
             : info->n_events;
  return *row < *row_end;
}

/* Makes row @i of @cache (CPU-local row @row of @cpu) the cursor's event
 * when it is of the table's type and pid and may pass the field filters;
 * *@taken says whether it was.  Returns an SQLite code. */
static int
take_row (CsSqlEventCursor   *cur,
          CsEventChunkCache  *cache,
          guint               i,
          guint               cpu,
          guint64             row,
          gboolean           *taken)
{
  gint type_id = cur->table->type_id;
  GError *error = NULL;

  *taken = FALSE;
  if (type_id >= 0 && cache->cols[EV_TYPE][i] != type_id)
    return SQLITE_OK;
  if (cur->bounds.pid >= 0 && cache->cols[EV_PID][i] != cur->bounds.pid)
    return SQLITE_OK;
  cur->ev.ts_ns = cache->cols[EV_TS][i];
  cur->ev.pid = (gint32) cache->cols[EV_PID][i];
  cur->ev.type_id = (guint32) cache->cols[EV_TYPE][i];
  cur->ev.offset = (guint64) cache->cols[EV_OFFSET][i];
  cur->ev.cpu = cpu;
  cur->ev.row = row;
  cur->have_record = FALSE;
  if (cur->n_filters > 0 && !passes_filters (cur, taken, &error))
    return _cs_sql_vtab_fail (&cur->base, error);
  if (cur->n_filters == 0)
    *taken = TRUE;
  return SQLITE_OK;
}

/* The chunk that holds CPU-local row @row of @cpu, or NULL after failing
 * the cursor's query. */
static CsEventChunkCache *
chunk_of (CsSqlEventCursor *cur,
          guint             cpu,
          guint64           row)
{
  CsDocument *doc = cur->table->base.ctx->document;
  CsEventChunkCache *cache;
  GError *error = NULL;

  cache = _cs_document_get_chunk (doc, cpu, row / CS_EVENT_CHUNK_ROWS, &error);
  if (cache == NULL)
    {
      _cs_sql_vtab_fail (&cur->base, error);
      return NULL;
    }
  if (row < cache->first_row || row - cache->first_row >= cache->n)
    {
      g_set_error (&error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   row < cache->first_row ? _("The index %s misplaces event %" PRIu64 " of CPU %u")
                                          : _("The index %s lacks event %" PRIu64 " of CPU %u"),
                   cs_document_get_index_path (doc), row, cpu);
      _cs_sql_vtab_fail (&cur->base, error);
      return NULL;
    }
  return cache;
}

/* Finds @cpu's next row of the table's type and pid that may pass the
 * field filters, into cur->ev: forwards, the first in [*@row, @row_end);
 * @backwards, the last in [@row_begin, *@row).  *@row becomes the row
 * found (or where the search stopped); *@found says whether there was
 * one.  Returns an SQLite code. */
static int
find_in_cpu (CsSqlEventCursor *cur,
             guint             cpu,
             guint64          *row,
             guint64           row_begin,
             guint64           row_end,
             gboolean          backwards,
             gboolean         *found)
{
  CsDocument *doc = cur->table->base.ctx->document;

  *found = FALSE;
  while (backwards ? *row > row_begin : *row < row_end)
    {
      guint64 chunk = (backwards ? *row - 1 : *row) / CS_EVENT_CHUNK_ROWS;
      CsEventChunkCache *cache;
      int rc;

      /* A chunk without the table's type is passed over undecoded: a
       * typed table of a rare event reads only the chunks that hold it. */
      if (cur->table->type_id >= 0 &&
          !_cs_document_chunk_may_hold_type (doc, cpu, (gint64) chunk, (guint) cur->table->type_id))
        {
          *row = backwards ? MAX (row_begin, chunk * CS_EVENT_CHUNK_ROWS)
                           : MIN (row_end, (chunk + 1) * CS_EVENT_CHUNK_ROWS);
          continue;
        }
      cache = chunk_of (cur, cpu, backwards ? *row - 1 : *row);
      if (cache == NULL)
        return SQLITE_ERROR;
      if (!backwards)
        {
          guint n = (guint) MIN ((guint64) cache->n, row_end - cache->first_row);

          for (guint i = *row - cache->first_row; i < n; i++, (*row)++)
            if ((rc = take_row (cur, cache, i, cpu, *row, found)) != SQLITE_OK || *found)
              return rc;
        }
      else
        {
          guint lo = row_begin > cache->first_row ? (guint) (row_begin - cache->first_row) : 0;

          for (guint i = *row - cache->first_row; i-- > lo;)
            {
              *row = cache->first_row + i;
              if ((rc = take_row (cur, cache, i, cpu, *row, found)) != SQLITE_OK || *found)
                return rc;
            }
          *row = cache->first_row + lo;
        }
      /* Past this chunk or past the range: go on with the next one. */
    }
  return SQLITE_OK;
}

/* From cur->cpu and cur->row on, finds the next row CPU by CPU; eof
 * after the last CPU. */
static int
seek (CsSqlEventCursor *cur)
{
  while (!cur->eof)
    {
      GError *error = NULL;
      gboolean found;
      int rc;

      if (cur->row >= cur->row_end)
        {
          /* The first CPU after the one read out (from cur->cpu on, at
           * the start) with rows in the bounds. */
          if (cur->in_cpu)
            cur->cpu++;
          cur->in_cpu = FALSE;
          for (; cur->cpu < cur->cpu_end; cur->cpu++)
            if (cpu_rows (cur, cur->cpu, &cur->row, &cur->row_end, &error) || error != NULL)
              break;
          if (error != NULL)
            return _cs_sql_vtab_fail (&cur->base, error);
          if (cur->cpu >= cur->cpu_end)
            {
              cur->eof = TRUE;
              return SQLITE_OK;
            }
          cur->in_cpu = TRUE;
        }
      rc = find_in_cpu (cur, cur->cpu, &cur->row, 0, cur->row_end, FALSE, &found);
      if (rc != SQLITE_OK || found)
        return rc;
    }
  return SQLITE_OK;
}

/* ORDER BY ts: each CPU's next row, in a heap by (ts, cpu), or by
 * (ts, cpu) descending for ORDER BY ts DESC. */
static gboolean
head_before (const CsSqlEventCursor *cur,
             const CsSqlMergeHead   *a,
             const CsSqlMergeHead   *b)
{
  if (cur->merge == CS_SQL_MERGE_DESC)
    return a->ev.ts_ns > b->ev.ts_ns || (a->ev.ts_ns == b->ev.ts_ns && a->ev.cpu > b->ev.cpu);
  return a->ev.ts_ns < b->ev.ts_ns || (a->ev.ts_ns == b->ev.ts_ns && a->ev.cpu < b->ev.cpu);
}

static void
heap_sift_down (CsSqlEventCursor *cur,
                guint        i)
{
  CsSqlMergeHead *h = cur->heads;

  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      CsSqlMergeHead tmp;

      if (l < cur->n_heads && head_before (cur, &h[l], &h[m]))
        m = l;
      if (r < cur->n_heads && head_before (cur, &h[r], &h[m]))
        m = r;
      if (m == i)
        return;
      tmp = h[i];
      h[i] = h[m];
      h[m] = tmp;
      i = m;
    }
}

/* Makes the heap's first head the cursor's row; eof when none is left. */
static void
merge_current (CsSqlEventCursor *cur)
{
  if (cur->n_heads == 0)
    {
      cur->eof = TRUE;
      return;
    }
  cur->ev = cur->heads[0].ev;
  cur->have_record = FALSE;     /* the record read last may be another CPU's */
}

static int
merge_start (CsSqlEventCursor *cur)
{
  g_clear_pointer (&cur->heads, g_free);
  cur->heads = g_new0 (CsSqlMergeHead, MAX (cur->cpu_end - cur->cpu, 1));
  cur->n_heads = 0;
  for (guint cpu = cur->cpu; cpu < cur->cpu_end; cpu++)
    {
      CsSqlMergeHead *h = &cur->heads[cur->n_heads];
      GError *error = NULL;
      gboolean found;
      int rc;

      if (!cpu_rows (cur, cpu, &h->row_begin, &h->row_end, &error))
        {
          if (error != NULL)
            return _cs_sql_vtab_fail (&cur->base, error);
          continue;
        }
      h->row = cur->merge == CS_SQL_MERGE_DESC ? h->row_end : h->row_begin;
      rc = find_in_cpu (cur, cpu, &h->row, h->row_begin, h->row_end,
                        cur->merge == CS_SQL_MERGE_DESC, &found);
      if (rc != SQLITE_OK)
        return rc;
      if (found)
        {
          h->ev = cur->ev;
          cur->n_heads++;
        }
    }
  for (guint i = cur->n_heads / 2; i-- > 0;)
    heap_sift_down (cur, i);
  merge_current (cur);
  return SQLITE_OK;
}

static int
merge_next (CsSqlEventCursor *cur)
{
  CsSqlMergeHead *h = &cur->heads[0];
  gint64 was_ns = h->ev.ts_ns;
  gboolean found;
  int rc;

  if (cur->merge == CS_SQL_MERGE_ASC)
    h->row++;
  rc = find_in_cpu (cur, h->ev.cpu, &h->row, h->row_begin, h->row_end,
                    cur->merge == CS_SQL_MERGE_DESC, &found);
  if (rc != SQLITE_OK)
    return rc;
  if (found && (cur->merge == CS_SQL_MERGE_DESC ? cur->ev.ts_ns > was_ns : cur->ev.ts_ns < was_ns))
    {
      /* Rows already handed out would be out of order: say so rather
       * than answer wrongly (the index is built in each CPU's order). */
      return _cs_sql_vtab_fail (&cur->base,
          g_error_new (CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("The index %s holds events of CPU %u out of time order;"
                         " sort by ts + 0 instead of ts"),
                       cs_document_get_index_path (cur->table->base.ctx->document), h->ev.cpu));
    }
  if (found)
    h->ev = cur->ev;
  else
    cur->heads[0] = cur->heads[--cur->n_heads];
  heap_sift_down (cur, 0);
  merge_current (cur);
  return SQLITE_OK;
}

/* Moves to the next counted row; eof after the last group. */
static void
next_counted (CsSqlEventCursor *cur)
{
  const CsSqlCountGroup *g;

  while (cur->left == 0)
    {
      if (cur->group >= cur->groups->len)
        {
          cur->eof = TRUE;
          return;
        }
      g = &g_array_index (cur->groups, CsSqlCountGroup, cur->group++);
      cur->left = cur->weighted ? 1 : g->n;
      cur->weight = cur->weighted ? g->n : 1;
      cur->state_null = g->state_null;
      cur->state = g->state;
      cur->ev.pid = g->pid;
      cur->ev.ts_ns = g->ts;
      cur->ev.cpu = g->cpu < 0 ? 0 : (guint) g->cpu;
      cur->ev.type_id = g->type_id < 0 ? G_MAXUINT32 : (guint32) g->type_id;
      cur->ev.row = 0;
      cur->comm = cs_document_get_comm (cur->table->base.ctx->document, g->pid);
      cur->comm_len = (int) strlen (cur->comm);
    }
  cur->left--;
}

static int
event_filter (sqlite3_vtab_cursor  *cursor,
              int                   idx_num,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  CsSqlEventCursor *cur = (CsSqlEventCursor *) cursor;
  CsSqlEventTable *t = cur->table;
  guint n_cpus = cs_document_get_n_cpus (t->base.ctx->document);
  CsSqlEventPlan plan;
  /* A plan that does not parse is all zeros. */
  gboolean parsed = _cs_sql_event_plan_parse (&plan, idx_str);
  GError *error = NULL;
  int n_args = 0;

  for (int k = 0; k < N_TABLE_ARGS; k++)
    n_args += plan.arg[k];
  if (!parsed || plan.n_generic + n_args + plan.n_fields > argc)
    return _cs_sql_vtab_fail (cursor, g_error_new (CS_SQL_ERROR, CS_SQL_ERROR_FAILED,
                                                   "bad plan %s", idx_str ? idx_str : "(null)"));
  _cs_sql_bounds_decode (&cur->bounds, idx_num, plan.n_generic, argv);
  n_args = 0;
  for (int k = 0; k < N_TABLE_ARGS; k++)
    {
      cur->has_arg[k] = FALSE;
      if (plan.arg[k] &&
          !_cs_sql_event_table_arg (&cur->bounds, k, argv[plan.n_generic + n_args++],
                                    &cur->has_arg[k], &cur->arg_value[k], &error))
        return _cs_sql_vtab_fail (cursor, error);
    }
  cur->eof = FALSE;
  cur->have_record = FALSE;
  cur->n_filters = 0;
  for (int i = 0; i < plan.n_fields; i++)
    {
      sqlite3_value *v = argv[plan.n_generic + n_args + i];
      struct tep_format_field *f = _cs_sql_event_integer_field (t, plan.field[i]);

      if (sqlite3_value_numeric_type (v) == SQLITE_NULL)
        cur->bounds.empty = TRUE;     /* comparisons with NULL are never true */
      /* Only integers filter: SQLite's own check covers the rest. */
      if (f == NULL || sqlite3_value_numeric_type (v) != SQLITE_INTEGER)
        continue;
      cur->filters[cur->n_filters].field = f;
      cur->filters[cur->n_filters].op = plan.field_op[i];
      cur->filters[cur->n_filters].value = sqlite3_value_int64 (v);
      cur->n_filters++;
    }

  cur->count_by = plan.count_by;
  cur->weighted = plan.weighted;
  cur->weight = 1;
  g_clear_pointer (&cur->groups, g_array_unref);
  if (cur->count_by != CS_SQL_COUNT_NONE && plan.bucketed)
    {
      CsSqlBuckets buckets = { cur->arg_value[ARG_WIDTH],
                               cur->has_arg[ARG_ORIGIN] ? cur->arg_value[ARG_ORIGIN] : 0 };
      gboolean answered = FALSE;

      /* A width of NULL, or buckets too many to keep: the scan, whose
       * rows read their own ts. */
      if (cur->has_arg[ARG_WIDTH])
        {
          cur->groups = _cs_sql_count_bucket_groups (t->base.ctx->document, t->type_id, cur->count_by,
                                                     &cur->bounds, &buckets, MAX_BUCKET_GROUPS,
                                                     &answered, &error);
          if (cur->groups == NULL && error != NULL)
            return _cs_sql_vtab_fail (cursor, error);
        }
      if (!answered)
        cur->count_by = CS_SQL_COUNT_NONE;
    }
  else if (cur->count_by != CS_SQL_COUNT_NONE)
    {
      cur->groups = _cs_sql_count_groups (t->base.ctx->document, t->type_id, cur->count_by,
                                          &cur->bounds, t->states, plan.order, plan.n_order,
                                          &error);
      if (cur->groups == NULL)
        return _cs_sql_vtab_fail (cursor, error);
    }
  if (cur->count_by != CS_SQL_COUNT_NONE)
    {
      for (guint i = 0; plan.distinct && i < cur->groups->len; i++)
        g_array_index (cur->groups, CsSqlCountGroup, i).n = 1;
      cur->group = 0;
      cur->left = 0;
      cur->n_counted = 0;
      next_counted (cur);
      return SQLITE_OK;
    }

  cur->cpu = 0;
  cur->cpu_end = n_cpus;
  if (cur->bounds.cpu >= 0)
    {
      cur->cpu = (guint) MIN (cur->bounds.cpu, (gint64) n_cpus);
      cur->cpu_end = MIN (cur->cpu + 1, n_cpus);
    }
  if (cur->bounds.empty)
    {
      cur->eof = TRUE;
      return SQLITE_OK;
    }
  cur->merge = plan.merge;
  if (cur->merge)
    return merge_start (cur);
  cur->row = cur->row_end = 0;
  cur->in_cpu = FALSE;
  return seek (cur);
}

static int
event_next (sqlite3_vtab_cursor *cursor)
{
  CsSqlEventCursor *cur = (CsSqlEventCursor *) cursor;

  if (cur->count_by != CS_SQL_COUNT_NONE)
    {
      cur->n_counted++;
      cur->ev.row++;
      next_counted (cur);
      return SQLITE_OK;
    }
  if (cur->merge)
    return merge_next (cur);
  cur->row++;
  return seek (cur);
}

static int
event_eof (sqlite3_vtab_cursor *cursor)
{
  return ((CsSqlEventCursor *) cursor)->eof;
}

static int
event_rowid (sqlite3_vtab_cursor *cursor,
             sqlite3_int64       *rowid)
{
  CsSqlEventCursor *cur = (CsSqlEventCursor *) cursor;

  /* Unique within the recording: the CPU in the top bits.  Rows counted
   * per CPU of `events` are all the CPU's rows, in order; other counted
   * rows are numbered as they come. */
  if (cur->count_by == CS_SQL_COUNT_NONE ||
      (cur->count_by == CS_SQL_COUNT_BY_CPU && cur->table->type_id < 0 &&
       !cur->has_arg[ARG_BEGIN] && !cur->has_arg[ARG_END] && !cur->has_arg[ARG_WIDTH]))
    *rowid = ((sqlite3_int64) cur->ev.cpu << 40) | (sqlite3_int64) cur->ev.row;
  else
    *rowid = (sqlite3_int64) cur->n_counted;
  return SQLITE_OK;
}

/* Reads the current event's record, unless it is still the last one read. */
static gboolean
read_record (CsSqlEventCursor  *cur,
             GError      **error)
{
  CsSqlContext *ctx = cur->table->base.ctx;

  if (cur->have_record && cur->read_gen == ctx->read_gen)
    return TRUE;
  if (ctx->trace_file == NULL)
    {
      g_set_error_literal (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                           _("The recording can no longer be read"));
      return FALSE;
    }
  if (!cs_trace_file_read_at (ctx->trace_file, cur->ev.cpu, cur->ev.offset, &cur->record, error))
    return FALSE;
  cur->read_gen = ++ctx->read_gen;
  cur->have_record = TRUE;
  return TRUE;
}

static gboolean
load_record (CsSqlEventCursor      *cur,
             sqlite3_context  *context)
{
  g_autoptr(GError) error = NULL;

  if (read_record (cur, &error))
    return TRUE;
  sqlite3_result_error (context, error->message, -1);
  return FALSE;
}

/* Where field @f's value lies in @rec: FALSE when the record is too short
 * for it (a damaged record: never read past it). */
static gboolean
field_span (struct tep_handle       *tep,
            struct tep_format_field *f,
            struct tep_record       *rec,
            gsize                   *off_out,
            gsize                   *len_out)
{
  const guint8 *data = rec->data;
  gsize size = rec->size > 0 ? (gsize) rec->size : 0;
  gsize off = f->offset, len = f->size;

  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    {
      guint32 loc;

      if (off + 4 > size)
        return FALSE;
      loc = (guint32) tep_read_number (tep, data + off, 4);
      len = loc >> 16;
      off = (f->flags & TEP_FIELD_IS_RELATIVE) ? off + f->size + (loc & 0xffff) : (loc & 0xffff);
    }
  else if ((f->flags & TEP_FIELD_IS_ARRAY) && len == 0 && off <= size)
    len = size - off;   /* a flexible array (ftrace's print: char buf[]) runs to the end */
  if (off > size || len > size - off)
    return FALSE;
  *off_out = off;
  *len_out = len;
  return TRUE;
}

/* The value of an integer field of @len bytes at @data, as SQLite gets it:
 * signed or not as the format says, unsigned 64-bit values wrapping. */
static gint64
field_integer (struct tep_handle             *tep,
               const struct tep_format_field *f,
               const guint8                  *data,
               gsize                          len)
{
  guint64 v = tep_read_number (tep, data, (int) len);

  if ((f->flags & TEP_FIELD_IS_SIGNED) && len < 8 && (v & (G_GUINT64_CONSTANT (1) << (len * 8 - 1))))
    v |= ~((G_GUINT64_CONSTANT (1) << (len * 8)) - 1);
  return (gint64) v;
}

/* Whether the current row may pass the field filters: FALSE only when a
 * filter surely fails (SQLite checks the rest). */
static gboolean
passes_filters (CsSqlEventCursor  *cur,
                gboolean     *passes,
                GError      **error)
{
  struct tep_handle *tep;

  *passes = TRUE;
  if (!read_record (cur, error))
    return FALSE;
  tep = cs_trace_file_get_tep (cur->table->base.ctx->trace_file);
  for (guint i = 0; i < cur->n_filters && *passes; i++)
    {
      const CsSqlFieldFilter *ff = &cur->filters[i];
      gsize off, len;
      gint64 v;

      if (!field_span (tep, ff->field, cur->record.tep_record, &off, &len))
        continue;       /* NULL: SQLite rejects the row itself */
      v = field_integer (tep, ff->field, (const guint8 *) cur->record.tep_record->data + off, len);
      switch (ff->op)
        {
        case SQLITE_INDEX_CONSTRAINT_EQ: *passes = v == ff->value; break;
        case SQLITE_INDEX_CONSTRAINT_GT: *passes = v > ff->value; break;
        case SQLITE_INDEX_CONSTRAINT_GE: *passes = v >= ff->value; break;
        case SQLITE_INDEX_CONSTRAINT_LT: *passes = v < ff->value; break;
        case SQLITE_INDEX_CONSTRAINT_LE: *passes = v <= ff->value; break;
        default: break;
        }
    }
  return TRUE;
}

static void
result_field (sqlite3_context         *context,
              struct tep_handle       *tep,
              struct tep_format_field *f,
              struct tep_record       *rec)
{
  const guint8 *data = rec->data;
  gsize off, len;

  if (!field_span (tep, f, rec, &off, &len))
    sqlite3_result_null (context);
  else if (f->flags & TEP_FIELD_IS_STRING)
    sqlite3_result_text (context, (const char *) data + off,
                         (int) strnlen ((const char *) data + off, len), SQLITE_TRANSIENT);
  else if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
           (len != 1 && len != 2 && len != 4 && len != 8))
    sqlite3_result_blob (context, data + off, (int) len, SQLITE_TRANSIENT);
  else
    sqlite3_result_int64 (context, field_integer (tep, f, data + off, len));
}

static int
event_column (sqlite3_vtab_cursor *cursor,
              sqlite3_context     *context,
              int                  column)
{
  CsSqlEventCursor *cur = (CsSqlEventCursor *) cursor;
  CsSqlEventTable *t = cur->table;
  CsDocument *doc = t->base.ctx->document;
  struct tep_handle *tep;
  int flags, pc;

  if (column == t->weight_column)
    {
      sqlite3_result_int64 (context, (sqlite3_int64) cur->weight);
      return SQLITE_OK;
    }
  if (column >= t->arg_column && column < t->arg_column + N_TABLE_ARGS)
    {
      int k = column - t->arg_column;

      if (cur->has_arg[k])
        sqlite3_result_int64 (context, cur->arg_value[k]);
      else
        sqlite3_result_null (context);
      return SQLITE_OK;
    }
  switch (column)
    {
    case COL_TS:
      sqlite3_result_int64 (context, cur->ev.ts_ns);
      return SQLITE_OK;
    case COL_CPU:
      sqlite3_result_int (context, cur->ev.cpu);
      return SQLITE_OK;
    case COL_PID:
      sqlite3_result_int (context, cur->ev.pid);
      return SQLITE_OK;
    case COL_COMM:
      /* The document's strings live as long as the session. */
      if (cur->count_by != CS_SQL_COUNT_NONE)
        sqlite3_result_text (context, cur->comm, cur->comm_len, SQLITE_STATIC);
      else
        sqlite3_result_text (context, cs_document_get_comm (doc, cur->ev.pid), -1, SQLITE_STATIC);
      return SQLITE_OK;
    default:
      break;
    }
  if (t->type_id < 0 && (column == COL_SYSTEM || column == COL_NAME))
    {
      const CsEventType *type = cur->ev.type_id == G_MAXUINT32 ? NULL
                                : cs_document_get_event_type (doc, cur->ev.type_id);

      if (type == NULL)
        sqlite3_result_null (context);
      else
        sqlite3_result_text (context, column == COL_SYSTEM ? type->system : type->name, -1,
                             SQLITE_STATIC);
      return SQLITE_OK;
    }
  if (cur->count_by == CS_SQL_COUNT_BY_CPU_STATE && column == t->state_column)
    {
      if (cur->state_null)
        sqlite3_result_null (context);
      else
        sqlite3_result_int64 (context, cur->state);
      return SQLITE_OK;
    }
  if (cur->count_by != CS_SQL_COUNT_NONE)
    {
      /* Never asked: the plan reads no other column. */
      sqlite3_result_null (context);
      return SQLITE_OK;
    }

  if (!load_record (cur, context))
    return SQLITE_OK;
  tep = cs_trace_file_get_tep (t->base.ctx->trace_file);
  if (column >= N_COMMON)
    {
      guint f = column - N_COMMON;

      if (t->fields == NULL || f >= t->fields->len)
        sqlite3_result_null (context);
      else
        result_field (context, tep, g_ptr_array_index (t->fields, f), cur->record.tep_record);
      return SQLITE_OK;
    }
  flags = tep_data_flags (tep, cur->record.tep_record);
  pc = tep_data_preempt_count (tep, cur->record.tep_record);
  switch (column)
    {
    case COL_IRQS_OFF:
      sqlite3_result_int (context, flags < 0 ? 0 : (flags & TRACE_FLAG_IRQS_OFF) != 0);
      break;
    case COL_NEED_RESCHED:
      sqlite3_result_int (context, flags < 0 ? 0 : (flags & TRACE_FLAG_NEED_RESCHED) != 0);
      break;
    case COL_HARDIRQ:
      sqlite3_result_int (context, flags < 0 ? 0 : (flags & TRACE_FLAG_HARDIRQ) != 0);
      break;
    case COL_SOFTIRQ:
      sqlite3_result_int (context, flags < 0 ? 0 : (flags & TRACE_FLAG_SOFTIRQ) != 0);
      break;
    case COL_PREEMPT_DEPTH:
      /* The low nibble; since Linux 5.14 the high one counts migrate_disable. */
      sqlite3_result_int (context, pc < 0 ? 0 : pc & 0x0f);
      break;
    default:
      sqlite3_result_null (context);
      break;
    }
  return SQLITE_OK;
}

static const sqlite3_module event_module = {
  .iVersion = 1,
  .xCreate = NULL,              /* eponymous only */
  .xConnect = _cs_sql_vtab_connect,
  .xBestIndex = _cs_sql_event_best_index,
  .xDisconnect = _cs_sql_vtab_disconnect,
  .xDestroy = _cs_sql_vtab_disconnect,
  .xOpen = event_open,
  .xClose = event_close,
  .xFilter = event_filter,
  .xNext = event_next,
  .xEof = event_eof,
  .xColumn = event_column,
  .xRowid = event_rowid,
};

static gboolean
is_common_name (const char *name)
{
  for (guint i = 0; i < N_COMMON; i++)
    if (g_str_equal (name, common_names[i]))
      return TRUE;
  return FALSE;
}


/* CREATE TABLE text of a typed table: the common columns, then one per
 * field; a field named like a common column (sched_wakeup's pid and comm,
 * the task woken) is called field_NAME. */
static char *
typed_schema (struct tep_event *format,
              GPtrArray        *fields)
{
  GString *s = g_string_new ("CREATE TABLE x(");

  g_string_append (s, common_sql);
  for (struct tep_format_field *f = format ? format->format.fields : NULL; f != NULL; f = f->next)
    {
      g_autofree char *name = is_common_name (f->name) ? g_strconcat ("field_", f->name, NULL)
                                                      : g_strdup (f->name);
      g_autofree char *quoted = _cs_sql_quote_identifier (name);

      g_string_append_printf (s, ", %s %s", quoted, _cs_sql_field_sql_type (f));
      g_ptr_array_add (fields, f);
    }
  g_string_append (s, ")");
  return g_string_free (s, FALSE);
}

/* @schema with the hidden columns _cs_begin, _cs_end, _cs_width,
 * _cs_origin and _cs_n last: a table-valued function's arguments go to
 * the hidden columns in order, so that events(BEGIN, END, WIDTH, ORIGIN)
 * sets the first four. */
static char *
declared_schema (const char *schema)
{
  gsize len = strlen (schema);

  g_assert (len > 0 && schema[len - 1] == ')');
  return g_strdup_printf ("%.*s, _cs_begin INTEGER HIDDEN, _cs_end INTEGER HIDDEN,"
                          " _cs_width INTEGER HIDDEN, _cs_origin INTEGER HIDDEN,"
                          " _cs_n INTEGER HIDDEN)", (int) len - 1, schema);
}

static gboolean
register_table (sqlite3       *db,
                CsSqlEventTable    *t,
                const char    *prefix,
                const char    *name,
                const char    *alias,
                GPtrArray     *tables,
                GError       **error)
{
  g_autofree char *module = g_strconcat (prefix != NULL ? prefix : "", name, NULL);
  g_autofree char *alias_module = alias != NULL ? g_strconcat (prefix != NULL ? prefix : "", alias, NULL)
                                                : NULL;
  int rc = sqlite3_create_module_v2 (db, module, &event_module, t, event_table_free);

  if (rc == SQLITE_OK && alias != NULL)
    rc = sqlite3_create_module_v2 (db, alias_module, &event_module, t, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the table %s: %s"),
                   name, sqlite3_errmsg (db));
      return FALSE;
    }
  g_ptr_array_add (tables, g_strdup (name));
  g_ptr_array_add (tables, g_strdup (t->base.schema));
  if (alias != NULL)
    {
      g_ptr_array_add (tables, g_strdup (alias));
      g_ptr_array_add (tables, g_strdup (t->base.schema));
    }
  return TRUE;
}

/* Registers `events` and, per event type with events, SYSTEM_EVENT and
 * "SYSTEM:EVENT" (characters other than letters, digits and _ become _ in
 * the first).  A name taken already (by a derived table or a type whose
 * name maps to the same) keeps its first owner. */
gboolean
_cs_sql_register_event_tables (sqlite3       *db,
                               CsSqlContext  *ctx,
                               const char    *prefix,
                               GPtrArray     *tables,
                               GError       **error)
{
  CsDocument *doc = ctx->document;
  struct tep_handle *tep = ctx->trace_file ? cs_trace_file_get_tep (ctx->trace_file) : NULL;
  g_autoptr(GHashTable) taken = g_hash_table_new (g_str_hash, g_str_equal);
  CsSqlEventTable *t;

  for (guint i = 0; i < tables->len; i += 2)
    g_hash_table_add (taken, tables->pdata[i]);

  t = g_new0 (CsSqlEventTable, 1);
  t->base.ctx = ctx;
  t->type_id = -1;
  t->counts_usable[0] = t->counts_usable[1] = -1;
  t->base.schema = g_strdup_printf ("CREATE TABLE x(%s, system TEXT, name TEXT)", common_sql);
  t->arg_column = COL_NAME + 1;
  t->weight_column = t->arg_column + N_TABLE_ARGS;
  t->state_column = -1;
  t->base.declared = declared_schema (t->base.schema);
  if (!register_table (db, t, prefix, "events", NULL, tables, error))
    return FALSE;

  for (guint id = 0; id < cs_document_get_n_event_types (doc); id++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, id);
      g_autofree char *name = NULL;
      g_autofree char *alias = NULL;
      struct tep_event *format;

      if (type->n_events == 0)
        continue;
      name = g_strdup_printf ("%s_%s", type->system, type->name);
      g_strcanon (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", '_');
      alias = g_strdup_printf ("%s:%s", type->system, type->name);
      if (g_hash_table_contains (taken, name) || g_hash_table_contains (taken, alias))
        {
          g_debug ("Event type %s:%s has no table: its name %s is taken",
                   type->system, type->name, name);
          continue;
        }
      format = tep ? tep_find_event_by_name (tep, type->system, type->name) : NULL;
      t = g_new0 (CsSqlEventTable, 1);
      t->base.ctx = ctx;
      t->type_id = id;
      t->counts_usable[0] = t->counts_usable[1] = -1;
      t->fields = g_ptr_array_new ();
      t->base.schema = typed_schema (format, t->fields);
      t->arg_column = N_COMMON + (int) t->fields->len;
      t->weight_column = t->arg_column + N_TABLE_ARGS;
      t->state_column = -1;
      t->states_usable = -1;
      for (guint f = 0; f < t->fields->len; f++)
        if (g_str_equal (((struct tep_format_field *) t->fields->pdata[f])->name, "prev_state"))
          t->state_column = N_COMMON + (int) f;
      t->base.declared = declared_schema (t->base.schema);
      if (!register_table (db, t, prefix, name, alias, tables, error))
        return FALSE;
      g_hash_table_add (taken, tables->pdata[tables->len - 4]);
      g_hash_table_add (taken, tables->pdata[tables->len - 2]);
    }
  return TRUE;
}
