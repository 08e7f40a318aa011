/* cs-atrace-counter.c: rows of atrace counters, as step plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A row (key "TGID:NAME") draws the samples of one counter (C markers of
 * the process TGID named NAME) as a step line, from the row's bottom (the
 * counter's smallest value in the recording) to its top (its largest).
 * The pointer gives the value in force there.  Add one with
 * `chronoscope render --row atrace:TGID:NAME` or a session.
 *
 * A frame reads the sample in force at the span's start and those in the
 * span, at most MAX_ROWS of them (apps write a few counters per frame).
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-atrace-private.h"

#define PAD_PX    3.0
#define MAX_ROWS  20000

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

static const char samples_sql[] =
  "SELECT ts_ns, value FROM counter WHERE tgid = ?1 AND name = ?2 AND ts_ns < ?4 AND ts_ns >= "
  "  ifnull((SELECT max(ts_ns) FROM counter WHERE tgid = ?1 AND name = ?2 AND ts_ns <= ?3), ?3) "
  "ORDER BY ts_ns LIMIT " G_STRINGIFY (MAX_ROWS);

/* "TGID:NAME" */
static gboolean
parse_key (const char  *key,
           gint64      *tgid,
           const char **name)
{
  char *end = NULL;

  if (key == NULL)
    return FALSE;
  *tgid = g_ascii_strtoll (key, &end, 10);
  if (end == key || *end != ':')
    return FALSE;
  *name = end + 1;
  return TRUE;
}

/* The counter's range over the recording; %FALSE when it has no sample. */
static gboolean
counter_range (sqlite3    *db,
               gint64      tgid,
               const char *name,
               gint64     *min,
               gint64     *max)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT min(value), max(value), count(*) FROM counter "
                          "WHERE tgid = ? AND name = ?", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tgid);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_ROW || sqlite3_column_int64 (stmt, 2) == 0)
    return FALSE;
  *min = sqlite3_column_int64 (stmt, 0);
  *max = sqlite3_column_int64 (stmt, 1);
  return TRUE;
}

static char *
counter_row_label (gpointer    instance,
                   const char *key)
{
  CsAtrace *self = instance;
  const char *name, *comm;
  gint64 tgid;

  if (self == NULL || !self->has_events || !parse_key (key, &tgid, &name))
    return NULL;
  comm = cs_plugin_document_get_comm (self->document, (gint32) tgid);
  return g_strdup_printf ("%s\n%s %" G_GINT64_FORMAT, name, comm != NULL ? comm : "", tgid);
}

static gboolean
prepare (sqlite3            *db,
         sqlite3_stmt      **stmt,
         const CsPluginView *view,
         gint64              tgid,
         const char         *name)
{
  if (!_cs_atrace_prepare_span (db, stmt, samples_sql, view))
    return FALSE;
  sqlite3_bind_int64 (*stmt, 1, tgid);
  sqlite3_bind_text (*stmt, 2, name, -1, SQLITE_TRANSIENT);
  return TRUE;
}

static gboolean
counter_draw (gpointer            instance,
              cairo_t            *cr,
              const CsPluginView *view,
              GError            **error)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *name;
  gint64 tgid, min, max;
  double x, y, width, height, last_x = 0, last_y = 0;
  gboolean first = TRUE;

  if (db == NULL || !parse_key (cs_plugin_view_get_row_key (view), &tgid, &name) ||
      !counter_range (db, tgid, name, &min, &max))
    return TRUE;
  cs_plugin_view_get_area (view, &x, &y, &width, &height);
  if (!prepare (db, &stmt, view, tgid, name))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace counter: %s", sqlite3_errmsg (db));
      return FALSE;
    }
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_GREEN, 1.0);
  cairo_set_line_width (cr, 1.0);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      double sx = MAX (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 0)), x);
      double frac = max > min ? (double) (sqlite3_column_int64 (stmt, 1) - min) / (double) (max - min) : 0.5;
      double sy = y + height - PAD_PX - frac * (height - 2 * PAD_PX);

      if (first)
        cairo_move_to (cr, sx, sy);
      else
        {
          cairo_line_to (cr, sx, last_y);
          cairo_line_to (cr, sx, sy);
        }
      first = FALSE;
      last_x = sx, last_y = sy;
    }
  if (!first)
    {
      /* The last value holds until the recording's end. */
      double end_x = cs_plugin_view_ns_to_x (view, cs_plugin_document_get_last_ns (cs_plugin_view_get_document (view)));

      cairo_line_to (cr, MIN (MAX (end_x, last_x), x + width), last_y);
      cairo_stroke (cr);
    }
  return TRUE;
}

static gboolean
counter_lookup (gpointer            instance,
                const CsPluginView *view,
                double              x_px,
                double              y_px,
                CsPluginItem       *item)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *name;
  gint64 tgid, at = cs_plugin_view_x_to_ns (view, x_px);

  if (db == NULL || !parse_key (cs_plugin_view_get_row_key (view), &tgid, &name) ||
      sqlite3_prepare_v2 (db, "SELECT ts_ns, value FROM counter WHERE tgid = ? AND name = ? "
                          "AND ts_ns <= ? ORDER BY ts_ns DESC LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tgid);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 3, at);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return FALSE;
  item->text = g_strdup_printf (_("Counter %s: %" PRId64), name, (gint64) sqlite3_column_int64 (stmt, 1));
  item->begin_ns = item->end_ns = sqlite3_column_int64 (stmt, 0);
  item->pid = (gint32) tgid;
  return TRUE;
}

/**
 * _cs_atrace_add_counter_rows:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the rows "counter" (key "TGID:NAME").
 */
void
_cs_atrace_add_counter_rows (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = "counter",
    .target = CS_PLUGIN_LAYER_ROW,
    .row_label = counter_row_label,
    .draw = counter_draw,
    .lookup = counter_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
