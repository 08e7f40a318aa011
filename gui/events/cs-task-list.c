/* cs-task-list.c: the tasks of a recording, to add and remove task plots.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A window beside the main one (not modal: the timeline stays usable) with
 * a search entry and a GtkColumnView of the recording's tasks - plot, task,
 * pid, CPU time, events - sortable by any column, busiest first.  Checking
 * a task adds its task plot at once (CsAnalysis), unchecking removes it;
 * activating a row (double-click, Enter) toggles it.  The check boxes
 * follow the plots whatever changes them (the context menu, a session).
 *
 * The layout is the template cs-task-list.ui; the cells are made here.
 *
 * Tasks come from cs_document_get_task(): a few thousand rows at most, so
 * each is a small object; the list never touches events.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-task-list.h"

/* ------------------------------------------------------------------------ */
/* A row                                                                     */

#define CS_TYPE_TASK_ROW (cs_task_row_get_type ())
G_DECLARE_FINAL_TYPE (CsTaskRow, cs_task_row, CS, TASK_ROW, GObject)

struct _CsTaskRow
{
  GObject parent_instance;

  gint32 pid;
  char *comm;
  gint64 runtime_ns;
  guint64 n_events;
  gboolean plotted;
};

enum {
  ROW_PROP_0,
  ROW_PROP_PID,
  ROW_PROP_COMM,
  ROW_PROP_RUNTIME_NS,
  ROW_PROP_N_EVENTS,
  ROW_PROP_PLOTTED,
  ROW_N_PROPS
};

static GParamSpec *row_properties[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE (CsTaskRow, cs_task_row, G_TYPE_OBJECT)

static void
cs_task_row_finalize (GObject *object)
{
  g_free (CS_TASK_ROW (object)->comm);

  G_OBJECT_CLASS (cs_task_row_parent_class)->finalize (object);
}

static void
cs_task_row_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsTaskRow *self = CS_TASK_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_PID:
      g_value_set_int (value, self->pid);
      break;
    case ROW_PROP_COMM:
      g_value_set_string (value, self->comm);
      break;
    case ROW_PROP_RUNTIME_NS:
      g_value_set_int64 (value, self->runtime_ns);
      break;
    case ROW_PROP_N_EVENTS:
      g_value_set_uint64 (value, self->n_events);
      break;
    case ROW_PROP_PLOTTED:
      g_value_set_boolean (value, self->plotted);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_task_row_class_init (CsTaskRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = cs_task_row_finalize;
  object_class->get_property = cs_task_row_get_property;

  row_properties[ROW_PROP_PID] = g_param_spec_int ("pid", NULL, NULL, G_MININT32, G_MAXINT32, 0, flags);
  row_properties[ROW_PROP_COMM] = g_param_spec_string ("comm", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_RUNTIME_NS] = g_param_spec_int64 ("runtime-ns", NULL, NULL, 0, G_MAXINT64, 0, flags);
  row_properties[ROW_PROP_N_EVENTS] = g_param_spec_uint64 ("n-events", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  row_properties[ROW_PROP_PLOTTED] = g_param_spec_boolean ("plotted", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_properties);
}

static void
cs_task_row_init (CsTaskRow *self)
{
}

static void
cs_task_row_set_plotted (CsTaskRow *self, gboolean plotted)
{
  if (self->plotted == !!plotted)
    return;
  self->plotted = !!plotted;
  g_object_notify_by_pspec (G_OBJECT (self), row_properties[ROW_PROP_PLOTTED]);
}

/* ------------------------------------------------------------------------ */
/* The window                                                                */

/* The columns, in the order of cs-task-list.ui; all but the plot's show
 * text. */
typedef enum {
  COLUMN_PLOT,
  TEXT_COMM,
  TEXT_PID,
  TEXT_RUNTIME,
  TEXT_EVENTS,
  N_COLUMNS
} TextColumn;

static const char * const column_names[N_COLUMNS] = {
  "plot_column", "comm_column", "pid_column", "runtime_column", "events_column",
};

struct _CsTaskList
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkSearchEntry *search_entry;
  GtkColumnView *column_view;
  GtkColumnViewColumn *columns[N_COLUMNS];
  GtkLabel *count_label;

  /* owned */
  CsAnalysis *analysis;
  GListStore *rows;
  GtkCustomFilter *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;
  char *search;
};

G_DEFINE_FINAL_TYPE (CsTaskList, cs_task_list, GTK_TYPE_WINDOW)

static void
cs_task_list_toggle (CsTaskList *self, CsTaskRow *row, gboolean plotted)
{
  if (plotted)
    cs_analysis_add_task_plot (self->analysis, row->pid);
  else
    cs_analysis_remove_task_plot (self->analysis, row->pid);
}

static gboolean
match_row (gpointer item, gpointer user_data)
{
  CsTaskList *self = user_data;
  CsTaskRow *row = item;
  g_autofree char *comm = NULL;
  char pid[16];

  if (self->search == NULL || *self->search == '\0')
    return TRUE;
  g_snprintf (pid, sizeof pid, "%d", row->pid);
  if (g_str_has_prefix (pid, self->search))
    return TRUE;
  comm = g_utf8_casefold (row->comm != NULL ? row->comm : "", -1);
  return strstr (comm, self->search) != NULL;
}

static void
cs_task_list_update_count (CsTaskList *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint n_total = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  guint n_plotted = 0;
  g_autofree char *shown = NULL;
  g_autofree char *plotted = NULL;
  g_autofree char *text = NULL;

  cs_analysis_get_task_plots (self->analysis, &n_plotted);
  if (n_shown == n_total)
    shown = g_strdup_printf (ngettext ("%u task", "%u tasks", n_total), n_total);
  else
    /* TRANSLATORS: tasks matching the search, "12 of 340 tasks" */
    shown = g_strdup_printf (ngettext ("%u of %u task", "%u of %u tasks", n_total), n_shown, n_total);
  plotted = g_strdup_printf (ngettext ("%u task plot", "%u task plots", n_plotted), n_plotted);
  /* TRANSLATORS: "340 tasks · 2 task plots" */
  text = g_strdup_printf (_("%s · %s"), shown, plotted);
  gtk_label_set_label (self->count_label, text);
}

static void
search_changed_cb (CsTaskList *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->search);
  self->search = g_utf8_casefold (g_strstrip (g_strdup (text)), -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  cs_task_list_update_count (self);
}

static void
plots_changed_cb (CsTaskList *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsTaskRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), i);

      cs_task_row_set_plotted (row, cs_analysis_has_task_plot (self->analysis, row->pid));
    }
  cs_task_list_update_count (self);
}

static void
cs_task_list_fill (CsTaskList *self)
{
  CsDocument *document = cs_analysis_get_document (self->analysis);
  guint n_tasks = document != NULL ? cs_document_get_n_tasks (document) : 0;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_tasks; i++)
    {
      const CsTask *task = cs_document_get_task (document, i);
      CsTaskRow *row;

      if (task->pid <= 0)
        continue;  /* idle has no plot */
      row = g_object_new (CS_TYPE_TASK_ROW, NULL);
      row->pid = task->pid;
      row->comm = g_strdup (task->comm != NULL ? task->comm : "<…>");
      row->runtime_ns = task->runtime_ns;
      row->n_events = task->n_events;
      row->plotted = cs_analysis_has_task_plot (self->analysis, task->pid);
      g_ptr_array_add (rows, row);
    }

  g_list_store_remove_all (self->rows);
  g_list_store_splice (self->rows, 0, 0, rows->pdata, rows->len);
  cs_task_list_update_count (self);
}

/* Cells ------------------------------------------------------------------- */

static void
check_toggled_cb (GtkCheckButton *check, GtkListItem *item)
{
  CsTaskRow *row = gtk_list_item_get_item (item);
  CsTaskList *self = g_object_get_data (G_OBJECT (check), "cs-task-list");

  if (row != NULL && self != NULL && gtk_check_button_get_active (check) != row->plotted)
    cs_task_list_toggle (self, row, gtk_check_button_get_active (check));
}

static void
setup_check_cb (GtkSignalListItemFactory *factory, GtkListItem *item, CsTaskList *self)
{
  GtkWidget *check = gtk_check_button_new ();

  gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (check), "cs-task-list", self);
  g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), item);
  gtk_list_item_set_child (item, check);
}

static void
row_plotted_cb (CsTaskRow *row, GParamSpec *pspec, GtkCheckButton *check)
{
  gtk_check_button_set_active (check, row->plotted);
}

static void
bind_check_cb (GtkSignalListItemFactory *factory, GtkListItem *item, CsTaskList *self)
{
  GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_item_get_child (item));
  CsTaskRow *row = gtk_list_item_get_item (item);
  g_autofree char *tooltip = NULL;

  gtk_check_button_set_active (check, row->plotted);
  g_signal_connect_object (row, "notify::plotted", G_CALLBACK (row_plotted_cb), check, 0);
  /* TRANSLATORS: tooltip of a task list check box; %s is "bash-1234" */
  tooltip = g_strdup_printf (_("Show a task plot of %s-%d"), row->comm, row->pid);
  gtk_widget_set_tooltip_text (GTK_WIDGET (check), tooltip);
}

static void
unbind_check_cb (GtkSignalListItemFactory *factory, GtkListItem *item, CsTaskList *self)
{
  CsTaskRow *row = gtk_list_item_get_item (item);

  if (row != NULL)
    g_signal_handlers_disconnect_by_func (row, row_plotted_cb, gtk_list_item_get_child (item));
}

static void
setup_label_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  TextColumn column = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == TEXT_COMM ? 0.0f : 1.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column != TEXT_COMM)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_label_cb (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  CsTaskRow *row = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  switch ((TextColumn) GPOINTER_TO_INT (data))
    {
    case TEXT_COMM:
      gtk_label_set_label (label, row->comm);
      return;
    case TEXT_PID:
      text = g_strdup_printf ("%d", row->pid);
      break;
    case TEXT_RUNTIME:
      text = row->runtime_ns > 0 ? cs_format_duration (row->runtime_ns) : g_strdup ("—");
      break;
    case TEXT_EVENTS:
    default:
      text = cs_format_count (row->n_events);
      break;
    }
  gtk_label_set_label (label, text);
}

static void
activate_cb (GtkColumnView *view, guint position, CsTaskList *self)
{
  g_autoptr(CsTaskRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

  if (row != NULL)
    cs_task_list_toggle (self, row, !row->plotted);
}

static void
cs_task_list_dispose (GObject *object)
{
  CsTaskList *self = CS_TASK_LIST (object);

  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_clear_object (&self->analysis);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (cs_task_list_parent_class)->dispose (object);
}

static void
cs_task_list_finalize (GObject *object)
{
  g_free (CS_TASK_LIST (object)->search);

  G_OBJECT_CLASS (cs_task_list_parent_class)->finalize (object);
}

static void
cs_task_list_class_init (CsTaskListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_task_list_dispose;
  object_class->finalize = cs_task_list_finalize;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  g_type_ensure (CS_TYPE_TASK_ROW);  /* the sorters' expressions name it */
  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-task-list.ui");
  gtk_widget_class_bind_template_child (widget_class, CsTaskList, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CsTaskList, column_view);
  gtk_widget_class_bind_template_child (widget_class, CsTaskList, count_label);
  for (guint i = 0; i < N_COLUMNS; i++)
    gtk_widget_class_bind_template_child_full (widget_class, column_names[i], FALSE,
                                               G_STRUCT_OFFSET (CsTaskList, columns)
                                               + i * (gssize) sizeof (GtkColumnViewColumn *));
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
}

static void
cs_task_list_init (CsTaskList *self)
{
  GtkListItemFactory *factory;
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_list_store_new (CS_TYPE_TASK_ROW);
  self->filter = gtk_custom_filter_new (match_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->rows)),
                                              GTK_FILTER (g_object_ref (self->filter)));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_check_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_check_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_check_cb), self);
  gtk_column_view_column_set_factory (self->columns[COLUMN_PLOT], factory);
  g_object_unref (factory);
  for (TextColumn column = TEXT_COMM; column < N_COLUMNS; column++)
    {
      factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label_cb), GINT_TO_POINTER (column));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label_cb), GINT_TO_POINTER (column));
      gtk_column_view_column_set_factory (self->columns[column], factory);
      g_object_unref (factory);
    }

  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  gtk_column_view_sort_by_column (self->column_view, self->columns[TEXT_RUNTIME], GTK_SORT_DESCENDING);
}

/**
 * cs_task_list_new:
 * @parent: the main window, whose task plots the list changes
 * @analysis: (transfer none): that window's #CsAnalysis
 *
 * Returns: (transfer floating): a window listing the tasks of
 *   @analysis's recording, not shown yet; it refills when the recording
 *   changes
 */
CsTaskList *
cs_task_list_new (GtkWindow  *parent,
                  CsAnalysis *analysis)
{
  CsTaskList *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (CS_IS_ANALYSIS (analysis), NULL);

  self = g_object_new (CS_TYPE_TASK_LIST,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       "application", gtk_window_get_application (parent),
                       NULL);
  self->analysis = g_object_ref (analysis);
  g_signal_connect_object (analysis, "plots-changed", G_CALLBACK (plots_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (analysis, "document-changed", G_CALLBACK (cs_task_list_fill), self,
                           G_CONNECT_SWAPPED);
  cs_task_list_fill (self);
  return self;
}

/**
 * cs_task_list_set_search:
 * @self: a #CsTaskList
 * @text: what the search entry holds: part of a command name, or the start
 *   of a pid
 */
void
cs_task_list_set_search (CsTaskList *self,
                         const char *text)
{
  g_return_if_fail (CS_IS_TASK_LIST (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  search_changed_cb (self);
}

/**
 * cs_task_list_get_n_shown:
 * @self: a #CsTaskList
 *
 * Returns: how many rows the list shows (those matching the search)
 */
guint
cs_task_list_get_n_shown (CsTaskList *self)
{
  g_return_val_if_fail (CS_IS_TASK_LIST (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

/**
 * cs_task_list_get_shown_pid:
 * @self: a #CsTaskList
 * @position: a row, in the order shown
 *
 * Returns: the pid of the task on that row, -1 past the end
 */
gint32
cs_task_list_get_shown_pid (CsTaskList *self,
                            guint       position)
{
  g_autoptr(CsTaskRow) row = NULL;

  g_return_val_if_fail (CS_IS_TASK_LIST (self), -1);

  row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  return row != NULL ? row->pid : -1;
}

/**
 * cs_task_list_set_plotted:
 * @self: a #CsTaskList
 * @position: a row, in the order shown
 * @plotted: whether its task gets a plot
 *
 * What checking or unchecking the row's box does.
 */
void
cs_task_list_set_plotted (CsTaskList *self,
                          guint       position,
                          gboolean    plotted)
{
  g_autoptr(CsTaskRow) row = NULL;

  g_return_if_fail (CS_IS_TASK_LIST (self));

  row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  if (row != NULL)
    cs_task_list_toggle (self, row, plotted);
}
