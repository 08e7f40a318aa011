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
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs-index-cache.h"

#define HEADER_HASH_BYTES (1024 * 1024)
#define TEMP_INFIX ".tmp-"

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
                   saved == EACCES ? "Cannot open %s: %s (read permission is needed)"
                                   : "Cannot open %s: %s",
                   trace_path, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s is not a regular file", trace_path);
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
                       "Cannot read %s: %s", trace_path, g_strerror (saved));
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
 * (killed workers, crashes).  Errors are ignored: this is housekeeping.
 */
void
cs_index_cache_remove_stale_temporaries (void)
{
  g_autofree char *dir_path = cs_index_cache_dup_dir ();
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
        continue;
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
