/* cs-field-plot-key.h: what a field-plot row shows, as its key says.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A key is "SYSTEM:EVENT.FIELD", optionally followed by "/NAME=VALUE" to
 * keep only some of the events:
 *   power:cpu_frequency.state                 every cpu_frequency event
 *   sched:sched_stat_runtime.runtime/cpu=1    those in CPU 1's ring buffer
 *   sched:sched_stat_runtime.runtime/pid=42   those of task 42 (common_pid)
 *   power:cpu_frequency.state/cpu_id=0        those whose cpu_id field is 0
 * The key is the row's key (`render --row field-plot:KEY`) and the
 * parameter of the plugin's pass.
 */
#pragma once

#include <event-parse.h>

#include <chronoscope-plugin.h>

G_BEGIN_DECLS

typedef enum {
  CS_FIELD_PLOT_ALL,            /* no filter */
  CS_FIELD_PLOT_CPU,            /* the ring buffer's CPU */
  CS_FIELD_PLOT_PID,            /* common_pid */
  CS_FIELD_PLOT_FIELD,          /* another field of the event */
} CsFieldPlotSplit;

typedef struct {
  char *system;
  char *event;
  char *field;
  CsFieldPlotSplit split;
  char *split_field;            /* for CS_FIELD_PLOT_FIELD */
  gint64 split_value;
} CsFieldPlotKey;

gboolean  _cs_field_plot_key_parse     (const char            *text,
                                        CsFieldPlotKey        *key,
                                        GError               **error);
void      _cs_field_plot_key_clear     (CsFieldPlotKey        *key);
char     *_cs_field_plot_key_to_string (const CsFieldPlotKey  *key);
char     *_cs_field_plot_key_label     (const CsFieldPlotKey  *key);
gboolean  _cs_field_plot_key_check     (const CsFieldPlotKey  *key,
                                        CsPluginDocument      *document,
                                        GError               **error);
gboolean  _cs_field_plot_key_matches   (const CsFieldPlotKey  *key,
                                        const CsPluginEvent   *event);
gboolean  _cs_field_plot_field_is_number (struct tep_format_field *field);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CsFieldPlotKey, _cs_field_plot_key_clear)

G_END_DECLS
