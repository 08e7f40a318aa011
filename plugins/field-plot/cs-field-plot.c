/* cs-field-plot.c: the field-plot plugin.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Plots a number field of one event type over time (cpu_frequency's
 * state, sched_stat_runtime's runtime, kmem's bytes_alloc, irq's irq...),
 * for all those events or only those of one CPU, one task or one value of
 * another field, in rows of its own (key syntax in cs-field-plot-key.h).
 * Each row's values come from a pass run for its key, which writes the
 * values and a pyramid of summaries (cs-field-plot-pass.c); zoomed in the
 * row shows the exact points, zoomed out the min, max and last value of
 * each pixel column (cs-field-plot-layer.c).  The window's page chooses
 * the event, the field and the filter, and adds the row
 * (cs-field-plot-page.c); `chronoscope render --row field-plot:KEY` draws
 * one from the command line.
 *
 * Built only against the public API (<chronoscope-plugin.h>).
 */
#include <glib/gi18n-lib.h>

#include "cs-field-plot-private.h"

static gpointer
field_plot_open (CsPlugin          *plugin,
                 CsPluginDocument  *document,
                 GError           **error)
{
  CsFieldPlot *self = g_new0 (CsFieldPlot, 1);

  self->plugin = plugin;
  self->document = document;
  self->series = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) _cs_field_plot_series_free);
  self->requested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

static void
field_plot_close (gpointer instance)
{
  CsFieldPlot *self = instance;

  /* The series' statements go before the document closes their databases. */
  g_hash_table_unref (self->series);
  g_hash_table_unref (self->requested);
  g_free (self);
}

static void
field_plot_pass_ready (gpointer    instance,
                       const char *pass,
                       const char *param)
{
  CsFieldPlot *self = instance;

  /* The results are new: read them afresh at the next frame. */
  if (param != NULL)
    {
      g_hash_table_remove (self->series, param);
      g_hash_table_remove (self->requested, param);
    }
}

/**
 * _cs_field_plot_request:
 * @self: the plugin's instance
 * @key: a row's key, checked
 *
 * Asks for the key's pass unless its results exist or it was asked for
 * already.  Called when a row is set up (its label is asked for), never
 * while a frame is drawn: a window shows the pass's progress, which must
 * not change its widgets in the middle of a frame.  Without a window the
 * pass has run when this returns.
 */
void
_cs_field_plot_request (CsFieldPlot *self,
                        const char  *key)
{
  if (g_hash_table_contains (self->series, key) || g_hash_table_contains (self->requested, key) ||
      cs_plugin_document_get_pass_db (self->document, self->plugin, CS_FIELD_PLOT_PASS, key, NULL) != NULL)
    return;
  g_hash_table_add (self->requested, g_strdup (key));
  cs_plugin_document_request_pass (self->document, self->plugin, CS_FIELD_PLOT_PASS, key);
}

/**
 * _cs_field_plot_get_series:
 * @self: the plugin's instance
 * @key: a row's key
 * @error: %CS_PLUGIN_ERROR_NOT_READY while its pass has not run (see
 *   _cs_field_plot_request()), %CS_PLUGIN_ERROR_FAILED
 *
 * Returns: (transfer none) (nullable): the key's series, kept until its
 *   pass runs again or the recording closes
 */
CsFieldPlotSeries *
_cs_field_plot_get_series (CsFieldPlot  *self,
                           const char   *key,
                           GError      **error)
{
  CsFieldPlotSeries *series = g_hash_table_lookup (self->series, key);
  sqlite3 *db;

  if (series != NULL)
    return series;
  db = cs_plugin_document_get_pass_db (self->document, self->plugin, CS_FIELD_PLOT_PASS, key, error);
  if (db == NULL)
    return NULL;
  series = _cs_field_plot_series_open (db, error);
  if (series != NULL)
    g_hash_table_insert (self->series, g_strdup (key), series);
  return series;
}

static gboolean
field_plot_init (CsPlugin  *plugin,
                 GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    .struct_size = sizeof (CsPluginDocumentHooks),
    .open = field_plot_open,
    .close = field_plot_close,
    .pass_ready = field_plot_pass_ready,
  };

  cs_plugin_set_document_hooks (plugin, &hooks);
  _cs_field_plot_add_pass (plugin);
  _cs_field_plot_add_layer (plugin);
  _cs_field_plot_add_page (plugin);
  return TRUE;
}

CS_PLUGIN_DEFINE ("field-plot", N_("Field plot"),
                  N_("Plots a number field of an event over time, per CPU or per task"),
                  "1.0", field_plot_init)
