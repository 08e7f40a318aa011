/* cs-sql-count-rewrite.c: count(*) over an event table as a sum of the
 * rows' weights, so that counted rows come one per group.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SQLite 3.40 steps an aggregate through every row a virtual table hands
 * out: `SELECT comm, count(*) FROM events GROUP BY comm` over counted rows
 * (cs-sql-event-counts.c) still costs SQLite one step per event, 75
 * million of them on a large recording.  The event tables have a hidden
 * column, _cs_n, the number of events a row stands for: 1 for a scanned
 * row, a group's count when the plan hands out one counted row per group
 * (which it does only when the query reads _cs_n and no column the counts
 * cannot tell apart).  So sum(_cs_n) is count(*) whatever plan SQLite
 * picks, and this file rewrites queries of one narrow shape to read it:
 *
 *   SELECT item, ... FROM table [WHERE ...] [GROUP BY column, ...]
 *     [ORDER BY term [ASC|DESC], ...] [LIMIT n [OFFSET n | , n]] [;]
 *
 * where the table is an event table, every item is count(*) or a column
 * of the GROUP BY (each with an optional AS name), an ORDER BY term is a
 * column, a number or count(*), and the WHERE clause calls no function
 * and reads no rowid (collapsed rows have other rowids, and a function
 * such as random() would be called once per group instead of per row).
 * Anything else (joins, DISTINCT, HAVING, subqueries, comments, other
 * aggregates) is left as written.  count(*) becomes
 * `ifnull(sum(_cs_n), 0)`, named as SQLite named the original.
 *
 * The table may be written as events(BEGIN, END), the span of time the
 * rows are asked from (cs-sql-event-plan.c).  Where it is not, the WHERE
 * clause's bounds on ts become that span: each term of its top-level AND
 * that compares ts with an integer (ts >= N, N < ts, ts = N, ts BETWEEN N
 * AND M...) leaves the WHERE clause for the table's arguments, which hold
 * the same rows.  A WHERE that reads ts elsewhere, or an OR at its top,
 * keeps its terms: SQLite then reads ts and steps through every row.  A
 * span is what counts per group can be taken from (a CPU's events of
 * each type over one second), where ts in the WHERE clause would have
 * made SQLite read each row's ts.
 *
 * An item may also be a time bucket, ts / W or (ts - O) / W (W and O
 * integers, W > 0, then any * N or / N), grouped by (its alias, its
 * position or the same bucket in the GROUP BY).  When ts is read nowhere
 * else (the WHERE clause's bounds moved, no ts in GROUP BY or ORDER BY),
 * W and O join the table's arguments, events(BEGIN, END, W, O): the
 * table then hands out a weighted row per bucket and group, whose ts
 * falls in the bucket (cs-sql-event-buckets.c), and SQLite adds up a few
 * thousand weights where it would have read every event's ts.
 */
#include "config.h"

#include <string.h>

#include "cs-sql-private.h"

typedef enum {
  TOK_WORD,                     /* a bare identifier or keyword */
  TOK_ID,                       /* a quoted identifier */
  TOK_STRING,
  TOK_NUMBER,
  TOK_PUNCT,
} TokKind;

typedef struct {
  TokKind kind;
  const char *s;
  gsize len;
} Tok;

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

/* SQLite's tokens, enough to find the clauses; FALSE on comments and
 * unterminated quotes (the query is then left alone). */
static gboolean
tokenize (const char *sql,
          GArray     *toks)
{
  const char *p = sql;

  while (*p != '\0')
    {
      Tok t = { TOK_PUNCT, p, 1 };

      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }
      if ((p[0] == '-' && p[1] == '-') || (p[0] == '/' && p[1] == '*'))
        return FALSE;
      if (*p == '"' || *p == '`' || *p == '[' || *p == '\'')
        {
          char close = *p == '[' ? ']' : *p;
          const char *q = p + 1;

          for (;; q++)
            {
              if (*q == '\0')
                return FALSE;
              if (*q == close && close != ']' && q[1] == close)
                q++;            /* a doubled quote */
              else if (*q == close)
                break;
            }
          t.kind = *p == '\'' ? TOK_STRING : TOK_ID;
          t.len = (gsize) (q + 1 - p);
        }
      else if (g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1])))
        {
          const char *q = p;

          while (is_word_char (*q) || *q == '.')
            q++;
          t.kind = TOK_NUMBER;
          t.len = (gsize) (q - p);
        }
      else if (is_word_char (*p))
        {
          const char *q = p;

          while (is_word_char (*q))
            q++;
          t.kind = TOK_WORD;
          t.len = (gsize) (q - p);
        }
      else if (strchr ("<>!=|", p[0]) != NULL && strchr ("<>=|", p[1]) != NULL && p[1] != '\0')
        t.len = 2;
      g_array_append_val (toks, t);
      p += t.len;
    }
  return TRUE;
}

typedef struct {
  GArray *toks;
  guint i;
} Parser;

static const Tok *
peek (Parser *ps,
      guint   ahead)
{
  return ps->i + ahead < ps->toks->len ? &g_array_index (ps->toks, Tok, ps->i + ahead) : NULL;
}

static gboolean
tok_is (const Tok  *t,
        const char *text)
{
  return t != NULL && t->len == strlen (text) &&
         (t->kind == TOK_WORD || t->kind == TOK_PUNCT) && g_ascii_strncasecmp (t->s, text, t->len) == 0;
}

static gboolean
accept (Parser     *ps,
        const char *text)
{
  if (!tok_is (peek (ps, 0), text))
    return FALSE;
  ps->i++;
  return TRUE;
}

/* count(*) at the parser: its tokens are consumed. */
static gboolean
accept_count_star (Parser *ps)
{
  if (!tok_is (peek (ps, 0), "count") || !tok_is (peek (ps, 1), "(") ||
      !tok_is (peek (ps, 2), "*") || !tok_is (peek (ps, 3), ")"))
    return FALSE;
  ps->i += 4;
  return TRUE;
}

/* Words that end a select item or a column list, or name a rowid. */
static gboolean
is_reserved (const Tok *t)
{
  static const char * const words[] = {
    "select", "from", "where", "group", "by", "having", "order", "limit", "offset", "as",
    "distinct", "all", "asc", "desc", "collate", "window", "union", "except", "intersect",
    "rowid", "oid", "_rowid_", "null", "not", "and", "or", "join", "on", "using",
  };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (tok_is (t, words[i]))
      return TRUE;
  return FALSE;
}

/* A column name: its name without quotes, or NULL. */
static char *
accept_column (Parser *ps)
{
  const Tok *t = peek (ps, 0);

  if (t == NULL || (t->kind != TOK_WORD && t->kind != TOK_ID) ||
      (t->kind == TOK_WORD && is_reserved (t)) || tok_is (peek (ps, 1), "(") ||
      tok_is (peek (ps, 1), "."))
    return NULL;
  ps->i++;
  if (t->kind == TOK_WORD)
    return g_ascii_strdown (t->s, (gssize) t->len);
  /* "a""b" -> a"b; SQLite compares names without regard to ASCII case. */
  {
    GString *s = g_string_new (NULL);

    for (gsize k = 1; k + 1 < t->len; k++)
      {
        g_string_append_c (s, g_ascii_tolower (t->s[k]));
        if (t->s[k] == t->s[0] && t->s[0] != '[')
          k++;
      }
    return g_string_free (s, FALSE);
  }
}

typedef struct {
  gsize begin, end;             /* of count(*) in the text */
  gboolean named;               /* followed by AS name */
} CountSpan;

/* [AS name]: 1 when there (@name, nullable, receives it), 0 when not, -1
 * for AS without a name. */
static int
accept_alias (Parser  *ps,
              char   **name)
{
  char *alias;

  if (!accept (ps, "as"))
    return 0;
  alias = accept_column (ps);
  if (name != NULL)
    *name = alias;
  else
    g_free (alias);
  return alias != NULL ? 1 : -1;
}

/* A decimal integer token, with the '-' before it when there is one;
 * the parser moves past it. */
static gboolean
accept_integer (Parser *ps,
                gint64 *value)
{
  gboolean minus = tok_is (peek (ps, 0), "-");
  const Tok *t = peek (ps, minus);
  g_autofree char *text = NULL;
  guint64 v;

  if (t == NULL || t->kind != TOK_NUMBER)
    return FALSE;
  for (gsize k = 0; k < t->len; k++)
    if (!g_ascii_isdigit (t->s[k]))
      return FALSE;
  text = g_strndup (t->s, t->len);
  if (!g_ascii_string_to_unsigned (text, 10, 0, minus ? (guint64) G_MAXINT64 + 1 : G_MAXINT64, &v, NULL))
    return FALSE;
  *value = minus ? (gint64) (0 - v) : (gint64) v;
  ps->i += 1 + minus;
  return TRUE;
}

static gboolean
accept_ts (Parser *ps)
{
  const Tok *t = peek (ps, 0);

  if (t == NULL || !(tok_is (t, "ts") || (t->kind == TOK_ID && t->len == 4 &&
                                          g_ascii_strncasecmp (t->s + 1, "ts", 2) == 0 &&
                                          t->s[0] != '\'' && t->s[3] == (t->s[0] == '[' ? ']' : t->s[0]))))
    return FALSE;
  ps->i++;
  return TRUE;
}

/* A time bucket: ts / W or (ts - O) / W, W > 0 and O integers, then
 * any number of * N or / N (N an integer): an expression of the bucket
 * (ts - O) / W alone, whatever ts in the bucket it is given.  With
 * @buckets given (width > 0), only one of the same width and origin. */
static gboolean
accept_bucket (Parser       *ps,
               CsSqlBuckets *buckets)
{
  guint start = ps->i;
  gboolean paren = accept (ps, "(");
  CsSqlBuckets b = { 0, 0 };
  gint64 n;

  if (!accept_ts (ps) || (paren && (!accept (ps, "-") || !accept_integer (ps, &b.origin) ||
                                    !accept (ps, ")"))) ||
      !accept (ps, "/") || !accept_integer (ps, &b.width) || b.width <= 0 ||
      (buckets->width > 0 && (buckets->width != b.width || buckets->origin != b.origin)))
    {
      ps->i = start;
      return FALSE;
    }
  while ((tok_is (peek (ps, 0), "*") || tok_is (peek (ps, 0), "/")) &&
         peek (ps, 1) != NULL && peek (ps, 1)->kind == TOK_NUMBER)
    {
      guint at = ps->i++;

      if (!accept_integer (ps, &n))
        {
          ps->i = at;
          break;
        }
    }
  *buckets = b;
  return TRUE;
}

/* A span of ts, [begin, end), each side open until bounded. */
typedef struct {
  gint64 begin, end;
  gboolean has_begin, has_end;
} Span;

enum { OP_GE, OP_GT, OP_LE, OP_LT, OP_EQ };

static int
accept_op (Parser *ps)
{
  /* In OP_ order; "==" is SQLite's "=". */
  static const char * const ops[] = { ">=", ">", "<=", "<", "=", "==" };

  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    if (accept (ps, ops[k]))
      return MIN ((int) k, OP_EQ);
  return -1;
}

/* Narrows @span by ts @op @n. */
static void
narrow (Span   *span,
        int     op,
        gint64  n)
{
  gboolean lower = op == OP_GE || op == OP_GT || op == OP_EQ;
  gboolean upper = op == OP_LE || op == OP_LT || op == OP_EQ;

  if (op == OP_GT && n == G_MAXINT64)
    {
      /* No ts is above it: an empty span. */
      span->begin = span->end = 0;
      span->has_begin = span->has_end = TRUE;
      return;
    }
  if (lower)
    {
      gint64 b = op == OP_GT ? n + 1 : n;

      span->begin = span->has_begin ? MAX (span->begin, b) : b;
      span->has_begin = TRUE;
    }
  /* ts <= the largest ts bounds nothing. */
  if (upper && !(op != OP_LT && n == G_MAXINT64))
    {
      gint64 e = op == OP_LT ? n : n + 1;

      span->end = span->has_end ? MIN (span->end, e) : e;
      span->has_end = TRUE;
    }
}

/* Whether the tokens [@from, @to) are one bound on ts and nothing else
 * (ts op N, N op ts, ts BETWEEN N AND M, N and M integers); then @span
 * is narrowed by it. */
static gboolean
is_ts_bound (GArray *toks,
             guint   from,
             guint   to,
             Span   *span)
{
  static const int mirror[] = { OP_LE, OP_LT, OP_GE, OP_GT, OP_EQ };
  Parser ps = { toks, from };
  gint64 n, m;
  int op;

  if (accept_ts (&ps))
    {
      if (accept (&ps, "between"))
        {
          if (!accept_integer (&ps, &n) || !accept (&ps, "and") || !accept_integer (&ps, &m) ||
              ps.i != to)
            return FALSE;
          narrow (span, OP_GE, n);
          narrow (span, OP_LE, m);
          return TRUE;
        }
      if ((op = accept_op (&ps)) < 0 || !accept_integer (&ps, &n))
        return FALSE;
    }
  else
    {
      if (!accept_integer (&ps, &n) || (op = accept_op (&ps)) < 0 || !accept_ts (&ps))
        return FALSE;
      op = mirror[op];
    }
  if (ps.i != to)
    return FALSE;
  narrow (span, op, n);
  return TRUE;
}

typedef struct {
  gsize begin, end;             /* of the text replaced */
  char *text;                   /* what replaces it */
} Edit;

static void
edit_clear (gpointer data)
{
  g_free (((Edit *) data)->text);
}

static gint
edit_cmp (gconstpointer a,
          gconstpointer b)
{
  const Edit *x = a, *y = b;

  /* An insertion (the table's arguments) before a replacement that
   * starts at the same place (the WHERE it came from). */
  if (x->begin != y->begin)
    return (x->begin > y->begin) - (x->begin < y->begin);
  return (x->end > y->end) - (x->end < y->end);
}

/* Whether a token of [@from, @to) is ts. */
static gboolean
reads_ts (GArray *toks,
          guint   from,
          guint   to)
{
  for (guint i = from; i < to; i++)
    {
      Parser ps = { toks, i };

      if (accept_ts (&ps))
        return TRUE;
    }
  return FALSE;
}

/* The WHERE clause's bounds on ts, tokens [@from, @to) after WHERE (the
 * token @where), narrow @span: the edit that takes them out of the
 * clause goes to @edits.  Returns whether any were; @kept_reads_ts
 * receives whether the clause left reads ts. */
static gboolean
move_ts_bounds (const char *sql,
                GArray     *toks,
                guint       where,
                guint       from,
                guint       to,
                Span       *span,
                gboolean   *kept_reads_ts,
                GArray     *edits)
{
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) kept = g_string_new (NULL);
  gboolean between = FALSE, moved = FALSE;
  int depth = 0;
  Edit e;

  *kept_reads_ts = reads_ts (toks, from, to);
  /* The terms of the top-level AND, as [begin, end) pairs in @cuts; an
   * OR there, or a CASE anywhere (its WHEN a AND b is no term of the
   * WHERE), leaves the clause as it is. */
  g_array_append_val (cuts, from);
  for (guint i = from; i < to; i++)
    {
      const Tok *t = &g_array_index (toks, Tok, i);
      guint next = i + 1;

      if (tok_is (t, "case") || (depth == 0 && tok_is (t, "or")))
        return FALSE;
      depth += tok_is (t, "(") - tok_is (t, ")");
      if (depth != 0 || !(tok_is (t, "between") || tok_is (t, "and")))
        continue;
      if (tok_is (t, "between"))
        between = TRUE;
      else if (between)
        between = FALSE;        /* BETWEEN's own AND */
      else
        {
          g_array_append_val (cuts, i);
          g_array_append_val (cuts, next);
        }
    }
  g_array_append_val (cuts, to);
  for (guint c = 0; c + 1 < cuts->len; c += 2)
    if (g_array_index (cuts, guint, c + 1) <= g_array_index (cuts, guint, c))
      return FALSE;             /* an empty term: not SQL this understands */
  *kept_reads_ts = FALSE;
  for (guint c = 0; c + 1 < cuts->len; c += 2)
    {
      guint a = g_array_index (cuts, guint, c), b = g_array_index (cuts, guint, c + 1);
      const Tok *first, *last;

      if (is_ts_bound (toks, a, b, span))
        {
          moved = TRUE;
          continue;
        }
      *kept_reads_ts = *kept_reads_ts || reads_ts (toks, a, b);
      first = &g_array_index (toks, Tok, a);
      last = &g_array_index (toks, Tok, b - 1);
      g_string_append_printf (kept, "%s%.*s", kept->len > 0 ? " AND " : "WHERE ",
                              (int) (last->s + last->len - first->s), first->s);
    }
  if (!moved)
    return FALSE;
  {
    const Tok *w = &g_array_index (toks, Tok, where);
    const Tok *before = &g_array_index (toks, Tok, where - 1);
    const Tok *last = &g_array_index (toks, Tok, to - 1);

    /* No term left: the WHERE goes with the space before it. */
    e.begin = kept->len > 0 ? (gsize) (w->s - sql) : (gsize) (before->s + before->len - sql);
    e.end = (gsize) (last->s + last->len - sql);
    e.text = g_strdup (kept->str);
    g_array_append_val (edits, e);
  }
  return TRUE;
}

/* The table's arguments for @span (and @buckets, when their width is
 * set): "(BEGIN, END[, WIDTH, ORIGIN])", NULL for an open side. */
static char *
table_args (const Span         *span,
            const CsSqlBuckets *buckets)
{
  g_autofree char *b = span->has_begin ? g_strdup_printf ("%" G_GINT64_FORMAT, span->begin)
                                       : g_strdup ("NULL");
  g_autofree char *f = span->has_end ? g_strdup_printf ("%" G_GINT64_FORMAT, span->end)
                                     : g_strdup ("NULL");

  if (buckets->width > 0)
    return g_strdup_printf ("(%s, %s, %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", b, f,
                            buckets->width, buckets->origin);
  return g_strdup_printf ("(%s, %s)", b, f);
}

/* Names a time bucket's alias must not take: the columns counted rows
 * tell apart, which SQLite's GROUP BY would take for the table's. */
static gboolean
is_counted_column (const char *name)
{
  static const char * const names[] = { "ts", "cpu", "pid", "comm", "system", "name" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]))
      return TRUE;
  return FALSE;
}

/**
 * _cs_sql_rewrite_counts:
 * @sql: a query
 * @is_event_table: whether a table name (unquoted, as written) names an
 *   event table of the session
 * @user_data: for @is_event_table
 *
 * Returns: (transfer full) (nullable): @sql with count(*) read from the
 *   rows' weights (see above), or %NULL when @sql is not of that shape
 */
char *
_cs_sql_rewrite_counts (const char *sql,
                        gboolean  (*is_event_table) (const char *name, gpointer user_data),
                        gpointer    user_data)
{
  g_autoptr(GArray) toks = g_array_new (FALSE, FALSE, sizeof (Tok));
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (CountSpan));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  /* The items in order: NULL for count(*), the column's name, or "" for
   * a time bucket; and the buckets' aliases. */
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GPtrArray) bucket_names = g_ptr_array_new_with_free_func (g_free);
  CsSqlBuckets buckets = { 0, 0 };
  gboolean bucket_grouped = FALSE, ts_elsewhere = FALSE;
  const Tok *table;
  gboolean has_args = FALSE;
  guint n_args = 0, args_close = 0;
  guint where = 0, where_from = 0, where_to = 0;
  Parser ps = { NULL, 0 };
  GString *out;
  gsize pos = 0;

  g_array_set_clear_func (edits, edit_clear);

  if (!tokenize (sql, toks))
    return NULL;
  ps.toks = toks;
  if (!accept (&ps, "select"))
    return NULL;

  /* The items: count(*), a column or a time bucket, each [AS name]. */
  do
    {
      const Tok *t = peek (&ps, 0);
      char *column, *name = NULL;
      int alias;

      if (t == NULL)
        return NULL;
      if (accept_count_star (&ps))
        {
          const Tok *last = &g_array_index (toks, Tok, ps.i - 1);
          CountSpan c = { (gsize) (t->s - sql), (gsize) (last->s + last->len - sql), FALSE };

          alias = accept_alias (&ps, NULL);
          c.named = alias > 0;
          g_array_append_val (counts, c);
          g_ptr_array_add (order, NULL);
        }
      else if (accept_bucket (&ps, &buckets))
        {
          alias = accept_alias (&ps, &name);
          if (name != NULL && is_counted_column (name))
            {
              g_free (name);
              return NULL;
            }
          g_ptr_array_add (bucket_names, name);
          g_ptr_array_add (order, (gpointer) "");
        }
      else if ((column = accept_column (&ps)) != NULL)
        {
          g_ptr_array_add (items, column);
          g_ptr_array_add (order, column);
          alias = accept_alias (&ps, NULL);
        }
      else
        return NULL;
      if (alias < 0)
        return NULL;
    }
  while (accept (&ps, ","));
  if (counts->len == 0 || !accept (&ps, "from"))
    return NULL;
  table = peek (&ps, 0);
  if (table == NULL || (table->kind != TOK_WORD && table->kind != TOK_ID) ||
      (table->kind == TOK_WORD && is_reserved (table)) || tok_is (peek (&ps, 1), "."))
    return NULL;
  ps.i++;
  {
    /* As written, for the session's names (which are case-sensitive). */
    g_autofree char *written = table->kind == TOK_WORD ? g_strndup (table->s, table->len)
                                                       : g_strndup (table->s + 1, table->len - 2);

    if (table->kind == TOK_ID && memchr (written, table->s[0], strlen (written)) != NULL)
      return NULL;
    if (!is_event_table (written, user_data))
      return NULL;
  }
  /* TABLE(BEGIN, END): evaluated once, whatever they call. */
  if (accept (&ps, "("))
    {
      int depth = 1;

      n_args = !tok_is (peek (&ps, 0), ")");
      for (const Tok *t; depth > 0; ps.i++)
        {
          if ((t = peek (&ps, 0)) == NULL)
            return NULL;
          depth += tok_is (t, "(") - tok_is (t, ")");
          n_args += depth == 1 && tok_is (t, ",");
        }
      args_close = ps.i - 1;
      has_args = TRUE;
    }

  if (accept (&ps, "where"))
    {
      int depth = 0;

      where = ps.i - 1;
      where_from = ps.i;

      for (const Tok *t; (t = peek (&ps, 0)) != NULL; ps.i++)
        {
          if (depth == 0 && (tok_is (t, "group") || tok_is (t, "order") || tok_is (t, "limit") ||
                             tok_is (t, ";") || tok_is (t, ")")))
            break;
          /* No function calls (IN (...) is a list), subqueries or rowids. */
          if (t->kind == TOK_WORD && !tok_is (t, "in") && tok_is (peek (&ps, 1), "("))
            return NULL;
          if (tok_is (t, "select") || tok_is (t, "rowid") || tok_is (t, "oid") ||
              tok_is (t, "_rowid_") || tok_is (t, "count"))
            return NULL;
          depth += tok_is (t, "(") - tok_is (t, ")");
        }
      if (depth != 0 || ps.i == where_from)
        return NULL;
      where_to = ps.i;
    }
  if (accept (&ps, "group"))
    {
      if (!accept (&ps, "by"))
        return NULL;
      do
        {
          const Tok *t = peek (&ps, 0);
          gint64 k;
          char *column;

          /* A bucket, the position of an item, or a column (or a bucket's
           * alias). */
          if (accept_bucket (&ps, &buckets))
            bucket_grouped = TRUE;
          else if (t != NULL && t->kind == TOK_NUMBER && accept_integer (&ps, &k))
            {
              const char *item = k >= 1 && k <= order->len ? order->pdata[k - 1] : NULL;

              if (item == NULL)
                return NULL;    /* count(*), or no item: SQLite says so */
              if (item[0] == '\0')
                bucket_grouped = TRUE;
              else
                g_ptr_array_add (groups, g_strdup (item));
            }
          else if ((column = accept_column (&ps)) != NULL)
            {
              for (guint i = 0; i < bucket_names->len; i++)
                bucket_grouped |= g_strcmp0 (bucket_names->pdata[i], column) == 0;
              g_ptr_array_add (groups, column);
            }
          else
            return NULL;
        }
      while (accept (&ps, ","));
    }
  for (guint i = 0; i < groups->len; i++)
    ts_elsewhere |= g_str_equal (groups->pdata[i], "ts");
  /* Every bucket must be the group's: otherwise SQLite picks a row for
   * it, as for a plain item. */
  if (bucket_names->len > 0 && !bucket_grouped)
    return NULL;
  /* Every plain item must be a group's column: otherwise SQLite picks a
   * row for it, and collapsed rows would not be those rows. */
  for (guint i = 0; i < items->len; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < groups->len && !found; j++)
        found = g_str_equal (items->pdata[i], groups->pdata[j]);
      if (!found)
        return NULL;
    }
  if (accept (&ps, "order"))
    {
      if (!accept (&ps, "by"))
        return NULL;
      do
        {
          const Tok *t = peek (&ps, 0);
          g_autofree char *column = NULL;

          if (t != NULL && t->kind == TOK_NUMBER)
            ps.i++;
          else if (buckets.width > 0 && accept_bucket (&ps, &buckets))
            ;
          else if (accept_count_star (&ps))
            {
              const Tok *last = &g_array_index (toks, Tok, ps.i - 1);
              CountSpan c = { (gsize) (t->s - sql), (gsize) (last->s + last->len - sql), TRUE };

              g_array_append_val (counts, c);
            }
          else if ((column = accept_column (&ps)) == NULL)
            return NULL;
          ts_elsewhere |= g_strcmp0 (column, "ts") == 0;
          if (!accept (&ps, "asc"))
            accept (&ps, "desc");
        }
      while (accept (&ps, ","));
    }
  if (accept (&ps, "limit"))
    {
      const Tok *t = peek (&ps, 0);

      if (t == NULL || t->kind != TOK_NUMBER)
        return NULL;
      ps.i++;
      if (accept (&ps, "offset") || accept (&ps, ","))
        {
          t = peek (&ps, 0);
          if (t == NULL || t->kind != TOK_NUMBER)
            return NULL;
          ps.i++;
        }
    }
  accept (&ps, ";");
  if (ps.i != toks->len)
    return NULL;

  for (guint i = 0; i < counts->len; i++)
    {
      const CountSpan *c = &g_array_index (counts, CountSpan, i);
      Edit e = { c->begin, c->end, NULL };

      e.text = g_strdup ("ifnull(sum(_cs_n), 0)");
      if (!c->named)
        {
          /* SQLite names an unnamed result column after its text. */
          g_autofree char *text = g_strndup (sql + c->begin, c->end - c->begin);
          g_autofree char *quoted = _cs_sql_quote_identifier (text);
          char *named = g_strdup_printf ("%s AS %s", e.text, quoted);

          g_free (e.text);
          e.text = named;
        }
      g_array_append_val (edits, e);
    }
  {
    Span span = { 0, 0, FALSE, FALSE };
    gboolean moved = FALSE, where_reads_ts = FALSE;
    Edit e = { (gsize) (table->s + table->len - sql), (gsize) (table->s + table->len - sql), NULL };

    if (where_to > where_from && !has_args)
      moved = move_ts_bounds (sql, toks, where, where_from, where_to, &span, &where_reads_ts, edits);
    else if (where_to > where_from)
      where_reads_ts = reads_ts (toks, where_from, where_to);
    /* Buckets only where ts is read by them alone, and the table's
     * arguments can take theirs (as written, BEGIN and END). */
    if (where_reads_ts || ts_elsewhere || (has_args && n_args != 2))
      buckets.width = 0;
    if (buckets.width > 0 && has_args)
      {
        e.begin = e.end = (gsize) (g_array_index (toks, Tok, args_close).s - sql);
        e.text = g_strdup_printf (", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT, buckets.width,
                                  buckets.origin);
      }
    else if (buckets.width > 0 || moved)
      e.text = table_args (&span, &buckets);
    if (e.text != NULL)
      g_array_append_val (edits, e);
  }
  g_array_sort (edits, edit_cmp);

  out = g_string_new (NULL);
  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *e = &g_array_index (edits, Edit, i);

      g_string_append_len (out, sql + pos, (gssize) (e->begin - pos));
      g_string_append (out, e->text);
      pos = e->end;
    }
  g_string_append (out, sql + pos);
  return g_string_free (out, FALSE);
}
