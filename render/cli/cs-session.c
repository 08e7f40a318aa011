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
 * survives a rebuilt index.  A session is captured from a window's view
 * model (CsViewModel) and restored into one, never from or into a widget;
 * the window opens the recording (cs-window-session.c: its index is reused
 * from the cache, so this is immediate after the first time) and restores
 * the rest into its model when the recording is shown.  A recording that
 * moved is looked for next to the session file.  The last
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

#include "cs-plugin-host.h"
#include "cs-session.h"

#define SESSION_FORMAT  "chronoscope-session"
#define SESSION_VERSION 1

/* The values of CsMarker and the bits of CsFilterTarget, which the view
 * model keeps as numbers so that it needs no widget header. */
enum { MARKER_A = 0, MARKER_B = 1 };
enum { FILTER_LIST = 1 << 0, FILTER_TIMELINE = 1 << 1 };

struct _CsSession
{
  char *recording;
  gboolean has_view;
  gint64 begin_ns;
  gint64 end_ns;
  GArray *cpus;               /* guint, or NULL: the default */
  GArray *pids;               /* gint32 */
  gint64 marker_ns[2];        /* CS_VIEW_MODEL_MARKER_UNSET when not placed */
  guint active_marker;         /* MARKER_A or MARKER_B */
  char *filter_text;          /* NULL: no filter */
  guint filter_targets;        /* FILTER_LIST | FILTER_TIMELINE */
  gboolean hide_filtered;
  int width;                  /* 0: unknown */
  int height;
  gboolean maximized;
  int paned_position;         /* -1: unknown */
  char **disabled_plugins;    /* NULL: not saved (leave the choice as it is) */
  char **plugin_rows;         /* "PLUGIN:LAYER:KEY" */
  char *query_text;           /* NULL: not saved */
  char **query_history;       /* newest first; NULL: not saved */
  GVariant *streams;          /* a(sxbb), the "streams" of CsViewModel; NULL: none */
};

G_DEFINE_QUARK (cs-session-error-quark, cs_session_error)

static CsSession *
cs_session_new (void)
{
  CsSession *self = g_new0 (CsSession, 1);

  self->pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  self->marker_ns[MARKER_A] = self->marker_ns[MARKER_B] = CS_VIEW_MODEL_MARKER_UNSET;
  self->active_marker = MARKER_A;
  self->filter_targets = (FILTER_LIST | FILTER_TIMELINE);
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
  g_clear_pointer (&session->streams, g_variant_unref);
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

/**
 * cs_session_capture:
 * @model: the view model of a window (cs_window_get_model())
 *
 * Takes what @model says the window shows, and which plugins the process
 * has turned off.
 *
 * Returns: (transfer full) (nullable): the session, %NULL when @model shows
 *   no recording
 */
CsSession *
cs_session_capture (CsViewModel *model)
{
  GFile *file;
  GVariant *plots;
  CsSession *self;

  g_return_val_if_fail (CS_IS_VIEW_MODEL (model), NULL);

  file = cs_view_model_get_file (model);
  if (file == NULL || cs_view_model_get_document (model) == NULL)
    return NULL;

  self = cs_session_new ();
  self->recording = g_file_get_path (file);
  self->has_view = TRUE;
  self->begin_ns = cs_view_model_get_begin_ns (model);
  self->end_ns = cs_view_model_get_end_ns (model);

  self->cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  plots = cs_view_model_get_cpu_plots (model);
  if (plots != NULL)
    {
      gsize n;
      const guint32 *cpus = g_variant_get_fixed_array (plots, &n, sizeof (guint32));

      g_array_append_vals (self->cpus, cpus, n);
    }
  plots = cs_view_model_get_task_plots (model);
  if (plots != NULL)
    {
      gsize n;
      const gint32 *pids = g_variant_get_fixed_array (plots, &n, sizeof (gint32));

      g_array_append_vals (self->pids, pids, n);
    }

  self->marker_ns[MARKER_A] = cs_view_model_get_marker_ns (model, MARKER_A);
  self->marker_ns[MARKER_B] = cs_view_model_get_marker_ns (model, MARKER_B);
  self->active_marker = cs_view_model_get_active_marker (model) == MARKER_B ? MARKER_B : MARKER_A;

  self->filter_text = g_strdup (cs_view_model_get_filter_text (model));
  g_object_get (model,
                "filter-targets", &self->filter_targets,
                "hide-filtered", &self->hide_filtered,
                "width", &self->width,
                "height", &self->height,
                "maximized", &self->maximized,
                "paned-position", &self->paned_position,
                NULL);
  self->disabled_plugins = cs_plugin_host_dup_disabled_ids (cs_plugin_host_get_default ());
  self->plugin_rows = g_strdupv ((char **) cs_view_model_get_plugin_rows (model));
  self->query_text = g_strdup (cs_view_model_get_query_text (model));
  if (self->query_text == NULL)
    self->query_text = g_strdup ("");
  self->query_history = g_strdupv ((char **) cs_view_model_get_query_history (model));
  g_object_get (model, "streams", &self->streams, NULL);
  return self;
}

/* Writing ------------------------------------------------------------------ */

static void
add_marker (JsonBuilder *builder, const char *name, gint64 ts_ns)
{
  json_builder_set_member_name (builder, name);
  if (ts_ns == CS_VIEW_MODEL_MARKER_UNSET)
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

/* "streams": the other recordings on the axis, as CsViewModel's "streams". */
static void
add_streams (JsonBuilder *builder, GVariant *streams)
{
  GVariantIter iter;
  const char *path;
  gint64 offset_ns;
  gboolean collapsed, hidden;

  json_builder_set_member_name (builder, "streams");
  json_builder_begin_array (builder);
  g_variant_iter_init (&iter, streams);
  while (g_variant_iter_next (&iter, "(&sxbb)", &path, &offset_ns, &collapsed, &hidden))
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "recording");
      json_builder_add_string_value (builder, path);
      json_builder_set_member_name (builder, "offset_ns");
      json_builder_add_int_value (builder, offset_ns);
      json_builder_set_member_name (builder, "collapsed");
      json_builder_add_boolean_value (builder, collapsed);
      json_builder_set_member_name (builder, "hidden");
      json_builder_add_boolean_value (builder, hidden);
      json_builder_end_object (builder);
    }
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
  add_marker (builder, "a_ns", session->marker_ns[MARKER_A]);
  add_marker (builder, "b_ns", session->marker_ns[MARKER_B]);
  json_builder_set_member_name (builder, "active");
  json_builder_add_string_value (builder, session->active_marker == MARKER_B ? "b" : "a");
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "filter");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  if (session->filter_text != NULL)
    json_builder_add_string_value (builder, session->filter_text);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "list");
  json_builder_add_boolean_value (builder, (session->filter_targets & FILTER_LIST) != 0);
  json_builder_set_member_name (builder, "timeline");
  json_builder_add_boolean_value (builder, (session->filter_targets & FILTER_TIMELINE) != 0);
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

  if (session->streams != NULL && g_variant_n_children (session->streams) > 0)
    add_streams (builder, session->streams);

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

/* "streams" back into CsViewModel's "a(sxbb)"; entries without a
 * recording are dropped, recordings that moved with the session found. */
static GVariant *
get_streams (JsonObject *object, const char *session_path)
{
  JsonNode *node = json_object_get_member (object, "streams");
  JsonArray *array = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  GVariantBuilder builder;

  if (array == NULL)
    return NULL;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sxbb)"));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *stream = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *recording = stream != NULL
                              ? json_object_get_string_member_with_default (stream, "recording", NULL)
                              : NULL;
      g_autofree char *path = NULL;
      gint64 offset_ns = 0;

      if (recording == NULL || *recording == '\0')
        continue;
      path = resolve_recording (recording, session_path);
      get_int (stream, "offset_ns", &offset_ns);
      g_variant_builder_add (&builder, "(sxbb)", path, offset_ns,
                             get_bool (stream, "collapsed", FALSE), get_bool (stream, "hidden", FALSE));
    }
  return g_variant_ref_sink (g_variant_builder_end (&builder));
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
    self->marker_ns[MARKER_A] = value;
  if (get_int (member, "b_ns", &value))
    self->marker_ns[MARKER_B] = value;
  active = member != NULL ? json_object_get_string_member_with_default (member, "active", "a") : "a";
  self->active_marker = g_strcmp0 (active, "b") == 0 ? MARKER_B : MARKER_A;

  member = get_object (object, "filter");
  if (member != NULL)
    {
      const char *text = json_object_get_string_member_with_default (member, "text", NULL);

      self->filter_text = text != NULL && *text != '\0' ? g_strdup (text) : NULL;
      self->filter_targets = (get_bool (member, "list", TRUE) ? FILTER_LIST : 0) |
                             (get_bool (member, "timeline", TRUE) ? FILTER_TIMELINE : 0);
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

  self->streams = get_streams (object, path);
  return g_steal_pointer (&self);
}

/* Restoring ---------------------------------------------------------------- */

/**
 * cs_session_get_disabled_plugins:
 * @session: a session
 *
 * Returns: (transfer none) (nullable): the ids of the plugins the session
 *   had turned off, %NULL when it does not say (leave the choice as it is)
 */
const char * const *
cs_session_get_disabled_plugins (CsSession *session)
{
  g_return_val_if_fail (session != NULL, NULL);

  return (const char * const *) session->disabled_plugins;
}

/**
 * cs_session_restore_geometry:
 * @session: a session
 * @model: a view model
 *
 * Gives @model the session's window size (logical px, when saved), its
 * maximized state and the split's position: what can be restored before
 * the recording is open.
 */
void
cs_session_restore_geometry (CsSession   *session,
                             CsViewModel *model)
{
  g_return_if_fail (session != NULL);
  g_return_if_fail (CS_IS_VIEW_MODEL (model));

  if (session->width > 0 && session->height > 0)
    g_object_set (model, "width", session->width, "height", session->height, NULL);
  if (session->maximized)
    g_object_set (model, "maximized", TRUE, NULL);
  if (session->paned_position >= 0)
    g_object_set (model, "paned-position", session->paned_position, NULL);
}

/**
 * cs_session_restore_view:
 * @session: a session
 * @model: the view model of a window that shows the session's recording,
 *   or of no window at all
 *
 * Gives @model the session's plots, filter (as text: a window's binding
 * reads it against its document), split position, plugin rows, Query text
 * and history, visible span and markers, in that order.  What the session
 * does not say is left as it is.  The process's plugins are not touched
 * (see cs_session_get_disabled_plugins()).
 */
void
cs_session_restore_view (CsSession   *session,
                         CsViewModel *model)
{
  g_return_if_fail (session != NULL);
  g_return_if_fail (CS_IS_VIEW_MODEL (model));

  if (session->cpus != NULL)
    g_object_set (model, "cpu-plots",
                  g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, session->cpus->data,
                                             session->cpus->len, sizeof (guint32)),
                  NULL);
  g_object_set (model, "task-plots",
                g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, session->pids->data,
                                           session->pids->len, sizeof (gint32)),
                NULL);

  g_object_set (model,
                "filter-targets", (guint) session->filter_targets,
                "hide-filtered", session->hide_filtered,
                NULL);
  if (session->filter_text != NULL)
    g_object_set (model, "filter-text", session->filter_text, NULL);

  /* The split as saved, whatever adding the plots did to it. */
  if (session->paned_position >= 0)
    g_object_set (model, "paned-position", session->paned_position, NULL);

  if (session->disabled_plugins != NULL)
    g_object_set (model, "plugin-rows", session->plugin_rows, NULL);

  if (session->query_text != NULL)
    g_object_set (model, "query-text", session->query_text, NULL);
  if (session->query_history != NULL)
    g_object_set (model, "query-history", session->query_history, NULL);
  /* the other recordings on the axis: the window adds them */
  g_object_set (model, "streams", session->streams, NULL);

  if (session->has_view)
    cs_view_model_set_span (model, session->begin_ns, session->end_ns);
  g_object_set (model,
                "marker-a-ns", session->marker_ns[MARKER_A],
                "marker-b-ns", session->marker_ns[MARKER_B],
                "active-marker", (guint) session->active_marker,
                NULL);
}

/**
 * cs_session_copy:
 * @session: a session
 *
 * Returns: (transfer full): a copy of @session
 */
CsSession *
cs_session_copy (CsSession *session)
{
  CsSession *copy;

  g_return_val_if_fail (session != NULL, NULL);

  copy = g_memdup2 (session, sizeof *session);
  copy->recording = g_strdup (session->recording);
  copy->cpus = session->cpus != NULL ? g_array_copy (session->cpus) : NULL;
  copy->pids = g_array_copy (session->pids);
  copy->filter_text = g_strdup (session->filter_text);
  copy->disabled_plugins = g_strdupv (session->disabled_plugins);
  copy->plugin_rows = g_strdupv (session->plugin_rows);
  copy->query_text = g_strdup (session->query_text);
  copy->query_history = g_strdupv (session->query_history);
  copy->streams = session->streams != NULL ? g_variant_ref (session->streams) : NULL;
  return copy;
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
