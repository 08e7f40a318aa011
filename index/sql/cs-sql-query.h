/* cs-sql-query.h: one compiled statement of a #CsSqlSession and its rows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The CLI and the window read results through this, never through SQLite:
 * column names, then rows one at a time with typed values.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsSqlValueType:
 * @CS_SQL_NULL: no value
 * @CS_SQL_INTEGER: a 64-bit signed integer
 * @CS_SQL_FLOAT: a double
 * @CS_SQL_TEXT: UTF-8 text (as the recording holds it)
 * @CS_SQL_BLOB: bytes (array fields of an event)
 */
typedef enum {
  CS_SQL_NULL,
  CS_SQL_INTEGER,
  CS_SQL_FLOAT,
  CS_SQL_TEXT,
  CS_SQL_BLOB,
} CsSqlValueType;

typedef struct _CsSqlQuery CsSqlQuery;

guint          cs_sql_query_get_n_columns   (CsSqlQuery  *self);
const char    *cs_sql_query_get_column_name (CsSqlQuery  *self,
                                             guint        column);
gboolean       cs_sql_query_next            (CsSqlQuery  *self,
                                             GError     **error);
CsSqlValueType cs_sql_query_get_value_type  (CsSqlQuery  *self,
                                             guint        column);
gint64         cs_sql_query_get_int64       (CsSqlQuery  *self,
                                             guint        column);
double         cs_sql_query_get_double      (CsSqlQuery  *self,
                                             guint        column);
const char    *cs_sql_query_get_text        (CsSqlQuery  *self,
                                             guint        column);
const guint8  *cs_sql_query_get_blob        (CsSqlQuery  *self,
                                             guint        column,
                                             gsize       *size);
char          *cs_sql_query_dup_text        (CsSqlQuery  *self,
                                             guint        column);
void           cs_sql_query_free            (CsSqlQuery  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSqlQuery, cs_sql_query_free)

G_END_DECLS
