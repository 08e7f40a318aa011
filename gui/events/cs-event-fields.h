/* cs-event-fields.h: the window listing one event's fields.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_EVENT_FIELDS (cs_event_fields_get_type ())
G_DECLARE_FINAL_TYPE (CsEventFields, cs_event_fields, CS, EVENT_FIELDS, GtkWindow)

CsEventFields *cs_event_fields_new     (GtkWindow     *parent,
                                        const char    *title,
                                        const char    *copy_text);
void           cs_event_fields_add_row (CsEventFields *self,
                                        const char    *name,
                                        const char    *value,
                                        gboolean       monospace);

G_END_DECLS
