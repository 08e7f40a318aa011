/* cs-sql-event-tables.c: the `events` table and one table per event type.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Rows come from the index's per-CPU event chunks, CPU by CPU and in time
 * order within a CPU (ORDER BY ts merges them).  A ts range becomes a range
 * of CPU-local rows (two chunk lookups per CPU), a cpu constraint selects
 * one CPU, and a typed table skips CPUs that never saw its type; the rows
 * between are read chunk by chunk, never all at once.
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

#include "cs-sql-private.h"

enum {
  COL_TS, COL_CPU, COL_PID, COL_COMM,
  COL_IRQS_OFF, COL_NEED_RESCHED, COL_HARDIRQ, COL_SOFTIRQ, COL_PREEMPT_DEPTH,
  N_COMMON,
  /* events only */
  COL_SYSTEM = N_COMMON, COL_NAME,
};

static const char * const common_names[N_COMMON] = {
  "ts", "cpu", "pid", "comm", "irqs_off", "need_resched", "hardirq", "softirq",
  "preempt_depth",
};

static const char common_sql[] =
  "ts INTEGER, cpu INTEGER, pid INTEGER, comm TEXT, irqs_off INTEGER,"
  " need_resched INTEGER, hardirq INTEGER, softirq INTEGER, preempt_depth INTEGER";

typedef struct {
  CsSqlTable base;
  gint type_id;                 /* -1: every event */
  GPtrArray *fields;            /* struct tep_format_field *, borrowed */
} EventTable;

typedef struct {
  sqlite3_vtab_cursor base;
  EventTable *table;
  CsSqlBounds bounds;
  guint cpu, cpu_end;
  guint64 row, row_end;
  gboolean eof;
  CsEvent ev;
  gboolean have_record;
  guint64 read_gen;
  CsRecord record;
} EventCursor;

static const CsSqlPushdown event_pushdown = { COL_TS, COL_CPU, COL_PID };

static void
event_table_free (gpointer data)
{
  EventTable *t = data;

  g_clear_pointer (&t->fields, g_ptr_array_unref);
  g_free (t->base.schema);
  g_free (t);
}

static int
event_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  EventTable *t = (EventTable *) ((CsSqlVtab *) vtab)->table;
  CsDocument *doc = t->base.ctx->document;
  double rows = t->type_id < 0 ? (double) cs_document_get_n_events (doc)
                               : (double) cs_document_get_event_type (doc, t->type_id)->n_events;

  return _cs_sql_best_index (&event_pushdown, info, rows);
}

static int
event_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **out)
{
  EventCursor *cur = g_new0 (EventCursor, 1);

  cur->table = (EventTable *) ((CsSqlVtab *) vtab)->table;
  cur->eof = TRUE;
  *out = &cur->base;
  return SQLITE_OK;
}

static int
event_close (sqlite3_vtab_cursor *cursor)
{
  g_free (cursor);
  return SQLITE_OK;
}

/* Moves to the first CPU at or after cur->cpu with rows in the bounds and
 * sets its row range; eof when none. */
static int
start_cpu (EventCursor *cur)
{
  CsDocument *doc = cur->table->base.ctx->document;
  GError *error = NULL;

  for (; cur->cpu < cur->cpu_end; cur->cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (doc, cur->cpu);

      if (info == NULL || info->n_events == 0)
        continue;
      if (cur->table->type_id >= 0 &&
          cs_document_get_cpu_type_count (doc, cur->cpu, cur->table->type_id) == 0)
        continue;
      if (cur->bounds.begin_ns > info->last_ns || cur->bounds.end_ns <= info->first_ns)
        continue;
      cur->row = cur->bounds.begin_ns > info->first_ns
                 ? _cs_document_count_before (doc, cur->cpu, cur->bounds.begin_ns, &error) : 0;
      cur->row_end = cur->bounds.end_ns <= info->last_ns
                     ? _cs_document_count_before (doc, cur->cpu, cur->bounds.end_ns, &error)
                     : info->n_events;
      if (error != NULL)
        return _cs_sql_vtab_fail (&cur->base, error);
      if (cur->row < cur->row_end)
        return SQLITE_OK;
    }
  cur->eof = TRUE;
  return SQLITE_OK;
}

/* From cur->row on, finds the next row of the table's type and pid. */
static int
seek (EventCursor *cur)
{
  CsDocument *doc = cur->table->base.ctx->document;
  gint type_id = cur->table->type_id;
  gint64 pid = cur->bounds.pid;

  cur->have_record = FALSE;
  while (!cur->eof)
    {
      CsEventChunkCache *cache;
      GError *error = NULL;
      guint i, n;

      if (cur->row >= cur->row_end)
        {
          int rc;

          cur->cpu++;
          rc = start_cpu (cur);
          if (rc != SQLITE_OK)
            return rc;
          continue;
        }
      cache = _cs_document_get_chunk (doc, cur->cpu, cur->row / CS_EVENT_CHUNK_ROWS, &error);
      if (cache == NULL)
        return _cs_sql_vtab_fail (&cur->base, error);
      if (cur->row < cache->first_row)
        {
          g_set_error (&error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("The index %s misplaces event %" PRIu64 " of CPU %u"),
                       cs_document_get_index_path (doc), cur->row, cur->cpu);
          return _cs_sql_vtab_fail (&cur->base, error);
        }
      i = cur->row - cache->first_row;
      if (i >= cache->n)
        {
          g_set_error (&error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("The index %s lacks event %" PRIu64 " of CPU %u"),
                       cs_document_get_index_path (doc), cur->row, cur->cpu);
          return _cs_sql_vtab_fail (&cur->base, error);
        }
      n = (guint) MIN ((guint64) cache->n, cur->row_end - cache->first_row);
      for (; i < n; i++, cur->row++)
        {
          if (type_id >= 0 && cache->cols[EV_TYPE][i] != type_id)
            continue;
          if (pid >= 0 && cache->cols[EV_PID][i] != pid)
            continue;
          cur->ev.ts_ns = cache->cols[EV_TS][i];
          cur->ev.pid = (gint32) cache->cols[EV_PID][i];
          cur->ev.type_id = (guint32) cache->cols[EV_TYPE][i];
          cur->ev.offset = (guint64) cache->cols[EV_OFFSET][i];
          cur->ev.cpu = cur->cpu;
          cur->ev.row = cur->row;
          return SQLITE_OK;
        }
      /* Past this chunk or past the range: go on with the next one. */
    }
  return SQLITE_OK;
}

static int
event_filter (sqlite3_vtab_cursor  *cursor,
              int                   idx_num,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  EventCursor *cur = (EventCursor *) cursor;
  guint n_cpus = cs_document_get_n_cpus (cur->table->base.ctx->document);
  int rc;

  _cs_sql_bounds_decode (&cur->bounds, idx_num, argc, argv);
  cur->eof = FALSE;
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
  rc = start_cpu (cur);
  return rc == SQLITE_OK ? seek (cur) : rc;
}

static int
event_next (sqlite3_vtab_cursor *cursor)
{
  EventCursor *cur = (EventCursor *) cursor;

  cur->row++;
  return seek (cur);
}

static int
event_eof (sqlite3_vtab_cursor *cursor)
{
  return ((EventCursor *) cursor)->eof;
}

static int
event_rowid (sqlite3_vtab_cursor *cursor,
             sqlite3_int64       *rowid)
{
  EventCursor *cur = (EventCursor *) cursor;

  /* Unique within the recording: the CPU in the top bits. */
  *rowid = ((sqlite3_int64) cur->ev.cpu << 40) | (sqlite3_int64) cur->ev.row;
  return SQLITE_OK;
}

/* Reads the current event's record, unless it is still the last one read. */
static gboolean
load_record (EventCursor      *cur,
             sqlite3_context  *context)
{
  CsSqlContext *ctx = cur->table->base.ctx;
  g_autoptr(GError) error = NULL;

  if (cur->have_record && cur->read_gen == ctx->read_gen)
    return TRUE;
  if (ctx->trace_file == NULL ||
      !cs_trace_file_read_at (ctx->trace_file, cur->ev.cpu, cur->ev.offset, &cur->record, &error))
    {
      sqlite3_result_error (context,
                            error ? error->message : _("The recording can no longer be read"), -1);
      return FALSE;
    }
  cur->read_gen = ++ctx->read_gen;
  cur->have_record = TRUE;
  return TRUE;
}

static void
result_field (sqlite3_context         *context,
              struct tep_handle       *tep,
              struct tep_format_field *f,
              struct tep_record       *rec)
{
  const guint8 *data = rec->data;
  gsize size = rec->size > 0 ? (gsize) rec->size : 0;
  gsize off = f->offset, len = f->size;

  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    {
      guint32 loc;

      if (off + 4 > size)
        {
          sqlite3_result_null (context);
          return;
        }
      loc = (guint32) tep_read_number (tep, data + off, 4);
      len = loc >> 16;
      off = (f->flags & TEP_FIELD_IS_RELATIVE) ? off + f->size + (loc & 0xffff) : (loc & 0xffff);
    }
  else if ((f->flags & TEP_FIELD_IS_ARRAY) && len == 0 && off <= size)
    len = size - off;   /* a flexible array (ftrace's print: char buf[]) runs to the end */
  if (off > size || len > size - off)
    {
      sqlite3_result_null (context);   /* a damaged record: never read past it */
      return;
    }
  if (f->flags & TEP_FIELD_IS_STRING)
    sqlite3_result_text (context, (const char *) data + off,
                         (int) strnlen ((const char *) data + off, len), SQLITE_TRANSIENT);
  else if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
           (len != 1 && len != 2 && len != 4 && len != 8))
    sqlite3_result_blob (context, data + off, (int) len, SQLITE_TRANSIENT);
  else
    {
      guint64 v = tep_read_number (tep, data + off, (int) len);

      if ((f->flags & TEP_FIELD_IS_SIGNED) && len < 8 && (v & (G_GUINT64_CONSTANT (1) << (len * 8 - 1))))
        v |= ~((G_GUINT64_CONSTANT (1) << (len * 8)) - 1);
      sqlite3_result_int64 (context, (sqlite3_int64) v);
    }
}

static int
event_column (sqlite3_vtab_cursor *cursor,
              sqlite3_context     *context,
              int                  column)
{
  EventCursor *cur = (EventCursor *) cursor;
  EventTable *t = cur->table;
  CsDocument *doc = t->base.ctx->document;
  struct tep_handle *tep;
  int flags, pc;

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
      sqlite3_result_text (context, cs_document_get_comm (doc, cur->ev.pid), -1, SQLITE_TRANSIENT);
      return SQLITE_OK;
    default:
      break;
    }
  if (t->type_id < 0 && (column == COL_SYSTEM || column == COL_NAME))
    {
      const CsEventType *type = cs_document_get_event_type (doc, cur->ev.type_id);

      if (type == NULL)
        sqlite3_result_null (context);
      else
        sqlite3_result_text (context, column == COL_SYSTEM ? type->system : type->name, -1,
                             SQLITE_TRANSIENT);
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
  .xBestIndex = event_best_index,
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

static const char *
field_sql_type (const struct tep_format_field *f)
{
  if (f->flags & TEP_FIELD_IS_STRING)
    return "TEXT";
  if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
      (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
    return "BLOB";
  return "INTEGER";
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

      g_string_append_printf (s, ", %s %s", quoted, field_sql_type (f));
      g_ptr_array_add (fields, f);
    }
  g_string_append (s, ")");
  return g_string_free (s, FALSE);
}

static gboolean
register_table (sqlite3       *db,
                EventTable    *t,
                const char    *name,
                const char    *alias,
                GPtrArray     *tables,
                GError       **error)
{
  int rc = sqlite3_create_module_v2 (db, name, &event_module, t, event_table_free);

  if (rc == SQLITE_OK && alias != NULL)
    rc = sqlite3_create_module_v2 (db, alias, &event_module, t, NULL);
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
                               GPtrArray     *tables,
                               GError       **error)
{
  CsDocument *doc = ctx->document;
  struct tep_handle *tep = ctx->trace_file ? cs_trace_file_get_tep (ctx->trace_file) : NULL;
  g_autoptr(GHashTable) taken = g_hash_table_new (g_str_hash, g_str_equal);
  EventTable *t;

  for (guint i = 0; i < tables->len; i += 2)
    g_hash_table_add (taken, tables->pdata[i]);

  t = g_new0 (EventTable, 1);
  t->base.ctx = ctx;
  t->type_id = -1;
  t->base.schema = g_strdup_printf ("CREATE TABLE x(%s, system TEXT, name TEXT)", common_sql);
  if (!register_table (db, t, "events", NULL, tables, error))
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
      t = g_new0 (EventTable, 1);
      t->base.ctx = ctx;
      t->type_id = id;
      t->fields = g_ptr_array_new ();
      t->base.schema = typed_schema (format, t->fields);
      if (!register_table (db, t, name, alias, tables, error))
        return FALSE;
      g_hash_table_add (taken, tables->pdata[tables->len - 4]);
      g_hash_table_add (taken, tables->pdata[tables->len - 2]);
    }
  return TRUE;
}
