/* cs-sql-streams.c: one SQL session over several recordings (streams).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each stream's tables are the one-document tables, made under the name
 * "streamN_TABLE" (N its index, from 0).  Over them, a TEMP view per table
 * name joins the streams that have it (UNION ALL), with a first column
 * `stream` and, for tables with ts and cpu, a last column `ts_aligned`:
 * the event's time on the session's common axis, or NULL where nothing
 * relates the stream's clock to it.  Columns that some streams' formats
 * lack are NULL for those streams.
 *
 * The common axis is the clock of the first stream that is not a related
 * guest.  A guest recording (TIME_SHIFT option) whose host is one of the
 * streams is aligned as trace-cmd aligns it (cs_time_relation_new(), per
 * event cs_time_relation_guest_to_host() of its vCPU); a guest whose host
 * is missing, names another host or has absurd offsets is not aligned,
 * and the streams table says why.  Other streams are aligned as recorded
 * when their clock is the axis's clock, else not.
 *
 * For a guest wakeup latency split into the guest's own wait and the time
 * its vCPU was not running, vcpu_out_ns(stream, cpu, begin_ts, end_ts)
 * gives how long of a guest span the host had the vCPU out of the guest
 * (exits, and not running on any host CPU), from the host's view of the
 * vCPU thread (cs-vcpu-timeline.h, made on first use);
 * vcpu_not_running_ns() only the time it was not running, where the host
 * recorded sched_switch.
 *
 * The views live in the connection's TEMP schema, made before the
 * authorizer is set; nothing else is in any schema, so the schema is
 * trusted (the views may use the virtual tables and the align function).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-sql-private.h"
#include "cs-tracedat-clock.h"
#include "cs-vcpu-timeline.h"

typedef struct {
  guint n;
  CsTracedatReader **readers;   /* NULL: not a trace.dat, or unreadable */
  CsTimeRelation **relations;   /* the relation to its host stream, or NULL */
  gint *host_of;                /* the host stream of a related guest, else -1 */
  gboolean *aligned;
  char **notes;                 /* why a stream is not aligned, or NULL */
  /* Per related guest, its host's view of its vCPUs: made on first use
   * (it reads the whole host recording), thread v for vCPU v. */
  CsVcpuTimeline **timelines;
  gboolean *timeline_failed;
} Streams;

static void
streams_free (gpointer data)
{
  Streams *s = data;

  for (guint k = 0; k < s->n; k++)
    {
      g_clear_object (&s->readers[k]);
      cs_time_relation_free (s->relations[k]);
      cs_vcpu_timeline_free (s->timelines[k]);
      g_free (s->notes[k]);
    }
  g_free (s->timelines);
  g_free (s->timeline_failed);
  g_free (s->readers);
  g_free (s->relations);
  g_free (s->host_of);
  g_free (s->aligned);
  g_free (s->notes);
  g_free (s);
}

/* The ring-buffer time of a guest event from its ns: the smallest tick
 * count that TSC2NSEC (and DATE/OFFSET) turn into @ns.  Several ticks make
 * one ns (x86-tsc), so the event's own tick may be up to one ns later:
 * the aligned time can be 1 ns earlier than trace-cmd's. */
static guint64
raw_from_ns (CsTracedatReader *reader, gint64 ns)
{
  guint32 mult = 0, shift = 0;
  gint64 rel = ns - cs_tracedat_reader_get_ts_offset (reader);
  unsigned __int128 scaled;

  if (rel < 0)
    return 0;
  if (!cs_tracedat_reader_get_tsc2nsec (reader, &mult, &shift) || mult == 0)
    return (guint64) rel;
  scaled = ((unsigned __int128) rel << shift) + mult - 1;
  return (guint64) (scaled / mult);
}

/* cs_stream_align(stream, cpu, ts): ts on the common axis, or NULL. */
static void
align_func (sqlite3_context *context, int argc, sqlite3_value **argv)
{
  Streams *s = sqlite3_user_data (context);
  sqlite3_int64 k = sqlite3_value_int64 (argv[0]);
  sqlite3_int64 cpu = sqlite3_value_int64 (argv[1]);
  gint64 ts = sqlite3_value_int64 (argv[2]), host_ns;

  if (k < 0 || (guint64) k >= s->n || !s->aligned[k] ||
      sqlite3_value_type (argv[2]) == SQLITE_NULL)
    {
      sqlite3_result_null (context);
      return;
    }
  if (s->host_of[k] < 0)
    {
      sqlite3_result_int64 (context, ts);
      return;
    }
  /* A guest's vCPUs each have their own offsets. */
  if (sqlite3_value_type (argv[1]) == SQLITE_NULL || cpu < 0 || cpu > G_MAXUINT ||
      !cs_time_relation_guest_to_host (s->relations[k], (guint) cpu,
                                       raw_from_ns (s->readers[k], ts), &host_ns))
    {
      sqlite3_result_null (context);
      return;
    }
  sqlite3_result_int64 (context, host_ns);
}

/* The host's view of guest stream @k's vCPUs, made on first use; NULL
 * when @k is not a related guest or the host cannot be read. */
static CsVcpuTimeline *
vcpu_timeline (Streams *s, guint k)
{
  g_autoptr(GError) error = NULL;

  if (s->timelines[k] != NULL || s->timeline_failed[k] || s->relations[k] == NULL)
    return s->timelines[k];
  s->timelines[k] = cs_vcpu_timeline_new_for_guest (s->readers[s->host_of[k]], s->relations[k],
                                                    NULL, &error);
  if (s->timelines[k] == NULL)
    {
      g_debug ("No host view of stream %u's vCPUs: %s", k, error->message);
      s->timeline_failed[k] = TRUE;
    }
  return s->timelines[k];
}

/* vcpu_out_ns(stream, cpu, begin_ts, end_ts) and
 * vcpu_not_running_ns(...): of [begin_ts, end_ts) in the guest stream's
 * ns, the time its vCPU @cpu was out of the guest (handling an exit or
 * not running on the host), or only not running; NULL where the host's
 * view does not cover the span (no relation, no thread for the vCPU,
 * before the thread's first kvm event, or, for not running, a host
 * without sched_switch). */
static void
vcpu_time (sqlite3_context *context, sqlite3_value **argv, gboolean not_running_only)
{
  Streams *s = sqlite3_user_data (context);
  sqlite3_int64 k = sqlite3_value_int64 (argv[0]);
  sqlite3_int64 cpu = sqlite3_value_int64 (argv[1]);
  gint64 begin = sqlite3_value_int64 (argv[2]), end = sqlite3_value_int64 (argv[3]);
  CsVcpuTimeline *tl = NULL;
  CsVcpuBin bin;
  gint64 hb = 0, he = 0;
  gboolean known = TRUE;

  for (int i = 0; i < 4; i++)
    known = known && sqlite3_value_type (argv[i]) != SQLITE_NULL;
  known = known && k >= 0 && (guint64) k < s->n && cpu >= 0 && cpu < G_MAXINT && end >= begin &&
          (tl = vcpu_timeline (s, (guint) k)) != NULL &&
          (guint64) cpu < cs_vcpu_timeline_get_n_threads (tl) &&
          cs_vcpu_timeline_get_tid (tl, (guint) cpu) > 0 &&
          (!not_running_only || cs_vcpu_timeline_has_sched (tl)) &&
          cs_time_relation_guest_to_host (s->relations[k], (guint) cpu,
                                          raw_from_ns (s->readers[k], begin), &hb) &&
          cs_time_relation_guest_to_host (s->relations[k], (guint) cpu,
                                          raw_from_ns (s->readers[k], end), &he);
  if (known && he <= hb)
    {
      sqlite3_result_int64 (context, 0);
      return;
    }
  if (known)
    {
      cs_vcpu_timeline_summarize (tl, (guint) cpu, hb, he, 1, &bin);
      known = bin.state_ns[CS_VCPU_STATE_UNKNOWN] == 0 &&
              bin.state_ns[CS_VCPU_STATE_IN_GUEST] + bin.state_ns[CS_VCPU_STATE_EXIT] +
              bin.state_ns[CS_VCPU_STATE_NOT_RUNNING] == he - hb;
    }
  if (!known)
    sqlite3_result_null (context);
  else
    sqlite3_result_int64 (context, bin.state_ns[CS_VCPU_STATE_NOT_RUNNING] +
                                   (not_running_only ? 0 : bin.state_ns[CS_VCPU_STATE_EXIT]));
}

static void
vcpu_out_func (sqlite3_context *context, int argc, sqlite3_value **argv)
{
  vcpu_time (context, argv, FALSE);
}

static void
vcpu_not_running_func (sqlite3_context *context, int argc, sqlite3_value **argv)
{
  vcpu_time (context, argv, TRUE);
}

/* Relates every guest to its host among the streams, then decides which
 * streams line up with the axis. */
static void
relate (Streams *s, CsSqlContext **contexts)
{
  gint axis = -1;

  for (guint k = 0; k < s->n; k++)
    {
      g_autoptr(CsTimeShift) shift = NULL;
      g_autoptr(GError) error = NULL;

      if (s->readers[k] == NULL || !cs_tracedat_reader_has_time_shift (s->readers[k]))
        continue;
      shift = cs_tracedat_reader_dup_time_shift (s->readers[k], &error);
      for (guint h = 0; shift != NULL && h < s->n && s->host_of[k] < 0; h++)
        {
          guint64 id;

          if (h == k || s->readers[h] == NULL ||
              !cs_tracedat_reader_get_trace_id (s->readers[h], &id) || id != shift->peer_trace_id)
            continue;
          g_clear_error (&error);
          s->relations[k] = cs_time_relation_new (s->readers[h], s->readers[k], &error);
          if (s->relations[k] != NULL)
            s->host_of[k] = (gint) h;
        }
      if (s->host_of[k] < 0)
        s->notes[k] = error != NULL
          ? g_strdup (error->message)
          : g_strdup_printf (_("its TIME_SHIFT option names host trace ID 0x%016" PRIX64
                               ", which no stream of the session has"), shift->peer_trace_id);
    }

  /* The axis: the first stream that is neither a related guest nor a
   * guest left alone. */
  for (guint k = 0; k < s->n && axis < 0; k++)
    if (s->host_of[k] < 0 && s->notes[k] == NULL)
      axis = (gint) k;
  for (guint pass = 0; pass < 2; pass++)
    for (guint k = 0; k < s->n; k++)
      {
        const char *clock = cs_document_get_clock (contexts[k]->document);
        const char *axis_clock = axis >= 0 ? cs_document_get_clock (contexts[axis]->document) : NULL;

        if (pass == 0 && s->host_of[k] < 0 && s->notes[k] == NULL)
          {
            s->aligned[k] = (gint) k == axis || g_strcmp0 (clock, axis_clock) == 0;
            if (s->aligned[k] && (gint) k != axis)
              s->notes[k] = g_strdup_printf (_("lined up as recorded: its clock is the %s clock "
                                               "of stream %d, taken to be the same machine's"),
                                             clock, axis);
            else if (!s->aligned[k])
              s->notes[k] = g_strdup_printf (_("its clock %s is not the %s clock of stream %d, "
                                               "and nothing relates them"),
                                             clock, axis_clock, axis);
          }
        else if (pass == 1 && s->host_of[k] >= 0)
          s->aligned[k] = s->aligned[s->host_of[k]];
      }
}

static gboolean
fail (sqlite3 *db, GError **error)
{
  g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the streams' tables: %s"),
               sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
exec (sqlite3 *db, const char *sql, GError **error)
{
  char *msg = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &msg) == SQLITE_OK)
    return TRUE;
  g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the streams' tables: %s"),
               msg != NULL ? msg : sqlite3_errmsg (db));
  sqlite3_free (msg);
  return FALSE;
}

#define STREAMS_COLUMNS                                                        \
  "id INTEGER, file TEXT, host TEXT, kernel TEXT, clock TEXT, role TEXT, "    \
  "trace_id TEXT, peer INTEGER, peer_trace_id TEXT, offset_ns INTEGER, "      \
  "scaling INTEGER, fraction_bits INTEGER, aligned INTEGER, note TEXT"

static void
bind_text_or_null (sqlite3_stmt *stmt, const char *name, const char *text)
{
  int i = sqlite3_bind_parameter_index (stmt, name);

  if (text != NULL)
    sqlite3_bind_text (stmt, i, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, i);
}

/* The correction applied to stream @k, a related guest, at its first
 * sample: offset in ns, scaling and fraction bits. */
static void
bind_shift (sqlite3_stmt *stmt, Streams *s, guint k)
{
  const CsTimeShift *shift;
  const CsTimeShiftSample *sample = NULL;
  gint64 off = 0;

  if (!s->aligned[k])
    return;
  if (s->host_of[k] < 0)
    {
      sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":offset"), 0);
      sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":scaling"), 1);
      sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":fraction"), 0);
      return;
    }
  shift = cs_time_relation_get_time_shift (s->relations[k]);
  if (shift->n_vcpus == 0 ||
      !cs_time_shift_get_offset_at (shift, 0, (guint64) MAX (shift->samples[0][0].time, 0),
                                    &off, &sample))
    return;
  {
    guint64 mag = off < 0 ? (guint64) 0 - (guint64) off : (guint64) off;
    gint64 ns = (gint64) (cs_tracedat_reader_ticks_to_ns (s->readers[k], mag) -
                          (guint64) cs_tracedat_reader_get_ts_offset (s->readers[k]));

    sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":offset"), off < 0 ? -ns : ns);
  }
  sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":scaling"),
                      sample != NULL ? sample->scaling : 1);
  sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":fraction"),
                      sample != NULL ? sample->fraction : 0);
}

static gboolean
fill_streams_table (sqlite3 *db, Streams *s, CsSqlContext **contexts, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok = TRUE;

  if (!exec (db, "CREATE TEMP TABLE streams(" STREAMS_COLUMNS ")", error))
    return FALSE;
  if (sqlite3_prepare_v2 (db, "INSERT INTO temp.streams VALUES (:id, :file, NULL, NULL, :clock, "
                          ":role, :trace_id, :peer, :peer_trace_id, :offset, :scaling, :fraction, "
                          ":aligned, :note)", -1, &stmt, NULL) != SQLITE_OK)
    return fail (db, error);
  for (guint k = 0; ok && k < s->n; k++)
    {
      CsTracedatReader *r = s->readers[k];
      g_autofree char *clock = r != NULL ? cs_tracedat_reader_dup_clock_description (r)
                                         : g_strdup (cs_document_get_clock (contexts[k]->document));
      g_autofree char *id = NULL;
      g_autofree char *peer_id = NULL;
      g_autoptr(GPtrArray) guests = r != NULL ? cs_tracedat_reader_dup_guests (r, NULL) : NULL;
      g_autoptr(CsTimeShift) shift = r != NULL ? cs_tracedat_reader_dup_time_shift (r, NULL) : NULL;
      guint64 trace_id;
      const char *role = NULL;

      if (r != NULL && cs_tracedat_reader_get_trace_id (r, &trace_id))
        id = g_strdup_printf ("0x%016" PRIX64, trace_id);
      if (shift != NULL)
        peer_id = g_strdup_printf ("0x%016" PRIX64, shift->peer_trace_id);
      if (shift != NULL && guests != NULL && guests->len > 0)
        role = "host and guest";
      else if (shift != NULL)
        role = "guest";
      else if (guests != NULL && guests->len > 0)
        role = "host";
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":id"), k);
      bind_text_or_null (stmt, ":file", cs_document_get_trace_path (contexts[k]->document));
      bind_text_or_null (stmt, ":clock", clock);
      bind_text_or_null (stmt, ":role", role);
      bind_text_or_null (stmt, ":trace_id", id);
      bind_text_or_null (stmt, ":peer_trace_id", peer_id);
      bind_text_or_null (stmt, ":note", s->notes[k]);
      if (s->host_of[k] >= 0)
        sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":peer"), s->host_of[k]);
      sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, ":aligned"), s->aligned[k]);
      bind_shift (stmt, s, k);
      ok = sqlite3_step (stmt) == SQLITE_DONE;
    }
  if (!ok)
    fail (db, error);
  sqlite3_finalize (stmt);
  return ok;
}

/* One table name, and the columns of the streams that have it. */
typedef struct {
  char *name;
  GPtrArray *columns;           /* char *, "name TYPE", the union */
  GHashTable *column_set;       /* name → 1 */
  GArray *streams;              /* guint */
  GPtrArray *stream_columns;    /* per entry of streams: GHashTable of its column names */
} ViewDef;

static void
view_def_free (ViewDef *v)
{
  g_free (v->name);
  g_ptr_array_unref (v->columns);
  g_hash_table_unref (v->column_set);
  g_array_unref (v->streams);
  g_ptr_array_unref (v->stream_columns);
  g_free (v);
}

/* Adds stream @k's table @name (made as "streamK_name") to its view. */
static gboolean
add_to_view (sqlite3 *db, GHashTable *views, GPtrArray *order, guint k, const char *name,
             GError **error)
{
  g_autofree char *module = g_strdup_printf ("stream%u_%s", k, name);
  ViewDef *v = g_hash_table_lookup (views, name);
  GHashTable *mine = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (v == NULL)
    {
      v = g_new0 (ViewDef, 1);
      v->name = g_strdup (name);
      v->columns = g_ptr_array_new_with_free_func (g_free);
      v->column_set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      v->streams = g_array_new (FALSE, FALSE, sizeof (guint));
      v->stream_columns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
      g_hash_table_insert (views, v->name, v);
      g_ptr_array_add (order, v);
    }
  g_array_append_val (v->streams, k);
  g_ptr_array_add (v->stream_columns, mine);
  if (sqlite3_prepare_v2 (db, "SELECT name, type FROM pragma_table_info(?1)", -1, &stmt, NULL) != SQLITE_OK)
    return fail (db, error);
  sqlite3_bind_text (stmt, 1, module, -1, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *col = (const char *) sqlite3_column_text (stmt, 0);
      const char *type = (const char *) sqlite3_column_text (stmt, 1);

      g_hash_table_add (mine, g_strdup (col));
      if (!g_hash_table_contains (v->column_set, col))
        {
          g_hash_table_add (v->column_set, g_strdup (col));
          g_ptr_array_add (v->columns, g_strdup (col));
          g_ptr_array_add (v->columns, g_strdup (type != NULL ? type : ""));
        }
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED, _("Cannot make the table %s: %s"),
                   module, sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}

/* CREATE TEMP VIEW over the streams that have the table; its schema as the
 * register functions give them ("CREATE TABLE x(...)"). */
static gboolean
make_view (sqlite3 *db, ViewDef *v, GPtrArray *tables, GError **error)
{
  g_autofree char *quoted = _cs_sql_quote_identifier (v->name);
  g_autoptr(GString) sql = g_string_new (NULL);
  g_autoptr(GString) schema = g_string_new ("CREATE TABLE x(stream INTEGER");
  gboolean align = g_hash_table_contains (v->column_set, "ts") &&
                   g_hash_table_contains (v->column_set, "cpu");

  g_string_printf (sql, "CREATE TEMP VIEW %s AS ", quoted);
  for (guint i = 0; i < v->streams->len; i++)
    {
      guint k = g_array_index (v->streams, guint, i);
      GHashTable *mine = g_ptr_array_index (v->stream_columns, i);
      g_autofree char *module = g_strdup_printf ("stream%u_%s", k, v->name);
      g_autofree char *qmodule = _cs_sql_quote_identifier (module);

      /* Stream numbers are the session's own, not user values. */
      g_string_append_printf (sql, "%sSELECT %u AS stream", i ? " UNION ALL " : "", k);
      for (guint c = 0; c < v->columns->len; c += 2)
        {
          g_autofree char *qcol = _cs_sql_quote_identifier (v->columns->pdata[c]);

          if (g_hash_table_contains (mine, v->columns->pdata[c]))
            g_string_append_printf (sql, ", %s", qcol);
          else
            g_string_append_printf (sql, ", NULL AS %s", qcol);
        }
      if (align && g_hash_table_contains (mine, "ts") && g_hash_table_contains (mine, "cpu"))
        g_string_append_printf (sql, ", cs_stream_align(%u, cpu, ts) AS ts_aligned", k);
      else if (align)
        g_string_append (sql, ", NULL AS ts_aligned");
      g_string_append_printf (sql, " FROM %s", qmodule);
    }
  for (guint c = 0; c < v->columns->len; c += 2)
    {
      g_autofree char *qcol = _cs_sql_quote_identifier (v->columns->pdata[c]);
      g_string_append_printf (schema, ", %s %s", qcol, (char *) v->columns->pdata[c + 1]);
    }
  if (align)
    g_string_append (schema, ", ts_aligned INTEGER");
  g_string_append (schema, ")");
  if (!exec (db, sql->str, error))
    return FALSE;
  g_ptr_array_add (tables, g_strdup (v->name));
  g_ptr_array_add (tables, g_string_free (g_steal_pointer (&schema), FALSE));
  return TRUE;
}

gboolean
_cs_sql_streams_setup (sqlite3       *db,
                       CsSqlContext **contexts,
                       guint          n_streams,
                       GPtrArray     *tables,
                       GError       **error)
{
  Streams *s = g_new0 (Streams, 1);
  g_autoptr(GHashTable) views = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                       (GDestroyNotify) view_def_free);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  s->n = n_streams;
  s->readers = g_new0 (CsTracedatReader *, n_streams);
  s->relations = g_new0 (CsTimeRelation *, n_streams);
  s->host_of = g_new (gint, n_streams);
  s->aligned = g_new0 (gboolean, n_streams);
  s->notes = g_new0 (char *, n_streams);
  s->timelines = g_new0 (CsVcpuTimeline *, n_streams);
  s->timeline_failed = g_new0 (gboolean, n_streams);
  for (guint k = 0; k < n_streams; k++)
    {
      s->host_of[k] = -1;
      /* Only the options matter here; a recording that is not a
       * trace.dat (perf, text) has none. */
      s->readers[k] = cs_tracedat_reader_open (cs_document_get_trace_path (contexts[k]->document), NULL);
    }
  relate (s, contexts);
  /* The function outlives this call: the connection frees @s. */
  if (sqlite3_create_function_v2 (db, "cs_stream_align", 3,
                                  SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                  s, align_func, NULL, NULL, streams_free) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, "vcpu_out_ns", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                  s, vcpu_out_func, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, "vcpu_not_running_ns", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                  s, vcpu_not_running_func, NULL, NULL, NULL) != SQLITE_OK)
    return fail (db, error);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, NULL);

  for (guint k = 0; k < n_streams; k++)
    {
      g_autoptr(GPtrArray) mine = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *prefix = g_strdup_printf ("stream%u_", k);

      if (!_cs_sql_register_derived_tables (db, contexts[k], prefix, mine, error) ||
          !_cs_sql_register_event_tables (db, contexts[k], prefix, mine, error))
        return FALSE;
      for (guint i = 0; i < mine->len; i += 2)
        if (!add_to_view (db, views, order, k, mine->pdata[i], error))
          return FALSE;
    }
  if (!fill_streams_table (db, s, contexts, error))
    return FALSE;
  g_ptr_array_add (tables, g_strdup ("streams"));
  g_ptr_array_add (tables, g_strdup ("CREATE TABLE x(" STREAMS_COLUMNS ")"));
  for (guint i = 0; i < order->len; i++)
    if (!make_view (db, order->pdata[i], tables, error))
      return FALSE;
  return TRUE;
}
