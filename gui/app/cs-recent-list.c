/* cs-recent-list.c: the recordings opened lately, on the empty window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A heading and a boxed list of the recordings Chronoscope opened (the
 * items of GtkRecentManager registered by CS_RECENT_APP_NAME whose file
 * still exists), latest first.  Activating a row activates the window
 * action win.open-recent with the recording's URI.  The list follows the
 * recent manager's "changed" signal and hides itself when empty.
 *
 * The layout is the template cs-recent-list.ui; the rows are made here.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-recent-list.h"

struct _CsRecentList
{
  GtkWidget parent_instance;

  /* template widgets */
  GtkWidget *box;
  GtkListBox *list_box;

  /* owned */
  GPtrArray *uris;              /* char *: the URI of each row, top to bottom */

  /* borrowed */
  GtkRecentManager *manager;
};

G_DEFINE_FINAL_TYPE (CsRecentList, cs_recent_list, GTK_TYPE_WIDGET)

static int
compare_visited (gconstpointer a,
                 gconstpointer b)
{
  GtkRecentInfo *info_a = *(GtkRecentInfo **) a;
  GtkRecentInfo *info_b = *(GtkRecentInfo **) b;
  gint64 visited_a = g_date_time_to_unix (gtk_recent_info_get_modified (info_a));
  gint64 visited_b = g_date_time_to_unix (gtk_recent_info_get_modified (info_b));

  return visited_a < visited_b ? 1 : visited_a > visited_b ? -1 : 0;
}

/* Appends a recording's line to @list: cs-recent-row.ui with its name and
 * folder (the list takes it before the builder lets it go). */
static void
append_row (GtkListBox    *list,
            GtkRecentInfo *info)
{
  g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *folder = parent != NULL ? g_file_get_path (parent) : NULL;
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-recent-row.ui");
  GtkWidget *row = GTK_WIDGET (gtk_builder_get_object (builder, "row"));

  gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "title")), name);
  gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "subtitle")), folder);
  gtk_widget_set_tooltip_text (row, folder);
  gtk_list_box_append (list, row);
}

static void
cs_recent_list_reload (CsRecentList *self)
{
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *items = gtk_recent_manager_get_items (self->manager);
  GtkWidget *child;

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (gtk_recent_info_has_application (info, CS_RECENT_APP_NAME) &&
          gtk_recent_info_is_local (info) && gtk_recent_info_exists (info))
        g_ptr_array_add (infos, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (infos, compare_visited);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) != NULL)
    gtk_list_box_remove (self->list_box, child);
  g_ptr_array_set_size (self->uris, 0);

  for (guint i = 0; i < infos->len && i < CS_RECENT_MAX_ITEMS; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (infos, i);

      append_row (self->list_box, info);
      g_ptr_array_add (self->uris, g_strdup (gtk_recent_info_get_uri (info)));
    }
  gtk_widget_set_visible (self->box, self->uris->len > 0);
}

static void
row_activated_cb (CsRecentList  *self,
                  GtkListBoxRow *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (index < 0 || (guint) index >= self->uris->len)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-recent", "s",
                              g_ptr_array_index (self->uris, index));
}

static void
cs_recent_list_dispose (GObject *object)
{
  CsRecentList *self = CS_RECENT_LIST (object);

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  self->manager = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_RECENT_LIST);

  G_OBJECT_CLASS (cs_recent_list_parent_class)->dispose (object);
}

static void
cs_recent_list_finalize (GObject *object)
{
  CsRecentList *self = CS_RECENT_LIST (object);

  g_ptr_array_unref (self->uris);

  G_OBJECT_CLASS (cs_recent_list_parent_class)->finalize (object);
}

static void
cs_recent_list_class_init (CsRecentListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_recent_list_dispose;
  object_class->finalize = cs_recent_list_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "recentlist");

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-recent-list.ui");
  gtk_widget_class_bind_template_child (widget_class, CsRecentList, box);
  gtk_widget_class_bind_template_child (widget_class, CsRecentList, list_box);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
cs_recent_list_init (CsRecentList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->uris = g_ptr_array_new_with_free_func (g_free);
  self->manager = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->manager, "changed", G_CALLBACK (cs_recent_list_reload), self,
                           G_CONNECT_SWAPPED);
  cs_recent_list_reload (self);
}

/**
 * cs_recent_list_new:
 *
 * Returns: (transfer floating): a list of the recordings opened lately,
 *   following the default #GtkRecentManager
 */
GtkWidget *
cs_recent_list_new (void)
{
  return g_object_new (CS_TYPE_RECENT_LIST, NULL);
}

/**
 * cs_recent_list_get_n_items:
 * @self: a #CsRecentList
 *
 * Returns: how many recordings the list shows, 0 .. %CS_RECENT_MAX_ITEMS
 */
guint
cs_recent_list_get_n_items (CsRecentList *self)
{
  g_return_val_if_fail (CS_IS_RECENT_LIST (self), 0);

  return self->uris->len;
}

/**
 * cs_recent_list_dup_uri:
 * @self: a #CsRecentList
 * @index: a row, 0 (the latest) .. cs_recent_list_get_n_items() - 1
 *
 * Returns: (transfer full) (nullable): the URI of the recording in row
 *   @index, or %NULL when there is no such row
 */
char *
cs_recent_list_dup_uri (CsRecentList *self,
                        guint         index)
{
  g_return_val_if_fail (CS_IS_RECENT_LIST (self), NULL);

  return index < self->uris->len ? g_strdup (g_ptr_array_index (self->uris, index)) : NULL;
}

/**
 * cs_recent_list_add_file:
 * @file: a recording that opened
 *
 * Adds @file to the default #GtkRecentManager as a recording of
 * Chronoscope (MIME type application/x-trace-cmd), so that it is listed
 * here and in the desktop's recent files.  The manager writes
 * recently-used.xbel in the background (main thread only).
 */
void
cs_recent_list_add_file (GFile *file)
{
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) "application/x-trace-cmd",
    .app_name = (char *) CS_RECENT_APP_NAME,
    .app_exec = (char *) "chronoscope %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}
