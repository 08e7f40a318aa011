/* cs-atrace-async-layer.c: a process's async slices on its task plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Async slices (S..F markers with one tgid, name and cookie) belong to a
 * process, not to a thread: they are drawn on the task plot of the
 * process itself (the task whose pid is the tgid, an app's main thread),
 * in a lane of LANE_PX of their own between its slices (cs-atrace-layer.c,
 * moved up by as much) and its counters' band (cs-atrace-counter-band.c).
 * Async slices may overlap one another: each is a translucent box in a
 * colour of its name, so that overlaps show darker.  The pointer
 * gives the name and duration of the latest one begun under it
 * ("unfinished" for one without its F).
 *
 * A frame reads the process's async slices that overlap the visible span
 * from the index (tgid, begin_ns), at most MAX_ROWS of them; apps start a
 * few async slices a second, so reading those begun before the span to
 * find the ones still open costs little.
 */
#include <glib/gi18n-lib.h>

#include "cs-atrace-private.h"

#define LANE_PX    6.0
#define LOOKUP_PX  2.0
#define MAX_ROWS   20000

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

static const char async_sql[] =
  "SELECT begin_ns, end_ns, name, closed FROM async "
  "WHERE tgid = ?1 AND begin_ns < ?4 AND end_ns >= ?3 "
  "ORDER BY begin_ns LIMIT " G_STRINGIFY (MAX_ROWS);

/**
 * _cs_atrace_async_lane_px:
 * @db: the pass's database
 * @pid: a task
 *
 * Returns: the height of the async slices' lane on @pid's task plot: 0
 *   unless @pid is a process (tgid) with async slices
 */
double
_cs_atrace_async_lane_px (sqlite3 *db,
                          gint32   pid)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT 1 FROM async WHERE tgid = ? LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
    return 0;
  sqlite3_bind_int64 (stmt, 1, pid);
  return sqlite3_step (stmt) == SQLITE_ROW ? LANE_PX : 0;
}

/* The lane's top on @pid's plot, or FALSE when it has none. */
static gboolean
lane_top (sqlite3            *db,
          const CsPluginView *view,
          gint32              pid,
          double             *top)
{
  double y, height;

  if (_cs_atrace_async_lane_px (db, pid) == 0)
    return FALSE;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  *top = y + height - _cs_atrace_counter_band_px (db, pid) - LANE_PX;
  return TRUE;
}

static gboolean
async_draw (gpointer            instance,
            cairo_t            *cr,
            const CsPluginView *view,
            GError            **error)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint32 pid = cs_plugin_view_get_pid (view);
  double top, area_x, area_w;

  if (db == NULL || pid <= 0 || !lane_top (db, view, pid, &top))
    return TRUE;
  if (!_cs_atrace_prepare_span (db, &stmt, async_sql, view, pid))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace async slices: %s",
                   sqlite3_errmsg (db));
      return FALSE;
    }
  cs_plugin_view_get_area (view, &area_x, NULL, &area_w, NULL);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      double x0 = MAX (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 0)), area_x - 1);
      double x1 = MIN (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 1)), area_x + area_w + 1);
      const char *name = (const char *) sqlite3_column_text (stmt, 2);

      /* At least a pixel wide, so that a short one still shows. */
      x1 = MAX (x1, x0 + 1);
      cs_plugin_view_set_source (view, cr, _cs_atrace_name_role (name),
                                 sqlite3_column_int (stmt, 3) ? 0.55 : 0.3);
      cairo_rectangle (cr, x0, top, x1 - x0, LANE_PX - 1);
      cairo_fill (cr);
    }
  return TRUE;
}

static gboolean
async_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint32 pid = cs_plugin_view_get_pid (view);
  g_autofree char *name = NULL;
  gint64 begin = 0, end = 0;
  gboolean closed = FALSE;
  double top;

  if (db == NULL || pid <= 0 || !lane_top (db, view, pid, &top) ||
      y_px < top || y_px >= top + LANE_PX ||
      !_cs_atrace_prepare_span (db, &stmt, async_sql, view, pid))
    return FALSE;
  /* The latest begun under the pointer wins. */
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 b = sqlite3_column_int64 (stmt, 0), e = sqlite3_column_int64 (stmt, 1);

      if (x_px < cs_plugin_view_ns_to_x (view, b) - LOOKUP_PX ||
          x_px > cs_plugin_view_ns_to_x (view, e) + LOOKUP_PX)
        continue;
      g_free (name);
      name = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      begin = b, end = e;
      closed = sqlite3_column_int (stmt, 3);
    }
  if (name == NULL)
    return FALSE;
  {
    g_autofree char *dur = cs_plugin_format_duration (end - begin);

    if (closed)
      item->text = g_strdup_printf (_("Async slice %s: %s"), name, dur);
    else
      item->text = g_strdup_printf (_("Async slice %s: %s, unfinished"), name, dur);
  }
  item->begin_ns = begin;
  item->end_ns = end;
  item->pid = pid;
  return TRUE;
}

/**
 * _cs_atrace_add_async_layer:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the task-plot layer "async".
 */
void
_cs_atrace_add_async_layer (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = "async",
    .target = CS_PLUGIN_LAYER_TASK_PLOT,
    .draw = async_draw,
    .lookup = async_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
