/* cs-window-settings.c: the window's remembered size.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The window's GSettings are optional, so that it also runs uninstalled:
 * without the schema (or with an older one) the window keeps no state.
 * window-width, window-height and window-maximized are saved when a
 * window closes and restored by the next one.
 */
#include "config.h"

#include "cs-window-settings.h"

/**
 * _cs_settings_lookup:
 * @keys: (array zero-terminated=1): keys the caller reads
 *
 * The application's settings are optional, so that an uninstalled build
 * runs too (GSETTINGS_SCHEMA_DIR unset): callers keep no state without them.
 *
 * Returns: (transfer full) (nullable): the settings of APP_ID, or %NULL
 *   when the schema is not installed or lacks one of @keys (an older one)
 */
GSettings *
_cs_settings_lookup (const char * const *keys)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  schema = source != NULL ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  if (schema == NULL)
    return NULL;

  for (guint i = 0; keys[i] != NULL; i++)
    if (!g_settings_schema_has_key (schema, keys[i]))
      {
        g_debug ("Schema %s has no key %s; not using it", APP_ID, keys[i]);
        return NULL;
      }

  return g_settings_new_full (schema, NULL, NULL);
}

/**
 * _cs_window_settings_lookup:
 *
 * Returns: (transfer full) (nullable): the settings with the keys the
 *   window uses, see _cs_settings_lookup()
 */
GSettings *
_cs_window_settings_lookup (void)
{
  static const char * const keys[] = {
    "window-width", "window-height", "window-maximized", "last-directory", NULL,
  };

  return _cs_settings_lookup (keys);
}

/**
 * _cs_window_settings_restore_size:
 * @window: a window not yet shown
 * @settings: (nullable): from _cs_window_settings_lookup()
 *
 * Gives @window the size (logical px) and maximized state saved last.
 */
void
_cs_window_settings_restore_size (GtkWindow *window,
                                  GSettings *settings)
{
  int width, height;

  if (settings == NULL)
    return;

  width = g_settings_get_int (settings, "window-width");
  height = g_settings_get_int (settings, "window-height");
  if (width > 0 && height > 0)
    gtk_window_set_default_size (window, width, height);
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
}

/**
 * _cs_window_settings_save_size:
 * @window: a window being closed
 * @settings: (nullable): from _cs_window_settings_lookup()
 *
 * Saves @window's unmaximized size and maximized state, in one write.
 */
void
_cs_window_settings_save_size (GtkWindow *window,
                               GSettings *settings)
{
  int width, height;

  if (settings == NULL)
    return;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (settings);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
    }
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (window));
  g_settings_apply (settings);
}
