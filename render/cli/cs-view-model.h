/* cs-view-model.h: what a window shows of its recording, as properties.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-document.h"

G_BEGIN_DECLS

/**
 * CS_VIEW_MODEL_MARKER_UNSET:
 *
 * The time of a marker that is not placed (as the timeline's
 * %CS_MARKER_UNSET).
 */
#define CS_VIEW_MODEL_MARKER_UNSET G_GINT64_CONSTANT (-1)

#define CS_TYPE_VIEW_MODEL (cs_view_model_get_type ())
G_DECLARE_FINAL_TYPE (CsViewModel, cs_view_model, CS, VIEW_MODEL, GObject)

CsViewModel  *cs_view_model_new              (void);
GFile        *cs_view_model_get_file         (CsViewModel  *self);
CsDocument   *cs_view_model_get_document     (CsViewModel  *self);
gint64        cs_view_model_get_begin_ns     (CsViewModel  *self);
gint64        cs_view_model_get_end_ns       (CsViewModel  *self);
void          cs_view_model_set_span         (CsViewModel  *self,
                                              gint64        begin_ns,
                                              gint64        end_ns);
gint64        cs_view_model_get_marker_ns    (CsViewModel  *self,
                                              guint         marker);
guint         cs_view_model_get_active_marker (CsViewModel *self);
const char   *cs_view_model_get_filter_text  (CsViewModel  *self);
const char   *cs_view_model_get_query_text   (CsViewModel  *self);
const char * const *cs_view_model_get_query_history (CsViewModel *self);
const char * const *cs_view_model_get_plugin_rows   (CsViewModel *self);
GVariant     *cs_view_model_get_cpu_plots    (CsViewModel  *self);
GVariant     *cs_view_model_get_task_plots   (CsViewModel  *self);
void          cs_view_model_add_task_plot    (CsViewModel  *self,
                                              gint32        pid);

G_END_DECLS
