/* cs-sql-event-plan.c: how the event tables answer a query (xBestIndex):
 * which constraints they take, whether counts answer it, and the order
 * their rows come in.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The plan travels to xFilter in idxStr, as text that EXPLAIN QUERY PLAN
 * shows: "count_by flags merge n_generic n_fields n_order" (flags: 1
 * distinct, 2 weighted, 4 and 8 a span's begin and end given, 16 and 32
 * a bucket's width and origin given, 64 weighted rows per time bucket),
 * then a column and an operator per field argument and a key and a
 * direction per order term.
 *
 * Time buckets: `SELECT ts / N, count(*) ... GROUP BY 1` reads ts, which
 * no count tells apart, so SQLite would step through every row.  Given
 * a width (events(BEGIN, END, WIDTH, ORIGIN), which the count rewrite
 * writes for such a query), a weighted plan hands out one row per group
 * and bucket, ts that of one of the bucket's events: every expression of
 * (ts - ORIGIN) / WIDTH then has the value it has on each of them.
 */
#include "config.h"

#include <event-parse.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs-sql-event-private.h"

static const CsSqlPushdown event_pushdown = { COL_TS, COL_CPU, COL_PID };

/**
 * _cs_sql_field_sql_type:
 * @f: a field of an event's format
 *
 * Returns: the SQL type of its column: "TEXT" for strings, "BLOB" for
 *   other arrays and odd sizes, "INTEGER" for numbers of 1, 2, 4 or 8
 *   bytes
 */
const char *
_cs_sql_field_sql_type (const struct tep_format_field *f)
{
  if (f->flags & TEP_FIELD_IS_STRING)
    return "TEXT";
  if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
      (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
    return "BLOB";
  return "INTEGER";
}

/* colUsed bits of the columns a counted plan can answer. */
#define BIT(c) (G_GUINT64_CONSTANT (1) << (c))

static gboolean
counts_usable (CsSqlEventTable *t,
               gboolean    by_pid)
{
  if (t->counts_usable[by_pid] < 0)
    t->counts_usable[by_pid] = _cs_sql_counts_usable (t->base.ctx->document, by_pid);
  return t->counts_usable[by_pid];
}

/* Whether the index's sched_switch counts by prev_state add up, on every
 * CPU, to the table's rows: then they are its rows when only cpu and
 * prev_state are read.  A damaged or older count leaves the scan. */
static gboolean
states_usable (CsSqlEventTable *t)
{
  CsDocument *doc = t->base.ctx->document;
  g_autoptr(GError) error = NULL;

  if (t->states_usable >= 0)
    return t->states_usable;
  t->states_usable = FALSE;
  if (t->state_column < 0 || _cs_sql_event_integer_field (t, t->state_column) == NULL ||
      (t->states = _cs_document_dup_switch_states (doc, &error)) == NULL)
    return FALSE;
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      guint64 n = 0;

      for (guint i = 0; i < t->states->len; i++)
        {
          const CsSwitchStateCount *c = &g_array_index (t->states, CsSwitchStateCount, i);

          if (c->cpu == cpu && c->type_id == t->type_id)
            n += c->n_events;
        }
      if (n != cs_document_get_cpu_type_count (doc, cpu, (guint) t->type_id))
        return FALSE;
    }
  t->states_usable = TRUE;
  return TRUE;
}

/* The key an ORDER BY column has among counted rows, or -1. */
static int
order_key (CsSqlEventTable   *t,
           int           column,
           CsSqlCountBy  by)
{
  if (by == CS_SQL_COUNT_BY_PID)
    return column == COL_PID ? CS_SQL_KEY_PID : column == COL_COMM ? CS_SQL_KEY_COMM : -1;
  if (by == CS_SQL_COUNT_BY_CPU_STATE && column == t->state_column)
    return CS_SQL_KEY_STATE;
  if (column == COL_CPU)
    return CS_SQL_KEY_CPU;
  if (by == CS_SQL_COUNT_BY_CPU_TYPE && t->type_id < 0)
    return column == COL_SYSTEM ? CS_SQL_KEY_SYSTEM : column == COL_NAME ? CS_SQL_KEY_NAME : -1;
  return -1;
}

/**
 * _cs_sql_event_integer_field:
 * @t: an event table
 * @column: one of its columns
 *
 * Returns: (nullable) (transfer none): the field behind @column when it is
 *   a typed table's plain integer (whose constraints the scan checks)
 */
struct tep_format_field *
_cs_sql_event_integer_field (CsSqlEventTable *t,
                             int              column)
{
  struct tep_format_field *f;

  if (t->type_id < 0 || t->fields == NULL || column < N_COMMON ||
      (guint) (column - N_COMMON) >= t->fields->len)
    return NULL;
  f = g_ptr_array_index (t->fields, column - N_COMMON);
  return g_str_equal (_cs_sql_field_sql_type (f), "INTEGER") ? f : NULL;
}

/* colUsed bits of the table's arguments: never a column the counts must
 * tell apart (a cursor's arguments are the same on every row it hands
 * out). */
static guint64
arg_bits (CsSqlEventTable *t)
{
  guint64 bits = 0;

  for (int k = 0; k < N_TABLE_ARGS; k++)
    if (t->arg_column + k < 63)
      bits |= BIT (t->arg_column + k);
  return bits;
}

/* events(BEGIN, END, WIDTH, ORIGIN): an equality on each of the hidden
 * columns becomes an argument after _cs_sql_best_index()'s, in their
 * order, and is omitted (xFilter turns any number into the exact bound
 * of the integer ts).  Other constraints on them SQLite checks against
 * xColumn, the values given.  An argument that is not known yet (a
 * join's outer table not read) makes the plan unusable, as
 * generate_series does. */
static int
take_args (CsSqlEventTable    *t,
           sqlite3_index_info *info,
           CsSqlEventPlan     *plan)
{
  int at[N_TABLE_ARGS] = { -1, -1, -1, -1 };
  int n = plan->n_generic;

  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < info->nConstraint; i++)
      {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int k = c->iColumn - t->arg_column;

        if (k < 0 || k >= N_TABLE_ARGS || c->op != SQLITE_INDEX_CONSTRAINT_EQ || at[k] >= 0)
          continue;
        if (c->usable)
          at[k] = i;
        else if (pass == 1)
          return SQLITE_CONSTRAINT;
      }
  for (int k = 0; k < N_TABLE_ARGS; k++)
    if (at[k] >= 0)
      {
        plan->arg[k] = TRUE;
        info->aConstraintUsage[at[k]].argvIndex = ++n;
        info->aConstraintUsage[at[k]].omit = 1;
      }
  if (plan->arg[ARG_BEGIN] && plan->arg[ARG_END])
    {
      info->estimatedCost = MAX (info->estimatedCost / 1000.0, 1.0);
      info->estimatedRows = MAX (info->estimatedRows / 1000, 1);
    }
  else if (plan->arg[ARG_BEGIN] || plan->arg[ARG_END])
    {
      info->estimatedCost = MAX (info->estimatedCost / 2.0, 1.0);
      info->estimatedRows = MAX (info->estimatedRows / 2, 1);
    }
  return SQLITE_OK;
}

/**
 * _cs_sql_event_best_index:
 * @vtab: an event table
 * @info: SQLite's question
 *
 * xBestIndex of the event tables: pushes down ts, cpu and pid
 * (_cs_sql_best_index()) and constraints on integer fields, chooses
 * counted rows when the columns read allow, and consumes the ORDER BY it
 * can give.
 *
 * Returns: an SQLite code
 */
int
_cs_sql_event_best_index (sqlite3_vtab       *vtab,
                          sqlite3_index_info *info)
{
  CsSqlEventTable *t = (CsSqlEventTable *) ((CsSqlVtab *) vtab)->table;
  CsDocument *doc = t->base.ctx->document;
  double rows = t->type_id < 0 ? (double) cs_document_get_n_events (doc)
                               : (double) cs_document_get_event_type (doc, t->type_id)->n_events;
  /* _cs_n is no column the counts must tell apart (the 64th bit stands
   * for every column from the 64th on: a weight there is never counted). */
  guint64 weight_bit = t->weight_column < 63 ? BIT (t->weight_column) : 0;
  guint64 used = info->colUsed & ~weight_bit;
  CsSqlEventPlan plan = { CS_SQL_COUNT_NONE, FALSE, 0, };

  plan.merge = CS_SQL_MERGE_NONE;
  GString *idx_str;
  int rc, n_span, n_args = 0;

  rc = _cs_sql_best_index (&event_pushdown, info, rows);
  if (rc != SQLITE_OK)
    return rc;
  for (int i = 0; i < info->nConstraint; i++)
    plan.n_generic = MAX (plan.n_generic, info->aConstraintUsage[i].argvIndex);
  rc = take_args (t, info, &plan);
  if (rc != SQLITE_OK)
    return rc;
  n_span = plan.arg[ARG_BEGIN] + plan.arg[ARG_END];
  for (int k = 0; k < N_TABLE_ARGS; k++)
    n_args += plan.arg[k];
  used &= ~arg_bits (t);
  /* Weighted rows per time bucket tell ts apart as far as a bucket's
   * expressions can see it. */
  plan.bucketed = plan.arg[ARG_WIDTH] && (info->colUsed & weight_bit) != 0;
  /* ...but not as far as a constraint on ts, which SQLite checks on the
   * row (the count rewrite moves those to the span). */
  for (int i = 0; plan.bucketed && i < info->nConstraint; i++)
    plan.bucketed = info->aConstraint[i].iColumn != COL_TS;
  if (plan.bucketed)
    used &= ~BIT (COL_TS);

  /* sched_switch read only by cpu and prev_state: counted rows, one per
   * CPU and value, which SQLite checks the prev_state constraints on. */
  if (t->state_column >= 0 && t->state_column < 63 && n_span == 0 && !plan.bucketed &&
      (used & ~(BIT (COL_CPU) | BIT (t->state_column))) == 0 &&
      (used & BIT (t->state_column)) != 0 && states_usable (t))
    plan.count_by = CS_SQL_COUNT_BY_CPU_STATE;

  /* Constraints on integer fields, checked on the record before SQLite
   * sees the row (not omitted: SQLite checks them again). */
  for (int i = 0; plan.count_by == CS_SQL_COUNT_NONE && i < info->nConstraint &&
                  plan.n_fields < CS_SQL_EVENT_MAX_FIELD_ARGS; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];

      if (!c->usable || info->aConstraintUsage[i].argvIndex > 0 || _cs_sql_event_integer_field (t, c->iColumn) == NULL)
        continue;
      if (c->op != SQLITE_INDEX_CONSTRAINT_EQ && c->op != SQLITE_INDEX_CONSTRAINT_GT &&
          c->op != SQLITE_INDEX_CONSTRAINT_GE && c->op != SQLITE_INDEX_CONSTRAINT_LT &&
          c->op != SQLITE_INDEX_CONSTRAINT_LE)
        continue;
      info->aConstraintUsage[i].argvIndex = plan.n_generic + n_args + plan.n_fields + 1;
      plan.field[plan.n_fields] = c->iColumn;
      plan.field_op[plan.n_fields] = c->op;
      plan.n_fields++;
      /* Fewer rows reach SQLite; reading the records costs more than the
       * chunks, so the plan stays a scan in the estimate. */
      info->estimatedRows = MAX (info->estimatedRows / 4, 1);
    }

  /* Counted rows when every column read is one the counts give.  Over a
   * span they are counted from the span's chunks, not from the index's
   * counts, which are the whole recording's. */
  if (plan.n_fields == 0 && plan.count_by == CS_SQL_COUNT_NONE)
    {
      if (t->type_id < 0 && (used & ~(BIT (COL_PID) | BIT (COL_COMM))) == 0 &&
          (used & (BIT (COL_PID) | BIT (COL_COMM))) != 0 && (n_span > 0 || counts_usable (t, TRUE)))
        plan.count_by = CS_SQL_COUNT_BY_PID;
      else if ((used & ~BIT (COL_CPU)) == 0 && (n_span > 0 || counts_usable (t, FALSE)))
        plan.count_by = CS_SQL_COUNT_BY_CPU;
      else if (t->type_id < 0 && (used & ~(BIT (COL_CPU) | BIT (COL_SYSTEM) | BIT (COL_NAME))) == 0 &&
               (n_span > 0 || counts_usable (t, FALSE)))
        plan.count_by = CS_SQL_COUNT_BY_CPU_TYPE;
    }

  /* Bucketed rows read ts after all unless counted (xFilter may still
   * find the buckets too many, and scan). */
  if (plan.count_by == CS_SQL_COUNT_NONE && plan.bucketed)
    {
      plan.bucketed = FALSE;
      used |= info->colUsed & BIT (COL_TS);
    }

  /* Counted rows come in any order asked of their columns; scanned rows
   * come CPU by CPU.  Bucketed rows take none: the scan that xFilter
   * falls back on would not keep it. */
  if (info->nOrderBy > 0 && info->nOrderBy <= CS_SQL_EVENT_MAX_ORDER_TERMS && !plan.bucketed)
    {
      gboolean ok = TRUE;

      for (int i = 0; i < info->nOrderBy && ok; i++)
        {
          const struct sqlite3_index_orderby *o = &info->aOrderBy[i];
          int key = o->iColumn < 0 ? -1 : order_key (t, o->iColumn, plan.count_by);

          if (plan.count_by == CS_SQL_COUNT_NONE)
            {
              /* CPU by CPU: ORDER BY cpu; merged: ORDER BY ts (, cpu). */
              if (i == 0 && o->iColumn == COL_TS)
                plan.merge = o->desc ? CS_SQL_MERGE_DESC : CS_SQL_MERGE_ASC;
              if (i == 0)
                ok = o->iColumn == COL_TS || (o->iColumn == COL_CPU && !o->desc);
              else
                ok = i == 1 && plan.merge != CS_SQL_MERGE_NONE && o->iColumn == COL_CPU &&
                     o->desc == (plan.merge == CS_SQL_MERGE_DESC);
            }
          else if ((ok = key >= 0))
            {
              plan.order[i].key = key;
              plan.order[i].desc = o->desc;
            }
        }
      if (!ok)
        plan.merge = CS_SQL_MERGE_NONE;
      if (ok)
        {
          guint64 ordered = 0;

          info->orderByConsumed = 1;
          plan.n_order = plan.count_by == CS_SQL_COUNT_NONE ? 0 : info->nOrderBy;
          /* SELECT DISTINCT: rows the same in every ORDER BY column may
           * go, as long as SQLite reads no other column (a WHERE on one
           * could reject the row kept and not its twins). */
          for (int i = 0; i < info->nOrderBy; i++)
            ordered |= BIT (info->aOrderBy[i].iColumn);
          plan.distinct = plan.count_by != CS_SQL_COUNT_NONE && sqlite3_vtab_distinct (info) >= 2 &&
                          (used & ~ordered) == 0;
        }
    }
  /* One row per group when the query reads the groups' weights (and
   * then no DISTINCT: the weights tell the groups' rows apart). */
  plan.weighted = plan.count_by != CS_SQL_COUNT_NONE && (info->colUsed & weight_bit) != 0;
  if (plan.weighted)
    plan.distinct = FALSE;
  if (plan.count_by != CS_SQL_COUNT_NONE)
    info->estimatedCost = MAX (info->estimatedCost / 10.0, 1.0);

  idx_str = g_string_new (NULL);
  g_string_append_printf (idx_str, "%d %d %d %d %d %d", plan.count_by,
                          plan.distinct | (plan.weighted << 1) | (plan.arg[ARG_BEGIN] << 2) |
                          (plan.arg[ARG_END] << 3) | (plan.arg[ARG_WIDTH] << 4) |
                          (plan.arg[ARG_ORIGIN] << 5) | (plan.bucketed << 6), plan.merge,
                          plan.n_generic, plan.n_fields, plan.n_order);
  for (int i = 0; i < plan.n_fields; i++)
    g_string_append_printf (idx_str, " %d %d", plan.field[i], plan.field_op[i]);
  for (int i = 0; i < plan.n_order; i++)
    g_string_append_printf (idx_str, " %d %d", plan.order[i].key, plan.order[i].desc);
  info->idxStr = sqlite3_mprintf ("%s", idx_str->str);
  info->needToFreeIdxStr = 1;
  g_string_free (idx_str, TRUE);
  return info->idxStr != NULL ? SQLITE_OK : SQLITE_NOMEM;
}

/**
 * _cs_sql_event_table_arg:
 * @bounds: the scan's bounds, narrowed by a span
 * @k: which argument: %ARG_BEGIN, %ARG_END, %ARG_WIDTH or %ARG_ORIGIN
 * @v: the argument of events(BEGIN, END, WIDTH, ORIGIN) that the plan
 *   took (take_args())
 * @given: (out): whether it was given (FALSE for NULL, which leaves that
 *   side of the span open, or the rows unbucketed, or the origin 0)
 * @value: (out): the argument, when given.  Of the span: the events are
 *   those with BEGIN <= ts < END, and a number that is no integer bounds
 *   as the integer ts compares with it (ts >= 1.5 and ts < 1.5 hold for
 *   the ts of 2 and of 1 on, so both sides round up), since SQLite does
 *   not check the constraint again.  A bucket's width is an integer > 0
 *   and its origin an integer, in nanoseconds.
 * @error: %CS_SQL_ERROR_FAILED when @v is no number, or a bucket's
 *   argument no integer (or a width not above 0)
 *
 * Returns: %FALSE with @error set when @v is not such a value
 */
gboolean
_cs_sql_event_table_arg (CsSqlBounds    *bounds,
                         int             k,
                         sqlite3_value  *v,
                         gboolean       *given,
                         gint64         *value,
                         GError        **error)
{
  int type = sqlite3_value_numeric_type (v);

  *given = FALSE;
  if (type == SQLITE_NULL)
    return TRUE;
  if (k >= ARG_WIDTH)
    {
      if (type != SQLITE_INTEGER || (k == ARG_WIDTH && sqlite3_value_int64 (v) <= 0))
        {
          g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED,
                       _("An event table’s time buckets, TABLE(BEGIN, END, WIDTH, ORIGIN), are whole "
                         "nanoseconds, the width above 0: “%s” is not"),
                       (const char *) sqlite3_value_text (v));
          return FALSE;
        }
      *value = sqlite3_value_int64 (v);
      *given = TRUE;
      return TRUE;
    }
  if (type == SQLITE_INTEGER)
    *value = sqlite3_value_int64 (v);
  else if (type == SQLITE_FLOAT && !isnan (sqlite3_value_double (v)))
    *value = _cs_sql_clamp_double (ceil (sqlite3_value_double (v)));
  else
    {
      g_set_error (error, CS_SQL_ERROR, CS_SQL_ERROR_FAILED,
                   _("An event table’s span, TABLE(BEGIN, END), is in nanoseconds: “%s” is no number"),
                   (const char *) sqlite3_value_text (v));
      return FALSE;
    }
  *given = TRUE;
  if (k == ARG_BEGIN)
    bounds->begin_ns = MAX (bounds->begin_ns, *value);
  else
    bounds->end_ns = MIN (bounds->end_ns, *value);
  if (bounds->begin_ns >= bounds->end_ns)
    bounds->empty = TRUE;
  return TRUE;
}

/**
 * _cs_sql_event_plan_parse:
 * @plan: (out): the plan
 * @s: the idxStr _cs_sql_event_best_index() wrote
 *
 * Returns: %FALSE when @s is not such a plan
 */
gboolean
_cs_sql_event_plan_parse (CsSqlEventPlan *plan,
                          const char     *s)
{
  char *end;
  long v[6 + 2 * (CS_SQL_EVENT_MAX_FIELD_ARGS + CS_SQL_EVENT_MAX_ORDER_TERMS)];
  guint n = 0;

  memset (plan, 0, sizeof *plan);
  while (s != NULL && *s != '\0' && n < G_N_ELEMENTS (v))
    {
      v[n++] = strtol (s, &end, 10);
      if (end == s)
        return FALSE;
      s = end;
    }
  if (n < 6 || v[4] < 0 || v[4] > CS_SQL_EVENT_MAX_FIELD_ARGS || v[5] < 0 || v[5] > CS_SQL_EVENT_MAX_ORDER_TERMS ||
      n != 6 + 2 * (guint) (v[4] + v[5]))
    return FALSE;
  plan->count_by = (CsSqlCountBy) v[0];
  plan->distinct = (v[1] & 1) != 0;
  plan->weighted = (v[1] & 2) != 0;
  for (int k = 0; k < N_TABLE_ARGS; k++)
    plan->arg[k] = (v[1] & (4 << k)) != 0;
  plan->bucketed = (v[1] & 64) != 0;
  plan->merge = v[2] == CS_SQL_MERGE_DESC ? CS_SQL_MERGE_DESC
                : v[2] != 0 ? CS_SQL_MERGE_ASC : CS_SQL_MERGE_NONE;
  plan->n_generic = (int) v[3];
  plan->n_fields = (int) v[4];
  plan->n_order = (int) v[5];
  for (int i = 0; i < plan->n_fields; i++)
    {
      plan->field[i] = (int) v[6 + 2 * i];
      plan->field_op[i] = (int) v[7 + 2 * i];
    }
  for (int i = 0; i < plan->n_order; i++)
    {
      plan->order[i].key = (CsSqlCountKey) v[6 + 2 * plan->n_fields + 2 * i];
      plan->order[i].desc = v[7 + 2 * plan->n_fields + 2 * i] != 0;
    }
  return TRUE;
}
