/* cs-sql-vtab.c: what the virtual tables share: connecting (declaring
 * their columns) and the constraints on ts, cpu and pid they push down
 * (xBestIndex, xFilter).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * xBestIndex hands each usable constraint on a pushed-down column to
 * xFilter as an argument and describes it in idxNum: 5 bits per argument,
 * the column kind (ts, cpu, pid) and the operator.  Constraints are never
 * omitted: SQLite checks them again on every row, so the bounds only have
 * to be a superset of the answer.  That keeps odd values (floats, text,
 * NULL) simple: they narrow the bounds conservatively or not at all.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "cs-sql-private.h"

/* xConnect of every table: @aux starts with a CsSqlTable. */
int
_cs_sql_vtab_connect (sqlite3             *db,
                      void                *aux,
                      int                  argc,
                      const char * const  *argv,
                      sqlite3_vtab       **out,
                      char               **err)
{
  CsSqlTable *table = aux;
  CsSqlVtab *vtab;
  int rc;

  /* The authorizer lets sqlite3_declare_vtab() through (it parses the
   * table's CREATE TABLE as if it were user SQL). */
  table->ctx->declaring++;
  rc = sqlite3_declare_vtab (db, table->declared != NULL ? table->declared : table->schema);
  table->ctx->declaring--;
  if (rc != SQLITE_OK)
    return rc;
  vtab = sqlite3_malloc (sizeof *vtab);
  if (vtab == NULL)
    return SQLITE_NOMEM;
  memset (vtab, 0, sizeof *vtab);
  vtab->table = table;
  *out = &vtab->base;
  return SQLITE_OK;
}

/* xDisconnect and xDestroy of every table. */
int
_cs_sql_vtab_disconnect (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}

/* Sets a cursor's table's error message from @error (consumed). */
int
_cs_sql_vtab_fail (sqlite3_vtab_cursor *cursor,
                   GError              *error)
{
  sqlite3_free (cursor->pVtab->zErrMsg);
  cursor->pVtab->zErrMsg = sqlite3_mprintf ("%s", error ? error->message : _("unknown error"));
  g_clear_error (&error);
  return SQLITE_ERROR;
}

enum { KIND_TS = 1, KIND_CPU = 2, KIND_PID = 3 };
enum { OP_EQ, OP_GT, OP_GE, OP_LT, OP_LE };
#define MAX_ARGS 6
#define ARG_BITS 5

static int
op_of (unsigned char sqlite_op)
{
  switch (sqlite_op)
    {
    case SQLITE_INDEX_CONSTRAINT_EQ: return OP_EQ;
    case SQLITE_INDEX_CONSTRAINT_GT: return OP_GT;
    case SQLITE_INDEX_CONSTRAINT_GE: return OP_GE;
    case SQLITE_INDEX_CONSTRAINT_LT: return OP_LT;
    case SQLITE_INDEX_CONSTRAINT_LE: return OP_LE;
    default: return -1;
    }
}

/* Fills @info for a table that pushes down @pushdown's columns; returns
 * SQLITE_OK.  @full_scan_cost is about the rows a full scan reads. */
int
_cs_sql_best_index (const CsSqlPushdown *pushdown,
                    sqlite3_index_info  *info,
                    double               full_scan_cost)
{
  int n_args = 0, idx_num = 0;
  double cost = MAX (full_scan_cost, 1.0);
  gboolean ts_lo = FALSE, ts_hi = FALSE, cpu_eq = FALSE, pid_eq = FALSE;

  for (int i = 0; i < info->nConstraint && n_args < MAX_ARGS; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      int op = op_of (c->op);
      int kind = 0;

      if (!c->usable || op < 0 || c->iColumn < 0)
        continue;
      if (c->iColumn == pushdown->ts_column)
        kind = KIND_TS;
      else if (c->iColumn == pushdown->cpu_column && op == OP_EQ)
        kind = KIND_CPU;
      else if (c->iColumn == pushdown->pid_column && op == OP_EQ)
        kind = KIND_PID;
      if (kind == 0)
        continue;

      info->aConstraintUsage[i].argvIndex = ++n_args;
      info->aConstraintUsage[i].omit = 0;
      idx_num |= (kind << 3 | op) << (ARG_BITS * (n_args - 1));
      if (kind == KIND_TS)
        {
          ts_lo |= op == OP_EQ || op == OP_GT || op == OP_GE;
          ts_hi |= op == OP_EQ || op == OP_LT || op == OP_LE;
        }
      cpu_eq |= kind == KIND_CPU;
      pid_eq |= kind == KIND_PID;
    }

  /* Rough guesses; they only need to rank plans the right way round. */
  if (ts_lo && ts_hi)
    cost /= 1000.0;
  else if (ts_lo || ts_hi)
    cost /= 2.0;
  if (cpu_eq)
    cost /= 4.0;
  if (pid_eq)
    cost /= 50.0;
  info->idxNum = idx_num;
  info->estimatedCost = MAX (cost, 1.0);
  info->estimatedRows = (sqlite3_int64) MAX (cost, 1.0);
  return SQLITE_OK;
}

/**
 * _cs_sql_clamp_double:
 * @d: a whole number of nanoseconds as a double (floor()ed or ceil()ed)
 *
 * Returns: @d as a gint64, saturated at G_MININT64 and G_MAXINT64
 */
gint64
_cs_sql_clamp_double (double d)
{
  if (d <= (double) G_MININT64)
    return G_MININT64;
  if (d >= (double) G_MAXINT64)
    return G_MAXINT64;
  return (gint64) d;
}

static gint64
sat_add1 (gint64 v)
{
  return v == G_MAXINT64 ? v : v + 1;
}

/* Narrows @bounds by the arguments xBestIndex asked for. */
void
_cs_sql_bounds_decode (CsSqlBounds    *bounds,
                       int             idx_num,
                       int             argc,
                       sqlite3_value **argv)
{
  bounds->begin_ns = G_MININT64;
  bounds->end_ns = G_MAXINT64;
  bounds->cpu = -1;
  bounds->pid = -1;
  bounds->empty = FALSE;

  for (int k = 0; k < argc && k < MAX_ARGS; k++)
    {
      int code = (idx_num >> (ARG_BITS * k)) & ((1 << ARG_BITS) - 1);
      int kind = code >> 3, op = code & 7;
      sqlite3_value *v = argv[k];
      int type = sqlite3_value_numeric_type (v);
      gint64 lo, hi;    /* the values v may stand for: [lo, hi] */

      if (type == SQLITE_NULL)
        {
          /* Comparisons with NULL are never true. */
          bounds->empty = TRUE;
          continue;
        }
      if (type == SQLITE_INTEGER)
        lo = hi = sqlite3_value_int64 (v);
      else if (type == SQLITE_FLOAT)
        {
          double d = sqlite3_value_double (v);

          if (isnan (d))
            continue;
          lo = _cs_sql_clamp_double (floor (d));
          hi = _cs_sql_clamp_double (ceil (d));
        }
      else
        continue;       /* text or blob: no narrowing */

      if (kind == KIND_TS)
        {
          if (op == OP_EQ || op == OP_GE)
            bounds->begin_ns = MAX (bounds->begin_ns, lo);
          else if (op == OP_GT)
            bounds->begin_ns = MAX (bounds->begin_ns, lo == hi ? sat_add1 (lo) : lo);
          if (op == OP_EQ || op == OP_LE)
            bounds->end_ns = MIN (bounds->end_ns, sat_add1 (hi));
          else if (op == OP_LT)
            bounds->end_ns = MIN (bounds->end_ns, hi);
        }
      else if (kind == KIND_CPU || kind == KIND_PID)
        {
          gint64 *slot = kind == KIND_CPU ? &bounds->cpu : &bounds->pid;

          if (lo != hi || lo < 0 || (*slot >= 0 && *slot != lo))
            bounds->empty = TRUE;   /* not an integer, negative, or two values */
          else
            *slot = lo;
        }
    }
  if (bounds->begin_ns >= bounds->end_ns)
    bounds->empty = TRUE;
}
