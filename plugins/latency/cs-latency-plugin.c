/* cs-latency-plugin.c: the latency pairs plugin's entry and its
 * per-recording instance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Latency pairs (issue 12): every A → B pair of a definition measured
 * over the whole recording in the indexing worker (cs-latency-pass.c),
 * with statistics, a histogram and a worst-first list read from the
 * pass's database (cs-latency-stats.c), on the command line as
 * `chronoscope latency` (cs-latency-cli.c), in the window's page
 * "Latency" (cs-latency-page.c) and as brackets over the task plots
 * (cs-latency-layer.c).  The definitions and the pairing rule are in
 * cs-latency-def.h and README.md.
 */
#include <glib/gi18n-lib.h>

#include "explain/cs-explain-cli.h"
#include "explain/cs-explain-pass.h"
#include "cs-latency-cli.h"
#include "cs-latency-pass.h"
#include "cs-latency-ui.h"

typedef struct {
  CsLatencyReadyFunc ready;
  CsLatencyReadyFunc gone;
  CsLatencyReadyFunc blockers;
  gpointer data;
} Listener;

/**
 * _cs_latency_new:
 * @plugin: the latency plugin
 * @document: the recording, which outlives the instance
 *
 * Returns: (transfer full): an instance showing no definition yet
 */
CsLatency *
_cs_latency_new (CsPlugin         *plugin,
                 CsPluginDocument *document)
{
  CsLatency *self = g_new0 (CsLatency, 1);

  self->plugin = plugin;
  self->document = document;
  self->listeners = g_array_new (FALSE, FALSE, sizeof (Listener));
  return self;
}

/**
 * _cs_latency_free:
 * @self: (transfer full): an instance; its statements are finalized,
 *   as the document's databases close after it, and the listeners still
 *   there are told it is gone (a page may outlive its recording's
 *   instance)
 */
void
_cs_latency_free (CsLatency *self)
{
  g_autoptr(GArray) listeners = g_array_copy (self->listeners);

  for (guint i = 0; i < listeners->len; i++)
    g_array_index (listeners, Listener, i).gone (g_array_index (listeners, Listener, i).data);
  g_clear_pointer (&self->layer_stmt, sqlite3_finalize);
  g_clear_pointer (&self->cpu_layer_stmt[0], sqlite3_finalize);
  g_clear_pointer (&self->cpu_layer_stmt[1], sqlite3_finalize);
  g_clear_pointer (&self->longest, g_array_unref);
  g_clear_pointer (&self->pairs, g_ptr_array_unref);
  g_clear_pointer (&self->explained, _cs_latency_explained_free);
  g_array_unref (self->listeners);
  g_free (self->param);
  g_free (self->requested);
  g_free (self->blockers_param);
  g_free (self);
}

/**
 * _cs_latency_run:
 * @self: an instance
 * @param: a definition (a preset name or a pair, cs-latency-def.h)
 *
 * Asks for @param's pass; the window runs it in the background with its
 * progress and Cancel, or finds its results from an earlier run.  When it
 * is ready, @param becomes the definition shown and the listeners are
 * called.  Never blocks.
 */
void
_cs_latency_run (CsLatency  *self,
                 const char *param)
{
  g_free (self->requested);
  self->requested = g_strdup (param);
  cs_plugin_document_request_pass (self->document, self->plugin, CS_LATENCY_PASS, param);
}

/**
 * _cs_latency_pass_ready:
 * @self: an instance
 * @param: the definition whose pass is ready
 *
 * Shows @param when it is the one last asked for: reads its pairs of
 * event types and calls the listeners.
 */
void
_cs_latency_pass_ready (CsLatency  *self,
                        const char *param)
{
  g_autoptr(GError) error = NULL;
  sqlite3 *db;

  if (param == NULL || g_strcmp0 (param, self->requested) != 0)
    return;
  db = cs_plugin_document_get_pass_db (self->document, self->plugin, CS_LATENCY_PASS, param, &error);
  if (db == NULL)
    {
      g_warning ("%s: %s", cs_plugin_document_get_path (self->document), error->message);
      return;
    }
  g_clear_pointer (&self->layer_stmt, sqlite3_finalize);
  g_clear_pointer (&self->cpu_layer_stmt[0], sqlite3_finalize);
  g_clear_pointer (&self->cpu_layer_stmt[1], sqlite3_finalize);
  g_clear_pointer (&self->longest, g_array_unref);
  g_clear_pointer (&self->pairs, g_ptr_array_unref);
  self->pairs = cs_latency_list_pairs (db, &error);
  if (self->pairs == NULL)
    g_warning ("%s: %s", cs_plugin_document_get_path (self->document), error->message);
  g_free (self->param);
  self->param = g_strdup (param);
  _cs_latency_saved_set_shown (self->document, param);
  /* A listener may remove itself: walk a copy. */
  {
    g_autoptr(GArray) listeners = g_array_copy (self->listeners);

    for (guint i = 0; i < listeners->len; i++)
      g_array_index (listeners, Listener, i).ready (g_array_index (listeners, Listener, i).data);
  }
}

/**
 * _cs_latency_get_db:
 * @self: an instance
 *
 * Returns: (transfer none) (nullable): the shown definition's pass
 *   database, %NULL when none is shown
 */
sqlite3 *
_cs_latency_get_db (CsLatency *self)
{
  if (self->param == NULL)
    return NULL;
  return cs_plugin_document_get_pass_db (self->document, self->plugin, CS_LATENCY_PASS,
                                         self->param, NULL);
}

/**
 * _cs_latency_get_title:
 * @self: an instance showing a definition
 *
 * Returns: (transfer none): what the shown pairs measure, for labels:
 *   "wakeup latency", or the definition's text
 */
const char *
_cs_latency_get_title (CsLatency *self)
{
  static const struct { const char *preset, *title; } titles[] = {
    { "wakeup", N_("wakeup latency") },
    { "irq", N_("IRQ handler") },
    { "softirq", N_("softirq") },
    { "softirq-raise", N_("softirq raise to entry") },
    { "syscall", N_("system call") },
    { "block", N_("block I/O") },
    { "funcgraph", N_("function call") },
    { "kmod-irqs-off", N_("irqs-off section") },
    { "kmod-preempt-off", N_("preempt-off section") },
    { "kmod-wakeup", N_("wakeup latency (module)") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (g_strcmp0 (self->param, titles[i].preset) == 0)
      return _(titles[i].title);
  return self->param != NULL ? self->param : "";
}

/**
 * _cs_latency_add_listener:
 * @self: an instance
 * @ready: called each time a definition's results become the ones shown
 * @gone: called when @self is freed (the recording closes): the
 *   listener must forget @self and its databases
 * @data: passed to @ready and @gone, and the listener's identity for
 *   _cs_latency_remove_listener()
 */
void
_cs_latency_add_listener (CsLatency          *self,
                          CsLatencyReadyFunc  ready,
                          CsLatencyReadyFunc  gone,
                          gpointer            data)
{
  Listener l = { ready, gone, NULL, data };

  g_array_append_val (self->listeners, l);
}

/**
 * _cs_latency_remove_listener:
 * @self: an instance
 * @data: a listener's data
 */
void
_cs_latency_remove_listener (CsLatency *self,
                             gpointer   data)
{
  for (guint i = self->listeners->len; i-- > 0;)
    if (g_array_index (self->listeners, Listener, i).data == data)
      g_array_remove_index (self->listeners, i);
}

static gpointer
latency_open (CsPlugin          *plugin,
              CsPluginDocument  *document,
              GError           **error)
{
  return _cs_latency_new (plugin, document);
}

static void
latency_close (gpointer instance)
{
  _cs_latency_free (instance);
}

/**
 * _cs_latency_set_blockers_listener:
 * @self: an instance
 * @data: a listener's data (_cs_latency_add_listener())
 * @blockers: called each time the pass `blockers` is ready, with
 *   CsLatency.blockers_param its parameter
 */
void
_cs_latency_set_blockers_listener (CsLatency          *self,
                                   gpointer            data,
                                   CsLatencyReadyFunc  blockers)
{
  for (guint i = 0; i < self->listeners->len; i++)
    if (g_array_index (self->listeners, Listener, i).data == data)
      g_array_index (self->listeners, Listener, i).blockers = blockers;
}

/* The pass `blockers` for @param is ready: tell the pages. */
static void
blockers_ready (CsLatency  *self,
                const char *param)
{
  g_autoptr(GArray) listeners = g_array_copy (self->listeners);

  g_free (self->blockers_param);
  self->blockers_param = g_strdup (param);
  for (guint i = 0; i < listeners->len; i++)
    if (g_array_index (listeners, Listener, i).blockers != NULL)
      g_array_index (listeners, Listener, i).blockers (g_array_index (listeners, Listener, i).data);
}

static void
latency_pass_ready (gpointer    instance,
                    const char *pass,
                    const char *param)
{
  if (g_strcmp0 (pass, CS_LATENCY_PASS) == 0)
    _cs_latency_pass_ready (instance, param);
  else if (g_strcmp0 (pass, CS_EXPLAIN_BLOCKERS_PASS) == 0)
    blockers_ready (instance, param);
}

static gboolean
latency_init (CsPlugin  *plugin,
              GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    .struct_size = sizeof (CsPluginDocumentHooks),
    .open = latency_open,
    .close = latency_close,
    .pass_ready = latency_pass_ready,
  };
  /* `chronoscope query FILE "SELECT ... FROM latency_pairs WHERE
   * definition = 'wakeup'"`: every pair of every definition computed for
   * the recording.  The SELECT reads the pass's tables (latency,
   * latency_pair: cs-latency-table.c); ts is the A event's, so a row
   * links to it in the window. */
  static const CsPluginSqlTableInfo pairs_table = {
    .struct_size = sizeof (CsPluginSqlTableInfo),
    .name = "latency_pairs",
    .pass = CS_LATENCY_PASS,
    .param_column = "definition",
    .columns = "pair TEXT, ts INTEGER, a_ts INTEGER, b_ts INTEGER, duration_ns INTEGER,"
               " cpu INTEGER, b_cpu INTEGER, pid INTEGER,"
               " k0 INTEGER, k1 INTEGER, k2 INTEGER, k3 INTEGER",
    .select = "SELECT p.definition, l.a_ts, l.a_ts, l.b_ts, l.dur_ns, l.a_cpu, l.b_cpu, l.pid,"
              " l.k0, l.k1, l.k2, l.k3 FROM latency AS l JOIN latency_pair AS p ON p.pair = l.pair",
    .how_to_compute = N_("compute them first with `chronoscope latency FILE --preset NAME` "
                         "(or --from/--to), or on the window's Latency page"),
  };

  cs_plugin_set_document_hooks (plugin, &hooks);
  cs_latency_pass_register (plugin);
  cs_plugin_add_sql_table (plugin, &pairs_table);
  cs_latency_cli_register (plugin);
  cs_explain_cli_register (plugin);
  _cs_latency_add_page (plugin);
  _cs_latency_add_layer (plugin);
  _cs_latency_add_explain_layer (plugin);
  return TRUE;
}

CS_PLUGIN_DEFINE ("latency", N_("Latency pairs"),
                  N_("Every A → B pair of events (wakeups, IRQs, system calls...) measured, "
                     "with percentiles, a histogram and the worst first"),
                  "1.0", latency_init)
