/* cs-demo-kmod.c: reading the kmod plugin's sections and wakeup latencies
 * for the demos.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The demos need the module's sections and wakeup latencies the moment
 * the recording opens, whether or not the user enabled the kmod plugin in
 * the window; the plugin's pass pairs them (cs-demo-kmod.h).  So the
 * demos ask the host for that pass's results themselves: reused from the
 * index cache when any run (the window's or the command line's) wrote
 * them, computed otherwise, by the scheduler of @plugins (the command
 * line's worker) or in this thread.  A recording without the module's
 * events costs no pass, as it costs the plugin none.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cs-demo.h"
#include "cs-index-error.h"

/**
 * cs_kmod_section_kind_to_string:
 * @kind: a section kind
 *
 * The name of a section kind for users, in the words of ftrace's latency
 * tracers (Documentation/trace/ftrace.rst: "irqs-off", "preempt-off"), as
 * the kmod plugin names them in `info --json`.
 *
 * Returns: (transfer none): "irqs-off" or "preempt-off"
 */
const char *
cs_kmod_section_kind_to_string (CsKmodSectionKind kind)
{
  return kind == CS_KMOD_SECTION_IRQS_OFF ? "irqs-off" : "preempt-off";
}

static gboolean
set_sqlite_error (sqlite3     *db,
                  const char  *path,
                  GError     **error)
{
  g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_SQLITE,
               _("Cannot read the kernel module's sections of %s: %s"), path,
               sqlite3_errmsg (db));
  return FALSE;
}

static void
add_section (sqlite3_stmt *s,
             GArray       *sections)
{
  CsKmodSection section = {
    sqlite3_column_int (s, 0) == CS_KMOD_SECTION_IRQS_OFF ? CS_KMOD_SECTION_IRQS_OFF
                                                          : CS_KMOD_SECTION_PREEMPT_OFF,
    (guint) sqlite3_column_int (s, 1),
    sqlite3_column_int64 (s, 2), sqlite3_column_int64 (s, 3),
    (guint64) sqlite3_column_int64 (s, 4), (guint64) sqlite3_column_int64 (s, 5),
  };

  g_array_append_val (sections, section);
}

static void
add_latency (sqlite3_stmt *s,
             GArray       *latencies)
{
  const char *comm = (const char *) sqlite3_column_text (s, 3);
  CsKmodWakeupLatency l = {
    .time_ns = sqlite3_column_int64 (s, 0),
    .cpu = (guint) sqlite3_column_int (s, 1),
    .pid = sqlite3_column_int (s, 2),
    .target_cpu = sqlite3_column_int (s, 4),
    .latency_ns = (guint64) sqlite3_column_int64 (s, 5),
    .threshold_ns = (guint64) sqlite3_column_int64 (s, 6),
  };

  g_strlcpy (l.comm, comm != NULL ? comm : "", sizeof l.comm);
  g_array_append_val (latencies, l);
}

/* Appends each row of @sql to @out with @add_row. */
static gboolean
read_rows (sqlite3      *db,
           const char   *path,
           const char   *sql,
           void        (*add_row) (sqlite3_stmt *s, GArray *out),
           GArray       *out,
           GError      **error)
{
  sqlite3_stmt *s = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    return set_sqlite_error (db, path, error);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    add_row (s, out);
  sqlite3_finalize (s);
  return rc == SQLITE_DONE || set_sqlite_error (db, path, error);
}

/**
 * cs_demo_read_kmod_results:
 * @plugins: the plugin side of a recording; its scheduler, when it has
 *   one, runs the pass (cs_plugin_document_ensure_pass()), else it runs in
 *   this thread
 * @kmod: (nullable): the kmod plugin, loaded, enabled or not; %NULL when
 *   it is not installed
 * @sections: (element-type CsKmodSection): where the module's irqs-off and
 *   preempt-off sections are appended, sorted by begin_ns then CPU
 * @latencies: (element-type CsKmodWakeupLatency): where its wakeup
 *   latencies are appended, sorted by time_ns then CPU
 * @error: %CS_DEMO_ERROR_NOT_FOUND when the recording holds the module's
 *   events and @kmod is %NULL; the pass's %CS_PLUGIN_ERROR or
 *   %G_IO_ERROR_CANCELLED; %CS_INDEX_ERROR_SQLITE when its results cannot
 *   be read
 *
 * The kmod plugin's pass results for the recording: its rule pairs each
 * *_begin with the next *_end of the same kind on its CPU, a begin left
 * open ends at the recording's last_ns, an end without a begin starts at
 * its first_ns (plugins/kmod/cs-kmod-pass.c).  A recording without the
 * module's events (the index's per-type counts say so) gets nothing, and
 * no pass.  Times are ns of the trace clock.  The thread of @plugins.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_demo_read_kmod_results (CsPluginDocument  *plugins,
                           CsPlugin          *kmod,
                           GArray            *sections,
                           GArray            *latencies,
                           GError           **error)
{
  const char *path;
  sqlite3 *db;

  g_return_val_if_fail (plugins != NULL, FALSE);

  if (cs_plugin_document_count_events (plugins, "chronoscope", NULL) == 0)
    return TRUE;
  path = cs_plugin_document_get_path (plugins);
  if (kmod == NULL)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND,
                   _("The kernel module plugin (“%s”), which pairs the module's sections, "
                     "is not installed"), CS_DEMO_KMOD_PLUGIN);
      return FALSE;
    }
  if (!cs_plugin_document_ensure_pass (plugins, kmod, CS_DEMO_KMOD_PASS, NULL, NULL, error) ||
      (db = cs_plugin_document_get_pass_db (plugins, kmod, CS_DEMO_KMOD_PASS, NULL, error)) == NULL)
    return FALSE;
  return read_rows (db, path,
                    "SELECT kind, cpu, begin_ns, end_ns, requested_ns, measured_ns"
                    " FROM sections ORDER BY begin_ns, cpu",
                    add_section, sections, error) &&
         read_rows (db, path,
                    "SELECT time_ns, cpu, pid, comm, target_cpu, latency_ns, threshold_ns"
                    " FROM wakeup_latencies ORDER BY time_ns, cpu",
                    add_latency, latencies, error);
}
