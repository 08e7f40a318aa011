/* cs-output-file.c: writing output files safely (cs-output-file-private.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "cs-output-file-private.h"

gboolean
_cs_record_output_error (GError     **error,
                         int          saved_errno,
                         const char  *format,
                         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  if (saved_errno == ENOSPC || saved_errno == EDQUOT)
    g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_DISK_FULL,
                 _("%s: %s"), what, g_strerror (saved_errno));
  else
    g_set_error (error, CS_RECORD_ERROR, CS_RECORD_ERROR_OUTPUT,
                 _("%s: %s"), what, g_strerror (saved_errno));
  return FALSE;
}

typedef struct {
  gboolean switched;
  int uid;
  int gid;
} FsIdentity;

/* setfsuid() is per thread: callers switch, act and switch back in the same
 * thread.  Only root can switch; anyone else keeps their identity. */
static void
fs_identity_begin (FsIdentity *saved,
                   gint64      uid,
                   gint64      gid)
{
  saved->switched = FALSE;
  if (uid < 0 || geteuid () != 0)
    return;
  saved->gid = setfsgid (gid >= 0 ? (gid_t) gid : getegid ());
  saved->uid = setfsuid ((uid_t) uid);
  saved->switched = TRUE;
}

static void
fs_identity_end (FsIdentity *saved)
{
  if (!saved->switched)
    return;
  setfsuid ((uid_t) saved->uid);
  setfsgid ((gid_t) saved->gid);
}

int
_cs_record_create_temp (const char  *final_path,
                        const char  *suffix,
                        gint64       uid,
                        gint64       gid,
                        char       **temp_path,
                        GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (final_path);
  g_autofree char *base = g_path_get_basename (final_path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX%s", base, suffix);
  g_autofree char *tmpl = g_build_filename (dir, name, NULL);
  FsIdentity id;
  int fd, saved_errno;

  fs_identity_begin (&id, uid, gid);
  fd = g_mkstemp_full (tmpl, O_RDWR | O_CLOEXEC, 0644);
  saved_errno = errno;
  fs_identity_end (&id);

  if (fd < 0)
    {
      _cs_record_output_error (error, saved_errno, _("Cannot create a file in “%s”"), dir);
      return -1;
    }

  *temp_path = g_steal_pointer (&tmpl);
  return fd;
}

/* Runs @op (@from, @to) with the user's file-system identity; FALSE with
 * @error set, naming @what, on failure. */
static gboolean
as_user (int        (*op) (const char *, const char *),
         const char  *from,
         const char  *to,
         gint64       uid,
         gint64       gid,
         const char  *what,
         GError     **error)
{
  FsIdentity id;
  int rc, saved_errno;

  fs_identity_begin (&id, uid, gid);
  rc = op (from, to);
  saved_errno = errno;
  fs_identity_end (&id);

  if (rc != 0)
    return _cs_record_output_error (error, saved_errno, "%s", what);
  return TRUE;
}

gboolean
_cs_record_rename (const char  *from,
                   const char  *to,
                   gint64       uid,
                   gint64       gid,
                   GError     **error)
{
  g_autofree char *what = g_strdup_printf (_("Cannot rename “%s” to “%s”"), from, to);

  return as_user (g_rename, from, to, uid, gid, what, error);
}

gboolean
_cs_record_write_all (int          fd,
                      const void  *data,
                      gsize        len,
                      const char  *path,
                      GError     **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return _cs_record_output_error (error, errno, _("Cannot write “%s”"), path);
      if (n == 0)
        return _cs_record_output_error (error, ENOSPC, _("Cannot write “%s”"), path);
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

gboolean
_cs_record_link (const char  *from,
                 const char  *to,
                 gint64       uid,
                 gint64       gid,
                 GError     **error)
{
  g_autofree char *what = g_strdup_printf (_("Cannot link “%s” to “%s”"), to, from);

  return as_user (link, from, to, uid, gid, what, error);
}
