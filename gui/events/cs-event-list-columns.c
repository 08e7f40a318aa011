/* cs-event-list-columns.c: the columns of the event list and their cells.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsEventListView.  KernelShark's columns (#, CPU, Time, Task,
 * PID, Latency, Event, Info), "Stream" after # (shown only when the list
 * merges several recordings; Time is then the common axis's time), and a
 * last one, "Plugins", that plugins fill (hidden until they do).  Each cell is a single GtkLabel made once per
 * row widget by a GtkSignalListItemFactory and bound again as rows scroll
 * past; only the rows on screen are ever bound.  A bound label carries its
 * row (as qdata), so that a right click can tell which row it was on
 * (_cs_event_list_columns_pick_row()).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-event-list-view-private.h"
#include "cs-time-axis.h"

#define INFO_TOOLTIP_CHARS 100   /* longer info text gets a tooltip too */

typedef struct {
  CsEventColumn column;
  const char *title;
  int width_px;          /* 0: expands */
  float xalign;
  const char *css_class;
} ColumnInfo;

static const ColumnInfo columns[] = {
  { CS_COLUMN_ROW,     N_("#"),       80, 1.0f, "numeric" },
  /* TRANSLATORS: the column naming the recording an event is in, when a
   * window holds several */
  { CS_COLUMN_STREAM,  N_("Stream"), 110, 0.0f, NULL },
  { CS_COLUMN_CPU,     N_("CPU"),     48, 1.0f, "numeric" },
  { CS_COLUMN_TIME,    N_("Time"),   150, 1.0f, "numeric" },
  { CS_COLUMN_TASK,    N_("Task"),   150, 0.0f, NULL },
  { CS_COLUMN_PID,     N_("PID"),     70, 1.0f, "numeric" },
  { CS_COLUMN_LATENCY, N_("Latency"), 72, 0.0f, "monospace" },
  { CS_COLUMN_EVENT,   N_("Event"),  200, 0.0f, NULL },
  { CS_COLUMN_INFO,    N_("Info"),     0, 0.0f, NULL },
};

/* What plugins say of a row (cs_event_list_view_set_details_func()); its
 * column is shown only with a function. */
static const ColumnInfo details_column = { CS_COLUMN_INFO, N_("Plugins"), 260, 0.0f, NULL };

/* The row a bound label belongs to, +1 (0: none). */
static GQuark
row_quark (void)
{
  static GQuark quark;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("cs-event-list-row");
  return quark;
}

static void
set_row (GtkWidget   *label,
         GtkListItem *list_item)
{
  g_object_set_qdata (G_OBJECT (label), row_quark (),
                      list_item != NULL ? GUINT_TO_POINTER (gtk_list_item_get_position (list_item) + 1)
                                        : NULL);
}

static guint
get_row (GtkWidget *widget)
{
  return GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (widget), row_quark ()));
}

/* A cell's tooltip text, asked for when the pointer rests on it. */
static GQuark
tooltip_quark (void)
{
  static GQuark quark;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("cs-event-list-tooltip");
  return quark;
}

static gboolean
query_tooltip_cb (GtkWidget  *label,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = g_object_get_qdata (G_OBJECT (label), tooltip_quark ());

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Fills a bound cell's label; it remembers its row for the context menu.
 * The tooltip is kept aside for query_tooltip_cb(): on X11,
 * gtk_widget_set_tooltip_text() asks the server where the pointer is, and
 * at every cell of every row bound that was half a second of the main
 * thread at each live picture. */
static void
show_cell (GtkListItem *list_item,
           const char  *text,
           const char  *tooltip)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_label (GTK_LABEL (label), text != NULL ? text : "");
  g_object_set_qdata_full (G_OBJECT (label), tooltip_quark (), g_strdup (tooltip), g_free);
  set_row (label, list_item);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  const ColumnInfo *info = user_data;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), info->xalign);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  gtk_label_set_ellipsize (GTK_LABEL (label),
                           info->column == CS_COLUMN_TIME ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END);
  if (info->css_class != NULL)
    gtk_widget_add_css_class (label, info->css_class);
  gtk_list_item_set_child (list_item, label);
}

/* Info on one line: kernel_stack and other multi-line events read as
 * "<stack trace > => __schedule => schedule …"; the tooltip keeps the
 * lines. */
static char *
join_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *joined = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] == '\0')
        continue;
      if (joined->len > 0)
        g_string_append (joined, "  ");
      g_string_append (joined, lines[i]);
    }

  return g_string_free (joined, FALSE);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  const ColumnInfo *info = user_data;
  CsEventItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;
  const char *tooltip = NULL;

  switch (info->column)
    {
    case CS_COLUMN_TIME:
      /* Seconds.nanoseconds, as `trace-cmd report -t` prints them; on the
       * timeline's axis when the list merges several recordings. */
      text = cs_time_format_timestamp (cs_event_item_get_time_ns (item));
      break;
    case CS_COLUMN_INFO:
      {
        const char *full = cs_event_item_get_info (item);

        text = join_lines (full != NULL ? full : "");
        if (full != NULL && (strchr (full, '\n') != NULL || g_utf8_strlen (full, -1) > INFO_TOOLTIP_CHARS))
          tooltip = full;
      }
      break;
    default:
      text = cs_event_item_dup_column_text (item, info->column);
      break;
    }

  show_cell (list_item, text, tooltip);
}

/* The "Plugins" column: @user_data is the view's CsEventListDetails. */
static void
bind_details_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  const CsEventListDetails *details = user_data;
  CsEventItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;

  /* plugins know the window's own recording, not the other streams' */
  if (details->func != NULL &&
      (details->document == NULL || cs_event_item_get_document (item) == details->document))
    text = details->func (item, details->user_data);
  show_cell (list_item, text, text);
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  set_row (gtk_list_item_get_child (list_item), NULL);
}

static GtkColumnViewColumn *
add_column (GtkColumnView            *column_view,
            const ColumnInfo         *info,
            const CsEventListDetails *details)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), (gpointer) info);
  if (info == &details_column)
    g_signal_connect (factory, "bind", G_CALLBACK (bind_details_cb), (gpointer) details);
  else
    g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), (gpointer) info);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell_cb), (gpointer) info);

  column = gtk_column_view_column_new (_(info->title), factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (info->width_px > 0)
    gtk_column_view_column_set_fixed_width (column, info->width_px);
  else
    gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (column_view, column);
  g_object_unref (column);
  return column;
}

/**
 * _cs_event_list_columns_add:
 * @column_view: the event list's column view, without columns yet
 * @details: (not nullable): where the "Plugins" column reads what to say
 *   of a row; borrowed, it must outlive @column_view
 *
 * Appends the event list's columns to @column_view, the "Plugins" column
 * last and hidden.
 *
 * Returns: (transfer none): the "Plugins" column (owned by @column_view),
 *   to show when @details has a function
 */
GtkColumnViewColumn *
_cs_event_list_columns_add (GtkColumnView            *column_view,
                            const CsEventListDetails *details)
{
  GtkColumnViewColumn *plugins;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (column_view) && details != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    add_column (column_view, &columns[i], details);
  plugins = add_column (column_view, &details_column, details);
  gtk_column_view_column_set_visible (plugins, FALSE);
  return plugins;
}

/**
 * _cs_event_list_columns_find:
 * @column_view: a column view filled by _cs_event_list_columns_add()
 * @column: one of its columns
 *
 * Returns: (transfer none) (nullable): the column view's column for it
 */
GtkColumnViewColumn *
_cs_event_list_columns_find (GtkColumnView *column_view,
                             CsEventColumn  column)
{
  GListModel *list = gtk_column_view_get_columns (column_view);

  for (guint i = 0; i < G_N_ELEMENTS (columns) && i < g_list_model_get_n_items (list); i++)
    if (columns[i].column == column)
      {
        g_autoptr(GtkColumnViewColumn) found = g_list_model_get_item (list, i);

        return found;   /* the column view keeps it */
      }
  return NULL;
}

/**
 * _cs_event_list_columns_pick_row:
 * @column_view: a column view filled by _cs_event_list_columns_add()
 * @x: a point in @column_view's coordinates, px
 * @y: likewise
 *
 * The row whose cell lies under (@x, @y), for a right click.
 *
 * Returns: the row + 1, or 0 when no row's cell is there (the header, the
 *   empty space below the last row)
 */
guint
_cs_event_list_columns_pick_row (GtkColumnView *column_view,
                                 double         x,
                                 double         y)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (column_view), x, y, GTK_PICK_DEFAULT);
  guint row = 0;

  /* The label bound to a row carries that row; walk up from whatever lies
   * under the pointer (the label, or the cell around its padding). */
  for (GtkWidget *widget = picked; widget != NULL && row == 0; widget = gtk_widget_get_parent (widget))
    {
      row = get_row (widget);
      if (widget == GTK_WIDGET (column_view))
        break;
    }

  if (row == 0 && picked != NULL)
    {
      /* On the cell padding: the label is a child of what was picked. */
      GtkWidget *child = gtk_widget_get_first_child (picked);

      if (child != NULL)
        row = get_row (child);
    }
  return row;
}
