/* cs-index-cache.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An index is named after the identity of its recording: device, inode,
 * size and mtime say "the same file, unchanged"; a hash of the first MiB
 * (the headers: formats, kallsyms, options) catches a file rewritten in
 * place with the same size within the mtime granularity.  The identity is
 * also stored inside the index, so that a hash collision of names or a
 * file copied into the cache by hand is caught when it is opened.
 *
 * When the cache folder cannot be created or written (a read-only home, a
 * path under a file), recordings are indexed into a temporary folder of
 * the system's (`$TMPDIR/chronoscope-index-XXXXXX`) instead, removed when
 * the process that opened the index exits: the recording opens, and is
 * indexed again next time.  A worker process hands its temporary folder
 * over to its parent (cs_index_cache_keep_temporaries() in the worker,
 * cs_index_cache_adopt_temporary() in the parent).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "cs-index-cache.h"
#include "cs-index-lock.h"

#define HEADER_HASH_BYTES (1024 * 1024)
#define TEMP_INFIX ".tmp-"
#define FALLBACK_PREFIX "chronoscope-index-"

/* Temporary index folders this process removes at exit. */
static GMutex fallback_lock;
static char *fallback_dir;         /* the one this process made, or NULL */
static GPtrArray *owned_dirs;      /* char*: folders to remove at exit */
static gboolean exit_hook_installed;

/**
 * cs_index_cache_dup_dir:
 *
 * Returns: (transfer full): `$XDG_CACHE_HOME/chronoscope`, where indexes are
 *   kept (it may not exist yet)
 */
char *
cs_index_cache_dup_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "chronoscope", NULL);
}

/**
 * cs_index_cache_compute_identity:
 * @trace_path: a recording
 * @error: a %G_FILE_ERROR naming the path when it cannot be read
 *
 * Computes the identity an index records of its recording: a text of the
 * form `dev:ino:size:mtime_ns:sha256-of-first-MiB`.  Reads at most 1 MiB.
 *
 * Returns: (transfer full): the identity, or %NULL with @error set
 */
char *
cs_index_cache_compute_identity (const char  *trace_path,
                                 GError     **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buf = NULL;
  struct stat st;
  gsize want, got = 0;
  int fd;

  fd = g_open (trace_path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;
      if (fd >= 0)
        close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   saved == EACCES ? _("Cannot open %s: %s (read permission is needed)")
                                   : _("Cannot open %s: %s"),
                   trace_path, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is not a regular file"), trace_path);
      return NULL;
    }

  want = MIN ((guint64) st.st_size, HEADER_HASH_BYTES);
  buf = g_malloc (MAX (want, 1));
  while (got < want)
    {
      ssize_t n = pread (fd, buf + got, want - got, got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = n < 0 ? errno : EIO;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Cannot read %s: %s"), trace_path, g_strerror (saved));
          return NULL;
        }
      got += n;
    }
  close (fd);
  g_checksum_update (sum, buf, want);

  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT
                          ":%" G_GINT64_FORMAT ":%s",
                          (guint64) st.st_dev, (guint64) st.st_ino, (gint64) st.st_size,
                          (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) +
                          st.st_mtim.tv_nsec,
                          g_checksum_get_string (sum));
}

/**
 * cs_index_cache_dup_index_path:
 * @identity: from cs_index_cache_compute_identity()
 *
 * Returns: (transfer full): the path of the index for that identity, in
 *   cs_index_cache_dup_dir()
 */
char *
cs_index_cache_dup_index_path (const char *identity)
{
  g_autofree char *dir = cs_index_cache_dup_dir ();

  return cs_index_cache_dup_index_path_in (dir, identity);
}

/**
 * cs_index_cache_dup_index_path_in:
 * @dir: a folder of indexes (cs_index_cache_dup_writable_dir())
 * @identity: from cs_index_cache_compute_identity()
 *
 * Returns: (transfer full): the path of the index for that identity in @dir
 */
char *
cs_index_cache_dup_index_path_in (const char *dir,
                                  const char *identity)
{
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, identity, -1);
  g_autofree char *name = g_strdup_printf ("%.32s.csindex", hash);

  return g_build_filename (dir, name, NULL);
}

/**
 * cs_index_cache_dup_temporary_path:
 * @index_path: the final path of an index
 * @pid: the process that builds it
 *
 * An index is built under this name and renamed to @index_path when
 * complete, so an interrupted build never leaves something that looks like
 * an index.  The pid in the name lets cs_index_cache_remove_stale_temporaries()
 * and the window remove what a killed worker left.
 *
 * Returns: (transfer full): `<index_path>.tmp-<pid>`
 */
char *
cs_index_cache_dup_temporary_path (const char *index_path,
                                   GPid        pid)
{
  return g_strdup_printf ("%s" TEMP_INFIX "%d", index_path, (int) pid);
}

/**
 * cs_index_cache_remove_stale_temporaries:
 *
 * Deletes the temporary files of builds whose process no longer exists
 * (killed workers, crashes), and the lock files they held
 * (cs_index_lock_remove_stale()), in the cache folder
 * (cs_index_cache_dup_dir()).  Errors are ignored: this is housekeeping.
 */
void
cs_index_cache_remove_stale_temporaries (void)
{
  g_autofree char *dir_path = cs_index_cache_dup_dir ();

  cs_index_cache_remove_stale_temporaries_in (dir_path);
}

/**
 * cs_index_cache_remove_stale_temporaries_in:
 * @dir_path: the folder a build wrote in: the cache folder, or the
 *   temporary folder of a cache that could not be written
 *   (cs_index_cache_dup_writable_dir())
 *
 * cs_index_cache_remove_stale_temporaries() in @dir_path.  The parent of a
 * killed worker calls it with the folder of the worker's temporary index,
 * which is not always its own cache folder (the worker may have fallen
 * back on a temporary one, or been given another XDG_CACHE_HOME).
 */
void
cs_index_cache_remove_stale_temporaries_in (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      const char *infix = strstr (name, TEMP_INFIX);
      guint64 pid;

      char *end = NULL;

      if (infix == NULL)
        {
          /* A lock file its killed holder left (cs-index-lock.c). */
          if (g_str_has_suffix (name, ".csindex.lock"))
            {
              g_autofree char *lock_path = g_build_filename (dir_path, name, NULL);
              cs_index_lock_remove_stale (lock_path);
            }
          continue;
        }
      /* <index>.tmp-<pid>, and the side files of its summary threads,
       * <index>.tmp-<pid>-summary<n>. */
      pid = g_ascii_strtoull (infix + strlen (TEMP_INFIX), &end, 10);
      if (end == infix + strlen (TEMP_INFIX) || pid == 0 || pid > G_MAXINT ||
          (*end != '\0' && *end != '-'))
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;

      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_unlink (path);
    }
}

/* Whether a file can be made in @dir, creating it if needed. */
static gboolean
probe_dir (const char  *dir,
           GError     **error)
{
  g_autofree char *probe = NULL;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot create the index cache folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  probe = g_build_filename (dir, ".write-test-XXXXXX", NULL);
  fd = g_mkstemp_full (probe, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Cannot write in the index cache folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

static void
remove_folder (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      g_unlink (file);
    }
  g_rmdir (path);
}

static void
remove_owned_dirs (void)
{
  g_mutex_lock (&fallback_lock);
  for (guint i = 0; owned_dirs != NULL && i < owned_dirs->len; i++)
    remove_folder (g_ptr_array_index (owned_dirs, i));
  g_clear_pointer (&owned_dirs, g_ptr_array_unref);
  g_mutex_unlock (&fallback_lock);
}

/* Called with fallback_lock held. */
static void
own_dir_locked (const char *dir)
{
  if (owned_dirs == NULL)
    owned_dirs = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < owned_dirs->len; i++)
    if (g_str_equal (g_ptr_array_index (owned_dirs, i), dir))
      return;
  g_ptr_array_add (owned_dirs, g_strdup (dir));
  if (!exit_hook_installed)
    {
      atexit (remove_owned_dirs);
      exit_hook_installed = TRUE;
    }
}

/**
 * cs_index_cache_dup_writable_dir:
 * @fallback_reason: (out) (optional) (transfer full) (nullable): set, when
 *   the cache folder cannot be used, to why (naming the folder and the
 *   system's error); %NULL otherwise
 * @error: a %G_FILE_ERROR when neither the cache folder nor a temporary
 *   folder can be written
 *
 * The folder indexes are built in: cs_index_cache_dup_dir(), created when
 * missing, when a file can be made there; otherwise this process's
 * temporary folder (`$TMPDIR/chronoscope-index-XXXXXX`, mode 0700), made
 * once and removed with its contents when the process exits (unless
 * cs_index_cache_keep_temporaries() is called).  Touches the file system:
 * call it where a few milliseconds of blocking are fine.  Thread-safe.
 *
 * Returns: (transfer full) (nullable): the folder, or %NULL with @error set
 */
char *
cs_index_cache_dup_writable_dir (char   **fallback_reason,
                                 GError **error)
{
  g_autofree char *dir = cs_index_cache_dup_dir ();
  g_autoptr(GError) probe_error = NULL;
  g_autoptr(GError) tmp_error = NULL;
  char *result = NULL;

  if (fallback_reason != NULL)
    *fallback_reason = NULL;
  if (probe_dir (dir, &probe_error))
    return g_steal_pointer (&dir);

  g_mutex_lock (&fallback_lock);
  if (fallback_dir == NULL)
    {
      fallback_dir = g_dir_make_tmp (FALLBACK_PREFIX "XXXXXX", &tmp_error);
      if (fallback_dir != NULL)
        own_dir_locked (fallback_dir);
    }
  result = g_strdup (fallback_dir);
  g_mutex_unlock (&fallback_lock);

  if (result == NULL)
    {
      g_set_error (error, G_FILE_ERROR, probe_error->code,
                   _("%s; a temporary folder cannot be made either: %s"),
                   probe_error->message, tmp_error->message);
      return NULL;
    }
  if (fallback_reason != NULL)
    *fallback_reason = g_strdup (probe_error->message);
  return result;
}

/**
 * cs_index_cache_is_temporary:
 * @index_path: the path of an index
 *
 * Returns: whether @index_path lies in a temporary index folder
 *   (cs_index_cache_dup_writable_dir()'s fallback, made by any process)
 */
gboolean
cs_index_cache_is_temporary (const char *index_path)
{
  g_autofree char *dir = g_path_get_dirname (index_path);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *name = g_path_get_basename (dir);

  return g_str_has_prefix (name, FALLBACK_PREFIX) &&
         g_strcmp0 (parent, g_get_tmp_dir ()) == 0;
}

/**
 * cs_index_cache_adopt_temporary:
 * @index_path: an index built by another process (a worker)
 *
 * When @index_path lies in a temporary index folder, this process removes
 * that folder with its contents when it exits.  Does nothing for an index
 * in the cache.  Thread-safe.
 */
void
cs_index_cache_adopt_temporary (const char *index_path)
{
  g_autofree char *dir = NULL;

  if (!cs_index_cache_is_temporary (index_path))
    return;
  dir = g_path_get_dirname (index_path);
  g_mutex_lock (&fallback_lock);
  own_dir_locked (dir);
  g_mutex_unlock (&fallback_lock);
}

/**
 * cs_index_cache_keep_temporaries:
 *
 * This process will not remove its temporary index folders at exit: an
 * index worker calls it once it has told its parent where the index is, so
 * that the parent, which adopts the folder, can open it.  Thread-safe.
 */
void
cs_index_cache_keep_temporaries (void)
{
  g_mutex_lock (&fallback_lock);
  g_clear_pointer (&owned_dirs, g_ptr_array_unref);
  g_mutex_unlock (&fallback_lock);
}
