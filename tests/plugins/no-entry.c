/* no-entry.c: a shared object that is not a Chronoscope plugin (no
 * chronoscope_plugin_entry). */
#include <gmodule.h>

G_MODULE_EXPORT int not_a_plugin (void);

G_MODULE_EXPORT int
not_a_plugin (void)
{
  return 42;
}
