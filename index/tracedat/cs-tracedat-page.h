/* cs-tracedat-page.h: one page of a CPU's ring buffer as trace.dat stores it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Private to index/.  The page layout is the kernel's ring buffer's
 * (kernel/trace/ring_buffer.c; trace-cmd.dat.v6(5) "CPU DATA"): a header
 * with the page's timestamp and its commit size (a kernel long), then event
 * headers of 4 bytes (type_len:5, time_delta:27) followed by their payloads.
 * The walk below is libtraceevent's kbuffer walk (kbuffer-parse.c:
 * kbuffer_load_subbuffer(), kbuffer_next_event() and friends), done here so
 * that the hot loop of the scan makes no library calls; its step functions
 * are inline for the same reason.
 */
#pragma once

#include <glib.h>
#include <string.h>

/* Ring-buffer event types (include/linux/ring_buffer.h). */
#define CS_TD_RB_TYPE_PADDING     29
#define CS_TD_RB_TYPE_TIME_EXTEND 30
#define CS_TD_RB_TYPE_TIME_STAMP  31

/* The commit field's size bits; above them, flags (RB_MISSED_EVENTS...). */
#define CS_TD_COMMIT_MASK ((1u << 27) - 1)

/* Time stamps (TS_SHIFT; an absolute time stamp lacks the top 5 bits, taken
 * from the current time). */
#define CS_TD_RB_TS_SHIFT 27
#define CS_TD_RB_TS_MSB   (G_GUINT64_CONSTANT (0xf8) << 56)

/**
 * CsTdPageFormat:
 * @be: the recording's byte order is big-endian
 * @klong: the kernel's long size, 4 or 8 (the commit field's size)
 * @page_size: bytes per page (the header page's size, usually 4096)
 *
 * What a page's layout depends on, from the trace.dat's initial format and
 * header page.
 */
typedef struct {
  gboolean be;
  guint klong;
  guint page_size;
} CsTdPageFormat;

/**
 * CsTdPageWalk:
 * @data: the first byte after the page header
 * @size: committed bytes after the header
 * @curr: offset from @data of the current event's header
 * @index: offset of its payload
 * @next: offset of the next event's header
 * @timestamp: the current event's time, raw (before tsc2nsec and offsets)
 * @lost_events: events lost before the page: 0, a count, or -1 for unknown
 *
 * Where a walk through one page's events is; @curr >= @size past its last
 * event.
 */
typedef struct {
  const guint8 *data;
  guint32 size;
  guint32 curr;
  guint32 index;
  guint32 next;
  guint64 timestamp;
  gint64 lost_events;
} CsTdPageWalk;

/**
 * CsTdPageProblem:
 * @CS_TD_PAGE_OK: the page can be walked
 * @CS_TD_PAGE_COMMIT_TOO_BIG: its commit size is more than the page holds
 * @CS_TD_PAGE_BAD_LENGTH: an event's length would move the walk backwards
 *   or a data event would end outside the committed data
 *
 * What cs_td_page_check() found wrong with a page.
 */
typedef enum {
  CS_TD_PAGE_OK,
  CS_TD_PAGE_COMMIT_TOO_BIG,
  CS_TD_PAGE_BAD_LENGTH,
} CsTdPageProblem;

CsTdPageProblem cs_td_page_check      (const CsTdPageFormat *format,
                                       const guint8         *page,
                                       guint                *n_records,
                                       guint                *committed,
                                       guint                *bad_byte,
                                       guint                *bad_type);
CsTdPageProblem cs_td_page_check_commit (const CsTdPageFormat *format,
                                         const guint8         *page,
                                         guint                *committed);
void            cs_td_page_walk_begin (const CsTdPageFormat *format,
                                       CsTdPageWalk         *walk,
                                       const guint8         *page);
void            cs_td_page_walk_start (const CsTdPageFormat *format,
                                       CsTdPageWalk         *walk,
                                       const guint8         *page);

static inline guint32
cs_td_page_u32 (gboolean be, const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return be ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

/* Decodes the event header at walk->curr (kbuffer's update_pointers());
 * returns its type_len. */
static inline guint32
cs_td_page_walk_decode (gboolean be, CsTdPageWalk *w)
{
  const guint8 *p = w->data + w->curr;
  guint32 tl = cs_td_page_u32 (be, p);
  guint32 type_len = be ? tl >> 27 : tl & 31;
  guint64 delta = be ? tl & ((1u << 27) - 1) : tl >> 5;
  guint32 index = w->curr + 4;
  guint32 length;

  /* Most events: data whose length is in the header. */
  if (G_LIKELY (type_len - 1u < CS_TD_RB_TYPE_PADDING - 1u))
    {
      w->timestamp += delta;
      w->index = index;
      w->next = index + type_len * 4;
      return type_len;
    }
  switch (type_len)
    {
    case CS_TD_RB_TYPE_PADDING:
      length = cs_td_page_u32 (be, p + 4);
      break;
    case CS_TD_RB_TYPE_TIME_STAMP:
    case CS_TD_RB_TYPE_TIME_EXTEND:
      delta = (((guint64) cs_td_page_u32 (be, p + 4) << CS_TD_RB_TS_SHIFT) + delta) |
              (type_len == CS_TD_RB_TYPE_TIME_STAMP ? w->timestamp & CS_TD_RB_TS_MSB : 0);
      index += 4;
      length = 0;
      break;
    case 0:
      /* as kbuffer computes it, in int arithmetic */
      length = (cs_td_page_u32 (be, p + 4) - 4u + 3u) & ~3u;
      index += 4;
      break;
    default:
      length = type_len * 4;
      break;
    }
  if (type_len == CS_TD_RB_TYPE_TIME_STAMP)
    w->timestamp = delta;
  else
    w->timestamp += delta;
  w->index = index;
  w->next = index + length;
  return type_len;
}

/**
 * cs_td_page_walk_next:
 * @be: the recording's byte order is big-endian
 * @walk: a walk started by cs_td_page_walk_start()
 *
 * Moves to the next data event, over padding and time extends.
 *
 * Returns: %FALSE past the page's last event
 */
static inline gboolean
cs_td_page_walk_next (gboolean be, CsTdPageWalk *walk)
{
  guint32 type_len;

  do
    {
      walk->curr = walk->next;
      if (walk->next >= walk->size)
        return FALSE;
      type_len = cs_td_page_walk_decode (be, walk);
    }
  while (type_len >= CS_TD_RB_TYPE_PADDING);
  return TRUE;
}

/**
 * cs_td_page_walk_next_checked:
 * @be: the recording's byte order is big-endian
 * @walk: a walk begun by cs_td_page_walk_begin() on a page whose commit
 *   size cs_td_page_check_commit() accepted, and moved only by this
 * @bad_type: (out): on -1, the type_len of the event refused
 *
 * cs_td_page_walk_next() for a page whose events cs_td_page_check() has
 * not walked: the check itself is this walk over a whole page, so it
 * refuses what the check refuses, at the same event, and one walk can
 * both check a page and read it (the scan's,
 * cs_tracedat_cpu_next_batch()).  It reads only inside the
 * committed data (plus the 4 bytes of length of the header at its end, as
 * the check does) and never moves backwards or stays in place.
 *
 * Returns: 1 at the next data event (@walk->curr), 0 past the page's last
 *   (@walk->curr >= @walk->size), -1 at an event whose length would move
 *   the walk backwards or end a data event outside the committed data
 *   (@walk->curr at it; the page is damaged: CS_TD_PAGE_BAD_LENGTH)
 */
static inline int
cs_td_page_walk_next_checked (gboolean      be,
                              CsTdPageWalk *walk,
                              guint32      *bad_type)
{
  guint32 type_len;

  do
    {
      guint32 curr = walk->curr = walk->next;

      if (curr >= walk->size)
        return 0;
      type_len = cs_td_page_walk_decode (be, walk);
      /* The one test of a page's event lengths: cs_td_page_check() walks
       * a whole page with it. */
      if (G_UNLIKELY (walk->next <= curr ||
                      (type_len < CS_TD_RB_TYPE_PADDING &&
                       (walk->next < walk->index || walk->next > walk->size))))
        {
          *bad_type = type_len;
          return -1;
        }
    }
  while (type_len >= CS_TD_RB_TYPE_PADDING);
  return 1;
}
