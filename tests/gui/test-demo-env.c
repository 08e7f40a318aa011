/* test-demo-env.c: the environment `sudo chronoscope demo` gives the window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cs_cli_demo_window_environ() on an environment as sudo leaves it (HOME
 * and the runtime folder root's, no WAYLAND_DISPLAY, no session bus) and a
 * runtime root made here in the layout systemd-logind gives /run/user:
 * UID/ with the compositor's socket and the session bus's, real Unix
 * sockets.  No display needed.
 */
#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>

#include "cs-cli-demo.h"
#include "gui-test-util.h"

typedef struct {
  char *root;          /* the runtime root, like /run/user */
  char *runtime;       /* root/UID */
  char *home;
  GPtrArray *sockets;  /* keep them bound */
} Fixture;

static void
make_socket (Fixture *f, const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (path);
  g_autoptr(GError) error = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, &error);

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, address, TRUE, &error));
  g_assert_no_error (error);
  g_ptr_array_add (f->sockets, socket);
}

static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

static void
setup (Fixture *f, gconstpointer data)
{
  g_autofree char *uid = g_strdup_printf ("%u", (guint) getuid ());

  f->root = g_dir_make_tmp ("cs-demo-env-XXXXXX", NULL);
  g_assert_nonnull (f->root);
  f->runtime = g_build_filename (f->root, uid, NULL);
  f->home = g_build_filename (f->root, "home", NULL);
  g_assert_cmpint (g_mkdir (f->runtime, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (f->home, 0700), ==, 0);
  f->sockets = g_ptr_array_new_with_free_func (g_object_unref);
  /* A compositor that is not on wayland-0, its lock file, the bus. */
  make_socket (f, f->runtime, "wayland-1");
  touch (f->runtime, "wayland-1.lock");
  make_socket (f, f->runtime, "bus");
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_ptr_array_unref (f->sockets);
  cs_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->runtime);
  g_free (f->home);
}

/* What sudo leaves by default: root's HOME, DISPLAY kept, nothing of the
 * user's session. */
static char **
sudo_environ (void)
{
  char **envp = NULL;

  envp = g_environ_setenv (envp, "HOME", "/root", TRUE);
  envp = g_environ_setenv (envp, "PATH", "/usr/sbin:/usr/bin", TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", "/root/.cache", TRUE);
  envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", "/nonexistent/run/user/0", TRUE);
  envp = g_environ_setenv (envp, "SUDO_UID", "1000", TRUE);
  return envp;
}

static void
test_from_session (Fixture *f, gconstpointer data)
{
  g_auto(GStrv) envp = cs_cli_demo_window_environ (sudo_environ (), getuid (), f->home, f->root);
  g_autofree char *bus = g_build_filename (f->runtime, "bus", NULL);
  g_autofree char *address = g_strconcat ("unix:path=", bus, NULL);

  g_assert_cmpstr (g_environ_getenv (envp, "HOME"), ==, f->home);
  g_assert_null (g_environ_getenv (envp, "XDG_CACHE_HOME"));
  g_assert_cmpstr (g_environ_getenv (envp, "XDG_RUNTIME_DIR"), ==, f->runtime);
  g_assert_cmpstr (g_environ_getenv (envp, "WAYLAND_DISPLAY"), ==, "wayland-1");
  g_assert_cmpstr (g_environ_getenv (envp, "DBUS_SESSION_BUS_ADDRESS"), ==, address);
  g_assert_cmpstr (g_environ_getenv (envp, "PATH"), ==, "/usr/sbin:/usr/bin");
  g_assert_null (g_environ_getenv (envp, "DISPLAY"));
}

/* sudo -E, or env_keep: what the user's session set is kept. */
static void
test_kept (Fixture *f, gconstpointer data)
{
  char **in = sudo_environ ();
  g_auto(GStrv) envp = NULL;

  make_socket (f, f->runtime, "wayland-0");
  make_socket (f, f->runtime, "wayland-2");
  in = g_environ_setenv (in, "XDG_RUNTIME_DIR", f->runtime, TRUE);
  in = g_environ_setenv (in, "WAYLAND_DISPLAY", "wayland-2", TRUE);
  in = g_environ_setenv (in, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/elsewhere/bus", TRUE);
  in = g_environ_setenv (in, "DISPLAY", ":1", TRUE);
  envp = cs_cli_demo_window_environ (in, getuid (), f->home, "/nonexistent");
  g_assert_cmpstr (g_environ_getenv (envp, "XDG_RUNTIME_DIR"), ==, f->runtime);
  g_assert_cmpstr (g_environ_getenv (envp, "WAYLAND_DISPLAY"), ==, "wayland-2");
  g_assert_cmpstr (g_environ_getenv (envp, "DBUS_SESSION_BUS_ADDRESS"), ==, "unix:path=/elsewhere/bus");
  g_assert_cmpstr (g_environ_getenv (envp, "DISPLAY"), ==, ":1");
}

/* A WAYLAND_DISPLAY with no socket behind it: the session's, wayland-0
 * first as clients default to it. */
static void
test_stale_wayland (Fixture *f, gconstpointer data)
{
  char **in = sudo_environ ();
  g_auto(GStrv) envp = NULL;

  make_socket (f, f->runtime, "wayland-0");
  in = g_environ_setenv (in, "WAYLAND_DISPLAY", "wayland-9", TRUE);
  envp = cs_cli_demo_window_environ (in, getuid (), f->home, f->root);
  g_assert_cmpstr (g_environ_getenv (envp, "WAYLAND_DISPLAY"), ==, "wayland-0");
}

/* No session of the user's (a console, ssh): no runtime folder, no
 * display; the caller prints the command instead. */
static void
test_no_session (Fixture *f, gconstpointer data)
{
  char **in = sudo_environ ();
  g_auto(GStrv) envp = NULL;

  in = g_environ_setenv (in, "WAYLAND_DISPLAY", "wayland-0", TRUE);
  in = g_environ_setenv (in, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus", TRUE);
  envp = cs_cli_demo_window_environ (in, getuid (), f->home, "/nonexistent");
  g_assert_null (g_environ_getenv (envp, "XDG_RUNTIME_DIR"));
  g_assert_null (g_environ_getenv (envp, "WAYLAND_DISPLAY"));
  g_assert_null (g_environ_getenv (envp, "DBUS_SESSION_BUS_ADDRESS"));
  g_assert_null (g_environ_getenv (envp, "DISPLAY"));
}

/* X11: root's cookie file is replaced by the user's ~/.Xauthority; a
 * runtime folder of another user's is not taken. */
static void
test_not_the_users (Fixture *f, gconstpointer data)
{
  g_autofree char *root_cookie = g_build_filename (f->root, "root-xauth", NULL);
  g_autofree char *cookie = g_build_filename (f->home, ".Xauthority", NULL);
  g_autofree char *other = g_build_filename (f->root, "other", NULL);
  char **in = sudo_environ ();
  g_auto(GStrv) envp = NULL;

  if (getuid () != 0)
    {
      g_test_skip ("needs root to give files to another user");
      g_strfreev (in);
      return;
    }
  touch (f->root, "root-xauth");
  touch (f->home, ".Xauthority");
  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  g_assert_cmpint (chown (other, 65534, 65534), ==, 0);
  g_assert_cmpint (chown (root_cookie, 65534, 65534), ==, 0);
  in = g_environ_setenv (in, "DISPLAY", ":0", TRUE);
  in = g_environ_setenv (in, "XAUTHORITY", root_cookie, TRUE);
  in = g_environ_setenv (in, "XDG_RUNTIME_DIR", other, TRUE);
  envp = cs_cli_demo_window_environ (in, getuid (), f->home, f->root);
  g_assert_cmpstr (g_environ_getenv (envp, "DISPLAY"), ==, ":0");
  g_assert_cmpstr (g_environ_getenv (envp, "XAUTHORITY"), ==, cookie);
  g_assert_cmpstr (g_environ_getenv (envp, "XDG_RUNTIME_DIR"), ==, f->runtime);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/cli/demo/window-environ/from-session", Fixture, NULL, setup, test_from_session, teardown);
  g_test_add ("/cs/cli/demo/window-environ/kept", Fixture, NULL, setup, test_kept, teardown);
  g_test_add ("/cs/cli/demo/window-environ/stale-wayland", Fixture, NULL, setup, test_stale_wayland, teardown);
  g_test_add ("/cs/cli/demo/window-environ/no-session", Fixture, NULL, setup, test_no_session, teardown);
  g_test_add ("/cs/cli/demo/window-environ/not-the-users", Fixture, NULL, setup, test_not_the_users, teardown);
  return g_test_run ();
}
