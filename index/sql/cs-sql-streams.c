/* cs-sql-streams.c: one SQL session over several recordings (streams).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each stream's tables are the one-document tables, made under the name
 * "streamN_TABLE" (N its position in the session's CsStreamSet, from 0).
 * Over them, a TEMP view per table name joins the streams that have it
 * (UNION ALL), with a first column `stream` and, for tables with ts and
 * cpu, a last column `ts_aligned`: the event's time on the set's common
 * axis (cs_stream_to_axis_ns()), or NULL where nothing rests that place
 * (cs_stream_is_aligned()).  Columns that some streams' formats lack are
 * NULL for those streams.
 *
 * Which streams line up and how is the set's rule (cs-stream-set.h), the
 * same as the window's: this file only shows it (the streams table, with
 * the set's notes) and uses it.
 *
 * For a guest wakeup latency split into the guest's own wait and the time
 * its vCPU was not running, vcpu_out_ns(stream, cpu, begin_ts, end_ts)
 * gives how long of a guest span the host had the vCPU out of the guest
 * (exits, and not running on any host CPU), from the host's view of the
 * vCPU thread (cs_stream_get_vcpu_timeline(), made on first use);
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
#include "cs-stream-set.h"
#include "cs-stream-vcpu.h"
#include "cs-vcpu-timeline.h"

typedef struct {
  CsStreamSet *set;
  guint n;
  CsStream **streams;           /* stream k: the set's position k when made */
} Streams;

static void
streams_free (gpointer data)
{
  Streams *s = data;

  for (guint k = 0; k < s->n; k++)
    g_object_unref (s->streams[k]);
  g_free (s->streams);
  g_object_unref (s->set);
  g_free (s);
}

/* Stream @k of the function's arguments, or NULL. */
static CsStream *
stream_arg (Streams *s, sqlite3_value *value)
{
  sqlite3_int64 k = sqlite3_value_int64 (value);

  if (sqlite3_value_type (value) == SQLITE_NULL || k < 0 || (guint64) k >= s->n)
    return NULL;
  return s->streams[k];
}

/* cs_stream_align(stream, cpu, ts): ts on the common axis, or NULL. */
static void
align_func (sqlite3_context *context, int argc, sqlite3_value **argv)
{
  Streams *s = sqlite3_user_data (context);
  CsStream *stream = stream_arg (s, argv[0]);
  sqlite3_int64 cpu = sqlite3_value_int64 (argv[1]);
  gboolean guest = stream != NULL && cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_GUEST;

  /* A guest's vCPUs each have their own offsets. */
  if (stream == NULL || !cs_stream_is_aligned (stream) ||
      sqlite3_value_type (argv[2]) == SQLITE_NULL ||
      (guest && (sqlite3_value_type (argv[1]) == SQLITE_NULL || cpu < 0 || cpu > G_MAXUINT)))
    {
      sqlite3_result_null (context);
      return;
    }
  sqlite3_result_int64 (context, cs_stream_to_axis_ns (stream, guest ? (guint) cpu : 0,
                                                       sqlite3_value_int64 (argv[2])));
}

/* vcpu_out_ns(stream, cpu, begin_ts, end_ts) and
 * vcpu_not_running_ns(...): of [begin_ts, end_ts) in the guest stream's
 * ns, the time its vCPU @cpu was out of the guest (handling an exit or
 * not running on the host), or only not running, in the guest's ns
 * (cs_stream_get_vcpu_out(), as the latency plugin's breakdown counts
 * it); NULL where the host's view does not tell (no relation, no thread
 * for the vCPU, a span outside the host's recording; for vcpu_out_ns,
 * no kvm event that says whether the vCPU was in the guest; for not
 * running, a host without sched_switch). */
static void
vcpu_time (sqlite3_context *context, sqlite3_value **argv, gboolean not_running_only)
{
  Streams *s = sqlite3_user_data (context);
  CsStream *stream = stream_arg (s, argv[0]);
  sqlite3_int64 cpu = sqlite3_value_int64 (argv[1]);
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (CsVcpuInterval));
  CsVcpuTimeline *tl;
  gboolean exits_known = FALSE;
  gint64 ns = 0;
  gboolean known = stream != NULL;

  for (int i = 1; i < 4; i++)
    known = known && sqlite3_value_type (argv[i]) != SQLITE_NULL;
  known = known && cpu >= 0 && cpu < G_MAXINT &&
          cs_stream_get_vcpu_out (stream, (guint) cpu, sqlite3_value_int64 (argv[2]),
                                  sqlite3_value_int64 (argv[3]), out, &exits_known) &&
          (not_running_only
           ? (tl = cs_stream_get_vcpu_timeline (stream)) != NULL && cs_vcpu_timeline_has_sched (tl)
           : exits_known);
  if (!known)
    {
      sqlite3_result_null (context);
      return;
    }
  for (guint i = 0; i < out->len; i++)
    {
      const CsVcpuInterval *iv = &g_array_index (out, CsVcpuInterval, i);

      if (!not_running_only || iv->state == CS_VCPU_STATE_NOT_RUNNING)
        ns += iv->end_ns - iv->begin_ns;
    }
  sqlite3_result_int64 (context, ns);
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
  "scaling INTEGER, fraction_bits INTEGER, manual_offset_ns INTEGER, "        \
  "aligned INTEGER, note TEXT"

static void
bind_text_or_null (sqlite3_stmt *stmt, const char *name, const char *text)
{
  int i = sqlite3_bind_parameter_index (stmt, name);

  if (text != NULL && text[0] != '\0')
    sqlite3_bind_text (stmt, i, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, i);
}

static void
bind_int (sqlite3_stmt *stmt, const char *name, gint64 value)
{
  sqlite3_bind_int64 (stmt, sqlite3_bind_parameter_index (stmt, name), value);
}

/* The correction that puts @stream on the axis at its start: a guest's
 * TIME_SHIFT offset, scaling and fraction bits at its first sample; for
 * the others what is added to their times (nothing for the reference);
 * NULL for a host converted to its guest's clock (no constant says it)
 * and for a stream whose place rests on nothing. */
static void
bind_shift (sqlite3_stmt *stmt, CsStream *stream)
{
  gint64 offset = 0, scaling = 1, fraction = 0;

  if (!cs_stream_is_aligned (stream) ||
      cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_HOST)
    return;
  if (cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_GUEST &&
      !cs_stream_get_start_shift (stream, &offset, &scaling, &fraction))
    return;
  if (cs_stream_get_alignment (stream) != CS_STREAM_ALIGNMENT_GUEST)
    offset = cs_stream_to_axis_ns (stream, 0, 0);
  bind_int (stmt, ":offset", offset);
  bind_int (stmt, ":scaling", scaling);
  bind_int (stmt, ":fraction", fraction);
}

/* The stream @stream is related to: a guest's host, a host's reference
 * guest; -1 for none. */
static gint64
peer_of (Streams *s, CsStream *stream)
{
  CsStream *peer = cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_GUEST
                   ? cs_stream_get_host (stream) : cs_stream_get_reference_guest (stream);

  for (guint k = 0; peer != NULL && k < s->n; k++)
    if (s->streams[k] == peer)
      return k;
  return -1;
}

static gboolean
fill_streams_table (sqlite3 *db, Streams *s, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok = TRUE;

  if (!exec (db, "CREATE TEMP TABLE streams(" STREAMS_COLUMNS ")", error))
    return FALSE;
  if (sqlite3_prepare_v2 (db, "INSERT INTO temp.streams VALUES (:id, :file, :host, :kernel, "
                          ":clock, :role, :trace_id, :peer, :peer_trace_id, :offset, :scaling, "
                          ":fraction, :manual, :aligned, :note)", -1, &stmt, NULL) != SQLITE_OK)
    return fail (db, error);
  for (guint k = 0; ok && k < s->n; k++)
    {
      CsStream *stream = s->streams[k];
      g_autofree char *id = NULL;
      g_autofree char *peer_id = NULL;
      guint64 trace_id;
      gboolean guest = cs_stream_get_peer_trace_id (stream, &trace_id);
      gboolean host = cs_stream_is_kvm_host (stream);
      gint64 peer = peer_of (s, stream);

      if (guest)
        peer_id = g_strdup_printf ("0x%016" PRIX64, trace_id);
      if (cs_stream_get_trace_id (stream, &trace_id))
        id = g_strdup_printf ("0x%016" PRIX64, trace_id);
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      bind_int (stmt, ":id", k);
      bind_text_or_null (stmt, ":file", cs_stream_get_path (stream));
      bind_text_or_null (stmt, ":host", cs_stream_get_host_name (stream));
      bind_text_or_null (stmt, ":kernel", cs_stream_get_kernel (stream));
      bind_text_or_null (stmt, ":clock", cs_stream_get_clock_description (stream));
      bind_text_or_null (stmt, ":role", host && guest ? "host and guest"
                                        : host ? "host" : guest ? "guest" : NULL);
      bind_text_or_null (stmt, ":trace_id", id);
      bind_text_or_null (stmt, ":peer_trace_id", peer_id);
      bind_text_or_null (stmt, ":note", cs_stream_get_note (stream));
      if (peer >= 0)
        bind_int (stmt, ":peer", peer);
      bind_int (stmt, ":manual", cs_stream_get_offset_ns (stream));
      bind_int (stmt, ":aligned", cs_stream_is_aligned (stream));
      bind_shift (stmt, stream);
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
                       CsStreamSet   *set,
                       GPtrArray     *tables,
                       GError       **error)
{
  Streams *s = g_new0 (Streams, 1);
  g_autoptr(GHashTable) views = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                       (GDestroyNotify) view_def_free);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  s->set = g_object_ref (set);
  s->n = cs_stream_set_get_n_streams (set);
  s->streams = g_new0 (CsStream *, s->n);
  for (guint k = 0; k < s->n; k++)
    s->streams[k] = g_object_ref (cs_stream_set_get_stream (set, k));
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

  for (guint k = 0; k < s->n; k++)
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
  if (!fill_streams_table (db, s, error))
    return FALSE;
  g_ptr_array_add (tables, g_strdup ("streams"));
  g_ptr_array_add (tables, g_strdup ("CREATE TABLE x(" STREAMS_COLUMNS ")"));
  for (guint i = 0; i < order->len; i++)
    if (!make_view (db, order->pdata[i], tables, error))
      return FALSE;
  return TRUE;
}
