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
 * Widgets a test reaches have names: latency-blockers (the list),
 * latency-blockers-find, latency-blockers-status.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-latency-ui.h"
#include "explain/cs-explain-pass.h"

#define TOP_BLOCKERS 20
#define BLOCKERS_PERCENTILE 99

typedef struct {
  CsLatency *latency;           /* borrowed; NULL once gone */
  GtkListBox *list;
  GtkLabel *status;
  GtkWidget *find;
  char *param;                  /* the pass's parameter asked for */
  GArray *rows;                 /* CsExplainContributor, as listed */
  int selected;                 /* the row whose pairs are listed, -1 */
  CsLatencyReadyFunc selected_cb;
  gpointer data;
} Blockers;

static Blockers *
get_blockers (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), "cs-latency-blockers-view");
}

static void
blockers_free (gpointer data)
{
  Blockers *self = data;

  g_free (self->param);
  g_array_unref (self->rows);
  g_free (self);
}

static sqlite3 *
get_db (Blockers *self)
{
  if (self->latency == NULL || self->param == NULL ||
      g_strcmp0 (self->latency->blockers_param, self->param) != 0)
    return NULL;
  return cs_plugin_document_get_pass_db (self->latency->document, self->latency->plugin,
                                         CS_EXPLAIN_BLOCKERS_PASS, self->param, NULL);
}

static void
remove_rows (Blockers *self)
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

static GtkWidget *
new_row (const CsExplainContributor *c,
         guint                       index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  g_autofree char *what = cs_explain_contributor_describe (c);
  g_autofree char *total = cs_latency_format_ns (c->ns);
  g_autofree char *pairs = g_strdup_printf (ngettext ("%" PRIu64 " pair",
                                                      "%" PRIu64 " pairs", c->n_pairs),
                                            c->n_pairs);
  GtkWidget *name = gtk_label_new (what);
  GtkWidget *time = gtk_label_new (total);

  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), time);
  gtk_box_append (GTK_BOX (box), gtk_label_new (pairs));
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, _("List the pairs it delayed (again: all the pairs)"));
  g_object_set_data (G_OBJECT (row), "cs-index", GUINT_TO_POINTER (index));
  return row;
}

/**
 * _cs_latency_blockers_view_ready:
 * @widget: a view from _cs_latency_blockers_view_new()
 *
 * The pass `blockers` is ready (CsLatency.blockers_param): lists its top
 * contributors when it is the one this view asked for.
 */
void
_cs_latency_blockers_view_ready (GtkWidget *widget)
{
  Blockers *self = get_blockers (widget);
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
      gtk_list_box_append (self->list, new_row (&c, self->rows->len - 1));
    }
  sqlite3_finalize (s);
  cs_explain_blockers_parse (self->param, &threshold_ns);
  threshold = cs_latency_format_ns (threshold_ns);
  status = g_strdup_printf (_("What delayed the wakeups of %s or more (p%d)"), threshold,
                            BLOCKERS_PERCENTILE);
  gtk_label_set_text (self->status, status);
}

static void
find_clicked_cb (GtkButton *button,
                 gpointer   user_data)
{
  Blockers *self = user_data;
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
row_activated_cb (GtkListBox    *list,
                  GtkListBoxRow *row,
                  gpointer       user_data)
{
  Blockers *self = user_data;
  int index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "cs-index"));

  if (self->selected == index)
    {
      self->selected = -1;
      gtk_list_box_unselect_all (list);
    }
  else
    self->selected = index;
  self->selected_cb (self->data);
}

/**
 * _cs_latency_blockers_view_dup_pairs:
 * @widget: a view
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
_cs_latency_blockers_view_dup_pairs (GtkWidget  *widget,
                                     char      **what)
{
  Blockers *self = get_blockers (widget);
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
 * @widget: a view
 * @gone: whether the recording's instance is gone (the view forgets it)
 *
 * Empties the list: the definition shown changed (Find is offered for
 * the wakeup preset only), or the recording closed.
 */
void
_cs_latency_blockers_view_reset (GtkWidget *widget,
                                 gboolean   gone)
{
  Blockers *self = get_blockers (widget);
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
 * _cs_latency_blockers_view_new:
 * @latency: the recording's instance (borrowed; reset the view with
 *   @gone %TRUE when it goes)
 * @selected: called when the user selects a contributor or unselects it
 *   (_cs_latency_blockers_view_dup_pairs() then says which pairs to list)
 * @data: for @selected
 *
 * Returns: (transfer floating): the view, empty
 */
GtkWidget *
_cs_latency_blockers_view_new (CsLatency          *latency,
                               CsLatencyReadyFunc  selected,
                               gpointer            data)
{
  Blockers *self = g_new0 (Blockers, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Top blockers"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->latency = latency;
  self->rows = g_array_new (FALSE, FALSE, sizeof (CsExplainContributor));
  self->selected = -1;
  self->selected_cb = selected;
  self->data = data;
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (head), title);
  self->find = gtk_button_new_with_label (_("Find"));
  gtk_widget_set_name (self->find, "latency-blockers-find");
  gtk_widget_set_tooltip_text (self->find, _("Rank what delayed the wakeups at or above the 99th percentile"));
  g_signal_connect (self->find, "clicked", G_CALLBACK (find_clicked_cb), self);
  gtk_box_append (GTK_BOX (head), self->find);
  gtk_box_append (GTK_BOX (box), head);
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->status), "latency-blockers-status");
  gtk_label_set_xalign (self->status, 0.0);
  gtk_label_set_wrap (self->status, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_set_name (GTK_WIDGET (self->list), "latency-blockers");
  gtk_list_box_set_activate_on_single_click (self->list, TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  title, NULL, -1);
  g_signal_connect (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* As high as the histogram beside it, not more: the row must not grow. */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 84);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_widget_set_size_request (box, 440, -1);
  g_object_set_data_full (G_OBJECT (box), "cs-latency-blockers-view", self, blockers_free);
  _cs_latency_blockers_view_reset (box, FALSE);
  return box;
}
