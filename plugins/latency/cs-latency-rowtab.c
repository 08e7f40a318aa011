/* cs-latency-rowtab.c: the pairs' rows stored in chunks, read as a table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pass writes one row per pair, millions on a large recording; as
 * rows of an SQLite table they cost about a tenth of the pass's time.
 * Instead the writer (cs-latency-writer.c) stores them in chunks of
 * CS_LATENCY_ROWTAB_CHUNK consecutive rows, one blob each, in
 *
 *   latency_chunks (chunk INTEGER PRIMARY KEY, data BLOB): chunk c holds
 *                  the rows at positions [c × CHUNK, (c + 1) × CHUNK),
 *                  every chunk but the last full
 *
 * and the virtual table `latency_rows` (module "cs_latency_rows",
 * registered by cs_latency_rowtab_register() on every connection that
 * reads the pass database) shows them as the rows they were:
 * (a_ts, b_ts, ids, pp, k0, k1, k2, k3), rowid = position + 1, so that
 * the view `latency` and every reader's SQL stay as they were.  A
 * constraint on the rowid (=, >, >=, <, <=) and ORDER BY rowid (either
 * way: max(rowid) reads only the last chunk) are handled here; a lookup
 * by rowid decodes one chunk, and the table keeps the last four decoded.
 *
 * A chunk's blob: one byte, the number K of key columns stored (0 to 4:
 * the most keys a row of the chunk has); four bytes, little-endian, the
 * length L of the first part; the first part, L bytes: for each row a_ts,
 * b_ts, ids, pp and the number of keys the row has, as varints of
 * differences (cs_latency_varints_encode()); then, when K > 0, the
 * second part: k0..k(K-1) of each row the same way (0 for the keys a row
 * lacks, NULL in the table).  A row without keys has k0 NULL (the view
 * reads it as the pid).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-rowtab.h"

#define CHUNK CS_LATENCY_ROWTAB_CHUNK
#define N_MAIN CS_LATENCY_ROWTAB_K0     /* a_ts, b_ts, ids, pp, n_keys */
#define MAX_KEYS (CS_LATENCY_ROWTAB_FIELDS - CS_LATENCY_ROWTAB_K0)
#define HEADER 5
#define N_CACHED 4

/* What the table's columns are (the rowid is the position + 1). */
#define ROWTAB_SCHEMA \
  "CREATE TABLE x(a_ts INTEGER, b_ts INTEGER, ids INTEGER, pp INTEGER," \
  " k0 INTEGER, k1 INTEGER, k2 INTEGER, k3 INTEGER)"

/* idxNum of xBestIndex: which constraints the arguments are, in this
 * order, and the order of the scan. */
enum {
  IDX_EQ = 1 << 0, IDX_GT = 1 << 1, IDX_GE = 1 << 2, IDX_LT = 1 << 3, IDX_LE = 1 << 4,
  IDX_DESC = 1 << 5,
};

/* Per connection: shared by its tables and the functions
 * cs_latency_rows_decodes() and cs_latency_rows_read(), which tests use
 * to see that a lookup decodes one chunk and reads one row, not all. */
typedef struct {
  gint64 n_decodes;             /* chunks decoded */
  gint64 n_read;                /* rows the cursors stood on */
} Conn;

typedef struct {
  gint64 chunk;                 /* -1: none */
  guint n;                      /* rows */
  guint n_keys;                 /* key columns in @keys */
  gint64 main[CHUNK * N_MAIN];
  gint64 keys[CHUNK * MAX_KEYS];
} Decoded;

typedef struct {
  sqlite3_vtab base;
  sqlite3 *db;
  Conn *conn;
  char *schema;
  sqlite3_stmt *get;            /* the data of chunk ?1 */
  sqlite3_stmt *last;           /* the last chunk's number */
  Decoded *cache[N_CACHED];
  guint evict;                  /* the slot to fill next */
} RowTab;

typedef struct {
  sqlite3_vtab_cursor base;
  gint64 pos;                   /* the row's position */
  gint64 stop;                  /* the last position to read, inclusive */
  int dir;                      /* +1 or -1 */
  gboolean eof;
  const Decoded *d;             /* pos's chunk, valid until the next fetch */
} RowCursor;

/**
 * cs_latency_rowtab_encode:
 * @rows: (array): @n_rows × %CS_LATENCY_ROWTAB_FIELDS numbers, row after
 *   row: a_ts, b_ts, ids, pp, the row's number of keys (0 to 4), then
 *   k0..k3 (those past the row's number of keys are ignored)
 * @n_rows: 1 to %CS_LATENCY_ROWTAB_CHUNK
 * @out: room for %CS_LATENCY_ROWTAB_MAX_BYTES
 *
 * Encodes a chunk of `latency_chunks` (see above).  Any thread.
 *
 * Returns: the bytes written to @out
 */
gsize
cs_latency_rowtab_encode (const gint64 *rows,
                          gsize         n_rows,
                          guint8       *out)
{
  guint n_keys = 0;
  gsize len;

  g_return_val_if_fail (n_rows >= 1 && n_rows <= CHUNK, 0);

  for (gsize r = 0; r < n_rows; r++)
    n_keys = MAX (n_keys, (guint) CLAMP (rows[r * CS_LATENCY_ROWTAB_FIELDS +
                                             CS_LATENCY_ROWTAB_N_KEYS], 0, MAX_KEYS));
  len = cs_latency_varints_encode_strided (rows, n_rows, N_MAIN, CS_LATENCY_ROWTAB_FIELDS,
                                           out + HEADER);
  out[0] = (guint8) n_keys;
  out[1] = (guint8) len;
  out[2] = (guint8) (len >> 8);
  out[3] = (guint8) (len >> 16);
  out[4] = (guint8) (len >> 24);
  if (n_keys == 0)
    return HEADER + len;
  return HEADER + len +
         cs_latency_varints_encode_strided (rows + CS_LATENCY_ROWTAB_K0, n_rows, n_keys,
                                            CS_LATENCY_ROWTAB_FIELDS, out + HEADER + len);
}

static int
fail (RowTab     *tab,
      int         rc,
      const char *message)
{
  sqlite3_free (tab->base.zErrMsg);
  tab->base.zErrMsg = sqlite3_mprintf ("%s", message);
  return rc;
}

static gboolean
decode (const guint8 *blob,
        gsize         len,
        Decoded      *d)
{
  gsize main_len;
  gssize n;

  if (len < HEADER || blob[0] > MAX_KEYS)
    return FALSE;
  main_len = blob[1] | (gsize) blob[2] << 8 | (gsize) blob[3] << 16 | (gsize) blob[4] << 24;
  if (main_len > len - HEADER)
    return FALSE;
  n = cs_latency_varints_decode (blob + HEADER, main_len, CHUNK, N_MAIN, d->main);
  if (n <= 0)
    return FALSE;
  d->n = (guint) n;
  d->n_keys = blob[0];
  if (d->n_keys == 0)
    return main_len == len - HEADER;
  return cs_latency_varints_decode (blob + HEADER + main_len, len - HEADER - main_len, CHUNK,
                                    d->n_keys, d->keys) == n;
}

/* SELECT @what FROM latency_chunks @where, in the table's schema. */
static int
prepare (RowTab        *tab,
         sqlite3_stmt **s,
         const char    *what,
         const char    *where)
{
  g_autofree char *full = NULL;

  if (*s != NULL)
    return SQLITE_OK;
  full = g_strdup_printf ("SELECT %s FROM \"%s\".latency_chunks %s", what, tab->schema, where);
  if (sqlite3_prepare_v2 (tab->db, full, -1, s, NULL) != SQLITE_OK)
    return fail (tab, SQLITE_ERROR, sqlite3_errmsg (tab->db));
  return SQLITE_OK;
}

/* Chunk @chunk decoded, in *@out, or %NULL when there is none. */
static int
fetch (RowTab         *tab,
       gint64          chunk,
       const Decoded **out)
{
  Decoded *d;
  int rc;

  *out = NULL;
  for (guint i = 0; i < N_CACHED; i++)
    if (tab->cache[i] != NULL && tab->cache[i]->chunk == chunk)
      {
        *out = tab->cache[i];
        return SQLITE_OK;
      }
  if (chunk < 0)
    return SQLITE_OK;
  if ((rc = prepare (tab, &tab->get, "data", "WHERE chunk = ?1"))
      != SQLITE_OK)
    return rc;
  sqlite3_bind_int64 (tab->get, 1, chunk);
  rc = sqlite3_step (tab->get);
  if (rc == SQLITE_DONE)
    {
      sqlite3_reset (tab->get);
      return SQLITE_OK;
    }
  if (rc != SQLITE_ROW)
    {
      rc = fail (tab, rc, sqlite3_errmsg (tab->db));
      sqlite3_reset (tab->get);
      return rc;
    }
  if (tab->cache[tab->evict] == NULL)
    tab->cache[tab->evict] = g_new (Decoded, 1);
  d = tab->cache[tab->evict];
  tab->evict = (tab->evict + 1) % N_CACHED;
  d->chunk = -1;
  if (!decode (sqlite3_column_blob (tab->get, 0), (gsize) sqlite3_column_bytes (tab->get, 0), d))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The latency pairs' chunk %" PRId64 " is damaged"), chunk);

      sqlite3_reset (tab->get);
      return fail (tab, SQLITE_CORRUPT, message);
    }
  sqlite3_reset (tab->get);
  d->chunk = chunk;
  tab->conn->n_decodes++;
  *out = d;
  return SQLITE_OK;
}

/* How many rows there are. */
static int
count_rows (RowTab *tab,
            gint64 *n)
{
  const Decoded *d = NULL;
  gint64 last = -1;
  int rc;

  *n = 0;
  if ((rc = prepare (tab, &tab->last, "max(chunk)", "")) != SQLITE_OK)
    return rc;
  if (sqlite3_step (tab->last) == SQLITE_ROW && sqlite3_column_type (tab->last, 0) != SQLITE_NULL)
    last = sqlite3_column_int64 (tab->last, 0);
  sqlite3_reset (tab->last);
  if (last < 0)
    return SQLITE_OK;
  if ((rc = fetch (tab, last, &d)) != SQLITE_OK)
    return rc;
  if (d != NULL)
    *n = last * CHUNK + d->n;
  return SQLITE_OK;
}

static int
rowtab_connect (sqlite3             *db,
                void                *aux,
                int                  argc,
                const char * const  *argv,
                sqlite3_vtab       **out,
                char               **error)
{
  RowTab *tab;
  int rc = sqlite3_declare_vtab (db, ROWTAB_SCHEMA);

  if (rc != SQLITE_OK)
    return rc;
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);
  tab = g_new0 (RowTab, 1);
  tab->db = db;
  tab->conn = aux;
  tab->schema = g_strdup (argc > 1 ? argv[1] : "main");
  *out = &tab->base;
  return SQLITE_OK;
}

static int
rowtab_disconnect (sqlite3_vtab *vtab)
{
  RowTab *tab = (RowTab *) vtab;

  sqlite3_finalize (tab->get);
  sqlite3_finalize (tab->last);
  for (guint i = 0; i < N_CACHED; i++)
    g_free (tab->cache[i]);
  g_free (tab->schema);
  g_free (tab);
  return SQLITE_OK;
}

static int
rowtab_best_index (sqlite3_vtab       *vtab,
                   sqlite3_index_info *info)
{
  static const struct { guchar op; int flag; } ops[] = {
    { SQLITE_INDEX_CONSTRAINT_EQ, IDX_EQ }, { SQLITE_INDEX_CONSTRAINT_GT, IDX_GT },
    { SQLITE_INDEX_CONSTRAINT_GE, IDX_GE }, { SQLITE_INDEX_CONSTRAINT_LT, IDX_LT },
    { SQLITE_INDEX_CONSTRAINT_LE, IDX_LE },
  };
  int which[G_N_ELEMENTS (ops)];
  int argv_index = 0;

  info->idxNum = 0;
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      which[k] = -1;
      for (int i = 0; i < info->nConstraint; i++)
        if (info->aConstraint[i].usable && info->aConstraint[i].iColumn == -1 &&
            info->aConstraint[i].op == ops[k].op)
          which[k] = i;
    }
  /* At most one lower and one upper bound: SQLite checks every
   * constraint again (omit stays 0), so any of them will do. */
  if (which[1] >= 0 && which[2] >= 0)
    which[2] = -1;
  if (which[3] >= 0 && which[4] >= 0)
    which[4] = -1;
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    if (which[k] >= 0)
      {
        info->aConstraintUsage[which[k]].argvIndex = ++argv_index;
        info->idxNum |= ops[k].flag;
      }
  if (info->idxNum & IDX_EQ)
    {
      info->estimatedCost = 1;
      info->estimatedRows = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    }
  else if ((info->idxNum & (IDX_GT | IDX_GE)) && (info->idxNum & (IDX_LT | IDX_LE)))
    {
      info->estimatedCost = 1e3;
      info->estimatedRows = 1000;
    }
  else if (info->idxNum != 0)
    {
      info->estimatedCost = 1e5;
      info->estimatedRows = 100000;
    }
  else
    {
      info->estimatedCost = 1e7;
      info->estimatedRows = 1000000;
    }
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == -1)
    {
      info->orderByConsumed = 1;
      if (info->aOrderBy[0].desc)
        info->idxNum |= IDX_DESC;
    }
  return SQLITE_OK;
}

static int
rowtab_open (sqlite3_vtab         *vtab,
             sqlite3_vtab_cursor **out)
{
  RowCursor *c = g_new0 (RowCursor, 1);

  c->eof = TRUE;
  *out = &c->base;
  return SQLITE_OK;
}

static int
rowtab_close (sqlite3_vtab_cursor *cursor)
{
  g_free (cursor);
  return SQLITE_OK;
}

static RowTab *
tab_of (RowCursor *c)
{
  return (RowTab *) c->base.pVtab;
}

/* Narrows the rowids [*lo, *hi] to those @v allows with @flag. */
static void
narrow (sqlite3_value *v,
        int            flag,
        gint64        *lo,
        gint64        *hi)
{
  int type = sqlite3_value_numeric_type (v);
  gint64 down, up;              /* the integers at or below, at or above @v */

  if (type == SQLITE_NULL)
    {
      *lo = G_MAXINT64;         /* nothing compares true to NULL */
      *hi = G_MININT64;
      return;
    }
  if (type == SQLITE_INTEGER)
    down = up = sqlite3_value_int64 (v);
  else if (type == SQLITE_FLOAT)
    {
      double d = sqlite3_value_double (v);

      if (isnan (d))
        return;
      down = d >= 9.2e18 ? G_MAXINT64 : d <= -9.2e18 ? G_MININT64 : (gint64) floor (d);
      up = d >= 9.2e18 ? G_MAXINT64 : d <= -9.2e18 ? G_MININT64 : (gint64) ceil (d);
    }
  else
    return;                     /* text, blob: SQLite decides */
  switch (flag)
    {
    case IDX_EQ:
      if (down != up)
        *lo = G_MAXINT64, *hi = G_MININT64;
      else
        *lo = MAX (*lo, down), *hi = MIN (*hi, down);
      break;
    case IDX_GT:
      *lo = down == G_MAXINT64 ? G_MAXINT64 : MAX (*lo, down + 1);
      if (down == G_MAXINT64)
        *hi = G_MININT64;
      break;
    case IDX_GE:
      *lo = MAX (*lo, up);
      break;
    case IDX_LT:
      *hi = up == G_MININT64 ? G_MININT64 : MIN (*hi, up - 1);
      break;
    case IDX_LE:
      *hi = MIN (*hi, down);
      break;
    default:
      break;
    }
}

/* Settles on position c->pos: its chunk, or the end. */
static int
settle (RowCursor *c)
{
  int rc;

  if (c->dir > 0 ? c->pos > c->stop : c->pos < c->stop)
    {
      c->eof = TRUE;
      return SQLITE_OK;
    }
  if (c->d == NULL || c->d->chunk != c->pos / CHUNK)
    {
      if ((rc = fetch (tab_of (c), c->pos / CHUNK, &c->d)) != SQLITE_OK)
        return rc;
    }
  c->eof = c->d == NULL || c->pos % CHUNK >= c->d->n;
  if (!c->eof)
    tab_of (c)->conn->n_read++;
  return SQLITE_OK;
}

static int
rowtab_filter (sqlite3_vtab_cursor  *cursor,
               int                   idx_num,
               const char           *idx_str,
               int                   argc,
               sqlite3_value       **argv)
{
  static const int flags[] = { IDX_EQ, IDX_GT, IDX_GE, IDX_LT, IDX_LE };
  RowCursor *c = (RowCursor *) cursor;
  gint64 lo = 1, hi = G_MAXINT64;       /* rowids, inclusive */
  int arg = 0;

  for (guint k = 0; k < G_N_ELEMENTS (flags); k++)
    if ((idx_num & flags[k]) && arg < argc)
      narrow (argv[arg++], flags[k], &lo, &hi);
  lo = MAX (lo, 1);
  c->d = NULL;
  c->eof = TRUE;
  if (lo > hi)
    return SQLITE_OK;
  if (idx_num & IDX_DESC)
    {
      gint64 n;
      int rc = count_rows (tab_of (c), &n);

      if (rc != SQLITE_OK)
        return rc;
      c->dir = -1;
      c->pos = MIN (hi, n) - 1;
      c->stop = lo - 1;
    }
  else
    {
      c->dir = 1;
      c->pos = lo - 1;
      c->stop = hi - 1;
    }
  return settle (c);
}

static int
rowtab_next (sqlite3_vtab_cursor *cursor)
{
  RowCursor *c = (RowCursor *) cursor;

  c->pos += c->dir;
  return settle (c);
}

static int
rowtab_eof (sqlite3_vtab_cursor *cursor)
{
  return ((RowCursor *) cursor)->eof;
}

static int
rowtab_column (sqlite3_vtab_cursor *cursor,
               sqlite3_context     *ctx,
               int                  column)
{
  RowCursor *c = (RowCursor *) cursor;
  guint r = (guint) (c->pos % CHUNK);
  const Decoded *d;
  int rc;

  /* Another cursor of the table may have reused the chunk's slot. */
  if (c->d == NULL || c->d->chunk != c->pos / CHUNK)
    {
      if ((rc = fetch (tab_of (c), c->pos / CHUNK, &c->d)) != SQLITE_OK)
        return rc;
      if (c->d == NULL || r >= c->d->n)
        return SQLITE_CORRUPT;
    }
  d = c->d;
  if (column < CS_LATENCY_ROWTAB_N_KEYS)
    sqlite3_result_int64 (ctx, d->main[r * N_MAIN + column]);
  else
    {
      guint key = (guint) (column - CS_LATENCY_ROWTAB_N_KEYS);

      if (key < MIN (d->n_keys, (guint) d->main[r * N_MAIN + CS_LATENCY_ROWTAB_N_KEYS]))
        sqlite3_result_int64 (ctx, d->keys[r * d->n_keys + key]);
      else
        sqlite3_result_null (ctx);
    }
  return SQLITE_OK;
}

static int
rowtab_rowid (sqlite3_vtab_cursor *cursor,
              sqlite3_int64       *rowid)
{
  *rowid = ((RowCursor *) cursor)->pos + 1;
  return SQLITE_OK;
}

static const sqlite3_module rowtab_module = {
  .iVersion = 1,
  .xCreate = rowtab_connect,
  .xConnect = rowtab_connect,
  .xBestIndex = rowtab_best_index,
  .xDisconnect = rowtab_disconnect,
  .xDestroy = rowtab_disconnect,
  .xOpen = rowtab_open,
  .xClose = rowtab_close,
  .xFilter = rowtab_filter,
  .xNext = rowtab_next,
  .xEof = rowtab_eof,
  .xColumn = rowtab_column,
  .xRowid = rowtab_rowid,
};

static void
decodes_func (sqlite3_context  *ctx,
              int               argc,
              sqlite3_value   **argv)
{
  sqlite3_result_int64 (ctx, ((Conn *) sqlite3_user_data (ctx))->n_decodes);
}

static void
read_func (sqlite3_context  *ctx,
           int               argc,
           sqlite3_value   **argv)
{
  sqlite3_result_int64 (ctx, ((Conn *) sqlite3_user_data (ctx))->n_read);
}

/**
 * cs_latency_rowtab_register:
 * @db: a connection to a latency pass database (or to one being written)
 * @error: %CS_PLUGIN_ERROR_FAILED when SQLite refuses
 *
 * Registers the module "cs_latency_rows" of the virtual table
 * `latency_rows` on @db, and the functions cs_latency_rows_decodes() and
 * cs_latency_rows_read(): how many chunks the connection's tables decoded
 * so far, and on how many rows their cursors stood.  Call it once per
 * connection, before reading `latency_rows` or the view `latency`, or
 * creating them (#CsPluginPassInfo.prepare).  The connection's thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_latency_rowtab_register (sqlite3  *db,
                            GError  **error)
{
  Conn *conn = g_new0 (Conn, 1);

  /* The module owns @conn, and frees it when it fails. */
  if (sqlite3_create_module_v2 (db, "cs_latency_rows", &rowtab_module, conn, g_free) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, "cs_latency_rows_decodes", 0, SQLITE_UTF8, conn,
                                  decodes_func, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, "cs_latency_rows_read", 0, SQLITE_UTF8, conn,
                                  read_func, NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot read the latency pairs: %s"), sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
