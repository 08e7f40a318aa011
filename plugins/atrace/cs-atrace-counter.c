/* cs-atrace-counter.c: rows of atrace counters, as step plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A row (key "TGID:NAME") draws the samples of one counter (C markers of
 * the process TGID named NAME) as a step line, from the row's bottom (the
 * counter's smallest value in the recording) to its top (its largest).
 * The pointer gives the value in force there.  Add one from the Atrace
 * page, with `chronoscope render --row atrace:TGID:NAME` or a
 * session.  The step line and the value under the pointer are shared with
 * the counters band of task plots (cs-atrace-counter-band.c).
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

/**
 * _cs_atrace_counter_range:
 * @db: the pass's database
 * @tgid: the counter's process
 * @name: its name
 * @min: (out): its smallest value in the recording
 * @max: (out): its largest
 *
 * Returns: %FALSE when the counter has no sample (or @db fails)
 */
gboolean
_cs_atrace_counter_range (sqlite3    *db,
               gint64      tgid,
               const char *name,
               gint64     *min,
               gint64     *max)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT min, max FROM counter_name WHERE tgid = ? AND name = ?",
                          -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tgid);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_ROW)
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

/**
 * _cs_atrace_draw_counter:
 * @db: the pass's database
 * @cr: where to draw
 * @view: the plot or row drawn
 * @tgid: the counter's process
 * @name: its name
 * @top_px: top of the band the line spans (the counter's largest value)
 * @height_px: its height (the smallest value is at the bottom)
 * @role: the line's colour
 * @fill_alpha: the opacity of the area under the line, in @role's colour
 *   (0: no fill)
 *
 * Draws the samples of the counter in @view's span as a step line, the
 * last value held until the recording's end.  A counter without samples
 * draws nothing.
 *
 * Returns: %FALSE when @db fails (sqlite3_errmsg() says why)
 */
gboolean
_cs_atrace_draw_counter (sqlite3            *db,
                         cairo_t            *cr,
                         const CsPluginView *view,
                         gint64              tgid,
                         const char         *name,
                         double              top_px,
                         double              height_px,
                         CsPluginColorRole   role,
                         double              fill_alpha)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 min, max;
  double x, width, first_x = 0, last_x = 0, last_y = 0;
  gboolean first = TRUE;

  if (!_cs_atrace_counter_range (db, tgid, name, &min, &max))
    return TRUE;
  cs_plugin_view_get_area (view, &x, NULL, &width, NULL);
  if (!_cs_atrace_prepare_span (db, &stmt, samples_sql, view, tgid))
    return FALSE;
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  cs_plugin_view_set_source (view, cr, role, 1.0);
  cairo_set_line_width (cr, 1.0);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      double sx = MAX (cs_plugin_view_ns_to_x (view, sqlite3_column_int64 (stmt, 0)), x);
      double frac = max > min ? (double) (sqlite3_column_int64 (stmt, 1) - min) / (double) (max - min) : 0.5;
      double sy = top_px + height_px - frac * height_px;

      if (first)
        cairo_move_to (cr, first_x = sx, sy);
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

      end_x = MIN (MAX (end_x, last_x), x + width);
      cairo_line_to (cr, end_x, last_y);
      if (fill_alpha > 0)
        {
          cairo_path_t *line = cairo_copy_path (cr);

          cairo_line_to (cr, end_x, top_px + height_px);
          cairo_line_to (cr, first_x, top_px + height_px);
          cairo_close_path (cr);
          cs_plugin_view_set_source (view, cr, role, fill_alpha);
          cairo_fill (cr);
          cairo_append_path (cr, line);
          cairo_path_destroy (line);
          cs_plugin_view_set_source (view, cr, role, 1.0);
        }
      cairo_stroke (cr);
    }
  return TRUE;
}

static gboolean
counter_draw (gpointer            instance,
              cairo_t            *cr,
              const CsPluginView *view,
              GError            **error)
{
  sqlite3 *db = _cs_atrace_get_db (instance);
  const char *name;
  gint64 tgid;
  double y, height;

  if (db == NULL || !parse_key (cs_plugin_view_get_row_key (view), &tgid, &name))
    return TRUE;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  if (!_cs_atrace_draw_counter (db, cr, view, tgid, name, y + PAD_PX, height - 2 * PAD_PX,
                                CS_PLUGIN_COLOR_GREEN, 0))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "atrace counter: %s", sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}

/**
 * _cs_atrace_counter_value_at:
 * @db: the pass's database
 * @tgid: the counter's process
 * @name: its name
 * @ts_ns: a time
 * @sample_ns: (out): when the value in force at @ts_ns was set
 * @value: (out): that value
 *
 * Returns: %FALSE when the counter has no sample at or before @ts_ns
 */
gboolean
_cs_atrace_counter_value_at (sqlite3    *db,
                             gint64      tgid,
                             const char *name,
                             gint64      ts_ns,
                             gint64     *sample_ns,
                             gint64     *value)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT ts_ns, value FROM counter WHERE tgid = ? AND name = ? "
                          "AND ts_ns <= ? ORDER BY ts_ns DESC LIMIT 1", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, tgid);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 3, ts_ns);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return FALSE;
  *sample_ns = sqlite3_column_int64 (stmt, 0);
  *value = sqlite3_column_int64 (stmt, 1);
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
  const char *name;
  gint64 tgid, sample_ns, value;

  if (db == NULL || !parse_key (cs_plugin_view_get_row_key (view), &tgid, &name) ||
      !_cs_atrace_counter_value_at (db, tgid, name, cs_plugin_view_x_to_ns (view, x_px), &sample_ns, &value))
    return FALSE;
  item->text = g_strdup_printf (_("Counter %s: %" PRId64), name, value);
  item->begin_ns = item->end_ns = sample_ns;
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
    .name = CS_ATRACE_COUNTER_ROWS,
    .target = CS_PLUGIN_LAYER_ROW,
    .row_label = counter_row_label,
    .draw = counter_draw,
    .lookup = counter_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
}
