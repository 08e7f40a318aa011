/* cs-preferences-window.c: the Preferences window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What was only in GSettings (data/org.chronoscope.Chronoscope.gschema.xml),
 * bound to the keys with g_settings_bind(), so a change applies at once and
 * `gsettings set` shows here:
 *
 * - Appearance: color-scheme (follow the desktop, light, dark).
 * - Opening recordings: restore-session, graph-follows; where the index
 *   cache lives ($XDG_CACHE_HOME/chronoscope, not a setting).
 * - Plugins: disabled-plugins is edited by the Plugins dialog's switches;
 *   a row says how many are off and opens it (win.plugins).
 * - Recording and Classroom demos: the record panel's folder, trace clock,
 *   ring-buffer size and duration, and the demos' module.
 *
 * The window, size and last-folder keys are remembered state, not
 * preferences, and the record panel's event choices are edited where they
 * are used.  Without the schema (an uninstalled build) the rows are
 * insensitive.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-index-cache.h"
#include "cs-preferences-window.h"
#include "cs-window-settings.h"

struct _CsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  /* widgets */
  AdwActionRow *plugins_row;

  /* owned */
  GSettings *settings;          /* NULL without the schema */
};

G_DEFINE_FINAL_TYPE (CsPreferencesWindow, cs_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char * const color_schemes[] = { "default", "light", "dark" };

static gboolean
scheme_to_selected (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (color_schemes); i++)
    if (g_str_equal (scheme, color_schemes[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
selected_to_scheme (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  return g_variant_new_string (color_schemes[selected < G_N_ELEMENTS (color_schemes) ? selected : 0]);
}

static AdwPreferencesGroup *
add_group (AdwPreferencesPage *page,
           const char         *title,
           const char         *description)
{
  AdwPreferencesGroup *group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());

  adw_preferences_group_set_title (group, title);
  if (description != NULL)
    adw_preferences_group_set_description (group, description);
  adw_preferences_page_add (page, group);
  return group;
}

static AdwActionRow *
add_row (AdwPreferencesGroup *group,
         const char          *title,
         const char          *subtitle,
         GtkWidget           *suffix)
{
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (row, subtitle);
  if (suffix != NULL)
    {
      gtk_widget_set_valign (suffix, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (row, suffix);
      adw_action_row_set_activatable_widget (row, suffix);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (suffix),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
    }
  adw_preferences_group_add (group, GTK_WIDGET (row));
  return row;
}

/* A switch row bound to boolean @key. */
static void
add_switch (CsPreferencesWindow *self,
            AdwPreferencesGroup *group,
            const char          *key,
            const char          *title,
            const char          *subtitle)
{
  GtkWidget *toggle = gtk_switch_new ();

  gtk_widget_set_name (toggle, key);
  add_row (group, title, subtitle, toggle);
  if (self->settings != NULL)
    g_settings_bind (self->settings, key, toggle, "active", G_SETTINGS_BIND_DEFAULT);
}

/* An entry row bound to string @key. */
static void
add_entry (CsPreferencesWindow *self,
           AdwPreferencesGroup *group,
           const char          *key,
           const char          *title)
{
  GtkWidget *row = adw_entry_row_new ();

  gtk_widget_set_name (row, key);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_group_add (group, row);
  if (self->settings != NULL)
    g_settings_bind (self->settings, key, row, "text", G_SETTINGS_BIND_DEFAULT);
}

/* A spin button row bound to numeric @key, within the key's range. */
static void
add_spin (CsPreferencesWindow *self,
          AdwPreferencesGroup *group,
          const char          *key,
          const char          *title,
          const char          *subtitle,
          double               max,
          double               step)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (0, max, step);

  gtk_widget_set_name (spin, key);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  add_row (group, title, subtitle, spin);
  if (self->settings != NULL)
    g_settings_bind (self->settings, key, spin, "value", G_SETTINGS_BIND_DEFAULT);
}

static void
update_plugins_row (CsPreferencesWindow *self)
{
  g_auto(GStrv) disabled = NULL;
  g_autofree char *subtitle = NULL;
  guint n;

  if (self->settings == NULL)
    return;
  disabled = g_settings_get_strv (self->settings, "disabled-plugins");
  n = g_strv_length (disabled);
  if (n == 0)
    subtitle = g_strdup (_("All plugins are on"));
  else
    subtitle = g_strdup_printf (ngettext ("%u plugin is off", "%u plugins are off", n), n);
  adw_action_row_set_subtitle (self->plugins_row, subtitle);
}

static void
plugins_clicked_cb (CsPreferencesWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.plugins", NULL);
}

static void
build_general_page (CsPreferencesWindow *self)
{
  AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  AdwPreferencesGroup *group;
  AdwComboRow *scheme_row;
  GtkStringList *schemes;
  GtkWidget *button;
  g_autofree char *cache_dir = cs_index_cache_dup_dir ();

  adw_preferences_page_set_title (page, _("General"));
  adw_preferences_page_set_icon_name (page, "preferences-system-symbolic");

  group = add_group (page, _("Appearance"), NULL);
  schemes = gtk_string_list_new ((const char *[]) { _("Follow the System"), _("Light"), _("Dark"), NULL });
  scheme_row = ADW_COMBO_ROW (adw_combo_row_new ());
  gtk_widget_set_name (GTK_WIDGET (scheme_row), "color-scheme");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (scheme_row), _("_Style"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (scheme_row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (scheme_row),
                               _("The timeline follows it; exported pictures stay light"));
  adw_combo_row_set_model (scheme_row, G_LIST_MODEL (schemes));
  g_object_unref (schemes);
  adw_preferences_group_add (group, GTK_WIDGET (scheme_row));
  if (self->settings != NULL)
    g_settings_bind_with_mapping (self->settings, "color-scheme", scheme_row, "selected",
                                  G_SETTINGS_BIND_DEFAULT, scheme_to_selected, selected_to_scheme,
                                  NULL, NULL);

  group = add_group (page, _("Opening Recordings"), NULL);
  add_switch (self, group, "restore-session", _("_Restore the Last Session"),
              _("At start, open the last recording with its span, markers and plots"));
  add_switch (self, group, "graph-follows", _("_Timeline Follows the Event List"),
              _("Selecting an event in the list moves the timeline to it"));
  add_row (group, _("Index Cache"), cache_dir, NULL);

  group = add_group (page, _("Plugins"), NULL);
  button = gtk_button_new_with_mnemonic (_("_Plugins…"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (plugins_clicked_cb), self, G_CONNECT_SWAPPED);
  self->plugins_row = add_row (group, _("Plugins in Use"), NULL, button);
  update_plugins_row (self);
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed::disabled-plugins",
                             G_CALLBACK (update_plugins_row), self, G_CONNECT_SWAPPED);

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
}

static void
build_recording_page (CsPreferencesWindow *self)
{
  AdwPreferencesPage *page = ADW_PREFERENCES_PAGE (adw_preferences_page_new ());
  AdwPreferencesGroup *group;

  adw_preferences_page_set_title (page, _("Recording"));
  adw_preferences_page_set_icon_name (page, "media-record-symbolic");

  group = add_group (page, _("Recording"),
                     _("What the record panel starts with; its own choices of events are made there"));
  add_entry (self, group, "record-directory", _("Folder of New Recordings"));
  add_entry (self, group, "record-clock", _("Trace Clock (local, global, mono, boot…)"));
  add_spin (self, group, "record-buffer-size-kb", _("Ring-_Buffer Size per CPU (KiB)"),
            _("0 keeps the kernel’s default"), 4194304, 1024);
  add_spin (self, group, "record-duration", _("_Duration (s)"), _("0 records until Stop"), 86400, 1);

  group = add_group (page, _("Classroom Demos"), NULL);
  add_entry (self, group, "demo-module", _("Module (chronoscope_tracer.ko; empty: the installed one)"));

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), page);
}

static void
cs_preferences_window_dispose (GObject *object)
{
  CsPreferencesWindow *self = CS_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cs_preferences_window_parent_class)->dispose (object);
}

static void
cs_preferences_window_class_init (CsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_preferences_window_dispose;
}

static void
cs_preferences_window_init (CsPreferencesWindow *self)
{
  self->settings = _cs_settings_lookup ((const char * const[]) { "color-scheme", NULL });
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_default_size (GTK_WINDOW (self), 600, 640);
  adw_preferences_window_set_search_enabled (ADW_PREFERENCES_WINDOW (self), TRUE);
  build_general_page (self);
  build_recording_page (self);
}

/**
 * cs_preferences_window_new:
 * @parent: (nullable): the window it opens over
 *
 * Returns: (transfer none): the Preferences window, modal for @parent,
 *   not yet presented; it destroys itself when closed
 */
GtkWindow *
cs_preferences_window_new (GtkWindow *parent)
{
  GtkWindow *window = g_object_new (CS_TYPE_PREFERENCES_WINDOW, NULL);

  if (parent != NULL)
    {
      gtk_window_set_transient_for (window, parent);
      gtk_window_set_modal (window, TRUE);
    }
  return window;
}

/**
 * cs_preferences_window_get_settings:
 * @self: a #CsPreferencesWindow
 *
 * Returns: (transfer none) (nullable): the settings the rows are bound to,
 *   or %NULL when the schema is not installed
 */
GSettings *
cs_preferences_window_get_settings (CsPreferencesWindow *self)
{
  g_return_val_if_fail (CS_IS_PREFERENCES_WINDOW (self), NULL);

  return self->settings;
}
