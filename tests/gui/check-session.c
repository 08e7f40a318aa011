/* check-session.c: the session a window test gets from gui_test_launcher
 * (tests/gui/meson.build): an X display GTK opens and a session bus.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Run by tests/kmod/test-deep-paths.sh under the launcher, from a folder
 * deeper than a UNIX socket's path may be.  Prints what it found and exits
 * 0, or says what is missing and exits 1.
 */
#include "config.h"

#include <gtk/gtk.h>

int
main (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  GdkDisplay *display;

  if (!gtk_init_check ())
    {
      g_printerr ("GTK cannot open the display \"%s\" (XAUTHORITY %s)\n",
                  g_getenv ("DISPLAY"), g_getenv ("XAUTHORITY"));
      return 1;
    }
  display = gdk_display_get_default ();
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("No session bus at \"%s\": %s\n",
                  g_getenv ("DBUS_SESSION_BUS_ADDRESS"), error->message);
      return 1;
    }
  g_print ("display %s (XAUTHORITY %s), session bus %s as %s\n",
           gdk_display_get_name (display), g_getenv ("XAUTHORITY"),
           g_getenv ("DBUS_SESSION_BUS_ADDRESS"), g_dbus_connection_get_unique_name (bus));
  return 0;
}
