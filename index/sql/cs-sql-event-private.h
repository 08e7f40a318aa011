/* cs-sql-event-private.h: what the event tables' files share: their
 * columns, the table and cursor, and the plan xBestIndex makes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-sql-private.h"

G_BEGIN_DECLS

struct tep_format_field;

enum {
  COL_TS, COL_CPU, COL_PID, COL_COMM,
  COL_IRQS_OFF, COL_NEED_RESCHED, COL_HARDIRQ, COL_SOFTIRQ, COL_PREEMPT_DEPTH,
  N_COMMON,
  /* events only */
  COL_SYSTEM = N_COMMON, COL_NAME,
};

typedef struct {
  CsSqlTable base;
  gint type_id;                 /* -1: every event */
  GPtrArray *fields;            /* struct tep_format_field *, borrowed */
  /* The hidden columns of the table's arguments, from arg_column on:
   * _cs_begin and _cs_end, the span of time a query asked for as a
   * table-valued function, events(BEGIN, END), then _cs_width and
   * _cs_origin, the time buckets weighted rows stand for,
   * events(BEGIN, END, WIDTH, ORIGIN) (cs-sql-event-plan.c). */
  int arg_column;
  /* The hidden column _cs_n, the events a row stands for: 1, or a
   * group's count when the plan is weighted (cs-sql-count-rewrite.c). */
  int weight_column;
  /* prev_state's column, when the table has one (-1: none); the index's
   * counts by it (_cs_document_dup_switch_states()), loaded when first
   * asked, and whether they add up to the table's rows (-1: not asked). */
  int state_column;
  GArray *states;
  int states_usable;
  /* Whether the document's counts add up (_cs_sql_counts_usable()), per
   * task [1] and per CPU [0]: -1 until asked. */
  int counts_usable[2];
} CsSqlEventTable;

/* Constraints on integer fields that a scan checks before handing a row
 * to SQLite (which checks them again). */
#define CS_SQL_EVENT_MAX_FIELD_ARGS 4
#define CS_SQL_EVENT_MAX_ORDER_TERMS 4

/* The table's arguments, in the order of their hidden columns. */
enum { ARG_BEGIN, ARG_END, ARG_WIDTH, ARG_ORIGIN, N_TABLE_ARGS };

typedef struct {
  struct tep_format_field *field;
  int op;                       /* SQLITE_INDEX_CONSTRAINT_EQ, _GT, _GE, _LT, _LE */
  gint64 value;
} CsSqlFieldFilter;

typedef enum {
  CS_SQL_MERGE_NONE,            /* CPU by CPU */
  CS_SQL_MERGE_ASC,             /* ORDER BY ts (, cpu) */
  CS_SQL_MERGE_DESC,            /* ORDER BY ts DESC (, cpu DESC) */
} CsSqlMerge;

/* What xBestIndex chose, as it travels to xFilter in idxStr. */
typedef struct {
  CsSqlCountBy count_by;
  gboolean distinct;            /* counted rows: one per group is enough */
  gboolean weighted;            /* counted rows: one per group, _cs_n its count */
  int n_generic;                /* arguments of _cs_sql_best_index() */
  gboolean arg[N_TABLE_ARGS];   /* then the table's arguments given, in order */
  gboolean bucketed;            /* weighted rows per time bucket (_cs_width) */
  int n_fields;                 /* then arguments for field constraints */
  int field[CS_SQL_EVENT_MAX_FIELD_ARGS];
  int field_op[CS_SQL_EVENT_MAX_FIELD_ARGS];
  int n_order;                  /* the order counted rows come in */
  CsSqlOrderTerm order[CS_SQL_EVENT_MAX_ORDER_TERMS];
  CsSqlMerge merge;             /* a scan in time order (ORDER BY ts) */
} CsSqlEventPlan;

typedef struct {
  CsEvent ev;                   /* the CPU's next row */
  guint64 row;                  /* where its search goes on */
  guint64 row_begin, row_end;   /* the CPU's rows in the bounds */
} CsSqlMergeHead;

typedef struct {
  sqlite3_vtab_cursor base;
  CsSqlEventTable *table;
  CsSqlBounds bounds;
  /* The table's arguments (events(BEGIN, END, WIDTH, ORIGIN)): their
   * values, and whether given (not NULL). */
  gint64 arg_value[N_TABLE_ARGS];
  gboolean has_arg[N_TABLE_ARGS];
  guint cpu, cpu_end;
  guint64 row, row_end;         /* of cpu, when in_cpu */
  gboolean in_cpu;
  gboolean eof;
  CsEvent ev;
  gboolean have_record;
  guint64 read_gen;
  CsRecord record;
  guint n_filters;
  CsSqlFieldFilter filters[CS_SQL_EVENT_MAX_FIELD_ARGS];
  /* Counted rows: the groups, the current one, rows left in it, and the
   * rows handed out so far (the rowid of counted rows). */
  CsSqlCountBy count_by;
  gboolean weighted;
  guint64 weight;               /* _cs_n of the current row */
  gboolean state_null;          /* prev_state of the current counted row */
  gint64 state;
  GArray *groups;
  guint group;
  guint64 left;
  guint64 n_counted;
  const char *comm;             /* of the group's pid, and its length */
  int comm_len;
  /* ORDER BY ts: the CPUs' next rows, merged (a heap of n_heads). */
  CsSqlMerge merge;
  CsSqlMergeHead *heads;
  guint n_heads;
} CsSqlEventCursor;

int                      _cs_sql_event_best_index    (sqlite3_vtab                  *vtab,
                                                      sqlite3_index_info            *info);
gboolean                 _cs_sql_event_plan_parse    (CsSqlEventPlan                *plan,
                                                      const char                    *s);
gboolean                 _cs_sql_event_table_arg     (CsSqlBounds                   *bounds,
                                                      int                            k,
                                                      sqlite3_value                 *v,
                                                      gboolean                      *given,
                                                      gint64                        *ns,
                                                      GError                       **error);
struct tep_format_field *_cs_sql_event_integer_field (CsSqlEventTable               *t,
                                                      int                            column);
const char              *_cs_sql_field_sql_type      (const struct tep_format_field *f);

G_END_DECLS
