/* sql-test-util.c: running a query in the SQL tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "sql-test-util.h"

/* Runs @sql, which must return one integer. */
gint64
cs_test_query_int (CsSqlSession *session,
           const char   *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, sql, &error);
  gint64 v;

  g_assert_no_error (error);
  g_assert_true (cs_sql_query_next (q, &error));
  g_assert_no_error (error);
  v = cs_sql_query_get_int64 (q, 0);
  g_assert_false (cs_sql_query_next (q, &error));
  g_assert_no_error (error);
  return v;
}

/* Every row of @sql as text, one line per row ("NULL" for NULL). */
char *
cs_test_query_rows (CsSqlSession *session,
            const char   *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) q = cs_sql_session_prepare (session, sql, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    {
      for (guint c = 0; c < cs_sql_query_get_n_columns (q); c++)
        {
          g_autofree char *v = cs_sql_query_get_value_type (q, c) == CS_SQL_NULL
                               ? g_strdup ("NULL") : cs_sql_query_dup_text (q, c);

          g_string_append_printf (out, "%s%s", c > 0 ? "|" : "", v);
        }
      g_string_append_c (out, '\n');
    }
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

