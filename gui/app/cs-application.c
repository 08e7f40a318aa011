/* cs-application.c: the Chronoscope AdwApplication.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One window per recording: files given on the command line or through
 * D-Bus activation open in the active window when it shows nothing yet,
 * otherwise in a new window.
 *
 * KernelShark's options, with its meaning: -i FILE (the recording), -s FILE
 * (a session), -l (the last session), --cpu 1,4-7 (which CPU plots),
 * --pid 12,34 and --task bash,make (task plots).  --demo=NAME opens the
 * files as recordings of that classroom demo, with markers A and B around
 * its latency (what `chronoscope demo NAME` runs after recording).  --compare
 * FILE2 shows FILE2 under each file, to compare (cs-compare.c).  They are handled in the
 * primary instance (G_APPLICATION_HANDLES_COMMAND_LINE), so a second
 * `chronoscope -i x.dat --pid 12` opens a window in the running one.
 * Without a file, the last session is restored at start when the
 * restore-session setting is on.
 *
 * AdwApplication (libadwaita 1.2) loads style.css from the resources and
 * gives the style manager; the color-scheme setting (default: follow the
 * desktop) is bound to it.  App actions: open, quit, preferences, about.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-about.h"
#include "cs-analysis.h"
#include "cs-application.h"
#include "cs-cli-plugins.h"
#include "cs-plot-args.h"
#include "cs-preferences-window.h"
#include "cs-session.h"
#include "cs-window.h"
#include "cs-window-streams.h"
#include "cs-window-demo.h"
#include "cs-compare.h"
#include "cs-window-settings.h"
#include "cs-demo.h"

struct _CsApplication
{
  AdwApplication parent_instance;

  /* owned */
  GSettings *settings;          /* NULL without the schema (uninstalled) */
};

G_DEFINE_FINAL_TYPE (CsApplication, cs_application, ADW_TYPE_APPLICATION)

static CsWindow *
cs_application_get_empty_window (CsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (CS_IS_WINDOW (window) &&
      cs_window_get_state (CS_WINDOW (window)) == CS_WINDOW_STATE_EMPTY)
    return CS_WINDOW (window);

  return cs_window_new (GTK_APPLICATION (self));
}

/* The restore-session setting, when the schema is installed. */
static gboolean
cs_application_wants_last_session (void)
{
  g_autoptr(GSettings) settings = _cs_settings_lookup ((const char * const[]) { "restore-session", NULL });

  return settings != NULL && g_settings_get_boolean (settings, "restore-session");
}

static void
cs_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    {
      window = GTK_WINDOW (cs_window_new (GTK_APPLICATION (application)));
      if (cs_application_wants_last_session ())
        {
          g_autofree char *path = cs_session_get_last_path ();
          g_autoptr(GError) error = NULL;

          if (g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
              !cs_window_open_session (CS_WINDOW (window), path, &error))
            g_message ("Could not restore the last session: %s", error->message);
        }
    }

  gtk_window_present (window);
}

static int
cs_application_command_line (GApplication            *application,
                             GApplicationCommandLine *command_line)
{
  CsApplication *self = CS_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autoptr(GArray) cpus = NULL;
  g_autoptr(GArray) pids = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) comms = NULL;
  g_autofree const char **remaining = NULL;
  g_autofree const char **inputs = NULL;
  CsWindow *input_window = NULL;
  g_autofree char *session = NULL;
  const char *session_arg = NULL, *cpu_list = NULL, *pid_list = NULL;
  const char *comm_list = NULL, *demo = NULL, *compare = NULL;
  g_autoptr(GFile) compare_file = NULL;
  gboolean last_session = FALSE;

  g_variant_dict_lookup (options, "input", "^a&ay", &inputs);
  g_variant_dict_lookup (options, "session", "^&ay", &session_arg);
  g_variant_dict_lookup (options, "last-session", "b", &last_session);
  g_variant_dict_lookup (options, "cpu", "&s", &cpu_list);
  g_variant_dict_lookup (options, "pid", "&s", &pid_list);
  g_variant_dict_lookup (options, "task", "&s", &comm_list);
  g_variant_dict_lookup (options, "demo", "&s", &demo);
  g_variant_dict_lookup (options, "compare", "^&ay", &compare);
  if (compare != NULL)
    compare_file = g_application_command_line_create_file_for_arg (command_line, compare);
  if (demo != NULL && cs_demo_lookup (demo) == NULL)
    {
      g_application_command_line_printerr (command_line,
                                           _("chronoscope: no demo is called “%s” (see chronoscope demo --list)\n"),
                                           demo);
      return 1;
    }
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &remaining);

  if ((cpu_list != NULL && (cpus = cs_plot_args_parse_cpus (cpu_list, &error)) == NULL) ||
      (pid_list != NULL && (pids = cs_plot_args_parse_pids (pid_list, &error)) == NULL))
    {
      g_application_command_line_printerr (command_line, "chronoscope: %s\n", error->message);
      return 1;
    }
  comms = comm_list != NULL ? cs_plot_args_split_comms (comm_list) : NULL;

  /* -i FILE: the first opens a window, the others join it as streams */
  if (inputs != NULL && inputs[0] != NULL)
    g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line, inputs[0]));
  for (guint i = 0; remaining != NULL && remaining[i] != NULL; i++)
    g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line, remaining[i]));

  if (session_arg != NULL)
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line, session_arg);

      session = g_file_get_path (file);
    }
  else if (last_session)
    {
      session = cs_session_get_last_path ();
      if (!g_file_test (session, G_FILE_TEST_IS_REGULAR))
        {
          g_application_command_line_printerr (command_line, _("chronoscope: no last session (%s)\n"),
                                               session);
          g_clear_pointer (&session, g_free);
        }
    }

  if (session != NULL)
    {
      CsWindow *window = cs_application_get_empty_window (self);

      if (!cs_window_open_session (window, session, &error))
        {
          g_application_command_line_printerr (command_line, "chronoscope: %s\n", error->message);
          if (files->len == 0)
            gtk_window_destroy (GTK_WINDOW (window));
          g_clear_error (&error);
        }
      else
        gtk_window_present (GTK_WINDOW (window));
    }

  for (guint i = 0; i < files->len; i++)
    {
      CsWindow *window = cs_application_get_empty_window (self);

      cs_analysis_set_startup_plots (cs_window_get_analysis (window), cpus, pids,
                                     (const char * const *) comms);
      if (demo != NULL)
        cs_window_open_demo (window, g_ptr_array_index (files, i), demo);
      else
        cs_window_open_file (window, g_ptr_array_index (files, i));
      if (i == 0 && inputs != NULL && inputs[0] != NULL)
        input_window = window;
      if (compare_file != NULL)
        cs_compare_open (cs_compare_get_for (GTK_APPLICATION_WINDOW (window)), compare_file);
      gtk_window_present (GTK_WINDOW (window));
    }

  for (guint i = 1; input_window != NULL && inputs[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_application_command_line_create_file_for_arg (command_line, inputs[i]);

      cs_window_add_file (input_window, file);
    }

  if (session == NULL && files->len == 0)
    g_application_activate (application);
  return 0;
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

/* app.about and app.preferences: their window over the active one. */
static void
show_window_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *name = g_action_get_name (G_ACTION (action));

  gtk_window_present (g_str_equal (name, "about") ? cs_about_window_new (parent)
                                                  : cs_preferences_window_new (parent));
}

/* color-scheme ("default", "light", "dark") → AdwStyleManager:color-scheme */
static gboolean
color_scheme_mapping (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  if (g_str_equal (scheme, "light"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_str_equal (scheme, "dark"))
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    g_value_set_enum (value, ADW_COLOR_SCHEME_DEFAULT);
  return TRUE;
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "quit", quit_action },
  { "about", show_window_action },
  { "preferences", show_window_action },
};

/* Every action of the menu that needs no parameter has a key, listed in
 * the shortcuts window (gtk/help-overlay.ui); About is reached through the
 * menu (F10), as the HIG has it. */
static const struct {
  const char *action;
  const char *accels[3];
} accels[] = {
  { "app.open", { "<Control>o", NULL } },
  { "win.add-recording", { "<Control><Shift>a", NULL } },
  { "win.streams-show-all", { "<Control><Shift>h", NULL } },
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.record", { "<Control>r", NULL } },
  { "win.demo", { "<Control><Shift>d", NULL } },
  { "win.open-session", { "<Control><Shift>o", NULL } },
  { "win.save-session", { "<Control>s", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.show-tasks", { "<Control>t", NULL } },
  { "win.show-filters", { "<Control><Shift>f", NULL } },
  { "win.show-stats", { "<Control>i", NULL } },
  { "win.compare", { "<Control><Shift>c", NULL } },
  { "win.plugins", { "<Control><Shift>p", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
};

static void
cs_application_startup (GApplication *application)
{
  CsApplication *self = CS_APPLICATION (application);

  G_APPLICATION_CLASS (cs_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (application), accels[i].action,
                                           accels[i].accels);
  gtk_window_set_default_icon_name (APP_ID);

  self->settings = _cs_settings_lookup ((const char * const[]) { "color-scheme", NULL });
  if (self->settings != NULL)
    g_settings_bind_with_mapping (self->settings, "color-scheme",
                                  adw_application_get_style_manager (ADW_APPLICATION (self)),
                                  "color-scheme", G_SETTINGS_BIND_GET, color_scheme_mapping,
                                  NULL, NULL, NULL);
}

static void
cs_application_dispose (GObject *object)
{
  CsApplication *self = CS_APPLICATION (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cs_application_parent_class)->dispose (object);
}

static void
cs_application_class_init (CsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = cs_application_dispose;

  application_class->activate = cs_application_activate;
  application_class->command_line = cs_application_command_line;
  application_class->open = cs_application_open;
  application_class->startup = cs_application_startup;
}

static void
cs_application_init (CsApplication *self)
{
  static const GOptionEntry options[] = {
    { "input", 'i', 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, N_("Open the recording FILE; more -i FILE show more recordings on the same time axis"), N_("FILE") },
    { "session", 's', 0, G_OPTION_ARG_FILENAME, NULL, N_("Restore the session saved in FILE"), N_("FILE") },
    { "last-session", 'l', 0, G_OPTION_ARG_NONE, NULL, N_("Restore the last session"), NULL },
    { "cpu", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Show these CPU plots, as 1,4-7 (default: CPUs with events)"), N_("LIST") },
    { "pid", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Add task plots for these pids"), N_("PID[,PID]") },
    { "task", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Add task plots for the tasks with these command names"), N_("COMM[,COMM]") },
    { "demo", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Open FILE as a recording of this classroom demo, with markers A and B around its latency"), N_("NAME") },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Compare FILE with the recording FILE2, shown under it"), N_("FILE2") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE]"));
  g_autofree char *plugin_commands = cs_cli_plugins_dup_help ();
  g_autofree char *summary = NULL;

  summary = g_strconcat (
    _("Shows Linux ftrace recordings (trace-cmd trace.dat files).\n"
      "\n"
      "Commands that need no display:\n"
      "  chronoscope info FILE [--json] [--peer HOST-OR-GUEST.dat]\n"
      "  chronoscope render FILE -o OUT.png [--begin NS] [--end NS] [--width PX] [--height PX]\n"
      "                     [--cpu LIST] [--pid PID[,PID]] [--task COMM[,COMM]] [--row PLUGIN:KEY]\n"
      "  chronoscope record [OPTION…] [-- COMMAND …]   (root)\n"
      "  chronoscope demo --list | NAME [--no-open] [--module PATH.ko]   (root)\n"
      "  chronoscope query FILE 'SQL' [--csv | --json] | --tables | --schema TABLE\n"
      "  chronoscope stats FILE [--begin NS] [--end NS] [--json] [--compare FILE2]"),
    plugin_commands,
    _("\n\n-p/--plugin FILE.so loads one more plugin, for the window and every command."),
    _("\n-q/--quiet: no progress line on stderr (drawn only when stderr is a terminal)."),
    NULL);
  g_application_set_option_context_summary (G_APPLICATION (self), summary);
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
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/org/chronoscope/Chronoscope",
                       NULL);
}
