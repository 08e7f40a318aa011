/* cs-filter-dialog.c: the event filter dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * KernelShark's filter dialogs in one window: pages for tasks, event types
 * (a tree by system) and CPUs, each with "show all / show only checked /
 * hide checked" and a search, and an advanced page for an expression in
 * libtraceevent's filter syntax, checked as it is typed
 * (cs_event_filter_set_expression()) with the parser's own message when it
 * is wrong.  Below the pages: where the filter applies (event list,
 * timeline) and whether the timeline dims or hides filtered events.
 *
 * Nothing changes until Apply, which builds one CsEventFilter and gives it
 * to CsAnalysis; the event list then counts the passing events in the
 * background and the window's filter bar shows the progress.  "Clear All"
 * applies an empty filter at once.
 *
 * The layout is the template cs-filter-dialog.ui; this file fills the
 * lists (their models and rows) and keeps the behaviour.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-filter-dialog.h"
#include "cs-filter-item.h"
#include "cs-format.h"

#define VALIDATE_DELAY_MS 250

/* ------------------------------------------------------------------------ */
/* The dialog                                                                */

typedef struct {
  CsFilterField field;
  GtkWidget *page;            /* template widgets */
  GtkDropDown *mode;
  GtkWidget *list;
  GListStore *items;          /* root items */
  GtkCustomFilter *filter;    /* the search */
  char *search;
} Section;

struct _CsFilterDialog
{
  GtkWindow parent_instance;

  /* template widgets (and each section's page, mode and list) */
  GtkStack *stack;
  GtkEntry *expression_entry;
  GtkLabel *expression_status;
  GtkCheckButton *list_check;
  GtkCheckButton *timeline_check;
  GtkDropDown *timeline_style;

  /* owned */
  CsAnalysis *analysis;
  Section sections[CS_FILTER_N_FIELDS];
  char *error_message;
  guint validate_id;
};

G_DEFINE_FINAL_TYPE (CsFilterDialog, cs_filter_dialog, GTK_TYPE_WINDOW)

static const char * const page_names[] = { "tasks", "events", "cpus", "advanced" };

/* The template's pages of each set, in cs-filter-dialog.ui: "tasks_page",
 * "tasks_mode", "tasks_list" and so on. */
static const struct {
  CsFilterField field;
  CsFilterPage page;
  gboolean tree;
} section_pages[] = {
  { CS_FILTER_PID, CS_FILTER_PAGE_TASKS, FALSE },
  { CS_FILTER_TYPE, CS_FILTER_PAGE_EVENTS, TRUE },
  { CS_FILTER_CPU, CS_FILTER_PAGE_CPUS, FALSE },
};

static Section *
section_for_field (CsFilterDialog *self, CsFilterField field)
{
  return &self->sections[field];
}

/* The section whose page holds @widget (a template callback's sender). */
static Section *
section_for_widget (CsFilterDialog *self, GtkWidget *widget)
{
  for (guint i = 0; i < CS_FILTER_N_FIELDS; i++)
    if (gtk_widget_is_ancestor (widget, self->sections[i].page))
      return &self->sections[i];
  g_return_val_if_reached (NULL);
}

static void
section_update_sensitive (Section *section)
{
  gtk_widget_set_sensitive (section->list, gtk_drop_down_get_selected (section->mode) != CS_FILTER_ALL);
}

static CsFilterItem *
section_find (Section *section, gint64 value)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (section->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsFilterItem) item = g_list_model_get_item (G_LIST_MODEL (section->items), i);

      if (item->children != NULL)
        {
          guint n_children = g_list_model_get_n_items (G_LIST_MODEL (item->children));

          for (guint j = 0; j < n_children; j++)
            {
              g_autoptr(CsFilterItem) child = g_list_model_get_item (G_LIST_MODEL (item->children), j);

              if (child->value == value)
                return child;  /* the store keeps it alive */
            }
        }
      else if (item->value == value)
        return item;
    }
  return NULL;
}

static void
section_collect (Section *section, CsEventFilter *filter)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (section->items));
  CsFilterMode mode = gtk_drop_down_get_selected (section->mode);

  cs_event_filter_set_mode (filter, section->field, mode);
  if (mode == CS_FILTER_ALL)
    return;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsFilterItem) item = g_list_model_get_item (G_LIST_MODEL (section->items), i);

      if (item->children != NULL)
        {
          guint n_children = g_list_model_get_n_items (G_LIST_MODEL (item->children));

          for (guint j = 0; j < n_children; j++)
            {
              g_autoptr(CsFilterItem) child = g_list_model_get_item (G_LIST_MODEL (item->children), j);

              if (child->checked)
                cs_event_filter_add (filter, section->field, child->value);
            }
        }
      else if (item->checked)
        cs_event_filter_add (filter, section->field, item->value);
    }
}

/* Rows -------------------------------------------------------------------- */

static CsFilterItem *
list_item_get_filter_item (GtkListItem *list_item)
{
  gpointer item = gtk_list_item_get_item (list_item);

  if (GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);  /* (transfer full) */
  return item != NULL ? g_object_ref (item) : NULL;
}

static void
row_check_toggled_cb (GtkCheckButton *check, GtkListItem *list_item)
{
  g_autoptr(CsFilterItem) item = list_item_get_filter_item (list_item);

  if (item != NULL && gtk_check_button_get_active (check) != item->checked)
    cs_filter_item_set_checked (item, gtk_check_button_get_active (check));
}

static void
setup_row_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer tree)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_label_set_xalign (GTK_LABEL (detail), 1.0f);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_add_css_class (detail, "numeric");
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), detail);
  g_signal_connect (check, "toggled", G_CALLBACK (row_check_toggled_cb), list_item);

  if (GPOINTER_TO_INT (tree))
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, box);
  gtk_list_item_set_activatable (list_item, FALSE);
}

static GtkWidget *
row_get_box (GtkListItem *list_item)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (GTK_IS_TREE_EXPANDER (child))
    return gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
  return child;
}

static void
item_state_cb (CsFilterItem *item, GParamSpec *pspec, GtkCheckButton *check)
{
  gtk_check_button_set_inconsistent (check, item->inconsistent);
  gtk_check_button_set_active (check, item->checked);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer tree)
{
  g_autoptr(CsFilterItem) item = list_item_get_filter_item (list_item);
  GtkWidget *box = row_get_box (list_item);
  GtkWidget *check = gtk_widget_get_first_child (box);
  GtkWidget *name = gtk_widget_get_next_sibling (check);
  GtkWidget *detail = gtk_widget_get_next_sibling (name);

  if (GTK_IS_TREE_EXPANDER (gtk_list_item_get_child (list_item)))
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)),
                                    gtk_list_item_get_item (list_item));

  gtk_label_set_label (GTK_LABEL (name), item->name);
  gtk_label_set_label (GTK_LABEL (detail), item->detail);
  if (item->children != NULL)
    gtk_widget_add_css_class (name, "heading");
  else
    gtk_widget_remove_css_class (name, "heading");
  item_state_cb (item, NULL, GTK_CHECK_BUTTON (check));
  g_signal_connect_object (item, "notify::checked", G_CALLBACK (item_state_cb), check, 0);
  g_signal_connect_object (item, "notify::inconsistent", G_CALLBACK (item_state_cb), check, 0);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer tree)
{
  g_autoptr(CsFilterItem) item = list_item_get_filter_item (list_item);

  if (item != NULL)
    g_signal_handlers_disconnect_by_func (item, item_state_cb,
                                          gtk_widget_get_first_child (row_get_box (list_item)));
}

static gboolean
match_item (gpointer item, gpointer user_data)
{
  Section *section = user_data;

  return cs_filter_item_matches (item, section->search);
}

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  CsFilterItem *filter_item = item;
  Section *section = user_data;

  if (filter_item->children == NULL)
    return NULL;
  return G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (filter_item->children)),
                                                  GTK_FILTER (g_object_ref (section->filter))));
}

static void
search_changed_cb (GtkSearchEntry *entry, CsFilterDialog *self)
{
  Section *section = section_for_widget (self, GTK_WIDGET (entry));

  g_free (section->search);
  section->search = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (entry)), -1);
  g_strstrip (section->search);
  gtk_filter_changed (GTK_FILTER (section->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
mode_changed_cb (CsFilterDialog *self)
{
  for (guint i = 0; i < CS_FILTER_N_FIELDS; i++)
    section_update_sensitive (&self->sections[i]);
}

/* Checks or unchecks what the search of @button's page shows. */
static void
set_shown_checked (CsFilterDialog *self, GtkButton *button, gboolean checked)
{
  Section *section = section_for_widget (self, GTK_WIDGET (button));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (section->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsFilterItem) item = g_list_model_get_item (G_LIST_MODEL (section->items), i);

      if (cs_filter_item_matches (item, section->search))
        cs_filter_item_set_checked (item, checked);
    }
}

static void
check_shown_clicked_cb (GtkButton *button, CsFilterDialog *self)
{
  set_shown_checked (self, button, TRUE);
}

static void
uncheck_shown_clicked_cb (GtkButton *button, CsFilterDialog *self)
{
  set_shown_checked (self, button, FALSE);
}

/* A set's page comes from the template; its list's model and rows from
 * here: the items, filtered by the search, as a tree of systems for the
 * event types. */
static void
init_section (CsFilterDialog *self, CsFilterField field, gboolean tree)
{
  Section *section = section_for_field (self, field);
  GtkListItemFactory *factory;
  GListModel *model;

  section->field = field;
  section->items = g_list_store_new (CS_TYPE_FILTER_ITEM);
  section->filter = gtk_custom_filter_new (match_item, section, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), GINT_TO_POINTER (tree));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), GINT_TO_POINTER (tree));
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), GINT_TO_POINTER (tree));

  model = G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (section->items)),
                                                   GTK_FILTER (g_object_ref (section->filter))));
  if (tree)
    model = G_LIST_MODEL (gtk_tree_list_model_new (model, FALSE, FALSE, create_children, section, NULL));
  gtk_list_view_set_model (GTK_LIST_VIEW (section->list), GTK_SELECTION_MODEL (gtk_no_selection_new (model)));
  gtk_list_view_set_factory (GTK_LIST_VIEW (section->list), factory);
  g_object_unref (factory);

  section_update_sensitive (section);
}

/* Filling from the recording and the current filter ---------------------- */

static void
fill_tasks (CsFilterDialog *self, CsDocument *document)
{
  Section *section = section_for_field (self, CS_FILTER_PID);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    {
      const CsTask *task = cs_document_get_task (document, i);
      g_autofree char *count = cs_format_count (task->n_events);
      g_autofree char *detail = NULL;
      g_autofree char *name = NULL;

      name = task->pid == 0 ? g_strdup (_("idle")) : g_strdup (task->comm != NULL ? task->comm : "<…>");
      /* TRANSLATORS: beside a task in the filter dialog, "pid 1234 · 56 events" */
      detail = g_strdup_printf (ngettext ("pid %d · %s event", "pid %d · %s events", (gulong) task->n_events),
                                task->pid, count);
      g_ptr_array_add (items, cs_filter_item_new (task->pid, name, detail));
    }
  g_list_store_splice (section->items, 0, 0, items->pdata, items->len);
}

static int
compare_types (gconstpointer a, gconstpointer b)
{
  const CsEventType *ta = *(const CsEventType * const *) a;
  const CsEventType *tb = *(const CsEventType * const *) b;
  int result = g_strcmp0 (ta->system, tb->system);

  return result != 0 ? result : g_strcmp0 (ta->name, tb->name);
}

static void
fill_events (CsFilterDialog *self, CsDocument *document)
{
  Section *section = section_for_field (self, CS_FILTER_TYPE);
  g_autoptr(GPtrArray) types = g_ptr_array_new ();
  CsFilterItem *group = NULL;
  guint64 group_events = 0;

  for (guint i = 0; i < cs_document_get_n_event_types (document); i++)
    g_ptr_array_add (types, (gpointer) cs_document_get_event_type (document, i));
  g_ptr_array_sort (types, compare_types);

  for (guint i = 0; i <= types->len; i++)
    {
      const CsEventType *type = i < types->len ? g_ptr_array_index (types, i) : NULL;
      g_autofree char *count = NULL;
      g_autofree char *detail = NULL;
      CsFilterItem *item;

      if (group != NULL && (type == NULL || g_strcmp0 (type->system, group->name) != 0))
        {
          count = cs_format_count (group_events);
          detail = g_strdup_printf (ngettext ("%s event", "%s events", (gulong) group_events), count);
          cs_filter_item_set_detail (group, detail);
          g_clear_pointer (&count, g_free);
          g_clear_pointer (&detail, g_free);
          g_list_store_append (section->items, group);
          g_clear_object (&group);
        }
      if (type == NULL)
        break;
      if (group == NULL)
        {
          group = cs_filter_item_new_group (type->system);
          group_events = 0;
        }
      count = cs_format_count (type->n_events);
      detail = g_strdup_printf (ngettext ("%s event", "%s events", (gulong) type->n_events), count);
      item = cs_filter_item_new (type->id, type->name, detail);
      cs_filter_item_add_child (group, item);
      g_object_unref (item);
      group_events += type->n_events;
    }
}

static void
fill_cpus (CsFilterDialog *self, CsDocument *document)
{
  Section *section = section_for_field (self, CS_FILTER_CPU);

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (document); cpu++)
    {
      const CsCpuInfo *info = cs_document_get_cpu (document, cpu);
      g_autofree char *name = g_strdup_printf (_("CPU %u"), cpu);
      g_autofree char *count = cs_format_count (info->n_events);
      g_autofree char *detail = NULL;
      g_autoptr(CsFilterItem) item = NULL;

      detail = info->n_events == 0 ? g_strdup (_("idle"))
                                   : g_strdup_printf (ngettext ("%s event", "%s events", (gulong) info->n_events), count);
      item = cs_filter_item_new (cpu, name, detail);
      g_list_store_append (section->items, item);
    }
}

static void
load_filter (CsFilterDialog *self, CsEventFilter *filter)
{
  for (CsFilterField field = 0; field < CS_FILTER_N_FIELDS; field++)
    {
      Section *section = section_for_field (self, field);
      g_autoptr(GArray) values = cs_event_filter_dup_values (filter, field);

      gtk_drop_down_set_selected (section->mode, cs_event_filter_get_mode (filter, field));
      for (guint i = 0; i < values->len; i++)
        {
          CsFilterItem *item = section_find (section, g_array_index (values, gint64, i));

          if (item != NULL)
            cs_filter_item_set_checked (item, TRUE);
        }
    }
  gtk_editable_set_text (GTK_EDITABLE (self->expression_entry),
                         cs_event_filter_get_expression (filter) != NULL
                           ? cs_event_filter_get_expression (filter) : "");
}

/* The expression ----------------------------------------------------------- */

static void
cs_filter_dialog_show_status (CsFilterDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->expression_entry));

  gtk_widget_remove_css_class (GTK_WIDGET (self->expression_status), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->expression_status), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->expression_entry), "error");

  if (self->error_message != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("This expression cannot be used: %s"),
                                                  self->error_message);

      gtk_label_set_label (self->expression_status, message);
      gtk_widget_add_css_class (GTK_WIDGET (self->expression_status), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->expression_entry), "error");
    }
  else if (*text != '\0')
    {
      gtk_label_set_label (self->expression_status, _("The expression is valid."));
      gtk_widget_add_css_class (GTK_WIDGET (self->expression_status), "success");
    }
  else
    gtk_label_set_label (self->expression_status, "");
}

/* Compiles the expression against the recording's formats; remembers the
 * parser's message when it fails. */
static gboolean
cs_filter_dialog_validate (CsFilterDialog *self, CsEventFilter *filter)
{
  CsDocument *document = cs_analysis_get_document (self->analysis);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->expression_entry));
  g_autoptr(CsEventFilter) scratch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expression = g_strstrip (g_strdup (text));

  g_clear_pointer (&self->error_message, g_free);
  g_clear_handle_id (&self->validate_id, g_source_remove);

  if (filter == NULL)
    filter = scratch = cs_event_filter_new ();

  if (document != NULL &&
      !cs_event_filter_set_expression (filter, document, *expression != '\0' ? expression : NULL, &error))
    self->error_message = g_strdup (error->message);

  cs_filter_dialog_show_status (self);
  return self->error_message == NULL;
}

static gboolean
validate_timeout_cb (gpointer data)
{
  CsFilterDialog *self = data;

  self->validate_id = 0;
  cs_filter_dialog_validate (self, NULL);
  return G_SOURCE_REMOVE;
}

static void
expression_changed_cb (CsFilterDialog *self)
{
  g_clear_handle_id (&self->validate_id, g_source_remove);
  self->validate_id = g_timeout_add (VALIDATE_DELAY_MS, validate_timeout_cb, self);
}

/* Applying ----------------------------------------------------------------- */

/**
 * cs_filter_dialog_apply:
 * @self: a #CsFilterDialog
 *
 * What the Apply button does: builds the filter from the pages and gives it
 * to the window, with where it applies.  A bad expression is not applied:
 * its message shows on the advanced page, which comes forward.
 *
 * Returns: whether the filter was applied
 */
gboolean
cs_filter_dialog_apply (CsFilterDialog *self)
{
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  CsFilterTarget targets = 0;

  g_return_val_if_fail (CS_IS_FILTER_DIALOG (self), FALSE);

  for (CsFilterField field = 0; field < CS_FILTER_N_FIELDS; field++)
    section_collect (section_for_field (self, field), filter);

  if (!cs_filter_dialog_validate (self, filter))
    {
      gtk_stack_set_visible_child_name (self->stack, page_names[CS_FILTER_PAGE_ADVANCED]);
      gtk_widget_grab_focus (GTK_WIDGET (self->expression_entry));
      return FALSE;
    }

  if (gtk_check_button_get_active (self->list_check))
    targets |= CS_FILTER_TARGET_LIST;
  if (gtk_check_button_get_active (self->timeline_check))
    targets |= CS_FILTER_TARGET_TIMELINE;
  cs_analysis_set_hide_filtered (self->analysis, gtk_drop_down_get_selected (self->timeline_style) == 1);
  cs_analysis_set_filter_targets (self->analysis, targets);
  cs_analysis_set_filter (self->analysis, filter);
  return TRUE;
}

static void
apply_clicked_cb (CsFilterDialog *self)
{
  if (cs_filter_dialog_apply (self))
    gtk_window_close (GTK_WINDOW (self));
}

static void
clear_clicked_cb (CsFilterDialog *self)
{
  cs_analysis_set_filter (self->analysis, NULL);
  gtk_window_close (GTK_WINDOW (self));
}

static void
cs_filter_dialog_dispose (GObject *object)
{
  CsFilterDialog *self = CS_FILTER_DIALOG (object);

  g_clear_handle_id (&self->validate_id, g_source_remove);
  g_clear_object (&self->analysis);

  G_OBJECT_CLASS (cs_filter_dialog_parent_class)->dispose (object);
}

static void
cs_filter_dialog_finalize (GObject *object)
{
  CsFilterDialog *self = CS_FILTER_DIALOG (object);

  for (guint i = 0; i < CS_FILTER_N_FIELDS; i++)
    {
      g_clear_object (&self->sections[i].items);
      g_clear_object (&self->sections[i].filter);
      g_free (self->sections[i].search);
    }
  g_free (self->error_message);

  G_OBJECT_CLASS (cs_filter_dialog_parent_class)->finalize (object);
}

/* Binds the template's "tasks_mode" (and so on) to the member at
 * @member_offset of the Section of section_pages[@i]. */
static void
bind_section_child (GtkWidgetClass *widget_class, guint i, const char *what, gssize member_offset)
{
  g_autofree char *name = g_strdup_printf ("%s_%s", page_names[section_pages[i].page], what);

  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE,
                                             G_STRUCT_OFFSET (CsFilterDialog, sections)
                                             + section_pages[i].field * (gssize) sizeof (Section)
                                             + member_offset);
}

static void
cs_filter_dialog_class_init (CsFilterDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_filter_dialog_dispose;
  object_class->finalize = cs_filter_dialog_finalize;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-filter-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, expression_entry);
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, expression_status);
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, list_check);
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, timeline_check);
  gtk_widget_class_bind_template_child (widget_class, CsFilterDialog, timeline_style);
  for (guint i = 0; i < G_N_ELEMENTS (section_pages); i++)
    {
      bind_section_child (widget_class, i, "page", G_STRUCT_OFFSET (Section, page));
      bind_section_child (widget_class, i, "mode", G_STRUCT_OFFSET (Section, mode));
      bind_section_child (widget_class, i, "list", G_STRUCT_OFFSET (Section, list));
    }
  gtk_widget_class_bind_template_callback_full (widget_class, "gtk_window_close", G_CALLBACK (gtk_window_close));
  gtk_widget_class_bind_template_callback (widget_class, apply_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, expression_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, check_shown_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, uncheck_shown_clicked_cb);
}

static void
cs_filter_dialog_init (CsFilterDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (section_pages); i++)
    init_section (self, section_pages[i].field, section_pages[i].tree);
}

/**
 * cs_filter_dialog_new:
 * @parent: the main window
 * @analysis: (transfer none): its #CsAnalysis, whose recording and filter
 *   the dialog shows and whose filter Apply replaces
 *
 * Returns: (transfer floating): a modal dialog, not shown yet
 */
CsFilterDialog *
cs_filter_dialog_new (GtkWindow  *parent,
                      CsAnalysis *analysis)
{
  CsFilterDialog *self;
  CsDocument *document;
  CsFilterTarget targets;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (CS_IS_ANALYSIS (analysis), NULL);

  self = g_object_new (CS_TYPE_FILTER_DIALOG,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->analysis = g_object_ref (analysis);

  document = cs_analysis_get_document (analysis);
  if (document != NULL)
    {
      fill_tasks (self, document);
      fill_events (self, document);
      fill_cpus (self, document);
    }
  load_filter (self, cs_analysis_get_filter (analysis));
  g_clear_handle_id (&self->validate_id, g_source_remove);
  cs_filter_dialog_show_status (self);

  targets = cs_analysis_get_filter_targets (analysis);
  gtk_check_button_set_active (self->list_check, (targets & CS_FILTER_TARGET_LIST) != 0);
  gtk_check_button_set_active (self->timeline_check, (targets & CS_FILTER_TARGET_TIMELINE) != 0);
  gtk_drop_down_set_selected (self->timeline_style, cs_analysis_get_hide_filtered (analysis) ? 1 : 0);
  return self;
}

/**
 * cs_filter_dialog_set_page:
 * @self: a #CsFilterDialog
 * @page: the page to bring forward
 */
void
cs_filter_dialog_set_page (CsFilterDialog *self,
                           CsFilterPage    page)
{
  g_return_if_fail (CS_IS_FILTER_DIALOG (self));
  g_return_if_fail (page <= CS_FILTER_PAGE_ADVANCED);

  gtk_stack_set_visible_child_name (self->stack, page_names[page]);
}

/**
 * cs_filter_dialog_set_mode:
 * @self: a #CsFilterDialog
 * @field: a page's set
 * @mode: what its mode drop-down selects
 */
void
cs_filter_dialog_set_mode (CsFilterDialog *self,
                           CsFilterField   field,
                           CsFilterMode    mode)
{
  g_return_if_fail (CS_IS_FILTER_DIALOG (self));
  g_return_if_fail (field < CS_FILTER_N_FIELDS);

  gtk_drop_down_set_selected (section_for_field (self, field)->mode, mode);
}

/**
 * cs_filter_dialog_set_checked:
 * @self: a #CsFilterDialog
 * @field: a page's set
 * @value: a pid, event type id or CPU listed there
 * @checked: whether its box is checked
 */
void
cs_filter_dialog_set_checked (CsFilterDialog *self,
                              CsFilterField   field,
                              gint64          value,
                              gboolean        checked)
{
  CsFilterItem *item;

  g_return_if_fail (CS_IS_FILTER_DIALOG (self));
  g_return_if_fail (field < CS_FILTER_N_FIELDS);

  item = section_find (section_for_field (self, field), value);
  if (item != NULL)
    cs_filter_item_set_checked (item, checked);
}

/**
 * cs_filter_dialog_set_expression:
 * @self: a #CsFilterDialog
 * @expression: what the advanced page's entry holds; checked at once
 */
void
cs_filter_dialog_set_expression (CsFilterDialog *self,
                                 const char     *expression)
{
  g_return_if_fail (CS_IS_FILTER_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->expression_entry), expression != NULL ? expression : "");
  cs_filter_dialog_validate (self, NULL);
}

/**
 * cs_filter_dialog_get_error:
 * @self: a #CsFilterDialog
 *
 * Returns: (nullable): libtraceevent's message about the expression as last
 *   checked, %NULL when it is valid or empty
 */
const char *
cs_filter_dialog_get_error (CsFilterDialog *self)
{
  g_return_val_if_fail (CS_IS_FILTER_DIALOG (self), NULL);

  return self->error_message;
}
