/* cs-about.c: the About Chronoscope window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An AdwAboutWindow (libadwaita 1.2) with what the HIG asks for: the
 * application icon, name, version (meson's project version), developers,
 * licence, website and where to report a problem (PACKAGE_ISSUE_URL in
 * config.h), and the translators of the current language.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-about.h"

/**
 * cs_about_window_new:
 * @parent: (nullable): the window it is about, or %NULL
 *
 * Returns: (transfer none): a new About window, modal for @parent, not yet
 *   presented; it destroys itself when closed
 */
GtkWindow *
cs_about_window_new (GtkWindow *parent)
{
  static const char * const developers[] = { "The Chronoscope developers", NULL };
  AdwAboutWindow *about;
  const char *translators;

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  adw_about_window_set_application_icon (about, APP_ID);
  adw_about_window_set_application_name (about, _("Chronoscope"));
  adw_about_window_set_developer_name (about, "The Chronoscope developers");
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about, _("See which task ran on which CPU, and when, in Linux ftrace recordings"));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_2_0);
  adw_about_window_set_website (about, PACKAGE_WEBSITE);
  adw_about_window_set_issue_url (about, PACKAGE_ISSUE_URL);
  adw_about_window_set_developers (about, (const char **) developers);
  /* TRANSLATORS: your name, one translator a line */
  translators = _("translator-credits");
  if (g_strcmp0 (translators, "translator-credits") != 0)
    adw_about_window_set_translator_credits (about, translators);
  adw_about_window_add_acknowledgement_section (about, _("Built on"),
                                                (const char *[]) {
                                                  "GTK https://gtk.org",
                                                  "libadwaita https://gnome.pages.gitlab.gnome.org/libadwaita/",
                                                  "libtracecmd, libtracefs, libtraceevent https://git.kernel.org/pub/scm/libs/libtrace/",
                                                  "SQLite https://sqlite.org",
                                                  NULL,
                                                });
  if (parent != NULL)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_modal (GTK_WINDOW (about), TRUE);
    }
  return GTK_WINDOW (about);
}
