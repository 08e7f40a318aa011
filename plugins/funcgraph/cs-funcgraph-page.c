/* cs-funcgraph-page.c: the page "Functions" of the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The table of functions of the window's range (markers A..B, a
 * selection, or the whole recording): calls, function tracer events,
 * total, self and longest call, sorted by total time, at most
 * MAX_LINES lines (the rest are counted in the status line).
 * Activating a function shows its worst call in the range: the timeline
 * zooms to it, markers A and B go on its ends, its task's flame row is
 * added and its funcgraph_exit event selected.  "Show calls" adds the
 * flame rows of the tasks with the most calls.  GTK 4.8 widgets only.
 *
 * The layout is the template cs-funcgraph-page.ui; the columns' cells are
 * made here.  The list's model is a GtkStringList of the function names,
 * in the table's order (the page keeps their figures beside it).  Widgets a test
 * reaches have names: funcgraph-page, funcgraph-status, funcgraph-list,
 * funcgraph-add-rows.
 */
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>

#include "cs-funcgraph-private.h"

#define MAX_LINES 1000
#define MAX_ROWS  8

enum { COL_FUNCTION, COL_CALLS, COL_EVENTS, COL_TOTAL, COL_SELF, COL_MAX, N_COLS };

struct _CsFuncgraphPage
{
  GtkBox parent_instance;

  CsFuncgraph *funcgraph;
  CsPluginWindow *window;
  GtkLabel *status;
  GtkColumnView *list;
  GtkStringList *names;
  GArray *lines;        /* CsFuncgraphFunction, as the names */
  gint64 begin_ns, end_ns;
};

typedef CsFuncgraphPage Page;

G_DEFINE_FINAL_TYPE (CsFuncgraphPage, cs_funcgraph_page, GTK_TYPE_BOX)

static Page *
get_page (gpointer widget)
{
  return CS_IS_FUNCGRAPH_PAGE (widget) ? CS_FUNCGRAPH_PAGE (widget) : NULL;
}

static void
set_status (Page       *page,
            const char *text)
{
  gtk_label_set_text (page->status, text);
}

static void
refresh (Page *page)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) lines = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  sqlite3 *db = _cs_funcgraph_get_db (page->funcgraph);
  guint n_old;

  if (page->funcgraph == NULL)
    return;
  if (!page->funcgraph->has_events)
    {
      set_status (page, _("This recording has no function_graph or function tracer events "
                          "(trace-cmd record -p function_graph)."));
      return;
    }
  if (db == NULL)
    {
      set_status (page, _("Reading the calls…"));
      return;
    }
  lines = _cs_funcgraph_list_functions (db, page->begin_ns, page->end_ns, MAX_LINES + 1, &error);
  if (lines == NULL)
    {
      set_status (page, error->message);
      return;
    }
  if (lines->len > MAX_LINES)
    {
      g_autofree char *text = g_strdup_printf (_("The %u functions with the most time (more in "
                                                 "the range: narrow it with markers A and B)."),
                                               MAX_LINES);

      set_status (page, text);
      g_array_set_size (lines, MAX_LINES);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u function in the range.",
                                                         "%u functions in the range.", lines->len),
                                               lines->len);
      set_status (page, text);
    }
  for (guint i = 0; i < lines->len; i++)
    g_ptr_array_add (names, g_array_index (lines, CsFuncgraphFunction, i).name);
  g_ptr_array_add (names, NULL);
  g_clear_pointer (&page->lines, g_array_unref);
  page->lines = g_steal_pointer (&lines);
  n_old = g_list_model_get_n_items (G_LIST_MODEL (page->names));
  gtk_string_list_splice (page->names, 0, n_old, (const char * const *) names->pdata);
}

/**
 * _cs_funcgraph_page_refresh:
 * @widget: a page's widget
 *
 * Reads the table again (the pass's results are ready).
 */
void
_cs_funcgraph_page_refresh (gpointer widget)
{
  Page *page = get_page (widget);

  if (page != NULL)
    refresh (page);
}

/**
 * _cs_funcgraph_page_forget:
 * @widget: a page's widget
 *
 * The recording's instance is going: the page stops reading it, and
 * leaves the instance's list of pages.
 */
void
_cs_funcgraph_page_forget (gpointer widget)
{
  Page *page = get_page (widget);

  if (page == NULL || page->funcgraph == NULL)
    return;
  g_ptr_array_remove (page->funcgraph->pages, widget);
  page->funcgraph = NULL;
}

/* Activating a function: its worst call in the range. */
static void
activate_cb (Page  *page,
             guint  position)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  CsFuncgraphCall call;
  sqlite3 *db = _cs_funcgraph_get_db (page->funcgraph);

  if (db == NULL || page->lines == NULL || position >= page->lines->len)
    return;
  if (!_cs_funcgraph_worst_call (_cs_funcgraph_get_reader (page->funcgraph, db),
                                 g_array_index (page->lines, CsFuncgraphFunction, position).id,
                                 page->begin_ns, page->end_ns, &call, &error))
    {
      if (error != NULL)
        set_status (page, error->message);
      else
        set_status (page, _("No function_graph call of this function in the range "
                            "(only function tracer events)."));
      return;
    }
  key = g_strdup_printf ("%d", call.pid);
  cs_plugin_window_show_span (page->window, call.begin_ns, call.end_ns);
  cs_plugin_window_set_markers (page->window, call.begin_ns, call.end_ns);
  cs_plugin_window_add_row (page->window, page->funcgraph->plugin, CS_FUNCGRAPH_LAYER, key);
  cs_plugin_window_select_event (page->window, call.cpu, call.begin_ns);
}

/* "Show calls": the flame rows of the tasks with the most calls. */
static void
add_rows_cb (Page *page)
{
  g_autoptr(GArray) pids = NULL;
  sqlite3 *db = _cs_funcgraph_get_db (page->funcgraph);

  if (db == NULL || (pids = _cs_funcgraph_list_tasks (db, NULL)) == NULL)
    return;
  for (guint i = 0; i < pids->len && i < MAX_ROWS; i++)
    {
      g_autofree char *key = g_strdup_printf ("%d", g_array_index (pids, gint32, i));

      cs_plugin_window_add_row (page->window, page->funcgraph->plugin, CS_FUNCGRAPH_LAYER, key);
    }
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (user_data) == COL_FUNCTION ? 0.0 : 1.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  Page *page = g_object_get_data (G_OBJECT (factory), "cs-funcgraph-page");
  guint position = gtk_list_item_get_position (list_item);
  const CsFuncgraphFunction *f;
  g_autofree char *text = NULL;
  g_autofree char *tip = NULL;

  if (page->lines == NULL || position >= page->lines->len)
    return;
  f = &g_array_index (page->lines, CsFuncgraphFunction, position);
  /* Function events alone have no duration. */
  if (f->n_calls == 0 && GPOINTER_TO_INT (user_data) >= COL_TOTAL)
    {
      gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), "—");
      gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), NULL);
      return;
    }
  switch (GPOINTER_TO_INT (user_data))
    {
    case COL_FUNCTION:
      text = g_strdup (f->name);
      break;
    case COL_CALLS:
      text = g_strdup_printf ("%" G_GINT64_FORMAT, f->n_calls);
      break;
    case COL_EVENTS:
      text = g_strdup_printf ("%" G_GINT64_FORMAT, f->n_hits);
      break;
    case COL_TOTAL:
      text = cs_plugin_format_duration (f->total_ns);
      tip = g_strdup_printf ("%" G_GINT64_FORMAT " ns", f->total_ns);
      break;
    case COL_SELF:
      text = cs_plugin_format_duration (f->self_ns);
      tip = g_strdup_printf ("%" G_GINT64_FORMAT " ns", f->self_ns);
      break;
    default:
      text = cs_plugin_format_duration (f->max_ns);
      tip = g_strdup_printf ("%" G_GINT64_FORMAT " ns", f->max_ns);
      break;
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), tip);
}

/* Gives each column of the template its cells. */
static void
set_factories (Page *page)
{
  GListModel *columns = gtk_column_view_get_columns (page->list);

  g_assert (g_list_model_get_n_items (columns) == N_COLS);
  for (int i = 0; i < N_COLS; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "cs-funcgraph-page", page);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GINT_TO_POINTER (i));
      gtk_column_view_column_set_factory (column, factory);
    }
}

static void
cs_funcgraph_page_dispose (GObject *object)
{
  Page *page = CS_FUNCGRAPH_PAGE (object);

  if (page->funcgraph != NULL)
    g_ptr_array_remove (page->funcgraph->pages, page);
  page->funcgraph = NULL;
  G_OBJECT_CLASS (cs_funcgraph_page_parent_class)->dispose (object);
}

static void
cs_funcgraph_page_finalize (GObject *object)
{
  Page *page = CS_FUNCGRAPH_PAGE (object);

  g_clear_pointer (&page->lines, g_array_unref);
  G_OBJECT_CLASS (cs_funcgraph_page_parent_class)->finalize (object);
}

static void
cs_funcgraph_page_class_init (CsFuncgraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_funcgraph_page_dispose;
  object_class->finalize = cs_funcgraph_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/funcgraph/cs-funcgraph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsFuncgraphPage, status);
  gtk_widget_class_bind_template_child (widget_class, CsFuncgraphPage, list);
  gtk_widget_class_bind_template_child (widget_class, CsFuncgraphPage, names);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_rows_cb);
}

static void
cs_funcgraph_page_init (CsFuncgraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->begin_ns = G_MININT64;
  self->end_ns = G_MAXINT64;
  set_factories (self);
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  Page *page = g_object_new (CS_TYPE_FUNCGRAPH_PAGE, NULL);

  page->funcgraph = instance;
  page->window = window;
  if (page->funcgraph != NULL)
    g_ptr_array_add (page->funcgraph->pages, page);
  refresh (page);
  return GTK_WIDGET (page);
}

static void
page_range_changed (gpointer   instance,
                    GtkWidget *widget,
                    gint64     begin_ns,
                    gint64     end_ns)
{
  CsFuncgraph *funcgraph = instance;
  Page *page = get_page (widget);

  if (page == NULL || page->funcgraph == NULL)
    return;
  /* The whole recording reads the per-function figures of the pass. */
  if (begin_ns <= cs_plugin_document_get_first_ns (funcgraph->document) &&
      end_ns > cs_plugin_document_get_last_ns (funcgraph->document))
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

/**
 * _cs_funcgraph_add_page:
 * @plugin: the funcgraph plugin, in its init
 *
 * Registers the page "functions".
 */
void
_cs_funcgraph_add_page (CsPlugin *plugin)
{
  static const CsPluginPageInfo info = {
    .struct_size = sizeof (CsPluginPageInfo),
    .name = "functions",
    .title = N_("Functions"),
    .create = page_create,
    .range_changed = page_range_changed,
  };

  cs_plugin_add_page (plugin, &info);
}
