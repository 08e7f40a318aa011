/* cs-query-tables.c: CsQueryTables, the tables beside the SQL editor.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One expander per table, its columns (name and type, from its CREATE
 * TABLE, as `chronoscope query --schema` prints it) inside.  Activating a
 * column (double click, Enter) emits ::insert with its name, which the
 * Query page inserts into the editor.  The layouts are the template
 * cs-query-tables.ui and, per table, cs-query-table.ui.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-query-tables.h"

struct _CsQueryTables
{
  GtkWidget parent_instance;

  GtkWidget *scrolled;          /* the template's child, unparented in dispose */
  GtkListBox *list;             /* inside it */
  GPtrArray *names;             /* owned; NULL-terminated */
};

G_DEFINE_FINAL_TYPE (CsQueryTables, cs_query_tables, GTK_TYPE_WIDGET)

enum { SIGNAL_INSERT, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The column definitions of "CREATE TABLE name(a INTEGER, b TEXT)". */
static char **
schema_columns (const char *schema)
{
  const char *open = strchr (schema, '(');
  const char *close = strrchr (schema, ')');
  g_autofree char *inner = NULL;
  char **columns;

  if (open == NULL || close == NULL || close < open)
    return g_new0 (char *, 1);
  inner = g_strndup (open + 1, close - open - 1);
  columns = g_strsplit (inner, ",", -1);
  for (guint i = 0; columns[i] != NULL; i++)
    g_strstrip (columns[i]);
  return columns;
}

static void
column_activated_cb (GtkListBox    *box,
                     GtkListBoxRow *row,
                     CsQueryTables *self)
{
  const char *name = g_object_get_data (G_OBJECT (gtk_list_box_row_get_child (row)), "cs-name");

  if (name != NULL)
    g_signal_emit (self, signals[SIGNAL_INSERT], 0, name);
}

static void
add_table (CsQueryTables *self,
           const char    *name,
           const char    *schema)
{
  g_auto(GStrv) columns = schema_columns (schema);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-query-table.ui");
  GtkExpander *expander = GTK_EXPANDER (gtk_builder_get_object (builder, "expander"));
  GtkListBox *list = GTK_LIST_BOX (gtk_builder_get_object (builder, "columns"));

  gtk_expander_set_label (expander, name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (expander), schema);
  for (guint i = 0; columns[i] != NULL; i++)
    {
      /* The list box puts the label in a row of its own. */
      GtkWidget *label = gtk_label_new (columns[i]);
      g_auto(GStrv) words = g_strsplit (columns[i], " ", 2);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      g_object_set_data_full (G_OBJECT (label), "cs-name", g_strdup (words[0]), g_free);
      gtk_list_box_append (list, label);
    }
  g_signal_connect (list, "row-activated", G_CALLBACK (column_activated_cb), self);
  gtk_list_box_append (self->list, GTK_WIDGET (gtk_builder_get_object (builder, "table")));
}

static void
cs_query_tables_dispose (GObject *object)
{
  CsQueryTables *self = CS_QUERY_TABLES (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  G_OBJECT_CLASS (cs_query_tables_parent_class)->dispose (object);
}

static void
cs_query_tables_finalize (GObject *object)
{
  g_ptr_array_unref (CS_QUERY_TABLES (object)->names);
  G_OBJECT_CLASS (cs_query_tables_parent_class)->finalize (object);
}

static void
cs_query_tables_class_init (CsQueryTablesClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cs_query_tables_dispose;
  G_OBJECT_CLASS (klass)->finalize = cs_query_tables_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/chronoscope/Chronoscope/cs-query-tables.ui");
  gtk_widget_class_bind_template_child (GTK_WIDGET_CLASS (klass), CsQueryTables, scrolled);
  gtk_widget_class_bind_template_child (GTK_WIDGET_CLASS (klass), CsQueryTables, list);

  /**
   * CsQueryTables::insert:
   * @self: the list
   * @name: a column's name
   *
   * The user activated a column: put its name into the SQL.
   */
  signals[SIGNAL_INSERT] =
    g_signal_new ("insert", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
cs_query_tables_init (CsQueryTables *self)
{
  self->names = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->names, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/** cs_query_tables_new: Returns: (transfer full): an empty list */
CsQueryTables *
cs_query_tables_new (void)
{
  return g_object_new (CS_TYPE_QUERY_TABLES, NULL);
}

/**
 * cs_query_tables_set:
 * @self: the list
 * @pairs: (array zero-terminated=1) (nullable): a table's name, then its
 *   `CREATE TABLE` statement, for each table; %NULL for none
 *
 * Shows these tables in place of the previous ones.
 */
void
cs_query_tables_set (CsQueryTables      *self,
                     const char * const *pairs)
{
  GtkWidget *child;

  g_return_if_fail (CS_IS_QUERY_TABLES (self));
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_ptr_array_set_size (self->names, 0);
  for (guint i = 0; pairs != NULL && pairs[i] != NULL && pairs[i + 1] != NULL; i += 2)
    {
      add_table (self, pairs[i], pairs[i + 1]);
      g_ptr_array_add (self->names, g_strdup (pairs[i]));
    }
  g_ptr_array_add (self->names, NULL);
}

/**
 * cs_query_tables_get_names:
 * @self: the list
 *
 * Returns: (transfer none) (array zero-terminated=1): the tables shown
 */
const char * const *
cs_query_tables_get_names (CsQueryTables *self)
{
  g_return_val_if_fail (CS_IS_QUERY_TABLES (self), NULL);
  return (const char * const *) self->names->pdata;
}
