/* cs-plugin-result-rows.c: a result table's rows, read as an SQL table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A pass writes one row per result, millions on a large recording; as
 * rows of an SQLite table they cost about a tenth of the latency pass's
 * time.  Instead the table's writer (cs-plugin-result-table.c) stores
 * them in chunks of CS_PLUGIN_RESULT_ROWS_PER_CHUNK consecutive rows, one
 * blob each, in
 *
 *   NAME_chunks (chunk INTEGER PRIMARY KEY, data BLOB): chunk c holds
 *                  the rows at positions [c × CHUNK, (c + 1) × CHUNK),
 *                  every chunk but the last full
 *
 * and the virtual table NAME_rows, created as
 *
 *   CREATE VIRTUAL TABLE NAME_rows USING MODULE(NAME_chunks, N_FIXED,
 *                                               SORTED, COLUMN, ...)
 *
 * (the module registered by cs_plugin_result_register() on every
 * connection that reads the pass database) shows them as the rows they
 * were, rowid = position + 1.  A constraint on the rowid (=, >, >=, <,
 * <=) and ORDER BY rowid (either way: max(rowid) reads only the last
 * chunk) are handled here, and so are constraints on the sorted column
 * (SORTED, its index among the fixed ones, or -1: a column whose values
 * never fall from a row to the next), found by bisection; a lookup by rowid decodes one chunk, and the
 * table keeps the last four decoded.
 *
 * A chunk's blob: one byte, the number K of optional columns stored (0
 * to CS_PLUGIN_RESULT_MAX_OPTIONAL: the most a row of the chunk has);
 * four bytes, little-endian, the length L of the first part; the first
 * part, L bytes: for each row its fixed values and its count of optional
 * values, as varints of differences (cs_chunk_encode_records()); then,
 * when K > 0, the second part: the first K optional values of each row
 * the same way (0 for those a row lacks, NULL in the table).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-result-private.h"

#define CHUNK _CS_RESULT_CHUNK
#define MAX_MAIN (CS_PLUGIN_RESULT_MAX_FIXED + 1)       /* the fixed values, the count */
#define MAX_KEYS CS_PLUGIN_RESULT_MAX_OPTIONAL
#define HEADER 5
#define N_CACHED 4

/* idxNum of xBestIndex: which constraints the arguments are, in this
 * order, and the order of the scan. */
enum {
  IDX_EQ = 1 << 0, IDX_GT = 1 << 1, IDX_GE = 1 << 2, IDX_LT = 1 << 3, IDX_LE = 1 << 4,
  IDX_MASK = (1 << 5) - 1,
  IDX_DESC = 1 << 5,
  IDX_SORTED_SHIFT = 6,         /* the same five, on the sorted column */
};

/* Per connection: shared by its tables and the functions
 * MODULE_decodes() and MODULE_read(), which tests use
 * to see that a lookup decodes one chunk and reads one row, not all. */
typedef struct {
  gint64 n_decodes;             /* chunks decoded */
  gint64 n_read;                /* rows the cursors stood on */
} Conn;

typedef struct {
  gint64 chunk;                 /* -1: none */
  guint n;                      /* rows */
  guint n_keys;                 /* key columns in @keys */
  gint64 main[CHUNK * MAX_MAIN];
  gint64 keys[CHUNK * MAX_KEYS];
} Decoded;

typedef struct {
  sqlite3_vtab base;
  sqlite3 *db;
  Conn *conn;
  char *schema;
  char *chunks;                 /* the table of blobs */
  guint n_fixed;
  guint n_columns;              /* fixed and optional */
  int sorted;                   /* the fixed column whose values never fall, or -1 */
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
 * _cs_result_rows_encode:
 * @rows: (array): @n_rows rows of @n_fixed + 1 + @n_optional numbers:
 *   the fixed values, the row's count of optional values (0 to
 *   @n_optional), the optional values (those past the count are ignored)
 * @n_rows: 1 to %CS_PLUGIN_RESULT_ROWS_PER_CHUNK
 * @n_fixed: 1 to %CS_PLUGIN_RESULT_MAX_FIXED
 * @n_optional: 0 to %CS_PLUGIN_RESULT_MAX_OPTIONAL
 * @out: room for %_CS_RESULT_ROWS_MAX_BYTES
 *
 * Encodes a chunk of NAME_chunks (see above).  Any thread.
 *
 * Returns: the bytes written to @out
 */
gsize
_cs_result_rows_encode (const gint64 *rows,
                        gsize         n_rows,
                        guint         n_fixed,
                        guint         n_optional,
                        guint8       *out)
{
  guint stride = n_fixed + 1 + n_optional;
  guint n_keys = 0;
  gsize len;

  g_return_val_if_fail (n_rows >= 1 && n_rows <= CHUNK, 0);

  for (gsize r = 0; r < n_rows; r++)
    n_keys = MAX (n_keys, (guint) CLAMP (rows[r * stride + n_fixed], 0, (gint64) n_optional));
  len = cs_chunk_encode_records_strided (rows, n_rows, n_fixed + 1, stride, out + HEADER);
  out[0] = (guint8) n_keys;
  out[1] = (guint8) len;
  out[2] = (guint8) (len >> 8);
  out[3] = (guint8) (len >> 16);
  out[4] = (guint8) (len >> 24);
  if (n_keys == 0)
    return HEADER + len;
  return HEADER + len +
         cs_chunk_encode_records_strided (rows + n_fixed + 1, n_rows, n_keys, stride,
                                          out + HEADER + len);
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
        guint         n_main,
        Decoded      *d)
{
  gsize main_len;
  gssize n;

  if (len < HEADER || blob[0] > MAX_KEYS)
    return FALSE;
  main_len = blob[1] | (gsize) blob[2] << 8 | (gsize) blob[3] << 16 | (gsize) blob[4] << 24;
  if (main_len > len - HEADER)
    return FALSE;
  n = cs_chunk_decode_records (blob + HEADER, main_len, CHUNK, n_main, d->main);
  if (n <= 0)
    return FALSE;
  d->n = (guint) n;
  d->n_keys = blob[0];
  if (d->n_keys == 0)
    return main_len == len - HEADER;
  return cs_chunk_decode_records (blob + HEADER + main_len, len - HEADER - main_len, CHUNK,
                                    d->n_keys, d->keys) == n;
}

/* SELECT @what FROM the chunks @where, in the table's schema. */
static int
prepare (RowTab        *tab,
         sqlite3_stmt **s,
         const char    *what,
         const char    *where)
{
  g_autofree char *full = NULL;

  if (*s != NULL)
    return SQLITE_OK;
  full = g_strdup_printf ("SELECT %s FROM \"%s\".\"%s\" %s", what, tab->schema, tab->chunks,
                          where);
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
  if (!decode (sqlite3_column_blob (tab->get, 0), (gsize) sqlite3_column_bytes (tab->get, 0),
               tab->n_fixed + 1, d))
    {
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("Chunk %" PRId64 " of the result table %s is damaged"),
                                 chunk, tab->chunks);

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

/**
 * _cs_result_is_identifier:
 * @s: (nullable): a name
 *
 * Whether @s is an SQL identifier of ours (letters, digits and '_', not
 * first a digit), safe to write into SQL text unquoted.
 *
 * Returns: %TRUE when it is
 */
gboolean
_cs_result_is_identifier (const char *s)
{
  if (s == NULL || *s == '\0' || g_ascii_isdigit (*s))
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

/* argv: the module, the schema, the table, then the arguments: the
 * table of chunks, the number of fixed columns, the sorted column's
 * index (-1: none), the columns' names. */
static int
rowtab_connect (sqlite3             *db,
                void                *aux,
                int                  argc,
                const char * const  *argv,
                sqlite3_vtab       **out,
                char               **error)
{
  g_autoptr(GString) schema = g_string_new ("CREATE TABLE x(");
  RowTab *tab;
  guint64 n_fixed = 0;
  gint64 sorted = -1;
  int n_columns = argc - 6;
  int rc;

  if (argc < 7 || !_cs_result_is_identifier (argv[3]) ||
      !g_ascii_string_to_unsigned (argv[4], 10, 1, CS_PLUGIN_RESULT_MAX_FIXED, &n_fixed, NULL) ||
      !g_ascii_string_to_signed (argv[5], 10, -1, (gint64) n_fixed - 1, &sorted, NULL) ||
      n_columns < (int) n_fixed || n_columns > (int) n_fixed + MAX_KEYS)
    {
      *error = sqlite3_mprintf ("%s: expected (CHUNKS_TABLE, N_FIXED, SORTED, COLUMN, ...)",
                                argv[0]);
      return SQLITE_ERROR;
    }
  for (int i = 0; i < n_columns; i++)
    {
      if (!_cs_result_is_identifier (argv[6 + i]))
        {
          *error = sqlite3_mprintf ("%s: %s is not a column name", argv[0], argv[6 + i]);
          return SQLITE_ERROR;
        }
      g_string_append_printf (schema, "%s%s INTEGER", i > 0 ? ", " : "", argv[6 + i]);
    }
  g_string_append_c (schema, ')');
  if ((rc = sqlite3_declare_vtab (db, schema->str)) != SQLITE_OK)
    return rc;
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);
  tab = g_new0 (RowTab, 1);
  tab->db = db;
  tab->conn = aux;
  tab->schema = g_strdup (argv[1]);
  tab->chunks = g_strdup (argv[3]);
  tab->n_fixed = (guint) n_fixed;
  tab->n_columns = (guint) n_columns;
  tab->sorted = (int) sorted;
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
  g_free (tab->chunks);
  g_free (tab);
  return SQLITE_OK;
}

/* Picks the usable constraints on column @column (-1: the rowid), at most
 * one lower and one upper bound (SQLite checks every constraint again:
 * omit stays 0, so any of them will do), sets their flags, shifted by
 * @shift, in idxNum and their arguments after *@argv_index. */
static void
pick_constraints (sqlite3_index_info *info,
                  int                 column,
                  guint               shift,
                  int                *argv_index)
{
  static const struct { guchar op; int flag; } ops[] = {
    { SQLITE_INDEX_CONSTRAINT_EQ, IDX_EQ }, { SQLITE_INDEX_CONSTRAINT_GT, IDX_GT },
    { SQLITE_INDEX_CONSTRAINT_GE, IDX_GE }, { SQLITE_INDEX_CONSTRAINT_LT, IDX_LT },
    { SQLITE_INDEX_CONSTRAINT_LE, IDX_LE },
  };
  int which[G_N_ELEMENTS (ops)];

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      which[k] = -1;
      for (int i = 0; i < info->nConstraint; i++)
        if (info->aConstraint[i].usable && info->aConstraint[i].iColumn == column &&
            info->aConstraint[i].op == ops[k].op)
          which[k] = i;
    }
  if (which[1] >= 0 && which[2] >= 0)
    which[2] = -1;
  if (which[3] >= 0 && which[4] >= 0)
    which[4] = -1;
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    if (which[k] >= 0)
      {
        info->aConstraintUsage[which[k]].argvIndex = ++*argv_index;
        info->idxNum |= ops[k].flag << shift;
      }
}

static int
rowtab_best_index (sqlite3_vtab       *vtab,
                   sqlite3_index_info *info)
{
  RowTab *tab = (RowTab *) vtab;
  int argv_index = 0;
  int bounds;
  gboolean ordered = info->nOrderBy > 0;

  info->idxNum = 0;
  pick_constraints (info, -1, 0, &argv_index);
  if (tab->sorted >= 0)
    pick_constraints (info, tab->sorted, IDX_SORTED_SHIFT, &argv_index);
  /* The sorted column's bounds are rowid bounds once bisected. */
  bounds = (info->idxNum | info->idxNum >> IDX_SORTED_SHIFT) & IDX_MASK;
  if (info->idxNum & IDX_EQ)
    {
      info->estimatedCost = 1;
      info->estimatedRows = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    }
  else if ((bounds & (IDX_EQ | IDX_GT | IDX_GE)) && (bounds & (IDX_EQ | IDX_LT | IDX_LE)))
    {
      info->estimatedCost = 1e3;
      info->estimatedRows = 1000;
    }
  else if (bounds != 0)
    {
      info->estimatedCost = 1e5;
      info->estimatedRows = 100000;
    }
  else
    {
      info->estimatedCost = 1e7;
      info->estimatedRows = 1000000;
    }
  /* Rows come by rowid, so also by the sorted column: an ORDER BY of
   * those, all one way, is the scan's order. */
  for (int i = 0; i < info->nOrderBy; i++)
    if ((info->aOrderBy[i].iColumn != -1 &&
         (tab->sorted < 0 || info->aOrderBy[i].iColumn != tab->sorted)) ||
        info->aOrderBy[i].desc != info->aOrderBy[0].desc)
      ordered = FALSE;
  if (ordered)
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

/* The first position whose sorted value is above @x (@strict) or at or
 * above it, in [0, @n], by bisection: about log2(n / CHUNK) + 1 chunks
 * decoded. */
static int
sorted_bound (RowTab *tab,
              gint64  n,
              gint64  x,
              gboolean strict,
              gint64 *position)
{
  guint n_main = tab->n_fixed + 1;
  gint64 lo = 0, hi = n;

  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2, v;
      const Decoded *d = NULL;
      int rc = fetch (tab, mid / CHUNK, &d);

      if (rc != SQLITE_OK)
        return rc;
      if (d == NULL || (guint) (mid % CHUNK) >= d->n)
        return SQLITE_CORRUPT;
      v = d->main[(mid % CHUNK) * n_main + (guint) tab->sorted];
      if (strict ? v <= x : v < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  *position = lo;
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
  RowTab *tab = tab_of (c);
  gint64 lo = 1, hi = G_MAXINT64;       /* rowids, inclusive */
  gint64 v_lo = G_MININT64, v_hi = G_MAXINT64;  /* sorted values, inclusive */
  gint64 n = -1;
  int arg = 0;
  int rc;

  for (guint k = 0; k < G_N_ELEMENTS (flags); k++)
    if ((idx_num & flags[k]) && arg < argc)
      narrow (argv[arg++], flags[k], &lo, &hi);
  for (guint k = 0; k < G_N_ELEMENTS (flags); k++)
    if ((idx_num & (flags[k] << IDX_SORTED_SHIFT)) && arg < argc)
      narrow (argv[arg++], flags[k], &v_lo, &v_hi);
  lo = MAX (lo, 1);
  c->d = NULL;
  c->eof = TRUE;
  if (v_lo > v_hi)
    return SQLITE_OK;
  if ((v_lo != G_MININT64 || v_hi != G_MAXINT64 || (idx_num & IDX_DESC)) &&
      (rc = count_rows (tab, &n)) != SQLITE_OK)
    return rc;
  if (v_lo != G_MININT64)
    {
      gint64 first;

      if ((rc = sorted_bound (tab, n, v_lo, FALSE, &first)) != SQLITE_OK)
        return rc;
      lo = MAX (lo, first + 1);
    }
  if (v_hi != G_MAXINT64)
    {
      gint64 past;

      if ((rc = sorted_bound (tab, n, v_hi, TRUE, &past)) != SQLITE_OK)
        return rc;
      hi = MIN (hi, past);
    }
  if (lo > hi)
    return SQLITE_OK;
  if (idx_num & IDX_DESC)
    {
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
  guint n_main = tab_of (c)->n_fixed + 1;

  if ((guint) column < n_main - 1)
    sqlite3_result_int64 (ctx, d->main[r * n_main + (guint) column]);
  else
    {
      guint key = (guint) column - (n_main - 1);

      if (key < MIN (d->n_keys, (guint) d->main[r * n_main + n_main - 1]))
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
 * cs_plugin_result_register:
 * @db: a connection to a pass's database (or to one being written)
 * @module: the module's name, an SQL identifier of the plugin's own
 *   (several plugins' prepare functions may run on one connection)
 * @error: %CS_PLUGIN_ERROR_FAILED when SQLite refuses (the name is taken)
 *
 * Registers the virtual-table module @module, which reads the rows of
 * the result tables created with it (cs_plugin_result_table_new():
 * NAME_rows), and two functions for tests: @module_decodes() and
 * @module_read(), how many chunks the connection's tables of @module
 * decoded so far and on how many rows their cursors stood.  Call it once
 * per connection, from the pass's #CsPluginPassInfo.prepare, before
 * creating or reading the tables.  The connection's thread.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
cs_plugin_result_register (sqlite3     *db,
                           const char  *module,
                           GError     **error)
{
  g_autofree char *decodes = g_strdup_printf ("%s_decodes", module);
  g_autofree char *read = g_strdup_printf ("%s_read", module);
  Conn *conn = g_new0 (Conn, 1);

  g_return_val_if_fail (_cs_result_is_identifier (module), FALSE);

  /* The module owns @conn, and frees it when it fails. */
  if (sqlite3_create_module_v2 (db, module, &rowtab_module, conn, g_free) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, decodes, 0, SQLITE_UTF8, conn,
                                  decodes_func, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_create_function_v2 (db, read, 0, SQLITE_UTF8, conn,
                                  read_func, NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   _("Cannot register the result tables %s: %s"), module, sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
