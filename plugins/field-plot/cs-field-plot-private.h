/* cs-field-plot-private.h: the parts of the field-plot plugin.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cs-field-plot.c        the entry, per-recording instance, series cache
 * cs-field-plot-key.c    keys ("power:cpu_frequency.state/cpu_id=0")
 * cs-field-plot-pass.c   the pass writing a key's points and buckets
 * cs-field-plot-series.c reading them back for a frame
 * cs-field-plot-layer.c  the row: drawing and the info bar
 * cs-field-plot-page.c   the window's page: choose a field, add its row
 */
#pragma once

#include <chronoscope-plugin.h>
#include <gtk/gtk.h>

#include "cs-field-plot-key.h"

G_BEGIN_DECLS

/* The window's page (cs-field-plot-page.c, its layout a template). */
#define CS_TYPE_FIELD_PLOT_PAGE (cs_field_plot_page_get_type ())
G_DECLARE_FINAL_TYPE (CsFieldPlotPage, cs_field_plot_page, CS, FIELD_PLOT_PAGE, GtkGrid)

#define CS_FIELD_PLOT_PASS  "values"
/* The module of the pass's table points_rows (cs-plugin-result.h). */
#define CS_FIELD_PLOT_POINTS_MODULE "cs_field_plot_points"
#define CS_FIELD_PLOT_LAYER "values"

typedef struct _CsFieldPlotSeries CsFieldPlotSeries;

/* The plugin's instance for one recording. */
typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;   /* borrowed: the host keeps it alive */
  GHashTable *series;           /* key text -> CsFieldPlotSeries */
  GHashTable *requested;        /* key texts whose pass was asked for */
} CsFieldPlot;

/* A value, or a pixel column's summary of values. */
typedef struct {
  gint64 ts_ns;                 /* the point's time; the column's last value's */
  gint64 n;                     /* values in the column (1 for a point) */
  gint64 min;
  gint64 max;
  gint64 last;
  gint32 cpu;                   /* a point's, -1 for a column */
  gint32 pid;
} CsFieldPlotValue;

void               _cs_field_plot_request        (CsFieldPlot        *self,
                                                  const char         *key);
CsFieldPlotSeries *_cs_field_plot_get_series     (CsFieldPlot        *self,
                                                  const char         *key,
                                                  GError            **error);

void               _cs_field_plot_add_pass       (CsPlugin           *plugin);
void               _cs_field_plot_add_layer      (CsPlugin           *plugin);
void               _cs_field_plot_add_page       (CsPlugin           *plugin);

CsFieldPlotSeries *_cs_field_plot_series_open    (sqlite3            *db,
                                                  GError            **error);
void               _cs_field_plot_series_free    (CsFieldPlotSeries  *series);
gint64             _cs_field_plot_series_get_n_points (CsFieldPlotSeries *series);
void               _cs_field_plot_series_get_range (CsFieldPlotSeries *series,
                                                  gint64             *min_value,
                                                  gint64             *max_value);
gboolean           _cs_field_plot_series_read    (CsFieldPlotSeries  *series,
                                                  gint64              begin_ns,
                                                  gint64              end_ns,
                                                  double              ns_per_column,
                                                  guint               max_points,
                                                  GArray             *values,
                                                  gboolean           *exact,
                                                  GError            **error);
guint              _cs_field_plot_log2           (guint64             n);
gboolean           _cs_field_plot_series_get_before (CsFieldPlotSeries *series,
                                                  gint64              ts_ns,
                                                  CsFieldPlotValue   *value,
                                                  GError            **error);

G_END_DECLS
