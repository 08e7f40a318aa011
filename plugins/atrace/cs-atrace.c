/* cs-atrace.c: the atrace plugin's entry.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * For recordings with Android atrace markers (trace_marker writes
 * "B|tgid|name", "E", "C|tgid|name|value", "S|tgid|name|cookie",
 * "F|tgid|name|cookie", imported as atrace:tracing_mark_write): a pass
 * stores each task's slices, async slices and counters
 * (cs-atrace-pass.c); task plots draw the task's slices by depth
 * (cs-atrace-layer.c), a process's plot its async slices
 * (cs-atrace-async-layer.c), above the process's counters
 * (cs-atrace-counter-band.c); a counter has a row of its own too
 * (cs-atrace-counter.c), which the Atrace page adds (cs-atrace-page.c);
 * `chronoscope atrace FILE` lists them by name
 * (cs-atrace-cli.c).
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#include <glib/gi18n-lib.h>

#include "cs-atrace-private.h"

/**
 * _cs_atrace_has_events:
 * @document: a recording
 *
 * Returns: whether it holds atrace markers (atrace:tracing_mark_write),
 *   from the index's counts
 */
gboolean
_cs_atrace_has_events (CsPluginDocument *document)
{
  return cs_plugin_document_count_events (document, "atrace", "tracing_mark_write") > 0;
}

static gpointer
atrace_open (CsPlugin          *plugin,
             CsPluginDocument  *document,
             GError           **error)
{
  CsAtrace *self = g_new0 (CsAtrace, 1);

  self->plugin = plugin;
  self->document = document;
  self->has_events = _cs_atrace_has_events (document);
  /* Only recordings with markers get the pass (and a worker run). */
  if (self->has_events && _cs_atrace_get_db (self) == NULL)
    cs_plugin_document_request_pass (document, plugin, CS_ATRACE_PASS, NULL);
  return self;
}

static void
atrace_close (gpointer instance)
{
  g_free (instance);
}

/**
 * _cs_atrace_get_db:
 * @self: (nullable): an instance
 *
 * Returns: (transfer none) (nullable): the pass's database, %NULL while
 *   the pass has not run or the recording has no markers
 */
sqlite3 *
_cs_atrace_get_db (CsAtrace *self)
{
  if (self == NULL || !self->has_events)
    return NULL;
  return cs_plugin_document_get_pass_db (self->document, self->plugin, CS_ATRACE_PASS, NULL, NULL);
}

/**
 * _cs_atrace_prepare_span:
 * @db: the pass's database
 * @stmt: (inout): a statement of @sql prepared earlier, or %NULL to
 *   prepare it now (the caller finalizes it)
 * @sql: a statement whose parameter ?1 is the pid (or tgid) of the task
 *   plot drawn and ?3 and ?4 the view's span [begin_ns, end_ns)
 * @view: the view drawn
 * @pid: the value of ?1
 *
 * Prepares (or resets) @stmt and binds ?1, ?3 and ?4; the caller binds ?2
 * if @sql has it.
 *
 * Returns: %FALSE when @sql cannot be prepared (sqlite3_errmsg() says why)
 */
gboolean
_cs_atrace_prepare_span (sqlite3             *db,
                         sqlite3_stmt       **stmt,
                         const char          *sql,
                         const CsPluginView  *view,
                         gint64               pid)
{
  gint64 begin, end;

  if (*stmt == NULL && sqlite3_prepare_v2 (db, sql, -1, stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_reset (*stmt);
  cs_plugin_view_get_span (view, &begin, &end);
  sqlite3_bind_int64 (*stmt, 1, pid);
  sqlite3_bind_int64 (*stmt, 3, begin);
  sqlite3_bind_int64 (*stmt, 4, end);
  return TRUE;
}

static gboolean
atrace_init (CsPlugin  *plugin,
             GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    .struct_size = sizeof (CsPluginDocumentHooks),
    .open = atrace_open,
    .close = atrace_close,
  };

  cs_plugin_set_document_hooks (plugin, &hooks);
  _cs_atrace_add_pass (plugin);
  _cs_atrace_add_layer (plugin);
  _cs_atrace_add_async_layer (plugin);
  _cs_atrace_add_counter_band (plugin);
  _cs_atrace_add_counter_rows (plugin);
  _cs_atrace_add_page (plugin);
  _cs_atrace_add_command (plugin);
  return TRUE;
}

CS_PLUGIN_DEFINE ("atrace", N_("Atrace"),
                  N_("Android atrace markers: slices, async slices and counters per task"),
                  "1.0", atrace_init)
