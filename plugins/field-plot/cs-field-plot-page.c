/* cs-field-plot-page.c: the field plot's page in the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Choose an event type of the recording (those with number fields), one
 * of its number fields, and which of its events to keep (all, one CPU's,
 * one task's, or those where another field has a value), then "Add row":
 * the row appears under the task plots and its pass runs in the
 * background.  GTK 4.8 widgets only.
 */
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>

#include "cs-field-plot-private.h"

enum { SPLIT_ALL, SPLIT_CPU, SPLIT_PID, SPLIT_FIELD };

typedef struct {
  CsFieldPlot *plot;
  CsPluginWindow *window;
  GtkDropDown *event_choice;
  GtkStringList *events;
  GtkDropDown *field_choice;
  GtkStringList *fields;
  GtkDropDown *split_choice;
  GtkEntry *split_value;
  GtkLabel *status;
} Page;

static struct tep_event *
selected_event (Page *page)
{
  struct tep_handle *tep = cs_plugin_document_get_tep (page->plot->document, NULL);
  const char *text = gtk_string_list_get_string (page->events,
                                                 gtk_drop_down_get_selected (page->event_choice));
  g_auto(GStrv) parts = NULL;

  if (tep == NULL || text == NULL)
    return NULL;
  parts = g_strsplit (text, ":", 2);
  return parts[1] != NULL ? tep_find_event_by_name (tep, parts[0], parts[1]) : NULL;
}

static gboolean
has_number_field (struct tep_event *event)
{
  for (struct tep_format_field *f = event->format.fields; f != NULL; f = f->next)
    if (_cs_field_plot_field_is_number (f))
      return TRUE;
  return FALSE;
}

static void
fill_fields (Page *page)
{
  struct tep_event *event = selected_event (page);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (page->fields));

  gtk_string_list_splice (page->fields, 0, n, NULL);
  for (struct tep_format_field *f = event != NULL ? event->format.fields : NULL; f != NULL; f = f->next)
    if (_cs_field_plot_field_is_number (f))
      gtk_string_list_append (page->fields, f->name);
}

static void
event_changed_cb (GObject    *object,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  fill_fields (user_data);
}

static void
split_changed_cb (GObject    *object,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  Page *page = user_data;
  guint split = gtk_drop_down_get_selected (page->split_choice);

  gtk_widget_set_sensitive (GTK_WIDGET (page->split_value), split != SPLIT_ALL);
  gtk_entry_set_placeholder_text (page->split_value,
                                  split == SPLIT_CPU ? _("CPU number")
                                  : split == SPLIT_PID ? "pid"
                                  : split == SPLIT_FIELD ? "field=value" : "");
}

/* The key the page's choices make, or NULL with @error set. */
static char *
build_key (Page    *page,
           GError **error)
{
  const char *event = gtk_string_list_get_string (page->events,
                                                  gtk_drop_down_get_selected (page->event_choice));
  const char *field = gtk_string_list_get_string (page->fields,
                                                  gtk_drop_down_get_selected (page->field_choice));
  const char *value = gtk_editable_get_text (GTK_EDITABLE (page->split_value));
  g_autofree char *text = NULL;
  g_auto(CsFieldPlotKey) key = { 0 };

  if (event == NULL || field == NULL)
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                           _("Choose an event and a field first"));
      return NULL;
    }
  switch (gtk_drop_down_get_selected (page->split_choice))
    {
    case SPLIT_CPU:
      text = g_strdup_printf ("%s.%s/cpu=%s", event, field, value);
      break;
    case SPLIT_PID:
      text = g_strdup_printf ("%s.%s/pid=%s", event, field, value);
      break;
    case SPLIT_FIELD:
      text = g_strdup_printf ("%s.%s/%s", event, field, value);
      break;
    default:
      text = g_strdup_printf ("%s.%s", event, field);
      break;
    }
  if (!_cs_field_plot_key_parse (text, &key, error) ||
      !_cs_field_plot_key_check (&key, page->plot->document, error))
    return NULL;
  return _cs_field_plot_key_to_string (&key);
}

static void
add_clicked_cb (GtkButton *button,
                gpointer   user_data)
{
  Page *page = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = build_key (page, &error);
  g_autofree char *status = NULL;

  if (key == NULL)
    {
      gtk_label_set_text (page->status, error->message);
      return;
    }
  cs_plugin_window_add_row (page->window, page->plot->plugin, CS_FIELD_PLOT_LAYER, key);
  status = g_strdup_printf (_("Added the row %s"), key);
  gtk_label_set_text (page->status, status);
}

static GtkWidget *
labelled (GtkWidget  *grid,
          int         row,
          const char *text,
          GtkWidget  *widget)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), widget, 1, row, 1, 1);
  gtk_widget_set_hexpand (widget, TRUE);
  return widget;
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  static const char *const splits[] = {
    N_("All its events"), N_("Those of one CPU"), N_("Those of one task"),
    N_("Those where a field has a value"),
  };
  const char *split_texts[G_N_ELEMENTS (splits) + 1] = { NULL };
  CsFieldPlot *plot = instance;
  Page *page = g_new0 (Page, 1);
  struct tep_handle *tep = cs_plugin_document_get_tep (plot->document, NULL);
  /* libtraceevent's own array: not ours to free. */
  struct tep_event **events = tep != NULL ? tep_list_events (tep, TEP_EVENT_SORT_SYSTEM) : NULL;
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *add = gtk_button_new_with_label (_("Add row"));

  for (guint i = 0; i < G_N_ELEMENTS (splits); i++)
    split_texts[i] = _(splits[i]);
  page->plot = plot;
  page->window = window;
  page->events = gtk_string_list_new (NULL);
  page->fields = gtk_string_list_new (NULL);
  for (guint i = 0; events != NULL && events[i] != NULL; i++)
    if (has_number_field (events[i]) &&
        cs_plugin_document_count_events (plot->document, events[i]->system, events[i]->name) > 0)
      {
        g_autofree char *name = g_strdup_printf ("%s:%s", events[i]->system, events[i]->name);

        gtk_string_list_append (page->events, name);
      }

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 12);
  /* The drop-downs take the lists (transfer full); the page borrows them. */
  page->event_choice = GTK_DROP_DOWN (labelled (grid, 0, _("Event"),
      gtk_drop_down_new (G_LIST_MODEL (page->events), NULL)));
  page->field_choice = GTK_DROP_DOWN (labelled (grid, 1, _("Field"),
      gtk_drop_down_new (G_LIST_MODEL (page->fields), NULL)));
  page->split_choice = GTK_DROP_DOWN (labelled (grid, 2, _("Plot"),
      gtk_drop_down_new_from_strings (split_texts)));
  page->split_value = GTK_ENTRY (labelled (grid, 3, _("Which"), gtk_entry_new ()));
  gtk_grid_attach (GTK_GRID (grid), add, 1, 4, 1, 1);
  gtk_widget_set_halign (add, GTK_ALIGN_START);
  page->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (page->status, 0.0);
  gtk_label_set_wrap (page->status, TRUE);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (page->status), 1, 5, 1, 1);

  g_signal_connect (page->event_choice, "notify::selected", G_CALLBACK (event_changed_cb), page);
  g_signal_connect (page->split_choice, "notify::selected", G_CALLBACK (split_changed_cb), page);
  g_signal_connect (add, "clicked", G_CALLBACK (add_clicked_cb), page);
  g_object_set_data_full (G_OBJECT (grid), "cs-field-plot-page", page, g_free);
  fill_fields (page);
  split_changed_cb (NULL, NULL, page);
  if (g_list_model_get_n_items (G_LIST_MODEL (page->events)) == 0)
    gtk_label_set_text (page->status, _("This recording has no event with a number field."));
  return grid;
}

/**
 * _cs_field_plot_add_page:
 * @plugin: the field-plot plugin, in its init
 *
 * Registers the page "field_plot".
 */
void
_cs_field_plot_add_page (CsPlugin *plugin)
{
  static const CsPluginPageInfo info = {
    .struct_size = sizeof (CsPluginPageInfo),
    .name = "field_plot",
    .title = N_("Field plot"),
    .create = page_create,
  };

  cs_plugin_add_page (plugin, &info);
}
