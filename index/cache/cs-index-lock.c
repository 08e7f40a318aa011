/* cs-index-lock.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Two windows, or two `chronoscope info` runs, opening the same new
 * recording at once must not both build its index: the second waits for
 * the first and reuses what it built.  The builder holds an exclusive
 * flock() on `<index>.lock` next to the index while it builds and renames;
 * the others wait on that lock, then look for the index again.
 *
 * The lock file is removed by its holder before it lets go, so the cache
 * keeps nothing but indexes.  A waiter may therefore get the lock of a
 * file that is no longer there (or was replaced by a newer one): it checks
 * that the path still names the file it locked, and tries again when not.
 * flock() locks belong to the open file, so this works between threads of
 * one process too, and a killed holder's lock goes with it.
 *
 * The holder writes how far its build is into the lock file ("0.420\n"),
 * and waiters pass that on as their own progress: the second window's
 * progress bar follows the first one's build, and a waiting worker keeps
 * telling its parent something, as a building one does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

#include "cs-index-lock.h"

/* How often a waiter looks at the lock and its cancellable. */
#define POLL_INTERVAL_US (20 * 1000)

/* "0.420\n": the holder's progress at the start of the lock file. */
#define PROGRESS_BYTES 6

struct _CsIndexLock
{
  char *path;
  int fd;
  int permille;             /* last written, -1 when none */
};

/* The holder's progress as its lock file says, or -1. */
static int
read_holder_permille (int fd)
{
  char text[PROGRESS_BYTES + 1] = { 0 };
  char *end = NULL;
  double fraction;

  if (pread (fd, text, PROGRESS_BYTES, 0) != PROGRESS_BYTES || text[PROGRESS_BYTES - 1] != '\n')
    return -1;
  text[PROGRESS_BYTES - 1] = '\0';
  fraction = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(fraction >= 0.0 && fraction <= 1.0))
    return -1;
  return (int) (fraction * 1000 + 0.5);
}

/* creating: TRUE when creating the lock file failed, FALSE when taking the
 * lock on it failed (two whole messages, so translators see sentences). */
static gboolean
set_errno_error (GError     **error,
                 int          saved,
                 gboolean     creating,
                 const char  *path)
{
  if (creating)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                 _("Cannot create the index lock %s: %s"), path, g_strerror (saved));
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                 _("Cannot take the index lock %s: %s"), path, g_strerror (saved));
  return FALSE;
}

/**
 * cs_index_lock_acquire:
 * @index_path: the final path of an index (the lock is `<index_path>.lock`;
 *   its folder must exist)
 * @holder_progress: (nullable): called on this thread, while waiting, with
 *   the holder's progress (0.0 .. 1.0) each time it changes
 * @user_data: for @holder_progress
 * @cancellable: (nullable): stops the wait with %G_IO_ERROR_CANCELLED
 * @waited: (out) (optional): set to whether another holder had to be
 *   waited for, i.e. whether the index may have been built meanwhile
 * @error: %G_FILE_ERROR naming the lock file when it cannot be made or
 *   locked, %G_IO_ERROR_CANCELLED
 *
 * Takes the exclusive right to build @index_path, waiting (polling every
 * 20 ms, so that @cancellable is obeyed promptly) while another process or
 * thread holds it.  Blocks: call it off the main thread.
 *
 * Returns: (transfer full): the lock, to give back with
 *   cs_index_lock_release(), or %NULL with @error set
 */
CsIndexLock *
cs_index_lock_acquire (const char          *index_path,
                       CsIndexProgressFunc  holder_progress,
                       gpointer             user_data,
                       GCancellable        *cancellable,
                       gboolean            *waited,
                       GError             **error)
{
  g_autofree char *path = g_strconcat (index_path, ".lock", NULL);
  int reported = -1;

  if (waited != NULL)
    *waited = FALSE;

  for (;;)
    {
      struct stat held, named;
      int fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

      if (fd < 0)
        {
          set_errno_error (error, errno, TRUE, path);
          return NULL;
        }
      while (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int saved = errno;

          if (saved != EWOULDBLOCK && saved != EINTR)
            {
              close (fd);
              set_errno_error (error, saved, FALSE, path);
              return NULL;
            }
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              close (fd);
              return NULL;
            }
          if (waited != NULL)
            *waited = TRUE;
          if (holder_progress != NULL)
            {
              int permille = read_holder_permille (fd);

              if (permille >= 0 && permille != reported)
                holder_progress (permille / 1000.0, user_data);
              reported = permille >= 0 ? permille : reported;
            }
          g_usleep (POLL_INTERVAL_US);
        }

      /* Still the file the path names?  Its last holder may have removed
       * it (and another process made a new one) while we waited. */
      if (fstat (fd, &held) == 0 && g_stat (path, &named) == 0 &&
          held.st_dev == named.st_dev && held.st_ino == named.st_ino)
        {
          CsIndexLock *lock = g_new0 (CsIndexLock, 1);

          lock->path = g_steal_pointer (&path);
          lock->fd = fd;
          lock->permille = -1;
          return lock;
        }
      close (fd);
    }
}

/**
 * cs_index_lock_set_progress:
 * @lock: a held lock
 * @fraction: how far the build is, 0.0 .. 1.0
 *
 * Tells the waiters how far the build is (they read it every 20 ms).
 * Writes only when the value changed by a thousandth; errors are ignored.
 * Any thread, one at a time.
 */
void
cs_index_lock_set_progress (CsIndexLock *lock,
                            double       fraction)
{
  int permille = (int) (CLAMP (fraction, 0.0, 1.0) * 1000 + 0.5);
  char text[PROGRESS_BYTES + 1];

  if (permille == lock->permille)
    return;
  lock->permille = permille;
  g_snprintf (text, sizeof text, "%d.%03d\n", permille / 1000, permille % 1000);
  if (pwrite (lock->fd, text, PROGRESS_BYTES, 0) != PROGRESS_BYTES)
    g_debug ("Cannot write the build's progress into %s: %s", lock->path, g_strerror (errno));
}

/**
 * cs_index_lock_release:
 * @lock: (transfer full) (nullable): from cs_index_lock_acquire()
 *
 * Removes the lock file and lets the next waiter in.  Any thread.
 */
void
cs_index_lock_release (CsIndexLock *lock)
{
  if (lock == NULL)
    return;
  /* Removed while still held, so nobody can lock it after this and
   * believe it current (see cs_index_lock_acquire()). */
  g_unlink (lock->path);
  close (lock->fd);
  g_free (lock->path);
  g_free (lock);
}

/**
 * cs_index_lock_remove_stale:
 * @lock_path: a `<index>.lock` file
 *
 * Removes @lock_path when no one holds it: what a holder killed before
 * cs_index_lock_release() leaves (its flock() went with it, its file did
 * not).  Safe against a process taking the lock meanwhile: the file is
 * removed while locked here, and acquirers check that the path still names
 * the file they locked.  Errors are ignored: this is housekeeping.
 *
 * Returns: whether @lock_path was removed
 */
gboolean
cs_index_lock_remove_stale (const char *lock_path)
{
  struct stat held, named;
  gboolean removed = FALSE;
  int fd = g_open (lock_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);

  if (fd < 0)
    return FALSE;
  if (flock (fd, LOCK_EX | LOCK_NB) == 0 &&
      fstat (fd, &held) == 0 && g_stat (lock_path, &named) == 0 &&
      held.st_dev == named.st_dev && held.st_ino == named.st_ino)
    removed = g_unlink (lock_path) == 0;
  close (fd);
  return removed;
}
