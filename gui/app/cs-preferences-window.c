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
 *
 * The layout is the template cs-preferences-window.ui, where each bound
 * widget has its key for id and name; this file binds them.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-index-cache.h"
#include "cs-preferences-window.h"
#include "cs-window-settings.h"

struct _CsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  /* template widgets */
  AdwActionRow *plugins_row;
  AdwActionRow *cache_row;

  /* owned */
  GSettings *settings;          /* NULL without the schema */
};

G_DEFINE_FINAL_TYPE (CsPreferencesWindow, cs_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char * const color_schemes[] = { "default", "light", "dark" };

/* The template's widgets bound to a key of the same name (their id), and
 * the property that shows it. */
static const struct {
  const char *key;
  const char *property;
} bound_keys[] = {
  { "restore-session", "active" },
  { "graph-follows", "active" },
  { "record-directory", "text" },
  { "record-clock", "text" },
  { "record-buffer-size-kb", "value" },
  { "record-duration", "value" },
  { "demo-module", "text" },
};

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
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CsPreferencesWindow, plugins_row);
  gtk_widget_class_bind_template_child (widget_class, CsPreferencesWindow, cache_row);
  gtk_widget_class_bind_template_child_full (widget_class, "color-scheme", FALSE, 0);
  for (guint i = 0; i < G_N_ELEMENTS (bound_keys); i++)
    gtk_widget_class_bind_template_child_full (widget_class, bound_keys[i].key, FALSE, 0);
  gtk_widget_class_bind_template_callback (widget_class, plugins_clicked_cb);
}

static GObject *
get_child (CsPreferencesWindow *self, const char *id)
{
  return gtk_widget_get_template_child (GTK_WIDGET (self), CS_TYPE_PREFERENCES_WINDOW, id);
}

static void
cs_preferences_window_init (CsPreferencesWindow *self)
{
  g_autofree char *cache_dir = cs_index_cache_dup_dir ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = _cs_settings_lookup ((const char * const[]) { "color-scheme", NULL });
  adw_action_row_set_subtitle (self->cache_row, cache_dir);
  update_plugins_row (self);
  if (self->settings == NULL)
    return;

  g_settings_bind_with_mapping (self->settings, "color-scheme", get_child (self, "color-scheme"), "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_selected, selected_to_scheme,
                                NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bound_keys); i++)
    g_settings_bind (self->settings, bound_keys[i].key, get_child (self, bound_keys[i].key),
                     bound_keys[i].property, G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::disabled-plugins",
                           G_CALLBACK (update_plugins_row), self, G_CONNECT_SWAPPED);
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
