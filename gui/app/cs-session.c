/* cs-session.c: saving and restoring what a window shows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A session is a small JSON file (json-glib), as KernelShark's are:
 *
 *   {
 *     "format": "chronoscope-session", "version": 1,
 *     "recording": "/home/me/trace.dat",
 *     "view": { "begin_ns": 575579925508, "end_ns": 575993783706 },
 *     "cpu_plots": [0, 1],
 *     "task_plots": [31124, 31126],
 *     "markers": { "a_ns": 575600000000, "b_ns": null, "active": "a" },
 *     "filter": { "text": "{'pid': <('hide', [0])>}", "list": true,
 *                 "timeline": true, "hide_in_timeline": false },
 *     "window": { "width": 1280, "height": 800, "maximized": false,
 *                 "paned_position": 310 },
 *     "plugins": { "disabled": ["migrations"],
 *                  "rows": ["field-plot:values:power:cpu_frequency:state"] },
 *     "query": { "text": "SELECT comm, count(*) FROM events GROUP BY comm",
 *                "history": ["SELECT ...", "..."] }
 *   }
 *
 * Times are the trace clock's nanoseconds; the filter is
 * cs_event_filter_to_string(), which names event types "system:name" so it
 * survives a rebuilt index.  Restoring opens the recording through the
 * window (its index is reused from the cache, so this is immediate after
 * the first time) and applies the rest when the recording is shown.  A
 * recording that moved is looked for next to the session file.  The last
 * "plugins" lists the plugins turned off (the others are on: restoring
 * applies it to the process, as the Plugins dialog does) and the plugin
 * rows below the task plots ("PLUGIN:LAYER:KEY").  "query" is the Query
 * page's editor text and its history of queries run, newest first.  The last
 * session of each window that showed a recording is written to
 * $XDG_CONFIG_HOME/chronoscope/last-session.json when it closes.
 */
#include "config.h"

#include <inttypes.h>

#include <errno.h>

#include <json-glib/json-glib.h>
#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-plugin-host.h"
#include "cs-query-page.h"
#include "cs-session.h"
#include "cs-window-plugins.h"

#define SESSION_FORMAT  "chronoscope-session"
#define SESSION_VERSION 1

struct _CsSession
{
  char *recording;
  gboolean has_view;
  gint64 begin_ns;
  gint64 end_ns;
  GArray *cpus;               /* guint, or NULL: the default */
  GArray *pids;               /* gint32 */
  gint64 marker_ns[2];        /* CS_MARKER_UNSET when not placed */
  CsMarker active_marker;
  char *filter_text;          /* NULL: no filter */
  CsFilterTarget filter_targets;
  gboolean hide_filtered;
  int width;                  /* 0: unknown */
  int height;
  gboolean maximized;
  int paned_position;         /* -1: unknown */
  char **disabled_plugins;    /* NULL: not saved (leave the choice as it is) */
  char **plugin_rows;         /* "PLUGIN:LAYER:KEY" */
  char *query_text;           /* NULL: not saved */
  char **query_history;       /* newest first; NULL: not saved */
};

G_DEFINE_QUARK (cs-session-error-quark, cs_session_error)

static CsSession *
cs_session_new (void)
{
  CsSession *self = g_new0 (CsSession, 1);

  self->pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  self->marker_ns[CS_MARKER_A] = self->marker_ns[CS_MARKER_B] = CS_MARKER_UNSET;
  self->active_marker = CS_MARKER_A;
  self->filter_targets = CS_FILTER_TARGET_BOTH;
  self->paned_position = -1;
  return self;
}

/**
 * cs_session_free:
 * @session: (transfer full) (nullable): a session
 */
void
cs_session_free (CsSession *session)
{
  if (session == NULL)
    return;

  g_free (session->recording);
  g_clear_pointer (&session->cpus, g_array_unref);
  g_array_unref (session->pids);
  g_free (session->filter_text);
  g_strfreev (session->disabled_plugins);
  g_strfreev (session->plugin_rows);
  g_free (session->query_text);
  g_strfreev (session->query_history);
  g_free (session);
}

/**
 * cs_session_get_recording:
 * @session: a session
 *
 * Returns: (transfer none): the path of the recording the session shows
 */
const char *
cs_session_get_recording (CsSession *session)
{
  g_return_val_if_fail (session != NULL, NULL);

  return session->recording;
}

static GtkPaned *
window_get_paned (CsWindow *window)
{
  return GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (cs_window_get_timeline (window)),
                                             GTK_TYPE_PANED));
}

/**
 * cs_session_capture:
 * @window: a window showing a recording
 *
 * Returns: (transfer full) (nullable): what @window shows, %NULL when it
 *   shows no recording
 */
CsSession *
cs_session_capture (CsWindow *window)
{
  CsTimeline *timeline;
  CsAnalysis *analysis;
  CsEventFilter *filter;
  GFile *file;
  GtkPaned *paned;
  CsSession *self;
  const guint *cpus;
  const gint32 *pids;
  guint n_cpus, n_pids;

  g_return_val_if_fail (CS_IS_WINDOW (window), NULL);

  file = cs_window_get_file (window);
  timeline = cs_window_get_timeline (window);
  analysis = cs_window_get_analysis (window);
  if (file == NULL || cs_timeline_get_document (timeline) == NULL)
    return NULL;

  self = cs_session_new ();
  self->recording = g_file_get_path (file);
  self->has_view = TRUE;
  self->begin_ns = cs_timeline_get_begin_ns (timeline);
  self->end_ns = cs_timeline_get_end_ns (timeline);

  cpus = cs_analysis_get_cpu_plots (analysis, &n_cpus);
  self->cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_vals (self->cpus, cpus, n_cpus);
  pids = cs_analysis_get_task_plots (analysis, &n_pids);
  g_array_append_vals (self->pids, pids, n_pids);

  self->marker_ns[CS_MARKER_A] = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  self->marker_ns[CS_MARKER_B] = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);
  self->active_marker = cs_timeline_get_active_marker (timeline);

  filter = cs_analysis_get_filter (analysis);
  if (!cs_event_filter_is_empty (filter))
    self->filter_text = cs_event_filter_to_string (filter);
  self->filter_targets = cs_analysis_get_filter_targets (analysis);
  self->hide_filtered = cs_analysis_get_hide_filtered (analysis);
  self->disabled_plugins = cs_plugin_host_dup_disabled_ids (cs_plugin_host_get_default ());
  self->plugin_rows = cs_plugin_window_dup_rows (cs_window_get_plugins (window));
  self->query_text = cs_query_page_dup_text (cs_window_get_query_page (window));
  self->query_history = g_strdupv ((char **) cs_query_page_get_history (cs_window_get_query_page (window)));

  gtk_window_get_default_size (GTK_WINDOW (window), &self->width, &self->height);
  self->maximized = gtk_window_is_maximized (GTK_WINDOW (window));
  paned = window_get_paned (window);
  if (paned != NULL)
    self->paned_position = gtk_paned_get_position (paned);
  return self;
}

/* Writing ------------------------------------------------------------------ */

static void
add_marker (JsonBuilder *builder, const char *name, gint64 ts_ns)
{
  json_builder_set_member_name (builder, name);
  if (ts_ns == CS_MARKER_UNSET)
    json_builder_add_null_value (builder);
  else
    json_builder_add_int_value (builder, ts_ns);
}

static void
add_strings (JsonBuilder        *builder,
             const char         *name,
             char              **strings)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; strings != NULL && strings[i] != NULL; i++)
    json_builder_add_string_value (builder, strings[i]);
  json_builder_end_array (builder);
}

/**
 * cs_session_save:
 * @session: a session
 * @path: where to write it (replaced atomically)
 * @error: return location for a %G_FILE_ERROR
 *
 * Returns: whether the file was written
 */
gboolean
cs_session_save (CsSession   *session,
                 const char  *path,
                 GError     **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *directory = NULL;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, SESSION_FORMAT);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, SESSION_VERSION);
  json_builder_set_member_name (builder, "recording");
  json_builder_add_string_value (builder, session->recording);

  if (session->has_view)
    {
      json_builder_set_member_name (builder, "view");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "begin_ns");
      json_builder_add_int_value (builder, session->begin_ns);
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, session->end_ns);
      json_builder_end_object (builder);
    }

  if (session->cpus != NULL)
    {
      json_builder_set_member_name (builder, "cpu_plots");
      json_builder_begin_array (builder);
      for (guint i = 0; i < session->cpus->len; i++)
        json_builder_add_int_value (builder, g_array_index (session->cpus, guint, i));
      json_builder_end_array (builder);
    }

  json_builder_set_member_name (builder, "task_plots");
  json_builder_begin_array (builder);
  for (guint i = 0; i < session->pids->len; i++)
    json_builder_add_int_value (builder, g_array_index (session->pids, gint32, i));
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "markers");
  json_builder_begin_object (builder);
  add_marker (builder, "a_ns", session->marker_ns[CS_MARKER_A]);
  add_marker (builder, "b_ns", session->marker_ns[CS_MARKER_B]);
  json_builder_set_member_name (builder, "active");
  json_builder_add_string_value (builder, session->active_marker == CS_MARKER_B ? "b" : "a");
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "filter");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  if (session->filter_text != NULL)
    json_builder_add_string_value (builder, session->filter_text);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "list");
  json_builder_add_boolean_value (builder, (session->filter_targets & CS_FILTER_TARGET_LIST) != 0);
  json_builder_set_member_name (builder, "timeline");
  json_builder_add_boolean_value (builder, (session->filter_targets & CS_FILTER_TARGET_TIMELINE) != 0);
  json_builder_set_member_name (builder, "hide_in_timeline");
  json_builder_add_boolean_value (builder, session->hide_filtered);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "window");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "width");
  json_builder_add_int_value (builder, session->width);
  json_builder_set_member_name (builder, "height");
  json_builder_add_int_value (builder, session->height);
  json_builder_set_member_name (builder, "maximized");
  json_builder_add_boolean_value (builder, session->maximized);
  json_builder_set_member_name (builder, "paned_position");
  json_builder_add_int_value (builder, session->paned_position);
  json_builder_end_object (builder);

  if (session->disabled_plugins != NULL)
    {
      json_builder_set_member_name (builder, "plugins");
      json_builder_begin_object (builder);
      add_strings (builder, "disabled", session->disabled_plugins);
      add_strings (builder, "rows", session->plugin_rows);
      json_builder_end_object (builder);
    }

  if (session->query_text != NULL)
    {
      json_builder_set_member_name (builder, "query");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, session->query_text);
      add_strings (builder, "history", session->query_history);
      json_builder_end_object (builder);
    }

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);

  directory = g_path_get_dirname (path);
  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Could not create the folder %s: %s"), directory, g_strerror (saved_errno));
      return FALSE;
    }
  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}

/* Reading ------------------------------------------------------------------ */

/* The strings of the array @name of @object; NULL when it has none. */
static char **
get_strings (JsonObject *object,
             const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  JsonArray *array;
  GPtrArray *strings;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  strings = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
        g_ptr_array_add (strings, g_strdup (json_node_get_string (element)));
    }
  g_ptr_array_add (strings, NULL);
  return (char **) g_ptr_array_free (strings, FALSE);
}

static JsonObject *
get_object (JsonObject *object, const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static gboolean
get_int (JsonObject *object, const char *name, gint64 *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
get_bool (JsonObject *object, const char *name, gboolean fallback)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return fallback;
  return json_node_get_boolean (node);
}

static GArray *
get_int_array (JsonObject *object, const char *name, gsize element_size)
{
  JsonNode *node = json_object_get_member (object, name);
  JsonArray *array;
  GArray *values;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  values = g_array_new (FALSE, FALSE, element_size);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gint64 value;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_INT64)
        continue;
      value = json_node_get_int (element);
      if (value < 0 || value > G_MAXINT32)
        continue;
      if (element_size == sizeof (guint))
        {
          guint cpu = (guint) value;
          g_array_append_val (values, cpu);
        }
      else
        {
          gint32 pid = (gint32) value;
          g_array_append_val (values, pid);
        }
    }
  return values;
}

/* A recording that moved with its session: the same name next to it. */
static char *
resolve_recording (const char *recording, const char *session_path)
{
  g_autofree char *directory = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *beside = NULL;

  if (g_file_test (recording, G_FILE_TEST_EXISTS))
    return g_strdup (recording);

  directory = g_path_get_dirname (session_path);
  basename = g_path_get_basename (recording);
  beside = g_build_filename (directory, basename, NULL);
  if (g_file_test (beside, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&beside);

  if (!g_path_is_absolute (recording))
    return g_build_filename (directory, recording, NULL);
  return g_strdup (recording);
}

/**
 * cs_session_load:
 * @path: a session file
 * @error: return location for a %G_FILE_ERROR, %JSON_PARSER_ERROR or
 *   %CS_SESSION_ERROR_INVALID
 *
 * Reads a session.  Members it does not know are ignored; missing ones
 * keep the defaults a recording opens with.
 *
 * Returns: (transfer full) (nullable): the session
 */
CsSession *
cs_session_load (const char  *path,
                 GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(CsSession) self = NULL;
  JsonNode *root;
  JsonObject *object, *member;
  const char *format, *recording, *active;
  gint64 version = 0, value;

  g_return_val_if_fail (path != NULL, NULL);

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;

  root = json_parser_get_root (parser);
  object = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  format = object != NULL ? json_object_get_string_member_with_default (object, "format", NULL) : NULL;
  if (g_strcmp0 (format, SESSION_FORMAT) != 0)
    {
      g_set_error (error, CS_SESSION_ERROR, CS_SESSION_ERROR_INVALID,
                   _("%s is not a Chronoscope session"), path);
      return NULL;
    }
  if (!get_int (object, "version", &version) || version > SESSION_VERSION)
    {
      g_set_error (error, CS_SESSION_ERROR, CS_SESSION_ERROR_INVALID,
                   _("%s was saved by a newer Chronoscope (session version %" PRId64 ")"),
                   path, version);
      return NULL;
    }
  recording = json_object_get_string_member_with_default (object, "recording", NULL);
  if (recording == NULL || *recording == '\0')
    {
      g_set_error (error, CS_SESSION_ERROR, CS_SESSION_ERROR_INVALID,
                   _("%s names no recording"), path);
      return NULL;
    }

  self = cs_session_new ();
  self->recording = resolve_recording (recording, path);

  member = get_object (object, "view");
  self->has_view = get_int (member, "begin_ns", &self->begin_ns) &&
                   get_int (member, "end_ns", &self->end_ns) &&
                   self->end_ns > self->begin_ns;

  self->cpus = get_int_array (object, "cpu_plots", sizeof (guint));
  {
    g_autoptr(GArray) pids = get_int_array (object, "task_plots", sizeof (gint32));

    if (pids != NULL)
      g_array_append_vals (self->pids, pids->data, pids->len);
  }

  member = get_object (object, "markers");
  if (get_int (member, "a_ns", &value))
    self->marker_ns[CS_MARKER_A] = value;
  if (get_int (member, "b_ns", &value))
    self->marker_ns[CS_MARKER_B] = value;
  active = member != NULL ? json_object_get_string_member_with_default (member, "active", "a") : "a";
  self->active_marker = g_strcmp0 (active, "b") == 0 ? CS_MARKER_B : CS_MARKER_A;

  member = get_object (object, "filter");
  if (member != NULL)
    {
      const char *text = json_object_get_string_member_with_default (member, "text", NULL);

      self->filter_text = text != NULL && *text != '\0' ? g_strdup (text) : NULL;
      self->filter_targets = (get_bool (member, "list", TRUE) ? CS_FILTER_TARGET_LIST : 0) |
                             (get_bool (member, "timeline", TRUE) ? CS_FILTER_TARGET_TIMELINE : 0);
      self->hide_filtered = get_bool (member, "hide_in_timeline", FALSE);
    }

  member = get_object (object, "window");
  if (get_int (member, "width", &value) && value > 0 && value < 100000)
    self->width = (int) value;
  if (get_int (member, "height", &value) && value > 0 && value < 100000)
    self->height = (int) value;
  self->maximized = get_bool (member, "maximized", FALSE);
  if (get_int (member, "paned_position", &value) && value >= 0 && value < 100000)
    self->paned_position = (int) value;

  member = get_object (object, "plugins");
  self->disabled_plugins = get_strings (member, "disabled");
  self->plugin_rows = get_strings (member, "rows");

  member = get_object (object, "query");
  if (member != NULL)
    {
      self->query_text = g_strdup (json_object_get_string_member_with_default (member, "text", NULL));
      self->query_history = get_strings (member, "history");
    }

  return g_steal_pointer (&self);
}

/* Restoring ---------------------------------------------------------------- */

typedef struct {
  CsSession *session;
  CsWindow *window;           /* weak */
  gulong handler_id;
} Pending;

static void
pending_free (gpointer data,
              GClosure *closure)
{
  Pending *pending = data;

  cs_session_free (pending->session);
  g_clear_weak_pointer (&pending->window);
  g_free (pending);
}

static CsSession *
cs_session_copy (CsSession *session)
{
  CsSession *copy = g_memdup2 (session, sizeof *session);

  copy->recording = g_strdup (session->recording);
  copy->cpus = session->cpus != NULL ? g_array_copy (session->cpus) : NULL;
  copy->pids = g_array_copy (session->pids);
  copy->filter_text = g_strdup (session->filter_text);
  copy->disabled_plugins = g_strdupv (session->disabled_plugins);
  copy->plugin_rows = g_strdupv (session->plugin_rows);
  copy->query_text = g_strdup (session->query_text);
  copy->query_history = g_strdupv (session->query_history);
  return copy;
}

/* The recording is shown: plots, filter, span and markers. */
static void
cs_session_apply (CsSession *self, CsWindow *window)
{
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsAnalysis *analysis = cs_window_get_analysis (window);
  CsDocument *document = cs_analysis_get_document (analysis);

  if (self->cpus != NULL)
    cs_analysis_set_cpu_plots (analysis, (const guint *) self->cpus->data, self->cpus->len);
  cs_analysis_set_task_plots (analysis, (const gint32 *) self->pids->data, self->pids->len);

  cs_analysis_set_filter_targets (analysis, self->filter_targets);
  cs_analysis_set_hide_filtered (analysis, self->hide_filtered);
  if (self->filter_text != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsEventFilter) filter = cs_event_filter_new_from_string (document, self->filter_text, &error);

      if (filter != NULL)
        cs_analysis_set_filter (analysis, filter);
      else
        g_message ("The session's filter cannot be used with %s: %s", self->recording, error->message);
    }

  /* The split as saved, whatever adding the plots did to it. */
  if (self->paned_position >= 0 && window_get_paned (window) != NULL)
    gtk_paned_set_position (window_get_paned (window), self->paned_position);

  if (self->disabled_plugins != NULL)
    {
      cs_plugin_host_set_disabled_ids (cs_plugin_host_get_default (),
                                       (const char * const *) self->disabled_plugins);
      cs_plugin_window_set_rows (cs_window_get_plugins (window),
                                 (const char * const *) self->plugin_rows);
    }

  if (self->query_text != NULL)
    cs_query_page_set_text (cs_window_get_query_page (window), self->query_text);
  if (self->query_history != NULL)
    cs_query_page_set_history (cs_window_get_query_page (window),
                               (const char * const *) self->query_history);

  if (self->has_view)
    cs_timeline_set_span (timeline, self->begin_ns, self->end_ns);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, self->marker_ns[CS_MARKER_A]);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, self->marker_ns[CS_MARKER_B]);
  cs_timeline_set_active_marker (timeline, self->active_marker);
}

static gboolean
window_shows (CsWindow *window, const char *recording)
{
  GFile *file = cs_window_get_file (window);
  g_autoptr(GFile) wanted = g_file_new_for_path (recording);

  return file != NULL && cs_timeline_get_document (cs_window_get_timeline (window)) != NULL &&
         g_file_equal (file, wanted);
}

static void
document_changed_cb (CsAnalysis *analysis, Pending *pending)
{
  CsWindow *window = pending->window;

  if (window != NULL && window_shows (window, pending->session->recording))
    cs_session_apply (pending->session, window);
  /* Once: whatever the window opened, the session is done. */
  g_signal_handler_disconnect (analysis, pending->handler_id);
}

/**
 * cs_session_restore:
 * @session: (transfer none): a session
 * @window: the window to show it in
 *
 * Sizes @window and its split as the session says, then opens the
 * session's recording in @window (unless it shows it already) and, once it
 * is shown, restores the plots, filter, visible span and markers.  Opening
 * errors show in the window's error banner as for any recording.
 */
void
cs_session_restore (CsSession *session,
                    CsWindow  *window)
{
  CsAnalysis *analysis;
  GtkPaned *paned;
  Pending *pending;
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (session != NULL);
  g_return_if_fail (CS_IS_WINDOW (window));

  if (session->width > 0 && session->height > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), session->width, session->height);
  if (session->maximized)
    gtk_window_maximize (GTK_WINDOW (window));
  paned = window_get_paned (window);
  if (paned != NULL && session->paned_position >= 0)
    gtk_paned_set_position (paned, session->paned_position);

  if (window_shows (window, session->recording))
    {
      cs_session_apply (session, window);
      return;
    }

  analysis = cs_window_get_analysis (window);
  pending = g_new0 (Pending, 1);
  pending->session = cs_session_copy (session);
  g_set_weak_pointer (&pending->window, window);
  pending->handler_id = g_signal_connect_data (analysis, "document-changed",
                                               G_CALLBACK (document_changed_cb), pending,
                                               pending_free, 0);

  file = g_file_new_for_path (session->recording);
  cs_window_open_file (window, file);
}

/**
 * cs_session_open:
 * @window: the window to show the session in
 * @path: a session file
 * @error: return location for an error of cs_session_load()
 *
 * Reads the session at @path and restores it in @window
 * (cs_session_restore()).
 *
 * Returns: whether the file was a session
 */
gboolean
cs_session_open (CsWindow    *window,
                 const char  *path,
                 GError     **error)
{
  g_autoptr(CsSession) session = NULL;

  g_return_val_if_fail (CS_IS_WINDOW (window), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  session = cs_session_load (path, error);
  if (session == NULL)
    return FALSE;
  cs_session_restore (session, window);
  return TRUE;
}

/**
 * cs_session_get_last_path:
 *
 * Returns: (transfer full): $XDG_CONFIG_HOME/chronoscope/last-session.json,
 *   where windows save their session when they close
 */
char *
cs_session_get_last_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "chronoscope", "last-session.json", NULL);
}

/**
 * cs_session_save_last:
 * @window: a window
 * @error: return location for a %G_FILE_ERROR
 *
 * Saves what @window shows as the last session, if it shows a recording.
 *
 * Returns: %FALSE with @error set when writing failed; %TRUE otherwise
 */
gboolean
cs_session_save_last (CsWindow  *window,
                      GError   **error)
{
  g_autoptr(CsSession) session = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (CS_IS_WINDOW (window), FALSE);

  session = cs_session_capture (window);
  if (session == NULL)
    return TRUE;
  path = cs_session_get_last_path ();
  return cs_session_save (session, path, error);
}
