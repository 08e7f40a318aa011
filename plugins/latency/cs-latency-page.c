/* cs-latency-page.c: the latency page of the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The page measures A → B pairs of events in one recording: what it
 * shows of that recording (preset, Run, figures, histogram, the
 * worst-first list, the explained pair, top blockers) is a
 * CsLatencyContent (cs-latency-content.c), built for the recording's
 * instance of the plugin.
 *
 * With several recordings in the window (plugin API 1.2), a "Recording"
 * drop-down above picks the one the page analyses (the window's own
 * first): the content is built anew on that recording's instance, its
 * pairs' times are shown on the window's axis and activating one moves
 * the timeline there, in that recording's group
 * (cs_plugin_window_to_axis_ns()); the window's range reaches it in its
 * own clock.  The page's layout (that row) is the template
 * cs-latency-page.ui.  GTK 4.8 widgets only.
 *
 * Widgets a test reaches have names: latency-page (the tab's) and
 * latency-recording; the content's are in cs-latency-content.c.
 */
#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

struct _CsLatencyPage
{
  GtkBox parent_instance;

  GtkWidget *row;               /* the recording's drop-down and its label */
  GtkDropDown *recording;
  GtkStringList *names;         /* the drop-down's */
  CsPluginWindow *window;
  CsPlugin *plugin;
  CsLatencyContent *content;
  CsPluginDocument *document;   /* the one analysed (borrowed from the window) */
  gboolean syncing;
  gint64 begin_ns, end_ns;      /* the window's range, on its axis */
};

G_DEFINE_FINAL_TYPE (CsLatencyPage, cs_latency_page, GTK_TYPE_BOX)

/* Builds the content anew for @document. */
static void
show_document (CsLatencyPage    *self,
               CsPluginDocument *document)
{
  CsLatency *latency = cs_plugin_document_get_instance (document, self->plugin);

  if (latency == NULL)
    return;
  if (self->content != NULL)
    gtk_box_remove (GTK_BOX (self), GTK_WIDGET (self->content));
  self->document = document;
  self->content = CS_LATENCY_CONTENT (_cs_latency_content_new (latency, self->window));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->content));
  _cs_latency_content_set_window_range (self->content, self->begin_ns, self->end_ns);
}

static void
recording_selected_cb (CsLatencyPage *self)
{
  CsPluginDocument *document;

  if (self->syncing)
    return;
  document = cs_plugin_window_get_nth_document (self->window,
                                                gtk_drop_down_get_selected (self->recording));
  if (document != NULL && document != self->document)
    show_document (self, document);
}

/* The drop-down follows the window's recordings; one that went leaves the
 * page on the window's own. */
static void
sync_recordings (CsLatencyPage *self)
{
  guint n = cs_plugin_window_get_n_documents (self->window);
  guint selected = 0;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      CsPluginDocument *document = cs_plugin_window_get_nth_document (self->window, i);

      g_ptr_array_add (names, g_path_get_basename (cs_plugin_document_get_path (document)));
      if (document == self->document)
        selected = i;
    }
  g_ptr_array_add (names, NULL);
  self->syncing = TRUE;
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char *const *) names->pdata);
  gtk_drop_down_set_selected (self->recording, selected);
  self->syncing = FALSE;
  gtk_widget_set_visible (self->row, n > 1);
  if (n > 0 && cs_plugin_window_get_nth_document (self->window, selected) != self->document)
    show_document (self, cs_plugin_window_get_nth_document (self->window, selected));
}

static void
cs_latency_page_class_init (CsLatencyPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLatencyPage, row);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyPage, recording);
  gtk_widget_class_bind_template_child (widget_class, CsLatencyPage, names);
  gtk_widget_class_bind_template_callback (widget_class, recording_selected_cb);
}

static void
cs_latency_page_init (CsLatencyPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->begin_ns = G_MININT64;
  self->end_ns = G_MAXINT64;
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  CsLatency *latency = instance;
  CsLatencyPage *self = g_object_new (CS_LATENCY_TYPE_PAGE, NULL);

  self->window = window;
  self->plugin = latency->plugin;
  show_document (self, cs_plugin_window_get_document (window));
  sync_recordings (self);
  return GTK_WIDGET (self);
}

static void
page_range_changed (gpointer   instance,
                    GtkWidget *widget,
                    gint64     begin_ns,
                    gint64     end_ns)
{
  CsLatencyPage *self = CS_LATENCY_PAGE (widget);

  self->begin_ns = begin_ns;
  self->end_ns = end_ns;
  /* Recordings added or closed reach the page as a range change. */
  sync_recordings (self);
  if (self->content != NULL)
    _cs_latency_content_set_window_range (self->content, begin_ns, end_ns);
}

/* The window asks to show @arg, a definition (a classroom demo's preset). */
static void
page_show (gpointer    instance,
           GtkWidget  *widget,
           const char *arg)
{
  CsLatencyPage *self = CS_LATENCY_PAGE (widget);

  /* The window's demo is about its own recording. */
  if (self->document != cs_plugin_window_get_document (self->window))
    {
      show_document (self, cs_plugin_window_get_document (self->window));
      sync_recordings (self);
    }
  if (self->content != NULL)
    _cs_latency_content_show (self->content, arg);
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
