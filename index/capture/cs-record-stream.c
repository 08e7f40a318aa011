/* cs-record-stream.c: one CPU's ring buffer streamed to a temporary file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A thread per CPU moves whole ring-buffer pages from the instance's
 * `per_cpu/cpuN/trace_pipe_raw` into a temporary file while the recording
 * runs, so a recording can be much longer than the ring buffer holds.
 *
 * While recording, pages move with splice() through a pipe: the kernel only
 * splices full pages, so a quiet CPU does not produce a stream of nearly
 * empty pages.  The thread sleeps in poll(), which tracefs wakes when the
 * buffer is `buffer_percent` full (the recorder lowers it), with a timeout so
 * that pages keep moving under any setting.  The pages pass through user
 * space once (read from the pipe, then write()) so that their events can be
 * counted for the live statistics with libtraceevent's kbuffer.
 *
 * On stop (tracing already off), the thread drains the full pages, then
 * read()s what is left: the kernel hands out the last, partly filled page.
 * Every page is written whole (page_size bytes), so the file is a sequence
 * of pages, exactly what a trace.dat holds for a CPU.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <kbuffer.h>
#include <glib/gi18n-lib.h>

#include "cs-record-private.h"
#include "cs-record-stream.h"

#define PIPE_BYTES       ((gsize) 1024 * 1024)
#define POLL_TIMEOUT_MS  200

struct _CsRecordStream
{
  GObject parent_instance;

  /* immutable after new() */
  guint cpu;
  int raw_fd;                 /* owned: trace_pipe_raw, O_NONBLOCK */
  int out_fd;                 /* owned: the temporary file */
  char *out_path;
  char *out_dir;              /* for messages: the folder being filled */
  guint page_size;
  guint kernel_long_size;
  int stop_fd;                /* owned: eventfd, written by stop() */
  gboolean use_splice;

  /* the thread's */
  GThread *thread;
  int pipe_fds[2];
  guint8 *buf;
  gsize buf_size;
  struct kbuffer *kbuf;

  /* shared, under lock */
  GMutex lock;
  CsRecordStreamStats stats;
  GError *error;
  gboolean failed;
};

G_DEFINE_FINAL_TYPE (CsRecordStream, cs_record_stream, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* The thread                                                                */

static void
stream_fail (CsRecordStream *self,
             GError         *error)
{
  g_mutex_lock (&self->lock);
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
  self->failed = TRUE;
  g_mutex_unlock (&self->lock);
}

/* Counts the events of @n_pages whole pages at @data and writes them. */
static gboolean
stream_write_pages (CsRecordStream  *self,
                    guint8          *data,
                    gsize            n_pages,
                    GError         **error)
{
  guint64 events = 0, missed = 0;

  for (gsize i = 0; i < n_pages; i++)
    {
      guint8 *page = data + i * self->page_size;
      unsigned long long ts;
      int lost;

      if (kbuffer_load_subbuffer (self->kbuf, page) < 0)
        continue;
      lost = kbuffer_missed_events (self->kbuf);
      if (lost != 0)
        missed += lost > 0 ? (guint64) lost : 1;
      for (void *ev = kbuffer_read_event (self->kbuf, &ts); ev != NULL;
           ev = kbuffer_next_event (self->kbuf, &ts))
        events++;
    }

  if (!_cs_record_write_all (self->out_fd, data, n_pages * self->page_size,
                             self->out_dir, error))
    {
      g_prefix_error (error, _("CPU %u: "), self->cpu);
      return FALSE;
    }

  g_mutex_lock (&self->lock);
  self->stats.events += events;
  self->stats.missed_events += missed;
  self->stats.pages += n_pages;
  self->stats.bytes += (guint64) n_pages * self->page_size;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
read_exact (int fd, guint8 *buf, gsize len)
{
  while (len > 0)
    {
      ssize_t n = read (fd, buf, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      buf += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
set_read_error (CsRecordStream  *self,
                int              errsv,
                GError         **error)
{
  g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
               _("Cannot read the ring buffer of CPU %u (per_cpu/cpu%u/trace_pipe_raw): %s"),
               self->cpu, self->cpu, g_strerror (errsv));
  return FALSE;
}

/* Moves the full pages the kernel has now.  Returns FALSE on error. */
static gboolean
stream_drain_full_pages (CsRecordStream  *self,
                         gboolean        *moved,
                         GError         **error)
{
  *moved = FALSE;
  if (!self->use_splice)
    return TRUE;

  for (;;)
    {
      ssize_t n = splice (self->raw_fd, NULL, self->pipe_fds[1], NULL, self->buf_size,
                          SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return TRUE;
      if (n < 0)
        return set_read_error (self, errno, error);
      if (n == 0)
        return TRUE;

      /* splice moves whole pages only. */
      if (!read_exact (self->pipe_fds[0], self->buf, (gsize) n))
        {
          g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                       _("Cannot read the pipe of CPU %u: %s"), self->cpu, g_strerror (errno));
          return FALSE;
        }
      if (!stream_write_pages (self, self->buf, (gsize) n / self->page_size, error))
        return FALSE;
      *moved = TRUE;
    }
}

/* Reads page by page with read(): the kernel returns partly filled pages
 * too.  Used at the end, and all along when splice is not possible. */
static gboolean
stream_read_pages (CsRecordStream  *self,
                   GError         **error)
{
  for (;;)
    {
      ssize_t n = read (self->raw_fd, self->buf, self->page_size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return TRUE;
      if (n < 0)
        return set_read_error (self, errno, error);
      if (n == 0)
        return TRUE;
      if ((gsize) n < self->page_size)
        memset (self->buf + n, 0, self->page_size - (gsize) n);
      if (!stream_write_pages (self, self->buf, 1, error))
        return FALSE;
    }
}

static gpointer
stream_thread (gpointer data)
{
  CsRecordStream *self = data;
  GError *error = NULL;
  gboolean stopping = FALSE;
  gboolean moved = FALSE;

  while (!stopping)
    {
      struct pollfd fds[2] = {
        { self->raw_fd, POLLIN, 0 },
        { self->stop_fd, POLLIN, 0 },
      };
      int rc = poll (fds, 2, POLL_TIMEOUT_MS);

      if (rc < 0 && errno != EINTR)
        {
          g_set_error (&error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                       _("Cannot wait for the ring buffer of CPU %u: %s"),
                       self->cpu, g_strerror (errno));
          break;
        }
      stopping = rc > 0 && (fds[1].revents & POLLIN) != 0;

      if (!stream_drain_full_pages (self, &moved, &error))
        break;
      if (!self->use_splice && !stream_read_pages (self, &error))
        break;

      /* Readable but no whole page yet (buffer_percent 0): do not spin. */
      if (!stopping && !moved && self->use_splice && rc > 0 && (fds[0].revents & POLLIN))
        {
          struct pollfd stop = { self->stop_fd, POLLIN, 0 };
          poll (&stop, 1, POLL_TIMEOUT_MS / 4);
        }
    }

  /* Tracing is off now: the last full pages, then the partial one. */
  if (error == NULL && stream_drain_full_pages (self, &moved, &error))
    stream_read_pages (self, &error);

  /* The instance cannot be removed while its files are open. */
  close (self->raw_fd);
  self->raw_fd = -1;

  if (error != NULL)
    stream_fail (self, error);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_record_stream_new:
 * @cpu: the CPU whose ring buffer this is
 * @out_fd: the temporary file the pages go to; the stream takes ownership
 *   and removes @out_path when disposed
 * @out_path: the temporary file's name, for messages and removal
 * @page_size_bytes: ring-buffer page (sub-buffer) size, from
 *   `events/header_page`
 * @kernel_long_size: the kernel's long size in bytes (4 or 8), the size of
 *   `commit` in `events/header_page`
 *
 * Returns: (transfer full): a stream, not yet started
 */
CsRecordStream *
cs_record_stream_new (guint       cpu,
                      int         out_fd,
                      const char *out_path,
                      guint       page_size_bytes,
                      guint       kernel_long_size)
{
  CsRecordStream *self;

  g_return_val_if_fail (out_fd >= 0 && out_path != NULL, NULL);
  g_return_val_if_fail (page_size_bytes >= 64, NULL);

  self = g_object_new (CS_TYPE_RECORD_STREAM, NULL);
  self->cpu = cpu;
  self->out_fd = out_fd;
  self->out_path = g_strdup (out_path);
  self->out_dir = g_path_get_dirname (out_path);
  self->page_size = page_size_bytes;
  self->kernel_long_size = kernel_long_size;
  return self;
}

/**
 * cs_record_stream_start:
 * @self: a #CsRecordStream
 * @raw_fd: `per_cpu/cpuN/trace_pipe_raw` of the instance, opened
 *   `O_RDONLY | O_NONBLOCK`; the stream takes ownership (even on failure)
 *   and closes it when its thread ends, so that the instance can be removed
 * @error: return location for a %CS_RECORD_ERROR_FAILED error
 *
 * Starts the thread that moves pages until cs_record_stream_stop().
 *
 * Returns: whether the thread runs
 */
gboolean
cs_record_stream_start (CsRecordStream  *self,
                        int              raw_fd,
                        GError         **error)
{
  g_autofree char *name = NULL;
  long system_page = sysconf (_SC_PAGESIZE);

  g_return_val_if_fail (CS_IS_RECORD_STREAM (self), FALSE);
  g_return_val_if_fail (self->thread == NULL && self->raw_fd < 0, FALSE);
  g_return_val_if_fail (raw_fd >= 0, FALSE);

  self->raw_fd = raw_fd;

  self->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (self->stop_fd < 0)
    {
      g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                   _("Cannot create an eventfd: %s"), g_strerror (errno));
      return FALSE;
    }

  self->kbuf = kbuffer_alloc (self->kernel_long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
                              G_BYTE_ORDER == G_BIG_ENDIAN ? KBUFFER_ENDIAN_BIG
                                                           : KBUFFER_ENDIAN_LITTLE);
  if (self->kbuf == NULL)
    {
      g_set_error_literal (error, CS_RECORD_ERROR, CS_RECORD_ERROR_FAILED,
                           _("Cannot allocate a kbuffer"));
      return FALSE;
    }

  /* tracefs splices whole system pages; other sub-buffer sizes are read. */
  self->use_splice = system_page > 0 && self->page_size == (guint) system_page &&
                     pipe2 (self->pipe_fds, O_CLOEXEC) == 0;
  if (self->use_splice)
    {
      int size = fcntl (self->pipe_fds[0], F_SETPIPE_SZ, (int) PIPE_BYTES);

      if (size <= 0)
        size = fcntl (self->pipe_fds[0], F_GETPIPE_SZ);
      self->buf_size = size > 0 ? (gsize) size / self->page_size * self->page_size : 0;
      if (self->buf_size < self->page_size)
        self->buf_size = self->page_size * 16;
    }
  else
    self->buf_size = self->page_size;
  self->buf = g_malloc (self->buf_size);

  name = g_strdup_printf ("cs-rec-cpu%u", self->cpu);
  self->thread = g_thread_try_new (name, stream_thread, self, error);
  return self->thread != NULL;
}

/**
 * cs_record_stream_stop:
 * @self: a #CsRecordStream
 *
 * Asks the thread to move what is left and end.  Call it after tracing was
 * turned off (`tracing_on` = 0), so that the last, partial page is final.
 * Returns at once; cs_record_stream_join() waits.
 */
void
cs_record_stream_stop (CsRecordStream *self)
{
  guint64 one = 1;

  g_return_if_fail (CS_IS_RECORD_STREAM (self));

  if (self->stop_fd >= 0 && write (self->stop_fd, &one, sizeof one) < 0)
    g_debug ("Cannot wake the stream of CPU %u: %s", self->cpu, g_strerror (errno));
}

/**
 * cs_record_stream_join:
 * @self: a #CsRecordStream
 * @error: return location for the thread's error: %CS_RECORD_ERROR_DISK_FULL,
 *   %CS_RECORD_ERROR_OUTPUT or %CS_RECORD_ERROR_FAILED
 *
 * Waits for the thread to end (after cs_record_stream_stop(), or after it
 * failed).
 *
 * Returns: whether every page was written
 */
gboolean
cs_record_stream_join (CsRecordStream  *self,
                       GError         **error)
{
  g_return_val_if_fail (CS_IS_RECORD_STREAM (self), FALSE);

  if (self->thread != NULL)
    {
      g_thread_join (self->thread);
      self->thread = NULL;
    }

  g_mutex_lock (&self->lock);
  if (self->error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->error));
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/**
 * cs_record_stream_has_failed:
 * @self: a #CsRecordStream
 *
 * Returns: whether the thread stopped on an error (disk full…); any thread
 *   may ask
 */
gboolean
cs_record_stream_has_failed (CsRecordStream *self)
{
  gboolean failed;

  g_return_val_if_fail (CS_IS_RECORD_STREAM (self), TRUE);

  g_mutex_lock (&self->lock);
  failed = self->failed;
  g_mutex_unlock (&self->lock);
  return failed;
}

/**
 * cs_record_stream_get_stats:
 * @self: a #CsRecordStream
 * @stats: (out caller-allocates): what was written so far
 *
 * Any thread may ask, at any time.
 */
void
cs_record_stream_get_stats (CsRecordStream      *self,
                            CsRecordStreamStats *stats)
{
  g_return_if_fail (CS_IS_RECORD_STREAM (self));

  g_mutex_lock (&self->lock);
  *stats = self->stats;
  g_mutex_unlock (&self->lock);
}

/**
 * cs_record_stream_get_cpu:
 * @self: a #CsRecordStream
 *
 * Returns: the CPU of this stream
 */
guint
cs_record_stream_get_cpu (CsRecordStream *self)
{
  g_return_val_if_fail (CS_IS_RECORD_STREAM (self), 0);
  return self->cpu;
}

/**
 * cs_record_stream_get_fd:
 * @self: a #CsRecordStream
 *
 * Returns: the temporary file holding the pages (owned by the stream), for
 *   cs_tracedat_writer_set_cpu_data() once the stream was joined
 */
int
cs_record_stream_get_fd (CsRecordStream *self)
{
  g_return_val_if_fail (CS_IS_RECORD_STREAM (self), -1);
  return self->out_fd;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

static void
cs_record_stream_finalize (GObject *object)
{
  CsRecordStream *self = CS_RECORD_STREAM (object);

  if (self->thread != NULL)
    {
      cs_record_stream_stop (self);
      g_thread_join (self->thread);
    }
  close_fd (&self->raw_fd);
  close_fd (&self->out_fd);
  close_fd (&self->stop_fd);
  close_fd (&self->pipe_fds[0]);
  close_fd (&self->pipe_fds[1]);
  if (self->out_path != NULL)
    unlink (self->out_path);
  g_free (self->out_path);
  g_free (self->out_dir);
  g_free (self->buf);
  if (self->kbuf != NULL)
    kbuffer_free (self->kbuf);
  g_clear_error (&self->error);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (cs_record_stream_parent_class)->finalize (object);
}

static void
cs_record_stream_class_init (CsRecordStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_record_stream_finalize;
}

static void
cs_record_stream_init (CsRecordStream *self)
{
  self->raw_fd = -1;
  self->out_fd = -1;
  self->stop_fd = -1;
  self->pipe_fds[0] = -1;
  self->pipe_fds[1] = -1;
  g_mutex_init (&self->lock);
}
