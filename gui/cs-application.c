/* cs-application.c: the Chronoscope GtkApplication.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One window per recording: files given on the command line or through
 * D-Bus activation open in the active window when it shows nothing yet,
 * otherwise in a new window.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-application.h"
#include "cs-window.h"

struct _CsApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (CsApplication, cs_application, GTK_TYPE_APPLICATION)

static CsWindow *
cs_application_get_empty_window (CsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (CS_IS_WINDOW (window) &&
      cs_window_get_state (CS_WINDOW (window)) == CS_WINDOW_STATE_EMPTY)
    return CS_WINDOW (window);

  return cs_window_new (GTK_APPLICATION (self));
}

static void
cs_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (cs_window_new (GTK_APPLICATION (application)));

  gtk_window_present (window);
}

static void
cs_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  CsApplication *self = CS_APPLICATION (application);

  for (int i = 0; i < n_files; i++)
    {
      CsWindow *window = cs_application_get_empty_window (self);

      cs_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
open_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  CsApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (!CS_IS_WINDOW (window))
    window = GTK_WINDOW (cs_window_new (GTK_APPLICATION (self)));

  gtk_window_present (window);
  cs_window_choose_file (CS_WINDOW (window));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  CsApplication *self = user_data;
  g_autoptr(GList) windows = NULL;

  /* Closing lets each window save its size and stop its indexer. */
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  CsApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char * const authors[] = { "The Chronoscope developers", NULL };

  gtk_show_about_dialog (window,
                         "program-name", _("Chronoscope"),
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("See which task ran on which CPU, and when, in Linux ftrace recordings"),
                         "license-type", GTK_LICENSE_GPL_2_0,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "quit", quit_action },
  { "about", about_action },
};

static void
cs_application_startup (GApplication *application)
{
  static const char * const open_accels[] = { "<Control>o", NULL };
  static const char * const quit_accels[] = { "<Control>q", NULL };
  static const char * const tasks_accels[] = { "<Control>t", NULL };
  static const char * const filters_accels[] = { "<Control><Shift>f", NULL };

  G_APPLICATION_CLASS (cs_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-tasks", tasks_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-filters", filters_accels);
  gtk_window_set_default_icon_name (APP_ID);
}

static void
cs_application_class_init (CsApplicationClass *klass)
{
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  application_class->activate = cs_application_activate;
  application_class->open = cs_application_open;
  application_class->startup = cs_application_startup;
}

static void
cs_application_init (CsApplication *self)
{
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
    _("Shows Linux ftrace recordings (trace-cmd trace.dat files).\n"
      "\n"
      "Commands that need no display:\n"
      "  chronoscope info FILE [--json]\n"
      "  chronoscope render FILE -o OUT.png [--begin NS] [--end NS] [--width PX] [--height PX]"));
}

/**
 * cs_application_new:
 *
 * Returns: (transfer full): the application, not yet running
 */
CsApplication *
cs_application_new (void)
{
  return g_object_new (CS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/chronoscope/Chronoscope",
                       NULL);
}
