/* cs-kmod-results.c: the kmod plugin's instance for one recording, and
 * what it reads back from its pass.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The instance remembers whether the recording holds any of the module's
 * events at all (the index's counts, no query): when it does not, its
 * pass is never run and nothing is ever asked of a database, so such
 * recordings cost one test per plot.  Otherwise it asks for the pass when
 * the recording opens (the window runs it in the background; until it is
 * done the layers draw nothing) and reads the tables the pass wrote
 * (cs-kmod-pass.c) for the span a frame or the pointer needs, through
 * statements prepared once per database.  Main thread.
 */
#include <glib/gi18n-lib.h>

#include "cs-kmod-plugin-private.h"

struct _KmodInstance
{
  /* borrowed */
  CsPlugin *plugin;
  CsPluginDocument *document;
  sqlite3 *db;                  /* the pass's results; NULL until ready */

  /* owned */
  sqlite3_stmt *select_sections;
  sqlite3_stmt *select_latencies;
  gboolean has_events;
};

/**
 * kmod_section_kind_to_string:
 * @kind: a section kind
 *
 * The name of a section kind, in the words of ftrace's latency tracers
 * (Documentation/trace/ftrace.rst: "irqs-off", "preempt-off"); also the
 * `kind` of `info --json`.
 *
 * Returns: (transfer none): "irqs-off" or "preempt-off"
 */
const char *
kmod_section_kind_to_string (KmodSectionKind kind)
{
  return kind == KMOD_SECTION_IRQS_OFF ? "irqs-off" : "preempt-off";
}

/**
 * kmod_instance_open:
 * @plugin: the kmod plugin
 * @document: a recording
 * @error: unused: the plugin shows every recording
 *
 * #CsPluginDocumentHooks.open: asks for the pass when the recording holds
 * the module's events.  Main thread.
 *
 * Returns: (transfer full): the instance, a #KmodInstance
 */
gpointer
kmod_instance_open (CsPlugin          *plugin,
                    CsPluginDocument  *document,
                    GError           **error)
{
  KmodInstance *self = g_new0 (KmodInstance, 1);

  self->plugin = plugin;
  self->document = document;
  self->has_events = cs_plugin_document_count_events (document, KMOD_SYSTEM, NULL) > 0;
  if (self->has_events)
    cs_plugin_document_request_pass (document, plugin, KMOD_PASS, NULL);
  return self;
}

/**
 * kmod_instance_ensure_results:
 * @self: an instance
 * @error: %CS_PLUGIN_ERROR_FAILED with the pass's message when it failed,
 *   %G_IO_ERROR_CANCELLED
 *
 * Computes the pass's results now, in a worker, unless they exist or the
 * recording has none of the module's events; waits.  For the command line
 * only (`info --json`), never the window's main thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
kmod_instance_ensure_results (KmodInstance  *self,
                              GError       **error)
{
  return !self->has_events ||
         cs_plugin_document_ensure_pass (self->document, self->plugin, KMOD_PASS, NULL, NULL,
                                         error);
}

static void
forget_db (KmodInstance *self)
{
  g_clear_pointer (&self->select_sections, sqlite3_finalize);
  g_clear_pointer (&self->select_latencies, sqlite3_finalize);
  self->db = NULL;
}

/**
 * kmod_instance_close:
 * @instance: (transfer full): a #KmodInstance
 *
 * #CsPluginDocumentHooks.close: finalizes the statements and frees it.
 */
void
kmod_instance_close (gpointer instance)
{
  KmodInstance *self = instance;

  forget_db (self);
  g_free (self);
}

/**
 * kmod_instance_pass_ready:
 * @instance: a #KmodInstance
 * @pass: the pass that finished
 * @param: its parameter (none)
 *
 * #CsPluginDocumentHooks.pass_ready: the host dropped its connection to
 * older results, so the statements on it go; the next read opens the new
 * ones.
 */
void
kmod_instance_pass_ready (gpointer    instance,
                          const char *pass,
                          const char *param)
{
  forget_db (instance);
}

/**
 * kmod_instance_has_events:
 * @self: an instance
 *
 * Returns: whether the recording holds any event of the module's trace
 *   system (marks included)
 */
gboolean
kmod_instance_has_events (KmodInstance *self)
{
  return self->has_events;
}

/* The pass's database with the statements prepared; NULL and no error
 * while the pass has not finished (nothing to show yet). */
static sqlite3 *
ensure_db (KmodInstance  *self,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  sqlite3 *db;

  db = cs_plugin_document_get_pass_db (self->document, self->plugin, KMOD_PASS, NULL, &local_error);
  if (db == NULL)
    {
      if (!g_error_matches (local_error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY))
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (db == self->db)
    return db;
  forget_db (self);
  /* Sections overlapping [begin, end); one of zero length counts when its
   * begin is in the span. */
  if (sqlite3_prepare_v2 (db,
                          "SELECT kind, cpu, begin_ns, end_ns, requested_ns, measured_ns"
                          " FROM sections WHERE begin_ns < :end"
                          " AND (end_ns > :begin OR (end_ns = begin_ns AND begin_ns >= :begin))"
                          " ORDER BY begin_ns, cpu",
                          -1, &self->select_sections, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db,
                          "SELECT time_ns, cpu, pid, comm, target_cpu, latency_ns, threshold_ns"
                          " FROM wakeup_latencies"
                          " WHERE (:pid < 0 OR pid = :pid) AND time_ns >= :begin"
                          " AND time_ns - latency_ns < :end"
                          " ORDER BY time_ns, cpu",
                          -1, &self->select_latencies, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot read the kernel module's sections of %s: %s"),
                   cs_plugin_document_get_path (self->document), sqlite3_errmsg (db));
      forget_db (self);
      return NULL;
    }
  self->db = db;
  return db;
}

/**
 * kmod_bind_int:
 * @s: a prepared statement
 * @name: one of its named parameters, ":name"
 * @value: the value
 *
 * Binds a number to a named parameter.
 */
void
kmod_bind_int (sqlite3_stmt *s,
               const char   *name,
               gint64        value)
{
  sqlite3_bind_int64 (s, sqlite3_bind_parameter_index (s, name), value);
}

/* The statement @which of the instance, with the span bound, ready to
 * step; NULL when there is nothing to read (no module events, the pass
 * not done yet: @ok TRUE) or on failure (@ok FALSE, @error set). */
static sqlite3_stmt *
start_query (KmodInstance   *self,
             sqlite3_stmt  **which,
             gint64          begin_ns,
             gint64          end_ns,
             gboolean       *ok,
             GError        **error)
{
  GError *local_error = NULL;

  *ok = TRUE;
  if (!self->has_events)
    return NULL;
  if (ensure_db (self, &local_error) == NULL)
    {
      *ok = local_error == NULL;
      if (local_error != NULL)
        g_propagate_error (error, local_error);
      return NULL;
    }
  kmod_bind_int (*which, ":begin", begin_ns);
  kmod_bind_int (*which, ":end", end_ns);
  return *which;
}

static gboolean
finish_query (KmodInstance  *self,
              sqlite3_stmt  *s,
              int            rc,
              GError       **error)
{
  sqlite3_reset (s);
  if (rc == SQLITE_DONE)
    return TRUE;
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               _("Cannot read the kernel module's sections of %s: %s"),
               cs_plugin_document_get_path (self->document), sqlite3_errmsg (self->db));
  return FALSE;
}

/**
 * kmod_instance_get_sections:
 * @self: an instance
 * @begin_ns: start of the span, ns in the trace clock
 * @end_ns: end of the span (exclusive)
 * @sections: (element-type KmodSection): where the sections overlapping
 *   [@begin_ns, @end_ns) are appended (begin_ns < @end_ns and
 *   end_ns > @begin_ns; a section of zero length counts when its begin is
 *   in the span), sorted by begin_ns then CPU
 * @error: %CS_PLUGIN_ERROR_FAILED when the pass's results cannot be read
 *
 * Appends nothing while the pass has not run, or when the recording has
 * none of the module's events (without a query).  Main thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
kmod_instance_get_sections (KmodInstance  *self,
                            gint64         begin_ns,
                            gint64         end_ns,
                            GArray        *sections,
                            GError       **error)
{
  sqlite3_stmt *s;
  gboolean ok;
  int rc;

  if ((s = start_query (self, &self->select_sections, begin_ns, end_ns, &ok, error)) == NULL)
    return ok;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      KmodSection section = {
        .kind = sqlite3_column_int (s, 0) == KMOD_SECTION_IRQS_OFF ? KMOD_SECTION_IRQS_OFF
                                                                  : KMOD_SECTION_PREEMPT_OFF,
        .cpu = (guint) sqlite3_column_int64 (s, 1),
        .begin_ns = sqlite3_column_int64 (s, 2),
        .end_ns = sqlite3_column_int64 (s, 3),
        .requested_ns = (guint64) sqlite3_column_int64 (s, 4),
        .measured_ns = (guint64) sqlite3_column_int64 (s, 5),
      };

      g_array_append_val (sections, section);
    }
  return finish_query (self, s, rc, error);
}

/**
 * kmod_instance_get_latencies:
 * @self: an instance
 * @pid: the woken task (field pid of chronoscope:wakeup_latency), or -1
 *   for all tasks
 * @begin_ns: start of the span, ns in the trace clock
 * @end_ns: end of the span (exclusive)
 * @latencies: (element-type KmodWakeupLatency): where the module's wakeup
 *   latencies whose bracket [time_ns - latency_ns, time_ns] reaches
 *   [@begin_ns, @end_ns) are appended (time_ns >= @begin_ns and
 *   time_ns - latency_ns < @end_ns), sorted by time_ns then CPU
 * @error: %CS_PLUGIN_ERROR_FAILED when the pass's results cannot be read
 *
 * As kmod_instance_get_sections(), for wakeup latencies.  Main thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
kmod_instance_get_latencies (KmodInstance  *self,
                             gint32         pid,
                             gint64         begin_ns,
                             gint64         end_ns,
                             GArray        *latencies,
                             GError       **error)
{
  sqlite3_stmt *s;
  gboolean ok;
  int rc;

  if ((s = start_query (self, &self->select_latencies, begin_ns, end_ns, &ok, error)) == NULL)
    return ok;
  kmod_bind_int (s, ":pid", pid);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      KmodWakeupLatency l = {
        .time_ns = sqlite3_column_int64 (s, 0),
        .cpu = (guint) sqlite3_column_int64 (s, 1),
        .pid = (gint32) sqlite3_column_int64 (s, 2),
        .target_cpu = (gint32) sqlite3_column_int64 (s, 4),
        .latency_ns = (guint64) sqlite3_column_int64 (s, 5),
        .threshold_ns = (guint64) sqlite3_column_int64 (s, 6),
      };
      const char *comm = (const char *) sqlite3_column_text (s, 3);

      g_strlcpy (l.comm, comm != NULL ? comm : "", sizeof l.comm);
      g_array_append_val (latencies, l);
    }
  return finish_query (self, s, rc, error);
}
