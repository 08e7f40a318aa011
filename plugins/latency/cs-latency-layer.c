/* cs-latency-layer.c: the shown definition's pairs as brackets over the
 * task plots.
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
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-column.h"
#include "cs-latency-ui.h"

#define CS_LATENCY_LAYER "pairs"
#define CS_LATENCY_LAYER_TOP 64
#define CS_LATENCY_LAYER_STANDOUT 8
#define CS_LATENCY_MIN_WIDTH 3.0

typedef struct {
  gint64 a_ts, b_ts, dur;
} Bracket;

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
  g_autoptr(CsLatencyColumn) dur = NULL;
  g_autoptr(CsLatencyColumn) a_ts = NULL;
  sqlite3_stmt *s;
  gint64 lo = 0, hi = 0;
  int rc;

  if (db == NULL)
    return TRUE;
  if (self->layer_stmt == NULL &&
      sqlite3_prepare_v2 (db, "SELECT lo, hi FROM latency_task_span WHERE pid = ?1", -1,
                          &self->layer_stmt, NULL) != SQLITE_OK)
    goto failed;
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
    goto failed;
  if (lo >= hi)
    return TRUE;
  dur = cs_latency_column_new (db, "latency_task", "dur_ns", error);
  a_ts = dur != NULL ? cs_latency_column_new (db, "latency_task", "a_ts", error) : NULL;
  if (a_ts == NULL)
    return FALSE;
  /* The task's pairs, longest first: keep those over the span. */
  for (gint64 pos = lo; pos < hi && out->len < CS_LATENCY_LAYER_TOP; pos++)
    {
      Bracket b;

      if (!cs_latency_column_get (dur, pos, &b.dur, error) ||
          !cs_latency_column_get (a_ts, pos, &b.a_ts, error))
        return FALSE;
      b.b_ts = b.a_ts + b.dur;
      if (b.b_ts >= begin_ns && b.a_ts < end_ns)
        g_array_append_val (out, b);
    }
  return TRUE;

failed:
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the latency pairs of %s: %s"),
               cs_plugin_document_get_path (self->document), sqlite3_errmsg (db));
  return FALSE;
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
  gint64 begin_ns, end_ns;
  CsPluginColor plain, worst, text;

  if (self == NULL || self->param == NULL)
    return TRUE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  if (!query (self, cs_plugin_view_get_pid (view), begin_ns, end_ns, brackets, error))
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
  gint32 pid = cs_plugin_view_get_pid (view);
  double y, height;
  gint64 begin_ns, end_ns;

  if (self == NULL || self->param == NULL)
    return FALSE;
  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  /* The brackets lie in the plot's lower half. */
  if (y_px < y + height / 2 - 4 || y_px > y + height + 4)
    return FALSE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  if (!query (self, pid, begin_ns, end_ns, brackets, NULL))
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
          const char *comm = cs_plugin_document_get_comm (self->document, pid);

          item->text = g_strdup_printf (_("%s %s: pid %d %s"), _cs_latency_get_title (self), dur,
                                        pid, comm != NULL ? comm : "");
          g_strchomp (item->text);
          item->begin_ns = b->a_ts;
          item->end_ns = b->b_ts;
          item->pid = pid;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _cs_latency_add_layer:
 * @plugin: the latency plugin, in its init
 *
 * Registers the task-plot layer "pairs".
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

  cs_plugin_add_layer (plugin, &info);
}
