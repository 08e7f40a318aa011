/* cs-tracedat-page.c: checking a ring-buffer page and starting a walk.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * See cs-tracedat-page.h.  kbuffer trusts a page: a hostile commit size or
 * event length would make it read outside the buffer or loop forever, so
 * every page is checked here before it is walked.
 */
#include "cs-tracedat-page.h"

/* Page header flags (kernel/trace/ring_buffer.c: RB_MISSED_EVENTS,
 * RB_MISSED_STORED). */
#define RB_MISSED_EVENTS (G_GUINT64_CONSTANT (1) << 31)
#define RB_MISSED_STORED (G_GUINT64_CONSTANT (1) << 30)

static inline guint64
page_u64 (gboolean be, const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return be ? GUINT64_FROM_BE (v) : GUINT64_FROM_LE (v);
}

/* The commit field: committed size and flags. */
static inline guint64
page_commit (const CsTdPageFormat *format, const guint8 *page)
{
  return format->klong == 8 ? page_u64 (format->be, page + 8)
                            : cs_td_page_u32 (format->be, page + 8);
}

/**
 * cs_td_page_check_commit:
 * @format: the recording's page layout
 * @page: (array): @format->page_size bytes
 * @committed: (out) (optional): its committed bytes (0 for an empty page)
 *
 * Checks only the page header's commit size (the ring buffer's
 * buffer_data_page.commit, kernel/trace/ring_buffer.c): that the committed
 * data fits in the page.  Enough for a reader that decodes single records
 * at offsets it already knows and bounds each by the committed size
 * (cs_tracedat_cpu_peek_at()); a walk over the page's events needs
 * cs_td_page_check().
 *
 * Returns: %CS_TD_PAGE_OK or %CS_TD_PAGE_COMMIT_TOO_BIG
 */
CsTdPageProblem
cs_td_page_check_commit (const CsTdPageFormat *format,
                         const guint8         *page,
                         guint                *committed)
{
  guint32 size = (guint32) page_commit (format, page) & CS_TD_COMMIT_MASK;

  if (committed != NULL)
    *committed = size;
  if ((guint64) 8 + format->klong + size > format->page_size)
    return CS_TD_PAGE_COMMIT_TOO_BIG;
  return CS_TD_PAGE_OK;
}

/**
 * cs_td_page_check:
 * @format: the recording's page layout
 * @page: (array): @format->page_size bytes
 * @n_records: (out) (optional): how many data events the page holds
 * @committed: (out) (optional): its committed bytes (0 for an empty page)
 * @bad_byte: (out) (optional): on %CS_TD_PAGE_BAD_LENGTH, the offset in the
 *   page of the event whose length is wrong
 * @bad_type: (out) (optional): on %CS_TD_PAGE_BAD_LENGTH, its type_len
 *
 * Walks the event headers of a page the way kbuffer will
 * (cs_td_page_walk_next_checked() to the end) and says whether
 * kbuffer (or cs_td_page_walk_next()) could walk it without reading outside
 * it, looping, or returning an event that does not fit in the committed
 * data.  Reads only inside @page (plus nothing: the walk stops at the
 * commit size).
 *
 * Returns: %CS_TD_PAGE_OK, or what is wrong
 */
CsTdPageProblem
cs_td_page_check (const CsTdPageFormat *format,
                  const guint8         *page,
                  guint                *n_records,
                  guint                *committed,
                  guint                *bad_byte,
                  guint                *bad_type)
{
  /* The walk's fields the checked walk reads, without the lost-events
   * count after the data that cs_td_page_walk_begin() reads: only the
   * headers are looked at. */
  CsTdPageWalk w = { .data = page + 8 + format->klong };
  guint size, n = 0;
  guint32 type_len = 0;
  int step;
  CsTdPageProblem commit = cs_td_page_check_commit (format, page, &size);

  if (committed != NULL)
    *committed = size;
  if (commit != CS_TD_PAGE_OK)
    return commit;
  w.size = size;
  while ((step = cs_td_page_walk_next_checked (format->be, &w, &type_len)) > 0)
    n++;
  if (step < 0)
    {
      if (bad_byte != NULL)
        *bad_byte = 8 + format->klong + w.curr;
      if (bad_type != NULL)
        *bad_type = type_len;
      return CS_TD_PAGE_BAD_LENGTH;
    }
  if (n_records != NULL)
    *n_records = n;
  return CS_TD_PAGE_OK;
}

/**
 * cs_td_page_walk_begin:
 * @format: the recording's page layout
 * @walk: (out caller-allocates): the walk
 * @page: a page whose commit size cs_td_page_check_commit() accepted;
 *   borrowed while @walk is used
 *
 * Sets @walk before the first event of @page, with the page's committed
 * size, base time and the events lost before it (from its header flags),
 * without reading any event header: the walk moves with
 * cs_td_page_walk_next_checked(), or its header fields are read for
 * records at known offsets (cs_tracedat_cpu_peek_at()).
 */
void
cs_td_page_walk_begin (const CsTdPageFormat *format,
                       CsTdPageWalk         *walk,
                       const guint8         *page)
{
  gboolean be = format->be;
  guint64 flags = page_commit (format, page);

  walk->timestamp = page_u64 (be, page);
  walk->data = page + 8 + format->klong;
  walk->size = (guint32) flags & CS_TD_COMMIT_MASK;
  if (flags & RB_MISSED_EVENTS)
    {
      if (flags & RB_MISSED_STORED)
        walk->lost_events = (gint64) (format->klong == 8 ? page_u64 (be, walk->data + walk->size)
                                                         : cs_td_page_u32 (be, walk->data + walk->size));
      else
        walk->lost_events = -1;
    }
  else
    walk->lost_events = 0;
  walk->curr = walk->index = walk->next = 0;
}

/**
 * cs_td_page_walk_start:
 * @format: the recording's page layout
 * @walk: (out caller-allocates): the walk
 * @page: a page cs_td_page_check() accepted; borrowed while @walk is used
 *
 * Starts a walk at the first data event of @page (kbuffer_load_subbuffer()),
 * with the events lost before the page from its header flags.
 */
void
cs_td_page_walk_start (const CsTdPageFormat *format,
                       CsTdPageWalk         *walk,
                       const guint8         *page)
{
  cs_td_page_walk_begin (format, walk, page);
  cs_td_page_walk_next (format->be, walk);
}
