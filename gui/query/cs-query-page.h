/* cs-query-page.h: the window's Query page: SQL over the recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-document.h"
#include "cs-stream-set.h"

G_BEGIN_DECLS

#define CS_TYPE_QUERY_PAGE (cs_query_page_get_type ())
G_DECLARE_FINAL_TYPE (CsQueryPage, cs_query_page, CS, QUERY_PAGE, GtkWidget)

CsQueryPage  *cs_query_page_new            (void);
void          cs_query_page_set_document   (CsQueryPage        *self,
                                            CsDocument         *document);
void          cs_query_page_set_streams    (CsQueryPage        *self,
                                            CsStreamSet        *streams);
char         *cs_query_page_dup_text       (CsQueryPage        *self);
void          cs_query_page_set_text       (CsQueryPage        *self,
                                            const char         *sql);
void          cs_query_page_run            (CsQueryPage        *self);
void          cs_query_page_cancel         (CsQueryPage        *self);
gboolean      cs_query_page_is_busy        (CsQueryPage        *self);
const char   *cs_query_page_get_error_message (CsQueryPage     *self);
const char   *cs_query_page_get_status     (CsQueryPage        *self);
GListModel   *cs_query_page_get_rows       (CsQueryPage        *self);
gboolean      cs_query_page_get_done       (CsQueryPage        *self);
GtkColumnView *cs_query_page_get_column_view (CsQueryPage      *self);
GtkTextView  *cs_query_page_get_editor     (CsQueryPage        *self);
const char * const *cs_query_page_get_tables (CsQueryPage      *self);
const char * const *cs_query_page_get_history (CsQueryPage     *self);
void          cs_query_page_set_history    (CsQueryPage        *self,
                                            const char * const *history);

G_END_DECLS
