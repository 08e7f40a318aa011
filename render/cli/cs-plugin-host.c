/* cs-plugin-host.c: the plugins of this process, which are enabled, and
 * how their passes run in a worker.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One CsPluginHost per process (the window's and every command's): it
 * owns the CsPluginRegistry, loaded once, from, in this order, the files
 * given with `-p/--plugin FILE.so` (cs_plugin_host_take_args() takes them
 * off the command line before anything else parses it),
 * CHRONOSCOPE_PLUGIN_PATH, $XDG_DATA_HOME/chronoscope/plugins/ and
 * PLUGINDIR (see cs-plugin-registry.c).  Refused files stay in the
 * registry with their error, for the Plugins dialog; the process carries
 * on without them.
 *
 * Every loaded plugin is enabled unless its id is in the GSettings key
 * disabled-plugins (so the built-ins are on by default); without the
 * schema (an uninstalled build) the choice lives for the process only.
 * The enabled-changed signal tells the windows, which enable or disable
 * the plugin on their recording at once.
 *
 * Passes run in the indexing worker (`chronoscope index-worker --pass`,
 * through CsIndexJob), never in this process: a plugin that crashes
 * there takes down only the worker.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-cli-progress.h"
#include "cs-index-job.h"
#include "cs-plugin-host.h"

#define DISABLED_KEY "disabled-plugins"

struct _CsPluginHost
{
  GObject parent_instance;

  CsPluginRegistry *registry;
  GSettings *settings;              /* NULL without the schema */
  GHashTable *disabled;             /* ids */
  GHashTable *open_errors;          /* id -> message of the last open hook failure */
};

G_DEFINE_FINAL_TYPE (CsPluginHost, cs_plugin_host, G_TYPE_OBJECT)

enum {
  ENABLED_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];
static GPtrArray *pending_files;    /* -p files given before the host exists */
static CsPluginHost *default_host;

static void
cs_plugin_host_finalize (GObject *object)
{
  CsPluginHost *self = CS_PLUGIN_HOST (object);

  g_clear_object (&self->registry);
  g_clear_object (&self->settings);
  g_hash_table_unref (self->disabled);
  g_hash_table_unref (self->open_errors);

  G_OBJECT_CLASS (cs_plugin_host_parent_class)->finalize (object);
}

static void
cs_plugin_host_class_init (CsPluginHostClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_plugin_host_finalize;

  /**
   * CsPluginHost::enabled-changed:
   * @host: the host
   * @plugin: (type gpointer): the CsPlugin turned on or off
   *
   * A plugin was enabled or disabled (cs_plugin_host_set_enabled()).
   */
  signals[ENABLED_CHANGED] =
    g_signal_new ("enabled-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static GSettings *
lookup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  schema = source != NULL ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  if (schema == NULL || !g_settings_schema_has_key (schema, DISABLED_KEY))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static void
cs_plugin_host_init (CsPluginHost *self)
{
  self->registry = cs_plugin_registry_new ();
  self->disabled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->open_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->settings = lookup_settings ();
  if (self->settings != NULL)
    {
      g_auto(GStrv) ids = g_settings_get_strv (self->settings, DISABLED_KEY);

      for (guint i = 0; ids[i] != NULL; i++)
        g_hash_table_add (self->disabled, g_strdup (ids[i]));
    }
}

/**
 * cs_plugin_host_add_file:
 * @path: a plugin file, as given with `-p` (relative to the current folder)
 *
 * Loads one more plugin, before the scanned ones: now when the host
 * exists, or when it is first made.  Main thread.
 */
void
cs_plugin_host_add_file (const char *path)
{
  g_return_if_fail (path != NULL);

  if (default_host != NULL)
    {
      cs_plugin_registry_load_file (default_host->registry, path, CS_PLUGIN_SOURCE_COMMAND_LINE);
      return;
    }
  if (pending_files == NULL)
    pending_files = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (pending_files, g_canonicalize_filename (path, NULL));
}

/**
 * cs_plugin_host_take_args:
 * @argc: the number of arguments
 * @argv: (array length=argc) (inout): the program's arguments; `-p FILE`,
 *   `-pFILE`, `--plugin FILE` and `--plugin=FILE` are removed (until a
 *   `--`), and each FILE given to cs_plugin_host_add_file()
 *
 * Takes the plugin options off a command line, for the window and every
 * command alike.  `record` is not given to it: its `-p` is a tracer.
 *
 * Returns: the new argc (@argv stays %NULL-terminated when it was)
 */
int
cs_plugin_host_take_args (int    argc,
                          char **argv)
{
  int out = 0;

  for (int i = 0; i < argc; i++)
    {
      const char *arg = argv[i];
      const char *file = NULL;

      if (i > 0 && g_strcmp0 (arg, "--") == 0)
        {
          for (; i < argc; i++)
            argv[out++] = argv[i];
          break;
        }
      if (i > 0 && (g_strcmp0 (arg, "-p") == 0 || g_strcmp0 (arg, "--plugin") == 0) && i + 1 < argc)
        file = argv[++i];
      else if (i > 0 && g_str_has_prefix (arg, "--plugin="))
        file = arg + strlen ("--plugin=");
      else if (i > 0 && g_str_has_prefix (arg, "-p") && arg[2] != '\0' && arg[2] != '-')
        file = arg + 2;
      if (file != NULL)
        cs_plugin_host_add_file (file);
      else
        argv[out++] = argv[i];
    }
  if (out < argc)
    argv[out] = NULL;
  return out;
}

/**
 * cs_plugin_host_get_default:
 *
 * The process's host; made at the first call, which loads every plugin
 * (files given with `-p` first).  Main thread.
 *
 * Returns: (transfer none): the host
 */
CsPluginHost *
cs_plugin_host_get_default (void)
{
  if (default_host != NULL)
    return default_host;

  default_host = g_object_new (CS_TYPE_PLUGIN_HOST, NULL);
  for (guint i = 0; pending_files != NULL && i < pending_files->len; i++)
    cs_plugin_registry_load_file (default_host->registry, g_ptr_array_index (pending_files, i),
                                  CS_PLUGIN_SOURCE_COMMAND_LINE);
  g_clear_pointer (&pending_files, g_ptr_array_unref);
  cs_plugin_registry_scan (default_host->registry);

  for (guint i = 0; i < cs_plugin_registry_get_n_records (default_host->registry); i++)
    {
      const CsPluginRecord *record = cs_plugin_registry_get_record (default_host->registry, i);

      if (record->error != NULL)
        g_message ("%s", record->error->message);
    }
  return default_host;
}

/**
 * cs_plugin_host_get_registry:
 * @self: the host
 *
 * Returns: (transfer none): every plugin file found, loaded or refused
 */
CsPluginRegistry *
cs_plugin_host_get_registry (CsPluginHost *self)
{
  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), NULL);
  return self->registry;
}

/**
 * cs_plugin_host_is_enabled:
 * @self: the host
 * @plugin: a loaded plugin
 *
 * Returns: whether @plugin is used (not in disabled-plugins)
 */
gboolean
cs_plugin_host_is_enabled (CsPluginHost *self,
                           CsPlugin     *plugin)
{
  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), FALSE);
  return !g_hash_table_contains (self->disabled, cs_plugin_get_id (plugin));
}

static void
save_disabled (CsPluginHost *self)
{
  g_auto(GStrv) ids = cs_plugin_host_dup_disabled_ids (self);

  if (self->settings != NULL)
    g_settings_set_strv (self->settings, DISABLED_KEY, (const char * const *) ids);
}

/**
 * cs_plugin_host_set_enabled:
 * @self: the host
 * @plugin: a loaded plugin
 * @enabled: whether to use it
 *
 * Turns a plugin on or off, keeps the choice in GSettings and emits
 * #CsPluginHost::enabled-changed when it changed.  Main thread.
 */
void
cs_plugin_host_set_enabled (CsPluginHost *self,
                            CsPlugin     *plugin,
                            gboolean      enabled)
{
  const char *id;

  g_return_if_fail (CS_IS_PLUGIN_HOST (self));
  g_return_if_fail (plugin != NULL);

  id = cs_plugin_get_id (plugin);
  if (enabled == !g_hash_table_contains (self->disabled, id))
    return;
  if (enabled)
    g_hash_table_remove (self->disabled, id);
  else
    g_hash_table_add (self->disabled, g_strdup (id));
  save_disabled (self);
  g_signal_emit (self, signals[ENABLED_CHANGED], 0, plugin);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/**
 * cs_plugin_host_dup_enabled_plugins:
 * @self: the host
 *
 * Plugins are never unloaded, so the array's plugins may be handed to
 * another thread (an SQL session's, cs_plugin_host_add_sql_tables()).
 * Main thread.
 *
 * Returns: (transfer container) (element-type CsPlugin): the loaded
 *   plugins that are enabled, in load order
 */
GPtrArray *
cs_plugin_host_dup_enabled_plugins (CsPluginHost *self)
{
  GPtrArray *plugins = cs_plugin_registry_dup_plugins (self->registry);

  for (guint i = plugins->len; i-- > 0;)
    if (!cs_plugin_host_is_enabled (self, plugins->pdata[i]))
      g_ptr_array_remove_index (plugins, i);
  return plugins;
}

/**
 * cs_plugin_host_add_sql_tables:
 * @plugins: (element-type CsPlugin): plugins in use, as
 *   cs_plugin_host_dup_enabled_plugins() gives them
 * @document: the recording @session reads
 * @session: an SQL session
 * @error: %CS_SQL_ERROR_FAILED when a plugin's table cannot be added
 *
 * Adds the SQL tables the plugins register (cs_plugin_add_sql_table())
 * over their pass results stored for @document, such as the latency
 * plugin's `latency_pairs`.  The session's thread.
 *
 * Returns: %TRUE when every table was added
 */
gboolean
cs_plugin_host_add_sql_tables (GPtrArray     *plugins,
                               CsDocument    *document,
                               CsSqlSession  *session,
                               GError       **error)
{
  return _cs_plugin_add_sql_tables (plugins, document, session, error);
}

/**
 * cs_plugin_host_dup_disabled_ids:
 * @self: the host
 *
 * Returns: (transfer full): the ids of the disabled plugins, sorted (some
 *   may name plugins this process did not find)
 */
char **
cs_plugin_host_dup_disabled_ids (CsPluginHost *self)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), NULL);

  g_hash_table_iter_init (&iter, self->disabled);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (ids, g_strdup (key));
  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

/**
 * cs_plugin_host_set_disabled_ids:
 * @self: the host
 * @ids: (array zero-terminated=1): ids of the plugins to disable; every
 *   other plugin is enabled
 *
 * Restores a set of choices (a session's); signals each change.
 */
void
cs_plugin_host_set_disabled_ids (CsPluginHost       *self,
                                 const char * const *ids)
{
  g_autoptr(GPtrArray) plugins = NULL;

  g_return_if_fail (CS_IS_PLUGIN_HOST (self));

  plugins = cs_plugin_registry_dup_plugins (self->registry);
  for (guint i = 0; i < plugins->len; i++)
    {
      CsPlugin *plugin = g_ptr_array_index (plugins, i);

      cs_plugin_host_set_enabled (self, plugin,
                                  ids == NULL || !g_strv_contains (ids, cs_plugin_get_id (plugin)));
    }
}

/**
 * cs_plugin_host_get_open_error:
 * @self: the host
 * @plugin: a plugin
 *
 * Returns: (nullable) (transfer none): why the plugin's open hook last
 *   refused a recording, for the Plugins dialog
 */
const char *
cs_plugin_host_get_open_error (CsPluginHost *self,
                               CsPlugin     *plugin)
{
  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), NULL);
  return g_hash_table_lookup (self->open_errors, cs_plugin_get_id (plugin));
}

/**
 * cs_plugin_host_enable_on:
 * @self: the host
 * @document: a recording's plugin side
 * @plugin: a loaded plugin
 *
 * Enables @plugin on @document (its open hook runs); a refusal is logged
 * and kept for cs_plugin_host_get_open_error().
 *
 * Returns: whether it is enabled there
 */
gboolean
cs_plugin_host_enable_on (CsPluginHost     *self,
                          CsPluginDocument *document,
                          CsPlugin         *plugin)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), FALSE);

  if (_cs_plugin_document_enable (document, plugin, &error))
    {
      g_hash_table_remove (self->open_errors, cs_plugin_get_id (plugin));
      return TRUE;
    }
  g_message ("%s", error->message);
  g_hash_table_insert (self->open_errors, g_strdup (cs_plugin_get_id (plugin)),
                       g_strdup (error->message));
  return FALSE;
}

/**
 * cs_plugin_host_ensure_pass:
 * @data: unused (a #CsPluginPassScheduler's closure)
 * @document: a recording's plugin side
 * @plugin: a plugin
 * @pass: one of its passes
 * @param: (nullable): its parameter
 * @cancellable: (nullable): stops the worker
 * @error: see cs_plugin_host_run_pass()
 *
 * The #CsPluginPassScheduler.ensure of the command line and the window:
 * cs_plugin_host_run_pass(), which waits.
 *
 * Returns: %TRUE when the results are written
 */
gboolean
cs_plugin_host_ensure_pass (gpointer          data,
                            CsPluginDocument *document,
                            CsPlugin         *plugin,
                            const char       *pass,
                            const char       *param,
                            GCancellable     *cancellable,
                            GError          **error)
{
  return cs_plugin_host_run_pass (document, plugin, pass, param, cancellable, error);
}

static void
request_in_worker (gpointer          data,
                   CsPluginDocument *document,
                   CsPlugin         *plugin,
                   const char       *pass,
                   const char       *param)
{
  g_autoptr(GError) error = NULL;

  if (cs_plugin_host_run_pass (document, plugin, pass, param, NULL, &error))
    _cs_plugin_document_pass_finished (document, plugin, pass, param);
  else
    g_message ("%s", error->message);
}

/* Without a window, a request waits for its pass. */
static const CsPluginPassScheduler sync_scheduler = {
  request_in_worker,
  cs_plugin_host_ensure_pass,
  NULL,
};

/**
 * cs_plugin_host_open_document:
 * @self: the host
 * @document: an open recording
 *
 * Wraps @document for the plugins, with every enabled plugin enabled on it
 * and passes run synchronously in the worker (the command line's way; a
 * window installs its own scheduler).  Automatic passes are not run yet.
 *
 * Returns: (transfer full): the plugin side of @document
 */
CsPluginDocument *
cs_plugin_host_open_document (CsPluginHost *self,
                              CsDocument   *document)
{
  g_autoptr(GPtrArray) plugins = NULL;
  CsPluginDocument *plugin_document;

  g_return_val_if_fail (CS_IS_PLUGIN_HOST (self), NULL);

  plugin_document = _cs_plugin_document_new (document);
  _cs_plugin_document_set_scheduler (plugin_document, &sync_scheduler, NULL);
  plugins = cs_plugin_registry_dup_plugins (self->registry);
  for (guint i = 0; i < plugins->len; i++)
    if (cs_plugin_host_is_enabled (self, g_ptr_array_index (plugins, i)))
      cs_plugin_host_enable_on (self, plugin_document, g_ptr_array_index (plugins, i));
  return plugin_document;
}

/**
 * cs_plugin_host_open_results:
 * @document: an open recording
 * @in_worker: %TRUE to run the passes asked for with
 *   cs_plugin_document_ensure_pass() in a worker process and wait,
 *   iterating the default main context (the command line's way); %FALSE
 *   to run them in the calling thread
 *
 * Wraps @document to read passes' results only, whichever plugins the
 * user enabled: no plugin is enabled on it, so no layer, page or open
 * hook runs; results are reused from the index cache when they are there.
 * The classroom demos read the kmod plugin's pass so (cs_demo_find_markers()).
 *
 * Returns: (transfer full): the plugin side of @document
 */
CsPluginDocument *
cs_plugin_host_open_results (CsDocument *document,
                             gboolean    in_worker)
{
  CsPluginDocument *plugin_document = _cs_plugin_document_new (document);

  if (in_worker)
    _cs_plugin_document_set_scheduler (plugin_document, &sync_scheduler, NULL);
  return plugin_document;
}

typedef struct {
  GMainLoop *loop;
  gboolean pass;
  CsDocument *document;
  gboolean ok;
  GError *error;
} JobWait;

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  JobWait *wait = user_data;

  if (wait->pass)
    wait->ok = cs_index_job_run_pass_finish (CS_INDEX_JOB (source), result, &wait->error);
  else
    wait->ok = (wait->document = cs_index_job_run_finish (CS_INDEX_JOB (source), result,
                                                          &wait->error)) != NULL;
  g_main_loop_quit (wait->loop);
}

/* Runs @job and waits, iterating the default main context, with the
 * command line's progress line (cs-cli-progress.c), @progress. */
static gboolean
run_job_sync (CsIndexJob    *job,
              CsCliProgress *progress,
              gboolean       pass,
              GCancellable  *cancellable,
              CsDocument   **document,
              GError       **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  JobWait wait = { loop, pass, NULL, FALSE, NULL };
  cs_cli_progress_watch_job (progress, job);
  cs_index_job_run_async (job, cancellable, job_done_cb, &wait);
  g_main_loop_run (loop);
  cs_cli_progress_free (progress);
  if (!wait.ok)
    g_propagate_error (error, wait.error);
  if (document != NULL)
    *document = wait.document;
  return wait.ok;
}

/**
 * cs_plugin_host_load_document:
 * @path: a recording
 * @cancellable: (nullable): stops the worker
 * @error: what cs_index_job_run_finish() reports
 *
 * Builds or reuses the index of @path in the worker and opens it, waiting
 * (the command line's way).
 *
 * Returns: (transfer full) (nullable): the document
 */
CsDocument *
cs_plugin_host_load_document (const char    *path,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(CsIndexJob) job = cs_index_job_new (file);
  CsDocument *document = NULL;

  run_job_sync (job, cs_cli_progress_new_indexing (path), FALSE, cancellable, &document, error);
  return document;
}

/**
 * cs_plugin_host_run_pass:
 * @document: a recording's plugin side
 * @plugin: a plugin
 * @pass: one of its passes
 * @param: (nullable): the pass's parameter
 * @cancellable: (nullable): stops the worker
 * @error: %CS_PLUGIN_ERROR_USAGE when the parameter names what the
 *   recording lacks, %CS_PLUGIN_ERROR_FAILED with the worker's message
 *   (the pass's error), %G_IO_ERROR_CANCELLED
 *
 * Runs a pass in a worker process and waits, iterating the default main
 * context.  For the command line (and tests); the window runs passes
 * with CsIndexJob asynchronously.
 *
 * Returns: %TRUE when the results are written
 */
gboolean
cs_plugin_host_run_pass (CsPluginDocument  *document,
                         CsPlugin          *plugin,
                         const char        *pass,
                         const char        *param,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (cs_plugin_document_get_path (document));
  g_autoptr(CsIndexJob) job = cs_index_job_new (file);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *basename = g_path_get_basename (cs_plugin_document_get_path (document));
  /* TRANSLATORS: the progress line on stderr: the plugin's id, its pass
   * and the recording's name */
  g_autofree char *label = g_strdup_printf (_("Running %s %s on %s"), cs_plugin_get_id (plugin),
                                            pass, basename);

  cs_index_job_set_pass (job, cs_plugin_get_path (plugin), pass, param);
  /* A pass's fraction counts events, not bytes. */
  if (run_job_sync (job, cs_cli_progress_new (label, 0), TRUE, cancellable, NULL, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (local_error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE))
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, local_error->message);
  return FALSE;
}
