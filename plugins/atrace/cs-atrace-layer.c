/* cs-atrace-layer.c: a task's atrace slices on its task plot.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Over the lower half of a task plot, the task's slices (B..E markers of
 * its pid) are drawn as boxes, one band per depth, outermost on top, with
 * their names where they fit; above the lane of the process's async
 * slices on the process's own plot (cs-atrace-async-layer.c) and the band
 * of its process's counters (cs-atrace-counter-band.c) when it has some.  The pointer over a box gives its name and
 * duration ("unfinished" for a slice without its E).
 *
 * A frame reads the slices that overlap the visible span, band by band,
 * in time order from the index (pid, depth, begin_ns); slices of one band
 * never overlap, so each band starts at the last slice begun before the
 * span.  Slices narrower than a pixel are merged into one box per run of
 * touching pixels.  Apps mark a few thousand slices a second at most,
 * and each band reads at most MAX_ROWS of them per frame.
 */
#include <math.h>

#include <glib/gi18n-lib.h>

#include "cs-atrace-private.h"

#define BAND_PX      7.0
#define MIN_BAND_PX  3.0
#define LOOKUP_PX    2.0
#define MAX_DEPTHS   16
#define MAX_ROWS     20000

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

static const char slices_sql[] =
  "SELECT begin_ns, end_ns, name, closed FROM slice "
  "WHERE pid = ?1 AND depth = ?2 AND begin_ns < ?4 AND begin_ns >= "
  "  ifnull((SELECT max(begin_ns) FROM slice WHERE pid = ?1 AND depth = ?2 AND begin_ns <= ?3), ?3) "
  "ORDER BY begin_ns LIMIT " G_STRINGIFY (MAX_ROWS);

/* Where the bands of @pid go: *@n_depths bands of @band_px from @top. */
static gboolean
geometry (sqlite3            *db,
          const CsPluginView *view,
          gint32              pid,
          double             *top,
          double             *band_px,
          guint              *n_depths)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  double y, height, below_px, room;
  gint64 n = 0;

  if (sqlite3_prepare_v2 (db, "SELECT max(depth) + 1 FROM slice WHERE pid = ?", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, pid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  *n_depths = (guint) CLAMP (n, 0, MAX_DEPTHS);
  if (*n_depths == 0)
    return TRUE;
  /* The lower half of the plot, so that the task's states stay visible,
   * less the async lane and the counters' band at the bottom. */
  below_px = _cs_atrace_counter_band_px (db, pid) + _cs_atrace_async_lane_px (db, pid);
  room = height / 2 - below_px;
  *band_px = MIN (BAND_PX, room / *n_depths);
  if (*band_px < MIN_BAND_PX)
    {
      *band_px = MIN_BAND_PX;
      *n_depths = MAX (1, (guint) floor (room / MIN_BAND_PX));
    }
  *top = y + height - below_px - *band_px * *n_depths;
  return TRUE;
}

/**
 * _cs_atrace_name_role:
 * @name: a slice's or counter's name
 *
 * Returns: its colour, one of the palette's accents, stable for a name
 */
CsPluginColorRole
_cs_atrace_name_role (const char *name)
{
  return CS_PLUGIN_COLOR_ORANGE + g_str_hash (name) % (CS_PLUGIN_COLOR_PURPLE - CS_PLUGIN_COLOR_ORANGE + 1);
}

static gboolean
prepare_band (sqlite3            *db,
              sqlite3_stmt      **stmt,
              const CsPluginView *view,
              gint32              pid,
              guint               depth)
{
  if (!_cs_atrace_prepare_span (db, stmt, slices_sql, view, pid))
    return FALSE;
  sqlite3_bind_int64 (*stmt, 2, depth);
  return TRUE;
}

static gboolean
layer_draw (gpointer            instance,
            cairo_t            *cr,
            const CsPluginView *view,
            GError            **error)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint32 pid = cs_plugin_view_get_pid (view);
  double top, band_px, area_x, area_w;
  guint n_depths;

  if (db == NULL || pid < 0)
    return TRUE;
  if (!geometry (db, view, pid, &top, &band_px, &n_depths))
    goto fail;
  cs_plugin_view_get_area (view, &area_x, NULL, &area_w, NULL);
  for (guint depth = 0; depth < n_depths; depth++)
    {
      double y = top + depth * band_px, run_x0 = -1, run_x1 = -1;

      if (!prepare_band (db, &stmt, view, pid, depth))
        goto fail;
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          double x0 = MAX (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 0)), area_x - 1);
          double x1 = MIN (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 1)), area_x + area_w + 1);
          const char *name = (const char *) sqlite3_column_text (stmt, 2);

          if (x1 - x0 < 1.0)
            {
              /* Merge the narrow ones into runs of touching pixels. */
              if (run_x0 >= 0 && x0 <= run_x1 + 1)
                run_x1 = MAX (run_x1, x0 + 1);
              else
                {
                  if (run_x0 >= 0)
                    {
                      cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 0.5);
                      cairo_rectangle (cr, run_x0, y, run_x1 - run_x0, band_px - 1);
                      cairo_fill (cr);
                    }
                  run_x0 = x0, run_x1 = x0 + 1;
                }
              continue;
            }
          cs_plugin_view_set_source (view, cr, _cs_atrace_name_role (name), sqlite3_column_int (stmt, 3) ? 0.85 : 0.5);
          cairo_rectangle (cr, x0, y, x1 - x0, band_px - 1);
          cairo_fill (cr);
          if (band_px >= BAND_PX && x1 - x0 > 12)
            {
              cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 1.0);
              cs_plugin_view_draw_text (view, cr, MAX (x0, area_x) + 2, y + (band_px - 1) / 2,
                                        x1 - MAX (x0, area_x) - 4, CS_PLUGIN_TEXT_SMALL, name);
            }
        }
      if (run_x0 >= 0)
        {
          cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 0.5);
          cairo_rectangle (cr, run_x0, y, run_x1 - run_x0, band_px - 1);
          cairo_fill (cr);
        }
    }
  return TRUE;

fail:
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace slices: %s", sqlite3_errmsg (db));
  return FALSE;
}

static gboolean
layer_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint32 pid = cs_plugin_view_get_pid (view);
  double top, band_px;
  guint n_depths, depth;

  if (db == NULL || pid < 0 || !geometry (db, view, pid, &top, &band_px, &n_depths) ||
      n_depths == 0 || y_px < top || y_px >= top + n_depths * band_px)
    return FALSE;
  depth = (guint) ((y_px - top) / band_px);
  if (!prepare_band (db, &stmt, view, pid, depth))
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 begin = sqlite3_column_int64 (stmt, 0), end = sqlite3_column_int64 (stmt, 1);
      double x0 = cs_plugin_view_ns_to_x (view, begin), x1 = cs_plugin_view_ns_to_x (view, end);
      g_autofree char *dur = NULL;

      if (x_px < x0 - LOOKUP_PX || x_px > x1 + LOOKUP_PX)
        continue;
      dur = cs_plugin_format_duration (end - begin);
      if (sqlite3_column_int (stmt, 3))
        item->text = g_strdup_printf (_("Slice %s: %s"), sqlite3_column_text (stmt, 2), dur);
      else
        item->text = g_strdup_printf (_("Slice %s: %s, unfinished"), sqlite3_column_text (stmt, 2), dur);
      item->begin_ns = begin;
      item->end_ns = end;
      item->pid = pid;
      return TRUE;
    }
  return FALSE;
}

/**
 * _cs_atrace_add_layer:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the task-plot layer "slices".
 */
void
_cs_atrace_add_layer (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = CS_ATRACE_LAYER,
    .target = CS_PLUGIN_LAYER_TASK_PLOT,
    .draw = layer_draw,
    .lookup = layer_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
