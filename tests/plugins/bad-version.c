/* bad-version.c: a plugin built for another plugin API version; the loader
 * must refuse it without reading past the version. */
#include <chronoscope-plugin.h>

G_MODULE_EXPORT const CsPluginEntry *chronoscope_plugin_entry (void);

G_MODULE_EXPORT const CsPluginEntry *
chronoscope_plugin_entry (void)
{
  static const CsPluginEntry entry = {
    CS_PLUGIN_API_VERSION + 41, sizeof (CsPluginEntry),
    "bad-version", "Bad version", "Built for a future API", "1", NULL,
  };
  return &entry;
}
