/* test-german.c: the window in German under Xvfb (issue 15, part 4).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process with LC_ALL=de_DE.UTF-8 and the build
 * tree's de.mo ($CHRONOSCOPE_LOCALEDIR, bound before gtk_init): the status
 * page, the primary menu, the event list's columns and the plugin pages' tab
 * titles are German, and the duration helpers write a decimal comma.  The de_DE.UTF-8 locale comes
 * from Debian's locales-all; without it the test fails saying so.
 * A damaged recording's message, built in index/ by the indexing worker
 * (this program run as `index-worker`), reaches the window in German too.
 */
#include "config.h"

#include <locale.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "cs-cli.h"
#include "cs-format.h"
#include "cs-time-axis.h"
#include "cs-window.h"
#include "gui-test-util.h"

/* The primary menu: the menu button with the open-menu icon. */
static gboolean
is_primary_menu (GtkWidget *widget, gconstpointer unused)
{
  return GTK_IS_MENU_BUTTON (widget) &&
         g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (widget)), "open-menu-symbolic") == 0;
}

/* The label of the item of @menu (any section) whose action is @action. */
static char *
menu_label (GMenuModel *menu, const char *action)
{
  for (int s = 0; s < g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, s, G_MENU_LINK_SECTION);

      for (int i = 0; section != NULL && i < g_menu_model_get_n_items (section); i++)
        {
          g_autofree char *item_action = NULL;
          char *label = NULL;

          if (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action) &&
              g_strcmp0 (item_action, action) == 0 &&
              g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
            return label;
        }
    }
  return NULL;
}

/* Without a recording: the status page and the primary menu speak German. */
static void
test_status_page (void)
{
  CsWindow *window = cs_test_new_window (1000, 700);
  GtkWidget *status = cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE);
  GtkWidget *header = cs_test_find_widget (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  GtkWidget *menu = NULL;
  g_autofree char *preferences = NULL;
  g_autofree char *about = NULL;

  g_assert_nonnull (status);
  cs_test_wait_until (cs_test_widget_is_drawable, status, "the status page");
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==,
                   "Eine Aufzeichnung öffnen");

  g_assert_nonnull (header);
  menu = cs_test_find_where (header, is_primary_menu, NULL);
  g_assert_nonnull (menu);
  preferences = menu_label (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu)), "app.preferences");
  about = menu_label (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu)), "app.about");
  g_assert_cmpstr (preferences, ==, "_Einstellungen");
  g_assert_cmpstr (about, ==, "_Info zu Chronoscope");
  cs_test_save_screenshot (GTK_WIDGET (window), "german-status-page.png");
  cs_test_destroy_window (window);
}

/* With a recording: the event list's column titles are German. */
static void
test_event_list_columns (void)
{
  g_autofree char *path = cs_test_find_recording ();
  CsWindow *window = cs_test_open_window (path, 1200, 800);
  GtkWidget *view;
  GListModel *columns;
  gboolean time_found = FALSE, event_found = FALSE;

  cs_test_wait_until (cs_test_window_is_ready, window, "the recording");
  view = cs_test_find_widget (GTK_WIDGET (window), GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (view);
  columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (view));
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *title = gtk_column_view_column_get_title (column);

      g_assert_cmpstr (title, !=, "Time");
      time_found |= g_strcmp0 (title, "Zeit") == 0;
      event_found |= g_strcmp0 (title, "Ereignis") == 0;
    }
  g_assert_true (time_found);
  g_assert_true (event_found);

  /* The built-in plugins' page titles (N_() in the plugins) are German. */
  {
    GtkWidget *notebook = cs_test_find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK);
    gboolean latency_found = FALSE;

    g_assert_nonnull (notebook);
    for (int i = 0; i < gtk_notebook_get_n_pages (GTK_NOTEBOOK (notebook)); i++)
      {
        GtkWidget *page = gtk_notebook_get_nth_page (GTK_NOTEBOOK (notebook), i);
        const char *text = gtk_notebook_get_tab_label_text (GTK_NOTEBOOK (notebook), page);

        g_test_message ("tab %d: %s", i, text);
        g_assert_cmpstr (text, !=, "Latency");
        latency_found |= g_strcmp0 (text, "Latenz") == 0;
      }
    g_assert_true (latency_found);
  }
  cs_test_save_screenshot (GTK_WIDGET (window), "german-window.png");
  cs_test_destroy_window (window);
}

/* A truncated recording: the window shows the trace.dat reader's message,
 * which the worker process built in index/, in German. */
static void
test_damaged_recording (void)
{
  g_autofree char *source = cs_test_find_recording ();
  g_autofree char *path = g_build_filename (cs_test_work_dir, "abgeschnitten.dat", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  const char *message;
  CsWindow *window;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 3000);
  g_assert_true (g_file_set_contents (path, contents, 3000, NULL));

  window = cs_test_new_window (800, 500);
  message = cs_test_open_failing (window, path, "the worker on a truncated recording");
  g_assert_nonnull (strstr (message, "abgeschnitten.dat"));
  g_assert_nonnull (strstr (message, "reichen über das Dateiende hinaus (3000 Bytes)"));
  g_assert_null (strstr (message, "past the end"));
  cs_test_destroy_window (window);
}

/* Durations for people use the locale's decimal comma and counts its
 * grouping, as the window and the export show them. */
static void
test_numbers (void)
{
  g_autofree char *duration = cs_format_duration (3200000);
  g_autofree char *axis = cs_time_format_duration (1250);
  g_autofree char *count = cs_format_count (1234567);

  g_assert_cmpstr (duration, ==, "3,20 ms");
  g_assert_cmpstr (axis, ==, "1,250 µs");
  g_assert_cmpstr (count, ==, "1.234.567");
}

int
main (int argc, char *argv[])
{
  const char *localedir = g_getenv ("CHRONOSCOPE_LOCALEDIR");

  g_setenv ("LC_ALL", "de_DE.UTF-8", TRUE);
  g_setenv ("LANGUAGE", "de", TRUE);
  if (setlocale (LC_ALL, "") == NULL)
    {
      g_printerr ("The de_DE.UTF-8 locale is missing: install the Debian package locales-all\n");
      return 1;
    }
  g_assert_nonnull (localedir);
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* The window runs /proc/self/exe index-worker FILE: be that worker, with
   * the catalogue bound as main.c binds it before any command. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-german", TRUE);

  g_test_add_func ("/cs/gui/Window/german-status-page", test_status_page);
  g_test_add_func ("/cs/gui/Window/german-event-list", test_event_list_columns);
  g_test_add_func ("/cs/gui/Window/german-damaged-recording", test_damaged_recording);
  g_test_add_func ("/cs/gui/Format/german-numbers", test_numbers);

  return cs_test_gui_run ();
}
