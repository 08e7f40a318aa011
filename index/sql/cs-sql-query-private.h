/* cs-sql-query-private.h: how a session makes a CsSqlQuery.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "cs-sql-session.h"

G_BEGIN_DECLS

/* Takes @stmt (transfer full) and a reference on @session. */
CsSqlQuery *_cs_sql_query_new (CsSqlSession *session,
                               sqlite3_stmt *stmt);

G_END_DECLS
