/* cs-plugin-document-private.h: the host's side of CsPluginDocument.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One CsPluginDocument wraps one CsDocument for the plugins enabled on it:
 * their instances, their pass results (one SQLite file per plugin, pass,
 * version and parameter, next to the index) and how passes get run (a
 * scheduler the window or the command line installs; without one, passes
 * run in the calling thread, which is what the worker process does).
 */
#pragma once

#include "cs-document.h"
#include "cs-stream-set.h"
#include "cs-plugin-private.h"

G_BEGIN_DECLS

/* Version of the pass databases' own bookkeeping (the chronoscope_pass
 * table); the plugin's tables are versioned by CsPluginPassInfo.version. */
#define CS_PLUGIN_PASS_DB_FORMAT 1

/**
 * CsPluginPassScheduler:
 * @request: start the pass in the background unless it runs already; call
 *   _cs_plugin_document_pass_finished() on the main thread when it succeeded
 * @ensure: run the pass now (in a worker process) and wait
 * @ready: (nullable): a requested pass's results existed already and the
 *   plugin was told (from the main loop): redraw
 *
 * How a document gets passes run (gui/: worker processes with progress).
 */
typedef struct {
  void     (*request) (gpointer          data,
                       CsPluginDocument *document,
                       CsPlugin         *plugin,
                       const char       *pass,
                       const char       *param);
  gboolean (*ensure)  (gpointer          data,
                       CsPluginDocument *document,
                       CsPlugin         *plugin,
                       const char       *pass,
                       const char       *param,
                       GCancellable     *cancellable,
                       GError          **error);
  void     (*ready)   (gpointer          data,
                       CsPluginDocument *document,
                       CsPlugin         *plugin);
} CsPluginPassScheduler;

CsPluginDocument *_cs_plugin_document_new              (CsDocument       *document);
CsDocument       *_cs_plugin_document_get_document     (CsPluginDocument *self);
GHashTable       *_cs_plugin_document_get_wanted_types (CsPluginDocument *self);
GArray           *_cs_plugin_document_get_events       (CsPluginDocument *self);
void              _cs_plugin_document_set_scheduler    (CsPluginDocument *self,
                                                        const CsPluginPassScheduler *scheduler,
                                                        gpointer          data);
gboolean          _cs_plugin_document_enable           (CsPluginDocument *self,
                                                        CsPlugin         *plugin,
                                                        GError          **error);
void              _cs_plugin_document_disable          (CsPluginDocument *self,
                                                        CsPlugin         *plugin);
gboolean          _cs_plugin_document_is_enabled       (CsPluginDocument *self,
                                                        CsPlugin         *plugin);
GPtrArray        *_cs_plugin_document_get_plugins      (CsPluginDocument *self);
void              _cs_plugin_document_close            (CsPluginDocument *self);
void              _cs_plugin_document_set_stream       (CsPluginDocument *self,
                                                        CsStream         *stream,
                                                        CsStreamSet      *set);
CsStream         *_cs_plugin_document_get_stream       (CsPluginDocument *self);
CsStreamSet      *_cs_plugin_document_get_stream_set   (CsPluginDocument *self);
char             *_cs_plugin_document_dup_pass_path    (CsPluginDocument *self,
                                                        CsPlugin         *plugin,
                                                        const CsPluginPassInfo *info,
                                                        const char       *param);
void              _cs_plugin_document_list_pass_results (CsPluginDocument        *self,
                                                        CsPlugin                *plugin,
                                                        const CsPluginPassInfo  *info,
                                                        char                  ***paths,
                                                        char                  ***params);
gboolean          _cs_plugin_document_pass_db_matches  (CsPluginDocument *self,
                                                        sqlite3          *db,
                                                        CsPlugin         *plugin,
                                                        const CsPluginPassInfo *info,
                                                        const char       *param);
void              _cs_plugin_document_remove_stale_pass_results (CsPluginDocument *self,
                                                        CsPlugin         *plugin,
                                                        const CsPluginPassInfo *info);
gboolean          _cs_plugin_document_pass_is_ready    (CsPluginDocument *self,
                                                        CsPlugin         *plugin,
                                                        const char       *pass,
                                                        const char       *param);
void              _cs_plugin_document_pass_finished    (CsPluginDocument *self,
                                                        CsPlugin         *plugin,
                                                        const char       *pass,
                                                        const char       *param);
void              _cs_plugin_document_request_automatic_passes (CsPluginDocument *self,
                                                        CsPlugin         *plugin);
gboolean          _cs_plugin_document_ensure_automatic_passes (CsPluginDocument *self,
                                                        GCancellable     *cancellable,
                                                        GError          **error);
char             *_cs_plugin_document_describe_event   (CsPluginDocument *self,
                                                        const CsPluginEventRef *ref);
void              _cs_plugin_document_describe_record  (struct tep_handle *tep,
                                                        guint              cpu,
                                                        guint64            row,
                                                        gint64             ts_ns,
                                                        struct tep_record *record,
                                                        struct tep_event  *formats[2],
                                                        CsPluginEvent     *event);
gboolean          _cs_plugin_document_fill_event       (CsPluginDocument *self,
                                                        guint             cpu,
                                                        guint64           row,
                                                        guint64           offset,
                                                        const gint64     *ts_ns,
                                                        CsPluginEvent    *event,
                                                        GError          **error);

/* _cs_plugin_failed: sets @error to @cause (an error of the model below
 * the plugin API; nullable: an empty message) as CS_PLUGIN_ERROR_FAILED
 * with the same message: a plugin sees one error domain, whatever failed
 * beneath it (cs-plugin.h).  Returns FALSE, for `return
 * _cs_plugin_failed (error, local_error);`. */
gboolean          _cs_plugin_failed                    (GError          **error,
                                                        const GError     *cause);

/* cs-plugin-sql.c: plugins' SQL tables in a session. */
struct _CsSqlSession;
gboolean          _cs_plugin_add_sql_tables            (GPtrArray             *plugins,
                                                        CsDocument            *document,
                                                        struct _CsSqlSession  *session,
                                                        GError               **error);

/* cs-plugin-pass-runner.c: runs a pass in this thread (the worker's). */
typedef void (*CsPluginPassProgressFunc) (double fraction, gpointer user_data);

gboolean          _cs_plugin_pass_run                  (CsPluginDocument *document,
                                                        CsPlugin         *plugin,
                                                        const char       *pass,
                                                        const char       *param,
                                                        CsPluginPassProgressFunc progress,
                                                        gpointer          user_data,
                                                        GCancellable     *cancellable,
                                                        char            **db_path,
                                                        GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPluginDocument, cs_plugin_document_unref)

G_END_DECLS
