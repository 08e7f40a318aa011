/* cs-query-tables.h: the Query page's list of tables and columns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_QUERY_TABLES (cs_query_tables_get_type ())
G_DECLARE_FINAL_TYPE (CsQueryTables, cs_query_tables, CS, QUERY_TABLES, GtkWidget)

CsQueryTables      *cs_query_tables_new       (void);
void                cs_query_tables_set       (CsQueryTables       *self,
                                               const char * const  *pairs);
const char * const *cs_query_tables_get_names (CsQueryTables       *self);

G_END_DECLS
