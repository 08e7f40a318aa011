/* cs-plugin-pass-runner.c: runs one plugin pass over a recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index already lists every event with its time, type and record
 * offset, so a pass does not re-scan the recording: the feed
 * (cs-plugin-pass-feed.c) walks the event chunks of the CPUs that hold
 * events of the wanted types, reads the wanted records, a thread per CPU
 * ahead of the pass, and merges the CPUs in time order; each event goes
 * to the plugin with its fields.  The plugin writes into a fresh database under a
 * temporary name that is renamed into place only when the pass succeeded:
 * a cancelled, failed or crashed pass leaves no results behind.
 *
 * Runs in the indexing worker process (render/cli/cs-cli.c, `index-worker
 * --pass`), or in-process for tests.
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include <event-parse.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cs-test-hook.h"
#include "cs-document-private.h"
#include "cs-plugin-document-private.h"
#include "cs-plugin-pass-feed.h"

#define PROGRESS_EVERY 4096
#define CANCEL_EVERY   512

struct _CsPluginPass
{
  CsPluginDocument *document;
  CsPlugin *plugin;
  sqlite3 *db;
  const char *param;
  guint64 n_events;
  gboolean document_idle;       /* the feed reads in threads of its own */
  gboolean plugin_running;      /* the authorizer guards chronoscope_pass */
};

sqlite3 *
cs_plugin_pass_get_db (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, NULL);
  return pass->db;
}

CsPluginDocument *
cs_plugin_pass_get_document (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, NULL);
  return pass->document;
}

const char *
cs_plugin_pass_get_param (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, NULL);
  return pass->param;
}

guint64
cs_plugin_pass_get_n_events (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, 0);
  return pass->n_events;
}

CsPlugin *
cs_plugin_pass_get_plugin (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, NULL);
  return pass->plugin;
}

gboolean
cs_plugin_pass_get_document_is_idle (CsPluginPass *pass)
{
  g_return_val_if_fail (pass != NULL, FALSE);
  return pass->document_idle;
}

/* Plugins own their tables, not the pass's bookkeeping, and reach no
 * other database. */
static int
authorize (void       *user_data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *db_name,
           const char *trigger)
{
  CsPluginPass *pass = user_data;

  if (action == SQLITE_ATTACH || action == SQLITE_DETACH)
    return SQLITE_DENY;
  if (pass->plugin_running && arg1 != NULL && g_str_equal (arg1, "chronoscope_pass") &&
      (action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE ||
       action == SQLITE_DROP_TABLE || action == SQLITE_ALTER_TABLE))
    return SQLITE_DENY;
  return SQLITE_OK;
}

/* ------------------------------------------------------------------------ */

/* Which type ids @patterns ("system:name", "system:*") name; counts their
 * events. */
static gboolean *
resolve_types (CsDocument          *doc,
               const char * const  *patterns,
               guint64             *n_events)
{
  guint n_types = cs_document_get_n_event_types (doc);
  gboolean *wanted = g_new0 (gboolean, MAX (n_types, 1));

  *n_events = 0;
  for (guint t = 0; t < n_types; t++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, t);
      g_autofree char *full = g_strdup_printf ("%s:%s", type->system, type->name);
      g_autofree char *any = g_strdup_printf ("%s:*", type->system);

      for (guint p = 0; patterns != NULL && patterns[p] != NULL; p++)
        if (g_str_equal (patterns[p], full) || g_str_equal (patterns[p], any))
          {
            wanted[t] = TRUE;
            *n_events += type->n_events;
            break;
          }
    }
  return wanted;
}

static gboolean
write_meta (sqlite3                *db,
            CsDocument             *doc,
            CsPlugin               *plugin,
            const CsPluginPassInfo *info,
            const char             *param,
            GError                **error)
{
  g_autofree char *version = g_strdup_printf ("%u", info->version);
  g_autofree char *schema = g_strdup_printf ("%d", CS_INDEX_SCHEMA_VERSION);
  const char *meta[][2] = {
    { "plugin", plugin->id },
    { "plugin_version", plugin->version },
    { "pass", info->name },
    { "version", version },
    { "param", param != NULL ? param : "" },
    { "identity", cs_document_get_identity (doc) },
    { "index_schema", schema },
  };
  g_autoptr(sqlite3_stmt) s = NULL;

  if (!_cs_sqlite_exec (db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                            "CREATE TABLE chronoscope_pass (key TEXT PRIMARY KEY, value)"
                            " WITHOUT ROWID;", error))
    return FALSE;
  s = _cs_sqlite_prepare (db, "INSERT INTO chronoscope_pass VALUES (?1, ?2)", error);
  if (s == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (meta); i++)
    {
      sqlite3_bind_text (s, 1, meta[i][0], -1, SQLITE_STATIC);
      sqlite3_bind_text (s, 2, meta[i][1], -1, SQLITE_STATIC);
      if (!_cs_sqlite_check (db, sqlite3_step (s), _("writing a pass's metadata"), error))
        return FALSE;
      sqlite3_reset (s);
    }
  return TRUE;
}

static void
plugin_failed (GError          **error,
               GError           *plugin_error,
               CsPlugin         *plugin,
               const char       *pass,
               const char       *what)
{
  if (plugin_error != NULL && (plugin_error->domain == G_IO_ERROR ||
                               (plugin_error->domain == CS_PLUGIN_ERROR &&
                                plugin_error->code == CS_PLUGIN_ERROR_USAGE)))
    {
      g_propagate_error (error, plugin_error);
      return;
    }
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("The pass “%s” of the plugin “%s” failed %s: %s"), pass, plugin->id, what,
               plugin_error != NULL ? plugin_error->message : _("without saying why"));
  g_clear_error (&plugin_error);
}

/* Feeds every wanted event to the plugin. */
static gboolean
feed_events (CsPluginPass             *pass,
             CsPlugin                 *plugin,
             const CsPluginPassInfo   *info,
             gpointer                  state,
             const gboolean           *wanted,
             CsPluginPassProgressFunc  progress,
             gpointer                  user_data,
             GCancellable             *cancellable,
             GError                  **error)
{
  CsDocument *doc = _cs_plugin_document_get_document (pass->document);
  g_autoptr(CsPassFeed) feed = NULL;
  struct tep_handle *tep;
  GError *local_error = NULL;
  CsPassFeedEvent next;
  struct tep_event *formats[2] = { NULL, NULL };
  guint64 done = 0;
  gboolean ok = TRUE;

  feed = _cs_pass_feed_new (doc, wanted, &local_error);
  if (feed == NULL)
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  tep = cs_trace_file_get_tep (cs_document_get_trace_file (doc));
  while (ok && _cs_pass_feed_next (feed, &next, &local_error))
    {
      CsPluginEvent event;

      if (next.format != NULL)
        {
          /* The feed's threads told the format and pid already. */
          event.ts_ns = next.ts_ns;
          event.cpu = next.cpu;
          event.pid = next.pid;
          event.system = next.format->system;
          event.name = next.format->name;
          event.row = next.row;
          event.tep = tep;
          event.format = next.format;
          event.record = next.record;
        }
      else
        _cs_plugin_document_describe_record (tep, next.cpu, next.row, next.ts_ns, next.record,
                                             formats, &event);
      pass->plugin_running = TRUE;
      ok = info->event (state, &event, &local_error);
      pass->plugin_running = FALSE;
      if (!ok)
        {
          plugin_failed (error, g_steal_pointer (&local_error), plugin, info->name,
                         _("on an event"));
          break;
        }
      if (++done % CANCEL_EVERY == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        ok = FALSE;
      if (progress != NULL && done % PROGRESS_EVERY == 0 && pass->n_events > 0)
        progress ((double) done / pass->n_events, user_data);
    }
  if (ok && local_error != NULL)
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, local_error->message);
      g_clear_error (&local_error);
      ok = FALSE;
    }
  return ok;
}

/**
 * _cs_plugin_pass_run:
 * @document: the recording, with its index
 * @plugin: the plugin
 * @pass: the name of one of its passes
 * @param: (nullable): the pass's parameter
 * @progress: (nullable): told the fraction done, 0.0 .. 1.0, now and then
 * @user_data: its closure
 * @cancellable: (nullable): checked every few hundred events
 * @db_path: (out) (optional) (transfer full): where the results are
 * @error: %CS_PLUGIN_ERROR_FAILED (an unknown pass, a failing plugin
 *   callback, an unreadable record), %CS_PLUGIN_ERROR_USAGE (a parameter
 *   naming what the recording lacks), %G_IO_ERROR_CANCELLED, or
 *   %CS_INDEX_ERROR_SQLITE when the results cannot be written
 *
 * Runs a pass now, in this thread, and stores its results where
 * cs_plugin_document_get_pass_db() finds them.  For the worker process.
 *
 * Returns: %TRUE on success
 */
gboolean
_cs_plugin_pass_run (CsPluginDocument          *document,
                     CsPlugin                  *plugin,
                     const char                *pass_name,
                     const char                *param,
                     CsPluginPassProgressFunc   progress,
                     gpointer                   user_data,
                     GCancellable              *cancellable,
                     char                     **db_path,
                     GError                   **error)
{
  CsDocument *doc = _cs_plugin_document_get_document (document);
  const CsPluginPassInfo *info = _cs_plugin_find_pass (plugin, pass_name);
  g_auto(GStrv) listed = NULL;
  g_autofree gboolean *wanted = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tmp_path = NULL;
  GError *plugin_error = NULL;
  CsPluginPass pass = { document, plugin, NULL, param, 0, FALSE, FALSE };
  gpointer state = NULL;
  gboolean ok = FALSE;

  if (info == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("The plugin “%s” has no pass “%s”"), plugin->id, pass_name);
      return FALSE;
    }
  if (info->list_events != NULL && (param != NULL || info->events == NULL))
    {
      listed = info->list_events (document, param, &plugin_error);
      if (listed == NULL)
        {
          plugin_failed (error, plugin_error, plugin, info->name, _("on its parameter"));
          return FALSE;
        }
    }
  wanted = resolve_types (doc, listed != NULL ? (const char * const *) listed : info->events,
                          &pass.n_events);

  path = _cs_plugin_document_dup_pass_path (document, plugin, info, param);
  tmp_path = g_strdup_printf ("%s.tmp-%d", path, (int) getpid ());
  g_unlink (tmp_path);
  if (sqlite3_open_v2 (tmp_path, &pass.db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                   _("Cannot write the results of the pass “%s” to %s: %s"), pass_name,
                   tmp_path, pass.db != NULL ? sqlite3_errmsg (pass.db) : g_strerror (ENOMEM));
      goto out;
    }
  sqlite3_set_authorizer (pass.db, authorize, &pass);
  if (info->prepare != NULL)
    {
      gboolean prepared;

      pass.plugin_running = TRUE;
      prepared = info->prepare (pass.db, &plugin_error);
      pass.plugin_running = FALSE;
      if (!prepared)
        {
          plugin_failed (error, plugin_error, plugin, info->name, _("to start"));
          goto out;
        }
    }
  if (!write_meta (pass.db, doc, plugin, info, param, error) ||
      !_cs_sqlite_exec (pass.db, "BEGIN", error))
    goto out;

  pass.document_idle = _cs_pass_feed_is_threaded (doc);
  pass.plugin_running = TRUE;
  state = info->begin (&pass, &plugin_error);
  pass.plugin_running = FALSE;
  if (plugin_error != NULL)
    {
      plugin_failed (error, plugin_error, plugin, info->name, _("to start"));
      goto out;
    }
  if (!feed_events (&pass, plugin, info, state, wanted, progress, user_data, cancellable, error))
    goto out;
  pass.plugin_running = TRUE;
  ok = info->end == NULL || info->end (state, &plugin_error);
  pass.plugin_running = FALSE;
  if (!ok)
    {
      plugin_failed (error, plugin_error, plugin, info->name, _("at its end"));
      goto out;
    }
  ok = FALSE;
  /* CS_PASS_TEST_HANG (tests only): hold until cancelled, so that a
   * test's Cancel finds the pass running however fast it is
   * (cs-test-hook.c). */
  if (cancellable != NULL && g_getenv ("CS_PASS_TEST_HANG") != NULL)
    cs_test_hook_hold_until_cancelled (cancellable);
  /* The feed looks every CANCEL_EVERY events: a pass over fewer events,
   * cancelled while it ran, must not store its results either. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  if (info->free != NULL)
    info->free (g_steal_pointer (&state));
  if (!_cs_sqlite_exec (pass.db, "COMMIT", error))
    goto out;
  {
    g_autofree char *pragma = g_strdup_printf ("PRAGMA user_version = %d", CS_PLUGIN_PASS_DB_FORMAT);

    if (!_cs_sqlite_exec (pass.db, pragma, error))
      goto out;
  }
  if (sqlite3_close (pass.db) != SQLITE_OK)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
                   _("Cannot finish the results of the pass “%s” in %s: %s"), pass_name,
                   tmp_path, sqlite3_errmsg (pass.db));
      goto out;
    }
  pass.db = NULL;
  if (g_rename (tmp_path, path) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Cannot store the results of the pass “%s” as %s: %s"), pass_name, path,
                   g_strerror (saved_errno));
      goto out;
    }
  _cs_plugin_document_remove_stale_pass_results (document, plugin, info);
  if (progress != NULL)
    progress (1.0, user_data);
  if (db_path != NULL)
    *db_path = g_steal_pointer (&path);
  ok = TRUE;

out:
  if (state != NULL && info->free != NULL)
    info->free (state);
  if (pass.db != NULL)
    sqlite3_close_v2 (pass.db);
  if (!ok)
    g_unlink (tmp_path);
  return ok;
}
