/* cs-record-event-tree.h: the record panel's tree of trace events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-record-options.h"

G_BEGIN_DECLS

#define CS_TYPE_RECORD_EVENT_TREE (cs_record_event_tree_get_type ())
G_DECLARE_FINAL_TYPE (CsRecordEventTree, cs_record_event_tree, CS, RECORD_EVENT_TREE, GtkBox)

void      cs_record_event_tree_set_available  (CsRecordEventTree   *self,
                                               const char * const  *events);
guint     cs_record_event_tree_get_n_systems  (CsRecordEventTree   *self);
void      cs_record_event_tree_set_event      (CsRecordEventTree   *self,
                                               const char          *key,
                                               gboolean             enabled,
                                               const char          *filter);
gboolean  cs_record_event_tree_get_enabled    (CsRecordEventTree   *self,
                                               const char          *key);
void      cs_record_event_tree_restore        (CsRecordEventTree   *self,
                                               const char * const  *enabled,
                                               GVariant            *filters);
char    **cs_record_event_tree_dup_enabled    (CsRecordEventTree   *self);
GVariant *cs_record_event_tree_dup_filters    (CsRecordEventTree   *self);
void      cs_record_event_tree_add_to_options (CsRecordEventTree   *self,
                                               CsRecordOptions     *options);
void      cs_record_event_tree_set_search     (CsRecordEventTree   *self,
                                               const char          *text);
guint     cs_record_event_tree_get_n_rows     (CsRecordEventTree   *self);

G_END_DECLS
