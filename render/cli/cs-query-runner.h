/* cs-query-runner.h: the Query page's SQL, run in a worker thread.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-stream-set.h"

G_BEGIN_DECLS

#define CS_TYPE_QUERY_RUNNER (cs_query_runner_get_type ())
G_DECLARE_FINAL_TYPE (CsQueryRunner, cs_query_runner, CS, QUERY_RUNNER, GObject)

/**
 * CsQueryResultPage:
 * @columns: (array zero-terminated=1): the result's column names
 * @rows: (element-type CsQueryRow): the rows of this page, in order
 * @done: whether the statement has no more rows
 *
 * One page of a result, as cs_query_runner_run_finish() returns it.
 */
typedef struct {
  char **columns;
  GPtrArray *rows;
  gboolean done;
} CsQueryResultPage;

void cs_query_result_page_free (CsQueryResultPage *page);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsQueryResultPage, cs_query_result_page_free)

CsQueryRunner *cs_query_runner_new            (const char           *trace_path,
                                               const char           *index_path,
                                               const char           *identity);
CsQueryRunner *cs_query_runner_new_for_streams (CsStreamSet        *streams);
void           cs_query_runner_tables_async   (CsQueryRunner        *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
char         **cs_query_runner_tables_finish  (CsQueryRunner        *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void           cs_query_runner_run_async      (CsQueryRunner        *self,
                                               const char           *sql,
                                               guint                 page_rows,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
CsQueryResultPage *cs_query_runner_run_finish (CsQueryRunner        *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void           cs_query_runner_interrupt      (CsQueryRunner        *self);
gboolean       cs_query_runner_is_busy        (CsQueryRunner        *self);
guint          cs_query_runner_get_n_rows_read (CsQueryRunner       *self);

G_END_DECLS
