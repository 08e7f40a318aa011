/* cs-field-plot-pass.c: the field plot's pass, which writes a series and
 * its summaries.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For one key (cs-field-plot-key.h) the pass "values" writes, into its own
 * database:
 *   points_rows (ts, cpu, pid, value): every value, in time order (the
 *     rowid breaks ties in the order the events came), a result table of
 *     the plugin API (cs-plugin-result.h) sorted by ts: one blob per 512
 *     values instead of a row each, a time range found by bisection;
 *     points_chunks holds its blobs, and the view points (ts, seq, cpu,
 *     pid, value) shows it as the table it was (seq = rowid - 1);
 *   buckets (level, idx, n, min_value, max_value, last_ts, last_value):
 *     a pyramid of time buckets, bucket idx of level L covering
 *     [origin + idx * 2^L, origin + (idx + 1) * 2^L) ns, empty buckets
 *     left out; levels from about four times the recording's mean
 *     spacing between two events of the type (finer ones would hold one
 *     value each) up to one bucket for the whole recording;
 *   series (name, value): n_points, min_value, max_value, origin_ns,
 *     min_level, max_level.
 * A frame then reads the buckets of the level whose width is just under
 * a pixel's: about one row per pixel column, whatever the recording's
 * size (cs-field-plot-layer.c).  Memory is one open bucket per level.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-field-plot-private.h"

typedef struct {
  gboolean open;
  gint64 idx;
  gint64 n;
  gint64 min;
  gint64 max;
  gint64 last_ts;
  gint64 last_value;
} Bucket;

typedef struct {
  sqlite3 *db;
  CsFieldPlotKey key;
  CsPluginResultTable *points;
  sqlite3_stmt *insert_bucket;
  gint64 origin_ns;
  guint min_level;
  guint max_level;
  Bucket levels[64];
  gint64 n_points;
  gint64 min_value;
  gint64 max_value;
} PassState;

static gboolean
sql_failed (sqlite3     *db,
            const char  *what,
            GError     **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s: %s", what, sqlite3_errmsg (db));
  return FALSE;
}

static char **
values_list_events (CsPluginDocument  *document,
                    const char        *param,
                    GError           **error)
{
  g_auto(CsFieldPlotKey) key = { 0 };
  char **events;

  if (!_cs_field_plot_key_parse (param, &key, error) ||
      !_cs_field_plot_key_check (&key, document, error))
    return NULL;
  events = g_new0 (char *, 2);
  events[0] = g_strdup_printf ("%s:%s", key.system, key.event);
  return events;
}

static void
values_free (gpointer data)
{
  PassState *st = data;

  if (st == NULL)
    return;
  cs_plugin_result_table_free (st->points);
  sqlite3_finalize (st->insert_bucket);
  _cs_field_plot_key_clear (&st->key);
  g_free (st);
}

/* The module of points_rows, on every connection to the pass's database. */
static gboolean
values_prepare (sqlite3  *db,
                GError  **error)
{
  return cs_plugin_result_register (db, CS_FIELD_PLOT_POINTS_MODULE, error);
}

static gpointer
values_begin (CsPluginPass  *pass,
              GError       **error)
{
  static const char * const columns[] = { "ts", "cpu", "pid", "value", NULL };
  /* Written in the pass's thread: the buckets go into the database as
   * the values come. */
  const CsPluginResultTableInfo points = {
    .module = CS_FIELD_PLOT_POINTS_MODULE,
    .name = "points",
    .columns = columns,
    .sorted_column = "ts",
    .same_thread = TRUE,
  };
  CsPluginDocument *document = cs_plugin_pass_get_document (pass);
  PassState *st = g_new0 (PassState, 1);
  gint64 first = cs_plugin_document_get_first_ns (document);
  guint64 span = (guint64) (cs_plugin_document_get_last_ns (document) - first) + 1;
  guint64 n = MAX (cs_plugin_pass_get_n_events (pass), 1);

  st->db = cs_plugin_pass_get_db (pass);
  if (!_cs_field_plot_key_parse (cs_plugin_pass_get_param (pass), &st->key, error))
    {
      values_free (st);
      return NULL;
    }
  st->origin_ns = first;
  /* Buckets of about four events' mean spacing at the finest: finer ones
   * would hold one value each, costing a row per value for nothing. */
  st->min_level = _cs_field_plot_log2 (MAX (span / n, 1)) + 2;
  st->max_level = MIN (_cs_field_plot_log2 (span) + 1, 62);
  st->min_level = MIN (st->min_level, st->max_level);
  st->min_value = G_MAXINT64;
  st->max_value = G_MININT64;

  if (sqlite3_exec (st->db,
                    "CREATE TABLE buckets (level INTEGER, idx INTEGER, n INTEGER,"
                    "  min_value INTEGER, max_value INTEGER, last_ts INTEGER, last_value INTEGER,"
                    "  PRIMARY KEY (level, idx)) WITHOUT ROWID;"
                    "CREATE TABLE series (name TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID;",
                    NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (st->db, "INSERT INTO buckets VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1,
                          &st->insert_bucket, NULL) != SQLITE_OK)
    {
      sql_failed (st->db, _("Cannot create the field plot's tables"), error);
      values_free (st);
      return NULL;
    }
  st->points = cs_plugin_result_table_new (st->db, &points, error);
  if (st->points == NULL ||
      sqlite3_exec (st->db,
                    "CREATE VIEW points AS SELECT ts, rowid - 1 AS seq, cpu, pid, value"
                    " FROM points_rows;", NULL, NULL, NULL) != SQLITE_OK)
    {
      if (st->points != NULL)
        sql_failed (st->db, _("Cannot create the field plot's tables"), error);
      values_free (st);
      return NULL;
    }
  return st;
}

static gboolean
flush_bucket (PassState  *st,
              guint       level,
              GError    **error)
{
  Bucket *b = &st->levels[level];
  sqlite3_stmt *s = st->insert_bucket;
  int rc;

  if (!b->open)
    return TRUE;
  sqlite3_bind_int (s, 1, level);
  sqlite3_bind_int64 (s, 2, b->idx);
  sqlite3_bind_int64 (s, 3, b->n);
  sqlite3_bind_int64 (s, 4, b->min);
  sqlite3_bind_int64 (s, 5, b->max);
  sqlite3_bind_int64 (s, 6, b->last_ts);
  sqlite3_bind_int64 (s, 7, b->last_value);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  b->open = FALSE;
  return rc == SQLITE_DONE || sql_failed (st->db, _("Cannot write a summary of the field plot"), error);
}

static gboolean
values_event (gpointer              data,
              const CsPluginEvent  *event,
              GError              **error)
{
  PassState *st = data;
  gint64 value, rel;

  if (!_cs_field_plot_key_matches (&st->key, event) ||
      !cs_plugin_event_get_int (event, st->key.field, &value))
    return TRUE;

  {
    gint64 point[] = { event->ts_ns, event->cpu, event->pid, value };

    if (!cs_plugin_result_table_append (st->points, point, G_N_ELEMENTS (point), error))
      return FALSE;
  }
  st->n_points++;
  st->min_value = MIN (st->min_value, value);
  st->max_value = MAX (st->max_value, value);

  rel = MAX (event->ts_ns - st->origin_ns, 0);
  for (guint level = st->min_level; level <= st->max_level; level++)
    {
      Bucket *b = &st->levels[level];
      gint64 idx = rel >> level;

      if (b->open && b->idx != idx && !flush_bucket (st, level, error))
        return FALSE;
      if (!b->open)
        {
          b->open = TRUE;
          b->idx = idx;
          b->n = 0;
          b->min = b->max = value;
        }
      b->n++;
      b->min = MIN (b->min, value);
      b->max = MAX (b->max, value);
      b->last_ts = event->ts_ns;
      b->last_value = value;
    }
  return TRUE;
}

static gboolean
values_end (gpointer   data,
            GError   **error)
{
  PassState *st = data;
  sqlite3_stmt *s = NULL;
  const struct { const char *name; gint64 value; } series[] = {
    { "n_points", st->n_points },
    { "min_value", st->n_points > 0 ? st->min_value : 0 },
    { "max_value", st->n_points > 0 ? st->max_value : 0 },
    { "origin_ns", st->origin_ns },
    { "min_level", st->min_level },
    { "max_level", st->max_level },
  };

  if (!cs_plugin_result_table_finish (st->points, error))
    return FALSE;
  for (guint level = st->min_level; level <= st->max_level; level++)
    if (!flush_bucket (st, level, error))
      return FALSE;
  if (sqlite3_prepare_v2 (st->db, "INSERT INTO series VALUES (?1, ?2)", -1, &s, NULL) != SQLITE_OK)
    return sql_failed (st->db, _("Cannot describe the field plot's series"), error);
  for (guint i = 0; i < G_N_ELEMENTS (series); i++)
    {
      sqlite3_bind_text (s, 1, series[i].name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 2, series[i].value);
      if (sqlite3_step (s) != SQLITE_DONE)
        {
          sqlite3_finalize (s);
          return sql_failed (st->db, _("Cannot describe the field plot's series"), error);
        }
      sqlite3_reset (s);
    }
  sqlite3_finalize (s);
  return TRUE;
}

/**
 * _cs_field_plot_add_pass:
 * @plugin: the field-plot plugin, in its init
 *
 * Registers the pass "values" (parameter: a key).
 */
void
_cs_field_plot_add_pass (CsPlugin *plugin)
{
  static const CsPluginPassInfo info = {
    .struct_size = sizeof (CsPluginPassInfo),
    .name = CS_FIELD_PLOT_PASS,
    .version = 3,
    .automatic = FALSE,
    .events = NULL,
    .list_events = values_list_events,
    .begin = values_begin,
    .event = values_event,
    .end = values_end,
    .free = values_free,
    .prepare = values_prepare,
  };

  cs_plugin_add_pass (plugin, &info);
}
