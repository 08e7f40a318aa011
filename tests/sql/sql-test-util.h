/* sql-test-util.h: running a query in the SQL tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-sql-session.h"

G_BEGIN_DECLS

/* Runs @sql, which must return one integer. */
gint64 cs_test_query_int  (CsSqlSession *session,
                           const char   *sql);
/* Every row of @sql as text, columns joined by "|", one line per row
 * ("NULL" for NULL). */
char  *cs_test_query_rows (CsSqlSession *session,
                           const char   *sql);

G_END_DECLS
