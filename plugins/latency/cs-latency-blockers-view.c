/* cs-latency-blockers-view.c: who holds everyone, beside the histogram.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For the wakeup preset, "Find top blockers" runs the explain room's pass
 * `blockers` (explain/cs-explain-pass.c) over the pairs at or above the
 * recording's p99 (nearest rank, as the figures; the pass's parameter is
 * "wakeup>=NS"), in the background like any pass, and lists the
 * contributors ranked by the total time they added to those pairs, with
 * the count of pairs each delayed, as `chronoscope latency FILE --preset
 * wakeup --blockers` prints them (both read the pass's table
 * explain_blocker).  Activating a contributor selects its pairs: the page
 * lists them (from the pass's explain_pair and explain_part), worst
 * first; activating it again lists all the pairs again.  The pass runs on
 * demand, not with every wakeup run: on a large recording it costs about
 * as much as opening it.
 *
 * The layout is the template cs-latency-blockers-view.ui, each line a
 * CsLatencyBlockerRow (cs-latency-blocker-row.c); the view emits
 * "selected" when the user selects a contributor or unselects it.
 *
 * Widgets a test reaches have names: latency-blockers (the list),
 * latency-blockers-find, latency-blockers-status.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"
#include "explain/cs-explain-pass.h"

#define TOP_BLOCKERS 20
#define BLOCKERS_PERCENTILE 99

struct _CsLatencyBlockersView
{
  GtkBox parent_instance;

  GtkListBox *list;
  GtkLabel *status;
  GtkWidget *find;
  CsLatency *latency;           /* borrowed; NULL once gone */
  char *param;                  /* the pass's parameter asked for */
  GArray *rows;                 /* CsExplainContributor, as listed */
  int selected;                 /* the row whose pairs are listed, -1 */
};

G_DEFINE_FINAL_TYPE (CsLatencyBlockersView, cs_latency_blockers_view, GTK_TYPE_BOX)

enum { SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static sqlite3 *
get_db (CsLatencyBlockersView *self)
{
  if (self->latency == NULL || self->param == NULL ||
      g_strcmp0 (self->latency->blockers_param, self->param) != 0)
    return NULL;
  return cs_plugin_document_get_pass_db (self->latency->document, self->latency->plugin,
                                         CS_EXPLAIN_BLOCKERS_PASS, self->param, NULL);
}

static void
remove_rows (CsLatencyBlockersView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_array_set_size (self->rows, 0);
  self->selected = -1;
}

static CsExplainKind
kind_from_name (const char *name)
{
  for (CsExplainKind k = CS_EXPLAIN_TASK; k <= CS_EXPLAIN_VCPU_NOT_RUNNING; k++)
    if (g_strcmp0 (name, cs_explain_kind_name (k)) == 0)
      return k;
  return CS_EXPLAIN_UNKNOWN;
}

/**
 * _cs_latency_blockers_view_ready:
 * @self: a view
 *
 * The pass `blockers` is ready (CsLatency.blockers_param): lists its top
 * contributors when it is the one this view asked for.
 */
void
_cs_latency_blockers_view_ready (CsLatencyBlockersView *self)
{
  sqlite3 *db = get_db (self);
  sqlite3_stmt *s = NULL;
  g_autofree char *status = NULL;
  gint64 threshold_ns = 0;
  g_autofree char *threshold = NULL;

  if (db == NULL)
    return;
  remove_rows (self);
  if (sqlite3_prepare_v2 (db, "SELECT kind, id, name, prio, total_ns, n_pairs FROM explain_blocker"
                          " ORDER BY total_ns DESC, kind, id, name LIMIT ?1", -1, &s, NULL) != SQLITE_OK)
    {
      gtk_label_set_text (self->status, sqlite3_errmsg (db));
      return;
    }
  sqlite3_bind_int (s, 1, TOP_BLOCKERS);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      CsExplainContributor c = { 0 };

      c.kind = kind_from_name ((const char *) sqlite3_column_text (s, 0));
      c.id = sqlite3_column_int (s, 1);
      g_strlcpy (c.name, (const char *) sqlite3_column_text (s, 2), sizeof c.name);
      c.prio = sqlite3_column_int (s, 3);
      c.ns = sqlite3_column_int64 (s, 4);
      c.n_pairs = sqlite3_column_int64 (s, 5);
      g_array_append_val (self->rows, c);
      /* The line's index is the contributor's in self->rows. */
      gtk_list_box_append (self->list, _cs_latency_blocker_row_new (&c));
    }
  sqlite3_finalize (s);
  cs_explain_blockers_parse (self->param, &threshold_ns);
  threshold = cs_latency_format_ns (threshold_ns);
  status = g_strdup_printf (_("What delayed the wakeups of %s or more (p%d)"), threshold,
                            BLOCKERS_PERCENTILE);
  gtk_label_set_text (self->status, status);
}

static void
find_clicked_cb (CsLatencyBlockersView *self)
{
  sqlite3 *db = self->latency != NULL ? _cs_latency_get_db (self->latency) : NULL;
  CsLatencyStats stats = { 0 };
  g_autoptr(GError) error = NULL;

  if (db == NULL || g_strcmp0 (self->latency->param, "wakeup") != 0)
    return;
  if (!cs_latency_stats_compute (db, G_MININT64, G_MAXINT64, &stats, &error))
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  g_free (self->param);
  self->param = g_strdup_printf ("wakeup>=%" G_GINT64_FORMAT, stats.count > 0 ? stats.p99_ns : G_MAXINT64);
  cs_latency_stats_clear (&stats);
  gtk_label_set_text (self->status, _("Finding the top blockers…"));
  cs_plugin_document_request_pass (self->latency->document, self->latency->plugin,
                                   CS_EXPLAIN_BLOCKERS_PASS, self->param);
}

static void
row_activated_cb (CsLatencyBlockersView *self,
                  GtkListBoxRow         *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (self->selected == index)
    {
      self->selected = -1;
      gtk_list_box_unselect_all (self->list);
    }
  else
    self->selected = index;
  g_signal_emit (self, signals[SELECTED], 0);
}

/**
 * _cs_latency_blockers_view_dup_pairs:
 * @self: a view
 * @what: (out) (optional) (transfer full): the selected contributor in a
 *   few words
 *
 * The pairs of the contributor the user selected, worst first, read from
 * the pass `blockers`.
 *
 * Returns: (transfer full) (nullable) (element-type CsLatencyItem): the
 *   pairs, %NULL when no contributor is selected
 */
GArray *
_cs_latency_blockers_view_dup_pairs (CsLatencyBlockersView  *self,
                                     char                  **what)
{
  sqlite3 *db = get_db (self);
  const CsExplainContributor *c;
  sqlite3_stmt *s = NULL;
  GArray *items;

  if (db == NULL || self->selected < 0 || (guint) self->selected >= self->rows->len)
    return NULL;
  c = &g_array_index (self->rows, CsExplainContributor, self->selected);
  if (sqlite3_prepare_v2 (db, "SELECT DISTINCT p.pid, p.a_ts, p.b_ts, p.a_cpu, p.b_cpu"
                          " FROM explain_part AS x JOIN explain_pair AS p ON p.id = x.pair"
                          " WHERE x.kind = ?1 AND x.id = ?2 AND x.name = ?3"
                          " ORDER BY p.b_ts - p.a_ts DESC, p.a_ts", -1, &s, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_text (s, 1, cs_explain_kind_name (c->kind), -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 2, c->id);
  sqlite3_bind_text (s, 3, c->name, -1, SQLITE_TRANSIENT);
  items = g_array_new (FALSE, TRUE, sizeof (CsLatencyItem));
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      CsLatencyItem item = { 0 };

      item.pid = sqlite3_column_int (s, 0);
      item.a_ts_ns = sqlite3_column_int64 (s, 1);
      item.b_ts_ns = sqlite3_column_int64 (s, 2);
      item.a_cpu = sqlite3_column_int (s, 3);
      item.b_cpu = sqlite3_column_int (s, 4);
      item.dur_ns = item.b_ts_ns - item.a_ts_ns;
      /* The wakeup preset's key is the task. */
      item.n_keys = 1;
      item.key[0] = item.pid;
      g_array_append_val (items, item);
    }
  sqlite3_finalize (s);
  if (what != NULL)
    *what = cs_explain_contributor_describe (c);
  return items;
}

/**
 * _cs_latency_blockers_view_reset:
 * @self: a view
 * @gone: whether the recording's instance is gone (the view forgets it)
 *
 * Empties the list: the definition shown changed (Find is offered for
 * the wakeup preset only), or the recording closed.
 */
void
_cs_latency_blockers_view_reset (CsLatencyBlockersView *self,
                                 gboolean               gone)
{
  gboolean wakeup;

  if (gone)
    self->latency = NULL;
  remove_rows (self);
  wakeup = self->latency != NULL && g_strcmp0 (self->latency->param, "wakeup") == 0;
  gtk_widget_set_sensitive (self->find, wakeup);
  gtk_label_set_text (self->status, wakeup
                      ? _("Which tasks, interrupts and sections delayed the worst wakeups?")
                      : _("Top blockers are found for the wakeup preset."));
}

/**
 * _cs_latency_blockers_view_set_latency:
 * @self: a view
 * @latency: the recording's instance (borrowed; reset the view with
 *   @gone %TRUE when it goes)
 *
 * Gives the view its recording, and empties it as
 * _cs_latency_blockers_view_reset() does.
 */
void
_cs_latency_blockers_view_set_latency (CsLatencyBlockersView *self,
                                       CsLatency             *latency)
{
  self->latency = latency;
  _cs_latency_blockers_view_reset (self, FALSE);
}

static void
cs_latency_blockers_view_finalize (GObject *object)
{
  CsLatencyBlockersView *self = CS_LATENCY_BLOCKERS_VIEW (object);

  g_free (self->param);
  g_array_unref (self->rows);
  G_OBJECT_CLASS (cs_latency_blockers_view_parent_class)->finalize (object);
}

static void
cs_latency_blockers_view_class_init (CsLatencyBlockersViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = cs_latency_blockers_view_finalize;
  /**
   * CsLatencyBlockersView::selected:
   * @self: the view
   *
   * The user selected a contributor or unselected it:
   * _cs_latency_blockers_view_dup_pairs() says which pairs to list.
   */
  signals[SELECTED] = g_signal_new ("selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-blockers-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockersView, list);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockersView, status);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyBlockersView, find);
  gtk_widget_class_bind_template_callback (widget_class, find_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
cs_latency_blockers_view_init (CsLatencyBlockersView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  self->selected = -1;
}
