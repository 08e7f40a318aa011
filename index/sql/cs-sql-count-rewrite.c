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

/* [AS name]: 1 when there, 0 when not, -1 for AS without a name. */
static int
accept_alias (Parser *ps)
{
  g_autofree char *name = NULL;

  if (!accept (ps, "as"))
    return 0;
  name = accept_column (ps);
  return name != NULL ? 1 : -1;
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
  g_autofree char *table = NULL;
  Parser ps = { NULL, 0 };
  GString *out;
  gsize pos = 0;

  if (!tokenize (sql, toks))
    return NULL;
  ps.toks = toks;
  if (!accept (&ps, "select"))
    return NULL;

  /* The items: count(*) or a column, each [AS name]. */
  do
    {
      const Tok *t = peek (&ps, 0);
      char *column;
      int alias;

      if (t == NULL)
        return NULL;
      if (accept_count_star (&ps))
        {
          const Tok *last = &g_array_index (toks, Tok, ps.i - 1);
          CountSpan c = { (gsize) (t->s - sql), (gsize) (last->s + last->len - sql), FALSE };

          alias = accept_alias (&ps);
          c.named = alias > 0;
          g_array_append_val (counts, c);
        }
      else if ((column = accept_column (&ps)) != NULL)
        {
          g_ptr_array_add (items, column);
          alias = accept_alias (&ps);
        }
      else
        return NULL;
      if (alias < 0)
        return NULL;
    }
  while (accept (&ps, ","));
  if (counts->len == 0 || !accept (&ps, "from") || (table = accept_column (&ps)) == NULL)
    return NULL;
  {
    /* As written, for the session's names (which are case-sensitive). */
    const Tok *t = &g_array_index (toks, Tok, ps.i - 1);
    g_autofree char *written = t->kind == TOK_WORD ? g_strndup (t->s, t->len)
                                                   : g_strndup (t->s + 1, t->len - 2);

    if (t->kind == TOK_ID && memchr (written, t->s[0], strlen (written)) != NULL)
      return NULL;
    if (!is_event_table (written, user_data))
      return NULL;
  }

  if (accept (&ps, "where"))
    {
      int depth = 0;

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
      if (depth != 0)
        return NULL;
    }
  if (accept (&ps, "group"))
    {
      if (!accept (&ps, "by"))
        return NULL;
      do
        {
          char *column = accept_column (&ps);

          if (column == NULL)
            return NULL;
          g_ptr_array_add (groups, column);
        }
      while (accept (&ps, ","));
    }
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
          else if (accept_count_star (&ps))
            {
              const Tok *last = &g_array_index (toks, Tok, ps.i - 1);
              CountSpan c = { (gsize) (t->s - sql), (gsize) (last->s + last->len - sql), TRUE };

              g_array_append_val (counts, c);
            }
          else if ((column = accept_column (&ps)) == NULL)
            return NULL;
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

  out = g_string_new (NULL);
  for (guint i = 0; i < counts->len; i++)
    {
      const CountSpan *c = &g_array_index (counts, CountSpan, i);

      g_string_append_len (out, sql + pos, (gssize) (c->begin - pos));
      g_string_append (out, "ifnull(sum(_cs_n), 0)");
      if (!c->named)
        {
          /* SQLite names an unnamed result column after its text. */
          g_autofree char *text = g_strndup (sql + c->begin, c->end - c->begin);
          g_autofree char *quoted = _cs_sql_quote_identifier (text);

          g_string_append_printf (out, " AS %s", quoted);
        }
      pos = c->end;
    }
  g_string_append (out, sql + pos);
  return g_string_free (out, FALSE);
}
