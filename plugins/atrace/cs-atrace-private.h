/* cs-atrace-private.h: the atrace plugin's shared declarations.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#pragma once

#include <chronoscope-plugin.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The Atrace page (cs-atrace-page.c) and a line of its list
 * (cs-atrace-counter-line.c). */
#define CS_TYPE_ATRACE_PAGE (cs_atrace_page_get_type ())
G_DECLARE_FINAL_TYPE (CsAtracePage, cs_atrace_page, CS, ATRACE_PAGE, GtkBox)
#define CS_TYPE_ATRACE_COUNTER_LINE (cs_atrace_counter_line_get_type ())
G_DECLARE_FINAL_TYPE (CsAtraceCounterLine, cs_atrace_counter_line, CS, ATRACE_COUNTER_LINE,
                      GtkListBoxRow)

GtkWidget  *_cs_atrace_counter_line_new      (gint32               tgid,
                                              const char          *name,
                                              const char          *comm,
                                              gint64               samples,
                                              gint64               min,
                                              gint64               max);
gint32      _cs_atrace_counter_line_get_tgid (CsAtraceCounterLine *self);
const char *_cs_atrace_counter_line_get_name (CsAtraceCounterLine *self);
const char *_cs_atrace_counter_line_get_key  (CsAtraceCounterLine *self);

/* The pass's name; it has no parameter. */
#define CS_ATRACE_PASS "marks"

/**
 * CsAtrace:
 * @plugin: the plugin
 * @document: the recording (outlives the instance)
 * @has_events: whether it has atrace markers (the pass is asked for only
 *   then)
 *
 * The plugin's instance for one recording.
 */
typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;
  gboolean has_events;
} CsAtrace;

/* The task-plot layer drawing the slices. */
#define CS_ATRACE_LAYER "slices"
/* The rows of counters (key "TGID:NAME"). */
#define CS_ATRACE_COUNTER_ROWS "counter"

void     _cs_atrace_add_layer    (CsPlugin         *plugin);
void     _cs_atrace_add_counter_rows (CsPlugin     *plugin);
sqlite3 *_cs_atrace_get_db       (CsAtrace         *self);
gboolean _cs_atrace_prepare_span (sqlite3            *db,
                                  sqlite3_stmt      **stmt,
                                  const char         *sql,
                                  const CsPluginView *view,
                                  gint64              pid);
void     _cs_atrace_add_pass     (CsPlugin         *plugin);
void     _cs_atrace_add_counter_band (CsPlugin     *plugin);
void     _cs_atrace_add_page     (CsPlugin         *plugin);
void     _cs_atrace_add_async_layer (CsPlugin      *plugin);
double   _cs_atrace_async_lane_px (sqlite3        *db,
                                   gint32          pid);
CsPluginColorRole _cs_atrace_name_role (const char *name);
GStrv    _cs_atrace_dup_task_counters (sqlite3    *db,
                                       gint32      pid,
                                       gint64     *tgid);
double   _cs_atrace_counter_band_px (sqlite3      *db,
                                     gint32        pid);
gboolean _cs_atrace_counter_range (sqlite3        *db,
                                   gint64          tgid,
                                   const char     *name,
                                   gint64         *min,
                                   gint64         *max);
gboolean _cs_atrace_counter_value_at (sqlite3     *db,
                                      gint64       tgid,
                                      const char  *name,
                                      gint64       ts_ns,
                                      gint64      *sample_ns,
                                      gint64      *value);
gboolean _cs_atrace_draw_counter (sqlite3            *db,
                                  cairo_t            *cr,
                                  const CsPluginView *view,
                                  gint64              tgid,
                                  const char         *name,
                                  double              top_px,
                                  double              height_px,
                                  CsPluginColorRole   role,
                                  double              fill_alpha);
void     _cs_atrace_add_command  (CsPlugin         *plugin);
gboolean _cs_atrace_has_events   (CsPluginDocument *document);

G_END_DECLS
