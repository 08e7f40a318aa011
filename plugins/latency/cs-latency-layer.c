/* cs-latency-layer.c: the shown definition's pairs as brackets over the
 * task plots and the CPU plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Over the plot of task P, each pair of P (CsLatencyItem.pid) is a
 * bracket from A to B along the plot's bottom: two ticks and the line
 * between them, at least CS_LATENCY_MIN_WIDTH wide.  Only the
 * CS_LATENCY_LAYER_TOP longest pairs that overlap the visible span are
 * drawn, read longest first from the pass's columns latency_task (the
 * pairs by pid, then longest first; latency_task_span gives each task's
 * positions), so whatever the zoom the worst ones are there and stand out
 * (the longest few are drawn thicker, in vermillion, with their duration
 * when it fits).  A frame's query costs at most a walk over that task's
 * pairs, never a scan of the other tasks' pairs or of the recording's
 * events.
 *
 * Over the plot of CPU C, the layer `cpu_pairs` draws the same way the
 * pairs whose B happened on C (CsLatencyItem.b_cpu: for wakeups, the CPU
 * the task ran on at last).  The pass has no order by CPU, so a frame
 * keeps the CS_LATENCY_LAYER_TOP longest of two sets:
 *
 * - the pairs whose B lies in the span or one span-width after it: a
 *   range [lo, hi) of rowids, as rows follow B's time.  Up to
 *   CS_LATENCY_CPU_SCAN rows, read in rowid order and sorted; beyond,
 *   found by walking the pass's worst-first order (latency_worst, whose
 *   `id` is the rowid) and reading by rowid only the rows in the range,
 *   at most CS_LATENCY_CPU_LOOKUPS of them.  The walk reads about
 *   64 x CPUs x pairs / (hi - lo) positions (a 4096th of them as blobs);
 *   what it finds is the CPU's longest in that order, so a CPU with
 *   few pairs in a wide range that uses up the lookups shows fewer
 *   brackets, never wrong ones;
 * - among the CS_LATENCY_CPU_LONGEST longest pairs of the recording (the
 *   first positions of latency_worst, read once per definition, 32 bytes
 *   each, kept in CsLatency.longest), those that overlap the span, so a
 *   long pair that crosses the span's right edge by more than a
 *   span-width is there too.
 *
 * A column (b_cpu, dur_ns) sorted by the pass, like latency_task, would
 * make every frame a walk over that CPU's pairs alone.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

#define CS_LATENCY_LAYER "pairs"
#define CS_LATENCY_CPU_LAYER "cpu_pairs"
#define CS_LATENCY_CPU_SCAN 8000
#define CS_LATENCY_CPU_LOOKUPS 4096
#define CS_LATENCY_CPU_LONGEST 1024
#define CS_LATENCY_LAYER_TOP 64
#define CS_LATENCY_LAYER_STANDOUT 8
#define CS_LATENCY_MIN_WIDTH 3.0

typedef struct {
  gint64 a_ts, b_ts, dur;
  gint32 pid;
  gint32 b_cpu;         /* -1 when not read */
} Bracket;

static int
longest_first (gconstpointer a,
               gconstpointer b)
{
  const Bracket *x = a, *y = b;

  return x->dur < y->dur ? 1 : x->dur > y->dur ? -1 : (x->a_ts > y->a_ts) - (x->a_ts < y->a_ts);
}

static gboolean
query_failed (CsLatency  *self,
              sqlite3    *db,
              GError    **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the latency pairs of %s: %s"),
               cs_plugin_document_get_path (self->document), sqlite3_errmsg (db));
  return FALSE;
}

/* Appends @s's rows (a_ts, b_ts, dur_ns, pid) to @out, then resets @s. */
static gboolean
read_brackets (CsLatency     *self,
               sqlite3       *db,
               sqlite3_stmt  *s,
               GArray        *out,
               GError       **error)
{
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      Bracket b = { sqlite3_column_int64 (s, 0), sqlite3_column_int64 (s, 1),
                    sqlite3_column_int64 (s, 2), sqlite3_column_int (s, 3),
                    sqlite3_column_count (s) > 4 ? sqlite3_column_int (s, 4) : -1 };

      g_array_append_val (out, b);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return query_failed (self, db, error);
  return TRUE;
}

/* The longest pairs of @pid overlapping [begin, end), longest first. */
static gboolean
query (CsLatency  *self,
       gint32      pid,
       gint64      begin_ns,
       gint64      end_ns,
       GArray     *out,
       GError    **error)
{
  sqlite3 *db = _cs_latency_get_db (self);
  g_autoptr(CsPluginResultColumn) dur = NULL;
  g_autoptr(CsPluginResultColumn) a_ts = NULL;
  sqlite3_stmt *s;
  gint64 lo = 0, hi = 0;
  int rc;

  if (db == NULL)
    return TRUE;
  if (self->layer_stmt == NULL &&
      sqlite3_prepare_v2 (db, "SELECT lo, hi FROM latency_task_span WHERE pid = ?1", -1,
                          &self->layer_stmt, NULL) != SQLITE_OK)
    return query_failed (self, db, error);
  s = self->layer_stmt;
  sqlite3_bind_int (s, 1, pid);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      lo = sqlite3_column_int64 (s, 0);
      hi = sqlite3_column_int64 (s, 1);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return query_failed (self, db, error);
  if (lo >= hi)
    return TRUE;
  dur = cs_plugin_result_column_new (db, "latency_task", "dur_ns", error);
  a_ts = dur != NULL ? cs_plugin_result_column_new (db, "latency_task", "a_ts", error) : NULL;
  if (a_ts == NULL)
    return FALSE;
  /* The task's pairs, longest first: keep those over the span. */
  for (gint64 pos = lo; pos < hi && out->len < CS_LATENCY_LAYER_TOP; pos++)
    {
      Bracket b = { .pid = pid, .b_cpu = -1 };

      if (!cs_plugin_result_column_get (dur, pos, &b.dur, error) ||
          !cs_plugin_result_column_get (a_ts, pos, &b.a_ts, error))
        return FALSE;
      b.b_ts = b.a_ts + b.dur;
      if (b.b_ts >= begin_ns && b.a_ts < end_ns)
        g_array_append_val (out, b);
    }
  return TRUE;
}

/* How many pairs there are: the last rowid of `latency`, and the length
 * of latency_worst. */
static gboolean
count_pairs (CsLatency  *self,
             sqlite3    *db,
             gint64     *n,
             GError    **error)
{
  sqlite3_stmt *s = NULL;
  int rc;

  *n = 0;
  if (sqlite3_prepare_v2 (db, "SELECT ifnull(max(rowid), 0) FROM latency", -1, &s, NULL) != SQLITE_OK)
    return query_failed (self, db, error);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    *n = sqlite3_column_int64 (s, 0);
  sqlite3_finalize (s);
  return rc == SQLITE_ROW || query_failed (self, db, error);
}

/* Appends the row @id of `latency` to @out (nothing when there is none),
 * with its b_cpu. */
static gboolean
read_row (CsLatency  *self,
          sqlite3    *db,
          gint64      id,
          GArray     *out,
          GError    **error)
{
  sqlite3_stmt **s = &self->cpu_layer_stmt[1];

  if (*s == NULL &&
      sqlite3_prepare_v2 (db, "SELECT a_ts, b_ts, dur_ns, pid, b_cpu FROM latency WHERE rowid = ?1",
                          -1, s, NULL) != SQLITE_OK)
    return query_failed (self, db, error);
  sqlite3_bind_int64 (*s, 1, id);
  return read_brackets (self, db, *s, out, error);
}

/* The recording's CS_LATENCY_CPU_LONGEST longest pairs, read once per
 * definition (CsLatency.longest, dropped when the definition changes):
 * the first rowids of the worst-first order, then their rows. */
static GArray *
get_longest (CsLatency  *self,
             sqlite3    *db,
             GError    **error)
{
  g_autoptr(CsPluginResultColumn) ids = NULL;
  g_autoptr(GArray) longest = NULL;
  gint64 n;

  if (self->longest != NULL)
    return self->longest;
  if (!count_pairs (self, db, &n, error) ||
      (ids = cs_plugin_result_column_new (db, "latency_worst", "id", error)) == NULL)
    return NULL;
  longest = g_array_new (FALSE, FALSE, sizeof (Bracket));
  for (gint64 pos = 0; pos < MIN (n, CS_LATENCY_CPU_LONGEST); pos++)
    {
      gint64 id;

      if (!cs_plugin_result_column_get (ids, pos, &id, error) ||
          !read_row (self, db, id, longest, error))
        return NULL;
    }
  self->longest = g_steal_pointer (&longest);
  return self->longest;
}

/* The longest pairs on @cpu among the rowids [lo, hi), those whose A is
 * before @end_ns, longest first: a walk over the worst-first order (see
 * the top of the file). */
static gboolean
walk_worst (CsLatency  *self,
            sqlite3    *db,
            int         cpu,
            gint64      lo,
            gint64      hi,
            gint64      end_ns,
            GArray     *out,
            GError    **error)
{
  g_autoptr(CsPluginResultColumn) ids = NULL;
  g_autoptr(GArray) row = g_array_sized_new (FALSE, FALSE, sizeof (Bracket), 1);
  guint n_lookups = 0;
  gint64 n;

  if (!count_pairs (self, db, &n, error) ||
      (ids = cs_plugin_result_column_new (db, "latency_worst", "id", error)) == NULL)
    return FALSE;
  for (gint64 pos = 0;
       pos < n && out->len < CS_LATENCY_LAYER_TOP && n_lookups < CS_LATENCY_CPU_LOOKUPS;
       pos++)
    {
      const Bracket *b;
      gint64 id;

      if (!cs_plugin_result_column_get (ids, pos, &id, error))
        return FALSE;
      if (id < lo || id >= hi)
        continue;
      n_lookups++;
      g_array_set_size (row, 0);
      if (!read_row (self, db, id, row, error))
        return FALSE;
      if (row->len == 0)
        continue;
      b = &g_array_index (row, Bracket, 0);
      if (b->b_cpu == cpu && b->a_ts < end_ns)
        g_array_append_val (out, *b);
    }
  return TRUE;
}

/* The longest pairs whose B is on @cpu overlapping [begin, end), longest
 * first (see the top of the file for which are found). */
static gboolean
query_cpu (CsLatency  *self,
           int         cpu,
           gint64      begin_ns,
           gint64      end_ns,
           GArray     *out,
           GError    **error)
{
  sqlite3 *db = _cs_latency_get_db (self);
  gint64 lo, hi, width = end_ns - begin_ns;
  guint from_range;
  GArray *longest;

  if (db == NULL)
    return TRUE;
  if ((longest = get_longest (self, db, error)) == NULL ||
      !cs_latency_find_rows (db, begin_ns, end_ns <= G_MAXINT64 - width ? end_ns + width : G_MAXINT64,
                             &lo, &hi, error))
    return FALSE;
  if (hi - lo <= CS_LATENCY_CPU_SCAN)
    {
      sqlite3_stmt **s = &self->cpu_layer_stmt[0];

      if (*s == NULL &&
          sqlite3_prepare_v2 (db, "SELECT a_ts, b_ts, dur_ns, pid FROM latency"
                                  " WHERE rowid >= ?1 AND rowid < ?2 AND b_cpu = ?3 AND a_ts < ?4"
                                  " ORDER BY dur_ns DESC LIMIT ?5", -1, s, NULL) != SQLITE_OK)
        return query_failed (self, db, error);
      sqlite3_bind_int64 (*s, 1, lo);
      sqlite3_bind_int64 (*s, 2, hi);
      sqlite3_bind_int (*s, 3, cpu);
      sqlite3_bind_int64 (*s, 4, end_ns);
      sqlite3_bind_int (*s, 5, CS_LATENCY_LAYER_TOP);
      if (!read_brackets (self, db, *s, out, error))
        return FALSE;
    }
  else if (!walk_worst (self, db, cpu, lo, hi, end_ns, out, error))
    return FALSE;
  /* The recording's longest on this CPU in view, unless read above. */
  from_range = out->len;
  for (guint i = 0; i < longest->len; i++)
    {
      const Bracket *b = &g_array_index (longest, Bracket, i);
      gboolean seen = FALSE;

      if (b->b_cpu != cpu || b->b_ts < begin_ns || b->a_ts >= end_ns)
        continue;
      for (guint k = 0; k < from_range && !seen; k++)
        {
          const Bracket *r = &g_array_index (out, Bracket, k);

          seen = r->a_ts == b->a_ts && r->b_ts == b->b_ts && r->pid == b->pid;
        }
      if (!seen)
        g_array_append_val (out, *b);
    }
  g_array_sort (out, longest_first);
  if (out->len > CS_LATENCY_LAYER_TOP)
    g_array_set_size (out, CS_LATENCY_LAYER_TOP);
  return TRUE;
}

/* The brackets of the plot @view shows, longest first. */
static gboolean
query_view (CsLatency          *self,
            const CsPluginView *view,
            GArray             *out,
            GError            **error)
{
  gint64 begin_ns, end_ns;

  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  if (cs_plugin_view_get_cpu (view) >= 0)
    return query_cpu (self, cs_plugin_view_get_cpu (view), begin_ns, end_ns, out, error);
  return query (self, cs_plugin_view_get_pid (view), begin_ns, end_ns, out, error);
}

/* Where a bracket lies horizontally, widened to be seen and hit. */
static void
bracket_x (const CsPluginView *view,
           const Bracket      *b,
           double             *x0,
           double             *x1)
{
  *x0 = cs_plugin_view_ns_to_x (view, b->a_ts);
  *x1 = cs_plugin_view_ns_to_x (view, b->b_ts);
  if (*x1 - *x0 < CS_LATENCY_MIN_WIDTH)
    {
      double mid = (*x0 + *x1) / 2;

      *x0 = mid - CS_LATENCY_MIN_WIDTH / 2;
      *x1 = mid + CS_LATENCY_MIN_WIDTH / 2;
    }
}

static gboolean
layer_draw (gpointer            instance,
            cairo_t            *cr,
            const CsPluginView *view,
            GError            **error)
{
  CsLatency *self = instance;
  g_autoptr(GArray) brackets = g_array_new (FALSE, FALSE, sizeof (Bracket));
  double x, y, width, height;
  CsPluginColor plain, worst, text;

  if (self == NULL || self->param == NULL)
    return TRUE;
  if (!query_view (self, view, brackets, error))
    return FALSE;
  cs_plugin_view_get_area (view, &x, &y, &width, &height);
  cs_plugin_view_get_color (view, CS_PLUGIN_COLOR_PURPLE, &plain);
  cs_plugin_view_get_color (view, CS_PLUGIN_COLOR_VERMILLION, &worst);
  cs_plugin_view_get_color (view, CS_PLUGIN_COLOR_TEXT, &text);
  /* Shortest first, so that the longest lie on top. */
  for (guint i = brackets->len; i-- > 0;)
    {
      const Bracket *b = &g_array_index (brackets, Bracket, i);
      gboolean stands_out = i < CS_LATENCY_LAYER_STANDOUT;
      const CsPluginColor *c = stands_out ? &worst : &plain;
      double lw = stands_out ? 2.5 : 1.5;
      double base = y + height - lw, tick = MIN (height * 0.45, 10.0);
      double x0, x1;

      bracket_x (view, b, &x0, &x1);
      cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
      cairo_set_line_width (cr, lw);
      cairo_move_to (cr, x0, base - tick);
      cairo_line_to (cr, x0, base);
      cairo_line_to (cr, x1, base);
      cairo_line_to (cr, x1, base - tick);
      cairo_stroke (cr);
      if (stands_out)
        {
          g_autofree char *dur = cs_latency_format_ns (b->dur);
          double lx0 = MAX (x0, x), lx1 = MIN (x1, x + width);

          cairo_set_source_rgba (cr, text.red, text.green, text.blue, text.alpha);
          cs_plugin_view_draw_text (view, cr, (lx0 + lx1) / 2, base - tick / 2, lx1 - lx0 - 4,
                                    CS_PLUGIN_TEXT_CENTER | CS_PLUGIN_TEXT_SMALL, dur);
        }
    }
  return TRUE;
}

static gboolean
layer_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  CsLatency *self = instance;
  g_autoptr(GArray) brackets = g_array_new (FALSE, FALSE, sizeof (Bracket));
  int cpu = cs_plugin_view_get_cpu (view);
  double y, height;

  if (self == NULL || self->param == NULL)
    return FALSE;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  /* The brackets lie in the plot's lower half. */
  if (y_px < y + height / 2 - 4 || y_px > y + height + 4)
    return FALSE;
  if (!query_view (self, view, brackets, NULL))
    return FALSE;
  /* The longest under the pointer: what the plot shows on top. */
  for (guint i = 0; i < brackets->len; i++)
    {
      const Bracket *b = &g_array_index (brackets, Bracket, i);
      double x0, x1;

      bracket_x (view, b, &x0, &x1);
      if (x_px >= x0 - 3 && x_px <= x1 + 3)
        {
          g_autofree char *dur = cs_latency_format_ns (b->dur);
          const char *comm = cs_plugin_document_get_comm (self->document, b->pid);

          if (cpu >= 0)
            item->text = g_strdup_printf (_("%s %s: pid %d %s, ending on CPU %d"),
                                          _cs_latency_get_title (self), dur, b->pid,
                                          comm != NULL ? comm : "", cpu);
          else
            item->text = g_strdup_printf (_("%s %s: pid %d %s"), _cs_latency_get_title (self), dur,
                                          b->pid, comm != NULL ? comm : "");
          g_strchomp (item->text);
          item->begin_ns = b->a_ts;
          item->end_ns = b->b_ts;
          item->pid = b->pid;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _cs_latency_add_layer:
 * @plugin: the latency plugin, in its init
 *
 * Registers the task-plot layer "pairs" and the CPU-plot layer
 * "cpu_pairs".
 */
void
_cs_latency_add_layer (CsPlugin *plugin)
{
  static const CsPluginLayerInfo info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = CS_LATENCY_LAYER,
    .target = CS_PLUGIN_LAYER_TASK_PLOT,
    .draw = layer_draw,
    .lookup = layer_lookup,
  };
  static const CsPluginLayerInfo cpu_info = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = CS_LATENCY_CPU_LAYER,
    .target = CS_PLUGIN_LAYER_CPU_PLOT,
    .draw = layer_draw,
    .lookup = layer_lookup,
  };

  cs_plugin_add_layer (plugin, &info);
  cs_plugin_add_layer (plugin, &cpu_info);
}
