/* cs-latency-page.c: the latency page of the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Choose a preset among those whose events the recording has, Run: the
 * pass runs in the background (the window shows its progress and
 * Cancel), then the page shows the figures (count, min, p50, p90, p99,
 * p99.9, max; exact ns in each value's tooltip), the histogram on a log
 * time axis (cs-latency-histogram.c; click a bar to list its pairs) and
 * the worst-first list, virtual (CsLatencyRows).  Activating a pair zooms
 * the timeline to it, puts markers A and B on its ends, selects A in the
 * event list and adds its task's plot.  The window's range (markers A..B,
 * else the span in view, where a dragged selection zooms) restricts
 * figures and list, unless "Whole recording" is ticked.  GTK 4.8 widgets
 * only.
 *
 * "Custom pair…" opens a dialog (cs-latency-custom.c) whose pair joins the
 * drop-down after the presets, is run at once, and is remembered for the
 * recording with the definition shown last (cs-latency-saved.c): a
 * reopened recording offers its custom pairs and shows that definition
 * again.
 *
 * Beside the list, the explain view (cs-latency-explain-view.c) says why
 * the pair activated last was late: its verdict, breakdown and wakeup
 * chain.  A classroom demo's preset (the window's show) opens with its
 * worst pair explained, the markers the demo placed left as they are.
 *
 * With several recordings in the window (plugin API 1.2), a "Recording"
 * drop-down above picks the one the page analyses (the window's own
 * first): the page is built anew on that recording's instance, its pairs'
 * times are shown on the window's axis and activating one moves the
 * timeline there, in that recording's group (cs_plugin_window_to_axis_ns());
 * the window's range reaches it in its own clock.
 *
 * Widgets a test reaches have names: latency-page (the tab's), latency-recording,
 * latency-content (what is built per recording), latency-preset, latency-run,
 * latency-custom-button, latency-whole, latency-status, latency-histogram, latency-list and latency-count,
 * latency-min ... latency-max for the figures' values.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-ui.h"

enum { COL_DURATION, COL_A_TIME, COL_CPU, COL_TASK, COL_PID, COL_KEY, N_COLS };

typedef struct {
  CsLatency *latency;
  CsPluginWindow *window;
  GtkDropDown *preset;
  GtkStringList *presets;
  GtkWidget *run;
  GtkLabel *status;
  GtkLabel *figures[7];
  GtkDrawingArea *histogram;
  GtkColumnView *list;
  CsLatencyRows *rows;
  GtkCheckButton *whole;
  CsLatencyExplainView *explain;
  CsLatencyBlockersView *blockers;
  gboolean explain_worst;       /* explain the worst pair once shown */
  CsLatencyStats stats;
  gint64 begin_ns, end_ns;      /* the range shown */
  gint64 window_begin_ns, window_end_ns;   /* the window's */
} Page;

static const char *const figure_names[] = { "count", "min", "p50", "p90", "p99", "p99.9", "max" };

static Page *
get_page (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), "cs-latency-page");
}

/* Selects @param in the drop-down, appending it when it is not there. */
static void
select_param (Page       *page,
              const char *param)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (page->presets));
  guint i;

  for (i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (page->presets, i), param) == 0)
      break;
  if (i == n)
    gtk_string_list_append (page->presets, param);
  gtk_drop_down_set_selected (page->preset, i);
  gtk_widget_set_sensitive (page->run, TRUE);
}

/* Runs @param, as Run does for the drop-down's choice. */
static void
run_param (Page       *page,
           const char *param)
{
  g_autofree char *status = NULL;

  if (param == NULL || page->latency == NULL)
    return;
  status = g_strdup_printf (_("Measuring %s pairs…"), param);
  gtk_label_set_text (page->status, status);
  _cs_latency_run (page->latency, param);
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
update_list (Page *page)
{
  sqlite3 *db = page->latency != NULL ? _cs_latency_get_db (page->latency) : NULL;
  int bar = _cs_latency_histogram_get_selected (page->histogram);
  const CsLatencyBucket *b = NULL;
  g_autofree char *status = NULL;

  if (bar >= 0 && page->stats.histogram != NULL)
    b = &g_array_index (page->stats.histogram, CsLatencyBucket, bar);
  cs_latency_rows_set_query (page->rows, db, page->begin_ns, page->end_ns,
                             b != NULL ? b->lo_ns : 0, b != NULL ? b->hi_ns : G_MAXINT64,
                             b != NULL ? b->count : page->stats.count);
  if (b != NULL && db != NULL)
    {
      g_autofree char *lo = cs_latency_format_ns (b->lo_ns);
      g_autofree char *hi = cs_latency_format_ns (b->hi_ns);

      status = g_strdup_printf (_("%s: %" PRIu64 " pairs from %s to %s (click the bar again for all)"),
                                _cs_latency_get_title (page->latency), b->count, lo, hi);
    }
  else if (db != NULL)
    status = g_strdup_printf (_("%s: %" PRIu64 " pairs, worst first"),
                              _cs_latency_get_title (page->latency), page->stats.count);
  if (status != NULL)
    gtk_label_set_text (page->status, status);
}

/* Figures, histogram and list for the shown definition and the range. */
static void
refresh (Page *page)
{
  sqlite3 *db = page->latency != NULL ? _cs_latency_get_db (page->latency) : NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  cs_latency_stats_clear (&page->stats);
  memset (&page->stats, 0, sizeof page->stats);
  if (db == NULL)
    return;
  ok = cs_latency_stats_compute (db, page->begin_ns, page->end_ns, &page->stats, &error);
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, page->stats.count);

    gtk_label_set_text (page->figures[0], count);
    gtk_widget_set_tooltip_text (GTK_WIDGET (page->figures[0]), NULL);
  }
  set_figure (page->figures[1], page->stats.min_ns, page->stats.count > 0);
  set_figure (page->figures[2], page->stats.p50_ns, page->stats.count > 0);
  set_figure (page->figures[3], page->stats.p90_ns, page->stats.count > 0);
  set_figure (page->figures[4], page->stats.p99_ns, page->stats.count > 0);
  set_figure (page->figures[5], page->stats.p999_ns, page->stats.count > 0);
  set_figure (page->figures[6], page->stats.max_ns, page->stats.count > 0);
  _cs_latency_histogram_set (page->histogram, page->stats.histogram);
  update_list (page);
  if (!ok)
    gtk_label_set_text (page->status, error->message);
}

/* Explains the list's first pair, the worst (the demo's latency). */
static void
explain_worst (Page *page)
{
  g_autoptr(CsLatencyRow) row = NULL;

  if (g_list_model_get_n_items (G_LIST_MODEL (page->rows)) == 0)
    return;
  row = g_list_model_get_item (G_LIST_MODEL (page->rows), 0);
  if (row != NULL)
    _cs_latency_explain_view_show (page->explain, cs_latency_row_get_item (row));
  page->explain_worst = FALSE;
}

/* A top blocker was selected (its pairs listed) or unselected (all). */
static void
blocker_selected_cb (CsLatencyBlockersView *blockers,
                     gpointer               data)
{
  Page *page = data;
  g_autofree char *what = NULL;
  g_autofree char *status = NULL;
  GArray *items = _cs_latency_blockers_view_dup_pairs (page->blockers, &what);

  if (items == NULL)
    {
      update_list (page);
      return;
    }
  status = g_strdup_printf (ngettext ("%u pair delayed by %s (activate it again for all)",
                                      "%u pairs delayed by %s (activate it again for all)", items->len),
                            items->len, what);
  cs_latency_rows_set_items (page->rows, items);
  gtk_label_set_text (page->status, status);
}

static void
blockers_ready_cb (gpointer data)
{
  Page *page = data;

  _cs_latency_blockers_view_ready (page->blockers);
}

static void
ready_cb (gpointer data)
{
  Page *page = data;

  _cs_latency_explain_view_clear (page->explain, FALSE);
  _cs_latency_blockers_view_reset (page->blockers, FALSE);
  refresh (page);
  if (page->explain_worst)
    explain_worst (page);
}

static void
gone_cb (gpointer data)
{
  Page *page = data;

  page->latency = NULL;
  _cs_latency_explain_view_clear (page->explain, TRUE);
  _cs_latency_blockers_view_reset (page->blockers, TRUE);
  cs_latency_rows_set_query (page->rows, NULL, G_MININT64, G_MAXINT64, 0, G_MAXINT64, 0);
}

static void
bar_selected_cb (gpointer data)
{
  update_list (data);
}

static void
run_clicked_cb (GtkButton *button,
                gpointer   user_data)
{
  Page *page = user_data;
  const char *preset = gtk_string_list_get_string (page->presets,
                                                   gtk_drop_down_get_selected (page->preset));

  /* The user's run: a demo's explanation still due (its pass failed) is
   * not. */
  page->explain_worst = FALSE;
  run_param (page, preset);
}

static void
custom_done_cb (const char *param,
                gpointer    data)
{
  Page *page = data;

  if (page->latency == NULL)
    return;
  _cs_latency_saved_add_custom (page->latency->document, param);
  select_param (page, param);
  page->explain_worst = FALSE;
  run_param (page, param);
}

static void
custom_clicked_cb (GtkButton *button,
                   gpointer   user_data)
{
  Page *page = user_data;
  const char *current;

  if (page->latency == NULL)
    return;
  current = page->latency->param != NULL ? page->latency->param : page->latency->requested;
  _cs_latency_custom_dialog_show (page->latency, cs_plugin_window_get_toplevel (page->window),
                                  current, custom_done_cb, page);
}

static void
activate_cb (GtkColumnView *view,
             guint          position,
             gpointer       user_data)
{
  Page *page = user_data;
  g_autoptr(CsLatencyRow) row = g_list_model_get_item (G_LIST_MODEL (page->rows), position);
  const CsLatencyItem *item;
  gint64 a_ns, b_ns;

  if (row == NULL || page->latency == NULL)
    return;
  item = cs_latency_row_get_item (row);
  a_ns = cs_plugin_window_to_axis_ns (page->window, page->latency->document, item->a_cpu,
                                      item->a_ts_ns);
  b_ns = cs_plugin_window_to_axis_ns (page->window, page->latency->document, item->b_cpu,
                                      item->b_ts_ns);
  cs_plugin_window_show_span (page->window, a_ns, b_ns);
  cs_plugin_window_set_markers (page->window, a_ns, b_ns);
  /* Task plots and the event list are the window's own recording's. */
  if (page->latency->document == cs_plugin_window_get_document (page->window))
    {
      cs_plugin_window_add_task_plot (page->window, item->pid);
      cs_plugin_window_select_event (page->window, item->a_cpu, item->a_ts_ns);
    }
  _cs_latency_explain_view_show (page->explain, item);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int col = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), col == COL_TASK || col == COL_KEY ? 0.0 : 1.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  Page *page = g_object_get_data (G_OBJECT (factory), "cs-latency-page");
  CsLatencyRow *row = gtk_list_item_get_item (list_item);
  const CsLatencyItem *item = cs_latency_row_get_item (row);
  GPtrArray *pairs = page->latency != NULL ? page->latency->pairs : NULL;
  g_autofree char *text = NULL;

  if (page->latency == NULL)
    return;

  switch (GPOINTER_TO_INT (user_data))
    {
    case COL_DURATION:
      text = cs_latency_format_ns (item->dur_ns);
      break;
    case COL_A_TIME:
      {
        /* On the window's axis, where the timeline shows it. */
        gint64 a_ns = cs_plugin_window_to_axis_ns (page->window, page->latency->document,
                                                   item->a_cpu, item->a_ts_ns);

        text = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                                a_ns / 1000000000, a_ns % 1000000000);
      }
      break;
    case COL_CPU:
      text = g_strdup_printf ("%u", item->a_cpu);
      break;
    case COL_TASK:
      text = g_strdup (cs_plugin_document_get_comm (page->latency->document, item->pid));
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
             gpointer               user_data)
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

static GtkWidget *
new_list (Page *page)
{
  static const char *const titles[N_COLS] = {
    N_("Duration"), N_("A's time (s)"), N_("CPU"), N_("Task"), N_("PID"), N_("Key"),
  };
  GtkNoSelection *selection;
  GtkEventController *key;
  GtkWidget *view;

  page->rows = cs_latency_rows_new ();
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (page->rows)));
  view = gtk_column_view_new (GTK_SELECTION_MODEL (selection));
  for (int i = 0; i < N_COLS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "cs-latency-page", page);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(titles[i]), factory);
      gtk_column_view_column_set_expand (column, i == COL_KEY);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  gtk_column_view_set_single_click_activate (GTK_COLUMN_VIEW (view), TRUE);
  gtk_widget_set_name (view, "latency-list");
  g_signal_connect (view, "activate", G_CALLBACK (activate_cb), page);
  key = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (key, "latency-list-tab");
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (list_key_cb), NULL);
  gtk_widget_add_controller (view, key);
  return view;
}

static GtkWidget *
new_figures (Page *page)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint i = 0; i < G_N_ELEMENTS (figure_names); i++)
    {
      GtkWidget *name = gtk_label_new (figure_names[i]);
      GtkWidget *value = gtk_label_new ("—");
      g_autofree char *id = g_strdup_printf ("latency-%s", figure_names[i]);

      gtk_label_set_xalign (GTK_LABEL (name), 0.0);
      gtk_label_set_xalign (GTK_LABEL (value), 1.0);
      gtk_widget_set_name (value, id);
      gtk_grid_attach (GTK_GRID (grid), name, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, i, 1, 1);
      page->figures[i] = GTK_LABEL (value);
    }
  return grid;
}

/* Shows the window's range, or the whole recording when "Whole
 * recording" is ticked. */
static void
apply_range (Page *page)
{
  gint64 begin_ns = page->window_begin_ns, end_ns = page->window_end_ns;

  if (page->latency == NULL)
    return;
  /* The whole recording reads the worst-first order, and keeps pairs
   * ending on the last event. */
  if (gtk_check_button_get_active (page->whole) ||
      (begin_ns <= cs_plugin_document_get_first_ns (page->latency->document) &&
       end_ns > cs_plugin_document_get_last_ns (page->latency->document)))
    {
      begin_ns = G_MININT64;
      end_ns = G_MAXINT64;
    }
  if (page->begin_ns == begin_ns && page->end_ns == end_ns)
    return;
  page->begin_ns = begin_ns;
  page->end_ns = end_ns;
  refresh (page);
}

static void
whole_toggled_cb (GtkCheckButton *button,
                  gpointer        user_data)
{
  apply_range (user_data);
}

static void
page_free (gpointer data)
{
  Page *page = data;

  if (page->latency != NULL)
    {
      _cs_latency_remove_listener (page->latency, page);
      /* Nothing explains the highlight any more: the layer stops drawing it. */
      g_clear_pointer (&page->latency->explained, _cs_latency_explained_free);
    }
  cs_latency_stats_clear (&page->stats);
  g_object_unref (page->rows);
  g_free (page);
}

/* The page's content for @latency's recording. */
static GtkWidget *
build_page (CsLatency      *latency,
            CsPluginWindow *window)
{
  Page *page = g_new0 (Page, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *middle = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *run = gtk_button_new_with_label (_("Run"));
  GtkWidget *custom = gtk_button_new_with_label (_("Custom pair…"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *grid = gtk_grid_new ();
  const char *const *names = cs_latency_preset_names ();
  g_auto(GStrv) customs = _cs_latency_saved_get_custom (latency->document);
  g_autofree char *shown = NULL;

  page->latency = latency;
  page->window = window;
  page->begin_ns = page->window_begin_ns = G_MININT64;
  page->end_ns = page->window_end_ns = G_MAXINT64;
  page->presets = gtk_string_list_new (NULL);
  for (guint i = 0; names[i] != NULL; i++)
    if (preset_applies (latency->document, names[i]))
      gtk_string_list_append (page->presets, names[i]);
  /* The pairs defined before, those that still hold for the recording. */
  for (guint i = 0; customs[i] != NULL; i++)
    {
      if (def_holds (latency->document, customs[i]))
        gtk_string_list_append (page->presets, customs[i]);
    }

  gtk_widget_set_name (box, "latency-content");
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (bar), gtk_label_new (_("Pairs")));
  /* The drop-down takes the list (transfer full); the page borrows it. */
  page->preset = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (page->presets), NULL));
  gtk_widget_set_name (GTK_WIDGET (page->preset), "latency-preset");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (page->preset));
  gtk_widget_set_name (run, "latency-run");
  gtk_widget_set_sensitive (run, g_list_model_get_n_items (G_LIST_MODEL (page->presets)) > 0);
  gtk_box_append (GTK_BOX (bar), run);
  page->run = run;
  gtk_widget_set_name (custom, "latency-custom-button");
  gtk_widget_set_tooltip_text (custom, _("Measure from an event A to an event B of your choice"));
  gtk_box_append (GTK_BOX (bar), custom);
  page->whole = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (_("Whole recording")));
  gtk_widget_set_name (GTK_WIDGET (page->whole), "latency-whole");
  gtk_widget_set_tooltip_text (GTK_WIDGET (page->whole),
                               _("All the pairs, not only those between markers A and B or in view"));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (page->whole));
  page->status = GTK_LABEL (gtk_label_new (
      g_list_model_get_n_items (G_LIST_MODEL (page->presets)) > 0
      ? _("Choose what to measure, then Run.")
      : _("This recording has the events of no latency preset.")));
  gtk_widget_set_name (GTK_WIDGET (page->status), "latency-status");
  gtk_label_set_xalign (page->status, 0.0);
  gtk_label_set_ellipsize (page->status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (page->status), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (page->status));
  gtk_box_append (GTK_BOX (box), bar);

  gtk_box_append (GTK_BOX (middle), new_figures (page));
  page->histogram = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_name (GTK_WIDGET (page->histogram), "latency-histogram");
  gtk_drawing_area_set_content_height (page->histogram, 130);
  gtk_widget_set_hexpand (GTK_WIDGET (page->histogram), TRUE);
  _cs_latency_histogram_init (page->histogram, bar_selected_cb, page);
  gtk_box_append (GTK_BOX (middle), GTK_WIDGET (page->histogram));

  /* Figures and histogram over the list on the left; top blockers beside
   * the histogram and the explained pair beside the list on the right. */
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_attach (GTK_GRID (grid), middle, 0, 0, 1, 1);
  page->blockers = g_object_new (CS_LATENCY_TYPE_BLOCKERS_VIEW, NULL);
  _cs_latency_blockers_view_set_latency (page->blockers, latency);
  g_signal_connect (page->blockers, "selected", G_CALLBACK (blocker_selected_cb), page);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (page->blockers), 1, 0, 1, 1);
  page->list = GTK_COLUMN_VIEW (new_list (page));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (page->list));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_hexpand (scrolled, TRUE);
  gtk_grid_attach (GTK_GRID (grid), scrolled, 0, 1, 1, 1);
  page->explain = g_object_new (CS_LATENCY_TYPE_EXPLAIN_VIEW, NULL);
  _cs_latency_explain_view_set_latency (page->explain, latency, window);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (page->explain), 1, 1, 1, 1);
  gtk_box_append (GTK_BOX (box), grid);

  g_signal_connect (run, "clicked", G_CALLBACK (run_clicked_cb), page);
  g_signal_connect (custom, "clicked", G_CALLBACK (custom_clicked_cb), page);
  g_signal_connect (page->whole, "toggled", G_CALLBACK (whole_toggled_cb), page);
  g_object_set_data_full (G_OBJECT (box), "cs-latency-page", page, page_free);
  _cs_latency_add_listener (latency, ready_cb, gone_cb, page);
  _cs_latency_set_blockers_listener (latency, page, blockers_ready_cb);
  if (latency->param != NULL)
    {
      select_param (page, latency->param);
      refresh (page);
    }
  else if (latency->requested == NULL &&
           (shown = _cs_latency_saved_get_shown (latency->document)) != NULL &&
           def_holds (latency->document, shown))
    {
      /* The recording reopens on the definition shown last: its results
       * are in the index cache, found at once. */
      select_param (page, shown);
      run_param (page, shown);
    }
  return box;
}

/* Above the page: which of the window's recordings it analyses. */
typedef struct {
  CsPluginWindow *window;
  CsPlugin *plugin;
  GtkWidget *box;               /* the page's widget: the row, then the content */
  GtkWidget *row;
  GtkDropDown *recording;
  GtkStringList *names;         /* borrowed from the drop-down */
  GtkWidget *content;
  CsPluginDocument *document;   /* the one analysed (borrowed from the window) */
  gboolean syncing;
  gint64 begin_ns, end_ns;      /* the window's range, on its axis */
} Picker;

static Picker *
get_picker (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), "cs-latency-picker");
}

/* The window's range, in the analysed recording's clock. */
static void
apply_window_range (Picker *picker)
{
  Page *page = get_page (picker->box);

  if (page == NULL || page->latency == NULL)
    return;
  page->window_begin_ns = picker->begin_ns;
  page->window_end_ns = picker->end_ns;
  if (picker->document != cs_plugin_window_get_document (picker->window))
    {
      page->window_begin_ns = cs_plugin_window_from_axis_ns (picker->window, picker->document, 0,
                                                             picker->begin_ns);
      page->window_end_ns = cs_plugin_window_from_axis_ns (picker->window, picker->document, 0,
                                                           picker->end_ns);
    }
  apply_range (page);
}

/* Builds the content anew for @document. */
static void
show_document (Picker           *picker,
               CsPluginDocument *document)
{
  CsLatency *latency = cs_plugin_document_get_instance (document, picker->plugin);

  if (latency == NULL)
    return;
  if (picker->content != NULL)
    gtk_box_remove (GTK_BOX (picker->box), picker->content);
  picker->document = document;
  picker->content = build_page (latency, picker->window);
  gtk_widget_set_vexpand (picker->content, TRUE);
  gtk_box_append (GTK_BOX (picker->box), picker->content);
  /* get_page() of the page's widget: the content's */
  g_object_set_data (G_OBJECT (picker->box), "cs-latency-page",
                     g_object_get_data (G_OBJECT (picker->content), "cs-latency-page"));
  apply_window_range (picker);
}

static void
recording_selected_cb (GObject    *dropdown,
                       GParamSpec *pspec,
                       gpointer    user_data)
{
  Picker *picker = user_data;
  CsPluginDocument *document;

  if (picker->syncing)
    return;
  document = cs_plugin_window_get_nth_document (picker->window,
                                                gtk_drop_down_get_selected (picker->recording));
  if (document != NULL && document != picker->document)
    show_document (picker, document);
}

/* The drop-down follows the window's recordings; one that went leaves the
 * page on the window's own. */
static void
sync_recordings (Picker *picker)
{
  guint n = cs_plugin_window_get_n_documents (picker->window);
  guint selected = 0;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      CsPluginDocument *document = cs_plugin_window_get_nth_document (picker->window, i);

      g_ptr_array_add (names, g_path_get_basename (cs_plugin_document_get_path (document)));
      if (document == picker->document)
        selected = i;
    }
  g_ptr_array_add (names, NULL);
  picker->syncing = TRUE;
  gtk_string_list_splice (picker->names, 0, g_list_model_get_n_items (G_LIST_MODEL (picker->names)),
                          (const char *const *) names->pdata);
  gtk_drop_down_set_selected (picker->recording, selected);
  picker->syncing = FALSE;
  gtk_widget_set_visible (picker->row, n > 1);
  if (n > 0 && cs_plugin_window_get_nth_document (picker->window, selected) != picker->document)
    show_document (picker, cs_plugin_window_get_nth_document (picker->window, selected));
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  CsLatency *latency = instance;
  Picker *picker = g_new0 (Picker, 1);
  GtkWidget *label = gtk_label_new (_("Recording"));

  picker->window = window;
  picker->plugin = latency->plugin;
  picker->begin_ns = G_MININT64;
  picker->end_ns = G_MAXINT64;
  picker->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_name (picker->box, "latency-page");
  picker->row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (picker->row, 12);
  gtk_widget_set_margin_top (picker->row, 6);
  picker->names = gtk_string_list_new (NULL);
  /* The drop-down takes the list (transfer full); the picker borrows it. */
  picker->recording = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (picker->names), NULL));
  gtk_widget_set_name (GTK_WIDGET (picker->recording), "latency-recording");
  gtk_widget_set_tooltip_text (GTK_WIDGET (picker->recording),
                               _("The recording whose pairs the page measures"));
  gtk_box_append (GTK_BOX (picker->row), label);
  gtk_box_append (GTK_BOX (picker->row), GTK_WIDGET (picker->recording));
  gtk_box_append (GTK_BOX (picker->box), picker->row);
  g_object_set_data_full (G_OBJECT (picker->box), "cs-latency-picker", picker, g_free);
  show_document (picker, cs_plugin_window_get_document (window));
  sync_recordings (picker);
  g_signal_connect (picker->recording, "notify::selected", G_CALLBACK (recording_selected_cb),
                    picker);
  return picker->box;
}

static void
page_range_changed (gpointer   instance,
                    GtkWidget *widget,
                    gint64     begin_ns,
                    gint64     end_ns)
{
  Picker *picker = get_picker (widget);

  if (picker == NULL)
    return;
  picker->begin_ns = begin_ns;
  picker->end_ns = end_ns;
  /* Recordings added or closed reach the page as a range change. */
  sync_recordings (picker);
  apply_window_range (picker);
}

/* The window asks to show @arg, a definition (a classroom demo's preset). */
static void
page_show (gpointer    instance,
           GtkWidget  *widget,
           const char *arg)
{
  Picker *picker = get_picker (widget);
  Page *page;

  /* The window's demo is about its own recording. */
  if (picker != NULL && picker->document != cs_plugin_window_get_document (picker->window))
    {
      show_document (picker, cs_plugin_window_get_document (picker->window));
      sync_recordings (picker);
    }
  page = get_page (widget);
  if (page == NULL || page->latency == NULL || !def_holds (page->latency->document, arg))
    return;
  select_param (page, arg);
  page->explain_worst = TRUE;
  run_param (page, arg);
}

/**
 * _cs_latency_add_page:
 * @plugin: the latency plugin, in its init
 *
 * Registers the page "latency".
 */
void
_cs_latency_add_page (CsPlugin *plugin)
{
  static const CsPluginPageInfo info = {
    .struct_size = sizeof (CsPluginPageInfo),
    .name = "latency",
    .title = N_("Latency"),
    .create = page_create,
    .range_changed = page_range_changed,
    .show = page_show,
  };

  cs_plugin_add_page (plugin, &info);
}
