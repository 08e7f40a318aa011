/* cs-record-event-tree.c: the record panel's tree of trace events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The events of tracefs `available_events`, grouped by system, with a
 * search over both levels.  A system's check box records the whole system
 * (-e sched): its events show ticked and cannot be unticked one by one.  An
 * event's check box records that event (-e sched:sched_switch).  The filter
 * entry under the tree belongs to the selected row; typing a filter ticks
 * the row.  The state is kept by key ("sched", "sched:sched_switch"), not in
 * the rows, so that it survives searches and a new list of events.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-record-event-tree.h"

struct _CsRecordEventTree
{
  GtkBox parent_instance;

  /* template widgets */
  GtkSearchEntry *search_entry;
  GtkListView *event_view;
  GtkLabel *filter_label;
  GtkEntry *filter_entry;

  /* owned */
  GtkStringList *systems;
  GHashTable *events_by_system;   /* system → GtkStringList of "system:event" */
  GtkCustomFilter *system_filter;
  GtkCustomFilter *event_filter;
  GtkTreeListModel *tree;
  GHashTable *enabled;            /* key → TRUE */
  GHashTable *filters;            /* key → filter text */
  char *selected_key;
  char *search;                   /* case-folded, NULL when empty */
  gboolean updating_filter_entry;
};

G_DEFINE_FINAL_TYPE (CsRecordEventTree, cs_record_event_tree, GTK_TYPE_BOX)

static char *
system_of (const char *key)
{
  const char *colon = strchr (key, ':');

  return colon != NULL ? g_strndup (key, (gsize) (colon - key)) : g_strdup (key);
}

static int
compare_keys (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* ------------------------------------------------------------------------ */
/* Models and search                                                         */

static gboolean
contains (const char *haystack, const char *needle)
{
  g_autofree char *folded = g_utf8_casefold (haystack, -1);

  return strstr (folded, needle) != NULL;
}

static gboolean
event_filter_func (gpointer item, gpointer user_data)
{
  CsRecordEventTree *self = user_data;

  return self->search == NULL || contains (gtk_string_object_get_string (item), self->search);
}

static gboolean
system_filter_func (gpointer item, gpointer user_data)
{
  CsRecordEventTree *self = user_data;
  const char *system = gtk_string_object_get_string (item);
  GListModel *events;

  if (self->search == NULL || contains (system, self->search))
    return TRUE;
  events = g_hash_table_lookup (self->events_by_system, system);
  for (guint i = 0; events != NULL && i < g_list_model_get_n_items (events); i++)
    if (contains (gtk_string_list_get_string (GTK_STRING_LIST (events), i), self->search))
      return TRUE;
  return FALSE;
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  CsRecordEventTree *self = user_data;
  const char *key = gtk_string_object_get_string (item);
  GListModel *events;

  if (strchr (key, ':') != NULL)
    return NULL;
  events = g_hash_table_lookup (self->events_by_system, key);
  if (events == NULL)
    return NULL;
  return G_LIST_MODEL (gtk_filter_list_model_new (g_object_ref (events),
                                                  g_object_ref (GTK_FILTER (self->event_filter))));
}

/* Re-binds the rows showing @key's system and its events. */
static void
refresh_key (CsRecordEventTree *self, const char *key)
{
  g_autofree char *system = system_of (key);
  GListModel *events = g_hash_table_lookup (self->events_by_system, system);
  guint n;

  if (events == NULL)
    return;
  n = g_list_model_get_n_items (events);
  g_list_model_items_changed (events, 0, n, n);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->systems)); i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->systems, i), system) == 0)
      {
        g_list_model_items_changed (G_LIST_MODEL (self->systems), i, 1, 1);
        break;
      }
}

static void
search_changed_cb (CsRecordEventTree *self)
{
  cs_record_event_tree_set_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* ------------------------------------------------------------------------ */
/* Rows                                                                      */

static const char *
row_key (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  /* The string lives as long as its list, which outlives the row. */
  return item != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
}

static void
check_toggled_cb (GtkCheckButton *check, GtkListItem *list_item)
{
  CsRecordEventTree *self = g_object_get_data (G_OBJECT (check), "cs-tree");
  const char *key = row_key (list_item);

  if (key == NULL || g_object_get_data (G_OBJECT (check), "cs-binding") != NULL)
    return;
  if (gtk_check_button_get_active (check))
    g_hash_table_add (self->enabled, g_strdup (key));
  else
    g_hash_table_remove (self->enabled, key);
  if (strchr (key, ':') == NULL)
    refresh_key (self, key);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, CsRecordEventTree *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *mark = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (mark, "dim-label");
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), mark);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
  g_object_set_data (G_OBJECT (check), "cs-tree", self);
  g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), list_item);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, CsRecordEventTree *self)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *check = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (check);
  GtkWidget *mark = gtk_widget_get_next_sibling (label);
  const char *key = row_key (list_item);
  const char *colon = key != NULL ? strchr (key, ':') : NULL;
  g_autofree char *system = key != NULL ? system_of (key) : NULL;
  gboolean system_on = system != NULL && g_hash_table_contains (self->enabled, system);
  const char *filter = key != NULL ? g_hash_table_lookup (self->filters, key) : NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (list_item));
  if (key == NULL)
    return;

  gtk_label_set_label (GTK_LABEL (label), colon != NULL ? colon + 1 : key);
  gtk_label_set_label (GTK_LABEL (mark), filter != NULL && *filter != '\0' ? _("filtered") : "");
  g_object_set_data (G_OBJECT (check), "cs-binding", GINT_TO_POINTER (1));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                               g_hash_table_contains (self->enabled, key) || (colon != NULL && system_on));
  gtk_widget_set_sensitive (check, colon == NULL || !system_on);
  g_object_set_data (G_OBJECT (check), "cs-binding", NULL);
}

static void
selection_changed_cb (GtkSingleSelection *selection, GParamSpec *pspec, CsRecordEventTree *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (selection);
  g_autoptr(GObject) item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  const char *key = item != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
  g_autofree char *label = NULL;
  const char *filter;

  g_free (self->selected_key);
  self->selected_key = g_strdup (key);
  gtk_widget_set_sensitive (GTK_WIDGET (self->filter_entry), key != NULL);
  if (key == NULL)
    return;

  /* TRANSLATORS: "Filter for sched:sched_switch" */
  label = g_strdup_printf (_("Filter for %s"), key);
  gtk_label_set_label (self->filter_label, label);
  filter = g_hash_table_lookup (self->filters, key);
  self->updating_filter_entry = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), filter != NULL ? filter : "");
  self->updating_filter_entry = FALSE;
}

static void
filter_changed_cb (CsRecordEventTree *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));

  if (self->updating_filter_entry || self->selected_key == NULL)
    return;
  g_hash_table_insert (self->filters, g_strdup (self->selected_key), g_strdup (text));
  /* A filter means the event is wanted. */
  if (*text != '\0')
    g_hash_table_add (self->enabled, g_strdup (self->selected_key));
  refresh_key (self, self->selected_key);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_record_event_tree_set_available:
 * @self: a #CsRecordEventTree
 * @events: (array zero-terminated=1) (nullable): "system:event" names, as in
 *   tracefs `available_events`
 *
 * Shows these events, grouped by system and sorted.  Ticks and filters are
 * kept.
 */
void
cs_record_event_tree_set_available (CsRecordEventTree  *self,
                                    const char * const *events)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GtkStringList) systems = gtk_string_list_new (NULL);
  guint n_old;

  g_return_if_fail (CS_IS_RECORD_EVENT_TREE (self));

  for (guint i = 0; events != NULL && events[i] != NULL; i++)
    if (strchr (events[i], ':') != NULL)
      g_ptr_array_add (sorted, (gpointer) events[i]);
  g_ptr_array_sort (sorted, compare_keys);

  /* The roots go first, so no child model of an old system stays shown. */
  n_old = g_list_model_get_n_items (G_LIST_MODEL (self->systems));
  gtk_string_list_splice (self->systems, 0, n_old, NULL);
  g_hash_table_remove_all (self->events_by_system);

  for (guint i = 0; i < sorted->len; i++)
    {
      const char *key = g_ptr_array_index (sorted, i);
      g_autofree char *system = system_of (key);
      GtkStringList *list = g_hash_table_lookup (self->events_by_system, system);

      if (list == NULL)
        {
          list = gtk_string_list_new (NULL);
          g_hash_table_insert (self->events_by_system, g_strdup (system), list);
          gtk_string_list_append (systems, system);
        }
      gtk_string_list_append (list, key);
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (systems)); i++)
    gtk_string_list_append (self->systems, gtk_string_list_get_string (systems, i));
}

/**
 * cs_record_event_tree_get_n_systems:
 * @self: a #CsRecordEventTree
 *
 * Returns: how many systems the tree lists
 */
guint
cs_record_event_tree_get_n_systems (CsRecordEventTree *self)
{
  g_return_val_if_fail (CS_IS_RECORD_EVENT_TREE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->systems));
}

/**
 * cs_record_event_tree_get_n_rows:
 * @self: a #CsRecordEventTree
 *
 * Returns: how many rows the tree shows now (after the search, with the
 *   expanded systems' events)
 */
guint
cs_record_event_tree_get_n_rows (CsRecordEventTree *self)
{
  g_return_val_if_fail (CS_IS_RECORD_EVENT_TREE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->tree));
}

/**
 * cs_record_event_tree_set_search:
 * @self: a #CsRecordEventTree
 * @text: what to look for in system and event names (case-insensitive);
 *   "" shows everything
 *
 * Filters the tree; systems with matching events open.
 */
void
cs_record_event_tree_set_search (CsRecordEventTree *self,
                                 const char        *text)
{
  g_return_if_fail (CS_IS_RECORD_EVENT_TREE (self));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && *text != '\0')
    self->search = g_utf8_casefold (text, -1);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  gtk_tree_list_model_set_autoexpand (self->tree, self->search != NULL);
  gtk_filter_changed (GTK_FILTER (self->event_filter), GTK_FILTER_CHANGE_DIFFERENT);
  gtk_filter_changed (GTK_FILTER (self->system_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/**
 * cs_record_event_tree_set_event:
 * @self: a #CsRecordEventTree
 * @key: a system ("sched") or an event ("sched:sched_switch")
 * @enabled: whether to record it
 * @filter: (nullable): its filter in tracefs syntax, or %NULL for none
 *
 * Ticks an event or system, as a click would.
 */
void
cs_record_event_tree_set_event (CsRecordEventTree *self,
                                const char        *key,
                                gboolean           enabled,
                                const char        *filter)
{
  g_return_if_fail (CS_IS_RECORD_EVENT_TREE (self));
  g_return_if_fail (key != NULL);

  if (enabled)
    g_hash_table_add (self->enabled, g_strdup (key));
  else
    g_hash_table_remove (self->enabled, key);
  if (filter != NULL)
    g_hash_table_insert (self->filters, g_strdup (key), g_strdup (filter));
  else
    g_hash_table_remove (self->filters, key);
  refresh_key (self, key);
}

/**
 * cs_record_event_tree_get_enabled:
 * @self: a #CsRecordEventTree
 * @key: a system or an event
 *
 * Returns: whether @key is ticked (an event also counts as ticked when its
 *   system is)
 */
gboolean
cs_record_event_tree_get_enabled (CsRecordEventTree *self,
                                  const char        *key)
{
  g_autofree char *system = NULL;

  g_return_val_if_fail (CS_IS_RECORD_EVENT_TREE (self), FALSE);

  system = system_of (key);
  return g_hash_table_contains (self->enabled, key) || g_hash_table_contains (self->enabled, system);
}

/**
 * cs_record_event_tree_restore:
 * @self: a #CsRecordEventTree
 * @enabled: (array zero-terminated=1): ticked keys, as from
 *   cs_record_event_tree_dup_enabled()
 * @filters: (nullable): an `a{ss}` of key → filter
 *
 * Restores remembered ticks and filters (the GSettings record-events and
 * record-filters).
 */
void
cs_record_event_tree_restore (CsRecordEventTree  *self,
                              const char * const *enabled,
                              GVariant           *filters)
{
  GVariantIter iter;
  const char *key, *value;

  g_return_if_fail (CS_IS_RECORD_EVENT_TREE (self));

  g_hash_table_remove_all (self->enabled);
  g_hash_table_remove_all (self->filters);
  for (guint i = 0; enabled != NULL && enabled[i] != NULL; i++)
    g_hash_table_add (self->enabled, g_strdup (enabled[i]));
  if (filters != NULL)
    {
      g_variant_iter_init (&iter, filters);
      while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
        g_hash_table_insert (self->filters, g_strdup (key), g_strdup (value));
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->systems)); i++)
    refresh_key (self, gtk_string_list_get_string (self->systems, i));
}

/**
 * cs_record_event_tree_dup_enabled:
 * @self: a #CsRecordEventTree
 *
 * Returns: (transfer full) (array zero-terminated=1): the ticked keys,
 *   sorted
 */
char **
cs_record_event_tree_dup_enabled (CsRecordEventTree *self)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (CS_IS_RECORD_EVENT_TREE (self), NULL);

  g_hash_table_iter_init (&iter, self->enabled);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  g_ptr_array_sort (keys, compare_keys);
  g_ptr_array_add (keys, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&keys), FALSE);
}

/**
 * cs_record_event_tree_dup_filters:
 * @self: a #CsRecordEventTree
 *
 * Returns: (transfer full): the non-empty filters, an `a{ss}` of key →
 *   filter, floating
 */
GVariant *
cs_record_event_tree_dup_filters (CsRecordEventTree *self)
{
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (CS_IS_RECORD_EVENT_TREE (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&iter, self->filters);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(const char *) value != '\0')
      g_variant_builder_add (&builder, "{ss}", key, value);
  return g_variant_builder_end (&builder);
}

/**
 * cs_record_event_tree_add_to_options:
 * @self: a #CsRecordEventTree
 * @options: options to add the ticked events to
 *
 * Adds every ticked system (-e system) and every ticked event whose system
 * is not ticked (-e system:event), each with its filter (-f).
 */
void
cs_record_event_tree_add_to_options (CsRecordEventTree *self,
                                     CsRecordOptions   *options)
{
  g_auto(GStrv) keys = NULL;

  g_return_if_fail (CS_IS_RECORD_EVENT_TREE (self));

  keys = cs_record_event_tree_dup_enabled (self);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *system = system_of (keys[i]);

      if (strchr (keys[i], ':') != NULL && g_hash_table_contains (self->enabled, system))
        continue;
      cs_record_options_add_event (options, keys[i], g_hash_table_lookup (self->filters, keys[i]));
    }
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_record_event_tree_dispose (GObject *object)
{
  CsRecordEventTree *self = CS_RECORD_EVENT_TREE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_RECORD_EVENT_TREE);
  g_clear_object (&self->tree);

  G_OBJECT_CLASS (cs_record_event_tree_parent_class)->dispose (object);
}

static void
cs_record_event_tree_finalize (GObject *object)
{
  CsRecordEventTree *self = CS_RECORD_EVENT_TREE (object);

  g_clear_object (&self->system_filter);
  g_clear_object (&self->event_filter);
  g_clear_object (&self->systems);
  g_hash_table_unref (self->events_by_system);
  g_hash_table_unref (self->enabled);
  g_hash_table_unref (self->filters);
  g_free (self->selected_key);
  g_free (self->search);

  G_OBJECT_CLASS (cs_record_event_tree_parent_class)->finalize (object);
}

static void
cs_record_event_tree_class_init (CsRecordEventTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_record_event_tree_dispose;
  object_class->finalize = cs_record_event_tree_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-record-event-tree.ui");
  gtk_widget_class_bind_template_child (widget_class, CsRecordEventTree, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordEventTree, event_view);
  gtk_widget_class_bind_template_child (widget_class, CsRecordEventTree, filter_label);
  gtk_widget_class_bind_template_child (widget_class, CsRecordEventTree, filter_entry);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
}

static void
cs_record_event_tree_init (CsRecordEventTree *self)
{
  GtkListItemFactory *factory;
  GtkFilterListModel *roots;
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->enabled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->filters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->events_by_system = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->systems = gtk_string_list_new (NULL);
  self->system_filter = gtk_custom_filter_new (system_filter_func, self, NULL);
  self->event_filter = gtk_custom_filter_new (event_filter_func, self, NULL);

  roots = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->systems)),
                                     g_object_ref (GTK_FILTER (self->system_filter)));
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (roots), FALSE, FALSE, create_children, self, NULL);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  g_signal_connect (selection, "notify::selected-item", G_CALLBACK (selection_changed_cb), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  gtk_list_view_set_factory (self->event_view, factory);
  gtk_list_view_set_model (self->event_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (factory);
  g_object_unref (selection);
}
