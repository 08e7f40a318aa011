/* cs-funcgraph-layer.c: the flame rows, one per task.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A row (key: the pid in decimal) draws the task's function_graph calls
 * as a flame chart: one band per depth, outermost on top, each call a box
 * from its begin to its end with its function's name where it fits
 * (elided, or left out in narrow boxes).  Function tracer events, which
 * have no duration, are ticks along the row's bottom.
 *
 * Each band reads only the calls of the visible span, in time order from
 * the band's stretch of the order call_flame (by task, depth, then
 * beginning: cs-funcgraph-reader.c), starting with the last call begun
 * before the span (calls of one band never overlap), which may reach
 * into it, found by bisection.  Calls narrower
 * than a pixel are merged into one box per run of touching pixels, and
 * where many begin in the same pixel column the query jumps to the next
 * column (calls of one band never overlap), so a frame reads about one
 * call per pixel column and band, whatever the zoom.
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-funcgraph-private.h"

#define PAD_PX       2.0
#define MIN_BAND_PX  6.0
#define MAX_BAND_PX  12.0
#define TICKS_PX     4.0
#define LOOKUP_PX    3.0
/* Rows read in one pixel column before the query jumps past it. */
#define MAX_PER_COLUMN 2

/* The row's geometry: its bands and where they go. */
typedef struct {
  double x, y, width, height;
  guint n_depths;        /* bands drawn */
  double band_px;
  gint64 *max_ns;        /* by depth: the longest call there */
  gboolean has_instants;
  gint64 instants_lo, instants_hi;      /* the task's in instant_task */
} Geometry;

static gboolean
parse_pid (const char *key,
           gint32     *pid)
{
  char *end = NULL;
  gint64 v;

  if (key == NULL || *key == '\0')
    return FALSE;
  v = g_ascii_strtoll (key, &end, 10);
  if (*end != '\0' || v < 0 || v > G_MAXINT32)
    return FALSE;
  *pid = (gint32) v;
  return TRUE;
}

static char *
flame_row_label (gpointer    instance,
                 const char *key)
{
  CsFuncgraph *self = instance;
  const char *comm;
  gint32 pid;

  if (self == NULL || !parse_pid (key, &pid))
    return NULL;
  /* The row is being set up: its calls are needed soon. */
  _cs_funcgraph_request (self);
  comm = cs_plugin_document_get_comm (self->document, pid);
  return g_strdup_printf (_("Calls: %s\n%d"), comm != NULL ? comm : "?", pid);
}

static void
geometry_clear (Geometry *g)
{
  g_clear_pointer (&g->max_ns, g_free);
}

/* The bands of @pid: how many depths it has, their longest calls. */
static gboolean
geometry_init (Geometry           *g,
               CsFuncgraph        *self,
               sqlite3            *db,
               const CsPluginView *view,
               gint32              pid)
{
  g_autoptr(CsFuncgraphStatement) stmt = NULL;
  double usable;
  guint n = 0;

  memset (g, 0, sizeof *g);
  cs_plugin_view_get_area (view, &g->x, &g->y, &g->width, &g->height);
  stmt = _cs_funcgraph_statement (self, db, "SELECT depth, max_ns FROM band WHERE pid = ? ORDER BY depth");
  if (stmt == NULL ||
      !_cs_funcgraph_reader_get_span (_cs_funcgraph_get_reader (self, db), CS_FUNCGRAPH_ORDER_TASK,
                                      pid, &g->instants_lo, &g->instants_hi, NULL))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, pid);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint depth = (guint) sqlite3_column_int64 (stmt, 0);

      if (depth >= 256)
        break;
      g->max_ns = g_renew (gint64, g->max_ns, depth + 1);
      for (guint i = n; i <= depth; i++)
        g->max_ns[i] = 0;
      g->max_ns[depth] = sqlite3_column_int64 (stmt, 1);
      n = depth + 1;
    }
  g->has_instants = g->instants_hi > g->instants_lo;
  usable = g->height - 2 * PAD_PX - (g->has_instants && n > 0 ? TICKS_PX : 0);
  if (n > 0)
    {
      g->band_px = CLAMP (usable / n, MIN_BAND_PX, MAX_BAND_PX);
      g->n_depths = MIN (n, (guint) floor (usable / g->band_px));
    }
  return TRUE;
}

/* One colour per function, from the palette's accents. */
static CsPluginColorRole
func_role (gint64 func)
{
  static const CsPluginColorRole roles[] = {
    CS_PLUGIN_COLOR_SKY_BLUE, CS_PLUGIN_COLOR_ORANGE, CS_PLUGIN_COLOR_GREEN,
    CS_PLUGIN_COLOR_YELLOW, CS_PLUGIN_COLOR_PURPLE, CS_PLUGIN_COLOR_BLUE,
    CS_PLUGIN_COLOR_VERMILLION,
  };

  return roles[(guint64) func * 2654435761u % G_N_ELEMENTS (roles)];
}

/* The name inside a box: whole, or cut with "…" until it fits. */
static void
draw_name (CsFuncgraph        *self,
           cairo_t            *cr,
           const CsPluginView *view,
           double              x0,
           double              x1,
           double              y_mid,
           gint64              func)
{
  const char *name;
  glong len;

  if (x1 - x0 < 16)
    return;
  name = _cs_funcgraph_get_name (self, func);
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 1.0);
  if (cs_plugin_view_draw_text (view, cr, x0 + 2, y_mid, x1 - x0 - 4,
                                CS_PLUGIN_TEXT_LEFT | CS_PLUGIN_TEXT_SMALL, name) > 0)
    return;
  len = g_utf8_strlen (name, -1);
  for (glong keep = MIN (len - 1, (glong) ((x1 - x0) / 4)); keep >= 2; keep = keep * 2 / 3)
    {
      g_autofree char *head = g_utf8_substring (name, 0, keep);
      g_autofree char *text = g_strconcat (head, "…", NULL);

      if (cs_plugin_view_draw_text (view, cr, x0 + 2, y_mid, x1 - x0 - 4,
                                    CS_PLUGIN_TEXT_LEFT | CS_PLUGIN_TEXT_SMALL, text) > 0)
        return;
    }
}

static void
fill_box (cairo_t            *cr,
          const CsPluginView *view,
          double              x0,
          double              x1,
          double              y,
          double              h,
          CsPluginColorRole   role)
{
  cs_plugin_view_set_source (view, cr, role, 0.85);
  cairo_rectangle (cr, x0, y, MAX (x1 - x0, 1.0), h);
  cairo_fill (cr);
}

/* Where to start reading the band @depth of @pid to find every call that
 * reaches past @t: its positions [*@lo, *@hi) in call_flame, and *@from,
 * the last call beginning before @t, as the calls of one band of one
 * task never overlap (one bisection).  The idle task, pid 0, runs on
 * every CPU at once: its calls may overlap, so its band starts its
 * longest call before @t. */
static gboolean
band_from (CsFuncgraphReader  *reader,
           const Geometry     *g,
           gint32              pid,
           guint               depth,
           gint64              t,
           gint64             *lo,
           gint64             *hi,
           gint64             *from,
           GError            **error)
{
  gint64 b, prev;

  if (!_cs_funcgraph_reader_get_span (reader, CS_FUNCGRAPH_ORDER_FLAME,
                                      CS_FUNCGRAPH_BAND_KEY (pid, depth), lo, hi, error))
    return FALSE;
  if (pid == 0)
    return _cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_FLAME_BEGIN, *lo, *hi,
                                      t - g->max_ns[depth], from, error);
  if (!_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_FLAME_BEGIN, *lo, *hi, t, from, error))
    return FALSE;
  if (*from == *lo)
    return TRUE;
  /* The last call begun before @t (and any begun at the same time). */
  if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_BEGIN, --*from, &b, error))
    return FALSE;
  while (*from > *lo)
    {
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_BEGIN, *from - 1, &prev, error))
        return FALSE;
      if (prev != b)
        break;
      --*from;
    }
  return TRUE;
}

/* One band: the calls at @depth in the span. */
static gboolean
draw_band (CsFuncgraph        *self,
           CsFuncgraphReader  *reader,
           cairo_t            *cr,
           const CsPluginView *view,
           const Geometry     *g,
           gint32              pid,
           guint               depth,
           GError            **error)
{
  gint64 span_begin, span_end, lo, hi, pos;
  double y = g->y + PAD_PX + depth * g->band_px, h = g->band_px - 1;
  double merged_x0 = -1, merged_x1 = -1;
  double column = -1;
  guint in_column = 0;

  cs_plugin_view_get_span (view, &span_begin, &span_end);
  if (!band_from (reader, g, pid, depth, span_begin, &lo, &hi, &pos, error))
    return FALSE;
  while (pos < hi)
    {
      gint64 b, e;
      double x0, x1;

      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_BEGIN, pos, &b, error))
        return FALSE;
      if (b >= span_end)
        break;
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_END, pos, &e, error))
        return FALSE;
      x0 = MAX (cs_plugin_view_ns_to_x (view, b), g->x - 1);
      x1 = MIN (cs_plugin_view_ns_to_x (view, e), g->x + g->width + 1);
      pos++;
      if (x1 < g->x)
        continue;
      if (x1 - x0 >= 2.0)
        {
          gint64 func;

          if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_FUNC, pos - 1, &func, error))
            return FALSE;
          if (merged_x0 >= 0)
            fill_box (cr, view, merged_x0, merged_x1, y, h, CS_PLUGIN_COLOR_GRID);
          merged_x0 = -1;
          fill_box (cr, view, x0, x1, y, h, func_role (func));
          draw_name (self, cr, view, x0, x1, y + h / 2, func);
        }
      else if (merged_x0 >= 0 && x0 <= merged_x1 + 1.0)
        merged_x1 = MAX (merged_x1, x1);
      else
        {
          if (merged_x0 >= 0)
            fill_box (cr, view, merged_x0, merged_x1, y, h, CS_PLUGIN_COLOR_GRID);
          merged_x0 = x0;
          merged_x1 = x1;
        }
      /* Many calls in one column: go on from the next column. */
      if (floor (x0) == column && ++in_column >= MAX_PER_COLUMN)
        {
          gint64 next = cs_plugin_view_x_to_ns (view, column + 1.0);

          if (next > b)
            {
              merged_x1 = MAX (merged_x1, column + 1.0);
              if (!_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_FLAME_BEGIN, pos, hi, next,
                                              &pos, error))
                return FALSE;
            }
          in_column = 0;
        }
      else if (floor (x0) != column)
        {
          column = floor (x0);
          in_column = 0;
        }
    }
  if (merged_x0 >= 0)
    fill_box (cr, view, merged_x0, merged_x1, y, h, CS_PLUGIN_COLOR_GRID);
  return TRUE;
}

/* Function tracer events: a tick per pixel column that has any, each
 * found by a look-up in the task's stretch of instant_task. */
static gboolean
draw_instants (CsFuncgraphReader  *reader,
               cairo_t            *cr,
               const CsPluginView *view,
               const Geometry     *g,
               GError            **error)
{
  gint64 span_begin, span_end, ts, pos = g->instants_lo;
  double y0 = g->n_depths > 0 ? g->y + g->height - PAD_PX - TICKS_PX : g->y + PAD_PX;
  double y1 = g->y + g->height - PAD_PX;

  cs_plugin_view_get_span (view, &span_begin, &span_end);
  cs_plugin_view_set_source (view, cr, CS_PLUGIN_COLOR_TEXT, 0.7);
  for (gint64 from = span_begin; from < span_end; )
    {
      double x;

      if (!_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_TASK_TS, pos, g->instants_hi, from,
                                      &pos, error))
        return FALSE;
      if (pos >= g->instants_hi)
        break;
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TASK_TS, pos, &ts, error))
        return FALSE;
      if (ts >= span_end)
        break;
      x = floor (cs_plugin_view_ns_to_x (view, ts));
      cairo_rectangle (cr, x, y0, 1.0, y1 - y0);
      from = MAX (ts + 1, cs_plugin_view_x_to_ns (view, x + 1.0));
    }
  cairo_fill (cr);
  return TRUE;
}

static gboolean
flame_draw (gpointer            instance,
            cairo_t            *cr,
            const CsPluginView *view,
            GError            **error)
{
  CsFuncgraph *self = instance;
  sqlite3 *db = _cs_funcgraph_get_db (self);
  CsFuncgraphReader *reader;
  g_autoptr(GError) local_error = NULL;
  Geometry g;
  gint32 pid;
  gboolean ok = TRUE;

  if (db == NULL || !parse_pid (cs_plugin_view_get_row_key (view), &pid))
    return TRUE;   /* not computed yet: pass_ready redraws */
  reader = _cs_funcgraph_get_reader (self, db);
  /* One read transaction for the frame's queries: otherwise each look-up
   * takes and drops the database's file lock. */
  sqlite3_exec (db, "BEGIN", NULL, NULL, NULL);
  if (!geometry_init (&g, self, db, view, pid))
    ok = FALSE;
  for (guint d = 0; ok && d < g.n_depths; d++)
    ok = draw_band (self, reader, cr, view, &g, pid, d, &local_error);
  if (ok && g.has_instants)
    ok = draw_instants (reader, cr, view, &g, &local_error);
  geometry_clear (&g);
  sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
  if (!ok)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                 "function_graph row of pid %d: %s", pid,
                 local_error != NULL ? local_error->message : sqlite3_errmsg (db));
  return ok;
}

/* The longest call at @depth that overlaps [t0, t1), if one does. */
static gboolean
find_call (CsFuncgraphReader *reader,
           const Geometry    *g,
           gint32             pid,
           guint              depth,
           gint64             t0,
           gint64             t1,
           CsFuncgraphCall   *call)
{
  gint64 lo, hi, pos, b, e, row, best = -1, best_ns = 0;

  if (!band_from (reader, g, pid, depth, t0, &lo, &hi, &pos, NULL))
    return FALSE;
  for (; pos < hi; pos++)
    {
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_BEGIN, pos, &b, NULL))
        return FALSE;
      if (b >= t1)
        break;
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_END, pos, &e, NULL))
        return FALSE;
      if (e > t0 && (best < 0 || e - b > best_ns))
        {
          best = pos;
          best_ns = e - b;
        }
    }
  return best >= 0 &&
         _cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_FLAME_ROW, best, &row, NULL) &&
         _cs_funcgraph_reader_read_call (reader, row, call, NULL);
}

/* The function event nearest to the middle of [t0, t1) in @pid's ticks,
 * as an item: the last before the middle or the first at or after it
 * (one look-up in the task's stretch of instant_task). */
static gboolean
find_instant (CsFuncgraph       *self,
              CsFuncgraphReader *reader,
              const Geometry    *g,
              gint32             pid,
              gint64             t0,
              gint64             t1,
              CsPluginItem      *item)
{
  gint64 mid = t0 + (t1 - t0) / 2, pos, best = -1, best_ns = 0, ts, row, func, parent;
  guint cpu;

  if (!_cs_funcgraph_reader_find (reader, CS_FUNCGRAPH_TASK_TS, g->instants_lo, g->instants_hi,
                                  mid, &pos, NULL))
    return FALSE;
  for (gint64 p = MAX (pos - 1, g->instants_lo); p <= pos && p < g->instants_hi; p++)
    {
      if (!_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TASK_TS, p, &ts, NULL))
        return FALSE;
      if (ts >= t0 && ts < t1 && (best < 0 || ABS (ts - mid) < best_ns))
        {
          best = p;
          best_ns = ABS (ts - mid);
        }
    }
  if (best < 0 ||
      !_cs_funcgraph_reader_get (reader, CS_FUNCGRAPH_TASK_ROW, best, &row, NULL) ||
      !_cs_funcgraph_reader_read_instant (reader, row, &ts, &func, &parent, &cpu, NULL))
    return FALSE;
  item->text = g_strdup_printf (_("%s, called from %s (function event), pid %d on CPU %u"),
                                _cs_funcgraph_get_name (self, func),
                                _cs_funcgraph_get_name (self, parent), pid, cpu);
  item->begin_ns = ts;
  item->end_ns = ts;
  item->pid = pid;
  return TRUE;
}

static gboolean
flame_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  CsFuncgraph *self = instance;
  sqlite3 *db = _cs_funcgraph_get_db (self);
  CsFuncgraphCall call;
  Geometry g;
  gint32 pid;
  double band;
  gboolean found = FALSE;

  if (db == NULL || !parse_pid (cs_plugin_view_get_row_key (view), &pid) ||
      !geometry_init (&g, self, db, view, pid))
    return FALSE;
  band = floor ((y_px - g.y - PAD_PX) / MAX (g.band_px, 1.0));
  if (band >= 0 && band < g.n_depths &&
      find_call (_cs_funcgraph_get_reader (self, db), &g, pid, (guint) band,
                 cs_plugin_view_x_to_ns (view, x_px - LOOKUP_PX),
                 cs_plugin_view_x_to_ns (view, x_px + LOOKUP_PX) + 1, &call))
    {
      g_autofree char *dur = cs_plugin_format_duration (call.end_ns - call.begin_ns);
      g_autofree char *self_time = cs_plugin_format_duration (call.self_ns);

      item->text = g_strdup_printf (_("%s: %s (self %s), depth %u, pid %d on CPU %u"),
                                    _cs_funcgraph_get_name (self, call.func), dur, self_time,
                                    call.depth, pid, call.cpu);
      item->begin_ns = call.begin_ns;
      item->end_ns = call.end_ns;
      item->pid = pid;
      found = TRUE;
    }
  else if (g.has_instants &&
           (g.n_depths == 0 || y_px >= g.y + g.height - PAD_PX - TICKS_PX - 1))
    found = find_instant (self, _cs_funcgraph_get_reader (self, db), &g, pid,
                          cs_plugin_view_x_to_ns (view, x_px - LOOKUP_PX),
                          cs_plugin_view_x_to_ns (view, x_px + LOOKUP_PX) + 1, item);
  geometry_clear (&g);
  return found;
}

static const CsPluginLayerInfo flame_layer = {
  .struct_size = sizeof (CsPluginLayerInfo),
  .name = CS_FUNCGRAPH_LAYER,
  .target = CS_PLUGIN_LAYER_ROW,
  .row_label = flame_row_label,
  .draw = flame_draw,
  .lookup = flame_lookup,
};

/**
 * _cs_funcgraph_add_layer:
 * @plugin: the funcgraph plugin, in its init
 *
 * Registers the layer "flame", whose rows (key: a pid) draw a task's calls.
 */
void
_cs_funcgraph_add_layer (CsPlugin *plugin)
{
  cs_plugin_add_layer (plugin, &flame_layer);
}
