/* cs-field-plot-page.c: the field plot's page in the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Choose an event type of the recording (those with number fields), one
 * of its number fields, and which of its events to keep (all, one CPU's,
 * one task's, or those where another field has a value), then "Add row":
 * the row appears under the task plots and its pass runs in the
 * background.  The layout is the template cs-field-plot-page.ui; the
 * lists of events and fields are filled here.  GTK 4.8 widgets only.
 */
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>

#include "cs-field-plot-private.h"

/* The positions of the "Plot" drop-down's choices (the .ui's order). */
enum { SPLIT_ALL, SPLIT_CPU, SPLIT_PID, SPLIT_FIELD };

struct _CsFieldPlotPage
{
  GtkGrid parent_instance;

  CsFieldPlot *plot;
  CsPluginWindow *window;
  GtkDropDown *event_choice;
  GtkStringList *events;
  GtkDropDown *field_choice;
  GtkStringList *fields;
  GtkDropDown *split_choice;
  GtkEntry *split_value;
  GtkLabel *status;
};

typedef CsFieldPlotPage Page;

G_DEFINE_FINAL_TYPE (CsFieldPlotPage, cs_field_plot_page, GTK_TYPE_GRID)

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
event_changed_cb (Page *page)
{
  fill_fields (page);
}

static void
split_changed_cb (Page *page)
{
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
add_clicked_cb (Page *page)
{
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

static void
cs_field_plot_page_class_init (CsFieldPlotPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/field-plot/cs-field-plot-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, event_choice);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, events);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, field_choice);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, fields);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, split_choice);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, split_value);
  gtk_widget_class_bind_template_child (widget_class, CsFieldPlotPage, status);
  gtk_widget_class_bind_template_callback (widget_class, event_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, split_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked_cb);
}

static void
cs_field_plot_page_init (CsFieldPlotPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  CsFieldPlot *plot = instance;
  Page *page = g_object_new (CS_TYPE_FIELD_PLOT_PAGE, NULL);
  struct tep_handle *tep = cs_plugin_document_get_tep (plot->document, NULL);
  /* libtraceevent's own array: not ours to free. */
  struct tep_event **events = tep != NULL ? tep_list_events (tep, TEP_EVENT_SORT_SYSTEM) : NULL;

  page->plot = plot;
  page->window = window;
  for (guint i = 0; events != NULL && events[i] != NULL; i++)
    if (has_number_field (events[i]) &&
        cs_plugin_document_count_events (plot->document, events[i]->system, events[i]->name) > 0)
      {
        g_autofree char *name = g_strdup_printf ("%s:%s", events[i]->system, events[i]->name);

        gtk_string_list_append (page->events, name);
      }
  fill_fields (page);
  split_changed_cb (page);
  if (g_list_model_get_n_items (G_LIST_MODEL (page->events)) == 0)
    gtk_label_set_text (page->status, _("This recording has no event with a number field."));
  return GTK_WIDGET (page);
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
