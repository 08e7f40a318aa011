/* cs-query-row.h: one result row of the Query page.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CS_TYPE_QUERY_ROW (cs_query_row_get_type ())
G_DECLARE_FINAL_TYPE (CsQueryRow, cs_query_row, CS, QUERY_ROW, GObject)

/**
 * CsQueryLink:
 * @ts_ns: the row's `ts` (trace clock, ns)
 * @cpu: its `cpu`, or -1 when the row has none
 * @pid: its `pid`, or -1 when the row has none
 *
 * Where a result row points in the recording: a row with `ts` and `cpu`
 * or `pid` names one event.
 */
typedef struct {
  gint64 ts_ns;
  gint64 cpu;
  gint64 pid;
} CsQueryLink;

CsQueryRow *cs_query_row_new      (char              **cells,
                                   guint               n_cells,
                                   const CsQueryLink  *link);
const char *cs_query_row_get_cell (CsQueryRow         *self,
                                   guint               column);
guint       cs_query_row_get_n_cells (CsQueryRow      *self);
gboolean    cs_query_row_get_link (CsQueryRow         *self,
                                   CsQueryLink        *link);

G_END_DECLS
