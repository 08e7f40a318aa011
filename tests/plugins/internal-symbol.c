/* internal-symbol.c: a plugin that calls one of Chronoscope's internal
 * functions, which the executable does not export (only the API of
 * include/chronoscope-1/ is): the loader must refuse it, naming the
 * symbol. */
#include <chronoscope-plugin.h>

/* Internal to Chronoscope (index/model/cs-document.h), not in the API. */
extern guint cs_document_get_n_cpus (gpointer document);

static gboolean
internal_init (CsPlugin  *plugin,
               GError   **error)
{
  return cs_document_get_n_cpus (NULL) == 0;
}

CS_PLUGIN_DEFINE ("internal-symbol", "Internal symbol",
                  "Reaches for Chronoscope's internals", "1", internal_init)
