/* cs-latency-content.c: what the Latency page shows of one recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Choose a preset among those whose events the recording has, Run: the
 * pass runs in the background (the window shows its progress and
 * Cancel), then the content shows the figures (count, min, p50, p90, p99,
 * p99.9, max; exact ns in each value's tooltip), the histogram on a log
 * time axis (cs-latency-histogram.c; click a bar to list its pairs) and
 * the worst-first list, virtual (CsLatencyRows).  Activating a pair zooms
 * the timeline to it, puts markers A and B on its ends, selects A in the
 * event list and adds its task's plot.  The window's range (markers A..B,
 * else the span in view, where a dragged selection zooms) restricts
 * figures and list, unless "Whole recording" is ticked.  Its pairs' times
 * are shown on the window's axis, and activating one moves the timeline
 * there, in the recording's group (cs_plugin_window_to_axis_ns()): the
 * recording may be one the window added (the page's Recording drop-down,
 * cs-latency-page.c).
 *
 * "Custom pair…" opens a dialog (cs-latency-custom.c) whose pair joins the
 * drop-down after the presets, is run at once, and is remembered for the
 * recording with the definition shown last (cs-latency-saved.c): a
 * reopened recording offers its custom pairs and shows that definition
 * again.
 *
 * Beside the list, the explain view (cs-latency-explain-view.c) says why
 * the pair activated last was late: its verdict, breakdown and wakeup
 * chain; beside the histogram, Top blockers (cs-latency-blockers-view.c).
 * A classroom demo's preset (the window's show) opens with its worst pair
 * explained, the markers the demo placed left as they are.
 *
 * The layout is the template cs-latency-content.ui; the presets, the
 * list's model and its cells' factories are set here.  GTK 4.8 widgets
 * only.
 *
 * Widgets a test reaches have names: latency-content, latency-preset,
 * latency-run, latency-custom-button, latency-whole, latency-status,
 * latency-histogram, latency-list and latency-count, latency-min ...
 * latency-max for the figures' values.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-ui.h"

enum { COL_DURATION, COL_A_TIME, COL_CPU, COL_TASK, COL_PID, COL_KEY, N_COLS };
enum { FIG_COUNT, FIG_MIN, FIG_P50, FIG_P90, FIG_P99, FIG_P999, FIG_MAX, N_FIGS };

struct _CsLatencyContent
{
  GtkBox parent_instance;

  GtkDropDown *preset;
  GtkStringList *presets;       /* the drop-down's */
  GtkWidget *run;
  GtkLabel *status;
  GtkLabel *figures[N_FIGS];
  GtkDrawingArea *histogram;
  GtkColumnView *list;
  GtkColumnViewColumn *columns[N_COLS];
  GtkCheckButton *whole;
  CsLatencyExplainView *explain;
  CsLatencyBlockersView *blockers;
  CsLatency *latency;           /* borrowed; NULL once the recording is gone */
  CsPluginWindow *window;
  CsLatencyRows *rows;
  gboolean explain_worst;       /* explain the worst pair once shown */
  CsLatencyStats stats;
  gint64 begin_ns, end_ns;      /* the range shown */
  gint64 window_begin_ns, window_end_ns;   /* the window's, in the recording's clock */
};

G_DEFINE_FINAL_TYPE (CsLatencyContent, cs_latency_content, GTK_TYPE_BOX)

/* The template's ids of the figures' values and of the list's columns. */
static const char *const figure_ids[N_FIGS] = {
  "figure_count", "figure_min", "figure_p50", "figure_p90", "figure_p99", "figure_p999", "figure_max",
};
static const char *const column_ids[N_COLS] = {
  "column_duration", "column_a_time", "column_cpu", "column_task", "column_pid", "column_key",
};

/* Selects @param in the drop-down, appending it when it is not there. */
static void
select_param (CsLatencyContent *self,
              const char       *param)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->presets));
  guint i;

  for (i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->presets, i), param) == 0)
      break;
  if (i == n)
    gtk_string_list_append (self->presets, param);
  gtk_drop_down_set_selected (self->preset, i);
  gtk_widget_set_sensitive (self->run, TRUE);
}

/* Runs @param, as Run does for the drop-down's choice. */
static void
run_param (CsLatencyContent *self,
           const char       *param)
{
  g_autofree char *status = NULL;

  if (param == NULL || self->latency == NULL)
    return;
  status = g_strdup_printf (_("Measuring %s pairs…"), param);
  gtk_label_set_text (self->status, status);
  _cs_latency_run (self->latency, param);
}

/* Whether the recording has, for one pair of @param, both its events. */
static gboolean
preset_applies (CsPluginDocument *document,
                const char       *param)
{
  g_autoptr(CsLatencyDef) def = cs_latency_def_new (document, param, NULL);

  for (guint i = 0; def != NULL && i < def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (def->pairs, i);

      if (cs_plugin_document_count_events (document, pair->a_system, pair->a_event) > 0 &&
          cs_plugin_document_count_events (document, pair->b_system, pair->b_event) > 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether @param is a definition the recording can measure. */
static gboolean
def_holds (CsPluginDocument *document,
           const char       *param)
{
  g_autoptr(CsLatencyDef) def = cs_latency_def_new (document, param, NULL);

  return def != NULL;
}

static void
set_figure (GtkLabel *label,
            gint64    ns,
            gboolean  valid)
{
  g_autofree char *text = valid ? cs_latency_format_ns (ns) : g_strdup ("—");
  g_autofree char *exact = valid ? g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns) : NULL;

  gtk_label_set_text (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), exact);
}

/* The list for the selected bar, or all the range's pairs. */
static void
update_list (CsLatencyContent *self)
{
  sqlite3 *db = self->latency != NULL ? _cs_latency_get_db (self->latency) : NULL;
  int bar = _cs_latency_histogram_get_selected (self->histogram);
  const CsLatencyBucket *b = NULL;
  g_autofree char *status = NULL;

  if (bar >= 0 && self->stats.histogram != NULL)
    b = &g_array_index (self->stats.histogram, CsLatencyBucket, bar);
  cs_latency_rows_set_query (self->rows, db, self->begin_ns, self->end_ns,
                             b != NULL ? b->lo_ns : 0, b != NULL ? b->hi_ns : G_MAXINT64,
                             b != NULL ? b->count : self->stats.count);
  if (b != NULL && db != NULL)
    {
      g_autofree char *lo = cs_latency_format_ns (b->lo_ns);
      g_autofree char *hi = cs_latency_format_ns (b->hi_ns);

      status = g_strdup_printf (_("%s: %" PRIu64 " pairs from %s to %s (click the bar again for all)"),
                                _cs_latency_get_title (self->latency), b->count, lo, hi);
    }
  else if (db != NULL)
    status = g_strdup_printf (_("%s: %" PRIu64 " pairs, worst first"),
                              _cs_latency_get_title (self->latency), self->stats.count);
  if (status != NULL)
    gtk_label_set_text (self->status, status);
}

/* Figures, histogram and list for the shown definition and the range. */
static void
refresh (CsLatencyContent *self)
{
  sqlite3 *db = self->latency != NULL ? _cs_latency_get_db (self->latency) : NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  cs_latency_stats_clear (&self->stats);
  memset (&self->stats, 0, sizeof self->stats);
  if (db == NULL)
    return;
  ok = cs_latency_stats_compute (db, self->begin_ns, self->end_ns, &self->stats, &error);
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, self->stats.count);

    gtk_label_set_text (self->figures[FIG_COUNT], count);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->figures[FIG_COUNT]), NULL);
  }
  set_figure (self->figures[FIG_MIN], self->stats.min_ns, self->stats.count > 0);
  set_figure (self->figures[FIG_P50], self->stats.p50_ns, self->stats.count > 0);
  set_figure (self->figures[FIG_P90], self->stats.p90_ns, self->stats.count > 0);
  set_figure (self->figures[FIG_P99], self->stats.p99_ns, self->stats.count > 0);
  set_figure (self->figures[FIG_P999], self->stats.p999_ns, self->stats.count > 0);
  set_figure (self->figures[FIG_MAX], self->stats.max_ns, self->stats.count > 0);
  _cs_latency_histogram_set (self->histogram, self->stats.histogram);
  update_list (self);
  if (!ok)
    gtk_label_set_text (self->status, error->message);
}

/* Explains the list's first pair, the worst (the demo's latency). */
static void
explain_worst (CsLatencyContent *self)
{
  g_autoptr(CsLatencyRow) row = NULL;

  if (g_list_model_get_n_items (G_LIST_MODEL (self->rows)) == 0)
    return;
  row = g_list_model_get_item (G_LIST_MODEL (self->rows), 0);
  if (row != NULL)
    _cs_latency_explain_view_show (self->explain, cs_latency_row_get_item (row));
  self->explain_worst = FALSE;
}

/* A top blocker was selected (its pairs listed) or unselected (all). */
static void
blocker_selected_cb (CsLatencyContent *self)
{
  g_autofree char *what = NULL;
  g_autofree char *status = NULL;
  GArray *items = _cs_latency_blockers_view_dup_pairs (self->blockers, &what);

  if (items == NULL)
    {
      update_list (self);
      return;
    }
  status = g_strdup_printf (ngettext ("%u pair delayed by %s (activate it again for all)",
                                      "%u pairs delayed by %s (activate it again for all)", items->len),
                            items->len, what);
  cs_latency_rows_set_items (self->rows, items);
  gtk_label_set_text (self->status, status);
}

static void
blockers_ready_cb (gpointer data)
{
  CsLatencyContent *self = data;

  _cs_latency_blockers_view_ready (self->blockers);
}

static void
ready_cb (gpointer data)
{
  CsLatencyContent *self = data;

  _cs_latency_explain_view_clear (self->explain, FALSE);
  _cs_latency_blockers_view_reset (self->blockers, FALSE);
  refresh (self);
  if (self->explain_worst)
    explain_worst (self);
}

static void
gone_cb (gpointer data)
{
  CsLatencyContent *self = data;

  self->latency = NULL;
  _cs_latency_explain_view_clear (self->explain, TRUE);
  _cs_latency_blockers_view_reset (self->blockers, TRUE);
  cs_latency_rows_set_query (self->rows, NULL, G_MININT64, G_MAXINT64, 0, G_MAXINT64, 0);
}

static void
bar_selected_cb (gpointer data)
{
  update_list (data);
}

static void
run_clicked_cb (CsLatencyContent *self)
{
  const char *preset = gtk_string_list_get_string (self->presets,
                                                   gtk_drop_down_get_selected (self->preset));

  /* The user's run: a demo's explanation still due (its pass failed) is
   * not. */
  self->explain_worst = FALSE;
  run_param (self, preset);
}

static void
custom_done_cb (const char *param,
                gpointer    data)
{
  CsLatencyContent *self = data;

  if (self->latency == NULL)
    return;
  _cs_latency_saved_add_custom (self->latency->document, param);
  select_param (self, param);
  self->explain_worst = FALSE;
  run_param (self, param);
}

static void
custom_clicked_cb (CsLatencyContent *self)
{
  const char *current;

  if (self->latency == NULL)
    return;
  current = self->latency->param != NULL ? self->latency->param : self->latency->requested;
  _cs_latency_custom_dialog_show (self->latency, cs_plugin_window_get_toplevel (self->window),
                                  current, custom_done_cb, self);
}

static void
activate_cb (CsLatencyContent *self,
             guint             position)
{
  g_autoptr(CsLatencyRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  const CsLatencyItem *item;
  gint64 a_ns, b_ns;

  if (row == NULL || self->latency == NULL)
    return;
  item = cs_latency_row_get_item (row);
  a_ns = cs_plugin_window_to_axis_ns (self->window, self->latency->document, item->a_cpu,
                                      item->a_ts_ns);
  b_ns = cs_plugin_window_to_axis_ns (self->window, self->latency->document, item->b_cpu,
                                      item->b_ts_ns);
  cs_plugin_window_show_span (self->window, a_ns, b_ns);
  cs_plugin_window_set_markers (self->window, a_ns, b_ns);
  /* Task plots and the event list are the window's own recording's. */
  if (self->latency->document == cs_plugin_window_get_document (self->window))
    {
      cs_plugin_window_add_task_plot (self->window, item->pid);
      cs_plugin_window_select_event (self->window, item->a_cpu, item->a_ts_ns);
    }
  _cs_latency_explain_view_show (self->explain, item);
}

/* What a column's factory is for: the content and the column (COL_*),
 * given to its setup and bind so that a cell finds neither by a search. */
typedef struct {
  CsLatencyContent *self;
  int col;
} Cell;

static void
cell_setup_cb (GtkListItemFactory *factory,
               GtkListItem        *list_item,
               const Cell         *cell)
{
  GtkWidget *label = gtk_label_new (NULL);
  int col = cell->col;

  gtk_label_set_xalign (GTK_LABEL (label), col == COL_TASK || col == COL_KEY ? 0.0 : 1.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
cell_bind_cb (GtkListItemFactory *factory,
              GtkListItem        *list_item,
              const Cell         *cell)
{
  CsLatencyContent *self = cell->self;
  CsLatencyRow *row = gtk_list_item_get_item (list_item);
  const CsLatencyItem *item = cs_latency_row_get_item (row);
  GPtrArray *pairs = self->latency != NULL ? self->latency->pairs : NULL;
  g_autofree char *text = NULL;

  if (self->latency == NULL)
    return;

  switch (cell->col)
    {
    case COL_DURATION:
      text = cs_latency_format_ns (item->dur_ns);
      break;
    case COL_A_TIME:
      {
        /* On the window's axis, where the timeline shows it. */
        gint64 a_ns = cs_plugin_window_to_axis_ns (self->window, self->latency->document,
                                                   item->a_cpu, item->a_ts_ns);

        text = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                                a_ns / 1000000000, a_ns % 1000000000);
      }
      break;
    case COL_CPU:
      text = g_strdup_printf ("%u", item->a_cpu);
      break;
    case COL_TASK:
      text = g_strdup (cs_plugin_document_get_comm (self->latency->document, item->pid));
      break;
    case COL_PID:
      text = g_strdup_printf ("%d", item->pid);
      break;
    default:
      if (pairs != NULL && pairs->len > 0)
        text = cs_latency_describe_key (g_ptr_array_index (pairs, MIN (item->pair, pairs->len - 1)), item);
      break;
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text != NULL ? text : "");
}

/* GTK 4.8's column view makes every row a tab stop (GtkListView's
 * tab-behavior came in 4.12), so Tab would walk all the pairs before it
 * reached the explanation beside them.  Tab and Shift+Tab leave the list
 * instead: for one move the list refuses focus, and the window moves it to
 * the widget after (or before) the list in its focus order.  Arrows still
 * move between rows. */
static gboolean
list_key_cb (GtkEventControllerKey *key,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             CsLatencyContent      *self)
{
  GtkWidget *list = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (key));
  GtkDirectionType direction;
  gboolean moved;

  if (keyval != GDK_KEY_Tab && keyval != GDK_KEY_KP_Tab && keyval != GDK_KEY_ISO_Left_Tab)
    return FALSE;
  direction = keyval == GDK_KEY_ISO_Left_Tab || (state & GDK_SHIFT_MASK) != 0
              ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  gtk_widget_set_can_focus (list, FALSE);
  moved = gtk_widget_child_focus (GTK_WIDGET (gtk_widget_get_root (list)), direction);
  gtk_widget_set_can_focus (list, TRUE);
  return moved;
}

/* Shows the window's range, or the whole recording when "Whole
 * recording" is ticked. */
static void
apply_range (CsLatencyContent *self)
{
  gint64 begin_ns = self->window_begin_ns, end_ns = self->window_end_ns;

  if (self->latency == NULL)
    return;
  /* The whole recording reads the worst-first order, and keeps pairs
   * ending on the last event. */
  if (gtk_check_button_get_active (self->whole) ||
      (begin_ns <= cs_plugin_document_get_first_ns (self->latency->document) &&
       end_ns > cs_plugin_document_get_last_ns (self->latency->document)))
    {
      begin_ns = G_MININT64;
      end_ns = G_MAXINT64;
    }
  if (self->begin_ns == begin_ns && self->end_ns == end_ns)
    return;
  self->begin_ns = begin_ns;
  self->end_ns = end_ns;
  refresh (self);
}

static void
whole_toggled_cb (CsLatencyContent *self)
{
  apply_range (self);
}

static void
cs_latency_content_dispose (GObject *object)
{
  CsLatencyContent *self = CS_LATENCY_CONTENT (object);

  if (self->latency != NULL)
    {
      _cs_latency_remove_listener (self->latency, self);
      /* Nothing explains the highlight any more: the layer stops drawing it. */
      g_clear_pointer (&self->latency->explained, _cs_latency_explained_free);
      self->latency = NULL;
    }
  G_OBJECT_CLASS (cs_latency_content_parent_class)->dispose (object);
}

static void
cs_latency_content_finalize (GObject *object)
{
  CsLatencyContent *self = CS_LATENCY_CONTENT (object);

  cs_latency_stats_clear (&self->stats);
  g_object_unref (self->rows);
  G_OBJECT_CLASS (cs_latency_content_parent_class)->finalize (object);
}

static void
cs_latency_content_class_init (CsLatencyContentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_latency_content_dispose;
  object_class->finalize = cs_latency_content_finalize;
  /* The template's own types: GtkBuilder cannot look their get_type()
   * up in a module loaded with local symbols. */
  g_type_ensure (CS_LATENCY_TYPE_BLOCKERS_VIEW);
  g_type_ensure (CS_LATENCY_TYPE_EXPLAIN_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-content.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, preset);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, presets);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, run);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, status);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, histogram);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, list);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, whole);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, explain);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyContent, blockers);
  for (guint i = 0; i < N_FIGS; i++)
    gtk_widget_class_bind_template_child_full (widget_class, figure_ids[i], FALSE,
                                               G_STRUCT_OFFSET (CsLatencyContent, figures)
                                               + i * (gssize) sizeof (GtkLabel *));
  for (guint i = 0; i < N_COLS; i++)
    gtk_widget_class_bind_template_child_full (widget_class, column_ids[i], FALSE,
                                               G_STRUCT_OFFSET (CsLatencyContent, columns)
                                               + i * (gssize) sizeof (GtkColumnViewColumn *));
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, custom_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, whole_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, blocker_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_key_cb);
}

static void
cs_latency_content_init (CsLatencyContent *self)
{
  GtkNoSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->begin_ns = self->window_begin_ns = G_MININT64;
  self->end_ns = self->window_end_ns = G_MAXINT64;
  self->rows = cs_latency_rows_new ();
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_column_view_set_model (self->list, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  for (int i = 0; i < N_COLS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      Cell *cell = g_new (Cell, 1);

      *cell = (Cell) { self, i };
      /* The factory lives as long as its column, inside the content. */
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), cell);
      g_signal_connect_data (factory, "bind", G_CALLBACK (cell_bind_cb), cell,
                             (GClosureNotify) (void (*) (void)) g_free, 0);
      gtk_column_view_column_set_factory (self->columns[i], factory);
      g_object_unref (factory);
    }
  _cs_latency_histogram_init (self->histogram, bar_selected_cb, self);
}

/**
 * _cs_latency_content_new:
 * @latency: the recording's instance (borrowed; the content forgets it
 *   when it goes)
 * @window: the window the page is in
 *
 * Returns: (transfer floating): the page's content for @latency's
 *   recording, on the definition it shows (or the one shown last when the
 *   recording was open before)
 */
GtkWidget *
_cs_latency_content_new (CsLatency      *latency,
                         CsPluginWindow *window)
{
  CsLatencyContent *self = g_object_new (CS_LATENCY_TYPE_CONTENT, NULL);
  const char *const *names = cs_latency_preset_names ();
  g_auto(GStrv) customs = _cs_latency_saved_get_custom (latency->document);
  g_autofree char *shown = NULL;
  gboolean any;

  self->latency = latency;
  self->window = window;
  for (guint i = 0; names[i] != NULL; i++)
    if (preset_applies (latency->document, names[i]))
      gtk_string_list_append (self->presets, names[i]);
  /* The pairs defined before, those that still hold for the recording. */
  for (guint i = 0; customs[i] != NULL; i++)
    {
      if (def_holds (latency->document, customs[i]))
        gtk_string_list_append (self->presets, customs[i]);
    }
  any = g_list_model_get_n_items (G_LIST_MODEL (self->presets)) > 0;
  gtk_widget_set_sensitive (self->run, any);
  gtk_label_set_text (self->status, any ? _("Choose what to measure, then Run.")
                                        : _("This recording has the events of no latency preset."));
  _cs_latency_blockers_view_set_latency (self->blockers, latency);
  _cs_latency_explain_view_set_latency (self->explain, latency, window);

  _cs_latency_add_listener (latency, ready_cb, gone_cb, self);
  _cs_latency_set_blockers_listener (latency, self, blockers_ready_cb);
  if (latency->param != NULL)
    {
      select_param (self, latency->param);
      refresh (self);
    }
  else if (latency->requested == NULL &&
           (shown = _cs_latency_saved_get_shown (latency->document)) != NULL &&
           def_holds (latency->document, shown))
    {
      /* The recording reopens on the definition shown last: its results
       * are in the index cache, found at once. */
      select_param (self, shown);
      run_param (self, shown);
    }
  return GTK_WIDGET (self);
}

/**
 * _cs_latency_content_set_window_range:
 * @self: a content
 * @begin_ns: the window's range (markers A..B, else the span in view),
 *   on the window's axis
 * @end_ns: its end
 *
 * Restricts figures and list to the pairs in the window's range (in the
 * recording's own clock), unless "Whole recording" is ticked.
 */
void
_cs_latency_content_set_window_range (CsLatencyContent *self,
                                      gint64            begin_ns,
                                      gint64            end_ns)
{
  CsPluginDocument *document;

  if (self->latency == NULL)
    return;
  document = self->latency->document;
  self->window_begin_ns = begin_ns;
  self->window_end_ns = end_ns;
  if (document != cs_plugin_window_get_document (self->window))
    {
      self->window_begin_ns = cs_plugin_window_from_axis_ns (self->window, document, 0, begin_ns);
      self->window_end_ns = cs_plugin_window_from_axis_ns (self->window, document, 0, end_ns);
    }
  apply_range (self);
}

/**
 * _cs_latency_content_show:
 * @self: a content
 * @param: a definition (a classroom demo's preset)
 *
 * Selects and runs @param, when the recording can measure it, and
 * explains its worst pair once shown.
 */
void
_cs_latency_content_show (CsLatencyContent *self,
                          const char       *param)
{
  if (self->latency == NULL || !def_holds (self->latency->document, param))
    return;
  select_param (self, param);
  self->explain_worst = TRUE;
  run_param (self, param);
}
