/* cs-text-cpu-pages.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Text is not always in time order within a CPU (trace-cmd report merges
 * CPUs by time, but files edited, concatenated or written by other tools
 * are not; a public test file has neighbours swapped).  Events are held in
 * a window of a fixed number of bytes; when it is full it is sorted by time
 * (stable: text order breaks ties) and its earlier half is written out.  An
 * event earlier than what was already written (out of order by more than
 * the window) is placed at the last written time and counted: memory stays
 * bounded whatever the text.  The window is not sorted when the events
 * came in order, the usual case.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "cs-index-error.h"
#include "cs-text-cpu-pages.h"

#define PAGE_HEADER_BYTES 16
#define TYPE_LEN_MAX_SMALL 28          /* RB_MAX_SMALL_DATA / 4 */
#define TYPE_TIME_EXTEND 30
#define TIME_DELTA_BITS 27

typedef struct {
  gint64 ts_ns;
  guint64 seq;
  guint64 missed;      /* events lost just before this one (G_MAXUINT64: unknown) */
  guint32 offset;      /* of the data in the window */
  guint32 len;
} Pending;

/* Page header flags (kernel/trace/ring_buffer.c): events were lost before
 * the page; their count is stored after the page's data. */
#define RB_MISSED_EVENTS (G_GUINT64_CONSTANT (1) << 31)
#define RB_MISSED_STORED (G_GUINT64_CONSTANT (1) << 30)

struct _CsTextCpuPages
{
  int fd;
  char *path;
  gsize window_bytes;
  GByteArray *window;  /* the data of @pending */
  GArray *pending;     /* Pending, in arrival order until sorted */
  gboolean in_order;   /* @pending is sorted */
  guint64 seq;
  gint64 last_written_ns;
  gboolean written_any;

  guint8 page[CS_TEXT_CPU_PAGES_PAGE_BYTES];
  gsize page_used;     /* bytes of events in @page */
  gint64 page_last_ns;
  guint64 page_missed; /* events lost before @page, its header flags */
  guint64 next_missed; /* lost before the next event added */
  guint64 size;
  guint64 n_events;
  guint64 n_late;
  guint64 n_reordered;
};

/**
 * cs_text_cpu_pages_new:
 * @dir: the folder of the temporary file (removed from the folder at once:
 *   it lives as long as its descriptor)
 * @window_bytes: how many bytes of events are held to put them in order
 * @error: a %G_FILE_ERROR naming @dir when the file cannot be made
 *
 * Returns: (transfer full): a page builder, or %NULL with @error set
 */
CsTextCpuPages *
cs_text_cpu_pages_new (const char  *dir,
                       gsize        window_bytes,
                       GError     **error)
{
  g_autofree char *tmpl = g_build_filename (dir, ".cs-text-cpu-XXXXXX", NULL);
  CsTextCpuPages *self;
  int fd;

  fd = g_mkstemp_full (tmpl, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot create a temporary file in %s: %s"), dir, g_strerror (saved));
      return NULL;
    }
  g_unlink (tmpl);

  self = g_new0 (CsTextCpuPages, 1);
  self->fd = fd;
  self->path = g_steal_pointer (&tmpl);
  self->window_bytes = MAX (window_bytes, 4 * CS_TEXT_CPU_PAGES_PAGE_BYTES);
  self->window = g_byte_array_new ();
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  self->in_order = TRUE;
  return self;
}

/** cs_text_cpu_pages_free: @self: (transfer full) (nullable): closes the file */
void
cs_text_cpu_pages_free (CsTextCpuPages *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_byte_array_unref (self->window);
  g_array_unref (self->pending);
  g_free (self->path);
  g_free (self);
}

static gboolean
flush_page (CsTextCpuPages  *self,
            GError         **error)
{
  guint64 commit = self->page_used;
  const guint8 *p = self->page;
  gsize left = sizeof self->page;

  if (self->page_used == 0)
    return TRUE;
  memset (self->page + PAGE_HEADER_BYTES + self->page_used, 0,
          sizeof self->page - PAGE_HEADER_BYTES - self->page_used);
  if (self->page_missed == G_MAXUINT64)
    commit |= RB_MISSED_EVENTS;
  else if (self->page_missed > 0)
    {
      commit |= RB_MISSED_EVENTS | RB_MISSED_STORED;
      memcpy (self->page + PAGE_HEADER_BYTES + self->page_used, &self->page_missed, 8);
    }
  memcpy (self->page + 8, &commit, 8);
  while (left > 0)
    {
      ssize_t n = write (self->fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = n < 0 ? errno : ENOSPC;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Cannot write the converted events: %s"), g_strerror (saved));
          return FALSE;
        }
      p += n;
      left -= n;
    }
  self->size += sizeof self->page;
  self->page_used = 0;
  self->page_missed = 0;
  return TRUE;
}

static void
put_u32 (CsTextCpuPages *self,
         guint32         v)
{
  memcpy (self->page + PAGE_HEADER_BYTES + self->page_used, &v, 4);
  self->page_used += 4;
}

/* Appends one event (len a multiple of 4, at most a page's room) to the
 * page, starting a new page when it does not fit. */
static gboolean
write_event (CsTextCpuPages  *self,
             gint64           ts_ns,
             guint64          missed,
             const guint8    *data,
             gsize            len,
             GError         **error)
{
  /* 8 bytes kept for the count of events lost before the page. */
  gsize room = sizeof self->page - PAGE_HEADER_BYTES - 8;
  gsize need = 4 + (len <= TYPE_LEN_MAX_SMALL * 4 ? len : 4 + len);
  guint64 delta = self->page_used > 0 ? (guint64) (ts_ns - self->page_last_ns) : 0;

  if (delta >> TIME_DELTA_BITS)
    need += 8;
  /* Only a page's first event can follow lost events. */
  if (self->page_used + need > room || missed > 0)
    {
      if (!flush_page (self, error))
        return FALSE;
      delta = 0;
      need = 4 + (len <= TYPE_LEN_MAX_SMALL * 4 ? len : 4 + len);
    }
  if (self->page_used == 0)
    {
      guint64 ts = (guint64) ts_ns;
      memcpy (self->page, &ts, 8);
      self->page_missed = missed;
    }
  if (delta >> TIME_DELTA_BITS)
    {
      put_u32 (self, TYPE_TIME_EXTEND | (guint32) ((delta & ((1u << TIME_DELTA_BITS) - 1)) << 5));
      put_u32 (self, (guint32) (delta >> TIME_DELTA_BITS));
      delta = 0;
    }
  if (len <= TYPE_LEN_MAX_SMALL * 4 && len > 0)
    put_u32 (self, (guint32) (len / 4) | (guint32) (delta << 5));
  else
    {
      put_u32 (self, (guint32) (delta << 5));
      put_u32 (self, (guint32) len + 4);
    }
  memcpy (self->page + PAGE_HEADER_BYTES + self->page_used, data, len);
  self->page_used += len;
  self->page_last_ns = ts_ns;
  self->n_events++;
  return TRUE;
}

static int
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const Pending *x = a, *y = b;

  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Writes out the earliest @n_out pending events (all when G_MAXUINT). */
static gboolean
drain (CsTextCpuPages  *self,
       guint            n_out,
       GError         **error)
{
  g_autoptr(GByteArray) rest = NULL;
  guint n = MIN (n_out, self->pending->len);

  if (!self->in_order)
    {
      g_array_sort (self->pending, compare_pending);
      self->n_reordered++;
      self->in_order = TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      Pending *p = &g_array_index (self->pending, Pending, i);
      if (!write_event (self, p->ts_ns, p->missed, self->window->data + p->offset, p->len, error))
        return FALSE;
      self->last_written_ns = p->ts_ns;
      self->written_any = TRUE;
    }
  rest = g_byte_array_new ();
  for (guint i = n; i < self->pending->len; i++)
    {
      Pending *p = &g_array_index (self->pending, Pending, i);
      guint32 offset = rest->len;
      g_byte_array_append (rest, self->window->data + p->offset, p->len);
      p->offset = offset;
    }
  g_array_remove_range (self->pending, 0, n);
  g_byte_array_set_size (self->window, 0);
  g_byte_array_append (self->window, rest->data, rest->len);
  return TRUE;
}

/**
 * cs_text_cpu_pages_add:
 * @self: a page builder
 * @ts_ns: the event's time, ns
 * @data: the record's data (common fields first), @len bytes, a multiple
 *   of 4 and at most 4000 bytes
 * @len: its length
 * @error: a %G_FILE_ERROR when the temporary file cannot be written
 *
 * Adds an event.  Events are written in time order; an event earlier than
 * one already written is placed at that one's time and counted
 * (cs_text_cpu_pages_get_n_late()).
 *
 * Returns: %FALSE with @error set when writing failed
 */
gboolean
cs_text_cpu_pages_add (CsTextCpuPages  *self,
                       gint64           ts_ns,
                       const guint8    *data,
                       gsize            len,
                       GError         **error)
{
  Pending p;

  g_return_val_if_fail (len % 4 == 0 && len <= 4000, FALSE);

  if (self->written_any && ts_ns < self->last_written_ns)
    {
      ts_ns = self->last_written_ns;
      self->n_late++;
    }
  if (self->pending->len > 0 &&
      ts_ns < g_array_index (self->pending, Pending, self->pending->len - 1).ts_ns)
    self->in_order = FALSE;
  p.ts_ns = ts_ns;
  p.seq = self->seq++;
  p.missed = self->next_missed;
  self->next_missed = 0;
  p.offset = self->window->len;
  p.len = (guint32) len;
  g_byte_array_append (self->window, data, len);
  g_array_append_val (self->pending, p);

  if (self->window->len >= self->window_bytes)
    return drain (self, self->pending->len / 2, error);
  return TRUE;
}

/**
 * cs_text_cpu_pages_add_missed:
 * @self: a page builder
 * @n_missed: events the text says were lost here (`CPU:N [LOST M EVENTS]`),
 *   %G_MAXUINT64 when it does not say how many
 *
 * Marks the next event added as following lost events: its page says so
 * in its header, as the kernel's ring buffer does.
 */
void
cs_text_cpu_pages_add_missed (CsTextCpuPages *self,
                              guint64         n_missed)
{
  if (n_missed == G_MAXUINT64 || self->next_missed == G_MAXUINT64)
    self->next_missed = G_MAXUINT64;
  else
    self->next_missed = MIN (self->next_missed + n_missed, G_MAXUINT64 - 1);
}

/**
 * cs_text_cpu_pages_finish:
 * @self: a page builder
 * @error: a %G_FILE_ERROR when the temporary file cannot be written
 *
 * Writes the events still held and the last page.  The file then holds
 * cs_text_cpu_pages_get_size() bytes of pages from offset 0.
 *
 * Returns: %FALSE with @error set when writing failed
 */
gboolean
cs_text_cpu_pages_finish (CsTextCpuPages  *self,
                          GError         **error)
{
  return drain (self, G_MAXUINT, error) && flush_page (self, error);
}

/** cs_text_cpu_pages_get_fd: Returns: the temporary file (borrowed) */
int
cs_text_cpu_pages_get_fd (CsTextCpuPages *self)
{
  return self->fd;
}

/** cs_text_cpu_pages_get_size: Returns: bytes of pages written, a multiple of the page size */
guint64
cs_text_cpu_pages_get_size (CsTextCpuPages *self)
{
  return self->size;
}

/** cs_text_cpu_pages_get_n_events: Returns: events written */
guint64
cs_text_cpu_pages_get_n_events (CsTextCpuPages *self)
{
  return self->n_events;
}

/** cs_text_cpu_pages_get_n_late: Returns: events out of order by more than the window, moved later */
guint64
cs_text_cpu_pages_get_n_late (CsTextCpuPages *self)
{
  return self->n_late;
}

/** cs_text_cpu_pages_get_n_reordered: Returns: how many times the window had to be sorted */
guint64
cs_text_cpu_pages_get_n_reordered (CsTextCpuPages *self)
{
  return self->n_reordered;
}
