/* cs-atrace-counter-band.c: a process's atrace counters on its task plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task plot of a task whose process (tgid) wrote C markers gets a band
 * of BAND_PX at its bottom, under the slices (cs-atrace-layer.c moves
 * them up by as much): each of the process's counters, at most
 * MAX_COUNTERS of them by name, is a step line across the band from its
 * smallest value in the recording (the band's bottom) to its largest (its
 * top), in a colour of its name, the area under it filled.  The pointer over the band gives each
 * counter's name and the value in force there ("Counter NAME: VALUE").
 * The process of a task is the tgid of the markers it wrote (the pass's
 * table thread); a task that wrote none is taken as its own process, so
 * the main thread's plot shows the counters too.
 *
 * Each counter also has a row of its own ("counter", cs-atrace-counter.c),
 * taller, which the Atrace page adds.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-atrace-private.h"

#define BAND_PX       8.0
#define MAX_COUNTERS  8
#define FILL_ALPHA    0.35

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/**
 * _cs_atrace_dup_task_counters:
 * @db: the pass's database
 * @pid: a task
 * @tgid: (out): its process
 *
 * Returns: (transfer full) (nullable): the names of the counters of
 *   @pid's process in name order, at most MAX_COUNTERS, or %NULL when it
 *   has none (or @db fails)
 */
GStrv
_cs_atrace_dup_task_counters (sqlite3 *db,
                              gint32   pid,
                              gint64  *tgid)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  guint n = 0;

  *tgid = pid;
  if (sqlite3_prepare_v2 (db, "SELECT tgid FROM thread WHERE pid = ?", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, pid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    *tgid = sqlite3_column_int64 (stmt, 0);
  g_clear_pointer (&stmt, sqlite3_finalize);
  if (sqlite3_prepare_v2 (db, "SELECT name FROM counter_name WHERE tgid = ? ORDER BY name "
                          "LIMIT " G_STRINGIFY (MAX_COUNTERS), -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, *tgid);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_strv_builder_add (names, (const char *) sqlite3_column_text (stmt, 0));
      n++;
    }
  if (n == 0)
    return NULL;
  return g_strv_builder_end (names);
}

/**
 * _cs_atrace_counter_band_px:
 * @db: the pass's database
 * @pid: a task
 *
 * Returns: the height of the counters band at the bottom of @pid's task
 *   plot, 0 when its process has no counter
 */
double
_cs_atrace_counter_band_px (sqlite3 *db,
                            gint32   pid)
{
  g_auto(GStrv) names = NULL;
  gint64 tgid;

  names = _cs_atrace_dup_task_counters (db, pid, &tgid);
  return names != NULL ? BAND_PX : 0;
}

static gboolean
band_draw (gpointer            instance,
           cairo_t            *cr,
           const CsPluginView *view,
           GError            **error)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  gint32 pid = cs_plugin_view_get_pid (view);
  g_auto(GStrv) names = NULL;
  double x, y, width, height, top;
  gint64 tgid;

  if (db == NULL || pid < 0 || (names = _cs_atrace_dup_task_counters (db, pid, &tgid)) == NULL)
    return TRUE;
  cs_plugin_view_get_area (view, &x, &y, &width, &height);
  top = y + height - BAND_PX;
  /* The band's top edge, then each counter as a filled step line. */
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_GRID, 1.0);
  cairo_rectangle (cr, x, top, width, 1);
  cairo_fill (cr);
  for (guint i = 0; names[i] != NULL; i++)
    if (!_cs_atrace_draw_counter (db, cr, view, tgid, names[i], top + 2, BAND_PX - 3,
                                  _cs_atrace_name_role (names[i]), FILL_ALPHA))
      {
        g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace counters: %s",
                     sqlite3_errmsg (db));
        return FALSE;
      }
  return TRUE;
}

static gboolean
band_lookup (gpointer            instance,
             const CsPluginView *view,
             double              x_px,
             double              y_px,
             CsPluginItem       *item)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  gint32 pid = cs_plugin_view_get_pid (view);
  g_auto(GStrv) names = NULL;
  g_autoptr(GString) values = g_string_new (NULL);
  gint64 tgid, at = cs_plugin_view_x_to_ns (view, x_px), last_sample = G_MININT64;
  double y, height;
  guint n = 0;

  if (db == NULL || pid < 0)
    return FALSE;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  if (y_px < y + height - BAND_PX || y_px >= y + height ||
      (names = _cs_atrace_dup_task_counters (db, pid, &tgid)) == NULL)
    return FALSE;
  for (guint i = 0; names[i] != NULL; i++)
    {
      gint64 sample_ns, value;

      if (!_cs_atrace_counter_value_at (db, tgid, names[i], at, &sample_ns, &value))
        continue;
      if (n++ > 0)
        g_string_append (values, ", ");
      /* TRANSLATORS: a counter's name and its value, in a list */
      g_string_append_printf (values, _("%s: %" PRId64), names[i], value);
      last_sample = MAX (last_sample, sample_ns);
    }
  if (n == 0)
    return FALSE;
  /* TRANSLATORS: %s is a list of "NAME: VALUE" of atrace counters */
  item->text = g_strdup_printf (ngettext ("Counter %s", "Counters %s", n), values->str);
  item->begin_ns = item->end_ns = last_sample;
  item->pid = pid;
  return TRUE;
}

/**
 * _cs_atrace_add_counter_band:
 * @plugin: the atrace plugin, in its init
 *
 * Registers the task-plot layer "counters".
 */
void
_cs_atrace_add_counter_band (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = "counters",
    .target = CS_PLUGIN_LAYER_TASK_PLOT,
    .draw = band_draw,
    .lookup = band_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
