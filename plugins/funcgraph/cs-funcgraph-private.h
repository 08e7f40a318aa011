/* cs-funcgraph-private.h: the function_graph plugin's shared declarations.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#pragma once

#include <chronoscope-plugin.h>
#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The page "Functions" (cs-funcgraph-page.c, its layout a template). */
#define CS_TYPE_FUNCGRAPH_PAGE (cs_funcgraph_page_get_type ())
G_DECLARE_FINAL_TYPE (CsFuncgraphPage, cs_funcgraph_page, CS, FUNCGRAPH_PAGE, GtkBox)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* The pass's name; it has no parameter. */
#define CS_FUNCGRAPH_PASS "calls"

/* The layer drawing the flame rows; a row's key is the pid in decimal. */
#define CS_FUNCGRAPH_LAYER "flame"

/* The virtual-table module of call_rows (cs_plugin_result_register()). */
#define CS_FUNCGRAPH_ROWS_MODULE "cs_funcgraph_rows"

/* The calls' sorted orders (cs-funcgraph-pass.c has their columns). */
#define CS_FUNCGRAPH_ORDER_FLAME "call_flame"
#define CS_FUNCGRAPH_ORDER_WORST "call_worst"
#define CS_FUNCGRAPH_ORDER_TIME  "call_time"
/* The function events' order, by task then time. */
#define CS_FUNCGRAPH_ORDER_TASK  "instant_task"

/* A band's group in call_flame: the task, then the depth (< 1024). */
#define CS_FUNCGRAPH_BAND_KEY(pid, depth) (((gint64) (pid) << 16) | (gint64) (depth))

/* The columns of a row of call_rows, as the pass appends them. */
enum {
  CS_FUNCGRAPH_CALL_PID,
  CS_FUNCGRAPH_CALL_DEPTH,
  CS_FUNCGRAPH_CALL_BEGIN,
  CS_FUNCGRAPH_CALL_END,
  CS_FUNCGRAPH_CALL_SELF,
  CS_FUNCGRAPH_CALL_FUNC,
  CS_FUNCGRAPH_CALL_CPU,
  CS_FUNCGRAPH_CALL_N,
};

/* The columns of a row of instant_rows (function events, in time order). */
enum {
  CS_FUNCGRAPH_INSTANT_TS,
  CS_FUNCGRAPH_INSTANT_PID,
  CS_FUNCGRAPH_INSTANT_FUNC,
  CS_FUNCGRAPH_INSTANT_PARENT,
  CS_FUNCGRAPH_INSTANT_CPU,
  CS_FUNCGRAPH_INSTANT_N,
};

/* The columns of the orders the readers use (cs-funcgraph-reader.c). */
typedef enum {
  CS_FUNCGRAPH_FLAME_BEGIN,
  CS_FUNCGRAPH_FLAME_END,
  CS_FUNCGRAPH_FLAME_FUNC,
  CS_FUNCGRAPH_FLAME_ROW,
  CS_FUNCGRAPH_WORST_BEGIN,
  CS_FUNCGRAPH_WORST_ROW,
  CS_FUNCGRAPH_TIME_BEGIN,
  CS_FUNCGRAPH_TIME_END,
  CS_FUNCGRAPH_TIME_SELF,
  CS_FUNCGRAPH_TIME_FUNC,
  CS_FUNCGRAPH_TASK_TS,
  CS_FUNCGRAPH_TASK_ROW,
  CS_FUNCGRAPH_N_COLUMNS,
} CsFuncgraphColumn;

/**
 * CsFuncgraphReader:
 *
 * The readers of the calls' result table on one connection (opaque;
 * cs-funcgraph-reader.c).
 */
typedef struct _CsFuncgraphReader CsFuncgraphReader;

/**
 * CsFuncgraph:
 * @plugin: the plugin
 * @document: the recording (outlives the instance)
 * @has_events: whether the recording has function_graph or function
 *   tracer events (the pass is asked for only then)
 * @pages: (element-type GtkWidget): the pages shown for the recording,
 *   told when the results become ready
 * @names: (element-type gint64 utf8): function names by id, read as the
 *   rows need them; emptied when the pass runs again
 * @statements: the rows' prepared statements by SQL text (static
 *   strings), finalized when the pass runs again and before the
 *   recording's databases close
 * @reader: (nullable): the rows' readers of the calls, freed then too
 *
 * The plugin's instance for one recording.
 */
typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;
  gboolean has_events;
  GPtrArray *pages;
  GHashTable *names;
  GHashTable *statements;
  CsFuncgraphReader *reader;
} CsFuncgraph;

/* A statement of CsFuncgraph.statements: borrowed, reset (not finalized)
 * when a g_autoptr() goes out of scope. */
typedef sqlite3_stmt CsFuncgraphStatement;

static inline void
_cs_funcgraph_statement_done (CsFuncgraphStatement *stmt)
{
  sqlite3_reset (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsFuncgraphStatement, _cs_funcgraph_statement_done)

/**
 * CsFuncgraphFunction:
 * @id: the function's id in the pass database
 * @name: (transfer full): its name from the recording's kallsyms, or
 *   "0x…" when it has none there
 * @addr: its start address in the recording's kallsyms (two functions
 *   may have one name)
 * @n_calls: function_graph calls (funcgraph_exit events) that begin in
 *   the range
 * @n_hits: function tracer events (ftrace:function) in the range
 * @total_ns: sum of the calls' durations (rettime − calltime)
 * @self_ns: @total_ns minus the time spent in the calls they made
 *   (their children, one level deeper, in the same task)
 * @max_ns: the longest call's duration (0 without calls)
 *
 * One line of the table of functions.
 */
typedef struct {
  gint64 id;
  char *name;
  gint64 addr;
  gint64 n_calls;
  gint64 n_hits;
  gint64 total_ns;
  gint64 self_ns;
  gint64 max_ns;
} CsFuncgraphFunction;

/**
 * CsFuncgraphCall:
 * @begin_ns: when the call began
 * @end_ns: when it returned (> @begin_ns)
 * @self_ns: its duration minus its children's
 * @pid: the task
 * @cpu: the CPU of its funcgraph_exit event
 * @depth: its depth (0: outermost traced call)
 * @func: its function's id
 *
 * One function_graph call, as the pass stored it.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  gint64 self_ns;
  gint32 pid;
  guint cpu;
  guint depth;
  gint64 func;
} CsFuncgraphCall;

void     _cs_funcgraph_add_pass      (CsPlugin *plugin);
void     _cs_funcgraph_add_layer     (CsPlugin *plugin);
void     _cs_funcgraph_add_page      (CsPlugin *plugin);
void     _cs_funcgraph_add_command   (CsPlugin *plugin);

gboolean _cs_funcgraph_has_events    (CsPluginDocument *document);
void     _cs_funcgraph_request       (CsFuncgraph *self);
sqlite3 *_cs_funcgraph_get_db        (CsFuncgraph *self);
CsFuncgraphStatement *_cs_funcgraph_statement (CsFuncgraph *self,
                                               sqlite3     *db,
                                               const char  *sql);
const char *_cs_funcgraph_get_name   (CsFuncgraph *self,
                                       gint64       func);
CsFuncgraphReader *_cs_funcgraph_get_reader (CsFuncgraph *self,
                                             sqlite3     *db);
void     _cs_funcgraph_page_refresh  (gpointer page);
void     _cs_funcgraph_page_forget   (gpointer page);

gboolean _cs_funcgraph_sql_failed     (sqlite3  *db,
                                       GError  **error);
void     _cs_funcgraph_function_clear (CsFuncgraphFunction *function);
GArray  *_cs_funcgraph_list_functions (sqlite3  *db,
                                       gint64    begin_ns,
                                       gint64    end_ns,
                                       guint     limit,
                                       GError  **error);
gboolean _cs_funcgraph_worst_call     (CsFuncgraphReader *reader,
                                       gint64           func,
                                       gint64           begin_ns,
                                       gint64           end_ns,
                                       CsFuncgraphCall *call,
                                       GError         **error);
char    *_cs_funcgraph_function_name  (sqlite3 *db,
                                       gint64   func);
GArray  *_cs_funcgraph_list_tasks     (sqlite3  *db,
                                       GError  **error);

CsFuncgraphReader *_cs_funcgraph_reader_new      (sqlite3            *db);
void     _cs_funcgraph_reader_free    (CsFuncgraphReader  *reader);
sqlite3 *_cs_funcgraph_reader_get_db  (CsFuncgraphReader  *reader);
gboolean _cs_funcgraph_reader_get_span (CsFuncgraphReader *reader,
                                        const char        *order,
                                        gint64             key,
                                        gint64            *lo,
                                        gint64            *hi,
                                        GError           **error);
gboolean _cs_funcgraph_reader_get_n   (CsFuncgraphReader  *reader,
                                       gint64             *n_calls,
                                       GError            **error);
gboolean _cs_funcgraph_reader_get     (CsFuncgraphReader  *reader,
                                       CsFuncgraphColumn   column,
                                       gint64              position,
                                       gint64             *value,
                                       GError            **error);
gboolean _cs_funcgraph_reader_find    (CsFuncgraphReader  *reader,
                                       CsFuncgraphColumn   column,
                                       gint64              lo,
                                       gint64              hi,
                                       gint64              value,
                                       gint64             *position,
                                       GError            **error);
gboolean _cs_funcgraph_reader_read_call (CsFuncgraphReader *reader,
                                         gint64             row,
                                         CsFuncgraphCall   *call,
                                         GError           **error);
gboolean _cs_funcgraph_reader_read_instant (CsFuncgraphReader *reader,
                                            gint64             row,
                                            gint64            *ts_ns,
                                            gint64            *func,
                                            gint64            *parent,
                                            guint             *cpu,
                                            GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsFuncgraphReader, _cs_funcgraph_reader_free)

G_END_DECLS
