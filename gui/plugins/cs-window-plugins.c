/* cs-window-plugins.c: the plugins of one window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * CsPluginWindow is what a window does for plugins (cs-plugin-window.h is
 * its public half): it wraps the window's recording for the enabled
 * plugins (CsPluginDocument), gives their layers to the timeline's
 * renderer, keeps their rows below the task plots, shows their pages as
 * tabs beside the event list, and runs their passes in the background,
 * one at a time, in the indexing worker (CsIndexJob in pass mode), with
 * progress and Cancel in the info bar.  When a plugin is enabled or
 * disabled (CsPluginHost::enabled-changed) the recording is updated in
 * place: pages come and go, passes run, the timeline redraws.
 *
 * No SQL and no plugin-specific code here: everything goes through the
 * plugin API's registrations.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-index-job.h"
#include "cs-plugin-host.h"
#include "cs-plugin-pass-bar.h"
#include "cs-plugin-private.h"
#include "cs-window-plugins.h"
#include "cs-window-plugins-private.h"

/* How long the span must rest before the pages follow it: a drag or a
 * scroll wheel would otherwise recompute their figures at every frame. */
#define FOLLOW_DELAY_MS 150

static guint select_event_signal;

enum {
  PROP_0,
  PROP_ROWS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsPluginWindow, cs_plugin_window, G_TYPE_OBJECT)

static void start_next_pass (CsPluginWindow *self);

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_free (row->layer);
  g_free (row->key);
}

static void
page_free (gpointer data)
{
  g_free (data);
}

/* An added recording's plugin side, no longer shown. */
static void
close_other (gpointer data)
{
  CsPluginDocument *document = data;

  _cs_plugin_document_set_scheduler (document, NULL, NULL);
  _cs_plugin_document_close (document);
  cs_plugin_document_unref (document);
}

static void
pass_request_free (PassRequest *request)
{
  g_clear_pointer (&request->document, cs_plugin_document_unref);
  g_free (request->pass);
  g_free (request->param);
  g_free (request);
}

/* ------------------------------------------------------------------------ */
/* Rows and the renderer                                                     */

CsTimelineRenderer *
_cs_plugin_window_get_renderer (CsPluginWindow *self)
{
  return cs_timeline_get_renderer (self->timeline);
}

static void
apply_rows (CsPluginWindow *self)
{
  CsTimelineRenderer *renderer = _cs_plugin_window_get_renderer (self);
  g_autoptr(GArray) specs = g_array_new (FALSE, TRUE, sizeof (CsPluginRowSpec));

  if (renderer == NULL || self->document == NULL)
    return;
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      CsPluginRowSpec spec = { row->plugin, row->layer, row->key };

      g_array_append_val (specs, spec);
    }
  cs_timeline_renderer_set_plugin_rows (renderer, (const CsPluginRowSpec *) specs->data, specs->len);
  gtk_widget_queue_resize (GTK_WIDGET (self->timeline));
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

/* The rows were added to, removed from or replaced. */
void
_cs_plugin_window_rows_changed (CsPluginWindow *self)
{
  apply_rows (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROWS]);
}

int
_cs_plugin_window_find_row (CsPluginWindow *self,
          CsPlugin       *plugin,
          const char     *layer,
          const char     *key)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      if (row->plugin == plugin && g_strcmp0 (row->layer, layer) == 0 &&
          g_strcmp0 (row->key, key) == 0)
        return (int) i;
    }
  return -1;
}

/* ------------------------------------------------------------------------ */
/* The event list's "Plugins" column                                         */

static char *
describe_item (CsEventItem *item,
               gpointer     user_data)
{
  CsPluginWindow *self = user_data;
  const CsEvent *event = cs_event_item_get_event (item);
  const CsEventType *type;
  CsPluginEventRef ref;

  if (self->document == NULL)
    return NULL;
  type = cs_document_get_event_type (_cs_plugin_document_get_document (self->document),
                                     event->type_id);
  ref.ts_ns = event->ts_ns;
  ref.cpu = event->cpu;
  ref.pid = event->pid;
  ref.system = type != NULL ? type->system : "unknown";
  ref.name = type != NULL ? type->name : "unknown";
  ref.row = event->row;
  return _cs_plugin_document_describe_event (self->document, &ref);
}

/* Shows the column when an enabled plugin describes events, and fills
 * the rows on screen again. */
static void
update_details (CsPluginWindow *self)
{
  CsEventListView *view = self->list_view;
  g_autoptr(GPtrArray) plugins = NULL;
  gboolean any = FALSE;

  if (self->document != NULL)
    {
      plugins = _cs_plugin_document_get_plugins (self->document);
      for (guint i = 0; i < plugins->len && !any; i++)
        any = ((CsPlugin *) g_ptr_array_index (plugins, i))->document_hooks.describe_event != NULL;
    }
  cs_event_list_view_set_details_func (view, any ? describe_item : NULL, self);
}

/* ------------------------------------------------------------------------ */
/* Pages                                                                     */

static void
page_range_changed (CsPluginWindow *self,
                    Page           *page)
{
  gint64 begin_ns, end_ns;

  if (page->info->range_changed == NULL)
    return;
  cs_plugin_window_get_range (self, &begin_ns, &end_ns);
  page->info->range_changed (cs_plugin_document_get_instance (self->document, page->plugin),
                             page->widget, begin_ns, end_ns);
}

static void
update_tabs (CsPluginWindow *self)
{
  gtk_notebook_set_show_tabs (self->notebook, gtk_notebook_get_n_pages (self->notebook) > 1);
}

static void
add_pages (CsPluginWindow *self,
           CsPlugin       *plugin)
{
  gpointer instance = cs_plugin_document_get_instance (self->document, plugin);

  for (guint k = 0; k < _cs_plugin_get_n_hooks (plugin, CS_PLUGIN_HOOK_PAGE); k++)
    {
      const CsPluginPageInfo *info = _cs_plugin_get_hook (plugin, CS_PLUGIN_HOOK_PAGE, k);
      Page *page;
      GtkWidget *widget = info->create (instance, self);

      if (widget == NULL)
        continue;
      page = g_new0 (Page, 1);
      page->plugin = plugin;
      page->info = info;
      page->widget = widget;
      g_ptr_array_add (self->pages, page);
      /* Built-in plugins mark their titles N_() in Chronoscope's domain. */
      gtk_notebook_append_page (self->notebook, widget,
                                gtk_label_new (*info->title != '\0'
                                               ? g_dgettext (GETTEXT_PACKAGE, info->title) : ""));
      page_range_changed (self, page);
    }
  update_tabs (self);
}

static void
remove_pages (CsPluginWindow *self,
              CsPlugin       *plugin)
{
  for (guint i = self->pages->len; i-- > 0;)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      int num;

      if (plugin != NULL && page->plugin != plugin)
        continue;
      num = gtk_notebook_page_num (self->notebook, page->widget);
      if (num >= 0)
        gtk_notebook_remove_page (self->notebook, num);
      g_ptr_array_remove_index (self->pages, i);
    }
  update_tabs (self);
}

/* ------------------------------------------------------------------------ */
/* Passes, in the background                                                 */

static void
pass_fraction_cb (CsIndexJob     *job,
                  GParamSpec     *pspec,
                  CsPluginWindow *self)
{
  cs_plugin_pass_bar_set_fraction (self->pass_bar, cs_index_job_get_fraction (job));
}

static void
pass_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(CsPluginWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  PassRequest *request = g_queue_pop_head (&self->passes);
  gboolean ok = cs_index_job_run_pass_finish (CS_INDEX_JOB (source), result, &error);

  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);
  if (self->window == NULL)
    {
      /* The window closed while the pass ran: nothing to show. */
      g_clear_pointer (&request, pass_request_free);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->pass_bar), FALSE);
  if (ok && self->document != NULL)
    {
      _cs_plugin_document_pass_finished (request->document, request->plugin, request->pass,
                                         request->param);
      apply_rows (self);
      update_details (self);
      cs_plugin_window_range_changed (self);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_message ("%s", error->message);
      cs_plugin_pass_bar_show_error (self->pass_bar, error->message);
    }
  pass_request_free (request);
  if (!g_queue_is_empty (&self->passes))
    start_next_pass (self);
}

static void
start_next_pass (CsPluginWindow *self)
{
  PassRequest *request = g_queue_peek_head (&self->passes);
  g_autoptr(GFile) file = NULL;
  g_autofree char *text = NULL;

  if (request == NULL || self->job != NULL || self->document == NULL || self->window == NULL)
    return;
  file = g_file_new_for_path (cs_plugin_document_get_path (request->document));
  self->job = cs_index_job_new (file);
  self->cancellable = g_cancellable_new ();
  cs_index_job_set_pass (self->job, cs_plugin_get_path (request->plugin), request->pass,
                         request->param);
  g_signal_connect (self->job, "notify::fraction", G_CALLBACK (pass_fraction_cb), self);

  /* TRANSLATORS: in the info bar while a plugin reads the recording; the
   * plugin's name */
  text = g_strdup_printf (_("%s: reading the recording…"), cs_plugin_get_name (request->plugin));
  cs_plugin_pass_bar_show_running (self->pass_bar, text);
  cs_index_job_run_async (self->job, self->cancellable, pass_done_cb, g_object_ref (self));
}

static void
request_pass (gpointer          data,
              CsPluginDocument *document,
              CsPlugin         *plugin,
              const char       *pass,
              const char       *param)
{
  CsPluginWindow *self = data;
  PassRequest *request;

  for (GList *l = self->passes.head; l != NULL; l = l->next)
    {
      PassRequest *r = l->data;

      if (r->document == document && r->plugin == plugin && g_strcmp0 (r->pass, pass) == 0 &&
          g_strcmp0 (r->param, param) == 0)
        return;   /* asked already */
    }
  request = g_new0 (PassRequest, 1);
  request->document = cs_plugin_document_ref (document);
  request->plugin = plugin;
  request->pass = g_strdup (pass);
  request->param = g_strdup (param);
  g_queue_push_tail (&self->passes, request);
  start_next_pass (self);
}

/* Results found from an earlier run: show them. */
static void
pass_ready (gpointer          data,
            CsPluginDocument *document,
            CsPlugin         *plugin)
{
  CsPluginWindow *self = data;

  apply_rows (self);
  update_details (self);
  cs_plugin_window_range_changed (self);
}

/* ensure blocks: the API says not to call it from the window. */
static const CsPluginPassScheduler window_scheduler = {
  request_pass, cs_plugin_host_ensure_pass, pass_ready,
};

static gboolean
request_matches (const PassRequest *r, CsPlugin *plugin, CsPluginDocument *document)
{
  return (plugin == NULL || r->plugin == plugin) && (document == NULL || r->document == document);
}

/* Drops the waiting passes of @plugin on @document (%NULL: any); a
 * running one is cancelled. */
static void
drop_passes (CsPluginWindow   *self,
             CsPlugin         *plugin,
             CsPluginDocument *document)
{
  GList *l = self->passes.head;

  if (l != NULL && self->job != NULL)
    {
      if (request_matches (l->data, plugin, document))
        g_cancellable_cancel (self->cancellable);
      l = l->next;   /* the running one leaves in pass_done_cb */
    }
  while (l != NULL)
    {
      GList *next = l->next;

      if (request_matches (l->data, plugin, document))
        {
          pass_request_free (l->data);
          g_queue_delete_link (&self->passes, l);
        }
      l = next;
    }
}

static void
pass_button_clicked_cb (CsPluginWindow *self)
{
  if (self->job != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    gtk_widget_set_visible (GTK_WIDGET (self->pass_bar), FALSE);
}

/* ------------------------------------------------------------------------ */
/* Enabling and disabling                                                    */

static void
enable_plugin (CsPluginWindow *self,
               CsPlugin       *plugin)
{
  if (!cs_plugin_host_enable_on (self->host, self->document, plugin))
    {
      /* Nothing to decide: the recording shows without it; the Plugins
       * dialog keeps the reason, which names the plugin. */
      const char *why = cs_plugin_host_get_open_error (self->host, plugin);
      /* TRANSLATORS: a toast; %s is a plugin's name */
      g_autofree char *title = why != NULL ? g_strdup (why)
                                           : g_strdup_printf (_("The plugin “%s” cannot show this recording"),
                                                              cs_plugin_get_name (plugin));

      if (self->window != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self->window), "win.show-toast", "s", title);
      return;
    }
  add_pages (self, plugin);
  _cs_plugin_document_request_automatic_passes (self->document, plugin);
}

static void
enabled_changed_cb (CsPluginHost   *host,
                    CsPlugin       *plugin,
                    CsPluginWindow *self)
{
  if (self->document == NULL)
    return;
  if (cs_plugin_host_is_enabled (host, plugin))
    {
      for (guint i = 0; i < self->others->len; i++)
        cs_plugin_host_enable_on (host, g_ptr_array_index (self->others, i), plugin);
      enable_plugin (self, plugin);
    }
  else
    {
      drop_passes (self, plugin, NULL);
      remove_pages (self, plugin);
      _cs_plugin_document_disable (self->document, plugin);
      for (guint i = 0; i < self->others->len; i++)
        _cs_plugin_document_disable (g_ptr_array_index (self->others, i), plugin);
    }
  apply_rows (self);
  update_details (self);
}

/* ------------------------------------------------------------------------ */

static void
cs_plugin_window_dispose (GObject *object)
{
  CsPluginWindow *self = CS_PLUGIN_WINDOW (object);

  g_clear_signal_handler (&self->enabled_changed_id, self->host);
  g_clear_handle_id (&self->follow_id, g_source_remove);
  /* The window goes: a running pass stops, and its end (pass_done_cb,
   * which holds a reference) touches no widget. */
  self->window = NULL;
  self->pass_bar = NULL;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  /* The running request stays at the head until pass_done_cb pops it. */
  while (g_queue_get_length (&self->passes) > (self->job != NULL ? 1u : 0u))
    pass_request_free (g_queue_pop_tail (&self->passes));
  if (self->document != NULL)
    {
      _cs_plugin_document_set_scheduler (self->document, NULL, NULL);
      _cs_plugin_document_close (self->document);
    }
  g_clear_pointer (&self->document, cs_plugin_document_unref);
  g_ptr_array_set_size (self->others, 0);
  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (cs_plugin_window_parent_class)->dispose (object);
}

static void
cs_plugin_window_finalize (GObject *object)
{
  CsPluginWindow *self = CS_PLUGIN_WINDOW (object);

  g_queue_clear_full (&self->passes, (GDestroyNotify) pass_request_free);
  g_array_unref (self->rows);
  g_ptr_array_unref (self->pages);
  g_ptr_array_unref (self->others);

  G_OBJECT_CLASS (cs_plugin_window_parent_class)->finalize (object);
}

static void
cs_plugin_window_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  CsPluginWindow *self = CS_PLUGIN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_ROWS:
      g_value_take_boxed (value, cs_plugin_window_dup_rows (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_plugin_window_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  CsPluginWindow *self = CS_PLUGIN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_ROWS:
      cs_plugin_window_set_rows (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_plugin_window_class_init (CsPluginWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_plugin_window_dispose;
  object_class->finalize = cs_plugin_window_finalize;
  object_class->get_property = cs_plugin_window_get_property;
  object_class->set_property = cs_plugin_window_set_property;

  /* "rows" (strv of "PLUGIN:LAYER:KEY", top to bottom): the plugin rows
   * shown, as cs_plugin_window_dup_rows() gives them; notified when one
   * is added or removed, so that the window's view model binds to it. */
  properties[PROP_ROWS] =
    g_param_spec_boxed ("rows", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* ::select-event (const CsEvent *) → gboolean: the window, which connects
   * to it, selects the event in its list as a clicked one (no marker moves). */
  select_event_signal =
    g_signal_new ("select-event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 1, G_TYPE_POINTER);
}

static void
cs_plugin_window_init (CsPluginWindow *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->pages = g_ptr_array_new_with_free_func (page_free);
  self->others = g_ptr_array_new_with_free_func (close_other);
  g_queue_init (&self->passes);
}

static gboolean
follow_timeout_cb (gpointer data)
{
  CsPluginWindow *self = data;

  self->follow_id = 0;
  if (self->window != NULL)
    cs_plugin_window_range_changed (self);
  return G_SOURCE_REMOVE;
}

/* The visible span changed (a dragged selection zooms to it): without
 * markers A..B, it is the pages' range. */
static void
span_changed_cb (CsPluginWindow *self)
{
  g_clear_handle_id (&self->follow_id, g_source_remove);
  self->follow_id = g_timeout_add (FOLLOW_DELAY_MS, follow_timeout_cb, self);
}

/**
 * cs_plugin_window_new:
 * @window: the window, which owns the result; its win.show-toast (s) tells
 *   of a plugin that cannot show the recording
 * @timeline: its timeline, where layers and rows go
 * @list_view: its event list, where the plugins' details column goes
 * @model: its view model, whose task plots plugins add to
 * @notebook: the notebook holding the event list, where pages go as tabs
 * @info_bar: the info bar, where a pass's progress and Cancel go
 *
 * Returns: (transfer full): the plugins of @window, with no recording yet
 */
CsPluginWindow *
cs_plugin_window_new (GtkWindow       *window,
                      CsTimeline      *timeline,
                      CsEventListView *list_view,
                      CsViewModel     *model,
                      GtkNotebook     *notebook,
                      GtkBox          *info_bar)
{
  CsPluginWindow *self = g_object_new (CS_TYPE_PLUGIN_WINDOW, NULL);

  self->window = window;
  self->timeline = timeline;
  self->list_view = list_view;
  self->model = model;
  self->notebook = notebook;
  self->host = cs_plugin_host_get_default ();
  self->enabled_changed_id = g_signal_connect (self->host, "enabled-changed",
                                               G_CALLBACK (enabled_changed_cb), self);
  g_signal_connect_object (timeline, "notify::begin-ns",
                           G_CALLBACK (span_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (timeline, "notify::end-ns",
                           G_CALLBACK (span_changed_cb), self, G_CONNECT_SWAPPED);

  self->pass_bar = CS_PLUGIN_PASS_BAR (cs_plugin_pass_bar_new ());
  g_signal_connect_swapped (self->pass_bar, "button-clicked", G_CALLBACK (pass_button_clicked_cb), self);
  gtk_box_append (info_bar, GTK_WIDGET (self->pass_bar));
  return self;
}

/**
 * cs_plugin_window_set_document:
 * @self: a window's plugins
 * @document: (nullable): the recording the window now shows
 *
 * Closes the plugins' instances for the previous recording (their pages
 * go, their passes stop), then opens the enabled plugins on @document:
 * layers on the timeline, pages as tabs, automatic passes in the
 * background (results from an earlier run are reused).  Plugin rows are
 * kept when their plugin draws them for @document too.  Call it after the
 * timeline has @document.
 */
void
cs_plugin_window_set_document (CsPluginWindow *self,
                               CsDocument     *document)
{
  g_autoptr(GPtrArray) plugins = NULL;
  CsTimelineRenderer *renderer;

  g_return_if_fail (CS_IS_PLUGIN_WINDOW (self));

  drop_passes (self, NULL, NULL);
  remove_pages (self, NULL);
  g_ptr_array_set_size (self->others, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->pass_bar), FALSE);
  if (self->document != NULL)
    {
      _cs_plugin_document_set_scheduler (self->document, NULL, NULL);
      _cs_plugin_document_close (self->document);
    }
  g_clear_pointer (&self->document, cs_plugin_document_unref);
  if (document == NULL)
    {
      update_details (self);
      return;
    }

  self->document = _cs_plugin_document_new (document);
  _cs_plugin_document_set_scheduler (self->document, &window_scheduler, self);
  renderer = _cs_plugin_window_get_renderer (self);
  if (renderer != NULL)
    cs_timeline_renderer_set_plugins (renderer, self->document);

  plugins = cs_plugin_registry_dup_plugins (cs_plugin_host_get_registry (self->host));
  for (guint i = 0; i < plugins->len; i++)
    if (cs_plugin_host_is_enabled (self->host, g_ptr_array_index (plugins, i)))
      enable_plugin (self, g_ptr_array_index (plugins, i));
  apply_rows (self);
  update_details (self);
}

/**
 * cs_plugin_window_get_plugins:
 * @self: a window's plugins
 *
 * Returns: (transfer none) (nullable): the plugin side of the recording
 *   shown, %NULL when none is
 */
CsPluginDocument *
cs_plugin_window_get_plugins (CsPluginWindow *self)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (self), NULL);
  return self->document;
}

/**
 * cs_plugin_window_set_streams:
 * @self: a window's plugins
 * @streams: (nullable): the recordings the window shows on its axis, its
 *   own among them
 *
 * Opens the enabled plugins on each recording the window added (their
 * instances, for a page that analyses another recording,
 * cs_plugin_window_get_nth_document()), and closes them on those it no
 * longer shows; their passes run in the background like the window's
 * own recording's.  No layer, row or page is made for them.  Each
 * recording's plugin side knows its stream (a KVM guest's vCPUs as its
 * host saw them).  The pages hear of it as a range change.  Call it
 * whenever the set changes.
 */
void
cs_plugin_window_set_streams (CsPluginWindow *self,
                              CsStreamSet    *streams)
{
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (close_other);
  g_autoptr(GPtrArray) plugins = NULL;
  guint n = streams != NULL ? cs_stream_set_get_n_streams (streams) : 0;

  g_return_if_fail (CS_IS_PLUGIN_WINDOW (self));

  /* A set made for a recording the plugins do not have yet (a file
   * reopened is another document): the window calls again once they do. */
  if (self->document == NULL)
    return;
  {
    gboolean own = streams == NULL;

    for (guint i = 0; !own && i < n; i++)
      own = cs_stream_get_document (cs_stream_set_get_stream (streams, i)) ==
            _cs_plugin_document_get_document (self->document);
    if (!own)
      return;
  }
  plugins = cs_plugin_registry_dup_plugins (cs_plugin_host_get_registry (self->host));
  for (guint i = 0; i < n; i++)
    {
      CsStream *stream = cs_stream_set_get_stream (streams, i);
      CsDocument *doc = cs_stream_get_document (stream);
      CsPluginDocument *pd = NULL;
      guint k;

      if (doc == _cs_plugin_document_get_document (self->document))
        {
          _cs_plugin_document_set_stream (self->document, stream, NULL);
          continue;
        }
      for (k = 0; k < self->others->len; k++)
        if (_cs_plugin_document_get_document (g_ptr_array_index (self->others, k)) == doc)
          break;
      if (k < self->others->len)
        pd = g_ptr_array_steal_index (self->others, k);
      else
        {
          pd = _cs_plugin_document_new (doc);
          _cs_plugin_document_set_scheduler (pd, &window_scheduler, self);
          for (guint p = 0; p < plugins->len; p++)
            if (cs_plugin_host_is_enabled (self->host, g_ptr_array_index (plugins, p)))
              cs_plugin_host_enable_on (self->host, pd, g_ptr_array_index (plugins, p));
        }
      _cs_plugin_document_set_stream (pd, stream, NULL);
      g_ptr_array_add (keep, pd);
    }
  for (guint k = 0; k < self->others->len; k++)
    drop_passes (self, NULL, g_ptr_array_index (self->others, k));
  g_ptr_array_unref (self->others);
  self->others = g_steal_pointer (&keep);
  cs_plugin_window_range_changed (self);
}

/**
 * cs_plugin_window_range_changed:
 * @self: a window's plugins
 *
 * Tells the pages that the window's range (markers, span) changed.
 */
void
cs_plugin_window_range_changed (CsPluginWindow *self)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (self));

  if (self->document == NULL)
    return;
  for (guint i = 0; i < self->pages->len; i++)
    page_range_changed (self, g_ptr_array_index (self->pages, i));
}

/**
 * cs_plugin_window_dup_rows:
 * @self: a window's plugins
 *
 * Returns: (transfer full): the plugin rows asked for, top to bottom, as
 *   "PLUGIN:LAYER:KEY" (the key may hold colons), for sessions
 */
char **
cs_plugin_window_dup_rows (CsPluginWindow *self)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      g_ptr_array_add (rows, g_strdup_printf ("%s:%s:%s", cs_plugin_get_id (row->plugin),
                                              row->layer, row->key));
    }
  g_ptr_array_add (rows, NULL);
  return (char **) g_ptr_array_free (rows, FALSE);
}

/**
 * cs_plugin_window_set_rows:
 * @self: a window's plugins
 * @rows: (array zero-terminated=1) (nullable): rows as
 *   cs_plugin_window_dup_rows() gives them; those naming a plugin that is
 *   not loaded are dropped
 *
 * Restores a session's plugin rows.
 */
void
cs_plugin_window_set_rows (CsPluginWindow     *self,
                           const char * const *rows)
{
  CsPluginRegistry *registry = cs_plugin_host_get_registry (self->host);

  g_array_set_size (self->rows, 0);
  for (guint i = 0; rows != NULL && rows[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (rows[i], ":", 3);
      CsPlugin *plugin;
      Row row;

      if (g_strv_length (parts) != 3 ||
          (plugin = cs_plugin_registry_lookup (registry, parts[0])) == NULL)
        continue;
      row.plugin = plugin;
      row.layer = g_strdup (parts[1]);
      row.key = g_strdup (parts[2]);
      g_array_append_val (self->rows, row);
    }
  _cs_plugin_window_rows_changed (self);
}

/**
 * cs_plugin_window_show_page:
 * @self: a window's plugins
 * @plugin_id: a plugin's id ("latency")
 * @page_name: one of its pages (CsPluginPageInfo.name)
 * @arg: (nullable): what the page is to show, in the page's own terms
 *   (CsPluginPageInfo.show), %NULL to only bring it to the front
 *
 * Brings a plugin's page to the front of the notebook and asks it to show
 * @arg.
 *
 * Returns: %FALSE when the recording shows no such page (the plugin is
 *   missing or disabled)
 */
gboolean
cs_plugin_window_show_page (CsPluginWindow *self,
                            const char     *plugin_id,
                            const char     *page_name,
                            const char     *arg)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (self), FALSE);

  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      int num;

      if (g_strcmp0 (cs_plugin_get_id (page->plugin), plugin_id) != 0 ||
          g_strcmp0 (page->info->name, page_name) != 0)
        continue;
      num = gtk_notebook_page_num (self->notebook, page->widget);
      if (num >= 0)
        gtk_notebook_set_current_page (self->notebook, num);
      if (arg != NULL && page->info->show != NULL)
        page->info->show (cs_plugin_document_get_instance (self->document, page->plugin),
                          page->widget, arg);
      return TRUE;
    }
  return FALSE;
}

/**
 * cs_plugin_window_get_pass_running:
 * @self: a window's plugins
 *
 * Returns: whether a pass runs or waits (for tests)
 */
gboolean
cs_plugin_window_get_pass_running (CsPluginWindow *self)
{
  g_return_val_if_fail (CS_IS_PLUGIN_WINDOW (self), FALSE);
  return !g_queue_is_empty (&self->passes);
}

/**
 * cs_plugin_window_cancel_passes:
 * @self: a window's plugins
 *
 * Stops the running pass and forgets the waiting ones (Cancel).
 */
void
cs_plugin_window_cancel_passes (CsPluginWindow *self)
{
  g_return_if_fail (CS_IS_PLUGIN_WINDOW (self));
  drop_passes (self, NULL, NULL);
}
