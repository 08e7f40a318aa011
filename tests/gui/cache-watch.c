/* cache-watch.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cache-watch.h"

/* Starts counting what is made in @folder, which must exist: returns an
 * inotify descriptor to close with close(). */
int
cs_test_cache_watch_new (const char *folder)
{
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (inotify_add_watch (fd, folder, IN_CREATE), >=, 0);
  return fd;
}

/* The files made since the last call whose names contain @infix. */
guint
cs_test_cache_watch_count (int         watch,
                           const char *infix)
{
  char buf[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
  guint n = 0;
  ssize_t len;

  while ((len = read (watch, buf, sizeof buf)) > 0)
    for (char *p = buf; p < buf + len; )
      {
        const struct inotify_event *ev = (const struct inotify_event *) p;

        n += ev->len > 0 && strstr (ev->name, infix) != NULL;
        p += sizeof (struct inotify_event) + ev->len;
      }
  return n;
}
