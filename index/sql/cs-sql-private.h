/* cs-sql-private.h: what the SQL session and its virtual tables share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every table is an eponymous-only virtual table (sqlite3_create_module
 * with no xCreate): it exists as soon as its module is registered, nothing
 * is written into any schema, and the connection can stay read-only.
 * Tables read the document (its per-CPU chunks, slices and task rows) and,
 * for event fields, the recording through libtraceevent.
 */
#pragma once

#include <sqlite3.h>

#include "cs-document-private.h"
#include "cs-sql-session.h"

G_BEGIN_DECLS

struct tep_event;

/* What the tables of one session share (the module's client data points
 * at a table description that points here). */
typedef struct {
  CsDocument *document;         /* borrowed from the session */
  CsTraceFile *trace_file;      /* borrowed; NULL when the recording is gone */
  /* Bumped by every cs_trace_file_read_at() of the session: a cursor's
   * record is still valid while the generation it read it at is current. */
  guint64 read_gen;
  /* Inside sqlite3_declare_vtab(), which the authorizer lets through. */
  guint declaring;
} CsSqlContext;

/* The first member of every table's client data (the module's aux). */
typedef struct {
  CsSqlContext *ctx;
  char *schema;                 /* CREATE TABLE x(...), as users see it */
  char *declared;               /* what SQLite is given, when not @schema
                                 * (hidden columns); owned */
} CsSqlTable;

typedef struct {
  sqlite3_vtab base;
  CsSqlTable *table;
} CsSqlVtab;

int _cs_sql_vtab_connect    (sqlite3              *db,
                             void                 *aux,
                             int                   argc,
                             const char * const   *argv,
                             sqlite3_vtab        **out,
                             char                **err);
int _cs_sql_vtab_disconnect (sqlite3_vtab         *vtab);
int _cs_sql_vtab_fail       (sqlite3_vtab_cursor  *cursor,
                             GError               *error);

/* Bounds pushed down by xBestIndex/xFilter: rows outside them are never
 * read.  Bounds are a superset: SQLite still checks every constraint (the
 * constraints are not omitted), so an approximate bound is only slower. */
typedef struct {
  gint64 begin_ns;              /* inclusive; G_MININT64 when unbounded */
  gint64 end_ns;                /* exclusive; G_MAXINT64 when unbounded */
  gint64 cpu;                   /* -1 when any */
  gint64 pid;                   /* -1 when any */
  gboolean empty;               /* a constraint nothing can satisfy */
} CsSqlBounds;

/* Which columns a table pushes down (-1 when it has none of that kind). */
typedef struct {
  int ts_column;
  int cpu_column;
  int pid_column;
} CsSqlPushdown;

int  _cs_sql_best_index    (const CsSqlPushdown *pushdown,
                            sqlite3_index_info  *info,
                            double               full_scan_cost);
gint64 _cs_sql_clamp_double (double d);
void _cs_sql_bounds_decode (CsSqlBounds         *bounds,
                            int                  idx_num,
                            int                  argc,
                            sqlite3_value      **argv);

/* Rows of an event table made from counts (cs-sql-event-counts.c). */
typedef enum {
  CS_SQL_COUNT_NONE,            /* a scan of the chunks */
  CS_SQL_COUNT_BY_PID,          /* tasks.n_events: columns pid, comm */
  CS_SQL_COUNT_BY_CPU,          /* per CPU: column cpu */
  CS_SQL_COUNT_BY_CPU_TYPE,     /* per CPU and type: cpu, system, name */
  CS_SQL_COUNT_BY_CPU_STATE,    /* sched_switch per CPU and prev_state */
} CsSqlCountBy;

typedef enum {
  CS_SQL_KEY_CPU,
  CS_SQL_KEY_PID,
  CS_SQL_KEY_COMM,
  CS_SQL_KEY_SYSTEM,
  CS_SQL_KEY_NAME,
  CS_SQL_KEY_STATE,             /* prev_state, NULL first */
} CsSqlCountKey;

typedef struct {
  CsSqlCountKey key;
  gboolean desc;
} CsSqlOrderTerm;

/* A run of identical rows: n events of pid (-1: any), cpu (-1: any) and
 * type (-1: any); of CS_SQL_COUNT_BY_CPU_STATE, their prev_state; of a
 * time bucket (_cs_sql_count_bucket_groups()), the ts of one of them. */
typedef struct {
  gint32 pid;
  gint cpu;
  gint type_id;
  guint64 n;
  gboolean state_null;
  gint64 state;
  gint64 ts;
} CsSqlCountGroup;

/* Time buckets of weighted rows: (ts - origin) / width, as SQLite's
 * integer division truncates. */
typedef struct {
  gint64 width;                 /* > 0 */
  gint64 origin;
} CsSqlBuckets;

gboolean _cs_sql_counts_usable (CsDocument           *doc,
                                gboolean              by_pid);
GArray  *_cs_sql_count_groups  (CsDocument           *doc,
                                gint                  type_id,
                                CsSqlCountBy          by,
                                const CsSqlBounds    *bounds,
                                const GArray         *states,
                                const CsSqlOrderTerm *terms,
                                guint                 n_terms,
                                GError              **error);
GArray  *_cs_sql_count_bucket_groups (CsDocument         *doc,
                                      gint                type_id,
                                      CsSqlCountBy        by,
                                      const CsSqlBounds  *bounds,
                                      const CsSqlBuckets *buckets,
                                      guint               max_groups,
                                      gboolean           *answered,
                                      GError            **error);

char *_cs_sql_rewrite_counts (const char  *sql,
                              gboolean   (*is_event_table) (const char *name,
                                                            gpointer    user_data),
                              gpointer     user_data);

/* Registration of the tables; @tables receives the names it registered
 * and their schemas, name then schema.  The tables are made under
 * @prefix + name (@prefix %NULL or "" for a one-document session; the
 * names in @tables never carry it). */
gboolean _cs_sql_register_event_tables   (sqlite3       *db,
                                          CsSqlContext  *ctx,
                                          const char    *prefix,
                                          GPtrArray     *tables,
                                          GError       **error);
gboolean _cs_sql_register_derived_tables (sqlite3       *db,
                                          CsSqlContext  *ctx,
                                          const char    *prefix,
                                          GPtrArray     *tables,
                                          GError       **error);

/* Several documents in one session (cs-sql-streams.c): each one's tables
 * under "streamN_", the views over them, the streams table and the
 * alignment function, as @set relates its streams (@contexts[k] is over
 * the document of its stream k; the connection keeps a reference on
 * @set).  @tables receives the views' names and schemas as the register
 * functions do. */
gboolean _cs_sql_streams_setup           (sqlite3       *db,
                                          CsSqlContext **contexts,
                                          CsStreamSet   *set,
                                          GPtrArray     *tables,
                                          GError       **error);

gboolean _cs_sql_register_file_table     (sqlite3               *db,
                                          CsSqlContext          *ctx,
                                          const CsSqlFileTable  *table,
                                          char                 **schema,
                                          GError               **error);

/* The text the kernel's sched_switch format prints for prev_state
 * ("S", "D", "R", "R+", "I", ...), from its TASK_* bits. */
const char *_cs_sql_prev_state_name (gint64 prev_state);

/* Quotes an SQL identifier ("a""b"). */
char *_cs_sql_quote_identifier (const char *name);

G_END_DECLS
