/* test-adwaita.c: the libadwaita window under Xvfb (issue 15, part 2).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process on tests/data/sched-irq-v6.dat:
 * the window type, the status page shown without a recording and its
 * buttons, the recent recordings (GtkRecentManager, in the test's own
 * XDG_DATA_HOME), the About window's version, the dark style reaching the
 * timeline's pixels but not an export, the Preferences window bound to
 * GSettings, and the shortcuts window listing every action with a key.
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cs-about.h"
#include "cs-cli.h"
#include "cs-export.h"
#include "cs-plugin-host.h"
#include "cs-preferences-window.h"
#include "cs-plugins-dialog.h"
#include "cs-recent-list.h"
#include "cs-theme.h"
#include "cs-timeline.h"
#include "cs-window.h"
#include "gui-test-util.h"

/* A button whose action is @action. */
static gboolean
is_action_button (GtkWidget *widget, gconstpointer action)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0;
}

/* The primary menu: a menu button with the open-menu icon. */
static gboolean
is_primary_menu (GtkWidget *widget, gconstpointer unused)
{
  return GTK_IS_MENU_BUTTON (widget) &&
         g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)), "open-menu-symbolic") == 0;
}

static GtkWidget *
find_primary_menu (GtkWidget *root)
{
  return cs_test_find_where (root, is_primary_menu, NULL);
}

/* A mapped label whose text (markup removed) is @text. */
static gboolean
is_label_with_text (GtkWidget *widget, gconstpointer text)
{
  GtkWidget *ancestor;

  if (!GTK_IS_LABEL (widget) || g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) != 0)
    return FALSE;
  for (ancestor = widget; ancestor != NULL; ancestor = gtk_widget_get_parent (ancestor))
    if (!gtk_widget_get_mapped (ancestor))
      return FALSE;
  return TRUE;
}

/* The actions of @menu's items, section by section, NULL-terminated. */
static GPtrArray *
menu_actions (GMenuModel *menu)
{
  GPtrArray *actions = g_ptr_array_new_with_free_func (g_free);

  for (int s = 0; s < g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);

      for (int i = 0; section != NULL && i < g_menu_model_get_n_items (section); i++)
        {
          char *action = NULL;

          if (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
            g_ptr_array_add (actions, action);
        }
    }
  g_ptr_array_add (actions, NULL);
  return actions;
}

typedef struct {
  GtkWidget *root;
  const char *text;
} LabelWait;

static gboolean
label_shows (gpointer data)
{
  LabelWait *wait = data;

  return cs_test_find_where (wait->root, is_label_with_text, wait->text) != NULL;
}

/* Without a recording: an AdwApplicationWindow with an AdwHeaderBar showing
 * the status page, whose Open, Record and Classroom Demos buttons are
 * there and enabled; the primary menu is in the header bar. */
static void
test_status_page (void)
{
  CsWindow *window = cs_test_new_window (1000, 700);
  GtkWidget *status, *header;
  static const char * const buttons[] = { "app.open", "win.record", "win.demo" };

  g_assert_true (ADW_IS_APPLICATION_WINDOW (window));
  header = cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  g_assert_nonnull (header);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);

  status = cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE);
  g_assert_nonnull (status);
  cs_test_wait_until (cs_test_widget_is_drawable, status, "the status page");
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "Open a Recording");
  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    {
      GtkWidget *button = cs_test_find_where (status, is_action_button, buttons[i]);

      g_assert_nonnull (button);
      g_assert_true (gtk_widget_is_drawable (button));
      g_assert_true (gtk_widget_is_sensitive (button));
    }
  {
    GtkWidget *menu = find_primary_menu (header);
    GMenuModel *model;
    g_autoptr(GPtrArray) actions = NULL;

    /* The primary menu: the open-menu icon, with Preferences, Keyboard
     * Shortcuts and About in its model. */
    g_assert_nonnull (menu);
    model = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu));
    actions = menu_actions (model);
    g_assert_true (g_strv_contains ((const char * const *) actions->pdata, "app.preferences"));
    g_assert_true (g_strv_contains ((const char * const *) actions->pdata, "win.show-help-overlay"));
    g_assert_true (g_strv_contains ((const char * const *) actions->pdata, "app.about"));
  }
  cs_test_save_screenshot (GTK_WIDGET (window), "adwaita-status-page.png");

  /* Destroyed, the window goes at once (its dispose stops its indexer and
   * plugin passes): nothing of the new widgets keeps it alive. */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  cs_test_destroy_window (window);
  g_assert_null (window);
}

typedef struct {
  CsRecentList *list;
  const char *uri;
} RecentWait;

static gboolean
recent_lists (gpointer data)
{
  RecentWait *wait = data;
  g_autofree char *first = NULL;

  if (cs_recent_list_get_n_items (wait->list) == 0)
    return FALSE;
  first = cs_recent_list_dup_uri (wait->list, 0);
  return g_strcmp0 (first, wait->uri) == 0;
}

/* Opening a recording adds it to GtkRecentManager; a new window's status
 * page lists it first, and activating the row opens it. */
static void
test_recent (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsWindow *second;
  GtkRecentInfo *info;
  GtkWidget *list, *row;
  RecentWait wait;

  info = gtk_recent_manager_lookup_item (gtk_recent_manager_get_default (), uri, NULL);
  g_assert_nonnull (info);
  g_assert_true (gtk_recent_info_has_application (info, CS_RECENT_APP_NAME));
  g_assert_cmpstr (gtk_recent_info_get_mime_type (info), ==, "application/x-trace-cmd");
  gtk_recent_info_unref (info);

  second = cs_test_new_window (1000, 700);
  list = cs_test_find_widget (GTK_WIDGET (second), CS_TYPE_RECENT_LIST);
  g_assert_nonnull (list);
  wait = (RecentWait) { CS_RECENT_LIST (list), uri };
  cs_test_wait_until (recent_lists, &wait, "the recording in the recent list");
  cs_test_wait_until (cs_test_widget_is_drawable, list, "the recent list");
  g_assert_nonnull (cs_test_find_visible_label (list, "sched-irq-v6.dat", GTK_WIDGET (second)));

  cs_test_save_screenshot (GTK_WIDGET (second), "adwaita-recent.png");
  row = cs_test_find_widget (list, GTK_TYPE_LIST_BOX_ROW);
  g_assert_nonnull (row);
  g_signal_emit_by_name (gtk_widget_get_parent (row), "row-activated", row);
  cs_test_wait_until (cs_test_window_is_ready, second, "the recent recording");
  g_assert_true (g_file_equal (cs_window_get_file (second), file));

  cs_test_destroy_window (second);
  cs_test_destroy_window (window);
}

/* The About window is an AdwAboutWindow with meson's version, the licence
 * and the issue URL. */
static void
test_about (void)
{
  CsWindow *window = cs_test_new_window (800, 600);
  GtkWindow *about = cs_about_window_new (GTK_WINDOW (window));

  g_assert_true (ADW_IS_ABOUT_WINDOW (about));
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (about)), ==, PACKAGE_VERSION);
  g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==, "Chronoscope");
  g_assert_cmpint (adw_about_window_get_license_type (ADW_ABOUT_WINDOW (about)), ==, GTK_LICENSE_GPL_2_0);
  g_assert_true (g_str_has_prefix (adw_about_window_get_issue_url (ADW_ABOUT_WINDOW (about)), "https://"));
  g_assert_cmpstr (adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about)), ==, APP_ID);
  gtk_window_present (about);
  cs_test_wait_until (cs_test_widget_is_drawable, about, "the About window");
  {
    LabelWait wait = { GTK_WIDGET (about), PACKAGE_VERSION };

    cs_test_wait_until (label_shows, &wait, "the version in the About window");
  }
  cs_test_save_screenshot (GTK_WIDGET (about), "adwaita-about.png");
  gtk_window_destroy (about);

  /* app.about opens one too, over the active window. */
  g_action_group_activate_action (G_ACTION_GROUP (cs_test_application), "about", NULL);
  cs_test_spin (100);
  cs_test_destroy_window (window);
}

static guint32
pixel_rgb (const CsTestPixels *pixels, int x, int y)
{
  const guchar *p = pixels->pixels + (gsize) y * pixels->stride + (gsize) x * 4;

  return ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

static guint32
png_rgb (const char *png, int x, int y)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (png);
  guint32 rgb;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  rgb = *(const guint32 *) (cairo_image_surface_get_data (surface) +
                            y * cairo_image_surface_get_stride (surface) + 4 * x) & 0xffffff;
  cairo_surface_destroy (surface);
  return rgb;
}

typedef struct {
  CsTimeline *timeline;
  guint32 rgb;
} PixelWait;

/* The timeline's axis band (top left pixel) has @rgb. */
static gboolean
axis_pixel_is (gpointer data)
{
  PixelWait *wait = data;
  CsTestPixels pixels;
  gboolean same;

  cs_test_pixels_init (&pixels, GTK_WIDGET (wait->timeline));
  same = cs_test_same_color (pixel_rgb (&pixels, 2, 2), wait->rgb, 2);
  cs_test_pixels_clear (&pixels);
  return same;
}

/* Forcing the dark style turns the timeline's page dark (the dark theme's
 * axis colour), while an export of the same view stays light; back to
 * light, the timeline is light again. */
static void
test_dark_style (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *png = g_build_filename (cs_test_work_dir, "dark-export.png", NULL);
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  AdwStyleManager *manager = adw_style_manager_get_default ();
  guint32 light_axis = cs_color_to_rgb24 (&cs_theme_get (CS_COLOR_SCHEME_LIGHT)->axis);
  guint32 dark_axis = cs_color_to_rgb24 (&cs_theme_get (CS_COLOR_SCHEME_DARK)->axis);
  g_autoptr(GError) error = NULL;
  CsExportOptions options;
  PixelWait wait = { timeline, light_axis };

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  cs_test_wait_until (axis_pixel_is, &wait, "a light timeline");

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (manager));
  g_assert_cmpint (cs_timeline_renderer_get_color_scheme (renderer), ==, CS_COLOR_SCHEME_DARK);
  wait.rgb = dark_axis;
  cs_test_wait_until (axis_pixel_is, &wait, "a dark timeline");
  g_assert_false (cs_test_same_color (light_axis, dark_axis, 60));
  cs_test_save_screenshot (GTK_WIDGET (window), "adwaita-dark.png");

  /* The export of this view is light: its page and its axis band. */
  cs_export_options_init (&options, cs_timeline_get_document (timeline));
  options.begin_ns = cs_timeline_get_begin_ns (timeline);
  options.end_ns = cs_timeline_get_end_ns (timeline);
  options.width_px = 800;
  g_assert_true (cs_export_write (renderer, &options, png, &error));
  g_assert_no_error (error);
  g_assert_true (cs_test_same_color (png_rgb (png, 1, 1),
                                     cs_color_to_rgb24 (&cs_theme_get (CS_COLOR_SCHEME_LIGHT)->page), 2));
  g_assert_true (cs_test_same_color (png_rgb (png, 2, (int) cs_export_get_timeline_y (&options) + 2),
                                     light_axis, 2));
  /* ... and the window stays dark. */
  g_assert_cmpint (cs_timeline_renderer_get_color_scheme (renderer), ==, CS_COLOR_SCHEME_DARK);

  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_FORCE_LIGHT);
  wait.rgb = light_axis;
  cs_test_wait_until (axis_pixel_is, &wait, "the timeline light again");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  /* With a recording too, the window goes when destroyed. */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  cs_test_destroy_window (window);
  g_assert_null (window);
}

/* The Preferences window's rows are bound to the settings: a switch
 * turned on sets the key, a key changed elsewhere moves the switch, and
 * the colour scheme row reaches the style manager through the
 * application's binding. */
static void
test_preferences (void)
{
  CsWindow *window = cs_test_new_window (800, 600);
  GtkWindow *preferences = cs_preferences_window_new (GTK_WINDOW (window));
  GSettings *settings = cs_preferences_window_get_settings (CS_PREFERENCES_WINDOW (preferences));
  GtkWidget *toggle, *scheme;
  AdwStyleManager *manager = adw_style_manager_get_default ();

  g_assert_true (ADW_IS_PREFERENCES_WINDOW (preferences));
  g_assert_nonnull (settings);
  gtk_window_present (preferences);
  cs_test_wait_until (cs_test_widget_is_drawable, preferences, "the Preferences window");
  cs_test_save_screenshot (GTK_WIDGET (preferences), "adwaita-preferences.png");

  toggle = cs_test_find_widget (GTK_WIDGET (preferences), GTK_TYPE_SWITCH);
  g_assert_nonnull (toggle);
  g_assert_cmpstr (gtk_widget_get_name (toggle), ==, "restore-session");
  g_assert_false (g_settings_get_boolean (settings, "restore-session"));
  gtk_switch_set_active (GTK_SWITCH (toggle), TRUE);
  g_assert_true (g_settings_get_boolean (settings, "restore-session"));
  g_settings_set_boolean (settings, "restore-session", FALSE);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (toggle)));

  scheme = cs_test_find_widget (GTK_WIDGET (preferences), ADW_TYPE_COMBO_ROW);
  g_assert_nonnull (scheme);
  adw_combo_row_set_selected (ADW_COMBO_ROW (scheme), 2);
  g_assert_cmpstr (g_settings_get_string (settings, "color-scheme"), ==, "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  adw_combo_row_set_selected (ADW_COMBO_ROW (scheme), 0);
  g_assert_cmpstr (g_settings_get_string (settings, "color-scheme"), ==, "default");
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_DEFAULT);

  gtk_window_destroy (preferences);
  cs_test_destroy_window (window);
}

/* Every action with a keyboard accelerator is listed in the shortcuts
 * window (by its action name), and every parameterless action of the
 * primary menu but About has an accelerator. */
static void
test_shortcuts_window (void)
{
  CsWindow *window = cs_test_new_window (800, 600);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_auto(GStrv) described = gtk_application_list_action_descriptions (cs_test_application);
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GPtrArray) actions = NULL;
  GMenuModel *menu;
  GSList *objects;

  g_assert_nonnull (overlay);
  /* The overlay's shortcuts, from the same resource. */
  builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/gtk/help-overlay.ui");
  objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *action = NULL;

        g_object_get (l->data, "action-name", &action, NULL);
        if (action != NULL)
          g_hash_table_add (listed, g_steal_pointer (&action));
      }
  g_slist_free (objects);

  g_assert_cmpuint (g_strv_length (described), >=, 12);
  for (guint i = 0; described[i] != NULL; i++)
    {
      g_auto(GStrv) keys = gtk_application_get_accels_for_action (cs_test_application, described[i]);

      if (keys[0] == NULL)
        continue;
      if (!g_hash_table_contains (listed, described[i]))
        g_error ("%s (%s) is not in the shortcuts window", described[i], keys[0]);
    }

  g_assert_nonnull (find_primary_menu (GTK_WIDGET (window)));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (find_primary_menu (GTK_WIDGET (window))));
  g_assert_nonnull (menu);
  actions = menu_actions (menu);
  for (guint i = 0; i < actions->len - 1; i++)
    {
      const char *action = g_ptr_array_index (actions, i);
      g_auto(GStrv) keys = NULL;

      if (g_str_equal (action, "app.about") || g_str_has_prefix (action, "view."))
        continue;
      keys = gtk_application_get_accels_for_action (cs_test_application, action);
      if (keys[0] == NULL)
        g_error ("The menu's %s has no accelerator", action);
    }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  cs_test_wait_until (cs_test_widget_is_drawable, overlay, "the shortcuts window");
  {
    LabelWait wait = { GTK_WIDGET (overlay), "Open a recording" };

    cs_test_wait_until (label_shows, &wait, "the shortcuts' titles");
  }
  cs_test_save_screenshot (GTK_WIDGET (overlay), "adwaita-shortcuts.png");
  gtk_window_close (GTK_WINDOW (overlay));
  cs_test_destroy_window (window);
}

/* A toast, not a dialog, says what happened. */
static void
test_toast (void)
{
  CsWindow *window = cs_test_new_window (800, 600);
  GtkWidget *overlay = cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TOAST_OVERLAY);
  LabelWait wait = { overlay, "Session saved as “a<b>.json”" };

  g_assert_nonnull (overlay);
  /* Text, not markup: libadwaita 1.2 would read "<b>" as bold. */
  cs_window_show_toast (window, wait.text);
  cs_test_wait_until (label_shows, &wait, "the toast");
  cs_test_destroy_window (window);
}

/* A plugin refusing the recording (tests/gui/refuser-plugin.c) leaves the
 * recording shown, and a toast names the plugin and its reason. */
/* The Plugins dialog's line of the refuser: its name, its reason in the
 * error label, its switch; a built-in's line has no error shown. */
static void
test_plugins_dialog (CsWindow   *window,
                     const char *reason)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *dialog = NULL;
  GtkWidget *label, *sw, *line;

  cs_test_activate (window, "plugins", NULL);
  cs_test_spin (100);
  for (guint i = 0; dialog == NULL && i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (CS_IS_PLUGINS_DIALOG (toplevel))
        dialog = GTK_WINDOW (toplevel);
    }
  g_assert_nonnull (dialog);
  cs_test_wait_until (cs_test_widget_is_drawable, dialog, "the Plugins dialog");
  label = cs_test_find_visible_label (GTK_WIDGET (dialog), reason, GTK_WIDGET (dialog));
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (label, "error"));
  line = gtk_widget_get_ancestor (label, GTK_TYPE_LIST_BOX_ROW);
  sw = cs_test_find_widget (line, GTK_TYPE_SWITCH);
  g_assert_nonnull (sw);
  g_assert_true (gtk_widget_get_visible (sw));
  g_assert_nonnull (cs_test_find_visible_label (line, "Refuser", GTK_WIDGET (dialog)));
  cs_test_save_screenshot (GTK_WIDGET (dialog), "plugins-dialog.png");
  gtk_window_destroy (dialog);
}

static void
test_plugin_refused_toast (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1000, 700);
  LabelWait wait = {
    cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TOAST_OVERLAY),
    /* The host's message, which names the plugin and gives its reason. */
    "The plugin “Refuser” cannot show this recording: this recording has no refuser:events",
  };

  cs_test_wait_until (label_shows, &wait, "the refused plugin's toast");
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_READY);
  test_plugins_dialog (window, wait.text);
  cs_test_destroy_window (window);
}

/* GTK 4.8's GtkShortcutsWindow under libadwaita's stylesheet measures an
 * empty label with negative letter-spacing as -3 px wide and warns; the
 * window draws correctly.  Only that warning is dropped: every other
 * message goes to GLib's writer, fatal as the test harness makes it. */
static GLogWriterOutput
log_writer (GLogLevelFlags   log_level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;
    else if (g_str_equal (fields[i].key, "MESSAGE"))
      message = fields[i].value;
  if ((log_level & G_LOG_LEVEL_WARNING) && g_strcmp0 (domain, "Gtk") == 0 &&
      message != NULL && strstr (message, "reported min width -") != NULL)
    return G_LOG_WRITER_HANDLED;
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  g_assert_nonnull (g_getenv ("CS_REFUSER_PLUGIN"));
  cs_plugin_host_add_file (g_getenv ("CS_REFUSER_PLUGIN"));
  cs_test_gui_init (&argc, &argv, "test-adwaita", TRUE);
  g_log_set_writer_func (log_writer, NULL, NULL);

  g_test_add_func ("/cs/gui/Window/status-page", test_status_page);
  g_test_add_func ("/cs/gui/Window/recent-recordings", test_recent);
  g_test_add_func ("/cs/gui/Window/toast", test_toast);
  g_test_add_func ("/cs/gui/Window/plugin-refused-toast", test_plugin_refused_toast);
  g_test_add_func ("/cs/gui/AboutWindow/version", test_about);
  g_test_add_func ("/cs/gui/Timeline/dark-style", test_dark_style);
  g_test_add_func ("/cs/gui/PreferencesWindow/bound-settings", test_preferences);
  g_test_add_func ("/cs/gui/ShortcutsWindow/lists-actions", test_shortcuts_window);

  return cs_test_gui_run ();
}
